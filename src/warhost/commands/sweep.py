"""``warhost sweep``: win probability as one number in the scenario varies."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.cli_options import BatchCommanders

from warhost.commands._shared import Force, out_console

if TYPE_CHECKING:
    from rich.console import Console
    from warhost.sim.sweep import SweepResult


SWEEP_HELP = """Run N battles for each value of one number in the scenario and show how
each side's win probability moves with it.

\b
--vary PATH=FROM:TO\\[:STEP] names the number by its path in the scenario:
  victory_points                          points needed to win
  options.max_rounds                      the round limit
  sides\\[Evil].units\\[e-boss].fate_points   one unit's Fate Points
  sides\\[name=Evil].units                  a list: the value is its LENGTH
Select list items by \\[index], \\[id or name] or \\[key=value]. A list is
cut short, or grown with copies of its last item: ids get -2, -3, ...
and "at" is dropped, so the commander deploys the copies.

\b
Every value's scenario is checked before any battle runs. Rules that tie
the armies together make some values invalid: by default both sides need
the same number of activations and of units of each rank, and an infantry
squad has exactly 4 members. To vary how many units one side has, first
set options.allow_unequal_activations: true and
options.per_side_rank_counts: true in the scenario.

\b
All values share one master seed, so battle i of every value uses the
same dice seed (common random numbers): differences come from the varied
number, not from luck. The break-even value is where the first side's win
probability crosses 50%, interpolated linearly between the two values
around it ("none in range" if it never crosses)."""


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}–{100 * high:.1f}"


def print_table(console: Console, result: SweepResult) -> None:
    """The sweep as a rich table, then the break-even line."""
    from warhost.sim.sweep import parse_path

    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(f"{result.scenario}: {result.vary.path} from {result.vary.start:g} "
                             f"to {result.vary.stop:g} ({result.n} battles per value, seed "
                             f"{result.seed})", style="italic"))
    keys = [str(v) for kind, v in parse_path(result.vary.path) if kind == "key"]
    table.add_column(Text(keys[-1] if keys else "value"), justify="right", no_wrap=True)
    for side in result.sides:
        table.add_column(Text(f"{side} wins (95% CI)"), justify="right", no_wrap=True)
    table.add_column("Draws", justify="right", no_wrap=True)
    table.add_column("Mean rounds", justify="right")
    for point in result.points:
        cells: list[Text | str] = [f"{point.value:g}"]
        for side in result.sides:
            rate = point.sides[side]
            cells.append(Text.assemble(_pct(rate.probability), " ",
                                       (f"({_interval(rate.low, rate.high)})", "dim")))
        cells += [_pct(point.draws.probability), f"{point.mean_rounds:.1f}"]
        table.add_row(*cells)
    console.print(table)
    value = result.break_even
    first = result.sides[0] if result.sides else "?"
    if value is None:
        console.print(Text(f"Break-even ({first} at 50%): none in range", style="bold"))
    else:
        console.print(Text(f"Break-even ({first} at 50%): {result.vary.path} ≈ {value:.3g}",
                           style="bold"))


def store_sweep(result: SweepResult, path: Path) -> None:
    """Write the sweep to a DuckDB file, atomically: tables ``sweep_meta`` (one row),
    ``sweep_points`` (value, side, wins, probability, interval; side NULL for draws),
    ``sweep_battles`` (value, battle, seed, winner, rounds, reason) and ``sweep_units``."""
    import json

    import duckdb

    from warhost.core.replay import atomic_output

    with atomic_output(path) as temp:
        temp.unlink()  # DuckDB creates its own file
        con = duckdb.connect(str(temp))
        try:
            con.execute("CREATE TABLE sweep_meta (scenario VARCHAR, file VARCHAR, path VARCHAR, "
                        "n INTEGER, seed BIGINT, sides VARCHAR, commanders VARCHAR, "
                        "break_even DOUBLE)")
            con.execute("INSERT INTO sweep_meta VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [result.scenario, result.source, result.vary.path, result.n,
                         result.seed, json.dumps(result.sides), json.dumps(result.commanders),
                         result.break_even])
            con.execute("CREATE TABLE sweep_points (value DOUBLE, side VARCHAR, wins INTEGER, "
                        "n INTEGER, probability DOUBLE, low DOUBLE, high DOUBLE, "
                        "mean_rounds DOUBLE)")
            rows: list[list[Any]] = []
            for point in result.points:
                for side, rate in [*point.sides.items(), (None, point.draws)]:
                    rows.append([float(point.value), side, rate.wins, point.n, rate.probability,
                                 rate.low, rate.high, point.mean_rounds])
            if rows:
                con.executemany("INSERT INTO sweep_points VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            con.execute("CREATE TABLE sweep_battles (value DOUBLE, battle INTEGER, seed BIGINT, "
                        "winner VARCHAR, rounds INTEGER, reason VARCHAR)")
            con.execute("CREATE TABLE sweep_units (value DOUBLE, battle INTEGER, unit VARCHAR, "
                        "side VARCHAR, start INTEGER, survivors INTEGER, losses INTEGER, "
                        "fate VARCHAR)")
            battles: list[list[Any]] = []
            units: list[list[Any]] = []
            for point in result.points:
                for record in point.records:
                    battles.append([float(point.value), record.battle, record.seed,
                                    record.winner, record.rounds, record.reason])
                    units += [[float(point.value), record.battle, u.unit, u.side, u.start,
                               u.survivors, u.losses, u.fate] for u in record.units]
            if battles:
                con.executemany("INSERT INTO sweep_battles VALUES (?, ?, ?, ?, ?, ?)", battles)
            if units:
                con.executemany("INSERT INTO sweep_units VALUES (?, ?, ?, ?, ?, ?, ?, ?)", units)
        finally:
            con.close()


def register(app: typer.Typer) -> None:
    """Add ``warhost sweep`` to ``app``."""

    @app.command("sweep", help=SWEEP_HELP, short_help="Win probability as one number varies.")
    def sweep(
        scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
        vary: Annotated[
            str,
            typer.Option("--vary", metavar="PATH=FROM:TO:STEP",
                         help="The number to vary and its values (TO included; STEP default 1)."),
        ],
        n: Annotated[int, typer.Option("-n", min=1, help="Battles per value.")] = 500,
        seed: Annotated[
            int, typer.Option(min=0, help="Master seed (the same for every value).")
        ] = 0,
        workers: Annotated[
            int | None,
            typer.Option(min=1, help="Worker processes (default: one per CPU if the first "
                                     "battles show the sweep is long enough to pay for "
                                     "starting them, else 1)."),
        ] = None,
        commander: BatchCommanders = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
        plot: Annotated[
            Path | None,
            typer.Option("--plot", metavar="FILE", help="Draw the sweep: a .png or .svg file."),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option("--out", metavar="FILE",
                         help="Store every battle in a DuckDB file."),
        ] = None,
        force: Force = False,
    ) -> None:
        from rich.text import Text

        from warhost.commands._shared import check_output, parse_overrides, print_json
        from warhost.core.scenario import load_scenario
        from warhost.render.plots import figure_format, plot_sweep
        from warhost.sim.runner import resolve_commanders
        from warhost.sim.sweep import parse_vary, read_value, sweep_scenarios

        if plot is not None:
            figure_format(plot, "plot")
        check_output(plot, "plot", force)
        check_output(out, "out", force)
        parsed = parse_vary(vary)
        scenario = load_scenario(scenario_file)
        overrides = parse_overrides(scenario, commander or [])
        kinds = resolve_commanders(scenario, overrides)  # fails on scripted sides
        scenarios = sweep_scenarios(scenario, parsed)  # every value checked before any battle
        result = _run_with_progress(scenario, parsed, n, seed, workers, kinds, scenarios)
        if plot is not None:
            is_list = isinstance(read_value(scenario.data, parsed.path), list)
            label = f"{parsed.path} (number of items)" if is_list else parsed.path
            plot_sweep(result.points, plot, label=label, break_even=result.break_even,
                       title=f"{result.scenario} — {result.n} battles per value, "
                             f"seed {result.seed}")
        if out is not None:
            store_sweep(result, out)
        if as_json:
            print_json(result.to_json())
            return
        console = out_console()
        print_table(console, result)
        if plot is not None:
            console.print(Text(f"Plot written to {plot}"))
        if out is not None:
            console.print(Text(f"Battles stored in {out}"))


def _run_with_progress(
    scenario: Any, vary: Any, n: int, seed: int, workers: int | None,
    commanders: dict[str, str], scenarios: Any,
) -> SweepResult:
    """Run the sweep with progress on stderr: a rich bar on a terminal, else one line as
    each value finishes."""
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from warhost.sim.sweep import run_sweep

    values = list(vary.values)
    errors = out_console(stderr=True)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"),
                        TimeRemainingColumn(), console=errors, transient=True,
                        disable=not errors.is_terminal)
    started = time.monotonic()
    with progress:
        task = progress.add_task(escape(vary.path), total=n * len(values))

        def report(value: float, done: int, total: int) -> None:
            index = values.index(value)
            progress.update(task, completed=index * n + done,
                            description=escape(f"{vary.path} = {value:g}"))
            if not errors.is_terminal and done == total:
                errors.print(Text(f"{vary.path} = {value:g}: {total} battles "
                                  f"({index + 1}/{len(values)} values, "
                                  f"{time.monotonic() - started:.0f} s)"))

        return run_sweep(scenario, vary, n, seed=seed, workers=workers, commanders=commanders,
                         progress=report, scenarios=scenarios)
