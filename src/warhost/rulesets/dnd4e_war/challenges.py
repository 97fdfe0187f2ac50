"""Challenges (W4-CHAL section, W4-RESOLVE-17, W4-CLASS-13, W4-AMB-33 to 35 and 96,
W4-DEC-24).

At the start of each fight of the Close Combat phase the side with the initiative, then the
other, may have one of its characters in the fight challenge; at most one challenge a fight
(W4-CHAL-02), and only when the other side has a character there (W4-AMB-34). The other side
accepts with one of its characters or declines; a lone character cannot hide (W4-CHAL-08)
and a paladin's challenge cannot be refused (W4-CLASS-13). On a refusal the challenger picks
an enemy character inside a unit of the fight, who goes to the rear and does nothing until
the end of the turn (W4-CHAL-06/07); no more challenges in that fight (W4-CHAL-05).

Accepted, the two fight apart from everyone else (W4-CHAL-11, W4-AMB-96) after the fight's
other attacks and before combat resolution, striking in initiative order (W4-AMB-35; equal
initiative strikes at once); after his blow each may spend an action point to attack again
(W4-AP-05, W4-AMB-38). Hits count for combat resolution as usual; hits landed after
the foe's hit points reached 0 are overkill, +1 each to a maximum of +5 (W4-CHAL-12,
W4-RESOLVE-17, W4-AMB-33), and are not passed on.

Only characters who could strike in this Close Combat phase (their unit has not charged, shot
or used its standard action, W4-MELEE-05 to 07) take part in a challenge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warhost.core.battle import Battle
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import casualties, characters
from warhost.rulesets.dnd4e_war.action_points import offer_extra_attack
from warhost.rulesets.dnd4e_war.attacks import roll_attacks
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.recharge import available_powers, use_power
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import points_per_hit

ISSUE = "challenge_issue"
ANSWER = "challenge_answer"
REAR = "challenge_rear"
POWER = "challenge_power"
NO_CHALLENGE = Order("no_challenge")
DECLINE = Order("decline_challenge")
OVERKILL_MAX = 5
"""W4-CHAL-12, W4-RESOLVE-17."""
DUELS = "challenge_duels"
"""``state.extra`` key: this turn's fighting characters, ``{"turn": n, "ids": [...]}``."""


@dataclass
class Duel:
    """An accepted challenge: the two characters, and what the fight gave each side."""

    challenger: Character
    defender: Character
    hits: dict[str, int] = field(default_factory=dict)
    overkill: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- who is where

def unit_with(state: WarState, character: Character) -> Unit:
    """The unit a character fights with: his host, else his own one-model unit."""
    return state.units[character.host or character.id]


def in_fight(state: WarState, fight: list[str], side: str) -> list[Character]:
    """Characters of ``side`` in the fight's units (inside them or alone), who could strike
    this phase and were not sent to the rear."""
    from warhost.rulesets.dnd4e_war.melee import can_attack

    found: list[Character] = []
    for uid in fight:
        unit = state.units[uid]
        if unit.side != side or not can_attack(unit):
            continue
        people = [unit.character] if unit.character is not None else []
        people += state.characters_in(unit)
        found += [c for c in people if not c.slain and not c.at_rear
                  and state.units[c.id].powers("melee")]
    return found


def dueling(state: WarState, character_id: str) -> bool:
    """True while ``character_id`` fights an accepted challenge this turn: nobody else may
    attack him and he attacks nobody else (W4-CHAL-11)."""
    book = state.extra.get(DUELS)
    return book is not None and book["turn"] == state.turn and character_id in book["ids"]


def _mark(state: WarState, duel: Duel) -> None:
    book = state.extra.get(DUELS)
    if not book or book.get("turn") != state.turn:
        book = {"turn": state.turn, "ids": []}
        state.extra[DUELS] = book
    book["ids"] += [duel.challenger.id, duel.defender.id]


def end_of_turn(state: WarState) -> None:
    """W4-CHAL-07: characters sent to the rear are back in action next turn."""
    for character in state.characters.values():
        character.at_rear = False
    state.extra.pop(DUELS, None)


