"""The Ranged and Melee Phases (WB-RANGED, WB-MELEE): who may attack whom with what, and the
batches of attacks they make (WB-AMB-26, WB-AMB-39)."""

from __future__ import annotations

from itertools import product

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import (
    Square,
    arc_of,
    burst_squares,
    chebyshev,
    has_line_of_sight,
    in_cover,
    wave_squares,
)
from warhost.rulesets.warband.attacks import (
    AttackProfile,
    Circumstances,
    melee_strength,
    resolve_attack,
)
from warhost.rulesets.warband.injury import apply_batch
from warhost.rulesets.warband.model import Weapon
from warhost.rulesets.warband.state import (
    STUNNED,
    Character,
    WarbandState,
    order_word,
)

NONE = Order("none")


# ------------------------------------------------------------------------- circumstances


def can_see(state: WarbandState, a: Square, b: Square) -> bool:
    """Line of sight between two squares (WB-AMB-04)."""
    metering.count(GEOMETRY, chebyshev(a, b) + 1)
    return has_line_of_sight(a, b, state.blocks_sight)


def outnumbered(state: WarbandState, char: Character) -> bool:
    """Engaged with at least twice (1 + adjacent allies) enemies (WB-CIRC-04, WB-AMB-32)."""
    enemies = len(state.engaged_enemies(char))
    return enemies > 0 and enemies >= 2 * (1 + len(state.adjacent_allies(char)))


def in_rear(state: WarbandState, attacker: Character, target: Character) -> bool:
    """The attacker stands in the target's rear arc (WB-CIRC-15, WB-AMB-35)."""
    assert attacker.square is not None and target.square is not None
    return (chebyshev(attacker.square, target.square) == 1
            and arc_of(target.square, target.facing, attacker.square) == "rear")


def melee_circumstances(state: WarbandState, attacker: Character, target: Character, *,
                        opportunity: bool = False, spell: str | None = None) -> Circumstances:
    """The flags of a melee attack (or Melee Spell) from the position."""
    assert attacker.square is not None and target.square is not None
    return Circumstances(
        mode="melee",
        charging=attacker.charged is not None and not attacker.charge_braced,
        high_ground=state.level(attacker.square) > state.level(target.square),
        attacker_lying=attacker.lying,
        target_lying=target.lying,
        target_condition=target.condition,
        flanking=opportunity or in_rear(state, attacker, target),
        opportunity=opportunity,
        outnumbered=outnumbered(state, target),
        spell=spell,
    )


def ranged_circumstances(state: WarbandState, attacker: Character, target: Character, *,
                         volley: bool = False, stand_and_shoot: bool = False,
                         spell: str | None = None) -> Circumstances:
    """The flags of a ranged attack (or Ranged/Direct Spell) from the position."""
    assert attacker.square is not None and target.square is not None
    return Circumstances(
        mode="ranged",
        high_ground=state.level(attacker.square) > state.level(target.square),
        target_lying=target.lying,
        target_condition=target.condition,
        cover=in_cover(attacker.square, target.square, state.cover.__contains__),
        into_melee=state.engaged(target),
        volley=volley,
        stand_and_shoot=stand_and_shoot,
        outnumbered=outnumbered(state, target),
        spell=spell,
    )


# ----------------------------------------------------------------------------------- melee


def melee_profile(attacker: Character, weapon: Weapon) -> AttackProfile:
    """The profile of a melee attack with ``weapon``."""
    return AttackProfile(weapon.name, melee_strength(attacker, weapon.strength),
                         weapon.penetration, weapon.poisoned, weapon.magic, skill="melee")


def ranged_profile(weapon: Weapon) -> AttackProfile:
    """The profile of a shot with ``weapon``: the weapon's own Strength (WB-ATTACK-06)."""
    return AttackProfile(weapon.name, weapon.strength or 0, weapon.penetration,
                         weapon.poisoned, weapon.magic, auto_hit=weapon.wave, skill="ranged")


def weapon_limit(char: Character, weapon: Weapon) -> int:
    """Attacks ``char`` may still make with ``weapon`` this turn: the lower of its Attack
    Limit (1 when a ranged profile gives none) and the Attacks left (WB-ATTACK-15/16)."""
    limit = weapon.attack_limit
    if limit is None:
        limit = 1 if weapon.kind == "ranged" else char.attacks_left
    return min(limit, char.attacks_left)


def in_reach(state: WarbandState, attacker: Character, target: Character, weapon: Weapon
             ) -> bool:
    """Within the weapon's reach, elevations at most 1 apart (WB-ATTACK-01, WB-AMB-27)."""
    if attacker.square is None or target.square is None or not target.on_map:
        return False
    if "ethereal" in target.traits and not weapon.magic:
        return False  # WB-SPECIAL-05, WB-AMB-38
    return (chebyshev(attacker.square, target.square) <= weapon.reach
            and abs(state.level(attacker.square) - state.level(target.square)) <= 1)


