"""Spells, Surge and Dispel (WB-MAGIC, WB-SPELL, WB-ATKSPELL, WB-DISPEL).

A cast order reads ``cast SPELL TARGET LEVEL``: SPELL is the spell's name with spaces turned
into ``_``; TARGET a character id, ``X,Y`` (a point or aim square) or ``self``; LEVEL ``base``,
``surge`` (Surge level with its Surge Effect) or ``surge-plain`` (Surge level, effect unused,
WB-MAGIC-11). One cast runs: declaration (and its costs), the Magic test, the Dispel window,
then the effects. See docs/rulings/warband.md (Further rulings) for the choices beyond the catalog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.checks import CheckResult
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import (
    FACINGS,
    Square,
    bresenham_ray,
    burst_squares,
    chebyshev,
    in_bounds,
)
from warhost.rulesets.warband import movement
from warhost.rulesets.warband.attacks import AttackProfile, Circumstances, hit_mods
from warhost.rulesets.warband.checks import Mod, take_test
from warhost.rulesets.warband.combat import (
    can_see,
    melee_circumstances,
    ranged_circumstances,
    run_batch,
)
from warhost.rulesets.warband.model import Spell, SpellEffect
from warhost.rulesets.warband.state import (
    FACING_ORDER,
    KNOCKED_DOWN,
    STUNNED,
    Character,
    TempModifier,
    WarbandState,
    order_word,
)

PHASES = ("utility", "movement", "ranged", "melee")
"""The combat phases a Spell can belong to, in turn order (WB-SPELL-02)."""
LEVELS = ("base", "surge", "surge-plain")
DONE = Order("done")
NO_DISPEL = Order("no-dispel")
CHARACTER_TYPES = ("melee", "ranged", "direct")
"""Attack Spell types aimed at characters; the others aim at a square."""


# ------------------------------------------------------------------------------- helpers


def spell_key(spell: Spell) -> str:
    """The spell's name as it appears in an order (spaces become ``_``)."""
    return order_word(spell.name)


def _square_text(sq: Square) -> str:
    return f"{sq[0]},{sq[1]}"


def parse_square(text: str) -> Square:
    """The square of an ``X,Y`` order argument."""
    x, y = text.split(",")
    return (int(x), int(y))


def can_cast(char: Character) -> bool:
    """On the map, not Routing and not Stunned (WB-MORALE-06, WB-AMB-42), and a Mage
    (WB-MAGIC-04)."""
    return char.active and char.condition != STUNNED and char.is_mage


def surge_locked(state: WarbandState, char: Character, phase: str) -> bool:
    """Whether a Surge still blocks casting in ``phase`` of this turn (WB-MAGIC-13)."""
    lock = char.surge_lock
    if lock is None:
        return False
    turn, until = lock
    return (state.turn, PHASES.index(phase)) < (turn, PHASES.index(until))


def _chars_within(state: WarbandState, char: Character, reach: int,
                  keep: Callable[[Character], bool]) -> list[Character]:
    """Characters on the map within ``reach`` squares of ``char`` that ``keep`` accepts, by
    id; looks at the squares around or at the roster, whichever is smaller."""
    assert char.square is not None
    x, y = char.square
    area = (2 * reach + 1) ** 2
    found: list[Character] = []
    if area <= len(state.chars):
        metering.count(GEOMETRY, area)
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                cid = state.at.get((x + dx, y + dy))
                if cid is not None:
                    found.append(state.chars[cid])
    else:
        metering.count(GEOMETRY, len(state.chars))
        found = [c for c in state.chars.values()
                 if c.square is not None and chebyshev(c.square, char.square) <= reach]
    out = [c for c in found if c.on_map and keep(c)]
    out.sort(key=lambda c: c.id)
    return out


def _sees(state: WarbandState, char: Character, other: Character) -> bool:
    assert char.square is not None and other.square is not None
    return can_see(state, char.square, other.square)


