"""The flat records a Monte Carlo run produces: one per battle, one per unit of a battle; and
the same as columns (:class:`BattleColumns`), the form in which batches travel from the
workers to the result store."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt


@dataclass
class UnitRow:
    """What became of one unit in one battle (``survivors + losses == start``)."""

    unit: str
    side: str
    start: int
    survivors: int
    losses: int
    fate: str
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return asdict(self)


@dataclass
class BattleRecord:
    """One battle of a run: its index and seed, the outcome, and every unit's fate."""

    battle: int
    seed: int
    winner: str | None
    rounds: int
    reason: str
    scores: dict[str, int]
    units: list[UnitRow] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return asdict(self)


BATTLE_COLUMNS = ("battle", "seed", "winner", "rounds", "reason")
"""Columns of the ``battles`` table, in order."""
SCORE_COLUMNS = ("battle", "side", "score")
"""Columns of the ``scores`` table, in order."""
UNIT_COLUMNS = ("battle", "slot", "unit", "side", "name", "start", "survivors", "losses", "fate")
"""Columns of the ``units`` table, in order."""
_TEXT = frozenset({"winner", "reason", "side", "unit", "name", "fate"})


def _array(name: str, values: list[Any]) -> npt.NDArray[Any]:
    return np.array(values, dtype=object if name in _TEXT else np.int64)


@dataclass
class BattleColumns:
    """Battles as columns, one mapping of arrays per table of the result file (``battles``,
    ``scores``, ``units``; see :data:`BATTLE_COLUMNS` and the others): what a worker sends
    back and what the result store inserts. Integer columns are ``int64`` arrays and text
    columns object arrays, so a batch pickles small and inserts fast."""

    battles: dict[str, npt.NDArray[Any]]
    scores: dict[str, npt.NDArray[Any]]
    units: dict[str, npt.NDArray[Any]]

    def __len__(self) -> int:
        return len(self.battles["battle"])

    @classmethod
    def from_records(cls, records: Iterable[BattleRecord]) -> BattleColumns:
        """The columns of these records."""
        builder = ColumnBuilder()
        for r in records:
            builder.add(r.battle, r.seed, r.winner, r.rounds, r.reason, r.scores.items(),
                        [(u.unit, u.side, u.name, u.start, u.survivors, u.losses, u.fate)
                         for u in r.units])
        return builder.finish()

    @classmethod
    def concat(cls, parts: Sequence[BattleColumns]) -> BattleColumns:
        """Several batches as one."""
        if len(parts) == 1:
            return parts[0]
        if not parts:
            return ColumnBuilder().finish()

        def join(table: str, names: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
            return {name: np.concatenate([getattr(p, table)[name] for p in parts])
                    for name in names}

        return cls(join("battles", BATTLE_COLUMNS), join("scores", SCORE_COLUMNS),
                   join("units", UNIT_COLUMNS))

    def records(self) -> list[BattleRecord]:
        """The battles as records, in the order of the columns."""
        b = self.battles
        out = [BattleRecord(battle, seed, winner, rounds, reason, {}, [])
               for battle, seed, winner, rounds, reason in zip(
                   b["battle"].tolist(), b["seed"].tolist(), b["winner"].tolist(),
                   b["rounds"].tolist(), b["reason"].tolist(), strict=True)]
        where = {r.battle: r for r in out}
        s = self.scores
        for battle, side, score in zip(s["battle"].tolist(), s["side"].tolist(),
                                       s["score"].tolist(), strict=True):
            where[battle].scores[side] = score
        u = self.units
        for battle, unit, side, name, start, survivors, losses, fate in zip(
                *(u[c].tolist() for c in ("battle", "unit", "side", "name", "start",
                                          "survivors", "losses", "fate")), strict=True):
            where[battle].units.append(UnitRow(unit, side, start, survivors, losses, fate, name))
        return out


class ColumnBuilder:
    """Collects battles row by row into :class:`BattleColumns` (plain lists until
    :meth:`finish`)."""

    def __init__(self) -> None:
        self.battles: dict[str, list[Any]] = {name: [] for name in BATTLE_COLUMNS}
        self.scores: dict[str, list[Any]] = {name: [] for name in SCORE_COLUMNS}
        self.units: dict[str, list[Any]] = {name: [] for name in UNIT_COLUMNS}

    def add(self, battle: int, seed: int, winner: str | None, rounds: int, reason: str,
            scores: Iterable[tuple[str, int]],
            units: Iterable[tuple[str, str, str, int, int, int, str]]) -> None:
        """One battle: its outcome, ``(side, score)`` pairs, and ``(unit, side, name, start,
        survivors, losses, fate)`` for each unit in slot order."""
        b = self.battles
        b["battle"].append(battle)
        b["seed"].append(seed)
        b["winner"].append(winner)
        b["rounds"].append(rounds)
        b["reason"].append(reason)
        s = self.scores
        for side, score in scores:
            s["battle"].append(battle)
            s["side"].append(side)
            s["score"].append(score)
        u = self.units
        for slot, (unit, side, name, start, survivors, losses, fate) in enumerate(units):
            u["battle"].append(battle)
            u["slot"].append(slot)
            u["unit"].append(unit)
            u["side"].append(side)
            u["name"].append(name)
            u["start"].append(start)
            u["survivors"].append(survivors)
            u["losses"].append(losses)
            u["fate"].append(fate)

    def finish(self) -> BattleColumns:
        """The columns collected so far, as arrays."""
        return BattleColumns(
            {name: _array(name, values) for name, values in self.battles.items()},
            {name: _array(name, values) for name, values in self.scores.items()},
            {name: _array(name, values) for name, values in self.units.items()})
