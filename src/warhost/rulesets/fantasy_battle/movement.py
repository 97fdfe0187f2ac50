"""Movement in `fantasy-battle`: allowances, legal destinations, charges and forced moves.

Rules: FB-MOVE-01..07, FB-TERRAIN-01..14, FB-PIKE-04/05/07..10, FB-CAV-02/03, FB-FEAT-05/07/10 and
the rulings FB-AMB-01, 03, 16, 17, 24, 25, 34, 39, 41, 42, 46, 47.

How a step works (one step = the unit's whole space moves one square in one of 8 directions):

* Every square of the new space must be on the map, hold no *other* unit and not be impassable
  terrain (blocking, cliff, deep water/pit). Vault (FB-AMB-41) lets one move pass through exactly
  one square that is deep water/pit or holds another unit; the move may not end there. A Large
  unit may keep that same square inside its space for consecutive steps.
* Cost (FB-AMB-16, FB-TERRAIN-05): 2 if any square of the new space is hindering for movement
  (hindering, slope, shallow water/mud), else 1. A vaulted deep-water square counts 1.
  A step that starts from a position touching an enemy on the same level costs double
  (FB-MOVE-06), except for Cavalry (FB-CAV-02, FB-AMB-34). Ruling here: a Vaulting unit whose
  space overlaps an enemy (it is passing through it) counts as touching that enemy.
* Corner cutting (FB-AMB-17, option ``corner_cutting``): with ``blocked_by_terrain`` a diagonal
  step is illegal when both squares it squeezes between are impassable terrain. For a 1-square
  unit these are ``(x+dx, y)`` and ``(x, y+dy)``. For a 2x2 unit they are the two corner squares
  of the 3x3 box swept by the step that belong to neither the old nor the new space (for
  ``(+1, +1)`` from anchor ``(x, y)``: ``(x+2, y)`` and ``(x, y+2)``). Units never block a
  diagonal step.
* Levels (FB-AMB-46): squares are *ground* (level 0, not slope), *elevated* (level >= 1, not
  slope) or *slope*. No square of the space may step directly between elevated and ground
  (a cliff edge); each of the 4 squares of a 2x2 base is checked against the square it moves
  from, and a 2x2 space may never hold elevated and ground squares at once.
* Front arcs (FB-PIKE-05, FB-AMB-24): a step whose new space includes a front-arc square of an
  enemy Pike on the same level (the mover's level is that of its anchor square, as in
  ``FBState.level_of``) ends the movement there. A unit that starts inside an arc may step out.
* End (FB-TERRAIN-10, FB-AMB-03): never on slope or deep water, never on a vaulted square, and a
  2x2 unit with all four squares on one level. A front-arc stop on slope is still offered;
  :func:`apply_move` then relocates the unit (FB-TERRAIN-11, FB-AMB-47).

Among equally cheap paths the search keeps the first one found (directions are tried in
:data:`~warhost.geometry.grid.DIRECTIONS8` order, cheapest positions first), and a path that does
not Vault is preferred over an equally cheap one that does, so results are reproducible.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from warhost.core.decisions import Decision
from warhost.core.engine import Battle
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Grid, Square, facing_arc, footprint, space_distance
from warhost.rulesets.fantasy_battle import _kernels
from warhost.rulesets.fantasy_battle.state import MOVE, ON_MAP, FBState, Unit
from warhost.rulesets.fantasy_battle.terrain import TERRAIN

__all__ = [
    "DestinationTable",
    "MovePlan",
    "allowance",
    "apply_move",
    "charge_destinations",
    "charge_table",
    "destination_table",
    "destinations",
    "has_charge_run",
    "nearest_legal_space",
]


class MovePlan(NamedTuple):
    """One way to end a move: the end anchor, its cost, the anchors entered after the start (in
    order; empty for staying put) and the square passed with Vault, if any. (A named tuple:
    an immutable value that is cheap to build, and every move builds one.)"""

    dest: Square
    cost: int
    path: tuple[Square, ...]
    vaulted: Square | None = None


def allowance(unit: Unit, double: bool, burst: bool) -> int:
    """Movement allowance: Infantry 6, Cavalry 8 (FB-MOVE-01); Double-time doubles it
    (FB-MOVE-07); Burst of Speed adds 2, or 4 when Double-timing (FB-FEAT-05, FB-AMB-42)."""
    base = MOVE[unit.type]
    total = 2 * base if double else base
    if burst:
        total += 4 if double else 2
    return total


# --------------------------------------------------------------------------- static grid tables

_GROUND, _ELEVATED, _SLOPE, _OFF = 0, 1, 2, 3


class _Tables:
    """Per-grid lookup tables on a grid padded by one square on every side.

    Index of square (x, y): ``(y + 1) * pw + x + 1``. Off-map (padding) cells are impassable.
    """

    __slots__ = (
        "chg", "cls", "cost", "end", "fire", "has_elev", "has_slope", "height", "inputs",
        "last_charge", "lchg", "lcost", "ldeep", "lend", "levels", "lplain", "lslope", "lvl",
        "memo", "np_large", "np_small", "orders", "pw", "rows_shape", "squares", "terrain",
        "width", "xy",
    )

    def __init__(self, grid: Grid) -> None:
        w, h = grid.width, grid.height
        self.width, self.height = w, h
        # Private fields read directly: this module runs thousands of times per battle, and the
        # copies let the cache notice any later change to the grid.
        self.terrain = list(grid._terrain)
        self.levels = list(grid._level)
        pw = w + 2
        n = pw * (h + 2)
        self.pw = pw
        # cost: 0 impassable (blocking, cliff, off-map), -1 deep water/pit (vaultable), 1 or 2.
        cost = [0] * n
        cls = [_OFF] * n
        lvl = [-1] * n
        end = [False] * n
        chg = [False] * n
        fire = [-1] * n  # line of fire: 2 blocks, 1 hinders, 0 clear, -1 off the map
        squares: list[Square | None] = [None] * n
        has_elev = False
        for y in range(h):
            row = y * w
            for x in range(w):
                kind = TERRAIN[self.terrain[row + x]]
                level = self.levels[row + x]
                i = (y + 1) * pw + x + 1
                squares[i] = (x, y)
                if kind.move_cost is None:
                    cost[i] = -1 if kind.vaultable else 0
                else:
                    cost[i] = kind.move_cost
                if kind.name == "slope":
                    cls[i] = _SLOPE
                    lvl[i] = 0
                else:
                    cls[i] = _ELEVATED if level >= 1 else _GROUND
                    lvl[i] = level
                    if level >= 1:
                        has_elev = True
                end[i] = kind.can_end
                chg[i] = kind.charge_clear
                fire[i] = 2 if kind.blocks_fire else 1 if kind.hinders_fire else 0
        self.cost, self.cls, self.lvl, self.end, self.chg = cost, cls, lvl, end, chg
        self.fire = fire
        self.squares = squares
        # (x, y) by padded index ((-1, -1) off the map), to turn indexes into anchors at once.
        self.xy = np.array([(-1, -1) if sq is None else sq for sq in squares], np.int64)
        self.orders: list[Order | None] = [None] * n
        self.has_elev = has_elev
        self.has_slope = _SLOPE in cls
        # 2x2 spaces, by anchor index: built by ensure_large() when a Large unit first moves.
        self.lcost: list[int] = []
        self.ldeep: list[tuple[int, ...]] = []
        self.lend: list[bool] = []
        self.lslope: list[bool] = []
        self.lchg: list[bool] = []
        self.lplain: list[int] = []
        # The map's rows for the compiled searches, per base size (see _kernels.MAP_COST).
        self.np_small = np.array(
            [cost, cls, lvl, cost, end, [c == _SLOPE for c in cls], chg], np.int64)
        self.np_large: np.ndarray | None = None
        # (maps, params) of the compiled searches by (base size, corner rule): kernel_inputs.
        self.inputs: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}
        self.rows_shape = (_kernels.R_ROWS, n)
        # Other modules' results that depend on the map alone (see map_cache).
        self.memo: dict[Any, Any] = {}
        # The last charge search on this map: (what it read, its rows); see _charge_rows.
        self.last_charge: tuple[tuple[Any, ...], np.ndarray] | None = None

    def arrays(self, large: bool) -> np.ndarray:
        """The map's rows for the compiled searches up to ``MAP_CLEAR`` (see :mod:`._kernels`),
        1x1 or 2x2 bases."""
        if not large:
            return self.np_small
        if self.np_large is None:
            self.ensure_large()
            small = self.np_small
            self.np_large = np.array(
                [small[0], small[1], small[2], self.lplain, self.lend, self.lslope, self.lchg],
                np.int64)
        return self.np_large

    def kernel_inputs(self, size: int, corner: bool) -> tuple[np.ndarray, np.ndarray]:
        """The ``maps`` and ``params`` arrays of the compiled searches (see :mod:`._kernels`) for
        a base ``size`` squares a side, with the corner-cutting rule ``corner``
        (:func:`_corner_rule`); built once."""
        key = (size, corner)
        found = self.inputs.get(key)
        if found is None:
            params = np.zeros((_kernels.P_ROWS, 3), np.int64)
            params[_kernels.P_DIRS:_kernels.P_DIRS + 8] = _directions(self.pw, size, corner)
            params[_kernels.P_MAP] = (self.pw, self.width, self.height)
            params[_kernels.P_BASE] = (size, int(self.has_elev), 0)
            rows = self.arrays(size == 2)
            maps = np.vstack((rows, _kernels.step_mask(rows, params)))
            found = self.inputs[key] = (maps, params)
        return found

    def ensure_large(self) -> None:
        """Build the tables of 2x2 spaces (entry cost, vaultable squares, end, slope, charge)."""
        if self.lcost:
            return
        pw = self.pw
        cost, cls, lvl, end, chg = self.cost, self.cls, self.lvl, self.end, self.chg
        n = len(cost)
        lcost = [0] * n
        ldeep: list[tuple[int, ...]] = [()] * n
        lend = [False] * n
        lslope = [False] * n
        lchg = [False] * n
        offs = (0, 1, pw, pw + 1)

        def quads(values: list[Any]) -> list[tuple[Any, ...]]:
            # The values of the four squares of the 2x2 space anchored at each index.
            return list(zip(values, values[1:], values[pw:], values[pw + 1:]))

        cost4, cls4, lvl4, end4, chg4 = (quads(v) for v in (cost, cls, lvl, end, chg))
        for a, cc in enumerate(cost4):
            if 0 in cc:
                continue  # impassable terrain or off the map
            kk = cls4[a]
            if _GROUND in kk and _ELEVATED in kk:
                continue  # astride a cliff edge (FB-AMB-46)
            lcost[a] = 2 if 2 in cc else 1
            if -1 in cc:
                ldeep[a] = tuple(a + o for o, c in zip(offs, cc) if c < 0)
            ll = lvl4[a]
            lend[a] = all(end4[a]) and ll[0] == ll[1] == ll[2] == ll[3]
            lslope[a] = _SLOPE in kk
            lchg[a] = all(chg4[a])
        self.lcost, self.ldeep, self.lend, self.lslope, self.lchg = lcost, ldeep, lend, lslope, lchg
        self.lplain = [0 if ldeep[a] else lcost[a] for a in range(n)]

    def matches(self, grid: Grid) -> bool:
        """Whether these tables still describe ``grid`` (list comparison runs in C)."""
        return (
            self.width == grid.width and self.height == grid.height
            and self.terrain == grid._terrain and self.levels == grid._level
        )

    def index(self, sq: Square) -> int:
        """Padded index of an on-map square."""
        return (sq[1] + 1) * self.pw + sq[0] + 1

    def move_order(self, i: int) -> Order:
        """The order ``move x y`` to the on-map square at padded index ``i``, built once (orders
        are immutable values)."""
        order = self.orders[i]
        if order is None:
            sq = self.squares[i]
            assert sq is not None
            order = self.orders[i] = Order("move", sq)
        return order


_CACHE: dict[int, _Tables] = {}
_CACHE_SIZE = 16


_SEEN: dict[int, tuple[Grid, int, _Tables]] = {}


def _tables(grid: Grid) -> _Tables:
    # Fast path: this very grid object, unchanged since (set_terrain bumps its version).
    seen = _SEEN.get(id(grid))
    if seen is not None and seen[0] is grid and seen[1] == grid._version:
        return seen[2]
    tables = _tables_slow(grid)
    if len(_SEEN) >= _CACHE_SIZE:
        del _SEEN[next(iter(_SEEN))]
    _SEEN[id(grid)] = (grid, grid._version, tables)
    return tables


def _tables_slow(grid: Grid) -> _Tables:
    key = id(grid)
    found = _CACHE.get(key)
    if found is not None and found.matches(grid):
        return found
    # A copy of a known grid (FBState.copy for look-ahead) reuses that grid's tables.
    same = next((t for t in _CACHE.values() if t.matches(grid)), None)
    tables = same if same is not None else _Tables(grid)
    _CACHE.pop(key, None)
    if len(_CACHE) >= _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = tables
    return tables


def map_tables(grid: Grid) -> _Tables:
    """The per-map lookup tables (padded flat lists; see :class:`_Tables`)."""
    return _tables(grid)


def map_cache(grid: Grid) -> dict[Any, Any]:
    """A dict for results that depend only on the map's terrain and levels (e.g. the static part
    of lines of fire). It lives as long as these tables: a change to the grid gives a new one."""
    return _tables(grid).memo


# --------------------------------------------------------------------------- per-call context


@cache
def _ring(pw: int, size: int, other: int) -> tuple[int, ...]:
    """Offsets, from another unit's anchor, of the anchors of ``size`` spaces within distance 1
    of that unit's ``other``-sized space."""
    return tuple(
        dy * pw + dx for dy in range(-size, other + 1) for dx in range(-size, other + 1)
    )


