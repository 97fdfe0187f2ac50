"""The scenario file and its setup checks (W4-SETUP, W4-UNIT, W4-STAT-07/10, W4-AMB-04/05/
74/75/76): what the examples build, and the problems :func:`check_scenario` names."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import ScenarioError
from warhost.core.scenario import read_yaml, scenario_from_data
from warhost.rulesets.dnd4e_war.setup import initial_state
from warhost.rulesets.dnd4e_war.state import WarState
from warhost.rulesets.dnd4e_war.validate import deployment_edge

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "dnd4e-war"


def example(name: str) -> dict[str, Any]:
    """An example's data, to change before loading."""
    data, _lines = read_yaml((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"), name)
    return copy.deepcopy(data)


def state_of(data: dict[str, Any]) -> WarState:
    """The state the data sets up (checked first)."""
    return initial_state(scenario_from_data(data).model)


def refused(data: dict[str, Any], *needles: str) -> ScenarioError:
    """The data is refused with a message holding every needle."""
    with pytest.raises(ScenarioError) as caught:
        scenario_from_data(data)
    text = str(caught.value)
    for needle in needles:
        assert needle in text, text
    return caught.value


def units(data: dict[str, Any], side: int) -> list[dict[str, Any]]:
    """The unit list of side ``side``."""
    found: list[dict[str, Any]] = data["sides"][side]["units"]
    return found


# ---------------------------------------------------------------- what the examples build

@pytest.mark.rule("W4-AMB-05")
@pytest.mark.rule("W4-AMB-32")
def test_the_archers_stand_as_in_the_seeds_shooting_example() -> None:
    state = state_of(example("hill-archers"))
    archers = state.units["archers"]
    assert archers.companies == [8, 4]
    assert [archers.front_row(s) for s in range(2)] == [4, 4]  # 7 elves and the captain
    assert [archers.row_models(s, 1) for s in range(2)] == [4, 0]
    assert archers.captain_attacks == 2
    assert state.elevation(archers) == 1 and state.elevation(state.units["drow"]) == 0
    drow = state.units["drow"]
    assert drow.skirmish and drow.models == 12 and drow.profile.defenses.ac == 25
    power = archers.profile.powers[0]
    assert (power.kind, power.bonus) == ("ranged", 16)


@pytest.mark.rule("W4-MONSTER-04")
@pytest.mark.rule("W4-STAT-05")
def test_the_troll_is_a_lone_monster_with_hit_points() -> None:
    state = state_of(example("shield-wall"))
    troll = state.units["troll"]
    assert troll.lone and troll.is_monster and not troll.has_flanks
    assert troll.profile.hp == 100 and troll.profile.size == "large"
    assert troll.rule("fear")
    wall = state.units["shieldwall"]
    assert wall.standard and wall.musician and wall.captain == "Brundar Ironhand"
    assert len(wall.companies) == 4 and wall.files == 4


@pytest.mark.rule("W4-UNIT-04")
def test_the_knights_start_in_the_flank_arc_of_the_orc_line() -> None:
    state = state_of(example("flank-charge"))
    warriors, knights, spears = (state.units[u] for u in ("warriors", "knights", "spearmen"))
    assert {warriors.frame().arc_of(p) for p in knights.frame().corners()} == {"right"}
    assert warriors.frame().arc_of(spears.frame().front_centre) == "front"
    assert state.gap(knights, warriors) == pytest.approx(6.0)
    assert state.gap(spears, warriors) == pytest.approx(8.0)


# ---------------------------------------------------------------- deployment

@pytest.mark.rule("W4-AMB-74")
@pytest.mark.rule("W4-SETUP-03")
def test_without_edges_the_sides_take_the_long_edges_first_south_then_north() -> None:
    data = example("hill-archers")
    for side in data["sides"]:
        side.pop("edge")
    refused(data, "archers stands outside its side's deployment zone", "south edge")
    data["sides"].reverse()  # the drow (at the south) first, the elves second
    model = scenario_from_data(data).model
    assert [deployment_edge(model, i) for i in (0, 1)] == ["south", "north"]


@pytest.mark.rule("W4-AMB-74")
def test_a_table_deeper_than_wide_deploys_from_west_and_east() -> None:
    data = example("hill-archers")
    data["table"] = {"width": 60, "height": 72}
    for side in data["sides"]:
        side.pop("edge")
    data["options"]["deployment_depth"] = 0
    model = scenario_from_data(data).model
    assert [deployment_edge(model, i) for i in (0, 1)] == ["west", "east"]


@pytest.mark.rule("W4-AMB-74")
def test_a_deployment_depth_of_zero_lets_units_stand_anywhere() -> None:
    data = example("hill-archers")
    units(data, 1)[0]["at"] = [36, 24]
    refused(data, "deployment zone")
    data["options"]["deployment_depth"] = 0
    assert state_of(data).units["drow"].front == (36.0, 24.0)


@pytest.mark.rule("W4-AMB-74")
def test_a_deeper_zone_admits_a_unit_further_forward() -> None:
    data = example("hill-archers")
    units(data, 1)[0]["at"] = [36, 18]
    refused(data, "12\" from the south edge")
    data["options"]["deployment_depth"] = 18
    scenario_from_data(data)


@pytest.mark.rule("W4-UNIT-11")
@pytest.mark.rule("W4-MEAS-03")
def test_enemies_exactly_one_inch_apart_may_start_so_but_not_closer() -> None:
    data = example("flank-charge")
    knights = units(data, 0)[1]
    knights["at"] = [27, 29]  # its front edge 1" from the west end of the orc line
    state = state_of(data)
    assert state.gap(state.units["knights"], state.units["warriors"]) == pytest.approx(1.0)
    knights["at"] = [27.25, 29]
    error = refused(data, "warriors starts 0.75\" from the enemy unit knights", "W4-UNIT-11")
    assert error.field == "sides[1].units[0].at"  # the later of the two is named


@pytest.mark.rule("W4-UNIT-11")
def test_friends_may_stand_close_but_never_touch() -> None:
    data = example("flank-charge")
    archers = units(data, 1)[1]
    archers["at"] = [36, 32.5]  # half an inch behind the warriors' rear edge
    scenario_from_data(data)
    archers["at"] = [36, 32]
    refused(data, "archers touches warriors")
    archers["at"] = [36, 29]
    refused(data, "archers overlaps warriors")


@pytest.mark.rule("W4-SETUP-02")
@pytest.mark.rule("W4-AMB-75")
def test_the_table_defaults_to_72_by_48_and_bounds_the_units() -> None:
    data = example("hill-archers")
    data.pop("table")
    state = state_of(data)
    assert (state.board.width, state.board.height) == (72.0, 48.0)
    units(data, 1)[1]["at"] = [70, 10]  # the spiders' 8-inch frame would pass x = 72
    refused(data, "does not fit on the 72\" x 48\" table")


# ---------------------------------------------------------------- units and profiles

@pytest.mark.rule("W4-UNIT-06")
@pytest.mark.rule("W4-STAT-10")
def test_the_unit_size_bounds_companies_and_skirmishers_count_models() -> None:
    data = example("hill-archers")
    units(data, 0)[1]["companies"] = 4
    scenario_from_data(data)
    units(data, 0)[1]["companies"] = 5
    refused(data, "5 companies: the profile's unit size is 1 to 4")
    data = example("hill-archers")
    units(data, 1)[0]["companies"] = 17
    refused(data, "17 models: the profile's unit size is 4 to 16")


def test_a_unit_size_whose_least_is_above_its_most_is_refused() -> None:
    data = example("hill-archers")
    data["profiles"]["Elf spearman"]["unit_size"] = [3, 2]
    refused(data, "unit size 3-2")


def test_models_must_fill_every_company_but_may_leave_the_last_short() -> None:
    data = example("hill-archers")
    archers = units(data, 0)[0]
    archers["models"] = 9
    assert state_of(data).units["archers"].companies == [8, 1]
    archers["models"] = 8
    refused(data, "8 models leave a company of the 2 empty")
    archers["models"] = 17
    refused(data, "17 models do not fit in 2 companies of 8")


@pytest.mark.rule("W4-AMB-04")
def test_company_layouts_default_to_four_by_two_and_cavalry_two_by_one() -> None:
    state = state_of(example("flank-charge"))
    spears, knights = state.units["spearmen"], state.units["knights"]
    assert (spears.columns, spears.rows, spears.company_size) == (4, 2, 8)
    assert (spears.tray_width, spears.tray_depth) == (4.0, 2.0)
    data = example("flank-charge")
    data["profiles"]["Human knight"].pop("company")
    again = state_of(data).units["knights"]
    assert (again.columns, again.rows, knights.base) == (2, 1, 2.0)


@pytest.mark.rule("W4-UNIT-01")
def test_only_skirmishers_and_lone_models_may_be_huge() -> None:
    data = example("shield-wall")
    data["profiles"]["Troll"]["size"] = "huge"
    scenario_from_data(data)  # a lone skirmishing model has no company
    data["profiles"]["Dwarf shieldbearer"]["size"] = "gargantuan"
    refused(data, "no larger than Large (W4-UNIT-01), not gargantuan")


@pytest.mark.rule("W4-STAT-07")
def test_hit_points_and_resilience_above_one_do_not_mix() -> None:
    data = example("shield-wall")
    data["profiles"]["Troll"]["resilience"] = 2
    refused(data, "resilience 1 at most (W4-STAT-07)")


@pytest.mark.rule("W4-AMB-76")
def test_frenzy_is_refused_and_the_defined_flags_are_accepted() -> None:
    data = example("shield-wall")
    data["profiles"]["Dwarf shieldbearer"]["rules"] = [
        "stubborn", "stalwart", "to_the_last_man", "fearless"]
    scenario_from_data(data)
    data["profiles"]["Dwarf shieldbearer"]["rules"] = ["frenzy"]
    error = refused(data, "frenzy", "W4-AMB-76")
    assert error.field == "profiles.Dwarf shieldbearer.rules"


@pytest.mark.rule("W4-AMB-40")
def test_a_size_outside_the_courage_table_is_refused() -> None:
    data = example("shield-wall")
    data["profiles"]["Troll"]["size"] = "tiny"
    refused(data, "profiles.Troll.size")


@pytest.mark.parametrize(
    ("power", "needle"),
    [
        ({"name": "Fireball", "kind": "area_burst", "bonus": 5, "range": 10},
         "an area power needs its size"),
        ({"name": "Blast", "kind": "close_blast", "bonus": 5}, "an area power needs its size"),
        ({"name": "Sling", "kind": "ranged", "bonus": 5}, "a ranged power needs a range"),
        ({"name": "Axe", "kind": "melee", "bonus": 5, "damage": "1[W]+2"},
         "damage in [W] needs weapon_dice"),
        ({"name": "Warhammer", "kind": "melee", "bonus": 5}, "two powers are called"),
    ],
)
def test_powers_need_what_their_kind_measures(power: dict[str, Any], needle: str) -> None:
    data = example("shield-wall")
    data["profiles"]["Dwarf shieldbearer"]["powers"].append(power)
    refused(data, needle)


# ---------------------------------------------------------------- terrain and victory

def test_terrain_needs_exactly_one_shape_and_a_sound_one() -> None:
    data = example("shield-wall")
    data["terrain"][0].pop("rect")
    refused(data, "either rect or polygon")
    data["terrain"][0]["polygon"] = [[0, 0], [4, 4], [4, 0], [0, 4]]
    refused(data, "crosses itself")
    data["terrain"][0]["polygon"] = [[0, 0], [4, 0], [4, 4]]
    scenario_from_data(data)
    data["terrain"][0] = {"rect": [2, 2, 0, 5]}
    refused(data, "width and a height above 0")


@pytest.mark.rule("W4-AMB-74")
def test_hold_ground_needs_an_objective_on_the_table() -> None:
    data = example("shield-wall")
    data["options"]["victory"] = {"kind": "hold_ground"}
    refused(data, "needs an objective")
    data["options"]["victory"]["objective"] = [80, 10]
    refused(data, "off the 72\" x 48\" table")
    data["options"]["victory"]["objective"] = [36, 24]
    assert scenario_from_data(data).model.options.victory.radius == 6.0


def test_two_sides_need_two_names_and_ids_are_unique() -> None:
    data = example("shield-wall")
    data["sides"][1]["name"] = "Goblins"
    refused(data, "two sides are called 'Goblins'")
    data = example("shield-wall")
    units(data, 1)[1]["id"] = "troll"
    refused(data, "two units have the id 'troll'")
