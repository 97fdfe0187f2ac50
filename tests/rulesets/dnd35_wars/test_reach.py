"""Tests for attacker counts, line of sight and multipliers from counter geometry (reach.py)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warhost.geometry.grid import DIRECTIONS8, Square
from warhost.rulesets.dnd35_wars.reach import (
    attackers_on_single,
    counters_with_sight,
    creatures_per_side,
    line_of_sight,
    melee_multiplier,
    ranged_attackers_on_single,
    ranged_multiplier,
)

rule = pytest.mark.rule

MEDIUM, LARGE, HUGE = 1, 2, 3


def block(w: int, h: int, x: int = 0, y: int = 0) -> frozenset[Square]:
    return frozenset((x + i, y + j) for i in range(w) for j in range(h))


def ring_around(sq: Square) -> frozenset[Square]:
    return frozenset((sq[0] + dx, sq[1] + dy) for dx, dy in DIRECTIONS8)


# --------------------------------------------------------------------------- melee on a creature


@rule("W35-DMG-09", "W35-DMG-10", "W35-AMB-31")
def test_medium_among_medium_is_eight_and_flanked() -> None:
    assert attackers_on_single((5, 5), MEDIUM, MEDIUM, ring_around((5, 5)), 100) == (8, True)


@rule("W35-DMG-11", "W35-DMG-09", "W35-DMG-10", "W35-AMB-31")
def test_seed_orc_example_pc_inside_the_unit() -> None:
    # A 5-ft PC has walked into the middle counter of a 3x3 block of 5-ft orcs (9 a counter).
    orcs = block(3, 3)
    attackers, surrounded = attackers_on_single((1, 1), MEDIUM, MEDIUM, orcs, 81)
    assert attackers == 8
    assert surrounded  # hence +2 flanking


@rule("W35-DMG-09", "W35-DMG-10", "W35-AMB-31")
def test_large_among_medium_is_twelve() -> None:
    assert attackers_on_single((0, 0), LARGE, MEDIUM, ring_around((0, 0)), 100) == (12, True)


@rule("W35-DMG-09", "W35-DMG-10", "W35-AMB-31")
def test_medium_among_large_is_four_without_corners() -> None:
    assert attackers_on_single((0, 0), MEDIUM, LARGE, ring_around((0, 0)), 100) == (4, True)
    # Corners never count when the attackers are bigger: a diagonal counter alone gives none.
    assert attackers_on_single((0, 0), MEDIUM, LARGE, {(1, 1)}, 100) == (0, False)
    assert attackers_on_single((0, 0), MEDIUM, MEDIUM, {(1, 1)}, 100) == (1, False)


@rule("W35-DMG-09", "W35-AMB-31")
def test_medium_against_a_straight_medium_front_is_three() -> None:
    front = block(5, 1, -2, 1)  # the row just north of the target
    assert attackers_on_single((0, 0), MEDIUM, MEDIUM, front, 100) == (3, False)
    # A single counter on one side still reaches both corners of that side.
    assert attackers_on_single((0, 0), MEDIUM, MEDIUM, {(0, 1)}, 100) == (3, False)
    # A Large target against the same front: 2 along the side plus the 2 corners.
    assert attackers_on_single((0, 0), LARGE, MEDIUM, front, 100) == (4, False)


@rule("W35-DMG-09", "W35-DMG-10", "W35-AMB-31")
def test_seven_of_eight_neighbours_is_not_surrounded() -> None:
    almost = ring_around((0, 0)) - {(0, -1)}
    # Three sides, and every corner still has its diagonal counter: 7, but no flanking.
    assert attackers_on_single((0, 0), MEDIUM, MEDIUM, almost, 100) == (7, False)


@rule("W35-DMG-09", "W35-AMB-31")
def test_attackers_are_capped_at_the_derived_creatures() -> None:
    assert attackers_on_single((0, 0), LARGE, MEDIUM, ring_around((0, 0)), 10) == (10, True)
    assert attackers_on_single((0, 0), MEDIUM, MEDIUM, {(0, 0)}, 5) == (5, True)
    assert attackers_on_single((0, 0), MEDIUM, MEDIUM, {(9, 9)}, 5) == (0, False)


@rule("W35-AMB-31")
def test_huge_among_large_and_bad_sizes() -> None:
    # s = max(1, floor(3 / 2)) = 1; corners count since 2 <= 3.
    assert attackers_on_single((0, 0), HUGE, LARGE, ring_around((0, 0)), 100) == (8, True)
    with pytest.raises(ValueError, match="at least one cell"):
        attackers_on_single((0, 0), 0, MEDIUM, set(), 1)


@rule("W35-AMB-31")
@given(
    st.frozensets(st.sampled_from(DIRECTIONS8)),
    st.sampled_from(DIRECTIONS8),
    st.sampled_from([1, 2, 3, 4, 6]),
    st.sampled_from([1, 2, 3, 4, 6]),
)
def test_more_counters_never_mean_fewer_attackers(
    around: frozenset[Square], extra: Square, t: int, a: int
) -> None:
    before, _ = attackers_on_single((0, 0), t, a, around, 1000)
    after, _ = attackers_on_single((0, 0), t, a, around | {extra}, 1000)
    assert before <= after
    s = max(1, t // a)
    assert after <= 4 * s + (4 if a <= t else 0)


# --------------------------------------------------------------------------- ranged on a creature


@rule("W35-AMB-32")
@pytest.mark.parametrize(
    ("scale_ft", "per_side"), [(15, 3), (25, 5), (50, 10), (100, 20), (200, 40)]
)
def test_creatures_per_side_for_medium_units(scale_ft: int, per_side: int) -> None:
    # A Medium creature fills a 5-ft square, so a counter holds (scale / 5) squared of them.
    assert creatures_per_side(Fraction(scale_ft // 5) ** 2) == per_side


@rule("W35-AMB-32")
def test_creatures_per_side_of_fractions_and_small_counters() -> None:
    assert creatures_per_side(Fraction(17, 2)) == 2  # 51 creatures over 6 counters: 8.5 a counter
    assert creatures_per_side(Fraction(1, 2)) == 1
    assert creatures_per_side(Fraction(1)) == 1
    with pytest.raises(ValueError, match="negative"):
        creatures_per_side(Fraction(-1))


@rule("W35-AMB-32")
@given(st.fractions(min_value=0, max_value=5000))
def test_creatures_per_side_is_the_floor_of_the_square_root(per_counter: Fraction) -> None:
    n = creatures_per_side(per_counter)
    assert n >= 1
    if per_counter >= 1:
        assert n * n <= per_counter < (n + 1) * (n + 1)


def sees_all(counter: Square, target: Square) -> bool:
    return True


@rule("W35-DMG-12", "W35-AMB-32")
def test_ranged_attackers_count_exposed_facing_sides() -> None:
    unit = block(3, 2)  # 15-ft Medium: 9 a counter, 3 a side
    nine = Fraction(9)
    # Due north: the three front north sides.
    assert ranged_attackers_on_single(unit, (1, 6), nine, sees_all) == 9
    # North-east: three north sides and two east sides.
    assert ranged_attackers_on_single(unit, (6, 6), nine, sees_all) == 15
    # Due east, level with the front rank: only the two east sides (not the north one).
    assert ranged_attackers_on_single(unit, (5, 1), nine, sees_all) == 6
    # Inside the unit's box no side has the target strictly beyond it.
    assert ranged_attackers_on_single(block(3, 3), (1, 1), nine, sees_all) == 0


@rule("W35-DMG-12", "W35-AMB-32", "W35-AMB-35")
def test_ranged_attackers_only_from_counters_with_sight() -> None:
    unit = block(3, 2)

    def blind_corner(counter: Square, target: Square) -> bool:
        return counter != (2, 1)

    # (2, 1) had a north and an east side toward the target; both are lost.
    assert ranged_attackers_on_single(unit, (6, 6), Fraction(9), blind_corner) == 9

    # With real sight the unit's other counters block too (W35-AMB-35).
    def sight_past(wall: Square) -> Callable[[Square, Square], bool]:
        def sees(counter: Square, target: Square) -> bool:
            return line_of_sight(counter, target, (unit - {counter}) | {wall})

        return sees

    # A wall two squares north of the middle counter hides the target from it alone.
    assert ranged_attackers_on_single(unit, (1, 6), Fraction(9), sight_past((1, 3))) == 6
    # North-east: (0, 1) looks through (1, 1) and (2, 0) through (2, 1), so only (1, 1) (north
    # side) and (2, 1) (north and east sides) shoot: 3 sides, not 5.
    assert ranged_attackers_on_single(unit, (6, 6), Fraction(9), sight_past((9, 9))) == 9


# --------------------------------------------------------------------------- line of sight


@rule("W35-AMB-35")
def test_line_of_sight_blocked_by_squares_but_not_by_grazed_corners() -> None:
    assert not line_of_sight((0, 0), (2, 2), {(1, 1)})
    assert line_of_sight((0, 0), (1, 1), {(1, 0), (0, 1)})  # corner graze only
    assert line_of_sight((0, 0), (4, 0), lambda sq: sq[1] != 0)
    assert not line_of_sight((0, 0), (4, 0), lambda sq: sq == (2, 0))
    assert line_of_sight((0, 0), (3, 0), {(0, 0), (3, 0)})  # the ends never block


@rule("W35-AMB-35")
def test_front_ranks_block_the_counters_behind() -> None:
    column = block(1, 3)  # (0, 0), (0, 1), (0, 2)
    target = {(0, 6)}
    got = counters_with_sight(column, target, column)
    assert got == ((0, 2),)


@rule("W35-AMB-35")
def test_target_squares_never_block_a_line_to_another_target_square() -> None:
    # To (2, 1) the line crosses the obstacle (1, 1); to (3, 1) it crosses only (1, 0) and the
    # target's own (2, 1), which does not block.
    target = {(2, 1), (3, 1)}
    blocked = {(1, 1)} | target
    assert counters_with_sight([(0, 0)], target, blocked) == ((0, 0),)
    assert counters_with_sight([(0, 0)], {(2, 1)}, blocked) == ()
    assert counters_with_sight([(0, 0)], target, {(1, 1), (1, 0)}) == ()


# --------------------------------------------------------------------------- unit multipliers


@rule("W35-DMG-02", "W35-UATK-07")
def test_melee_multiplier_counts_side_contacts_only() -> None:
    mine = block(4, 2)  # y 0..1
    theirs = block(2, 2, 1, 2)  # x 1..2, y 2..3
    assert melee_multiplier(mine, theirs) == 2
    assert melee_multiplier(mine, block(2, 2, 4, 2)) == 0  # corner contact only
    assert melee_multiplier(mine, block(1, 2, 4, 0)) == 2  # two counters along the east flank


@rule("W35-DMG-05")
def test_arcing_fire_takes_the_smaller_counter_count() -> None:
    assert ranged_multiplier(5, 3, crossbow=False) == 3
    assert ranged_multiplier(2, 6, crossbow=False) == 2


@rule("W35-DMG-07", "W35-AMB-34")
def test_crossbows_multiply_by_firing_counters_unless_capped() -> None:
    assert ranged_multiplier(5, 3, crossbow=True) == 5
    assert ranged_multiplier(5, 3, crossbow=True, crossbow_cap_by_target=True) == 3
    with pytest.raises(ValueError, match="negative"):
        ranged_multiplier(-1, 3, crossbow=True)
