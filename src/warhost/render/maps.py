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
:func:`draw_map` writes a PNG or SVG with matplotlib; :func:`text_map` gives a small text
picture for the terminal.
"""

from __future__ import annotations

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
    round and the scores.
    """
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
    wider than ``max_width``."""
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
    sides = [str(s) for s in view.get("sides", [])]
    initials = [s[:1].upper() or "?" for s in sides]
    if len(set(initials)) != len(initials):
        initials = [chr(ord("A") + i) for i in range(len(sides))]
    marks = dict(zip(sides, initials))
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
