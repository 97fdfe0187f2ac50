"""The `dnd35-wars` scenario file, as pydantic models (these also give the JSON Schema).

A scenario gives the battle's scale, the map and, per side, its units (each an ordinary 3.5
stat block of the typical member and how many there are), its monsters, and the NPCs and PCs
embedded in its units. Everything a unit needs in play (counters, pooled hit points, morale,
move rate) is derived from those inputs when the battle is set up (see ``derive.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from warhost.core.bounds import Rounds, Whole
from warhost.core.damage_dice import Dice

MAP_MAX = 500
"""The widest and tallest map, in squares."""

MAP_AREA_MAX = 100_000
"""The most squares a map may have."""

UNITS_MAX = 1000
"""The most units one side may field."""

SINGULARS_MAX = 200
"""The most monsters, NPCs or PCs one side may field (each list)."""

CREATURES_MAX = 1_000_000
"""The most creatures in one unit (a 200-ft epic unit holds 102,400 Medium creatures)."""

Index = Annotated[Whole, Field(ge=0, le=MAP_MAX - 1)]
Coord = tuple[Index, Index]
Modifier = Annotated[Whole, Field(ge=-50, le=100)]
"""An ability modifier, saving throw or attack bonus."""
Ability = Annotated[Whole, Field(ge=0, le=60)]
HitPoints = Annotated[Whole, Field(ge=1, le=10_000)]
ArmorClass = Annotated[Whole, Field(ge=0, le=100)]
Speed = Annotated[Whole, Field(ge=0, le=500)]
"""A speed in feet (5-ft standard rules)."""
Level = Annotated[Whole, Field(ge=0, le=60)]
Name = Annotated[str, Field(min_length=1, max_length=60)]
Ident = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")]
Scale = Literal[15, 25, 50, 100, 200]
SizeName = Literal[
    "fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"
]
FacingName = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
EdgeName = Literal["north", "east", "south", "west"]
TerrainName = Literal[
    "clear", "difficult", "light_forest", "heavy_forest", "jungle", "ruins", "rocky",
    "building", "castle", "swamp", "sand", "desert",
]
StructureName = Literal["ruins", "wooden", "light_stone", "keep", "heavy_stone", "castle"]
CritRange = Annotated[Whole, Field(ge=2, le=20)]
CritMultiplier = Annotated[Whole, Field(ge=2, le=6)]


class Strict(BaseModel):
    """Base for every scenario model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Options(Strict):
    """Every ruling that is a matter of taste (see docs/rulings/dnd35-wars.md)."""

    size_table: Literal["printed", "geometric"] = Field("printed", description="W35-AMB-05")
    morale_natural_rolls: bool = Field(True, description="W35-AMB-15")
    nearby_squares: Annotated[Whole, Field(ge=1, le=100)] = Field(6, description="W35-AMB-18")
    pc_action_morale_duration: Literal["next_check", "rest_of_battle"] = Field(
        "next_check", description="W35-AMB-21"
    )
    mob_morale_overrides_immunity: bool = Field(False, description="W35-AMB-23")
    crossbow_cap_by_target: bool = Field(False, description="W35-AMB-34")
    flank_bonus_mutual: bool = Field(True, description="W35-AMB-39")
    npc_counter_rule_in_play: Literal["entry_only", "eject"] = Field(
        "entry_only", description="W35-AMB-63"
    )
    leadership_morale_cap: Annotated[Whole, Field(ge=0, le=60)] | None = Field(
        None, description="W35-AMB-80: cap on the Leadership bonus (none: the full level)."
    )
    mob_charge_scope: Literal["first_in_battle", "per_engagement"] = Field(
        "first_in_battle", description="W35-AMB-84"
    )
    unit_crits: bool = Field(True, description="W35-AMB-89")
    recovery_healer_scope: Literal["unit", "army"] = Field("unit", description="W35-AMB-60")
    round_limit: Rounds | None = Field(None, description="W35-AMB-99: end after this round.")
    proportional_saves: bool = Field(False, description="W35-PROP-01..03: a share of the "
                                     "counters in an area fails instead of one unit save.")
    units_cast_spells: bool = Field(False, description="W35-UCAST-01: units may cast spells.")
    aoe_table: Literal["printed", "corrected", "geometric"] = Field(
        "corrected", description="W35-AMB-52")
    aoe_fraction_mode: Literal["scale", "round_up", "probabilistic"] = Field(
        "scale", description="W35-AMB-53")
    tower_damage_factor: Annotated[float, Field(ge=0, le=1)] = Field(
        0.75, description="W35-AMB-47: the share of a siege tower's archers' damage kept.")
    siege_start_loaded: bool = Field(True, description="W35-AMB-48")


