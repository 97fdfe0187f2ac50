"""Unit attack actions (W35-UATK, W35-MULTI, W35-DMG-02..12): melee, charges and ranged fire.

A melee attack is one roll against each target unit, its damage roll multiplied by the
attacking counters sharing a side with the target (W35-DMG-02). A charge moves the whole
formation along a straight line (W35-AMB-40) and attacks at +2, leaving the charger at -2 AC
until its next turn. Ranged fire is declared per target before any roll (W35-MULTI-07) and
multiplied by the firing counters, capped by the target's counters for arcing fire
(W35-DMG-05/07, W35-AMB-34). Attack bonuses and the AC an attack meets are worked out by
:func:`attack_bonus` and :func:`ac_against`; the rolls and the damage itself belong to
:mod:`damage`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import OPTIONS
from warhost.core.metering import count as meter_count
from warhost.core.orders import Order
from warhost.geometry.grid import (
    DIRECTIONS4,
    DIRECTIONS8,
    Square,
    chebyshev,
    entered_squares,
    heading_of,
    share_side,
    side_contacts,
    sight_line,
    straight_path,
    translate,
    unit_distance,
)
from warhost.rulesets.dnd35_wars import conditions, damage, defence, morale, reach, tables
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("melee", "shoot", "charge")
"""The order kinds this module offers and carries out."""

MELEE_KINDS = frozenset({"melee", "charge", "free", "set"})
"""Attack kinds (as passed to :func:`damage.hit_unit`) that are melee attacks."""
MISSILE_KINDS = frozenset({"ranged", "crossbow", "siege"})
"""Attack kinds that are missile (ranged weapon) attacks."""

CHARGE_BONUS = 2  # W35-UATK-04
ROUTED_CHARGE_BONUS = 2  # W35-MORALE-10, W35-AMB-66
FREE_ATTACK_BONUS = 2  # W35-UMOVE-06, W35-AMB-82
FLANK_BONUS = 2  # W35-MULTI-03, W35-TYPE-10, W35-AMB-39
MOUNTED_BONUS = 2  # W35-TYPE-03, W35-AMB-24
HIGHER_GROUND = 1  # W35-TYPE-08/10, W35-TERR-11, W35-STRUCT-04; never stacking (W35-AMB-26)
FOREST_AC = 2  # W35-TERR-08
FOREST_MISSILE = -2  # W35-TERR-09
GREAT_CLEAVE_MAX = 8  # W35-ABIL-04
SHOOT_CHOICES = 4  # nearest targets offered together in one multi-target shoot option


def _hook(name: str) -> Callable[..., object] | None:
    """A morale hook, if the morale module has it yet."""
    found = getattr(morale, name, None)
    return found if callable(found) else None


# ---------------------------------------------------------------------------------------------
# Modifiers: the AC an attack meets, and the attack bonus
# ---------------------------------------------------------------------------------------------


def in_forest(state: WarState, unit: Unit) -> bool:
    """A unit with any counter on a forest square is in a forest (W35-TERR-08/09)."""
    return any(state.terrain.get(sq) in tables.FOREST_TERRAINS for sq in unit.squares)


def ac_against(state: WarState, target: Unit, attacker: Unit | Single | None, kind: str) -> int:
    """``target``'s AC against an attack of ``kind`` by ``attacker``: the charge -2
    (W35-UATK-04), the phalanx +8 against ranged weapons other than crossbows and +4 against
    every other weapon (W35-DEFEND-11, W35-AMB-67), set +2 against ordinary melee
    (W35-DEFEND-06) and forest +2 against missiles and flying units (W35-TERR-08). Never
    flat-footed (W35-COMBAT-09, W35-AMB-85)."""
    ac = target.ac
    if target.charge_ac_penalty:
        ac -= 2
    if target.siege_defense:  # its spare counters in total defense (W35-SWU-13, W35-AMB-86)
        ac += damage.TOTAL_DEFENSE_AC
    if target.phalanx and kind != "area":
        ranged = kind in ("ranged", "siege")
        ac += defence.PHALANX_RANGED_AC if ranged else defence.PHALANX_OTHER_AC
    if target.set_vs_charge and kind in ("melee", "free"):
        ac += defence.SET_MELEE_AC
    flyer = isinstance(attacker, Unit) and attacker.flying
    if (kind in MISSILE_KINDS or flyer) and in_forest(state, target):
        ac += FOREST_AC
    return ac + conditions.modifier(target, "ac")


def _bigger(size: str, than: str) -> bool:
    return tables.SIZES.index(size) > tables.SIZES.index(than)


def mounted_edge(attacker: Unit, target: Unit) -> bool:
    """W35-TYPE-03 with W35-AMB-24: a unit on Large or larger mounts against a unit neither
    mounted nor armed with reach weapons."""
    mount = attacker.mount_size
    return (attacker.mounted and mount is not None and not _bigger("large", mount)
            and not target.mounted and not defence.has_reach(target))


def _elevation(state: WarState, squares: tuple[Square, ...]) -> int:
    return max((state.elevation.get(sq, 0) for sq in squares), default=0)


def higher_ground(state: WarState, attacker: Unit, target: Unit, kind: str) -> int:
    """+1 for higher ground from any one source, never more (W35-AMB-26): a mounted attacker
    against smaller creatures than its mount (W35-TYPE-08), a flyer against a grounded unit
    (W35-TYPE-10), the higher of two units in melee on a hill (W35-TERR-11), a unit firing
    from a wall it guards (W35-STRUCT-04)."""
    if kind in MELEE_KINDS:
        mount = attacker.mount_size
        if attacker.mounted and mount is not None and _bigger(mount, target.size):
            return HIGHER_GROUND
        if attacker.flying and not target.flying:
            return HIGHER_GROUND
        own = side_contacts(attacker.squares, target.squares)
        theirs = side_contacts(target.squares, attacker.squares)
        if own and _elevation(state, own) > _elevation(state, theirs):
            return HIGHER_GROUND
    elif attacker.guarding_walls and any(sq in state.structure_at for sq in attacker.squares):
        return HIGHER_GROUND
    return 0


def flanking(state: WarState, attacker: Unit, target: Unit, kind: str) -> bool:
    """Whether a melee attack gets +2 flanking (W35-MULTI-03, W35-TYPE-10, W35-AMB-39): the
    target is engaged with another enemy unit, or a flyer attacks it from above; never a mob
    or a flank-immune unit (W35-MOB-02, W35-MULTI-04)."""
    if kind not in MELEE_KINDS or target.mob or target.flank_immune:
        return False
    if attacker.flying and not target.flying:
        return True
    others = [u for u in state.foes_engaged(target.id) if u != attacker.id
              and u in state.units and state.units[u].on_map]
    if not others:
        return False
    if state.options.flank_bonus_mutual:
        return True
    mine = state.engage_seq.get(_key(attacker.id, target.id))
    if mine is None:
        return True
    return any(state.engage_seq.get(_key(u, target.id), mine) < mine for u in others)


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Bonus:
    """An attack bonus and whether it includes flanking."""

    total: int
    flanked: bool


def attack_bonus(state: WarState, attacker: Unit, target: Unit, kind: str, *,
                 charge_bonus: bool = True, extra: int = 0) -> Bonus:
    """The attack bonus of ``attacker``'s attack of ``kind`` on ``target``: its stat-block
    bonus (which already holds the creature's size modifier, W35-COMBAT-06, and a chariot's +2,
    W35-TYPE-07) plus the situational modifiers; circumstance bonuses of different sources
    stack, higher ground does not (W35-GEN-05, W35-AMB-26)."""
    attack = attacker.melee if kind in MELEE_KINDS else attacker.ranged
    assert attack is not None
    total = attack.bonus + extra
    if kind == "charge":
        total += CHARGE_BONUS if charge_bonus else 0
        total += ROUTED_CHARGE_BONUS if target.routed else 0
    if kind == "free":
        total += FREE_ATTACK_BONUS
    if kind in MELEE_KINDS:
        if attacker.phalanx:
            total += defence.PHALANX_ATTACK
        if mounted_edge(attacker, target):
            total += MOUNTED_BONUS
    elif in_forest(state, attacker):
        total += FOREST_MISSILE
    flanked = flanking(state, attacker, target, kind)
    if flanked:
        total += FLANK_BONUS
    total += higher_ground(state, attacker, target, kind)
    total += conditions.modifier(attacker, "attack")  # lasting spells (W35-SPELL-03/09)
    return Bonus(total, flanked)


# ---------------------------------------------------------------------------------------------
# One attack roll on a unit
# ---------------------------------------------------------------------------------------------


def strike(state: WarState, battle: Battle, attacker: Unit, target: Unit, kind: str,
           multiplier: int, *, charge_bonus: bool = True, extra: int = 0) -> int:
    """One attack roll of ``kind`` on ``target``; on a hit one damage roll times
    ``multiplier`` (W35-UATK-08, W35-DMG-02/05, W35-AMB-89). Returns the counters it removed."""
    melee = kind in MELEE_KINDS
    attack = attacker.melee if melee else attacker.ranged
    assert attack is not None
    bonus = attack_bonus(state, attacker, target, kind, charge_bonus=charge_bonus, extra=extra)
    if bonus.flanked:
        flanked = _hook("note_flanked")
        if flanked is not None:
            flanked(state, target)
    attacked = _hook("note_attacked")
    if attacked is not None:
        attacked(state, target, attacker)
    if melee:
        defence.engage(state, attacker, target)
        attacker.melee_round = state.round
    attacker.exposed = True
    ac = ac_against(state, target, attacker, kind)
    why = f"{attacker.id} {kind} attack on {target.id}"
    roll = damage.roll_attack(battle, bonus.total, ac, crit_range=attack.crit_range,
                              crit_ok=damage.crits_allowed(state, attacker, target), why=why)
    damage.emit_attack(battle, attacker, target, roll, ac, kind=kind, multiplier=multiplier,
                       flanking=bonus.flanked)
    if not roll.hit or multiplier < 1:
        return 0
    before = target.counters
    per = damage.roll_damage(battle, attack, roll.crit, f"{attacker.id} damage on {target.id}")
    per += damage.extra_damage(battle, attacker, flanked=bonus.flanked)
    per = max(1, per + conditions.modifier(attacker, "damage"))
    damage.hit_unit(state, battle, target, per, multiplier, source=attacker.id, kind=kind,
                    attacker=attacker, magic=attack.magic)
    if target.on_map:
        if melee:
            damage.melee_collateral(state, battle, attacker, target)
        else:
            damage.ranged_collateral(state, battle, attacker, target, per, multiplier)
    return before - target.counters


# ---------------------------------------------------------------------------------------------
# Melee (W35-UATK-07/08, W35-MULTI-01..05, W35-AMB-38) and Cleave (W35-AMB-28)
# ---------------------------------------------------------------------------------------------


def engaged_units(state: WarState, unit: Unit) -> list[Unit]:
    """The enemy units on the map engaged with ``unit``, by id."""
    return [state.units[u] for u in sorted(state.foes_engaged(unit.id))
            if u in state.units and state.units[u].on_map]


def can_melee(unit: Unit) -> bool:
    """Fighting, with a melee attack; in a phalanx only with reach weapons (W35-DEFEND-14)."""
    return (unit.can_fight and unit.melee is not None
            and (not unit.phalanx or defence.has_reach(unit)))


def _cleave_limit(unit: Unit) -> int:
    feats = {f.replace("_", " ").replace("-", " ") for f in unit.feats}
    if "great cleave" in feats:
        return GREAT_CLEAVE_MAX
    return 1 if "cleave" in feats else 0


def _cleave(state: WarState, battle: Battle, unit: Unit, target: Unit, removed: int,
            kind: str, counters: frozenset[Square], charge_bonus: bool) -> None:
    """Extra attacks on the same unit after an attack that removed a counter (W35-ABIL-03/04,
    W35-AMB-28): Cleave once a round, Great Cleave up to 8 a round, each asked (W35-DEC-28)."""
    limit = _cleave_limit(unit)
    if unit.cleave_round != state.round:
        unit.cleave_round, unit.cleaves_used = state.round, 0
    while removed > 0 and target.on_map and unit.cleaves_used < limit:
        multiplier = len(side_contacts(counters & unit.squares, target.squares))
        if multiplier < 1:
            return
        take = Order.of("cleave", unit.id, target.id)
        answer = battle.ask(unit.side, "cleave", (take, Order.of("no_cleave", unit.id)),
                            f"{unit.label}: cleave into {target.label}?", unit.id,
                            default=take)
        if answer != take:
            return
        unit.cleaves_used += 1
        battle.emit("cleave", unit=unit.id, target=target.id, count=unit.cleaves_used)
        removed = strike(state, battle, unit, target, kind, multiplier, charge_bonus=charge_bonus)


def _assign(state: WarState, battle: Battle, unit: Unit,
            targets: list[Unit]) -> dict[str, frozenset[Square]]:
    """Each counter in side contact with the targets strikes one of them; a counter touching
    several is assigned by the commander (W35-MULTI-05, W35-AMB-38, decision ``melee_split``,
    W35-DEC-15)."""
    out: dict[str, set[Square]] = {t.id: set() for t in targets}
    for sq in sorted(unit.squares):
        touching = [t for t in targets if _touches(sq, t.squares)]
        if len(touching) == 1:
            out[touching[0].id].add(sq)
        elif touching:
            where = f"{sq[0]},{sq[1]}"
            options = tuple(Order.of("strike", unit.id, where, t.id) for t in touching)
            answer = battle.ask(unit.side, "melee_split", options,
                                f"{unit.label}: which unit does the counter at {where} strike?",
                                unit.id, default=options[0])
            out[str(answer.args[2])].add(sq)
    return {k: frozenset(v) for k, v in out.items()}


def _touches(sq: Square, squares: set[Square]) -> bool:
    x, y = sq
    return any((x + dx, y + dy) in squares for dx, dy in DIRECTIONS4)


def mob_charge_due(state: WarState, unit: Unit, target: Unit) -> bool:
    """Whether a mob's melee attack on ``target`` counts as a charge (W35-MOB-03, W35-AMB-84,
    option ``mob_charge_scope``)."""
    if not unit.mob:
        return False
    if state.options.mob_charge_scope == "per_engagement":
        return target.id not in state.foes_engaged(unit.id)
    return not unit.mob_charged


def _mob_refuses(state: WarState, battle: Battle, unit: Unit) -> bool:
    """The DC 10 check before a mob's charge (W35-MOB-09); a failure means no attack."""
    check = _hook("mob_charge_check")
    return check is not None and not check(state, battle, unit)


