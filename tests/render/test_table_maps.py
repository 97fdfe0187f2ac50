"""Maps of battles on an open table (``"geometry": "table"`` views), from a hand-made view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import WarhostError
from warhost.geometry.table import formation, single_footprint
from warhost.render.maps import draw_map, map_title, text_map, text_table_map


def corners(poly: Any) -> list[list[float]]:
    """A shapely polygon as the view's list of ``[x, y]`` corners."""
    return [[float(x), float(y)] for x, y in list(poly.exterior.coords)[:-1]]


SPEARS = formation(38, 10, 0.5, (24.0, 8.0), 0)  # x 21.5..26.5, y 7..9
ORCS = formation(30, 10, 0.5, (26.0, 26.0), 180)  # x 23.5..28.5, y 25.25..26.75
VIEW: dict[str, Any] = {
    "geometry": "table",
    "width": 48,
    "height": 36,
    "areas": [
        {"name": "Old wood", "kind": "forest", "polygon": [[2, 20], [12, 20], [12, 30], [2, 30]]},
        {"name": "Chapel", "kind": "ruins", "polygon": [[30, 4], [36, 4], [36, 10], [30, 10]]},
        {"name": "Barley", "kind": "fields", "polygon": [[20, 12], [28, 12], [28, 18]]},
        {"name": "Mill pond", "kind": "water", "polygon": [[38, 24], [44, 24], [44, 30]]},
        {"name": "Barrow", "kind": "hill", "polygon": [[2, 2], [8, 2], [8, 6], [2, 6]]},
    ],
    "units": [
        {"id": "H-1", "side": "Humans", "label": "Spears 38", "polygon": corners(SPEARS.polygon),
         "status": "active", "stance": "close", "facing": 0.0},
        {"id": "H-2", "side": "Humans", "label": "Captain",
         "polygon": corners(single_footprint((40.25, 2.25))), "status": "active",
         "stance": None, "facing": None},
        {"id": "O-1", "side": "Orcs", "label": "Orc band 30", "polygon": corners(ORCS.polygon),
         "status": "active", "stance": "close", "facing": 180.0},
        {"id": "O-2", "side": "Orcs", "label": "Wolves 8",
         "polygon": [[40, 14], [42, 14], [42, 18], [40, 18]], "status": "routed",
         "stance": "open", "facing": 90.0},
        {"id": "O-3", "side": "Orcs", "label": "Goblins", "polygon": [[44, 32], [46, 32], [46, 34]],
         "status": "fled", "stance": "close", "facing": 200.0},
        {"id": "O-4", "side": "Orcs", "label": "Trolls", "polygon": [[16, 4], [18, 4], [18, 6],
                                                                     [16, 6]],
         "status": "destroyed", "stance": "close", "facing": 180.0},
        {"id": "O-5", "side": "Orcs", "label": "Gone", "polygon": None, "status": "fled",
         "stance": None, "facing": None},
    ],
    "sides": ["Humans", "Orcs"],
    "round": 3,
    "scores": {"Humans": 2, "Orcs": 1},
}
PNG = b"\x89PNG\r\n\x1a\n"


def test_title_names_round_and_scores() -> None:
    assert map_title(VIEW) == "round 3 — Humans 2 : Orcs 1"


def test_draw_png(tmp_path: Path) -> None:
    out = tmp_path / "table.png"
    draw_map(VIEW, out)
    data = out.read_bytes()
    assert data[:8] == PNG and len(data) > 10_000
    assert [p.name for p in tmp_path.iterdir()] == ["table.png"]


def test_draw_svg_has_labels_and_legend(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    draw_map(VIEW, out, title="Battle of the ford")
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text[:400]
    for words in ("Battle of the ford", "Spears 38", "Captain", "Orc band 30", "Wolves 8",
                  "Old wood", "Mill pond", "forest", "ruins", "fields", "water", "hill",
                  "Humans", "Orcs", "routed", "fled", "destroyed", "facing"):
        assert words in text, words
    assert "Gone" not in text  # no polygon: not on the table


def test_draw_refuses_other_formats(tmp_path: Path) -> None:
    with pytest.raises(WarhostError, match=".png or .svg"):
        draw_map(VIEW, tmp_path / "table.gif")


def test_draw_big_table(tmp_path: Path) -> None:
    out = tmp_path / "big.png"
    draw_map(dict(VIEW, width=240, height=120), out)
    assert out.read_bytes()[:8] == PNG


def test_text_map_places_units_and_areas() -> None:
    lines = text_map(VIEW).splitlines()
    assert len(lines) == 19  # 18 rows of 2 in, then the axis
    assert lines[0].startswith("34 ") and lines[17].startswith(" 0 ")
    row = {int(line[:2]): line[3:] for line in lines[:-1]}
    assert all(len(r) == 24 for r in row.values())
    # Spears fill half or more of the squares x 22..26 in rows y 6..8 and 8..10.
    assert row[6][10:14] == ".HH." and row[8][10:14] == ".HH."
    # The Orc band (y 25.25..26.75) fills 37.5% of the squares x 24..28 in both rows.
    assert row[24][11:15] == ".OO." and row[26][11:15] == ".OO."
    assert row[2][20] == "H"  # the captain is too small to fill a square: his centre's square
    assert row[14][20] == "o" and row[16][20] == "o"  # routed: lower case
    assert row[32][22] == "o"  # fled
    assert row[4][8] == "."  # destroyed: left out
    assert row[20][1:6] == "%%%%%" and row[4][15:18] == "###" and row[2][1:4] == "+++"
    assert row[12][10:12] == ".:" and row[24][19:22] == "~~~"  # triangles: middles inside
    assert lines[-1] == "   0    10   20   30   40"


def test_text_map_scale_and_width_limit() -> None:
    fine = text_table_map(VIEW, inches_per_char=1.0).splitlines()
    assert len(fine) == 37 and len(fine[0]) == 3 + 48
    assert text_map(VIEW, max_width=20) == ""


def test_grid_views_still_drawn(tmp_path: Path) -> None:
    grid = {"width": 4, "height": 3, "cells": [], "sides": ["Good"],
            "units": [{"id": "g", "side": "Good", "label": "W", "x": 1, "y": 1}]}
    assert text_map(grid).splitlines()[1] == "  1 .G.."
    draw_map(grid, tmp_path / "grid.png")
    assert (tmp_path / "grid.png").read_bytes()[:8] == PNG
