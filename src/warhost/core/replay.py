"""Replay files: the scenario, the seed and the decisions of one battle, plus its event log.

A replay is a JSON document::

    {
      "format": "warhost-replay",
      "version": 1,
      "warhost": "0.1.0",
      "ruleset": "fantasy-battle@1",
      "scenario_file": "examples/fantasy-battle/skirmish.yaml",
      "scenario": {...the scenario's plain data...},
      "seed": 7,
      "commanders": {"Good": "ai", "Evil": "scripted"},
      "dice": [4, 2, 6],            # only for battles played with --manual-dice
      "decisions": [{"side": "Good", "kind": "activate", "order": "activate g1"}, ...],
      "events": 312,
      "log_sha256": "...",
      "log": [{"seq": 0, "type": "battle_start", ...}, ...]
    }

A battle still being played (``warhost play`` writes its file as it goes) is stored as an
*unfinished* replay: ``"finished": false``, the decisions and typed dice so far, and no
``events``, ``log_sha256`` or ``log`` yet (see :func:`unfinished_replay_data`).

Re-running it (:func:`rerun`) plays the battle again with every side answered by a
:class:`~warhost.core.commanders.ReplayCommander` and must give the same event log: the same
digest and, where the log is stored, the same events one by one.

Example:
    >>> from warhost import load_scenario, run_battle
    >>> s = load_scenario("examples/fantasy-battle/skirmish.yaml")  # doctest: +SKIP
    >>> r = run_battle(s, 7)  # doctest: +SKIP
    >>> save_replay(r, s, "battle.json", {"Good": "ai", "Evil": "ai"})  # doctest: +SKIP
    >>> rerun(load_replay("battle.json"))[1]  # doctest: +SKIP
    True
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warhost import __version__
from warhost.core.commanders import Commander, ReplayCommander
from warhost.core.decisions import Decision
from warhost.core.dice import DiceSource, ScriptedDice
from warhost.core.engine import BattleResult, run_battle
from warhost.core.errors import ReplayError, WarhostError, read_user_file
from warhost.core.events import Event, canonical_json
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.core.scenario import Scenario, scenario_from_data

FORMAT = "warhost-replay"
VERSION = 1

_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "ruleset": str,
    "scenario": dict,
    "seed": int,
    "commanders": dict,
    "decisions": list,
    "events": int,
    "log_sha256": str,
}


# --------------------------------------------------------------------------- atomic output


@contextlib.contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; when the block succeeds, move it into place.

    The move is :func:`os.replace`, so readers see either the old file or the whole new one,
    never a half-written one. If the block fails, the temporary file is removed and an existing
    ``path`` is left untouched.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise WarhostError("no such directory", file=str(directory), field="output")
    temp = directory / f".{target.name}.{secrets.token_hex(4)}.tmp{target.suffix}"
    try:  # created like any new file (umask applies), unlike tempfile's private 0600 files
        os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise WarhostError(f"cannot write here: {exc.strerror}", file=str(target)) from None
    try:
        yield temp
        if target.is_file():  # a replaced file keeps its permissions
            os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_output`."""
    with atomic_output(path) as temp:
        try:
            temp.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise WarhostError(f"cannot write: {exc.strerror}", file=str(path)) from None


# --------------------------------------------------------------------------- dice


class RecordingDice(DiceSource):
    """Passes every draw through to ``inner`` and keeps the faces, for the replay's ``dice``."""

    def __init__(self, inner: DiceSource) -> None:
        super().__init__()
        self.inner = inner
        self.faces: list[int] = []

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        faces = self.inner._faces(count, sides, why)
        self.faces.extend(faces)
        return faces


# --------------------------------------------------------------------------- the file


@dataclass
class Replay:
    """A loaded replay file (see the module documentation for the fields)."""

    path: str
    ruleset: str
    scenario_file: str
    scenario: dict[str, Any]
    seed: int
    commanders: dict[str, str]
    decisions: list[dict[str, Any]]
    events: int
    log_sha256: str
    warhost: str = __version__
    log: list[Event] | None = None
    dice: list[int] | None = None
    lines: dict[str, int] = field(default_factory=dict, repr=False)
    finished: bool = True
    """False for the file of a battle still being played (no log digest yet)."""

    def line_of(self, key: str) -> int | None:
        """The line of a top-level field in the file, when known."""
        return self.lines.get(key)

    def decision_line(self, index: int) -> int | None:
        """The line of ``decisions[index]`` (files written by :func:`save_replay` keep one
        decision per line)."""
        start = self.lines.get("decisions")
        if start is None or not 0 <= index < len(self.decisions):
            return None
        return start + 1 + index


