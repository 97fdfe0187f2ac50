"""Calls per CPU second of the tray geometry of ``warhost.geometry.table`` (the hot distance
and overlap tests, and the shapely-backed sight and cover checks). Run:

    PYTHONPATH=src .venv/bin/python benchmarks/bench_trays.py

Trays are random (seeded) on a 72 x 48 table, 1-6 inches wide and 1-3 deep, either on compass
facings or on any facing. Prints figures only; the best of several repeats, in CPU time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from shapely.geometry import box

from warhost.geometry.table import (
    Tray,
    clear_sight,
    cover_by_majority,
    tray_gap,
    trays_overlap,
    within,
)

PAIRS = 2000
REPEATS = 5


def _trays(rng: random.Random, n: int, any_facing: bool) -> list[Tray]:
    def facing() -> float:
        return rng.uniform(0.0, 360.0) if any_facing else rng.choice([0.0, 90.0, 180.0, 270.0])
    return [Tray((rng.uniform(0, 72), rng.uniform(0, 48)), facing(), rng.uniform(1, 6),
                 rng.uniform(1, 3)) for _ in range(n)]


def _rate(calls: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return calls / best


def main() -> None:
    rng = random.Random(14)
    for any_facing in (False, True):
        label = "any facing" if any_facing else "compass facings"
        a, b = _trays(rng, PAIRS, any_facing), _trays(rng, PAIRS, any_facing)
        pairs = list(zip(a, b, strict=True))
        print(f"tray_gap ({label}): {_rate(PAIRS, lambda ps=pairs: [tray_gap(s, t) for s, t in ps]):,.0f}/s")
        print(f"trays_overlap ({label}): "
              f"{_rate(PAIRS, lambda ps=pairs: [trays_overlap(s, t) for s, t in ps]):,.0f}/s")
    # A unit of 6 companies against another: within 6" checks up to 36 tray pairs.
    units = [(_trays(rng, 6, True), _trays(rng, 6, True)) for _ in range(200)]
    print(f"within, 6 x 6 companies: "
          f"{_rate(len(units), lambda: [within(u, v, 6.0) for u, v in units]):,.0f}/s")
    # Sight and cover: 3 shooting companies, 3 target companies, 10 blocking shapes.
    blockers = [box(x, y, x + 3, y + 2) for x, y in ((rng.uniform(0, 70), rng.uniform(0, 46))
                                                      for _ in range(10))]
    views = [(_trays(rng, 1, True)[0], _trays(rng, 3, True)) for _ in range(100)]
    print(f"clear_sight, 1 company to 3, 10 blockers: "
          f"{_rate(len(views), lambda: [clear_sight(v, t, blockers) for v, t in views]):,.0f}/s")
    walled = [box(-1, -1, 73, 49).difference(box(0, 0, 72, 48))]  # no wall in the way
    wall = [box(0, 20, 72, 22)]  # across the whole table: every line is tested
    far = [(Tray((36.0, 5.0), 0.0, 4.0, 2.0), [Tray((36.0, 40.0), 180.0, 4.0, 2.0)])] * 100
    print(f"clear_sight, fully blocked (81 sampled lines, then the exact search): "
          f"{_rate(len(far), lambda: [clear_sight(v, t, wall) for v, t in far]):,.0f}/s")
    print(f"clear_sight, open (first line clear): "
          f"{_rate(len(far), lambda: [clear_sight(v, t, walled) for v, t in far]):,.0f}/s")
    pieces = [(blk, 2) for blk in blockers]
    shots = [(_trays(rng, 3, True), _trays(rng, 3, True)) for _ in range(100)]
    print(f"cover_by_majority, 3 x 3 companies, 10 pieces: "
          f"{_rate(len(shots), lambda: [cover_by_majority(s, t, pieces) for s, t in shots]):,.0f}/s")


if __name__ == "__main__":
    main()
