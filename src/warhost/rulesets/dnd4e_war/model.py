"""The `dnd4e-war` scenario file, as pydantic models (these also give the JSON Schema).

Distances are inches on the table (x east, y north, origin at the south-west corner);
bearings and facings are compass degrees (0 north, 90 east), as in
:mod:`warhost.geometry.table`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warhost.core.bounds import Finite, Rounds, Whole

TABLE_MAX = 1000.0
"""The widest and deepest table, in inches."""

UNITS_MAX = 500
"""The most units one side may field."""

COMPANIES_MAX = 40
"""The most companies in one unit."""

MODELS_MAX = 64
"""The most models in one company (or in one skirmishing unit: ``MODELS_MAX`` x 4)."""

Ident = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_\-]+$")]
Label = Annotated[str, Field(max_length=80)]
Coordinate = Annotated[Finite, Field(ge=-TABLE_MAX, le=TABLE_MAX)]
Point = tuple[Coordinate, Coordinate]
Bearing = Annotated[Finite, Field(ge=-360, le=360)]
Inches = Annotated[Finite, Field(ge=0, le=TABLE_MAX)]
Speed = Annotated[Finite, Field(ge=0, le=40)]
Bonus = Annotated[Whole, Field(ge=-20, le=80)]
Defense = Annotated[Whole, Field(ge=0, le=80)]
Small = Annotated[Whole, Field(ge=0, le=20)]
Level = Annotated[Whole, Field(ge=1, le=30)]
DiceText = Annotated[str, Field(max_length=40, pattern=r"^[0-9dDwW\[\]+\- ]+$")]
"""Damage such as ``1d10+4``, ``2[W]+3`` or ``7``."""
_DICE = r"[0-9dDwW\[\]+\- ]+"
DamageText = Annotated[str, Field(max_length=124, pattern=rf"^{_DICE}(/{_DICE}/{_DICE})?$")]
"""Damage, or W4-ARMY-12 three values for heroic/paragon/epic battles: ``1d8+3/2d8+6/3d8+9``."""
TierPoints = Annotated[str, Field(max_length=40,
                                  pattern=r"^\s*\d{1,8}\s*/\s*\d{1,8}\s*/\s*\d{1,8}\s*$")]
"""W4-ARMY-10: points per company for heroic/paragon/epic battles, ``200/1200/6400``."""
BattleSize = Literal["small", "medium", "large", "huge"]
"""W4-ARMY-05."""
Category = Literal["common", "special", "rare"]
"""W4-ARMY-09, W4-AMB-71: the formation category of a unit profile."""

Size = Literal["small", "medium", "large", "huge", "gargantuan"]
DefenseName = Literal["ac", "fortitude", "reflex", "will"]
Condition = Literal["dazed", "stunned", "slowed", "immobilized", "weakened", "blinded",
                    "restrained", "dominated"]
"""Conditions a power may inflict that a saving throw ends (W4-CAS-10)."""
PowerKind = Literal["melee", "ranged", "area_burst", "close_burst", "close_blast"]
Formation = Literal["companies", "skirmish"]
SpecialRule = Literal[
    "fear", "terror", "fearless", "immune_to_psychology", "stubborn", "stalwart",
    "songweaver", "bard", "to_the_last_man",
]
Victory = Literal["points", "destroy", "rout", "hold_ground"]
CharacterClass = Literal[
    "avenger", "barbarian", "bard", "cleric", "druid", "fighter", "invoker", "paladin",
    "ranger", "rogue", "shaman", "sorcerer", "swordmage", "warden", "warlock", "wizard",
]
"""W4-CLASS-04: the classes that have a war rule."""


class Strict(BaseModel):
    """Base for every scenario model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class CoverValues(Strict):
    """W4-AMB-46: what cover and concealment add to the target's AC."""

    cover: Small = 2
    superior_cover: Small = 5
    concealment: Small = 2
    total_concealment: Small = 5


