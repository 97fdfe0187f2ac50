"""The numbers of `dnd35-wars`: the printed tables (creature size, move rate, terrain, structure
DR, morale, PC actions) as data, and small pure functions over plain numbers built on them
(counters, move rates, morale score, attack averaging, mounts, ranges, HP thresholds).

Nothing here knows about scenarios or battle state; callers pass numbers and names."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, TypeAlias

from warhost.core.damage_dice import DamageDice

# ---------------------------------------------------------------------------------------------
# Scales and the creature size table (W35-SCALE, W35-SIZE)
# ---------------------------------------------------------------------------------------------

SCALES: Final = (15, 25, 50, 100, 200)
"""W35-SCALE-01, W35-AMB-07: the battle scales, in feet per square side."""

REFERENCE_SCALE: Final = 5
"""The standard-D&D column of the tables, used only for 5-ft side battles (W35-DMG-16)."""

TABLE_SCALES: Final = (REFERENCE_SCALE, *SCALES)
"""Every column of W35-SIZE-01 and row of W35-STAT-12: the reference 5 ft plus the battle scales."""

SIZES: Final = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan",
                "colossal")
"""The 3.5 size categories, smallest first."""

SizeCell: TypeAlias = int | tuple[str, int]
"""One W35-SIZE-01 cell: creatures per square, or ``("x", N)`` for an ``NxN*`` entry."""


def _row(*cells: SizeCell) -> dict[int, SizeCell]:
    return dict(zip(TABLE_SCALES, cells, strict=True))


SIZE_TABLE: Final[dict[str, dict[int, SizeCell]]] = {
    "fine": _row(100, 900, 2_500, 10_000, 40_000, 160_000),
    "diminutive": _row(25, 225, 625, 2_500, 10_000, 40_000),
    "tiny": _row(4, 56, 156, 625, 2_500, 10_000),
    "small": _row(1, 10, 25, 100, 400, 1_600),
    "medium": _row(1, 10, 25, 100, 400, 1_600),
    "large": _row(("x", 2), 2, 6, 25, 100, 400),
    "huge": _row(("x", 3), 1, 3, 12, 44, 178),
    "gargantuan": _row(("x", 4), 1, 1, 6, 25, 100),
    "colossal": _row(("x", 6), ("x", 2), 1, 3, 11, 44),
}
"""W35-SIZE-01 exactly as printed (W35-AMB-05, W35-AMB-06), keyed by size then scale in feet."""

SIZE_TABLES: Final = ("printed", "geometric")
"""Values of the scenario option ``size_table`` (W35-AMB-05); ``printed`` is the default."""

TINY_PER_5FT_SQUARE: Final = Fraction(25, 4)
"""W35-AMB-05: Tiny creatures (2 1/2-ft space) in one 5-ft square by exact geometry."""

SIZE_CELLS: Final[dict[str, int]] = {
    "fine": 1, "diminutive": 1, "tiny": 1, "small": 1, "medium": 1,
    "large": 2, "huge": 3, "gargantuan": 4, "colossal": 6,
}
"""W35-AMB-31: a creature's side length in 5-ft cells (1 for Medium or smaller)."""

SIZE_MODIFIER: Final[dict[str, int]] = {
    "fine": 8, "diminutive": 4, "tiny": 2, "small": 1, "medium": 0,
    "large": -1, "huge": -2, "gargantuan": -4, "colossal": -8,
}
"""The 3.5 size modifier to attack rolls and AC (W35-COMBAT-04..06 use the creature's own)."""


def check_size(size: str) -> str:
    """``size`` if it is one of :data:`SIZES`, else a ValueError naming the choices."""
    if size not in SIZE_TABLE:
        raise ValueError(f"unknown creature size {size!r}; use one of {', '.join(SIZES)}")
    return size


def check_scale(scale: int) -> int:
    """``scale`` if it is a battle scale (W35-AMB-07), else a ValueError naming the choices."""
    if scale not in SCALES:
        raise ValueError(f"the battle scale must be one of {SCALES} ft, not {scale}")
    return scale


def _check_column(scale: int) -> int:
    if scale not in TABLE_SCALES:
        raise ValueError(f"no table column for a {scale}-ft square; use one of {TABLE_SCALES}")
    return scale


