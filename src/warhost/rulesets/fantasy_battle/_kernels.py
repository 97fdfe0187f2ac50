"""Compiled inner loops of `fantasy-battle` movement (numba, when it is installed).

:func:`plain_search` is the search of :func:`warhost.rulesets.fantasy_battle.movement.destinations`
without Vault, written over flat NumPy arrays so numba can compile it. It follows the pure-Python
search step for step (the same buckets, the same direction order, the same tie-breaking), so it
finds the same costs *and* the same paths; ``tests/rulesets/fantasy_battle/test_movement_kernel.py``
compares the two on many positions. Without numba (or with the environment variable
``WARHOST_NO_NUMBA=1``, which saves the ~100 MB that numba and LLVM take in each process),
:data:`AVAILABLE` is False and the movement module uses its pure-Python search instead: the same
results, several times slower.

Each search takes four arrays and two numbers, because calling a compiled function costs time
per array (less per number), and handing a new array back costs more still:

* ``maps`` (int64, :data:`MAP_ROWS` rows by padded square index): the map's rows
  :data:`MAP_COST` .. :data:`MAP_CLEAR`, built once per map and base size, and
  :data:`MAP_STEPS` (:func:`step_mask`), built once per map, base size and corner-cutting rule;
* ``params`` (int64, :data:`P_ROWS` x 3): the 8 steps as (index offset, corner square A, corner
  square B) in rows :data:`P_DIRS` .., then :data:`P_MAP` (padded width, width, height) and
  :data:`P_BASE` (base size, 1 if the map has elevated squares), built once per map, base size
  and corner-cutting rule;
* ``units`` (int64, one row of :data:`UNIT_FIELDS` numbers per unit of the battle:
  :data:`U_ACTIVE` .. :data:`U_DOUBLING`; a facing of (0, 0) means no front arc), kept up to date
  by the state (:meth:`~warhost.rulesets.fantasy_battle.state.FBState.unit_table`); the searches
  skip the mover's row and units off the map themselves (units too far away to touch the move
  change nothing);
* ``me`` (the mover's row) and ``budget``;
* for :func:`plain_search`, ``rows`` (int64, 5 x padded squares): where the results go.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warhost.core.compiled import numba_available

AVAILABLE = numba_available()
if AVAILABLE:  # pragma: no branch
    import numba

__all__ = [
    "AVAILABLE",
    "MAP_BASE",
    "MAP_CLEAR",
    "MAP_CLS",
    "MAP_COST",
    "MAP_END",
    "MAP_HALT",
    "MAP_LVL",
    "MAP_ROWS",
    "MAP_STEPS",
    "P_BASE",
    "P_DIRS",
    "P_MAP",
    "P_ROWS",
    "R_BEST",
    "R_ENDS",
    "R_ORDER",
    "R_PREV",
    "R_RANK",
    "R_ROWS",
    "UNIT_FIELDS",
    "U_ACTIVE",
    "U_DOUBLING",
    "U_FDX",
    "U_FDY",
    "U_SIDE",
    "U_SIZE",
    "U_X",
    "U_Y",
    "arc_square",
    "charge_search",
    "near_search",
    "plain_search",
    "step_mask",
]

# Rows of ``maps``.
MAP_COST = 0  # per square: 0 impassable, -1 deep water/pit, else 1 or 2 (for corner cutting)
MAP_CLS = 1  # per square: ground / elevated / slope / off the map
MAP_LVL = 2  # per square: level (slope 0, off the map -1)
MAP_BASE = 3  # per anchor: entry cost of the whole space before other units (0 = closed)
MAP_END = 4  # per anchor: 1 if the move may end here
MAP_HALT = 5  # per anchor: 1 if the space is on slope (an end only after a front-arc halt)
MAP_CLEAR = 6  # per anchor: 1 if every square of the space is clear for charging
MAP_STEPS = 7  # per anchor: bit k set if the terrain allows step k from it (step_mask)
MAP_ROWS = 8

# Rows of ``params``.
P_DIRS = 0  # rows 0..7: the steps in DIRECTIONS8 order (index offset, corner A, corner B)
P_MAP = 8  # (width of the padded grid, width, height)
P_BASE = 9  # (the mover's base: 1 or 2 squares a side, 1 if the map has elevated squares, 0)
P_ROWS = 10

# Fields of a row of ``units``.
U_ACTIVE = 0  # 1 if the unit stands on the map
U_X = 1  # anchor
U_Y = 2
U_SIZE = 3
U_SIDE = 4  # the index of its side in the battle's sides
U_FDX = 5  # a Pike's facing; (0, 0) for units without a front arc
U_FDY = 6
U_DOUBLING = 7  # 1 if its steps from next to an enemy cost double (not Cavalry, FB-CAV-02)
UNIT_FIELDS = 8

# Rows of what plain_search writes into ``rows``.
R_BEST = 0
R_PREV = 1
R_ORDER = 2
R_ENDS = 3
R_RANK = 4
R_ROWS = 5


def _arc_square(ax: int, ay: int, fdx: int, fdy: int, k: int) -> tuple[int, int]:
    """The ``k``-th (0..2) square of the front arc of a Pike at ``(ax, ay)`` facing
    ``(fdx, fdy)`` (``grid.facing_arc``'s order)."""
    if fdx == 0:
        return ax - 1 + k, ay + fdy
    if fdy == 0:
        return ax + fdx, ay - 1 + k
    if k == 0:
        return ax + fdx, ay
    if k == 1:
        return ax + fdx, ay + fdy
    return ax, ay + fdy


arc_square: Any = (
    numba.njit(cache=True, inline="always")(_arc_square) if AVAILABLE else _arc_square
)


def _unsigned(i: int) -> int:
    """``i`` as an index that numba need not check for being negative: compiled, it becomes
    uint64 (adding a negative step offset wraps round to the right square); in plain Python it
    stays as it is."""
    return i


if AVAILABLE:  # pragma: no branch

    @numba.extending.overload(_unsigned, inline="always")
    def _unsigned_compiled(i: Any) -> Any:  # pragma: no cover - runs inside numba
        def impl(i: Any) -> Any:
            return np.uint64(i)

        return impl


def _step_mask_py(maps: np.ndarray, params: np.ndarray) -> np.ndarray:
    """The :data:`MAP_STEPS` row for the map rows ``maps`` (at least :data:`MAP_CLEAR` + 1 of
    them) and ``params``: per anchor, bit ``k`` set if step ``k`` from it neither squeezes
    between two impassable corners (FB-AMB-17) nor crosses a cliff edge (FB-AMB-46). Anchors
    of the padding, where no base fits, get 0."""
    cost = maps[MAP_COST]
    cls = maps[MAP_CLS]
    n = cost.shape[0]
    pw = params[P_MAP, 0]
    size = params[P_BASE, 0]
    large = size == 2
    levels = params[P_BASE, 1] != 0
    out = np.zeros(n, np.int64)
    for i in range(pw + 1, n - size * (pw + 1)):  # every read below stays in the array
        mask = 0
        for k in range(8):
            ca = params[P_DIRS + k, 1]
            if ca != 0 and cost[i + ca] <= 0 and cost[i + params[P_DIRS + k, 2]] <= 0:
                continue
            j = i + params[P_DIRS + k, 0]
            if levels:
                if large:
                    if (
                        cls[i] ^ cls[j] == 1 or cls[i + 1] ^ cls[j + 1] == 1
                        or cls[i + pw] ^ cls[j + pw] == 1
                        or cls[i + pw + 1] ^ cls[j + pw + 1] == 1
                    ):
                        continue
                elif cls[i] ^ cls[j] == 1:
                    continue
            mask |= 1 << k
        out[i] = mask
    return out


step_mask: Any = numba.njit(cache=True)(_step_mask_py) if AVAILABLE else _step_mask_py


def _mark_py(
    lvl: np.ndarray, enter: np.ndarray, adj: np.ndarray, arc: np.ndarray, n: int, pw: int,
    width: int, height: int, size: int, doubling: bool, side: int, units: np.ndarray, r: int,
) -> None:
    """What the unit in row ``r`` does to a search of :func:`_setup`: the anchors whose space
    would overlap its squares closed and, for an enemy, the anchors next to it marked in
    ``adj`` (if the mover's steps there cost double) and those in its front arc in ``arc``."""
    if units[r, U_ACTIVE] == 0:
        return
    large = size == 2
    ax = units[r, U_X]
    ay = units[r, U_Y]
    esize = units[r, U_SIZE]
    a0 = (ay + 1) * pw + ax + 1
    for sy in range(esize):  # the squares it holds
        for sx in range(esize):
            q = a0 + sy * pw + sx
            enter[q] = 0
            if large:
                enter[q - 1] = 0
                enter[q - pw] = 0
                enter[q - pw - 1] = 0
    if units[r, U_SIDE] == side:
        return
    # An enemy: anchors touching it (doubled step cost) and in its front arc (a Pike).
    level = lvl[a0]
    if doubling:
        for dy in range(-size, esize + 1):
            for dx in range(-size, esize + 1):
                a = a0 + dy * pw + dx
                if 0 <= a < n and lvl[a] == level:
                    adj[a] = 1
    fdx = units[r, U_FDX]
    fdy = units[r, U_FDY]
    if fdx == 0 and fdy == 0:
        return
    for k in range(3):
        qx, qy = arc_square(ax, ay, fdx, fdy, k)
        if not (0 <= qx < width and 0 <= qy < height):
            continue
        q = (qy + 1) * pw + qx + 1
        if large:
            if lvl[q] == level:
                arc[q] = 1
            if lvl[q - 1] == level:
                arc[q - 1] = 1
            if lvl[q - pw] == level:
                arc[q - pw] = 1
            if lvl[q - pw - 1] == level:
                arc[q - pw - 1] = 1
        elif lvl[q] == level:
            arc[q] = 1


_mark: Any = numba.njit(cache=True, inline="always")(_mark_py) if AVAILABLE else _mark_py


def _setup_py(
    maps: np.ndarray, params: np.ndarray, units: np.ndarray, me: int, extra: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(entry cost per anchor with other units' squares closed, 1 for anchors touching an
    enemy, 1 for anchors in an enemy Pike's front arc, ``extra`` more numbers for the caller's
    own use): views of one new array, since every allocation takes time."""
    lvl = maps[MAP_LVL]
    n = lvl.shape[0]
    work = np.empty(3 * n + extra, np.int64)
    enter = work[:n]
    adj = work[n:2 * n]
    arc = work[2 * n:3 * n]
    enter[:] = maps[MAP_BASE]
    adj[:] = 0
    arc[:] = 0
    pw = params[P_MAP, 0]
    width = params[P_MAP, 1]
    height = params[P_MAP, 2]
    size = params[P_BASE, 0]
    doubling = units[me, U_DOUBLING] != 0
    side = units[me, U_SIDE]
    for r in range(units.shape[0]):
        if r != me:
            _mark(lvl, enter, adj, arc, n, pw, width, height, size, doubling, side, units, r)
    return enter, adj, arc, work[3 * n:]


_setup: Any = numba.njit(cache=True, nogil=True)(_setup_py) if AVAILABLE else _setup_py


def _near_setup_py(
    maps: np.ndarray, params: np.ndarray, units: np.ndarray, owner: np.ndarray, me: int,
    x0: int, x1: int, y0: int, y1: int, extra: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_setup` for the padded squares ``x0..x1`` by ``y0..y1`` only (the rest of the
    three arrays is left unset): the units looked at are those ``owner`` (per padded square, the
    row of the unit standing there or -1) shows within 3 squares of that window, the only ones
    that can change it."""
    lvl = maps[MAP_LVL]
    n = lvl.shape[0]
    pw = params[P_MAP, 0]
    ph = n // pw
    work = np.empty(3 * n + extra, np.int64)
    enter = work[:n]
    adj = work[n:2 * n]
    arc = work[2 * n:3 * n]
    base = maps[MAP_BASE]
    for y in range(y0, y1 + 1):
        for i in range(y * pw + x0, y * pw + x1 + 1):
            enter[i] = base[i]
            adj[i] = 0
            arc[i] = 0
    width = params[P_MAP, 1]
    height = params[P_MAP, 2]
    size = params[P_BASE, 0]
    doubling = units[me, U_DOUBLING] != 0
    side = units[me, U_SIDE]
    for y in range(max(0, y0 - 3), min(ph - 1, y1 + 3) + 1):
        for i in range(y * pw + max(0, x0 - 3), y * pw + min(pw - 1, x1 + 3) + 1):
            r = owner[i]
            if r >= 0 and r != me:  # marking a unit twice changes nothing
                _mark(lvl, enter, adj, arc, n, pw, width, height, size, doubling, side, units, r)
    return enter, adj, arc, work[3 * n:]


_near_setup: Any = (
    numba.njit(cache=True, nogil=True)(_near_setup_py) if AVAILABLE else _near_setup_py
)


def _bucket_search_py(
    params: np.ndarray, moves: np.ndarray, enter: np.ndarray, adj: np.ndarray, arc: np.ndarray,
    queue: np.ndarray, nb: int, stride: int, start: int, rows: np.ndarray,
) -> int:
    """The cheapest-path search both movement searches share: a bucketed Dijkstra from
    ``start`` over costs below ``nb``, bucket c being ``queue[c * stride:pos[c]]`` in append
    order (a square enters a bucket only when its cost drops, so ``stride`` squares always
    suffice; ``pos`` lives at ``queue[nb * stride:]``). The caller has set :data:`R_BEST` to
    ``nb`` and :data:`R_PREV` to -1 on every square the search can reach. Fills those rows and
    :data:`R_ORDER`; returns how many squares were reached."""
    pos = queue[nb * stride:]
    for c in range(nb):
        pos[c] = c * stride
    # The step offsets, read once (read from params, they would be loaded again after every
    # store); indices are unsigned, which spares numba's checks for negative ones.
    offsets = np.empty(8, np.int64)
    for k in range(8):
        offsets[k] = params[P_DIRS + k, 0]
    best = rows[R_BEST]
    prev = rows[R_PREV]
    order = rows[R_ORDER]
    best[start] = 0
    queue[0] = start
    pos[0] = 1
    count = 0
    for c in range(nb):
        for e in range(c * stride, pos[c]):
            i = _unsigned(queue[e])
            if best[i] != c:
                continue  # a stale entry: the square was reached more cheaply since
            order[count] = i
            count += 1
            if arc[i]:
                continue  # a front-arc stop ends the movement (FB-PIKE-05)
            mult = 2 if adj[i] else 1
            # The steps the terrain allows, in DIRECTIONS8 order (which settles ties).
            steps = moves[i]
            for k in range(8):
                if not steps >> k & 1:
                    continue
                j = i + _unsigned(offsets[k])
                step = enter[j]
                if step <= 0:
                    continue
                nc = c + step * mult
                if nc < best[j]:
                    best[j] = nc
                    prev[j] = i
                    p = pos[nc]
                    queue[p] = j
                    pos[nc] = p + 1
    return count


_bucket_search: Any = (
    numba.njit(cache=True, nogil=True)(_bucket_search_py) if AVAILABLE else _bucket_search_py
)


def _near_search(
    maps: np.ndarray, params: np.ndarray, units: np.ndarray, owner: np.ndarray, me: int,
    budget: int, rows: np.ndarray,
) -> tuple[int, int, int]:
    """:func:`_plain_search` that reads and writes only the squares within ``budget + 1`` of
    the mover (each step costs at least 1, so the search never looks further), finding the
    units that matter through ``owner`` (:func:`_near_setup`): its work does not grow with the
    map or the army. ``rows`` holds the results for the squares within ``budget`` of the mover
    (the only ones that can be ends); the rest of it is left unset. Returns (ends, reached,
    squares set up)."""
    end_ok = maps[MAP_END]
    halt_ok = maps[MAP_HALT]
    moves = maps[MAP_STEPS]
    n = end_ok.shape[0]
    pw = params[P_MAP, 0]
    ph = n // pw
    sx = units[me, U_X] + 1
    sy = units[me, U_Y] + 1
    start = sy * pw + sx
    reach = budget + 1
    x0 = max(0, sx - reach)
    x1 = min(pw - 1, sx + reach)
    y0 = max(0, sy - reach)
    y1 = min(ph - 1, sy + reach)
    m = (x1 - x0 + 1) * (y1 - y0 + 1)
    nb = budget + 1
    enter, adj, arc, queue = _near_setup(maps, params, units, owner, me, x0, x1, y0, y1,
                                         nb * m + nb)
    arc[start] = 0  # the mover's own square never stops it (FB-PIKE-05)
    best = rows[R_BEST]
    prev = rows[R_PREV]
    for y in range(y0, y1 + 1):
        for i in range(y * pw + x0, y * pw + x1 + 1):
            best[i] = nb
            prev[i] = -1
    count = _bucket_search(params, moves, enter, adj, arc, queue, nb, m, start, rows)
    ends = rows[R_ENDS]
    rank = rows[R_RANK]
    found = 0
    for y in range(y0, y1 + 1):  # ascending index order, as _plain_search
        for i in range(y * pw + x0, y * pw + x1 + 1):
            if best[i] <= budget and (end_ok[i] or (arc[i] and halt_ok[i])):
                ends[found] = i
                rank[i] = found
                found += 1
            else:
                rank[i] = -1
    return found, count, m


def _plain_search(
    maps: np.ndarray, params: np.ndarray, units: np.ndarray, me: int, budget: int,
    rows: np.ndarray,
) -> tuple[int, int]:
    """(ends, reached), with ``rows`` filled in: per anchor index, :data:`R_BEST` the cheapest
    cost (unreached: ``budget + 1``) and :data:`R_PREV` the anchor it was reached from; then
    the first ``reached`` entries of :data:`R_ORDER` are the anchors in search order and the
    first ``ends`` entries of :data:`R_ENDS` the legal end anchors in ascending index order
    (row-major), and :data:`R_RANK` gives, per anchor index, its position among those ends
    (-1: not an end). The caller hands ``rows`` in, because handing a new array back to Python
    takes time."""
    end_ok = maps[MAP_END]
    halt_ok = maps[MAP_HALT]
    moves = maps[MAP_STEPS]
    n = end_ok.shape[0]
    pw = params[P_MAP, 0]
    start = (units[me, U_Y] + 1) * pw + units[me, U_X] + 1
    # Bucketed Dijkstra: bucket c (cost c) is queue[c * n:pos[c]], in append order. A square
    # enters a bucket at most once (only when its cost drops), so n entries always suffice.
    nb = budget + 1
    enter, adj, arc, queue = _setup(maps, params, units, me, nb * n + nb)
    arc[start] = 0  # the mover's own square never stops it (FB-PIKE-05)
    best = rows[R_BEST]
    prev = rows[R_PREV]
    best[:] = nb
    prev[:] = -1
    count = _bucket_search(params, moves, enter, adj, arc, queue, nb, n, start, rows)
    ends = rows[R_ENDS]
    rank = rows[R_RANK]
    found = 0
    for i in range(n):
        if best[i] <= budget and (end_ok[i] or (arc[i] and halt_ok[i])):
            ends[found] = i
            rank[i] = found
            found += 1
        else:
            rank[i] = -1
    return found, count


def _charge_search(
    maps: np.ndarray, params: np.ndarray, units: np.ndarray, me: int, budget: int
) -> np.ndarray:
    """The ends of charge moves as rows (end anchor, cost, direction, steps), in the order
    :func:`~warhost.rulesets.fantasy_battle.movement.charge_destinations` finds them."""
    end_ok = maps[MAP_END]
    clear = maps[MAP_CLEAR]
    moves = maps[MAP_STEPS]
    pw = params[P_MAP, 0]
    start = (units[me, U_Y] + 1) * pw + units[me, U_X] + 1
    enter, adj, arc, _ = _setup(maps, params, units, me, 0)
    out = np.empty((8 * (budget + 1), 4), np.int64)
    found = 0
    for k in range(8):
        d = params[P_DIRS + k, 0]
        i = start
        spent = 0
        steps = 0
        while True:
            if not moves[i] >> k & 1:
                break  # the terrain forbids the step (step_mask)
            j = i + d
            step = enter[j]
            if step <= 0 or not clear[j]:
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
            if arc[j]:
                break
            i = j
    return out[:found]


plain_search: Any = (
    numba.njit(cache=True, nogil=True)(_plain_search) if AVAILABLE else _plain_search
)
near_search: Any = (
    numba.njit(cache=True, nogil=True)(_near_search) if AVAILABLE else _near_search
)
charge_search: Any = (
    numba.njit(cache=True, nogil=True)(_charge_search) if AVAILABLE else _charge_search
)



# Rows of the ``vmap`` array of vault_search (built once per map and base size).
V_COST = 0  # per square: as MAP_COST
V_CLS = 1  # per square: as MAP_CLS
V_STEP = 2  # per anchor: entry cost of the space before units and Vault (0: closed)
V_END = 3  # per anchor: as MAP_END
V_HALT = 4  # per anchor: as MAP_HALT
V_ROWS = 5
VAULT_STATES = 6
"""Search nodes per anchor in :func:`vault_search`: node ``i * 6 + v`` with v = 0 (Vault still
available), 1 (Vault used), 2 + k (passing right now the vaulted square ``i + offset k`` of
the space, offsets (0, 1, pw, pw + 1); a 1x1 base has only k = 0)."""


def _vault_search_py(
    vmap: np.ndarray, dirs: np.ndarray, occ: np.ndarray, adj: np.ndarray, arc: np.ndarray,
    start: int, budget: int, pw: int, large: bool, check_levels: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The search of ``movement._vault_search`` over flat arrays, step for step (the same
    buckets in append order, the same direction order, the same tie-breaking), with nodes
    numbered as :data:`VAULT_STATES` says. ``occ``, ``adj``, ``arc``: per square (1x1) or
    anchor, another unit's square, an anchor next to an enemy, a front-arc stop; ``dirs``: the
    8 steps (index offset, corner A, corner B).

    Returns (nodes in search order, best cost per node (``budget + 1``: unreached), previous
    node per node, the chosen end node per anchor (-1: none), the end anchors in the order
    they were first chosen)."""
    cost = vmap[V_COST]
    cls = vmap[V_CLS]
    enter = vmap[V_STEP]
    end_ok = vmap[V_END]
    halt_ok = vmap[V_HALT]
    n = cost.shape[0]
    nodes = n * 6
    unreached = budget + 1
    best = np.full(nodes, unreached, np.int64)
    prev = np.full(nodes, -1, np.int64)
    offs = np.array([0, 1, pw, pw + 1], np.int64)
    # The buckets: linked lists of pushes, each kept in append order.
    head = np.full(budget + 1, -1, np.int64)
    tail = np.full(budget + 1, -1, np.int64)
    cap = 256
    pushed = np.empty(cap, np.int64)
    link = np.empty(cap, np.int64)
    npush = 0
    snode = start * 6
    best[snode] = 0
    pushed[0] = snode
    link[0] = -1
    head[0] = 0
    tail[0] = 0
    npush = 1
    order = np.empty(nodes, np.int64)
    count = 0
    for c in range(budget + 1):
        p = head[c]
        while p >= 0:
            node = pushed[p]
            p = link[p]
            if best[node] != c:
                continue
            order[count] = node
            count += 1
            i = node // 6
            v = node - i * 6
            if arc[i] and node != snode:
                continue  # a front-arc stop ends the movement (FB-PIKE-05)
            double = adj[i] != 0
            for k in range(8):
                d = dirs[k, 0]
                ca = dirs[k, 1]
                if ca != 0 and cost[i + ca] <= 0 and cost[i + dirs[k, 2]] <= 0:
                    continue  # squeezing between two impassable corners (FB-AMB-17)
                j = i + d
                if large:
                    step = enter[j]
                    if step == 0:
                        continue
                    if check_levels and (
                        cls[i] ^ cls[j] == 1 or cls[i + 1] ^ cls[j + 1] == 1
                        or cls[i + pw] ^ cls[j + pw] == 1
                        or cls[i + pw + 1] ^ cls[j + pw + 1] == 1
                    ):
                        continue  # a square of the base would cross a cliff edge
                    mask = 0
                    for b in range(4):
                        q = j + offs[b]
                        if cost[q] < 0 or occ[q]:
                            mask |= 1 << b
                    if mask:
                        if mask & (mask - 1):
                            continue  # two obstacles at once
                        b = 0
                        while not mask >> b & 1:
                            b += 1
                        if v == 0 or v >= 2 and i + offs[v - 2] == j + offs[b]:
                            nv = 2 + b
                        else:
                            continue
                    else:
                        nv = 1 if v else 0
                else:
                    step = cost[j]
                    if step == 0 or cls[i] ^ cls[j] == 1:
                        continue
                    if step < 0 or occ[j]:
                        if v != 0:
                            continue
                        nv = 2
                        if step < 0:
                            step = 1
                    else:
                        nv = 1 if v else 0
                if double:
                    step += step
                nc = c + step
                if nc > budget:
                    continue
                nn = j * 6 + nv
                if best[nn] <= nc:
                    continue
                best[nn] = nc
                prev[nn] = node
                if npush == cap:
                    cap *= 2
                    grown = np.empty(cap, np.int64)
                    grown[:npush] = pushed[:npush]
                    pushed = grown
                    grown = np.empty(cap, np.int64)
                    grown[:npush] = link[:npush]
                    link = grown
                pushed[npush] = nn
                link[npush] = -1
                if tail[nc] >= 0:
                    link[tail[nc]] = npush
                else:
                    head[nc] = npush
                tail[nc] = npush
                npush += 1
    chosen = np.full(n, -1, np.int64)
    found = np.empty(n, np.int64)
    nfound = 0
    for e in range(count):
        node = order[e]
        i = node // 6
        v = node - i * 6
        if v >= 2 or (i == start and node != snode):
            continue  # passing a vaulted square, or back at the start (only "stay" counts)
        halted = node != snode and arc[i] != 0
        if not (end_ok[i] or (halted and halt_ok[i])):
            continue
        have = chosen[i]
        if have < 0:
            chosen[i] = node
            found[nfound] = i
            nfound += 1
        elif v == 0 and have % 6 != 0 and best[have] == best[node]:
            chosen[i] = node
    return order[:count], best, prev, chosen, found[:nfound]


vault_search: Any = (
    numba.njit(cache=True, nogil=True)(_vault_search_py) if AVAILABLE else _vault_search_py
)