class VictorySpec(Strict):
    """W4-AMB-74: how the battle is won (see docs/rulings/dnd4e-war.md)."""

    kind: Victory = Field("points", description=(
        "points: the value of enemy units destroyed or still fleeing at the end decides; "
        "destroy: a side with no units left on the table loses at once; "
        "rout: a side whose every unit is destroyed or fleeing loses at once; "
        "hold_ground: at the end, the side with the most unit strength within `radius` of "
        "`objective` (not fleeing) wins."))
    draw_margin: Annotated[Finite, Field(ge=0, le=1)] = Field(
        0.1, description="points: a difference under this share of the larger army's value "
                         "is a draw.")
    objective: Point | None = None
    radius: Annotated[Finite, Field(gt=0, le=TABLE_MAX)] = 6.0


class Options(Strict):
    """Every ruling that is a matter of taste (see docs/rulings/dnd4e-war.md)."""

    turn_limit: Rounds = Field(6, description="W4-AMB-74: the battle ends after this turn.")
    victory: VictorySpec = Field(default_factory=VictorySpec)
    deployment_depth: Inches = Field(
        12.0, description="W4-AMB-74: a side's units deploy within this many inches of its "
                          "edge (0: anywhere).")
    wheel_distance: Literal["outer_front_corner", "farthest_corner"] = Field(
        "outer_front_corner", description="W4-AMB-93: the corner whose arc a wheel pays.")
    unstoppable_charge: Literal["none", "ignore_fear_test", "+1_resolution"] = Field(
        "none", description="W4-AMB-12: what a charge roll of 6 adds.")
    pursuit_catch: Literal["destroy", "charge_next_turn"] = Field(
        "destroy", description="W4-AMB-19: a pursuer reaching its quarry.")
    charged_fleeing_unit_destroyed: bool = Field(
        True, description="W4-AMB-17/18: a fleeing unit contacted by a charge is destroyed.")
    fear_causers_immune: bool = Field(
        False, description="W4-AMB-43: units that cause fear (terror) ignore fear (and terror).")
    cover_values: CoverValues = Field(default_factory=CoverValues)
    per_company_range: bool = Field(
        False, description="W4-AMB-48: each company that shoots must itself be in range.")
    multiattack_vs_nonminions: bool = Field(
        False, description="W4-AMB-52: a multiattack may aim all its attacks at a non-minion.")
    shoot_into_combat: bool = Field(
        False, description="W4-AMB-80: units in close combat may be shot at.")
    points_table: Literal["corrected", "literal"] = Field(
        "corrected", description="W4-AMB-67: the army budget table with its misprints "
                                 "corrected, or as printed.")
    huge_steps: Annotated[Whole, Field(ge=1, le=20)] = Field(
        1, description="W4-AMB-68: how many size steps a Huge battle adds to Large.")
    points_overage: Annotated[Whole, Field(ge=0, le=10_000_000)] = Field(
        0, description="W4-AMB-69: points an army may spend over its budget.")


class Board(Strict):
    """W4-AMB-75: the table, in inches."""

    width: Annotated[Finite, Field(ge=12, le=TABLE_MAX)] = 72.0
    height: Annotated[Finite, Field(ge=12, le=TABLE_MAX)] = 48.0


class TerrainSpec(Strict):
    """A terrain piece: a rectangle (x, y of the south-west corner, width, height) or a
    polygon, with what it does (W4-MOVE-24, W4-AMB-32, W4-AMB-45, W4-AMB-46, W4-MELEE-10)."""

    name: Label = ""
    rect: tuple[Coordinate, Coordinate, Inches, Inches] | None = None
    polygon: list[Point] | None = Field(None, min_length=3, max_length=200)
    height: Small = Field(0, description="W4-AMB-32: height of the ground, for high ground.")
    difficult: bool = False
    impassable: bool = False
    blocks_sight: bool = False
    cover: Literal["none", "cover", "superior_cover"] = "none"
    concealment: Literal["none", "concealment", "total_concealment"] = "none"
    barrier: bool = Field(False, description="W4-MELEE-10: a wall; cover in close combat.")


class Defenses(Strict):
    """W4-STAT-11: AC, Fortitude, Reflex and Will."""

    ac: Defense
    fortitude: Defense
    reflex: Defense
    will: Defense