def melee_batch(state: WarbandState, battle: Battle, attacker: Character, target: Character,
                weapon: Weapon, count: int, *, opportunity: bool = False) -> None:
    """``count`` melee attacks with ``weapon`` at ``target``, applied as one batch."""
    circ = melee_circumstances(state, attacker, target, opportunity=opportunity)
    profile = melee_profile(attacker, weapon)
    run_batch(state, battle, attacker, target, profile, circ, count)


def run_batch(state: WarbandState, battle: Battle, attacker: Character, target: Character,
              profile: AttackProfile, circ: Circumstances, count: int) -> None:
    """Resolve ``count`` attacks and apply their confirmed wounds together (WB-AMB-39)."""
    confirmed = 0
    critical = False
    overkill = False
    for _ in range(count):
        result = resolve_attack(state, battle, attacker, target, profile, circ)
        battle.emit("attack", who=attacker.id, target=target.id, weapon=profile.name,
                    mode=circ.mode, hit=result.hit, critical=result.critical,
                    wounds=result.wounds, saved=result.saved_defense,
                    warded=result.saved_ward, confirmed=result.confirmed)
        confirmed += result.confirmed
        critical = critical or (result.critical and result.confirmed > 0)
        overkill = overkill or result.overkill
    apply_batch(state, battle, target, confirmed, critical=critical, overkill=overkill,
                source=attacker)


def melee_options(state: WarbandState, char: Character) -> list[Order]:
    """Melee Attacks open to ``char``: target, weapon and number of attacks (WB-MELEE-05)."""
    if not can_fight(char) or char.attacks_left <= 0 or char.square is None:
        return []
    options: list[Order] = []
    weapons = char.melee_weapons(state.options.unarmed_attacks)
    reach = max((w.reach for w in weapons), default=0)
    for other in _near_enemies(state, char, reach):
        for weapon in weapons:
            if in_reach(state, char, other, weapon):
                options.extend(Order.of("attack", other.id, order_word(weapon.name), n)
                               for n in range(1, weapon_limit(char, weapon) + 1))
    metering.count(OPTIONS, len(options))
    return options


def take_melee(state: WarbandState, battle: Battle, char: Character, order: Order) -> None:
    """Carry out a Melee Attack order."""
    target = state.chars[str(order.args[0])]
    weapon = next(w for w in char.melee_weapons(state.options.unarmed_attacks)
                  if order_word(w.name) == order.args[1])
    count = int(order.args[2])
    char.attacks_used += count
    char.melee_done = True
    melee_batch(state, battle, char, target, weapon, count)


def can_fight(char: Character) -> bool:
    """Not Stunned, Routing, gone or after a Sprint (WB-MOVE-24, WB-MORALE-06, WB-AMB-42)."""
    return (char.on_map and char.condition != STUNNED and not char.routing
            and not char.sprinted)


def _near_enemies(state: WarbandState, char: Character, reach: int) -> list[Character]:
    """Enemies within ``reach`` squares of ``char``, by id."""
    assert char.square is not None
    x, y = char.square
    out = []
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            cid = state.at.get((x + dx, y + dy))
            if cid is not None:
                other = state.chars[cid]
                if other.side != char.side and other.on_map:
                    out.append(other)
    metering.count(GEOMETRY, (2 * reach + 1) ** 2)
    out.sort(key=lambda c: c.id)
    return out


# ---------------------------------------------------------------------------------- ranged


def shot_allocations(char: Character, weapons: list[Weapon]) -> list[tuple[int, ...]]:
    """Ways to split shots over ``weapons``: each within its Attack Limit and all within the
    Attacks left (WB-ATTACK-15/16, WB-AMB-26); at least one shot."""
    limits = [weapon_limit(char, w) for w in weapons]
    out = [c for c in product(*(range(limit + 1) for limit in limits))
           if 0 < sum(c) <= char.attacks_left]
    return sorted(out)


def can_shoot_at(state: WarbandState, char: Character, target: Character, weapon: Weapon,
                 volley: bool) -> bool:
    """Range, sight (or Volley) and Ethereal (WB-ATTACK-02, WB-CIRC-19, WB-AMB-38)."""
    assert char.square is not None
    if target.square is None or not target.on_map or target.side == char.side:
        return False
    if "ethereal" in target.traits and not weapon.magic:
        return False
    if chebyshev(char.square, target.square) > (weapon.range or 0):
        return False
    if volley:
        return weapon.volley and not can_see(state, char.square, target.square)
    return can_see(state, char.square, target.square)


def ranged_options(state: WarbandState, char: Character) -> list[Order]:
    """Shoot and Stand and Shoot orders open to ``char`` (WB-RANGED-02 to 10)."""
    if not can_fight(char) or char.lying or char.attacks_left <= 0 or char.square is None:
        return []
    weapons = [w for w in char.ranged_weapons() if w.range]
    if not weapons:
        return []
    engaged = state.engaged(char)
    options: list[Order] = []
    if char.stand_and_shoot_ok:
        for cid in dict.fromkeys(char.chargers):
            target = state.chars[cid]
            options.extend(_shots(state, char, target, weapons, "stand-shoot", False))
    usable = [w for w in weapons if w.melee_safe or not engaged]  # WB-RANGED-03
    reach = max((w.range or 0 for w in usable), default=0)
    if usable:
        for target in _near_enemies(state, char, reach):
            options.extend(_shots(state, char, target, usable, "shoot", False))
            options.extend(_shots(state, char, target, usable, "volley", True))
        for weapon in usable:
            if weapon.wave:
                options.extend(_wave_aims(state, char, weapon))
    metering.count(OPTIONS, len(options))
    return options


