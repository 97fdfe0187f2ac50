"""Challenges (W4-CHAL, W4-RESOLVE-17, W4-CLASS-13, W4-AMB-33 to 35 and 96, W4-DEC-24/33)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    character,
    events,
    get,
    make_battle,
    make_state,
    unit,
)
from warhost.core.errors import IllegalOrderError
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import action_points, challenges, melee
from warhost.rulesets.dnd4e_war.state import WarState


def _units() -> list[dict[str, Any]]:
    return [unit("a"), unit("b", "B", at=(20, 10), facing=180)]


def _joined(**villain: Any) -> WarState:
    """Hero inside a (side A), villain inside b (side B), a and b fighting."""
    state = make_state(_units(), characters=[character("hero", joined="a"),
                                             character("villain", "B", joined="b", **villain)])
    state.engage("a", "b")
    return state


def _lone(**villain: Any) -> WarState:
    """Hero inside a; villain alone, fighting a."""
    state = make_state([unit("a"), unit("far", "B", at=(60, 40))],
                       characters=[character("hero", joined="a"),
                                   character("villain", "B", at=(20, 10), facing=180,
                                             **villain)])
    state.engage("a", "villain")
    return state


@pytest.mark.rule("W4-CHAL-01")
@pytest.mark.rule("W4-CHAL-02")
@pytest.mark.rule("W4-CHAL-03")
@pytest.mark.rule("W4-CHAL-04")
@pytest.mark.rule("W4-DEC-24")
def test_the_initiative_side_challenges_first_and_the_other_side_accepts() -> None:
    state = _joined()
    battle = make_battle(state, orders={"A": ["challenge hero"],
                                        "B": ["accept_challenge villain"]})
    duel = challenges.declare(state, battle, ["a", "b"])
    assert duel is not None
    assert (duel.challenger.id, duel.defender.id) == ("hero", "villain")
    kinds = [(side, kind) for side, kind, _ in battle.decided]
    assert kinds == [("A", "challenge_issue"), ("B", "challenge_answer")]  # one a fight
    assert challenges.dueling(state, "hero") and challenges.dueling(state, "villain")


@pytest.mark.rule("W4-CHAL-02")
def test_the_other_side_may_challenge_when_the_initiative_side_does_not() -> None:
    state = _joined()
    battle = make_battle(state, orders={"B": ["challenge villain"],
                                        "A": ["accept_challenge hero"]})
    duel = challenges.declare(state, battle, ["a", "b"])
    assert duel is not None and duel.challenger.id == "villain"
    assert [k for _, k, _ in battle.decided] == ["challenge_issue", "challenge_issue",
                                                 "challenge_answer"]


@pytest.mark.rule("W4-CHAL-05")
@pytest.mark.rule("W4-CHAL-06")
@pytest.mark.rule("W4-CHAL-07")
@pytest.mark.rule("W4-AMB-34")
def test_a_declined_challenge_sends_a_character_picked_by_the_challenger_to_the_rear() -> None:
    state = make_state(_units(), characters=[
        character("hero", joined="a"), character("villain", "B", joined="b"),
        character("squire", "B", joined="b")])
    state.engage("a", "b")
    battle = make_battle(state, orders={"A": ["challenge hero", "to_rear squire"],
                                        "B": ["decline_challenge", "challenge villain"]})
    assert challenges.declare(state, battle, ["a", "b"]) is None
    squire = state.characters["squire"]
    assert squire.at_rear and not state.characters["villain"].at_rear
    # no further challenge in this fight: B was never asked to issue one
    assert [k for _, k, _ in battle.decided] == ["challenge_issue", "challenge_answer",
                                                 "challenge_rear"]
    assert events(battle, "challenge_declined")[0]["sent"] == "squire"
    # he takes no action until the end of the turn, and is no longer in the fight
    assert [c.id for c in challenges.in_fight(state, ["a", "b"], "B")] == ["villain"]
    refusal = action_points.refusal_to_spend(state, squire)
    assert refusal is not None and refusal.rule == "W4-CHAL-07"
    challenges.end_of_turn(state)
    assert not squire.at_rear


@pytest.mark.rule("W4-AMB-34")
def test_no_challenge_is_offered_without_an_enemy_character_in_the_fight() -> None:
    state = make_state(_units(), characters=[character("hero", joined="a")])
    state.engage("a", "b")
    battle = make_battle(state, orders={"A": ["challenge hero"]})
    assert challenges.declare(state, battle, ["a", "b"]) is None
    assert battle.decided == []


@pytest.mark.rule("W4-CHAL-08")
def test_a_character_fighting_alone_cannot_decline() -> None:
    state = _lone()
    battle = make_battle(state, orders={"A": ["challenge hero"]})
    assert not challenges.may_decline(state.characters["hero"],
                                      [state.characters["villain"]])
    duel = challenges.declare(state, battle, ["a", "villain"])
    # his only answer is to accept, so he is not even asked
    assert duel is not None and duel.defender.id == "villain"
    assert [k for _, k, _ in battle.decided] == ["challenge_issue"]


@pytest.mark.rule("W4-CLASS-13")
def test_a_paladins_challenge_cannot_be_refused() -> None:
    state = make_state(_units(), characters=[
        character("hero", joined="a", **{"class": "paladin"}),
        character("villain", "B", joined="b")])
    state.engage("a", "b")
    battle = make_battle(state, orders={"A": ["challenge hero"],
                                        "B": ["decline_challenge"]})
    duel = challenges.declare(state, battle, ["a", "b"])
    assert duel is not None and duel.defender.id == "villain"  # the decline was not offered
    assert not challenges.may_decline(state.characters["hero"],
                                      [state.characters["villain"]])


@pytest.mark.rule("W4-CHAL-09")
@pytest.mark.rule("W4-CHAL-10")
@pytest.mark.rule("W4-CHAL-11")
@pytest.mark.rule("W4-AMB-35")
@pytest.mark.rule("W4-AMB-96")
def test_the_challenge_is_fought_apart_after_the_other_attacks_before_resolution() -> None:
    state = _lone(initiative=3)
    # hero (initiative 5) strikes first: 15 hits (needs 20 - 10 = 10), 1d8+4 = 6+4;
    # the villain answers: 4 misses; his break test: 20
    battle = make_battle(state, dice=[15, 6, 4, 20], orders={"A": ["challenge hero"]})
    melee.resolve_fight(state, battle, ["a", "villain"])
    kinds = [e["type"] for e in battle.log.events
             if e["type"] in ("strike", "challenge_strike", "combat_result")]
    # unit a has no other foe: it strikes nobody, and nobody strikes the two characters
    assert kinds == ["challenge_strike", "challenge_strike", "combat_result"]
    strikes = events(battle, "challenge_strike")
    assert [(s["character"], s["hits"]) for s in strikes] == [("hero", 1), ("villain", 0)]
    assert state.characters["villain"].hp_left == 30
    result = events(battle, "combat_result")[0]
    assert result["totals"]["A"] == 1 + result["bonuses"]["A"].get("outnumber", 0)


@pytest.mark.rule("W4-CHAL-11")
def test_equal_initiative_characters_strike_at_once() -> None:
    state = _lone(hp=5)
    # both roll first (hero 15, villain 12: both hit), then the damage: hero 1d8+4 slays the
    # 5 hit point villain, whose blow still lands (3+4)
    battle = make_battle(state, dice=[15, 12, 1, 3], orders={"A": ["challenge hero"]})
    duel = challenges.declare(state, battle, ["a", "villain"])
    challenges.resolve(state, battle, duel, [get(state, "a"), get(state, "villain")])
    assert state.characters["villain"].slain and state.characters["hero"].wounds == 7


@pytest.mark.rule("W4-CHAL-12")
@pytest.mark.rule("W4-RESOLVE-17")
@pytest.mark.rule("W4-AMB-33")
@pytest.mark.parametrize(("attacks", "overkill"), [(5, 4), (8, 5)])
def test_hits_after_the_foe_falls_are_overkill_up_to_five(attacks: int, overkill: int) -> None:
    state = make_state(_units(), options={"multiattack_vs_nonminions": True},
                       characters=[character("hero", joined="a", attacks=attacks),
                                   character("villain", "B", joined="b", hp=5,
                                             initiative=1)])
    state.engage("a", "b")
    hits = [15] * attacks
    battle = make_battle(state, dice=[*hits, 2], orders={"A": ["challenge hero"],
                                                          "B": ["accept_challenge villain"]})
    duel = challenges.declare(state, battle, ["a", "b"])
    bonus = challenges.resolve(state, battle, duel, [get(state, "a"), get(state, "b")])
    assert bonus == {"A": overkill}
    villain = state.characters["villain"]
    assert villain.slain and villain.host is None
    assert get(state, "b").companies == [8]  # his place is gone; nobody else was hit
    assert melee.points_scored(state, "a") == 1  # the one hit that slew him
    damage = events(battle, "challenge_damage")[0]
    assert (damage["hits"], damage["excess"]) == (1, attacks - 1)
    assert not events(battle, "challenge_strike")[1:]  # the slain villain never struck
    result_state = melee.resolution(state, battle, [get(state, "a"), get(state, "b")], {},
                                    bonus)
    assert result_state is not None
    assert events(battle, "combat_result")[0]["bonuses"]["A"]["overkill"] == overkill


@pytest.mark.rule("W4-CHAL-11")
def test_a_lone_character_slain_in_a_challenge_leaves_the_table() -> None:
    state = _lone(hp=5, initiative=1)
    battle = make_battle(state, dice=[15, 2], orders={"A": ["challenge hero"]})
    duel = challenges.declare(state, battle, ["a", "villain"])
    challenges.resolve(state, battle, duel, [get(state, "a"), get(state, "villain")])
    assert not get(state, "villain").alive and not state.is_engaged("a")
    assert events(battle, "challenge_slain")[0]["character"] == "villain"


@pytest.mark.rule("W4-DEC-33")
def test_an_encounter_power_is_expended_and_a_daily_used_once() -> None:
    powers = [{"name": "Longsword", "kind": "melee", "bonus": 10, "damage": "1[W]+4",
               "weapon_dice": "1d8"},
              {"name": "Steel Serpent", "kind": "melee", "bonus": 11, "damage": "2[W]+4",
               "weapon_dice": "1d8", "usage": "encounter"},
              {"name": "Brute Strike", "kind": "melee", "bonus": 12, "damage": "3[W]+4",
               "weapon_dice": "1d8", "usage": "daily"}]
    state = make_state([unit("a"), unit("far", "B", at=(60, 40))],
                       characters=[character("hero", joined="a", powers=powers),
                                   character("villain", "B", at=(20, 10), facing=180,
                                             initiative=1)])
    state.engage("a", "villain")
    hero = state.characters["hero"]
    # challenge power 1 (Steel Serpent): 2 misses (needs 9); the villain: 3 misses
    battle = make_battle(state, dice=[2, 3], orders={"A": ["challenge hero",
                                                           "challenge_power hero 1"]})
    duel = challenges.declare(state, battle, ["a", "villain"])
    challenges.resolve(state, battle, duel, [get(state, "a"), get(state, "villain")])
    assert hero.expended == {"Steel Serpent"}
    assert events(battle, "power_used")[0]["power"] == "Steel Serpent"
    hero.dailies.add("Brute Strike")
    names = [p.name for p in challenges.available_powers(state, hero, "melee")]
    assert names == ["Longsword"]


def test_a_challenge_answer_outside_the_offer_is_refused() -> None:
    state = _joined()
    battle = make_battle(state, orders={"A": ["challenge hero"],
                                        "B": ["accept_challenge nobody"]})
    with pytest.raises(IllegalOrderError):
        challenges.declare(state, battle, ["a", "b"])


def test_the_ai_challenges_when_favoured_and_declines_when_outmatched() -> None:
    from warhost.core.decisions import Decision
    from warhost.rulesets.dnd4e_war import ai_command

    state = make_state(_units(), characters=[
        character("hero", joined="a", hp=80), character("villain", "B", joined="b", hp=20)])
    state.engage("a", "b")
    issue = Decision("A", "challenge_issue",
                     (challenges.NO_CHALLENGE, Order.of("challenge", "hero")), "")
    assert ai_command.issue(issue, state) == Order.of("challenge", "hero")
    answer = Decision("B", "challenge_answer", (Order.of("accept_challenge", "villain"),
                                                challenges.DECLINE), "", "hero")
    assert ai_command.answer(answer, state) == challenges.DECLINE
    reverse = Decision("B", "challenge_issue",
                       (challenges.NO_CHALLENGE, Order.of("challenge", "villain")), "")
    assert ai_command.issue(reverse, state) == challenges.NO_CHALLENGE


@pytest.mark.rule("W4-AP-05")
@pytest.mark.rule("W4-AMB-38")
def test_a_challenger_may_spend_a_point_to_attack_again() -> None:
    state = _lone(initiative=3)
    # hero: 15 hits, 6+4 damage; extra attack: 15 hits, 6+4; the villain: 4 misses
    battle = make_battle(state, dice=[15, 6, 15, 6, 4],
                         orders={"A": ["challenge hero", "ap_extra hero attack"]})
    duel = challenges.declare(state, battle, ["a", "villain"])
    challenges.resolve(state, battle, duel, [get(state, "a"), get(state, "villain")])
    assert state.characters["villain"].hp_left == 20
    assert state.characters["hero"].action_points == 1
    assert events(battle, "action_point_spent")[0]["purpose"] == "extra attack"
    assert melee.points_scored(state, "a") == 2


@pytest.mark.rule("W4-AMB-38")
@pytest.mark.rule("W4-AP-07")
def test_a_lone_character_attacks_twice_in_a_fight_but_his_foes_unit_not() -> None:
    state = _lone()
    get(state, "a").standard_used = True  # unit a cannot strike this phase
    # the villain multiattacks the minions (A 3): 3 hits, then 3 more with his point; unit
    # a passes its break test with a 20
    battle = make_battle(state, dice=[10, 10, 10, 10, 10, 10, 20],
                         orders={"B": ["ap_extra villain attack"]})
    melee.resolve_fight(state, battle, ["a", "villain"])
    strikes = events(battle, "strike")
    assert [(s["unit"], s["hits"]) for s in strikes] == [("villain", 3), ("villain", 3)]
    assert [c["slain"] for c in events(battle, "casualties")][:2] == [3, 3]