class Power(Strict):
    """A 4e power the unit's models use (W4-STAT-14): attack bonus against a defense, range or
    reach, area and damage."""

    name: Label
    kind: PowerKind
    bonus: Bonus
    vs: DefenseName = "ac"
    range: Inches = Field(0, description="Ranged and area burst powers: range in inches.")
    reach: Annotated[Whole, Field(ge=1, le=10)] = 1
    area: Small = Field(0, description="Burst or blast size in inches.")
    damage: DamageText = "1d6"
    weapon_dice: DiceText | None = Field(None, description="What one [W] rolls, e.g. 1d10.")
    usage: Literal["at-will", "encounter", "daily"] = "at-will"
    keywords: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list,
                                                                  max_length=10)
    zone: bool = False
    effect: Condition | None = Field(None, description=(
        "W4-MULTI-06: a condition a hit inflicts on the target unit (save ends); in a "
        "multiattack only the first use carries it."))
    extra_attacks: Annotated[Whole, Field(ge=0, le=5)] = Field(0, description=(
        "W4-MULTI-07: further attacks the power itself grants (Twin Strike 1); in a "
        "multiattack they come with the first use only."))


class CompanyLayout(Strict):
    """W4-AMB-04: models per company laid out columns x rows on the tray."""

    columns: Annotated[Whole, Field(ge=1, le=16)]
    rows: Annotated[Whole, Field(ge=1, le=8)]


MachineKind = Literal["bolt_thrower", "stone_thrower"]


class MachineSpec(Strict):
    """W4-WM-01/02, W4-AMB-60: the war machine a crew unit works. The seed gives none of its
    numbers, so range, attack bonus and damage (and a stone thrower's burst size and the
    defense it attacks) must be given; validation refuses a machine without them."""

    kind: MachineKind
    range: Annotated[Finite, Field(gt=0, le=TABLE_MAX)] | None = Field(
        None, description="W4-AMB-60: maximum range in inches.")
    bonus: Bonus | None = Field(None, description="W4-AMB-60, W4-BOLT-02: the primary "
                                                  "attack bonus (heroic tier).")
    vs: DefenseName | None = Field(None, description="The defense attacked (bolt throwers: "
                                                     "Reflex, W4-BOLT-02).")
    damage: DiceText | None = Field(None, description="W4-AMB-60: damage of a hit (bolt "
                                                      "throwers: the primary attack's).")
    burst: Small | None = Field(None, description="W4-STONE-08, W4-AMB-60: a stone "
                                                  "thrower's area burst size.")
    size: Annotated[Finite, Field(gt=0, le=10)] = Field(
        2.0, description="Width of the machine's square footprint, in inches.")
class TierLine(Strict):
    """W4-ARMY-11: a profile's own paragon or epic stat line, used instead of adding 10 or 20.
    Attack bonuses of powers it does not name keep their heroic values."""

    initiative: Bonus
    defenses: Defenses
    hp: Annotated[Whole, Field(ge=1, le=5000)] | None = None
    powers: dict[Label, Bonus] = Field(default_factory=dict, max_length=20, description=(
        "Attack bonus of each named power at this tier."))


