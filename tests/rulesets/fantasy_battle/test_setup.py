"""Setting up a battle of `fantasy-battle`: first player, map, constructed terrain, armies and
deployment (FB-START-*, FB-SETUP-*, FB-AMB-13, FB-AMB-18 to FB-AMB-23).

Setup runs :func:`warhost.rulesets.fantasy_battle.setup.new_state` with scripted dice and a
recording commander, so every roll and every decision is exact. No battle is played.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.fantasy_battle.test_validate import member, scenario_data
from warhost.core.commanders import Commander, FirstOptionCommander
from warhost.core.decisions import Decision
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.core.errors import IllegalOrderError
from warhost.core.orders import Order
from warhost.core.scenario import Scenario, load_scenario, scenario_from_data
from warhost.geometry.grid import Square, chebyshev, footprint
from warhost.rulesets.fantasy_battle.construct import half_rows, piece_squares
from warhost.rulesets.fantasy_battle.model import TerrainPiece
from warhost.rulesets.fantasy_battle.setup import new_state
from warhost.rulesets.fantasy_battle.state import FBState

rule = pytest.mark.rule


class Recorder(Commander):
    """Answers with scripted order texts (in order), else the first option; keeps every
    decision it was asked."""

    kind = "recorder"

    def __init__(self, picks: Sequence[str] = ()) -> None:
        self.picks = list(picks)
        self.asked: list[Decision] = []

    def choose(self, decision: Decision, state: Any) -> Order:
        self.asked.append(decision)
        if self.picks:
            return Order.parse(self.picks.pop(0))
        return decision.options[0]


def build(
    data: dict[str, Any],
    dice: Sequence[int] = (),
    picks: Mapping[str, Sequence[str]] | None = None,
    seed: int = 0,
    seeded: bool = False,
) -> tuple[FBState, Battle, dict[str, Recorder]]:
    """Validate ``data`` and set the battle up; returns the state, the battle and the
    commanders (one :class:`Recorder` per side)."""
    scenario: Scenario = scenario_from_data(copy.deepcopy(data), "test.yaml")
    names = [side["name"] for side in data["sides"]]
    commanders = {name: Recorder((picks or {}).get(name, ())) for name in names}
    battle = Battle(scenario.ruleset, scenario, seed, commanders,
                    dice=None if seeded else ScriptedDice(dice))
    state = new_state(scenario.model, battle)
    if not seeded:
        assert isinstance(battle.dice, ScriptedDice)
        assert battle.dice.unused == 0, "every scripted die should be used"
    return state, battle, commanders


def events(battle: Battle, type_: str) -> list[dict[str, Any]]:
    return battle.log.of_type(type_)


# --------------------------------------------------------------------------- sides and roles


@rule("FB-GEN-01", "FB-SETUP-01")
def test_two_sides_and_the_agreed_total() -> None:
    state, _, _ = build(scenario_data())
    assert state.sides == ["Good", "Evil"]
    assert state.scores == {"Good": 0, "Evil": 0}
    assert state.victory_points == 6
    assert state.round == 0 and not state.over


@rule("FB-START-01")
def test_faction_has_no_rules_effect() -> None:
    plain, _, _ = build(scenario_data())
    data = scenario_data()
    for side in data["sides"]:
        side["faction"] = "Good"
    same, _, _ = build(data)

    def without_faction(state: Any) -> dict[str, Any]:
        # a faction is only a keyword for ability filters (FB-AMB-05); nothing else changes
        doc = state.to_json()
        for unit in doc["units"].values():
            unit.pop("faction")
        return doc

    assert without_faction(same) == without_faction(plain)
    assert {u.faction for u in same.units.values()} == {"Good"}


@rule("FB-START-03", "FB-START-04", "FB-SETUP-11", "FB-AMB-13")
@pytest.mark.parametrize(("choice", "first"), [
    ("A", "Good"), ("B", "Evil"), ("Good", "Good"), ("Evil", "Evil")])
def test_first_player_by_option_deploys_first(choice: str, first: str) -> None:
    state, battle, _ = build(scenario_data(first_player=choice))
    assert state.first_player == first
    assert events(battle, "first_player") == [
        {"seq": 0, "type": "first_player", "side": first}]
    assert events(battle, "roll") == []
    deployed = [e["side"] for e in events(battle, "deployed")]
    second = state.other_side(first)
    assert deployed == [first] * 6 + [second] * 6


@rule("FB-AMB-13", "FB-START-03")
@pytest.mark.parametrize(("face", "first"), [(1, "Good"), (3, "Good"), (4, "Evil"), (6, "Evil")])
def test_random_first_player_is_a_logged_die(face: int, first: str) -> None:
    state, battle, _ = build(scenario_data(first_player="random"), dice=[face])
    assert state.first_player == first
    roll = events(battle, "roll")
    assert len(roll) == 1
    assert roll[0]["faces"] == [face]
    assert "first player" in roll[0]["why"]
    assert events(battle, "first_player")[0]["side"] == first
    assert roll[0]["seq"] < events(battle, "first_player")[0]["seq"]


@rule("FB-AMB-13", "FB-AMB-52")
def test_random_first_player_follows_the_seed() -> None:
    data = scenario_data(first_player="random")
    chosen = {}
    for seed in range(40):
        first = build(data, seed=seed, seeded=True)[0].first_player
        assert build(data, seed=seed, seeded=True)[0].first_player == first  # reproducible
        chosen[seed] = first
    assert set(chosen.values()) == {"Good", "Evil"}


# --------------------------------------------------------------------------- armies


@rule("FB-START-05", "FB-SQUAD-01", "FB-SETUP-02")
def test_standard_units_belong_to_their_squad() -> None:
    state, _, _ = build(scenario_data())
    squad = state.squads["g-sq"]
    assert (squad.side, squad.type, squad.members) == ("Good", "infantry",
                                                       ["g1", "g2", "g3", "g4"])
    for uid in squad.members:
        assert state.units[uid].squad == "g-sq"
        assert state.units[uid].rank == "standard"
    for uid in ("g-elite", "g-champ", "e-elite", "e-champ"):
        assert state.units[uid].squad is None
    assert state.activation_groups("Good") == ["g-sq", "g-elite", "g-champ"]
    assert len(state.activation_groups("Evil")) == 3


@rule("FB-START-05", "FB-RANK-01", "FB-RANK-02", "FB-RANK-03")
def test_rank_type_and_class_are_carried_over() -> None:
    state, _, _ = build(scenario_data())
    elite, champ = state.units["g-elite"], state.units["g-champ"]
    assert (elite.rank, elite.type, elite.cls) == ("elite", "infantry", "archer")
    assert (champ.rank, champ.type, champ.cls) == ("champion", "infantry", "warrior")


@rule("FB-FEAT-01", "FB-AMB-36")
def test_champion_feats_are_entries_each_unused() -> None:
    data = scenario_data()
    data["sides"][0]["units"][1]["feats"] = ["frenzy", "frenzy", "vault"]
    state, _, _ = build(data)
    champ = state.units["g-champ"]
    assert champ.feats == ["frenzy", "frenzy", "vault"]
    assert champ.feats_used == [False, False, False]
    assert champ.unused_feats("frenzy") == [0, 1]
    assert state.units["g-elite"].feats == []
    assert state.units["g1"].feats == []


@rule("FB-AMB-04", "FB-FATE-01")
def test_unique_units_keep_their_fate_points() -> None:
    data = scenario_data()
    data["sides"][0]["units"][1].update(unique=True, fate_points=2, name="Ser Corvin")
    state, _, _ = build(data)
    champ = state.units["g-champ"]
    assert (champ.unique, champ.fate, champ.fate_spent, champ.name) == (
        True, 2, 0, "Ser Corvin")
    assert (state.units["g-elite"].unique, state.units["g-elite"].fate) == (False, 0)


@rule("FB-AMB-05", "FB-ABIL-03")
def test_abilities_with_keyword_filters_are_carried_over() -> None:
    data = scenario_data()
    data["sides"][0]["units"][0]["abilities"] = [
        {"name": "aura", "defense": 1, "affects": "allies", "range": 3,
         "types": ["infantry"], "classes": ["pike"], "ranks": ["standard"]}]
    state, _, _ = build(data)
    (ability,) = state.units["g-elite"].abilities
    assert (ability.name, ability.attack, ability.defense, ability.affects, ability.range) == (
        "aura", 0, 1, "allies", 3)
    assert (ability.types, ability.classes, ability.ranks) == (
        ["infantry"], ["pike"], ["standard"])


# --------------------------------------------------------------------------- deployment


@rule("FB-SETUP-06", "FB-AMB-21")
def test_start_areas_are_the_back_two_rows() -> None:
    state, _, _ = build(scenario_data())
    assert state.start_areas["Good"] == {(x, y) for x in range(12) for y in (0, 1)}
    assert state.start_areas["Evil"] == {(x, y) for x in range(12) for y in (8, 9)}


@rule("FB-SETUP-12", "FB-AMB-22")
def test_units_stand_where_the_scenario_puts_them() -> None:
    state, battle, _ = build(scenario_data())
    assert state.units["g-elite"].anchor == (6, 0)
    assert state.occupied[(6, 0)] == "g-elite"
    assert state.units["e-champ"].anchor == (8, 8)
    assert len(state.occupied) == 12
    assert {"unit": "g-elite", "side": "Good", "at": [6, 0], "facing": None}.items() <= \
        next(e for e in events(battle, "deployed") if e["unit"] == "g-elite").items()


@rule("FB-SETUP-12", "FB-AMB-22", "FB-SETUP-11")
def test_unplaced_units_are_asked_among_legal_start_squares() -> None:
    data = scenario_data()
    data["battlefield"]["terrain"] = [{"type": "blocking", "squares": [[0, 0], [11, 9]]}]
    del data["sides"][0]["units"][1]["at"]
    del data["sides"][1]["units"][1]["at"]
    state, _, commanders = build(data, picks={"Good": ["deploy 10 0"], "Evil": ["deploy 0 9"]})
    (asked,) = commanders["Good"].asked
    assert (asked.kind, asked.subject) == ("deploy", "g-champ")
    offered = {(int(o.args[0]), int(o.args[1])) for o in asked.options}
    taken = {(x, 1) for x in range(1, 5)} | {(6, 0), (0, 0)}
    assert offered == state.start_areas["Good"] - taken
    assert state.units["g-champ"].anchor == (10, 0)
    (asked,) = commanders["Evil"].asked
    offered = {(int(o.args[0]), int(o.args[1])) for o in asked.options}
    assert offered == state.start_areas["Evil"] - {(x, 8) for x in range(1, 5)} - {
        (6, 9), (11, 9)}
    assert state.units["e-champ"].anchor == (0, 9)


@rule("FB-SETUP-12", "FB-AMB-22")
def test_asked_units_cannot_take_squares_the_scenario_reserved() -> None:
    data = scenario_data()
    del data["sides"][0]["units"][0]["at"]  # g-elite is asked before g-champ (8, 1) is placed
    _, _, commanders = build(data)
    (asked,) = commanders["Good"].asked
    assert Order("deploy", (8, 1)) not in asked.options


@rule("FB-AMB-22", "FB-AMB-02", "FB-CAV-03")
def test_unplaced_cavalry_needs_both_rows() -> None:
    data = scenario_data()
    unit = data["sides"][0]["units"][1]
    unit.update(type="cavalry")
    unit["class"] = "knight"
    del unit["at"]
    state, _, commanders = build(data)
    (asked,) = commanders["Good"].asked
    anchors = {(int(o.args[0]), int(o.args[1])) for o in asked.options}
    # row 1 holds g1-g4 at x 1-4, row 0 holds g-elite at x 6; the base covers x..x+1, rows 0-1
    assert anchors == {(7, 0), (8, 0), (9, 0), (10, 0)}
    assert state.units["g-champ"].anchor == (7, 0)
    assert {sq for sq, uid in state.occupied.items() if uid == "g-champ"} == set(
        footprint((7, 0), 2))


@rule("FB-AMB-02", "FB-CAV-03")
@pytest.mark.parametrize(("option", "size"), [("2x2", 2), ("1x1", 1)])
def test_cavalry_footprint(option: str, size: int) -> None:
    data = scenario_data(cavalry_footprint=option)
    unit = data["sides"][1]["units"][0]
    unit.update(type="cavalry", at=[6, 8])
    unit["class"] = "lancer"
    state, _, _ = build(data)
    lancer = state.units["e-elite"]
    assert lancer.size == size
    assert state.squares_of(lancer) == footprint((6, 8), size)
    assert sum(1 for uid in state.occupied.values() if uid == "e-elite") == size * size


@rule("FB-SETUP-13", "FB-AMB-08")
def test_squads_deploy_adjacent() -> None:
    state, _, _ = build(scenario_data())
    members = [state.units[m] for m in state.squads["g-sq"].members]
    for unit in members:
        assert any(state.adjacent(unit, other) for other in members if other is not unit)


@rule("FB-SETUP-14", "FB-AMB-23", "FB-PIKE-01")
def test_pike_facing_given_or_towards_the_enemy() -> None:
    data = scenario_data()
    good_members = data["sides"][0]["squads"][0]["members"]
    evil_members = data["sides"][1]["squads"][0]["members"]
    good_members[0].update({"class": "pike", "facing": "east"})
    good_members[1].update({"class": "pike"})
    evil_members[0].update({"class": "pike"})
    evil_members[1].update({"class": "pike", "facing": "north"})
    state, battle, _ = build(data)
    assert state.units["g1"].facing == (1, 0)
    assert state.units["g2"].facing == (0, 1)  # towards the far edge
    assert state.units["e1"].facing == (0, -1)
    assert state.units["e2"].facing == (0, 1)
    assert state.units["g3"].facing is None  # Warriors have no facing
    deployed = {e["unit"]: e for e in events(battle, "deployed")}
    assert deployed["g1"]["facing"] == [1, 0]
    assert deployed["g3"]["facing"] is None


@rule("FB-SETUP-14", "FB-AMB-23")
def test_diagonal_pike_facing_with_eight_facings() -> None:
    data = scenario_data(pike_facings=8)
    data["sides"][0]["squads"][0]["members"][0].update({"class": "pike", "facing": "northeast"})
    data["sides"][1]["squads"][0]["members"][0].update({"class": "pike", "facing": "southwest"})
    state, _, _ = build(data)
    assert state.units["g1"].facing == (1, 1)
    assert state.units["e1"].facing == (-1, -1)
    assert state.in_front_arc(state.units["g1"], ((2, 1),))


# --------------------------------------------------------------------------- pregenerated maps


@rule("FB-SETUP-03", "FB-AMB-20", "FB-AMB-46")
def test_pregenerated_map_is_built_from_the_data() -> None:
    data = scenario_data()
    data["battlefield"]["terrain"] = [
        {"type": "blocking", "squares": [[5, 5]]},
        {"type": "hindering", "rects": [[[0, 3], [1, 4]]]},
    ]
    data["battlefield"]["hills"] = [{"top": [[8, 4], [9, 5]], "cliff_sides": ["east"]}]
    data["battlefield"]["victory_areas"] = [{"name": "ford", "squares": [[2, 2]], "points": 2}]
    state, _, _ = build(data)
    grid = state.grid
    assert (grid.width, grid.height) == (12, 10)
    assert grid.terrain((5, 5)) == "blocking"
    assert {sq for sq in grid.squares() if grid.terrain(sq) == "hindering"} == {
        (0, 3), (1, 3), (0, 4), (1, 4)}
    assert grid.terrain((8, 4)) == "elevated" and grid.level((9, 5)) == 1
    assert grid.terrain((7, 4)) == "slope" and grid.level((7, 4)) == 0
    assert grid.terrain((10, 5)) == "cliff"
    assert grid.terrain((8, 3)) == "slope" and grid.terrain((8, 6)) == "slope"
    assert state.victory_areas == [{"name": "ford", "squares": [(2, 2)], "points": 2}]


@rule("FB-AMB-20")
def test_default_map_is_30_by_30() -> None:
    data = scenario_data(width=30, height=30)
    del data["battlefield"]
    state, _, _ = build(data)
    assert (state.grid.width, state.grid.height) == (30, 30)


# --------------------------------------------------------------------------- constructed maps


def single(kind: str = "blocking") -> dict[str, Any]:
    return {"type": kind, "shape": [[0, 0]]}


def constructed(
    width: int = 16, height: int = 14, pieces: Sequence[Sequence[dict[str, Any]]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The base scenario on a constructed battlefield; 3 single-square pieces a side unless
    ``pieces`` gives each side's list."""
    data = scenario_data(width, height, **options)
    data["battlefield"]["kind"] = "constructed"
    for i, side in enumerate(data["sides"]):
        side["terrain_pieces"] = list(pieces[i]) if pieces else [single()] * 3
    return data


