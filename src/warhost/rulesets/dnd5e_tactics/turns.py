"""One body's turn in `dnd5e-tactics`: movement (Dash, Disengage, Charge, controlled mounts),
attacks of opportunity, the commander's free call-out, encouragement, bonus actions and actions
(T5-ROUND-11..13, T5-COMMANDER-*, T5-DUEL-01..06, T5-ENCOURAGE-*, T5-MOVE-*, T5-MOUNT-01,
T5-AMB-02, T5-AMB-09..15, T5-AMB-31).

A unit's turn: its controlled mounts' action, then the move, then its commander (call-out,
bonus action, action), then the unit's bonus action and action. A Single Character moves, may
call out, then takes its bonus action and action. Candidate destinations are a compact set:
contact (and reach) distance toward the nearest enemies, the edge and the middle of each
terrain piece, straight back, and eight bearings at full speed. The move decision is open: a
person may name any point and facing (:class:`MoveJudge`), judged by the same checks.

Rulings of our own (beyond the catalog):

* Moves are straight lines of the footprint centre. A move may pass friends but not enemies,
  must end on the board, off impassable ground and clear of every other body. After a move a
  unit keeps its facing while the nearest enemy is within 90 degrees of its front, otherwise it
  turns to face it; closing with an enemy unit squares up to its front.
* Leaving an enemy's reach is judged between the start and the end of the move; the attacks of
  opportunity come before the body moves. A dueling character makes none, and a unit down to
  its commander draws none.
* Disengage is offered only for moves that leave an engaged enemy's reach. A Charge is offered
  against an enemy unit not yet adjacent that a Dash can reach; its Attack follows at once.
* A controlled mount's Dash doubles the move (it does not stack with the riders' Dash, which is
  then not offered); its Disengage covers the whole move; its Dodge changes nothing.
* A Single Character has no rank: declining a duel costs it nothing. Two Single Characters do
  not duel each other.
* A unit's commander takes the Ruins cover for the whole body; it is offered no Dash or Dodge,
  since it never moves or stands alone outside a duel.
* Order words: stat-block names with spaces are written with underscores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon
from shapely.ops import nearest_points

from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    Region,
    bearing,
    distance,
    edges_crossed,
    gap,
    inches,
    offset,
    path_cost,
    point_word,
    read_point,
    travel_many,
)
from warhost.rulesets.dnd5e_tactics import _kernels, combat
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import AttackSpec, HealSpec, StatBlock
from warhost.rulesets.dnd5e_tactics.setup import parse_point, point_text
from warhost.rulesets.dnd5e_tactics.spatial import CELL, TOLERANCE, pair_gaps
from warhost.rulesets.dnd5e_tactics.state import (
    Body,
    Character,
    Single,
    T5State,
    Unit,
    feet,
    no_such_body,
)

Point = tuple[float, float]

SKILLS = ("persuasion", "insight", "history")
ACTION_DC = 12  # T5-ENCOURAGE-01
BONUS_DC = 15  # T5-ENCOURAGE-03
CONTACT_GAP = 0.1
"""Inches left between footprints when a move closes to contact (adjacent: <= 0.5 in)."""
ADJACENT = 0.5
DECLARE_MARGIN = 1.0
"""``engagement_model: declared``: enemies within reach + this many inches may be declared."""
NEAREST_ENEMIES = 4
"""Enemy bodies a move offers to close with (the nearest ones)."""
BEARINGS = (0, 45, 90, 135, 180, 225, 270, 315)
FEW = 8
"""Enemies so few that looking at each of them beats a search of the placement grid."""
EPS = 1e-6
NONE = Order("none")
HOLD = Order("hold")


# --------------------------------------------------------------------------- small helpers


def word(name: str) -> str:
    """A stat-block name as one order word (spaces become underscores)."""
    return name.replace(" ", "_")


def character_of(body: Body) -> Character:
    """The commander of a unit, or a Single Character's own record."""
    return body.commander if isinstance(body, Unit) else body.character


def can_act(character: Character) -> bool:
    """Alive and above 0 hit points (a dying commander is out of action)."""
    return combat.character_can_act(character)


def inside_ruins(state: T5State, body: Body) -> bool:
    """Whether the footprint centre is inside a Ruins piece (T5-AMB-02)."""
    if not state.regions:
        return False
    index = state.placement
    index.refresh()
    key = ("ruins", body.id, body.centre)
    known: bool | None = index.memo.get(key)
    if known is None:
        known = any(r.kind == "ruins" for r in state.region_at(body.centre))
        index.memo[key] = known
    return known


def dims(body: Body) -> tuple[float, float]:
    """Footprint width (across the facing) and depth, in inches."""
    if isinstance(body, Unit):
        return body.size
    return 0.5, 0.5


_EXACT = {0.0: (0.0, 1.0), 90.0: (1.0, 0.0), 180.0: (0.0, -1.0), 270.0: (-1.0, 0.0)}


def _heading(deg: float) -> tuple[float, float]:
    d = deg % 360.0
    exact = _EXACT.get(d)
    if exact is not None:
        return exact
    r = math.radians(d)
    return math.sin(r), math.cos(r)


def rect_coords(centres: npt.NDArray[np.float64], facings: Sequence[float], width: float,
                depth: float) -> npt.NDArray[np.float64]:
    """Corner rings ``(n, 4, 2)`` of footprints of one size at many centres and facings (the
    same corners :func:`warhost.geometry.table.formation` draws)."""
    hw, hd = width / 2.0, depth / 2.0
    r = np.array([-hw, hw, hw, -hw])
    f = np.array([hd, hd, -hd, -hd])
    out = np.empty((len(centres), 4, 2))
    first = facings[0]
    if facings.count(first) == len(facings):  # one facing: plain numbers, same arithmetic
        fx, fy = _heading(first)
        out[:, :, 0] = centres[:, 0:1] + r * fy + f * fx
        out[:, :, 1] = centres[:, 1:2] - r * fx + f * fy
        return out
    known: dict[float, tuple[float, float]] = {}
    for one in facings:
        if one not in known:
            known[one] = _heading(one)
    heads = np.array([known[one] for one in facings]).reshape(-1, 2)
    hx, hy = heads[:, 0:1], heads[:, 1:2]
    out[:, :, 0] = centres[:, 0:1] + r * hy + f * hx
    out[:, :, 1] = centres[:, 1:2] - r * hx + f * hy
    return out


def footprints(body: Body, centres: Sequence[Point] | npt.NDArray[np.float64],
               facings: Sequence[float]) -> npt.NDArray[np.object_]:
    """Shapely footprints of ``body`` at each centre and facing."""
    width, depth = dims(body)
    coords = rect_coords(np.asarray(centres, dtype=np.float64).reshape(-1, 2), facings, width,
                         depth)
    return np.asarray(shapely.polygons(coords))


def footprint_at(body: Body, centre: Point, facing: float) -> Polygon:
    """``body``'s footprint if it stood at ``centre`` facing ``facing``."""
    return footprints(body, [centre], [facing])[0]  # type: ignore[no-any-return]


def overlaps(a: object, b: object) -> bool:
    """Whether two shapes share interior area (touching is allowed)."""
    return bool(shapely.relate_pattern(a, b, "T********"))


def others(state: T5State, body: Body) -> list[Body]:
    """Every other body still on the table."""
    return [b for b in state.active() if b is not body]


def enemies(state: T5State, body: Body) -> list[Body]:
    """Enemy bodies on the table, nearest first."""
    foes = state.active(state.enemy_of(body.side))
    return sorted(foes, key=lambda e: (state.gap(body, e), e.id))


def _widest(state: T5State) -> float:
    """A distance beyond which a search of the placement grid may as well take everything."""
    return math.hypot(state.board.width, state.board.height) + CELL


def nearest_enemies(state: T5State, body: Body, k: int) -> list[Body]:
    """The first ``k`` of :func:`enemies`, looking only at the enemies near the body: the
    search widens until ``k`` enemies lie within its radius (all beyond it are further)."""
    side = state.enemy_of(body.side)
    if not body.on_table:
        return enemies(state, body)[:k]
    index = state.placement
    key = ("nearest", body.id, k)
    radius, widest = index.hints.get(key, CELL), _widest(state)
    while True:
        if radius >= widest:
            return enemies(state, body)[:k]
        found = sorted(index.near(body, radius, side), key=lambda e: (state.gap(body, e), e.id))
        if len(found) >= k and state.gap(body, found[k - 1]) <= radius:
            index.hints[key] = max(CELL, radius - CELL)
            return found[:k]
        radius += CELL


