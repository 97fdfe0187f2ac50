"""Scenario files: YAML read with line numbers, checked by the ruleset's pydantic model.

Every problem becomes a :class:`ScenarioError` naming the file, the line and the field.
"""

from __future__ import annotations

import difflib
import types
import typing
from pathlib import Path
from typing import Any, Union

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from warhost.core.errors import FieldPath, ScenarioError, WarhostError, read_user_file
from warhost.core.registry import get_ruleset
from warhost.core.ruleset import Scenario

Path_ = FieldPath
__all__ = ["Scenario", "field_name", "load_scenario", "read_yaml", "scenario_from_data"]


def field_name(path: Path_) -> str:
    """``('sides', 0, 'units')`` -> ``sides[0].units``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _plain(node: Any, path: Path_, lines: dict[Path_, int]) -> Any:
    """Turn ruamel nodes into plain dicts and lists, noting each item's line (1-based)."""
    if isinstance(node, CommentedMap):
        out: dict[Any, Any] = {}
        for key, value in node.items():
            sub = (*path, str(key))
            try:
                lines[sub] = node.lc.key(key)[0] + 1
            except (KeyError, TypeError):
                lines[sub] = lines.get(path, 1)
            out[str(key)] = _plain(value, sub, lines)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for index, value in enumerate(node):
            sub = (*path, index)
            try:
                lines[sub] = node.lc.item(index)[0] + 1
            except (KeyError, TypeError, IndexError):
                lines[sub] = lines.get(path, 1)
            items.append(_plain(value, sub, lines))
        return items
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def read_yaml(text: str, source: str) -> tuple[Any, dict[Path_, int]]:
    """Parse YAML text into plain data plus a map from field paths to line numbers."""
    yaml = YAML(typ="rt")
    try:
        node = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise ScenarioError(f"malformed YAML: {problem}", file=source, line=line) from None
    except Exception as exc:  # ruamel raises a few non-marked errors for odd input
        raise ScenarioError(f"malformed YAML: {exc}", file=source) from None
    lines: dict[Path_, int] = {(): 1}
    return _plain(node, (), lines), lines


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    source = str(path)
    text = read_user_file(path, ScenarioError, "scenario")
    data, lines = read_yaml(text, source)
    return scenario_from_data(data, source, lines)


def scenario_from_data(
    data: Any, source: str = "<scenario>", lines: dict[Path_, int] | None = None
) -> Scenario:
    """Validate already-parsed scenario data (a dict as read from YAML or JSON)."""
    lines = lines or {}
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a mapping of fields", file=source, line=1)
    name = data.get("ruleset")
    if name is None:
        raise ScenarioError("missing required field", file=source, line=1, field="ruleset")
    try:
        ruleset = get_ruleset(str(name))
    except WarhostError as exc:
        raise ScenarioError(
            exc.message, file=source, line=lines.get(("ruleset",), 1), field="ruleset"
        ) from None
    try:
        model = ruleset.scenario_model.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        problems = [_problem(err, ruleset.scenario_model, source, lines) for err in errors]
        first = problems[0]
        first.problems = problems  # type: ignore[attr-defined]
        raise first from None
    scenario = Scenario(ruleset=ruleset, model=model, data=data, source=source, lines=lines)
    try:
        ruleset.check_scenario(model)
    except ScenarioError as exc:
        path = getattr(exc, "path", None)
        if path is not None:
            exc.field = exc.field or field_name(path)
            exc.line = exc.line or scenario.line_of(path)
        raise exc.located(file=source, line=1) from None
    return scenario


def _problem(
    err: Any, model: type[BaseModel], source: str, lines: dict[Path_, int]
) -> ScenarioError:
    """One pydantic error as a located, readable ScenarioError."""
    loc: Path_ = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    path = _data_path(loc)
    line = None
    for cut in range(len(path), -1, -1):
        line = lines.get(tuple(path[:cut]))
        if line is not None:
            break
    kind = err["type"]
    if kind == "extra_forbidden":
        known = _known_fields(model, path[:-1])
        close = difflib.get_close_matches(str(path[-1]), known, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else (
            f" (allowed: {', '.join(known)})" if known else "")
        message = f"unknown field {path[-1]!r}{hint}"
    elif kind == "missing":
        message = "missing required field"
    else:
        message = _PLAIN_WORDS.get(kind, err["msg"])
        if "input" in err and not isinstance(err["input"], (dict, list)):
            message += f" (got {_short(err['input'])})"
    return ScenarioError(message, file=source, line=line, field=field_name(path) or None)


_PLAIN_WORDS = {
    "int_type": "expected a whole number",
    "float_type": "expected a number",
    "finite_number": "expected a finite number, not NaN or infinity",
}
"""Clearer words for pydantic's type errors (``true`` is refused where a number is wanted)."""


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters so one error stays one short line."""
    if isinstance(value, bool):
        return "a boolean, " + ("true" if value else "false")
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _data_path(loc: Path_) -> Path_:
    """Drop pydantic's union-branch tags (``'Foo'``, ``'literal[...]'``) from a location."""
    out: list[str | int] = []
    for part in loc:
        if isinstance(part, str) and (part[:1].isupper() or "[" in part or part.startswith("tagged")):
            continue
        out.append(part)
    return tuple(out)


def _known_fields(model: Any, path: Path_) -> list[str]:
    """The field names allowed at ``path`` inside ``model`` (best effort)."""
    current: Any = model
    for part in path:
        current = _inner_model(current, part)
        if current is None:
            return []
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [info.alias or name for name, info in current.model_fields.items()]
    return []


def _inner_model(tp: Any, part: str | int) -> Any:
    """Step from a model type into one of its fields (or into a list/dict item type)."""
    if isinstance(part, int) or (isinstance(tp, type) and not issubclass(tp, BaseModel)):
        return _item_model(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            if part in (name, info.alias):
                return _unwrap(info.annotation)
        return None
    return _unwrap(tp)


def _unwrap(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin in (Union, types.UnionType):
        for arg in typing.get_args(tp):
            inner = _unwrap(arg)
            if inner is not type(None):
                return inner
    return tp


def _item_model(tp: Any) -> Any:
    args = typing.get_args(_unwrap(tp))
    return _unwrap(args[-1]) if args else None
