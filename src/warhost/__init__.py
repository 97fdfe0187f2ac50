"""warhost: plays, adjudicates and simulates fantasy mass battles under several rule systems.

Example:
    >>> from warhost import load_scenario, run_battle
    >>> scenario = load_scenario("examples/fantasy-battle/skirmish.yaml")  # doctest: +SKIP
    >>> run_battle(scenario, seed=7).winner  # doctest: +SKIP
    'Good'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from warhost.core.engine import BattleResult, run_battle
    from warhost.core.scenario import Scenario, load_scenario
    from warhost.core.stepping import SteppedBattle

__all__ = ["BattleResult", "Scenario", "SteppedBattle", "__version__", "load_scenario",
           "run_battle"]

_LAZY = {"BattleResult": "warhost.core.engine", "run_battle": "warhost.core.engine",
         "Scenario": "warhost.core.scenario", "load_scenario": "warhost.core.scenario",
         "SteppedBattle": "warhost.core.stepping"}


def __getattr__(name: str) -> Any:
    """The library's entry points, imported when first used (``warhost --version`` stays fast)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'warhost' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
