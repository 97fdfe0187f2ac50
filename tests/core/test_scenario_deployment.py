"""A scenario that ``validate`` passes never fails at the start of a battle with "no room to
deploy": loading a scenario runs the deployment a battle runs (``Ruleset.check_scenario``),
and during the battle a commander is offered only placements that leave room for the units
still to come (setup.py: ``Room`` in fantasy-battle, ``Deployment`` in dnd5e-tactics).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import assert_user_error, run
from warhost.core.engine import run_battle
from warhost.core.errors import ScenarioError
from warhost.core.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def write(tmp_path: Path, text: str, name: str = "battle.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.file == str(path)
    return info.value


# --------------------------------------------------------------------------- fantasy-battle

FB_HEAD = """\
ruleset: fantasy-battle
victory_points: 3
options: {first_player: A}
battlefield: {width: 6, height: 8}
sides:
"""

FB_B = """\
  - name: B
    squads:
      - id: b-foot
        type: infantry
        members:
          - {id: b1, class: warrior, at: [0, 6]}
          - {id: b2, class: warrior, at: [1, 6]}
          - {id: b3, class: warrior, at: [0, 7]}
          - {id: b4, class: warrior, at: [1, 7]}
      - id: b-horse
        type: cavalry
        members:
          - {id: b5, class: knight, at: [2, 6]}
          - {id: b6, class: knight, at: [4, 6]}
"""

FB_FRAGMENTED = FB_HEAD + """\
  - name: A
    squads:
      - id: a-foot
        type: infantry
        members:
          - {id: a1, class: warrior}
          - {id: a2, class: warrior}
          - {id: a3, class: warrior}
          - {id: a4, class: warrior}
      - id: a-horse
        type: cavalry
        members:
          - {id: a5, class: knight}
          - {id: a6, class: knight}
""" + FB_B
"""A's start area (rows 0-1 of a 6-wide map) holds exactly its 12 squares of units, so the
square count passes; but its infantry, deployed first along row 0, leaves room for one 2x2
base only."""


def test_fb_validate_refuses_a_deployment_that_cannot_be_completed(tmp_path: Path) -> None:
    """Before: validate passed this file and every battle stopped with "no room left in the
    start area for a6" (FB-SETUP-12)."""
    path = write(tmp_path, FB_FRAGMENTED)
    err = refused(path)
    assert err.field == "sides[0].squads[1].members[1].at"
    assert err.line == FB_FRAGMENTED.splitlines().index(
        "          - {id: a6, class: knight}") + 1
    assert err.message.startswith("no room left in the start area of 'A' for a6")
    result = run("validate", path)
    assert result.exit_code == 2 and "a6" in result.stdout
    assert_user_error(run("battle", path, "--seed", "1"), str(path), "no room left")


FB_THREE_BASES = FB_HEAD + """\
  - name: A
    squads:
      - id: a-horse
        type: cavalry
        members:
          - {id: c1, class: knight}
          - {id: c2, class: knight}
    units:
      - {id: e1, rank: elite, type: cavalry, class: knight}
  - name: B
    squads:
      - id: b-horse
        type: cavalry
        members:
          - {id: d1, class: knight, at: [0, 6]}
          - {id: d2, class: knight, at: [2, 6]}
    units:
      - {id: f1, rank: elite, type: cavalry, class: knight, at: [4, 6]}
"""
"""Three 2x2 bases in a 6x2 start area: they fit only side by side at x = 0, 2 and 4."""


@pytest.mark.rule("FB-SETUP-12")
def test_fb_a_square_that_would_leave_no_room_is_not_offered(tmp_path: Path) -> None:
    from warhost.rulesets.fantasy_battle.setup import Room, new_state

    model = load_scenario(write(tmp_path, FB_THREE_BASES)).model
    state = new_state(model)
    room = Room(state)
    offered = [anchor for anchor, _ in room.options(state.units["c1"])]
    assert offered == [(0, 0), (2, 0), (4, 0)]  # (1, 0) and (3, 0) would strand a base


@pytest.mark.rule("FB-SETUP-12")
def test_fb_a_scripted_deployment_that_would_strand_a_unit_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "deploy 1 0\n", "a.txt")
    path = write(tmp_path, FB_THREE_BASES.replace(
        "  - name: A\n", "  - name: A\n    commander: scripted\n    orders: a.txt\n"))
    line = assert_user_error(run("battle", path, "--seed", "1"))
    assert "a.txt:1" in line and "deploy 1 0" in line


def test_fb_random_commanders_always_find_room(tmp_path: Path) -> None:
    """Before: a random first placement at x = 1 or 3 stopped the battle for lack of room."""
    scenario = load_scenario(write(tmp_path, FB_THREE_BASES))
    for seed in range(30):
        result = run_battle(scenario, seed, {"A": "random", "B": "random"}, record=False)
        assert result.rounds >= 1


# --------------------------------------------------------------------------- dnd5e-tactics

T5_OPEN_FIELD = EXAMPLES / "dnd5e-tactics" / "open-field.yaml"


