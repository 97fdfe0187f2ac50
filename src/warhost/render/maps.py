"""Battlefield maps drawn from a ruleset's map view (:meth:`Ruleset.map_view`).

A map view is plain data::

    {"width": 30, "height": 20,
     "cells": [{"x": 3, "y": 4, "terrain": "hindering", "level": 0}, ...],   # non-clear squares
     "units": [{"id": "g1", "side": "Good", "name": "Ser Corvin", "mark": "W*",
                "kind": "elite Warrior (infantry)", "strength": "2d6, 1 Fate",
                "x": 2, "y": 0, "w": 1, "h": 1, "facing": [0, 1] or None,
                "status": "active", "wounded": False}, ...],
     "marks": [["W", "Warrior"], ["*", "elite (2 dice)"], ...],
     "sides": ["Good", "Evil"],
     "victory_areas": [{"name": "ford", "squares": [[10, 10], ...]}],
     "round": 3, "scores": {"Good": 2, "Evil": 5}}

Square ``(x, y)`` covers ``[x, x+1] x [y, y+1]``; y grows upwards (north). A unit off the map
(``x`` None: defeated, say) is listed in the key only. ``mark`` is a short symbol drawn on the
unit and ``marks`` explains its parts in the legend; ``name``, ``kind`` and ``strength`` are
words for the key. All of them are optional.

Grid views may also give a unit ``squares`` (``[[x, y], ...]``: a unit of many counters, one
square each, drawn as one outlined shape and labelled once, along the row through its
``(x, y)``; faded and hatched by status like table units), or ``"figure": true`` (a creature
standing alone, drawn as a disc) and a ``health`` (the share of its starting hit points left,
0 to 1, drawn as a bar along the foot of its shape); a cell ``"water": true`` (water over the cell's own kind of
ground, drawn as blue lines); and the view a ``scale`` (words such as ``1 square = 15 ft``,
added to the title and the text legend).

Battles fought on an open table (see :mod:`warhost.geometry.table`) give a *table* view instead,
in inches from the south-west corner, with facings as compass bearings (0 north, 90 east)::

    {"geometry": "table", "width": 48, "height": 36,
     "areas": [{"name": "Old wood", "kind": "forest", "polygon": [[x, y], ...]}, ...],
     "units": [{"id": "H-1", "side": "Humans", "name": "Spears", "kind": "...",
                "strength": "38/40 members", "polygon": [[x, y], ...],
                "status": "active" | "fled" | "routed" | "destroyed",
                "stance": "close" | "open" | None, "facing": 90.0 | None}, ...],
     "sides": ["Humans", "Orcs"], "round": 3, "scores": {"Humans": 1, "Orcs": 0}}

A unit without a polygon (one that left the table, say) is not drawn. Table views may say
more, all optional: a unit's ``trays`` (one polygon per company tray or model base, drawn
each on its own, as circles when ``"bases": "round"``), its ``arcs`` (short line segments
``[[x, y], [x, y]]`` bounding its front arc) and the statuses ``fleeing`` and ``engaged``; an
area's ``effects`` (words such as ``height 1``, ``difficult``, ``cover``: the area is coloured
by the first one :data:`EFFECT_COLOURS` knows, and its ``kind`` names it in the legend).

Every unit drawn is labelled with its id or, when ids do not fit on their units, with a short
label (``G1``, see :mod:`warhost.render.map_key`); a key under the map gives each unit's
label, id, name, kind, strength and state, and the legend beside it explains every colour and
symbol used. :func:`draw_map` writes a PNG or SVG with matplotlib (:func:`map_figure` gives the
figure itself); :func:`text_map` gives the text picture for the terminal. Both accept either
kind of view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warhost.core.errors import WarhostError
from warhost.core.replay import atomic_output
from warhost.render.map_key import is_placed, key_lines, key_rows, unit_labels
from warhost.render.text_maps import AREA_LETTERS, TERRAIN_LETTERS, text_map, text_table_map

__all__ = [
    "AREA_COLOURS", "AREA_LETTERS", "FORMATS", "SIDE_COLOURS", "TERRAIN_COLOURS",
    "TERRAIN_LETTERS", "WOUNDED_COLOUR", "area_colour", "draw_map",
    "map_figure", "map_title", "output_format", "side_colours", "text_map", "text_table_map",
]

FORMATS = ("png", "svg")

TERRAIN_COLOURS: dict[str, str] = {
    "clear": "#eef3df",
    "blocking": "#5b5b5b",
    "hindering": "#7fae5a",
    "elevated": "#c9a66b",
    "slope": "#e2cd9c",
    "cliff": "#7a5230",
    "concealing": "#3f7f4f",
    "shallow_water": "#9fd0ee",
    "deep_water": "#2f6fb0",
    "impassable": "#34495e",
    "cover": "#a9c48f",
    "high_ground": "#d8bf8a",
    # dnd35-wars kinds of ground and structure
    "difficult": "#b7c98a",
    "light_forest": "#8cbf6a",
    "heavy_forest": "#3f7f4f",
    "jungle": "#2e6b3a",
    "ruins": "#a39a8c",
    "rocky": "#9c8f7a",
    "building": "#b9855a",
    "castle": "#6f6a64",
    "swamp": "#7f9c6b",
    "sand": "#ecd9a0",
    "desert": "#e0c27f",
    "water": "#9fd0ee",
    "ruins_structure": "#8a8a8a",
    "wooden_structure": "#8b5a2b",
    "light_stone_structure": "#a8a8a8",
    "keep_structure": "#5f5f5f",
    "heavy_stone_structure": "#4f4f4f",
    "castle_structure": "#3a3a3a",
}
"""Fill colour of each terrain type (unknown types are drawn in grey)."""

SIDE_COLOURS = ("#1f5fbf", "#c0392b", "#8e44ad", "#d4870b", "#16a085", "#2c3e50")
"""Unit colours, one per side in the view's side order."""

