"""Defeats, points and victory (FB-WIN-*, FB-COMBAT-07, FB-REINF-02, FB-AMB-45)."""

from __future__ import annotations

from warhost.core.engine import Battle
from warhost.rulesets.fantasy_battle.state import DEFEATED, IN_POOL, FBState, Unit


def defeat(state: FBState, battle: Battle, unit: Unit, by_side: str) -> None:
    """Remove a defeated unit at once, score its value for ``by_side`` and check victory.

    With reinforcements a non-Unique unit goes to its owner's pool (FB-REINF-02, FB-REINF-05).
    """
    points = unit.point_value()  # fixed at the moment of defeat (FB-AMB-45)
    pooled = state.options.reinforcements and not unit.unique
    state.remove(unit, IN_POOL if pooled else DEFEATED)
    battle.emit("defeated", unit=unit.id, side=unit.side, points=points, by=by_side,
                pooled=pooled)
    add_score(state, battle, by_side, points, why=f"defeated {unit.id}")


def add_score(state: FBState, battle: Battle, side: str, points: int, why: str) -> None:
    """Add points and end the battle at once if the total is reached (FB-WIN-01)."""
    state.scores[side] += points
    battle.emit("score", side=side, points=points, total=state.scores[side], why=why)
    if not state.over and state.scores[side] >= state.victory_points:
        end(state, battle, side, f"{side} reached {state.victory_points} points")


def end(state: FBState, battle: Battle, winner: str | None, reason: str) -> None:
    """Mark the battle over."""
    state.over = True
    state.winner = winner
    state.reason = reason
    battle.emit("victory" if winner else "draw", winner=winner, reason=reason)
