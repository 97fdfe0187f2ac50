"""The round of `dnd5e-tactics` and the end of the battle (T5-ROUND-01..13, T5-AMB-06,
T5-AMB-51).

Each round: step 1 stances (units not engaged), step 2 damage reset, step 3 Tactics advance
(from round 2), step 4 turns in initiative order, then the End of Round.

Victory (our rulings on T5-AMB-51): it is judged after each round's End of Round. A side with
no unit and no Single Character left on the table loses; both sides gone then is a draw. Once
a side is gone in the middle of a round the remaining turns are skipped, but the End of Round
still turns the damage dealt into casualties. At ``max_rounds`` the higher score wins and level
scores draw; without ``max_rounds`` the battle stops at :data:`ROUND_CAP` rounds as a draw.
The engine itself records ``battle_end`` with the winner and :attr:`T5State.end_reason`.

Example:
    >>> from warhost import load_scenario, run_battle  # doctest: +SKIP
    >>> s = load_scenario("examples/dnd5e-tactics/open-field.yaml")  # doctest: +SKIP
    >>> sides = {"Greyhaven Watch": "random", "Red Hand": "random"}
    >>> run_battle(s, 1, sides).rounds <= 15  # doctest: +SKIP
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from warhost.core.decisions import Refusal
from warhost.core.engine import Battle, Outcome, UnitFate
from warhost.core.orders import Order
from warhost.rulesets.dnd5e_tactics import ROUND_CAP
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.end_of_round import end_of_round, side_scores
from warhost.rulesets.dnd5e_tactics.state import (
    ACTIVE,
    DESTROYED,
    ROUTED,
    SLAIN,
    Single,
    T5State,
    Unit,
)
from warhost.rulesets.dnd5e_tactics.tables import TRACKS
from warhost.rulesets.dnd5e_tactics.turns import overlaps, rect_coords, take_turn


def play(state: T5State, battle: Battle) -> None:
    """Play rounds until the battle ends (T5-ROUND-01, T5-AMB-51)."""
    ctx = Ctx(state, battle)
    while not state.finished:
        if decide_victory(state):
            break
        play_round(ctx)
        battle.round_ended(state.round)
        if decide_victory(state):
            break
        limit = state.options.max_rounds
        if limit is not None and state.round >= limit:
            finish_on_score(state, f"round limit {limit} reached")
        elif limit is None and state.round >= ROUND_CAP:
            finish(state, None, f"round cap {ROUND_CAP} reached")


def play_round(ctx: Ctx) -> None:
    """One round: steps 1-4, then the End of Round (T5-ROUND-01). Emits ``round_start`` and
    ``round_end``."""
    state = ctx.state
    state.round += 1
    begin_round(ctx)
    stance_step(ctx)
    reset_damage(state)
    tactics_step(ctx)
    scores = side_scores(state)
    turns_step(ctx)
    run_end_of_round(ctx, scores)
    ctx.emit("round_end", round=state.round)


def begin_round(ctx: Ctx) -> None:
    """Record each unit's rank as the round begins (T5-AMB-06) and give back every reaction
    (one per unit and per character per round, T5-AMB-11)."""
    state = ctx.state
    ctx.emit("round_start", round=state.round)
    for body in state.bodies.values():
        if isinstance(body, Unit):
            body.rank_at_round_start = body.rank
            body.reaction_used = False
            body.commander.reaction_used = False
        else:
            body.character.reaction_used = False


def stance_fits(state: T5State, unit: Unit, stance: str) -> bool:
    """Whether the unit re-formed in ``stance`` stays on the board, off impassable ground and
    clear of other bodies (:func:`stance_problem`)."""
    return stance == unit.stance or stance_problem(state, unit, stance) is None


def stance_problem(state: T5State, unit: Unit, stance: str) -> Refusal | None:
    """Why the unit, re-formed in ``stance`` around its centre (T5-AMB-09), would not fit where
    it stands: past the table edge, on impassable ground or over another body; or None."""
    if stance == unit.stance:
        return None
    # The footprint in the other stance, drawn without setting it (which would make the
    # placement index re-file the unit and drop what it knows).
    width, depth = unit.size_in(stance)
    shape = shapely.polygons(rect_coords(np.array([unit.centre], dtype=np.float64),
                                         [unit.facing], width, depth))[0]
    if not state.board.contains(shape):
        return Refusal(f"re-formed in {stance} stance, {unit.id} would reach past the edge of "
                       "the table", "T5-AMB-09")
    for region in state.regions:
        if region.impassable and overlaps(shape, region.polygon):
            return Refusal(f"re-formed in {stance} stance, {unit.id} would stand on "
                           f"impassable {region.name}", "T5-AMB-09")
    for body in state.placement.near_box(shape.bounds, 0.0):  # only these can overlap it
        if body is not unit and overlaps(shape, body.footprint):
            return Refusal(f"re-formed in {stance} stance, {unit.id} would overlap {body.id}",
                           "T5-AMB-09")
    return None


def stance_step(ctx: Ctx) -> None:
    """Step 1: each unit not engaged in melee keeps or switches its stance (T5-ROUND-02..05,
    T5-DEC-05). A switch that would not fit where the unit stands is not offered."""
    state = ctx.state
    for unit in state.units():
        if state.in_melee(unit):
            continue  # T5-ROUND-03
        other = "open" if unit.stance == "close" else "close"
        keep = Order.of("stance", unit.stance)
        options = [keep]
        if stance_fits(state, unit, other):
            options.append(Order.of("stance", other))
        order = ctx.ask(unit.side, "stance", options, subject=unit.id, default=keep,
                        prompt=f"stance of {unit.name}")
        after = str(order.args[0])
        if after != unit.stance:
            before = unit.stance
            unit.stance = after
            ctx.emit("stance", unit=unit.id, before=before, after=after)


def reset_damage(state: T5State) -> None:
    """Step 2: every unit's Total Damage Received goes back to 0 (T5-ROUND-06)."""
    for body in state.bodies.values():
        if isinstance(body, Unit):
            body.tdr = 0