WOUNDED_COLOUR = "#ffd21f"
"""The wounded marker: a yellow dot, visible on every side's colour."""

_UNKNOWN_TERRAIN = "#b0b0b0"

AREA_COLOURS: dict[str, str] = {
    "forest": "#4f8f3f", "wood": "#4f8f3f", "woods": "#4f8f3f",
    "ruins": "#8a8a8a",
    "fields": "#e6d36e", "field": "#e6d36e",
    "water": "#5b9bd5", "river": "#5b9bd5", "lake": "#5b9bd5", "stream": "#5b9bd5",
}
"""Fill colour of each kind of table area (other kinds are drawn in light grey)."""

EFFECT_COLOURS: dict[str, str] = {
    "impassable": "#34495e", "blocks sight": "#5b5b5b", "barrier": "#8b5a2b",
    "difficult": "#4f8f3f", "height": "#d8bf8a", "cover": "#a9c48f",
    "superior cover": "#a9c48f", "concealment": "#7fae5a", "total concealment": "#3f7f4f",
}
"""Fill colour of a table area by what it does (its first ``effects`` word that is listed
here; ``height 2`` counts as ``height``)."""

_OTHER_AREA = "#c4c4c4"
_STATUS_ALPHA = {"active": 1.0, "engaged": 1.0, "fled": 0.45, "fleeing": 0.45, "routed": 0.45,
                 "destroyed": 0.25, "slain": 0.25}
_STATUS_HATCH = {"fled": "//", "fleeing": "//", "routed": "..", "destroyed": "xx",
                 "slain": "xx"}
_FACED = ("active", "engaged", "fled", "fleeing")
"""Statuses whose units show their facing."""
_ENGAGED_EDGE = "#ffd21f"
_TRAY_EDGE = "#f2f2f2"
"""Light lines between a unit's company trays, so each tray shows on the side's colour."""
_WATER_LINES = "#2f6fb0"
"""The blue lines over squares of water that are also another kind of ground."""
_INK = "#1e1e1e"
_MIN_FONT = 3.5
"""Smallest font a unit label is drawn at; a smaller unit keeps its label in the key only."""
_KEY_FONT = 6.5
_LEGEND_FONT = 7.0
_CHAR = 0.62
"""Width of a bold sans-serif character, in ems (generous, so labels never spill over)."""
_MONO_CHAR = 0.602
"""Width of a DejaVu Sans Mono character, in ems."""


def side_colours(sides: Sequence[str]) -> dict[str, str]:
    """A colour for each side, in order."""
    return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}


def map_title(view: Mapping[str, Any], heading: str = "", when: str = "") -> str:
    """``heading — round 3 — Good 2 : Evil 5`` (``when`` replaces ``round 3``), then the
    view's ``scale`` words when it has them (``1 square = 15 ft``)."""
    scores = view.get("scores") or {}
    score_text = " : ".join(f"{side} {scores[side]}" for side in view.get("sides", scores)
                            if side in scores)
    parts = [p for p in (heading, when or f"round {view.get('round', 0)}", score_text,
                         str(view.get("scale") or "")) if p]
    return " — ".join(parts)


