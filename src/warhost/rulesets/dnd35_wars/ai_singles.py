"""The `dnd35-wars` AI's singular creatures: monsters, NPCs and PCs, alone or embedded.

A creature standing alone scores each action by the HP it takes from the enemy less the HP
it risks on the square where it ends (the units that could strike it there next turn, many
attackers each, W35-DMG-09): so a giant whose blows barely scratch a unit at a big scale
(W35-DMG-13/14 divide them by the creatures per counter) keeps away from enemy units, or
joins a friendly one, while one that does real damage fights. An embedded creature keeps up
with its unit (W35-INUNIT-05) unless the unit is already in a fight and will not move, and
stays back from the front line (W35-COLL-02/03) unless blows barely hurt it.
"""

from __future__ import annotations

from warhost.core.orders import Order
from warhost.geometry.grid import Square, chebyshev, share_side
from warhost.rulesets.dnd35_wars import magic, reach, singles
from warhost.rulesets.dnd35_wars.ai_judge import (
    NEAR,
    box,
    box_gap,
    single_on,
    threat_reach,
    unit_on_single,
)
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

STRONG = 0.15
"""An embedded creature stands in the front line when the worst nearby unit's blow would take
less than this share of its HP."""
LEAVE = -50.0
"""Leaving its unit is never wanted by the AI (the unit protects it)."""
FIGHT_THROUGH = -5.0
"""Fighting into an enemy unit (W35-MON-07) puts the creature among many attackers."""
CAST_WORTH = 10.0
"""An embedded caster stops keeping up with its unit to cast a spell expected to be worth at
least this many HP (any spell worth something once its unit is in a fight)."""


def _parse(text: object) -> Square | None:
    try:
        x, y = (int(v) for v in str(text).split(","))
    except ValueError:
        return None
    return (x, y)


def _where(state: WarState, single: Single) -> Square | None:
    """Its square; an embedded creature not yet seated stands somewhere in its unit."""
    if single.square is not None:
        return single.square
    host = state.units.get(single.host) if single.host is not None else None
    return min(host.squares) if host is not None and host.squares else None


def _foes_near(state: WarState, single: Single) -> list[Unit]:
    sq = _where(state, single)
    if sq is None:
        return []
    here = (*sq, *sq)
    return [u for u in state.units_of(state.other(single.side))
            if u.can_fight and box_gap(here, box(u.squares)) <= NEAR]


def danger(state: WarState, single: Single, sq: Square, foes: list[Unit]) -> float:
    """Expected HP ``single`` loses next turn standing on ``sq``: each enemy unit that could
    reach it strikes with a straight front's creatures (W35-AMB-31)."""
    spot = (*sq, *sq)
    total = 0.0
    for foe in foes:
        if foe.melee is None:
            continue
        gap = box_gap(spot, box(foe.squares))
        if gap <= threat_reach(foe):
            attackers = min(foe.derived_creatures, 3 * reach.creatures_per_side(foe.per_counter))
            total += unit_on_single(state, foe, single, ranged=False, extra=2,
                                    attackers=attackers)
    return min(total, float(single.hp) * 2)


def _target(state: WarState, tid: str) -> Unit | Single | None:
    return state.units.get(tid) or state.singles.get(tid)


def action(state: WarState, single: Single, options: tuple[Order, ...]) -> Order:
    """The best-scored ``single_action``."""
    foes = _foes_near(state, single)
    embedded = single.host is not None
    here = single.square
    stay_danger = 0.0 if embedded or here is None else danger(state, single, here, foes)
    best, best_score = options[0], float("-inf")
    for order in options:
        score = _score(state, single, order, foes, stay_danger)
        if score > best_score:
            best, best_score = order, score
    return best


def _score(state: WarState, single: Single, order: Order, foes: list[Unit],
           stay_danger: float) -> float:
    kind = order.kind
    if kind == "shold":
        return -stay_danger
    if kind == "sdefend":
        return -0.6 * stay_danger - 0.01
    if kind in ("sattack", "sfull"):
        target = _target(state, str(order.args[1]))
        if target is None:
            return -stay_danger
        return single_on(state, single, target) - stay_danger
    if kind == "scharge":
        target = _target(state, str(order.args[1]))
        sq = _parse(order.args[2]) if len(order.args) > 2 else None
        if target is None or sq is None:
            return LEAVE
        return single_on(state, single, target, charge=True) - danger(state, single, sq, foes)
    if kind == "smove":
        sq = _parse(order.args[1])
        if sq is None:
            return LEAVE
        occupant = state.at.get(sq)
        if occupant is not None:
            return FIGHT_THROUGH - stay_danger
        return _approach(state, single, sq) - danger(state, single, sq, foes)
    if kind == "enter":
        unit = state.units.get(str(order.args[1]))
        if unit is None:
            return LEAVE
        return 0.05 - 0.1 * stay_danger
    if kind in magic.CAST_KINDS:
        return magic.ai_value(state, single, order) - stay_danger
    return LEAVE


def _approach(state: WarState, single: Single, sq: Square) -> float:
    """A little worth for ending near an enemy it can hurt (a creature or a unit)."""
    best = 0.0
    for other in state.singles.values():
        if other.side != single.side and other.independent and other.square is not None:
            gap = chebyshev(sq, other.square)
            if gap <= NEAR:
                best = max(best, single_on(state, single, other) / (1 + gap))
    for unit in state.units_of(state.other(single.side)):
        gap = box_gap((*sq, *sq), box(unit.squares))
        if gap <= NEAR:
            best = max(best, single_on(state, single, unit) / (1 + gap))
    return 0.5 * best


def stay_with_unit(state: WarState, single: Single, options: tuple[Order, ...]) -> Order:
    """Keep up with the unit (W35-INUNIT-05) unless it is in a fight it will not leave and an
    enemy is in the creature's reach, or it has a spell worth casting."""
    stay = next((o for o in options if o.kind == "sstay"), options[0])
    act = next((o for o in options if o.kind == "sact"), None)
    unit = state.units.get(single.host) if single.host is not None else None
    if act is None or unit is None or unit.phalanx:
        return stay
    fighting = bool(state.foes_engaged(unit.id)) or any(
        share_side(unit.squares, foe.squares) for foe in _foes_near(state, single))
    if fighting and singles.foe_targets(state, single):
        return act
    best_cast = max((magic.ai_value(state, single, o) for o in magic.cast_options(state, single)),
                    default=0.0)
    if best_cast >= CAST_WORTH or (fighting and best_cast > 0):
        return act
    return stay


def front_line(state: WarState, single: Single, options: tuple[Order, ...]) -> Order:
    """Back from the front line (W35-COLL-02) unless a blow of the worst nearby enemy unit
    would barely hurt it."""
    back = next((o for o in options if o.kind == "sback"), options[0])
    front = next((o for o in options if o.kind == "sfront"), None)
    if front is None:
        return back
    foes = [foe for foe in _foes_near(state, single) if foe.melee is not None]
    if not foes:
        return front if single.front_line else back
    worst = max(unit_on_single(state, foe, single, ranged=False,
                               attackers=min(foe.derived_creatures,
                                             3 * reach.creatures_per_side(foe.per_counter)))
                for foe in foes)
    return front if worst < STRONG * single.hp else back