def nearest_by_centre(state: T5State, body: Body, points: Sequence[Point]) -> list[Body]:
    """Enemy bodies on the table among which, for every one of ``points``, lies the one
    :func:`facing_toward` turns to (the nearest centre): every enemy may be further from all
    the points than some enemy in the list (turn order)."""
    return _nearest_by_centre(state, body, points)[0]


def _nearest_by_centre(state: T5State, body: Body, points: Sequence[Point]
                       ) -> tuple[list[Body], npt.NDArray[np.float64] | None]:
    """:func:`nearest_by_centre`, with the centre distances ``(points, found)`` when it
    measured them (:func:`_centre_distances`)."""
    side = state.enemy_of(body.side)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = (min(xs), min(ys), max(xs), max(ys))
    index = state.placement
    index.refresh()
    if index.counts.get(side, 0) <= FEW:
        return state.active(side), None
    key = ("by centre", body.id)
    radius, widest = index.hints.get(key, CELL), _widest(state)
    while radius < widest:
        found = index.near_box(box, radius, side)
        if found:
            gaps = _centre_distances(points, found)
            if float(gaps.min(axis=1).max()) <= radius - EPS:
                index.hints[key] = max(CELL, radius - CELL)
                return found, gaps
        radius += CELL
    return state.active(side), None


def _centre_distances(points: Sequence[Point], foes: Sequence[Body]) -> npt.NDArray[np.float64]:
    """Distances ``(points, foes)`` from each point to each foe's centre (NumPy: within a
    rounding error of :func:`distance`)."""
    count(GEOMETRY, len(points) * len(foes))
    here = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    there = np.asarray([e.centre for e in foes], dtype=np.float64).reshape(-1, 2)
    return np.asarray(np.hypot(here[:, None, 0] - there[None, :, 0],
                               here[:, None, 1] - there[None, :, 1]))


def facings_toward(body: Body, points: Sequence[Point], foes: Sequence[Body],
                   measured: npt.NDArray[np.float64] | None = None) -> list[int]:
    """:func:`facing_toward` at each of ``points``: NumPy finds the few foes nearest each
    point, :func:`facing_toward` chooses among them exactly. ``measured``: the centre
    distances ``(points, foes)`` if known."""
    if len(foes) <= FEW or not points:  # a handful: plain Python is quicker than NumPy
        return [facing_toward(body, p, foes) for p in points]
    gaps = _centre_distances(points, foes) if measured is None else measured
    close = gaps <= gaps.min(axis=1, keepdims=True) + EPS
    alone = (close.sum(axis=1) == 1).tolist()
    firsts = close.argmax(axis=1).tolist()
    return [facing_toward(body, p, [foes[firsts[row]]] if alone[row] else
                          [foes[int(k)] for k in np.nonzero(close[row])[0]])
            for row, p in enumerate(points)]


# --------------------------------------------------------------------------- the turn


@dataclass
class Plan:
    """What a body has committed to in this turn."""

    action_used: bool = False
    charge: str | None = None
    mount_dash: bool = False


def take_turn(ctx: Ctx, body: Body) -> None:
    """``body`` takes its turn (T5-ROUND-11, T5-AMB-31). Emits ``turn``."""
    if not body.on_table:
        return
    start_turn(ctx, body)
    if isinstance(body, Unit):
        unit_turn(ctx, body)
    else:
        single_turn(ctx, body)


def start_turn(ctx: Ctx, body: Body) -> None:
    """Benefits that last until the start of the body's next turn end now: Dodge, the Ruins
    three-quarters cover (T5-AMB-02), Disengage; a new call-out becomes possible (T5-AMB-13).
    A dying commander rolls its death save first (``commander_death_saves``)."""
    ctx.emit("turn", body=body.id, side=body.side, round=ctx.state.round)
    body.dodging = False
    body.three_quarter_cover = False
    body.disengaged = False
    character = character_of(body)
    character.called_out_this_turn = False
    if (isinstance(body, Unit) and ctx.state.options.commander_death_saves
            and character.alive and character.dying):
        combat.death_save(ctx, body)


def unit_turn(ctx: Ctx, unit: Unit) -> None:
    """Move, then the commander's free action, bonus action and action, then the unit's bonus
    action and action (T5-ROUND-11, T5-ROUND-13, T5-COMMANDER-01)."""
    plan = Plan()
    mount_step(ctx, unit, plan)
    movement_step(ctx, unit, plan)
    if not unit.on_table:
        return
    if can_act(unit.commander):
        callout_step(ctx, unit)
        character_step(ctx, unit, bonus=True)
        character_step(ctx, unit, bonus=False)
    if not unit.on_table:
        return
    unit_bonus_step(ctx, unit)
    unit_action_step(ctx, unit, plan)


def single_turn(ctx: Ctx, single: Single) -> None:
    """A Single Character's own turn: move, call-out, bonus action, action (T5-AMB-31)."""
    plan = Plan()
    mount_step(ctx, single, plan)
    movement_step(ctx, single, plan)
    if not single.on_table or not can_act(single.character):
        return
    callout_step(ctx, single)
    character_step(ctx, single, bonus=True)
    if not plan.action_used and single.on_table:
        character_step(ctx, single, bonus=False)


# --------------------------------------------------------------------------- mounts


def controlled_mount(body: Body) -> bool:
    """Whether the body rides controlled mounts (T5-AMB-29)."""
    stats = body.member if isinstance(body, Unit) else body.stats
    return stats.mount is not None and stats.mount.control == "controlled"


def mount_step(ctx: Ctx, body: Body, plan: Plan) -> None:
    """Controlled mounts may Dash, Disengage or Dodge (T5-MOUNT-01, T5-DEC-15).

    A mount's Dash doubles the body's move and leaves the riders' action free; its Disengage
    keeps the move from provoking; its Dodge changes nothing, because mounts are never
    targeted (T5-MOUNT-02).
    """
    if not controlled_mount(body):
        return
    options = [NONE, Order("dash"), Order("disengage"), Order("dodge")]
    order = ctx.ask(body.side, "mount", options, prompt=f"action of {body.name}'s mounts",
                    subject=body.id, default=NONE)
    if order.kind == "none":
        return
    if order.kind == "dash":
        plan.mount_dash = True
    elif order.kind == "disengage":
        body.disengaged = True
    ctx.emit("mount", body=body.id, action=order.kind)


# --------------------------------------------------------------------------- movement


def speed_inches(body: Body) -> float:
    """Movement in inches per move (T5-SETUP-02, T5-ROUND-12)."""
    return feet(body.speed)


def walk(state: T5State, start: Point, target: Point, budget: float) -> tuple[Point, float]:
    """Straight toward ``target`` spending at most ``budget``; difficult terrain costs double
    and impassable ground stops the walk (T5-TERRAIN-02, T5-TERRAIN-09)."""
    return walk_many(state, start, [target], budget)[0]


def facing_toward(body: Body, point: Point, foes: Sequence[Body]) -> int:
    """Facing after a move (T5-AMB-09): unchanged while the nearest enemy is in front (within
    90 degrees either side, so lines stay square), else turned toward it."""
    keep = round(body.facing) % 360
    if not foes:
        return keep
    target = min(foes, key=lambda e: (distance(point, e.centre), e.id))
    toward = bearing(point, target.centre)
    if abs((toward - body.facing + 180.0) % 360.0 - 180.0) <= 90.0:
        return keep
    return round(toward) % 360


def approach_facing(body: Body, target: Body) -> int:
    """Facing for closing with ``target``: square to its front when it roughly faces us, else
    straight at it."""
    direct = bearing(body.centre, target.centre)
    if isinstance(target, Unit):
        opposite = (target.facing + 180.0) % 360.0
        turn = abs((direct - opposite + 180.0) % 360.0 - 180.0)
        if turn <= 45.0:
            return round(opposite) % 360
    return round(direct) % 360


def approach_point(state: T5State, body: Body, target: Body, facing: int,
                   want: float) -> Point | None:
    """The furthest centre on the straight line toward ``target`` at which ``body`` (facing
    ``facing``) is still about ``want`` inches from it; None when it is that close already."""
    return approach_points(state, body, target, facing, [want])[0]


def approach_points(state: T5State, body: Body, target: Body, facing: int,
                    wants: Sequence[float]) -> list[Point | None]:
    """:func:`approach_point` for each of ``wants``, sliding along the same samples once."""
    return approaches(state, body, [(target, facing)], wants)[0]


