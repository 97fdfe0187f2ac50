"""Why an order was refused, with the rule behind it (W4-DEC decisions)."""

from __future__ import annotations

from typing import Any

from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order


def explain_refusal(state: Any, decision: Decision, order: Order) -> Refusal | None:
    """A decision that judges its own orders (``accept``) explains them; others fall back
    on the core's generic refusal (None)."""
    if decision.accept is not None:
        verdict = decision.accept(order)
        if isinstance(verdict, Refusal):
            return verdict
    return None
