"""How the cost of a round grows with the army: seconds per round and the fitted exponent.

Run: .venv/bin/python benchmarks/bench_scale.py [--rulesets fantasy-battle]
        [--sizes fantasy-battle=100,300,1000 --sizes dnd5e-tactics=8,16,32,64]
        [--kinds random,ai] [--rounds 5] [--battles 1]

For each ruleset that offers an army scenario (``Ruleset.army_scenario``), each size (units a
side) and each commander kind, plays ``battles`` seeded battles of at most ``rounds`` rounds
and prints CPU seconds per round, the work counted per round (:mod:`warhost.core.metering`)
and, per kind, the exponent k of the least-squares fit seconds ~ units^k. Prints figures only.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from warhost.core.engine import run_battle
from warhost.core.metering import metered
from warhost.core.registry import all_rulesets
from warhost.core.scenario import scenario_from_data

DEFAULT_SIZES = {"fantasy-battle": [100, 300, 1000], "dnd5e-tactics": [8, 16, 32, 64],
                 "warband": [10, 100, 1000], "dnd4e-war": [2, 10, 50],
                 "dnd35-wars": [10, 30, 90]}


def fitted_exponent(sizes: list[int], costs: list[float]) -> float:
    """The slope of log(cost) against log(size), least squares."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(c, 1e-12)) for c in costs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def sizes_warm(ruleset_name: str) -> int:
    """The army size of the untimed warm-up battle: the smallest default size."""
    return DEFAULT_SIZES.get(ruleset_name, [8])[0]


def per_round(ruleset_name: str, size: int, kind: str, rounds: int,
              battles: int) -> tuple[float, Counter[str], int]:
    """(CPU seconds per round, work counted per round, rounds played) over ``battles``."""
    ruleset = all_rulesets()[ruleset_name]
    scenario = scenario_from_data(ruleset.army_scenario(size, rounds), f"<army-{size}>")
    sides = ruleset.side_names(scenario.model)
    # One small battle first, untimed: imports and compiled kernels load once per process.
    warm = scenario_from_data(ruleset.army_scenario(sizes_warm(ruleset_name), 1), "<warm-up>")
    run_battle(warm, 10**6, {s: kind for s in sides}, record=False)
    played = 0
    seconds = 0.0
    work: Counter[str] = Counter()
    for seed in range(battles):
        with metered() as meter:
            start = time.process_time()
            result = run_battle(scenario, seed, {s: kind for s in sides}, record=False)
            seconds += time.process_time() - start
        played += result.rounds
        work.update(meter)
    played = max(played, 1)
    return seconds / played, Counter({k: v // played for k, v in work.items()}), played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", default="", help="comma-separated (default: all)")
    parser.add_argument("--sizes", action="append", default=[],
                        help="RULESET=N,N,... units a side (repeatable)")
    parser.add_argument("--kinds", default="random,ai")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per battle at most")
    parser.add_argument("--battles", type=int, default=1, help="seeded battles per size")
    args = parser.parse_args()
    sizes = dict(DEFAULT_SIZES)
    for item in args.sizes:
        name, _, values = item.partition("=")
        sizes[name] = [int(v) for v in values.split(",") if v]
    wanted = [r for r in args.rulesets.split(",") if r] or list(sizes)
    for name in wanted:
        print(f"{name}: CPU seconds per round (battles of at most {args.rounds} rounds)")
        print(f"{'units a side':>12} {'commanders':<10} {'s/round':>9} {'rounds':>6} "
              f"{'geometry/round':>15} {'options/round':>14}")
        for kind in args.kinds.split(","):
            costs = []
            for size in sizes[name]:
                cost, work, played = per_round(name, size, kind, args.rounds, args.battles)
                costs.append(cost)
                print(f"{size:>12} {kind:<10} {cost:>9.4f} {played:>6} "
                      f"{work['geometry']:>15} {work['options']:>14}", flush=True)
            print(f"{'':>12} {kind:<10} exponent {fitted_exponent(sizes[name], costs):.2f} "
                  f"({sizes[name][0]}..{sizes[name][-1]} units)")
        print()


if __name__ == "__main__":
    main()
