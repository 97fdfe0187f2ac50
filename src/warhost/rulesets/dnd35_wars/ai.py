"""The `ai` commander of `dnd35-wars`.

SKELETON: attacks when it can, otherwise moves toward the nearest enemy; the AI helper
replaces this module.
"""

from __future__ import annotations

from typing import Any

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars.state import WarState


class WarsAI(Commander):
    """Attack if possible, else close with the nearest enemy unit."""

    kind = "ai"

    def choose(self, decision: Decision, state: Any) -> Order:
        if decision.kind == "unit_action" and isinstance(state, WarState):
            order = self._unit_action(decision, state)
            if order is not None:
                return order
        return decision.default if decision.default is not None else decision.options[0]

    def _unit_action(self, decision: Decision, state: WarState) -> Order | None:
        attacks = [o for o in decision.options if o.kind in ("melee", "charge", "shoot")]
        if attacks:
            return attacks[0]
        unit = state.units[decision.subject]
        foes = [u for u in state.units.values() if u.side != unit.side and u.on_map]
        if not foes:
            return None
        fx, fy = min((sq for u in foes for sq in u.squares),
                     key=lambda s: min(max(abs(s[0] - x), abs(s[1] - y)) for x, y in unit.squares))

        def after(order: Order) -> int:
            dx, dy = (int(v) for v in str(order.args[1]).split(","))
            return min(max(abs(fx - x - dx), abs(fy - y - dy)) for x, y in unit.squares)

        moves = [o for o in decision.options if o.kind == "move"]
        return min(moves, key=after) if moves else None
