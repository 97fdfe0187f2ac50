"""The battle state of `dnd4e-war`: units of companies on trays (or loose skirmishers), where
they stand, what they have done this turn, and who is fighting whom.

A unit of companies is placed by the middle of its front edge (``front``) and its
``facing``; its companies stand ``files`` to a rank, corner to corner, the rear rank (the
only one that may be short, W4-UNIT-09) centred behind the others as far as corner-to-corner
alignment allows (W4-UNIT-08/10). The command company stands in the middle of the front
rank (W4-CMD-02). Skirmishers and lone models have a centre point per model.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from warhost.core.metering import GEOMETRY, count
from warhost.geometry.table import Board, Point, Region, Tray, tray_gap
from warhost.rulesets.dnd4e_war.model import MachineSpec, Options, Power, Profile
from warhost.rulesets.dnd4e_war.tables import SIZE_BASE, unit_strength

_PLACEMENT = frozenset({"front", "facing", "points", "files"})
"""Fields whose change moves a unit's trays (lists are replaced, never edited in place)."""

PASSED_ON = frozenset({"fearless", "immune_to_psychology", "stubborn", "fear", "terror"})
"""W4-CHAR-21/22: the rules a joined character gives the whole unit he is in."""

CELL = 8.0
"""Side of the squares of the index of where units stand, in inches."""

CONTACT = 1e-6
"""Trays this close (inches) are in base-to-base contact."""


@dataclass
class Ground:
    """A terrain piece as the rules see it."""

    name: str
    region: Region
    height: int = 0
    blocks_sight: bool = False
    cover: str = "none"
    concealment: str = "none"
    barrier: bool = False


@dataclass
class Character:
    """A character (W4-CHAR-01): what he is and has beyond his own one-model unit
    (``WarState.units[id]``, which stands on the table while he is alone)."""

    id: str
    name: str
    side: str
    character_class: str | None
    level: int
    hp: int
    action_points: int
    """W4-AP-12: what is left of the battle's pool."""
    general: bool = False
    host: str | None = None
    """The unit he is in (None: alone, or slain)."""
    wounds: int = 0
    """Hit point damage taken (W4-CAS-10)."""
    slain: bool = False
    at_rear: bool = False
    """W4-CHAL-06/07: sent to the rear by a declined challenge until the end of the turn."""
    ap_round: int = 0
    """W4-AP-10: the turn in which he last spent a point on an extra action or acting first."""
    expended: set[str] = field(default_factory=set)
    """W4-RECH-01: names of the encounter powers he has used and not regained."""
    dailies: set[str] = field(default_factory=set)
    """W4-DEC-33: names of the daily powers he has used (once a battle)."""
    options: dict[str, Any] = field(default_factory=dict)
    """W4-DEC-32 class choices from his scenario entry (fighting style, oath target, ...)."""
    mount_hp: int = 0
    """W4-MONSTER-07/08: his monstrous mount's hit points (0: no mount of its own)."""
    mount_wounds: int = 0
    mount_defenses: Any = None
    """The mount's :class:`~warhost.rulesets.dnd4e_war.model.Defenses`."""

    @property
    def mounted(self) -> bool:
        """He rides a monstrous mount that has its own hit points and still lives."""
        return self.mount_hp > 0 and self.mount_wounds < self.mount_hp

    @property
    def hp_left(self) -> int:
        """Hit points left."""
        return max(0, self.hp - self.wounds)


@dataclass
class Machine:
    """A war machine (W4-WM-01/02): where it stands, its state, and the crew unit working it
    (None once abandoned, W4-WM-14/16)."""

    id: str
    side: str
    spec: MachineSpec
    at: Point
    facing: float
    start_crew: int
    """W4-WM-05: the crew it started with (or the crew that took it over, W4-WM-15)."""
    crew: str | None
    loaded: bool = True
    """W4-AMB-61: machines start loaded."""
    disabled: bool = False
    disabled_turn: int = 0
    """W4-AMB-66: the turn it was disabled (repairs come in a later Shooting phase)."""
    destroyed: bool = False

    @property
    def kind(self) -> str:
        """``bolt_thrower`` or ``stone_thrower``."""
        return self.spec.kind