def _melee(state: WarState, battle: Battle, unit: Unit, targets: list[Unit]) -> None:
    engaged = engaged_units(state, unit)
    if engaged:
        targets = engaged
    assigned = _assign(state, battle, unit, targets)
    for target in targets:
        counters = assigned[target.id]
        if not counters or not target.on_map or not unit.can_fight:
            continue
        if mob_charge_due(state, unit, target):
            if _mob_refuses(state, battle, unit):
                return
            _charge_attack(state, battle, unit, target, counters, charge_bonus=True)
            continue
        removed = strike(state, battle, unit, target, "melee", len(counters))
        _cleave(state, battle, unit, target, removed, "melee", counters, True)


def _charge_attack(state: WarState, battle: Battle, unit: Unit, target: Unit,
                   counters: frozenset[Square], *, charge_bonus: bool) -> None:
    """The attack at the end of a charge (or a mob's first melee): a set target may repel it
    (W35-DEFEND-03..05); then +2 (W35-UATK-04) and -2 AC until the charger's next turn."""
    unit.charge_ac_penalty = True
    if unit.mob:
        unit.mob_charged = True
    if target.set_vs_charge and target.can_fight and \
            defence.repel_charge(state, battle, unit, target):
        unit.melee_round = state.round
        return
    multiplier = len(side_contacts(counters, target.squares))
    removed = strike(state, battle, unit, target, "charge", multiplier, charge_bonus=charge_bonus)
    _cleave(state, battle, unit, target, removed, "charge", counters, charge_bonus)