def approaches(state: T5State, body: Body, targets: Sequence[tuple[Body, int]],
               wants: Sequence[float]) -> list[list[Point | None]]:
    """:func:`approach_point` toward each ``(target, facing)`` of ``targets`` for each of
    ``wants``: the samples of every line are laid out and measured together
    (:func:`warhost.rulesets.dnd5e_tactics._kernels.approach_table`: the same distances slid
    as ``np.linspace``, the same corners as :func:`rect_coords`)."""
    start = body.centre
    lines: list[tuple[int, int, float, float, int] | None] = []
    params: list[tuple[float, float, float, float, float, float]] = []
    total = 0
    for j, (target, facing) in enumerate(targets):
        length = distance(start, target.centre)
        if length <= EPS:
            lines.append(None)
            continue
        ux, uy = (target.centre[0] - start[0]) / length, (target.centre[1] - start[1]) / length
        samples = max(16, min(96, int(length * 4)))
        fx, fy = _heading(facing)
        params.append((ux, uy, length, float(samples), fx, fy))
        lines.append((total, samples, ux, uy, j))
        total += samples
    if not params:
        return [[None for _ in wants] for _ in targets]
    width, depth = dims(body)
    used = [line[4] for line in lines if line is not None]
    shapes = [target.footprint for target, _ in targets]
    theirs = np.array([state.placement.corners(targets[j][0]) for j in used])
    # The gap of every sample to its target, compiled (within TOLERANCE of shapely's): they
    # choose the samples; each value or comparison that decides the answer is shapely's
    # distance of that sample's footprint.
    count(GEOMETRY, total)
    ts, rings, rough = np.empty(total), np.empty((total, 4, 2)), np.empty(total)
    _kernels.approach_table(float(start[0]), float(start[1]), np.array(params), theirs,
                            width / 2.0, depth / 2.0, ts, rings, rough)
    exact: dict[int, float] = {}

    def measure(picks: list[tuple[int, int]]) -> None:
        new = sorted({(row, j) for row, j in picks if row not in exact})
        if new:
            count(GEOMETRY, len(new))
            found = shapely.distance(shapely.polygons(rings[[row for row, _ in new]]),
                                     [shapes[j] for _, j in new])
            exact.update(zip((row for row, _ in new), (float(g) for g in found)))

    def at_least(row: int, j: int, bound: float) -> bool:
        """``gap of sample row >= bound``, exactly."""
        value = float(rough[row])
        if row not in exact and abs(value - bound) > TOLERANCE:
            return value > bound
        measure([(row, j)])
        return exact[row] >= bound

    picked: list[list[int | None]] = []
    finals: list[tuple[int, int]] = []
    for line in lines:
        found: list[int | None] = []
        picked.append(found)
        if line is None:
            continue
        first, samples, j = line[0], line[1], line[4]
        mine = rough[first:first + samples]
        for want in wants:
            # The last sample still ``want`` away. The body slides rigidly toward the
            # target's centre, so the gap is a convex function of the distance slid that
            # ends at 0: it falls all the way to ``want`` and below, and the samples at least
            # ``want`` away are those before the first one closer.
            if not at_least(first, j, want + EPS) or (first in exact
                                                       and exact[first] <= want + EPS):
                found.append(None)
                continue
            best = samples - 1
            unclear = np.nonzero(mine[1:] <= want + TOLERANCE)[0]  # before: clearly above
            for i in range(int(unclear[0]) + 1 if len(unclear) else samples, samples):
                if not at_least(first + i, j, want):
                    best = i - 1
                    break
            if best + 1 < samples:
                finals += [(first + best, j), (first + best + 1, j)]
            found.append(best)
    measure(finals)
    out: list[list[Point | None]] = []
    for line, found in zip(lines, picked):
        if line is None:
            out.append([None for _ in wants])
            continue
        first, samples, ux, uy, _ = line
        points: list[Point | None] = []
        for want, last in zip(wants, found):
            if last is None:
                points.append(None)
                continue
            row = first + last
            t = float(ts[row])
            if last + 1 < samples:  # the gap shrinks about linearly between two samples
                g0, g1 = exact[row], exact[row + 1]
                if g0 > g1:
                    t += (ts[row + 1] - ts[row]) * min(1.0, (g0 - want) / (g0 - g1)) * 0.98
            points.append((start[0] + ux * t, start[1] + uy * t))
        out.append(points)
    return out


@dataclass
class Survey:
    """What a move decision looks at once: the nearest enemies and where closing with each of
    them would stop (independent of how far the body may go)."""

    foes: list[Body]
    """The nearest few (:data:`NEAREST_ENEMIES`), nearest first."""
    approaches: list[tuple[Body, int, float, Point]]
    """``(enemy, facing, wanted gap, centre)`` for contact and, with reach, reach distance."""


def survey(ctx: Ctx, body: Body) -> Survey:
    """Enemies nearest first and the approach points toward the nearest few."""
    foes = nearest_enemies(ctx.state, body, NEAREST_ENEMIES)
    found: list[tuple[Body, int, float, Point]] = []
    wants = [CONTACT_GAP]
    if body.reach > ADJACENT + EPS:
        wants.append(body.reach - CONTACT_GAP)
    near = [(foe, approach_facing(body, foe)) for foe in foes[:NEAREST_ENEMIES]]
    for (foe, facing), points in zip(near, approaches(ctx.state, body, near, wants)):
        for want, point in zip(wants, points):
            if point is not None:
                found.append((foe, facing, want, point))
    return Survey(foes, found)


def aims(ctx: Ctx, body: Body, seen: Survey, budget: float) -> list[tuple[Point, int | None]]:
    """Where a move within ``budget`` heads, with the facing it ends in when that is fixed:
    toward each near enemy (contact, reach), to the edge of and into each terrain piece,
    straight back from the nearest enemy, and eight bearings at full budget."""
    start = body.centre
    out: list[tuple[Point, int | None]] = [(point, facing) for _, facing, _, point in
                                           seen.approaches]
    out += terrain_aims(ctx.state, start)
    if seen.foes:
        out.append((offset(start, bearing(seen.foes[0].centre, start), budget), None))
    out += [(offset(start, heading, budget), None) for heading in BEARINGS]
    return out


def terrain_aims(state: T5State, start: Point) -> list[tuple[Point, int | None]]:
    """The middle of each terrain piece that is not impassable, and (if ``start`` is not in
    it) a point just inside its nearest edge: worked out once per start point."""
    if not state.regions:
        return []
    index = state.placement
    key = ("terrain aims", start)
    known: list[tuple[Point, int | None]] | None = index.hints.get(key)
    if known is not None:
        return known
    out: list[tuple[Point, int | None]] = []
    for number, region in enumerate(state.regions):
        if region.impassable:
            continue
        middle: Point | None = index.hints.get(("middle", number))
        if middle is None:
            middle = _representative(region.polygon)
            index.hints[("middle", number)] = middle
        out.append((middle, None))
        if not region.contains(start):
            edge = nearest_points(region.polygon, ShapelyPoint(start))[0]
            heading = bearing(start, (edge.x, edge.y))
            out.append((offset((edge.x, edge.y), heading, 0.3), None))
    if len(index.hints) < 10_000:
        index.hints[key] = out
    return out


def walk_many(state: T5State, start: Point, targets: Sequence[Point],
              budgets: Sequence[float] | float) -> list[tuple[Point, float]]:
    """:func:`walk` toward each of ``targets`` (each with its own budget, or one for all)."""
    return travel_many(start, targets, budgets, state.ground)


def _representative(polygon: Polygon) -> Point:
    point = polygon.centroid if polygon.contains(polygon.centroid) else \
        polygon.representative_point()
    return float(point.x), float(point.y)


@dataclass
class Fit:
    """How a batch of moves ``(centre, facing, cost)`` stands with the placement rules, move
    by move: ``on_board``; ``hits[i, j]``, move ``i`` ends overlapping ``blockers[j]`` (another
    body, or impassable terrain); ``swept[i, j]``, it sweeps through the enemy ``foes[j]``."""

    on_board: npt.NDArray[np.bool_]
    blockers: list[Body | Region]
    hits: npt.NDArray[np.bool_] | None
    foes: list[Body]
    swept: npt.NDArray[np.bool_] | None

    def ok(self) -> npt.NDArray[np.bool_]:
        """Which moves break none of them."""
        ok = self.on_board.copy()
        if self.hits is not None:
            ok &= ~np.any(self.hits, axis=1)
        if self.swept is not None:
            ok &= ~np.any(self.swept, axis=1)
        return ok


