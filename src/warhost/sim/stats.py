"""Statistics of a Monte Carlo run: win probabilities with Wilson intervals, rounds, scores and
what became of each unit.

:func:`summarize` returns one JSON-ready dict::

    {
      "battles": 1000,
      "sides": {
        "Good": {"wins": 612, "win_probability": 0.612, "interval": [0.581, 0.642],
                 "score": {"mean": 6.1, "sd": 2.0}},
        "Evil": {...}
      },
      "draws": {"count": 12, "rate": 0.012, "interval": [0.007, 0.021]},
      "rounds": {"mean": 7.9, "sd": 2.5, "p5": 4.0, "p50": 8.0, "p95": 12.0, "min": 3, "max": 12},
      "units": [
        {"unit": "g-hero", "side": "Good", "name": "Ser Corvin", "start": 1.0, "battles": 1000,
         "survived": 800, "survival_rate": 0.8, "mean_survivors": 0.8, "mean_losses": 0.2}
      ]
    }

Intervals are 95% Wilson score intervals; ``sd`` is the sample standard deviation (0 for one
battle); percentiles interpolate linearly (numpy's default, and DuckDB's ``quantile_cont``).
A unit *survives* a battle when it ends with ``survivors > 0``; ``mean_survivors`` is its mean
surviving strength. With no battles, means and percentiles are ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from warhost.sim.records import BattleRecord

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% by default).

    ``n == 0`` gives ``(0.0, 1.0)``: nothing is known.

    Example:
        >>> [round(x, 3) for x in wilson(8, 10)]
        [0.49, 0.943]
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"successes {k} outside 0..{n}")
    p = k / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def describe(values: npt.ArrayLike) -> dict[str, float | None]:
    """Mean, sample sd, 5th/50th/95th percentiles, min and max (all None when empty)."""
    array = np.asarray(values, dtype=np.float64)
    if array.size == 0:
        return dict.fromkeys(("mean", "sd", "p5", "p50", "p95", "min", "max"))
    p5, p50, p95 = np.percentile(array, [5, 50, 95])
    return {
        "mean": float(array.mean()),
        "sd": float(array.std(ddof=1)) if array.size > 1 else 0.0,
        "p5": float(p5),
        "p50": float(p50),
        "p95": float(p95),
        "min": float(array.min()),
        "max": float(array.max()),
    }


def _mean_sd(values: npt.NDArray[Any]) -> dict[str, float | None]:
    full = describe(values)
    return {"mean": full["mean"], "sd": full["sd"]}


@dataclass
class UnitTally:
    """One unit's totals over all battles."""

    unit: str
    side: str
    name: str
    battles: int = 0
    survived: int = 0
    start_total: int = 0
    survivors_total: int = 0


@dataclass
class Tallies:
    """What :func:`summarize_tallies` needs: the wins of each side (``None``: draws), the
    rounds of every battle, every score of each side, and each unit's totals (in order of
    first appearance). :class:`~warhost.sim.store.ResultStore` computes them in SQL."""

    battles: int
    wins: dict[str | None, int]
    rounds: npt.NDArray[Any]
    scores: dict[str, npt.NDArray[Any]]
    units: list[UnitTally] = field(default_factory=list)


def tally(records: Iterable[BattleRecord]) -> Tallies:
    """The tallies of a list of battle records."""
    wins: dict[str | None, int] = {}
    rounds: list[int] = []
    scores: dict[str, list[int]] = {}
    units: dict[str, UnitTally] = {}
    for record in records:
        wins[record.winner] = wins.get(record.winner, 0) + 1
        rounds.append(record.rounds)
        for side, score in record.scores.items():
            scores.setdefault(side, []).append(score)
        for row in record.units:
            unit = units.get(row.unit)
            if unit is None:
                unit = units[row.unit] = UnitTally(row.unit, row.side, row.name or row.unit)
            unit.battles += 1
            unit.survived += row.survivors > 0
            unit.start_total += row.start
            unit.survivors_total += row.survivors
    return Tallies(
        battles=len(rounds),
        wins=wins,
        rounds=np.asarray(rounds, dtype=np.int64),
        scores={side: np.asarray(v, dtype=np.int64) for side, v in scores.items()},
        units=list(units.values()),
    )


