"""The round and the unit turn of dnd35-wars, the derived stat block in play, and the end of
the battle."""

from __future__ import annotations

import pytest

from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    events,
    get,
    make_battle,
    make_state,
    unit,
)
from warhost.rulesets.dnd35_wars.game import check_end, outcome, score, unit_turn
from warhost.rulesets.dnd35_wars.setup import roll_initiative


@pytest.mark.rule("W35-UNIT-08", "W35-UNIT-09", "W35-AMB-01")
def test_the_seed_fighter_unit_in_play_pools_120_hp_over_10_counters() -> None:
    fighter = creature("human fighter", hp=12, ac=18, touch_ac=11, initiative=5, speed=20,
                       cha=12, alignment="neutral good", **{"class": "fighter"})
    state = make_state([unit("f", squares=block(0, 0, 5, 2), count=100, creature=fighter),
                        unit("o", "B", squares=[(20, 20)])])
    f = get(state, "f")
    assert (f.counters, f.start_hp, f.counter_hp, f.morale, f.rate) == (10, 120, 12, 2, 3)


@pytest.mark.rule("W35-ROUND-03", "W35-ROUND-05", "W35-AMB-64")
def test_initiative_runs_from_the_highest_and_ties_go_to_the_higher_modifier() -> None:
    state = make_state([unit("a", squares=[(0, 0)], creature=creature(initiative=1)),
                        unit("b", "B", squares=[(9, 9)], creature=creature(initiative=3)),
                        unit("c", "B", squares=[(5, 9)], creature=creature(initiative=0))])
    state.order = []
    battle = make_battle(state, dice=[12, 10, 15])  # a 13, b 13, c 15
    roll_initiative(state, battle, ["a", "b", "c"])
    assert state.order == ["c", "b", "a"]


@pytest.mark.rule("W35-ROUND-12", "W35-UMOVE-01")
def test_a_unit_turn_ends_in_exactly_one_unit_action() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])
    battle = make_battle(state, dice=[15, 4], orders={"A": ["melee a b"]})
    unit_turn(state, battle, get(state, "a"))
    assert len(events(battle, "attack")) == 1
    assert events(battle, "hold") == events(battle, "move") == []
    assert get(state, "b").hp == 10 - 6


@pytest.mark.rule("W35-AMB-99")
def test_the_battle_ends_when_a_side_has_nothing_left_able_to_fight() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])
    battle = make_battle(state)
    get(state, "b").status = "fled"
    check_end(state, battle, 10, final=False)
    assert (state.over, state.winner) == (True, "A")
    assert score(state, "A") == 100 and outcome(state).winner == "A"


@pytest.mark.rule("W35-AMB-64")
def test_a_tie_on_total_and_modifier_is_rolled_off_only_among_those_still_tied() -> None:
    state = make_state([unit(u, "A" if u == "a" else "B", squares=[(2 * i, 0)])
                        for i, u in enumerate("abc")])
    state.order = []
    # all three roll 10 (total 10, modifier 0); roll-off 5, 5, 9: c first; a and b again: 3, 8
    battle = make_battle(state, dice=[10, 10, 10, 5, 5, 9, 3, 8])
    roll_initiative(state, battle, ["a", "b", "c"])
    assert state.order == ["c", "b", "a"]
