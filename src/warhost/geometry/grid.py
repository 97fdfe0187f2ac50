"""Square-grid geometry shared by every rule system.

Conventions:

* Square ``(x, y)`` is the closed cell ``[x, x+1] x [y, y+1]``. Corner points of cells are plain
  integer pairs too.
* A unit's *space* is a rectangle of squares: one square (size 1) or a 2x2 block (size 2) named by
  its lowest ``(x, y)`` square, the *anchor*. Functions taking a space accept any collection of
  squares forming a full rectangle (tuple, list, frozenset); they read only its lowest and highest
  squares, so a non-rectangular collection gives meaningless answers.
* Squares touching diagonally are adjacent; distance is Chebyshev (king moves).
* North is +y. A facing is one of eight compass names (:data:`FACINGS`), clockwise from north
  like :data:`DIRECTIONS8`; a square's level (:meth:`Grid.level`) is its elevation in squares.

Everything here is exact integer arithmetic: centres of spaces are handled as *doubled*
coordinates so they stay integral, and segment/square tests compare fractions by
cross-multiplying. Results never depend on hash order, so they are reproducible run to run.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, TypeAlias

from warhost.core.metering import GEOMETRY, count

Square: TypeAlias = tuple[int, int]
"""A grid square ``(x, y)``; the same pair type also names lattice corner points."""

Point: TypeAlias = tuple[int, int]
"""An integer lattice (corner) point."""

DIRECTIONS4: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""The four orthogonal unit steps, clockwise from +y."""

