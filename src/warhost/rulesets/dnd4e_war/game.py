"""The turn of `dnd4e-war` (W4-TURN, W4-INIT), the end of the battle and its outcome.

Each turn: Initiative (roll-off, the winner chooses), the start-of-turn terror tests and
ongoing damage, Movement, Shooting, Charge, Close Combat and End of Turn, each phase with the
side holding the initiative first (W4-TURN-02 to 06).
"""

from __future__ import annotations

from typing import Any

from warhost.core.battle import Battle
from warhost.core.orders import Order
from warhost.core.outcome import Outcome, UnitFate
from warhost.rulesets.dnd4e_war import (
    action_points,
    challenges,
    charge,
    general,
    melee,
    movement,
    psychology,
    recharge,
    shooting,
)
from warhost.rulesets.dnd4e_war.army import points_in_play
from warhost.rulesets.dnd4e_war.state import Unit, WarState

TAKE = Order("take")
GIVE = Order("give")


def play(state: WarState, battle: Battle) -> None:
    """Turns until one side is beaten or the turn limit (W4-TURN-01/02)."""
    limit = state.options.turn_limit
    if state.characters and state.turn == 0:
        general.nominate(state, battle)  # W4-GEN-01, W4-DEC-02
    while not state.over:
        state.turn += 1
        battle.emit("round_start", round=state.turn)
        for unit in state.units.values():
            unit.new_turn()
        state.phase = "initiative"
        initiative_phase(state, battle)
        psychology.start_of_turn(state, battle)  # W4-AMB-44 terror, W4-AMB-56 ongoing
        for phase, run in (("movement", movement.movement_phase),
                           ("shooting", shooting.shooting_phase),
                           ("charge", charge.charge_phase),
                           ("close_combat", melee.close_combat_phase)):
            state.phase = phase
            state.panic_tested.clear()  # W4-PANIC-06: one panic test a phase
            if state.characters and phase in FIRST_ACTS:  # W4-AP-08/09
                act_first(state, battle, phase)
            run(state, battle)
            if state.characters and phase in ("movement", "shooting"):
                action_points.extra_actions(state, battle, phase)  # W4-AP-05 to 07
            if check_end(state, battle, limit, final=False):
                break
        if not state.over:
            state.phase = "end"
            psychology.end_of_turn(state, battle)
            if state.characters:
                recharge.end_of_turn(state, battle)  # W4-RECH
                challenges.end_of_turn(state)
            check_end(state, battle, limit, final=state.turn >= limit)
        for side in state.sides:
            battle.emit("score", side=side, total=score(state, side))
        battle.round_ended(state.turn)


def _may_move(state: WarState, unit: Unit) -> bool:
    return movement.may_act(state, unit)


def _may_shoot(state: WarState, unit: Unit) -> bool:
    return shooting.can_shoot(state, unit) and bool(shooting.usable_powers(state, unit))


def _may_charge(state: WarState, unit: Unit) -> bool:
    return charge.can_charge(state, unit) and bool(charge.visible_targets(
        state, unit, charge.max_reach(unit)))


FIRST_ACTS = {"movement": _may_move, "shooting": _may_shoot, "charge": _may_charge}
"""The phases in which a character's unit may act first (W4-AP-08), and whether a unit has
something to do in each."""


def act_first(state: WarState, battle: Battle, phase: str) -> None:
    """W4-AP-08/09, W4-DEC-05: the unit a character spent a point for acts before the
    others in this phase."""
    unit = action_points.act_first(state, battle, phase, FIRST_ACTS[phase])
    if unit is None or not unit.alive:
        return
    if phase == "movement":
        movement.move_unit(state, battle, unit)
    elif phase == "shooting":
        state.extra[shooting.SIGHT] = shooting.sight_index(state)
        try:
            shooting.unit_shoots(state, battle, unit)
        finally:
            state.extra.pop(shooting.SIGHT, None)
    else:
        charge.side_charges(state, battle, unit.side, only=unit)


