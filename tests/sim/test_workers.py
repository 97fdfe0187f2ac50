"""Whether a run starts the worker pool (decided from the first battles' time, here on a fake
clock), and that the results never depend on it: records, summaries and stored rows."""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.cli_helpers import run
from tests.sim import RANDOM, RANDOM_ARGS, SKIRMISH, reference, skirmish
from warhost.core.scenario import Scenario
from warhost.sim import runner
from warhost.sim.records import BattleColumns, ColumnBuilder
from warhost.sim.runner import (
    POOL_WORTH_SECONDS,
    PROBE_SECONDS,
    pool_pays,
    run_meta,
    simulate,
    timed_batch,
)
from warhost.sim.store import ResultStore
from warhost.sim.sweep import parse_vary, run_sweep

# --------------------------------------------------------------------------- fakes


class FakeClock:
    """A CPU clock on which every battle takes ``step`` seconds (``first`` for the first)."""

    def __init__(self, step: float, first: float | None = None) -> None:
        self.step = step
        self.first = step if first is None else first
        self.calls = 0
        self.now = 0.0

    def __call__(self) -> float:
        if self.calls == 1:
            self.now += self.first
        elif self.calls > 1:
            self.now += self.step
        self.calls += 1
        return self.now


@dataclass
class _Done:
    value: tuple[BattleColumns, float]

    def __hash__(self) -> int:
        return id(self)


class FakePool:
    """Stands in for the process pool: plays each batch at once, in this process, and notes
    how many battles it was given."""

    started: ClassVar[list[int]] = []
    battles: ClassVar[list[int]] = []

    def __init__(self, workers: int, scenario: Scenario, master: int,
                 commanders: dict[str, str]) -> None:
        self.workers = workers
        self.args = (scenario.data, scenario.source, master, commanders)
        FakePool.started.append(workers)

    def slots(self) -> int:
        return self.workers

    def submit(self, indices: list[int]) -> _Done:
        FakePool.battles.extend(indices)
        data, source, master, commanders = self.args
        return _Done(timed_batch(data, source, indices, master, commanders))

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        return set(pending), set()

    def result(self, future: Any) -> tuple[BattleColumns, float]:
        value: tuple[BattleColumns, float] = future.value
        return value

    def abort(self, pending: set[Any]) -> None:
        """Nothing runs in the background."""

    def close(self) -> None:
        """Nothing to release."""


@pytest.fixture
def fake_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakePool]]:
    """Two CPUs, no pool running, and the fake pool instead of a real one."""
    FakePool.started, FakePool.battles = [], []
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(runner, "_pool_running", lambda workers: False)
    monkeypatch.setattr(runner, "_PoolBackend", FakePool)
    yield FakePool


