"""Army files (W4-DEC-01): YAML army lists read with the scenario loader's guards and line
numbers, on their own (``warhost army``) or named by a scenario side (``army: FILE``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from warhost.core.errors import FieldPath, ScenarioError, read_user_file
from warhost.core.scenario import field_name, read_yaml, validation_problem
from warhost.rulesets.dnd4e_war.model import ArmySpec

MAX_BYTES = 1_000_000
"""The largest army file, in bytes (as for scenarios)."""


def read_army(path: str | Path) -> tuple[Any, dict[FieldPath, int]]:
    """The plain data of an army file and the line of each field."""
    text = read_user_file(path, ScenarioError, "army", max_bytes=MAX_BYTES)
    return read_yaml(text, str(path))


def army_from_data(data: Any, source: str, lines: dict[FieldPath, int]) -> ArmySpec:
    """Validate army data; the first problem is raised naming ``source``, line and field
    (every problem is on its ``problems``)."""
    if not isinstance(data, dict):
        raise ScenarioError("an army file must be a mapping of fields", file=source, line=1)
    try:
        return ArmySpec.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        problems = [validation_problem(err, ArmySpec, source, lines, data) for err in errors]
        first = problems[0]
        first.problems = problems  # type: ignore[attr-defined]
        raise first from None


def load_army(path: str | Path) -> tuple[ArmySpec, Any, dict[FieldPath, int]]:
    """Read and validate an army file: the army, its plain data and its lines."""
    data, lines = read_army(path)
    return army_from_data(data, str(path), lines), data, lines


def locate(error: ScenarioError, where: FieldPath, source: str,
           lines: dict[FieldPath, int]) -> ScenarioError:
    """``error`` named at the field ``where`` of the army file ``source``."""
    error.field = error.field or field_name(where) or None
    line = None
    for cut in range(len(where), -1, -1):
        line = lines.get(tuple(where[:cut]))
        if line is not None:
            break
    error.file, error.line = source, line
    return error


def include_armies(data: Any, source: str) -> Any:
    """Scenario data with each side's ``army: FILE`` (relative to the scenario) replaced by
    the army's data, after the army file itself is checked (its problems name it)."""
    if not isinstance(data, dict) or not isinstance(data.get("sides"), list):
        return data
    if not any(isinstance(s, dict) and isinstance(s.get("army"), str) for s in data["sides"]):
        return data
    sides = []
    for side in data["sides"]:
        if isinstance(side, dict) and isinstance(side.get("army"), str):
            path = Path(source).parent / side["army"]
            _army, army_data, _lines = load_army(path)
            side = {**side, "army": army_data}
        sides.append(side)
    return {**data, "sides": sides}
