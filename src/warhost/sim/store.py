"""Result files of Monte Carlo runs: DuckDB databases, one row per battle.

Tables (every battle is written with its scores and units in one transaction):

``meta(key VARCHAR PRIMARY KEY, value VARCHAR)``
    The run's identity, each value JSON: ``format`` (``"warhost-simulation"``),
    ``format_version``, ``warhost``, ``ruleset``, ``ruleset_version``, ``scenario`` (name),
    ``source`` (file), ``scenario_sha256`` (of the scenario data as canonical JSON),
    ``scenario_data``, ``seed``, ``commanders`` (side -> kind), ``n``, ``sides``.
``battles(battle BIGINT PRIMARY KEY, seed BIGINT, winner VARCHAR, rounds INTEGER, reason VARCHAR)``
    ``winner`` is NULL for a draw.
``scores(battle BIGINT, side VARCHAR, score INTEGER)``
    One row per side per battle.
``units(battle BIGINT, slot INTEGER, unit VARCHAR, side VARCHAR, name VARCHAR, start INTEGER,
survivors INTEGER, losses INTEGER, fate VARCHAR)``
    One row per unit per battle; ``slot`` is the unit's place in the battle's outcome.

Parquet export (:meth:`ResultStore.export_parquet`): one row per battle, columns ``battle,
seed, winner, rounds, reason``, ``scores MAP(VARCHAR, INTEGER)`` and ``units`` (a list of
structs ``unit, side, name, start, survivors, losses, fate`` in slot order); the meta is the
JSON value of the Parquet key-value metadata ``warhost``. :meth:`ResultStore.load` reads such
a file back (into memory) as well as a database.

Crash safety is DuckDB's: a batch is one transaction, committed through its write-ahead log,
so a killed run loses at most the batches not yet committed and the file stays readable.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import duckdb
import numpy as np

from warhost.core.errors import WarhostError
from warhost.sim.records import (
    BATTLE_COLUMNS,
    SCORE_COLUMNS,
    UNIT_COLUMNS,
    BattleColumns,
    BattleRecord,
    UnitRow,
)
from warhost.sim.stats import Tallies, UnitTally, run_summary, summarize_tallies

FORMAT = "warhost-simulation"

_SCHEMA = (
    "CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    ("CREATE TABLE battles (battle BIGINT PRIMARY KEY, seed BIGINT NOT NULL, winner VARCHAR, "
     "rounds INTEGER NOT NULL, reason VARCHAR NOT NULL)"),
    "CREATE TABLE scores (battle BIGINT NOT NULL, side VARCHAR NOT NULL, score INTEGER NOT NULL)",
    ("CREATE TABLE units (battle BIGINT NOT NULL, slot INTEGER NOT NULL, unit VARCHAR NOT NULL, "
     "side VARCHAR NOT NULL, name VARCHAR NOT NULL, start INTEGER NOT NULL, "
     "survivors INTEGER NOT NULL, losses INTEGER NOT NULL, fate VARCHAR NOT NULL)"),
)
_TABLES = {"meta", "battles", "scores", "units"}

# (meta key, option it comes from, how to say it) — what makes two runs the same run
_IDENTITY = (
    ("format_version", "format", "result format version"),
    ("scenario_sha256", "scenario", "scenario data (SHA-256)"),
    ("seed", "seed", "seed"),
    ("commanders", "commander", "commanders"),
    ("ruleset", "ruleset", "ruleset"),
    ("ruleset_version", "ruleset", "ruleset version"),
    ("warhost", "warhost", "warhost version"),
)


def _show(key: str, value: Any) -> str:
    if key == "commanders" and isinstance(value, Mapping):
        return ", ".join(f"{side}={kind}" for side, kind in value.items())
    if key == "scenario_sha256" and isinstance(value, str):
        return value[:12]
    return str(value)


def _sql_string(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _duckdb_error(exc: Exception, path: Path) -> WarhostError:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "lock" in text.lower():
        return WarhostError("the file is in use by another process (a simulation still "
                            "running?)", file=str(path))
    if "not a valid duckdb" in text.lower() or "database file" in text.lower():
        return WarhostError("not a DuckDB database (nor a warhost result file)", file=str(path))
    return WarhostError(f"cannot open the result file: {text}", file=str(path))


class ResultStore:
    """A run's result file. Open one with :meth:`open` (to write) or :meth:`load` (to read)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path, meta: dict[str, Any],
                 writable: bool) -> None:
        self.con = con
        self.path = path
        self.meta = meta
        self.writable = writable

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | Path, meta: Mapping[str, Any], resume: bool) -> ResultStore:
        """Open ``path`` to write the run ``meta``, creating it when it does not exist.

        An existing file is refused unless ``resume``; with ``resume`` its meta must match
        (else :class:`WarhostError` naming the first field that differs).
        """
        path = Path(path)
        try:
            con = duckdb.connect(str(path))
        except duckdb.Error as exc:
            raise _duckdb_error(exc, path) from None
        try:
            stored = cls._read_meta(con, path)
            if stored is None:
                cls._create(con, meta)
                return cls(con, path, dict(meta), writable=True)
            store = cls(con, path, stored, writable=True)
            if not resume and not (store._differs(meta) is None and store.count() == 0):
                store._refuse(meta)  # (a file of this run with no battle yet is reused)
            store.check(meta)
            return store
        except BaseException:
            con.close()
            raise

    @classmethod
    def load(cls, path: str | Path) -> ResultStore:
        """Open a result file to read: a DuckDB database, or a Parquet export (into memory)."""
        path = Path(path)
        if not path.is_file():
            raise WarhostError("no such result file", file=str(path))
        if path.suffix.lower() == ".parquet":
            return cls._load_parquet(path)
        try:
            con = duckdb.connect(str(path), read_only=True)
        except duckdb.Error as exc:
            raise _duckdb_error(exc, path) from None
        try:
            meta = cls._read_meta(con, path)
        except BaseException:
            con.close()
            raise
        if meta is None:
            con.close()
            raise WarhostError("not a warhost result file (no run in it)", file=str(path))
        return cls(con, path, meta, writable=False)

    @staticmethod
    def _read_meta(con: duckdb.DuckDBPyConnection, path: Path) -> dict[str, Any] | None:
        """The stored meta; None for an empty database; an error for another kind of file."""
        tables = {row[0] for row in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
        ).fetchall()}
        if not tables:
            return None
        if not _TABLES <= tables:
            raise WarhostError("not a warhost result file (a DuckDB database with other "
                               "tables)", file=str(path))
        meta = {key: json.loads(value)
                for key, value in con.execute("SELECT key, value FROM meta").fetchall()}
        if meta.get("format") != FORMAT:
            raise WarhostError("not a warhost result file (no run in it)", file=str(path))
        return meta

    @staticmethod
    def _create(con: duckdb.DuckDBPyConnection, meta: Mapping[str, Any]) -> None:
        con.execute("BEGIN TRANSACTION")
        try:
            for statement in _SCHEMA:
                con.execute(statement)
            con.executemany("INSERT INTO meta VALUES (?, ?)",
                            [[key, json.dumps(value, default=str)]
                             for key, value in meta.items()])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    @classmethod
    def _load_parquet(cls, path: Path) -> ResultStore:
        con = duckdb.connect()
        source = _sql_string(str(path))
        try:
            rows = con.execute(
                f"SELECT value FROM parquet_kv_metadata({source}) WHERE key = 'warhost'"
            ).fetchall()
            if not rows:
                raise WarhostError("not a warhost result file (no run in its metadata)",
                                   file=str(path))
            raw = rows[0][0]
            meta = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
            for statement in _SCHEMA[1:]:
                con.execute(statement)
            con.execute(f"INSERT INTO battles SELECT battle, seed, winner, rounds, reason "
                        f"FROM read_parquet({source})")
            con.execute(f"INSERT INTO scores SELECT battle, unnest(map_keys(scores)), "
                        f"unnest(map_values(scores)) FROM read_parquet({source})")
            con.execute(
                "INSERT INTO units SELECT battle, slot - 1, u.unit, u.side, u.name, u.start, "
                "u.survivors, u.losses, u.fate FROM (SELECT battle, unnest(units) AS u, "
                f"generate_subscripts(units, 1) AS slot FROM read_parquet({source}))")
        except duckdb.Error as exc:
            con.close()
            raise WarhostError(f"cannot read the Parquet file: {str(exc).splitlines()[0]}",
                               file=str(path)) from None
        except BaseException:
            con.close()
            raise
        return cls(con, path, meta, writable=False)

    # ------------------------------------------------------------------ identity

    def _refuse(self, meta: Mapping[str, Any]) -> None:
        """The file exists and --resume was not given: say what it holds."""
        count = self.count()
        n = int(self.meta.get("n", 0))
        if self._differs(meta) is None:
            if count >= n and n == int(meta.get("n", n)):
                message = (f"already holds this complete run ({count} battles): pass --resume "
                           "to show it again, or another --out")
            else:
                message = (f"holds {count} battles of this run (of {n}): pass --resume to "
                           f"continue it to {meta.get('n', n)}, or another --out")
        else:
            message = (f"holds another run ({self.meta.get('scenario')}, seed "
                       f"{self.meta.get('seed')}, {count} battles): pass another --out "
                       "(it is never overwritten)")
        raise WarhostError(message, file=str(self.path), field="out")

    def _differs(self, meta: Mapping[str, Any]) -> tuple[str, str, str] | None:
        for key, option, what in _IDENTITY:
            if self.meta.get(key) != meta.get(key):
                return key, option, what
        return None

    def check(self, meta: Mapping[str, Any]) -> None:
        """Fail unless ``meta`` describes the run stored here (the first difference named)."""
        found = self._differs(meta)
        if found is None:
            return
        key, option, what = found
        raise WarhostError(
            f"the file holds a run with {what} {_show(key, self.meta.get(key))}, not "
            f"{_show(key, meta.get(key))}: use the same options to resume it, or another --out",
            file=str(self.path), field=option)

    def set_n(self, n: int) -> None:
        """Make the run ``n`` battles long (it may grow, but never drop stored battles)."""
        if int(self.meta.get("n", -1)) == n:
            return
        top = self.con.execute("SELECT max(battle) FROM battles").fetchone()
        last = top[0] if top is not None else None
        if last is not None and n <= last:
            raise WarhostError(f"the file already holds battles up to #{last}: pass -n "
                               f"{last + 1} or more", file=str(self.path), field="n")
        self._require_writable()
        self.con.execute("INSERT OR REPLACE INTO meta VALUES ('n', ?)", [json.dumps(n)])
        self.meta["n"] = n

    # ------------------------------------------------------------------ writing

    def _require_writable(self) -> None:
        if not self.writable:
            raise WarhostError("the result file is open for reading only", file=str(self.path))

    def write(self, records: Sequence[BattleRecord] | BattleColumns) -> None:
        """Add battles, with their scores and units, in one transaction."""
        columns = (records if isinstance(records, BattleColumns)
                   else BattleColumns.from_records(records))
        if not len(columns):
            return
        self._require_writable()
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            # DuckDB scans the NumPy arrays of the local ``new`` in place (a replacement
            # scan): ten times faster than list parameters, a hundred times faster than
            # executemany, and without the cost of registering a view
            for table, data, types in (("battles", columns.battles, _BATTLE_TYPES),
                                       ("scores", columns.scores, _SCORE_TYPES),
                                       ("units", columns.units, _UNIT_TYPES)):
                if len(data["battle"]):
                    new = dict(data)  # noqa: F841 (read by DuckDB)
                    select = ", ".join(f"{name}::{kind}" for name, kind in types.items())
                    con.execute(f"INSERT INTO {table} SELECT {select} FROM new")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------------ reading

    def count(self) -> int:
        """Battles stored."""
        row = self.con.execute("SELECT count(*) FROM battles").fetchone()
        return int(row[0]) if row is not None else 0

    def done(self) -> set[int]:
        """The indices of the battles stored."""
        column = self.con.execute("SELECT battle FROM battles").fetchnumpy()["battle"]
        return set(np.asarray(column).tolist())

    def records(self) -> list[BattleRecord]:
        """Every stored battle, by battle index."""
        con = self.con
        out: dict[int, BattleRecord] = {}
        for battle, seed, winner, rounds, reason in con.execute(
                "SELECT battle, seed, winner, rounds, reason FROM battles ORDER BY battle"
        ).fetchall():
            out[battle] = BattleRecord(battle, seed, winner, rounds, reason, {}, [])
        for battle, side, score in con.execute(
                "SELECT battle, side, score FROM scores ORDER BY battle").fetchall():
            out[battle].scores[side] = score
        for battle, unit, side, start, survivors, losses, fate, name in con.execute(
                "SELECT battle, unit, side, start, survivors, losses, fate, name FROM units "
                "ORDER BY battle, slot").fetchall():
            out[battle].units.append(UnitRow(unit, side, start, survivors, losses, fate, name))
        return list(out.values())

    def tallies(self) -> Tallies:
        """Wins, rounds, scores and unit totals, computed in the database."""
        con = self.con
        wins: dict[str | None, int] = {
            winner: int(count) for winner, count in con.execute(
                "SELECT winner, count(*) FROM battles GROUP BY winner").fetchall()}
        rounds = np.asarray(con.execute(
            "SELECT rounds FROM battles ORDER BY battle").fetchnumpy()["rounds"])
        sides = [str(s) for s in self.meta.get("sides", [])]
        for (side,) in con.execute("SELECT DISTINCT side FROM scores ORDER BY side").fetchall():
            if side not in sides:
                sides.append(side)
        scores = {side: np.asarray(con.execute(
            "SELECT score FROM scores WHERE side = ? ORDER BY battle", [side]).fetchnumpy()["score"])
            for side in sides}
        units = [UnitTally(unit, side, name, int(battles), int(survived), int(start),
                           int(kept))
                 for unit, side, name, battles, survived, start, kept, _ in con.execute(
                     "SELECT unit, arg_min(side, battle), arg_min(name, battle), count(*), "
                     "count_if(survivors > 0), sum(start), sum(survivors), "
                     "min(battle * 100000 + slot) AS first FROM units GROUP BY unit "
                     "ORDER BY first").fetchall()]
        return Tallies(battles=int(rounds.size), wins=wins, rounds=rounds, scores=scores,
                       units=units)

    def summary(self) -> dict[str, Any]:
        """The run's summary (see :mod:`warhost.sim.stats`), from the stored battles."""
        return run_summary(self.meta, summarize_tallies(self.tallies(), self.meta.get("sides")))

    def query(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one SQL statement; its column names and rows."""
        try:
            cursor = self.con.execute(sql)
            if cursor.description is None:
                return [], []
            columns = [str(d[0]) for d in cursor.description]
            return columns, cursor.fetchall()
        except duckdb.Error as exc:
            text = " ".join(str(exc).split())
            raise WarhostError(text or type(exc).__name__, field="sql") from None

    # ------------------------------------------------------------------ export

    def export_parquet(self, path: str | Path) -> None:
        """Write every battle to one Parquet file (see the module docstring), atomically."""
        target = Path(path)
        temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        metadata = _sql_string(json.dumps(self.meta, ensure_ascii=False, default=str))
        query = (
            "SELECT b.battle, b.seed, b.winner, b.rounds, b.reason, s.scores, u.units "
            "FROM battles b "
            "LEFT JOIN (SELECT battle, map(list(side ORDER BY side), list(score ORDER BY side)) "
            "AS scores FROM scores GROUP BY battle) s USING (battle) "
            "LEFT JOIN (SELECT battle, list({'unit': unit, 'side': side, 'name': name, "
            "'start': start, 'survivors': survivors, 'losses': losses, 'fate': fate} "
            "ORDER BY slot) AS units FROM units GROUP BY battle) u USING (battle) "
            "ORDER BY b.battle"
        )
        try:
            self.con.execute(f"COPY ({query}) TO {_sql_string(str(temp))} "
                             f"(FORMAT parquet, KV_METADATA {{warhost: {metadata}}})")
            os.replace(temp, target)
        except duckdb.Error as exc:
            raise WarhostError(f"cannot write Parquet: {str(exc).splitlines()[0]}",
                               file=str(target), field="export") from None
        finally:
            if temp.exists():
                temp.unlink()

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Close the database (a writable one is checkpointed)."""
        self.con.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


_BATTLE_TYPES = dict(zip(BATTLE_COLUMNS, ("BIGINT", "BIGINT", "VARCHAR", "INTEGER", "VARCHAR"),
                         strict=True))
_SCORE_TYPES = dict(zip(SCORE_COLUMNS, ("BIGINT", "VARCHAR", "INTEGER"), strict=True))
_UNIT_TYPES = dict(zip(UNIT_COLUMNS, ("BIGINT", "INTEGER", "VARCHAR", "VARCHAR", "VARCHAR",
                                      "INTEGER", "INTEGER", "INTEGER", "VARCHAR"), strict=True))

