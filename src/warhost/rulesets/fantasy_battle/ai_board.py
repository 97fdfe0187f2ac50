"""What the `fantasy-battle` AI remembers between decisions, kept in step with the battle.

The AI asks the same questions of a position many times (whom to activate, which member acts,
its plan): the attacks each unit could make now and how near its nearest enemy stands. A
:class:`Board` keeps those answers per unit and, when the units change, forgets only the
answers the change can touch. It learns what changed by comparing the state's unit table
(:meth:`FBState.unit_table`: anchor, status, size, type and facing of every unit) with its own
copy; a change of anything else the answers read (wounds, Fate Points and Feats spent, the map)
makes a new board.

Work counted (:mod:`warhost.core.metering`): :data:`GEOMETRY` (and, for the AI alone,
:data:`AI_GEOMETRY`) for the distances and attack scans the AI makes for single units and
destinations; :data:`AI_TABLE` for the rows of the
unit table the AI reads whole (comparing it with its copy, finding whom a change touches,
filtering enemies by distance). Both are the AI's own work only, not the rules'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warhost.core.metering import GEOMETRY, count
from warhost.geometry.grid import Square
from warhost.rulesets.fantasy_battle import _ai_kernels, _kernels
from warhost.rulesets.fantasy_battle.state import MOVE, RANK_DICE, FBState, Unit

AI_GEOMETRY = "ai-geometry"
"""The AI's own share of :data:`GEOMETRY` (counted in both)."""
AI_TABLE = "ai-table-rows"
"""Rows of the unit table read whole by the AI (vectorised passes over the army)."""


def count_geometry(amount: int = 1) -> None:
    """Count ``amount`` geometry queries made by the AI (as :data:`GEOMETRY` and
    :data:`AI_GEOMETRY`)."""
    count(GEOMETRY, amount)
    count(AI_GEOMETRY, amount)

_ACTIVE = _kernels.U_ACTIVE
_X = _kernels.U_X
_Y = _kernels.U_Y
_SIZE = _kernels.U_SIZE
_SIDE = _kernels.U_SIDE
_FDX = _kernels.U_FDX
_FDY = _kernels.U_FDY
_DOUBLING = _kernels.U_DOUBLING
_BOX_COLUMNS = [_X, _Y, _X, _Y, _SIZE]

# How far beyond a unit's reach a change can still alter its attacks and their odds: the
# target's neighbours (flanking, friends of an archer next to its target: one step past the
# target, plus one for a 2x2 target) and the units on a line of fire (within the reach), and
# one to spare.
_SLACK = 3
_EVERYWHERE = 1 << 40
SMALL = 64
"""Battles of at most this many units use the plain ways (see :attr:`Board.small`)."""
# How far around the box of an attacker and its target a change can alter the odds: the
# target's neighbours (flanking), with one to spare.
_PAIR_SLACK = 3
# And how far (between centres, Euclidean) from the segment joining the centres of attacker
# and target: half the diagonal of a 2x2 space on either side (the lines of fire run within
# the hull of the two spaces), a square for touching, and the slack above.
_SEGMENT_REACH = 2 * 2 ** 0.5 + 1 + _PAIR_SLACK

AttackList = list[tuple[str, str, float]]


def box_gaps(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray,
             box: tuple[int, int, int, int]) -> np.ndarray:
    """Chebyshev gaps between boxes (x0, y0)-(x1, y1) and ``box``, as space_distance."""
    bx0, by0, bx1, by1 = box
    dx = np.maximum(bx0 - x1, x0 - bx1)
    dy = np.maximum(by0 - y1, y0 - by1)
    result: np.ndarray = np.maximum(np.maximum(dx, dy), 0)
    return result


def _special_key(units: list[Unit]) -> tuple[Any, ...]:
    return tuple((u.wounded, u.fate_spent, u.feats_used_since_entry, u.dismounted, u.rank)
                 for u in units)


