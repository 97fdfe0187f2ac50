"""Battles per second for each example, and time per battle as armies grow.

Run: .venv/bin/python benchmarks/bench_battles.py [--battles N] [--sizes 10,100,1000]
                                                  [--examples skirmish] [--cpu] [--repeat R]
Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from warhost.core.engine import run_battle
from warhost.core.registry import all_rulesets
from warhost.core.scenario import Scenario, load_scenario, scenario_from_data


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


def army_scenario(units_per_side: int) -> dict[str, Any]:
    """A plain field battle with ``units_per_side`` Standard Warriors a side, in squads of 4
    deployed as 2x2 blocks."""
    squads_per_side = max(1, units_per_side // 4)
    width = max(20, min(400, 2 * int((squads_per_side * 4) ** 0.5) + 4))
    width -= width % 2
    blocks_per_row = width // 2
    depth = 2 * -(-squads_per_side // blocks_per_row)
    height = depth * 2 + 12
    sides = []
    for index, name in enumerate(["West", "East"]):
        y_base = 0 if index == 0 else height - depth
        squads = []
        for s in range(squads_per_side):
            bx, by = 2 * (s % blocks_per_row), y_base + 2 * (s // blocks_per_row)
            corners = [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)]
            members = [{"id": f"{name[0]}{s}-{m}", "class": "warrior", "at": list(corners[m])}
                       for m in range(4)]
            squads.append({"id": f"{name}-{s}", "type": "infantry", "members": members})
        sides.append({"name": name, "start_area": [[0, y_base], [width - 1, y_base + depth - 1]],
                      "squads": squads})
    return {"ruleset": "fantasy-battle", "name": f"army-{units_per_side}",
            "victory_points": squads_per_side * 4 // 2 + 1,
            "options": {"max_rounds": 30, "first_player": "West"},
            "battlefield": {"width": width, "height": height}, "sides": sides}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--kinds", default="random,ai")
    parser.add_argument("--examples", default="", help="only examples whose name contains this")
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
        for path in ruleset.examples():
            if args.examples not in path.stem:
                continue
            scenario = load_scenario(path)
            for kind in kinds:
                rates, rounds = battles_per_second(scenario, kind, args.battles, args.cpu,
                                                   args.repeat)
                print(f"{name + '/' + path.stem:<40} {kind:<10} {_rates(rates)} {rounds:>7.1f}")
    print()
    print(f"{'units a side':>12} {'commanders':<10} {'s/battle':>10} {'rounds':>7}")
    for size in (int(s) for s in args.sizes.split(",") if s):
        scenario = scenario_from_data(army_scenario(size), f"<army-{size}>")
        for kind in kinds:
            count = 1 if size >= 1000 else 5
            rates, rounds = battles_per_second(scenario, kind, count)
            print(f"{size:>12} {kind:<10} {1 / rates[0]:>10.3f} {rounds:>7.1f}")


if __name__ == "__main__":
    main()
