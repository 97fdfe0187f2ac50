"""The Charge phase (W4-CHARGE): each side, initiative first, declares its charges, takes
the fear tests they cause, rolls the distances, picks spearheads, moves and makes its charge
attacks at once with the close-combat procedure."""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry import box
from shapely.strtree import STRtree

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    Tray,
    clear_sight,
    contact_shift,
    majority_arc,
    path_cost,
    sees,
    tray_gap,
)
from warhost.rulesets.dnd4e_war import casualties, char_melee, melee, psychology
from warhost.rulesets.dnd4e_war.state import Unit, WarState
from warhost.rulesets.dnd4e_war.tables import charge_distance

STRAIGHT_CONE = 45.0
"""W4-AMB-15: a company unit's spearhead moves at most 45 degrees off its facing."""
UNSTOPPABLE = 6
"""W4-CHARGE-08."""


@dataclass
class Charge:
    """One declared charge and how it went."""

    unit: Unit
    target: Unit
    roll: int = 0
    reach: float = 0.0
    failed: str = ""
    scared: bool = False
    spearhead: int = 0
    arc: str = "front"
    bonus: bool = False
    extra: frozenset[int] = field(default_factory=frozenset)


# --------------------------------------------------------------------------- the phase

def charge_phase(state: WarState, battle: Battle) -> None:
    """W4-CHARGE-01: pursuers' waiting charge attacks first (W4-AMB-19), then each side,
    initiative first: declare, test, roll, choose spearheads, move, attack."""
    pending_pursuits(state, battle)
    for side in state.order_of_sides():
        side_charges(state, battle, side)


def side_charges(state: WarState, battle: Battle, side: str, only: Unit | None = None) -> None:
    """Steps 1 to 6 of W4-CHARGE-01 for one side (``only``: just that unit, acting first
    with an action point, W4-AP-08)."""
    charges = declare(state, battle, side, only)
    for charge in charges:
        roll(state, battle, charge)
    for charge in in_chosen_order(battle, side, charges):
        if not charge.failed and not charge.target.alive:
            charge.failed = "its target is gone"
        if not charge.failed:
            move(state, battle, charge)
        if charge.failed:
            battle.emit("charge_failed", unit=charge.unit.id, target=charge.target.id,
                        reason=charge.failed)
    for charge in charges:
        if not charge.failed and charge.unit.alive and charge.target.alive:
            charge_attacks(state, battle, charge.unit, charge.target, charge.bonus,
                           charge.extra)


# --------------------------------------------------------------------------- declaring

def can_charge(state: WarState, unit: Unit) -> bool:
    """W4-DEC-20, W4-AMB-18: a unit that is not fleeing, not in combat and still has its
    standard action may charge."""
    return (unit.alive and not unit.fleeing and not state.is_engaged(unit.id)
            and not unit.standard_used and not unit.shot and melee.melee_power(unit)
            is not None and unit.machine is None)  # W4-WM-11: a war machine never charges


def visible_targets(state: WarState, unit: Unit, reach: float | None = None) -> list[Unit]:
    """W4-CHARGE-04, W4-UNIT-05, W4-SKIRM-02, W4-MONSTER-05: enemies in the unit's front arc
    (all round for skirmishers and lone models) with a clear line of sight; with ``reach``,
    only those whose trays lie within ``reach`` inches (found through a spatial index)."""
    frame = unit.frame()
    blockers = [g.region.polygon for g in state.ground if g.blocks_sight]
    viewers = unit.trays() if unit.skirmish else [frame]
    all_round = unit.skirmish or melee.lone_model(unit)
    found = []
    for enemy in _enemies_near(state, unit, reach):
        count(GEOMETRY)
        if not all_round and not sees(frame, enemy.frame().polygon):
            continue
        targets = enemy.trays()
        if not blockers or any(clear_sight(v, targets, blockers) for v in viewers):
            found.append(enemy)
    return found


FRAMES = "charge_frames"
"""Key in ``WarState.extra`` of the spatial index of unit frames kept while a side declares."""


def _enemies_near(state: WarState, unit: Unit, reach: float | None) -> list[Unit]:
    index = state.extra.get(FRAMES)
    if reach is None or not isinstance(index, tuple):
        return list(state.enemies_of(unit))
    tree, owners = index
    x0, y0, x1, y1 = unit.frame().polygon.bounds
    hits = sorted(int(i) for i in tree.query(box(x0 - reach, y0 - reach, x1 + reach,
                                                 y1 + reach)))
    count(GEOMETRY, len(hits))
    near = (state.units[owners[i]] for i in hits)
    return [u for u in near if u.side != unit.side and u.alive]


