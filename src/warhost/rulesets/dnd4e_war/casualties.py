"""Removing casualties (W4-CAS): resilience, which company loses models, Hope is Lost!, damage
to non-minion models, conditions and ongoing damage, and destroying a unit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from warhost.core.battle import Battle
from warhost.geometry.table import Tray
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.profiles import immune_to_hope_is_lost
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState

SAVE_NEEDED = 10
"""W4-AMB-56: a saving throw succeeds on 10 or more (d20 + the unit's best save bonus)."""

COMMAND_LOSS_ORDER = ("musician", "standard", "captain")
"""W4-CMD-05/07/12: the command models the unit loses once no normal models are left, in
this order (the captain, a character, goes last)."""


@dataclass(frozen=True)
class Losses:
    """What a batch of hits did: models slain by the hits, and models removed by Hope is
    Lost! (W4-CAS-06/07)."""

    slain: int
    hope_lost: int = 0

    @property
    def removed(self) -> int:
        """Every model that left the table."""
        return self.slain + self.hope_lost


def minion(unit: Unit) -> bool:
    """W4-STAT-05: the unit's models are minions (hit points ``1/-``)."""
    return not isinstance(unit.profile.hp, int)


def apply_hits(state: WarState, battle: Battle, unit: Unit, hits: int, source: str,
               why: str, damage: str | None = None) -> Losses:
    """W4-CAS-01 to 08: ``hits`` on ``unit``; leftover hits are discarded (W4-AMB-54).
    Non-minion models take ``damage`` (a dice expression) per hit instead (W4-AMB-53)."""
    if hits <= 0 or not unit.alive:
        return Losses(0)
    if unit.character is not None:
        return _wound_character(state, battle, unit, hits, source, why, damage or "1")
    if minion(unit):
        slain = minions_slain(unit, hits)
    else:
        slain = _damage_models(battle, unit, hits, damage or "1", why)
    remove_models(unit, slain)
    hope = hope_is_lost(unit) if slain else 0
    battle.emit("casualties", unit=unit.id, hits=hits, slain=slain, source=source, why=why)
    if hope:
        remove_models(unit, hope)
        battle.emit("hope_is_lost", unit=unit.id, removed=hope)
    unit.casualties_this_turn += slain + hope
    _lose_command_models(battle, unit)
    if unit.normal_models == 0 and unit.joined:
        _strand_characters(state, battle, unit)
    if unit.models == 0:
        destroy(state, battle, unit, why)
    return Losses(slain, hope)


def _wound_character(state: WarState, battle: Battle, unit: Unit, hits: int, source: str,
                     why: str, damage: str) -> Losses:
    """W4-CHAR-10, W4-CAS-10: hits on a lone character take his hit points, one damage roll
    per hit; once he is slain the rest are wasted (W4-CHAR-18)."""
    person = unit.character
    assert person is not None
    used = wound(battle, person, hits, damage, why)
    slain = 1 if person.slain else 0
    battle.emit("character_wounded", unit=unit.id, character=person.id, hits=hits, used=used,
                hp_left=person.hp_left, slain=bool(slain), source=source, why=why)
    if slain:
        unit.casualties_this_turn += 1
        unit.companies = [0]
        destroy(state, battle, unit, why)
    return Losses(slain)


def wound(battle: Battle, person: Character, hits: int, damage: str, why: str) -> int:
    """Roll ``damage`` for each of ``hits`` against ``person``'s hit points until he falls;
    returns the hits used (the rest are wasted, W4-CHAR-18). He is marked slain at 0, but
    taking his figure away is the caller's (``characters.remove``)."""
    used = 0
    for _ in range(hits):
        if person.hp_left <= 0:
            break
        used += 1
        person.wounds += battle.dice.roll(damage, f"{why} damage {person.id}")
    if person.hp_left <= 0:
        person.slain = True
    return used


def _lose_characters(state: WarState, battle: Battle, unit: Unit, why: str) -> None:
    """Ruling: characters inside a unit destroyed as a whole (caught while fleeing, fled off
    the table) share its fate."""
    from warhost.rulesets.dnd4e_war.characters import remove

    for person in state.characters_in(unit):
        remove(state, person)
        battle.emit("character_lost", character=person.id, unit=unit.id, why=why)


def _strand_characters(state: WarState, battle: Battle, unit: Unit) -> None:
    """Ruling: when the last normal model of a unit falls, the characters in it stay on the
    table on their own where it stood, in every fight it was in."""
    from warhost.rulesets.dnd4e_war.characters import leave
    from warhost.rulesets.dnd4e_war.joining import place_in_host

    foes = sorted(state.engaged.get(unit.id, ()))
    people = state.characters_in(unit)
    here = Tray(place_in_host(state, people[0]), unit.facing, 0.0, 0.0)
    for i, person in enumerate(people):
        right = (i - (len(people) - 1) / 2.0) * state.units[person.id].base
        own = leave(state, person, here.to_world(right, 0.0), unit.facing)
        for foe in foes:
            state.engage(own.id, foe)
        battle.emit("character_stranded", character=person.id, unit=unit.id,
                    at=[round(own.front[0], 3), round(own.front[1], 3)],
                    facing=round(own.facing, 3))


def minions_slain(unit: Unit, hits: int) -> int:
    """W4-CAS-01 to 04, W4-CAS-13, W4-AMB-54/55: minions ``hits`` kill when they are spread to
    kill as many as possible: a minion marked by ongoing damage first (it needs one hit
    fewer), then one per ``resilience`` hits; the rest are discarded."""
    resilience = max(1, unit.profile.resilience)
    slain = 0
    while (unit.weakened and resilience > 1 and hits >= resilience - 1
           and slain < unit.normal_models):
        hits -= resilience - 1
        unit.weakened -= 1
        slain += 1
    return min(unit.normal_models, slain + hits // resilience)


def _damage_models(battle: Battle, unit: Unit, hits: int, damage: str, why: str) -> int:
    """W4-AMB-53: each hit rolls ``damage`` against the hit points of one model until it is
    slain; a hit's excess damage is lost and the next hit goes to the next model."""
    hp = unit.profile.hp
    assert isinstance(hp, int)
    slain = 0
    for _ in range(hits):
        if slain >= unit.normal_models:
            break
        unit.wounds += battle.dice.roll(damage, f"{why} damage")
        if unit.wounds >= hp:
            slain += 1
            unit.wounds = 0
    return slain


def hope_is_lost(unit: Unit) -> int:
    """W4-CAS-06/08, W4-AMB-30: the models of the last company when it is down to half its
    full strength or fewer (0 when the rule does not apply: skirmishers, monsters, fearless
    or to-the-last-man units, or more than one company left)."""
    if (unit.skirmish or immune_to_hope_is_lost(unit) or len(unit.companies) != 1
            or unit.joined):
        return 0
    left = unit.companies[0]
    return left if 0 < left and 2 * left <= unit.company_size else 0


def remove_models(unit: Unit, count: int) -> None:
    """Take ``count`` models off, depleted company first, then the rearmost; the command
    company only when it is the last (W4-CAS-05); an emptied company leaves the unit and the
    command company goes back to the centre of the front rank (W4-CMD-02). The last company
    (or skirmisher) stays on the table empty, so that a destroyed unit is still measured
    where it stood (W4-AMB-22)."""
    for _ in range(count):
        if not unit.models:
            return
        slot = _next_loser(unit)
        unit.companies[slot] -= 1
        if unit.companies[slot] <= 0 and len(unit.companies) > 1:
            _drop_company(unit, slot)


def _next_loser(unit: Unit) -> int:
    last = len(unit.companies) - 1
    if unit.skirmish:
        return last
    slots = [s for s in range(len(unit.companies)) if s != unit.command_slot]
    if not slots:
        return unit.command_slot if unit.command_slot is not None else last
    depleted = [s for s in slots if unit.companies[s] < unit.company_size]
    return max(depleted) if depleted else max(slots)


def _drop_company(unit: Unit, slot: int) -> None:
    unit.companies.pop(slot)
    if unit.skirmish:
        if slot < len(unit.points):
            unit.points.pop(slot)
        return
    if unit.command_slot is not None:
        if slot == unit.command_slot:
            unit.command_slot = None
        elif slot < unit.command_slot:
            unit.command_slot -= 1
    recentre_command(unit)


def recentre_command(unit: Unit) -> None:
    """W4-CMD-02: put the command company back in the middle of the front rank."""
    if unit.command_slot is None or not unit.companies:
        return
    centre = (min(unit.files, len(unit.companies)) - 1) // 2
    if centre != unit.command_slot:
        cs = unit.command_slot
        unit.companies[cs], unit.companies[centre] = unit.companies[centre], unit.companies[cs]
        unit.command_slot = centre


def command_models(unit: Unit) -> list[str]:
    """The command models the unit still has (W4-CMD-01)."""
    return [name for name, here in (("musician", unit.musician), ("standard", unit.standard),
                                    ("captain", unit.captain is not None)) if here]


def _lose_command_models(battle: Battle, unit: Unit) -> None:
    """W4-CMD-05/07/12: a standard bearer or musician is never removed while normal models
    remain (another model takes it up); they go only when the models left are all command
    models, and their benefits with them."""
    lost = []
    for name in COMMAND_LOSS_ORDER:
        if unit.normal_models >= len(command_models(unit)):
            break
        if name == "musician" and unit.musician:
            unit.musician = False
        elif name == "standard" and unit.standard:
            unit.standard = unit.battle_standard = False
        elif name == "captain" and unit.captain is not None:
            unit.captain = None
            unit.captain_attacks = 1
        else:
            continue
        lost.append(name)
    if lost:
        battle.emit("command_lost", unit=unit.id, models=lost)


def destroy(state: WarState, battle: Battle, unit: Unit, why: str) -> None:
    """The unit is gone: out of every fight; allies nearby may panic (W4-PANIC-03)."""
    from warhost.rulesets.dnd4e_war import psychology

    if unit.destroyed:
        return
    if unit.joined:
        _lose_characters(state, battle, unit, why)
    unit.destroyed = True
    state.disengage(unit.id)
    battle.emit("destroyed", unit=unit.id, why=why)
    psychology.unit_destroyed(state, battle, unit)


# ---------------------------------------------------------------- damage dice

_WEAPON = re.compile(r"(\d*)\s*\[\s*[wW]\s*\]")


def damage_expression(power: Power) -> str:
    """The power's damage as a dice expression: each ``N[W]`` becomes N of its weapon dice
    (``2[W]+3`` with a 1d10 weapon is ``2d10+3``)."""
    found = re.fullmatch(r"(\d*)[dD](\d+)", (power.weapon_dice or "1d4").replace(" ", ""))
    per, sides = (int(found.group(1) or 1), int(found.group(2))) if found else (1, 4)

    def dice(match: re.Match[str]) -> str:
        return f"{int(match.group(1) or 1) * per}d{sides}"

    return _WEAPON.sub(dice, power.damage).replace(" ", "") or "1"


# ---------------------------------------------------------------- conditions

def add_condition(battle: Battle, unit: Unit, condition: str) -> None:
    """W4-CAS-09: a condition on any model is a condition on the whole unit."""
    if condition not in unit.conditions:
        unit.conditions.add(condition)
        battle.emit("condition", unit=unit.id, condition=condition, on=True)


def best_save(unit: Unit) -> int:
    """W4-CAS-10: the best saving throw bonus among the unit's members."""
    return unit.profile.saves


def saving_throw(battle: Battle, unit: Unit, effect: str) -> bool:
    """W4-CAS-10, W4-AMB-56: one save for the whole unit against ``effect`` (a condition or
    ``ongoing``): d20 + the best bonus, 10 or more ends it."""
    roll = battle.dice.draw(20, f"save {effect}")
    saved = roll + best_save(unit) >= SAVE_NEEDED
    battle.emit("saving_throw", unit=unit.id, effect=effect, roll=roll, bonus=best_save(unit),
                saved=saved)
    if saved:
        if effect == "ongoing":
            unit.ongoing = 0
        else:
            unit.conditions.discard(effect)
            battle.emit("condition", unit=unit.id, condition=effect, on=False)
    return saved


def ongoing_damage(state: WarState, battle: Battle, unit: Unit, amount: int,
                   source: str = "ongoing") -> Losses:
    """W4-CAS-11 to 13: ongoing damage strikes one rank-and-file model (the one the next hit
    would take, so no commander is asked, W4-DEC-34): a single hit on resilience-1 minions;
    on tougher minions that model's resilience drops by 1 until the end of the turn; a
    non-minion model loses ``amount`` hit points."""
    if not unit.alive or amount <= 0:
        return Losses(0)
    if minion(unit):
        if unit.profile.resilience <= 1:
            return apply_hits(state, battle, unit, 1, source, "ongoing damage")
        unit.weakened = min(unit.models, unit.weakened + 1)
        battle.emit("weakened", unit=unit.id, models=unit.weakened)
        return Losses(0)
    return apply_hits(state, battle, unit, 1, source, "ongoing damage", damage=str(amount))
