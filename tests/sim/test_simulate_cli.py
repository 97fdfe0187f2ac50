"""``warhost simulate`` and ``warhost results``: in-process, and for real with SIGKILL/SIGINT."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.cli_helpers import assert_user_error, run
from tests.sim import RANDOM_ARGS, REFERENCE_N, SKIRMISH, reference
from warhost.sim.store import ResultStore

runner = CliRunner()




def simulate_json(*args: str | Path) -> dict[str, Any]:
    result = run("simulate", SKIRMISH, *RANDOM_ARGS, "--json", *args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def stored(path: Path) -> list[Any]:
    with ResultStore.load(path) as store:
        return store.records()


# --------------------------------------------------------------------------- simulate


def test_simulate_json_and_database(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    document = simulate_json("-n", "12", "--workers", "1", "--out", out)
    assert document["battles"] == 12 and document["n"] == 12 and document["complete"]
    assert document["seed"] == 0 and document["file"] == str(out)
    assert set(document["sides"]) == {"Good", "Evil"}
    good = document["sides"]["Good"]
    assert {"wins", "win_probability", "interval", "score"} <= good.keys()
    assert {"count", "rate", "interval"} <= document["draws"].keys()
    assert {"mean", "sd", "p5", "p50", "p95"} <= document["rounds"].keys()
    assert len(document["units"]) == 12
    assert {"survival_rate", "mean_survivors"} <= document["units"][0].keys()
    assert document["timing"]["ran"] == 12
    assert stored(out) == reference()[:12]


def test_simulate_table(tmp_path: Path) -> None:
    result = run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "6", "--workers", "2",
                 "--out", tmp_path / "r.duckdb")
    assert result.exit_code == 0, result.stderr
    for needle in ("Good wins", "Evil wins", "Draw", "95% interval", "Rounds: mean",
                   "Ser Corvin", "Survival", "Mean survivors", "r.duckdb"):
        assert needle in result.stdout, needle


def test_default_output_beside_the_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "little.yaml"
    shutil.copy(SKIRMISH, scenario)
    result = run("simulate", scenario, *RANDOM_ARGS, "-n", "3", "--workers", "1", "--json")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "little.sim.duckdb").is_file()
    assert stored(tmp_path / "little.sim.duckdb") == reference()[:3]


def test_resume_without_a_file_starts_the_run(tmp_path: Path) -> None:
    document = simulate_json("-n", "2", "--workers", "1", "--out", tmp_path / "r.db",
                             "--resume")
    assert document["timing"]["ran"] == 2
    assert stored(tmp_path / "r.db") == reference()[:2]


def test_existing_result_file_needs_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    simulate_json("-n", "4", "--workers", "1", "--out", out)
    line = assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "4", "--out", out),
                             str(out), "out:", "--resume", "--out")
    assert "complete" in line
    again = simulate_json("-n", "4", "--out", out, "--resume")  # shows it again
    assert again["timing"]["ran"] == 0 and again["battles"] == 4
    assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "4", "--out", out,
                          "--seed", "2"), "another run", "--out")


def test_resume_with_another_run_names_the_field(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    simulate_json("-n", "3", "--workers", "1", "--out", out)
    assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "3", "--out", out,
                          "--resume", "--seed", "9"), "seed:", "not 9")
    assert_user_error(run("simulate", SKIRMISH, "--commander", "Good=ai", "-n", "3",
                          "--out", out, "--resume"), "commander:")
    changed = tmp_path / "changed.yaml"
    changed.write_text(SKIRMISH.read_text().replace("victory_points: 8", "victory_points: 7"))
    assert_user_error(run("simulate", changed, *RANDOM_ARGS, "-n", "3", "--out", out,
                          "--resume"), "scenario:")
    assert stored(out) == reference()[:3]


def test_resume_extends_the_run(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    simulate_json("-n", "5", "--workers", "1", "--out", out)
    document = simulate_json("-n", "9", "--workers", "2", "--out", out, "--resume",
                             "--batch-size", "2")
    assert document["timing"] == {**document["timing"], "ran": 4, "previously": 5}
    assert stored(out) == reference()[:9]
    assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "4", "--out", out,
                          "--resume"), "n:", "-n 9")


def test_parquet_output(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    document = simulate_json("-n", "4", "--workers", "1", "--out", out)
    assert document["file"] == str(out)
    assert out.is_file() and (tmp_path / "r.parquet.duckdb").is_file()
    assert stored(out) == reference()[:4]
    result = run("results", out, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["sides"] == document["sides"]


def test_parquet_output_never_overwrites_another_file(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    out.write_text("precious")
    assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "2", "--out", out),
                      "out:", "never overwritten")
    assert out.read_text() == "precious"


def test_a_file_in_use_is_reported(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    simulate_json("-n", "2", "--workers", "1", "--out", out)
    code = ("import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
            "print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert_user_error(run("results", out), "in use by another process")
        assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "2", "--out", out,
                              "--resume"), "in use by another process")
    finally:
        holder.kill()
        holder.wait()


def test_bad_options(tmp_path: Path) -> None:
    assert_user_error(run("simulate", SKIRMISH, "-n", "2", "--out", tmp_path / "r.csv"),
                      "out:", ".duckdb")
    assert_user_error(run("simulate", SKIRMISH, "-n", "2", "--out", tmp_path / "no" / "r.duckdb"),
                      "no such directory")
    assert_user_error(run("simulate", SKIRMISH, "-n", "2", "--commander", "Good=scripted",
                          "--out", tmp_path / "r.duckdb"), "commander:")
    assert_user_error(run("simulate", SKIRMISH, "-n", "2", "--commander", "Bad=ai",
                          "--out", tmp_path / "r.duckdb"), "commander:")
    assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "2", "--scheduler", "nowhere",
                          "--out", tmp_path / "s.duckdb"), "scheduler:")
    assert_user_error(run("simulate", tmp_path / "missing.yaml", "-n", "2"), "missing.yaml")
    assert not (tmp_path / "r.duckdb").exists()


def test_plot_module_missing_is_a_clear_error(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "warhost.render.plots", None)  # import fails
    assert_user_error(run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "2", "--out",
                          tmp_path / "r.duckdb", "--plot", tmp_path / "p.png"), "plot:")
    assert not (tmp_path / "r.duckdb").exists()  # nothing ran


def test_plot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    calls: list[tuple[Any, ...]] = []
    fake = types.ModuleType("warhost.render.plots")
    fake.plot_summary = lambda summary, records, path: calls.append((summary, records, path))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "warhost.render.plots", fake)
    document = simulate_json("-n", "3", "--workers", "1", "--out", tmp_path / "r.duckdb",
                             "--plot", tmp_path / "p.png")
    (summary, records, path), = calls
    assert path == tmp_path / "p.png"
    assert records == reference()[:3]
    assert summary["sides"] == document["sides"]


# --------------------------------------------------------------------------- results


def test_results_summary_sql_and_export(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    document = simulate_json("-n", "8", "--workers", "1", "--out", out)
    shown = run("results", out, "--json")
    assert shown.exit_code == 0, shown.stderr
    again = json.loads(shown.stdout)
    assert {k: again[k] for k in ("sides", "draws", "rounds", "units", "battles")} == {
        k: document[k] for k in ("sides", "draws", "rounds", "units", "battles")}
    table = run("results", out)
    assert table.exit_code == 0 and "Good wins" in table.stdout
    rows = run("results", out, "--sql", "SELECT battle, winner FROM battles ORDER BY battle",
               "--json")
    assert rows.exit_code == 0, rows.stderr
    assert json.loads(rows.stdout) == [{"battle": r.battle, "winner": r.winner}
                                       for r in reference()[:8]]
    text = run("results", out, "--sql", "SELECT count(*) AS n FROM units")
    assert text.exit_code == 0 and "96" in text.stdout
    assert_user_error(run("results", out, "--sql", "SELECT nope"), "sql:")
    exported = run("results", out, "--export", tmp_path / "x.parquet")
    assert exported.exit_code == 0, exported.stderr
    assert stored(tmp_path / "x.parquet") == reference()[:8]
    assert_user_error(run("results", out, "--export", tmp_path / "x.csv"), "export:")
    assert_user_error(run("results", tmp_path / "none.duckdb"), "no such result file")


# --------------------------------------------------------------------------- real processes

# Long enough to be stopped midway: when stderr is not a terminal the progress line comes after
# the first batch and then about every 2 s, so the tests stop a run at its first line; this many
# battles take several seconds even at ~450 battles/s on 2 workers.
KILL_N = REFERENCE_N


def _start(out: Path, n: int, *extra: str) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    """``warhost simulate`` in its own process group; its stderr lines arrive in a queue."""
    process = subprocess.Popen(
        [sys.executable, "-m", "warhost", "simulate", str(SKIRMISH), *RANDOM_ARGS, "-n", str(n),
         "--workers", "2", "--batch-size", "8", "--out", str(out), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return process, lines


def _wait_for_progress(lines: queue.Queue[str], at_least: int, timeout: float = 60) -> int:
    """Wait until the progress line says that ``at_least`` battles are saved."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        found = re.search(r"(\d+)/(\d+) battles", line)
        if found and int(found.group(1)) >= at_least:
            return int(found.group(1))
    raise AssertionError("no progress from warhost simulate")