@dataclass
class Unit:
    """One unit: its profile, its models and where they stand, and its turn so far."""

    id: str
    name: str
    side: str
    profile: Profile
    skirmish: bool
    company_size: int
    columns: int
    rows: int
    base: float
    companies: list[int]
    """Models alive in each company, in slot order (front rank left to right, then the next
    rank); skirmishers: one entry per model, each 1."""
    files: int
    front: Point
    facing: float
    points: list[Point] = field(default_factory=list)
    """Skirmishers: the centre of each model, in the order of :attr:`companies`."""
    command_slot: int | None = None
    captain: str | None = None
    captain_attacks: int = 1
    captain_level: int | None = None
    """W4-COUR-06: the captain's own level (None: the profile's level)."""
    action_points: int = 0
    standard: bool = False
    battle_standard: bool = False
    musician: bool = False
    start_models: int = 0
    character: Character | None = None
    """Set on a character's own one-model unit."""
    joined: list[str] = field(default_factory=list)
    """W4-CHAR-03/04: ids of the characters inside this unit (their figures are counted in
    :attr:`companies`, standing at the front of the command company)."""
    inside: str | None = None
    """A character's unit while he is inside another unit: that unit's id (off the table)."""
    machine: Machine | None = None
    """W4-WM-02: the war machine this crew works (None: none, or abandoned)."""
    members: list[Profile] = field(default_factory=list)
    """W4-CHAR-05/20 to 22: the profiles of the joined characters (kept by
    ``characters.join``/``leave``), for Speed, courage and the rules they pass on."""
    members_strength: int = 0
    """W4-STR-01/08: the joined characters' unit strength."""
    own_strength: int | None = None
    """A character's own unit: his unit strength alone (W4-STR-04/05)."""
    char_slot: int | None = None
    """W4-CHAR-19: the company whose front the joined characters moved to (None: the command
    company, W4-CHAR-04)."""
    items: list[str] = field(default_factory=list)
    """W4-ITEM-02/06: the army magic items (and battle banner) the unit carries."""
    item_attack: int = 0
    """W4-ITEM-03: +2 to the attack rolls of the item bearer (a front-rank model) only."""
    item_defense: int = 0
    """W4-ITEM-03: +2 to the defenses of the item bearer only."""
    # status
    fleeing: bool = False
    ran: bool = False
    destroyed: bool = False
    prone: int = 0
    """W4-MOVE-22: models lying prone (the unit crawls at half Speed while any are)."""
    conditions: set[str] = field(default_factory=set)
    ongoing: int = 0
    """W4-CAS-11 to 13: ongoing damage on the unit (0 none) until a save ends it."""
    weakened: int = 0
    """W4-CAS-13: minions whose resilience ongoing damage cut by 1 until the end of the turn."""
    wounds: int = 0
    """W4-AMB-53: damage on the non-minion model that takes the next hit."""
    # this turn (reset by :meth:`new_turn`)
    standard_used: bool = False
    move_used: bool = False
    minor_used: bool = False
    moved: float = 0.0
    shot: bool = False
    charged: bool = False
    charge_bonus: bool = False
    reformed: bool = False
    rallied: bool = False
    fled_this_turn: bool = False
    double_moved: bool = False
    casualties_this_turn: int = 0

    watch: set[str] | None = field(default=None, repr=False, compare=False)
    """The owning state's set of units that moved since it last indexed them."""

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in _PLACEMENT:
            watch = getattr(self, "watch", None)
            if watch is not None:
                watch.add(self.id)

    # ------------------------------------------------------------------ models
    @property
    def models(self) -> int:
        """Models alive (captain included)."""
        return sum(self.companies)

    @property
    def alive(self) -> bool:
        """On the table and not destroyed (a character inside a unit is not on the table as
        a unit of his own)."""
        return not self.destroyed and self.inside is None and self.models > 0

    @property
    def normal_models(self) -> int:
        """Models alive other than joined characters."""
        return self.models - len(self.joined)

    @property
    def tray_width(self) -> float:
        """One company's tray across its front, in inches."""
        return self.columns * self.base

    @property
    def tray_depth(self) -> float:
        """One company's tray from front to back, in inches."""
        return self.rows * self.base

    @property
    def is_monster(self) -> bool:
        """W4-MONSTER-01."""
        return self.profile.monster

    @property
    def lone(self) -> bool:
        """A single model on its own (W4-MONSTER-04/05)."""
        return self.skirmish and self.models == 1

    @property
    def has_flanks(self) -> bool:
        """Companies have flank and rear arcs; skirmishers and lone monsters do not
        (W4-UNIT-04, W4-SKIRM-08, W4-MONSTER-04)."""
        return not self.skirmish

    def rule(self, name: str) -> bool:
        """True when the unit's profile has special rule ``name``, or a joined character
        passes it on (W4-CHAR-21/22, W4-AMB-83)."""
        if name in self.profile.rules:
            return True
        return bool(self.members) and name in PASSED_ON and any(
            name in p.rules for p in self.members)

    # ------------------------------------------------------------------ layout
    @property
    def ranks(self) -> int:
        """Ranks of companies."""
        return -(-len(self.companies) // self.files) if self.companies else 0

    def slot_offset(self, slot: int) -> tuple[float, float]:
        """Centre of company ``slot`` as ``(right, forward)`` from the unit's front centre."""
        files = min(self.files, len(self.companies))
        rank, file = divmod(slot, files)
        in_rank = min(files, len(self.companies) - rank * files)
        shift = (files - in_rank) // 2  # a short rear rank stands centred, corner to corner
        right = (file + shift + 0.5) * self.tray_width - files * self.tray_width / 2.0
        return right, -(rank + 0.5) * self.tray_depth

    def frame(self) -> Tray:
        """The whole unit as one rectangle: front rank wide, all ranks deep (skirmishers: the
        smallest square around the models, facing the unit's way)."""
        if self.skirmish:
            return _skirmish_frame(self)
        files = min(self.files, len(self.companies)) or 1
        width, depth = files * self.tray_width, max(1, self.ranks) * self.tray_depth
        probe = Tray(self.front, self.facing, width, 0.0)
        return Tray(probe.to_world(0.0, -depth / 2.0), self.facing, width, depth)

    def trays(self) -> list[Tray]:
        """Each company's tray (skirmishers: each model's base), in slot order."""
        if self.skirmish:
            return [Tray(p, self.facing, self.base, self.base) for p in self.points]
        anchor = Tray(self.front, self.facing, 0.0, 0.0)
        return [Tray(anchor.to_world(*self.slot_offset(s)), self.facing, self.tray_width,
                     self.tray_depth) for s in range(len(self.companies))]

    def placement(self) -> tuple[Any, ...]:
        """Everything where its trays stand depends on: equal placements, equal trays."""
        return (self.front, self.facing, self.files, len(self.companies),
                tuple(self.points) if self.skirmish else ())

    def front_row(self, slot: int) -> int:
        """W4-AMB-05: models in the front row of company ``slot`` (the front fills first)."""
        return min(self.companies[slot], self.columns)

    def row_models(self, slot: int, row: int) -> int:
        """Models in row ``row`` (0 = front) of company ``slot``."""
        return max(0, min(self.columns, self.companies[slot] - row * self.columns))

    def command_figures(self) -> list[str]:
        """The figures that stand at the front of the command company, first to last: joined
        characters (W4-CHAR-04), then the captain, standard bearer and musician."""
        named = [("captain", self.captain is not None), ("standard", self.standard),
                 ("musician", self.musician)]
        return [*self.joined, *(name for name, here in named if here)]

    def command_places(self) -> dict[str, tuple[int, int]]:
        """W4-CMD-03/04: where each command figure stands, as (company slot, row): the front
        row of the command company, those that do not fit in the front row of the next
        company of the front rank; once the command company is the only one left, in its
        back rows instead."""
        home = self.command_slot
        if home is None or self.skirmish:
            return {}
        places: dict[str, tuple[int, int]] = {}
        front = [s for s in range(min(self.files, len(self.companies))) if s != home]
        spots = [(home, 0)] * self.columns
        if front:
            for slot in sorted(front, key=lambda s: abs(s - home)):
                spots += [(slot, 0)] * self.columns
        else:
            spots += [(home, row) for row in range(1, self.rows) for _ in range(self.columns)]
        for name, spot in zip(self.command_figures(), spots, strict=False):
            places[name] = spot
        return places

    # ------------------------------------------------------------------ numbers
    def speed(self) -> float:
        """W4-MOVE-04/22, W4-AMB-57: the slowest member's Speed, halved while any crawl."""
        speed = float(self.profile.speed)
        if self.members:
            speed = min(speed, *(float(p.speed) for p in self.members))
        if self.machine is not None and self.machine.start_crew > 0:
            # W4-WM-05: in proportion to the crew left (joined characters count as crew)
            speed *= min(1.0, self.models / self.machine.start_crew)
        return speed / 2.0 if self.prone else speed

    def model_strength(self) -> int:
        """W4-STR-02/03: one ordinary model's unit strength (cavalry: its mount's)."""
        p = self.profile
        if p.cavalry:
            return unit_strength(p.mount_size or "large", p.mount_monster)
        return unit_strength(p.size, p.monster)

    def strength(self) -> int:
        """W4-STR-01: the sum over every model alive, joined characters at their own
        strength (W4-STR-08); a lone character his own (W4-STR-05)."""
        if self.own_strength is not None:
            return self.own_strength if self.models else 0
        return self.normal_models * self.model_strength() + self.members_strength

    def full_company(self) -> int:
        """Models in one full company (skirmishers count 4, W4-SHOOT-22)."""
        return 4 if self.skirmish else self.company_size

    def new_turn(self) -> None:
        """Forget last turn's actions (W4-AMB-06); ``ran`` lasts until now (W4-AMB-07)."""
        self.standard_used = self.move_used = self.minor_used = False
        self.moved = 0.0
        self.shot = self.charged = self.charge_bonus = self.reformed = False
        self.rallied = self.fled_this_turn = self.double_moved = False
        self.ran = False
        self.casualties_this_turn = 0
        self.weakened = 0

    def powers(self, *kinds: str) -> list[Power]:
        """The profile's powers of the given kinds (all when none given)."""
        return [p for p in self.profile.powers if not kinds or p.kind in kinds]

    def label(self) -> str:
        """How narration names the unit."""
        return self.name


def _skirmish_frame(unit: Unit) -> Tray:
    xs = [p[0] for p in unit.points] or [unit.front[0]]
    ys = [p[1] for p in unit.points] or [unit.front[1]]
    half = unit.base / 2.0
    width = max(xs) - min(xs) + unit.base
    depth = max(ys) - min(ys) + unit.base
    return Tray(((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0), 0.0,
                max(width, 2 * half), max(depth, 2 * half))


def base_of(profile: Profile) -> float:
    """W4-AMB-04: the profile's base width in inches."""
    return profile.base if profile.base is not None else SIZE_BASE[profile.size]


@dataclass
class WarState:
    """Everything about one battle of `dnd4e-war`."""

    board: Board
    options: Options
    sides: list[str]
    units: dict[str, Unit]
    ground: list[Ground] = field(default_factory=list)
    turn: int = 0
    phase: str = "setup"
    initiative: str | None = None
    characters: dict[str, Character] = field(default_factory=dict)
    """Every character of the battle, by id (W4-CHAR-01)."""
    machines: dict[str, Machine] = field(default_factory=dict)
    """Every war machine of the battle, by id, crewed or abandoned (W4-WM-01)."""
    engaged: dict[str, set[str]] = field(default_factory=dict)
    """Who is in close combat with whom (both directions), kept by :meth:`engage` and
    :meth:`disengage` as charges land and units die or flee."""
    panic_tested: set[str] = field(default_factory=set)
    """W4-PANIC-06: units that took a panic test this phase."""
    shooting_losses: dict[str, dict[str, int]] = field(default_factory=dict)
    """W4-SHOOT-22, W4-AMB-20: this phase's shooting casualties, target -> shooter -> count."""
    pursuit_pending: dict[str, str] = field(default_factory=dict)
    """W4-AMB-19: pursuers in contact whose charge attacks wait for the next Charge phase."""
    over: bool = False
    winner: str | None = None
    end_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set, repr=False)
    """Units whose placement changed since :meth:`units_near` last indexed them."""
    _cells: dict[tuple[int, int], set[str]] = field(default_factory=dict, repr=False)
    _cells_of: dict[str, list[tuple[int, int]]] = field(default_factory=dict, repr=False)
    _rank: dict[str, int] = field(default_factory=dict, repr=False)
    _order: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._order = list(self.units)
        self._rank = {uid: i for i, uid in enumerate(self._order)}
        for unit in self.units.values():
            unit.watch = self.moved
        self.moved.update(self.units)
        for unit in self.units.values():
            if unit.machine is not None and unit.machine.id not in self.machines:
                self.machines[unit.machine.id] = unit.machine

    def units_near(self, unit: Unit, reach: float) -> list[Unit]:
        """Living units (``unit`` aside) whose trays may lie within ``reach`` inches of the
        unit's, in scenario order: a superset found through a grid of where units stand,
        kept up to date as units move, so the work does not grow with the army."""
        self._reindex()
        x0, y0, x1, y1 = _bounds(unit)
        found: set[str] = set()
        for cell in _cells_over(x0 - reach, y0 - reach, x1 + reach, y1 + reach):
            found |= self._cells.get(cell, set())
        count(GEOMETRY, len(found))
        near = sorted(self._rank[uid] for uid in found if uid != unit.id)
        ids = list(self.units)
        return [u for u in (self.units[ids[i]] for i in near) if u.alive]

    def _reindex(self) -> None:
        for uid in self.moved:
            for cell in self._cells_of.pop(uid, []):
                self._cells[cell].discard(uid)
            cells = _cells_over(*_bounds(self.units[uid]))
            self._cells_of[uid] = cells
            for cell in cells:
                self._cells.setdefault(cell, set()).add(uid)
        self.moved.clear()

    def general(self, side: str) -> Character | None:
        """W4-GEN-01: the side's general while he lives."""
        for c in self.characters.values():
            if c.side == side and c.general and not c.slain:
                return c
        return None

    def characters_in(self, unit: Unit) -> list[Character]:
        """The characters inside ``unit`` (W4-CHAR-03)."""
        return [self.characters[c] for c in unit.joined]

    def units_of(self, side: str) -> Iterator[Unit]:
        """Living units of ``side``, in scenario order."""
        return (u for u in self.units.values() if u.side == side and u.alive)

    def enemies_of(self, unit: Unit) -> Iterator[Unit]:
        """Living units of the other side."""
        return (u for u in self.units.values() if u.side != unit.side and u.alive)

    def other(self, side: str) -> str:
        """The opposing side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def order_of_sides(self) -> list[str]:
        """The side with the initiative first (W4-TURN-03 to 06)."""
        first = self.initiative or self.sides[0]
        return [first, self.other(first)]

    def engage(self, a: str, b: str) -> None:
        """Mark ``a`` and ``b`` as fighting each other."""
        self.engaged.setdefault(a, set()).add(b)
        self.engaged.setdefault(b, set()).add(a)

    def disengage(self, uid: str) -> None:
        """``uid`` leaves every fight (it fled, died or broke contact)."""
        for other in self.engaged.pop(uid, set()):
            foes = self.engaged.get(other)
            if foes is not None:
                foes.discard(uid)
                if not foes:
                    del self.engaged[other]

    def foes_of(self, uid: str) -> list[Unit]:
        """The living units ``uid`` is in close combat with."""
        return [self.units[o] for o in sorted(self.engaged.get(uid, ())) if self.units[o].alive]

    def is_engaged(self, uid: str) -> bool:
        """True while ``uid`` is in close combat."""
        return bool(self.engaged.get(uid))

    def gap(self, a: Unit, b: Unit) -> float:
        """W4-MEAS-03: closest distance between the two units' trays (or bases)."""
        mine, theirs = a.trays(), b.trays()
        if not mine or not theirs:
            raise ValueError("a unit with no trays has no gap")
        # The exact minimum, skipping pairs whose centres are too far apart to beat it.
        radii = [math.hypot(t.width, t.depth) / 2.0 for t in theirs]
        best = math.inf
        for s in mine:
            (sx, sy), rs = s.centre, math.hypot(s.width, s.depth) / 2.0
            for t, rt in zip(theirs, radii, strict=True):
                if math.hypot(t.centre[0] - sx, t.centre[1] - sy) - rs - rt > best + 1e-6:
                    continue
                best = min(best, tray_gap(s, t))
        return best

    def fights(self) -> list[list[str]]:
        """The close combats: groups of units linked by engagement, each sorted, in order of
        their first unit's id."""
        seen: set[str] = set()
        groups: list[list[str]] = []
        for uid in sorted(self.engaged):
            if uid in seen or not self.units[uid].alive:
                continue
            group, stack = set(), [uid]
            while stack:
                u = stack.pop()
                if u in group:
                    continue
                group.add(u)
                stack.extend(o for o in self.engaged.get(u, ()) if self.units[o].alive)
            seen |= group
            groups.append(sorted(group))
        return groups

    def to_json(self) -> dict[str, Any]:
        """Plain data of the state."""
        return {
            "turn": self.turn, "phase": self.phase, "sides": self.sides,
            "initiative": self.initiative,
            "units": [
                {"id": u.id, "side": u.side, "name": u.name, "companies": list(u.companies),
                 "files": u.files, "front": [round(u.front[0], 3), round(u.front[1], 3)],
                 "facing": round(u.facing, 3),
                 "points": [[round(x, 3), round(y, 3)] for x, y in u.points],
                 "fleeing": u.fleeing, "destroyed": u.destroyed}
                for u in self.units.values()
            ],
            "engaged": {k: sorted(v) for k, v in sorted(self.engaged.items())},
            "over": self.over, "winner": self.winner, "reason": self.end_reason,
            **({"machines": [
                {"id": m.id, "side": m.side, "kind": m.kind, "crew": m.crew,
                 "at": [round(m.at[0], 3), round(m.at[1], 3)], "facing": round(m.facing, 3),
                 "loaded": m.loaded, "disabled": m.disabled, "destroyed": m.destroyed}
                for m in self.machines.values()]} if self.machines else {}),
        }

    def elevation(self, unit: Unit) -> int:
        """W4-AMB-32: the highest ground under the majority of the unit's footprint."""
        if not any(g.height for g in self.ground):
            return 0
        shape = unit.frame().polygon
        area = shape.area or 1.0
        best = 0
        for g in self.ground:
            if g.height > best and g.region.polygon.intersection(shape).area > area / 2.0:
                best = g.height
        return best



def _bounds(unit: Unit) -> tuple[float, float, float, float]:
    xs = [x for t in unit.trays() for x, _ in t.corners()] or [unit.front[0]]
    ys = [y for t in unit.trays() for _, y in t.corners()] or [unit.front[1]]
    return min(xs), min(ys), max(xs), max(ys)


def _cells_over(x0: float, y0: float, x1: float, y1: float) -> list[tuple[int, int]]:
    return [(i, j) for i in range(math.floor(x0 / CELL), math.floor(x1 / CELL) + 1)
            for j in range(math.floor(y0 / CELL), math.floor(y1 / CELL) + 1)]
