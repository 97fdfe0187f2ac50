"""Continuous table geometry in inches, for rule systems played without a grid.

Conventions:

* Lengths are inches on the table: 1 inch stands for 10 feet, so a 5-foot square is 0.5 inch.
* ``x`` grows east and ``y`` grows north; the origin is the south-west corner of the board.
* A *bearing* (and a unit's *facing*) is a compass bearing in degrees: 0 north, 90 east,
  180 south, 270 west. Bearings that are multiples of 90 use exact sines and cosines, so
  axis-aligned layouts have exact coordinates.
* Shapes are shapely 2 geometries; "inside" means *covered* (inside or on the boundary)
  unless a function says otherwise.

Movement follows D&D 5e difficult terrain: every inch walked inside a difficult region costs
two inches of movement (overlapping difficult regions still cost double, not more), and no
path may enter the interior of an impassable region. Costs are exact: each straight segment is
cut where it crosses region boundaries, never sampled.

Example:
    >>> board = Board(48, 36)
    >>> nearest_edge(board, (3.0, 20.0))
    'west'
    >>> wood = Region.rect("Old wood", "forest", 3, -1, 4, 2, difficult=True)
    >>> path_cost([(0.0, 0.0), (10.0, 0.0)], [wood])
    14.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon, box
from shapely.geometry import Point as ShapelyPoint

Point: TypeAlias = tuple[float, float]
"""A point on the table, in inches ``(x, y)``."""

EDGES: tuple[str, ...] = ("north", "east", "south", "west")
"""The board edges, in the order ties are broken."""

_EDGE_BEARINGS = {"north": 0.0, "east": 90.0, "south": 180.0, "west": 270.0}
_TIE = 1e-9
_EXACT_UNITS = {0.0: (0.0, 1.0), 90.0: (1.0, 0.0), 180.0: (0.0, -1.0), 270.0: (-1.0, 0.0)}
_CIRCLE_QUAD_SEGS = 32

__all__ = [
    "EDGES",
    "Board",
    "Formation",
    "Point",
    "ARCS",
    "ARC_REACH",
    "Region",
    "Tray",
    "along",
    "away",
    "bearing",
    "cone",
    "count_covered",
    "cube",
    "distance",
    "edge_bearing",
    "edges_crossed",
    "formation",
    "gap",
    "inches",
    "line",
    "nearest_edge",
    "offset",
    "path_cost",
    "point_word",
    "read_point",
    "single_footprint",
    "sphere",
    "toward",
    "translate_to",
    "travel",
    "arc_polygon",
    "arc_shares",
    "clear_sight",
    "cover_by_majority",
    "line_clear",
    "majority_arc",
    "sees",
    "tray_gap",
    "trays_overlap",
]


# --------------------------------------------------------------------------- bearings and points


def _normal(deg: float) -> float:
    """``deg`` folded into ``[0, 360)``."""
    d = deg % 360.0
    return 0.0 if d >= 360.0 else d  # a tiny negative input folds to 360.0 in floating point


def _unit(deg: float) -> tuple[float, float]:
    """The unit vector ``(east, north)`` of a bearing; exact on the four compass points."""
    d = _normal(deg)
    exact = _EXACT_UNITS.get(d)
    if exact is not None:
        return exact
    r = math.radians(d)
    return math.sin(r), math.cos(r)


def bearing(a: Point, b: Point) -> float:
    """Compass bearing in ``[0, 360)`` from ``a`` to ``b`` (0 when the points coincide).

    Example:
        >>> bearing((0.0, 0.0), (-1.0, 0.0))
        270.0
    """
    return _normal(math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])))


def offset(p: Point, bearing_deg: float, distance: float) -> Point:
    """The point ``distance`` inches from ``p`` along ``bearing_deg``.

    Example:
        >>> offset((1.0, 1.0), 90, 2.5)
        (3.5, 1.0)
    """
    ux, uy = _unit(bearing_deg)
    return p[0] + ux * distance, p[1] + uy * distance


def distance(a: Point, b: Point) -> float:
    """Straight-line distance between two points, in inches."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def gap(a: Any, b: Any) -> float:
    """Closest distance between two shapely shapes (0 when they touch or overlap)."""
    return float(a.distance(b))


def point_word(point: Point) -> str:
    """A point as one order word ``x,y``: one decimal where that is exact, else every digit
    needed to read the same floats back (:func:`read_point`).

    Example:
        >>> point_word((7.0, 8.25)), read_point(point_word((7.0, 8.25)))
        ('7.0,8.25', (7.0, 8.25))
    """
    return ",".join(_coordinate_word(float(v)) for v in point)


def _coordinate_word(value: float) -> str:
    short = f"{value:.1f}"
    return short if float(short) == value else repr(value)