def fit_check(state: T5State, body: Body, moves: Sequence[tuple[Point, int, float]]) -> Fit:
    """Check moves (at least one) against the board edges, impassable ground, other bodies'
    footprints and sweeping through an enemy (friends may be passed, as in 5e).

    Corners and bounds come from NumPy (the same numbers shapely's polygons hold); a pair is
    handed to shapely's exact test only when NumPy cannot rule it out: two footprints closer
    than :data:`TOLERANCE`, or bounds (of a region, of a sweep) closer than that."""
    width, depth = dims(body)
    rings = rect_coords(np.asarray([m[0] for m in moves], dtype=np.float64).reshape(-1, 2),
                        [m[1] for m in moves], width, depth)
    lo, hi = rings.min(axis=1), rings.max(axis=1)
    bounds = np.concatenate([lo, hi], axis=1)
    w, h = state.board.width, state.board.height
    on_board = (bounds[:, 0] >= -EPS) & (bounds[:, 1] >= -EPS)
    on_board &= (bounds[:, 2] <= w + EPS) & (bounds[:, 3] <= h + EPS)
    # Only bodies whose bounds reach those of the moves (with the body where it stands, for
    # the sweep) can overlap a move or be swept through: the others are left out.
    here_box = state.placement.box(body) or body.footprint.bounds
    box = (min(float(bounds[:, 0].min()), here_box[0]), min(float(bounds[:, 1].min()), here_box[1]),
           max(float(bounds[:, 2].max()), here_box[2]), max(float(bounds[:, 3].max()), here_box[3]))
    around = [b for b in state.placement.near_box(box, 0.0) if b is not body]
    near = around
    closed = [r for r in state.regions if r.impassable]
    blockers: list[Body | Region] = [*near, *closed]
    shapes: dict[int, Polygon] = {}

    def exact(rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp], others: Sequence[object],
              out: npt.NDArray[np.bool_], first: dict[int, Polygon] | None = None) -> None:
        """``out[r, c]``: move ``r`` (or, with ``first``, its sweep) shares area with
        ``others[c]``, by shapely, for each of the pairs given."""
        if len(rows):
            count(GEOMETRY, len(rows))
            if first is None:
                first = shapes
                new = sorted({int(r) for r in rows} - set(shapes))
                if new:
                    shapes.update(zip(new, shapely.polygons(rings[new])))
            mine = [first[int(r)] for r in rows]
            out[rows, cols] = shapely.relate_pattern(
                mine, [others[int(c)] for c in cols], "T********")

    hits = None
    if blockers:
        hits = np.zeros((len(moves), len(blockers)), dtype=bool)
        if near:
            count(GEOMETRY, len(moves) * len(near))
            theirs = np.array([state.placement.corners(b) for b in near])
            # Compiled separating-axis tests: surely apart, surely overlapping, or too close
            # to call (then shapely decides).
            table = np.empty((len(moves), len(near)), dtype=np.int8)
            _kernels.overlap_table(rings, theirs, TOLERANCE, table)
            hits[:, :len(near)] = table == 1
            rows, cols = np.nonzero(table == 2)
            exact(rows, cols, [b.footprint for b in near], hits)
        if closed:
            count(GEOMETRY, len(moves) * len(closed))
            theirs_b = np.array([r.polygon.bounds for r in closed])
            rows, cols = np.nonzero(_boxes_meet(bounds, theirs_b))
            exact(rows, cols + len(near), [*([None] * len(near)),
                                           *(r.polygon for r in closed)], hits)
    enemy = state.enemy_of(body.side)
    enemy_bodies = [b for b in around if b.side == enemy]
    swept = None
    if enemy_bodies:
        foes = [shrunk(state, e) for e in enemy_bodies]
        count(GEOMETRY, len(moves) * len(foes))
        here = np.asarray(body.footprint.exterior.coords)[:-1]
        sweep_bounds = np.concatenate([np.minimum(lo, here.min(axis=0)),
                                       np.maximum(hi, here.max(axis=0))], axis=1)
        rows, cols = np.nonzero(_boxes_meet(sweep_bounds, np.array(shapely.bounds(foes))))
        swept = np.zeros((len(moves), len(foes)), dtype=bool)
        if len(rows):
            picked = sorted({int(r) for r in rows})
            points = np.concatenate([np.broadcast_to(here, (len(picked), *here.shape)),
                                     rings[picked]], axis=1)
            hulls = dict(zip(picked, shapely.convex_hull(shapely.multipoints(points))))
            exact(rows, cols, foes, swept, first=hulls)
    return Fit(on_board, blockers, hits, enemy_bodies, swept)


def _boxes_meet(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
                ) -> npt.NDArray[np.bool_]:
    """``(m, n)``: whether bounds ``a[i]`` and ``b[j]`` (x0, y0, x1, y1) come within
    :data:`TOLERANCE` of each other (else the shapes inside share no area)."""
    apart = (a[:, None, 0] > b[None, :, 2] + TOLERANCE) | (b[None, :, 0] > a[:, None, 2] + TOLERANCE)
    apart |= (a[:, None, 1] > b[None, :, 3] + TOLERANCE) | (b[None, :, 1] > a[:, None, 3] + TOLERANCE)
    return ~apart


def shrunk(state: T5State, body: Body) -> Polygon:
    """The body's footprint 0.05 in smaller all round, what a move may not sweep through
    (worked out once per footprint: kept while the body's footprint is the same object)."""
    index = state.placement
    shape = body.footprint
    seen = index.shrunk.get(body.id)
    if seen is not None and seen[0] is shape:
        return seen[1]  # type: ignore[no-any-return]
    known: Polygon = shapely.buffer(shape, -0.05)
    index.shrunk[body.id] = (shape, known)
    return known


def fitting(ctx: Ctx, body: Body, moves: Sequence[tuple[Point, int, float]]) -> list[bool]:
    """Which moves end on the board, off impassable ground and clear of other bodies, without
    sweeping through an enemy (:func:`fit_check`)."""
    if not moves:
        return []
    return [bool(v) for v in fit_check(ctx.state, body, moves).ok()]


def closes_with(body: Body, move: tuple[Point, int, float], foe: Body) -> bool:
    """Whether ``move`` ends adjacent to ``foe``, as a Charge must (T5-MOVE-03)."""
    dest, face, _ = move
    return gap(footprint_at(body, dest, face), foe.footprint) <= ADJACENT + EPS


def gaps_within(state: T5State, body: Body, moves: Sequence[tuple[Point, int, float]],
                foes: Sequence[Body], bounds: Sequence[float]) -> list[bool]:
    """For each ``i``: whether ``body`` after ``moves[i]`` is at most ``bounds[i]`` from
    ``foes[i]`` (``gap(footprint_at(...), foe.footprint) <= bound``, exactly: NumPy decides
    where it is clear by more than :data:`TOLERANCE`, shapely where it is not)."""
    if not moves:
        return []
    width, depth = dims(body)
    rings = rect_coords(np.asarray([m[0] for m in moves], dtype=np.float64).reshape(-1, 2),
                        [m[1] for m in moves], width, depth)
    theirs = np.array([state.placement.corners(foe) for foe in foes])
    rough = pair_gaps(rings, theirs)
    limit = np.asarray(bounds, dtype=np.float64)
    out = rough <= limit
    unsure = np.nonzero(np.abs(rough - limit) <= TOLERANCE)[0]
    if len(unsure):
        count(GEOMETRY, len(unsure))
        found = shapely.distance(shapely.polygons(rings[unsure]),
                                 [foes[int(i)].footprint for i in unsure])
        out[unsure] = found <= limit[unsure]
    return [bool(v) for v in out]


def leaves_reach(shape: Polygon, threats: Sequence[Body]) -> bool:
    """Whether a body standing as ``shape`` is out of the reach of one of ``threats``: what a
    Disengage is for (T5-MOVE-02)."""
    return any(gap(shape, e.footprint) > e.reach + EPS for e in threats)


@dataclass
class MoveChoices:
    """Checked moves of one turn: within the walk, beyond it within a Dash, and Charges."""

    moves: list[tuple[Point, int, float]] = field(default_factory=list)
    dashes: list[tuple[Point, int, float]] = field(default_factory=list)
    charges: dict[str, tuple[Point, int, float]] = field(default_factory=dict)


