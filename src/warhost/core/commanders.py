"""Commanders: whoever answers a side's decisions.

* ``random``: picks uniformly among the legal orders with its own seeded generator.
* ``scripted``: reads orders from a file, one per line, and falls back to another commander
  (by default the AI) for decisions the script does not address.
* ``human``: asks a person at the terminal (see :class:`HumanCommander`).
* ``ai``: supplied by each ruleset through :meth:`warhost.core.ruleset.Ruleset.make_ai`.
* :class:`ReplayCommander` gives back the decisions recorded in a replay, in order.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from warhost.core.decisions import Decision, Refusal, describe_decision, generic_refusal
from warhost.core.errors import IllegalOrderError, ReplayError, WarhostError
from warhost.core.orders import Order

_LITTLE_ENDIAN = sys.byteorder == "little"


class Referee(Protocol):
    """Judges orders: the battle a commander is bound to (:meth:`Battle.judge`)."""

    def judge(self, decision: Decision, order: Order | str) -> Order | Refusal:
        """The legal order ``order`` stands for, or why it is refused."""
        ...


class Commander(ABC):
    """Answers decisions for one side. ``state`` is the battle state, for reading only."""

    kind = "commander"
    referee: Referee | None = None
    """The battle, set when the commander is bound to one: :meth:`Referee.judge` checks an
    order and explains a refusal."""
    reads_orders = False
    """True for commanders that read orders people wrote (a script, a person): they are told
    of decisions with a single legal option (:meth:`forced`) and asked open ones."""
    answers_with_options = False
    """True for commanders that always return ``decision.option(i)`` itself, so the engine
    need not check the answer against the legal orders."""
    chooses_by_count = False
    """True for commanders whose choice depends only on the number of options: the engine then
    asks :meth:`choose_index` and builds no :class:`Decision` (see :meth:`Battle.ask`)."""

    def bind(self, side: str, rng: np.random.Generator) -> None:
        """Called once before the battle with the side it commands and its own generator."""
        self.side = side
        self.rng = rng

    @abstractmethod
    def choose(self, decision: Decision, state: Any) -> Order:
        """Return one of ``decision.options``."""

    def choose_index(self, count: int) -> int:
        """The index of the option taken among ``count`` (only for :attr:`chooses_by_count`)."""
        raise NotImplementedError(f"{self.kind} commanders read the whole decision")

    def forced(self, kind: str, only: Order) -> None:
        """A decision of ``kind`` had ``only`` as its single legal answer (only called for
        commanders that :attr:`reads_orders`). Default: nothing."""

    def finish(self) -> None:
        """The battle is over. Raise :class:`WarhostError` to object (default: nothing)."""

    def judge(self, decision: Decision, order: Order | str) -> Order | Refusal:
        """:meth:`Referee.judge` of the battle this commander is bound to."""
        if self.referee is not None:
            return self.referee.judge(decision, order)
        try:  # not bound to a battle: the listed options alone decide
            wanted = Order.parse(order) if isinstance(order, str) else order
        except ValueError:
            return Refusal("an empty line is not an order")
        found = decision.find(wanted)
        return found if found is not None else generic_refusal(decision, wanted)


class RandomCommander(Commander):
    """Chooses uniformly at random among the legal orders.

    The choice is ``rng.integers(count)``. With a fresh PCG64 generator (what the engine binds)
    the same numbers are computed here from the generator's raw 64-bit output, drawn in blocks,
    by NumPy's own algorithm (32-bit Lemire rejection on the low, then the high half of each raw
    draw), which is several times cheaper than one NumPy call per decision. Any other generator
    is asked one call at a time.
    """

    kind = "random"
    answers_with_options = True
    chooses_by_count = True
    _BLOCK = 128

    def bind(self, side: str, rng: np.random.Generator) -> None:
        super().bind(side, rng)
        bits = rng.bit_generator
        self._halves: list[int] | None = None
        if type(bits) is np.random.PCG64 and not bits.state.get("has_uint32", 1):
            self._halves = []

    def _below(self, count: int) -> int:
        """``int(self.rng.integers(count))`` for 2 <= count < 2**32, when a draw is rejected
        or the block of draws is used up (the common case is inlined in :meth:`choose_index`)."""
        halves = self._halves
        assert halves is not None
        if not halves:
            self._refill(halves)
        m = halves.pop() * count
        leftover = m & 0xFFFFFFFF
        if leftover < count:
            threshold = (0xFFFFFFFF - (count - 1)) % count
            while leftover < threshold:
                if not halves:
                    self._refill(halves)
                m = halves.pop() * count
                leftover = m & 0xFFFFFFFF
        return m >> 32

    def _refill(self, halves: list[int]) -> None:
        raw = self.rng.bit_generator.random_raw(self._BLOCK)
        # A raw draw gives its low half first: on a little-endian machine, the order in memory.
        if _LITTLE_ENDIAN:
            fresh = raw.view(np.uint32).tolist()
        else:  # pragma: no cover - no big-endian machine here
            pairs = np.empty((self._BLOCK, 2), dtype=np.uint64)
            pairs[:, 0] = raw & np.uint64(0xFFFFFFFF)
            pairs[:, 1] = raw >> np.uint64(32)
            fresh = pairs.ravel().tolist()
        fresh.reverse()  # pop() from the end hands them out in order
        halves[:0] = fresh

    def choose(self, decision: Decision, state: Any) -> Order:
        return decision.option(self.choose_index(decision.option_count))

    def choose_index(self, count: int) -> int:
        halves = self._halves
        if halves is None or not 2 <= count < 1 << 32:
            return int(self.rng.integers(count))
        if halves:
            # :meth:`_below` inlined for a draw at hand that is not rejected (its first test).
            m = halves[-1] * count
            if m & 0xFFFFFFFF >= count:
                halves.pop()
                return m >> 32
        return self._below(count)


class FirstOptionCommander(Commander):
    """Always takes the default, or else the first legal order (handy in tests)."""

    kind = "first"

    def choose(self, decision: Decision, state: Any) -> Order:
        return decision.default if decision.default is not None else decision.options[0]


class ScriptedCommander(Commander):
    """Orders from a list of (text, line number), read strictly in order.

    Each line answers the next decision its side is asked: a line that is not a legal answer
    to that decision stops the battle with an :class:`IllegalOrderError` naming the file and
    line, the order, the decision and the reason. A decision with a single legal option takes
    a line only when that line names that option. A line reading ``ai`` hands that one
    decision to ``fallback`` (by default the AI), which also answers every decision after the
    last line. Lines still unread when the battle ends are an error too.
    """

    kind = "scripted"
    reads_orders = True
    DELEGATE = "ai"
    """A line that hands one decision to the fallback commander."""

    def __init__(
        self, orders: Sequence[tuple[str, int]], fallback: Commander, source: str = "<orders>"
    ) -> None:
        self.orders = list(orders)
        self.position = 0
        self.fallback = fallback
        self.source = source

    @classmethod
    def from_file(cls, path: str | Path, fallback: Commander) -> ScriptedCommander:
        """Read a file with one order per line; blank lines and ``#`` comments are skipped."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise WarhostError(f"cannot read orders: {reason}", file=str(path)) from None
        orders = []
        for number, line in enumerate(text.splitlines(), start=1):
            line = line.split("#", 1)[0].strip()
            if line.startswith("- "):
                line = line[2:].strip().strip("'\"")
            if line and line != "orders:":
                orders.append((line, number))
        return cls(orders, fallback, str(path))

    def bind(self, side: str, rng: np.random.Generator) -> None:
        super().bind(side, rng)
        self.fallback.bind(side, rng)

    def choose(self, decision: Decision, state: Any) -> Order:
        if self.position >= len(self.orders):
            return self.fallback.choose(decision, state)
        text, line = self.orders[self.position]
        self.position += 1
        if text == self.DELEGATE:
            return self.fallback.choose(decision, state)
        verdict = self.judge(decision, text)
        if isinstance(verdict, Refusal):
            raise IllegalOrderError(
                f"{text!r} does not answer the {describe_decision(decision)} decision: "
                f"{verdict}",
                file=self.source, line=line, field="order")
        return verdict

    def forced(self, kind: str, only: Order) -> None:
        if self.position < len(self.orders):
            text = self.orders[self.position][0]
            try:
                named = Order.parse(text) == only
            except ValueError:
                named = False
            if named:
                self.position += 1

    def finish(self) -> None:
        left = len(self.orders) - self.position
        if left > 0:
            text, line = self.orders[self.position]
            raise IllegalOrderError(
                f"the battle ended with {left} order(s) unread, the first {text!r}",
                file=self.source, line=line, field="order")


