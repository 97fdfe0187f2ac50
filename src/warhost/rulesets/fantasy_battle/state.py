"""The battle state of `fantasy-battle`: plain data plus geometric queries on it."""

from __future__ import annotations

import copy
import itertools
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from warhost.core.metering import GEOMETRY, count
from warhost.geometry.grid import Grid, Square, footprint, space_distance
from warhost.rulesets.fantasy_battle import _kernels
from warhost.rulesets.fantasy_battle._ranks import RankSet
from warhost.rulesets.fantasy_battle.model import Options
from warhost.rulesets.fantasy_battle.terrain import TERRAIN, TerrainKind

INFANTRY_CLASSES = ("warrior", "pike", "archer")
CAVALRY_CLASSES = ("knight", "lancer", "mounted_archer")
DISMOUNTED_CLASS = {"knight": "warrior", "lancer": "pike", "mounted_archer": "archer"}
RANK_DICE = {"standard": 1, "elite": 2, "champion": 3}  # FB-COMBAT-01
RANK_POINTS = {"standard": 1, "elite": 2, "champion": 3}  # FB-WIN-03
MOVE = {"infantry": 6, "cavalry": 8}  # FB-MOVE-01 (Double-time doubles it)
FACINGS: dict[str, Square] = {
    "north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0),
    "northeast": (1, 1), "northwest": (-1, 1), "southeast": (1, -1), "southwest": (-1, -1),
}
FACING_NAMES = {v: k for k, v in FACINGS.items()}

# Versions of the unit tables (:meth:`FBState.unit_table`), unique across states, so a search
# kept with one version is never taken for another state's.
_TABLE_VERSIONS = itertools.count(1)

AbilityMemos = tuple[dict[tuple[Any, ...], list[Any]],
                     dict[tuple[Any, ...], tuple[int, int, int, int]], frozenset[str]]
"""The dicts of :meth:`FBState.ability_memos`."""

ON_MAP = "active"
DEFEATED = "defeated"
IN_POOL = "pool"


@dataclass(slots=True)
class AbilityState:
    """A generic modifier ability (FB-AMB-05); ``declined`` is set while its owner declines it."""

    name: str
    attack: int
    defense: int
    affects: str
    range: int | None
    types: list[str]
    classes: list[str]
    ranks: list[str]
    factions: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Unit:
    """One model on the battlefield (or in the pool, or defeated)."""

    id: str
    side: str
    name: str
    rank: str
    type: str
    cls: str
    anchor: Square | None
    size: int = 1
    facing: Square | None = None
    squad: str | None = None
    unique: bool = False
    fate: int = 0
    fate_spent: int = 0
    abilities: list[AbilityState] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    feats_used: list[bool] = field(default_factory=list)
    feats_used_since_entry: int = 0
    wounded: bool = False
    dismounted: bool = False
    status: str = ON_MAP
    activated: bool = False
    original_cls: str = ""
    original_type: str = ""
    faction: str = ""

    @property
    def on_map(self) -> bool:
        """Standing on the battlefield."""
        return self.status == ON_MAP and self.anchor is not None

    @property
    def is_cavalry(self) -> bool:
        """Cavalry type (FB-RANK-02)."""
        return self.type == "cavalry"

    @property
    def is_archer(self) -> bool:
        """Archer or Mounted Archer: ranged attack only."""
        return self.cls in ("archer", "mounted_archer")

    @property
    def has_flanking(self) -> bool:
        """Warrior or Knight (FB-WARRIOR-01, FB-CAV-08)."""
        return self.cls in ("warrior", "knight")

    @property
    def has_charge(self) -> bool:
        """Pike or Lancer (FB-PIKE-06, FB-CAV-09)."""
        return self.cls in ("pike", "lancer")

    @property
    def has_facing(self) -> bool:
        """Only Pikes have a facing (FB-PIKE-01, FB-CAV-10)."""
        return self.cls == "pike"

    @property
    def fate_left(self) -> int:
        """Fate Points not yet spent (FB-FATE-02)."""
        return self.fate - self.fate_spent

    def unused_feats(self, name: str | None = None) -> list[int]:
        """Indexes of Feat entries not used yet (optionally only those named ``name``)."""
        return [
            i for i, (feat, used) in enumerate(zip(self.feats, self.feats_used))
            if not used and (name is None or feat == name)
        ]

    def has_unused_feat(self, name: str) -> bool:
        """Whether some Feat entry named ``name`` is not used yet."""
        for feat, used in zip(self.feats, self.feats_used):
            if not used and feat == name:
                return True
        return False

    def point_value(self) -> int:
        """Points scored for defeating it now: base + Fate Points spent + Feats used
        (FB-WIN-03..05; Feats counted since it last entered the battlefield, FB-AMB-49)."""
        return RANK_POINTS[self.rank] + self.fate_spent + self.feats_used_since_entry


