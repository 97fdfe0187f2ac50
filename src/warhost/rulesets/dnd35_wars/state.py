"""The state of a `dnd35-wars` battle: the map at the battle's scale, the units of counters,
the singular creatures, the initiative order and who is engaged with whom.

Occupancy (``WarState.at``: square -> unit id or independent creature id) and engagement
(``WarState.engaged``) are kept up to date by the methods that change them
(:meth:`WarState.place`, :meth:`WarState.lift`, :meth:`WarState.engage` ...), so finding the
neighbours of a unit looks at its own squares, never at the whole army.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from warhost.geometry.grid import DIRECTIONS4, DIRECTIONS8, Square
from warhost.rulesets.dnd35_wars.model import Attack, Creature, Options, Spell

NORTH: Square = (0, 1)


@dataclass(frozen=True)
class UnitAttack:
    """A unit's single attack of one kind (W35-STAT-14/15): bonus, damage and critical."""

    bonus: int
    damage: str
    crit_range: int = 20
    crit_multiplier: int = 2
    range_increment: int | None = None
    thrown: bool = False
    crossbow: bool = False
    reach: bool = False
    magic: bool = False

    @classmethod
    def of(cls, attack: Attack) -> UnitAttack:
        """The unit attack of one stat-block attack."""
        return cls(attack.bonus, attack.damage, attack.crit_range, attack.crit_multiplier,
                   attack.range_increment, attack.thrown, attack.crossbow, attack.reach,
                   attack.magic)


# The fates of a unit or a singular creature.
FIGHTING = "fighting"
ROUTED = "routed"
FLED = "fled"
SCATTERED = "scattered"
VANQUISHED = "vanquished"
SLAIN = "slain"
MERGED = "merged"  # regrouped into another unit (W35-UMOVE-08, W35-AMB-61)


