"""Whole battles with characters alone, inside units and riding a monster: they play out
with the invariants holding, the same seed gives the same log, and the character
decisions are asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from warhost.core.engine import run_battle
from warhost.core.registry import get_ruleset
from warhost.core.scenario import load_scenario

HEROES = Path(__file__).parent / "data" / "heroes.yaml"


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_battles_with_characters_keep_the_invariants(kind: str) -> None:
    ruleset = get_ruleset("dnd4e-war")
    scenario = load_scenario(HEROES)
    sides = ruleset.side_names(scenario.model)
    kinds: set[str] = set()
    captured: dict[str, object] = {}

    def keep(round_number: int, state: object) -> None:
        captured["state"] = state

    for seed in range(3):
        result = run_battle(scenario, seed, {s: kind for s in sides}, observers=[keep])
        assert ruleset.check_invariants(captured["state"], result.log.events) == []
        kinds |= {e["type"] for e in result.log.events}
    assert "character_joined" in kinds


def test_the_same_seed_gives_the_same_log_with_characters() -> None:
    scenario = load_scenario(HEROES)
    sides = get_ruleset("dnd4e-war").side_names(scenario.model)
    logs = [run_battle(scenario, 4, {s: "random" for s in sides}).log.to_jsonl()
            for _ in range(2)]
    assert logs[0] == logs[1]
