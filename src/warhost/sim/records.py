"""The flat records a Monte Carlo run produces: one per battle, one per unit of a battle."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class UnitRow:
    """What became of one unit in one battle (``survivors + losses == start``)."""

    unit: str
    side: str
    start: int
    survivors: int
    losses: int
    fate: str
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return asdict(self)


@dataclass
class BattleRecord:
    """One battle of a run: its index and seed, the outcome, and every unit's fate."""

    battle: int
    seed: int
    winner: str | None
    rounds: int
    reason: str
    scores: dict[str, int]
    units: list[UnitRow] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return asdict(self)