def max_reach(unit: Unit) -> float:
    """The farthest any charge roll can take the unit: a 6 plus Speed - 3 (W4-CHARGE-09)."""
    return charge_distance(6, unit.speed())


def declare(state: WarState, battle: Battle, side: str,
            only: Unit | None = None) -> list[Charge]:
    """W4-CHARGE-02 to 04, W4-DEC-20: every eligible unit charges a visible enemy or holds.
    A unit is asked when some enemy it sees is within what a charge roll could reach; those
    are offered, and any other visible enemy may still be named (the charge then falls
    short, W4-CHARGE-05)."""
    stepped = _charging_out(state, battle, side) if only is None else {}
    alive = [u for u in state.units.values() if u.alive]
    state.extra[FRAMES] = (STRtree([u.frame().polygon for u in alive]), [u.id for u in alive])
    count(GEOMETRY, len(alive))
    try:
        units = [only] if only is not None else list(state.units_of(side))
        declared = [c for unit in units if (c := _declare_one(state, battle, side, unit))
                    is not None]
    finally:
        state.extra.pop(FRAMES, None)
    if stepped:
        from warhost.rulesets.dnd4e_war import joining

        joining.back_in(state, battle, stepped, {c.unit.id for c in declared})
    return declared


def _charging_out(state: WarState, battle: Battle, side: str) -> dict[str, str]:
    """W4-CHAR-15: joined characters stepping out to charge on their own."""
    if not state.characters:
        return {}
    from warhost.rulesets.dnd4e_war import joining

    return joining.charge_out_step(state, battle, side)


def _declare_one(state: WarState, battle: Battle, side: str, unit: Unit) -> Charge | None:
    if not can_charge(state, unit):
        return None
    targets = visible_targets(state, unit, max_reach(unit))
    if not targets:  # no roll could bring it to any enemy it sees: nothing to declare
        return None
    options = (Order.of("hold", unit.id),
               *(Order.of("charge", unit.id, t.id) for t in targets))
    count(OPTIONS, len(options))
    # W4-CHARGE-03: the player may measure first, so the distances come with the question.
    gaps = {t.id: round(state.gap(unit, t), 2) for t in targets}
    measured = ", ".join(f"{uid} {gap:g}\"" for uid, gap in gaps.items())
    order = battle.ask(side, "charge", options,
                       f"Does {unit.label()} charge? (closest distances: {measured})",
                       subject=unit.id, default=options[0], info={"distances": gaps},
                       accept=lambda wanted: _judge_declaration(state, unit, wanted))
    if order.kind != "charge":
        return None
    target = state.units[str(order.args[1])]
    battle.emit("charge_declared", unit=unit.id, target=target.id)
    charge = Charge(unit, target)
    fear_tests(state, battle, charge)
    return charge


def _judge_declaration(state: WarState, unit: Unit, wanted: Order) -> Order | Refusal:
    """Any visible enemy may be named, even one no roll could reach (W4-CHARGE-04/05)."""
    from warhost.rulesets.dnd4e_war.explain import charge_refusal

    if wanted.kind not in ("hold", "charge") or not wanted.args or str(
            wanted.args[0]) != unit.id:
        return Refusal(f"answer with 'charge {unit.id} TARGET' or 'hold {unit.id}'",
                       rule="W4-CHARGE-02")
    refusal = charge_refusal(state, unit, wanted)
    return refusal if refusal is not None else Order.of("charge", unit.id,
                                                        str(wanted.args[1]))


ORDER_WINDOW = 8
"""Charges (or shooters) listed at once when a side orders them; any other may be named."""


def in_chosen_order(battle: Battle, side: str, charges: list[Charge]) -> list[Charge]:
    """W4-DEC-20: the player orders the side's charge moves (rolled failures need none); the
    next few in declared order are listed, and any charge still waiting may be named."""
    waiting = [c for c in charges if not c.failed]
    ordered = [c for c in charges if c.failed]
    while waiting:
        options = tuple(Order.of("next_charge", c.unit.id) for c in waiting[:ORDER_WINDOW])
        count(OPTIONS, len(options))
        ids = {c.unit.id for c in waiting}

        def judge(wanted: Order, ids: set[str] = ids) -> Order | Refusal:
            if wanted.kind == "next_charge" and len(wanted.args) == 1 and str(
                    wanted.args[0]) in ids:
                return Order.of("next_charge", str(wanted.args[0]))
            return Refusal(f"name a charge still to move: {', '.join(sorted(ids))}",
                           rule="W4-DEC-20")

        order = battle.ask(side, "next_charge", options, "Which charge moves next?",
                           default=options[0],
                           accept=judge if len(waiting) > ORDER_WINDOW else None)
        pick = next(c for c in waiting if c.unit.id == str(order.args[0]))
        waiting.remove(pick)
        ordered.append(pick)
    return ordered


