"""The `fantasy-battle` scenario file, as pydantic models (these also give the JSON Schema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from warhost.core.bounds import Rounds, Whole

MAP_MAX = 400
"""The widest and tallest map, in squares."""

PAINT_MAX = 4 * MAP_MAX * MAP_MAX
"""The most squares a battlefield's terrain areas and hills may paint in all (rectangles and
hills count every square they cover), so that building the map stays quick."""

Index = Annotated[Whole, Field(ge=0, le=MAP_MAX - 1)]
Coord = tuple[Index, Index]
Span = Annotated[Whole, Field(ge=1, le=MAP_MAX)]
Bonus = Annotated[Whole, Field(ge=-20, le=20)]
FatePoints = Annotated[Whole, Field(ge=0, le=20)]
Points = Annotated[Whole, Field(ge=1, le=1000)]
Rank = Literal["standard", "elite", "champion"]
UnitType = Literal["infantry", "cavalry"]
UnitClass = Literal["warrior", "pike", "archer", "knight", "lancer", "mounted_archer"]
Facing = Literal["north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]
FeatName = Literal["burst_of_speed", "frenzy", "mobility", "protect", "throw", "vault"]
TerrainName = Literal[
    "clear", "blocking", "hindering", "elevated", "slope", "cliff", "concealing",
    "shallow_water", "deep_water",
]


class Strict(BaseModel):
    """Base for every scenario model: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Options(Strict):
    """Every ruling that is a matter of taste (see docs/rulings/fantasy-battle.md)."""

    reinforcements: bool = Field(False, description="FB-REINF-01: defeated units may return.")
    first_player: str = Field(
        "random", description="FB-AMB-13: 'random', or the name of the side that goes first."
    )
    max_rounds: Rounds | None = Field(
        None, description="FB-AMB-44: after this round the higher score wins (equal: draw)."
    )
    cavalry_footprint: Literal["2x2", "1x1"] = Field("2x2", description="FB-AMB-02")
    require_special_abilities: bool = Field(False, description="FB-AMB-05")
    class_bonus_is_special_ability: bool = Field(True, description="FB-AMB-06")
    squad_deploy_connected: bool = Field(False, description="FB-AMB-08")
    reform_allow_new_squads: bool = Field(False, description="FB-AMB-09")
    allow_unequal_activations: bool = Field(False, description="FB-AMB-12")
    per_side_rank_counts: bool = Field(
        False, description="FB-AMB-12: allow the sides different numbers of units of each rank."
    )
    corner_cutting: Literal["blocked_by_terrain", "always"] = Field(
        "blocked_by_terrain", description="FB-AMB-17"
    )
    terrain_pieces_per_player: Annotated[Whole, Field(ge=0, le=20)] = Field(
        3, description="FB-AMB-19"
    )
    first_terrain_placer: Literal["attacker", "defender", "random"] = Field(
        "attacker", description="FB-AMB-19"
    )
    max_terrain_piece_squares: Annotated[Whole, Field(ge=1, le=MAP_MAX * MAP_MAX)] | None = Field(
        None, description="FB-AMB-19"
    )
    pike_facings: Literal[4, 8] = Field(4, description="FB-AMB-23")
    pike_throw_ignores_facing: bool = Field(False, description="FB-AMB-35")
    mounted_archer_defense_penalty: bool = Field(True, description="FB-AMB-26")
    archer_ally_adjacency: Literal["forbid", "ignore"] = Field("forbid", description="FB-AMB-27")
    los_target_square_counts: bool = Field(False, description="FB-AMB-29")
    max_range: Annotated[Whole, Field(ge=2, le=MAP_MAX)] = Field(36, description="FB-AMB-30")
    fate_on_dismount_roll: bool = Field(True, description="FB-AMB-32")
    champion_dismount_counts_as_wound: bool = Field(False, description="FB-AMB-33")
    feat_selection: Literal["choose", "roll_d6"] = Field("choose", description="FB-AMB-36")
    feat_limit_scope: Literal["champion", "side", "turn"] = Field(
        "champion", description="FB-AMB-37"
    )
    elevation_blocks_los: bool = Field(False, description="FB-AMB-46")


class Ability(Strict):
    """A generic special ability (FB-AMB-05): a bonus to attack and/or defense rolls."""

    name: str = "ability"
    attack: Bonus = 0
    defense: Bonus = 0
    affects: Literal["self", "allies", "self_and_allies"] = "self"
    range: Span | None = Field(
        None, description="For abilities that affect allies: the greatest distance (none: any)."
    )
    types: list[UnitType] = Field(default_factory=list, description="Keyword filter (empty: any).")
    classes: list[UnitClass] = Field(default_factory=list)
    ranks: list[Rank] = Field(default_factory=list)
    factions: list[str] = Field(default_factory=list, description="Keyword filter (empty: any).")