def output_format(path: str | Path) -> str:
    """``png`` or ``svg`` from the file name; anything else is an error."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise WarhostError(
            f"cannot tell the image format from {Path(path).name!r}: use a .png or .svg name",
            field="out",
        )
    return suffix


def draw_map(view: Mapping[str, Any], path: str | Path, title: str | None = None) -> None:
    """Draw ``view`` into ``path`` (``.png`` or ``.svg``), replacing it atomically.

    See :func:`map_figure` for what the picture shows.
    """
    fmt = output_format(path)
    fig = map_figure(view, title)
    with atomic_output(path) as temp:
        fig.savefig(temp, format=fmt, bbox_inches="tight", pad_inches=0.15)


def map_figure(view: Mapping[str, Any], title: str | None = None) -> Any:
    """The map of ``view`` as a matplotlib ``Figure``.

    Grid views: terrain squares filled by type (with their height level where it matters),
    grid lines, victory areas hatched, units as rectangles in their side's colour with their
    label and class mark, an arrow for a facing and a yellow dot when wounded. Table views:
    areas filled by kind and named, units as their footprints with their label along the
    frontage and a tick on the front edge; units that fled or routed are faded and hatched,
    destroyed ones nearly transparent. Both: a legend beside the map for every colour and
    symbol used, the key under it, and the round and scores in the title.
    """
    if view.get("geometry") == "table":
        return _table_figure(view, title)
    return _grid_figure(view, title)


# --------------------------------------------------------------------------- legend and key


def _tex(symbol: str) -> str:
    """A symbol as a mathtext marker (``*`` is an operator there)."""
    return "$\\mathsf{" + symbol.replace("*", "\\ast") + "}$"


def _symbol(symbol: str, meaning: str) -> Any:
    """A legend entry showing ``symbol`` as text (none for an empty symbol)."""
    from matplotlib.lines import Line2D

    if not symbol:
        return Line2D([], [], linestyle="", label=meaning)
    return Line2D([], [], linestyle="", marker=_tex(symbol), color=_INK,
                  markersize=5.5 * max(1.0, len(symbol) * 0.75), label=meaning)


def _unit_handles(view: Mapping[str, Any], labels: Mapping[str, str], short: bool,
                  dropped: bool) -> list[Any]:
    """Legend entries for how units are named: the label, the marks, units off the map."""
    units = list(view.get("units", []))
    placed = [u for u in units if is_placed(u)]
    handles = []
    if short and placed:
        example = labels[str(placed[0]["id"])]
        handles.append(_symbol(example, "unit label (see the key)"))
    handles += [_symbol(sym, str(meaning)) for sym, meaning in view.get("marks", [])]
    if len(placed) < len(units):
        handles.append(_symbol("", "units off the map: in the key only"))
    if dropped:
        handles.append(_symbol("", "units too small for a label: see the key"))
    return handles


def _place_key(fig: Any, ax: Any, legend: Any, lines: list[str]) -> None:
    """Write the key (``lines``: header, then one line per unit) under the map: one column,
    or more side by side (as many as the map and legend are wide) when one would be taller than
    half the map; below the legend where it reaches under it."""
    if len(lines) < 2:
        return
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    px = fig.dpi / 72  # pixels per point
    ax_box = ax.get_tightbbox(renderer)
    leg_box = legend.get_window_extent(renderer)
    header, body = lines[0], lines[1:]
    col = (max(len(line) for line in lines) + 4) * _MONO_CHAR * _KEY_FONT * px
    line_h = 1.2 * _KEY_FONT * px
    left, right = ax_box.x0, max(ax_box.x1, leg_box.x1)
    # One column, unless it would run past half the map's height and there is room for more.
    tall = max(10, int(ax.get_window_extent(renderer).height / 2 // line_h))
    cols = max(1, min(int((right - left) // col), math.ceil(len(body) / tall)))
    per = math.ceil(len(body) / cols)
    cols = math.ceil(len(body) / per)
    gap = 8 * px
    top = ax_box.y0 - gap
    if left + cols * col > leg_box.x0 and leg_box.y0 - gap < top:
        top = leg_box.y0 - gap
    width, height = fig.bbox.width, fig.bbox.height
    fig.text(left / width, top / height, "Key", fontsize=_KEY_FONT + 1, fontweight="bold",
             va="top", ha="left", color=_INK)
    top -= 1.6 * line_h
    for i in range(cols):
        chunk = body[i * per:(i + 1) * per]
        fig.text((left + i * col) / width, top / height, "\n".join([header, *chunk]),
                 family="monospace", fontsize=_KEY_FONT, va="top", ha="left", color=_INK,
                 linespacing=1.2)


def _legend(ax: Any, handles: list[Any]) -> Any:
    return ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                     fontsize=_LEGEND_FONT, frameon=False, borderaxespad=0, handlelength=1.6)


def _fits(text: str, font: float, room_pt: float) -> bool:
    return len(text) * _CHAR * font <= room_pt


# --------------------------------------------------------------------------- grid maps


def _grid_figure(view: Mapping[str, Any], title: str | None) -> Any:
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    width, height = int(view["width"]), int(view["height"])
    colours = side_colours(list(view.get("sides", [])))
    cell = max(0.06, min(0.32, 11.0 / max(width, height)))  # inches per square
    fig_w, fig_h = width * cell + 3.2, height * cell + 1.0
    fig = Figure(figsize=(fig_w, fig_h), dpi=110)
    ax = fig.add_axes((0.6 / fig_w, 0.5 / fig_h, width * cell / fig_w, height * cell / fig_h))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.set_facecolor(TERRAIN_COLOURS["clear"])
    font = max(4.0, min(9.0, cell * 26))

    present = []
    has_level = has_water = False
    for c in view.get("cells", []):
        name = str(c["terrain"])
        if name not in present:
            present.append(name)
        ax.add_patch(Rectangle((c["x"], c["y"]), 1, 1, linewidth=0,
                               facecolor=TERRAIN_COLOURS.get(name, _UNKNOWN_TERRAIN), zorder=1))
        if c.get("water"):  # water over another kind of ground: blue lines across it
            has_water = True
            ax.add_patch(Rectangle((c["x"], c["y"]), 1, 1, fill=False, hatch="---",
                                   edgecolor=_WATER_LINES, linewidth=0, zorder=1.5))
        level = int(c.get("level") or 0)
        if level and (level != 1 or name != "elevated") and cell >= 0.15:
            has_level = True
            ax.text(c["x"] + 0.5, c["y"] + 0.5, str(level), ha="center", va="center",
                    fontsize=font * 0.8, color="#333333", zorder=2)

    step = 1 if max(width, height) <= 80 else 5 if max(width, height) <= 200 else 10
    segments = [[(x, 0), (x, height)] for x in range(0, width + 1, step)]
    segments += [[(0, y), (width, y)] for y in range(0, height + 1, step)]
    ax.add_collection(LineCollection(segments, colors="#9a9a9a",
                                     linewidths=0.4 if step == 1 else 0.3, zorder=3))

    for area in view.get("victory_areas", []):
        for sq in area.get("squares", []):
            ax.add_patch(Rectangle((sq[0], sq[1]), 1, 1, fill=False, hatch="//",
                                   edgecolor="#d4a017", linewidth=1.2, zorder=4))
        squares = area.get("squares") or []
        if squares and cell >= 0.12:
            x0 = min(s[0] for s in squares)
            y1 = max(s[1] for s in squares) + 1
            ax.text(x0, y1 + 0.1, str(area.get("name", "")), fontsize=font * 0.8,
                    color="#8a6500", va="bottom", zorder=6)

    labels = unit_labels(view)
    placed = [u for u in view.get("units", []) if is_placed(u)]

    spots = {str(u["id"]): _label_spot(u) for u in placed}
    taken = _taken(placed)

    def room(u: Mapping[str, Any]) -> float:  # points across the unit's label space
        _, _, across, tall = spots[str(u["id"])]
        return ((across if u.get("squares") else min(across, tall)) - 0.2) * cell * 72

    short = not all(_fits(str(u["id"]), font, room(u)) for u in placed)
    has_wounded = has_facing = dropped = has_figures = False
    statuses: list[str] = []
    for u in placed:
        x, y, w, h = u["x"], u["y"], u.get("w", 1), u.get("h", 1)
        colour = colours.get(u.get("side", ""), "#444444")
        status = str(u.get("status", "active"))
        active = status == "active"
        if u.get("squares") or u.get("figure"):
            if not active and status not in statuses:
                statuses.append(status)
            has_figures = _draw_body(ax, u, colour, status) or has_figures
        else:
            ax.add_patch(Rectangle((x + 0.08, y + 0.08), w - 0.16, h - 0.16, facecolor=colour,
                                   edgecolor="black", linewidth=0.6,
                                   alpha=1.0 if active else 0.45, zorder=5))
        text = labels[str(u["id"])] if short else str(u["id"])
        cx, cy, across, tall = spots[str(u["id"])]
        size = min(font * min(across, tall) ** 0.5, room(u) / (_CHAR * len(text)))
        mark = str(u.get("mark") or "")
        two = min(size, room(u) / 2.0)  # label over mark: about two lines of text
        if size < _MIN_FONT:
            dropped = True
        elif mark and two >= 5.0 and _fits(mark, 0.8 * two, room(u)):
            centre = (cx, cy)
            for words, scale, dy in ((text, 1.0, 0.5 * two), (mark, 0.8, -0.55 * two)):
                ax.annotate(words, centre, xytext=(0, dy), textcoords="offset points",
                            ha="center", va="center", color="white", fontsize=two * scale,
                            fontweight="bold", zorder=7)
        else:
            ax.text(cx, cy, text, ha="center", va="center", color="white",
                    fontsize=size, fontweight="bold", zorder=7)
        facing = u.get("facing")
        if facing and u.get("squares"):
            has_facing = _shape_arrow(ax, u["squares"], facing, taken) or has_facing
        elif facing:
            has_facing = True
            cx, cy = x + w / 2, y + h / 2  # from the unit's edge outwards, clear of the label
            ax.annotate("", xy=(cx + facing[0] * 0.68 * w, cy + facing[1] * 0.68 * h),
                        xytext=(cx + facing[0] * 0.3 * w, cy + facing[1] * 0.3 * h),
                        arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.0,
                                    "shrinkA": 0, "shrinkB": 0}, zorder=8)
        if u.get("wounded"):
            has_wounded = True
            ax.plot([x + w - 0.13], [y + h - 0.13], marker="o", markersize=max(2.5, font * 0.5),
                    color=WOUNDED_COLOUR, markeredgecolor="black", markeredgewidth=0.6, zorder=9)

    tick = max(1, step, (max(width, height) // 15))
    ax.set_xticks([t + 0.5 for t in range(0, width, tick)], [str(t) for t in range(0, width, tick)])
    ax.set_yticks([t + 0.5 for t in range(0, height, tick)],
                  [str(t) for t in range(0, height, tick)])
    ax.tick_params(labelsize=6, length=0)

    handles: list[Any] = [Patch(facecolor=TERRAIN_COLOURS["clear"], edgecolor="#9a9a9a",
                                label="clear")]
    handles += [Patch(facecolor=TERRAIN_COLOURS.get(n, _UNKNOWN_TERRAIN), label=n.replace("_", " "))
                for n in present if n != "clear"]
    if has_level:
        handles.append(_symbol("2", "height level of the square"))
    if has_water:
        handles.append(Patch(facecolor="white", hatch="---", edgecolor=_WATER_LINES,
                             label="water (over the ground shown)"))
    if view.get("victory_areas"):
        handles.append(Patch(fill=False, hatch="//", edgecolor="#d4a017", label="victory area"))
    handles += [Patch(facecolor=c, edgecolor="black", label=s) for s, c in colours.items()]
    handles += _unit_handles(view, labels, short, dropped)
    handles += [Patch(facecolor="#777777", edgecolor="black", alpha=_STATUS_ALPHA.get(s, 0.45),
                      hatch=_STATUS_HATCH.get(s), label=s) for s in statuses]
    if any(u.get("squares") for u in placed):
        handles.append(Patch(facecolor="#777777", edgecolor="black",
                             label="unit: one square per counter"))
    if any(u.get("health") is not None for u in placed):
        handles.append(Patch(facecolor=HEALTH_BAR[1], edgecolor="black",
                             label="bar: share of starting HP left"))
    if has_figures:
        handles.append(Line2D([], [], marker="o", color="#777777", markeredgecolor="black",
                              linestyle="", label="figure: a creature on its own"))
    if has_facing:
        handles.append(Line2D([], [], marker=">", color="black", linestyle="-",
                              label="facing (arrow)"))
    if has_wounded:
        handles.append(Line2D([], [], marker="o", color=WOUNDED_COLOUR, markeredgecolor="black",
                              linestyle="", label="wounded"))
    legend = _legend(ax, handles)
    ax.set_title(title if title is not None else map_title(view), fontsize=9)
    _place_key(fig, ax, legend, key_lines(key_rows(view, labels if short else None)))
    return fig


def _label_spot(u: Mapping[str, Any]) -> tuple[float, float, float, float]:
    """Where a grid unit's label goes and the room there, in squares: ``(x, y, across,
    tall)``. A unit drawn as ``squares`` is labelled once, along the row of counters through
    its label square ``(x, y)``; a rectangle in its middle."""
    x, y = float(u["x"]), float(u["y"])
    squares = {(int(sq[0]), int(sq[1])) for sq in u.get("squares") or ()}
    if not squares or (int(x), int(y)) not in squares:
        w, h = float(u.get("w", 1)), float(u.get("h", 1))
        return x + w / 2, y + h / 2, w, h
    row = int(y)
    west = east = int(x)
    while (west - 1, row) in squares:
        west -= 1
    while (east + 1, row) in squares:
        east += 1
    return (west + east + 1) / 2, y + 0.5, float(east - west + 1), 1.0


def _draw_body(ax: Any, u: Mapping[str, Any], colour: str, status: str) -> bool:
    """A unit drawn as its ``squares`` (one filled square each, the whole shape outlined), or
    a ``figure`` (a disc in its square); faded and hatched unless active. True for a figure."""
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.patches import Circle, Rectangle

    alpha = 1.0 if status == "active" else _STATUS_ALPHA.get(status, 0.45)
    hatch = None if status == "active" else _STATUS_HATCH.get(status)
    if not u.get("squares"):
        ax.add_patch(Circle((float(u["x"]) + 0.5, float(u["y"]) + 0.5), 0.42, facecolor=colour,
                            edgecolor="black", linewidth=0.8, alpha=alpha, hatch=hatch,
                            zorder=5))
        return True
    squares = {(int(sq[0]), int(sq[1])) for sq in u["squares"]}
    ax.add_collection(PatchCollection(
        [Rectangle(sq, 1, 1) for sq in sorted(squares)], facecolor=colour,
        edgecolor=_TRAY_EDGE, linewidth=0.5, alpha=alpha, hatch=hatch, zorder=5))
    ax.add_collection(LineCollection(_outline(squares), colors="black", linewidths=1.1,
                                     zorder=5.5))
    if u.get("health") is not None:
        _health_bar(ax, squares, float(u["health"]))
    return False


HEALTH_BAR = ("#7a1010", "#3cb043")
"""The colours of a unit's hit-point bar: what is lost, what is left."""


