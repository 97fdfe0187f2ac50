"""The End of Round of `dnd5e-tactics`: casualties, remainder choice, commander loss, morale,
Charisma save, flight, rout and follow-through (T5-CASUALTY-*, T5-MORALE-*, T5-FLEE-*,
T5-RALLY-*, T5-STANCE-02/03/05, T5-AMB-35..50).

Units are handled from the lowest initiative to the highest, exactly the reverse of the turn
order (T5-CASUALTY-01, T5-AMB-03). Option ``end_of_round_mode`` chooses whether each unit goes
through every step before the next unit (``per_unit``) or each step runs over all units
(``per_step``, T5-AMB-35). Follow-through moves come last (T5-AMB-36).

Example:
    The round module calls, once per round after the turns::

        end_of_round(ctx)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import Polygon

from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    along,
    away,
    edge_bearing,
    inches,
    nearest_edge,
    path_cost,
    point_word,
    read_point,
)
from warhost.rulesets.dnd5e_tactics import _kernels, combat
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import AttackSpec
from warhost.rulesets.dnd5e_tactics.setup import parse_point, point_text
from warhost.rulesets.dnd5e_tactics.spatial import TOLERANCE, corners
from warhost.rulesets.dnd5e_tactics.state import (
    ROUTED,
    SLAIN,
    Body,
    Single,
    T5State,
    Unit,
    feet,
    save_bonus,
)
from warhost.rulesets.dnd5e_tactics.tables import STANCE_MORALE, morale_dc

Point = tuple[float, float]

RALLY_DC = 12
"""The commander's Charisma save that holds a wavering unit (T5-RALLY-01)."""
REMAINDER_DICE = "4d6"
"""Damage the commander may take in place of one more casualty (T5-CASUALTY-05)."""
ENGAGED_PENALTY = 3
"""Morale penalty per engaged enemy (T5-MORALE-06, T5-AMB-44)."""
DISADVANTAGE = 5
"""A lingering disadvantage as a flat modifier (T5-AMB-27, option ``all_d20``)."""
FOLLOW_BEARINGS = tuple(range(0, 360, 45))
"""Directions offered for a follow-through move (T5-DEC-20)."""

# Outcomes of a morale check, by how far it failed (T5-MORALE-08..11).
PASS, WAVER, FLEE, ROUT = "pass", "rank", "flee", "rout"


@dataclass
class _Round:
    """Bookkeeping for one End of Round."""

    engaged_at_start: dict[str, list[str]] = field(default_factory=dict)
    """Enemy bodies engaged with each unit when the End of Round began (T5-AMB-36)."""
    scores: dict[str, int] = field(default_factory=dict)
    """The last scores announced."""
    outcomes: dict[str, str] = field(default_factory=dict)
    """Morale outcomes still to apply (``per_step`` mode)."""


# --------------------------------------------------------------------------- entry point


def end_of_round(ctx: Ctx) -> None:
    """Run the whole End of Round for the current round (T5-ROUND-01)."""
    state = ctx.state
    book = _Round(scores=side_scores(state))
    for body in state.bodies.values():
        if isinstance(body, Unit):
            body.casualties = 0
            body.fled = False
    for body in state.units():
        book.engaged_at_start[body.id] = [o.id for o in state.engaged_with(body)]
    ascending = [state.bodies[i] for i in reversed(state.order)]
    units = [b for b in ascending if isinstance(b, Unit)]
    if state.options.end_of_round_mode == "per_unit":
        for unit in units:
            if not unit.on_table:
                continue
            casualty_step(ctx, unit)
            _announce_scores(ctx, book)
            commander_card_step(ctx, unit)
            _announce_scores(ctx, book)
            if unit.on_table:
                outcome = morale_step(ctx, unit)
                apply_outcome(ctx, unit, outcome)
            _announce_scores(ctx, book)
    else:
        for unit in units:
            if unit.on_table:
                casualty_step(ctx, unit)
        _announce_scores(ctx, book)
        for unit in units:
            if unit.on_table:
                commander_card_step(ctx, unit)
        _announce_scores(ctx, book)
        for unit in units:
            if unit.on_table:
                book.outcomes[unit.id] = morale_step(ctx, unit)
        for unit in units:
            if unit.on_table and unit.id in book.outcomes:
                apply_outcome(ctx, unit, book.outcomes[unit.id])
        _announce_scores(ctx, book)
    for unit in units:
        if follow_through_eligible(state, unit, book.engaged_at_start.get(unit.id, [])):
            follow_through(ctx, unit)