@dataclass(eq=False)
class Unit:
    """One unit: its derived stat block (W35-UNIT-01), its counters and its state in play."""

    id: str
    side: str
    name: str
    creature: Creature
    creatures: int  # at the start (W35-AMB-10: never tracked one by one in play)
    size: str  # the members' size row (mounted: large, chariot: huge; W35-SIZE-03)
    per_counter: Fraction  # creatures per counter, fixed for the battle (W35-AMB-09)
    counter_hp: int
    start_hp: int
    hp: int
    morale: int
    rate: Fraction  # squares a round (W35-STAT-11/12, W35-AMB-11)
    initiative_mod: int
    ac: int
    touch_ac: int
    dr: int
    fort: int
    ref: int
    will: int
    melee: UnitAttack | None
    ranged: UnitAttack | None
    squares: set[Square] = field(default_factory=set)
    heading: Square = NORTH
    mob: bool = False
    mounted: bool = False
    mount_size: str | None = None
    chariot: bool = False
    flying: bool = False
    reach: bool = False
    morale_immune: bool = False
    ferocious: bool = False
    enslaved: bool = False
    flank_immune: bool = False
    crit_immune: bool = False
    water_native: bool = False
    regenerates: bool = False
    feats: frozenset[str] = frozenset()
    leader: str | None = None  # the designated NPC/PC leader (W35-AMB-79)
    singles: list[str] = field(default_factory=list)  # embedded singular creatures
    guarding_walls: bool = False
    enters_round: int | None = None
    enters_edge: str | None = None
    # state in play
    status: str = FIGHTING
    rally_failures: int = 0
    set_vs_charge: bool = False
    phalanx: bool = False
    charge_ac_penalty: bool = False  # -2 AC until its next turn (W35-UATK-04)
    mob_charged: bool = False  # a mob's first melee attack has been made (W35-AMB-84)
    pending: set[str] = field(default_factory=set)  # morale triggers queued (W35-AMB-17)
    used_triggers: set[str] = field(default_factory=set)  # one-time triggers (W35-AMB-16)
    morale_mods: list[int] = field(default_factory=list)  # PC actions (W35-AMB-21)
    bank: Fraction = Fraction(0)  # movement points toward `bank_step` (W35-AMB-12)
    bank_step: Square | None = None
    acted: bool = False
    exposed: bool = False  # fired or attacked since its last turn (W35-AMB-45/46)
    split_this_round: bool = False
    stuck_in: str | None = None  # the allied unit a pass-through could not leave (W35-UMOVE-19)
    approached_by: set[str] = field(default_factory=set)  # W35-UATK-05/06
    melee_taken: int = 0  # HP lost to melee since its previous turn began (W35-AMB-83)
    melee_dealt: int = 0
    # ---- combat
    melee_round: int = -1  # the last round it made a melee attack (W35-UATK-11)
    cleave_round: int = -1  # the round its Cleave extra attacks were counted in (W35-AMB-28)
    cleaves_used: int = 0
    # ---- singles
    intruders: list[str] = field(default_factory=list)  # enemy singles inside (W35-INUNIT-06)
    # ---- damage
    hit_counters: int = 0  # counters when the latest hit on it landed (W35-AMB-33)
    # ---- morale
    rout_fresh: bool = False  # routed since its last turn began: no rally yet (W35-MORALE-07)
    morale_effects: dict[str, int] = field(default_factory=dict)  # by source (W35-AMB-81)
    last_squares: frozenset[Square] = frozenset()  # where it stood when wiped out (AMB-18)
    # ---- movement
    bank_round: int = -1  # the round the bank was made: it lasts to the next turn only
    split_round: int = 0  # the last round it split or was split off (W35-UMOVE-17)
    passing: bool = False  # stuck inside the ally ``stuck_in`` after a pass-through
    # ---- part 2: machines and casting (who owns each field: see the module named)
    machine: str | None = None  # "siege", "tower" or "ram" while it is that unit type
    casts: bool = False  # may cast spells as a unit (ucast: W35-UCAST-01)
    # ---- conditions
    modifiers: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    """Lasting spell modifiers: (stat, source) -> (amount, the round at whose start it ends;
    0: the rest of the battle) (W35-SPELL-03/09)."""
    held: set[Square] = field(default_factory=set)  # hindered counters (W35-SPELL-06)
    held_speed: str = ""  # "zero" or "half" while counters are hindered
    held_ends: int = 0  # the round at whose start the hindrance ends (0: never)
    forced_ends: int = 0  # the round at whose start a forced rout ends (W35-AMB-73)
    # ---- siege
    siege_defense: bool = False  # non-crew counters in total defense: +4 AC (W35-AMB-86)
    # ---- tower
    stack: int = 0  # counters stacked on its one square (siege tower: W35-TOWER-09, AMB-77)
    slit_counters: int = 0  # counters that shot through the slits at its last volley (AMB-46)
    moved_round: int = -1  # the last round it took a move action (W35-TOWER-15)
    opposed: bool = False  # enemies on the wall next to it at the start of its turn (AMB-76)
    bridge_round: int = -1  # the round its drawbridge came down (-1: still up; W35-TOWER-19)
    crossed_round: int = -1  # the last round a counter of it went onto a wall (TOWER-20/21)
    wall_unit: str | None = None  # the unit its counters formed on the wall (W35-TOWER-20/21)
    walk_rate: Fraction | None = None  # its standard move rate, kept while it is a tower
    # ---- ucast
    spell_uses: dict[str, int | None] = field(default_factory=dict)  # casts left (None: at will)
    spell_ready: dict[str, int] = field(default_factory=dict)  # round a recharging spell is back
    casting: tuple[str, int] | None = None  # a cast of several rounds: its order, the last round

    @property
    def label(self) -> str:
        """Its name with its id."""
        return self.name if self.name == self.id else f"{self.name} ({self.id})"

    def offshoot(self, **changes: Any) -> Unit:
        """A new unit copied from this one (a split, a ram crew, counters leaving a tower):
        its sets, lists and dicts are fresh copies, then ``changes`` apply."""
        copies = {f.name: value.copy() for f in fields(self)
                  if isinstance(value := getattr(self, f.name), (set, list, dict))}
        return replace(self, **{**copies, **changes})

    @property
    def counters(self) -> int:
        """Counters on the map (a siege tower's stack counts each counter in its one square)."""
        return self.stack if self.stack and self.squares else len(self.squares)

    @property
    def on_map(self) -> bool:
        """Still on the battlefield (fighting or routed)."""
        return self.status in (FIGHTING, ROUTED) and bool(self.squares)

    @property
    def routed(self) -> bool:
        """Routed (W35-MORALE-07)."""
        return self.status == ROUTED

    @property
    def can_fight(self) -> bool:
        """On the map and not routed."""
        return self.status == FIGHTING and bool(self.squares)

    @property
    def closed_tower(self) -> bool:
        """Inside a siege tower whose drawbridge is still up (W35-TOWER-04/22)."""
        return self.machine == "tower" and self.bridge_round < 0

    @property
    def targetable(self) -> int:
        """The counters an attack or area may count (W35-DMG-05): all of them, or, inside a
        closed siege tower, only those that shot through the slits since its last turn and
        none when it has not shot (total cover, W35-TOWER-04, W35-AMB-46)."""
        if not self.closed_tower:
            return self.counters
        return min(self.counters, self.slit_counters) if self.exposed else 0

    @property
    def derived_creatures(self) -> int:
        """Creatures it still stands for: counters x creatures per counter, rounded down."""
        return int(self.counters * self.per_counter)