class Profile(Strict):
    """A unit profile from a 4e stat block (W4-STAT section); in ``profiles`` the name
    defaults to its key."""

    name: Label = ""
    race: Annotated[str, Field(max_length=30)] | None = None
    courage: Bonus | None = Field(None, description="W4-AMB-40: racial bonus when the race is "
                                                    "not in the table.")
    level: Level = 1
    size: Size = "medium"
    formation: Formation = "companies"
    cavalry: bool = False
    monster: bool = False
    mount_size: Size | None = Field(None, description="W4-STR-03: a cavalry model counts its "
                                                      "mount's unit strength.")
    mount_monster: bool = False
    speed: Speed
    initiative: Bonus = 0
    hp: Annotated[Whole, Field(ge=1, le=5000)] | Literal["1/-", "minion"] = "1/-"
    resilience: Annotated[Whole, Field(ge=1, le=10)] = 1
    attacks: Annotated[Whole, Field(ge=1, le=10)] = 1
    defenses: Defenses
    saves: Small = 0
    unit_size: tuple[Annotated[Whole, Field(ge=1, le=COMPANIES_MAX * 4)],
                     Annotated[Whole, Field(ge=1, le=COMPANIES_MAX * 4)]] = Field(
        (1, 4), description="W4-STAT-10: least and most companies (skirmishers: models).")
    company: CompanyLayout | None = Field(None, description="W4-AMB-04: default 4 x 2, "
                                                             "cavalry 2 x 1.")
    base: Annotated[Finite, Field(gt=0, le=10)] | None = Field(
        None, description="Base width in inches (default: Small/Medium 1, Large 2, Huge 3, "
                          "Gargantuan 4).")
    rules: list[SpecialRule] = Field(default_factory=list, max_length=10)
    powers: list[Power] = Field(default_factory=list, max_length=20)
    points: Annotated[Whole, Field(ge=0, le=10_000_000)] | TierPoints | None = Field(
        None, description="Value per company (skirmishers: per model), for points victory and "
                          "army building; W4-ARMY-10: \"200/1200/6400\" gives the heroic, "
                          "paragon and epic values.")
    machine: MachineSpec | None = Field(
        None, description="W4-WM-02: the unit is a war machine's crew (skirmishers).")
    category: Category | None = Field(
        None, description="W4-ARMY-09, W4-AMB-71: common, special or rare formation.")
    paragon: TierLine | None = Field(
        None, description="W4-ARMY-11: the stat line used in paragon battles instead of +10.")
    epic: TierLine | None = Field(
        None, description="W4-ARMY-11: the stat line used in epic battles instead of +20.")

    @field_validator("race")
    @classmethod
    def _lower(cls, value: str | None) -> str | None:
        return value.lower() if value else value

    @field_validator("rules", mode="before")
    @classmethod
    def _no_frenzy(cls, value: object) -> object:
        if isinstance(value, list) and "frenzy" in value:
            raise ValueError("frenzy is named by the rules but given no effect, so it cannot be "
                             "used (W4-AMB-76)")
        return value


class CaptainSpec(Strict):
    """W4-CMD-06: the unit's captain, a character in the command company."""

    name: Label = "Captain"
    attacks: Annotated[Whole, Field(ge=1, le=10)] = 1
    action_points: Small = 1
    level: Level | None = None


class CommandSpec(Strict):
    """W4-CMD section: the command models of a unit."""

    captain: CaptainSpec | None = None
    standard: bool = False
    battle_standard: bool = False
    musician: bool = False


class UnitSpec(Strict):
    """One unit on the table.

    ``at`` is the middle of the unit's front edge (companies) or of its group (skirmishers);
    ``files`` the companies in the front rank."""

    id: Ident
    name: Label | None = None
    profile: Annotated[str, Field(max_length=80)] | Profile
    companies: Annotated[Whole, Field(ge=1, le=COMPANIES_MAX * 4)] = Field(
        1, description="Companies (skirmishers: models).")
    models: Annotated[Whole, Field(ge=1, le=COMPANIES_MAX * MODELS_MAX)] | None = Field(
        None, description="Models alive at the start, if fewer than full strength.")
    files: Annotated[Whole, Field(ge=1, le=COMPANIES_MAX)] | None = None
    at: Point
    facing: Bearing = 0.0
    command: CommandSpec = Field(default_factory=CommandSpec)
    machine_at: Point | None = Field(
        None, description="W4-WM-03: where a crew's war machine stands (default: just in "
                          "front of the crew); within 2\" of every crewman.")


