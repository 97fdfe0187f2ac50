"""One suite over every registered ruleset and each of its examples.

Random and AI playouts to the end with invariant checks, a same-seed determinism run, and golden
playthroughs. Set WARHOST_UPDATE_GOLDEN=1 to regenerate the golden files after a deliberate
rules change (and review the diff).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.engine import BattleResult, run_battle
from warhost.core.orders import Order
from warhost.core.registry import all_rulesets
from warhost.core.scenario import load_scenario
from warhost.core.stepping import SteppedBattle

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    pytest.param(ruleset, example, id=f"{name}/{example.stem}")
    for name, ruleset in all_rulesets().items()
    for example in ruleset.examples()
]


class ListedOrders(Commander):
    """Gives a list of order texts in turn, asked exactly when a person would be (it reads
    orders, as the step API's commander does)."""

    kind = "listed"
    reads_orders = True

    def __init__(self, orders: list[str]) -> None:
        self.orders = list(orders)

    def choose(self, decision: Decision, state: object) -> Order:
        verdict = self.judge(decision, self.orders.pop(0))
        assert isinstance(verdict, Order), verdict
        return verdict


def check_playout(result: BattleResult, limit: int) -> list[str]:
    """Invariants every ruleset shares."""
    problems = []
    for fate in result.outcome.units:
        if fate.survivors < 0 or fate.start < 0 or fate.losses < 0:
            problems.append(f"{fate.id}: negative count")
        if fate.survivors + fate.losses != fate.start:
            problems.append(f"{fate.id}: survivors + losses != start")
    last: dict[str, int] = {}
    for event in result.log.of_type("score"):
        if event["total"] < last.get(event["side"], 0):
            problems.append(f"score of {event['side']} went down")
        last[event["side"]] = event["total"]
    for side, score in result.outcome.scores.items():
        if score < 0:
            problems.append(f"negative score for {side}")
    if result.outcome.rounds > limit:
        problems.append(f"{result.outcome.rounds} rounds exceed the limit of {limit}")
    return problems


@pytest.mark.parametrize(("ruleset", "example"), CASES)
@pytest.mark.parametrize("kind", ["random", "ai"])
def test_playouts_end_with_invariants_holding(ruleset, example, kind) -> None:  # type: ignore[no-untyped-def]
    """FB-AMB-52 and the shared invariants, for every registered ruleset."""
    scenario = load_scenario(example)
    sides = ruleset.side_names(scenario.model)
    limit = ruleset.round_limit(scenario.model)
    for seed in range(3):
        captured = {}

        def keep(round_number: int, state: object) -> None:
            captured["state"] = state
            # the state serialises to plain JSON at any round
            json.dumps(ruleset.state_to_json(state), sort_keys=True)

        result = run_battle(scenario, seed, {s: kind for s in sides}, observers=[keep])
        problems = check_playout(result, limit)
        state = captured.get("state")
        if state is not None:
            problems += ruleset.check_invariants(state, result.log.events)
        assert not problems, problems
        assert result.winner in (*sides, None)
        json.dumps(result.summary())


@pytest.mark.parametrize(("ruleset", "example"), CASES)
def test_same_seed_same_log(ruleset, example) -> None:  # type: ignore[no-untyped-def]
    """Same scenario + seed + decisions give the same event log, byte for byte (FB-AMB-52)."""
    scenario = load_scenario(example)
    sides = ruleset.side_names(scenario.model)
    first = run_battle(scenario, 11, {s: "random" for s in sides})
    second = run_battle(scenario, 11, {s: "random" for s in sides})
    assert first.log.to_jsonl() == second.log.to_jsonl()
    other = run_battle(scenario, 12, {s: "random" for s in sides})
    assert other.log.digest() != first.log.digest()


@pytest.mark.parametrize(("ruleset", "example"), CASES)
def test_golden_playthrough(ruleset, example) -> None:  # type: ignore[no-untyped-def]
    """The seed-1 random-vs-random playthrough matches the stored golden file."""
    scenario = load_scenario(example)
    sides = ruleset.side_names(scenario.model)
    result = run_battle(scenario, 1, {s: "random" for s in sides})
    text = json.dumps(result.summary(), indent=1, sort_keys=True) + "\n" + result.log.to_jsonl()
    path = GOLDEN / ruleset.name / f"{example.stem}.golden"
    if os.environ.get("WARHOST_UPDATE_GOLDEN") or not path.exists():
        if os.environ.get("CI") and not path.exists():
            pytest.fail(f"golden file {path} is missing; generate it with WARHOST_UPDATE_GOLDEN=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        for number, (got, want) in enumerate(zip(text.splitlines(), expected.splitlines())):
            assert got == want, f"first difference at line {number + 1} of {path.name}"
        assert text == expected


@pytest.mark.parametrize("ruleset", list(all_rulesets().values()), ids=list(all_rulesets()))
def test_every_ruleset_has_a_metered_army_scenario(ruleset) -> None:  # type: ignore[no-untyped-def]
    """Every ruleset offers a field battle of any size (the scale benchmark and the scaling
    tests use it) and counts the work of its battles, so how cost grows can be checked without
    a clock (see each ruleset's ``test_scaling.py``)."""
    from warhost.core.metering import GEOMETRY, OPTIONS, metered
    from warhost.core.scenario import scenario_from_data

    scenario = scenario_from_data(ruleset.army_scenario(8, 2), "<army-8>")
    assert scenario.ruleset is ruleset
    sides = ruleset.side_names(scenario.model)
    with metered() as meter:
        result = run_battle(scenario, 1, {side: "random" for side in sides}, record=False)
    assert 1 <= result.outcome.rounds <= 2
    assert meter[GEOMETRY] > 0 and meter[OPTIONS] > 0


@pytest.mark.parametrize(("ruleset", "example"), CASES)
def test_stepped_battle_gives_the_log_of_run_battle(ruleset, example) -> None:  # type: ignore[no-untyped-def]
    """A battle played one decision at a time (the first side's orders given to the step
    API, chosen at random) logs exactly what run_battle logs with the same seed and orders."""
    scenario = load_scenario(example)
    sides = ruleset.side_names(scenario.model)
    person, others = sides[0], {s: "random" for s in sides[1:]}
    pick = random.Random(5)
    given: list[str] = []
    with SteppedBattle(scenario, 3, others, stepped=[person], label=ListedOrders.kind,
                       frames=False) as stepped:
        while not stepped.over:
            question = stepped.question
            assert question is not None and question.side == person
            order = question.options[pick.randrange(len(question.options))]
            stepped.answer(order)
            given.append(order)
        assert stepped.error is None
    listed = ListedOrders(given)
    result = run_battle(scenario, 3, {person: listed, **others})
    assert listed.orders == []
    assert stepped.result is not None and stepped.winner == result.winner
    assert stepped.result.log.to_jsonl() == result.log.to_jsonl()
