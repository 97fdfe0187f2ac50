"""A plain field battle of any size, for the scale benchmark and the tests of how cost grows."""

from __future__ import annotations

from typing import Any

MEMBERS = 16
"""Members of every unit: two ranks of eight in Close Stance."""
FILES = 8
"""Files of every formation (``formation_files``)."""
COLUMN = 9.0
"""Inches between the centres of neighbouring units in a row: room for an Open Stance block
(7.5 in across) with a gap."""
ROW = 4.0
"""Inches between the centres of a side's rows."""
NO_MANS_LAND = 18.0
"""Inches between the two front rows' centres, the same at every size."""
MOST_COLUMNS = 44
"""Units in a row at most (the board stays within 400 in)."""

_GUARD: dict[str, Any] = {
    "name": "Guard", "ac": 16, "hp": 11, "speed": 30, "dex": 1,
    "attacks": [{"name": "Spear", "bonus": 3, "damage": "1d6+1", "damage_type": "piercing"}],
}
_SLINGER: dict[str, Any] = {
    "name": "Slinger", "ac": 13, "hp": 16, "speed": 30, "dex": 2,
    "attacks": [
        {"name": "Sling", "kind": "ranged", "bonus": 4, "damage": "1d4+2",
         "damage_type": "bludgeoning", "range": 30, "long_range": 120},
        {"name": "Shortsword", "bonus": 4, "damage": "1d6+2", "damage_type": "piercing"},
    ],
    "multiattack": ["Shortsword", "Shortsword"],
}
_VETERAN: dict[str, Any] = {
    "name": "Veteran", "ac": 17, "hp": 58, "speed": 30, "dex": 1,
    "saves": {"cha": 0}, "skills": {"persuasion": 1, "insight": 0, "history": 0},
    "attacks": [
        {"name": "Longsword", "bonus": 5, "damage": "1d8+3", "damage_type": "slashing"},
        {"name": "Javelin", "kind": "ranged", "bonus": 5, "damage": "1d6+3",
         "damage_type": "piercing", "range": 30, "long_range": 120},
    ],
    "multiattack": ["Longsword", "Longsword"],
}


def army_scenario(units_per_side: int, rounds: int = 30) -> dict[str, Any]:
    """Scenario data: ``units_per_side`` units of 16 a side, each led by a Veteran, drawn up
    in rows facing each other across 18 in of open ground (spearmen in the front row, slingers
    behind); the battle stops after ``rounds`` rounds. Every range is short (120 ft at most),
    so what one unit can reach or shoot at is the same at every size.

    Rows hold up to :data:`MOST_COLUMNS` units, two rows a side at least, so the board grows
    with the army and the number of units per square inch stays about the same."""
    units = max(1, units_per_side)
    rows = max(2, -(-units // MOST_COLUMNS))
    columns = -(-units // rows)
    width = COLUMN * columns
    front = 2.0 + ROW * (rows - 1)  # centre of the front row; the back row's is 2 in in
    height = 2 * front + NO_MANS_LAND
    sides = []
    for index, (name, edge) in enumerate([("South", "south"), ("North", "north")]):
        listed = []
        for k in range(units):
            row, column = divmod(k, columns)
            y = front - ROW * row
            x = COLUMN * (column + 0.5)
            listed.append({
                "id": f"{name[0]}{k}",
                "name": f"{name} {'spears' if row % 2 == 0 else 'slingers'} {k}",
                "members": MEMBERS,
                "member": _GUARD if row % 2 == 0 else _SLINGER,
                "commander": _VETERAN,
                "at": [x, y if index == 0 else height - y],
                "facing": 0 if index == 0 else 180,
                "stance": "close",
                "track": "aggressive" if row % 2 == 0 else "supporting",
            })
        sides.append({"name": name, "edge": edge, "deployment_depth": front + 2.0,
                      "units": listed})
    return {
        "ruleset": "dnd5e-tactics", "name": f"army-{units}",
        "defender": "South",
        "board": {"width": width, "height": height},
        "options": {"max_rounds": rounds, "formation_files": FILES},
        "sides": sides,
    }