@dataclass(eq=False)
class Single:
    """A singular creature: a monster, an NPC or a PC (W35-TERM-07..10)."""

    id: str
    side: str
    kind: str  # "monster", "npc" or "pc"
    creature: Creature
    hp: int
    square: Square | None = None  # where its figure stands
    host: str | None = None  # the unit it is embedded in (None: independent)
    role: str = "member"
    squad: str | None = None
    leadership: bool = False
    officer: bool = False
    front_line: bool = False  # W35-COLL-02/03, W35-DEC-31
    status: str = FIGHTING
    initiative: int = 0
    total_defense: bool = False  # W35-COLL-06
    charge_ac_penalty: bool = False
    # ---- morale
    last_square: Square | None = None  # where its figure stood before leaving the map (AMB-21)
    # ---- singles
    inside: str | None = None  # the enemy unit it fought its way into (W35-MON-07)
    stays: bool = False  # spends this turn keeping up with its unit (W35-INUNIT-05)
    moved_round: int = 0  # its squad's counter moved this round (W35-PC-08)
    attacked_round: int = 0
    down_noted: bool = False  # its going down or fleeing reached morale (W35-PC-11)
    # ---- magic
    casts_made: dict[str, int] = field(default_factory=dict)  # casts of each spell (uses)
    last_cast: dict[str, int] = field(default_factory=dict)  # round of each spell's last cast
    casting: str | None = None  # a cast of several rounds under way (W35-MAGIC-02)
    cast_ends: int = 0  # the round that cast takes effect
    turns_made: int = 0  # turning attempts used (W35-SPELL-15)
    out_until: int = 0  # held out of the fight by a spell (or turned) until this round
    out_why: str = ""
    spell_mods: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # spell ->
    # (stat, amount, last round) of a buff or penalty on it
    slowed: tuple[str, int] = ("", 0)  # a hindering spell's speed ("zero"/"half"), last round

    @property
    def label(self) -> str:
        """Its name with its id."""
        name = self.creature.name
        return name if name == self.id else f"{name} ({self.id})"

    @property
    def alive(self) -> bool:
        """Not slain, fled or out of the fight."""
        return self.status == FIGHTING and self.hp > 0

    @property
    def independent(self) -> bool:
        """Alive and standing on its own square, in no unit."""
        return self.alive and self.host is None and self.square is not None


@dataclass(frozen=True)
class Structure:
    """A structure section (W35-STRUCT, W35-AMB-45)."""

    id: str
    type: str
    squares: frozenset[Square]
    dr: int
    hardness: int
    max_hp: int | None


@dataclass(frozen=True)
class Absent:
    """Counters of a unit taken out of the fight by a spell until a round starts
    (W35-SPELL-10..12, W35-AMB-57): where they stood, and the HP they took with them."""

    unit: str
    squares: tuple[Square, ...]
    ends: int
    source: str
    hp: int