def test_t5_validate_refuses_a_unit_too_deep_for_its_zone(tmp_path: Path) -> None:
    """400 members in 10 files are 20 in deep; the zone is 6 in. Before: validate passed it
    and the battle stopped with "at: no room to deploy watch-spears" (no file, no line)."""
    text = T5_OPEN_FIELD.read_text(encoding="utf-8").replace(
        "        members: 40\n        at: [14, 4]\n", "        members: 400\n", 1)
    path = write(tmp_path, text)
    err = refused(path)
    assert err.field == "sides[0].units[0]"
    assert err.line == text.splitlines().index("      - id: watch-spears") + 1
    assert err.message == ("no room to deploy watch-spears in the 6 in zone along the south "
                           "edge of Greyhaven Watch (T5-DEC-01)")
    assert_user_error(run("battle", path, "--seed", "1"), f"{path}:{err.line}", "no room")


T5_TEMPLATE = """\
ruleset: dnd5e-tactics
defender: B
board: {{width: 20, height: 36}}
options: {{formation_files: 20}}
sides:
  - name: A
    edge: south
    deployment_depth: 6
    commander: {commander}
    units:
      - {{id: scouts, members: 4, stance: close, track: defensive,
         member: &m {{name: Guard, ac: 16, hp: 11,
                     attacks: [{{name: Spear, bonus: 3, damage: 1d6+1}}]}},
         commander: &c {{name: Captain, ac: 17, hp: 58,
                        attacks: [{{name: Sword, bonus: 5, damage: 1d8+3}}]}}}}
      - {{id: line, members: 20, stance: close, track: defensive, member: *m, commander: *c}}
  - name: B
    edge: north
    units:
      - {{id: foes, members: 20, at: [10, 33], stance: close, track: defensive,
         member: *m, commander: *c}}
"""
"""A's spots along its 20 in edge are x = 2, 6, 10, 14 and 18. The line is 10 in wide, so it
stands at x = 6, 10 or 14 and needs the scouts 8 in or more from its centre: scouts at
x = 10 would leave it no room."""


def test_t5_a_spot_that_would_leave_no_room_is_not_offered(tmp_path: Path) -> None:
    from warhost.rulesets.dnd5e_tactics.setup import Deployment, initial_state

    model = load_scenario(write(tmp_path, T5_TEMPLATE.format(commander="ai"))).model
    state, placed = initial_state(model)
    room = Deployment(state, model, placed)
    offered = [spot[0] for spot, _ in room.options(state.bodies["scouts"])]
    assert offered == [2.0, 6.0, 14.0, 18.0]


@pytest.mark.rule("T5-DEC-01")
def test_t5_a_scripted_deployment_that_would_strand_a_unit_is_refused(tmp_path: Path) -> None:
    """Before: the order was taken and the battle then stopped: no room to deploy line."""
    write(tmp_path, "deploy 10.0,3.0\n", "a.txt")
    path = write(tmp_path, T5_TEMPLATE.format(commander="scripted\n    orders: a.txt"))
    line = assert_user_error(run("battle", path, "--seed", "1"))
    assert "a.txt:1" in line and "deploy 10.0,3.0" in line


def test_t5_random_commanders_always_find_room(tmp_path: Path) -> None:
    """Before: a random choice of x = 10 for the scouts stopped the battle at deployment."""
    scenario = load_scenario(write(tmp_path, T5_TEMPLATE.format(commander="random")))
    for seed in range(8):
        result = run_battle(scenario, seed, {"A": "random", "B": "first"}, record=False)
        assert result.rounds >= 1


def test_t5_an_asked_stance_is_checked_at_its_open_footprint(tmp_path: Path) -> None:
    """A unit with a position but no stance may be drawn up in Open Stance (T5-DEC-03): its
    larger footprint must fit. Before: only the Close one was checked, and choosing Open put
    the unit partly off the table."""
    text = T5_TEMPLATE.format(commander="ai").replace(
        "      - {id: foes, members: 20, at: [10, 33], stance: close,",
        "      - {id: foes, members: 20, at: [9, 33],")
    err = refused(write(tmp_path, text))
    assert err.field == "sides[1].units[0].at"
    assert err.message == "foes at [9.0, 33.0] does not fit on the 20 x 36 in board"
    closed = text.replace("at: [9, 33],", "at: [9, 33], stance: close,")
    assert load_scenario(write(tmp_path, closed, "closed.yaml")).name == "closed"


def test_t5_a_given_position_is_checked_facing_the_way_the_unit_will_face(
    tmp_path: Path
) -> None:
    """A west-edge unit without a facing faces east (toward the enemy): its 10 in front runs
    north-south. Before: the check drew it facing north, so a unit hanging off the south edge
    passed and one that fits was refused."""
    text = (T5_TEMPLATE.format(commander="ai")
            .replace("    edge: south\n", "    edge: west\n")
            .replace("id: line, members: 20,", "id: line, members: 20, at: [3, 4],"))
    err = refused(write(tmp_path, text))
    assert err.field == "sides[0].units[1].at"
    assert err.message == "line at [3.0, 4.0] does not fit on the 20 x 36 in board"
    fits = text.replace("at: [3, 4],", "at: [1, 10],")
    assert load_scenario(write(tmp_path, fits, "fits.yaml")).name == "fits"
