"""Battering rams and the units that swing them (W35-RAM).

Plugged into the set-up (``prepare``) and the unit action (:mod:`actions`) through four
functions: ``options`` (the extra
unit actions this module offers), ``judge`` (an order of its kinds not among the options),
``take`` (carry one out) and ``forbids`` (why another module's action is closed to the unit).
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.state import Unit, WarState

ORDER_KINDS: tuple[str, ...] = ()
"""The unit-action order kinds this module carries out."""


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """Set up this module's part of a new battle (called once every unit is placed)."""


def options(state: WarState, unit: Unit) -> list[Order]:
    """The extra unit actions open to ``unit`` now (called for every unit: return at once
    when none can apply)."""
    return []


def judge(state: WarState, unit: Unit, order: Order) -> Order | Refusal | None:
    """Judge an order of this module's kinds that is not among the options."""
    return None


def take(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out an order of this module's kinds."""
    raise ValueError(f"no such action: {order}")


def forbids(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``order`` (of another module) is closed to ``unit``, or None."""
    return None
