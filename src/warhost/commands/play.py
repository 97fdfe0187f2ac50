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
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands._shared import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Seed,
    check_output,
    one_line,
    out_console,
    pick_seed,
    print_summary,
    require_side,
)
from warhost.commands.simulate import paragraphs
from warhost.core.errors import WarhostError

if TYPE_CHECKING:
    from warhost.core.journal import PlayJournal


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
    seed: Seed = None,
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
    from rich.text import Text

    from warhost.commands._play_table import PlayTable
    from warhost.core.journal import PlayJournal

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
            result = PlayTable(journal, console, resumed=resume is not None).play()
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
    from warhost.core.journal import PlayJournal, fresh_play_path
    from warhost.core.scenario import load_scenario

    if scenario_file is None:
        raise WarhostError("give a SCENARIO file (or --resume FILE)", field="scenario")
    if side is None:
        raise WarhostError("give the side you command with --side NAME", field="side")
    check_output(replay, "replay", force=True)  # its directory; an existing file: below
    scenario = load_scenario(scenario_file)
    require_side(scenario.ruleset.side_names(scenario.model), side, "side")
    if replay is not None and replay.exists():
        raise WarhostError("already exists, and play never overwrites a file (choose another "
                           "name, or continue an unfinished battle with --resume FILE)",
                           file=str(replay), field="replay")
    path = replay if replay is not None else fresh_play_path(scenario_file)
    return PlayJournal(path, scenario, pick_seed(seed), side, manual=manual)


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


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("play", help=paragraphs(PLAY_HELP),
                short_help="Command one side yourself at the terminal.")(play)
