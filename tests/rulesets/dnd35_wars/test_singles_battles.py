"""Whole battles with monsters, NPCs, PCs and a squad: the invariants hold every round and
the same seed gives the same log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulesets.dnd35_wars.helpers import invariant_playouts
from warhost.core.engine import run_battle
from warhost.core.registry import get_ruleset
from warhost.core.scenario import load_scenario

SINGLES = Path(__file__).parent / "data" / "singles.yaml"


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_battles_with_singular_creatures_keep_the_invariants(kind: str) -> None:
    problems, _ = invariant_playouts(load_scenario(SINGLES), kind, range(2))
    assert problems == []


def test_the_same_seed_gives_the_same_log_with_singular_creatures() -> None:
    scenario = load_scenario(SINGLES)
    sides = get_ruleset("dnd35-wars").side_names(scenario.model)
    logs = [run_battle(scenario, 3, {s: "random" for s in sides}).log.to_jsonl()
            for _ in range(2)]
    assert logs[0] == logs[1]
