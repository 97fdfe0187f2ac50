"""Property tests of the tray geometry (arcs, gaps, overlap, majority arc) against shapely,
and their invariance when the whole table is turned and shifted."""

from __future__ import annotations

import math
from typing import Any

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPoint, Polygon, box
from shapely.geometry import Point as ShapelyPoint

from warhost.geometry.table import (
    ARCS,
    Point,
    Tray,
    arc_polygon,
    clear_sight,
    cover_by_majority,
    line_clear,
    majority_arc,
    sees,
    sight_line,
    tray_gap,
    trays_overlap,
)

coord = st.floats(-20, 20, allow_nan=False, allow_infinity=False)
facing = st.one_of(st.sampled_from([0.0, 90.0, 180.0, 270.0]), st.floats(0, 360, exclude_max=True))
side = st.floats(0.2, 8)
side_or_none = st.one_of(st.just(0.0), side)
points = st.tuples(coord, coord)
trays = st.builds(Tray, points, facing, side, side)
any_trays = st.builds(Tray, points, facing, side_or_none, side_or_none)
angles = st.floats(-720, 720, allow_nan=False)

BAND = 1e-6
"""Points or gaps this close to a boundary are judged either way; properties skip them."""


def shape_of(tray: Tray) -> Any:
    """The tray as a shapely shape: a polygon, or a segment or point when degenerate."""
    return MultiPoint(tray.corners()).convex_hull


def arc_boundary_gap(tray: Tray, p: Point) -> float:
    """Distance from ``p`` to the nearest boundary of the tray or of an arc polygon."""
    pt = ShapelyPoint(p)
    shapes = [arc_polygon(tray, arc) for arc in ARCS] + [shape_of(tray)]
    return min(float(s.boundary.distance(pt)) if s.area > 0 else float(s.distance(pt))
               for s in shapes)


def turn(p: Point, angle: float, shift: Point) -> Point:
    """``p`` turned clockwise by ``angle`` degrees about the origin, then shifted."""
    r = math.radians(angle)
    x, y = p
    return (x * math.cos(r) + y * math.sin(r) + shift[0],
            -x * math.sin(r) + y * math.cos(r) + shift[1])


def turn_tray(t: Tray, angle: float, shift: Point) -> Tray:
    return Tray(turn(t.centre, angle, shift), t.facing + angle, t.width, t.depth)


def turn_shape(shape: Any, angle: float, shift: Point) -> Any:
    return shapely.transform(shape, lambda xy: _turn_xy(xy, angle, shift))


def _turn_xy(xy: Any, angle: float, shift: Point) -> Any:
    out = xy.copy()
    for i, (x, y) in enumerate(xy):
        out[i] = turn((float(x), float(y)), angle, shift)
    return out


# --------------------------------------------------------------------------- arcs


@settings(max_examples=300)
@given(any_trays, points)
def test_every_point_outside_lies_in_exactly_the_arc_polygon_arc_of_names(
        tray: Tray, p: Point) -> None:
    assume(not shape_of(tray).covers(ShapelyPoint(p)))
    assume(arc_boundary_gap(tray, p) > BAND)
    holding = [arc for arc in ARCS if arc_polygon(tray, arc).covers(ShapelyPoint(p))]
    assert holding == [tray.arc_of(p)]


@settings(max_examples=200)
@given(any_trays, st.integers(0, 3), st.floats(0.01, 30))
def test_a_point_on_a_corner_line_goes_to_the_earlier_arc(
        tray: Tray, corner: int, along: float) -> None:
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    # Corners in Tray.corners() order and the outward 45-degree direction from each.
    signs = [(-1, 1), (1, 1), (1, -1), (-1, -1)][corner]
    p = tray.to_world(signs[0] * (hw + along), signs[1] * (hd + along))
    # front-left and front-right lines -> front; rear-right -> right; rear-left -> left.
    assert tray.arc_of(p) == ["front", "front", "right", "left"][corner]


@settings(max_examples=100)
@given(any_trays)
def test_the_four_arc_polygons_are_disjoint_and_with_the_tray_cover_a_disc(tray: Tray) -> None:
    reach = 30.0
    arcs = [arc_polygon(tray, arc, reach) for arc in ARCS]
    for i, a in enumerate(arcs):
        for b in arcs[i + 1:]:
            assert a.intersection(b).area <= 1e-9 * a.area
    whole = shapely.unary_union([*arcs, shape_of(tray)])
    disc = ShapelyPoint(tray.centre).buffer(reach - 1.0)
    assert disc.difference(whole).area <= 1e-9 * disc.area
    outside = sum(a.area for a in arcs) + tray.width * tray.depth
    assert whole.area == pytest.approx(outside, rel=1e-9)


@settings(max_examples=150)
@given(trays, any_trays)
def test_majority_arc_of_a_shape_inside_one_arc_is_that_arc(tray: Tray, other: Tray) -> None:
    for arc in ARCS:
        piece = arc_polygon(tray, arc).intersection(shape_of(other))
        if piece.area > 1e-6:
            assert majority_arc(tray, piece) == arc


