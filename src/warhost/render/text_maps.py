"""Text maps for the terminal (``warhost play``): the battlefield, a legend and a key.

Each square of a grid view (or each ``inches_per_cell`` square of a table view) is a few
characters wide: a terrain character, or the short label of the unit standing there
(:func:`warhost.render.map_key.unit_labels`). Under the map, a legend line explains every
character and mark used, and the key lists each side's units: label, id, class mark and
state. North is up.

Example:
    >>> view = {"width": 3, "height": 2, "sides": ["Good"], "cells": [],
    ...         "units": [{"id": "g1", "side": "Good", "x": 1, "y": 0}]}
    >>> print(text_map(view))
      1 .  .  .
      0 .  G1 .
        0  1  2
    Legend: . clear; G1 a unit (see the key)
    Good: G1 g1
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from warhost.render.map_key import is_placed, side_prefixes, unit_labels, unit_state

TERRAIN_LETTERS: dict[str, str] = {
    "clear": ".", "blocking": "#", "hindering": "%", "elevated": "^", "slope": "/",
    "cliff": "|", "concealing": "&", "shallow_water": "~", "deep_water": "=",
    "impassable": "X", "cover": ":", "high_ground": "^",
    # dnd35-wars kinds of ground and structure
    "difficult": ",", "light_forest": "f", "heavy_forest": "t", "jungle": "j", "ruins": "r",
    "rocky": "*", "building": "b", "castle": "c", "swamp": "s", "sand": ":", "desert": "d",
    "water": "~", "ruins_structure": "x", "wooden_structure": "=",
    "light_stone_structure": "=", "keep_structure": "#", "heavy_stone_structure": "#",
    "castle_structure": "#",
}
"""Character of each terrain type of a grid view (unknown types are ``?``)."""

AREA_LETTERS: dict[str, str] = {
    "forest": "%", "wood": "%", "woods": "%", "ruins": "#", "fields": ":", "field": ":",
    "water": "~", "river": "~", "lake": "~", "stream": "~",
}
"""Character of each kind of table area (other kinds are ``+``)."""

EFFECT_LETTERS: dict[str, str] = {
    "impassable": "X", "blocks sight": "#", "barrier": "=", "difficult": "%", "height": "^",
    "cover": ":", "superior cover": ":", "concealment": "&", "total concealment": "&",
}
"""Character of a table area that lists ``effects`` (its first effect listed here; ``height
2`` counts as ``height``)."""

OTHER_AREA_LETTER = "+"
VICTORY_LETTER = "+"
_GONE = ("destroyed", "slain")
"""Statuses of units no longer drawn on a table map (listed in the key only)."""
_FADED = ("fled", "routed", "fleeing")
"""Statuses shown in lower case on a table map."""


def _cell_width(columns: int, label_width: int, room: int) -> int:
    """Characters per map cell: the label and a space, else the label alone, else 0 (too
    wide to draw)."""
    for width in (label_width + 1, label_width):
        if columns * width <= room:
            return width
    return 0


def _legend(symbols: Sequence[tuple[str, str]], max_width: int) -> list[str]:
    """``Legend: . clear; % hindering; ...``, wrapped between entries, never inside one."""
    entries = [f"{sym} {meaning}" if sym else meaning for sym, meaning in symbols]
    lines, line = [], "Legend:"
    for entry in entries:
        if len(line) + len(entry) + 2 > max_width and line.strip() != "Legend:":
            lines.append(line + ";")
            line = " "
        line += (" " if line.endswith(":") or line == " " else "; ") + entry
    return lines + [line]


def _key(view: Mapping[str, Any], labels: Mapping[str, str], with_strength: bool,
         max_width: int) -> list[str]:
    """Each side's units as ``label id mark state`` entries, in columns."""
    sides = [str(s) for s in view.get("sides", [])]
    head = max((len(s) for s in sides), default=0) + 2
    lines: list[str] = []
    for side in sides:
        entries = []
        for unit in view.get("units", []):
            if str(unit.get("side")) != side:
                continue
            parts = [labels.get(str(unit["id"]), ""), str(unit["id"]), str(unit.get("mark") or "")]
            if with_strength:
                parts.append(str(unit.get("strength") or ""))
            state = unit_state(unit)
            parts.append(f"({state})" if state else "")
            entries.append(" ".join(p for p in parts if p))
        if not entries:
            continue
        width = max(len(e) for e in entries) + 3
        per_line = max(1, (max_width - head) // width)
        for start in range(0, len(entries), per_line):
            chunk = entries[start:start + per_line]
            lead = f"{side}:" if start == 0 else ""
            lines.append((lead.ljust(head) + "".join(e.ljust(width) for e in chunk)).rstrip())
    return lines


def _unit_symbols(view: Mapping[str, Any], labels: Mapping[str, str],
                  lower: tuple[str, str] | None, show_labels: bool) -> list[tuple[str, str]]:
    """Legend entries for the units: what a label (or side letter) is, lower case, marks."""
    placed = [u for u in view.get("units", []) if is_placed(u)]
    if not placed:
        return []
    example = labels[str(placed[0]["id"])] if show_labels else ""
    if show_labels:
        out = [(example, "a unit (see the key)")]
    else:
        out = [(letter, f"a unit of {side}") for side, letter in side_prefixes(view).items()]
    if lower:
        out.append(lower)
    out += [(str(sym), str(meaning)) for sym, meaning in view.get("marks", [])]
    return out


def text_map(view: Mapping[str, Any], max_width: int = 120) -> str:
    """A text picture of the view with its legend and key; empty when it cannot fit in
    ``max_width`` characters. A table view is drawn by :func:`text_table_map`."""
    if view.get("geometry") == "table":
        return text_table_map(view, max_width=max_width)
    width, height = int(view["width"]), int(view["height"])
    labels = unit_labels(view)
    label_width = max((len(v) for v in labels.values()), default=1)
    cell = _cell_width(width, label_width, max_width - 4)
    show_labels = cell > 0
    if not show_labels:  # labels would not fit: one character a square, side letters
        if width > max_width - 4:
            return ""
        cell = 1
    clear = TERRAIN_LETTERS["clear"]
    rows = [[clear.ljust(cell)] * width for _ in range(height)]
    used: list[str] = []
    for c in view.get("cells", []):
        name = str(c["terrain"])
        rows[c["y"]][c["x"]] = TERRAIN_LETTERS.get(name, "?").ljust(cell)
        if name not in used:
            used.append(name)
    victory = False
    for area in view.get("victory_areas", []):
        for sq in area.get("squares", []):
            if rows[sq[1]][sq[0]].strip() == clear:
                rows[sq[1]][sq[0]] = VICTORY_LETTER.ljust(cell)
                victory = True
    prefixes = side_prefixes(view)
    wounded: tuple[str, str] | None = None
    faded: tuple[str, str] | None = None
    for u in view.get("units", []):
        if not is_placed(u):
            continue
        mark = labels[str(u["id"])] if show_labels else prefixes.get(str(u.get("side")), "?")
        if u.get("wounded"):
            mark = mark.lower()
            wounded = wounded or (mark, "wounded (lower case)")
        if u.get("squares"):  # a unit of counters: its label on every counter
            if str(u.get("status") or "active") in _FADED:
                mark = mark.lower()
                faded = faded or (mark, "fled or routed (lower case)")
            for sx, sy in u["squares"]:
                if 0 <= sy < height and 0 <= sx < width:
                    rows[sy][sx] = mark.ljust(cell)
            continue
        for dy in range(u.get("h", 1)):
            for dx in range(u.get("w", 1)):
                if 0 <= u["y"] + dy < height and 0 <= u["x"] + dx < width:
                    rows[u["y"] + dy][u["x"] + dx] = mark.ljust(cell)
    lines = [f"{y:>3} " + "".join(rows[y]).rstrip() for y in range(height - 1, -1, -1)]
    lines.append("    " + "".join(str(x % 10).ljust(cell) for x in range(width)).rstrip())
    symbols = [(clear, "clear")]
    symbols += [(TERRAIN_LETTERS.get(n, "?"), n.replace("_", " ")) for n in used if n != "clear"]
    if victory:
        symbols.append((VICTORY_LETTER, "victory area"))
    symbols += _unit_symbols(view, labels, wounded, show_labels)
    if faded:
        symbols.append(faded)
    if view.get("scale"):
        symbols.append(("", str(view["scale"])))
    lines += _legend(symbols, max_width)
    return "\n".join(lines + _key(view, labels if show_labels else {}, False, max_width))


def text_table_map(view: Mapping[str, Any], inches_per_cell: float = 2.0,
                   max_width: int = 120) -> str:
    """A coarse text picture of a table view, one cell per ``inches_per_cell`` square, with its
    legend and key.

    A unit shows as its short label on every cell it fills to 30% or more and on the cell
    holding its centre, or, when the view lists its ``trays``, on those of each tray or model
    base (lower case when it fled, routed or is fleeing; destroyed units and slain
    characters are only listed in the key). Elsewhere an area covering the middle of the cell
    shows by :data:`AREA_LETTERS`, else ``.``. Rows are labelled with the inch at their south
    edge and the bottom line marks every 10 inches. Empty when wider than ``max_width``.
    """
    import numpy as np
    import shapely

    width, height = float(view["width"]), float(view["height"])
    cols = max(1, math.ceil(width / inches_per_cell - 1e-9))
    nrows = max(1, math.ceil(height / inches_per_cell - 1e-9))

    def inch(v: float) -> str:
        return f"{v:g}"

    label_w = max(len(inch(r * inches_per_cell)) for r in range(nrows))
    labels = unit_labels(view)
    cell = _cell_width(cols, max((len(v) for v in labels.values()), default=1),
                       max_width - label_w - 1)
    if cell == 0:
        return ""
    xs = (np.arange(cols) + 0.5) * inches_per_cell
    ys = (np.arange(nrows) + 0.5) * inches_per_cell
    gx, gy = np.meshgrid(xs, ys)  # gx[row, col], row 0 southmost
    clear = TERRAIN_LETTERS["clear"]
    rows = [[clear.ljust(cell)] * cols for _ in range(nrows)]

    def paint(corners: list[tuple[float, float]], mark: str, unit: bool) -> None:
        poly = shapely.Polygon(corners)
        if not unit:
            hit = shapely.intersects_xy(poly, gx, gy)
            for r, c in zip(*np.nonzero(hit)):
                rows[int(r)][int(c)] = mark.ljust(cell)
            return
        # A unit marks every cell it fills to 30% or more, and the cell holding its centre.
        x0, y0, x1, y1 = poly.bounds
        c0, c1 = max(0, int(x0 // inches_per_cell)), min(cols - 1, int(x1 // inches_per_cell))
        r0, r1 = max(0, int(y0 // inches_per_cell)), min(nrows - 1, int(y1 // inches_per_cell))
        if c0 <= c1 and r0 <= r1:
            cc, rr = np.meshgrid(np.arange(c0, c1 + 1), np.arange(r0, r1 + 1))
            boxes = shapely.box(cc * inches_per_cell, rr * inches_per_cell,
                                (cc + 1) * inches_per_cell, (rr + 1) * inches_per_cell)
            share = shapely.area(shapely.intersection(boxes, poly)) / inches_per_cell**2
            for r, c in zip(rr[share >= 0.3], cc[share >= 0.3]):
                rows[int(r)][int(c)] = mark.ljust(cell)
        cx = sum(p[0] for p in corners) / len(corners)
        cy = sum(p[1] for p in corners) / len(corners)
        c, r = int(cx // inches_per_cell), int(cy // inches_per_cell)
        if 0 <= r < nrows and 0 <= c < cols:
            rows[r][c] = mark.ljust(cell)

    kinds: dict[str, str] = {}
    for area in view.get("areas", []):
        corners = _xy(area.get("polygon") or [])
        if len(corners) >= 3:
            kind = str(area.get("kind", ""))
            letter = area_letter(kind, area.get("effects") or ())
            paint(corners, letter, False)
            kinds.setdefault(kind, letter)
    faded: tuple[str, str] | None = None
    for u in view.get("units", []):
        status = str(u.get("status") or "active")
        if not is_placed(u) or status in _GONE:
            continue
        mark = labels[str(u["id"])]
        if status in _FADED:
            mark = mark.lower()
            faded = faded or (mark, "fleeing (lower case)" if status == "fleeing"
                              else "fled or routed (lower case)")
        trays = [_xy(t) for t in u.get("trays") or [] if len(t) >= 3]
        for corners in trays or [_xy(u["polygon"])]:  # each tray or base, else the outline
            paint(corners, mark, True)

    lines = [f"{inch(r * inches_per_cell):>{label_w}} " + "".join(rows[r]).rstrip()
             for r in range(nrows - 1, -1, -1)]
    axis = [" "] * (cols * cell + 6)
    for v in range(0, math.ceil(width), 10):  # a label at the cell whose west edge is v
        c, text = int(v // inches_per_cell) * cell, str(v)
        if all(ch == " " for ch in axis[max(0, c - 1):c + len(text)]):
            axis[c:c + len(text)] = list(text)
    lines.append(" " * (label_w + 1) + "".join(axis).rstrip())
    symbols = [(clear, "open ground"), *_area_symbols(kinds)]
    symbols += _unit_symbols(view, labels, faded, True)
    symbols.append(("", f"each cell {inches_per_cell:g} in square"))
    lines += _legend(symbols, max_width)
    return "\n".join(lines + _key(view, labels, True, max_width))


def area_letter(kind: str, effects: Sequence[str] = ()) -> str:
    """The character of a table area of ``kind`` (or, when it lists ``effects``, of its
    first effect with a character)."""
    for effect in effects:
        word = "height" if str(effect).startswith("height") else str(effect)
        if word in EFFECT_LETTERS:
            return EFFECT_LETTERS[word]
    return AREA_LETTERS.get(kind, OTHER_AREA_LETTER)


def _area_symbols(kinds: Mapping[str, str]) -> list[tuple[str, str]]:
    """One legend entry per character, naming every area kind it stands for."""
    by_letter: dict[str, list[str]] = {}
    for kind, letter in kinds.items():
        by_letter.setdefault(letter, []).append(kind.replace("_", " ") or "area")
    return [(letter, " or ".join(names)) for letter, names in by_letter.items()]


def _xy(polygon: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    """A polygon's corners as float pairs."""
    return [(float(p[0]), float(p[1])) for p in polygon]

