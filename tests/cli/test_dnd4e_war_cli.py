"""The command line with the `dnd4e-war` ruleset: schema, validate and battle on its examples,
and the one clear line (file, line, field; exit code 2; no traceback) that bad scenarios get
(W4-UNIT, W4-STAT, W4-SETUP and the setup rulings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "dnd4e-war"
ARCHERS = EXAMPLES / "hill-archers.yaml"
SHIELD_WALL = EXAMPLES / "shield-wall.yaml"
FLANK = EXAMPLES / "flank-charge.yaml"
SIDES = {"hill-archers": ("Elves", "Drow"), "shield-wall": ("Goblins", "Dwarves"),
         "flank-charge": ("Humans", "Orcs"), "siege-line": ("Dwarves", "Orcs"),
         "border-clash": ("Legion", "Horde"), "generals-duel": ("Humans", "Hobgoblins")}


def broken(tmp_path: Path, old: str, new: str, source: Path = ARCHERS) -> Path:
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

@pytest.mark.rule("W4-AMB-74")
@pytest.mark.rule("W4-AMB-75")
def test_schema_prints_the_scenario_model_with_its_defaults() -> None:
    result = run("schema", "dnd4e-war")
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    defs = schema["$defs"]
    assert {"Options", "Board", "Profile", "Power", "UnitSpec", "SideSpec", "TerrainSpec",
            "CommandSpec", "CaptainSpec", "VictorySpec"} <= set(defs)
    assert defs["Board"]["properties"]["width"]["default"] == 72.0
    assert defs["Board"]["properties"]["height"]["default"] == 48.0
    options = defs["Options"]["properties"]
    assert options["turn_limit"]["default"] == 6
    assert options["deployment_depth"]["default"] == 12.0
    assert options["wheel_distance"]["default"] == "outer_front_corner"
    assert defs["Profile"]["additionalProperties"] is False
    speed = defs["Profile"]["properties"]["speed"]
    assert speed["maximum"] == 40 and speed["minimum"] == 0
    assert schema["properties"]["ruleset"]["const"] == "dnd4e-war"


def test_rulesets_lists_dnd4e_war() -> None:
    result = run("rulesets")
    assert result.exit_code == 0 and "dnd4e-war" in result.stdout, result.output


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


def test_the_examples_are_all_listed() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.yaml")} == set(SIDES)


# ---------------------------------------------------------------- bad input

@pytest.mark.rule("W4-UNIT-11")
def test_overlapping_trays_are_refused_at_the_line_of_at(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [37, 38]", "at: [31, 38]", SHIELD_WALL)
    assert_invalid(path, line_of(path, "at: [31, 38]"), "sides[0].units[1].at",
                   "troll overlaps horde-west", "W4-UNIT-11")


@pytest.mark.rule("W4-UNIT-11")
def test_units_of_one_side_may_not_touch(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [36, 36]", "at: [36, 32]", FLANK)
    assert_invalid(path, line_of(path, "at: [36, 32]"), "sides[1].units[1].at",
                   "archers touches warriors", "W4-UNIT-11")


@pytest.mark.rule("W4-UNIT-11")
@pytest.mark.rule("W4-UNIT-12")
def test_enemy_units_may_not_start_within_one_inch(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [36, 28]", "at: [36, 20.5]", FLANK)
    assert_invalid(path, line_of(path, "at: [36, 20.5]"), "sides[1].units[0].at",
                   "warriors starts 0.5\" from the enemy unit", "W4-UNIT-11")


@pytest.mark.rule("W4-AMB-04")
def test_a_company_larger_than_allowed_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "company: {columns: 2, rows: 1}", "company: {columns: 16, rows: 8}")
    assert_invalid(path, line_of(path, "columns: 16"), "profiles.Giant spider.company",
                   "16 x 8 = 128 models", "larger than allowed (64")


@pytest.mark.rule("W4-UNIT-06")
@pytest.mark.rule("W4-STAT-10")
def test_a_unit_size_outside_its_profile_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "companies: 5\n        files: 3\n        at: [26, 38]",
                  "companies: 11\n        files: 3\n        at: [26, 38]", SHIELD_WALL)
    assert_invalid(path, line_of(path, "companies: 11"), "sides[0].units[0].companies",
                   "11 companies", "unit size is 2 to 10", "W4-STAT-10")


@pytest.mark.rule("W4-STAT-10")
def test_a_skirmishing_unit_counts_its_size_in_models(tmp_path: Path) -> None:
    path = broken(tmp_path, "companies: 12", "companies: 3")
    assert_invalid(path, line_of(path, "companies: 3"), "3 models", "4 to 16")


def test_an_unknown_profile_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    path = broken(tmp_path, "profile: Elf spearman", "profile: Elf spearmen")
    assert_invalid(path, line_of(path, "profile: Elf spearmen"), "sides[0].units[1].profile",
                   "unknown profile 'Elf spearmen'", "did you mean 'Elf spearman'?")


@pytest.mark.parametrize(
    ("old", "new", "needles"),
    [
        ("    speed: 6\n    initiative: 7", "    speed: .nan\n    initiative: 7",
         ("profiles.Giant spider.speed", "finite number")),
        ("    speed: 6\n    initiative: 7", "    speed: .inf\n    initiative: 7",
         ("profiles.Giant spider.speed", "finite number")),
        ("    speed: 6\n    initiative: 7", "    speed: 1e30\n    initiative: 7",
         ("profiles.Giant spider.speed", "less than or equal to 40")),
        ("at: [52, 10]", "at: [1e300, 10]", ("sides[1].units[1].at[0]", "less than or equal")),
        ("companies: 12", "companies: 100000000000", ("sides[1].units[0].companies",)),
        ("points: 175 ", "points: 99999999999 ", ("profiles.Giant spider.points",)),
        ("{name: Bite, kind: melee, bonus: 11,", "{name: Bite, kind: melee, bonus: 1e9,",
         ("powers[0].bonus", "whole number")),
    ],
)
def test_nan_infinite_and_huge_numbers_are_refused(
    tmp_path: Path, old: str, new: str, needles: tuple[str, ...]
) -> None:
    path = broken(tmp_path, old, new)
    assert_invalid(path, None, *needles)


def test_an_area_power_without_a_size_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "{name: Longbow, kind: ranged,", "{name: Longbow, kind: area_burst,")
    assert_invalid(path, line_of(path, "kind: area_burst"),
                   "profiles.Elf archer.powers[0].area", "needs its size")


def test_a_terrain_piece_with_rect_and_polygon_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "rect: [24, 30, 24, 12], height: 1",
                  "rect: [24, 30, 24, 12], polygon: [[0, 0], [4, 0], [4, 4]], height: 1")
    assert_invalid(path, line_of(path, "Silverhill,"), "terrain[0]", "either rect or polygon")


@pytest.mark.rule("W4-SETUP-02")
@pytest.mark.rule("W4-AMB-75")
def test_a_unit_off_the_table_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [52, 10]", "at: [70, 10]")
    assert_invalid(path, line_of(path, "at: [70, 10]"), "sides[1].units[1].at",
                   "spiders does not fit on the 72\" x 48\" table", "W4-AMB-75")


@pytest.mark.rule("W4-SETUP-03")
@pytest.mark.rule("W4-AMB-74")
def test_a_unit_outside_its_deployment_zone_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "at: [36, 10]", "at: [36, 20]")
    assert_invalid(path, line_of(path, "at: [36, 20]"), "sides[1].units[0].at",
                   "drow stands outside its side's deployment zone",
                   "12\" from the south edge", "W4-AMB-74")


@pytest.mark.rule("W4-AMB-76")
def test_frenzy_is_refused_because_it_has_no_effect(tmp_path: Path) -> None:
    path = broken(tmp_path, "rules: [fear]", "rules: [fear, frenzy]")
    assert_invalid(path, line_of(path, "rules: [fear, frenzy]"),
                   "profiles.Giant spider.rules", "frenzy", "W4-AMB-76")


@pytest.mark.rule("W4-UNIT-01")
def test_a_company_of_huge_models_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "    size: large\n    monster: true\n    speed: 6",
                  "    size: huge\n    monster: true\n    speed: 6")
    assert_invalid(path, line_of(path, "size: huge"), "profiles.Giant spider.size",
                   "no larger than Large", "W4-UNIT-01")


@pytest.mark.rule("W4-STAT-07")
def test_a_model_with_hit_points_has_resilience_one(tmp_path: Path) -> None:
    path = broken(tmp_path, "    resilience: 2\n", "    resilience: 2\n    hp: 40\n")
    assert_invalid(path, line_of(path, "resilience: 2"), "profiles.Giant spider.resilience",
                   "W4-STAT-07")


@pytest.mark.rule("W4-UNIT-09")
def test_a_front_rank_wider_than_the_unit_is_refused(tmp_path: Path) -> None:
    path = broken(tmp_path, "companies: 2\n        files: 2\n        at: [18, 40]",
                  "companies: 2\n        files: 3\n        at: [18, 40]")
    assert_invalid(path, line_of(path, "files: 3"), "sides[0].units[1].files", "W4-UNIT-09")


def test_a_misspelt_field_gets_a_suggestion(tmp_path: Path) -> None:
    path = broken(tmp_path, "    initiative: 7\n", "    inititive: 7\n")
    assert_invalid(path, line_of(path, "inititive"), "unknown field 'inititive'",
                   "did you mean 'initiative'?")


def test_an_inline_profile_names_its_bad_field_alone(tmp_path: Path) -> None:
    path = broken(tmp_path, "        profile: Elf spearman\n",
                  "        profile: {speed: 99, defenses: {ac: 1, fortitude: 1, reflex: 1,"
                  " will: 1}}\n")
    message = assert_invalid(path, line_of(path, "speed: 99"), "sides[0].units[1].profile.speed",
                             "less than or equal to 40")
    assert "string" not in message


def test_an_unknown_power_in_the_odds_is_refused_with_a_suggestion() -> None:
    result = run("odds", str(ARCHERS), "--attacker", "archers", "--defender", "drow",
                 "--set", "power=longbw")
    assert_user_error(result, "--set power", "no ranged power 'longbw'",
                      "did you mean 'Longbow'?")
