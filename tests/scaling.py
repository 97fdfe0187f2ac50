"""How the work of a round grows with the army, counted, not timed
(:mod:`warhost.core.metering`): the shared part of each ruleset's ``test_scaling.py``."""

from __future__ import annotations

import math

from warhost.core.engine import run_battle
from warhost.core.metering import GEOMETRY, OPTIONS, metered
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data

KINDS = (GEOMETRY, OPTIONS)
"""The work counted: geometry queries and options built."""


def work_per_round(ruleset: str, units: int, rounds: int, kind: str,
                   seed: int = 3) -> dict[str, float]:
    """Work counted per round of one seeded battle of the ruleset's army scenario, every side
    commanded by ``kind``; the battle must last exactly ``rounds`` rounds."""
    rules = get_ruleset(ruleset)
    scenario = scenario_from_data(rules.army_scenario(units, rounds), f"<army-{units}>")
    sides = rules.side_names(scenario.model)
    with metered() as meter:
        result = run_battle(scenario, seed, {side: kind for side in sides}, record=False)
    assert result.rounds == rounds
    return {key: meter[key] / result.rounds for key in KINDS}


def growth_exponent(small: float, large: float, sizes: tuple[int, int]) -> float:
    """k in work ~ units^k, from the work at two army sizes."""
    return math.log(large / small) / math.log(sizes[1] / sizes[0])
