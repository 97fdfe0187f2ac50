"""Step 3 of a unit's turn: changing formation (W35-FORM, W35-AMB-42).

SKELETON: no changes yet; the movement helper fills this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars.state import Unit, WarState


def formation_step(state: WarState, battle: Battle, unit: Unit) -> None:
    """Offer the unit a new arrangement of its counters."""