class ReplayCommander(Commander):
    """Gives back recorded decisions, checking that each fits the question asked."""

    kind = "replay"

    def __init__(self, records: Sequence[dict[str, Any]], source: str = "<replay>") -> None:
        self.records = records
        self.position = 0
        self.source = source

    def choose(self, decision: Decision, state: Any) -> Order:
        while self.position < len(self.records):
            record = self.records[self.position]
            self.position += 1
            if record["side"] != self.side:
                continue
            found = decision.find(str(record["order"]))
            if found is None and decision.accept is not None and record["kind"] == decision.kind:
                # An order beyond the listed options that the open decision took (a move
                # along a given path, say): judged again.
                verdict = self.judge(decision, str(record["order"]))
                found = verdict if isinstance(verdict, Order) else None
            if record["kind"] != decision.kind or found is None:
                raise ReplayError(
                    f"replay diverged at decision {self.position}: recorded "
                    f"{record['kind']} {record['order']!r}, but the battle asked for {decision.kind}",
                    file=self.source,
                    field="decisions",
                )
            return found
        raise ReplayError("replay ran out of recorded decisions", file=self.source, field="decisions")


class HumanCommander(Commander):
    """A person at the terminal. ``show`` displays text, ``ask`` reads one answer.

    The person types the number of an option or the order's text; ``?`` lists the options again.
    """

    kind = "human"
    reads_orders = True

    def __init__(
        self,
        ask: Callable[[str], str],
        show: Callable[[str], None],
        describe: Callable[[Decision, Any], str] | None = None,
    ) -> None:
        self.ask = ask
        self.show = show
        self.describe = describe

    def choose(self, decision: Decision, state: Any) -> Order:
        if self.describe is not None:
            self.show(self.describe(decision, state))
        self._list(decision)
        while True:
            answer = self.ask(f"[{self.side}] {decision.prompt or decision.kind} > ").strip()
            if answer in {"?", "help"}:
                self._list(decision)
                continue
            if answer == "" and decision.default is not None:
                return decision.default
            if answer.isdigit():
                if 1 <= int(answer) <= len(decision.options):
                    return decision.options[int(answer) - 1]
                self.show(f"{answer}: no order has that number; the list runs from 1 to "
                          f"{len(decision.options)}")
                continue
            if not answer:
                self.show("type the number of an order, its text, or ? for the list")
                continue
            verdict = self.judge(decision, answer)
            if isinstance(verdict, Order):
                return verdict
            self.show(f"{answer}: {verdict}")

    def _list(self, decision: Decision) -> None:
        lines = [f"  {i}. {o}" for i, o in enumerate(decision.options, start=1)]
        if decision.default is not None:
            lines.append(f"  (Enter = {decision.default})")
        self.show("\n".join(lines))