class UnitSpec(Strict):
    """One Elite or Champion unit (Standard units belong to squads)."""

    id: str
    name: str | None = None
    rank: Literal["elite", "champion"]
    type: UnitType
    unit_class: UnitClass = Field(alias="class")
    at: Coord | None = Field(None, description="Square (anchor of a 2×2 base); none: ask.")
    facing: Facing | None = Field(None, description="Pikes only.")
    unique: bool = False
    fate_points: FatePoints = 0
    faction: str | None = Field(None, description="Default: the side's faction.")
    abilities: list[Ability] = Field(default_factory=list)
    feats: list[FeatName] = Field(default_factory=list, max_length=3)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class MemberSpec(Strict):
    """One Standard unit of a squad."""

    id: str
    name: str | None = None
    unit_class: UnitClass = Field(alias="class")
    at: Coord | None = None
    facing: Facing | None = None
    unique: bool = False
    fate_points: FatePoints = 0
    faction: str | None = Field(None, description="Default: the side's faction.")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class SquadSpec(Strict):
    """A squad of Standard units: 4 Infantry or 2 Cavalry, told apart by base colour."""

    id: str
    colour: str | None = None
    type: UnitType
    members: list[MemberSpec] = Field(min_length=1)


class SideSpec(Strict):
    """One army."""

    name: str
    faction: str = ""
    commander: Literal["ai", "random", "human", "scripted", "first"] = "ai"
    orders: str | None = Field(None, description="File of orders for a scripted commander.")
    start_area: tuple[Coord, Coord] | None = Field(
        None, description="Corners (x0, y0), (x1, y1) inclusive; default: the back two rows."
    )
    squads: list[SquadSpec] = Field(default_factory=list)
    units: list[UnitSpec] = Field(default_factory=list)
    terrain_pieces: list[TerrainPiece] = Field(
        default_factory=list, description="Pieces this player places (constructed battlefields)."
    )


class TerrainArea(Strict):
    """A patch of one terrain type: explicit squares and/or rectangles (inclusive corners)."""

    type: TerrainName
    level: Annotated[Whole, Field(ge=-10, le=10)] | None = Field(
        None, description="Default: 1 for elevated, else 0."
    )
    squares: list[Coord] = Field(default_factory=list)
    rects: list[tuple[Coord, Coord]] = Field(default_factory=list)


class HillSpec(Strict):
    """A hill: an elevated top edged by slope (and cliff on the listed sides)."""

    top: tuple[Coord, Coord]
    cliff_sides: list[Literal["north", "south", "east", "west"]] = Field(default_factory=list)


class TerrainPiece(Strict):
    """A piece a player brings to a constructed battlefield: a shape of squares, or a hill."""

    type: TerrainName | Literal["hill"]
    shape: list[Coord] = Field(default_factory=list, description="Squares relative to (0, 0).")
    hill_size: tuple[Span, Span] | None = None


class VictoryArea(Strict):
    """Scenario data for FB-WIN-07: a side holding these squares at round end scores points."""

    name: str = "victory area"
    squares: list[Coord] = Field(min_length=1)
    points: Points = 1


class Battlefield(Strict):
    """The map: size, terrain and victory areas."""

    kind: Literal["pregenerated", "constructed"] = "pregenerated"
    width: Annotated[Whole, Field(ge=4, le=MAP_MAX)] = 30
    height: Annotated[Whole, Field(ge=4, le=MAP_MAX)] = 30
    terrain: list[TerrainArea] = Field(default_factory=list)
    hills: list[HillSpec] = Field(default_factory=list)
    victory_areas: list[VictoryArea] = Field(default_factory=list)

    @model_validator(mode="after")
    def _paint_limit(self) -> Battlefield:
        """Refuse terrain that would paint more than PAINT_MAX squares, before any is built."""
        painted = sum(len(area.squares) + sum(_rect_squares(rect) for rect in area.rects)
                      for area in self.terrain)
        painted += sum(_rect_squares(hill.top, ring=1) for hill in self.hills)
        if painted > PAINT_MAX:
            raise PydanticCustomError(
                "too_much_terrain",
                "terrain areas and hills cover {painted} squares in all; the most is {limit}",
                {"painted": painted, "limit": PAINT_MAX},
            )
        return self


def _rect_squares(rect: tuple[Coord, Coord], ring: int = 0) -> int:
    """Squares in a rectangle of inclusive corners, grown by ``ring`` squares on every side."""
    (x0, y0), (x1, y1) = rect
    return (abs(x1 - x0) + 1 + 2 * ring) * (abs(y1 - y0) + 1 + 2 * ring)


class FantasyBattleScenario(Strict):
    """A `fantasy-battle` scenario file."""

    ruleset: Literal["fantasy-battle"]
    name: str = ""
    description: str = ""
    victory_points: Points = Field(description="FB-WIN-01: points to win.")
    options: Options = Field(default_factory=Options)
    battlefield: Battlefield = Field(default_factory=Battlefield)
    sides: list[SideSpec] = Field(min_length=2, max_length=2)


SideSpec.model_rebuild()
