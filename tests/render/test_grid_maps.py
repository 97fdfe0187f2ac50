"""Grid maps a person can read: every unit labelled, a key for the labels, a legend for every
symbol; checked on the figure's matplotlib objects (texts, legend, bounding boxes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from warhost.core.battle import Battle
from warhost.core.engine import build_commanders
from warhost.core.scenario import load_scenario
from warhost.render.map_key import unit_labels
from warhost.render.maps import draw_map, map_figure, text_map
from warhost.rulesets.fantasy_battle.state import DEFEATED

ROOT = Path(__file__).resolve().parents[2]
GRAND = ROOT / "examples" / "fantasy-battle" / "grand-battle.yaml"
SKIRMISH = ROOT / "examples" / "fantasy-battle" / "skirmish.yaml"


def deployed_view(path: Path, wounded: str = "", defeated: str = "") -> dict[str, Any]:
    """The map view of a scenario after deployment, one unit wounded and one defeated."""
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    battle = Battle(ruleset, scenario, 1, build_commanders(scenario, None), None)
    state = ruleset.new_state(scenario, battle)
    if wounded:
        state.units[wounded].wounded = True
    if defeated:
        state.remove(state.units[defeated], DEFEATED)
    view: dict[str, Any] = ruleset.map_view(state)
    return view


@pytest.fixture(scope="module")
def grand() -> dict[str, Any]:
    return deployed_view(GRAND, wounded="u-lich", defeated="g-captain")


@pytest.fixture(scope="module")
def grand_figure(grand: dict[str, Any]) -> Any:
    return map_figure(grand)


def _key_rows(fig: Any) -> dict[str, list[str]]:
    """The key's rows by their first cell (label or id)."""
    rows = {}
    for text in fig.texts:
        for line in text.get_text().splitlines()[1:]:  # under each column's header
            cells = re.split(r"\s{2,}", line.strip())
            rows[cells[0]] = cells
    return rows


def test_many_units_get_short_labels_and_a_key(grand: dict[str, Any], grand_figure: Any) -> None:
    labels = unit_labels(grand)
    drawn = {t.get_text() for t in grand_figure.axes[0].texts}
    placed = [u for u in grand["units"] if u["x"] is not None]
    assert len(placed) == len(grand["units"]) - 1 > 30
    assert {labels[u["id"]] for u in placed} <= drawn  # every unit on the map is labelled
    assert not {u["id"] for u in placed} & drawn  # ids would not fit in the squares
    rows = _key_rows(grand_figure)
    assert set(rows) == set(labels.values())  # every unit in the key, the defeated one too
    assert rows[labels["g-king"]][:4] == ["G20", "g-king", "Good", "King Edric"]
    assert rows[labels["g-king"]][4:] == ["champion Knight (cavalry)", "3d6, 2 Fate"]
    assert rows[labels["g-captain"]][-1] == "defeated"
    assert rows[labels["u-lich"]][-1] == "wounded"
    assert rows[labels["u-spear-1"]][-1] == "faces S"


def test_the_legend_explains_every_symbol(grand_figure: Any) -> None:
    legend = [t.get_text() for t in grand_figure.axes[0].get_legend().get_texts()]
    for entry in ("clear", "slope", "hindering", "elevated", "blocking", "concealing",
                  "deep water", "cliff", "victory area", "Good", "Undead",
                  "unit label (see the key)", "Warrior", "Pike", "Archer", "Knight", "Lancer",
                  "Mounted Archer", "elite (2 dice)", "champion (3 dice)",
                  "no star: standard (1 die)", "units off the map: in the key only",
                  "facing (arrow)", "wounded"):
        assert entry in legend, entry


def test_class_marks_are_drawn_under_the_labels(grand: dict[str, Any],
                                                grand_figure: Any) -> None:
    drawn = [t.get_text() for t in grand_figure.axes[0].texts]
    for unit in grand["units"]:
        if unit["x"] is not None:
            assert unit["mark"] in drawn, unit["id"]


def test_the_key_overlaps_neither_map_nor_legend(grand_figure: Any) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(grand_figure).get_renderer()
    ax = grand_figure.axes[0]
    blocks = [ax.get_window_extent(renderer), ax.get_legend().get_window_extent(renderer)]
    blocks += [label.get_window_extent(renderer) for label in ax.get_xticklabels()]
    for text in grand_figure.texts:
        box = text.get_window_extent(renderer)
        assert not any(box.overlaps(other) for other in blocks), text.get_text()[:40]


