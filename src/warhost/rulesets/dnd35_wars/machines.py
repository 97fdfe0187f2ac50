"""War machines as targets: their hit points, damage and destruction, and the attacks any
unit or singular creature may make on a siege weapon or a siege tower (W35-SIEGE-02/03/04,
W35-SWU-04/09, W35-TOWER-14, W35-AMB-88, W35-AMB-97, W35-DEC-24).

A machine is carried by a unit (``WarState.machines``, by unit id) and sits on one of its
counters (W35-SWU-02). Its HP are its own, apart from the unit's (W35-SWU-09). The module that
owns a machine type creates the record in its ``prepare`` (:func:`register`).
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.geometry.grid import Square
from warhost.rulesets.dnd35_wars import morale
from warhost.rulesets.dnd35_wars.state import Machine, Unit, WarState

__all__ = ["Machine", "hit_machine", "machine_of", "register"]

LOST_TRIGGER: dict[str, str] = {"siege": "siege_weapon_lost", "tower": "tower_lost"}
"""The morale trigger queued when a machine of each kind is destroyed (W35-SWU-04: DC 15,
W35-TOWER-14: DC 20; the DCs are in ``tables.MORALE_DC``)."""


def register(state: WarState, unit: Unit, machine: Machine) -> None:
    """Give ``unit`` its machine (called by the owning module's ``prepare``)."""
    state.machines[unit.id] = machine


def _nearest(squares: set[Square], to: Square) -> Square:
    return min(squares, key=lambda sq: (max(abs(sq[0] - to[0]), abs(sq[1] - to[1])), sq))


def carrier(state: WarState, unit: Unit, machine: Machine) -> Square | None:
    """The counter the machine's figure stands on. When that counter has moved or been
    removed, the figure goes to the unit's counter nearest its old square (engine ruling)."""
    if not unit.squares:
        return None
    if machine.square not in unit.squares:
        machine.square = _nearest(unit.squares, machine.square)
    return machine.square


def machine_of(state: WarState, unit_id: str) -> Machine | None:
    """The machine carried by unit ``unit_id`` (None: no machine, or destroyed), its figure's
    square brought up to date."""
    machine = state.machines.get(unit_id)
    if machine is None:
        return None
    unit = state.units.get(unit_id)
    if unit is not None:
        carrier(state, unit, machine)
    return machine


def hit_machine(state: WarState, battle: Battle, unit: Unit, per_hit: int, multiplier: int, *,
                source: str) -> int:
    """Damage to the machine of ``unit``: its hardness comes off the single roll, then times
    ``multiplier`` (W35-AMB-88); the HP lost. At 0 HP it is destroyed (:func:`destroy`)."""
    machine = machine_of(state, unit.id)
    if machine is None or per_hit <= 0 or multiplier <= 0:
        return 0
    per = max(0, per_hit - machine.hardness)
    lost = min(machine.hp, per * multiplier)
    if lost <= 0:
        battle.emit("machine_unharmed", unit=unit.id, machine=machine.name, source=source,
                    reason="hardness")
        return 0
    machine.hp -= lost
    battle.emit("machine_damage", unit=unit.id, machine=machine.name, source=source, hp=lost,
                left=machine.hp)
    if machine.hp == 0:
        destroy(state, battle, unit)
    return lost


def destroy(state: WarState, battle: Battle, unit: Unit) -> None:
    """The machine of ``unit`` is destroyed: the unit becomes a standard unit at once, and a
    morale check is queued for its next turn (DC 15 siege weapon, W35-SWU-04; DC 20 tower,
    W35-TOWER-14; rolled at step 1 of its turn as every trigger, W35-AMB-17)."""
    machine = state.machines.pop(unit.id, None)
    if machine is None:
        return
    unit.machine = None
    unit.siege_defense = False
    battle.emit("machine_destroyed", unit=unit.id, machine=machine.name, kind=machine.kind)
    trigger = LOST_TRIGGER.get(machine.kind)
    if trigger is not None:
        morale.queue(unit, trigger)
