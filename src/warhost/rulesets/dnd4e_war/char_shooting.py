"""Joined characters shooting (W4-CHAR-13/14, W4-SHOOT-05/18, W4-DEC-18) and mixed ACs in a
target (W4-SHOOT-19, W4-AMB-47).

A joined character shoots from his place at the front of the command company, only if it is
in the unit's front rank and only at enemies in the unit's arc. He spends none of the unit's
actions, but when both he and the unit shoot in a phase they shoot at the same enemy unit.
His dice are rolled apart from the unit's, at his own attack bonus, as a character's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import Tray, clear_sight, tray_gap
from warhost.rulesets.dnd4e_war.attacks import roll_attacks
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState

SHOOT = "char_shoot"
"""W4-DEC-18: decision kind, whether a joined character shoots, with what, at whom."""
TARGETS = "_unit_targets"
"""``state.extra`` key: this phase's target of each unit whose unit or characters shot."""
RAN_PENALTY = 5


def majority_ac(acs: Sequence[int]) -> int:
    """W4-SHOOT-19, W4-AMB-47: the most common AC among the target's models, the higher on
    a tie."""
    tally = Counter(acs)
    most = max(tally.values())
    return max(ac for ac, n in tally.items() if n == most)


def hittable(acs: Sequence[int]) -> int:
    """W4-SHOOT-19, W4-AMB-47: how many of the models can be hit (AC at most the majority);
    hits beyond them are discarded."""
    top = majority_ac(acs)
    return sum(1 for ac in acs if ac <= top)


def home_slot(host: Unit) -> int:
    """W4-CHAR-04: the company joined characters stand at the front of: the command company
    (the first company without one; skirmishers: the last models, their own places)."""
    if host.skirmish:
        return len(host.companies) - 1
    if host.char_slot is not None and host.char_slot < len(host.companies):
        return host.char_slot  # moved there to fight (W4-CHAR-19)
    if host.joined:
        place = host.command_places().get(host.joined[0])
        if place is not None:
            return place[0]
    return host.command_slot if host.command_slot is not None else 0


def mixed_defense(state: WarState, target: Unit, power: Power) -> tuple[int, bool]:
    """W4-SHOOT-19, W4-AMB-47: a unit with joined characters has models of more than one
    defense: the majority one is attacked, and its normal models (the only ones ranged
    attacks can hit, W4-CHAR-11) can be hit only when theirs is not above it. Returns that
    defense and whether they can be hit."""
    own = int(getattr(target.profile.defenses, power.vs))
    values = [own] * target.normal_models + [
        int(getattr(state.units[c].profile.defenses, power.vs)) for c in target.joined]
    majority = majority_ac(values)
    return majority, own <= majority


def in_front_rank(host: Unit) -> bool:
    """W4-CHAR-13: a joined character is in the front rank when his company is."""
    if host.skirmish:
        return True
    return home_slot(host) < min(host.files, len(host.companies))


def his_tray(state: WarState, person: Character) -> Tray:
    """His base where he stands in his unit."""
    from warhost.rulesets.dnd4e_war.joining import place_in_host

    own = state.units[person.id]
    host = state.units[str(person.host)]
    return Tray(place_in_host(state, person), host.facing, own.base, own.base)


def ranged_powers(state: WarState, person: Character) -> list[Power]:
    """His ranged powers (area powers stay with his own shots when alone)."""
    return state.units[person.id].powers("ranged")


def can_shoot(state: WarState, person: Character) -> bool:
    """W4-CHAR-13: in a unit that may shoot (not engaged, fleeing or reformed), in its front
    rank, with a ranged power, and not shot yet this phase."""
    if person.host is None or person.slain:
        return False
    host, own = state.units[person.host], state.units[person.id]
    return (not own.shot and host.alive and not host.fleeing and not host.reformed
            and not host.double_moved and not state.is_engaged(host.id)
            and in_front_rank(host) and bool(ranged_powers(state, person)))