# --------------------------------------------------------------------------- declaring

def declare(state: WarState, battle: Battle, fight: list[str]) -> Duel | None:
    """W4-CHAL-01 to 09, W4-DEC-24: the one challenge of this fight, if any is accepted."""
    if not state.characters:
        return None
    for side in state.order_of_sides():
        mine = in_fight(state, fight, side)
        theirs = in_fight(state, fight, state.other(side))
        if not mine or not theirs:
            continue
        challenger = _issue(battle, side, mine)
        if challenger is None:
            continue
        return _answer(state, battle, challenger, theirs)
    return None


def _issue(battle: Battle, side: str, mine: list[Character]) -> Character | None:
    options = (NO_CHALLENGE, *(Order.of("challenge", c.id) for c in mine))
    count(OPTIONS, len(options))
    order = battle.ask(side, ISSUE, options,
                       "Does one of your characters in this fight issue a challenge?",
                       default=NO_CHALLENGE)
    if order == NO_CHALLENGE:
        return None
    found = next(c for c in mine if c.id == str(order.args[0]))
    battle.emit("challenge_issued", character=found.id, side=side)
    return found


def may_decline(challenger: Character, theirs: list[Character]) -> bool:
    """W4-CHAL-08, W4-CLASS-13: the challenged side may decline unless the challenger is a
    paladin or none of its characters there stands inside a unit to hide in."""
    if challenger.character_class == "paladin":
        return False
    return any(c.host is not None for c in theirs)


def _answer(state: WarState, battle: Battle, challenger: Character,
            theirs: list[Character]) -> Duel | None:
    side = state.other(challenger.side)
    options = tuple(Order.of("accept_challenge", c.id) for c in theirs)
    if may_decline(challenger, theirs):
        options = (*options, DECLINE)
    count(OPTIONS, len(options))
    order = battle.ask(side, ANSWER, options,
                       f"{challenger.name} challenges: which character accepts, or decline?",
                       subject=challenger.id, default=options[0])
    if order == DECLINE:
        send_to_rear(state, battle, challenger, [c for c in theirs if c.host is not None])
        return None
    defender = next(c for c in theirs if c.id == str(order.args[0]))
    battle.emit("challenge_accepted", character=defender.id, challenger=challenger.id)
    duel = Duel(challenger, defender)
    _mark(state, duel)
    return duel


def send_to_rear(state: WarState, battle: Battle, challenger: Character,
                 hiding: list[Character]) -> None:
    """W4-CHAL-06/07, W4-AMB-34: the challenger's side picks which enemy character goes to
    the rear of his unit; he takes no actions and lends nothing until the end of the turn."""
    options = tuple(Order.of("to_rear", c.id) for c in hiding)
    count(OPTIONS, len(options))
    order = battle.ask(challenger.side, REAR, options,
                       "The challenge is declined: which enemy character goes to the rear?",
                       subject=challenger.id, default=options[0])
    coward = next(c for c in hiding if c.id == str(order.args[0]))
    coward.at_rear = True
    battle.emit("challenge_declined", character=challenger.id, sent=coward.id,
                unit=coward.host)


# --------------------------------------------------------------------------- fighting

def choose_power(state: WarState, battle: Battle, character: Character) -> Power | None:
    """W4-DEC-33: the melee power the character uses in the challenge (at-will, or an
    encounter or daily power still available); the best bonus by default."""
    powers = available_powers(state, character, "melee")
    if not powers:
        return None
    best = max(powers, key=lambda p: (p.bonus, p.usage == "at-will"))
    if len(powers) > 1:
        options = tuple(Order.of(POWER, character.id, i) for i in range(len(powers)))
        count(OPTIONS, len(options))
        names = ", ".join(f"{i}: {p.name} ({p.usage})" for i, p in enumerate(powers))
        order = battle.ask(character.side, POWER, options,
                           f"Which power does {character.name} use in the challenge "
                           f"({names})?", subject=character.id,
                           default=options[powers.index(best)])
        best = powers[int(order.args[1])]
    use_power(battle, character, best)
    return best


