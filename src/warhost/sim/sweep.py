"""Parameter sweeps: the same scenario with one number varied, N battles per value.

A *path* names a number in the scenario data: dotted field names with list selectors, e.g.
``victory_points``, ``options.max_rounds``, ``sides[1].units[0].fate_points``. A selector is
an index (``[0]``, ``[-1]``), an id or name (``sides[Evil].units[e-boss]``: the item whose
``id`` or ``name`` is that text) or ``[key=value]`` (``sides[name=Evil]``).

When the path ends at a list (``sides[Evil].units``, ``sides[0].squads[0].members``), the
value sets the list's length: the list is cut short, or grown by copies of its last item
with ids suffixed ``-2``, ``-3``, ... and without ``at``, so the commander deploys them.

Every value's battle ``i`` uses the same seed (from the same master seed), so the values are
compared on common random numbers.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warhost.core.errors import ScenarioError, WarhostError
from warhost.core.scenario import Scenario, scenario_from_data

MAX_VALUES = 1000
"""The most values one sweep may run."""

Step = tuple[str, str | int]
"""One step of a path: ``("key", name)``, ``("index", i)``, ``("match", text)`` or
``("match", "key=value")``."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


class PathError(WarhostError):
    """A ``--vary`` path or value that does not fit the scenario."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="--vary")


# --------------------------------------------------------------------------- paths


def parse_path(text: str) -> list[Step]:
    """``sides[Evil].units[0].fate_points`` -> steps; a malformed path raises PathError."""
    steps: list[Step] = []
    i, n = 0, len(text)
    expect_name = True
    if not text.strip():
        raise PathError("empty path")
    while i < n:
        char = text[i]
        if char == "[":
            if expect_name:
                raise PathError(f"expected a field name before '[' in path {text!r}")
            close = text.find("]", i)
            if close < 0:
                raise PathError(f"unclosed '[' in path {text!r}")
            inner = text[i + 1:close].strip()
            if not inner:
                raise PathError(f"empty [] in path {text!r}")
            if re.fullmatch(r"-?\d+", inner):
                steps.append(("index", int(inner)))
            else:
                steps.append(("match", inner))
            i = close + 1
            expect_name = False
        elif char == ".":
            if expect_name or i + 1 >= n:
                raise PathError(f"misplaced '.' in path {text!r}")
            i += 1
            expect_name = True
        else:
            if not expect_name:
                raise PathError(f"expected '.' or '[' at {text[i:]!r} in path {text!r}")
            found = _NAME.match(text, i)
            if found is None:
                raise PathError(f"expected a field name at {text[i:]!r} in path {text!r}")
            steps.append(("key", found.group()))
            i = found.end()
            expect_name = False
    if expect_name:
        raise PathError(f"path {text!r} ends with '.'")
    return steps


def format_path(steps: Sequence[Step]) -> str:
    """The text of a parsed path (the inverse of :func:`parse_path`)."""
    out = ""
    for kind, value in steps:
        if kind == "key":
            out += f".{value}" if out else str(value)
        else:
            out += f"[{value}]"
    return out


def _select(items: list[Any], step: Step, where: str) -> int:
    """The list index a selector picks."""
    kind, value = step
    if kind == "index":
        assert isinstance(value, int)
        if not -len(items) <= value < len(items):
            raise PathError(f"{where}: index {value} is out of range (the list has "
                            f"{len(items)} item{'s' if len(items) != 1 else ''})")
        return value % len(items)
    text = str(value)
    key, sep, wanted = text.partition("=")
    keys = [key.strip()] if sep else ["id", "name"]
    wanted = wanted.strip() if sep else text
    for index, item in enumerate(items):
        if isinstance(item, Mapping) and any(
            k in item and str(item[k]) == wanted for k in keys
        ):
            return index
    names = [str(item.get("id", item.get("name"))) for item in items
             if isinstance(item, Mapping) and ("id" in item or "name" in item)]
    listed = f" (there: {', '.join(names)})" if names else ""
    what = f"{keys[0]} {wanted!r}" if sep else f"id or name {wanted!r}"
    raise PathError(f"{where}: no item with {what}{listed}")


def _walk(data: Any, steps: Sequence[Step], text: str) -> tuple[Any, str | int]:
    """The container holding the path's target and the target's key or index in it.

    Missing dict fields are created on the way (as empty mappings), so options that the
    scenario leaves at their default can be varied; validation catches misspelt fields.
    """
    current = data
    for number, step in enumerate(steps):
        where = format_path(steps[:number + 1])
        kind, value = step
        last = number == len(steps) - 1
        if kind == "key":
            if not isinstance(current, dict):
                raise PathError(f"{format_path(steps[:number]) or text}: is not a mapping, so it "
                                f"has no field {value!r}")
            if last:
                return current, value
            if value not in current or current[value] is None:
                if steps[number + 1][0] != "key":
                    raise PathError(f"{where}: no such field in the scenario")
                current[value] = {}
            current = current[value]
        else:
            if not isinstance(current, list):
                raise PathError(f"{format_path(steps[:number]) or text}: is not a list, so "
                                f"[{value}] selects nothing")
            index = _select(current, step, where)
            if last:
                return current, index
            current = current[index]
    raise PathError(f"empty path {text!r}")  # pragma: no cover - parse_path forbids it


def _all_ids(data: Any) -> set[str]:
    """Every ``id`` value anywhere in the data."""
    found: set[str] = set()
    if isinstance(data, dict):
        if "id" in data:
            found.add(str(data["id"]))
        for value in data.values():
            found |= _all_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= _all_ids(value)
    return found


def _fresh_id(base: str, number: int, taken: set[str]) -> str:
    """``base-number`` (or the next free number), marked as taken."""
    while f"{base}-{number}" in taken:
        number += 1
    taken.add(f"{base}-{number}")
    return f"{base}-{number}"


def _copy_item(item: Any, number: int, taken: set[str]) -> Any:
    """A copy of a list item: fresh ids (``id-2``, ``id-3``...; a copied squad's members too)
    and no fixed square (``at``), so the commander deploys it."""
    new = copy.deepcopy(item)
    if not isinstance(new, dict):
        return new
    new.pop("at", None)
    if "id" in new:
        new["id"] = _fresh_id(str(new["id"]), number, taken)
        if isinstance(new.get("name"), str):
            new["name"] = f"{new['name']} {new['id'].rsplit('-', 1)[1]}"
    for member in new.get("members") or []:
        if isinstance(member, dict):
            member.pop("at", None)
            if "id" in member:
                member["id"] = _fresh_id(str(member["id"]), number, taken)
    return new


def _as_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def apply_value(
    data: Mapping[str, Any], path: str | Sequence[Step], value: float
) -> dict[str, Any]:
    """A deep copy of ``data`` with the number at ``path`` set to ``value``.

    A path ending at a list sets the list's length (truncating, or appending copies of the
    last item with fresh ids and no ``at``). Raises :class:`PathError` when the path does not
    fit the data or the value does not fit the target.
    """
    steps = parse_path(path) if isinstance(path, str) else list(path)
    text = format_path(steps)
    out = copy.deepcopy(dict(data))
    container, key = _walk(out, steps, text)
    target: Any = None
    if isinstance(container, list):
        target = container[int(key)]
    elif key in container:
        target = container[key]
    if isinstance(target, list):
        if not float(value).is_integer() or value < 0:
            raise PathError(f"{text}: is a list; its length must be a whole number >= 0, "
                            f"not {value:g}")
        length = int(value)
        if length > len(target):
            if not target:
                raise PathError(f"{text}: is an empty list, with no item to copy")
            taken = _all_ids(out)
            last = target[-1]
            copies = [_copy_item(last, 2 + i, taken) for i in range(length - len(target))]
            target.extend(copies)
        else:
            del target[length:]
        return out
    if target is not None and (isinstance(target, bool) or not isinstance(target, (int, float))):
        kind = "mapping" if isinstance(target, dict) else type(target).__name__
        raise PathError(f"{text}: is a {kind} ({_short(target)}), not a number or a list")
    container[key] = _as_number(value)  # type: ignore[index]
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_value(data: Mapping[str, Any], path: str) -> Any:
    """The current value at ``path`` (None when the field is not set)."""
    steps = parse_path(path)
    container, key = _walk(copy.deepcopy(dict(data)), steps, path)
    if isinstance(container, list):
        return container[int(key)]
    return container.get(str(key))


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Vary:
    """A ``--vary PATH=FROM:TO:STEP`` option: the path and the values it takes."""

    path: str
    start: float
    stop: float
    step: float
    values: tuple[int | float, ...]

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"path": self.path, "from": _as_number(self.start), "to": _as_number(self.stop),
                "step": _as_number(self.step), "values": list(self.values)}


def value_range(start: float, stop: float, step: float) -> list[int | float]:
    """``start, start+step, ...`` up to and including ``stop`` (within rounding)."""
    if not all(math.isfinite(v) for v in (start, stop, step)):
        raise PathError("FROM, TO and STEP must be finite numbers")
    if step == 0:
        raise PathError("STEP must not be 0")
    if (stop - start) * step < 0:
        raise PathError(f"STEP {step:g} never gets from {start:g} to {stop:g}")
    count = math.floor((stop - start) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise PathError(f"{count} values is too many (at most {MAX_VALUES}); use a larger STEP")
    return [_as_number(round(start + i * step, 10)) for i in range(count)]


def parse_vary(text: str) -> Vary:
    """``PATH=FROM:TO[:STEP]`` (STEP defaults to 1) -> :class:`Vary`."""
    path, sep, spec = text.rpartition("=")
    if not sep or not path.strip() or not spec.strip():
        raise PathError(f"expected PATH=FROM:TO:STEP, got {text!r}")
    parts = [p.strip() for p in spec.split(":")]
    if len(parts) not in (2, 3):
        raise PathError(f"expected FROM:TO:STEP after '=', got {spec!r}")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise PathError(f"FROM, TO and STEP must be numbers, got {spec!r}") from None
    start, stop = numbers[0], numbers[1]
    step = numbers[2] if len(numbers) == 3 else (1.0 if stop >= start else -1.0)
    parse_path(path.strip())
    return Vary(path.strip(), start, stop, step, tuple(value_range(start, stop, step)))


def sweep_scenarios(scenario: Scenario, vary: Vary) -> list[tuple[int | float, Scenario]]:
    """One validated scenario per value; the first problem raises an error naming ``--vary``."""
    out: list[tuple[int | float, Scenario]] = []
    for value in vary.values:
        data = apply_value(scenario.data, vary.path, value)
        try:
            varied = scenario_from_data(data, scenario.source, dict(scenario.lines))
        except ScenarioError as exc:
            where = f"{exc.field}: " if exc.field else ""
            raise WarhostError(
                f"{vary.path}={value:g} makes the scenario invalid: {where}{exc.message}",
                file=scenario.source, line=exc.line, field="--vary") from None
        out.append((value, varied))
    return out


# --------------------------------------------------------------------------- statistics


def find_break_even(values: Sequence[float], probabilities: Sequence[float],
                    level: float = 0.5) -> float | None:
    """Where ``probabilities`` first cross ``level``, interpolated linearly between the two
    bracketing values; a value where it equals ``level`` exactly counts. None: no crossing."""
    pairs = sorted(zip(values, probabilities, strict=True))
    for (x0, p0), (x1, p1) in itertools.pairwise(pairs):
        if p0 == level:
            return float(x0)
        if (p0 - level) * (p1 - level) < 0:
            return float(x0 + (level - p0) * (x1 - x0) / (p1 - p0))
    if pairs and pairs[-1][1] == level:
        return float(pairs[-1][0])
    return None


@dataclass
class SideRate:
    """One side's wins at one value."""

    wins: int
    probability: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"wins": self.wins, "win_probability": self.probability,
                "interval": [self.low, self.high]}


