"""The Close Combat phase (W4-MELEE, W4-RESOLVE, W4-BREAK). STUB: the combat helper fills
this in."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.state import WarState


def close_combat_phase(state: WarState, battle: Battle) -> None:
    """W4-MELEE-01: the side with the initiative picks each fight in turn."""
