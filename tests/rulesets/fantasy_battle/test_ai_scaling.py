"""How the fantasy-battle AI's work grows with the army, counted (no clock).

Plays a few rounds of the plain field battle (:meth:`FantasyBattle.army_scenario`) with AI
commanders on both sides at two army sizes and fits the exponent of the AI's own counted work
per round (:data:`AI_GEOMETRY`: distances scored, destinations and attack scans examined by
the AI, not the rules' work) against the number of units.
"""

from __future__ import annotations

import math
from collections import Counter

from warhost.core.engine import run_battle
from warhost.core.metering import metered
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.fantasy_battle import FantasyBattle
from warhost.rulesets.fantasy_battle.ai_board import AI_GEOMETRY, AI_TABLE

SIZES = (100, 400)
ROUNDS = 3


def _work_per_round(units: int) -> Counter[str]:
    ruleset = FantasyBattle()
    scenario = scenario_from_data(ruleset.army_scenario(units, ROUNDS), f"<army-{units}>")
    sides = ruleset.side_names(scenario.model)
    with metered() as meter:
        result = run_battle(scenario, 1, {side: "ai" for side in sides}, record=False)
    assert result.rounds == ROUNDS
    return Counter({k: v / result.rounds for k, v in meter.items()})


def _exponent(small: float, large: float) -> float:
    return math.log(large / small) / math.log(SIZES[1] / SIZES[0])


def test_ai_work_per_round_grows_at_most_linearly() -> None:
    small, large = (_work_per_round(n) for n in SIZES)
    assert small[AI_GEOMETRY] > 0
    assert _exponent(small[AI_GEOMETRY], large[AI_GEOMETRY]) <= 1.2
    # The vectorised passes over the unit table read every row once per decision: at most
    # quadratic per round (they cost little next to the per-unit work above).
    assert _exponent(small[AI_TABLE], large[AI_TABLE]) <= 2.2
