"""The `dnd5e-tactics` scenario file as pydantic models (these also give the JSON Schema).

Lengths on the table are inches (1 in = 10 ft, T5-SETUP-02); lengths inside stat blocks
(speed, reach, range, area sizes) are feet, as printed on 5e stat blocks.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]
SkillName = Literal["persuasion", "insight", "history"]
TrackName = Literal["defensive", "aggressive", "supporting", "vicious"]
StanceName = Literal["close", "open"]
EdgeName = Literal["north", "east", "south", "west"]
TerrainKind = Literal["ruins", "forest", "field", "impassable"]
Point = tuple[float, float]

DAMAGE_PATTERN = re.compile(r"^\s*(\d+d\d+|\d+)(\s*[+-]\s*(\d+d\d+|\d+))*\s*$")
"""Damage expressions: dice and whole numbers joined by + or -, e.g. ``1d8+3`` or ``2d6+1d4``."""


class Strict(BaseModel):
    """Base for every scenario model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid")


def _check_damage(value: str) -> str:
    if not DAMAGE_PATTERN.match(value):
        raise ValueError(f"{value!r} is not a damage expression like 1d8+3 or 2d6+1d4")
    return value.replace(" ", "")


Dice = Annotated[str, AfterValidator(_check_damage)]
"""A damage or healing expression, checked when the scenario is read."""


class Options(Strict):
    """Every ruling that is a matter of taste (see docs/rulings/dnd5e-tactics.md)."""

    rank_clamp: bool = Field(True, description="T5-AMB-05: ranks stay within -3..+3.")
    formation_files: Annotated[int, Field(ge=1, le=100)] = Field(
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
    max_rounds: Annotated[int, Field(ge=1)] | None = Field(
        None, description="T5-AMB-51: the battle ends after this round (none: no limit)."
    )


class AttackSpec(Strict):
    """One attack of a stat block: to-hit bonus and damage dice."""

    name: str
    kind: Literal["melee", "ranged"] = "melee"
    bonus: int = Field(description="Attack bonus (+hit).")
    damage: Dice = Field(description="Damage on a hit, e.g. 1d6+2 (extra on-hit dice included).")
    damage_type: str = "bludgeoning"
    reach: Annotated[int, Field(ge=5)] = Field(5, description="Melee reach in feet.")
    range: Annotated[int, Field(ge=0)] = Field(0, description="Normal range in feet (ranged).")
    long_range: Annotated[int, Field(ge=0)] | None = Field(
        None, description="Long range in feet (disadvantage beyond normal range)."
    )


class AreaSpec(Strict):
    """An area effect (spell, breath weapon): a 5e template, a save and average damage."""

    name: str
    shape: Literal["sphere", "cube", "cone", "line"]
    size: Annotated[int, Field(ge=5)] = Field(
        description="Feet: radius (sphere), side (cube) or length (cone, line)."
    )
    width: Annotated[int, Field(ge=5)] = Field(5, description="Feet (lines only).")
    range: Annotated[int, Field(ge=0)] = Field(
        0, description="Feet from the user to the point of origin (0: the user's own edge)."
    )
    save: AbilityName
    dc: Annotated[int, Field(ge=1)]
    damage: Dice
    damage_type: str = "fire"
    on_save: Literal["half", "none"] = "half"
    lingering: bool = Field(False, description="T5-AREA-06: has a lingering effect.")
    uses: Annotated[int, Field(ge=1)] | None = Field(None, description="Per battle (none: any).")
    action: Literal["action", "bonus"] = "action"


class HealSpec(Strict):
    """A healing ability of a commander or Single Character (T5-AMB-39)."""

    name: str
    amount: Dice = Field(description="Hit points restored, e.g. 2d8+3.")
    range: Annotated[int, Field(ge=0)] = 60
    uses: Annotated[int, Field(ge=1)] | None = None
    action: Literal["action", "bonus"] = "action"


class MountSpec(Strict):
    """The mounts of a mounted unit or commander (T5-AMB-29)."""

    name: str
    speed: Annotated[int, Field(ge=0)] = Field(description="Feet per round.")
    control: Literal["controlled", "independent"] = "controlled"
    attacks: list[AttackSpec] = Field(default_factory=list)
    multiattack: list[str] = Field(default_factory=list)


class StatBlock(Strict):
    """A 5e stat block: of one member of a unit, a commander or a Single Character."""

    name: str
    ac: Annotated[int, Field(ge=1)]
    hp: Annotated[int, Field(ge=1)] = Field(description="Maximum hit points.")
    speed: Annotated[int, Field(ge=0)] = Field(30, description="Feet per round.")
    dex: int = Field(0, description="Dexterity modifier.")
    saves: dict[AbilityName, int] = Field(
        default_factory=dict, description="Saving throw bonuses (missing: +0, DEX: dex)."
    )
    skills: dict[SkillName, int] = Field(default_factory=dict)
    attacks: list[AttackSpec] = Field(default_factory=list)
    multiattack: list[str] = Field(
        default_factory=list,
        description="Names of the melee attacks one Attack action makes (empty: the first once).",
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
    members: Annotated[int, Field(ge=1)]
    member: StatBlock = Field(description="The Unit Info Card.")
    member_hp: Annotated[int, Field(ge=1)] | None = Field(
        None, description="T5-AMB-38: hit points per member for casualties (default: member.hp)."
    )
    commander: StatBlock = Field(description="The Commander minicard.")
    at: Point | None = Field(None, description="Footprint centre in inches; none: ask.")
    facing: float | None = Field(None, description="Compass bearing; none: toward the enemy.")
    stance: StanceName | None = Field(None, description="T5-DEC-03; none: ask.")
    track: TrackName | None = Field(None, description="T5-DEC-02; none: ask.")


class SingleSpec(Strict):
    """A Single Character: a notable NPC or siege weapon (T5-SINGLE-01)."""

    id: str
    name: str | None = None
    stats: StatBlock
    at: Point | None = None
    facing: float | None = None


class SideSpec(Strict):
    """One army."""

    name: str
    commander: Literal["ai", "random", "human", "scripted", "first"] = "ai"
    orders: str | None = Field(None, description="File of orders for a scripted commander.")
    edge: EdgeName = Field(description="The side's deployment edge.")
    deployment_depth: Annotated[float, Field(gt=0)] = Field(
        6.0, description="Inches from the edge that units may deploy in."
    )
    units: list[UnitSpec] = Field(default_factory=list)
    singles: list[SingleSpec] = Field(default_factory=list)


class TerrainSpec(Strict):
    """A terrain piece: a rectangle or polygon with a kind (T5-TERRAIN-01)."""

    name: str = ""
    kind: TerrainKind
    rect: tuple[float, float, float, float] | None = Field(
        None, description="x, y (south-west corner), width, height in inches."
    )
    polygon: list[Point] | None = Field(None, min_length=3)


class BoardSpec(Strict):
    """The table, in inches."""

    width: Annotated[float, Field(ge=6, le=400)] = 48
    height: Annotated[float, Field(ge=6, le=400)] = 36


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
