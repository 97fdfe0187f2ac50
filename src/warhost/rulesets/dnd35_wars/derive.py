"""A unit's stat block derived from the typical creature's 3.5 stat block (W35-UNIT, W35-STAT,
W35-TYPE, W35-MOB): counters at the battle's scale, pooled and per-counter hit points, morale,
move rate, the single averaged attack of each kind and the mounted unit's additions."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from warhost.rulesets.dnd35_wars import tables
from warhost.rulesets.dnd35_wars.model import Attack, Creature, Options, UnitSpec
from warhost.rulesets.dnd35_wars.state import UnitAttack


@dataclass(frozen=True)
class UnitBlock:
    """The derived unit stat block (W35-UNIT-01), as a game master copies it to paper."""

    counters: int
    per_counter: Fraction
    creatures: int
    unit_hp: int
    counter_hp: int
    morale: int
    morale_immune: bool
    initiative: int
    ac: int
    touch_ac: int
    dr: int
    fort: int
    ref: int
    will: int
    rate: Fraction
    size: str
    melee: UnitAttack | None
    ranged: UnitAttack | None


def ability_modifier(score: int) -> int:
    """The 3.5 ability modifier of a score: (score - 10) / 2, rounded down."""
    return (score - 10) // 2


def single_attack(attacks: list[Attack]) -> UnitAttack | None:
    """One attack standing for several (W35-STAT-15, W35-AMB-14): averaged bonus and damage,
    the critical and weapon flags of the first-listed attack."""
    if not attacks:
        return None
    first = UnitAttack.of(attacks[0])
    if len(attacks) == 1:
        return first
    bonus, damage = tables.average_attacks([(a.bonus, a.damage) for a in attacks])
    return UnitAttack(bonus, damage, first.crit_range, first.crit_multiplier,
                      first.range_increment, first.thrown, first.crossbow,
                      any(a.reach for a in attacks), first.magic)


def morale_immune(creature: Creature, mob: bool, options: Options) -> bool:
    """No morale checks for mindless, Int 3 or less, undead or mind-controlled members
    (W35-STAT-05); a mob's immunity may be overridden (W35-AMB-23)."""
    immune = (creature.int_score is None or creature.int_score <= 3 or creature.undead
              or creature.mind_controlled)
    if mob and options.mob_morale_overrides_immunity and not creature.undead:
        return creature.mind_controlled
    return immune


def morale_score(spec: UnitSpec) -> int:
    """The unit's Morale (W35-STAT-01..04, W35-AMB-03 override, W35-AMB-22 for mobs)."""
    if spec.morale_override is not None:
        return spec.morale_override
    creature = spec.creature
    alignment = creature.alignment.lower()
    cls = creature.class_name.lower()
    return tables.morale_score(
        ability_modifier(creature.cha),
        barbarians=cls == "barbarian", fighters=cls == "fighter",
        training_months=spec.training_months, battles=spec.battles,
        chaotic="chaotic" in alignment, lawful="lawful" in alignment, mob=spec.mob,
    )


def move_rate(spec: UnitSpec, scale: int) -> Fraction:
    """Squares a round: the mount's speed for a mounted unit (W35-TYPE-04), the fly speed of
    a flying unit, or the override (W35-AMB-11)."""
    if spec.move_rate_override is not None:
        return Fraction(spec.move_rate_override)
    creature = spec.creature
    speed = creature.speed
    if spec.mount is not None:
        speed = spec.mount.speed
        if spec.flying and spec.mount.fly_speed:
            speed = spec.mount.fly_speed
    elif spec.flying and creature.fly_speed:
        speed = creature.fly_speed
    return tables.move_rate(speed, scale)


def melee_attack(spec: UnitSpec) -> UnitAttack | None:
    """The unit's melee attack, with the mounts' best damage added (W35-TYPE-05) and the
    chariot's +2 (W35-TYPE-07)."""
    base = single_attack(spec.creature.melee)
    if base is None:
        return None
    damage = base.damage
    if spec.mount is not None and spec.mount.attacks:
        damage = tables.mounted_damage(damage, list(spec.mount.attacks))
    bonus = base.bonus + (2 if spec.chariot else 0)
    return UnitAttack(bonus, damage, base.crit_range, base.crit_multiplier, None, False, False,
                      base.reach, base.magic)


def derive(spec: UnitSpec, scale: int, options: Options) -> UnitBlock:
    """The whole derived stat block of ``spec`` at ``scale`` (W35-UNIT-03..13)."""
    creature = spec.creature
    size = tables.member_size(creature.size, spec.mount is not None, spec.chariot)
    counters = tables.counters_needed(spec.count, size, scale, options.size_table)
    typical_hp = creature.hp
    if spec.mount is not None:
        typical_hp = tables.mount_hp(creature.hp, spec.mount.hp, spec.mount.intelligent)
    barding = tables.barding_ac(spec.mount.barding) if spec.mount is not None else 0
    ranged = single_attack(creature.ranged)
    return UnitBlock(
        counters=counters,
        per_counter=tables.creatures_per_counter(spec.count, counters),
        creatures=spec.count,
        unit_hp=typical_hp * counters,
        counter_hp=typical_hp,
        morale=morale_score(spec),
        morale_immune=morale_immune(creature, spec.mob, options),
        initiative=creature.initiative,
        ac=creature.ac + barding,
        touch_ac=creature.touch_ac if creature.touch_ac is not None else creature.ac,
        dr=creature.dr,
        fort=creature.fort,
        ref=creature.ref,
        will=creature.will,
        rate=move_rate(spec, scale),
        size=size,
        melee=melee_attack(spec),
        ranged=ranged,
    )
