"""Area spells against units (W35-AOE-01..05, table W35-AOE-03 with W35-AMB-52/53), proportional
saves (W35-PROP-01..03, W35-AMB-55), proportional penalties (W35-SPELL-09, W35-AMB-56), Hit Dice
to counters (W35-SPELL-14) and areas cast by units (W35-UCAST-12, W35-AMB-59)."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest

from tests.rulesets.dnd35_wars.helpers import make_battle, make_state, unit
from warhost.rulesets.dnd35_wars import areas
from warhost.rulesets.dnd35_wars.areas import (
    area_counters,
    counters_from_hd,
    counters_hit,
    covers_whole,
    failing_counters,
    proportional_modifier,
    table_counters,
    unit_cast_counters,
)
from warhost.rulesets.dnd35_wars.model import Options, SpellArea

CATALOG = Path("/work/shared/rules/dnd35-wars.md")
SCALES = (5, 15, 25, 50, 100, 200)
ROWS = {"Circle": "circle", "Cone": "cone", "Line": "line"}


TABLE_TEXT = """
| Circle, 5 ft radius | 4 | 1/2 | 1/4 | 1/16 | 1/64 | 1/256 |
| Circle, 10 ft radius | 12 | 2 | 1/2 | 1/8 | 1/32 | 1/128 |
| Circle, 15 ft radius | 24 | 3 | 1 | 1/4 | 1/16 | 1/64 |
| Circle, 20 ft radius | 44 | 4 | 2 | 1/2 | 1/8 | 1/32 |
| Circle, 30 ft radius | 96 | 11 | 4 | 1 | 1/4 | 1/16 |
| Circle, 40 ft radius | 172 | 20 | 7 | 2 | 1/2 | 1/8 |
| Cone, 15 ft | 6 | 1 | 1/4 | 0 | 1/8 | 1/256 |
| Cone, 30 ft | 24 | 3 | 1 | 1/4 | 1/16 | 1/64 |
| Cone, 60 ft | 96 | 11 | 4 | 1/2 | 1/4 | 1/16 |
| Line, 30 ft | 6 | 1 | 1/4 | 1/16 | 1/8 | 1/256 |
| Line, 60 ft | 12 | 2 | 1/2 | 1/8 | 1/32 | 1/256 |
"""
"""Table W35-AOE-03 as the catalog prints it (copied cell by cell from its text)."""


def parse_table(text: str) -> dict[tuple[str, int], list[Fraction]]:
    """The rows of a markdown copy of table W35-AOE-03."""
    rows: dict[tuple[str, int], list[Fraction]] = {}
    for line in text.splitlines():
        found = re.match(r"\| (Circle|Cone|Line), (\d+) ft", line)
        if found:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[(ROWS[found.group(1)], int(found.group(2)))] = [Fraction(c) for c in cells[1:]]
    return rows


PRINTED = parse_table(TABLE_TEXT)


def test_the_copy_is_the_catalog_s_table() -> None:
    assert len(PRINTED) == 11 and all(len(row) == 6 for row in PRINTED.values())
    if CATALOG.exists():  # the catalog itself is kept outside the repository
        assert parse_table(CATALOG.read_text(encoding="utf-8")) == PRINTED


@pytest.mark.rule("W35-AOE-03", "W35-AMB-52")
@pytest.mark.parametrize(("shape", "feet"), sorted(areas.AOE_TABLE))
def test_every_printed_cell_matches_the_catalog(shape: str, feet: int) -> None:
    for scale, printed in zip(SCALES, PRINTED[(shape, feet)], strict=True):
        assert table_counters(shape, feet, scale, "printed") == printed, (shape, feet, scale)


@pytest.mark.rule("W35-AMB-52")
def test_the_corrected_table_changes_only_the_three_impossible_cells() -> None:
    changed = {(shape, feet, scale)
               for (shape, feet) in areas.AOE_TABLE for scale in SCALES
               if table_counters(shape, feet, scale, "corrected")
               != table_counters(shape, feet, scale, "printed")}
    assert changed == {("cone", 15, 50), ("cone", 15, 100), ("line", 30, 100)}
    assert table_counters("cone", 15, 50, "corrected") == Fraction(1, 16)
    assert table_counters("cone", 15, 100, "corrected") == Fraction(1, 64)
    assert table_counters("line", 30, 100, "corrected") == Fraction(1, 64)


@pytest.mark.rule("W35-AMB-52")
def test_no_corrected_row_grows_with_the_scale_though_the_printed_ones_do() -> None:
    def grows(table: str) -> set[tuple[str, int]]:
        out = set()
        for shape, feet in areas.AOE_TABLE:
            row = [table_counters(shape, feet, s, table) for s in SCALES]
            if any(b is not None and a is not None and b > a for a, b in pairwise(row)):
                out.add((shape, feet))
        return out
    assert grows("printed") == {("cone", 15), ("line", 30)}
    assert grows("corrected") == set() and grows("geometric") == set()


@pytest.mark.rule("W35-AMB-52", "W35-AMB-53", "W35-AOE-02")
def test_the_geometric_table_divides_the_five_foot_squares_by_a_counter_s_squares() -> None:
    # Circle 20 ft: 44 squares; at 15 ft a counter covers 9 -> 4.89 -> 4; at 25 ft 25 -> 1;
    # at 50 ft 100 -> 44/100 kept exact; at 200 ft 1600 -> 44/1600 = 11/400.
    assert [table_counters("circle", 20, s, "geometric") for s in SCALES] == [
        44, 4, 1, Fraction(44, 100), Fraction(44, 400), Fraction(11, 400)]
    # Cone 15 ft (6 squares) at 50 ft is 6/100, not the printed 0
    assert table_counters("cone", 15, 50, "geometric") == Fraction(3, 50)


@pytest.mark.rule("W35-AOE-02", "W35-AOE-01")
def test_the_table_takes_precedence_and_other_areas_use_their_squares() -> None:
    corrected = Options()
    fireball = SpellArea(shape="circle", feet=20)
    assert area_counters(fireball, 15, corrected) == 4  # the table, not 44 / 9
    # a 120-ft line is not in the table: its 24 squares / 9 = 2.67 -> 2 at 15 ft (W35-AMB-53)
    bolt = SpellArea(shape="line", feet=120, squares=24)
    assert area_counters(bolt, 15, corrected) == 2
    assert area_counters(bolt, 25, corrected) == Fraction(24, 25)
    assert area_counters(bolt, 5, corrected) == 24
    # the shape does not matter, only the squares: a 24-square cone counts like the line
    assert area_counters(SpellArea(shape="cone", feet=35, squares=24), 15, corrected) == 2
    with pytest.raises(ValueError, match="squares"):
        area_counters(SpellArea(shape="circle", feet=25), 15, corrected)


@pytest.mark.rule("W35-AMB-52")
def test_the_aoe_table_option_picks_the_table() -> None:
    cone = SpellArea(shape="cone", feet=15)
    assert area_counters(cone, 50, Options(aoe_table="printed")) == 0
    assert area_counters(cone, 50, Options(aoe_table="corrected")) == Fraction(1, 16)
    assert area_counters(cone, 50, Options(aoe_table="geometric")) == Fraction(6, 100)
    assert Options().aoe_table == "corrected"


@pytest.mark.rule("W35-AOE-05")
def test_counters_affected_never_exceed_the_target_s_counters() -> None:
    options = Options()
    assert counters_hit(Fraction(44), 6, options, None) == 6
    assert counters_hit(Fraction(4), 6, options, None) == 4
    assert counters_hit(Fraction(4), 0, options, None) == 0
    # a share of a counter on a one-counter unit stays a share
    assert counters_hit(Fraction(1, 2), 1, options, None) == Fraction(1, 2)


@pytest.mark.rule("W35-AMB-53")
def test_a_share_of_a_counter_by_fraction_mode() -> None:
    half = Fraction(1, 2)
    assert counters_hit(half, 5, Options(aoe_fraction_mode="scale"), None) == half
    assert counters_hit(half, 5, Options(aoe_fraction_mode="round_up"), None) == 1
    probabilistic = Options(aoe_fraction_mode="probabilistic")
    state = make_state([unit("a"), unit("b", "B", squares=[(9, 9)])])
    # 3/8 of a counter: a d8 of 1-3 makes it one counter, 4-8 none
    assert counters_hit(Fraction(3, 8), 5, probabilistic, make_battle(state, dice=[3])) == 1
    assert counters_hit(Fraction(3, 8), 5, probabilistic, make_battle(state, dice=[4])) == 0
    assert areas.whole_counters(half) == 0 and areas.whole_counters(Fraction(3)) == 3


@pytest.mark.rule("W35-AOE-04", "W35-AMB-53")
def test_an_area_covers_a_whole_unit_only_with_whole_counters() -> None:
    assert covers_whole(Fraction(4), 4) and covers_whole(Fraction(6), 4)
    assert not covers_whole(Fraction(3), 4)
    # a one-counter unit under half a counter is not covered (a share never is)
    assert not covers_whole(Fraction(1, 2), 1)
    assert not covers_whole(Fraction(0), 0)


@pytest.mark.rule("W35-PROP-01", "W35-PROP-03", "W35-AMB-55")
def test_proportional_saves_fail_a_share_of_the_counters_rounded_half_up() -> None:
    # DC 15, save +3: (15 - 3 - 1) x 5 = 55%; of 7 counters 3.85 -> 4 fail, 3 save
    assert failing_counters(15, 3, 7) == 4
    # DC 14, save +3: 50% of 5 = 2.5 -> 3 (half up); of 4 exactly 2
    assert failing_counters(14, 3, 5) == 3 and failing_counters(14, 3, 4) == 2
    # 45% of 3 = 1.35 -> 1
    assert failing_counters(13, 3, 3) == 1


@pytest.mark.rule("W35-PROP-02")
def test_the_failing_share_stays_between_five_and_ninety_five_percent() -> None:
    assert areas.failing_percent(5, 10) == 5  # (5 - 10 - 1) x 5 = -30
    assert areas.failing_percent(40, 0) == 95  # 195
    assert areas.failing_percent(12, 2) == 45
    assert failing_counters(5, 10, 20) == 1  # 5% of 20
    assert failing_counters(40, 0, 20) == 19  # 95% of 20
    assert failing_counters(5, 10, 9) == 0  # 5% of 9 = 0.45 -> 0


@pytest.mark.rule("W35-SPELL-09", "W35-AMB-56")
def test_a_penalty_is_shared_over_the_counters_and_rounded_toward_zero() -> None:
    # -2 on 3 of 10 counters: -0.6 -> no penalty; on 6 of 10: -1.2 -> -1
    assert proportional_modifier(-2, 3, 10) == 0
    assert proportional_modifier(-2, 6, 10) == -1
    assert proportional_modifier(-2, 10, 10) == -2
    assert proportional_modifier(-1, 9, 10) == 0
    # a buff the same way (W35-AMB-96), and a share of a counter
    assert proportional_modifier(4, 5, 10) == 2
    assert proportional_modifier(4, Fraction(1, 2), 1) == 2
    assert proportional_modifier(-3, 1, 0) == 0


@pytest.mark.rule("W35-SPELL-14")
def test_hit_dice_become_counters() -> None:
    # sleep's 4 HD on 1-HD goblins, 10 a counter: 4 / 1 / 10 -> 0 counters
    assert counters_from_hd(4, 1, Fraction(10)) == 0
    # 40 HD of 2-HD orcs at 2 a counter: 40 / 2 / 2 = 10
    assert counters_from_hd(40, 2, Fraction(2)) == 10
    # 51 elves in 6 counters (8.5 a counter, W35-AMB-09): 30 HD / 1 / 8.5 = 3.5 -> 3
    assert counters_from_hd(30, 1, Fraction(17, 2)) == 3
    assert counters_from_hd(0, 1, Fraction(1)) == 0


@pytest.mark.rule("W35-UCAST-12", "W35-AMB-59")
def test_a_unit_s_area_covers_the_five_foot_squares_as_counters() -> None:
    # fireball (Circle 20 ft): 44 squares -> 44 counters, but no more than the target has
    fireball = SpellArea(shape="circle", feet=20)
    assert unit_cast_counters(fireball, 60) == 44
    assert unit_cast_counters(fireball, 12) == 12
    # a 120-ft line: its 24 squares
    assert unit_cast_counters(SpellArea(shape="line", feet=120, squares=24), 30) == 24
    assert unit_cast_counters(SpellArea(shape="cone", feet=15), 30) == 6
