"""The `dnd5e-tactics` scenario file as pydantic models (these also give the JSON Schema).

Lengths on the table are inches (1 in = 10 ft, T5-SETUP-02); lengths inside stat blocks
(speed, reach, range, area sizes) are feet, as printed on 5e stat blocks.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from warhost.core.bounds import Finite, Rounds, Whole
from warhost.core.damage_dice import Dice

AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]
SkillName = Literal["persuasion", "insight", "history"]
TrackName = Literal["defensive", "aggressive", "supporting", "vicious"]
StanceName = Literal["close", "open"]
EdgeName = Literal["north", "east", "south", "west"]
TerrainKind = Literal["ruins", "forest", "field", "impassable"]

BOARD_MAX = 400
"""The widest and longest table, in inches."""

TABLE_REACH = 1000
"""Positions and terrain corners lie within this many inches of the table's corner (either
way): anything further is off any table."""

Coordinate = Annotated[Finite, Field(ge=-TABLE_REACH, le=TABLE_REACH)]
Point = tuple[Coordinate, Coordinate]
Bearing = Annotated[Finite, Field(ge=-360, le=360)]
Modifier = Annotated[Whole, Field(ge=-50, le=50)]
"""An ability modifier, saving throw, skill or attack bonus."""
Feet = Annotated[Whole, Field(ge=0, le=10 * TABLE_REACH)]
"""A length in feet inside a stat block (10 ft to the inch)."""
Speed = Annotated[Whole, Field(ge=0, le=1000)]
Uses = Annotated[Whole, Field(ge=1, le=100)]
HitPoints = Annotated[Whole, Field(ge=1, le=10_000)]




class Strict(BaseModel):
    """Base for every scenario model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)





class Options(Strict):
    """Every ruling that is a matter of taste (see docs/rulings/dnd5e-tactics.md)."""

    rank_clamp: bool = Field(True, description="T5-AMB-05: ranks stay within -3..+3.")
    formation_files: Annotated[Whole, Field(ge=1, le=100)] = Field(
        10, description="T5-AMB-09: files of a formation."
    )
    engagement_model: Literal["footprint", "declared"] = Field(
        "footprint", description="T5-AMB-10: engagement by footprint distance, or declared."
    )
    charge_multiattack: bool = Field(True, description="T5-AMB-12")
    commander_damage: Literal["max", "rolled"] = Field("max", description="T5-AMB-16")
    commander_death_saves: bool = Field(False, description="T5-AMB-18")
    split_attacks: bool = Field(False, description="T5-AMB-19")
    save_extremes: Literal["raw", "clamp"] = Field("raw", description="T5-AMB-20")
    aoe_targets: Literal["geometry", "declared"] = Field("geometry", description="T5-AMB-24")
    unit_aoe_per_member: bool = Field(False, description="T5-AMB-26")
    lingering_disadvantage_scope: Literal["attacks_and_saves", "attacks_only", "all_d20"] = (
        Field("attacks_and_saves", description="T5-AMB-27")
    )
    single_character_reduction: Literal["per_hit", "per_attack", "per_turn"] = Field(
        "per_hit", description="T5-AMB-30"
    )
    end_of_round_mode: Literal["per_unit", "per_step"] = Field(
        "per_unit", description="T5-AMB-35"
    )
    unit_healing: Literal["reduce_damage_received", "disabled"] = Field(
        "reduce_damage_received", description="T5-AMB-39"
    )
    max_rounds: Rounds | None = Field(
        None, description="T5-AMB-51: the battle ends after this round (none: no limit)."
    )


class AttackSpec(Strict):
    """One attack of a stat block: to-hit bonus and damage dice."""

    name: str
    kind: Literal["melee", "ranged"] = "melee"
    bonus: Modifier = Field(description="Attack bonus (+hit).")
    damage: Dice = Field(description="Damage on a hit, e.g. 1d6+2 (extra on-hit dice included).")
    damage_type: str = "bludgeoning"
    reach: Annotated[Feet, Field(ge=5, le=1000)] = Field(5, description="Melee reach in feet.")
    range: Feet = Field(0, description="Normal range in feet (ranged).")
    long_range: Feet | None = Field(
        None, description="Long range in feet (disadvantage beyond normal range)."
    )


class AreaSpec(Strict):
    """An area effect (spell, breath weapon): a 5e template, a save and average damage."""

    name: str
    shape: Literal["sphere", "cube", "cone", "line"]
    size: Annotated[Feet, Field(ge=5)] = Field(
        description="Feet: radius (sphere), side (cube) or length (cone, line)."
    )
    width: Annotated[Feet, Field(ge=5)] = Field(5, description="Feet (lines only).")
    range: Feet = Field(
        0, description="Feet from the user to the point of origin (0: the user's own edge)."
    )
    save: AbilityName
    dc: Annotated[Whole, Field(ge=1, le=50)]
    damage: Dice
    damage_type: str = "fire"
    on_save: Literal["half", "none"] = "half"
    lingering: bool = Field(False, description="T5-AREA-06: has a lingering effect.")
    uses: Uses | None = Field(None, description="Per battle (none: any).")
    action: Literal["action", "bonus"] = "action"


