"""The state of a `warband` battle: the map, the characters and who stands where.

Occupancy is a dict from square to character id, kept up to date by :meth:`WarbandState.place`
and :meth:`WarbandState.remove`, so "who is next to me" looks at 8 squares, never the army.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from warhost.geometry.grid import DIRECTIONS8, FACINGS, Grid, Square, chebyshev, flood_table
from warhost.rulesets.warband.model import (
    Armour,
    Item,
    Options,
    Spell,
    WarbandScenario,
    Weapon,
)

FACING_ORDER = tuple(FACINGS)
"""The eight facings, clockwise from N (WB-TURN-03)."""
SCORES = (
    "agility", "melee", "ranged", "strength", "toughness", "armour", "ward", "resolve",
    "magic", "wounds", "attacks", "insight",
)

def order_word(name: str) -> str:
    """How a weapon, item or spell name is written in an order: spaces become ``_``
    (``great axe`` -> ``great_axe``), so the order's text splits into the same words."""
    return name.replace(" ", "_")


UNARMED = Weapon(name="unarmed", kind="melee")
"""The profile of a character with no melee weapon (WB-AMB-27)."""

# Injury states (WB-INJURY); "fled" is a Router that left the battle (WB-AMB-47 option).
STANDING = "standing"
KNOCKED_DOWN = "knocked_down"
STUNNED = "stunned"
INCAPACITATED = "incapacitated"
FLED = "fled"


@dataclass
class TempModifier:
    """A score change that lasts a number of turns (spells, items)."""

    score: str
    by: int
    turns: int
    source: str


@dataclass(eq=False)
class Character:
    """One character: its stat line, where it stands and everything that changes in play."""

    id: str
    side: str
    name: str
    kind: str  # "hero" or "minion"
    captain: bool
    base: dict[str, int]
    weapons: list[Weapon]
    armour: list[Armour]
    items: list[Item]
    talents: frozenset[str]
    traits: frozenset[str]
    spells: list[Spell]
    fate: int = 0
    circuits: tuple[str, ...] = ()  # names of memorised Circuits (WB-MAGIC-03)
    wounds: int = 0
    square: Square | None = None
    facing: str = "N"
    condition: str = STANDING
    prone: bool = False
    routing: bool = False
    stunned_in_turn: int = 0
    initiative: int = 0
    stress: int = 0
    uses: dict[str, int] = field(default_factory=dict)
    temp: list[TempModifier] = field(default_factory=list)
    exposed: set[str] = field(default_factory=set)
    pending: set[str] = field(default_factory=set)
    last_hurt_by: str | None = None
    worse_resolve: bool = False  # Frightened (WB-INCIDENT-06 result 5)
    resolve_dos_cut: int = 0  # Humiliated (WB-INCIDENT-08)
    worse_agility: bool = False  # totally blind (WB-SEVERE-06)
    # this turn
    attacks_used: int = 0
    moved: bool = False  # took its Movement Phase action (or lost it)
    charged: str | None = None  # the enemy its Charge reached
    charge_braced: bool = False  # the charged enemy had Braced: no charge benefits
    braced: bool = False
    sprinted: bool = False
    disengaged: bool = False
    rallied: bool = False
    encourage_bonus: int = 0
    chargers: list[str] = field(default_factory=list)  # enemies that charged it this turn
    stand_and_shoot_ok: bool = False  # charged before its own move (WB-RANGED-07)
    utility_done: set[str] = field(default_factory=set)
    spells_tried: int = 0
    surge_lock: tuple[int, str] | None = None  # (turn, phase) a Surge blocks casting until
    dispelled_turn: int = 0
    ranged_done: bool = False
    melee_done: bool = False

    @property
    def label(self) -> str:
        """Its name with its id."""
        return self.name if self.name == self.id else f"{self.name} ({self.id})"

    @property
    def max_wounds(self) -> int:
        """The Wounds score (at least 1, WB-AMB-65)."""
        return max(1, self.score("wounds"))

    def score(self, name: str) -> int:
        """A score now: the stat line with lasting changes and timed modifiers, never below 0."""
        value = self.base[name] + sum(t.by for t in self.temp if t.score == name)
        return max(0, value)

    @property
    def on_map(self) -> bool:
        """Still in the fight on the map (not Incapacitated and not gone)."""
        return self.square is not None and self.condition not in (INCAPACITATED, FLED)

    @property
    def active(self) -> bool:
        """Neither Incapacitated, gone, nor Routing."""
        return self.on_map and not self.routing

    @property
    def down(self) -> bool:
        """Knocked down or Stunned: counts as Prone (WB-AMB-23)."""
        return self.condition in (KNOCKED_DOWN, STUNNED)

    @property
    def lying(self) -> bool:
        """Prone, voluntarily or because it is down."""
        return self.prone or self.down

    @property
    def is_mage(self) -> bool:
        """Magic above 0 and at least one known Spell (WB-MAGIC-04)."""
        return self.score("magic") > 0 and bool(self.spells)

    @property
    def attacks_left(self) -> int:
        """Attacks still to use this turn (WB-ATTACK-16)."""
        return max(0, self.score("attacks") - self.attacks_used)

    def melee_weapons(self, unarmed_allowed: bool) -> list[Weapon]:
        """Its melee weapons, or the Unarmed profile if it has none (WB-AMB-27)."""
        own = [w for w in self.weapons if w.kind == "melee"]
        return own or ([UNARMED] if unarmed_allowed else [])

    def ranged_weapons(self) -> list[Weapon]:
        """Its ranged weapons."""
        return [w for w in self.weapons if w.kind == "ranged"]

    def reset_turn(self) -> None:
        """Clear what lasts one turn (WB-AFTER-04 step 4, and the per-turn action limits)."""
        self.attacks_used = 0
        self.moved = False
        self.charged = None
        self.charge_braced = False
        self.braced = False
        self.sprinted = False
        self.disengaged = False
        self.rallied = False
        self.encourage_bonus = 0
        self.chargers = []
        self.stand_and_shoot_ok = False
        self.utility_done = set()
        self.spells_tried = 0
        self.ranged_done = False
        self.melee_done = False


