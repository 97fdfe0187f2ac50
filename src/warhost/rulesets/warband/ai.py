"""The `warband` AI commander."""

from __future__ import annotations

from typing import Any

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order


class WarbandAI(Commander):
    """Plays the way a sensible player would (first version: the default or first option)."""

    kind = "ai"

    def choose(self, decision: Decision, state: Any) -> Order:
        default = decision.default
        return default if default is not None else decision.option(0)
