"""The Movement phase (W4-MOVE, W4-FLEE): rallies, compulsory moves, then remaining moves;
fall back! moves for every cause. STUB: the movement helper fills this in."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.state import Unit, WarState


def movement_phase(state: WarState, battle: Battle) -> None:
    """W4-MOVE-01: each side, initiative first: rally, compulsory moves, remaining moves."""


def away_from(state: WarState, unit: Unit, causes: list[Unit]) -> float:
    """W4-AMB-10: the bearing from the centroid of the causes' closest points through the
    unit's centre."""
    from warhost.geometry.table import bearing

    if not causes:
        return 0.0
    here = unit.frame().centre
    xs = [c.frame().centre for c in causes]
    centroid = (sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs))
    return bearing(centroid, here)


def fall_back(state: WarState, battle: Battle, unit: Unit, heading: float | None,
              why: str) -> None:
    """A fall back! move (W4-FLEE-01 to 08): 2d6 + 2 x Speed - 12 inches along ``heading``
    (None: towards the nearest board edge); the unit flees from now on."""
    unit.fleeing = True
    unit.fled_this_turn = True
    unit.ran = True
    state.disengage(unit.id)
    battle.emit("fall_back", unit=unit.id, why=why)
