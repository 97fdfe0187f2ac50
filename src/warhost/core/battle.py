"""The runtime of one battle (:class:`Battle`): dice, event log, commanders, and the one place
where an order is judged legal or refused with its reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from warhost.core.commanders import Commander
from warhost.core.decisions import (
    Acceptor,
    Decision,
    LazyDecision,
    Refusal,
    describe_decision,
    generic_refusal,
)
from warhost.core.dice import DiceSource, SeededDice
from warhost.core.errors import IllegalOrderError
from warhost.core.events import EventLog
from warhost.core.orders import Order
from warhost.core.outcome import decision_records


class RefusalExplainer(Protocol):
    """What a battle needs of its ruleset: why an order is refused (see
    :meth:`warhost.core.ruleset.Ruleset.explain_refusal`)."""

    def explain_refusal(self, state: Any, decision: Decision, order: Order) -> Refusal | None:
        """The reason ``order`` does not answer ``decision`` (None: the generic reason)."""
        ...


class Battle:
    """The runtime of one battle: dice, log, commanders and the record of decisions.

    Rules code reaches the outside world only through this object: it rolls with
    :attr:`dice`, reports with :meth:`emit` and asks with :meth:`decide`. Commanders that read
    orders from people or files check them with :meth:`judge`.
    """

    records_fields: bool
    """Whether :meth:`emit` passes events' fields on to the log (worked out when :attr:`log` is
    set). When False events are only counted, so rules may skip building costly fields (they
    must still emit the event)."""

    def __init__(
        self,
        ruleset: RefusalExplainer,
        scenario: Any,
        seed: int,
        commanders: Mapping[str, Commander],
        dice: DiceSource | None = None,
        record: bool = True,
    ) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.seed = seed
        sequence = np.random.SeedSequence(seed)
        dice_seq, *commander_seqs = sequence.spawn(1 + len(commanders))
        self.dice = dice if dice is not None else SeededDice(dice_seq)
        self.log = EventLog(record=record)
        self.dice.log = self.log if record else None
        self.commanders = dict(commanders)
        for (side, commander), seq in zip(self.commanders.items(), commander_seqs):
            commander.bind(side, np.random.Generator(np.random.PCG64(seq)))
            commander.referee = self
        self._readers = {side: c for side, c in self.commanders.items() if c.reads_orders}
        """Commanders that read orders people wrote (see :attr:`Commander.reads_orders`);
        usually none, so the common path stays cheap."""
        self.decided: list[tuple[str, str, Order]] = []
        """Every decision taken, in order: (side, kind, order). Kept as tuples, since a battle
        takes hundreds; :attr:`decisions` gives the records."""
        self.round_observers: list[Callable[[int, Any], None]] = []
        self.start_observers: list[Callable[[Any], None]] = []
        """Called with the starting state once it is built (armies deployed, no round yet)."""
        self.state: Any = None

    @property
    def decisions(self) -> list[dict[str, Any]]:
        """The decisions taken so far, as replay files keep them."""
        return decision_records(self.decided)

    @property
    def log(self) -> EventLog:
        """The event log. Setting it also sets :attr:`records_fields`."""
        return self._log

    @log.setter
    def log(self, log: EventLog) -> None:
        self._log = log
        self.records_fields = log.record or type(log) is not EventLog

    def emit(self, type_: str, **fields: Any) -> None:
        """Record an event (with ``record=False`` only counted, as :class:`EventLog` does)."""
        if self.records_fields:
            self._log.emit(type_, **fields)
        else:
            self._log._count += 1

    def judge(self, decision: Decision, order: Order | str) -> Order | Refusal:
        """The legal order that ``order`` (an Order or its text) stands for, or why not.

        An order is legal when it is one of the listed options or, for an open decision, when
        the decision's ``accept`` takes it. A refused order gets the ruleset's reason (with the
        rule ID) or, failing that, a generic one.
        """
        if isinstance(order, str):
            try:
                wanted = Order.parse(order)
            except ValueError:
                return Refusal("an empty line is not an order")
        else:
            if decision.offers(order):
                return order
            wanted = order
        found = decision.find(wanted)
        if found is not None:
            return found
        if decision.accept is not None:
            verdict = decision.accept(wanted)
            if verdict is not None:
                return verdict
        explained = self.ruleset.explain_refusal(self.state, decision, wanted)
        return explained if explained is not None else generic_refusal(decision, wanted)

    def decide(self, decision: Decision) -> Order:
        """Ask the side's commander; enforce legality; record the answer.

        A decision with a single legal option is answered without asking, except that a
        commander that :attr:`~Commander.reads_orders` is told of it or, if the decision is
        open, asked. The order returned is one of the offered option objects itself, so rules
        may compare with ``is``, except for an open decision's order beyond its options, which
        its ``accept`` returned.
        """
        count = decision.option_count
        if not count:
            raise RuntimeError(f"decision {decision.kind} offered no options")
        if count == 1 and self._forced(decision.side, decision.kind, decision.accept,
                                       decision.option):
            return decision.option(0)
        commander = self.commanders[decision.side]
        order = commander.choose(decision, self.state)
        # Commanders usually hand back one of the offered objects: check identity first.
        if commander.answers_with_options:
            legal: Order | Refusal = order
        else:
            legal = self.judge(decision, order)
        if isinstance(legal, Refusal):
            raise IllegalOrderError(
                f"{commander.kind} commander of {decision.side} gave {str(order)!r} for "
                f"{describe_decision(decision)}: {legal}",
                field="order",
            )
        self._record(decision.side, decision.kind, legal)
        return legal

    def ask(
        self,
        side: str,
        kind: str,
        options: tuple[Order, ...],
        prompt: str = "",
        subject: str = "",
        default: Order | None = None,
        info: dict[str, Any] | None = None,
        accept: Acceptor | None = None,
    ) -> Order:
        """``decide(Decision(side, kind, options, ...))``, with the same answers, records and
        dice, but the :class:`Decision` is built only for a commander that reads it: one that
        picks by the number of options alone (:attr:`Commander.chooses_by_count`) is asked for
        an index. Rules use it where decisions are asked hundreds of times a battle."""
        count = len(options)
        if count == 1 and self._forced(side, kind, accept, options.__getitem__):
            return options[0]
        commander = self.commanders[side]
        if count and commander.chooses_by_count:
            legal = options[commander.choose_index(count)]
            self._record(side, kind, legal)
            return legal
        return self.decide(Decision(side, kind, options, prompt, subject, default,
                                    {} if info is None else info, accept))

    def ask_lazy(
        self,
        side: str,
        kind: str,
        count: int,
        make: Callable[[int], Order],
        prompt: str = "",
        subject: str = "",
        info: dict[str, Any] | None = None,
        locate: Callable[[Order], int | None] | None = None,
        default_of: Callable[[], Order | None] | None = None,
        accept: Acceptor | None = None,
    ) -> Order:
        """:meth:`ask` for options built only when read: ``decide(LazyDecision(...))`` with the
        same arguments, but a commander that picks by count gets only ``make(index)`` built."""
        if count > 1:
            commander = self.commanders[side]
            if commander.chooses_by_count:
                legal = make(commander.choose_index(count))
                self._record(side, kind, legal)
                return legal
        elif count == 1 and self._forced(side, kind, accept, make):
            return make(0)
        return self.decide(LazyDecision(side, kind, count, make, prompt, subject, info=info,
                                        locate=locate, default_of=default_of, accept=accept))

    def _forced(
        self, side: str, kind: str, accept: Acceptor | None, option: Callable[[int], Order]
    ) -> bool:
        """Whether a decision with one listed option is answered by that option without
        asking; a commander that reads orders is told of it (or, if it is open, asked)."""
        reader = self._readers.get(side) if self._readers else None
        if reader is None:
            return True
        if accept is not None:
            return False
        reader.forced(kind, option(0))
        return True

    def _record(self, side: str, kind: str, legal: Order) -> None:
        self.decided.append((side, kind, legal))
        if self._log.record:
            self._log.emit("decision", side=side, kind=kind, order=str(legal))

    def round_ended(self, round_number: int) -> None:
        """Rulesets call this at the end of every round; observers see the state then."""
        for observer in self.round_observers:
            observer(round_number, self.state)

    def finish(self) -> None:
        """The battle is over: every commander may object (a script with orders left unread)."""
        for commander in self.commanders.values():
            commander.finish()
