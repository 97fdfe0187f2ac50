"""The numbers of `dnd4e-war`: the to-hit chart as its formula, courage and unit strength
tables, charge and fall back! distances, pivot costs and points per hit."""

from __future__ import annotations

import math
import re

AUTO_MISS_BELOW = 8
"""W4-HIT-02: an ordinary model misses on any d20 below this."""

RACE_COURAGE: dict[str, int] = {
    "goblin": 1, "kobold": 1,
    "orc": 3, "human": 3, "halfling": 3,
    "dwarf": 5, "dragonborn": 5,
    "elf": 6, "drow": 6, "half-elf": 6,
}
"""W4-COUR-03, keyed by singular race name (see :func:`race_key` for plurals)."""

_PLURALS = {"goblins": "goblin", "kobolds": "kobold", "orcs": "orc", "humans": "human",
            "halflings": "halfling", "dwarves": "dwarf", "dwarfs": "dwarf", "elves": "elf",
            "half-elves": "half-elf", "half elf": "half-elf", "half elves": "half-elf"}

SIZE_COURAGE: dict[str, int] = {"small": 0, "medium": 0, "large": 2, "huge": 4,
                                "gargantuan": 8}
"""W4-COUR-04."""

MUSICIAN_COURAGE = 1
"""W4-COUR-05, W4-CMD-11."""
STALWART_COURAGE = 2
"""W4-COUR-05."""
BARD_COURAGE = 2
"""W4-COUR-05 (bard or songweaver; one +2 a unit, W4-AMB-41)."""

SIZE_STRENGTH: dict[str, int] = {"small": 1, "medium": 1, "large": 2, "huge": 4,
                                 "gargantuan": 8}
"""W4-STR-02; a monster adds :data:`MONSTER_STRENGTH`."""
MONSTER_STRENGTH = 1
"""W4-STR-02, W4-MONSTER-02."""

SIZE_BASE: dict[str, float] = {"small": 1.0, "medium": 1.0, "large": 2.0, "huge": 3.0,
                               "gargantuan": 4.0}
"""W4-AMB-04: base width in inches by size."""

SKIRMISH_COMPANY = 4
"""W4-SHOOT-22, W4-PANIC-02: a skirmishing unit counts 4 models as a full company."""


def race_key(race: str | None) -> str | None:
    """The singular table key of ``race`` (``"Elves"`` -> ``"elf"``), or None."""
    if not race:
        return None
    word = race.strip().lower()
    return _PLURALS.get(word, word)


def racial_courage(race: str | None, override: int | None = None) -> int:
    """W4-COUR-03 and W4-AMB-40: the table's racial bonus; an explicit profile value wins;
    races not listed get +0."""
    if override is not None:
        return override
    key = race_key(race)
    return RACE_COURAGE.get(key, 0) if key else 0


def tier(level: int) -> int:
    """W4-COUR-06, W4-AMB-72: 1 heroic (levels 1-10), 2 paragon (11-20), 3 epic (21-30)."""
    return 1 if level <= 10 else 2 if level <= 20 else 3


CLASS_TIER = {1: (1, 3, 2), 2: (1, 4, 3), 3: (1, 5, 4)}
"""W4-CLASS-02, W4-AMB-70: resilience, Attacks and action points of every class, by tier."""

GENERAL_ACTION_POINTS = 1
"""W4-GEN-02: the general's additional action point."""


def needed_score(ac: int, bonus: int, character: bool = False) -> int:
    """W4-HIT-01 to 04, W4-AMB-02/03: the d20 score that hits. Ordinary models need at least
    8 (they miss below it whatever the chart says); characters at least 2; nobody more
    than 20."""
    floor = 2 if character else AUTO_MISS_BELOW
    return min(20, max(floor, ac - bonus))


def hits(faces: list[int], needed: int) -> int:
    """W4-SHOOT-20: each die equal to or above ``needed`` is a hit."""
    return sum(1 for face in faces if face >= needed)


def chance_to_hit(needed: int) -> float:
    """The chance one d20 scores ``needed`` or more."""
    return (21 - needed) / 20.0


def charge_modifier(speed: float) -> float:
    """W4-CHARGE-09, W4-AMB-11: the charge distance is 1d6 + (Speed - 3)."""
    return speed - 3.0


def charge_distance(roll: int, speed: float) -> float:
    """W4-CHARGE-06/07/09: inches a charge may cover; a roll of 1 fails (0)."""
    if roll == 1:
        return 0.0
    return max(0.0, roll + charge_modifier(speed))


def fall_back_distance(two_d6: int, speed: float) -> float:
    """W4-FLEE-04, W4-BREAK-05, W4-AMB-09: 2d6 + 2 x Speed - 12, never below 0."""
    return max(0.0, two_d6 + 2.0 * speed - 12.0)


def pivot_cost(speed: float, degrees: float) -> int:
    """W4-MOVE-13/14, W4-AMB-89: a centre pivot of up to 90 degrees costs ceil(Speed / 4)
    inches, up to 180 ceil(Speed / 2)."""
    turn = abs(degrees)
    if turn > 180 + 1e-9:
        raise ValueError(f"a centre pivot turns at most 180 degrees, not {degrees}")
    return math.ceil(speed / 4 - 1e-12) if turn <= 90 + 1e-9 else math.ceil(speed / 2 - 1e-12)


_WEAPON = re.compile(r"(\d*)\s*\[\s*[wW]\s*\]")
_DICE = re.compile(r"(\d*)\s*[dD]\s*\d+")


def points_per_hit(damage: str) -> int:
    """W4-RESOLVE-04/05, W4-AMB-28: one point per [W] of a weapon power, otherwise per damage
    die; at least 1 (fixed damage)."""
    weapons = [int(n or 1) for n in _WEAPON.findall(damage)]
    if weapons:
        return max(1, sum(weapons))
    dice = [int(n or 1) for n in _DICE.findall(damage)]
    return max(1, sum(dice))


def unit_strength(size: str, monster: bool = False) -> int:
    """W4-STR-02: one model's unit strength."""
    return SIZE_STRENGTH[size] + (MONSTER_STRENGTH if monster else 0)