@pytest.mark.rule("W4-AMB-16")
@settings(max_examples=200)
@given(any_trays, st.integers(0, 3), st.floats(0.2, 6), st.floats(0.01, 10))
def test_a_shape_split_evenly_by_a_corner_line_goes_to_the_earlier_arc(
        tray: Tray, corner: int, size: float, beyond: float) -> None:
    # A square set square to the tray, centred on a corner line and clear of the tray: the
    # line is its diagonal, so the two arcs hold equal halves.
    hw, hd = tray.width / 2.0, tray.depth / 2.0
    along = size / 2.0 + beyond
    sr, sf = [(-1, 1), (1, 1), (1, -1), (-1, -1)][corner]
    centre = tray.to_world(sr * (hw + along), sf * (hd + along))
    square = Tray(centre, tray.facing, size, size).polygon
    shares = sorted(arc_polygon(tray, arc).intersection(square).area for arc in ARCS)
    assert shares[-1] == pytest.approx(shares[-2]) and shares[-3] == pytest.approx(0.0)
    assert majority_arc(tray, square) == ["front", "front", "right", "left"][corner]


# --------------------------------------------------------------------------- gaps and overlap


@settings(max_examples=400)
@given(any_trays, any_trays)
def test_tray_gap_is_symmetric_non_negative_and_shapelys_distance(a: Tray, b: Tray) -> None:
    gap = tray_gap(a, b)
    assert gap >= 0.0
    assert tray_gap(b, a) == pytest.approx(gap, abs=1e-9)
    expected = float(shape_of(a).distance(shape_of(b)))
    assert gap == pytest.approx(expected, abs=1e-7)
    if not (0.0 < expected <= BAND):
        assert (gap == 0.0) == (expected == 0.0)


@settings(max_examples=100)
@given(trays, trays, st.floats(0.0, 5.0))
def test_trays_touching_have_no_gap_and_then_a_gap_when_drawn_apart(
        a: Tray, b: Tray, apart: float) -> None:
    # Slide b along the line of centres until it just touches a, then back it off.
    direction = (b.centre[0] - a.centre[0], b.centre[1] - a.centre[1])
    length = math.hypot(*direction)
    assume(length > 1e-3)
    ux, uy = direction[0] / length, direction[1] / length
    lo, hi = -length, 40.0
    for _ in range(80):  # bisection on the shapely distance to the touching offset
        mid = (lo + hi) / 2.0
        if shape_of(a).distance(shape_of(b.moved(ux * mid, uy * mid))) > 0.0:
            hi = mid
        else:
            lo = mid
    touching = b.moved(ux * hi, uy * hi)
    assert tray_gap(a, touching) == pytest.approx(0.0, abs=1e-7)
    assert tray_gap(a, touching.moved(ux * apart, uy * apart)) == pytest.approx(
        float(shape_of(a).distance(shape_of(touching.moved(ux * apart, uy * apart)))),
        abs=1e-7)


@settings(max_examples=400)
@given(any_trays, any_trays)
def test_trays_overlap_agrees_with_shapely_interiors(a: Tray, b: Tray) -> None:
    shared = float(shape_of(a).intersection(shape_of(b)).area)
    if trays_overlap(a, b):
        assert shared > 0.0
    else:
        # No overlap deeper than the tolerance: the shared part is a thin sliver at most.
        diagonal = math.hypot(a.width, a.depth) + math.hypot(b.width, b.depth)
        assert shared <= 1e-6 * diagonal + 1e-12
    assert trays_overlap(a, b) == trays_overlap(b, a)


def test_degenerate_trays_have_exact_gaps() -> None:
    dot, other = Tray((0.0, 0.0), 0.0, 0.0, 0.0), Tray((3.0, 4.0), 0.0, 0.0, 0.0)
    assert tray_gap(dot, other) == 5.0
    a, b = Tray((0.0, 0.0), 0.0, 2.0, 0.0), Tray((5.0, 0.0), 0.0, 2.0, 0.0)  # on one line
    assert tray_gap(a, b) == 3.0
    assert not trays_overlap(a, Tray((0.0, 0.0), 0.0, 2.0, 2.0))


# --------------------------------------------------------------------------- turning the table


@settings(max_examples=200)
@given(trays, any_trays, points, angles, points)
def test_turning_and_shifting_everything_changes_nothing(
        a: Tray, b: Tray, p: Point, angle: float, shift: Point) -> None:
    ta, tb, tp = turn_tray(a, angle, shift), turn_tray(b, angle, shift), turn(p, angle, shift)
    assert tray_gap(ta, tb) == pytest.approx(tray_gap(a, b), abs=1e-7)
    gap = tray_gap(a, b)
    if not gap <= BAND:
        assert tray_gap(ta, tb) > 0.0
    if arc_boundary_gap(a, p) > BAND and not shape_of(a).covers(ShapelyPoint(p)):
        assert ta.arc_of(tp) == a.arc_of(p)
    shape = shape_of(b)
    if shape.area > 1e-3:
        moved = turn_shape(shape, angle, shift)
        shares = sorted(arc_polygon(a, arc).intersection(shape).area for arc in ARCS)
        if shares[-1] - shares[-2] > 1e-6:
            assert majority_arc(ta, moved) == majority_arc(a, shape)
        front = arc_polygon(a, "front").intersection(shape).area
        if front > 1e-6 or not arc_polygon(a, "front").buffer(BAND).intersects(shape):
            assert sees(ta, moved) == sees(a, shape)


