"""Hostile YAML is refused quickly, with a line, before it can cost time or memory
(core/scenario.py: MAX_BYTES, MAX_DEPTH, MAX_VALUES).

Memory is checked with tracemalloc around the load (peak well below what an expansion would
take); time only by the generous pytest run itself, never asserted.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from warhost.core.errors import ScenarioError
from warhost.core.scenario import MAX_BYTES, MAX_DEPTH, MAX_VALUES, load_scenario, read_yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def refused(path: Path) -> tuple[ScenarioError, int]:
    """The error of loading ``path`` and the peak memory the attempt took, in bytes."""
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError) as info:
            load_scenario(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.file == str(path)
    return info.value, peak


BILLION_LAUGHS = """\
ruleset: fantasy-battle
victory_points: 3
a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_an_alias_bomb_is_refused_without_expanding_it(tmp_path: Path) -> None:
    path = tmp_path / "laughs.yaml"
    path.write_text(BILLION_LAUGHS, encoding="utf-8")
    err, peak = refused(path)
    assert err.message == f"more than {MAX_VALUES} values (alias expansion?)"
    assert err.line == 8  # f, the first list whose expansion passes the limit (9**6 values)
    assert peak < 20_000_000


def test_aliases_within_the_limit_still_work(tmp_path: Path) -> None:
    """A stat block written once and reused with an alias is an ordinary scenario."""
    text = (EXAMPLES / "dnd5e-tactics" / "open-field.yaml").read_text(encoding="utf-8")
    text = text.replace("        member:\n          name: Guard\n",
                        "        member: &guard\n          name: Guard\n", 1)
    path = tmp_path / "alias.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_scenario(path).name == "Open field"


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w", encoding="utf-8") as out:
        out.write("ruleset: fantasy-battle\nname: '")
        out.write("x" * (MAX_BYTES + 10))
        out.write("'\n")
    err, peak = refused(path)
    assert err.message == f"the scenario file is larger than {MAX_BYTES} bytes"
    assert peak < MAX_BYTES // 10  # nothing of it was read


def test_a_device_without_a_size_is_read_only_up_to_the_limit() -> None:
    zero = Path("/dev/zero")
    if not zero.exists():
        pytest.skip("no /dev/zero here")
    err, peak = refused(zero)
    assert err.message == f"the scenario file is larger than {MAX_BYTES} bytes"
    assert peak < 4 * MAX_BYTES


def test_text_over_the_size_limit_is_refused_by_read_yaml() -> None:
    with pytest.raises(ScenarioError, match="larger than"):
        read_yaml("a: '" + "x" * MAX_BYTES + "'\n", "<text>")


@pytest.mark.parametrize(("nesting", "line"), [
    ("x: " + "[" * 5000 + "]" * 5000, 2),
    ("x:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 200)), 66),
])
def test_deep_nesting_is_refused_while_scanning(tmp_path: Path, nesting: str, line: int) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("ruleset: fantasy-battle\n" + nesting + "\n", encoding="utf-8")
    err, _ = refused(path)
    assert err.message == f"malformed YAML: nested more than {MAX_DEPTH} levels deep"
    assert err.line == line


def test_nesting_through_aliases_is_refused_too(tmp_path: Path) -> None:
    deep = "[" * 40 + "1" + "]" * 40
    text = ("ruleset: fantasy-battle\n"
            f"a: &a {deep}\n"
            f"b: &b {deep.replace('1', '*a')}\n")
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    err, _ = refused(path)
    assert err.message == f"nested more than {MAX_DEPTH} levels deep (through aliases)"


def test_a_duplicate_key_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("ruleset: fantasy-battle\nname: a\nvictory_points: 3\nname: b\n",
                    encoding="utf-8")
    err, _ = refused(path)
    assert err.line == 4
    assert 'duplicate key "name"' in err.message


def test_an_anchored_boolean_is_still_a_boolean(tmp_path: Path) -> None:
    """ruamel keeps an anchored ``true`` as an int subclass: it must not pass for the number 1."""
    text = (EXAMPLES / "fantasy-battle" / "skirmish.yaml").read_text(encoding="utf-8")
    text = text.replace("victory_points: 8", "victory_points: &yes true", 1)
    path = tmp_path / "anchored.yaml"
    path.write_text(text, encoding="utf-8")
    err, _ = refused(path)
    assert err.field == "victory_points"
    assert err.message == "expected a whole number (got a boolean, true)"


@pytest.mark.parametrize(("value", "what"), [
    ("!foo bar", "tag !foo"),
    ("!!binary aGVsbG8=", "bytes"),
    ("!!set {a, b}", "CommentedSet"),
])
def test_custom_tags_and_odd_types_are_refused_with_their_line(
    tmp_path: Path, value: str, what: str
) -> None:
    path = tmp_path / "tag.yaml"
    path.write_text(f"ruleset: fantasy-battle\nvictory_points: 3\nname: {value}\n",
                    encoding="utf-8")
    err, _ = refused(path)
    assert (err.line, err.field) == (3, "name")
    assert err.message.startswith(f"unsupported YAML value ({what})")


def test_a_date_is_read_as_its_text(tmp_path: Path) -> None:
    text = (EXAMPLES / "fantasy-battle" / "skirmish.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Skirmish at the Old Mill", "name: 2024-05-01", 1)
    path = tmp_path / "dated.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_scenario(path).name == "2024-05-01"


def test_a_long_value_is_cut_short_in_the_message(tmp_path: Path) -> None:
    text = (EXAMPLES / "fantasy-battle" / "skirmish.yaml").read_text(encoding="utf-8")
    text = text.replace("victory_points: 8", "victory_points: " + "z" * 5000, 1)
    path = tmp_path / "long.yaml"
    path.write_text(text, encoding="utf-8")
    err, _ = refused(path)
    assert err.field == "victory_points"
    assert len(str(err)) < 200 + len(str(path))
    assert err.message.endswith("...)")
