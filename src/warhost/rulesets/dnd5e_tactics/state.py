"""The battle state of `dnd5e-tactics`: plain data, plus the few queries every module needs.

Bodies on the table are units (a block of members with a commander) and Single Characters.
Both have a footprint (:mod:`warhost.geometry.table`), a side and an initiative value. A
commander, and a Single Character's own body, are :class:`Character` records.

Distances on the table are inches; stat blocks keep feet (``feet / 10`` gives inches).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from shapely.geometry import Polygon

from warhost.core.decisions import Refusal
from warhost.geometry.table import (
    Board,
    Formation,
    Ground,
    Region,
    formation,
    formation_outline,
    single_footprint,
)
from warhost.rulesets.dnd5e_tactics.model import (
    AreaSpec,
    AttackSpec,
    Dnd5eTacticsScenario,
    Options,
    StatBlock,
)
from warhost.rulesets.dnd5e_tactics.spatial import MARGIN, Placement, box_gap
from warhost.rulesets.dnd5e_tactics.tables import (
    STANCE_AC,
    STANCE_ATTACKERS,
    STANCE_MORALE,
    TrackCell,
    track_cell,
)

Point = tuple[float, float]

ACTIVE = "active"
ROUTED = "routed"
DESTROYED = "destroyed"
SLAIN = "slain"  # a Single Character at 0 hit points

PLACING = frozenset({"centre", "facing", "stance", "members", "status"})
"""Fields whose change moves, reshapes or removes a footprint: setting one tells the battle's
:class:`~warhost.rulesets.dnd5e_tactics.spatial.Placement` to re-file the body."""

PITCH = {"close": 0.5, "open": 1.0}
"""Centre-to-centre spacing of members in inches (T5-AMB-09)."""


def feet(value: float) -> float:
    """Feet to table inches (T5-SETUP-02: 1 in = 10 ft)."""
    return value / 10.0


def save_bonus(stats: StatBlock, ability: str) -> int:
    """A stat block's saving throw bonus; an unlisted save is +0, an unlisted DEX save the DEX
    modifier."""
    if ability in stats.saves:
        return stats.saves[ability]  # type: ignore[index]
    return stats.dex if ability == "dex" else 0


def melee_reach(stats: StatBlock) -> float:
    """The longest melee reach of a stat block (and its mount), in inches; 5 ft by default."""
    reaches = [a.reach for a in stats.attacks if a.kind == "melee"]
    if stats.mount is not None:
        reaches += [a.reach for a in stats.mount.attacks if a.kind == "melee"]
    return feet(max(reaches, default=5))


def speed_of(stats: StatBlock) -> int:
    """Feet per round: a mounted character moves at its mount's speed (T5-AMB-29)."""
    return stats.mount.speed if stats.mount is not None else stats.speed


def attack_named(stats: StatBlock, name: str) -> AttackSpec | None:
    """The stat block's (or its mount's) attack called ``name``."""
    pool = list(stats.attacks) + (list(stats.mount.attacks) if stats.mount else [])
    return next((a for a in pool if a.name == name), None)


@dataclass(slots=True)
class Character:
    """One named character: a unit's commander or a Single Character's own record."""

    stats: StatBlock
    hp: int
    alive: bool = True
    duel: str | None = None
    """Body id of the duel opponent (the enemy unit whose commander it duels, or a Single)."""
    reaction_used: bool = False
    uses: dict[str, int] = field(default_factory=dict)
    """Uses left of limited areas and heals, by name."""
    dying: bool = False
    death_successes: int = 0
    death_failures: int = 0
    called_out_this_turn: bool = False

    @property
    def name(self) -> str:
        """The character's name from its card."""
        return self.stats.name

    def to_json(self) -> dict[str, Any]:
        """Plain data (the stat block is in the scenario)."""
        return {
            "name": self.name, "hp": self.hp, "alive": self.alive, "duel": self.duel,
            "dying": self.dying, "uses": dict(self.uses),
        }


