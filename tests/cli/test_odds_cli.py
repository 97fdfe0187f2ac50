"""``warhost odds``: exact odds of one attack, printed as a table or as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tests.cli.scenarios import write_tiny
from tests.cli_helpers import assert_user_error
from warhost.cli import app

runner = CliRunner()


def run(*args: str | Path) -> Result:
    return runner.invoke(app, ["odds", *(str(a) for a in args)])




@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """Elite Warriors a-sword (3,1) and b-brute (3,6), Elite Pike a-pike (4,1) facing north,
    Elite Archer b-bow (4,6) on an 8 x 8 map."""
    return write_tiny(tmp_path)


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-03")
def test_table_of_outcomes(tiny: Path) -> None:
    """Elite against Elite, 2d6 each: (1 - 286/1296) / 2 = 505/1296."""
    result = run(tiny, "--attacker", "a-sword", "--defender", "b-brute", "--at-attacker", "3,5")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "a-sword attacks b-brute (melee)" in out
    assert ("Dice: a-sword (Elite Warrior): 2d6 keep highest +0 vs "
            "b-brute (Elite Warrior): 2d6 keep highest +0") in out
    assert "Modifiers: none" in out
    assert "505/1296" in out and "38.97%" in out
    assert "791/1296" in out and "61.03%" in out
    for name in ("success", "failure", "defeat", "wound", "dismount"):
        assert name in out


@pytest.mark.rule("FB-PIKE-06", "FB-ARCHER-05")
def test_modifiers_are_listed(tiny: Path) -> None:
    result = run(tiny, "--attacker", "a-pike", "--defender", "b-bow", "--at-attacker", "4,5",
                 "--charge")
    assert result.exit_code == 0, result.stderr
    assert "attack +1 charging [FB-PIKE-06]" in result.stdout
    assert "defense -1 archer defending [FB-ARCHER-05]" in result.stdout
    assert "2d6 keep highest +1 vs b-bow (Elite Archer): 2d6 keep highest -1" in result.stdout


def test_json(tiny: Path) -> None:
    result = run(tiny, "--attacker", "b-bow", "--defender", "a-pike", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["scenario"] == "Tiny"
    assert data["ruleset"] == "fantasy-battle"
    assert data["kind"] == "ranged"
    out = data["outcomes"]
    assert out["success"] == {"fraction": "505/1296", "probability": 505 / 1296}
    parts = [Fraction(out[k]["fraction"]) for k in ("failure", "defeat", "wound", "dismount")]
    assert sum(parts) == 1
    assert data["details"]["legal"] is True
    assert data["details"]["distance"] == 5


def test_unknown_unit_suggests(tiny: Path) -> None:
    assert_user_error(run(tiny, "--attacker", "a-swrd", "--defender", "b-brute"),
                      "--attacker", "'a-swrd'", "did you mean 'a-sword'?")
    assert_user_error(run(tiny, "--attacker", "a-sword", "--defender", "b-brut"),
                      "--defender", "did you mean 'b-brute'?")


@pytest.mark.rule("FB-INF-01")
def test_illegal_position_says_why(tiny: Path) -> None:
    line = assert_user_error(run(tiny, "--attacker", "a-sword", "--defender", "b-brute"),
                             "--attacker", "not adjacent (distance 5)", "--ignore-position")
    assert "--at-attacker" in line
    result = run(tiny, "--attacker", "a-sword", "--defender", "b-brute", "--ignore-position")
    assert result.exit_code == 0, result.stderr
    assert "Not a legal attack where they stand" in result.stdout
    assert "505/1296" in result.stdout


def test_bad_options(tiny: Path) -> None:
    base = ("--attacker", "a-sword", "--defender", "b-brute")
    assert_user_error(run(tiny, *base, "--at-attacker", "three,5"), "--at-attacker", "X,Y")
    assert_user_error(run(tiny, *base, "--at-attacker", "3,6"), "--at-attacker",
                      "taken by b-brute")
    assert_user_error(run(tiny, *base, "--kind", "magic"), "--kind", "melee, ranged or throw")
    assert_user_error(run(tiny, *base, "--option", "max_rang=3"), "--option",
                      "did you mean 'max_range'?")
    assert_user_error(run(tiny, *base, "--option", "max_range"), "--option", "NAME=VALUE")
    assert_user_error(run(tiny, *base, "--at-attacker", "3,5", "--charge"), "--charge",
                      "only Pikes and Lancers charge")
    assert_user_error(run(tiny, *base, "--at-attacker", "3,5", "--wounded"), "--wounded",
                      "only a Champion")
    assert_user_error(run(tiny, *base, "--at-attacker", "3,5", "--face-attacker", "north"),
                      "--face-attacker", "only Pikes have a facing")
    missing = tiny.with_name("nope.yaml")
    assert_user_error(run(missing, *base), str(missing), "no such scenario file")


FATE = """\
ruleset: fantasy-battle
name: Fate
victory_points: 5
options: {first_player: A}
battlefield: {width: 8, height: 8}
sides:
  - name: A
    units:
      - {id: hero, rank: champion, type: infantry, class: warrior, at: [3, 1], unique: true,
         fate_points: 1, feats: [frenzy]}
  - name: B
    units:
      - {id: foe, rank: champion, type: infantry, class: warrior, at: [3, 6], feats: [vault]}
"""


@pytest.mark.rule("FB-COMBAT-05", "FB-COMBAT-06", "FB-FATE-04")
def test_champions_wound_and_fate(tmp_path: Path) -> None:
    path = tmp_path / "fate.yaml"
    path.write_text(FATE, encoding="utf-8")
    base = (path, "--attacker", "hero", "--defender", "foe", "--at-defender", "3,2")
    result = run(*base, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["outcomes"]["wound"]["fraction"] == "5479/15552"
    assert data["outcomes"]["defeat"]["fraction"] == "0"
    assert list(data["alternatives"]) == ["success if hero spends 1 Fate Point"]
    wounded = json.loads(run(*base, "--wounded", "--json").stdout)
    assert wounded["outcomes"]["defeat"]["fraction"] == "5479/15552"
    text = run(*base).stdout
    assert "With a Fate Point:" in text
    assert "success if hero spends 1 Fate Point" in text


def test_real_process(tiny: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "warhost", "odds", str(tiny), "--attacker", "b-bow",
         "--defender", "a-sword", "--json"],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcomes"]["success"]["fraction"] == "505/1296"