def tactics_step(ctx: Ctx) -> None:
    """Step 3, from round 2 on: each unit with a living commander gains 1 rank or, if its rank
    was 0 or more when the round began, switches to rank 0 of another track (T5-ROUND-07..10,
    T5-DEC-06, T5-AMB-06)."""
    state = ctx.state
    if state.round < 2:
        return  # T5-ROUND-09
    for unit in state.units():
        if not unit.commander.alive:
            continue  # T5-ROUND-10
        advance = Order("advance")
        options = [advance]
        if unit.rank_at_round_start >= 0:
            options += [Order.of("switch", t) for t in TRACKS if t != unit.track]
        order = ctx.ask(unit.side, "tactics", options, subject=unit.id, default=advance,
                        prompt=f"Tactics Track of {unit.name}")
        if order.kind == "advance":
            ctx.emit("tactics", unit=unit.id, choice="advance", track=unit.track)
            ctx.change_rank(unit, 1, "tactics advance")
        else:
            track = str(order.args[0])
            ctx.emit("tactics", unit=unit.id, choice="switch", track=track, before=unit.track)
            unit.track = track
            ctx.change_rank(unit, -unit.rank, "switched track")


def turns_step(ctx: Ctx) -> None:
    """Step 4: bodies act from the highest initiative to the lowest (T5-ROUND-11, T5-INIT-02).
    Once a side has nothing left on the table the remaining turns are skipped."""
    state = ctx.state
    for body_id in state.order:
        if any(not state.active(side) for side in state.sides):
            return
        take_turn(ctx, state.bodies[body_id])


def run_end_of_round(ctx: Ctx, before: dict[str, int]) -> None:
    """The End of Round (casualties, morale, flight, follow-through: :mod:`end_of_round`).
    Score changes from the turns (a Single Character slain) are announced first; the End of
    Round announces its own."""
    emit_scores(ctx, before)
    end_of_round(ctx)


