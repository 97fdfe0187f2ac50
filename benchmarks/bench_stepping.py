"""What playing a battle one decision at a time costs, against ``run_battle``.

For each example, every side is played twice with the same orders (each decision's default,
else its first option): once by ``run_battle`` with ``first`` commanders, once through
:class:`warhost.core.stepping.SteppedBattle` with every side stepped and the same order given
to each question (the two logs are checked to be the same). Prints battles, questions, the
CPU seconds each way (both threads), and the cost of one question (the handover between the caller's thread and
the battle's worker, plus the options written out as text).

Run: .venv/bin/python benchmarks/bench_stepping.py [--battles 10] [--frames]
"""

from __future__ import annotations

import argparse
import time

from warhost.core.engine import run_battle
from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario
from warhost.core.stepping import SteppedBattle

EXAMPLES = ["fantasy-battle/skirmish", "dnd5e-tactics/open-field", "warband/hero-skirmish",
            "dnd4e-war/border-clash", "dnd35-wars/siege-of-a-keep"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--battles", type=int, default=10)
    parser.add_argument("--frames", action="store_true", help="keep frames (maps) as the web does")
    args = parser.parse_args()
    rulesets = all_rulesets()
    print(f"{'example':32} {'battles':>7} {'questions':>9} {'run_battle s':>12} "
          f"{'stepped s':>9} {'ms/question':>11}")
    for name in EXAMPLES:
        ruleset_name, stem = name.split("/")
        path = next(p for p in rulesets[ruleset_name].examples() if p.stem == stem)
        scenario = load_scenario(path)
        sides = scenario.ruleset.side_names(scenario.model)
        run_battle(scenario, 0, {s: "first" for s in sides})  # warm-up: imports, compiled code
        start = time.process_time()
        logs = [run_battle(scenario, seed, {s: "first" for s in sides}).log.digest()
                for seed in range(args.battles)]
        plain = time.process_time() - start
        questions = 0
        start = time.process_time()
        for seed in range(args.battles):
            with SteppedBattle(scenario, seed, stepped=sides, label="first",
                               frames=args.frames) as battle:
                while (question := battle.question) is not None:
                    battle.answer(question.default or question.options[0])
                    questions += 1
                assert battle.result is not None
                assert battle.result.log.digest() == logs[seed], f"{name} seed {seed} differs"
        stepped = time.process_time() - start
        extra = 1000 * (stepped - plain) / max(1, questions)
        print(f"{name:32} {args.battles:7} {questions:9} {plain:12.2f} {stepped:9.2f} "
              f"{extra:11.3f}")


if __name__ == "__main__":
    main()
