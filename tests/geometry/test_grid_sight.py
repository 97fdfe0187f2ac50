"""Tests for grid lines, sight, cover and area shapes in the square-grid geometry."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warhost.core.metering import GEOMETRY, metered
from warhost.geometry.grid import (
    Square,
    bresenham,
    bresenham_ray,
    burst_squares,
    chebyshev,
    has_line_of_sight,
    in_cover,
    sight_line,
    wave_squares,
)

coords = st.integers(-25, 25)
squares = st.tuples(coords, coords)
board = st.tuples(st.integers(0, 19), st.integers(0, 19))


def ref_enters(a: Square, b: Square, sq: Square) -> bool:
    """Fraction reference: does the segment between the centres of a and b meet sq's interior?"""
    lo, hi = Fraction(0), Fraction(1)
    for i in (0, 1):
        p = Fraction(2 * a[i] + 1, 2)
        d = b[i] - a[i]
        if d == 0:
            if not sq[i] < p < sq[i] + 1:
                return False
            continue
        t0 = (sq[i] - p) / d
        t1 = (sq[i] + 1 - p) / d
        lo = max(lo, min(t0, t1))
        hi = min(hi, max(t0, t1))
    return lo < hi


def ref_sight_line(a: Square, b: Square) -> set[Square]:
    return {
        (x, y)
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
        if (x, y) not in (a, b) and ref_enters(a, b, (x, y))
    }


def ref_in_wave(origin: Square, aim: Square, sq: Square) -> bool:
    """Float reference for the 15-degree test (no lattice angle is near enough 15 to matter)."""
    ux, uy = aim[0] - origin[0], aim[1] - origin[1]
    vx, vy = sq[0] - origin[0], sq[1] - origin[1]
    angle = math.degrees(abs(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)))
    return angle < 15


# --------------------------------------------------------------------------- Bresenham


def test_bresenham_examples() -> None:
    assert bresenham((2, 2), (2, 2)) == [(2, 2)]
    assert bresenham((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert bresenham((0, 0), (-2, -2)) == [(0, 0), (-1, -1), (-2, -2)]
    assert bresenham((0, 0), (5, 1)) == [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 1)]
    assert bresenham((0, 0), (1, 3)) == [(0, 0), (0, 1), (1, 2), (1, 3)]
    # Ties (the true line exactly between two squares) take the lower coordinate, both ways.
    assert bresenham((0, 0), (4, 2)) == [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)]
    assert bresenham((4, 2), (0, 0)) == [(4, 2), (3, 1), (2, 1), (1, 0), (0, 0)]
    assert bresenham((0, 0), (2, -1)) == [(0, 0), (1, -1), (2, -1)]
    assert bresenham((2, -1), (0, 0)) == [(2, -1), (1, -1), (0, 0)]


@given(squares, squares)
def test_bresenham_properties(a: Square, b: Square) -> None:
    line = bresenham(a, b)
    assert line[0] == a
    assert line[-1] == b
    assert len(line) == chebyshev(a, b) + 1
    assert all(chebyshev(p, q) == 1 for p, q in pairwise(line))
    assert bresenham(b, a) == line[::-1]


@given(squares, squares)
def test_bresenham_takes_the_nearest_square_across_the_line(a: Square, b: Square) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = chebyshev(a, b)
    if n == 0:
        return
    major, minor = (0, 1) if abs(dx) >= abs(dy) else (1, 0)
    d_minor = (dx, dy)[minor]
    for i, sq in enumerate(bresenham(a, b)):
        assert abs(sq[major] - a[major]) == i
        true = a[minor] + Fraction(i * d_minor, n)
        off = sq[minor] - true
        # Nearest square; exactly half-way (off = -1/2) takes the lower one.
        assert -Fraction(1, 2) <= off < Fraction(1, 2)


def test_bresenham_ray() -> None:
    assert bresenham_ray((0, 0), (2, 1), 4) == [(1, 0), (2, 1), (3, 1), (4, 2)]
    assert bresenham_ray((5, 5), (5, 6), 3) == [(5, 6), (5, 7), (5, 8)]
    assert bresenham_ray((0, 0), (3, 3), 0) == []
    assert bresenham_ray((0, 0), (4, 2), 2) == [(1, 0), (2, 1)]
    with pytest.raises(ValueError):
        bresenham_ray((1, 1), (1, 1), 3)
    with pytest.raises(ValueError):
        bresenham_ray((1, 1), (2, 1), -1)