def placed_squares(battle: Battle) -> list[list[Square]]:
    return [[(x, y) for x, y, _ in e["squares"]] for e in events(battle, "terrain_placed")]


@rule("FB-SETUP-05")
def test_constructed_map_starts_blank() -> None:
    data = constructed(pieces=[[], []], terrain_pieces_per_player=0)
    state, battle, _ = build(data)
    assert state.grid.to_dict()["squares"] == []
    assert events(battle, "terrain_placed") == []


@rule("FB-SETUP-04", "FB-SETUP-07", "FB-AMB-19")
@pytest.mark.parametrize(("first_player", "placer", "dice", "starts"), [
    ("A", "attacker", [], "Good"),
    ("B", "attacker", [], "Evil"),
    ("A", "defender", [], "Evil"),
    ("B", "defender", [], "Good"),
    ("A", "random", [3], "Good"),
    ("A", "random", [4], "Evil"),
])
def test_players_alternate_one_piece_at_a_time(
    first_player: str, placer: str, dice: list[int], starts: str
) -> None:
    data = constructed(first_player=first_player, first_terrain_placer=placer)
    state, battle, commanders = build(data, dice=dice)
    other = state.other_side(starts)
    placed = events(battle, "terrain_placed")
    assert [e["side"] for e in placed] == [starts, other] * 3
    assert sorted(e["piece"] for e in placed if e["side"] == "Good") == [0, 1, 2]
    assert events(battle, "terrain_setup")[0]["first"] == starts
    if placer == "random":
        (roll,) = events(battle, "roll")
        assert "first terrain placer" in roll["why"]
    for decision in commanders["Good"].asked + commanders["Evil"].asked:
        assert decision.kind == "terrain"
        assert all(o.kind == "place" and len(o.args) == 3 for o in decision.options)
    assert len(commanders[starts].asked) == 3


