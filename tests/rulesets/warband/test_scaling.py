"""How the work of a warband turn grows with the army, counted, not timed
(:mod:`warhost.core.metering`): squares searched, lines of sight and options built per turn,
at two army sizes, with random and with AI commanders."""

from __future__ import annotations

import math

import pytest

from warhost.core.engine import run_battle
from warhost.core.metering import GEOMETRY, OPTIONS, metered
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data

SIZES = (50, 200)
"""Characters a side, in two rows a side on a field that grows in width."""
TURNS = 4
"""Enough for the lines to meet, so melee, morale and routs are counted too."""


def work_per_turn(chars: int, kind: str) -> dict[str, float]:
    """Work counted per turn of a seeded field battle."""
    scenario = scenario_from_data(get_ruleset("warband").army_scenario(chars, TURNS),
                                  f"<army-{chars}>")
    with metered() as meter:
        result = run_battle(scenario, 3, {"North": kind, "South": kind}, record=False)
    assert result.rounds == TURNS
    return {key: meter[key] / result.rounds for key in (GEOMETRY, OPTIONS)}


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_work_per_turn_grows_at_most_linearly(kind: str) -> None:
    small, large = (work_per_turn(n, kind) for n in SIZES)
    for key in (GEOMETRY, OPTIONS):
        assert small[key] > 0
        exponent = math.log(large[key] / small[key]) / math.log(SIZES[1] / SIZES[0])
        assert exponent <= 1.2, f"{key}: {small[key]:.0f} -> {large[key]:.0f} per turn"
