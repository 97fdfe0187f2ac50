"""Tests for the continuous table geometry (inches; 1 inch = 10 feet), with hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warhost.geometry.table import (
    EDGES,
    Board,
    Ground,
    Region,
    along,
    away,
    bearing,
    cone,
    count_covered,
    cube,
    distance,
    edge_bearing,
    formation,
    gap,
    line,
    nearest_edge,
    offset,
    path_cost,
    single_footprint,
    sphere,
    toward,
    translate_to,
    travel,
    travel_many,
)

BOARD = Board(48, 36)
WOOD = Region.rect("Old wood", "forest", 3, -1, 4, 2, difficult=True)  # x 3..7 across y = 0
WALL = Region.rect("Wall", "ruins", 5, -1, 1, 2, impassable=True)  # x 5..6 across y = 0
CLOSE = formation(40, 10, 0.5, (24.0, 10.0), 0)  # members at x 21.75..26.25, y 9.25..10.75
OPEN = formation(40, 10, 1.0, (24.0, 10.0), 0)


def extents(poly: object) -> tuple[float, float]:
    """Width and height of a shape's bounding box."""
    x0, y0, x1, y1 = poly.bounds  # type: ignore[attr-defined]
    return float(x1 - x0), float(y1 - y0)


# --------------------------------------------------------------------------- board and bearings


def test_edge_distances() -> None:
    assert BOARD.edge_distances((10.0, 30.0)) == {"north": 6.0, "east": 38.0, "south": 30.0,
                                                  "west": 10.0}
    assert list(BOARD.edge_distances((0.0, 0.0))) == list(EDGES)


def test_nearest_edge_and_ties() -> None:
    assert nearest_edge(BOARD, (10.0, 30.0)) == "north"
    assert nearest_edge(BOARD, (47.0, 20.0)) == "east"
    square = Board(10, 10)
    # South and west tie at 2: EDGES order picks south; prefer picks among tied edges only.
    assert nearest_edge(square, (2.0, 2.0)) == "south"
    assert nearest_edge(square, (2.0, 2.0), prefer="west") == "west"
    assert nearest_edge(square, (2.0, 2.0), prefer="north") == "south"
    # Centre of a 20 x 10 board nudged 4e-10 north: north and south differ by 8e-10, a tie.
    wide = Board(20, 10)
    assert nearest_edge(wide, (10.0, 5.0 + 4e-10)) == "north"
    assert nearest_edge(wide, (10.0, 5.0 + 4e-10), prefer="south") == "south"
    assert nearest_edge(wide, (10.0, 5.0 + 4e-10), prefer="east") == "north"
    # ... but 1e-6 is no tie.
    assert nearest_edge(wide, (10.0, 5.0 - 1e-6), prefer="north") == "south"


def test_edge_bearing() -> None:
    assert [edge_bearing(e) for e in EDGES] == [0.0, 90.0, 180.0, 270.0]
    with pytest.raises(ValueError, match="edge"):
        edge_bearing("up")


def test_bearing_offset_distance() -> None:
    o = (0.0, 0.0)
    assert bearing(o, (0.0, 3.0)) == 0.0
    assert bearing(o, (1.0, 1.0)) == pytest.approx(45.0)
    assert bearing(o, (0.0, -1.0)) == 180.0
    assert bearing(o, (-1.0, -1.0)) == pytest.approx(225.0)
    assert bearing(o, (-2.0, 0.0)) == 270.0
    assert bearing(o, (-1e-300, 1.0)) < 360.0
    assert bearing(o, o) == 0.0
    assert offset((1.0, 1.0), 180, 2.0) == (1.0, -1.0)  # exact on compass points
    assert offset((1.0, 1.0), -90, 2.0) == (-1.0, 1.0)
    assert offset((0.0, 0.0), 45, math.sqrt(2)) == pytest.approx((1.0, 1.0))
    assert distance((1.0, 1.0), (4.0, 5.0)) == 5.0


