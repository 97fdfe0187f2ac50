"""Characters riding monsters shot at (W4-MONSTER-07/08).

When the scenario gives a character's monstrous mount its own hit points and defenses, each
ranged attack at him first rolls 1d6: 1-4 strikes the mount, 5-6 the rider; an area attack
strikes both once. A mount that falls leaves the rider on foot. Without mount numbers the
pair is one target with the rider's numbers.
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.rulesets.dnd4e_war.attacks import Roll, roll_attacks
from warhost.rulesets.dnd4e_war.casualties import damage_expression
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.profiles import character_strength
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState

MOUNT_FACES = 4
"""W4-MONSTER-07: a d6 of 1 to this strikes the mount."""


def ridden(target: Unit) -> Character | None:
    """The lone character riding ``target``'s monster, while the mount lives."""
    person = target.character
    if person is None or person.slain or not person.mounted or target.inside is not None:
        return None
    return person


def split(battle: Battle, dice: int, why: str) -> tuple[int, int]:
    """W4-MONSTER-07: (attacks at the mount, attacks at the rider) out of ``dice``."""
    if dice <= 0:
        return 0, 0
    faces = battle.dice.pool(dice, 6, why)
    mount = sum(1 for f in faces if f <= MOUNT_FACES)
    return mount, dice - mount


def mount_defense(person: Character, power: Power) -> int:
    """The mount's defense the power attacks."""
    return int(getattr(person.mount_defenses, power.vs))


def wound_mount(state: WarState, battle: Battle, own: Unit, person: Character, hits: int,
                damage: str, source: str) -> int:
    """Hits on the mount, one damage roll each until it falls; returns the hits used."""
    used = 0
    for _ in range(hits):
        if not person.mounted:
            break
        used += 1
        person.mount_wounds += battle.dice.roll(damage, f"damage {person.id}'s mount")
    if hits:
        battle.emit("mount_wounded", unit=own.id, character=person.id, hits=hits, used=used,
                    hp_left=max(0, person.mount_hp - person.mount_wounds),
                    slain=not person.mounted, source=source)
    if not person.mounted:
        dismount(own)
    return used


def dismount(own: Unit) -> None:
    """The mount is dead: the rider goes on foot, moving and counting as himself alone
    (W4-CHAR-02, W4-STR-05)."""
    p = own.profile
    alone = character_strength(p.size)
    own.profile = p.model_copy(update={"mount_size": None, "mount_monster": False,
                                       "cavalry": False, "monster": alone >= 2})
    own.own_strength = character_strength(p.size, lone=True)


def ranged_at_rider(state: WarState, battle: Battle, shooter: Unit, target: Unit,
                    power: Power, groups: list[tuple[int, bool]], cover: int,
                    bonus: int) -> tuple[int, int, list[Roll]]:
    """W4-MONSTER-07: the shot's dice (``groups`` of (dice, rolled as a character)) each
    first pick mount or rider with a d6, then roll at that one's defense. Returns the hits
    on the mount, the hits on the rider and every roll made."""
    person = ridden(target)
    assert person is not None
    rider_ac = int(getattr(target.profile.defenses, power.vs)) + cover
    on_mount = on_rider = 0
    rolls = []
    for dice, character in groups:
        mount_dice, rider_dice = split(battle, dice, f"{shooter.id} at mount or rider")
        at_mount = roll_attacks(battle, mount_dice, mount_defense(person, power) + cover,
                                bonus, f"{shooter.id} shoots the mount", character)
        at_rider = roll_attacks(battle, rider_dice, rider_ac, bonus,
                                f"{shooter.id} shoots the rider", character)
        battle.emit("rider_split", unit=shooter.id, target=target.id, mount=mount_dice,
                    rider=rider_dice, mount_hits=at_mount.hits, rider_hits=at_rider.hits)
        on_mount += at_mount.hits
        on_rider += at_rider.hits
        rolls += [at_mount, at_rider]
    return on_mount, on_rider, rolls


def burst_at_rider(state: WarState, battle: Battle, shooter: Unit, target: Unit,
                   power: Power, bonus: int) -> tuple[int, int]:
    """W4-MONSTER-08: an area covering a ridden monster attacks mount and rider once each;
    returns (hits on the mount, hits on the rider)."""
    person = ridden(target)
    assert person is not None
    character = shooter.character is not None
    at_mount = roll_attacks(battle, 1, mount_defense(person, power), bonus,
                            f"{shooter.id} burst on {target.id}'s mount", character)
    at_rider = roll_attacks(battle, 1, int(getattr(target.profile.defenses, power.vs)),
                            bonus, f"{shooter.id} burst on {target.id}", character)
    battle.emit("rider_split", unit=shooter.id, target=target.id, mount=1, rider=1,
                mount_hits=at_mount.hits, rider_hits=at_rider.hits)
    return at_mount.hits, at_rider.hits


def hit_mount(state: WarState, battle: Battle, shooter: Unit, target: Unit, power: Power,
              hits: int) -> None:
    """Apply ``hits`` on the mount of ``target``'s rider."""
    person = ridden(target)
    if person is not None and hits:
        wound_mount(state, battle, target, person, hits, damage_expression(power), shooter.id)
