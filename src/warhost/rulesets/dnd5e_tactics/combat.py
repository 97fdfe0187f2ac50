"""Attacks of units, commanders and Single Characters; cover; duels' damage; slain commanders;
area effects; healing; attacks of opportunity.

A unit never rolls d20s. One member's *needed roll* (the lowest natural d20 that hits, or
saves) picks a row of the divisor table, a d6 picks the column, and the eligible attackers (or
the targets) divided by the divisor, rounded up, are the hits (or successful saves)
(T5-ATTACK-04..08, T5-AREA-04). Each hit deals the attack's maximum damage plus the unit's
track Dmg modifier (T5-DAMAGE-01..02). Damage to a unit pools in its Total Damage Received
(``Unit.tdr``) until the End of Round (T5-DAMAGE-07..08); damage to a character (a dueling
commander or a Single Character) is applied at once.

Commanders and Single Characters roll real d20s (advantage: two dice, the higher kept), as in
5e (T5-GEN-02). A commander's hit deals maximum damage (T5-CMDATK-04, T5-AMB-16, option
``commander_damage``); a Single Character rolls its damage (T5-AMB-31).

Rulings of our own (beyond the catalog) are marked *Ruling* in the docstrings below.

Example:
    >>> from warhost.rulesets.dnd5e_tactics.tables import divisor, successes
    >>> successes(20, divisor(13, 1))   # 20 attackers needing 13, d6 = 1: 20 / 5 = 4 hits
    4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon
from shapely.ops import nearest_points

from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.table import (
    Region,
    bearing,
    cone,
    count_covered,
    cube,
    line,
    offset,
    sphere,
)
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import AreaSpec, AttackSpec, HealSpec, StatBlock
from warhost.rulesets.dnd5e_tactics.state import (
    DESTROYED,
    SLAIN,
    Body,
    Character,
    Single,
    T5State,
    Unit,
    area_named,
    feet,
    save_bonus,
)
from warhost.rulesets.dnd5e_tactics.tables import (
    average_damage,
    clamp_attack_roll,
    divisor,
    max_damage,
    successes,
)

NO_COVER, HALF, THREE_QUARTERS, TOTAL = 0, 1, 2, 3
COVER_AC = {NO_COVER: 0, HALF: 2, THREE_QUARTERS: 5}
COVER_DEX_SAVE = {NO_COVER: 0, HALF: 2, THREE_QUARTERS: 5}
COVER_NAMES = {NO_COVER: "no cover", HALF: "half cover", THREE_QUARTERS: "three-quarters cover",
               TOTAL: "total cover"}

EDGE = 5
"""What advantage adds to, and disadvantage takes from, a unit's roll (T5-ATTACK-05)."""


def advantage_edge(advantage: bool, disadvantage: bool) -> int:
    """+5, -5 or 0: any number of sources count once, and the two cancel (T5-AMB-21)."""
    if advantage == disadvantage:
        return 0
    return EDGE if advantage else -EDGE

BLOCKING = ("ruins", "forest")
"""Terrain that no shot may cross (T5-TERRAIN-05, T5-TERRAIN-07)."""

_EPS = 1e-9


# --------------------------------------------------------------------------- who is who


def character_of(body: Body) -> Character:
    """The character record of a body: a unit's commander, or the Single Character itself."""
    return body.commander if isinstance(body, Unit) else body.character


def character_can_act(character: Character) -> bool:
    """Alive and above 0 hit points (a dying or stable commander is out of action,
    T5-AMB-18 with ``commander_death_saves``)."""
    return character.alive and character.hp > 0


def target_stats(body: Body) -> StatBlock:
    """The stat block an attack on ``body`` is made against: one member of a unit, or the
    Single Character (mounts are never targets, T5-MOUNT-02)."""
    return body.member if isinstance(body, Unit) else body.stats


def targetable(body: Body) -> bool:
    """On the table with something to hit: a unit with members, or a Single Character."""
    if not body.on_table:
        return False
    return body.members > 0 if isinstance(body, Unit) else True


def is_mounted(unit: Unit) -> bool:
    """Whether the unit's members ride mounts (T5-RANGED-03)."""
    return unit.member.mount is not None


# --------------------------------------------------------------------------- lingering effects


def has_disadvantage(ctx: Ctx, body: Body, kind: str) -> bool:
    """Whether a lingering area effect gives ``body`` disadvantage on a ``kind`` roll
    ('attack', 'save' or 'morale') this round (T5-AREA-06, T5-AMB-27, option
    ``lingering_disadvantage_scope``). Only units carry it."""
    return _lingering(ctx.state, body, kind)


def _lingering(state: T5State, body: Body, kind: str) -> bool:
    if not isinstance(body, Unit) or body.disadvantage_round != state.round:
        return False
    scope = state.options.lingering_disadvantage_scope
    if scope == "attacks_only":
        return kind == "attack"
    if scope == "attacks_and_saves":
        return kind in ("attack", "save")
    return kind in ("attack", "save", "morale")


# --------------------------------------------------------------------------- terrain and cover


def inside(state: T5State, body: Body, kind: str) -> bool:
    """Whether the body's footprint centre is in a terrain piece of ``kind`` (T5-AMB-02)."""
    return any(r.kind == kind for r in state.region_at(body.centre))


def _crossed(state: T5State, a: Body, b: Body, kinds: Sequence[str]) -> Region | None:
    """The first piece of one of ``kinds`` that the line between the two footprint centres
    crosses while neither body is inside it (T5-AMB-02), or None."""
    for region in state.regions:
        if region.kind not in kinds:
            continue
        if region.contains(a.centre) or region.contains(b.centre):
            continue
        if region.crossed_by(a.centre, b.centre):
            return region
    return None


def shot_blocked(state: T5State, shooter: Body, target: Body) -> Region | None:
    """The Ruins or Forest piece that forbids a shot from ``shooter`` at ``target``
    (T5-TERRAIN-05, T5-TERRAIN-07), or None when the line is open."""
    return _crossed(state, shooter, target, BLOCKING)


def _blocked_shot(region: Region) -> Refusal:
    return Refusal(f"the shot crosses {region.name}",
                   "T5-TERRAIN-05" if region.kind == "ruins" else "T5-TERRAIN-07")


def cover_of(
    state: T5State, attacker: Body | None, target: Body, kind: str, *, by_unit: bool
) -> int:
    """The single best cover ``target`` has against a ``kind`` ('melee', 'ranged' or 'area')
    attack by ``attacker`` (T5-TERRAIN-03..10, T5-SINGLE-03, T5-RANGED-03, T5-AMB-34).

    Sources: being inside Ruins or a Forest (half), the Ruins bonus action
    (``three_quarter_cover``, only while still inside Ruins), a shot across a Field (half),
    and a unit's ranged attack on a Single Character (half). A mounted unit's ranged attack
    then raises the best one step.

    *Ruling*: terrain cover from standing inside a piece counts against melee attacks and
    area saves too (5e cover is not limited to missiles, T5-GEN-02).
    """
    best = NO_COVER
    kinds = {r.kind for r in state.region_at(target.centre)}
    if "ruins" in kinds or "forest" in kinds:
        best = HALF
    if target.three_quarter_cover and "ruins" in kinds:
        best = THREE_QUARTERS
    if kind == "ranged" and attacker is not None:
        if _crossed(state, attacker, target, ("field",)) is not None:
            best = max(best, HALF)
        if by_unit and isinstance(target, Single):
            best = max(best, HALF)
        if by_unit and isinstance(attacker, Unit) and is_mounted(attacker):
            best = min(TOTAL, best + 1)
    return best


def cover(ctx: Ctx, attacker: Body | None, target: Body, kind: str, *, by_unit: bool) -> int:
    """:func:`cover_of` on the battle's state."""
    return cover_of(ctx.state, attacker, target, kind, by_unit=by_unit)


# --------------------------------------------------------------------------- routines