def test_board_contains_and_leaves() -> None:
    assert BOARD.polygon.area == 48 * 36
    touching = single_footprint((0.25, 10.0))  # x 0..0.5: on the west edge, not beyond it
    assert BOARD.contains(touching) and not BOARD.leaves(touching)
    assert BOARD.leaves(single_footprint((0.2, 10.0)))
    assert BOARD.leaves(formation(40, 10, 0.5, (2.0, 10.0), 0).polygon)  # x -0.5..4.5
    assert not BOARD.leaves(CLOSE.polygon)


def test_gap() -> None:
    assert gap(single_footprint((0.0, 0.0)), single_footprint((2.0, 0.0))) == 1.5
    assert gap(single_footprint((0.0, 0.0)), single_footprint((0.5, 0.0))) == 0.0
    assert gap(CLOSE.polygon, single_footprint((24.0, 10.0))) == 0.0
    assert gap(CLOSE.polygon, single_footprint((24.0, 14.25))) == 3.0  # 11..14


# --------------------------------------------------------------------------- formations


def test_close_and_open_formation_sizes() -> None:
    assert (CLOSE.files, CLOSE.ranks, CLOSE.pitch) == (10, 4, 0.5)
    assert extents(CLOSE.polygon) == (5.0, 2.0)
    assert (CLOSE.width, CLOSE.depth) == (5.0, 2.0)
    assert CLOSE.polygon.bounds == (21.5, 9.0, 26.5, 11.0)
    assert (OPEN.files, OPEN.ranks) == (10, 4)
    assert extents(OPEN.polygon) == (9.5, 3.5)
    assert OPEN.polygon.bounds == (19.25, 8.25, 28.75, 11.75)


def test_fewer_members_than_files_is_one_rank() -> None:
    f = formation(7, 10, 0.5, (10.0, 10.0), 0)
    assert (f.files, f.ranks, len(f.member_points)) == (7, 1, 7)
    assert extents(f.polygon) == (3.5, 0.5)
    assert f.member_points[:, 1].tolist() == [10.0] * 7
    assert f.member_points[:, 0].tolist() == [8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5]


def test_member_order_front_rank_first_left_to_right() -> None:
    assert CLOSE.member_points[0].tolist() == [21.75, 10.75]  # front (north) rank, west end
    assert CLOSE.member_points[9].tolist() == [26.25, 10.75]
    assert CLOSE.member_points[-1].tolist() == [26.25, 9.25]


def test_rotation_by_90_swaps_extents() -> None:
    east = formation(40, 10, 0.5, (24.0, 10.0), 90)
    assert extents(east.polygon) == (2.0, 5.0)
    assert east.polygon.bounds == (23.0, 7.5, 25.0, 12.5)
    # Facing east, the front rank is the easternmost and its left end the northernmost.
    assert east.member_points[0].tolist() == [24.75, 12.25]
    west = formation(40, 10, 0.5, (24.0, 10.0), 270)
    assert west.member_points[0].tolist() == [23.25, 7.75]
    turned = formation(40, 10, 0.5, (24.0, 10.0), 45)
    assert turned.polygon.area == pytest.approx(10.0)
    assert extents(turned.polygon) == pytest.approx((7.0 / math.sqrt(2),) * 2)


@pytest.mark.parametrize(("members", "files"), [(1, 10), (9, 4), (12, 4), (13, 5), (40, 10),
                                                (41, 10), (100, 20)])
@pytest.mark.parametrize("pitch", [0.5, 1.0])
def test_member_count_and_squares_inside_footprint(members: int, files: int, pitch: float) -> None:
    f = formation(members, files, pitch, (20.0, 20.0), 30.0)
    assert len(f.member_points) == members == f.members
    assert f.ranks == math.ceil(members / files)
    for x, y in f.member_points:
        assert f.polygon.buffer(1e-9).covers(single_footprint((x, y), 0.5, 30.0))
    assert (f.polygon.centroid.x, f.polygon.centroid.y) == pytest.approx((20.0, 20.0))


