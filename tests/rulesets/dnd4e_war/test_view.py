"""The dnd4e-war map view and its drawing: trays to scale, facing, front arcs (W4-UNIT-04),
skirmisher bases, terrain effects in the key, status; PNG, SVG and text."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import get, make_state, profile, unit
from warhost.render.maps import draw_map, text_map
from warhost.rulesets.dnd4e_war.state import WarState
from warhost.rulesets.dnd4e_war.view import map_view

SKIRMISHER = profile("Raider", formation="skirmish", unit_size=[4, 16])


def _state() -> WarState:
    return make_state(
        [unit("line", companies=3, files=3, at=(20, 10), facing=0),
         unit("loose", "B", profile=SKIRMISHER, companies=6, at=(40, 30), facing=180)],
        terrain=[{"name": "Knoll", "rect": [30, 20, 8, 6], "height": 1},
                 {"name": "Copse", "rect": [2, 30, 6, 6], "difficult": True,
                  "concealment": "concealment"},
                 {"name": "Wall", "rect": [50, 20, 8, 1], "cover": "cover", "barrier": True}])


def _unit(view: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in view["units"] if u["id"] == uid)


def _area(corners: list[list[float]]) -> float:
    pts = corners + corners[:1]
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in itertools.pairwise(pts))) / 2


def test_each_company_tray_is_listed_to_scale_inside_the_unit_outline() -> None:
    state = _state()
    line = _unit(map_view(state), "line")
    unit_ = get(state, "line")
    assert len(line["trays"]) == 3
    for tray in line["trays"]:
        assert _area(tray) == pytest.approx(unit_.tray_width * unit_.tray_depth)
    assert _area(line["polygon"]) == pytest.approx(3 * unit_.tray_width * unit_.tray_depth)
    assert line["bases"] == "square" and line["facing"] == 0
    assert line["status"] == "active" and line["strength"] == "24/24 models [8 8 8]"


@pytest.mark.rule("W4-UNIT-04")
def test_front_arc_lines_leave_the_front_corners_at_45_degrees() -> None:
    state = _state()
    arcs = _unit(map_view(state), "line")["arcs"]
    left, right = get(state, "line").frame().corners()[:2]
    (a0, a1), (b0, b1) = arcs
    assert a0 == pytest.approx(list(left)) and b0 == pytest.approx(list(right))
    # facing north: the left line runs north-west, the right one north-east
    assert math.degrees(math.atan2(a1[1] - a0[1], a1[0] - a0[0])) == pytest.approx(135)
    assert math.degrees(math.atan2(b1[1] - b0[1], b1[0] - b0[0])) == pytest.approx(45)


def test_skirmishers_show_round_bases_and_no_facing_or_arcs() -> None:
    loose = _unit(map_view(_state()), "loose")
    assert loose["bases"] == "round" and len(loose["trays"]) == 6
    assert loose["facing"] is None and loose["arcs"] == []


def test_terrain_areas_say_what_they_do() -> None:
    view = map_view(_state())
    kinds = {a["name"]: (a["kind"], a["effects"]) for a in view["areas"]}
    assert kinds["Knoll"] == ("height 1", ["height 1"])
    assert kinds["Copse"] == ("difficult, concealment", ["difficult", "concealment"])
    assert kinds["Wall"] == ("barrier, cover", ["barrier", "cover"])


def test_status_follows_fleeing_engaged_and_destroyed() -> None:
    state = _state()
    state.engage("line", "loose")
    view = map_view(state)
    assert _unit(view, "line")["status"] == "engaged"
    assert _unit(view, "line")["engaged_with"] == ["loose"]
    state.disengage("line")
    get(state, "line").fleeing = True
    get(state, "loose").destroyed = True
    view = map_view(state)
    assert _unit(view, "line")["status"] == "fleeing"
    assert _unit(view, "loose")["status"] == "destroyed" and _unit(view, "loose")["trays"] == []


def _svg_shapes(text: str) -> tuple[int, int]:
    """Paths drawn as closed polygons and as circles (matplotlib writes both as paths; a
    circle's path is made of cubic curves)."""
    paths = re.findall(r'<path d="([^"]*)"', text)
    circles = sum(1 for d in paths if d.count(" C ") >= 4 or d.count("C") >= 4)
    return len(paths), circles


def test_the_svg_draws_every_tray_and_every_base(tmp_path: Path) -> None:
    state = _state()
    view = map_view(state)
    out = tmp_path / "map.svg"
    draw_map(view, out)
    text = out.read_text(encoding="utf-8")
    total, circles = _svg_shapes(text)
    assert circles >= 6  # one round base per skirmisher
    # without trays the same view draws at least 3 + 6 fewer shapes (the trays and bases)
    bare = {**view, "units": [{k: v for k, v in u.items() if k != "trays"}
                              for u in view["units"]]}
    draw_map(bare, tmp_path / "bare.svg")
    bare_total, bare_circles = _svg_shapes((tmp_path / "bare.svg").read_text(encoding="utf-8"))
    assert total - bare_total >= 3 + 6 and bare_circles < circles
    for words in ("height 1", "difficult, concealment", "barrier, cover", "front arc",
                  "company trays", "Knoll"):
        assert words in text, words


def test_the_png_map_of_the_example_after_deployment(tmp_path: Path) -> None:
    from warhost.core.scenario import load_scenario
    from warhost.rulesets.dnd4e_war.setup import initial_state

    scenario = load_scenario(Path("examples/dnd4e-war/hill-archers.yaml"))
    state = initial_state(scenario.model)
    out = tmp_path / "map.png"
    draw_map(map_view(state), out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_text_map_marks_each_base_and_lowers_fleeing_units() -> None:
    state = _state()
    picture = text_map(map_view(state))
    assert picture.count("B1") >= 1 + 4  # the skirmishers' bases, plus the key
    get(state, "line").fleeing = True
    picture = text_map(map_view(state))
    assert "a1" in picture and "fleeing (lower case)" in picture


def test_the_text_map_marks_terrain_by_what_it_does() -> None:
    picture = text_map(map_view(_state()))
    legend = picture[picture.index("Legend:"):]
    for entry in ("^ height 1", "% difficult, concealment", "= barrier, cover"):
        assert entry in legend, entry
    rows = {line.split()[0]: line for line in picture.splitlines()[:24] if line.strip()}
    assert "^" in rows["22"] and "%" in rows["32"]  # the knoll (y 20-26), the copse (30-36)


def test_narration_reads_well() -> None:
    from warhost.rulesets.dnd4e_war.view import describe_event

    skirmish = {"type": "deploy", "unit": "drow", "side": "Drow", "name": "Drow raiders",
                "models": 12, "companies": 12, "files": 1, "at": [36.0, 10.0], "facing": 0.0,
                "formation": "skirmish"}
    assert describe_event(skirmish) == "Drow deploys Drow raiders (drow): 12 skirmishers around 36,10"
    lost = {"type": "casualties", "unit": "spiders", "hits": 1, "slain": 0, "source": "archers",
            "why": "shooting"}
    assert describe_event(lost) == "spiders takes 1 hit from archers but loses no models (shooting)"
    move = {"type": "move", "unit": "drow", "kind": "reform", "to": [36.572, 5.48],
            "facing": 351.02, "turned": 158.319, "files": 1, "cost": 0.0}
    assert describe_event(move) == ("drow reforms 1 company wide to 36.6,5.5 facing 351, "
                                    "turning 158 degrees (0\" of movement)")