class Attack(Strict):
    """One attack of a stat block: total bonus and damage as the 3.5 stat block prints them
    (W35-AMB-04: the bonus already holds BAB, ability and size modifiers)."""

    name: Name = "attack"
    bonus: Modifier
    damage: Dice
    crit_range: CritRange = Field(20, description="Lowest natural roll that threatens.")
    crit_multiplier: CritMultiplier = 2
    range_increment: Annotated[Whole, Field(ge=5, le=2000)] | None = Field(
        None, description="Feet; set for ranged attacks only (W35-STAT-16)."
    )
    thrown: bool = Field(False, description="A thrown weapon: 5 increments (W35-AMB-36).")
    crossbow: bool = Field(False, description="Flat fire (W35-DMG-07).")
    reach: bool = Field(False, description="A reach weapon (W35-DEFEND-01, W35-TYPE-03).")
    magic: bool = Field(False, description="A magic weapon (W35-AMB-74).")


SpellName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
SpellEffect = Literal["damage", "heal", "buff", "penalty", "hinder", "disable", "fear", "hd"]
SaveName = Literal["none", "fort", "ref", "will"]
RangeName = Literal["personal", "touch", "close", "medium", "long"]
StatName = Literal["attack", "ac", "saves", "damage", "morale"]
SiegeWeaponName = Literal["ballista", "light_catapult", "heavy_catapult", "trebuchet"]


class SpellArea(Strict):
    """The area of an area spell (W35-AOE-01: only the 5-ft squares it covers matter)."""

    shape: Literal["circle", "cone", "line"]
    feet: Annotated[Whole, Field(ge=5, le=1000)] = Field(
        description="Radius of a circle (burst, spread, emanation); length of a cone or line.")
    squares: Annotated[Whole, Field(ge=1, le=100_000)] | None = Field(
        None, description="5-ft squares covered, for an area not in table W35-AOE-03 "
        "(W35-AMB-53); default: the table's 5-ft column.")


class Spell(Strict):
    """A spell as the battle uses it (W35-MAGIC, W35-SPELL): what it does to a creature, a
    unit or an area. Numbers are per creature; the rules scale them to units."""

    name: SpellName
    level: Annotated[Whole, Field(ge=0, le=9)]
    effect: SpellEffect = Field(description="What it does to those it affects (W35-SPELL-02).")
    casting_rounds: Annotated[Whole, Field(ge=1, le=10)] = Field(
        1, description="Rounds to cast; 1 for a standard action or less (W35-MAGIC-02).")
    range: RangeName | Annotated[Whole, Field(ge=5, le=100_000)] = Field(
        "medium", description="A 3.5 range name, or feet (W35-MAGIC-07/08).")
    area: SpellArea | None = Field(None, description="None: a spell aimed at one target.")
    targets: Annotated[Whole, Field(ge=1, le=100)] = Field(
        1, description="Creatures a non-area spell affects (several: W35-AMB-96).")
    save: SaveName = "none"
    on_save: Literal["half", "negates"] = "negates"
    ranged_touch: bool = Field(False, description="Needs a ranged touch attack (W35-UCAST-08).")
    damage: Dice | None = Field(None, description="Damage per creature, before caster levels.")
    damage_per_level: Dice | None = Field(
        None, description="Damage dice per caster level (fireball: 1d6).")
    heal: Dice | None = Field(None, description="Healing per creature (cure light: 1d8).")
    heal_per_level: Annotated[Whole, Field(ge=0, le=100)] = Field(
        0, description="Healing added per caster level (cure light: +1).")
    level_cap: Annotated[Whole, Field(ge=1, le=60)] | None = Field(
        None, description="The most caster levels that count for damage or healing.")
    per_level_step: Annotated[Whole, Field(ge=1, le=20)] = Field(
        1, description="Caster levels per added `damage_per_level` (magic missile: 2).")
    per_level_from: Annotated[Whole, Field(ge=1, le=20)] = Field(
        1, description="The caster level at which `damage_per_level` is first added "
        "(scorching ray: 3).")
    stat: StatName | None = Field(None, description="The number a buff or penalty changes.")
    amount: Annotated[Whole, Field(ge=-20, le=20)] = Field(
        0, description="A buff's bonus or a penalty (negative) (W35-SPELL-09, W35-AMB-96).")
    speed: Literal["zero", "half"] | None = Field(
        None, description="A hindering spell's effect on speed (W35-SPELL-06..08).")
    hit_dice: Dice | None = Field(
        None, description="Hit Dice affected (sleep: 4; W35-SPELL-14).")
    max_hd: Annotated[Whole, Field(ge=1, le=60)] | None = Field(
        None, description="Creatures of more HD than this are not affected (sleep: 4).")
    creature_types: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=10,
        description="Only creatures of these types are affected (empty: all).")
    duration: Annotated[Whole, Field(ge=0, le=1000)] = Field(
        0, description="Rounds the effect lasts (0: instant).")
    duration_per_level: Annotated[Whole, Field(ge=0, le=100)] = Field(
        0, description="Rounds added per caster level.")
    description: Annotated[str, Field(max_length=400)] = ""


