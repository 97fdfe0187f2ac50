"""War machines (W4-WM, W4-BOLT, W4-STONE, W4-AMB-59 to 66, W4-DEC-19): bolt throwers and
stone throwers, each worked by a crew of skirmishers that stays within 2" of it.

A machine is a marker (a square footprint with a facing) kept in :attr:`WarState.machines`;
the crew unit that works it has :attr:`Unit.machine` set. The hooks the phases call:
``crew_moves`` (Movement: haul, reload, abandon, take over), ``machine_shoots`` (Shooting:
fire, reload, repair), ``crew_flee`` (W4-WM-14), ``line_up`` (W4-WM-12).

Orders: ``haul U x,y`` (crew and machine move together, a double move), ``reload U``,
``crew U`` (the crew move on their own; leaving the machine more than 2" behind abandons
it), ``abandon U``, ``fire U TARGET`` (bolt thrower), ``aim U x,y`` (stone thrower: the centre
of the model aimed at), ``repair U``, ``take U MACHINE``, ``leave U``, ``done U``, ``hold``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    Point,
    Tray,
    bearing,
    clear_sight,
    cover_by_majority,
    distance,
    line_between,
    model_centres,
    offset,
    point_word,
    read_point,
    tray_gap,
)
from warhost.rulesets.dnd4e_war.model import MachineSpec, Power
from warhost.rulesets.dnd4e_war.state import Machine, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import tier

CREW_REACH = 2.0
"""W4-WM-03: the machine and its crew stay within 2" of each other."""
STONE_MIN_RANGE = 12.0
"""W4-STONE-03, W4-AMB-64: the target model must be more than 12" away."""
BOLT_STEP = 2
"""W4-BOLT-03/05: each further bolt attack is at -2."""
BOLT_MAX_HITS = 6
"""W4-BOLT-05, W4-AMB-62: at most 6 hits in total, the primary included."""
BOLT_SECONDARY_DAMAGE = "1d6+4"
"""W4-BOLT-03."""
BOLT_VS = "reflex"
"""W4-BOLT-02/03: bolts attack Reflex (a machine may name another defense for its primary
attack; the secondary attacks are always against Reflex)."""
SCATTER_HIT_FACES = (1, 2)
"""W4-STONE-04: the scatter die's two hit faces (faces 3 to 6 show an arrow)."""
SCATTER_DIRECTIONS = 360
"""W4-AMB-64: an arrow's direction is a d360 roll (face 360 is due north), uniform."""
TIER_BONUS = {1: 0, 2: 10, 3: 20}
"""W4-AMB-63, W4-ARMY-11: paragon and epic crews add 10 and 20 to the attack bonus."""
MISFIRE_DESTROYED = (1,)
MISFIRE_DISABLED = (2, 3)
"""W4-STONE-09: the misfire table's rows by d6 (4-6: may not shoot)."""
ENEMY_GAP = 1.0
"""W4-UNIT-12: crew lined up do not come within 1" of other enemies."""


# --------------------------------------------------------------------------- the machine

def new_machine(unit: Unit, spec: MachineSpec, at: Any = None) -> Machine:
    """The crew unit's machine at ``at`` (default: just in front of the crew's line), loaded
    (W4-AMB-61). A crew stands closer together than other skirmishers, so every crewman is
    within 2" of it (W4-WM-03)."""
    pitch = unit.base + 0.5
    anchor = Tray(unit.front, unit.facing, 0.0, 0.0)
    n = len(unit.points)
    unit.points = [anchor.to_world((i - (n - 1) / 2.0) * pitch, -unit.base / 2.0)
                   for i in range(n)]
    where = (float(at[0]), float(at[1])) if at is not None else offset(
        unit.front, unit.facing, spec.size / 2.0 + 0.5)
    return Machine(id=unit.id, side=unit.side, spec=spec, at=where, facing=unit.facing,
                   start_crew=unit.models, crew=unit.id)


def footprint(machine: Machine) -> Tray:
    """The machine's square footprint."""
    return Tray(machine.at, machine.facing, machine.spec.size, machine.spec.size)


def crew_gap(unit: Unit, machine: Machine) -> float:
    """The farthest any crewman stands from the machine (edge to edge)."""
    trays = unit.trays()
    if not trays:
        return math.inf
    spot = footprint(machine)
    return max(tray_gap(t, spot) for t in trays)


def crewed(state: WarState, machine: Machine) -> bool:
    """The machine has a living crew on the table."""
    if machine.crew is None:
        return False
    unit = state.units.get(machine.crew)
    return unit is not None and unit.alive and unit.machine is machine


def abandoned(state: WarState, machine: Machine) -> bool:
    """W4-WM-14 to 16: a machine left without crew (it may be taken over)."""
    return not machine.destroyed and not crewed(state, machine)