@dataclass
class SweepPoint:
    """The results of N battles at one value."""

    value: int | float
    n: int
    sides: dict[str, SideRate]
    draws: SideRate
    mean_rounds: float
    records: list[Any] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Plain data (without the records)."""
        return {
            "value": self.value,
            "n": self.n,
            "sides": {side: rate.to_json() for side, rate in self.sides.items()},
            "draws": {"count": self.draws.wins, "rate": self.draws.probability,
                      "interval": [self.draws.low, self.draws.high]},
            "mean_rounds": self.mean_rounds,
        }


def _wilson(k: int, n: int) -> tuple[float, float]:
    from warhost.sim.stats import wilson

    low, high = wilson(k, n)
    return float(low), float(high)


def point_from_records(value: float, sides: Sequence[str], records: Sequence[Any]) -> SweepPoint:
    """Count wins and draws in ``records`` (each with ``winner`` and ``rounds``)."""
    n = len(records)

    def rate(k: int) -> SideRate:
        low, high = _wilson(k, n)
        return SideRate(k, k / n if n else 0.0, low, high)

    winners = [r.winner for r in records]
    return SweepPoint(
        value=value,
        n=n,
        sides={side: rate(sum(1 for w in winners if w == side)) for side in sides},
        draws=rate(sum(1 for w in winners if w is None)),
        mean_rounds=sum(r.rounds for r in records) / n if n else 0.0,
        records=list(records),
    )


@dataclass
class SweepResult:
    """A whole sweep: the scenario, the option, the points and the break-even value."""

    scenario: str
    source: str
    vary: Vary
    n: int
    seed: int
    sides: list[str]
    commanders: dict[str, str]
    points: list[SweepPoint]

    @property
    def break_even(self) -> float | None:
        """Where the first side's win probability crosses 50% (None: not in range)."""
        if not self.sides:
            return None
        first = self.sides[0]
        return find_break_even([p.value for p in self.points],
                               [p.sides[first].probability for p in self.points])

    def to_json(self) -> dict[str, Any]:
        """Everything as one JSON-ready document."""
        value = self.break_even
        return {
            "scenario": self.scenario,
            "file": self.source,
            "vary": self.vary.to_json(),
            "n": self.n,
            "seed": self.seed,
            "sides": self.sides,
            "commanders": self.commanders,
            "points": [p.to_json() for p in self.points],
            "break_even": {
                "side": self.sides[0] if self.sides else None,
                "value": value,
                "found": value is not None,
                "text": _break_even_text(self.sides[0] if self.sides else "", value),
            },
        }


