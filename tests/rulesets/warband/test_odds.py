"""Exact odds of one attack (the `warband` exact-odds hook): hand-worked numbers, and seeded
runs of the real pipeline that agree with them within the binomial spread."""

from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, load, make_battle, make_state, scenario_data
from warhost.core.dice import SeededDice
from warhost.core.errors import WarhostError
from warhost.core.scenario import load_scenario
from warhost.rulesets.warband import combat
from warhost.rulesets.warband.attacks import resolve_attack
from warhost.rulesets.warband.injury import apply_batch
from warhost.rulesets.warband.odds import attack_odds, exact_odds, roll_choices
from warhost.rulesets.warband.state import INCAPACITATED, STANDING, STUNNED, WarbandState

EXAMPLE = Path(__file__).parents[3] / "examples" / "warband" / "hero-skirmish.yaml"
SWORD = {"name": "sword", "kind": "melee"}
BOW = {"name": "bow", "kind": "ranged", "strength": 4, "range": 12, "attack_limit": 2}


def scenario(chars: list[dict[str, Any]], **kwargs: Any) -> Any:
    return load(scenario_data(chars, **kwargs))


@pytest.mark.rule("WB-TEST-02", "WB-CIRC-06")
def test_grouped_faces_of_a_test() -> None:
    groups = roll_choices(1, 10, 6)
    assert sorted(p for _, p in groups) == [F(1, 10), F(2, 5), F(1, 2)]
    assert sorted(roll[0] for roll, _ in groups) == [1, 2, 7]  # a 1, another pass, a fail
    assert sum(p for _, p in roll_choices(2, 10, 6)) == 1
    assert len(roll_choices(1, 10, None)) == 10


@pytest.mark.rule("WB-CIRC-18", "WB-CIRC-07", "WB-ATTACK-07")
def test_the_example_charge_worked_by_hand() -> None:
    """Mara (Melee 7, Strength 5) charges Grath (Toughness 4, Armour 2, Parry with Melee 6):
    to hit 8 (4/5, a 1 is critical), damage 6 (3/5), Defense 6 (3/5)."""
    report = exact_odds(load_scenario(EXAMPLE), "mara", "grath", {"charging": True})
    out = report.outcomes
    assert out["success"] == F(4, 5) and out["failure"] == F(1, 5)
    assert out["no_damage"] == F(4, 5) * F(2, 5)
    normal, crit = F(7, 10), F(1, 10)
    assert out["saved_defense"] == normal * F(3, 5) * F(3, 5) + crit * F(3, 5) * F(9, 25)
    assert out["one_wound"] == normal * F(3, 5) * F(2, 5) + crit * F(3, 5) * 2 * F(6, 25)
    assert out["two_wounds"] == crit * F(3, 5) * F(4, 25)
    assert out["saved_ward"] == 0
    assert report.details["critical"]["fraction"] == "1/10"
    assert report.modifiers == ["to hit +1 charging [WB-CIRC-18]",
                                "damage +1 charging [WB-CIRC-18]"]
    assert report.details["legal"] is False  # 9 squares apart: the keys alone count


@pytest.mark.rule("WB-INJURY-01", "WB-INJURY-02", "WB-CIRC-08")
def test_injury_outcomes_for_a_target_on_one_wound() -> None:
    sc = scenario([char("a", (5, 5), "A", melee=5, strength=4),
                   char("b", (5, 6), "B", facing="S", toughness=3, wounds=1)])
    report = exact_odds(sc, "a", "b", {})
    after = {k: F(v["fraction"]) for k, v in report.details["target_after"].items()}
    normal = F(4, 10) * F(4, 10) * F(7, 10)  # a hit of 2-5, a wound, a failed save
    crit = F(1, 10) * F(4, 10) * (1 - F(3, 10) ** 2)  # at least one of two wounds confirmed
    assert after["knocked_down"] == normal * F(4, 10) + crit * F(2, 10)
    assert after["stunned"] == normal * F(3, 10) + crit * F(3, 10)
    assert after["incapacitated"] == normal * F(3, 10) + crit * F(5, 10)
    assert after["unhurt"] == 1 - normal - crit
    assert after["wounded"] == after["overkill"] == 0


