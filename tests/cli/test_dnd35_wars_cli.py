"""The command line with the `dnd35-wars` ruleset: schema, validate, battle, simulate and map on
its examples, and the one clear line (file, line, field; exit code 2; no traceback) that bad
scenarios get."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "dnd35-wars"
REGIMENT = EXAMPLES / "regiment-and-horde.yaml"
SIDES = {"regiment-and-horde": ("Humans", "Orcs"), "giant-and-goblins": ("Border army", "Hill folk"),
         "village-militia": ("Village", "Raiders"), "siege-of-a-keep": ("Besiegers", "Garrison"),
         "necromancer-horde": ("Order of the Dawn", "Dead of Vhal")}
"""Every example and its two sides (add each new example here)."""


def broken(tmp_path: Path, old: str, new: str, source: Path = REGIMENT) -> Path:
    """A copy of an example with one piece of text replaced (it must be there once)."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the only occurrence of ``needle``."""
    hits = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if needle in line]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


def assert_invalid(path: Path, line: int | None, *needles: str) -> str:
    """``validate`` exits 2 with one line ``FILE:LINE: FIELD: MESSAGE`` and no traceback;
    ``battle`` refuses the file with the same words."""
    result = run("validate", path)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    message = lines[0]
    prefix = f"{path}:{line}: " if line is not None else f"{path}:"
    assert message.startswith(prefix), message
    for needle in needles:
        assert needle in message, message
    assert_user_error(run("battle", path, "--seed", "1"), *needles)
    return message


# ---------------------------------------------------------------- schema and examples


@pytest.mark.rule("W35-SCALE-01", "W35-AMB-07")
def test_schema_prints_the_scenario_model_with_its_limits() -> None:
    result = run("schema", "dnd35-wars")
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    defs = schema["$defs"]
    assert {"Options", "Creature", "Attack", "UnitSpec", "SideSpec", "MapSpec", "TerrainSpec",
            "StructureSpec", "MonsterSpec", "CharacterSpec", "Mount"} <= set(defs)
    assert schema["properties"]["scale"]["enum"] == [15, 25, 50, 100, 200]
    assert schema["properties"]["ruleset"]["const"] == "dnd35-wars"
    assert defs["UnitSpec"]["additionalProperties"] is False
    assert defs["UnitSpec"]["properties"]["count"]["minimum"] == 1
    options = defs["Options"]["properties"]
    assert options["nearby_squares"]["default"] == 6
    assert options["flank_bonus_mutual"]["default"] is True


def test_rulesets_lists_dnd35_wars() -> None:
    result = run("rulesets")
    assert result.exit_code == 0 and "dnd35-wars" in result.stdout, result.output


def test_the_examples_are_all_listed() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.yaml")} == set(SIDES)


@pytest.mark.parametrize("name", sorted(SIDES))
def test_every_example_validates_and_plays_to_the_end(name: str) -> None:
    path = EXAMPLES / f"{name}.yaml"
    ok = run("validate", path)
    assert ok.exit_code == 0 and ok.stdout.startswith("ok: "), ok.output
    first, second = SIDES[name]
    for kind in ("random", "ai"):
        result = run("battle", path, "--seed", "1", "--commander", f"{first}={kind}",
                     "--commander", f"{second}={kind}", "--json")
        assert result.exit_code == 0, (kind, result.output)
        summary = json.loads(result.stdout)
        assert set(summary["scores"]) == {first, second}
        assert summary["winner"] in (first, second, None)