def fear_tests(state: WarState, battle: Battle, charge: Charge) -> None:
    """W4-FEAR-03/07: a unit charging a fear causer tests first and, failing, does not
    charge; W4-FEAR-02, W4-AMB-17: the target of a fear causer tests right away and, failing,
    falls back directly away from the charger (who still rolls against its new place)."""
    unit, target = charge.unit, charge.target
    if not psychology.fear_test(state, battle, unit, target, f"to charge {target.id}",
                                "W4-FEAR-03", flee=False):
        charge.scared = True
        return
    if not target.fleeing:
        psychology.fear_test(state, battle, target, unit, f"charged by {unit.id}",
                             "W4-FEAR-02")


def roll(state: WarState, battle: Battle, charge: Charge) -> None:
    """W4-CHARGE-06 to 09, W4-AMB-11/12/14: 1d6 + Speed - 3; a 1 fails, and so does a
    failed test to charge (unless a 6 is unstoppable by the option)."""
    if charge.scared and state.options.unstoppable_charge != "ignore_fear_test":
        charge.failed = "failed its courage test to charge"
        return
    unit = charge.unit
    charge.roll = battle.dice.draw(6, f"charge {unit.id}")
    if state.characters:  # W4-AP-01: a character with the unit may change the die
        charge.roll = _spend_on_roll(state, battle, charge)
    charge.reach = charge_distance(charge.roll, unit.speed())
    battle.emit("charge_roll", unit=unit.id, target=charge.target.id, roll=charge.roll,
                distance=round(charge.reach, 3))
    if charge.scared and charge.roll != UNSTOPPABLE:
        charge.failed = "failed its courage test to charge"
    elif charge.roll == 1:
        charge.failed = "rolled a 1"
    elif charge.reach <= 0:
        charge.failed = "cannot reach anything"
    if charge.roll == UNSTOPPABLE and not charge.failed:
        state.extra.setdefault("unstoppable", {})[unit.id] = state.turn


def _spend_on_roll(state: WarState, battle: Battle, charge: Charge) -> int:
    """W4-AP-01: a face that fails, or falls short of the target's closest distance, may
    be raised with action points."""
    from warhost.rulesets.dnd4e_war.action_points import modify_die

    unit, gap = charge.unit, state.gap(charge.unit, charge.target)

    def reaches(face: int) -> bool:
        return face != 1 and charge_distance(face, unit.speed()) >= gap - 1e-9

    return modify_die(state, battle, unit, charge.roll, 6, reaches, f"charge {unit.id}",
                      "charge")


# --------------------------------------------------------------------------- moving

def target_tray(unit: Unit, target: Unit, mover: Tray) -> Tray:
    """What the spearhead charges: the target's whole block, or the nearest skirmisher."""
    if target.skirmish:
        return min(target.trays(), key=lambda t: tray_gap(mover, t))
    return target.frame()


def spearhead(state: WarState, battle: Battle, charge: Charge) -> int:
    """W4-CHARGE-10/11, W4-DEC-21: a front-rank company (skirmishers: a model)."""
    unit = charge.unit
    count_ = len(unit.companies) if unit.skirmish else min(unit.files, len(unit.companies))
    trays = unit.trays()
    goal = charge.target.frame()
    nearest = min(range(count_), key=lambda s: tray_gap(trays[s], goal))
    options = tuple(Order.of("spearhead", unit.id, s) for s in range(count_))
    count(OPTIONS, len(options))
    # W4-CHARGE-11: measured before choosing.
    gaps = [round(tray_gap(trays[s], goal), 2) for s in range(count_)]
    measured = ", ".join(f"{s}: {gap:g}\"" for s, gap in enumerate(gaps))
    order = battle.ask(unit.side, "spearhead", options,
                       f"Which company of {unit.label()} spearheads the charge? ({measured})",
                       subject=unit.id, default=options[nearest], info={"distances": gaps})
    return int(order.args[1])