def spell_reach(spell: Spell) -> int:
    """How far the spell reaches; a Melee Spell reaches at least the next square
    (WB-ATKSPELL-06)."""
    if spell.attack is not None and spell.attack.type == "melee":
        return max(1, spell.range)
    if spell.attack is not None and spell.attack.type == "wind":
        return spell.attack.distance or spell.range
    return spell.range


# ------------------------------------------------------------------------------- options


def targets_of(state: WarbandState, char: Character, spell: Spell) -> list[str]:
    """Every TARGET text ``char`` may name for ``spell`` now (WB-SPELL-05, WB-ATKSPELL)."""
    assert char.square is not None
    reach = spell_reach(spell)
    attack = spell.attack
    if attack is not None:
        if attack.type == "ranged" and char.lying:
            return []  # WB-MOVE-20: a Prone caster makes no Ranged attacks
        enemies = _chars_within(state, char, reach, lambda o: state.hostile(char, o))
        if attack.type in CHARACTER_TYPES:
            return [o.id for o in enemies if _sees(state, char, o)]
        if attack.type == "vortex":  # WB-AMB-59: a point in range and sight
            enemies = [o for o in enemies if _sees(state, char, o)]
        # wind: an aim square; bombardment: a point, no sight needed (WB-AMB-56, 58)
        return list(dict.fromkeys(_square_text(o.square) for o in enemies if o.square))
    effect = spell.effect
    if spell.targets == "self" or (effect.teleport and spell.targets in ("point", "direction")):
        return ["self"]
    if spell.targets == "ally":
        return [o.id for o in _chars_within(state, char, reach, lambda o: o.side == char.side)
                if _sees(state, char, o)]
    if spell.targets == "enemy":
        return [o.id for o in _chars_within(state, char, reach,
                                            lambda o: state.hostile(char, o))
                if _sees(state, char, o)]
    return []


def spell_options(state: WarbandState, char: Character, phase: str) -> list[Order]:
    """``cast`` orders open to ``char`` in ``phase`` (WB-MAGIC-04/05/10, WB-SPELL-03)."""
    if phase not in PHASES or not can_cast(char) or char.square is None:
        return []
    if surge_locked(state, char, phase):
        return []
    if phase in ("ranged", "melee") and char.attacks_left <= 0:
        return []  # WB-RANGED-05, WB-MELEE-06: each cast uses an Attack
    if phase == "movement" and (char.condition == KNOCKED_DOWN or char.braced):
        teleport_ok = False  # WB-INJURY-04, WB-UTIL-07: it may not move
    else:
        teleport_ok = True
    engaged = phase == "ranged" and state.engaged(char)
    options: list[Order] = []
    for spell in char.spells:
        if spell.phase != phase:
            continue  # WB-MAGIC-05; Non-Combat spells never match (WB-SPELL-03)
        if engaged and not spell.melee_safe:
            continue  # WB-RANGED-03
        if spell.effect.teleport and not teleport_ok:
            continue
        levels = ["base"]
        if char.spells_tried == 0:  # WB-MAGIC-10, WB-AMB-60
            levels += (["surge"] if spell.surge is not None else []) + ["surge-plain"]
        key = spell_key(spell)
        for target in targets_of(state, char, spell):
            options.extend(Order.of("cast", key, target, level) for level in levels)
    metering.count(OPTIONS, len(options))
    return options


# ---------------------------------------------------------------------------------- casting


def cast_order(state: WarbandState, battle: Battle, char: Character, order: Order) -> None:
    """Carry out a ``cast`` order; a Ranged or Melee spell action may go on with more casts of
    that phase (WB-AMB-24), each asked as a ``cast_more`` decision."""
    spell = _spell(char, str(order.args[0]))
    phase = spell.phase
    if phase == "ranged":
        char.ranged_done = True
    elif phase == "melee":
        char.melee_done = True
    cast_one(state, battle, char, spell, str(order.args[1]), str(order.args[2]))
    if phase not in ("ranged", "melee") or state.options.one_spell_per_action:
        return
    while True:
        more = spell_options(state, char, phase)
        if not more:
            return
        choice = battle.ask(char.side, "cast_more", (*more, DONE),
                            f"{char.label}: cast another {phase} spell?", char.id,
                            default=DONE)
        if choice == DONE:
            return
        cast_one(state, battle, char, _spell(char, str(choice.args[0])),
                 str(choice.args[1]), str(choice.args[2]))


