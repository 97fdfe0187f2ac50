"""Moves along a given path (``move X Y via A B [C D ...]``) and why a move cannot be made.

The catalog lets a player name the path square by square (decisions 12 and 14); plain
``move X Y`` takes the engine's cheapest path (:mod:`.movement`). A given path is followed one
step at a time under the same rules as the search (see the notes of :mod:`.movement`): each
listed square is one of the 8 neighbours of the one before (the unit's anchor, for a Large
unit); every square of the new space is on the map, enterable and free (FB-MOVE-04/05,
FB-AMB-03, FB-AMB-46); no diagonal squeeze between impassable squares (FB-AMB-17); a step
into a front arc ends the movement (FB-PIKE-05); Vault crosses one square (FB-AMB-41); a
charge runs straight over clear terrain for at least 2 squares (FB-PIKE-08..10); the cost is
the path's own (FB-TERRAIN-04/05, FB-MOVE-06), within the allowance. Rulings: a path that ends
where it started is refused (staying put is ``move`` to the unit's own square); a path may
repeat the end square after ``via`` or leave it out.

Everything here runs only for orders people give, never for the listed options: the hot path
of random and AI battles does not come here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Square, footprint
from warhost.rulesets.fantasy_battle import movement
from warhost.rulesets.fantasy_battle.state import FBState, Unit
from warhost.rulesets.fantasy_battle.terrain import TERRAIN

VIA = "via"
"""The word between a move's end and the squares of its path."""

MOVE_FORM = "move x y, or move x y via x1 y1 x2 y2 ... to give the path"


def sq_text(sq: Square) -> str:
    """A square as people write it: ``(5,10)``."""
    return f"({sq[0]},{sq[1]})"


class PathProblem(NamedTuple):
    """Why a path is not a legal move: the 1-based step where it breaks (the last step for a
    problem with the end), the square that step reaches, the reason and the rule it breaks.
    A step that overspends the allowance has ``rule`` None and ``cost`` the total it reaches
    (the caller names the allowance: it depends on the kind of move)."""

    step: int
    square: Square
    reason: str
    rule: str | None
    cost: int | None = None


class PathWalk(NamedTuple):
    """A path followed step by step: the plan if it is legal, else the problem; and how many of
    the steps taken cost 2 for hindering terrain (FB-TERRAIN-04/05) and how many were doubled
    for leaving a square next to an enemy (FB-MOVE-06)."""

    plan: movement.MovePlan | None
    problem: PathProblem | None
    hindered: int = 0
    doubled: int = 0


def _terrain_reason(state: FBState, sq: Square) -> tuple[str, str] | None:
    """Why no unit may enter ``sq`` (off the map, blocking, cliff), or None."""
    grid = state.grid
    if not grid.contains(sq):
        return f"{sq_text(sq)} is off the {grid.width}x{grid.height} map", "FB-AMB-20"
    name = grid.terrain(sq)
    kind = TERRAIN[name]
    if kind.move_cost is None and not kind.vaultable:
        if name == "cliff":
            return f"{sq_text(sq)} is a cliff", "FB-AMB-46"
        return f"{sq_text(sq)} is {name.replace('_', ' ')} terrain", "FB-MOVE-05"
    return None


def _obstacle_reason(state: FBState, unit: Unit, sq: Square) -> tuple[str, str]:
    """Why ``sq`` (holding another unit, or deep water) stops a unit that cannot Vault it."""
    holder = state.occupied.get(sq)
    if holder is not None and holder != unit.id:
        return f"{sq_text(sq)} is held by {holder}", "FB-MOVE-04"
    return f"{sq_text(sq)} is deep water or a pit", "FB-MOVE-05"