def replay_data(
    result: BattleResult,
    scenario: Scenario,
    commanders: Mapping[str, str],
    *,
    dice: Sequence[int] | None = None,
    keep_log: bool = True,
) -> dict[str, Any]:
    """The replay document of a finished battle, as plain data."""
    data = _head(scenario, result.seed, commanders, dice)
    data["decisions"] = list(result.decisions)
    data["events"] = len(result.log)
    data["log_sha256"] = result.log.digest()
    if keep_log and result.log.record:
        data["log"] = list(result.log.events)
    return data


def unfinished_replay_data(
    scenario: Scenario,
    seed: int,
    commanders: Mapping[str, str],
    decisions: Sequence[Mapping[str, Any]],
    *,
    dice: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The replay document of a battle still being played: ``"finished": false`` and the
    decisions (and typed dice) so far; it has no log yet."""
    data = _head(scenario, seed, commanders, dice)
    data["finished"] = False
    data["decisions"] = [dict(d) for d in decisions]
    return data


def _head(
    scenario: Scenario, seed: int, commanders: Mapping[str, str], dice: Sequence[int] | None
) -> dict[str, Any]:
    """The fields every replay document starts with."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "warhost": __version__,
        "ruleset": scenario.ruleset.versioned_name,
        "scenario_file": scenario.source,
        "scenario": scenario.data,
        "seed": seed,
        "commanders": dict(commanders),
    }
    if dice is not None:
        data["dice"] = list(dice)
    return data


def dumps_replay(data: Mapping[str, Any]) -> str:
    """Replay text: top-level fields one per line, lists of records one record per line.

    One record per line keeps files diffable and lets errors name the line of a decision.
    """
    parts = []
    for key, value in data.items():
        name = json.dumps(key)
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = ",\n".join("    " + json.dumps(v, ensure_ascii=False) for v in value)
            parts.append(f"  {name}: [\n{items}\n  ]")
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            parts.append(f"  {name}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def save_replay(
    result: BattleResult,
    scenario: Scenario,
    path: str | Path,
    commanders: Mapping[str, str],
    *,
    dice: Sequence[int] | None = None,
    keep_log: bool = True,
) -> None:
    """Write the replay of ``result`` to ``path`` atomically.

    ``commanders`` maps each side to the kind of commander that played it; ``dice`` holds the
    faces of a battle played with manual dice (they are handed out again on re-running).
    """
    data = replay_data(result, scenario, commanders, dice=dice, keep_log=keep_log)
    write_text_atomically(path, dumps_replay(data))


def _top_level_lines(text: str) -> dict[str, int]:
    """Line numbers of the top-level keys of a pretty-printed replay (one key per line; the
    first key's indentation is the top level's)."""
    lines: dict[str, int] = {}
    indent: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(r'^(\s*)"([A-Za-z_0-9]+)"\s*:', line)
        if not match:
            continue
        if indent is None:
            indent = match.group(1)
        if match.group(1) == indent and match.group(2) not in lines:
            lines[match.group(2)] = number
    return lines


def _one_per_line(text: str, start: int | None, count: int) -> bool:
    """Whether the ``count`` records after line ``start`` stand one per line."""
    if start is None or count == 0:
        return False
    rows = text.splitlines()
    last = start + count - 1  # 0-based index of the last record's line
    return last < len(rows) and all(
        rows[i].lstrip().startswith("{") and rows[i].rstrip().rstrip(",").endswith("}")
        for i in (start, last)
    )


def _looks_like_scenario(text: str) -> bool:
    """Whether ``text`` reads like a YAML scenario (a top-level ``ruleset:`` line)."""
    return any(line.startswith("ruleset:") for line in text[:65536].splitlines())