def _box_gap(pa: Square, size_a: int, pb: Square, size_b: int) -> int:
    """:func:`space_distance` of two square spaces (sides ``size_a``, ``size_b``) given by their
    low corners, without building them."""
    if size_a not in (1, 2) or size_b not in (1, 2):
        return space_distance(footprint(pa, size_a), footprint(pb, size_b))
    ax, ay = pa
    bx, by = pb
    # Conditionals instead of max(), as in space_distance: this is a hot path.
    gx = bx - ax - size_a + 1
    other = ax - bx - size_b + 1
    if other > gx:  # noqa: PLR1730
        gx = other
    gy = by - ay - size_a + 1
    other = ay - by - size_b + 1
    if other > gy:  # noqa: PLR1730
        gy = other
    d = gx if gx > gy else gy  # noqa: FURB136
    return d if d > 0 else 0  # noqa: FURB136


@dataclass
class Squad:
    """A squad of Standard units (FB-SQUAD-01)."""

    id: str
    side: str
    type: str
    members: list[str]
    colour: str = ""
    activated: bool = False


class FBState:
    """Everything about one battle of `fantasy-battle` at one moment."""

    def __init__(self, grid: Grid, options: Options, sides: list[str], victory_points: int) -> None:
        self.grid = grid
        self.options = options
        self.sides = sides
        self.victory_points = victory_points
        self.first_player = sides[0]
        self.units: dict[str, Unit] = {}
        self.squads: dict[str, Squad] = {}
        self.occupied: dict[Square, str] = {}
        self.scores: dict[str, int] = {s: 0 for s in sides}
        self.round = 0
        self.winner: str | None = None
        self.over = False
        self.reason = ""
        self.start_areas: dict[str, set[Square]] = {}
        # Per side: (its start area, its size, the grid, its version, the area in order, its
        # open ground), kept by setup.legal_deploy_squares.
        self.deploy_ground: dict[
            str, tuple[set[Square], int, Grid, int, list[Square], set[Square]]] = {}
        self.victory_areas: list[dict[str, Any]] = []
        self.start_strength: dict[str, int] = {}
        self.turn_feats: set[str] = set()  # who used a Feat this turn (FB-FEAT-03)
        self.turn_index = 0
        self.reinforced: dict[str, dict[str, int]] = {}
        # Each side's latest unit turn: (unit id, plan kind), read only to explain refusals.
        self.last_plan: dict[str, tuple[str, str]] = {}
        # What the compiled movement searches read about the units (see unit_table).
        self._table: np.ndarray | None = None
        self._owner: np.ndarray | None = None
        self._table_rows: dict[str, int] = {}
        self.table_version = next(_TABLE_VERSIONS)
        # The groups still to activate, while a round is played (see :class:`Readiness`).
        self.readiness: Readiness | None = None
        # Answers that read only the units asked about and the places of the units whose
        # abilities reach allies (see ability_memos), per those places.
        self._memos: AbilityMemos | None = None
        self._memos_by_place: dict[tuple[Any, ...], AbilityMemos] = {}
        # combat.modifier_values' part that reads only the two units, by their fields.
        self.pair_memo: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def unit_order(self) -> dict[str, int]:
        """Each unit's position in the army lists (the order results are reported in)."""
        cached: dict[str, int] | None = getattr(self, "_order", None)
        if cached is None or len(cached) != len(self.units):
            cached = {uid: i for i, uid in enumerate(self.units)}
            self._order = cached
        return cached

    def ability_holders(self) -> list[Unit]:
        """Units with generic special abilities, in army order (abilities are fixed at setup)."""
        cached: tuple[int, list[Unit]] | None = getattr(self, "_holders", None)
        if cached is None or cached[0] != len(self.units):
            cached = (len(self.units), [u for u in self.units.values() if u.abilities])
            self._holders = cached
        return cached[1]

    def ability_memos(self) -> AbilityMemos:
        """Two dicts for answers that read only the unit asked about (by its own fields) and
        the abilities reaching it: combat.abilities_affecting's and combat.ability_bonuses';
        and the sides that have units whose abilities reach allies. They belong to the present places (anchor, status, size) of
        the units whose abilities reach allies: when one of those moves or changes, other
        dicts are handed out, and the old ones again when they are back where they were (the
        AI puts units somewhere for a look and back)."""
        memos = self._memos
        if memos is None:
            cached: tuple[int, list[Unit]] | None = getattr(self, "_reaching", None)
            if cached is None or cached[0] != len(self.units):
                cached = (len(self.units), [u for u in self.ability_holders()
                                            if any(a.affects != "self" for a in u.abilities)])
                self._reaching = cached
            place = tuple([(u.anchor, u.status, u.size) for u in cached[1]])
            by_place = self._memos_by_place
            memos = by_place.get(place)
            if memos is None:
                if len(by_place) >= 32:
                    del by_place[next(iter(by_place))]
                memos = by_place[place] = ({}, {}, frozenset(u.side for u in cached[1]))
            self._memos = memos
        return memos

    # --- the unit table ----------------------------------------------------------------
    def unit_table(self) -> np.ndarray:
        """The ``units`` array of the compiled movement searches (layout in :mod:`._kernels`):
        one row per unit in army order, kept up to date by :meth:`sync` (which every change of a
        unit's anchor, status, size, type, class or facing goes through: :meth:`place`,
        :meth:`remove`, :meth:`set_status`, :meth:`set_facing`). :attr:`table_version` changes
        with every row written."""
        table = self._table
        units = self.units
        if table is None or len(self._table_rows) != len(units):
            self._table_rows = {uid: r for r, uid in enumerate(units)}
            table = np.zeros((len(units), _kernels.UNIT_FIELDS), np.int64)
            self._table = table
            self._owner = None  # built again when next asked for (see unit_grid)
            for unit in units.values():
                self._write_row(table, unit)
        return table

    def unit_grid(self) -> np.ndarray:
        """Per padded square index (``(y + 1) * (width + 2) + x + 1``, as the compiled searches
        number squares) the :meth:`unit_table` row of the unit standing there, or -1: which
        units are near a square, without a look at the others. Built when first asked for (small
        battles never ask: their searches read every unit), then kept with the unit table."""
        table = self.unit_table()
        owner = self._owner
        if owner is None:
            grid = self.grid
            owner = self._owner = np.full((grid.width + 2) * (grid.height + 2), -1, np.int64)
            count(GEOMETRY, len(table))
            for row in np.flatnonzero(table[:, _kernels.U_ACTIVE]).tolist():
                self._own(row, int(table[row, _kernels.U_X]), int(table[row, _kernels.U_Y]),
                          int(table[row, _kernels.U_SIZE]), row)
        return owner

    def _own(self, row: int, x: int, y: int, size: int, value: int) -> None:
        """Write ``value`` into :meth:`unit_grid` under the space of ``size`` at ``(x, y)``
        (clearing, -1, only the squares still showing ``row``)."""
        owner = self._owner
        assert owner is not None
        pw = self.grid.width + 2
        for dy in range(size):
            i = (y + dy + 1) * pw + x + 1
            for k in range(i, i + size):
                if value >= 0 or owner[k] == row:
                    owner[k] = value

    def table_row(self, unit: Unit) -> int:
        """The unit's row in :meth:`unit_table` (call that first)."""
        return self._table_rows[unit.id]

    def unit_table_row(self, unit: Unit) -> tuple[np.ndarray, int]:
        """:meth:`unit_table` and the unit's row in it, in one call (every search asks)."""
        return self.unit_table(), self._table_rows[unit.id]

    def sync(self, unit: Unit) -> None:
        """Write the unit's row of the unit table again (after any change of its anchor, status,
        size, type, class or facing)."""
        if unit.abilities:
            self._memos = None  # (see ability_memos)
        table = self._table
        if table is not None:
            self._write_row(table, unit)

    def _write_row(self, table: np.ndarray, unit: Unit) -> None:
        row = self._table_rows.get(unit.id)
        if row is None:
            return  # a unit added since: the table is built again when next asked for
        self.table_version = next(_TABLE_VERSIONS)
        if self._owner is not None and table[row, _kernels.U_ACTIVE]:  # the squares held
            self._own(row, int(table[row, _kernels.U_X]), int(table[row, _kernels.U_Y]),
                      int(table[row, _kernels.U_SIZE]), -1)
        anchor = unit.anchor
        if anchor is None or unit.status != ON_MAP:
            table[row, _kernels.U_ACTIVE] = 0
            return
        facing = unit.facing
        fdx, fdy = facing if facing is not None and unit.cls == "pike" else (0, 0)
        table[row] = (1, anchor[0], anchor[1], unit.size, self.sides.index(unit.side), fdx, fdy,
                      0 if unit.type == "cavalry" else 1)
        if self._owner is not None:
            self._own(row, anchor[0], anchor[1], unit.size, row)

    def set_facing(self, unit: Unit, facing: Square | None) -> None:
        """Turn a unit (a Pike's facing; None for units without one)."""
        unit.facing = facing
        self.sync(unit)

    def set_status(self, unit: Unit, status: str) -> None:
        """Set a unit's status (on the map, defeated or in the pool)."""
        was = unit.status == ON_MAP and unit.anchor is not None
        unit.status = status
        self.sync(unit)
        readiness = self.readiness
        if readiness is not None and was != (status == ON_MAP and unit.anchor is not None):
            readiness.unit_changed(unit, not was)

    # --- placement -----------------------------------------------------------------------
    def squares_of(self, unit: Unit) -> tuple[Square, ...]:
        """The unit's space (empty when it is not on the map)."""
        if unit.anchor is None or unit.status != ON_MAP:
            return ()
        return footprint(unit.anchor, unit.size)

    def place(self, unit: Unit, anchor: Square | None) -> None:
        """Move a unit's space to ``anchor`` (None lifts it off the map)."""
        occupied = self.occupied
        uid = unit.id
        old = unit.anchor
        if unit.abilities:
            self._memos = None  # (see ability_memos)
        on_map = unit.status == ON_MAP
        # A 1x1 space is its anchor: no footprint to build (the AI moves units to and fro).
        single = unit.size == 1
        if old is not None and on_map:
            if single:
                if occupied.get(old) == uid:
                    del occupied[old]
            else:
                for sq in footprint(old, unit.size):
                    if occupied.get(sq) == uid:
                        del occupied[sq]
        unit.anchor = anchor
        if anchor is not None and on_map:
            if single:
                occupied[anchor] = uid
            else:
                for sq in footprint(anchor, unit.size):
                    occupied[sq] = uid
        readiness = self.readiness
        if readiness is not None and on_map and (old is None) != (anchor is None):
            readiness.unit_changed(unit, anchor is not None)
        table = self._table
        if table is None:
            return
        row = self._table_rows.get(uid)
        if row is not None and old is not None and anchor is not None and on_map:
            # A step on the map (the hot case) changes only the anchor in the unit's row.
            self.table_version = next(_TABLE_VERSIONS)
            table[row, _kernels.U_X] = anchor[0]
            table[row, _kernels.U_Y] = anchor[1]
            owner = self._owner
            if owner is None:
                return  # not asked for yet
            if single:  # _own, inlined for the common 1x1 step
                pw = self.grid.width + 2
                here = (old[1] + 1) * pw + old[0] + 1
                if owner[here] == row:
                    owner[here] = -1
                owner[(anchor[1] + 1) * pw + anchor[0] + 1] = row
            else:
                self._own(row, old[0], old[1], unit.size, -1)
                self._own(row, anchor[0], anchor[1], unit.size, row)
        else:
            self._write_row(table, unit)

    def remove(self, unit: Unit, status: str) -> None:
        """Take a unit off the map with the given status (defeated or in the pool)."""
        self.place(unit, None)
        self.set_status(unit, status)

    def terrain(self, sq: Square) -> TerrainKind:
        """The terrain kind of a square."""
        return TERRAIN[self.grid.terrain(sq)]

    def level_of(self, unit: Unit) -> int:
        """The level a unit stands on; slope counts as ground (FB-AMB-46)."""
        assert unit.anchor is not None
        return self.square_level(unit.anchor)

    def square_level(self, sq: Square) -> int:
        """Level of a square for adjacency: slope counts as ground level."""
        grid = self.grid
        x, y = sq
        if 0 <= x < grid.width and 0 <= y < grid.height:  # Grid.terrain/level, inlined (hot)
            i = y * grid.width + x
            return 0 if grid._terrain[i] == "slope" else grid._level[i]
        return grid.level(sq)  # raises the grid's own error

    # --- relations -----------------------------------------------------------------------
    def distance(self, a: Unit, b: Unit) -> int:
        """Chebyshev distance between two spaces (FB-AMB-01)."""
        pa = a.anchor
        pb = b.anchor
        if pa is None or pb is None or a.status != ON_MAP or b.status != ON_MAP:
            return space_distance(self.squares_of(a), self.squares_of(b))
        return _box_gap(pa, a.size, pb, b.size)

    def adjacent(self, a: Unit, b: Unit) -> bool:
        """Adjacent: touching spaces on the same level (FB-AMB-01, FB-TERRAIN-07)."""
        pa = a.anchor
        pb = b.anchor
        if pa is None or pb is None or a.status != ON_MAP or b.status != ON_MAP or a.id == b.id:
            return False
        if _box_gap(pa, a.size, pb, b.size) != 1:
            return False
        return self.square_level(pa) == self.square_level(pb)

    def enemies(self, side: str) -> list[Unit]:
        """Enemy units on the map."""
        return [u for u in self.units.values() if u.side != side and u.on_map]

    def friends(self, side: str) -> list[Unit]:
        """Friendly units on the map."""
        return [u for u in self.units.values() if u.side == side and u.on_map]

    def enemies_within(self, unit: Unit, reach: int) -> list[Unit]:
        """Enemy units on the map at most ``reach`` from ``unit`` (:meth:`distance`), in army
        order; ``unit`` must be on the map."""
        pa = unit.anchor
        assert pa is not None
        size = unit.size
        side = unit.side
        return [e for e in self.units.values()
                if e.side != side and e.status == ON_MAP and e.anchor is not None
                and _box_gap(pa, size, e.anchor, e.size) <= reach]

    def adjacent_enemies(self, unit: Unit) -> list[Unit]:
        """Enemies adjacent to ``unit``."""
        return [e for e in self.enemies(unit.side) if self.adjacent(unit, e)]

    def other_side(self, side: str) -> str:
        """The opposing side's name."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def in_front_arc(self, pike: Unit, squares: tuple[Square, ...]) -> bool:
        """Whether any of ``squares`` lies in the Pike's front arc (FB-PIKE-01, FB-AMB-03)."""
        from warhost.geometry.grid import facing_arc

        if not pike.has_facing or pike.facing is None or pike.anchor is None:
            return False
        arc = facing_arc(pike.anchor, pike.facing)
        return any(sq in arc for sq in squares)

    # --- activations ----------------------------------------------------------------------
    def activation_groups(self, side: str, *, ready: bool = False) -> list[str]:
        """Squads with a member on the map, and Elite/Champion units on the map (FB-AMB-10);
        with ``ready`` only those not activated yet this round."""
        units = self.units
        groups = []
        for squad in self.squads.values():
            if squad.side != side or (ready and squad.activated):
                continue
            for member in squad.members:
                unit = units[member]
                if unit.status == ON_MAP and unit.anchor is not None:  # on_map, inlined (hot)
                    groups.append(squad.id)
                    break
        for unit in units.values():
            if (unit.squad is None and unit.side == side and unit.status == ON_MAP
                    and unit.anchor is not None and not (ready and unit.activated)):
                groups.append(unit.id)
        return groups

    def start_readiness(self) -> Readiness:
        """Keep track of the groups still to activate (at the start of a round, every unit and
        squad not activated yet); :meth:`activation_groups` with ``ready`` without a scan."""
        self.readiness = Readiness(self)
        return self.readiness

    # --- serialisation --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as plain data."""
        return {
            "round": self.round,
            "first_player": self.first_player,
            "scores": dict(self.scores),
            "winner": self.winner,
            "over": self.over,
            "victory_points": self.victory_points,
            "grid": self.grid.to_dict(),
            "units": {uid: asdict(u) for uid, u in self.units.items()},
            "squads": {sid: asdict(s) for sid, s in self.squads.items()},
            "options": self.options.model_dump(),
        }

    def copy(self) -> FBState:
        """A deep copy, for look-ahead and undo."""
        return copy.deepcopy(self)