class KnownSpell(Strict):
    """A spell a creature can cast in the battle, and how often."""

    spell: SpellName
    uses: Annotated[Whole, Field(ge=1, le=100)] | None = Field(
        None, description="Casts in the battle (slots per day); none: at will.")
    dc: Annotated[Whole, Field(ge=1, le=100)] | None = Field(
        None, description="Its save DC; default 10 + spell level + the caster's "
        "`casting_modifier`.")
    recharge: Annotated[Whole, Field(ge=0, le=10)] = Field(
        0, description="Rounds it must wait between uses (a breath weapon: W35-ABIL-07).")
    special: bool = Field(
        False, description="A special attack or breath weapon cast as this spell "
        "(W35-ABIL-06/07): no spell slot, usable by any creature.")


class Creature(Strict):
    """A 3.5 stat block: the typical member of a unit, or a singular creature."""

    name: Name
    size: SizeName = "medium"
    type: Annotated[str, Field(max_length=40)] = Field(
        "humanoid", description="Creature type; `dragon` is ferocious by default (W35-AMB-19)."
    )
    race: Annotated[str, Field(max_length=40)] = ""
    class_name: Annotated[str, Field(max_length=40)] = Field(
        "", alias="class", description="Class; `fighter`/`barbarian` change morale (W35-STAT-02)."
    )
    level: Level = Field(1, description="Character level, or Hit Dice for monsters.")
    hd: Level | None = Field(None, description="Hit Dice (default: level).")
    hp: HitPoints
    ac: ArmorClass
    touch_ac: ArmorClass | None = None
    dr: Annotated[Whole, Field(ge=0, le=100)] = Field(0, description="Damage reduction.")
    mundane_immune: bool = Field(False, description="Immune to mundane damage (W35-ABIL-08).")
    initiative: Modifier = 0
    fort: Modifier = 0
    ref: Modifier = 0
    will: Modifier = 0
    speed: Speed = 30
    fly_speed: Speed | None = None
    incorporeal: bool = False
    cha: Ability = 10
    str_score: Ability = Field(
        10, alias="str", description="Strength: a ram's swing adds its modifier (W35-RAM-04).")
    dex_score: Ability = Field(
        10, alias="dex", description="Dexterity: a ram unit loses its bonus to AC (W35-RAM-08).")
    int_score: Ability | None = Field(
        10, alias="int", description="Intelligence; null for mindless creatures (W35-STAT-05)."
    )
    alignment: Annotated[str, Field(max_length=30)] = "neutral"
    undead: bool = False
    mind_controlled: bool = False
    flank_immune: bool = Field(False, description="Cannot be flanked (W35-MULTI-04).")
    crit_immune: bool = Field(False, description="Immune to critical hits (W35-AMB-89).")
    water_native: bool = Field(False, description="Native to water (W35-TERR-12).")
    melee: list[Attack] = Field(default_factory=list, max_length=20)
    ranged: list[Attack] = Field(default_factory=list, max_length=20)
    feats: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=40)
    regeneration: bool = Field(False, description="W35-ABIL-09/10")
    ferocious: bool | None = Field(None, description="W35-AMB-19 (default: dragons only).")
    heal_ranks: Annotated[Whole, Field(ge=0, le=60)] = Field(0, description="W35-RECOV-06")
    cleric_level: Level = Field(0, description="Cleric levels with healing spells (W35-RECOV-05).")
    caster_level: Level = Field(0, description="Caster level for its spells (W35-MAGIC-01).")
    casting_modifier: Modifier = Field(
        0, description="The spellcasting ability modifier, for save DCs.")
    spells: list[KnownSpell] = Field(default_factory=list, max_length=60)
    turning_level: Level = Field(
        0, description="Level at which it turns undead (W35-SPELL-15); 0: cannot.")
    turning_uses: Annotated[Whole, Field(ge=0, le=30)] = Field(
        0, description="Turning attempts in the battle.")

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, populate_by_name=True)


