"""Characters' encounter and daily powers (W4-DEC-33) and recharging encounter powers at the
end of the turn (W4-RECH section, W4-AMB-87, W4-DEC-31).

An encounter power once used is expended (``Character.expended``) until a recharge brings it
back; a daily power is used once a battle (``Character.dailies``). At the end of each turn a
character with an expended encounter power whose standard action is still unused may try to
recharge: 1d6, and on a 5 or 6 he regains one expended power of his choice. His standard
action is the one of the unit he acts with (his host while joined, else his own unit).
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.state import Character, WarState

RECHARGE_ON = 5
"""W4-RECH-03: a d6 of 5 or more regains a power."""
TRY = "recharge"
SKIP = "no_recharge"
REGAIN = "recharge_power"


def available_powers(state: WarState, character: Character, *kinds: str) -> list[Power]:
    """The character's powers of ``kinds`` he may use now: at-will ones, encounter ones not
    expended and daily ones not yet used (W4-DEC-33)."""
    return [p for p in state.units[character.id].powers(*kinds)
            if p.usage == "at-will"
            or p.usage == "encounter" and p.name not in character.expended
            or p.usage == "daily" and p.name not in character.dailies]


def use_power(battle: Battle, character: Character, power: Power) -> None:
    """Mark an encounter power expended, a daily one used (once a battle)."""
    if power.usage == "encounter":
        character.expended.add(power.name)
    elif power.usage == "daily":
        character.dailies.add(power.name)
    else:
        return
    battle.emit("power_used", character=character.id, power=power.name, usage=power.usage)


def may_recharge(state: WarState, character: Character) -> bool:
    """W4-RECH-01/02, W4-AMB-87: a living character with an expended encounter power, not
    sent to the rear (W4-CHAL-07), whose standard action this turn is unused."""
    if character.slain or not character.expended or character.at_rear:
        return False
    unit = state.units[character.host or character.id]
    return not unit.standard_used


def end_of_turn(state: WarState, battle: Battle) -> None:
    """W4-RECH-01 to 03, W4-DEC-31: each eligible character, side with the initiative first,
    may try to recharge one encounter power."""
    if not state.characters:
        return
    for side in state.order_of_sides():
        for character in [c for c in state.characters.values() if c.side == side]:
            if may_recharge(state, character):
                attempt(state, battle, character)


def attempt(state: WarState, battle: Battle, character: Character) -> None:
    """Ask whether ``character`` tries; roll 1d6; on 5-6 he picks the power he regains."""
    tries = Order.of(TRY, character.id)
    order = battle.ask(character.side, TRY, (tries, Order.of(SKIP, character.id)),
                       f"{character.name} may try to recharge an encounter power (a standard "
                       "action): try?", subject=character.id, default=tries)
    if order != tries:
        return
    state.units[character.host or character.id].standard_used = True
    roll = battle.dice.draw(6, f"recharge {character.id}")
    power = None
    if roll >= RECHARGE_ON:
        names = sorted(character.expended)
        options = tuple(Order.of(REGAIN, character.id, i) for i in range(len(names)))
        count(OPTIONS, len(options))
        listed = ", ".join(f"{i}: {n}" for i, n in enumerate(names))
        pick = battle.ask(character.side, REGAIN, options,
                          f"{character.name} regains one encounter power ({listed})",
                          subject=character.id, default=options[0])
        power = names[int(pick.args[1])]
        character.expended.discard(power)
    battle.emit("recharge", character=character.id, roll=roll, power=power)
