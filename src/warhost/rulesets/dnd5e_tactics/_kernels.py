"""Compiled distances between footprint rectangles of `dnd5e-tactics` (numba, when installed).

:func:`rect_gap_table` gives the distance between every rectangle of one batch and every one of
another, the same numbers as the NumPy reference in :mod:`.spatial` (the same formulas: least
vertex-to-edge distance both ways, 0 where no edge direction separates the two), one pair at a
time instead of through ``(m, n, 4, 4, 2)`` temporaries. The kernels write into arrays the
caller allocates: handing a new array back from compiled code costs more than the work.
Without numba (or with ``WARHOST_NO_NUMBA=1``) :data:`AVAILABLE` is False and the same names
are NumPy versions (the reference: same formulas, same numbers).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from warhost.core.compiled import numba_available

AVAILABLE = numba_available()
if AVAILABLE:  # pragma: no branch
    import numba


def _vertex_edge(a: npt.NDArray[np.float64], i: int, b: npt.NDArray[np.float64],
                 j: int) -> float:
    """Least distance from a corner of ``a[i]`` to an edge of ``b[j]``."""
    best = math.inf
    for v in range(4):
        px, py = a[i, v, 0], a[i, v, 1]
        for e in range(4):
            sx, sy = b[j, e, 0], b[j, e, 1]
            ex, ey = b[j, (e + 1) % 4, 0] - sx, b[j, (e + 1) % 4, 1] - sy
            t = ((px - sx) * ex + (py - sy) * ey) / (ex * ex + ey * ey)
            t = min(max(t, 0.0), 1.0)
            dx, dy = px - (sx + t * ex), py - (sy + t * ey)
            best = min(best, math.sqrt(dx * dx + dy * dy))
    return best


def _apart(a: npt.NDArray[np.float64], i: int, b: npt.NDArray[np.float64], j: int) -> bool:
    """Whether an edge direction of either rectangle separates ``a[i]`` from ``b[j]``."""
    for which in range(2):
        s = a if which == 0 else b
        r = i if which == 0 else j
        for k in range(2):
            ax, ay = s[r, k + 1, 0] - s[r, k, 0], s[r, k + 1, 1] - s[r, k, 1]
            amin, amax, bmin, bmax = math.inf, -math.inf, math.inf, -math.inf
            for v in range(4):
                pa = a[i, v, 0] * ax + a[i, v, 1] * ay
                pb = b[j, v, 0] * ax + b[j, v, 1] * ay
                amin, amax = min(amin, pa), max(amax, pa)
                bmin, bmax = min(bmin, pb), max(bmax, pb)
            if amax < bmin or bmax < amin:
                return True
    return False


def _rect_gap_table(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64],
                    out: npt.NDArray[np.float64]) -> None:
    for i in range(p.shape[0]):
        for j in range(q.shape[0]):
            out[i, j] = min(_vertex_edge(p, i, q, j), _vertex_edge(q, j, p, i)) \
                if _apart(p, i, q, j) else 0.0


def _pair_gap_table(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64],
                    out: npt.NDArray[np.float64]) -> None:
    for i in range(p.shape[0]):
        out[i] = min(_vertex_edge(p, i, q, i), _vertex_edge(q, i, p, i)) \
            if _apart(p, i, q, i) else 0.0


def _approach_table(sx: float, sy: float, lines: npt.NDArray[np.float64],
                    theirs: npt.NDArray[np.float64], hw: float, hd: float,
                    ts: npt.NDArray[np.float64], rings: npt.NDArray[np.float64],
                    gaps: npt.NDArray[np.float64]) -> None:
    r = (-hw, hw, hw, -hw)
    f = (hd, hd, -hd, -hd)
    row = 0
    for j in range(lines.shape[0]):
        ux, uy, length = lines[j, 0], lines[j, 1], lines[j, 2]
        n, fx, fy = int(lines[j, 3]), lines[j, 4], lines[j, 5]
        step = length / (n - 1)
        for i in range(n):
            t = length if i == n - 1 else i * step
            ts[row] = t
            cx, cy = sx + ux * t, sy + uy * t
            for c in range(4):
                rings[row, c, 0] = cx + r[c] * fy + f[c] * fx
                rings[row, c, 1] = cy - r[c] * fx + f[c] * fy
            gaps[row] = min(_vertex_edge(rings, row, theirs, j),
                            _vertex_edge(theirs, j, rings, row)) \
                if _apart(rings, row, theirs, j) else 0.0
            row += 1


def _overlap_class(a: npt.NDArray[np.float64], i: int, b: npt.NDArray[np.float64], j: int,
                   margin: float) -> int:
    """0: some edge direction of either rectangle keeps ``a[i]`` and ``b[j]`` more than
    ``margin`` inches apart; 1: on every one their projections overlap by more than that, so
    their interiors meet; 2: too close to call."""
    sure = True
    for which in range(2):
        s = a if which == 0 else b
        r = i if which == 0 else j
        for k in range(2):
            ax, ay = s[r, k + 1, 0] - s[r, k, 0], s[r, k + 1, 1] - s[r, k, 1]
            amin, amax, bmin, bmax = math.inf, -math.inf, math.inf, -math.inf
            for v in range(4):
                pa = a[i, v, 0] * ax + a[i, v, 1] * ay
                pb = b[j, v, 0] * ax + b[j, v, 1] * ay
                amin, amax = min(amin, pa), max(amax, pa)
                bmin, bmax = min(bmin, pb), max(bmax, pb)
            overlap = min(amax, bmax) - max(amin, bmin)
            slack = margin * math.sqrt(ax * ax + ay * ay)
            if overlap < -slack:
                return 0
            if overlap <= slack:
                sure = False
    return 1 if sure else 2


def _overlap_table(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64], margin: float,
                   out: npt.NDArray[np.int8]) -> None:
    for i in range(p.shape[0]):
        for j in range(q.shape[0]):
            out[i, j] = _overlap_class(p, i, q, j, margin)


def _np_vertex_edge(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
                    ) -> npt.NDArray[np.float64]:
    """Least distance from a corner of ``a`` to an edge of ``b`` (both ``(..., 4, 2)``)."""
    points = a[..., :, None, :]
    starts = b[..., None, :, :]
    edges = np.roll(b, -1, axis=-2)[..., None, :, :] - starts
    t = ((points - starts) * edges).sum(-1) / (edges * edges).sum(-1)
    t = np.clip(t, 0.0, 1.0)
    near = starts + t[..., None] * edges
    dist: npt.NDArray[np.float64] = np.sqrt(((points - near) ** 2).sum(-1)).min(axis=(-1, -2))
    return dist


def numpy_gaps(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
               ) -> npt.NDArray[np.float64]:
    """Distances between rectangles ``a[...]`` and ``b[...]`` (both ``(..., 4, 2)``, the
    same shape), 0 where they touch or overlap: the NumPy reference of the kernels."""
    gaps = np.minimum(_np_vertex_edge(a, b), _np_vertex_edge(b, a))
    # Separating axes: the edge directions of both rectangles.
    apart = np.zeros(gaps.shape, dtype=bool)
    for shape in (a, b):
        for k in (0, 1):
            axis = shape[..., k + 1, :] - shape[..., k, :]
            pa = (a * axis[..., None, :]).sum(-1)
            pb = (b * axis[..., None, :]).sum(-1)
            apart |= (pa.max(-1) < pb.min(-1)) | (pb.max(-1) < pa.min(-1))
    result: npt.NDArray[np.float64] = np.where(apart, gaps, 0.0)
    return result


def _np_rect_gap_table(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64],
                       out: npt.NDArray[np.float64]) -> None:
    shape = (len(p), len(q), 4, 2)
    out[:] = numpy_gaps(np.broadcast_to(p[:, None], shape), np.broadcast_to(q[None, :], shape))


def _np_pair_gap_table(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64],
                       out: npt.NDArray[np.float64]) -> None:
    out[:] = numpy_gaps(p, q)


def _np_approach_table(sx: float, sy: float, lines: npt.NDArray[np.float64],
                       theirs: npt.NDArray[np.float64], hw: float, hd: float,
                       ts: npt.NDArray[np.float64], rings: npt.NDArray[np.float64],
                       gaps: npt.NDArray[np.float64]) -> None:
    r = np.array([-hw, hw, hw, -hw])
    f = np.array([hd, hd, -hd, -hd])
    row = 0
    owner = np.empty(len(ts), dtype=np.intp)
    for j, (ux, uy, length, n, fx, fy) in enumerate(lines.tolist()):
        end = row + int(n)
        ts[row:end] = np.linspace(0.0, length, int(n))
        cx, cy = sx + ux * ts[row:end], sy + uy * ts[row:end]
        rings[row:end, :, 0] = cx[:, None] + r * fy + f * fx
        rings[row:end, :, 1] = cy[:, None] - r * fx + f * fy
        owner[row:end] = j
        row = end
    gaps[:] = numpy_gaps(rings, theirs[owner])


def _np_overlap_table(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64], margin: float,
                      out: npt.NDArray[np.int8]) -> None:
    shape = (len(p), len(q), 4, 2)
    a, b = np.broadcast_to(p[:, None], shape), np.broadcast_to(q[None, :], shape)
    apart = np.zeros(shape[:2], dtype=bool)
    sure = np.ones(shape[:2], dtype=bool)
    for which in (a, b):
        for k in (0, 1):
            axis = which[..., k + 1, :] - which[..., k, :]
            pa = (a * axis[..., None, :]).sum(-1)
            pb = (b * axis[..., None, :]).sum(-1)
            overlap = np.minimum(pa.max(-1), pb.max(-1)) - np.maximum(pa.min(-1), pb.min(-1))
            slack = margin * np.sqrt((axis * axis).sum(-1))
            apart |= overlap < -slack
            sure &= overlap > slack
    out[:] = np.where(apart, 0, np.where(sure, 1, 2))


rect_gap_table: Any
overlap_table: Any
"""``overlap_table(p, q, margin, out)``: into ``out`` ``(m, n)`` int8, for rectangles ``p`` ``(m, 4, 2)`` and
``q`` ``(n, 4, 2)``: 0 where they are surely apart (by more than ``margin``), 1 where their
interiors surely meet (overlapping by more than ``margin`` every way), 2 otherwise."""
approach_table: Any
"""``approach_table(sx, sy, lines, theirs, hw, hd, ts, rings, gaps)``: the samples of straight lines from
``(sx, sy)``, each line a row ``(ux, uy, length, samples, fx, fy)`` of ``lines`` (direction,
length, how many samples, the footprint's heading): ``(ts, rings, gaps)``, the distance slid
of each sample (as ``np.linspace(0, length, samples)``), the footprint corners there (as
``rect_coords`` with half width ``hw`` and half depth ``hd``) and the distance to the line's
target ``theirs[j]`` (as :func:`rect_gap_table`), written into the three arrays given (as
many rows as samples in all)."""
pair_gap_table: Any
"""``pair_gap_table(p, q, out)``: into ``out``, the distances ``(m,)`` of rectangles ``p[i]`` and ``q[i]``."""
"""``rect_gap_table(p, q, out)``: into ``out``, the distances ``(m, n)`` of rectangles ``p`` ``(m, 4, 2)`` and ``q``
``(n, 4, 2)`` (C-contiguous float64), 0 where they touch or overlap."""

if AVAILABLE:  # pragma: no cover - depends on the environment
    import numba

    _vertex_edge = numba.njit(cache=True, inline="always")(_vertex_edge)
    _apart = numba.njit(cache=True, inline="always")(_apart)
    rect_gap_table = numba.njit(cache=True)(_rect_gap_table)
    pair_gap_table = numba.njit(cache=True)(_pair_gap_table)
    approach_table = numba.njit(cache=True)(_approach_table)
    _overlap_class = numba.njit(cache=True, inline="always")(_overlap_class)
    overlap_table = numba.njit(cache=True)(_overlap_table)
else:  # pragma: no cover
    rect_gap_table = _np_rect_gap_table
    pair_gap_table = _np_pair_gap_table
    approach_table = _np_approach_table
    overlap_table = _np_overlap_table