def _gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


needs_process_groups = pytest.mark.skipif(not hasattr(os, "killpg"),
                                          reason="needs POSIX process groups")


@needs_process_groups
def test_kill_minus_9_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    process, lines = _start(out, KILL_N)
    try:
        saved = _wait_for_progress(lines, 8)
        assert saved < KILL_N
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while not _gone(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with ResultStore.load(out) as store:  # readable, with the committed batches
        partial = store.records()
    assert saved <= len(partial) < KILL_N
    assert partial == [reference()[r.battle] for r in partial]
    resumed = run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", str(KILL_N), "--workers", "2",
                  "--out", out, "--resume", "--json")
    assert resumed.exit_code == 0, resumed.stderr
    assert json.loads(resumed.stdout)["timing"]["previously"] == len(partial)
    with ResultStore.load(out) as store:
        assert store.count() == KILL_N
        assert store.done() == set(range(KILL_N))
        assert store.records() == reference()[:KILL_N]


@needs_process_groups
def test_ctrl_c_keeps_finished_batches(tmp_path: Path) -> None:
    out = tmp_path / "r.duckdb"
    process, lines = _start(out, KILL_N)
    try:
        _wait_for_progress(lines, 8)
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert code == 130
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    message = "".join(rest)
    assert "interrupted" in message and "--resume" in message, message
    assert "Traceback" not in message, message
    with ResultStore.load(out) as store:
        partial = store.records()
    assert 8 <= len(partial) < KILL_N
    assert f"{len(partial)} of {KILL_N} battles are saved" in message
    assert partial == [reference()[r.battle] for r in partial]
    deadline = time.monotonic() + 10
    while not _gone(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(process.pid), "worker processes outlived the run"


@needs_process_groups
def test_workers_exit_when_the_run_is_killed_alone(tmp_path: Path) -> None:
    process, lines = _start(tmp_path / "r.duckdb", KILL_N)
    try:
        _wait_for_progress(lines, 1)
        os.kill(process.pid, signal.SIGKILL)  # the parent only: its workers are orphaned
        process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while not _gone(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(process.pid), "worker processes outlived the run"
    finally:
        if not _gone(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


def test_cluster_through_the_command_line(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, host="127.0.0.1") as cluster:
        document = simulate_json("-n", "10", "--out", tmp_path / "r.duckdb", "--scheduler",
                                 cluster.scheduler_address)
    assert document["battles"] == 10
    assert stored(tmp_path / "r.duckdb") == reference()[:10]
