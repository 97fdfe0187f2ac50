"""Runs are deterministic whatever ran them: workers, batches, resumption, a Dask cluster."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sim import RANDOM, reference, skirmish
from warhost.core.engine import run_battle
from warhost.core.errors import WarhostError
from warhost.core.scenario import scenario_from_data
from warhost.sim.runner import (
    _Batcher,
    resolve_commanders,
    run_batch,
    run_meta,
    simulate,
)
from warhost.sim.seeds import battle_seed
from warhost.sim.stats import summarize
from warhost.sim.store import ResultStore


def test_run_batch_plays_each_battle_with_its_own_seed() -> None:
    s = skirmish()
    records = run_batch(s.data, s.source, [4, 0, 9], 0, RANDOM)
    assert [r.battle for r in records] == [4, 0, 9]
    for record in records:
        assert record.seed == battle_seed(0, record.battle)
        outcome = run_battle(s, record.seed, RANDOM, record=False).outcome
        assert record.winner == outcome.winner
        assert record.rounds == outcome.rounds
        assert record.reason == outcome.reason
        assert record.scores == outcome.scores
        assert [(u.unit, u.side, u.name, u.start, u.survivors, u.losses, u.fate)
                for u in record.units] == [
            (u.id, u.side, u.name, u.start, u.survivors, u.losses, u.fate)
            for u in outcome.units]


def test_reference_run_is_complete_and_ordered() -> None:
    records = reference()
    assert [r.battle for r in records] == list(range(len(records)))
    assert records[0] == run_batch(skirmish().data, skirmish().source, [0], 0, RANDOM)[0]


def test_one_worker_equals_two_workers() -> None:
    run = simulate(skirmish(), 24, seed=0, workers=1, commanders=RANDOM)
    assert run.records() == reference()[:24]
    assert run.ran == 24 and run.previously == 0


@pytest.mark.parametrize("batch_size", [1, 7, 50])
def test_batch_size_does_not_matter(batch_size: int) -> None:
    run = simulate(skirmish(), 30, seed=0, workers=2, commanders=RANDOM, batch_size=batch_size)
    assert run.records() == reference()[:30]


def test_another_seed_gives_other_battles() -> None:
    run = simulate(skirmish(), 6, seed=1, workers=1, commanders=RANDOM)
    assert [r.seed for r in run.records()] == [battle_seed(1, i) for i in range(6)]
    assert run.records() != reference()[:6]


def test_resumed_run_equals_uninterrupted_run(tmp_path: Path) -> None:
    s = skirmish()
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, run_meta(s, 30, 0, RANDOM), resume=False) as store:
        ref = reference()
        store.write([ref[i] for i in (0, 5, 6, 17, 29)])  # as if some batches had finished
        seen: list[tuple[int, int]] = []
        run = simulate(s, 30, seed=0, workers=2, commanders=RANDOM, store=store, resume=True,
                       batch_size=4, progress=lambda done, n: seen.append((done, n)))
        assert run.ran == 25 and run.previously == 5
        assert store.records() == ref[:30]
        assert run.records() == ref[:30]
    assert seen[0] == (5, 30) and seen[-1] == (30, 30)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_resume_extends_a_run(tmp_path: Path) -> None:
    s = skirmish()
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, run_meta(s, 8, 0, RANDOM), resume=False) as store:
        simulate(s, 8, seed=0, workers=1, commanders=RANDOM, store=store)
    with ResultStore.open(path, run_meta(s, 20, 0, RANDOM), resume=True) as store:
        run = simulate(s, 20, seed=0, workers=1, commanders=RANDOM, store=store, resume=True)
        assert run.ran == 12
        assert run.records() == reference()[:20]
        assert store.meta["n"] == 20
        assert run.summary() == store.summary()


def test_store_with_battles_needs_resume(tmp_path: Path) -> None:
    s = skirmish()
    with ResultStore.open(tmp_path / "r.duckdb", run_meta(s, 4, 0, RANDOM), False) as store:
        store.write(reference()[:2])
        with pytest.raises(WarhostError) as info:
            simulate(s, 4, seed=0, workers=1, commanders=RANDOM, store=store)
        assert info.value.field == "resume"
        with pytest.raises(WarhostError) as info:
            simulate(s, 4, seed=3, workers=1, commanders=RANDOM, store=store, resume=True)
        assert info.value.field == "seed"


def test_summary_without_a_store() -> None:
    run = simulate(skirmish(), 10, seed=0, workers=1, commanders=RANDOM)
    summary = run.summary()
    assert summary["scenario"] == skirmish().name
    assert summary["seed"] == 0 and summary["commanders"] == RANDOM
    stats = summarize(reference()[:10], ["Good", "Evil"])
    assert {k: summary[k] for k in stats} == stats


def test_empty_run() -> None:
    run = simulate(skirmish(), 0, seed=0, commanders=RANDOM)
    assert run.records() == [] and run.summary()["battles"] == 0


def test_commanders() -> None:
    s = skirmish()
    assert resolve_commanders(s) == {"Good": "ai", "Evil": "ai"}
    assert resolve_commanders(s, {"Evil": "random"}) == {"Good": "ai", "Evil": "random"}
    data = {**s.data, "sides": [{**s.data["sides"][0], "commander": "human"},
                                s.data["sides"][1]]}
    assert resolve_commanders(scenario_from_data(data))["Good"] == "ai"
    with pytest.raises(WarhostError) as info:
        resolve_commanders(s, {"Good": "scripted"})
    assert info.value.field == "commander"
    with pytest.raises(WarhostError):
        resolve_commanders(s, {"Nobody": "ai"})


def test_bad_arguments() -> None:
    with pytest.raises(WarhostError):
        simulate(skirmish(), 4, seed=-1)
    with pytest.raises(WarhostError):
        simulate(skirmish(), 4, seed=0, batch_size=0)


@pytest.mark.parametrize(("n", "size", "slots"), [(0, None, 2), (1, None, 4), (101, None, 2),
                                                  (1000, None, 8), (33, 5, 2), (33, 100, 2)])
def test_batches_cover_every_battle_once(n: int, size: int | None, slots: int) -> None:
    todo = [i for i in range(n + n // 3) if i % 4 != 1][:n]
    batcher = _Batcher(todo, size, slots)
    batches = []
    while batch := batcher.take():
        batches.append(batch)
        batcher.observe(len(batch), 0.05 * len(batch))
    assert [i for b in batches for i in b] == todo
    if size is not None:
        assert all(len(b) == size for b in batches[:-1])
    elif n >= 1000:
        assert max(len(b) for b in batches) == 20  # about one second of 50 ms battles


# --------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, host="127.0.0.1") as local:
        yield local


def test_dask_cluster_gives_the_same_rows(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = skirmish()
    with ResultStore.open(tmp_path / "r.duckdb", run_meta(s, 16, 0, RANDOM), False) as store:
        store.write(reference()[3:5])
        run = simulate(s, 16, seed=0, commanders=RANDOM, store=store, resume=True,
                       scheduler=cluster.scheduler_address, batch_size=3)
        assert run.ran == 14
        assert store.records() == reference()[:16]


def test_dask_needs_an_address() -> None:
    with pytest.raises(WarhostError) as info:
        simulate(skirmish(), 2, seed=0, commanders=RANDOM, scheduler="localhost:8786")
    assert info.value.field == "scheduler"
