"""The general (W4-GEN section, W4-DEC-02) and recharging encounter powers (W4-RECH
section, W4-AMB-87, W4-DEC-31)."""

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
from warhost.rulesets.dnd4e_war import game, general, psychology, recharge
from warhost.rulesets.dnd4e_war.state import WarState


def _two(**fields: Any) -> WarState:
    return make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                      characters=[character("human", at=(40, 10)),
                                  character("elf", at=(50, 10), race="elf", **fields)])


@pytest.mark.rule("W4-GEN-01")
@pytest.mark.rule("W4-DEC-02")
def test_a_side_without_a_general_nominates_one_best_courage_by_default() -> None:
    state = _two()
    battle = make_battle(state)
    general.nominate(state, battle)
    assert state.general("A") is state.characters["elf"]  # elf +6 beats human +3
    assert state.general("B") is None  # no characters, no general


@pytest.mark.rule("W4-GEN-01")
@pytest.mark.rule("W4-GEN-02")
def test_any_character_may_be_nominated_and_gains_an_action_point() -> None:
    state = _two()
    battle = make_battle(state, orders={"A": ["general human"]})
    general.nominate(state, battle)
    human = state.characters["human"]
    assert state.general("A") is human and human.action_points == 3
    assert state.characters["elf"].action_points == 2
    assert events(battle, "general_nominated")[0]["character"] == "human"


@pytest.mark.rule("W4-GEN-01")
def test_a_general_named_in_the_scenario_is_not_asked_again() -> None:
    state = _two(general=True)
    battle = make_battle(state)
    general.nominate(state, battle)
    assert battle.decided == [] and state.characters["elf"].action_points == 3


@pytest.mark.rule("W4-GEN-03")
@pytest.mark.rule("W4-GEN-04")
@pytest.mark.parametrize(("x", "bonus"), [(31.0, 8 + 1), (35.0, 3 + 1)])
def test_units_within_twelve_inches_use_the_generals_courage(x: float, bonus: int) -> None:
    # the general: an elf (+6) of level 15 (paragon tier +2) = +8, standing alone;
    # unit a: humans (+3) with a musician (+1, always added). Unit a's tray spans x 18-22.
    state = make_state([unit("a", command={"musician": True}),
                        unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("g", at=(x, 10), race="elf", level=15,
                                             general=True)])
    gap = state.gap(get(state, "a"), get(state, "g"))
    assert (gap <= 12.0) == (bonus == 9)
    assert psychology.courage_bonus(state, get(state, "a")) == bonus


@pytest.mark.rule("W4-GEN-03")
def test_the_general_lends_his_bonus_from_inside_another_unit() -> None:
    state = make_state([unit("a"), unit("c", at=(30, 10)),
                        unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("g", joined="c", race="elf", general=True)])
    assert psychology.courage_bonus(state, get(state, "a")) == 6 + 1  # elf + heroic tier
    state.characters["g"].at_rear = True  # W4-CHAL-07: sent to the rear, he lends nothing
    assert psychology.courage_bonus(state, get(state, "a")) == 3


@pytest.mark.rule("W4-GEN-03")
def test_a_courage_test_passes_on_the_generals_bonus() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("g", at=(30, 10), race="dwarf", general=True)])
    battle = make_battle(state, dice=[8])
    # 8 + 6 (dwarf +5, heroic +1) = 14 passes DC 14; the humans' own +3 would not
    assert psychology.courage_test(state, battle, get(state, "a"), 14, "panic", "W4-PANIC-03",
                                   kind="panic")


@pytest.mark.rule("W4-GEN-05")
@pytest.mark.rule("W4-INIT-02")
def test_the_generals_initiative_power_bonus_adds_to_the_armys_roll() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("g", at=(40, 10), general=True,
                                             initiative_roll_bonus=3)])
    battle = make_battle(state, dice=[10, 12])
    game.initiative_phase(state, battle)
    assert events(battle, "roll_off")[0]["totals"] == {"A": 13, "B": 12}
    assert state.initiative == "A"


@pytest.mark.rule("W4-GEN-05")
def test_a_bonus_on_a_character_who_is_not_general_does_not_count() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("g", at=(40, 10), general=True),
                                   character("h", at=(50, 10), initiative_roll_bonus=3)])
    assert general.initiative_modifiers(state) == {}


# --------------------------------------------------------------------------- recharge

POWERS = [{"name": "Longsword", "kind": "melee", "bonus": 10, "damage": "1[W]+4",
           "weapon_dice": "1d8"},
          {"name": "Steel Serpent", "kind": "melee", "bonus": 11, "damage": "2[W]+4",
           "weapon_dice": "1d8", "usage": "encounter"},
          {"name": "Rain of Blows", "kind": "melee", "bonus": 11, "damage": "2[W]",
           "weapon_dice": "1d8", "usage": "encounter"}]


def _spent(*names: str) -> WarState:
    state = make_state([unit("a"), unit("b", "B", at=(20, 40), facing=180)],
                       characters=[character("hero", joined="a", powers=POWERS)])
    state.characters["hero"].expended.update(names)
    return state


@pytest.mark.rule("W4-RECH-01")
@pytest.mark.rule("W4-RECH-03")
@pytest.mark.rule("W4-DEC-31")
@pytest.mark.parametrize(("roll", "regained"), [(5, True), (6, True), (4, False)])
def test_a_recharge_regains_a_power_on_five_or_six(roll: int, regained: bool) -> None:
    state = _spent("Steel Serpent")
    battle = make_battle(state, dice=[roll])
    recharge.end_of_turn(state, battle)
    assert (state.characters["hero"].expended == set()) == regained
    assert events(battle, "recharge")[0]["roll"] == roll


@pytest.mark.rule("W4-RECH-03")
@pytest.mark.rule("W4-DEC-31")
def test_he_picks_which_expended_power_comes_back() -> None:
    state = _spent("Steel Serpent", "Rain of Blows")
    battle = make_battle(state, dice=[6], orders={"A": ["recharge_power hero 1"]})
    recharge.end_of_turn(state, battle)
    assert state.characters["hero"].expended == {"Rain of Blows"}  # sorted: 1 = Steel


@pytest.mark.rule("W4-RECH-01")
def test_nothing_to_recharge_no_attempt() -> None:
    state = _spent()
    battle = make_battle(state)
    recharge.end_of_turn(state, battle)
    assert battle.decided == [] and not events(battle, "recharge")


@pytest.mark.rule("W4-RECH-02")
@pytest.mark.rule("W4-AMB-87")
def test_a_recharge_needs_the_standard_action_still_unused() -> None:
    state = _spent("Steel Serpent")
    get(state, "a").standard_used = True  # the unit he is in fought this turn
    battle = make_battle(state)
    recharge.end_of_turn(state, battle)
    assert not events(battle, "recharge")
    state = _spent("Steel Serpent")
    battle = make_battle(state, dice=[2])
    recharge.end_of_turn(state, battle)
    assert get(state, "a").standard_used  # the attempt is his standard action


@pytest.mark.rule("W4-DEC-31")
def test_he_may_choose_not_to_try() -> None:
    state = _spent("Steel Serpent")
    battle = make_battle(state, orders={"A": ["no_recharge hero"]})
    recharge.end_of_turn(state, battle)
    assert not events(battle, "recharge") and not get(state, "a").standard_used
