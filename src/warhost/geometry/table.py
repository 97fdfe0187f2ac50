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
from weakref import WeakKeyDictionary

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, MultiPoint, Polygon, box
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
    "ARCS",
    "ARC_REACH",
    "EDGES",
    "Board",
    "Formation",
    "Point",
    "Region",
    "Tray",
    "along",
    "arc_polygon",
    "arc_shares",
    "away",
    "bearing",
    "block_of",
    "clear_sight",
    "cone",
    "count_covered",
    "cover_by_majority",
    "cube",
    "distance",
    "edge_bearing",
    "edges_crossed",
    "formation",
    "gap",
    "inches",
    "line",
    "line_clear",
    "majority_arc",
    "nearest_edge",
    "nearest_edge_of_tray",
    "offset",
    "path_cost",
    "point_word",
    "read_point",
    "sees",
    "sight_line",
    "single_footprint",
    "sphere",
    "toward",
    "translate_to",
    "travel",
    "tray_gap",
    "trays_gap",
    "trays_overlap",
    "unit_arc",
    "within",
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
    are ``(right, forward)`` from the centre, as the tray faces. A tray may be degenerate
    (zero width or depth: a segment or a point).

    Example:
        >>> tray = Tray((10.0, 10.0), 90.0, 4.0, 2.0)  # facing east: the front edge is x = 11
        >>> tray.front_centre, tray.corners()[0]
        ((11.0, 10.0), (11.0, 12.0))
        >>> tray.to_local((12.0, 9.0))
        (1.0, 2.0)
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
        # to_world's arithmetic (_place) with the heading worked out once.
        fx, fy = _unit(self.facing)
        cx, cy = self.centre
        return ((cx + -hw * fy + hd * fx, cy - -hw * fx + hd * fy),
                (cx + hw * fy + hd * fx, cy - hw * fx + hd * fy),
                (cx + hw * fy + -hd * fx, cy - hw * fx + -hd * fy),
                (cx + -hw * fy + -hd * fx, cy - -hw * fx + -hd * fy))

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
        """W4-UNIT-04: the arc of ``point`` (:data:`ARCS`). Front and rear are bounded by the
        45-degree lines out of the corners and the flanks lie between. A point on a boundary
        line (within 1e-9 inch) goes to the earlier arc in :data:`ARCS`; a point on or inside
        the tray goes to the arc of its nearest edge.

        Example:
            >>> tray = Tray((0.0, 0.0), 0.0, 4.0, 2.0)  # front edge y = 1, x from -2 to 2
            >>> [tray.arc_of(p) for p in [(0.0, 5.0), (5.0, 1.5), (3.0, 2.0), (-3.0, -2.0)]]
            ['front', 'right', 'front', 'left']
        """
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


def _relative(a: Tray, b: Tray) -> tuple[float, float, float, float]:
    """``b``'s centre as ``(right, forward)`` of ``a``'s, and the cosine and sine of ``b``'s
    facing turned into ``a``'s frame (``b``'s forward is ``(s, c)`` there)."""
    ax, ay = _unit(a.facing)
    bx, by = _unit(b.facing)
    dx, dy = b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]
    return dx * ay - dy * ax, dx * ax + dy * ay, ax * bx + ay * by, ay * bx - ax * by


def _separations(a: Tray, b: Tray, dr: float, df: float, c: float, s: float
                 ) -> tuple[float, float, float, float]:
    """Separating-axis gaps of the two trays along ``a``'s right and forward axes and then
    ``b``'s; a positive value is a gap, a negative one an overlap of the projections."""
    hwa, hda, hwb, hdb = a.width / 2.0, a.depth / 2.0, b.width / 2.0, b.depth / 2.0
    ac, as_ = abs(c), abs(s)
    er, ef = c * dr - s * df, s * dr + c * df  # a's centre seen from b, negated
    return (abs(dr) - hwa - hwb * ac - hdb * as_, abs(df) - hda - hwb * as_ - hdb * ac,
            abs(er) - hwb - hwa * ac - hda * as_, abs(ef) - hdb - hwa * as_ - hda * ac)


def _corner_gap2(cx: float, cy: float, ux: float, uy: float, vx: float, vy: float,
                 hw: float, hd: float) -> float:
    """Smallest squared distance from the corners ``c +- u +- v`` to the axis-aligned
    rectangle ``|x| <= hw, |y| <= hd`` (0 when a corner is on it)."""
    sx, sy, tx, ty = ux + vx, uy + vy, ux - vx, uy - vy
    best = math.inf
    for px, py in ((cx + sx, cy + sy), (cx + tx, cy + ty), (cx - tx, cy - ty),
                   (cx - sx, cy - sy)):
        x, y = abs(px) - hw, abs(py) - hd
        if x > 0.0:
            d2 = x * x + y * y if y > 0.0 else x * x
        elif y > 0.0:
            d2 = y * y
        else:
            return 0.0
        best = min(best, d2)
    return best


def tray_gap(a: Tray, b: Tray) -> float:
    """W4-MEAS-03: the distance between the closest points of two trays, in inches (0 when
    they touch or overlap, within 1e-9 inch). Plain arithmetic, no shapely: the trays are
    tested on their four separating axes, and two apart are as far apart as the nearest
    corner of one is from the other.

    Example:
        >>> tray_gap(Tray((0.0, 0.0), 0.0, 2.0, 2.0), Tray((6.0, 5.0), 0.0, 2.0, 2.0))
        5.0
        >>> tray_gap(Tray((0.0, 0.0), 0.0, 2.0, 2.0), Tray((2.0, 0.5), 90.0, 1.0, 2.0))
        0.0
    """
    # The hot path of every distance rule: _relative and _separations written out inline.
    ax, ay = _unit(a.facing)
    bx, by = _unit(b.facing)
    dx, dy = b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]
    dr, df, c, s = dx * ay - dy * ax, dx * ax + dy * ay, ax * bx + ay * by, ay * bx - ax * by
    hwa, hda, hwb, hdb = a.width / 2.0, a.depth / 2.0, b.width / 2.0, b.depth / 2.0
    ac, as_ = abs(c), abs(s)
    er, ef = c * dr - s * df, s * dr + c * df
    if (abs(dr) - hwa - hwb * ac - hdb * as_ <= _TIE
            and abs(df) - hda - hwb * as_ - hdb * ac <= _TIE
            and abs(er) - hwb - hwa * ac - hda * as_ <= _TIE
            and abs(ef) - hdb - hwa * as_ - hda * ac <= _TIE):
        return 0.0
    # b's corners in a's frame: b's right is (c, -s) there, its forward (s, c); and a's
    # corners in b's frame, where a's right is (c, s) and its forward (-s, c).
    b_to_a = _corner_gap2(dr, df, hwb * c, -hwb * s, hdb * s, hdb * c, hwa, hda)
    a_to_b = _corner_gap2(-er, -ef, hwa * c, hwa * s, -hda * s, hda * c, hwb, hdb)
    return math.sqrt(min(b_to_a, a_to_b))