class HealSpec(Strict):
    """A healing ability of a commander or Single Character (T5-AMB-39)."""

    name: str
    amount: Dice = Field(description="Hit points restored, e.g. 2d8+3.")
    range: Feet = 60
    uses: Uses | None = None
    action: Literal["action", "bonus"] = "action"


class MountSpec(Strict):
    """The mounts of a mounted unit or commander (T5-AMB-29)."""

    name: str
    speed: Speed = Field(description="Feet per round.")
    control: Literal["controlled", "independent"] = "controlled"
    attacks: list[AttackSpec] = Field(default_factory=list)
    multiattack: list[str] = Field(default_factory=list)


class StatBlock(Strict):
    """A 5e stat block: of one member of a unit, a commander or a Single Character."""

    name: str
    ac: Annotated[Whole, Field(ge=1, le=50)]
    hp: HitPoints = Field(description="Maximum hit points.")
    speed: Speed = Field(30, description="Feet per round.")
    dex: Annotated[Whole, Field(ge=-10, le=20)] = Field(0, description="Dexterity modifier.")
    saves: dict[AbilityName, Modifier] = Field(
        default_factory=dict, description="Saving throw bonuses (missing: +0, DEX: dex)."
    )
    skills: dict[SkillName, Modifier] = Field(default_factory=dict)
    attacks: list[AttackSpec] = Field(default_factory=list)
    multiattack: list[str] = Field(
        default_factory=list,
        description="Names of the attacks one Attack action makes, all melee or all ranged "
        "(empty: the chosen attack once).",
    )
    areas: list[AreaSpec] = Field(default_factory=list)
    heals: list[HealSpec] = Field(default_factory=list)
    mount: MountSpec | None = None
    resistances: list[str] = Field(default_factory=list)
    vulnerabilities: list[str] = Field(default_factory=list)
    immunities: list[str] = Field(default_factory=list)


class UnitSpec(Strict):
    """A unit: a block of identical members, with a commander (T5-SETUP-01)."""

    id: str
    name: str | None = None
    members: Annotated[Whole, Field(ge=1, le=10_000)]
    member: StatBlock = Field(description="The Unit Info Card.")
    member_hp: HitPoints | None = Field(
        None, description="T5-AMB-38: hit points per member for casualties (default: member.hp)."
    )
    commander: StatBlock = Field(description="The Commander minicard.")
    at: Point | None = Field(None, description="Footprint centre in inches; none: ask.")
    facing: Bearing | None = Field(None, description="Compass bearing; none: toward the enemy.")
    stance: StanceName | None = Field(None, description="T5-DEC-03; none: ask.")
    track: TrackName | None = Field(None, description="T5-DEC-02; none: ask.")


class SingleSpec(Strict):
    """A Single Character: a notable NPC or siege weapon (T5-SINGLE-01)."""

    id: str
    name: str | None = None
    stats: StatBlock
    at: Point | None = None
    facing: Bearing | None = None


class SideSpec(Strict):
    """One army."""

    name: str
    commander: Literal["ai", "random", "human", "scripted", "first"] = "ai"
    orders: str | None = Field(None, description="File of orders for a scripted commander.")
    edge: EdgeName = Field(description="The side's deployment edge.")
    deployment_depth: Annotated[Finite, Field(gt=0, le=BOARD_MAX)] = Field(
        6.0, description="Inches from the edge that units may deploy in."
    )
    units: list[UnitSpec] = Field(default_factory=list)
    singles: list[SingleSpec] = Field(default_factory=list)


class TerrainSpec(Strict):
    """A terrain piece: a rectangle or polygon with a kind (T5-TERRAIN-01)."""

    name: str = ""
    kind: TerrainKind
    rect: tuple[Coordinate, Coordinate, Coordinate, Coordinate] | None = Field(
        None, description="x, y (south-west corner), width, height in inches."
    )
    polygon: list[Point] | None = Field(None, min_length=3, max_length=1000)


class BoardSpec(Strict):
    """The table, in inches."""

    width: Annotated[Finite, Field(ge=6, le=BOARD_MAX)] = 48
    height: Annotated[Finite, Field(ge=6, le=BOARD_MAX)] = 36


class Dnd5eTacticsScenario(Strict):
    """A `dnd5e-tactics` scenario file."""

    ruleset: Literal["dnd5e-tactics"]
    name: str = ""
    description: str = ""
    defender: str = Field(description="T5-AMB-03: the defending side (wins initiative ties).")
    board: BoardSpec = Field(default_factory=BoardSpec)
    options: Options = Field(default_factory=Options)
    terrain: list[TerrainSpec] = Field(default_factory=list)
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