def expected_options(
    width: int, rows: range, placed: list[Square], shape: Sequence[Square]
) -> set[Square]:
    """Brute force: every lowest corner where all squares of ``shape`` obey FB-AMB-18."""
    out = set()
    for oy in range(-5, 40):
        for ox in range(-5, 40):
            squares = [(ox + sx, oy + sy) for sx, sy in shape]
            if all(2 <= x <= width - 3 and y in rows and
                   all(chebyshev((x, y), p) >= 3 for p in placed) for x, y in squares):
                out.add((ox, oy))
    return out


@rule("FB-SETUP-08", "FB-SETUP-09", "FB-SETUP-10", "FB-AMB-18")
@pytest.mark.parametrize("height", [14, 15])
def test_placement_limits(height: int) -> None:
    state, battle, commanders = build(constructed(height=height))
    width = 16
    good_rows = range(2, 7)
    evil_rows = range(7, 12) if height == 14 else range(8, 13)
    assert half_rows(0, height) == good_rows and half_rows(1, height) == evil_rows
    placed: list[Square] = []
    asked = {side: list(c.asked) for side, c in commanders.items()}
    for event in events(battle, "terrain_placed"):
        decision = asked[event["side"]].pop(0)
        rows = good_rows if event["side"] == "Good" else evil_rows
        offered = {(int(o.args[1]), int(o.args[2])) for o in decision.options}
        assert offered == expected_options(width, rows, placed, [(0, 0)])
        assert {int(o.args[0]) for o in decision.options} == {
            i for i in range(3) if not any(
                e["piece"] == i and e["side"] == event["side"]
                for e in events(battle, "terrain_placed") if e["seq"] < event["seq"])}
        placed.extend((x, y) for x, y, _ in event["squares"])
    if height == 15:
        assert all(y != 7 for y in (sq[1] for sq in placed))  # the middle row is nobody's
    for sq in placed:
        assert state.grid.terrain(sq) == "blocking"


