"""A plain field battle of any size, for the scale benchmark and the tests of how cost grows."""

from __future__ import annotations

from typing import Any


def army_scenario(units_per_side: int, rounds: int = 30) -> dict[str, Any]:
    """Scenario data: ``units_per_side`` Standard Warriors a side in Infantry squads of 4, each
    squad a 2x2 block, the two armies facing each other across 12 empty rows; the battle stops
    after ``rounds`` rounds."""
    squads_per_side = max(1, units_per_side // 4)
    width = max(20, min(400, 2 * int((squads_per_side * 4) ** 0.5) + 4))
    width -= width % 2
    blocks_per_row = width // 2
    depth = 2 * -(-squads_per_side // blocks_per_row)
    height = depth * 2 + 12
    sides = []
    for index, name in enumerate(["West", "East"]):
        y_base = 0 if index == 0 else height - depth
        squads = []
        for s in range(squads_per_side):
            bx, by = 2 * (s % blocks_per_row), y_base + 2 * (s // blocks_per_row)
            corners = [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)]
            members = [{"id": f"{name[0]}{s}-{m}", "class": "warrior", "at": list(corners[m])}
                       for m in range(4)]
            squads.append({"id": f"{name}-{s}", "type": "infantry", "members": members})
        sides.append({"name": name, "start_area": [[0, y_base], [width - 1, y_base + depth - 1]],
                      "squads": squads})
    return {"ruleset": "fantasy-battle", "name": f"army-{units_per_side}",
            "victory_points": squads_per_side * 4 // 2 + 1,
            "options": {"max_rounds": rounds, "first_player": "West"},
            "battlefield": {"width": width, "height": height}, "sides": sides}