def test_partial_last_rank_is_centred() -> None:
    f = formation(13, 5, 0.5, (10.0, 10.0), 0)
    assert (f.files, f.ranks) == (5, 3)
    pts = f.member_points.tolist()
    assert pts[:5] == [[9.0, 10.5], [9.5, 10.5], [10.0, 10.5], [10.5, 10.5], [11.0, 10.5]]
    assert pts[10:] == [[9.5, 9.5], [10.0, 9.5], [10.5, 9.5]]
    assert extents(f.polygon) == (2.5, 1.5)
    even = formation(6, 4, 1.0, (0.0, 0.0), 0)  # last rank of 2 behind a rank of 4
    assert even.member_points[4:].tolist() == [[-0.5, -0.5], [0.5, -0.5]]


def test_empty_formation_and_validation() -> None:
    alone = formation(0, 10, 0.5, (5.0, 5.0), 0)
    assert alone.member_points.shape == (0, 2)
    assert alone.polygon.bounds == (4.75, 4.75, 5.25, 5.25)
    with pytest.raises(ValueError, match="files"):
        formation(10, 0, 0.5, (0.0, 0.0), 0)
    with pytest.raises(ValueError, match="members"):
        formation(-1, 5, 0.5, (0.0, 0.0), 0)


def test_reforming_and_translation() -> None:
    shrunk = formation(23, 10, 0.5, CLOSE.centre, CLOSE.facing)
    assert (shrunk.ranks, extents(shrunk.polygon)) == (3, (5.0, 1.5))
    moved = translate_to(CLOSE, (30.0, 20.0))
    assert moved.polygon.bounds == (27.5, 19.0, 32.5, 21.0)
    assert moved.member_points[0].tolist() == [27.75, 20.75]
    assert moved == formation(40, 10, 0.5, (30.0, 20.0), 0)
    assert not CLOSE.member_points.flags.writeable


# --------------------------------------------------------------------------- regions and movement


def test_region_contains_and_crossed_by() -> None:
    r = Region.rect("copse", "forest", 2, 2, 2, 2)
    assert r.contains((3.0, 3.0)) and r.contains((2.0, 3.0)) and not r.contains((1.9, 3.0))
    assert r.crossed_by((0.0, 0.0), (5.0, 5.0))
    assert not r.crossed_by((0.0, 5.0), (5.0, 10.0))
    assert r.crossed_by((0.0, 8.0), (8.0, 0.0))  # touches the corner (4, 4) only
    assert r.crossed_by((3.0, 3.0), (3.0, 3.0))
    tri = Region.from_points("mound", "hill", [(0, 0), (4, 0), (0, 4)], difficult=True)
    assert tri.difficult and not tri.impassable and tri.polygon.area == 8.0
    assert tri.contains((2.0, 2.0)) and not tri.contains((2.1, 2.0))


def test_path_cost_difficult() -> None:
    assert path_cost([(0.0, 0.0), (10.0, 0.0)], []) == 10.0
    assert path_cost([(0.0, 0.0), (10.0, 0.0)], [WOOD]) == 14.0  # 4 in of wood cost 8
    overlap = Region.rect("thicket", "forest", 5, -1, 4, 2, difficult=True)
    assert path_cost([(0.0, 0.0), (10.0, 0.0)], [WOOD, overlap]) == 16.0  # union x 3..9
    # Bent path: 2 in of wood on the first leg (x 3..5), 1 in on the second (y 0..1).
    assert path_cost([(0.0, 0.0), (5.0, 0.0), (5.0, 5.0)], [WOOD]) == 13.0
    assert path_cost([(1.0, 1.0)], [WOOD]) == 0.0
    assert path_cost([(0.0, 0.0), (10.0, 0.0)], [WALL]) == math.inf
    assert path_cost([(0.0, 1.0), (10.0, 1.0)], [WALL]) == 10.0  # along its edge: allowed