def _melee_list(attacks: Iterable[AttackSpec], names: Sequence[str]) -> list[AttackSpec]:
    by_name = {a.name: a for a in attacks}
    chosen = [by_name[n] for n in names if n in by_name and by_name[n].kind == "melee"]
    if chosen:
        return chosen
    first = next((a for a in attacks if a.kind == "melee"), None)
    return [first] if first is not None else []


def unit_routine(
    unit: Unit, kind: str, *, charge: bool = False, charge_multiattack: bool = True
) -> list[AttackSpec]:
    """The attacks one Attack action of ``unit`` resolves, melee or ranged (T5-DAMAGE-03,
    T5-RANGED-02, T5-AMB-12): the Multiattack list (or the first attack of that kind), or for
    ranged exactly one attack. Mount attacks are separate (see :func:`mount_routine`).

    A Charge with ``charge_multiattack`` off keeps only the first attack (T5-AMB-12).
    """
    stats = unit.member
    if kind == "ranged":
        by_name = {a.name: a for a in stats.attacks}
        named = [by_name[n] for n in stats.multiattack
                 if n in by_name and by_name[n].kind == "ranged"]
        pool = named or [a for a in stats.attacks if a.kind == "ranged"]
        return pool[:1]
    routine = _melee_list(stats.attacks, stats.multiattack)
    if charge and not charge_multiattack:
        return routine[:1]
    return routine


def mount_routine(unit: Unit) -> list[AttackSpec]:
    """Attacks of independent mounts (T5-AMB-29); empty for controlled mounts."""
    mount = unit.member.mount
    if mount is None or mount.control != "independent":
        return []
    return _melee_list(mount.attacks, mount.multiattack)


def character_routine(stats: StatBlock, attack_name: str) -> list[AttackSpec]:
    """A character's Attack action with ``attack_name``: its whole Multiattack when the
    Multiattack names that attack, otherwise the attack once (5e, T5-GEN-02)."""
    by_name = {a.name: a for a in stats.attacks}
    if attack_name not in by_name:
        raise ValueError(f"{stats.name} has no attack {attack_name!r}")
    if attack_name in stats.multiattack:
        return [by_name[n] for n in stats.multiattack if n in by_name]
    return [by_name[attack_name]]


def _max_reach(attacks: Iterable[AttackSpec]) -> float:
    return max((feet(a.reach) for a in attacks if a.kind == "melee"), default=0.0)


# --------------------------------------------------------------------------- modifiers


@dataclass(frozen=True)
class AttackTerms:
    """Everything that decides one member's (or one character's) needed roll.

    ``ac`` is the target's AC with stance, track and cover; ``bonus`` the attack bonus with
    the track Atk modifier (units only); ``lines`` one readable line per modifier.
    """

    ac: int
    bonus: int
    advantage: bool
    disadvantage: bool
    cover: int
    lines: tuple[str, ...] = field(default=())

    @property
    def edge(self) -> int:
        """+5, -5 or 0 (T5-AMB-21)."""
        return advantage_edge(self.advantage, self.disadvantage)

    @property
    def needed(self) -> int:
        """The lowest natural d20 that hits, before the table clamps it (T5-ATTACK-04..05)."""
        return self.ac - self.bonus - self.edge


def _target_ac(target: Body, cover_level: int, lines: list[str]) -> int:
    """AC of one member of a unit (stance, track, cover; T5-TACTICS-07, T5-STANCE-01,
    T5-AMB-08) or of a Single Character (cover only)."""
    if isinstance(target, Unit):
        stance = target.member_ac_base - target.member.ac - target.cell.ac
        lines.append(f"target AC {target.member.ac} ({target.member.name})")
        if stance:
            lines.append(f"{stance:+d} AC: {target.stance} stance (T5-STANCE-01)")
        if target.cell.ac:
            lines.append(f"{target.cell.ac:+d} AC: {target.track} track rank {target.rank:+d} "
                         "(T5-TACTICS-07)")
        ac = target.member_ac_base
    else:
        lines.append(f"target AC {target.stats.ac} ({target.stats.name})")
        ac = target.stats.ac
    if cover_level in COVER_AC and cover_level != NO_COVER:
        lines.append(f"+{COVER_AC[cover_level]} AC: {COVER_NAMES[cover_level]} "
                     "(T5-TERRAIN-10)")
    return ac + COVER_AC.get(cover_level, 0)


def _range_state(attack: AttackSpec, distance: float) -> str:
    """'normal', 'long' (disadvantage) or 'out' for a ranged attack at ``distance`` inches."""
    if distance <= feet(attack.range) + _EPS:
        return "normal"
    if attack.long_range is not None and distance <= feet(attack.long_range) + _EPS:
        return "long"
    return "out"


def unit_attack_terms(
    state: T5State,
    unit: Unit,
    attack: AttackSpec,
    target: Body,
    *,
    extra_advantage: bool = False,
    extra_disadvantage: bool = False,
    cover_override: int | None = None,
) -> AttackTerms:
    """The modifiers of one member of ``unit`` attacking one member of ``target`` (or the
    Single Character) with ``attack`` (T5-ATTACK-04..05, T5-TACTICS-07..08, T5-STANCE-01,
    T5-SINGLE-02..04, T5-AMB-21, T5-AMB-27, T5-AMB-32).

    Advantage: a melee attack on a Single Character. Disadvantage: a ranged attack on a Single
    Character, long range, shooting while engaged, a dodging target, a lingering area effect.
    """
    kind = attack.kind
    lines: list[str] = []
    level = cover_override if cover_override is not None else cover_of(
        state, unit, target, kind, by_unit=True)
    ac = _target_ac(target, level, lines)
    bonus = attack.bonus + unit.cell.atk
    lines.append(f"attack bonus {attack.bonus:+d} ({attack.name})")
    if unit.cell.atk:
        lines.append(f"{unit.cell.atk:+d} to hit: {unit.track} track rank {unit.rank:+d} "
                     "(T5-TACTICS-08)")
    adv: list[str] = ["situation"] if extra_advantage else []
    dis: list[str] = ["situation"] if extra_disadvantage else []
    if isinstance(target, Single):
        (adv if kind == "melee" else dis).append(
            "melee on a Single Character (T5-SINGLE-04)" if kind == "melee"
            else "ranged on a Single Character (T5-SINGLE-02)")
    if kind == "ranged":
        if _range_state(attack, state.gap(unit, target)) == "long":
            dis.append("beyond normal range")
        if state.in_melee(unit):
            dis.append("shooting while engaged (T5-AMB-32)")
    if target.dodging:
        dis.append("target dodging")
    if _lingering(state, unit, "attack"):
        dis.append("lingering area effect (T5-AREA-06)")
    for name in adv:
        lines.append(f"advantage (+5): {name}")
    for name in dis:
        lines.append(f"disadvantage (-5): {name}")
    return AttackTerms(ac=ac, bonus=bonus, advantage=bool(adv), disadvantage=bool(dis),
                       cover=level, lines=tuple(lines))


def needed_roll(ctx: Ctx, attacker: Unit, attack: AttackSpec, target: Body,
                kind: str | None = None) -> int:
    """The natural d20 one member of ``attacker`` needs to hit ``target`` with ``attack``,
    raw (not clamped into the table; T5-ATTACK-04..05). ``kind`` defaults to the attack's."""
    if kind is not None and kind != attack.kind:
        raise ValueError(f"{attack.name} is a {attack.kind} attack, not {kind}")
    return unit_attack_terms(ctx.state, attacker, attack, target).needed


# --------------------------------------------------------------------------- damage arithmetic


def apply_resistance(stats: StatBlock, damage_type: str, amount: int) -> int:
    """Immunity, resistance (half, rounded down) and vulnerability (double) of ``stats`` to
    one resolution's damage (T5-AMB-23)."""
    kind = damage_type.lower()
    if kind in (d.lower() for d in stats.immunities):
        return 0
    if kind in (d.lower() for d in stats.resistances):
        amount //= 2
    if kind in (d.lower() for d in stats.vulnerabilities):
        amount *= 2
    return amount


