"""The AI's answers to the decisions of challenges, action points, the general and
recharging (see :mod:`warhost.rulesets.dnd4e_war.challenges`, ``action_points``,
``general`` and ``recharge``).

Challenges weigh the two characters: how many rounds each needs to cut the other down
(expected damage a round against hit points left). A challenge is issued, or accepted, when
our character is expected to win; a challenge we would lose is declined when we may. The
character sent to the rear is the enemy's most dangerous one. Action points change a die
only where it decides something that matters: a courage test, a charge roll, or a to-hit die
in a close fight or a challenge, and only cheaply for to-hit dice. Acting first is bought in
the Charge phase for a unit that can charge, so it strikes before the enemy does.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war.casualties import damage_expression
from warhost.rulesets.dnd4e_war.challenges import in_fight, unit_with
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.recharge import available_powers
from warhost.rulesets.dnd4e_war.state import Character, WarState
from warhost.rulesets.dnd4e_war.tables import chance_to_hit, needed_score

ACCEPT_EDGE = 0.8
"""A challenge is accepted when our edge (their rounds to kill us over ours to kill them)
is at least this; below it, declined where allowed."""
HIT_SPEND_MAX = 1
"""Points the AI spends to turn a missed to-hit die into a hit."""
CHARGE_SPEND_MAX = 2
"""Points the AI spends on a charge roll."""

_DICE = re.compile(r"(\d*)d(\d+)")


def average(expression: str) -> float:
    """The mean of a dice expression such as ``2d8+4``."""
    total = 0.0
    for n, sides in _DICE.findall(expression):
        total += int(n or 1) * (int(sides) + 1) / 2.0
    rest = _DICE.sub("", expression)
    for number in re.findall(r"[+-]?\d+", rest):
        total += int(number)
    return total


def _damage(state: WarState, power: Power, foe: Character) -> float:
    ac = getattr(state.units[foe.id].profile.defenses, power.vs)
    return chance_to_hit(needed_score(ac, power.bonus, True)) * average(
        damage_expression(power))


def rounds_to_kill(state: WarState, striker: Character, foe: Character) -> float:
    """Rounds of a challenge ``striker`` is expected to need to slay ``foe``."""
    powers = available_powers(state, striker, "melee")
    if not powers:
        return float("inf")
    per_round = max(_damage(state, p, foe) for p in powers)
    return foe.hp_left / per_round if per_round > 0 else float("inf")


def edge(state: WarState, mine: Character, theirs: Character) -> float:
    """How much faster ``mine`` kills than he is killed (above 1: he is favoured)."""
    ours = rounds_to_kill(state, mine, theirs)
    them = rounds_to_kill(state, theirs, mine)
    if ours == float("inf"):
        return 0.0
    return them / ours


def _foes(state: WarState, character: Character) -> list[Character]:
    unit = unit_with(state, character)
    fight = [unit.id, *(f.id for f in state.foes_of(unit.id))]
    return in_fight(state, fight, state.other(character.side))


def issue(decision: Decision, state: WarState) -> Order | None:
    """Challenge with the character who has the best edge over the enemy's best answer."""
    best: tuple[float, Order] | None = None
    for order in decision.options:
        if order.kind != "challenge":
            continue
        mine = state.characters[str(order.args[0])]
        foes = _foes(state, mine)
        if not foes:
            continue
        worst = min(edge(state, mine, f) for f in foes)
        if best is None or worst > best[0]:
            best = (worst, order)
    if best is not None and best[0] > 1.0:
        return best[1]
    return next((o for o in decision.options if o.kind == "no_challenge"), None)


def answer(decision: Decision, state: WarState) -> Order | None:
    """Accept with the best-placed character; decline (when allowed) if outmatched."""
    challenger = state.characters.get(decision.subject)
    if challenger is None:
        return None
    accepts = [o for o in decision.options if o.kind == "accept_challenge"]
    if not accepts:
        return None
    scored = [(edge(state, state.characters[str(o.args[0])], challenger), o) for o in accepts]
    value, order = max(scored, key=lambda pair: pair[0])
    decline = next((o for o in decision.options if o.kind == "decline_challenge"), None)
    if value < ACCEPT_EDGE and decline is not None:
        return decline
    return order


def to_rear(decision: Decision, state: WarState) -> Order | None:
    """Send the enemy's strongest character (level, then hit points left) to the rear."""
    options = [o for o in decision.options if o.kind == "to_rear"]
    if not options:
        return None
    return max(options, key=lambda o: (state.characters[str(o.args[0])].level,
                                       state.characters[str(o.args[0])].hp_left))


def power(decision: Decision, state: WarState) -> Order | None:
    """The power with the most expected damage against the challenge foe."""
    me = state.characters.get(decision.subject)
    if me is None:
        return None
    foes = _foes(state, me)
    powers = available_powers(state, me, "melee")
    if not foes or len(powers) != len(decision.options):
        return None
    index = max(range(len(powers)), key=lambda i: _damage(state, powers[i], foes[0]))
    return decision.options[index]


def dice(decision: Decision, state: WarState) -> Order | None:
    """Spend on a die that decides a courage test, a charge, or a close fight's hit."""
    why = str(decision.info.get("why", ""))
    spends = [o for o in decision.options if o.kind == "ap_dice"]
    if not spends:
        return None
    cheapest = min(spends, key=lambda o: int(o.args[2]))
    cost = int(cheapest.args[2])
    kind = str(decision.info.get("roll", ""))
    if kind == "courage":
        return cheapest
    if kind == "charge":
        return cheapest if cost <= CHARGE_SPEND_MAX else None
    if ("close combat" in why or "challenge" in why) and cost <= HIT_SPEND_MAX:
        return cheapest
    return None


def act_first(decision: Decision, state: WarState) -> Order | None:
    """Buy the first charge of the phase; never contest (the points are lost either way)."""
    if decision.info.get("phase") != "charge" or decision.info.get("contest"):
        return None
    return next((o for o in decision.options if o.kind == "ap_act_first"), None)


def extra(decision: Decision, state: WarState) -> Order | None:
    """A second attack for a character with points to spare (two or more left); no extra
    moves or shots."""
    me = state.characters.get(decision.subject)
    attack = next((o for o in decision.options if o.kind == "ap_extra"
                   and o.args[1:] == ("attack",)), None)
    if me is None or attack is None or me.action_points < 2:
        return None
    return attack


def recharge(decision: Decision, state: WarState) -> Order | None:
    """Always try to recharge: the standard action is otherwise unused."""
    return next((o for o in decision.options if o.kind == "recharge"), None)


HANDLERS: dict[str, Callable[[Decision, WarState], Order | None]] = {
    "challenge_issue": issue,
    "challenge_answer": answer,
    "challenge_rear": to_rear,
    "challenge_power": power,
    "ap_dice": dice,
    "ap_act_first": act_first,
    "ap_extra": extra,
    "recharge": recharge,
}
"""The decisions of this area the AI answers; the rest take their default (the
best-courage general, the first power regained)."""