def melee_problem(state: WarState, unit: Unit, target_ids: list[str]) -> Refusal | None:
    """Why ``unit`` may not make this melee attack (None: it may)."""
    if not can_melee(unit):
        rule = "W35-DEFEND-14" if unit.can_fight and unit.phalanx else "W35-MORALE-11"
        return Refusal(f"{unit.label} cannot make a melee attack now", rule=rule)
    engaged = engaged_units(state, unit)
    if engaged:
        if sorted(target_ids) != [t.id for t in engaged]:
            return Refusal("an engaged unit attacks every unit it is engaged with, and no other",
                           rule="W35-AMB-38")
        return None
    if len(target_ids) != 1:
        return Refusal("a unit engaged with nobody attacks exactly one unit", rule="W35-MULTI-01")
    tid = target_ids[0]
    if tid in state.singles:
        return _single_melee_problem(state, unit, state.singles[tid])
    target = state.units.get(tid)
    if target is None or target.side == unit.side or not target.on_map:
        return Refusal(f"{tid} is not an enemy unit on the map", rule="W35-UATK-07")
    if not share_side(unit.squares, target.squares):
        return Refusal(f"no counter of {unit.label} shares a side with {target.label}",
                       rule="W35-UATK-07")
    return _shelter_problem(state, target)