@cache
def _directions(pw: int, size: int, corner: bool) -> tuple[tuple[int, int, int], ...]:
    """The 8 steps as (index offset, corner square A, corner square B); the corner offsets are
    0 for orthogonal steps or when corner cutting is always allowed (FB-AMB-17)."""
    dirs: list[tuple[int, int, int]] = []
    for dx, dy in DIRECTIONS8:
        ca = cb = 0
        if corner and dx and dy:
            lead_x = size if dx > 0 else -1
            trail_x = 0 if dx > 0 else size - 1
            lead_y = size if dy > 0 else -1
            trail_y = 0 if dy > 0 else size - 1
            ca = trail_y * pw + lead_x
            cb = lead_y * pw + trail_x
        dirs.append((dy * pw + dx, ca, cb))
    return tuple(dirs)


class _Ctx:
    """What one movement query needs: tables, other units' squares, enemy-adjacent anchors and
    front-arc anchors, and the 8 step offsets with their corner-cutting squares."""

    __slots__ = ("_occ_at", "adj", "arc", "dirs", "large", "occ", "start", "t")

    def __init__(self, state: FBState, unit: Unit, budget: int) -> None:
        assert unit.anchor is not None
        t = _tables(state.grid)
        self.t = t
        pw = t.pw
        size = unit.size
        large = size == 2
        self.large = large
        if large:
            t.ensure_large()
        self.start = t.index(unit.anchor)
        w, h = t.width, t.height
        me = unit.id
        # Nothing farther than the budget (plus the sizes of two 2x2 bases and an arc) can
        # touch this move: leave far units out, so a move costs the same in any army size.
        ux, uy = unit.anchor
        reach = budget + 4
        occupied = state.occupied
        if len(occupied) > (2 * reach + 1) ** 2:
            near = ((x, y) for y in range(uy - reach, uy + reach + 1)
                    for x in range(ux - reach, ux + reach + 1))
            occ = {(y + 1) * pw + x + 1 for (x, y) in near
                   if (x, y) in occupied and occupied[(x, y)] != me}
        else:
            occ = {(y + 1) * pw + x + 1 for (x, y), uid in occupied.items() if uid != me}
        self.occ = occ
        self._occ_at: dict[int, list[int]] | None = None
        lvl = t.lvl
        n = len(lvl)
        adj: set[int] = set()
        arc: set[int] = set()
        add_adj = adj.add
        doubling = not unit.is_cavalry  # FB-CAV-02: Cavalry never pay the doubled cost
        side = unit.side
        for other in state.units.values():
            anchor = other.anchor
            if other.side == side or anchor is None or other.status != ON_MAP:
                continue
            if abs(anchor[0] - ux) > reach or abs(anchor[1] - uy) > reach:
                continue
            a0 = (anchor[1] + 1) * pw + anchor[0] + 1
            level = lvl[a0]
            if doubling:
                # Anchors whose space touches (or overlaps) the enemy's, on its level.
                for o in _ring(pw, size, other.size):
                    a = a0 + o
                    if 0 <= a < n and lvl[a] == level:
                        add_adj(a)
            if other.cls == "pike" and other.facing is not None:
                for qx, qy in facing_arc(anchor, other.facing):
                    if not (0 <= qx < w and 0 <= qy < h):
                        continue
                    q = (qy + 1) * pw + qx + 1
                    for a in ((q, q - 1, q - pw, q - pw - 1) if large else (q,)):
                        if lvl[a] == level:
                            arc.add(a)
        self.adj = adj
        self.arc = arc
        self.dirs = _directions(pw, size, _corner_rule(state))

    @property
    def occ_at(self) -> dict[int, list[int]]:
        """For a 2x2 base: per anchor, the other units' squares its space would hold
        (ascending); empty for a 1x1 base. Built when first asked for (the compiled Vault
        search reads ``occ`` instead)."""
        found = self._occ_at
        if found is None:
            found = {}
            if self.large:
                pw = self.t.pw
                for q in sorted(self.occ):
                    for a in (q, q - 1, q - pw, q - pw - 1):
                        found.setdefault(a, []).append(q)
            self._occ_at = found
        return found

    def square(self, i: int) -> Square:
        sq = self.t.squares[i]
        assert sq is not None
        return sq

    def can_end(self, i: int, halted: bool) -> bool:
        """End legality of a position holding no vaulted square (a halt on slope is offered)."""
        t = self.t
        if self.large:
            return t.lend[i] or (halted and t.lslope[i])
        return t.end[i] or (halted and t.cls[i] == _SLOPE)

    def step(self, i: int, d: int, ca: int, cb: int) -> int:
        """Base cost (1 or 2, before doubling) of a step that meets no obstacle; 0 if illegal or
        if the new space holds a vaultable square or another unit (used by charges)."""
        t = self.t
        j = i + d
        cost = t.cost
        cls = t.cls
        if ca and cost[i + ca] <= 0 and cost[i + cb] <= 0:
            return 0
        if not self.large:
            c = cost[j]
            if c <= 0 or cls[i] ^ cls[j] == 1 or j in self.occ:
                return 0
            return c
        c = t.lcost[j]
        if c == 0 or t.ldeep[j] or j in self.occ_at:
            return 0
        if t.has_elev:
            pw = t.pw
            for o in (0, 1, pw, pw + 1):
                if cls[i + o] ^ cls[j + o] == 1:
                    return 0
        return c