def per_hit_damage(unit: Unit, attack: AttackSpec) -> int:
    """Maximum damage plus the track Dmg modifier, never below 0 (T5-DAMAGE-01..02,
    T5-TACTICS-10, T5-AMB-23)."""
    return max(0, max_damage(attack.damage) + unit.cell.dmg)


def resolution_damage(state: T5State, unit: Unit, target: Body, attack: AttackSpec,
                      hits: int) -> int:
    """Damage of one resolution with ``hits`` hits, after the Single Character reduction
    (per hit or per attack, T5-SINGLE-05, T5-AMB-30) and resistances (T5-AMB-23); the
    ``per_turn`` reduction is applied later, to the turn's total."""
    per_hit = per_hit_damage(unit, attack)
    raw = hits * per_hit
    if isinstance(target, Single):
        cut = target.stats.ac // 2
        mode = state.options.single_character_reduction
        if mode == "per_hit":
            raw = hits * max(0, per_hit - cut)
        elif mode == "per_attack":
            raw = max(0, raw - cut)
    return apply_resistance(target_stats(target), attack.damage_type, raw)


def _turn_reduction(state: T5State, attacker: Body, target: Single, damage: int) -> int:
    """Spend the ``per_turn`` reduction (T5-AMB-30): half the Single Character's AC, once per
    round for each attacking body and Single Character, taken from its damage as it comes."""
    if state.options.single_character_reduction != "per_turn":
        return damage
    spent = state.reduction_spent
    key = f"{state.round}:{attacker.id}:{target.id}"
    left = target.stats.ac // 2 - spent.get(key, 0)
    cut = min(left, damage)
    spent[key] = spent.get(key, 0) + cut
    return damage - cut


def face_table(state: T5State, unit: Unit, target: Body, attack: AttackSpec, *,
               eligible: int | None = None, needed: int | None = None,
               terms: AttackTerms | None = None) -> list[tuple[int, int, int]]:
    """For each d6 face 1..6: (divisor, hits, damage) of one resolution (T5-ATTACK-06..08);
    damage as in :func:`resolution_damage`. ``eligible`` and ``needed`` override."""
    count = unit.attacker_cap if eligible is None else eligible
    if needed is None:
        needed = (terms or unit_attack_terms(state, unit, attack, target)).needed
    row = clamp_attack_roll(needed)
    out = []
    for face in range(1, 7):
        div = divisor(row, face)
        hits = successes(count, div) if count > 0 else 0
        out.append((div, hits, resolution_damage(state, unit, target, attack, hits)))
    return out


# --------------------------------------------------------------------------- unit attacks


def resolve_unit_attack(ctx: Ctx, unit: Unit, target: Body, attack: AttackSpec, *,
                        why: str = "attack") -> int:
    """One attack resolution by a unit (T5-ATTACK-01..08, T5-DAMAGE-01..07, T5-SINGLE-02..05):
    returns the damage dealt and applies it (pooled or to a Single Character).

    Its own d6 every time (T5-AMB-22). Emits ``unit_attack``.
    """
    state = ctx.state
    if unit.members <= 0 or not targetable(target):
        return 0
    terms = unit_attack_terms(state, unit, attack, target)
    eligible = unit.attacker_cap
    row = clamp_attack_roll(terms.needed)
    face = ctx.d6("divisor", attacker=unit.id, target=target.id, attack=attack.name)
    div = divisor(row, face)
    hits = successes(eligible, div)
    damage = resolution_damage(state, unit, target, attack, hits)
    if isinstance(target, Single):
        damage = _turn_reduction(state, unit, target, damage)
    ctx.emit("unit_attack", attacker=unit.id, target=target.id, attack=attack.name,
             kind=attack.kind, why=why, needed=terms.needed, row=row, d6=face, divisor=div,
             eligible=eligible, hits=hits, per_hit=per_hit_damage(unit, attack), damage=damage,
             cover=terms.cover, edge=terms.edge)
    _deal(ctx, target, damage, by=unit)
    return damage


def _deal(ctx: Ctx, target: Body, damage: int, *, by: Body | None) -> None:
    """Pool damage into a unit's TDR (T5-DAMAGE-07) or apply it to a Single Character."""
    if isinstance(target, Unit):
        target.tdr += damage
    elif damage > 0:
        damage_character(ctx, target, damage, by=by, duel=False)


def _mount_targets(state: T5State, unit: Unit, target: Body, kind: str) -> list[Body]:
    """What independent mounts attack in this Attack action (T5-AMB-29, T5-AMB-33).

    Melee: the unit's target, when a mount attack reaches it. Ranged: the first enemy (turn
    order) adjacent to the unit and engaged with no body but the shooting unit.

    *Ruling*: AMB-33's "adjacent enemy that is not engaged" reads as "engaged with no one but
    the shooter" (under footprint engagement an adjacent enemy is always engaged with it).
    """
    mounts = mount_routine(unit)
    if not mounts:
        return []
    reach = _max_reach(mounts)
    if kind == "melee":
        in_reach = state.options.engagement_model == "declared" and state.engaged(unit, target)
        if in_reach or state.gap(unit, target) <= reach + _EPS:
            return [target]
        return []
    for other in state.active(state.enemy_of(unit.side)):
        if not targetable(other) or not state.adjacent(unit, other):
            continue
        if isinstance(other, Single) and other.character.duel is not None:
            continue
        if all(e is unit for e in state.engaged_with(other)):
            return [other]
    return []


def unit_attack_action(ctx: Ctx, unit: Unit, target: Body, kind: str, *,
                       charge: bool = False) -> int:
    """The unit's Attack action against ``target``: every attack of its routine, each with its
    own d6 (T5-AMB-22), plus independent mounts; damage pooled into the target's TDR, or applied
    to a Single Character. Returns the total damage dealt. Emits ``unit_attack`` per
    resolution.

    A Charge without ``charge_multiattack`` is one resolution in all, mounts included
    (T5-AMB-12).
    """
    state = ctx.state
    limit = charge and not state.options.charge_multiattack
    routine = unit_routine(unit, kind, charge=charge,
                           charge_multiattack=state.options.charge_multiattack)
    mount_target = None if limit else next(iter(_mount_targets(state, unit, target, kind)),
                                            None)
    total = 0
    for attack in routine:
        if not targetable(target):
            break
        total += resolve_unit_attack(ctx, unit, target, attack, why="charge" if charge
                                     else "attack")
    if mount_target is not None:
        for attack in mount_routine(unit):
            if not targetable(mount_target):
                break
            total += resolve_unit_attack(ctx, unit, mount_target, attack, why="mount")
    return total


def expected_unit_damage(ctx: Ctx, unit: Unit, target: Body, kind: str, *,
                         charge: bool = False) -> float:
    """Expected damage of the unit's Attack action on ``target`` (mounts included), exact
    over the d6 of each resolution; for the AI."""
    dist = action_distribution(ctx.state, unit, target, kind, charge=charge)
    return float(sum((p * d for (_, d), p in dist.items()), Fraction(0)))


def action_resolutions(state: T5State, unit: Unit, target: Body, kind: str, *,
                       charge: bool = False) -> list[tuple[Body, AttackSpec, bool]]:
    """(target, attack, by a mount) of each resolution :func:`unit_attack_action` would
    make."""
    limit = charge and not state.options.charge_multiattack
    out: list[tuple[Body, AttackSpec, bool]] = [
        (target, a, False) for a in unit_routine(
            unit, kind, charge=charge, charge_multiattack=state.options.charge_multiattack)]
    if not limit:
        for mount_target in _mount_targets(state, unit, target, kind)[:1]:
            out += [(mount_target, a, True) for a in mount_routine(unit)]
    return out


def convolve(tables: Sequence[Sequence[tuple[int, int]]]) -> dict[tuple[int, int], Fraction]:
    """Joint distribution of (total hits, total damage) when each table lists the six equally
    likely (hits, damage) results of one independent d6."""
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    sixth = Fraction(1, 6)
    for table in tables:
        step: dict[tuple[int, int], Fraction] = {}
        for (h, d), p in dist.items():
            for hits, damage in table:
                key = (h + hits, d + damage)
                step[key] = step.get(key, Fraction(0)) + p * sixth
        dist = step
    return dist


