"""Combat resolution, break tests and pursuit (W4-RESOLVE, W4-BREAK, W4-FEAR-08/09)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import events, get, make_battle, make_state, profile, unit
from warhost.rulesets.dnd4e_war import melee, movement, psychology
from warhost.rulesets.dnd4e_war.state import WarState

ELF = profile(name="Elf", race="elf")


def _fight(a_fields: dict[str, Any] | None = None, b_fields: dict[str, Any] | None = None,
           **kwargs: Any) -> WarState:
    """Unit a (front edge y=10, facing north) and unit b face to face, engaged."""
    state = make_state([unit("a", **(a_fields or {})),
                        unit("b", "B", at=(20, 10), facing=180, **(b_fields or {}))], **kwargs)
    state.engage("a", "b")
    return state


def _result(state: WarState, support: dict[str, frozenset[int]] | None = None
            ) -> dict[str, Any]:
    battle = make_battle(state)
    melee.resolution(state, battle, [get(state, u) for u in ("a", "b")], support or {})
    result: dict[str, Any] = events(battle, "combat_result")[0]
    return result


def _score(state: WarState, uid: str, points: int) -> None:
    melee._add(state, "combat_points", uid, points)


@pytest.mark.rule("W4-RESOLVE-12")
@pytest.mark.rule("W4-STR-06")
@pytest.mark.rule("W4-STR-01")
def test_sixteen_elves_outnumber_eight_men() -> None:
    state = _fight({"profile": ELF, "companies": 2, "files": 2})
    assert get(state, "a").strength() == 16 and get(state, "b").strength() == 8
    result = _result(state)
    assert result["bonuses"] == {"A": {"outnumber": 2}, "B": {}}
    assert (result["winner"], result["margin"]) == ("A", 2)


@pytest.mark.rule("W4-STR-03")
def test_a_large_monster_mount_counts_for_cavalry_strength() -> None:
    rider = profile(cavalry=True, mount_size="large", mount_monster=True,
                    company={"columns": 2, "rows": 1})
    state = _fight({"profile": rider, "models": 1})
    # a cavalry model counts its mount: Large 2 + monster 1 (the character rider's +1 of
    # W4-STR-07 is part 2)
    assert get(state, "a").model_strength() == 3


@pytest.mark.rule("W4-RESOLVE-03")
@pytest.mark.rule("W4-RESOLVE-04")
@pytest.mark.rule("W4-RESOLVE-05")
@pytest.mark.rule("W4-AMB-27")
@pytest.mark.rule("W4-AMB-28")
def test_every_hit_scores_its_weapon_dice_even_when_resilience_absorbs_it() -> None:
    maul = profile(powers=[{"name": "Maul", "kind": "melee", "bonus": 8,
                            "damage": "2[W]+4", "weapon_dice": "2d6"}])
    tough = profile(resilience=2)
    state = _fight({"profile": maul}, {"profile": tough})
    battle = make_battle(state, dice=[20, 20, 20, 1])
    melee.strike(state, battle, melee.plan_blows(state, battle, get(state, "a"),
                                                 [get(state, "b")]))
    assert events(battle, "strike")[0]["points"] == 6  # 3 hits x 2 [W]
    assert get(state, "b").models == 7  # 3 hits on resilience 2 slay one
    assert melee.points_scored(state, "a") == 6


@pytest.mark.rule("W4-RESOLVE-06")
@pytest.mark.rule("W4-RESOLVE-07")
@pytest.mark.rule("W4-RESOLVE-01")
def test_the_higher_total_wins_by_the_difference() -> None:
    state = _fight()
    _score(state, "a", 5)
    _score(state, "b", 2)
    result = _result(state)
    assert result["totals"] == {"A": 5, "B": 2}
    assert (result["winner"], result["margin"]) == ("A", 3)


@pytest.mark.rule("W4-RESOLVE-13")
@pytest.mark.rule("W4-AMB-31")
@pytest.mark.rule("W4-CMD-08")
def test_standards_give_two_and_a_battle_standard_four_never_both() -> None:
    state = make_state([unit("a", command={"standard": True}),
                        unit("a2", at=(28, 10), command={"battle_standard": True}),
                        unit("b", "B", at=(20, 10), facing=180, command={"standard": True})])
    state.engage("a", "b")
    result = _result(state)
    assert result["bonuses"]["A"] == {"standard": 2}  # a2 is not in this fight
    state.engage("a2", "b")
    battle = make_battle(state)
    melee.resolution(state, battle, [get(state, u) for u in ("a", "a2", "b")], {})
    bonuses = events(battle, "combat_result")[0]["bonuses"]
    assert bonuses["A"]["standard"] == 4 and bonuses["B"]["standard"] == 2


@pytest.mark.rule("W4-RESOLVE-14")
@pytest.mark.rule("W4-AMB-32")
def test_the_single_highest_unit_holds_the_high_ground() -> None:
    hill = {"name": "hill", "rect": [10, 0, 20, 10], "height": 1}
    state = _fight(terrain=[hill])
    assert _result(state)["bonuses"]["A"] == {"high_ground": 2}
    level = _fight(terrain=[{"name": "hill", "rect": [10, 0, 20, 20], "height": 1}])
    assert _result(level)["bonuses"] == {"A": {}, "B": {}}


@pytest.mark.rule("W4-RESOLVE-15")
@pytest.mark.rule("W4-RESOLVE-16")
def test_flank_gives_two_and_rear_four_and_they_stack() -> None:
    # b faces north (its front edge y=20, x 18-22, 2 deep); a touches its left edge,
    # c its rear edge
    state = make_state([unit("a", at=(18, 19), facing=90),
                        unit("c", at=(20, 18), facing=0),
                        unit("b", "B", at=(20, 20), facing=0)])
    state.engage("a", "b")
    battle = make_battle(state)
    melee.resolution(state, battle, [get(state, "a"), get(state, "b")], {})
    assert events(battle, "combat_result")[0]["bonuses"]["A"] == {"flank": 2}
    state.engage("c", "b")
    battle = make_battle(state)
    melee.resolution(state, battle, [get(state, u) for u in ("a", "b", "c")], {})
    bonuses = events(battle, "combat_result")[0]["bonuses"]["A"]
    assert bonuses["flank"] + bonuses["rear"] == 6


@pytest.mark.rule("W4-SKIRM-08")
@pytest.mark.rule("W4-MONSTER-04")
def test_skirmishers_and_lone_monsters_cannot_be_flanked() -> None:
    loose = profile(formation="skirmish", unit_size=[1, 10])
    state = make_state([unit("a", at=(18, 19), facing=90),
                        unit("s", "B", at=(19.5, 19), facing=0, profile=loose)])
    state.engage("a", "s")
    get(state, "s").points = [(18.5, 19.0)]
    assert melee.attacked_arcs(state, [get(state, "a")], [get(state, "s")]) == set()


@pytest.mark.rule("W4-RESOLVE-18")
@pytest.mark.rule("W4-CMD-11")
def test_a_lone_musician_breaks_a_draw_by_one() -> None:
    state = _fight({"command": {"musician": True}})
    result = _result(state)
    assert (result["winner"], result["margin"]) == ("A", 1)
    both = _fight({"command": {"musician": True}}, {"command": {"musician": True}})
    assert _result(both)["winner"] is None


@pytest.mark.rule("W4-RESOLVE-02")
def test_an_annihilated_side_loses_without_a_count() -> None:
    state = _fight()
    get(state, "b").destroyed = True
    result = _result(state)
    assert result["winner"] == "A" and result["totals"] == {}


@pytest.mark.rule("W4-RESOLVE-09")
@pytest.mark.rule("W4-DEC-25")
def test_companies_out_of_the_fight_may_support_for_two_each() -> None:
    state = _fight({"companies": 3, "files": 1})
    battle = make_battle(state, orders={"A": ["support a 1", "fight a 2"]})
    chosen = melee.choose_support(state, battle, [get(state, "a"), get(state, "b")])
    assert chosen == {"a": frozenset({1})}
    decisions = [d for d in battle.log.of_type("decision") if d["kind"] == "support"]
    assert [d["order"] for d in decisions] == ["support a 1", "fight a 2"]


@pytest.mark.rule("W4-RESOLVE-10")
@pytest.mark.rule("W4-RESOLVE-11")
def test_support_is_two_a_company_at_most_fourteen_and_from_one_unit_only() -> None:
    state = make_state([unit("a", companies=3, files=1), unit("a2", at=(28, 10)),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("a", "b")
    state.engage("a2", "b")
    units = [get(state, u) for u in ("a", "a2", "b")]
    battle = make_battle(state)
    melee.resolution(state, battle, units, {"a": frozenset({1, 2}), "a2": frozenset({0})})
    assert events(battle, "combat_result")[0]["bonuses"]["A"]["support"] == 4
    battle = make_battle(state)
    melee.resolution(state, battle, units, {"a": frozenset(range(1, 9))})
    assert events(battle, "combat_result")[0]["bonuses"]["A"]["support"] == 14


@pytest.mark.rule("W4-RESOLVE-09")
def test_a_company_that_lost_more_than_half_may_not_support() -> None:
    state = _fight({"companies": 2, "files": 1, "models": 11})
    battle = make_battle(state)
    assert melee.choose_support(state, battle, [get(state, "a")]) == {}


@pytest.mark.rule("W4-MONSTER-09")
@pytest.mark.rule("W4-SKIRM-10")
def test_no_support_for_or_against_monsters_and_skirmishers() -> None:
    beast = profile(monster=True, size="large")
    state = _fight({"companies": 3, "files": 1}, {"profile": beast})
    assert not melee.support_allowed(state, get(state, "a"))
    assert not melee.support_allowed(state, get(state, "b"))
    mixed = make_state([unit("a", companies=3, files=1),
                        unit("b", "B", at=(20, 10), facing=180, profile=beast),
                        unit("c", "B", at=(16, 7), facing=90)])
    mixed.engage("a", "b")
    mixed.engage("a", "c")
    assert melee.support_allowed(mixed, get(mixed, "a"))


def stay(state: WarState, battle: Any, u: Any, heading: float | None, why: str) -> None:
    """A fall back! that leaves the unit where it is (these tests are not about the move)."""
    u.fleeing = True
    state.disengage(u.id)
    battle.emit("fall_back", unit=u.id, why=why)


def _courage(calls: list[dict[str, Any]], passes: bool) -> Any:
    def fake(state: WarState, battle: object, u: Any, dc: int, why: str, rule: str,
             kind: str = "courage", natural_20_only: bool = False) -> bool:
        calls.append({"unit": u.id, "dc": dc, "kind": kind, "natural": natural_20_only,
                      "rule": rule})
        return passes
    return fake


@pytest.mark.rule("W4-BREAK-01")
@pytest.mark.rule("W4-BREAK-02")
@pytest.mark.rule("W4-BREAK-03")
def test_losers_test_at_ten_plus_the_margin_and_failures_fall_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(psychology, "courage_test", _courage(calls, False))
    monkeypatch.setattr(movement, "fall_back", stay)
    state = _fight()
    _score(state, "a", 4)
    battle = make_battle(state, orders={"A": ["hold a"]})
    units = [get(state, "a"), get(state, "b")]
    fled = melee.break_tests(state, battle, units, "A", 4, ["a", "b"])
    assert calls == [{"unit": "b", "dc": 14, "kind": "break", "natural": False,
                      "rule": "W4-BREAK-01"}]
    assert fled == [get(state, "b")] and get(state, "b").fleeing
    assert events(battle, "fall_back")[0]["why"] == "break"
    passed: list[dict[str, Any]] = []
    monkeypatch.setattr(psychology, "courage_test", _courage(passed, True))
    kept = _fight()
    assert melee.break_tests(kept, make_battle(kept), [get(kept, "a"), get(kept, "b")],
                             "A", 4, ["a", "b"]) == []
    assert kept.is_engaged("b")


@pytest.mark.rule("W4-FEAR-08")
@pytest.mark.rule("W4-FEAR-09")
def test_losing_to_a_stronger_terror_causer_adds_four_and_needs_a_natural_twenty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(psychology, "courage_test", _courage(calls, True))
    dread = profile(rules=["terror"], size="large")
    state = _fight({"profile": dread, "models": 8}, {"models": 8})
    units = [get(state, "a"), get(state, "b")]
    melee.break_tests(state, make_battle(state), units, "A", 3, ["a", "b"])
    assert (calls[0]["dc"], calls[0]["natural"]) == (17, True)
    calls.clear()
    weak = _fight({"profile": profile(rules=["fear"]), "models": 4})
    melee.break_tests(weak, make_battle(weak), [get(weak, "a"), get(weak, "b")], "A", 3,
                      ["a", "b"])
    assert (calls[0]["dc"], calls[0]["natural"]) == (15, False)


@pytest.mark.rule("W4-BREAK-04")
@pytest.mark.rule("W4-BREAK-05")
@pytest.mark.rule("W4-BREAK-06")
@pytest.mark.rule("W4-AMB-19")
@pytest.mark.rule("W4-DEC-27")
def test_a_pursuer_turns_for_free_and_destroys_the_quarry_it_reaches() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(30, 14), facing=90)])
    b = get(state, "b")
    b.fleeing = True
    battle = make_battle(state, dice=[4, 5], orders={"A": ["pursue a b"]})
    melee.pursue(state, battle, [get(state, "a"), b], "A", [b])
    pursuit = events(battle, "pursuit")[0]
    assert pursuit["roll"] == 9 and 0 < pursuit["distance"] <= 9  # 9 + 12 - 12
    assert b.destroyed and events(battle, "caught")[0]["target"] == "b"


@pytest.mark.rule("W4-AMB-19")
def test_with_charge_next_turn_a_caught_quarry_stays_engaged() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 16), facing=180)],
                       options={"pursuit_catch": "charge_next_turn"})
    b = get(state, "b")
    b.fleeing = True
    battle = make_battle(state, dice=[6, 6], orders={"A": ["pursue a b"]})
    melee.pursue(state, battle, [get(state, "a"), b], "A", [b])
    assert not b.destroyed and state.is_engaged("a")
    assert state.pursuit_pending == {"a": "b"}
    assert state.gap(get(state, "a"), b) <= 1e-6
    assert events(battle, "pursuit")[0]["distance"] == pytest.approx(6.0, abs=1e-3)


@pytest.mark.rule("W4-BREAK-05")
def test_a_short_pursuit_roll_falls_short() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)])
    b = get(state, "b")
    b.fleeing = True
    battle = make_battle(state, dice=[1, 2], orders={"A": ["pursue a b"]})
    melee.pursue(state, battle, [get(state, "a"), b], "A", [b])
    assert events(battle, "pursuit")[0]["distance"] == 3.0
    assert get(state, "a").front == pytest.approx((20.0, 13.0)) and not b.destroyed


@pytest.mark.rule("W4-MELEE-01")
@pytest.mark.rule("W4-RESOLVE-08")
@pytest.mark.rule("W4-AMB-26")
def test_a_whole_round_strikes_resolves_and_breaks_the_loser(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(psychology, "courage_test", _courage(calls, False))
    monkeypatch.setattr(movement, "fall_back", stay)
    state = _fight({"profile": profile(initiative=5)}, {"profile": profile(rules=["fearless"])})
    # a hits four times, b (four men left) hits none; eight men outnumber four at the end
    # of the round (they were level at its start)
    battle = make_battle(state, dice=[20, 20, 20, 20, 1, 1, 1, 1],
                         orders={"A": ["hold a"]})
    melee.close_combat_phase(state, battle)
    result = events(battle, "combat_result")[0]
    assert result["totals"] == {"A": 6, "B": 0} and result["margin"] == 6
    assert result["bonuses"]["A"] == {"outnumber": 2}
    assert calls[0]["dc"] == 16 and get(state, "b").fleeing


@pytest.mark.rule("W4-BREAK-05")
def test_a_pursuer_with_no_room_to_turn_stays_put() -> None:
    # a friend stands right beside a: turning towards b (due east) would overlap it
    state = make_state([unit("a"), unit("f", at=(20, 7.5)),
                        unit("b", "B", at=(34, 9), facing=90)])
    b = get(state, "b")
    b.fleeing = True
    battle = make_battle(state, orders={"A": ["pursue a b"]})
    melee.pursue(state, battle, [get(state, "a"), b], "A", [b])
    assert events(battle, "pursuit_blocked") and get(state, "a").facing == 0
    assert get(state, "a").front == (20.0, 10.0)


@pytest.mark.rule("W4-AMB-29")
@pytest.mark.rule("W4-CAS-07")
def test_models_removed_by_hope_is_lost_score_a_point_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from warhost.rulesets.dnd4e_war import casualties

    def hopeless(state: WarState, battle: Any, u: Any, hits: int, source: str,
                 why: str) -> casualties.Losses:
        return casualties.Losses(hits, hope_lost=3)

    monkeypatch.setattr(casualties, "apply_hits", hopeless)
    state = _fight()
    battle = make_battle(state, dice=[20, 20, 1, 1])
    melee.strike(state, battle, melee.plan_blows(state, battle, get(state, "a"),
                                                 [get(state, "b")]))
    assert melee.points_scored(state, "a") == 2 + 3


@pytest.mark.rule("W4-MONSTER-04")
def test_the_last_monster_of_a_unit_cannot_be_flanked() -> None:
    beast = profile(monster=True, size="large", company={"columns": 2, "rows": 1})
    state = make_state([unit("a", at=(18, 19), facing=90),
                        unit("m", "B", at=(20, 20), facing=0, profile=beast, models=2)])
    state.engage("a", "m")
    a, m = get(state, "a"), get(state, "m")
    assert melee.attacked_arcs(state, [a], [m]) == {"left"}
    m.companies = [1]
    assert melee.attacked_arcs(state, [a], [m]) == set()
