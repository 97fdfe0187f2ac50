"""``warhost results``: a stored simulation's summary again, SQL queries on it, a Parquet export
and its plot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands.simulate import dump_json, paragraphs, plotter, print_run_summary

from warhost.commands._shared import Force, check_output, out_console

if TYPE_CHECKING:
    pass

RESULTS_HELP = """Show a result file again: the summary, an SQL query, or a Parquet export.

Tables: meta(key, value), battles(battle, seed, winner, rounds, reason), scores(battle,
side, score), units(battle, slot, unit, side, name, start, survivors, losses, fate).
FILE may also be a Parquet export."""


def results_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A result file.")],
    sql: Annotated[
        str | None, typer.Option("--sql", metavar="QUERY", help="Run a SQL query on it.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    export: Annotated[
        Path | None,
        typer.Option("--export", metavar="FILE.parquet", help="Write every battle to Parquet."),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", metavar="FILE", help="Draw the results (.png or .svg).")
    ] = None,
    force: Force = False,
) -> None:
    """A stored run's summary, an SQL query on it, a Parquet export or a plot."""
    from rich.table import Table
    from rich.text import Text

    from warhost.core.errors import WarhostError
    from warhost.sim.store import ResultStore

    if export is not None and export.suffix.lower() != ".parquet":
        raise WarhostError(f"cannot tell the format from {export.name!r}: use a .parquet "
                           "name", field="export")
    check_output(export, "export", force)
    draw = plotter(plot, force)
    with ResultStore.load(file) as store:
        if export is not None:
            store.export_parquet(export)
        output: Any
        if sql is not None:
            columns, rows = store.query(sql)
            output = [dict(zip(columns, row, strict=True)) for row in rows]
        else:
            summary = store.summary()
            n = int(store.meta.get("n", summary["battles"]))
            output = {"file": str(file), "n": n, "complete": summary["battles"] >= n,
                      **summary}
        if draw is not None and plot is not None:
            draw(store.summary() if sql is not None else summary, store.records(), plot)
    if as_json:
        dump_json(output)
        return
    console = out_console()
    if sql is not None:
        table = Table(title=f"{len(rows)} row{'s' if len(rows) != 1 else ''}")
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*("NULL" if v is None else str(v) for v in row))
        console.print(table)
    else:
        print_run_summary(console, output)
    if export is not None:
        console.print(Text(f"Exported to {export}"))
    if plot is not None:
        console.print(Text(f"Plot written to {plot}"))


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("results", help=paragraphs(RESULTS_HELP),
                short_help="Show a result file again.")(results_command)
