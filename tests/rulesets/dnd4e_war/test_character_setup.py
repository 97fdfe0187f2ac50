"""Characters at the start of a battle: alone or inside a unit, their tier numbers and the
general's extra action point."""

from __future__ import annotations

import pytest

from tests.rulesets.dnd4e_war.helpers import character, get, make_state, unit


@pytest.mark.rule("W4-CHAR-03")
@pytest.mark.rule("W4-CHAR-04")
def test_a_character_starting_in_a_unit_takes_a_place_and_pushes_a_model_to_the_back() -> None:
    state = make_state([unit("a", companies=2, files=2), unit("b", "B", at=(20, 30))],
                       characters=[character("hero", joined="a")])
    host = get(state, "a")
    assert host.companies == [8, 8, 1]  # the displaced model starts a new company
    assert host.joined == ["hero"] and host.normal_models == 16
    assert not get(state, "hero").alive  # off the table as a unit of his own
    assert state.characters["hero"].host == "a"


@pytest.mark.rule("W4-CHAR-04")
def test_the_displaced_model_fills_a_depleted_company() -> None:
    state = make_state([unit("a", companies=2, files=2, models=13),
                        unit("b", "B", at=(20, 30))],
                       characters=[character("hero", joined="a")])
    assert get(state, "a").companies == [8, 6]


@pytest.mark.rule("W4-CLASS-02")
@pytest.mark.rule("W4-AMB-70")
@pytest.mark.parametrize(("level", "attacks", "points"), [(5, 3, 2), (15, 4, 3), (25, 5, 4)])
def test_class_tier_values_are_resilience_attacks_and_action_points(
        level: int, attacks: int, points: int) -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30))],
                       characters=[character("hero", at=(40, 10), level=level)])
    own = get(state, "hero")
    assert (own.profile.resilience, own.profile.attacks) == (1, attacks)
    assert state.characters["hero"].action_points == points


@pytest.mark.rule("W4-GEN-02")
def test_the_general_has_one_more_action_point() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30))],
                       characters=[character("g", at=(40, 10), general=True),
                                   character("h", at=(50, 10))])
    assert state.characters["g"].action_points == state.characters["h"].action_points + 1
    assert state.general("A") is state.characters["g"]


@pytest.mark.rule("W4-CHAR-02")
def test_a_lone_character_moves_as_a_skirmisher_or_as_a_monster() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30))],
                       characters=[character("foot", at=(40, 10)),
                                   character("giant", at=(50, 10), size="large")])
    assert get(state, "foot").skirmish and not get(state, "foot").is_monster
    assert get(state, "giant").is_monster
