"""Hostile scenario files at the command line: refused in one line naming the file, with exit
code 2, before anything grows with a number read from the file.

The two subprocess tests run ``warhost validate`` in a fresh process and read its peak memory
from ``resource.getrusage``; the generous timeout only guards against a hang (no timing is
asserted).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
T5 = EXAMPLES / "dnd5e-tactics" / "open-field.yaml"
FB = EXAMPLES / "fantasy-battle" / "skirmish.yaml"

PEAK_LIMIT_KB = 400_000
"""A child that only reads and checks a scenario stays far below this (about 70 MB today);
building 10**9 members took 6 GB."""


def rewritten(tmp_path: Path, example: Path, old: str, new: str) -> Path:
    text = example.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / example.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


WRAPPER = """
import json, resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "warhost", "validate", sys.argv[1]],
                      capture_output=True, text=True, check=False)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps([done.returncode, done.stdout, done.stderr, peak]))
"""
"""Runs ``warhost validate`` in a grandchild and reports its peak memory: the wrapper has no
other children, so the figure is that validation's alone."""


def child_validate(path: Path) -> tuple[int, str, str, int]:
    """Exit code, stdout, stderr and peak memory (KB) of ``warhost validate PATH`` run in a
    fresh process."""
    done = subprocess.run([sys.executable, "-c", WRAPPER, str(path)], capture_output=True,
                          text=True, timeout=300, check=True)
    code, out, err, peak = json.loads(done.stdout)
    return int(code), str(out), str(err), int(peak)


def test_a_unit_of_a_billion_members_is_refused_in_a_small_child(tmp_path: Path) -> None:
    path = rewritten(tmp_path, T5, "members: 40", "members: 1000000000")
    code, out, err, peak_kb = child_validate(path)
    assert code == 2, err
    assert "sides[0].units[0].members: Input should be less than or equal to 10000" in out
    assert "Traceback" not in out + err
    assert peak_kb < PEAK_LIMIT_KB


def test_an_alias_bomb_is_refused_in_a_small_child(tmp_path: Path) -> None:
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    path = tmp_path / "laughs.yaml"
    path.write_text("ruleset: dnd5e-tactics\n" + "\n".join(levels) + "\n", encoding="utf-8")
    code, out, err, peak_kb = child_validate(path)
    assert code == 2, err
    assert out.strip() == f"{path}:7: more than 200000 values (alias expansion?)"
    assert peak_kb < PEAK_LIMIT_KB


@pytest.mark.parametrize(("old", "new", "words"), [
    ("damage: 1d6+1,", "damage: 1000000d6,", "damage: '1000000d6': 1000000 dice in one group"),
    ("damage: 1d6+1,", "damage: 1d4-10,", "damage: '1d4-10' is at most -6"),
    ("members: 40", "members: .nan", "members: expected a whole number (got nan)"),
    ("board: {width: 48", "board: {width: .inf", "board.width: expected a finite number"),
])
def test_battle_refuses_a_bad_number_in_one_line(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    path = rewritten(tmp_path, T5, old, new)
    line = assert_user_error(run("battle", path, "--seed", "1"), str(path))
    assert words in line, line


def test_battle_refuses_a_boolean_victory_points_in_one_line(tmp_path: Path) -> None:
    path = rewritten(tmp_path, FB, "victory_points: 8", "victory_points: true")
    assert_user_error(run("battle", path, "--seed", "1"),
                      f"{path}:", "victory_points: expected a whole number (got a boolean, true)")


@pytest.mark.parametrize("command", ["validate", "battle"])
def test_a_big_file_is_refused_before_parsing(tmp_path: Path, command: str) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("ruleset: fantasy-battle\n" + "# padding\n" * 120_000, encoding="utf-8")
    result = run(command, path, *(["--seed", "1"] if command == "battle" else []))
    assert result.exit_code == 2
    out = result.stdout if command == "validate" else result.stderr
    assert f"{path}: the scenario file is larger than 1000000 bytes" in out


def test_deep_nesting_is_refused_by_validate(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("ruleset: dnd5e-tactics\nname: " + "[" * 3000 + "]" * 3000 + "\n",
                    encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 2
    assert result.stdout.strip() == f"{path}:2: malformed YAML: nested more than 64 levels deep"
