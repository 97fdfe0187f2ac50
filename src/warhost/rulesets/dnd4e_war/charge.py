"""The Charge phase (W4-CHARGE). STUB: the combat helper fills this in."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.state import WarState


def charge_phase(state: WarState, battle: Battle) -> None:
    """W4-CHARGE-01: each side, initiative first: declare, roll, spearheads, move, attack."""
