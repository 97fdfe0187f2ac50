"""``warhost simulate``: many battles of one scenario into a result database, with each
side's win probability. Its summary printer and plotter serve ``warhost results`` too."""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Self

import typer

from warhost.cli_options import BatchCommanders

from warhost.commands._shared import out_console

if TYPE_CHECKING:
    from rich.console import Console


def paragraphs(text: str) -> str:
    """Help text with each paragraph on one line, so that the terminal width wraps it."""
    return "\n\n".join(" ".join(part.split()) for part in text.split("\n\n"))


SIMULATE_HELP = """Run N battles of a scenario and show each side's win probability.

Every battle is stored in a DuckDB file (default: beside SCENARIO, its stem + .sim.duckdb;
--out FILE.parquet runs into FILE.parquet.duckdb and exports the Parquet file at the end).
Battle i always gets the same seed from --seed and i, so the same scenario, -n and --seed
give the same battles however many workers ran them and however often the run was
interrupted.

An interrupted run (Ctrl-C: exit 130; or a crash) keeps every finished batch: run the same
command with --resume to finish it. An existing result file is never overwritten; --resume
continues it only if it holds the same run (scenario, seed, commanders, ruleset and warhost
versions), and may raise -n.

--scheduler tcp://HOST:PORT runs the batches on a Dask cluster instead of local processes
(--workers is then ignored; needs the "cluster" extra of warhost, and warhost on the
workers)."""

DUCKDB_SUFFIXES = (".duckdb", ".db")


# --------------------------------------------------------------------------- output


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:.1f}%"


def _interval(interval: Any) -> str:
    low, high = interval
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def _num(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def print_run_summary(console: Console, summary: Mapping[str, Any], file: str | None = None) -> None:
    """The summary as rich tables: outcome per side, rounds, and each unit's fate."""
    from rich.table import Table
    from rich.text import Text

    commanders = summary.get("commanders") or {}
    who = ", ".join(f"{side}={kind}" for side, kind in commanders.items())
    n = summary.get("n", summary.get("battles"))
    title = (f"{summary.get('scenario')}: {summary.get('battles')} battles"
             + (f" of {n}" if n is not None and n != summary.get("battles") else "")
             + f", seed {summary.get('seed')} ({summary.get('ruleset')}; {who})")
    outcome = Table(title=title)
    for name in ("Outcome", "Probability", "95% interval", "Score mean", "Score sd"):
        outcome.add_column(name, justify="left" if name == "Outcome" else "right")
    for side, entry in (summary.get("sides") or {}).items():
        score = entry.get("score") or {}
        outcome.add_row(f"{side} wins", _pct(entry.get("win_probability")),
                        _interval(entry["interval"]), _num(score.get("mean")),
                        _num(score.get("sd")))
    draws = summary.get("draws") or {}
    outcome.add_row("Draw", _pct(draws.get("rate")), _interval(draws.get("interval", (0, 1))),
                    "", "")
    console.print(outcome)
    rounds = summary.get("rounds") or {}
    console.print(Text(
        f"Rounds: mean {_num(rounds.get('mean'))}, sd {_num(rounds.get('sd'))}, "
        f"5th percentile {_num(rounds.get('p5'), 1)}, median {_num(rounds.get('p50'), 1)}, "
        f"95th percentile {_num(rounds.get('p95'), 1)}"))
    units = Table(title="Units", caption="Survival: share of battles the unit ends with "
                  "strength left; mean survivors: its mean surviving strength.")
    for name in ("Side", "Unit", "Name", "Start", "Survival", "Mean survivors"):
        units.add_column(name, justify="right" if name in (
            "Start", "Survival", "Mean survivors") else "left")
    for unit in summary.get("units") or []:
        units.add_row(str(unit.get("side")), str(unit.get("unit")), str(unit.get("name")),
                      _num(unit.get("start")), _pct(unit.get("survival_rate")),
                      _num(unit.get("mean_survivors")))
    console.print(units)
    if file is not None:
        console.print(Text(f"Results in {file}"))


def dump_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


class _Progress:
    """Battles done, battles per second and time left, on stderr: a rich progress bar on a
    terminal, else a plain line every few seconds (and after the first batch)."""

    INTERVAL = 2.0

    def __init__(self, console: Console, label: str) -> None:
        self.console = console
        self.label = label
        self.started = time.monotonic()
        self.first: int | None = None
        self.last_line = 0.0
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Self:
        if self.console.is_terminal:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                TextColumn("left"), TimeRemainingColumn(), console=self.console,
                transient=True)
            self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)

    def rate(self, done: int) -> float:
        """Battles per second since the start (of this session)."""
        elapsed = time.monotonic() - self.started
        return (done - (self.first or 0)) / elapsed if elapsed > 0 else 0.0

    def __call__(self, done: int, total: int) -> None:
        if self.first is None:
            self.first = done
            self.started = time.monotonic()
        rate = self.rate(done)
        if self.bar is not None:
            if self.task is None:
                self.task = self.bar.add_task(self.label, total=total, completed=done,
                                              rate="")
            self.bar.update(self.task, completed=done,
                            rate=f"{rate:.1f} battles/s" if done > self.first else "")
            return
        now = time.monotonic()
        if done == self.first or (now - self.last_line < self.INTERVAL and done < total):
            return
        self.last_line = now
        left = f", {(total - done) / rate:.0f} s left" if rate > 0 else ""
        self.console.print(f"{self.label}: {done}/{total} battles ({rate:.1f} battles/s{left})",
                           highlight=False, soft_wrap=True)


