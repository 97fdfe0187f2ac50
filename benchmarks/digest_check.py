"""Safety net for optimisations: every battle's event log must stay byte-identical.

For every example of every ruleset, seeds 0..N-1 and commander kinds (random, ai, first on both
sides), plays the battle with ``record=True`` and keeps ``result.log.digest()``; it also plays it
with ``record=False`` (what Monte Carlo runs do) and keeps the event count, the outcome and a digest
of the recorded decisions, so the unrecorded path is checked too.

Run:
    .venv/bin/python benchmarks/digest_check.py --save /tmp/baseline.json
    .venv/bin/python benchmarks/digest_check.py --check /tmp/baseline.json

``--check`` exits non-zero and names the first differing example/seed/kind.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from warhost.core.engine import run_battle
from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario

KINDS = ("random", "ai", "first")


def examples(only: str | None, stems: str = "") -> list[tuple[str, Path]]:
    out = []
    for name, ruleset in all_rulesets().items():
        if only and name != only:
            continue
        for path in ruleset.examples():
            if stems and path.stem not in stems.split(","):
                continue
            out.append((f"{name}/{path.stem}", path))
    return out


def one_cell(label: str, path: str, kind: str, seeds: list[int]) -> dict[str, Any]:
    scenario = load_scenario(path)
    sides = scenario.ruleset.side_names(scenario.model)
    commanders = {s: kind for s in sides}
    out: dict[str, Any] = {}
    for seed in seeds:
        full = run_battle(scenario, seed, commanders, record=True)
        quick = run_battle(scenario, seed, commanders, record=False)
        decisions = hashlib.sha256(
            json.dumps(quick.decisions, sort_keys=True).encode("utf-8")
        ).hexdigest()
        out[str(seed)] = {
            "log": full.log.digest(),
            "events": len(full.log),
            "quick_events": len(quick.log),
            "quick_outcome": [quick.winner, quick.rounds, quick.outcome.reason,
                              quick.outcome.scores],
            "quick_decisions": decisions,
        }
    return out


def collect(args: argparse.Namespace) -> dict[str, Any]:
    cells = []
    for label, path in examples(args.ruleset, args.examples):
        count = args.grand_seeds if "grand" in label else args.seeds
        for kind in KINDS:
            cells.append((label, str(path), kind, list(range(count))))
    # Longest cells first so the pool ends together.
    cells.sort(key=lambda c: ("grand" not in c[0], c[0], c[2]))
    results: dict[str, Any] = {}
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = {(c[0], c[2]): pool.submit(one_cell, *c) for c in cells}
            for (label, kind), future in futures.items():
                results.setdefault(label, {})[kind] = future.result()
    else:
        for c in cells:
            results.setdefault(c[0], {})[c[2]] = one_cell(*c)
    print(f"played {sum(len(c[3]) for c in cells)} battles x2 in "
          f"{time.perf_counter() - start:.1f} s", file=sys.stderr)
    return results


def compare(baseline: dict[str, Any], now: dict[str, Any]) -> str | None:
    for label in sorted(baseline):
        if label not in now:
            continue  # example left out of this run
        for kind in KINDS:
            old_cell = baseline[label].get(kind, {})
            new_cell = now.get(label, {}).get(kind)
            if new_cell is None:
                return f"{label} {kind}: missing from this run"
            for seed in sorted(old_cell, key=int):
                if seed not in new_cell:
                    continue  # fewer seeds this time
                if old_cell[seed] != new_cell[seed]:
                    diff = [k for k in old_cell[seed] if old_cell[seed][k] != new_cell[seed].get(k)]
                    return f"{label} seed {seed} kind {kind}: differs in {', '.join(diff)}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--save", metavar="FILE", help="store the digests in FILE")
    mode.add_argument("--check", metavar="FILE", help="compare with the digests in FILE")
    parser.add_argument("--seeds", type=int, default=20, help="seeds per example (default 20)")
    parser.add_argument("--grand-seeds", type=int, default=8,
                        help="seeds for grand-battle examples (default 8; they are slow)")
    parser.add_argument("--ruleset", default="fantasy-battle",
                        help="only this ruleset's examples ('' for all)")
    parser.add_argument("--examples", default="",
                        help="only these examples (comma-separated names, e.g. skirmish)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    now = collect(args)
    if args.save:
        Path(args.save).write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"saved {args.save}")
    elif args.check:
        baseline = json.loads(Path(args.check).read_text())
        problem = compare(baseline, now)
        if problem:
            print(f"DIFFERENT: {problem}")
            sys.exit(1)
        print("all digests identical")
    else:
        json.dump(now, sys.stdout, indent=1, sort_keys=True)
        print()


if __name__ == "__main__":
    main()
