"""The command line with the `warband` ruleset: battle, replay, map, validate, schema, play,
simulate and sweep on its examples, three sides included, and the clear errors its bad
inputs get (WB-AMB-55 and the setup rules)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "warband"
SKIRMISH = EXAMPLES / "hero-skirmish.yaml"


def broken(tmp_path: Path, old: str, new: str, source: Path = SKIRMISH) -> Path:
    """A copy of an example with one piece of text replaced."""
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def assert_invalid(path: Path, *needles: str) -> str:
    """``validate`` fails with exit 2 and one line naming the file, the line and the field,
    with no traceback; the same text comes from ``battle`` as an error."""
    result = run("validate", path)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert lines[0].startswith(f"{path}:"), lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert_user_error(run("battle", path, "--seed", "1"), *needles)
    return lines[0]


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the first occurrence of ``needle``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_schema_lists_the_stat_line_and_the_options() -> None:
    result = run("schema", "warband")
    assert result.exit_code == 0, result.stderr
    defs = json.loads(result.stdout)["$defs"]
    assert {"Stats", "Weapon", "Spell", "CharacterSpec", "Options"} <= set(defs)
    stats = defs["Stats"]["properties"]
    for score in ("agility", "melee", "ranged", "strength", "toughness", "armour", "ward",
                  "resolve", "magic", "wounds", "attacks", "insight", "fate"):
        assert score in stats
    assert stats["agility"]["maximum"] == 20 and stats["agility"]["minimum"] == 0


def test_every_example_validates() -> None:
    for example in sorted(EXAMPLES.glob("*.yaml")):
        result = run("validate", example)
        assert result.exit_code == 0, (example, result.output)


@pytest.mark.rule("WB-AMB-55")
def test_two_captains_on_one_side_are_refused_with_the_line(tmp_path: Path) -> None:
    path = broken(tmp_path, "        kind: hero\n        at: [8, 1]",
                  "        kind: hero\n        captain: true\n        at: [8, 1]")
    message = assert_invalid(path, "2 Captains", "WB-AMB-55", "characters[1].captain")
    assert message.startswith(f"{path}:{line_of(path, 'at: [8, 1]') - 1}:"), message


@pytest.mark.rule("WB-AMB-55")
def test_a_minion_captain_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "      - id: tam\n        kind: minion",
                  "      - id: tam\n        kind: minion\n        captain: true")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "        captain: true\n        at: [6, 1]", "        at: [6, 1]", 1), encoding="utf-8")
    assert_invalid(path, "must be a Hero", "characters[2].captain")


@pytest.mark.rule("WB-DEPLOY-01")
def test_two_characters_on_one_square_are_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [8, 1]", "at: [6, 1]")
    assert_invalid(path, "both stand on [6, 1]", "WB-DEPLOY-01", "characters[1].at")


def test_a_character_off_the_board_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [8, 1]", "at: [30, 1]")
    assert_invalid(path, "off the 14x12 map", "characters[1].at")


def test_a_score_out_of_range_names_the_field(tmp_path: Path) -> None:
    path = broken(tmp_path, "agility: 5, melee: 7", "agility: 25, melee: 7")
    assert_invalid(path, "stats.agility")


def test_an_unknown_spell_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    path = broken(tmp_path, "        talents: [parry]",
                  "        talents: [parry]\n        spells: [fireblast]")
    text = path.read_text(encoding="utf-8").replace(
        "sides:", "spells:\n  - {name: fire blast, phase: ranged, range: 8,\n"
                  "     attack: {type: ranged, strength: 5}}\nsides:", 1)
    path.write_text(text, encoding="utf-8")
    assert_invalid(path, "unknown spell 'fireblast'", "fire blast", "spells[0]")


def test_battle_json_and_replay_round_trip(tmp_path: Path) -> None:
    replay = tmp_path / "r.json"
    result = run("battle", SKIRMISH, "--seed", "2", "--commander", "Company=random",
                 "--commander", "Raiders=random", "--replay", replay, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary["scores"]) == {"Company", "Raiders"}
    again = run("replay", replay)
    assert again.exit_code == 0 and "matches" in again.stdout, again.output


def three_sides(tmp_path: Path) -> Path:
    """The skirmish with a third warband (a copy of the Raiders on the east edge)."""
    from ruamel.yaml import YAML

    yaml = YAML()
    data = yaml.load(SKIRMISH.read_text(encoding="utf-8"))
    data["map"]["width"] = 16
    data["map"]["height"] = 16
    third = json.loads(json.dumps(data["sides"][1]))
    third["name"] = "Ghouls"
    third["zone"] = {"from": [14, 0], "to": [15, 15]}
    for i, member in enumerate(third["characters"]):
        member["id"] = f"g{i}"
        member["at"] = [15, 4 + 2 * i]
        member["facing"] = "W"
    data["sides"].append(third)
    for side in data["sides"]:
        side["commander"] = "random"
    data["options"] = {"turn_limit": 8}
    path = tmp_path / "three.yaml"
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return path


def test_three_sides_battle_simulate_and_map(tmp_path: Path) -> None:
    path = three_sides(tmp_path)
    result = run("battle", path, "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary["scores"]) == {"Company", "Raiders", "Ghouls"}
    assert summary["winner"] in ("Company", "Raiders", "Ghouls", None)
    out = tmp_path / "sim.duckdb"
    sim = run("simulate", path, "-n", "12", "--seed", "1", "--workers", "1", "--out", out,
              "--json")
    assert sim.exit_code == 0, sim.output
    odds = json.loads(sim.stdout)
    text = json.dumps(odds)
    for side in ("Company", "Raiders", "Ghouls"):
        assert side in text
    picture = tmp_path / "three.png"
    drawn = run("map", path, "--seed", "4", "--out", picture)
    assert drawn.exit_code == 0, drawn.output
    assert picture.stat().st_size > 0


def test_sweep_varies_a_score(tmp_path: Path) -> None:
    path = three_sides(tmp_path)
    result = run("sweep", path, "--vary", "sides[Ghouls].characters[g0].stats.melee=4:8:4",
                 "-n", "4", "--seed", "1", "--workers", "1")
    assert result.exit_code == 0, result.output


@pytest.mark.rule("WB-AMB-59")
def test_a_vortex_move_beyond_the_dice_bounds_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "sides:", "options:\n  vortex_default_move: 100000d6\nsides:")
    assert_invalid(path, "options.vortex_default_move")
