"""``warhost odds`` on a `dnd35-wars` scenario: one attack of each pathway and a morale check."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import Result

from tests.cli_helpers import assert_user_error, run
from warhost.rulesets.dnd35_wars.odds import morale_pass_chance

EXAMPLES = Path(__file__).parents[2] / "examples" / "dnd35-wars"
EXAMPLE = EXAMPLES / "regiment-and-horde.yaml"
VILLAGE = EXAMPLES / "village-militia.yaml"
PAIR = ("--attacker", "fighters", "--defender", "horde")

HERO = {"name": "hero", "hp": 40, "ac": 18, "touch_ac": 12, "speed": 20, "cha": 14,
        "melee": [{"name": "longsword", "bonus": 9, "damage": "1d8+3", "crit_range": 19}]}


def odds(scenario: Path, *args: str) -> Result:
    return run("odds", scenario, *args)


@pytest.fixture(scope="module")
def with_monsters(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example (with its ogre) and a hero standing behind the fighters."""
    data: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text())
    data["sides"][0]["monsters"] = [{"id": "hero", "creature": HERO, "at": [14, 3]}]
    path = tmp_path_factory.mktemp("dnd35") / "with-monsters.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def outcomes(result: Result) -> dict[str, Fraction]:
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return {k: Fraction(v["fraction"]) for k, v in data["outcomes"].items()}


@pytest.mark.rule("W35-COMBAT-03", "W35-DMG-02")
def test_unit_melee_prints_the_table() -> None:
    result = odds(EXAMPLE, *PAIR, "--kind", "melee")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "fighters attacks horde (melee, unit_vs_unit)" in out
    assert "needs 10+" in out and "11/20" in out  # +3 against AC 13
    assert "counters_4" in out and "Damage roll (exact)" in out and "Hp lost (exact)" in out
    # 6 fighter counters wide against 10 orc counters: 6 in contact when the lines meet
    assert "assumed 6 counters in contact" in out


@pytest.mark.rule("W35-UATK-04", "W35-DMG-05", "W35-UATK-12")
def test_charge_flag_and_ranged_fire() -> None:
    charge = outcomes(odds(EXAMPLE, *PAIR, "--charge", "--json"))
    assert charge["success"] == Fraction(13, 20)  # +5 against AC 13
    shot = odds(EXAMPLE, *PAIR, "--kind", "ranged", "--set", "range_feet=100",
                "--set", "multiplier=3")
    assert shot.exit_code == 0, shot.stderr
    assert "range 100 ft, increment 60 ft: -2" in shot.stdout
    assert "damage x 3 counters (W35-DMG-05)" in shot.stdout


@pytest.mark.rule("W35-DMG-09", "W35-AMB-31")
def test_unit_against_a_monster(with_monsters: Path) -> None:
    result = odds(with_monsters, "--attacker", "fighters", "--defender", "ogre",
                  "--set", "attackers=4", "--json")
    got = outcomes(result)
    assert got["success"] == Fraction(8, 20)  # +3 against AC 16
    assert got["falls"] + got["stands"] == got["success"]
    data = json.loads(result.stdout)
    assert data["details"]["pathway"] == "unit_vs_single"
    # four fighters deal 4 x 1d8: 29 HP fall to a roll of 8, or to 4+ on a confirmed critical
    crit = Fraction(2, 20) * Fraction(8, 20)
    assert got["falls"] == (Fraction(8, 20) - crit) * Fraction(1, 8) + crit * Fraction(5, 8)


@pytest.mark.rule("W35-DMG-13", "W35-DMG-14")
def test_a_monster_against_a_unit(with_monsters: Path) -> None:
    result = odds(with_monsters, "--attacker", "ogre", "--defender", "fighters")
    assert result.exit_code == 0, result.stderr
    assert "ogre attacks fighters (melee, single_vs_unit)" in result.stdout
    assert "damage ÷ 25 creatures per counter, rounded down (W35-DMG-13/14)" in result.stdout


@pytest.mark.rule("W35-DMG-15")
def test_a_monster_against_a_monster(with_monsters: Path) -> None:
    got = outcomes(odds(with_monsters, "--attacker", "hero", "--defender", "ogre", "--json"))
    assert got["success"] == Fraction(14, 20)  # +9 against AC 16
    # 1d8+3 never reaches 29, a critical doubles it to at most 22: the ogre stands
    assert got["falls"] == 0 and got["stands"] == got["success"]


@pytest.mark.rule("W35-MORALE-02", "W35-AMB-15")
def test_a_morale_check() -> None:
    result = odds(EXAMPLE, *PAIR, "--kind", "morale", "--set", "trigger=half_hp", "--json")
    data = json.loads(result.stdout)
    assert data["kind"] == "morale check of horde" and data["details"]["dc"] == 15
    got = outcomes(result)
    assert got["success"] == morale_pass_chance(data["details"]["modifier"], 15)
    no_naturals = outcomes(odds(EXAMPLE, *PAIR, "--kind", "morale", "--set", "dc=40",
                                "--option", "morale_natural_rolls=false", "--json"))
    assert no_naturals["success"] == 0


def test_bad_keys_are_user_errors(with_monsters: Path) -> None:
    pair = PAIR
    assert_user_error(odds(EXAMPLE, *pair, "--set", "multiplyer=3"), "multiplyer",
                      "did you mean 'multiplier'?")
    assert_user_error(odds(EXAMPLE, *pair, "--kind", "mele"), "--kind", "did you mean 'melee'?")
    assert_user_error(odds(EXAMPLE, *pair, "--kind", "crossbow"), "no crossbow")
    assert_user_error(odds(EXAMPLE, "--attacker", "figters", "--defender", "horde"),
                      "--attacker", "did you mean 'fighters'?")
    assert_user_error(odds(EXAMPLE, "--attacker", "fighters", "--defender", "archers"),
                      "--defender", "both of Humans")
    assert_user_error(odds(with_monsters, "--attacker", "hero", "--defender", "ogre",
                           "--kind", "morale"), "only units make morale checks")
    assert_user_error(odds(EXAMPLE, *pair, "--option", "unit_critz=false"), "--option")
    assert_user_error(odds(EXAMPLE, "--attacker", "fighters", "--defender", "gorza"),
                      "--defender", "W35-DMG-08")


@pytest.mark.rule("W35-DMG-07")
def test_crossbows_fire_flat() -> None:
    result = odds(VILLAGE, "--attacker", "crossbows", "--defender", "bandits", "--kind",
                  "crossbow", "--set", "multiplier=2")
    assert result.exit_code == 0, result.stderr
    assert "damage x 2 counters (W35-DMG-07, W35-AMB-34)" in result.stdout
