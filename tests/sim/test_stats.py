"""Wilson intervals, percentiles and the summary of a run."""

from __future__ import annotations

import numpy as np
import pytest

from warhost.sim.runner import BattleRecord, UnitRow
from warhost.sim.stats import describe, run_summary, summarize, tally, wilson


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (8, 10, 0.490, 0.943),   # hand-computed: centre 0.7107, half-width 0.2267 (z = 1.96)
    (0, 10, 0.000, 0.278),
    (10, 10, 0.722, 1.000),
    (5, 10, 0.237, 0.763),
    (1, 100, 0.002, 0.054),
    (50, 100, 0.404, 0.596),
])
def test_wilson_against_hand_computed_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert round(got[0], 3) == low
    assert round(got[1], 3) == high


def test_wilson_edge_cases() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(3, 7)
    assert 0 <= low < 3 / 7 < high <= 1
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_wilson_formula() -> None:
    k, n, z = 37, 91, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert wilson(k, n) == pytest.approx((centre - half, centre + half), abs=1e-12)


def test_describe_matches_numpy() -> None:
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 100, 1001):
        values = rng.integers(1, 20, size)
        got = describe(values)
        assert got["mean"] == pytest.approx(values.mean())
        assert got["sd"] == pytest.approx(values.std(ddof=1) if size > 1 else 0.0)
        for q in (5, 50, 95):
            assert got[f"p{q}"] == pytest.approx(np.percentile(values, q))
        assert got["min"] == values.min() and got["max"] == values.max()


def test_describe_empty() -> None:
    assert set(describe([]).values()) == {None}


def _record(battle: int, winner: str | None, rounds: int, scores: dict[str, int],
            survivors: dict[str, int]) -> BattleRecord:
    units = [UnitRow(unit, "A" if unit.startswith("a") else "B", 2, kept, 2 - kept,
                     "alive" if kept else "defeated", unit.upper())
             for unit, kept in survivors.items()]
    return BattleRecord(battle, battle * 11, winner, rounds, "", scores, units)


RECORDS = [
    _record(0, "A", 3, {"A": 5, "B": 1}, {"a1": 2, "a2": 1, "b1": 0}),
    _record(1, "A", 5, {"A": 4, "B": 2}, {"a1": 2, "a2": 0, "b1": 1}),
    _record(2, None, 8, {"A": 3, "B": 3}, {"a1": 0, "a2": 0, "b1": 2}),
    _record(3, "B", 4, {"A": 0, "B": 6}, {"a1": 1, "a2": 0, "b1": 2}),
]


def test_summary_of_records() -> None:
    summary = summarize(RECORDS, ["A", "B", "C"])
    assert summary["battles"] == 4
    assert list(summary["sides"]) == ["A", "B", "C"]
    a = summary["sides"]["A"]
    assert a["wins"] == 2 and a["win_probability"] == 0.5
    assert a["interval"] == list(wilson(2, 4))
    assert a["score"]["mean"] == 3.0
    assert a["score"]["sd"] == pytest.approx(np.std([5, 4, 3, 0], ddof=1))
    assert summary["sides"]["C"]["wins"] == 0
    assert summary["sides"]["C"]["score"] == {"mean": None, "sd": None}
    assert summary["draws"] == {"count": 1, "rate": 0.25, "interval": list(wilson(1, 4))}
    rounds = summary["rounds"]
    assert rounds["mean"] == 5.0
    assert rounds["p50"] == np.percentile([3, 5, 8, 4], 50)
    assert rounds["p5"] == pytest.approx(np.percentile([3, 5, 8, 4], 5))
    assert (rounds["min"], rounds["max"]) == (3, 8)
    units = {u["unit"]: u for u in summary["units"]}
    assert [u["unit"] for u in summary["units"]] == ["a1", "a2", "b1"]
    assert units["a1"] == {"unit": "a1", "side": "A", "name": "A1", "start": 2.0, "battles": 4,
                           "survived": 3, "survival_rate": 0.75, "mean_survivors": 1.25,
                           "mean_losses": 0.75}
    assert units["a2"]["survival_rate"] == 0.25
    assert units["b1"]["mean_survivors"] == 1.25


def test_summary_unit_order_and_empty() -> None:
    summary = summarize(RECORDS, units=["b1", "a2"])
    assert [u["unit"] for u in summary["units"]] == ["b1", "a2", "a1"]
    empty = summarize([], ["A", "B"])
    assert empty["battles"] == 0
    assert empty["sides"]["A"]["win_probability"] is None
    assert empty["sides"]["A"]["interval"] == [0.0, 1.0]
    assert empty["rounds"]["mean"] is None and empty["units"] == []


def test_tally_and_run_summary() -> None:
    tallies = tally(RECORDS)
    assert tallies.wins == {"A": 2, None: 1, "B": 1}
    assert tallies.units[0].survivors_total == 5
    meta = {"scenario": "S", "ruleset": "r", "ruleset_version": "1", "seed": 4,
            "commanders": {"A": "ai"}}
    out = run_summary(meta, summarize(RECORDS))
    assert out["ruleset"] == "r@1" and out["seed"] == 4 and out["battles"] == 4