def move_choices(ctx: Ctx, body: Body, base: float, dash: float | None,
                 charge: bool) -> MoveChoices:
    """All candidate moves of a turn, walked and checked in one batch: walks within
    ``base``, Dashes beyond it within ``dash`` (None: no Dash), and Charge moves that end
    adjacent to an enemy unit not adjacent now (T5-MOVE-03)."""
    state = ctx.state
    seen = survey(ctx, body)
    requests: list[tuple[str, Point, int | None, float, str]] = []
    for point, facing in aims(ctx, body, seen, base):
        requests.append(("move", point, facing, base, ""))
    if dash is not None:
        for point, facing in aims(ctx, body, seen, dash):
            requests.append(("dash", point, facing, dash, ""))
        if charge:
            for foe, facing, want, point in seen.approaches:
                if want == CONTACT_GAP and isinstance(foe, Unit) and \
                        not state.adjacent(body, foe):
                    requests.append(("charge", point, facing, dash, foe.id))
    walked = walk_many(state, body.centre, [r[1] for r in requests], [r[3] for r in requests])
    free = [dest for (_, _, facing, _, _), (dest, _) in zip(requests, walked) if facing is None]
    foes, measured = _nearest_by_centre(state, body, free) if free else ([], None)
    turned = iter(facings_toward(body, free, foes, measured))
    moves = []
    for (kind, _, facing, _, target), (dest, cost) in zip(requests, walked):
        face = next(turned) if facing is None else facing
        moves.append((dest, face, cost))
    good = fitting(ctx, body, moves)
    moving = [fits and distance(move[0], body.centre) >= 0.05
              for move, fits in zip(moves, good)]
    charging = [i for i, (request, ok) in enumerate(zip(requests, moving))
                if ok and request[0] == "charge"]
    closing = dict(zip(charging, gaps_within(
        state, body, [moves[i] for i in charging], [state.bodies[requests[i][4]] for i in charging],
        [ADJACENT + EPS] * len(charging))))
    out = MoveChoices()
    keys: set[tuple[str, str, int]] = set()
    for i, ((kind, _, _, _, target), move, ok) in enumerate(zip(requests, moves, moving)):
        dest, face, cost = move
        if not ok:
            continue
        if kind == "charge":
            if target not in out.charges and closing[i]:
                out.charges[target] = move
            continue
        if kind == "dash" and cost <= base + EPS:
            continue
        key = (kind, point_text(dest), face)
        if key not in keys:
            keys.add(key)
            (out.moves if kind == "move" else out.dashes).append(move)
    return out


def move_options(ctx: Ctx, body: Body, plan: Plan) -> tuple[list[Order], Order,
                                                            dict[str, tuple[Point, int, float]]]:
    """The ``move`` decision's options, its default and the Charge moves by target
    (T5-DEC-12, T5-DEC-13)."""
    state = ctx.state
    speed = speed_inches(body)
    base = speed * (2 if plan.mount_dash else 1)
    can_dash = not plan.mount_dash and speed > 0
    can_charge = can_dash and isinstance(body, Unit) and body.members > 0 and any(
        a.kind == "melee" for a in body.member.attacks)
    found = move_choices(ctx, body, base, 2 * speed if can_dash else None, can_charge) \
        if speed > 0 else MoveChoices()
    options = [HOLD]
    options += [Order.of("move", point_text(p), f) for p, f, _ in found.moves]
    options += [Order.of("dash", point_text(p), f) for p, f, _ in found.dashes]
    engaged = state.in_melee(body)
    if engaged and not body.disengaged:
        threats = state.engaged_with(body)
        pairs = [(move, e) for move in found.moves for e in threats]
        held = gaps_within(state, body, [m for m, _ in pairs], [e for _, e in pairs],
                           [e.reach + EPS for _, e in pairs])
        for row, (p, f, _) in enumerate(found.moves):
            # leaves_reach: out of the reach of one of the threats
            if not all(held[row * len(threats):(row + 1) * len(threats)]):
                options.append(Order.of("disengage", point_text(p), f))
    options += [Order.of("charge", foe_id) for foe_id in found.charges]
    default = HOLD
    if found.charges:
        default = Order.of("charge", next(iter(found.charges)))
    elif not engaged and found.moves:
        foes = nearest_enemies(state, body, 1)
        if foes:
            near = [o for o in options if o.kind == "move"]
            target = foes[0].centre
            default = min(near, key=lambda o: (distance(parse_point(o.args[0]), target),
                                               str(o)))
    return options, default, found.charges


def movement_step(ctx: Ctx, body: Body, plan: Plan) -> None:
    """Ask for and make the body's move (T5-DEC-12; Dash, Disengage and Charge use the
    action, T5-MOVE-03). The footprint centre moves; facing is set at the end (T5-AMB-09)."""
    options, default, charges = move_options(ctx, body, plan)
    order = ctx.ask(body.side, "move", options, subject=body.id, default=default,
                    prompt=f"how {body.name} moves (or move X,Y FACING to any point)",
                    accept=MoveJudge(ctx, body, plan, options, charges))
    if order.kind == "hold":
        return
    state = ctx.state
    if order.kind == "charge":
        target = str(order.args[0])
        dest, facing, cost = charges[target]
        plan.action_used = True
        plan.charge = target
        make_move(ctx, body, dest, facing, cost, "charge")
        if state.options.engagement_model == "declared" and body.on_table:
            state.declared.add(frozenset((body.id, target)))
        return
    dest = parse_point(order.args[0])
    facing = int(order.args[1])
    if order.kind in ("dash", "disengage"):
        plan.action_used = True
    if order.kind == "disengage":
        body.disengaged = True
    cost = _cost(state, body.centre, dest)
    make_move(ctx, body, dest, facing, cost, order.kind)


def _cost(state: T5State, start: Point, dest: Point) -> float:
    _, cost = walk(state, start, dest, math.inf)
    return cost


# --------------------------------------------------------------------------- moves to any point


MOVE_WORDS = {"move": "", "dash": " with a Dash", "disengage": " when it Disengages"}
"""The order words of moves to a point, and how their limit is said."""


@dataclass(eq=False)
class MoveJudge:
    """The ``move`` decision is open (T5-DEC-12): this judges an order beyond the listed ones.

    ``move``, ``dash`` or ``disengage X,Y FACING`` goes to any point, facing any way
    (T5-AMB-09), if it obeys every rule the listed moves obey (:func:`move_problem`); a
    ``charge`` may name any enemy unit a straight Dash brings adjacent. The answer is the legal
    order (carried out exactly as a listed one), a :class:`Refusal` with the rule and the
    numbers, or None for an order that is no move at all.
    """

    ctx: Ctx
    body: Body
    plan: Plan
    options: Sequence[Order]
    charges: dict[str, tuple[Point, int, float]]

    def __call__(self, order: Order) -> Order | Refusal | None:
        if order.kind in MOVE_WORDS:
            return self.to_point(order)
        if order.kind == "charge":
            return self.charge(order)
        if order.kind == "hold":
            return Refusal("hold takes no arguments", "T5-DEC-12")
        return None

    def to_point(self, order: Order) -> Order | Refusal:
        """A move, Dash or Disengage to the point and facing the order names."""
        kind, args = order.kind, order.args
        point = read_point(args[0]) if len(args) == 2 and isinstance(args[1], int) else None
        if point is None:
            return Refusal(f"{kind} needs x,y and a facing in whole degrees, as in "
                           f"'{kind} 7.0,8.0 90'", "T5-DEC-12")
        facing = int(args[1]) % 360
        legal = Order.of(kind, point_word(point), facing)
        for option in self.options:
            if option == legal:
                return option
        problem = move_problem(self.ctx.state, self.body, self.plan, kind, point, facing)
        return legal if problem is None else problem

    def charge(self, order: Order) -> Order | Refusal:
        """A Charge at an enemy unit not among the listed ones (T5-MOVE-03)."""
        state, body = self.ctx.state, self.body
        if len(order.args) != 1:
            return Refusal("charge needs the id of the enemy unit, as in 'charge b-orcs'",
                           "T5-MOVE-03")
        foe = state.bodies.get(str(order.args[0]))
        if foe is None or not foe.on_table:
            return no_such_body(state, str(order.args[0]), "T5-MOVE-03")
        problem = charge_problem(state, body, self.plan, foe)
        if problem is not None:
            return problem
        speed = speed_inches(body)
        facing = approach_facing(body, foe)
        point = approach_point(state, body, foe, facing, CONTACT_GAP)
        if point is None:  # pragma: no cover - closer than contact means adjacent
            return Refusal(f"{body.id} is already adjacent to {foe.id}", "T5-MOVE-03")
        dest, cost = walk(state, body.centre, point, 2 * speed)
        move = (dest, facing, cost)
        if fitting(self.ctx, body, [move])[0] and distance(dest, body.centre) >= 0.05 and \
                closes_with(body, move, foe):
            self.charges[foe.id] = move
            return Order.of("charge", foe.id)
        return place_problem(state, body, point, facing, 2 * speed, " with a Dash") or Refusal(
            f"no straight Dash brings {body.id} adjacent to {foe.id}", "T5-MOVE-03")