@given(squares, squares, st.integers(0, 40))
def test_bresenham_ray_follows_the_line(a: Square, aim: Square, length: int) -> None:
    if a == aim:
        return
    ray = bresenham_ray(a, aim, length)
    assert len(ray) == length
    assert all(chebyshev(p, q) == 1 for p, q in pairwise([a, *ray]))
    assert all(chebyshev(a, sq) == i for i, sq in enumerate(ray, start=1))
    n = chebyshev(a, aim)
    assert ray[:n] == bresenham(a, aim)[1 : length + 1]
    if length >= n:
        assert ray[n - 1] == aim


# --------------------------------------------------------------------------- sight lines


def test_sight_line_examples() -> None:
    assert sight_line((3, 3), (3, 3)) == []
    assert sight_line((0, 0), (1, 0)) == []
    assert sight_line((0, 0), (1, 1)) == []
    assert sight_line((0, 0), (4, 0)) == [(1, 0), (2, 0), (3, 0)]
    assert sight_line((0, 4), (0, 0)) == [(0, 3), (0, 2), (0, 1)]
    # A diagonal passes only through corners between its squares: the side squares are grazed.
    assert sight_line((0, 0), (3, 3)) == [(1, 1), (2, 2)]
    assert sight_line((0, 0), (2, 1)) == [(1, 0), (1, 1)]
    assert sight_line((0, 0), (3, 1)) == [(1, 0), (2, 1)]  # through the corner point (2, 1)
    assert sight_line((0, 0), (1, 2)) == [(0, 1), (1, 1)]
    assert sight_line((5, 5), (1, 4)) == [(4, 5), (3, 5), (3, 4), (2, 4)]


@given(squares, squares)
def test_sight_line_matches_the_fraction_reference(a: Square, b: Square) -> None:
    line = sight_line(a, b)
    assert len(set(line)) == len(line)
    assert set(line) == ref_sight_line(a, b)


@given(squares, squares)
def test_sight_line_is_symmetric(a: Square, b: Square) -> None:
    forward = sight_line(a, b)
    assert a not in forward
    assert b not in forward
    assert sight_line(b, a) == forward[::-1]
    assert set(sight_line(b, a)) == set(forward)


def test_sight_line_is_metered() -> None:
    with metered() as meter:
        sight_line((0, 0), (4, 0))
    assert meter[GEOMETRY] == 4


def test_line_of_sight_and_cover() -> None:
    wall = {(2, 0), (5, 5)}
    hedge = {(1, 1), (6, 6)}
    blocks = wall.__contains__
    cover = hedge.__contains__
    assert not has_line_of_sight((0, 0), (4, 0), blocks)
    assert not has_line_of_sight((4, 0), (0, 0), blocks)
    assert has_line_of_sight((0, 0), (2, 0), blocks)  # the end squares never block
    assert has_line_of_sight((2, 0), (5, 5), blocks)
    assert has_line_of_sight((0, 1), (4, 1), blocks)
    # (2, 0) lies beside the segment (1, 1)->(3, 0), which crosses into it: blocked.
    assert not has_line_of_sight((1, 1), (3, 0), blocks)
    assert not has_line_of_sight((1, 1), (3, -1), blocks)  # through the wall square's centre
    # Grazing a corner of the wall square does not block: (1, 0)->(3, 2) passes the point (2, 1).
    assert sight_line((1, 0), (3, 2)) == [(2, 1)]
    assert has_line_of_sight((1, 0), (3, 2), blocks)
    assert has_line_of_sight((3, 3), (3, 3), blocks)
    # Cover: the target's own square, or a cover square on the line.
    assert in_cover((3, 3), (6, 6), cover)
    assert in_cover((0, 0), (2, 2), cover)
    assert in_cover((2, 2), (0, 0), lambda sq: sq == (0, 0))
    assert not in_cover((1, 1), (3, 3), cover)  # the attacker's own cover does not count
    assert not in_cover((0, 0), (2, 0), cover)


# --------------------------------------------------------------------------- waves and bursts


@pytest.mark.rule("WB-SPECIAL-02", "WB-TURN-05")
def test_wave_examples() -> None:
    # Straight north from (5, 5), range 4: one square wide until the 4th row, where 1/4 < tan 15.
    assert wave_squares((5, 5), (5, 9), 4, 20, 20) == [
        (4, 9),
        (5, 6),
        (5, 7),
        (5, 8),
        (5, 9),
        (6, 9),
    ]
    # The aim square only sets the direction; a nearer or farther aim on the same line agrees.
    assert wave_squares((5, 5), (5, 6), 4, 20, 20) == wave_squares((5, 5), (5, 19), 4, 20, 20)
    # Diagonal: bearings strictly between 30 and 60 degrees.
    assert wave_squares((0, 0), (1, 1), 3, 20, 20) == [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3)]
    # The board edge cuts it.
    assert wave_squares((5, 5), (5, 9), 4, 20, 8) == [(5, 6), (5, 7)]


