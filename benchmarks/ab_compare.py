"""Compare the battle speed of two source trees, interleaved so the host's drift hits both alike.

Two long-lived worker processes, one per tree (``[PYTHON:]SRC``: an interpreter and a ``src``
folder put first on ``PYTHONPATH``), take turns playing the same batches of seeds; each times its
own CPU. The order alternates batch by batch. Prints battles per CPU second of each and B ÷ A
(overall, and the median and range of the per-batch ratios). Run:

    .venv/bin/python benchmarks/ab_compare.py /tmp/base/src src --kind random --batches 20
    .venv/bin/python benchmarks/ab_compare.py src /tmp/venv311/bin/python:src  # two interpreters

(``git worktree add /tmp/base COMMIT`` gives the tree of an older commit; the other interpreter
needs warhost's dependencies installed.) Prints figures only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_UP = 20


def _child(scenario: str, kind: str) -> None:
    """Worker: warm up, then answer ``START COUNT`` lines with the CPU seconds they took."""
    from warhost.core.engine import run_battle
    from warhost.core.scenario import load_scenario

    loaded = load_scenario(scenario)
    kinds = {side: kind for side in loaded.ruleset.side_names(loaded.model)}
    for seed in range(WARM_UP):
        run_battle(loaded, 10**6 + seed, kinds, record=False)
    print("ready", flush=True)
    for line in sys.stdin:
        first, count = map(int, line.split())
        began = time.process_time()
        for seed in range(first, first + count):
            run_battle(loaded, seed, kinds, record=False)
        print(time.process_time() - began, flush=True)


def _start(spec: str, scenario: str, kind: str) -> subprocess.Popen[str]:
    python, _, src = spec.rpartition(":")
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    worker = subprocess.Popen(
        [python or sys.executable, __file__, "--child", "--scenario", scenario, "--kind", kind],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    assert worker.stdout is not None
    if worker.stdout.readline().strip() != "ready":
        sys.exit(f"worker for {spec} did not start")
    return worker


def _ask(worker: subprocess.Popen[str], first: int, count: int) -> float:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(f"{first} {count}\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", nargs="?", help="[PYTHON:]SRC of version A")
    parser.add_argument("b", nargs="?", help="[PYTHON:]SRC of version B")
    parser.add_argument("--kind", default="random", help="commander kind on both sides")
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--size", type=int, default=40, help="battles per batch")
    parser.add_argument("--scenario", default="examples/fantasy-battle/skirmish.yaml")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.scenario, args.kind)
        return
    if not (args.a and args.b):
        parser.error("give the two versions to compare")
    workers = {"A": _start(args.a, args.scenario, args.kind),
               "B": _start(args.b, args.scenario, args.kind)}
    total = {"A": 0.0, "B": 0.0}
    ratios = []
    for batch in range(args.batches):
        order = ("A", "B") if batch % 2 == 0 else ("B", "A")
        spent = {name: _ask(workers[name], batch * args.size, args.size) for name in order}
        for name in order:
            total[name] += spent[name]
        ratios.append(spent["A"] / spent["B"])
    battles = args.batches * args.size
    print(f"{args.kind}, {battles} battles each: A {battles / total['A']:.1f}/s, "
          f"B {battles / total['B']:.1f}/s, B/A {total['A'] / total['B']:.3f} (per batch: median "
          f"{statistics.median(ratios):.3f}, {min(ratios):.3f}-{max(ratios):.3f})")
    for worker in workers.values():
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()


if __name__ == "__main__":
    main()
