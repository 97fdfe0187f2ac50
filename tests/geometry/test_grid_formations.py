"""Tests for counter formations in the square-grid geometry: connectivity, holes, contact,
straight paths, distances between formations, exposed sides, shapes and removal order."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warhost.core.metering import GEOMETRY, metered
from warhost.geometry.grid import (
    DIRECTIONS4,
    Square,
    beyond_side,
    bresenham,
    chebyshev,
    entered_squares,
    exposed_sides,
    formation_ok,
    forward_most,
    heading_of,
    holes,
    projection,
    removal_ok,
    removal_order,
    shapes,
    share_side,
    side_connected,
    side_contacts,
    straight_path,
    translate,
    unit_distance,
)

small = st.integers(-6, 6)
square_sets = st.frozensets(st.tuples(small, small), min_size=1, max_size=30)


def block(w: int, h: int, x: int = 0, y: int = 0) -> frozenset[Square]:
    return frozenset((x + i, y + j) for i in range(w) for j in range(h))


def ref_components(cells: frozenset[Square]) -> int:
    """Union-find count of 4-connected components."""
    parent = {c: c for c in cells}

    def find(c: Square) -> Square:
        while parent[c] != c:
            c = parent[c]
        return c

    for x, y in cells:
        for n in ((x + 1, y), (x, y + 1)):
            if n in cells:
                parent[find(n)] = find((x, y))
    return len({find(c) for c in cells})


def ref_holes(cells: frozenset[Square]) -> set[Square]:
    """A free square of the box is a hole when a free path to the box border does not exist."""
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    free = {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if (x, y) not in cells}
    # Free squares on the box border reach outside directly; grow from them.
    reach = {(x, y) for x, y in free if x in (x0, x1) or y in (y0, y1)}
    changed = True
    while changed:
        changed = False
        for x, y in free - reach:
            if any((x + dx, y + dy) in reach for dx, dy in DIRECTIONS4):
                reach.add((x, y))
                changed = True
    return free - reach


# --------------------------------------------------------------------------- connectivity, holes


def test_side_connected_needs_sides_not_corners() -> None:
    assert side_connected(block(3, 2))
    assert side_connected([(0, 0)])
    assert not side_connected([(0, 0), (1, 1)])  # corner contact only
    assert not side_connected([(0, 0), (2, 0)])
    assert side_connected([])


def test_ring_has_a_hole_and_is_no_formation() -> None:
    ring = block(3, 3) - {(1, 1)}
    assert holes(ring) == {(1, 1)}
    assert side_connected(ring)
    assert not formation_ok(ring)


def test_diagonal_gap_does_not_open_a_hole() -> None:
    # The centre touches the missing corner (0, 0) only diagonally: still enclosed.
    cells = block(3, 3) - {(1, 1), (0, 0)}
    assert holes(cells) == {(1, 1)}
    # Opening a side lets the centre out.
    opened = block(3, 3) - {(1, 1), (1, 0)}
    assert holes(opened) == frozenset()
    assert formation_ok(opened)


def test_big_hole_and_empty_set() -> None:
    cells = block(5, 5) - block(3, 3, 1, 1)
    assert holes(cells) == block(3, 3, 1, 1)
    assert holes([]) == frozenset()
    assert not formation_ok([])


def test_bay_open_to_box_edge_is_not_a_hole() -> None:
    # A U shape: the inside of the U reaches the top of the bounding box.
    u = {(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)}
    assert holes(u) == frozenset()
    assert formation_ok(u)


@settings(max_examples=200)
@given(square_sets)
def test_connectivity_and_holes_match_reference(cells: frozenset[Square]) -> None:
    assert side_connected(cells) == (ref_components(cells) == 1)
    assert holes(cells) == ref_holes(cells)
    assert formation_ok(cells) == (ref_components(cells) == 1 and not ref_holes(cells))


@given(square_sets, small, small)
def test_formation_checks_do_not_depend_on_position(
    cells: frozenset[Square], dx: int, dy: int
) -> None:
    moved = translate(cells, dx, dy)
    assert formation_ok(moved) == formation_ok(cells)
    assert holes(moved) == translate(holes(cells), dx, dy)


# --------------------------------------------------------------------------- contact


def test_side_contacts_lists_the_touching_squares_sorted() -> None:
    front = block(3, 2)  # y 0..1
    enemy = block(2, 1, 1, 2)  # (1, 2), (2, 2)
    assert side_contacts(front, enemy) == ((1, 1), (2, 1))
    assert side_contacts(enemy, front) == ((1, 2), (2, 2))
    assert share_side(front, enemy)
    # Corner contact alone is not side contact.
    assert side_contacts([(0, 0)], {(1, 1)}) == ()
    assert not share_side([(0, 0)], [(1, 1)])


@given(square_sets, square_sets)
def test_side_contacts_match_definition(a: frozenset[Square], b: frozenset[Square]) -> None:
    b = b - a
    want = sorted(p for p in a if any(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 for q in b))
    assert list(side_contacts(a, b)) == want
    assert share_side(a, list(b)) == bool(want)


# --------------------------------------------------------------------------- headings and paths


def test_heading_projection_forward_most() -> None:
    assert heading_of(5, -2) == (1, -1)
    assert heading_of(0, 3) == (0, 1)
    assert heading_of(0, 0) == (0, 0)
    assert projection((3, 4), (1, -1)) == -1
    assert forward_most(block(3, 2), (0, 1)) == 1
    assert forward_most(block(3, 2), (-1, -1)) == 0
    with pytest.raises(ValueError, match="at least one"):
        forward_most([], (0, 1))


def test_straight_path_follows_bresenham_step_by_step() -> None:
    unit = block(2, 1)
    path = straight_path(unit, 4, 2)
    assert len(path) == 4
    steps = bresenham((0, 0), (4, 2))[1:]
    assert path == [translate(unit, sx, sy) for sx, sy in steps]
    assert path[-1] == {(4, 2), (5, 2)}
    assert straight_path(unit, 0, 0) == []


def test_entered_squares_leave_out_the_start() -> None:
    unit = block(2, 1)  # (0, 0), (1, 0)
    path = straight_path(unit, 3, 0)
    assert entered_squares(path, unit) == {(2, 0), (3, 0), (4, 0)}
    diag = straight_path([(0, 0)], 2, 1)
    assert entered_squares(diag, [(0, 0)]) == {(1, 0), (2, 1)}


@given(square_sets, st.integers(-8, 8), st.integers(-8, 8))
def test_straight_path_keeps_shape_and_moves_one_square_at_a_time(
    cells: frozenset[Square], dx: int, dy: int
) -> None:
    path = straight_path(cells, dx, dy)
    assert len(path) == max(abs(dx), abs(dy))
    previous = cells
    for step in path:
        assert len(step) == len(cells)
        shift = {(x - px, y - py) for (x, y), (px, py) in zip(sorted(step), sorted(previous))}
        assert len(shift) == 1
        assert chebyshev((0, 0), shift.pop()) == 1
        previous = step
    if path:
        assert path[-1] == translate(cells, dx, dy)


# --------------------------------------------------------------------------- distance


def brute_distance(a: frozenset[Square], b: frozenset[Square]) -> int:
    return min(chebyshev(p, q) for p, q in product(a, b))


def test_unit_distance_examples() -> None:
    assert unit_distance(block(3, 2), block(3, 2, 5, 0)) == 3
    assert unit_distance(block(3, 2), block(3, 2, 3, 2)) == 1  # corner contact
    assert unit_distance(block(3, 2), block(3, 2, 1, 1)) == 0  # overlap
    # An L whose bounding box is much nearer than its squares.
    ell = {(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0)}
    assert unit_distance(ell, [(3, 3)]) == 3
    with pytest.raises(ValueError, match="at least one"):
        unit_distance([], [(0, 0)])


@settings(max_examples=300)
@given(square_sets, square_sets, st.integers(-15, 15), st.integers(-15, 15))
def test_unit_distance_matches_brute_force(
    a: frozenset[Square], b: frozenset[Square], dx: int, dy: int
) -> None:
    b = translate(b, dx, dy)
    assert unit_distance(a, b) == brute_distance(a, b)
    assert unit_distance(b, a) == brute_distance(a, b)


# --------------------------------------------------------------------------- exposed sides


def test_exposed_sides_of_a_block() -> None:
    unit = block(3, 2)
    assert exposed_sides((1, 1), unit) == ((0, 1),)  # front middle: only the north side
    assert exposed_sides((0, 0), unit) == ((0, -1), (-1, 0))
    assert exposed_sides((5, 5), [(5, 5)]) == DIRECTIONS4


def test_beyond_side_is_strict() -> None:
    assert beyond_side((0, 0), (0, 1), (7, 1))
    assert not beyond_side((0, 0), (0, 1), (7, 0))  # level with the counter: not beyond
    assert beyond_side((0, 0), (-1, 0), (-1, -9))
    assert not beyond_side((0, 0), (1, 0), (0, 5))


# --------------------------------------------------------------------------- shapes


def test_shapes_for_ten_facing_north() -> None:
    got = shapes(10, (0, 1))
    assert got[0] == tuple((x, 0) for x in range(10))  # the line comes first
    two_deep = tuple(sorted(block(5, 2)))
    assert two_deep in got
    # 3 deep: 4 wide, the rear rank of 2 centred, front rank at the top.
    three = tuple(sorted(block(4, 2, 0, 1) | {(1, 0), (2, 0)}))
    assert three in got
    assert tuple((0, y) for y in range(10)) in got  # the column
    assert len(got) == len(set(got))


def test_shapes_face_their_heading() -> None:
    north = shapes(7, (0, 1))
    east = shapes(7, (1, 0))
    # 3 deep and 3 wide: the odd counter stands at the rear, in the middle.
    assert ((1, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)) not in north
    three_n = tuple(sorted({(1, 0)} | block(3, 2, 0, 1)))
    three_e = tuple(sorted({(0, 1)} | block(2, 3, 1, 0)))
    assert three_n in north
    assert three_e in east
    # A diagonal heading offers both orientations.
    diag = shapes(7, (1, 1))
    assert three_n in diag
    assert three_e in diag


def test_shapes_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one counter"):
        shapes(0, (0, 1))
    with pytest.raises(ValueError, match="heading"):
        shapes(4, (0, 0))
    assert shapes(1, (0, -1)) == [((0, 0),)]


@given(st.integers(1, 50), st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, 1)]))
def test_every_shape_is_a_legal_formation_of_n(n: int, heading: Square) -> None:
    got = shapes(n, heading)
    assert 1 <= len(got) <= 14
    assert len(got) == len(set(got))
    for shape in got:
        assert len(set(shape)) == n
        assert list(shape) == sorted(shape)
        assert formation_ok(shape)
        assert min(x for x, _ in shape) == 0
        assert min(y for _, y in shape) == 0
    hx, hy = heading
    for axis in {(hx, 0), (0, hy)} - {(0, 0)}:
        if not any(shape_faces(shape, axis) for shape in got):
            raise AssertionError(f"no shape faces {axis}")
    if hx == 0 or hy == 0:
        assert all(shape_faces(shape, heading) for shape in got)


def shape_faces(shape: tuple[Square, ...], axis: Square) -> bool:
    """Ranks across ``axis`` are full, except a contiguous, centred rear rank."""
    ranks: dict[int, list[int]] = {}
    for x, y in shape:
        ranks.setdefault(projection((x, y), axis), []).append(x if axis[0] == 0 else y)
    order = sorted(ranks, reverse=True)
    width = len(ranks[order[0]])
    for p in order[:-1]:
        if sorted(ranks[p]) != list(range(width)):
            return False
    rear = sorted(ranks[order[-1]])
    if rear != list(range(rear[0], rear[0] + len(rear))):
        return False
    return rear[0] == (width - len(rear)) // 2


# --------------------------------------------------------------------------- removal


def test_removal_takes_the_farthest_first() -> None:
    unit = block(3, 2)  # y 0 and 1; the enemy stands north, so row 0 is the rear
    enemy = block(3, 1, 0, 3)
    got = removal_order(unit, enemy, 3)
    assert got == ((0, 0), (1, 0), (2, 0))
    assert removal_ok(unit, got)


def test_removal_keeps_the_formation_when_it_can() -> None:
    # A T: the far stem square first, then the stem, never the middle of the bar early.
    t = {(0, 2), (1, 2), (2, 2), (1, 1), (1, 0)}
    enemy = {(1, 4)}
    assert removal_order(t, enemy, 2) == ((1, 0), (1, 1))
    # The bar squares are all 2 from the enemy; lowest (y, x) goes first each time.
    assert removal_order(t, enemy, 4)[2:] == ((0, 2), (1, 2))


def test_removal_falls_back_to_farthest_when_nothing_keeps_the_formation() -> None:
    scattered = {(0, 0), (2, 0), (4, 0)}  # any removal leaves two apart: fall back to farthest
    assert removal_order(scattered, {(9, 0)}, 1) == ((0, 0),)
    # From a ring only opening a side keeps a legal formation (a corner leaves the hole).
    ring = block(3, 3) - {(1, 1)}
    assert removal_order(ring, {(1, 10)}, 1) == ((1, 0),)
    assert removal_ok(ring, [(1, 0)])
    assert not removal_ok(ring, [(0, 0)])


def test_removal_with_no_enemy_and_bad_counts() -> None:
    unit = block(2, 2)
    assert removal_order(unit, [], 1) == ((0, 0),)
    assert removal_order(unit, [], 4) == ((0, 0), (1, 0), (0, 1), (1, 1))
    with pytest.raises(ValueError, match="cannot remove"):
        removal_order(unit, [], 5)
    with pytest.raises(ValueError, match="not in the formation"):
        removal_ok(unit, [(7, 7)])
    assert removal_ok(unit, unit)
    assert not removal_ok(block(3, 1), [(1, 0)])


@settings(max_examples=150)
@given(square_sets, st.frozensets(st.tuples(small, small), max_size=5), st.data())
def test_removal_order_property(
    cells: frozenset[Square], enemy: frozenset[Square], data: st.DataObject
) -> None:
    enemy = enemy - cells
    k = data.draw(st.integers(0, len(cells)))
    got = removal_order(cells, enemy, k)
    assert len(got) == k == len(set(got))
    assert set(got) <= cells
    left = set(cells)

    def far(s: Square) -> int:
        return min((chebyshev(s, e) for e in enemy), default=0)

    for sq in got:
        keeping = [s for s in left if removal_ok(left, [s])]
        pool = keeping or list(left)
        best = min(pool, key=lambda s: (-far(s), s[1], s[0]))
        assert sq == best
        left.discard(sq)


def test_unit_distance_skips_the_full_product() -> None:
    a = block(10, 5)
    with metered() as far:
        assert unit_distance(a, block(10, 5, 30, 1)) == 21
    assert far[GEOMETRY] == 0  # answered from the bounding boxes
    with metered() as near:
        assert unit_distance(a, block(10, 5, 3, 6)) == 2
    assert near[GEOMETRY] < 50  # far fewer pairs than the 2,500 of the product
