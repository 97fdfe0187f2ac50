"""Where the bodies stand, kept up to date as they move: a grid of footprint bounds for
finding the bodies near one (engagement, reach, range), and the footprint distances already
measured.

Bodies report their own changes: setting a field that moves or reshapes a footprint (centre,
facing, stance, members, status) puts the body on the index's ``dirty`` list (see
``Unit.__setattr__``), and the index re-files only those bodies before its next answer. So a
query costs the grid cells it visits and the bodies found there, not a pass over the army.

Answers are exact: the grid only picks candidates (bounding boxes within the distance asked,
with a margin far above floating-point error); every distance that decides anything is the
shapely distance of the two footprints, as before.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from warhost.core.metering import GEOMETRY, count
from warhost.rulesets.dnd5e_tactics import _kernels

if TYPE_CHECKING:
    from warhost.rulesets.dnd5e_tactics.state import Body, T5State

CELL = 8.0
"""Inches on a side of a grid cell."""
MARGIN = 1e-6
"""Slack of the bounding-box tests: far above rounding error, far below any rule's distance."""

Box = tuple[float, float, float, float]


def box_gap(a: Box, b: Box) -> float:
    """Distance between two bounding boxes (0 when they touch or overlap); never more than
    the distance between the shapes they bound."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def _cells(b: Box, pad: float) -> list[tuple[int, int]]:
    x0, x1 = math.floor((b[0] - pad) / CELL), math.floor((b[2] + pad) / CELL)
    y0, y1 = math.floor((b[1] - pad) / CELL), math.floor((b[3] + pad) / CELL)
    return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


def _charge_reach(body: Body) -> float:
    from warhost.rulesets.dnd5e_tactics.state import Unit, feet, speed_of

    if isinstance(body, Unit):
        fastest = max(speed_of(body.member), speed_of(body.commander.stats))
    else:
        fastest = speed_of(body.stats)
    return feet(fastest) * 2 + body.reach


class Placement:
    """The grid of the bodies on the table of one battle, and the caches that last until a
    body moves, changes shape or leaves (:meth:`refresh`)."""

    def __init__(self, state: T5State) -> None:
        self.state = state
        self.dirty: set[Body] = set()
        """Bodies changed since the last refresh (filled by the bodies themselves)."""
        self.order: list[str] = []
        self.row: dict[str, int] = {}
        """Turn-order position of each body id."""
        self.boxes: dict[str, Box] = {}
        """Footprint bounds of each body on the table."""
        self.filed: dict[str, list[tuple[str, int, int]]] = {}
        self.grid: dict[tuple[str, int, int], set[str]] = {}
        """Ids of the bodies in each cell, by side and cell."""
        self.counts: dict[str, int] = {}
        """Bodies on the table, by side."""
        self.extent = (0, 0, -1, -1)
        """The cells any body was filed in lie within these (lowest x, y, highest x, y)."""
        self.version = 0
        """Bumped whenever a body changed (so callers may key their own caches on it)."""
        self.memo: dict[Any, Any] = {}
        """Answers that hold until the next change (cleared by :meth:`refresh`)."""
        self.hints: dict[Any, Any] = {}
        """What holds whatever the bodies do: search radii that found what was sought last
        time (any radius gives the same answer, a good one fewer widenings), and what depends
        on the terrain alone."""
        self.gaps: dict[tuple[str, str], tuple[Any, Any, float]] = {}
        """Footprint distances by ordered pair of ids, with the two footprints measured."""
        self.outlines: dict[str, tuple[Any, npt.NDArray[np.float64]]] = {}
        """Footprint corners by body id, with the footprint they were read from."""
        self.shrunk: dict[str, tuple[Any, Any]] = {}
        """Shrunk footprints by body id (``turns.shrunk``), with the footprint shrunk."""
        self.reach = 0.0
        """The longest melee reach of any body."""
        self.charge_reach = 0.0
        """The furthest any body may be from an enemy it can still reach with a Dash and
        strike: twice its fastest speed plus its reach, the longest of any body."""
        self.rebuild()

    def rebuild(self) -> None:
        """File every body afresh (also when the turn order was set)."""
        state = self.state
        self.order = state.order
        self.row = {body_id: i for i, body_id in enumerate(state.order)}
        self.boxes.clear()
        self.filed.clear()
        self.grid.clear()
        self.counts.clear()
        self.extent = (0, 0, -1, -1)
        self.memo.clear()
        self.version += 1
        self.reach = max((b.reach for b in state.bodies.values()), default=0.0)
        self.charge_reach = max((_charge_reach(b) for b in state.bodies.values()), default=0.0)
        for body in state.bodies.values():
            body._watch = self.dirty
            self._file(body)
        self.dirty.clear()

    def _file(self, body: Body) -> None:
        old = self.filed.pop(body.id, None)
        if old is not None:
            for cell in old:
                self.grid[cell].discard(body.id)
        if self.boxes.pop(body.id, None) is not None:
            self.counts[body.side] -= 1
        if not body.on_table:
            return
        box: Box = body.footprint.bounds
        count(GEOMETRY)
        self.boxes[body.id] = box
        self.counts[body.side] = self.counts.get(body.side, 0) + 1
        cells = _cells(box, 0.0)
        self.filed[body.id] = [(body.side, x, y) for x, y in cells]
        for cell in self.filed[body.id]:
            self.grid.setdefault(cell, set()).add(body.id)
        x0, y0, x1, y1 = self.extent
        if x1 < x0:  # the first body filed
            x0, y0, x1, y1 = *cells[0], *cells[-1]
        self.extent = (min(x0, cells[0][0]), min(y0, cells[0][1]),
                       max(x1, cells[-1][0]), max(y1, cells[-1][1]))

    def refresh(self) -> None:
        """Re-file the bodies that changed since the last call."""
        if self.order is not self.state.order:
            self.rebuild()
            return
        if not self.dirty:
            return
        changed = list(self.dirty)
        self.dirty.clear()
        for body in changed:
            self._file(body)
        self.memo.clear()
        self.version += 1

    def box(self, body: Body) -> Box | None:
        """The body's footprint bounds (None off the table)."""
        self.refresh()
        return self.boxes.get(body.id)

    def near_box(self, box: Box, radius: float, side: str | None = None) -> list[Body]:
        """Bodies on the table (of ``side``, if given) whose footprint bounds lie within
        ``radius`` of ``box``, in turn order: every body whose footprint is that close, and
        perhaps a few more."""
        self.refresh()
        bodies = self.state.bodies
        found: set[str] = set()
        # The cells within the radius, cut to those any body was ever filed in.
        ex0, ey0, ex1, ey1 = self.extent
        x0 = max(ex0, math.floor((box[0] - radius) / CELL))
        x1 = min(ex1, math.floor((box[2] + radius) / CELL))
        y0 = max(ey0, math.floor((box[1] - radius) / CELL))
        y1 = min(ey1, math.floor((box[3] + radius) / CELL))
        cells = max(0, x1 - x0 + 1) * max(0, y1 - y0 + 1)
        sides = self.state.sides if side is None else [side]
        counts = self.counts
        filed = counts.get(side, 0) if side is not None else sum(counts.values())
        if cells >= filed:  # look at every body instead
            found = {i for i in self.boxes if side is None or bodies[i].side == side}
            count(GEOMETRY, len(self.boxes))
        else:
            grid = self.grid
            ys = range(y0, y1 + 1)
            for one in sides:
                for x in range(x0, x1 + 1):
                    for y in ys:
                        here = grid.get((one, x, y))
                        if here:
                            found |= here
            count(GEOMETRY, cells * len(sides) + len(found))
        limit = radius + MARGIN
        boxes, row = self.boxes, self.row
        bx0, by0, bx1, by1 = box
        rows = []
        hypot = math.hypot
        for i in found:
            ox0, oy0, ox1, oy1 = boxes[i]
            # dx, dy = max(0, ox0 - bx1, bx0 - ox1), max(0, oy0 - by1, by0 - oy1)
            ax, bx, ay, by = ox0 - bx1, bx0 - ox1, oy0 - by1, by0 - oy1
            # (the builtin max costs a call per body in this hot loop)
            dx = ax if ax > bx else bx  # noqa: FURB136
            dy = ay if ay > by else by  # noqa: FURB136
            if dx <= 0.0:
                if dy <= 0.0 or dy <= limit:  # hypot(0, dy) is dy exactly
                    rows.append(row[i])
            elif dy <= 0.0:
                if dx <= limit:
                    rows.append(row[i])
            elif hypot(dx, dy) <= limit:
                rows.append(row[i])
        rows.sort()
        return [bodies[self.order[r]] for r in rows]

    def near(self, body: Body, radius: float, side: str | None = None) -> list[Body]:
        """Other bodies on the table whose footprints may lie within ``radius`` of ``body``'s
        (:meth:`near_box`)."""
        box = self.box(body)
        if box is None:
            box = body.footprint.bounds
        return [b for b in self.near_box(box, radius, side) if b is not body]

    def corners(self, body: Body) -> npt.NDArray[np.float64]:
        """The corners of the body's footprint (:func:`corners`), worked out once a
        position."""
        shape = body.footprint
        seen = self.outlines.get(body.id)
        if seen is not None and seen[0] is shape:
            return seen[1]
        known = corners(shape)
        self.outlines[body.id] = (shape, known)
        return known

    def gap(self, a: Body, b: Body) -> float:
        """``gap(a.footprint, b.footprint)``, measured once per pair of positions."""
        fa, fb = a.footprint, b.footprint
        key = (a.id, b.id)
        seen = self.gaps.get(key)
        if seen is not None and seen[0] is fa and seen[1] is fb:
            return seen[2]
        count(GEOMETRY)
        value = float(fa.distance(fb))
        self.gaps[key] = (fa, fb, value)
        return value