def move(state: WarState, battle: Battle, charge: Charge) -> None:
    """W4-CHARGE-12 to 16, W4-AMB-13/15/16: the spearhead goes straight into contact with
    the arc of the target holding most of it; the unit keeps its facing and forms up
    around it (the whole block slides); skirmishers then close in (W4-SKIRM-06/07)."""
    unit, target = charge.unit, charge.target
    if target.machine is not None:
        from warhost.rulesets.dnd4e_war import machines

        machines.line_up(state, battle, target, unit)  # W4-WM-12
    slot = charge.spearhead = spearhead(state, battle, charge)
    trays = unit.trays()
    mover = trays[slot]
    goal = target_tray(unit, target, mover)
    gap = tray_gap(mover, goal)
    if gap > charge.reach + 1e-9:
        charge.failed = f"out of range ({gap:.1f} inches)"
        return
    charge.arc = majority_arc(goal, mover.polygon)
    free = unit.skirmish or melee.lone_model(unit)  # W4-MONSTER-06, W4-SKIRM-03
    shift = contact_shift(mover, goal, charge.arc, None if free else unit.facing,
                          STRAIGHT_CONE, min(unit.base, goal.width))
    if shift is None:
        charge.failed = "no straight path into contact"
        return
    end = (mover.centre[0] + shift[0], mover.centre[1] + shift[1])
    cost = path_cost([mover.centre, end], [g.region for g in state.ground])
    if cost > charge.reach + 1e-9:
        charge.failed = "cannot reach contact in a straight line"
        return
    targets = target.trays()
    charge.bonus = gap > melee.CHARGE_GAP
    charge.extra = frozenset(s for s, t in enumerate(trays)
                             if min(tray_gap(t, g) for g in targets) > melee.CHARGE_GAP)
    before = (unit.front, list(unit.points))
    if unit.skirmish:  # the spearhead model alone; the others close in after it
        unit.points = [end if i == slot else p for i, p in enumerate(unit.points)]
    else:
        melee.shift_unit(unit, *shift)
    if melee.blocked(state, unit, {target.id}):
        unit.front, unit.points = before
        charge.failed = "blocked"
        return
    unit.charged = True
    unit.charge_bonus = charge.bonus
    unit.standard_used = unit.move_used = True
    state.extra.setdefault("charged_arc", {})[unit.id] = (target.id, charge.arc)
    battle.emit("charge_move", unit=unit.id, target=target.id, spearhead=slot, arc=charge.arc,
                distance=round(cost, 3))
    if unit.skirmish:
        melee.gather(state, battle, unit, target, charge.reach, charge.arc)
    if target.fleeing and state.options.charged_fleeing_unit_destroyed:
        casualties.destroy(state, battle, target, "caught fleeing by a charge")
        charge.failed = ""
        return
    state.engage(unit.id, target.id)
    if target.skirmish and target.machine is None:  # W4-WM-12: crew lined up instead
        melee.gather(state, battle, target, unit, target.speed(), "front", choose=True)


# --------------------------------------------------------------------------- attacking

def charge_attacks(state: WarState, battle: Battle, unit: Unit, target: Unit, bonus: bool,
                   extra: frozenset[int]) -> None:
    """W4-CHARGE-17 to 20, W4-AMB-13/94/97: the charger strikes at once: +1 to hit when the
    spearhead came more than 2", extra dice for each company in contact that did."""
    foes = state.foes_of(unit.id)
    if not foes:
        return
    blows = melee.plan_blows(state, battle, unit, foes, hit_bonus=1 if bonus else 0,
                             extra_slots=extra)
    if unit.joined:
        blows += char_melee.character_blows(state, battle, unit, foes)
    melee.strike(state, battle, blows, charge=True)
    melee.re_engage(state, battle, [u for u in (unit, target) if u.alive and not u.fleeing],
                    round_end=False)


def pending_pursuits(state: WarState, battle: Battle) -> None:
    """W4-AMB-19: pursuers that reached an enemy make their charge attacks now, with the
    charge bonuses if the pursuit covered more than 2"."""
    moved: dict[str, float] = state.extra.get("pursuit_moved", {})
    for uid, tid in sorted(state.pursuit_pending.items()):
        unit, target = state.units[uid], state.units[tid]
        far = moved.get(uid, 0.0) > melee.CHARGE_GAP
        if unit.alive and target.alive and tid in state.engaged.get(uid, ()):
            unit.charged = unit.standard_used = True
            every = frozenset(range(len(unit.companies))) if far else frozenset()
            charge_attacks(state, battle, unit, target, far, every)
    state.pursuit_pending.clear()
    moved.clear()