def _spell(char: Character, key: str) -> Spell:
    return next(s for s in char.spells if spell_key(s) == key)


def cast_one(state: WarbandState, battle: Battle, char: Character, spell: Spell, target: str,
             level: str) -> None:
    """Declare, pay for, test, offer to Dispel and resolve one spell (WB-MAGIC-06 to 15)."""
    surge = level != "base"
    battle.emit("cast", who=char.id, spell=spell.name, target=target, level=level)
    targets = _declared_targets(state, battle, char, spell, target)
    # The costs belong to the attempt, passed or not (WB-AMB-60, WB-AMB-63).
    char.spells_tried += 1
    if spell.phase in ("ranged", "melee"):
        char.attacks_used += 1
    if surge:
        char.surge_lock = (state.turn + 1, spell.phase)  # WB-MAGIC-13
    if spell.tiring:
        add_stress(battle, char, 2 if surge else 1, f"casting {spell.name}")  # WB-MAGIC-14/15
    mods = magic_mods(state, char, spell, targets, surge)
    check = take_test(state, battle, char, "magic", f"cast {spell.name}", mods)
    battle.emit("spell_test", who=char.id, spell=spell.name, passed=check.passed,
                die=check.die or 0, target=check.target, dos=check.dos)
    if not check.passed:
        return  # WB-MAGIC-07, WB-AMB-63: no effect, no Dispel window
    if dispel_window(state, battle, char, spell, check, surge):
        return
    effect = spell.surge if level == "surge" and spell.surge is not None else None
    resolve_spell(state, battle, char, spell, target, targets, effect)


def add_stress(battle: Battle, char: Character, points: int, why: str) -> None:
    """``points`` Stress on ``char`` (WB-AMB-61: counted, no effect of its own)."""
    char.stress += points
    battle.emit("stress", who=char.id, gained=points, stress=char.stress, why=why)


def _declared_targets(state: WarbandState, battle: Battle, char: Character, spell: Spell,
                      target: str) -> list[Character]:
    """The characters a spell is aimed at: the one named, then up to ``count`` - 1 more asked
    as ``spell_target`` decisions (WB-ASK-17). Area spells aim at a square: none here."""
    if target == "self":
        return [char]
    if "," in target and target not in state.chars:
        return []
    chosen = [state.chars[target]]
    while len(chosen) < spell.count:
        rest = [t for t in targets_of(state, char, spell) if t not in
                {c.id for c in chosen}]
        if not rest:
            break
        options = tuple(Order.of("target", t) for t in rest)
        metering.count(OPTIONS, len(options))
        pick = battle.ask(char.side, "spell_target", (*options, DONE),
                          f"{char.label}: another target for {spell.name}?", char.id)
        if pick == DONE:
            break
        chosen.append(state.chars[str(pick.args[0])])
    return chosen


def magic_mods(state: WarbandState, char: Character, spell: Spell, targets: list[Character],
               surge: bool) -> list[Mod]:
    """Modifiers of the activation Magic test: the spell's Modifier, Surge, and for Melee,
    Ranged and Direct Spells the to-hit modifiers against the first target (WB-AMB-57)."""
    mods: list[Mod] = []
    if spell.modifier:
        mods.append(Mod("spell modifier", spell.modifier, "WB-SPELL-04"))
    if surge:
        mods.append(Mod("surge", -1, "WB-MAGIC-12"))
    attack = spell.attack
    if attack is not None and attack.type in CHARACTER_TYPES and targets:
        circ = _circumstances(state, char, targets[0], attack.type)
        mods.extend(hit_mods(char, targets[0], circ, state.options.superior_skill_max_penalty))
    return mods


