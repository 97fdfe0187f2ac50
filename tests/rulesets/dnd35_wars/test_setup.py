"""Setting up a dnd35-wars battle: the derived unit stat block (W35-UNIT, W35-STAT, W35-SIZE,
W35-SCALE), the placement order and roll-off (W35-PLACE-02..04, W35-AMB-64), warnings
(W35-AMB-72) and unallied monsters drawn against an army (W35-PLACE-12)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    make_battle,
    scenario_data,
    single,
    unit,
)
from warhost.core.errors import ScenarioError
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd35_wars import tables
from warhost.rulesets.dnd35_wars.derive import derive
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, Options, UnitSpec
from warhost.rulesets.dnd35_wars.setup import block_squares, initial_state, new_state
from warhost.rulesets.dnd35_wars.state import WarState

FIGHTER = creature("human fighter", race="human", level=1, hp=12, ac=18, touch_ac=11,
                   initiative=5, fort=4, ref=1, will=0, speed=20, cha=12,
                   alignment="neutral good", **{"class": "fighter"},
                   melee=[{"name": "longsword", "bonus": 3, "damage": "1d8", "crit_range": 19}],
                   ranged=[{"name": "shortbow", "bonus": 2, "damage": "1d6+2",
                            "crit_multiplier": 3, "range_increment": 60}])


def spec(count: int, **fields: Any) -> UnitSpec:
    """A unit entry as the model reads it."""
    entry = {"id": "u", "count": count, "at": [0, 0], "creature": fields.pop("creature", None)
             or creature(**fields.pop("creature_fields", {}))}
    entry.update(fields)
    return UnitSpec.model_validate(entry)


def model_of(data: dict[str, Any]) -> Dnd35WarsScenario:
    model = scenario_from_data(data).model
    assert isinstance(model, Dnd35WarsScenario)
    return model


def start(data: dict[str, Any], dice: list[int]) -> tuple[WarState, Any]:
    """new_state over ``data`` with scripted dice."""
    model = model_of(data)
    battle = make_battle(initial_state(model), dice=dice)
    state = new_state(model, battle)
    return state, battle


A = block(0, 0, 5, 2)
B = block(0, 20, 5, 2)


# ---- the derived stat block


@pytest.mark.rule("W35-UNIT-01", "W35-UNIT-10", "W35-AMB-01", "W35-AMB-02", "W35-AMB-03",
                  "W35-STAT-06", "W35-STAT-08", "W35-STAT-09", "W35-STAT-10", "W35-STAT-16")
def test_the_seed_fighter_unit_derives_its_stat_block() -> None:
    b = derive(spec(100, creature=FIGHTER), 15, Options())
    assert (b.counters, b.per_counter, b.creatures) == (10, Fraction(10), 100)
    assert (b.unit_hp, b.counter_hp, b.morale, b.rate) == (120, 12, 2, Fraction(3))
    assert (b.initiative, b.ac, b.touch_ac, b.dr) == (5, 18, 11, 0)
    assert (b.fort, b.ref, b.will) == (4, 1, 0)
    assert b.melee is not None and (b.melee.bonus, b.melee.damage, b.melee.crit_range) == (
        3, "1d8", 19)
    assert b.ranged is not None and (b.ranged.bonus, b.ranged.damage, b.ranged.crit_multiplier,
                                     b.ranged.range_increment) == (2, "1d6+2", 3, 60)


@pytest.mark.rule("W35-UNIT-03", "W35-UNIT-04", "W35-SIZE-04", "W35-SCALE-05", "W35-TERM-04")
def test_sixty_elves_at_15_ft_are_6_counters_of_10() -> None:
    b = derive(spec(60), 15, Options())
    assert (b.counters, b.per_counter) == (6, Fraction(10))


@pytest.mark.rule("W35-UNIT-05", "W35-AMB-09")
def test_51_elves_are_spread_over_6_counters() -> None:
    b = derive(spec(51), 15, Options())
    assert (b.counters, b.per_counter) == (6, Fraction(17, 2))


@pytest.mark.rule("W35-UNIT-06")
def test_50_elves_need_only_5_counters() -> None:
    assert derive(spec(50), 15, Options()).counters == 5


@pytest.mark.rule("W35-UNIT-07", "W35-SIZE-01")
def test_128_ogres_at_50_ft_are_6_counters() -> None:
    ogre = creature("ogre", size="large", hp=29, speed=40)
    b = derive(spec(128, creature=ogre), 50, Options())
    assert (b.counters, b.per_counter, b.unit_hp, b.counter_hp) == (6, Fraction(64, 3), 174, 29)


@pytest.mark.rule("W35-UNIT-08", "W35-UNIT-09")
def test_unit_hp_is_typical_hp_times_counters_not_creatures() -> None:
    few = derive(spec(11), 15, Options())  # 2 counters
    many = derive(spec(20), 15, Options())  # also 2 counters
    assert few.unit_hp == many.unit_hp == 20 and few.counter_hp == 10


@pytest.mark.rule("W35-SIZE-02")
def test_a_colossal_creature_covers_2x2_squares_at_15_ft() -> None:
    titan = creature("titan", size="colossal", hp=300)
    assert derive(spec(3, creature=titan), 15, Options()).counters == 12
    assert derive(spec(3, creature=titan), 25, Options()).counters == 3


@pytest.mark.rule("W35-SIZE-03", "W35-TYPE-01")
def test_mounted_units_use_the_large_row_and_chariots_the_huge_row() -> None:
    riders = derive(spec(12, mount={"size": "large", "speed": 50}), 15, Options())
    chariots = derive(spec(12, mount={"size": "large", "speed": 50}, chariot=True), 25,
                      Options())
    assert (riders.size, riders.counters) == ("large", 6)
    assert (chariots.size, chariots.counters) == ("huge", 4)


@pytest.mark.rule("W35-SCALE-02", "W35-SCALE-03")
def test_one_scale_for_every_unit_and_bigger_squares_hold_more() -> None:
    data = scenario_data([unit("a", squares=[(0, 0)], count=25),
                          unit("b", "B", squares=[(0, 20)], count=20)], scale=25)
    state = initial_state(model_of(data))
    assert state.scale == 25
    assert [u.per_counter for u in state.units.values()] == [25, 20]
    assert [tables.capacity("medium", s) for s in (15, 25, 50, 100, 200)] == [
        10, 25, 100, 400, 1600]


@pytest.mark.rule("W35-SCALE-04", "W35-SCALE-07", "W35-SCALE-08", "W35-AMB-08")
def test_the_suggested_scale_follows_the_table_shifted_by_size() -> None:
    assert [tables.suggest_scale(n, "medium") for n in (100, 101, 400, 1600, 6400, 6401)] == [
        15, 25, 25, 50, 100, 200]
    assert tables.suggest_scale(200, "large") == 50
    assert tables.suggest_scale(300, "tiny") == 15


@pytest.mark.rule("W35-STAT-06")
def test_race_class_and_feats_come_from_the_typical_creature() -> None:
    rogue = creature("halfling rogue", race="halfling", size="small", level=3,
                     feats=["Weapon Finesse"], **{"class": "rogue"})
    state = initial_state(model_of(scenario_data(
        [unit("a", squares=[(0, 0)], creature=rogue), unit("b", "B", squares=[(0, 20)])])))
    a = state.units["a"]
    assert (a.creature.race, a.creature.class_name, a.creature.level) == (
        "halfling", "rogue", 3)
    assert a.feats == frozenset({"weapon finesse"})


@pytest.mark.rule("W35-TERM-03")
def test_the_map_records_terrain_water_height_sight_and_structures() -> None:
    data = scenario_data([unit("a", squares=A), unit("b", "B", squares=B)],
                         terrain=[{"rect": [[3, 5], [4, 6]], "kind": "heavy_forest"},
                                  {"rect": [[8, 8], [8, 9]], "water": True, "elevation": 2,
                                   "blocks_sight": True}],
                         structures=[{"rect": [[10, 10], [11, 10]], "id": "gate",
                                      "type": "keep", "hp": 200, "hardness": 8}])
    state = initial_state(model_of(data))
    assert state.terrain == {(3, 5): "heavy_forest", (4, 5): "heavy_forest",
                             (3, 6): "heavy_forest", (4, 6): "heavy_forest"}
    assert state.water == state.blocks_sight == {(8, 8), (8, 9)}
    assert state.elevation == {(8, 8): 2, (8, 9): 2}
    assert state.structure_at == {(10, 10): "gate", (11, 10): "gate"}
    assert state.structure_hp == {"gate": 200} and state.structures["gate"].hardness == 8


@pytest.mark.rule("W35-TERM-05", "W35-ROUND-03")
def test_a_unit_of_many_counters_is_one_actor_with_one_initiative() -> None:
    data = scenario_data([unit("a", squares=A), unit("b", "B", squares=B)])
    data["aggressor"] = "A"
    state, battle = start(data, dice=[4, 17])
    assert state.order == ["b", "a"] and state.initiative == {"a": 4, "b": 17}
    assert len(events(battle, "initiative")) == 2 and len(state.units["a"].squares) == 10


# ---- placement


@pytest.mark.rule("W35-PLACE-05", "W35-DEC-06")
def test_a_block_fills_ranks_behind_its_front_counter() -> None:
    assert block_squares((5, 5), 7, 3, "N") == [(5, 5), (6, 5), (7, 5), (5, 4), (6, 4), (7, 4),
                                                (5, 3)]
    assert block_squares((5, 5), 3, 2, "S") == [(5, 5), (4, 5), (5, 6)]


@pytest.mark.rule("W35-PLACE-02", "W35-TERM-01")
def test_units_are_set_out_before_monsters_then_npcs_then_pcs() -> None:
    data = scenario_data(
        [unit("a", squares=A), unit("b", "B", squares=B)],
        singles=[single("pa", "A", "pc", unit="a"), single("na", "A", "npc", unit="a"),
                 single("ma", "A", "monster", at=(2, 8)), single("nb", "B", "npc", unit="b"),
                 single("mb", "B", "monster", at=(2, 13))])
    state = initial_state(model_of(data))
    assert list(state.units) == ["a", "b"]
    assert list(state.singles) == ["ma", "mb", "na", "nb", "pa"]
    assert state.units["a"].singles == ["na", "pa"] and state.singles["na"].square is None


@pytest.mark.rule("W35-PLACE-03", "W35-DEC-04")
def test_with_an_aggressor_the_defender_places_first_and_no_dice_are_rolled() -> None:
    data = scenario_data([unit("a", squares=A), unit("b", "B", squares=B)])
    data["aggressor"] = "A"
    state, battle = start(data, dice=[10, 5])  # initiative only
    assert state.placed_first == "B"
    (placement,) = events(battle, "placement")
    assert (placement["first"], placement["aggressor"]) == ("B", "A")
    assert "rolls" not in placement


@pytest.mark.rule("W35-PLACE-04", "W35-AMB-64", "W35-DEC-05")
def test_the_roll_off_winner_places_last_by_default_ties_rolled_again() -> None:
    data = scenario_data([unit("a", squares=A), unit("b", "B", squares=B)])
    state, battle = start(data, dice=[12, 12, 7, 15, 10, 5])  # tie, then B wins 15 to 7
    (placement,) = events(battle, "placement")
    assert placement["rolls"] == {"A": 7, "B": 15} and placement["winner"] == "B"
    assert state.placed_first == "A"
    data["placement_winner_places"] = "first"
    state, _ = start(data, dice=[12, 12, 7, 15, 10, 5])
    assert state.placed_first == "B"


@pytest.mark.rule("W35-ARMY-02", "W35-AMB-72")
def test_an_army_of_eleven_units_draws_a_warning_event() -> None:
    many = [unit(f"a{k}", squares=[(2 * k, 0)]) for k in range(11)]
    data = scenario_data([*many, unit("b", "B", squares=B)], width=40)
    data["aggressor"] = "B"
    state, battle = start(data, dice=list(range(1, 13)))
    (warning,) = events(battle, "warning")
    assert warning["rule"] == "W35-ARMY-02" and "11 units" in warning["message"]
    assert len(state.order) == 12


def _cornered() -> dict[str, Any]:
    """Two armies 12 rows apart on a 40x17 map (no square 8 from both) and an unallied
    troll 6 from A and 7 from B."""
    data = scenario_data([unit("a", squares=block(0, 0, 40, 1), count=400),
                          unit("b", "B", squares=block(0, 13, 40, 1), count=400)],
                         width=40, height=17,
                         singles=[single("troll", "A", "monster", at=(5, 16), allied=False)])
    data["aggressor"] = "A"
    return data


@pytest.mark.rule("W35-PLACE-12", "W35-AMB-71")
def test_an_unallied_monster_far_from_the_drawn_army_stays() -> None:
    state, battle = start(_cornered(), dice=[1, 10, 11, 12])  # army A drawn: 16 away
    (placed,) = events(battle, "monster_placed")
    assert (placed["army"], placed["at"], placed["moved"]) == ("A", [5, 16], False)
    assert state.at[(5, 16)] == "troll"


@pytest.mark.rule("W35-PLACE-12", "W35-AMB-71")
def test_an_unallied_monster_too_near_the_drawn_army_moves_to_the_nearest_legal_square() -> None:
    state, battle = start(_cornered(), dice=[2, 10, 11, 12])  # army B drawn: only 3 away
    (placed,) = events(battle, "monster_placed")
    # only rows 0 and 1 are 12 from row 13, and row 0 is A's: straight down to row 1
    assert placed["army"] == "B" and placed["moved"] and placed["at"] == [5, 1]
    assert state.singles["troll"].square == (5, 1) and (5, 16) not in state.at


@pytest.mark.rule("W35-PLACE-12", "W35-AMB-71")
def test_an_unallied_monster_with_no_legal_square_rejects_the_scenario() -> None:
    data = _cornered()
    a = data["sides"][0]["units"][0]
    a["counters"], a["count"] = block(0, 0, 40, 2), 800  # rows 0 and 1, the only ones far from B
    model = model_of(data)
    battle = make_battle(initial_state(model), dice=[2])  # army B drawn
    with pytest.raises(ScenarioError, match="W35-PLACE-12"):
        new_state(model, battle)
