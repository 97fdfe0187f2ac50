"""The person's commander (:class:`HumanCommander`): recorded answers, undo, map, help, lists."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest

from warhost.core.commanders import HumanCommander, UndoRequested, plain_listing
from warhost.core.decisions import Decision
from warhost.core.errors import ReplayError
from warhost.core.orders import Order
from warhost.render.options import option_listing

PLAN = Decision("A", "plan", (Order.of("move-attack"), Order.of("hold"),
                              Order.of("charge", "b1"), Order.of("charge", "b2")),
                prompt="what does a1 do?", subject="a1", default=Order.of("hold"))
MOVES = Decision("A", "move", tuple(Order.of("move", x, y) for y in range(10) for x in range(15)),
                 prompt="where does a1 move?", subject="a1")


def person(answers: Iterable[str], shown: list[str], **kwargs: Any) -> HumanCommander:
    typed = iter(answers)
    human = HumanCommander(ask=lambda _prompt: next(typed), show=shown.append, **kwargs)
    human.bind("A", np.random.default_rng(0))
    return human


def test_recorded_answers_come_first_without_asking() -> None:
    shown: list[str] = []
    told: list[str] = []
    human = person(["2"], shown, recorded=["charge b2"],
                   on_answer=lambda _d, order: told.append(str(order)))
    assert human.choose(PLAN, None) == Order.of("charge", "b2")
    assert shown == []  # nothing shown, nothing asked
    assert human.choose(PLAN, None) == Order.of("hold")  # now the person: "2"
    assert told == ["charge b2", "hold"] and human.taken == 2


def test_a_recorded_answer_that_no_longer_fits_is_an_error() -> None:
    human = person([], [], recorded=["charge b9"])
    with pytest.raises(ReplayError, match="recorded decision 1 of A, 'charge b9', does not "
                                          "answer the plan of a1 .A. decision"):
        human.choose(PLAN, None)
    unused = person([], [], recorded=["hold", "hold"])
    unused.choose(PLAN, None)
    with pytest.raises(ReplayError, match="ended with 1 recorded decision.s. of A unused"):
        unused.finish()


def test_undo_after_a_decision_and_not_before() -> None:
    shown: list[str] = []
    human = person(["undo", "1", "undo"], shown, undo=True)
    assert human.choose(PLAN, None) == Order.of("move-attack")
    assert "undo: nothing to take back yet; this is your first decision" in shown
    with pytest.raises(UndoRequested):
        human.choose(PLAN, None)
    # a commander that does not offer undo treats it as an order, refused
    plain: list[str] = []
    other = person(["undo", "hold"], plain)
    assert other.choose(PLAN, None) == Order.of("hold")
    assert any(s.startswith("undo: an 'undo' order does not answer") for s in plain)


def test_map_help_and_refusals_ask_again() -> None:
    shown: list[str] = []
    drawn: list[Any] = []
    human = person(["map", "help", "charge b7", "4"], shown, redraw=drawn.append, undo=True)
    assert human.choose(PLAN, "the state") == Order.of("charge", "b2")
    assert drawn == ["the state"]
    help_text = next(s for s in shown if "NUMBER" in s)
    for needle in ("? KIND", "map ", "undo ", "help "):
        assert needle in help_text
    assert any(s.startswith("charge b7: not one of the legal charge orders here") for s in shown)


def test_question_mark_with_a_kind_lists_that_kind() -> None:
    shown: list[str] = []
    human = person(["? charge", "? fly", "?", "hold"], shown)
    human.choose(PLAN, None)
    assert shown[1] == "  3. charge b1\n  4. charge b2\n  (Enter = hold)"
    assert shown[2] == "? fly: no order here is of that kind or names it " \
                       "(kinds: move-attack, hold, charge)"
    assert shown[3] == plain_listing(PLAN)


def test_150_options_are_shown_grouped_and_numbers_still_work() -> None:
    shown: list[str] = []
    human = person(["150"], shown, lister=option_listing)
    assert human.choose(MOVES, None) == Order.of("move", 14, 9)
    assert shown[0].startswith("150 orders for a1, by kind")
    assert 'move (150): x 0-14, y 0-9; type "move X Y"' in shown[0]
    assert len(shown[0].splitlines()) < 16