# --------------------------------------------------------------------------- helpers


def _work_file(out: Path) -> tuple[Path, Path | None]:
    """The database to run into, and the Parquet file to export at the end (if any)."""
    suffix = out.suffix.lower()
    if suffix == ".parquet":
        return out.with_name(out.name + ".duckdb"), out
    if suffix in DUCKDB_SUFFIXES:
        return out, None
    from warhost.core.errors import WarhostError

    raise WarhostError(f"cannot tell the format from {out.name!r}: use a .duckdb or .parquet "
                       "name", field="out")


def plotter(plot: Path | None, force: bool = False) -> Callable[[Any, Any, Path], None] | None:
    """``plot_summary``, imported now so that a missing plotting module (or a plot file that
    exists, unless ``force``) fails before the run."""
    if plot is None:
        return None
    from warhost.commands._shared import check_output
    from warhost.core.errors import WarhostError

    try:  # through sys.modules, so a missing or replaced module is seen
        plots = importlib.import_module("warhost.render.plots")
    except ImportError as exc:
        raise WarhostError(f"plots are not available: {exc} (is matplotlib installed?)",
                           field="plot") from None
    check = getattr(plots, "figure_format", None)
    if check is not None:
        check(plot, "plot")
    check_output(plot, "plot", force)
    draw: Callable[[Any, Any, Path], None] = plots.plot_summary
    return draw


# --------------------------------------------------------------------------- commands


def register(app: typer.Typer) -> None:
    """Add ``warhost simulate`` to ``app``."""

    @app.command("simulate", help=paragraphs(SIMULATE_HELP), short_help="Run N battles; win probabilities.")
    def simulate_command(
        scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
        n: Annotated[int, typer.Option("-n", min=1, help="Battles to run.")] = 1000,
        seed: Annotated[int, typer.Option(min=0, help="Master seed.")] = 0,
        workers: Annotated[
            int | None,
            typer.Option(min=1, help="Worker processes (1: in this process; default: one "
                                     "per CPU if the first battles show the run is long "
                                     "enough to pay for starting them, else 1)."),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option("--out", metavar="FILE",
                         help="Result file: .duckdb, or .parquet (default: beside the "
                              "scenario, <stem>.sim.duckdb)."),
        ] = None,
        resume: Annotated[
            bool, typer.Option("--resume", help="Continue (or show) the run in --out.")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
        plot: Annotated[
            Path | None, typer.Option("--plot", metavar="FILE", help="Draw the results (.png or .svg).")
        ] = None,
        commander: BatchCommanders = None,
        batch_size: Annotated[
            int | None,
            typer.Option("--batch-size", min=1,
                         help="Battles per batch (default: about one second of work)."),
        ] = None,
        scheduler: Annotated[
            str | None,
            typer.Option("--scheduler", metavar="tcp://HOST:PORT",
                         help="Run on this Dask scheduler instead of local processes."),
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help="Overwrite the --plot file if it exists.")
        ] = False,
    ) -> None:
        from rich.text import Text

        from warhost.commands._shared import EXIT_INTERRUPTED, check_output, parse_overrides
        from warhost.core.errors import WarhostError
        from warhost.core.scenario import load_scenario
        from warhost.sim.runner import resolve_commanders, run_meta, simulate
        from warhost.sim.store import ResultStore

        draw = plotter(plot, force)
        scenario = load_scenario(scenario_file)
        kinds = resolve_commanders(scenario, parse_overrides(scenario, commander or []))
        target = out if out is not None else scenario_file.with_name(
            f"{scenario_file.stem}.sim.duckdb")
        work, parquet = _work_file(target)
        check_output(target, "out", force=True)  # the result store never overwrites a run
        if parquet is not None and parquet.exists() and not work.exists():
            raise WarhostError(f"exists, and is not the export of a run in {work.name}: pass "
                               "another --out (it is never overwritten)", file=str(parquet),
                               field="out")
        errors = out_console(stderr=True)
        with ExitStack() as stack:
            store = stack.enter_context(
                ResultStore.open(work, run_meta(scenario, n, seed, kinds), resume))
            try:
                with _Progress(errors, f"{scenario.name}") as progress:
                    run = simulate(scenario, n, seed=seed, workers=workers, commanders=kinds,
                                   store=store, resume=resume, scheduler=scheduler,
                                   batch_size=batch_size, progress=progress)
            except KeyboardInterrupt:
                saved = store.count()
                errors.print(f"interrupted: {saved} of {n} battles are saved in {work}; run "
                             "the same command with --resume to finish")
                raise typer.Exit(EXIT_INTERRUPTED) from None
            summary = run.summary()
            if parquet is not None:
                store.export_parquet(parquet)
            if draw is not None and plot is not None:
                draw(summary, run.records(), plot)
        document = {"file": str(target), "n": n, "complete": summary["battles"] == n,
                    **summary,
                    "timing": {"ran": run.ran, "previously": run.previously,
                               "workers": run.workers,
                               "seconds": round(run.seconds, 3),
                               "battles_per_second": round(run.rate, 2)}}
        if as_json:
            dump_json(document)
            return
        console = out_console()
        print_run_summary(console, document)
        console.print(Text(
            f"Results in {target}" + (f" (run in {work})" if parquet is not None else "")
            + (f"; {run.ran} battles run now at {run.rate:.1f} battles/s" if run.ran else "")))
        if plot is not None:
            console.print(Text(f"Plot written to {plot}"))


__all__ = ["dump_json", "paragraphs", "plotter", "print_run_summary", "register"]
