"""Courage tests, panic, fear and terror, immunities, the battle standard re-roll, ongoing
damage and saving throws (W4-COUR, W4-PANIC, W4-FEAR, W4-IMMUNE, W4-CMD-09/11)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tests.rulesets.dnd4e_war import helpers
from tests.rulesets.dnd4e_war.helpers import events, get, make_battle, profile, record, unit
from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war import movement, psychology
from warhost.rulesets.dnd4e_war.psychology import Candidate, base_bonus, unit_courage
from warhost.rulesets.dnd4e_war.state import Unit, WarState

NORTH = (20.0, 14.0)
"""An enemy front here, facing south, stands 4 inches north of a unit at (20, 10)."""


def make_state(units: list[dict[str, Any]], **kwargs: Any) -> WarState:
    """As the helper, with a bystander of side B far away when the test names none."""
    if all(u["_side"] == "A" for u in units):
        units = [*units, unit("z", "B", at=(66.0, 44.0), facing=180)]
    return helpers.make_state(units, **kwargs)


def _pair(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
          **kwargs: Any) -> WarState:
    return make_state([unit("a", **(a or {})),
                       unit("b", "B", at=NORTH, facing=180, **(b or {}))], **kwargs)


def _courage(**fields: Any) -> int:
    state = make_state([unit("a", **fields)])
    return psychology.courage_bonus(state, get(state, "a"))


def _spy_fall_back(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float | None, str]]:
    """Record fall back! moves (unit, heading, why) and mark the unit fleeing."""
    seen: list[tuple[str, float | None, str]] = []

    def fake(state: WarState, battle: Battle, u: Unit, heading: float | None,
             why: str) -> None:
        seen.append((u.id, heading, why))
        u.fleeing = True

    monkeypatch.setattr(movement, "fall_back", fake)
    return seen


# ---------------------------------------------------------------------- courage bonus
@pytest.mark.rule("W4-COUR-03")
@pytest.mark.rule("W4-COUR-04")
@pytest.mark.rule("W4-AMB-40")
def test_the_base_bonus_is_race_plus_size_and_unlisted_races_get_nothing() -> None:
    races = {"goblin": 1, "kobold": 1, "orc": 3, "human": 3, "halfling": 3, "dwarf": 5,
             "dragonborn": 5, "elf": 6, "drow": 6, "half-elf": 6, "troll": 0}
    for race, bonus in races.items():
        assert _courage(profile=profile(race=race)) == bonus, race
    sizes = {"small": 3, "medium": 3, "large": 5}
    for size, bonus in sizes.items():
        assert _courage(profile=profile(size=size)) == bonus, size
    assert base_bonus(Candidate("orc", "huge")) == 7
    assert base_bonus(Candidate("ogre", "gargantuan")) == 8
    assert _courage(profile=profile(race="troll", size="large", courage=4)) == 6


@pytest.mark.rule("W4-AMB-40")
def test_a_size_outside_the_table_is_refused() -> None:
    with pytest.raises(ValidationError, match="size"):
        make_state([unit("a", profile=profile(size="tiny"))])


@pytest.mark.rule("W4-COUR-09")
@pytest.mark.rule("W4-CMD-11")
@pytest.mark.rule("W4-COUR-05")
def test_human_warriors_with_a_musician_have_plus_four() -> None:
    assert _courage() == 3
    assert _courage(command={"musician": True}) == 4


@pytest.mark.rule("W4-COUR-10")
@pytest.mark.rule("W4-COUR-02")
@pytest.mark.rule("W4-COUR-06")
@pytest.mark.rule("W4-COUR-07")
def test_an_elf_fighter_joining_human_warriors_lends_his_plus_seven_and_the_musician_adds_one(
) -> None:
    state = make_state([unit("a", command={"musician": True})])
    elf = Candidate("elf", "medium", level=8)
    assert base_bonus(elf) == 7
    assert unit_courage(get(state, "a"), [elf]) == 8


@pytest.mark.rule("W4-COUR-11")
@pytest.mark.rule("W4-COUR-08")
def test_elves_keep_their_own_plus_six_without_a_joined_humans_tier() -> None:
    state = make_state([unit("a", profile=profile(race="elf"))])
    fighter = Candidate("human", "medium", level=6)
    assert base_bonus(fighter) == 4
    assert unit_courage(get(state, "a"), [fighter]) == 6


@pytest.mark.rule("W4-COUR-06")
@pytest.mark.rule("W4-AMB-72")
def test_the_tier_bonus_is_one_per_tier() -> None:
    assert [base_bonus(Candidate("human", "medium", lv)) - 3 for lv in (1, 10, 11, 20, 21, 30)
            ] == [1, 1, 2, 2, 3, 3]
    assert base_bonus(Candidate("human", "medium")) == 3  # not a character: no tier


@pytest.mark.rule("W4-CMD-06")
@pytest.mark.rule("W4-STAT-13")
@pytest.mark.rule("W4-COUR-08")
def test_a_captain_is_a_character_whose_tier_the_unit_may_use() -> None:
    assert _courage(command={"captain": {"name": "Sergeant"}}) == 4
    assert _courage(command={"captain": {"level": 12}}) == 5
    assert _courage(profile=profile(level=25), command={"captain": {}}) == 6


@pytest.mark.rule("W4-COUR-05")
@pytest.mark.rule("W4-COUR-07")
@pytest.mark.rule("W4-AMB-41")
@pytest.mark.rule("W4-AMB-76")
def test_stalwart_and_a_single_bard_bonus_always_apply() -> None:
    assert _courage(profile=profile(rules=["stalwart"])) == 5
    assert _courage(profile=profile(rules=["bard"])) == 5
    assert _courage(profile=profile(rules=["bard", "songweaver"])) == 5
    state = make_state([unit("a", profile=profile(rules=["stalwart", "songweaver"]),
                             command={"musician": True})])
    assert unit_courage(get(state, "a"), [Candidate("elf", "medium", 8)]) == 7 + 1 + 2 + 2


# ---------------------------------------------------------------------- the test
@pytest.mark.rule("W4-COUR-01")
@pytest.mark.rule("W4-AMB-42")
def test_a_courage_test_passes_when_the_total_meets_the_dc() -> None:
    state = make_state([unit("a")])
    battle = make_battle(state, dice=[10, 9])
    a = get(state, "a")
    assert psychology.courage_test(state, battle, a, 13, "test", "W4-COUR-01", "rally")
    assert not psychology.courage_test(state, battle, a, 13, "test", "W4-COUR-01", "rally")
    first, second = events(battle, "courage_test")
    assert {k: first[k] for k in ("unit", "kind", "dc", "die", "bonus", "total", "passed",
                                  "rule")} == {
        "unit": "a", "kind": "rally", "dc": 13, "die": 10, "bonus": 3, "total": 13,
        "passed": True, "rule": "W4-COUR-01"}
    assert (second["total"], second["passed"]) == (12, False)


@pytest.mark.rule("W4-FEAR-09")
@pytest.mark.rule("W4-AMB-42")
def test_a_natural_twenty_only_test_fails_any_other_roll() -> None:
    state = make_state([unit("a", profile=profile(race="elf"))])
    battle = make_battle(state, dice=[19, 20])
    a = get(state, "a")
    assert not psychology.courage_test(state, battle, a, 5, "break", "W4-FEAR-09", "break",
                                       natural_20_only=True)
    assert psychology.courage_test(state, battle, a, 40, "break", "W4-FEAR-09", "break",
                                   natural_20_only=True)


@pytest.mark.rule("W4-IMMUNE-01")
def test_a_fearless_unit_passes_every_test_without_rolling() -> None:
    state = make_state([unit("a", profile=profile(rules=["fearless"]))])
    battle = make_battle(state, dice=[])
    for kind in ("rally", "panic", "fear", "terror", "break", "courage"):
        assert psychology.courage_test(state, battle, get(state, "a"), 30, kind, "W4-X", kind)
    assert [e["reason"] for e in events(battle, "courage_immune")] == ["fearless"] * 6


@pytest.mark.rule("W4-IMMUNE-03")
def test_immune_to_psychology_passes_panic_fear_and_terror_but_rolls_break_and_rally() -> None:
    state = make_state([unit("a", profile=profile(rules=["immune_to_psychology"]))])
    battle = make_battle(state, dice=[1, 1])
    a = get(state, "a")
    for kind in ("panic", "fear", "terror"):
        assert psychology.courage_test(state, battle, a, 30, kind, "W4-X", kind)
    assert not psychology.courage_test(state, battle, a, 30, "break", "W4-X", "break")
    assert not psychology.courage_test(state, battle, a, 30, "rally", "W4-X", "rally")
    assert [e["kind"] for e in events(battle, "courage_test")] == ["break", "rally"]


# ---------------------------------------------------------------------- battle standard
def _standard_state(distance: float) -> WarState:
    """Unit a and, ``distance`` inches to its east (gap between trays), the bearer."""
    return make_state([unit("a"), unit("bsb", at=(24.0 + distance, 10.0),
                                       command={"battle_standard": True})])


@pytest.mark.rule("W4-CMD-09")
@pytest.mark.rule("W4-DEC-28")
def test_a_failed_test_near_the_battle_standard_may_be_rerolled_once() -> None:
    state = _standard_state(12.0)
    battle = make_battle(state, dice=[2, 15])
    asked = record(battle)
    assert psychology.courage_test(state, battle, get(state, "a"), 13, "t", "W4-X", "panic")
    assert [(d.kind, tuple(o.kind for o in d.options)) for d in asked] == [
        ("reroll", ("reroll", "accept"))]
    assert events(battle, "courage_reroll")[0]["die"] == 15


@pytest.mark.rule("W4-CMD-09")
@pytest.mark.rule("W4-DEC-28")
def test_the_reroll_stands_even_when_worse_and_nobody_is_asked_after_a_pass() -> None:
    state = _standard_state(0.0)
    battle = make_battle(state, dice=[9, 1, 12])
    asked = record(battle)
    a = get(state, "a")
    assert not psychology.courage_test(state, battle, a, 13, "t", "W4-X", "panic")
    assert len(asked) == 1 and events(battle, "courage_reroll")[0]["total"] == 4
    assert psychology.courage_test(state, battle, a, 13, "t", "W4-X", "panic")
    assert len(asked) == 1  # passed at once: no question


@pytest.mark.rule("W4-CMD-09")
@pytest.mark.rule("W4-DEC-28")
def test_the_owner_may_accept_the_failure() -> None:
    state = _standard_state(3.0)
    battle = make_battle(state, dice=[2], orders={"A": ["accept"]})
    assert not psychology.courage_test(state, battle, get(state, "a"), 13, "t", "W4-X")
    assert not events(battle, "courage_reroll")


@pytest.mark.rule("W4-CMD-09")
@pytest.mark.rule("W4-CMD-10")
def test_no_reroll_beyond_twelve_inches_or_once_the_standard_is_lost() -> None:
    far = _standard_state(12.5)
    battle = make_battle(far, dice=[2])
    asked = record(battle)
    assert not psychology.courage_test(far, battle, get(far, "a"), 13, "t", "W4-X")
    assert not asked
    lost = _standard_state(1.0)
    get(lost, "bsb").battle_standard = False
    battle = make_battle(lost, dice=[2])
    asked = record(battle)
    assert not psychology.courage_test(lost, battle, get(lost, "a"), 13, "t", "W4-X")
    assert not asked


@pytest.mark.rule("W4-CMD-09")
def test_the_enemy_battle_standard_gives_no_reroll() -> None:
    state = _pair(b={"command": {"battle_standard": True}})
    battle = make_battle(state, dice=[2])
    asked = record(battle)
    assert not psychology.courage_test(state, battle, get(state, "a"), 13, "t", "W4-X")
    assert not asked


# ---------------------------------------------------------------------- panic
@pytest.mark.rule("W4-PANIC-02")
@pytest.mark.rule("W4-PANIC-07")
@pytest.mark.rule("W4-PANIC-08")
@pytest.mark.rule("W4-AMB-20")
@pytest.mark.rule("W4-PANIC-01")
def test_shooting_casualties_of_a_company_or_more_cause_a_panic_test_of_ten_plus_two_each(
) -> None:
    state = make_state([unit("a", companies=3), unit("c", at=(40.0, 10.0)),
                        unit("x", "B", at=(20.0, 40.0), facing=180),
                        unit("y", "B", at=(40.0, 40.0), facing=180)])
    state.shooting_losses = {"a": {"x": 10, "y": 6}, "c": {"x": 7}}
    battle = make_battle(state, dice=[11])
    psychology.after_shooting(state, battle, "B")
    (test,) = events(battle, "courage_test")
    assert (test["unit"], test["kind"], test["dc"], test["bonus"], test["rule"]) == (
        "a", "panic", 14, 3, "W4-PANIC-02")
    assert psychology.shooting_dc(get(state, "a"), 16) == 14
    assert psychology.shooting_dc(get(state, "a"), 15) == 12


@pytest.mark.rule("W4-PANIC-02")
@pytest.mark.rule("W4-SHOOT-22")
def test_skirmishers_panic_at_four_casualties() -> None:
    skirm = profile(formation="skirmish", unit_size=[1, 20])
    state = make_state([unit("s", profile=skirm, companies=10),
                        unit("x", "B", at=(20.0, 40.0), facing=180)])
    state.shooting_losses = {"s": {"x": 3}}
    battle = make_battle(state, dice=[])
    psychology.after_shooting(state, battle, "B")
    state.shooting_losses = {"s": {"x": 4}}
    battle = make_battle(state, dice=[20])
    psychology.after_shooting(state, battle, "B")
    assert events(battle, "courage_test")[0]["dc"] == 12


@pytest.mark.rule("W4-PANIC-09")
@pytest.mark.rule("W4-AMB-10")
def test_a_shooting_panic_flees_from_the_shooter_that_slew_most_ties_to_the_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    state = make_state([unit("a", companies=2),
                        unit("x", "B", at=(20.0, 40.0), facing=180),
                        unit("y", "B", at=(60.0, 9.0), facing=270)])
    state.shooting_losses = {"a": {"x": 4, "y": 4}}
    battle = make_battle(state, dice=[1])
    psychology.after_shooting(state, battle, "B")
    a, y = get(state, "a"), get(state, "y")
    assert fled == [("a", movement.away_from(state, a, [y]), "panic")]
    assert fled[0][1] != pytest.approx(movement.away_from(state, a, [get(state, "x")]))
    assert psychology.shooting_cause({"x": 5, "y": 4}) == "x"


@pytest.mark.rule("W4-PANIC-06")
@pytest.mark.rule("W4-AMB-21")
def test_one_panic_test_a_phase() -> None:
    state = _pair()
    battle = make_battle(state, dice=[18])
    a, b = get(state, "a"), get(state, "b")
    assert psychology.panic(state, battle, a, 13, [b], "first", "W4-PANIC-03")
    assert psychology.panic(state, battle, a, 20, [b], "second", "W4-PANIC-04")
    assert len(events(battle, "courage_test")) == 1
    state.panic_tested.clear()  # the next phase
    battle = make_battle(state, dice=[2, 3, 3])
    assert not psychology.panic(state, battle, a, 13, [b], "third", "W4-PANIC-03")


@pytest.mark.rule("W4-PANIC-07")
def test_an_enemy_of_higher_unit_strength_within_six_inches_adds_two() -> None:
    state = _pair(b={"companies": 2})
    assert psychology.panic_dc(state, get(state, "a"), 13) == 15
    even = _pair()
    assert psychology.panic_dc(even, get(even, "a"), 13) == 13
    far = make_state([unit("a"), unit("b", "B", at=(20.0, 16.5), facing=180, companies=2)])
    assert psychology.panic_dc(far, get(far, "a"), 13) == 13


@pytest.mark.rule("W4-AMB-24")
@pytest.mark.rule("W4-PANIC-07")
def test_fleeing_allied_companies_beyond_the_first_add_two_each() -> None:
    state = make_state([unit("a"), unit("f", at=(26.0, 10.0), companies=2),
                        unit("g", at=(14.0, 10.0)), unit("h", at=(50.0, 10.0), companies=3)])
    a = get(state, "a")
    get(state, "g").fleeing = True
    assert psychology.panic_dc(state, a, 13) == 13  # one company: nothing
    get(state, "f").fleeing = True
    get(state, "h").fleeing = True  # too far
    assert psychology.panic_dc(state, a, 13) == 17


@pytest.mark.rule("W4-IMMUNE-04")
@pytest.mark.rule("W4-IMMUNE-05")
@pytest.mark.rule("W4-AMB-25")
def test_a_stubborn_unit_ignores_modifiers_and_its_shooting_panic_is_twelve() -> None:
    stubborn = profile(rules=["stubborn"])
    state = make_state([unit("a", profile=stubborn, companies=2),
                        unit("f", at=(26.0, 10.0), companies=3),
                        unit("b", "B", at=NORTH, facing=180, companies=4)])
    get(state, "f").fleeing = True
    state.shooting_losses = {"a": {"b": 16}}
    battle = make_battle(state, dice=[11])
    psychology.after_shooting(state, battle, "B")
    assert events(battle, "courage_test")[0]["dc"] == 12
    assert psychology.panic_dc(state, get(state, "a"), 13) == 13


@pytest.mark.rule("W4-PANIC-03")
@pytest.mark.rule("W4-AMB-22")
@pytest.mark.rule("W4-PANIC-09")
def test_allies_within_six_inches_of_a_destroyed_unit_test_and_flee_from_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    state = make_state([unit("dead"), unit("near", at=(29.0, 10.0)),
                        unit("far", at=(33.0, 10.0)),
                        unit("foe", "B", at=(15.0, 14.0), facing=180)])
    battle = make_battle(state, dice=[4])
    psychology.unit_destroyed(state, battle, get(state, "dead"))
    assert [(e["unit"], e["dc"], e["rule"]) for e in events(battle, "courage_test")] == [
        ("near", 13, "W4-PANIC-03")]
    assert fled == [("near", pytest.approx(movement.away_from(state, get(state, "near"),
                                                              [get(state, "dead")])), "panic")]
    assert 0.0 < fled[0][1] < 180.0  # eastwards, away from the dead unit on its west


@pytest.mark.rule("W4-PANIC-04")
@pytest.mark.rule("W4-AMB-23")
def test_allies_near_a_unit_fleeing_from_combat_test_unless_in_that_combat() -> None:
    state = make_state([unit("runner"), unit("mate", at=(26.0, 10.0)),
                        unit("watcher", at=(14.0, 10.0)),
                        unit("foe", "B", at=NORTH, facing=180)])
    battle = make_battle(state, dice=[15])
    psychology.fled_from_combat(state, battle, get(state, "runner"), ["runner", "mate", "foe"])
    assert [(e["unit"], e["dc"], e["rule"]) for e in events(battle, "courage_test")] == [
        ("watcher", 13, "W4-PANIC-04")]


@pytest.mark.rule("W4-PANIC-05")
def test_a_unit_flees_through_must_pass_dc_thirteen(monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    state = make_state([unit("a"), unit("runner", at=(20.0, 30.0))])
    battle = make_battle(state, dice=[9])
    assert not psychology.panic(state, battle, get(state, "a"), psychology.PANIC_DC,
                                [get(state, "runner")], "flee through", "W4-PANIC-05")
    assert events(battle, "courage_test")[0]["dc"] == 13 and fled[0][0] == "a"


@pytest.mark.rule("W4-PANIC-05")
@pytest.mark.rule("W4-FLEE-08")
@pytest.mark.rule("W4-AMB-90")
def test_a_unit_fled_through_that_fails_flees_the_same_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    state = make_state([unit("a"), unit("b")])
    battle = make_battle(state, dice=[10, 9])
    assert psychology.flee_through(state, battle, get(state, "a"), 135.0)
    assert not psychology.flee_through(state, battle, get(state, "b"), 135.0)
    assert [(e["unit"], e["dc"], e["rule"]) for e in events(battle, "courage_test")] == [
        ("a", 13, "W4-PANIC-05"), ("b", 13, "W4-PANIC-05")]
    assert fled == [("b", 135.0, "panic")]


def test_fleeing_units_take_no_panic_test() -> None:
    state = _pair()
    get(state, "a").fleeing = True
    battle = make_battle(state, dice=[])
    assert not psychology.panic(state, battle, get(state, "a"), 13, [get(state, "b")], "x",
                                "W4-PANIC-03")
    assert not events(battle, "courage_test")


# ---------------------------------------------------------------------- fear and terror
@pytest.mark.rule("W4-FEAR-02")
@pytest.mark.rule("W4-FEAR-05")
@pytest.mark.rule("W4-FEAR-06")
@pytest.mark.rule("W4-FEAR-01")
def test_fear_is_dc_thirteen_terror_sixteen_and_failure_flees_from_the_causer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    state = _pair(b={"profile": profile(rules=["fear"])})
    battle = make_battle(state, dice=[10, 9])
    a, b = get(state, "a"), get(state, "b")
    assert psychology.fear_test(state, battle, a, b, "charged", "W4-FEAR-02")
    b.profile = b.profile.model_copy(update={"rules": ["terror"]})
    assert not psychology.fear_test(state, battle, a, b, "charged", "W4-FEAR-02")
    assert [(e["kind"], e["dc"]) for e in events(battle, "courage_test")] == [
        ("fear", 13), ("terror", 16)]
    assert fled == [("a", pytest.approx(180.0), "terror")]


@pytest.mark.rule("W4-FEAR-03")
@pytest.mark.rule("W4-FEAR-07")
def test_a_would_be_charger_that_fails_does_not_flee(monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    state = _pair(b={"profile": profile(rules=["fear"])})
    battle = make_battle(state, dice=[2])
    assert not psychology.fear_test(state, battle, get(state, "a"), get(state, "b"),
                                    "wants to charge", "W4-FEAR-03", flee=False)
    assert not fled and not get(state, "a").fleeing


@pytest.mark.rule("W4-FEAR-08")
@pytest.mark.rule("W4-FEAR-09")
@pytest.mark.rule("W4-BREAK-01")
def test_break_dc_against_fear_and_terror_and_the_natural_twenty_rule() -> None:
    state = make_state([unit("f", profile=profile(rules=["fear"]), companies=2),
                        unit("t", profile=profile(rules=["terror"])), unit("p")])
    f, t, p = get(state, "f"), get(state, "t"), get(state, "p")
    assert psychology.break_dc(3, p, 16) == (13, False)
    assert psychology.break_dc(3, None, 16) == (13, False)
    assert psychology.break_dc(3, f, 8) == (15, True)
    assert psychology.break_dc(3, f, 16) == (15, False)
    assert psychology.break_dc(1, t, 8) == (15, False)
    assert psychology.break_dc(1, t, 7) == (15, True)


@pytest.mark.rule("W4-FEAR-04")
@pytest.mark.rule("W4-FEAR-05")
@pytest.mark.rule("W4-AMB-44")
@pytest.mark.rule("W4-FEAR-06")
def test_terror_within_six_inches_at_the_start_of_the_turn_initiative_side_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fled = _spy_fall_back(monkeypatch)
    terror = profile(rules=["terror"])
    state = make_state([unit("a", profile=terror), unit("a2", at=(50.0, 10.0)),
                        unit("b", "B", at=NORTH, facing=180, profile=terror),
                        unit("far", "B", at=(50.0, 40.0), facing=180)])
    state.initiative = "B"
    battle = make_battle(state, dice=[13, 12])
    psychology.start_of_turn(state, battle)
    assert [(e["unit"], e["kind"], e["dc"], e["passed"]) for e in events(
        battle, "courage_test")] == [("b", "terror", 16, True), ("a", "terror", 16, False)]
    assert fled == [("a", pytest.approx(180.0), "terror")]


@pytest.mark.rule("W4-AMB-43")
def test_fear_causers_test_unless_the_option_makes_them_immune() -> None:
    terror = profile(rules=["terror"])
    state = _pair(a={"profile": terror}, b={"profile": terror})
    battle = make_battle(state, dice=[20, 20])
    psychology.start_of_turn(state, battle)
    assert len(events(battle, "courage_test")) == 2
    immune = _pair(a={"profile": terror}, b={"profile": terror},
                   options={"fear_causers_immune": True})
    battle = make_battle(immune, dice=[])
    psychology.start_of_turn(immune, battle)
    assert [e["reason"] for e in events(battle, "courage_immune")] == ["causes terror"] * 2
    fear = _pair(a={"profile": profile(rules=["fear"])}, options={"fear_causers_immune": True})
    f = get(fear, "a")
    assert psychology.immune(fear, f, "fear") == "causes fear"
    assert psychology.immune(fear, f, "terror") is None


# ---------------------------------------------------------------------- ongoing, saves
@pytest.mark.rule("W4-AMB-56")
@pytest.mark.rule("W4-CAS-10")
def test_ongoing_damage_after_initiative_and_one_saving_throw_at_the_end() -> None:
    state = make_state([unit("a", profile=profile(saves=2)), unit("c", at=(40.0, 10.0))])
    a, c = get(state, "a"), get(state, "c")
    a.conditions |= {"slowed", "marked"}
    a.ongoing = c.ongoing = 5
    battle = make_battle(state, dice=[8, 3, 9])
    psychology.start_of_turn(state, battle)
    assert [(e["unit"], e["hits"], e["source"]) for e in events(battle, "casualties")] == [
        ("a", 1, "ongoing"), ("c", 1, "ongoing")]
    psychology.end_of_turn(state, battle)
    assert a.conditions == {"slowed", "marked"} and (a.ongoing, c.ongoing) == (0, 5)
    assert [(e["unit"], e["effect"], e["roll"] + e["bonus"], e["saved"])
            for e in events(battle, "saving_throw")] == [
        ("a", "ongoing", 10, True), ("a", "slowed", 5, False), ("c", "ongoing", 9, False)]
