"""Battle sessions of ``warhost serve``: each battle lives in its own :class:`Session` (its
:class:`~warhost.core.stepping.SteppedBattle` and worker thread, its seat tokens, its lock),
kept in a :class:`SessionStore` that closes sessions left idle and frees their threads.

Only the thread holding a session's lock drives its battle (an order, dice). Readers (the
pages polling the battle) read the session's *snapshot*, taken under the lock after each
step, and the event log and frames up to the counts it gives, so they never see a battle in
the middle of a move nor wait for the AI to think.

Example:
    >>> from warhost.core.scenario import load_scenario  # doctest: +SKIP
    >>> store = SessionStore(idle_seconds=60)  # doctest: +SKIP
    >>> s = store.create(load_scenario("skirmish.yaml"), 7, {"Good": "person"})  # doctest: +SKIP
    >>> s.order(s.seats["Good"], 0)  # doctest: +SKIP
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warhost.core.errors import WarhostError

if TYPE_CHECKING:
    from warhost.core.ruleset import Scenario
    from warhost.core.stepping import SteppedBattle

PERSON = "person"
"""The commander kind of a side played through the web page (a seat with a token)."""

KINDS = (PERSON, "ai", "random")
"""The commander kinds a web battle offers per side."""


class NotFound(WarhostError):
    """No battle (or simulation) with that id (HTTP 404)."""


class Forbidden(WarhostError):
    """A missing or wrong seat token, or the other side's (HTTP 403)."""


class Conflict(WarhostError):
    """The battle does not wait for that: it is over, or waits for dice, or for the other
    side (HTTP 409)."""


class Busy(WarhostError):
    """The server holds as many battles as it may, all still being played (HTTP 503)."""


