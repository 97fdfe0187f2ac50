"""Rule tests of the tray geometry of dnd4e-war (measuring, arcs, sight, cover), on plain
trays: a company is a ``Tray``, a unit a list of them. Values are worked by hand."""

from __future__ import annotations

import doctest

import pytest
from shapely.geometry import LineString, box
from shapely.geometry import Point as ShapelyPoint

from warhost.geometry import table
from warhost.geometry.table import (
    Board,
    Tray,
    arc_polygon,
    block_of,
    clear_sight,
    cover_by_majority,
    line_clear,
    majority_arc,
    nearest_edge_of_tray,
    sees,
    sight_line,
    tray_gap,
    trays_gap,
    trays_overlap,
    unit_arc,
    within,
)

COVER, SUPERIOR_COVER = 2, 5  # W4-AMB-46 values (AC)


def company(x: float, y: float, facing: float = 0.0, width: float = 4.0,
            depth: float = 2.0) -> Tray:
    return Tray((x, y), facing, width, depth)


# --------------------------------------------------------------------------- measuring


@pytest.mark.rule("W4-MEAS-01")
def test_distances_are_continuous_inches_not_grid_steps() -> None:
    a = company(0.0, 0.0)
    # Corner to corner 3" east and 4" north: 5" as the crow flies (a grid would say 4 or 7).
    assert tray_gap(a, company(7.0, 6.0)) == pytest.approx(5.0)
    assert tray_gap(a, company(0.0, 5.25)) == 3.25
    assert tray_gap(a, company(7.3, 0.0)) == pytest.approx(3.3)


@pytest.mark.rule("W4-MEAS-02")
def test_a_range_of_20_reaches_20_inches() -> None:
    archers = company(10.0, 0.0)
    at_20 = company(10.0, 22.0, 180.0)  # front edges at y = 1 and y = 21
    assert tray_gap(archers, at_20) == 20.0
    assert within(archers, at_20, 20)
    assert not within(archers, at_20.moved(0.0, 0.01), 20)


@pytest.mark.rule("W4-MEAS-03")
def test_units_are_measured_between_the_closest_points_of_their_trays() -> None:
    # Two companies side by side against one company turned 45 degrees: the nearest
    # company's corner decides, not the units' centres.
    elves = [company(0.0, 0.0), company(4.0, 0.0)]
    spider = Tray((12.0, 0.0), 45.0, 2.0, 2.0)  # its west corner at x = 12 - sqrt(2)
    assert trays_gap(elves, spider) == pytest.approx(12.0 - 2**0.5 - 6.0)
    assert trays_gap(elves, spider) == pytest.approx(
        min(float(e.polygon.distance(spider.polygon)) for e in elves))
    # Bases of skirmishers are trays of their own.
    bases = [Tray((x, 8.0), 0.0, 1.0, 1.0) for x in (-3.0, 5.0)]
    assert trays_gap(elves, bases) == 6.5  # the base at x = 5 over the second company


@pytest.mark.rule("W4-MEAS-04")
def test_seed_example_elves_and_spider_4_inches_apart_are_within_4() -> None:
    elves = [company(0.0, 0.0), company(4.0, 0.0)]  # front edge y = 1
    spider = Tray((2.0, 7.0), 180.0, 4.0, 4.0)  # its front edge y = 5: 4" away
    assert trays_gap(elves, spider) == 4.0
    assert within(elves, spider, 4) and within(spider, elves, 4)
    assert not within(elves, spider, 3.99)


@pytest.mark.rule("W4-MEAS-04")
def test_seed_example_elves_and_drow_2_inches_apart_are_within_2() -> None:
    elves = [company(0.0, 0.0), company(4.0, 0.0)]  # right flank edge x = 6
    drow = [company(9.0, 0.0, 270.0), company(9.0, 4.0, 270.0)]  # west edge x = 8
    assert trays_gap(elves, drow) == 2.0
    assert within(drow, elves, 2) and not within(drow, elves, 1.99)
    assert within(elves, drow, 4)  # within 2" is also within any greater distance


# --------------------------------------------------------------------------- arcs


@pytest.mark.rule("W4-UNIT-04")
def test_arcs_run_from_45_degree_lines_out_of_the_corners() -> None:
    wide = company(0.0, 0.0, width=10.0, depth=1.0)  # corners at x = +-5, y = +-0.5
    # 0.5" right of the front-right corner and 1" ahead: inside the front arc, though a
    # line from the centre to it is 75 degrees off the facing.
    assert wide.arc_of((5.5, 1.5)) == "front"
    assert wide.arc_of((6.5, 1.5)) == "right"
    assert wide.arc_of((-6.5, 1.5)) == "left"
    assert wide.arc_of((0.0, -3.0)) == "rear"
    assert wide.arc_of((5.5, -1.5)) == "rear" and wide.arc_of((6.5, -1.5)) == "right"
    # The arcs turn with the company.
    east = company(0.0, 0.0, facing=90.0, width=10.0, depth=1.0)
    assert east.arc_of((1.5, -5.5)) == "front" and east.arc_of((1.5, -6.5)) == "right"


