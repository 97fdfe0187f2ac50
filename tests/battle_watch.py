"""Watching a battle runtime in tests: the decisions put to commanders and the events logged
(shared by the rulesets' test helpers)."""

from __future__ import annotations

from typing import Any

from warhost.core.decisions import Decision
from warhost.core.engine import Battle
from warhost.core.orders import Order


def record(battle: Battle) -> list[Decision]:
    """Every decision put to a commander from now on, in order."""
    seen: list[Decision] = []
    real = battle.decide

    def decide(decision: Decision) -> Order:
        seen.append(decision)
        return real(decision)

    battle.decide = decide  # type: ignore[method-assign]
    return seen


def events(battle: Battle, type_: str) -> list[dict[str, Any]]:
    """The logged events of one type."""
    return battle.log.of_type(type_)
