"""The attack pipeline (WB-ATTACK, WB-CIRC, WB-SPECIAL): to-hit, damage, Defense, Ward.

The targets of every test are worked out from a :class:`Circumstances` (what the position
means for this attack) and an :class:`AttackProfile` (what strikes), so that play and the
exact odds use the same arithmetic. Every test goes through :func:`checks.take_test`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warhost.core.battle import Battle
from warhost.rulesets.warband.state import (
    KNOCKED_DOWN,
    STANDING,
    STUNNED,
    Character,
    WarbandState,
)
from warhost.rulesets.warband.checks import Mod, take_test, total


@dataclass(frozen=True)
class Circumstances:
    """What the situation means for one attack (all the flags the modifiers read)."""

    mode: str = "melee"  # "melee" or "ranged"
    charging: bool = False
    high_ground: bool = False
    attacker_lying: bool = False
    target_lying: bool = False
    target_condition: str = STANDING
    flanking: bool = False
    opportunity: bool = False
    cover: bool = False
    into_melee: bool = False
    volley: bool = False
    stand_and_shoot: bool = False
    outnumbered: bool = False
    spell: str | None = None  # attack Spell type, if an attack Spell


@dataclass(frozen=True)
class AttackProfile:
    """What strikes: the Strength of its damage test, Penetration and special rules."""

    name: str
    strength: int
    penetration: int = 0
    poisoned: bool = False
    magic: bool = False
    auto_hit: bool = False  # Wave, Blast, attack Spells: no to-hit die (WB-AMB-30)
    skill: str = "melee"  # the attacker's score tested to hit


@dataclass
class AttackResult:
    """One attack's dice, for the events and the batch."""

    hit: bool = False
    critical: bool = False
    wounds: int = 0
    saved_defense: int = 0
    saved_ward: int = 0
    confirmed: int = 0
    overkill: bool = False
    details: list[str] = field(default_factory=list)


def superior_skill(
    attacker: Character, target: Character, circ: Circumstances, cap: int | None
) -> list[Mod]:
    """Superior Skill Penalties from the target's talents (WB-CIRC-09 to 12, WB-AMB-33)."""
    if circ.flanking or circ.opportunity or circ.target_lying:
        return []
    if circ.spell is not None and circ.spell not in ("melee", "ranged"):
        return []
    skill = attacker.score("melee" if circ.mode == "melee" else "ranged")
    mods: list[Mod] = []
    if "parry" in target.talents and circ.mode == "melee" and skill < target.score("melee"):
        mods.append(Mod("parry", -1, "WB-CIRC-10"))
    if "dodge" in target.talents and skill < target.score("agility"):
        mods.append(Mod("dodge", -1, "WB-CIRC-11"))
    if cap is not None and -sum(m.value for m in mods) > cap:
        mods = [Mod("superior skill (capped)", -cap, "WB-AMB-02")]
    return mods


def hit_mods(
    attacker: Character, target: Character, circ: Circumstances, cap: int | None = None
) -> list[Mod]:
    """Every to-hit modifier of this attack (WB-CIRC, WB-MOVE-21, WB-RANGED-08)."""
    mods: list[Mod] = []
    if circ.high_ground:
        mods.append(Mod("high ground", 1, "WB-CIRC-01"))
    if circ.mode == "melee":
        if circ.charging:
            mods.append(Mod("charging", 1, "WB-CIRC-18"))
        if circ.attacker_lying:
            mods.append(Mod("prone", -2, "WB-MOVE-21"))
    else:
        if circ.spell != "direct":
            if circ.stand_and_shoot:
                mods.append(Mod("stand and shoot", -1, "WB-RANGED-08"))
            elif circ.into_melee:
                mods.append(Mod("shooting into melee", -2, "WB-CIRC-20"))
            if circ.cover:
                mods.append(Mod("cover", -1, "WB-CIRC-21"))
        if circ.volley:
            mods.append(Mod("volley", -2, "WB-CIRC-19"))
    mods.extend(superior_skill(attacker, target, circ, cap))
    return mods


def damage_mods(circ: Circumstances) -> list[Mod]:
    """Modifiers of the Strength (damage) test: the charge bonus (WB-AMB-16)."""
    if circ.mode == "melee" and circ.charging:
        return [Mod("charging", 1, "WB-CIRC-18")]
    return []