class Mount(Strict):
    """The mounts of a mounted unit (W35-TYPE-02..12)."""

    size: SizeName = "large"
    speed: Speed = 50
    fly_speed: Speed | None = None
    attacks: list[Dice] = Field(default_factory=list, max_length=10)
    barding: Annotated[Whole, Field(ge=0, le=20)] = Field(0, description="Armor bonus of barding.")
    intelligent: bool = Field(False, description="Fights on its own: its HP add (W35-TYPE-12).")
    hp: Annotated[Whole, Field(ge=0, le=10_000)] = 0


class UnitSpec(Strict):
    """One unit: the typical creature, how many there are, and where the counters stand."""

    id: Ident
    name: Name | None = None
    creature: Creature
    count: Annotated[Whole, Field(ge=1, le=CREATURES_MAX)] = Field(
        description="Creatures in the unit (at least 1, W35-AMB-93)."
    )
    mob: bool = False
    mount: Mount | None = None
    chariot: bool = False
    flying: bool = False
    training_months: Annotated[Whole, Field(ge=0, le=1200)] = 0
    battles: Annotated[Whole, Field(ge=0, le=1000)] = 0
    enslaved: bool = False
    morale_override: Modifier | None = Field(None, description="W35-AMB-03")
    move_rate_override: Annotated[Whole, Field(ge=0, le=100)] | None = Field(
        None, description="W35-AMB-11 (squares a round)."
    )
    counters: list[Coord] | None = Field(
        None, max_length=10_000,
        description="The square of every counter; or give `at` and `columns`.",
    )
    at: Coord | None = Field(None, description="The front-left counter of a block formation.")
    columns: Annotated[Whole, Field(ge=1, le=MAP_MAX)] | None = Field(
        None, description="Counters in the front rank of the block (default: all in one rank)."
    )
    facing: FacingName = Field("N", description="The heading before the first move (W35-AMB-42).")
    leader: Ident | None = Field(None, description="The NPC or PC leading it (W35-AMB-79).")
    guarding_walls: bool = Field(False, description="Exposed in a fortification (W35-AMB-45).")
    enters_round: Rounds | None = Field(
        None, description="A reinforcement arriving at the start of this round (W35-AMB-95); "
        "its `counters`/`at` are optional and only say where along the edge it wants to be.")
    enters_edge: EdgeName | None = Field(None, description="The edge a reinforcement enters on.")
    siege_weapon: SiegeWeaponName | None = Field(
        None, description="The siege weapon the unit carries (W35-SWU-01/02).")
    siege_trained: bool = Field(True, description="Trained operators; else -4 (W35-SWU-06).")
    siege_tower: bool = Field(False, description="A siege tower unit (W35-TOWER-06).")
    ram: bool = Field(False, description="A battering ram unit (W35-RAM-06, W35-AMB-75).")
    machine_hp: Annotated[Whole, Field(ge=1, le=10_000)] | None = Field(
        None, description="The machine's HP (default: siege weapon 80, tower 100).")
    machine_ac: ArmorClass | None = Field(None, description="The machine's AC (default 3).")
    machine_hardness: Annotated[Whole, Field(ge=0, le=100)] | None = Field(
        None, description="The machine's hardness (default 5).")
    siege_bab: Annotated[int, Field(ge=0, le=40)] | None = Field(
        None, description="The operators' base attack bonus for the siege weapon "
        "(W35-SIEGE-08; default: the best stat-block attack bonus less the size modifier).")


class Area(Strict):
    """A rectangle of squares, corners included."""

    rect: tuple[Coord, Coord]


class MonsterSpec(Strict):
    """A monster: a singular creature in one square, belonging to no unit (W35-MON)."""

    id: Ident
    creature: Creature
    at: Coord
    allied: bool = Field(
        True, description="Allied to its side's army (W35-PLACE-10); false: hostile to all, "
        "placed by W35-PLACE-11/12 (W35-AMB-71).")