# --------------------------------------------------------------------------- destinations


def destinations(
    state: FBState, unit: Unit, budget: int, *, vault: bool = False
) -> dict[Square, MovePlan]:
    """Every legal end anchor within ``budget`` with its cheapest legal path, staying put
    (cost 0) included when the current position is a legal end. See the module notes.

    With ``vault`` the move may pass one deep-water/pit or occupied square (FB-FEAT-10,
    FB-AMB-41); plans that do so name it in ``vaulted``.
    """
    if not unit.on_map or unit.anchor is None or budget < 0:
        return {}
    ctx = _Ctx(state, unit, budget)
    if vault:
        return _vault_destinations(ctx, budget)
    return _plain_destinations(ctx, budget)


class DestinationTable:
    """The legal end anchors of one move in row-major order ((y, x) ascending), with each
    end's plan built only when asked for (:meth:`plan`).

    This class wraps a dict as :func:`destinations` returns it (``from_plans``: Vault, or no
    numba); :func:`destination_table` and :func:`charge_table` give tables over the compiled
    searches' results, which build a plan only for the end that is read.
    """

    __slots__ = ("_ends", "_plans", "_stay")

    def __init__(
        self, plans: dict[Square, MovePlan] | None = None, start: Square | None = None
    ) -> None:
        self._plans: dict[Square, MovePlan] = {} if plans is None else plans
        self._ends: list[Any] = sorted(self._plans, key=_row_major)
        self._stay = start

    @classmethod
    def from_plans(
        cls, plans: dict[Square, MovePlan], start: Square | None = None
    ) -> DestinationTable:
        """A table over the plans :func:`destinations` returned for a unit at ``start``."""
        return cls(plans, start)

    def __len__(self) -> int:
        return len(self._ends)

    def square(self, k: int) -> Square:
        """The ``k``-th end anchor in row-major order."""
        sq: Square = self._ends[k]
        return sq

    def anchor_array(self) -> np.ndarray:
        """Every end anchor in row-major order as an N x 2 array of (x, y)."""
        return np.array(self._ends, dtype=np.int64).reshape(-1, 2)

    def squares(self) -> list[Square]:
        """Every end anchor in row-major order."""
        return [self.square(k) for k in range(len(self))]

    def position(self, sq: Square) -> int | None:
        """Where ``sq`` stands among the ends, or None if it is not a legal end."""
        return self._ends.index(sq) if sq in self._plans else None

    def plan(self, sq: Square, *, with_path: bool = True) -> MovePlan:
        """The cheapest legal way to end at ``sq`` (a legal end). With ``with_path=False`` a
        table may leave the plan's ``path`` empty (for a caller that reads only its end, cost
        and Vault, such as :func:`apply_move` when the log does not record fields)."""
        return self._plans[sq]

    def move_order(self, k: int) -> Order:
        """The order ``move x y`` to the ``k``-th end."""
        return Order("move", self.square(k))

    def stay_order(self) -> Order | None:
        """The order to stay at the mover's start, or None if that is no legal end (or the
        start is not known)."""
        k = None if self._stay is None else self.position(self._stay)
        return None if k is None else self.move_order(k)

    def locate(self, order: Order) -> int | None:
        """Where the end that ``order`` (``move x y``) names stands, or None."""
        args = order.args
        if order.kind != "move" or len(args) != 2:
            return None
        x, y = args
        if type(x) is not int or type(y) is not int:
            return None
        return self.position((x, y))

    def as_dict(self) -> dict[Square, MovePlan]:
        """Every end with its plan, in the order the search found them."""
        return dict(self._plans)