# --------------------------------------------------------------------------- scores


def side_scores(state: T5State) -> dict[str, int]:
    """Each side's score: enemy members killed, plus members of enemy units that routed, plus
    1 per enemy Single Character slain. It never falls, since members never come back.
    (Worked out again only after members or a status changed.)"""
    index = state.placement
    index.refresh()
    known: dict[str, int] | None = index.memo.get("scores")
    if known is None:
        known = _count_scores(state)
        index.memo["scores"] = known
    return dict(known)


def _count_scores(state: T5State) -> dict[str, int]:
    scores = {side: 0 for side in state.sides}
    for body in state.bodies.values():
        enemy = state.enemy_of(body.side)
        if isinstance(body, Unit):
            scores[enemy] += body.start_members - body.members
            if body.status == ROUTED:
                scores[enemy] += body.members
        elif body.status == SLAIN:
            scores[enemy] += 1
    return scores


def _announce_scores(ctx: Ctx, book: _Round) -> None:
    """Emit ``score`` for each side whose score grew since the last announcement."""
    now = side_scores(ctx.state)
    for side in ctx.state.sides:
        if now[side] > book.scores.get(side, 0):
            ctx.emit("score", side=side, total=now[side])
    book.scores = now


# --------------------------------------------------------------------------- step 1: casualties


def casualty_step(ctx: Ctx, unit: Unit) -> None:
    """End of Round step 1: a unit with pooled damage turns it into casualties
    (T5-CASUALTY-02); ``unit.casualties`` records the members lost here (T5-AMB-40)."""
    if unit.tdr <= 0:
        return
    unit.casualties = convert_damage(ctx, unit, unit.tdr, why="end_of_round")


def convert_damage(ctx: Ctx, unit: Unit, damage: int, *, why: str) -> int:
    """Turn ``damage`` into dead members (T5-CASUALTY-03..08, T5-AMB-37, T5-AMB-38).

    Whole multiples of the member hit points kill members, never more than are left. A
    remainder of at least half the member hit points means one more casualty or, if the
    commander is alive and not dueling, the opposing side's choice of that or 4d6 rolled damage
    to the commander; with no member left to kill, only the 4d6 can apply. A unit left with no
    members and no commander is destroyed at once (T5-AMB-50). Returns the members killed.
    Emits ``casualties`` and, when the remainder counts, ``remainder``.
    """
    hp = unit.member_hp
    whole = damage // hp
    remainder = damage - whole * hp
    killed = min(whole, unit.members)
    unit.members -= killed
    ctx.emit("casualties", unit=unit.id, tdr=damage, killed=killed, remainder=remainder,
             members=unit.members, why=why)
    if 2 * remainder >= hp:
        killed += _remainder(ctx, unit, remainder)
    destroy(ctx, unit)
    return killed


def _remainder(ctx: Ctx, unit: Unit, remainder: int) -> int:
    """Apply a remainder of half the member hit points or more; returns members killed."""
    commander = unit.commander
    free = commander.alive and commander.duel is None
    chooser = ctx.state.enemy_of(unit.side)
    if free and unit.members > 0:
        order = ctx.ask(
            chooser, "remainder", [Order.of("commander"), Order.of("casualty")],
            prompt=f"remainder {remainder} on {unit.name}: 4d6 to its commander or one more "
                   "casualty", subject=unit.id, default=Order.of("casualty"),
            remainder=remainder,
        )
        choice = order.kind
    elif free:
        choice = "commander"  # no member left to kill (T5-AMB-37)
    elif unit.members > 0:
        choice = "casualty"  # commander dueling or dead (T5-CASUALTY-06)
    else:
        ctx.emit("remainder", unit=unit.id, side=chooser, choice="none", remainder=remainder)
        return 0
    if choice == "casualty":
        unit.members -= 1
        ctx.emit("remainder", unit=unit.id, side=chooser, choice="casualty",
                 remainder=remainder, members=unit.members)
        return 1
    amount = ctx.roll(REMAINDER_DICE, "remainder", unit=unit.id)
    ctx.emit("remainder", unit=unit.id, side=chooser, choice="commander", remainder=remainder,
             damage=amount)
    # Not a duel blow: a commander slain here gives no duel winner a rank (T5-AMB-18).
    combat.damage_character(ctx, unit, amount, by=None, duel=False)
    return 0


