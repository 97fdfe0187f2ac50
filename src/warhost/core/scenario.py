"""Scenario files: YAML read with line numbers, checked by the ruleset's pydantic model.

Every problem becomes a :class:`ScenarioError` naming the file, the line and the field.
"""

from __future__ import annotations

import datetime
import difflib
import types
import typing
from pathlib import Path
from typing import Any, Union

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.scalarbool import ScalarBoolean
from ruamel.yaml.scanner import RoundTripScanner, ScannerError

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


MAX_BYTES = 1_000_000
"""The largest scenario file, in bytes: a hundred times the largest example. Checked before
the file is read, so a huge file costs nothing."""

MAX_DEPTH = 64
"""The deepest nesting of lists and mappings (a real scenario needs about 8). Checked while
the YAML is scanned, before a deep file can cost time."""

MAX_VALUES = 200_000
"""The most values (mappings, lists and scalars) a scenario may hold once its aliases are
expanded: a file of a million bytes holds fewer, so more means an alias bomb."""


class _GuardedScanner(RoundTripScanner):  # type: ignore[misc]
    """ruamel's scanner, refusing nesting deeper than MAX_DEPTH as soon as it is met (its
    scanning time grows with the square of the depth)."""

    def fetch_flow_collection_start(self, TokenClass: Any, to_push: str) -> None:  # noqa: N803
        if len(self.flow_context) >= MAX_DEPTH:
            self._too_deep()
        super().fetch_flow_collection_start(TokenClass, to_push)

    def add_indent(self, column: int) -> bool:
        if len(self.indents) >= MAX_DEPTH:
            self._too_deep()
        return bool(super().add_indent(column))

    def _too_deep(self) -> None:
        raise ScannerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                           self.reader.get_mark())