def _health_bar(ax: Any, squares: set[tuple[int, int]], share: float) -> None:
    """A thin bar along the foot of the shape's bounding box: green for the share of starting
    hit points left, dark red for the rest."""
    from matplotlib.patches import Rectangle

    x0 = min(x for x, _ in squares)
    width = max(x for x, _ in squares) + 1 - x0
    y0 = min(y for _, y in squares) + 0.06
    share = min(1.0, max(0.0, share))
    ax.add_patch(Rectangle((x0 + 0.1, y0), width - 0.2, 0.16, facecolor=HEALTH_BAR[0],
                           edgecolor="black", linewidth=0.4, zorder=6))
    if share > 0:
        ax.add_patch(Rectangle((x0 + 0.1, y0), (width - 0.2) * share, 0.16,
                               facecolor=HEALTH_BAR[1], linewidth=0, zorder=6.1))


def _outline(squares: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The edges of ``squares`` that no other square of the set shares: the shape's outline."""
    edges = []
    for x, y in squares:
        if (x, y - 1) not in squares:
            edges.append([(x, y), (x + 1, y)])
        if (x, y + 1) not in squares:
            edges.append([(x, y + 1), (x + 1, y + 1)])
        if (x - 1, y) not in squares:
            edges.append([(x, y), (x, y + 1)])
        if (x + 1, y) not in squares:
            edges.append([(x + 1, y), (x + 1, y + 1)])
    return edges


def _taken(units: Sequence[Mapping[str, Any]]) -> set[tuple[int, int]]:
    """Every square a placed unit or figure of a grid view covers."""
    out: set[tuple[int, int]] = set()
    for u in units:
        if u.get("squares"):
            out.update((int(sq[0]), int(sq[1])) for sq in u["squares"])
        else:
            x, y = int(u["x"]), int(u["y"])
            out.update((x + dx, y + dy) for dx in range(int(u.get("w", 1)))
                       for dy in range(int(u.get("h", 1))))
    return out


def _shape_arrow(ax: Any, squares: Sequence[Sequence[int]], facing: Sequence[int],
                 taken: set[tuple[int, int]]) -> bool:
    """An arrow from the front of a shape of squares outwards along its ``facing``, unless it
    would point into a square another unit or figure holds; True if drawn."""
    fx, fy = float(facing[0]), float(facing[1])
    norm = math.hypot(fx, fy) or 1.0
    fx, fy = fx / norm, fy / norm
    centres = [(sq[0] + 0.5, sq[1] + 0.5) for sq in squares]
    cx = sum(p[0] for p in centres) / len(centres)
    cy = sum(p[1] for p in centres) / len(centres)
    reach = max((p[0] - cx) * fx + (p[1] - cy) * fy for p in centres) + 0.5
    start = (cx + fx * (reach + 0.1), cy + fy * (reach + 0.1))
    end = (start[0] + fx * 0.8, start[1] + fy * 0.8)
    if (math.floor(end[0]), math.floor(end[1])) in taken or \
            (math.floor(start[0]), math.floor(start[1])) in taken:
        return False
    ax.annotate("", xy=end, xytext=start,
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.0,
                            "shrinkA": 0, "shrinkB": 0}, zorder=8)
    return True