def trays_overlap(a: Tray, b: Tray, tolerance: float = 1e-6) -> bool:
    """True when the two trays share more than a boundary: their projections overlap by
    more than ``tolerance`` inches on every separating axis. Trays that only touch never
    overlap, nor does a degenerate tray (no area) overlap anything.

    Example:
        >>> left = Tray((0.0, 0.0), 0.0, 2.0, 2.0)
        >>> trays_overlap(left, Tray((2.0, 0.0), 0.0, 2.0, 2.0))  # edge to edge
        False
        >>> trays_overlap(left, Tray((1.2, 1.2), 45.0, 1.0, 1.0))
        True
    """
    if min(a.width, a.depth, b.width, b.depth) <= 0.0:
        return False
    dr, df, c, s = _relative(a, b)
    seps = _separations(a, b, dr, df, c, s)
    ac, as_ = abs(c), abs(s)
    hwa, hda, hwb, hdb = a.width / 2.0, a.depth / 2.0, b.width / 2.0, b.depth / 2.0
    # The overlap of two intervals is the usual depth but never more than the shorter one
    # (half-lengths here: each tray's own half-side and the other's projected half-extent).
    halves = (min(hwa, hwb * ac + hdb * as_), min(hda, hwb * as_ + hdb * ac),
              min(hwb, hwa * ac + hda * as_), min(hdb, hwa * as_ + hda * ac))
    return all(-sep > tolerance and 2.0 * half > tolerance
               for sep, half in zip(seps, halves, strict=True))


def _group(trays: Tray | Sequence[Tray]) -> Sequence[Tray]:
    return (trays,) if isinstance(trays, Tray) else trays


def trays_gap(a: Tray | Sequence[Tray], b: Tray | Sequence[Tray]) -> float:
    """W4-MEAS-03: the closest-point distance between two trays or groups of trays (two
    units' companies or bases). Each group must hold a tray.

    Example:
        >>> elves = [Tray((x, 0.0), 0.0, 2.0, 1.0) for x in (1.0, 3.0)]
        >>> trays_gap(elves, Tray((7.0, 0.0), 0.0, 2.0, 2.0))
        2.0
    """
    return min(tray_gap(s, t) for s in _group(a) for t in _group(b))


def within(a: Tray | Sequence[Tray], b: Tray | Sequence[Tray], inches: float) -> bool:
    """W4-MEAS-04: the two trays (or groups of trays) are within ``inches`` of each other
    when their closest-point distance is at most that (within 1e-9 inch); a group with no
    tray is within no distance of anything.

    Example:
        >>> elves = Tray((0.0, 0.0), 0.0, 4.0, 1.0)
        >>> spider = Tray((0.0, 5.5), 180.0, 2.0, 2.0)  # 4 inches from the elves' front
        >>> within(elves, spider, 4.0), within(elves, spider, 3.9)
        (True, False)
    """
    limit = inches + _TIE
    return any(tray_gap(s, t) <= limit for s in _group(a) for t in _group(b))


def block_of(trays: Sequence[Tray]) -> Tray:
    """The smallest tray facing as the given trays do that covers them all: a unit's whole
    block of companies. The trays must share one facing.

    Example:
        >>> block_of([Tray((1.0, 0.0), 0.0, 2.0, 1.0), Tray((3.0, -1.0), 0.0, 2.0, 1.0)])
        Tray(centre=(2.0, -0.5), facing=0.0, width=4.0, depth=2.0)
    """
    if not trays:
        raise ValueError("a block needs at least one tray")
    first = trays[0]
    rights: list[float] = []
    forwards: list[float] = []
    for t in trays:
        if abs((t.facing - first.facing + 180.0) % 360.0 - 180.0) > _TIE:
            raise ValueError(f"trays facing {first.facing} and {t.facing} form no block")
        for p in t.corners():
            r, f = first.to_local(p)
            rights.append(r)
            forwards.append(f)
    r0, r1, f0, f1 = min(rights), max(rights), min(forwards), max(forwards)
    return Tray(first.to_world((r0 + r1) / 2.0, (f0 + f1) / 2.0), first.facing, r1 - r0,
                f1 - f0)


def unit_arc(trays: Sequence[Tray], point: Point) -> str:
    """W4-UNIT-04: the arc of ``point`` around a unit's block of trays (its corners are the
    block's outer corners).

    Example:
        >>> line = [Tray((x, 0.0), 0.0, 2.0, 1.0) for x in (1.0, 3.0, 5.0)]
        >>> unit_arc(line, (3.0, 4.0)), unit_arc(line, (-2.0, 0.0)), unit_arc(line, (8.0, 1.0))
        ('front', 'left', 'right')
    """
    return block_of(trays).arc_of(point)


def nearest_edge_of_tray(board: Board, tray: Tray) -> str:
    """The board edge nearest to ``tray`` (W4-FLEE-05), measured from the tray's closest
    point; a tie (within 1e-9 inch) goes to the edge nearer the tray's centre, then to the
    first in :data:`EDGES`.

    Example:
        >>> nearest_edge_of_tray(Board(48, 36), Tray((10.0, 30.0), 90.0, 4.0, 12.0))
        'north'
    """
    corners = tray.corners()
    closest = {e: min(board.edge_distances(p)[e] for p in corners) for e in EDGES}
    best = min(closest.values())
    tied = [e for e in EDGES if closest[e] - best <= _TIE]
    centre = board.edge_distances(tray.centre)
    return min(tied, key=lambda e: (centre[e], EDGES.index(e)))


# --------------------------------------------------------------------------- tray sight

