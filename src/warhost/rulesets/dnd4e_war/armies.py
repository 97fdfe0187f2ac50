"""A plain field battle of any size, for the scale benchmark and the tests of how cost
grows."""

from __future__ import annotations

from typing import Any

GAP = 14.0
"""Inches of open ground between the two battle lines."""

_PROFILE = {
    "name": "Line infantry", "race": "human", "speed": 6, "initiative": 2,
    "defenses": {"ac": 16, "fortitude": 14, "reflex": 13, "will": 13},
    "unit_size": [1, 4], "level": 3,
    "powers": [
        {"name": "Spear", "kind": "melee", "bonus": 7, "damage": "1[W]+3",
         "weapon_dice": "1d8"},
        {"name": "Javelin", "kind": "ranged", "bonus": 6, "range": 10, "damage": "1d6+3"},
    ],
}


def army_scenario(units_per_side: int, rounds: int = 30) -> dict[str, Any]:
    """Scenario data: ``units_per_side`` two-company units a side in one long line, facing
    each other across :data:`GAP` inches; the table grows in width only."""
    n = max(1, units_per_side)
    pitch = 10.0  # two 4-inch companies and 2 inches between units
    width = max(72.0, n * pitch + 4.0)
    height = 2 * 6.0 + GAP + 8.0
    sides = []
    for s, (name, y, facing) in enumerate((("North", height - 4.0, 180.0),
                                           ("South", 4.0, 0.0))):
        units = [{"id": f"{'ns'[s]}{i}", "profile": "Line infantry", "companies": 2,
                  "files": 2, "at": [2.0 + pitch * i + 5.0, y], "facing": facing}
                 for i in range(n)]
        sides.append({"name": name, "units": units})
    return {"ruleset": "dnd4e-war", "name": f"Field battle, {n} units a side",
            "table": {"width": width, "height": height},
            "options": {"turn_limit": min(rounds, 1000), "deployment_depth": 0},
            "profiles": {"Line infantry": _PROFILE}, "sides": sides}
