"""Fuzzing the scenario files of both rulesets through ``warhost validate`` and ``warhost battle``.

Hypothesis starts from a shipped example, makes one or two changes (a field set to a wrong
type, a boolean, a huge, negative or non-finite number, a long or unicode string, a deep
list; a field removed; an unknown field added; a position dropped, so the unit must be
deployed) and sometimes adds an alias bomb. Whatever comes out:

* ``validate --json`` exits 0, or exits 2 listing problems that each name the file and, for
  anything but a problem of the whole file (malformed, too deep, too big), a field;
* ``battle`` on a refused file exits 2 with one line naming the file;
* ``battle`` on an accepted file (cut to one round, random commanders) finishes or exits 2
  with one line, and never with exit code 3 (an internal error) or a traceback.

Everything runs in-process with typer's CliRunner; the examples are few and small, so the run
stays short (no time or memory is asserted here; tests/cli/test_hostile_input.py does that).
"""

from __future__ import annotations

import copy
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from tests.cli_helpers import run
from warhost.core.scenario import read_yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BASES = {
    "fantasy-battle": EXAMPLES / "fantasy-battle" / "skirmish.yaml",
    "dnd5e-tactics": EXAMPLES / "dnd5e-tactics" / "forest-ambush.yaml",
    "warband": EXAMPLES / "warband" / "hero-skirmish.yaml",
}

Path_ = tuple[str | int, ...]

HOSTILE: Any = st.one_of(
    st.sampled_from([
        True, False, None, 0, -1, 1, 2, 2**31, 10**9, -10**9, 10**30, 0.5, -0.0,
        math.nan, math.inf, -math.inf, "", "x" * 3000, "☃ ünïcødé ﷽", "1000000d6",
        "1d4-10", "0d6", "1d0", "9" * 40 + "d6", "1d6+" + "9" * 30, [], {}, [[]], {"a": 1},
        [1, 2, 3], [[0, 0], [1, 1]],
    ]),
    st.integers(),
    st.integers(0, 6),
    st.floats(),
    st.text(max_size=12),
)
"""Values put in place of a field's (small whole numbers too, which are often legal)."""

DEEP = 0
for _ in range(80):
    DEEP = [DEEP]  # type: ignore[assignment]
"""A list nested 80 deep: more than a scenario may nest."""

ALIAS_BOMB = "\n".join(
    ["zz0: &zz0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"zz{i}: &zz{i} [" + ", ".join([f"*zz{i - 1}"] * 9) + "]" for i in range(1, 9)]
) + "\n"

FIELDLESS = ("malformed YAML", "more than 200000 values", "nested more than",
             "a scenario must be a mapping")
"""Problems of the whole file, which name no field."""


def paths(node: Any, here: Path_ = ()) -> list[Path_]:
    """Every place in the data: mapping keys and list items, at every depth."""
    out: list[Path_] = []
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((*here, key))
            out += paths(value, (*here, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.append((*here, index))
            out += paths(value, (*here, index))
    return out


def parent_of(data: Any, path: Path_) -> Any:
    """The container holding ``path``'s last step, or None when the path is gone."""
    node = data
    for step in path[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    last = path[-1]
    if isinstance(node, dict) and last in node or isinstance(node, list) and \
            isinstance(last, int) and last < len(node):
        return node
    return None


@st.composite
def mutants(draw: st.DrawFn, base: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A changed copy of ``base`` and whether an alias bomb is to be added."""
    data = copy.deepcopy(base)
    places = paths(base)
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(places))
        holder = parent_of(data, path)
        if holder is None:
            continue
        change = draw(st.sampled_from(["set", "set", "drop", "drop", "unknown", "unplace",
                                       "unplace", "unplace", "deep"]))
        key = path[-1]
        if change == "set":
            holder[key] = draw(HOSTILE)
        elif change == "drop":
            del holder[key]
        elif change == "deep":
            holder[key] = DEEP
        elif change == "unknown" and isinstance(holder[key], dict):
            holder[key][draw(st.sampled_from(["colour ", "x", "ÿ", "victory_point"]))] = 1
        elif change == "unplace" and isinstance(holder[key], dict):
            holder[key].pop("at", None)
    return data, draw(st.integers(0, 9)) == 0


def dump(data: Any) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = None
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def playable(data: dict[str, Any]) -> dict[str, Any]:
    """An accepted scenario cut to one round with random commanders, for a quick battle."""
    out = copy.deepcopy(data)
    out.setdefault("options", {})["max_rounds"] = 1
    for side in out["sides"]:
        side["commander"] = "random"
        side.pop("orders", None)
    return out


def check_validate_output(path: Path, stdout: str) -> None:
    """``validate --json``: every problem names the file and, unless it is about the whole
    file, a field."""
    report = json.loads(stdout)
    assert report["ok"] is False and report["problems"], report
    for problem in report["problems"]:
        assert problem["file"] == str(path), problem
        assert problem["field"] or problem["message"].startswith(FIELDLESS), problem
        assert "\n" not in problem["message"], problem


def check_battle_refused(path: Path, code: int, stderr: str, output: str) -> None:
    assert code == 2, (code, output)
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"error: {path}"), lines[0]


def fuzz_one(tmp_path: Path, data: dict[str, Any], bomb: bool) -> None:
    path = tmp_path / "fuzzed.yaml"
    path.write_text(dump(data) + (ALIAS_BOMB if bomb else ""), encoding="utf-8")
    checked = run("validate", path, "--json")
    assert "Traceback" not in checked.output and "internal error" not in checked.output
    assert checked.exit_code in (0, 2), checked.output
    if checked.exit_code == 2:
        check_validate_output(path, checked.stdout)
        fought = run("battle", path, "--seed", "1", "--quiet")
        check_battle_refused(path, fought.exit_code, fought.stderr, fought.output)
        return
    quick = tmp_path / "quick.yaml"
    quick.write_text(dump(playable(data)), encoding="utf-8")
    fought = run("battle", quick, "--seed", "1", "--quiet")
    assert "Traceback" not in fought.output and "internal error" not in fought.output
    assert fought.exit_code in (0, 2), fought.output
    if fought.exit_code == 2:
        check_battle_refused(quick, fought.exit_code, fought.stderr, fought.output)


FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("ruleset", sorted(BASES))
def test_fuzzed_scenarios_exit_0_or_2_naming_file_and_field(
    ruleset: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    base, _ = read_yaml(BASES[ruleset].read_text(encoding="utf-8"), str(BASES[ruleset]))
    folder = tmp_path_factory.mktemp(ruleset)

    @FUZZ
    @given(mutants(base))
    def fuzz(case: tuple[dict[str, Any], bool]) -> None:
        fuzz_one(folder, *case)

    fuzz()
