"""The dnd35-wars map view and its drawing: every unit as the shape of its counters (one square
each, labelled once), singular creatures standing alone as figures and embedded ones named in
their unit's key entry, terrain kinds, water, elevation, structures, the scale, routed units;
PNG, SVG and text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import block, get, make_state, single, unit, who
from warhost.core.battle import Battle
from warhost.core.engine import build_commanders
from warhost.core.scenario import load_scenario
from warhost.render.map_key import unit_labels
from warhost.render.maps import draw_map, map_figure, map_title, text_map
from warhost.rulesets.dnd35_wars.state import WarState
from warhost.rulesets.dnd35_wars.view import map_view

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "dnd35-wars"


def _entry(view: dict[str, Any], uid: str) -> dict[str, Any]:
    found = [u for u in view["units"] if u["id"] == uid]
    assert len(found) == 1, uid  # one entry per unit, however many counters
    entry: dict[str, Any] = found[0]
    return entry


def _cells(view: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(c["x"], c["y"]): c for c in view["cells"]}


def _example_view(name: str = "regiment-and-horde") -> dict[str, Any]:
    scenario = load_scenario(EXAMPLES / f"{name}.yaml")
    battle = Battle(scenario.ruleset, scenario, 1, build_commanders(scenario, None), None)
    state = scenario.ruleset.new_state(scenario, battle)
    view: dict[str, Any] = scenario.ruleset.map_view(state)
    return view


def _battlefield() -> WarState:
    """Two units, a monster on its own, an NPC leading a unit, water, a castle wall."""
    return make_state(
        [unit("foot", squares=block(2, 2, 3, 2)),
         unit("orcs", "B", squares=block(2, 8, 2, 2))],
        width=16, height=12,
        terrain=[{"rect": [[10, 0], [11, 3]], "water": True},
                 {"rect": [[12, 0], [13, 1]], "kind": "swamp", "water": True},
                 {"rect": [[0, 10], [3, 11]], "kind": "heavy_forest"},
                 {"rect": [[8, 8], [9, 9]], "elevation": 2}],
        structures=[{"id": "wall", "rect": [[6, 5], [9, 5]], "type": "castle", "hp": 500}],
        singles=[single("ogre", "B", "monster", at=(14, 10)),
                 single("bors", "A", "npc", unit="foot", role="leader")])


@pytest.mark.rule("W35-TERM-04")
def test_the_example_draws_each_unit_as_its_counters_with_the_scale() -> None:
    view = _example_view()
    assert view["scale"] == "1 square = 25 ft"
    fighters = _entry(view, "fighters")
    assert len(fighters["squares"]) == 12  # 300 fighters at 25 ft: 12 counters
    assert [fighters["x"], fighters["y"]] in fighters["squares"]  # the label sits on a counter
    assert fighters["strength"] == "144/144 HP, 12 counters"
    assert fighters["kind"] == "unit of 300 human fighter, 25 a counter"
    assert fighters["status"] == "active" and fighters["facing"] == [0, 1]
    horde = _entry(view, "horde")
    assert horde["facing"] == [0, -1]
    assert horde["name"] == "The Red Hand horde with gorza (NPC leader, 45 HP)"
    ogre = _entry(view, "ogre")
    assert ogre["figure"] is True and (ogre["x"], ogre["y"]) == (31, 20)
    cells = _cells(view)
    assert cells[(0, 13)]["terrain"] == "water" and cells[(35, 14)]["terrain"] == "water"
    assert cells[(3, 18)]["terrain"] == "light_forest"
    assert cells[(27, 6)] == {"x": 27, "y": 6, "terrain": "high_ground", "level": 1}
    assert (0, 12) not in cells  # plain level dry clear ground is not listed


def test_the_village_shows_its_buildings_and_the_party_inside_the_militia() -> None:
    view = _example_view("village-militia")
    cells = _cells(view)
    assert cells[(12, 8)]["terrain"] == cells[(21, 10)]["terrain"] == "wooden_structure"
    militia = _entry(view, "militia")
    assert militia["name"].endswith("with brannoc (PC, 49 HP), sera (PC, 38 HP), "
                                    "wick (PC, 28 HP)")
    assert not {"brannoc", "sera", "wick", "crow"} & {u["id"] for u in view["units"]}
    assert _entry(view, "wolves")["kind"] == "unit of 40 wolf (mob), 10 a counter"


@pytest.mark.rule("W35-TERM-03")
def test_terrain_water_elevation_and_structures() -> None:
    cells = _cells(map_view(_battlefield()))
    assert cells[(10, 0)]["terrain"] == "water" and "water" not in cells[(10, 0)]
    assert cells[(12, 1)]["terrain"] == "swamp" and cells[(12, 1)]["water"] is True
    assert cells[(0, 11)]["terrain"] == "heavy_forest"
    assert cells[(9, 9)]["terrain"] == "high_ground" and cells[(9, 9)]["level"] == 2
    assert cells[(7, 5)]["terrain"] == "castle_structure"
    assert len(cells) == 8 + 4 + 8 + 4 + 4


def test_singular_creatures_stand_alone_as_figures_or_ride_in_their_unit() -> None:
    state = _battlefield()
    view = map_view(state)
    ogre = _entry(view, "ogre")
    assert ogre["figure"] is True and (ogre["x"], ogre["y"]) == (14, 10)
    assert ogre["kind"] == "monster" and ogre["strength"] == "40/40 HP"
    assert "bors" not in {u["id"] for u in view["units"]}  # embedded: named in its unit
    assert _entry(view, "foot")["name"] == "human warrior with bors (NPC leader, 40 HP)"
    who(state, "ogre").status, who(state, "ogre").hp = "slain", 0
    ogre = _entry(map_view(state), "ogre")
    assert ogre["x"] is None and ogre["status"] == "slain"


def test_routed_and_gone_units_are_marked() -> None:
    state = _battlefield()
    get(state, "orcs").status = "routed"
    state.lift(get(state, "foot"))
    get(state, "foot").status = "vanquished"
    get(state, "foot").squares = set()
    view = map_view(state)
    orcs = _entry(view, "orcs")
    assert orcs["status"] == "routed" and orcs["facing"] is None and len(orcs["squares"]) == 4
    foot = _entry(view, "foot")
    assert foot["x"] is None and foot["status"] == "vanquished"
    assert "squares" not in foot
    text = text_map(view)
    labels = unit_labels(view)
    assert labels["orcs"].lower() in text and "fled or routed (lower case)" in text
    legend = [t.get_text() for t in map_figure(view).axes[0].get_legend().get_texts()]
    assert "routed" in legend and "units off the map: in the key only" in legend


def test_every_unit_is_labelled_once_and_the_legend_explains_the_picture() -> None:
    view = map_view(_battlefield())
    fig = map_figure(view)
    drawn = [t.get_text() for t in fig.axes[0].texts]
    for uid in ("foot", "orcs", "ogre"):
        name = unit_labels(view)[uid]
        assert drawn.count(uid) + drawn.count(name) == 1, (uid, drawn)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    for words in ("water", "water (over the ground shown)", "swamp", "heavy forest", "high ground", "castle structure",
                  "unit: one square per counter", "figure: a creature on its own",
                  "facing (arrow)"):
        assert words in legend, words
    assert fig.axes[0].get_title().endswith("1 square = 15 ft")
    assert map_title(view, "Test") == "Test — round 1 — 1 square = 15 ft"


def test_the_text_map_puts_the_label_on_every_counter() -> None:
    view = map_view(_battlefield())
    lines = text_map(view).splitlines()
    rows = {int(line[:3]): line[4:] for line in lines[:12]}
    label = unit_labels(view)["foot"]
    cell = 3  # two-character labels and a space
    for x, y in block(2, 2, 3, 2):
        assert rows[y][x * cell:x * cell + 2] == label
    assert rows[5][7 * cell] == "#" and rows[0][10 * cell] == "~" and rows[11][0] == "t"
    legend = " ".join(line for line in lines if line.startswith(("Legend:", " ")))
    assert "1 square = 15 ft" in legend and "t heavy forest" in legend


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_the_example_battles_draw(tmp_path: Path, suffix: str) -> None:
    for path in sorted(EXAMPLES.glob("*.yaml")):
        out = tmp_path / f"{path.stem}.{suffix}"
        draw_map(_example_view(path.stem), out)
        assert out.stat().st_size > 1000


def test_no_facing_arrow_points_into_another_unit() -> None:
    state = make_state([unit("foot", squares=block(2, 2, 3, 2)),
                        unit("orcs", "B", squares=block(2, 4, 3, 1), facing="S"),
                        unit("far", "B", squares=block(10, 10, 2, 1), facing="S")])
    fig = map_figure(map_view(state))
    arrows = [t for t in fig.axes[0].texts if getattr(t, "arrow_patch", None) is not None]
    assert len(arrows) == 1  # only `far` has open ground ahead of it
    (x, y) = arrows[0].xy
    assert 10 <= x <= 12 and y < 10


def test_each_unit_carries_its_share_of_starting_hp_for_the_map_bar() -> None:
    from tests.rulesets.dnd35_wars.helpers import get, make_state, unit
    from warhost.rulesets.dnd35_wars.view import map_view

    state = make_state([unit("a", squares=[(0, 0), (1, 0)]), unit("b", "B", squares=[(9, 9)])])
    get(state, "a").hp = 15  # of 20
    entries = {u["id"]: u for u in map_view(state)["units"]}
    assert entries["a"]["health"] == 0.75 and entries["b"]["health"] == 1.0
