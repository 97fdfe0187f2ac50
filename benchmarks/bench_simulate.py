"""Monte Carlo throughput on 1 and 2 worker processes, per example and commander kind: wall
rates, and the CPU time of this process (the parent) and of the workers, which stay
meaningful when other processes share the machine.

Run: .venv/bin/python benchmarks/bench_simulate.py [--seconds 8] [--kinds random,ai]
                                                   [--ruleset fantasy-battle] [--examples skirmish]
                                                   [--repeat R] [--no-store] [--overhead N]
Each cell simulates about --seconds worth of battles (sized from a short trial run) into a
temporary result database, as ``warhost simulate`` does (--no-store: in memory). Columns:

* ``1 w/s``, ``2 w/s``: battles per wall second on 1 worker (this process) and 2 workers.
* ``1 cpu``: CPU milliseconds per battle of the 1-worker run (battle, records and database).
* ``2 work``: the workers' CPU ms per battle; ``parent``: this process's CPU µs per battle
  while 2 workers play (collecting results, writing them), and as a share of the workers'.
* ``cpu x``: the speed-up 2 workers would give on 2 otherwise idle cores, from CPU time alone:
  ``2 * (1 cpu) / (2 work + parent)`` (the parent shares the cores with the workers).

With --repeat the 1- and 2-worker runs alternate R times; the best wall rate and the least
CPU per battle of each are printed. Worker CPU is read from /proc (Linux).

--overhead N: instead, what ``simulate`` itself costs per battle in one process (seeds,
records, statistics, database), with ``run_battle`` replaced by a look-up of 20 battles played
beforehand: CPU µs per battle over N battles, in memory and into a result database.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario
from warhost.sim import runner
from warhost.sim.runner import run_meta, shutdown_workers, simulate
from warhost.sim.store import ResultStore

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (0 where /proc is missing)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def workers_cpu() -> float:
    """CPU seconds used so far by the processes of the kept worker pool."""
    pool: Any = runner._POOL[1] if runner._POOL is not None else None
    return sum(_cpu_of(pid) for pid in (getattr(pool, "_processes", None) or {}))


def measure(scenario, n: int, workers: int, kind: str, store: bool, folder: Path,  # type: ignore[no-untyped-def]
            ) -> tuple[float, float, float]:
    """(battles per wall second, parent CPU s per battle, workers' CPU s per battle)."""
    sides = scenario.ruleset.side_names(scenario.model)
    kinds = {s: kind for s in sides}
    path = folder / f"run-{time.monotonic_ns()}.duckdb"
    result = ResultStore.open(path, run_meta(scenario, n, 0, kinds), False) if store else None
    before = workers_cpu()
    cpu, wall = time.process_time(), time.perf_counter()
    simulate(scenario, n, seed=0, workers=workers, commanders=kinds, store=result)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    spent = workers_cpu() - before
    if result is not None:
        result.close()
        path.unlink()
    return n / wall, cpu / n, spent / n


def overhead(scenario, kind: str, n: int, folder: Path) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """simulate's own CPU seconds per battle (in memory, into a database), battles replaced
    by a look-up of 20 battles played before."""
    from warhost.core.engine import run_battle
    from warhost.sim.seeds import battle_seed

    kinds = {s: kind for s in scenario.ruleset.side_names(scenario.model)}
    played = [run_battle(scenario, battle_seed(0, i), dict(kinds), record=False)
              for i in range(20)]
    real = runner.run_battle
    runner.run_battle = lambda scenario, seed, commanders, record=False: played[seed % 20]  # type: ignore[assignment]
    try:
        start = time.process_time()
        simulate(scenario, n, seed=0, workers=1, commanders=kinds)
        memory = (time.process_time() - start) / n
        path = folder / f"overhead-{time.monotonic_ns()}.duckdb"
        with ResultStore.open(path, run_meta(scenario, n, 0, kinds), False) as store:
            start = time.process_time()
            simulate(scenario, n, seed=0, workers=1, commanders=kinds, store=store)
            stored = (time.process_time() - start) / n
        path.unlink()
    finally:
        runner.run_battle = real
    return memory, stored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--kinds", default="random,ai")
    parser.add_argument("--ruleset", default="", help="only this ruleset's examples")
    parser.add_argument("--examples", default="", help="only examples whose name contains this")
    parser.add_argument("--repeat", type=int, default=1,
                        help="alternate 1- and 2-worker runs this many times")
    parser.add_argument("--no-store", action="store_true", help="keep results in memory")
    parser.add_argument("--overhead", type=int, default=0, metavar="N",
                        help="measure simulate's own cost per battle over N battles instead")
    args = parser.parse_args()
    store = not args.no_store
    folder = Path(tempfile.mkdtemp(prefix="bench-simulate-"))
    if args.overhead:
        print(f"{'example':<36} {'kind':<7} {'in memory':>10} {'database':>10}  (CPU µs per battle)")
        for name, ruleset in all_rulesets().items():
            if args.ruleset and name != args.ruleset:
                continue
            for path in ruleset.examples():
                if args.examples not in path.stem:
                    continue
                scenario = load_scenario(path)
                for kind in args.kinds.split(","):
                    memory, stored = overhead(scenario, kind, args.overhead, folder)
                    print(f"{name + '/' + path.stem:<36} {kind:<7} {memory * 1e6:>10.1f} "
                          f"{stored * 1e6:>10.1f}", flush=True)
        return
    started = False
    startup = (0.0, 0.0, 0.0)
    print(f"{'example':<36} {'kind':<7} {'1 w/s':>7} {'2 w/s':>7} {'1 cpu':>7} {'2 work':>7} "
          f"{'parent':>14} {'cpu x':>6}")
    for name, ruleset in all_rulesets().items():
        if args.ruleset and name != args.ruleset:
            continue
        for path in ruleset.examples():
            if args.examples not in path.stem:
                continue
            scenario = load_scenario(path)
            if not started:
                # starting the pool: wall time, and the workers' CPU until 2 battles are done
                wall = time.perf_counter()
                _, _, worker_each = measure(scenario, 2, 2, "first", False, folder)
                startup = (time.perf_counter() - wall, worker_each * 2, 0.0)
                started = True
            for kind in args.kinds.split(","):
                trial, _, _ = measure(scenario, 4, 1, kind, False, folder)
                n = max(8, int(trial * args.seconds))
                # Untimed: let each worker play this scenario a little, as this process just
                # did, so that both figures are steady-state (starting is measured apart).
                measure(scenario, 8, 2, kind, False, folder)
                ones, twos = [], []
                for _ in range(args.repeat):  # alternating, so the host's drift hits both
                    ones.append(measure(scenario, n, 1, kind, store, folder))
                    twos.append(measure(scenario, 2 * n, 2, kind, store, folder))
                one_rate = max(r for r, _, _ in ones)
                one_cpu = min(c for _, c, _ in ones)
                two_rate = max(r for r, _, _ in twos)
                parent = min(c for _, c, _ in twos)
                work = min(w for _, _, w in twos)
                bound = 2 * one_cpu / (work + parent) if work > 0 else 0.0
                share = f"{parent * 1e6:.0f} µs {100 * parent / work:.1f}%" if work else "-"
                print(f"{name + '/' + path.stem:<36} {kind:<7} {one_rate:>7.1f} {two_rate:>7.1f} "
                      f"{one_cpu * 1e3:>7.2f} {work * 1e3:>7.2f} {share:>14} {bound:>5.2f}x",
                      flush=True)
    shutdown_workers()
    if started:
        print(f"\nstarting 2 workers and playing 2 battles on them: {startup[0]:.2f} s wall, "
              f"{startup[1]:.2f} s of worker CPU")
    # 1-worker runs play in this process, doing exactly a worker's job, so its peak is a
    # worker's peak (forkserver workers are not this process's children, so their rusage is
    # not visible here).
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\npeak memory of a process playing battles (as a worker does): {peak_kib / 1024:.0f} MB")


if __name__ == "__main__":
    main()
