"""Characters in close combat (W4-CHAR-16 to 19, W4-AMB-99, W4-DEC-15).

A joined character fights from his place at the front of his company, with his own power,
attacks and initiative, rolled as a character. An enemy with a character in reach may send
some or all of its attacks at him instead of at his unit: the split is declared before any
die is rolled and each part is rolled apart (W4-AMB-99). Hits on a character take his hit
points; those beyond what slays him are wasted and score nothing (W4-CHAR-18).

The challenge rules call :func:`characters_in_reach`, :func:`attack_character` and
:func:`wound_in_fight` (the public helpers of this module).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import tray_gap
from warhost.rulesets.dnd4e_war.casualties import damage_expression, wound
from warhost.rulesets.dnd4e_war.char_shooting import home_slot
from warhost.rulesets.dnd4e_war.characters import remove
from warhost.rulesets.dnd4e_war.state import CONTACT, Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import points_per_hit

if TYPE_CHECKING:
    from warhost.rulesets.dnd4e_war.melee import Blow

AIM = "char_attack"
"""W4-DEC-15/AMB-99: decision kind, how many of a batch of attacks go at an enemy
character."""
OUT_OF_REACH = "_chars_out_of_reach"
"""``state.extra`` key: characters who had no enemy in reach in a fight this turn."""


def in_reach(state: WarState, attacker: Unit, host: Unit, reach: int) -> bool:
    """W4-CHAR-16: whether ``attacker`` reaches the place of the characters in ``host`` (the
    front of their company): in base contact with it, or within reach 2's extra inch."""
    if not host.companies:
        return False
    place = host.trays()[home_slot(host)]
    count(GEOMETRY, len(attacker.companies))
    return any(tray_gap(t, place) <= max(0, reach - 1) + CONTACT for t in attacker.trays())


def characters_in_reach(state: WarState, attacker: Unit, target: Unit,
                        reach: int) -> list[Character]:
    """The enemy characters ``attacker`` may attack in ``target``: the lone character
    himself, or those inside the unit when their place is in reach."""
    if target.character is not None:
        return [target.character] if not target.character.slain else []
    if not target.joined or not in_reach(state, attacker, target, reach):
        return []
    return [c for c in state.characters_in(target)
            if not c.slain and not out_of_the_fight(state, c)]


def out_of_the_fight(state: WarState, person: Character) -> bool:
    """W4-CHAL-06/07/11: a character fighting a challenge, or sent to the rear, neither
    attacks nor is attacked by the rest of the fight."""
    from warhost.rulesets.dnd4e_war.challenges import dueling

    return person.at_rear or dueling(state, person.id)


def split_blows(state: WarState, battle: Battle, blows: list[Blow]) -> list[Blow]:
    """W4-CHAR-16/17, W4-AMB-99: before rolling, each batch of attacks at a unit with
    characters in reach may send some of its dice at them; returns the batches to roll."""
    if not state.characters:
        return blows
    out: list[Blow] = []
    for blow in blows:
        if blow.at_character is not None or not blow.target.joined:
            out.append(blow)
            continue
        for person in characters_in_reach(state, blow.unit, blow.target, blow.power.reach):
            if blow.dice <= 0:
                break
            n = _ask_split(battle, blow, person)
            if n:
                out.append(attack_character(blow, person, n))
                blow = replace(blow, dice=blow.dice - n)
        if blow.dice > 0:
            out.append(blow)
    return out


def attack_character(blow: Blow, person: Character, dice: int) -> Blow:
    """A batch of ``dice`` of ``blow`` sent at ``person`` (rolled apart, W4-AMB-99)."""
    return replace(blow, dice=dice, extra=0, at_character=person.id)


