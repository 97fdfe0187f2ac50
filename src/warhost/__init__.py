"""warhost: plays, adjudicates and simulates fantasy mass battles under several rule systems.

Example:
    >>> from warhost import load_scenario, run_battle
    >>> scenario = load_scenario("examples/fantasy-battle/skirmish.yaml")  # doctest: +SKIP
    >>> run_battle(scenario, seed=7).winner  # doctest: +SKIP
    'Good'
"""

from __future__ import annotations

__version__ = "0.1.0"

from warhost.core.engine import BattleResult, run_battle
from warhost.core.scenario import Scenario, load_scenario

__all__ = ["BattleResult", "Scenario", "__version__", "load_scenario", "run_battle"]