def load_replay(path: str | Path, *, unfinished: bool = False) -> Replay:
    """Read and check a replay file.

    Raises :class:`ReplayError` naming the file (and line and field where known) when the file
    cannot be read, is not JSON, is not a replay, or comes from another warhost or ruleset
    version; also for the file of an unfinished battle unless ``unfinished`` is True.
    """
    source = str(path)
    text = read_user_file(path, ReplayError, "replay")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if _looks_like_scenario(text):
            raise ReplayError("this is a scenario file, not a replay: fight it with "
                              "'warhost battle FILE' (add --replay OUT to save a replay)",
                              file=source, line=1) from None
        raise ReplayError(f"malformed JSON: {exc.msg}", file=source, line=exc.lineno) from None
    lines = _top_level_lines(text)
    if isinstance(data, dict) and isinstance(data.get("decisions"), list) and not _one_per_line(
        text, lines.get("decisions"), len(data["decisions"])
    ):
        lines.pop("decisions", None)  # laid out otherwise: decision lines are not known

    def fail(message: str, key: str) -> ReplayError:
        return ReplayError(message, file=source, line=lines.get(key), field=key)

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"not a warhost replay (no \"format\": \"{FORMAT}\")", file=source,
                          line=lines.get("format", 1), field="format")
    if data.get("version") != VERSION:
        raise fail(f"replay format version {data.get('version')!r}; this warhost reads "
                   f"version {VERSION}", "version")
    if data.get("warhost") != __version__:
        raise ReplayError(
            f"made by warhost version {data.get('warhost')!r}; this is version {__version__} "
            "(a replay is only checked by the version that made it)",
            file=source, line=lines.get("warhost"), field="version",
        )
    finished = data.get("finished", True)
    if not isinstance(finished, bool):
        raise fail("must be true or false", "finished")
    if not finished and not unfinished:
        raise fail("the battle in this file is unfinished: continue it with "
                   f"warhost play --resume {source}", "finished")
    for key, kind in _REQUIRED.items():
        if not finished and key in ("events", "log_sha256"):
            continue
        if key not in data:
            raise ReplayError("missing required field", file=source, line=1, field=key)
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise fail(f"has the wrong type ({type(data[key]).__name__})", key)
    for index, record in enumerate(data["decisions"]):
        if not (isinstance(record, dict) and {"side", "kind", "order"} <= record.keys()):
            start = lines.get("decisions")
            raise ReplayError(
                "each decision needs side, kind and order", file=source,
                line=start + 1 + index if start else None, field=f"decisions[{index}]",
            )
    log = data.get("log")
    if log is not None and not (isinstance(log, list) and all(isinstance(e, dict) for e in log)):
        raise fail("must be a list of events", "log")
    dice = data.get("dice")
    if dice is not None and not (
        isinstance(dice, list) and all(isinstance(f, int) and not isinstance(f, bool) for f in dice)
    ):
        raise fail("must be a list of whole numbers", "dice")
    replay = Replay(
        path=source,
        warhost=str(data["warhost"]),
        ruleset=data["ruleset"],
        scenario_file=str(data.get("scenario_file") or "<scenario>"),
        scenario=data["scenario"],
        seed=data["seed"],
        commanders={str(k): str(v) for k, v in data["commanders"].items()},
        decisions=data["decisions"],
        events=data.get("events", 0),
        log_sha256=data.get("log_sha256", ""),
        log=log,
        dice=dice,
        lines=lines,
        finished=finished,
    )
    replay_scenario(replay)  # checks the ruleset version and the scenario itself
    return replay


def replay_scenario(replay: Replay) -> Scenario:
    """The replay's scenario, rebuilt from its stored data (the original file is not needed).

    The ruleset and its version must be the ones that made the replay.
    """
    name = replay.ruleset.partition("@")[0]
    try:
        have = get_ruleset(name).versioned_name
    except WarhostError as exc:
        raise ReplayError(exc.message, file=replay.path, line=replay.line_of("ruleset"),
                          field="ruleset") from None
    if have != replay.ruleset:
        raise ReplayError(
            f"made with ruleset {replay.ruleset}; this warhost has {have}",
            file=replay.path, line=replay.line_of("ruleset"), field="ruleset",
        )
    stored = replay.scenario.get("ruleset") if isinstance(replay.scenario, dict) else None
    if stored != name:
        raise ReplayError(
            f"the replay names ruleset {name!r} but its scenario is a {stored!r} scenario",
            file=replay.path, line=replay.line_of("ruleset"), field="ruleset",
        )
    try:
        return scenario_from_data(replay.scenario, replay.scenario_file)
    except WarhostError as exc:
        raise ReplayError(
            f"the stored scenario is not valid: {exc}", file=replay.path,
            line=replay.line_of("scenario"), field="scenario",
        ) from None


