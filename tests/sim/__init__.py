"""Tests of the Monte Carlo modules, and what they share: the small skirmish example with
random commanders, and a reference run of it that the other runs must reproduce."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from warhost.core.scenario import Scenario, load_scenario
from warhost.sim.runner import BattleRecord, simulate

SKIRMISH = Path(__file__).resolve().parents[2] / "examples" / "fantasy-battle" / "skirmish.yaml"
RANDOM = {"Good": "random", "Evil": "random"}
RANDOM_ARGS = ["--commander", "Good=random", "--commander", "Evil=random"]
REFERENCE_N = 1600
"""Battles in the reference run (seed 0): any run of n <= this many must equal its first n."""


@lru_cache(maxsize=1)
def skirmish() -> Scenario:
    """The skirmish example, loaded once."""
    return load_scenario(SKIRMISH)


@lru_cache(maxsize=1)
def reference() -> list[BattleRecord]:
    """Battles 0..REFERENCE_N-1 of the skirmish, seed 0, random commanders (2 workers)."""
    return simulate(skirmish(), REFERENCE_N, seed=0, workers=2, commanders=RANDOM).records()