DIRECTIONS8: tuple[Square, ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
"""The eight king-move unit steps, clockwise from +y."""

_DIRECTION_SET = frozenset(DIRECTIONS8)

DEFAULT_TERRAIN = "clear"
"""Terrain name of a square nobody has set."""

__all__ = [
    "ARC_FLANK",
    "ARC_FRONT",
    "ARC_REAR",
    "DEFAULT_TERRAIN",
    "DIRECTIONS4",
    "DIRECTIONS8",
    "FACINGS",
    "Facing",
    "Grid",
    "Point",
    "Square",
    "arc_of",
    "arc_squares",
    "beyond_side",
    "bresenham",
    "bresenham_ray",
    "burst_squares",
    "centre2",
    "chebyshev",
    "chebyshev3",
    "edge_drops",
    "elevation_step_cost",
    "entered_squares",
    "exposed_sides",
    "facing_arc",
    "facing_name",
    "facing_step",
    "facing_toward",
    "fire_lines",
    "flood_levels",
    "flood_table",
    "footprint",
    "formation_ok",
    "forward_most",
    "has_line_of_sight",
    "heading_of",
    "height_step_ok",
    "holes",
    "in_bounds",
    "in_cover",
    "line_squares",
    "path_back",
    "projection",
    "reachable",
    "removal_ok",
    "removal_order",
    "ring",
    "ring_arc",
    "segment_touches_square",
    "shapes",
    "share_side",
    "side_connected",
    "side_contacts",
    "sight_line",
    "space_distance",
    "spaces_touch",
    "squares_touched",
    "straight_path",
    "straight_runs",
    "strictly_between",
    "touched_offsets",
    "translate",
    "unit_distance",
    "wave_squares",
]


# --------------------------------------------------------------------------- spaces and distance


@cache
def footprint(anchor: Square, size: int) -> tuple[Square, ...]:
    """Squares covered by a unit of ``size`` 1 or 2 anchored at ``anchor`` (sorted, cached)."""
    x, y = anchor
    if size == 1:
        return ((x, y),)
    if size == 2:
        return ((x, y), (x, y + 1), (x + 1, y), (x + 1, y + 1))
    raise ValueError(f"unit size must be 1 or 2, not {size!r}")


def chebyshev(a: Square, b: Square) -> int:
    """Chebyshev (king-move) distance between two squares."""
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    # Conditional expressions instead of max(): several times faster on this hot path.
    return dx if dx > dy else dy  # noqa: FURB136


def ring(sq: Square, r: int) -> list[Square]:
    """The squares at Chebyshev distance exactly ``r`` from ``sq`` (8r of them; ``[sq]`` for
    0), row by row from the lowest y, each row by x: searching outward ring by ring finds the
    nearest things without looking at anything farther."""
    if r <= 0:
        return [sq]
    x, y = sq
    out = [(x + dx, y - r) for dx in range(-r, r + 1)]
    for dy in range(-r + 1, r):
        out.append((x - r, y + dy))
        out.append((x + r, y + dy))
    out.extend((x + dx, y + r) for dx in range(-r, r + 1))
    return out


def space_distance(a: Collection[Square], b: Collection[Square]) -> int:
    """Smallest Chebyshev distance between a square of ``a`` and one of ``b`` (0 on overlap).

    Both spaces must be rectangles: the gap is computed from their bounding boxes.
    """
    if len(a) == 1:
        for ax0, ay0 in a:
            ax1, ay1 = ax0, ay0
    else:
        ax0, ay0, ax1, ay1 = _bounds(a)
    if len(b) == 1:
        for bx0, by0 in b:
            bx1, by1 = bx0, by0
    else:
        bx0, by0, bx1, by1 = _bounds(b)
    # Conditionals instead of max(): several times faster on this hot path.
    gx = bx0 - ax1
    if ax0 - bx1 > gx:  # noqa: PLR1730
        gx = ax0 - bx1
    gy = by0 - ay1
    if ay0 - by1 > gy:  # noqa: PLR1730
        gy = ay0 - by1
    d = gx if gx > gy else gy  # noqa: FURB136
    return d if d > 0 else 0  # noqa: FURB136


def spaces_touch(a: Collection[Square], b: Collection[Square]) -> bool:
    """True when the spaces do not overlap but are adjacent (orthogonally or diagonally)."""
    return space_distance(a, b) == 1


def square_of_text(text: object) -> Square | None:
    """The square written ``x,y`` (as orders write them), or None if it is not one."""
    parts = str(text).split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def in_bounds(sq: Square, width: int, height: int) -> bool:
    """True when ``sq`` lies on a ``width`` x ``height`` board with squares from (0, 0)."""
    return 0 <= sq[0] < width and 0 <= sq[1] < height


def _bounds(space: Collection[Square]) -> tuple[int, int, int, int]:
    """Lowest and highest square coordinates ``(x0, y0, x1, y1)`` of a rectangular space."""
    n = len(space)
    if n == 1:
        for x, y in space:
            return x, y, x, y
    if n == 4 and (type(space) is tuple or type(space) is list):
        # Fast path for a 2x2 block listed with its opposite corners first and last (as
        # footprint() does): only the anchor and the square diagonally above it differ by (1, 1).
        x0, y0 = space[0]
        x1, y1 = space[3]
        if x1 == x0 + 1 and y1 == y0 + 1:
            return x0, y0, x1, y1
        if x0 == x1 + 1 and y0 == y1 + 1:
            return x1, y1, x0, y0
    if not n:
        raise ValueError("a space needs at least one square")
    # A full rectangle's smallest (x, y) tuple is its low corner, the largest its high corner.
    x0, y0 = min(space)
    x1, y1 = max(space)
    return x0, y0, x1, y1


def centre2(space: Collection[Square]) -> tuple[int, int]:
    """Doubled centre point of a rectangular space (integer; halve it for the true centre)."""
    x0, y0, x1, y1 = _bounds(space)
    return x0 + x1 + 1, y0 + y1 + 1


def strictly_between(
    a_space: Collection[Square], mid_space: Collection[Square], b_space: Collection[Square]
) -> bool:
    """True when the centre of ``mid_space`` lies on the open segment joining the other centres."""
    ax, ay = centre2(a_space)
    mx, my = centre2(mid_space)
    bx, by = centre2(b_space)
    ux, uy = bx - ax, by - ay
    vx, vy = mx - ax, my - ay
    if ux * vy - uy * vx != 0:
        return False
    dot = ux * vx + uy * vy
    return 0 < dot < ux * ux + uy * uy


# --------------------------------------------------------------------------- the grid


class Grid:
    """A ``width`` x ``height`` board holding a terrain name and a level for every square.

    Storage is two flat lists indexed ``y * width + x``, so lookups are O(1).
    """

    __slots__ = ("_level", "_neighbours", "_terrain", "_version", "height", "width")

    def __init__(self, width: int, height: int) -> None:
        if width <= 0 or height <= 0:
            raise ValueError(f"grid size must be positive, not {width}x{height}")
        self.width = width
        self.height = height
        cells = width * height
        self._terrain: list[str] = [DEFAULT_TERRAIN] * cells
        self._level: list[int] = [0] * cells
        self._neighbours: list[tuple[Square, ...]] | None = None
        self._version = 0  # bumped by every set_terrain: caches keyed on a grid check it

    def _index(self, sq: Square) -> int:
        x, y = sq
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        raise ValueError(f"square {sq!r} is off the {self.width}x{self.height} grid")

    def contains(self, sq: Square) -> bool:
        """True when ``sq`` is on this grid."""
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def terrain(self, sq: Square) -> str:
        """Terrain name of ``sq``."""
        return self._terrain[self._index(sq)]

    def level(self, sq: Square) -> int:
        """Level (height step) of ``sq``."""
        return self._level[self._index(sq)]

    def set_terrain(self, sq: Square, name: str, level: int = 0) -> None:
        """Give ``sq`` a terrain name and level."""
        i = self._index(sq)
        self._terrain[i] = name
        self._level[i] = level
        self._version += 1

    def squares(self) -> Iterator[Square]:
        """Every square, row by row: y ascending, then x ascending."""
        w = self.width
        for y in range(self.height):
            for x in range(w):
                yield (x, y)

    def _neighbour_table(self) -> list[tuple[Square, ...]]:
        table: list[tuple[Square, ...]] = []
        w, h = self.width, self.height
        for y in range(h):
            for x in range(w):
                table.append(
                    tuple(
                        (x + dx, y + dy)
                        for dx, dy in DIRECTIONS8
                        if 0 <= x + dx < w and 0 <= y + dy < h
                    )
                )
        self._neighbours = table
        return table

    def neighbours(self, sq: Square) -> list[Square]:
        """On-grid squares adjacent to ``sq`` (up to 8, in :data:`DIRECTIONS8` order)."""
        table = self._neighbours
        if table is None:
            table = self._neighbour_table()
        return list(table[self._index(sq)])

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form: size plus the squares that differ from clear level-0 ground."""
        w = self.width
        cells: list[dict[str, Any]] = []
        for i, (name, lvl) in enumerate(zip(self._terrain, self._level)):
            if name != DEFAULT_TERRAIN or lvl != 0:
                cells.append({"x": i % w, "y": i // w, "terrain": name, "level": lvl})
        return {"width": self.width, "height": self.height, "squares": cells}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Grid:
        """Rebuild a grid from :meth:`to_dict` output (missing fields take their defaults)."""
        try:
            width = data["width"]
            height = data["height"]
        except KeyError as exc:
            raise ValueError(f"grid data lacks {exc.args[0]!r}") from None
        if not isinstance(width, int) or not isinstance(height, int):
            raise TypeError("grid width and height must be integers")
        grid = cls(width, height)
        for cell in data.get("squares", ()):
            x, y = cell["x"], cell["y"]
            name = cell.get("terrain", DEFAULT_TERRAIN)
            lvl = cell.get("level", 0)
            if not (isinstance(x, int) and isinstance(y, int) and isinstance(lvl, int)):
                raise TypeError(f"grid square {cell!r} needs integer x, y and level")
            if not isinstance(name, str):
                raise TypeError(f"grid square {cell!r} needs a string terrain name")
            grid.set_terrain((x, y), name, lvl)
        return grid

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return (
            self.width == other.width
            and self.height == other.height
            and self._terrain == other._terrain
            and self._level == other._level
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Grid({self.width}x{self.height})"


# --------------------------------------------------------------------------- lines of fire


def segment_touches_square(p: Point, q: Point, sq: Square) -> bool:
    """True when segment ``p``-``q`` meets closed square ``sq`` somewhere besides just ``p``/``q``.

    Grazing a corner or running along an edge counts; meeting the square only at one end point of
    the segment does not. Exact: the clip interval of the segment parameter ``t`` is kept as
    integer fractions and compared by cross-multiplying.
    """
    px, py = p
    dx = q[0] - px
    dy = q[1] - py
    if dx == 0 and dy == 0:
        return False
    x0, y0 = sq
    # t-interval [ln/ld, hn/hd] of the segment inside the square, starting from [0, 1].
    ln, ld, hn, hd = 0, 1, 1, 1
    if dx > 0:
        a, b, d = x0 - px, x0 + 1 - px, dx
    elif dx < 0:
        a, b, d = px - x0 - 1, px - x0, -dx
    else:
        if px < x0 or px > x0 + 1:
            return False
        d = 0
    if d:
        if b < 0 or a > d:  # entirely before t=0 or after t=1
            return False
        if a > 0:
            ln, ld = a, d
        if b < d:
            hn, hd = b, d
    if dy > 0:
        a, b, d = y0 - py, y0 + 1 - py, dy
    elif dy < 0:
        a, b, d = py - y0 - 1, py - y0, -dy
    else:
        if py < y0 or py > y0 + 1:
            return False
        d = 0
    if d:
        if a * ld > ln * d:
            ln, ld = a, d
        if b * hd < hn * d:
            hn, hd = b, d
    lo = ln * hd
    hi = hn * ld
    if lo > hi:
        return False
    if lo < hi:
        return True
    # A single meeting point at t = ln/ld: it must not be an end point.
    return 0 < ln < ld


@lru_cache(maxsize=1 << 16)
def _touched_from_origin(dx: int, dy: int) -> tuple[Square, ...]:
    """Squares touched by the segment (0, 0)-(dx, dy), sorted; cached per offset."""
    if dx == 0 and dy == 0:
        return ()
    if dx >= 0:
        ax, ay, bx, by = 0, 0, dx, dy
    else:
        ax, ay, bx, by = dx, dy, 0, 0
    p = (0, 0)
    q = (dx, dy)
    out: list[Square] = []
    run = bx - ax
    rise = by - ay
    for col in range(ax - 1, bx + 1):
        xa = max(col, ax)
        xb = min(col + 1, bx)
        if run == 0:
            first, last = min(ay, by) - 1, max(ay, by)
        else:
            # y on the segment at x is ay + (x - ax) * rise / run; scaled by run here.
            n1 = ay * run + (xa - ax) * rise
            n2 = ay * run + (xb - ax) * rise
            if n1 > n2:
                n1, n2 = n2, n1
            first = -((-n1) // run) - 1
            last = n2 // run
        for row in range(first, last + 1):
            if segment_touches_square(p, q, (col, row)):
                out.append((col, row))
    return tuple(out)


def squares_touched(p: Point, q: Point) -> list[Square]:
    """Every square the segment ``p``-``q`` touches (see :func:`segment_touches_square`), sorted."""
    px, py = p
    return [(px + x, py + y) for x, y in _touched_from_origin(q[0] - px, q[1] - py)]


def touched_offsets(dx: int, dy: int) -> tuple[Square, ...]:
    """Squares touched by the segment (0, 0)-(dx, dy), sorted, as offsets (cached): add the
    segment's start to each for :func:`squares_touched`."""
    return _touched_from_origin(dx, dy)


def line_squares(p: Point, q: Point, ignore: Collection[Square]) -> list[Square]:
    """Squares touched by ``p``-``q`` except those in ``ignore`` (sorted)."""
    px, py = p
    out: list[Square] = []
    for x, y in _touched_from_origin(q[0] - px, q[1] - py):
        sq = (px + x, py + y)
        if sq not in ignore:
            out.append(sq)
    return out


def _corners(x0: int, y0: int, x1: int, y1: int) -> tuple[Point, ...]:
    """Corner points of the rectangle of squares x0..x1, y0..y1, sorted."""
    return ((x0, y0), (x0, y1 + 1), (x1 + 1, y0), (x1 + 1, y1 + 1))


def fire_lines(
    shooter: Collection[Square], target: Collection[Square]
) -> list[tuple[Point, Point]]:
    """Candidate lines of fire as (shooter corner, target corner) pairs.

    Shooter corners used are those nearest the target's centre; each is paired with the target
    corners nearest to it. Pairs come sorted and without repeats (at most 4 for spaces that do not
    overlap).
    """
    sx0, sy0, sx1, sy1 = _bounds(shooter)
    tx0, ty0, tx1, ty1 = _bounds(target)
    rel = _fire_lines_rel(tx0 - sx0, ty0 - sy0, sx1 - sx0, sy1 - sy0, tx1 - tx0, ty1 - ty0)
    return [((sx0 + a, sy0 + b), (sx0 + c, sy0 + d)) for (a, b), (c, d) in rel]


@lru_cache(maxsize=1 << 16)
def _fire_lines_rel(
    tx0: int, ty0: int, s_w: int, s_h: int, t_w: int, t_h: int
) -> tuple[tuple[Point, Point], ...]:
    """:func:`fire_lines` with the shooter's low square at the origin; cached per layout.

    ``s_w``/``s_h`` and ``t_w``/``t_h`` are the extents of the spaces minus one.
    """
    tx1 = tx0 + t_w
    ty1 = ty0 + t_h
    cx = tx0 + tx1 + 1  # doubled centre of the target
    cy = ty0 + ty1 + 1
    best = -1
    chosen: list[Point] = []
    for corner in _corners(0, 0, s_w, s_h):
        ex = 2 * corner[0] - cx
        ey = 2 * corner[1] - cy
        d2 = ex * ex + ey * ey
        if best < 0 or d2 < best:
            best = d2
            chosen = [corner]
        elif d2 == best:
            chosen.append(corner)
    target_corners = _corners(tx0, ty0, tx1, ty1)
    lines: list[tuple[Point, Point]] = []
    for s in chosen:
        best = -1
        ends: list[Point] = []
        for t in target_corners:
            ex = t[0] - s[0]
            ey = t[1] - s[1]
            d2 = ex * ex + ey * ey
            if best < 0 or d2 < best:
                best = d2
                ends = [t]
            elif d2 == best:
                ends.append(t)
        for t in ends:
            pair = (s, t)
            if pair not in lines:
                lines.append(pair)
    return tuple(lines)


# --------------------------------------------------------------------------- movement


def reachable(
    start: Square,
    budget: int,
    step_cost: Callable[[Square, Square], int | None],
    can_stop: Callable[[Square], bool] | None = None,
    halts: Callable[[Square], bool] | None = None,
) -> dict[Square, tuple[int, tuple[Square, ...]]]:
    """Cheapest moves from ``start`` over 8-direction steps within ``budget``.

    ``step_cost(a, b)`` gives the (non-negative integer) cost of stepping from anchor ``a`` to
    ``b``, or None when the step is illegal. An anchor for which ``halts`` is true ends movement:
    it can be reached but not left. An anchor for which ``can_stop`` is false can be moved through
    but is left out of the result. The result maps each stoppable anchor to ``(cost, path)``,
    where ``path`` lists the anchors entered after ``start``; ``start`` itself is always present
    as ``(0, ())``. Among equally cheap paths the lexicographically smallest wins, so the answer
    does not depend on any iteration order. To limit climbing, wrap the step cost with
    :func:`elevation_step_cost`.
    """
    result: dict[Square, tuple[int, tuple[Square, ...]]] = {}
    done: set[Square] = set()
    best: dict[Square, tuple[int, tuple[Square, ...]]] = {start: (0, ())}
    heap: list[tuple[int, tuple[Square, ...], Square]] = [(0, (), start)]
    pop = heapq.heappop
    push = heapq.heappush
    directions = DIRECTIONS8
    while heap:
        cost, path, here = pop(heap)
        if here in done:
            continue
        done.add(here)
        if not path:
            result[here] = (0, path)
        else:
            if can_stop is None or can_stop(here):
                result[here] = (cost, path)
            if halts is not None and halts(here):
                continue
        hx, hy = here
        for ddx, ddy in directions:
            nxt = (hx + ddx, hy + ddy)
            if nxt in done:
                continue
            step = step_cost(here, nxt)
            if step is None:
                continue
            new_cost = cost + step
            if new_cost > budget:
                continue
            known = best.get(nxt)
            if known is None:
                new_path = path + (nxt,)
            else:
                known_cost = known[0]
                if new_cost > known_cost:
                    continue
                new_path = path + (nxt,)
                if new_cost == known_cost and new_path >= known[1]:
                    continue
            best[nxt] = (new_cost, new_path)
            push(heap, (new_cost, new_path, nxt))
    return result


def flood_levels(
    levels: Sequence[int],
    width: int,
    start: Square,
    budget: int,
    max_step: int,
    diagonal_cost: int,
    owners: Sequence[int] | None = None,
    friend: int = -1,
) -> tuple[dict[Square, int], dict[Square, Square]]:
    """Cheapest cost of every square reachable from ``start`` within ``budget``, and the square
    each was first reached from (follow it back with :func:`path_back`).

    Every step costs 1 (a diagonal ``diagonal_cost``); ``levels[y * width + x]`` is a square's
    height (-1: nobody may enter); a step may not rise or drop more than ``max_step``; a square
    whose ``owners`` entry is neither -1 nor ``friend`` (an enemy stands there) may not be
    entered. One bucket per whole cost instead of a heap, flat indices instead of tuples, and
    no path built until one is asked for: it runs for every character every turn. Squares are
    expanded cheapest first and, within a cost, in the order reached, so the answer does not
    depend on hash order. With numba, and ``levels`` (and ``owners``) as NumPy arrays, the
    compiled flood of :mod:`warhost.geometry._flood_kernel` does the work, with the same
    answers.
    """
    if not isinstance(levels, list) and not isinstance(owners, list):
        from warhost.geometry import _flood_kernel as kernel

        if kernel.AVAILABLE:
            return _flood_compiled(kernel, levels, width, start, budget, max_step,
                                   diagonal_cost, owners, friend)
    return _flood_levels_py(levels, width, start, budget, max_step, diagonal_cost, owners,
                            friend)


def flood_table(values: list[int]) -> Any:
    """``values`` in the form :func:`flood_levels` runs fastest on: a NumPy array when the
    compiled flood is available (item assignment works on both), else the list itself."""
    from warhost.geometry import _flood_kernel as kernel

    if kernel.AVAILABLE:
        import numpy as np

        return np.array(values, np.int64)
    return values


def _flood_compiled(kernel: Any, levels: Any, width: int, start: Square, budget: int,
                    max_step: int, diagonal_cost: int, owners: Any, friend: int
                    ) -> tuple[dict[Square, int], dict[Square, Square]]:
    """:func:`flood_levels` through the compiled kernel, on NumPy arrays."""
    import numpy as np

    span = 2 * budget + 1
    cost = np.full(span * span, -1, np.int64)
    parent = np.empty(span * span, np.int64)
    seen = np.empty(span * span, np.int64)
    sx, sy = start
    n = kernel.flood(levels, levels if owners is None else owners, owners is not None, width,
                     len(levels) // width, sx, sy, budget, max_step, diagonal_cost, friend,
                     kernel.DX, kernel.DY, cost, parent, seen)
    wx = sx - budget
    wy = sy - budget
    order = seen[:n].tolist()
    cost_list = cost.tolist()
    parent_list = parent.tolist()
    costs = {(wx + i % span, wy + i // span): cost_list[i] for i in order}
    parents = {(wx + i % span, wy + i // span): (wx + parent_list[i] % span,
                                                  wy + parent_list[i] // span)
               for i in order[1:]}
    return costs, parents


def _flood_levels_py(
    levels: Sequence[int],
    width: int,
    start: Square,
    budget: int,
    max_step: int,
    diagonal_cost: int,
    owners: Sequence[int] | None = None,
    friend: int = -1,
) -> tuple[dict[Square, int], dict[Square, Square]]:
    """The pure-Python flood of :func:`flood_levels` (the reference, and the way without
    numba)."""
    height = len(levels) // width
    sx, sy = start
    origin = sy * width + sx
    cost_of: dict[int, int] = {origin: 0}
    parent_of: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(origin)
    steps = [(dx, dy, dy * width + dx, diagonal_cost if dx and dy else 1)
             for dx, dy in DIRECTIONS8]
    get = cost_of.get
    for cost in range(budget + 1):
        for here in buckets[cost]:
            if cost_of[here] != cost:
                continue
            hy, hx = divmod(here, width)
            here_level = levels[here]
            for dx, dy, offset, step in steps:
                new_cost = cost + step
                if new_cost > budget:
                    continue
                x = hx + dx
                y = hy + dy
                if x < 0 or y < 0 or x >= width or y >= height:
                    continue
                nxt = here + offset
                level = levels[nxt]
                if level < 0 or abs(level - here_level) > max_step:
                    continue
                if owners is not None and owners[nxt] not in (-1, friend):
                    continue
                known = get(nxt)
                if known is None or new_cost < known:
                    cost_of[nxt] = new_cost
                    parent_of[nxt] = here
                    buckets[new_cost].append(nxt)
    costs = {(i % width, i // width): c for i, c in cost_of.items()}
    parents = {(i % width, i // width): (p % width, p // width) for i, p in parent_of.items()}
    return costs, parents


def path_back(parents: Mapping[Square, Square], start: Square, end: Square) -> tuple[Square, ...]:
    """The squares entered on the way from ``start`` to ``end`` (``end`` last, ``start`` left
    out), read back through the ``parents`` of :func:`flood_levels`."""
    path: list[Square] = []
    here = end
    while here != start:
        path.append(here)
        here = parents[here]
    path.reverse()
    return tuple(path)


def straight_runs(
    start: Square, max_steps: int, step_ok: Callable[[Square, Square], bool]
) -> dict[Square, tuple[Square, ...]]:
    """Anchors reachable by moving straight in one of the 8 directions, with their paths.

    Each direction is followed while ``step_ok(previous, next)`` holds, for at most
    ``max_steps`` steps; ``start`` itself is not included.
    """
    out: dict[Square, tuple[Square, ...]] = {}
    sx, sy = start
    for ddx, ddy in DIRECTIONS8:
        prev = start
        path: tuple[Square, ...] = ()
        for n in range(1, max_steps + 1):
            nxt = (sx + ddx * n, sy + ddy * n)
            if not step_ok(prev, nxt):
                break
            path = path + (nxt,)
            out[nxt] = path
            prev = nxt
    return out


def facing_arc(sq: Square, facing: Square) -> tuple[Square, Square, Square]:
    """The three squares in front of ``sq`` for a unit-step ``facing``; the middle one is dead ahead.

    Orthogonal facing: the square ahead flanked by its two neighbours across the facing, ordered
    by increasing coordinate. Diagonal facing ``(dx, dy)``: ``(x+dx, y)``, ``(x+dx, y+dy)``,
    ``(x, y+dy)``.
    """
    if facing not in _DIRECTION_SET:
        raise ValueError(f"facing must be a unit step, not {facing!r}")
    x, y = sq
    dx, dy = facing
    if dx == 0:
        return ((x - 1, y + dy), (x, y + dy), (x + 1, y + dy))
    if dy == 0:
        return ((x + dx, y - 1), (x + dx, y), (x + dx, y + 1))
    return ((x + dx, y), (x + dx, y + dy), (x, y + dy))


# --------------------------------------------------------------------------- facing and arcs
#
# A facing is one of eight compass names; north is +y, and the names run clockwise like
# DIRECTIONS8. Functions that take a facing accept the name or its unit step.

FACINGS: dict[str, Square] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
"""The eight facing names mapped to their unit steps, clockwise from north (+y)."""

_FACING_NAMES: dict[Square, str] = {step: name for name, step in FACINGS.items()}
_RING_INDEX: dict[Square, int] = {step: i for i, step in enumerate(DIRECTIONS8)}

Facing: TypeAlias = str | tuple[int, int]
"""A facing given as its name (``"NE"``) or its unit step (``(1, 1)``)."""

ARC_FRONT = "front"
ARC_FLANK = "flank"
ARC_REAR = "rear"

# Arc of a ring position, indexed by clockwise 45-degree steps away from the facing.
_ARC_BY_TURN: tuple[str, ...] = (
    ARC_FRONT,
    ARC_FRONT,
    ARC_FLANK,
    ARC_REAR,
    ARC_REAR,
    ARC_REAR,
    ARC_FLANK,
    ARC_FRONT,
)


def facing_step(name: str) -> Square:
    """Unit step of a facing name, e.g. ``facing_step("SW") == (-1, -1)``."""
    try:
        return FACINGS[name]
    except KeyError:
        raise ValueError(f"unknown facing {name!r}; expected one of {', '.join(FACINGS)}") from None


def facing_name(step: Square) -> str:
    """Facing name of a unit step, e.g. ``facing_name((1, 0)) == "E"``."""
    try:
        return _FACING_NAMES[step]
    except KeyError:
        raise ValueError(f"facing must be a unit step, not {step!r}") from None


def _ring_index(facing: Facing) -> int:
    """Position 0..7 of a facing (name or step) in :data:`DIRECTIONS8`."""
    step = facing_step(facing) if isinstance(facing, str) else facing
    try:
        return _RING_INDEX[step]
    except KeyError:
        raise ValueError(f"facing must be a unit step or a facing name, not {facing!r}") from None


def _nearest_step(dx: int, dy: int) -> Square:
    """The unit step whose direction is nearest the non-zero vector ``(dx, dy)``.

    The eight sectors meet at odd multiples of 22.5 degrees. No integer vector lies exactly on
    such a boundary (that would need ``tan 22.5° = sqrt(2) - 1`` to be rational), so the answer is
    always unique and no tie-break is needed. The test is exact: with ``ax <= ay``, the vector
    is nearer the axis than the diagonal when ``ax < (sqrt(2) - 1) * ay``, i.e. when
    ``(ax + ay)**2 < 2 * ay**2``.
    """
    ax = dx if dx >= 0 else -dx
    ay = dy if dy >= 0 else -dy
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if ax == ay:
        return (sx, sy)
    if ax < ay:
        return (0, sy) if (ax + ay) ** 2 < 2 * ay * ay else (sx, sy)
    return (sx, 0) if (ax + ay) ** 2 < 2 * ax * ax else (sx, sy)


def facing_toward(a: Square, b: Square) -> str:
    """Name of the facing at square ``a`` that points most nearly at square ``b``.

    Directions are taken between square centres, so for an adjacent ``b`` the answer is exactly
    the step from ``a`` to ``b``. Each facing owns the 45-degree sector centred on it; a lattice
    offset never falls on a sector boundary, so there are no ties to break (see
    :func:`_nearest_step`). Raises ValueError when ``a == b``.

    Example:
        >>> facing_toward((0, 0), (5, 2))
        'E'
        >>> facing_toward((0, 0), (5, 3))
        'NE'
    """
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    if dx == 0 and dy == 0:
        raise ValueError(f"no facing points from square {a!r} to itself")
    return _FACING_NAMES[_nearest_step(dx, dy)]


def ring_arc(facing: Facing, offset: Square) -> str:
    """Arc (``"front"``, ``"flank"`` or ``"rear"``) of an adjacent ``offset`` around a facing.

    Of the ring of eight neighbours, the front is the faced square and its two ring neighbours,
    the rear the square directly opposite and its two ring neighbours, and the flank the two
    squares left between them (one on each side).

    Example:
        >>> [ring_arc("N", step) for step in DIRECTIONS8]
        ['front', 'front', 'flank', 'rear', 'rear', 'rear', 'flank', 'front']
    """
    try:
        where = _RING_INDEX[offset]
    except KeyError:
        raise ValueError(f"offset must be an adjacent unit step, not {offset!r}") from None
    return _ARC_BY_TURN[(where - _ring_index(facing)) % 8]


def arc_of(sq: Square, facing: Facing, other: Square) -> str:
    """Arc of any square ``other`` around a character on ``sq`` with the given facing.

    ``other`` is placed in one of the eight 45-degree sectors around ``sq`` (by the direction
    between square centres, as :func:`facing_toward`) and that sector's neighbour gives the arc
    through :func:`ring_arc`. So the front and rear each span 135 degrees and the flanks 45
    degrees each. Lattice squares never lie on a sector boundary, so none needs resolving.
    Raises ValueError when ``other == sq``.
    """
    dx = other[0] - sq[0]
    dy = other[1] - sq[1]
    if dx == 0 and dy == 0:
        raise ValueError(f"square {sq!r} has no arc relative to itself")
    return ring_arc(facing, _nearest_step(dx, dy))


def arc_squares(sq: Square, facing: Facing, arc: str) -> tuple[Square, ...]:
    """The neighbours of ``sq`` in one arc of ``facing``, in :data:`DIRECTIONS8` order.

    Off-board squares are included; filter them with :func:`in_bounds` where needed.
    """
    if arc not in (ARC_FRONT, ARC_FLANK, ARC_REAR):
        raise ValueError(f"arc must be 'front', 'flank' or 'rear', not {arc!r}")
    base = _ring_index(facing)
    x, y = sq
    return tuple(
        (x + dx, y + dy)
        for i, (dx, dy) in enumerate(DIRECTIONS8)
        if _ARC_BY_TURN[(i - base) % 8] == arc
    )


# --------------------------------------------------------------------------- elevation


def height_step_ok(grid: Grid, a: Square, b: Square, max_step: int) -> bool:
    """True when the levels of ``a`` and ``b`` differ by at most ``max_step`` (either way)."""
    d = grid.level(a) - grid.level(b)
    return -max_step <= d <= max_step


def chebyshev3(a: Square, b: Square, grid: Grid) -> int:
    """3-D Chebyshev distance: the largest of the x, y and level differences of two squares."""
    dz = grid.level(a) - grid.level(b)
    if dz < 0:
        dz = -dz
    d = chebyshev(a, b)
    return d if d > dz else dz  # noqa: FURB136


def edge_drops(grid: Grid, sq: Square, passable: Callable[[Square], bool]) -> list[Square]:
    """On-grid passable neighbours of ``sq`` lying 2 or more levels below it.

    ``sq`` is an edge exactly when the list is non-empty. Sorted lowest level first, then by
    square; several squares may share the lowest level (the caller chooses among them).
    """
    here = grid.level(sq)
    found = [(grid.level(n), n) for n in grid.neighbours(sq) if passable(n)]
    count(GEOMETRY, len(found))
    return [n for lvl, n in sorted(found) if lvl <= here - 2]


def elevation_step_cost(
    grid: Grid, max_step: int, step_cost: Callable[[Square, Square], int | None]
) -> Callable[[Square, Square], int | None]:
    """Wrap ``step_cost`` for :func:`reachable` so it also refuses steep or off-grid steps.

    The wrapped function returns None for a step that leaves the grid or changes level by more
    than ``max_step``, and otherwise whatever ``step_cost`` says (the caller's own occupancy and
    terrain rules). ``step_cost`` is only called for on-grid steps.
    """
    width = grid.width
    height = grid.height
    level = grid.level

    def cost(a: Square, b: Square) -> int | None:
        if not (0 <= b[0] < width and 0 <= b[1] < height):
            return None
        d = level(a) - level(b)
        if d > max_step or -d > max_step:
            return None
        return step_cost(a, b)

    return cost


# --------------------------------------------------------------------------- lines and sight


def _round_half_down(num: int, den: int) -> int:
    """``num / den`` (``den > 0``) rounded to the nearest integer, halves rounded down."""
    return -((den - 2 * num) // (2 * den))


def _line_point(a: Square, dx: int, dy: int, n: int, i: int) -> Square:
    """Square ``i`` major-axis steps along the Bresenham line from ``a`` by ``(dx, dy)``."""
    ax, ay = a
    if (dx if dx >= 0 else -dx) >= (dy if dy >= 0 else -dy):
        step = 1 if dx > 0 else -1
        return (ax + step * i, _round_half_down(ay * n + i * dy, n))
    step = 1 if dy > 0 else -1
    return (_round_half_down(ax * n + i * dx, n), ay + step * i)


def bresenham(a: Square, b: Square) -> list[Square]:
    """The grid line of squares from ``a`` to ``b``, both included.

    The line advances one square along its longer axis at a time (so consecutive squares are
    king moves apart and there are ``chebyshev(a, b) + 1`` of them); along the shorter axis it
    takes the square nearest the true line. Where the true line passes exactly half-way between
    two squares it takes the one with the lower coordinate. That tie-break depends only on where
    the line is, not on which end it starts from, so ``bresenham(b, a)`` is exactly
    ``bresenham(a, b)`` reversed.

    Example:
        >>> bresenham((0, 0), (4, 2))
        [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)]
    """
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    n = chebyshev(a, b)
    if n == 0:
        return [a]
    return [_line_point(a, dx, dy, n, i) for i in range(n + 1)]


def bresenham_ray(a: Square, aim: Square, length: int) -> list[Square]:
    """The first ``length`` squares after ``a`` on the grid line from ``a`` through ``aim``.

    For ``length <= chebyshev(a, aim)`` this is :func:`bresenham` ``(a, aim)`` without its first
    square, cut short; a longer ray carries the same line on past ``aim``. ``a`` is not
    included. Squares may run off the board: cut the ray with :func:`in_bounds` (it never comes
    back). For straight-line paths such as a Wind spell or a Charge.
    """
    dx = aim[0] - a[0]
    dy = aim[1] - a[1]
    n = chebyshev(a, aim)
    if n == 0:
        raise ValueError(f"aim square {aim!r} must differ from the start square")
    if length < 0:
        raise ValueError(f"ray length must not be negative, not {length}")
    return [_line_point(a, dx, dy, n, i) for i in range(1, length + 1)]


def sight_line(a: Square, b: Square) -> list[Square]:
    """Squares whose interior the segment between the centres of ``a`` and ``b`` passes through.

    The end squares are left out; the rest come in order from ``a`` to ``b``. A segment that
    only grazes a corner of a square (passing exactly through a lattice point) does not enter
    it, and since the segment joins two centres it can never run along a grid line. The walk is
    exact: crossings of vertical and horizontal grid lines are compared by cross-multiplying.
    The answer is geometric, so ``sight_line(b, a)`` is the same squares in reverse order.

    Example:
        >>> sight_line((0, 0), (2, 2))
        [(1, 1)]
        >>> sight_line((0, 0), (3, 1))
        [(1, 0), (2, 1)]
    """
    ax, ay = a
    offsets = _sight_offsets(b[0] - ax, b[1] - ay)
    count(GEOMETRY, len(offsets) + 1)
    return [(ax + x, ay + y) for x, y in offsets]


@lru_cache(maxsize=1 << 16)
def _sight_offsets(dx: int, dy: int) -> tuple[Square, ...]:
    """:func:`sight_line` from ``(0, 0)`` to ``(dx, dy)``, as offsets; cached per offset."""
    nx = dx if dx >= 0 else -dx
    ny = dy if dy >= 0 else -dy
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    x = y = 0
    out: list[Square] = []
    # The k-th vertical grid line is crossed at t = (2k + 1) / (2 nx), the m-th horizontal one
    # at t = (2m + 1) / (2 ny); compare (2k + 1) * ny with (2m + 1) * nx.
    k = m = 0
    while k < nx or m < ny:
        if m >= ny:
            order = -1
        elif k >= nx:
            order = 1
        else:
            tx = (2 * k + 1) * ny
            ty = (2 * m + 1) * nx
            order = -1 if tx < ty else (1 if tx > ty else 0)
        if order <= 0:
            x += sx
            k += 1
        if order >= 0:
            y += sy
            m += 1
        out.append((x, y))
    return tuple(out[:-1])


def has_line_of_sight(a: Square, b: Square, blocks: Callable[[Square], bool]) -> bool:
    """True unless a square on :func:`sight_line` ``(a, b)`` blocks (the end squares never do)."""
    for sq in sight_line(a, b):
        if blocks(sq):
            return False
    return True


def in_cover(a: Square, b: Square, cover: Callable[[Square], bool]) -> bool:
    """True when target square ``b`` is cover, or a square on the sight line from ``a`` is."""
    if cover(b):
        return True
    for sq in sight_line(a, b):
        if cover(sq):
            return True
    return False


# --------------------------------------------------------------------------- areas


def _within_15_degrees(ux: int, uy: int, vx: int, vy: int) -> bool:
    """True when the angle between non-zero integer vectors ``u`` and ``v`` is below 15 degrees.

    With ``dot = u.v`` and ``cross = u x v`` the angle is below 15 degrees when ``dot > 0`` and
    ``|cross| < (2 - sqrt(3)) * dot``, i.e. ``2 dot - |cross| > 0`` and
    ``3 dot**2 < (2 dot - |cross|)**2``. ``tan 15°`` is irrational, so the angle between two
    lattice vectors is never exactly 15 degrees and "within" needs no boundary rule.
    """
    dot = ux * vx + uy * vy
    if dot <= 0:
        return False
    cross = ux * vy - uy * vx
    if cross < 0:
        cross = -cross
    rest = 2 * dot - cross
    return rest > 0 and 3 * dot * dot < rest * rest


def wave_squares(
    origin: Square,
    aim: Square,
    reach: int,
    width: int,
    height: int,
    blocks: Callable[[Square], bool] | None = None,
) -> list[Square]:
    """Squares of a 30-degree wave from ``origin`` toward ``aim``, sorted.

    A board square is in the wave when it is not ``origin``, lies within Chebyshev distance
    ``reach`` of it, and its centre is within 15 degrees either side of the line from the centre
    of ``origin`` to the centre of ``aim``. ``aim`` may lie beyond ``reach`` or off the board;
    it only sets the direction. With ``blocks`` given, squares without line of sight from
    ``origin`` (:func:`has_line_of_sight`) are left out too.

    Example:
        >>> wave_squares((0, 0), (3, 0), 3, 10, 10)
        [(1, 0), (2, 0), (3, 0)]
    """
    ox, oy = origin
    ux = aim[0] - ox
    uy = aim[1] - oy
    if ux == 0 and uy == 0:
        raise ValueError(f"aim square {aim!r} must differ from the origin")
    x0 = max(ox - reach, 0)
    x1 = min(ox + reach, width - 1)
    y0 = max(oy - reach, 0)
    y1 = min(oy + reach, height - 1)
    out: list[Square] = []
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            if (x != ox or y != oy) and _within_15_degrees(ux, uy, x - ox, y - oy):
                out.append((x, y))
    count(GEOMETRY, max(x1 - x0 + 1, 0) * max(y1 - y0 + 1, 0))
    if blocks is not None:
        out = [sq for sq in out if has_line_of_sight(origin, sq, blocks)]
    return out


def burst_squares(
    centre: Square,
    radius: int,
    width: int,
    height: int,
    blocks: Callable[[Square], bool] | None = None,
) -> list[Square]:
    """Board squares within Chebyshev distance ``radius`` of ``centre`` (``centre`` included), sorted.

    The area of a Blast, Vortex or Bombardment. With ``blocks`` given, squares without line of
    sight to ``centre`` (:func:`has_line_of_sight`) are left out; ``centre`` itself always stays
    if it is on the board.
    """
    cx, cy = centre
    x0 = max(cx - radius, 0)
    x1 = min(cx + radius, width - 1)
    y0 = max(cy - radius, 0)
    y1 = min(cy + radius, height - 1)
    out = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
    count(GEOMETRY, len(out))
    if blocks is not None:
        out = [sq for sq in out if has_line_of_sight(centre, sq, blocks)]
    return out


# --------------------------------------------------------------------------- counter formations
#
# A formation is any set of squares (one counter each) that a unit occupies; unlike a *space*
# it need not be a rectangle. The functions below take any iterable of squares and never rely on
# iteration order: every tuple they return is sorted, so results are reproducible.


def _square_set(squares: Iterable[Square]) -> frozenset[Square] | set[Square]:
    """``squares`` as a set, reusing it when it already is one."""
    if isinstance(squares, (set, frozenset)):
        return squares
    return frozenset(squares)


def _box(squares: Iterable[Square]) -> tuple[int, int, int, int]:
    """Bounding box ``(x0, y0, x1, y1)`` of any non-empty collection of squares."""
    it = iter(squares)
    try:
        x0, y0 = next(it)
    except StopIteration:
        raise ValueError("a formation needs at least one square") from None
    x1, y1 = x0, y0
    for x, y in it:
        if x < x0:
            x0 = x
        elif x > x1:
            x1 = x
        if y < y0:
            y0 = y
        elif y > y1:
            y1 = y
    return x0, y0, x1, y1


def side_connected(squares: Iterable[Square]) -> bool:
    """True when every square can be reached from every other through shared sides.

    Corner contact does not connect. An empty collection counts as connected.
    """
    cells = _square_set(squares)
    if not cells:
        return True
    start = min(cells)
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in DIRECTIONS4:
            n = (x + dx, y + dy)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    count(GEOMETRY, len(seen))
    return len(seen) == len(cells)


def holes(squares: Iterable[Square]) -> frozenset[Square]:
    """Squares outside the set that it encloses.

    A free square is enclosed when no path of free squares, stepping through shared sides,
    leads from it out of the set's bounding box. Diagonal gaps therefore do not open an
    enclosure. Costs the area of the bounding box.
    """
    cells = _square_set(squares)
    if not cells:
        return frozenset()
    x0, y0, x1, y1 = _box(cells)
    if len(cells) == (x1 - x0 + 1) * (y1 - y0 + 1):
        return frozenset()  # a full rectangle
    # Flood the free squares from a one-square margin around the box; whatever free square
    # of the box stays dry is a hole.
    lo_x, lo_y, hi_x, hi_y = x0 - 1, y0 - 1, x1 + 1, y1 + 1
    start = (lo_x, lo_y)
    outside = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in DIRECTIONS4:
            nx, ny = x + dx, y + dy
            if lo_x <= nx <= hi_x and lo_y <= ny <= hi_y:
                n = (nx, ny)
                if n not in cells and n not in outside:
                    outside.add(n)
                    todo.append(n)
    count(GEOMETRY, (hi_x - lo_x + 1) * (hi_y - lo_y + 1))
    return frozenset(
        (x, y)
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
        if (x, y) not in cells and (x, y) not in outside
    )


def formation_ok(squares: Iterable[Square]) -> bool:
    """True for a legal counter formation: non-empty, side-connected and without holes."""
    cells = _square_set(squares)
    if not cells:
        return False
    x0, y0, x1, y1 = _box(cells)
    if len(cells) == (x1 - x0 + 1) * (y1 - y0 + 1):
        return True  # a full rectangle, the usual case
    return side_connected(cells) and not holes(cells)


def side_contacts(a: Iterable[Square], b: Iterable[Square]) -> tuple[Square, ...]:
    """The squares of ``a`` sharing a side with some square of ``b``, sorted.

    Linear in ``len(a)`` when ``b`` is already a set (otherwise it is made one first).
    """
    other = _square_set(b)
    out = [
        (x, y)
        for x, y in a
        if (x, y + 1) in other or (x + 1, y) in other or (x, y - 1) in other or (x - 1, y) in other
    ]
    out.sort()
    return tuple(out)


def share_side(a: Iterable[Square], b: Iterable[Square]) -> bool:
    """True when some square of ``a`` shares a side with some square of ``b``."""
    other = _square_set(b)
    for x, y in a:
        if (x, y + 1) in other or (x + 1, y) in other or (x, y - 1) in other or (x - 1, y) in other:
            return True
    return False


def translate(squares: Iterable[Square], dx: int, dy: int) -> frozenset[Square]:
    """The formation shifted by ``(dx, dy)``."""
    return frozenset((x + dx, y + dy) for x, y in squares)


def heading_of(dx: int, dy: int) -> Square:
    """Sign vector of a move: each component -1, 0 or 1."""
    return ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))


def projection(sq: Square, heading: Square) -> int:
    """Dot product of a square with a heading: how far forward the square lies along it."""
    return sq[0] * heading[0] + sq[1] * heading[1]


def forward_most(squares: Iterable[Square], heading: Square) -> int:
    """The largest :func:`projection` of any square of a non-empty formation."""
    hx, hy = heading
    best: int | None = None
    for x, y in squares:
        p = x * hx + y * hy
        if best is None or p > best:
            best = p
    if best is None:
        raise ValueError("a formation needs at least one square")
    return best


def straight_path(squares: Iterable[Square], dx: int, dy: int) -> list[frozenset[Square]]:
    """The formation after each step of a straight move by ``(dx, dy)``.

    The whole formation follows :func:`bresenham` from ``(0, 0)`` to ``(dx, dy)`` one square at
    a time; one formation per step, the starting one left out (so ``chebyshev`` of the offset
    entries, none for a zero move).
    """
    cells = tuple(squares)
    return [translate(cells, ox, oy) for ox, oy in bresenham((0, 0), (dx, dy))[1:]]


def entered_squares(path: Iterable[Iterable[Square]], start: Iterable[Square]) -> frozenset[Square]:
    """Every square some counter moves into along ``path``, other than the starting squares.

    The starting squares are the unit's own; counters do step into each other's starting
    squares, and a caller that must check those too (terrain, say) can take
    ``start & union(path)``.
    """
    own = _square_set(start)
    out: set[Square] = set()
    for step in path:
        out.update(step)
    return frozenset(out.difference(own))


def _gap_to_box(sq: Square, box: tuple[int, int, int, int]) -> int:
    """Chebyshev distance from a square to the nearest square of a bounding box."""
    x, y = sq
    x0, y0, x1, y1 = box
    gx = x0 - x if x < x0 else (x - x1 if x > x1 else 0)
    gy = y0 - y if y < y0 else (y - y1 if y > y1 else 0)
    return gx if gx > gy else gy  # noqa: FURB136


def unit_distance(a: Iterable[Square], b: Iterable[Square]) -> int:
    """Smallest Chebyshev distance between a square of ``a`` and one of ``b`` (0 on overlap).

    Exact for any formations. Well-separated formations are answered from their bounding boxes
    alone; otherwise squares are tried nearest-the-other-box first and the search stops as soon
    as the box gap is reached or no remaining square can beat the best found.
    """
    sa = tuple(a)
    sb = tuple(b)
    box_a = _box(sa)
    box_b = _box(sb)
    ax0, ay0, ax1, ay1 = box_a
    bx0, by0, bx1, by1 = box_b
    gx = max(bx0 - ax1, ax0 - bx1, 0)
    gy = max(by0 - ay1, ay0 - by1, 0)
    # When one axis gap is at least the whole span of the other axis, that gap is the answer:
    # every pair is at least that far apart along it, and the facing edges realise it.
    if gx and gx >= max(ay1, by1) - min(ay0, by0):
        return gx
    if gy and gy >= max(ax1, bx1) - min(ax0, bx0):
        return gy
    floor = gx if gx > gy else gy  # noqa: FURB136
    near_a = sorted((_gap_to_box(p, box_b), p) for p in sa)
    near_b = sorted((_gap_to_box(q, box_a), q) for q in sb)
    best = -1
    work = 0
    for lp, p in near_a:
        if best >= 0 and lp >= best:
            break
        for lq, q in near_b:
            if best >= 0 and lq >= best:
                break
            work += 1
            d = chebyshev(p, q)
            if best < 0 or d < best:
                best = d
                if best == floor:
                    count(GEOMETRY, work)
                    return best
    count(GEOMETRY, work)
    return best


def exposed_sides(sq: Square, own: Iterable[Square]) -> tuple[Square, ...]:
    """Directions (from :data:`DIRECTIONS4`, in that order) of the sides of ``sq`` not shared
    with another square of ``own``."""
    cells = _square_set(own)
    x, y = sq
    return tuple((dx, dy) for dx, dy in DIRECTIONS4 if (x + dx, y + dy) not in cells)


def beyond_side(sq: Square, direction: Square, target: Square) -> bool:
    """True when ``target`` lies wholly on the far side of the line through one side of ``sq``.

    ``direction`` is the unit step (:data:`DIRECTIONS4`) toward that side.
    """
    return (target[0] - sq[0]) * direction[0] + (target[1] - sq[1]) * direction[1] > 0


def _rank_block(n: int, width: int) -> list[tuple[int, int]]:
    """``n`` cells as ``(i, j)``: ``i`` along the rank, ``j`` ranks back from the front.

    Full ranks of ``width``; the last rank is partly filled, centred (odd slack to low ``i``).
    """
    full, rest = divmod(n, width)
    cells = [(i, j) for j in range(full) for i in range(width)]
    if rest:
        first = (width - rest) // 2
        cells.extend((first + i, full) for i in range(rest))
    return cells


def _orient(cells: list[tuple[int, int]], depth: int, heading: Square) -> tuple[Square, ...]:
    """Lay rank cells on the grid facing an orthogonal ``heading``; bounding box at (0, 0)."""
    back = depth - 1
    hx, hy = heading
    if hy > 0:
        out = [(i, back - j) for i, j in cells]
    elif hy < 0:
        out = [(i, j) for i, j in cells]
    elif hx > 0:
        out = [(back - j, i) for i, j in cells]
    else:
        out = [(j, i) for i, j in cells]
    out.sort()
    return tuple(out)


def shapes(n: int, heading: Square) -> list[tuple[Square, ...]]:
    """A few legal formations of ``n`` counters with their front rank toward ``heading``.

    Each is a block of full ranks with the last rank partly filled from the middle, given as
    sorted offsets whose bounding box starts at ``(0, 0)``: a line, 2, 3 and 4 deep, a
    near-square block, a two-file column and a single-file column (duplicates dropped), shallowest
    first. A diagonal heading offers the blocks facing both of its axes.
    """
    if n < 1:
        raise ValueError(f"a formation needs at least one counter, not {n}")
    hx, hy = heading_of(*heading)
    if hx == 0 and hy == 0:
        raise ValueError("a heading must not be (0, 0)")
    axes = [(hx, 0), (0, hy)] if hx and hy else [(hx, hy)]
    widths = {-(-n // depth) for depth in (1, 2, 3, 4)}
    widths.add(math.isqrt(n - 1) + 1)  # ceil(sqrt(n)): the near-square block
    widths.update((min(2, n), 1))
    out: list[tuple[Square, ...]] = []
    seen: set[tuple[Square, ...]] = set()
    for width in sorted(widths, reverse=True):
        depth = -(-n // width)
        cells = _rank_block(n, width)
        for axis in axes:
            shape = _orient(cells, depth, axis)
            if shape not in seen:
                seen.add(shape)
                out.append(shape)
    return out


def removal_ok(squares: Iterable[Square], removed: Iterable[Square]) -> bool:
    """True when what is left after taking ``removed`` away is empty or a legal formation.

    Raises ValueError when ``removed`` holds a square not in ``squares``.
    """
    cells = _square_set(squares)
    gone = _square_set(removed)
    if not gone <= cells:
        raise ValueError(f"cannot remove squares not in the formation: {sorted(gone - cells)}")
    rest = cells - gone
    return not rest or formation_ok(rest)


def removal_order(squares: Iterable[Square], enemy: Iterable[Square], k: int) -> tuple[Square, ...]:
    """``k`` squares to take away one at a time, farthest from the enemy first.

    Each pick is the square whose nearest ``enemy`` square (Chebyshev) is farthest, among those
    whose removal leaves a legal formation (or nothing); when no removal does, among all.
    Ties go to the lowest ``(y, x)``. With no enemy squares only the tie-break orders them.
    """
    left = set(squares)
    if not 0 <= k <= len(left):
        raise ValueError(f"cannot remove {k} of {len(left)} counters")
    foes = tuple(enemy)
    work = len(left) * len(foes)
    # Most distant first, then lowest (y, x): one fixed order, since the enemy does not move.
    ranked = sorted(
        left,
        key=lambda sq: (-min((chebyshev(sq, e) for e in foes), default=0), sq[1], sq[0]),
    )
    picked: list[Square] = []
    legal = formation_ok(left)
    for _ in range(k):
        choice = None
        for sq in ranked:
            if sq in left:
                work += len(left)
                if _removal_keeps(left, sq, legal):
                    choice = sq
                    break
        if choice is None:
            choice = next(sq for sq in ranked if sq in left)
            legal = formation_ok(left - {choice})
        left.discard(choice)
        picked.append(choice)
    count(GEOMETRY, work)
    return tuple(picked)


def _removal_keeps(cells: set[Square], sq: Square, legal: bool) -> bool:
    """True when ``cells`` without ``sq`` is empty or a legal formation.

    From a legal formation (``legal``) only two things can go wrong: the rest falls apart, or
    ``sq`` itself becomes a hole, which happens exactly when all four of its sides touch the
    rest (every other free square already reaches the outside, and ``sq`` then sits strictly
    inside the rest's bounding box).
    """
    rest = cells - {sq}
    if not rest:
        return True
    if not legal:
        return formation_ok(rest)
    x, y = sq
    if (x, y + 1) in rest and (x + 1, y) in rest and (x, y - 1) in rest and (x - 1, y) in rest:
        return False
    return side_connected(rest)


# --------------------------------------------------------------------------- distance fields


def chebyshev_field(sources: Iterable[Square], width: int, height: int,
                    limit: int | None = None) -> dict[Square, int]:
    """Chebyshev distance from the nearest of ``sources`` to every square of a ``width`` x
    ``height`` board (squares farther than ``limit`` are left out).

    A breadth-first flood over the 8 neighbours, so one call costs at most the board's area,
    however many sources there are.
    """
    dist: dict[Square, int] = {}
    frontier: list[Square] = []
    for sq in sources:
        if sq not in dist and 0 <= sq[0] < width and 0 <= sq[1] < height:
            dist[sq] = 0
            frontier.append(sq)
    d = 0
    while frontier and (limit is None or d < limit):
        d += 1
        nxt: list[Square] = []
        for x, y in frontier:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = (x + dx, y + dy)
                    if n not in dist and 0 <= n[0] < width and 0 <= n[1] < height:
                        dist[n] = d
                        nxt.append(n)
        frontier = nxt
    return dist