def _shelter_problem(state: WarState, target: Unit) -> Refusal | None:
    """A unit in a fortification that is neither guarding the walls nor exposed cannot be
    targeted (W35-STRUCT-03, W35-AMB-45)."""
    if damage.sheltered(state, target):
        if target.closed_tower:
            return Refusal(f"{target.label} has total cover in its siege tower until it "
                           "shoots", rule="W35-AMB-46")
        return Refusal(f"{target.label} is under cover in its fortification",
                       rule="W35-AMB-45")
    return None


def _single_melee_problem(state: WarState, unit: Unit, single: Single) -> Refusal | None:
    if single.side == unit.side or not single.independent or single.square is None:
        return Refusal(f"{single.label} is not an enemy standing on its own",
                       rule="W35-DMG-08")
    if not any(chebyshev(sq, single.square) <= 1 for sq in unit.squares):
        return Refusal(f"{single.label} is not next to {unit.label}", rule="W35-AMB-31")
    return None


# ---------------------------------------------------------------------------------------------
# Charges (W35-UATK-01..04, W35-AMB-40/41, W35-TERR-05/10/13, W35-MOB-03)
# ---------------------------------------------------------------------------------------------


def charge_reach(unit: Unit) -> int:
    """How far the charger may go: floor(move rate) squares (W35-AMB-40)."""
    return int(conditions.points(unit, Fraction(unit.rate)))  # W35-SPELL-08


def _difficult(state: WarState, sq: Square) -> bool:
    return tables.TERRAIN_COST.get(state.cost_of(sq), 1) > 1


def _squares_of(target: Unit | Single) -> set[Square]:
    if isinstance(target, Unit):
        return target.squares
    return {target.square} if target.square is not None else set()


def _in_contact(squares: frozenset[Square], target: Unit | Single) -> bool:
    """Side contact with a unit (W35-UATK-07); any touch, corners included, with a singular
    creature (W35-AMB-31, W35-AMB-98)."""
    if isinstance(target, Unit):
        return share_side(squares, target.squares)
    sq = target.square
    return sq is not None and any(chebyshev(own, sq) <= 1 for own in squares)


def _charge_target_problem(state: WarState, unit: Unit, target: Unit | Single) -> Refusal | None:
    if isinstance(target, Unit):
        if target.side == unit.side or not target.on_map:
            return Refusal(f"{target.label} is not an enemy unit on the map", rule="W35-UATK-03")
        return _shelter_problem(state, target)
    if target.side == unit.side or not target.independent:
        return Refusal(f"{target.label} is not an enemy standing on its own", rule="W35-DMG-08")
    return None


def charge_problem(state: WarState, unit: Unit, target: Unit | Single, dx: int,
                   dy: int) -> Refusal | None:
    """Why ``unit`` may not charge ``target`` (a unit, or an independent singular creature)
    along the offset (dx, dy) (None: it may)."""
    if not unit.can_fight or unit.melee is None:
        return Refusal(f"{unit.label} cannot make a melee attack", rule="W35-UATK-01")
    if unit.phalanx:
        return Refusal("a phalanx cannot charge", rule="W35-DEFEND-12")
    if engaged_units(state, unit):
        return Refusal("an engaged unit leaves only by Disengage", rule="W35-AMB-37")
    problem = _charge_target_problem(state, unit, target)
    if problem is not None:
        return problem
    limit = charge_reach(unit)
    if limit < 1:
        return Refusal("a unit with a move rate below 1 cannot charge", rule="W35-AMB-40")
    if max(abs(dx), abs(dy)) > limit or (dx, dy) == (0, 0):
        return Refusal(f"a charge goes 1 to {limit} squares", rule="W35-UATK-03")
    if unit_distance(unit.squares, _squares_of(target)) < 2:
        return Refusal("a charge starts at least 2 squares from its target", rule="W35-UATK-02")
    return _path_problem(state, unit, target, dx, dy)