class CharacterSpec(Strict):
    """An NPC or a PC, starting embedded in a unit of its side (W35-NPC-06, W35-PLACE-15)."""

    id: Ident
    creature: Creature
    unit: Ident = Field(description="The unit it starts in.")
    role: Literal["member", "leader", "independent", "squad"] = Field(
        "member", description="A PC's role (W35-PC-01); an NPC may lead its unit."
    )
    leadership: bool = Field(False, description="Has the Leadership feat (W35-MORALE-04).")
    officer: bool = Field(False, description="An officer or spellcaster (W35-PC-11).")


class SideSpec(Strict):
    """One side: its commander kind, units, monsters, NPCs and PCs."""

    name: Name
    commander: Annotated[str, Field(max_length=40)] = "ai"
    orders: Annotated[str, Field(max_length=400)] | None = Field(
        None, description="File of orders for a scripted commander, one per line."
    )
    home_edge: EdgeName | None = Field(None, description="Where its routed units flee (W35-AMB-65).")
    units: list[UnitSpec] = Field(default_factory=list, max_length=UNITS_MAX)
    monsters: list[MonsterSpec] = Field(default_factory=list, max_length=SINGULARS_MAX)
    npcs: list[CharacterSpec] = Field(default_factory=list, max_length=SINGULARS_MAX)
    pcs: list[CharacterSpec] = Field(default_factory=list, max_length=SINGULARS_MAX)
    forbidden: list[Area] = Field(
        default_factory=list, max_length=100,
        description="Areas where this side may not place units or monsters (W35-PLACE-08).")
    faster_first: bool = Field(
        False, description="No unit of this side may stand farther from the enemy than a "
        "slower one (W35-PLACE-08, W35-DEC-38).")
    rams: Annotated[Whole, Field(ge=0, le=20)] = Field(
        0, description="Battering rams the side may form in play from its most forward unit "
        "(W35-RAM-06, W35-AMB-75, W35-DEC-26).")


class TerrainSpec(Area):
    """Terrain over a rectangle: its kind, water, height, an up-slope cost, sight blocking."""

    kind: TerrainName = "clear"
    water: bool = False
    elevation: Annotated[Whole, Field(ge=0, le=100)] = 0
    slope_cost: Annotated[Whole, Field(ge=2, le=4)] | None = Field(
        None, description="Cost to climb into these squares from lower ones (W35-TERR-14)."
    )
    blocks_sight: bool = False


class StructureSpec(Area):
    """A structure section: its type for DR, hit points and hardness (W35-AMB-45)."""

    id: Ident
    type: StructureName
    hp: Annotated[Whole, Field(ge=1, le=100_000)] | None = None
    hardness: Annotated[Whole, Field(ge=0, le=100)] = 0
    barrier: bool = Field(
        False, description="A wall or gate: no unit may enter it until it is breached, but "
        "its holders' units may stand on it (towers: W35-TOWER-19..21).")
    gate: bool = Field(False, description="A gate its holders may pass through.")
    held_by: Name | None = Field(None, description="The side that holds the wall or gate.")


class MapSpec(Strict):
    """The battlefield at the battle's scale."""

    width: Annotated[Whole, Field(ge=4, le=MAP_MAX)]
    height: Annotated[Whole, Field(ge=4, le=MAP_MAX)]
    terrain: list[TerrainSpec] = Field(default_factory=list, max_length=10_000)
    structures: list[StructureSpec] = Field(default_factory=list, max_length=1000)


class Dnd35WarsScenario(Strict):
    """A whole `dnd35-wars` scenario."""

    ruleset: Literal["dnd35-wars"]
    name: Annotated[str, Field(max_length=120)] | None = None
    description: Annotated[str, Field(max_length=4000)] | None = None
    scale: Scale = Field(description="Feet per square (W35-SCALE-01, W35-AMB-07).")
    map: MapSpec
    aggressor: Name | None = Field(None, description="The attacking side (W35-PLACE-03).")
    placement_winner_places: Literal["first", "last"] = Field(
        "last", description="With no aggressor, whether the winner of the 1d20 roll-off "
        "places first or last (W35-PLACE-04, W35-DEC-05).")
    options: Options = Field(default_factory=Options)
    spell_library: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=10,
        description="Spell files to include: `core` for the shipped library, or a path "
        "relative to the scenario.")
    spells: list[Spell] = Field(
        default_factory=list, max_length=500,
        description="Spell definitions; the included libraries' follow them, less any spell "
        "of the same name defined here.")
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
