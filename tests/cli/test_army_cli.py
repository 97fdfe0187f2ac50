"""``warhost army validate`` and ``warhost army cost`` (W4-ARMY, W4-ITEM, W4-DEC-01), and
scenarios whose sides name army files: problems name the file, line and field (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

ARMIES = Path(__file__).resolve().parents[2] / "examples" / "dnd4e-war" / "armies"
LEGION = ARMIES / "iron-legion.yaml"
HORDE = ARMIES / "orc-horde.yaml"
CLASH = ARMIES.parent / "border-clash.yaml"


def changed(tmp_path: Path, old: str, new: str, source: Path = LEGION,
            name: str = "army.yaml") -> Path:
    """A copy of an army file with one piece of text replaced (it must be there once)."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    hits = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if needle in line]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


@pytest.mark.rule("W4-ARMY-06")
@pytest.mark.rule("W4-ARMY-10")
@pytest.mark.rule("W4-DEC-01")
def test_the_example_armies_validate_with_their_costs() -> None:
    result = run("army", "validate", LEGION, HORDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "The Iron Legion (level 5 small battle)" in out
    assert "spears" in out and "4 x     400 =     1600" in out
    assert "total 5900 of 6000: ok" in out and "total 6000 of 6000: ok" in out
    assert "W4-ITEM-08" in out  # the bought banner is not kept


@pytest.mark.rule("W4-ARMY-10")
@pytest.mark.rule("W4-ITEM-05")
def test_cost_prints_a_table_and_json() -> None:
    result = run("army", "cost", HORDE)
    assert result.exit_code == 0, result.output
    assert "Red Tusk axes" in result.stdout and "of 6000" in result.stdout
    data = json.loads(run("army", "cost", HORDE, "--json").stdout)
    assert data["total"] == 6000 and data["budget"] == 6000 and data["ok"]
    assert [u["cost"] for u in data["units"]] == [1600, 1200, 1200, 1000, 400]
    assert data["items"][-1] == {"name": "Banner of the Red Tusk", "carrier": "warchief",
                                 "cost": 200}


@pytest.mark.rule("W4-ARMY-10")
@pytest.mark.rule("W4-ITEM-04")
def test_level_and_size_options_reprice_and_recheck_the_list() -> None:
    data = json.loads(run("army", "cost", LEGION, "--level", "15", "--size", "large",
                          "--json").stdout)
    assert data["budget"] == 108000 and data["units"][0]["each"] == 2400
    result = run("army", "validate", LEGION, "--level", "15")
    assert result.exit_code == 2
    assert "W4-ITEM-04" in result.stdout and "W4-DEC-01" in result.stdout


@pytest.mark.rule("W4-AMB-69")
def test_an_army_over_its_budget_is_refused(tmp_path: Path) -> None:
    path = changed(tmp_path, "profile: Legion spearman, companies: 4,",
                   "profile: Legion spearman, companies: 6,")
    result = run("army", "validate", path)
    assert result.exit_code == 2
    assert "6700 points is over the budget of 6000" in result.stdout
    allowed = changed(tmp_path, "size: small", "size: small\npoints_overage: 700", path,
                      "allowed.yaml")
    assert run("army", "validate", allowed).exit_code == 0


@pytest.mark.rule("W4-ARMY-09")
def test_a_broken_formation_limit_is_refused(tmp_path: Path) -> None:
    path = changed(tmp_path, "category: common\n    level: 5\n    speed: 6\n    initiative: 4",
                   "category: rare\n    level: 5\n    speed: 6\n    initiative: 4")
    result = run("army", "validate", path)
    assert result.exit_code == 2
    assert "2 rare formations; a small battle allows 0 to 1 (W4-ARMY-09)" in result.stdout


@pytest.mark.rule("W4-ITEM-02")
def test_an_item_on_a_character_is_refused_at_its_line(tmp_path: Path) -> None:
    path = changed(tmp_path, "unit: swords, bonus: defenses", "unit: priest, bonus: defenses")
    result = run("army", "validate", path)
    assert result.exit_code == 2
    line = line_of(path, "unit: priest")
    assert f"error: {path}:{line}: items[1].unit: Shield of warding: army magic items are " \
           "carried by units, not by the character priest (W4-ITEM-02)" in result.stdout


@pytest.mark.rule("W4-ITEM-04")
def test_an_item_of_the_wrong_level_is_refused(tmp_path: Path) -> None:
    path = changed(tmp_path, "{name: Flaming spear, level: 5,", "{name: Flaming spear, level: 8,")
    result = run("army", "validate", path, "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    problem = data["armies"][0]["problems"][0]
    assert problem["rule"] == "W4-ITEM-04" and problem["field"] == ["items", 0, "level"]
    assert not data["ok"]


@pytest.mark.rule("W4-ARMY-01")
def test_two_armies_are_compared(tmp_path: Path) -> None:
    path = changed(tmp_path, "    level: 5\n    race: human\n    speed: 6\n    initiative: 6",
                   "    level: 6\n    race: human\n    speed: 6\n    initiative: 6")
    result = run("army", "validate", path, HORDE)
    assert result.exit_code == 0, result.output  # a "should": a warning only
    assert "warning:" in result.stdout and "W4-ARMY-01" in result.stdout


def test_a_malformed_army_file_is_one_located_error(tmp_path: Path) -> None:
    path = changed(tmp_path, "size: small", "size: small\ncolour: red")
    line = line_of(path, "colour: red")
    assert_user_error(run("army", "validate", path), f"{path}:{line}", "colour")
    assert_user_error(run("army", "cost", tmp_path / "missing.yaml"), "no such army file")


@pytest.mark.rule("W4-DEC-01")
def test_a_scenario_names_its_army_files(tmp_path: Path) -> None:
    ok = run("validate", CLASH)
    assert ok.exit_code == 0 and ok.stdout.startswith("ok: "), ok.output
    changed(tmp_path, "level: 5, unit: spears", "level: 4, unit: spears", name="legion.yaml")
    text = CLASH.read_text(encoding="utf-8").replace("armies/iron-legion.yaml", "legion.yaml")
    scenario = tmp_path / "clash.yaml"
    scenario.write_text(text.replace("armies/orc-horde.yaml", str(HORDE)), encoding="utf-8")
    result = run("validate", scenario)
    assert result.exit_code == 2
    assert "sides[0].army.items[0].level" in result.stdout and "W4-ITEM-04" in result.stdout
    broken = changed(tmp_path, "size: small", "size: smallish", name="legion.yaml")
    assert broken.exists()
    assert_user_error(run("battle", scenario, "--seed", "1"),
                      f"{broken}:{line_of(broken, 'size: smallish')}", "size")


@pytest.mark.rule("W4-DEC-01")
def test_a_scenario_with_army_files_replays_from_its_own_data(tmp_path: Path) -> None:
    out = tmp_path / "clash.replay.json"
    result = run("battle", CLASH, "--seed", "2", "--commander", "Legion=random",
                 "--commander", "Horde=random", "--replay", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["scenario"]["sides"][0]["army"]["name"] == "The Iron Legion"
    again = run("replay", out)
    assert again.exit_code == 0, again.output


def test_hostile_army_files_are_refused_quickly(tmp_path: Path) -> None:
    """An alias bomb, a billion companies and a NaN in an army file: one located error each,
    exit 2, no traceback."""
    bomb = tmp_path / "bomb.yaml"
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]"
              for i in range(1, 12)]
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    huge = changed(tmp_path, "companies: 4", "companies: 1000000000", name="huge.yaml")
    nan = changed(tmp_path, "Iron Legion\nlevel: 5", "Iron Legion\nlevel: .nan", name="nan.yaml")
    for path, word in ((bomb, "alias"), (huge, "companies"), (nan, "level")):
        result = run("army", "validate", path)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert word in result.output.lower(), result.output


def test_a_character_joining_an_enemy_unit_is_refused_at_its_line(tmp_path: Path) -> None:
    """W4-CHAR-03: the scenario names file, line and field."""
    changed(tmp_path, "joined: spears", "joined: axes", name="legion.yaml")
    text = CLASH.read_text(encoding="utf-8").replace("armies/iron-legion.yaml", "legion.yaml")
    scenario = tmp_path / "clash.yaml"
    scenario.write_text(text.replace("armies/orc-horde.yaml", str(HORDE)), encoding="utf-8")
    result = run("validate", scenario)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert f"{scenario}:" in result.output and "characters[0].joined" in result.output
    assert "'axes'" in result.output
