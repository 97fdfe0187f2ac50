"""Compiled inner loop of the `fantasy-battle` AI (numba, when :mod:`._kernels` has it).

:func:`nearest_search` finds, for many boxes at once, the Chebyshev gap to the nearest square
held by a side, by binary search on the side's occupancy prefix sums
(:meth:`warhost.rulesets.fantasy_battle.ai_board.Board.nearest_gaps`, which falls back on a
NumPy version of the same search when numba is missing; the tests compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warhost.rulesets.fantasy_battle._kernels import AVAILABLE, U_SIDE, U_SIZE, U_X, U_Y

__all__ = ["AVAILABLE", "changed_rows", "forget_rows", "nearest_search", "stale_rows"]


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


def _stale_rows(table: np.ndarray, reach: np.ndarray, nearest: np.ndarray, boxes: np.ndarray,
                stale: np.ndarray, near_stale: np.ndarray) -> None:
    """What :meth:`~warhost.rulesets.fantasy_battle.ai_board.Board.update` marks for the
    changed spaces ``boxes`` (rows x0, y0, x1, y1, side, extra reach, 1 for a space left):
    in ``stale`` every unit-table row within ``reach`` + extra of one of them, in
    ``near_stale`` every row with a known ``nearest`` (>= 0) of another side whose gap to a
    space left is at most ``nearest``, to a space taken less than it (marks already set
    stay)."""
    for r in range(table.shape[0]):
        x0 = table[r, U_X]
        y0 = table[r, U_Y]
        x1 = x0 + table[r, U_SIZE] - 1
        y1 = y0 + table[r, U_SIZE] - 1
        side = table[r, U_SIDE]
        near = nearest[r]
        for b in range(boxes.shape[0]):
            gap = max(boxes[b, 0] - x1, x0 - boxes[b, 2], boxes[b, 1] - y1, y0 - boxes[b, 3], 0)
            if gap <= reach[r] + boxes[b, 5]:
                stale[r] = True
            if near >= 0 and side != boxes[b, 4]:
                if gap < near or (boxes[b, 6] and gap == near):
                    near_stale[r] = True


def _changed_rows(table: np.ndarray, old: np.ndarray) -> np.ndarray:
    """The rows where ``table`` and ``old`` differ, ascending."""
    out = np.empty(table.shape[0], np.int64)
    found = 0
    for r in range(table.shape[0]):
        for c in range(table.shape[1]):
            if table[r, c] != old[r, c]:
                out[found] = r
                found += 1
                break
    return out[:found]


def _forget_rows(
    table: np.ndarray, old: np.ndarray, changed: np.ndarray, reach: np.ndarray,
    nearest: np.ndarray, marks: np.ndarray, kept_attacks: np.ndarray,
    kept_urgency: np.ndarray, kept_group: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The marking and forgetting of ``Board.update`` in one pass: the ``changed`` rows and
    those :func:`stale_rows` marks for ``marks`` are stale; a stale row forgets its attacks, a
    row marked for its nearest enemy forgets that (``nearest`` -1) and counts as stale for the
    rest; a stale row forgets its urgency and its group's score. Clears the ``kept_*`` flags
    of the rows that forget, copies the changed rows of ``table`` into ``old``, and returns
    the rows that forget their attacks, their urgency and their group's score."""
    n = table.shape[0]
    stale = np.zeros(n, np.bool_)
    near_stale = np.zeros(n, np.bool_)
    for r in changed:
        stale[r] = True
        near_stale[r] = True
    _marker(table, reach, nearest, marks, stale, near_stale)
    hit_attacks = np.empty(n, np.int64)
    hit_urgency = np.empty(n, np.int64)
    hit_group = np.empty(n, np.int64)
    na = nu = ng = 0
    for r in range(n):
        if stale[r] and kept_attacks[r]:
            kept_attacks[r] = False
            hit_attacks[na] = r
            na += 1
        if near_stale[r]:
            nearest[r] = -1
            stale[r] = True
        if stale[r] and kept_urgency[r]:
            kept_urgency[r] = False
            hit_urgency[nu] = r
            nu += 1
        if stale[r] and kept_group[r]:
            kept_group[r] = False
            hit_group[ng] = r
            ng += 1
    for r in changed:
        for c in range(table.shape[1]):
            old[r, c] = table[r, c]
    return hit_attacks[:na], hit_urgency[:nu], hit_group[:ng]


if AVAILABLE:  # pragma: no branch
    import numba

    nearest_search: Any = numba.njit(cache=True, nogil=True)(_nearest_search)
    stale_rows: Any = numba.njit(cache=True, nogil=True)(_stale_rows)
    _marker = stale_rows
    changed_rows: Any = numba.njit(cache=True, nogil=True)(_changed_rows)
    forget_rows: Any = numba.njit(cache=True, nogil=True)(_forget_rows)
else:  # pragma: no cover
    nearest_search = None
    stale_rows = None
    changed_rows = None
    forget_rows = None
