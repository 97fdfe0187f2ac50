"""The Shooting phase (W4-SHOOT, W4-MULTI). STUB: the shooting helper fills this in."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.state import WarState


def shooting_phase(state: WarState, battle: Battle) -> None:
    """W4-SHOOT-02: each side, initiative first, shoots unit by unit, then the other side's
    units take their panic tests."""
