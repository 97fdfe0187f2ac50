"""In-unit actions (W35-INUNIT): what the singular creatures inside a unit do on its turn.

SKELETON: nothing yet; the singular-creatures helper fills this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars.state import Unit, WarState


def in_unit_actions(state: WarState, battle: Battle, unit: Unit) -> None:
    """Step 2 of the unit's turn."""
