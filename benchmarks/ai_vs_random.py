"""How often the AI commander beats the random one, per example, with sides rotated.

Run: .venv/bin/python benchmarks/ai_vs_random.py [-n 1000] [--ruleset NAME] [--example STEM]
                                                 [--jobs J] [--first-seed S]
For each example the AI takes each side in turn, every other side random, for n seeded battles
each. Two sides: prints AI wins, draws and losses with the AI's win rate and its 95% Wilson
interval. Three or more sides: also prints how often each random side won (pooled over the
rotations where it was random) and the ratio of the AI's win rate to the best random side's.
``--jobs`` plays the battles in that many processes (the seeds, and so the figures, are the
same whatever the number).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

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


def play_block(path: str, ai_side: str, seeds: range) -> list[str | None]:
    """Winners of the battles with the AI on ``ai_side`` and every other side random."""
    scenario = load_scenario(Path(path))
    sides = scenario.ruleset.side_names(scenario.model)
    commanders = {s: "ai" if s == ai_side else "random" for s in sides}
    return [run_battle(scenario, seed, commanders, record=False).winner for seed in seeds]


def blocks(n: int, jobs: int, first: int = 0) -> list[range]:
    """The seeds first..first+n-1 cut into about 4 pieces per process."""
    size = max(1, -(-n // max(1, 4 * jobs)))
    end = first + n
    return [range(a, min(end, a + size)) for a in range(first, end, size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=1000, help="battles per side assignment")
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--example", action="append", help="only these examples (file stems)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="seeds first-seed .. first-seed + n - 1 (to add to a run)")
    args = parser.parse_args()
    rows = []
    multi = []
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    for name, ruleset in all_rulesets().items():
        if args.ruleset and name != args.ruleset:
            continue
        for path in ruleset.examples():
            if args.example and path.stem not in args.example:
                continue
            scenario = load_scenario(path)
            sides = ruleset.side_names(scenario.model)
            wins = draws = losses = 0
            random_wins: Counter[str] = Counter()  # a side's wins while it was random
            random_games: Counter[str] = Counter()
            as_side: Counter[str] = Counter()  # the AI's wins on each side
            start = time.perf_counter()
            with Progress(transient=True) as progress:
                task = progress.add_task(f"{name}/{path.stem}", total=len(sides) * args.n)
                for ai_side in sides:
                    parts = blocks(args.n, args.jobs, args.first_seed)
                    if pool is not None:
                        results = pool.map(play_block, [str(path)] * len(parts),
                                           [ai_side] * len(parts), parts)
                    else:
                        results = (play_block(str(path), ai_side, part) for part in parts)
                    for winners in results:
                        for winner in winners:
                            if winner == ai_side:
                                wins += 1
                                as_side[ai_side] += 1
                            elif winner is None:
                                draws += 1
                            else:
                                losses += 1
                                random_wins[winner] += 1
                            progress.advance(task)
                    for side in sides:
                        if side != ai_side:
                            random_games[side] += args.n
            total = wins + draws + losses
            low, high = wilson(wins, total)
            label = f"{name}/{path.stem}"
            rows.append((label, wins, draws, losses, wins / total, low, high,
                         time.perf_counter() - start))
            print(f"{label}: AI {wins} wins, {draws} draws, {losses} losses of {total}; "
                  f"random sides' wins {dict(random_wins)}", flush=True)
            for side in sides:
                low, high = wilson(as_side[side], args.n)
                print(f"  AI as {side}: {as_side[side]} of {args.n} "
                      f"({100 * as_side[side] / args.n:.1f}%, 95% {100 * low:.1f}-"
                      f"{100 * high:.1f}%)", flush=True)
            if len(sides) > 2:
                multi.append((label, wins / total,
                              {s: (random_wins[s], random_games[s]) for s in sides}))
    if pool is not None:
        pool.shutdown()
    print()
    print(f"{'example':<36} {'AI wins':>8} {'draws':>6} {'losses':>7} {'win %':>7} "
          f"{'95% interval':>15} {'seconds':>8}")
    for label, w, d, lo, rate, a, b, secs in rows:
        print(f"{label:<36} {w:>8} {d:>6} {lo:>7} {100 * rate:>6.1f}% "
              f"{100 * a:>6.1f}-{100 * b:>5.1f}% {secs:>8.1f}")
    for label, rate, per_side in multi:
        print(f"\n{label}: AI side wins {100 * rate:.1f}% of its battles; each side while "
              "random:")
        best = 0.0
        for side, (won, games) in per_side.items():
            share = won / games if games else 0.0
            best = max(best, share)
            low, high = wilson(won, games)
            print(f"  {side:<20} {won:>6} of {games:<6} {100 * share:>6.1f}% "
                  f"({100 * low:.1f}-{100 * high:.1f}%)")
        ratio = "inf" if best == 0 else f"{rate / best:.1f}"
        print(f"  AI win rate / best random side's: {ratio}")


if __name__ == "__main__":
    main()
