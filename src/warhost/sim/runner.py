"""Monte Carlo runs: many battles of one scenario, in batches, on local worker processes or on
a Dask cluster, finished batches written to a :class:`~warhost.sim.store.ResultStore` in
one transaction every :data:`WRITE_SECONDS` at most (so the writer costs little).

Battle ``i`` is played with seed :func:`~warhost.sim.seeds.battle_seed` ``(seed, i)`` through
:func:`warhost.core.engine.run_battle` (``record=False``), so its result depends only on the
scenario, the commanders, the master seed and ``i``: never on the number of workers, the batch
sizes, or whether the run was interrupted and resumed.

How the battles run:

* ``workers=None`` (the default; no scheduler): the first battles are played in this process
  and timed (CPU time, the first battle, which warms the process up, not counted); the
  others run on a pool of one process per CPU only if one process would need clearly more
  than the pool costs to start (:data:`POOL_WORTH_SECONDS`), else here too. A pool already
  running (kept from an earlier run) is used at once. See :func:`pool_pays`.
* ``workers=1``: in this process, one battle after another.
* ``workers=K > 1``: a :class:`concurrent.futures.ProcessPoolExecutor` of K processes started
  with the ``forkserver`` method where the platform has it (else ``spawn``): the server process
  starts clean and imports warhost once, then forks each worker from it, so workers start fast
  and never inherit the threads (DuckDB, progress bar) or open files of this process; it
  preloads the modules that playing battles here has imported (a ruleset's compiled kernels).
  One batch is one task; a worker sends it back as columns (:class:`BattleColumns`), which
  this process, the only writer, inserts as they are. The pool is kept for the next run in this
  process (a sweep runs many); :func:`shutdown_workers` stops it. As with any multiprocessing
  code, a script that calls :func:`simulate` needs the ``if __name__ == "__main__":`` guard.
* ``scheduler="tcp://host:port"``: the same batches as tasks on a Dask distributed cluster
  (``pip install 'warhost[cluster]'``; the workers need warhost installed).

Batches: ``batch_size`` battles each, or by default adaptively about one second of work per
batch (longer with more than 16 workers; at most :data:`MAX_BATCH`; and smaller near the end
to keep every worker busy).

Interruptions: SIGINT (Ctrl-C), SIGTERM or SIGHUP during :func:`simulate` stops it at the next
safe point: batches already finished are written, the batches in flight are dropped, the
worker processes are stopped, and :class:`KeyboardInterrupt` is raised. A second Ctrl-C interrupts at
once. Workers ignore SIGINT, and exit by themselves within about a second if this process
dies (even by SIGKILL).
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from warhost import __version__
from warhost.core.engine import run_battle
from warhost.core.errors import WarhostError
from warhost.core.scenario import Scenario, scenario_from_data
from warhost.sim.records import BattleColumns, BattleRecord, ColumnBuilder, UnitRow
from warhost.sim.seeds import battle_seed
from warhost.sim.stats import run_summary, summarize_tallies, tally

if TYPE_CHECKING:
    from warhost.sim.store import ResultStore

__all__ = ["BattleColumns", "BattleRecord", "SimulationRun", "UnitRow", "play", "pool_pays",
           "resolve_commanders", "run_batch", "run_columns", "run_meta", "shutdown_workers",
           "simulate", "timed_batch"]

FORMAT_VERSION = 1
"""Version of the result layout (meta keys and tables); stored in every result file."""
MAX_BATCH = 1000
"""The largest adaptive batch."""
TARGET_SECONDS = 1.0
"""Adaptive batches aim at about this much work each."""
FIRST_BATCH = 4
"""Adaptive batch size until the first batch has been timed."""
WRITE_SECONDS = 2.0
"""Batches finished on workers are written (and progress reported) at most this often."""
SIMULATED_KINDS = ("ai", "random", "first")
"""Commander kinds a simulation can use (``human`` sides are played by the AI)."""
POOL_WORTH_SECONDS = 3.0
"""Without ``workers``: the pool is started only if the battles left would take one process
longer than this (starting it costs about 1.5–2 s before its workers play at full speed)."""
PROBE_SECONDS = 0.25
"""Without ``workers``: battles are timed here for about this much CPU time (after the first)."""


def pool_pays(per_battle: float, battles: int) -> bool:
    """Whether ``battles`` more battles of ``per_battle`` CPU seconds each are worth starting
    the worker pool: one process would need more than :data:`POOL_WORTH_SECONDS`."""
    return per_battle * battles > POOL_WORTH_SECONDS


_probe_clock: Callable[[], float] = time.thread_time
"""The clock that times the first battles (this thread's CPU time; tests replace it)."""


# --------------------------------------------------------------------------- one batch


def scenario_digest(data: Any) -> str:
    """SHA-256 of the scenario data as canonical JSON (sorted keys): the run's identity."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_SCENARIOS: OrderedDict[tuple[str, str], Scenario] = OrderedDict()
_SCENARIO_CACHE_SIZE = 16


def _scenario(scenario_data: dict[str, Any], source: str) -> Scenario:
    """The validated scenario for this data, built once per process (a small LRU cache)."""
    key = (source, scenario_digest(scenario_data))
    found = _SCENARIOS.get(key)
    if found is None:
        found = scenario_from_data(scenario_data, source)
        _SCENARIOS[key] = found
        while len(_SCENARIOS) > _SCENARIO_CACHE_SIZE:
            _SCENARIOS.popitem(last=False)
    else:
        _SCENARIOS.move_to_end(key)
    return found


def play(scenario: Scenario, index: int, master: int, commanders: Mapping[str, str]) -> BattleRecord:
    """Play battle ``index`` of the run with master seed ``master``."""
    builder = ColumnBuilder()
    _play_into(builder, scenario, index, master, commanders)
    return builder.finish().records()[0]


def _play_into(builder: ColumnBuilder, scenario: Scenario, index: int, master: int,
               commanders: Mapping[str, str]) -> None:
    """Play battle ``index`` and add its outcome to ``builder``."""
    seed = battle_seed(master, index)
    outcome = run_battle(scenario, seed, dict(commanders), record=False).outcome
    builder.add(index, seed, outcome.winner, int(outcome.rounds), outcome.reason,
                [(str(side), int(score)) for side, score in outcome.scores.items()],
                [(u.id, u.side, u.name, int(u.start), int(u.survivors), int(u.losses), u.fate)
                 for u in outcome.units])


def run_batch(
    scenario_data: dict[str, Any],
    source: str,
    indices: list[int],
    master: int,
    commanders: dict[str, str],
) -> list[BattleRecord]:
    """Play the battles ``indices`` of a run (pure and picklable: runs in any process).

    The scenario is rebuilt from its plain data (and cached per process); ``commanders`` maps
    every side to a kind (``ai``, ``random``, ``first``).
    """
    return run_columns(scenario_data, source, indices, master, commanders).records()


def run_columns(
    scenario_data: dict[str, Any],
    source: str,
    indices: list[int],
    master: int,
    commanders: dict[str, str],
) -> BattleColumns:
    """:func:`run_batch`, the battles as columns (what a worker sends back)."""
    scenario = _scenario(scenario_data, source)
    builder = ColumnBuilder()
    for index in indices:
        _play_into(builder, scenario, index, master, commanders)
    return builder.finish()


def timed_batch(
    scenario_data: dict[str, Any],
    source: str,
    indices: list[int],
    master: int,
    commanders: dict[str, str],
) -> tuple[BattleColumns, float]:
    """:func:`run_columns`, and the seconds it took (for adaptive batch sizes)."""
    started = time.perf_counter()
    columns = run_columns(scenario_data, source, indices, master, commanders)
    return columns, time.perf_counter() - started


# --------------------------------------------------------------------------- run identity


def resolve_commanders(
    scenario: Scenario, overrides: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The commander kind of every side: the override, else the scenario's choice.

    ``human`` sides are played by the AI; ``scripted`` ones cannot be simulated.
    """
    ruleset = scenario.ruleset
    sides = ruleset.side_names(scenario.model)
    kinds = ruleset.commander_kinds(scenario.model)
    for side in overrides or {}:
        if side not in sides:
            raise WarhostError(f"no side named {side!r} (sides: {', '.join(sides)})",
                               field="commander")
    out: dict[str, str] = {}
    for side in sides:
        kind = (overrides or {}).get(side, kinds.get(side, "ai"))
        if kind == "human":
            kind = "ai"
        if kind not in SIMULATED_KINDS:
            hint = (" (its orders file plays one battle)" if kind == "scripted" else "")
            raise WarhostError(
                f"{side} is commanded by {kind!r}{hint}; a simulation needs "
                f"{', '.join(SIMULATED_KINDS)}: pass --commander {side}=ai", field="commander")
        out[side] = kind
    return out


def run_meta(scenario: Scenario, n: int, seed: int, commanders: Mapping[str, str]) -> dict[str, Any]:
    """What identifies a run (stored as the ``meta`` of its result file)."""
    ruleset = scenario.ruleset
    return {
        "format": "warhost-simulation",
        "format_version": FORMAT_VERSION,
        "warhost": __version__,
        "ruleset": ruleset.name,
        "ruleset_version": str(ruleset.version),
        "scenario": scenario.name,
        "source": scenario.source,
        "scenario_sha256": scenario_digest(scenario.data),
        "seed": int(seed),
        "commanders": dict(commanders),
        "n": int(n),
        "sides": list(ruleset.side_names(scenario.model)),
        "scenario_data": scenario.data,
    }


# --------------------------------------------------------------------------- the run


@dataclass
class SimulationRun:
    """A finished run. ``ran`` battles were played now, ``previously`` were in the store;
    ``workers``: the processes that played them (1: this one only; 0: none ran)."""

    meta: dict[str, Any]
    store: ResultStore | None = None
    ran: int = 0
    previously: int = 0
    seconds: float = 0.0
    workers: int = 0
    _parts: list[BattleColumns] = field(default_factory=list, repr=False)

    @property
    def n(self) -> int:
        """Battles in the run."""
        return int(self.meta["n"])

    @property
    def sides(self) -> list[str]:
        """Side names in the scenario's order."""
        return list(self.meta["sides"])

    def records(self) -> list[BattleRecord]:
        """All battles of the run, by battle index."""
        if self.store is not None:
            return self.store.records()
        return sorted(BattleColumns.concat(self._parts).records(), key=lambda r: r.battle)

    def summary(self) -> dict[str, Any]:
        """The run's summary: its identity, then :func:`warhost.sim.stats.summarize`."""
        if self.store is not None:
            return self.store.summary()
        return run_summary(self.meta, summarize_tallies(tally(self.records()), self.sides))

    @property
    def rate(self) -> float:
        """Battles per second in this session (0 when none ran)."""
        return self.ran / self.seconds if self.seconds > 0 else 0.0


def simulate(
    scenario: Scenario,
    n: int,
    *,
    seed: int,
    workers: int | None = None,
    commanders: Mapping[str, str] | None = None,
    store: ResultStore | None = None,
    resume: bool = False,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    later: int = 0,
) -> SimulationRun:
    """Run the battles ``0 .. n-1`` that are not yet in ``store`` and return the run.

    ``workers``: local processes (1 plays in this process; by default one per CPU if the run
    is long enough to pay for them, see the module docstring); ignored when ``scheduler``
    names a Dask scheduler. ``later``: battles that later runs of this process will play
    (a sweep's next values), counted when deciding whether the pool pays. ``commanders``:
    side -> kind overrides. ``store``: where finished batches are written (one transaction
    for the batches finished here or in the last :data:`WRITE_SECONDS` on workers); without
    one the records are kept in memory.
    ``resume``: the store may already hold battles of this run (it must not when ``False``:
    else :class:`WarhostError`). ``progress(done, n)`` is called at the start and after every
    write. SIGINT/SIGTERM/SIGHUP: see the module docstring.
    """
    if n < 0:
        raise WarhostError("the number of battles must not be negative", field="n")
    if seed < 0:
        raise WarhostError("the seed must not be negative", field="seed")
    if batch_size is not None and batch_size < 1:
        raise WarhostError("the batch size must be at least 1", field="batch-size")
    kinds = resolve_commanders(scenario, commanders)
    meta = run_meta(scenario, n, seed, kinds)
    done: set[int] = set()
    if store is not None:
        store.check(meta)
        done = store.done()
        if done and not resume:
            raise WarhostError(f"already holds {len(done)} battles of this run; resume it or "
                               "use another file", file=str(store.path), field="resume")
        store.set_n(n)
    todo = [i for i in range(n) if i not in done]
    run = SimulationRun(meta=meta, store=store, previously=n - len(todo))
    total = [run.previously]

    def sink(columns: BattleColumns) -> None:
        if store is not None:
            store.write(columns)
        else:
            run._parts.append(columns)
        total[0] += len(columns)
        run.ran += len(columns)
        if progress is not None:
            progress(total[0], n)

    if progress is not None:
        progress(total[0], n)
    started = time.perf_counter()
    try:
        if todo:
            with _deferred_interrupts() as stop:
                if scheduler is not None:
                    backend: _Backend = _DaskBackend(scheduler, scenario, seed, kinds)
                    run.workers = backend.slots()
                    _drive(backend, _Batcher(todo, batch_size, backend.slots()), sink, stop)
                else:
                    count = workers or os.cpu_count() or 1
                    per_battle: float | None = None
                    if workers is None and count > 1 and len(todo) > 1 and not _pool_running(
                            count):
                        played, per_battle = _probe(scenario, todo, seed, kinds, sink, stop)
                        todo = todo[played:]
                        if not pool_pays(per_battle, len(todo) + later):
                            count = 1
                    if len(todo) <= 1:
                        count = 1
                    batcher = _Batcher(todo, batch_size, count)
                    batcher.per_battle = per_battle
                    run.workers = count
                    if count <= 1:
                        _run_here(scenario, batcher, seed, kinds, sink, stop)
                    else:  # the pool starts its processes as they are needed
                        _drive(_PoolBackend(count, scenario, seed, kinds), batcher, sink, stop)
    finally:
        run.seconds = time.perf_counter() - started
    return run


# --------------------------------------------------------------------------- batching


class _Batcher:
    """Cuts the battles to do into batches: fixed size, or about TARGET_SECONDS of work."""

    def __init__(self, todo: list[int], size: int | None, slots: int) -> None:
        self.todo = todo
        self.position = 0
        self.size = size
        self.slots = max(1, slots)
        self.per_battle: float | None = None

    def take(self) -> list[int]:
        """The next batch (empty when all are handed out)."""
        left = len(self.todo) - self.position
        if left <= 0:
            return []
        if self.size is not None:
            size = self.size
        else:
            size = FIRST_BATCH
            if self.per_battle is not None:
                # many workers: longer batches, so that the writer commits at most ~16 per second
                target = TARGET_SECONDS * max(1.0, self.slots / 16)
                size = round(target / max(self.per_battle, 1e-6))
            # near the end, smaller batches keep every worker busy
            size = max(1, min(size, MAX_BATCH, math.ceil(left / (2 * self.slots))))
        batch = self.todo[self.position:self.position + size]
        self.position += len(batch)
        return batch

    def left(self) -> int:
        """Battles not yet handed out."""
        return len(self.todo) - self.position

    def observe(self, battles: int, seconds: float) -> None:
        """A batch of ``battles`` took ``seconds`` of worker time."""
        if battles <= 0:
            return
        each = seconds / battles
        self.per_battle = each if self.per_battle is None else 0.7 * self.per_battle + 0.3 * each


@contextmanager
def _deferred_interrupts() -> Iterator[threading.Event]:
    """Turn SIGINT/SIGTERM/SIGHUP into a flag checked at safe points (main thread only).

    A second signal while the flag is set raises KeyboardInterrupt at once.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous: dict[signal.Signals, Any] = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            previous[sig] = signal.signal(sig, handler)
    try:
        yield stop
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)


def _probe(
    scenario: Scenario,
    todo: list[int],
    master: int,
    commanders: dict[str, str],
    sink: Callable[[BattleColumns], None],
    stop: threading.Event,
) -> tuple[int, float]:
    """Play the first battles of ``todo`` here to learn their CPU time each: the first (it
    warms the process up: imports, compiled code) is not counted, then battles for about
    :data:`PROBE_SECONDS`. Returns the battles played and the seconds per battle."""
    builder = ColumnBuilder()
    played, per_battle = 0, 0.0
    clock = _probe_clock
    try:
        started = clock()
        warm = started
        for index in todo:
            if stop.is_set():  # battles finished so far are still written
                raise KeyboardInterrupt
            _play_into(builder, scenario, index, master, commanders)
            played += 1
            now = clock()
            if played == 1:
                warm = now
                per_battle = now - started  # warm-up included: an upper bound
                if per_battle >= POOL_WORTH_SECONDS:
                    break  # clearly long battles
                continue
            per_battle = (now - warm) / (played - 1)
            if now - warm >= PROBE_SECONDS:
                break
    finally:
        if played:
            sink(builder.finish())
    return played, per_battle


def _run_here(
    scenario: Scenario,
    batcher: _Batcher,
    master: int,
    commanders: dict[str, str],
    sink: Callable[[BattleColumns], None],
    stop: threading.Event,
) -> None:
    """Play the battles in this process; an interruption keeps the battles finished."""
    while batch := batcher.take():
        builder = ColumnBuilder()
        played = 0
        started = time.perf_counter()
        try:
            for index in batch:
                if stop.is_set():  # battles finished so far are still written
                    raise KeyboardInterrupt
                _play_into(builder, scenario, index, master, commanders)
                played += 1
        finally:
            if played:
                sink(builder.finish())
        batcher.observe(played, time.perf_counter() - started)


class _Backend(Protocol):
    """Somewhere batches run: a local process pool or a Dask cluster."""

    def slots(self) -> int:
        """How many batches can run at once."""

    def submit(self, indices: list[int]) -> Any:
        """Start a batch; return its future."""

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        """(done, still pending) after at most ``timeout`` seconds."""

    def result(self, future: Any) -> tuple[BattleColumns, float]:
        """A finished batch's battles and seconds."""

    def abort(self, pending: set[Any]) -> None:
        """Drop the batches in flight and stop the workers."""

    def close(self) -> None:
        """Release the workers (after the last result)."""


def _drive(
    backend: _Backend,
    batcher: _Batcher,
    sink: Callable[[BattleColumns], None],
    stop: threading.Event,
) -> None:
    """Keep about two batches per slot in flight; hand the finished batches to ``sink``: the
    first at once, then those finished in the last :data:`WRITE_SECONDS` together, so that
    the writer's fixed cost per transaction stays small however many workers there are."""
    pending: set[Any] = set()
    unsaved: list[BattleColumns] = []
    written = -math.inf

    def flush() -> None:
        nonlocal written
        if unsaved:
            columns = BattleColumns.concat(unsaved)
            unsaved.clear()
            written = time.monotonic()
            sink(columns)

    try:
        while True:
            while len(pending) < 2 * backend.slots() and not stop.is_set():
                batch = batcher.take()
                if not batch:
                    break
                pending.add(backend.submit(batch))
            if not pending:
                break
            done, pending = backend.wait(pending, 0.2)
            for future in done:
                columns, seconds = backend.result(future)
                batcher.observe(len(columns), seconds)
                unsaved.append(columns)
            if not pending or time.monotonic() - written >= WRITE_SECONDS:
                flush()
            if stop.is_set() and (pending or batcher.left()):
                flush()  # the battles finished so far are kept
                raise KeyboardInterrupt
        flush()
    except BaseException:
        backend.abort(pending)
        raise
    backend.close()


def _start_method() -> str:
    """``forkserver`` where available (POSIX), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def _worker_init(parent: int) -> None:
    """In each worker: ignore Ctrl-C (the parent decides), and exit if the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent, os.getppid()), daemon=True).start()