def defense_mods(circ: Circumstances) -> list[Mod]:
    """Modifiers of the Defense save (WB-CIRC-04, WB-CIRC-17, WB-MOVE-19)."""
    mods: list[Mod] = []
    if circ.outnumbered:
        mods.append(Mod("outnumbered", -1, "WB-CIRC-04"))
    if circ.flanking and circ.mode == "melee":
        mods.append(Mod("flanked", -1, "WB-CIRC-17"))
    if circ.mode == "ranged" and circ.target_lying:
        mods.append(Mod("prone", 1, "WB-MOVE-19"))
    return mods


def effective_armour(target: Character, penetration: int) -> int:
    """Armour after Penetration, never below 0 (WB-ATTACK-08, WB-ATTACK-09)."""
    return max(0, target.score("armour") - penetration)


def is_overkill(strength: int, target: Character) -> bool:
    """Strength above twice the target's Toughness (WB-CIRC-02, WB-AMB-31)."""
    return strength > 2 * target.score("toughness")


def melee_strength(attacker: Character, weapon_strength: int | None) -> int:
    """The Strength value of a melee attack: the higher of own and profile (WB-AMB-31)."""
    own = attacker.score("strength")
    return own if weapon_strength is None else max(own, weapon_strength)


def resolve_attack(
    state: WarbandState,
    battle: Battle,
    attacker: Character,
    target: Character,
    profile: AttackProfile,
    circ: Circumstances,
    *,
    forced_hit: bool = False,
) -> AttackResult:
    """One attack through the whole pipeline; returns its confirmed wounds (not applied).

    ``forced_hit`` skips the to-hit test (a Blast's extra hits, an attack Spell's hit).
    """
    opts = state.options
    result = AttackResult()
    auto_wound = False
    if forced_hit or profile.auto_hit:
        result.hit = True
    elif circ.mode == "melee" and circ.target_condition in (KNOCKED_DOWN, STUNNED):
        result.hit = True  # WB-INJURY-06 / WB-INJURY-10: no die, so never a Critical Hit
        auto_wound = circ.target_condition == STUNNED
    else:
        mods = hit_mods(attacker, target, circ, opts.superior_skill_max_penalty)
        check = take_test(state, battle, attacker, profile.skill, "to hit", mods)
        result.critical = check.die == 1  # WB-CIRC-06: a 1 always hits
        result.hit = check.passed
    if not result.hit:
        return result
    # Damage (WB-ATTACK-05/06): one Strength test per hit.
    if auto_wound or (profile.poisoned and result.critical):
        wounded = True
    else:
        check = take_test(state, battle, attacker, "strength", "damage", damage_mods(circ),
                     base=profile.strength)
        wounded = check.passed
    wounds = 1 if wounded else 0
    if result.critical and (wounded or opts.critical_extra_wound == "always"):
        wounds += 1  # WB-CIRC-07: an extra wound, saved on its own
    result.wounds = wounds
    overkill = is_overkill(profile.strength, target)
    for _ in range(wounds):
        if not overkill:  # WB-CIRC-03: an Overkill wound allows no Defense save
            armour = effective_armour(target, profile.penetration)
            base = target.score("toughness") + armour
            check = take_test(state, battle, target, "toughness", "defense", defense_mods(circ),
                         base=base)
            if check.passed:
                result.saved_defense += 1
                continue
        if ward_save(state, battle, target):
            result.saved_ward += 1
            continue
        result.confirmed += 1
        if overkill:
            result.overkill = True
    return result


def ward_save(state: WarbandState, battle: Battle, target: Character) -> bool:
    """The Ward save: a test against Ward alone, no Defense modifier (WB-ATTACK-10/11)."""
    check = take_test(state, battle, target, "ward", "ward", [], ward=True)
    return check.passed


def describe_mods(mods: list[Mod]) -> str:
    """``charging +1, cover -1`` for an event."""
    return ", ".join(f"{m.name} {m.value:+d}" for m in mods) or "none"


__all__ = [
    "AttackProfile",
    "AttackResult",
    "Circumstances",
    "damage_mods",
    "defense_mods",
    "describe_mods",
    "effective_armour",
    "hit_mods",
    "is_overkill",
    "melee_strength",
    "resolve_attack",
    "superior_skill",
    "total",
]
