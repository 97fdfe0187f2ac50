"""Exact odds of one attack, by enumerating the dice (no sampling).

The kept die of ``n`` d6 is their maximum: P(max <= k) = (k/6)^n. The attack succeeds when
attacker's kept die + attack modifier is strictly greater than defender's kept die + defense
modifier (FB-COMBAT-01..03).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache


@cache
def max_distribution(dice: int) -> tuple[Fraction, ...]:
    """P(kept die = k) for k = 1..6 when ``dice`` d6 are rolled and the highest kept."""
    return tuple(Fraction(k**dice - (k - 1) ** dice, 6**dice) for k in range(1, 7))


@lru_cache(maxsize=4096)
def success_probability(attack_dice: int, defense_dice: int, attack_mod: int,
                        defense_mod: int) -> Fraction:
    """Exact probability that the attack succeeds (ties fail).

    Example:
        >>> success_probability(1, 1, 0, 0)
        Fraction(5, 12)
    """
    att = max_distribution(attack_dice)
    dfn = max_distribution(defense_dice)
    total = Fraction(0)
    for a in range(6):
        for d in range(6):
            if a + 1 + attack_mod > d + 1 + defense_mod:
                total += att[a] * dfn[d]
    return total


@lru_cache(maxsize=4096)
def success_float(attack_dice: int, defense_dice: int, attack_mod: int, defense_mod: int) -> float:
    """:func:`success_probability` as a float, for the AI's hot path."""
    return float(success_probability(attack_dice, defense_dice, attack_mod, defense_mod))
