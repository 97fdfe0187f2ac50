"""Charges in dnd35-wars: the straight-line geometry, the ground it may cross, the +2 attack
and -2 AC, hills, routed targets and a mob's first melee attack."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    single,
    unit,
)
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import combat
from warhost.rulesets.dnd35_wars.actions import unit_action
from warhost.rulesets.dnd35_wars.game import unit_turn
from warhost.rulesets.dnd35_wars.state import WarState


def _state(*others: dict[str, Any], terrain: Any = (), **fields: Any) -> WarState:
    # a: two counters at y=0 (rate 4: speed 30 ft at 15 ft); b: two counters at y=4.
    return make_state([unit("a", squares=block(0, 0, 2, 1), **fields),
                       unit("b", "B", squares=block(0, 4, 2, 1)), *others],
                      terrain=list(terrain))


def _refused(state: WarState, text: str) -> str | None:
    verdict = combat.judge_attack(state, get(state, "a"), Order.parse(text))
    return verdict.rule if isinstance(verdict, Refusal) else None


def _charges(state: WarState) -> list[str]:
    return [str(o) for o in combat.attack_options(state, get(state, "a"))
            if o.kind == "charge"]


@pytest.mark.rule("W35-UATK-01", "W35-UATK-03", "W35-UATK-04", "W35-AMB-40", "W35-AMB-37")
def test_a_charge_moves_in_a_straight_line_and_attacks_at_plus_2_taking_minus_2_ac() -> None:
    state = _state()
    assert _charges(state) == ["charge a b 0,3"]
    battle = make_battle(state, dice=[11, 4], orders={"A": ["charge a b 0,3"]})
    unit_action(state, battle, get(state, "a"))
    a = get(state, "a")
    assert a.squares == {(0, 3), (1, 3)} and a.heading == (0, 1)
    [attack] = events(battle, "attack")
    assert (attack["kind"], attack["total"], attack["multiplier"]) == ("charge", 11 + 4 + 2, 2)
    assert get(state, "b").hp == 20 - 6 * 2
    assert a.charge_ac_penalty and combat.ac_against(state, a, get(state, "b"), "melee") == 13
    assert "b" in state.foes_engaged("a")


@pytest.mark.rule("W35-UATK-04")
def test_the_charge_ac_penalty_lasts_until_the_chargers_next_turn() -> None:
    state = _state()
    battle = make_battle(state, dice=[11, 4], orders={"A": ["charge a b 0,3"]})
    unit_action(state, battle, get(state, "a"))
    assert get(state, "a").charge_ac_penalty
    state.round += 1
    unit_turn(state, make_battle(state, dice=[1], orders={"A": ["melee a b"]}), get(state, "a"))
    assert combat.ac_against(state, get(state, "a"), get(state, "b"), "melee") == 15


@pytest.mark.rule("W35-UATK-02", "W35-AMB-40", "W35-AMB-36")
def test_a_charge_starts_at_least_2_squares_from_its_target() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(1, 1)])])
    verdict = combat.judge_attack(state, get(state, "a"), Order.parse("charge a b 1,0"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-UATK-02"


@pytest.mark.rule("W35-UATK-03", "W35-AMB-40")
def test_a_charge_goes_at_most_the_move_rate_and_must_end_in_side_contact() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 6)])])
    assert _charges(state) == []  # 5 squares needed, rate 4
    assert _refused(state, "charge a b 0,5") == "W35-UATK-03"
    assert _refused(state, "charge a b 1,4") == "W35-UATK-03"  # ends on a corner only


@pytest.mark.rule("W35-AMB-40")
def test_every_square_a_charge_enters_must_be_free() -> None:
    state = _state(unit("c", squares=[(1, 2)]))
    assert _refused(state, "charge a b 0,3") == "W35-AMB-40"


@pytest.mark.rule("W35-TERR-13", "W35-AMB-44")
@pytest.mark.parametrize("rect", [[[0, 2], [0, 2]], [[1, 0], [1, 0]], [[0, 3], [0, 3]]])
def test_no_charge_from_through_or_into_water(rect: list[list[int]]) -> None:
    state = _state(terrain=[{"rect": rect, "water": True}])
    assert _refused(state, "charge a b 0,3") == "W35-TERR-13"


@pytest.mark.rule("W35-TERR-05", "W35-AMB-40", "W35-TERR-07")
def test_a_charge_may_not_cross_difficult_terrain() -> None:
    state = _state(terrain=[{"rect": [[1, 2], [1, 2]], "kind": "light_forest"}])
    assert _refused(state, "charge a b 0,3") == "W35-TERR-05"
    assert _charges(state) == []


@pytest.mark.rule("W35-TERR-10", "W35-AMB-41", "W35-TERR-05")
def test_charging_up_a_slope_is_allowed_but_loses_the_plus_2_and_keeps_the_minus_2() -> None:
    slope = {"rect": [[0, 2], [1, 4]], "elevation": 1, "slope_cost": 2}  # b on the hill too
    state = _state(terrain=[slope])
    battle = make_battle(state, dice=[11, 4], orders={"A": ["charge a b 0,3"]})
    unit_action(state, battle, get(state, "a"))
    assert events(battle, "charge")[0]["uphill"] is True
    assert events(battle, "attack")[0]["total"] == 11 + 4
    assert get(state, "a").charge_ac_penalty


@pytest.mark.rule("W35-MORALE-10", "W35-AMB-66", "W35-GEN-05")
def test_a_charge_on_a_routed_unit_gets_plus_2_more() -> None:
    state = _state()
    get(state, "b").status = "routed"
    battle = make_battle(state, dice=[9, 4], orders={"A": ["charge a b 0,3"]})
    unit_action(state, battle, get(state, "a"))
    assert events(battle, "attack")[0]["total"] == 9 + 4 + 2 + 2


@pytest.mark.rule("W35-AMB-40")
def test_a_unit_with_a_move_rate_below_1_cannot_charge() -> None:
    state = _state(creature=creature(speed=5))
    assert get(state, "a").rate < 1
    assert _charges(state) == []
    assert _refused(state, "charge a b 0,1") == "W35-AMB-40"


@pytest.mark.rule("W35-MOB-03", "W35-AMB-84")
def test_a_mobs_first_melee_attack_counts_as_a_charge_even_without_moving() -> None:
    # Int 2: the mob never rolls the pre-charge check (W35-AMB-23), so the dice are the attack's
    state = make_state([unit("a", squares=[(0, 0)], mob=True,
                             creature=creature(speed=5, int=2)),
                        unit("b", "B", squares=[(0, 1)], creature=creature(hp=100)),
                        unit("c", "B", squares=[(1, 0)], creature=creature(hp=100))])
    battle = make_battle(state, dice=[9, 4, 9, 4], orders={"A": ["melee a b"]})
    unit_action(state, battle, get(state, "a"))
    assert events(battle, "attack")[0]["kind"] == "charge"
    assert events(battle, "attack")[0]["total"] == 9 + 4 + 2
    assert get(state, "a").charge_ac_penalty and get(state, "a").mob_charged
    get(state, "a").charge_ac_penalty = False
    combat.take_attack(state, battle, get(state, "a"), Order.parse("melee a b"))
    assert events(battle, "attack")[1]["kind"] == "melee"
    assert not get(state, "a").charge_ac_penalty


@pytest.mark.rule("W35-MOB-03", "W35-AMB-84")
def test_with_per_engagement_scope_a_mob_charges_each_new_foe() -> None:
    state = make_state([unit("a", squares=[(0, 0)], mob=True, creature=creature(int=2)),
                        unit("b", "B", squares=[(0, 1)], creature=creature(hp=100)),
                        unit("c", "B", squares=[(1, 0)], creature=creature(hp=100))],
                       options={"mob_charge_scope": "per_engagement"})
    battle = make_battle(state, dice=[9, 4, 9, 4, 9, 4])
    a = get(state, "a")
    combat.take_attack(state, battle, a, Order.parse("melee a b"))
    combat.take_attack(state, battle, a, Order.parse("melee a b"))
    state.disengage("a", "b")
    get(state, "b").status = "fled"
    combat.take_attack(state, battle, a, Order.parse("melee a c"))
    assert [e["kind"] for e in events(battle, "attack")] == ["charge", "melee", "charge"]


@pytest.mark.rule("W35-DEFEND-12")
def test_a_phalanx_cannot_charge() -> None:
    state = _state()
    get(state, "a").phalanx = True
    assert _charges(state) == []
    assert _refused(state, "charge a b 0,3") == "W35-DEFEND-12"


@pytest.mark.rule("W35-AMB-37")
def test_an_engaged_unit_cannot_charge_but_a_merely_adjacent_one_can() -> None:
    state = _state(unit("c", "B", squares=[(2, 0)]))
    assert _charges(state) == ["charge a b 0,3"]
    state.engage("a", "c")
    assert _refused(state, "charge a b 0,3") == "W35-AMB-37"


@pytest.mark.rule("W35-UATK-03", "W35-AMB-30", "W35-AMB-31", "W35-DMG-09")
def test_a_unit_may_charge_an_independent_monster_ending_on_a_corner() -> None:
    ogre = creature("ogre", size="large", hp=60, ac=12, melee=[{"bonus": 8, "damage": "2d8"}])
    state = make_state([unit("a", squares=[(0, 0)])],
                       singles=[single("ogre", "B", "monster", at=(3, 3), creature=ogre)])
    assert _charges(state) == ["charge a ogre 2,2"]
    battle = make_battle(state, dice=[9, 4], orders={"A": ["charge a ogre 2,2"]})
    unit_action(state, battle, get(state, "a"))
    [attack] = events(battle, "attack")
    assert attack["target"] == "ogre" and attack["total"] == 9 + 4 + 2
    assert get(state, "a").charge_ac_penalty and state.singles["ogre"].hp < 60