def _path_problem(state: WarState, unit: Unit, target: Unit | Single, dx: int,
                  dy: int) -> Refusal | None:
    path = straight_path(unit.squares, dx, dy)
    for sq in entered_squares(path, unit.squares):
        if not state.inside(sq) or state.occupant(sq) is not None:
            return Refusal(f"the charge path is blocked at {sq[0]},{sq[1]}", rule="W35-AMB-40")
        if sq in state.barrier_at and state.barred(unit.side, sq, charge=True):
            return Refusal(f"a wall bars the charge at {sq[0]},{sq[1]}", rule="W35-AMB-45")
    if not unit.flying:
        crossed: set[Square] = set().union(*path)
        if any(sq in state.water for sq in crossed.union(unit.squares)):
            return Refusal("a unit cannot charge in or through water", rule="W35-TERR-13")
        if any(_difficult(state, sq) for sq in crossed):
            return Refusal("a charge may not cross difficult terrain", rule="W35-TERR-05")
    if not _in_contact(path[-1], target):
        return Refusal(f"the charge does not end in contact with {target.label}",
                       rule="W35-UATK-03")
    return None


def find_charge(state: WarState, unit: Unit, target: Unit | Single) -> tuple[int, int] | None:
    """The shortest legal charge offset onto ``target`` (None: none)."""
    limit = charge_reach(unit)
    targets = _squares_of(target)
    if limit < 1 or not targets:
        return None
    gap = unit_distance(unit.squares, targets)
    if gap < 2 or gap > limit + 1:
        return None
    ux0, uy0, ux1, uy1 = _bounds(unit.squares)
    tx0, ty0, tx1, ty1 = _bounds(targets)
    for steps in range(gap - 1, limit + 1):
        for dx, dy in _ring(steps):
            # any contact needs the boxes at most one square apart on each axis
            if tx0 - (ux1 + dx) > 1 or (ux0 + dx) - tx1 > 1 or ty0 - (uy1 + dy) > 1 or \
                    (uy0 + dy) - ty1 > 1:
                continue
            if _in_contact(translate(unit.squares, dx, dy), target) and \
                    charge_problem(state, unit, target, dx, dy) is None:
                return dx, dy
    return None


def _bounds(squares: Iterable[Square]) -> tuple[int, int, int, int]:
    """Least x, least y, greatest x, greatest y."""
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), min(ys), max(xs), max(ys)


@functools.lru_cache(maxsize=64)
def _ring(steps: int) -> tuple[Square, ...]:
    """The offsets ``steps`` squares away (Chebyshev), nearest by Manhattan distance first."""
    ring = [(dx, dy) for dx in range(-steps, steps + 1) for dy in range(-steps, steps + 1)
            if max(abs(dx), abs(dy)) == steps]
    ring.sort(key=lambda d: (abs(d[0]) + abs(d[1]), d))
    return tuple(ring)


def _charge(state: WarState, battle: Battle, unit: Unit, target: Unit | Single, dx: int,
            dy: int) -> None:
    if isinstance(target, Unit) and unit.mob and mob_charge_due(state, unit, target) and \
            _mob_refuses(state, battle, unit):
        return
    start = tuple(unit.squares)
    final = straight_path(unit.squares, dx, dy)[-1]
    uphill = _elevation(state, tuple(final)) > _elevation(state, start)
    conditions.shifted(unit, (dx, dy))
    state.place(unit, set(final))
    unit.heading = heading_of(dx, dy)
    unit.bank, unit.bank_step = Fraction(0), None
    battle.emit("charge", unit=unit.id, target=target.id, dx=dx, dy=dy, uphill=uphill)
    if isinstance(target, Unit):
        _charge_attack(state, battle, unit, target, frozenset(unit.squares),
                       charge_bonus=not uphill)
        return
    unit.charge_ac_penalty = True
    unit.melee_round = state.round
    unit.exposed = True
    state.melee_happened = True
    damage.unit_attacks_single(state, battle, unit, target, ranged=False,
                               extra_bonus=0 if uphill else CHARGE_BONUS)


# ---------------------------------------------------------------------------------------------
# Ranged fire (W35-UATK-09..14, W35-DMG-04..07/12, W35-MULTI-06..08, W35-MOB-06)
# ---------------------------------------------------------------------------------------------


def _blocks(state: WarState) -> Callable[[Square], bool]:
    return reach.view_blocker(state)


def sighted(state: WarState, unit: Unit, squares: set[Square]) -> tuple[Square, ...]:
    """``unit``'s counters with line of sight to one of ``squares`` (W35-AMB-35)."""
    return reach.counters_with_sight(unit.squares, squares, _blocks(state))


def sees_any(state: WarState, unit: Unit, squares: set[Square]) -> bool:
    """Whether some counter of ``unit`` sees one of ``squares`` (W35-DMG-04), stopping at the
    first line found."""
    at, terrain = state.at, state.blocks_sight
    targets = sorted(squares)
    for counter in sorted(unit.squares):
        if _walled_in(counter, squares, at, terrain):
            continue
        for t in targets:
            for sq in sight_line(counter, t):
                if sq not in squares and (sq in at or sq in terrain):
                    break
            else:
                return True
    return False


