"""The battle loop shared by every ruleset, and :func:`run_battle`, its public entry point."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warhost import __version__
from warhost.core.commanders import Commander, FirstOptionCommander, RandomCommander
from warhost.core.decisions import Decision, LazyDecision
from warhost.core.dice import DiceSource, SeededDice
from warhost.core.errors import IllegalOrderError, WarhostError
from warhost.core.events import EventLog
from warhost.core.orders import Order
from warhost.core.ruleset import Ruleset
from warhost.core.scenario import Scenario


@dataclass
class UnitFate:
    """What became of one unit: strength at the start and at the end, and how it ended."""

    id: str
    side: str
    name: str
    start: int
    survivors: int
    fate: str

    @property
    def losses(self) -> int:
        """Strength lost: survivors + losses always equals the starting strength."""
        return self.start - self.survivors

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "start": self.start,
            "survivors": self.survivors,
            "losses": self.losses,
            "fate": self.fate,
        }


@dataclass
class Outcome:
    """The end of a battle as the ruleset sees it."""

    winner: str | None
    scores: dict[str, int]
    rounds: int
    units: list[UnitFate]
    reason: str = ""


@dataclass
class BattleResult:
    """Everything one battle produced."""

    ruleset: str
    scenario: str
    seed: int
    outcome: Outcome
    log: EventLog
    decided: list[tuple[str, str, Order]] = field(default_factory=list, repr=False)
    """The decisions taken, in order: (side, kind, order)."""

    @property
    def decisions(self) -> list[dict[str, Any]]:
        """The decisions taken, as replay files keep them (``side``, ``kind``, ``order`` text)."""
        return decision_records(self.decided)

    @property
    def winner(self) -> str | None:
        """The winning side's name, or None for a draw."""
        return self.outcome.winner

    @property
    def rounds(self) -> int:
        """Rounds played."""
        return self.outcome.rounds

    def summary(self) -> dict[str, Any]:
        """The result as one JSON-ready document."""
        o = self.outcome
        return {
            "warhost": __version__,
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "seed": self.seed,
            "winner": o.winner,
            "reason": o.reason,
            "scores": o.scores,
            "rounds": o.rounds,
            "units": [u.to_json() for u in o.units],
            "events": len(self.log),
            "log_sha256": self.log.digest(),
        }


def decision_records(decided: list[tuple[str, str, Order]]) -> list[dict[str, Any]]:
    """(side, kind, order) tuples as the records replay files keep."""
    return [{"side": side, "kind": kind, "order": str(order)} for side, kind, order in decided]


class Battle:
    """The runtime of one battle: dice, log, commanders and the record of decisions.

    Rules code reaches the outside world only through this object: it rolls with
    :attr:`dice`, reports with :meth:`emit` and asks with :meth:`decide`.
    """

    records_fields: bool
    """Whether :meth:`emit` passes events' fields on to the log (worked out when :attr:`log` is
    set). When False events are only counted, so rules may skip building costly fields (they
    must still emit the event)."""

    def __init__(
        self,
        ruleset: Ruleset,
        scenario: Scenario,
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
        self.decided: list[tuple[str, str, Order]] = []
        """Every decision taken, in order: (side, kind, order). Kept as tuples, since a battle
        takes hundreds; :attr:`decisions` gives the records."""
        self.round_observers: list[Callable[[int, Any], None]] = []
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

    def decide(self, decision: Decision) -> Order:
        """Ask the side's commander; enforce legality; record the answer.

        A decision with a single legal option is answered without asking. The order returned
        is always one of the offered option objects itself, so rules may compare with ``is``.
        """
        count = decision.option_count
        if not count:
            raise RuntimeError(f"decision {decision.kind} offered no options")
        if count == 1:
            return decision.option(0)
        commander = self.commanders[decision.side]
        order = commander.choose(decision, self.state)
        # Commanders usually hand back one of the offered objects: check identity first.
        if commander.answers_with_options:
            legal: Order | None = order
        else:
            legal = order if decision.offers(order) else decision.find(order)
        if legal is None:
            raise IllegalOrderError(
                f"{commander.kind} commander of {decision.side} gave illegal order {order} "
                f"for {decision.kind}",
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
    ) -> Order:
        """``decide(Decision(side, kind, options, ...))``, with the same answers, records and
        dice, but the :class:`Decision` is built only for a commander that reads it: one that
        picks by the number of options alone (:attr:`Commander.chooses_by_count`) is asked for
        an index. Rules use it where decisions are asked hundreds of times a battle."""
        count = len(options)
        if count == 1:
            return options[0]
        commander = self.commanders[side]
        if count and commander.chooses_by_count:
            legal = options[commander.choose_index(count)]
            self._record(side, kind, legal)
            return legal
        return self.decide(Decision(side, kind, options, prompt, subject, default,
                                    {} if info is None else info))

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
    ) -> Order:
        """:meth:`ask` for options built only when read: ``decide(LazyDecision(...))`` with the
        same arguments, but a commander that picks by count gets only ``make(index)`` built."""
        if count > 1:
            commander = self.commanders[side]
            if commander.chooses_by_count:
                legal = make(commander.choose_index(count))
                self._record(side, kind, legal)
                return legal
        return self.decide(LazyDecision(side, kind, count, make, prompt, subject, info=info,
                                        locate=locate, default_of=default_of))

    def _record(self, side: str, kind: str, legal: Order) -> None:
        self.decided.append((side, kind, legal))
        if self._log.record:
            self._log.emit("decision", side=side, kind=kind, order=str(legal))

    def round_ended(self, round_number: int) -> None:
        """Rulesets call this at the end of every round; observers see the state then."""
        for observer in self.round_observers:
            observer(round_number, self.state)


