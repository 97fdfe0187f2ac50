"""Bad scenario files give one clear :class:`ScenarioError` naming the file, line and field.

Every case starts from the small legal scenario :data:`BASE` (line numbers shown in its
comments), changes one thing without moving any line, writes it to a file and loads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warhost.core.errors import ScenarioError
from warhost.core.scenario import load_scenario

BASE = """\
ruleset: fantasy-battle
name: error test
victory_points: 5
options:
  first_player: A
battlefield:
  width: 10
  height: 8
  terrain:
    - type: blocking
      squares: [[8, 0], [4, 4]]
sides:
  - name: Good
    squads:
      - id: g-sq
        type: infantry
        members:
          - {id: g1, class: warrior, at: [1, 1]}
          - {id: g2, class: warrior, at: [2, 1]}
          - {id: g3, class: warrior, at: [3, 1]}
          - {id: g4, class: warrior, at: [4, 1]}
    units:
      - id: g-hero
        rank: champion
        type: infantry
        class: warrior
        at: [6, 0]
        feats: [frenzy]
  - name: Evil
    squads:
      - id: e-sq
        type: infantry
        members:
          - {id: e1, class: warrior, at: [1, 6]}
          - {id: e2, class: warrior, at: [2, 6]}
          - {id: e3, class: warrior, at: [3, 6]}
          - {id: e4, class: warrior, at: [4, 6]}
    units:
      - id: e-hero
        rank: champion
        type: infantry
        class: warrior
        at: [6, 7]
        feats: [throw]