class CharacterSpec(Strict):
    """A character (W4-CHAR-01): a player character built with the 4e rules, or any creature
    with action points. He starts either alone at ``at`` or inside the allied unit ``joined``
    (W4-CHAR-03). Resilience, Attacks and action points default to his class's tier values
    (W4-CLASS-02)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, populate_by_name=True)

    id: Ident
    name: Label | None = None
    character_class: CharacterClass | None = Field(
        None, alias="class", description="W4-CLASS-04: the class whose war rule he has.")
    level: Level
    race: Annotated[str, Field(max_length=30)] | None = None
    courage: Bonus | None = Field(None, description="W4-AMB-40: racial courage bonus when the "
                                                    "race is not in the table.")
    size: Size = "medium"
    mount_size: Size | None = Field(None, description="W4-STR-03/04: his mount's size.")
    mount_monster: bool = False
    mount_hp: Annotated[Whole, Field(ge=1, le=5000)] | None = Field(
        None, description="W4-MONSTER-07/08: the monstrous mount's hit points (give with "
                          "mount_defenses: then attacks at the rider may strike the mount).")
    mount_defenses: Defenses | None = None
    speed: Speed
    initiative: Bonus = 0
    hp: Annotated[Whole, Field(ge=1, le=5000)]
    resilience: Annotated[Whole, Field(ge=1, le=10)] | None = None
    attacks: Annotated[Whole, Field(ge=1, le=10)] | None = None
    action_points: Small | None = None
    defenses: Defenses
    saves: Small = 0
    base: Annotated[Finite, Field(gt=0, le=10)] | None = None
    rules: list[SpecialRule] = Field(default_factory=list, max_length=10)
    powers: list[Power] = Field(default_factory=list, max_length=20)
    at: Point | None = Field(None, description="Where he stands when he starts alone.")
    facing: Bearing = 0.0
    joined: Ident | None = Field(None, description="W4-CHAR-03: the allied unit he starts in.")
    general: bool = Field(False, description="W4-GEN-01: the army's general.")
    initiative_roll_bonus: Annotated[int, Field(ge=-10, le=10)] = Field(
        0, description="W4-GEN-05: a power bonus (or penalty) to his initiative rolls; a "
                       "general's is added to his army's initiative roll.")
    fighting_style: Literal["archer", "two_blade"] | None = Field(
        None, description="W4-CLASS-14/15, W4-DEC-32: a ranger's fighting style.")
    oath_target: Ident | None = Field(None, description="W4-CLASS-05: the avenger's Oath of "
                                                        "Enmity target (a character id).")
    cursed_unit: Ident | None = Field(None, description="W4-CLASS-22: the unit the warlock "
                                                        "curses.")
    beast_form: bool = Field(False, description="W4-CLASS-10: a druid in beast form.")
    spirit_power: Label | None = Field(None, description="W4-CLASS-18: the shaman's at-will "
                                                         "spirit power (a power name).")
    warding_ac: Small = Field(0, description="W4-CLASS-20, W4-AMB-86: the AC Swordmage "
                                             "Warding gives.")
    items: list[Label] = Field(default_factory=list, max_length=20, description=(
        "W4-ITEM-10: his own magic items (outside the army's item limit and points)."))


# ---- army building (W4-ARMY, W4-ITEM, W4-DEC-01)


class BattleSpec(Strict):
    """W4-ARMY-04/05, W4-DEC-01: the battle's level and size, agreed by both players."""

    level: Level
    size: BattleSize = "medium"


class ArmyUnit(Strict):
    """One unit bought for an army: whole companies at full strength (W4-AMB-95)."""

    id: Ident
    name: Label | None = None
    profile: Annotated[str, Field(max_length=80)] | Profile
    companies: Annotated[Whole, Field(ge=1, le=COMPANIES_MAX * 4)] = Field(
        1, description="Companies bought (skirmishers: models).")
    files: Annotated[Whole, Field(ge=1, le=COMPANIES_MAX)] | None = None
    command: CommandSpec = Field(default_factory=CommandSpec)
    xp: Annotated[Whole, Field(ge=1, le=10_000_000)] | None = Field(
        None, description="W4-ARMY-08: a Monster Manual monster bought at this XP value a "
                          "model, always a rare formation.")


class ItemSpec(Strict):
    """W4-ITEM-01 to 05: an army magic item and the unit that carries it."""

    name: Label
    level: Level
    unit: Ident = Field(description="W4-ITEM-02: the unit that carries it.")
    bonus: Literal["attack", "defenses", "none"] = Field(
        "none", description="W4-ITEM-03: what it improves for the model carrying it (+2).")


class BannerSpec(Strict):
    """W4-ITEM-06 to 09: the army's battle banner and the character who bears it."""

    name: Label = "Battle banner"
    level: Level
    bearer: Ident = Field(description="W4-ITEM-06: a character of the army.")
    owned: bool = Field(False, description="W4-ITEM-09: the bearer's own magic banner, "
                                           "costing one magic item instead of two.")


class CampaignSpec(Strict):
    """W4-ARMY-02/04: the adventuring party of a campaign battle."""

    party_size: Annotated[Whole, Field(ge=1, le=20)]
    party_level: Level