# --------------------------------------------------------------------------- re-running


class _ReplayCommander(ReplayCommander):
    """A ReplayCommander that plays under the recorded kind (the log names it) and whose
    divergence errors name the line of the decision in the replay file."""

    def __init__(self, replay: Replay, kind: str) -> None:
        super().__init__(replay.decisions, replay.path)
        self.kind = kind
        self.replay = replay

    def choose(self, decision: Decision, state: Any) -> Order:
        try:
            return super().choose(decision, state)
        except ReplayError as exc:
            exc.located(line=self.replay.decision_line(self.position - 1))
            raise


def replay_commanders(replay: Replay, scenario: Scenario) -> dict[str, Commander]:
    """One replaying commander per side, in the scenario's side order."""
    sides = scenario.ruleset.side_names(scenario.model)
    return {side: _ReplayCommander(replay, replay.commanders.get(side, "ai")) for side in sides}


def replay_dice(replay: Replay) -> DiceSource | None:
    """The manual faces of a ``--manual-dice`` battle, handed out again (else None: seeded)."""
    return ScriptedDice(replay.dice) if replay.dice is not None else None


@dataclass
class Difference:
    """Where a re-run left its replay: the first differing event (if known) and why."""

    message: str
    index: int | None = None
    field: str = "log"


def compare(replay: Replay, result: BattleResult) -> Difference | None:
    """The first way the re-run ``result`` differs from ``replay``, or None when it matches."""
    events = result.log.events
    if replay.log is not None:
        for index, (stored, fresh) in enumerate(zip(replay.log, events)):
            if canonical_json(stored) != canonical_json(fresh):
                return Difference(
                    f"event {index} differs: recorded {_brief(stored)}, re-run {_brief(fresh)}",
                    index,
                )
        if len(replay.log) != len(events):
            index = min(len(replay.log), len(events))
            return Difference(
                f"event {index} differs: the recorded log has {len(replay.log)} events, "
                f"the re-run {len(events)}",
                index,
            )
    if replay.events != len(result.log):
        return Difference(
            f"the replay records {replay.events} events, the re-run made {len(result.log)}",
            min(replay.events, len(result.log)),
            "events",
        )
    digest = result.log.digest()
    if digest != replay.log_sha256:
        return Difference(
            "log_sha256 does not match the re-run log "
            f"(recorded {replay.log_sha256[:12]}..., re-run {digest[:12]}...)",
            None,
            "log_sha256",
        )
    if [_decision_key(d) for d in replay.decisions] != [_decision_key(d) for d in result.decisions]:
        used = len(result.decisions)
        return Difference(
            f"the re-run used {used} of the {len(replay.decisions)} recorded decisions",
            None,
            "decisions",
        )
    return None


def _decision_key(record: Mapping[str, Any]) -> tuple[str, str, str]:
    return (str(record["side"]), str(record["kind"]), str(record["order"]))


def _brief(event: Mapping[str, Any], limit: int = 160) -> str:
    text = canonical_json(event)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def rerun(
    replay: Replay, *, observers: Sequence[Callable[[int, Any], None]] = ()
) -> tuple[BattleResult, bool]:
    """Play the replay's battle again and say whether it reproduces the recorded log.

    Raises :class:`ReplayError` (field ``decisions``) when the recorded decisions no longer fit
    the questions the battle asks, which also means the replay does not reproduce.
    Use :func:`compare` to learn where a non-matching re-run first differs.
    """
    scenario = replay_scenario(replay)
    try:
        result = run_battle(
            scenario,
            replay.seed,
            replay_commanders(replay, scenario),
            dice=replay_dice(replay),
            observers=list(observers),
        )
    except WarhostError as exc:
        exc.located(file=replay.path)  # e.g. a recorded die face that is not on the die
        raise
    return result, compare(replay, result) is None
