"""The HTTP API and page of ``warhost serve`` (FastAPI); ``docs/web.md`` describes it.

Every battle is a :class:`~warhost.web.sessions.Session` of its own; orders and dice are
taken by sync endpoints (run in the thread pool) holding the session's lock, while the pages
poll snapshots. Errors are JSON ``{"error": {"message", "line", "field"}}`` with a 4xx code.

Example:
    >>> from fastapi.testclient import TestClient  # doctest: +SKIP
    >>> client = TestClient(create_app())  # doctest: +SKIP
    >>> client.get("/api/examples").json()[0]["id"]  # doctest: +SKIP
    'dnd35-wars/giant-and-goblins'
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException

from warhost.core.errors import (
    IllegalOrderError,
    ReplayError,
    ScenarioError,
    WarhostError,
)
from warhost.web.sessions import PERSON, Busy, Conflict, Forbidden, NotFound, SessionStore
from warhost.web.simulations import MAX_BATTLES, SimulationStore
from warhost.web.uploads import (
    TooLarge,
    load_replay_text,
    parse_scenario,
    problem_json,
    problems_of,
    replay_scenario_safely,
)

if TYPE_CHECKING:
    from warhost.core.replay import Replay
    from warhost.core.ruleset import Scenario
    from warhost.core.stepping import SteppedBattle

STATIC = Path(__file__).parent / "static"
"""The page: index.html, its scripts and style."""

MAX_SEED = 2**63 - 1
REPLAY_FACTOR = 16
"""A replay (which keeps the event log) may be this many times larger than a scenario."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# --------------------------------------------------------------------------- requests


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TextBody(_Body):
    """A scenario or replay, as text."""

    text: StrictStr


class BattleBody(_Body):
    """A new battle: a shipped example or scenario text, a seed, who commands each side."""

    example: StrictStr | None = None
    text: StrictStr | None = None
    seed: Annotated[StrictInt | None, Field(ge=0, le=MAX_SEED)] = None
    commanders: dict[StrictStr, StrictStr] = Field(default_factory=dict)
    manual_dice: bool = False


class OrderBody(_Body):
    """An order: its text or the index of a listed option."""

    seat: StrictStr | None = None
    order: StrictStr | StrictInt


class DiceBody(_Body):
    """The faces of the real dice, e.g. ``"3 5"``."""

    seat: StrictStr | None = None
    faces: StrictStr | list[StrictInt]


class SimulationBody(_Body):
    """A Monte Carlo run of an example or scenario text."""

    example: StrictStr | None = None
    text: StrictStr | None = None
    n: Annotated[StrictInt, Field(ge=1, le=MAX_BATTLES)] = 1000
    seed: Annotated[StrictInt | None, Field(ge=0, le=MAX_SEED)] = None
    commanders: dict[StrictStr, StrictStr] = Field(default_factory=dict)


# --------------------------------------------------------------------------- errors


class BadRequest(WarhostError):
    """A request that does not say what it wants (HTTP 400)."""


_STATUS: list[tuple[type[WarhostError], int]] = [
    (BadRequest, 400), (Forbidden, 403), (NotFound, 404), (Conflict, 409), (TooLarge, 413),
    (Busy, 503),
]


def _status(error: WarhostError) -> int:
    for kind, code in _STATUS:
        if isinstance(error, kind):
            return code
    return 422


def error_body(error: WarhostError) -> dict[str, Any]:
    """An error as the API reports it (with every problem of a scenario)."""
    body: dict[str, Any] = {"error": {"message": error.message, "line": error.line,
                                      "field": error.field}}
    if isinstance(error, (ScenarioError, ReplayError)):
        body["problems"] = [problem_json(p) for p in problems_of(error)]
        body["error"]["file"] = error.file
    if isinstance(error, IllegalOrderError):
        rule = re.search(r"\(([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\)\s*$", error.message)
        body["error"]["rule"] = rule.group(1) if rule else None
    return body


def _error_response(error: WarhostError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=_status(error))


def _plain_error(status: int, message: str, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "line": None, "field": field}},
                        status_code=status)


# --------------------------------------------------------------------------- body limit


class BodyLimit:
    """Refuse request bodies larger than the limit with 413 before the app reads them (by
    their Content-Length, else while they stream in)."""

    def __init__(self, app: ASGIApp, limit: Callable[[str], int]) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.limit(str(scope.get("path", "")))
        for name, value in scope.get("headers") or []:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > limit:
                    await self._refuse(scope, receive, send, limit)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, receive, send, limit)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body"))
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = _plain_error(413, f"the request is larger than {limit} bytes", "text")
        await response(scope, receive, send)


