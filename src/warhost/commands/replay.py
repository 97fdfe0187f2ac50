"""``warhost replay``: re-run a saved battle and check it comes out the same."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from warhost.commands._shared import EXIT_DIFFERS, one_line, print_json
from warhost.core.errors import DiceExhaustedError, ReplayError

if TYPE_CHECKING:
    from warhost.core.outcome import BattleResult


def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Replay file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Re-run a saved battle and check that it comes out the same (exit 0; else exit 1)."""
    from warhost.core.replay import compare, load_replay, rerun

    loaded = load_replay(file)
    result: BattleResult | None = None
    try:
        result, _ = rerun(loaded)
        difference = compare(loaded, result)
        message = f"{file}: {difference.message}" if difference else ""
        index = difference.index if difference else None
        matches = difference is None
    except (ReplayError, DiceExhaustedError) as exc:
        # the recorded decisions or dice no longer fit the battle: it does not come out the same
        if isinstance(exc, ReplayError) and exc.field not in ("decisions", None):
            raise
        exc.located(file=loaded.path)
        matches, message, index = False, str(exc), None
    if as_json:
        print_json({
            "file": str(file),
            "matches": matches,
            "difference": None if matches else {"message": message, "event": index},
            "result": result.summary() if result is not None else None,
        })
    elif matches:
        assert result is not None
        typer.echo(f"matches: {file} ({len(result.log)} events, sha256 "
                   f"{result.log.digest()[:16]})")
    else:
        typer.echo(f"DIFFERS: {one_line(message)}")
    if not matches:
        raise typer.Exit(EXIT_DIFFERS)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("replay")(replay_command)