"""
# Line numbers in BASE: 1 ruleset, 3 victory_points, 5 first_player, 7 width, 12 sides,
# 17 Good's members, 18-21 g1-g4, 23 g-hero, 27 its at, 29 Evil, 41 e-hero.


def write(tmp_path: Path, old: str, new: str) -> Path:
    """BASE with the single line containing ``old`` rewritten; the file it was written to."""
    assert BASE.count(old) == 1, old
    text = BASE.replace(old, new)
    assert text.count("\n") == BASE.count("\n"), "a case must not move any line"
    path = tmp_path / "battle.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def error_for(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    err = info.value
    assert err.file == str(path)
    return err


def line_text(line: int) -> str:
    return BASE.splitlines()[line - 1]


def test_base_is_legal(tmp_path: Path) -> None:
    path = tmp_path / "battle.yaml"
    path.write_text(BASE, encoding="utf-8")
    scenario = load_scenario(path)
    assert scenario.name == "error test"
    assert scenario.line_of(("sides", 0, "units", 0, "at")) == 27
    assert "at: [6, 0]" in line_text(27)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    err = error_for(path)
    assert err.message == "no such scenario file"
    assert str(err) == f"{path}: no such scenario file"


# --------------------------------------------------------------------------- malformed YAML


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "name: error test", "name: error: test")
    err = error_for(path)
    assert err.line == 2
    assert err.field is None
    assert err.message == "malformed YAML: mapping values are not allowed here"
    assert str(err) == f"{path}:2: malformed YAML: mapping values are not allowed here"


def test_bad_indentation_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "  height: 8", "   height: 8")
    err = error_for(path)
    assert err.line == 8
    assert err.message.startswith("malformed YAML: ")


def test_scenario_must_be_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "battle.yaml"
    path.write_text("- just\n- a list\n", encoding="utf-8")
    err = error_for(path)
    assert (err.line, err.message) == (1, "a scenario must be a mapping of fields")


# --------------------------------------------------------------------------- ruleset


def test_unknown_ruleset_suggests_the_nearest(tmp_path: Path) -> None:
    path = write(tmp_path, "ruleset: fantasy-battle", "ruleset: fantasy-batle")
    err = error_for(path)
    assert (err.line, err.field) == (1, "ruleset")
    assert err.message.startswith(
        "unknown ruleset 'fantasy-batle'; did you mean 'fantasy-battle'?")
    assert str(err).startswith(f"{path}:1: ruleset: unknown ruleset 'fantasy-batle'")


def test_missing_ruleset(tmp_path: Path) -> None:
    path = write(tmp_path, "ruleset: fantasy-battle", "# no ruleset")
    err = error_for(path)
    assert (err.line, err.field, err.message) == (1, "ruleset", "missing required field")


# --------------------------------------------------------------------------- unknown fields


def test_misspelled_field_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "victory_points: 5", "victroy_points: 5")
    err = error_for(path)
    assert (err.line, err.field) == (3, "victroy_points")
    assert err.message == "unknown field 'victroy_points'; did you mean 'victory_points'?"


def test_misspelled_field_is_among_the_problems(tmp_path: Path) -> None:
    path = write(tmp_path, "victory_points: 5", "victroy_points: 5")
    err = error_for(path)
    problems = [(p.line, p.field, p.message) for p in err.problems]  # type: ignore[attr-defined]
    assert (3, "victroy_points",
            "unknown field 'victroy_points'; did you mean 'victory_points'?") in problems


def test_misspelled_unit_field_suggests_class(tmp_path: Path) -> None:
    path = write(tmp_path, "{id: g2, class: warrior", "{id: g2, clas: warrior")
    err = error_for(path)
    assert (err.line, err.field) == (19, "sides[0].squads[0].members[1].clas")
    assert err.message == "unknown field 'clas'; did you mean 'class'?"


def test_misspelled_unit_field_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, "{id: g2, class: warrior", "{id: g2, clas: warrior")
    err = error_for(path)
    problems = {p.field: p for p in err.problems}  # type: ignore[attr-defined]
    bad = problems["sides[0].squads[0].members[1].clas"]
    assert bad.line == 19
    assert bad.message.startswith("unknown field 'clas'")


def test_unknown_option_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "first_player: A", "reinforcement: true")
    err = error_for(path)
    assert (err.line, err.field) == (5, "options.reinforcement")
    assert err.message == "unknown field 'reinforcement'; did you mean 'reinforcements'?"
    assert str(err) == (f"{path}:5: options.reinforcement: unknown field 'reinforcement'; "
                        f"did you mean 'reinforcements'?")


# --------------------------------------------------------------------------- wrong values


def test_wrong_type(tmp_path: Path) -> None:
    path = write(tmp_path, "width: 10", "width: wide")
    err = error_for(path)
    assert (err.line, err.field) == (7, "battlefield.width")
    assert err.message == "expected a whole number (got 'wide')"


def test_negative_count(tmp_path: Path) -> None:
    path = write(tmp_path, "at: [6, 0]", "fate_points: -1")
    err = error_for(path)
    assert (err.line, err.field) == (27, "sides[0].units[0].fate_points")
    assert err.message == "Input should be greater than or equal to 0 (got -1)"


def test_victory_points_zero(tmp_path: Path) -> None:
    path = write(tmp_path, "victory_points: 5", "victory_points: 0")
    err = error_for(path)
    assert (err.line, err.field) == (3, "victory_points")
    assert err.message == "Input should be greater than or equal to 1 (got 0)"


# --------------------------------------------------------------------------- setup rules


def test_unit_off_the_map(tmp_path: Path) -> None:
    path = write(tmp_path, "at: [6, 0]", "at: [12, 0]")
    err = error_for(path)
    assert (err.line, err.field) == (27, "sides[0].units[0].at")
    assert err.message == "unit 'g-hero' at (12, 0) is off the map (map is 10×8)"
    assert str(err) == (f"{path}:27: sides[0].units[0].at: unit 'g-hero' at (12, 0) is off "
                        f"the map (map is 10×8)")


def test_unit_on_blocking_terrain(tmp_path: Path) -> None:
    path = write(tmp_path, "at: [6, 0]", "at: [8, 0]")
    err = error_for(path)
    assert (err.line, err.field) == (27, "sides[0].units[0].at")
    assert err.message == ("unit 'g-hero' at (8, 0) would stand on blocking terrain at (8, 0); "
                           "no unit may be deployed on blocking, cliff, slope or deep water "
                           "squares")


def test_two_units_in_one_square(tmp_path: Path) -> None:
    path = write(tmp_path, "at: [6, 0]", "at: [1, 1]")
    err = error_for(path)
    assert (err.line, err.field) == (27, "sides[0].units[0].at")
    assert err.message == "units 'g1' and 'g-hero' both occupy (1, 1)"


def test_squad_member_deployed_apart(tmp_path: Path) -> None:
    path = write(tmp_path, "{id: g4, class: warrior, at: [4, 1]}",
                 "{id: g4, class: warrior, at: [9, 1]}")
    err = error_for(path)
    assert (err.line, err.field) == (21, "sides[0].squads[0].members[3].at")
    assert err.message == ("squad 'g-sq': 'g4' at (9, 1) is not adjacent to another unit of "
                           "its squad (FB-SETUP-13)")


def test_squad_with_wrong_size(tmp_path: Path) -> None:
    path = write(tmp_path, "          - {id: g4, class: warrior, at: [4, 1]}",
                 "          # g4 stayed at home")
    err = error_for(path)
    assert (err.line, err.field) == (17, "sides[0].squads[0].members")
    assert err.message == ("squad 'g-sq' has 3 members; an infantry squad has exactly 4 "
                           "(FB-SQUAD-02)")


def test_unequal_activations(tmp_path: Path) -> None:
    path = write(tmp_path, "      - id: e-hero\n        rank: champion\n        type: infantry\n"
                 "        class: warrior\n        at: [6, 7]\n        feats: [throw]\n",
                 "      []\n\n\n\n\n\n")
    err = error_for(path)
    assert (err.line, err.field) == (29, "sides[1]")
    assert err.message == (
        "unequal activations: 'Good' has 2 (1 squad + 1 Elite/Champion unit) but 'Evil' has 1 "
        "(1 squad + 0 Elite/Champion units); both sides need the same number (FB-SETUP-02) "
        "unless option allow_unequal_activations is set")


def test_class_not_allowed_for_type(tmp_path: Path) -> None:
    path = write(tmp_path, "        class: warrior\n        at: [6, 0]",
                 "        class: knight\n        at: [6, 0]")
    err = error_for(path)
    assert (err.line, err.field) == (26, "sides[0].units[0].class")
    assert err.message == ("unit 'g-hero': class 'knight' is not an infantry class (warrior, "
                           "pike, archer)")


def test_first_player_unknown(tmp_path: Path) -> None:
    path = write(tmp_path, "first_player: A", "first_player: Orcs")
    err = error_for(path)
    assert (err.line, err.field) == (5, "options.first_player")