@rule("FB-SETUP-10", "FB-AMB-18")
def test_pieces_keep_two_empty_squares_between_them() -> None:
    _, battle, _ = build(constructed(width=20, height=20))
    pieces = placed_squares(battle)
    assert len(pieces) == 6
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            assert min(chebyshev(p, q) for p in a for q in b) >= 3


@rule("FB-SETUP-07", "FB-AMB-19")
def test_owner_chooses_piece_and_place() -> None:
    pieces = [[single("hindering"), {"type": "blocking", "shape": [[0, 0], [1, 0], [1, 1]]},
               single("concealing")], [single("deep_water")] * 3]
    data = constructed(pieces=pieces)
    state, battle, _ = build(data, picks={"Good": ["place 1 4 3", "place 0 10 2",
                                                   "place 2 12 6"]})
    good_events = [e for e in events(battle, "terrain_placed") if e["side"] == "Good"]
    assert [(e["piece"], e["at"], e["terrain"]) for e in good_events] == [
        (1, [4, 3], "blocking"), (0, [10, 2], "hindering"), (2, [12, 6], "concealing")]
    assert good_events[0]["squares"] == [[4, 3, "blocking"], [5, 3, "blocking"],
                                         [5, 4, "blocking"]]
    assert state.grid.terrain((5, 4)) == "blocking"
    assert state.grid.terrain((10, 2)) == "hindering"