@pytest.mark.rule("WB-CIRC-02", "WB-CIRC-03")
def test_overkill_odds() -> None:
    maul = {"name": "maul", "kind": "melee", "strength": 9}
    sc = scenario([char("a", (5, 5), "A", melee=5, weapons=[maul]),
                   char("b", (5, 6), "B", facing="S", toughness=3, armour=4, ward=2,
                        wounds=3)])
    report = exact_odds(sc, "a", "b", {})
    assert report.outcomes["saved_defense"] == 0
    after = {k: F(v["fraction"]) for k, v in report.details["target_after"].items()}
    normal = F(4, 10) * F(9, 10) * F(8, 10)
    crit = F(1, 10) * F(9, 10) * (1 - F(2, 10) ** 2)
    assert after["overkill"] == normal + crit
    assert report.details["targets"]["defense"] is None


@pytest.mark.rule("WB-INJURY-10", "WB-INJURY-06")
def test_a_stunned_target_is_hit_and_wounded_for_sure() -> None:
    sc = scenario([char("a", (5, 5), "A"), char("b", (5, 6), "B", facing="S", toughness=3,
                                                armour=1, wounds=2)])
    report = exact_odds(sc, "a", "b", {"target_condition": "stunned", "target_wounds": 0})
    assert report.outcomes["success"] == 1
    assert report.outcomes["saved_defense"] == F(2, 5)
    assert report.outcomes["one_wound"] == F(3, 5)
    after = {k: F(v["fraction"]) for k, v in report.details["target_after"].items()}
    assert after["incapacitated"] == F(3, 5)
    kd = exact_odds(sc, "a", "b", {"target_condition": "knocked_down", "target_wounds": 0})
    assert kd.outcomes["success"] == 1 and kd.details["critical"]["fraction"] == "0"
    after = {k: F(v["fraction"]) for k, v in kd.details["target_after"].items()}
    assert after["stunned"] == F(2, 5) * F(3, 5)  # damage 4 vs Strength 4, Defense fails


@pytest.mark.rule("WB-CIRC-17", "WB-CIRC-04", "WB-CIRC-21", "WB-CIRC-20", "WB-RANGED-08")
def test_the_keys_set_each_modifier() -> None:
    sc = scenario([char("a", (5, 5), "A", weapons=[SWORD, BOW]),
                   char("b", (5, 6), "B", facing="S")])
    melee = exact_odds(sc, "a", "b", {"flanking": True, "outnumbered": True,
                                      "high_ground": True})
    assert melee.modifiers == ["to hit +1 high ground [WB-CIRC-01]",
                               "defense -1 outnumbered [WB-CIRC-04]",
                               "defense -1 flanked [WB-CIRC-17]"]
    shot = exact_odds(sc, "a", "b", {"weapon": "bow", "cover": True, "stand_and_shoot": True,
                                     "into_melee": True, "target_condition": "prone"})
    assert shot.modifiers == ["to hit -1 stand and shoot [WB-RANGED-08]",
                              "to hit -1 cover [WB-CIRC-21]", "defense +1 prone [WB-MOVE-19]"]
    assert shot.outcomes["success"] == F(3, 10)


def test_position_gives_the_modifiers_when_the_attack_can_be_made() -> None:
    sc = scenario([char("a", (5, 5), "A"), char("c", (4, 6), "A"),
                   char("b", (5, 6), "B", facing="N")])
    report = exact_odds(sc, "a", "b", {})
    assert report.details["legal"] is True
    assert report.modifiers == ["defense -1 outnumbered [WB-CIRC-04]",
                                "defense -1 flanked [WB-CIRC-17]"]
    moved = exact_odds(sc, "a", "b", {"at_attacker": "5,4"})
    assert moved.details["legal"] is False and moved.modifiers == []
    assert "not within reach" in moved.notes[0]
    ignored = exact_odds(sc, "a", "b", {"ignore_position": True})
    assert ignored.modifiers == []


def test_refusals_name_the_problem() -> None:
    sc = scenario([char("a", (5, 5), "A", weapons=[BOW]), char("b", (5, 6), "B"),
                   char("e", (1, 1), "B", traits=["ethereal"])])
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"charging": True, "weapon": "bow"}, "charging", "only to melee"),
        ({"flanking": True, "mode": "ranged"}, "flanking", "WB-AMB-35"),
        ({"weapon": "bwo"}, "weapon", "did you mean 'bow'?"),
        ({"mode": "magic"}, "mode", "melee or ranged"),
        ({"target_condition": "asleep"}, "target_condition", "knocked_down"),
        ({"target_wounds": 5}, "target_wounds", "0 to 1"),
        ({"attacker_prone": True, "mode": "ranged"}, "attacker_prone", "WB-MOVE-20"),
        ({"charing": True}, "charing", "did you mean 'charging'?"),
        ({"at_attacker": "5,6"}, "at_attacker", "taken by b"),
    ]
    for situation, field, text in cases:
        with pytest.raises(WarhostError) as err:
            exact_odds(sc, "a", "b", situation)
        assert err.value.field == field and text in err.value.message, (situation, err.value)
    with pytest.raises(WarhostError, match="did you mean 'b'") as err:
        exact_odds(sc, "a", "bb", {})
    with pytest.raises(WarhostError, match="WB-SPECIAL-05"):
        exact_odds(sc, "a", "e", {})


