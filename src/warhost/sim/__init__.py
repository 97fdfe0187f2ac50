"""Monte Carlo simulation: many battles of one scenario, their results in a database, and
their statistics.

* :mod:`warhost.sim.seeds`: battle ``i``'s seed from the master seed.
* :mod:`warhost.sim.runner`: :func:`simulate` and :func:`run_batch` (local processes or Dask).
* :mod:`warhost.sim.store`: :class:`ResultStore`, the DuckDB result file.
* :mod:`warhost.sim.stats`: :func:`summarize`, :func:`wilson`.

Example:
    >>> from warhost import load_scenario
    >>> from warhost.sim import simulate
    >>> s = load_scenario("examples/fantasy-battle/skirmish.yaml")  # doctest: +SKIP
    >>> run = simulate(s, 100, seed=0, commanders={"Good": "random"})  # doctest: +SKIP
    >>> run.summary()["sides"]["Good"]["win_probability"]  # doctest: +SKIP
    0.41
"""

from __future__ import annotations

from warhost.sim.runner import (
    BattleRecord,
    SimulationRun,
    UnitRow,
    resolve_commanders,
    run_batch,
    run_meta,
    shutdown_workers,
    simulate,
)
from warhost.sim.seeds import battle_seed
from warhost.sim.stats import summarize, wilson
from warhost.sim.store import ResultStore

__all__ = [
    "BattleRecord",
    "ResultStore",
    "SimulationRun",
    "UnitRow",
    "battle_seed",
    "resolve_commanders",
    "run_batch",
    "run_meta",
    "shutdown_workers",
    "simulate",
    "summarize",
    "wilson",
]
