"""Exact odds of `dnd4e-war` (``warhost odds``): hits, casualties, charge reach, break tests
and fall back! distances, checked against numbers worked out by hand."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tests.rulesets.dnd4e_war.helpers import get, make_state, profile, unit
from warhost.cli import app
from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import SeededDice
from warhost.core.engine import Battle
from warhost.core.errors import WarhostError
from warhost.core.registry import get_ruleset
from warhost.core.scenario import load_scenario
from warhost.rulesets.dnd4e_war.attacks import roll_attacks
from warhost.rulesets.dnd4e_war.odds import (
    break_dc,
    break_odds,
    casualty_distribution,
    charge_distribution,
    charge_reach_chance,
    courage_pass_chance,
    exact_odds,
    fall_back_distribution,
    hit_distribution,
    mean,
    unit_odds,
)

EXAMPLE = Path(__file__).parents[3] / "examples" / "dnd4e-war" / "hill-archers.yaml"
runner = CliRunner()


def odds_cli(*args: str) -> Result:
    return runner.invoke(app, ["odds", str(EXAMPLE), *args])


# --------------------------------------------------------------------------- hits


@pytest.mark.rule("W4-HIT-01")
def test_thirteen_dice_needing_nine_hit_seven_point_eight_times_on_average() -> None:
    dist = hit_distribution(13, defense=25, bonus=16)
    assert sum(dist.values()) == 1
    assert mean(dist) == Fraction(13 * 12, 20) == Fraction(39, 5)
    assert dist[0] == Fraction(8, 20) ** 13
    assert dist[13] == Fraction(12, 20) ** 13
    assert dist[9] == math.comb(13, 9) * Fraction(12, 20) ** 9 * Fraction(8, 20) ** 4


@pytest.mark.rule("W4-HIT-02")
@pytest.mark.rule("W4-HIT-04")
def test_ordinary_dice_never_hit_below_eight_but_a_characters_do() -> None:
    # AC 13 against +10: the chart formula alone would need 3; ordinary models need 8.
    assert hit_distribution(1, defense=13, bonus=10)[1] == Fraction(13, 20)
    assert hit_distribution(1, defense=13, bonus=10, character_dice=1)[1] == Fraction(18, 20)
    # A character still misses on a natural 1 (W4-AMB-03).
    assert hit_distribution(1, defense=5, bonus=10, character_dice=1)[1] == Fraction(19, 20)
    mixed = hit_distribution(3, defense=13, bonus=10, character_dice=1)
    assert mean(mixed) == 2 * Fraction(13, 20) + Fraction(18, 20)


@pytest.mark.rule("W4-HIT-03")
def test_only_a_natural_twenty_hits_when_the_chart_needs_more() -> None:
    assert hit_distribution(2, defense=30, bonus=1) == {
        0: Fraction(19, 20) ** 2, 1: 2 * Fraction(19, 400), 2: Fraction(1, 400)}


# --------------------------------------------------------------------------- casualties


@pytest.mark.rule("W4-CAS-02")
@pytest.mark.rule("W4-CAS-03")
@pytest.mark.rule("W4-CAS-04")
def test_seven_hits_on_giant_spiders_slay_three() -> None:
    assert casualty_distribution({7: Fraction(1)}, resilience=2, models=6) == {3: Fraction(1)}


@pytest.mark.rule("W4-CAS-01")
@pytest.mark.rule("W4-CAS-02")
def test_casualties_follow_the_hits_through_resilience_and_the_models_left() -> None:
    hits = hit_distribution(6, defense=20, bonus=10)  # needs 10: 11/20 each
    assert casualty_distribution(hits, resilience=1, models=10) == hits
    two = casualty_distribution(hits, resilience=2, models=10)
    assert two == {k: hits[2 * k] + hits.get(2 * k + 1, Fraction(0)) for k in range(4)}
    capped = casualty_distribution(hits, resilience=1, models=4)
    assert capped[4] == hits[4] + hits[5] + hits[6] and max(capped) == 4


# --------------------------------------------------------------------------- charge


@pytest.mark.rule("W4-CHARGE-06")
@pytest.mark.rule("W4-CHARGE-07")
@pytest.mark.rule("W4-CHARGE-09")
def test_a_speed_six_charge_reaches_five_inches_five_times_in_six() -> None:
    assert charge_distribution(6) == {0.0: Fraction(1, 6), 5.0: Fraction(1, 6),
                                      6.0: Fraction(1, 6), 7.0: Fraction(1, 6),
                                      8.0: Fraction(1, 6), 9.0: Fraction(1, 6)}
    assert charge_reach_chance(6, 5) == Fraction(5, 6)
    assert charge_reach_chance(6, 1) == Fraction(5, 6)  # a 1 fails even an inch away
    assert charge_reach_chance(6, 8.5) == Fraction(1, 6)
    assert charge_reach_chance(6, 9.5) == 0


@pytest.mark.rule("W4-AMB-11")
def test_slow_and_fractional_speeds_keep_the_linear_modifier() -> None:
    assert charge_distribution(2.5) == {0.0: Fraction(1, 6), 1.5: Fraction(1, 6),
                                        2.5: Fraction(1, 6), 3.5: Fraction(1, 6),
                                        4.5: Fraction(1, 6), 5.5: Fraction(1, 6)}
    # Speed 1: a roll of 2 comes to 0 inches and reaches nothing, however close.
    assert charge_reach_chance(1, 0.1) == Fraction(4, 6)


# --------------------------------------------------------------------------- break tests


@pytest.mark.rule("W4-BREAK-01")
def test_a_break_test_is_courage_against_ten_plus_the_margin() -> None:
    assert break_dc(3) == 13
    assert courage_pass_chance(6, break_dc(3)) == Fraction(14, 20)
    assert courage_pass_chance(15, 13) == 1  # no automatic failure (W4-AMB-42)
    assert courage_pass_chance(0, 21) == 0


@pytest.mark.rule("W4-FEAR-08")
def test_fear_and_terror_raise_the_break_dc() -> None:
    assert break_dc(1, "fear") == 13
    assert break_dc(1, "terror") == 15
    assert courage_pass_chance(6, break_dc(1, "terror")) == Fraction(12, 20)


@pytest.mark.rule("W4-FEAR-09")
@pytest.mark.rule("W4-IMMUNE-01")
def test_natural_twenty_only_and_fearless() -> None:
    assert courage_pass_chance(15, 11, natural_20_only=True) == Fraction(1, 20)
    assert courage_pass_chance(0, 30, natural_20_only=True, fearless=True) == 1


@pytest.mark.rule("W4-CMD-09")
def test_one_re_roll_of_a_failed_test() -> None:
    p = Fraction(14, 20)
    assert courage_pass_chance(6, 13, reroll=True) == p + (1 - p) * p
    assert courage_pass_chance(6, 13, natural_20_only=True, reroll=True) == \
        Fraction(1, 20) + Fraction(19, 20) * Fraction(1, 20)


@pytest.mark.rule("W4-COUR-09")
def test_break_odds_use_the_units_courage_bonus_humans_with_a_musician() -> None:
    state = make_state([unit("h", command={"musician": True}),
                        unit("o", "B", at=(20, 30), facing=180)])
    h, o = get(state, "h"), get(state, "o")
    chance, _, terms = break_odds(state, o, h, {"margin": 3})
    assert terms["bonus"] == 4 and chance == Fraction(21 - (13 - 4), 20)
    _, _, plain = break_odds(state, h, o, {"margin": 3})
    assert plain["bonus"] == 3


@pytest.mark.rule("W4-FEAR-08")
@pytest.mark.rule("W4-FEAR-09")
@pytest.mark.rule("W4-CMD-09")
def test_break_odds_read_fear_strength_and_the_battle_standard_from_the_units() -> None:
    troll = profile("Troll", size="large", monster=True, rules=["fear"], unit_size=[1, 4],
                    company={"columns": 2, "rows": 1})
    state = make_state([
        unit("men", at=(20, 10), models=4, companies=1),
        unit("banner", at=(34, 10), command={"battle_standard": True}),
        unit("trolls", "B", at=(20, 30), facing=180, profile=troll, companies=2),
    ])
    men, trolls = get(state, "men"), get(state, "trolls")
    chance, lines, terms = break_odds(state, trolls, men, {"margin": 2})
    assert terms["dc"] == 14 and terms["fear"] == "fear"
    assert terms["natural_20_only"] and terms["reroll"]  # 4 x 3 strength beats 4 x 1
    assert chance == Fraction(1, 20) + Fraction(19, 20) * Fraction(1, 20)
    assert any("W4-FEAR-09" in line for line in lines)
    plain, _, terms = break_odds(state, trolls, men, {"margin": 2, "natural_20_only": False,
                                                      "reroll": False})
    assert terms["bonus"] == 3 and plain == Fraction(10, 20)  # d20 + 3 >= 14: 11 to 20


@pytest.mark.rule("W4-IMMUNE-01")
def test_a_seam_for_the_courage_bonus() -> None:
    state = make_state([unit("a", profile=profile(rules=["fearless"])),
                        unit("b", "B", at=(20, 30), facing=180)])
    a, b = get(state, "a"), get(state, "b")
    report = unit_odds(state, b, a, {"margin": 9})
    assert report.details["break_test"]["passes"]["fraction"] == "1"
    chance, _, _ = break_odds(state, a, b, {"margin": 1}, courage=lambda s, u: 10)
    assert chance == 1  # d20 + 10 >= 11 always


# --------------------------------------------------------------------------- fall back


@pytest.mark.rule("W4-FLEE-04")
def test_fall_back_at_speed_six_is_two_d6() -> None:
    dist = fall_back_distribution(6)
    assert dist[2.0] == Fraction(1, 36) and dist[7.0] == Fraction(6, 36)
    assert mean(dist) == 7


@pytest.mark.rule("W4-FLEE-04")
@pytest.mark.rule("W4-AMB-09")
def test_fall_back_below_speed_six_is_clamped_at_zero() -> None:
    dist = fall_back_distribution(3)
    assert min(dist) == 0.0 and dist[0.0] == Fraction(15, 36)
    assert dist[6.0] == Fraction(1, 36) and sum(dist.values()) == 1


# --------------------------------------------------------------------------- the hook


@pytest.mark.rule("W4-SHOOT-12")
@pytest.mark.rule("W4-SHOOT-13")
@pytest.mark.rule("W4-SHOOT-14")
@pytest.mark.rule("W4-HIT-01")
def test_the_elf_archers_roll_thirteen_dice_needing_nine() -> None:
    scenario = load_scenario(EXAMPLE)
    report = exact_odds(scenario, "archers", "drow", {})
    assert report.details["dice"] == 13 and report.details["character_dice"] == 2
    assert report.details["needed"] == 9
    assert report.details["expected_hits"]["fraction"] == "39/5"
    assert report.outcomes["failure"] == Fraction(8, 20) ** 13
    assert report.check() == []
    flat = exact_odds(scenario, "archers", "drow", {"higher_ground": False})
    assert flat.details["dice"] == 9  # 7 front-row elves + the captain's 2


@pytest.mark.rule("W4-CHARGE-19")
@pytest.mark.rule("W4-CAS-02")
def test_a_charge_adds_one_and_resilience_halves_the_casualties() -> None:
    scenario = load_scenario(EXAMPLE)
    report = exact_odds(scenario, "spears", "spiders",
                        {"kind": "melee", "dice": 8, "charge": True, "distance": 5})
    # Spear +14 (+1 charge) against AC 20: needs 8 (5 would be below the floor).
    assert report.details["needed"] == 8
    hits = hit_distribution(8, 20, 15)
    casualties = {int(k): Fraction(v["fraction"])
                  for k, v in report.details["casualties"].items()}
    assert casualties == casualty_distribution(hits, 2, 4)
    reach = report.details["charge_reach"]['reaches 5"']
    assert Fraction(reach["fraction"]) == Fraction(5, 6)  # Speed 7: d6 + 4 >= 5 unless a 1


def test_situation_errors_name_the_key() -> None:
    scenario = load_scenario(EXAMPLE)
    with pytest.raises(WarhostError) as err:
        exact_odds(scenario, "archers", "drow", {"cuver": 2})
    assert err.value.field == "cuver" and "cover" in err.value.message
    with pytest.raises(WarhostError) as err:
        exact_odds(scenario, "archers", "drow", {"cover": "hedge"})
    assert err.value.field == "cover"
    with pytest.raises(WarhostError) as err:
        exact_odds(scenario, "archers", "spears", {})
    assert err.value.field == "defender"


@pytest.mark.rule("W4-AMB-46")
@pytest.mark.rule("W4-SHOOT-17")
def test_cover_by_name_uses_the_scenario_values() -> None:
    scenario = load_scenario(EXAMPLE)
    report = exact_odds(scenario, "archers", "drow", {"cover": "superior_cover"})
    assert report.details["needed"] == 14  # 25 + 5 - 16
    changed = exact_odds(scenario, "archers", "drow", {
        "cover": "cover", "options": {"cover_values": {"cover": 4, "superior_cover": 5,
                                                       "concealment": 2,
                                                       "total_concealment": 5}}})
    assert changed.details["needed"] == 13  # 25 + 4 - 16
    assert exact_odds(scenario, "archers", "drow", {"cover": 3}).details["needed"] == 12


@pytest.mark.rule("W4-SHOOT-06")
def test_a_target_out_of_range_is_reported_with_a_note() -> None:
    scenario = load_scenario(EXAMPLE)
    report = exact_odds(scenario, "archers", "drow", {})  # 30" away, the longbow reaches 20"
    assert report.details["in_range"] is False
    assert "beyond the 20\" range of Longbow" in report.notes[0]


@pytest.mark.rule("W4-CHARGE-19")
def test_the_charge_flag_means_a_melee_attack() -> None:
    scenario = load_scenario(EXAMPLE)
    report = exact_odds(scenario, "archers", "drow", {"charge": True, "dice": 4})
    assert report.kind == "melee, Short sword"
    assert report.details["needed"] == 12  # AC 25 - (12 + 1)
    with pytest.raises(WarhostError) as err:
        exact_odds(scenario, "archers", "drow", {"charge": True, "kind": "ranged"})
    assert err.value.field == "charge"


def test_the_command_prints_every_distribution() -> None:
    result = odds_cli("--attacker", "archers", "--defender", "drow")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "archers attacks drow (ranged, Longbow)" in out
    assert "13d20 needing 9+" in out
    for title in ("Casualties (exact)", "Charge distance (exact)", "Break test (exact)",
                  "Fall back (exact)"):
        assert title in out
    data = json.loads(odds_cli("--attacker", "spiders", "--defender", "spears", "--kind",
                               "melee", "--set", "distance=5", "--set", "margin=2",
                               "--json").stdout)
    assert data["ruleset"] == "dnd4e-war"
    assert data["details"]["break_terms"]["dc"] == 14  # 10 + 2 + 2 for the spiders' fear
    assert Fraction(data["details"]["charge_reach"]['reaches 5"']["fraction"]) == \
        Fraction(5, 6)


# --------------------------------------------------------------------------- Monte Carlo


@pytest.mark.rule("W4-HIT-02")
def test_seeded_attack_rolls_agree_with_the_exact_mean() -> None:
    battle = Battle(get_ruleset("dnd4e-war"), None, 0,  # type: ignore[arg-type]
                    {"A": FirstOptionCommander(), "B": FirstOptionCommander()},
                    dice=SeededDice(14))
    trials, dice, ac, bonus = 3000, 13, 14, 10  # the floor of 8 binds: p = 13/20
    total = sum(roll_attacks(battle, dice, ac, bonus, "test").hits for _ in range(trials))
    exact = mean(hit_distribution(dice, ac, bonus))
    assert exact == Fraction(13 * 13, 20)
    p = 13 / 20
    sd = math.sqrt(dice * p * (1 - p) / trials)
    assert abs(total / trials - float(exact)) < 4 * sd


@pytest.mark.rule("W4-SHOOT-06")
@pytest.mark.rule("W4-SHOOT-12")
@pytest.mark.rule("W4-CHARGE-09")
def test_positions_from_the_situation_change_range_ground_and_reach() -> None:
    scenario = load_scenario(EXAMPLE)
    near = exact_odds(scenario, "archers", "drow", {"at_defender": "36,25"})
    assert near.details["in_range"] is True and near.details["dice"] == 13
    # Off the hill, both on the flat: the front rows and the captain only.
    down = exact_odds(scenario, "archers", "drow", {"at_attacker": "36,20",
                                                     "at_defender": "36,10"})
    assert down.details["dice"] == 9
    # Spiders (Speed 6) facing the archers' front edge (y = 40) from 5" south of it.
    close = exact_odds(scenario, "spiders", "archers", {"at_attacker": "36,35",
                                                         "facing_attacker": 0})
    assert Fraction(close.details["charge_reach"]['reaches 5"']["fraction"]) == Fraction(5, 6)
    with pytest.raises(WarhostError) as err:
        exact_odds(scenario, "archers", "drow", {"at_attacker": "36"})
    assert err.value.field == "at_attacker"


@pytest.mark.rule("W4-AMB-43")
def test_fear_causers_may_be_immune_to_fear_in_their_break_tests() -> None:
    ghoul = profile("Ghoul", rules=["fear"])
    units = [unit("g", profile=ghoul), unit("h", "B", at=(20, 30), facing=180, profile=ghoul)]
    plain = make_state(units)
    _, _, terms = break_odds(plain, get(plain, "h"), get(plain, "g"), {"margin": 1})
    assert terms["dc"] == 13 and terms["fear"] == "fear"
    immune = make_state(units, options={"fear_causers_immune": True})
    _, _, terms = break_odds(immune, get(immune, "h"), get(immune, "g"), {"margin": 1})
    assert terms["dc"] == 11 and terms["fear"] == "none"


@pytest.mark.rule("W4-HIT-04")
@pytest.mark.rule("W4-CMD-06")
def test_a_captain_rolls_as_a_character_without_the_floor() -> None:
    # Spear +8 against AC 12: ordinary models need 8, the captain (a character) needs 4.
    state = make_state([unit("men", models=8, command={"captain": {"name": "Bors"}}),
                        unit("foe", "B", at=(20, 30), facing=180,
                             profile=profile(defenses={"ac": 12, "fortitude": 12,
                                                       "reflex": 12, "will": 12}))])
    report = unit_odds(state, get(state, "men"), get(state, "foe"), {"kind": "melee"})
    assert report.details["dice"] == 4 and report.details["character_dice"] == 1
    assert (report.details["needed"], report.details["needed_character"]) == (8, 4)
    assert Fraction(report.details["expected_hits"]["fraction"]) == \
        3 * Fraction(13, 20) + Fraction(17, 20)
