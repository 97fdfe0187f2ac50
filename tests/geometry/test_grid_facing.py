"""Tests for facings, arcs, elevation and climbing limits in the square-grid geometry."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warhost.core.metering import GEOMETRY, metered
from warhost.geometry.grid import (
    DIRECTIONS8,
    FACINGS,
    Grid,
    Square,
    arc_of,
    arc_squares,
    chebyshev3,
    edge_drops,
    elevation_step_cost,
    facing_arc,
    facing_name,
    facing_step,
    facing_toward,
    height_step_ok,
    reachable,
    ring_arc,
)

facing_names = st.sampled_from(list(FACINGS))
steps = st.sampled_from(DIRECTIONS8)
coords = st.integers(-30, 30)
squares = st.tuples(coords, coords)


def grid_with_levels(rows: list[list[int]]) -> Grid:
    """A grid whose levels are given row by row, top row (highest y) first."""
    height = len(rows)
    grid = Grid(len(rows[0]), height)
    for r, row in enumerate(rows):
        for x, lvl in enumerate(row):
            if lvl:
                grid.set_terrain((x, height - 1 - r), "hill", lvl)
    return grid


def ref_facing(a: Square, b: Square) -> str:
    """Float reference: the facing whose compass bearing is nearest the bearing of a -> b."""
    bearing = math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360
    sector = int(((bearing + 22.5) % 360) // 45)
    return list(FACINGS)[sector]


# --------------------------------------------------------------------------- facings


@pytest.mark.rule("WB-TURN-03")
def test_eight_facings_clockwise_from_north() -> None:
    assert list(FACINGS) == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert tuple(FACINGS.values()) == DIRECTIONS8
    assert FACINGS["N"] == (0, 1)
    assert FACINGS["E"] == (1, 0)
    assert FACINGS["SW"] == (-1, -1)
    assert FACINGS["NW"] == (-1, 1)


@pytest.mark.rule("WB-TURN-03")
def test_facing_step_and_name_round_trip() -> None:
    for name, step in FACINGS.items():
        assert facing_step(name) == step
        assert facing_name(step) == name
    with pytest.raises(ValueError):
        facing_step("north")
    with pytest.raises(ValueError):
        facing_step("n")
    with pytest.raises(ValueError):
        facing_name((0, 0))
    with pytest.raises(ValueError):
        facing_name((2, 0))


@pytest.mark.rule("WB-TURN-03")
def test_facing_toward_examples() -> None:
    assert facing_toward((3, 3), (3, 9)) == "N"
    assert facing_toward((3, 3), (3, 0)) == "S"
    assert facing_toward((3, 3), (0, 3)) == "W"
    assert facing_toward((3, 3), (5, 5)) == "NE"
    assert facing_toward((3, 3), (1, 1)) == "SW"
    # Bearing atan(2/5) = 21.8 degrees is still nearer east; atan(3/5) = 31.0 is nearer NE.
    assert facing_toward((0, 0), (5, 2)) == "E"
    assert facing_toward((0, 0), (5, 3)) == "NE"
    # Close to the 22.5-degree boundary on both sides: 12/29 = tan 22.48, 29/70 = tan 22.50+.
    assert facing_toward((0, 0), (29, 12)) == "E"
    assert facing_toward((0, 0), (70, 29)) == "NE"
    assert facing_toward((0, 0), (-12, -29)) == "S"
    assert facing_toward((0, 0), (-29, -70)) == "SW"
    with pytest.raises(ValueError):
        facing_toward((1, 1), (1, 1))


@pytest.mark.rule("WB-TURN-03")
@given(squares, steps)
def test_facing_toward_an_adjacent_square_is_that_step(a: Square, step: Square) -> None:
    b = (a[0] + step[0], a[1] + step[1])
    assert facing_step(facing_toward(a, b)) == step


@pytest.mark.rule("WB-TURN-03")
@given(squares, squares)
def test_facing_toward_matches_the_nearest_bearing(a: Square, b: Square) -> None:
    if a == b:
        return
    assert facing_toward(a, b) == ref_facing(a, b)


@given(squares, squares, st.integers(1, 5))
def test_facing_toward_depends_only_on_direction(a: Square, b: Square, k: int) -> None:
    if a == b:
        return
    far = (a[0] + k * (b[0] - a[0]), a[1] + k * (b[1] - a[1]))
    assert facing_toward(a, far) == facing_toward(a, b)


# --------------------------------------------------------------------------- arcs


@pytest.mark.rule("WB-CIRC-15")
def test_ring_arc_facing_north() -> None:
    assert ring_arc("N", (0, 1)) == "front"
    assert ring_arc("N", (1, 1)) == "front"
    assert ring_arc("N", (-1, 1)) == "front"
    assert ring_arc("N", (1, 0)) == "flank"
    assert ring_arc("N", (-1, 0)) == "flank"
    assert ring_arc("N", (0, -1)) == "rear"
    assert ring_arc("N", (1, -1)) == "rear"
    assert ring_arc("N", (-1, -1)) == "rear"


@pytest.mark.rule("WB-CIRC-15")
def test_ring_arc_facing_diagonal() -> None:
    # Facing NE: the rear is SW and its ring neighbours S and W.
    rear = {step for step in DIRECTIONS8 if ring_arc("NE", step) == "rear"}
    assert rear == {(-1, -1), (0, -1), (-1, 0)}
    flank = {step for step in DIRECTIONS8 if ring_arc("NE", step) == "flank"}
    assert flank == {(-1, 1), (1, -1)}
    # A facing given as a step works the same as its name.
    assert ring_arc((1, 1), (0, -1)) == "rear"
    with pytest.raises(ValueError):
        ring_arc("N", (0, 0))
    with pytest.raises(ValueError):
        ring_arc("N", (0, 2))
    with pytest.raises(ValueError):
        ring_arc("UP", (0, 1))
    with pytest.raises(ValueError):
        ring_arc((2, 2), (0, 1))


@pytest.mark.rule("WB-CIRC-15")
@given(facing_names)
def test_arcs_partition_the_ring(facing: str) -> None:
    arcs = [ring_arc(facing, step) for step in DIRECTIONS8]
    assert arcs.count("front") == 3
    assert arcs.count("flank") == 2
    assert arcs.count("rear") == 3
    step = facing_step(facing)
    opposite = (-step[0], -step[1])
    assert ring_arc(facing, step) == "front"
    assert ring_arc(facing, opposite) == "rear"
    # The rear is exactly the opposite square and its two neighbours in the ring.
    i = DIRECTIONS8.index(opposite)
    assert {s for s in DIRECTIONS8 if ring_arc(facing, s) == "rear"} == {
        DIRECTIONS8[(i - 1) % 8],
        opposite,
        DIRECTIONS8[(i + 1) % 8],
    }
    # The front agrees with the existing three-square facing arc.
    origin = (4, 4)
    front = {
        (origin[0] + s[0], origin[1] + s[1]) for s in DIRECTIONS8 if ring_arc(facing, s) == "front"
    }
    assert front == set(facing_arc(origin, step))


@pytest.mark.rule("WB-CIRC-15")
def test_arc_squares() -> None:
    assert arc_squares((5, 5), "E", "rear") == ((4, 4), (4, 5), (4, 6))
    assert arc_squares((5, 5), "E", "flank") == ((5, 6), (5, 4))
    assert arc_squares((5, 5), "E", "front") == ((6, 6), (6, 5), (6, 4))
    assert arc_squares((0, 0), "S", "rear") == ((0, 1), (1, 1), (-1, 1))
    with pytest.raises(ValueError):
        arc_squares((0, 0), "S", "back")


@pytest.mark.rule("WB-CIRC-15")
def test_arc_of_distant_squares() -> None:
    me = (10, 10)
    # Facing north: directly behind, and behind at a shallow angle, are rear.
    assert arc_of(me, "N", (10, 4)) == "rear"
    assert arc_of(me, "N", (13, 4)) == "rear"  # bearing 153 degrees: the SE sector
    assert arc_of(me, "N", (16, 8)) == "flank"  # bearing 108 degrees: the E sector
    assert arc_of(me, "N", (15, 15)) == "front"
    assert arc_of(me, "N", (17, 12)) == "flank"  # bearing 74 degrees: still the E sector
    assert arc_of(me, "N", (16, 13)) == "front"  # bearing 63 degrees: the NE sector
    assert arc_of(me, "SW", (12, 12)) == "rear"
    assert arc_of(me, (-1, -1), (12, 12)) == "rear"
    with pytest.raises(ValueError):
        arc_of(me, "N", me)


@pytest.mark.rule("WB-CIRC-15")
@given(squares, facing_names, steps)
def test_arc_of_an_adjacent_square_is_its_ring_arc(sq: Square, facing: str, step: Square) -> None:
    other = (sq[0] + step[0], sq[1] + step[1])
    assert arc_of(sq, facing, other) == ring_arc(facing, step)


@given(squares, facing_names, squares)
def test_arc_of_agrees_with_facing_toward(sq: Square, facing: str, other: Square) -> None:
    if other == sq:
        return
    assert arc_of(sq, facing, other) == ring_arc(facing, facing_step(facing_toward(sq, other)))


# --------------------------------------------------------------------------- elevation


@pytest.mark.rule("WB-TURN-06")
def test_height_step_ok() -> None:
    g = grid_with_levels([[0, 1, 3, -1]])
    assert height_step_ok(g, (0, 0), (1, 0), 1)
    assert height_step_ok(g, (1, 0), (0, 0), 1)
    assert not height_step_ok(g, (1, 0), (2, 0), 1)
    assert height_step_ok(g, (1, 0), (2, 0), 2)
    assert not height_step_ok(g, (2, 0), (1, 0), 1)  # down as well as up
    assert height_step_ok(g, (0, 0), (3, 0), 1)
    assert not height_step_ok(g, (1, 0), (3, 0), 1)
    assert height_step_ok(g, (2, 0), (2, 0), 0)


@pytest.mark.rule("WB-TURN-05", "WB-TURN-06")
def test_chebyshev3() -> None:
    g = grid_with_levels([[0, 0, 0, 0, 0, 6]])
    # Horizontal jump across a gap: the level change does not add to it.
    assert chebyshev3((0, 0), (3, 0), g) == 3
    # A vertical jump counts the height change when it is the larger distance.
    assert chebyshev3((4, 0), (5, 0), g) == 6
    assert chebyshev3((5, 0), (0, 0), g) == 6
    assert chebyshev3((5, 0), (5, 0), g) == 0
    g.set_terrain((1, 0), "ledge", 2)
    assert chebyshev3((0, 0), (1, 0), g) == 2
    assert chebyshev3((1, 0), (4, 0), g) == 3


@pytest.mark.rule("WB-TURN-06")
def test_edge_drops() -> None:
    g = grid_with_levels(
        [
            [0, 2, 5],
            [1, 3, 3],
            [0, 1, 2],
        ]
    )
    centre = (1, 1)
    everywhere: Callable[[Square], bool] = lambda _: True
    # Levels 0, 0, 1, 1 are 2+ below the centre's 3; lowest first, then by square.
    assert edge_drops(g, centre, everywhere) == [(0, 0), (0, 2), (0, 1), (1, 0)]
    assert edge_drops(g, centre, lambda sq: sq != (0, 2)) == [(0, 0), (0, 1), (1, 0)]
    assert edge_drops(g, centre, lambda _: False) == []
    # A drop of 1 is not an edge; corners of the board have fewer neighbours.
    assert edge_drops(g, (1, 0), everywhere) == []
    assert edge_drops(g, (2, 2), everywhere) == [(1, 2), (1, 1), (2, 1)]  # from level 5
    with metered() as meter:
        edge_drops(g, centre, everywhere)
    assert meter[GEOMETRY] == 8


# --------------------------------------------------------------------------- movement


def flat_cost(blocked: frozenset[Square] = frozenset()) -> Callable[[Square, Square], int | None]:
    """The caller's own step rule: every step costs 1 except into a blocked (enemy) square."""

    def step(_: Square, b: Square) -> int | None:
        return None if b in blocked else 1

    return step


