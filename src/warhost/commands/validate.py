"""``warhost validate``: check a scenario and name every problem."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from warhost.commands._shared import EXIT_USAGE, one_line, print_json, scripted_commander
from warhost.core.errors import WarhostError

if TYPE_CHECKING:
    from warhost.core.scenario import Scenario


def validate(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Check a scenario; list every problem with its file, line and field (exit 2)."""
    from warhost.core.scenario import load_scenario

    problems: list[WarhostError] = []
    scenario: Scenario | None = None
    try:
        scenario = load_scenario(scenario_file)
    except WarhostError as exc:
        problems = list(getattr(exc, "problems", None) or [exc])
    if scenario is not None:
        kinds = scenario.ruleset.commander_kinds(scenario.model)
        for side, kind in kinds.items():
            if kind == "scripted":
                try:
                    scripted_commander(scenario, side)
                except WarhostError as exc:
                    problems.append(exc)
    if as_json:
        print_json({
            "file": str(scenario_file),
            "ok": not problems,
            "name": scenario.name if scenario is not None else None,
            "ruleset": scenario.ruleset.name if scenario is not None else None,
            "problems": [{"file": p.file, "line": p.line, "field": p.field,
                          "message": p.message} for p in problems],
        })
    elif not problems and scenario is not None:
        typer.echo(f"ok: {scenario.name} ({scenario.ruleset.name})")
    else:
        for problem in problems:
            typer.echo(one_line(str(problem)))
    if problems:
        raise typer.Exit(EXIT_USAGE)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("validate")(validate)
