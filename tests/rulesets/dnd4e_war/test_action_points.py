"""Action points (W4-AP section, W4-AMB-36 to 39, W4-DEC-05/29/30)."""

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
from warhost.rulesets.dnd4e_war import action_points, game, psychology
from warhost.rulesets.dnd4e_war.attacks import roll_attacks
from warhost.rulesets.dnd4e_war.state import WarState


def _with_hero(**hero: Any) -> WarState:
    return make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                      characters=[character("hero", joined="a", **hero)])


@pytest.mark.rule("W4-AP-01")
@pytest.mark.rule("W4-DEC-29")
@pytest.mark.rule("W4-AMB-37")
def test_a_character_raises_a_missing_die_of_his_units_attack_into_a_hit() -> None:
    state = _with_hero()  # two action points
    battle = make_battle(state, dice=[9, 3, 15], orders={"A": ["ap_dice hero 0 1"]})
    roll = roll_attacks(battle, 3, 18, 8, "close combat a", state=state, unit=get(state, "a"))
    assert roll.faces == (10, 3, 15) and roll.hits == 2
    assert state.characters["hero"].action_points == 1
    spent = events(battle, "action_point_dice")[0]
    assert (spent["before"], spent["after"], spent["spent"]) == (9, 10, 1)


@pytest.mark.rule("W4-AP-01")
@pytest.mark.rule("W4-AMB-37")
def test_only_spends_that_can_turn_a_die_are_offered() -> None:
    state = _with_hero()
    seen: list[tuple[str, ...]] = []
    battle = make_battle(state, dice=[9, 3, 9, 15])
    real = battle.decide

    def spy(decision: Any) -> Any:
        seen.append(tuple(str(o) for o in decision.options))
        return real(decision)

    battle.decide = spy  # type: ignore[method-assign]
    roll_attacks(battle, 4, 18, 8, "close combat a", state=state, unit=get(state, "a"))
    # the 3 needs 7 points; the two 9s are one choice; the 15 already hits
    assert seen == [("ap_keep", "ap_dice hero 0 1")]
    assert state.characters["hero"].action_points == 2  # kept by default


@pytest.mark.rule("W4-AP-01")
def test_no_question_when_no_spend_can_change_the_roll() -> None:
    state = _with_hero()
    battle = make_battle(state, dice=[2, 15])
    roll_attacks(battle, 2, 18, 8, "close combat a", state=state, unit=get(state, "a"))
    assert battle.decided == []


@pytest.mark.rule("W4-AP-01")
def test_a_unit_without_a_character_is_never_asked() -> None:
    state = _with_hero()
    battle = make_battle(state, dice=[9, 9])
    roll = roll_attacks(battle, 2, 18, 8, "close combat b", state=state, unit=get(state, "b"))
    assert roll.hits == 0 and battle.decided == []


@pytest.mark.rule("W4-AP-03")
def test_a_die_stays_on_its_faces_and_may_be_lowered() -> None:
    state = _with_hero(action_points=6)
    battle = make_battle(state, dice=[9, 17], orders={"A": ["ap_dice hero 1 4"]})
    with pytest.raises(IllegalOrderError, match="W4-AP-03"):
        roll_attacks(battle, 2, 18, 8, "close combat a", state=state, unit=get(state, "a"))
    battle = make_battle(state, dice=[9, 17], orders={"A": ["ap_dice hero 1 -3"]})
    roll = roll_attacks(battle, 2, 18, 8, "close combat a", state=state, unit=get(state, "a"))
    assert roll.faces == (9, 14)  # legal, if unwise: W4-AMB-37 allows either direction
    assert state.characters["hero"].action_points == 3


@pytest.mark.rule("W4-AP-03")
@pytest.mark.rule("W4-AP-01")
def test_a_die_raised_to_20_is_a_natural_20() -> None:
    state = _with_hero()
    unit_a = get(state, "a")
    battle = make_battle(state, dice=[19], orders={"A": ["ap_dice hero 0 1"]})
    # a break test that only a natural 20 passes (W4-FEAR-09)
    assert psychology.courage_test(state, battle, unit_a, 30, "break test", "W4-FEAR-09",
                                   kind="break", natural_20_only=True)
    assert events(battle, "courage_test")[0]["die"] == 20


