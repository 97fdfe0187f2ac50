"""How the work of a dnd5e-tactics round grows with the army, counted, not timed
(:mod:`warhost.core.metering`): geometry queries and options built per round, at two army
sizes, with random and with AI commanders."""

from __future__ import annotations

import math

import pytest

from warhost.core.engine import run_battle
from warhost.core.metering import GEOMETRY, OPTIONS, metered
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data

SIZES = (16, 64)
"""Units a side. The smallest army scenarios fit inside the few cells a search looks at, so
the comparison starts at 16 (at 8 the whole table is one neighbourhood)."""
ROUNDS = 4
"""Enough for the lines to meet (round 3), so engagement is counted too."""


def work_per_round(units: int, kind: str) -> dict[str, float]:
    """Geometry queries and options counted per round of a seeded army battle."""
    scenario = scenario_from_data(get_ruleset("dnd5e-tactics").army_scenario(units, ROUNDS),
                                  f"<army-{units}>")
    with metered() as meter:
        result = run_battle(scenario, 3, {"South": kind, "North": kind}, record=False)
    assert result.rounds == ROUNDS
    return {key: meter[key] / result.rounds for key in (GEOMETRY, OPTIONS)}


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_work_per_round_grows_at_most_linearly(kind: str) -> None:
    small, large = (work_per_round(n, kind) for n in SIZES)
    for key in (GEOMETRY, OPTIONS):
        assert small[key] > 0
        exponent = math.log(large[key] / small[key]) / math.log(SIZES[1] / SIZES[0])
        assert exponent <= 1.2, f"{key}: {small[key]:.0f} -> {large[key]:.0f} per round"
