"""The movement flood of :func:`warhost.geometry.grid.flood_levels`, compiled with numba.

It follows the Python flood step for step (buckets expanded cheapest first, each in the order
its squares were reached, the 8 directions in :data:`~warhost.geometry.grid.DIRECTIONS8`
order, a square's cost and parent replaced only by a cheaper one), so both give the same costs,
the same parents and the same order of first reaching; ``tests/geometry/test_flood.py``
compares them. Everything reachable lies within ``budget`` squares of the start (every step
costs at least 1), so the work arrays cover that window only, whatever the map's size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warhost.core.compiled import numba_available

AVAILABLE = numba_available()

DX = np.array([0, 1, 1, 1, 0, -1, -1, -1], np.int64)
DY = np.array([1, 1, 0, -1, -1, -1, 0, 1], np.int64)


def _flood(levels: Any, owners: Any, use_owners: bool, width: int, height: int, sx: int,
           sy: int, budget: int, max_step: int, diagonal: int, friend: int, dx: Any, dy: Any,
           cost: Any, parent: Any, seen: Any) -> int:
    """Fill ``cost``/``parent`` (window indices, -1: not reached) and ``seen`` (window indices
    in the order first reached); return how many squares were reached."""
    span = 2 * budget + 1
    cap = 8 * span * span + 1
    enode = np.empty(cap, np.int64)
    enext = np.empty(cap, np.int64)
    head = np.full(budget + 1, -1, np.int64)
    tail = np.full(budget + 1, -1, np.int64)
    wx = sx - budget  # window origin on the map
    wy = sy - budget
    origin = budget * span + budget
    cost[origin] = 0
    seen[0] = origin
    n_seen = 1
    enode[0] = origin
    enext[0] = -1
    head[0] = 0
    tail[0] = 0
    entries = 1
    for c in range(budget + 1):
        e = head[c]
        while e != -1:
            here = enode[e]
            if cost[here] == c:
                lx = here % span
                ly = here // span
                hx = wx + lx
                hy = wy + ly
                here_level = levels[hy * width + hx]
                for k in range(8):
                    ddx = dx[k]
                    ddy = dy[k]
                    step = diagonal if ddx != 0 and ddy != 0 else 1
                    nc = c + step
                    if nc > budget:
                        continue
                    x = hx + ddx
                    y = hy + ddy
                    if x < 0 or y < 0 or x >= width or y >= height:
                        continue
                    g = y * width + x
                    level = levels[g]
                    if level < 0 or abs(level - here_level) > max_step:
                        continue
                    if use_owners:
                        owner = owners[g]
                        if owner != -1 and owner != friend:
                            continue
                    nxt = (ly + ddy) * span + (lx + ddx)
                    known = cost[nxt]
                    if known == -1 or nc < known:
                        if known == -1:
                            seen[n_seen] = nxt
                            n_seen += 1
                        cost[nxt] = nc
                        parent[nxt] = here
                        enode[entries] = nxt
                        enext[entries] = -1
                        if tail[nc] == -1:
                            head[nc] = entries
                        else:
                            enext[tail[nc]] = entries
                        tail[nc] = entries
                        entries += 1
            e = enext[e]
    return n_seen


flood: Any = _flood
if AVAILABLE:  # pragma: no branch
    import numba

    flood = numba.njit(cache=True, nogil=True)(_flood)