def _check_table(table: str) -> str:
    if table not in SIZE_TABLES:
        raise ValueError(f"unknown size_table {table!r}; use one of {SIZE_TABLES}")
    return table


def size_cell(size: str, scale: int, table: str = "printed") -> SizeCell:
    """The W35-SIZE-01 cell for ``size`` at ``scale``; under ``table="geometric"`` the Tiny row
    is recomputed as floor(6.25 per 5-ft square) (W35-AMB-05), the other rows stay printed."""
    cell = SIZE_TABLE[check_size(size)][_check_column(scale)]
    if _check_table(table) == "geometric" and size == "tiny":
        return math.floor(TINY_PER_5FT_SQUARE * (scale // REFERENCE_SCALE) ** 2)
    return cell


def capacity(size: str, scale: int, table: str = "printed") -> int:
    """Creatures of ``size`` in one square at ``scale`` (W35-SIZE-04); 0 for an ``NxN*`` cell,
    where one creature spans several squares instead."""
    cell = size_cell(size, scale, table)
    return 0 if isinstance(cell, tuple) else cell


def span(size: str, scale: int) -> int:
    """Squares along one side covered by one creature (W35-SIZE-02): N for ``NxN*``, else 1
    (an entry of 1 is exactly one square, W35-AMB-06)."""
    cell = size_cell(size, scale)
    return cell[1] if isinstance(cell, tuple) else 1


def counters_needed(creatures: int, size: str, scale: int, table: str = "printed") -> int:
    """Counters for a unit of ``creatures`` (W35-UNIT-03): ceil(creatures / capacity), or
    creatures x N x N where one creature covers N x N squares."""
    if creatures < 1:
        raise ValueError(f"a unit needs at least 1 creature, not {creatures}")  # W35-AMB-93
    per_square = capacity(size, scale, table)
    if per_square == 0:
        return creatures * span(size, scale) ** 2
    return -(-creatures // per_square)


def member_size(size: str, mounted: bool = False, chariot: bool = False) -> str:
    """The W35-SIZE-01 row a unit's members use (W35-SIZE-03): chariots the Huge row, mounted
    creatures the Large row, anyone else their own size."""
    check_size(size)
    if chariot:
        return "huge"
    if mounted:
        return "large"
    return size


def creatures_per_counter(creatures: int, counters: int) -> Fraction:
    """Starting creatures spread evenly over the starting counters, kept exact (W35-AMB-09)."""
    if counters < 1:
        raise ValueError(f"a unit has at least 1 counter, not {counters}")
    return Fraction(creatures, counters)


def starting_unit_hp(typical_hp: int, counters: int) -> int:
    """A unit's starting HP: the typical creature's HP times its counters (W35-UNIT-08)."""
    return typical_hp * counters


def starting_counter_hp(unit_hp: int, counters: int) -> int:
    """One counter's HP: starting unit HP over starting counters (W35-UNIT-09)."""
    return unit_hp // counters


def counters_left(hp: int, counter_hp: int) -> int:
    """Counters a unit keeps at ``hp`` (W35-UNIT-12/13, W35-AMB-10): ceil(hp / counter HP)
    while hp is above 0, else none."""
    if hp <= 0:
        return 0
    return -(-hp // counter_hp)


# ---------------------------------------------------------------------------------------------
# Recommended scale (W35-SCALE-04, W35-SCALE-07/08, W35-AMB-08)
# ---------------------------------------------------------------------------------------------

SCALE_BY_CREATURES: Final = ((100, 15), (400, 25), (1_600, 50), (6_400, 100), (102_400, 200))
"""W35-SCALE-04: (most Small/Medium creatures per unit, recommended scale), in order."""


def suggest_scale(creatures: int, size: str) -> int:
    """An advisory battle scale for a unit (W35-AMB-08): the W35-SCALE-04 row for its creature
    count, one scale up per size above Medium and one down per size below Small
    (W35-SCALE-07/08), kept within :data:`SCALES`."""
    row = next((i for i, (most, _) in enumerate(SCALE_BY_CREATURES) if creatures <= most),
               len(SCALES) - 1)
    rank = SIZES.index(check_size(size))
    if rank > SIZES.index("medium"):
        row += rank - SIZES.index("medium")
    elif rank < SIZES.index("small"):
        row -= SIZES.index("small") - rank
    return SCALES[min(max(row, 0), len(SCALES) - 1)]


# ---------------------------------------------------------------------------------------------
# Move rates (W35-STAT-11..13, W35-AMB-11, W35-AMB-13, W35-AMB-67)
# ---------------------------------------------------------------------------------------------

MOVE_SPEEDS: Final = (15, 20, 30, 40)
"""The speeds (ft) that head the columns of W35-STAT-12."""


def _rates(*cells: int | Fraction) -> dict[int, Fraction]:
    return {speed: Fraction(cell) for speed, cell in zip(MOVE_SPEEDS, cells, strict=True)}


MOVE_RATES: Final[dict[int, dict[int, Fraction]]] = {
    5: _rates(6, 8, 12, 16),
    15: _rates(2, 3, 4, 5),
    25: _rates(1, 2, 3, 4),
    50: _rates(Fraction(1, 2), 1, 2, 3),
    100: _rates(Fraction(1, 3), Fraction(1, 2), 1, 2),
    200: _rates(Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), 1),
}
"""W35-STAT-12 as printed: squares per round, keyed by scale (ft) then speed (ft)."""


def move_rate(speed_ft: int, scale: int) -> Fraction:
    """Squares per round for a creature speed at a scale: the W35-STAT-12 cell when the speed is
    tabulated, otherwise the W35-AMB-11 rule (monotone, never past the neighbouring column)."""
    row = MOVE_RATES[_check_column(scale)]
    if speed_ft < 0:
        raise ValueError(f"a speed cannot be negative ({speed_ft} ft)")
    if speed_ft == 0:
        return Fraction(0)  # a creature that cannot move (held, W35-AMB-94)
    if speed_ft in row:
        return row[speed_ft]
    slowest, fastest = MOVE_SPEEDS[0], MOVE_SPEEDS[-1]
    if speed_ft > fastest:
        return max(Fraction(2 * speed_ft // scale), row[fastest])
    if speed_ft > slowest:
        return row[max(s for s in MOVE_SPEEDS if s < speed_ft)]
    squares = 2 * speed_ft // scale
    rate = Fraction(squares) if squares >= 1 else Fraction(1, -(-scale // (2 * speed_ft)))
    return min(rate, row[slowest])


def siege_move_points(feet_per_round: int | Fraction, scale: int) -> Fraction:
    """Movement points a move action gives a unit whose speed is a distance per round
    (W35-AMB-13): feet per round over the scale, exact; W35-STAT-12 is not used."""
    return Fraction(feet_per_round) / check_scale(scale)


def phalanx_rate(rate: Fraction | int) -> Fraction:
    """The move rate in phalanx (W35-DEFEND-10, W35-AMB-67): half, rounded down, at least 1,
    for a rate of 1 or more; a fractional rate is just halved."""
    rate = Fraction(rate)
    if rate >= 1:
        return Fraction(max(math.floor(rate / 2), 1))
    return rate / 2


# ---------------------------------------------------------------------------------------------
# Terrain and structures (W35-TERR-14, W35-STRUCT-06)
# ---------------------------------------------------------------------------------------------

TERRAIN_COST: Final[dict[str, int]] = {
    "clear": 1, "difficult": 2, "light_forest": 2, "heavy_forest": 3, "jungle": 3,
    "ruins": 3, "rocky": 3, "building": 4, "castle": 5, "swamp": 4, "sand": 2, "desert": 2,
}
"""W35-TERR-14: movement cost of entering one square of each terrain type."""

DOWNHILL_COST: Final = Fraction(2, 3)
"""W35-TERR-14: down a slope, 3 squares cost 2."""

UP_SLOPE_COSTS: Final = (2, 3, 4)
"""W35-TERR-14: the costs an up-slope square may be given (by grade, per square in the
scenario)."""

FOREST_TERRAINS: Final = frozenset({"light_forest", "heavy_forest", "jungle"})
"""Terrains that count as forest for W35-TERR-07/08/09."""

STRUCTURE_DR: Final[dict[str, int]] = {
    "ruins": 1, "wooden": 2, "light_stone": 2, "keep": 3, "heavy_stone": 3, "castle": 4,
}
"""W35-STRUCT-06: damage reduction given by each structure type."""


# ---------------------------------------------------------------------------------------------
# Morale (W35-STAT-01..04, W35-MORALE-03/14, W35-PC-11, W35-AMB-22, W35-AMB-91)
# ---------------------------------------------------------------------------------------------

MORALE_DC: Final[dict[str, int]] = {
    "first_damage": 8, "flanked": 10, "siege_or_area": 15, "half_hp": 15, "quarter_hp": 20,
    "melee_one_sided": 10, "three_times": 15, "friend_fleeing": 15, "ferocious": 15,
    "leader_lost": 20, "friend_wiped": 20, "rally": 20,
    "mob_charge": 10, "mob_damage": 10, "siege_weapon_lost": 15, "tower_lost": 20,
}
"""W35-MORALE-03 and W35-MORALE-14: the DC of each morale trigger."""

ONE_TIME_TRIGGERS: Final = frozenset({"first_damage", "flanked", "half_hp", "quarter_hp"})
"""Triggers that fire at most once per battle per unit (W35-MORALE-03, W35-AMB-16/91)."""

PC_ACTION_MORALE: Final[dict[str, int]] = {
    "slew_leader": 2, "slew_officer": 1, "destroyed_machine": 1, "fled_or_down": -4,
    "slew_tenth": 1,
}
"""W35-PC-11: the morale modifier a PC's action gives a unit."""

TRAINING_MONTHS_PER_POINT: Final = 4
TRAINING_CAP: Final = 3
"""W35-STAT-03: +1 per 4 months of training, at most +3."""


def training_bonus(months: int) -> int:
    """W35-STAT-03: min(3, floor(months / 4))."""
    if months < 0:
        raise ValueError(f"months of training cannot be negative ({months})")
    return min(TRAINING_CAP, months // TRAINING_MONTHS_PER_POINT)


def morale_score(cha_mod: int, *, barbarians: bool = False, fighters: bool = False,
                 training_months: int = 0, battles: int = 0, chaotic: bool = False,
                 lawful: bool = False, mob: bool = False) -> int:
    """A unit's Morale (W35-STAT-01..04): Charisma modifier plus the W35-STAT-02 factors; for a
    mob every positive term counts as 0 (W35-MOB-08, W35-AMB-22)."""
    if battles < 0:
        raise ValueError(f"battles fought cannot be negative ({battles})")
    terms = (cha_mod, -int(barbarians), int(fighters), training_bonus(training_months),
             battles, -int(chaotic), int(lawful))
    if mob:
        return sum(min(term, 0) for term in terms)
    return sum(terms)


def hp_triggers(start_hp: int, before: int, after: int) -> list[str]:
    """The HP-threshold morale triggers a loss from ``before`` to ``after`` crosses
    (W35-AMB-91): ``half_hp`` when 2 x HP first reaches start HP or less, ``quarter_hp`` when
    4 x HP does; both when one loss crosses both."""
    crossed = []
    if 2 * after <= start_hp < 2 * before:
        crossed.append("half_hp")
    if 4 * after <= start_hp < 4 * before:
        crossed.append("quarter_hp")
    return crossed


# ---------------------------------------------------------------------------------------------
# Attacks, mounts and abilities (W35-STAT-15, W35-TYPE-05/06/11/12, W35-ABIL-04/09)
# ---------------------------------------------------------------------------------------------


def _exact_average(expr: str) -> Fraction:
    parsed = DamageDice.parse(expr)
    halves = 2 * parsed.flat + sum(sign * count * (sides + 1)
                                   for count, sides, sign in parsed.dice)
    return Fraction(halves, 2)


def average_attacks(attacks: Sequence[tuple[int, str]]) -> tuple[int, str]:
    """One (bonus, damage) for a creature with several attacks (W35-STAT-15, W35-AMB-14): the
    bonus is floor(mean bonus); the damage is the shared expression if all are the same, else
    the fixed number floor(mean of the attacks' average damage)."""
    if not attacks:
        raise ValueError("averaging needs at least one attack")
    bonus = sum(b for b, _ in attacks) // len(attacks)
    expressions = {DamageDice.parse(e) for _, e in attacks}
    if len(expressions) == 1:
        return bonus, attacks[0][1]
    mean = sum((_exact_average(e) for _, e in attacks), Fraction(0)) / len(attacks)
    return bonus, str(math.floor(mean))


def _render(dice: DamageDice) -> str:
    parts = [f"{'-' if sign < 0 else '+'}{count}d{sides}" for count, sides, sign in dice.dice]
    if dice.flat or not parts:
        parts.append(f"{dice.flat:+d}")
    return "".join(parts).lstrip("+")


def mounted_damage(rider_damage: str, mount_damages: Sequence[str]) -> str:
    """A mounted unit's melee damage (W35-TYPE-05): the rider's expression plus, as a flat term,
    the floored average of the mount's single highest-damage attack."""
    if not mount_damages:
        return rider_damage
    best = max(DamageDice.parse(e).average for e in mount_damages)
    rider = DamageDice.parse(rider_damage)
    return _render(DamageDice(rider.dice, rider.flat + best))


def barding_ac(armor_bonus: int) -> int:
    """AC an armoured mount adds to its unit (W35-TYPE-06, W35-AMB-25): half the barding's
    armour bonus, rounded down."""
    if armor_bonus < 0:
        raise ValueError(f"an armour bonus cannot be negative ({armor_bonus})")
    return armor_bonus // 2


def mount_hp(rider_hp: int, mount_hp: int, intelligent: bool) -> int:
    """HP per creature of a mounted unit (W35-TYPE-11/12): the rider's alone, unless the mount
    could fight on its own, when the two are added."""
    return rider_hp + mount_hp if intelligent else rider_hp


def regeneration(hd: int, per_counter: Fraction | int) -> int:
    """HP a regenerating unit regains (W35-ABIL-09): Hit Dice x creatures per counter, rounded
    down once (W35-AMB-09)."""
    return math.floor(hd * per_counter)


great_cleave_cap: Final = 8
"""W35-ABIL-04, W35-AMB-28: most extra attacks Great Cleave gives a unit in one round."""


# ---------------------------------------------------------------------------------------------
# Ranges (W35-UATK-12..14, W35-AMB-36)
# ---------------------------------------------------------------------------------------------

MAX_INCREMENTS: Final = 10
"""W35-UATK-13: a projectile's maximum range, in range increments."""
MAX_INCREMENTS_THROWN: Final = 5
"""W35-AMB-36: a thrown weapon's maximum range, in range increments (standard 3.5)."""


def distance_feet(squares: int, scale: int) -> int:
    """A grid distance in feet (W35-UATK-14, W35-AMB-36): squares x scale."""
    return squares * scale


def range_increments(feet: int, increment: int) -> int:
    """Range increments used at ``feet`` (W35-AMB-36): ceil(feet / increment), at least 1."""
    if increment < 1:
        raise ValueError(f"a range increment is at least 1 ft, not {increment}")
    return max(1, -(-feet // increment))


def range_penalty(increments: int) -> int:
    """Attack penalty for range (W35-UATK-12): -2 per full increment beyond the first."""
    return -2 * (increments - 1)


def max_increments(thrown: bool) -> int:
    """The most range increments a weapon reaches: 10, or 5 if thrown (W35-UATK-13, W35-AMB-36)."""
    return MAX_INCREMENTS_THROWN if thrown else MAX_INCREMENTS


def in_range(feet: int, increment: int, thrown: bool = False) -> bool:
    """Whether a target ``feet`` away is within the weapon's maximum range (W35-AMB-36)."""
    return feet <= max_increments(thrown) * increment


# ---------------------------------------------------------------------------------------------
# Siege weapons (W35-SIEGE-04, W35-SIEGE-10, W35-SIEGE-16, W35-AMB-49/50/87)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SiegeWeapon:
    """One row of table W35-SIEGE-16: damage, critical (threat from, multiplier; None: no
    critical, W35-AMB-49), range increment and minimum range in feet, rate of fire and crew
    (W35-AMB-50), size, space in feet, cost in gp, and the most range increments
    (W35-SIEGE-10)."""

    name: str
    damage: str
    crit: tuple[int, int] | None
    range_increment: int
    minimum_range: int
    rate_of_fire: int
    crew: int
    size: str
    space: int
    cost: int
    max_increments: int


SIEGE_WEAPONS: Final[dict[str, SiegeWeapon]] = {
    "ballista": SiegeWeapon("ballista", "3d8", (19, 2), 120, 0, 4, 3, "large", 5, 500, 10),
    "light_catapult": SiegeWeapon("light_catapult", "4d6", None, 150, 100, 3, 2, "large", 10,
                                  550, 5),
    "heavy_catapult": SiegeWeapon("heavy_catapult", "6d6", None, 200, 100, 4, 4, "huge", 15,
                                  800, 5),
    "trebuchet": SiegeWeapon("trebuchet", "8d6", None, 300, 150, 3, 4, "huge", 15, 1_200, 5),
}
"""Table W35-SIEGE-16."""

SIEGE_AC: Final = 3
SIEGE_HARDNESS: Final = 5
SIEGE_HP: Final = 80
"""W35-SIEGE-04: every siege weapon's AC, hardness and hit points."""

SIEGE_FEET_PER_ROUND: Final = 15
"""W35-SWU-07: a siege weapon unit moves 15 ft a round (points: :func:`siege_move_points`)."""

CATAPULT_AC: Final = 10
"""W35-SIEGE-09: catapults and trebuchets treat every target as AC 10."""

UNTRAINED_SIEGE: Final = -4
"""W35-SWU-06: untrained operators fire at -4."""


def siege_weapon(name: str) -> SiegeWeapon:
    """The W35-SIEGE-16 row of ``name`` (a ValueError for an unknown weapon)."""
    try:
        return SIEGE_WEAPONS[name]
    except KeyError:
        raise ValueError(f"unknown siege weapon {name!r}") from None


def circle_crew(weapon: SiegeWeapon) -> int:
    """Creatures needed to circle the weapon (W35-AMB-87): 4 x (space / 5 ft) + 4."""
    return 4 * (weapon.space // 5) + 4


def crew_lost(weapon: SiegeWeapon, survivors: int) -> int:
    """Crew lost (W35-AMB-48): crew less the surviving creatures, at least 0."""
    return max(0, weapon.crew - survivors)


def effective_rate_of_fire(weapon: SiegeWeapon, lost: int) -> int:
    """Rounds to fire and reload once (W35-SIEGE-13..15, W35-AMB-48): the listed rate doubled
    for each crew member lost beyond floor(crew / 4)."""
    return weapon.rate_of_fire * (1 << max(0, lost - weapon.crew // 4))


def siege_max_range(weapon: SiegeWeapon) -> int:
    """The weapon's maximum range in feet (W35-SIEGE-10)."""
    return weapon.max_increments * weapon.range_increment


# Siege towers and battering rams (W35-TOWER-05/08, W35-RAM-01/02/04, W35-AMB-77)
# ---------------------------------------------------------------------------------------------

TOWER_CREATURES: Final = 70
TOWER_COUNTERS: Final = 7
TOWER_PER_COUNTER: Final = 10
"""W35-TOWER-05/08, W35-AMB-77: 70 creatures in 7 counters of 10 at every scale."""
TOWER_SIZES: Final = ("medium", "small")
"""W35-TOWER-05: the creatures a tower holds."""
TOWER_HEIGHT_FT: Final = 78
TOWER_BASE_FT: Final = 15
TOWER_COST_GP: Final = 2_000
"""W35-TOWER-05 (descriptive)."""

RAM_CREW: Final[dict[str, int]] = {"small": 16, "medium": 8, "large": 4, "huge": 2,
                                   "gargantuan": 2, "colossal": 2}
"""W35-RAM-02: creatures of each size it takes to swing a ram (Huge or larger: 2)."""
RAM_BASE_DAMAGE: Final = 14
"""W35-RAM-04: a ram's damage before the swingers' Strength modifiers."""
RAM_LENGTH_FT: Final = 20
RAM_COST_GP: Final = 1_000
"""W35-RAM-01 (descriptive)."""


def ram_crew(size: str) -> int | None:
    """The creatures of ``size`` needed to swing a ram (W35-RAM-02); None: too small."""
    return RAM_CREW.get(check_size(size))


def ram_damage(str_modifiers: int) -> int:
    """A ram's damage to a structure: 14 + the swingers' Strength modifiers, at least 0
    before hardness (W35-RAM-04, W35-AMB-45)."""
    return max(0, RAM_BASE_DAMAGE + str_modifiers)
