"""What a profile's characteristics mean for the rules (W4-STAT, W4-TYPE, W4-MONSTER-02/03,
W4-STR-03 to 05): minions, characters, multiattack, and the unit strength of riders."""

from __future__ import annotations

from warhost.rulesets.dnd4e_war.model import Profile
from warhost.rulesets.dnd4e_war.state import Unit
from warhost.rulesets.dnd4e_war.tables import MONSTER_STRENGTH, SIZE_STRENGTH, unit_strength

MINION_HP = ("1/-", "minion")
"""W4-STAT-05: the hit point entries of a minion."""


def is_minion(profile: Profile) -> bool:
    """W4-STAT-05: a "1/-" hit point entry marks a minion."""
    return profile.hp in MINION_HP


def is_character(action_points: int) -> bool:
    """W4-STAT-13: any creature with action points is a character, minion or not."""
    return action_points > 0


def captain_is_character(unit: Unit) -> bool:
    """W4-STAT-13, W4-CMD-06: a unit's captain counts as a character."""
    return unit.captain is not None


def can_multiattack(attacks: int) -> bool:
    """W4-STAT-08/09: a model with one attack cannot take a multiattack action."""
    return attacks > 1


def multiattacks(attacks: int) -> int:
    """W4-STAT-08, W4-MULTI-05: attacks a multiattack makes (0 when it is not allowed)."""
    return attacks if can_multiattack(attacks) else 0


def immune_to_hope_is_lost(unit: Unit) -> bool:
    """W4-CAS-08: fearless units (W4-IMMUNE-02), to the last man! and monsters
    (W4-MONSTER-03) never suffer Hope is Lost!; a captain gives no protection (W4-CMD-06)."""
    return unit.rule("fearless") or unit.rule("to_the_last_man") or unit.is_monster


def character_strength(size: str, mount_size: str | None = None, mount_monster: bool = False,
                       lone: bool = False) -> int:
    """Unit strength of a character (W4-STR-02 to 05): on a monstrous mount rider and mount
    together (W4-STR-04); on an ordinary mount only the mount (W4-STR-03); alone with 2 or
    more, +1 as a monster unless the monster bonus is already counted (W4-STR-05)."""
    if mount_size is None:
        total = SIZE_STRENGTH[size]
    elif mount_monster:
        total = unit_strength(mount_size, True) + SIZE_STRENGTH[size]
    else:
        total = unit_strength(mount_size)
    if lone and total >= 2 and not mount_monster:
        total += MONSTER_STRENGTH
    return total


def strength_with(unit: Unit, *members: int) -> int:
    """W4-STR-01: the unit's strength with further members (joined characters) added."""
    return unit.strength() + sum(members)
