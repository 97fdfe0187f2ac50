"""Scenario numbers are strict, finite and bounded, in both rulesets (core/bounds.py).

Each case rewrites one line of a shipped example and checks the one error: its file, line,
field and words. The schema test checks that every number of every ruleset's scenario file
has a lower and an upper bound, so later fields cannot forget one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import ScenarioError
from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FB = EXAMPLES / "fantasy-battle" / "skirmish.yaml"
T5 = EXAMPLES / "dnd5e-tactics" / "open-field.yaml"


def rewritten(tmp_path: Path, example: Path, old: str, new: str) -> tuple[Path, int]:
    """The example with the first line holding ``old`` rewritten; the file and that line."""
    lines = example.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if old in line)
    lines[number] = lines[number].replace(old, new, 1)
    path = tmp_path / example.name
    path.write_text("".join(lines), encoding="utf-8")
    return path, number + 1


def refused(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.file == str(path)
    return info.value


CASES = [
    # (example, old text, new text, field, words in the message)
    (FB, "victory_points: 8", "victory_points: true", "victory_points",
     "expected a whole number (got a boolean, true)"),
    (FB, "max_rounds: 12", "max_rounds: false", "options.max_rounds", "a boolean, false"),
    (FB, "width: 14", "width: 14.0", "battlefield.width", "expected a whole number (got 14.0)"),
    (FB, "victory_points: 8", "victory_points: .nan", "victory_points", "expected a whole number"),
    (FB, "victory_points: 8", "victory_points: 1001", "victory_points",
     "less than or equal to 1000"),
    (FB, "max_rounds: 12", "max_rounds: 1001", "options.max_rounds", "less than or equal to 1000"),
    (FB, "width: 14", "width: 401", "battlefield.width", "less than or equal to 400"),
    (FB, "at: [5, 1]", "at: [5, 400]", "sides[0].squads[0].members[0].at[1]",
     "less than or equal to 399"),
    (FB, "{name: steady aim, attack: 1}", "{name: steady aim, attack: 21}",
     "sides[0].units[0].abilities[0].attack", "less than or equal to 20"),
    (T5, "members: 40", "members: true", "sides[0].units[0].members", "a boolean, true"),
    (T5, "members: 40", "members: 10001", "sides[0].units[0].members",
     "less than or equal to 10000"),
    (T5, "members: 40", "members: 1000000000", "sides[0].units[0].members",
     "less than or equal to 10000"),
    (T5, "max_rounds: 15", "max_rounds: 1001", "options.max_rounds",
     "less than or equal to 1000"),
    (T5, "board: {width: 48, height: 36}", "board: {width: .inf, height: 36}", "board.width",
     "expected a finite number, not NaN or infinity (got inf)"),
    (T5, "board: {width: 48, height: 36}", "board: {width: 48, height: .nan}", "board.height",
     "expected a finite number"),
    (T5, "board: {width: 48, height: 36}", "board: {width: true, height: 36}", "board.width",
     "expected a number (got a boolean, true)"),
    (T5, "at: [14, 4]", "at: [.nan, 4]", "sides[0].units[0].at[0]", "finite number"),
    (T5, "facing: 0", "facing: -.inf", "sides[0].units[0].facing", "finite number"),
    (T5, "ac: 16", "ac: 51", "sides[0].units[0].member.ac", "less than or equal to 50"),
    (T5, "hp: 11", "hp: 10001", "sides[0].units[0].member.hp", "less than or equal to 10000"),
    (T5, "dex: 1", "dex: 1.5", "sides[0].units[0].member.dex", "expected a whole number"),
]


@pytest.mark.parametrize(("example", "old", "new", "field", "words"), CASES)
def test_a_bad_number_is_refused_with_its_file_line_and_field(
    tmp_path: Path, example: Path, old: str, new: str, field: str, words: str
) -> None:
    path, line = rewritten(tmp_path, example, old, new)
    err = refused(path)
    assert (err.line, err.field) == (line, field), str(err)
    assert words in err.message, err.message


@pytest.mark.parametrize(("damage", "words"), [
    ("1000000d6", "1000000 dice in one group; use 1 to 100"),
    ("101d6", "101 dice in one group"),
    ("1d1001", "a die of 1001 faces; use 1 to 1000"),
    ("1d0", "a die of 0 faces"),
    ("0d6", "0 dice in one group"),
    ("1d6+10001", "10001 is more than 10000"),
    ("1d4-10", "'1d4-10' is at most -6; it may never be below 0 at its highest"),
    ("1d6-1d8", "at most -2"),
    ("+".join(["1d4"] * 21), "has 21 terms; the most is 20"),
    ("1" * 101, "at most 100 characters"),
])
def test_a_dnd5e_damage_expression_is_bounded_and_never_negative_at_its_highest(
    tmp_path: Path, damage: str, words: str
) -> None:
    path, line = rewritten(tmp_path, T5, "damage: 1d6+1,", f"damage: '{damage}',")
    err = refused(path)
    assert err.line == line
    assert err.field is not None and err.field.endswith(".damage"), err.field
    assert words in err.message, err.message


def test_a_dnd5e_damage_of_zero_at_its_highest_is_allowed(tmp_path: Path) -> None:
    path, _ = rewritten(tmp_path, T5, "damage: 1d6+1,", "damage: 1d4-4,")
    assert load_scenario(path).model.sides[0].units[0].member.attacks[0].damage == "1d4-4"


def test_heal_amounts_are_bounded_like_damage(tmp_path: Path) -> None:
    base = T5.read_text(encoding="utf-8")
    assert "heals:" not in base
    text = base.replace(
        "          multiattack: [Greatsword, Greatsword]\n",
        "          multiattack: [Greatsword, Greatsword]\n"
        "          heals: [{name: Mend, amount: 200d8}]\n", 1)
    path = tmp_path / "heal.yaml"
    path.write_text(text, encoding="utf-8")
    err = refused(path)
    assert err.field == "sides[0].units[0].commander.heals[0].amount"
    assert "200 dice in one group" in err.message


def test_the_examples_still_load() -> None:
    for ruleset in all_rulesets().values():
        for example in ruleset.examples():
            assert load_scenario(example).ruleset is ruleset


def _unbounded_numbers(node: Any, path: str = "") -> list[str]:
    """Paths of schema nodes typed integer or number that lack a lower or an upper bound."""
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("type") in ("integer", "number") and "enum" not in node \
                and "const" not in node:
            low = "minimum" in node or "exclusiveMinimum" in node
            high = "maximum" in node or "exclusiveMaximum" in node
            if not (low and high):
                found.append(path)
        for key, value in node.items():
            found += _unbounded_numbers(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _unbounded_numbers(value, f"{path}/{index}")
    return found


@pytest.mark.parametrize("name", sorted(all_rulesets()))
def test_every_number_in_the_schema_has_both_bounds(name: str) -> None:
    schema = all_rulesets()[name].scenario_model.model_json_schema()
    assert _unbounded_numbers(schema) == []
    text = str(schema)
    assert "'maximum': 1000" in text  # e.g. rounds: the bounds are shown to editors


def test_the_schema_command_shows_the_bounds() -> None:
    import json

    from tests.cli_helpers import run

    result = run("schema", "dnd5e-tactics")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    members = schema["$defs"]["UnitSpec"]["properties"]["members"]
    assert (members["minimum"], members["maximum"]) == (1, 10_000)