class Readiness:
    """Each side's activation groups (FB-AMB-10) in :meth:`FBState.activation_groups` order,
    and which of them are ready (a member on the map, not activated yet): kept up to date by the
    state when a unit enters or leaves the map and by the game loop when a group activates, so
    a turn needs no scan of the army. Squads and squad membership must not change meanwhile
    (they change only between rounds)."""

    def __init__(self, state: FBState) -> None:
        units = state.units
        self.groups: dict[str, list[str]] = {side: [] for side in state.sides}
        self.position: dict[str, int] = {}
        self.member_of: dict[str, str] = {}
        self.present: dict[str, int] = {}
        self.squads: dict[str, Squad] = {}
        ready: dict[str, list[int]] = {side: [] for side in state.sides}
        for squad in state.squads.values():
            groups = self.groups[squad.side]
            self.squads[squad.id] = squad
            self.position[squad.id] = len(groups)
            present = 0
            for member in squad.members:
                self.member_of[member] = squad.id
                unit = units[member]
                if unit.status == ON_MAP and unit.anchor is not None:
                    present += 1
            self.present[squad.id] = present
            if present and not squad.activated:
                ready[squad.side].append(len(groups))
            groups.append(squad.id)
        self.solo: dict[str, Unit] = {}
        for unit in units.values():
            if unit.squad is None:
                groups = self.groups[unit.side]
                self.solo[unit.id] = unit
                self.position[unit.id] = len(groups)
                if unit.status == ON_MAP and unit.anchor is not None and not unit.activated:
                    ready[unit.side].append(len(groups))
                groups.append(unit.id)
        self.sets = {side: RankSet(len(self.groups[side]), ready[side]) for side in state.sides}
        count(GEOMETRY, len(units))  # one look at every unit a round

    def count(self, side: str) -> int:
        """How many groups of ``side`` are ready."""
        return self.sets[side].total

    def group(self, side: str, index: int) -> str:
        """The ``index``-th ready group of ``side`` (in :meth:`FBState.activation_groups`
        order)."""
        return self.groups[side][self.sets[side].kth(index)]

    def ready(self, side: str) -> list[str]:
        """The ready groups of ``side``, in order."""
        return self.sets[side].select(self.groups[side])

    def activated(self, side: str, gid: str) -> None:
        """Group ``gid`` has been activated: no longer ready."""
        self.sets[side].discard(self.position[gid])

    def unit_changed(self, unit: Unit, on_map: bool) -> None:
        """``unit`` has entered (``on_map``) or left the map."""
        sid = self.member_of.get(unit.id)
        if sid is not None:
            present = self.present[sid] + (1 if on_map else -1)
            self.present[sid] = present
            squad = self.squads[sid]
            flags = self.sets[squad.side]
            if present > 0 and not squad.activated:
                flags.add(self.position[sid])
            else:
                flags.discard(self.position[sid])
        if unit.id in self.solo:
            flags = self.sets[unit.side]
            if on_map and not unit.activated:
                flags.add(self.position[unit.id])
            else:
                flags.discard(self.position[unit.id])