def roll_off(battle: Battle, sides: list[str], why: str,
             modifiers: dict[str, int] | None = None) -> str:
    """W4-TURN-07/08: each side rolls a d20 plus its modifier; ties roll again."""
    mods = modifiers or {}
    while True:
        totals = {s: battle.dice.draw(20, f"{why} ({s})") + mods.get(s, 0) for s in sides}
        battle.emit("roll_off", why=why, totals=totals)
        best = max(totals.values())
        leaders = [s for s in sides if totals[s] == best]
        if len(leaders) == 1:
            return leaders[0]


def initiative_phase(state: WarState, battle: Battle) -> None:
    """W4-INIT-01 to 05: a roll-off modified only by a general's power bonus to initiative
    (W4-GEN-05, W4-INIT-02; action points never touch it, W4-AP-02, W4-INIT-05); the winner
    takes the initiative or gives it away (W4-DEC-04)."""
    winner = roll_off(battle, state.sides, "initiative",
                      general.initiative_modifiers(state) if state.characters else None)
    order = battle.ask(winner, "initiative", (TAKE, GIVE),
                       "You won the initiative roll: take the initiative or give it?",
                       default=TAKE)
    state.initiative = winner if order == TAKE else state.other(winner)
    battle.emit("initiative", winner=winner, side=state.initiative)