def end_problem(state: FBState, unit: Unit, anchor: Square) -> tuple[str, str] | None:
    """Why ``unit``'s space at ``anchor`` is no place to end a move, whatever the way there:
    off the map, impassable terrain, another unit, slope (FB-TERRAIN-10), or a Large base on
    two levels (FB-AMB-46); None when it is one (a front-arc stop on slope aside)."""
    grid = state.grid
    space = footprint(anchor, unit.size)
    for sq in space:
        found = _terrain_reason(state, sq)
        if found is not None:
            return found
    for sq in space:
        name = grid.terrain(sq)
        holder = state.occupied.get(sq)
        if (holder is not None and holder != unit.id) or TERRAIN[name].vaultable:
            reason, rule = _obstacle_reason(state, unit, sq)
            return f"{reason}: no move may end there", rule
        if name == "slope":
            return f"{sq_text(sq)} is slope: no move may end on slope", "FB-TERRAIN-10"
    if len({grid.level(sq) for sq in space}) > 1:
        return "a Large unit must end its move with all four squares on one level", "FB-AMB-46"
    return None


def front_arc_holder(state: FBState, unit: Unit, anchor: Square) -> Unit | None:
    """The enemy Pike (same level) whose front arc holds a square of ``unit``'s space at
    ``anchor``: entering it ends the movement (FB-PIKE-05, FB-AMB-24)."""
    space = footprint(anchor, unit.size)
    level = state.square_level(anchor)
    for other in state.units.values():
        if (other.side != unit.side and other.on_map and other.has_facing
                and other.anchor is not None
                and state.square_level(other.anchor) == level
                and state.in_front_arc(other, space)):
            return other
    return None


def walk_path(
    state: FBState, unit: Unit, path: Sequence[Square], budget: int, *,
    vault: bool = False, charge: bool = False,
) -> PathWalk:
    """Follow ``path`` (the anchors entered, in order; the last is the end) from ``unit``'s
    position under the movement rules, within ``budget``. ``vault``: the unit may Vault one
    square (FB-FEAT-10); ``charge``: the move is a charge (FB-PIKE-07..10)."""
    assert unit.anchor is not None
    ctx = movement._Ctx(state, unit, max(budget, 0))
    t = ctx.t
    cost, cls = t.cost, t.cls
    size = unit.size
    large = ctx.large
    offsets = (0, 1, t.pw, t.pw + 1) if large else (0,)
    clear = t.lchg if large else t.chg
    here = unit.anchor
    i = ctx.start
    spent = hindered = doubled = 0
    passing: Square | None = None  # the square being vaulted right now
    vaulted: Square | None = None
    heading: Square | None = None

    def fail(k: int, sq: Square, reason: str, rule: str | None,
             total: int | None = None) -> PathWalk:
        return PathWalk(None, PathProblem(k, sq, reason, rule, total), hindered, doubled)

    if not path:
        return fail(0, here, "the path is empty", None)
    for k, sq in enumerate(path, 1):
        step = (sq[0] - here[0], sq[1] - here[1])
        if step not in DIRECTIONS8:
            return fail(k, sq, f"{sq_text(sq)} is not next to {sq_text(here)}: a move goes one "
                               "square at a time", "FB-AMB-03" if large else "FB-MOVE-03")
        if charge and heading is not None and step != heading:
            return fail(k, sq, f"the charge turns at {sq_text(here)}: a charge runs in one "
                               "straight line", "FB-PIKE-09")
        heading = step
        if k > 1 and i in ctx.arc:
            pike = front_arc_holder(state, unit, here)
            whose = f" of {pike.id}" if pike is not None else ""
            return fail(k, sq, f"the movement stopped at {sq_text(here)}, in the front arc"
                               f"{whose}", "FB-PIKE-05")
        d, ca, cb = ctx.dirs[DIRECTIONS8.index(step)]
        if ca and cost[i + ca] <= 0 and cost[i + cb] <= 0:
            a, b = t.squares[i + ca], t.squares[i + cb]
            names = " and ".join(sq_text(s) if s is not None else "the map edge" for s in (a, b))
            return fail(k, sq, f"the diagonal step squeezes between {names}, both impassable",
                        "FB-AMB-17")
        j = i + d
        space = footprint(sq, size)
        obstacles: list[Square] = []
        for q in space:
            found = _terrain_reason(state, q)
            if found is not None:
                return fail(k, sq, *found)
            holder = state.occupied.get(q)
            if TERRAIN[state.grid.terrain(q)].vaultable or (
                    holder is not None and holder != unit.id):
                obstacles.append(q)
        if t.has_elev and any(cls[i + o] ^ cls[j + o] == 1 for o in offsets):
            return fail(k, sq, f"the step from {sq_text(here)} crosses a cliff edge between "
                               "ground and elevated terrain", "FB-AMB-46")
        if large and t.lcost[j] == 0:
            return fail(k, sq, "a Large base may not stand astride a cliff edge", "FB-AMB-46")
        if obstacles:
            if not vault or charge:
                return fail(k, sq, *_obstacle_reason(state, unit, obstacles[0]))
            if len(set(obstacles)) > 1:
                both = " and ".join(sq_text(q) for q in obstacles[:2])
                return fail(k, sq, f"Vault crosses one square only, and {both} are both in "
                                   "the way", "FB-AMB-41")
            if vaulted is None:
                vaulted = passing = obstacles[0]
            elif passing != obstacles[0]:
                return fail(k, sq, f"{unit.id} has already vaulted {sq_text(vaulted)}: Vault "
                                   "crosses one square only", "FB-AMB-41")
        else:
            passing = None
        if charge and not clear[j]:
            bad = next(q for q in space if not TERRAIN[state.grid.terrain(q)].charge_clear)
            kind = state.grid.terrain(bad).replace("_", " ")
            return fail(k, sq, f"{sq_text(bad)} is {kind} terrain: a charge passes over clear "
                               "terrain only", "FB-PIKE-10")
        base = t.lcost[j] if large else max(cost[j], 1)  # a vaulted pit counts 1
        if base == 2:
            hindered += 1
        if i in ctx.adj:
            base += base
            doubled += 1
        spent += base
        if spent > budget:
            return fail(k, sq, "", None, spent)
        i = j
        here = sq
    last = len(path)
    if here == unit.anchor:
        return fail(last, here, "the path ends where it started (to stay put, move to the "
                                "unit's own square)", None)
    if passing is not None:
        return fail(last, here, f"a move may not end on the square it vaults, "
                                f"{sq_text(passing)}", "FB-AMB-41")
    if not ctx.can_end(i, i in ctx.arc):
        found_end = end_problem(state, unit, here)
        reason, rule = found_end if found_end is not None else (
            f"no move may end at {sq_text(here)}", "FB-TERRAIN-01")
        return fail(last, here, reason, rule)
    if charge and last < 2:
        return fail(last, here, "a charge covers at least 2 squares", "FB-PIKE-08")
    return PathWalk(movement.MovePlan(here, spent, tuple(path), vaulted), None, hindered, doubled)


