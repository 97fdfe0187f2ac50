"""Maps of battles on an open table (``"geometry": "table"`` views), from a hand-made view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import WarhostError
from warhost.geometry.table import formation, single_footprint
from warhost.render.maps import draw_map, map_figure, map_title, text_map, text_table_map


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
        {"id": "H-1", "side": "Humans", "name": "Spears", "kind": "unit of Guard",
         "strength": "38/40 members", "polygon": corners(SPEARS.polygon),
         "status": "active", "stance": "close", "facing": 0.0},
        {"id": "H-2", "side": "Humans", "name": "Captain", "kind": "single character",
         "strength": "40/40 hp", "polygon": corners(single_footprint((40.25, 2.25))),
         "status": "active", "stance": None, "facing": None},
        {"id": "O-1", "side": "Orcs", "name": "Orc band", "polygon": corners(ORCS.polygon),
         "status": "active", "stance": "close", "facing": 180.0},
        {"id": "O-2", "side": "Orcs", "name": "Wolves",
         "polygon": [[40, 14], [42, 14], [42, 18], [40, 18]], "status": "routed",
         "stance": "open", "facing": 90.0},
        {"id": "O-3", "side": "Orcs", "name": "Goblins", "polygon": [[44, 32], [46, 32], [46, 34]],
         "status": "fled", "stance": "close", "facing": 200.0},
        {"id": "O-4", "side": "Orcs", "name": "Trolls", "polygon": [[16, 4], [18, 4], [18, 6],
                                                                    [16, 6]],
         "status": "destroyed", "stance": "close", "facing": 180.0},
        {"id": "O-5", "side": "Orcs", "name": "Gone", "polygon": None, "status": "fled",
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
    for words in ("Battle of the ford", "H-1", "H-2", "O-1", "O-2", "Spears", "Captain",
                  "Old wood", "Mill pond", "forest", "ruins", "fields", "water", "hill",
                  "Humans", "Orcs", "routed", "fled", "destroyed", "facing", "Key"):
        assert words in text, words


def test_markers_are_drawn_with_their_labels_and_a_legend_entry(tmp_path: Path) -> None:
    view = {**VIEW, "markers": [
        {"id": "bolt", "side": "Humans", "label": "bolt (bolt thrower, loaded)",
         "polygon": [[30, 30], [32, 30], [32, 32], [30, 32]], "facing": 0.0,
         "status": "loaded"},
        {"id": "rock", "side": "Orcs", "label": "rock (stone thrower, abandoned)",
         "polygon": [[40, 30], [42, 30], [42, 32], [40, 32]], "facing": None,
         "status": "abandoned"}]}
    out = tmp_path / "markers.svg"
    draw_map(view, out)
    text = out.read_text(encoding="utf-8")
    for words in ("bolt (bolt thrower, loaded)", "rock (stone thrower, abandoned)", "marker"):
        assert words in text, words
    plain = tmp_path / "plain.svg"
    draw_map(VIEW, plain)
    assert "marker (e.g." not in plain.read_text(encoding="utf-8")


def test_every_unit_on_the_table_is_labelled_with_its_id() -> None:
    """The ids fit (inside, or beside the small ones without running into anything)."""
    ax = map_figure(VIEW).axes[0]
    drawn = {t.get_text() for t in ax.texts}
    assert {"H-1", "H-2", "O-1", "O-2", "O-3", "O-4"} <= drawn
    assert "O-5" not in drawn  # no polygon: not on the table, in the key only


def test_key_lists_every_unit_with_name_kind_strength_and_state() -> None:
    key = "\n".join(t.get_text() for t in map_figure(VIEW).texts)
    assert key.startswith("Key")
    lines = key.splitlines()
    assert lines[1].split() == ["id", "side", "name", "kind", "strength", "state"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert set(rows) == {"H-1", "H-2", "O-1", "O-2", "O-3", "O-4", "O-5"}
    assert "Spears" in rows["H-1"] and "38/40 members" in rows["H-1"]
    assert "faces 0°" in rows["H-1"] and "routed" in rows["O-2"] and "Gone" in rows["O-5"]


def test_crowded_ids_give_short_labels_and_a_key() -> None:
    """Ten small bodies side by side: their ids would run into each other."""
    bodies = [{"id": f"skirmisher-{i}", "side": "Orcs" if i % 2 else "Humans",
               "polygon": corners(single_footprint((10 + 1.5 * i, 10.0))), "status": "active",
               "facing": 0.0} for i in range(10)]
    view = dict(VIEW, units=bodies)
    fig = map_figure(view)
    drawn = {t.get_text() for t in fig.axes[0].texts}
    assert {"H1", "H2", "H3", "H4", "H5", "O1", "O2", "O3", "O4", "O5"} <= drawn
    assert not any(t.startswith("skirmisher") for t in drawn)
    key = "\n".join(t.get_text() for t in fig.texts)
    assert "H1     skirmisher-0" in key and "O5     skirmisher-9" in key
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "unit label (see the key)" in legend


def test_draw_refuses_other_formats(tmp_path: Path) -> None:
    with pytest.raises(WarhostError, match=".png or .svg"):
        draw_map(VIEW, tmp_path / "table.gif")


def test_draw_big_table(tmp_path: Path) -> None:
    out = tmp_path / "big.png"
    draw_map(dict(VIEW, width=240, height=120), out)
    assert out.read_bytes()[:8] == PNG


def _cells(line: str) -> list[str]:
    """A text-map row as its 3-character cells (after the 3-character row label)."""
    body = line[3:]
    return [body[i:i + 3].strip() for i in range(0, 72, 3)]


def test_text_map_places_units_and_areas() -> None:
    lines = text_map(VIEW).splitlines()
    assert lines[0].startswith("34 ") and lines[17].startswith(" 0 ")
    row = {int(line[:2]): _cells(line) for line in lines[:18]}
    # Spears fill half or more of the cells x 22..26 in rows y 6..8 and 8..10.
    assert row[6][10:14] == [".", "H1", "H1", "."] and row[8][10:14] == [".", "H1", "H1", "."]
    # The Orc band (y 25.25..26.75) fills 37.5% of the cells x 24..28 in both rows.
    assert row[24][11:15] == [".", "O1", "O1", "."] and row[26][11:15] == [".", "O1", "O1", "."]
    assert row[2][20] == "H2"  # the captain is too small to fill a cell: his centre's cell
    assert row[14][20] == "o2" and row[16][20] == "o2"  # routed: lower case
    assert row[32][22] == "o3"  # fled
    assert row[4][8] == "."  # destroyed: left out
    assert row[20][1:6] == ["%"] * 5 and row[4][15:18] == ["#"] * 3 and row[2][1:4] == ["+"] * 3
    assert row[12][10:12] == [".", ":"] and row[24][19:22] == ["~"] * 3  # triangles
    assert lines[18] == "   0              10             20             30             40"


def test_text_map_legend_and_key() -> None:
    lines = text_map(VIEW).splitlines()[19:]
    legend = " ".join(line.strip() for line in lines[:2])
    for entry in (". open ground", "% forest", "# ruins", ": fields", "~ water", "+ hill",
                  "H1 a unit (see the key)", "o2 fled or routed (lower case)",
                  "each cell 2 in square"):
        assert entry in legend, entry
    key = "\n".join(lines[2:])
    assert key.startswith("Humans: H1 H-1 38/40 members (faces 0°)")
    for entry in ("H2 H-2 40/40 hp", "O2 O-2 (routed)", "O4 O-4 (destroyed)", "O5 O-5 (fled)"):
        assert entry in key, entry


def test_text_map_scale_and_width_limit() -> None:
    fine = text_table_map(VIEW, inches_per_cell=1.0).splitlines()
    # 48 cells of 3 characters would pass 120: 2 a cell, the labels without a space between
    assert len(fine[0]) <= 3 + 48 * 2 and fine[35].startswith(" 0 ")
    assert text_map(VIEW, max_width=40) == ""


def test_grid_views_still_drawn(tmp_path: Path) -> None:
    grid = {"width": 4, "height": 3, "cells": [], "sides": ["Good"],
            "units": [{"id": "g", "side": "Good", "label": "W", "x": 1, "y": 1}]}
    assert text_map(grid).splitlines()[1] == "  1 .  G1 .  ."
    draw_map(grid, tmp_path / "grid.png")
    assert (tmp_path / "grid.png").read_bytes()[:8] == PNG