ARC_REACH = 1000.0
"""How far the arc polygons of :func:`arc_polygon` reach, in inches (beyond any table)."""

_INTERIORS_MEET = "T********"
"""DE-9IM pattern: the interiors of two shapes share a point."""


def arc_polygon(tray: Tray, arc: str, reach: float = ARC_REACH) -> Polygon:
    """W4-UNIT-04: the region of ``arc`` around ``tray``, bounded by the tray's edge and the
    45-degree lines out of its corners, out to ``reach`` inches beyond the edge.

    Example:
        >>> arc_polygon(Tray((0.0, 0.0), 0.0, 2.0, 2.0), "front", reach=1.0).bounds
        (-2.0, 1.0, 2.0, 2.0)
    """
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    r = reach
    corners = {
        "front": [(-hw, hd), (hw, hd), (hw + r, hd + r), (-hw - r, hd + r)],
        "rear": [(hw, -hd), (-hw, -hd), (-hw - r, -hd - r), (hw + r, -hd - r)],
        "right": [(hw, hd), (hw, -hd), (hw + r, -hd - r), (hw + r, hd + r)],
        "left": [(-hw, -hd), (-hw, hd), (-hw - r, hd + r), (-hw - r, -hd - r)],
    }
    if arc not in corners:
        raise ValueError(f"unknown arc {arc!r}; expected one of {ARCS}")
    return Polygon([tray.to_world(x, y) for x, y in corners[arc]])


def arc_shares(tray: Tray, shape: Any) -> dict[str, float]:
    """The area of ``shape`` lying in each arc of ``tray`` (keys in :data:`ARCS` order); the
    part of ``shape`` on the tray itself is in no arc.

    Example:
        >>> arc_shares(Tray((0.0, 0.0), 0.0, 2.0, 2.0), box(-0.5, 1.0, 1.5, 2.0))
        {'front': 1.875, 'left': 0.0, 'right': 0.125, 'rear': 0.0}
    """
    return _shares(tray, shape, "area")


def _shares(tray: Tray, shape: Any, measure: str) -> dict[str, float]:
    return {arc: float(getattr(arc_polygon(tray, arc).intersection(shape), measure))
            for arc in ARCS}


def majority_arc(tray: Tray, shape: Any) -> str:
    """W4-AMB-16: the arc holding the largest share of ``shape``'s area; exact ties (to a
    billionth of the share) go to the earlier arc in :data:`ARCS`: front, then the flanks,
    then rear. A shape with no area is measured by length, and one with neither (a point),
    or one wholly on the tray, by the arc of its centroid.

    Example:
        >>> tray = Tray((0.0, 0.0), 0.0, 2.0, 2.0)
        >>> majority_arc(tray, box(1.0, 0.0, 3.0, 2.0))  # straddles the front-right line
        'right'
        >>> majority_arc(tray, box(1.0, 1.0, 3.0, 3.0))  # split evenly: front wins
        'front'
    """
    if shape.is_empty:
        raise ValueError("an empty shape lies in no arc")
    shares = _shares(tray, shape, "area" if shape.area > 0.0 else "length")
    best = max(shares.values())
    if best <= _TIE:
        c = shape.centroid
        return tray.arc_of((float(c.x), float(c.y)))
    slack = max(_TIE, best * 1e-9)
    return next(arc for arc in ARCS if shares[arc] >= best - slack)


def sees(tray: Tray, shape: Any) -> bool:
    """W4-UNIT-05: some part of ``shape`` lies inside the tray's front arc. A shape with
    area must overlap the arc (touching its boundary line is not enough); a line or a point
    may lie on the boundary, as :meth:`Tray.arc_of` counts those lines as front.

    Example:
        >>> tray = Tray((0.0, 0.0), 0.0, 2.0, 2.0)
        >>> sees(tray, box(3.0, 2.0, 4.0, 3.0)), sees(tray, box(2.0, 2.5, 3.0, 3.5))
        (False, True)
    """
    front = arc_polygon(tray, "front")
    if shape.area > 0.0:
        return bool(front.relate_pattern(shape, _INTERIORS_MEET))
    return bool(front.intersects(shape))


def _sample_points(tray: Tray) -> list[Point]:
    """The centre, corners and edge midpoints of ``tray``."""
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    local = [(0.0, 0.0), (-hw, hd), (hw, hd), (hw, -hd), (-hw, -hd),
             (0.0, hd), (0.0, -hd), (-hw, 0.0), (hw, 0.0)]
    return [tray.to_world(x, y) for x, y in local]


def _segments(pairs: Sequence[tuple[Point, Point]]) -> npt.NDArray[Any]:
    """Shapely segments for ``pairs`` of points (a point where both ends coincide)."""
    coords = np.array(pairs, dtype=float).reshape(len(pairs), 2, 2)
    shapes: npt.NDArray[Any] = shapely.linestrings(coords)
    same = np.all(coords[:, 0] == coords[:, 1], axis=1)
    if same.any():
        shapes[same] = shapely.points(coords[same, 0])
    return shapes


def _objects(shapes: Sequence[Any]) -> npt.NDArray[Any]:
    array = np.empty(len(shapes), dtype=object)
    array[:] = list(shapes)
    return array


def _entered(segments: npt.NDArray[Any], shapes: Sequence[Any]) -> npt.NDArray[np.bool_]:
    """``[i, j]``: segment ``i`` and shape ``j`` share interior points, that is they meet
    but do not merely touch (prepared shapes reject most segments on their bounds)."""
    others = _objects(shapes)
    shapely.prepare(others)
    lines, blocks = np.broadcast_arrays(segments[:, None], others[None, :])
    met: npt.NDArray[np.bool_] = shapely.intersects(blocks, lines)
    if met.any():
        met[met] = ~shapely.touches(blocks[met], lines[met])
    return met


def _merged(shapes: Sequence[Any]) -> list[Any]:
    """``shapes`` with every shape that has area merged into one, so that a line along the
    seam of two touching blockers runs inside the merged interior, not between two."""
    solid = [s for s in shapes if s.area > 0.0]
    thin = [s for s in shapes if s.area <= 0.0]
    return ([shapely.unary_union(solid)] if solid else []) + thin


