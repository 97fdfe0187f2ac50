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
from typing import Any

import numpy as np

from warhost.core.decisions import Decision
from warhost.core.errors import IllegalOrderError, ReplayError, WarhostError
from warhost.core.orders import Order

_LITTLE_ENDIAN = sys.byteorder == "little"


class Commander(ABC):
    """Answers decisions for one side. ``state`` is the battle state, for reading only."""

    kind = "commander"
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
    """Orders from a list (text, line number). Decisions of another kind go to ``fallback``.

    The next scripted order is used when its kind is the kind of one of the legal options;
    it must then be legal, or an :class:`IllegalOrderError` names the file and line.
    """

    kind = "scripted"

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
        except OSError as exc:
            raise WarhostError(f"cannot read orders: {exc.strerror}", file=str(path)) from None
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
        if self.position < len(self.orders):
            text, line = self.orders[self.position]
            try:
                wanted = Order.parse(text)
            except ValueError:
                raise IllegalOrderError(
                    f"cannot read order {text!r}", file=self.source, line=line, field="order"
                ) from None
            if any(option.kind == wanted.kind for option in decision.options):
                self.position += 1
                found = decision.find(wanted)
                if found is None:
                    legal = ", ".join(str(o) for o in decision.options[:8])
                    more = " ..." if len(decision.options) > 8 else ""
                    raise IllegalOrderError(
                        f"illegal order {text!r} for {decision.kind}"
                        f"{' of ' + decision.subject if decision.subject else ''}; "
                        f"legal: {legal}{more}",
                        file=self.source,
                        line=line,
                        field="order",
                    )
                return found
        return self.fallback.choose(decision, state)


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
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return decision.options[int(answer) - 1]
            found = decision.find(answer) if answer else None
            if found is not None:
                return found
            self.show(f"'{answer}' is not a legal order here; type a number from the list or ?")

    def _list(self, decision: Decision) -> None:
        lines = [f"  {i}. {o}" for i, o in enumerate(decision.options, start=1)]
        if decision.default is not None:
            lines.append(f"  (Enter = {decision.default})")
        self.show("\n".join(lines))