@pytest.mark.rule("W4-UNIT-04")
def test_a_unit_of_several_companies_has_the_arcs_of_its_whole_block() -> None:
    unit = [company(x, y) for y in (0.0, -2.0) for x in (0.0, 4.0, 8.0)]
    assert block_of(unit) == Tray((4.0, -1.0), 0.0, 12.0, 4.0)
    # Beside the unit's right flank, level with the front rank: ahead of the rear-right
    # company's own front corner line, but in the right arc of the unit's block.
    assert unit[5].arc_of((10.5, 0.0)) == "front"
    assert unit_arc(unit, (10.5, 0.0)) == "right"
    assert unit_arc(unit, (-3.0, -2.0)) == "left"


@pytest.mark.rule("W4-UNIT-05")
def test_a_company_sees_only_inside_its_front_arc() -> None:
    c = company(0.0, 0.0)  # front edge y = 1 from x = -2 to 2
    assert sees(c, company(0.0, 10.0).polygon)
    assert sees(c, company(9.0, 10.0).polygon)  # partly beyond the corner line: enough
    assert not sees(c, company(12.0, 3.0).polygon)  # in the right flank arc
    assert not sees(c, company(0.0, -8.0).polygon)  # behind
    assert not sees(c, company(-9.0, 0.0).polygon)  # left flank
    # A target only touching the corner line from the flank side is not seen.
    flank = box(3.0, 1.0, 5.0, 2.0)  # its corner (3, 2) is on the line y - 1 = x - 2
    assert not sees(c, flank)
    assert sees(c, ShapelyPoint(3.0, 2.0))  # a point on the line is front, as arc_of says
    assert c.arc_of((3.0, 2.0)) == "front"
    # Turned to face west, it sees to the west only.
    west = company(0.0, 0.0, facing=270.0)
    assert sees(west, company(-10.0, 0.0).polygon) and not sees(west, company(0.0, 10.0).polygon)


@pytest.mark.rule("W4-AMB-16")
def test_the_arc_holding_the_largest_share_of_the_spearhead_is_charged() -> None:
    target = company(0.0, 0.0, width=2.0, depth=2.0)  # corner lines through (+-1, +-1)
    # 1 x 2 spearhead x 1..3 beside the front-right corner: the right arc holds 1.25 of 2.
    spearhead = box(1.0, 0.0, 3.0, 2.0)
    assert majority_arc(target, spearhead) == "right"
    assert majority_arc(target, box(-0.5, 1.0, 1.5, 3.0)) == "front"  # 3.75 of 4
    assert majority_arc(target, box(-1.0, -4.0, 1.0, -1.0)) == "rear"


@pytest.mark.rule("W4-AMB-16")
def test_exact_ties_go_front_then_flank_then_rear() -> None:
    target = company(0.0, 0.0, width=2.0, depth=2.0)
    # Squares cut in half by a corner line.
    assert majority_arc(target, box(1.0, 1.0, 3.0, 3.0)) == "front"  # front / right
    assert majority_arc(target, box(-3.0, 1.0, -1.0, 3.0)) == "front"  # front / left
    assert majority_arc(target, box(1.0, -3.0, 3.0, -1.0)) == "right"  # right / rear
    assert majority_arc(target, box(-3.0, -3.0, -1.0, -1.0)) == "left"  # left / rear
    # Turned through 30 degrees the halves stay equal: still the earlier arc.
    turned = Tray((0.0, 0.0), 30.0, 2.0, 2.0)
    square = Tray(turned.to_world(2.0, -2.0), 30.0, 2.0, 2.0).polygon
    assert majority_arc(turned, square) == "right"


# --------------------------------------------------------------------------- line of sight


@pytest.mark.rule("W4-SHOOT-09")
@pytest.mark.rule("W4-AMB-45")
def test_one_clear_line_from_any_point_to_any_target_company_is_enough() -> None:
    archers = company(0.0, 0.0)  # x -2..2, y -1..1
    target = [company(0.0, 20.0, 180.0), company(4.0, 20.0, 180.0)]
    # A wall hides all of the first target company (no line from x <= 2 to x <= 2 passes
    # east of x = 3), but a line from the archers' front-right corner to the second
    # company passes east of the wall's end.
    wall = box(-10.0, 9.0, 3.0, 11.0)
    assert not clear_sight(archers, target[:1], [wall])
    assert clear_sight(archers, target, [wall])
    assert line_clear((2.0, 1.0), (6.0, 19.0), [wall])  # the clear line


