"""The terminal side of ``warhost play``: one person's battle with narration, maps and
questions, re-run quietly after each ``undo`` or ``--resume`` (imported only when ``play``
runs)."""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.console import Console
from rich.text import Text

from warhost.commands._shared import commander_kinds, make_commanders
from warhost.core.battle import Battle
from warhost.core.commanders import Commander, HumanCommander, UndoRequested
from warhost.core.decisions import Decision
from warhost.core.dice import DiceSource
from warhost.core.engine import BattleResult
from warhost.core.errors import WarhostError
from warhost.core.journal import PlaybackDice, PlayJournal
from warhost.core.stepping import Question, SteppedBattle, parse_faces
from warhost.render.maps import map_title, text_map
from warhost.render.narrative import Narrator
from warhost.render.options import option_listing


class PlayTable:
    """The terminal side of one person's battle: narration, maps, questions, and the runs of
    the battle (a new run after each ``undo``)."""

    def __init__(self, journal: PlayJournal, console: Console, *, resumed: bool) -> None:
        self.journal = journal
        self.console = console
        self.scenario = journal.scenario
        self.ruleset = journal.scenario.ruleset
        self.resumed = resumed
        self.note = "Resumed" if resumed else ""
        """Said (with the round) when a quiet re-run reaches the person; a new battle has
        none and is narrated from the start."""
        self.narrator = Narrator(self.ruleset)
        self.quiet = False
        """Whether the run is still re-playing recorded decisions (no narration)."""
        self.dice: DiceSource | None = None
        self.human: HumanCommander | None = None
        self.shown_map: tuple[str, str] | None = None
        self.units: frozenset[str] = frozenset()

    def play(self) -> BattleResult:
        """Play the battle to its end (re-running it after each ``undo``) and finish the file."""
        journal = self.journal
        path = journal.path
        if self.resumed:
            self.say(f"Resuming {path}: you command {journal.side}, seed {journal.seed}.",
                     bold=True)
        else:
            self.say(f"You command {journal.side}. Seed {journal.seed}. Type the number of an "
                     "order, its text, ? for the list, or help.", bold=True)
        self.say(f"The battle is saved in {path} as it goes; if you stop, continue it with "
                 f"warhost play --resume {path}")
        while True:
            try:
                result = self.run()
                break
            except UndoRequested:
                self.note = f"Took back {journal.undo()!r}: back"
        if self.quiet:
            self.say("The recorded decisions take the battle to its end.")
        self.flush()
        journal.finish(result)
        return result

    def run(self) -> BattleResult:
        """One run of the battle, stepped (:class:`SteppedBattle`): the recorded part quietly,
        then the person's questions and dice, asked here as the battle waits for them."""
        journal = self.journal
        self.human = HumanCommander(
            ask=self.ask, show=self.say, describe=self.describe,
            lister=lambda decision, query: option_listing(decision, query, self.units),
            redraw=self.redraw, recorded=journal.orders, on_answer=journal.answered, undo=True,
        )
        commanders = make_commanders(self.scenario, journal.others,
                                     people={journal.side: self.human})
        others: dict[str, Commander | str] = {
            side: c for side, c in commanders.items() if side != journal.side}
        stepper = SteppedBattle(
            self.scenario, journal.seed, others, stepped=[journal.side],
            manual_dice=journal.manual, label=self.human.kind, frames=False, start=False,
            wrap_dice=lambda typed: PlaybackDice(journal.faces, typed,
                                                 typed=journal.dice_typed))
        stepper.battle.round_observers.append(lambda _round, _state: self.flush())
        self.human.bind(journal.side, np.random.default_rng(0))  # it draws nothing
        self.human.referee = stepper.battle
        self.dice = stepper.battle.dice
        self.narrator = Narrator(self.ruleset)
        self.shown_map = None
        self.quiet = bool(self.note)
        journal.start_run(self.dice, commander_kinds(commanders))
        with stepper:
            stepper.start()
            while not stepper.over:
                question = stepper.question
                assert question is not None
                if question.what == "dice":
                    stepper.roll(self.type_dice(question))
                else:
                    assert stepper.decision is not None
                    stepper.answer(self.human.choose(stepper.decision, stepper.battle.state))
        assert stepper.result is not None
        return stepper.result

    def type_dice(self, question: Question) -> list[int]:
        """The faces of the real dice ``question`` asks for, asked until they fit."""
        self.reach_person()
        count, sides = question.dice
        prompt = f"{question.prompt}: "
        while True:
            try:
                return parse_faces(self.ask_dice(prompt), count, sides)
            except WarhostError:
                prompt = f"Please type {count} number(s) from 1 to {sides}: "

    # ------------------------------------------------------------------ output

    def say(self, text: str, bold: bool = False) -> None:
        self.console.print(Text(text, style="bold" if bold else ""))

    def ask(self, prompt: str) -> str:
        return self.console.input(Text(prompt, style="bold"))

    def flush(self) -> None:
        """Narrate the events since the last call (nothing while a run re-plays)."""
        log = self.dice.log if self.dice is not None else None
        if log is None or self.quiet:
            return
        for text, style in self.narrator.new_lines(log.events):
            self.console.print(Text(text, style=style))

    def reach_person(self, state: Any = None) -> None:
        """A run reaches the person (their question, with ``state``, or their dice): the
        first time, the re-run part ends (the file is checked and written) and, after a quiet
        re-run, the person is told where the battle stands and shown the map."""
        if not self.journal.live:
            self.journal.go_live()
        if not self.quiet:
            return
        self.quiet = False
        log = self.dice.log if self.dice is not None else None
        events = log.events if log is not None else []
        self.narrator.position = len(events)
        rounds = [e["round"] for e in events if e["type"] == "round_start"]
        where = f"at round {rounds[-1]}" if rounds else "before the first round"
        self.say(f"{self.note} {where}.", bold=True)
        self.shown_map = None
        if state is None:  # asked for dice: draw the map here (a question draws its own)
            self.draw_map(self._state())

    def describe(self, decision: Decision, state: Any) -> str:
        """Before each of the person's questions: the story so far and the map if it changed."""
        self.reach_person(state)
        self.flush()
        drawn = self.draw_map(state)
        subject = f" ({decision.subject})" if decision.subject else ""
        header = f"{decision.side}: {decision.prompt or decision.kind}{subject}"
        if drawn is False:
            header += "   [map as above; map draws it again]"
        return header

    def redraw(self, state: Any) -> None:
        self.shown_map = None
        if self.draw_map(state) is None:
            self.say("this battle has no text map")

    def draw_map(self, state: Any) -> bool | None:
        """Print the map unless it is the one shown last: True if printed, False if it is
        unchanged, None if the battle has no text map."""
        if state is None:
            return None
        try:
            view = self.ruleset.map_view(state)
        except NotImplementedError:
            return None
        self.units = frozenset(str(u.get("id")) for u in view.get("units", []))
        picture = text_map(view)
        if not picture:
            return None
        shown = (map_title(view, self.scenario.name), picture)
        if shown == self.shown_map:
            return False
        self.shown_map = shown
        self.console.print(Text(shown[0], style="bold"))
        self.console.print(Text(picture))
        return True

    def ask_dice(self, prompt: str) -> str:
        """Ask for the faces of real dice; ``undo`` here takes back the last decision too."""
        self.flush()
        while True:
            answer = self.ask(prompt)
            if answer.strip() != "undo":
                return answer
            if self.journal.orders:
                raise UndoRequested()
            self.say("undo: nothing to take back yet; you have made no decision")

    def _state(self) -> Any:
        battle = self.human.referee if self.human is not None else None
        return battle.state if isinstance(battle, Battle) else None