@pytest.mark.rule("WB-SPECIAL-02")
def test_wave_near_15_degrees() -> None:
    wave = set(wave_squares((0, 0), (1, 0), 30, 40, 40))
    assert (4, 1) in wave  # 14.04 degrees
    assert (15, 4) in wave  # 14.93 degrees
    assert (11, 3) not in wave  # 15.26 degrees
    assert (26, 7) not in wave  # 15.07 degrees
    assert (30, 8) in wave  # 14.93 degrees
    assert (0, 0) not in wave
    with pytest.raises(ValueError):
        wave_squares((2, 2), (2, 2), 3, 10, 10)


@pytest.mark.rule("WB-SPECIAL-02")
def test_wave_with_line_of_sight() -> None:
    # The squares behind the wall drop out (all four lines cross (5, 7)); the wall square itself
    # is still struck.
    blocks = {(5, 7)}.__contains__
    assert wave_squares((5, 5), (5, 9), 4, 20, 20, blocks) == [(5, 6), (5, 7)]
    # A wall at (5, 8) hides only (5, 9): the lines to (4, 9) and (6, 9) leave column 5 at y 7.5.
    blocks = {(5, 8)}.__contains__
    assert wave_squares((5, 5), (5, 9), 4, 20, 20, blocks) == [
        (4, 9),
        (5, 6),
        (5, 7),
        (5, 8),
        (6, 9),
    ]
    blocks = {(6, 8)}.__contains__
    assert wave_squares((5, 5), (5, 9), 4, 20, 20, blocks) == [
        (4, 9),
        (5, 6),
        (5, 7),
        (5, 8),
        (5, 9),
    ]


@pytest.mark.rule("WB-SPECIAL-02", "WB-TURN-05")
@given(board, board, st.integers(0, 12))
def test_wave_properties(origin: Square, aim: Square, reach: int) -> None:
    if origin == aim:
        return
    wave = wave_squares(origin, aim, reach, 20, 20)
    assert origin not in wave
    assert wave == sorted(set(wave))
    assert all(chebyshev(origin, sq) <= reach for sq in wave)
    expected = [
        (x, y)
        for x in range(20)
        for y in range(20)
        if (x, y) != origin
        and chebyshev(origin, (x, y)) <= reach
        and ref_in_wave(origin, aim, (x, y))
    ]
    assert wave == expected
    # The wave runs along the aim: the first square of the grid line toward the aim is in it.
    first = bresenham(origin, aim)[1]
    if reach >= 1 and ref_in_wave(origin, aim, first):
        assert first in wave


@pytest.mark.rule("WB-SPECIAL-04", "WB-TURN-05")
def test_burst_examples() -> None:
    assert burst_squares((5, 5), 0, 10, 10) == [(5, 5)]
    assert burst_squares((5, 5), 1, 10, 10) == [
        (4, 4),
        (4, 5),
        (4, 6),
        (5, 4),
        (5, 5),
        (5, 6),
        (6, 4),
        (6, 5),
        (6, 6),
    ]
    assert len(burst_squares((5, 5), 2, 10, 10)) == 25
    # Clipped by the board.
    assert burst_squares((0, 0), 1, 10, 10) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert len(burst_squares((9, 0), 3, 10, 10)) == 16
    # Behind a wall from the point struck: out. The lines to (3, 7) and (7, 7) only graze the
    # wall square's corners.
    walls = {(5, 6)}.__contains__
    burst = burst_squares((5, 5), 2, 10, 10, walls)
    assert set(burst_squares((5, 5), 2, 10, 10)) - set(burst) == {(4, 7), (5, 7), (6, 7)}
    assert (5, 6) in burst
    assert (3, 7) in burst
    assert (7, 7) in burst
    with metered() as meter:
        burst_squares((5, 5), 2, 10, 10)
    assert meter[GEOMETRY] == 25


@pytest.mark.rule("WB-SPECIAL-04", "WB-TURN-05")
@given(board, st.integers(0, 6))
def test_burst_is_the_chebyshev_ball(centre: Square, radius: int) -> None:
    burst = burst_squares(centre, radius, 20, 20)
    expected = [(x, y) for x in range(20) for y in range(20) if chebyshev(centre, (x, y)) <= radius]
    assert burst == expected
    assert centre in burst
