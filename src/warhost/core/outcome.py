"""What a battle leaves behind: each unit's fate, the outcome, and the whole result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warhost import __version__
from warhost.core.events import EventLog
from warhost.core.orders import Order


@dataclass
class UnitFate:
    """What became of one unit: strength at the start and at the end, and how it ended."""

    id: str
    side: str
    name: str
    start: int
    survivors: int
    fate: str

    @property
    def losses(self) -> int:
        """Strength lost: survivors + losses always equals the starting strength."""
        return self.start - self.survivors

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "start": self.start,
            "survivors": self.survivors,
            "losses": self.losses,
            "fate": self.fate,
        }


@dataclass
class Outcome:
    """The end of a battle as the ruleset sees it."""

    winner: str | None
    scores: dict[str, int]
    rounds: int
    units: list[UnitFate]
    reason: str = ""


@dataclass
class BattleResult:
    """Everything one battle produced."""

    ruleset: str
    scenario: str
    seed: int
    outcome: Outcome
    log: EventLog
    decided: list[tuple[str, str, Order]] = field(default_factory=list, repr=False)
    """The decisions taken, in order: (side, kind, order)."""

    @property
    def decisions(self) -> list[dict[str, Any]]:
        """The decisions taken, as replay files keep them (``side``, ``kind``, ``order`` text)."""
        return decision_records(self.decided)

    @property
    def winner(self) -> str | None:
        """The winning side's name, or None for a draw."""
        return self.outcome.winner

    @property
    def rounds(self) -> int:
        """Rounds played."""
        return self.outcome.rounds

    def summary(self) -> dict[str, Any]:
        """The result as one JSON-ready document."""
        o = self.outcome
        return {
            "warhost": __version__,
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "seed": self.seed,
            "winner": o.winner,
            "reason": o.reason,
            "scores": o.scores,
            "rounds": o.rounds,
            "units": [u.to_json() for u in o.units],
            "events": len(self.log),
            "log_sha256": self.log.digest(),
        }


def decision_records(decided: list[tuple[str, str, Order]]) -> list[dict[str, Any]]:
    """(side, kind, order) tuples as the records replay files keep."""
    return [{"side": side, "kind": kind, "order": str(order)} for side, kind, order in decided]