def action_distribution(
    state: T5State, unit: Unit, target: Body, kind: str, *, charge: bool = False,
    eligible: int | None = None, needed: int | None = None, mounts: bool = True,
    extra_advantage: bool = False, extra_disadvantage: bool = False,
    cover_override: int | None = None,
) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of (hits, damage) on ``target`` of one Attack action (all its
    resolutions on that target, mounts' included unless ``mounts`` is off; T5-AMB-22), with a ``per_turn`` Single Character reduction applied to the
    total of each target (T5-AMB-30). Overrides as in :func:`face_table`."""
    tables: list[list[tuple[int, int]]] = []
    for body, attack, by_mount in action_resolutions(state, unit, target, kind, charge=charge):
        if body is not target or (by_mount and not mounts):
            continue
        terms = unit_attack_terms(state, unit, attack, body, extra_advantage=extra_advantage,
                                  extra_disadvantage=extra_disadvantage,
                                  cover_override=cover_override)
        rows = face_table(state, unit, body, attack, eligible=eligible, needed=needed,
                          terms=terms)
        tables.append([(h, d) for _, h, d in rows])
    dist = convolve(tables)
    if isinstance(target, Single) and state.options.single_character_reduction == "per_turn":
        cut = target.stats.ac // 2
        reduced: dict[tuple[int, int], Fraction] = {}
        for (h, d), p in dist.items():
            key = (h, max(0, d - cut))
            reduced[key] = reduced.get(key, Fraction(0)) + p
        dist = reduced
    return dist


# --------------------------------------------------------------------------- legality


def why_not_unit(state: T5State, unit: Unit, target: Body, kind: str, *,
                 charge: bool = False) -> Refusal | None:
    """Why ``unit`` cannot make a ``kind`` Attack action on ``target`` now (None: it can;
    T5-RANGED-01, T5-RANGED-04, T5-TERRAIN-05, T5-TERRAIN-07, T5-SINGLE-07, T5-AMB-32)."""
    if not unit.on_table or unit.members <= 0:
        return Refusal(f"{unit.id} has no members left to attack", "T5-ATTACK-03")
    if target.side == unit.side:
        return Refusal(f"{target.id} is on the same side", "T5-DEC-13")
    if not targetable(target):
        return Refusal(f"{target.id} is not on the table or has no members to hit",
                       "T5-AMB-50")
    if isinstance(target, Single) and target.character.duel is not None:
        return Refusal(f"{target.id} is in a duel: only its opponent may attack it",
                       "T5-SINGLE-07")
    routine = unit_routine(unit, kind, charge=charge)
    if not routine:
        return Refusal(f"{unit.id} has no {kind} attack", "T5-DEC-13")
    distance = state.gap(unit, target)
    if kind == "melee":
        if not state.engaged(unit, target):
            return Refusal(f"{unit.id} is not engaged with {target.id}", "T5-AMB-10")
        if state.options.engagement_model == "footprint" and \
                distance > _max_reach(routine) + _EPS:
            return Refusal(f"{target.id} is {distance * 10:.0f} ft away, beyond the unit's "
                           "reach", "T5-AMB-10")
        return None
    attack = routine[0]
    if state.in_melee(target):
        return Refusal(f"{target.id} is engaged in melee", "T5-RANGED-01")
    if _range_state(attack, distance) == "out":
        longest = attack.long_range if attack.long_range is not None else attack.range
        return Refusal(f"{target.id} is {distance * 10:.0f} ft away, beyond {attack.name}'s "
                       f"{longest} ft", "T5-GEN-02")
    blocked = shot_blocked(state, unit, target)
    if blocked is not None:
        return _blocked_shot(blocked)
    if cover_of(state, unit, target, "ranged", by_unit=True) >= TOTAL:
        return Refusal(f"{target.id} has total cover against a mounted unit's shot",
                       "T5-RANGED-04")
    return None


def why_not_character(state: T5State, owner: Body, attack: AttackSpec,
                      target: Body) -> Refusal | None:
    """Why the commander of ``owner`` (or the Single Character ``owner``) cannot attack
    ``target`` with ``attack`` now (None: it can; T5-DUEL-02, T5-SINGLE-07, T5-AMB-14)."""
    char = character_of(owner)
    if not owner.on_table or not character_can_act(char):
        return Refusal(f"the character of {owner.id} cannot act",
                       "T5-AMB-18" if char.alive else "T5-SLAIN-02")
    if char.duel is not None:
        if target.id != char.duel:
            return Refusal(f"{char.name} is dueling and may attack only its opponent",
                           "T5-DUEL-02")
        opponent = character_of(target)
        if not target.on_table or not opponent.alive:
            return Refusal("the duel opponent is gone", "T5-DUEL-05")
    else:
        if target.side == owner.side or not targetable(target):
            return Refusal(f"{target.id} is not an enemy on the table with members to hit",
                           "T5-DEC-11")
        if isinstance(target, Single) and target.character.duel is not None:
            return Refusal(f"{target.id} is in a duel: only its opponent may attack it",
                           "T5-SINGLE-07")
    distance = state.gap(owner, target)
    if attack.kind == "melee":
        if distance > feet(attack.reach) + _EPS:
            return Refusal(f"{target.id} is {distance * 10:.0f} ft away, beyond "
                           f"{attack.name}'s reach",
                           "T5-AMB-14" if char.duel is not None else "T5-GEN-02")
        return None
    if _range_state(attack, distance) == "out":
        return Refusal(f"{target.id} is beyond {attack.name}'s range", "T5-GEN-02")
    blocked = shot_blocked(state, owner, target)
    if blocked is not None:
        return _blocked_shot(blocked)
    return None


def legal_targets(ctx: Ctx, attacker: Body, kind: str) -> list[Body]:
    """Enemy bodies ``attacker`` may attack with a ``kind`` ('melee' or 'ranged') attack now:
    melee needs engagement within reach; ranged needs range, no total cover, no Ruins/Forest in
    between, and (for units) a target not engaged in melee (T5-RANGED-01, T5-AMB-32). Inside a
    duel a commander's only target is its opponent."""
    state = ctx.state
    if isinstance(attacker, Unit):
        if kind == "melee" and attacker.on_table:
            candidates = state.engaged_with(attacker)  # melee needs engagement
        else:
            candidates = _within_reach(state, attacker, unit_routine(attacker, kind))
        return [t for t in candidates if why_not_unit(state, attacker, t, kind) is None]
    attacks = [a for a in attacker.stats.attacks if a.kind == kind]
    candidates = ([state.bodies[attacker.character.duel]]
                  if attacker.character.duel is not None
                  else _within_reach(state, attacker, attacks))
    return [t for t in candidates
            if any(why_not_character(state, attacker, a, t) is None for a in attacks)]


def _within_reach(state: T5State, attacker: Body, attacks: Sequence[AttackSpec]) -> list[Body]:
    """Enemy bodies on the table, in turn order, that may lie within the reach or range of
    one of ``attacks`` (all of them beyond that are left out: none could be attacked)."""
    enemy = state.enemy_of(attacker.side)
    if not attacker.on_table:
        return state.active(enemy)
    limit = max((feet(a.reach) if a.kind == "melee" else
                 feet(max(a.range, a.long_range or 0)) for a in attacks), default=0.0)
    return state.placement.near(attacker, limit + _EPS, enemy)


def commander_targets(ctx: Ctx, owner: Body, attack: AttackSpec) -> list[Body]:
    """Bodies the commander of ``owner`` (or the Single Character ``owner``) may attack with
    ``attack``: only the duel opponent while dueling (T5-DUEL-02, T5-CMDATK-01..02)."""
    state = ctx.state
    char = character_of(owner)
    candidates = ([state.bodies[char.duel]] if char.duel is not None
                  else _within_reach(state, owner, [attack]))
    return [t for t in candidates if why_not_character(state, owner, attack, t) is None]


# --------------------------------------------------------------------------- characters' attacks


def _d20(ctx: Ctx, edge: int, why: str, **fields: object) -> tuple[int, list[int]]:
    """A 5e d20: two dice with advantage (higher kept) or disadvantage (lower kept)."""
    if edge == 0:
        face = ctx.d20(why, **fields)
        return face, [face]
    faces = [ctx.d20(why, **fields), ctx.d20(why, **fields)]
    return (max(faces) if edge > 0 else min(faces)), faces


def character_attack_terms(state: T5State, owner: Body, attack: AttackSpec,
                           target: Body) -> AttackTerms:
    """AC and attack bonus of a commander's or Single Character's attack on ``target``: no
    stance or track modifier of its own (T5-EXEMPT-01..02, T5-AMB-07); against a unit one
    member's full AC (T5-CMDATK-02, T5-AMB-08); in a duel the opponent's own AC
    (T5-DUEL-07); no Single Character adjustments (T5-SINGLE-06)."""
    char = character_of(owner)
    lines: list[str] = []
    level = cover_of(state, owner, target, attack.kind, by_unit=False)
    if char.duel is not None and target.id == char.duel:
        opponent = character_of(target)
        ac = opponent.stats.ac + COVER_AC.get(level, 0)
        lines.append(f"opponent AC {opponent.stats.ac} ({opponent.name})")
    else:
        ac = _target_ac(target, level, lines)
    dis: list[str] = []
    if attack.kind == "ranged":
        if _range_state(attack, state.gap(owner, target)) == "long":
            dis.append("beyond normal range")
        if any(state.adjacent(owner, e) for e in state.engaged_with(owner)):
            dis.append("a hostile within 5 ft")
    if target.dodging and char.duel is None:
        dis.append("target dodging")
    lines += [f"disadvantage: {d}" for d in dis]
    return AttackTerms(ac=ac, bonus=attack.bonus, advantage=False, disadvantage=bool(dis),
                       cover=level, lines=tuple(lines))


def hit_damage(ctx: Ctx, owner: Body, attack: AttackSpec, critical: bool) -> int:
    """Damage of one hit by a commander (maximum, doubled dice on a critical: T5-CMDATK-04..05,
    T5-AMB-16, option ``commander_damage``) or by a Single Character (rolled, T5-AMB-31)."""
    dice = DamageDice.parse(attack.damage)
    if isinstance(owner, Unit) and ctx.state.options.commander_damage == "max":
        return max(0, dice.critical_maximum if critical else dice.maximum)
    expr = dice.doubled() if critical else attack.damage
    return max(0, ctx.roll(expr, "damage", owner=owner.id, attack=attack.name))


def commander_attack(ctx: Ctx, owner: Body, target: Body, attack: AttackSpec, *,
                     opportunity: bool = False) -> int:
    """An attack by the commander of ``owner`` (a unit) or by ``owner`` itself (a Single
    Character) against ``target``: a dueling opponent's character, a unit (as one member,
    pooled, T5-CMDATK-02/03) or a Single Character. Commander hits deal maximum damage
    (T5-CMDATK-04, option ``commander_damage``). Returns the damage dealt.

    The d20 is rolled as in 5e: a natural 20 hits and is critical, a natural 1 misses. Damage
    to a unit goes into that unit's TDR whoever it belongs to (T5-AMB-17); to a character it
    applies at once (T5-DUEL-07). Emits ``commander_attack``.
    """
    state = ctx.state
    char = character_of(owner)
    if not character_can_act(char):
        return 0
    duel = char.duel is not None
    if duel and target.id != char.duel:
        raise ValueError(f"{char.name} is dueling {char.duel} and may attack only it")
    terms = character_attack_terms(state, owner, attack, target)
    roll, faces = _d20(ctx, terms.edge, "attack", owner=owner.id, attack=attack.name)
    total = roll + terms.bonus
    hit = roll == 20 or (roll != 1 and total >= terms.ac)
    critical = roll == 20
    damage = hit_damage(ctx, owner, attack, critical) if hit else 0
    victim = character_of(target) if duel else None
    stats = victim.stats if victim is not None else target_stats(target)
    damage = apply_resistance(stats, attack.damage_type, damage)
    ctx.emit("commander_attack", owner=owner.id, character=char.name, target=target.id,
             attack=attack.name, roll=roll, faces=faces, total=total, ac=terms.ac, hit=hit,
             critical=critical, damage=damage, duel=duel, opportunity=opportunity)
    if damage <= 0:
        return 0
    if duel:
        damage_character(ctx, target, damage, by=owner, duel=True, critical=critical)
    else:
        _deal(ctx, target, damage, by=owner)
    return damage


def commander_attack_action(ctx: Ctx, owner: Body, target: Body, attack_name: str) -> int:
    """A character's whole Attack action with ``attack_name`` (its Multiattack if that names
    the attack) on one target; stops when the target is gone. Returns the damage."""
    char = character_of(owner)
    total = 0
    for attack in character_routine(char.stats, attack_name):
        if not character_can_act(char) or not target.on_table:
            break
        if char.duel is not None and not character_of(target).alive:
            break
        total += commander_attack(ctx, owner, target, attack)
    return total


# --------------------------------------------------------------------------- characters' hit points


def damage_character(ctx: Ctx, owner: Body, amount: int, *, by: Body | None, duel: bool,
                     critical: bool = False) -> None:
    """Hit points lost by the commander of ``owner`` (a unit) or by a Single Character; at 0 the
    character dies (T5-AMB-18), with :func:`kill_commander` for commanders.

    With ``commander_death_saves`` a commander at 0 HP is dying instead (massive damage still
    kills outright); damage while at 0 HP is one failed death save, two on a critical hit.
    Emits ``character_damage``.
    """
    char = character_of(owner)
    if not char.alive or amount <= 0:
        return
    state = ctx.state
    saves = isinstance(owner, Unit) and state.options.commander_death_saves
    if char.hp == 0 and saves:
        char.dying = True
        char.death_failures += 2 if critical else 1
        if amount >= char.stats.hp:  # massive damage (5e)
            char.death_failures = 3
        ctx.emit("character_damage", owner=owner.id, character=char.name, amount=amount,
                 hp=0, duel=duel, failures=char.death_failures)
        if char.death_failures >= 3:
            _character_dies(ctx, owner, by=by, duel=duel)
        return
    overflow = amount - char.hp
    char.hp = max(0, char.hp - amount)
    ctx.emit("character_damage", owner=owner.id, character=char.name, amount=amount,
             hp=char.hp, duel=duel)
    if char.hp > 0:
        return
    if saves and overflow < char.stats.hp:
        char.dying = True
        char.death_successes = 0
        char.death_failures = 0
        ctx.emit("commander_dying", unit=owner.id, character=char.name)
        return
    _character_dies(ctx, owner, by=by, duel=duel)


def _character_dies(ctx: Ctx, owner: Body, *, by: Body | None, duel: bool) -> None:
    if isinstance(owner, Unit):
        kill_commander(ctx, owner, duel_winner=by if duel else None)
        return
    char = owner.character
    char.alive = False
    char.hp = 0
    owner.status = SLAIN
    ctx.emit("single_slain", single=owner.id, name=char.name, by=by.id if by else None,
             duel=duel)
    end_duel(ctx, owner, "slain")


def kill_commander(ctx: Ctx, unit: Unit, *, duel_winner: Body | None) -> None:
    """A unit's commander dies: -1 rank at once, card discarded, duel over; the duel winner's
    unit gains 1 rank (T5-SLAIN-01..03).

    Happens once: a dead commander is not killed again (T5-AMB-18). A unit left with neither
    members nor commander is destroyed at once (T5-AMB-50). Emits ``commander_slain``.
    """
    cmd = unit.commander
    if not cmd.alive:
        return
    cmd.alive = False
    cmd.hp = 0
    cmd.dying = False
    ctx.change_rank(unit, -1, "commander slain")
    ctx.emit("commander_slain", unit=unit.id, name=cmd.name,
             by=duel_winner.id if duel_winner is not None else None,
             duel=duel_winner is not None)
    end_duel(ctx, unit, "slain")
    if isinstance(duel_winner, Unit) and duel_winner.on_table:
        ctx.change_rank(duel_winner, 1, "won duel")
    check_destroyed(ctx, unit)


def check_destroyed(ctx: Ctx, unit: Unit) -> bool:
    """Destroy a unit with no members and no living commander at once (T5-AMB-50)."""
    if unit.on_table and unit.members <= 0 and not unit.commander.alive:
        unit.status = DESTROYED
        end_duel(ctx, unit, "destroyed")
        ctx.emit("destroyed", unit=unit.id)
        return True
    return False


def death_save(ctx: Ctx, body: Body) -> str | None:
    """A dying commander's death saving throw at the start of its unit's turn (option
    ``commander_death_saves``, T5-AMB-18): 10+ succeeds, a natural 1 counts two failures, a
    natural 20 regains 1 HP. Three failures kill it (T5-SLAIN-01..03, a duel opponent counting
    as the winner); three successes leave it stable at 0 HP, out of action. Returns the result
    ('success', 'failure', 'revived', 'dead', 'stable') or None when no save is due. Emits
    ``death_save``."""
    if not isinstance(body, Unit):
        return None
    cmd = body.commander
    if not cmd.alive or not cmd.dying:
        return None
    roll = ctx.d20("death save", unit=body.id)
    if roll == 20:
        cmd.hp, cmd.dying = 1, False
        cmd.death_successes = cmd.death_failures = 0
        result = "revived"
    elif roll >= 10:
        cmd.death_successes += 1
        result = "success"
    else:
        cmd.death_failures += 2 if roll == 1 else 1
        result = "failure"
    if cmd.death_failures >= 3:
        result = "dead"
    elif cmd.death_successes >= 3:
        cmd.dying = False
        result = "stable"
    ctx.emit("death_save", unit=body.id, character=cmd.name, roll=roll, result=result,
             successes=cmd.death_successes, failures=cmd.death_failures)
    if result == "dead":
        winner = ctx.state.bodies.get(cmd.duel) if cmd.duel is not None else None
        kill_commander(ctx, body, duel_winner=winner)
    return result


# --------------------------------------------------------------------------- duels


def can_duel(character: Character) -> bool:
    """Free to start a duel: able to act and not already dueling (T5-DUEL-04, T5-AMB-13)."""
    return character_can_act(character) and character.duel is None


def start_duel(ctx: Ctx, a: Body, b: Body) -> None:
    """Pair the characters of two enemy bodies in a duel (T5-DUEL-02, T5-DUEL-04); the call-out
    and its acceptance are the turn's business. Emits ``duel_start``."""
    ca, cb = character_of(a), character_of(b)
    if a.side == b.side or not (can_duel(ca) and can_duel(cb)):
        raise ValueError(f"{a.id} and {b.id} cannot start a duel (T5-DUEL-04)")
    ca.duel, cb.duel = b.id, a.id
    ctx.emit("duel_start", a=a.id, b=b.id)


def end_duel(ctx: Ctx, body: Body, why: str) -> None:
    """End any duel the character of ``body`` (its commander, or the Single Character) is in
    (T5-DUEL-05, T5-AMB-14). Emits ``duel_end``."""
    char = character_of(body)
    if char.duel is None:
        return
    other = ctx.state.bodies.get(char.duel)
    char.duel = None
    if other is not None and character_of(other).duel == body.id:
        character_of(other).duel = None
    ctx.emit("duel_end", body=body.id, opponent=other.id if other is not None else None,
             why=why)


# --------------------------------------------------------------------------- opportunity attacks


def opportunity_attack(ctx: Ctx, attacker: Body, mover: Body, *, commander_too: bool,
                       why: str = "opportunity", commander_attack_name: str | None = None
                       ) -> int:
    """Reaction attacks on ``mover`` leaving reach or fleeing (T5-AMB-11, T5-FLEE-04..06,
    T5-AMB-47): a unit makes one melee resolution (no Multiattack); its commander may add one
    maximum-damage attack against the unit only. Uses reactions. Returns the damage.

    With ``why='flee'`` no reaction is needed or used (T5-AMB-47). The commander uses
    ``commander_attack_name``, or its first melee attack that reaches; a dueling commander
    makes none (T5-DUEL-02). A Single Character ``attacker`` makes one attack of its own.
    """
    flee = why == "flee"
    total = 0
    if isinstance(attacker, Unit):
        if attacker.members > 0 and (flee or not attacker.reaction_used):
            routine = unit_routine(attacker, "melee")
            if routine and targetable(mover):
                if not flee:
                    attacker.reaction_used = True
                total += resolve_unit_attack(ctx, attacker, mover, routine[0], why=why)
        if not commander_too:
            return total
    char = character_of(attacker)
    if not character_can_act(char) or char.duel is not None or not targetable(mover):
        return total
    if not flee and char.reaction_used:
        return total
    melee = [a for a in char.stats.attacks if a.kind == "melee"]
    if commander_attack_name is not None:
        melee = [a for a in melee if a.name == commander_attack_name]
    reach = ctx.state.gap(attacker, mover)
    attack = next((a for a in melee if feet(a.reach) + _EPS >= reach), None) if not flee \
        else next(iter(melee), None)
    if attack is None:
        return total
    if not flee:
        char.reaction_used = True
    return total + commander_attack(ctx, attacker, mover, attack, opportunity=True)


# --------------------------------------------------------------------------- area effects


def area_spec(user: Body, area_name: str, by_commander: bool) -> AreaSpec:
    """The area effect called ``area_name`` of the user: a unit's members, its commander, or a
    Single Character."""
    stats = (user.commander.stats if by_commander else user.member) if isinstance(user, Unit) \
        else user.stats
    spec = area_named(stats, area_name)
    if spec is None:
        raise ValueError(f"{stats.name} has no area effect {area_name!r}")
    return spec


def area_uses_left(user: Body, area_name: str, by_commander: bool) -> int | None:
    """Uses left of a limited area effect (None: unlimited). Characters keep theirs in
    ``Character.uses``; a unit's members share one count per battle."""
    spec = area_spec(user, area_name, by_commander)
    if spec.uses is None:
        return None
    if by_commander or isinstance(user, Single):
        return character_of(user).uses.get(area_name, spec.uses)
    return user.uses.get(area_name, spec.uses)


def _spend_use(ctx: Ctx, user: Body, spec: AreaSpec | HealSpec, by_commander: bool) -> None:
    if spec.uses is None:
        return
    if by_commander or isinstance(user, Single):
        uses = character_of(user).uses
        left = uses.get(spec.name, spec.uses)
        if left <= 0:
            raise ValueError(f"{spec.name} has no uses left")
        uses[spec.name] = left - 1
        return
    left = user.uses.get(spec.name, spec.uses)
    if left <= 0:
        raise ValueError(f"{spec.name} has no uses left")
    user.uses[spec.name] = left - 1


def _candidate_templates(user_shape: Polygon, spec: AreaSpec, target: Body) -> list[Polygon]:
    """Templates tried when aiming ``spec`` at ``target``, in order of preference.

    Spheres and cubes (range > 0) are centred on the target's centre, then on points half
    the template's size ahead, right, behind and left of it (the target's facing); a centre
    out of range moves to the nearest point within range of the user's footprint (a cube's
    range is to its near face). Range 0 puts the origin on the user's edge nearest the target.
    Cones and lines start there and aim at the target's centre, at the nearest point of its
    footprint, then at each corner of its footprint.
    """
    size = feet(spec.size)
    centre = target.centre
    near_pt = nearest_points(user_shape, ShapelyPoint(centre))[0]
    near = (float(near_pt.x), float(near_pt.y))
    out: list[Polygon] = []
    if spec.shape in ("sphere", "cube") and spec.range > 0:
        reach = feet(spec.range) + (size / 2 if spec.shape == "cube" else 0.0)
        zone = user_shape.buffer(reach)
        points = [centre] + [offset(centre, target.facing + turn, size / 2)
                             for turn in (0.0, 90.0, 180.0, 270.0)]
        for point in points:
            if not zone.covers(ShapelyPoint(point)):
                clamp = nearest_points(zone, ShapelyPoint(point))[0]
                point = (float(clamp.x), float(clamp.y))
            if spec.shape == "sphere":
                out.append(sphere(point, size))
            else:
                facing = bearing(near, point)
                out.append(cube(offset(point, facing + 180.0, size / 2), size, facing))
        return out
    aims = [centre]
    far = nearest_points(target.footprint, ShapelyPoint(near))[0]
    aims.append((float(far.x), float(far.y)))
    aims += [(float(x), float(y)) for x, y in list(target.footprint.exterior.coords)[:-1]]
    for aim in aims:
        facing = bearing(near, aim)
        if spec.shape == "sphere":
            out.append(sphere(near, size))
            break
        if spec.shape == "cube":
            out.append(cube(near, size, facing))
        elif spec.shape == "cone":
            out.append(cone(near, facing, size))
        else:
            out.append(line(near, facing, size, feet(spec.width)))
    return out


def target_points(body: Body) -> npt.NDArray[np.float64]:
    """Where the area rule looks for targets: each member's square centre (T5-AMB-09,
    T5-AMB-24), or the Single Character's centre; never the commander or mounts
    (T5-AREA-07, T5-MOUNT-02)."""
    if isinstance(body, Unit):
        return body.formation.member_points
    return np.array([body.centre], dtype=np.float64)


def place_area(state: T5State, user: Body, spec: AreaSpec, target: Body
               ) -> tuple[Polygon | None, int]:
    """The template covering most of ``target``'s members among :func:`_candidate_templates`
    (the first wins ties), and how many it covers, capped at the members left (T5-AMB-24)."""
    del state
    points = target_points(target)
    best: tuple[Polygon | None, int] = (None, 0)
    for template in _candidate_templates(user.footprint, spec, target):
        count = count_covered(template, points)
        if count > best[1]:
            best = (template, count)
    cap = target.members if isinstance(target, Unit) else 1
    return best[0], min(best[1], cap)


@dataclass(frozen=True)
class SaveTerms:
    """One target's saving throw against an area: the DC, the save bonus and the edge."""

    dc: int
    bonus: int
    advantage: bool
    disadvantage: bool
    lines: tuple[str, ...] = ()

    @property
    def edge(self) -> int:
        """+5, -5 or 0 (T5-AMB-21)."""
        return advantage_edge(self.advantage, self.disadvantage)

    @property
    def needed(self) -> int:
        """The lowest natural d20 that saves, raw (T5-AREA-04)."""
        return self.dc - self.bonus - self.edge


def area_save_terms(state: T5State, user: Body, spec: AreaSpec, target: Body, *,
                    by_commander: bool) -> SaveTerms:
    """DC (with a unit's track Atk modifier, T5-TACTICS-09; never a commander's,
    T5-AMB-07) and the target's save bonus (Dex saves gain cover, T5-TERRAIN-10), with a
    lingering area effect's disadvantage (T5-AMB-27) and a dodging body's advantage on Dex
    saves (5e Dodge)."""
    lines: list[str] = [f"DC {spec.dc} ({spec.name})"]
    dc = spec.dc
    if isinstance(user, Unit) and not by_commander:
        dc += user.cell.atk
        if user.cell.atk:
            lines.append(f"{user.cell.atk:+d} DC: {user.track} track (T5-TACTICS-09)")
    char = character_of(target) if _dueling_area(user, by_commander) else None
    stats = char.stats if char is not None else target_stats(target)
    bonus = save_bonus(stats, spec.save)
    lines.append(f"{spec.save.upper()} save {bonus:+d} ({stats.name})")
    if spec.save == "dex":
        level = cover_of(state, user, target, "area", by_unit=False)
        if COVER_DEX_SAVE.get(level, 0):
            bonus += COVER_DEX_SAVE[level]
            lines.append(f"+{COVER_DEX_SAVE[level]} DEX save: {COVER_NAMES[level]}")
    adv = spec.save == "dex" and target.dodging and char is None
    dis = char is None and _lingering(state, target, "save")
    if adv:
        lines.append("advantage: dodging")
    if dis:
        lines.append("disadvantage: lingering area effect (T5-AREA-06)")
    return SaveTerms(dc=dc, bonus=bonus, advantage=adv, disadvantage=dis, lines=tuple(lines))


def _dueling_area(user: Body, by_commander: bool) -> bool:
    """A character's area while it duels hits only its opponent (T5-AREA-09)."""
    if isinstance(user, Unit) and not by_commander:
        return False
    return character_of(user).duel is not None


def area_average(user: Body, spec: AreaSpec, by_commander: bool) -> int:
    """A': the average damage, plus a unit's track Dmg modifier, never below 0 (T5-AREA-05,
    T5-AMB-25; commanders and Single Characters add nothing, T5-AMB-07)."""
    avg = average_damage(spec.damage)
    if isinstance(user, Unit) and not by_commander:
        return max(0, avg + user.cell.dmg)
    return avg


def save_split(state: T5State, covered: int, needed: int, face: int | None
               ) -> tuple[int, int, int | None]:
    """(successes, failures, divisor) among ``covered`` targets for a raw ``needed`` roll and
    a d6 ``face`` (T5-AREA-04, T5-AMB-20 with option ``save_extremes``). ``face`` may be None
    when no die is needed (see :func:`save_needs_die`)."""
    if covered <= 0:
        return 0, 0, None
    if state.options.save_extremes == "raw":
        if needed <= 1:
            return covered, 0, None
        if needed >= 21:
            return 0, covered, None
    row = min(20, max(1, needed))
    assert face is not None
    div = divisor(row, face)
    ok = successes(covered, div)
    return ok, covered - ok, div


def save_needs_die(state: T5State, covered: int, needed: int) -> bool:
    """Whether a d6 is rolled for a unit's saves (not when nobody is covered, nor for the
    raw extremes of T5-AMB-20)."""
    if covered <= 0:
        return False
    return not (state.options.save_extremes == "raw" and (needed <= 1 or needed >= 21))


def area_targets(ctx: Ctx, user: Body, area_name: str, *, by_commander: bool) -> list[Body]:
    """Bodies an area effect of the user can be aimed at usefully: its duel opponent while its
    character duels (T5-AREA-09); otherwise enemy units and free Single Characters the best
    placement covers at least once (:func:`why_not_area`)."""
    state = ctx.state
    spec = area_spec(user, area_name, by_commander)
    if _dueling_area(user, by_commander):
        candidates = [state.bodies[character_of(user).duel or ""]]
    else:
        candidates = state.active(state.enemy_of(user.side))
    return [body for body in candidates
            if why_not_area(state, user, spec, body, by_commander=by_commander) is None]


def why_not_area(state: T5State, user: Body, spec: AreaSpec, target: Body, *,
                 by_commander: bool) -> Refusal | None:
    """Why the area effect ``spec`` of the user (its members, its commander or a Single
    Character) cannot be aimed at ``target`` now, or None: a dueling character's area hits
    only its opponent (T5-AREA-09); otherwise an enemy with members to hit, not a dueling
    Single Character (T5-SINGLE-07); and some placement must cover it (T5-AREA-01)."""
    if _dueling_area(user, by_commander):
        if target.id != character_of(user).duel:
            return Refusal(f"{spec.name} cast in a duel affects only the opposing character",
                           "T5-AREA-09")
    else:
        if target.side == user.side or not target.on_table:
            return Refusal(f"{target.id} is not an enemy on the table",
                           "T5-DEC-13" if isinstance(user, Unit) and not by_commander
                           else "T5-DEC-11")
        if not targetable(target):
            return Refusal(f"{target.id} has no members left to hit", "T5-AMB-50")
        if isinstance(target, Single) and target.character.duel is not None:
            return Refusal(f"{target.id} is in a duel: only its opponent may attack it",
                           "T5-SINGLE-07")
    if place_area(state, user, spec, target)[1] <= 0:
        return Refusal(f"no placement of {spec.name} from where {user.id} stands covers "
                       f"{target.id}", "T5-AREA-01")
    return None


def _declared_count(ctx: Ctx, user: Body, spec: AreaSpec, target: Unit, default: int) -> int:
    """Option ``aoe_targets: declared``: the user's side states how many members are hit."""
    options = [Order.of("count", n) for n in range(target.members + 1)]
    order = ctx.ask(user.side, "aoe_count", options,
                    prompt=f"how many members of {target.name} {spec.name} covers",
                    subject=target.id, default=options[min(default, target.members)],
                    area=spec.name, geometry=default)
    return int(order.args[0])


def area_effect(ctx: Ctx, user: Body, area_name: str, target: Body, *,
                by_commander: bool) -> int:
    """Use an area effect against ``target`` (T5-AREA-01..09): the template is centred to cover
    the target; members covered (geometry or declared count), saves by the divisor table,
    average damage into the TDR. In a duel, a commander's area hits only the opposing
    commander. Returns the damage.

    Placement: :func:`place_area`. With ``unit_aoe_per_member`` a unit's use makes one effect
    per eligible member (up to its attacker cap), each with its own d6 (T5-AMB-26,
    T5-AMB-22). A lingering effect gives a unit it covered disadvantage next round
    (T5-AREA-06, T5-AMB-27).

    *Rulings*: only the aimed-at body is affected (no friendly or bystander damage); a unit's
    area on a Single Character is one "hit" for the T5-SINGLE-05 reduction; a character's
    saving throw is a real d20 (advantage: two dice) and its damage is still the average.
    """
    state = ctx.state
    spec = area_spec(user, area_name, by_commander)
    _spend_use(ctx, user, spec, by_commander)
    dueling = _dueling_area(user, by_commander)
    if dueling and target.id != character_of(user).duel:
        raise ValueError("a dueling character's area effect hits only its opponent")
    effects = 1
    if isinstance(user, Unit) and not by_commander and state.options.unit_aoe_per_member:
        effects = user.attacker_cap
    total = 0
    for _ in range(effects):
        if not targetable(target) and not dueling:
            break
        if isinstance(target, Unit) and not dueling:
            total += _area_on_unit(ctx, user, spec, target, by_commander)
        else:
            total += _area_on_character(ctx, user, spec, target, by_commander, dueling)
    return total


def _area_on_unit(ctx: Ctx, user: Body, spec: AreaSpec, target: Unit,
                  by_commander: bool) -> int:
    state = ctx.state
    _, covered = place_area(state, user, spec, target)
    if state.options.aoe_targets == "declared":
        covered = _declared_count(ctx, user, spec, target, covered)
    terms = area_save_terms(state, user, spec, target, by_commander=by_commander)
    face = ctx.d6("area save", user=user.id, area=spec.name, target=target.id) \
        if save_needs_die(state, covered, terms.needed) else None
    ok, failed, div = save_split(state, covered, terms.needed, face)
    full = area_average(user, spec, by_commander)
    half = full // 2 if spec.on_save == "half" else 0
    damage = apply_resistance(target.member, spec.damage_type, failed * full + ok * half)
    ctx.emit("area", user=user.id, by_commander=by_commander, area=spec.name,
             target=target.id, covered=covered, needed=terms.needed, d6=face, divisor=div,
             successes=ok, failures=failed, damage=damage)
    target.tdr += damage
    if spec.lingering and covered > 0:
        target.disadvantage_round = state.round + 1
    return damage


def _area_on_character(ctx: Ctx, user: Body, spec: AreaSpec, target: Body,
                       by_commander: bool, dueling: bool) -> int:
    state = ctx.state
    _, covered = place_area(state, user, spec, target)
    terms = area_save_terms(state, user, spec, target, by_commander=by_commander)
    full = area_average(user, spec, by_commander)
    roll: int | None = None
    saved = False
    if covered:
        roll, _ = _d20(ctx, terms.edge, "save", target=target.id, area=spec.name)
        saved = roll + terms.bonus >= terms.dc
    damage = 0
    if covered:
        damage = (full // 2 if spec.on_save == "half" else 0) if saved else full
    victim = character_of(target)
    if isinstance(user, Unit) and not by_commander and isinstance(target, Single):
        cut = target.stats.ac // 2
        if state.options.single_character_reduction != "per_turn":
            damage = max(0, damage - cut)
    damage = apply_resistance(victim.stats, spec.damage_type, damage)
    if isinstance(user, Unit) and not by_commander and isinstance(target, Single):
        damage = _turn_reduction(state, user, target, damage)
    ctx.emit("area", user=user.id, by_commander=by_commander, area=spec.name,
             target=target.id, covered=covered, needed=terms.needed, d6=None, roll=roll,
             successes=int(covered and saved), failures=int(covered and not saved),
             damage=damage, duel=dueling)
    if damage > 0:
        damage_character(ctx, target, damage, by=user, duel=dueling)
    return damage


def expected_area_damage(ctx: Ctx, user: Body, area_name: str, target: Unit, *,
                         by_commander: bool) -> float:
    """Expected damage of one area effect on a unit (geometry count, exact over the d6)."""
    state = ctx.state
    spec = area_spec(user, area_name, by_commander)
    _, covered = place_area(state, user, spec, target)
    needed = area_save_terms(state, user, spec, target, by_commander=by_commander).needed
    full = area_average(user, spec, by_commander)
    half = full // 2 if spec.on_save == "half" else 0
    faces: Sequence[int | None] = range(1, 7) if save_needs_die(state, covered, needed) \
        else [None]
    total = Fraction(0)
    for face in faces:
        ok, failed, _ = save_split(state, covered, needed, face)
        total += apply_resistance(target.member, spec.damage_type, failed * full + ok * half)
    effects = user.attacker_cap if (isinstance(user, Unit) and not by_commander
                                    and state.options.unit_aoe_per_member) else 1
    return float(total / len(faces)) * effects


# --------------------------------------------------------------------------- healing


def heal_spec(healer: Body, heal_name: str) -> HealSpec:
    """The healing ability called ``heal_name`` of a unit's commander or a Single Character."""
    stats = character_of(healer).stats
    spec = next((h for h in stats.heals if h.name == heal_name), None)
    if spec is None:
        raise ValueError(f"{stats.name} has no healing ability {heal_name!r}")
    return spec


def heal(ctx: Ctx, healer: Body, heal_name: str, target: Body, *,
         to_commander: bool = False) -> int:
    """Healing by a commander or Single Character (T5-AMB-39): lowers a unit's TDR, or restores a
    character's hit points. Returns the amount.

    A unit target's TDR drops by the rolled amount, not below 0, under ``unit_healing:
    reduce_damage_received``; with ``disabled`` nothing happens. ``to_commander`` heals the
    target unit's commander instead (a dying commander comes back, 5e). Emits ``heal``.
    """
    spec = heal_spec(healer, heal_name)
    _spend_use(ctx, healer, spec, True)
    rolled = max(0, ctx.roll(spec.amount, "heal", healer=healer.id, heal=heal_name))
    applied = 0
    if isinstance(target, Unit) and not to_commander:
        if ctx.state.options.unit_healing == "reduce_damage_received":
            applied = min(rolled, target.tdr)
            target.tdr -= applied
        ctx.emit("heal", healer=healer.id, heal=heal_name, target=target.id, rolled=rolled,
                 amount=applied, tdr=target.tdr)
        return applied
    char = character_of(target)
    if char.alive:
        applied = min(rolled, char.stats.hp - char.hp)
        char.hp += applied
        if char.hp > 0:
            char.dying = False
            char.death_successes = char.death_failures = 0
    ctx.emit("heal", healer=healer.id, heal=heal_name, target=target.id, rolled=rolled,
             amount=applied, hp=char.hp, commander=to_commander)
    return applied