def inches(value: float) -> str:
    """A length in inches for messages, to two decimals at most.

    Example:
        >>> inches(3.0), inches(4.6), inches(4.555)
        ('3', '4.6', '4.55')
    """
    return f"{value:.2f}".rstrip("0").rstrip(".")


def read_point(text: object) -> Point | None:
    """The point an order word ``x,y`` names (inches), or None when it names none: two finite
    numbers separated by one comma.

    Example:
        >>> read_point("7,8.5"), read_point("7;8"), read_point("nan,1")
        ((7.0, 8.5), None, None)
    """
    parts = str(text).split(",")
    if len(parts) != 2:
        return None
    try:
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    return x, y


# --------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class Board:
    """A rectangular table ``width`` x ``height`` inches with its south-west corner at (0, 0)."""

    width: float
    height: float

    @property
    def polygon(self) -> Polygon:
        """The board as a shapely rectangle."""
        return box(0.0, 0.0, self.width, self.height)

    def edge_distances(self, point: Point) -> dict[str, float]:
        """Distance from ``point`` to each edge line, keyed by edge name in :data:`EDGES` order.

        Example:
            >>> Board(48, 36).edge_distances((10.0, 30.0))
            {'north': 6.0, 'east': 38.0, 'south': 30.0, 'west': 10.0}
        """
        x, y = float(point[0]), float(point[1])
        return {"north": self.height - y, "east": self.width - x, "south": y, "west": x}

    def contains(self, shape: Any) -> bool:
        """True when ``shape`` lies wholly on the board (touching an edge counts as on it)."""
        return bool(self.polygon.covers(shape))

    def leaves(self, shape: Any) -> bool:
        """True when any part of ``shape`` lies beyond the board edge."""
        return not self.contains(shape)


def edges_crossed(board: Board, shape: Any, tolerance: float = _TIE) -> list[str]:
    """The edges (in :data:`EDGES` order) that some part of ``shape`` lies more than
    ``tolerance`` inches beyond.

    Example:
        >>> edges_crossed(Board(10, 10), box(8.0, -1.0, 11.0, 2.0))
        ['east', 'south']
    """
    x0, y0, x1, y1 = shape.bounds
    beyond = {"north": y1 > board.height + tolerance, "east": x1 > board.width + tolerance,
              "south": y0 < -tolerance, "west": x0 < -tolerance}
    return [edge for edge in EDGES if beyond[edge]]


def nearest_edge(board: Board, point: Point, prefer: str | None = None) -> str:
    """The edge closest to ``point``.

    Edges within 1e-9 inch of the smallest distance tie; a tie goes to ``prefer`` when it is
    one of the tied edges, otherwise to the first tied edge in :data:`EDGES` order.

    Example:
        >>> board = Board(10, 10)
        >>> nearest_edge(board, (5.0, 5.0)), nearest_edge(board, (5.0, 5.0), prefer="south")
        ('north', 'south')
    """
    dists = board.edge_distances(point)
    best = min(dists.values())
    tied = [e for e in EDGES if dists[e] - best <= _TIE]
    if prefer is not None and prefer in tied:
        return prefer
    return tied[0]


def edge_bearing(edge: str) -> float:
    """The bearing pointing off the board across ``edge`` (north 0, east 90, ...)."""
    try:
        return _EDGE_BEARINGS[edge]
    except KeyError:
        raise ValueError(f"unknown board edge {edge!r}; expected one of {EDGES}") from None


# --------------------------------------------------------------------------- formations


def _place(centre: Point, facing: float, right: float, forward: float) -> Point:
    """World point ``right`` inches to the right of and ``forward`` inches ahead of ``centre``."""
    fx, fy = _unit(facing)
    # The right-hand direction is the facing turned 90 degrees clockwise: (fy, -fx).
    return centre[0] + right * fy + forward * fx, centre[1] - right * fx + forward * fy


def _oriented_rect(centre: Point, facing: float, width: float, depth: float) -> Polygon:
    """Rectangle ``width`` across ``facing`` and ``depth`` along it, centred on ``centre``."""
    hw, hd = width / 2.0, depth / 2.0
    corners = [(-hw, hd), (hw, hd), (hw, -hd), (-hw, -hd)]
    # _place's arithmetic with the heading worked out once; shapely.polygons skips the
    # Polygon constructor's checks (the same polygon).
    fx, fy = _unit(facing)
    cx, cy = centre
    ring = [(cx + r * fy + f * fx, cy - r * fx + f * fy) for r, f in corners]
    shape: Polygon = shapely.polygons(ring)
    return shape


def single_footprint(centre: Point, size: float = 0.5, facing: float = 0) -> Polygon:
    """The square ``size`` inches across occupied by one character standing at ``centre``."""
    return _oriented_rect(centre, facing, size, size)