def line_clear(a: Point, b: Point, blockers: Sequence[Any]) -> bool:
    """True when the segment from ``a`` to ``b`` enters the interior of no blocker. Running
    along a blocker's edge or touching its corner does not block, but running along the
    seam of two touching blockers does (they block as one).

    Example:
        >>> wall = box(1.0, -1.0, 2.0, 1.0)
        >>> line_clear((0.0, 0.0), (3.0, 0.0), [wall]), line_clear((0.0, 1.0), (3.0, 1.0), [wall])
        (False, True)
    """
    if not blockers:
        return True
    return not bool(_entered(_segments([(a, b)]), _merged(blockers)).any())


def clear_sight(viewer: Tray, targets: Sequence[Tray], blockers: Sequence[Any]) -> bool:
    """W4-SHOOT-09, W4-AMB-45: some straight line from a point of ``viewer`` to a point of
    some target tray enters no blocker's interior (:func:`sight_line`). One clear line is
    enough. The caller leaves the viewer's own unit and the target out of ``blockers``;
    whether the target is in the front arc is :func:`sees`.

    Example:
        >>> archers, target = Tray((0.0, 0.0), 0.0, 4.0, 1.0), Tray((0.0, 10.0), 180.0, 4.0, 1.0)
        >>> clear_sight(archers, [target], [box(-1.0, 4.0, 1.0, 6.0)])  # past a small rock
        True
        >>> clear_sight(archers, [target], [box(-9.0, 4.0, 9.0, 6.0)])  # a wide wall
        False
    """
    if targets and blockers:
        # The first line tried, centre to centre, is clear when no blocker's box meets it.
        a, b = viewer.centre, targets[0].centre
        if all(_apart(a, b, (float(v[0]), float(v[1]), float(v[2]), float(v[3])))
               for v in shapely.bounds(_objects(blockers))):
            return True
    merged = _merged(blockers)
    # The cheap sampled lines to every target first; the exact search only when all fail.
    return (any(_sampled_line(viewer, t, merged) for t in targets)
            or any(_critical_line(viewer, t, merged) for t in targets))


def sight_line(viewer: Tray, target: Tray, blockers: Sequence[Any]
               ) -> tuple[Point, Point] | None:
    """W4-SHOOT-09: a line from a point of ``viewer`` to a point of ``target`` that enters no
    blocker's interior, or None when there is none. Lines between the trays' centres,
    corners and edge midpoints are tried first; failing those the search is exact: a clear
    line, if any, can be slid and turned until it passes two corners of the trays, the
    blockers or their crossings, so the lines through each two of those are tried.

    Example:
        >>> archers, target = Tray((0.0, 0.0), 0.0, 4.0, 2.0), Tray((0.0, 20.0), 180.0, 4.0, 2.0)
        >>> walls = [box(-9.0, 9.9, 0.3, 10.1), box(0.5, 9.9, 9.0, 10.1)]  # a slit at x 0.3-0.5
        >>> start, end = sight_line(archers, target, walls)  # along the slit's west side
        >>> [round(v, 6) for v in (*start, *end)]
        [0.3, 1.0, 0.3, 19.0]
    """
    merged = _merged(blockers)
    return _sampled_line(viewer, target, merged) or _critical_line(viewer, target, merged)


def _sampled_line(viewer: Tray, target: Tray, merged: Sequence[Any]
                  ) -> tuple[Point, Point] | None:
    """The first clear line between the centres, corners and edge midpoints of the trays."""
    starts, ends = _sample_points(viewer), _sample_points(target)
    if not merged:
        return starts[0], ends[0]
    pairs = [(a, b) for a in starts for b in ends]
    blocked = _entered(_segments(pairs), merged).any(axis=1)
    clear = np.flatnonzero(~blocked)
    return pairs[int(clear[0])] if clear.size else None


def _critical_line(viewer: Tray, target: Tray, merged: Sequence[Any]
                   ) -> tuple[Point, Point] | None:
    """The exact search of :func:`sight_line`: for the line through each two critical
    points, the shortest piece of it joining the two trays, if that piece is clear."""
    hull = MultiPoint([*viewer.corners(), *target.corners()]).convex_hull
    near = [m for m in merged if m.intersects(hull)]
    if not near:
        return None
    pieces = [viewer.corners(), target.corners()]
    for m in near:  # crossings with the hull and the trays are critical points too
        for region in (hull, viewer.polygon, target.polygon):
            pieces.append(shapely.get_coordinates(m.intersection(region)))
    # Exact coordinates: a point rounded even 1e-13 inch may fall inside a blocker.
    points = np.unique(np.vstack([np.asarray(p, dtype=float) for p in pieces]), axis=0)
    i, j = np.triu_indices(len(points), k=1)
    origin, direction = points[i], points[j] - points[i]
    a0, a1 = _chords(viewer, origin, direction)
    b0, b1 = _chords(target, origin, direction)
    meets = (a0 <= a1) & (b0 <= b1) & (np.abs(direction).max(axis=1) > _TIE)
    # The shortest piece joining the two chords, from the viewer's to the target's: between
    # their facing ends, or a point where the chords meet.
    both = np.maximum(a0, b0)
    t0 = np.where(a1 < b0, a1, np.where(b1 < a0, a0, both))
    t1 = np.where(a1 < b0, b0, np.where(b1 < a0, b1, both))
    start = origin[meets] + t0[meets, None] * direction[meets]
    end = origin[meets] + t1[meets, None] * direction[meets]
    if not len(start):
        return None
    pairs = [((float(p[0]), float(p[1])), (float(q[0]), float(q[1])))
             for p, q in zip(start, end, strict=True)]
    clear = np.flatnonzero(~_entered(_segments(pairs), merged).any(axis=1))
    return pairs[int(clear[0])] if clear.size else None