def _shots(state: WarbandState, char: Character, target: Character, weapons: list[Weapon],
           kind: str, volley: bool) -> list[Order]:
    able = [w for w in weapons if not w.wave and can_shoot_at(state, char, target, w, volley)]
    if not able:
        return []
    out = []
    for counts in shot_allocations(char, able):
        args: list[str | int] = [target.id]
        for weapon, n in zip(able, counts):
            if n:
                args.extend((order_word(weapon.name), n))
        out.append(Order.of(kind, *args))
    return out


def _wave_aims(state: WarbandState, char: Character, weapon: Weapon) -> list[Order]:
    """Aim squares of a Wave weapon that strike at least one enemy (WB-SPECIAL-01/02)."""
    assert char.square is not None
    reach = weapon.range or 0
    out = []
    for target in _near_enemies(state, char, reach):
        assert target.square is not None
        out.append(Order.of("wave", target.square[0], target.square[1],
                            order_word(weapon.name)))
    return out


def take_ranged(state: WarbandState, battle: Battle, char: Character, order: Order) -> None:
    """Carry out a Shoot, Volley, Stand and Shoot or Wave order."""
    char.ranged_done = True
    if order.kind == "wave":
        weapon = _weapon(char, str(order.args[2]))
        char.attacks_used += 1  # a Wave counts as one attack (WB-AMB-26)
        wave(state, battle, char, (int(order.args[0]), int(order.args[1])), weapon)
        return
    target = state.chars[str(order.args[0])]
    pairs = list(zip(order.args[1::2], order.args[2::2]))
    circ = ranged_circumstances(state, char, target, volley=order.kind == "volley",
                                stand_and_shoot=order.kind == "stand-shoot")
    confirmed = 0
    critical = False
    overkill = False
    blasts: dict[str, list[tuple[AttackProfile, int]]] = {}
    for name, n in pairs:
        weapon = _weapon(char, str(name))
        profile = ranged_profile(weapon)
        char.attacks_used += int(n)
        for _ in range(int(n)):
            result = resolve_attack(state, battle, char, target, profile, circ)
            battle.emit("attack", who=char.id, target=target.id, weapon=weapon.name,
                        mode="ranged", hit=result.hit, critical=result.critical,
                        wounds=result.wounds, saved=result.saved_defense,
                        warded=result.saved_ward, confirmed=result.confirmed)
            confirmed += result.confirmed
            critical = critical or (result.critical and result.confirmed > 0)
            overkill = overkill or result.overkill
            if result.hit and weapon.blast:
                blasts.setdefault(weapon.name, []).append((profile, weapon.blast))
    centre = target.square
    apply_batch(state, battle, target, confirmed, critical=critical, overkill=overkill,
                source=char)
    if centre is not None:
        for hits in blasts.values():
            blast(state, battle, char, centre, target, hits)


def blast(state: WarbandState, battle: Battle, char: Character, centre: Square,
          struck: Character, hits: list[tuple[AttackProfile, int]]) -> None:
    """Each hit of a Blast weapon also hits every other character within its radius that
    can be seen from the point struck, the shooter included (WB-SPECIAL-04, WB-AMB-37)."""
    radius = max(r for _, r in hits)
    grid = state.grid
    victims = []
    for sq in burst_squares(centre, radius, grid.width, grid.height):
        other = state.occupant(sq)
        if other is None or other is struck or not other.on_map:
            continue
        if "ethereal" in other.traits and not hits[0][0].magic:
            continue
        if can_see(state, centre, sq):
            victims.append(other)
    for other in victims:
        count = sum(1 for _, r in hits if chebyshev(centre, other.square or centre) <= r)
        circ = ranged_circumstances(state, char, other)
        run_batch(state, battle, char, other, _forced(hits[0][0]), circ, count)


def _forced(profile: AttackProfile) -> AttackProfile:
    from dataclasses import replace

    return replace(profile, auto_hit=True)


def wave(state: WarbandState, battle: Battle, char: Character, aim: Square, weapon: Weapon
         ) -> None:
    """Everything in the 30-degree arc is struck and goes to the Damage roll
    (WB-SPECIAL-01 to 03, WB-AMB-36)."""
    assert char.square is not None
    grid = state.grid
    profile = ranged_profile(weapon)
    battle.emit("wave", who=char.id, aim=list(aim), weapon=weapon.name)
    for sq in wave_squares(char.square, aim, weapon.range or 0, grid.width, grid.height):
        other = state.occupant(sq)
        if other is None or not other.on_map or not can_see(state, char.square, sq):
            continue
        if "ethereal" in other.traits and not weapon.magic:
            continue
        run_batch(state, battle, char, other, profile, ranged_circumstances(state, char, other), 1)


def _weapon(char: Character, name: str) -> Weapon:
    return next(w for w in char.weapons if order_word(w.name) == name)
