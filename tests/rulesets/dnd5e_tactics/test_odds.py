"""Exact odds of a unit's Attack action (odds.py): hand-computed fractions, the ruleset hook
and its situation keys, the command line, and a seeded sample of ``resolve_unit_attack``."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import SeededDice
from warhost.core.engine import Battle
from warhost.core.errors import WarhostError
from warhost.core.odds import IllegalAttackError, OddsReport
from warhost.core.registry import get_ruleset
from warhost.core.scenario import Scenario, scenario_from_data
from warhost.rulesets.dnd5e_tactics import combat
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.odds import attack_odds, exact_odds
from warhost.rulesets.dnd5e_tactics.setup import new_state

from .c_helpers import FAR, NEAR, OGRE, ctx_of, duo, mace_only, single_spec, stats
from .helpers import SIDES, scenario, unit, unit_spec

F = Fraction


def hits(report: OddsReport) -> dict[int, Fraction]:
    return {int(k.split()[1]): v for k, v in report.results.items()}


def as_scenario(model: Any) -> Scenario:
    data = model.model_dump(mode="json")
    return scenario_from_data(data)


def assert_partition(report: OddsReport) -> None:
    assert report.outcomes["success"] + report.outcomes["failure"] == 1
    assert sum(report.partition().values()) == 1


# --------------------------------------------------------------------------- hand-computed


@pytest.mark.rule("T5-ATTACK-06", "T5-ATTACK-07", "T5-ATTACK-08", "T5-RANGED-02")
def test_one_shot_needing_thirteen_or_fourteen() -> None:
    """A crossbow volley (one resolution) needs 14 (AC 14, +2 - 2): row 13-14 has divisors
    5, 4, 3, 3, 2, 2, so 20 attackers score 4, 5, 7, 7, 10, 10."""
    ctx = ctx_of(duo(b_at=FAR))
    report = attack_odds(ctx.state, unit(ctx, "a"), unit(ctx, "b"), "ranged")
    assert hits(report) == {4: F(1, 6), 5: F(1, 6), 7: F(1, 3), 10: F(1, 3)}
    assert report.outcomes["success"] == 1 and report.outcomes["failure"] == 0
    assert_partition(report)
    assert report.details["resolutions"][0]["needed"] == 14
    damage = {int(k): F(v["fraction"]) for k, v in report.details["damage"].items()}
    assert damage == {40: F(1, 6), 50: F(1, 6), 70: F(1, 3), 100: F(1, 3)}
    assert report.details["expected_damage"]["fraction"] == "215/3"  # (40 + 50) / 6 + (70 + 100) / 3


@pytest.mark.rule("T5-ATTACK-08")
def test_needed_override_thirteen_reads_the_same_row() -> None:
    ctx = ctx_of(duo(b_at=FAR))
    report = attack_odds(ctx.state, unit(ctx, "a"), unit(ctx, "b"), "ranged", needed=13)
    assert hits(report) == {4: F(1, 6), 5: F(1, 6), 7: F(1, 3), 10: F(1, 3)}


@pytest.mark.rule("T5-DAMAGE-03", "T5-DAMAGE-05", "T5-AMB-22")
def test_multiattack_convolves_two_independent_d6() -> None:
    """Needed 12, faces give 7, 10, 10, 10, 10, 20 hits; two maces: 14 (1/36), 17 (8/36),
    20 (16/36), 27 (2/36), 30 (8/36), 40 (1/36)."""
    ctx = ctx_of(duo())
    report = attack_odds(ctx.state, unit(ctx, "a"), unit(ctx, "b"), "melee")
    assert hits(report) == {14: F(1, 36), 17: F(8, 36), 20: F(16, 36), 27: F(2, 36),
                            30: F(8, 36), 40: F(1, 36)}
    expected = F(2 * 67, 6)
    assert F(report.details["expected_hits"]["fraction"]) == expected
    assert F(report.details["expected_damage"]["fraction"]) == expected * 8
    assert combat.expected_unit_damage(ctx, unit(ctx, "a"), unit(ctx, "b"),
                                       "melee") == pytest.approx(float(expected * 8))


@pytest.mark.rule("T5-ATTACK-01", "T5-ATTACK-08")
def test_few_attackers_with_divisors_above_them_still_hit_once() -> None:
    """3 attackers needing 20: 3/20 and 3/15 and 3/10 all round up to 1."""
    ctx = ctx_of(duo({"members": 3}, b_at=FAR))
    report = attack_odds(ctx.state, unit(ctx, "a"), unit(ctx, "b"), "ranged", needed=20)
    assert hits(report) == {1: F(1)}
    empty = attack_odds(ctx.state, unit(ctx, "a"), unit(ctx, "b"), "ranged", eligible=0)
    assert empty.outcomes["failure"] == 1 and hits(empty) == {}


@pytest.mark.rule("T5-CASUALTY-03", "T5-DAMAGE-08")
def test_casualties_from_this_damage_alone() -> None:
    """Crossbow on Thugs (32 HP): 40 -> 1, 50 -> 1, 70 -> 2, 100 -> 3."""
    ctx = ctx_of(duo(b_at=FAR))
    report = attack_odds(ctx.state, unit(ctx, "a"), unit(ctx, "b"), "ranged")
    cas = {int(k): F(v["fraction"]) for k, v in report.details["casualties"].items()}
    assert cas == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}


@pytest.mark.rule("T5-SINGLE-05", "T5-AMB-30")
def test_single_character_odds_with_a_per_turn_reduction() -> None:
    """Maces on an Ogre (AC 11, 59 HP): needed 4, row 1-5, hits 10 (1/6) or 20 (5/6) per
    resolution of 8 each; per turn the total loses 5. Slain when the total reaches 59."""
    model = scenario({"A": [unit_spec("a", (24.0, 10.0))], "B": []},
                     singles={"B": [single_spec("s", NEAR, OGRE)]},
                     single_character_reduction="per_turn")
    ctx = ctx_of(model)
    report = attack_odds(ctx.state, unit(ctx, "a"), ctx.state.bodies["s"], "melee")
    damage = {int(k): F(v["fraction"]) for k, v in report.details["damage"].items()}
    assert damage == {155: F(1, 36), 235: F(10, 36), 315: F(25, 36)}
    assert F(report.details["slain"]["fraction"]) == 1


# --------------------------------------------------------------------------- the hook


@pytest.fixture()
def field_battle() -> Scenario:
    model = scenario({"A": [unit_spec("a", (24.0, 10.0))],
                      "B": [unit_spec("b", FAR), unit_spec("c", (10.0, 30.0))]},
                     singles={"B": [single_spec("s", (40.0, 30.0), OGRE)]})
    return as_scenario(model)


@pytest.mark.rule("T5-RANGED-02", "T5-ATTACK-07")
def test_hook_defaults_to_the_legal_kind(field_battle: Scenario) -> None:
    ruleset = get_ruleset("dnd5e-tactics")
    report = ruleset.exact_odds(field_battle, "a", "b", {})
    assert report.kind == "ranged"
    assert hits(report) == {4: F(1, 6), 5: F(1, 6), 7: F(1, 3), 10: F(1, 3)}
    assert report.details["legal"] is True


@pytest.mark.rule("T5-ATTACK-02", "T5-STANCE-04", "T5-TACTICS-08")
def test_situation_overrides(field_battle: Scenario) -> None:
    """Open Stance with 40 members: 30 attackers; Aggressive +2 rank 3: needed 14 - 4 = 10
    (row 6-12: 3, 2, 2, 2, 2, 1 -> 10, 15, 15, 15, 15, 30)."""
    report = exact_odds(field_battle, "a", "b", {"stance": "open", "members": "40",
                                                  "track": "aggressive", "rank": 3})
    assert report.details["eligible"] == 30
    assert report.details["resolutions"][0]["needed"] == 10
    assert hits(report) == {10: F(1, 6), 15: F(2, 3), 30: F(1, 6)}
    fixed = exact_odds(field_battle, "a", "b", {"attackers": 10, "needed": 13})
    assert hits(fixed) == {2: F(1, 6), 3: F(1, 6), 4: F(1, 3), 5: F(1, 3)}


@pytest.mark.rule("T5-TERRAIN-10", "T5-AMB-21")
def test_cover_and_advantage_keys(field_battle: Scenario) -> None:
    base = exact_odds(field_battle, "a", "b", {})
    need = base.details["resolutions"][0]["needed"]
    half = exact_odds(field_battle, "a", "b", {"cover": "half"})
    assert half.details["resolutions"][0]["needed"] == need + 2
    both = exact_odds(field_battle, "a", "b", {"advantage": True, "disadvantage": "true"})
    assert both.details["resolutions"][0]["needed"] == need
    adv = exact_odds(field_battle, "a", "b", {"advantage": "yes"})
    assert adv.details["resolutions"][0]["needed"] == need - 5


@pytest.mark.rule("T5-AMB-10", "T5-AMB-12")
def test_positions_and_charge(field_battle: Scenario) -> None:
    with pytest.raises(IllegalAttackError):
        exact_odds(field_battle, "a", "b", {"kind": "melee"})
    moved = exact_odds(field_battle, "a", "b", {"at_defender": "24,11", "facing_defender":
                                                "south", "charge": True,
                                                "options": {"charge_multiattack": "false"}})
    assert moved.kind == "melee" and len(moved.details["resolutions"]) == 1
    anyway = exact_odds(field_battle, "a", "b", {"kind": "melee", "ignore_position": True})
    assert anyway.details["legal"] is False and "not engaged" in anyway.notes[0]


@pytest.mark.rule("T5-SINGLE-02", "T5-SINGLE-03")
def test_hook_on_a_single_character(field_battle: Scenario) -> None:
    report = exact_odds(field_battle, "a", "s", {})
    assert report.kind == "ranged"
    assert report.details["resolutions"][0]["needed"] == 11 + 2 - 0 + 5
    assert "slain" in report.details


@pytest.mark.parametrize(("situation", "field"), [
    ({"wounded": True}, "wounded"),
    ({"stanse": "open"}, "stanse"),
    ({"kind": "throw"}, "kind"),
    ({"cover": "lots"}, "cover"),
    ({"rank": 9}, "rank"),
    ({"members": -1}, "members"),
    ({"defender_stance": "open"}, "defender_stance"),
    ({"at_attacker": "100,100"}, "at_attacker"),
    ({"options": {"split_atacks": True}}, "options"),
    ({"options": {"save_extremes": "bogus"}}, "options"),
])
def test_bad_situations_are_named(field_battle: Scenario, situation: dict[str, Any],
                                  field: str) -> None:
    defender = "s" if field == "defender_stance" else "b"
    with pytest.raises(WarhostError) as info:
        exact_odds(field_battle, "a", defender, situation)
    assert info.value.field == field


def test_bad_bodies_are_named(field_battle: Scenario) -> None:
    for attacker, defender, field in (("zz", "b", "attacker"), ("a", "zz", "defender"),
                                      ("s", "a", "attacker"), ("b", "c", "defender")):
        with pytest.raises(WarhostError) as info:
            exact_odds(field_battle, attacker, defender, {})
        assert info.value.field == field


@pytest.mark.rule("T5-ATTACK-08")
def test_cli_odds_json(tmp_path: Path, field_battle: Scenario) -> None:
    from tests.cli_helpers import assert_user_error, run

    path = tmp_path / "odds.yaml"
    path.write_text(yaml.safe_dump(field_battle.data), encoding="utf-8")
    result = run("odds", path, "--attacker", "a", "--defender", "b", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["outcomes"]["hits 7"]["fraction"] == "1/3"
    text = run("odds", path, "--attacker", "a", "--defender", "b")
    assert "needed roll 14" in text.stdout and "hits 10" in text.stdout
    assert_user_error(run("odds", path, "--attacker", "a", "--defender", "b", "--wounded"),
                      "wounded")
    assert_user_error(run("odds", path, "--attacker", "a", "--defender", "b", "--kind",
                          "melee"), "not engaged", "--ignore-position")


# --------------------------------------------------------------------------- against the engine


@pytest.mark.rule("T5-ATTACK-06", "T5-AMB-22", "T5-DAMAGE-03")
def test_enumeration_agrees_with_a_seeded_sample() -> None:
    """3,000 Attack actions of two maces (needed 12) with seeded dice: every total's
    frequency within 0.035 of its exact probability (about 4 standard deviations)."""
    model = duo()
    battle = Battle(get_ruleset("dnd5e-tactics"), None, 0,  # type: ignore[arg-type]
                    {side: FirstOptionCommander() for side in SIDES}, dice=SeededDice(20240601), record=False)
    ctx = Ctx(new_state(model, battle), battle)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    exact = hits(attack_odds(ctx.state, a, b, "melee"))
    trials = 3000
    seen: Counter[int] = Counter()
    for _ in range(trials):
        b.tdr = 0
        combat.unit_attack_action(ctx, a, b, "melee")
        seen[b.tdr // 8] += 1
    assert set(seen) <= set(exact)
    for total, p in exact.items():
        assert abs(seen[total] / trials - float(p)) < 0.035, total


@pytest.mark.rule("T5-SINGLE-05", "T5-AMB-30")
def test_single_enumeration_agrees_with_resolve() -> None:
    """Every d6 pair, scripted, gives the damage the enumeration lists for it."""
    block = stats(OGRE, hp=10_000)
    model = scenario({"A": [unit_spec("a", (24.0, 10.0), member=mace_only("1d10"))],
                      "B": []}, singles={"B": [single_spec("s", NEAR, block)]},
                     single_character_reduction="per_attack")
    ctx = ctx_of(model)
    table = combat.face_table(ctx.state, unit(ctx, "a"), ctx.state.bodies["s"],
                              unit(ctx, "a").member.attacks[0])
    for face in range(1, 7):
        run = ctx_of(model, dice=[face])
        dealt = combat.resolve_unit_attack(run, unit(run, "a"), run.state.bodies["s"],
                                           unit(run, "a").member.attacks[0])
        assert dealt == table[face - 1][2]
