"""A plain field battle of any size, for the scale benchmark and the tests of how cost grows
with the army (the ruleset's ``army_scenario`` hook).

Two lines of units face each other across :data:`GAP` open squares at the 25-ft scale (the
scale W35-SCALE-04 recommends for units of 101 to 400 Medium creatures); the map grows in
width only. The units cycle through line foot, slingers, heavy foot and light horse, each a
block of 4 to 8 counters two ranks deep. The slings reach 12 squares (10 increments of 30 ft
at 25 ft a square), short of even a small army's line, so what one unit can shoot at stays
bounded as the armies grow.
"""

from __future__ import annotations

from typing import Any

from warhost.core.bounds import MAX_ROUNDS
from warhost.rulesets.dnd35_wars.model import MAP_MAX

SCALE = 25
"""Feet per square."""

GAP = 8
"""Open squares between the front ranks (W35-PLACE-07 asks for at least 6)."""

PITCH = 5
"""Columns given to each unit in its line: up to 4 files and one open column."""

DEPTH = 2
"""Ranks of every block."""

MARGIN = 3
"""Open squares behind each line and at each end of the map."""


def _attack(name: str, bonus: int, damage: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "bonus": bonus, "damage": damage, **extra}


_FOOT = {"name": "human warrior", "hp": 6, "ac": 15, "touch_ac": 10, "speed": 30, "initiative": 0,
         "fort": 3, "ref": 0, "will": 0, "cha": 10, "class": "warrior",
         "melee": [_attack("longspear", 2, "1d8+1", crit_multiplier=3)]}
_ARCHER = {"name": "human slinger", "hp": 5, "ac": 14, "touch_ac": 12, "speed": 30, "initiative": 2,
           "fort": 2, "ref": 2, "will": -1, "cha": 8, "class": "warrior",
           "melee": [_attack("shortsword", 1, "1d6", crit_range=19)],
           "ranged": [_attack("sling", 3, "1d4", range_increment=30)]}
_HEAVY = {"name": "dwarf defender", "hp": 8, "ac": 17, "touch_ac": 10, "speed": 20, "initiative": -1,
          "fort": 4, "ref": 0, "will": 1, "cha": 8, "class": "fighter",
          "melee": [_attack("waraxe", 3, "1d10+1", crit_multiplier=3)]}
_RIDER = {"name": "light rider", "hp": 9, "ac": 15, "touch_ac": 11, "speed": 30, "initiative": 1,
          "fort": 3, "ref": 1, "will": 0, "cha": 10, "class": "warrior",
          "melee": [_attack("lance", 3, "1d8+1", crit_multiplier=3)]}

KINDS: tuple[tuple[str, dict[str, Any], int, int, dict[str, Any]], ...] = (
    ("foot", _FOOT, 150, 3, {}),
    ("archers", _ARCHER, 100, 2, {}),
    ("heavy", _HEAVY, 200, 4, {}),
    ("horse", _RIDER, 42, 4, {"mount": {"size": "large", "speed": 60,
                                         "attacks": ["1d4+1"]}}),
)
"""Each kind of unit: name, typical creature, creatures, files and extra unit fields (at 25 ft:
6, 4, 8 and 7 counters)."""


PER_LINE = (MAP_MAX - 2 * MARGIN) // PITCH
"""The most units in one line: a larger army forms further lines behind the first."""


def _unit(side: int, index: int, front: int, column: int) -> dict[str, Any]:
    """The ``index``-th unit of a side, ``column`` places along its line, with its front rank
    on row ``front``."""
    kind, creature, count, files, extra = KINDS[index % len(KINDS)]
    west = MARGIN + PITCH * column
    facing = "N" if side == 0 else "S"
    # A block's `at` is its front-left counter: the west end facing north, the east facing south.
    at = [west, front] if side == 0 else [west + files - 1, front]
    return {"id": f"{'ab'[side]}{kind}{index}", "creature": dict(creature), "count": count,
            "at": at, "columns": files, "facing": facing, **extra}


def army_scenario(units_per_side: int, rounds: int = 30) -> dict[str, Any]:
    """Scenario data: ``units_per_side`` units a side in facing lines (one line each up to
    :data:`PER_LINE` units, further lines behind), stopping after ``rounds`` rounds (option
    ``round_limit``)."""
    n = max(1, units_per_side)
    per_line = min(n, PER_LINE)
    lines = -(-n // per_line)
    width = max(20, 2 * MARGIN + PITCH * per_line)
    step = DEPTH + 1  # a line and the open row behind it
    south = [MARGIN + DEPTH - 1 + step * (lines - 1 - k) for k in range(lines)]
    north = [south[0] + GAP + 1 + step * k for k in range(lines)]
    height = north[-1] + DEPTH + MARGIN
    sides = [
        {"name": name, "home_edge": edge,
         "units": [_unit(s, i, fronts[i // per_line], i % per_line) for i in range(n)]}
        for s, (name, edge, fronts) in enumerate((("South", "south", south),
                                                  ("North", "north", north)))
    ]
    return {"ruleset": "dnd35-wars", "name": f"Field battle, {n} units a side", "scale": SCALE,
            "map": {"width": width, "height": height},
            "options": {"round_limit": max(1, min(rounds, MAX_ROUNDS))}, "sides": sides}