@pytest.mark.rule("WB-TURN-06")
def test_reachable_with_a_climbing_limit() -> None:
    g = grid_with_levels(
        [
            [0, 1, 0],
            [0, 2, 0],
        ]
    )
    start = (0, 0)
    # Level 2 at (1, 0) cannot be stepped onto from level 0, but it can from (1, 1) at level 1.
    moves = reachable(start, 2, elevation_step_cost(g, 1, flat_cost()))
    assert moves[(1, 1)] == (1, ((1, 1),))
    assert moves[(1, 0)] == (2, ((1, 1), (1, 0)))
    assert moves[(2, 0)] == (2, ((1, 1), (2, 0)))
    assert (3, 0) not in moves  # off the grid
    assert set(moves) == set(g.squares())
    # A bigger step limit lets the direct climb through.
    moves = reachable(start, 2, elevation_step_cost(g, 2, flat_cost()))
    assert moves[(1, 0)] == (1, ((1, 0),))
    assert moves[(2, 0)] == (2, ((1, 0), (2, 0)))
    # The caller's rule still applies: with (1, 1) held by an enemy there is no way across.
    moves = reachable(start, 5, elevation_step_cost(g, 1, flat_cost(frozenset({(1, 1)}))))
    assert set(moves) == {(0, 0), (0, 1)}


