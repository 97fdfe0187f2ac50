"""Combat of `fantasy-battle`: legal targets, modifiers and the resolution of one attack.

The whole of one attack follows FB-AMB-43: declare (the caller checks legality with
:func:`attack_options`), fix the modifiers (:func:`modifiers`, after asking each side whether it
declines its special abilities, FB-AMB-48), roll (FB-COMBAT-01), the Fate Point window
(FB-FATE-*), compare (FB-COMBAT-03), the Protect window (FB-FEAT-08), the result
(FB-COMBAT-04..06, FB-CAV-04..07) with scoring (FB-WIN-*), then the Frenzy window (FB-FEAT-06).

Rulings this module makes where the catalog leaves a choice (see ``docs/rulings``):

* ``elevation_blocks_los``: a line of fire (or of a Throw) is blocked when it touches a square
  whose level is above the levels of both the shooter and the target (a hill between two units
  on lower ground); slope counts as ground level (FB-AMB-46).
* ``los_target_square_counts``: the target gets the -1 cover of FB-ARCHER-04 when any square of
  its own space is terrain that hinders line of fire (a corner-to-corner line never touches the
  target's squares otherwise).
* Throw (FB-AMB-35) uses the FB-AMB-28 candidate lines: it is allowed when at least one candidate
  line touches neither blocking terrain nor any unit other than the two in the fight.
* Range beyond 36 (only reachable with a larger ``max_range``) continues the table: -6 for 37-42
  and so on. Distance 1 (across levels) has modifier 0 (FB-AMB-30).
* Special abilities: a unit's own abilities with ``affects`` self/self_and_allies apply to it
  without keyword filters; abilities of friendly units on the map with ``affects``
  allies/self_and_allies apply when the distance is within ``range`` and the keyword filters
  match. Positive values are capped (largest only, FB-ABIL-04), negative values always add.
  The decline decision (FB-AMB-48) is asked once per side per attack, covers all generic
  abilities that would change that side's roll, and is asked only when one would; Flanking and
  Charging are class rules and are never declined.
* A dismounted unit whose four squares are all illegal, and that finds no legal space anywhere,
  is defeated (it cannot stay on the battlefield).
* The default facing of a dismounted Lancer (now a Pike) is the allowed facing pointing most
  directly at the attacker.
"""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal

import numpy as np

from warhost.core.engine import Battle
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.grid import (
    Square,
    centre2,
    fire_lines,
    footprint,
    space_distance,
    strictly_between,
    touched_offsets,
)
from warhost.rulesets.fantasy_battle import _scan_kernels, feats, movement, scoring
from warhost.rulesets.fantasy_battle.state import (
    DISMOUNTED_CLASS,
    FACINGS,
    ON_MAP,
    RANK_DICE,
    AbilityState,
    FBState,
    Unit,
    _box_gap,
)

AttackKind = Literal["melee", "ranged", "throw"]

__all__ = [
    "AttackKind",
    "AttackOption",
    "abilities_affecting",
    "attack_options",
    "flanking",
    "has_attack_option",
    "line_blockers",
    "line_of_fire",
    "modifiers",
    "range_modifier",
    "resolve_attack",
    "throw_clear",
]

MELEE_CLASSES = frozenset(("warrior", "pike", "knight", "lancer"))  # FB-INF-01, FB-AMB-26
THROW_RANGE = (2, 4)  # FB-FEAT-09, FB-AMB-35

_FATE_PASS = Order("fate-pass")
_USE_ABILITIES = Order("use-abilities")
_DECLINE_ABILITIES = Order("decline-abilities")
_ABILITY_OPTIONS = (_USE_ABILITIES, _DECLINE_ABILITIES)
_NO_PROTECT = Order("no-protect")
_NO_FRENZY = Order("no-frenzy")


@dataclass(frozen=True, slots=True)
class AttackOption:
    """One legal attack: its kind and the id of the target."""

    kind: AttackKind
    target: str


_OPTIONS: dict[tuple[AttackKind, str], AttackOption] = {}
_NO_IDS: frozenset[str] = frozenset()


def _option(kind: AttackKind, target: str) -> AttackOption:
    """``AttackOption(kind, target)``, built once (options are immutable values; the same few
    are found over and over)."""
    found = _OPTIONS.get((kind, target))
    if found is None:
        if len(_OPTIONS) >= 100_000:
            _OPTIONS.clear()
        found = _OPTIONS[(kind, target)] = AttackOption(kind, target)
    return found


# --------------------------------------------------------------------------- lines of fire


class _Layout:
    """The candidate lines of fire (FB-AMB-28) between two spaces in one relative layout (the
    target's anchor offset from the shooter's, and the two sizes), for every shooter position
    on one map at once.

    Masks are Python ints over the padded square indices of :class:`movement._Tables`: bit ``i``
    describes the line as drawn from a shooter anchored at padded index ``i``. The two spaces'
    own squares are ignored; squares off the map are clear ground.
    """

    __slots__ = ("clear", "gap", "lines")

    def __init__(
        self, gap: int, clear: int, lines: tuple[tuple[int, int, tuple[Square, ...]], ...]
    ) -> None:
        self.gap = gap
        """The distance between the two spaces (FB-AMB-01)."""
        self.clear = clear
        """Bit set where some candidate line is not blocked (line of fire exists)."""
        self.lines = lines
        """Per candidate line, in order: (blocked mask: by blocking terrain or, with
        ``elevation_blocks_los``, by a higher square; mask of lines touching terrain that hinders
        line of fire; offsets from the shooter's anchor of the squares a unit could stand on to
        touch the line)."""


def _shift(mask: int, offset: int) -> int:
    """``mask`` moved so that bit ``i`` of the result is bit ``i + offset`` of ``mask``."""
    return mask >> offset if offset >= 0 else mask << -offset


_LAYOUT_BITS = 1 << 24  # map-sized masks kept per map: this many bits in all (tens of MB at most)