# --------------------------------------------------------------------------- table maps


def area_colour(kind: str, effects: Sequence[str] = ()) -> str:
    """Fill colour of a table area of ``kind`` (or, when it lists ``effects``, of the first
    effect with a colour)."""
    for effect in effects:
        word = "height" if str(effect).startswith("height") else str(effect)
        if word in EFFECT_COLOURS:
            return EFFECT_COLOURS[word]
    return AREA_COLOURS.get(kind, _OTHER_AREA)


def _draw_trays(ax: Any, u: Mapping[str, Any], colour: str, alpha: float,
                hatch: str | None) -> bool:
    """Each company tray (or model base) of ``u`` on its own; True if any was drawn."""
    from matplotlib.patches import Circle
    from matplotlib.patches import Polygon as PolygonPatch

    trays = [_xy(t) for t in u.get("trays") or [] if len(t) >= 3]
    round_bases = u.get("bases") == "round"
    for corners in trays:
        if round_bases:  # the circle inside the square base
            side = math.dist(corners[0], corners[1])
            centre = (sum(p[0] for p in corners) / len(corners),
                      sum(p[1] for p in corners) / len(corners))
            ax.add_patch(Circle(centre, side / 2, facecolor=colour,
                                edgecolor="black", linewidth=0.4, alpha=alpha, hatch=hatch,
                                zorder=5))
        else:
            ax.add_patch(PolygonPatch(corners, closed=True, facecolor=colour,
                                      edgecolor=_TRAY_EDGE, linewidth=0.8, alpha=alpha,
                                      hatch=hatch, zorder=5))
    return bool(trays)