@dataclass(eq=False)
class WarState:
    """Everything about one battle in progress."""

    scale: int
    width: int
    height: int
    options: Options
    sides: list[str]
    units: dict[str, Unit] = field(default_factory=dict)
    singles: dict[str, Single] = field(default_factory=dict)
    terrain: dict[Square, str] = field(default_factory=dict)  # default clear
    water: set[Square] = field(default_factory=set)
    elevation: dict[Square, int] = field(default_factory=dict)
    slope_cost: dict[Square, int] = field(default_factory=dict)
    blocks_sight: set[Square] = field(default_factory=set)
    structures: dict[str, Structure] = field(default_factory=dict)
    structure_at: dict[Square, str] = field(default_factory=dict)
    structure_hp: dict[str, int] = field(default_factory=dict)
    home_edge: dict[str, str] = field(default_factory=dict)
    at: dict[Square, str] = field(default_factory=dict)  # unit id or independent creature id
    engaged: dict[str, set[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # actor ids in initiative order
    initiative: dict[str, int] = field(default_factory=dict)
    round: int = 0
    best_score: dict[str, int] = field(default_factory=dict)  # see game.score
    melee_happened: bool = False  # W35-AMB-60: a battle with no melee is ranged only
    over: bool = False
    winner: str | None = None
    reason: str = ""
    # ---- combat
    engage_seq: dict[tuple[str, str], int] = field(default_factory=dict)  # W35-AMB-39 option
    # ---- movement
    home_edges_fixed: bool = False  # default home edges computed (W35-AMB-65)
    step_tables: dict[tuple[bool, int, int], dict[Square, tuple[int, int, bool]]] = field(
        default_factory=dict)  # terrain step costs in thirds, built on first use (movement)
    single_tables: dict[tuple[bool, int, int], dict[Square, int]] = field(
        default_factory=dict)  # the same for a lone creature's step
    step_rows: dict[tuple[bool, int, int], dict[int, tuple[int, int]]] = field(
        default_factory=dict)  # each step table's squares as a span of x per row

    # ---- geometry and occupancy

    def inside(self, sq: Square) -> bool:
        """On the map."""
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def place(self, unit: Unit, squares: set[Square]) -> None:
        """Put ``unit`` on ``squares`` (its old squares are freed first)."""
        self.lift(unit)
        unit.squares = set(squares)
        for sq in unit.squares:
            self.at[sq] = unit.id

    def lift(self, unit: Unit) -> None:
        """Take ``unit`` off the map's occupancy (its squares are kept on the unit)."""
        for sq in unit.squares:
            if self.at.get(sq) == unit.id:
                del self.at[sq]

    def remove_counters(self, unit: Unit, squares: set[Square]) -> None:
        """Remove some of ``unit``'s counters from the map."""
        for sq in squares:
            unit.squares.discard(sq)
            if self.at.get(sq) == unit.id:
                del self.at[sq]

    def put_single(self, single: Single, sq: Square | None) -> None:
        """Move an independent creature's figure (None: off the map, or into a unit)."""
        if single.square is not None and single.host is None and self.at.get(single.square) == single.id:
            del self.at[single.square]
        if sq is None and single.square is not None:
            single.last_square = single.square
        single.square = sq
        if sq is not None and single.host is None:
            self.at[sq] = single.id

    def occupant(self, sq: Square) -> str | None:
        """The unit or independent creature on ``sq``."""
        return self.at.get(sq)

    def neighbours_of(self, squares: set[Square], diagonal: bool = False) -> set[str]:
        """Ids of the units and creatures next to ``squares`` (by a side, or also a corner)."""
        found: set[str] = set()
        steps = DIRECTIONS8 if diagonal else DIRECTIONS4
        for x, y in squares:
            for dx, dy in steps:
                other = self.at.get((x + dx, y + dy))
                if other is not None:
                    found.add(other)
        return found

    def cost_of(self, sq: Square) -> str:
        """The terrain name of ``sq``."""
        return self.terrain.get(sq, "clear")

    # ---- engagement (W35-AMB-37)

    def engage(self, a: str, b: str) -> None:
        """Mark units ``a`` and ``b`` engaged in melee."""
        self.engaged.setdefault(a, set()).add(b)
        self.engaged.setdefault(b, set()).add(a)

    def disengage(self, a: str, b: str | None = None) -> None:
        """End ``a``'s engagement with ``b`` (or with everyone)."""
        for other in list(self.engaged.get(a, ())) if b is None else [b]:
            self.engaged.get(a, set()).discard(other)
            self.engaged.get(other, set()).discard(a)

    def foes_engaged(self, uid: str) -> set[str]:
        """The units engaged with ``uid``."""
        return self.engaged.get(uid, set())

    # ---- sides

    def other(self, side: str) -> str:
        """The opposing side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def units_of(self, side: str) -> list[Unit]:
        """The side's units still on the map."""
        return [u for u in self.units.values() if u.side == side and u.on_map]

    def singles_in(self, unit: Unit) -> list[Single]:
        """The living singular creatures embedded in ``unit``."""
        return [self.singles[s] for s in unit.singles if self.singles[s].alive]

    def act_after(self, anchor: str, aid: str) -> None:
        """Give ``aid`` the initiative count one below ``anchor``'s: it acts after every actor
        already at that count or above, in order of creation (W35-AMB-64)."""
        if aid in self.order:
            self.order.remove(aid)
        count = self.initiative[anchor] - 1
        self.initiative[aid] = count
        place = next((i for i, other in enumerate(self.order) if self.initiative[other] < count),
                     len(self.order))
        self.order.insert(place, aid)

    def actor(self, aid: str) -> Unit | Single:
        """A unit or a singular creature by id."""
        return self.units[aid] if aid in self.units else self.singles[aid]

    def to_json(self) -> dict[str, Any]:
        """The state as plain data."""
        return {
            "scale": self.scale,
            "round": self.round,
            "width": self.width,
            "height": self.height,
            "order": list(self.order),
            "units": {
                u.id: {
                    "side": u.side, "name": u.name, "hp": u.hp, "start_hp": u.start_hp,
                    "counter_hp": u.counter_hp, "status": u.status,
                    "squares": sorted([list(s) for s in u.squares]),
                    "singles": list(u.singles), "set": u.set_vs_charge, "phalanx": u.phalanx,
                }
                for u in self.units.values()
            },
            "singles": {
                s.id: {"side": s.side, "kind": s.kind, "hp": s.hp, "status": s.status,
                       "host": s.host, "square": list(s.square) if s.square else None}
                for s in self.singles.values()
            },
            "engaged": {k: sorted(v) for k, v in sorted(self.engaged.items()) if v},
            "winner": self.winner,
        }

    # ---- setup, reinforcements and recovery
    placed_first: str | None = None  # the side that placed its units first (W35-PLACE-03/04)
    recovered: dict[str, int] = field(default_factory=dict)  # unit HP after recovery (W35-RECOV)
    arrivals: dict[str, tuple[list[Square], bool]] = field(default_factory=dict)
    """Reinforcements still to enter: wanted squares, and whether the scenario placed them."""
    # ---- part 2: magic and war machines
    spells: dict[str, Spell] = field(default_factory=dict)  # the scenario's spells by name
    # ---- conditions
    absent: list[Absent] = field(default_factory=list)  # counters out of the fight (AMB-57)
    # ---- machines
    machines: dict[str, Machine] = field(default_factory=dict)  # by carrying unit id (SWU-09)
    # ---- tower
    barrier_at: dict[Square, str] = field(default_factory=dict)  # wall/gate squares (AMB-45)
    barrier_holder: dict[str, str | None] = field(default_factory=dict)  # section -> side
    gates: set[str] = field(default_factory=set)  # the barrier sections that are gates
    bridges: set[str] = field(default_factory=set)  # tower units with the drawbridge down
    rams_left: dict[str, int] = field(default_factory=dict)  # rams a side may still form

    def barred(self, side: str, sq: Square, *, charge: bool = False,
               within: frozenset[str] = frozenset()) -> bool:
        """Whether an intact wall or gate keeps a mover of ``side`` out of ``sq``: only its
        holders pass (a charge only through a gate), and a unit already on a section moves
        within it (``within``: the sections it stands on); a breached section is open."""
        sid = self.barrier_at.get(sq)
        if sid is None or self.structure_hp.get(sid, 1) <= 0:
            return False
        if self.barrier_holder.get(sid) == side:
            return charge and sid not in self.gates
        return sid not in within


@dataclass(eq=False)
class Machine:
    """A war machine carried by a unit, with HP of its own (W35-SWU-09, W35-SIEGE-04,
    W35-TOWER-05): its kind ("siege" or "tower"), its name (the siege weapon, or "tower"),
    AC, hardness, and the counter its figure stands on (W35-SWU-02)."""

    kind: str
    name: str
    hp: int
    max_hp: int
    ac: int
    hardness: int
    square: Square
    anchor: Square | None = None  # its unit's lowest counter when ``square`` was last placed
    # ---- siege weapons (the rate-of-fire cycle, W35-AMB-48)
    loaded: bool = True
    loads_done: int = 0  # loading rounds done since it last fired
    trained: bool = True  # W35-SWU-06
    bab: int = 0  # the operators' base attack bonus (W35-SIEGE-08)
    operator_size: str = "medium"  # the operating creatures' size (W35-SIEGE-08)
    worked_round: int = -1  # the last round its unit loaded or fired it (W35-SWU-11/12)