@pytest.mark.rule("W4-SHOOT-09")
def test_a_line_from_any_point_counts_not_only_corners_and_centres() -> None:
    archers = company(0.0, 0.0)  # x -2..2, y -1..1
    target = company(0.0, 20.0, 180.0)  # x -2..2, y 19..21
    # A thin wall across the field with a slit at x 0.3..0.5: no line between the trays'
    # centres, corners or edge midpoints passes it, but the line x = 0.4 does.
    walls = [box(-9.0, 9.9, 0.3, 10.1), box(0.5, 9.9, 9.0, 10.1)]
    assert line_clear((0.4, 1.0), (0.4, 19.0), walls)
    assert clear_sight(archers, [target], walls)
    line = sight_line(archers, target, walls)
    assert line is not None and line_clear(*line, walls)
    (x0, _), (x1, _) = line
    assert 0.3 - 1e-9 <= (x0 + x1) / 2 <= 0.5 + 1e-9
    closed = [box(-9.0, 9.9, 9.0, 10.1)]
    assert not clear_sight(archers, [target], closed)
    assert sight_line(archers, target, closed) is None


@pytest.mark.rule("W4-AMB-45")
def test_blocking_terrain_and_other_units_block_sight() -> None:
    archers = company(0.0, 0.0)
    target = [company(0.0, 20.0, 180.0)]
    wood = box(-6.0, 9.0, 6.0, 11.0)
    assert not clear_sight(archers, target, [wood])
    friends = [company(-2.0, 10.0, 0.0, 8.0), company(6.0, 10.0, 0.0, 8.0)]  # x -6..10
    assert not clear_sight(archers, target, [t.polygon for t in friends])
    # With a 1" gap between the two units the lines through the gap are clear.
    apart = [friends[0].moved(-1.0, 0.0), friends[1]]
    assert clear_sight(archers, target, [t.polygon for t in apart])
    assert clear_sight(archers, target, [])  # open ground


@pytest.mark.rule("W4-AMB-45")
def test_a_line_along_a_blockers_edge_or_through_its_corner_is_not_blocked() -> None:
    rock = box(1.0, -1.0, 2.0, 1.0)
    assert line_clear((0.0, 1.0), (3.0, 1.0), [rock])  # along the top edge
    assert line_clear((0.0, 0.0), (2.0, 2.0), [rock])  # only its corner (1, 1)
    assert not line_clear((0.0, 0.0), (3.0, 0.0), [rock])
    assert not line_clear((1.2, 0.0), (1.8, 0.5), [rock])  # wholly inside
    assert line_clear((0.0, 5.0), (0.0, 5.0), [rock])  # a point outside


# --------------------------------------------------------------------------- cover


@pytest.mark.rule("W4-SHOOT-15")
@pytest.mark.rule("W4-AMB-46")
def test_cover_needs_a_strict_majority_of_centre_lines() -> None:
    shooters = [company(x, 0.0) for x in (0.0, 4.0, 8.0)]
    target = [company(4.0, 20.0, 180.0)]
    # Centre lines run from x = 0, 4, 8 at y = 0 to (4, 20); at y = 10 they are at 2, 4, 6.
    hedge = box(1.0, 9.0, 4.5, 11.0)  # crossed by the lines from x = 0 and x = 4
    assert cover_by_majority(shooters, target, [(hedge, COVER)]) == COVER  # 2 of 3
    small = box(1.0, 9.0, 3.0, 11.0)  # only the line from x = 0
    assert cover_by_majority(shooters, target, [(small, COVER)]) == 0  # 1 of 3
    # Two shooters, one line covered: a tie is no majority, so no cover.
    assert cover_by_majority(shooters[:2], target, [(small, COVER)]) == 0


@pytest.mark.rule("W4-SHOOT-15")
def test_every_shooting_company_to_every_target_company_counts() -> None:
    shooters = [company(0.0, 0.0), company(4.0, 0.0)]
    targets = [company(0.0, 20.0, 180.0), company(4.0, 20.0, 180.0)]
    # Four lines; a wood around the target's left company holds the two ending at its
    # centre, and the line (0,0)-(4,20) is at x = 3 when it reaches the wood: 3 of 4.
    wood = box(-2.0, 15.0, 3.5, 21.0)
    assert cover_by_majority(shooters, targets, [(wood, COVER)]) == COVER
    # A target company standing in a wood: both lines to it end inside: 2 of 4, a tie.
    copse = box(-2.0, 19.0, 2.0, 21.0)
    assert cover_by_majority(shooters, targets, [(copse, COVER)]) == 0


