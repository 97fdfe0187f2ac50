"""The ``warhost`` command line, run in-process with typer's CliRunner (and once for real)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.cli.scenarios import line_of, write_misspelt, write_off_map, write_tiny
from tests.cli_helpers import assert_user_error, run
from warhost import __version__
from warhost.core.errors import WarhostError

runner = CliRunner()




@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return write_tiny(tmp_path)


# --------------------------------------------------------------------------- rulesets, schema


def test_rulesets_lists_fantasy_battle() -> None:
    result = run("rulesets")
    assert result.exit_code == 0
    assert "fantasy-battle" in result.stdout


def test_rulesets_json() -> None:
    result = run("rulesets", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    row = next(r for r in rows if r["name"] == "fantasy-battle")
    assert row["version"] == "1"
    assert {"title", "summary", "examples"} <= row.keys()


def test_schema_prints_json_schema() -> None:
    result = run("schema", "fantasy-battle")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert "properties" in schema
    assert {"ruleset", "sides", "victory_points"} <= schema["properties"].keys()


def test_schema_unknown_ruleset_suggests_the_nearest() -> None:
    assert_user_error(run("schema", "fantasy"), "unknown ruleset", "fantasy-battle")


def test_version_option() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert __version__ in result.stdout


# --------------------------------------------------------------------------- validate


def test_validate_ok(tiny: Path) -> None:
    result = run("validate", tiny)
    assert result.exit_code == 0
    assert result.stdout.strip() == "ok: Tiny (fantasy-battle)"


def test_validate_names_file_line_and_field(tmp_path: Path) -> None:
    path = write_off_map(tmp_path)
    result = run("validate", path)
    assert result.exit_code == 2
    line = line_of(path, "id: a-sword")
    assert result.stdout.startswith(f"{path}:{line}: sides[0].units[0].at: ")
    assert "off the map" in result.stdout
    assert "Traceback" not in result.output


def test_validate_lists_every_schema_problem(tmp_path: Path) -> None:
    path = write_misspelt(tmp_path)
    result = run("validate", path)
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert f"{path}:{line_of(path, 'victory_pionts')}: victory_pionts: " in result.stdout
    assert "did you mean 'victory_points'" in result.stdout
    assert f"{path}:{line_of(path, 'b-bow')}: sides[1].units[1].rank: " in result.stdout


def test_validate_json(tmp_path: Path) -> None:
    path = write_misspelt(tmp_path)
    result = run("validate", "--json", path)
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert {p["field"] for p in report["problems"]} == {"victory_pionts", "sides[1].units[1].rank"}


def test_validate_missing_file(tmp_path: Path) -> None:
    result = run("validate", tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert result.stdout == f"{tmp_path / 'nope.yaml'}: no such scenario file\n"


def test_validate_checks_the_orders_file(tmp_path: Path) -> None:
    path = write_tiny(tmp_path, a_commander="scripted", orders="missing.orders")
    result = run("validate", path)
    assert result.exit_code == 2
    assert f"{path}:{line_of(path, 'orders:')}: sides[0].orders: " in result.stdout
    assert "missing.orders" in result.stdout


# --------------------------------------------------------------------------- usage errors


def test_unknown_command_is_one_line() -> None:
    assert_user_error(run("conquer"), "conquer")


def test_missing_option_is_one_line(tiny: Path) -> None:
    assert_user_error(run("map", tiny), "--out")


def test_battle_missing_scenario(tmp_path: Path) -> None:
    assert_user_error(run("battle", tmp_path / "none.yaml"), "none.yaml", "no such scenario")


def test_bad_commander_override(tiny: Path) -> None:
    assert_user_error(run("battle", tiny, "--commander", "C=ai"), "commander", "no side named 'C'")
    assert_user_error(run("battle", tiny, "--commander", "A=genius"), "unknown commander kind")
    assert_user_error(run("battle", tiny, "--commander", "A"), "SIDE=KIND")


def test_errors_through_the_real_entry_point(tmp_path: Path) -> None:
    path = write_off_map(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "warhost", "battle", str(path), "--seed", "1"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    where = f"{path}:{line_of(path, 'id: a-sword')}: sides[0].units[0].at: "
    assert lines[0].startswith(f"error: {where}")
    assert "off the map" in lines[0]


def test_debug_lets_the_traceback_through(tmp_path: Path) -> None:
    result = run("--debug", "battle", write_off_map(tmp_path))
    assert isinstance(result.exception, WarhostError)
    assert result.exit_code != 0


def test_console_script_is_installed_and_runs() -> None:
    script = Path(sys.executable).with_name("warhost")
    if not script.exists():
        pytest.skip("warhost console script not installed next to this interpreter")
    proc = subprocess.run([str(script), "rulesets"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert "fantasy-battle" in proc.stdout


# --------------------------------------------------------------------------- battle


def test_battle_json_is_one_document(tiny: Path) -> None:
    result = run("battle", tiny, "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)  # the whole of stdout is one JSON document
    assert isinstance(summary, dict)
    assert {"winner", "scores", "rounds", "units", "seed"} <= summary.keys()
    assert summary["seed"] == 5
    assert set(summary["scores"]) == {"A", "B"}
    assert {u["id"] for u in summary["units"]} == {"a-sword", "a-pike", "b-brute", "b-bow"}
    assert result.stderr == ""


def test_battle_is_reproducible_with_a_seed(tiny: Path) -> None:
    first = json.loads(run("battle", tiny, "--seed", "11", "--json").stdout)
    again = json.loads(run("battle", tiny, "--seed", "11", "--json").stdout)
    assert first == again


def test_battle_narrates_with_dice_and_summary(tiny: Path) -> None:
    result = run("battle", tiny, "--seed", "5")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Round 1" in out
    assert "rolls" in out or "Roll" in out  # dice are shown
    for unit in ("a-sword", "a-pike", "b-brute", "b-bow"):
        assert unit in out
    assert "Scores:" in out and "Rounds:" in out


def test_battle_quiet_prints_only_the_summary(tiny: Path) -> None:
    result = run("battle", tiny, "--seed", "5", "--quiet")
    assert result.exit_code == 0, result.output
    assert "Round 1" not in result.stdout
    assert "Scores:" in result.stdout


def test_battle_with_random_commanders(tiny: Path) -> None:
    result = run("battle", tiny, "--seed", "2", "--json", "--commander", "A=random",
                 "--commander", "B=random")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rounds"] >= 1


# --------------------------------------------------------------------------- replays


def make_replay(tiny: Path, tmp_path: Path, seed: int = 5) -> Path:
    out = tmp_path / "battle.replay.json"
    result = run("battle", tiny, "--seed", str(seed), "--quiet", "--replay", out)
    assert result.exit_code == 0, result.output
    assert out.is_file()
    return out


def edit_replay(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def test_battle_replay_matches(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "warhost-replay" and data["version"] == 1
    assert data["ruleset"] == "fantasy-battle@1"
    assert data["seed"] == 5
    assert data["commanders"] == {"A": "ai", "B": "ai"}
    result = run("replay", out)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("matches")


def test_replay_json(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)
    result = run("replay", out, "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["matches"] is True
    assert report["result"]["log_sha256"] == json.loads(out.read_text())["log_sha256"]


def test_replay_with_tampered_digest_differs(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)
    edit_replay(out, lambda d: d.update(log_sha256="0" * 64))
    result = run("replay", out)
    assert result.exit_code == 1
    assert result.stdout.startswith("DIFFERS")
    assert "log_sha256" in result.stdout


def test_replay_with_tampered_event_names_it(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)

    def change(data: dict[str, Any]) -> None:
        roll = next(e for e in data["log"] if e["type"] == "roll")
        roll["faces"] = [7 for _ in roll["faces"]]

    edit_replay(out, change)
    index = next(i for i, e in enumerate(json.loads(out.read_text())["log"]) if e["type"] == "roll")
    result = run("replay", out)
    assert result.exit_code == 1
    assert f"event {index} differs" in result.stdout


def test_replay_with_tampered_decision(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)

    def change(data: dict[str, Any]) -> None:
        data["decisions"][0]["order"] = "activate nobody"

    edit_replay(out, change)
    result = run("replay", out)
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("DIFFERS")
    assert "decision" in result.stdout
    assert "Traceback" not in result.output


def test_replay_from_another_version(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)
    edit_replay(out, lambda d: d.update(warhost="0.0.1"))
    assert_user_error(run("replay", out), str(out), "version", "0.0.1")


def test_replay_from_another_ruleset_version(tiny: Path, tmp_path: Path) -> None:
    out = make_replay(tiny, tmp_path)
    edit_replay(out, lambda d: d.update(ruleset="fantasy-battle@0"))
    assert_user_error(run("replay", out), str(out), "ruleset", "fantasy-battle@0")


def test_replay_damaged_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "format": "warhost-replay",\n  "version": 1,,\n}\n', encoding="utf-8")
    assert_user_error(run("replay", bad), f"{bad}:3:", "malformed JSON")
    assert_user_error(run("replay", tmp_path / "none.json"), "no such replay file")


# --------------------------------------------------------------------------- scripted orders


def test_illegal_scripted_order_names_file_and_line(tmp_path: Path) -> None:
    orders = tmp_path / "a.orders"
    orders.write_text("# side A's orders\n\nactivate nobody\n", encoding="utf-8")
    path = write_tiny(tmp_path, a_commander="scripted", orders="a.orders")
    line = assert_user_error(run("battle", path, "--seed", "1"), f"{orders}:3: order: ",
                             "activate nobody")
    assert "does not answer the activate" in line


def test_scripted_orders_are_followed(tmp_path: Path) -> None:
    orders = tmp_path / "a.orders"
    orders.write_text("activate a-pike\n", encoding="utf-8")
    path = write_tiny(tmp_path, a_commander="scripted", orders="a.orders")
    result = run("battle", path, "--seed", "1", "--replay", tmp_path / "r.json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["commanders"]["A"] == "scripted"
    first_a = next(d for d in data["decisions"] if d["side"] == "A")
    assert first_a["order"] == "activate a-pike"
    assert run("replay", tmp_path / "r.json").exit_code == 0


def test_scripted_side_without_orders_file(tmp_path: Path) -> None:
    path = write_tiny(tmp_path, a_commander="scripted", orders="gone.orders")
    assert_user_error(run("battle", path), "gone.orders", "sides[0].orders")


# --------------------------------------------------------------------------- output files


def test_existing_output_is_not_clobbered_on_failure(tmp_path: Path) -> None:
    broken = write_off_map(tmp_path)
    keep = tmp_path / "keep.json"
    keep.write_text("precious", encoding="utf-8")
    assert_user_error(run("battle", broken, "--replay", keep))
    assert keep.read_text(encoding="utf-8") == "precious"
    image = tmp_path / "keep.png"
    image.write_bytes(b"precious")
    assert_user_error(run("map", broken, "--out", image))
    assert image.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json", "keep.png", "off-map.yaml"]


def test_output_into_missing_directory_fails_first(tiny: Path, tmp_path: Path) -> None:
    assert_user_error(run("battle", tiny, "--replay", tmp_path / "no" / "r.json"),
                      "no such directory")


# --------------------------------------------------------------------------- maps


@pytest.mark.parametrize("suffix, signature", [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<svg")])
def test_map_writes_an_image(tiny: Path, tmp_path: Path, suffix: str, signature: bytes) -> None:
    out = tmp_path / f"map{suffix}"
    result = run("map", tiny, "--seed", "5", "--round", "1", "--out", out)
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert len(data) > 1000
    assert signature in data[:400]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_map_of_deployment_and_of_the_end(tiny: Path, tmp_path: Path) -> None:
    for args in (["--round", "0"], []):
        out = tmp_path / f"map{len(args)}.png"
        result = run("map", tiny, "--seed", "5", *args, "--out", out)
        assert result.exit_code == 0, result.output
        assert out.read_bytes().startswith(b"\x89PNG")


def test_map_from_a_replay(tiny: Path, tmp_path: Path) -> None:
    replay = make_replay(tiny, tmp_path)
    out = tmp_path / "from-replay.svg"
    result = run("map", replay, "--round", "1", "--out", out)
    assert result.exit_code == 0, result.output
    assert b"<svg" in out.read_bytes()[:400]


def test_map_round_beyond_the_battle(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "late.png"
    assert_user_error(run("map", tiny, "--seed", "5", "--round", "99", "--out", out), "round")
    assert not out.exists()


def test_map_needs_png_or_svg(tiny: Path, tmp_path: Path) -> None:
    assert_user_error(run("map", tiny, "--out", tmp_path / "map.jpg"), ".png or .svg")
