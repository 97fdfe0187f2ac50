"""The command line with the `dnd5e-tactics` ruleset: battle, replay, map, validate, schema,
simulate, results and odds on its examples and on broken copies of them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "dnd5e-tactics"
AMBUSH = EXAMPLES / "forest-ambush.yaml"
CAVALRY = EXAMPLES / "cavalry-clash.yaml"


def broken(tmp_path: Path, old: str, new: str, source: Path = AMBUSH) -> Path:
    """A copy of an example with one piece of text replaced."""
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_rulesets_lists_dnd5e_tactics() -> None:
    result = run("rulesets", "--json")
    assert result.exit_code == 0
    assert "dnd5e-tactics" in result.stdout


def test_schema_has_stat_blocks_and_options() -> None:
    result = run("schema", "dnd5e-tactics")
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    defs = schema["$defs"]
    assert {"StatBlock", "AttackSpec", "AreaSpec", "MountSpec", "UnitSpec", "Options"} <= set(defs)
    assert "end_of_round_mode" in defs["Options"]["properties"]


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_example_validates_and_plays(example: Path) -> None:
    assert run("validate", example).exit_code == 0
    result = run("battle", example, "--seed", "4", "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["ruleset"] == "dnd5e-tactics"
    for unit in summary["units"]:
        assert unit["survivors"] + unit["losses"] == unit["start"]


def test_battle_narrates_divisor_rolls_and_morale() -> None:
    result = run("battle", CAVALRY, "--seed", "3")
    assert result.exit_code == 0, result.stderr
    assert "hits" in result.stdout and "morale" in result.stdout
    assert "wins" in result.stdout or "draw" in result.stdout.lower()


def test_battle_replay_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "ambush.replay.json"
    result = run("battle", AMBUSH, "--seed", "9", "--quiet", "--replay", out,
                 "--commander", "Rangers of the March=random")
    assert result.exit_code == 0, result.stderr
    replayed = run("replay", out)
    assert replayed.exit_code == 0, (replayed.stdout, replayed.stderr)
    document = json.loads(out.read_text(encoding="utf-8"))
    document["decisions"][3]["order"] = "hold"
    out.write_text(json.dumps(document), encoding="utf-8")
    assert run("replay", out).exit_code != 0


def test_map_draws_the_table(tmp_path: Path) -> None:
    png = tmp_path / "round2.png"
    result = run("map", CAVALRY, "--out", png, "--round", "2", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_and_results(tmp_path: Path) -> None:
    scenario = tmp_path / "cavalry.yaml"
    shutil.copy(CAVALRY, scenario)
    db = tmp_path / "runs.duckdb"
    result = run("simulate", scenario, "-n", "6", "--seed", "1", "--workers", "1",
                 "--out", db, "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["battles"] == 6
    again = run("results", db, "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["battles"] == 6


def test_odds_enumerates_the_divisor_table() -> None:
    """T5-ATTACK-07/08 through the CLI: 20 attackers needing 13 score 4, 5, 7 or 10 hits."""
    result = run("odds", AMBUSH, "--attacker", "scouts", "--defender", "orcs", "--kind",
                 "ranged", "--ignore-position", "--set", "attackers=20", "--set", "needed=13",
                 "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    hits = {k: v["fraction"] for k, v in report["outcomes"].items() if k.startswith("hits")}
    assert hits == {"hits 4": "1/6", "hits 5": "1/6", "hits 7": "1/3", "hits 10": "1/3"}
    assert report["details"]["damage"]["40"]["fraction"] == "1/6"  # 4 hits x (1d8+2 max 10)


def test_odds_bad_situation_key_names_it() -> None:
    assert_user_error(run("odds", AMBUSH, "--attacker", "scouts", "--defender", "orcs",
                          "--ignore-position", "--set", "cover=lots"), "--set cover")


@pytest.mark.parametrize(
    ("old", "new", "needles"),
    [
        ("defender: Orcs of the Red Fang", "defender: Elves", ("defender", "Orcs")),
        ("multiattack: [Greataxe, Greataxe]", "multiattack: [Greataxe, Axe]",
         ("multiattack[1]", "Axe")),
        ("at: [34, 5]", "at: [21, 5]", ("sides[0].units[1].at", "overlaps")),
        ("damage: 1d12+3", "damage: 1d12+x", ("damage", "1d12+x")),
        ("stance: open", "stance: loose", ("stance",)),
        ("at: [24, 27]", "at: [24, 60]", ("at", "does not fit")),
        ("kind: forest", "kind: jungle", ("terrain[0].kind",)),
    ],
)
def test_bad_scenarios_get_one_line_with_file_line_and_field(
    tmp_path: Path, old: str, new: str, needles: tuple[str, ...]
) -> None:
    path = broken(tmp_path, old, new)
    line = assert_user_error(run("battle", path), "broken.yaml:", *needles)
    assert re.search(r"broken\.yaml:\d+: ", line), line
