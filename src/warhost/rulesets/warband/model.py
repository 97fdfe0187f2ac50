"""The `warband` scenario file, as pydantic models (these also give the JSON Schema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from warhost.core.bounds import Rounds, Whole

MAP_MAX = 1000
"""The widest and tallest map, in squares (see :data:`MAP_AREA_MAX` for both at once)."""

MAP_AREA_MAX = 250_000
"""The most squares a map may have (a 500 x 500 map, or a 1,000 x 250 field)."""

CHARACTERS_MAX = 2000
"""The most characters one side may field."""

SIDES_MAX = 8
"""The most warbands in one fight."""

Index = Annotated[Whole, Field(ge=0, le=MAP_MAX - 1)]
Coord = tuple[Index, Index]
Score = Annotated[Whole, Field(ge=0, le=20)]
Modifier = Annotated[Whole, Field(ge=-10, le=10)]
Distance = Annotated[Whole, Field(ge=0, le=MAP_MAX)]
Reach = Annotated[Whole, Field(ge=1, le=MAP_MAX)]
Count = Annotated[Whole, Field(ge=1, le=20)]
Elevation = Annotated[Whole, Field(ge=0, le=50)]
MoveDice = Annotated[str, Field(pattern=r"^[1-9][0-9]?(d[1-9][0-9]{0,2})?$", max_length=6)]
"""Squares a Vortex moves: a whole number (1 to 99) or dice such as ``1d6`` (at most 99 dice
of at most 999 faces)."""
FacingName = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
Talent = Literal["parry", "dodge", "brace"]
Trait = Literal["terror", "fear", "fearless", "hatred", "stupidity", "ethereal"]
Phase = Literal["utility", "movement", "ranged", "melee", "non_combat"]
AttackSpellType = Literal["melee", "ranged", "direct", "bombardment", "wind", "vortex"]
ScoreName = Literal[
    "agility", "melee", "ranged", "strength", "toughness", "armour", "ward", "resolve",
    "magic", "wounds", "attacks", "insight",
]


class Strict(BaseModel):
    """Base for every scenario model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Options(Strict):
    """Every ruling that is a matter of taste (see docs/rulings/warband.md)."""

    natural_ten_always_fails: bool = Field(True, description="WB-AMB-01")
    superior_skill_max_penalty: Annotated[Whole, Field(ge=0, le=10)] | None = Field(
        None, description="WB-AMB-02: cap on the combined Superior Skill penalty (none: no cap)."
    )
    diagonal_cost: Annotated[Whole, Field(ge=1, le=2)] = Field(1, description="WB-AMB-03")
    max_step_height: Annotated[Whole, Field(ge=0, le=10)] = Field(1, description="WB-AMB-03")
    facing_change: Literal["after_any_move", "move_action_only"] = Field(
        "after_any_move", description="WB-AMB-05"
    )
    advantage_deploy_distance: Annotated[Whole, Field(ge=0, le=MAP_MAX)] = Field(
        10, description="WB-AMB-07"
    )
    reroll_initiative_each_turn: bool = Field(False, description="WB-AMB-08")
    utility_order: Literal["initiative", "side_alternating"] = Field(
        "initiative", description="WB-AMB-09: side_alternating: the sides take turns, one "
        "character each, in Initiative Order within a side.",
    )
    encourage_hearing_range: Distance = Field(6, description="WB-AMB-12")
    falling_damage: Literal["half_height_wounds"] | list[Annotated[Whole, Field(ge=0, le=20)]] = (
        Field("half_height_wounds", description="WB-AMB-19: or a table, wounds by height.")
    )
    aoo_consumes_attack: bool = Field(False, description="WB-AMB-21")
    one_spell_per_action: bool = Field(False, description="WB-AMB-24")
    split_attacks_between_targets: bool = Field(False, description="WB-AMB-26")
    unarmed_attacks: bool = Field(True, description="WB-AMB-27")
    critical_extra_wound: Literal["if_wounds", "always"] = Field(
        "if_wounds", description="WB-AMB-30"
    )
    excess_wounds_escalate: bool = Field(False, description="WB-AMB-39")
    routers_leave_battlefield: bool = Field(False, description="WB-AMB-47")
    turn_limit: Rounds | None = Field(None, description="WB-AMB-49")
    campaign_mode: bool = Field(False, description="WB-AMB-50")
    fate_burn_after_roll: bool = Field(False, description="WB-AMB-51")
    trait_rules: None = Field(None, description="WB-AMB-54: no plug-in trait rules exist yet.")
    vortex_default_radius: Annotated[Whole, Field(ge=0, le=20)] = Field(
        1, description="WB-AMB-59"
    )
    vortex_default_move: MoveDice = Field("1d6", description="WB-AMB-59")
    stress_rules: None = Field(None, description="WB-AMB-61: no Stress effects exist yet.")
    dispel_requires_los: bool = Field(False, description="WB-AMB-64")


