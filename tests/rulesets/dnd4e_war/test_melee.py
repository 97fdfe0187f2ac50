"""Close combat fighting (W4-MELEE): who may fight, striking in initiative order, casualties
at the front, cover from barriers, re-engaging, and the order of fights."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    events,
    get,
    make_battle,
    make_state,
    profile,
    record,
    unit,
)
from warhost.rulesets.dnd4e_war import melee
from warhost.rulesets.dnd4e_war.state import WarState


def _fight(a_fields: dict[str, Any] | None = None, b_fields: dict[str, Any] | None = None,
           **kwargs: Any) -> WarState:
    """Unit a (front edge y=10, facing north) in contact with unit b (front edge y=10,
    facing south), engaged."""
    state = make_state([unit("a", **(a_fields or {})),
                        unit("b", "B", at=(20, 10), facing=180, **(b_fields or {}))], **kwargs)
    state.engage("a", "b")
    return state


@pytest.mark.rule("W4-MELEE-02")
@pytest.mark.rule("W4-MELEE-08")
@pytest.mark.rule("W4-AMB-77")
def test_reach_two_lets_the_second_row_fight() -> None:
    pike = profile(powers=[{"name": "Pike", "kind": "melee", "bonus": 8, "damage": "1[W]",
                            "reach": 2}])
    state = _fight({"profile": pike})
    a, b = get(state, "a"), get(state, "b")
    long = melee.fighters(state, a, [b], 2)
    short = melee.fighters(state, b, [a], 1)
    assert [(g.models, g.front) for g in long] == [(8, 4)]
    assert [(g.models, g.front) for g in short] == [(4, 4)]


@pytest.mark.rule("W4-MELEE-03")
def test_a_company_out_of_contact_cannot_fight() -> None:
    state = make_state([unit("a", companies=2, files=2),
                        unit("b", "B", at=(17.5, 10), facing=180)])
    state.engage("a", "b")
    groups = melee.fighters(state, get(state, "a"), [get(state, "b")], 1)
    assert [g.slot for g in groups] == [0]  # company 1 (x 20-24) stands 0.5 inch from b


@pytest.mark.rule("W4-MELEE-04")
@pytest.mark.rule("W4-MELEE-12")
@pytest.mark.rule("W4-AMB-78")
@pytest.mark.rule("W4-MELEE-09")
def test_the_faster_side_strikes_first_and_its_kills_cut_the_reply() -> None:
    state = _fight({"profile": profile(initiative=5)}, {"profile": profile(initiative=2)})
    # a: 4 dice, 3 hits (AC 16 vs +8 needs 8); b then has 4 - 3 front fighters: 1 die
    battle = make_battle(state, dice=[8, 12, 7, 20, 15, 20])
    melee.resolve_fight(state, battle, ["a", "b"])
    strikes = events(battle, "strike")
    assert [(s["unit"], s["dice"], s["hits"]) for s in strikes] == [("a", 4, 3), ("b", 1, 1)]
    assert get(state, "b").models == 5 and get(state, "a").models == 7


@pytest.mark.rule("W4-AMB-79")
def test_equal_initiatives_strike_simultaneously() -> None:
    steady = profile(rules=["fearless"])  # no Hope is Lost! at half strength
    state = _fight({"profile": steady}, {"profile": steady})
    battle = make_battle(state, dice=[20, 20, 20, 20, 20, 20, 20, 20])
    melee.resolve_fight(state, battle, ["a", "b"])
    assert [s["dice"] for s in events(battle, "strike")] == [4, 4]
    assert get(state, "a").models == get(state, "b").models == 4


@pytest.mark.rule("W4-MELEE-06")
@pytest.mark.rule("W4-MELEE-07")
@pytest.mark.rule("W4-MELEE-05")
def test_units_that_charged_or_shot_do_not_attack_in_close_combat() -> None:
    state = _fight()
    get(state, "a").charged = True
    get(state, "b").shot = True
    battle = make_battle(state)
    melee.resolve_fight(state, battle, ["a", "b"])
    assert events(battle, "strike") == []
    fresh = _fight()
    battle = make_battle(fresh, dice=[1] * 8)
    melee.resolve_fight(fresh, battle, ["a", "b"])
    assert get(fresh, "a").standard_used and get(fresh, "b").standard_used


@pytest.mark.rule("W4-MELEE-10")
def test_only_a_barrier_gives_cover_in_close_combat() -> None:
    wall = {"name": "wall", "rect": [15, 9.9, 10, 0.2], "barrier": True}
    hedge = {"name": "hedge", "rect": [15, 9.9, 10, 0.2], "cover": "cover"}
    walled = _fight(terrain=[wall])
    assert melee.barrier_cover(walled, get(walled, "a"), get(walled, "b")) == 2
    hedged = _fight(terrain=[hedge])
    assert melee.barrier_cover(hedged, get(hedged, "a"), get(hedged, "b")) == 0


@pytest.mark.rule("W4-SKIRM-09")
def test_only_skirmishers_in_base_contact_attack() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10],
                    powers=[{"name": "Spear", "kind": "melee", "bonus": 8, "damage": "1[W]",
                             "reach": 2}])
    state = make_state([unit("s", at=(20, 9.5), profile=loose, companies=3),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("s", "b")
    s = get(state, "s")
    s.points = [(19.5, 9.5), (20.5, 8.5), (25, 5)]  # one touches, one 0.5" away
    groups = melee.fighters(state, s, [get(state, "b")], 2)
    assert [g.slot for g in groups] == [0]


@pytest.mark.rule("W4-MULTI-05")
@pytest.mark.rule("W4-AMB-52")
def test_models_with_several_attacks_multiattack_only_minions_by_default() -> None:
    brutes = profile(attacks=2)
    heroes = profile(hp=30)
    state = _fight({"profile": brutes}, {"profile": heroes})
    a, b = get(state, "a"), get(state, "b")
    power = melee.melee_power(a)
    assert power is not None
    assert melee.attacks_per_model(state, 2, power, b) == 1
    assert melee.attacks_per_model(state, 2, power, a) == 2
    state.options.multiattack_vs_nonminions = True
    assert melee.attacks_per_model(state, 2, power, b) == 2


@pytest.mark.rule("W4-CMD-06")
@pytest.mark.rule("W4-HIT-04")
def test_the_captain_strikes_as_a_character_with_his_own_attacks() -> None:
    soft = profile(defenses={"ac": 12, "fortitude": 14, "reflex": 14, "will": 14})
    state = _fight({"command": {"captain": {"name": "Cap", "attacks": 3}}}, {"profile": soft})
    # needing 4 (AC 12 vs +8): the three spearmen miss on 5s, the captain hits
    battle = make_battle(state, dice=[5, 5, 5, 5, 5, 5])
    melee.strike(state, battle, melee.plan_blows(state, battle, get(state, "a"),
                                                 [get(state, "b")]))
    strikes = events(battle, "strike")
    assert [(s["dice"], s["captain"]) for s in strikes] == [(3, False), (3, True)]
    assert [s["hits"] for s in strikes] == [0, 3]  # only ordinary models miss below 8


@pytest.mark.rule("W4-MELEE-13")
def test_a_unit_left_out_of_contact_moves_back_the_shortest_way() -> None:
    state = _fight()
    get(state, "b").front = (20.0, 11.5)  # b's front company is gone, the rest stands back
    battle = make_battle(state)
    melee.re_engage(state, battle, [get(state, "a")])
    assert get(state, "a").front == pytest.approx((20.0, 11.5))
    assert events(battle, "re_engage")[0]["distance"] == 1.5


@pytest.mark.rule("W4-MELEE-01")
@pytest.mark.rule("W4-DEC-23")
def test_the_side_with_the_initiative_picks_the_order_of_fights() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 10), facing=180),
                        unit("c", at=(40, 10)), unit("d", "B", at=(40, 10), facing=180)])
    state.engage("a", "b")
    state.engage("c", "d")
    state.initiative = "B"
    battle = make_battle(state, dice=[1] * 16, orders={"B": ["fight c"]})
    seen = record(battle)
    melee.close_combat_phase(state, battle)
    fights = [d for d in seen if d.kind == "fight"]
    assert fights[0].side == "B" and [str(o) for o in fights[0].options] == ["fight a",
                                                                            "fight c"]
    assert [e["fight"] for e in events(battle, "combat_result")] == [["c", "d"], ["a", "b"]]


@pytest.mark.rule("W4-SKIRM-11")
def test_skirmishers_still_fighting_close_in_at_the_end_of_the_round() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("s", at=(20, 9.5), profile=loose, companies=3),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("s", "b")
    s = get(state, "s")
    s.points = [(19.5, 9.5), (20.5, 7.0), (18.5, 6.0)]
    battle = make_battle(state)
    melee.re_engage(state, battle, [s])
    assert all(abs(p[1] - 9.5) < 1e-9 for p in s.points)
    assert events(battle, "skirmish_contact")[0]["models"] == 2


@pytest.mark.rule("W4-DEC-26")
def test_a_unit_with_several_powers_picks_the_one_its_models_use() -> None:
    two = profile(powers=[{"name": "Spear", "kind": "melee", "bonus": 8, "damage": "1[W]"},
                          {"name": "Maul", "kind": "melee", "bonus": 6, "damage": "2[W]"},
                          {"name": "Smite", "kind": "melee", "bonus": 9, "damage": "3[W]",
                           "usage": "encounter"}])
    state = _fight({"profile": two})
    battle = make_battle(state, dice=[20, 20, 20, 20], orders={"A": ["power a 1"]})
    seen = record(battle)
    melee.strike(state, battle, melee.plan_blows(state, battle, get(state, "a"),
                                                 [get(state, "b")]))
    assert [str(o) for o in seen[0].options] == ["power a 0", "power a 1"]
    strike = events(battle, "strike")[0]
    assert (strike["needed"], strike["points"]) == (10, 8)  # AC 16 vs +6, 4 hits x 2 [W]


@pytest.mark.rule("W4-SKIRM-01")
@pytest.mark.rule("W4-SKIRM-06")
def test_charging_skirmishers_close_in_and_stragglers_keep_within_two_inches() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("s", at=(20, 9.5), profile=loose, companies=3),
                        unit("b", "B", at=(20, 14), facing=180)])
    s = get(state, "s")
    s.points = [(20.0, 9.5), (15.0, 9.5), (30.0, 2.0)]
    from warhost.rulesets.dnd4e_war import charge

    battle = make_battle(state, dice=[4, 2, *([1] * 10)],
                         orders={"A": ["charge s b", "spearhead s 0"]})
    charge.side_charges(state, battle, "A")
    assert s.points[0] == pytest.approx((20.0, 13.5))  # the spearhead, straight ahead
    assert s.points[1][1] == pytest.approx(13.5)  # closes in beside it
    # the straggler cannot reach contact: it heads for the nearest model its full 7"
    assert abs(complex(*s.points[2]) - complex(30.0, 2.0)) == pytest.approx(7.0)


@pytest.mark.rule("W4-DEC-22")
def test_skirmishers_owner_chooses_among_placements_with_the_same_contact() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("s", at=(20, 9.5), profile=loose, companies=2),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("s", "b")
    s = get(state, "s")
    s.points = [(19.5, 7.0), (20.5, 7.0)]
    battle = make_battle(state, orders={"A": ["place s from_the_other_end"]})
    melee.re_engage(state, battle, [s])
    asked = next(d for d in battle.log.of_type("decision") if d["kind"] == "skirmish_place")
    assert asked["order"] == "place s from_the_other_end"
    ends = melee.arrangements(s, [(18.5, 9.5), (19.5, 9.5), (20.5, 9.5), (21.5, 9.5)], 6.0,
                              set())
    assert list(ends) == list(melee.PLACEMENTS)
    assert all(len(placed) == 2 for placed in ends.values())  # the same, greatest contact
    assert sorted(x for x, _ in s.points) == [18.5, 19.5]  # b faces south: its far end is west
    assert events(battle, "skirmish_contact")[0]["models"] == 2


@pytest.mark.rule("W4-DEC-22")
def test_no_placement_is_asked_when_only_one_gives_the_most_contact() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("s", at=(20, 9.5), profile=loose, companies=4),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("s", "b")
    s = get(state, "s")
    s.points = [(18.5, 7.0), (19.5, 7.0), (20.5, 7.0), (21.5, 7.0)]
    battle = make_battle(state)
    melee.re_engage(state, battle, [s])
    assert not [d for d in battle.log.of_type("decision") if d["kind"] == "skirmish_place"]
    assert events(battle, "skirmish_contact")[0]["models"] == 4