@rule("FB-SETUP-08", "FB-SETUP-10")
def test_illegal_placement_is_refused() -> None:
    with pytest.raises(IllegalOrderError):
        build(constructed(), picks={"Good": ["place 0 4 9"]})  # Evil's half
    with pytest.raises(IllegalOrderError):
        build(constructed(), picks={"Good": ["place 0 1 3"]})  # too near the edge
    with pytest.raises(IllegalOrderError):
        build(constructed(), picks={"Good": ["place 0 4 3", "place 1 6 4"]})  # too near


@rule("FB-AMB-19")
def test_piece_that_fits_nowhere_is_discarded() -> None:
    wide = {"type": "blocking", "shape": [[x, 0] for x in range(13)]}  # x 2..13 holds 12
    data = constructed(pieces=[[wide, single(), single()], [single()] * 3])
    _, battle, _ = build(data)
    (discarded,) = events(battle, "terrain_discarded")
    assert {k: discarded[k] for k in ("side", "piece", "terrain")} == {
        "side": "Good", "piece": 0, "terrain": "blocking"}
    assert sorted(e["piece"] for e in events(battle, "terrain_placed")
                  if e["side"] == "Good") == [1, 2]


@rule("FB-AMB-19")
def test_piece_crowded_out_later_is_discarded_and_turns_continue() -> None:
    block = {"type": "blocking", "shape": [[x, y] for x in range(12) for y in range(5)]}
    data = constructed(pieces=[[block, single(), single()], [single()] * 3])
    _, battle, _ = build(data)
    assert [(e["side"], e["piece"]) for e in events(battle, "terrain_discarded")] == [
        ("Good", 1), ("Good", 2)]
    placed = events(battle, "terrain_placed")
    assert [e["side"] for e in placed] == ["Good", "Evil", "Evil", "Evil"]
    assert all(y >= 9 for e in placed[1:] for _, y, _ in e["squares"])