@dataclass
class WarbandState:
    """A whole battle."""

    scenario: WarbandScenario
    options: Options
    grid: Grid
    sides: list[str]
    chars: dict[str, Character]
    cover: frozenset[Square] = frozenset()
    edges: frozenset[Square] = frozenset()
    climbs: dict[Square, tuple[str, int]] = field(default_factory=dict)
    spells: dict[str, Spell] = field(default_factory=dict)
    advantage: str | None = None
    at: dict[Square, str] = field(default_factory=dict)
    turn: int = 0
    phase: str = "setup"
    order: list[str] = field(default_factory=list)
    heroes_at_start: dict[str, int] = field(default_factory=dict)
    vortices: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    winner: str | None = None
    reason: str = ""
    incidents: list[dict[str, Any]] = field(default_factory=list)
    walk_levels: Any = None  # built by movement.walk_levels
    side_number: dict[str, int] = field(default_factory=dict)
    _owners: Any = None  # see owners()

    def __post_init__(self) -> None:
        self.side_number = {side: i for i, side in enumerate(self.sides)}

    def owners(self) -> Any:
        """The number of the side standing on each square by ``y * width + x`` (-1: nobody),
        kept up to date by :meth:`place` and :meth:`remove`."""
        if self._owners is None:
            width = self.grid.width
            owners = [-1] * (width * self.grid.height)
            for (x, y), cid in self.at.items():
                owners[y * width + x] = self.side_number[self.chars[cid].side]
            self._owners = flood_table(owners)
        return self._owners
    # (turn, side) -> Encourage bonus -> ids of that side's characters holding that bonus;
    # kept by utility.encourage so a shout visits only the allies it can still improve.
    encouragers: dict[tuple[int, str], list[tuple[int, str, Square]]] = field(
        default_factory=dict)  # (turn, side) -> (bonus, who, where) of each successful shout

    # -- occupancy --------------------------------------------------------------------------

    def place(self, char: Character, sq: Square) -> None:
        """Put ``char`` on ``sq`` (leaving its old square)."""
        owners = self._owners
        width = self.grid.width
        if char.square is not None and self.at.get(char.square) == char.id:
            del self.at[char.square]
            if owners is not None:
                owners[char.square[1] * width + char.square[0]] = -1
        char.square = sq
        self.at[sq] = char.id
        if owners is not None:
            owners[sq[1] * width + sq[0]] = self.side_number[char.side]

    def remove(self, char: Character) -> None:
        """Take ``char`` off the map (WB-AMB-43); it keeps its last square for the record."""
        if char.square is not None and self.at.get(char.square) == char.id:
            del self.at[char.square]
            if self._owners is not None:
                self._owners[char.square[1] * self.grid.width + char.square[0]] = -1

    def occupant(self, sq: Square) -> Character | None:
        """The character on ``sq``, if any."""
        cid = self.at.get(sq)
        return None if cid is None else self.chars[cid]

    # -- who is where ---------------------------------------------------------------------------

    def level(self, sq: Square) -> int:
        """Elevation of a square."""
        return self.grid.level(sq)

    def passable(self, sq: Square) -> bool:
        """On the map and neither impassable nor blocking."""
        return self.grid.contains(sq) and self.grid.terrain(sq) == "clear"

    def blocks_sight(self, sq: Square) -> bool:
        """Blocking terrain (WB-AMB-04); off-map squares never lie between two map squares."""
        return self.grid.contains(sq) and self.grid.terrain(sq) == "blocking"

    def hostile(self, a: Character, b: Character) -> bool:
        """Every other warband is an enemy."""
        return a.side != b.side

    def neighbours_of(self, char: Character) -> Iterator[Character]:
        """Characters on the 8 squares around ``char`` (any elevation)."""
        assert char.square is not None
        x, y = char.square
        at = self.at
        for dx, dy in DIRECTIONS8:
            cid = at.get((x + dx, y + dy))
            if cid is not None:
                yield self.chars[cid]

    def touching(self, a: Character, b: Character) -> bool:
        """Adjacent with elevations at most 1 apart (WB-AMB-06)."""
        if a.square is None or b.square is None:
            return False
        return chebyshev(a.square, b.square) == 1 and abs(
            self.level(a.square) - self.level(b.square)
        ) <= 1

    def engaged_enemies(self, char: Character) -> list[Character]:
        """Enemies Engaged with ``char`` (WB-AMB-06), in square order."""
        if not char.on_map:
            return []
        return [o for o in self.neighbours_of(char)
                if o.on_map and self.hostile(char, o) and self.touching(char, o)]

    def adjacent_allies(self, char: Character) -> list[Character]:
        """Allies on the squares around ``char`` (WB-AMB-32 counts them)."""
        if not char.on_map:
            return []
        return [o for o in self.neighbours_of(char) if o.on_map and o.side == char.side]

    def engaged(self, char: Character) -> bool:
        """Engaged in Melee with at least one enemy."""
        return bool(self.engaged_enemies(char))

    def side_chars(self, side: str) -> list[Character]:
        """A side's characters in scenario order."""
        return [c for c in self.chars.values() if c.side == side]

    def captain(self, side: str) -> Character | None:
        """A side's Captain."""
        for c in self.chars.values():
            if c.side == side and c.captain:
                return c
        return None

    def standing_count(self, side: str) -> int:
        """Characters of ``side`` neither Incapacitated, gone nor Routing."""
        return sum(1 for c in self.chars.values() if c.side == side and c.active)

    def to_json(self) -> dict[str, Any]:
        """Plain data of the state."""
        return {
            "turn": self.turn,
            "phase": self.phase,
            "sides": self.sides,
            "order": self.order,
            "characters": [
                {
                    "id": c.id, "side": c.side, "name": c.name, "kind": c.kind,
                    "captain": c.captain,
                    "square": list(c.square) if c.square else None, "facing": c.facing,
                    "wounds": c.wounds, "max_wounds": c.max_wounds, "condition": c.condition,
                    "prone": c.prone, "routing": c.routing, "stress": c.stress, "fate": c.fate,
                }
                for c in self.chars.values()
            ],
            "over": self.over, "winner": self.winner, "reason": self.reason,
        }
