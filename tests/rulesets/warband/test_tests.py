"""The d10 roll-under test (WB-TEST-01 to 08): one function in the core, one wrapper here."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.core.checks import chance_under, face_chances, judge_face, roll_under
from warhost.core.dice import ScriptedDice
from warhost.rulesets.warband.checks import Mod, check_odds, take_test
from warhost.rulesets.warband.injury import injury_roll
from warhost.rulesets.warband.state import Character, WarbandState


def one() -> tuple[WarbandState, Character]:
    state = make_state([char("a", (1, 1), "A", agility=6, resolve=6, ward=0),
                        char("b", (5, 5), "B")])
    return state, state.chars["a"]


@pytest.mark.rule("WB-TEST-01")
def test_a_test_passes_on_the_target_or_less() -> None:
    assert roll_under(ScriptedDice([6]), 6, "t").passed
    assert not roll_under(ScriptedDice([7]), 6, "t").passed


@pytest.mark.rule("WB-TEST-01", "WB-TEST-07")
def test_modifiers_change_the_target_never_the_die() -> None:
    state, a = one()
    battle = make_battle(state, [7, 7])
    up = take_test(state, battle, a, "agility", "jump",
                   [Mod("x", 1, "R"), Mod("y", 1, "R"), Mod("z", -1, "R")])
    assert (up.target, up.die, up.passed) == (7, 7, True)
    down = take_test(state, battle, a, "agility", "jump", [Mod("x", -2, "R")])
    assert (down.target, down.die, down.passed) == (4, 7, False)
    assert [e["target"] for e in events(battle, "roll")] == [7, 4]


@pytest.mark.rule("WB-TEST-02")
@pytest.mark.rule("WB-AMB-01")
def test_a_1_always_passes_and_a_10_always_fails() -> None:
    assert roll_under(ScriptedDice([1]), -3, "t").passed
    assert not roll_under(ScriptedDice([10]), 14, "t").passed
    assert roll_under(ScriptedDice([10]), 10, "t", natural_ten_fails=False).passed
    assert not roll_under(ScriptedDice([10]), 9, "t", natural_ten_fails=False).passed
    assert chance_under(-5) == Fraction(1, 10) and chance_under(15) == Fraction(9, 10)
    assert chance_under(10, natural_ten_fails=False) == 1


@pytest.mark.rule("WB-TEST-02")
@pytest.mark.rule("WB-AMB-01")
def test_the_option_reaches_the_characters_tests() -> None:
    state = make_state([char("a", (1, 1), "A", agility=9), char("b", (5, 5), "B")],
                       options={"natural_ten_always_fails": False})
    battle = make_battle(state, [10])
    check = take_test(state, battle, state.chars["a"], "agility", "t", [Mod("x", 1, "R")])
    assert check.passed


@pytest.mark.rule("WB-TEST-03")
def test_a_score_of_zero_fails_without_a_die() -> None:
    state, a = one()
    battle = make_battle(state, [])
    check = take_test(state, battle, a, "ward", "ward", [Mod("bless", 3, "R")])
    assert (check.die, check.passed) == (None, False)
    assert events(battle, "roll") == []
    assert chance_under(5, score_is_zero=True) == 0


@pytest.mark.rule("WB-TEST-04")
def test_degrees_of_success_and_failure() -> None:
    assert (judge_face(6, 4).dos, judge_face(6, 4).dof) == (2, 0)
    assert (judge_face(6, 8).dos, judge_face(6, 8).dof) == (0, 2)
    assert (judge_face(6, 6).dos, judge_face(6, 6).passed) == (0, True)
    # never below 0, and each only on its own side of the result
    assert (judge_face(-3, 1).dos, judge_face(-3, 1).dof) == (0, 0)
    assert (judge_face(12, 10).dos, judge_face(12, 10).dof) == (0, 0)
    assert judge_face(6, 8).degrees == 2


@pytest.mark.rule("WB-TEST-05")
def test_roll_twice_keep_the_worse_uses_the_higher_die() -> None:
    state, a = one()
    a.worse_resolve = True
    battle = make_battle(state, [3, 8])
    check = take_test(state, battle, a, "resolve", "morale")
    assert (check.die, check.passed) == (8, False)
    assert chance_under(6, worst_of_two=True) == Fraction(9, 25)
    assert sum(p for _, p in face_chances(worst_of_two=True)) == 1
    odds = check_odds(state, a, "resolve")
    assert odds.passes == Fraction(9, 25)


@pytest.mark.rule("WB-TEST-06")
def test_each_named_test_uses_its_score() -> None:
    state = make_state([char("a", (1, 1), "A", agility=4, resolve=7, magic=3, ward=2),
                        char("b", (5, 5), "B")])
    a = state.chars["a"]
    battle = make_battle(state, [5, 5, 5, 5])
    assert take_test(state, battle, a, "agility", "t").target == 4
    assert take_test(state, battle, a, "resolve", "morale").target == 7
    assert take_test(state, battle, a, "magic", "cast").target == 3
    assert take_test(state, battle, a, "ward", "ward", ward=True).target == 2


@pytest.mark.rule("WB-TEST-08")
def test_the_injury_roll_is_a_table_roll_with_no_auto_pass_or_fail() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (5, 5), "B")])
    b = state.chars["b"]
    battle = make_battle(state, [10])
    injury_roll(state, battle, b, True)
    assert events(battle, "injury_roll")[0]["roll"] == 12  # the raw face + 2, not "a fail"
    state = make_state([char("a", (1, 1), "A"), char("b", (5, 5), "B")])
    battle = make_battle(state, [1])
    injury_roll(state, battle, state.chars["b"], False)
    assert events(battle, "injury_roll")[0]["result"] == "knocked_down"


@pytest.mark.rule("WB-UTIL-18")
def test_the_rally_penalty_touches_every_test_but_ward() -> None:
    state = make_state([char("a", (1, 1), "A", agility=6, ward=4), char("b", (5, 5), "B")])
    a = state.chars["a"]
    a.rallied = True
    battle = make_battle(state, [5, 5])
    assert take_test(state, battle, a, "agility", "t").target == 5
    assert take_test(state, battle, a, "ward", "ward", ward=True).target == 4