def is_crew(unit: Unit) -> bool:
    """W4-WM-15: the unit is war machine crew (with or without a machine now)."""
    return unit.profile.machine is not None


def crewmen(unit: Unit) -> int:
    """W4-WM-07, W4-WM-09: crewmen who work the machine (joined characters do not)."""
    return unit.normal_models


def tier_bonus(unit: Unit) -> int:
    """W4-AMB-63: the crew's tier bonus to the machine's attack rolls."""
    return TIER_BONUS[tier(unit.profile.level)]


def attack_bonus(unit: Unit, machine: Machine) -> int:
    """The primary attack bonus: the machine's, the tier's, and -5 after a run (W4-AMB-07)."""
    from warhost.rulesets.dnd4e_war.shooting import RAN_PENALTY

    assert machine.spec.bonus is not None
    return machine.spec.bonus + tier_bonus(unit) - (RAN_PENALTY if unit.ran else 0)


def abandon(state: WarState, battle: Battle, unit: Unit, why: str) -> None:
    """W4-WM-14/16: the crew leave their machine where it stands."""
    machine = unit.machine
    if machine is None:
        return
    unit.machine = None
    machine.crew = None
    battle.emit("machine_abandoned", unit=unit.id, machine=machine.id, why=why,
                at=_pt(machine.at))