# --------------------------------------------------------------------------- step 2: commander card


def commander_card_step(ctx: Ctx, unit: Unit) -> None:
    """End of Round step 2 (T5-CASUALTY-10): a dead commander's card is already gone and its
    rank already paid when it died (T5-AMB-18), so nothing more changes here, except that a
    unit with neither members nor commander leaves the table (T5-AMB-50)."""
    destroy(ctx, unit)


# --------------------------------------------------------------------------- step 3: morale


def morale_modifiers(ctx: Ctx, unit: Unit) -> dict[str, int]:
    """The modifiers of a morale check made now (T5-MORALE-04..06, T5-STANCE-02/05, T5-AMB-43,
    T5-AMB-44, T5-AMB-27): rank, stance, track morale, -3 per engaged enemy unit or Single
    Character, and -5 for a lingering disadvantage when it covers every d20."""
    mods = {
        "rank": unit.rank,
        "stance": STANCE_MORALE[unit.stance],
        "track": unit.cell.morale,
        "engaged": -ENGAGED_PENALTY * len(ctx.state.engaged_with(unit)),
    }
    if _disadvantaged(ctx, unit):
        mods["disadvantage"] = -DISADVANTAGE
    return mods


def _disadvantaged(ctx: Ctx, unit: Unit) -> bool:
    """A lingering area effect weighs on morale (only with ``all_d20``, T5-AMB-27)."""
    return combat.has_disadvantage(ctx, unit, "morale")


def outcome_of(fails_by: int) -> str:
    """What a morale check failed by ``fails_by`` means (T5-MORALE-08..11)."""
    if fails_by >= 10:
        return ROUT
    if fails_by >= 5:
        return FLEE
    if fails_by >= 1:
        return WAVER
    return PASS


def morale_step(ctx: Ctx, unit: Unit) -> str:
    """End of Round step 3 for one unit: the morale check if it lost members in the casualty
    step (T5-MORALE-01), then the commander's Charisma save (T5-RALLY-01, T5-AMB-49). Returns
    the final outcome, not yet applied. Emits ``morale`` and ``rally``."""
    if unit.casualties <= 0:
        return PASS
    if unit.members == 0:
        # Only the commander is left: it routs, with no roll and no save (T5-MORALE-07).
        ctx.emit("morale", unit=unit.id, roll=None, modifiers={}, total=None, dc=None,
                 fails_by=None, result=ROUT, commander_only=True)
        return ROUT
    mods = morale_modifiers(ctx, unit)
    roll = ctx.d20("morale", unit=unit.id)  # no automatic result on 20 or 1 (T5-AMB-43)
    total = roll + sum(mods.values())
    dc = morale_dc(unit.members, unit.start_members)
    fails_by = dc - total
    result = outcome_of(fails_by)
    ctx.emit("morale", unit=unit.id, roll=roll, modifiers=mods, total=total, dc=dc,
             fails_by=fails_by, result=result)
    if result in (FLEE, ROUT) and combat.character_can_act(unit.commander):
        result = rally(ctx, unit, fails_by)
    return result


def rally(ctx: Ctx, unit: Unit, fails_by: int) -> str:
    """The commander's DC 12 Charisma save, with its own bonus only (T5-RALLY-01..05,
    T5-DEC-18): a success turns a 5-9 failure into a 1 failure and a 10+ failure into a 5
    failure. Returns the outcome to apply."""
    order = ctx.ask(
        unit.side, "rally", [Order.of("attempt"), Order.of("decline")],
        prompt=f"{unit.name} failed morale by {fails_by}: its commander's Charisma save?",
        subject=unit.id, default=Order.of("attempt"), fails_by=fails_by,
    )
    before = outcome_of(fails_by)
    if order.kind == "decline":
        ctx.emit("rally", unit=unit.id, attempted=False, success=False, outcome=before)
        return before
    bonus = save_bonus(unit.commander.stats, "cha")
    roll = ctx.d20("rally", unit=unit.id)
    total = roll + bonus
    success = total >= RALLY_DC
    after = outcome_of(1 if fails_by < 10 else 5) if success else before
    ctx.emit("rally", unit=unit.id, attempted=True, roll=roll, bonus=bonus, total=total,
             dc=RALLY_DC, success=success, outcome=after)
    return after