@dataclass(slots=True, eq=False)
class Unit:
    """A block of identical members and its commander."""

    id: str
    side: str
    name: str
    member: StatBlock
    member_hp: int
    start_members: int
    members: int
    stance: str
    track: str
    centre: Point
    facing: float
    commander: Character
    initiative: int
    edge: str
    files: int
    rank: int = 0
    rank_at_round_start: int = 0
    tdr: int = 0
    status: str = ACTIVE
    reaction_used: bool = False
    disengaged: bool = False
    dodging: bool = False
    three_quarter_cover: bool = False
    disadvantage_round: int | None = None
    """The round in which a lingering area effect gives this unit disadvantage (T5-AREA-06)."""
    fled: bool = False
    """Fled in the current End of Round."""
    casualties: int = 0
    """Members killed in the current End of Round's casualty step (T5-AMB-40)."""
    uses: dict[str, int] = field(default_factory=dict)
    """Uses left of the members' limited area effects, shared by the unit, by name."""
    _shape: Formation | None = None
    _outline: tuple[Point, float, str, int, Polygon] | None = None
    _reach: tuple[StatBlock, float] | None = None
    _watch: set[Any] | None = None
    """The dirty set of the placement index watching this body (None: not watched)."""

    kind = "unit"

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in PLACING:
            _changed(self)

    @property
    def on_table(self) -> bool:
        """Still in the battle."""
        return self.status == ACTIVE

    @property
    def formation(self) -> Formation:
        """Members laid out by stance around the centre (T5-AMB-09); re-formed when it changes."""
        shape = self._shape
        if (
            shape is None
            or shape.centre != self.centre
            or shape.facing != self.facing
            or shape.pitch != PITCH[self.stance]
            or len(shape.member_points) != self.members
        ):
            shape = formation(self.members, self.files, PITCH[self.stance], self.centre, self.facing)
            self._shape = shape
        return shape

    @property
    def footprint(self) -> Polygon:
        """The unit's outline on the table: the polygon of :attr:`formation`, drawn without
        placing each member (re-drawn when the centre, facing, stance or size changes)."""
        outline = self._outline
        if (outline is None or outline[0] != self.centre or outline[1] != self.facing
                or outline[2] != self.stance or outline[3] != self.members):
            polygon = self.outline_at(self.centre, self.facing)
            outline = (self.centre, self.facing, self.stance, self.members, polygon)
            self._outline = outline
        return outline[4]

    def outline_at(self, centre: Point, facing: float) -> Polygon:
        """The footprint the unit would have at ``centre`` facing ``facing``: the polygon
        :func:`~warhost.geometry.table.formation` draws, without placing each member."""
        if self.members > 0:
            return formation_outline(self.members, self.files, PITCH[self.stance], centre,
                                     facing)
        return single_footprint((float(centre[0]), float(centre[1])), 0.5, facing)

    @property
    def size(self) -> tuple[float, float]:
        """Width (across the facing) and depth of the footprint, in inches (as
        :attr:`formation` gives them)."""
        return self.size_in(self.stance)

    def size_in(self, stance: str) -> tuple[float, float]:
        """:attr:`size` if the unit stood in ``stance``."""
        if self.members == 0:
            return 0.5, 0.5
        pitch = PITCH[stance]
        ranks = -(-self.members // self.files)
        return (min(self.files, self.members) - 1) * pitch + 0.5, (ranks - 1) * pitch + 0.5

    @property
    def cell(self) -> TrackCell:
        """The modifiers of the current Tactics Track cell (T5-TACTICS-02)."""
        return track_cell(self.track, self.rank)

    @property
    def speed(self) -> int:
        """Feet per round: the slowest character, commander included (T5-ROUND-12)."""
        speeds = [speed_of(self.member)] if self.members else []
        if self.commander.alive:
            speeds.append(speed_of(self.commander.stats))
        return min(speeds, default=0)

    @property
    def reach(self) -> float:
        """Longest melee reach of the members, in inches."""
        known = self._reach
        if known is None or known[0] is not self.member:
            known = (self.member, melee_reach(self.member))
            self._reach = known
        return known[1]

    @property
    def member_ac_base(self) -> int:
        """Members' AC with stance and track modifiers, before cover (T5-STANCE-01,
        T5-TACTICS-07)."""
        return self.member.ac + STANCE_AC[self.stance] + self.cell.ac

    @property
    def attacker_cap(self) -> int:
        """Members that may attack (T5-ATTACK-01, T5-ATTACK-02)."""
        return min(STANCE_ATTACKERS[self.stance], self.members)

    @property
    def morale_modifier(self) -> int:
        """Stance and track morale modifiers (T5-MORALE-05)."""
        return STANCE_MORALE[self.stance] + self.cell.morale

    @property
    def has_commander(self) -> bool:
        """The commander is alive."""
        return self.commander.alive

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "id": self.id, "kind": "unit", "side": self.side, "name": self.name,
            "members": self.members, "start_members": self.start_members,
            "stance": self.stance, "track": self.track, "rank": self.rank,
            "centre": [round(self.centre[0], 4), round(self.centre[1], 4)],
            "facing": round(self.facing, 4), "tdr": self.tdr, "status": self.status,
            "initiative": self.initiative, "commander": self.commander.to_json(),
            "disadvantage_round": self.disadvantage_round, "uses": dict(self.uses),
        }