def charge_problem(state: T5State, body: Body, plan: Plan, foe: Body) -> Refusal | None:
    """Why ``body`` may not Charge ``foe`` at all this turn (T5-MOVE-03), or None: reach is
    judged by the straight Dash that follows."""
    if not isinstance(body, Unit):
        return Refusal("only a unit charges; a Single Character moves, then attacks",
                       "T5-MOVE-03")
    if body.members <= 0 or not any(a.kind == "melee" for a in body.member.attacks):
        return Refusal(f"{body.id} has no members with a melee attack to charge with",
                       "T5-MOVE-03")
    if speed_inches(body) <= 0:
        return Refusal(f"{body.id} has speed 0 and cannot move", "T5-ROUND-12")
    if plan.mount_dash:
        return Refusal("a Charge is the riders' Dash, which does not add to the mounts' Dash "
                       "already taken", "T5-AMB-29")
    if foe.side == body.side:
        return Refusal(f"{foe.id} is not an enemy", "T5-MOVE-03")
    if not isinstance(foe, Unit):
        return Refusal(f"{foe.id} is a Single Character; a Charge ends adjacent to an enemy "
                       "unit", "T5-MOVE-03")
    if state.adjacent(body, foe):
        return Refusal(f"{body.id} is already adjacent to {foe.id}: a Charge is a Dash that "
                       "ends adjacent, so attack it with the action instead", "T5-MOVE-03")
    return None


def move_problem(state: T5State, body: Body, plan: Plan, kind: str, point: Point,
                 facing: int) -> Refusal | None:
    """Why ``body`` may not make a ``kind`` move ('move', 'dash' or 'disengage') to ``point``
    facing ``facing`` this turn, or None when it may: the speed (doubled by a Dash or the
    mounts' Dash), Dash and Disengage being available, then :func:`place_problem`; a
    Disengage must leave an engaged enemy's reach. Leaving reach without Disengage is legal:
    it provokes (T5-MOVE-02)."""
    speed = speed_inches(body)
    if speed <= 0:
        return Refusal(f"{body.id} has speed 0 and cannot move", "T5-ROUND-12")
    budget = speed * (2 if plan.mount_dash else 1)
    threats: list[Body] = []
    if kind == "dash":
        if plan.mount_dash:
            return Refusal("its mounts' Dash already doubles the move and the riders' Dash "
                           "does not add to it: order move", "T5-AMB-29")
        budget = 2 * speed
    elif kind == "disengage":
        threats = state.engaged_with(body)
        if not threats:
            return Refusal(f"{body.id} is engaged with no enemy: there is nothing to "
                           "disengage from", "T5-MOVE-02")
        if body.disengaged:
            return Refusal("its mounts' Disengage already covers this move: order move",
                           "T5-MOUNT-01")
    way = MOVE_WORDS[kind] + (" (its mounts' Dash doubles it)" if plan.mount_dash else "")
    problem = place_problem(state, body, point, facing, budget, way)
    if problem is not None:
        return problem
    if threats and not leaves_reach(footprint_at(body, point, facing), threats):
        near = ", ".join(e.id for e in threats)
        return Refusal(f"at {point_word(point)} {body.id} is still within reach of {near}; "
                       "Disengage is for a move that leaves an engaged enemy's reach",
                       "T5-MOVE-02")
    return None


def place_problem(state: T5State, body: Body, point: Point, facing: int, budget: float,
                  way: str = "") -> Refusal | None:
    """Why a straight move of ``body`` to ``point`` facing ``facing`` within ``budget`` inches
    (moving ``way``, as " with a Dash") breaks a rule, or None: the table edge, impassable
    ground on the way (T5-TERRAIN-01), the cost with difficult terrain counted double
    (T5-ROUND-12, T5-TERRAIN-09), and the checks of :func:`fit_check` (other bodies,
    sweeping through an enemy)."""
    start = body.centre
    where = point_word(point)
    fit = fit_check(state, body, [(point, facing, 0.0)])
    if not fit.on_board[0]:
        edges = edges_crossed(state.board, footprint_at(body, point, facing), EPS)
        return Refusal(f"at {where} facing {facing} {body.id} would reach past the "
                       f"{' and '.join(edges) or 'board'} edge of the table; only a flight "
                       "leaves the table", "T5-FLEE-02")
    reached, cost = walk(state, start, point, math.inf)
    if distance(reached, point) > EPS:
        blocked = [r.name for r in state.regions
                   if r.impassable and path_cost([start, point], [r]) == math.inf]
        return Refusal(f"the straight way from {point_text(start)} to {where} enters "
                       f"impassable {' and '.join(blocked)} at {point_text(reached)}",
                       "T5-TERRAIN-01")
    if cost > budget + EPS:
        terrain = " (difficult terrain counts double)" if cost > \
            distance(start, point) + EPS else ""
        return Refusal(f"{where} is {inches(cost)} in of movement away{terrain}; {body.id} "
                       f"moves at most {inches(budget)} in{way}", "T5-ROUND-12")
    if fit.hits is not None:
        for blocker, hit in zip(fit.blockers, fit.hits[0]):
            if not hit:
                continue
            if isinstance(blocker, Region):
                return Refusal(f"at {where} {body.id} would stand on impassable "
                               f"{blocker.name}", "T5-TERRAIN-01")
            return Refusal(f"at {where} facing {facing} {body.id} would overlap "
                           f"{blocker.id}; bodies may pass friends but not end in another's "
                           "space", "T5-GEN-02")
    if fit.swept is not None:
        for foe, hit in zip(fit.foes, fit.swept[0]):
            if hit:
                return Refusal(f"the way to {where} passes through the enemy {foe.id}",
                               "T5-GEN-02")
    return None


def make_move(ctx: Ctx, body: Body, dest: Point, facing: float, cost: float, kind: str) -> None:
    """Move the footprint centre to ``dest`` and face ``facing``: attacks of opportunity first
    (T5-MOVE-02, T5-AMB-11), then the move, then what depends on position: the Ruins cover
    (T5-AMB-02), duels (T5-AMB-14) and declared engagements (T5-AMB-10). Emits ``move``."""
    state = ctx.state
    start = body.centre
    if not body.disengaged:
        shape = footprint_at(body, dest, facing)
        near = state.placement.near(body, state.placement.reach + EPS,
                                    state.enemy_of(body.side)) if body.on_table \
            else state.active(state.enemy_of(body.side))
        provokers = [e for e in near
                     if state.gap(body, e) <= e.reach + EPS
                     and gap(shape, e.footprint) > e.reach + EPS]
        for enemy in provokers:
            if not body.on_table:
                return
            opportunity(ctx, enemy, body)
        if not body.on_table:
            return
    body.centre = (float(dest[0]), float(dest[1]))
    body.facing = float(facing)
    ctx.emit("move", body=body.id, kind=kind, cost=round(cost, 3), facing=body.facing,
             **{"from": [round(start[0], 3), round(start[1], 3)],
                "to": [round(dest[0], 3), round(dest[1], 3)]})
    if body.three_quarter_cover and not inside_ruins(state, body):
        body.three_quarter_cover = False
    after_movement(ctx, body)


def after_movement(ctx: Ctx, mover: Body | None = None) -> None:
    """What any movement settles: duels whose units separated end (T5-AMB-14) and declared
    engagements are dropped or asked for (T5-AMB-10). Other modules call this after their
    own moves (flight, follow-through)."""
    state = ctx.state
    declared = state.options.engagement_model == "declared"
    if declared:
        drop_declared(state)
    for body in list(state.bodies.values()):
        opponent = character_of(body).duel
        if opponent is None or not body.on_table:
            continue
        other = state.bodies.get(opponent)
        if other is not None and other.on_table and not state.engaged(body, other):
            combat.end_duel(ctx, body, "separated")
    if declared and mover is not None and mover.on_table:
        declare_engagements(ctx, mover)


def declare_limit(a: Body, b: Body) -> float:
    """How far apart two bodies may be declared engaged (T5-AMB-10)."""
    return max(a.reach, b.reach) + DECLARE_MARGIN


def drop_declared(state: T5State) -> None:
    """Forget declared engagements of bodies gone or too far apart."""
    for pair in list(state.declared):
        a, b = (state.bodies[i] for i in sorted(pair))
        if not a.on_table or not b.on_table or state.gap(a, b) > \
                declare_limit(a, b) + EPS:
            state.declared.discard(pair)