# --------------------------------------------------------------------------- simulation


def simulate(state: WarbandState, n: int, seed: int) -> tuple[dict[str, int], dict[str, int]]:
    """``n`` seeded attacks of a on b with the real pipeline; b is reset after each."""
    a, b = state.chars["a"], state.chars["b"]
    home, wounds, condition = b.square, b.wounds, b.condition
    assert home is not None
    battle = make_battle(state)
    battle.dice = SeededDice(seed)
    weapon = a.melee_weapons(True)[0]
    profile = combat.melee_profile(a, weapon)
    results: dict[str, int] = {}
    after: dict[str, int] = {}
    for _ in range(n):
        circ = combat.melee_circumstances(state, a, b)
        r = resolve_attack(state, battle, a, b, profile, circ)
        key = ("miss" if not r.hit else "no_damage" if r.wounds == 0 else
               ("saved_ward" if r.saved_ward else "saved_defense") if r.confirmed == 0 else
               "one_wound" if r.confirmed == 1 else "two_wounds")
        results[key] = results.get(key, 0) + 1
        apply_batch(state, battle, b, r.confirmed, critical=r.critical and r.confirmed > 0,
                    overkill=r.overkill)
        state_key = ("unhurt" if r.confirmed == 0 else
                     ("overkill" if r.overkill else "incapacitated")
                     if b.condition == INCAPACITATED else
                     b.condition if b.condition != condition else "wounded")
        after[state_key] = after.get(state_key, 0) + 1
        b.condition, b.wounds = condition, wounds
        state.place(b, home)
    return results, after


def close(count: int, n: int, p: F) -> bool:
    """Within 4 binomial standard deviations (and one count) of the exact chance."""
    sd = math.sqrt(float(p) * (1 - float(p)) * n)
    return abs(count - float(p) * n) <= 4 * sd + 1


@pytest.mark.rule("WB-ATTACK-03", "WB-CIRC-06", "WB-CIRC-07", "WB-ATTACK-10")
@pytest.mark.parametrize("setup", ["plain", "ward", "stunned", "poisoned"])
def test_seeded_attacks_agree_with_the_exact_odds(setup: str) -> None:
    weapons = [{"name": "knife", "kind": "melee", "poisoned": True}] if setup == "poisoned" \
        else [SWORD]
    state = make_state([char("a", (5, 5), "A", melee=6, strength=5, weapons=weapons),
                        char("b", (5, 6), "B", facing="S", toughness=3, armour=1,
                             ward=4 if setup == "ward" else 0, wounds=2, melee=7,
                             talents=["parry"])])
    a, b = state.chars["a"], state.chars["b"]
    if setup == "stunned":
        b.condition, b.wounds = STUNNED, 0
    odds = attack_odds(state, a, b, combat.melee_profile(a, a.weapons[0]),
                       combat.melee_circumstances(state, a, b))
    n = 3000
    results, after = simulate(state, n, seed=11)
    assert b.condition == (STUNNED if setup == "stunned" else STANDING)
    exact = {"miss": 1 - odds.hit, **odds.results}
    assert sum(exact.values()) == 1
    for key, p in exact.items():
        assert close(results.get(key, 0), n, p), (key, results, p)
    for key, p in odds.after.items():
        assert close(after.get(key, 0), n, p), (key, after, p)


@pytest.mark.rule("WB-RANGED-03")
def test_an_engaged_shot_without_a_melee_safe_weapon_is_flagged() -> None:
    sc = scenario([char("a", (5, 5), "A", weapons=[SWORD, BOW]),
                   char("b", (5, 6), "B", facing="S"), char("c", (5, 9), "B")])
    report = exact_odds(sc, "a", "c", {"mode": "ranged"})
    assert report.details["legal"] is False and "WB-RANGED-03" in report.notes[0]
    assert report.modifiers == []  # c is not Engaged: no -2
    safe = exact_odds(sc, "a", "b", {"mode": "ranged", "stand_and_shoot": True})
    assert safe.details["legal"] is True
    assert safe.modifiers == ["to hit -1 stand and shoot [WB-RANGED-08]"]