@dataclass(slots=True, eq=False)
class Single:
    """A Single Character (T5-SINGLE-01, T5-AMB-31)."""

    id: str
    side: str
    name: str
    character: Character
    centre: Point
    facing: float
    initiative: int
    edge: str
    status: str = ACTIVE
    disengaged: bool = False
    dodging: bool = False
    three_quarter_cover: bool = False
    _shape: tuple[Point, float, Polygon] | None = None
    _reach: tuple[StatBlock, float] | None = None
    _watch: set[Any] | None = None
    """The dirty set of the placement index watching this body (None: not watched)."""

    kind = "single"

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in PLACING:
            _changed(self)

    @property
    def stats(self) -> StatBlock:
        """The character's stat block."""
        return self.character.stats

    @property
    def on_table(self) -> bool:
        """Still in the battle."""
        return self.status == ACTIVE

    @property
    def footprint(self) -> Polygon:
        """A 5 ft square."""
        shape = self._shape
        if shape is None or shape[0] != self.centre or shape[1] != self.facing:
            shape = (self.centre, self.facing, single_footprint(self.centre, 0.5, self.facing))
            self._shape = shape
        return shape[2]

    @property
    def speed(self) -> int:
        """Feet per round."""
        return speed_of(self.stats)

    @property
    def reach(self) -> float:
        """Longest melee reach, in inches."""
        known = self._reach
        if known is None or known[0] is not self.stats:
            known = (self.stats, melee_reach(self.stats))
            self._reach = known
        return known[1]

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "id": self.id, "kind": "single", "side": self.side, "name": self.name,
            "centre": [round(self.centre[0], 4), round(self.centre[1], 4)],
            "facing": round(self.facing, 4), "status": self.status,
            "initiative": self.initiative, "character": self.character.to_json(),
        }


Body = Unit | Single


def _changed(body: Body) -> None:
    """Tell the index watching ``body`` (if any) that its footprint may have changed."""
    try:
        watch = body._watch
    except AttributeError:  # still being built: no index watches it yet
        return
    if watch is not None:
        watch.add(body)


