"""Monte Carlo runs of ``warhost serve``: :func:`warhost.sim.runner.simulate` in a thread of
its own, polled for its progress; at the end the summary, the table ``warhost simulate``
prints and the plot it draws (as SVG).

Example:
    >>> from warhost.core.scenario import load_scenario  # doctest: +SKIP
    >>> runs = SimulationStore()  # doctest: +SKIP
    >>> job = runs.start(load_scenario("skirmish.yaml"), 50, 0, {})  # doctest: +SKIP
    >>> job.wait(); job.view()["finished"]  # doctest: +SKIP
    True
"""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warhost.core.errors import WarhostError
from warhost.web.sessions import Busy, NotFound

if TYPE_CHECKING:
    from warhost.core.ruleset import Scenario

MAX_BATTLES = 100_000
"""The most battles one web simulation may run."""


class _Cancelled(Exception):
    """Raised from the progress callback of a run the server stops."""


def outcome_table(summary: Mapping[str, Any]) -> list[list[str]]:
    """The outcome table ``warhost simulate`` prints, as rows of cells (the first row is the
    header): each side's win probability with its 95% interval and score, then draws."""
    from warhost.commands.simulate import _interval, _num, _pct

    rows = [["Outcome", "Probability", "95% interval", "Score mean", "Score sd"]]
    for side, entry in (summary.get("sides") or {}).items():
        score = entry.get("score") or {}
        rows.append([f"{side} wins", _pct(entry.get("win_probability")),
                     _interval(entry["interval"]), _num(score.get("mean")),
                     _num(score.get("sd"))])
    draws = summary.get("draws") or {}
    rows.append(["Draw", _pct(draws.get("rate")), _interval(draws.get("interval", (0, 1))),
                 "", ""])
    return rows


def units_table(summary: Mapping[str, Any]) -> list[list[str]]:
    """The units table ``warhost simulate`` prints, as rows of cells (header first)."""
    from warhost.commands.simulate import _num, _pct

    rows = [["Side", "Unit", "Name", "Start", "Survival", "Mean survivors"]]
    for unit in summary.get("units") or []:
        rows.append([str(unit.get("side")), str(unit.get("unit")), str(unit.get("name")),
                     _num(unit.get("start")), _pct(unit.get("survival_rate")),
                     _num(unit.get("mean_survivors"))])
    return rows


@dataclass
class Simulation:
    """One Monte Carlo run and what it has come to."""

    id: str
    scenario: Scenario
    n: int
    seed: int
    commanders: dict[str, str]
    done: int = 0
    finished: bool = False
    summary: dict[str, Any] | None = None
    table: list[list[str]] | None = None
    units: list[list[str]] | None = None
    plot: bytes | None = None
    error: str | None = None
    seconds: float = 0.0
    started: float = field(default_factory=time.monotonic)
    last_used: float = field(default_factory=time.monotonic)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

    def view(self) -> dict[str, Any]:
        """The run as the HTTP API reports it."""
        self.last_used = time.monotonic()
        return {
            "id": self.id, "scenario": self.scenario.name, "ruleset": self.scenario.ruleset.name,
            "n": self.n, "seed": self.seed, "commanders": dict(self.commanders),
            "done": self.done, "total": self.n, "finished": self.finished,
            "summary": self.summary, "table": self.table, "units": self.units,
            "plot": f"/api/simulations/{self.id}/plot.svg" if self.plot is not None else None,
            "seconds": round(self.seconds, 3), "error": self.error,
        }

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the run to finish; whether it has."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.finished

    def _progress(self, done: int, _total: int) -> None:
        self.done = done
        if self._stop.is_set():
            raise _Cancelled()

    def run(self, gate: threading.Semaphore) -> None:
        """Play the battles (in the run's thread), then summarize and draw."""
        from warhost.render.plots import summary_figure
        from warhost.sim.runner import simulate

        try:
            with gate:
                if self._stop.is_set():
                    raise _Cancelled()
                started = time.perf_counter()
                run = simulate(self.scenario, self.n, seed=self.seed, workers=1,
                               commanders=self.commanders, progress=self._progress)
                self.seconds = time.perf_counter() - started
                summary = run.summary()
                records = run.records()
                figure = summary_figure(summary, records)
                buffer = io.BytesIO()
                figure.savefig(buffer, format="svg")
                self.summary = summary
                self.table = outcome_table(summary)
                self.units = units_table(summary)
                self.plot = buffer.getvalue()
                self.done = self.n
        except _Cancelled:
            self.error = "the run was stopped"
        except WarhostError as exc:
            self.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - reported to the page, not lost in a thread
            self.error = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            self.finished = True

    def stop(self) -> None:
        """Ask the run to stop at its next batch."""
        self._stop.set()


class SimulationStore:
    """The server's Monte Carlo runs by id; at most ``parallel`` run at once (the others wait
    their turn), at most ``max_runs`` are kept (the oldest finished ones are dropped)."""

    def __init__(self, *, parallel: int = 1, max_runs: int = 20,
                 keep_seconds: float = 1800) -> None:
        self._runs: dict[str, Simulation] = {}
        self._lock = threading.Lock()
        self._gate = threading.Semaphore(parallel)
        self.max_runs = max_runs
        self.keep_seconds = keep_seconds

    def start(self, scenario: Scenario, n: int, seed: int,
              commanders: Mapping[str, str]) -> Simulation:
        """Start a run of ``n`` battles from ``seed`` (``commanders``: kind overrides)."""
        from warhost.sim.runner import resolve_commanders

        if not 1 <= n <= MAX_BATTLES:
            raise WarhostError(f"n must be from 1 to {MAX_BATTLES}", field="n")
        kinds = resolve_commanders(scenario, dict(commanders))
        with self._lock:
            self._drop_old()
            if len(self._runs) >= self.max_runs:
                raise Busy(f"the server holds {self.max_runs} simulations already; try again "
                           "later", field="n")
            job = Simulation(secrets.token_urlsafe(9), scenario, n, seed, dict(kinds))
            self._runs[job.id] = job
        job._thread = threading.Thread(target=job.run, args=(self._gate,), daemon=True,
                                       name=f"simulation-{job.id}")
        job._thread.start()
        return job

    def _drop_old(self) -> None:
        now = time.monotonic()
        for key, job in list(self._runs.items()):
            if job.finished and now - job.last_used > self.keep_seconds:
                del self._runs[key]
        while len(self._runs) >= self.max_runs:
            finished = [j for j in self._runs.values() if j.finished]
            if not finished:
                return
            oldest = min(finished, key=lambda j: j.last_used)
            del self._runs[oldest.id]

    def get(self, run_id: str) -> Simulation:
        """The run ``run_id``; :class:`NotFound` if none."""
        job = self._runs.get(run_id)
        if job is None:
            raise NotFound("no such simulation", field="id")
        return job

    def stop(self) -> None:
        """Stop every run (server shutdown)."""
        for job in list(self._runs.values()):
            job.stop()

    def join(self, timeout: float | None = None) -> None:
        """Wait for every run's thread to end (after :meth:`stop`), at most ``timeout``
        seconds in all."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for job in list(self._runs.values()):
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            job.wait(left)


__all__ = ["MAX_BATTLES", "Simulation", "SimulationStore", "outcome_table", "units_table"]