def _circumstances(state: WarbandState, char: Character, target: Character, kind: str
                   ) -> Circumstances:
    """The position's flags for an attack Spell of type ``kind``; Wind, Bombardment and Vortex
    take none (WB-AMB-57)."""
    if kind == "melee":
        return melee_circumstances(state, char, target, spell=kind)
    if kind in ("ranged", "direct") and char.square is not None:
        return ranged_circumstances(state, char, target, spell=kind)
    return _bare(kind)


def _bare(kind: str) -> Circumstances:
    """No positional flags at all: Wind, Bombardment and Vortex (WB-AMB-57)."""
    return Circumstances(mode="ranged", spell=kind)


# ----------------------------------------------------------------------------------- dispel


def dispellers(state: WarbandState, caster: Character, side: str) -> list[Character]:
    """Mages of ``side`` that may Dispel ``caster``'s spell now (WB-DISPEL-10, WB-AMB-64)."""
    out = []
    for mage in state.side_chars(side):
        if not (mage.is_mage and mage.active and mage.condition != STUNNED):
            continue
        if mage.dispelled_turn == state.turn:
            continue
        if state.options.dispel_requires_los and not _sees(state, mage, caster):
            continue
        out.append(mage)
    return out


def dispel_window(state: WarbandState, battle: Battle, caster: Character, spell: Spell,
                  check: CheckResult, surge: bool) -> bool:
    """Offer one Dispel attempt against a spell that passed its test; True if dispelled
    (WB-DISPEL-01 to 10). Hostile sides are asked in scenario order starting after the
    caster's side; the first to accept makes the only attempt (WB-DISPEL-03). ``no-dispel``
    comes first and is the default."""
    if check.die == 1:
        return False  # WB-DISPEL-08
    sides = state.sides
    start = sides.index(caster.side)
    for side in sides[start + 1:] + sides[:start]:
        mages = dispellers(state, caster, side)
        if not mages:
            continue
        options = tuple(Order.of("dispel", m.id) for m in mages)
        metering.count(OPTIONS, len(options) + 1)
        choice = battle.ask(side, "dispel", (NO_DISPEL, *options),
                            f"Dispel {caster.label}'s {spell.name}?", caster.id,
                            default=NO_DISPEL)
        if choice == NO_DISPEL:
            continue
        mage = state.chars[str(choice.args[0])]
        return dispel(state, battle, mage, caster, spell, check, surge)
    return False


def dispel(state: WarbandState, battle: Battle, mage: Character, caster: Character,
           spell: Spell, check: CheckResult, surge: bool) -> bool:
    """``mage`` tries to Dispel: a Magic test less the activation's DoS, -1 more against a
    Surge (WB-DISPEL-05/09); a Tiring spell costs it 1 Stress (WB-DISPEL-07)."""
    mage.dispelled_turn = state.turn
    if spell.tiring:
        add_stress(battle, mage, 1, f"dispelling {spell.name}")
    mods = []
    if check.dos:
        mods.append(Mod("activation DoS", -check.dos, "WB-DISPEL-05"))
    if surge:
        mods.append(Mod("surge", -1, "WB-DISPEL-09"))
    result = take_test(state, battle, mage, "magic", f"dispel {spell.name}", mods)
    battle.emit("dispel", who=mage.id, caster=caster.id, spell=spell.name,
                passed=result.passed)
    return result.passed


# ---------------------------------------------------------------------------------- effects


