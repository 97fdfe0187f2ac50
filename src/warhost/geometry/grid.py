"""Square-grid geometry shared by every rule system.

Conventions:

* Square ``(x, y)`` is the closed cell ``[x, x+1] x [y, y+1]``. Corner points of cells are plain
  integer pairs too.
* A unit's *space* is a rectangle of squares: one square (size 1) or a 2x2 block (size 2) named by
  its lowest ``(x, y)`` square, the *anchor*. Functions taking a space accept any collection of
  squares forming a full rectangle (tuple, list, frozenset); they read only its lowest and highest
  squares, so a non-rectangular collection gives meaningless answers.
* Squares touching diagonally are adjacent; distance is Chebyshev (king moves).

Everything here is exact integer arithmetic: centres of spaces are handled as *doubled*
coordinates so they stay integral, and segment/square tests compare fractions by
cross-multiplying. Results never depend on hash order, so they are reproducible run to run.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import cache, lru_cache
from typing import Any, TypeAlias

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
    "DEFAULT_TERRAIN",
    "DIRECTIONS4",
    "DIRECTIONS8",
    "Grid",
    "Point",
    "Square",
    "centre2",
    "chebyshev",
    "facing_arc",
    "fire_lines",
    "footprint",
    "in_bounds",
    "line_squares",
    "reachable",
    "segment_touches_square",
    "space_distance",
    "spaces_touch",
    "squares_touched",
    "straight_runs",
    "strictly_between",
    "touched_offsets",
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
    does not depend on any iteration order.
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
