"""Who is who on a map: short unit labels and the key that explains them.

Both the images (:mod:`warhost.render.maps`) and the text maps (:mod:`warhost.render.text_maps`)
name units the same way. Where a unit's id does not fit on the map, it gets a short label: its
side's letter and its number within the side, in the view's order (``G1``, ``G2`` ... ``E1``).
Views list units in a fixed order, so a unit keeps its label from round to round. The key
maps each label to the unit's id, name, kind, strength and state.

Example:
    >>> view = {"sides": ["Good", "Evil"], "units": [
    ...     {"id": "g-spear", "side": "Good"}, {"id": "e-boss", "side": "Evil"},
    ...     {"id": "g-hero", "side": "Good"}]}
    >>> unit_labels(view)
    {'g-spear': 'G1', 'e-boss': 'E1', 'g-hero': 'G2'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_COMPASS = {(0, 1): "N", (1, 1): "NE", (1, 0): "E", (1, -1): "SE", (0, -1): "S",
            (-1, -1): "SW", (-1, 0): "W", (-1, 1): "NW"}

KEY_COLUMNS = ("label", "id", "side", "name", "kind", "strength", "state")
"""Columns of the key, in order (a column nobody fills is left out)."""


def side_prefixes(view: Mapping[str, Any]) -> dict[str, str]:
    """Each side's letter: its initial, or ``A``, ``B`` ... when initials clash."""
    sides = [str(s) for s in view.get("sides", [])]
    initials = [s[:1].upper() or "?" for s in sides]
    if len(set(initials)) != len(initials) or not all(i.isalpha() for i in initials):
        initials = [chr(ord("A") + i) for i in range(len(sides))]
    return dict(zip(sides, initials))


def unit_labels(view: Mapping[str, Any]) -> dict[str, str]:
    """A short label for every unit of the view: side letter and number within the side."""
    prefixes = side_prefixes(view)
    counts: dict[str, int] = {}
    labels: dict[str, str] = {}
    for unit in view.get("units", []):
        side = str(unit.get("side"))
        counts[side] = counts.get(side, 0) + 1
        labels[str(unit["id"])] = f"{prefixes.get(side, '?')}{counts[side]}"
    return labels


def is_placed(unit: Mapping[str, Any]) -> bool:
    """Whether the unit has a place on the map (grid squares or a table footprint)."""
    if "polygon" in unit:
        return len(unit.get("polygon") or []) >= 3
    return unit.get("x") is not None and unit.get("y") is not None


def facing_text(facing: Any) -> str:
    """``N`` for a grid direction ``[0, 1]``, ``90°`` for a table bearing."""
    if isinstance(facing, (list, tuple)):
        return _COMPASS.get((int(facing[0]), int(facing[1])), str(list(facing)))
    return f"{float(facing):g}°"


def unit_state(unit: Mapping[str, Any]) -> str:
    """The unit's state in a few words: anything but plain active, wounded, facing."""
    parts = []
    status = str(unit.get("status") or "active")
    if status != "active":
        parts.append(status)
    elif not is_placed(unit):
        parts.append("off the map")
    if unit.get("wounded"):
        parts.append("wounded")
    if unit.get("facing") is not None and is_placed(unit) and status == "active":
        parts.append(f"faces {facing_text(unit['facing'])}")
    return ", ".join(parts)


def key_rows(view: Mapping[str, Any], labels: Mapping[str, str] | None = None) -> list[list[str]]:
    """One row per unit, side by side in the view's order: label (when given), id, side, name
    (when not the id), kind, strength, state."""
    sides = [str(s) for s in view.get("sides", [])]
    units = sorted(view.get("units", []), key=lambda u: (
        sides.index(str(u.get("side"))) if str(u.get("side")) in sides else len(sides)))
    rows = []
    for unit in units:
        uid = str(unit["id"])
        name = str(unit.get("name") or "")
        rows.append([
            labels.get(uid, "") if labels else "",
            uid,
            str(unit.get("side") or ""),
            "" if name == uid else name,
            str(unit.get("kind") or ""),
            str(unit.get("strength") or ""),
            unit_state(unit),
        ])
    return rows


def key_lines(rows: Sequence[Sequence[str]], gap: int = 2) -> list[str]:
    """The rows as aligned text under a header; columns nobody fills are left out."""
    used = [i for i in range(len(KEY_COLUMNS)) if any(row[i] for row in rows)]
    table = [[KEY_COLUMNS[i] for i in used]] + [[row[i] for i in used] for row in rows]
    widths = [max(len(line[j]) for line in table) for j in range(len(used))]
    return [(" " * gap).join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
            for line in table]