def apply_outcome(ctx: Ctx, unit: Unit, outcome: str) -> None:
    """Apply a morale outcome once (T5-AMB-49): -1 rank for any failure, -1 more and a flee
    for 5 or more, removal for 10 or more (T5-MORALE-09..11). A commander-only unit, and a
    unit failing by 10 or more, routs straight away without a flee move."""
    if outcome == PASS:
        return
    if unit.members == 0:
        rout(ctx, unit, "commander only")
        return
    ctx.change_rank(unit, -1, "morale")
    if outcome == WAVER:
        return
    ctx.change_rank(unit, -1, "flee")
    if outcome == ROUT:
        rout(ctx, unit, "morale")
        return
    flee(ctx, unit)


# --------------------------------------------------------------------------- flee and rout


def shape_at(unit: Unit, centre: Point) -> Polygon:
    """The unit's footprint if its centre stood at ``centre`` (same facing and stance)."""
    return unit.outline_at(centre, unit.facing)


def flee_target(ctx: Ctx, unit: Unit, engaged: list[Body]) -> Body | None:
    """The engaged enemy an engaged unit flees from: the unit with most members left, ties to
    the higher initiative, i.e. earlier in the turn order (T5-AMB-46). A unit engaged only by
    Single Characters flees from the first of them in turn order."""
    if not engaged:
        return None
    units = [b for b in engaged if isinstance(b, Unit)]
    if not units:
        return engaged[0]
    position = {body_id: i for i, body_id in enumerate(ctx.state.order)}
    return min(units, key=lambda u: (-u.members, position[u.id]))


def flee(ctx: Ctx, unit: Unit) -> None:
    """Move a fleeing unit its full speed (T5-FLEE-01..08, T5-AMB-45..47).

    Not engaged: straight toward the nearest board edge (ties to its own deployment edge).
    Engaged: straight away from the largest engaged enemy unit, then the Close Stance enemy
    units engaged with it at the start may attack it, and their damage becomes casualties at
    once. A move that would carry any of the footprint past the board edge routs the unit.
    Emits ``flee``.
    """
    state = ctx.state
    unit.fled = True
    _end_duel(ctx, unit, "flee")  # T5-FLEE-08
    engaged = state.engaged_with(unit)
    start = unit.centre
    budget = feet(unit.speed)
    threat = flee_target(ctx, unit, engaged)
    if threat is None:
        edge = nearest_edge(state.board, start, prefer=unit.edge)
        # The full-speed point, even past the edge, decides whether the unit leaves.
        end, cost = along(start, edge_bearing(edge), budget, state.regions)
        away_from: str | None = None
    else:
        end, cost = away(start, threat.centre, budget, state.regions)
        edge = None
        away_from = threat.id
    leaves = state.board.leaves(shape_at(unit, end))
    ctx.emit("flee", unit=unit.id, **{"from": [round(start[0], 3), round(start[1], 3)]},
             to=[round(end[0], 3), round(end[1], 3)], cost=round(cost, 3), edge=edge,
             away_from=away_from, off_board=leaves)
    if leaves:
        rout(ctx, unit, "fled off the board")  # T5-FLEE-02, T5-AMB-46
        return
    unit.centre = end
    _drop_declared(state, unit)
    attackers = [b for b in engaged if isinstance(b, Unit) and b.stance == "close"
                 and b.on_table and b.members > 0]
    if attackers:
        flee_attacks(ctx, unit, attackers)


def flee_attacks(ctx: Ctx, unit: Unit, attackers: list[Unit]) -> None:
    """Attacks of opportunity on a fleeing unit (T5-FLEE-04..06, T5-AMB-47, T5-DEC-19): each
    Close Stance enemy unit may make one melee resolution and its commander one attack, using
    no reaction; the damage is turned into casualties at once, with no new morale check
    (T5-AMB-40); a unit left with no members routs (T5-AMB-50)."""
    before = unit.tdr
    for attacker in attackers:
        attack = flee_attack_spec(attacker)
        if attack is None or not unit.on_table:
            continue
        order = ctx.ask(
            attacker.side, "flee_attack", [Order.of("attack"), Order.of("none")],
            prompt=f"{attacker.name} may attack the fleeing {unit.name}", subject=attacker.id,
            default=Order.of("attack"), target=unit.id,
        )
        if order.kind != "attack":
            continue
        combat.resolve_unit_attack(ctx, attacker, unit, attack, why="flee")
        commander = attacker.commander
        melee = [a for a in commander.stats.attacks if a.kind == "melee"]
        if not combat.character_can_act(commander) or commander.duel is not None or not melee:
            continue
        options = [Order.of("attack", attack_word(a.name)) for a in melee] + [Order.of("none")]
        choice = ctx.ask(
            attacker.side, "flee_attack", options,
            prompt=f"the commander of {attacker.name} may attack the fleeing {unit.name}",
            subject=attacker.id, default=options[0], target=unit.id, commander=True,
        )
        if choice.kind == "attack":
            picked = next(a for a in melee if attack_word(a.name) == choice.args[0])
            combat.commander_attack(ctx, attacker, unit, picked, opportunity=True)
    damage = unit.tdr - before
    if damage > 0 and unit.on_table:
        convert_damage(ctx, unit, damage, why="flee_attack")
    if unit.on_table and unit.members == 0:
        rout(ctx, unit, "no members left")