def declare_engagements(ctx: Ctx, mover: Body) -> None:
    """After moving, the mover's side says which nearby enemies it engages (``engage``)."""
    state = ctx.state
    for enemy in state.active(state.enemy_of(mover.side)):
        pair = frozenset((mover.id, enemy.id))
        spread = state.gap(mover, enemy)
        if pair in state.declared or spread > declare_limit(mover, enemy) + EPS:
            continue
        engage = Order.of("engage", enemy.id)
        within = spread <= max(mover.reach, enemy.reach) + EPS
        order = ctx.ask(mover.side, "engage", [engage, NONE], subject=mover.id,
                        prompt=f"does {mover.name} engage {enemy.name}?",
                        default=engage if within else NONE, enemy=enemy.id)
        if order.kind == "engage":
            state.declared.add(pair)
            ctx.emit("engage", body=mover.id, enemy=enemy.id)


# --------------------------------------------------------------------------- reactions


def may_attack(state: T5State, attacker: Body, target: Body, *, commander: bool) -> bool:
    """Duel limits (T5-DUEL-02, T5-SINGLE-07): a dueling character attacks only its opponent,
    and a dueling Single Character is attacked only by its opponent's commander."""
    own = character_of(attacker)
    if (commander or isinstance(attacker, Single)) and own.duel is not None:
        return own.duel == target.id
    if isinstance(target, Single) and target.character.duel is not None:
        return (commander or isinstance(attacker, Single)) and target.character.duel == \
            attacker.id
    return True


def melee_attacks(stats: StatBlock) -> list[AttackSpec]:
    """A stat block's melee attacks."""
    return [a for a in stats.attacks if a.kind == "melee"]


def opportunity(ctx: Ctx, enemy: Body, mover: Body) -> None:
    """``mover`` leaves ``enemy``'s reach without Disengage (T5-MOVE-02, T5-AMB-11): the
    enemy unit may spend its reaction on one melee resolution, and its commander (or the enemy
    Single Character) on one attack with a chosen melee attack (T5-DEC-16)."""
    state = ctx.state
    if not combat.targetable(mover):
        return  # a unit down to its commander offers nothing to strike (T5-COMMANDER-03)
    spread = state.gap(enemy, mover)
    if isinstance(enemy, Unit) and not enemy.reaction_used and enemy.members > 0 \
            and melee_attacks(enemy.member) and may_attack(state, enemy, mover, commander=False):
        yes = Order("opportunity")
        order = ctx.ask(enemy.side, "reaction", [yes, NONE], subject=enemy.id,
                        prompt=f"{enemy.name}: attack {mover.name} as it leaves?",
                        default=yes, mover=mover.id)
        if order.kind == "opportunity":
            combat.opportunity_attack(ctx, enemy, mover, commander_too=False)
            enemy.reaction_used = True
    character = character_of(enemy)
    if not mover.on_table or not can_act(character) or character.reaction_used:
        return
    if character.duel is not None or not may_attack(state, enemy, mover, commander=True):
        return  # a dueling character attacks only in its duel (T5-DUEL-02)
    attacks = [a for a in melee_attacks(character.stats) if feet(a.reach) + EPS >= spread]
    if not attacks:
        return
    options = [Order.of("opportunity", word(a.name)) for a in attacks]
    order = ctx.ask(enemy.side, "reaction", [*options, NONE], subject=enemy.id,
                    prompt=f"{character.name}: attack {mover.name} as it leaves?",
                    default=options[0], mover=mover.id, commander=True)
    if order.kind == "opportunity":
        attack = _by_word(attacks, str(order.args[0]))
        character.reaction_used = True
        combat.commander_attack(ctx, enemy, mover, attack, opportunity=True)


def _by_word(items: Iterable[AttackSpec], name: str) -> AttackSpec:
    for item in items:
        if word(item.name) == name:
            return item
    raise KeyError(name)


# --------------------------------------------------------------------------- duels


def callout_targets(ctx: Ctx, body: Body) -> list[Body]:
    """Enemy bodies whose character ``body``'s character may call out now (T5-DUEL-01,
    T5-DUEL-04, T5-AMB-13, T5-SINGLE-07): both alive and not dueling, one call-out per own
    turn, and the two bodies engaged. A unit's commander may call out the commander of an
    engaged enemy unit or an engaged Single Character; a Single only a unit's commander."""
    state = ctx.state
    if callout_problem(body) is not None:
        return []
    return [enemy for enemy in state.engaged_with(body) if _partner_problem(body, enemy) is None]


def callout_problem(body: Body) -> Refusal | None:
    """Why ``body``'s character may call out nobody now, or None (T5-AMB-13, T5-DUEL-04)."""
    own = character_of(body)
    if not can_act(own):
        return Refusal(f"{own.name} cannot act", "T5-AMB-13")
    if own.duel is not None:
        return Refusal(f"{own.name} is already dueling", "T5-DUEL-04")
    if own.called_out_this_turn:
        return Refusal(f"{own.name} has already called out an enemy this turn", "T5-AMB-13")
    return None


def why_not_callout(state: T5State, body: Body, enemy: Body) -> Refusal | None:
    """Why ``body``'s character may not call out ``enemy``'s now, or None (T5-DUEL-01,
    T5-AMB-13, T5-SINGLE-07)."""
    problem = callout_problem(body)
    if problem is not None:
        return problem
    if enemy.side == body.side or not enemy.on_table:
        return Refusal(f"{enemy.id} is not an enemy on the table", "T5-DUEL-01")
    if not state.engaged(body, enemy):
        return Refusal(f"{body.id} is not engaged with {enemy.id}", "T5-DUEL-01")
    return _partner_problem(body, enemy)


def _partner_problem(body: Body, enemy: Body) -> Refusal | None:
    if isinstance(body, Single) and isinstance(enemy, Single):
        return Refusal("two Single Characters do not duel each other", "T5-SINGLE-07")
    if not combat.can_duel(character_of(enemy)):
        return Refusal(f"{character_of(enemy).name} cannot act or is already dueling",
                       "T5-AMB-13")
    return None


def callout_step(ctx: Ctx, body: Body) -> None:
    """The free call-out (T5-DEC-07, T5-DEC-09) and the answer (T5-DEC-08): accepted, the two
    characters duel; declined, the called-out unit loses 1 rank (T5-DUEL-03). A Single
    Character has no rank, so its refusal costs nothing."""
    targets = callout_targets(ctx, body)
    if not targets:
        return
    options = [NONE, *(Order.of("callout", t.id) for t in targets)]
    order = ctx.ask(body.side, "callout", options, subject=body.id,
                    prompt=f"does {character_of(body).name} call out an enemy commander?",
                    default=NONE)
    if order.kind != "callout":
        return
    target = ctx.state.bodies[str(order.args[0])]
    callout(ctx, body, target)


def callout(ctx: Ctx, caller: Body, target: Body) -> bool:
    """``caller``'s character calls out ``target``'s; True if a duel begins."""
    mine, theirs = character_of(caller), character_of(target)
    mine.called_out_this_turn = True
    ctx.emit("duel_called", caller=caller.id, target=target.id, challenger=mine.name,
             challenged=theirs.name)
    accept = Order("accept")
    order = ctx.ask(target.side, "duel", [accept, Order("decline")], subject=target.id,
                    prompt=f"{mine.name} calls out {theirs.name}: accept?", default=accept,
                    caller=caller.id)
    if order.kind == "accept":
        combat.start_duel(ctx, caller, target)
        return True
    ctx.emit("duel_declined", caller=caller.id, target=target.id)
    if isinstance(target, Unit):
        ctx.change_rank(target, -1, "declined a duel")
    return False


# --------------------------------------------------------------------------- commanders and Singles


def encourage(ctx: Ctx, unit: Unit, skill: str, *, bonus: bool) -> bool:
    """The commander's check to encourage its unit (T5-ENCOURAGE-01..04, T5-AMB-15): d20 plus
    the skill, no automatic result on 1 or 20; DC 12 as an action (success +1 rank), DC 15 as a
    bonus action (success +1, failure -1)."""
    stats = unit.commander.stats
    roll = ctx.d20("encourage", unit=unit.id, skill=skill)
    modifier = int(stats.skills.get(skill, 0))  # type: ignore[call-overload]
    total = roll + modifier
    dc = BONUS_DC if bonus else ACTION_DC
    success = total >= dc
    ctx.emit("encourage", unit=unit.id, skill=skill, roll=roll, modifier=modifier, total=total,
             dc=dc, success=success, action="bonus" if bonus else "action")
    if success:
        ctx.change_rank(unit, 1, "encouraged")
    elif bonus:
        ctx.change_rank(unit, -1, "failed encouragement")
    return success


def best_skill(stats: StatBlock) -> str:
    """The commander's best of Persuasion, Insight and History (T5-AMB-15)."""
    return max(SKILLS, key=lambda s: (stats.skills.get(s, 0), -SKILLS.index(s)))  # type: ignore[call-overload]


