"""Characters as pieces on the table (W4-CHAR-01 to 04, W4-CHAR-07): each has a one-model
unit of his own that stands on the table while he is alone; inside a unit his figure takes a
place at the front of the command company and the displaced model goes to the back.

This module keeps that bookkeeping in one place: :func:`join`, :func:`leave` and
:func:`remove` are the only functions that move a character in or out of a unit.
"""

from __future__ import annotations

from warhost.geometry.table import Point
from warhost.rulesets.dnd4e_war.model import CharacterSpec, Profile
from warhost.rulesets.dnd4e_war.profiles import character_strength
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import CLASS_TIER, GENERAL_ACTION_POINTS, tier


def character_profile(spec: CharacterSpec) -> Profile:
    """The profile of a character's own unit: one model, moving as a skirmisher, or as a
    monster with unit strength 2 or more or on a monstrous mount (W4-CHAR-02); Resilience
    and Attacks from his class's tier unless given (W4-CLASS-02)."""
    resilience, attacks, _points = CLASS_TIER[tier(spec.level)]
    strength = character_strength(spec.size, spec.mount_size, spec.mount_monster)
    return Profile(
        name=spec.name or spec.id, race=spec.race, courage=spec.courage, level=spec.level,
        size=spec.size, formation="skirmish", cavalry=spec.mount_size is not None,
        monster=strength >= 2 or spec.mount_monster, mount_size=spec.mount_size,
        mount_monster=spec.mount_monster, speed=spec.speed, initiative=spec.initiative,
        hp=spec.hp, resilience=spec.resilience or resilience,
        attacks=spec.attacks or attacks, defenses=spec.defenses, saves=spec.saves,
        unit_size=(1, 1), base=spec.base, rules=list(spec.rules), powers=list(spec.powers),
        points=0,
    )


def new_character(side: str, spec: CharacterSpec) -> Character:
    """A character at full hit points with his battle's action points (W4-CLASS-02,
    W4-GEN-02)."""
    points = spec.action_points
    if points is None:
        points = CLASS_TIER[tier(spec.level)][2]
    if spec.general:
        points += GENERAL_ACTION_POINTS
    options = {k: v for k, v in (("fighting_style", spec.fighting_style),
                                 ("oath_target", spec.oath_target),
                                 ("cursed_unit", spec.cursed_unit),
                                 ("beast_form", spec.beast_form),
                                 ("spirit_power", spec.spirit_power),
                                 ("warding_ac", spec.warding_ac),
                                 ("initiative_roll_bonus", spec.initiative_roll_bonus)) if v}
    mount = spec.mount_hp if spec.mount_monster and spec.mount_defenses is not None else None
    return Character(id=spec.id, name=spec.name or spec.id, side=side,
                     character_class=spec.character_class, level=spec.level, hp=spec.hp,
                     action_points=points, general=spec.general, options=options,
                     mount_hp=mount or 0, mount_defenses=spec.mount_defenses)


def join(state: WarState, character: Character, host: Unit) -> None:
    """W4-CHAR-04: ``character`` steps into ``host``: his figure joins the front of the
    command company and one ordinary model moves to the back, filling a depleted company or
    starting a new one (so the unit gains one model's place)."""
    own = state.units[character.id]
    own.inside = host.id
    character.host = host.id
    host.joined = [*host.joined, character.id]
    host.members = [*host.members, own.profile]
    host.members_strength += joined_strength(own.profile)
    if host.skirmish:
        host.points = [*host.points, own.points[0] if own.points else host.front]
        host.companies = [*host.companies, 1]
    elif host.companies and host.companies[-1] < host.company_size:
        host.companies = [*host.companies[:-1], host.companies[-1] + 1]
    else:
        host.companies = [*host.companies, 1]
    state.moved.add(host.id)


def joined_strength(profile: Profile) -> int:
    """W4-STR-04/08: a character's unit strength inside a unit (no lone monster bonus)."""
    return character_strength(profile.size, profile.mount_size, profile.mount_monster)


def lone_strength(profile: Profile) -> int:
    """W4-STR-05/07: a character's unit strength on his own."""
    return character_strength(profile.size, profile.mount_size, profile.mount_monster,
                              lone=True)


def _give_back_place(state: WarState, host: Unit, character: Character) -> None:
    own = state.units[character.id]
    host.joined = [c for c in host.joined if c != character.id]
    host.members = [p for p in host.members if p is not own.profile]
    host.members_strength -= joined_strength(own.profile)
    character.host = None
    # the last company (or model) stays on the table even when empty (W4-AMB-22)
    if host.skirmish and len(host.companies) > 1:
        host.points = host.points[:-1]
        host.companies = host.companies[:-1]
    elif host.companies:
        last = host.companies[-1] - 1
        keep = last > 0 or len(host.companies) == 1
        host.companies = host.companies[:-1] + ([max(0, last)] if keep else [])
    state.moved.add(host.id)


def leave(state: WarState, character: Character, at: Point, facing: float) -> Unit:
    """W4-CHAR-07: ``character`` steps out of his unit to ``at``; the rearmost place he had
    taken is given back. Returns his own unit, now on the table."""
    assert character.host is not None
    host = state.units[character.host]
    _give_back_place(state, host, character)
    own = state.units[character.id]
    own.inside = None
    own.points = [at]
    own.front = at
    own.facing = facing % 360.0
    return own


def remove(state: WarState, character: Character) -> None:
    """``character`` is slain: out of his unit if he was in one, and off the table."""
    if character.host is not None:
        _give_back_place(state, state.units[character.host], character)
    character.slain = True
    state.units[character.id].destroyed = True