# --------------------------------------------------------------------------- examples


_finding = threading.Lock()


def examples() -> dict[str, tuple[str, str, Path]]:
    """Every shipped example by id (``ruleset/name``): its ruleset, name and file."""
    with _finding:
        return _examples()


@lru_cache(maxsize=1)
def _examples() -> dict[str, tuple[str, str, Path]]:
    from warhost.core.registry import all_rulesets

    out: dict[str, tuple[str, str, Path]] = {}
    for name, ruleset in all_rulesets().items():
        for path in ruleset.examples():
            out[f"{name}/{path.stem}"] = (name, path.stem, path)
    return out


@lru_cache(maxsize=64)
def example_scenario(example_id: str) -> Scenario:
    """The scenario of a shipped example (read from the server's own files)."""
    from warhost.core.scenario import load_scenario

    entry = examples().get(example_id)
    if entry is None:
        raise NotFound(f"no shipped example {example_id!r}", field="example")
    return load_scenario(entry[2])


_listing = threading.Lock()


def example_list() -> list[dict[str, Any]]:
    """Every shipped example with its ruleset, name, title, sides and commanders (read once,
    by the first caller; the server reads them in the background as it starts)."""
    with _listing:
        return [dict(entry) for entry in _example_list()]


@lru_cache(maxsize=1)
def _example_list() -> tuple[dict[str, Any], ...]:
    out = []
    for example_id, (ruleset, name, _path) in examples().items():
        scenario = example_scenario(example_id)
        out.append({"id": example_id, "ruleset": ruleset, "name": name, "title": scenario.name,
                    "sides": scenario.ruleset.side_names(scenario.model),
                    "commanders": scenario.ruleset.commander_kinds(scenario.model)})
    return tuple(out)


def _scenario_of(example: str | None, text: str | None, max_upload: int) -> Scenario:
    if (example is None) == (text is None):
        raise BadRequest("give either an example id or the scenario's text", field="example")
    if example is not None:
        return example_scenario(example)
    assert text is not None
    return parse_scenario(text, max_upload)


# --------------------------------------------------------------------------- the app