@rule("FB-AMB-19", "FB-TERRAIN-08", "FB-AMB-46")
def test_hill_piece_has_elevated_top_and_slope_edging() -> None:
    hill = {"type": "hill", "hill_size": [2, 1]}
    data = constructed(pieces=[[hill, single(), single()], [single()] * 3])
    state, battle, _ = build(data, picks={"Good": ["place 0 5 2"]})
    first = events(battle, "terrain_placed")[0]
    assert (first["terrain"], first["at"]) == ("hill", [5, 2])
    squares = {(x, y): t for x, y, t in first["squares"]}
    assert len(squares) == 12
    assert {sq for sq, t in squares.items() if t == "elevated"} == {(6, 3), (7, 3)}
    assert all(t == "slope" for sq, t in squares.items() if sq not in {(6, 3), (7, 3)})
    assert state.grid.level((6, 3)) == 1 and state.grid.level((5, 3)) == 0
    assert state.grid.terrain((8, 4)) == "slope"


@rule("FB-AMB-19")
def test_hill_squares_all_obey_the_limits() -> None:
    hill = {"type": "hill", "hill_size": [3, 2]}  # 5 x 4 squares
    data = constructed(pieces=[[hill, single(), single()], [single()] * 3])
    _, _, commanders = build(data)
    first = commanders["Good"].asked[0]
    corners = {(int(o.args[1]), int(o.args[2])) for o in first.options if o.args[0] == 0}
    shape = [sq for sq, _ in piece_squares(TerrainPiece(type="hill", hill_size=(3, 2)))]
    assert corners == expected_options(16, range(2, 7), [], shape)
    assert corners == {(x, y) for x in range(2, 10) for y in (2, 3)}


