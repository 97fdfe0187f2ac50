"""Unit move actions (W35-UMOVE, W35-TERR, W35-AMB-12): moving the whole formation, and a
routed unit's flight.

SKELETON: whole-square moves of the formation in the eight directions up to its whole move
rate, no terrain costs or banking yet; the movement helper replaces this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Square
from warhost.rulesets.dnd35_wars.state import FLED, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("move",)
"""The order kinds this module offers and carries out."""


def _free(state: WarState, unit: Unit, squares: set[Square]) -> bool:
    return all(state.inside(sq) and state.at.get(sq, unit.id) == unit.id for sq in squares)


def _shifted(unit: Unit, dx: int, dy: int) -> set[Square]:
    return {(x + dx, y + dy) for x, y in unit.squares}


def move_options(state: WarState, unit: Unit) -> list[Order]:
    """Moves of the whole formation straight in one of eight directions."""
    if state.foes_engaged(unit.id):
        return []
    reach = int(unit.rate)
    out = []
    for dx, dy in DIRECTIONS8:
        for n in range(1, reach + 1):
            if not _free(state, unit, _shifted(unit, dx * n, dy * n)):
                break
            out.append(Order.of("move", unit.id, f"{dx * n},{dy * n}"))
    return out


def judge_move(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """Any move not offered is refused."""
    return Refusal(f"{order} is not a legal move for {unit.label}", rule="W35-UMOVE-02")


def take_move(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Shift the formation by the order's offset."""
    dx, dy = (int(v) for v in str(order.args[1]).split(","))
    state.place(unit, _shifted(unit, dx, dy))
    if dx or dy:
        unit.heading = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    battle.emit("move", unit=unit.id, by=[dx, dy])


def flee(state: WarState, battle: Battle, unit: Unit) -> None:
    """A routed unit leaves the battle (skeleton: at once)."""
    state.lift(unit)
    state.disengage(unit.id)
    unit.status = FLED
    battle.emit("fled", unit=unit.id)


def still_stuck(state: WarState, unit: Unit) -> bool:
    """Still inside the allied unit it tried to pass through (W35-UMOVE-19)."""
    return False