def unit_value(state: WarState, uid: str) -> int:
    """What a unit is worth for a points victory: its profile's points per company (or per
    skirmisher), else its starting unit strength."""
    unit = state.units[uid]
    per = points_in_play(unit.profile)
    if per is None:
        return unit.start_models * unit.model_strength()
    count = unit.start_models if unit.skirmish else -(-unit.start_models // unit.company_size)
    return per * count


def score(state: WarState, side: str) -> int:
    """W4-AMB-74: the value of enemy units destroyed, and once the battle is over of those
    still fleeing (while it goes on a fleeing unit may rally, and a score never goes down)."""
    return sum(unit_value(state, u.id) for u in state.units.values()
               if u.side != side and (not u.alive or (state.over and u.fleeing)))


def _standing(state: WarState, side: str) -> int:
    return sum(1 for u in state.units_of(side) if not u.fleeing)


def check_end(state: WarState, battle: Battle, limit: int, final: bool) -> bool:
    """W4-AMB-74: a side with nothing left on the table (``destroy``) or nothing left
    that is not fleeing (``rout`` and the others) loses at once; at the turn limit the
    victory option decides. Returns True when the battle is over."""
    if state.over:
        return True
    victory = state.options.victory
    alive = {s: sum(1 for _ in state.units_of(s)) for s in state.sides}
    left = [s for s in state.sides if (alive[s] if victory.kind == "destroy"
                                        else _standing(state, s))]
    if len(left) < len(state.sides):
        state.over = True
        state.winner = left[0] if left else None
        state.end_reason = ("the enemy army is destroyed" if victory.kind == "destroy"
                            else "the enemy army is destroyed or fleeing")
    elif final:
        state.over = True
        state.winner, state.end_reason = _at_the_limit(state, limit)
    return state.over


def _at_the_limit(state: WarState, limit: int) -> tuple[str | None, str]:
    victory = state.options.victory
    a, b = state.sides
    if victory.kind == "hold_ground" and victory.objective is not None:
        held = {s: _holding(state, s) for s in state.sides}
        if held[a] == held[b]:
            return None, f"turn limit {limit}: the objective is held equally"
        return (a if held[a] > held[b] else b), f"turn limit {limit}: holds the objective"
    scores = {s: score(state, s) for s in state.sides}
    if victory.kind == "points":
        worth = max(sum(unit_value(state, u.id) for u in state.units.values() if u.side == s)
                    for s in state.sides)
        if abs(scores[a] - scores[b]) < victory.draw_margin * worth:
            return None, f"turn limit {limit}: the points are too close"
    if scores[a] == scores[b]:
        return None, f"turn limit {limit}: even"
    return (a if scores[a] > scores[b] else b), f"turn limit {limit}: on points"


def _holding(state: WarState, side: str) -> int:
    from shapely.geometry import Point as ShapelyPoint

    objective = state.options.victory.objective
    assert objective is not None
    zone = ShapelyPoint(objective).buffer(state.options.victory.radius)
    return sum(u.strength() for u in state.units_of(side)
               if not u.fleeing and any(t.polygon.intersects(zone) for t in u.trays()))


def outcome(state: WarState) -> Outcome:
    """Who won, the points each side took, the turns played and every unit's fate."""
    units = []
    for u in state.units.values():
        if u.character is not None:
            units.append(_character_fate(state, u))
            continue
        fate = ("destroyed" if not u.alive else "fleeing" if u.fleeing else
                "engaged" if state.is_engaged(u.id) else "active")
        units.append(UnitFate(u.id, u.side, u.name, u.start_models,
                              u.normal_models if u.alive else 0, fate))
    return Outcome(state.winner, {s: score(state, s) for s in state.sides}, state.turn, units,
                   state.end_reason)


def _character_fate(state: WarState, own: Unit) -> UnitFate:
    """A character's line: slain, with the unit he is in, or on his own."""
    person = own.character
    assert person is not None
    if person.slain:
        return UnitFate(own.id, own.side, own.name, 1, 0, "slain")
    if person.host is not None:
        host = state.units[person.host]
        where = "fleeing" if host.fleeing else f"with {host.id}"
        return UnitFate(own.id, own.side, own.name, 1, 1, where)
    fate = ("fleeing" if own.fleeing else "engaged" if state.is_engaged(own.id) else "active")
    return UnitFate(own.id, own.side, own.name, 1, 1, fate)


TURNING_EVENTS = ("deploy", "move", "fall_back", "pursuit", "character_left",
                  "character_stranded")
"""The events of the only things that may turn a unit: deployment, a wheel, pivot or reform
(W4-MOVE-08), fleeing and pursuing (W4-FLEE, W4-BREAK-05), and a character stepping out of
his unit (or left alone when it falls) facing its way (W4-CHAR-07)."""


def check_invariants(state: WarState, events: list[dict[str, Any]]) -> list[str]:
    """Trays never overlap unless their units fight each other; casualties never exceed
    models; engagement is mutual; a unit faces where the last event allowed to turn it left
    it (W4-UNIT-03)."""
    from warhost.geometry.table import trays_overlap

    problems = []
    alive = [u for u in state.units.values() if u.alive]
    turned = {e.get("character", e["unit"]): e["facing"] for e in events
              if e.get("type") in TURNING_EVENTS and e.get("facing") is not None}
    for u in alive:
        last = turned.get(u.id)
        if last is not None and abs((u.facing - last + 180.0) % 360.0 - 180.0) > 1e-2:
            problems.append(f"{u.id} faces {u.facing:g} but the last move allowed to turn it "
                            f"left it facing {last:g}")
    for u in alive:
        if any(n < 0 for n in u.companies) or u.normal_models > u.start_models:
            problems.append(f"{u.id} has impossible model counts {u.companies}")
        if not 0 <= u.facing < 360:
            problems.append(f"{u.id} faces {u.facing}")
        for other in state.engaged.get(u.id, ()):
            if u.id not in state.engaged.get(other, ()):
                problems.append(f"{u.id} fights {other} but not the other way round")
    for i, u in enumerate(alive):
        for v in alive[i + 1:]:
            if v.id in state.engaged.get(u.id, ()):
                continue
            if any(trays_overlap(s, t) for s in u.trays() for t in v.trays()):
                problems.append(f"{u.id} and {v.id} overlap")
    return problems