def _walled_in(counter: Square, squares: set[Square], at: dict[Square, str],
               terrain: set[Square]) -> bool:
    """Every square around ``counter`` blocks sight and none is a target: every line from it
    (to a target not next to it) first enters one of them, so it sees nothing."""
    x, y = counter
    for dx, dy in DIRECTIONS8:
        sq = (x + dx, y + dy)
        if sq in squares or (sq not in at and sq not in terrain):
            return False
    return True


def range_increment(unit: Unit) -> int | None:
    """The unit's range increment in feet; Far Shot makes it x1.5, x2 if thrown (W35-ABIL-02,
    standard 3.5)."""
    attack = unit.ranged
    if attack is None or attack.range_increment is None:
        return None
    feats = {f.replace("_", " ").replace("-", " ") for f in unit.feats}
    if "far shot" in feats:
        return attack.range_increment * 2 if attack.thrown else attack.range_increment * 3 // 2
    return attack.range_increment


def range_modifier(state: WarState, unit: Unit, squares: set[Square],
                   gap: int | None = None) -> int | None:
    """The range penalty against a target on ``squares`` (W35-UATK-12..14, W35-AMB-36);
    None when it is out of range. ``gap``: the unit distance, when already known."""
    increment = range_increment(unit)
    assert unit.ranged is not None and increment is not None
    if gap is None:
        gap = unit_distance(unit.squares, squares)
    feet = tables.distance_feet(gap, state.scale)
    if not tables.in_range(feet, increment, unit.ranged.thrown):
        return None
    return tables.range_penalty(tables.range_increments(feet, increment))


def shooter_problem(state: WarState, unit: Unit) -> Refusal | None:
    """Why ``unit`` may not make a ranged attack at all this turn (None: it may)."""
    if not unit.can_fight or unit.ranged is None or range_increment(unit) is None:
        return Refusal(f"{unit.label} has no ranged attack", rule="W35-UATK-09")
    if unit.phalanx:
        return Refusal("a phalanx cannot make ranged attacks", rule="W35-DEFEND-13")
    if engaged_units(state, unit):
        return Refusal("a unit engaged in melee cannot fire", rule="W35-MULTI-06")
    if unit.melee_round == state.round:
        return Refusal(f"{unit.label} made a melee attack this round", rule="W35-UATK-11")
    return None


def _target_squares(state: WarState, unit: Unit, tid: str) -> set[Square] | Refusal:
    if tid in state.singles:
        single = state.singles[tid]
        if single.side == unit.side or not single.independent or single.square is None:
            return Refusal(f"{single.label} is not an enemy standing on its own",
                           rule="W35-DMG-08")
        return {single.square}
    target = state.units.get(tid)
    if target is None or target.side == unit.side or not target.on_map:
        return Refusal(f"{tid} is not an enemy unit on the map", rule="W35-UATK-09")
    return _shelter_problem(state, target) or target.squares


def target_problem(state: WarState, unit: Unit, tid: str) -> Refusal | None:
    """Why ``unit`` may not fire at ``tid`` at all (None: it may)."""
    return _target_gap(state, unit, tid)[0]


def _target_gap(state: WarState, unit: Unit, tid: str) -> tuple[Refusal | None, int]:
    """:func:`target_problem`, with the unit distance to the target (-1 when not found)."""
    squares = _target_squares(state, unit, tid)
    if isinstance(squares, Refusal):
        return squares, -1
    gap = unit_distance(unit.squares, squares)
    return _fire_problem(state, unit, tid, squares, gap), gap


def _fire_problem(state: WarState, unit: Unit, tid: str, squares: set[Square],
                  gap: int) -> Refusal | None:
    if gap < 2:
        return Refusal("firing needs an empty square between every counter and the target",
                       rule="W35-UATK-10")
    if range_modifier(state, unit, squares, gap) is None:
        return Refusal(f"{tid} is beyond maximum range", rule="W35-UATK-13")
    if not sees_any(state, unit, squares):
        return Refusal(f"no counter of {unit.label} sees {tid}", rule="W35-DMG-04")
    return None


def _flat(unit: Unit) -> bool:
    """Only counters with line of sight fire: crossbows (W35-DMG-07) and mobs (W35-MOB-06)."""
    return unit.mob or (unit.ranged is not None and unit.ranged.crossbow)


def parse_plan(text: str) -> dict[str, int | None]:
    """``t1:3,t2:2`` as {t1: 3, t2: 2}; a target without a count maps to None."""
    plan: dict[str, int | None] = {}
    for part in str(text).split(","):
        name, _, count = part.partition(":")
        plan[name] = int(count) if count.isdigit() else None
    return plan


def _matchable(needs: dict[str, int], seen: dict[str, set[Square]]) -> bool:
    """Whether each target can get its declared count of distinct counters that see it."""
    slots = [t for t, n in needs.items() for _ in range(n)]
    owner: dict[Square, int] = {}

    def place(i: int, tried: set[Square]) -> bool:
        for sq in seen[slots[i]]:
            if sq not in tried:
                tried.add(sq)
                if sq not in owner or place(owner[sq], tried):
                    owner[sq] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(slots)))


