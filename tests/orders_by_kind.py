"""A test driver: answers a decision with the next listed order when that order's kind is
among the decision's options, and hands every other decision to a fallback commander.

Rule tests use it to steer just the decisions they are about. It is not the ``scripted``
commander of orders files, which reads its lines strictly in order
(:class:`warhost.core.commanders.ScriptedCommander`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision, Refusal
from warhost.core.errors import IllegalOrderError
from warhost.core.orders import Order


class OrdersByKind(Commander):
    """The next order of ``orders`` for a decision that offers its kind; else ``fallback``."""

    kind = "scripted"

    def __init__(self, orders: Sequence[str], fallback: Commander) -> None:
        self.orders = list(orders)
        self.position = 0
        self.fallback = fallback

    def bind(self, side: str, rng: np.random.Generator) -> None:
        super().bind(side, rng)
        self.fallback.bind(side, rng)

    def choose(self, decision: Decision, state: Any) -> Order:
        if self.position < len(self.orders):
            text = self.orders[self.position]
            wanted = Order.parse(text)
            if any(option.kind == wanted.kind for option in decision.options):
                self.position += 1
                verdict = self.judge(decision, text)
                if isinstance(verdict, Refusal):
                    raise IllegalOrderError(f"{text!r} for {decision.kind}: {verdict}",
                                            line=self.position, field="order")
                return verdict
        return self.fallback.choose(decision, state)
