"""Movement of fantasy-battle: allowances, destinations, charges, Vault and forced moves.

Most maps here are narrow corridors so that the exact set of reachable anchors and their costs
can be worked out by hand; a Hypothesis test compares :func:`movement.destinations` and
:func:`movement.charge_destinations` with a slow reference written straight from the rules.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warhost.geometry.grid import DIRECTIONS8, Square, footprint, space_distance
from warhost.rulesets.fantasy_battle import movement
from warhost.rulesets.fantasy_battle.movement import MovePlan
from warhost.rulesets.fantasy_battle.state import FBState, Unit
from warhost.rulesets.fantasy_battle.terrain import TERRAIN

from .helpers import add_unit, events, make_battle, make_state

rule = pytest.mark.rule


def costs(plans: Mapping[Square, MovePlan]) -> dict[Square, int]:
    """Destination -> cost."""
    return {sq: p.cost for sq, p in plans.items()}


def reach(state: FBState, uid: str, budget: int, **kw: Any) -> dict[Square, int]:
    return costs(movement.destinations(state, state.units[uid], budget, **kw))


def charge(state: FBState, uid: str, budget: int) -> dict[Square, int]:
    return costs(movement.charge_destinations(state, state.units[uid], budget))


def chebyshev_ball(centre: Square, r: int, w: int, h: int) -> dict[Square, int]:
    cx, cy = centre
    return {(x, y): max(abs(x - cx), abs(y - cy))
            for x in range(w) for y in range(h) if max(abs(x - cx), abs(y - cy)) <= r}


def row(*names: str) -> dict[Square, str]:
    """Terrain of a one-row map, left to right."""
    return {(x, 0): n for x, n in enumerate(names)}


def enemy_pike(at: Square, facing: str = "north") -> dict[str, Any]:
    """Spec of a Pike of side B."""
    return {"id": "p", "side": "B", "cls": "pike", "at": at, "facing": facing}


def niche_map(width: int, niche: int, **unit: Any) -> FBState:
    """A corridor at y=0 with a wall at y=1 except one niche square at x=``niche`` where
    ``unit`` stands (so only the corridor squares next to the niche touch it)."""
    terrain = {(x, 1): "blocking" for x in range(width) if x != niche}
    return make_state(width, 2, units=[dict(at=(niche, 1), **unit)], terrain=terrain)


# --------------------------------------------------------------------------- allowance


@rule("FB-MOVE-01")
@rule("FB-MOVE-07")
@rule("FB-FEAT-05")
@rule("FB-AMB-42")
def test_allowance_table() -> None:
    """Infantry 6/12, Cavalry 8/16; Burst of Speed +2 / +4 (totals 8/16 and 10/20)."""
    state = make_state(units=[{"id": "i", "at": (0, 0)},
                              {"id": "c", "cls": "knight", "at": (4, 4)}])
    inf, cav = state.units["i"], state.units["c"]
    assert [movement.allowance(inf, d, b) for d in (False, True) for b in (False, True)] == [
        6, 8, 12, 16]
    assert [movement.allowance(cav, d, b) for d in (False, True) for b in (False, True)] == [
        8, 10, 16, 20]


# --------------------------------------------------------------------------- open ground


@rule("FB-MOVE-01")
@rule("FB-MOVE-02")
@rule("FB-MOVE-03")
@rule("FB-AMB-01")
def test_infantry_open_ground_is_a_chebyshev_ball_of_radius_6() -> None:
    """Every square within 6 king moves, each at cost = Chebyshev distance (diagonal = 1);
    staying put is included at cost 0 with an empty path."""
    state = make_state(20, 20, units=[{"id": "u", "at": (10, 10)}])
    plans = movement.destinations(state, state.units["u"], 6)
    assert costs(plans) == chebyshev_ball((10, 10), 6, 20, 20)
    assert plans[(10, 10)] == MovePlan((10, 10), 0, (), None)
    assert plans[(13, 13)].cost == 3
    assert plans[(16, 4)].path == ((11, 9), (12, 8), (13, 7), (14, 6), (15, 5), (16, 4))


@rule("FB-MOVE-02")
def test_zero_budget_only_stays_put() -> None:
    state = make_state(units=[{"id": "u", "at": (5, 5)}])
    assert reach(state, "u", 0) == {(5, 5): 0}


@rule("FB-MOVE-07")
@rule("FB-MOVE-01")
def test_double_time_reaches_twelve() -> None:
    state = make_state(30, 30, units=[{"id": "u", "at": (15, 15)}])
    unit = state.units["u"]
    budget = movement.allowance(unit, True, False)
    assert reach(state, "u", budget) == chebyshev_ball((15, 15), 12, 30, 30)


@rule("FB-CAV-03")
@rule("FB-MOVE-01")
@rule("FB-AMB-03")
def test_cavalry_moves_its_2x2_space_up_to_8() -> None:
    """A 2x2 base: anchors within 8 king moves whose whole space is on the map."""
    state = make_state(20, 20, units=[{"id": "k", "cls": "knight", "at": (5, 5)}])
    assert state.squares_of(state.units["k"]) == ((5, 5), (5, 6), (6, 5), (6, 6))
    expected = {sq: c for sq, c in chebyshev_ball((5, 5), 8, 19, 19).items()}
    assert reach(state, "k", 8) == expected


# --------------------------------------------------------------------------- blocking


@rule("FB-MOVE-04")
@pytest.mark.parametrize("side", ["A", "B"])
def test_units_block_friend_or_foe(side: str) -> None:
    """A wall at x=4 whose only gap holds another unit: nothing beyond is reachable."""
    terrain = {(4, y): "blocking" for y in range(5) if y != 2}
    blocker = {"id": "x", "side": side, "at": (4, 2), "cls": "archer"}
    state = make_state(9, 5, units=[{"id": "u", "at": (1, 2)}, blocker], terrain=terrain)
    got = reach(state, "u", 6)
    assert set(got) == {(x, y) for x in range(4) for y in range(5)}
    state.place(state.units["x"], (8, 4))
    assert reach(state, "u", 6)[(5, 2)] == 4


@rule("FB-MOVE-05")
@rule("FB-TERRAIN-02")
@rule("FB-TERRAIN-14")
@pytest.mark.parametrize("wall", ["blocking", "deep_water", "cliff"])
def test_walls_pits_and_cliffs_cannot_be_crossed(wall: str) -> None:
    terrain = {(4, y): wall for y in range(5)}
    state = make_state(9, 5, units=[{"id": "u", "at": (1, 2)}], terrain=terrain)
    assert set(reach(state, "u", 12)) == {(x, y) for x in range(4) for y in range(5)}


@rule("FB-TERRAIN-01")
@rule("FB-TERRAIN-04")
@rule("FB-TERRAIN-09")
@rule("FB-TERRAIN-10")
@rule("FB-TERRAIN-12")
@rule("FB-TERRAIN-13")
@rule("FB-TERRAIN-14")
@pytest.mark.parametrize(("middle", "expected"), [
    ("clear", {(0, 0): 0, (1, 0): 1, (2, 0): 2}),
    ("concealing", {(0, 0): 0, (1, 0): 1, (2, 0): 2}),
    ("hindering", {(0, 0): 0, (1, 0): 2, (2, 0): 3}),
    ("shallow_water", {(0, 0): 0, (1, 0): 2, (2, 0): 3}),
    ("slope", {(0, 0): 0, (2, 0): 3}),
    ("blocking", {(0, 0): 0}),
    ("cliff", {(0, 0): 0}),
    ("deep_water", {(0, 0): 0}),
])
def test_terrain_table_for_movement(middle: str, expected: dict[Square, int]) -> None:
    """One square of each terrain between two clear squares: cost to enter it, and whether a
    move may end on it (slope: passable at cost 2 but no end)."""
    state = make_state(3, 1, units=[{"id": "u", "at": (0, 0)}], terrain=row("clear", middle))
    assert reach(state, "u", 3) == expected


@rule("FB-TERRAIN-04")
@rule("FB-TERRAIN-01")
def test_each_hindering_square_counts_two() -> None:
    state = make_state(6, 1, units=[{"id": "u", "at": (0, 0)}],
                       terrain={(x, 0): "hindering" for x in range(1, 6)})
    assert reach(state, "u", 6) == {(0, 0): 0, (1, 0): 2, (2, 0): 4, (3, 0): 6}


@rule("FB-TERRAIN-05")
@rule("FB-AMB-03")
def test_large_space_costs_two_if_any_square_is_hindering() -> None:
    """Knight in a 2-high corridor; hindering at (2,0) and (3,1). A space holding two
    hindering squares still costs 2, not 4."""
    state = make_state(6, 2, units=[{"id": "k", "cls": "knight", "at": (0, 0)}],
                       terrain={(2, 0): "hindering", (3, 1): "hindering"})
    assert reach(state, "k", 8) == {(0, 0): 0, (1, 0): 2, (2, 0): 4, (3, 0): 6, (4, 0): 7}


# --------------------------------------------------------------------------- enemy adjacency


@rule("FB-MOVE-06")
@rule("FB-AMB-16")
@rule("FB-AMB-01")
def test_leaving_enemy_adjacent_square_costs_double_every_step() -> None:
    """Enemy in a niche at (3,1): (2,0), (3,0), (4,0) touch it (diagonals count). Every step
    starting there is doubled, including (3,0) -> (4,0) from one adjacent square to another."""
    state = niche_map(8, 3, id="e", side="B")
    add_unit(state, id="u", at=(0, 0))
    plans = movement.destinations(state, state.units["u"], 6)
    assert costs(plans) == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (3, 0): 4, (4, 0): 6}
    assert plans[(4, 0)].path == ((1, 0), (2, 0), (3, 0), (4, 0))


@rule("FB-MOVE-06")
def test_friends_do_not_impede() -> None:
    state = niche_map(8, 3, id="f", side="A")
    add_unit(state, id="u", at=(0, 0))
    assert reach(state, "u", 6) == {(x, 0): x for x in range(7)}


@rule("FB-MOVE-06")
@rule("FB-AMB-16")
def test_starting_next_to_an_enemy() -> None:
    """The first step out of an enemy-adjacent start is doubled, later steps are not."""
    state = niche_map(8, 0, id="e", side="B")
    add_unit(state, id="u", at=(0, 0))
    # (1,0) still touches (0,1) diagonally.
    assert reach(state, "u", 6) == {(0, 0): 0, (1, 0): 2, (2, 0): 4, (3, 0): 5, (4, 0): 6}


@rule("FB-AMB-16")
def test_hindering_step_out_of_enemy_contact_costs_four() -> None:
    state = niche_map(8, 0, id="e", side="B")
    state.grid.set_terrain((1, 0), "hindering")
    add_unit(state, id="u", at=(0, 0))
    assert reach(state, "u", 6) == {(0, 0): 0, (1, 0): 4, (2, 0): 6}


@rule("FB-CAV-02")
@rule("FB-AMB-34")
def test_cavalry_ignore_the_doubled_cost() -> None:
    """Knight in a 2-high corridor with an enemy in a niche above: no doubling, on a normal
    move, a Double-time move or a Burst of Speed move."""
    terrain = {(x, 2): "blocking" for x in range(8) if x != 3}
    state = make_state(8, 3, units=[{"id": "e", "side": "B", "at": (3, 2)},
                                    {"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    knight = state.units["k"]
    budgets = (8, movement.allowance(knight, True, False), movement.allowance(knight, True, True))
    for budget in budgets:
        assert reach(state, "k", budget) == {(x, 0): x for x in range(7)}
    # The Infantry version of the same move pays double.
    state2 = niche_map(8, 3, id="e", side="B")
    add_unit(state2, id="u", at=(0, 0))
    assert reach(state2, "u", 8)[(5, 0)] == 8


@rule("FB-AMB-34")
@rule("FB-CAV-02")
def test_cavalry_exemption_does_not_cover_terrain_or_arcs() -> None:
    """Cavalry still pay for hindering terrain and still stop in a front arc."""
    terrain = {(x, 2): "blocking" for x in range(8) if x != 4}
    terrain[(1, 0)] = "hindering"
    state = make_state(8, 3, units=[enemy_pike((4, 2), "south"),
                                    {"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    # Anchor (1,0) covers the hindering square (cost 2); anchor (2,0) covers the arc square
    # (3,1) and halts there.
    assert reach(state, "k", 16) == {(0, 0): 0, (1, 0): 2, (2, 0): 3}


# --------------------------------------------------------------------------- levels


@rule("FB-TERRAIN-08")
@rule("FB-TERRAIN-09")
@rule("FB-TERRAIN-10")
@rule("FB-AMB-46")
def test_hill_with_slope_and_cliff() -> None:
    """Ground, ground, slope, top, top, cliff, ground: up the slope (cost 2, no stop on it),
    along the top at 1 a square, never over the cliff."""
    terrain = row("clear", "clear", "slope", "elevated", "elevated", "cliff", "clear")
    state = make_state(7, 1, units=[{"id": "u", "at": (0, 0)}], terrain=terrain)
    assert reach(state, "u", 10) == {(0, 0): 0, (1, 0): 1, (3, 0): 4, (4, 0): 5}


@rule("FB-AMB-46")
@rule("FB-TERRAIN-08")
def test_no_step_between_top_and_ground_without_a_slope() -> None:
    terrain = row("clear", "clear", "elevated", "elevated")
    state = make_state(4, 1, units=[{"id": "u", "at": (0, 0)}, {"id": "v", "at": (3, 0)}],
                       terrain=terrain)
    assert reach(state, "u", 6) == {(0, 0): 0, (1, 0): 1}
    assert reach(state, "v", 6) == {(3, 0): 0, (2, 0): 1}


@rule("FB-TERRAIN-06")
@rule("FB-AMB-46")
def test_all_elevated_terrain_is_one_height() -> None:
    """Elevated squares of different recorded levels join without a cliff; 1 per square."""
    state = make_state(3, 1, units=[{"id": "u", "at": (0, 0)}],
                       terrain=row("elevated", "elevated", "elevated"),
                       levels={(0, 0): 1, (1, 0): 2, (2, 0): 1})
    assert reach(state, "u", 2) == {(0, 0): 0, (1, 0): 1, (2, 0): 2}


@rule("FB-TERRAIN-07")
@rule("FB-AMB-01")
def test_elevated_unit_is_not_adjacent_to_ground_enemy() -> None:
    """Top row elevated, bottom row ground with an enemy: no doubling on the top."""
    terrain = {(x, 0): "elevated" for x in range(6)}
    state = make_state(6, 2, terrain=terrain,
                       units=[{"id": "e", "side": "B", "at": (2, 1)}, {"id": "u", "at": (1, 0)}])
    assert reach(state, "u", 3) == {(1, 0): 0, (0, 0): 1, (2, 0): 1, (3, 0): 2, (4, 0): 3}


@rule("FB-TERRAIN-07")
def test_elevated_units_on_the_same_top_are_adjacent() -> None:
    terrain = {(x, y): "elevated" for x in range(6) for y in range(2)}
    state = make_state(6, 2, terrain=terrain,
                       units=[{"id": "e", "side": "B", "at": (2, 1)}, {"id": "u", "at": (1, 0)}])
    assert reach(state, "u", 4) == {(1, 0): 0, (0, 0): 2, (2, 0): 2, (0, 1): 2, (1, 1): 2,
                                    (3, 0): 4, (3, 1): 4}


@rule("FB-AMB-46")
@rule("FB-TERRAIN-07")
def test_slope_counts_as_ground_for_adjacency() -> None:
    """A unit on slope next to a ground enemy pays double to leave; one on the top does not."""
    terrain = row("clear", "slope", "elevated", "elevated")
    state = make_state(4, 1, units=[{"id": "e", "side": "B", "at": (0, 0)}], terrain=terrain)
    # Start on slope (never a legal end, so it is not offered as "stay").
    add_unit(state, id="u", at=(1, 0))
    assert reach(state, "u", 3) == {(2, 0): 2, (3, 0): 3}


@rule("FB-AMB-46")
@rule("FB-AMB-03")
@rule("FB-CAV-03")
def test_large_unit_crosses_slope_but_ends_on_one_level() -> None:
    """Knight, 2 rows high: ground x=0,1; slope x=2; top x>=3. Spaces holding slope are passed
    (cost 2) but not ended on; the top is reached with all four squares on level 1."""
    terrain = {(2, y): "slope" for y in range(2)}
    terrain.update({(x, y): "elevated" for x in range(3, 7) for y in range(2)})
    state = make_state(7, 2, units=[{"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    assert reach(state, "k", 10) == {(0, 0): 0, (3, 0): 5, (4, 0): 6, (5, 0): 7}


@rule("FB-AMB-46")
@rule("FB-AMB-03")
def test_large_unit_cannot_straddle_a_cliff_edge() -> None:
    terrain = {(x, y): "elevated" for x in range(3, 6) for y in range(2)}
    state = make_state(6, 2, units=[{"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    assert reach(state, "k", 8) == {(0, 0): 0, (1, 0): 1}


# --------------------------------------------------------------------------- corner cutting


@rule("FB-AMB-17")
@rule("FB-MOVE-03")
def test_corner_cutting_between_two_walls() -> None:
    terrain = {(1, 0): "blocking", (0, 1): "blocking"}
    default = make_state(3, 3, units=[{"id": "u", "at": (0, 0)}], terrain=terrain)
    assert reach(default, "u", 6) == {(0, 0): 0}
    always = make_state(3, 3, units=[{"id": "u", "at": (0, 0)}], terrain=terrain,
                        corner_cutting="always")
    assert reach(always, "u", 6) == {(0, 0): 0, (1, 1): 1, (2, 0): 2, (2, 1): 2, (0, 2): 2,
                                     (1, 2): 2, (2, 2): 2}


@rule("FB-AMB-17")
def test_corner_cutting_needs_both_corners_impassable_terrain() -> None:
    """One wall corner, a wall and a pit, or two units: only terrain on both sides blocks."""
    one = make_state(3, 3, units=[{"id": "u", "at": (0, 0)}], terrain={(1, 0): "blocking"})
    assert reach(one, "u", 1) == {(0, 0): 0, (0, 1): 1, (1, 1): 1}
    pit = make_state(3, 3, units=[{"id": "u", "at": (0, 0)}],
                     terrain={(1, 0): "blocking", (0, 1): "deep_water"})
    assert reach(pit, "u", 6) == {(0, 0): 0}
    units = make_state(3, 3, units=[{"id": "u", "at": (0, 0)}, {"id": "a", "at": (1, 0)},
                                    {"id": "b", "side": "B", "at": (0, 1)}])
    # Units never block a diagonal; the step out of enemy contact costs 2.
    assert reach(units, "u", 2) == {(0, 0): 0, (1, 1): 2}


@rule("FB-AMB-17")
@rule("FB-AMB-03")
def test_corner_cutting_for_a_large_base() -> None:
    """The 2x2 base squeezes between (2,0) and (0,2) when stepping to (1,1)."""
    terrain = {(2, 0): "blocking", (0, 2): "blocking"}
    default = make_state(5, 5, units=[{"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    assert reach(default, "k", 8) == {(0, 0): 0}
    always = make_state(5, 5, units=[{"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain,
                        corner_cutting="always")
    expected = {(0, 0): 0, (1, 1): 1, (2, 1): 2, (1, 2): 2, (2, 2): 2}
    expected.update({sq: 3 for sq in [(3, 0), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (0, 3)]})
    assert reach(always, "k", 8) == expected


# --------------------------------------------------------------------------- front arcs


def arc_corridor(mover_side: str, mover_at: Square, **mover: Any) -> FBState:
    """Corridor y=0; a Pike of side B in a niche at (3,1) facing south: arc (2,0),(3,0),(4,0)."""
    state = niche_map(7, 3, id="p", side="B", cls="pike", facing="south")
    add_unit(state, id="u", side=mover_side, at=mover_at, **mover)
    return state


@rule("FB-PIKE-05")
@rule("FB-AMB-24")
def test_entering_a_front_arc_stops_the_move() -> None:
    state = arc_corridor("A", (0, 0))
    assert reach(state, "u", 6) == {(0, 0): 0, (1, 0): 1, (2, 0): 2}


@rule("FB-AMB-24")
@rule("FB-PIKE-05")
def test_friends_of_the_pike_are_not_stopped() -> None:
    state = arc_corridor("B", (0, 0))
    assert reach(state, "u", 6) == {(x, 0): x for x in range(7)}


@rule("FB-AMB-24")
def test_a_unit_starting_in_an_arc_may_step_out_but_arc_to_arc_stops() -> None:
    """From (4,0) (in the arc, touching the Pike): (5,0) is outside (cost 2, doubled), (3,0) is
    another arc square and stops the move; double-time does not help."""
    state = arc_corridor("A", (4, 0))
    assert reach(state, "u", 6) == {(4, 0): 0, (3, 0): 2, (5, 0): 2, (6, 0): 3}
    assert reach(state, "u", 12) == {(4, 0): 0, (3, 0): 2, (5, 0): 2, (6, 0): 3}


@rule("FB-PIKE-05")
@rule("FB-AMB-24")
def test_arc_stop_on_open_ground_is_never_passed_through() -> None:
    """Pike at (3,3) facing north: every plan enters an arc square only as its last step."""
    state = make_state(7, 7, units=[{"id": "p", "side": "B", "cls": "pike", "at": (3, 3)},
                                    {"id": "u", "at": (3, 6)}])
    plans = movement.destinations(state, state.units["u"], 6)
    arc = {(2, 4), (3, 4), (4, 4)}
    assert arc <= set(plans)
    assert plans[(3, 4)].cost == 2
    for plan in plans.values():
        assert not arc & set(plan.path[:-1])
    # Behind the Pike only by walking round the arc: (4,5), (5,4), (4,3), then (3,2) at double
    # cost since (4,3) touches the Pike.
    assert plans[(3, 2)].cost == 5
    assert plans[(3, 2)].path == ((4, 5), (5, 4), (4, 3), (3, 2))


@rule("FB-AMB-24")
@rule("FB-AMB-03")
def test_large_unit_stops_when_any_square_enters_the_arc() -> None:
    terrain = {(x, 2): "blocking" for x in range(8) if x != 4}
    state = make_state(8, 3, units=[enemy_pike((4, 2), "south"),
                                    {"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    assert reach(state, "k", 8) == {(0, 0): 0, (1, 0): 1, (2, 0): 2}


@rule("FB-AMB-24")
@rule("FB-TERRAIN-07")
def test_arc_on_another_level_does_not_stop() -> None:
    """A Pike on a top facing over ground squares does not stop ground units there."""
    terrain = {(x, 1): "elevated" for x in range(7)}
    state = make_state(7, 2, units=[enemy_pike((3, 1), "south"),
                                    {"id": "u", "at": (0, 0)}], terrain=terrain)
    assert reach(state, "u", 6) == {(x, 0): x for x in range(7)}


@rule("FB-PIKE-04")
def test_moving_never_changes_facing() -> None:
    """Facing changes belong to the Pike's own movement phase (the turn module); a move and a
    forced move leave the facing as it was."""
    state = make_state(units=[{"id": "p", "cls": "pike", "at": (2, 2), "facing": "east"}])
    battle = make_battle(state)
    pike = state.units["p"]
    plan = movement.destinations(state, pike, 6)[(2, 5)]
    movement.apply_move(state, battle, pike, plan)
    assert pike.anchor == (2, 5)
    assert pike.facing == (1, 0)
    assert not events(battle, "facing")


# --------------------------------------------------------------------------- slopes, forced moves


def hill_state() -> FBState:
    """7x5: ground rows 0-1, slope row 2, elevated rows 3-4; enemy Pike (B) at (3,1) facing
    north, so its arc (2,2),(3,2),(4,2) lies on the slope."""
    terrain = {(x, 2): "slope" for x in range(7)}
    terrain.update({(x, y): "elevated" for x in range(7) for y in (3, 4)})
    return make_state(7, 5, units=[enemy_pike((3, 1), "north"),
                                   {"id": "u", "at": (2, 4)}], terrain=terrain)


@rule("FB-TERRAIN-10")
@rule("FB-TERRAIN-11")
@rule("FB-AMB-24")
def test_arc_stop_on_slope_is_offered_other_slope_is_not() -> None:
    state = hill_state()
    plans = movement.destinations(state, state.units["u"], 6)
    assert plans[(2, 2)].cost == 3
    assert {(2, 2), (3, 2), (4, 2)} <= set(plans)
    assert not {(0, 2), (1, 2), (5, 2), (6, 2)} & set(plans)
    assert plans[(1, 1)].cost == 4  # down the slope at (1,2), which is outside the arc


@rule("FB-TERRAIN-11")
@rule("FB-AMB-47")
def test_forced_off_slope_to_nearest_foot_square_lowest_y_x_on_ties() -> None:
    state = hill_state()
    battle = make_battle(state)
    unit = state.units["u"]
    plan = movement.destinations(state, unit, 6)[(2, 2)]
    movement.apply_move(state, battle, unit, plan)
    # (1,1) and (2,1) are both at distance 1 from (2,2); (3,1) holds the Pike.
    assert unit.anchor == (1, 1)
    assert state.occupied[(1, 1)] == "u" and (2, 2) not in state.occupied
    [move] = events(battle, "move")
    assert move["from"] == [2, 4] and move["to"] == [2, 2] and move["cost"] == 3
    assert move["path"] == [[3, 3], [2, 2]] and move["vaulted"] is None
    [forced] = events(battle, "forced_move")
    assert forced["from"] == [2, 2] and forced["to"] == [1, 1]


@rule("FB-AMB-47")
@rule("FB-TERRAIN-11")
def test_owner_breaks_ties_when_forced_off_slope() -> None:
    state = hill_state()
    battle = make_battle(state, orders={"A": ["place 2 1"]})
    unit = state.units["u"]
    movement.apply_move(state, battle, unit, movement.destinations(state, unit, 6)[(2, 2)])
    assert unit.anchor == (2, 1)
    assert battle.decisions == [{"side": "A", "kind": "forced_space", "order": "place 2 1"}]


@rule("FB-AMB-47")
def test_nearest_legal_space_without_a_foot_uses_the_whole_map() -> None:
    """A slope square ringed by walls: the nearest legal ground square anywhere, (y, x) order."""
    terrain = {(x, y): "blocking" for x in range(1, 4) for y in range(1, 4)}
    terrain[(2, 2)] = "slope"
    state = make_state(5, 5, units=[{"id": "u", "at": (0, 0)}], terrain=terrain)
    assert movement.nearest_legal_space(state, state.units["u"], (2, 2)) == (0, 0)
    state.place(state.units["u"], None)
    add_unit(state, id="v", at=(0, 0))
    state.units["u"].anchor = (2, 2)
    assert movement.nearest_legal_space(state, state.units["u"], (2, 2)) == (1, 0)


@rule("FB-AMB-47")
def test_nearest_legal_space_skips_elevated_and_occupied() -> None:
    state = hill_state()
    add_unit(state, id="f", at=(1, 1))
    unit = state.units["u"]
    # Candidates at distance 1 from (2,2): (1,1) friend, (3,1) Pike, (1,3)-(3,3) elevated.
    assert movement.nearest_legal_space(state, unit, (2, 2)) == (2, 1)
    add_unit(state, id="g", at=(2, 1))
    assert movement.nearest_legal_space(state, unit, (2, 2)) == (0, 1)


@rule("FB-AMB-47")
@rule("FB-AMB-03")
@rule("FB-TERRAIN-11")
def test_large_unit_halted_on_slope_is_moved_to_a_2x2_ground_space() -> None:
    """Knight comes down from the top into the arc of a Pike at (4,1): its space (3..4, 2..3)
    holds slope, so it goes to the nearest 2x2 ground space at the foot; ties (1,0), (2,0),
    (5,0) are offered to the owner."""
    terrain = {(x, 2): "slope" for x in range(8)}
    terrain.update({(x, y): "elevated" for x in range(8) for y in (3, 4, 5)})
    state = make_state(8, 6, units=[enemy_pike((4, 1), "north"),
                                    {"id": "k", "cls": "knight", "at": (3, 4)}], terrain=terrain)
    knight = state.units["k"]
    plans = movement.destinations(state, knight, 8)
    assert plans[(3, 2)].cost == 3
    assert movement.nearest_legal_space(state, knight, (3, 2)) == (1, 0)
    battle = make_battle(state, orders={"A": ["place 5 0"]})
    movement.apply_move(state, battle, knight, plans[(3, 2)])
    assert knight.anchor == (5, 0)
    assert sorted(sq for sq, uid in state.occupied.items() if uid == "k") == [
        (5, 0), (5, 1), (6, 0), (6, 1)]


# --------------------------------------------------------------------------- Large bases


@rule("FB-CAV-03")
@rule("FB-AMB-03")
def test_large_base_cannot_use_a_one_square_gap() -> None:
    terrain = {(3, y): "blocking" for y in range(5) if y != 2}
    state = make_state(7, 5, units=[{"id": "k", "cls": "knight", "at": (0, 0)}], terrain=terrain)
    assert set(reach(state, "k", 16)) == {(x, y) for x in range(2) for y in range(4)}
    infantry = make_state(7, 5, units=[{"id": "i", "at": (0, 0)}], terrain=terrain)
    assert reach(infantry, "i", 12)[(6, 2)] == 6


@rule("FB-AMB-03")
@rule("FB-CAV-03")
def test_large_base_moves_rigidly_over_its_own_squares() -> None:
    state = make_state(units=[{"id": "k", "cls": "knight", "at": (2, 2)},
                              {"id": "f", "at": (5, 2)}])
    battle = make_battle(state)
    knight = state.units["k"]
    plans = movement.destinations(state, knight, 8)
    assert plans[(3, 2)] == MovePlan((3, 2), 1, ((3, 2),), None)
    assert (4, 2) not in plans and (4, 1) not in plans  # would overlap the friend at (5,2)
    movement.apply_move(state, battle, knight, plans[(3, 2)])
    assert sorted(sq for sq, uid in state.occupied.items() if uid == "k") == [
        (3, 2), (3, 3), (4, 2), (4, 3)]


# --------------------------------------------------------------------------- charges


@rule("FB-PIKE-07")
@rule("FB-PIKE-08")
@rule("FB-PIKE-09")
def test_charge_runs_are_straight_and_at_least_two_squares() -> None:
    """charge_destinations gives the move that comes before the charge attack: straight runs
    of 2+ steps in the 8 directions (on a 9x9 map from (4,4), at most 4 steps)."""
    state = make_state(9, 9, units=[{"id": "p", "cls": "pike", "at": (4, 4)}])
    plans = movement.charge_destinations(state, state.units["p"], 6)
    expected = {(4 + dx * n, 4 + dy * n): n for dx, dy in DIRECTIONS8 for n in range(2, 5)}
    assert costs(plans) == expected
    for dest, plan in plans.items():
        dx = (dest[0] - 4) // plan.cost
        dy = (dest[1] - 4) // plan.cost
        assert plan.path == tuple((4 + dx * k, 4 + dy * k) for k in range(1, plan.cost + 1))
        assert plan.vaulted is None


@rule("FB-PIKE-10")
@rule("FB-AMB-25")
@rule("FB-TERRAIN-12")
@pytest.mark.parametrize(("second", "expected"), [
    ("clear", {(2, 0): 2, (3, 0): 3, (4, 0): 4, (5, 0): 5, (6, 0): 6}),
    ("concealing", {(2, 0): 2, (3, 0): 3, (4, 0): 4, (5, 0): 5, (6, 0): 6}),
    ("hindering", {}),
    ("shallow_water", {}),
    ("slope", {}),
])
def test_charge_only_over_clear_terrain(second: str, expected: dict[Square, int]) -> None:
    state = make_state(7, 1, units=[{"id": "p", "cls": "pike", "at": (0, 0)}],
                       terrain={(2, 0): second})
    assert charge(state, "p", 6) == expected


@rule("FB-PIKE-10")
@rule("FB-AMB-25")
def test_charge_along_an_elevated_top() -> None:
    state = make_state(5, 1, units=[{"id": "p", "cls": "pike", "at": (0, 0)}],
                       terrain={(x, 0): "elevated" for x in range(5)})
    assert charge(state, "p", 6) == {(2, 0): 2, (3, 0): 3, (4, 0): 4}


@rule("FB-AMB-25")
@rule("FB-PIKE-08")
def test_doubled_cost_counts_against_a_charge_but_does_not_break_it() -> None:
    state = niche_map(8, 0, id="e", side="B")
    add_unit(state, id="p", cls="pike", at=(0, 0))
    assert charge(state, "p", 6) == {(2, 0): 4, (3, 0): 5, (4, 0): 6}


@rule("FB-AMB-25")
@rule("FB-PIKE-05")
def test_charge_stops_at_a_front_arc() -> None:
    state = arc_corridor("A", (0, 0), cls="pike")
    assert charge(state, "u", 6) == {(2, 0): 2}


@rule("FB-AMB-25")
@rule("FB-CAV-03")
def test_lancer_charge_needs_every_square_of_the_space_clear() -> None:
    state = make_state(8, 2, units=[{"id": "l", "cls": "lancer", "at": (0, 0)}],
                       terrain={(4, 1): "hindering"})
    # Anchor (3,0) would cover (4,1): the run east stops at (2,0).
    assert charge(state, "l", 8) == {(2, 0): 2}


# --------------------------------------------------------------------------- Mobility


@rule("FB-FEAT-07")
@rule("FB-AMB-39")
def test_mobility_splits_one_allowance() -> None:
    """Move 2 of 6, attack, then the rest of the move is searched with the 4 left."""
    state = make_state(20, 20, units=[{"id": "c", "rank": "champion", "at": (5, 5),
                                           "feats": ["mobility"]}])
    battle = make_battle(state)
    champ = state.units["c"]
    full = movement.allowance(champ, False, False)
    first = movement.destinations(state, champ, full)[(7, 5)]
    assert first.cost == 2
    movement.apply_move(state, battle, champ, first)
    rest = movement.destinations(state, champ, full - first.cost)
    assert costs(rest) == chebyshev_ball((7, 5), 4, 20, 20)


# --------------------------------------------------------------------------- Vault


@rule("FB-FEAT-10")
@rule("FB-AMB-41")
def test_vault_over_one_pit_square() -> None:
    state = make_state(7, 1, terrain={(2, 0): "deep_water"},
                       units=[{"id": "c", "rank": "champion", "at": (0, 0), "feats": ["vault"]}])
    assert reach(state, "c", 6) == {(0, 0): 0, (1, 0): 1}
    plans = movement.destinations(state, state.units["c"], 6, vault=True)
    assert costs(plans) == {(0, 0): 0, (1, 0): 1, (3, 0): 3, (4, 0): 4, (5, 0): 5, (6, 0): 6}
    assert plans[(1, 0)].vaulted is None
    assert all(plans[(x, 0)].vaulted == (2, 0) for x in range(3, 7))
    assert plans[(4, 0)].path == ((1, 0), (2, 0), (3, 0), (4, 0))


@rule("FB-FEAT-10")
@rule("FB-AMB-41")
@pytest.mark.parametrize(("terrain", "units"), [
    ({(2, 0): "deep_water", (3, 0): "deep_water"}, []),
    ({(2, 0): "blocking"}, []),
    ({(2, 0): "cliff"}, []),
    ({(2, 0): "deep_water"}, [{"id": "f", "at": (4, 0)}]),
])
def test_vault_crosses_exactly_one_square_and_never_blocking(
    terrain: dict[Square, str], units: list[dict[str, Any]]
) -> None:
    state = make_state(7, 1, units=[{"id": "c", "rank": "champion", "at": (0, 0)}, *units],
                       terrain=terrain)
    assert set(reach(state, "c", 8, vault=True)) <= {(0, 0), (1, 0), (3, 0)}
    assert (1, 0) in reach(state, "c", 8, vault=True)


@rule("FB-FEAT-10")
@rule("FB-AMB-41")
@rule("FB-MOVE-06")
def test_vault_through_a_unit_keeps_doubling() -> None:
    """Vaulting an enemy: leaving (1,0) (adjacent) and leaving its square are both doubled
    (a space overlapping an enemy counts as in contact); (3,0) still touches it."""
    friend = make_state(7, 1, units=[{"id": "c", "rank": "champion", "at": (0, 0)},
                                     {"id": "f", "at": (2, 0)}])
    assert reach(friend, "c", 6, vault=True) == {(0, 0): 0, (1, 0): 1, (3, 0): 3, (4, 0): 4,
                                                 (5, 0): 5, (6, 0): 6}
    foe = make_state(7, 1, units=[{"id": "c", "rank": "champion", "at": (0, 0)},
                                  {"id": "e", "side": "B", "at": (2, 0)}])
    assert reach(foe, "c", 6, vault=True) == {(0, 0): 0, (1, 0): 1, (3, 0): 5}


@rule("FB-AMB-41")
@rule("FB-AMB-24")
def test_vault_does_not_escape_arc_stops() -> None:
    """Pit at (2,0); a Pike in a niche at (4,1) facing south covers (3,0)-(5,0)."""
    state = niche_map(8, 4, id="p", side="B", cls="pike", facing="south")
    state.grid.set_terrain((2, 0), "deep_water")
    add_unit(state, id="c", rank="champion", at=(0, 0))
    assert reach(state, "c", 8, vault=True) == {(0, 0): 0, (1, 0): 1, (3, 0): 3}


@rule("FB-AMB-41")
@rule("FB-AMB-03")
def test_large_champion_keeps_the_vaulted_square_inside_its_space() -> None:
    """A 2x2 Champion passes a friend at (3,0) over two consecutive steps (anchors (2,0) and
    (3,0) both hold it) and may not end on either."""
    state = make_state(8, 2, units=[{"id": "k", "cls": "knight", "rank": "champion", "at": (0, 0)},
                                    {"id": "f", "at": (3, 0)}])
    assert reach(state, "k", 8) == {(0, 0): 0, (1, 0): 1}
    plans = movement.destinations(state, state.units["k"], 8, vault=True)
    assert costs(plans) == {(0, 0): 0, (1, 0): 1, (4, 0): 4, (5, 0): 5, (6, 0): 6}
    assert plans[(4, 0)].vaulted == (3, 0)
    assert plans[(4, 0)].path == ((1, 0), (2, 0), (3, 0), (4, 0))


@rule("FB-AMB-41")
def test_large_champion_cannot_vault_two_squares_at_once() -> None:
    state = make_state(8, 2, units=[{"id": "k", "cls": "knight", "rank": "champion", "at": (0, 0)},
                                    {"id": "f", "at": (3, 0)}, {"id": "g", "at": (3, 1)}])
    assert reach(state, "k", 8, vault=True) == {(0, 0): 0, (1, 0): 1}


@rule("FB-FEAT-10")
def test_vault_is_not_used_when_a_walk_round_costs_the_same() -> None:
    state = make_state(7, 7, units=[{"id": "c", "rank": "champion", "at": (1, 3)},
                                    {"id": "f", "at": (3, 3)}])
    plans = movement.destinations(state, state.units["c"], 6, vault=True)
    assert plans[(5, 3)].cost == 4
    assert plans[(5, 3)].vaulted is None
    assert all(p.vaulted is None for p in plans.values())


@rule("FB-FEAT-10")
@rule("FB-AMB-41")
def test_apply_move_logs_the_vaulted_square() -> None:
    state = make_state(7, 1, units=[{"id": "c", "rank": "champion", "at": (0, 0)}],
                       terrain={(2, 0): "deep_water"})
    battle = make_battle(state)
    champ = state.units["c"]
    movement.apply_move(state, battle, champ,
                        movement.destinations(state, champ, 6, vault=True)[(3, 0)])
    assert champ.anchor == (3, 0)
    [move] = events(battle, "move")
    assert move["vaulted"] == [2, 0] and move["cost"] == 3
    assert not events(battle, "forced_move")


# --------------------------------------------------------------------------- determinism


def test_results_are_deterministic() -> None:
    terrain = {(4, y): "hindering" for y in range(2, 8)}
    units = [{"id": "u", "at": (2, 5)}, {"id": "e", "side": "B", "at": (6, 5)},
             enemy_pike((7, 2), "west")]
    a = make_state(10, 10, units=units, terrain=terrain)
    b = make_state(10, 10, units=list(reversed(units)), terrain=terrain)
    for vault in (False, True):
        pa = movement.destinations(a, a.units["u"], 8, vault=vault)
        pb = movement.destinations(b, b.units["u"], 8, vault=vault)
        assert pa == pb and list(pa) == list(pb)


# --------------------------------------------------------------------------- reference model


class Reference:
    """The movement rules written out slowly and directly from the catalog."""

    def __init__(self, state: FBState, unit: Unit) -> None:
        self.state = state
        self.unit = unit
        self.size = unit.size
        self.enemies = state.enemies(unit.side)

    def kind(self, sq: Square) -> Any:
        return TERRAIN[self.state.grid.terrain(sq)]

    def cls(self, sq: Square) -> str:
        if self.state.grid.terrain(sq) == "slope":
            return "S"
        return "E" if self.state.grid.level(sq) >= 1 else "G"

    def engaged(self, anchor: Square) -> bool:
        if self.unit.is_cavalry:
            return False
        space = footprint(anchor, self.size)
        return any(space_distance(space, self.state.squares_of(e)) <= 1
                   and self.state.square_level(anchor) == self.state.level_of(e)
                   for e in self.enemies)

    def halts(self, anchor: Square) -> bool:
        space = footprint(anchor, self.size)
        return any(self.state.level_of(e) == self.state.square_level(anchor)
                   and self.state.in_front_arc(e, space) for e in self.enemies)

    def obstacles(self, space: tuple[Square, ...]) -> set[Square]:
        return {q for q in space if self.kind(q).vaultable
                or self.state.occupied.get(q, self.unit.id) != self.unit.id}

    def step(self, a: Square, d: Square, v: Any) -> tuple[Square, int, Any] | None:
        grid = self.state.grid
        b = (a[0] + d[0], a[1] + d[1])
        old, new = footprint(a, self.size), footprint(b, self.size)
        if not all(grid.contains(q) for q in new):
            return None
        if any(self.kind(q).move_cost is None and not self.kind(q).vaultable for q in new):
            return None
        if {"E", "G"} <= {self.cls(q) for q in new}:
            return None
        for q in old:
            if {self.cls(q), self.cls((q[0] + d[0], q[1] + d[1]))} == {"E", "G"}:
                return None
        if self.state.options.corner_cutting == "blocked_by_terrain" and d[0] and d[1]:
            both = set(old) | set(new)
            xs = [q[0] for q in both]
            ys = [q[1] for q in both]
            box = {(x, y) for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1)}
            squeezed = box - both
            assert len(squeezed) == 2
            if all(self.kind(q).move_cost is None for q in squeezed):
                return None
        obstacles = self.obstacles(new)
        if obstacles:
            if len(obstacles) > 1:
                return None
            q = obstacles.pop()
            if v == "avail":
                nv: Any = ("pass", q)
            elif v == ("pass", q):
                nv = v
            else:
                return None
        else:
            nv = "avail" if v == "avail" else "used"
        cost = 2 if any(self.kind(q).move_cost == 2 for q in new) else 1
        if self.engaged(a):
            cost *= 2
        return b, cost, nv

    def can_end(self, anchor: Square, halted: bool) -> bool:
        space = footprint(anchor, self.size)
        if self.obstacles(space):
            return False
        if all(self.kind(q).can_end for q in space) and len(
                {self.state.square_level(q) for q in space}) == 1:
            return True
        return halted and any(self.cls(q) == "S" for q in space)

    def destinations(self, budget: int, vault: bool) -> dict[Square, int]:
        start = self.unit.anchor
        assert start is not None
        v0 = "avail" if vault else "used"
        best: dict[Any, int] = {(start, v0): 0}
        heap: list[Any] = [(0, 0, start, v0)]
        counter = itertools.count(1)
        done = set()
        out: dict[Square, int] = {}
        while heap:
            c, _, a, v = heapq.heappop(heap)
            if (a, v) in done:
                continue
            done.add((a, v))
            halted = (a, v) != (start, v0) and self.halts(a)
            # The start square is only ever offered as staying put (cost 0).
            if not isinstance(v, tuple) and (a != start or c == 0) and self.can_end(a, halted):
                out.setdefault(a, c)
            if halted:
                continue
            for d in DIRECTIONS8:
                got = self.step(a, d, v)
                if got is None:
                    continue
                b, step, nv = got
                if c + step > budget or best.get((b, nv), budget + 1) <= c + step:
                    continue
                best[(b, nv)] = c + step
                heapq.heappush(heap, (c + step, next(counter), b, nv))
        return out

    def charges(self, budget: int) -> dict[Square, int]:
        start = self.unit.anchor
        assert start is not None
        out: dict[Square, int] = {}
        for d in DIRECTIONS8:
            a, spent, n = start, 0, 0
            while True:
                got = self.step(a, d, "used")
                if got is None:
                    break
                b, step, _ = got
                if not all(self.kind(q).charge_clear for q in footprint(b, self.size)):
                    break
                spent += step
                if spent > budget:
                    break
                n += 1
                if n >= 2 and self.can_end(b, False):
                    out[b] = spent
                if self.halts(b):
                    break
                a = b
        return out

    def check_plan(self, plan: MovePlan, vault: bool) -> None:
        """Replay a plan step by step: contiguous legal steps, exact cost, correct Vault."""
        a = self.unit.anchor
        assert a is not None
        v: Any = "avail" if vault else "used"
        total = 0
        vaulted = None
        for k, b in enumerate(plan.path):
            assert k == 0 or not self.halts(a), "moved on after a front-arc stop"
            d = (b[0] - a[0], b[1] - a[1])
            assert d in DIRECTIONS8
            got = self.step(a, d, v)
            assert got is not None, f"illegal step {a} -> {b}"
            _, step, v = got
            if isinstance(v, tuple) and vaulted is None:
                vaulted = v[1]
            total += step
            a = b
        assert a == plan.dest
        assert total == plan.cost
        assert not isinstance(v, tuple)
        assert plan.vaulted == vaulted


TERRAIN_CHOICES = ["clear"] * 8 + ["hindering", "blocking", "concealing", "shallow_water",
                                   "deep_water", "slope", "elevated", "elevated", "cliff"]


@st.composite
def scenarios(draw: Any) -> tuple[FBState, str, int, bool]:
    w = draw(st.integers(5, 8))
    h = draw(st.integers(5, 8))
    terrain = {(x, y): draw(st.sampled_from(TERRAIN_CHOICES)) for x in range(w) for y in range(h)}
    options = {
        "corner_cutting": draw(st.sampled_from(["blocked_by_terrain", "always"])),
        "cavalry_footprint": draw(st.sampled_from(["2x2", "2x2", "1x1"])),
    }
    state = make_state(w, h, terrain=terrain, **options)
    mover_cls = draw(st.sampled_from(["warrior", "pike", "knight"]))
    specs = [{"id": "mover", "side": "A", "cls": mover_cls}]
    for k in range(draw(st.integers(0, 6))):
        specs.append({"id": f"o{k}", "side": draw(st.sampled_from(["A", "B"])),
                          "cls": draw(st.sampled_from(["warrior", "pike", "pike", "knight"])),
                          "facing": draw(st.sampled_from(["north", "south", "east", "west"]))})
    for spec in specs:
        x = draw(st.integers(0, w - 1))
        y = draw(st.integers(0, h - 1))
        unit = add_unit(state, **spec, at=None)
        space = footprint((x, y), unit.size)
        if all(state.grid.contains(q) and q not in state.occupied
               and TERRAIN[state.grid.terrain(q)].move_cost is not None for q in space):
            state.place(unit, (x, y))
    if not state.units["mover"].on_map:
        state.grid.set_terrain((0, 0), "clear")
        for q in footprint((0, 0), state.units["mover"].size):
            state.grid.set_terrain(q, "clear")
            holder = state.occupied.get(q)
            if holder is not None:
                state.place(state.units[holder], None)
        state.place(state.units["mover"], (0, 0))
    return state, "mover", draw(st.integers(0, 10)), draw(st.booleans())


@rule("FB-MOVE-03")
@rule("FB-MOVE-04")
@rule("FB-MOVE-05")
@rule("FB-MOVE-06")
@rule("FB-AMB-03")
@rule("FB-AMB-16")
@rule("FB-AMB-17")
@rule("FB-AMB-24")
@rule("FB-AMB-41")
@rule("FB-AMB-46")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_destinations_match_the_reference_and_plans_replay(
    scenario: tuple[FBState, str, int, bool],
) -> None:
    """Property: the same end anchors and costs as the slow reference; every plan is a chain
    of legal steps adding up to its cost, within the budget, with the right Vault square;
    every charge is a straight run the reference also finds, at the same cost."""
    state, uid, budget, vault = scenario
    unit = state.units[uid]
    ref = Reference(state, unit)
    plans = movement.destinations(state, unit, budget, vault=vault)
    assert costs(plans) == ref.destinations(budget, vault)
    for plan in plans.values():
        assert 0 <= plan.cost <= budget
        ref.check_plan(plan, vault)
    runs = movement.charge_destinations(state, unit, budget)
    assert costs(runs) == ref.charges(budget)
    for plan in runs.values():
        assert len(plan.path) >= 2 and plan.vaulted is None
        ref.check_plan(plan, False)
        assert plan.dest in plans and plans[plan.dest].cost <= plan.cost


@rule("FB-MOVE-05")
def test_terrain_changes_and_state_copies_are_seen() -> None:
    """Lookup tables are cached per grid; a later terrain change must still count, and a
    copied state gives the same answers."""
    state = make_state(5, 1, units=[{"id": "u", "at": (0, 0)}])
    assert reach(state, "u", 4) == {(x, 0): x for x in range(5)}
    state.grid.set_terrain((2, 0), "blocking")
    assert reach(state, "u", 4) == {(0, 0): 0, (1, 0): 1}
    twin = state.copy()
    assert reach(twin, "u", 4) == {(0, 0): 0, (1, 0): 1}
    twin.grid.set_terrain((2, 0), "clear")
    assert reach(twin, "u", 4) == {(x, 0): x for x in range(5)}
    assert reach(state, "u", 4) == {(0, 0): 0, (1, 0): 1}