def plan_problem(state: WarState, unit: Unit, plan: dict[str, int]) -> Refusal | None:
    """Why the declared counters per target are not a legal volley (W35-MULTI-07)."""
    problem = shooter_problem(state, unit)
    if problem is not None:
        return problem
    for tid in plan:
        problem = target_problem(state, unit, tid)
        if problem is not None:
            return problem
    if any(n < 1 for n in plan.values()):
        return Refusal("each target needs at least one counter", rule="W35-MULTI-07")
    if len(plan) > 1 and any(t in state.singles for t in plan):
        return Refusal("a singular creature is fired at by the whole unit alone",
                       rule="W35-DMG-12")
    if sum(plan.values()) > unit.counters:
        return Refusal(f"{unit.label} has only {unit.counters} counters", rule="W35-MULTI-07")
    if _flat(unit):
        seen = {t: set(sighted(state, unit, state.units[t].squares)) for t in plan
                if t in state.units}
        if not _matchable({t: n for t, n in plan.items() if t in seen}, seen):
            return Refusal("only counters with line of sight may fire", rule="W35-DMG-07")
    return None


def _full_plan(state: WarState, unit: Unit, tid: str) -> dict[str, int]:
    """Everything that may fire at one target: every counter, or those that see it."""
    if tid in state.singles or not _flat(unit):
        return {tid: unit.counters}
    return {tid: len(sighted(state, unit, state.units[tid].squares))}


