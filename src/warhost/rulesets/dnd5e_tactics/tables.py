"""The two reference tables of `dnd5e-tactics` and the arithmetic built on them.

One copy of each table (T5-REF-01): the divisor table (T5-ATTACK-07) and the Tactics Track
(T5-TACTICS-02). Also the morale DC bands (T5-MORALE-03, T5-AMB-42) and damage-expression
arithmetic (maximum, critical maximum, average: T5-AMB-16, T5-AMB-23, T5-AMB-25).
"""

from __future__ import annotations

from dataclasses import dataclass

from warhost.core.damage_dice import DamageDice

DIVISOR_ROWS: tuple[tuple[int, int, tuple[int, int, int, int, int, int]], ...] = (
    (1, 5, (2, 1, 1, 1, 1, 1)),
    (6, 12, (3, 2, 2, 2, 2, 1)),
    (13, 14, (5, 4, 3, 3, 2, 2)),
    (15, 16, (6, 5, 4, 4, 3, 2)),
    (17, 18, (7, 6, 5, 5, 4, 3)),
    (19, 19, (15, 10, 8, 8, 7, 6)),
    (20, 20, (20, 20, 20, 20, 15, 10)),
)
"""(lowest needed roll, highest needed roll, divisor for d6 = 1..6) per row."""


def divisor(needed: int, d6: int) -> int:
    """The divisor for a needed d20 roll already within 1..20 and a d6 face (T5-ATTACK-07)."""
    if not 1 <= needed <= 20:
        raise ValueError(f"needed roll {needed} is outside the table (1-20)")
    if not 1 <= d6 <= 6:
        raise ValueError(f"d6 face {d6} is not 1-6")
    for low, high, row in DIVISOR_ROWS:
        if low <= needed <= high:
            return row[d6 - 1]
    raise AssertionError("unreachable")


def clamp_attack_roll(needed: int) -> int:
    """Attack rolls: 5 or less reads row 1-5, 20 or more row 20 (T5-AMB-20)."""
    return min(20, max(1, needed))


def successes(count: int, div: int) -> int:
    """``count / div`` rounded up (T5-ATTACK-08, T5-AREA-04)."""
    return -(-count // div)


TRACKS = ("defensive", "aggressive", "supporting", "vicious")
RANKS = (-3, -2, -1, 0, 1, 2, 3)


@dataclass(frozen=True)
class TrackCell:
    """The modifiers of one Tactics Track cell; statistics it does not name are 0."""

    ac: int = 0
    atk: int = 0
    dmg: int = 0
    morale: int = 0


_C = TrackCell
TACTICS: dict[str, tuple[TrackCell, ...]] = {
    # ranks      -3                         -2                         -1               0                1                +2                       +3
    "defensive": (_C(ac=2, atk=-2, dmg=-2), _C(ac=2, atk=-2, dmg=-1), _C(ac=2, atk=-2), _C(ac=2, atk=-2), _C(ac=2, atk=-2), _C(ac=2, atk=-1), _C(ac=2)),
    "aggressive": (_C(atk=2, ac=-2, morale=-2), _C(atk=2, ac=-2, morale=-1), _C(atk=2, ac=-2), _C(atk=2, ac=-2), _C(atk=2, ac=-2), _C(atk=2, ac=-1), _C(atk=2)),
    "supporting": (_C(morale=2, atk=-1, dmg=-2), _C(morale=2, atk=-1, dmg=-1), _C(morale=2, atk=-1), _C(morale=2, atk=-1), _C(morale=2, atk=-1), _C(morale=4, atk=-1), _C(morale=4)),
    "vicious": (_C(dmg=2, ac=-1, morale=-2), _C(dmg=2, ac=-1, morale=-1), _C(dmg=2, ac=-1), _C(dmg=2, ac=-1), _C(dmg=2, ac=-1), _C(dmg=4, ac=-1), _C(dmg=4)),
}  # fmt: skip
"""The Tactics Track table (T5-TACTICS-02..06), ranks -3..+3 left to right."""


def track_cell(track: str, rank: int) -> TrackCell:
    """The cell for ``track`` at ``rank``; ranks past the card read the nearest column
    (only reachable with ``rank_clamp: false``, T5-AMB-05)."""
    return TACTICS[track][min(3, max(-3, rank)) + 3]


STANCE_AC = {"close": 1, "open": 0}  # T5-STANCE-01
STANCE_MORALE = {"close": 2, "open": -2}  # T5-STANCE-02, T5-STANCE-05
STANCE_ATTACKERS = {"close": 20, "open": 30}  # T5-ATTACK-01, T5-ATTACK-02, T5-STANCE-04


def morale_dc(left: int, start: int) -> int:
    """The morale DC for ``left`` of ``start`` members, in whole numbers (T5-AMB-42)."""
    if 4 * left > 3 * start:
        return 6
    if 2 * left > start:
        return 10
    if 4 * left > start:
        return 14
    return 18


def max_damage(expr: str) -> int:
    """The maximum of a damage expression."""
    return DamageDice.parse(expr).maximum


def average_damage(expr: str) -> int:
    """The average of a damage expression, rounded down."""
    return DamageDice.parse(expr).average