class _IndexedTable(DestinationTable):
    """A table whose ends are padded indexes of one map's tables (ascending = row-major)."""

    __slots__ = ("_start", "_t")

    def __init__(self, t: _Tables, start: int, ends: list[int]) -> None:
        # The base class's plans dict stays unset: every method that reads it is overridden.
        self._ends = ends
        self._t = t
        self._start = start

    def _end(self, k: int) -> int:
        """The padded index of the ``k``-th end (negative ``k`` counts from the last)."""
        end: int = self._ends[k]
        return end

    def square(self, k: int) -> Square:
        found: Square | None = self._t.squares[self._end(k)]
        assert found is not None
        return found

    def anchor_array(self) -> np.ndarray:
        anchors: np.ndarray = self._t.xy[self._end_indexes()]
        return anchors

    def _end_indexes(self) -> np.ndarray:
        return np.array(self._ends, dtype=np.int64)

    def position(self, sq: Square) -> int | None:
        t = self._t
        x, y = sq
        if not (0 <= x < t.width and 0 <= y < t.height):
            return None
        i = (y + 1) * t.pw + x + 1
        ends = self._ends
        k = bisect_left(ends, i)
        return k if k < len(ends) and ends[k] == i else None

    def plan(self, sq: Square, *, with_path: bool = True) -> MovePlan:
        return self._plan_at((sq[1] + 1) * self._t.pw + sq[0] + 1, with_path)

    def move_order(self, k: int) -> Order:
        return self._t.move_order(self._end(k))

    def stay_order(self) -> Order | None:
        start = self._t.squares[self._start]
        assert start is not None
        k = self.position(start)
        return None if k is None else self.move_order(k)

    def _plan_at(self, i: int, with_path: bool = True) -> MovePlan:
        raise NotImplementedError

    def _found_order(self) -> list[int]:
        """The ends in the order the search found them."""
        raise NotImplementedError

    def as_dict(self) -> dict[Square, MovePlan]:
        out: dict[Square, MovePlan] = {}
        for i in self._found_order():
            plan = self._plan_at(i)
            out[plan.dest] = plan
        return out