def resolve_spell(state: WarbandState, battle: Battle, char: Character, spell: Spell,
                  target: str, targets: list[Character], surge: SpellEffect | None) -> None:
    """The effects of a passed, undispelled spell (WB-MAGIC-09/11, WB-ATKSPELL)."""
    attack = spell.attack
    if attack is None:
        apply_effects(state, battle, char, spell, targets, surge)
        return
    profile = attack_profile(spell, surge)
    hits = attack.hits + (surge.hits if surge is not None else 0)
    if attack.type in CHARACTER_TYPES:
        for victim in targets:
            if victim.on_map:
                circ = _circumstances(state, char, victim, attack.type)
                run_batch(state, battle, char, victim, profile, circ, hits)
        return
    point = parse_square(target)
    if attack.type == "wind":
        wind(state, battle, char, spell, point, profile, hits)
        return
    default = state.options.vortex_default_radius if attack.type == "vortex" else 1
    radius = attack.radius if attack.radius is not None else default
    battle.emit("spell_area", who=char.id, spell=spell.name, kind=attack.type,
                at=list(point), radius=radius)
    for victim in _within_radius(state, point, radius):
        run_batch(state, battle, char, victim, profile, _bare(attack.type), hits)
    if attack.type == "vortex":
        state.vortices.append({
            "id": f"vortex-{len(state.vortices) + 1}-{state.turn}", "spell": spell.name,
            "caster": char.id, "square": list(point), "radius": radius,
            "strength": profile.strength, "penetration": profile.penetration, "hits": hits,
            "move": attack.move or state.options.vortex_default_move,
            "turns": attack.duration,
        })


def attack_profile(spell: Spell, surge: SpellEffect | None) -> AttackProfile:
    """An attack Spell's profile: its Strength (plus a Surge Effect's), Penetration; Magic,
    with no to-hit die (WB-ATKSPELL-03/05, WB-AMB-57)."""
    assert spell.attack is not None
    strength = spell.attack.strength + (surge.strength if surge is not None else 0)
    return AttackProfile(spell.name, strength, spell.attack.penetration, magic=True,
                         auto_hit=True, skill="magic")


def _within_radius(state: WarbandState, point: Square, radius: int) -> list[Character]:
    """Everyone on the map within ``radius`` of ``point``, in square order."""
    grid = state.grid
    out = []
    for sq in burst_squares(point, radius, grid.width, grid.height):
        other = state.occupant(sq)
        if other is not None and other.on_map:
            out.append(other)
    return out


def wind_path(state: WarbandState, start: Square, aim: Square, length: int) -> list[Square]:
    """The squares a Wind crosses: the ray through ``aim``, ``length`` long, cut at the map's
    edge and before the first blocking square (WB-AMB-58)."""
    grid = state.grid
    path = []
    for sq in bresenham_ray(start, aim, length):
        if not in_bounds(sq, grid.width, grid.height) or state.blocks_sight(sq):
            break
        path.append(sq)
    metering.count(GEOMETRY, len(path) + 1)
    return path


def wind(state: WarbandState, battle: Battle, char: Character, spell: Spell, aim: Square,
         profile: AttackProfile, hits: int) -> None:
    """Everyone on the Wind's path but the caster is hit, friends included (WB-ATKSPELL-10)."""
    assert char.square is not None and spell.attack is not None
    path = wind_path(state, char.square, aim, spell_reach(spell))
    battle.emit("spell_area", who=char.id, spell=spell.name, kind="wind", at=list(aim),
                radius=len(path))
    victims = [state.occupant(sq) for sq in path]
    for victim in victims:
        if victim is not None and victim is not char and victim.on_map:
            run_batch(state, battle, char, victim, profile, _bare("wind"), hits)


def apply_effects(state: WarbandState, battle: Battle, char: Character, spell: Spell,
                  targets: list[Character], surge: SpellEffect | None) -> None:
    """Heal, score changes and teleport of a spell without an attack (and its Surge Effect)."""
    effects = [spell.effect] + ([surge] if surge is not None else [])
    for victim in targets:
        for effect in effects:
            if not victim.on_map:
                break
            if effect.heal:
                healed = min(effect.heal, victim.max_wounds - victim.wounds)
                victim.wounds += healed
                battle.emit("spell_heal", who=victim.id, spell=spell.name, healed=healed,
                            left=victim.wounds)
            if effect.score is not None and effect.by:
                victim.temp.append(TempModifier(effect.score, effect.by, effect.turns,
                                                spell.name))
                battle.emit("spell_effect", who=victim.id, spell=spell.name,
                            score=effect.score, by=effect.by, turns=effect.turns)
    distance = sum(e.teleport for e in effects)
    if distance:
        teleport(state, battle, char, spell, distance)


