"""Morale checks (W35-MORALE, W35-MOB-07..11, W35-AMB-15..23): triggers, the check at the
start of a unit's turn, rout, rally and scattering.

SKELETON: no checks yet; the morale helper fills this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars.state import Unit, WarState


def morale_step(state: WarState, battle: Battle, unit: Unit) -> bool:
    """Step 1 of the unit's turn; False when it does not act normally this turn."""
    return not unit.routed
