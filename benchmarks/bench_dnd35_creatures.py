"""dnd35-wars: the cost of a round for armies of 1,000 and of 100,000 creatures a side.

Run: .venv/bin/python benchmarks/bench_dnd35_creatures.py [--rounds 5] [--kinds random,ai]

A unit is a count of creatures on counters, never a list of creatures: the same field battle
(the ruleset's army scenario, 7 units a side) is played with about 1,000 creatures a side at
the 25-ft scale and with 106 times as many (about 100,000 a side) at the 200-ft scale, where a
counter holds 64 times as many Medium creatures, so the big army stands on about 1.7 times the
counters of the small one.
Prints CPU seconds per round and the work counted per round (:mod:`warhost.core.metering`) for
each; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import copy
import time
from collections import Counter
from typing import Any

from warhost.core.engine import run_battle
from warhost.core.metering import metered
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data

UNITS = 7
"""Units a side: about 1,000 creatures at the army scenario's 25-ft scale."""

FACTOR = 106
"""Creatures of the big army over those of the small one (942 x 106 = 99,852 a side)."""


def armies(scale: int, factor: int, rounds: int) -> dict[str, Any]:
    """The army scenario with every unit's creatures multiplied by ``factor``, at ``scale``."""
    data = copy.deepcopy(get_ruleset("dnd35-wars").army_scenario(UNITS, rounds))
    data["scale"] = scale
    for side in data["sides"]:
        for unit in side["units"]:
            unit["count"] *= factor
    return data


def creatures(data: dict[str, Any]) -> int:
    """Creatures of the first side."""
    return sum(int(u["count"]) for u in data["sides"][0]["units"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kinds", default="random,ai")
    parser.add_argument("--battles", type=int, default=3)
    args = parser.parse_args()
    print(f"{'army':>26} {'commanders':>10} {'s/round':>9} {'work/round':>11}")
    for scale, factor in ((25, 1), (200, FACTOR)):
        data = armies(scale, factor, args.rounds)
        scenario = scenario_from_data(data, f"<{scale}-ft field battle>")
        sides = [s["name"] for s in data["sides"]]
        label = f"{creatures(data):,} a side at {scale} ft"
        for kind in args.kinds.split(","):
            rounds = 0
            work: Counter[str] = Counter()
            start = time.process_time()
            for seed in range(args.battles):
                with metered() as counts:
                    result = run_battle(scenario, seed, {s: kind for s in sides}, record=False)
                work += counts
                rounds += result.outcome.rounds
            spent = time.process_time() - start
            print(f"{label:>26} {kind:>10} {spent / rounds:9.4f} "
                  f"{sum(work.values()) // rounds:11,}")


if __name__ == "__main__":
    main()