def _watch_parent(parent: int, ppid: int) -> None:
    """Exit this worker within about a second after the run's process is gone."""
    while True:
        time.sleep(0.5)
        gone = os.getppid() != ppid
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            gone = True
        except OSError:
            pass
        if gone:
            os._exit(1)


_POOL: tuple[int, ProcessPoolExecutor] | None = None
_POOL_LOCK = threading.Lock()


def _preload() -> list[str]:
    """Modules the fork server imports once, so that every worker starts warm: this one,
    those of the registered rulesets, and the rulesets' modules this process has imported
    so far (playing battles here imports the compiled kernels, and numba with them)."""
    from warhost.core.registry import all_rulesets

    modules = {type(ruleset).__module__ for ruleset in all_rulesets().values()}
    modules.update(name for name in list(sys.modules) if name.startswith("warhost.rulesets."))
    return ["warhost.sim.runner", *sorted(modules)]


def _pool_running(workers: int) -> bool:
    """Whether a pool of ``workers`` processes is kept from an earlier run."""
    with _POOL_LOCK:
        return _POOL is not None and _POOL[0] == workers


def _shared_pool(workers: int) -> ProcessPoolExecutor:
    """The process pool of ``workers`` processes, kept between runs (a sweep runs many)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None and _POOL[0] != workers:
            _POOL[1].shutdown(wait=False, cancel_futures=True)
            _POOL = None
        if _POOL is None:
            context = multiprocessing.get_context(_start_method())
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(_preload())  # no effect once the server runs
            pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init,
                                       initargs=(os.getpid(),))
            _POOL = (workers, pool)
        return _POOL[1]


def _discard_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now (their batches in flight are lost) and forget the pool."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None and _POOL[1] is pool:
            _POOL = None
    processes = dict(getattr(pool, "_processes", None) or {})
    for process in processes.values():
        if process.is_alive():
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        process.join(timeout=2)


def shutdown_workers() -> None:
    """Stop the worker processes kept for later runs (they also stop when Python exits)."""
    global _POOL
    with _POOL_LOCK:
        found, _POOL = _POOL, None
    if found is not None:
        found[1].shutdown(wait=True, cancel_futures=True)


class _PoolBackend:
    """Batches on the local process pool."""

    def __init__(self, workers: int, scenario: Scenario, master: int,
                 commanders: dict[str, str]) -> None:
        self.workers = workers
        self.args = (scenario.data, scenario.source)
        self.master = master
        self.commanders = commanders
        self.pool = _shared_pool(workers)

    def slots(self) -> int:
        return self.workers

    def submit(self, indices: list[int]) -> Future[tuple[BattleColumns, float]]:
        return self.pool.submit(timed_batch, self.args[0], self.args[1], indices, self.master,
                                self.commanders)

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        done, still = wait_futures(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return set(done), set(still)

    def result(self, future: Any) -> tuple[BattleColumns, float]:
        columns, seconds = future.result()
        return columns, seconds

    def abort(self, pending: set[Any]) -> None:
        for future in pending:
            future.cancel()
        _discard_pool(self.pool)

    def close(self) -> None:
        """Nothing to do: the pool stays for the next run."""


class _DaskBackend:
    """Batches as tasks on a Dask distributed cluster."""

    def __init__(self, address: str, scenario: Scenario, master: int,
                 commanders: dict[str, str]) -> None:
        if "://" not in address:
            raise WarhostError(f"expected an address like tcp://HOST:PORT, got {address!r}",
                               field="scheduler")
        try:
            import distributed as dask_distributed
        except ImportError:
            raise WarhostError("running on a cluster needs Dask: pip install 'warhost[cluster]'",
                               field="scheduler") from None
        client_class: Any = dask_distributed.Client
        try:
            self.client: Any = client_class(address, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise WarhostError(f"cannot reach the Dask scheduler at {address}: {exc}",
                               field="scheduler") from None
        self.args = (scenario.data, scenario.source)
        self.master = master
        self.commanders = commanders
        self._slots = 1
        self._checked = 0.0
        self.finished: queue.Queue[Any] = queue.Queue()

    def slots(self) -> int:
        now = time.monotonic()
        if now - self._checked > 2.0:
            self._checked = now
            self._slots = max(1, sum(self.client.nthreads().values()))
        return self._slots

    def submit(self, indices: list[int]) -> Any:
        future = self.client.submit(timed_batch, self.args[0], self.args[1], indices,
                                    self.master, self.commanders, pure=False)
        future.add_done_callback(self.finished.put)
        return future

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        done: set[Any] = set()
        try:
            done.add(self.finished.get(timeout=timeout))
            while True:
                done.add(self.finished.get_nowait())
        except queue.Empty:
            pass
        done &= pending
        return done, pending - done

    def result(self, future: Any) -> tuple[BattleColumns, float]:
        columns, seconds = future.result()
        future.release()
        return columns, seconds

    def abort(self, pending: set[Any]) -> None:
        try:
            if pending:
                self.client.cancel(list(pending))
        finally:
            self.client.close()

    def close(self) -> None:
        self.client.close()
