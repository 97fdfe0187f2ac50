"""The Utility Phase (WB-UTIL): preparation actions, taken before anyone moves."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.warband.state import WarbandState


def utility_phase(state: WarbandState, battle: Battle) -> None:
    """Every character's Utility actions (WB-UTIL-01 to 23)."""