def test_a_battle_is_narrated_and_ends_with_its_summary() -> None:
    result = run("battle", REGIMENT, "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "fighters takes its turn" in result.stdout and "horde takes its turn" in result.stdout
    assert "The battle ends in round" in result.stdout
    assert "Humans" in result.stdout and "Orcs" in result.stdout


def test_the_same_seed_gives_the_same_battle() -> None:
    first = run("battle", REGIMENT, "--seed", "7", "--json")
    again = run("battle", REGIMENT, "--seed", "7", "--json")
    assert first.exit_code == again.exit_code == 0, first.output
    assert json.loads(first.stdout) == json.loads(again.stdout)


def test_simulate_twenty_battles(tmp_path: Path) -> None:
    out = tmp_path / "sim.duckdb"
    result = run("simulate", REGIMENT, "-n", "20", "--seed", "1", "--workers", "1",
                 "--out", out, "--json")
    assert result.exit_code == 0, result.output
    odds = json.loads(result.stdout)
    assert odds["battles"] == 20 and odds["ruleset"].startswith("dnd35-wars")
    sides = odds["sides"]
    assert set(sides) == {"Humans", "Orcs"}
    assert sides["Humans"]["wins"] + sides["Orcs"]["wins"] + odds["draws"]["count"] == 20
    assert {"fighters", "pikes", "archers", "horde", "hunters"} <= {u["unit"] for u in odds["units"]}


def test_map_draws_the_battlefield(tmp_path: Path) -> None:
    picture = tmp_path / "field.png"
    result = run("map", REGIMENT, "--seed", "1", "--round", "0", "--out", picture)
    assert result.exit_code == 0, result.output
    assert picture.stat().st_size > 1000


# ---------------------------------------------------------------- bad input


def test_a_misspelt_field_gets_a_suggestion(tmp_path: Path) -> None:
    path = broken(tmp_path, "          alignment: lawful neutral\n",
                  "          alignmnt: lawful neutral\n")
    assert_invalid(path, line_of(path, "alignmnt"),
                   "sides[0].units[2].creature.alignmnt", "unknown field 'alignmnt'",
                   "did you mean 'alignment'?")


def test_an_unknown_unit_field_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "        count: 300\n", "        count: 300\n        bogus: 1\n")
    assert_invalid(path, line_of(path, "bogus"), "sides[0].units[0].bogus",
                   "unknown field 'bogus'")


@pytest.mark.rule("W35-SCALE-01", "W35-AMB-07")
def test_a_scale_the_rules_do_not_offer_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "scale: 25", "scale: 30")
    assert_invalid(path, line_of(path, "scale: 30"), "scale:", "15, 25, 50, 100 or 200")


@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        ("          hp: 6\n", "          hp: .nan\n", "sides[0].units[2].creature.hp",
         "whole number (got nan)"),
        ("  width: 36\n", "  width: .inf\n", "map.width", "whole number (got inf)"),
        ("        count: 300\n", "        count: 1000000000\n", "sides[0].units[0].count",
         "less than or equal to 1000000"),
        ("at: [12, 9]", "at: [1e300, 9]", "sides[0].units[0].at[0]", "whole number"),
    ],
)
def test_nan_infinite_and_huge_numbers_are_refused(
    tmp_path: Path, old: str, new: str, field: str, words: str
) -> None:
    path = broken(tmp_path, old, new)
    assert_invalid(path, line_of(path, new.strip()), f"{field}: ", words)


def test_an_alias_bomb_is_refused(tmp_path: Path) -> None:
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    path = tmp_path / "laughs.yaml"
    path.write_text("ruleset: dnd35-wars\n" + "\n".join(levels) + "\n", encoding="utf-8")
    assert_invalid(path, 7, "alias expansion")


@pytest.mark.rule("W35-SIZE-02", "W35-TERM-06")
@pytest.mark.parametrize(
    ("old", "new", "at", "field", "words"),
    [
        # an unknown creature size
        ("          name: orc hunter\n", "          name: orc hunter\n          size: enormous\n",
         "size: enormous", "sides[1].units[1].creature.size", "'fine', 'diminutive'"),
        # a Colossal creature covers 2x2 squares at 15 ft: too big for a unit's counter
        ("scale: 25", "scale: 15", None, "sides[1].units[1].creature.size",
         "covers 2x2 squares at the 15-ft scale"),
        # counters not joined edge to edge
        ("        at: [28, 8]\n        columns: 3\n",
         "        counters: [[28, 8], [29, 8], [30, 8], [28, 7], [29, 7], [31, 6]]\n", "counters:",
         "sides[0].units[2].counters", "joined"),
    ],
)
def test_impossible_units_are_refused_at_their_line(
    tmp_path: Path, old: str, new: str, at: str | None, field: str, words: str
) -> None:
    path = broken(tmp_path, old, new)
    if "scale: 15" in new:  # and the hunters made Colossal
        text = path.read_text(encoding="utf-8").replace(
            "          name: orc hunter\n", "          name: orc hunter\n          size: colossal\n")
        path.write_text(text, encoding="utf-8")
        at = "size: colossal"
    assert at is not None
    assert_invalid(path, line_of(path, at), f"{field}", words)
