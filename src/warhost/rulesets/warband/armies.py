"""A plain field battle of any size, for the scale benchmark and the tests of how cost grows."""

from __future__ import annotations

from typing import Any

GAP = 8
"""Squares of open ground between the two front rows."""


def _fighter(cid: str, kind: str, x: int, y: int, facing: str, captain: bool) -> dict[str, Any]:
    return {
        "id": cid, "kind": kind, "captain": captain, "at": [x, y], "facing": facing,
        "stats": {"agility": 4, "melee": 5, "ranged": 4, "strength": 4,
                  "toughness": 6 if captain else 3, "armour": 1, "resolve": 6,
                  "wounds": 5 if captain else 1, "attacks": 1},
        "weapons": [{"name": "spear", "kind": "melee"},
                    {"name": "sling", "kind": "ranged", "strength": 3, "range": 8,
                     "attack_limit": 1}],
    }


def army_scenario(units_per_side: int, rounds: int = 30) -> dict[str, Any]:
    """Scenario data: ``units_per_side`` characters a side (the first a tough Hero and Captain
    at the far end of the back row, so that the whole side's morale rarely turns on one
    blow; the rest Minions) in two rows a side, every other square, facing each other across
    :data:`GAP` squares; the battle stops after ``rounds`` turns. The field grows in width
    only, and every reach is short, so what one character can reach or shoot at is the same
    at every size."""
    n = max(1, units_per_side)
    per_row = -(-n // 2)
    width = max(4, 2 * per_row)
    height = 2 + GAP + 2
    sides = []
    for s, (name, facing) in enumerate((("North", "S"), ("South", "N"))):
        chars = []
        for i in range(n):
            row, col = divmod(n - 1 - i, per_row)  # the Captain last, in the back row
            y = height - 1 - row if s == 0 else row
            chars.append(_fighter(f"{name[0].lower()}{i + 1}", "hero" if i == 0 else "minion",
                                  2 * col, y, facing, i == 0))
        sides.append({"name": name, "commander": "random", "characters": chars})
    return {
        "ruleset": "warband", "name": f"field battle, {n} a side",
        "map": {"width": width, "height": height},
        "options": {"turn_limit": max(1, rounds)},
        "sides": sides,
    }