def with_clock(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> FakeClock:
    monkeypatch.setattr(runner, "_probe_clock", clock)
    return clock


# --------------------------------------------------------------------------- the decision


def test_pool_pays_only_for_runs_longer_than_its_start() -> None:
    assert not pool_pays(0.005, 100)
    assert not pool_pays(0.005, int(POOL_WORTH_SECONDS / 0.005))
    assert pool_pays(0.005, int(POOL_WORTH_SECONDS / 0.005) + 10)
    assert pool_pays(POOL_WORTH_SECONDS, 2)
    assert not pool_pays(0.0, 10**9)


def test_short_run_plays_here(monkeypatch: pytest.MonkeyPatch,
                              fake_pool: type[FakePool]) -> None:
    step = 1 / 16  # exact in binary: 40 battles, about 2.5 s in one process
    clock = with_clock(monkeypatch, FakeClock(step))
    run = simulate(skirmish(), 40, seed=0, commanders=RANDOM)
    assert fake_pool.started == [] and run.workers == 1
    assert run.records() == reference()[:40]
    assert clock.calls == 2 + PROBE_SECONDS / step  # the start, the first, then PROBE_SECONDS


def test_long_run_starts_the_pool_after_timing_the_first_battles(
        monkeypatch: pytest.MonkeyPatch, fake_pool: type[FakePool]) -> None:
    with_clock(monkeypatch, FakeClock(0.2))  # 40 battles: ~8 s in one process
    run = simulate(skirmish(), 40, seed=0, commanders=RANDOM)
    assert fake_pool.started == [2] and run.workers == 2
    # the first (warm-up, not counted) and two more played here, 0.4 s; the rest on the pool
    assert fake_pool.battles == list(range(3, 40))
    assert run.records() == reference()[:40]


def test_the_warm_up_battle_is_not_counted(monkeypatch: pytest.MonkeyPatch,
                                           fake_pool: type[FakePool]) -> None:
    with_clock(monkeypatch, FakeClock(0.01, first=1.5))  # compiled code loaded, say
    run = simulate(skirmish(), 200, seed=0, commanders=RANDOM)
    assert fake_pool.started == [] and run.workers == 1


def test_a_very_long_first_battle_decides_at_once(monkeypatch: pytest.MonkeyPatch,
                                                  fake_pool: type[FakePool]) -> None:
    clock = with_clock(monkeypatch, FakeClock(0.01, first=POOL_WORTH_SECONDS))
    simulate(skirmish(), 5, seed=0, commanders=RANDOM)
    assert fake_pool.started == [2] and fake_pool.battles == [1, 2, 3, 4]
    assert clock.calls == 2


def test_later_battles_of_a_sweep_count(monkeypatch: pytest.MonkeyPatch,
                                        fake_pool: type[FakePool]) -> None:
    with_clock(monkeypatch, FakeClock(0.2))
    simulate(skirmish(), 10, seed=0, commanders=RANDOM)  # 7 left: 1.4 s
    assert fake_pool.started == []
    with_clock(monkeypatch, FakeClock(0.2))
    simulate(skirmish(), 10, seed=0, commanders=RANDOM, later=20)  # and 20 later: 5.4 s
    assert fake_pool.started == [2]


def test_a_sweep_decides_for_all_its_values(monkeypatch: pytest.MonkeyPatch,
                                            fake_pool: type[FakePool]) -> None:
    with_clock(monkeypatch, FakeClock(0.05))  # 3 values of 30 battles: 4.5 s in all
    run_sweep(skirmish(), parse_vary("options.max_rounds=2:4"), 30, seed=0, commanders=RANDOM)
    assert fake_pool.started[:1] == [2]


def test_explicit_workers_win(monkeypatch: pytest.MonkeyPatch,
                              fake_pool: type[FakePool]) -> None:
    clock = with_clock(monkeypatch, FakeClock(10.0))
    run = simulate(skirmish(), 6, seed=0, commanders=RANDOM, workers=1)
    assert fake_pool.started == [] and run.workers == 1
    run = simulate(skirmish(), 6, seed=0, commanders=RANDOM, workers=2)
    assert fake_pool.started == [2] and fake_pool.battles == list(range(6))
    assert run.records() == reference()[:6]
    assert clock.calls == 0  # nothing timed


def test_a_running_pool_is_used_without_timing(monkeypatch: pytest.MonkeyPatch,
                                               fake_pool: type[FakePool]) -> None:
    clock = with_clock(monkeypatch, FakeClock(0.0))
    monkeypatch.setattr(runner, "_pool_running", lambda workers: True)
    simulate(skirmish(), 6, seed=0, commanders=RANDOM)
    assert fake_pool.started == [2] and clock.calls == 0


def test_one_cpu_never_times(monkeypatch: pytest.MonkeyPatch, fake_pool: type[FakePool]) -> None:
    clock = with_clock(monkeypatch, FakeClock(10.0))
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert simulate(skirmish(), 6, seed=0, commanders=RANDOM).workers == 1
    assert fake_pool.started == [] and clock.calls == 0


def test_the_cli_reports_the_workers(monkeypatch: pytest.MonkeyPatch,
                                     fake_pool: type[FakePool], tmp_path: Path) -> None:
    with_clock(monkeypatch, FakeClock(0.001))
    result = run("simulate", SKIRMISH, *RANDOM_ARGS, "-n", "5", "--json", "--out",
                 tmp_path / "r.duckdb")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["timing"]["workers"] == 1


# --------------------------------------------------------------------------- same results


def _table(store: ResultStore, table: str) -> list[tuple[Any, ...]]:
    order = "battle, slot" if table == "units" else ("battle, side" if table == "scores"
                                                    else "battle")
    return store.con.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()


def test_the_pool_stores_the_same_rows_and_summary(tmp_path: Path) -> None:
    s = skirmish()
    stores = {}
    for workers in (1, 2):
        path = tmp_path / f"w{workers}.duckdb"
        with ResultStore.open(path, run_meta(s, 40, 0, RANDOM), resume=False) as store:
            run = simulate(s, 40, seed=0, workers=workers, commanders=RANDOM, store=store,
                           batch_size=3)
            assert run.workers == workers
        stores[workers] = ResultStore.load(path)
    one, two = stores[1], stores[2]
    try:
        for table in ("battles", "scores", "units"):
            assert _table(one, table) == _table(two, table)
        assert one.records() == two.records() == reference()[:40]
        assert one.summary() == two.summary()
    finally:
        one.close()
        two.close()


def test_summary_does_not_depend_on_the_order_battles_were_written(tmp_path: Path) -> None:
    s = skirmish()
    battles = reference()[:30]
    summaries = []
    for name, order in (("a", battles), ("b", battles[::-1])):
        with ResultStore.open(tmp_path / f"{name}.duckdb", run_meta(s, 30, 0, RANDOM),
                              resume=False) as store:
            for start in range(0, 30, 7):
                store.write(order[start:start + 7])
            summaries.append(store.summary())
    assert summaries[0] == summaries[1]


# --------------------------------------------------------------------------- columns


def test_columns_round_trip() -> None:
    battles = reference()[:9]
    columns = BattleColumns.from_records(battles)
    assert len(columns) == 9
    assert columns.records() == battles
    assert pickle.loads(pickle.dumps(columns)).records() == battles
    parts = [BattleColumns.from_records(battles[i:i + 4]) for i in range(0, 9, 4)]
    assert BattleColumns.concat(parts).records() == battles
    assert BattleColumns.concat([]).records() == [] and len(ColumnBuilder().finish()) == 0


def test_columns_keep_draws_and_order() -> None:
    draw = [r for r in reference()[10:] if r.winner is None][:1]
    battles = [*draw, *reference()[2:4]][::-1]
    assert BattleColumns.from_records(battles).records() == battles