@pytest.mark.rule("W4-AP-12")
def test_points_cannot_pay_for_more_than_are_left() -> None:
    state = _with_hero()  # 2 points
    battle = make_battle(state, dice=[8], orders={"A": ["ap_dice hero 0 3"]})
    with pytest.raises(IllegalOrderError, match="W4-AP-12"):
        roll_attacks(battle, 1, 18, 8, "close combat a", state=state, unit=get(state, "a"),
                     character=True)


@pytest.mark.rule("W4-AP-02")
@pytest.mark.rule("W4-INIT-05")
def test_action_points_never_touch_the_initiative_roll() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("g", joined="a", general=True)])
    battle = make_battle(state, dice=[11, 12])
    game.initiative_phase(state, battle)
    assert [k for _, k, _ in battle.decided] == ["initiative"]  # B won; no spending asked
    assert state.characters["g"].action_points == 3


@pytest.mark.rule("W4-AP-04")
@pytest.mark.rule("W4-AP-10")
def test_dice_spending_is_outside_the_one_point_a_round() -> None:
    state = _with_hero(action_points=3)
    hero = state.characters["hero"]
    battle = make_battle(state, dice=[9], orders={"A": ["ap_dice hero 0 1"]})
    roll_attacks(battle, 1, 18, 8, "close combat a", state=state, unit=get(state, "a"))
    assert action_points.refusal_to_spend(state, hero) is None
    action_points.spend(state, battle, hero, "act first (charge)")
    refusal = action_points.refusal_to_spend(state, hero)
    assert refusal is not None and refusal.rule == "W4-AP-10"
    state.turn += 1
    assert action_points.refusal_to_spend(state, hero) is None  # a new round
    action_points.spend(state, battle, hero, "extra move")
    state.turn += 1
    refusal = action_points.refusal_to_spend(state, hero)
    assert refusal is not None and refusal.rule == "W4-AP-12"  # the pool is spent


@pytest.mark.rule("W4-AP-11")
@pytest.mark.rule("W4-AMB-36")
def test_a_unit_benefits_from_three_uses_a_round_and_a_fourth_is_refused() -> None:
    people = [character(c, joined="a") for c in ("c1", "c2", "c3", "c4")]
    people.append(character("c5", at=(50, 10)))
    state = make_state([unit("a", companies=2, files=2), unit("b", "B", at=(20, 40),
                                                               facing=180)],
                       characters=people)
    state.initiative = "B"
    battle = make_battle(state)
    for cid in ("c1", "c2", "c3"):
        action_points.spend(state, battle, state.characters[cid], "extra move")
    assert action_points.unit_uses(state, "a") == 3
    refusal = action_points.refusal_to_spend(state, state.characters["c4"])
    assert refusal is not None and refusal.rule == "W4-AP-11"
    battle = make_battle(state, orders={"A": ["ap_act_first c4"]})
    with pytest.raises(IllegalOrderError, match="W4-AP-11"):
        action_points.act_first(state, battle, "movement", lambda s, u: True)


@pytest.mark.rule("W4-AP-08")
@pytest.mark.rule("W4-DEC-05")
def test_the_side_without_initiative_may_pay_to_act_first() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("villain", "B", joined="b")])
    battle = make_battle(state, orders={"B": ["ap_act_first villain"]})
    game.act_first(state, battle, "movement")
    first = events(battle, "act_first")[0]
    assert (first["unit"], first["phase"]) == ("b", "movement")
    assert [(s, k) for s, k, _ in battle.decided] == [("B", "ap_act_first"),
                                                      ("B", "unit_move")]
    assert state.characters["villain"].action_points == 1


