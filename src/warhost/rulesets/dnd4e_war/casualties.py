"""Removing casualties (W4-CAS): resilience, which company loses models, Hope is Lost!, and
destroying a unit. STUB: the shooting helper fills this in."""

from __future__ import annotations

from dataclasses import dataclass

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.state import Unit, WarState


@dataclass(frozen=True)
class Losses:
    """What a batch of hits did: models slain by the hits, and models removed by Hope is
    Lost! (W4-CAS-06/07)."""

    slain: int
    hope_lost: int = 0

    @property
    def removed(self) -> int:
        """Every model that left the table."""
        return self.slain + self.hope_lost


def apply_hits(state: WarState, battle: Battle, unit: Unit, hits: int, source: str,
               why: str) -> Losses:
    """W4-CAS-01 to 08: ``hits`` on ``unit``; leftover hits are discarded (W4-AMB-54)."""
    slain = min(hits // max(1, unit.profile.resilience), unit.models)
    remove_models(unit, slain)
    battle.emit("casualties", unit=unit.id, hits=hits, slain=slain, source=source, why=why)
    if unit.models == 0:
        destroy(state, battle, unit, why)
    return Losses(slain)


def remove_models(unit: Unit, count: int) -> None:
    """Take ``count`` models off, depleted company first, then the rearmost (W4-CAS-05)."""
    for _ in range(count):
        if not unit.companies:
            return
        unit.companies[-1] -= 1
        if unit.companies[-1] == 0:
            unit.companies.pop()
            if unit.skirmish and unit.points:
                unit.points.pop()


def destroy(state: WarState, battle: Battle, unit: Unit, why: str) -> None:
    """The unit is gone: out of every fight; allies nearby may panic (W4-PANIC-03)."""
    from warhost.rulesets.dnd4e_war import psychology

    if unit.destroyed:
        return
    unit.destroyed = True
    state.disengage(unit.id)
    battle.emit("destroyed", unit=unit.id, why=why)
    psychology.unit_destroyed(state, battle, unit)