def _key(item: Any, *names: str) -> str:
    """A name given as a string, or as an object/mapping with one of ``names``."""
    if isinstance(item, str):
        return item
    for name in names:
        if isinstance(item, Mapping) and name in item:
            return str(item[name])
        if hasattr(item, name):
            return str(getattr(item, name))
    return str(item)


def summarize_tallies(
    tallies: Tallies, sides: Sequence[Any] | None = None, units: Sequence[Any] | None = None
) -> dict[str, Any]:
    """The summary (see the module docstring) of tallied results.

    ``sides`` and ``units`` fix the order (and make sides that never scored appear); by
    default they come in order of first appearance.
    """
    n = tallies.battles
    side_order = [_key(s, "side", "name") for s in sides] if sides is not None else []
    for side in [*tallies.scores, *(u.side for u in tallies.units),
                 *(w for w in tallies.wins if w is not None)]:
        if side not in side_order:
            side_order.append(side)
    out_sides: dict[str, Any] = {}
    for side in side_order:
        k = tallies.wins.get(side, 0)
        low, high = wilson(k, n)
        out_sides[side] = {
            "wins": k,
            "win_probability": k / n if n else None,
            "interval": [low, high],
            "score": _mean_sd(tallies.scores.get(side, np.zeros(0))),
        }
    draws = tallies.wins.get(None, 0)
    draw_low, draw_high = wilson(draws, n)
    rounds: dict[str, Any] = dict(describe(tallies.rounds))
    for key in ("min", "max"):
        if rounds[key] is not None:
            rounds[key] = int(rounds[key])
    return {
        "battles": n,
        "sides": out_sides,
        "draws": {"count": draws, "rate": draws / n if n else None,
                  "interval": [draw_low, draw_high]},
        "rounds": rounds,
        "units": _unit_entries(tallies.units, units),
    }


def _unit_entries(tallies: list[UnitTally], units: Sequence[Any] | None) -> list[dict[str, Any]]:
    """Per unit: battles, survival rate, mean surviving strength and mean losses."""
    by_id = {t.unit: t for t in tallies}
    order = [_key(u, "unit", "id") for u in units] if units is not None else []
    order += [t.unit for t in tallies if t.unit not in order]
    out: list[dict[str, Any]] = []
    for unit in order:
        t = by_id.get(unit)
        c = t.battles if t is not None else 0
        if t is None or c == 0:
            out.append({"unit": unit, "side": t.side if t else None, "name": t.name if t else unit,
                        "start": None, "battles": 0, "survived": 0, "survival_rate": None,
                        "mean_survivors": None, "mean_losses": None})
            continue
        out.append({
            "unit": unit,
            "side": t.side,
            "name": t.name,
            "start": t.start_total / c,
            "battles": c,
            "survived": t.survived,
            "survival_rate": t.survived / c,
            "mean_survivors": t.survivors_total / c,
            "mean_losses": (t.start_total - t.survivors_total) / c,
        })
    return out


def summarize(
    records: Sequence[BattleRecord],
    sides: Sequence[Any] | None = None,
    units: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """The summary of a list of battle records (see the module docstring).

    ``sides``: side names in display order; ``units``: unit ids in display order (or objects
    or mappings with a ``unit``/``id``). Both default to the order of first appearance.
    """
    return summarize_tallies(tally(records), sides, units)


def run_summary(meta: Mapping[str, Any], summary: Mapping[str, Any]) -> dict[str, Any]:
    """A run's summary: what was run (from its meta: scenario, ruleset, seed, commanders),
    then the statistics of :func:`summarize`."""
    ruleset = meta.get("ruleset")
    version = meta.get("ruleset_version")
    return {
        "scenario": meta.get("scenario"),
        "ruleset": f"{ruleset}@{version}" if version is not None else ruleset,
        "seed": meta.get("seed"),
        "commanders": meta.get("commanders"),
        **summary,
    }