def create_app(*, idle_seconds: float = 1800, max_battles: int = 100,
               max_upload: int = 256_000) -> FastAPI:
    """The ``warhost serve`` application: battles closed after ``idle_seconds`` without use,
    at most ``max_battles`` at once, scenario uploads of at most ``max_upload`` bytes
    (replays, which keep their event log: sixteen times that)."""
    from warhost.core.registry import all_rulesets

    all_rulesets()  # now, in one thread: the registry is not safe to fill from two at once
    examples()
    sessions = SessionStore(idle_seconds=idle_seconds, max_battles=max_battles)
    simulations = SimulationStore()
    max_replay = max_upload * REPLAY_FACTOR

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        sessions.start_reaper()
        warm = threading.Thread(target=example_list, name="warhost-examples", daemon=True)
        warm.start()
        try:
            yield
        finally:
            simulations.stop()
            sessions.stop()
            warm.join(timeout=60)  # a thread killed inside a library at exit aborts Python
            simulations.join(timeout=60)

    app = FastAPI(
        title="warhost",
        summary="Play and watch fantasy mass battles in the browser.",
        description="The HTTP API of `warhost serve` (see docs/web.md).",
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    app.state.simulations = simulations
    app.state.max_upload = max_upload

    def limit(path: str) -> int:
        return 2 * (max_replay if path.startswith("/api/replays") else max_upload) + 65_536

    app.add_middleware(BodyLimit, limit=limit)  # type: ignore[arg-type]

    @app.exception_handler(WarhostError)
    async def _warhost_error(_request: Request, exc: WarhostError) -> JSONResponse:
        return _error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
        field = ".".join(loc) or None
        message = str(first.get("msg", "bad request"))
        if first.get("type") == "json_invalid":
            message = "the request body is not valid JSON"
        return JSONResponse({"error": {"message": message, "line": None, "field": field}},
                            status_code=400)

    @app.exception_handler(Exception)
    async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
        return _plain_error(500, f"internal error: {type(exc).__name__}: {exc} (a bug in "
                                 "warhost: please report it)")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _plain_error(exc.status_code, str(exc.detail))

    # ------------------------------------------------------------------ the page

    def _page() -> Response:
        index = STATIC / "index.html"
        if not index.is_file():
            return HTMLResponse("<!doctype html><title>warhost</title><p>The page is not "
                                "installed; the API is at <a href='/docs'>/docs</a>.</p>")
        return FileResponse(index, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def page() -> Response:
        return _page()

    @app.get("/battle/{battle_id}", include_in_schema=False)
    def battle_page(battle_id: str) -> Response:
        return _page()

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    # ------------------------------------------------------------------ scenarios

    @app.get("/api/examples", tags=["scenarios"])
    def list_examples() -> list[dict[str, Any]]:
        """The shipped example scenarios."""
        return example_list()

    @app.get("/api/examples/{ruleset}/{name}", tags=["scenarios"])
    def get_example(ruleset: str, name: str) -> dict[str, Any]:
        """One example's YAML text."""
        entry = examples().get(f"{ruleset}/{name}")
        if entry is None:
            raise NotFound(f"no shipped example {ruleset + '/' + name!r}", field="example")
        return {"id": f"{ruleset}/{name}", "ruleset": ruleset, "name": name,
                "text": entry[2].read_text(encoding="utf-8")}

    @app.post("/api/scenarios/check", tags=["scenarios"], response_model=None)
    def check_scenario(body: TextBody) -> dict[str, Any] | JSONResponse:
        """Validate scenario text; every problem as ``warhost validate`` names it."""
        try:
            scenario = parse_scenario(body.text, max_upload)
        except TooLarge:
            raise
        except WarhostError as exc:
            return JSONResponse({"ok": False, **error_body(exc),
                                 "problems": [problem_json(p) for p in problems_of(exc)]},
                                status_code=422)
        return {"ok": True, "ruleset": scenario.ruleset.name, "name": scenario.name,
                "sides": scenario.ruleset.side_names(scenario.model),
                "commanders": scenario.ruleset.commander_kinds(scenario.model)}

    # ------------------------------------------------------------------ battles

    def _created(session_id: str, seats: dict[str, str], view: dict[str, Any]) -> dict[str, Any]:
        return {"id": session_id, "seats": seats,
                "links": {side: f"/battle/{session_id}?seat={token}"
                          for side, token in seats.items()},
                "watch": f"/battle/{session_id}", "battle": view}

    @app.post("/api/battles", tags=["battles"], status_code=201)
    def create_battle(body: BattleBody) -> dict[str, Any]:
        """Start a battle; returns a join link per person-commanded side and a watch link."""
        scenario = _scenario_of(body.example, body.text, max_upload)
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        sessions.start_reaper()
        session = sessions.create(scenario, seed, body.commanders, manual_dice=body.manual_dice)
        return _created(session.id, dict(session.seats), session.view(None))

    @app.get("/api/battles/{battle_id}", tags=["battles"])
    def get_battle(battle_id: str, seat: str | None = None) -> dict[str, Any]:
        """The battle now, as the seat (or a watcher) sees it."""
        return sessions.get(battle_id).view(seat)

    @app.get("/api/battles/{battle_id}/events", tags=["battles"])
    def get_events(battle_id: str,
                   since: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
        """The events since ``since`` and their narrated lines."""
        session = sessions.get(battle_id)
        total = session.snapshot["events"]
        return {"events": session.events(since), "lines": session.lines(since, total),
                "total": total}

    @app.get("/api/battles/{battle_id}/frames", tags=["battles"])
    def get_frames(battle_id: str) -> list[dict[str, Any]]:
        """Every frame kept (start, round ends, questions), without maps."""
        return sessions.get(battle_id).frames()

    @app.get("/api/battles/{battle_id}/frames/{index}", tags=["battles"])
    def get_frame(battle_id: str, index: int) -> dict[str, Any]:
        """One frame with its map view (-1: the last)."""
        return sessions.get(battle_id).frame(index)

    def _stepped(session_id: str, seat: str | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        session = sessions.get(session_id)
        start = session.snapshot["events"] - len(events)
        return {"events": events, "lines": session.lines(start), "battle": session.view(seat)}

    @app.post("/api/battles/{battle_id}/orders", tags=["battles"])
    def give_order(battle_id: str, body: OrderBody) -> dict[str, Any]:
        """Give the order the battle waits for from the seat's side (its text or index)."""
        session = sessions.get(battle_id)
        events = session.order(body.seat, body.order)
        return _stepped(battle_id, body.seat, events)

    @app.post("/api/battles/{battle_id}/dice", tags=["battles"])
    def give_dice(battle_id: str, body: DiceBody) -> dict[str, Any]:
        """Type the faces of the real dice the battle waits for."""
        session = sessions.get(battle_id)
        faces = body.faces if isinstance(body.faces, str) else " ".join(map(str, body.faces))
        events = session.dice(body.seat, faces)
        return _stepped(battle_id, body.seat, events)

    @app.get("/api/battles/{battle_id}/replay", tags=["battles"])
    def get_replay(battle_id: str) -> Response:
        """The replay document (a download)."""
        from warhost.core.replay import dumps_replay

        session = sessions.get(battle_id)
        text = dumps_replay(session.replay())
        slug = re.sub(r"[^A-Za-z0-9]+", "-", session.scenario.name).strip("-").lower()
        name = f"{slug or 'battle'}-{session.seed}.json"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"',
                                 "X-Content-Type-Options": "nosniff"})

    @app.delete("/api/battles/{battle_id}", tags=["battles"])
    def delete_battle(battle_id: str, seat: str | None = None) -> dict[str, Any]:
        """Close a battle and free its thread."""
        sessions.delete(battle_id, seat)
        return {"id": battle_id, "closed": True}

    @app.post("/api/replays", tags=["battles"], status_code=201)
    def load_replay(body: TextBody) -> dict[str, Any]:
        """Re-run a saved replay into a new, finished battle to watch."""
        replay = load_replay_text(body.text, max_replay)
        scenario = replay_scenario_safely(replay)
        sessions.start_reaper()
        session = sessions.create(scenario, replay.seed, {}, replayed=True,
                                  build=lambda s, seed, _o, _p: _rerun(replay, s))
        session.commanders = dict(replay.commanders)
        reproduced = _reproduces(replay, session.battle)
        return {"id": session.id, "watch": f"/battle/{session.id}", "reproduced": reproduced,
                "battle": session.view(None)}

    # ------------------------------------------------------------------ simulations

    @app.post("/api/simulations", tags=["simulations"], status_code=201)
    def start_simulation(body: SimulationBody) -> dict[str, Any]:
        """Start a Monte Carlo run; poll it for its progress and results."""
        scenario = _scenario_of(body.example, body.text, max_upload)
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        kinds = {side: ("ai" if kind == PERSON else kind)
                 for side, kind in body.commanders.items()}
        job = simulations.start(scenario, body.n, seed, kinds)
        return {"id": job.id, **job.view()}

    @app.get("/api/simulations/{run_id}", tags=["simulations"])
    def get_simulation(run_id: str) -> dict[str, Any]:
        """A run's progress, then its summary, table and plot."""
        return simulations.get(run_id).view()

    @app.get("/api/simulations/{run_id}/plot.svg", tags=["simulations"])
    def get_plot(run_id: str) -> Response:
        """The run's plot (SVG)."""
        job = simulations.get(run_id)
        if job.plot is None:
            raise Conflict("the run has no plot yet" if not job.finished
                           else "the run ended without results", field="plot")
        return Response(job.plot, media_type="image/svg+xml",
                        headers={"Content-Security-Policy": "default-src 'none'; "
                                                            "style-src 'unsafe-inline'",
                                 "X-Content-Type-Options": "nosniff"})

    return app


# --------------------------------------------------------------------------- replays


def _rerun(replay: Replay, scenario: Scenario) -> SteppedBattle:
    """The replay's battle played again (every side by its recorded decisions, the typed
    dice handed out again), to its end."""
    from warhost.core.replay import replay_commanders
    from warhost.core.stepping import SteppedBattle

    manual = replay.dice is not None
    battle = SteppedBattle(scenario, replay.seed, replay_commanders(replay, scenario),
                           manual_dice=manual)
    faces = list(replay.dice or [])
    try:
        while not battle.over:
            question = battle.question
            assert question is not None
            if question.what != "dice":
                raise ReplayError("the recorded decisions end before the battle does",
                                  field="decisions")
            count = question.dice[0]
            if len(faces) < count:
                raise ReplayError("the recorded dice end before the battle does", field="dice")
            battle.roll(faces[:count])
            faces = faces[count:]
    except BaseException:
        battle.close()
        raise
    return battle


def _reproduces(replay: Replay, battle: SteppedBattle) -> bool:
    from warhost.core.replay import compare

    return battle.result is not None and compare(replay, battle.result) is None


__all__ = ["BodyLimit", "create_app", "error_body", "example_list", "example_scenario",
           "examples"]
