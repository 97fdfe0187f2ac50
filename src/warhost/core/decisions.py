"""Decisions: a question the rules put to one side, with the legal orders to choose from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warhost.core.orders import Order


@dataclass(frozen=True)
class Decision:
    """A choice for ``side``. ``options`` holds every legal order; the engine enforces them.

    ``kind`` names the sort of choice (``activate``, ``move``, ``attack``, ``fate`` ...) and
    ``subject`` the unit it concerns, if any. ``info`` carries plain data a commander may use.
    ``default`` is what a script that does not address this decision gets.
    """

    side: str
    kind: str
    options: tuple[Order, ...]
    prompt: str = ""
    subject: str = ""
    default: Order | None = None
    info: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def find(self, order: Order | str) -> Order | None:
        """The legal option equal to ``order`` (given as an Order or its text), or None."""
        wanted = Order.parse(order) if isinstance(order, str) else order
        for option in self.options:
            if option == wanted:
                return option
        return None