def targets(state: WarState, person: Character, power: Power) -> list[Unit]:
    """W4-CHAR-13/14: enemies in range of his base, in his unit's arc and in his sight; only
    his unit's target when it has shot."""
    from warhost.rulesets.dnd4e_war.shooting import blockers, enemies_within, in_arc

    host = state.units[str(person.host)]
    fixed = unit_target(state, host)
    tray = his_tray(state, person)
    out = []
    for enemy in enemies_within(state, host, power.range + host.frame().width):
        if fixed is not None and enemy.id != fixed:
            continue
        if state.is_engaged(enemy.id) and not state.options.shoot_into_combat:
            continue
        count(GEOMETRY)
        theirs = enemy.trays()
        if min(tray_gap(tray, t) for t in theirs) > power.range + 1e-9:
            continue
        if in_arc(host, enemy) and clear_sight(tray, theirs, blockers(state, host, enemy)):
            out.append(enemy)
    return out


def shooters(state: WarState, side: str) -> list[Character]:
    """Joined characters of ``side`` who could shoot now."""
    return [c for c in state.characters.values()
            if c.side == side and c.host is not None and can_shoot(state, c)
            and any(targets(state, c, p) for p in ranged_powers(state, c))]


def offer_shot(state: WarState, battle: Battle, person: Character) -> None:
    """W4-DEC-18: ask whether ``person`` shoots, with which power and at whom (his unit's
    target if it has shot), and shoot."""
    choices = [(p, t) for p in ranged_powers(state, person) for t in targets(state, person, p)]
    if not choices:
        return
    hold = Order.of("hold", person.id)
    options = (*(Order.of("shoot", person.id, _slug(p.name), t.id) for p, t in choices),
               hold)
    count(OPTIONS, len(options))
    order = battle.ask(person.side, SHOOT, options, f"Does {person.name} shoot?",
                       subject=person.id, default=options[0])
    if order.kind != "shoot":
        return
    power, target = choices[options.index(order)]
    character_shot(state, battle, person, power, target)


def character_shot(state: WarState, battle: Battle, person: Character, power: Power,
                   target: Unit) -> int:
    """W4-CHAR-14, W4-SHOOT-05/18: his own dice at his own bonus, as a character, spending
    none of his unit's actions; returns the hits."""
    from warhost.rulesets.dnd4e_war.shooting import (
        cover_bonus,
        defense,
        multiattack_allowed,
        take_casualties,
    )

    host = state.units[str(person.host)]
    own = state.units[person.id]
    own.shot = True
    state.extra.setdefault(TARGETS, {})[host.id] = target.id
    dice = own.profile.attacks if multiattack_allowed(state, power, target) \
        and own.profile.attacks > 1 else 1
    cover = cover_bonus(state, host, target, [home_slot(host)])
    bonus = power.bonus - (RAN_PENALTY if host.ran else 0)
    roll = roll_attacks(battle, dice, defense(target, power) + cover, bonus,
                        f"{person.id} shoots", character=True)
    battle.emit("character_shoots", character=person.id, unit=host.id, target=target.id,
                power=power.name, dice=dice, needed=roll.needed, cover=cover,
                faces=list(roll.faces), hits=roll.hits)
    take_casualties(state, battle, host, target, roll.hits, power)
    return roll.hits


def unit_target(state: WarState, host: Unit) -> str | None:
    """W4-CHAR-14: the enemy unit a joined character of ``host`` (or ``host`` itself) shot
    at this phase; none binds a war machine crew and its characters (W4-WM-07)."""
    from warhost.rulesets.dnd4e_war.joining import is_war_machine

    found: dict[str, str] = state.extra.get(TARGETS, {})
    return None if is_war_machine(host) else found.get(host.id)


def _slug(name: str) -> str:
    from warhost.rulesets.dnd4e_war.shooting import slug

    return slug(name)
