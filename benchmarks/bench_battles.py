"""Battles per second for each example.

Run: .venv/bin/python benchmarks/bench_battles.py [--battles N] [--examples skirmish]
                                                  [--ruleset warband]
                                                  [--cpu] [--repeat R]
(How cost grows with the army: benchmarks/bench_scale.py.)
Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from warhost.core.engine import run_battle
from warhost.core.registry import all_rulesets
from warhost.core.scenario import Scenario, load_scenario


def battles_per_second(
    scenario: Scenario, kind: str, battles: int, cpu: bool = False, repeat: int = 1
) -> tuple[list[float], float]:
    """(battles per second of each run, mean rounds): ``repeat`` runs over the same ``battles``
    seeds with both sides ``kind``.

    With ``cpu`` the rate is per second of this process's CPU time (steadier than wall time
    when other processes share the machine). The first run pays for what a process builds once
    (the map's lines of fire, compiled kernels loading); later runs show the steady speed of a
    long simulation, and the best of them the speed with the least disturbance from the host."""
    sides = scenario.ruleset.side_names(scenario.model)
    clock = time.process_time if cpu else time.perf_counter
    # One battle first, untimed: imports and compiled kernels load once per process.
    run_battle(scenario, 10**6, {s: kind for s in sides}, record=False)
    rates = []
    rounds = 0
    for _ in range(repeat):
        start = clock()
        rounds = 0
        for seed in range(battles):
            result = run_battle(scenario, seed, {s: kind for s in sides}, record=False)
            rounds += result.rounds
        rates.append(battles / (clock() - start))
    return rates, rounds / battles


def _rates(rates: list[float]) -> str:
    """The first run's rate, then (with repeats) the median and best of all runs."""
    if len(rates) == 1:
        return f"{rates[0]:>10.1f}"
    return f"{rates[0]:>10.1f} {statistics.median(rates):>10.1f} {max(rates):>10.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--kinds", default="random,ai")
    parser.add_argument("--examples", default="", help="only examples whose name contains this")
    parser.add_argument("--ruleset", default=None, help="only this ruleset's examples")
    parser.add_argument("--cpu", action="store_true",
                        help="battles per CPU second of this process instead of wall time")
    parser.add_argument("--repeat", type=int, default=1,
                        help="play the same battles this many times; print the first run's "
                             "rate, the median and the best")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    heads = "battles/s" if args.repeat == 1 else f"{'first':>10} {'median':>10} {'best':>10}"
    print(f"{'example':<40} {'commanders':<10} {heads:>10} {'rounds':>7}")
    for name, ruleset in all_rulesets().items() if args.battles else ():
        if args.ruleset and name != args.ruleset:
            continue
        for path in ruleset.examples():
            if args.examples not in path.stem:
                continue
            scenario = load_scenario(path)
            for kind in kinds:
                rates, rounds = battles_per_second(scenario, kind, args.battles, args.cpu,
                                                   args.repeat)
                print(f"{name + '/' + path.stem:<40} {kind:<10} {_rates(rates)} {rounds:>7.1f}")


if __name__ == "__main__":
    main()