def _ask_split(battle: Battle, blow: Blow, person: Character) -> int:
    most = blow.dice
    choices = sorted({0, 1, most // 2, most} - {-1})
    options = tuple(Order.of("strike_at", blow.unit.id, person.id, n) for n in choices
                    if 0 <= n <= most)
    count(OPTIONS, len(options))

    def accept(order: Order) -> Order | Refusal:
        if order.kind != "strike_at" or len(order.args) != 3 or \
                str(order.args[0]) != blow.unit.id or str(order.args[1]) != person.id:
            return Refusal(f"answer strike_at {blow.unit.id} {person.id} N", rule="W4-CHAR-16")
        try:
            n = int(str(order.args[2]))
        except ValueError:
            return Refusal(f"{order.args[2]} is not a number of attacks")
        if not 0 <= n <= most:
            return Refusal(f"{blow.unit.id} has {most} attacks here", "W4-CHAR-17")
        return Order.of("strike_at", blow.unit.id, person.id, n)

    order = battle.ask(blow.unit.side, AIM, options,
                       f"How many of {blow.unit.label()}'s {most} attacks go at "
                       f"{person.name}?", subject=blow.unit.id, default=options[0],
                       accept=accept)
    return int(str(order.args[2]))


def defender(state: WarState, blow: Blow) -> Unit:
    """The unit whose defenses a batch of attacks rolls against: the character's own for
    attacks sent at him."""
    if blow.at_character is not None:
        return state.units[blow.at_character]
    return blow.target


def wound_in_fight(state: WarState, battle: Battle, blow: Blow, hits: int) -> int:
    """W4-CHAR-18: ``hits`` on the character ``blow`` was sent at; returns the hits that
    counted (those beyond what slew him are wasted). A slain character leaves his unit."""
    assert blow.at_character is not None
    person = state.characters[blow.at_character]
    if person.slain or hits <= 0:
        return 0
    used = wound(battle, person, hits, damage_expression(blow.power), "close combat")
    battle.emit("character_wounded", unit=blow.target.id, character=person.id, hits=hits,
                used=used, hp_left=person.hp_left, slain=person.slain, source=blow.unit.id,
                why="close combat")
    if person.slain:
        remove(state, person)
    return used


def points_for(blow: Blow, used: int) -> int:
    """W4-CHAR-18, W4-AMB-27: combat resolution points of the hits on a character that
    counted."""
    return used * points_per_hit(blow.power.damage)


# ------------------------------------------------------------------------ their own attacks

def initiatives(state: WarState, units: list[Unit]) -> set[int]:
    """The initiative steps of the joined characters of ``units``."""
    return {state.units[c].profile.initiative for u in units for c in u.joined}


def character_blows(state: WarState, battle: Battle, unit: Unit, foes: list[Unit],
                    step: int | None = None) -> list[Blow]:
    """The attacks of ``unit``'s joined characters of initiative ``step`` (None: all, as
    when charging): each strikes a foe in contact with his company with his best melee
    power, as a character."""
    from warhost.rulesets.dnd4e_war.melee import (
        Blow,
        attacks_per_model,
        class_blows,
        melee_power,
    )

    out: list[Blow] = []
    if not unit.joined or not foes:
        return out
    place = unit.trays()[home_slot(unit)]
    for person in state.characters_in(unit):
        own = state.units[person.id]
        power = melee_power(own)
        if person.slain or power is None or (step is not None
                                             and own.profile.initiative != step):
            continue
        if own.shot or own.standard_used or out_of_the_fight(state, person):
            continue  # he shot this turn, or fights a challenge, or was sent to the rear
        count(GEOMETRY, len(foes))
        reach = max(0, power.reach - 1) + CONTACT
        foe = next((f for f in foes if any(tray_gap(place, t) <= reach for t in f.trays())),
                   None)
        if foe is None:
            state.extra.setdefault(OUT_OF_REACH, set()).add(person.id)
            continue
        per = attacks_per_model(state, own.profile.attacks, power, foe) + power.extra_attacks
        blow = Blow(unit, foe, power, per, power.bonus, character=True, per=per, uses=per,
                    who=person.id)
        out += [blow, *class_blows(state, battle, person, unit, [blow])]
    return out


def in_front_fighters(unit: Unit, slot: int, models: int) -> int:
    """The ordinary fighters of company ``slot``: its joined characters (at its front) fight
    apart."""
    if unit.joined and slot == home_slot(unit):
        return max(0, models - len(unit.joined))
    return models


# ------------------------------------------------------------------------ W4-CHAR-19

REPOSITION = "char_reposition"
"""W4-DEC-15: decision kind, the free move of a character who could not attack."""


def fighting_slots(state: WarState, host: Unit) -> list[int]:
    """The companies of ``host`` in base contact with an enemy it fights."""
    foes = [t for f in state.foes_of(host.id) for t in f.trays()]
    out = []
    for slot, tray in enumerate(host.trays()):
        count(GEOMETRY, len(foes))
        if any(tray_gap(tray, t) <= CONTACT for t in foes):
            out.append(slot)
    return out


def free_moves(state: WarState, battle: Battle, side: str) -> None:
    """W4-CHAR-19, W4-DEC-15: each character of ``side`` who had no enemy in reach in last
    turn's fighting may now move, at no action cost, to the front of a company of his unit
    that is in contact with the enemy."""
    waiting: set[str] = state.extra.get(OUT_OF_REACH, set())
    for cid in sorted(waiting):
        person = state.characters[cid]
        if person.side != side:
            continue
        waiting.discard(cid)
        if person.slain or person.host is None:
            continue
        host = state.units[person.host]
        slots = [s for s in fighting_slots(state, host) if s != home_slot(host)]
        if host.skirmish or not slots:
            continue
        stay = Order.of("stay", cid)
        options = (*(Order.of("reposition", cid, s) for s in slots), stay)
        count(OPTIONS, len(options))
        order = battle.ask(side, REPOSITION, options,
                           f"{person.name} could not reach the enemy: move him to the front "
                           f"of a fighting company?", subject=cid, default=options[0])
        if order.kind == "reposition":
            host.char_slot = int(str(order.args[1]))
            battle.emit("character_repositioned", character=cid, unit=host.id,
                        company=host.char_slot)