def _draw_arcs(ax: Any, u: Mapping[str, Any]) -> bool:
    """The short lines bounding the unit's front arc; True if any was drawn."""
    segments = [_xy(seg) for seg in u.get("arcs") or [] if len(seg) == 2]
    for a, b in segments:
        ax.plot([a[0], b[0]], [a[1], b[1]], color="#555555", linewidth=0.6,
                linestyle=(0, (2, 1.5)), zorder=4)
    return bool(segments)


def _draw_markers(ax: Any, view: Mapping[str, Any], colours: Mapping[str, str], tick: float,
                  font: float) -> bool:
    """Things on the table that are not units (a view's ``markers``: each a ``polygon``,
    ``side``, optional ``facing``, ``label`` and ``status``); True if any was drawn."""
    from matplotlib.patches import Polygon as PolygonPatch

    drawn = False
    for m in view.get("markers") or []:
        corners = _xy(m.get("polygon") or [])
        if len(corners) < 3:
            continue
        drawn = True
        status = str(m.get("status") or "active")
        faded = status in ("destroyed", "abandoned")
        ax.add_patch(PolygonPatch(corners, closed=True,
                                  facecolor=colours.get(str(m.get("side", "")), "#444444"),
                                  edgecolor="black", linewidth=0.9, hatch="xx",
                                  alpha=0.35 if faded else 0.8, zorder=5.2))
        if m.get("facing") is not None and status != "destroyed":
            a, b = _facing_tick(corners, float(m["facing"]), tick)
            ax.plot([a[0], b[0]], [a[1], b[1]], color="black", linewidth=1.4,
                    solid_capstyle="butt", zorder=6)
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        ax.text(max(xs) + 0.3, min(ys), str(m.get("label") or m.get("id", "")), ha="left",
                va="bottom", color=_INK, fontsize=font * 0.8, zorder=7)
    return drawn


