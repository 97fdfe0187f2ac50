"""``warhost odds`` on a `warband` scenario: the exact odds of one attack."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tests.cli_helpers import assert_user_error
from warhost.cli import app

runner = CliRunner()
EXAMPLE = Path(__file__).parents[2] / "examples" / "warband" / "hero-skirmish.yaml"
PAIR = ("--attacker", "mara", "--defender", "grath")


def run(*args: str | Path) -> Result:
    return runner.invoke(app, ["odds", str(EXAMPLE), *(str(a) for a in args)])


@pytest.mark.rule("WB-CIRC-18")
def test_a_charge_prints_the_table() -> None:
    result = run(*PAIR, "--set", "charging=true")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "mara attacks grath (melee, sword)" in out
    assert "to hit d10 <= 8 (Melee)" in out
    assert "to hit +1 charging [WB-CIRC-18]" in out and "damage +1 charging" in out
    for line in ("4/5", "80.00%", "8/25", "171/625", "123/625", "6/625"):
        assert line in out
    assert "Target after (exact)" in out


@pytest.mark.rule("WB-CIRC-18")
def test_the_commands_charge_flag_is_the_same_key() -> None:
    assert run(*PAIR, "--charge").stdout == run(*PAIR, "--set", "charging=true").stdout


@pytest.mark.rule("WB-CIRC-19", "WB-ATTACK-06")
def test_json_of_a_shot() -> None:
    result = run("--attacker", "bren", "--defender", "r1", "--kind", "ranged",
                 "--set", "volley=yes", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ruleset"] == "warband" and data["kind"] == "ranged, bow"
    out = {k: Fraction(v["fraction"]) for k, v in data["outcomes"].items()}
    assert out["success"] == Fraction(4, 10)  # Ranged 6 - 2 volley
    assert out["failure"] + sum(v for k, v in out.items()
                                if k not in ("success", "failure")) == 1
    assert data["details"]["targets"]["damage"] == 4


def test_user_errors_name_the_option() -> None:
    assert_user_error(run("--attacker", "mraa", "--defender", "grath"), "--attacker",
                      "did you mean 'mara'?")
    assert_user_error(run(*PAIR, "--set", "chargin=true"), "chargin",
                      "did you mean 'charging'?")
    assert_user_error(run(*PAIR, "--at-attacker", "6,10"), "--at-attacker", "taken by grath")
    assert_user_error(run(*PAIR, "--set", "weapon=axe"), "--set weapon", "mara has: sword")
    assert_user_error(run(*PAIR, "--option", "critical_extra_wound=never"), "--option")
