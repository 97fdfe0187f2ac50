"""The Movement phase (W4-MOVE, W4-FLEE, W4-UNIT-11/12): rallies, compulsory moves, then
remaining moves; fall back! moves for every cause.

A unit of companies moves as one block (its :meth:`Unit.frame`): straight or up to 45 degrees
off its facing, wheels about a front corner, pivots about its centre, or reforms about its
centre. Skirmishers move as a group in any direction and face the way they went. Every move
keeps the unit on the table, off other units' trays along the whole path (W4-UNIT-11), out of
impassable ground, and no closer than 1" to an enemy (W4-UNIT-12).

Orders (``x,y`` is where the middle of the unit's front edge goes; for skirmishers, the centre
of the group): ``hold``, ``walk U x,y``, ``double U x,y``, ``run U x,y``,
``wheel U left|right DEG [then x,y] [double]``, ``pivot U DEG [then x,y]`` (DEG signed,
clockwise positive), ``reform U FILES FACING``, ``stand U``; a walk or double move of companies may add
new FILES (``walk U x,y FILES``, W4-MOVE-18), a skirmishers' move a FACING; the next unit is
picked with ``move U`` or ``done``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np
import shapely
from shapely.ops import nearest_points

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    MAX_VEER,
    Point,
    Region,
    Tray,
    advance,
    advance_cost,
    arc_cost,
    bearing,
    centre_pivot,
    distance,
    edge_bearing,
    first_contact,
    ground_cost,
    nearest_edge,
    offset,
    open_ground,
    pivot_path,
    point_word,
    reach,
    read_point,
    reform_frame,
    segment_misses_box,
    segment_tray_gap,
    swept_area,
    tray_gap,
    trays_overlap,
    turn_between,
    wheel,
    wheel_path,
    wheel_pivot,
)
from warhost.geometry.table import Ground as GroundShapes
from warhost.rulesets.dnd4e_war.state import CONTACT, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import fall_back_distance, pivot_cost

RALLY_DC = 13
"""W4-FLEE-11."""
PASS_THROUGH_DC = 13
"""W4-FLEE-08, W4-PANIC-05."""
ENEMY_GAP = 1.0
"""W4-UNIT-12: no move ends within 1" of an enemy (W4-MEAS-04: a gap of exactly 1" is
within)."""
DOUBLE_MOVE_GAP = 6.0
"""W4-MOVE-20, W4-AMB-88."""
RUN_BONUS = 2.0
"""W4-AMB-08: a run is Speed + 2."""
WHEEL_ANGLES = (15, 30, 45, 90)
STEP_BACK = 1.0
"""W4-UNIT-11: a fleeing unit that cannot pass a unit stops 1" short of it."""
_EPS = 1e-9
_CLEAR = ENEMY_GAP + 1e-3
"""Beyond this a unit's bounding box is too far from a move to matter to it."""
_INSIDE = 1e-4
"""A path this far inside a tray surely meets it, whatever the rounding of the shapes."""

OFF_TABLE = Refusal("the move would leave the table", "W4-SETUP-02")
HOLD = Order("hold")
DONE = Order("done")


# --------------------------------------------------------------------------- the phase


def movement_phase(state: WarState, battle: Battle) -> None:
    """W4-MOVE-01: each side, initiative first: rally attempts, compulsory moves, then the
    remaining moves."""
    for side in state.order_of_sides():
        if state.over:
            return
        failed = rally_step(state, battle, side)
        compulsory_step(state, battle, side, failed)
        if state.characters:
            from warhost.rulesets.dnd4e_war import char_melee

            char_melee.free_moves(state, battle, side)  # W4-CHAR-19
        remaining_step(state, battle, side)


def rally_step(state: WarState, battle: Battle, side: str) -> list[str]:
    """W4-FLEE-10 to 13, W4-DEC-06: the owner may try to rally each fleeing unit; returns the
    units that must fall back (failed or not tried)."""
    from warhost.rulesets.dnd4e_war import psychology

    failed: list[str] = []
    for unit in [u for u in state.units_of(side) if u.fleeing]:
        tries = Order.of("rally", unit.id)
        order = battle.ask(side, "rally", (tries, Order.of("keep_fleeing", unit.id)),
                           f"{unit.label()} is fleeing: try to rally it (DC {RALLY_DC})?",
                           subject=unit.id, default=tries)
        if order == tries and psychology.courage_test(
                state, battle, unit, RALLY_DC, "rally", "W4-FLEE-11", kind="rally"):
            unit.fleeing = False
            unit.rallied = True
            battle.emit("rallied", unit=unit.id)
            reform_after_rally(state, battle, unit)
        elif unit.alive:
            failed.append(unit.id)
    return failed


