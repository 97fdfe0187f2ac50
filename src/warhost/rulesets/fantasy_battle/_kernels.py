"""Compiled inner loops of `fantasy-battle` movement (numba, when it is installed).

:func:`plain_search` is the search of :func:`warhost.rulesets.fantasy_battle.movement.destinations`
without Vault, written over flat NumPy arrays so numba can compile it. It follows the pure-Python
search step for step (the same buckets, the same direction order, the same tie-breaking), so it
finds the same costs *and* the same paths; ``tests/rulesets/fantasy_battle/test_movement_kernel.py``
compares the two on many positions. Without numba (or with the environment variable
``WARHOST_NO_NUMBA=1``, which saves the ~100 MB that numba and LLVM take in each process),
:data:`AVAILABLE` is False and the movement module uses its pure-Python search instead: the same
results, several times slower.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

AVAILABLE = False
if os.environ.get("WARHOST_NO_NUMBA", "") in ("", "0"):  # pragma: no branch
    try:  # pragma: no cover - depends on the environment
        import numba

        AVAILABLE = True
    except ImportError:  # pragma: no cover
        pass

__all__ = ["AVAILABLE", "charge_search", "plain_search"]


def _setup_py(
    base: np.ndarray,
    occ: np.ndarray,
    lvl: np.ndarray,
    enemies: np.ndarray,
    pw: int,
    width: int,
    height: int,
    size: int,
    doubling: bool,
    ux: int,
    uy: int,
    reach: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(entry cost per anchor with other units' squares closed, anchors touching an enemy,
    anchors in an enemy Pike's front arc)."""
    n = base.shape[0]
    large = size == 2
    enter = base.copy()
    for t in range(occ.shape[0]):
        q = occ[t]
        enter[q] = 0
        if large:
            enter[q - 1] = 0
            enter[q - pw] = 0
            enter[q - pw - 1] = 0
    # Anchors touching an enemy (doubled step cost) and in an enemy Pike's front arc.
    adj = np.zeros(n, np.bool_)
    arc = np.zeros(n, np.bool_)
    for e in range(enemies.shape[0]):
        ax = enemies[e, 0]
        ay = enemies[e, 1]
        if abs(ax - ux) > reach or abs(ay - uy) > reach:
            continue
        esize = enemies[e, 2]
        a0 = (ay + 1) * pw + ax + 1
        level = lvl[a0]
        if doubling:
            for dy in range(-size, esize + 1):
                for dx in range(-size, esize + 1):
                    a = a0 + dy * pw + dx
                    if 0 <= a < n and lvl[a] == level:
                        adj[a] = True
        if enemies[e, 5]:
            fdx = enemies[e, 3]
            fdy = enemies[e, 4]
            for k in range(3):
                if fdx == 0:
                    qx = ax - 1 + k
                    qy = ay + fdy
                elif fdy == 0:
                    qx = ax + fdx
                    qy = ay - 1 + k
                elif k == 0:
                    qx = ax + fdx
                    qy = ay
                elif k == 1:
                    qx = ax + fdx
                    qy = ay + fdy
                else:
                    qx = ax
                    qy = ay + fdy
                if not (0 <= qx < width and 0 <= qy < height):
                    continue
                q = (qy + 1) * pw + qx + 1
                if large:
                    if lvl[q] == level:
                        arc[q] = True
                    if lvl[q - 1] == level:
                        arc[q - 1] = True
                    if lvl[q - pw] == level:
                        arc[q - pw] = True
                    if lvl[q - pw - 1] == level:
                        arc[q - pw - 1] = True
                elif lvl[q] == level:
                    arc[q] = True
    return enter, adj, arc


_setup: Any = numba.njit(cache=True, nogil=True)(_setup_py) if AVAILABLE else _setup_py


