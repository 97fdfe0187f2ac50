"""Casualty recovery at the end of a battle (W35-RECOV-01..08, W35-AMB-60): the percentage of
lost unit HP a unit gets back, and the HP that gives. Pure arithmetic over plain numbers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

RANGED_ONLY_PERCENT: Final = 50
"""W35-RECOV-02: every unit, after a battle with no melee at all."""
WINNER_PERCENT: Final = 50
"""W35-RECOV-03: the winning side of a melee battle."""
LOSER_PERCENT: Final = 25
"""W35-RECOV-04: the losing side of a melee battle."""
PERCENT_PER_CLERIC_LEVEL: Final = 2
CLERIC_CAP: Final = 10
"""W35-RECOV-05: +2% per level of each cleric with healing spells present, at most +10%."""
PERCENT_PER_HEALER: Final = 1
HEALER_CAP: Final = 10
"""W35-RECOV-06: +1% per character present with 4+ ranks of Heal, at most +10%."""
WITHDREW_PERCENT: Final = -20
"""W35-RECOV-07: a unit that withdrew, routed or scattered."""


def recovery_percent(*, ranged_only: bool, won: bool, cleric_levels: Sequence[int],
                     healers: int, withdrew: bool) -> int:
    """The percentage of its lost HP a unit recovers (table W35-RECOV-08, W35-AMB-60): the base
    for the battle and side, plus capped cleric and Heal bonuses, less 20 if it withdrew,
    never below 0."""
    if healers < 0 or any(level < 0 for level in cleric_levels):
        raise ValueError("healer counts and cleric levels cannot be negative")
    if ranged_only:
        base = RANGED_ONLY_PERCENT
    else:
        base = WINNER_PERCENT if won else LOSER_PERCENT
    clerics = min(CLERIC_CAP, PERCENT_PER_CLERIC_LEVEL * sum(cleric_levels))
    heal = min(HEALER_CAP, PERCENT_PER_HEALER * healers)
    total = base + clerics + heal + (WITHDREW_PERCENT if withdrew else 0)
    return max(0, total)


def recovered_hp(lost: int, percent: int) -> int:
    """HP recovered from ``lost`` unit HP at ``percent`` (W35-RECOV-08): rounded down."""
    if lost < 0 or percent < 0:
        raise ValueError("lost HP and the recovery percentage cannot be negative")
    return lost * percent // 100