class _MapMasks:
    """Per-map bit masks over padded indices: blocking and hindering terrain, and the squares
    on the map by level (slope counts as ground, FB-AMB-46)."""

    __slots__ = ("block", "by_level", "hinder", "moved", "pw", "room")

    def __init__(self, t: movement._Tables) -> None:
        self.pw = t.pw
        self.room = max(256, _LAYOUT_BITS // len(t.fire))
        """How many layouts to keep (their masks grow with the map); cleared when full."""
        block = hinder = 0
        levels: dict[int, int] = {}
        for i, code in enumerate(t.fire):
            if code < 0:
                continue  # off the map
            bit = 1 << i
            if code == 2:
                block |= bit
            elif code == 1:
                hinder |= bit
            levels[t.lvl[i]] = levels.get(t.lvl[i], 0) | bit
        self.block = block
        self.hinder = hinder
        self.by_level = sorted(levels.items())
        """(level, mask of the on-map squares at that level), lowest level first."""
        self.moved: dict[int, tuple[int, int]] = {}
        """:meth:`shifted` by offset (at most one entry per square of the padded map)."""

    def shifted(self, offset: int) -> tuple[int, int]:
        """The blocking and hindering masks moved by ``offset`` (see :func:`_shift`), kept: the
        lines of many layouts touch the same offsets."""
        found = self.moved.get(offset)
        if found is None:
            found = self.moved[offset] = (_shift(self.block, offset),
                                          _shift(self.hinder, offset))
        return found


_LayoutKey = tuple[int, int, int, int]


def _layouts(t: movement._Tables, elevation: bool) -> dict[_LayoutKey, _Layout]:
    """The map's layouts built so far, by (dx, dy, shooter size, target size)."""
    memo = t.memo
    key = ("fire-layouts", elevation)
    found: dict[_LayoutKey, _Layout] | None = memo.get(key)
    if found is None:
        found = memo[key] = {}
    return found


@lru_cache(maxsize=1 << 16)
def _line_geometry(
    dx: int, dy: int, s_size: int, t_size: int, pw: int
) -> tuple[tuple[tuple[Square, ...], tuple[int, ...]], ...]:
    """The map-free part of the candidate lines of fire (FB-AMB-28) to a ``t_size`` target
    anchored ``(dx, dy)`` from a ``s_size`` shooter: per line, the offsets from the shooter's
    anchor of the squares a unit could stand on to touch it (the two spaces' own squares left
    out), and the same offsets in padded indices of a map ``pw`` wide. Kept across maps: a map
    built anew for every battle meets the same layouts again."""
    s_space = footprint((0, 0), s_size)
    t_space = footprint((dx, dy), t_size)
    ignore = frozenset(s_space + t_space)
    out = []
    for (px, py), (qx, qy) in fire_lines(s_space, t_space):
        offsets = tuple([sq for x, y in touched_offsets(qx - px, qy - py)
                         if (sq := (px + x, py + y)) not in ignore])
        out.append((offsets, tuple([oy * pw + ox for ox, oy in offsets])))
    return tuple(out)


def _layout(
    t: movement._Tables, elevation: bool, dx: int, dy: int, s_size: int, t_size: int
) -> _Layout:
    """The :class:`_Layout` of a target anchored ``(dx, dy)`` from the shooter (cached per map)."""
    layouts = _layouts(t, elevation)
    key = (dx, dy, s_size, t_size)
    found = layouts.get(key)
    if found is not None:
        return found
    memo = t.memo
    masks: _MapMasks | None = memo.get("fire-masks")
    if masks is None:
        masks = memo["fire-masks"] = _MapMasks(t)
    pw = masks.pw
    # Elevation: the limit at each shooter position is the higher of the two anchors' levels;
    # per level L, the positions whose limit is L and the squares above L.
    limits: list[tuple[int, int]] = []
    if elevation:
        d = dy * pw + dx
        below = 0  # on-map squares at levels up to L
        for i, (_, at) in enumerate(masks.by_level):
            below |= at
            above = 0
            for _, mask in masks.by_level[i + 1:]:
                above |= mask
            if above:
                limit_is = below & _shift(below, d) & (at | _shift(at, d))
                limits.append((limit_is, above))
    clear = 0
    lines: list[tuple[int, int, tuple[Square, ...]]] = []
    shifted = masks.shifted
    for offsets, moves in _line_geometry(dx, dy, s_size, t_size, pw):
        blocked = hindered = 0
        for o in moves:
            block, hinder = shifted(o)
            blocked |= block
            hindered |= hinder
        for limit_is, above in limits:
            high = 0
            for o in moves:
                high |= _shift(above, o)
            blocked |= limit_is & high
        clear |= ~blocked
        lines.append((blocked, hindered, offsets))
    if len(layouts) >= masks.room:
        layouts.clear()
    found = layouts[key] = _Layout(_box_gap((0, 0), s_size, (dx, dy), t_size), clear,
                                   tuple(lines))
    return found


def _layout_of(state: FBState, shooter: Unit, target: Unit) -> tuple[_Layout, int]:
    """The layout of two units on the map, and the shooter's padded index (its bit)."""
    sa = shooter.anchor
    ta = target.anchor
    assert sa is not None and ta is not None
    sm = _scan_map(state)
    t = sm.tables
    dx = ta[0] - sa[0]
    dy = ta[1] - sa[1]
    layout = _layout(t, sm.elevation, dx, dy, shooter.size, target.size)
    return layout, t.index(sa)


def line_of_fire(state: FBState, shooter: Unit, target: Unit) -> tuple[bool, bool]:
    """Whether ``shooter`` has line of fire to ``target``, and whether it is hindered.

    Line of fire exists when at least one FB-AMB-28 candidate line touches no blocking terrain
    (FB-ARCHER-02/03). The shooter uses the most favourable unblocked line, so it is hindered
    (FB-ARCHER-04, FB-AMB-29) only when every unblocked line touches another unit or terrain that
    hinders line of fire (hindering, slope, concealing); with ``los_target_square_counts`` the
    target standing in such terrain is hindered too.
    """
    layout, bit = _layout_of(state, shooter, target)
    return _line_of_fire(state, shooter, target, layout, bit)


def _line_of_fire(
    state: FBState, shooter: Unit, target: Unit, layout: _Layout, bit: int
) -> tuple[bool, bool]:
    """:func:`line_of_fire` with the units' layout and the shooter's bit at hand."""
    if not layout.clear >> bit & 1:
        return False, False
    sx, sy = shooter.anchor  # type: ignore[misc]
    occupied = state.occupied
    hindered = True
    for blocked, terrain_hinders, offsets in layout.lines:
        if blocked >> bit & 1 or terrain_hinders >> bit & 1:
            continue
        for ox, oy in offsets:
            if (sx + ox, sy + oy) in occupied:
                break
        else:
            hindered = False
            break
    if not hindered and state.options.los_target_square_counts:
        hindered = any(state.terrain(sq).hinders_fire for sq in state.squares_of(target))
    return True, hindered


def throw_clear(state: FBState, thrower: Unit, target: Unit) -> bool:
    """Whether some FB-AMB-28 line from ``thrower`` to ``target`` touches no other unit and no
    blocking terrain (FB-FEAT-09, FB-AMB-35)."""
    layout, bit = _layout_of(state, thrower, target)
    if not layout.clear >> bit & 1:
        return False
    sx, sy = thrower.anchor  # type: ignore[misc]
    occupied = state.occupied
    for blocked, _, offsets in layout.lines:
        if blocked >> bit & 1:
            continue
        for ox, oy in offsets:
            if (sx + ox, sy + oy) in occupied:
                break
        else:
            return True
    return False


def line_blockers(
    state: FBState, shooter: Unit, target: Unit, *, units: bool = False
) -> list[tuple[Square, str]]:
    """What blocks each FB-AMB-28 candidate line from ``shooter`` to ``target``, for people:
    per line, its first blocking square (in square order) and what is there (``blocking
    terrain``, ``higher ground`` under ``elevation_blocks_los``, or with ``units`` the id of a
    unit on the line, as for a Throw). Empty when some line is clear: only called to explain a
    refusal."""
    layout, bit = _layout_of(state, shooter, target)
    assert shooter.anchor is not None and target.anchor is not None
    sx, sy = shooter.anchor
    grid = state.grid
    elevation = state.options.elevation_blocks_los
    limit = max(state.square_level((sx, sy)), state.square_level(target.anchor))
    found: list[tuple[Square, str]] = []
    for blocked, _, offsets in layout.lines:
        first: tuple[Square, str] | None = None
        for ox, oy in offsets:
            sq = (sx + ox, sy + oy)
            if not grid.contains(sq):
                continue
            if blocked >> bit & 1 and state.terrain(sq).blocks_fire:
                first = (sq, "blocking terrain")
            elif blocked >> bit & 1 and elevation and state.square_level(sq) > limit:
                first = (sq, "higher ground")
            elif units and sq in state.occupied:
                first = (sq, state.occupied[sq])
            if first is not None:
                break
        if first is None:
            return []
        found.append(first)
    return found


def range_modifier(distance: int) -> int:
    """Attack modifier of a ranged attack at ``distance`` squares (FB-ARCHER-06, FB-AMB-30).

    2-6: 0, 7-12: -1, 13-18: -2, 19-24: -3, 25-30: -4, 31-36: -5. Distance 1 (a non-adjacent
    target on another level) is 0. Whether the range is allowed at all is
    :func:`attack_options`' business (``max_range``); past 36 the table continues in steps of 6.

    Example:
        >>> [range_modifier(d) for d in (1, 6, 7, 12, 13, 36)]
        [0, 0, -1, -1, -2, -5]
    """
    if distance <= 6:
        return 0
    return -((distance - 1) // 6)


# --------------------------------------------------------------------------- legal targets


def _friend_adjacent(state: FBState, side: str, anchor: Square, size: int) -> bool:
    """Whether a unit of ``side`` is adjacent to the space of ``size`` at ``anchor`` (touching,
    on the same level: FB-AMB-01, FB-AMB-27), found through the occupancy map: the squares
    around the space are the only ones such a unit can hold."""
    occupied = state.occupied
    units = state.units
    x0, y0 = anchor
    level: int | None = None
    for dx, dy in _around(size, 1):
        uid = occupied.get((x0 + dx, y0 + dy))
        if uid is None:
            continue
        friend = units[uid]
        if friend.side != side:
            continue
        if level is None:
            level = state.square_level(anchor)
        there = friend.anchor
        assert there is not None
        if state.square_level(there) == level:
            return True
    return False


def attack_options(
    state: FBState,
    unit: Unit,
    *,
    allow_throw: bool,
    exclude: AbstractSet[str] = frozenset(),
) -> list[AttackOption]:
    """Every legal attack ``unit`` may make now, in a fixed order.

    Warriors, Pikes, Knights and Lancers attack adjacent enemies only (FB-INF-01, FB-AMB-26);
    a Pike only those with a square in its front arc (FB-PIKE-02, FB-AMB-03). Archers and Mounted
    Archers attack non-adjacent enemies only (FB-INF-02), within ``max_range`` (FB-AMB-30), with
    line of fire (FB-ARCHER-01..03) and, unless ``archer_ally_adjacency`` is ``ignore``, not
    adjacent to a unit friendly to the Archer (FB-AMB-27). With ``allow_throw`` (the caller checks
    the Feat) a Champion that is not an Archer may also Throw at an enemy at distance 2-4 with a
    clear line (FB-FEAT-09, FB-AMB-35). Normal attacks come first (in unit order), then Throws.
    Units whose id is in ``exclude`` are left out.

    Example:
        >>> from tests.rulesets.fantasy_battle.helpers import make_state  # doctest: +SKIP
        >>> s = make_state(units=[{"id": "a", "at": (1, 1)},
        ...                      {"id": "b", "side": "B", "at": (2, 2)}])  # doctest: +SKIP
        >>> attack_options(s, s.units["a"], allow_throw=False)  # doctest: +SKIP
        [AttackOption(kind='melee', target='b')]
    """
    found = (_compiled_scan(state, unit, allow_throw, exclude, False)
             if unit.cls in _ARCHERS or len(state.units) <= _MASK_ROWS else -1)
    if found < 0:
        return _attack_scan(state, unit, allow_throw, exclude, False)
    if not found:
        return []
    kind: AttackKind = "ranged" if unit.is_archer else "melee"
    uids = list(state.units)
    out: list[AttackOption] = []
    while found:  # the set bits, lowest (first in army order) first
        out.append(_option(kind, uids[(found & -found).bit_length() - 1]))
        found &= found - 1
    return out


def has_attack_option(state: FBState, unit: Unit, *, allow_throw: bool) -> bool:
    """Whether :func:`attack_options` would offer anything (stops at the first legal attack)."""
    found = (_compiled_scan(state, unit, allow_throw, _NO_IDS, True)
             if unit.cls in _ARCHERS or len(state.units) <= _MASK_ROWS else -1)
    if found >= 0:
        return found != 0
    return bool(_attack_scan(state, unit, allow_throw, _NO_IDS, True))


class _ScanMap:
    """The lines of fire of one map for the attack scans: the map's tables and layouts, and the
    ``ctx`` array of the compiled scan (see :mod:`._scan_kernels`) with the clear-line bits of
    the layouts added to it so far (all dropped at once when the room for them is full; the
    room holds at least the layouts of one window of :data:`_scan_kernels.MASK_ROWS` units, so
    a scan always gets through)."""

    __slots__ = ("count", "ctx", "elevation", "layouts", "room", "tables")

    def __init__(self, t: movement._Tables, elevation: bool) -> None:
        self.tables = t
        self.elevation = elevation
        self.layouts = _layouts(t, elevation)
        self.room = max(_scan_kernels.MASK_ROWS + 1, _LAYOUT_BITS // len(t.lvl))
        self.count = 0
        self.ctx = self._ctx(64)

    def _ctx(self, rows: int) -> np.ndarray:
        """A ``ctx`` array with room for ``rows`` layouts and no layout in it."""
        t = self.tables
        sk = _scan_kernels
        n = len(t.lvl)
        slots = (2 * t.width - 1) * (2 * t.height - 1) * 4
        words = (n + 31) // 32
        ctx = np.zeros(sk.C_HEADER + n + slots + rows * words, np.int64)
        ctx[:sk.C_HEADER] = (t.pw, t.width, t.height, words, sk.C_HEADER + n,
                             sk.C_HEADER + n + slots, rows)
        ctx[sk.C_HEADER:sk.C_HEADER + n] = t.lvl
        ctx[sk.C_HEADER + n:sk.C_HEADER + n + slots] = -1
        return ctx

    def add(self, dx: int, dy: int, s_size: int, t_size: int) -> None:
        """Add the layout of a ``t_size`` target anchored ``(dx, dy)`` from a ``s_size``
        shooter to ``ctx``."""
        sk = _scan_kernels
        t = self.tables
        layout = _layout(t, self.elevation, dx, dy, s_size, t_size)
        ctx = self.ctx
        if self.count >= self.room:
            ctx = self.ctx = self._ctx(int(ctx[sk.C_ROWS]))
            self.count = 0
        elif self.count == ctx[sk.C_ROWS]:
            grown = self._ctx(min(2 * self.count, self.room))
            used = int(ctx[sk.C_CLEAR]) + self.count * int(ctx[sk.C_WORDS])
            grown[sk.C_HEADER:used] = ctx[sk.C_HEADER:used]
            ctx = self.ctx = grown
        n = len(t.lvl)
        words = int(ctx[sk.C_WORDS])
        at = int(ctx[sk.C_CLEAR]) + self.count * words
        bits = (layout.clear & ((1 << n) - 1)).to_bytes(4 * words, "little")
        ctx[at:at + words] = np.frombuffer(bits, "<u4")
        ctx[int(ctx[sk.C_INDEX]) + sk.layout_slot(t.width, t.height, dx, dy, s_size, t_size)] = (
            self.count)
        self.count += 1


# The last map asked for: (grid, its version, elevation_blocks_los, its _ScanMap). One battle
# asks for the same map thousands of times.
_LAST_MAP: list[Any] = [None, -1, None, None]


def _scan_map(state: FBState) -> _ScanMap:
    """The :class:`_ScanMap` of the state's map and ``elevation_blocks_los`` (kept with the
    map's tables)."""
    last = _LAST_MAP
    grid = state.grid
    elevation = state.options.elevation_blocks_los
    # Grid._version is bumped by every change of terrain (movement's tables read it too).
    if last[0] is grid and last[1] == grid._version and last[2] == elevation:
        kept: _ScanMap = last[3]
        return kept
    t = movement.map_tables(grid)
    key = ("attack-scan", elevation)
    found: _ScanMap | None = t.memo.get(key)
    if found is None:
        found = t.memo[key] = _ScanMap(t, elevation)
    last[:] = (grid, grid._version, elevation, found)
    return found


# The compiled scan's mode by class (the other classes have no attack but a Throw).
_SCAN_MODE = {"archer": _scan_kernels.RANGED, "mounted_archer": _scan_kernels.RANGED,
              "warrior": _scan_kernels.MELEE, "knight": _scan_kernels.MELEE,
              "lancer": _scan_kernels.MELEE, "pike": _scan_kernels.PIKE}
# The compiled scan's constants, read once (the scan runs about 150 times a battle).
_SCAN = _scan_kernels.attack_scan if _scan_kernels.AVAILABLE else None
_RANGED = _scan_kernels.RANGED
_F_FIRST = _scan_kernels.F_FIRST
_F_FORBID = _scan_kernels.F_FORBID
_F_RANGE = _scan_kernels.F_RANGE
_MASK_ROWS = _scan_kernels.MASK_ROWS
# Who the compiled scan serves: Archers (their targets may stand anywhere), and everyone in an
# army small enough for one call of it. Other melee targets are found through the occupancy
# map (the squares around the unit), which does not read the whole army.
_ARCHERS = frozenset(("archer", "mounted_archer"))
_WINDOW = (1 << _MASK_ROWS) - 1  # the rows of one result mask


def _compiled_scan(
    state: FBState, unit: Unit, allow_throw: bool, exclude: AbstractSet[str], first: bool
) -> int:
    """The unit-table rows (army order) that ``unit`` may attack, found by the compiled scan, as
    a mask (bit ``r`` for row ``r``; with ``first``, at most one bit); -1 when the Python scan
    must answer (no numba, a Throw possible, or the unit off the map)."""
    mode = _SCAN_MODE.get(unit.cls)
    scan = _SCAN
    if (mode is None or scan is None or unit.status != ON_MAP or unit.anchor is None
            or allow_throw and mode != _RANGED and unit.rank == "champion"):
        return -1
    query, me = state.unit_table_row(unit)
    skip = 0
    if exclude:
        for uid in exclude:
            other = state.units.get(uid)
            if other is not None:
                skip |= 1 << state.table_row(other)
    sm = _scan_map(state)
    opts = state.options
    flags = opts.max_range * _F_RANGE | mode
    if opts.archer_ally_adjacency == "forbid":
        flags |= _F_FORBID
    if first:
        flags |= _F_FIRST
    found = 0
    start = 0
    units = len(query)
    while start < units:
        mask = scan(query, sm.ctx, me, flags, skip >> start & _WINDOW, start)
        count(GEOMETRY, min(_MASK_ROWS, units - start))  # every unit of the window is looked at
        if mask < 0:  # a layout to add first
            _add_layout(state, sm, unit, -mask - 1)
            continue
        if mask:
            found |= mask << start
            if first:
                break
        start += _MASK_ROWS
    return found


def _add_layout(state: FBState, sm: _ScanMap, unit: Unit, row: int) -> None:
    """Add to ``sm`` the layout of ``unit`` and the unit in ``row`` of the unit table."""
    target = list(state.units.values())[row]
    sa = unit.anchor
    ta = target.anchor
    assert sa is not None and ta is not None
    sm.add(ta[0] - sa[0], ta[1] - sa[1], unit.size, target.size)


@cache
def _around(size: int, reach: int, by_column: bool = False) -> tuple[Square, ...]:
    """Offsets from the anchor of a space of ``size`` to the squares within ``reach`` of it (its
    own squares left out), row by row or column by column."""
    span = range(-reach, size + reach)
    pairs = ((x, y) for x in span for y in span) if by_column else (
        (x, y) for y in span for x in span)
    return tuple((x, y) for x, y in pairs if not (0 <= x < size and 0 <= y < size))


def _attack_scan(
    state: FBState, unit: Unit, allow_throw: bool, exclude: AbstractSet[str], first: bool
) -> list[AttackOption]:
    """:func:`attack_options`; with ``first``, some legal attack (not necessarily the first in
    order), or none."""
    anchor = unit.anchor
    if anchor is None or unit.status != ON_MAP:
        return []
    if unit.is_archer:
        return _ranged_scan(state, unit, anchor, exclude, first)
    can_throw = allow_throw and unit.rank == "champion"
    melee = unit.cls in MELEE_CLASSES
    if not (melee or can_throw):
        return []
    # Targets stand within reach (1 square, or 4 for a Throw): found through the occupancy map.
    side = unit.side
    units = state.units
    occupied = state.occupied
    x0, y0 = anchor
    size = unit.size
    near: list[str] = []
    ring = _around(size, THROW_RANGE[1] if can_throw else 1)
    count(GEOMETRY, len(ring))
    for dx, dy in ring:
        there = occupied.get((x0 + dx, y0 + dy))
        if (there is not None and there not in near and units[there].side != side
                and there not in exclude):
            near.append(there)
    if not near:
        return []
    if len(near) > 1 and not first:
        near.sort(key=state.unit_order().__getitem__)
    opts = state.options
    pike = unit.has_facing
    throw_arc_free = not pike or opts.pike_throw_ignores_facing
    level = state.square_level(anchor)
    lo, hi = THROW_RANGE
    out: list[AttackOption] = []
    throws: list[AttackOption] = []
    for there in near:
        enemy = units[there]
        their_anchor = enemy.anchor
        assert their_anchor is not None
        dist = _box_gap(anchor, size, their_anchor, enemy.size)
        theirs = state.squares_of(enemy) if pike else ()
        if (melee and dist == 1 and state.square_level(their_anchor) == level
                and (not pike or state.in_front_arc(unit, theirs))):
            out.append(_option("melee", enemy.id))
            if first:
                return out
        if (
            can_throw
            and lo <= dist <= hi
            and (throw_arc_free or state.in_front_arc(unit, theirs))
            and throw_clear(state, unit, enemy)
        ):
            throws.append(_option("throw", enemy.id))
            if first:
                return throws
    return out + throws


def _ranged_scan(
    state: FBState, unit: Unit, anchor: Square, exclude: AbstractSet[str], first: bool
) -> list[AttackOption]:
    """:func:`_attack_scan` for an Archer or Mounted Archer: enemies in unit order, cheap
    rejects first, then the line of fire and the allies next to the target."""
    opts = state.options
    forbid_allies = opts.archer_ally_adjacency == "forbid"
    max_range = opts.max_range
    sm = _scan_map(state)
    t = sm.tables
    elevation = sm.elevation
    layouts = sm.layouts
    ax, ay = anchor
    bit = (ay + 1) * t.pw + ax + 1
    side = unit.side
    size = unit.size
    level: int | None = None
    out: list[AttackOption] = []
    count(GEOMETRY, len(state.units))  # every unit is looked at
    for enemy in state.units.values():
        their_anchor = enemy.anchor
        if (enemy.side == side or their_anchor is None or enemy.status != ON_MAP
                or enemy.id in exclude):
            continue
        tx, ty = their_anchor
        layout = layouts.get((tx - ax, ty - ay, size, enemy.size))
        if layout is None:
            if _box_gap(anchor, size, their_anchor, enemy.size) > max_range:
                continue  # out of range: no need for the lines
            layout = _layout(t, elevation, tx - ax, ty - ay, size, enemy.size)
        dist = layout.gap
        if dist > max_range:
            continue
        if dist == 1:  # adjacent (same level) enemies are for melee only (FB-INF-02)
            if level is None:
                level = state.square_level(anchor)
            if state.square_level(their_anchor) == level:
                continue
        if not layout.clear >> bit & 1:
            continue
        if forbid_allies and _friend_adjacent(state, side, their_anchor, enemy.size):
            continue
        out.append(_option("ranged", enemy.id))
        if first:
            return out
    return out


# --------------------------------------------------------------------------- modifiers


# The last ability holders asked about (FBState.ability_holders: the same list for as long as
# the units are the same), and per holder the abilities that reach its allies.
_ALLY_ABILITIES: list[Any] = [None, []]


def _ally_abilities(state: FBState) -> list[tuple[Unit, list[AbilityState]]]:
    """The units whose abilities reach allies (``affects`` allies or self_and_allies), in army
    order, each with those abilities (abilities are fixed at setup)."""
    holders = state.ability_holders()
    kept = _ALLY_ABILITIES
    if kept[0] is not holders:
        reach = [(u, [a for a in u.abilities if a.affects != "self"]) for u in holders]
        kept[:] = (holders, [(u, found) for u, found in reach if found])
    found: list[tuple[Unit, list[AbilityState]]] = kept[1]
    return found


def abilities_affecting(state: FBState, unit: Unit) -> list[tuple[Unit, AbilityState]]:
    """The generic special abilities that apply to ``unit`` now, with the unit owning each.

    Its own abilities that affect itself (``self``, ``self_and_allies``), then abilities of
    friendly units on the map that affect allies (``allies``, ``self_and_allies``) within their
    ``range`` and whose keyword filters (types, classes, ranks, factions; empty = any) match
    ``unit``
    (FB-ABIL-03, FB-AMB-05).

    The answer is kept (:meth:`FBState.ability_memos`) for the present places of the units
    whose abilities reach allies; callers must not change the list.
    """
    key = (unit.id, unit.anchor, unit.status, unit.size, unit.type, unit.cls, unit.rank)
    memo = state.ability_memos()[0]
    kept = memo.get(key)
    if kept is not None:
        return kept
    memo[key] = out = _abilities_affecting(state, unit)
    return out


def _abilities_affecting(state: FBState, unit: Unit) -> list[tuple[Unit, AbilityState]]:
    """:func:`abilities_affecting`, worked out."""
    out: list[tuple[Unit, AbilityState]] = [
        (unit, a) for a in unit.abilities if a.affects != "allies"
    ] if unit.abilities else []
    side = unit.side
    for friend, reaching in _ally_abilities(state):
        if (friend.side != side or friend.id == unit.id or friend.anchor is None
                or friend.status != ON_MAP):
            continue
        dist: int | None = None
        for a in reaching:
            if a.types and unit.type not in a.types:
                continue
            if a.classes and unit.cls not in a.classes:
                continue
            if a.ranks and unit.rank not in a.ranks:
                continue
            if a.factions and unit.faction not in a.factions:
                continue
            if a.range is not None:
                if dist is None:
                    dist = state.distance(friend, unit)
                if dist > a.range:
                    continue
            out.append((friend, a))
    return out


def flanking(state: FBState, attacker: Unit, target: Unit) -> Unit | None:
    """A friendly unit that lets ``attacker`` flank ``target``, or None (FB-WARRIOR-01..04).

    The friend must be adjacent to the target (same level, FB-WARRIOR-02) and the target's centre
    must lie strictly between the two centres (FB-WARRIOR-03, FB-AMB-51). Any friendly unit
    counts, whatever its class (FB-WARRIOR-04). The attacker must be adjacent to the target.
    """
    if not state.adjacent(attacker, target):
        return None
    occupied = state.occupied
    units = state.units
    side = attacker.side
    tx, ty = target.anchor  # type: ignore[misc]
    for dx, dy in _around(target.size, 1, True):
        uid = occupied.get((tx + dx, ty + dy))
        if uid is None or uid == attacker.id:
            continue
        friend = units[uid]
        if friend.side != side or not state.adjacent(friend, target):
            continue
        if strictly_between(state.squares_of(attacker), state.squares_of(target),
                            state.squares_of(friend)):
            return friend
    return None


def _ability_terms(
    found: list[tuple[Unit, AbilityState]], roll: str
) -> tuple[int, str, int, list[str]]:
    """Largest bonus and its name, and the sum of penalties with their breakdown lines."""
    best = 0
    best_name = ""
    penalty = 0
    lines: list[str] = []
    for owner, ability in found:
        value = ability.attack if roll == "attack" else ability.defense
        if value > best:
            best = value
            best_name = f"{ability.name} of {owner.id}"
        elif value < 0:
            penalty += value
            lines.append(f"{roll} {value:+d} {ability.name} of {owner.id} [FB-AMB-06]")
    return best, best_name, penalty, lines


def _modifiers(
    state: FBState,
    attacker: Unit,
    target: Unit,
    kind: str,
    charging: bool,
    att_abilities: list[tuple[Unit, AbilityState]],
    def_abilities: list[tuple[Unit, AbilityState]],
) -> tuple[int, int, list[str]]:
    opts = state.options
    att = 0
    dfn = 0
    notes: list[str] = []
    if attacker.is_cavalry and target.type == "infantry":  # FB-CAV-01, always adds (FB-AMB-06)
        att += 1
        notes.append("attack +1 cavalry attacking infantry [FB-CAV-01]")
    class_bonus = 0
    class_note = ""
    if kind == "melee":
        if attacker.has_flanking:
            friend = flanking(state, attacker, target)
            if friend is not None:
                class_bonus = 1
                class_note = f"flanking with {friend.id} [FB-WARRIOR-01]"
        if charging and attacker.has_charge:
            class_bonus = 1
            class_note = "charging [FB-PIKE-06]"
    elif kind == "ranged":
        layout, bit = _layout_of(state, attacker, target)
        _, hindered = _line_of_fire(state, attacker, target, layout, bit)
        if hindered:
            att -= 1
            notes.append("attack -1 line of fire hindered [FB-ARCHER-04]")
        dist = layout.gap
        rmod = range_modifier(dist)
        if rmod:
            att += rmod
            notes.append(f"attack {rmod:+d} range {dist} [FB-ARCHER-06]")
    best, best_name, penalty, pnames = _ability_terms(att_abilities, "attack")
    if opts.class_bonus_is_special_ability:  # FB-AMB-06 (b): capped together
        if class_bonus and class_bonus >= best:
            att += class_bonus
            extra = f" (beats {best_name} +{best}) [FB-ABIL-04]" if best else ""
            notes.append(f"attack +{class_bonus} {class_note}{extra}")
        elif best:
            att += best
            extra = f" (beats {class_note} +{class_bonus})" if class_bonus else ""
            notes.append(f"attack +{best} {best_name}{extra} [FB-ABIL-04]")
    else:
        if class_bonus:
            att += class_bonus
            notes.append(f"attack +{class_bonus} {class_note}")
        if best:
            att += best
            notes.append(f"attack +{best} {best_name} [FB-ABIL-04]")
    if penalty:
        att += penalty
        notes.extend(pnames)
    # defense
    if (
        kind == "melee"
        and target.has_facing
        and target.facing is not None
        and not state.in_front_arc(target, state.squares_of(attacker))
    ):
        dfn -= 1
        notes.append("defense -1 pike attacked outside its front arc [FB-PIKE-03]")
    if target.cls == "archer" or (
        target.cls == "mounted_archer" and opts.mounted_archer_defense_penalty
    ):
        dfn -= 1
        notes.append("defense -1 archer defending [FB-ARCHER-05]")
    best, best_name, penalty, pnames = _ability_terms(def_abilities, "defense")
    if best:
        dfn += best
        notes.append(f"defense +{best} {best_name} [FB-ABIL-04]")
    if penalty:
        dfn += penalty
        notes.extend(pnames)
    return att, dfn, notes


def modifiers(
    state: FBState,
    attacker: Unit,
    target: Unit,
    kind: str,
    charging: bool,
    *,
    declined: AbstractSet[str] = frozenset(),
) -> tuple[int, int, list[str]]:
    """Attack modifier, defense modifier and a readable breakdown (FB-COMBAT-08).

    Cavalry +1 against Infantry always adds (FB-CAV-01, FB-AMB-06). Flanking (melee, Warrior and
    Knight, FB-WARRIOR-01..04, FB-CAV-08) and Charging (when ``charging``, Pike and Lancer,
    FB-PIKE-06, FB-CAV-09) count as special abilities when ``class_bonus_is_special_ability``:
    then only the largest of them and the generic ability bonuses applies (FB-ABIL-04); else they
    add. Ranged attacks take -1 for a hindered line of fire and the range modifier
    (FB-ARCHER-04/06). A Pike defends at -1 against a melee attack from outside its front arc
    (FB-PIKE-03, FB-AMB-03/23); Archers (and Mounted Archers, ``mounted_archer_defense_penalty``)
    defend at -1 (FB-ARCHER-05). Penalties always add. Sides in ``declined`` get no generic
    ability (FB-ABIL-02).

    Example:
        >>> from tests.rulesets.fantasy_battle.helpers import make_state  # doctest: +SKIP
        >>> s = make_state(units=[{"id": "k", "cls": "knight", "at": (1, 1)},
        ...                      {"id": "w", "side": "B", "at": (3, 1)}])  # doctest: +SKIP
        >>> modifiers(s, s.units["k"], s.units["w"], "melee", False)[:2]  # doctest: +SKIP
        (1, 0)
    """
    att_abilities = [] if attacker.side in declined else abilities_affecting(state, attacker)
    def_abilities = [] if target.side in declined else abilities_affecting(state, target)
    return _modifiers(state, attacker, target, kind, charging, att_abilities, def_abilities)


def modifier_values(
    state: FBState, attacker: Unit, target: Unit, kind: str, charging: bool
) -> tuple[int, int]:
    """``modifiers(state, attacker, target, kind, charging)[:2]``, without the breakdown: for
    commanders that weigh many attacks.

    The part that reads only the two units (their ids, places, sizes, types, classes, ranks,
    the target's facing) is kept per pair (:attr:`FBState.pair_memo`), the ability bonuses per
    unit (:func:`ability_bonuses`); what other units' places decide (a hindered line of fire,
    Flanking) is worked out at every call."""
    if kind == "ranged" or target.cls == "pike":  # range, front arc: where the two stand
        key: tuple[Any, ...] = (
            attacker.id, attacker.anchor, attacker.status, attacker.size, attacker.type,
            attacker.cls, attacker.rank, target.id, target.anchor, target.status, target.size,
            target.type, target.cls, target.rank, target.facing, kind, charging,
            state.grid._version)  # (the lines of fire kept read the terrain)
    else:  # only the two types and classes (see _pair_values)
        key = (attacker.type, attacker.cls, target.type, target.cls, kind, charging)
    memo = state.pair_memo
    kept = memo.get(key)
    if kept is None:
        if len(memo) >= 50_000:
            memo.clear()
        kept = memo[key] = _pair_values(state, attacker, target, kind, charging)
    att, dfn, bonus, flank, lines = kept
    best, penalty, _, _ = ability_bonuses(state, attacker)
    _, _, d_best, d_penalty = ability_bonuses(state, target)
    if flank and flanking(state, attacker, target) is not None:
        bonus = 1
    elif lines is not None and _line_of_fire(state, attacker, target, lines[0], lines[1])[1]:
        att -= 1
    if state.options.class_bonus_is_special_ability:  # FB-AMB-06 (b): capped together
        att += bonus if bonus > best else best
    else:
        att += bonus + best
    return att + penalty, dfn + d_best + d_penalty


def _pair_values(
    state: FBState, attacker: Unit, target: Unit, kind: str, charging: bool
) -> tuple[int, int, int, bool, tuple[_Layout, int] | None]:
    """For :func:`modifier_values`, what :func:`_modifiers` reads of the two units alone: the
    attack modifier without class bonus, abilities and a hindered line (Cavalry against
    Infantry, range), the defense modifier without abilities (a Pike attacked outside its
    front arc, an Archer defending), the Charge bonus, whether Flanking may apply, and for a
    ranged attack the two units' layout and the shooter's bit (see :func:`_layout_of`).

    Only a ranged attack (range) and an attack on a Pike (front arc) read where the two stand;
    the rest reads the two units' types and classes alone."""
    att = 1 if attacker.is_cavalry and target.type == "infantry" else 0  # FB-CAV-01
    dfn = 0
    bonus = 0
    flank = False
    lines = None
    if kind == "melee":
        flank = attacker.has_flanking
        if charging and attacker.has_charge:
            bonus = 1
        if (target.has_facing and target.facing is not None
                and not state.in_front_arc(target, state.squares_of(attacker))):
            dfn -= 1
    elif kind == "ranged":
        lines = _layout_of(state, attacker, target)
        att += range_modifier(lines[0].gap)
    if target.cls == "archer" or (
        target.cls == "mounted_archer" and state.options.mounted_archer_defense_penalty
    ):
        dfn -= 1
    return att, dfn, bonus, flank, lines


def ability_bonuses(state: FBState, unit: Unit) -> tuple[int, int, int, int]:
    """The generic abilities' part of ``unit``'s modifiers (FB-ABIL-04, FB-AMB-06): (largest
    attack bonus, sum of attack penalties, largest defense bonus, sum of defense penalties),
    kept as :func:`abilities_affecting` is."""
    memos = state.ability_memos()
    if unit.side in memos[2]:  # allies' abilities may reach it: where it stands counts
        key: tuple[Any, ...] = (unit.id, unit.anchor, unit.status, unit.size, unit.type,
                                unit.cls, unit.rank)
    else:  # only its own abilities
        key = (unit.id,)
    memo = memos[1]
    kept = memo.get(key)
    if kept is None:
        found = abilities_affecting(state, unit)
        best, _, penalty, _ = _ability_terms(found, "attack")
        d_best, _, d_penalty, _ = _ability_terms(found, "defense")
        kept = memo[key] = (best, penalty, d_best, d_penalty)
    return kept


# --------------------------------------------------------------------------- resolution


def _ask_abilities(
    battle: Battle, unit: Unit, found: list[tuple[Unit, AbilityState]], roll: str
) -> bool:
    """Ask ``unit``'s owner whether the abilities that would change its roll stay in effect
    (FB-ABIL-02, FB-AMB-48); True when declined. Not asked when none would."""
    active = [
        (owner, a) for owner, a in found
        if (a.attack if roll == "attack" else a.defense) != 0
    ]
    if not active:
        return False
    names = [f"{a.name} of {owner.id}" for owner, a in active]
    order = battle.ask(
        unit.side, "ability", _ABILITY_OPTIONS,
        prompt=f"use the special abilities on {unit.id}'s {roll} roll ({', '.join(names)})?",
        subject=unit.id, default=_USE_ABILITIES, info={"roll": roll, "abilities": names},
    )
    if order == _DECLINE_ABILITIES:
        battle.emit("ability_declined", unit=unit.id, side=unit.side, roll=roll, abilities=names)
        return True
    return False


def _fate_window(
    battle: Battle,
    attacker: Unit,
    target: Unit,
    att_dice: list[int],
    def_dice: list[int],
    purpose: str,
    info: dict[str, int],
) -> None:
    """The Fate Point window (FB-FATE-03..07, FB-AMB-43 step 4), changing the dice in place.

    The attacker's owner goes first; the owners alternate, one point at a time; each spend
    rerolls one die, own or the opponent's, and the new face replaces the old one even if lower.
    Only the two units in the fight spend; the window closes when both pass in succession (a
    side that cannot spend passes without being asked).
    """
    if attacker.fate_left <= 0 and target.fate_left <= 0:
        return
    seats = ((attacker, att_dice, def_dice, "attacker"), (target, def_dice, att_dice, "defender"))
    turn = 0
    passes = 0
    while passes < 2:
        unit, own, foe, role = seats[turn]
        turn ^= 1
        left = unit.fate_left
        if left <= 0 or not (own or foe):
            passes += 1
            continue
        options = _fate_options(len(own), len(foe))
        order = battle.ask(
            unit.side, "fate", options,
            prompt=(f"{unit.id}: {purpose} roll, own dice {list(own)}, opponent's {list(foe)}"
                    f"{_fate_totals(info)}; spend a Fate Point ({left} left)?"),
            subject=unit.id, default=_FATE_PASS,
            info={"purpose": purpose, "role": role, "own": list(own), "foe": list(foe), **info},
        )
        if order.kind == "fate-pass":
            passes += 1
            continue
        passes = 0
        dice = own if order.kind == "reroll-own" else foe
        index = int(order.args[0])
        whose = unit if dice is own else (target if unit is attacker else attacker)
        old = dice[index]
        unit.fate_spent += 1
        new = battle.dice.pool(1, 6, f"fate reroll by {unit.id}", unit=whose.id)[0]
        dice[index] = new
        battle.emit("fate", unit=unit.id, side=unit.side, die_of=whose.id, index=index,
                    old=old, new=new, purpose=purpose, fate_left=unit.fate_left)


@cache
def _fate_options(own: int, foe: int) -> tuple[Order, ...]:
    """The options of a Fate Point decision with ``own`` and ``foe`` dice to reroll: pass, then
    each own die, then each of the opponent's (built once: orders are immutable values)."""
    return (
        (_FATE_PASS,)
        + tuple(Order("reroll-own", (i,)) for i in range(own))
        + tuple(Order("reroll-foe", (i,)) for i in range(foe))
    )


def _fate_totals(info: dict[str, int]) -> str:
    """The modifiers in force, for the person deciding on a Fate Point."""
    if not info:
        return ""
    return f" (attack {info.get('attack_mod', 0):+d}, defense {info.get('defense_mod', 0):+d})"


def _protect(state: FBState, battle: Battle, target: Unit) -> Unit | None:
    """The Protect window (FB-FEAT-08, FB-AMB-40): a Champion that makes the attack fail."""
    champions = [
        c for c in state.units.values()
        if "protect" in c.feats and c.rank == "champion" and c.side == target.side
        and c.id != target.id and state.adjacent(c, target)
        and feats.can_use_feat(state, c, "protect")
    ]
    if not champions:
        return None
    options = (_NO_PROTECT,) + tuple(Order("protect", (c.id,)) for c in champions)
    order = battle.ask(
        target.side, "protect", options,
        prompt=f"use Protect to make the attack on {target.id} fail?",
        subject=target.id, default=_NO_PROTECT,
    )
    if order == _NO_PROTECT:
        return None
    champion = state.units[str(order.args[0])]
    feats.use_feat(state, battle, champion, "protect")
    battle.emit("protected", unit=target.id, by=champion.id)
    return champion


def _placeable(state: FBState, sq: Square) -> bool:
    """A square an Infantry unit may be set down on: on the map, free, enterable, not slope."""
    if not state.grid.contains(sq) or sq in state.occupied:
        return False
    kind = state.terrain(sq)
    return kind.move_cost is not None and kind.can_end


def _nearest_fallback(
    state: FBState, battle: Battle, unit: Unit, space: tuple[Square, ...]
) -> Square | None:
    """Nearest legal ground-level square to ``space`` (FB-AMB-47); the owner breaks ties."""
    grid = state.grid
    for radius in range(1, max(grid.width, grid.height) + 1):
        x0, y0 = space[0]
        x1, y1 = space[-1]
        ring = [
            (x, y)
            for x in range(x0 - radius, x1 + radius + 1)
            for y in range(y0 - radius, y1 + radius + 1)
            if space_distance(((x, y),), space) == radius
        ]
        found = [sq for sq in ring if _placeable(state, sq) and state.square_level(sq) == 0]
        if found:
            return _choose_square(battle, unit, found)
    return None


def _choose_square(battle: Battle, unit: Unit, squares: list[Square]) -> Square:
    options = tuple(Order("place", sq) for sq in squares)
    order = battle.ask(
        unit.side, "dismount", options, prompt=f"where does dismounted {unit.id} stand?",
        subject=unit.id, default=options[0],
    )
    return (int(order.args[0]), int(order.args[1]))


def _nearest_legal(
    state: FBState, battle: Battle, unit: Unit, space: tuple[Square, ...]
) -> Square | None:
    """FB-AMB-47's nearest legal space, from ``movement`` when it is there (the owner breaks ties
    when that function takes ``battle``), else from :func:`_nearest_fallback`."""
    try:
        module = importlib.import_module("warhost.rulesets.fantasy_battle.movement")
        finder = module.nearest_legal_space
    except (ImportError, AttributeError):
        return _nearest_fallback(state, battle, unit, space)
    if "battle" in inspect.signature(finder).parameters:
        found = finder(state, unit, space[0], battle=battle)
    else:
        found = finder(state, unit, space[0])
    return None if found is None else (int(found[0]), int(found[1]))


def _default_facing(names: list[str], here: Square, toward: tuple[Square, ...]) -> str:
    """The facing among ``names`` pointing most directly from ``here`` toward a space."""
    cx, cy = centre2(toward)
    dx = cx - (2 * here[0] + 1)
    dy = cy - (2 * here[1] + 1)
    best = names[0]
    best_score = -math.inf
    for name in names:
        fx, fy = FACINGS[name]
        score = (dx * fx + dy * fy) / math.hypot(fx, fy)
        if score > best_score + 1e-9:
            best, best_score = name, score
    return best


def _dismount(state: FBState, battle: Battle, target: Unit, attacker: Unit) -> str:
    """Replace a Cavalry unit by its Infantry version (FB-CAV-06, FB-AMB-32, FB-AMB-33)."""
    space = state.squares_of(target)
    state.place(target, None)
    target.type = "infantry"
    target.cls = DISMOUNTED_CLASS.get(target.cls, target.cls)
    target.size = 1
    target.dismounted = True
    state.sync(target)
    legal = [sq for sq in space if _placeable(state, sq)]
    spot: Square | None
    if legal:
        spot = legal[0] if len(legal) == 1 else _choose_square(battle, target, legal)
    else:
        spot = _nearest_legal(state, battle, target, space)
    if spot is None:
        battle.emit("dismounted", unit=target.id, at=None, cls=target.cls, facing=None)
        scoring.defeat(state, battle, target, attacker.side)
        return "defeat"
    state.place(target, spot)
    facing_name: str | None = None
    if target.cls == "pike":
        names = [n for n, (fx, fy) in FACINGS.items()
                 if state.options.pike_facings == 8 or fx == 0 or fy == 0]
        default = Order("face", (_default_facing(names, spot, state.squares_of(attacker)),))
        options = tuple(Order("face", (n,)) for n in names)
        order = battle.ask(
            target.side, "facing", options, prompt=f"which way does {target.id} face?",
            subject=target.id, default=default,
        )
        facing_name = str(order.args[0])
        state.set_facing(target, FACINGS[facing_name])
    else:
        state.set_facing(target, None)
    battle.emit("dismounted", unit=target.id, at=list(spot), cls=target.cls, facing=facing_name)
    if target.rank == "champion" and state.options.champion_dismount_counts_as_wound:
        target.wounded = True
        battle.emit("wounded", unit=target.id, side=target.side)
    return "dismount"


def resolve_attack(
    state: FBState,
    battle: Battle,
    attacker: Unit,
    target: Unit,
    kind: str,
    *,
    charging: bool = False,
    second: bool = False,
) -> str:
    """Resolve one declared, legal attack from start to end (FB-AMB-43).

    Returns ``'fail'``, ``'protected'``, ``'wound'``, ``'dismount'`` or ``'defeat'`` (the result
    of this attack; a Frenzy second attack it triggers is resolved inside). ``charging`` gives
    the Charge bonus (the caller has checked the charge); ``second`` marks a Frenzy attack, which
    cannot trigger Frenzy again. Stops at once when a defeat ends the battle (FB-AMB-45).

    Example:
        >>> from tests.rulesets.fantasy_battle.helpers import make_battle  # doctest: +SKIP
        >>> resolve_attack(state, make_battle(state, dice=[5, 2]), a, b, "melee")  # doctest: +SKIP
        'defeat'
    """
    # 2. modifiers, after the owners' say on their special abilities (FB-ABIL-02, FB-AMB-48)
    att_found = abilities_affecting(state, attacker)
    def_found = abilities_affecting(state, target)
    if att_found and _ask_abilities(battle, attacker, att_found, "attack"):
        att_found = []
    if def_found and _ask_abilities(battle, target, def_found, "defense"):
        def_found = []
    att_mod, def_mod, notes = _modifiers(
        state, attacker, target, kind, charging, att_found, def_found
    )
    # Events whose fields the log would throw away are only counted (records_fields).
    explain = battle.records_fields
    if explain:
        battle.emit("attack", attacker=attacker.id, target=target.id, kind=kind,
                    charging=charging, second=second, attack_mod=att_mod, defense_mod=def_mod,
                    modifiers=notes)
    else:
        battle.emit("attack")
    # 3. rolls: 1, 2 or 3 dice by rank, keep the highest (FB-COMBAT-01, FB-GEN-02)
    att_dice = battle.dice.pool(RANK_DICE[attacker.rank], 6, f"attack by {attacker.id}",
                                unit=attacker.id)
    def_dice = battle.dice.pool(RANK_DICE[target.rank], 6, f"defense by {target.id}",
                                unit=target.id)
    # 4. Fate Points (FB-FATE-*)
    _fate_window(battle, attacker, target, att_dice, def_dice, "attack",
                 {"attack_mod": att_mod, "defense_mod": def_mod})
    # 5. compare: strictly higher wins, ties fail (FB-COMBAT-02/03, FB-AMB-14/31)
    att_total = max(att_dice) + att_mod
    def_total = max(def_dice) + def_mod
    success = att_total > def_total
    if explain:
        battle.emit("attack_result", attacker=attacker.id, target=target.id, kind=kind,
                    attack_dice=list(att_dice), defense_dice=list(def_dice),
                    attack_total=att_total, defense_total=def_total, success=success)
    else:
        battle.emit("attack_result")
    if not success:
        return "fail"
    # 6. Protect (FB-FEAT-08, FB-AMB-40)
    if _protect(state, battle, target) is not None:
        return "protected"
    # 7. result
    result = _apply_hit(state, battle, attacker, target)
    if result != "defeat" or state.over:  # FB-AMB-45: the battle ends at once
        return result
    # 9. Frenzy (FB-FEAT-06, FB-AMB-38)
    if not second and attacker.rank == "champion" and attacker.on_map:
        _frenzy(state, battle, attacker, target)
    return result


def _apply_hit(state: FBState, battle: Battle, attacker: Unit, target: Unit) -> str:
    """Result of a successful attack (FB-COMBAT-04..07, FB-CAV-04..07, FB-AMB-32/33)."""
    if target.type == "infantry":
        if target.rank == "champion" and not target.wounded:  # FB-COMBAT-05
            target.wounded = True
            battle.emit("wounded", unit=target.id, side=target.side)
            return "wound"
    elif target.rank == "champion":  # FB-CAV-07: dismount, no die
        return _dismount(state, battle, target, attacker)
    elif target.rank == "elite":  # FB-CAV-05
        die = battle.dice.pool(1, 6, f"dismount roll for {target.id}", unit=target.id)
        if state.options.fate_on_dismount_roll:
            _fate_window(battle, attacker, target, [], die, "dismount", {})
        dismount = die[0] >= 4
        battle.emit("dismount_roll", unit=target.id, face=die[0],
                    result="dismount" if dismount else "defeat")
        if dismount:
            return _dismount(state, battle, target, attacker)
    scoring.defeat(state, battle, target, attacker.side)  # FB-COMBAT-04/06, FB-CAV-04
    return "defeat"


def _frenzy(state: FBState, battle: Battle, champion: Unit, defeated: Unit) -> None:
    """Offer Frenzy's second attack (FB-FEAT-06, FB-AMB-38)."""
    if not feats.can_use_feat(state, champion, "frenzy"):
        return
    targets = attack_options(state, champion, allow_throw=False, exclude={defeated.id})
    if not targets:
        return
    options = (_NO_FRENZY,) + tuple(Order("frenzy", (o.target,)) for o in targets)
    order = battle.ask(
        champion.side, "frenzy", options, prompt=f"{champion.id}: Frenzy, a second attack?",
        subject=champion.id, default=_NO_FRENZY,
    )
    if order == _NO_FRENZY:
        return
    chosen = next(o for o in targets if o.target == order.args[0])
    feats.use_feat(state, battle, champion, "frenzy")
    resolve_attack(state, battle, champion, state.units[chosen.target], chosen.kind,
                   charging=False, second=True)