class ArmySpec(Strict):
    """An army list (W4-DEC-01): its battle level and size, units, characters, magic items
    and battle banner. Points options left out take the scenario's (or the defaults)."""

    ruleset: Literal["dnd4e-war"] = "dnd4e-war"
    name: Label
    description: Annotated[str, Field(max_length=2000)] = ""
    level: Level
    size: BattleSize = "medium"
    points_table: Literal["corrected", "literal"] | None = None
    huge_steps: Annotated[Whole, Field(ge=1, le=20)] | None = None
    points_overage: Annotated[Whole, Field(ge=0, le=10_000_000)] | None = None
    campaign: CampaignSpec | None = None
    profiles: dict[Annotated[str, Field(max_length=80)], Profile] = Field(
        default_factory=dict, max_length=200)
    units: list[ArmyUnit] = Field(min_length=1, max_length=UNITS_MAX)
    characters: list[CharacterSpec] = Field(default_factory=list, max_length=UNITS_MAX)
    items: list[ItemSpec] = Field(default_factory=list, max_length=50)
    battle_banner: BannerSpec | None = None

    @model_validator(mode="after")
    def _name_profiles(self) -> ArmySpec:
        for key, profile in self.profiles.items():
            if not profile.name:
                profile.name = key
        return self


class DeploySpec(Strict):
    """Where one unit or lone character of an army starts (``at`` as in UnitSpec)."""

    at: Point
    facing: Bearing | None = Field(None, description="Default: towards the far edge.")
    files: Annotated[Whole, Field(ge=1, le=COMPANIES_MAX)] | None = None


class SideSpec(Strict):
    """One army: its units and characters, or an army list (``army``, a file name relative
    to the scenario, read when the scenario is loaded) deployed by ``deploy`` or in a line
    along the side's edge."""

    name: Label
    commander: Literal["ai", "random", "human", "scripted", "first"] = "ai"
    orders: str | None = Field(None, description="File of orders for a scripted commander.")
    edge: Literal["north", "east", "south", "west"] | None = Field(
        None, description="The side's table edge, for deployment (W4-AMB-74).")
    units: list[UnitSpec] = Field(default_factory=list, max_length=UNITS_MAX)
    characters: list[CharacterSpec] = Field(default_factory=list, max_length=UNITS_MAX)
    army: ArmySpec | Annotated[str, Field(max_length=500)] | None = Field(
        None, description="W4-DEC-01: an army list, or the path of an army file relative to "
                          "the scenario.")
    deploy: dict[Ident, DeploySpec] = Field(default_factory=dict, max_length=UNITS_MAX)

    @model_validator(mode="after")
    def _units_or_army(self) -> SideSpec:
        if self.army is None and not self.units:
            raise ValueError(f"{self.name} has no units: give units or an army")
        if self.army is not None and (self.units or self.characters):
            raise ValueError(f"{self.name}: give units and characters, or an army, not both")
        return self


class Dnd4eWarScenario(Strict):
    """A `dnd4e-war` scenario file."""

    ruleset: Literal["dnd4e-war"]
    name: Label = ""
    description: Annotated[str, Field(max_length=2000)] = ""
    table: Board = Field(default_factory=Board)
    options: Options = Field(default_factory=Options)
    terrain: list[TerrainSpec] = Field(default_factory=list, max_length=200)
    profiles: dict[Annotated[str, Field(max_length=80)], Profile] = Field(
        default_factory=dict, max_length=200)
    battle: BattleSpec | None = Field(None, description=(
        "W4-ARMY-04/05: the battle's level and size (default: the armies'); sets the tier "
        "of W4-ARMY-11/12 and the army checks."))
    sides: list[SideSpec] = Field(min_length=2, max_length=2)

    @model_validator(mode="after")
    def _name_profiles(self) -> Dnd4eWarScenario:
        for key, profile in self.profiles.items():
            if not profile.name:
                profile.name = key
        return self

    @model_validator(mode="after")
    def _field_armies(self) -> Dnd4eWarScenario:
        from warhost.rulesets.dnd4e_war.army_setup import field_armies

        field_armies(self)
        return self
