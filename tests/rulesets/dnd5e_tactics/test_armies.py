"""The army scenario of the scale benchmark (``Ruleset.army_scenario``)."""

from __future__ import annotations

import pytest

from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd5e_tactics.model import BOARD_MAX


@pytest.mark.parametrize("size", [8, 32, 64])
def test_army_scenario_validates(size: int) -> None:
    data = get_ruleset("dnd5e-tactics").army_scenario(size, rounds=7)
    scenario = scenario_from_data(data, f"<army-{size}>")
    model = scenario.model
    assert [len(s.units) for s in model.sides] == [size, size]
    assert model.options.max_rounds == 7
    assert model.board.width <= BOARD_MAX and model.board.height <= BOARD_MAX
    for side in model.sides:
        for unit in side.units:
            assert unit.at is not None and unit.stance and unit.track
            assert unit.commander.name == "Veteran"


def test_board_grows_with_the_army() -> None:
    ruleset = get_ruleset("dnd5e-tactics")
    areas = []
    for size in (8, 32, 64):
        board = ruleset.army_scenario(size)["board"]
        areas.append(board["width"] * board["height"] / size)
    assert max(areas) <= 1.5 * min(areas)
