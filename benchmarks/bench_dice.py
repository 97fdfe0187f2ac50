"""warhost's dice source against plain NumPy, in one run.

Rolls the same number of d6 three ways and prints the time of each and the ratios:
  1. warhost's SeededDice as the rules use it (pools of 1-3 dice, faces drawn from NumPy in
     blocks and handed out in order), without event recording;
  2. one NumPy call for the whole batch (the floor: no per-roll work at all);
  3. one NumPy call per die (what drawing without blocks would cost).

Run: .venv/bin/python benchmarks/bench_dice.py [--dice 1000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from warhost.core.dice import SeededDice, make_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dice", type=int, default=1_000_000)
    args = parser.parse_args()
    n = args.dice - args.dice % 6

    dice = SeededDice(1)
    start = time.perf_counter()
    for _ in range(n // 6):  # the mix the rules roll: 1, 2 and 3 dice at a time
        dice.pool(1)
        dice.pool(2)
        dice.pool(3)
    warhost_s = time.perf_counter() - start

    rng = make_rng(1)
    start = time.perf_counter()
    faces = rng.integers(1, 7, size=n)
    batch_s = time.perf_counter() - start
    assert faces.min() >= 1

    per_die_n = min(n, 200_000)
    rng = make_rng(1)
    start = time.perf_counter()
    for _ in range(per_die_n):
        rng.integers(1, 7)
    per_die_s = (time.perf_counter() - start) * n / per_die_n

    print(f"{n:,} d6")
    print(f"  warhost SeededDice (pools of 1-3): {warhost_s:8.3f} s  {n / warhost_s / 1e6:6.2f} M dice/s")
    print(f"  NumPy, one call for the batch:     {batch_s:8.3f} s  {n / batch_s / 1e6:6.2f} M dice/s")
    print(f"  NumPy, one call per die (est.):    {per_die_s:8.3f} s  {n / per_die_s / 1e6:6.2f} M dice/s")
    print(f"  ratio warhost / NumPy batch:       {warhost_s / batch_s:8.1f}x")
    print(f"  ratio per-die NumPy / warhost:     {per_die_s / warhost_s:8.1f}x")


if __name__ == "__main__":
    main()
