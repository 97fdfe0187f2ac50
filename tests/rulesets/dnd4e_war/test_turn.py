"""The turn, roll-offs and initiative (W4-TURN, W4-INIT) and the to-hit chart (W4-HIT)."""

from __future__ import annotations

import pytest

from tests.rulesets.dnd4e_war.helpers import events, make_battle, make_state, unit
from warhost.rulesets.dnd4e_war import game
from warhost.rulesets.dnd4e_war.tables import needed_score


@pytest.mark.rule("W4-TURN-07")
@pytest.mark.rule("W4-TURN-08")
@pytest.mark.rule("W4-INIT-03")
def test_a_tied_roll_off_is_rolled_again_with_the_same_modifiers() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)])
    battle = make_battle(state, dice=[9, 11, 11, 13, 4, 2])
    assert game.roll_off(battle, ["A", "B"], "test", {"A": 2}) == "A"
    assert [e["totals"] for e in events(battle, "roll_off")] == [
        {"A": 11, "B": 11}, {"A": 13, "B": 13}, {"A": 6, "B": 2}]


@pytest.mark.rule("W4-INIT-01")
@pytest.mark.rule("W4-INIT-02")
@pytest.mark.rule("W4-INIT-04")
@pytest.mark.rule("W4-DEC-04")
def test_the_winner_of_the_initiative_roll_may_give_the_initiative_away() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)])
    battle = make_battle(state, dice=[5, 12], orders={"B": ["give"]})
    game.initiative_phase(state, battle)
    assert state.initiative == "A"
    chosen = events(battle, "initiative")[0]
    assert (chosen["winner"], chosen["side"]) == ("B", "A")
    taken = make_battle(state, dice=[15, 3])
    game.initiative_phase(state, taken)
    assert state.initiative == "A" and events(taken, "initiative")[0]["winner"] == "A"


@pytest.mark.rule("W4-HIT-01")
@pytest.mark.rule("W4-AMB-02")
def test_the_to_hit_chart_is_its_formula_in_every_printed_cell() -> None:
    first_row = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]
    assert [needed_score(ac, 1) for ac in range(11, 31)] == first_row
    assert [needed_score(ac, 20) for ac in range(11, 31)] == [8] * 18 + [9, 10]
    assert needed_score(25, 16) == 9  # the elf archers' shot
    assert needed_score(40, 0) == 20 and needed_score(5, 30) == 8  # beyond the chart


@pytest.mark.rule("W4-HIT-02")
@pytest.mark.rule("W4-HIT-03")
@pytest.mark.rule("W4-HIT-04")
@pytest.mark.rule("W4-AMB-03")
def test_ordinary_models_need_eight_characters_two_and_nobody_more_than_twenty() -> None:
    assert needed_score(12, 10) == 8
    assert needed_score(12, 10, character=True) == 2
    assert needed_score(15, 10, character=True) == 5
    assert needed_score(60, 10, character=True) == 20