def reform_after_rally(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-FLEE-12, W4-AMB-91: the rallied unit reforms at once, using its move action (so it
    may not shoot this turn, W4-MOVE-17)."""
    mover = Mover(state, unit)
    options = mover.reform_options() or (Order.of("reform", unit.id, unit.files,
                                                  _deg(unit.facing)),)
    order = battle.ask(unit.side, "reform", options,
                       f"{unit.label()} rallied and must reform: choose files and facing",
                       subject=unit.id, default=options[0], accept=mover.judge_reform)
    plan = mover.plan(order)
    if isinstance(plan, Plan):
        carry_out(state, battle, unit, plan)
    unit.move_used = True
    unit.reformed = True


def compulsory_step(state: WarState, battle: Battle, side: str, fleeing: list[str]) -> None:
    """W4-FLEE-13 to 17, W4-DEC-07: each unit that did not rally falls back towards the
    nearest board edge (W4-AMB-90), in the order the owner picks."""
    pending = list(fleeing)
    while pending:
        pending = [uid for uid in pending if state.units[uid].alive]
        if not pending:
            return
        options = tuple(Order.of("move", uid) for uid in pending)
        order = battle.ask(side, "compulsory_move", options,
                           "Which fleeing unit makes its fall back! move next?",
                           default=options[0])
        uid = str(order.args[0])
        pending.remove(uid)
        fall_back(state, battle, state.units[uid], None, "fleeing")


def remaining_step(state: WarState, battle: Battle, side: str) -> None:
    """W4-MOVE-02, W4-DEC-08: the owner moves any of its units, one at a time, in any
    order, until it says it is done."""
    finished: set[str] = set()
    while not state.over:
        ready = [u for u in state.units_of(side) if u.id not in finished and may_act(state, u)]
        leaving = _leavers(state, side, finished)
        if not ready and not leaving:
            return
        options = (*(Order.of("move", u.id) for u in ready), DONE,
                   *(Order.of("leave", c) for c in leaving))
        order = battle.ask(side, "next_move", options, "Which unit moves next?",
                           default=options[0])
        if order == DONE:
            return
        uid = str(order.args[0])
        finished.add(uid)
        if order.kind == "leave":
            _leave(state, battle, uid)
            continue
        unit = state.units[uid]
        if unit.character is not None and _joins(state, battle, unit):
            continue
        if unit.profile.machine is not None:
            from warhost.rulesets.dnd4e_war import machines

            machines.crew_moves(state, battle, unit)  # W4-WM-03 to 16
        else:
            move_unit(state, battle, unit)


def _leavers(state: WarState, side: str, done: set[str]) -> list[str]:
    """W4-CHAR-07: joined characters of ``side`` who may still step out this phase."""
    if not state.characters:
        return []
    from warhost.rulesets.dnd4e_war import joining

    return [c.id for c in joining.leavers(state, side, done)]


def _leave(state: WarState, battle: Battle, cid: str) -> None:
    from warhost.rulesets.dnd4e_war import joining

    joining.leave_step(state, battle, state.characters[cid])


def _joins(state: WarState, battle: Battle, unit: Unit) -> bool:
    from warhost.rulesets.dnd4e_war import joining

    return joining.join_step(state, battle, unit)


def may_act(state: WarState, unit: Unit) -> bool:
    """True when ``unit`` has a move left this phase: not fleeing, its move action unused,
    and free of close combat (W4-AMB-81) unless it lies prone and may stand (W4-AMB-57)."""
    if unit.fleeing or not unit.alive or unit.move_used:
        return False
    return not state.is_engaged(unit.id) or bool(unit.prone)


def move_unit(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-DEC-09 to 14: ask for ``unit``'s move and carry it out."""
    while True:
        mover, options = offer(state, unit)
        count(OPTIONS, len(options))
        order = battle.ask(unit.side, "unit_move", options,
                           f"How does {unit.label()} move? (Speed {unit.speed():g})",
                           subject=unit.id, default=HOLD, accept=mover.judge)
        plan = mover.plan(order)
        if not isinstance(plan, Plan) or plan.kind == "hold":
            return
        carry_out(state, battle, unit, plan)
        if plan.kind != "stand":
            return
        if not may_act(state, unit):
            return


MOVE_LIMITS = "_move_limits"
"""``state.extra`` key: units whose move this phase is capped after a character joined or
left (W4-AMB-82), id -> inches."""

OFFERS = "_movement_offers"
"""``state.extra`` key: recent offers of moves, by everything they depend on."""
OFFERS_KEPT = 256


def offer(state: WarState, unit: Unit) -> tuple[Mover, tuple[Order, ...]]:
    """``unit``'s Mover and the moves it offers now. The same unit, with the same actions
    left, where it and every unit near enough to matter stand as before, gets the same offer
    again without the search (a commander that holds is asked again next turn, with nothing
    changed near it)."""
    mover = Mover(state, unit)
    near = tuple((o.id, o.placement()) for o, _, _ in mover.near)
    if not any(o.side != unit.side for o, _, _ in mover.near):
        # The nearest enemy is then sought among all of them.
        near += tuple((o.id, o.placement()) for o in state.enemies_of(unit))
    key = (unit.id, unit.move_used, unit.standard_used, unit.minor_used, unit.prone,
           unit.ran, unit.double_moved, unit.fleeing, tuple(unit.companies),
           state.is_engaged(unit.id), unit.placement(), near, mover.limit())
    offers: dict[Any, tuple[Order, ...]] = state.extra.setdefault(OFFERS, {})
    found = offers.get(key)
    if found is None:
        if len(offers) >= OFFERS_KEPT:
            offers.clear()
        found = offers[key] = mover.options()
    return mover, found


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class Plan:
    """A judged move: where the unit ends and what it costs."""

    kind: str
    frame: Tray | None = None
    """Companies: the unit's block at the end."""
    shift: Point = (0.0, 0.0)
    """Skirmishers: how far every model moves."""
    facing: float = 0.0
    files: int = 1
    cost: float = 0.0
    double: bool = False
    """A wheel made as part of a double move (W4-MOVE-19)."""


@dataclass
class Mover:
    """Builds and judges the moves one unit may make now."""

    state: WarState
    unit: Unit
    regions: GroundShapes = field(init=False)
    near: list[tuple[Unit, Any, float]] = field(init=False)
    """Other units close enough to matter: the unit, its trays as one shape and its gap at
    the start."""

    boxes: list[tuple[float, float, float, float]] = field(init=False)
    """The bounding box of each of :attr:`near`'s shapes, to skip the far ones cheaply."""

    closed_box: tuple[float, float, float, float] | None = field(init=False)
    """The bounding box of the impassable ground, if any."""

    block: Tray = field(init=False)
    """The unit's block now (it does not move while this Mover lives)."""
    bases: list[Tray] = field(init=False)
    """Its trays (or bases) now."""
    _friends: list[tuple[Box, list[Tray]]] | None = field(init=False, default=None)
    _trays: list[tuple[Box, list[Tray]]] | None = field(init=False, default=None)
    _centres: list[Point] = field(init=False)
    """The centres of :attr:`bases`."""
    _inner: float = field(init=False)
    """Half the narrowest side of any of :attr:`bases`."""

    def __post_init__(self) -> None:
        self.block = self.unit.frame()
        self.bases = self.unit.trays()
        self._centres = [t.centre for t in self.bases]
        self._inner = min((min(t.width, t.depth) for t in self.bases), default=0.0) / 2.0
        self.regions = merged_ground(self.state)
        closed = self.regions.closed
        self.closed_box = None if closed is None else \
            (float(closed.bounds[0]), float(closed.bounds[1]), float(closed.bounds[2]),
             float(closed.bounds[3]))
        self.near = nearby(self.state, self.unit, 2 * self.unit.speed() + RUN_BONUS + 2.0)
        self.boxes = [(float(b[0]), float(b[1]), float(b[2]), float(b[3]))
                      for b in shapely.bounds([shape for _, shape, _ in self.near])] \
            if self.near else []

    # ------------------------------------------------------------ allowances
    def allowance(self, kind: str) -> float:
        """How far the move of ``kind`` may go (W4-MOVE-03/05/19, W4-AMB-08)."""
        speed = self.unit.speed()
        limit = self.limit()
        if limit is not None:
            return min(speed, limit)
        return {"walk": speed, "double": 2 * speed, "run": speed + RUN_BONUS}.get(kind, speed)

    def limit(self) -> float | None:
        """W4-AMB-82: the cap on this move after a character joined or left, if any."""
        limits: dict[str, float] | None = self.state.extra.get(MOVE_LIMITS)
        return None if not limits else limits.get(self.unit.id)

    def refusal_of_kind(self, kind: str) -> Refusal | None:
        """Why ``unit`` may not make a move of ``kind`` at all now."""
        unit, state = self.unit, self.state
        if kind == "stand":
            if not unit.prone:
                return Refusal(f"{unit.id} has nobody lying prone", "W4-MOVE-23")
            if state.is_engaged(unit.id) and unit.move_used:
                return Refusal(f"{unit.id} is engaged: standing needs its move action",
                               "W4-AMB-57")
            if not state.is_engaged(unit.id) and unit.minor_used:
                return Refusal(f"{unit.id} has used its minor action", "W4-MOVE-23")
            return None
        if state.is_engaged(unit.id):
            return Refusal(f"{unit.id} is engaged in close combat and cannot move",
                           "W4-AMB-81")
        if unit.move_used:
            return Refusal(f"{unit.id} has used its move action", "W4-MOVE-03")
        if kind in ("double", "run") and self.limit() is not None:
            return Refusal(f"{unit.id} finishes the move begun by its character",
                           "W4-AMB-82")
        if kind == "double":
            if unit.standard_used:
                return Refusal(f"{unit.id} has no standard action left for a double move",
                               "W4-MOVE-19")
            close = [o.id for o, _, gap in self.near if o.side != unit.side
                     and gap <= DOUBLE_MOVE_GAP + _EPS]
            if close:
                return Refusal(f"{close[0]} is within 6\" of {unit.id}", "W4-MOVE-20")
        if kind == "run" and not (unit.skirmish or unit.is_monster):
            return Refusal("units of companies can never run", "W4-MOVE-21")
        if kind == "pivot" and (unit.ran or unit.double_moved):
            return Refusal(f"{unit.id} ran or double moved this turn", "W4-MOVE-15")
        return None

    # ------------------------------------------------------------ judging
    def judge(self, order: Order) -> Order | Refusal | None:
        """Any order of a move kind, legal or refused with its rule (W4-DEC-09 to 14)."""
        plan = self.plan(order)
        if isinstance(plan, Refusal):
            return plan
        return order if plan is not None else None

    def judge_reform(self, order: Order) -> Order | Refusal | None:
        """Only reforms (after a rally)."""
        if order.kind != "reform":
            return Refusal("a rallied unit must reform", "W4-FLEE-12")
        return self.judge(order)

    def plan(self, order: Order) -> Plan | Refusal | None:
        """The plan ``order`` stands for, a Refusal, or None for no move order at all."""
        kind, args = order.kind, order.args
        if kind == "hold":
            return Plan("hold") if not args else Refusal("hold takes no arguments")
        if kind not in ("walk", "double", "run", "wheel", "pivot", "reform", "stand"):
            return None
        if not args or str(args[0]) != self.unit.id:
            return Refusal(f"this decision moves {self.unit.id}; name it first, as in "
                           f"'{kind} {self.unit.id} ...'", "W4-DEC-09")
        problem = self.refusal_of_kind(kind)
        if problem is not None:
            return problem
        if kind == "stand":
            return Plan("stand") if len(args) == 1 else Refusal("stand takes only the unit")
        if kind in ("walk", "double", "run"):
            point = read_point(args[1]) if len(args) in (2, 3) else None
            files = args[2] if len(args) == 3 else None
            if point is None or (files is not None and not isinstance(files, int)):
                return Refusal(f"{kind} needs a point (and may name new files), as in "
                               f"'{kind} {self.unit.id} 20,14' or '{kind} {self.unit.id} "
                               "20,14 2'", "W4-DEC-09")
            return self.straight(kind, point, files=files)
        if kind == "reform":
            return self.reform(args[1:])
        return self.turn_then_walk(kind, args[1:])

    def straight(self, kind: str, point: Point, start: Tray | None = None,
                 spent: float = 0.0, turned: Plan | None = None,
                 files: int | None = None) -> Plan | Refusal:
        """A straight move to ``point`` (companies: forward or up to 45 degrees off),
        rearranging into ``files`` on the way if given (W4-MOVE-18, W4-DEC-13)."""
        unit = self.unit
        budget = self.allowance(kind) - spent
        if unit.skirmish:  # a third word is the way they end up facing
            return self.skirmish_move(kind, point, budget, files)
        if files is not None and not 1 <= files <= len(unit.companies):
            return Refusal(f"{unit.id} can stand 1 to {len(unit.companies)} companies wide",
                           "W4-UNIT-09")
        frame = start or self.block
        here = frame.front_centre
        length = distance(here, point)
        veer = turn_between(frame.facing, bearing(here, point)) if length > _EPS else 0.0
        if abs(veer) > MAX_VEER + 1e-6:
            return Refusal(f"{point_word(point)} is {abs(veer):.0f} degrees off the facing; "
                           "companies move straight or up to 45 degrees forward", "W4-MOVE-07")
        veer = max(-MAX_VEER, min(MAX_VEER, veer))  # a rounded point a hair past 45 degrees
        cost = advance_cost(frame, length, veer, self.regions) if length > _EPS else 0.0
        if cost > budget + 1e-6:
            return Refusal(f"that costs {cost:.2f}\" but only {max(budget, 0):.2f}\" are left",
                           "W4-MOVE-24" if cost > length + 1e-6 else "W4-MOVE-05")
        end = advance(frame, length, veer)
        if files is not None and files != unit.files:
            end = self.rearranged(point, frame.facing, files)
        if turned is None and self.clear_within(_box_of([*frame.corners(), *end.corners()])):
            return Plan(kind, end, facing=end.facing,
                        files=unit.files if files is None else files, cost=spent + cost)
        swept = swept_area([frame, end])
        if turned is not None:
            assert turned.frame is not None
            swept = shapely.union(swept, self.turn_sweep(turned))
        problem = self.blocked(swept, [end])
        if problem is not None:
            return problem
        return Plan(kind if turned is None else turned.kind, end, facing=end.facing,
                    files=unit.files if files is None else files, cost=spent + cost,
                    double=turned is not None and turned.double)

    def rearranged(self, front: Point, facing: float, files: int) -> Tray:
        """The unit's block in ``files`` with the middle of its front edge at ``front``."""
        unit = self.unit
        ranks = -(-len(unit.companies) // files)
        width, depth = files * unit.tray_width, ranks * unit.tray_depth
        return Tray(Tray(front, facing, width, 0.0).to_world(0.0, -depth / 2.0), facing,
                    width, depth)

    def skirmish_move(self, kind: str, point: Point, budget: float,
                      facing: int | None = None) -> Plan | Refusal:
        """W4-SKIRM-01: the whole group shifts; each model pays its own way; it ends facing
        ``facing`` if given, else the way it went."""
        unit = self.unit
        here = self.block.centre
        dx, dy = point[0] - here[0], point[1] - here[1]
        trays = self.bases
        box = _group_box(trays, dx, dy)
        if open_ground(box, self.regions):  # ground_cost's own answer on open ground
            cost = max(distance(p, (p[0] + dx, p[1] + dy)) for p in unit.points)
        else:
            cost = max(ground_cost([p, (p[0] + dx, p[1] + dy)], self.regions)
                       for p in unit.points)
        if cost > budget + 1e-6:
            return Refusal(f"that costs {cost:.2f}\" but only {budget:.2f}\" are allowed",
                           "W4-MOVE-24" if cost > math.hypot(dx, dy) + 1e-6 else "W4-MOVE-05")
        if facing is not None:
            way = facing % 360.0
        else:
            way = bearing(here, point) if math.hypot(dx, dy) > _EPS else unit.facing
        if not self.clear_within(box) and not self.bases_clear(trays, dx, dy, box):
            # the bases end turned the way they went: judge them so (a square base turned
            # beside a unit may reach into it)
            ends = [Tray((t.centre[0] + dx, t.centre[1] + dy), way, t.width, t.depth)
                    for t in trays]
            corners = [[*t.corners(), *e.corners()] for t, e in zip(trays, ends, strict=True)]
            if self.off_table([p for group in corners for p in group]):
                return OFF_TABLE  # what blocked finds first, without building the sweep
            problem = self.blocked(shapely.convex_hull(shapely.multipoints(corners)), ends)
            if problem is not None:
                return problem
        return Plan(kind, None, (dx, dy), way, 1, cost)

    def turn_then_walk(self, kind: str, args: Sequence[Any]) -> Plan | Refusal:
        """``wheel left|right DEG [then x,y] [double]`` or ``pivot DEG [then x,y]``
        (W4-AMB-92); a wheel ending in ``double`` is part of a double move (W4-MOVE-19)."""
        unit = self.unit
        if unit.skirmish:
            return Refusal("skirmishers face any way they like; they do not wheel or pivot",
                           "W4-SKIRM-01")
        mode = "walk"
        if args and str(args[-1]) == "double":
            if kind != "wheel":
                return Refusal("a unit that double moves cannot pivot about its centre",
                               "W4-MOVE-15")
            problem = self.refusal_of_kind("double")
            if problem is not None:
                return problem
            mode, args = "double", args[:-1]
        then: Point | None = None
        if len(args) >= 2 and str(args[-2]) == "then":
            then = read_point(args[-1])
            if then is None:
                return Refusal("'then' needs a point x,y", "W4-DEC-10")
            args = args[:-2]
        turned = self.wheel(args, mode) if kind == "wheel" else self.pivot(args)
        if isinstance(turned, Refusal) or then is None:
            return turned
        assert turned.frame is not None
        return self.straight(mode, then, turned.frame, turned.cost, turned)

    def wheel(self, args: Sequence[Any], mode: str = "walk") -> Plan | Refusal:
        """W4-MOVE-09 to 11, W4-AMB-93."""
        side = str(args[0]) if args else ""
        degrees = _number(args[1]) if len(args) == 2 else None
        if side not in ("left", "right") or degrees is None:
            return Refusal("wheel needs left or right and an angle, as in "
                           f"'wheel {self.unit.id} left 30'", "W4-DEC-10")
        if not 0 < degrees <= 180:
            return Refusal("a unit only wheels forwards, by more than 0 and at most 180 "
                           "degrees", "W4-MOVE-10")
        frame = self.block
        farthest = self.state.options.wheel_distance == "farthest_corner"
        cost = arc_cost(frame, side, degrees, self.regions, farthest)
        budget = self.allowance(mode)
        if cost > budget + 1e-6:
            return Refusal(f"the wheel costs {cost:.2f}\" of {budget:g}\"", "W4-MOVE-11")
        end = wheel(frame, side, degrees)
        plan = Plan("wheel", end, facing=end.facing, files=self.unit.files, cost=cost,
                    double=mode == "double")
        about = wheel_pivot(frame, side)
        return self.turn_blocked(plan, lambda: wheel_path(frame, side, degrees), about) or plan

    def pivot(self, args: Sequence[Any]) -> Plan | Refusal:
        """W4-MOVE-13/14, W4-AMB-89: up to 90 degrees for ceil(S/4), up to 180 for
        ceil(S/2)."""
        degrees = _number(args[0]) if len(args) == 1 else None
        if degrees is None or degrees == 0 or abs(degrees) > 180:
            return Refusal("pivot needs a turn of at most 180 degrees (clockwise positive), "
                           f"as in 'pivot {self.unit.id} -90'", "W4-MOVE-14")
        cost = float(pivot_cost(self.unit.speed(), degrees))
        if cost > self.allowance("walk") + 1e-6:
            return Refusal(f"the pivot costs {cost:g}\"", "W4-MOVE-13")
        frame = self.block
        end = centre_pivot(frame, degrees)
        plan = Plan("pivot", end, facing=end.facing, files=self.unit.files, cost=cost)
        return self.turn_blocked(plan, lambda: pivot_path(frame, degrees), frame.centre) \
            or plan

    def turn_blocked(self, plan: Plan, path_of: Callable[[], list[Tray]],
                     about: Point) -> Refusal | None:
        """:meth:`blocked` for a wheel or pivot, the cheap sufficient tests first: boxes,
        then the hulls of its steps, and only then the whole swept ground."""
        assert plan.frame is not None
        if self.clear_within(_turn_box(self.block, about)):
            return None
        known = (self.block, plan.kind, plan.frame) in self.state.extra.get(SWEEPS, {})
        if not known:
            path = path_of()
            if self.turn_clear(path, about) or self.steps_clear(path, about, plan.frame):
                return None
        return self.blocked(self.turn_sweep(plan), [plan.frame])

    def turn_sweep(self, plan: Plan) -> Any:
        """The ground a wheel or pivot of the unit's block sweeps (the same turn of a unit
        standing where it stood is looked up: a unit that held offers its turns again)."""
        assert plan.frame is not None
        sweeps: dict[tuple[Tray, str, Tray], Any] = self.state.extra.setdefault(SWEEPS, {})
        key = (self.block, plan.kind, plan.frame)
        found = sweeps.get(key)
        if found is None:
            if len(sweeps) >= SWEEPS_KEPT:
                sweeps.clear()
            found = sweeps[key] = self._turn_sweep(plan)
        return found

    def _turn_sweep(self, plan: Plan) -> Any:
        frame = self.block
        assert plan.frame is not None
        turn = turn_between(frame.facing, plan.frame.facing)
        if plan.kind == "pivot":
            return swept_area(pivot_path(frame, turn), frame.centre)
        # Half a wheel ends at +-180 (rounding picks the sign): which way it went decides.
        half = abs(turn) > 180.0 - 1e-6
        side = "right" if (self._right_wheel(plan) if half else turn > 0) else "left"
        pivot = wheel_pivot(frame, side)
        return swept_area(wheel_path(frame, side, abs(turn)), pivot)

    def _right_wheel(self, plan: Plan) -> bool:
        assert plan.frame is not None
        return distance(wheel(self.block, "right", 180.0).centre, plan.frame.centre) < 1e-6

    def reform(self, args: Sequence[Any]) -> Plan | Refusal:
        """W4-MOVE-16, W4-DEC-12: new files and facing about the same centre."""
        unit = self.unit
        files = args[0] if len(args) == 2 and isinstance(args[0], int) else None
        facing = _number(args[1]) if len(args) == 2 else None
        if files is None or facing is None:
            return Refusal(f"reform needs files and a facing, as in 'reform {unit.id} 2 90'",
                           "W4-DEC-12")
        most = 1 if unit.skirmish else len(unit.companies)
        if not 1 <= files <= most:
            return Refusal(f"{unit.id} can stand 1 to {most} companies wide", "W4-UNIT-09")
        if unit.skirmish:
            return Plan("reform", None, facing=facing % 360.0, files=1)
        ranks = -(-len(unit.companies) // files)
        end = reform_frame(self.block.centre, facing, files, ranks, unit.tray_width,
                           unit.tray_depth)
        if not self.clear_within(_box_of(end.corners())):
            problem = self.blocked(end.polygon, [end])
            if problem is not None:
                return problem
        return Plan("reform", end, facing=end.facing, files=files)

    # ------------------------------------------------------------ collisions
    def clear_within(self, box: Box) -> bool:
        """True when a move whose swept ground lies inside ``box`` surely passes
        :meth:`blocked`: the box is on the table, clear of impassable ground and more than
        1" clear of every other unit's box. False means only "test it properly"."""
        count(GEOMETRY, len(self.near) + 1)
        lo_x, lo_y, hi_x, hi_y = box
        if self.off_table([(lo_x, lo_y), (hi_x, hi_y)]):
            return False
        closed = self.closed_box
        if closed is not None and not (closed[0] > hi_x or closed[2] < lo_x
                                       or closed[1] > hi_y or closed[3] < lo_y):
            return False
        lo_x, lo_y, hi_x, hi_y = lo_x - _CLEAR, lo_y - _CLEAR, hi_x + _CLEAR, hi_y + _CLEAR
        return all(b[0] > hi_x or b[2] < lo_x or b[1] > hi_y or b[3] < lo_y
                   for b in self.boxes)

    def off_table(self, points: Sequence[Point]) -> bool:
        """True when one of ``points`` lies off the table (as :meth:`blocked` judges it)."""
        board = self.state.board
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return min(xs) < -_EPS or min(ys) < -_EPS or max(xs) > board.width + _EPS or \
            max(ys) > board.height + _EPS

    def bases_clear(self, trays: Sequence[Tray], dx: float, dy: float, box: Box) -> bool:
        """:meth:`clear_within` for a group of bases sliding by ``(dx, dy)``, base by base:
        each base's path has its own box (``box`` holds them all)."""
        r = max(math.hypot(t.width, t.depth) for t in trays) / 2.0 + 1e-6
        centres = [t.centre for t in trays]
        paths = [(min(x, x + dx) - r, min(y, y + dy) - r, max(x, x + dx) + r,
                  max(y, y + dy) + r) for x, y in centres]
        if self.parts_clear(box, paths):
            return True
        return self.paths_clear(box, paths, centres, dx, dy, r)

    def paths_clear(self, box: Box, paths: Sequence[Box], centres: Sequence[Point],
                    dx: float, dy: float, r: float) -> bool:
        """:meth:`bases_clear` judged closer: each base sweeps no farther than ``r`` from the
        line its centre follows, so a unit whose box (else each of whose trays) lies more
        than ``r`` + 1" from every such line cannot block the move."""
        if not self.open_ground(box, paths):
            return False
        lo_x, lo_y, hi_x, hi_y = box
        lo_x, lo_y, hi_x, hi_y = lo_x - _CLEAR, lo_y - _CLEAR, hi_x + _CLEAR, hi_y + _CLEAR
        margin = r + _CLEAR
        for b, trays in self.near_trays():
            if b[0] > hi_x or b[2] < lo_x or b[1] > hi_y or b[3] < lo_y:
                continue
            for x, y in centres:
                end = (x + dx, y + dy)
                if not segment_misses_box((x, y), end, b, margin) and \
                        any(segment_tray_gap((x, y), end, t) <= margin for t in trays):
                    return False
        return True

    def turn_clear(self, path: Sequence[Tray], about: Point) -> bool:
        """:meth:`clear_within` for a wheel or pivot through the positions of ``path``
        (about ``about``), step by step: each pair of steps has its own box, widened by
        more than :func:`swept_area` bulges an arc past its chord."""
        corners = [t.corners() for t in path]
        reach_ = max(distance(about, c) for c in corners[0])
        grow = reach_ * 0.002 + 0.01  # steps of at most 5 degrees bulge under 0.001 x reach
        parts = []
        for a, b in pairwise(corners):
            xs = [p[0] for p in (*a, *b)]
            ys = [p[1] for p in (*a, *b)]
            parts.append((min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow))
        box = (min(p[0] for p in parts), min(p[1] for p in parts), max(p[2] for p in parts),
               max(p[3] for p in parts))
        return self.parts_clear(box, parts)

    def steps_clear(self, path: Sequence[Tray], about: Point, end: Tray) -> bool:
        """True when a turn through ``path`` surely passes :meth:`blocked`, judged on the
        hulls of each two steps: :func:`swept_area` widens their union by less than
        ``grow``, so a gap to them more than ``grow`` above a limit is above it for the
        swept ground too. The end is judged exactly as :meth:`blocked` does."""
        corners = [t.corners() for t in path]
        grow = max(distance(about, c) for c in corners[0]) * 0.002 + 1e-6
        xs = [p[0] for cs in corners for p in cs]
        ys = [p[1] for cs in corners for p in cs]
        board = self.state.board
        lo_x, lo_y, hi_x, hi_y = min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow
        if lo_x < -_EPS or lo_y < -_EPS or hi_x > board.width + _EPS or \
                hi_y > board.height + _EPS:
            return False
        count(GEOMETRY, len(self.near) + 1)
        hulls = shapely.convex_hull(shapely.multipoints([[*a, *b]
                                                         for a, b in pairwise(corners)]))
        closed = self.regions.closed
        if closed is not None and float(np.min(shapely.distance(hulls, closed))) <= grow:
            return False
        lo_x, lo_y, hi_x, hi_y = lo_x - _CLEAR, lo_y - _CLEAR, hi_x + _CLEAR, hi_y + _CLEAR
        ends: Any = None
        for (other, shape, start_gap), box in zip(self.near, self.boxes, strict=True):
            if box[0] > hi_x or box[2] < lo_x or box[1] > hi_y or box[3] < lo_y:
                continue
            gap = float(np.min(shapely.distance(hulls, shape))) - grow - 1e-9
            if other.side == self.unit.side:
                if gap <= CONTACT:
                    return False
                continue
            if ends is None:
                ends = np.array([end.polygon], dtype=object)
            end_gap = float(np.min(shapely.distance(ends, shape)))
            if gap < min(ENEMY_GAP, start_gap) - 1e-6 or \
                    end_gap <= ENEMY_GAP + _EPS and end_gap < start_gap:
                return False
        return True

    def open_ground(self, box: Box, pieces: Sequence[Box]) -> bool:
        """False when ``box`` leaves the table or a piece's box meets closed ground (the
        first, cheap test of :meth:`parts_clear` and the path check)."""
        count(GEOMETRY, len(self.near) + 1)
        if self.off_table([(box[0], box[1]), (box[2], box[3])]):
            return False
        c = self.closed_box
        return c is None or all(c[0] > p[2] or c[2] < p[0] or c[1] > p[3] or c[3] < p[1]
                                for p in pieces)

    def parts_clear(self, box: Box, parts: Sequence[Box]) -> bool:
        """True when a move whose swept ground lies inside the union of ``parts`` (all
        inside ``box``) surely passes :meth:`blocked`, judged part by part."""
        if not self.open_ground(box, parts):
            return False
        lo_x, lo_y, hi_x, hi_y = box
        lo_x, lo_y, hi_x, hi_y = lo_x - _CLEAR, lo_y - _CLEAR, hi_x + _CLEAR, hi_y + _CLEAR
        others = [b for b in self.boxes
                  if not (b[0] > hi_x or b[2] < lo_x or b[1] > hi_y or b[3] < lo_y)]
        g = _CLEAR
        return all(b[0] > p[2] + g or b[2] < p[0] - g or b[1] > p[3] + g or b[3] < p[1] - g
                   for b in others for p in parts)

    def blocked(self, swept: Any, ends: Sequence[Tray]) -> Refusal | None:
        """W4-UNIT-11/12, the table edge and impassable ground, along the whole move.
        ``swept`` is one shape or an array of shapes (a group's bases)."""
        count(GEOMETRY, len(self.near) + 1)
        state = self.state
        xy = shapely.get_coordinates(swept)
        board = state.board
        if (xy.min(axis=0) < -_EPS).any() or xy[:, 0].max() > board.width + _EPS or \
                xy[:, 1].max() > board.height + _EPS:
            return OFF_TABLE
        for g in state.ground:
            if g.region.impassable and float(np.sum(shapely.area(
                    shapely.intersection(swept, g.region.polygon)))) > 1e-6:
                return Refusal(f"the move would cross impassable {g.name}", "W4-MOVE-24")
        end_shapes: Any = None
        # A unit whose box lies more than 1" clear of the swept ground's box can neither
        # touch the move nor end within 1" of it (the ends lie inside the swept ground).
        lo_x, lo_y = xy.min(axis=0) - _CLEAR
        hi_x, hi_y = xy.max(axis=0) + _CLEAR
        for (other, shape, start_gap), box in zip(self.near, self.boxes, strict=True):
            if box[0] > hi_x or box[2] < lo_x or box[1] > hi_y or box[3] < lo_y:
                continue
            gap = float(np.min(shapely.distance(swept, shape)))
            if other.side == self.unit.side:
                if gap <= CONTACT:
                    return Refusal(f"the move would touch {other.id}; units never touch "
                                   "unless engaged", "W4-UNIT-11")
            else:
                if end_shapes is None:
                    end_shapes = np.array([t.polygon for t in ends], dtype=object)
                end_gap = float(np.min(shapely.distance(end_shapes, shape)))
                limit = min(ENEMY_GAP, start_gap)
                if gap < limit - 1e-6 or end_gap <= ENEMY_GAP + _EPS and end_gap < start_gap:
                    return Refusal(f"the move would come within 1\" of {other.id}; only a "
                                   "charge may", "W4-UNIT-12")
        return None

    # ------------------------------------------------------------ the offer
    def options(self) -> tuple[Order, ...]:
        """A finite set of useful legal moves (any other legal one is taken through
        :meth:`judge`)."""
        unit = self.unit
        found: list[Order] = [HOLD]
        if self.refusal_of_kind("stand") is None:
            found.append(Order.of("stand", unit.id))
        if self.refusal_of_kind("walk") is not None:
            return tuple(found)
        foe = self.nearest_enemy()
        for kind in ("walk", "double", "run"):
            if self.refusal_of_kind(kind) is None:
                found += self.straight_options(kind, foe)
        if not unit.skirmish:
            found += self.turn_options(foe)
        found += self.reform_options(foe)
        unique: list[Order] = []
        seen: set[str] = set()
        for o in found:
            if o.text not in seen:
                seen.add(o.text)
                unique.append(o)
        return tuple(unique)

    def nearest_enemy(self) -> Unit | None:
        """The closest enemy unit, if any is near enough to matter, else the closest at all."""
        foes = [(gap, o.id, o) for o, _, gap in self.near if o.side != self.unit.side]
        if not foes:
            foes = [(distance(o.frame().centre, self.block.centre), o.id, o)
                    for o in self.state.enemies_of(self.unit)]
        return min(foes)[2] if foes else None

    def straight_options(self, kind: str, foe: Unit | None) -> list[Order]:
        """Full and half distance straight and at 45 degrees each side (skirmishers: the
        eight compass points), and towards the nearest enemy, each cut short where needed."""
        unit = self.unit
        frame = self.block
        full = self.allowance(kind)
        if unit.skirmish:
            headings = [float(b) for b in range(0, 360, 45)]
        else:
            headings = [frame.facing + v for v in (0.0, -MAX_VEER, MAX_VEER)]
        wanted = [(h, full) for h in headings] + [(headings[0], full / 2.0)]
        if foe is not None:
            h = bearing(self._anchor(frame), foe.frame().centre)
            if unit.skirmish or abs(turn_between(frame.facing, h)) <= MAX_VEER:
                wanted.append((h, full))
        out: list[Order] = []
        for heading, length in wanted:
            point = self.farthest(kind, heading, length)
            if point is not None:
                out.append(Order.of(kind, unit.id, point_word(point)))
        return out

    def _anchor(self, frame: Tray) -> Point:
        return frame.centre if self.unit.skirmish else frame.front_centre

    def farthest(self, kind: str, heading: float, length: float) -> Point | None:
        """The farthest legal point along ``heading`` up to ``length`` inches (None when
        not even a little is legal)."""
        frame = self.block
        anchor = self._anchor(frame)
        most = min(length, reach(frame, heading, self.allowance(kind), self.regions))
        for i, d in enumerate(_shrinking(most)):
            count(GEOMETRY)
            point = offset(anchor, heading, d)
            point = point if i == 1 else _round_point(point)
            if self.surely_refused(point):
                continue  # straight() would refuse it: skip building its sweep
            if isinstance(self.straight(kind, point), Plan):
                return point
        return None

    def surely_refused(self, point: Point) -> bool:
        """True when :meth:`straight` surely refuses a straight move of the unit to
        ``point``: it would end partly off the table (W4-SETUP-02) or touch a unit of its
        own side (W4-UNIT-11). The centre of a base (skirmishers) or of the block carries a
        disc of half the base's (block's) narrower side that stays inside it, so the ground
        swept holds those discs all along the centre's path: the move surely leaves the
        table when a disc at the end does, and surely touches a friend when a path passes
        nearer one of its trays than that. False means only "judge it properly"."""
        frame = self.block
        if self.unit.skirmish:
            dx, dy = point[0] - frame.centre[0], point[1] - frame.centre[1]
            paths = [((x, y), (x + dx, y + dy)) for x, y in self._centres]
            inner = self._inner
        else:
            here = frame.front_centre
            length = distance(here, point)
            if length <= _EPS:
                return False
            veer = turn_between(frame.facing, bearing(here, point))
            if abs(veer) > MAX_VEER + 1e-6:
                return False
            veer = max(-MAX_VEER, min(MAX_VEER, veer))
            paths = [(frame.centre, offset(frame.centre, frame.facing + veer, length))]
            inner = min(frame.width, frame.depth) / 2.0
        xs = [p[0] for path in paths for p in path]
        ys = [p[1] for path in paths for p in path]
        lo_x, lo_y, hi_x, hi_y = min(xs), min(ys), max(xs), max(ys)
        board = self.state.board
        edge = inner - _INSIDE
        if lo_x < -edge or lo_y < -edge or hi_x > board.width + edge or \
                hi_y > board.height + edge:
            return True
        if not self.near:
            return False
        lo_x, lo_y, hi_x, hi_y = lo_x - inner, lo_y - inner, hi_x + inner, hi_y + inner
        for box, trays in self.friends():
            if box[0] > hi_x or box[2] < lo_x or box[1] > hi_y or box[3] < lo_y:
                continue
            if any(segment_tray_gap(a, b, t) < inner - _INSIDE for t in trays for a, b in paths):
                return True
        return False

    def near_trays(self) -> list[tuple[Box, list[Tray]]]:
        """Each unit of :attr:`near`: its bounding box and its trays (built once for this
        Mover)."""
        if self._trays is None:
            self._trays = [(box, other.trays())
                           for (other, _, _), box in zip(self.near, self.boxes, strict=True)]
        return self._trays

    def friends(self) -> list[tuple[Box, list[Tray]]]:
        """:meth:`near_trays` of the units on the unit's own side."""
        if self._friends is None:
            side = self.unit.side
            self._friends = [found for found, (other, _, _)
                             in zip(self.near_trays(), self.near, strict=True)
                             if other.side == side]
        return self._friends

    def turn_options(self, foe: Unit | None) -> list[Order]:
        """Wheels of 15, 30, 45 and 90 degrees each way, and pivots to face the nearest
        enemy, a quarter turn each way and about-face."""
        uid = self.unit.id
        out: list[Order] = []
        for side in ("left", "right"):
            for deg in WHEEL_ANGLES:
                order = Order.of("wheel", uid, side, deg)
                if isinstance(self.plan(order), Plan):
                    out.append(order)
        turns = [90, -90, 180]
        if foe is not None:
            turn = round(turn_between(self.unit.facing, bearing(self.block.centre,
                                                                 foe.frame().centre)))
            if turn:
                turns.insert(0, turn)
        for deg in turns:
            order = Order.of("pivot", uid, deg)
            if self.refusal_of_kind("pivot") is None and isinstance(self.plan(order), Plan):
                out.append(order)
        return out

    def reform_options(self, foe: Unit | None = None) -> tuple[Order, ...]:
        """Every number of files, facing the nearest enemy (else as now)."""
        unit = self.unit
        foe = foe if foe is not None else self.nearest_enemy()
        facing = _deg(bearing(self.block.centre, foe.frame().centre)) if foe else \
            _deg(unit.facing)
        most = 1 if unit.skirmish else len(unit.companies)
        out = []
        for files in range(1, most + 1):
            order = Order.of("reform", unit.id, files, facing)
            if isinstance(self.reform((files, facing)), Plan):
                out.append(order)
        return tuple(out)


_GROUNDS: list[tuple[tuple[Region, ...], GroundShapes]] = []
"""The last few battles' terrain, merged once (the regions are kept, so identity is safe)."""


def merged_ground(state: WarState) -> GroundShapes:
    """The battle's difficult and impassable ground merged once (terrain never changes)."""
    regions = tuple(g.region for g in state.ground)
    for known, ground in _GROUNDS:
        if len(known) == len(regions) and all(a is b for a, b in zip(known, regions,
                                                                      strict=True)):
            return ground
    ground = GroundShapes.of(regions)
    _GROUNDS.insert(0, (regions, ground))
    del _GROUNDS[4:]
    return ground


Box = tuple[float, float, float, float]
"""``(min x, min y, max x, max y)``."""


def _box_of(points: Sequence[Point]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _group_box(trays: Sequence[Tray], dx: float, dy: float) -> Box:
    """A box holding every base of a group at its start and shifted by ``(dx, dy)`` (each
    base lies within half its diagonal of its centre; a little margin for rounding)."""
    xs = [t.centre[0] for t in trays]
    ys = [t.centre[1] for t in trays]
    r = max(math.hypot(t.width, t.depth) for t in trays) / 2.0 + 1e-6
    lo_x, lo_y, hi_x, hi_y = min(xs), min(ys), max(xs), max(ys)
    return (min(lo_x, lo_x + dx) - r, min(lo_y, lo_y + dy) - r, max(hi_x, hi_x + dx) + r,
            max(hi_y, hi_y + dy) + r)


def _turn_box(frame: Tray, about: Point) -> Box:
    """A box holding all the ground ``frame`` can sweep turning about ``about`` (the disc
    its farthest corner describes, widened for :func:`swept_area`'s bulge allowance)."""
    r = max(distance(about, c) for c in frame.corners()) * 1.01 + 0.01
    return about[0] - r, about[1] - r, about[0] + r, about[1] + r


SWEEPS = "_movement_sweeps"
"""``state.extra`` key: the ground of recent wheels and pivots, by start, kind and end."""
SWEEPS_KEPT = 512

SHAPES = "_movement_shapes"
"""``state.extra`` key: each unit's trays as one shape, with where the unit stood then."""


def shape_of(state: WarState, unit: Unit) -> Any:
    """``unit``'s trays as one prepared shape, built again only when the unit has moved,
    turned, changed files or lost a company (a cache kept in ``state.extra``)."""
    key = unit.placement()
    shapes: dict[str, tuple[Any, Any]] = state.extra.setdefault(SHAPES, {})
    known = shapes.get(unit.id)
    if known is not None and known[0] == key:
        return known[1]
    shape = _shape(unit.trays())
    shapes[unit.id] = (key, shape)
    return shape


def _shape(trays: Sequence[Tray]) -> Any:
    """The trays as one shapely shape, prepared for repeated tests."""
    shape = trays[0].polygon if len(trays) == 1 else shapely.union_all([t.polygon
                                                                         for t in trays])
    shapely.prepare(shape)
    return shape


def nearby(state: WarState, unit: Unit, reach_: float) -> list[tuple[Unit, Any, float]]:
    """Other living units whose trays lie within ``reach_`` inches of ``unit``'s block (with
    their trays as one shape and their gap to it now): the only ones a move of that length
    can meet."""
    frame = unit.frame()
    mine: Any = None
    span = reach_ + math.hypot(frame.width, frame.depth)
    out = []
    for other in state.units.values():
        if other.id == unit.id or not other.alive:
            continue
        ofr = other.frame()
        if distance(ofr.centre, frame.centre) > span + math.hypot(ofr.width, ofr.depth):
            continue
        if mine is None:
            mine = shape_of(state, unit)
        shape = shape_of(state, other)
        out.append((other, shape, float(mine.distance(shape))))
    return out


def carry_out(state: WarState, battle: Battle, unit: Unit, plan: Plan) -> None:
    """Put ``unit`` where ``plan`` says, spend its actions and tell the log."""
    before, facing_before = anchor_of(unit), unit.facing
    if plan.kind == "stand":
        engaged = state.is_engaged(unit.id)
        unit.prone = 0
        if engaged:
            unit.move_used = True
        else:
            unit.minor_used = True
        battle.emit("stand_up", unit=unit.id, action="move" if engaged else "minor")
        return
    place(unit, plan)
    unit.move_used = True
    unit.moved = plan.cost
    if plan.kind == "double" or plan.double:
        unit.standard_used = unit.double_moved = True
    elif plan.kind == "run":
        unit.ran = True
    elif plan.kind == "reform":
        unit.reformed = True
    battle.emit("move", unit=unit.id, kind=plan.kind, **{"from": _pt(before)},
                to=_pt(anchor_of(unit)), facing=round(unit.facing, 3),
                turned=round(turn_between(facing_before, unit.facing), 3),
                files=unit.files, cost=round(plan.cost, 3))


def anchor_of(unit: Unit) -> Point:
    """The point move orders name: the middle of the front edge (skirmishers: the centre of
    the group)."""
    return unit.frame().centre if unit.skirmish else unit.front


def place(unit: Unit, plan: Plan) -> None:
    """Move ``unit``'s block (or models) to the plan's end."""
    if unit.skirmish:
        dx, dy = plan.shift
        unit.points = [(x + dx, y + dy) for x, y in unit.points]
        unit.front = (unit.front[0] + dx, unit.front[1] + dy)
        unit.facing = plan.facing
        return
    if plan.frame is not None:
        unit.files = plan.files
        unit.facing = plan.frame.facing
        unit.front = plan.frame.front_centre


# --------------------------------------------------------------------------- fleeing


def away_from(state: WarState, unit: Unit, causes: list[Unit]) -> float:
    """W4-AMB-10: the bearing from the centroid of the causes' closest points through the
    unit's centre (where a cause is closest along a stretch, the middle of it)."""
    if not causes:
        return 0.0
    here = unit.frame().centre
    mine = shapely.union_all([t.polygon for t in unit.trays()])
    points = []
    for cause in causes:
        theirs = shapely.union_all([t.polygon for t in cause.trays()])
        # Two parallel edges are closest along a whole stretch: take its middle.
        close = theirs.intersection(mine.buffer(theirs.distance(mine) + 1e-6))
        p = close.centroid if not close.is_empty else nearest_points(theirs, mine)[0]
        points.append((float(p.x), float(p.y)))
    centroid = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    if distance(centroid, here) < 1e-9:  # the causes reach the centre: use their centres
        centres = [c.frame().centre for c in causes]
        centroid = (sum(p[0] for p in centres) / len(centres),
                    sum(p[1] for p in centres) / len(centres))
    return bearing(centroid, here)


def fall_back(state: WarState, battle: Battle, unit: Unit, heading: float | None,
              why: str) -> None:
    """A fall back! move (W4-FLEE-01 to 08): 2d6 + 2 x Speed - 12 inches (at least 0) along
    ``heading`` (None: towards the nearest board edge), the unit turned to run that way.

    Off the table it is destroyed (W4-FLEE-06); into an enemy, destroyed (W4-FLEE-07); it
    passes through allies, each of which tests or falls back the same way (W4-FLEE-08); it
    stops 1" short of what it cannot pass. It counts as having run (W4-FLEE-02, W4-AMB-07)
    and used its move and standard actions (W4-FLEE-01)."""
    from warhost.rulesets.dnd4e_war import casualties

    if not unit.alive:
        return
    start = unit.frame()
    if heading is None:
        heading = edge_bearing(nearest_edge(state.board, start.centre))
    roll = battle.dice.roll("2d6", f"fall back ({unit.id})")
    allowed = fall_back_distance(roll, unit.speed())
    before = anchor_of(unit)
    state.disengage(unit.id)
    unit.fleeing = unit.fled_this_turn = unit.ran = True
    unit.move_used = unit.standard_used = True
    if unit.machine is not None:
        from warhost.rulesets.dnd4e_war import machines

        machines.crew_flee(state, battle, unit)  # W4-WM-14
    turn_to(unit, heading)
    frame = unit.frame()
    length = reach(frame, heading, allowed, merged_ground(state)) if allowed > 0 else 0.0
    others = nearby(state, unit, length + 1.0)
    foe_at = _contact(unit, heading, length, [o for o, _, _ in others if o.side != unit.side])
    off_at = _leaves(state, unit, heading)
    end = min(length, foe_at if foe_at is not None else math.inf, off_at)
    leaves = off_at < length - 1e-9 and off_at <= end + 1e-9
    runs_into = not leaves and foe_at is not None and foe_at <= end + 1e-9
    allies = [o for o, _, _ in others if o.side == unit.side]
    if not (leaves or runs_into):
        end = _stop_short(unit, heading, end, allies)
    shift(unit, heading, end)
    passed = sorted((a for a in allies if _passed(a, frame.polygon, unit)),
                    key=lambda a: _meets(frame, heading, end, a))
    battle.emit("fall_back", unit=unit.id, why=why, roll=roll, distance=round(allowed, 3),
                moved=round(end, 3), heading=round(heading, 3), **{"from": _pt(before)},
                to=_pt(anchor_of(unit)), facing=round(unit.facing, 3))
    if leaves:
        casualties.destroy(state, battle, unit, "fled off the table")
    elif runs_into:
        casualties.destroy(state, battle, unit, "fled into the enemy")
    for ally in passed:
        pass_through(state, battle, unit, ally, heading)


def turn_to(unit: Unit, heading: float) -> None:
    """The fleeing unit turns about its centre to run along ``heading`` (companies keep
    their layout)."""
    if unit.skirmish:
        unit.facing = heading
        return
    frame = centre_pivot(unit.frame(), turn_between(unit.facing, heading))
    unit.facing = frame.facing
    unit.front = frame.front_centre


def shift(unit: Unit, heading: float, length: float) -> None:
    """Slide ``unit`` ``length`` inches along ``heading``."""
    dx, dy = offset((0.0, 0.0), heading, length)
    unit.front = (unit.front[0] + dx, unit.front[1] + dy)
    if unit.skirmish:
        unit.points = [(x + dx, y + dy) for x, y in unit.points]


def _contact(unit: Unit, heading: float, length: float, others: list[Unit]) -> float | None:
    """How far ``unit`` slides along ``heading`` before it runs into one of ``others``
    (units it already touches count only if it runs on into them)."""
    mine = unit.trays()
    best: float | None = None
    for other in others:
        count(GEOMETRY)
        trays = other.trays()
        hit = min((d for t in mine if (d := first_contact(t, heading, length, trays))
                   is not None), default=None)
        if hit == 0.0 and not _into(mine, trays, heading):
            hit = None  # touching now and parting: straight lines cannot meet again
        if hit is not None and (best is None or hit < best):
            best = hit
    return best


def _into(mine: list[Tray], trays: list[Tray], heading: float) -> bool:
    """True when trays touching now would overlap a little further along ``heading``."""
    dx, dy = offset((0.0, 0.0), heading, 0.01)
    return any(trays_overlap(t.moved(dx, dy), o) for t in mine for o in trays)


def _leaves(state: WarState, unit: Unit, heading: float) -> float:
    """How far ``unit`` slides along ``heading`` before part of it crosses a board edge."""
    vx, vy = offset((0.0, 0.0), heading, 1.0)
    best = math.inf
    for tray in unit.trays():
        for x, y in tray.corners():
            for v, here, top in ((vx, x, state.board.width), (vy, y, state.board.height)):
                if v > 1e-12:
                    best = min(best, (top - here) / v)
                elif v < -1e-12:
                    best = min(best, here / -v)
    return max(best, 0.0)


def _stop_short(unit: Unit, heading: float, end: float, allies: list[Unit]) -> float:
    """W4-UNIT-11: a fleeing unit may not end on or touching an ally; it stops 1" short of
    the first such ally (and of any other it would then stand on)."""
    mine = unit.trays()
    for _ in range(len(allies) + 1):
        dx, dy = offset((0.0, 0.0), heading, end)
        moved = [t.moved(dx, dy) for t in mine]
        touched = [a for a in allies
                   if min(tray_gap(m, t) for m in moved for t in a.trays()) <= CONTACT]
        if not touched:
            return end
        hits = [first_contact(t, heading, end, a.trays()) for a in touched for t in mine]
        first = min((h for h in hits if h is not None), default=0.0)
        end = max(0.0, first - STEP_BACK)
    return end


def _passed(ally: Unit, start: Any, unit: Unit) -> bool:
    """True when the fleeing ``unit`` went through ``ally``'s trays on its way."""
    mine = shapely.union_all([t.polygon for t in unit.trays()])
    swept = shapely.convex_hull(shapely.union(start, mine))
    return any(swept.intersection(t.polygon).area > 1e-6 for t in ally.trays())


def _meets(frame: Tray, heading: float, length: float, ally: Unit) -> float:
    """How far along the flight ``ally`` was first met (the order of the tests)."""
    hit = first_contact(frame, heading, length, ally.trays())
    return 0.0 if hit is None else hit


def pass_through(state: WarState, battle: Battle, fleer: Unit, ally: Unit,
                 heading: float) -> None:
    """W4-FLEE-08, W4-PANIC-05: an ally fled through takes a DC 13 panic test (one a phase,
    W4-PANIC-06) or falls back the same way (W4-AMB-90). Fleeing allies do not test."""
    from warhost.rulesets.dnd4e_war import psychology

    battle.emit("fled_through", unit=fleer.id, target=ally.id)
    if not ally.alive or ally.fleeing or ally.id in state.panic_tested:
        return
    state.panic_tested.add(ally.id)
    if not psychology.courage_test(state, battle, ally, PASS_THROUGH_DC,
                                   f"{fleer.id} fled through", "W4-FLEE-08", kind="panic"):
        fall_back(state, battle, ally, heading, "panic")


# --------------------------------------------------------------------------- small helpers


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _deg(value: float) -> int:
    return round(value) % 360


def _pt(p: Point) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def _round_point(p: Point) -> Point:
    """Points offered to commanders, rounded to 0.001" for a short order text."""
    return (round(p[0], 3), round(p[1], 3))


def _shrinking(most: float) -> list[float]:
    """Distances to try, longest first: the whole (rounded, then exact), then ever
    shorter."""
    if most <= 0.05:
        return []
    return [most * k for k in (1.0, 1.0, 0.999, 0.9, 0.7, 0.5, 0.25)]