def _xy(polygon: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    """A polygon's corners as float pairs."""
    return [(float(p[0]), float(p[1])) for p in polygon]


def _facing_tick(corners: Sequence[tuple[float, float]], facing: float,
                 length: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """A short segment from the middle of a shape's front edge outwards along ``facing``."""
    fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    cx = sum(p[0] for p in corners) / len(corners)
    cy = sum(p[1] for p in corners) / len(corners)
    reach = max((p[0] - cx) * fx + (p[1] - cy) * fy for p in corners)
    start = (cx + fx * reach, cy + fy * reach)
    return start, (start[0] + fx * length, start[1] + fy * length)


def _bounds(corners: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def _overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two boxes ``(x0, y0, x1, y1)`` overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _frontage(corners: Sequence[tuple[float, float]],
              facing: float | None) -> tuple[float, float, float]:
    """``(frontage, depth, angle)``: the shape's extent along and across its front (in
    inches) and the angle that runs text along the front, kept upright."""
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    frontage, depth = max(xs) - min(xs), max(ys) - min(ys)
    angle = 0.0
    if facing is not None:
        angle = (-float(facing) + 90.0) % 180.0 - 90.0
        if abs(angle) > 45:
            frontage, depth = depth, frontage
    return frontage, depth, angle


def _table_figure(view: Mapping[str, Any], title: str | None) -> Any:
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.patches import Polygon as PolygonPatch
    from shapely.geometry import Polygon as ShapelyPolygon
    from shapely.ops import polylabel

    width, height = float(view["width"]), float(view["height"])
    colours = side_colours(list(view.get("sides", [])))
    scale = max(0.03, min(0.25, 11.0 / max(width, height)))  # figure inches per table inch
    fig_w, fig_h = width * scale + 3.2, height * scale + 1.0
    fig = Figure(figsize=(fig_w, fig_h), dpi=110)
    ax = fig.add_axes((0.6 / fig_w, 0.5 / fig_h, width * scale / fig_w, height * scale / fig_h))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.set_facecolor(TERRAIN_COLOURS["clear"])
    font = max(4.0, min(8.0, scale * 30))

    step = 6 if max(width, height) <= 120 else 12 if max(width, height) <= 240 else 24
    for x in range(0, int(width) + 1, step):
        ax.axvline(x, color="#b8bca8", linewidth=0.4, zorder=0.5)
    for y in range(0, int(height) + 1, step):
        ax.axhline(y, color="#b8bca8", linewidth=0.4, zorder=0.5)

    kinds: dict[str, str] = {}
    for area in view.get("areas", []):
        corners = _xy(area.get("polygon") or [])
        if len(corners) < 3:
            continue
        kind = str(area.get("kind", ""))
        fill = area_colour(kind, area.get("effects") or ())
        kinds.setdefault(kind, fill)
        ax.add_patch(PolygonPatch(corners, closed=True, facecolor=fill,
                                  edgecolor="#3d3d3d", linewidth=0.6, alpha=0.85, zorder=1))
        if area.get("name"):
            shape = ShapelyPolygon(corners)
            spot = shape.centroid
            if not shape.contains(spot):  # a bent shape: its deepest inside point instead
                spot = polylabel(shape, tolerance=0.1)
            ax.text(spot.x, spot.y, str(area["name"]), ha="center", va="center",
                    fontsize=font * 0.9, style="italic", color=_INK, zorder=2)

    labels = unit_labels(view)
    placed = [u for u in view.get("units", []) if is_placed(u)]

    def inside(u: Mapping[str, Any], text: str) -> bool:  # the text fits along the front
        front, depth, _ = _frontage(_xy(u["polygon"]), u.get("facing"))
        return depth * scale * 72 >= 1.3 * font and _fits(text, font, front * scale * 72 * 0.9)

    def beside(u: Mapping[str, Any], text: str) -> tuple[float, float, float, float]:
        """The box (inches) of a label written beside the unit, east of it."""
        corners = _xy(u["polygon"])
        x0 = max(p[0] for p in corners) + 0.3
        cy = sum(p[1] for p in corners) / len(corners)
        half = 0.6 * font / 72 / scale
        return (x0, cy - half, x0 + len(text) * _CHAR * 0.9 * font / 72 / scale, cy + half)

    # Ids where they fit inside their units or beside them without running into another
    # unit or label; else short labels for all.
    boxes = [_bounds(_xy(u["polygon"])) for u in placed]
    outside = [beside(u, str(u["id"])) for u in placed if not inside(u, str(u["id"]))]
    short = any(b[2] > width or any(_overlap(b, o) for o in boxes + outside if o is not b)
                for b in outside)
    statuses: list[str] = []
    has_facing = has_trays = has_arcs = False
    tick = max(0.4, 0.025 * max(width, height))
    for u in placed:
        corners = _xy(u["polygon"])
        status = str(u.get("status") or "active")
        if status != "active" and status not in statuses:
            statuses.append(status)
        colour = colours.get(str(u.get("side", "")), "#444444")
        alpha, hatch = _STATUS_ALPHA.get(status, 0.45), _STATUS_HATCH.get(status)
        if _draw_trays(ax, u, colour, alpha, hatch):
            has_trays = True  # the unit's outline around its trays, unfilled
            loose = u.get("bases") == "round"  # skirmishers: a light frame around them
            ax.add_patch(PolygonPatch(corners, closed=True, fill=False,
                                      linewidth=0.5 if loose else 0.9,
                                      edgecolor=_ENGAGED_EDGE if status == "engaged"
                                      else "black", linestyle=":" if loose else "-",
                                      zorder=5.5))
        else:
            ax.add_patch(PolygonPatch(corners, closed=True, facecolor=colour,
                                      edgecolor="black", linewidth=0.6, alpha=alpha,
                                      hatch=hatch, zorder=5))
        has_arcs = _draw_arcs(ax, u) or has_arcs
        facing = u.get("facing")
        if facing is not None and status in _FACED:
            has_facing = True
            a, b = _facing_tick(corners, float(facing), tick)
            ax.plot([a[0], b[0]], [a[1], b[1]], color="black", linewidth=1.4,
                    solid_capstyle="butt", zorder=6)
        text = labels[str(u["id"])] if short else str(u["id"])
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        if inside(u, text):
            ax.text(cx, cy, text, ha="center", va="center",
                    rotation=_frontage(corners, facing)[2],
                    color="white" if status in ("active", "engaged")
                    and u.get("bases") != "round" else _INK, fontsize=font,
                    fontweight="bold", zorder=7)
        else:  # too small to hold its label: write it beside the unit
            ax.text(max(xs) + 0.3, cy, text, ha="left", va="center", color=colour,
                    fontsize=font * 0.9, fontweight="bold", zorder=7,
                    alpha=1.0 if status == "active" else 0.6)

    has_markers = _draw_markers(ax, view, colours, tick, font)

    ticks = list(range(0, int(width) + 1, step))
    ax.set_xticks(ticks, [f"{t}" for t in ticks])
    ticks = list(range(0, int(height) + 1, step))
    ax.set_yticks(ticks, [f"{t}" for t in ticks])
    ax.tick_params(labelsize=6, length=2)
    ax.set_xlabel(f"inches (1 in = 10 ft); grid lines every {step} in", fontsize=6)

    handles: list[Any] = [Patch(facecolor=fill, edgecolor="#3d3d3d", alpha=0.85,
                                label=k.replace("_", " ") or "area") for k, fill in kinds.items()]
    handles += [Patch(facecolor=c, edgecolor="black", label=s) for s, c in colours.items()]
    handles += [Patch(facecolor="#777777", edgecolor=_ENGAGED_EDGE if s == "engaged" else "black",
                      alpha=_STATUS_ALPHA.get(s, 0.45), hatch=_STATUS_HATCH.get(s),
                      label=s) for s in statuses]
    handles += _unit_handles(view, labels, short, False)
    if has_trays:
        handles.append(Patch(fill=False, edgecolor="black", label="unit outline; inside: "
                             "company trays or model bases"))
    if has_facing:
        handles.append(Line2D([], [], color="black", linewidth=1.4, label="facing (front edge)"))
    if has_arcs:
        handles.append(Line2D([], [], color="#555555", linewidth=0.6, linestyle=(0, (2, 1.5)),
                              label="front arc (45° lines)"))
    if has_markers:
        handles.append(Patch(facecolor="#777777", edgecolor="black", hatch="xx",
                             label="marker (e.g. a war machine), its facing and state"))
    legend = _legend(ax, handles)
    ax.set_title(title if title is not None else map_title(view), fontsize=9)
    _place_key(fig, ax, legend, key_lines(key_rows(view, labels if short else None)))
    return fig