def _plain_search(
    base: np.ndarray,  # int64[n]: entry cost per anchor (0 = closed), before other units
    occ: np.ndarray,  # int64[k]: padded indexes of squares held by other units
    cost: np.ndarray,  # int64[n]: per-square cost (<= 0 impassable), for corner cutting
    cls: np.ndarray,  # int64[n]: ground / elevated / slope / off class per square
    lvl: np.ndarray,  # int64[n]: level per square (slope 0, off -1)
    end_ok: np.ndarray,  # int8[n]: may end here (1x1 square or 2x2 space)
    halt_ok: np.ndarray,  # int8[n]: may end here after a front-arc halt even though slope
    dirs: np.ndarray,  # int64[8, 3]: index step, corner square A, corner square B
    enemies: np.ndarray,  # int64[m, 6]: x, y, size, facing dx, facing dy, has a front arc
    start: int,
    budget: int,
    pw: int,
    width: int,
    height: int,
    size: int,
    levels: bool,
    doubling: bool,
    ux: int,
    uy: int,
    reach: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(best cost per anchor, previous anchor per anchor, anchors in search order, legal end
    anchors in ascending index order, i.e. row-major). Unreached anchors cost ``budget + 1``."""
    n = base.shape[0]
    large = size == 2
    enter, adj, arc = _setup(base, occ, lvl, enemies, pw, width, height, size, doubling,
                             ux, uy, reach)
    # Bucketed Dijkstra: buckets are linked lists of entries, kept in append order.
    unreached = budget + 1
    best = np.full(n, unreached, np.int64)
    prev = np.full(n, -1, np.int64)
    best[start] = 0
    cap = 8 * n + 1
    enode = np.empty(cap, np.int64)
    enext = np.empty(cap, np.int64)
    head = np.full(budget + 1, -1, np.int64)
    tail = np.full(budget + 1, -1, np.int64)
    enode[0] = start
    enext[0] = -1
    head[0] = 0
    tail[0] = 0
    entries = 1
    order = np.empty(n, np.int64)
    count = 0
    for c in range(budget + 1):
        e = head[c]
        while e != -1:
            i = enode[e]
            e = enext[e]
            if best[i] != c:
                continue
            order[count] = i
            count += 1
            if arc[i] and i != start:
                continue  # a front-arc stop ends the movement (FB-PIKE-05)
            mult = 2 if adj[i] else 1
            for k in range(8):
                ca = dirs[k, 1]
                if ca != 0 and cost[i + ca] <= 0 and cost[i + dirs[k, 2]] <= 0:
                    continue  # squeezing between two impassable corners (FB-AMB-17)
                j = i + dirs[k, 0]
                step = enter[j]
                if step <= 0:
                    continue
                nc = c + step * mult
                if nc >= best[j]:
                    continue
                if levels:
                    if large:
                        if (
                            cls[i] ^ cls[j] == 1 or cls[i + 1] ^ cls[j + 1] == 1
                            or cls[i + pw] ^ cls[j + pw] == 1
                            or cls[i + pw + 1] ^ cls[j + pw + 1] == 1
                        ):
                            continue
                    elif cls[i] ^ cls[j] == 1:
                        continue  # cliff edge (FB-AMB-46)
                best[j] = nc
                prev[j] = i
                enode[entries] = j
                enext[entries] = -1
                if head[nc] == -1:
                    head[nc] = entries
                else:
                    enext[tail[nc]] = entries
                tail[nc] = entries
                entries += 1
    ends = np.empty(count, np.int64)
    found = 0
    for i in range(n):
        if best[i] <= budget and (end_ok[i] or (i != start and arc[i] and halt_ok[i])):
            ends[found] = i
            found += 1
    return best, prev, order[:count], ends[:found]


def _charge_search(
    base: np.ndarray,
    occ: np.ndarray,
    cost: np.ndarray,
    cls: np.ndarray,
    lvl: np.ndarray,
    end_ok: np.ndarray,
    clear: np.ndarray,  # int8[n]: every square of the space is clear for charging
    dirs: np.ndarray,
    enemies: np.ndarray,
    start: int,
    budget: int,
    pw: int,
    width: int,
    height: int,
    size: int,
    levels: bool,
    doubling: bool,
    ux: int,
    uy: int,
    reach: int,
    first: bool,
) -> np.ndarray:
    """The ends of charge moves as rows (end anchor, cost, direction, steps), in the order
    :func:`~warhost.rulesets.fantasy_battle.movement.charge_destinations` finds them; with
    ``first`` only the first one."""
    large = size == 2
    enter, adj, arc = _setup(base, occ, lvl, enemies, pw, width, height, size, doubling,
                             ux, uy, reach)
    out = np.empty((8 * (budget + 1), 4), np.int64)
    found = 0
    for k in range(8):
        d = dirs[k, 0]
        ca = dirs[k, 1]
        cb = dirs[k, 2]
        i = start
        spent = 0
        steps = 0
        while True:
            j = i + d
            if ca != 0 and cost[i + ca] <= 0 and cost[i + cb] <= 0:
                break
            step = enter[j]
            if step <= 0:
                break
            if large:
                if levels and (
                    cls[i] ^ cls[j] == 1 or cls[i + 1] ^ cls[j + 1] == 1
                    or cls[i + pw] ^ cls[j + pw] == 1
                    or cls[i + pw + 1] ^ cls[j + pw + 1] == 1
                ):
                    break
            elif cls[i] ^ cls[j] == 1:
                break
            if not clear[j]:
                break
            if adj[i]:
                step += step
            spent += step
            if spent > budget:
                break
            steps += 1
            if steps >= 2 and end_ok[j]:
                out[found, 0] = j
                out[found, 1] = spent
                out[found, 2] = k
                out[found, 3] = steps
                found += 1
                if first:
                    return out[:found]
            if arc[j]:
                break
            i = j
    return out[:found]


plain_search: Any = (
    numba.njit(cache=True, nogil=True)(_plain_search) if AVAILABLE else _plain_search
)
charge_search: Any = (
    numba.njit(cache=True, nogil=True)(_charge_search) if AVAILABLE else _charge_search
)
