"""Narrative lines and maps (warhost.render), from hand-made events and views."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import WarhostError
from warhost.core.registry import get_ruleset
from warhost.render.maps import draw_map, map_title, text_map
from warhost.render.narrative import Narrator, generic_line, narrate

VIEW: dict[str, Any] = {
    "width": 10,
    "height": 8,
    "cells": [
        {"x": 2, "y": 3, "terrain": "blocking", "level": 0},
        {"x": 3, "y": 3, "terrain": "hindering", "level": 0},
        {"x": 6, "y": 4, "terrain": "elevated", "level": 2},
        {"x": 7, "y": 4, "terrain": "deep_water", "level": 0},
    ],
    "units": [
        {"id": "a1", "side": "Good", "mark": "P*", "x": 1, "y": 1, "w": 1, "h": 1,
         "facing": [0, 1], "status": "active", "wounded": False},
        {"id": "a2", "side": "Good", "mark": "K", "x": 4, "y": 0, "w": 2, "h": 2,
         "facing": None, "status": "active", "wounded": True},
        {"id": "b1", "side": "Evil", "mark": "W**", "x": 5, "y": 6, "w": 1, "h": 1,
         "facing": None, "status": "active", "wounded": False},
    ],
    "sides": ["Good", "Evil"],
    "victory_areas": [{"name": "ford", "squares": [[8, 6], [8, 7]]}],
    "round": 3,
    "scores": {"Good": 2, "Evil": 5},
}


# --------------------------------------------------------------------------- narrative


def test_generic_roll_line_shows_the_dice() -> None:
    event = {"seq": 4, "type": "roll", "expr": "3d6", "faces": [4, 2, 6], "why": "attack"}
    assert generic_line(event) == "rolls 3d6: 4 2 6 (attack)"
    event = {"seq": 4, "type": "roll", "expr": "2d6+1", "faces": [3, 5], "total": 9, "why": "x",
             "unit": "g1"}
    assert generic_line(event) == "g1 rolls 2d6+1: 3 5 = 9 (x)"


def test_generic_lines_for_engine_events() -> None:
    assert generic_line({"seq": 1, "type": "decision", "side": "A", "kind": "activate",
                         "order": "activate g1"}) == "A decides activate: activate g1"
    end = generic_line({"seq": 9, "type": "battle_end", "winner": None, "scores": {"A": 1, "B": 1},
                        "rounds": 4, "reason": "round limit"})
    assert end == "Draw after 4 round(s) (round limit); scores: A 1, B 1"
    assert generic_line({"seq": 2, "type": "odd_thing", "unit": "x", "at": [1, 2]}) == \
        "odd thing: unit x, at (1, 2)"


def test_ruleset_wording_comes_first_and_falls_back() -> None:
    ruleset = get_ruleset("fantasy-battle")
    narrator = Narrator(ruleset)
    assert narrator.line({"seq": 0, "type": "pass", "side": "A", "round": 1}) == "A passes"
    roll = {"seq": 1, "type": "roll", "expr": "1d6", "faces": [5], "why": "first player"}
    assert narrator.line(roll) == "rolls 1d6: 5 (first player)"
    # an event the ruleset would word, but with fields missing: the generic text
    assert narrator.line({"seq": 2, "type": "move", "unit": "g1"}) == "move: unit g1"


def test_narrator_reads_a_growing_log() -> None:
    narrator = Narrator()
    log: list[dict[str, Any]] = [{"seq": 0, "type": "a"}]
    assert [t for t, _ in narrator.new_lines(log)] == ["a"]
    log += [{"seq": 1, "type": "b"}, {"seq": 2, "type": "roll", "expr": "1d6", "faces": [2]}]
    assert narrator.new_lines(log) == [("b", ""), ("rolls 1d6: 2", "dim")]
    assert narrator.new_lines(log) == []
    assert narrate(log) == ["a", "b", "rolls 1d6: 2"]


# --------------------------------------------------------------------------- maps


def test_map_title() -> None:
    assert map_title(VIEW, "Tiny") == "Tiny — round 3 — Good 2 : Evil 5"


def test_draw_png(tmp_path: Path) -> None:
    out = tmp_path / "m.png"
    draw_map(VIEW, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.png"]


def test_draw_svg_has_labels_and_legend(tmp_path: Path) -> None:
    out = tmp_path / "m.svg"
    draw_map(VIEW, out, title="Test map")
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text[:400]
    for words in ("Test map", "Good", "Evil", "blocking", "deep water", "wounded",
                  "facing (arrow)", "victory area", "ford"):
        assert words in text, words


def test_draw_large_map(tmp_path: Path) -> None:
    view = dict(VIEW, width=300, height=200)
    out = tmp_path / "big.png"
    draw_map(view, out)
    assert out.stat().st_size > 1000


def test_draw_refuses_other_formats(tmp_path: Path) -> None:
    with pytest.raises(WarhostError, match=".png or .svg"):
        draw_map(VIEW, tmp_path / "m.gif")


def test_text_map() -> None:
    lines = text_map(VIEW).splitlines()
    assert lines[0].startswith("  7 ")
    row = {int(line[:3]): line[4:] for line in lines[:8]}
    assert row[3][6:12] == "#  %  "
    assert row[1][3:5] == "G1" and row[0][12:17] == "g2 g2" and row[6][15:17] == "E1"
    assert row[6][24] == "+"
    assert lines[8].strip() == "0  1  2  3  4  5  6  7  8  9"