def _break_even_text(side: str, value: float | None) -> str:
    if value is None:
        return f"{side}'s win probability does not cross 50%: none in range"
    return f"{side}'s win probability crosses 50% at {value:.4g}"


# --------------------------------------------------------------------------- running


def run_sweep(
    scenario: Scenario,
    vary: Vary,
    n: int,
    *,
    seed: int,
    workers: int | None = None,
    commanders: Mapping[str, str] | None = None,
    progress: Callable[[int | float, int, int], None] | None = None,
    scenarios: Sequence[tuple[int | float, Scenario]] | None = None,
) -> SweepResult:
    """Run ``n`` battles for each value of ``vary`` through :func:`warhost.sim.runner.simulate`.

    All values use master seed ``seed`` (common random numbers). ``progress(value, done,
    total)`` is called as battles of the current value finish. ``scenarios`` are the
    already validated scenarios (from :func:`sweep_scenarios`), if the caller has them.
    """
    from warhost.sim.runner import resolve_commanders, simulate

    kinds = resolve_commanders(scenario, commanders)
    varied = list(scenarios) if scenarios is not None else sweep_scenarios(scenario, vary)
    sides = list(scenario.ruleset.side_names(scenario.model))
    points: list[SweepPoint] = []
    for number, (value, current) in enumerate(varied):
        def report(done: int, total: int, value: float = value) -> None:
            if progress is not None:
                progress(value, done, total)

        # the values still to come count when deciding whether the worker pool pays
        run = simulate(current, n, seed=seed, workers=workers, commanders=kinds,
                       progress=report, later=n * (len(varied) - number - 1))
        points.append(point_from_records(value, sides, run.records()))
    return SweepResult(scenario=scenario.name, source=scenario.source, vary=vary, n=n,
                       seed=seed, sides=sides, commanders=kinds, points=points)