@dataclass
class Session:
    """One battle on the server: who may command which side, and the battle itself."""

    id: str
    battle: SteppedBattle
    scenario: Scenario
    seed: int
    commanders: dict[str, str]
    """Each side's commander kind (``person`` for the seats)."""
    seats: dict[str, str]
    """The token of each person-commanded side."""
    replayed: bool = False
    """A battle re-run from a replay (only to watch)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    last_used: float = field(default_factory=time.monotonic)
    snapshot: dict[str, Any] = field(default_factory=dict)
    _lines: list[dict[str, Any]] = field(default_factory=list, repr=False)
    _narrated: int = 0
    _narrating: threading.Lock = field(default_factory=threading.Lock, repr=False)
    closed: bool = False

    # ------------------------------------------------------------------ reading

    @property
    def sides(self) -> list[str]:
        """The scenario's sides, in its order."""
        return list(self.scenario.ruleset.side_names(self.scenario.model))

    def seat_side(self, seat: str | None) -> str | None:
        """The side whose token ``seat`` is (None: a watcher); a token that is no seat of
        this battle is refused."""
        if seat is None or seat == "":
            return None
        for side, token in self.seats.items():
            if secrets.compare_digest(token, seat):
                return side
        raise Forbidden("this seat token is not one of this battle's", field="seat")

    def refresh(self) -> None:
        """Take a new snapshot of the battle (under :attr:`lock`, or before anyone else can
        see the session)."""
        b = self.battle
        question = b.question
        error = b.error
        self.snapshot = {
            "over": b.over,
            "winner": b.winner,
            "round": b.round,
            "events": len(b.events),
            "frames": len(b.frames),
            "question": question.to_json() if question is not None else None,
            "error": str(error) if error is not None else None,
        }

    def view(self, seat: str | None) -> dict[str, Any]:
        """The battle view for a seat (or a watcher): see ``docs/web.md``."""
        side = self.seat_side(seat)
        snap = self.snapshot
        question = snap["question"]
        yours = False
        if question is not None:
            if question["what"] == "dice":
                yours = side is not None
            else:
                yours = side is not None and question["side"] == side
            if side is None:
                question = {k: v for k, v in question.items() if k != "options"}
        return {
            "id": self.id,
            "ruleset": self.scenario.ruleset.name,
            "scenario": self.scenario.name,
            "seed": self.seed,
            "sides": self.sides,
            "commanders": dict(self.commanders),
            "persons": list(self.seats),
            "you": side,
            "over": snap["over"],
            "winner": snap["winner"],
            "round": snap["round"],
            "events": snap["events"],
            "frames": snap["frames"],
            "question": question,
            "yours": yours,
            "error": snap["error"],
            "manual_dice": self.battle.manual_dice,
            "replayed": self.replayed,
        }

    def lines(self, since: int = 0, until: int | None = None) -> list[dict[str, Any]]:
        """The narrated lines of the events ``since`` .. ``until`` (default: the snapshot's
        count): ``{"seq", "text", "round"}`` each; events worded as nothing are left out."""
        end = self.snapshot["events"] if until is None else until
        with self._narrating:
            self._narrate(end)
            return [line for line in self._lines if since <= line["seq"] < end]

    def _narrate(self, end: int) -> None:
        from warhost.render.narrative import Narrator

        events = self.battle.events
        narrator = Narrator(self.scenario.ruleset)
        current = self._lines[-1]["round"] if self._lines else 0
        for index in range(self._narrated, min(end, len(events))):
            event = events[index]
            if event.get("type") == "round_start":
                current = int(event.get("round", current))
            text = narrator.line(event)
            if text:
                self._lines.append({"seq": index, "text": text, "round": current})
        self._narrated = max(self._narrated, min(end, len(events)))

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        """The events from ``since`` up to the snapshot's count."""
        return list(self.battle.events[max(0, since):self.snapshot["events"]])

    def frames(self) -> list[dict[str, Any]]:
        """Every frame's index, event count and round (no maps)."""
        frames = self.battle.frames[:self.snapshot["frames"]]
        return [{"index": i, "events": f.events, "round": f.round} for i, f in enumerate(frames)]

    def frame(self, index: int) -> dict[str, Any]:
        """One frame with its map (``index`` -1: the last)."""
        frames = self.battle.frames[:self.snapshot["frames"]]
        if not frames:
            raise NotFound("this battle has no frames yet", field="frame")
        if index < 0:
            index += len(frames)
        if not 0 <= index < len(frames):
            raise NotFound(f"no frame {index}: the frames run from 0 to {len(frames) - 1}",
                           field="frame")
        frame = frames[index]
        return {"index": index, "events": frame.events, "round": frame.round, "map": frame.map}

    # ------------------------------------------------------------------ acting

    def order(self, seat: str | None, order: str | int) -> list[dict[str, Any]]:
        """Give the order the battle waits for from the seat's side; the new events."""
        return self._act(seat, "order", lambda: self.battle.answer(order))

    def dice(self, seat: str | None, faces: str) -> list[dict[str, Any]]:
        """Type the faces of the real dice the battle waits for; the new events."""
        return self._act(seat, "dice", lambda: self.battle.roll(faces))

    def _act(self, seat: str | None, what: str,
             step: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        side = self.seat_side(seat)
        if side is None:
            raise Forbidden("watchers cannot command: use a join link with a seat token",
                            field="seat")
        with self.lock:
            self.last_used = time.monotonic()
            if self.closed:
                raise Conflict("the battle was closed", field=what)
            question = self.battle.question
            if question is None:
                raise Conflict("the battle is over", field=what)
            if question.what != what:
                wanted = "an order" if question.what == "order" else "the faces of real dice"
                raise Conflict(f"the battle waits for {wanted} ({question.prompt})", field=what)
            if what == "order" and question.side != side:
                raise Forbidden(f"the battle waits for {question.side}'s order, and this seat "
                                f"commands {side}", field="seat")
            try:
                return step()
            finally:
                self.refresh()
                self.last_used = time.monotonic()

    def replay(self) -> dict[str, Any]:
        """The replay document of the battle (an unfinished one while it goes on)."""
        from warhost.core.replay import replay_data, unfinished_replay_data

        with self.lock:
            b = self.battle
            kinds = {side: ("human" if kind == PERSON else kind)
                     for side, kind in self.commanders.items()}
            dice = list(b.faces) if b.manual_dice else None
            if b.over and b.result is not None:
                return replay_data(b.result, self.scenario, kinds, dice=dice)
            return unfinished_replay_data(self.scenario, self.seed, kinds, b.decisions(),
                                          dice=dice)

    def close(self) -> None:
        """End the battle and free its thread."""
        self.closed = True
        self.battle.close()


class SessionStore:
    """The server's battles by id; sessions idle longer than ``idle_seconds`` are closed by
    :meth:`reap`, which a daemon thread calls (and every new battle)."""

    def __init__(self, *, idle_seconds: float = 1800, max_battles: int = 100) -> None:
        self.idle_seconds = idle_seconds
        self.max_battles = max_battles
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reaper: threading.Thread | None = None

    def __len__(self) -> int:
        return len(self.ids())

    def start_reaper(self) -> None:
        """Start the thread that closes idle sessions (once)."""
        if self._reaper is not None:
            return
        self._reaper = threading.Thread(target=self._reap_loop, name="warhost-reaper",
                                        daemon=True)
        self._reaper.start()

    def stop(self) -> None:
        """Stop the reaper and close every session."""
        self._stop.set()
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            session.close()

    def _reap_loop(self) -> None:
        interval = min(30.0, max(0.05, self.idle_seconds / 4))
        while not self._stop.wait(interval):
            self.reap()

    def reap(self, now: float | None = None) -> list[str]:
        """Close the sessions idle longer than ``idle_seconds``; their ids."""
        now = time.monotonic() if now is None else now
        with self._lock:
            idle = [s for s in self._sessions.values()
                    if s is not _placeholder and now - s.last_used > self.idle_seconds
                    and not s.lock.locked()]
            for session in idle:
                del self._sessions[session.id]
        for session in idle:
            session.close()
        return [s.id for s in idle]

    def _evict_finished(self) -> None:
        """Close the battle that ended longest ago unused, to make room (under the store's
        lock); battles still being played are never evicted."""
        ended = [s for s in self._sessions.values()
                 if s is not _placeholder and s.snapshot.get("over") and not s.lock.locked()]
        if ended:
            oldest = min(ended, key=lambda s: s.last_used)
            del self._sessions[oldest.id]
            oldest.close()

    def get(self, battle_id: str) -> Session:
        """The session ``battle_id`` (its use noted); :class:`NotFound` if none."""
        session = self._sessions.get(battle_id)
        if session is None or session is _placeholder:
            raise NotFound("no such battle (it may have ended and been closed after being "
                           "left idle)", field="id")
        session.last_used = time.monotonic()
        return session

    def create(
        self,
        scenario: Scenario,
        seed: int,
        commanders: Mapping[str, str],
        *,
        manual_dice: bool = False,
        replayed: bool = False,
        build: Callable[[Scenario, int, dict[str, Any], list[str]], SteppedBattle] | None = None,
    ) -> Session:
        """Start a battle: ``commanders`` gives a kind per side (``person``, ``ai`` or
        ``random``; sides not named keep the scenario's commander, played by the AI when it
        is ``human`` or ``scripted``). Returns once the battle first waits (or has ended)."""
        from warhost.core.stepping import SteppedBattle

        self.reap()
        sides = list(scenario.ruleset.side_names(scenario.model))
        for side, kind in commanders.items():
            if side not in sides:
                raise WarhostError(f"unknown side {side!r} (the sides are {', '.join(sides)})",
                                   field="commanders")
            if kind not in KINDS:
                raise WarhostError(f"unknown commander kind {kind!r} for {side} (use "
                                   f"{', '.join(KINDS)})", field="commanders")
        with self._lock:
            if len(self._sessions) >= self.max_battles:
                self._evict_finished()
            if len(self._sessions) >= self.max_battles:
                raise Busy(f"the server holds {self.max_battles} battles already; try again "
                           "later", field="id")
            battle_id = secrets.token_urlsafe(9)
            while battle_id in self._sessions:
                battle_id = secrets.token_urlsafe(9)
            self._sessions[battle_id] = _placeholder  # keeps the place while it starts
        try:
            scenario_kinds = scenario.ruleset.commander_kinds(scenario.model)
            kinds: dict[str, str] = {}
            for side in sides:
                kind = commanders.get(side, scenario_kinds.get(side, "ai"))
                kinds[side] = kind if kind in KINDS else "ai"
            persons = [side for side in sides if kinds[side] == PERSON]
            others: dict[str, Any] = {s: k for s, k in kinds.items() if k != PERSON}
            if build is not None:
                battle = build(scenario, seed, others, persons)
            else:
                battle = SteppedBattle(scenario, seed, others, stepped=persons,
                                       manual_dice=manual_dice, label="human")
            session = Session(battle_id, battle, scenario, seed, kinds,
                              {side: secrets.token_urlsafe(16) for side in persons},
                              replayed=replayed)
            session.refresh()
        except BaseException:
            with self._lock:
                self._sessions.pop(battle_id, None)
            raise
        with self._lock:
            self._sessions[battle_id] = session
        return session

    def delete(self, battle_id: str, seat: str | None) -> None:
        """Close a battle: any of its seats may (or anyone, for a battle without seats)."""
        session = self.get(battle_id)
        side = session.seat_side(seat)
        if session.seats and side is None:
            raise Forbidden("only a seat of this battle may close it", field="seat")
        with self._lock:
            self._sessions.pop(battle_id, None)
        session.close()

    def ids(self) -> list[str]:
        """The ids of the battles held now."""
        return [k for k, v in self._sessions.items() if v is not _placeholder]


_placeholder: Any = object()
"""Holds a battle's id in the store while the battle starts."""


__all__ = ["KINDS", "PERSON", "Busy", "Conflict", "Forbidden", "NotFound", "Session",
           "SessionStore"]