def test_travel_stops_mid_forest() -> None:
    path = [(0.0, 0.0), (10.0, 0.0)]
    assert travel(path, 10.0, [WOOD]) == ((6.5, 0.0), 10.0)  # 3 clear + 3.5 in wood for 7
    assert travel(path, 3.0, [WOOD]) == ((3.0, 0.0), 3.0)
    assert travel(path, 20.0, [WOOD]) == ((10.0, 0.0), 14.0)
    assert travel(path, 0.0, [WOOD]) == ((0.0, 0.0), 0.0)
    # First leg costs 3 + 4; up the second, y 0..1 in wood costs 2, then 3 more clear.
    assert travel([(0.0, 0.0), (5.0, 0.0), (5.0, 5.0)], 12.0, [WOOD]) == ((5.0, 4.0), 12.0)
    assert toward((0.0, 0.0), (10.0, 0.0), 10.0, [WOOD]) == ((6.5, 0.0), 10.0)
    assert along((0.0, 0.0), 90, 10.0, [WOOD]) == ((6.5, 0.0), 10.0)
    diagonal = toward((0.0, 0.0), (30.0, 40.0), 7.0, [])
    assert diagonal[0] == pytest.approx((4.2, 5.6), abs=1e-12) and diagonal[1] == 7.0


def test_travel_stops_at_impassable() -> None:
    path = [(0.0, 0.0), (10.0, 0.0)]
    assert travel(path, 20.0, [WALL]) == ((5.0, 0.0), 5.0)
    assert travel(path, 20.0, [WOOD, WALL]) == ((5.0, 0.0), 7.0)  # x 3..5 in wood cost 4
    assert travel(path, 4.0, [WALL]) == ((4.0, 0.0), 4.0)
    assert travel([(5.5, 0.0), (10.0, 0.0)], 5.0, [WALL]) == ((5.5, 0.0), 0.0)  # starts inside
    assert travel([(0.0, 1.0), (10.0, 1.0)], 20.0, [WALL]) == ((10.0, 1.0), 10.0)
    assert travel([(6.0, 0.0), (10.0, 0.0)], 20.0, [WALL]) == ((10.0, 0.0), 4.0)  # leaves edge
    assert travel([(0.0, 0.0), (4.0, 0.0), (5.5, 0.0)], 20.0, [WALL]) == ((5.0, 0.0), 5.0)


def test_away() -> None:
    assert away((5.0, 5.0), (5.0, 3.0), 2.0, []) == ((5.0, 7.0), 2.0)
    assert away((5.0, 5.0), (5.0, 5.0), 2.0, []) == ((5.0, 7.0), 2.0)  # same point: north
    assert away((0.0, 0.0), (-3.0, 0.0), 10.0, [WOOD]) == ((6.5, 0.0), 10.0)
    end, spent = away((1.0, 5.0), (3.0, 5.0), 3.0, [], BOARD)
    assert (end, spent) == ((-2.0, 5.0), 3.0)
    assert BOARD.leaves(single_footprint(end))


# --------------------------------------------------------------------------- area templates


def test_sphere_on_close_block() -> None:
    # Offsets from the centre are x in +-{.25, .75, 1.25, 1.75, 2.25}, y in +-{.25, .75}.
    # r = 2 (20 ft): every row keeps |x| <= 1.75 (1.75^2 + .75^2 = 3.625 <= 4): 4 rows x 8.
    assert count_covered(sphere((24.0, 10.0), 2.0), CLOSE.member_points) == 32
    # r = 1 (10 ft): rows y = +-.25 keep |x| <= .75 (4 each), rows y = +-.75 keep .25 (2 each).
    assert count_covered(sphere((24.0, 10.0), 1.0), CLOSE.member_points) == 12
    # r = 0.5 reaches the four members at (+-.25, +-.25).
    assert count_covered(sphere((24.0, 10.0), 0.5), CLOSE.member_points) == 4


def test_sphere_covers_its_rim() -> None:
    s = math.sqrt(0.5)
    pts = np.array([[1.0, 0.0], [0.0, -1.0], [s, s], [0.71, 0.71], [1.001, 0.0]])
    assert count_covered(sphere((0.0, 0.0), 1.0), pts) == 3


def test_cone_on_close_block() -> None:
    # Apex 1 in south of the block: rows at 1.25, 1.75, 2.25, 2.75 in reach half-widths
    # .625, .875, 1.125, 1.375: 2 + 4 + 4 + 6 members.
    c = cone((24.0, 8.0), 0, 3.0)
    assert c.area == pytest.approx(4.5)
    assert count_covered(c, CLOSE.member_points) == 16
    assert count_covered(cone((24.0, 8.0), 180, 3.0), CLOSE.member_points) == 0
    east = cone((0.0, 0.0), 90, 2.0)
    assert sorted(map(tuple, np.asarray(east.exterior.coords)[:3].tolist())) == [
        (0.0, 0.0), (2.0, -1.0), (2.0, 1.0)]


