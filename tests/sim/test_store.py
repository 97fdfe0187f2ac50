"""The DuckDB result file: tables, transactions, identity checks, queries and Parquet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.sim import RANDOM, skirmish
from warhost.core.errors import WarhostError
from warhost.sim.runner import BattleRecord, UnitRow, run_batch, run_meta
from warhost.sim.stats import run_summary, summarize
from warhost.sim.store import ResultStore


def meta(n: int = 6, seed: int = 0, commanders: dict[str, str] | None = None) -> dict[str, Any]:
    return run_meta(skirmish(), n, seed, commanders or RANDOM)


@pytest.fixture(scope="module")
def battles() -> list[BattleRecord]:
    """Six real battles (played here, in this process)."""
    s = skirmish()
    return run_batch(s.data, s.source, list(range(6)), 0, RANDOM)


def test_round_trip(tmp_path: Path, battles: list[BattleRecord]) -> None:
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, meta(), resume=False) as store:
        store.write(battles[3:])
        store.write(battles[:3])
        assert store.done() == set(range(6))
        assert store.count() == 6
        assert store.records() == battles
    with ResultStore.load(path) as store:
        assert store.records() == battles
        assert store.meta["seed"] == 0 and store.meta["commanders"] == RANDOM
        assert store.meta["scenario_data"] == skirmish().data


def test_tables(tmp_path: Path, battles: list[BattleRecord]) -> None:
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, meta(), resume=False) as store:
        store.write(battles)
    con = duckdb.connect(str(path), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM battles").fetchone() == (6,)
        assert con.execute("SELECT count(*) FROM scores").fetchone() == (12,)
        assert con.execute("SELECT count(*) FROM units").fetchone() == (72,)
        row = con.execute("SELECT battle, seed, winner, rounds, reason FROM battles "
                          "WHERE battle = 2").fetchone()
        b = battles[2]
        assert row == (2, b.seed, b.winner, b.rounds, b.reason)
        unit = con.execute("SELECT unit, side, name, start, survivors, losses, fate FROM units "
                           "WHERE battle = 2 AND slot = 5").fetchone()
        u = b.units[5]
        assert unit == (u.unit, u.side, u.name, u.start, u.survivors, u.losses, u.fate)
        keys = {k for (k,) in con.execute("SELECT key FROM meta").fetchall()}
        assert {"scenario_sha256", "seed", "commanders", "ruleset_version", "warhost",
                "n"} <= keys
    finally:
        con.close()


def test_a_batch_is_one_transaction(tmp_path: Path, battles: list[BattleRecord]) -> None:
    with ResultStore.open(tmp_path / "r.duckdb", meta(), resume=False) as store:
        store.write(battles[:2])
        with pytest.raises(duckdb.ConstraintException):
            store.write([battles[2], battles[1]])  # battle 1 again: the whole batch fails
        assert store.done() == {0, 1}
        assert store.records() == battles[:2]


def test_summary_from_the_database_equals_summary_of_records(
        tmp_path: Path, battles: list[BattleRecord]) -> None:
    with ResultStore.open(tmp_path / "r.duckdb", meta(), resume=False) as store:
        store.write(battles)
        expected = run_summary(store.meta, summarize(battles, store.meta["sides"]))
        got = store.summary()
    assert got.keys() == expected.keys()
    assert got["sides"] == expected["sides"]
    assert got["draws"] == expected["draws"]
    assert got["units"] == expected["units"]
    assert got["rounds"] == pytest.approx(expected["rounds"])


def test_existing_file_is_not_overwritten(tmp_path: Path, battles: list[BattleRecord]) -> None:
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, meta(), resume=False) as store:
        store.write(battles)
    with pytest.raises(WarhostError) as info:
        ResultStore.open(path, meta(), resume=False)
    assert info.value.field == "out"
    assert "complete" in info.value.message and "--resume" in info.value.message
    with pytest.raises(WarhostError) as info:
        ResultStore.open(path, meta(seed=1), resume=False)
    assert "another run" in info.value.message
    with ResultStore.load(path) as store:
        assert store.records() == battles


def test_a_file_of_this_run_without_battles_is_reused(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    ResultStore.open(path, meta(), resume=False).close()  # e.g. the run failed at once
    with ResultStore.open(path, meta(), resume=False) as store:
        assert store.count() == 0
    with pytest.raises(WarhostError, match="another run"):
        ResultStore.open(path, meta(seed=4), resume=False)


def test_unfinished_run_needs_resume(tmp_path: Path, battles: list[BattleRecord]) -> None:
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, meta(), resume=False) as store:
        store.write(battles[:2])
    with pytest.raises(WarhostError, match="2 battles of this run"):
        ResultStore.open(path, meta(), resume=False)
    with ResultStore.open(path, meta(), resume=True) as store:
        assert store.done() == {0, 1}


@pytest.mark.parametrize(("changed", "field", "needle"), [
    ({"seed": 5}, "seed", "seed 0, not 5"),
    ({"commanders": {"Good": "ai", "Evil": "random"}}, "commander", "Good=random"),
    ({"scenario_sha256": "0" * 64}, "scenario", "scenario data"),
    ({"ruleset_version": "2"}, "ruleset", "ruleset version 1, not 2"),
    ({"warhost": "9.9"}, "warhost", "not 9.9"),
])
def test_resume_refuses_another_run(tmp_path: Path, changed: dict[str, Any], field: str,
                                    needle: str) -> None:
    path = tmp_path / "r.duckdb"
    ResultStore.open(path, meta(), resume=False).close()
    with pytest.raises(WarhostError) as info:
        ResultStore.open(path, {**meta(), **changed}, resume=True)
    assert info.value.field == field
    assert needle in info.value.message
    assert info.value.file == str(path)


def test_n_may_grow_but_not_drop_battles(tmp_path: Path, battles: list[BattleRecord]) -> None:
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, meta(n=6), resume=False) as store:
        store.write(battles)
        store.set_n(10)
        assert store.meta["n"] == 10
        with pytest.raises(WarhostError) as info:
            store.set_n(5)
        assert info.value.field == "n"
    with ResultStore.load(path) as store:
        assert store.meta["n"] == 10


def test_not_a_result_file(tmp_path: Path) -> None:
    text = tmp_path / "notes.duckdb"
    text.write_text("hello\n" * 1000)
    with pytest.raises(WarhostError) as info:
        ResultStore.open(text, meta(), resume=True)
    assert info.value.file == str(text)
    assert text.read_text() == "hello\n" * 1000
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE t (x INTEGER)")
    con.close()
    with pytest.raises(WarhostError, match="other tables"):
        ResultStore.open(other, meta(), resume=True)
    with pytest.raises(WarhostError, match="no such result file"):
        ResultStore.load(tmp_path / "missing.duckdb")


def test_query(tmp_path: Path, battles: list[BattleRecord]) -> None:
    with ResultStore.open(tmp_path / "r.duckdb", meta(), resume=False) as store:
        store.write(battles)
        columns, rows = store.query("SELECT battle, rounds FROM battles ORDER BY battle LIMIT 2")
        assert columns == ["battle", "rounds"]
        assert rows == [(0, battles[0].rounds), (1, battles[1].rounds)]
        with pytest.raises(WarhostError) as info:
            store.query("SELECT nonsense FROM battles")
        assert info.value.field == "sql"


def test_parquet_export_round_trip(tmp_path: Path, battles: list[BattleRecord]) -> None:
    path = tmp_path / "r.duckdb"
    with ResultStore.open(path, meta(), resume=False) as store:
        store.write(battles)
        store.export_parquet(tmp_path / "r.parquet")
        summary = store.summary()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.duckdb", "r.parquet"]
    con = duckdb.connect()
    row = con.execute(f"SELECT battle, scores['Good'], units[1].unit, len(units) FROM "
                      f"read_parquet('{tmp_path / 'r.parquet'}') WHERE battle = 4").fetchone()
    assert row == (4, battles[4].scores["Good"], battles[4].units[0].unit, 12)
    with ResultStore.load(tmp_path / "r.parquet") as loaded, ResultStore.load(path) as stored:
        assert loaded.records() == battles
        assert loaded.meta == stored.meta
        assert loaded.summary() == summary


def test_draws_and_missing_names_survive_the_round_trip(tmp_path: Path) -> None:
    records = [BattleRecord(0, 1, None, 3, "", {"Good": 1, "Evil": 1},
                            [UnitRow("u", "Good", 2, 1, 1, "wounded")])]
    with ResultStore.open(tmp_path / "r.duckdb", meta(n=1), resume=False) as store:
        store.write(records)
        assert store.records() == records