def cheapest_paths(
    state: FBState, unit: Unit, budget: int, *, vault: bool = False,
    through_units: bool = False, through_arcs: bool = False,
) -> dict[Square, movement.MovePlan]:
    """:func:`movement.destinations`, optionally as if no other unit stood on the map
    (``through_units``) or no front arc stopped a move (``through_arcs``): to find out what
    keeps a unit from a square."""
    if not unit.on_map or unit.anchor is None:
        return {}
    ctx = movement._Ctx(state, unit, budget)
    if through_units:
        ctx.occ = set()  # (its occ_at, read from occ when first asked for, is empty too)
    if through_arcs:
        ctx.arc = set()
    if vault:
        return movement._vault_destinations(ctx, budget)
    return movement._plain_destinations(ctx, budget)


# --------------------------------------------------------------------------- orders


def parse_move(order: Order) -> tuple[Square, tuple[Square, ...]] | Refusal:
    """The end and the given path (empty for a plain move) of a ``move`` order, or why its
    words are not a move."""
    args = order.args
    if len(args) < 2 or type(args[0]) is not int or type(args[1]) is not int:
        return Refusal(f"move needs two numbers, x and y ({MOVE_FORM})")
    dest = (args[0], args[1])
    if len(args) == 2:
        return dest, ()
    rest = args[3:]
    if args[2] != VIA:
        return Refusal(f"after x and y a move takes only `via` and the squares of its path "
                       f"({MOVE_FORM})")
    if not rest or len(rest) % 2 or any(type(a) is not int for a in rest):
        return Refusal(f"`via` needs the squares of the path as pairs of numbers ({MOVE_FORM})")
    path = [(int(rest[n]), int(rest[n + 1])) for n in range(0, len(rest), 2)]
    if path[-1] != dest:
        path.append(dest)
    return dest, tuple(path)


