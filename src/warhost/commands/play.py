"""``warhost play``: a person commands one side at the terminal.

The battle is written to a play file as it goes (:mod:`warhost.core.journal`), so stopping at
any moment (Ctrl-C, the end of input, a closed terminal) loses nothing: ``--resume FILE`` goes
on from the same point, and ``undo`` takes back the person's last decision. Both re-run the
battle quietly from its seed up to the person's next question.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from warhost.commands._shared import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    check_output,
    commander_kinds,
    make_commanders,
    one_line,
    out_console,
    pick_seed,
    print_summary,
    require_side,
)
from warhost.commands.simulate import paragraphs
from warhost.core.battle import Battle
from warhost.core.commanders import HumanCommander, UndoRequested
from warhost.core.decisions import Decision
from warhost.core.dice import DiceSource, ManualDice, SeededDice
from warhost.core.engine import BattleResult, run_battle
from warhost.core.errors import WarhostError
from warhost.core.journal import PlaybackDice, PlayJournal, fresh_play_path
from warhost.core.scenario import load_scenario
from warhost.render.maps import map_title, text_map
from warhost.render.narrative import Narrator
from warhost.render.options import option_listing


PLAY_HELP = """Command one side yourself; the other keeps the scenario's commander.

The battle is saved to a play file as it goes (default: beside SCENARIO, its stem +
.play.json; an existing file is never overwritten). If you stop (Ctrl-C, end of input, a
closed terminal), continue it with warhost play --resume FILE.

At a decision type the number of an order or its text; ? lists every order, ? KIND one kind,
undo takes back your last decision, map draws the map again, help lists the rest."""


class HangUp(KeyboardInterrupt):
    """The terminal was closed (SIGHUP): stopped like Ctrl-C."""


def play(
    scenario_file: Annotated[
        Path | None, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")
    ] = None,
    side: Annotated[str | None, typer.Option("--side", help="The side you command.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed (default: a random one, shown).")] = None,
    manual_dice: Annotated[
        bool, typer.Option("--manual-dice", help="Type in the faces of real dice.")
    ] = False,
    replay: Annotated[
        Path | None,
        typer.Option("--replay", metavar="FILE",
                     help="The play file (default: SCENARIO's name + .play.json); never "
                          "overwritten."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", metavar="FILE", help="Continue the unfinished battle in FILE."),
    ] = None,
) -> None:
    """Command one side yourself; the other keeps the scenario's commander (see PLAY_HELP)."""
    if resume is not None:
        given = [name for name, value in (("SCENARIO", scenario_file), ("--side", side),
                                          ("--seed", seed), ("--replay", replay))
                 if value is not None] + (["--manual-dice"] if manual_dice else [])
        if given:
            raise WarhostError(f"--resume takes the scenario, side, seed and dice from the "
                               f"file; leave out {', '.join(given)}", field="resume")
        journal = PlayJournal.resume(resume)
    else:
        journal = _new_journal(scenario_file, side, seed, manual_dice, replay)
    console = out_console()
    with _hang_up_stops():
        try:
            result = _Table(journal, console, resumed=resume is not None).play()
        except (KeyboardInterrupt, EOFError) as stop:
            journal.save()
            ended = isinstance(stop, EOFError)
            what = "input ended before the battle did" if ended else "interrupted"
            _say(f"error: {what}; the battle so far is saved in {journal.path}: continue it "
                 f"with warhost play --resume {journal.path}")
            raise typer.Exit(EXIT_USAGE if ended else EXIT_INTERRUPTED) from None
    console.print()
    print_summary(console, result)
    console.print(Text(f"Replay saved to {journal.path}"))


def _new_journal(
    scenario_file: Path | None, side: str | None, seed: int | None, manual: bool,
    replay: Path | None,
) -> PlayJournal:
    """The journal of a new battle, its file name fresh (an existing file is never replaced)."""
    if scenario_file is None:
        raise WarhostError("give a SCENARIO file (or --resume FILE)", field="scenario")
    if side is None:
        raise WarhostError("give the side you command with --side NAME", field="side")
    check_output(replay, "replay")
    scenario = load_scenario(scenario_file)
    require_side(scenario.ruleset.side_names(scenario.model), side, "side")
    if replay is not None and replay.exists():
        raise WarhostError("already exists, and play never overwrites a file (choose another "
                           "name, or continue an unfinished battle with --resume FILE)",
                           file=str(replay), field="replay")
    path = replay if replay is not None else fresh_play_path(scenario_file)
    return PlayJournal(path, scenario, pick_seed(seed), side, manual=manual)


class _Table:
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
        """One run of the battle: the recorded part quietly, then the person."""
        journal = self.journal
        self.human = HumanCommander(
            ask=self.ask, show=self.say, describe=self.describe,
            lister=lambda decision, query: option_listing(decision, query, self.units),
            redraw=self.redraw, recorded=journal.orders, on_answer=journal.answered, undo=True,
        )
        commanders = make_commanders(self.scenario, journal.others,
                                     people={journal.side: self.human})
        dice: DiceSource
        if journal.manual:
            dice = PlaybackDice(journal.faces, ManualDice(self.ask_dice),
                                before_asking=self.reach_person, typed=journal.dice_typed)
        else:
            dice = SeededDice(_battle_dice_seed(journal.seed))
        self.dice = dice
        self.narrator = Narrator(self.ruleset)
        self.shown_map = None
        self.quiet = bool(self.note)
        journal.start_run(dice, commander_kinds(commanders))
        return run_battle(self.scenario, journal.seed, commanders, dice=dice,
                          observers=[lambda _round, _state: self.flush()])

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


def _say(text: str) -> None:
    """One line on stderr (quietly nothing if the terminal is gone)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(one_line(text) + "\n")
        sys.stderr.flush()


@contextlib.contextmanager
def _hang_up_stops() -> Iterator[None]:
    """While the block runs, a closed terminal (SIGHUP) stops the battle like Ctrl-C."""
    hang_up = getattr(signal, "SIGHUP", None)
    if hang_up is None:  # pragma: no cover - no SIGHUP on this system
        yield
        return

    def stop(_signum: int, _frame: Any) -> None:
        raise HangUp()

    try:
        previous = signal.signal(hang_up, stop)
    except ValueError:  # pragma: no cover - not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(hang_up, previous)


def _battle_dice_seed(seed: int) -> Any:
    """The seed sequence :class:`Battle` gives its own dice (the first spawned child), so a
    battle played with explicit seeded dice equals one played with the default dice."""
    import numpy as np

    return np.random.SeedSequence(seed).spawn(1)[0]


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command('play', help=paragraphs(PLAY_HELP),
                short_help="Command one side yourself at the terminal.")(play)
