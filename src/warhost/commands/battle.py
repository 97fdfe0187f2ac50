"""``warhost battle``: fight one battle, narrated, with a summary table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from warhost.commands._shared import (
    Force,
    Seed,
    check_output,
    commander_kinds,
    make_commanders,
    out_console,
    parse_overrides,
    pick_seed,
    print_json,
    print_narrative,
    print_summary,
)


def battle(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    seed: Seed = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print only the result as one JSON document.")
    ] = False,
    replay: Annotated[
        Path | None, typer.Option("--replay", metavar="FILE", help="Save a replay file.")
    ] = None,
    commander: Annotated[
        list[str] | None,
        typer.Option("--commander", metavar="SIDE=KIND",
                     help="Who commands a side: ai, random, first or scripted. Repeatable."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final summary.")] = False,
    force: Force = False,
) -> None:
    """Fight one battle and narrate it turn by turn, dice shown."""
    from rich.text import Text

    from warhost.core.engine import run_battle
    from warhost.core.replay import save_replay
    from warhost.core.scenario import load_scenario
    from warhost.render.narrative import Narrator

    check_output(replay, "replay", force)
    scenario = load_scenario(scenario_file)
    commanders = make_commanders(scenario, parse_overrides(scenario, commander or []))
    kinds = commander_kinds(commanders)
    result = run_battle(scenario, pick_seed(seed), commanders)
    if replay is not None:
        save_replay(result, scenario, replay, kinds)
    if as_json:
        print_json(result.summary())
        return
    console = out_console()
    if not quiet:
        print_narrative(console, result, Narrator(scenario.ruleset))
        console.print()
    print_summary(console, result)
    if replay is not None:
        console.print(Text(f"Replay saved to {replay}"))


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("battle")(battle)