def test_elevation_step_cost_only_asks_the_caller_about_legal_steps() -> None:
    g = grid_with_levels([[0, 3]])
    asked: list[tuple[Square, Square]] = []

    def step(a: Square, b: Square) -> int | None:
        asked.append((a, b))
        return 4

    cost = elevation_step_cost(g, 1, step)
    assert cost((0, 0), (1, 0)) is None
    assert cost((0, 0), (-1, 0)) is None
    assert cost((0, 0), (0, 1)) is None
    assert asked == []
    assert cost((1, 0), (1, 0)) == 4
    assert asked == [((1, 0), (1, 0))]


@pytest.mark.rule("WB-TURN-06")
@given(st.lists(st.integers(0, 3), min_size=16, max_size=16), st.integers(0, 2))
def test_reachable_paths_never_climb_too_steeply(levels: list[int], max_step: int) -> None:
    g = Grid(4, 4)
    for i, lvl in enumerate(levels):
        g.set_terrain((i % 4, i // 4), "ground", lvl)
    moves = reachable((0, 0), 6, elevation_step_cost(g, max_step, flat_cost()))
    for cost, path in moves.values():
        assert cost == len(path)
        prev = (0, 0)
        for sq in path:
            assert g.contains(sq)
            assert abs(g.level(sq) - g.level(prev)) <= max_step
            prev = sq
