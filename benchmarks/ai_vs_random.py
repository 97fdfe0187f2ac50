"""How often the AI commander beats the random one, per example, with sides swapped.

Run: .venv/bin/python benchmarks/ai_vs_random.py [-n 1000] [--ruleset NAME]
For each example: n battles with the AI on the first side and n with it on the second; prints
AI wins, draws and losses with the AI's win rate and its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time

from rich.progress import Progress

from warhost.core.engine import run_battle
from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=1000, help="battles per side assignment")
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--example", action="append", help="only these examples (file stems)")
    args = parser.parse_args()
    rows = []
    for name, ruleset in all_rulesets().items():
        if args.ruleset and name != args.ruleset:
            continue
        for path in ruleset.examples():
            if args.example and path.stem not in args.example:
                continue
            scenario = load_scenario(path)
            sides = ruleset.side_names(scenario.model)
            wins = draws = losses = 0
            start = time.perf_counter()
            with Progress(transient=True) as progress:
                task = progress.add_task(f"{name}/{path.stem}", total=2 * args.n)
                for ai_side in sides:
                    other = [s for s in sides if s != ai_side][0]
                    for seed in range(args.n):
                        result = run_battle(scenario, seed, {ai_side: "ai", other: "random"},
                                            record=False)
                        if result.winner == ai_side:
                            wins += 1
                        elif result.winner is None:
                            draws += 1
                        else:
                            losses += 1
                        progress.advance(task)
            total = wins + draws + losses
            low, high = wilson(wins, total)
            rows.append((f"{name}/{path.stem}", wins, draws, losses, wins / total, low, high,
                         time.perf_counter() - start))
    print(f"{'example':<36} {'AI wins':>8} {'draws':>6} {'losses':>7} {'win %':>7} "
          f"{'95% interval':>15} {'seconds':>8}")
    for label, w, d, lo, rate, a, b, secs in rows:
        print(f"{label:<36} {w:>8} {d:>6} {lo:>7} {100 * rate:>6.1f}% "
              f"{100 * a:>6.1f}-{100 * b:>5.1f}% {secs:>8.1f}")


if __name__ == "__main__":
    main()
