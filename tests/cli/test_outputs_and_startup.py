"""Nothing the user saved is overwritten, every output path is checked before the work starts,
replays are told apart from scenarios, bad seeds get a clean error, piped tables keep their
width, and the quick commands start without the heavy libraries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.scenarios import write_tiny
from tests.cli_helpers import assert_user_error, run

HEAVY = ("numpy", "d20", "pydantic", "duckdb", "matplotlib", "shapely", "numba", "ruamel.yaml")


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return write_tiny(tmp_path)


def _saved(path: Path, text: str = "precious") -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- no overwriting


def test_battle_replay_never_overwrites_without_force(tiny: Path, tmp_path: Path) -> None:
    kept = _saved(tmp_path / "run.json")
    assert_user_error(run("battle", tiny, "--seed", "1", "--replay", kept, "-q"),
                      "run.json", "replay: exists already; pass --force")
    assert kept.read_text(encoding="utf-8") == "precious"
    result = run("battle", tiny, "--seed", "1", "--replay", kept, "-q", "--force")
    assert result.exit_code == 0, result.output
    assert json.loads(kept.read_text(encoding="utf-8"))["format"] == "warhost-replay"


def test_map_out_never_overwrites_without_force(tiny: Path, tmp_path: Path) -> None:
    kept = _saved(tmp_path / "map.svg")
    assert_user_error(run("map", tiny, "--seed", "1", "--round", "0", "--out", kept),
                      "map.svg", "out: exists already")
    assert kept.read_text(encoding="utf-8") == "precious"
    result = run("map", tiny, "--seed", "1", "--round", "0", "--out", kept, "--force")
    assert result.exit_code == 0, result.output
    assert "<svg" in kept.read_text(encoding="utf-8")


def test_results_export_refuses_an_existing_file_unless_forced(tiny: Path,
                                                              tmp_path: Path) -> None:
    store = tmp_path / "run.duckdb"
    result = run("simulate", tiny, "-n", "4", "--workers", "1", "--out", store,
                 "--commander", "A=random", "--commander", "B=random")
    assert result.exit_code == 0, result.output
    kept = _saved(tmp_path / "battles.parquet")
    assert_user_error(run("results", store, "--export", kept), "battles.parquet",
                      "export: exists already")
    assert kept.read_text(encoding="utf-8") == "precious"
    assert run("results", store, "--export", kept, "--force").exit_code == 0
    assert kept.read_bytes()[:4] == b"PAR1"


def test_simulate_plot_is_checked_before_any_battle(tiny: Path, tmp_path: Path) -> None:
    kept = _saved(tmp_path / "odds.png")
    store = tmp_path / "run.duckdb"
    assert_user_error(run("simulate", tiny, "-n", "4", "--workers", "1", "--out", store,
                          "--plot", kept), "odds.png", "plot: exists already")
    assert not store.exists()  # refused before the run started
    assert kept.read_text(encoding="utf-8") == "precious"


def test_sweep_outputs_are_checked_before_any_battle(tiny: Path, tmp_path: Path) -> None:
    kept = _saved(tmp_path / "sweep.duckdb")
    assert_user_error(run("sweep", tiny, "--vary", "victory_points=2:3", "-n", "2",
                          "--workers", "1", "--out", kept), "sweep.duckdb", "out: exists")
    assert kept.read_text(encoding="utf-8") == "precious"


# --------------------------------------------------------------------------- replays


def test_replay_of_a_scenario_says_it_is_a_scenario(tiny: Path) -> None:
    assert_user_error(run("replay", tiny), "tiny.yaml:1",
                      "this is a scenario file, not a replay", "warhost battle")


def test_replay_whose_header_names_another_ruleset_is_refused(tiny: Path,
                                                              tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    assert run("battle", tiny, "--seed", "2", "--replay", saved, "-q").exit_code == 0
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["scenario"]["ruleset"] = "dnd5e-tactics"  # the header still says fantasy-battle
    saved.write_text(json.dumps(data, indent=1), encoding="utf-8")
    assert_user_error(run("replay", saved), "run.json", "ruleset:",
                      "names ruleset 'fantasy-battle' but its scenario is a 'dnd5e-tactics'")


# --------------------------------------------------------------------------- seeds, width


@pytest.mark.parametrize("command", [["battle"], ["map", "--out", "m.png"],
                                     ["play", "--side", "A"], ["simulate", "-n", "2"],
                                     ["sweep", "--vary", "victory_points=2:3"]])
def test_a_negative_seed_is_a_clean_usage_error(command: list[str], tiny: Path) -> None:
    name, *rest = command
    assert_user_error(run(name, tiny, *rest, "--seed", "-1"), "--seed")


def test_piped_tables_are_not_squeezed(tiny: Path) -> None:
    result = run("rulesets")  # CliRunner's output is not a terminal
    assert result.exit_code == 0
    summary = next(line for line in result.stdout.splitlines() if "fantasy-battle" in line)
    # the whole summary sentence stays on the ruleset's row instead of wrapping at 80 columns
    assert "Fate Points and Heroic Feats" in summary and len(summary) > 80


# --------------------------------------------------------------------------- fast start


@pytest.mark.parametrize("args", [["--version"], ["rulesets"], ["--help"]])
def test_quick_commands_leave_the_heavy_libraries_unloaded(args: list[str]) -> None:
    code = (
        "import sys\n"
        "from warhost.cli import app\n"
        "try:\n"
        f"    app({args!r}, prog_name='warhost')\n"
        "except SystemExit as exc:\n"
        "    assert exc.code in (0, None), exc.code\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded = json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))
    # typer itself brings pydantic in when a command runs; nothing else heavy may load
    assert set(loaded) <= {"pydantic"}, loaded
