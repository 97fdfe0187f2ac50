"""Monsters, NPCs and PCs acting on their own (W35-MON, W35-NPC, W35-PC, W35-ROUND-11).

SKELETON: they do nothing yet; the singular-creatures helper fills this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars.state import Single, WarState


def single_turn(state: WarState, battle: Battle, single: Single) -> None:
    """A singular creature's turn while it stands alone."""