def fight(state: WarState, battle: Battle, duel: Duel) -> None:
    """W4-CHAL-10/11, W4-AMB-35: the two strike each other in initiative order (equal
    initiative at once); each hit rolls the power's damage against hit points; hits after
    the foe is down are overkill (W4-AMB-33)."""
    pair = (duel.challenger, duel.defender)
    steps = sorted({state.units[c.id].profile.initiative for c in pair}, reverse=True)
    for step in steps:
        strikers = [c for c in pair if state.units[c.id].profile.initiative == step
                    and not c.slain]
        blows = [(c, _attack(state, battle, c, duel.defender if c is duel.challenger
                             else duel.challenger)) for c in strikers]
        for striker, (power, hits) in blows:
            foe = duel.defender if striker is duel.challenger else duel.challenger
            _land(state, battle, duel, striker, foe, power, hits)
        for striker in strikers:
            foe = duel.defender if striker is duel.challenger else duel.challenger
            if not striker.slain and not foe.slain and offer_extra_attack(
                    state, battle, striker,
                    f"Spend an action point so that {striker.name} attacks again?"):
                power, hits = _attack(state, battle, striker, foe)  # W4-AMB-38
                _land(state, battle, duel, striker, foe, power, hits)


def _attack(state: WarState, battle: Battle, striker: Character,
            foe: Character) -> tuple[Power | None, int]:
    from warhost.rulesets.dnd4e_war.melee import attacks_per_model

    power = choose_power(state, battle, striker)
    if power is None:
        return None, 0
    own, target = state.units[striker.id], state.units[foe.id]
    dice = attacks_per_model(state, own.profile.attacks, power, target)
    ac = getattr(target.profile.defenses, power.vs)
    roll = roll_attacks(battle, dice, ac, power.bonus, f"challenge {striker.id}",
                        character=True, state=state, unit=unit_with(state, striker))
    battle.emit("challenge_strike", character=striker.id, target=foe.id, power=power.name,
                dice=dice, needed=roll.needed, faces=list(roll.faces), hits=roll.hits)
    return power, roll.hits


def _land(state: WarState, battle: Battle, duel: Duel, striker: Character, foe: Character,
          power: Power | None, hits: int) -> None:
    """Damage each hit until the foe falls; the rest are overkill."""
    if power is None or hits <= 0:
        return
    side = striker.side
    damage = casualties.damage_expression(power)
    standing = not foe.slain
    landed = casualties.wound(battle, foe, hits, damage, "challenge")
    excess = hits - landed
    duel.hits[side] = duel.hits.get(side, 0) + landed * points_per_hit(power.damage)
    if excess:
        duel.overkill[side] = min(OVERKILL_MAX, duel.overkill.get(side, 0) + excess)
    battle.emit("challenge_damage", character=foe.id, by=striker.id, hits=landed,
                excess=excess, hp_left=foe.hp_left)
    if foe.hp_left <= 0 and standing:
        slay(state, battle, foe)


def slay(state: WarState, battle: Battle, character: Character) -> None:
    """The character falls: out of his unit, or his own unit destroyed if he stood alone."""
    own = state.units[character.id]
    battle.emit("challenge_slain", character=character.id, unit=character.host or own.id)
    if character.host is None and own.alive:
        casualties.destroy(state, battle, own, "slain in a challenge")
    characters.remove(state, character)


def resolve(state: WarState, battle: Battle, duel: Duel | None,
            units: list[Unit]) -> dict[str, int]:
    """Fight the challenge (if any) and credit its hits to each side's unit in the fight;
    returns each side's overkill bonus for combat resolution (W4-RESOLVE-17)."""
    if duel is None:
        return {}
    from warhost.rulesets.dnd4e_war.melee import add_points

    host = {c.side: unit_with(state, c).id for c in (duel.challenger, duel.defender)}
    fight(state, battle, duel)
    for side, points in duel.hits.items():
        add_points(state, host[side], points)
    if duel.overkill:
        battle.emit("overkill", bonus=dict(duel.overkill))
    return dict(duel.overkill)