@pytest.mark.rule("W4-AP-09")
@pytest.mark.rule("W4-AMB-39")
def test_both_spending_roll_off_with_initiative_and_both_points_are_lost() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("hero", joined="a", initiative=5),
                                   character("villain", "B", joined="b", initiative=8)])
    # A rolls 12 + 5 = 17; B rolls 10 + 8 = 18: B's lower die wins on initiative
    battle = make_battle(state, dice=[12, 10], orders={"B": ["ap_act_first villain"],
                                                       "A": ["ap_act_first hero"]})
    unit_first = action_points.act_first(state, battle, "charge", lambda s, u: True)
    assert unit_first is get(state, "b")
    assert events(battle, "roll_off")[0]["totals"] == {"A": 17, "B": 18}
    assert state.characters["hero"].action_points == 1
    assert state.characters["villain"].action_points == 1


@pytest.mark.rule("W4-AP-05")
@pytest.mark.rule("W4-AP-06")
@pytest.mark.rule("W4-DEC-30")
def test_an_extra_move_takes_the_unit_with_the_character() -> None:
    state = _with_hero()
    a = get(state, "a")
    a.move_used = True
    battle = make_battle(state, orders={"A": ["ap_extra hero move", "walk a 20,14"]})
    action_points.extra_actions(state, battle, "movement")
    assert a.front == pytest.approx((20.0, 14.0))
    assert state.characters["hero"].action_points == 1
    assert state.characters["hero"].ap_round == state.turn


@pytest.mark.rule("W4-AP-07")
@pytest.mark.rule("W4-AMB-38")
def test_a_unit_never_shoots_twice_but_a_lone_character_may() -> None:
    bow = [{"name": "Bow", "kind": "ranged", "bonus": 8, "range": 40, "damage": "1[W]",
            "weapon_dice": "1d8"}]
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)],
                       characters=[character("hero", joined="a"),
                                   character("ranger", at=(40, 10), powers=bow)])
    get(state, "a").shot = True
    get(state, "ranger").shot = True
    assert action_points.extra_kinds(state, state.characters["hero"], "shooting") == []
    assert action_points.extra_kinds(state, state.characters["ranger"],
                                     "shooting") == ["shoot"]


@pytest.mark.rule("W4-AP-01")
def test_a_charge_roll_that_falls_short_may_be_raised() -> None:
    from warhost.rulesets.dnd4e_war import charge

    state = make_state([unit("a"), unit("b", "B", at=(20, 16), facing=180)],
                       characters=[character("hero", joined="a")])
    a, b = get(state, "a"), get(state, "b")
    assert state.gap(a, b) == pytest.approx(6.0)
    # a 2 reaches 2 + (6 - 3) = 5 inches: one point makes it a 3, reaching 6
    battle = make_battle(state, dice=[2], orders={"A": ["ap_dice hero 0 1"]})
    declared = charge.Charge(a, b)
    charge.roll(state, battle, declared)
    assert declared.roll == 3 and declared.reach == pytest.approx(6.0)


def test_the_ai_spends_on_a_courage_test_but_not_on_a_shot() -> None:
    from warhost.core.decisions import Decision
    from warhost.core.orders import Order
    from warhost.rulesets.dnd4e_war import ai_command

    state = _with_hero()
    spend = Order.of("ap_dice", "hero", 0, 2)
    test = Decision("A", "ap_dice", (action_points.KEEP, spend), "", "a",
                    info={"why": "panic", "roll": "courage"})
    shot = Decision("A", "ap_dice", (action_points.KEEP, spend), "", "a",
                    info={"why": "a shoots", "roll": "attack"})
    assert ai_command.dice(test, state) == spend
    assert ai_command.dice(shot, state) is None


def test_the_ai_buys_the_first_charge_but_never_contests() -> None:
    from warhost.core.decisions import Decision
    from warhost.core.orders import Order
    from warhost.rulesets.dnd4e_war import ai_command

    state = _with_hero()
    buy = Order.of("ap_act_first", "hero")
    options = (action_points.PASS_FIRST, buy)
    assert ai_command.act_first(Decision("A", "ap_act_first", options, "",
                                         info={"phase": "charge", "contest": False}),
                                state) == buy
    for info in ({"phase": "charge", "contest": True}, {"phase": "movement",
                                                        "contest": False}):
        assert ai_command.act_first(Decision("A", "ap_act_first", options, "", info=info),
                                    state) is None
