"""Scenario and replay text sent to ``warhost serve``: size-limited, parsed from text with the
safe YAML reader of :mod:`warhost.core.scenario` under :func:`~warhost.core.errors.no_user_files`
(an upload never reads a file of the server, nor is it ever used as a path), with the problems
``warhost validate`` names.

Example:
    >>> problems = check_text("ruleset: fantasy-battle\\nname: x\\n")
    >>> problems[0].field
    'victory_points'
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warhost.core.errors import (
    ReplayError,
    ScenarioError,
    UserFileRefused,
    WarhostError,
    no_user_files,
)

if TYPE_CHECKING:
    from warhost.core.replay import Replay
    from warhost.core.ruleset import Scenario

UPLOAD_SOURCE = "upload.yaml"
"""The file name an uploaded scenario's problems are reported against."""

REPLAY_SOURCE = "replay.json"
"""The file name an uploaded replay's problems are reported against."""

DEFAULT_MAX_UPLOAD = 256_000
"""The largest scenario or replay text accepted, in bytes (UTF-8)."""


class TooLarge(WarhostError):
    """An upload longer than the server accepts (HTTP 413)."""


def check_size(text: str, max_bytes: int, noun: str = "scenario") -> None:
    """Refuse ``text`` when its UTF-8 form is longer than ``max_bytes``."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise TooLarge(f"the {noun} is larger than {max_bytes} bytes", field="text")


def parse_scenario(text: str, max_bytes: int = DEFAULT_MAX_UPLOAD) -> Scenario:
    """The scenario in ``text``, read as ``upload.yaml``; its first problem is raised as a
    :class:`ScenarioError` (all of them on ``.problems``). Files it names (army lists, spell
    libraries) are refused, except dnd35-wars' shipped libraries."""
    from warhost.core.scenario import read_yaml, scenario_from_data

    check_size(text, max_bytes)
    data: Any = None
    lines: dict[Any, int] = {}
    try:
        with no_user_files(UPLOAD_SOURCE):
            data, lines = read_yaml(text, UPLOAD_SOURCE)
            return scenario_from_data(data, UPLOAD_SOURCE, lines)
    except UserFileRefused as exc:
        raise _locate(exc, data, lines) from None


def _locate(error: UserFileRefused, data: Any, lines: dict[Any, int]) -> UserFileRefused:
    """Name the field (and its line) whose value is the file the upload named."""
    from warhost.core.scenario import field_name

    base = Path(UPLOAD_SOURCE).parent
    for path, value in _strings(data, ()):
        if value == error.path or str(base / value) == error.path:
            error.file = UPLOAD_SOURCE
            error.field = field_name(path)
            error.line = lines.get(path) or error.line
            break
    error.problems = [error]  # type: ignore[attr-defined]
    return error


def _strings(data: Any, path: tuple[str | int, ...]) -> list[tuple[tuple[str | int, ...], str]]:
    """Every string value in ``data`` with its field path."""
    if isinstance(data, str):
        return [(path, data)]
    if isinstance(data, dict):
        return [item for key, value in data.items() for item in _strings(value, (*path, key))]
    if isinstance(data, list):
        return [item for i, value in enumerate(data) for item in _strings(value, (*path, i))]
    return []


def problems_of(error: WarhostError) -> list[WarhostError]:
    """Every problem an error carries (``warhost validate`` lists them all)."""
    return list(getattr(error, "problems", None) or [error])


def check_text(text: str, max_bytes: int = DEFAULT_MAX_UPLOAD) -> list[WarhostError]:
    """The problems of scenario ``text``, as ``warhost validate`` names them (empty: valid)."""
    try:
        parse_scenario(text, max_bytes)
    except TooLarge:
        raise
    except WarhostError as exc:
        return problems_of(exc)
    return []


def problem_json(problem: WarhostError) -> dict[str, Any]:
    """One problem as the HTTP API reports it."""
    return {"message": problem.message, "line": problem.line, "field": problem.field,
            "file": problem.file}


def load_replay_text(text: str, max_bytes: int = DEFAULT_MAX_UPLOAD) -> Replay:
    """The replay in ``text`` (checked as ``warhost replay`` checks a file). It is written to
    a private temporary folder for :func:`warhost.core.replay.load_replay`, which reads
    files, and read there under :func:`no_user_files` (its scenario may name no other file);
    the folder is removed at once."""
    from warhost.core.replay import load_replay

    check_size(text, max_bytes, "replay")
    try:
        json.loads(text)
    except ValueError as exc:
        if any(line.startswith("ruleset:") for line in text[:65536].splitlines()):
            raise ReplayError("this is a scenario file, not a replay: open it in the editor "
                              "and start a battle", file=REPLAY_SOURCE, line=1) from None
        line = getattr(exc, "lineno", None)
        raise ReplayError(f"malformed JSON: {getattr(exc, 'msg', exc)}", file=REPLAY_SOURCE,
                          line=line) from None
    with tempfile.TemporaryDirectory(prefix="warhost-replay-") as folder:
        path = Path(folder) / REPLAY_SOURCE
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        try:
            with no_user_files(REPLAY_SOURCE, allow=[path]):
                replay = load_replay(path)
        except WarhostError as exc:
            if exc.file == str(path):
                exc.file = REPLAY_SOURCE
            exc.message = exc.message.replace(str(path), REPLAY_SOURCE)
            raise
    replay.path = REPLAY_SOURCE
    return replay


def replay_scenario_safely(replay: Replay) -> Scenario:
    """The scenario stored in an uploaded replay, rebuilt without reading any file."""
    from warhost.core.replay import replay_scenario

    with no_user_files(REPLAY_SOURCE):
        return replay_scenario(replay)


__all__ = ["DEFAULT_MAX_UPLOAD", "REPLAY_SOURCE", "UPLOAD_SOURCE", "ScenarioError", "TooLarge",
           "check_size", "check_text", "load_replay_text", "parse_scenario", "problem_json",
           "problems_of", "replay_scenario_safely"]
