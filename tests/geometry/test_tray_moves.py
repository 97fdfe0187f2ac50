"""Tests for the tray moves of the core table geometry: advances, wheels, centre pivots,
reforms, swept areas, terrain cost and first contact."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warhost.geometry.table import (
    Region,
    Tray,
    advance,
    advance_cost,
    arc_cost,
    centre_pivot,
    distance,
    first_contact,
    pivot_path,
    reach,
    reform_frame,
    swept_area,
    tray_gap,
    trays_overlap,
    turn_between,
    wheel,
    wheel_distance,
    wheel_path,
    wheel_pivot,
)

coords = st.floats(-30, 30, allow_nan=False)
sizes = st.floats(0.5, 8, allow_nan=False)
facings = st.floats(0, 359.9, allow_nan=False)


@st.composite
def trays(draw: st.DrawFn) -> Tray:
    return Tray((draw(coords), draw(coords)), draw(facings), draw(sizes), draw(sizes))


def close(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-6) -> bool:
    return distance(a, b) < tol


@pytest.mark.rule("W4-MOVE-07")
def test_an_advance_keeps_the_facing_and_refuses_more_than_45_degrees_off() -> None:
    tray = Tray((10.0, 10.0), 0.0, 4.0, 2.0)
    moved = advance(tray, 4.0, 45.0)
    assert moved.facing == 0.0
    assert close(moved.centre, (10 + 4 / math.sqrt(2), 10 + 4 / math.sqrt(2)))
    with pytest.raises(ValueError):
        advance(tray, 4.0, 46.0)


@given(trays(), st.floats(0, 12), st.floats(-45, 45))
@settings(max_examples=80, deadline=None)
def test_straight_moves_keep_facing_and_size(tray: Tray, length: float, veer: float) -> None:
    moved = advance(tray, length, veer)
    assert moved.facing == tray.facing
    assert (moved.width, moved.depth) == (tray.width, tray.depth)
    assert distance(tray.centre, moved.centre) == pytest.approx(length, abs=1e-9)


@pytest.mark.rule("W4-MOVE-09")
@pytest.mark.rule("W4-MOVE-10")
def test_a_right_wheel_keeps_the_front_right_corner_and_swings_the_left_one_forward() -> None:
    tray = Tray((0.0, -1.0), 0.0, 4.0, 2.0)  # front edge from (-2, 0) to (2, 0), facing north
    turned = wheel(tray, "right", 90.0)
    assert turned.facing == 90.0
    assert close(turned.corners()[1], (2.0, 0.0))
    assert close(turned.corners()[0], (2.0, 4.0))  # the left corner swung forward (north)
    left = wheel(tray, "left", 90.0)
    assert left.facing == 270.0 and close(left.corners()[0], (-2.0, 0.0))
    assert close(left.corners()[1], (-2.0, 4.0))


@given(trays(), st.sampled_from(["left", "right"]), st.floats(0, 180))
@settings(max_examples=80, deadline=None)
def test_a_wheel_keeps_its_pivot_corner_and_turns_the_facing_by_the_angle(
        tray: Tray, side: str, degrees: float) -> None:
    turned = wheel(tray, side, degrees)
    assert close(wheel_pivot(turned, side), wheel_pivot(tray, side), 1e-6)
    expected = degrees if side == "right" else -degrees
    turned_by = turn_between(tray.facing, turned.facing)
    if abs(expected) > 180 - 1e-6:  # half a turn: +180 and -180 are the same facing
        turned_by, expected = abs(turned_by), abs(expected)
    assert turned_by == pytest.approx(expected, abs=1e-6)


@given(trays(), st.floats(-180, 180))
@settings(max_examples=80, deadline=None)
def test_a_centre_pivot_keeps_the_centre(tray: Tray, degrees: float) -> None:
    turned = centre_pivot(tray, degrees)
    assert turned.centre == tray.centre
    assert abs(turn_between(tray.facing, turned.facing)) == pytest.approx(abs(degrees), abs=1e-6)


@pytest.mark.rule("W4-MOVE-11")
@pytest.mark.rule("W4-AMB-93")
def test_wheel_distance_under_both_readings() -> None:
    assert wheel_distance(6.0, 2.0, 90.0) == pytest.approx(3 * math.pi)
    assert wheel_distance(6.0, 8.0, 90.0, farthest_corner=True) == pytest.approx(5 * math.pi)
    assert wheel_distance(6.0, 8.0, 0.0) == 0.0


@pytest.mark.rule("W4-MOVE-24")
def test_a_wheel_through_difficult_ground_pays_double_for_that_part_of_the_arc() -> None:
    tray = Tray((0.0, -1.0), 0.0, 4.0, 2.0)
    bog = Region.rect("bog", "marsh", -10, 0, 20, 20, difficult=True)  # all ahead of the front
    assert arc_cost(tray, "right", 90.0, [bog]) == pytest.approx(2 * wheel_distance(4, 2, 90))
    assert arc_cost(tray, "right", 90.0, []) == pytest.approx(wheel_distance(4, 2, 90))


@pytest.mark.rule("W4-MOVE-16")
def test_a_reform_stands_about_the_same_centre() -> None:
    frame = reform_frame((5.0, 5.0), 90.0, 3, 2, 2.0, 1.5)
    assert frame.centre == (5.0, 5.0) and (frame.width, frame.depth) == (6.0, 3.0)
    assert frame.facing == 90.0
    with pytest.raises(ValueError):
        reform_frame((5.0, 5.0), 0.0, 0, 2, 2.0, 1.5)


@pytest.mark.rule("W4-MOVE-24")
@pytest.mark.rule("W4-MOVE-25")
@pytest.mark.rule("W4-AMB-58")
def test_speed_six_after_three_inches_of_open_ground_goes_one_and_a_half_into_difficult() -> None:
    tray = Tray((0.0, -1.0), 0.0, 4.0, 2.0)  # front edge on y = 0
    bog = Region.rect("bog", "marsh", -10, 3, 20, 20, difficult=True)  # starts 3" ahead
    assert reach(tray, 0.0, 6.0, [bog]) == pytest.approx(4.5)
    assert advance_cost(tray, 4.5, 0.0, [bog]) == pytest.approx(6.0)
    assert advance_cost(tray, 3.0, 0.0, [bog]) == pytest.approx(3.0)


def test_impassable_ground_stops_the_reach_at_its_edge() -> None:
    tray = Tray((0.0, -1.0), 0.0, 4.0, 2.0)
    rock = Region.rect("rock", "cliff", 1, 2, 5, 5, impassable=True)  # under the right corner
    assert reach(tray, 0.0, 6.0, [rock]) == pytest.approx(2.0)


def test_first_contact_of_a_sliding_tray() -> None:
    tray = Tray((0.0, 0.0), 0.0, 2.0, 2.0)
    wall = [Tray((2.0, 6.0), 45.0, 2.0, 2.0)]  # a diamond; its south-west edge crosses x = 1
    hit = first_contact(tray, 0.0, 20.0, wall)  # at y = 7 - sqrt 2, met by the corner (1, 1)
    assert hit == pytest.approx(6.0 - math.sqrt(2.0))
    assert tray_gap(advance(tray, hit), wall[0]) == pytest.approx(0.0, abs=1e-9)
    assert tray_gap(advance(tray, hit - 0.01), wall[0]) > 0
    assert first_contact(tray, 180.0, 20.0, wall) is None


@given(trays(), trays(), facings, st.floats(0, 20))
@settings(max_examples=150, deadline=None)
def test_moves_cut_at_first_contact_never_end_overlapping(
        tray: Tray, other: Tray, heading: float, length: float) -> None:
    if tray_gap(tray, other) <= 1e-6:
        return
    veer = turn_between(tray.facing, heading)
    if abs(veer) > 45:
        return
    hit = first_contact(tray, heading, length, [other])
    end = advance(tray, length if hit is None else hit, veer)
    assert not trays_overlap(end, other, 1e-6)
    swept = swept_area([tray, end])
    if hit is None:
        assert swept.distance(other.polygon) > 0 or tray_gap(end, other) < 1e-6


@given(trays(), trays(), st.sampled_from(["left", "right"]), st.floats(1, 180))
@settings(max_examples=100, deadline=None)
def test_a_wheel_whose_swept_area_is_clear_never_ends_on_another_tray(
        tray: Tray, other: Tray, side: str, degrees: float) -> None:
    path = wheel_path(tray, side, degrees)
    swept = swept_area(path, wheel_pivot(tray, side))
    if swept.distance(other.polygon) > 0:
        for position in path:
            assert not trays_overlap(position, other)
    turning = pivot_path(tray, degrees)
    if swept_area(turning, tray.centre).distance(other.polygon) > 0:
        assert not trays_overlap(turning[-1], other)


@given(trays(), st.sampled_from(["left", "right"]), st.floats(1, 180))
@settings(max_examples=60, deadline=None)
def test_the_swept_area_of_a_wheel_covers_every_intermediate_position(
        tray: Tray, side: str, degrees: float) -> None:
    swept = swept_area(wheel_path(tray, side, degrees), wheel_pivot(tray, side))
    for k in range(1, 40):
        assert swept.buffer(1e-6).covers(wheel(tray, side, degrees * k / 40).polygon)