@dataclass(frozen=True)
class Formation:
    """A body of troops drawn up in files and ranks.

    ``files`` and ``ranks`` are the files actually used and the ranks formed; ``member_points``
    holds one member centre per row, front rank first, each rank from its left end (as the
    unit faces) to its right. The polygon and the point array are left out of equality.
    """

    centre: Point
    facing: float
    files: int
    ranks: int
    pitch: float
    polygon: Polygon = field(compare=False)
    member_points: npt.NDArray[np.float64] = field(compare=False, repr=False)
    members: int = 0
    square: float = 0.5

    @property
    def width(self) -> float:
        """Frontage in inches, across the facing."""
        if self.members == 0:
            return self.square
        return (self.files - 1) * self.pitch + self.square

    @property
    def depth(self) -> float:
        """Depth in inches, along the facing."""
        if self.members == 0:
            return self.square
        return (self.ranks - 1) * self.pitch + self.square


def formation(
    members: int, files: int, pitch: float, centre: Point, facing: float, square: float = 0.5
) -> Formation:
    """Draw up ``members`` troops in a block facing ``facing`` around ``centre``.

    ``min(files, members)`` files stand side by side across the facing and
    ``ceil(members / files)`` ranks deep, neighbouring centres ``pitch`` inches apart (0.5 is
    shoulder to shoulder, 1.0 leaves an empty 5-foot square between members). A partial last
    rank stands centred behind the others. The footprint is the rectangle reaching the outer
    edges of the outer ``square``-inch squares. No members leaves a one-square footprint.

    Example:
        >>> f = formation(40, 10, 0.5, (24.0, 10.0), 0)
        >>> f.files, f.ranks, f.polygon.bounds
        (10, 4, (21.5, 9.0, 26.5, 11.0))
    """
    if members < 0:
        raise ValueError(f"members must be 0 or more, not {members!r}")
    if files < 1:
        raise ValueError(f"files must be 1 or more, not {files!r}")
    if pitch <= 0 or square <= 0:
        raise ValueError("pitch and square must be positive")
    centre = (float(centre[0]), float(centre[1]))
    facing = _normal(facing)
    if members == 0:
        empty = np.empty((0, 2), dtype=np.float64)
        empty.flags.writeable = False
        return Formation(centre, facing, 0, 0, pitch, single_footprint(centre, square, facing),
                         empty, 0, square)
    used = min(files, members)
    ranks = -(-members // files)
    front = (ranks - 1) * pitch / 2.0
    points = []
    for rank in range(ranks):
        in_rank = min(used, members - rank * used)
        left = -(in_rank - 1) * pitch / 2.0
        for file in range(in_rank):
            points.append(_place(centre, facing, left + file * pitch, front - rank * pitch))
    member_points = np.array(points, dtype=np.float64)
    member_points.flags.writeable = False
    return Formation(centre, facing, used, ranks, pitch,
                     formation_outline(members, files, pitch, centre, facing, square),
                     member_points, members, square)


def formation_outline(
    members: int, files: int, pitch: float, centre: Point, facing: float, square: float = 0.5
) -> Polygon:
    """The footprint :func:`formation` gives the same block (one or more members), without
    placing each member: cheap for checking where a large unit would fit."""
    used = min(files, members)
    ranks = -(-members // files)
    width = (used - 1) * pitch + square
    depth = (ranks - 1) * pitch + square
    return _oriented_rect((float(centre[0]), float(centre[1])), _normal(facing), width, depth)


def translate_to(f: Formation, centre: Point) -> Formation:
    """The same formation moved, without turning, so that it stands around ``centre``."""
    dx, dy = centre[0] - f.centre[0], centre[1] - f.centre[1]
    points = f.member_points + np.array([dx, dy])
    points.flags.writeable = False
    return Formation((float(centre[0]), float(centre[1])), f.facing, f.files, f.ranks, f.pitch,
                     shapely.transform(f.polygon, lambda c: c + np.array([dx, dy])), points,
                     f.members, f.square)


# --------------------------------------------------------------------------- terrain regions


@dataclass(frozen=True)
class Region:
    """A named piece of terrain: difficult ground costs double, impassable ground is closed."""

    name: str
    kind: str
    polygon: Polygon
    difficult: bool = False
    impassable: bool = False

    @classmethod
    def rect(cls, name: str, kind: str, x: float, y: float, w: float, h: float, *,
             difficult: bool = False, impassable: bool = False) -> Region:
        """An axis-aligned rectangle with its south-west corner at ``(x, y)``."""
        return cls(name, kind, box(x, y, x + w, y + h), difficult, impassable)

    @classmethod
    def from_points(cls, name: str, kind: str, points: Iterable[Sequence[float]], *,
                    difficult: bool = False, impassable: bool = False) -> Region:
        """A polygon through ``points`` (closing the ring is optional)."""
        return cls(name, kind, Polygon([(float(p[0]), float(p[1])) for p in points]),
                   difficult, impassable)

    def contains(self, point: Point) -> bool:
        """True when ``point`` is inside the region or on its boundary."""
        return bool(self.polygon.covers(ShapelyPoint(point)))

    def crossed_by(self, a: Point, b: Point) -> bool:
        """True when the segment from ``a`` to ``b`` touches or enters the region."""
        seg = ShapelyPoint(a) if tuple(a) == tuple(b) else LineString([a, b])
        return bool(self.polygon.intersects(seg))


# --------------------------------------------------------------------------- movement


def _unions(regions: Sequence[Region]) -> tuple[Any, Any]:
    """The union of the difficult and of the impassable regions (``None`` when there are none)."""
    difficult = [r.polygon for r in regions if r.difficult and not r.impassable]
    closed = [r.polygon for r in regions if r.impassable]
    d = shapely.union_all(difficult) if difficult else None
    c = shapely.union_all(closed) if closed else None
    if d is not None:
        shapely.prepare(d)
    if c is not None:
        shapely.prepare(c)
    return d, c


def _parts(geom: Any) -> list[Any]:
    """The line pieces of an intersection result (points are dropped)."""
    if geom.is_empty:
        return []
    if geom.geom_type == "LineString":
        return [geom]
    if geom.geom_type in ("MultiLineString", "GeometryCollection"):
        return [g for part in geom.geoms for g in _parts(part)]
    return []


def _along(a: Point, b: Point, length: float, p: Sequence[float]) -> float:
    """Distance of ``p`` (a point on segment ``a``-``b``) from ``a``, clamped to the segment."""
    t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length
    return min(max(t, 0.0), length)


def _segment_pieces(
    a: Point, b: Point, difficult: Any, closed: Any
) -> tuple[list[tuple[float, float, float]], float | None]:
    """Cut segment ``a``-``b`` at region boundaries.

    Returns the pieces ``(start, end, cost per inch)`` covering the segment from ``a`` in
    order, and the distance from ``a`` at which the segment first enters the interior of an
    impassable region (``None`` when it never does).
    """
    length = distance(a, b)
    if length == 0.0:
        return [], None
    seg = LineString([a, b])
    block: float | None = None
    if closed is not None and closed.intersects(seg):
        if closed.contains(ShapelyPoint(a)):
            block = 0.0
        else:
            for piece in _parts(closed.intersection(seg)):
                coords = list(piece.coords)
                for p, q in pairwise(coords):
                    if p == q:
                        continue
                    mid = ((p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0)
                    if closed.contains(ShapelyPoint(mid)):  # strictly inside, not on the edge
                        t = min(_along(a, b, length, p), _along(a, b, length, q))
                        block = t if block is None else min(block, t)
    spans: list[tuple[float, float]] = []
    if difficult is not None and difficult.intersects(seg):
        for piece in _parts(difficult.intersection(seg)):
            coords = piece.coords
            ts = [_along(a, b, length, coords[0]), _along(a, b, length, coords[-1])]
            lo, hi = min(ts), max(ts)
            if hi > lo:
                spans.append((lo, hi))
    return _cost_pieces(spans, length), block


def _cost_pieces(spans: list[tuple[float, float]], length: float
                 ) -> list[tuple[float, float, float]]:
    """``(start, end, cost per inch)`` pieces covering a segment of ``length``: the difficult
    ``spans`` (distances from its start, merged where they meet) at 2, the rest at 1."""
    merged: list[list[float]] = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    pieces: list[tuple[float, float, float]] = []
    at = 0.0
    for lo, hi in merged:
        if lo > at:
            pieces.append((at, lo, 1.0))
        pieces.append((lo, hi, 2.0))
        at = hi
    if at < length:
        pieces.append((at, length, 1.0))
    return pieces


def _point_at(a: Point, b: Point, length: float, t: float) -> Point:
    """The point ``t`` inches from ``a`` towards ``b``; exactly ``b`` at the far end."""
    if t >= length:
        return float(b[0]), float(b[1])
    if t <= 0.0:
        return float(a[0]), float(a[1])
    k = t / length
    return a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k


def path_cost(points: Sequence[Point], regions: Sequence[Region]) -> float:
    """Movement cost in inches of walking the polyline through ``points``.

    Stretches inside difficult regions cost double; entering the interior of an impassable
    region makes the cost infinite.

    Example:
        >>> bog = Region.rect("bog", "marsh", 2, -1, 2, 2, difficult=True)
        >>> path_cost([(0.0, 0.0), (5.0, 0.0)], [bog])
        7.0
    """
    difficult, closed = _unions(regions)
    total = 0.0
    for a, b in pairwise(points):
        pieces, block = _segment_pieces(a, b, difficult, closed)
        if block is not None:
            return math.inf
        total += sum((hi - lo) * rate for lo, hi, rate in pieces)
    return total


def travel(
    points: Sequence[Point], budget: float, regions: Sequence[Region]
) -> tuple[Point, float]:
    """Walk the polyline through ``points`` spending at most ``budget`` inches of movement.

    The walk stops where the budget runs out, at the last point, or on the boundary of the
    first impassable region it would enter (at once, when it starts inside one). Difficult
    stretches cost double. Returns the point reached and the cost spent.

    Example:
        >>> wood = Region.rect("wood", "forest", 3, -1, 4, 2, difficult=True)
        >>> travel([(0.0, 0.0), (10.0, 0.0)], 10.0, [wood])
        ((6.5, 0.0), 10.0)
    """
    if not points:
        raise ValueError("travel needs at least one point")
    return _travel(points, budget, *_unions(regions))


def _travel(points: Sequence[Point], budget: float, difficult: Any, closed: Any
            ) -> tuple[Point, float]:
    """:func:`travel` over terrain already merged by :func:`_unions`."""
    here = (float(points[0][0]), float(points[0][1]))
    if budget <= 0:
        return here, 0.0
    spent = 0.0
    for a, b in pairwise(points):
        length = distance(a, b)
        pieces, block = _segment_pieces(a, b, difficult, closed)
        end = length if block is None else block
        for lo, hi, rate in pieces:
            if lo >= end:
                break
            hi = min(hi, end)
            cost = (hi - lo) * rate
            if spent + cost >= budget:
                return _point_at(a, b, length, lo + (budget - spent) / rate), float(budget)
            spent += cost
        if block is not None:
            return _point_at(a, b, length, block), spent
        here = (float(b[0]), float(b[1]))
    return here, spent


def toward(
    start: Point, target: Point, budget: float, regions: Sequence[Region]
) -> tuple[Point, float]:
    """Move straight from ``start`` towards ``target``, spending at most ``budget``."""
    return travel([start, target], budget, regions)


@dataclass(frozen=True, eq=False)
class Ground:
    """Terrain merged once for many walks: the difficult and the impassable regions, each as
    one prepared shape (``None`` when there are none)."""

    difficult: Any
    closed: Any

    @classmethod
    def of(cls, regions: Sequence[Region]) -> Ground:
        """Merge ``regions``."""
        return cls(*_unions(regions))


def travel_many(start: Point, targets: Sequence[Point], budgets: Sequence[float] | float,
                ground: Ground) -> list[tuple[Point, float]]:
    """:func:`toward` each of ``targets`` (each with its own budget, or one for all), with the
    terrain crossings of all the straight walks found in one vectorised pass. Returns the
    point reached and the cost spent for each, exactly as :func:`toward` would."""
    if not targets:
        return []
    spend = [float(budgets)] * len(targets) if isinstance(budgets, (int, float)) \
        else [float(b) for b in budgets]
    difficult, closed = ground.difficult, ground.closed
    ends = np.asarray(targets, dtype=np.float64).reshape(-1, 2)
    spans: list[list[tuple[float, float]]] = [[] for _ in targets]
    blocked = np.zeros(len(targets), dtype=bool)
    if difficult is not None or closed is not None:
        lines = shapely.linestrings(np.stack([np.broadcast_to(start, ends.shape), ends], axis=1))
        if closed is not None:
            blocked = shapely.intersects(lines, closed)
        if difficult is not None:
            crossing = np.nonzero(shapely.intersects(lines, difficult) & ~blocked)[0]
            if len(crossing):
                parts, index = shapely.get_parts(shapely.intersection(lines[crossing], difficult),
                                                 return_index=True)
                keep = shapely.get_type_id(parts) == 1  # line pieces; touching points cost nothing
                firsts = shapely.get_coordinates(shapely.get_point(parts[keep], 0))
                lasts = shapely.get_coordinates(shapely.get_point(parts[keep], -1))
                for row, p, q in zip(crossing[index[keep]], firsts, lasts):
                    end = (float(ends[row][0]), float(ends[row][1]))
                    length = distance(start, end)
                    if length == 0.0:
                        continue
                    lo, hi = sorted((_along(start, end, length, p), _along(start, end, length, q)))
                    if hi > lo:
                        spans[row].append((lo, hi))
    out: list[tuple[Point, float]] = []
    for row, target in enumerate(targets):
        budget = spend[row]
        if blocked[row]:
            out.append(_travel([start, target], budget, difficult, closed))
            continue
        length = distance(start, target)
        spent = 0.0
        for lo, hi, rate in _cost_pieces(spans[row], length):
            cost = (hi - lo) * rate
            if spent + cost >= budget:
                out.append((_point_at(start, target, length, lo + (budget - spent) / rate),
                            budget))
                break
            spent += cost
        else:
            out.append(((float(target[0]), float(target[1])), spent))
    return out


def along(
    start: Point, bearing_deg: float, budget: float, regions: Sequence[Region]
) -> tuple[Point, float]:
    """Move straight from ``start`` along ``bearing_deg``, spending at most ``budget``."""
    return travel([start, offset(start, bearing_deg, budget)], budget, regions)


def away(
    start: Point,
    from_point: Point,
    distance_budget: float,
    regions: Sequence[Region],
    board: Board | None = None,
) -> tuple[Point, float]:
    """Move straight away from ``from_point`` (due north if it is ``start`` itself).

    The move is not clipped to the board: ``board`` is accepted so callers can pass it along,
    but checking whether the mover left the table (:meth:`Board.leaves`) is theirs to do.
    """
    del board
    heading = 0.0 if tuple(start) == tuple(from_point) else bearing(from_point, start)
    return along(start, heading, distance_budget, regions)


# --------------------------------------------------------------------------- area templates


def sphere(centre: Point, radius: float) -> Polygon:
    """The disc of ``radius`` inches around ``centre``.

    The polygon is drawn just outside the true circle, so every point at most ``radius`` from
    the centre is covered (points up to 0.03% further out are covered too).
    """
    n = 4 * _CIRCLE_QUAD_SEGS
    grow = 1.0 / math.cos(math.pi / n)
    return ShapelyPoint(centre).buffer(radius * grow, quad_segs=_CIRCLE_QUAD_SEGS)


def cube(origin: Point, size: float, bearing: float) -> Polygon:
    """The square of side ``size`` with one face centred on ``origin``, reaching along
    ``bearing``."""
    return _oriented_rect(offset(origin, bearing, size / 2.0), bearing, size, size)


def cone(origin: Point, bearing: float, length: float) -> Polygon:
    """A 5e cone: a triangle from ``origin`` whose width at any distance equals that distance."""
    tip = offset(origin, bearing, length)
    return Polygon([origin, _place(tip, bearing, -length / 2.0, 0.0),
                    _place(tip, bearing, length / 2.0, 0.0)])


def line(origin: Point, bearing: float, length: float, width: float) -> Polygon:
    """A rectangle ``width`` inches wide starting at ``origin`` and running ``length`` inches
    along ``bearing``."""
    return _oriented_rect(offset(origin, bearing, length / 2.0), bearing, width, length)


def count_covered(template: Any, points: npt.ArrayLike) -> int:
    """How many of ``points`` (an ``(n, 2)`` array) lie inside or on ``template``.

    Example:
        >>> count_covered(sphere((0.0, 0.0), 1.0), [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
        2
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return 0
    shapely.prepare(template)
    return int(np.count_nonzero(shapely.intersects_xy(template, pts[:, 0], pts[:, 1])))


# --------------------------------------------------------------------------- trays

ARCS: tuple[str, ...] = ("front", "left", "right", "rear")
"""The arcs around a tray, in the order exact ties are broken (front first, rear last)."""


@dataclass(frozen=True)
class Tray:
    """A rectangle with a facing: a movement tray, a unit's block of trays, or a base.

    ``width`` runs across the facing (the front edge), ``depth`` along it. Local coordinates
    are ``(right, forward)`` from the centre, as the tray faces.
    """

    centre: Point
    facing: float
    width: float
    depth: float

    def to_world(self, right: float, forward: float) -> Point:
        """The table point ``right`` inches right of and ``forward`` ahead of the centre."""
        return _place(self.centre, self.facing, right, forward)

    def to_local(self, point: Point) -> tuple[float, float]:
        """``point`` as ``(right, forward)`` from the centre, as the tray faces."""
        fx, fy = _unit(self.facing)
        dx, dy = point[0] - self.centre[0], point[1] - self.centre[1]
        return dx * fy - dy * fx, dx * fx + dy * fy

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left."""
        hw, hd = self.width / 2.0, self.depth / 2.0
        return (self.to_world(-hw, hd), self.to_world(hw, hd), self.to_world(hw, -hd),
                self.to_world(-hw, -hd))

    @property
    def front_centre(self) -> Point:
        """The middle of the front edge."""
        return self.to_world(0.0, self.depth / 2.0)

    @property
    def polygon(self) -> Polygon:
        """The tray as a shapely polygon."""
        return _oriented_rect(self.centre, self.facing, self.width, self.depth)

    def moved(self, dx: float, dy: float) -> Tray:
        """The same tray shifted by ``(dx, dy)`` inches."""
        return Tray((self.centre[0] + dx, self.centre[1] + dy), self.facing, self.width,
                    self.depth)

    def arc_of(self, point: Point) -> str:
        """The arc of ``point`` (:data:`ARCS`): front and rear are bounded by the 45-degree
        lines out of the corners, the flanks lie between; a point on a boundary line goes to
        the earlier arc in :data:`ARCS`, and a point on or inside the tray to its nearest
        edge's arc."""
        right, forward = self.to_local(point)
        hw, hd = self.width / 2.0, self.depth / 2.0
        if abs(right) <= hw + _TIE and abs(forward) <= hd + _TIE:
            edge_gaps = {"front": hd - forward, "left": hw + right, "right": hw - right,
                         "rear": hd + forward}
            return min(ARCS, key=lambda arc: edge_gaps[arc])
        if forward >= hd - _TIE and forward - hd >= abs(right) - hw - _TIE:
            return "front"
        if forward <= -hd + _TIE and -forward - hd > abs(right) - hw + _TIE:
            return "rear"
        return "left" if right < 0 else "right"


def tray_gap(a: Tray, b: Tray) -> float:
    """Closest distance between two trays in inches (0 when they touch or overlap); plain
    arithmetic on the corners, without shapely."""
    ca, cb = a.corners(), b.corners()
    if _convex_overlap(ca, cb):
        return 0.0
    return min(min(_point_segment(p, cb[i], cb[(i + 1) % 4]) for p in ca for i in range(4)),
               min(_point_segment(p, ca[i], ca[(i + 1) % 4]) for p in cb for i in range(4)))


def trays_overlap(a: Tray, b: Tray, tolerance: float = 1e-6) -> bool:
    """True when the two trays share more than a boundary: their interiors overlap by more
    than ``tolerance`` inches on every separating axis."""
    return _convex_overlap(a.corners(), b.corners(), -tolerance)


def _point_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                              / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _convex_overlap(a: Sequence[Point], b: Sequence[Point], slack: float = _TIE) -> bool:
    """Separating-axis test of two convex quadrilaterals; ``slack`` > 0 counts touching as
    overlapping, < 0 demands that much depth."""
    for poly in (a, b):
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y1 - y0, x0 - x1
            norm = math.hypot(nx, ny) or 1.0
            pa = [(p[0] * nx + p[1] * ny) / norm for p in a]
            pb = [(p[0] * nx + p[1] * ny) / norm for p in b]
            if max(pa) < min(pb) - slack or max(pb) < min(pa) - slack:
                return False
    return True


# --------------------------------------------------------------------------- tray sight

ARC_REACH = 1000.0
"""How far the arc polygons of :func:`arc_polygon` reach, in inches (beyond any table)."""


def arc_polygon(tray: Tray, arc: str, reach: float = ARC_REACH) -> Polygon:
    """The region of ``arc`` around ``tray`` (out to ``reach`` inches), bounded by the tray's
    edge and the 45-degree lines out of its corners."""
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    r = reach
    local = {
        "front": [(-hw, hd), (hw, hd), (hw + r, hd + r), (-hw - r, hd + r)],
        "rear": [(hw, -hd), (-hw, -hd), (-hw - r, -hd - r), (hw + r, -hd - r)],
        "right": [(hw, hd), (hw, -hd), (hw + r, -hd - r), (hw + r, hd + r)],
        "left": [(-hw, -hd), (-hw, hd), (-hw - r, hd + r), (-hw - r, -hd - r)],
    }[arc]
    return Polygon([tray.to_world(x, y) for x, y in local])


def arc_shares(tray: Tray, shape: Any) -> dict[str, float]:
    """The area of ``shape`` lying in each arc of ``tray`` (keys in :data:`ARCS` order)."""
    return {arc: float(arc_polygon(tray, arc).intersection(shape).area) for arc in ARCS}


def majority_arc(tray: Tray, shape: Any) -> str:
    """W4-AMB-16: the arc holding the largest share of ``shape``; exact ties go to the
    earlier arc in :data:`ARCS` (front, then the flanks, then rear). A shape with no area is
    judged by its centroid."""
    shares = arc_shares(tray, shape)
    best = max(shares.values())
    if best <= _TIE:
        c = shape.centroid
        return tray.arc_of((float(c.x), float(c.y)))
    return next(arc for arc in ARCS if shares[arc] >= best - _TIE)


def sees(tray: Tray, shape: Any) -> bool:
    """W4-UNIT-05: some part of ``shape`` lies inside the tray's front arc."""
    return bool(arc_polygon(tray, "front").intersects(shape))


def _sample_points(tray: Tray) -> list[Point]:
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    local = [(0.0, 0.0), (-hw, hd), (hw, hd), (hw, -hd), (-hw, -hd),
             (0.0, hd), (0.0, -hd), (-hw, 0.0), (hw, 0.0)]
    return [tray.to_world(x, y) for x, y in local]


def line_clear(a: Point, b: Point, blockers: Sequence[Any]) -> bool:
    """True when the segment from ``a`` to ``b`` enters the interior of no blocker."""
    seg = LineString([a, b]) if a != b else ShapelyPoint(a)
    return not any(seg.crosses(blk) or seg.within(blk) for blk in blockers)


def clear_sight(viewer: Tray, targets: Sequence[Tray], blockers: Sequence[Any]) -> bool:
    """W4-SHOOT-09, W4-AMB-45: some straight line from a point of ``viewer`` (its centre,
    corners and edge midpoints) to such a point of some target tray passes through no
    blocker's interior."""
    for t in targets:
        for a in _sample_points(viewer):
            for b in _sample_points(t):
                if line_clear(a, b, blockers):
                    return True
    return False


def cover_by_majority(shooters: Sequence[Tray], targets: Sequence[Tray],
                      pieces: Sequence[tuple[Any, int]]) -> int:
    """W4-SHOOT-15/16, W4-AMB-46: draw a line from the centre of each shooting tray to the
    centre of each target tray; if a strict majority of the lines pass through pieces that
    give a benefit, the target gets the highest single value among the pieces those lines
    cross (0 otherwise). ``pieces`` pairs a shape with the AC it adds."""
    lines = [LineString([s.centre, t.centre]) for s in shooters for t in targets
             if s.centre != t.centre]
    if not lines or not pieces:
        return 0
    crossed = [[value for shape, value in pieces if line.intersects(shape)] for line in lines]
    covered = [c for c in crossed if c]
    if 2 * len(covered) <= len(lines):
        return 0
    return max(max(c) for c in covered)


# ---- charges

_ARC_OUTWARD: dict[str, float] = {"front": 0.0, "right": 90.0, "rear": 180.0, "left": 270.0}
"""The bearing of each arc's outward normal, relative to the tray's facing."""


def arc_edge(tray: Tray, arc: str) -> tuple[Point, Point]:
    """The edge of ``tray`` that faces ``arc``, from one corner to the next clockwise."""
    fl, fr, rr, rl = tray.corners()
    return {"front": (fl, fr), "right": (fr, rr), "rear": (rr, rl), "left": (rl, fl)}[arc]


def _dot(p: Point, u: tuple[float, float]) -> float:
    return p[0] * u[0] + p[1] * u[1]


def _within_cone(v: tuple[float, float], heading: float, cone: float) -> bool:
    length = math.hypot(*v)
    if length <= _TIE:
        return True
    return _dot(v, _unit(heading)) >= length * math.cos(math.radians(cone)) - 1e-9


def contact_shift(mover: Tray, target: Tray, arc: str, heading: float | None = None,
                  cone: float = 45.0, overlap: float = 1.0) -> tuple[float, float] | None:
    """The shortest straight shift that puts ``mover`` against the ``arc`` edge of
    ``target`` from outside, sharing at least ``overlap`` inches of that edge (less when
    either edge is shorter), with the direction within ``cone`` degrees of ``heading``
    (None: any direction). None when no such shift exists."""
    n = _unit(target.facing + _ARC_OUTWARD[arc])
    t = _unit(target.facing + _ARC_OUTWARD[arc] + 90.0)
    e0, e1 = sorted(_dot(p, t) for p in arc_edge(target, arc))
    corners = mover.corners()
    m0, m1 = min(_dot(c, t) for c in corners), max(_dot(c, t) for c in corners)
    normal = _dot(arc_edge(target, arc)[0], n) - min(_dot(c, n) for c in corners)
    need = max(0.0, min(overlap, m1 - m0, e1 - e0) - 1e-9)
    lo, hi = e0 - m1 + need, e1 - m0 - need
    if lo > hi + _TIE:
        return None
    candidates = [min(max(0.0, lo), hi), lo, hi]
    if heading is not None:
        for side in (-cone, cone):
            r = _unit(heading + side)
            along_n = _dot(r, n)
            if abs(along_n) > 1e-12 and normal / along_n >= 0:
                candidates.append(min(max(normal / along_n * _dot(r, t), lo), hi))
    best: tuple[float, float] | None = None
    for u in candidates:
        v = (normal * n[0] + u * t[0], normal * n[1] + u * t[1])
        if heading is not None and not _within_cone(v, heading, cone):
            continue
        if best is None or math.hypot(*v) < math.hypot(*best) - 1e-12:
            best = v
    return best


def closing_shift(mover: Any, target: Any) -> tuple[float, float]:
    """The shift along the line of closest points that brings shape ``mover`` into
    contact with shape ``target`` (zero when they already touch)."""
    (ax, ay), (bx, by) = shapely.shortest_line(mover, target).coords
    return float(bx - ax), float(by - ay)


def edge_slots(tray: Tray, arc: str, base: float) -> list[Point]:
    """Centres of square bases of width ``base`` standing side by side against the
    ``arc`` edge of ``tray``, outside it, from one end of the edge to the other."""
    start, end = arc_edge(tray, arc)
    length = distance(start, end)
    count = max(1, int(length / base + 1e-9))
    margin = (length - count * base) / 2.0
    along = bearing(start, end)
    out = tray.facing + _ARC_OUTWARD[arc]
    return [offset(offset(start, along, margin + (k + 0.5) * base), out, base / 2.0)
            for k in range(count)]