class Stats(Strict):
    """A character's stat line (WB scores)."""

    agility: Score
    melee: Score
    ranged: Score
    strength: Score
    toughness: Score
    armour: Score = Field(0, description="With the armour the character wears (WB-AMB-28).")
    ward: Score = 0
    resolve: Score
    magic: Score = 0
    wounds: Annotated[Whole, Field(ge=1, le=20)]
    attacks: Annotated[Whole, Field(ge=1, le=10)] = 1
    insight: Score = 0
    fate: Annotated[Whole, Field(ge=0, le=10)] = 0


class Weapon(Strict):
    """A melee or ranged weapon profile (WB-ATTACK-14, WB-SPECIAL)."""

    name: str = Field(max_length=60)
    kind: Literal["melee", "ranged"]
    strength: Score | None = Field(
        None, description="Ranged: required. Melee: a profile Strength (WB-AMB-31); none: own."
    )
    reach: Reach = Field(1, description="Melee reach in squares (WB-AMB-27).")
    range: Reach | None = Field(None, description="Ranged weapons: range in squares.")
    attack_limit: Count | None = Field(None, description="Ranged: attacks a turn (WB-ATTACK-14).")
    penetration: Annotated[Whole, Field(ge=0, le=10)] = 0
    volley: bool = False
    melee_safe: bool = False
    wave: bool = False
    blast: Annotated[Whole, Field(ge=0, le=20)] = 0
    poisoned: bool = False
    magic: bool = False


class Armour(Strict):
    """A piece of armour and the Armour it gives (taken off in Swap Equipment)."""

    name: str = Field(max_length=60)
    value: Annotated[Whole, Field(ge=0, le=20)]


class Item(Strict):
    """A consumable or Utility item (WB-UTIL-21, WB-AMB-10): heals or raises a score."""

    name: str = Field(max_length=60)
    kind: Literal["consumable", "utility", "construct", "gear"] = "consumable"
    uses: Annotated[Whole, Field(ge=1, le=20)] = 1
    heal: Annotated[Whole, Field(ge=0, le=20)] = 0
    score: ScoreName | None = None
    by: Modifier = 0
    turns: Annotated[Whole, Field(ge=1, le=100)] = 1


class Circuit(Strict):
    """A Circuit: a passive change to its bearer's profile, on for as long as it is memorised,
    with no action and no test (WB-MAGIC-03, WB-AMB-62)."""

    name: str = Field(max_length=60)
    scores: dict[ScoreName, Modifier] = Field(default_factory=dict, max_length=12)


class SpellAttack(Strict):
    """The attack block of an attack Spell (WB-AMB-62)."""

    type: AttackSpellType
    strength: Score
    penetration: Annotated[Whole, Field(ge=0, le=10)] = 0
    hits: Count = 1
    radius: Annotated[Whole, Field(ge=0, le=20)] | None = None
    distance: Reach | None = Field(None, description="Wind: length of the path.")
    move: MoveDice | None = Field(None, description="Vortex: squares a move (dice).")
    duration: Annotated[Whole, Field(ge=1, le=100)] | None = None


class SpellEffect(Strict):
    """What a Spell (or its Surge Effect) does beyond an attack."""

    heal: Annotated[Whole, Field(ge=0, le=20)] = 0
    score: ScoreName | None = None
    by: Modifier = 0
    turns: Annotated[Whole, Field(ge=1, le=100)] = 1
    hits: Annotated[Whole, Field(ge=0, le=20)] = Field(0, description="Surge: extra hits.")
    strength: Modifier = Field(0, description="Surge: added to the attack Strength.")
    teleport: Distance = Field(0, description="Movement spells: the caster moves this far.")


