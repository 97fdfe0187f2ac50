"""Monte Carlo throughput: battles per second on 1 and 2 worker processes, per example and
commander kind, and the peak memory of a worker.

Run: .venv/bin/python benchmarks/bench_simulate.py [--seconds 8] [--kinds random,ai]
                                                   [--ruleset fantasy-battle] [--examples skirmish]
                                                   [--repeat R]
Each cell simulates about --seconds worth of battles (sized from a short trial run); with
--repeat the 1- and 2-worker runs alternate R times and the best of each is printed.
"""

from __future__ import annotations

import argparse
import resource
import time

from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario
from warhost.sim.runner import shutdown_workers, simulate


def rate(scenario, n: int, workers: int, kind: str) -> float:  # type: ignore[no-untyped-def]
    sides = scenario.ruleset.side_names(scenario.model)
    start = time.perf_counter()
    simulate(scenario, n, seed=0, workers=workers, commanders={s: kind for s in sides})
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--kinds", default="random,ai")
    parser.add_argument("--ruleset", default="", help="only this ruleset's examples")
    parser.add_argument("--examples", default="", help="only examples whose name contains this")
    parser.add_argument("--repeat", type=int, default=1,
                        help="alternate 1- and 2-worker runs this many times; print the best "
                             "of each and the ratio of each pair")
    args = parser.parse_args()
    started = False
    print(f"{'example':<36} {'commanders':<10} {'1 worker':>10} {'2 workers':>10} {'speed-up':>9}")
    for name, ruleset in all_rulesets().items():
        if args.ruleset and name != args.ruleset:
            continue
        for path in ruleset.examples():
            if args.examples not in path.stem:
                continue
            scenario = load_scenario(path)
            if not started:
                clock = time.perf_counter()
                rate(scenario, 2, 2, "first")
                startup = time.perf_counter() - clock
                started = True
            for kind in args.kinds.split(","):
                trial = rate(scenario, 4, 1, kind)
                n = max(8, int(trial * args.seconds))
                # Untimed: start the pool and let each worker play this scenario a little, as
                # this process just did, so both figures are steady-state rates (starting the
                # workers is a one-off cost of about a second, measured separately below).
                rate(scenario, 8, 2, kind)
                ones, twos = [], []
                for _ in range(args.repeat):  # alternating, so the host's drift hits both
                    ones.append(rate(scenario, n, 1, kind))
                    twos.append(rate(scenario, 2 * n, 2, kind))
                one, two = max(ones), max(twos)
                print(f"{name + '/' + path.stem:<36} {kind:<10} {one:>10.1f} {two:>10.1f} "
                      f"{two / one:>8.2f}x", flush=True)
                if args.repeat > 1:
                    pairs = ", ".join(f"{t / o:.2f}" for o, t in zip(ones, twos))
                    print(f"{'':<36} {'':<10} each pair of runs: {pairs}", flush=True)
    shutdown_workers()
    if started:
        print(f"\nstarting 2 workers and playing 2 battles on them: {startup:.2f} s")
    # 1-worker runs play in this process, doing exactly a worker's job, so its peak is a
    # worker's peak (forkserver workers are not this process's children, so their rusage is
    # not visible here).
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\npeak memory of a process playing battles (as a worker does): {peak_kib / 1024:.0f} MB")


if __name__ == "__main__":
    main()