def _chords(tray: Tray, origin: npt.NDArray[np.float64], direction: npt.NDArray[np.float64]
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each line ``origin + t * direction``, the range of ``t`` on ``tray`` (empty when
    the low end is above the high end); clipped slab by slab in the tray's frame."""
    fx, fy = _unit(tray.facing)
    px, py = origin[:, 0] - tray.centre[0], origin[:, 1] - tray.centre[1]
    dx, dy = direction[:, 0], direction[:, 1]
    lo = np.full(len(origin), -np.inf)
    hi = np.full(len(origin), np.inf)
    for q, v, half in ((px * fy - py * fx, dx * fy - dy * fx, tray.width / 2.0),
                       (px * fx + py * fy, dx * fx + dy * fy, tray.depth / 2.0)):
        h = half + _TIE
        flat = np.abs(v) < 1e-15
        safe = np.where(flat, 1.0, v)
        ta, tb = (-h - q) / safe, (h - q) / safe
        inside = np.abs(q) <= h
        lo = np.where(flat, np.where(inside, lo, np.inf), np.maximum(lo, np.minimum(ta, tb)))
        hi = np.where(flat, np.where(inside, hi, -np.inf), np.minimum(hi, np.maximum(ta, tb)))
    return lo, hi


def cover_by_majority(shooters: Sequence[Tray], targets: Sequence[Tray],
                      pieces: Sequence[tuple[Any, int]]) -> int:
    """W4-SHOOT-15/16, W4-AMB-46: draw a line from the centre of each shooting tray to the
    centre of each target tray. If a strict majority of the lines enter the interior of
    pieces that give a benefit, the target gets the highest single value among the pieces
    those lines enter; otherwise (a tie included) 0. ``pieces`` pairs a shape with the AC it
    adds. Touching pieces count as one area, so a line along their seam passes through them
    and takes the higher value of the two.

    Example:
        >>> shooters = [Tray((x, 0.0), 0.0, 2.0, 1.0) for x in (1.0, 3.0, 5.0)]
        >>> target = [Tray((3.0, 10.0), 180.0, 6.0, 1.0)]
        >>> hedge, wood = (box(0.0, 5.0, 2.5, 6.0), 2), (box(2.5, 5.0, 4.0, 6.0), 5)
        >>> cover_by_majority(shooters, target, [hedge, wood])  # 2 of 3 lines: the best is 5
        5
        >>> cover_by_majority(shooters, target, [hedge])  # 1 of 3 lines
        0
    """
    pairs = [(s.centre, t.centre) for s in shooters for t in targets]
    if not pairs or not pieces:
        return 0
    shapes = [shape for shape, _ in pieces]
    lines = _segments(pairs)
    covered = _entered(lines, _merged(shapes)).any(axis=1)
    if 2 * int(covered.sum()) <= len(pairs):
        return 0
    values = np.array([value for _, value in pieces])
    inside = _entered(lines[covered], shapes)
    touched = shapely.intersects(lines[covered][:, None], _objects(shapes)[None, :])
    # A line along a seam enters no single piece: it takes the pieces it runs between.
    return max(int(values[row_in if row_in.any() else row_touch].max())
               for row_in, row_touch in zip(inside, touched, strict=True))


# ---- areas
# Bursts, blasts and lasting areas of dnd4e-war (W4-AREA-01 to 07, W4-AMB-50/51), and the
# count of the model cells of a company layout an area covers.

AREA_MARKER = 1.0
"""W4-AREA-03/06: the diameter of the base that marks an area burst or a lasting area."""

_COVER_EPS = 1e-9
"""A cell must share more than this area with a shape to count as covered (touching only an
edge or a corner is not covering)."""


def area_burst(centre: Point, size: float) -> Polygon:
    """W4-AREA-03: a 1-inch marker base at ``centre`` and everything within ``size`` inches of
    its edge."""
    return sphere(centre, AREA_MARKER / 2.0 + size)


def close_burst(base: Tray, size: float) -> Polygon:
    """W4-AREA-02, W4-AMB-51: everything within ``size`` inches of the user's base edge (the
    base included)."""
    if size <= 0:
        return base.polygon
    return base.polygon.buffer(size / math.cos(math.pi / (4 * _CIRCLE_QUAD_SEGS)),
                               quad_segs=_CIRCLE_QUAD_SEGS)


def on_edge(tray: Tray, point: Point, tolerance: float = 1e-6) -> bool:
    """True when ``point`` lies on the edge of ``tray`` (within ``tolerance`` inches)."""
    return bool(tray.polygon.exterior.distance(ShapelyPoint(point)) <= tolerance)


def blast(apex: Point, bearing_deg: float, size: float) -> Polygon:
    """W4-AREA-05, W4-AMB-51: the 90-degree sector of radius ``size`` with its apex at
    ``apex`` (a point of the user's base edge), opening along ``bearing_deg``."""
    steps = _CIRCLE_QUAD_SEGS
    grow = size / math.cos(math.pi / (4 * steps))
    arc = [offset(apex, bearing_deg - 45.0 + 90.0 * i / steps, grow) for i in range(steps + 1)]
    return Polygon([apex, *arc])


def lasting_marker(origin: Point, size: float, bearing_deg: float | None = None) -> Point:
    """W4-AREA-06, W4-AMB-51: where the marker of a lasting area sits: a burst's centre, or
    ``size / 2`` inches along a blast's bisector (``bearing_deg``) from its apex."""
    if bearing_deg is None:
        return origin
    return offset(origin, bearing_deg, size / 2.0)


def lasting_area(marker: Point, size: float, is_blast: bool = False) -> Polygon:
    """W4-AREA-06: a lasting area measured outward from its marker base: the burst's size,
    or half the blast's size."""
    return area_burst(marker, size / 2.0 if is_blast else size)


def model_cells(tray: Tray, columns: int, rows: int, models: int) -> list[Polygon]:
    """W4-AMB-04/05/50: the cells of the ``models`` models in a company tray laid out
    ``columns`` x ``rows``: the front row fills first, each row from the left."""
    cw, cd = tray.width / columns, tray.depth / rows
    cells = []
    for i in range(min(models, columns * rows)):
        row, col = divmod(i, columns)
        right = -tray.width / 2.0 + (col + 0.5) * cw
        forward = tray.depth / 2.0 - (row + 0.5) * cd
        cells.append(Tray(tray.to_world(right, forward), tray.facing, cw, cd).polygon)
    return cells


def cells_covered(shape: Any, tray: Tray, columns: int, rows: int, models: int) -> int:
    """W4-AMB-50: how many model cells of the company in ``tray`` some part of ``shape``
    covers."""
    if models <= 0 or not shape.intersects(tray.polygon):
        return 0
    return sum(1 for cell in model_cells(tray, columns, rows, models)
               if shape.intersection(cell).area > _COVER_EPS)


def most_covered(shape: Any, positions: Iterable[Tray], columns: int, rows: int,
                 models: int) -> int:
    """W4-AREA-07: the most model cells ``shape`` covers at any of ``positions`` (the places a
    company passes through during one move)."""
    return max((cells_covered(shape, t, columns, rows, models) for t in positions), default=0)


def sweep(start: Tray, end: Tray, step: float = 0.25) -> list[Tray]:
    """The tray's positions, every ``step`` inches or less, on a straight move from ``start``
    to ``end`` (facing turned evenly along the way); both ends included."""
    length = distance(start.centre, end.centre)
    turn = (end.facing - start.facing + 180.0) % 360.0 - 180.0
    n = max(1, math.ceil(length / step), math.ceil(abs(turn) / 5.0))
    out = []
    for i in range(n + 1):
        t = i / n
        centre = (start.centre[0] + t * (end.centre[0] - start.centre[0]),
                  start.centre[1] + t * (end.centre[1] - start.centre[1]))
        out.append(Tray(centre, (start.facing + t * turn) % 360.0, start.width, start.depth))
    return out


# ---- tray moves
# Moving a block of trays (W4-MOVE): straight or diagonal advances, wheels about a front
# corner, pivots about the centre, reforms about the centre, the ground a move sweeps and what
# it costs through difficult terrain. Rotations are compass-wise: positive degrees turn
# clockwise (the facing bearing grows).

MAX_VEER = 45.0
"""W4-MOVE-07: a block may advance at most this many degrees off its facing."""

SWEEP_STEP = 5.0
"""Degrees between the intermediate positions a turning move's swept area is built from."""


def turn_between(facing: float, towards: float) -> float:
    """The signed smallest turn from bearing ``facing`` to bearing ``towards``, in
    ``(-180, 180]`` (positive clockwise).

    Example:
        >>> turn_between(350.0, 20.0), turn_between(0.0, 180.0)
        (30.0, 180.0)
    """
    d = _normal(towards - facing)
    return d - 360.0 if d > 180.0 else d


def rotate_about(point: Point, about: Point, degrees: float) -> Point:
    """``point`` turned ``degrees`` clockwise about ``about``.

    Example:
        >>> rotate_about((0.0, 1.0), (0.0, 0.0), 90.0)
        (1.0, 0.0)
    """
    s, c = _unit(degrees)  # sin and cos of the turn (exact on quarter turns)
    dx, dy = point[0] - about[0], point[1] - about[1]
    return about[0] + dx * c + dy * s, about[1] - dx * s + dy * c


def advance(tray: Tray, length: float, veer: float = 0.0) -> Tray:
    """The tray moved ``length`` inches along its facing turned by ``veer`` degrees; the
    facing does not change. Raises ``ValueError`` beyond :data:`MAX_VEER` (W4-MOVE-07).

    Example:
        >>> advance(Tray((0.0, 0.0), 90.0, 4.0, 2.0), 3.0).centre
        (3.0, 0.0)
    """
    if abs(veer) > MAX_VEER + _TIE:
        raise ValueError(f"a block advances at most {MAX_VEER} degrees off its facing")
    x, y = offset(tray.centre, tray.facing + veer, length)
    return Tray((x, y), tray.facing, tray.width, tray.depth)


def wheel_pivot(tray: Tray, side: str) -> Point:
    """The front corner a wheel to ``side`` (``left`` or ``right``) turns about."""
    front_left, front_right = tray.corners()[:2]
    if side not in ("left", "right"):
        raise ValueError(f"a wheel goes left or right, not {side!r}")
    return front_left if side == "left" else front_right


def wheel(tray: Tray, side: str, degrees: float) -> Tray:
    """W4-MOVE-09/10: the tray wheeled forward ``degrees`` to ``side``: the front corner on
    that side stays put and the other front corner swings forward.

    Example:
        >>> wheel(Tray((0.0, -1.0), 0.0, 4.0, 2.0), "right", 90.0).corners()[1]
        (2.0, 0.0)
    """
    if degrees < -_TIE or degrees > 180.0 + _TIE:
        raise ValueError("a wheel turns forward, between 0 and 180 degrees")
    turn = degrees if side == "right" else -degrees
    pivot = wheel_pivot(tray, side)
    return Tray(rotate_about(tray.centre, pivot, turn), _normal(tray.facing + turn),
                tray.width, tray.depth)


def wheel_distance(width: float, depth: float, degrees: float,
                   farthest_corner: bool = False) -> float:
    """W4-MOVE-11, W4-AMB-93: the arc the paying corner travels in a wheel: the outer front
    corner (radius = width) or, with ``farthest_corner``, the rear outer corner.

    Example:
        >>> round(wheel_distance(4.0, 3.0, 90.0), 4), round(wheel_distance(4.0, 3.0, 90.0, True), 4)
        (6.2832, 7.854)
    """
    radius = math.hypot(width, depth) if farthest_corner else width
    return radius * math.radians(abs(degrees))


def centre_pivot(tray: Tray, degrees: float) -> Tray:
    """W4-MOVE-13/14: the tray turned ``degrees`` (positive clockwise) about its centre."""
    return Tray(tray.centre, _normal(tray.facing + degrees), tray.width, tray.depth)


def reform_frame(centre: Point, facing: float, files: int, ranks: int, tray_width: float,
                 tray_depth: float) -> Tray:
    """W4-MOVE-16: the block of ``files`` x ``ranks`` trays standing about ``centre``."""
    if files < 1 or ranks < 1:
        raise ValueError("a formation has at least one file and one rank")
    return Tray(centre, _normal(facing), files * tray_width, ranks * tray_depth)


def wheel_path(tray: Tray, side: str, degrees: float, step: float = SWEEP_STEP) -> list[Tray]:
    """The tray at every ``step`` degrees of a wheel, first and last included."""
    n = max(1, math.ceil(abs(degrees) / step - _TIE))
    return [wheel(tray, side, degrees * i / n) for i in range(n + 1)]


def pivot_path(tray: Tray, degrees: float, step: float = SWEEP_STEP) -> list[Tray]:
    """The tray at every ``step`` degrees of a centre pivot, first and last included."""
    n = max(1, math.ceil(abs(degrees) / step - _TIE))
    return [centre_pivot(tray, degrees * i / n) for i in range(n + 1)]


def swept_area(path: Sequence[Tray], about: Point | None = None) -> Any:
    """The ground a tray covers moving through the positions of ``path``: the hull of each
    consecutive pair. For a turn about ``about`` the hulls are widened by the most an arc
    between two positions bulges past its chord, so the area never falls short."""
    if not path:
        raise ValueError("a swept area needs at least one position")
    if len(path) == 1:
        return path[0].polygon
    hulls = shapely.convex_hull(shapely.multipoints([[*a.corners(), *b.corners()]
                                                     for a, b in pairwise(path)]))
    # Normalised first: GEOS can drop a sliver from the union of these fans of hulls sharing
    # a corner (a half wheel lost part of an intermediate position otherwise).
    area = hulls[0] if len(hulls) == 1 else shapely.union_all(shapely.normalize(hulls))
    if about is not None:
        reach = max(distance(about, c) for c in path[0].corners())
        turned = abs(turn_between(path[0].facing, path[1].facing))
        bulge = reach * (1.0 - math.cos(math.radians(turned) / 2.0))
        if bulge > 0:
            area = area.buffer(bulge + _TIE, quad_segs=2)
    return area


Terrain: TypeAlias = "Sequence[Region] | Ground"
"""Regions, or regions already merged once by :meth:`Ground.of` (cheaper for many moves)."""


def _terrain_unions(terrain: Terrain) -> tuple[Any, Any]:
    if isinstance(terrain, Ground):
        return terrain.difficult, terrain.closed
    return _unions(terrain)


Box: TypeAlias = "tuple[float, float, float, float]"

_BOXES: WeakKeyDictionary[Ground, tuple[Box | None, Box | None]] = WeakKeyDictionary()
"""The bounds of each merged terrain's difficult and impassable shapes, found once."""


def _as_ground(terrain: Terrain) -> Ground:
    return terrain if isinstance(terrain, Ground) else Ground.of(terrain)


def _bounds(shape: Any) -> Box | None:
    if shape is None:
        return None
    x0, y0, x1, y1 = shape.bounds
    return float(x0), float(y0), float(x1), float(y1)


def _boxes(ground: Ground) -> tuple[Box | None, Box | None]:
    found = _BOXES.get(ground)
    if found is None:
        found = (_bounds(ground.difficult), _bounds(ground.closed))
        _BOXES[ground] = found
    return found


def _apart(a: Point, b: Point, box_: Box | None) -> bool:
    """True when the segment ``a``-``b`` cannot meet a shape within ``box_`` (its own
    bounding box lies strictly clear of it)."""
    if box_ is None:
        return True
    return (max(a[0], b[0]) < box_[0] or min(a[0], b[0]) > box_[2]
            or max(a[1], b[1]) < box_[1] or min(a[1], b[1]) > box_[3])


def _open_ground(a: Point, b: Point, boxes: tuple[Box | None, Box | None]) -> bool:
    """True when the segment ``a``-``b`` surely meets no difficult or impassable ground: it
    then costs its length, exactly what :func:`_segment_pieces` would find, without shapely."""
    return _apart(a, b, boxes[0]) and _apart(a, b, boxes[1])


def ground_cost(points: Sequence[Point], terrain: Terrain) -> float:
    """:func:`path_cost` over regions merged beforehand (or plain regions)."""
    ground = _as_ground(terrain)
    boxes = _boxes(ground)
    difficult, closed = ground.difficult, ground.closed
    total = 0.0
    for a, b in pairwise(points):
        if _open_ground(a, b, boxes):
            total += distance(a, b)
            continue
        pieces, block = _segment_pieces(a, b, difficult, closed)
        if block is not None:
            return math.inf
        total += sum((hi - lo) * rate for lo, hi, rate in pieces)
    return total


def move_points(tray: Tray) -> list[Point]:
    """The points of a tray whose paths a move's terrain cost is taken over: its centre, the
    four corners and the middle of the front edge."""
    return [tray.centre, *tray.corners(), tray.front_centre]


def advance_cost(tray: Tray, length: float, veer: float, regions: Terrain) -> float:
    """W4-MOVE-24: what an advance costs: the dearest path among :func:`move_points` (every
    inch in difficult ground costs 2)."""
    moved = advance(tray, length, veer)
    ground = _as_ground(regions)
    pairs = list(zip(move_points(tray), move_points(moved), strict=True))
    corners = [*tray.corners(), *moved.corners()]  # every move point lies within them
    if open_ground((min(p[0] for p in corners), min(p[1] for p in corners),
                    max(p[0] for p in corners), max(p[1] for p in corners)), ground):
        return max(distance(p, q) for p, q in pairs)  # what ground_cost finds there
    return max(ground_cost([p, q], ground) for p, q in pairs)


def open_ground(box_: Box, terrain: Terrain) -> bool:
    """True when nothing inside ``box_`` (min x, min y, max x, max y) is difficult or
    impassable: any walk within it costs exactly its length."""
    lo, hi = (box_[0], box_[1]), (box_[2], box_[3])
    return _open_ground(lo, hi, _boxes(_as_ground(terrain)))


def reach(tray: Tray, bearing_deg: float, budget: float, regions: Terrain) -> float:
    """W4-MOVE-24/25, W4-AMB-58: the farthest the tray can go along ``bearing_deg`` with
    ``budget`` inches of movement, every one of :func:`move_points` paying its own way
    (difficult ground at 2 per inch, continuously; impassable ground stops it).

    Example:
        >>> bog = Region.rect("bog", "marsh", -5, 3.5, 10, 10, difficult=True)
        >>> reach(Tray((0.0, 0.0), 0.0, 2.0, 1.0), 0.0, 6.0, [bog])
        4.5
    """
    if budget <= 0:
        return 0.0
    ground = _as_ground(regions)
    boxes = _boxes(ground)
    best = budget
    for p in move_points(tray):
        q = offset(p, bearing_deg, budget)
        if _open_ground(p, q, boxes):
            # What _travel finds on open ground: the whole budget, or the far end.
            length = distance(p, q)
            end = _point_at(p, q, length, budget) if length >= budget else \
                (float(q[0]), float(q[1]))
        else:
            end, _ = _travel([p, q], budget, ground.difficult, ground.closed)
        best = min(best, distance(p, end))
    return best


def arc_cost(tray: Tray, side: str, degrees: float, regions: Terrain,
             farthest_corner: bool = False) -> float:
    """What a wheel costs: :func:`wheel_distance`, with the part of the paying corner's arc
    inside difficult ground counted twice (W4-MOVE-24)."""
    base = wheel_distance(tray.width, tray.depth, degrees, farthest_corner)
    if base == 0.0 or (isinstance(regions, Ground) and regions.difficult is None) or (
            not isinstance(regions, Ground) and not regions):
        return base
    corner = tray.corners()[2 if side == "left" else 3] if farthest_corner else \
        tray.corners()[1 if side == "left" else 0]
    pivot = wheel_pivot(tray, side)
    turn = degrees if side == "right" else -degrees
    n = max(2, math.ceil(abs(degrees) / 2.0))
    arc = [rotate_about(corner, pivot, turn * i / n) for i in range(n + 1)]
    chord = sum(distance(a, b) for a, b in pairwise(arc))
    if not chord:
        return base
    box_ = (min(p[0] for p in arc), min(p[1] for p in arc), max(p[0] for p in arc),
            max(p[1] for p in arc))
    # On open ground ground_cost adds up the same lengths in the same order: the chord.
    return base * (chord if open_ground(box_, regions) else ground_cost(arc, regions)) / chord


def _ray_hit(p: Point, v: Point, a: Point, b: Point) -> float | None:
    """How far along ``v`` (a unit vector) from ``p`` the segment ``a``-``b`` lies."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    denom = v[0] * ey - v[1] * ex
    if abs(denom) < 1e-12:
        return None
    wx, wy = a[0] - p[0], a[1] - p[1]
    t = (wx * ey - wy * ex) / denom
    s = (wx * v[1] - wy * v[0]) / denom
    if t < -_TIE or s < -_TIE or s > 1.0 + _TIE:
        return None
    return max(t, 0.0)


def first_contact(tray: Tray, bearing_deg: float, length: float,
                  others: Sequence[Tray]) -> float | None:
    """How far the tray slides along ``bearing_deg`` (at most ``length``) before it first
    touches one of ``others`` (0 when it touches one already); None when it never does.

    Example:
        >>> first_contact(Tray((0.0, 0.0), 0.0, 2.0, 2.0), 0.0, 10.0,
        ...               [Tray((0.0, 6.0), 0.0, 2.0, 2.0)])
        4.0
    """
    v = _unit(bearing_deg)
    back = (-v[0], -v[1])
    mine = tray.corners()
    best: float | None = None
    for other in others:
        theirs = other.corners()
        if tray_gap(tray, other) <= _TIE:
            return 0.0
        hits = [_ray_hit(p, v, theirs[i], theirs[(i + 1) % 4]) for p in mine for i in range(4)]
        hits += [_ray_hit(q, back, mine[i], mine[(i + 1) % 4]) for q in theirs for i in range(4)]
        found = [t for t in hits if t is not None and t <= length + _TIE]
        if found and (best is None or min(found) < best):
            best = min(found)
    return best


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


# ---- war machines


def model_centres(tray: Tray, columns: int, rows: int, models: int) -> list[Point]:
    """The centre of each of the ``models`` model cells of a company tray (front row first,
    as :func:`model_cells` lays them out)."""
    cw, cd = tray.width / columns, tray.depth / rows
    out = []
    for i in range(min(models, columns * rows)):
        row, col = divmod(i, columns)
        out.append(tray.to_world(-tray.width / 2.0 + (col + 0.5) * cw,
                                 tray.depth / 2.0 - (row + 0.5) * cd))
    return out


def line_between(centre: Point, size: float, towards: Point, count: int, base: float,
                 gap: float = 0.25) -> list[Point]:
    """W4-WM-12: the centres of ``count`` square bases of width ``base`` (turned any way) in
    a line square to the way from a square footprint of width ``size`` at ``centre`` to
    ``towards``, just in front of it (``gap`` inches off its edge, not touching each other),
    centred on that way."""
    heading = bearing(centre, towards) if distance(centre, towards) > 1e-9 else 0.0
    anchor = Tray(centre, heading, 0.0, 0.0)
    half = math.sqrt(0.5)  # half the diagonal of a unit square: clear whatever the turn
    ahead = (size + base) * half + gap
    pitch = 2 * base * half + 0.05
    return [anchor.to_world((i - (count - 1) / 2.0) * pitch, ahead) for i in range(count)]


# ---- speed of moves (issue 15)


def _segment_meets_box(a: Point, b: Point, lo_x: float, lo_y: float, hi_x: float,
                       hi_y: float) -> bool:
    """True when the segment ``a``-``b`` meets the closed box (Liang-Barsky clipping)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - lo_x), (dx, hi_x - a[0]), (-dy, a[1] - lo_y), (dy, hi_y - a[1])):
        if p == 0.0:
            if q < 0.0:
                return False
            continue
        t = q / p
        if p < 0.0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def segment_misses_box(a: Point, b: Point, box: tuple[float, float, float, float],
                       margin: float) -> bool:
    """True when the segment ``a``-``b`` stays more than ``margin`` from the box
    ``(min x, min y, max x, max y)``: it misses the box grown square by ``margin``, which
    holds every point that near. False means only "it may come that near"."""
    return not _segment_meets_box(a, b, box[0] - margin, box[1] - margin, box[2] + margin,
                                  box[3] + margin)


def _point_segment_gap(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if span == 0.0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                              / span))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def segment_tray_gap(a: Point, b: Point, tray: Tray) -> float:
    """The distance from the segment ``a``-``b`` to ``tray`` (0 when it meets the tray): the
    nearest of the ends to the tray and the corners to the segment, worked out in the
    tray's own frame."""
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    fx, fy = _unit(tray.facing)  # to_local's arithmetic, the heading worked out once
    cx, cy = tray.centre
    ax, ay, bx, by = a[0] - cx, a[1] - cy, b[0] - cx, b[1] - cy
    la, lb = (ax * fy - ay * fx, ax * fx + ay * fy), (bx * fy - by * fx, bx * fx + by * fy)
    if _segment_meets_box(la, lb, -hw, -hd, hw, hd):
        return 0.0
    ends = min(math.hypot(max(abs(p[0]) - hw, 0.0), max(abs(p[1]) - hd, 0.0)) for p in (la, lb))
    corners = min(_point_segment_gap(c, la, lb)
                  for c in ((-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)))
    return min(ends, corners)
