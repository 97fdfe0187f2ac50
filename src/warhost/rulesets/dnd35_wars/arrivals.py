"""Units that arrive late (W35-PLACE-08, W35-AMB-95) and what the armies recover after the
battle (W35-RECOV, W35-AMB-60).

SKELETON: nothing yet; the setup helper fills this module.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd35_wars.state import WarState


def reinforcements(state: WarState, battle: Battle) -> None:
    """At the start of a round, put the units due this round on their entry edge."""


def after_battle(state: WarState, battle: Battle) -> None:
    """Recovery of lost unit hit points once the battle is over."""
