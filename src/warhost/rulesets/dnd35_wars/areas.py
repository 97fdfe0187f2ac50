"""Area spells against units: how many counters an area covers (W35-AOE-01..05, table
W35-AOE-03 with W35-AMB-52/53), proportional saves (W35-PROP-01..03, W35-AMB-55), proportional
penalties (W35-SPELL-09, W35-AMB-56/96), Hit Dice to counters (W35-SPELL-14) and the areas of
spells cast by units (W35-UCAST-12, W35-AMB-59).

Every count is exact: a :class:`~fractions.Fraction` where the rules keep a share of a counter.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars.model import Options, SpellArea

TABLE_SCALES: tuple[int, ...] = (5, 15, 25, 50, 100, 200)
"""The columns of table W35-AOE-03: feet per square (5: standard combat)."""

_F = Fraction

AOE_TABLE: dict[tuple[str, int], tuple[Fraction, ...]] = {
    ("circle", 5): (_F(4), _F(1, 2), _F(1, 4), _F(1, 16), _F(1, 64), _F(1, 256)),
    ("circle", 10): (_F(12), _F(2), _F(1, 2), _F(1, 8), _F(1, 32), _F(1, 128)),
    ("circle", 15): (_F(24), _F(3), _F(1), _F(1, 4), _F(1, 16), _F(1, 64)),
    ("circle", 20): (_F(44), _F(4), _F(2), _F(1, 2), _F(1, 8), _F(1, 32)),
    ("circle", 30): (_F(96), _F(11), _F(4), _F(1), _F(1, 4), _F(1, 16)),
    ("circle", 40): (_F(172), _F(20), _F(7), _F(2), _F(1, 2), _F(1, 8)),
    ("cone", 15): (_F(6), _F(1), _F(1, 4), _F(0), _F(1, 8), _F(1, 256)),
    ("cone", 30): (_F(24), _F(3), _F(1), _F(1, 4), _F(1, 16), _F(1, 64)),
    ("cone", 60): (_F(96), _F(11), _F(4), _F(1, 2), _F(1, 4), _F(1, 16)),
    ("line", 30): (_F(6), _F(1), _F(1, 4), _F(1, 16), _F(1, 8), _F(1, 256)),
    ("line", 60): (_F(12), _F(2), _F(1, 2), _F(1, 8), _F(1, 32), _F(1, 256)),
}
"""Table W35-AOE-03 as printed: (shape, feet) -> counters affected at each of TABLE_SCALES."""

CORRECTIONS: dict[tuple[str, int, int], Fraction] = {
    ("cone", 15, 50): _F(1, 16),
    ("cone", 15, 100): _F(1, 64),
    ("line", 30, 100): _F(1, 64),
}
"""W35-AMB-52: the three printed cells that grow with the scale, as corrected
(shape, feet, scale) -> counters."""

PROP_STEP = 5
"""W35-PROP-01: percent of the counters failing per point of DC above the save bonus + 1."""

PROP_MIN, PROP_MAX = 5, 95
"""W35-PROP-02: the failing percentage never leaves these bounds."""


def geometric_counters(squares: int, scale: int) -> Fraction:
    """W35-AMB-53: 5-ft squares ÷ (scale ÷ 5)², rounded down from 1 up, exact below 1."""
    value = Fraction(squares) / Fraction(scale, 5) ** 2
    return Fraction(floor(value)) if value >= 1 else value


def in_table(shape: str, feet: int) -> bool:
    """Whether table W35-AOE-03 has a row for this area."""
    return (shape, feet) in AOE_TABLE


def table_counters(shape: str, feet: int, scale: int, table: str) -> Fraction | None:
    """The W35-AOE-03 cell for an area at a battle scale (5: the standard-combat column),
    read from the ``printed`` or ``corrected`` table or worked out ``geometric``ally from the
    5-ft column (W35-AMB-52); None when the table has no such row."""
    row = AOE_TABLE.get((shape, feet))
    if row is None:
        return None
    if scale not in TABLE_SCALES:
        raise ValueError(f"the area table has no {scale}-ft column")
    if table == "geometric":
        return geometric_counters(int(row[0]), scale)
    if table == "corrected":
        fixed = CORRECTIONS.get((shape, feet, scale))
        if fixed is not None:
            return fixed
    elif table != "printed":
        raise ValueError(f"unknown area table {table!r}")
    return row[TABLE_SCALES.index(scale)]


def five_foot_squares(area: SpellArea) -> int:
    """The 5-ft squares an area covers in standard combat: the table's 5-ft column, or the
    squares the spell gives for an area the table lacks (W35-AOE-01, W35-AMB-53)."""
    row = AOE_TABLE.get((area.shape, area.feet))
    if row is not None:
        return int(row[0])
    if area.squares is None:
        raise ValueError(f"a {area.feet}-ft {area.shape} is not in the area table; "
                         f"give the 5-ft squares it covers (`squares`)")
    return area.squares


def area_counters(area: SpellArea, scale: int, options: Options) -> Fraction:
    """The counters an area covers at the battle's scale before any cap (W35-AOE-02): the
    table where it has the row (under ``options.aoe_table``), else the 5-ft squares the spell
    covers turned into counters (W35-AMB-53)."""
    value = table_counters(area.shape, area.feet, scale, options.aoe_table)
    if value is not None:
        return value
    return geometric_counters(five_foot_squares(area), scale)


def capped(area_value: Fraction, target_counters: int) -> Fraction:
    """W35-AOE-05: never more counters than the target has."""
    return min(area_value, Fraction(max(0, target_counters)))


def counters_hit(area_value: Fraction, target_counters: int, options: Options,
                 battle: Battle | None) -> Fraction:
    """The counters of a target an area affects: capped at its counters (W35-AOE-05); a share
    below one counter is kept (``scale``), made one counter (``round_up``) or made one counter
    with that probability, drawn from ``battle.dice`` (``probabilistic``) (W35-AMB-53)."""
    value = capped(area_value, target_counters)
    if value >= 1 or value <= 0:
        return Fraction(floor(value))
    mode = options.aoe_fraction_mode
    if mode == "scale":
        return value
    if mode == "round_up":
        return Fraction(ceil(value))
    if battle is None:
        raise ValueError("a probabilistic share of a counter needs the battle's dice")
    drawn = battle.dice.draw(value.denominator, "share of a counter in the area")
    return Fraction(1 if drawn <= value.numerator else 0)


def whole_counters(counters: Fraction) -> int:
    """Counters an effect that removes or disables counters takes: the whole part (none for a
    share below one counter, W35-AMB-53)."""
    return floor(counters)


def failing_percent(dc: int, save_bonus: int) -> int:
    """W35-PROP-01/02: (DC − save bonus − 1) × 5 percent, kept within 5..95."""
    return max(PROP_MIN, min(PROP_MAX, (dc - save_bonus - 1) * PROP_STEP))


def failing_counters(dc: int, save_bonus: int, counters: int) -> int:
    """W35-PROP-01..03 with W35-AMB-55: the counters in the area that fail their save under
    proportional saves, the failing share rounded half up (the rest count as saved)."""
    share = Fraction(failing_percent(dc, save_bonus) * max(0, counters), 100)
    return floor(share + Fraction(1, 2))


def covers_whole(counters_hit: Fraction, unit_counters: int) -> bool:
    """Whether an area reaches every counter of a unit (W35-AOE-04, W35-SPELL-13,
    W35-AMB-53/73): a whole number of counters at least the unit's; a share never does."""
    return (unit_counters > 0 and counters_hit.denominator == 1
            and counters_hit >= unit_counters)


def proportional_modifier(amount: int, affected: int | Fraction, counters: int) -> int:
    """A penalty or bonus given to a unit in proportion to the counters affected (W35-SPELL-09,
    W35-AMB-96), its size rounded toward zero (W35-AMB-56: −0.6 is no penalty)."""
    if counters <= 0:
        return 0
    share = Fraction(amount) * Fraction(affected) / counters
    size = floor(abs(share))
    return size if share >= 0 else -size


def counters_from_hd(hd_affected: int, typical_hd: int, per_counter: Fraction) -> int:
    """W35-SPELL-14: floor(HD affected ÷ the typical creature's HD ÷ creatures per counter).
    A typical creature of less than 1 HD counts as 1 HD."""
    if hd_affected <= 0 or per_counter <= 0:
        return 0
    return floor(Fraction(hd_affected, max(1, typical_hd)) / per_counter)


def unit_cast_counters(area: SpellArea, target_counters: int) -> int:
    """W35-UCAST-12 / W35-AMB-59: an area cast by a unit covers as many counters as the spell
    covers 5-ft squares (the table's 5-ft column), at most the target's counters."""
    return min(five_foot_squares(area), max(0, target_counters))