@dataclass(eq=False)
class T5State:
    """Everything about a battle in progress."""

    scenario: Dnd5eTacticsScenario
    board: Board
    regions: list[Region]
    """Terrain pieces; ``Region.kind`` is the terrain kind (ruins, forest, field, impassable)."""
    bodies: dict[str, Body]
    order: list[str]
    """Turn order, highest initiative first (T5-INIT-02, T5-AMB-03)."""
    sides: list[str]
    defender: str
    round: int = 0
    declared: set[frozenset[str]] = field(default_factory=set)
    """Engagements declared by the players (``engagement_model: declared``)."""
    reduction_spent: dict[str, int] = field(default_factory=dict)
    """``per_turn`` Single Character damage reduction spent, by "round:attacker:target"."""
    winner: str | None = None
    finished: bool = False
    end_reason: str = ""

    @property
    def options(self) -> Options:
        """The scenario's options."""
        return self.scenario.options

    @cached_property
    def ground(self) -> Ground:
        """The terrain merged once for movement (:func:`warhost.geometry.table.travel_many`)."""
        return Ground.of(self.regions)

    @cached_property
    def difficult(self) -> list[Region]:
        """Terrain that costs double to cross (T5-TERRAIN-02)."""
        return [r for r in self.regions if r.difficult or r.impassable]

    @cached_property
    def placement(self) -> Placement:
        """Where the bodies stand, kept up to date as they move (:mod:`.spatial`)."""
        return Placement(self)

    def units(self, side: str | None = None) -> list[Unit]:
        """Units still on the table, in turn order (of one side, if given)."""
        return [b for b in self.active(side) if isinstance(b, Unit)]

    def active(self, side: str | None = None) -> list[Body]:
        """Units and Single Characters still on the table, in turn order."""
        index = self.placement
        index.refresh()
        key = ("active", side)
        found: list[Body] | None = index.memo.get(key)
        if found is None:
            bodies = [self.bodies[i] for i in self.order]
            found = [b for b in bodies if b.on_table and (side is None or b.side == side)]
            index.memo[key] = found
        return list(found)

    def enemy_of(self, side: str) -> str:
        """The other side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def gap(self, a: Body, b: Body) -> float:
        """Closest distance between the two bodies' footprints (measured once per position)."""
        return self.placement.gap(a, b)

    def within(self, a: Body, b: Body, limit: float) -> bool:
        """``self.gap(a, b) <= limit``, answered from the bounding boxes when they are
        further apart than that."""
        index = self.placement
        box_a, box_b = index.box(a), index.box(b)
        if box_a is not None and box_b is not None and box_gap(box_a, box_b) > limit + MARGIN:
            return False
        return index.gap(a, b) <= limit

    def engaged(self, a: Body, b: Body) -> bool:
        """Whether two enemy bodies are in melee (T5-AMB-10)."""
        if a.side == b.side or not a.on_table or not b.on_table:
            return False
        if self.options.engagement_model == "declared":
            return frozenset((a.id, b.id)) in self.declared
        return self.within(a, b, max(a.reach, b.reach) + 1e-9)

    def adjacent(self, a: Body, b: Body) -> bool:
        """Within 5 ft of each other (Charge, T5-MOVE-03; T5-AMB-10)."""
        return self.within(a, b, 0.5 + 1e-9)

    def engaged_with(self, body: Body) -> list[Body]:
        """Enemy bodies in melee with ``body``, in turn order."""
        enemy = self.enemy_of(body.side)
        if self.options.engagement_model == "declared" or not body.on_table:
            return [o for o in self.active(enemy) if self.engaged(body, o)]
        index = self.placement
        index.refresh()
        key = ("engaged", body.id)
        found: list[Body] | None = index.memo.get(key)
        if found is None:
            found = [o for o in index.near(body, index.reach + 1e-9, enemy)
                     if self.engaged(body, o)]
            index.memo[key] = found
        return list(found)

    def in_melee(self, body: Body) -> bool:
        """Engaged with at least one enemy."""
        return bool(self.engaged_with(body))

    def region_at(self, point: Point) -> list[Region]:
        """The terrain pieces containing a point (T5-AMB-02: a body is inside a piece when its
        footprint centre is)."""
        return [r for r in self.regions if r.contains(point)]

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "round": self.round,
            "bodies": [self.bodies[i].to_json() for i in self.order],
            "winner": self.winner,
            "finished": self.finished,
        }


def area_named(stats: StatBlock, name: str) -> AreaSpec | None:
    """The stat block's area effect called ``name``."""
    return next((a for a in stats.areas if a.name == name), None)


def no_such_body(state: T5State, name: str, rule: str | None = None) -> Refusal:
    """Why ``name`` names no body an order can use: gone from the table, or unknown (with the
    nearest id on the table, if one is close). ``rule``: the rule of the order's choice."""
    body = state.bodies.get(name)
    if body is not None:
        return Refusal(f"{name} is no longer on the table ({body.status})", rule)
    on_table = [b.id for b in state.active()]
    close = difflib.get_close_matches(name, on_table, n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return Refusal(f"there is no unit or Single Character {name!r}{hint}", rule)
