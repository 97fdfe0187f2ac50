"""The army's general (W4-GEN section, W4-DEC-02): his nomination, the courage bonus he lends
to units within 12", and his initiative bonus on the army's initiative roll.

A side with characters and none marked ``general`` in the scenario nominates one before the
first turn (the best courage bonus is offered as the default, the optional advice of
W4-GEN-01); the nominee gains his extra action point then (W4-GEN-02). A general sent to the
rear by a declined challenge lends nothing until the end of the turn (W4-CHAL-07).
"""

from __future__ import annotations

import math

from warhost.core.battle import Battle
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war.psychology import Candidate, base_bonus
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import GENERAL_ACTION_POINTS

NOMINATE = "general_nominate"
GENERAL_RANGE = 12.0
"""W4-GEN-03: inches within which units may use the general's courage bonus."""
_SLACK = 0.01
"""Inches of margin on the cheap test of :func:`_surely_beyond` (rounding, loose frames)."""
INITIATIVE_BONUS = "initiative_roll_bonus"
"""``Character.options`` key of a power bonus (or penalty) to his initiative rolls."""


def candidate(state: WarState, character: Character) -> Candidate:
    """The general as a courage candidate: his race, size and level, so his tier bonus is
    part of what he lends (W4-GEN-04)."""
    p = state.units[character.id].profile
    return Candidate(p.race, p.size, p.level, p.courage)


def nominate(state: WarState, battle: Battle) -> None:
    """W4-GEN-01/02, W4-DEC-02: each side with characters but no general picks one."""
    for side in state.sides:
        people = [c for c in state.characters.values() if c.side == side and not c.slain]
        if not people or any(c.general for c in people):
            continue
        best = max(people, key=lambda c: base_bonus(candidate(state, c)))
        options = tuple(Order.of("general", c.id) for c in people)
        count(OPTIONS, len(options))
        order = battle.ask(side, NOMINATE, options,
                           "Nominate your army's general (the best courage bonus is "
                           f"{best.id}'s)", default=options[people.index(best)])
        chosen = next(c for c in people if c.id == str(order.args[0]))
        chosen.general = True
        chosen.action_points += GENERAL_ACTION_POINTS
        battle.emit("general_nominated", character=chosen.id, side=side,
                    action_points=chosen.action_points)


def lent_courage(state: WarState, unit: Unit) -> list[Candidate]:
    """W4-GEN-03/04: the general as a further courage candidate for an allied unit within
    12" of him (measured from the unit he is in, or his own figure); none otherwise."""
    general = state.general(unit.side)
    if general is None or general.at_rear:
        return []
    where = state.units[general.host or general.id]
    if where.destroyed or not where.models:
        return []
    if where is not unit and (_surely_beyond(unit, where, GENERAL_RANGE)
                              or _gap(state, unit, where) > GENERAL_RANGE + 1e-9):
        return []
    return [candidate(state, general)]


GAPS = "_general_gaps"
"""``state.extra`` key: the last gap found between a unit and the general's unit, with where
both stood (courage is asked for again and again while nothing moves)."""


def _gap(state: WarState, a: Unit, b: Unit) -> float:
    """``state.gap(a, b)``, looked up again while neither unit has moved."""
    place = (a.placement(), a.base, a.tray_width, a.tray_depth,
             b.placement(), b.base, b.tray_width, b.tray_depth)
    gaps: dict[tuple[str, str], tuple[object, float]] = state.extra.setdefault(GAPS, {})
    known = gaps.get((a.id, b.id))
    if known is not None and known[0] == place:
        return known[1]
    found = state.gap(a, b)
    gaps[(a.id, b.id)] = (place, found)
    return found


def _surely_beyond(a: Unit, b: Unit, reach: float) -> bool:
    """True when the trays of ``a`` and ``b`` surely lie more than ``reach`` apart, judged
    cheaply on a circle about each unit's frame that holds all its trays (a skirmisher's
    turned bases reach past its upright frame: its base width is added)."""
    fa, fb = a.frame(), b.frame()
    ra = math.hypot(fa.width, fa.depth) / 2.0 + (a.base if a.skirmish else 0.0)
    rb = math.hypot(fb.width, fb.depth) / 2.0 + (b.base if b.skirmish else 0.0)
    apart = math.hypot(fa.centre[0] - fb.centre[0], fa.centre[1] - fb.centre[1])
    return apart - ra - rb > reach + _SLACK


def initiative_modifiers(state: WarState) -> dict[str, int]:
    """W4-GEN-05, W4-INIT-02: each living general's power bonus to initiative rolls, added
    to his side's initiative roll."""
    found = {}
    for side in state.sides:
        general = state.general(side)
        if general is not None and general.options.get(INITIATIVE_BONUS):
            found[side] = int(general.options[INITIATIVE_BONUS])
    return found
