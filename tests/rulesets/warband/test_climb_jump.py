"""Climb and Jump (WB-MOVE-10 to 16, WB-AMB-17/18/19/21) with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from tests.rulesets.warband.narration_samples import UTILITY_EVENTS
from warhost.core.orders import Order
from warhost.rulesets.warband import climbing, movement
from warhost.rulesets.warband.state import WarbandState

rule = pytest.mark.rule


def texts(options: list[Order]) -> list[str]:
    return [str(o) for o in options]


def wall_state(climb: str = "agility", modifier: int = -1, **stats: Any) -> WarbandState:
    """A block 3 squares high at x 6..8, y 4..8 with a climbable face; ``a`` at its foot."""
    block = [{"from": [6, 4], "to": [8, 8], "elevation": 3, "climb": climb,
              "climb_modifier": modifier}]
    return make_state([char("a", (5, 6), "A", **{"agility": 6, "wounds": 2, **stats}),
                       char("b", (0, 11), "B")], features=block)


def act(state: WarbandState, order: str, dice: list[int],
        orders: dict[str, list[str]] | None = None) -> Any:
    battle = make_battle(state, dice, orders)
    movement.take_movement(state, battle, state.chars["a"], Order.parse(order))
    assert battle.dice.unused == 0
    return battle


# ---------------------------------------------------------------------------------- Climb


@rule("WB-MOVE-10")
@rule("WB-AMB-17")
def test_climb_reaches_up_to_half_agility_rounded_down() -> None:
    state = wall_state(agility=6)
    options = climbing.climb_options(state, state.chars["a"])
    assert texts(options) == ["climb 6 5", "climb 6 6", "climb 6 7"]
    options, _ = movement.movement_choices(state, state.chars["a"])
    assert Order.of("climb", 6, 6) in options
    assert Order.of("move", 6, 6) not in options  # a wall of 3 is not walked up
    state = wall_state(agility=7)
    assert climbing.climb_options(state, state.chars["a"]) != []
    state = wall_state(agility=5)  # floor(5 / 2) = 2 < 3
    assert climbing.climb_options(state, state.chars["a"]) == []


@rule("WB-MOVE-11")
@rule("WB-AMB-17")
def test_a_difficult_surface_needs_its_test_with_its_modifier() -> None:
    state = wall_state("agility", -1)
    battle = act(state, "climb 6 6", [5])  # Agility 6 - 1: die 5 passes
    assert state.chars["a"].square == (6, 6)
    event = events(battle, "climb")[0]
    assert (event["test"], event["passed"], event["height"]) == ("agility", True, 3)
    state = wall_state("agility", -1)
    act(state, "climb 6 6", [6])  # 6 > 5: fails
    assert state.chars["a"].square == (5, 6)


@rule("WB-MOVE-11")
@rule("WB-AMB-17")
def test_a_ladder_needs_no_test_and_either_lets_the_climber_choose() -> None:
    state = wall_state("none", 0)
    act(state, "climb 6 6", [])  # no die at all
    assert state.chars["a"].square == (6, 6)
    state = wall_state("either", 0, strength=4, agility=6)
    assert texts(climbing.climb_options(state, state.chars["a"]))[:2] == [
        "climb 6 5 strength", "climb 6 5 agility"]
    battle = act(state, "climb 6 6 strength", [5])  # Strength 4: die 5 fails
    assert state.chars["a"].square == (5, 6)
    assert events(battle, "climb")[0]["test"] == "strength"


@rule("WB-MOVE-12")
@rule("WB-AMB-17")
def test_a_failed_climb_does_not_move() -> None:
    state = wall_state()
    battle = act(state, "climb 6 6", [7])  # DoF 2
    assert state.chars["a"].square == (5, 6)
    assert events(battle, "fall") == [] and events(battle, "climb")[0]["fell"] is False


@rule("WB-MOVE-13")
@rule("WB-AMB-17")
@rule("WB-AMB-19")
def test_three_dof_is_a_fall_from_the_starting_height() -> None:
    state = wall_state()
    battle = act(state, "climb 6 6", [8])  # DoF 3 at the foot: no height to fall from
    assert events(battle, "climb")[0]["fell"] is True and events(battle, "fall") == []
    assert state.chars["a"].square == (5, 6) and state.chars["a"].wounds == 2
    state = wall_state(toughness=3)
    a = state.chars["a"]
    state.place(a, (6, 6))
    # climbing down, DoF 4: falls 3 squares, 1 wound; Defense die 9 fails, Ward 0
    battle = act(state, "climb 5 6", [9, 9])
    assert a.square == (5, 6) and a.wounds == 1
    assert events(battle, "fall")[0]["height"] == 3


@rule("WB-MOVE-04")
def test_climbing_away_from_an_enemy_provokes_an_attack_of_opportunity() -> None:
    state = wall_state()
    state.place(state.chars["b"], (4, 6))
    battle = act(state, "climb 6 6", [10, 1])  # the attack misses, the climb passes
    assert [e["type"] for e in battle.log.events if e["type"] in ("opportunity", "climb")] == [
        "opportunity", "climb"]
    assert state.chars["a"].square == (6, 6)


# ----------------------------------------------------------------------------------- Jump


@rule("WB-MOVE-14")
@rule("WB-AMB-18")
def test_jump_reaches_any_free_square_within_agility_in_three_dimensions() -> None:
    state = make_state([char("a", (5, 5), "A", agility=3), char("b", (11, 11), "B")])
    options = climbing.jump_options(state, state.chars["a"])
    assert len(options) == 48  # the 7 x 7 square around it, less its own
    assert Order.of("jump", 8, 2) in options and Order.of("jump", 9, 5) not in options
    ledges = [{"from": [6, 5], "elevation": 3}, {"from": [4, 5], "elevation": 4}]
    state = make_state([char("a", (5, 5), "A", agility=3), char("b", (11, 11), "B")],
                       features=ledges)
    options = climbing.jump_options(state, state.chars["a"])
    assert Order.of("jump", 6, 5) in options and Order.of("jump", 4, 5) not in options
    wall = [{"from": [7, 5], "terrain": "blocking"}]
    state = make_state([char("a", (5, 5), "A", agility=3), char("b", (11, 11), "B")],
                       features=wall)
    assert Order.of("jump", 8, 5) not in climbing.jump_options(state, state.chars["a"])
    state = make_state([char("a", (5, 5), "A", agility=3), char("c", (6, 5), "A"),
                        char("b", (5, 6), "B")])
    options = climbing.jump_options(state, state.chars["a"])
    assert Order.of("jump", 7, 5) in options  # over an ally
    assert Order.of("jump", 5, 7) not in options  # not over an enemy


@rule("WB-MOVE-14")
@rule("WB-MOVE-15")
@rule("WB-AMB-18")
def test_the_seed_jump_example_agility_6_die_8_covers_5_of_6_squares() -> None:
    state = make_state([char("a", (1, 5), "A", agility=6), char("b", (11, 11), "B")])
    battle = act(state, "jump 7 5", [8])
    assert state.chars["a"].square == (6, 5)
    event = events(battle, "jump")[0]
    assert (event["distance"], event["covered"], event["dof"]) == (6, 5, 2)


@rule("WB-MOVE-15")
@rule("WB-AMB-18")
def test_a_jump_failed_by_one_still_lands_and_a_pass_lands_exactly() -> None:
    state = make_state([char("a", (1, 5), "A", agility=6), char("b", (11, 11), "B")])
    act(state, "jump 7 5", [7])  # DoF 1: floor(1 / 2) = 0 squares lost
    assert state.chars["a"].square == (7, 5)
    state = make_state([char("a", (1, 5), "A", agility=6), char("b", (11, 11), "B")])
    act(state, "jump 7 5", [2])
    assert state.chars["a"].square == (7, 5)


@rule("WB-MOVE-15")
def test_a_short_jump_lands_before_a_taken_square() -> None:
    state = make_state([char("a", (1, 5), "A", agility=6), char("c", (6, 5), "A"),
                        char("b", (11, 11), "B")])
    act(state, "jump 7 5", [8])  # covers 5: (6, 5) is taken, so (5, 5)
    assert state.chars["a"].square == (5, 5)


def gap_state() -> WarbandState:
    banks = [{"from": [0, 0], "to": [3, 11], "elevation": 3},
             {"from": [7, 0], "to": [11, 11], "elevation": 3}]
    return make_state([char("a", (2, 5), "A", agility=6, toughness=3, wounds=2),
                       char("b", (11, 11), "B")], features=banks)


@rule("WB-MOVE-16")
@rule("WB-AMB-18")
@rule("WB-AMB-19")
def test_a_short_jump_over_a_gap_falls_into_it() -> None:
    state = gap_state()
    a = state.chars["a"]
    assert Order.of("jump", 7, 5) in climbing.jump_options(state, a)
    # die 9: DoF 3, 1 square short: lands at (6, 5) at the bottom, a 3-square fall,
    # 1 wound; Defense die 9 fails
    battle = act(state, "jump 7 5", [9, 9])
    assert a.square == (6, 5) and a.wounds == 1
    fall = events(battle, "fall")[0]
    assert (fall["height"], fall["wounds"]) == (3, 1)
    state = gap_state()
    act(state, "jump 7 5", [5])
    assert state.chars["a"].square == (7, 5) and state.chars["a"].wounds == 2


@rule("WB-MOVE-16")
def test_a_short_jump_up_a_ledge_stays_below() -> None:
    ledge = [{"from": [6, 6], "elevation": 3}]
    state = make_state([char("a", (5, 6), "A", agility=3), char("b", (11, 11), "B")],
                       features=ledge)
    battle = act(state, "jump 6 6", [7])  # DoF 4: 2 short, the 3-square rise not reached
    assert state.chars["a"].square == (5, 6)
    assert events(battle, "jump")[0]["to"] == [5, 6] and events(battle, "fall") == []


@rule("WB-MOVE-04")
@rule("WB-TURN-04")
@rule("WB-AMB-05")
def test_a_jump_provokes_attacks_of_opportunity_and_allows_a_new_facing() -> None:
    state = make_state([char("a", (1, 5), "A", agility=6), char("b", (1, 6), "B")])
    battle = act(state, "jump 5 5", [10, 3], {"A": ["face E"]})
    assert events(battle, "opportunity")[0]["who"] == "b"
    assert state.chars["a"].square == (5, 5) and state.chars["a"].facing == "E"


@rule("WB-UTIL-11")
@rule("WB-AMB-11")
def test_disengage_shortens_climb_and_jump_too() -> None:
    state = wall_state(agility=6)
    a = state.chars["a"]
    assert (climbing.climb_limit(a), climbing.jump_limit(a)) == (3, 6)
    a.disengaged = True
    assert (climbing.climb_limit(a), climbing.jump_limit(a)) == (2, 5)
    assert climbing.climb_options(state, a) == []


def test_every_utility_climb_and_jump_event_has_a_clean_sentence() -> None:
    import re

    from warhost.rulesets.warband.view import describe_event

    bad = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[{}]|\b\w+=\S")
    samples = UTILITY_EVENTS
    for event in samples:
        text = describe_event(event)
        assert text and not bad.search(text), (event, text)
