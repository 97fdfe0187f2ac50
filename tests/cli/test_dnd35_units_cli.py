"""``warhost units``: the derived stat block of every dnd35-wars unit as a table or JSON
(W35-UNIT-01, W35-STAT-06..10/16, W35-SCALE-04/09, W35-AMB-08/72); bad files exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FIGHTERS = Path(__file__).resolve().parents[1] / "rulesets" / "dnd35_wars" / "data" / "fighters-and-orcs.yaml"


def changed(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the example with one piece of text replaced (it must be there once)."""
    text = FIGHTERS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "scenario.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.rule("W35-UNIT-01", "W35-UNIT-10", "W35-AMB-01", "W35-AMB-02", "W35-AMB-03",
                  "W35-STAT-06", "W35-STAT-08", "W35-STAT-09", "W35-STAT-10", "W35-STAT-16")
def test_the_seed_fighter_unit_prints_its_stat_block() -> None:
    result = run("units", FIGHTERS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    fighters = out[out.index("Fighters of the March"):out.index("Elf archers")]
    for field, value in [("Counters", "10 x 10 = 100 human fighter"), ("Unit HP", "120"),
                         ("Counter HP", "12"), ("Morale", "+2"), ("Race", "human"),
                         ("Class/Level", "fighter 1"), ("Init", "+5"),
                         ("AC", "18, touch 11"), ("Fort/Ref/Will", "+4/+1/+0"),
                         ("Move Rate", "3 squares"), ("Melee", "+3 (1d8, 19-20/x2)"),
                         ("Ranged", "+2 (1d6+2, x3, 60 ft)")]:
        line = next(ln for ln in fighters.splitlines() if f" {field} " in ln)
        assert value in line, (field, line)
    assert "Scale: 15 ft a square" in out


@pytest.mark.rule("W35-UNIT-01", "W35-STAT-13", "W35-UNIT-05")
def test_json_gives_every_field_with_exact_fractions(tmp_path: Path) -> None:
    slow = changed(tmp_path, "count: 60", "count: 51")
    data = json.loads(run("units", slow, "--json").stdout)
    archers = next(u for u in data["units"] if u["id"] == "archers")
    assert (archers["counters"], archers["per_counter"], archers["creatures"]) == (6, "17/2", 51)
    fighters = data["units"][0]
    assert fighters["unit_hp"] == 120 and fighters["move_rate"] == "3"
    assert fighters["ranged"] == {"bonus": 2, "damage": "1d6+2", "crit_range": 20,
                                  "crit_multiplier": 3, "range_increment": 60}
    half = json.loads(run("units", changed(tmp_path, "scale: 15", "scale: 50"), "--json").stdout)
    assert half["units"][0]["move_rate"] == "1"  # 20 ft at 50 ft a square
    elves = next(u for u in half["units"] if u["id"] == "archers")
    assert elves["move_rate"] == "2"
    epic = run("units", changed(tmp_path, "scale: 15", "scale: 100")).stdout
    fighters = epic[epic.index("Fighters of the March"):epic.index("Elf archers")]
    assert "1/2 squares" in fighters  # one square every other round (W35-STAT-13)


@pytest.mark.rule("W35-SCALE-04", "W35-SCALE-06", "W35-SCALE-09", "W35-AMB-08")
def test_the_scale_suggestion_is_advice_only(tmp_path: Path) -> None:
    out = run("units", FIGHTERS).stdout
    assert "suggested scale: 15 ft for the largest unit, 'fighters'" in out
    bigger = changed(tmp_path, "scale: 15", "scale: 25")
    result = run("units", bigger)
    assert result.exit_code == 0
    assert "suggested scale: 15 ft" in result.stdout and "uses 25 ft; advisory" in result.stdout
    assert "'archers' has 3 counters; 4 to 16 play best (W35-SCALE-09)" in result.stdout


def test_bad_files_exit_2_with_one_line(tmp_path: Path) -> None:
    assert_user_error(run("units", tmp_path / "missing.yaml"), "missing.yaml")
    assert_user_error(run("units", changed(tmp_path, "scale: 15", "scale: 30")),
                      "scale", "15, 25, 50, 100 or 200")
    other = EXAMPLES / "warband" / "hill-archers.yaml"
    assert_user_error(run("units", other), "dnd35-wars", "warband")


def test_the_same_checks_as_validate(tmp_path: Path) -> None:
    overlap = changed(tmp_path, "at: [17, 6]", "at: [11, 6]")
    line = assert_user_error(run("units", overlap), "W35-PLACE-06")
    validated = run("validate", overlap)
    assert validated.exit_code == 2 and line.removeprefix("error: ") in validated.stdout
