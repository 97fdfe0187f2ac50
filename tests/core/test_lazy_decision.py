"""LazyDecision: options built on demand behave like a plain Decision's."""

from __future__ import annotations

import numpy as np
import pytest

from warhost.core.commanders import FirstOptionCommander, RandomCommander
from warhost.core.decisions import Decision, LazyDecision
from warhost.core.orders import Order


def _pair(count: int = 5) -> tuple[Decision, LazyDecision, list[int]]:
    made: list[int] = []

    def make(i: int) -> Order:
        made.append(i)
        return Order.of("move", i, 2 * i)

    plain = Decision("A", "move", tuple(Order.of("move", i, 2 * i) for i in range(count)),
                     "where?", subject="u", default=Order.of("move", 1, 2))
    lazy = LazyDecision("A", "move", count, make, "where?", subject="u",
                        default=Order.of("move", 1, 2),
                        locate=lambda o: int(o.args[0]) if o.kind == "move" else None)
    return plain, lazy, made


def test_builds_only_what_is_read() -> None:
    _, lazy, made = _pair()
    assert lazy.option_count == 5 and made == []
    first = lazy.option(3)
    assert made == [3] and lazy.option(3) is first and lazy.option(-2) is first
    assert lazy.offers(first) and not lazy.offers(Order.of("move", 3, 6))
    assert lazy.find("move 4 8") == Order.of("move", 4, 8) and made == [3, 4]
    assert lazy.find("move 4 9") is None and lazy.find("pass") is None


def test_reads_like_a_plain_decision() -> None:
    plain, lazy, _ = _pair()
    assert lazy.options == plain.options
    assert hash(lazy) == hash(_pair()[1])
    assert lazy.options[3] is lazy.option(3)
    assert repr(lazy).startswith("LazyDecision(side='A', kind='move', options=(")


def test_commanders_pick_the_same() -> None:
    plain, lazy, _ = _pair()
    for seed in range(20):
        a, b = RandomCommander(), RandomCommander()
        a.bind("A", np.random.default_rng(seed))
        b.bind("A", np.random.default_rng(seed))
        assert a.choose(plain, None) == b.choose(lazy, None)
    first = FirstOptionCommander()
    assert first.choose(lazy, None) == first.choose(plain, None) == Order.of("move", 1, 2)


@pytest.mark.parametrize("method", ["_below", "choose_index"])
def test_random_commander_draws_what_numpy_draws(method: str) -> None:
    """The block-drawn choices equal ``rng.integers(count)`` one call at a time, rejections
    (large counts) and several refills of the block included; ``choose_index`` (with its
    inlined common case) and ``_below`` alike."""
    counts = [2, 3, 5, 7, 100, 1000, 2**31 + 11, 3 * 2**30, 2**32 - 1, 6, 2] * 100
    assert len(counts) > 4 * RandomCommander._BLOCK
    for seed in range(5):
        commander = RandomCommander()
        commander.bind("A", np.random.Generator(np.random.PCG64(seed)))
        reference = np.random.Generator(np.random.PCG64(seed))
        draw = getattr(commander, method)
        got = [draw(c) for c in counts]
        want = [int(reference.integers(c)) for c in counts]
        assert got == want