class _SearchTable(_IndexedTable):
    """The ends of the compiled search (:func:`destination_table`), read straight from its rows
    (no list of ends is built: a random commander reads one end); a path is read back along the
    search's links to previous anchors."""

    __slots__ = ("_budget", "_count", "_reached", "_rows")

    def __init__(self, t: _Tables, start: int, rows: np.ndarray, ends: int, reached: int,
                 budget: int) -> None:
        # The base classes' list of ends stays unset: every method that reads it is overridden.
        self._t = t
        self._start = start
        self._rows = rows
        self._count = ends
        self._reached = reached
        self._budget = budget  # the rows hold the squares within this of the start only

    def __len__(self) -> int:
        return self._count

    def _end(self, k: int) -> int:
        count = self._count
        if k < 0:
            k += count
        if not 0 <= k < count:
            raise IndexError(f"end {k} of {count}")
        end: int = self._rows.item(_kernels.R_ENDS, k)
        return end

    def position(self, sq: Square) -> int | None:
        t = self._t
        x, y = sq
        if not (0 <= x < t.width and 0 <= y < t.height):
            return None
        start = self._start
        if abs(x + 1 - start % t.pw) > self._budget or abs(y + 1 - start // t.pw) > self._budget:
            return None  # beyond the search's reach (no end lies there)
        k: int = self._rows.item(_kernels.R_RANK, (y + 1) * t.pw + x + 1)
        return k if k >= 0 else None

    def _plan_at(self, i: int, with_path: bool = True) -> MovePlan:
        squares = self._t.squares
        item = self._rows.item
        if not with_path:
            dest = squares[i]
            assert dest is not None
            return MovePlan(dest, item(_kernels.R_BEST, i), (), None)
        start = self._start
        path: list[Square] = []
        j = i
        while j != start:
            step = squares[j]
            assert step is not None
            path.append(step)
            j = item(_kernels.R_PREV, j)
        path.reverse()
        dest = squares[i]
        assert dest is not None
        return MovePlan(dest, item(_kernels.R_BEST, i), tuple(path), None)

    def _found_order(self) -> list[int]:
        rows = self._rows
        order = rows[_kernels.R_ORDER, :self._reached]
        found: list[int] = order[rows[_kernels.R_RANK][order] >= 0].tolist()
        return found

    def _end_indexes(self) -> np.ndarray:
        return self._rows[_kernels.R_ENDS, :self._count]


class _ChargeTable(_IndexedTable):
    """The ends of the compiled charge search (:func:`charge_table`): straight runs, each end
    known by its cost, direction and number of steps."""

    __slots__ = ("_dirs", "_runs")

    def __init__(self, t: _Tables, start: int, rows: list[list[int]],
                 dirs: tuple[tuple[int, int, int], ...]) -> None:
        self._runs = {row[0]: row for row in rows}
        super().__init__(t, start, sorted(self._runs))
        self._dirs = dirs

    def _plan_at(self, i: int, with_path: bool = True) -> MovePlan:
        # A straight run's path is cheap: always built.
        _, spent, k, steps = self._runs[i]
        d = self._dirs[k][0]
        squares = self._t.squares
        start = self._start
        path = tuple(squares[start + d * s] for s in range(1, steps + 1))
        dest = path[-1]
        assert dest is not None
        return MovePlan(dest, spent, path, None)  # type: ignore[arg-type]

    def _found_order(self) -> list[int]:
        return list(self._runs)


def _row_major(square: Square) -> tuple[int, int]:
    return square[1], square[0]


NEAR_FROM = 64
"""Battles of more units search around the mover only, finding its neighbours through
:meth:`FBState.unit_grid`; smaller ones set up the whole map from every unit (cheaper than
keeping the unit grid up to date at every step)."""
_INT64 = np.dtype(np.int64)  # a dtype object: np.empty reads it faster than the type


def _corner_rule(state: FBState) -> bool:
    """Whether two impassable squares block a diagonal step between them (FB-AMB-17)."""
    return state.options.corner_cutting == "blocked_by_terrain"


def destination_table(
    state: FBState, unit: Unit, budget: int, *, vault: bool = False
) -> DestinationTable:
    """The ends of :func:`destinations` as a :class:`DestinationTable` (same ends, costs and
    paths), computed by the compiled search when numba is available and Vault is not used."""
    anchor = unit.anchor
    if anchor is None or unit.status != ON_MAP or budget < 0:
        return DestinationTable()
    if vault:
        return _vault_search(_Ctx(state, unit, budget), budget)
    if not _kernels.AVAILABLE:
        return DestinationTable.from_plans(destinations(state, unit, budget), anchor)
    t = _tables(state.grid)
    maps, params = t.kernel_inputs(unit.size, _corner_rule(state))
    units, me = state.unit_table_row(unit)
    rows = np.empty(t.rows_shape, _INT64)
    if len(units) <= NEAR_FROM:
        # A small battle: set up the whole map from every unit (no unit grid to keep).
        ends, reached = _kernels.plain_search(maps, params, units, me, budget, rows)
        count(GEOMETRY, t.rows_shape[1] + len(units) + reached)
        return _SearchTable(t, t.index(anchor), rows, ends, reached, t.pw + t.height + 2)
    ends, reached, looked = _kernels.near_search(maps, params, units, state.unit_grid(), me,
                                                 budget, rows)
    count(GEOMETRY, looked + reached)  # squares set up, squares visited
    return _SearchTable(t, t.index(anchor), rows, ends, reached, budget)


def _vault_search(ctx: _Ctx, budget: int) -> DestinationTable:
    """The ends of :func:`destinations` with Vault: a search over (anchor, Vault state);
    compiled (:func:`_kernels.vault_search`) when numba is available."""
    if _kernels.AVAILABLE:
        return _compiled_vault_search(ctx, budget)
    return _vault_search_py(ctx, budget)


def _vault_map(t: _Tables, large: bool) -> np.ndarray:
    """The ``vmap`` rows of :func:`_kernels.vault_search` for this map and base size (built
    once per map)."""
    key = ("vault-map", large)
    found: np.ndarray | None = t.memo.get(key)
    if found is None:
        rows = t.arrays(large)
        if large:
            t.ensure_large()
        step = t.lcost if large else t.cost
        found = np.array([rows[_kernels.MAP_COST], rows[_kernels.MAP_CLS], step,
                          rows[_kernels.MAP_END], rows[_kernels.MAP_HALT]], np.int64)
        t.memo[key] = found
    return found


def _marks(n: int, where: set[int]) -> np.ndarray:
    """A 0/1 array of length ``n`` with 1 at the indexes in ``where``."""
    out = np.zeros(n, np.int8)
    if where:
        out[np.fromiter(where, np.int64, len(where))] = 1
    return out


def _compiled_vault_search(ctx: _Ctx, budget: int) -> _CompiledVaultTable:
    """:func:`_vault_search_py` by the compiled kernel: the same nodes in the same order, hence
    the same ends, costs and paths."""
    t = ctx.t
    n = len(t.cost)
    large = ctx.large
    order, best, prev, chosen, found = _kernels.vault_search(
        _vault_map(t, large), np.array(ctx.dirs, np.int64), _marks(n, ctx.occ),
        _marks(n, ctx.adj), _marks(n, ctx.arc), ctx.start, budget, t.pw, large,
        large and t.has_elev)
    count(GEOMETRY, len(order))  # search nodes visited
    return _CompiledVaultTable(ctx, best, prev, chosen, found)


def _vault_search_py(ctx: _Ctx, budget: int) -> _VaultTable:
    """:func:`_vault_search` in pure Python."""
    t = ctx.t
    cost = t.cost
    cls = t.cls
    lcost = t.lcost
    ldeep = t.ldeep
    occ = ctx.occ
    occ_at = ctx.occ_at
    adj = ctx.adj
    arc = ctx.arc
    dirs = ctx.dirs
    large = ctx.large
    check_levels = large and t.has_elev
    pw = t.pw
    # A search node is ``index * m + v``; v = 0: Vault still available, 1: Vault used,
    # 2 + q: passing the vaulted square q right now.
    m = len(cost) + 2
    start = ctx.start
    snode = start * m
    best: dict[int, int] = {snode: 0}
    prev: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(snode)
    order: list[int] = []
    for c in range(budget + 1):
        for node in buckets[c]:
            if best[node] != c:
                continue
            order.append(node)
            i, v = divmod(node, m)
            if i in arc and node != snode:
                continue  # a front-arc stop ends the movement (FB-PIKE-05)
            double = i in adj
            for d, ca, cb in dirs:
                if ca and cost[i + ca] <= 0 and cost[i + cb] <= 0:
                    continue  # squeezing between two impassable corners (FB-AMB-17)
                j = i + d
                if large:
                    step = lcost[j]
                    if step == 0:
                        continue
                    if check_levels and (
                        cls[i] ^ cls[j] == 1 or cls[i + 1] ^ cls[j + 1] == 1
                        or cls[i + pw] ^ cls[j + pw] == 1
                        or cls[i + pw + 1] ^ cls[j + pw + 1] == 1
                    ):
                        continue  # a square of the base would cross a cliff edge
                    deep = ldeep[j]
                    held = occ_at.get(j)
                    if deep or held:
                        obstacles = set(deep)
                        if held:
                            obstacles.update(held)
                        if len(obstacles) != 1:
                            continue
                        q = obstacles.pop()
                        if v == 0:
                            nv = 2 + q
                        elif v == 2 + q:
                            nv = v
                        else:
                            continue
                    else:
                        nv = 1 if v else 0
                else:
                    step = cost[j]
                    if step == 0 or cls[i] ^ cls[j] == 1:
                        continue
                    if step < 0 or j in occ:
                        if v != 0:
                            continue
                        nv = 2 + j
                        if step < 0:
                            step = 1
                    else:
                        nv = 1 if v else 0
                if double:
                    step += step
                nc = c + step
                if nc > budget:
                    continue
                nn = j * m + nv
                old = best.get(nn)
                if old is not None and old <= nc:
                    continue
                best[nn] = nc
                prev[nn] = node
                buckets[nc].append(nn)
    chosen: dict[int, int] = {}
    for node in order:
        i, v = divmod(node, m)
        if v >= 2 or (i == start and node != snode):
            continue  # passing a vaulted square, or back at the start (only "stay" counts)
        if not ctx.can_end(i, node != snode and i in arc):
            continue
        have = chosen.get(i)
        if have is None or (v == 0 and have % m != 0 and best[have] == best[node]):
            chosen[i] = node
    count(GEOMETRY, len(order))  # search nodes visited
    return _VaultTable(ctx, chosen, best, prev, m)


class _VaultTable(_IndexedTable):
    """The ends of the Vault search (:func:`_vault_search`): each end's path is read back
    along the search's links only when its plan is asked for."""

    __slots__ = ("_best", "_chosen", "_ctx", "_m", "_prev")

    def __init__(self, ctx: _Ctx, chosen: dict[int, int], best: dict[int, int],
                 prev: dict[int, int], m: int) -> None:
        super().__init__(ctx.t, ctx.start, sorted(chosen))
        self._ctx = ctx
        self._chosen = chosen  # end anchor -> its search node, in the order found
        self._best = best
        self._prev = prev
        self._m = m

    def _plan_at(self, i: int, with_path: bool = True) -> MovePlan:
        # The path is always built: it names the vaulted square.
        ctx = self._ctx
        m = self._m
        prev = self._prev
        node = self._chosen[i]
        snode = ctx.start * m
        steps: list[int] = []
        vaulted: Square | None = None
        n = node
        while n != snode:
            steps.append(n)
            n = prev[n]
        steps.reverse()
        path = []
        for n in steps:
            j, v = divmod(n, m)
            path.append(ctx.square(j))
            if v >= 2 and vaulted is None:
                vaulted = ctx.square(v - 2)
        return MovePlan(ctx.square(i), self._best[node], tuple(path), vaulted)

    def _found_order(self) -> list[int]:
        return list(self._chosen)


class _CompiledVaultTable(_IndexedTable):
    """The ends of the compiled Vault search (:func:`_kernels.vault_search`, nodes numbered as
    :data:`_kernels.VAULT_STATES` says); each end's path is read back along the search's links
    only when its plan is asked for."""

    __slots__ = ("_best", "_chosen", "_ctx", "_found", "_prev")

    def __init__(self, ctx: _Ctx, best: np.ndarray, prev: np.ndarray, chosen: np.ndarray,
                 found: np.ndarray) -> None:
        super().__init__(ctx.t, ctx.start, sorted(found.tolist()))
        self._ctx = ctx
        self._best = best
        self._prev = prev
        self._chosen = chosen
        self._found = found

    def _plan_at(self, i: int, with_path: bool = True) -> MovePlan:
        # The path is always built: it names the vaulted square.
        ctx = self._ctx
        prev = self._prev
        pw = self._t.pw
        node = int(self._chosen[i])
        snode = ctx.start * _kernels.VAULT_STATES
        steps: list[int] = []
        n = node
        while n != snode:
            steps.append(n)
            n = int(prev[n])
        steps.reverse()
        path = []
        vaulted: Square | None = None
        for n in steps:
            j, v = divmod(n, _kernels.VAULT_STATES)
            path.append(ctx.square(j))
            if v >= 2 and vaulted is None:
                vaulted = ctx.square(j + (0, 1, pw, pw + 1)[v - 2])
        return MovePlan(ctx.square(i), int(self._best[node]), tuple(path), vaulted)

    def _found_order(self) -> list[int]:
        found: list[int] = self._found.tolist()
        return found


def _vault_destinations(ctx: _Ctx, budget: int) -> dict[Square, MovePlan]:
    """:func:`destinations` with Vault: a search over (anchor, Vault state)."""
    return _vault_search(ctx, budget).as_dict()


def _plain_destinations(ctx: _Ctx, budget: int) -> dict[Square, MovePlan]:
    """:func:`destinations` without Vault: the hot path, one search node per anchor."""
    t = ctx.t
    cost = t.cost
    cls = t.cls
    large = ctx.large
    # Entry cost per anchor with other units' squares (and, for 2x2, deep water) closed off.
    if large:
        enter = t.lplain[:]
        for a in ctx.occ_at:
            enter[a] = 0
    else:
        enter = cost[:]
        for q in ctx.occ:
            enter[q] = 0
    adj = ctx.adj
    arc = ctx.arc
    dirs = ctx.dirs
    levels = t.has_elev
    pw = t.pw
    start = ctx.start
    unreached = budget + 1
    best = [unreached] * len(cost)
    prev = [-1] * len(cost)
    best[start] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    order: list[int] = []
    for c in range(budget + 1):
        for i in buckets[c]:
            if best[i] != c:
                continue
            order.append(i)
            if i in arc and i != start:
                continue  # a front-arc stop ends the movement (FB-PIKE-05)
            mult = 2 if i in adj else 1
            for d, ca, cb in dirs:
                if ca and cost[i + ca] <= 0 and cost[i + cb] <= 0:
                    continue  # squeezing between two impassable corners (FB-AMB-17)
                j = i + d
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
                buckets[nc].append(j)
    out: dict[Square, MovePlan] = {}
    squares = t.squares
    paths: dict[int, tuple[Square, ...]] = {start: ()}
    end = t.lend if large else t.end
    for i in order:
        dest = squares[i]
        assert dest is not None
        if i == start:
            path: tuple[Square, ...] = ()
        else:
            path = paths[prev[i]] + (dest,)
            paths[i] = path
        if end[i] or (i != start and i in arc and ctx.can_end(i, True)):
            out[dest] = MovePlan(dest, best[i], path, None)
    return out


def charge_destinations(state: FBState, unit: Unit, budget: int) -> dict[Square, MovePlan]:
    """End anchors of charge moves (FB-PIKE-08/09/10, FB-AMB-25): at least 2 steps in one of
    the 8 directions, every square of every space entered clear for charging (clear, concealing,
    elevated top), normal costs (doubling included) within ``budget``; a front-arc stop ends the
    run; no Vault. Staying put is not a charge."""
    return charge_table(state, unit, budget).as_dict()


def charge_table(state: FBState, unit: Unit, budget: int) -> DestinationTable:
    """The ends of :func:`charge_destinations` as a :class:`DestinationTable`."""
    if not unit.on_map or unit.anchor is None:
        return DestinationTable()
    if not _kernels.AVAILABLE:
        return DestinationTable(_charge_destinations_py(state, unit, budget), unit.anchor)
    t = _tables(state.grid)
    start, rows = _charge_rows(state, unit, budget, t)
    return _ChargeTable(t, start, rows.tolist(), _directions(t.pw, unit.size, False))


def has_charge_run(state: FBState, unit: Unit, budget: int) -> bool:
    """Whether :func:`charge_destinations` would find any charge move."""
    if unit.anchor is None or unit.status != ON_MAP:
        return False
    if _kernels.AVAILABLE:
        return len(_charge_rows(state, unit, budget, _tables(state.grid))[1]) > 0
    return bool(_charge_destinations_py(state, unit, budget))


def _charge_rows(state: FBState, unit: Unit, budget: int, t: _Tables) -> tuple[int, np.ndarray]:
    """The start index and the compiled charge search's rows. The last search is kept with
    everything it reads besides the map (the corner-cutting rule, the units' rows, the mover's
    row and the budget): a turn asks first whether a charge exists (:func:`has_charge_run`),
    then for the charges themselves. The units' rows are known by the table's version, unique
    across states."""
    corner = _corner_rule(state)
    units, me = state.unit_table_row(unit)
    key = (corner, state.table_version, me, budget)
    assert unit.anchor is not None
    start = t.index(unit.anchor)
    last = t.last_charge
    if last is not None and last[0] == key:
        return start, last[1]
    maps, params = t.kernel_inputs(unit.size, corner)
    rows = _kernels.charge_search(maps, params, units, me, budget)
    t.last_charge = (key, rows)
    return start, rows


def _charge_destinations_py(state: FBState, unit: Unit, budget: int) -> dict[Square, MovePlan]:
    """:func:`charge_destinations` in pure Python (the reference for the compiled search)."""
    ctx = _Ctx(state, unit, budget)
    t = ctx.t
    clear = t.lchg if ctx.large else t.chg
    out: dict[Square, MovePlan] = {}
    for d, ca, cb in ctx.dirs:
        i = ctx.start
        spent = 0
        path: list[Square] = []
        while True:
            step = ctx.step(i, d, ca, cb)
            j = i + d
            if step == 0 or not clear[j]:
                break
            if i in ctx.adj:
                step += step
            spent += step
            if spent > budget:
                break
            path.append(ctx.square(j))
            halted = j in ctx.arc
            if len(path) >= 2 and ctx.can_end(j, False):
                out[path[-1]] = MovePlan(path[-1], spent, tuple(path), None)
            if halted:
                break
            i = j
    return out


# --------------------------------------------------------------------------- applying a move


def _touches_slope(state: FBState, unit: Unit, anchor: Square) -> bool:
    t = _tables(state.grid)
    if not t.has_slope:
        return False
    cls = t.cls
    i = t.index(anchor)
    if unit.size == 1:
        return cls[i] == _SLOPE
    return any(cls[i + o] == _SLOPE for o in (0, 1, t.pw, t.pw + 1))


def apply_move(
    state: FBState, battle: Battle, unit: Unit, plan: MovePlan, *, given: bool = False
) -> None:
    """Move ``unit`` along ``plan`` and log a ``move`` event (``plan.path`` is read only for
    the event's fields, when ``battle.records_fields``; ``given``: the player gave the path,
    and the event says so with ``given_path``). A move that ends on slope (only
    after a front-arc stop) is followed by a forced move to the nearest legal space at the foot
    of the slope, logged as ``forced_move`` (FB-TERRAIN-11, FB-AMB-47). The facing of a Pike is
    never changed here (FB-PIKE-04)."""
    origin = unit.anchor
    state.place(unit, plan.dest)
    if battle.records_fields:
        extra = {"given_path": True} if given else {}
        battle.emit(
            "move",
            unit=unit.id,
            **{"from": list(origin) if origin is not None else None},
            to=list(plan.dest),
            path=[list(sq) for sq in plan.path],
            cost=plan.cost,
            vaulted=list(plan.vaulted) if plan.vaulted is not None else None,
            **extra,
        )
    else:
        battle.emit("move")  # counted only: the fields would be thrown away
    if _touches_slope(state, unit, plan.dest):
        target = nearest_legal_space(state, unit, plan.dest, battle=battle)
        if target is not None and target != plan.dest:
            state.place(unit, target)
            battle.emit(
                "forced_move", unit=unit.id, **{"from": list(plan.dest)}, to=list(target),
                reason="slope",
            )


def nearest_legal_space(
    state: FBState, unit: Unit, near: Square, *, battle: Battle | None = None
) -> Square | None:
    """Where a unit forced onto slope at ``near`` goes (FB-TERRAIN-11, FB-AMB-47).

    Candidates are legal spaces for the unit (on the map, every square ground level, not slope,
    a terrain one may end on, no other unit) adjacent to the slope the unit was forced onto (the
    8-connected slope squares touching its space at ``near``). The nearest by FB-AMB-01
    distance from the space at ``near`` wins. If there is none, the nearest legal ground-level
    space anywhere is used; None if the map has none at all. Ties: the owner chooses through a
    ``forced_space`` decision (orders ``place x y``) when ``battle`` is given; otherwise the
    first tied anchor in (y, x) order is taken.
    """
    grid = state.grid
    size = unit.size
    here = footprint(near, size)

    def legal(anchor: Square) -> bool:
        for sq in footprint(anchor, size):
            if not grid.contains(sq):
                return False
            name = grid.terrain(sq)
            kind = TERRAIN[name]
            if name == "slope" or kind.move_cost is None or not kind.can_end:
                return False
            if grid.level(sq) != 0:
                return False
            holder = state.occupied.get(sq)
            if holder is not None and holder != unit.id:
                return False
        return True

    slope = [sq for sq in here if grid.contains(sq) and grid.terrain(sq) == "slope"]
    seen = set(slope)
    todo = list(slope)
    while todo:
        x, y = todo.pop()
        for dx, dy in DIRECTIONS8:
            sq = (x + dx, y + dy)
            if sq not in seen and grid.contains(sq) and grid.terrain(sq) == "slope":
                seen.add(sq)
                todo.append(sq)
    found: set[Square] = set()
    for x, y in seen:
        for ay in range(y - size, y + 2):
            for ax in range(x - size, x + 2):
                if (ax, ay) not in found and legal((ax, ay)):
                    found.add((ax, ay))
    if not found:
        found = {sq for sq in grid.squares() if legal(sq)}
    if not found:
        return None
    ranked = sorted(found, key=lambda a: (space_distance(here, footprint(a, size)), a[1], a[0]))
    nearest = space_distance(here, footprint(ranked[0], size))
    tied = [a for a in ranked if space_distance(here, footprint(a, size)) == nearest]
    if battle is None or len(tied) == 1:
        return tied[0]
    options = tuple(Order("place", (x, y)) for x, y in tied)
    pick = battle.decide(Decision(
        unit.side, "forced_space", options, f"where does {unit.id} go off the slope?",
        subject=unit.id, default=options[0],
    ))
    return int(pick.args[0]), int(pick.args[1])
