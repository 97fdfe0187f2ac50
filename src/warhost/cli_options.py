"""Command-line options shared by several commands (kept apart from :mod:`warhost.cli` so
command modules can import them without importing the CLI itself)."""

from __future__ import annotations

from typing import Annotated

import typer

BatchCommanders = Annotated[
    list[str] | None,
    typer.Option("--commander", metavar="SIDE=KIND",
                 help="Who commands a side: ai, random or first. Repeatable."),
]