def heal_targets(ctx: Ctx, body: Body, heal: HealSpec) -> list[Body]:
    """Friendly bodies within range that have something to heal (:func:`why_not_heal`)."""
    state = ctx.state
    return [friend for friend in state.active(body.side)
            if why_not_heal(state, body, heal, friend) is None]


def why_not_heal(state: T5State, body: Body, heal: HealSpec, friend: Body) -> Refusal | None:
    """Why ``heal`` of ``body``'s character cannot be used on ``friend`` now, or None: a
    friendly body within range with something to heal, pooled damage for a unit (T5-AMB-39)
    or lost hit points for a Single Character."""
    if friend.side != body.side or not friend.on_table:
        return Refusal(f"{friend.id} is not a friendly body on the table", "T5-DEC-11")
    spread = state.gap(body, friend)
    if spread > feet(heal.range) + EPS:
        return Refusal(f"{friend.id} is {spread * 10:.0f} ft away, beyond {heal.name}'s "
                       f"{heal.range} ft", "T5-GEN-02")
    if isinstance(friend, Unit):
        if state.options.unit_healing == "disabled":
            return Refusal("healing a unit has no effect (option unit_healing: disabled)",
                           "T5-AMB-39")
        if friend.tdr <= 0:
            return Refusal(f"{friend.id} has received no damage this round to heal",
                           "T5-AMB-39")
    elif friend.character.hp >= friend.stats.hp:
        return Refusal(f"{friend.id} has all its hit points", "T5-GEN-02")
    return None


def heals_left(character: Character, heal: HealSpec) -> bool:
    """Whether a healing ability has a use left."""
    return heal.uses is None or character.uses.get(heal.name, heal.uses) > 0


def character_options(ctx: Ctx, body: Body, *, bonus: bool) -> tuple[list[Order], Order]:
    """Bonus-action (T5-DEC-10) or action (T5-DEC-11) options of a unit's commander or of a
    Single Character, and the default: encouragement (commanders; the best skill first,
    T5-AMB-15), the Ruins cover (T5-TERRAIN-04, T5-COMMANDER-02), attacks (only the duel
    opponent while dueling, T5-DUEL-02), areas, heals, and a Single Character's Dodge."""
    state = ctx.state
    character = character_of(body)
    stats = character.stats
    options = [NONE]
    default = NONE
    slot = "bonus" if bonus else "action"
    by_commander = isinstance(body, Unit)
    if isinstance(body, Unit):
        skill = best_skill(stats)
        encourage_orders = [Order.of("encourage", s) for s in
                            sorted(SKILLS, key=lambda s: s != skill)]
        options += encourage_orders
        if not bonus:
            default = encourage_orders[0]
    if bonus and inside_ruins(state, body) and not body.three_quarter_cover:
        options.append(Order("cover"))
    if not bonus:
        attacks = [Order.of("attack", word(attack.name), target.id)
                   for attack in stats.attacks
                   for target in combat.commander_targets(ctx, body, attack)]
        options += attacks
        if attacks and (character.duel is not None or isinstance(body, Single)):
            default = attacks[0]
    for area in stats.areas:
        if area.action == slot and combat.area_uses_left(body, area.name,
                                                         by_commander) != 0:
            options += [Order.of("area", word(area.name), t.id) for t in
                        combat.area_targets(ctx, body, area.name, by_commander=by_commander)]
    for heal in stats.heals:
        if heal.action == slot and heals_left(character, heal):
            options += [Order.of("heal", word(heal.name), t.id)
                        for t in heal_targets(ctx, body, heal)]
    if not bonus and isinstance(body, Single):
        options.append(Order("dodge"))
    return options, default


def character_step(ctx: Ctx, body: Body, *, bonus: bool) -> None:
    """Ask for and carry out a commander's or Single Character's bonus action or action
    (``commander_bonus`` / ``commander_action``)."""
    if not body.on_table or not can_act(character_of(body)):
        return
    options, default = character_options(ctx, body, bonus=bonus)
    kind = "commander_bonus" if bonus else "commander_action"
    order = ctx.ask(body.side, kind, options, subject=body.id, default=default,
                    prompt=f"{'bonus action' if bonus else 'action'} of "
                           f"{character_of(body).name}")
    do_character_order(ctx, body, order, bonus=bonus)


def do_character_order(ctx: Ctx, body: Body, order: Order, *, bonus: bool) -> None:
    """Carry out one ``commander_bonus`` / ``commander_action`` order. An attack named in the
    stat block's Multiattack makes the whole Multiattack (:func:`combat.commander_attack_action`,
    T5-CMDATK-01..04)."""
    state = ctx.state
    stats = character_of(body).stats
    if order.kind == "none":
        return
    if order.kind == "encourage":
        assert isinstance(body, Unit)
        encourage(ctx, body, str(order.args[0]), bonus=bonus)
    elif order.kind == "cover":
        body.three_quarter_cover = True
        ctx.emit("cover", body=body.id, by="commander" if isinstance(body, Unit) else body.id)
    elif order.kind == "dodge":
        body.dodging = True
        ctx.emit("dodge", body=body.id)
    elif order.kind == "attack":
        attack = _by_word(stats.attacks, str(order.args[0]))
        combat.commander_attack_action(ctx, body, state.bodies[str(order.args[1])],
                                       attack.name)
    elif order.kind == "area":
        area = next(a for a in stats.areas if word(a.name) == order.args[0])
        combat.area_effect(ctx, body, area.name, state.bodies[str(order.args[1])],
                           by_commander=isinstance(body, Unit))
    elif order.kind == "heal":
        heal = next(h for h in stats.heals if word(h.name) == order.args[0])
        combat.heal(ctx, body, heal.name, state.bodies[str(order.args[1])])


# --------------------------------------------------------------------------- the unit's own actions


def unit_bonus_step(ctx: Ctx, unit: Unit) -> None:
    """The unit's bonus action (T5-DEC-14): the Ruins three-quarters cover (T5-TERRAIN-04)."""
    if not inside_ruins(ctx.state, unit) or unit.three_quarter_cover:
        return
    cover = Order("cover")
    order = ctx.ask(unit.side, "unit_bonus", [NONE, cover], subject=unit.id, default=cover,
                    prompt=f"bonus action of {unit.name}")
    if order.kind == "cover":
        unit.three_quarter_cover = True
        ctx.emit("cover", body=unit.id, by="unit")


def unit_action_options(ctx: Ctx, unit: Unit) -> tuple[list[Order], Order]:
    """The unit's action (T5-DEC-13): Attack, a unit area ability, Dodge or nothing."""
    options = [NONE, Order("dodge")]
    attacks: list[Order] = []
    if unit.members > 0:
        kinds = {a.kind for a in unit.member.attacks}
        for kind in ("melee", "ranged"):
            if kind in kinds:
                attacks += [Order.of("attack", kind, t.id)
                            for t in combat.legal_targets(ctx, unit, kind)]
        for area in unit.member.areas:
            if area.action == "action" and combat.area_uses_left(unit, area.name,
                                                                 False) != 0:
                attacks += [Order.of("area", word(area.name), t.id) for t in
                            combat.area_targets(ctx, unit, area.name, by_commander=False)]
    options += attacks
    return options, attacks[0] if attacks else NONE


def unit_action_step(ctx: Ctx, unit: Unit, plan: Plan) -> None:
    """The unit's action: a Charge's Attack against the unit it closed with (T5-MOVE-03,
    T5-MOVE-04, T5-AMB-12), nothing after a Dash or Disengage, else the chosen action."""
    state = ctx.state
    if plan.charge is not None:
        target = state.bodies[plan.charge]
        if unit.members > 0 and target.on_table and state.adjacent(unit, target) and \
                target in combat.legal_targets(ctx, unit, "melee"):
            combat.unit_attack_action(ctx, unit, target, "melee", charge=True)
        return
    if plan.action_used:
        return
    options, default = unit_action_options(ctx, unit)
    order = ctx.ask(unit.side, "unit_action", options, subject=unit.id, default=default,
                    prompt=f"action of {unit.name}")
    if order.kind == "dodge":
        unit.dodging = True
        ctx.emit("dodge", body=unit.id)
    elif order.kind == "attack":
        target = state.bodies[str(order.args[1])]
        combat.unit_attack_action(ctx, unit, target, str(order.args[0]))
    elif order.kind == "area":
        area = next(a for a in unit.member.areas if word(a.name) == order.args[0])
        combat.area_effect(ctx, unit, area.name, state.bodies[str(order.args[1])],
                           by_commander=False)