def flee_attack_spec(attacker: Unit) -> AttackSpec | None:
    """The melee attack a unit makes against a fleeing enemy: one resolution, no Multiattack
    (T5-AMB-47), the first attack of its melee routine, as for any attack of opportunity."""
    routine = combat.unit_routine(attacker, "melee")
    return routine[0] if routine else None


def attack_word(name: str) -> str:
    """An attack name as one order word (orders are split at spaces)."""
    return name.replace(" ", "_")


def rout(ctx: Ctx, unit: Unit, why: str) -> None:
    """The unit leaves the table with its commander; any duel ends (T5-MORALE-11, T5-FLEE-07,
    T5-FLEE-08). Emits ``rout``."""
    _end_duel(ctx, unit, "rout")
    unit.status = ROUTED
    _drop_declared(ctx.state, unit)
    ctx.emit("rout", unit=unit.id, members=unit.members, why=why)


def destroy(ctx: Ctx, unit: Unit) -> None:
    """No members and no commander: the unit is gone at once (T5-AMB-50). Emits
    ``destroyed``."""
    if combat.check_destroyed(ctx, unit):
        _drop_declared(ctx.state, unit)


def _end_duel(ctx: Ctx, unit: Unit, why: str) -> None:
    """End the duel the unit's commander is in, or a Single Character's duel with it."""
    dueling = unit.commander.alive and unit.commander.duel is not None
    dueling = dueling or any(
        isinstance(b, Single) and b.character.duel == unit.id
        or isinstance(b, Unit) and b.commander.duel == unit.id
        for b in ctx.state.bodies.values()
    )
    if dueling:
        combat.end_duel(ctx, unit, why)


def _drop_declared(state: T5State, unit: Unit) -> None:
    """A unit that flees or leaves is out of every declared engagement
    (``engagement_model: declared``)."""
    state.declared = {pair for pair in state.declared if unit.id not in pair}


# --------------------------------------------------------------------------- follow-through


def follow_through_eligible(state: T5State, unit: Unit, engaged_at_start: list[str]) -> bool:
    """T5-STANCE-03, T5-AMB-36: a Close Stance unit still on the table that did not flee, whose
    enemies engaged at the start of the End of Round included at least one unit, and whose
    engaged enemy units all fled or left the table and engaged Single Characters all left."""
    if not unit.on_table or unit.fled or unit.stance != "close":
        return False
    foes = [state.bodies[i] for i in engaged_at_start]
    foe_units = [b for b in foes if isinstance(b, Unit)]
    if not foe_units:
        return False
    if any(b.on_table and not b.fled for b in foe_units):
        return False
    return not any(isinstance(b, Single) and b.on_table for b in foes)


def follow_through_options(ctx: Ctx, unit: Unit) -> list[Point]:
    """Points a follow-through may end at: 8 bearings at half and a quarter of the unit's speed
    (difficult terrain counting double), on the board, clear of impassable terrain and of every
    other body (T5-DEC-20)."""
    state = ctx.state
    limit = feet(unit.speed) / 2
    here = parse_point(point_text(unit.centre))
    found: list[Point] = []
    for bearing_deg in FOLLOW_BEARINGS:
        for share in (limit, limit / 2):
            point = _reachable(ctx, unit, bearing_deg, share, limit)
            if point is None or point == here or point in found:
                continue
            if _follow_place_problem(state, unit, point) is None:
                found.append(point)
    return found