@pytest.mark.rule("W4-SHOOT-16")
@pytest.mark.rule("W4-AMB-46")
def test_several_sources_count_together_and_only_the_highest_applies() -> None:
    shooters = [company(x, 0.0) for x in (0.0, 4.0, 8.0)]
    target = [company(4.0, 20.0, 180.0)]
    hedge = (box(1.0, 9.0, 3.0, 11.0), COVER)  # only the line from x = 0
    ruin = (box(5.0, 9.0, 7.0, 11.0), SUPERIOR_COVER)  # only the line from x = 8
    # Neither alone holds a majority; together they hold 2 of 3 lines: the best, +5.
    assert cover_by_majority(shooters, target, [hedge]) == 0
    assert cover_by_majority(shooters, target, [ruin]) == 0
    assert cover_by_majority(shooters, target, [hedge, ruin]) == SUPERIOR_COVER
    # Two pieces on one line do not add up: the highest single value.
    both = [(box(-1.0, 2.0, 9.0, 3.0), COVER), (box(-1.0, 12.0, 9.0, 13.0), COVER)]
    assert cover_by_majority(shooters, target, both) == COVER


@pytest.mark.rule("W4-AMB-46")
def test_a_line_grazing_the_edge_of_cover_does_not_pass_through_it() -> None:
    shooters = [company(0.0, 0.0), company(4.0, 0.0), company(8.0, 0.0)]
    target = [company(4.0, 20.0, 180.0)]
    # The middle line x = 4 runs along this wall's west edge; the others miss it.
    wall = box(4.0, 9.0, 4.5, 11.0)
    assert cover_by_majority(shooters, target, [(wall, SUPERIOR_COVER)]) == 0
    # A hedge that is only a line (no area) still counts when a line crosses it.
    hedge_line = LineString([(0.0, 10.0), (5.0, 10.0)])
    assert cover_by_majority(shooters, target, [(hedge_line, COVER)]) == COVER
    # Touching pieces are one area: the middle line along their seam passes through it and
    # takes the higher value (2 of 3 lines: the one from x = 0 enters the hedge).
    pieces = [(box(1.0, 9.0, 4.0, 11.0), COVER), (box(4.0, 9.0, 5.0, 11.0), SUPERIOR_COVER)]
    assert cover_by_majority(shooters, target, pieces) == SUPERIOR_COVER
    assert cover_by_majority(shooters, target, pieces[:1]) == 0


# --------------------------------------------------------------------------- other helpers


def test_overlap_needs_shared_interior() -> None:
    a = company(0.0, 0.0)
    assert not trays_overlap(a, company(4.0, 0.0))  # edge to edge: in contact, no overlap
    assert tray_gap(a, company(4.0, 0.0)) == 0.0
    assert trays_overlap(a, company(3.5, 0.0))
    assert not trays_overlap(a, company(3.9999999, 0.0))  # less than the tolerance


def test_nearest_board_edge_of_a_tray_is_measured_from_its_closest_point() -> None:
    board = Board(72, 48)
    # Centre 14" from the west edge and 16" from the south edge, but a long tray turned
    # north-south reaches 10" from the south edge: south.
    tray = Tray((14.0, 16.0), 0.0, 2.0, 12.0)
    assert nearest_edge_of_tray(board, tray) == "south"
    # Equally near two edges by its closest points: the centre decides.
    corner = Tray((5.0, 4.0), 0.0, 2.0, 4.0)  # reaches x = 4 and y = 2... west 4, south 2
    assert nearest_edge_of_tray(board, corner) == "south"
    square = Tray((3.0, 4.0), 0.0, 2.0, 4.0)  # west 2, south 2; centre west 3, south 4
    assert nearest_edge_of_tray(board, square) == "west"


def test_unknown_arcs_and_mixed_facings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown arc"):
        arc_polygon(company(0.0, 0.0), "behind")
    with pytest.raises(ValueError, match="no block"):
        block_of([company(0.0, 0.0), company(4.0, 0.0, 90.0)])
    with pytest.raises(ValueError, match="empty"):
        majority_arc(company(0.0, 0.0), box(0, 0, 1, 1).intersection(box(5, 5, 6, 6)))


TRAY_FUNCTIONS = ["Tray", "tray_gap", "trays_overlap", "trays_gap", "within", "block_of",
                  "unit_arc", "nearest_edge_of_tray", "arc_polygon", "arc_shares",
                  "majority_arc", "sees", "line_clear", "clear_sight", "sight_line",
                  "cover_by_majority"]


@pytest.mark.parametrize("name", TRAY_FUNCTIONS)
def test_docstring_examples_hold(name: str) -> None:
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    tests = [t for t in finder.find(table, globs=vars(table).copy())
             if t.name in (f"warhost.geometry.table.{name}",
                           "warhost.geometry.table.Tray.arc_of")]
    assert tests, name
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0
