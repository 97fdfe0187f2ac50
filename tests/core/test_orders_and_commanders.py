"""Orders round-trip through text; commanders answer only with legal orders."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from warhost.core.commanders import RandomCommander, ReplayCommander, ScriptedCommander, \
    FirstOptionCommander, HumanCommander
from warhost.core.decisions import Decision
from warhost.core.errors import IllegalOrderError, ReplayError
from warhost.core.orders import Order

word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_", min_size=1, max_size=8)


@given(kind=word, args=st.lists(st.one_of(st.integers(-50, 50), word), max_size=4))
def test_order_text_round_trips(kind: str, args: list[int | str]) -> None:
    order = Order(kind, tuple(args))
    assert Order.parse(str(order)) == order


DECISION = Decision("A", "attack", (Order("attack", ("b1",)), Order("attack", ("b2",)),
                                    Order("no-attack")), default=Order("no-attack"))


def test_random_commander_is_seeded_and_legal() -> None:
    picks = []
    for _ in range(2):
        c = RandomCommander()
        c.bind("A", np.random.default_rng(3))
        picks.append([c.choose(DECISION, None) for _ in range(20)])
    assert picks[0] == picks[1]
    assert all(p in DECISION.options for p in picks[0])


def test_scripted_lines_answer_decisions_strictly_in_order(tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text("# my orders\nmove 1 1\nai\nattack b2\n")
    c = ScriptedCommander.from_file(path, FirstOptionCommander())
    c.bind("A", np.random.default_rng(0))
    moves = Decision("A", "move", (Order("move", (0, 0)), Order("move", (1, 1))))
    assert c.choose(moves, None) == Order("move", (1, 1))
    # "ai" hands one decision to the fallback
    assert c.choose(moves, None) == Order("move", (0, 0))
    assert c.choose(DECISION, None) == Order("attack", ("b2",))
    # past the last line, the fallback answers
    assert c.choose(moves, None) == Order("move", (0, 0))
    c.finish()


def test_a_scripted_line_is_never_kept_for_a_later_decision(tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text("attack b2\n")
    c = ScriptedCommander.from_file(path, FirstOptionCommander())
    c.bind("A", np.random.default_rng(0))
    moves = Decision("A", "move", (Order("move", (0, 0)), Order("move", (1, 1))),
                     subject="a-pike")
    with pytest.raises(IllegalOrderError) as err:
        c.choose(moves, None)
    text = str(err.value)
    assert err.value.line == 1 and err.value.file == str(path)
    assert "'attack b2'" in text and "move of a-pike (A)" in text
    assert "does not answer this decision, which takes 'move'" in text


def test_a_single_option_decision_takes_a_line_only_when_named(tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text("hold\nattack b2\n")
    c = ScriptedCommander.from_file(path, FirstOptionCommander())
    c.bind("A", np.random.default_rng(0))
    c.forced("move", Order("move", (0, 0)))  # not named: the line stays
    assert c.position == 0
    c.forced("stance", Order("hold"))  # named: consumed
    assert c.position == 1
    assert c.choose(DECISION, None) == Order("attack", ("b2",))


def test_lines_left_unread_are_an_error(tmp_path: Path) -> None:
    path = tmp_path / "orders.txt"
    path.write_text("attack b2\n\nmove 1 1\n")
    c = ScriptedCommander.from_file(path, FirstOptionCommander())
    c.bind("A", np.random.default_rng(0))
    c.choose(DECISION, None)
    with pytest.raises(IllegalOrderError) as err:
        c.finish()
    assert err.value.line == 3 and "1 order(s) unread" in str(err.value)


def test_replay_commander_detects_divergence() -> None:
    c = ReplayCommander([{"side": "A", "kind": "move", "order": "move 1 1"}])
    c.bind("A", np.random.default_rng(0))
    with pytest.raises(ReplayError):
        c.choose(DECISION, None)


def test_human_commander_takes_numbers_or_text_and_reasks_on_nonsense() -> None:
    shown: list[str] = []
    answers = iter(["7", "nonsense", "2"])
    c = HumanCommander(ask=lambda p: next(answers), show=shown.append)
    c.bind("A", np.random.default_rng(0))
    assert c.choose(DECISION, None) == Order("attack", ("b2",))
    assert any("7: no order has that number; the list runs from 1 to 3" in s for s in shown)
    assert any(s.startswith("nonsense: a 'nonsense' order does not answer") for s in shown)
    answers2 = iter(["attack b1"])
    c2 = HumanCommander(ask=lambda p: next(answers2), show=shown.append)
    c2.bind("A", np.random.default_rng(0))
    assert c2.choose(DECISION, None) == Order("attack", ("b1",))
