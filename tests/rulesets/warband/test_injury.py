"""Injury rolls and the states they lead to (WB-INJURY, WB-AMB-39/40), with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.core.orders import Order
from warhost.rulesets.warband import combat, game
from warhost.rulesets.warband.injury import apply_batch, injury_result
from warhost.rulesets.warband.state import (
    INCAPACITATED,
    KNOCKED_DOWN,
    STANDING,
    STUNNED,
    WarbandState,
)


def pair(**b: Any) -> WarbandState:
    """a (3 Attacks) and b facing it; ``wounds`` sets b's current Wounds (its score is 2, or
    the value given when above 0)."""
    current = b.pop("wounds", 2)
    assert isinstance(current, int)
    state = make_state([char("a", (5, 5), "A", attacks=3),
                        char("b", (5, 6), "B", facing="S", wounds=max(current, 2), **b)])
    state.chars["b"].wounds = current
    return state


@pytest.mark.rule("WB-INJURY-02")
def test_the_injury_table() -> None:
    assert [injury_result(r) for r in range(1, 11)] == (
        [KNOCKED_DOWN] * 4 + [STUNNED] * 3 + [INCAPACITATED] * 3)


@pytest.mark.rule("WB-INJURY-02", "WB-AMB-40")
def test_injury_rolls_of_11_and_12_incapacitate() -> None:
    assert injury_result(11) == INCAPACITATED and injury_result(12) == INCAPACITATED
    state = pair(wounds=1)
    b = state.chars["b"]
    battle = make_battle(state, [9])
    apply_batch(state, battle, b, 1, critical=True)
    assert events(battle, "injury_roll")[0]["roll"] == 11
    assert b.condition == INCAPACITATED


@pytest.mark.rule("WB-INJURY-01")
@pytest.mark.parametrize(("face", "result"), [(4, KNOCKED_DOWN), (5, STUNNED),
                                               (7, STUNNED), (8, INCAPACITATED)])
def test_a_character_brought_to_zero_rolls_at_once(face: int, result: str) -> None:
    state = pair(wounds=2)
    b = state.chars["b"]
    battle = make_battle(state, [face])
    apply_batch(state, battle, b, 1)
    assert b.wounds == 1 and events(battle, "injury_roll") == []
    apply_batch(state, battle, b, 1)
    assert b.wounds == 0 and b.condition == result


@pytest.mark.rule("WB-INJURY-01", "WB-AMB-39")
def test_one_batch_rolls_once_whatever_the_wounds() -> None:
    state = pair(wounds=1)
    battle = make_battle(state, [2])
    apply_batch(state, battle, state.chars["b"], 3)
    assert len(events(battle, "injury_roll")) == 1
    assert state.chars["b"].condition == KNOCKED_DOWN


@pytest.mark.rule("WB-AMB-39")
def test_excess_wounds_escalate_under_the_option() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 6), "B", wounds=1)],
                       options={"excess_wounds_escalate": True})
    b = state.chars["b"]
    battle = make_battle(state, [2])
    apply_batch(state, battle, b, 3)  # knocked down, then stunned, then incapacitated
    assert b.condition == INCAPACITATED


@pytest.mark.rule("WB-INJURY-06")
def test_melee_attacks_on_a_knocked_down_character_hit_without_a_die() -> None:
    state = pair(wounds=0, melee=9, talents=["parry"])
    a, b = state.chars["a"], state.chars["b"]
    b.condition = KNOCKED_DOWN
    battle = make_battle(state, [9])  # damage 9 fails: no to-hit die at all
    combat.take_melee(state, battle, a, Order.of("attack", "b", "sword", 1))
    attack = events(battle, "attack")[0]
    assert (attack["hit"], attack["critical"], attack["wounds"]) == (True, False, 0)
    assert [e["why"].split(" (")[0] for e in events(battle, "roll")] == ["damage"]


@pytest.mark.rule("WB-INJURY-06")
def test_ranged_attacks_on_a_knocked_down_character_still_roll_to_hit() -> None:
    bow = {"name": "bow", "kind": "ranged", "strength": 4, "range": 12, "attack_limit": 1}
    state = make_state([char("a", (5, 1), "A", weapons=[bow]), char("b", (5, 8), "B")])
    state.chars["b"].condition = KNOCKED_DOWN
    state.chars["b"].wounds = 0
    battle = make_battle(state, [10])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert events(battle, "attack")[0]["hit"] is False


@pytest.mark.rule("WB-INJURY-07")
def test_a_knocked_down_character_wounded_becomes_stunned() -> None:
    state = pair(wounds=0, toughness=2)
    b = state.chars["b"]
    b.condition = KNOCKED_DOWN
    battle = make_battle(state, [2, 9])  # auto hit; damage 2; Defense 9 fails
    combat.take_melee(state, battle, state.chars["a"], Order.of("attack", "b", "sword", 1))
    assert b.condition == STUNNED and b.stunned_in_turn == state.turn
    assert events(battle, "injury_roll") == []


@pytest.mark.rule("WB-INJURY-09", "WB-INJURY-10")
def test_melee_on_a_stunned_character_hits_and_wounds_but_saves_are_made() -> None:
    state = pair(wounds=0, toughness=3, armour=2, ward=3, melee=9, talents=["parry"])
    b = state.chars["b"]
    b.condition = STUNNED
    # three attacks: Defense 4 passes; Defense 9 fails, Ward 2 passes; Defense 9, Ward 9
    battle = make_battle(state, [4, 9, 2, 9, 9])
    combat.take_melee(state, battle, state.chars["a"], Order.of("attack", "b", "sword", 3))
    attacks = events(battle, "attack")
    assert [(e["hit"], e["wounds"], e["saved"], e["warded"], e["confirmed"])
            for e in attacks] == [(True, 1, 1, 0, 0), (True, 1, 0, 1, 0), (True, 1, 0, 0, 1)]
    assert not any(e["critical"] for e in attacks)


@pytest.mark.rule("WB-INJURY-11", "WB-INJURY-13")
def test_a_stunned_character_wounded_is_incapacitated_and_leaves_the_map() -> None:
    state = pair(wounds=0, toughness=2)
    b = state.chars["b"]
    b.condition = STUNNED
    battle = make_battle(state, [9])
    combat.take_melee(state, battle, state.chars["a"], Order.of("attack", "b", "sword", 1))
    assert b.condition == INCAPACITATED
    assert (5, 6) not in state.at and not b.on_map
    assert events(battle, "incapacitated")[0]["why"] == "wounded while stunned"
    assert combat.melee_options(state, state.chars["a"]) == []


@pytest.mark.rule("WB-INJURY-12")
def test_a_stunned_character_becomes_knocked_down_in_the_next_turns_aftermath() -> None:
    state = pair(wounds=0)
    b = state.chars["b"]
    b.condition = STUNNED
    b.stunned_in_turn = 1
    state.turn = 1
    battle = make_battle(state, [1] * 4)  # Morale tests of Minions with no Hero: passed
    game.aftermath(state, battle)
    assert b.condition == STUNNED
    state.turn = 2
    game.aftermath(state, battle)
    assert b.condition == KNOCKED_DOWN


@pytest.mark.rule("WB-INJURY-13", "WB-AMB-43")
def test_incapacitated_characters_stop_counting_for_outnumbered() -> None:
    state = make_state([char("a", (5, 5), "A"), char("c", (4, 6), "A", wounds=1),
                        char("b", (5, 6), "B", facing="S")])
    assert combat.outnumbered(state, state.chars["b"])
    battle = make_battle(state, [9])
    apply_batch(state, battle, state.chars["c"], 1)
    assert state.chars["c"].condition == INCAPACITATED
    assert not combat.outnumbered(state, state.chars["b"])


@pytest.mark.rule("WB-INJURY-14")
def test_incapacitated_characters_are_kept_for_the_incidents() -> None:
    state = pair(wounds=1)
    b = state.chars["b"]
    battle = make_battle(state, [10])
    apply_batch(state, battle, b, 1)
    assert b.condition == INCAPACITATED and "b" in state.chars
    assert events(battle, "incapacitated")[0]["side"] == "B"


@pytest.mark.rule("WB-AMB-39")
def test_a_character_up_again_at_zero_rolls_again() -> None:
    state = pair(wounds=0)
    b = state.chars["b"]
    assert b.condition == STANDING
    battle = make_battle(state, [6])
    apply_batch(state, battle, b, 1)
    assert b.condition == STUNNED
