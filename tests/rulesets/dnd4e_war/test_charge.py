"""The Charge phase (W4-CHARGE): declarations, fear tests, charge rolls, spearheads, the
straight move into the target's arc and the charge attacks."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import events, get, make_battle, make_state, profile, unit
from tests.rulesets.dnd4e_war.test_resolution import stay
from warhost.core.orders import Order
from warhost.geometry.table import contact_shift
from warhost.rulesets.dnd4e_war import charge, melee, movement, psychology
from warhost.rulesets.dnd4e_war.state import WarState

DEF18 = {"ac": 18, "fortitude": 14, "reflex": 14, "will": 14}


def _pair(gap: float = 4.0, **b_fields: Any) -> WarState:
    """Unit a (8 humans, front edge y=10, facing north) and unit b facing it ``gap`` away."""
    b_profile = b_fields.pop("profile", profile(defenses=DEF18))
    return make_state([unit("a"), unit("b", "B", at=(20, 10 + gap), facing=180,
                                       profile=b_profile, **b_fields)])


@pytest.mark.rule("W4-CHARGE-07")
@pytest.mark.rule("W4-AMB-14")
def test_a_charge_roll_of_one_fails_even_at_one_inch_and_spends_no_action() -> None:
    state = _pair(gap=1.0)
    battle = make_battle(state, dice=[1], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    a = get(state, "a")
    assert events(battle, "charge_failed")[0]["reason"] == "rolled a 1"
    assert a.front == (20.0, 10.0) and not state.is_engaged("a")
    assert not a.standard_used and not a.charged


@pytest.mark.rule("W4-CHARGE-05")
@pytest.mark.rule("W4-CHARGE-12")
@pytest.mark.rule("W4-CHARGE-09")
@pytest.mark.rule("W4-AMB-11")
def test_a_target_beyond_the_rolled_distance_is_not_reached() -> None:
    slow = profile(speed=2)  # modifier 2 - 3 = -1
    state = make_state([unit("a", profile=slow),
                        unit("b", "B", at=(20, 14), facing=180)])
    battle = make_battle(state, dice=[4], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    assert events(battle, "charge_roll")[0]["distance"] == 3.0
    assert events(battle, "charge_failed")[0]["reason"].startswith("out of range")
    assert get(state, "a").front == (20.0, 10.0) and not get(state, "a").standard_used


@pytest.mark.rule("W4-CHARGE-01")
@pytest.mark.rule("W4-CHARGE-02")
@pytest.mark.rule("W4-CHARGE-06")
@pytest.mark.rule("W4-CHARGE-13")
@pytest.mark.rule("W4-CHARGE-17")
@pytest.mark.rule("W4-CHARGE-19")
@pytest.mark.rule("W4-CHARGE-20")
@pytest.mark.rule("W4-AMB-13")
def test_a_long_charge_contacts_the_target_and_strikes_at_once_with_its_bonuses() -> None:
    state = _pair(gap=4.0, companies=2, files=2)
    # charge roll 3 (+3 = 6"), 1d3 extra = 2, then 4 front-row + 2 extra d20s
    battle = make_battle(state, dice=[3, 2, 9, 9, 8, 20, 1, 15],
                         orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    a, b = get(state, "a"), get(state, "b")
    assert a.front == (20.0, 14.0) and state.is_engaged("a") and a.charged
    strike = events(battle, "strike")[0]
    assert (strike["dice"], strike["extra"], strike["needed"]) == (6, 2, 9)  # AC 18 vs +8+1
    assert strike["hits"] == 4 and b.models == 12
    assert melee.points_scored(state, "a") == 4


@pytest.mark.rule("W4-CHARGE-19")
@pytest.mark.rule("W4-CHARGE-20")
@pytest.mark.rule("W4-AMB-13")
def test_a_charge_of_two_inches_or_less_earns_no_bonus_and_no_extra_attacks() -> None:
    state = _pair(gap=2.0)
    battle = make_battle(state, dice=[2, 10, 9, 10, 10], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    strike = events(battle, "strike")[0]
    assert (strike["dice"], strike["extra"], strike["needed"], strike["hits"]) == (4, 0, 10, 3)


@pytest.mark.rule("W4-CHARGE-20")
@pytest.mark.rule("W4-AMB-94")
def test_cavalry_companies_in_contact_roll_a_d6_each_for_extra_attacks() -> None:
    horse = profile(cavalry=True, company={"columns": 2, "rows": 1}, mount_size="large")
    state = make_state([unit("a", profile=horse, companies=2, files=2),
                        unit("b", "B", at=(19, 14), facing=180, profile=profile(defenses=DEF18),
                             companies=1)])
    # two 2-wide companies side by side (x 16-20) slide 4" into b's front (x 17-21):
    # both touch, so each rolls 1d6 (4 and 6)
    battle = make_battle(state, dice=[5, 4, 6, *([20] * 14)], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    strike = events(battle, "strike")[0]
    assert strike["extra"] == 10


@pytest.mark.rule("W4-CHARGE-14")
@pytest.mark.rule("W4-AMB-16")
@pytest.mark.rule("W4-CHARGE-15")
def test_the_spearhead_hits_the_arc_holding_most_of_it_and_keeps_its_facing() -> None:
    # b faces north, its left edge at x=18 (y 18..20); a faces east from x=12
    state = make_state([unit("a", at=(12, 19), facing=90),
                        unit("b", "B", at=(20, 20), facing=0)])
    battle = make_battle(state, dice=[4, *([1] * 20)], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    move = events(battle, "charge_move")[0]
    a = get(state, "a")
    assert move["arc"] == "left" and move["distance"] == 6.0
    assert a.facing == 90 and a.front[0] == 18.0 and state.is_engaged("a")


@pytest.mark.rule("W4-AMB-15")
@pytest.mark.rule("W4-CHARGE-16")
def test_a_company_unit_cannot_charge_more_than_45_degrees_off_its_facing() -> None:
    # b stands ahead and far to a's right: contact needs a 51-degree slant
    state = make_state([unit("a", at=(20, 10), facing=0, profile=profile(speed=10)),
                        unit("b", "B", at=(32, 19), facing=270)])
    battle = make_battle(state, dice=[6], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    # the gap is 12.2" and the roll gives 13", but the 45-degree slant needs 14.1"
    assert state.gap(get(state, "a"), get(state, "b")) < 13
    assert events(battle, "charge_failed")[0]["reason"] == (
        "cannot reach contact in a straight line")
    assert get(state, "a").front == (20.0, 10.0)
    mover, goal = get(state, "a").trays()[0], get(state, "b").frame()
    slant = contact_shift(mover, goal, "front", 0.0, 45.0, 1.0)
    free = contact_shift(mover, goal, "front", None, 45.0, 1.0)
    assert slant is not None and free is not None
    assert slant == pytest.approx((10.0, 10.0)) and math.hypot(*free) < 13
    assert contact_shift(mover, goal, "front", 0.0, 30.0, 1.0) is None


@pytest.mark.rule("W4-MONSTER-06")
@pytest.mark.rule("W4-SKIRM-03")
@pytest.mark.rule("W4-MONSTER-05")
def test_a_lone_monster_sees_and_charges_in_any_direction() -> None:
    beast = profile(formation="skirmish", monster=True, size="large", unit_size=[1, 4])
    state = make_state([unit("m", at=(20, 10), facing=0, profile=beast, companies=1),
                        unit("b", "B", at=(28, 11), facing=270)])
    battle = make_battle(state, dice=[6, 2, 20, 20, 20], orders={"A": ["charge m b"]})
    charge.side_charges(state, battle, "A")
    assert events(battle, "charge_move") and state.is_engaged("m")


@pytest.mark.rule("W4-CHARGE-04")
@pytest.mark.rule("W4-DEC-20")
def test_only_visible_enemies_are_offered_as_targets() -> None:
    state = make_state([unit("a"), unit("ahead", "B", at=(20, 16), facing=180),
                        unit("behind", "B", at=(20, 2), facing=0)])
    battle = make_battle(state)
    targets = [u.id for u in charge.visible_targets(state, get(state, "a"))]
    assert targets == ["ahead"]
    charge.declare(state, battle, "A")
    decision = battle.log.of_type("decision")[0]
    assert decision["order"] == str(Order.of("hold", "a"))


@pytest.mark.rule("W4-CHARGE-04")
def test_terrain_that_blocks_sight_hides_a_target() -> None:
    wall = {"name": "wood", "rect": [14, 12, 12, 1], "blocks_sight": True}
    state = make_state([unit("a"), unit("b", "B", at=(20, 16), facing=180)],
                       terrain=[wall])
    assert charge.visible_targets(state, get(state, "a")) == []


@pytest.mark.rule("W4-FEAR-03")
@pytest.mark.rule("W4-FEAR-07")
@pytest.mark.rule("W4-AMB-14")
def test_failing_the_test_to_charge_a_fear_causer_means_no_charge_and_no_flight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tests: list[tuple[str, int, str]] = []

    def fake(state: WarState, battle: object, u: Any, dc: int, why: str, rule: str,
             kind: str = "courage", natural_20_only: bool = False) -> bool:
        tests.append((u.id, dc, rule))
        return False

    monkeypatch.setattr(psychology, "courage_test", fake)
    state = _pair(gap=3.0, profile=profile(rules=["terror"]))
    battle = make_battle(state, orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    assert tests == [("a", 16, "W4-FEAR-03")]
    assert events(battle, "charge_roll") == [] and not get(state, "a").fleeing
    assert not get(state, "a").standard_used


@pytest.mark.rule("W4-FEAR-02")
@pytest.mark.rule("W4-AMB-17")
@pytest.mark.rule("W4-AMB-18")
def test_a_target_that_flees_from_a_fear_causer_is_destroyed_if_the_charge_lands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tests: list[tuple[str, int, str]] = []

    def fake(state: WarState, battle: object, u: Any, dc: int, why: str, rule: str,
             kind: str = "courage", natural_20_only: bool = False) -> bool:
        tests.append((u.id, dc, kind))
        return False

    monkeypatch.setattr(psychology, "courage_test", fake)
    monkeypatch.setattr(movement, "fall_back", stay)
    state = make_state([unit("a", profile=profile(rules=["fear"])),
                        unit("b", "B", at=(20, 13), facing=180)])
    battle = make_battle(state, dice=[3], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    assert tests == [("b", 13, "fear")]
    assert [e["why"] for e in events(battle, "fall_back")] == ["fear"]
    assert events(battle, "charge_roll")[0]["roll"] == 3  # the charger still rolls
    assert get(state, "b").destroyed and events(battle, "strike") == []


@pytest.mark.rule("W4-AMB-17")
def test_with_the_option_off_a_contacted_fleeing_unit_is_fought() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 13), facing=180, companies=2,
                                        files=2)],
                       options={"charged_fleeing_unit_destroyed": False})
    get(state, "b").fleeing = True
    battle = make_battle(state, dice=[3, 2, 20, 20, 20, 20, 20, 20],
                         orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    assert not get(state, "b").destroyed and state.is_engaged("b")
    assert events(battle, "strike")[0]["hits"] == 6


@pytest.mark.rule("W4-AMB-12")
@pytest.mark.rule("W4-CHARGE-08")
def test_an_unstoppable_charge_adds_one_to_resolution_only_with_the_option() -> None:
    for option, expected in (("none", None), ("+1_resolution", 1)):
        state = make_state([unit("a"), unit("b", "B", at=(20, 13), facing=180)],
                           options={"unstoppable_charge": option})
        battle = make_battle(state, dice=[6, 1, 1, 1, 1, 1, 1], orders={"A": ["charge a b"]})
        charge.side_charges(state, battle, "A")
        units = [get(state, "a"), get(state, "b")]
        melee.resolution(state, battle, units, {})
        assert events(battle, "combat_result")[0]["bonuses"]["A"].get("unstoppable") == expected


@pytest.mark.rule("W4-CHARGE-10")
@pytest.mark.rule("W4-DEC-21")
def test_the_spearhead_is_chosen_among_the_front_rank_companies() -> None:
    state = make_state([unit("a", companies=3, files=2),
                        unit("b", "B", at=(20, 14), facing=180)])
    battle = make_battle(state, dice=[4, *([1] * 40)],
                         orders={"A": ["charge a b", "spearhead a 1"]})
    charge.side_charges(state, battle, "A")
    decision = next(d for d in battle.log.of_type("decision") if d["kind"] == "spearhead")
    assert decision["order"] == "spearhead a 1"
    assert events(battle, "charge_move")[0]["spearhead"] == 1


@pytest.mark.rule("W4-SKIRM-07")
@pytest.mark.rule("W4-SKIRM-06")
def test_charged_skirmishers_close_in_on_the_chargers_front() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("a"), unit("s", "B", at=(20, 14), facing=180, profile=loose,
                                        companies=4)])
    battle = make_battle(state, dice=[4, *([1] * 20)], orders={"A": ["charge a s"]})
    charge.side_charges(state, battle, "A")
    s = get(state, "s")
    touching = [p for p in s.points if abs(p[1] - (get(state, "a").front[1] + 0.5)) < 1e-6]
    assert len(touching) == 4


@pytest.mark.rule("W4-AMB-19")
def test_a_pursuer_that_caught_an_enemy_makes_its_charge_attacks_next_charge_phase() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 10), facing=180)])
    state.engage("a", "b")
    state.pursuit_pending["a"] = "b"
    state.extra["pursuit_moved"] = {"a": 5.0}
    battle = make_battle(state, dice=[3, 20, 20, 20, 20, 20, 20, 20])
    charge.pending_pursuits(state, battle)
    strike = events(battle, "strike")[0]
    assert strike["charge"] and strike["extra"] == 3 and strike["dice"] == 7
    assert state.pursuit_pending == {}


@pytest.mark.rule("W4-AMB-94")
def test_only_charging_companies_that_reach_contact_roll_extra_attacks() -> None:
    state = make_state([unit("a", companies=2, files=2),
                        unit("b", "B", at=(15, 14), facing=180)])
    # a's left company (x 16-20) meets b (x 13-17) with two models; the right one misses
    battle = make_battle(state, dice=[4, 3, 1, 1, 1, 1, 1], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    strike = events(battle, "strike")[0]
    assert (strike["dice"], strike["extra"]) == (5, 3)


@pytest.mark.rule("W4-CHARGE-18")
@pytest.mark.rule("W4-AMB-78")
def test_models_slain_by_the_charge_do_not_strike_back() -> None:
    state = _pair(gap=3.0, companies=2, files=2)
    # charge: roll 3, 1d3 = 1, five d20s of which three hit
    battle = make_battle(state, dice=[3, 1, 20, 20, 20, 1, 1],
                         orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    assert get(state, "b").models == 13
    # six of b's front-row models touch a (a's 4" front and a corner at each end), less
    # the three slain: three strike back, and a, having charged, does not strike
    fight = make_battle(state, dice=[20, 20, 20, 20, 20])
    melee.resolve_fight(state, fight, ["a", "b"])
    replies = events(fight, "strike")
    assert [(s["unit"], s["dice"]) for s in replies] == [("b", 3)]


@pytest.mark.rule("W4-AMB-43")
def test_with_the_option_a_terror_causer_charges_a_fear_causer_without_a_test(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tested: list[str] = []

    def fake(state: WarState, battle: object, u: Any, dc: int, why: str, rule: str,
             kind: str = "courage", natural_20_only: bool = False) -> bool:
        tested.append(u.id)
        return True

    monkeypatch.setattr(psychology, "courage_test", fake)
    state = make_state([unit("a", profile=profile(rules=["terror"])),
                        unit("b", "B", at=(20, 13), facing=180,
                             profile=profile(rules=["fear"]))],
                       options={"fear_causers_immune": True})
    battle = make_battle(state, dice=[1], orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    assert tested == ["b"]  # b still tests against a's terror; a ignores b's fear


@pytest.mark.rule("W4-DEC-20")
def test_the_player_orders_the_charge_moves() -> None:
    state = make_state([unit("a"), unit("c", at=(40, 10)),
                        unit("b", "B", at=(20, 13), facing=180, companies=2, files=2),
                        unit("d", "B", at=(40, 13), facing=180, companies=2, files=2)])
    battle = make_battle(state, dice=[3, 3, *([1] * 20)],
                         orders={"A": ["charge a b", "charge c d", "next_charge c"]})
    charge.side_charges(state, battle, "A")
    assert [e["unit"] for e in events(battle, "charge_move")] == ["c", "a"]


@pytest.mark.rule("W4-AMB-97")
def test_charging_skirmishers_roll_a_d3_per_started_four_in_contact() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("s", at=(20, 8), profile=loose, companies=5),
                        unit("b", "B", at=(20, 12), facing=180, companies=2, files=2)])
    get(state, "s").points = [(17.5 + i, 8.0) for i in range(5)]
    battle = make_battle(state, dice=[4, 3, 2, *([1] * 10)],
                         orders={"A": ["charge s b", "spearhead s 2"]})
    charge.side_charges(state, battle, "A")
    assert events(battle, "skirmish_contact")[0]["models"] == 4
    strike = events(battle, "strike")[0]
    assert (strike["extra"], strike["dice"]) == (5, 10)  # two d3s for five models
