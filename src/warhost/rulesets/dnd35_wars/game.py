"""Rounds of a `dnd35-wars` battle (W35-ROUND), the end of the battle (W35-AMB-99) and its
outcome.

Every round, each actor acts once in the initiative order fixed before the first round: a
unit takes its four steps (morale, in-unit actions, formation change, one unit action:
W35-ROUND-12); a monster, NPC or PC standing alone takes one action (W35-ROUND-11).
"""

from __future__ import annotations

from typing import Any

from warhost.core.battle import Battle
from warhost.core.outcome import Outcome, UnitFate
from warhost.geometry.grid import formation_ok
from warhost.rulesets.dnd35_wars import (
    actions,
    arrivals,
    conditions,
    formation,
    inunit,
    morale,
    singles,
    tower,
)
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState
from warhost.rulesets.dnd35_wars.tables import counters_left

ROUND_SECONDS = 6
"""Game time of one round: ten rounds make a minute (W35-ROUND-01)."""

ROUND_CAP = 60
"""Safety net when the scenario sets no round limit (W35-AMB-99)."""


def play(state: WarState, battle: Battle) -> None:
    """Rounds until one side has nothing left able to act, or the round limit."""
    limit = state.options.round_limit or ROUND_CAP
    while not state.over:
        state.round += 1
        battle.emit("round_start", round=state.round,
                    seconds=(state.round - 1) * ROUND_SECONDS)
        conditions.tick(state, battle)
        arrivals.reinforcements(state, battle)
        for aid in list(state.order):
            if state.over:
                break
            actor = state.actor(aid)
            if isinstance(actor, Unit):
                unit_turn(state, battle, actor)
            elif actor.independent:
                morale.regenerate_single(state, battle, actor)  # W35-ABIL-10
                singles.single_turn(state, battle, actor)
            singles.tidy(state, battle)
            check_end(state, battle, limit, final=False)
        for side in state.sides:
            battle.emit("score", side=side, total=score(state, side))
        check_end(state, battle, limit, final=True)
        battle.round_ended(state.round)
    arrivals.after_battle(state, battle)


def unit_turn(state: WarState, battle: Battle, unit: Unit) -> None:
    """The four steps of a unit's turn, in order (W35-ROUND-12)."""
    if not unit.on_map:
        return
    battle.emit("turn", unit=unit.id, round=state.round)
    unit.charge_ac_penalty = False  # the charge's -2 AC lasts until its next turn
    unit.siege_defense = False  # so does its crew's total defense (W35-AMB-86)
    unit.exposed = False
    tower.turn_begins(state, unit)
    acts = morale.morale_step(state, battle, unit)
    if not unit.on_map:
        return
    inunit.in_unit_actions(state, battle, unit)
    if not unit.on_map:
        return
    if acts and not unit.routed:
        formation.formation_step(state, battle, unit)
    before = frozenset(unit.squares)
    actions.unit_action(state, battle, unit)
    inunit.after_unit_action(state, battle, unit, before)


def able(state: WarState, side: str) -> bool:
    """The side still has a unit or a singular creature on the map able to act; a routed unit
    still counts, as it may rally (W35-AMB-99 names vanquished, fled and scattered)."""
    if any(u.side == side and u.on_map for u in state.units.values()):
        return True
    if any(u.side == side and u.enters_round is not None and u.enters_round > state.round
           and not u.squares and u.status == "fighting" for u in state.units.values()):
        return True  # reinforcements still to come
    return any(s.side == side and s.alive and (s.host is None or s.host in state.units
                                               and state.units[s.host].on_map)
               for s in state.singles.values())


def kept(state: WarState, side: str) -> int:
    """Per cent of the side's starting unit hit points still standing on the map."""
    units = [u for u in state.units.values() if u.side == side]
    start = sum(u.start_hp for u in units)
    left = sum(u.hp for u in units if u.on_map)
    return 100 * left // start if start else 0


def score(state: WarState, side: str) -> int:
    """The most, so far, of the enemy's starting unit hit points the side has beaten
    (taken, or routed off the map), in per cent; healing never lowers it."""
    best = max(state.best_score.get(side, 0), 100 - kept(state, state.other(side)))
    state.best_score[side] = best
    return best


def check_end(state: WarState, battle: Battle, limit: int, final: bool) -> None:
    """End the battle when a side has nothing left able to act, or (after a round) at the
    round limit; at the limit the higher share of starting unit HP wins (W35-AMB-99)."""
    if state.over:
        return
    standing = [s for s in state.sides if able(state, s)]
    if len(standing) < len(state.sides):
        state.winner = standing[0] if len(standing) == 1 else None
        state.reason = "the other side has nothing left able to fight" if standing else (
            "nothing is left on either side")
    elif final and state.round >= limit:
        scores = {s: kept(state, s) for s in state.sides}
        best = max(scores.values())
        leaders = [s for s in state.sides if scores[s] == best]
        state.winner = leaders[0] if len(leaders) == 1 else None
        state.reason = f"round limit {limit}"
    else:
        return
    state.over = True
    battle.emit("battle_over", winner=state.winner, reason=state.reason, round=state.round)


def outcome(state: WarState) -> Outcome:
    """Who won, the share of unit HP each side kept, rounds played and every unit's fate."""
    fates = [UnitFate(u.id, u.side, u.name, u.start_hp, u.hp if u.on_map else 0, u.status)
             for u in state.units.values()]
    fates += [UnitFate(s.id, s.side, s.creature.name, s.creature.hp, max(0, s.hp), s.status)
              for s in state.singles.values()]
    return Outcome(state.winner, {s: score(state, s) for s in state.sides}, state.round, fates,
                   state.reason)


def check_invariants(state: WarState, events: list[dict[str, Any]]) -> list[str]:
    """Occupancy matches the units' squares; a unit's counters stay connected with no holes
    (W35-TERM-06); pooled HP stays within 0 and the start; counters never outnumber the
    creatures they stand for, nor the counters its HP fill (W35-UNIT-13)."""
    problems = []
    for u in state.units.values():
        if not 0 <= u.hp <= u.start_hp:
            problems.append(f"{u.id} has {u.hp} HP of {u.start_hp}")
        if u.counters > u.creatures:
            problems.append(f"{u.id} has {u.counters} counters for {u.creatures} creatures")
        if u.on_map:
            for sq in u.squares:
                if state.at.get(sq) != u.id and u.stuck_in is None:
                    problems.append(f"occupancy of {sq} does not name {u.id}")
            if not formation_ok(u.squares):
                problems.append(f"{u.id}'s counters are not connected edge to edge, or enclose "
                                "a hole")
            if u.counters > counters_left(u.hp, u.counter_hp):
                problems.append(f"{u.id} has {u.counters} counters but HP for "
                                f"{counters_left(u.hp, u.counter_hp)}")
    for sq, who in state.at.items():
        actor = state.units.get(who) or state.singles.get(who)
        if actor is None:
            problems.append(f"{sq} holds unknown {who}")
        elif isinstance(actor, Single) and actor.square != sq:
            problems.append(f"{who} is not on {sq}")
    return problems + singles.invariants(state)
