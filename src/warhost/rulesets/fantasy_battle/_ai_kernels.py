"""Compiled inner loop of the `fantasy-battle` AI (numba, when :mod:`._kernels` has it).

:func:`nearest_search` finds, for many boxes at once, the Chebyshev gap to the nearest square
held by a side, by binary search on the side's occupancy prefix sums
(:meth:`warhost.rulesets.fantasy_battle.ai_board.Board.nearest_gaps`, which falls back on a
NumPy version of the same search when numba is missing; the tests compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warhost.rulesets.fantasy_battle._kernels import AVAILABLE

__all__ = ["AVAILABLE", "nearest_search"]


def _nearest_search(prefix: np.ndarray, boxes: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                    without: np.ndarray) -> np.ndarray:
    """Per box (x0, y0, x1, y1) of ``boxes``, the least ``r`` in [``lo``, ``hi``] such that the
    box grown by ``r`` holds a square counted in ``prefix`` (prefix sums, height+1 x width+1),
    not counting the squares of the box ``without`` (x0, y0, x1, y1; x1 < x0 for none)."""
    height = prefix.shape[0] - 1
    width = prefix.shape[1] - 1
    out = np.empty(boxes.shape[0], np.int64)
    ox0, oy0, ox1, oy1 = without[0], without[1], without[2], without[3]
    for i in range(boxes.shape[0]):
        bx0, by0, bx1, by1 = boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3]
        low = lo[i]
        high = hi[i]
        while low < high:
            mid = (low + high) // 2
            xa = max(bx0 - mid, 0)
            xb = min(bx1 + mid + 1, width)
            ya = max(by0 - mid, 0)
            yb = min(by1 + mid + 1, height)
            held = prefix[yb, xb] - prefix[ya, xb] - prefix[yb, xa] + prefix[ya, xa]
            if ox1 >= ox0:
                ox = min(xb, ox1 + 1) - max(xa, ox0)
                oy = min(yb, oy1 + 1) - max(ya, oy0)
                if ox > 0 and oy > 0:
                    held -= ox * oy
            if held > 0:
                high = mid
            else:
                low = mid + 1
        out[i] = low
    return out


if AVAILABLE:  # pragma: no branch
    import numba

    nearest_search: Any = numba.njit(cache=True, nogil=True)(_nearest_search)
else:  # pragma: no cover
    nearest_search = None
