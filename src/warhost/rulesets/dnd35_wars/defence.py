"""Unit defence actions (W35-DEFEND): set against a charge, and the phalanx.

SKELETON: no defence actions yet; the combat helper fills this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars.state import Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("set", "phalanx")
"""The order kinds this module offers and carries out."""


def defence_options(state: WarState, unit: Unit) -> list[Order]:
    """The defence actions ``unit`` may take."""
    return []


def take_defence(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out a defence action."""
