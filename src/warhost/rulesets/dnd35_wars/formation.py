"""Step 3 of a unit's turn: changing formation (W35-FORM-01..05, W35-AMB-42, W35-AMB-67,
W35-DEC-18).

Once a round the unit may rearrange its counters: none further forward along its heading than
its forward-most counter now, all side-connected, no holes, and counters in side contact with
an enemy unit stay where they are. The decision offers keeping the formation, a few blocks
built from :func:`warhost.geometry.grid.shapes` with their front rank on the current front,
and (in a phalanx) dropping the phalanx; any other arrangement may be ordered and is judged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.grid import (
    Square,
    forward_most,
    holes,
    projection,
    shapes,
    side_connected,
    side_contacts,
    translate,
)
from warhost.rulesets.dnd35_wars import conditions, movement
from warhost.rulesets.dnd35_wars.state import Unit, WarState

KEEP = "keep"


def _text(squares: Iterable[Square]) -> str:
    return ";".join(f"{x},{y}" for x, y in sorted(squares))


def pinned(state: WarState, unit: Unit) -> frozenset[Square]:
    """The unit's counters in side contact with an enemy unit: they may not move
    (W35-FORM-05)."""
    foes = {oid for oid in state.neighbours_of(unit.squares)
            if oid in state.units and state.units[oid].side != unit.side}
    out: set[Square] = set()
    for oid in sorted(foes):
        out.update(side_contacts(unit.squares, state.units[oid].squares))
    return frozenset(out)


def judge_formation(state: WarState, unit: Unit, squares: set[Square],
                    pins: frozenset[Square] | None = None) -> Refusal | None:
    """Why ``squares`` is not a legal rearrangement of ``unit``, or None. ``pins``:
    :func:`pinned`, when already found."""
    if len(squares) != unit.counters:
        return Refusal(f"{unit.label} has {unit.counters} counters, not {len(squares)}",
                       rule="W35-FORM-01")
    for sq in squares:
        if not state.inside(sq) or state.at.get(sq) not in (None, unit.id):
            return Refusal(f"{sq[0]},{sq[1]} is off the map or taken", rule="W35-PLACE-06")
        if sq in state.barrier_at and state.barred(
                unit.side, sq, within=movement.sections_under(state, unit.squares)):
            return Refusal(f"a wall bars {sq[0]},{sq[1]}", rule="W35-AMB-45")
    front = forward_most(unit.squares, unit.heading)
    if any(projection(sq, unit.heading) > front for sq in squares):
        return Refusal("no counter may end further forward than the current front",
                       rule="W35-FORM-02")
    if not side_connected(squares):
        return Refusal("every counter must share a side with another", rule="W35-FORM-03")
    if holes(squares):
        return Refusal("the formation may not have holes", rule="W35-FORM-04")
    if not (pinned(state, unit) if pins is None else pins) <= squares:
        return Refusal("counters touching an enemy unit may not move", rule="W35-FORM-05")
    return None


def _centre(squares: Iterable[Square]) -> Square:
    cells = list(squares)
    return (sum(x for x, _ in cells) // len(cells), sum(y for _, y in cells) // len(cells))


def _anchored(shape: tuple[Square, ...], unit: Unit, axis: Square) -> frozenset[Square]:
    """``shape`` centred on the unit, then slid along ``axis`` until its forward-most counter
    is level with the unit's current front."""
    cx, cy = _centre(unit.squares)
    sx, sy = _centre(shape)
    placed = translate(shape, cx - sx, cy - sy)
    gap = forward_most(unit.squares, unit.heading) - forward_most(placed, unit.heading)
    return translate(placed, axis[0] * gap, axis[1] * gap)


def formation_options(state: WarState, unit: Unit) -> list[Order]:
    """``keep``, then the legal blocks of :func:`shapes` anchored on the front rank."""
    keep = Order.of("formation", unit.id, KEEP)
    out = [keep]
    if conditions.formation_locked(unit):  # nobody free to carry the held (W35-AMB-94)
        return out
    seen = {frozenset(unit.squares)}
    hx, hy = unit.heading
    axes = [a for a in ((hx, 0), (0, hy)) if a != (0, 0)]
    pins = pinned(state, unit)
    for shape in shapes(unit.counters, unit.heading):
        for axis in axes:
            squares = _anchored(shape, unit, axis)
            if squares in seen:
                continue
            seen.add(squares)
            if judge_formation(state, unit, set(squares), pins) is None:
                out.append(Order.of("formation", unit.id, _text(squares)))
    if unit.phalanx:
        out.append(Order.of("drop_phalanx", unit.id))
    count(OPTIONS, len(out))
    return out


def _judge(state: WarState, unit: Unit) -> Callable[[Order], Order | Refusal]:
    def accept(order: Order) -> Order | Refusal:
        if order.kind != "formation" or len(order.args) != 2 or str(order.args[0]) != unit.id:
            return Refusal(f"{order} is not a formation order for {unit.label}",
                           rule="W35-FORM-01")
        if str(order.args[1]) == KEEP:
            return order
        squares = movement.parse_squares(str(order.args[1]))
        if squares is None:
            return Refusal("give the counters as x,y;x,y;...", rule="W35-FORM-01")
        if conditions.formation_locked(unit):
            return Refusal(f"every counter of {unit.label} is held: none can carry the others",
                           rule="W35-AMB-94")
        refusal = judge_formation(state, unit, squares)
        return order if refusal is None else refusal
    return accept


def formation_step(state: WarState, battle: Battle, unit: Unit) -> None:
    """Offer the unit a new arrangement of its counters, or dropping its phalanx
    (W35-FORM-01, W35-AMB-67, W35-DEC-18)."""
    movement.fix_home_edges(state)
    if unit.routed or not unit.on_map or unit.stuck_in is not None or unit.stack:
        return  # a stack in a siege tower has no formation (W35-TOWER-09)
    while True:
        options = formation_options(state, unit)
        if len(options) == 1:
            return
        order = battle.ask(unit.side, "formation", tuple(options),
                           f"{unit.label}: change formation?", unit.id, default=options[0],
                           accept=_judge(state, unit))
        if order.kind == "drop_phalanx":
            unit.phalanx = False
            battle.emit("phalanx_dropped", unit=unit.id)
            continue  # it may still rearrange
        if str(order.args[1]) != KEEP:
            rearrange(state, battle, unit, movement.parse_squares(str(order.args[1])) or set())
        return


def rearrange(state: WarState, battle: Battle, unit: Unit, squares: set[Square]) -> None:
    """Put the counters on ``squares``; a bank toward the old formation's next square is
    lost (the square it was for no longer exists). Hindered counters are carried
    (W35-AMB-94)."""
    if unit.held:
        conditions.carried(state, battle, unit, squares, pinned(state, unit))
    state.place(unit, squares)
    unit.bank, unit.bank_step = Fraction(0), None
    movement.update_contacts(state, unit)
    battle.emit("formation", unit=unit.id, counters=unit.counters)