def _follow_place_problem(state: T5State, unit: Unit, point: Point) -> Refusal | None:
    """Why the unit may not end a follow-through at ``point``: past the table edge, on
    impassable ground or over another body; or None."""
    shape = shape_at(unit, point)
    where = point_word(point)
    if not state.board.contains(shape):
        return Refusal(f"at {where} {unit.id} would reach past the edge of the table; only a "
                       "flight leaves the table", "T5-FLEE-02")
    for region in state.regions:
        if region.impassable and region.polygon.intersection(shape).area > 1e-9:
            return Refusal(f"at {where} {unit.id} would stand on impassable {region.name}",
                           "T5-TERRAIN-01")
    index = state.placement
    near = [o for o in index.near_box(shape.bounds, 0.0) if o is not unit]  # only these can
    if not near:  # overlap it
        return None
    # Bodies surely apart from the shape (compiled separating-axis test) share no area; the
    # others are measured.
    count(GEOMETRY, len(near))
    apart = np.empty((1, len(near)), dtype=np.int8)
    _kernels.overlap_table(corners(shape)[None], np.array([index.corners(o) for o in near]),
                           TOLERANCE, apart)
    for other, known in zip(near, apart[0]):
        if known != 0 and other.footprint.intersection(shape).area > 1e-9:
            return Refusal(f"at {where} {unit.id} would overlap {other.id}", "T5-GEN-02")
    return None


def follow_through_problem(state: T5State, unit: Unit, point: Point) -> Refusal | None:
    """Why the unit may not follow through to ``point`` (T5-STANCE-03, T5-DEC-20): a straight
    move of at most half its speed, difficult terrain counting double, not into impassable
    ground; then where it ends (:func:`_follow_place_problem`). None when it may."""
    limit = feet(unit.speed) / 2
    cost = path_cost([unit.centre, point], state.regions)
    where = point_word(point)
    if cost == math.inf:
        return Refusal(f"the straight way to {where} enters impassable ground", "T5-TERRAIN-01")
    if cost > limit + 1e-9:
        return Refusal(f"{where} is {inches(cost)} in of movement away; a follow-through moves "
                       f"at most half the speed, {inches(limit)} in", "T5-STANCE-03")
    return _follow_place_problem(state, unit, point)


def judge_follow_through(state: T5State, unit: Unit, order: Order) -> Order | Refusal | None:
    """The follow-through decision is open: ``move X,Y`` to any point the unit may reach (it
    keeps its facing), judged by :func:`follow_through_problem`."""
    if order.kind == "stay":
        return Refusal("stay takes no arguments", "T5-DEC-20")
    if order.kind != "move":
        return None
    point = read_point(order.args[0]) if len(order.args) == 1 else None
    if point is None:
        return Refusal("a follow-through move needs x,y, as in 'move 7.0,8.0' (the facing is "
                       "kept)", "T5-DEC-20")
    problem = follow_through_problem(state, unit, point)
    return Order.of("move", point_word(point)) if problem is None else problem


def _reachable(ctx: Ctx, unit: Unit, bearing_deg: int, share: float, limit: float) -> Point | None:
    """The order-text point of a straight move along ``bearing_deg``, pulled back until its
    rounded position still costs no more than ``limit``."""
    regions = ctx.state.regions
    distance = share
    while distance > 0:
        end, _ = along(unit.centre, bearing_deg, distance, regions)
        point = parse_point(point_text(end))
        if path_cost([unit.centre, point], regions) <= limit + 1e-9:
            return point
        distance -= 0.05
    return None


def follow_through(ctx: Ctx, unit: Unit) -> None:
    """Offer an eligible unit its optional follow-through move (T5-STANCE-03, T5-DEC-20).
    Emits ``follow_through``."""
    points = follow_through_options(ctx, unit)
    options = [Order.of("stay")] + [Order.of("move", point_text(p)) for p in points]
    state = ctx.state
    order = ctx.ask(
        unit.side, "follow_through", options,
        prompt=f"{unit.name} may follow through up to half its speed (move X,Y: any point)",
        subject=unit.id, default=Order.of("stay"),
        accept=lambda wanted: judge_follow_through(state, unit, wanted),
    )
    start = unit.centre
    if order.kind == "stay":
        ctx.emit("follow_through", unit=unit.id, moved=False)
        return
    unit.centre = parse_point(order.args[0])
    ctx.emit("follow_through", unit=unit.id, moved=True,
             **{"from": [round(start[0], 3), round(start[1], 3)]},
             to=[round(unit.centre[0], 3), round(unit.centre[1], 3)])