class _Plain:
    """Turns ruamel nodes into plain dicts, lists and scalars, noting each item's line (1-based)
    and counting values, so that aliases cannot expand without bound."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: dict[Path_, int] = {(): 1}
        self.sizes: dict[int, tuple[int, int]] = {}

    def measure(self, node: Any) -> tuple[int, int]:
        """How many values ``node`` holds with its aliases expanded, and how deep they nest,
        measuring each shared node once (so an alias bomb is measured, not walked); refuses
        too many or too deep."""
        if not isinstance(node, (CommentedMap, CommentedSeq)):
            return 1, 0
        known = self.sizes.get(id(node))
        if known is not None:
            return known
        self.sizes[id(node)] = (1, MAX_DEPTH + 1)  # a node inside itself is too deep
        children = node.values() if isinstance(node, CommentedMap) else node
        size, height = 1, 0
        for child in children:
            child_size, child_height = self.measure(child)
            size += child_size
            height = max(height, child_height + 1)
            if size > MAX_VALUES:
                self._refuse(f"more than {MAX_VALUES} values (alias expansion?)", node)
            if height > MAX_DEPTH:
                self._refuse(f"nested more than {MAX_DEPTH} levels deep (through aliases)", node)
        self.sizes[id(node)] = size, height
        return size, height

    def _refuse(self, message: str, node: Any) -> None:
        line = getattr(getattr(node, "lc", None), "line", None)
        raise ScenarioError(message, file=self.source, line=line + 1 if line is not None else 1)

    def convert(self, node: Any, path: Path_) -> Any:
        """Plain data for ``node`` (call :meth:`measure` on the root first)."""
        if isinstance(node, CommentedMap):
            out: dict[Any, Any] = {}
            for key, value in node.items():
                sub = (*path, str(key))
                try:
                    self.lines[sub] = node.lc.key(key)[0] + 1
                except (KeyError, TypeError):
                    self.lines[sub] = self.lines.get(path, 1)
                out[str(key)] = self.convert(value, sub)
            return out
        if isinstance(node, CommentedSeq):
            items = []
            for index, value in enumerate(node):
                sub = (*path, index)
                try:
                    self.lines[sub] = node.lc.item(index)[0] + 1
                except (KeyError, TypeError, IndexError):
                    self.lines[sub] = self.lines.get(path, 1)
                items.append(self.convert(value, sub))
            return items
        return self.scalar(node, path)

    def scalar(self, node: Any, path: Path_) -> Any:
        """A plain str, bool, int, float or None; a date as its text; anything else (a
        custom tag, a set, binary data) is refused."""
        if node is None or isinstance(node, bool):
            return node
        if isinstance(node, ScalarBoolean):  # an anchored true/false: an int subclass
            return bool(node)
        if isinstance(node, str):
            return str(node)
        if isinstance(node, int):
            return int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, (datetime.date, datetime.datetime)):
            return node.isoformat()
        tag = getattr(getattr(node, "tag", None), "value", None)
        what = f"tag {tag}" if tag else type(node).__name__
        raise ScenarioError(f"unsupported YAML value ({what}); use plain text, numbers, "
                            f"true/false, lists and mappings", file=self.source,
                            line=self.lines.get(path, 1), field=field_name(path) or None)


def read_yaml(text: str, source: str) -> tuple[Any, dict[Path_, int]]:
    """Parse YAML text into plain data plus a map from field paths to line numbers."""
    if len(text) > MAX_BYTES:
        raise ScenarioError(f"the file is larger than {MAX_BYTES} bytes", file=source)
    yaml = YAML(typ="rt")
    yaml.Scanner = _GuardedScanner
    try:
        node = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise ScenarioError(f"malformed YAML: {problem}", file=source, line=line) from None
    except RecursionError:
        raise ScenarioError(f"malformed YAML: nested more than {MAX_DEPTH} levels deep",
                            file=source) from None
    except Exception as exc:  # ruamel raises a few non-marked errors for odd input
        raise ScenarioError(f"malformed YAML: {exc}", file=source) from None
    plain = _Plain(source)
    plain.measure(node)
    return plain.convert(node, ()), plain.lines


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    source = str(path)
    text = read_user_file(path, ScenarioError, "scenario", max_bytes=MAX_BYTES)
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
        data = ruleset.include_files(data, source)
    except ScenarioError as exc:  # a SetupError names the scenario field it comes from
        path = getattr(exc, "path", None)
        if path is not None and exc.file in (None, source):
            exc.field = exc.field or field_name(path)
            exc.line = exc.line or lines.get(path)
        raise exc.located(file=source, line=1) from None
    try:
        model = ruleset.scenario_model.model_validate(data)
    except ValidationError as exc:
        errors = _without_other_branches(exc.errors(), data)
        errors = sorted(errors, key=lambda e: e["type"] != "extra_forbidden")
        problems = [validation_problem(err, ruleset.scenario_model, source, lines, data)
                    for err in errors]
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


def validation_problem(
    err: Any, model: type[BaseModel], source: str, lines: dict[Path_, int], data: Any = None
) -> ScenarioError:
    """One pydantic error as a located, readable ScenarioError."""
    loc: Path_ = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    path = _data_path(loc, data)
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
    elif kind == "value_error":  # our own validators' words, which show the value
        message = str(err["msg"]).removeprefix("Value error, ")
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


def _without_other_branches(errors: list[Any], data: Any) -> list[Any]:
    """Leave out the complaints of union branches the value plainly is not (a mapping given
    where the field takes a name or a mapping: "should be a valid string"), when other
    complaints say what is wrong with the value."""
    kept = [e for e in errors
            if not (str(e["type"]).endswith("_type") and _plain_branch(e["loc"], data))]
    return kept or errors


def _plain_branch(loc: Path_, data: Any) -> bool:
    """Whether ``loc`` passes through a plain-type union branch (``'constrained-str'``) that
    is not a key of the data."""
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif part in _BRANCH_TAGS:
            return True
    return False


_BRANCH_TAGS = ("str", "constrained-str", "int", "float", "bool")
"""Names pydantic gives the plain-type branches of a union in an error's location."""


def _data_path(loc: Path_, data: Any = None) -> Path_:
    """Drop pydantic's union-branch tags (``'Foo'``, ``'literal[...]'``) from a location.

    A part that is a key of the data at that point (a profile named ``'Elf archer'`` in a
    mapping of profiles) is kept even when it looks like a tag."""
    out: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            out.append(part)
            node = node[part]
            continue
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            out.append(part)
            node = node[part]
            continue
        if isinstance(part, str) and (part[:1].isupper() or "[" in part or part.startswith("tagged")
                                      or part in _BRANCH_TAGS):
            continue
        out.append(part)
        node = None
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
    if isinstance(part, int) or typing.get_origin(tp) is dict or (
            isinstance(tp, type) and not issubclass(tp, BaseModel)):
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