def allowance_limit(unit: Unit, budget: int, double: bool) -> tuple[str, str]:
    """What caps this move, in words, with its rule: the allowance (FB-MOVE-01), Double-time
    (FB-MOVE-07), Burst of Speed (FB-FEAT-05) or what is left after a Mobility attack
    (FB-AMB-39)."""
    who = "an Infantry unit" if unit.type == "infantry" else "a Cavalry unit"
    if budget == movement.allowance(unit, double, False):
        if double:
            return f"{who} moves at most {budget} when Double-timing", "FB-MOVE-07"
        return f"{who} moves at most {budget}", "FB-MOVE-01"
    if budget == movement.allowance(unit, double, True):
        return f"{who} moves at most {budget} with Burst of Speed", "FB-FEAT-05"
    return (f"{unit.id} has {budget} of its movement left after its Mobility attack",
            "FB-AMB-39")


def cost_text(steps: int, cost: int, hindered: int, doubled: int) -> str:
    """``7 squares``, or ``5 squares costing 8 (...)`` naming what made them dearer."""
    if cost == steps:
        return f"{steps} squares" if steps != 1 else "1 square"
    extra = []
    if hindered:
        extra.append("hindering terrain costs 2 a square, FB-TERRAIN-04")
    if doubled:
        extra.append("leaving a square next to an enemy costs double, FB-MOVE-06")
    return f"{steps} squares costing {cost} ({'; '.join(extra)})"


def walk_refusal(walk: PathWalk, unit: Unit, budget: int, double: bool, *,
                 steps: bool = True) -> Refusal:
    """The refusal of a path :func:`walk_path` did not take: ``step 3 to (4,7): ...``, or
    without the step when ``steps`` is False (a path the player did not give)."""
    problem = walk.problem
    assert problem is not None
    head = f"step {problem.step} to {sq_text(problem.square)}: " if steps and problem.step else ""
    if problem.cost is not None:
        limit, rule = allowance_limit(unit, budget, double)
        spent = cost_text(problem.step, problem.cost, walk.hindered, walk.doubled)
        return Refusal(f"{head}{spent}, {limit}", rule)
    return Refusal(f"{head}{problem.reason}", problem.rule)


def judge_path(
    state: FBState, unit: Unit, order: Order, budget: int, *,
    double: bool = False, vault: bool = False, charge: bool = False,
) -> movement.MovePlan | Refusal:
    """The plan of ``move X Y via ...`` for ``unit`` (its given path, at that path's cost), or
    why it is refused. A plain ``move X Y`` is refused here: the listed options cover it."""
    parsed = parse_move(order)
    if isinstance(parsed, Refusal):
        return parsed
    _, path = parsed
    if not path:
        return Refusal(f"{MOVE_FORM}: without `via` the move is one of the listed ends")
    walk = walk_path(state, unit, path, budget, vault=vault and not charge, charge=charge)
    if walk.plan is None:
        return walk_refusal(walk, unit, budget, double)
    return walk.plan


def accept_path(
    state: FBState, unit: Unit, order: Order, budget: int, double: bool, vault: bool,
    charge: bool,
) -> Order | Refusal | None:
    """The ``accept`` of a move decision (see :data:`warhost.core.decisions.Acceptor`): takes
    ``move X Y via ...`` along a legal path (the order itself) and refuses it with the step and
    rule it breaks; no opinion on other orders."""
    if order.kind != "move" or VIA not in order.args:
        return None
    verdict = judge_path(state, unit, order, budget, double=double, vault=vault, charge=charge)
    return verdict if isinstance(verdict, Refusal) else order