@settings(max_examples=100)
@given(st.lists(trays, min_size=1, max_size=3), st.lists(trays, min_size=1, max_size=2),
       st.lists(st.tuples(trays, st.integers(1, 5)), max_size=3), angles, points)
def test_cover_is_the_same_on_a_turned_table(
        shooters: list[Tray], targets: list[Tray], pieces: list[tuple[Tray, int]],
        angle: float, shift: Point) -> None:
    shapes = [(t.polygon, v) for t, v in pieces]
    lines = [shapely.LineString([s.centre, t.centre]) for s in shooters for t in targets]
    # Skip lines that graze a piece: on a turned table rounding may tip them either way.
    for line in lines:
        for shape, _ in shapes:
            inside = shape.intersection(line).length
            assume(inside > BAND or line.distance(shape) > BAND)
    turned = [(turn_shape(s, angle, shift), v) for s, v in shapes]
    assert cover_by_majority([turn_tray(s, angle, shift) for s in shooters],
                             [turn_tray(t, angle, shift) for t in targets], turned) \
        == cover_by_majority(shooters, targets, shapes)


def test_polygon_helper_matches_tray_polygon() -> None:
    tray = Tray((1.0, 2.0), 30.0, 3.0, 1.0)
    assert isinstance(shape_of(tray), Polygon)
    assert shape_of(tray).symmetric_difference(tray.polygon).area < 1e-12


# --------------------------------------------------------------------------- sight


def _edge_points(tray: Tray, per_edge: int) -> list[Point]:
    corners = tray.corners()
    out: list[Point] = []
    for k in range(4):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
        out += [(x0 + (x1 - x0) * i / per_edge, y0 + (y1 - y0) * i / per_edge)
                for i in range(per_edge)]
    return out


walls = st.lists(st.tuples(st.floats(-10, 10), st.floats(-2, 22), st.floats(0.1, 12),
                           st.floats(0.1, 3)), min_size=1, max_size=4)


@settings(max_examples=80)
@given(st.floats(-6, 6), st.floats(0, 360), st.floats(-6, 6), st.floats(0, 360), walls)
def test_sight_finds_any_clear_line_and_only_clear_lines(
        x0: float, f0: float, x1: float, f1: float,
        boxes: list[tuple[float, float, float, float]]) -> None:
    viewer, target = Tray((x0, 0.0), f0, 4.0, 2.0), Tray((x1, 20.0), f1, 4.0, 2.0)
    blockers = [box(x, y, x + w, y + h) for x, y, w, h in boxes]
    line = sight_line(viewer, target, blockers)
    assert (line is not None) == clear_sight(viewer, [target], blockers)
    if line is not None:
        start, end = line
        assert viewer.polygon.distance(ShapelyPoint(start)) <= 1e-6
        assert target.polygon.distance(ShapelyPoint(end)) <= 1e-6
        assert line_clear(start, end, blockers)
    else:
        # Then no line between many points round the two trays is clear either.
        dense = [(a, b) for a in _edge_points(viewer, 10) for b in _edge_points(target, 10)]
        assert not any(line_clear(a, b, blockers) for a, b in dense[::7])


@pytest.mark.rule("W4-SHOOT-09")
@settings(max_examples=100)
@given(st.floats(-3, 3), st.floats(-3, 3), st.floats(-4, 4), st.floats(0.005, 0.4),
       st.floats(0.01, 1.0))
def test_a_narrow_slit_between_the_trays_is_found(
        x0: float, x1: float, slit: float, width: float, thick: float) -> None:
    viewer, target = Tray((x0, 0.0), 0.0, 4.0, 2.0), Tray((x1, 20.0), 180.0, 4.0, 2.0)
    blockers = [box(-30.0, 10.0, slit, 10.0 + thick), box(slit + width, 10.0, 30.0, 10.0 + thick)]
    lo, hi = max(slit, x0 - 2.0, x1 - 2.0), min(slit + width, x0 + 2.0, x1 + 2.0)
    assume(abs(hi - lo) > 1e-6)
    line = sight_line(viewer, target, blockers)
    if hi > lo:  # a straight north-south line passes the slit
        assert line is not None and clear_sight(viewer, [target], blockers)
    if line is not None:
        assert line_clear(*line, blockers)
        assert viewer.polygon.distance(ShapelyPoint(line[0])) <= 1e-6
        assert target.polygon.distance(ShapelyPoint(line[1])) <= 1e-6