def test_ids_label_units_when_they_fit() -> None:
    view = {"width": 10, "height": 8, "sides": ["Good", "Evil"], "cells": [],
            "units": [{"id": "a1", "side": "Good", "x": 1, "y": 1, "mark": "W"},
                      {"id": "b1", "side": "Evil", "x": 5, "y": 6, "w": 2, "h": 2}]}
    fig = map_figure(view)
    drawn = {t.get_text() for t in fig.axes[0].texts}
    assert {"a1", "b1", "W"} <= drawn and "G1" not in drawn
    key = fig.texts[1].get_text().splitlines()
    assert key[0].split() == ["id", "side"] and key[1].split() == ["a1", "Good"]
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "unit label (see the key)" not in legend


def test_height_levels_are_explained() -> None:
    view = {"width": 6, "height": 6, "sides": ["Good"], "units": [],
            "cells": [{"x": 2, "y": 2, "terrain": "elevated", "level": 2}]}
    legend = [t.get_text() for t in map_figure(view).axes[0].get_legend().get_texts()]
    assert "height level of the square" in legend


def test_skirmish_svg_names_every_unit(tmp_path: Path) -> None:
    view = deployed_view(SKIRMISH)
    out = tmp_path / "skirmish.svg"
    draw_map(view, out)
    text = out.read_text(encoding="utf-8")
    for unit in view["units"]:
        assert unit["id"] in text, unit["id"]  # in the key
    assert "G1" in text and "E6" in text and "Key" in text


# --------------------------------------------------------------------------- text maps


def test_text_map_labels_every_unit_and_keys_it(grand: dict[str, Any]) -> None:
    picture = text_map(grand)
    lines = picture.splitlines()
    assert max(len(line) for line in lines) <= 120
    # 30 squares of 3 characters: "U13U13.  G4 " (3-character labels leave no space)
    squares = {(x, 29 - row): line[4 + 3 * x:7 + 3 * x].strip()
               for row, line in enumerate(lines[:30]) for x in range(30)}
    labels = unit_labels(grand)
    for unit in grand["units"]:
        label = labels[unit["id"]]
        if unit["x"] is not None:
            shown = label.lower() if unit["wounded"] else label
            size = unit["w"]
            assert all(squares[(unit["x"] + dx, unit["y"] + dy)] == shown
                       for dx in range(size) for dy in range(size)), unit["id"]
        assert re.search(rf"\b{label} {unit['id']} ", picture), unit["id"]  # the key
    assert "G17 g-captain W* (defeated)" in picture
    assert "U20 u-lich W** (wounded)" in picture


def test_text_map_legend_names_every_character_used(grand: dict[str, Any]) -> None:
    lines = text_map(grand).splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("Good:"))
    assert lines[31].startswith("Legend: ") and end - 31 <= 4
    legend = " ".join(line.strip() for line in lines[31:end])
    used = {ch for line in lines[:30] for ch in line[4:] if not ch.isalnum() and ch != " "}
    for ch in used:
        assert f"{ch} " in legend, ch
    for entry in ("G1 a unit (see the key)", "u20 wounded (lower case)", "K Knight",
                  "** champion (3 dice)", "+ victory area"):
        assert entry in legend, entry


def test_text_map_stays_compact_for_the_grand_battle(grand: dict[str, Any]) -> None:
    """30 rows, the axis, at most 4 legend lines and the key, several units a line."""
    lines = text_map(grand).splitlines()
    assert len(lines) <= 30 + 1 + 4 + 16


def test_a_grid_too_wide_for_labels_shows_side_letters_and_still_keys_them() -> None:
    view = {"width": 100, "height": 3, "sides": ["Good", "Evil"], "cells": [],
            "units": [{"id": "g1", "side": "Good", "x": 1, "y": 1, "wounded": True},
                      {"id": "e1", "side": "Evil", "x": 5, "y": 1}]}
    lines = text_map(view).splitlines()
    assert lines[1] == "  1 .g...E" + "." * 94
    assert lines[4] == "Legend: . clear; G a unit of Good; E a unit of Evil; g wounded (lower case)"
    assert lines[5:] == ["Good: g1 (wounded)", "Evil: e1"]
    assert text_map(dict(view, width=130)) == ""
