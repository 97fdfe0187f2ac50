"""Step 4 of a unit's turn: exactly one unit action (W35-UMOVE-01, W35-DEC-12).

The legal actions come from the modules that carry them out — move actions from
:mod:`movement`, attack actions (charges included) from :mod:`combat`, defence actions from
:mod:`defence` — and the chosen order goes back to the module that offered it. A routed unit
does not choose: it disengages or flees (W35-MORALE-07); a unit stuck inside an ally after a
pass-through does nothing (W35-UMOVE-19).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import combat, defence, movement, ram, siege, tower, ucast
from warhost.rulesets.dnd35_wars.state import Unit, WarState

HOLD = Order("hold")
"""No unit action this round (W35-UMOVE-04)."""

Taker = Callable[[WarState, Battle, Unit, Order], None]

TAKERS: dict[str, Taker] = {}
"""The module function that carries out each order kind, filled below."""
for kind in movement.ORDER_KINDS:
    TAKERS[kind] = movement.take_move
for kind in combat.ORDER_KINDS:
    TAKERS[kind] = combat.take_attack
for kind in defence.ORDER_KINDS:
    TAKERS[kind] = defence.take_defence

class Plugin(Protocol):
    """A module adding unit actions of its own (see :mod:`siege`)."""

    ORDER_KINDS: tuple[str, ...]

    def options(self, state: WarState, unit: Unit) -> list[Order]: ...

    def judge(self, state: WarState, unit: Unit, order: Order) -> Order | Refusal | None: ...

    def take(self, state: WarState, battle: Battle, unit: Unit, order: Order) -> None: ...

    def forbids(self, state: WarState, unit: Unit, order: Order) -> Refusal | None: ...


PLUGINS: tuple[Plugin, ...] = (siege, tower, ram, ucast)
"""Modules that add unit actions of their own and close others to their kinds of unit."""
for plugin in PLUGINS:
    for kind in plugin.ORDER_KINDS:
        TAKERS[kind] = plugin.take


def forbidden(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why a plug-in module closes ``order`` to ``unit`` (a siege unit cannot charge ...)."""
    for plugin in PLUGINS:
        refusal = plugin.forbids(state, unit, order)
        if refusal is not None:
            return refusal
    return None


def legal_actions(state: WarState, unit: Unit) -> list[Order]:
    """Every unit action ``unit`` may take now; ``hold`` first."""
    options = [HOLD]
    options += movement.move_options(state, unit)
    if unit.stuck_in is not None:  # a passer stuck in an ally may only pass on out (W35-UMOVE-19)
        return options
    options += combat.attack_options(state, unit)
    options += defence.defence_options(state, unit)
    if unit.machine is not None or unit.casts:
        options = [o for o in options if o == HOLD or forbidden(state, unit, o) is None]
    for plugin in PLUGINS:
        options += plugin.options(state, unit)
    return options


def judge(state: WarState, unit: Unit) -> Callable[[Order], Order | Refusal | None]:
    """Judge an order not among the listed options: a move to another square by the movement
    rules, an attack or defence by the combat rules; an order of another kind, or for another
    unit, is left to the ruleset's explanation (``explain.py``) to refuse with its reason."""
    def accept(order: Order) -> Order | Refusal | None:
        if not order.args or str(order.args[0]) != unit.id:
            return None
        for plugin in PLUGINS:
            if order.kind in plugin.ORDER_KINDS:
                return plugin.judge(state, unit, order)
        refusal = forbidden(state, unit, order)
        if refusal is not None:
            return refusal
        if order.kind in movement.ORDER_KINDS:
            return movement.judge_move(state, unit, order)
        if order.kind in combat.ORDER_KINDS + defence.ORDER_KINDS:
            return combat.judge_attack(state, unit, order)
        return None
    return accept


def unit_action(state: WarState, battle: Battle, unit: Unit) -> None:
    """Ask for and carry out ``unit``'s one unit action."""
    if unit.routed:
        movement.flee(state, battle, unit)
        return
    if unit.stuck_in is not None and movement.still_stuck(state, unit):
        battle.emit("stuck", unit=unit.id, inside=unit.stuck_in)
        return
    options = legal_actions(state, unit)
    order = battle.ask(unit.side, "unit_action", tuple(options),
                       f"{unit.label}: unit action?", unit.id, default=HOLD,
                       accept=judge(state, unit))
    unit.set_vs_charge = unit.set_vs_charge and (
        order.kind in defence.ORDER_KINDS + ("hold",) or siege.keeps_set(state, unit, order))
    if order == HOLD:
        battle.emit("hold", unit=unit.id)
        return
    TAKERS[order.kind](state, battle, unit, order)