def teleport(state: WarbandState, battle: Battle, char: Character, spell: Spell,
             distance: int) -> None:
    """The caster moves up to ``distance`` squares to a free square it picks, then faces; it
    leaves its square, so Engaged enemies get Attacks of Opportunity first (WB-AMB-21)."""
    if char.square is None or not char.on_map:
        return
    grid = state.grid
    here = char.square
    free = [sq for sq in burst_squares(here, distance, grid.width, grid.height)
            if sq != here and state.passable(sq) and sq not in state.at]
    if not free:
        return
    options = tuple(Order.of("teleport", x, y) for x, y in free)
    metering.count(OPTIONS, len(options))
    choice = battle.ask(char.side, "teleport", options,
                        f"{char.label}: where does {spell.name} take you?", char.id)
    to = (int(choice.args[0]), int(choice.args[1]))
    if state.engaged(char) and not movement.opportunity(state, battle, char):
        battle.emit("move_cancelled", who=char.id, how="teleport")
        return
    state.place(char, to)
    battle.emit("teleport", who=char.id, spell=spell.name, start=list(here), to=list(to))
    if state.options.facing_change == "after_any_move":  # WB-AMB-05
        movement.choose_facing(state, battle, char)


# --------------------------------------------------------------------------------- vortices


def aftermath_vortices(state: WarbandState, battle: Battle) -> None:
    """Vortices in play move in the Aftermath before durations tick (WB-AMB-59): 1d8 for the
    direction (1 = N, clockwise), the move roll for the squares; each character that comes
    within the radius during the move is hit once; off the map or out of turns, it leaves."""
    kept: list[dict[str, Any]] = []
    for vortex in state.vortices:
        if move_vortex(state, battle, vortex):
            if vortex["turns"] is not None:
                vortex["turns"] -= 1
                if vortex["turns"] <= 0:
                    battle.emit("vortex_leaves", spell=vortex["spell"],
                                at=list(vortex["square"]), why="its time is over")
                    continue
            kept.append(vortex)
    state.vortices = kept


def move_vortex(state: WarbandState, battle: Battle, vortex: dict[str, Any]) -> bool:
    """One Vortex move; False if it left the map."""
    caster = state.chars[vortex["caster"]]
    face = battle.dice.pool(1, 8, f"vortex direction ({vortex['spell']})")[0]
    facing = FACING_ORDER[face - 1]
    dx, dy = FACINGS[facing]
    squares = battle.dice.roll(str(vortex["move"]), f"vortex move ({vortex['spell']})")
    start = (int(vortex["square"][0]), int(vortex["square"][1]))
    profile = AttackProfile(str(vortex["spell"]), int(vortex["strength"]),
                            int(vortex["penetration"]), magic=True, auto_hit=True,
                            skill="magic")
    grid = state.grid
    path: list[Square] = []
    here = start
    for _ in range(max(0, squares)):
        here = (here[0] + dx, here[1] + dy)
        if not in_bounds(here, grid.width, grid.height):
            break
        path.append(here)
    left = len(path) < max(0, squares)
    metering.count(GEOMETRY, len(path) + 1)
    battle.emit("vortex_moves", spell=vortex["spell"], start=list(start),
                to=None if left else list(here), direction=facing, squares=squares)
    struck: set[str] = set()
    for sq in path:
        for victim in _within_radius(state, sq, int(vortex["radius"])):
            if victim.id in struck:
                continue
            struck.add(victim.id)
            run_batch(state, battle, caster, victim, profile, _bare("vortex"),
                      int(vortex["hits"]))
    if left:
        battle.emit("vortex_leaves", spell=vortex["spell"], at=list(path[-1] if path else start),
                    why="it leaves the map")
        return False
    vortex["square"] = list(here)
    return True
