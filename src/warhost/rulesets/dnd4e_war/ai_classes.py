"""The AI's answers to the class war rules' decisions (W4-DEC-32): a druid stays in (or
takes) beast form, since it makes him and his unit cause fear (W4-CLASS-10); a barbarian
spends Devastating Rampage at its first chance, since it is offered only when the
multiattack gives more than one basic attack (W4-CLASS-06)."""

from __future__ import annotations

from collections.abc import Callable

from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war.state import WarState


def _ending(decision: Decision, word: str) -> Order | None:
    """The option whose last word is ``word``."""
    for i in range(decision.option_count):
        order = decision.option(i)
        if order.args and str(order.args[-1]) == word:
            return order
    return None


def beast_form(decision: Decision, state: WarState) -> Order | None:
    """In beast form: fear is worth more than the powers the form gives up (not modelled)."""
    return _ending(decision, "on")


def rampage(decision: Decision, state: WarState) -> Order | None:
    """Devastating Rampage now: the most attacks the free attack can give."""
    return _ending(decision, "multiattack")


HANDLERS: dict[str, Callable[[Decision, WarState], Order | None]] = {
    "class_beast_form": beast_form,
    "class_rampage": rampage,
}