def even_plans(state: WarState, unit: Unit, targets: list[str]) -> list[dict[str, int]]:
    """A few volleys over several targets: an even split, and all but one counter on each."""
    n, k = unit.counters, len(targets)
    plans = [{t: n // k + (1 if i < n % k else 0) for i, t in enumerate(targets)}]
    for focus in targets:
        plans.append({t: (n - k + 1 if t == focus else 1) for t in targets})
    return [p for p in plans if min(p.values()) >= 1]


def _plan_text(plan: dict[str, int]) -> str:
    return ",".join(f"{t}:{n}" for t, n in plan.items())


def _fire(state: WarState, battle: Battle, unit: Unit, plan: dict[str, int]) -> None:
    """One roll per target with the counters declared against it (W35-MULTI-08)."""
    assert unit.ranged is not None
    battle.emit("volley", unit=unit.id, plan=_plan_text(plan))
    for tid, count in plan.items():
        if tid in state.singles:
            single = state.singles[tid]
            assert single.square is not None
            extra = (range_modifier(state, unit, {single.square}) or 0) + (
                FOREST_MISSILE if in_forest(state, unit) else 0)
            unit.exposed = True
            damage.unit_attacks_single(state, battle, unit, single, ranged=True,
                                       extra_bonus=extra)
            continue
        target = state.units[tid]
        if not target.on_map:
            continue
        penalty = range_modifier(state, unit, target.squares)
        if penalty is None:
            continue
        crossbow = unit.ranged.crossbow
        multiplier = reach.ranged_multiplier(count, target.targetable, crossbow,
                                             state.options.crossbow_cap_by_target)
        landing = reach.squares_hit(sorted(unit.squares)[:count], target.squares)
        battle.emit("volley_lands", unit=unit.id, target=tid,
                    squares=[list(sq) for sq in landing])
        strike(state, battle, unit, target, "crossbow" if crossbow else "ranged", multiplier,
               extra=penalty)


def _ask_plan(state: WarState, battle: Battle, unit: Unit, targets: list[str]) -> dict[str, int]:
    """The commander declares counters per target before any roll (W35-DEC-16)."""
    plans = [p for p in even_plans(state, unit, targets) if plan_problem(state, unit, p) is None]
    if not plans:
        return _full_plan(state, unit, targets[0])
    options = tuple(Order.of("fire", unit.id, _plan_text(p)) for p in plans)

    def accept(order: Order) -> Order | Refusal:
        if order.kind != "fire" or len(order.args) < 2:
            return Refusal(f"{order} is not a fire plan", rule="W35-MULTI-07")
        plan = parse_plan(str(order.args[1]))
        counts = {t: n for t, n in plan.items() if n is not None}
        if len(counts) != len(plan):
            return Refusal("give every target a counter count", rule="W35-MULTI-07")
        return plan_problem(state, unit, counts) or order

    answer = battle.ask(unit.side, "fire_plan", options,
                        f"{unit.label}: counters firing at each target?", unit.id,
                        default=options[0], accept=accept)
    return {t: n or 0 for t, n in parse_plan(str(answer.args[1])).items()}


def _shoot(state: WarState, battle: Battle, unit: Unit, text: str) -> None:
    plan = parse_plan(text)
    if len(plan) == 1 and None in plan.values():
        _fire(state, battle, unit, _full_plan(state, unit, next(iter(plan))))
    elif None in plan.values():
        _fire(state, battle, unit, _ask_plan(state, battle, unit, list(plan)))
    else:
        _fire(state, battle, unit, {t: n or 0 for t, n in plan.items()})


# ---------------------------------------------------------------------------------------------
# The free attack on a disengaging unit (W35-UMOVE-06/07, W35-AMB-82)
# ---------------------------------------------------------------------------------------------


def free_attack(state: WarState, battle: Battle, attacker: Unit, leaver: Unit) -> None:
    """The Disengage free attack, before ``leaver`` moves: +2, times ``attacker``'s counters
    sharing a side with it; no unit action used; never by a routed unit."""
    if not can_melee(attacker):
        return
    multiplier = len(side_contacts(attacker.squares, leaver.squares))
    if multiplier < 1:
        return
    strike(state, battle, attacker, leaver, "free", multiplier)


# ---------------------------------------------------------------------------------------------
# Options, judging and carrying out attack orders
# ---------------------------------------------------------------------------------------------


def _melee_options(state: WarState, unit: Unit) -> list[Order]:
    engaged = engaged_units(state, unit)
    if engaged:
        return [Order.of("melee", unit.id, ",".join(t.id for t in engaged))]
    out = []
    for oid in sorted(state.neighbours_of(unit.squares, diagonal=True)):
        if melee_problem(state, unit, [oid]) is None:
            out.append(Order.of("melee", unit.id, oid))
    return out


def _charge_options(state: WarState, unit: Unit) -> list[Order]:
    if unit.phalanx or unit.melee is None or charge_reach(unit) < 1 or engaged_units(state, unit):
        return []
    out = []
    foes: list[Unit | Single] = sorted(state.units_of(state.other(unit.side)),
                                       key=lambda u: u.id)
    foes += [s for s in sorted(state.singles.values(), key=lambda s: s.id)
             if s.side != unit.side and s.independent]
    ux0, uy0, ux1, uy1 = _bounds(unit.squares)
    reach_to = charge_reach(unit) + 1
    for target in foes:
        squares = _squares_of(target)
        if not squares:
            continue
        tx0, ty0, tx1, ty1 = _bounds(squares)
        if max(tx0 - ux1, ux0 - tx1, ty0 - uy1, uy0 - ty1) > reach_to:
            continue  # the boxes alone are too far apart: no charge reaches it
        offset = find_charge(state, unit, target)
        if offset is not None:
            out.append(Order.of("charge", unit.id, target.id, f"{offset[0]},{offset[1]}"))
    return out


def _shoot_options(state: WarState, unit: Unit) -> list[Order]:
    if shooter_problem(state, unit) is not None:
        return []
    foes: list[tuple[int, str]] = []
    for target in state.units_of(state.other(unit.side)):
        problem, gap = _target_gap(state, unit, target.id)
        if problem is None:
            foes.append((gap, target.id))
    foes.sort()
    out = [Order.of("shoot", unit.id, tid) for _, tid in foes]
    if len(foes) > 1 and unit.counters > 1:
        out.append(Order.of("shoot", unit.id, ",".join(t for _, t in foes[:SHOOT_CHOICES])))
    for single in sorted(state.singles.values(), key=lambda s: s.id):
        if single.side != unit.side and single.independent and \
                target_problem(state, unit, single.id) is None:
            out.append(Order.of("shoot", unit.id, single.id))
    return out


def attack_options(state: WarState, unit: Unit) -> list[Order]:
    """The attack actions ``unit`` may take: melee on a unit in side contact (or on every
    engaged unit), charges (the shortest straight line onto each enemy in reach) and fire."""
    if not unit.can_fight:
        return []
    out = _melee_options(state, unit) if can_melee(unit) else []
    out += _charge_options(state, unit) + _shoot_options(state, unit)
    meter_count(OPTIONS, len(out))
    return out


def _offset(text: str) -> tuple[int, int] | None:
    parts = str(text).split(",")
    try:
        dx, dy = (int(p) for p in parts)
    except ValueError:
        return None
    return dx, dy


def judge_attack(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """The order if it is a legal attack (or defence) action for ``unit``, else why not."""
    if order.kind in defence.ORDER_KINDS:
        return defence.judge_defence(state, unit, order)
    if order.kind not in ORDER_KINDS or len(order.args) < 2 or order.args[0] != unit.id:
        return Refusal(f"{order} is not a legal unit action for {unit.label} now",
                       rule="W35-UMOVE-01")
    arg = str(order.args[1])
    if order.kind == "melee":
        return melee_problem(state, unit, arg.split(",")) or order
    if order.kind == "charge":
        target: Unit | Single | None = state.units.get(arg) or state.singles.get(arg)
        offset = _offset(str(order.args[2])) if len(order.args) > 2 else None
        if target is None or offset is None:
            return Refusal("a charge names an enemy and an offset dx,dy", rule="W35-AMB-40")
        return charge_problem(state, unit, target, *offset) or order
    plan = parse_plan(arg)
    problem = shooter_problem(state, unit)
    if problem is None and None in plan.values():
        problem = next((p for t in plan if (p := target_problem(state, unit, t)) is not None),
                       None)
    elif problem is None:
        problem = plan_problem(state, unit, {t: n or 0 for t, n in plan.items()})
    return problem or order


def take_attack(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out a melee, charge or shoot order."""
    arg = str(order.args[1])
    if order.kind == "melee":
        ids = arg.split(",")
        if len(ids) == 1 and ids[0] in state.singles:
            unit.melee_round = state.round
            unit.exposed = True
            state.melee_happened = True
            extra = defence.PHALANX_ATTACK if unit.phalanx else 0
            damage.unit_attacks_single(state, battle, unit, state.singles[ids[0]], ranged=False,
                                       extra_bonus=extra)
            return
        _melee(state, battle, unit, [state.units[i] for i in ids])
    elif order.kind == "charge":
        offset = _offset(str(order.args[2]))
        assert offset is not None
        _charge(state, battle, unit, state.units.get(arg) or state.singles[arg], *offset)
    else:
        _shoot(state, battle, unit, arg)

