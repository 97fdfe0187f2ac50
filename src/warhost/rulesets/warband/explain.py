"""Why an order is refused, with the rule it breaks (the ruleset's explanation hook)."""

from __future__ import annotations

from typing import Any

from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order


def explain_refusal(state: Any, decision: Decision, order: Order) -> Refusal | None:
    """The reason ``order`` does not answer ``decision`` (None: the generic reason)."""
    return None
