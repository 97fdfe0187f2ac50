"""The ``ai`` commander's answers to the character decisions (W4-DEC-15/18): join the allied
unit a lone character helps most, send attacks at an enemy character when they can be
expected to slay him, and let joined characters shoot."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import psychology
from warhost.rulesets.dnd4e_war.casualties import damage_expression
from warhost.rulesets.dnd4e_war.melee import melee_power
from warhost.rulesets.dnd4e_war.state import Unit, WarState
from warhost.rulesets.dnd4e_war.tables import needed_score

_DICE = re.compile(r"(\d*)d(\d+)")


def mean_damage(expression: str) -> float:
    """The average of a dice expression such as ``2d6+3``."""
    total = 0.0
    rest = _DICE.sub(lambda m: "", expression)
    for n, sides in _DICE.findall(expression):
        total += int(n or 1) * (int(sides) + 1) / 2.0
    for term in re.findall(r"[+-]?\d+", rest):
        total += int(term)
    return max(1.0, total)


def hit_chance(needed: int) -> float:
    """The chance one d20 scores ``needed`` or more."""
    return max(0.0, min(1.0, (21 - needed) / 20.0))


def join_value(state: WarState, own: Unit, host: Unit) -> float:
    """What a character adds to ``host``: courage it lacks, then his attacks where the unit
    fights hand to hand."""
    mine = psychology.base_bonus(psychology.Candidate(own.profile.race, own.profile.size,
                                                      own.profile.level, own.profile.courage))
    gain = max(0, mine - psychology.courage_bonus(state, host))
    fights = melee_power(host) is not None and not host.powers("ranged", "area_burst")
    return 2.0 * gain + (own.profile.attacks if fights else 0.5) - 0.01 * len(host.joined)


def choose_join(decision: Decision, state: WarState) -> Order | None:
    """The allied unit the lone character helps most."""
    own = state.units.get(decision.subject)
    if own is None:
        return None
    best: tuple[float, Order] | None = None
    for order in decision.options:
        if order.kind != "join" or len(order.args) != 2:
            continue
        host = state.units.get(str(order.args[1]))
        if host is None:
            continue
        value = join_value(state, own, host)
        if best is None or value > best[0] + 1e-9:
            best = (value, order)
    return best[1] if best is not None else None


def dice_to_slay(state: WarState, attacker: Unit, cid: str) -> int | None:
    """The dice ``attacker`` can expect to need to slay character ``cid`` (None: no power)."""
    power = melee_power(attacker)
    person = state.characters.get(cid)
    if power is None or person is None:
        return None
    own = state.units[cid]
    ac = int(getattr(own.profile.defenses, power.vs))
    chance = hit_chance(needed_score(ac, power.bonus, attacker.character is not None))
    if chance <= 0.0:
        return None
    hits = math.ceil(person.hp_left / mean_damage(damage_expression(power)))
    return math.ceil(hits / chance)


def choose_aim(decision: Decision, state: WarState) -> Order | None:
    """Send the fewest offered attacks expected to slay the character, if any suffice;
    else none at him."""
    attacker = state.units.get(decision.subject)
    strikes = [o for o in decision.options if o.kind == "strike_at" and len(o.args) == 3]
    if attacker is None or not strikes:
        return None
    need = dice_to_slay(state, attacker, str(strikes[0].args[1]))
    ranked = sorted(strikes, key=lambda o: int(str(o.args[2])))
    if need is None:
        return ranked[0]
    enough = [o for o in ranked if int(str(o.args[2])) >= need]
    return enough[0] if enough else ranked[0]


def choose_shot(decision: Decision, state: WarState) -> Order | None:
    """A joined character shoots (at the first target offered)."""
    return next((o for o in decision.options if o.kind == "shoot"), None)


HANDLERS: dict[str, Callable[[Decision, WarState], Order | None]] = {
    "char_join": choose_join,
    "char_attack": choose_aim,
    "char_shoot": choose_shot,
}