TOLERANCE = 1e-7
"""How far :func:`rect_gaps` may be from shapely's distance, at most (it is far closer): a
comparison closer than this is settled by the exact distance."""


def corners(shape: Any) -> npt.NDArray[np.float64]:
    """The four corners ``(4, 2)`` of a footprint rectangle, in ring order."""
    return np.asarray(shape.exterior.coords, dtype=np.float64)[:4]


def rect_gaps(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.float64]:
    """Distances ``(m, n)`` between rectangles ``p`` ``(m, 4, 2)`` and ``q`` ``(n, 4, 2)``
    (0 where they touch or overlap), within :data:`TOLERANCE` of shapely's (:mod:`._kernels`:
    compiled when numba is there, else NumPy, the same formulas)."""
    count(GEOMETRY, len(p) * len(q))
    table = np.empty((len(p), len(q)))
    _kernels.rect_gap_table(np.ascontiguousarray(p, dtype=np.float64),
                            np.ascontiguousarray(q, dtype=np.float64), table)
    return table


def _numpy_gaps(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64]
                ) -> npt.NDArray[np.float64]:
    shape = (len(p), len(q), 4, 2)
    return _kernels.numpy_gaps(np.broadcast_to(p[:, None], shape),
                               np.broadcast_to(q[None, :], shape))


def pair_gaps(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Distances ``(m,)`` between rectangles ``p[i]`` and ``q[i]`` (both ``(m, 4, 2)``), as
    :func:`rect_gaps` gives them."""
    count(GEOMETRY, len(p))
    pairs = np.empty(len(p))
    _kernels.pair_gap_table(np.ascontiguousarray(p, dtype=np.float64),
                            np.ascontiguousarray(q, dtype=np.float64), pairs)
    return pairs
