"""Setup checks of a dnd35-wars scenario: armies, scale, formations, placement distances,
monsters, NPCs and PCs, restricted areas (W35-ARMY, W35-SCALE-01, W35-PLACE, W35-AMB-36/63/
70/71/72/93/95, W35-DEC-05..09/38)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import block, creature, scenario_data, single, unit
from warhost.core.errors import ScenarioError
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd35_wars.validate import warnings

FRONT = block(0, 0, 5, 2)  # side A's default unit: 10 counters on rows 0-1
FAR = block(0, 20, 5, 2)  # side B's, 19 squares away


def build(units: list[dict[str, Any]], aggressor: str | None = None,
          **kwargs: Any) -> dict[str, Any]:
    """Scenario data from the entries, with an aggressor if given."""
    data = scenario_data(units, **kwargs)
    if aggressor is not None:
        data["aggressor"] = aggressor
    return data


def load(units: list[dict[str, Any]], **kwargs: Any) -> Any:
    """The validated model of a scenario built from the entries."""
    return scenario_from_data(build(units, **kwargs)).model


def problem(units: list[dict[str, Any]], **kwargs: Any) -> str:
    """The one error the scenario raises."""
    with pytest.raises(ScenarioError) as caught:
        scenario_from_data(build(units, **kwargs))
    return str(caught.value)


def two(**extra: Any) -> list[dict[str, Any]]:
    return [unit("a", squares=FRONT), unit("b", "B", squares=FAR, **extra)]


def test_a_legal_two_army_scenario_loads() -> None:
    model = load(two())
    assert [len(side.units) for side in model.sides] == [1, 1]


@pytest.mark.rule("W35-ARMY-01")
def test_every_side_needs_at_least_one_unit() -> None:
    assert "W35-ARMY-01" in problem([unit("a", squares=FRONT)])


@pytest.mark.rule("W35-ARMY-02", "W35-AMB-72")
def test_more_than_ten_units_is_a_warning_not_an_error() -> None:
    many = [unit(f"a{k}", squares=[(2 * k, 0)]) for k in range(11)]
    model = load([*many, unit("b", "B", squares=FAR)], width=40)
    assert len(warnings(model)) == 1 and "11 units" in warnings(model)[0]
    ten = load([*many[:10], unit("b", "B", squares=FAR)], width=40)
    assert warnings(ten) == []


@pytest.mark.rule("W35-ARMY-03", "W35-ARMY-04")
def test_one_unit_has_exactly_one_creature_type() -> None:
    """A unit is built from one typical creature: a second stat block has nowhere to go."""
    mixed = unit("a", squares=FRONT)
    mixed["creature"] = [creature("orc"), creature("goblin", size="small", speed=20)]
    assert "creature" in problem([mixed, unit("b", "B", squares=FAR)])
    extra = unit("a", squares=FRONT, creatures=[creature("goblin")])
    assert "unknown field 'creatures'" in problem([extra, unit("b", "B", squares=FAR)])


@pytest.mark.rule("W35-ARMY-05")
def test_an_army_may_field_identical_units() -> None:
    model = load([unit("a1", squares=block(0, 0, 5, 2)), unit("a2", squares=block(6, 0, 5, 2)),
                  unit("b", "B", squares=FAR)])
    first, second = model.sides[0].units
    assert first.creature == second.creature and first.count == second.count


@pytest.mark.rule("W35-ARMY-06", "W35-AMB-93")
def test_a_unit_needs_one_creature_and_has_no_upper_limit() -> None:
    assert "count" in problem([unit("a", squares=[(0, 0)], count=0),
                               unit("b", "B", squares=FAR)])
    lone = load([unit("a", squares=[(0, 0)], count=1), unit("b", "B", squares=FAR)])
    assert lone.sides[0].units[0].count == 1
    huge = load([unit("a", squares=block(0, 0, 8, 8), count=102_400),
                 unit("b", "B", squares=block(0, 20, 1, 1), count=10)], scale=200)
    assert huge.sides[0].units[0].count == 102_400


@pytest.mark.rule("W35-SCALE-01", "W35-AMB-07", "W35-TERM-02")
@pytest.mark.parametrize("scale", [5, 10, 30, 75, 150])
def test_only_the_five_tabulated_scales_are_allowed(scale: int) -> None:
    text = problem(two(), scale=scale)
    assert "scale" in text and "15, 25, 50, 100 or 200" in text


@pytest.mark.rule("W35-SCALE-01")
@pytest.mark.parametrize("scale", [15, 25, 50, 100, 200])
def test_every_tabulated_scale_loads(scale: int) -> None:
    model = load([unit("a", squares=[(0, 0)], count=1),
                  unit("b", "B", squares=[(0, 20)], count=1)], scale=scale)
    assert model.scale == scale


@pytest.mark.rule("W35-TERM-06", "W35-PLACE-05")
def test_counters_must_be_joined_by_sides_without_holes() -> None:
    corner = [(0, 0), (1, 1)]  # touching at a corner only
    assert "W35-TERM-06" in problem([unit("a", squares=corner), unit("b", "B", squares=FAR)])
    ring = [sq for sq in block(0, 0, 3, 3) if sq != (1, 1)]
    assert "no holes" in problem([unit("a", squares=ring), unit("b", "B", squares=FAR)])
    ell = [(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)]
    assert load([unit("a", squares=ell), unit("b", "B", squares=FAR)])


@pytest.mark.rule("W35-UNIT-02", "W35-UNIT-03")
def test_one_square_per_counter() -> None:
    assert "lists 3 squares" in problem([unit("a", squares=[(0, 0), (1, 0), (2, 0)], count=20),
                                         unit("b", "B", squares=FAR)])
    twice = unit("a", squares=[(0, 0), (0, 0)])
    assert "twice" in problem([twice, unit("b", "B", squares=FAR)])


@pytest.mark.rule("W35-PLACE-06")
def test_units_may_touch_but_never_overlap() -> None:
    touching = [unit("a1", squares=block(0, 0, 2, 1)), unit("a2", squares=block(2, 0, 2, 1)),
                unit("b", "B", squares=FAR)]
    assert load(touching)
    overlap = [unit("a1", squares=block(0, 0, 2, 1)), unit("a2", squares=block(1, 0, 2, 1)),
               unit("b", "B", squares=FAR)]
    assert "W35-PLACE-06" in problem(overlap)


@pytest.mark.rule("W35-PLACE-05")
def test_off_map_counters_are_rejected() -> None:
    text = problem([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 27)])], height=25)
    assert "off the map" in text


@pytest.mark.rule("W35-PLACE-07", "W35-AMB-36", "W35-PLACE-03")
def test_the_aggressor_places_second_at_six_squares_chebyshev() -> None:
    # a diagonal gap of 5 (dx 5, dy 5) is 5 squares: too close
    units = [unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(5, 5)])]
    text = problem(units, aggressor="B")
    assert "'b' is 5 squares from 'a'" in text and "W35-PLACE-07" in text
    assert "sides[1].units[0]" in text  # the aggressor's unit is the one out of place
    assert load([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(6, 2)])],
                aggressor="B")


@pytest.mark.rule("W35-PLACE-07", "W35-PLACE-04", "W35-AMB-95")
def test_without_an_aggressor_the_gap_is_the_same_whoever_places_second() -> None:
    close = [unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 5)])]
    assert "whichever side places second" in problem(close)
    assert "W35-PLACE-07" in problem(close, aggressor="A")
    # a reinforcement is not placed at setup and ignores the rule
    late = unit("c", "B", squares=[(0, 1)], enters_round=3, enters_edge="south")
    assert load([*two(), late])


@pytest.mark.rule("W35-PLACE-08", "W35-DEC-38")
def test_forbidden_areas_keep_out_that_sides_units_only() -> None:
    data = scenario_data(two())
    data["sides"][0]["forbidden"] = [{"rect": [[0, 1], [3, 3]]}]
    with pytest.raises(ScenarioError, match="forbidden to A"):
        scenario_from_data(data)
    data["sides"][0]["forbidden"] = [{"rect": [[0, 19], [9, 25]]}]  # B stands there: fine
    assert scenario_from_data(data)


@pytest.mark.rule("W35-PLACE-08", "W35-DEC-38")
def test_faster_units_first_when_the_side_asks_for_it() -> None:
    slow = unit("slow", squares=[(0, 5)], creature=creature(speed=20))
    fast = unit("fast", squares=[(4, 2)], creature=creature(speed=40))
    data = scenario_data([slow, fast, unit("b", "B", squares=[(0, 20)])])
    assert scenario_from_data(data)
    data["sides"][0]["faster_first"] = True
    with pytest.raises(ScenarioError, match="'fast' is faster than 'slow'"):
        scenario_from_data(data)
    data["sides"][0]["units"][1]["counters"] = [[4, 6]]
    assert scenario_from_data(data)


@pytest.mark.rule("W35-PLACE-09", "W35-AMB-70")
def test_a_monster_stands_on_one_free_square() -> None:
    on_unit = single("troll", "B", "monster", at=(0, 20))
    assert "W35-PLACE-09" in problem(two(), singles=[on_unit])
    huge = single("wyrm", "B", "monster", at=(2, 14),
                  creature=creature("wyrm", size="colossal", hp=400))
    assert load(two(), singles=[huge])  # one square even for a Colossal creature


@pytest.mark.rule("W35-PLACE-10", "W35-DEC-07")
def test_an_allied_monster_keeps_8_from_the_enemy_and_is_nearer_its_own_army() -> None:
    assert load(two(), singles=[single("troll", "B", "monster", at=(2, 12))])
    text = problem(two(), singles=[single("troll", "B", "monster", at=(2, 8))])
    assert "7 squares from an enemy unit" in text and "W35-PLACE-10" in text
    # 8 from the enemy but nearer to it than to its own army
    text = problem(two(), singles=[single("troll", "A", "monster", at=(2, 12))])
    assert "11 squares from its own army and 8 from the enemy" in text


@pytest.mark.rule("W35-PLACE-11", "W35-AMB-71", "W35-DEC-07")
def test_an_unallied_monster_stands_equally_far_from_both_armies() -> None:
    units = [unit("a", squares=FRONT), unit("b", "B", squares=block(0, 19, 5, 2))]
    free = single("troll", "A", "monster", at=(2, 10), allied=False)  # 9 and 9
    assert load(units, singles=[free])
    off = single("troll", "A", "monster", at=(2, 11), allied=False)  # 10 and 8
    text = problem(units, singles=[off])
    assert "equally far" in text and "W35-PLACE-11" in text


@pytest.mark.rule("W35-PLACE-12", "W35-AMB-71")
def test_with_no_equidistant_square_an_unallied_monster_is_12_from_one_army() -> None:
    # armies 12 apart on a 40x17 map: every square is at most 7 from one of them, so no
    # square is 8 from both; the monster must be 12 from at least one army
    units = [unit("a", squares=block(0, 0, 40, 1), count=400),
             unit("b", "B", squares=block(0, 13, 40, 1), count=400)]
    assert load(units, height=17, width=40)
    near = single("troll", "A", "monster", at=(5, 6), allied=False)
    text = problem(units, height=17, width=40, singles=[near])
    assert "W35-PLACE-12" in text
    far = single("troll", "A", "monster", at=(5, 16), allied=False)  # 16 from a, 3 from b
    assert load(units, height=17, width=40, singles=[far])


@pytest.mark.rule("W35-PLACE-13", "W35-PLACE-15")
def test_npcs_and_pcs_start_inside_a_unit_of_their_own_side() -> None:
    assert load(two(), singles=[single("captain", unit="a"), single("hero", kind="pc", unit="a")])
    assert "W35-PLACE-13" in problem(two(), singles=[single("captain", unit="b")])
    assert "W35-PLACE-15" in problem(two(), singles=[single("hero", kind="pc", unit="b")])


@pytest.mark.rule("W35-PLACE-14", "W35-AMB-63")
def test_a_unit_needs_one_more_counter_than_its_npcs_pcs_not_counted() -> None:
    units = [unit("a", squares=[(0, 0), (1, 0)]), unit("b", "B", squares=FAR)]
    one = [single("n1", unit="a")]
    assert load(units, singles=[*one, single("p1", kind="pc", unit="a"),
                                single("p2", kind="pc", unit="a")])
    text = problem(units, singles=[*one, single("n2", unit="a")])
    assert "2 counters, too few for 2 NPCs" in text and "W35-PLACE-14" in text


@pytest.mark.rule("W35-PLACE-16", "W35-DEC-09")
def test_the_pc_squad_starts_together_in_one_unit() -> None:
    units = [unit("a1", squares=block(0, 0, 2, 1)), unit("a2", squares=block(4, 0, 2, 1)),
             unit("b", "B", squares=FAR)]
    together = [single("p1", kind="pc", unit="a1", role="squad"),
                single("p2", kind="pc", unit="a1", role="squad")]
    assert load(units, singles=together)
    apart = [together[0], single("p2", kind="pc", unit="a2", role="squad")]
    assert "W35-PLACE-16" in problem(units, singles=apart)


@pytest.mark.rule("W35-AMB-79", "W35-DEC-08")
def test_a_unit_has_at_most_one_leader_starting_in_it() -> None:
    led = [unit("a", squares=FRONT, leader="cap"), unit("b", "B", squares=FAR)]
    assert load(led, singles=[single("cap", unit="a")])
    text = problem(led, singles=[single("cap", unit="a"), single("hero", kind="pc", unit="a",
                                                                   role="leader")])
    assert "W35-AMB-79" in text
    two_leaders = [single("n1", unit="a", role="leader"), single("n2", unit="a", role="leader")]
    assert "already has a leader" in problem(two(), singles=two_leaders)
    assert "W35-AMB-79" in problem(
        [unit("a", squares=FRONT, leader="nobody"), unit("b", "B", squares=FAR)])


@pytest.mark.rule("W35-AMB-95")
def test_a_reinforcement_needs_its_round_and_edge() -> None:
    no_edge = unit("c", squares=[(0, 5)], enters_round=3)
    assert "enters_round" in problem([*two(), no_edge])
    no_round = unit("c", squares=[(0, 5)], enters_edge="west")
    assert "enters_edge" in problem([*two(), no_round])
    nowhere = {k: v for k, v in unit("c", enters_round=2, enters_edge="west").items()
               if k != "counters"}
    assert load([*two(), nowhere])
    wide = {**nowhere, "count": 450}  # 45 counters in one rank: wider than the 40-square map
    assert "more than the 40x30 map" in problem([*two(), wide])
    assert load([*two(), {**wide, "columns": 9}])


@pytest.mark.rule("W35-PLACE-01", "W35-DEC-03")
def test_each_side_names_the_commander_of_all_its_combatants() -> None:
    data = build(two(), singles=[single("troll", "B", "monster", at=(2, 12)),
                                 single("hero", kind="pc", unit="a")])
    data["sides"][1]["commander"] = "random"
    scenario = scenario_from_data(data)
    assert scenario.ruleset.commander_kinds(scenario.model) == {"A": "ai", "B": "random"}
    bad = build(two())
    bad["sides"][0]["commander"] = "x" * 41
    with pytest.raises(ScenarioError, match="commander"):
        scenario_from_data(bad)