def emit_scores(ctx: Ctx, last: dict[str, int]) -> None:
    """A ``score`` event for each side whose score grew since ``last``."""
    now = side_scores(ctx.state)
    for side in ctx.state.sides:
        if now[side] > last.get(side, 0):
            ctx.emit("score", side=side, total=now[side])


def finish(state: T5State, winner: str | None, reason: str) -> None:
    """Mark the battle over."""
    state.finished = True
    state.winner = winner
    state.end_reason = reason


def decide_victory(state: T5State) -> bool:
    """A side with no unit and no Single Character on the table loses; both at once is a draw
    (T5-AMB-51)."""
    gone = [side for side in state.sides if not state.active(side)]
    if not gone:
        return False
    if len(gone) == 2:
        finish(state, None, "both sides have left the table")
    else:
        finish(state, state.enemy_of(gone[0]), f"{gone[0]} has nothing left on the table")
    return True


def finish_on_score(state: T5State, why: str) -> None:
    """At ``max_rounds`` the higher score wins and level scores draw (our ruling on
    T5-AMB-51)."""
    scores = side_scores(state)
    a, b = state.sides
    if scores[a] == scores[b]:
        finish(state, None, f"{why}; scores level")
    else:
        winner = a if scores[a] > scores[b] else b
        finish(state, winner, f"{why}; {winner} leads on score")


def outcome(state: T5State) -> Outcome:
    """Winner, scores, rounds and one fate per unit and Single Character."""
    fates = []
    for body_id in state.order:
        body = state.bodies[body_id]
        if isinstance(body, Unit):
            fates.append(UnitFate(body.id, body.side, body.name, body.start_members,
                                  body.members, body.status))
        else:
            alive = body.status == ACTIVE
            fates.append(UnitFate(body.id, body.side, body.name, 1, 1 if alive else 0,
                                  ACTIVE if alive else SLAIN))
    return Outcome(state.winner, side_scores(state), state.round, fates, state.end_reason)


def check_invariants(state: T5State, events: list[dict[str, Any]]) -> list[str]:
    """Conformance checks on the final state and the log."""
    problems = []
    for body in state.bodies.values():
        if isinstance(body, Unit):
            if body.members < 0:
                problems.append(f"{body.id} has {body.members} members")
            if body.members > body.start_members:
                problems.append(f"{body.id} has more members than it started with")
            if state.options.rank_clamp and not -3 <= body.rank <= 3:
                problems.append(f"{body.id} is at rank {body.rank}")
            if body.tdr < 0:
                problems.append(f"{body.id} has negative damage received")
            if body.status not in (ACTIVE, ROUTED, DESTROYED):
                problems.append(f"{body.id} has status {body.status}")
            if body.stance not in ("close", "open"):
                problems.append(f"{body.id} has no stance")
            if body.track not in TRACKS:
                problems.append(f"{body.id} is on no track")
        elif isinstance(body, Single) and body.status not in (ACTIVE, SLAIN):
            problems.append(f"{body.id} has status {body.status}")
        character = body.commander if isinstance(body, Unit) else body.character
        if character.alive and character.hp <= 0 and not character.dying:
            problems.append(f"{body.id}: a character at {character.hp} hp is alive")
        if character.duel is not None:
            other = state.bodies.get(character.duel)
            if other is None or not character.alive or not body.on_table:
                problems.append(f"{body.id} duels after leaving the fight")
    problems += _log_problems(events)
    return problems


def _log_problems(events: list[dict[str, Any]]) -> list[str]:
    problems = []
    turns: set[tuple[int, str]] = set()
    gone: set[str] = set()
    current = 0
    for event in events:
        kind = event.get("type")
        if kind == "round_start":
            current = int(event["round"])
        elif kind == "turn":
            key = (current, str(event["body"]))
            if key in turns:
                problems.append(f"{key[1]} took two turns in round {current}")
            turns.add(key)
            if key[1] in gone:
                problems.append(f"{key[1]} took a turn after leaving the table")
        elif kind in ("rout", "destroyed"):
            gone.add(str(event["unit"]))
        elif kind == "single_slain":
            gone.add(str(event["single"]))
    return problems