def test_piece_squares_are_normalised() -> None:
    piece = TerrainPiece(type="hindering", shape=[(3, 5), (4, 5), (4, 6), (4, 6)])
    assert piece_squares(piece) == [((0, 0), "hindering"), ((1, 0), "hindering"),
                                    ((1, 1), "hindering")]


@rule("FB-SETUP-11", "FB-SETUP-12")
def test_armies_deploy_after_the_battlefield_is_built() -> None:
    state, battle, _ = build(constructed())
    kinds = [e["type"] for e in battle.log.events if e["type"] in ("terrain_placed", "deployed")]
    assert kinds == ["terrain_placed"] * 6 + ["deployed"] * 12
    assert len(state.occupied) == 12


def test_constructed_example_builds() -> None:
    path = Path(__file__).resolve().parents[3] / "examples/fantasy-battle/constructed.yaml"
    scenario = load_scenario(path)
    commanders = {name: Recorder() for name in ("Good", "Evil")}
    battle = Battle(scenario.ruleset, scenario, 7, commanders)
    state = new_state(scenario.model, battle)
    assert len(events(battle, "terrain_placed")) + len(events(battle, "terrain_discarded")) == 6
    assert len(state.occupied) == 4 * 2 + 4 * 2 * 2 + 1 * 2 + 4 * 2


@rule("FB-SQUAD-02", "FB-AMB-07")
def test_cavalry_squad_of_two_sets_up() -> None:
    data = scenario_data(width=16)
    data["sides"][0]["units"][0]["at"] = [5, 0]
    data["sides"][0]["units"][1]["at"] = [6, 1]
    data["sides"][0]["squads"].append({"id": "g-horse", "type": "cavalry", "members": [
        member("g5", "knight", [7, 0]), member("g6", "lancer", [9, 0])]})
    data["sides"][1]["squads"].append({"id": "e-horse", "type": "cavalry", "members": [
        member("e5", "knight", None), member("e6", "knight", None)]})
    state, _, _ = build(data)
    assert state.squads["g-horse"].members == ["g5", "g6"]
    assert state.squads["g-horse"].type == "cavalry"
    assert state.units["g6"].size == 2
    assert all(state.units[m].anchor is not None for m in state.squads["e-horse"].members)


@rule("FB-FEAT-01", "FB-FEAT-04", "FB-AMB-36")
def test_roll_d6_feats_are_rolled_at_setup() -> None:
    data = scenario_data(feat_selection="roll_d6")
    data["sides"][0]["units"][1]["feats"] = []  # one entry, rolled
    data["sides"][1]["units"][1]["feats"] = ["frenzy", "frenzy"]  # two entries, rolled
    state, battle, _ = build(data, dice=[5, 1, 6])
    assert state.units["g-champ"].feats == ["throw"]
    assert state.units["e-champ"].feats == ["burst_of_speed", "vault"]
    assert state.units["e-champ"].feats_used == [False, False]
    assert [e["unit"] for e in events(battle, "feats_rolled")] == ["g-champ", "e-champ"]
    assert state.units["g-elite"].feats == []


@rule("FB-SETUP-07")
def test_default_placement_is_central_in_the_half() -> None:
    _, _, commanders = build(constructed())
    first = commanders["Good"].asked[0]
    assert first.default == Order("place", (0, 8, 4))
    assert first.find(first.default) is not None


EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle")
                  .glob("*.yaml"))


@rule("FB-SETUP-11", "FB-SETUP-12", "FB-SETUP-13")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_sets_up(path: Path) -> None:
    scenario = load_scenario(path)
    names = scenario.ruleset.side_names(scenario.model)
    battle = Battle(scenario.ruleset, scenario, 11, {n: FirstOptionCommander() for n in names})
    state = new_state(scenario.model, battle)
    assert all(unit.on_map for unit in state.units.values())
    covered = [sq for unit in state.units.values() for sq in state.squares_of(unit)]
    assert len(covered) == len(set(covered)) == len(state.occupied)
    for unit in state.units.values():
        assert set(state.squares_of(unit)) <= state.start_areas[unit.side]
        assert all(state.terrain(sq).can_end for sq in state.squares_of(unit))
    for side in names:
        assert len(state.activation_groups(side)) == len(state.activation_groups(names[0]))