def test_line_and_cube_on_close_block() -> None:
    # A line 1 in (10 ft) wide along the block's middle takes its two middle rows of 10.
    assert count_covered(line((21.5, 10.0), 90, 5.0, 1.0), CLOSE.member_points) == 20
    # 1.5 in wide: the edges pass exactly through the outer rows, which count (covered).
    assert count_covered(line((21.5, 10.0), 90, 5.0, 1.5), CLOSE.member_points) == 40
    assert count_covered(line((21.5, 10.0), 90, 2.0, 1.0), CLOSE.member_points) == 8
    assert line((0.0, 0.0), 0, 6.0, 0.5).bounds == (-0.25, 0.0, 0.25, 6.0)
    assert cube((24.0, 9.0), 1.0, 0).bounds == (23.5, 9.0, 24.5, 10.0)
    assert count_covered(cube((24.0, 9.0), 1.0, 0), CLOSE.member_points) == 4
    assert count_covered(cube((24.0, 9.0), 1.0, 0), np.empty((0, 2))) == 0


def test_count_covered_on_open_block() -> None:
    # Open order: offsets x in +-{.5, 1.5, ..., 4.5}, y in +-{.5, 1.5}. With r = 2 each quadrant
    # keeps (.5, .5), (1.5, .5) and (.5, 1.5) (squared distance <= 2.5) but not (1.5, 1.5) (4.5).
    assert count_covered(sphere((24.0, 10.0), 2.0), OPEN.member_points) == 12


# --------------------------------------------------------------------------- property


coords = st.floats(0, 20, allow_nan=False, allow_infinity=False)
rects = st.tuples(coords, coords, st.floats(0.5, 8), st.floats(0.5, 8))


@settings(max_examples=60, deadline=None)
@given(coords, coords, coords, coords, st.floats(0, 40), st.lists(rects, max_size=3))
def test_travel_spends_within_budget_and_matches_path_cost(
    x0: float, y0: float, x1: float, y1: float, budget: float,
    woods: list[tuple[float, float, float, float]],
) -> None:
    regions = [Region.rect(f"w{i}", "forest", *r, difficult=True) for i, r in enumerate(woods)]
    start, target = (x0, y0), (x1, y1)
    end, spent = travel([start, target], budget, regions)
    assert 0.0 <= spent <= budget + 1e-9
    assert path_cost([start, end], regions) == pytest.approx(spent, abs=1e-7)
    full = path_cost([start, target], regions)
    if full <= budget:
        assert end == (float(x1), float(y1)) and spent == pytest.approx(full, abs=1e-9)
    else:
        assert spent == budget


@settings(max_examples=60, deadline=None)
@given(coords, coords, st.lists(st.tuples(coords, coords, st.floats(0, 30)), min_size=1,
                                max_size=6),
       st.lists(rects, max_size=3), st.lists(rects, max_size=1))
def test_travel_many_equals_toward_for_each_target(
    x0: float, y0: float, walks: list[tuple[float, float, float]],
    woods: list[tuple[float, float, float, float]],
    walls: list[tuple[float, float, float, float]],
) -> None:
    regions = [Region.rect(f"w{i}", "forest", *r, difficult=True) for i, r in enumerate(woods)]
    regions += [Region.rect(f"x{i}", "ruins", *r, impassable=True) for i, r in enumerate(walls)]
    start = (x0, y0)
    targets = [(x, y) for x, y, _ in walks]
    budgets = [b for _, _, b in walks]
    batched = travel_many(start, targets, budgets, Ground.of(regions))
    for (end, spent), target, budget in zip(batched, targets, budgets):
        expected_end, expected_spent = toward(start, target, budget, regions)
        assert end == pytest.approx(expected_end, abs=1e-9)
        assert spent == pytest.approx(expected_spent, abs=1e-9)
