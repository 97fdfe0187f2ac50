"""What rules code works with: the state plus the battle's dice, log and commanders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from warhost.core.decisions import Acceptor, Decision
from warhost.core.engine import Battle
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.rulesets.dnd5e_tactics.state import Body, T5State, Unit


@dataclass(eq=False)
class Ctx:
    """One battle in progress. Rules functions take a ``Ctx`` and never print."""

    state: T5State
    battle: Battle

    def emit(self, type_: str, **fields: Any) -> None:
        """Record an event."""
        self.battle.emit(type_, **fields)

    def d20(self, why: str, **fields: Any) -> int:
        """One recorded d20."""
        return self.battle.dice.pool(1, 20, why, **fields)[0]

    def d6(self, why: str, **fields: Any) -> int:
        """One recorded d6 (the divisor column, T5-ATTACK-06)."""
        return self.battle.dice.pool(1, 6, why, **fields)[0]

    def roll(self, expr: str, why: str, **fields: Any) -> int:
        """A recorded roll of a dice expression."""
        return self.battle.dice.roll(expr, why, **fields)

    def ask(
        self,
        side: str,
        kind: str,
        options: Sequence[Order],
        *,
        prompt: str = "",
        subject: str = "",
        default: Order | None = None,
        accept: Acceptor | None = None,
        **info: Any,
    ) -> Order:
        """Put a decision to ``side``'s commander and return the legal order it chose.
        ``accept`` makes it open: it judges orders beyond ``options`` (a move to any point)."""
        count(OPTIONS, len(options))
        return self.battle.decide(
            Decision(
                side=side, kind=kind, options=tuple(options), prompt=prompt, subject=subject,
                default=default, info=info, accept=accept,
            )
        )

    def change_rank(self, unit: Unit, delta: int, why: str) -> None:
        """Move a unit along its Tactics Track, clamped to -3..+3 unless ``rank_clamp`` is off
        (T5-AMB-05); the change applies at once (T5-TACTICS-12). Emits ``rank``."""
        before = unit.rank
        after = before + delta
        if self.state.options.rank_clamp:
            after = max(-3, min(3, after))
        unit.rank = after
        self.emit("rank", unit=unit.id, before=before, after=after, change=delta, why=why)

    def body(self, body_id: str) -> Body:
        """A body by id."""
        return self.state.bodies[body_id]
