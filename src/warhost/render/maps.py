"""Battlefield maps drawn from a ruleset's map view (:meth:`Ruleset.map_view`).

A map view is plain data::

    {"width": 30, "height": 20,
     "cells": [{"x": 3, "y": 4, "terrain": "hindering", "level": 0}, ...],   # non-clear squares
     "units": [{"id": "g1", "side": "Good", "label": "W*", "x": 2, "y": 0, "w": 1, "h": 1,
                "facing": [0, 1] or None, "status": "active", "wounded": False}, ...],
     "sides": ["Good", "Evil"],
     "victory_areas": [{"name": "ford", "squares": [[10, 10], ...]}],
     "round": 3, "scores": {"Good": 2, "Evil": 5}}

Square ``(x, y)`` covers ``[x, x+1] x [y, y+1]``; y grows upwards (north).

Battles fought on an open table (see :mod:`warhost.geometry.table`) give a *table* view instead,
in inches from the south-west corner, with facings as compass bearings (0 north, 90 east)::

    {"geometry": "table", "width": 48, "height": 36,
     "areas": [{"name": "Old wood", "kind": "forest", "polygon": [[x, y], ...]}, ...],
     "units": [{"id": "H-1", "side": "Humans", "label": "Spears 38", "polygon": [[x, y], ...],
                "status": "active" | "fled" | "routed" | "destroyed",
                "stance": "close" | "open" | None, "facing": 90.0 | None}, ...],
     "sides": ["Humans", "Orcs"], "round": 3, "scores": {"Humans": 1, "Orcs": 0}}

A unit without a polygon (one that left the table, say) is not drawn.

:func:`draw_map` writes a PNG or SVG with matplotlib; :func:`text_map` gives a small text
picture for the terminal. Both accept either kind of view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warhost.core.errors import WarhostError
from warhost.core.replay import atomic_output

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
}
"""Fill colour of each terrain type (unknown types are drawn in grey)."""

TERRAIN_LETTERS: dict[str, str] = {
    "clear": ".", "blocking": "#", "hindering": "%", "elevated": "^", "slope": "/",
    "cliff": "|", "concealing": "&", "shallow_water": "~", "deep_water": "=",
}

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

AREA_LETTERS: dict[str, str] = {
    "forest": "%", "wood": "%", "woods": "%", "ruins": "#", "fields": ":", "field": ":",
    "water": "~", "river": "~", "lake": "~", "stream": "~",
}
"""Character of each kind of table area in :func:`text_map` (other kinds are ``+``)."""

_OTHER_AREA = "#c4c4c4"
_OTHER_AREA_LETTER = "+"
_STATUS_ALPHA = {"active": 1.0, "fled": 0.45, "routed": 0.45, "destroyed": 0.25}
_STATUS_HATCH = {"fled": "//", "routed": "..", "destroyed": "xx"}


def side_colours(sides: Sequence[str]) -> dict[str, str]:
    """A colour for each side, in order."""
    return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}


def map_title(view: Mapping[str, Any], heading: str = "", when: str = "") -> str:
    """``heading — round 3 — Good 2 : Evil 5`` (``when`` replaces ``round 3``)."""
    scores = view.get("scores") or {}
    score_text = " : ".join(f"{side} {scores[side]}" for side in view.get("sides", scores)
                            if side in scores)
    parts = [p for p in (heading, when or f"round {view.get('round', 0)}", score_text) if p]
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

    Terrain squares are filled by type, grid lines mark the squares, units are rectangles in
    their side's colour with their label, Pikes get an arrow for their facing and wounded
    units a red dot; the legend names terrain, sides and markers, and the title gives the
    round and the scores. A table view (``"geometry": "table"``) is drawn by
    :func:`draw_table_map`.
    """
    if view.get("geometry") == "table":
        draw_table_map(view, path, title)
        return
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    fmt = output_format(path)
    width, height = int(view["width"]), int(view["height"])
    colours = side_colours(list(view.get("sides", [])))
    cell = max(0.06, min(0.32, 11.0 / max(width, height)))  # inches per square
    fig = Figure(figsize=(width * cell + 3.2, height * cell + 1.0), dpi=110)
    ax = fig.add_axes((0.6 / (width * cell + 3.2), 0.5 / (height * cell + 1.0),
                       width * cell / (width * cell + 3.2), height * cell / (height * cell + 1.0)))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.set_facecolor(TERRAIN_COLOURS["clear"])
    font = max(4.0, min(9.0, cell * 26))

    present = []
    for c in view.get("cells", []):
        name = str(c["terrain"])
        if name not in present:
            present.append(name)
        ax.add_patch(Rectangle((c["x"], c["y"]), 1, 1, linewidth=0,
                               facecolor=TERRAIN_COLOURS.get(name, _UNKNOWN_TERRAIN), zorder=1))
        level = int(c.get("level") or 0)
        if level and (level != 1 or name != "elevated") and cell >= 0.15:
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

    has_wounded = has_facing = False
    for u in view.get("units", []):
        if u.get("x") is None or u.get("y") is None:
            continue
        x, y, w, h = u["x"], u["y"], u.get("w", 1), u.get("h", 1)
        colour = colours.get(u.get("side", ""), "#444444")
        active = u.get("status", "active") == "active"
        ax.add_patch(Rectangle((x + 0.08, y + 0.08), w - 0.16, h - 0.16, facecolor=colour,
                               edgecolor="black", linewidth=0.6, alpha=1.0 if active else 0.45,
                               zorder=5))
        if cell * min(w, h) >= 0.12:
            ax.text(x + w / 2, y + h / 2, str(u.get("label") or u.get("id", "")),
                    ha="center", va="center", color="white", fontsize=font * min(w, h) ** 0.5,
                    fontweight="bold", zorder=7)
        facing = u.get("facing")
        if facing:
            has_facing = True
            cx, cy = x + w / 2, y + h / 2  # from the unit's edge outwards, clear of the label
            ax.annotate("", xy=(cx + facing[0] * 0.68 * w, cy + facing[1] * 0.68 * h),
                        xytext=(cx + facing[0] * 0.3 * w, cy + facing[1] * 0.3 * h),
                        arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.0,
                                    "shrinkA": 0, "shrinkB": 0}, zorder=8)
        if u.get("wounded"):
            has_wounded = True
            ax.plot([x + w - 0.22], [y + h - 0.22], marker="o", markersize=max(2.5, font * 0.6),
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
    handles += [Patch(facecolor=c, edgecolor="black", label=s) for s, c in colours.items()]
    if view.get("victory_areas"):
        handles.append(Patch(fill=False, hatch="//", edgecolor="#d4a017", label="victory area"))
    if has_facing:
        handles.append(Line2D([], [], marker=">", color="black", linestyle="-",
                              label="pike facing"))
    if has_wounded:
        handles.append(Line2D([], [], marker="o", color=WOUNDED_COLOUR, markeredgecolor="black",
                              linestyle="", label="wounded"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7,
              frameon=False, borderaxespad=0)
    ax.set_title(title if title is not None else map_title(view), fontsize=9)

    with atomic_output(path) as temp:
        fig.savefig(temp, format=fmt, bbox_inches="tight", pad_inches=0.15)


def text_map(view: Mapping[str, Any], max_width: int = 120) -> str:
    """A text picture of the view: terrain letters, units by the initial of their side (upper
    case; lower case when wounded; A, B ... when initials clash). North is up. Empty for maps
    wider than ``max_width``. A table view is drawn by :func:`text_table_map`."""
    if view.get("geometry") == "table":
        return text_table_map(view, max_width=max_width)
    width, height = int(view["width"]), int(view["height"])
    if width > max_width:
        return ""
    rows = [[TERRAIN_LETTERS["clear"]] * width for _ in range(height)]
    for c in view.get("cells", []):
        rows[c["y"]][c["x"]] = TERRAIN_LETTERS.get(str(c["terrain"]), "?")
    for area in view.get("victory_areas", []):
        for sq in area.get("squares", []):
            if rows[sq[1]][sq[0]] == TERRAIN_LETTERS["clear"]:
                rows[sq[1]][sq[0]] = "*"
    marks = _side_marks(view)
    for u in view.get("units", []):
        if u.get("x") is None:
            continue
        mark = marks.get(str(u.get("side")), "?")
        if u.get("wounded"):
            mark = mark.lower()
        for dy in range(u.get("h", 1)):
            for dx in range(u.get("w", 1)):
                if 0 <= u["y"] + dy < height and 0 <= u["x"] + dx < width:
                    rows[u["y"] + dy][u["x"] + dx] = mark
    lines = [f"{y:>3} " + "".join(rows[y]) for y in range(height - 1, -1, -1)]
    lines.append("    " + "".join(str(x % 10) for x in range(width)))
    return "\n".join(lines)


def _side_marks(view: Mapping[str, Any]) -> dict[str, str]:
    """Initial of each side for text maps (A, B ... when initials clash)."""
    sides = [str(s) for s in view.get("sides", [])]
    initials = [s[:1].upper() or "?" for s in sides]
    if len(set(initials)) != len(initials):
        initials = [chr(ord("A") + i) for i in range(len(sides))]
    return dict(zip(sides, initials))


# --------------------------------------------------------------------------- table views


def area_colour(kind: str) -> str:
    """Fill colour of a table area of ``kind``."""
    return AREA_COLOURS.get(kind, _OTHER_AREA)


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


def draw_table_map(view: Mapping[str, Any], path: str | Path, title: str | None = None) -> None:
    """Draw a table view into ``path`` (``.png`` or ``.svg``), replacing it atomically.

    Areas are filled by kind and named, units are their footprints in their side's colour
    with their label along the frontage (beside them when too small to hold it) and a tick on
    the front edge for their facing; units
    that fled or routed are faded and hatched, destroyed ones nearly transparent. Light lines
    mark every 6 inches (1 foot).
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.patches import Polygon as PolygonPatch
    from shapely.geometry import Polygon as ShapelyPolygon
    from shapely.ops import polylabel

    fmt = output_format(path)
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

    kinds: list[str] = []
    for area in view.get("areas", []):
        corners = _xy(area.get("polygon") or [])
        if len(corners) < 3:
            continue
        kind = str(area.get("kind", ""))
        if kind not in kinds:
            kinds.append(kind)
        ax.add_patch(PolygonPatch(corners, closed=True, facecolor=area_colour(kind),
                                  edgecolor="#3d3d3d", linewidth=0.6, alpha=0.85, zorder=1))
        if area.get("name"):
            shape = ShapelyPolygon(corners)
            spot = shape.centroid
            if not shape.contains(spot):  # a bent shape: its deepest inside point instead
                spot = polylabel(shape, tolerance=0.1)
            ax.text(spot.x, spot.y, str(area["name"]), ha="center", va="center",
                    fontsize=font * 0.9, style="italic", color="#1e1e1e", zorder=2)

    statuses: list[str] = []
    has_facing = False
    tick = max(0.4, 0.025 * max(width, height))
    for u in view.get("units", []):
        corners = _xy(u.get("polygon") or [])
        if len(corners) < 3:
            continue
        status = str(u.get("status") or "active")
        if status != "active" and status not in statuses:
            statuses.append(status)
        colour = colours.get(str(u.get("side", "")), "#444444")
        ax.add_patch(PolygonPatch(corners, closed=True, facecolor=colour, edgecolor="black",
                                  linewidth=0.6, alpha=_STATUS_ALPHA.get(status, 0.45),
                                  hatch=_STATUS_HATCH.get(status), zorder=5))
        facing = u.get("facing")
        if facing is not None and status != "destroyed":
            has_facing = True
            a, b = _facing_tick(corners, float(facing), tick)
            ax.plot([a[0], b[0]], [a[1], b[1]], color="black", linewidth=1.4,
                    solid_capstyle="butt", zorder=6)
        label = str(u.get("label") or u.get("id", ""))
        if not label:
            continue
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        frontage = max(xs) - min(xs)
        depth = max(ys) - min(ys)
        angle = 0.0
        if facing is not None:  # run the label along the frontage, kept upright
            angle = (-float(facing) + 90.0) % 180.0 - 90.0
            if abs(angle) > 45:
                frontage, depth = depth, frontage
        if min(frontage, depth) * scale >= 0.1 and len(label) * font * 0.55 / 72 <= (
                frontage * scale * 1.15):
            ax.text(cx, cy, label, ha="center", va="center", rotation=angle,
                    color="white" if status == "active" else "#1e1e1e", fontsize=font,
                    fontweight="bold", zorder=7)
        else:  # too small to hold its label: write it beside the unit
            ax.text(max(xs) + 0.3, cy, label, ha="left", va="center", color=colour,
                    fontsize=font * 0.9, fontweight="bold", zorder=7,
                    alpha=1.0 if status == "active" else 0.6)

    ticks = list(range(0, int(width) + 1, step))
    ax.set_xticks(ticks, [f"{t}" for t in ticks])
    ticks = list(range(0, int(height) + 1, step))
    ax.set_yticks(ticks, [f"{t}" for t in ticks])
    ax.tick_params(labelsize=6, length=2)
    ax.set_xlabel("inches (1 in = 10 ft)", fontsize=6)

    handles: list[Any] = [Patch(facecolor=area_colour(k), edgecolor="#3d3d3d", alpha=0.85,
                                label=k.replace("_", " ") or "area") for k in kinds]
    handles += [Patch(facecolor=c, edgecolor="black", label=s) for s, c in colours.items()]
    handles += [Patch(facecolor="#777777", edgecolor="black", alpha=_STATUS_ALPHA.get(s, 0.45),
                      hatch=_STATUS_HATCH.get(s), label=s) for s in statuses]
    if has_facing:
        handles.append(Line2D([], [], color="black", linewidth=1.4, label="facing (front edge)"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=7,
              frameon=False, borderaxespad=0)
    ax.set_title(title if title is not None else map_title(view), fontsize=9)

    with atomic_output(path) as temp:
        fig.savefig(temp, format=fmt, bbox_inches="tight", pad_inches=0.15)


def text_table_map(view: Mapping[str, Any], inches_per_char: float = 2.0,
                   max_width: int = 120) -> str:
    """A coarse text picture of a table view, one character per ``inches_per_char`` square.

    A unit shows as its side's initial (upper case; lower case when it fled or routed;
    destroyed units are left out) on every square it fills to 30% or more and on the square
    holding its centre. Elsewhere an area covering the middle of the square shows by
    :data:`AREA_LETTERS`, else ``.``. North is up; rows are labelled with the inch at their south
    edge and the bottom line marks every 10 inches. Empty when wider than ``max_width``.
    """
    import numpy as np
    import shapely

    width, height = float(view["width"]), float(view["height"])
    cols = max(1, math.ceil(width / inches_per_char - 1e-9))
    nrows = max(1, math.ceil(height / inches_per_char - 1e-9))
    if cols > max_width:
        return ""
    xs = (np.arange(cols) + 0.5) * inches_per_char
    ys = (np.arange(nrows) + 0.5) * inches_per_char
    gx, gy = np.meshgrid(xs, ys)  # gx[row, col], row 0 southmost
    rows = [[TERRAIN_LETTERS["clear"]] * cols for _ in range(nrows)]

    def paint(corners: list[tuple[float, float]], mark: str, unit: bool) -> None:
        poly = shapely.Polygon(corners)
        if not unit:
            hit = shapely.intersects_xy(poly, gx, gy)
            for r, c in zip(*np.nonzero(hit)):
                rows[int(r)][int(c)] = mark
            return
        # A unit marks every square it fills to 30% or more, and the square holding its centre.
        x0, y0, x1, y1 = poly.bounds
        c0, c1 = max(0, int(x0 // inches_per_char)), min(cols - 1, int(x1 // inches_per_char))
        r0, r1 = max(0, int(y0 // inches_per_char)), min(nrows - 1, int(y1 // inches_per_char))
        if c0 <= c1 and r0 <= r1:
            cc, rr = np.meshgrid(np.arange(c0, c1 + 1), np.arange(r0, r1 + 1))
            cells = shapely.box(cc * inches_per_char, rr * inches_per_char,
                                (cc + 1) * inches_per_char, (rr + 1) * inches_per_char)
            share = shapely.area(shapely.intersection(cells, poly)) / inches_per_char**2
            for r, c in zip(rr[share >= 0.3], cc[share >= 0.3]):
                rows[int(r)][int(c)] = mark
        cx = sum(p[0] for p in corners) / len(corners)
        cy = sum(p[1] for p in corners) / len(corners)
        c, r = int(cx // inches_per_char), int(cy // inches_per_char)
        if 0 <= r < nrows and 0 <= c < cols:
            rows[r][c] = mark

    for area in view.get("areas", []):
        corners = _xy(area.get("polygon") or [])
        if len(corners) >= 3:
            paint(corners, AREA_LETTERS.get(str(area.get("kind", "")), _OTHER_AREA_LETTER),
                  False)
    marks = _side_marks(view)
    for u in view.get("units", []):
        corners = _xy(u.get("polygon") or [])
        status = str(u.get("status") or "active")
        if len(corners) < 3 or status == "destroyed":
            continue
        mark = marks.get(str(u.get("side")), "?")
        paint(corners, mark.lower() if status in ("fled", "routed") else mark, True)

    def inch(v: float) -> str:
        return f"{v:g}"

    label_w = max(len(inch(r * inches_per_char)) for r in range(nrows))
    lines = [f"{inch(r * inches_per_char):>{label_w}} " + "".join(rows[r])
             for r in range(nrows - 1, -1, -1)]
    axis = [" "] * (cols + 6)
    for v in range(0, math.ceil(width), 10):  # a label at the column whose west edge is v
        c, text = int(v // inches_per_char), str(v)
        if all(ch == " " for ch in axis[max(0, c - 1):c + len(text)]):
            axis[c:c + len(text)] = list(text)
    lines.append(" " * (label_w + 1) + "".join(axis).rstrip())
    return "\n".join(lines)
