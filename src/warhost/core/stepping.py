"""A battle played one decision at a time, for web pages, bots, notebooks and learning
environments (:class:`SteppedBattle`).

Rulesets write a battle as straight-line code that asks :meth:`Battle.decide`. Here that code
runs in a worker thread of its own; whenever it needs an answer from a *stepped* side (or the
faces of real dice) it stops, and the caller reads the :class:`Question`, gives one order (or
the faces) and gets back the events it produced. Between two calls the worker is paused, so
the state may be read safely. The same scenario, seed and orders give exactly the event log
that :func:`warhost.core.engine.run_battle` gives.

Example:
    >>> from warhost import load_scenario  # doctest: +SKIP
    >>> with SteppedBattle(load_scenario("skirmish.yaml"), 7, stepped=["Good"]) as b:
    ...     while not b.over:
    ...         b.answer(0)                # the first legal order, every time
    ...     b.winner
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from warhost.core.battle import Battle
from warhost.core.commanders import Commander
from warhost.core.decisions import Decision, Refusal, describe_decision
from warhost.core.dice import DiceSource
from warhost.core.engine import fight, prepare_battle
from warhost.core.errors import IllegalOrderError, WarhostError
from warhost.core.orders import Order
from warhost.core.outcome import BattleResult
from warhost.core.ruleset import Scenario


class BattleAbandoned(BaseException):
    """Raised inside the worker of a closed battle so that it unwinds (a BaseException, so
    that no rule's ``except Exception`` holds it)."""


@dataclass(frozen=True)
class Question:
    """What a stepped battle waits for: an order from one side, or the faces of real dice."""

    number: int
    """1 for the first question of the battle, then 2, 3 ..."""
    what: str
    """``order`` or ``dice``."""
    side: str | None
    """The side that must decide (None for dice: the table rolls them)."""
    kind: str
    """The decision's kind (``move``, ``target`` ...), or ``dice``."""
    prompt: str = ""
    subject: str = ""
    options: tuple[str, ...] = ()
    """The legal orders' texts, in the engine's order (empty for dice)."""
    default: str | None = None
    open: bool = False
    """Whether orders beyond the listed ones may be legal (a move to any point, say)."""
    dice: tuple[int, int] = (0, 0)
    """For dice: how many dice and how many faces each."""
    why: str = ""
    """For dice: what they are rolled for."""

    def to_json(self) -> dict[str, Any]:
        """The question as plain JSON data."""
        data: dict[str, Any] = {
            "number": self.number, "what": self.what, "side": self.side, "kind": self.kind,
            "prompt": self.prompt, "subject": self.subject,
        }
        if self.what == "order":
            data.update(options=list(self.options), default=self.default, open=self.open)
        else:
            data.update(count=self.dice[0], sides=self.dice[1], why=self.why)
        return data


@dataclass(frozen=True)
class Frame:
    """The battlefield at one moment: its map view and how far the event log had come."""

    events: int
    """How many events the log held then."""
    round: int
    """The round under way (0 before the first)."""
    map: dict[str, Any] | None
    """The ruleset's map view (None when it has none)."""

    def to_json(self) -> dict[str, Any]:
        return {"events": self.events, "round": self.round, "map": self.map}


class StepCommander(Commander):
    """Answers its side's decisions with the orders given to its :class:`SteppedBattle`.

    It reads orders as a person does: it is told of decisions with a single legal answer
    instead of being asked, except open ones."""

    reads_orders = True

    def __init__(self, stepper: SteppedBattle, kind: str) -> None:
        self.stepper = stepper
        self.kind = kind

    def choose(self, decision: Decision, state: Any) -> Order:
        answer = self.stepper._wait_for_answer(_order_question(self.stepper, decision), decision)
        assert isinstance(answer, Order)
        return answer


class StepDice(DiceSource):
    """Dice whose faces the caller types (:meth:`SteppedBattle.roll`): real dice at a table."""

    def __init__(self, stepper: SteppedBattle) -> None:
        super().__init__()
        self.stepper = stepper

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        question = Question(self.stepper._next_number(), "dice", None, "dice",
                            prompt=f"Roll {count}d{sides}" + (f" for {why}" if why else ""),
                            dice=(count, sides), why=why)
        faces = self.stepper._wait_for_answer(question, None)
        assert isinstance(faces, list)
        return faces


def parse_faces(text: str | Sequence[int], count: int, sides: int) -> list[int]:
    """The faces in ``text`` (numbers separated by spaces or commas), or a clear error when
    they are not ``count`` whole numbers from 1 to ``sides``."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
        if not all(p.isdigit() for p in parts):
            raise WarhostError(f"{text!r}: type {count} whole number(s) from 1 to {sides}",
                               field="dice")
        faces = [int(p) for p in parts]
    else:
        faces = [int(f) for f in text]
    if len(faces) != count:
        raise WarhostError(f"{len(faces)} face(s) given; this roll is {count}d{sides}",
                           field="dice")
    wrong = [f for f in faces if not 1 <= f <= sides]
    if wrong:
        raise WarhostError(f"{wrong[0]} is not a face of a d{sides} (1 to {sides})",
                           field="dice")
    return faces


class SteppedBattle:
    """One battle played a decision at a time (see the module's docstring).

    ``stepped`` names the sides whose orders the caller gives (:meth:`answer`); the others are
    played by ``commanders`` (a commander or a kind per side, as :func:`run_battle` takes them,
    else the scenario's choice). With ``manual_dice`` every die is asked for (:meth:`roll`).
    ``label`` is the commander kind the log names for stepped sides; ``wrap_dice`` may wrap
    the typed dice (to hand out recorded faces first, say). The constructor returns when the
    battle first waits, or has ended (with ``start=False``, :meth:`start` does that).

    A :class:`Frame` is kept once the armies are deployed, at the end of every round and at
    every question that finds the map changed, so a viewer can go back and forth.
    :meth:`close` ends an unfinished battle and frees its thread; a closed battle refuses
    further orders.
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        commanders: Mapping[str, Commander | str] | None = None,
        *,
        stepped: Iterable[str] = (),
        manual_dice: bool = False,
        label: str = "human",
        frames: bool = True,
        wrap_dice: Callable[[DiceSource], DiceSource] | None = None,
        start: bool = True,
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        sides = scenario.ruleset.side_names(scenario.model)
        self.stepped = tuple(stepped)
        for side in self.stepped:
            if side not in sides:
                raise WarhostError(f"unknown side {side!r} (the sides are {', '.join(sides)})",
                                   field="side")
        chosen: dict[str, Commander | str] = dict(commanders or {})
        for side in self.stepped:
            chosen[side] = StepCommander(self, label)
        self.manual_dice = manual_dice
        self.faces: list[int] = []
        """Every face typed so far (a replay of a manual-dice battle keeps them)."""
        dice: DiceSource | None = StepDice(self) if manual_dice else None
        if dice is not None and wrap_dice is not None:
            dice = wrap_dice(dice)
        self._keep_frames = frames
        self.frames: list[Frame] = []
        self.battle: Battle = prepare_battle(scenario, seed, chosen, dice=dice,
                                             observers=[self._round_ended])
        self.battle.start_observers.append(lambda _state: self._capture(0))
        self.result: BattleResult | None = None
        self.error: BaseException | None = None
        """What stopped the battle when it failed (an illegal order of a script, say)."""
        self.question: Question | None = None
        """What the battle waits for; None once it is over."""
        self.decision: Decision | None = None
        """The decision behind an order :attr:`question` (for callers in this process)."""
        self._numbers = 0
        self._round = 0
        self._scanned = 0
        self._reply: Order | list[int] | None = None
        self._closed = False
        self._finished = False
        self._turn = threading.Condition()
        self._worker = threading.Thread(target=self._run, name=f"battle-{seed}", daemon=True)
        if start:
            self.start()

    def start(self) -> None:
        """Start the battle (the constructor does, unless ``start=False``) and return when it
        first waits, or has ended."""
        self._worker.start()
        self._await_pause()

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the battle has ended (won, drawn, failed or closed)."""
        return self._finished

    @property
    def winner(self) -> str | None:
        """The winning side once the battle is over (None: a draw, or not over)."""
        return self.result.winner if self.result is not None else None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The event log so far."""
        return self.battle.log.events

    @property
    def round(self) -> int:
        """The round under way (0 before the first)."""
        self._scan_rounds()
        return self._round

    def map_view(self) -> dict[str, Any] | None:
        """The ruleset's map view of the battle now (None before the state exists or when the
        ruleset draws no map)."""
        state = self.battle.state
        if state is None:
            return None
        try:
            return self.scenario.ruleset.map_view(state)
        except NotImplementedError:
            return None

    def decisions(self) -> list[dict[str, Any]]:
        """The decisions taken so far, as replay files keep them."""
        return self.battle.decisions

    # ------------------------------------------------------------------ acting

    def answer(self, order: str | int | Order) -> list[dict[str, Any]]:
        """Give the order the battle waits for (its text, an :class:`Order`, or the index of
        a listed option) and return the events it produced, up to the next question or the
        end. An order that is not legal raises :class:`IllegalOrderError` with the reason and
        the rule ID, and changes nothing."""
        question, decision = self._expect("order")
        assert decision is not None
        if isinstance(order, bool):
            raise IllegalOrderError("an order is its text or the index of an option",
                                    field="order")
        if isinstance(order, int):
            if not 0 <= order < len(question.options):
                raise IllegalOrderError(
                    f"no option {order}: the options run from 0 to {len(question.options) - 1}",
                    field="order")
            legal: Order | Refusal = decision.option(order)
        else:
            legal = self.battle.judge(decision, order)
        if isinstance(legal, Refusal):
            raise IllegalOrderError(
                f"{str(order)!r} does not answer the {describe_decision(decision)} decision: "
                f"{legal}", field="order")
        return self._resume(legal)

    def roll(self, faces: str | Sequence[int]) -> list[dict[str, Any]]:
        """Give the faces of the real dice the battle waits for (text such as ``3 5`` or a
        list); faces that do not fit the roll raise :class:`WarhostError` and change
        nothing. Returns the events up to the next question or the end."""
        question, _ = self._expect("dice")
        count, sides = question.dice
        typed = parse_faces(faces, count, sides)
        self.faces.extend(typed)
        return self._resume(typed)

    def close(self) -> None:
        """End the battle if it is still going, and free its thread."""
        with self._turn:
            if self._worker.ident is None:  # never started
                self._closed = self._finished = True
                return
            if self._finished and not self._worker.is_alive():
                return
            self._closed = True
            self._turn.notify_all()
        self._worker.join(timeout=5)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the worker

    def _run(self) -> None:
        try:
            self.result = fight(self.battle)
        except BattleAbandoned:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, raised there
            self.error = exc
        finally:
            with self._turn:
                self._finished = True
                self.question = None
                self.decision = None
                self._turn.notify_all()

    def _wait_for_answer(self, question: Question, decision: Decision | None) -> Any:
        """In the worker: publish ``question`` and wait for the caller's answer."""
        self._capture(None)
        with self._turn:
            if self._closed:
                raise BattleAbandoned()
            self.question = question
            self.decision = decision
            self._reply = None
            self._turn.notify_all()
            while self._reply is None and not self._closed:
                self._turn.wait()
            if self._closed:
                raise BattleAbandoned()
            reply, self._reply = self._reply, None
            return reply

    def _round_ended(self, round_number: int, _state: Any) -> None:
        if self._closed:
            raise BattleAbandoned()
        self._capture(round_number)

    def _capture(self, round_number: int | None) -> None:
        """Keep a frame of the battlefield now (in the worker)."""
        if not self._keep_frames:
            return
        view = self.map_view()
        number = self.round if round_number is None else round_number
        events = len(self.events)
        last = self.frames[-1] if self.frames else None
        if last is not None and last.events == events:
            self.frames[-1] = Frame(events, number, view)
        elif last is None or round_number is not None or last.map != view:
            self.frames.append(Frame(events, number, view))  # a question's frame: if it moved

    def _next_number(self) -> int:
        self._numbers += 1
        return self._numbers

    # ------------------------------------------------------------------ the caller

    def _expect(self, what: str) -> tuple[Question, Decision | None]:
        if self.error is not None:
            raise WarhostError(f"the battle stopped: {self.error}")
        question = self.question
        if question is None:
            raise WarhostError("the battle is over" if not self._closed
                               else "the battle was closed", field="order")
        if question.what != what:
            wanted = "an order" if question.what == "order" else "the faces of real dice"
            raise WarhostError(f"the battle waits for {wanted} ({question.prompt})", field=what)
        return question, self.decision

    def _resume(self, reply: Order | list[int]) -> list[dict[str, Any]]:
        start = len(self.events)
        with self._turn:
            self.question = None
            self.decision = None
            self._reply = reply
            self._turn.notify_all()
        self._await_pause()
        return self.events[start:]

    def _await_pause(self) -> None:
        """Wait until the worker asks a question or ends; raise what stopped it."""
        with self._turn:
            while self.question is None and not self._finished:
                self._turn.wait()
        if self.error is not None:
            error = self.error
            if isinstance(error, Exception):
                raise error
            raise WarhostError(f"the battle stopped: {error!r}")

    def _scan_rounds(self) -> None:
        events = self.events
        for event in events[self._scanned:]:
            if event.get("type") == "round_start":
                self._round = int(event.get("round", self._round))
        self._scanned = len(events)


def _order_question(stepper: SteppedBattle, decision: Decision) -> Question:
    count = decision.option_count
    default = decision.default
    return Question(
        stepper._next_number(), "order", decision.side, decision.kind,
        prompt=decision.prompt or decision.kind, subject=decision.subject,
        options=tuple(str(decision.option(i)) for i in range(count)),
        default=str(default) if default is not None else None,
        open=decision.accept is not None,
    )


Answerer = Callable[[Question], "str | int"]
"""Chooses an answer to a question (bots, tests)."""


def play_through(stepper: SteppedBattle, answer: Answerer) -> BattleResult | None:
    """Answer every question with ``answer`` until the battle ends; its result."""
    while not stepper.over:
        question = stepper.question
        assert question is not None
        reply = answer(question)
        if question.what == "dice":
            stepper.roll(str(reply))
        else:
            stepper.answer(reply)
    return stepper.result


__all__ = ["BattleAbandoned", "Frame", "Question", "StepCommander", "StepDice", "SteppedBattle",
           "parse_faces", "play_through"]
