"""Singular creatures casting spells, and what spells do to units and creatures (W35-MAGIC,
W35-SPELL, W35-ABIL-06/07).

Plugged into a singular creature's action (:mod:`singles`, :mod:`inunit`) through
``cast_options`` (the casts open to it), ``judge_cast`` (a cast not among them) and
``take_cast`` (carry one out).
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.state import Single, WarState

CAST_KINDS: tuple[str, ...] = ()
"""The order kinds of a singular creature's casts (and turning)."""


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """Set up the casters of a new battle (called once every unit is placed)."""


def cast_options(state: WarState, single: Single) -> list[Order]:
    """The casts open to ``single`` now."""
    return []


def judge_cast(state: WarState, single: Single, order: Order) -> Order | Refusal | None:
    """Judge a cast that is not among the options: the order, or why it is refused."""
    return None


def take_cast(state: WarState, battle: Battle, single: Single, order: Order) -> None:
    """Carry out a cast."""
    raise ValueError(f"no such cast: {order}")
