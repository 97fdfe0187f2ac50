"""The engine's decide: answers are always offered option objects; the fields flag of emit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhost.core.commanders import Commander, RandomCommander
from warhost.core.decisions import Decision, LazyDecision
from warhost.core.engine import Battle
from warhost.core.errors import IllegalOrderError
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario

SKIRMISH = Path(__file__).parents[2] / "examples" / "fantasy-battle" / "skirmish.yaml"
OPTIONS = (Order.of("activate", "a"), Order.of("activate", "b"), Order("pass"))


class _Copying(Commander):
    """Answers with a new order equal to the last option (not the offered object)."""

    kind = "copying"

    def choose(self, decision: Decision, state: Any) -> Order:
        return Order.parse(str(decision.options[-1]))


class _Illegal(Commander):
    kind = "illegal"

    def choose(self, decision: Decision, state: Any) -> Order:
        return Order("retreat")


def _battle(commander: Commander, record: bool = True) -> Battle:
    scenario = load_scenario(SKIRMISH)
    sides = scenario.ruleset.side_names(scenario.model)
    return Battle(scenario.ruleset, scenario, 7, {sides[0]: commander,
                                                   sides[1]: RandomCommander()}, None, record)


def test_decide_returns_the_offered_object_whatever_the_commander_hands_back() -> None:
    battle = _battle(_Copying())
    side = next(iter(battle.commanders))
    pick = battle.decide(Decision(side, "activate", OPTIONS))
    assert pick is OPTIONS[-1]
    assert battle.decisions == [{"side": side, "kind": "activate", "order": "pass"}]


def test_random_commander_answers_are_offered_objects_and_recorded() -> None:
    battle = _battle(RandomCommander())
    side = next(iter(battle.commanders))
    picks = [battle.decide(Decision(side, "activate", OPTIONS)) for _ in range(30)]
    assert all(any(p is o for o in OPTIONS) for p in picks)
    assert {str(p) for p in picks} == {str(o) for o in OPTIONS}
    assert [d["order"] for d in battle.decisions] == [str(p) for p in picks]


def test_untrusted_commander_giving_an_illegal_order_is_refused() -> None:
    battle = _battle(_Illegal())
    side = next(iter(battle.commanders))
    with pytest.raises(IllegalOrderError):
        battle.decide(Decision(side, "activate", OPTIONS))


def test_records_fields_follows_the_log() -> None:
    assert _battle(RandomCommander(), record=True).records_fields
    quiet = _battle(RandomCommander(), record=False)
    assert not quiet.records_fields
    quiet.emit("move", unit="x", path=[[1, 2]])
    assert len(quiet.log) == 1  # counted, fields dropped


def test_order_text_is_kept_and_equality_ignores_it() -> None:
    order = Order.of("move", 3, 4)
    fresh = Order("move", (3, 4))
    assert str(order) == "move 3 4" and str(order) is str(order)
    assert order == fresh and hash(order) == hash(fresh)
    assert repr(order) == "Order(kind='move', args=(3, 4))"


class _Reader(Commander):
    """Keeps every decision it is shown and takes its last option."""

    kind = "reader"

    def __init__(self) -> None:
        self.seen: list[Decision] = []

    def choose(self, decision: Decision, state: Any) -> Order:
        self.seen.append(decision)
        return decision.options[-1]


def test_ask_gives_a_random_commander_the_same_answers_records_and_log_as_decide() -> None:
    counts = [2, 3, 5, 2, 7, 3, 2, 11, 4] * 5
    options = [tuple(Order.of("member", f"m{i}") for i in range(n)) for n in counts]
    asked, decided = _battle(RandomCommander()), _battle(RandomCommander())
    side = next(iter(asked.commanders))
    by_ask = [asked.ask(side, "member", o, "who?", subject="sq") for o in options]
    by_decide = [decided.decide(Decision(side, "member", o, "who?", subject="sq"))
                 for o in options]
    assert [str(p) for p in by_ask] == [str(p) for p in by_decide]
    assert all(any(p is o for o in opts) for p, opts in zip(by_ask, options))
    assert asked.decisions == decided.decisions
    assert asked.log.digest() == decided.log.digest()
    assert len({str(p) for p in by_ask}) > 5  # the picks really vary


def test_ask_builds_the_decision_for_a_commander_that_reads_it() -> None:
    reader = _Reader()
    battle = _battle(reader)
    side = next(iter(battle.commanders))
    info = {"charge": None}
    pick = battle.ask(side, "plan", OPTIONS, "what now?", subject="u1", default=OPTIONS[0],
                      info=info)
    assert pick is OPTIONS[-1]
    (seen,) = reader.seen
    assert (seen.side, seen.kind, seen.options, seen.prompt, seen.subject, seen.default,
            seen.info) == (side, "plan", OPTIONS, "what now?", "u1", OPTIONS[0], info)
    assert battle.decisions == [{"side": side, "kind": "plan", "order": "pass"}]


def test_ask_with_one_option_takes_it_unasked_and_with_none_fails() -> None:
    reader = _Reader()
    battle = _battle(reader)
    side = next(iter(battle.commanders))
    assert battle.ask(side, "attack", OPTIONS[:1]) is OPTIONS[0]
    assert reader.seen == [] and battle.decisions == []
    random_side = list(battle.commanders)[1]
    with pytest.raises(RuntimeError, match="offered no options"):
        battle.ask(random_side, "attack", ())


def test_only_count_choosing_commanders_answer_by_index() -> None:
    assert RandomCommander.chooses_by_count and not _Reader.chooses_by_count
    with pytest.raises(NotImplementedError):
        _Reader().choose_index(3)


def test_ask_lazy_builds_only_the_picked_option_for_a_random_commander() -> None:
    built: list[int] = []

    def make(i: int) -> Order:
        built.append(i)
        return Order.of("move", i, 0)

    asked, decided = _battle(RandomCommander()), _battle(RandomCommander())
    side = next(iter(asked.commanders))
    by_ask = [asked.ask_lazy(side, "move", 9, make, default_of=lambda: 1 / 0)  # never read
              for _ in range(20)]
    assert len(built) == 20  # one option built per decision, and the default never worked out
    by_decide = [decided.decide(LazyDecision(side, "move", 9, lambda i: Order.of("move", i, 0)))
                 for _ in range(20)]
    assert [str(p) for p in by_ask] == [str(p) for p in by_decide]
    assert asked.decisions == decided.decisions


def test_ask_lazy_hands_a_reading_commander_the_whole_lazy_decision() -> None:
    reader = _Reader()
    battle = _battle(reader)
    side = next(iter(battle.commanders))
    pick = battle.ask_lazy(side, "move", 4, lambda i: Order.of("move", i, 0), "where?",
                           subject="u1", info={"budget": 6},
                           locate=lambda o: int(o.args[0]),
                           default_of=lambda: Order.of("move", 0, 0))
    assert str(pick) == "move 3 0"
    (seen,) = reader.seen
    assert isinstance(seen, LazyDecision)
    assert (seen.prompt, seen.subject, seen.info, str(seen.default)) == (
        "where?", "u1", {"budget": 6}, "move 0 0")
    assert seen.find("move 2 0") is seen.option(2)