def make_commander(kind: str, ruleset: Ruleset) -> Commander:
    """A commander of a built-in kind (``ai``, ``random``, ``first``)."""
    if kind == "ai":
        return ruleset.make_ai()
    if kind == "random":
        return RandomCommander()
    if kind == "first":
        return FirstOptionCommander()
    raise WarhostError(
        f"unknown commander kind {kind!r} (use ai, random, scripted or human)", field="commander"
    )


def build_commanders(
    scenario: Scenario, overrides: Mapping[str, Commander | str] | None = None
) -> dict[str, Commander]:
    """One commander per side: the scenario's choice unless ``overrides`` names another."""
    ruleset = scenario.ruleset
    kinds = ruleset.commander_kinds(scenario.model)
    chosen: dict[str, Commander] = {}
    for side in ruleset.side_names(scenario.model):
        want: Commander | str = (overrides or {}).get(side, kinds.get(side, "ai"))
        if want in ("human", "scripted"):
            want = "ai"  # needs I/O or a file: the CLI supplies those commanders itself
        chosen[side] = want if isinstance(want, Commander) else make_commander(want, ruleset)
    return chosen


def run_battle(
    scenario: Scenario,
    seed: int,
    commanders: Mapping[str, Commander | str] | None = None,
    *,
    dice: DiceSource | None = None,
    record: bool = True,
    observers: list[Callable[[int, Any], None]] | None = None,
) -> BattleResult:
    """Play one battle to its end and return the result.

    ``commanders`` maps side names to a commander or a kind (``ai``, ``random``); sides not
    named use the scenario's choice. With ``record=False`` the event log keeps only a count,
    which is what Monte Carlo runs want.

    Example:
        >>> from warhost import load_scenario, run_battle
        >>> s = load_scenario("examples/fantasy-battle/skirmish.yaml")  # doctest: +SKIP
        >>> run_battle(s, 1, {"Good": "random"}).winner in {"Good", "Evil", None}  # doctest: +SKIP
        True
    """
    ruleset = scenario.ruleset
    battle = Battle(ruleset, scenario, seed, build_commanders(scenario, commanders), dice, record)
    battle.round_observers.extend(observers or [])
    battle.emit(
        "battle_start",
        ruleset=ruleset.versioned_name,
        scenario=scenario.name,
        seed=seed,
        sides={side: c.kind for side, c in battle.commanders.items()},
    )
    state = ruleset.new_state(scenario, battle)
    battle.state = state
    ruleset.play(state, battle)
    outcome = ruleset.outcome(state)
    battle.emit(
        "battle_end",
        winner=outcome.winner,
        scores=outcome.scores,
        rounds=outcome.rounds,
        reason=outcome.reason,
    )
    return BattleResult(
        ruleset=ruleset.name,
        scenario=scenario.name,
        seed=seed,
        outcome=outcome,
        log=battle.log,
        decided=battle.decided,
    )
