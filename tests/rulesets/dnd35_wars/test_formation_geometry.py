"""The dnd35-wars formation rulings checked on the core counter-formation geometry."""

from __future__ import annotations

import pytest

from warhost.geometry.grid import (
    Square,
    entered_squares,
    formation_ok,
    forward_most,
    heading_of,
    holes,
    projection,
    removal_ok,
    removal_order,
    straight_path,
    unit_distance,
)

rule = pytest.mark.rule


def block(w: int, h: int, x: int = 0, y: int = 0) -> frozenset[Square]:
    return frozenset((x + i, y + j) for i in range(w) for j in range(h))


@rule("W35-TERM-06", "W35-FORM-03")
def test_counters_must_join_by_sides() -> None:
    mob = {(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)}  # irregular but side-connected
    assert formation_ok(mob)
    assert not formation_ok({(0, 0), (1, 0), (2, 1)})  # (2, 1) meets the rest at a corner only
    assert formation_ok(block(4, 2))


@rule("W35-TERM-06", "W35-FORM-04", "W35-AMB-42")
def test_holes_are_enclosed_free_squares() -> None:
    ring = block(4, 3) - {(1, 1), (2, 1)}
    assert holes(ring) == {(1, 1), (2, 1)}
    assert not formation_ok(ring)
    # The corner gap does not let the inside out: only 4-connected free squares escape.
    cut_corner = block(3, 3) - {(1, 1), (2, 2)}
    assert holes(cut_corner) == {(1, 1)}
    # A notch in the edge reaches the bounding box's outside: not a hole.
    notch = block(3, 2) - {(1, 1)}
    assert holes(notch) == frozenset()
    assert formation_ok(notch)


@rule("W35-AMB-42")
def test_heading_is_the_sign_vector_and_projection_measures_forward() -> None:
    heading = heading_of(3, -5)
    assert heading == (1, -1)
    unit = block(2, 2)
    assert forward_most(unit, heading) == 1  # the (1, 0) corner
    assert projection((2, 0), heading) == 2 > forward_most(unit, heading)


@rule("W35-AMB-40")
def test_charge_moves_the_formation_along_the_bresenham_line() -> None:
    unit = block(2, 1)  # (0, 0), (1, 0)
    path = straight_path(unit, 3, 1)
    # bresenham((0, 0), (3, 1)) = (0, 0), (1, 0), (2, 1), (3, 1)
    assert path == [{(1, 0), (2, 0)}, {(2, 1), (3, 1)}, {(3, 1), (4, 1)}]
    assert entered_squares(path, unit) == {(2, 0), (2, 1), (3, 1), (4, 1)}


@rule("W35-AMB-36")
def test_unit_distance_is_the_least_chebyshev_over_squares() -> None:
    a = block(3, 2)
    # Diagonal steps count 1: (2, 1) to (5, 3) is 3.
    assert unit_distance(a, block(2, 2, 5, 3)) == 3
    # One open square between means distance 2; corner contact is distance 1.
    assert unit_distance(a, {(4, 0)}) == 2
    assert unit_distance(a, {(3, 2)}) == 1
    # A ragged formation measures from its nearest counter, not its bounding box.
    ell = {(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3)}
    assert unit_distance(ell, {(3, 3)}) == 3


@rule("W35-AMB-90", "W35-DMG-18")
def test_losses_come_off_the_rear_and_keep_the_formation() -> None:
    unit = block(4, 3)  # ranks y = 0, 1, 2; the enemy stands to the north
    enemy = block(4, 1, 0, 4)
    gone = removal_order(unit, enemy, 5)
    assert gone[:4] == ((0, 0), (1, 0), (2, 0), (3, 0))  # the whole rear rank first
    assert gone[4] == (0, 1)
    assert removal_ok(unit, gone)
    assert formation_ok(unit - set(gone))


@rule("W35-AMB-90")
def test_removal_skips_a_counter_whose_loss_would_split_the_unit() -> None:
    # A U open toward the enemy: every counter of the bottom row is among the farthest, but
    # each one's removal splits the unit, so the nearer tip of the left arm goes first.
    unit = {(0, 0), (1, 0), (2, 0), (0, 1), (2, 1)}
    enemy = {(1, 9)}
    assert removal_order(unit, enemy, 1) == ((0, 1),)
    assert not removal_ok(unit, [(0, 0)])
    assert removal_ok(unit, [(0, 1)])