class Board:
    """The AI's answers about one battle state, per unit, forgotten when a change touches them."""

    def __init__(self, state: FBState) -> None:
        self.state = state
        units = list(state.units.values())
        self.units = units
        self.uids = [u.id for u in units]
        self.row_of = {uid: row for row, uid in enumerate(self.uids)}  # the unit table's rows
        self.count = len(units)
        # A small battle: forget everything at each change, and measure distances to every
        # unit directly (cheaper than keeping track of what a change touches).
        self.small = len(units) <= SMALL
        table = state.unit_table()
        self.table = table.copy()
        self.version = state.table_version
        self.grid_version = state.grid._version
        # Wounds, Fate Points and Feats change only for Champions and units with Fate or Feats.
        self.special = [u for u in units if u.rank == "champion" or u.fate or u.feats]
        self.special_key = _special_key(self.special)
        opts = state.options
        # Archers stay archers when they dismount or come back (Mounted Archer <-> Archer).
        self.archer = np.array([u.is_archer for u in units], dtype=bool)
        self.side_of = {side: i for i, side in enumerate(state.sides)}
        self.reach = np.where(self.archer, max(opts.max_range, 1), 1) + _SLACK
        # Abilities reaching allies: their holder's changes reach as far as the abilities.
        extra = np.zeros(len(units), dtype=np.int64)
        for row, unit in enumerate(units):
            ranges = [a.range for a in unit.abilities if a.affects != "self"]
            if ranges:
                extra[row] = _EVERYWHERE if None in ranges else max(r for r in ranges if r)
        self.extra = extra
        self.weight = np.array([0.15 * RANK_DICE[u.rank] for u in units])
        self.attacks: dict[str, AttackList] = {}
        self.nearest = np.full(len(units), -1, dtype=np.int64)
        self.prefix: dict[int, np.ndarray] = {}  # per side index: see :meth:`occupancy`
        self.rows: dict[int, np.ndarray] = {}  # per side index: see :meth:`side_rows`
        self.held: dict[int, np.ndarray] = {}  # per side index: squares held (height x width)
        # Boxes of kept rows arrays (by the array's id; the array itself is kept with them).
        self.row_boxes: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.compiled = True  # use the compiled search when there is one (tests turn it off)
        # The AI's urgency of each unit (from its attacks and nearest enemy) and the best of
        # each activation group's members (groups as the activate decision names them).
        self.urgency: dict[str, float] = {}
        self.group_score: dict[str, float] = {}
        # Per row: whether the dicts above hold something of it (to forget only those).
        self.kept_attacks = np.zeros(len(units), dtype=bool)
        self.kept_urgency = np.zeros(len(units), dtype=bool)
        self.kept_group = np.zeros(len(units), dtype=bool)
        self.group_of = [u.id if u.squad is None or u.squad not in state.squads else u.squad
                         for u in units]
        # Odds of one attack, kept while nothing changes near the two units (see chance_of).
        self.chances: dict[tuple[str, Square, str, Square, str], tuple[int, float]] = {}
        self.pair_keys: list[tuple[str, Square, str, Square, str]] = []
        # Per pair: the box around both spaces, then twice the centres of attacker and target.
        self.pair_boxes: list[tuple[int, ...]] = []
        self.pair_array = np.zeros((0, 8), dtype=np.int64)
        self.pair_alive = np.zeros(0, dtype=bool)

    def fresh(self, state: FBState) -> bool:
        """Whether this board still describes ``state`` (else make a new one). Wounds, Fate
        Points and Feats spent change only what units are worth (:func:`ai.unit_value`), not
        attacks, odds or distances: then only the urgencies are forgotten."""
        if not (state is self.state and len(state.units) == self.count
                and state.grid._version == self.grid_version):
            return False
        key = _special_key(self.special)
        if key != self.special_key:
            self.special_key = key
            self.urgency.clear()
            self.group_score.clear()
            self.kept_urgency[:] = False
            self.kept_group[:] = False
        return True

    def update(self) -> None:
        """Forget the answers that the changes since the last call can touch."""
        state = self.state
        table = state.unit_table()
        if state.table_version == self.version:
            return
        self.version = state.table_version
        old = self.table
        count(AI_TABLE, len(table))
        compiled = _ai_kernels.forget_rows is not None and self.compiled and not self.small
        if compiled:
            changed = _ai_kernels.changed_rows(table, old)
        else:
            changed = np.flatnonzero((table != old).any(axis=1))
        if not len(changed):
            return
        if self.small:
            self._forget_all()
            self.table = table.copy()
            return
        boxes: list[tuple[int, int, int, int]] = []
        sides: list[int] = []
        extras: list[int] = []
        enemy_drop: list[bool] = []  # for the nearest: True for an old space (gap <= nearest)
        for row in changed.tolist():
            for was, source in ((True, old), (False, table)):
                if source[row, _ACTIVE]:
                    x, y, s = int(source[row, _X]), int(source[row, _Y]), int(source[row, _SIZE])
                    boxes.append((x, y, x + s - 1, y + s - 1))
                    sides.append(int(source[row, _SIDE]))
                    extras.append(int(self.extra[row]))
                    enemy_drop.append(was)
        count(AI_TABLE, len(table) * len(boxes))
        self._forget_places(boxes, sides, extras, enemy_drop)
        uids = self.uids
        if compiled:
            marks = np.array([(*box, box_side, extra, was) for box, box_side, extra, was
                              in zip(boxes, sides, extras, enemy_drop)], dtype=np.int64)
            hits = _ai_kernels.forget_rows(
                table, old, changed, self.reach, self.nearest, marks.reshape(-1, 7),
                self.kept_attacks, self.kept_urgency, self.kept_group)
            attacks = self.attacks
            for row in hits[0].tolist():
                attacks.pop(uids[row], None)
            urgency = self.urgency
            for row in hits[1].tolist():
                urgency.pop(uids[row], None)
            group_score = self.group_score
            group_of = self.group_of
            for row in hits[2].tolist():
                group_score.pop(group_of[row], None)
            return
        stale = np.zeros(len(table), dtype=bool)
        stale[changed] = True
        near_stale = stale.copy()
        nearest = self.nearest
        # The NumPy way (without numba): the same marks.
        x0 = table[:, _X]
        y0 = table[:, _Y]
        x1 = x0 + table[:, _SIZE] - 1
        y1 = y0 + table[:, _SIZE] - 1
        side = table[:, _SIDE]
        known = nearest >= 0
        for box, box_side, extra, was in zip(boxes, sides, extras, enemy_drop):
            gaps = box_gaps(x0, y0, x1, y1, box)
            stale |= gaps <= self.reach + extra
            other = side != box_side
            if was:
                near_stale |= known & other & (gaps <= nearest)
            else:
                near_stale |= known & other & (gaps < nearest)
        attacks = self.attacks
        hit = stale & self.kept_attacks
        for row in np.flatnonzero(hit).tolist():
            attacks.pop(uids[row], None)
        self.kept_attacks &= ~hit
        nearest[near_stale] = -1
        stale |= near_stale
        urgency = self.urgency
        hit = stale & self.kept_urgency
        for row in np.flatnonzero(hit).tolist():
            urgency.pop(uids[row], None)
        self.kept_urgency &= ~hit
        group_score = self.group_score
        group_of = self.group_of
        hit = stale & self.kept_group
        for row in np.flatnonzero(hit).tolist():
            group_score.pop(group_of[row], None)
        self.kept_group &= ~hit
        self.table = table.copy()

    def _forget_places(self, boxes: list[tuple[int, int, int, int]], sides: list[int],
                       extras: list[int], left: list[bool]) -> None:
        """Bring the squares held up to date for the spaces ``boxes`` left (``left``) or taken
        by units of ``sides``, and forget what reads them (occupancy, rows, odds)."""
        for (bx0, by0, bx1, by1), box_side, was in zip(boxes, sides, left):
            held = self.held.get(box_side)
            if held is not None:
                held[by0:by1 + 1, bx0:bx1 + 1] += -1 if was else 1
        for box_side in set(sides):
            self.prefix.pop(box_side, None)
            rows = self.rows.pop(box_side, None)
            if rows is not None:
                self.row_boxes.pop(id(rows), None)
        if self.chances:
            self._forget_chances(boxes, extras)

    def _forget_all(self) -> None:
        """Forget every answer kept."""
        self.attacks.clear()
        self.nearest[:] = -1
        self.urgency.clear()
        self.group_score.clear()
        self.prefix.clear()
        self.rows.clear()
        self.row_boxes.clear()
        self.held.clear()
        if self.small:  # no odds kept (see chance_of), no kept_* marks (see update)
            return
        self.chances.clear()
        self.pair_keys = []
        self.pair_boxes = []
        self.pair_array = np.zeros((0, 8), dtype=np.int64)
        self.pair_alive = np.zeros(0, dtype=bool)
        self.kept_attacks[:] = False
        self.kept_urgency[:] = False
        self.kept_group[:] = False

    def keep_attacks(self, unit: Unit, found: AttackList) -> None:
        """Remember the attacks ``unit`` could make now."""
        self.attacks[unit.id] = found
        if not self.small:  # (a small board forgets everything at each change)
            self.kept_attacks[self.state.table_row(unit)] = True

    def keep_urgency(self, unit: Unit, value: float) -> None:
        """Remember the AI's urgency of ``unit``."""
        self.urgency[unit.id] = value
        if not self.small:
            self.kept_urgency[self.state.table_row(unit)] = True

    def keep_group_score(self, gid: str, members: list[str], value: float) -> None:
        """Remember the best urgency of the group ``gid`` (all its members' ids)."""
        self.group_score[gid] = value
        if self.small:
            return
        rows = self.row_of
        for uid in members:
            self.kept_group[rows[uid]] = True

    def _forget_chances(self, boxes: list[tuple[int, int, int, int]], extras: list[int]) -> None:
        """Drop the odds of the attacks whose surroundings the changed ``boxes`` touch."""
        if len(self.pair_array) < len(self.pair_boxes):
            fresh = np.array(self.pair_boxes[len(self.pair_array):], dtype=np.int64)
            self.pair_array = np.concatenate([self.pair_array, fresh])
            self.pair_alive = np.concatenate([self.pair_alive,
                                              np.ones(len(fresh), dtype=bool)])
        pairs = self.pair_array
        count(AI_TABLE, len(pairs) * len(boxes))
        hit = np.zeros(len(pairs), dtype=bool)
        # The centres of attacker and target: the segment between them.
        ax = pairs[:, 4] / 2
        ay = pairs[:, 5] / 2
        dx = pairs[:, 6] / 2 - ax
        dy = pairs[:, 7] / 2 - ay
        length = np.maximum(dx * dx + dy * dy, 1e-9)
        for (bx0, by0, bx1, by1), extra in zip(boxes, extras):
            reach = _PAIR_SLACK + min(extra, 1 << 20)
            near = ((pairs[:, 0] - reach <= bx1) & (bx0 <= pairs[:, 2] + reach)
                    & (pairs[:, 1] - reach <= by1) & (by0 <= pairs[:, 3] + reach))
            if not extra:
                # Also near the segment: lines of fire run within the hull of the two spaces.
                px = (bx0 + bx1 + 1) / 2 - ax
                py = (by0 + by1 + 1) / 2 - ay
                along = np.clip((px * dx + py * dy) / length, 0.0, 1.0)
                ex = px - along * dx
                ey = py - along * dy
                near &= ex * ex + ey * ey <= _SEGMENT_REACH ** 2
            hit |= near
        hit &= self.pair_alive
        keys = self.pair_keys
        chances = self.chances
        for index in np.flatnonzero(hit).tolist():
            chances.pop(keys[index], None)
        self.pair_alive[hit] = False
        if len(keys) > 1000 and len(keys) > 4 * len(chances):
            # Start the lists again with the odds still kept.
            kept = list(chances.items())
            self.pair_keys = [k for k, _ in kept]
            self.pair_boxes = [self.pair_boxes[i] for _, (i, _) in kept]
            self.chances = {k: (n, c) for n, (k, (_, c)) in enumerate(kept)}
            self.pair_array = np.zeros((0, 8), dtype=np.int64)
            self.pair_alive = np.zeros(0, dtype=bool)

    def chance_of(self, attacker: Unit, target: Unit, kind: str,
                  work: Callable[[], float]) -> float:
        """The odds ``work()`` gives of ``attacker`` attacking ``target`` (``kind``) from where
        both stand, kept until a unit changes near the two (the odds read the two units, the
        units next to the target and those on the lines between them, and the friends whose
        abilities reach either). Also for an attacker put somewhere for a look (it is then
        not where it was: the odds from there do not depend on that square)."""
        if self.small:  # forgotten at the next change anyway
            return work()
        a = attacker.anchor
        t = target.anchor
        assert a is not None and t is not None
        key = (attacker.id, a, target.id, t, kind)
        kept = self.chances.get(key)
        if kept is not None:
            return kept[1]
        chance = work()
        sa = attacker.size
        st = target.size
        box = (min(a[0], t[0]), min(a[1], t[1]), max(a[0] + sa, t[0] + st) - 1,
               max(a[1] + sa, t[1] + st) - 1,
               2 * a[0] + sa, 2 * a[1] + sa, 2 * t[0] + st, 2 * t[1] + st)
        self.chances[key] = (len(self.pair_keys), chance)
        self.pair_keys.append(key)
        self.pair_boxes.append(box)
        return chance

    # --- answers ---------------------------------------------------------------------------
    def side_rows(self, side: int) -> np.ndarray:
        """Rows of the units of side number ``side`` on the map, in army order (kept until
        they change)."""
        found = self.rows.get(side)
        if found is None:
            table = self.state.unit_table()
            count(AI_TABLE, len(table))
            found = np.flatnonzero((table[:, _ACTIVE] != 0) & (table[:, _SIDE] == side))
            self.rows[side] = found
        return found

    def enemy_rows(self, side: str) -> np.ndarray:
        """Rows of the enemies of ``side`` on the map, in army order."""
        others = [i for name, i in self.side_of.items() if name != side]
        if len(others) == 1:
            return self.side_rows(others[0])
        table = self.state.unit_table()
        count(AI_TABLE, len(table))
        mask = (table[:, _ACTIVE] != 0) & (table[:, _SIDE] != self.side_of[side])
        result: np.ndarray = np.flatnonzero(mask)
        return result

    def friend_rows(self, side: str) -> np.ndarray:
        """Rows of the units of ``side`` on the map, in army order."""
        return self.side_rows(self.side_of[side])

    def boxes(self, rows: np.ndarray) -> np.ndarray:
        """Bounding boxes (x0, y0, x1, y1) of the units in ``rows``."""
        result: np.ndarray = self.state.unit_table()[rows][:, _BOX_COLUMNS]
        result[:, 2:] += result[:, 4:5] - 1
        return result[:, :4]

    def enemy_boxes(self, side: str) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`enemy_rows` of ``side`` and their :meth:`boxes` (kept until they change)."""
        rows = self.enemy_rows(side)
        key = id(rows)
        found = self.row_boxes.get(key)
        if found is None or found[0] is not rows:
            found = self.row_boxes[key] = (rows, self.boxes(rows))
        return found

    def occupancy(self, side: int) -> np.ndarray:
        """Prefix sums (height+1 x width+1) of the squares held by side ``side``'s units on
        the map: entry [y, x] counts those in columns < x of rows < y (kept until they move)."""
        found = self.prefix.get(side)
        if found is None:
            grid = self.state.grid
            held = self.held.get(side)
            if held is None:
                table = self.state.unit_table()
                count(AI_TABLE, len(table))
                rows = table[(table[:, _ACTIVE] != 0) & (table[:, _SIDE] == side)]
                held = np.zeros((grid.height, grid.width), dtype=np.int64)
                for size in np.unique(rows[:, _SIZE]).tolist():
                    these = rows[rows[:, _SIZE] == size]
                    for dy in range(size):
                        for dx in range(size):
                            np.add.at(held, (these[:, _Y] + dy, these[:, _X] + dx), 1)
                self.held[side] = held
            count(AI_TABLE, grid.width * grid.height)
            found = np.zeros((grid.height + 1, grid.width + 1), dtype=np.int64)
            found[1:, 1:] = held.cumsum(axis=0).cumsum(axis=1)
            self.prefix[side] = found
        return found

    def nearest_gaps(self, boxes: np.ndarray, side: int, low: np.ndarray | int,
                     high: np.ndarray | int, without: tuple[int, int, int, int] | None = None
                     ) -> np.ndarray:
        """For each box of ``boxes`` (N x 4), the Chebyshev gap to the nearest square held by
        side ``side`` (leaving out the box ``without``), knowing it lies in [``low``, ``high``]:
        the least ``r`` such that the box grown by ``r`` holds such a square (binary search on
        the side's :meth:`occupancy`)."""
        prefix = self.occupancy(side)
        lo = np.broadcast_to(np.asarray(low, dtype=np.int64), (len(boxes),)).copy()
        hi = np.broadcast_to(np.asarray(high, dtype=np.int64), (len(boxes),)).copy()
        if _ai_kernels.nearest_search is not None and self.compiled:
            skip = np.array(without if without is not None else (0, 0, -1, -1), dtype=np.int64)
            found: np.ndarray = _ai_kernels.nearest_search(prefix, boxes, lo, hi, skip)
            count_geometry(len(boxes) * (int((hi - lo).max(initial=0)).bit_length() + 1))
            return found
        return self._nearest_numpy(prefix, boxes, lo, hi, without)

    def _nearest_numpy(self, prefix: np.ndarray, boxes: np.ndarray, lo: np.ndarray,
                       hi: np.ndarray, without: tuple[int, int, int, int] | None) -> np.ndarray:
        """:meth:`nearest_gaps` in NumPy (all boxes step by step together)."""
        height = prefix.shape[0] - 1
        width = prefix.shape[1] - 1
        bx0, by0, bx1, by1 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
        steps = 0
        while True:
            open_ = lo < hi
            if not open_.any():
                break
            steps += 1
            mid = (lo + hi) // 2
            xa = np.maximum(bx0 - mid, 0)
            xb = np.minimum(bx1 + mid + 1, width)
            ya = np.maximum(by0 - mid, 0)
            yb = np.minimum(by1 + mid + 1, height)
            held = prefix[yb, xb] - prefix[ya, xb] - prefix[yb, xa] + prefix[ya, xa]
            if without is not None:
                ox = np.minimum(xb, without[2] + 1) - np.maximum(xa, without[0])
                oy = np.minimum(yb, without[3] + 1) - np.maximum(ya, without[1])
                held = held - np.maximum(ox, 0) * np.maximum(oy, 0)
            found = held > 0
            hi = np.where(open_ & found, mid, hi)
            lo = np.where(open_ & ~found, mid + 1, lo)
        count_geometry(len(boxes) * (steps + 1))
        result: np.ndarray = lo
        return result

    def nearest_of(self, units: list[Unit]) -> list[int | None]:
        """Distance from each unit (on the map) to its nearest enemy; None without enemies."""
        state = self.state
        nearest = self.nearest
        rows = [state.table_row(unit) for unit in units]
        out = [int(nearest[row]) for row in rows]
        missing: dict[str, list[int]] = {}
        for unit, row, kept in zip(units, rows, out):
            if kept < 0:
                missing.setdefault(unit.side, []).append(row)
        grid = state.grid
        if self.small and missing:  # a few units: measure to each enemy directly
            units = self.units
            for side, these in missing.items():
                foes = state.enemies(side)
                count(AI_TABLE, len(these) * len(foes))
                if foes:
                    for row in these:
                        unit = units[row]
                        nearest[row] = min([state.distance(unit, e) for e in foes])
            missing = {}
        for side, these in missing.items():
            enemy_sides = [i for name, i in self.side_of.items() if name != side]
            if self.small or len(enemy_sides) != 1:  # read every enemy
                enemies = self.enemy_rows(side)
                if not len(enemies):
                    continue
                eb = self.boxes(enemies)
                ub = self.boxes(np.array(these))
                count(AI_TABLE, len(these) * len(enemies))
                dx = np.maximum(eb[None, :, 0] - ub[:, None, 2], ub[:, None, 0] - eb[None, :, 2])
                dy = np.maximum(eb[None, :, 1] - ub[:, None, 3], ub[:, None, 1] - eb[None, :, 3])
                nearest[these] = np.maximum(np.maximum(dx, dy), 0).min(axis=1)
                continue
            prefix = self.occupancy(enemy_sides[0])
            if not prefix[-1, -1]:
                continue
            nearest[these] = self.nearest_gaps(self.boxes(np.array(these)), enemy_sides[0], 0,
                                               max(grid.width, grid.height))
        result: list[int | None] = []
        for unit, row, kept in zip(units, rows, out):
            value = int(nearest[row]) if kept < 0 else kept
            result.append(value if value >= 0 else None)
        return result

    def threat_reach(self, rows: np.ndarray) -> np.ndarray:
        """How far each unit of ``rows`` threatens: its move and one more (none for Archers)."""
        table = self.state.unit_table()
        move = np.where(table[rows, _DOUBLING] != 0, MOVE["infantry"], MOVE["cavalry"])
        result: np.ndarray = np.where(self.archer[rows], 0, move + 1)
        return result

    def facings(self, rows: np.ndarray) -> np.ndarray:
        """(x, y, dx, dy) of the units in ``rows`` that have a front arc."""
        table = self.state.unit_table()
        sub = table[rows]
        keep = (sub[:, _FDX] != 0) | (sub[:, _FDY] != 0)
        result: np.ndarray = sub[keep][:, [_X, _Y, _FDX, _FDY]]
        return result


def sparse_pairwise_sum(values: np.ndarray, positions: list[int], length: int) -> np.ndarray:
    """Per row, the sum that NumPy's ``sum(axis=1)`` gives for rows ``length`` long that hold
    ``values`` (rows x columns) at column ``positions`` (ascending) and zeros elsewhere.

    NumPy adds a row pairwise (blocks of at most 128 in eight lanes, larger ones split in
    halves), so the rounding depends on where each term stands; adding zero changes nothing, so
    only the columns with values are visited, in the same order.
    """
    rows = values.shape[0]
    result = _pairwise(values, positions, 0, length, 0, len(positions))
    return np.zeros(rows) if result is None else result


def _add(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return b
    if b is None:
        return a
    result: np.ndarray = a + b
    return result


def _pairwise(values: np.ndarray, positions: list[int], start: int, n: int,
              lo: int, hi: int) -> np.ndarray | None:
    """The pairwise sum of columns ``positions[lo:hi]`` (all in ``[start, start + n)``)."""
    if lo >= hi:
        return None
    if n < 8:
        res: np.ndarray | None = None
        for k in range(lo, hi):
            res = _add(res, values[:, k])
        return res
    if n <= 128:
        lanes: list[np.ndarray | None] = [None] * 8
        main = start + n - n % 8
        k = lo
        while k < hi and positions[k] < main:
            lane = (positions[k] - start) % 8
            lanes[lane] = _add(lanes[lane], values[:, k])
            k += 1
        res = _add(_add(_add(lanes[0], lanes[1]), _add(lanes[2], lanes[3])),
                   _add(_add(lanes[4], lanes[5]), _add(lanes[6], lanes[7])))
        while k < hi:
            res = _add(res, values[:, k])
            k += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    split = lo
    while split < hi and positions[split] < start + n2:
        split += 1
    return _add(_pairwise(values, positions, start, n2, lo, split),
                _pairwise(values, positions, start + n2, n - n2, split, hi))
