"""Tests for the square-grid geometry module."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warhost.geometry.grid import (
    DIRECTIONS4,
    DIRECTIONS8,
    Grid,
    Square,
    centre2,
    chebyshev,
    facing_arc,
    fire_lines,
    footprint,
    in_bounds,
    line_squares,
    reachable,
    segment_touches_square,
    space_distance,
    spaces_touch,
    squares_touched,
    straight_runs,
    strictly_between,
)

# --------------------------------------------------------------------------- reference helpers


def ref_touches(p: Square, q: Square, sq: Square) -> bool:
    """Brute-force reference: test every piece of the segment between its crossing points."""
    if p == q:
        return False
    x0, y0 = sq
    dx, dy = q[0] - p[0], q[1] - p[1]
    ts = {Fraction(0), Fraction(1)}
    if dx:
        ts |= {Fraction(v - p[0], dx) for v in (x0, x0 + 1)}
    if dy:
        ts |= {Fraction(v - p[1], dy) for v in (y0, y0 + 1)}
    inner = sorted(t for t in ts if 0 <= t <= 1)
    probes = [t for t in inner if 0 < t < 1]
    probes += [(a + b) / 2 for a, b in pairwise(inner)]
    for t in probes:
        x = p[0] + t * dx
        y = p[1] + t * dy
        if x0 <= x <= x0 + 1 and y0 <= y <= y0 + 1:
            return True
    return False


def ref_squares_touched(p: Square, q: Square) -> list[Square]:
    lo_x, hi_x = min(p[0], q[0]), max(p[0], q[0])
    lo_y, hi_y = min(p[1], q[1]), max(p[1], q[1])
    return [
        (x, y)
        for x in range(lo_x - 2, hi_x + 2)
        for y in range(lo_y - 2, hi_y + 2)
        if ref_touches(p, q, (x, y))
    ]


def ref_distance(a: tuple[Square, ...], b: tuple[Square, ...]) -> int:
    return min(chebyshev(s, t) for s in a for t in b)


def board_cost(
    width: int, height: int, costs: dict[Square, int | None]
) -> Callable[[Square, Square], int | None]:
    """Step cost = cost of entering the destination (default 1); off-board or None is illegal."""

    def step(_: Square, b: Square) -> int | None:
        if not in_bounds(b, width, height):
            return None
        return costs.get(b, 1)

    return step


# --------------------------------------------------------------------------- basics


def test_directions() -> None:
    assert DIRECTIONS4 == ((0, 1), (1, 0), (0, -1), (-1, 0))
    assert len(DIRECTIONS8) == 8
    assert set(DIRECTIONS8) == {
        (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
    }
    assert set(DIRECTIONS4) < set(DIRECTIONS8)


def test_footprint() -> None:
    assert footprint((3, 4), 1) == ((3, 4),)
    assert set(footprint((3, 4), 2)) == {(3, 4), (4, 4), (3, 5), (4, 5)}
    assert len(footprint((3, 4), 2)) == 4
    assert footprint((3, 4), 2) is footprint((3, 4), 2)
    with pytest.raises(ValueError):
        footprint((0, 0), 3)


def test_chebyshev_and_bounds() -> None:
    assert chebyshev((0, 0), (3, -5)) == 5
    assert chebyshev((2, 2), (3, 3)) == 1
    assert chebyshev((1, 1), (1, 1)) == 0
    assert in_bounds((0, 0), 4, 3)
    assert in_bounds((3, 2), 4, 3)
    assert not in_bounds((4, 2), 4, 3)
    assert not in_bounds((0, 3), 4, 3)
    assert not in_bounds((-1, 0), 4, 3)


def test_space_distance_with_2x2() -> None:
    big = footprint((0, 0), 2)
    assert space_distance(big, ((2, 2),)) == 1
    assert space_distance(((2, 2),), big) == 1
    assert space_distance(big, ((3, 1),)) == 2
    assert space_distance(big, ((1, 1),)) == 0
    assert space_distance(big, footprint((1, -1), 2)) == 0
    assert space_distance(big, footprint((2, 5), 2)) == 4
    assert space_distance(big, footprint((-2, -2), 2)) == 1
    assert space_distance(frozenset(big), frozenset(footprint((4, 0), 2))) == 3
    assert space_distance(((0, 0),), ((5, 2),)) == 5
    # Any listing order of the same block gives the same answer.
    for order in (big[::-1], [big[1], big[0], big[3], big[2]], [big[1], big[3], big[0], big[2]]):
        assert space_distance(order, ((2, 2),)) == 1
        assert space_distance(order, ((-2, 0),)) == 2
        assert centre2(order) == (2, 2)


def test_spaces_touch() -> None:
    big = footprint((0, 0), 2)
    assert spaces_touch(big, ((2, 2),))
    assert spaces_touch(big, ((-1, 1),))
    assert spaces_touch(big, footprint((2, -1), 2))
    assert not spaces_touch(big, ((1, 1),))  # overlap
    assert not spaces_touch(big, ((3, 0),))  # gap of one square
    assert spaces_touch(((4, 4),), ((5, 5),))


spaces = st.builds(
    footprint, st.tuples(st.integers(-6, 6), st.integers(-6, 6)), st.sampled_from([1, 2])
)


@given(spaces, spaces)
def test_space_distance_matches_brute_force_and_is_symmetric(
    a: tuple[Square, ...], b: tuple[Square, ...]
) -> None:
    d = space_distance(a, b)
    assert d == space_distance(b, a)
    assert d == ref_distance(a, b)
    assert spaces_touch(a, b) == (d == 1 and not set(a) & set(b))


# --------------------------------------------------------------------------- grid


def test_grid_defaults_and_terrain() -> None:
    g = Grid(6, 4)
    assert g.terrain((5, 3)) == "clear"
    assert g.level((0, 0)) == 0
    g.set_terrain((2, 1), "wood")
    g.set_terrain((3, 3), "hill", level=1)
    assert g.terrain((2, 1)) == "wood"
    assert g.level((2, 1)) == 0
    assert (g.terrain((3, 3)), g.level((3, 3))) == ("hill", 1)
    assert g.terrain((3, 2)) == "clear"
    with pytest.raises(ValueError):
        g.terrain((6, 0))
    with pytest.raises(ValueError):
        g.set_terrain((0, -1), "wood")
    with pytest.raises(ValueError):
        Grid(0, 3)


def test_grid_squares_and_neighbours() -> None:
    g = Grid(3, 2)
    assert list(g.squares()) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    assert g.neighbours((0, 0)) == [(0, 1), (1, 1), (1, 0)]
    assert g.neighbours((1, 0)) == [(1, 1), (2, 1), (2, 0), (0, 0), (0, 1)]
    big = Grid(5, 5)
    assert big.neighbours((2, 2)) == [(2 + dx, 2 + dy) for dx, dy in DIRECTIONS8]
    # The returned list is the caller's to change.
    big.neighbours((2, 2)).clear()
    assert len(big.neighbours((2, 2))) == 8


def test_grid_round_trip() -> None:
    g = Grid(5, 3)
    g.set_terrain((0, 0), "wood")
    g.set_terrain((4, 2), "hill", 2)
    g.set_terrain((1, 1), "clear", 1)
    data = g.to_dict()
    assert data == {
        "width": 5,
        "height": 3,
        "squares": [
            {"x": 0, "y": 0, "terrain": "wood", "level": 0},
            {"x": 1, "y": 1, "terrain": "clear", "level": 1},
            {"x": 4, "y": 2, "terrain": "hill", "level": 2},
        ],
    }
    back = Grid.from_dict(json.loads(json.dumps(data)))
    assert back == g
    assert back.level((4, 2)) == 2
    assert Grid.from_dict({"width": 2, "height": 2}) == Grid(2, 2)
    with pytest.raises(ValueError):
        Grid.from_dict({"width": 2})
    with pytest.raises(ValueError):
        Grid.from_dict({"width": 2, "height": 2, "squares": [{"x": 5, "y": 0}]})
    with pytest.raises(TypeError):
        Grid.from_dict({"width": 2, "height": 2, "squares": [{"x": 0, "y": 0, "level": "1"}]})


# --------------------------------------------------------------------------- segments


def test_segment_corner_graze_touches() -> None:
    # The diagonal (0,0)-(2,2) passes exactly through corner (1,1) of squares (1,0) and (0,1).
    assert segment_touches_square((0, 0), (2, 2), (1, 0))
    assert segment_touches_square((0, 0), (2, 2), (0, 1))
    # A shallower line crossing corner (2,1) grazes (2,0) and (1,1) there.
    assert segment_touches_square((0, 0), (4, 2), (2, 0))
    assert segment_touches_square((0, 0), (4, 2), (1, 1))
    assert squares_touched((0, 0), (2, 2)) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_segment_meeting_only_at_end_point_does_not_touch() -> None:
    # Starts at a corner of these squares and leaves them at once.
    assert not segment_touches_square((0, 0), (2, 2), (-1, -1))
    assert not segment_touches_square((0, 0), (2, 2), (0, -1))
    assert not segment_touches_square((0, 0), (2, 2), (-1, 0))
    # Ends on a corner of these squares.
    assert not segment_touches_square((0, 0), (2, 2), (2, 1))
    assert not segment_touches_square((0, 0), (2, 2), (2, 2))
    # A zero-length segment touches nothing.
    assert not segment_touches_square((1, 1), (1, 1), (0, 0))
    assert squares_touched((1, 1), (1, 1)) == []


def test_segment_along_edge_and_through_and_miss() -> None:
    assert segment_touches_square((3, 3), (7, 3), (4, 3))  # runs along its lower edge
    assert segment_touches_square((3, 3), (7, 3), (4, 2))  # along its upper edge
    assert not segment_touches_square((3, 2), (7, 2), (4, 3))
    assert segment_touches_square((0, 0), (3, 1), (1, 0))  # through the interior
    assert not segment_touches_square((0, 0), (3, 1), (1, 1))
    assert not segment_touches_square((0, 0), (3, 1), (4, 0))  # past the end
    # Starts on the edge of the square and runs along it: more than one point, so it touches.
    assert segment_touches_square((5, 3), (9, 3), (5, 3))


def test_squares_touched_horizontal() -> None:
    assert squares_touched((3, 2), (7, 2)) == [
        (3, 1), (3, 2), (4, 1), (4, 2), (5, 1), (5, 2), (6, 1), (6, 2),
    ]  # fmt: skip
    assert squares_touched((7, 2), (3, 2)) == squares_touched((3, 2), (7, 2))
    assert squares_touched((0, 0), (0, 2)) == [(-1, 0), (-1, 1), (0, 0), (0, 1)]


corners = st.tuples(st.integers(-5, 5), st.integers(-5, 5))


@settings(max_examples=300)
@given(corners, corners)
def test_squares_touched_matches_fraction_reference(p: Square, q: Square) -> None:
    got = squares_touched(p, q)
    assert got == ref_squares_touched(p, q)
    assert got == squares_touched(q, p)
    assert all(segment_touches_square(p, q, s) for s in got)


@settings(max_examples=300)
@given(corners, corners, corners)
def test_segment_touches_square_matches_reference(p: Square, q: Square, sq: Square) -> None:
    assert segment_touches_square(p, q, sq) == ref_touches(p, q, sq)


# --------------------------------------------------------------------------- lines of fire


def test_fire_lines_worked_example() -> None:
    assert fire_lines(((2, 2),), ((7, 2),)) == [((3, 2), (7, 2)), ((3, 3), (7, 3))]


def test_walls_against_worked_example() -> None:
    shooter, target = ((2, 2),), ((7, 2),)
    ignore = set(shooter) | set(target)
    lines = fire_lines(shooter, target)
    crossed = [line_squares(p, q, ignore) for p, q in lines]
    assert crossed[0] == [(3, 1), (3, 2), (4, 1), (4, 2), (5, 1), (5, 2), (6, 1), (6, 2)]
    assert crossed[1] == [(3, 2), (3, 3), (4, 2), (4, 3), (5, 2), (5, 3), (6, 2), (6, 3)]

    walls = {(4, 3)}
    assert [bool(walls & set(c)) for c in crossed] == [False, True]
    walls = {(4, 3), (5, 1)}
    assert [bool(walls & set(c)) for c in crossed] == [True, True]


def test_fire_lines_diagonal_and_large() -> None:
    # Target up and to the right: one nearest shooter corner, one nearest target corner.
    assert fire_lines(((0, 0),), ((3, 4),)) == [((1, 1), (3, 4))]
    # 2x2 shooter, single square above it whose centre (1.5, 5.5) is right of the middle.
    assert fire_lines(footprint((0, 0), 2), ((1, 5),)) == [((2, 2), (2, 5))]
    # 2x2 target straight above a 2x2 shooter: both top corners tie.
    assert fire_lines(footprint((0, 0), 2), footprint((0, 5), 2)) == [
        ((0, 2), (0, 5)),
        ((2, 2), (2, 5)),
    ]
    # 2x2 shooter and 2x2 target side by side: shooter corners (2,0),(2,2) face target corners.
    assert fire_lines(footprint((0, 0), 2), frozenset(footprint((5, 0), 2))) == [
        ((2, 0), (5, 0)),
        ((2, 2), (5, 2)),
    ]


@given(spaces, spaces)
def test_fire_lines_shape(a: tuple[Square, ...], b: tuple[Square, ...]) -> None:
    lines = fire_lines(a, b)
    assert lines == sorted(set(lines))
    if not set(a) & set(b):
        assert 1 <= len(lines) <= 4


def test_line_squares_ignores() -> None:
    assert line_squares((0, 0), (2, 2), {(0, 0), (1, 1)}) == [(0, 1), (1, 0)]
    assert line_squares((0, 0), (2, 2), ()) == squares_touched((0, 0), (2, 2))


# --------------------------------------------------------------------------- flanking


def test_centre2() -> None:
    assert centre2(((3, 4),)) == (7, 9)
    assert centre2(footprint((3, 4), 2)) == (8, 10)
    assert centre2(frozenset(footprint((0, 0), 2))) == (2, 2)


def test_strictly_between() -> None:
    a, b = ((0, 0),), ((4, 0),)
    assert strictly_between(a, ((2, 0),), b)
    assert strictly_between(b, ((1, 0),), a)
    assert not strictly_between(a, ((4, 0),), b)  # at an end, not strictly inside
    assert not strictly_between(a, ((5, 0),), b)  # beyond the end
    assert not strictly_between(a, ((2, 1),), b)  # off the line
    assert strictly_between(((0, 0),), ((1, 1),), ((3, 3),))
    # A 2x2 block's centre is a grid point: (3, 3) is on the diagonal, (3, 2) is not.
    assert strictly_between(((0, 0),), footprint((2, 2), 2), ((5, 5),))
    assert not strictly_between(((0, 0),), footprint((2, 1), 2), ((5, 5),))
    assert not strictly_between(a, a, a)


# --------------------------------------------------------------------------- movement


def test_reachable_open_ground() -> None:
    res = reachable((2, 2), 2, board_cost(5, 5, {}))
    assert set(res) == {(x, y) for x in range(5) for y in range(5)}
    assert res[(2, 2)] == (0, ())
    assert res[(4, 4)] == (2, ((3, 3), (4, 4)))
    assert res[(3, 2)] == (1, ((3, 2),))
    assert all(cost == chebyshev((2, 2), sq) for sq, (cost, _) in res.items())


def test_reachable_with_cost_two_square() -> None:
    res = reachable((0, 1), 2, board_cost(5, 3, {(1, 1): 2}))
    assert res[(1, 1)] == (2, ((1, 1),))
    assert res[(1, 0)] == (1, ((1, 0),))
    # (2,1) is reached for 2 around the costly square; the smallest equal-cost path wins.
    assert res[(2, 1)] == (2, ((1, 0), (2, 1)))
    assert res[(2, 0)] == (2, ((1, 0), (2, 0)))
    assert (3, 1) not in res
    assert len(res) == 9  # columns 0-2 of the 5x3 board


def test_reachable_blocked_square() -> None:
    # A 5x1 corridor with an impassable square: nothing beyond it.
    res = reachable((0, 0), 10, board_cost(5, 1, {(2, 0): None}))
    assert res == {(0, 0): (0, ()), (1, 0): (1, ((1, 0),))}


def test_reachable_halting_square() -> None:
    res = reachable((0, 0), 4, board_cost(5, 1, {}), halts=lambda sq: sq == (2, 0))
    assert res == {
        (0, 0): (0, ()),
        (1, 0): (1, ((1, 0),)),
        (2, 0): (2, ((1, 0), (2, 0))),
    }
    # On an open board movement goes around the halting square instead.
    res = reachable((0, 1), 4, board_cost(5, 3, {}), halts=lambda sq: sq == (1, 1))
    assert res[(1, 1)] == (1, ((1, 1),))
    assert res[(2, 1)] == (2, ((1, 0), (2, 1)))


def test_reachable_start_halting_is_still_left() -> None:
    res = reachable((0, 0), 1, board_cost(3, 1, {}), halts=lambda sq: sq == (0, 0))
    assert res == {(0, 0): (0, ()), (1, 0): (1, ((1, 0),))}


def test_reachable_pass_through_only() -> None:
    res = reachable((0, 0), 3, board_cost(4, 1, {}), can_stop=lambda sq: sq != (1, 0))
    assert res == {
        (0, 0): (0, ()),
        (2, 0): (2, ((1, 0), (2, 0))),
        (3, 0): (3, ((1, 0), (2, 0), (3, 0))),
    }


cost_maps = st.dictionaries(
    st.tuples(st.integers(0, 4), st.integers(0, 4)),
    st.one_of(st.none(), st.integers(0, 3)),
    max_size=12,
)


@settings(max_examples=100)
@given(st.tuples(st.integers(0, 4), st.integers(0, 4)), st.integers(0, 6), cost_maps)
def test_reachable_costs_are_minimal_and_within_budget(
    start: Square, budget: int, costs: dict[Square, int | None]
) -> None:
    step = board_cost(5, 5, costs)
    res = reachable(start, budget, step)
    # Reference: Bellman-Ford relaxation over the whole board.
    best: dict[Square, int] = {start: 0}
    changed = True
    while changed:
        changed = False
        for sq, c in list(best.items()):
            for dx, dy in DIRECTIONS8:
                nxt = (sq[0] + dx, sq[1] + dy)
                s = step(sq, nxt)
                if s is None or c + s > budget:
                    continue
                if nxt not in best or c + s < best[nxt]:
                    best[nxt] = c + s
                    changed = True
    assert {sq: c for sq, (c, _) in res.items()} == best
    for sq, (cost, path) in res.items():
        assert cost <= budget
        prev, total = start, 0
        for nxt in path:
            s = step(prev, nxt)
            assert s is not None
            total += s
            prev = nxt
        assert prev == sq and total == cost
    assert reachable(start, budget, step) == res


def test_straight_runs() -> None:
    def ok(a: Square, b: Square) -> bool:
        return in_bounds(b, 4, 4) and b != (2, 2)

    runs = straight_runs((1, 1), 3, ok)
    assert runs[(1, 2)] == ((1, 2),)
    assert runs[(1, 3)] == ((1, 2), (1, 3))
    assert runs[(3, 1)] == ((2, 1), (3, 1))
    assert (2, 2) not in runs and (3, 3) not in runs  # diagonal blocked at once
    assert runs[(0, 0)] == ((0, 0),)
    assert set(runs) == {(1, 2), (1, 3), (2, 1), (3, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2)}
    assert (1, 1) not in runs
    assert straight_runs((1, 1), 0, ok) == {}


def test_straight_runs_step_limit() -> None:
    runs = straight_runs((0, 0), 2, lambda a, b: True)
    assert len(runs) == 16
    assert runs[(2, -2)] == ((1, -1), (2, -2))
    assert (3, 0) not in runs


def test_facing_arc() -> None:
    assert facing_arc((5, 5), (0, 1)) == ((4, 6), (5, 6), (6, 6))
    assert facing_arc((5, 5), (0, -1)) == ((4, 4), (5, 4), (6, 4))
    assert facing_arc((5, 5), (1, 0)) == ((6, 4), (6, 5), (6, 6))
    assert facing_arc((5, 5), (-1, 0)) == ((4, 4), (4, 5), (4, 6))
    assert facing_arc((5, 5), (1, 1)) == ((6, 5), (6, 6), (5, 6))
    assert facing_arc((5, 5), (-1, 1)) == ((4, 5), (4, 6), (5, 6))
    with pytest.raises(ValueError):
        facing_arc((5, 5), (2, 0))
