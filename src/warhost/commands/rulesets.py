"""``warhost rulesets``: the registered rule systems."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from warhost.commands._shared import out_console, print_json


def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List the registered rule systems."""
    from rich.table import Table
    from rich.text import Text

    from warhost.core.registry import all_rulesets

    found = all_rulesets()
    rows: list[dict[str, Any]] = []
    for ruleset in found.values():
        examples = [_relative(p) for p in ruleset.examples()]
        rows.append({"name": ruleset.name, "version": ruleset.version, "title": ruleset.title,
                     "summary": ruleset.summary, "examples": examples})
    if as_json:
        print_json(rows)
        return
    table = Table(title="Registered rulesets")
    for column in ("Name", "Version", "Title", "Summary", "Examples"):
        table.add_column(column, no_wrap=column in ("Name", "Examples"))
    for row in rows:
        names = [Path(p).name for p in row["examples"]]
        table.add_row(str(row["name"]), str(row["version"]), str(row["title"]),
                      str(row["summary"]), "\n".join(names) or "-")
    console = out_console()
    console.print(table)
    if any(row["examples"] for row in rows):
        console.print(Text("Examples live in examples/<ruleset>/ (rulesets --json gives paths)."))


def _relative(path: Path) -> str:
    """``path`` relative to the working directory where it lies below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("rulesets")(rulesets)
