"""The `dnd4e-war` AI commander. PLACEHOLDER: takes each decision's default (or first)
option; the AI helper replaces it."""

from __future__ import annotations

from typing import Any

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order


class WarAI(Commander):
    """Plays a side of `dnd4e-war`."""

    kind = "ai"

    def choose(self, decision: Decision, state: Any) -> Order:
        """The decision's default, else its first option."""
        return decision.default if decision.default is not None else decision.option(0)