def crew_flee(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-WM-14: crew that flee leave the machine behind and go on as plain skirmishers."""
    abandon(state, battle, unit, "fled")


# --------------------------------------------------------------------------- reloading

def reload_needs_double(unit: Unit, machine: Machine) -> bool:
    """W4-WM-09: a stone thrower with a single crewman reloads with a double move action."""
    return machine.kind == "stone_thrower" and crewmen(unit) <= 1


def reload_refusal(state: WarState, unit: Unit) -> Refusal | None:
    """Why the unit may not reload now (W4-WM-08/09, W4-AMB-61)."""
    machine = unit.machine
    if machine is None or machine.destroyed:
        return Refusal(f"{unit.id} has no machine to reload", rule="W4-WM-08")
    if machine.loaded:
        return Refusal(f"{machine.id} is loaded", rule="W4-AMB-61")
    if unit.fleeing or state.is_engaged(unit.id) or crewmen(unit) < 1:
        return Refusal(f"{unit.id} cannot work the machine now", rule="W4-WM-08")
    if unit.move_used:
        return Refusal(f"{unit.id} has used its move action", rule="W4-WM-08")
    if reload_needs_double(unit, machine) and unit.standard_used:
        return Refusal("a lone crewman needs a double move action to reload a stone "
                       "thrower", rule="W4-WM-09")
    return None


def reload(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-WM-08/09: the crew load the machine, spending a move action (two for a lone
    crewman's stone thrower)."""
    machine = unit.machine
    assert machine is not None
    double = reload_needs_double(unit, machine)
    machine.loaded = True
    unit.move_used = True
    if double:
        unit.standard_used = unit.double_moved = True
    battle.emit("machine_reload", unit=unit.id, machine=machine.id,
                action="double move" if double else "move")


# --------------------------------------------------------------------------- movement

def crew_moves(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-DEC-19: a crew's move in the Movement phase: with its machine (haul, reload,
    move alone or abandon it), or without one (move, then perhaps take over an abandoned
    machine of its side, W4-WM-15)."""
    from warhost.rulesets.dnd4e_war import movement

    machine = unit.machine
    if machine is None or machine.destroyed:
        if machine is not None:
            unit.machine = None
        movement.move_unit(state, battle, unit)
        offer_take_over(state, battle, unit)
        return
    options = move_options(state, unit)
    count(OPTIONS, len(options))
    order = battle.ask(unit.side, "machine_move", options,
                       f"{unit.label()} works {machine.kind.replace('_', ' ')} {machine.id}: "
                       f"haul it, reload, or move without it? (Speed {unit.speed():g})",
                       subject=unit.id, default=options[0],
                       accept=lambda o: judge_move(state, unit, o))
    carry_out_move(state, battle, unit, order)


def move_options(state: WarState, unit: Unit) -> tuple[Order, ...]:
    """The offered machine moves: hold, reload, hauls to the compass points and towards the
    nearest enemy, the crew's own move and abandoning."""
    out = [Order("hold")]
    if reload_refusal(state, unit) is None:
        out.append(Order.of("reload", unit.id))
    if haul_refusal(state, unit) is None:
        out += haul_options(state, unit)
    out.append(Order.of("crew", unit.id))  # their own move (or standing up, W4-AMB-57)
    if not state.is_engaged(unit.id):
        out.append(Order.of("abandon", unit.id))
    return tuple(out)


def haul_refusal(state: WarState, unit: Unit) -> Refusal | None:
    """W4-WM-04, W4-AMB-59: moving the machine takes a double move (both move actions), so
    not with an enemy within 6" either (W4-MOVE-20)."""
    from warhost.rulesets.dnd4e_war.movement import Mover

    if state.is_engaged(unit.id):
        return Refusal(f"{unit.id} is engaged in close combat", rule="W4-AMB-81")
    if unit.move_used or unit.standard_used:
        return Refusal("moving a war machine takes a double move (both move actions)",
                       rule="W4-WM-04")
    return Mover(state, unit).refusal_of_kind("double")


def haul_options(state: WarState, unit: Unit) -> list[Order]:
    """The farthest legal hauls along the eight compass points and towards the nearest
    enemy, each at the crew's scaled Speed (W4-WM-05, W4-AMB-59)."""
    from warhost.rulesets.dnd4e_war.movement import Mover

    mover = Mover(state, unit)
    headings = [float(b) for b in range(0, 360, 45)]
    foe = mover.nearest_enemy()
    if foe is not None:
        headings.append(bearing(mover.block.centre, foe.frame().centre))
    out = []
    machine = unit.machine
    assert machine is not None
    for heading in headings:
        point = mover.farthest("walk", heading, unit.speed())
        if point is None or distance(point, mover.block.centre) <= 1e-6:
            continue
        dx, dy = point[0] - mover.block.centre[0], point[1] - mover.block.centre[1]
        if machine_on_table(state, machine, dx, dy):
            out.append(Order.of("haul", unit.id, point_word(point)))
    return out


def machine_on_table(state: WarState, machine: Machine, dx: float, dy: float) -> bool:
    """W4-SETUP-02: the machine's footprint, moved by ``(dx, dy)``, stays on the table."""
    spot = footprint(machine).moved(dx, dy)
    return all(-1e-9 <= x <= state.board.width + 1e-9 and -1e-9 <= y <= state.board.height
               + 1e-9 for x, y in spot.corners())


def judge_move(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """Any ``haul U x,y`` the crew could walk (the machine goes the same way); the other
    machine moves only as offered."""
    from warhost.rulesets.dnd4e_war.movement import Mover, Plan

    if order.kind != "haul":
        return Refusal("answer hold, reload, haul U x,y, crew or abandon", rule="W4-DEC-19")
    if len(order.args) != 2 or str(order.args[0]) != unit.id:
        return Refusal(f"haul needs the unit and a point, as in 'haul {unit.id} 20,14'",
                       rule="W4-DEC-19")
    problem = haul_refusal(state, unit)
    if problem is not None:
        return problem
    point = read_point(order.args[1])
    if point is None:
        return Refusal("haul needs a point x,y", rule="W4-DEC-19")
    plan = Mover(state, unit).plan(Order.of("walk", unit.id, point_word(point)))
    if not isinstance(plan, Plan):
        return plan if isinstance(plan, Refusal) else Refusal("not a move", rule="W4-WM-04")
    machine = unit.machine
    assert machine is not None
    if not machine_on_table(state, machine, *plan.shift):
        return Refusal("the machine would leave the table", rule="W4-SETUP-02")
    return Order.of("haul", unit.id, point_word(point))


def carry_out_move(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Do what the crew chose (W4-WM-04/08/16)."""
    from warhost.rulesets.dnd4e_war import movement

    if order.kind == "reload":
        reload(state, battle, unit)
    elif order.kind == "haul":
        haul(state, battle, unit, read_point(order.args[1]))
    elif order.kind == "abandon":
        abandon(state, battle, unit, "abandoned")
        movement.move_unit(state, battle, unit)
    elif order.kind == "crew":
        movement.move_unit(state, battle, unit)
        check_together(state, battle, unit)


def haul(state: WarState, battle: Battle, unit: Unit, point: Point | None) -> None:
    """W4-WM-04, W4-AMB-59: crew and machine move together up to the crew's scaled Speed,
    spending both move actions (so the machine cannot fire this turn)."""
    from warhost.rulesets.dnd4e_war.movement import Mover, Plan, anchor_of, carry_out

    machine = unit.machine
    assert machine is not None and point is not None
    plan = Mover(state, unit).plan(Order.of("walk", unit.id, point_word(point)))
    assert isinstance(plan, Plan)
    before = anchor_of(unit)
    # the crew keep their facing: their bases were judged clear as they stand now
    carry_out(state, battle, unit, replace(plan, kind="haul", facing=unit.facing))
    unit.standard_used = unit.double_moved = True
    dx, dy = anchor_of(unit)[0] - before[0], anchor_of(unit)[1] - before[1]
    machine.at = (machine.at[0] + dx, machine.at[1] + dy)
    battle.emit("machine_moved", unit=unit.id, machine=machine.id, to=_pt(machine.at))


def check_together(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-WM-03/16: crew that end their move more than 2" from the machine have left it."""
    machine = unit.machine
    if machine is not None and crew_gap(unit, machine) > CREW_REACH + 1e-9:
        abandon(state, battle, unit, "moved away")


def takeable(state: WarState, unit: Unit) -> list[Machine]:
    """W4-WM-15: abandoned machines of the crew's side within 2" of every crewman."""
    if not is_crew(unit) or unit.machine is not None or not unit.alive or unit.fleeing:
        return []
    return [m for m in state.machines.values()
            if m.side == unit.side and abandoned(state, m)
            and crew_gap(unit, m) <= CREW_REACH + 1e-9]


def offer_take_over(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-WM-15, W4-DEC-19: crew next to an abandoned machine of their side may take it."""
    found = takeable(state, unit)
    if not found:
        return
    options = (*(Order.of("take", unit.id, m.id) for m in found), Order.of("leave", unit.id))
    order = battle.ask(unit.side, "machine_take", options,
                       f"{unit.label()} stands by an abandoned machine: take it over?",
                       subject=unit.id, default=options[-1])
    if order.kind == "take":
        take_over(state, battle, unit, state.machines[str(order.args[1])])


def take_over(state: WarState, battle: Battle, unit: Unit, machine: Machine) -> None:
    """W4-WM-15: the machine and its new crew form a new unit (its starting crew now)."""
    machine.crew = unit.id
    machine.start_crew = unit.models
    unit.machine = machine
    battle.emit("machine_taken", unit=unit.id, machine=machine.id)


# --------------------------------------------------------------------------- shooting

def has_action(state: WarState, unit: Unit) -> bool:
    """Whether the crew may do anything with the machine in the Shooting phase."""
    machine = unit.machine
    if machine is None or machine.destroyed:
        return False
    return (reload_refusal(state, unit) is None or repair_refusal(state, unit) is None
            or may_fire(state, unit))


def machine_shoots(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-DEC-19: the crew reload, fire or repair, one action at a time, until done."""
    while unit.machine is not None and not unit.machine.destroyed and unit.alive:
        machine = unit.machine
        options: list[Order] = []
        if reload_refusal(state, unit) is None:
            options.append(Order.of("reload", unit.id))
        fires = fire_options(state, unit)
        options += fires
        if repair_refusal(state, unit) is None:
            options.append(Order.of("repair", unit.id))
        powers = crew_powers(state, unit)
        options += [Order.of("use", unit.id, slug(p.name)) for p in powers]
        if not options:
            return
        options.append(Order.of("done", unit.id))
        count(OPTIONS, len(options))
        order = battle.ask(unit.side, "machine_action", tuple(options),
                           f"{unit.label()}: what does the crew do with {machine.id}?",
                           subject=unit.id, default=options[-1],
                           accept=lambda o: judge_action(state, unit, o))
        if order.kind == "done":
            return
        if order.kind == "reload":
            reload(state, battle, unit)
        elif order.kind == "repair":
            repair(state, battle, unit)
        elif order.kind == "fire":
            fire_bolt(state, battle, unit, state.units[str(order.args[1])])
        elif order.kind == "aim":
            point = read_point(order.args[1])
            assert point is not None
            fire_stone(state, battle, unit, point)
        elif order.kind == "use":
            crew_shoot(state, battle, unit, powers[[slug(p.name) for p in powers].index(
                str(order.args[1]))])


def crew_powers(state: WarState, unit: Unit) -> list[Power]:
    """The crew's own shooting powers they may use instead of firing (a standard action
    too): only while their standard action is unspent."""
    from warhost.rulesets.dnd4e_war.shooting import can_shoot, usable_powers

    if not unit.profile.powers or not can_shoot(state, unit):
        return []
    return usable_powers(state, unit)


def crew_shoot(state: WarState, battle: Battle, unit: Unit, power: Power) -> None:
    """The crew shoot with one of their own powers, as any unit does (W4-SHOOT-04)."""
    from warhost.rulesets.dnd4e_war import shooting

    unit.standard_used = unit.shot = True
    if power.kind == "area_burst":
        shooting._area_shot(state, battle, unit, power)
    else:
        shooting._ranged_shot(state, battle, unit, power)


def slug(name: str) -> str:
    """A power's name as one order word (as the Shooting phase names it)."""
    from warhost.rulesets.dnd4e_war.shooting import slug as shooting_slug

    return shooting_slug(name)


def fire_refusal(state: WarState, unit: Unit) -> Refusal | None:
    """W4-WM-10, W4-AMB-61/65/66: why the machine cannot fire now."""
    from warhost.rulesets.dnd4e_war.shooting import can_shoot

    machine = unit.machine
    if machine is None or machine.destroyed:
        return Refusal(f"{unit.id} has no machine", rule="W4-WM-10")
    if not machine.loaded:
        return Refusal(f"{machine.id} is not loaded", rule="W4-AMB-61")
    if machine.disabled:
        return Refusal(f"{machine.id} is disabled until repaired", rule="W4-STONE-09")
    if crewmen(unit) < 1:
        return Refusal("characters cannot fire the machine", rule="W4-WM-07")
    if not can_shoot(state, unit):
        return Refusal(f"{unit.id} has no standard action to fire", rule="W4-WM-10")
    return None


def fire_options(state: WarState, unit: Unit) -> list[Order]:
    """The offered shots: each bolt target, or for a stone thrower the model nearest the
    middle of each enemy unit it may aim at."""
    machine = unit.machine
    if machine is None or fire_refusal(state, unit) is not None:
        return []
    if machine.kind == "bolt_thrower":
        return [Order.of("fire", unit.id, t.id) for t in bolt_targets(state, unit)]
    return [Order.of("aim", unit.id, point_word(p)) for p in stone_aims(state, unit)]


def may_fire(state: WarState, unit: Unit) -> bool:
    """Whether :func:`fire_options` offers any shot (found without listing them all)."""
    machine = unit.machine
    if machine is None or fire_refusal(state, unit) is not None:
        return False
    shots: Iterator[Any] = _bolt_targets(state, unit) if machine.kind == "bolt_thrower" \
        else _stone_aims(state, unit)
    return next(shots, None) is not None


def judge_action(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """Any stone thrower aim at the centre of a model more than 12" away and within range
    (W4-STONE-02/03, W4-AMB-64); other actions only as offered."""
    if order.kind != "aim" or len(order.args) != 2 or str(order.args[0]) != unit.id:
        return Refusal(f"answer reload, fire, aim {unit.id} x,y, repair or done",
                       rule="W4-DEC-19")
    machine = unit.machine
    problem = fire_refusal(state, unit)
    if problem is not None:
        return problem
    assert machine is not None
    if machine.kind != "stone_thrower":
        return Refusal("a bolt thrower fires at a unit: fire U TARGET", rule="W4-BOLT-04")
    point = read_point(order.args[1])
    if point is None:
        return Refusal("aim needs the centre of a model, x,y", rule="W4-STONE-02")
    refusal = aim_refusal(state, unit, point)
    return refusal if refusal is not None else Order.of("aim", unit.id, point_word(point))


def _pt(p: Point) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


# ------------------------------------------------------------ bolt throwers

def bolt_power(unit: Unit, machine: Machine) -> Power:
    """The machine's shot as a ranged power (W4-BOLT-01/02, W4-AMB-62)."""
    spec = machine.spec
    assert spec.range is not None and spec.bonus is not None and spec.damage is not None
    return Power(name=machine.kind.replace("_", " "), kind="ranged", bonus=spec.bonus,
                 vs=spec.vs or BOLT_VS, range=spec.range, damage=spec.damage)


def sight_blockers(state: WarState, spot: Tray, target: Unit, own: Unit) -> list[Any]:
    """What may block the machine's sight of ``target``: sight-blocking terrain and other
    units near the line (W4-AMB-45)."""
    from shapely.geometry import MultiPoint

    from warhost.rulesets.dnd4e_war.shooting import unit_shape

    hull = MultiPoint([c for t in [spot, *target.trays()] for c in t.corners()]).convex_hull
    shapes = [g.region.polygon for g in state.ground if g.blocks_sight]
    others = [u for u in state.units_near(own, distance(spot.centre, target.frame().centre)
                                          + CREW_REACH + spot.width)
              if u.id != target.id]
    count(GEOMETRY, len(others))
    shapes += [unit_shape(u, state) for u in others]
    return [s for s in shapes if s.intersects(hull)]


def bolt_targets(state: WarState, unit: Unit) -> list[Unit]:
    """W4-BOLT-04, W4-SHOOT-06: enemy units within range of the machine and in its clear
    sight (it pivots to face any of them), not in close combat (W4-AMB-80)."""
    return list(_bolt_targets(state, unit))


def _bolt_targets(state: WarState, unit: Unit) -> Iterator[Unit]:
    machine = unit.machine
    assert machine is not None and machine.spec.range is not None
    spot = footprint(machine)
    for enemy in state.units_near(unit, machine.spec.range + CREW_REACH + spot.width):
        if enemy.side == unit.side:
            continue
        if state.is_engaged(enemy.id) and not state.options.shoot_into_combat:
            continue
        trays = enemy.trays()
        count(GEOMETRY, len(trays))
        if min(tray_gap(spot, t) for t in trays) > machine.spec.range + 1e-9:
            continue
        if clear_sight(spot, trays, sight_blockers(state, spot, enemy, unit)):
            yield enemy


def bolt_cover(state: WarState, machine: Machine, target: Unit) -> int:
    """W4-SHOOT-15/16, W4-AMB-46: cover or concealment between the machine and the target."""
    from warhost.rulesets.dnd4e_war.shooting import cover_pieces

    pieces = cover_pieces(state)
    if not pieces:
        return 0
    return cover_by_majority([footprint(machine)], target.trays(), pieces)


def fire_bolt(state: WarState, battle: Battle, unit: Unit, target: Unit) -> int:
    """W4-BOLT-04 to 07: pivot to face, the primary attack, then a secondary attack at a
    further -2 after each hit until a miss or 6 hits (only against units of companies,
    W4-BOLT-06); every hit is a hit on the target unit (W4-AMB-63). Returns the hits."""
    from warhost.rulesets.dnd4e_war.attacks import roll_attacks
    from warhost.rulesets.dnd4e_war.shooting import defense

    machine = unit.machine
    assert machine is not None
    power = bolt_power(unit, machine)
    machine.facing = bearing(machine.at, target.frame().centre) % 360.0
    unit.standard_used = unit.shot = True
    machine.loaded = False
    cover = bolt_cover(state, machine, target)
    primary = defense(target, power) + cover
    secondary = int(getattr(target.profile.defenses, BOLT_VS)) + cover  # W4-BOLT-03
    bonus = attack_bonus(unit, machine)
    rolls: list[dict[str, int]] = []
    hits = 0
    while hits < BOLT_MAX_HITS:
        roll = roll_attacks(battle, 1, secondary if hits else primary,
                            bonus - BOLT_STEP * hits, f"{machine.id} bolt {hits + 1}")
        rolls.append({"bonus": bonus - BOLT_STEP * hits, "needed": roll.needed,
                      "face": roll.faces[0]})
        if not roll.hits:
            break
        hits += 1
        if target.skirmish:
            break
    battle.emit("machine_fire", unit=unit.id, machine=machine.id, kind=machine.kind,
                target=target.id, facing=round(machine.facing, 3), cover=cover, rolls=rolls,
                hits=hits)
    bolt_casualties(state, battle, unit, target, hits, power)
    return hits


def bolt_casualties(state: WarState, battle: Battle, unit: Unit, target: Unit, hits: int,
                    power: Power) -> None:
    """W4-AMB-63: the hits go to the target unit; a non-minion takes the primary damage from
    the first and 1d6 + 4 from each secondary hit (W4-BOLT-03)."""
    from warhost.rulesets.dnd4e_war.casualties import minion
    from warhost.rulesets.dnd4e_war.shooting import take_casualties

    if minion(target) or hits <= 1:
        take_casualties(state, battle, unit, target, hits, power)
        return
    take_casualties(state, battle, unit, target, 1, power)
    take_casualties(state, battle, unit, target, hits - 1,
                power.model_copy(update={"damage": BOLT_SECONDARY_DAMAGE}))


# ------------------------------------------------------------ stone throwers

def model_spots(unit: Unit) -> list[Point]:
    """The centre of every model of ``unit`` (each company's cells, or each base)."""
    if unit.skirmish:
        return list(unit.points[:unit.models])
    out: list[Point] = []
    for slot, tray in enumerate(unit.trays()):
        out += model_centres(tray, unit.columns, unit.rows, unit.companies[slot])
    return out


def model_gap(machine: Machine, spot: Point, base: float) -> float:
    """Closest distance from the machine to a model's base at ``spot``."""
    return tray_gap(footprint(machine), Tray(spot, 0.0, base, base))


def aim_refusal(state: WarState, unit: Unit, point: Point) -> Refusal | None:
    """W4-STONE-02/03, W4-AMB-64: the aim must be the centre of a model (friend or foe) more
    than 12" and at most the range from the machine."""
    machine = unit.machine
    assert machine is not None and machine.spec.range is not None
    owner = model_at(state, point)
    if owner is None:
        return Refusal(f"no model stands at {point_word(point)}; aim at a model's centre",
                       rule="W4-STONE-02")
    if state.is_engaged(owner.id) and not state.options.shoot_into_combat:
        return Refusal(f"{owner.id} is in close combat and may not be shot at",
                       rule="W4-AMB-80")
    gap = model_gap(machine, point, owner.base)
    if gap <= STONE_MIN_RANGE + 1e-9:
        return Refusal(f"that model is {gap:.2f}\" away; a stone thrower cannot aim within "
                       "12\"", rule="W4-STONE-03")
    if gap > machine.spec.range + 1e-9:
        return Refusal(f"that model is {gap:.2f}\" away, beyond the range of "
                       f"{machine.spec.range:g}", rule="W4-AMB-64")
    return None


def model_at(state: WarState, point: Point) -> Unit | None:
    """The unit with a model centred at ``point`` (within a hundredth of an inch)."""
    spot = Tray(point, 0.0, 0.02, 0.02)
    for u in state.units.values():
        if not u.alive or not any(tray_gap(t, spot) <= 1e-9 for t in u.trays()):
            continue
        count(GEOMETRY, u.models)
        if any(distance(p, point) <= 0.01 for p in model_spots(u)):
            return u
    return None


def stone_aims(state: WarState, unit: Unit) -> list[Point]:
    """The offered aims: for each enemy unit, its model nearest the middle of the unit among
    those more than 12" away and within range."""
    return list(_stone_aims(state, unit))


def _stone_aims(state: WarState, unit: Unit) -> Iterator[Point]:
    machine = unit.machine
    assert machine is not None and machine.spec.range is not None
    reach = machine.spec.range
    for enemy in state.units_near(unit, reach + CREW_REACH + machine.spec.size):
        if enemy.side == unit.side:
            continue
        if state.is_engaged(enemy.id) and not state.options.shoot_into_combat:
            continue
        spots = model_spots(enemy)
        count(GEOMETRY, len(spots))
        legal = [p for p in spots
                 if STONE_MIN_RANGE + 1e-9 < model_gap(machine, p, enemy.base) <= reach + 1e-9]
        if legal:
            middle = enemy.frame().centre
            yield min(legal, key=lambda p: distance(p, middle))


def stone_power(unit: Unit, machine: Machine) -> Power:
    """The stone as an area burst power (W4-STONE-08, W4-AMB-60)."""
    spec = machine.spec
    assert spec.range is not None and spec.bonus is not None and spec.damage is not None
    assert spec.burst is not None and spec.vs is not None
    return Power(name=machine.kind.replace("_", " "), kind="area_burst",
                 bonus=spec.bonus + tier_bonus(unit), vs=spec.vs, range=spec.range,
                 area=spec.burst, damage=spec.damage)


def fire_stone(state: WarState, battle: Battle, unit: Unit, aim: Point) -> Point | None:
    """W4-STONE-01 to 08: rotate to face, roll 1d10 and the scatter die; a 1 misfires;
    a hit lands on the aim, an arrow the d10's inches away in a d360 direction; the burst
    there attacks friend and foe. Returns where the stone landed (None: a misfire)."""
    from warhost.rulesets.dnd4e_war.shooting import burst

    machine = unit.machine
    assert machine is not None
    machine.facing = bearing(machine.at, aim) % 360.0
    unit.standard_used = unit.shot = True
    machine.loaded = False  # W4-AMB-65: a misfire too leaves it unloaded
    d10 = battle.dice.draw(10, f"{machine.id} stone d10")
    scatter = battle.dice.draw(6, f"{machine.id} scatter die")
    if d10 == 1:
        battle.emit("machine_fire", unit=unit.id, machine=machine.id, kind=machine.kind,
                    aim=_pt(aim), d10=d10, scatter="misfire", landed=None,
                    facing=round(machine.facing, 3))
        misfire(state, battle, unit)
        return None
    if scatter in SCATTER_HIT_FACES:
        landed, way = aim, "hit"
    else:
        direction = battle.dice.draw(SCATTER_DIRECTIONS, f"{machine.id} scatter direction")
        landed, way = offset(aim, float(direction % 360), float(d10)), f"{direction % 360}"
    battle.emit("machine_fire", unit=unit.id, machine=machine.id, kind=machine.kind,
                aim=_pt(aim), d10=d10, scatter=way, landed=_pt(landed),
                facing=round(machine.facing, 3))
    burst(state, battle, unit, stone_power(unit, machine), landed)  # -5 after a run there
    return landed


def misfire(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-STONE-09, W4-AMB-65/66: destroyed with its crew; disabled with one crewman hurt;
    or may not shoot. Joined characters are not touched (W4-WM-07)."""
    from warhost.rulesets.dnd4e_war.casualties import apply_hits, minion

    machine = unit.machine
    assert machine is not None
    roll = battle.dice.draw(6, f"{machine.id} misfire")
    if roll in MISFIRE_DESTROYED:
        battle.emit("machine_misfire", unit=unit.id, machine=machine.id, roll=roll,
                    result="destroyed", slain=crewmen(unit))
        machine.destroyed = True
        slay_crew(state, battle, unit)
    elif roll in MISFIRE_DISABLED:
        machine.disabled = True
        machine.disabled_turn = state.turn
        battle.emit("machine_misfire", unit=unit.id, machine=machine.id, roll=roll,
                    result="disabled")
        if crewmen(unit) > 0:
            dice = f"{tier(unit.profile.level)}d10"
            if unit.joined:
                hurt_crewman(battle, unit, machine.id, None if minion(unit) else dice)
            else:
                apply_hits(state, battle, unit, 1, machine.id, "misfire",
                           damage=None if minion(unit) else dice)
    else:
        battle.emit("machine_misfire", unit=unit.id, machine=machine.id, roll=roll,
                    result="may not shoot")


def hurt_crewman(battle: Battle, unit: Unit, source: str, damage: str | None) -> None:
    """W4-STONE-09 (2-3), W4-AMB-66, W4-WM-07: with characters in the unit, the misfire's
    hit goes to a crewman, never to a character (their places are the last ones of a
    skirmishing unit): one hit on a minion (resilience applies), else the damage rolled."""
    from warhost.rulesets.dnd4e_war.casualties import _damage_models, minions_slain

    if damage is None:
        slain = min(1, minions_slain(unit, 1))
    else:
        slain = _damage_models(battle, unit, 1, damage, "misfire")
    slot = crewmen(unit) - 1
    if slain and slot >= 0:
        unit.points = unit.points[:slot] + unit.points[slot + 1:]
        unit.companies = unit.companies[:slot] + unit.companies[slot + 1:]
        unit.casualties_this_turn += 1
    battle.emit("casualties", unit=unit.id, hits=1, slain=slain, source=source,
                why="misfire")


def slay_crew(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-STONE-09 (1): the crewmen are slain; joined characters step out unharmed where
    they stood (W4-WM-07), and the emptied unit is destroyed."""
    from warhost.rulesets.dnd4e_war.casualties import destroy
    from warhost.rulesets.dnd4e_war.characters import leave

    unit.machine = None
    for person in state.characters_in(unit):
        leave(state, person, unit.points[-1] if unit.points else unit.front, unit.facing)
    unit.casualties_this_turn += unit.models
    unit.companies = [0]
    unit.points = unit.points[:1]
    destroy(state, battle, unit, "misfire")


def repair_refusal(state: WarState, unit: Unit) -> Refusal | None:
    """W4-AMB-66: a disabled machine is repaired with the crew's standard action in a later
    Shooting phase."""
    from warhost.rulesets.dnd4e_war.shooting import can_shoot

    machine = unit.machine
    if machine is None or not machine.disabled:
        return Refusal("nothing to repair", rule="W4-AMB-66")
    if machine.disabled_turn >= state.turn:
        return Refusal("a repair waits for a later Shooting phase", rule="W4-AMB-66")
    if crewmen(unit) < 1 or not can_shoot(state, unit):
        return Refusal(f"{unit.id} has no standard action to repair", rule="W4-AMB-66")
    return None


def repair(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-STONE-09, W4-AMB-66: the crew spend their standard action mending the machine."""
    machine = unit.machine
    assert machine is not None
    machine.disabled = False
    unit.standard_used = unit.shot = True
    battle.emit("machine_repair", unit=unit.id, machine=machine.id)


# --------------------------------------------------------------------------- charges

def line_up(state: WarState, battle: Battle, crew: Unit, charger: Unit) -> None:
    """W4-WM-12: before the charge moves, the crew line up between the machine and the
    charging unit."""
    machine = crew.machine
    if machine is None or not crew.skirmish or crew.fleeing:
        return
    spots = line_between(machine.at, machine.spec.size, charger.frame().centre,
                         len(crew.points), crew.base)
    count(GEOMETRY, len(spots))
    bases = [Tray(p, crew.facing, crew.base, crew.base) for p in spots]
    corners = [c for b in bases for c in b.corners()]
    if any(not (0.0 <= x <= state.board.width and 0.0 <= y <= state.board.height)
           for x, y in corners) or any(g.region.impassable and g.region.polygon.intersects(
               b.polygon) for g in state.ground for b in bases):
        return  # no room to line up there: the crew stay where they are
    for other in state.units_near(crew, CREW_REACH + machine.spec.size):
        room = ENEMY_GAP if other.side != crew.side and other.id != charger.id else 0.0
        if any(tray_gap(b, t) <= room for b in bases for t in other.trays()):
            return  # no room to line up there: the crew stay where they are
    crew.points = spots
    crew.front = spots[len(spots) // 2]  # skirmishers see all round: the facing stays
    battle.emit("machine_line_up", unit=crew.id, machine=machine.id, charger=charger.id,
                points=[_pt(p) for p in spots])