class Spell(Strict):
    """A Spell profile (WB-SPELL-01, WB-AMB-62)."""

    name: str = Field(max_length=60)
    phase: Phase
    modifier: Modifier = 0
    targets: Literal["enemy", "ally", "self", "point", "direction"] = "enemy"
    count: Count = 1
    range: Distance = 0
    tiring: bool = False
    melee_safe: bool = False
    attack: SpellAttack | None = None
    effect: SpellEffect = Field(default_factory=SpellEffect)
    surge: SpellEffect | None = None


class Lasting(Strict):
    """Lasting campaign effects a stat line cannot hold (WB-INCIDENT, WB-SEVERE); written by
    ``warhost campaign fight`` into the scenario it fights, so its replay stands alone."""

    worse_resolve: bool = Field(False, description="Frightened (WB-INCIDENT-06, result 5).")
    resolve_dos_cut: Annotated[Whole, Field(ge=0, le=10)] = Field(
        0, description="Humiliated (WB-INCIDENT-08)."
    )
    worse_agility: bool = Field(False, description="Totally blind (WB-SEVERE-06).")
    start_wounds_zero: bool = Field(False, description="Major Wound (WB-SEVERE-04).")
    one_hand: bool = Field(False, description="Amputation (WB-SEVERE-01, result 7).")
    scarred: bool = Field(False, description="-1 on social Resolve tests (WB-SEVERE-01, 4).")
    hatred_of: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=50, description="Enmity targets (WB-SEVERE-03)."
    )


class CharacterSpec(Strict):
    """One character of a warband."""

    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_\-]+$")
    name: str | None = Field(None, max_length=60)
    kind: Literal["hero", "minion"]
    captain: bool = False
    at: Coord | None = Field(None, description="Starting square; none: asked at deployment.")
    facing: FacingName | None = Field(None, description="Starting facing; none: asked.")
    stats: Stats
    weapons: list[Weapon] = Field(default_factory=list, max_length=10)
    armour: list[Armour] = Field(default_factory=list, max_length=10)
    items: list[Item] = Field(default_factory=list, max_length=20)
    talents: list[Talent] = Field(default_factory=list)
    traits: list[Trait] = Field(default_factory=list)
    spells: list[str] = Field(default_factory=list, max_length=20, description="Spell names.")
    circuits: list[Circuit] = Field(default_factory=list, max_length=20,
                                    description="Memorised Circuits (WB-MAGIC-03).")
    lasting: Lasting | None = Field(None, description="Campaign effects (WB-AMB-50).")


class Zone(Strict):
    """A rectangle of squares, corners inclusive."""

    origin: Coord = Field(alias="from")
    to: Coord

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class SideSpec(Strict):
    """One warband."""

    name: str = Field(min_length=1, max_length=40)
    commander: Literal["ai", "random", "human", "script"] = "ai"
    zone: Zone | None = Field(None, description="Deployment zone (WB-AMB-07).")
    characters: list[CharacterSpec] = Field(min_length=1, max_length=CHARACTERS_MAX)


class Feature(Strict):
    """Terrain painted over a rectangle of squares."""

    origin: Coord = Field(alias="from")
    to: Coord | None = None
    terrain: Literal["clear", "blocking", "impassable"] = Field(
        "clear", description="blocking: no way through and no sight; impassable: sight only."
    )
    elevation: Elevation | None = None
    cover: bool = False
    edge: bool = False
    climb: Literal["none", "strength", "agility", "either"] | None = Field(
        None, description="A climbable surface and its test (WB-AMB-17); none: not climbable."
    )
    climb_modifier: Modifier = 0

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class MapSpec(Strict):
    """The battle map."""

    width: Annotated[Whole, Field(ge=4, le=MAP_MAX)]
    height: Annotated[Whole, Field(ge=4, le=MAP_MAX)]
    features: list[Feature] = Field(default_factory=list, max_length=2000)


class WarbandScenario(Strict):
    """A `warband` scenario."""

    ruleset: Literal["warband"]
    name: str | None = Field(None, max_length=80)
    description: str | None = Field(None, max_length=2000)
    map: MapSpec
    advantage: str | None = Field(None, description="The side with Advantage (WB-DEPLOY-04).")
    options: Options = Field(default_factory=Options)
    spells: list[Spell] = Field(default_factory=list, max_length=200)
    sides: list[SideSpec] = Field(min_length=2, max_length=SIDES_MAX)
