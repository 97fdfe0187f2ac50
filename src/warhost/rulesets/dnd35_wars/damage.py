"""Hit points taken by units and singular creatures (W35-UNIT-11..13, W35-DMG-17/18).

SKELETON: pooled damage with the counters farthest from the enemy removed; the combat helper
completes it (the defender's choice, morale triggers).
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars import tables
from warhost.rulesets.dnd35_wars.state import SLAIN, VANQUISHED, Single, Unit, WarState


def apply_to_unit(state: WarState, battle: Battle, unit: Unit, amount: int, source: str) -> int:
    """Take ``amount`` HP from ``unit``'s pool and remove the counters it no longer fills;
    returns the HP lost."""
    lost = min(max(0, amount), unit.hp)
    if not lost:
        return 0
    unit.hp -= lost
    left = tables.counters_left(unit.hp, unit.counter_hp)
    gone = sorted(unit.squares)[: unit.counters - left]
    state.remove_counters(unit, set(gone))
    battle.emit("unit_damage", unit=unit.id, source=source, hp=lost, left=unit.hp,
                counters=unit.counters)
    if not unit.squares:
        unit.status = VANQUISHED
        state.disengage(unit.id)
        battle.emit("vanquished", unit=unit.id)
    return lost


def apply_to_single(state: WarState, battle: Battle, single: Single, amount: int,
                    source: str) -> int:
    """Take ``amount`` HP from a singular creature; returns the HP lost."""
    lost = max(0, amount)
    single.hp -= lost
    battle.emit("single_damage", who=single.id, source=source, hp=lost, left=single.hp)
    if single.hp <= 0:
        single.status = SLAIN
        state.put_single(single, None)
        battle.emit("slain", who=single.id)
    return lost
