"""Why an order is refused in `fantasy-battle`, with the rule that forbids it.

:func:`explain_refusal` is the ruleset's :meth:`~warhost.core.ruleset.Ruleset.explain_refusal`:
the engine calls it only for an order that is not a legal answer, so nothing here is on the
hot path. Each reason is worked out with the functions that decide legality (movement searches,
:mod:`.paths`, :mod:`.combat`, :mod:`.feats`), never a second copy of a rule. Where no rule
applies (an order of another kind, say) it returns None and the engine's generic reason is
used; malformed orders get a reason without a rule ID.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import Square, footprint
from warhost.rulesets.fantasy_battle import combat, feats, movement, paths
from warhost.rulesets.fantasy_battle.paths import sq_text
from warhost.rulesets.fantasy_battle.state import FACING_NAMES, FACINGS, IN_POOL, FBState, Unit

_ID_KINDS = frozenset((
    "activate", "member", "attack", "throw", "charge", "charge-mobility", "protect", "frenzy",
    "reinforce", "reform", "join",
))
_WORD_KINDS = frozenset((
    "pass", "hold", "move-attack", "attack-move", "double", "mobility", "no-attack", "done",
    "burst", "no-burst", "fate-pass", "use-abilities", "decline-abilities", "no-protect",
    "no-frenzy", "new-squad",
))
_WHAT_ID = {
    "activate": "the unit or squad", "member": "the squad member", "reinforce": "the unit",
    "reform": "the unit", "join": "the squad", "protect": "the Champion",
}
_CLASS_NAMES = {"warrior": "Warrior", "pike": "Pike", "archer": "Archer", "knight": "Knight",
                "lancer": "Lancer", "mounted_archer": "Mounted Archer"}


def explain_refusal(state: object, decision: Decision, order: Order) -> Refusal | None:
    """Why ``order`` does not answer ``decision`` (see the module notes); None: no rule to
    name, the engine's generic reason applies."""
    if not isinstance(state, FBState):
        return None
    shape = _shape_problem(decision, order)
    if shape is not None:
        return shape
    if order.kind in ("attack", "throw") and decision.kind not in ("attack", "frenzy"):
        return _attack_out_of_phase(state, decision, order)
    explain = _BY_DECISION.get(decision.kind)
    return explain(state, decision, order) if explain is not None else None


# --------------------------------------------------------------------------- shape of orders


def _shape_problem(decision: Decision, order: Order) -> Refusal | None:
    """A malformed order: wrong number or type of arguments for its kind."""
    kind, args = order.kind, order.args
    if kind == "move":
        parsed = paths.parse_move(order)
        return parsed if isinstance(parsed, Refusal) else None
    if kind in _ID_KINDS and len(args) != 1:
        what = _WHAT_ID.get(kind, "the enemy unit")
        return Refusal(f"{kind} needs one name, {what} ({kind} NAME)")
    if kind in _WORD_KINDS and args:
        return Refusal(f"{kind} takes nothing after it")
    if kind == "face" and len(args) != 1:
        return Refusal("face needs one direction: face north")
    if kind in ("reroll-own", "reroll-foe") and (len(args) != 1 or type(args[0]) is not int):
        return Refusal(f"{kind} needs one number, the die (0 for the first)")
    if kind == "deploy" or (kind == "place" and decision.kind != "terrain"):
        if len(args) != 2 or any(type(a) is not int for a in args):
            return Refusal(f"{kind} needs two numbers, x and y")
    if kind == "place" and decision.kind == "terrain" and (
            len(args) != 3 or any(type(a) is not int for a in args)):
        return Refusal("place needs three numbers: the piece, then x and y of its lowest "
                       "corner")
    return None


def _did_you_mean(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _find_unit(state: FBState, name: str, candidates: Iterable[str]) -> Unit | Refusal:
    """The unit called ``name``, or a refusal with a guess among ``candidates``."""
    unit = state.units.get(name)
    if unit is None:
        return Refusal(f"there is no unit {name!r}{_did_you_mean(name, candidates)}")
    return unit


def _listed(decision: Decision, kind: str) -> list[str]:
    """The first argument of every listed option of ``kind``, as text."""
    return [str(o.args[0]) for o in decision.options if o.kind == kind and o.args]


def _class(unit: Unit) -> str:
    return _CLASS_NAMES.get(unit.cls, unit.cls)


# --------------------------------------------------------------------------- turns


def _activate(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    side = decision.side
    ready = _listed(decision, "activate")
    if order.kind == "pass":
        return Refusal(f"{side} may pass only while its turns left outnumber its units and "
                       f"squads yet to activate, and {len(ready)} still wait", "FB-ROUND-06")
    if order.kind != "activate":
        return None
    name = str(order.args[0])
    squad = state.squads.get(name)
    if squad is not None:
        if squad.side != side:
            return Refusal(f"squad {name} belongs to {squad.side}: a player activates his own "
                           "units", "FB-ROUND-03")
        if squad.activated:
            return Refusal(f"squad {name} has already activated this round", "FB-ROUND-04")
        return Refusal(f"squad {name} has no unit left on the battlefield", "FB-AMB-07")
    found = _find_unit(state, name, [*ready, *state.squads, *state.units])
    if isinstance(found, Refusal):
        return found
    unit = found
    if unit.side != side:
        return Refusal(f"{name} belongs to {unit.side}: a player activates his own units",
                       "FB-ROUND-03")
    if not unit.on_map:
        return Refusal(f"{name} is not on the battlefield", "FB-COMBAT-07")
    if unit.squad is not None:
        if unit.squad in ready:
            return Refusal(f"{name} is a Standard unit and acts with its squad: activate "
                           f"{unit.squad}", "FB-SQUAD-03")
        return Refusal(f"{name}'s squad {unit.squad} has already activated this round",
                       "FB-ROUND-04")
    return Refusal(f"{name} has already activated this round", "FB-ROUND-04")


def _member(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "member":
        return None
    name = str(order.args[0])
    squad = decision.subject
    found = _find_unit(state, name, _listed(decision, "member"))
    if isinstance(found, Refusal):
        return found
    if found.squad != squad:
        return Refusal(f"{name} is not a member of squad {squad}", "FB-SQUAD-03")
    if not found.on_map:
        return Refusal(f"{name} is not on the battlefield", "FB-COMBAT-07")
    return Refusal(f"{name} has already taken its turn in this activation", "FB-AMB-50")


def _feat_problem(state: FBState, unit: Unit, feat: str, rule: str) -> Refusal | None:
    """Why ``unit`` may not use ``feat`` now (no entry, all used, or a Feat already this
    turn), or None."""
    words = feat.replace("_", " ").title()
    if unit.rank != "champion" or feat not in unit.feats:
        return Refusal(f"{unit.id} has no {words} Feat", rule)
    if not unit.has_unused_feat(feat):
        return Refusal(f"{unit.id} has used its {words} Feat", "FB-AMB-36")
    if not feats.can_use_feat(state, unit, feat):
        return Refusal(f"a Feat has already been used this turn ({words} would be a second)",
                       "FB-FEAT-03")
    return None


def _plan(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    unit = state.units.get(decision.subject)
    if unit is None or not unit.on_map:
        return None
    if order.kind == "attack-move":
        return _no_target(state, unit)
    if order.kind in ("mobility", "charge-mobility"):
        problem = _feat_problem(state, unit, "mobility", "FB-FEAT-07")
        if problem is not None:
            return problem
    if order.kind in ("charge", "charge-mobility"):
        return _charge(state, decision, unit, str(order.args[0]))
    return None


def _no_target(state: FBState, unit: Unit) -> Refusal:
    """Attack first: there is no legal target; the nearest enemy says why."""
    enemies = sorted(state.enemies(unit.side), key=lambda e: state.distance(unit, e))
    if not enemies:
        return Refusal(f"{unit.id} has no enemy on the battlefield to attack", "FB-ROUND-08")
    why = _attack_problem(state, unit, enemies[0], throw=False)
    detail = f" (nearest, {why.reason})" if why is not None else ""
    return Refusal(f"{unit.id} has no enemy it may attack from where it stands{detail}",
                   why.rule if why is not None else "FB-ROUND-08")


def _charge(state: FBState, decision: Decision, unit: Unit, name: str) -> Refusal | None:
    if not unit.has_charge:
        return Refusal(f"only Pikes and Lancers charge, and {unit.id} is a {_class(unit)}",
                       "FB-PIKE-06")
    found = _find_unit(state, name, (e.id for e in state.enemies(unit.side)))
    if isinstance(found, Refusal):
        return found
    target = found
    if target.side == unit.side:
        return Refusal(f"{name} is not an enemy: a charge is at an enemy", "FB-PIKE-06")
    if not target.on_map:
        return Refusal(f"{name} is not on the battlefield", "FB-COMBAT-07")
    budget = movement.allowance(unit, False, False)
    if not movement.has_charge_run(state, unit, budget):
        return Refusal(f"no charge move is open to {unit.id}: every straight line of 2 squares "
                       "or more is blocked or leaves clear terrain (FB-PIKE-09, FB-PIKE-10)",
                       "FB-PIKE-08")
    distance = state.distance(unit, target)
    if distance > budget + 1:
        return Refusal(f"{name} is {distance} squares away: a charge of at most {budget} "
                       "squares cannot reach it", "FB-MOVE-01")
    return None


# --------------------------------------------------------------------------- movement


def _move(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    unit = state.units.get(decision.subject)
    if order.kind != "move" or unit is None or not unit.on_map or unit.anchor is None:
        return None
    info = decision.info
    budget = int(info.get("budget", movement.allowance(unit, False, False)))
    double = bool(info.get("double", False))
    charging = info.get("charge") is not None
    vault = bool(info.get("vault", False))
    parsed = paths.parse_move(order)
    if isinstance(parsed, Refusal):
        return parsed
    dest, given = parsed
    if given:
        judged = paths.judge_path(state, unit, order, budget, double=double, vault=vault,
                                  charge=charging)
        if isinstance(judged, Refusal):
            return judged
        ends = ", ".join(str(o) for o in decision.options)
        return Refusal(f"{unit.id} has one place to end its move, so no path is asked for: "
                       f"{ends}")
    if charging:
        return _charge_move(state, unit, dest, budget)
    where = paths.end_problem(state, unit, dest)
    if where is not None:
        return Refusal(*where)
    # Every cheapest path costs less than 4 (a doubled hindering step) for each anchor twice.
    long = 8 * state.grid.width * state.grid.height
    plans = paths.cheapest_paths(state, unit, long, vault=vault)
    if dest in plans:
        walk = paths.walk_path(state, unit, plans[dest].path, long, vault=vault)
        spent = paths.cost_text(len(plans[dest].path), plans[dest].cost, walk.hindered,
                                walk.doubled)
        limit, rule = paths.allowance_limit(unit, budget, double)
        return Refusal(f"{spent}, {limit}", rule)
    for relaxed in ({"through_arcs": True}, {"through_arcs": True, "through_units": True}):
        plans = paths.cheapest_paths(state, unit, long, vault=vault, **relaxed)
        if dest in plans:
            walk = paths.walk_path(state, unit, plans[dest].path, long, vault=vault)
            assert walk.problem is not None
            what = "front arcs" if walk.problem.rule == "FB-PIKE-05" else "units"
            return Refusal(f"{what} bar every way to {sq_text(dest)}; the cheapest: "
                           f"{walk.problem.reason}", walk.problem.rule)
    return Refusal(f"no way leads to {sq_text(dest)}: blocking terrain, pits or cliffs cut it "
                   "off", "FB-MOVE-05")


def _charge_move(state: FBState, unit: Unit, dest: Square, budget: int) -> Refusal:
    """A charge's end that is not listed: the straight run there says why."""
    ax, ay = unit.anchor  # type: ignore[misc]
    dx, dy = dest[0] - ax, dest[1] - ay
    steps = max(abs(dx), abs(dy))
    if steps == 0 or (dx and dy and abs(dx) != abs(dy)):
        return Refusal(f"{sq_text(dest)} is not on a straight line (orthogonal or diagonal) "
                       f"from {sq_text((ax, ay))}: a charge runs straight", "FB-PIKE-09")
    ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    run = [(ax + ux * n, ay + uy * n) for n in range(1, steps + 1)]
    walk = paths.walk_path(state, unit, run, budget, charge=True)
    if walk.problem is None:  # pragma: no cover - a legal run is listed
        return Refusal(f"{sq_text(dest)} is not one of the charge's ends")
    return paths.walk_refusal(walk, unit, budget, False, steps=False)


def _facing(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "face":
        return None
    name = str(order.args[0])
    allowed = _listed(decision, "face")
    if name not in FACINGS:
        return Refusal(f"{name!r} is not a facing: {', '.join(allowed)}", "FB-AMB-23")
    return Refusal(f"a Pike faces one of the four orthogonal directions ({', '.join(allowed)}); "
                   "the option pike_facings: 8 allows diagonals", "FB-AMB-23")


# --------------------------------------------------------------------------- attacks


def _attack_problem(state: FBState, unit: Unit, target: Unit, *, throw: bool) -> Refusal | None:
    """Why ``unit`` may not attack ``target`` now (an attack, or a Throw), or None."""
    name = target.id
    if target.side == unit.side:
        return Refusal(f"{name} is not an enemy", "FB-ROUND-08")
    if not target.on_map or not unit.on_map:
        return Refusal(f"{name} is not on the battlefield", "FB-COMBAT-07")
    if throw:
        return _throw_problem(state, unit, target)
    distance = state.distance(unit, target)
    level = state.level_of(unit) == state.level_of(target)
    if unit.is_archer:
        rule = "FB-INF-02" if unit.cls == "archer" else "FB-CAV-11"
        if distance == 1 and level:
            return Refusal(f"{name} is adjacent: an {_class(unit)} attacks only enemies that "
                           "are not adjacent", rule)
        if distance > state.options.max_range:
            return Refusal(f"{name} is {distance} squares away, beyond the longest range, "
                           f"{state.options.max_range}", "FB-AMB-30")
        if not combat.line_of_fire(state, unit, target)[0]:
            where = _blockers(combat.line_blockers(state, unit, target))
            return Refusal(f"no line of fire, {where}", "FB-ARCHER-03")
        if state.options.archer_ally_adjacency == "forbid":
            for friend in state.friends(unit.side):
                if friend.id != unit.id and state.adjacent(friend, target):
                    return Refusal(f"{name} is next to {friend.id}, a unit friendly to "
                                   f"{unit.id}: no shooting into a melee", "FB-ARCHER-01")
        return None
    if unit.cls not in combat.MELEE_CLASSES:
        return Refusal(f"{unit.id} has no attack but a Throw", "FB-ROUND-08")
    rule = "FB-INF-01" if unit.type == "infantry" else "FB-AMB-26"
    if distance == 1 and not level:
        return Refusal(f"{name} stands on another level, so it is not adjacent", "FB-TERRAIN-07")
    if distance != 1:
        return Refusal(f"{name} is {distance} squares away: a {_class(unit)} attacks only "
                       "adjacent enemies", rule)
    if unit.has_facing and not state.in_front_arc(unit, state.squares_of(target)):
        facing = FACING_NAMES.get(unit.facing) if unit.facing is not None else None
        return Refusal(f"{name} is outside {unit.id}'s front arc (facing {facing})",
                       "FB-PIKE-02")
    return None


def _blockers(blocks: list[tuple[Square, str]]) -> str:
    """``blocking terrain at (4,3) and (5,1)``: what blocks the candidate lines, each once."""
    by_what: dict[str, list[Square]] = {}
    for sq, what in blocks:
        squares = by_what.setdefault(what, [])
        if sq not in squares:
            squares.append(sq)
    return " and ".join(f"{what} at {' and '.join(sq_text(sq) for sq in squares)}"
                        for what, squares in by_what.items())


def _throw_problem(state: FBState, unit: Unit, target: Unit) -> Refusal | None:
    problem = _feat_problem(state, unit, "throw", "FB-FEAT-09")
    if problem is not None:
        return problem
    if unit.is_archer:
        return Refusal(f"an {_class(unit)} gains nothing from Throw", "FB-AMB-35")
    lo, hi = combat.THROW_RANGE
    distance = state.distance(unit, target)
    if not lo <= distance <= hi:
        return Refusal(f"{target.id} is {distance} squares away: a Throw reaches enemies "
                       f"{lo} to {hi} squares away", "FB-AMB-35")
    if (unit.has_facing and not state.options.pike_throw_ignores_facing
            and not state.in_front_arc(unit, state.squares_of(target))):
        return Refusal(f"{target.id} is outside {unit.id}'s front arc", "FB-AMB-35")
    if not combat.throw_clear(state, unit, target):
        where = _blockers(combat.line_blockers(state, unit, target, units=True))
        return Refusal(f"the way to {target.id} is not clear: {where}", "FB-FEAT-09")
    return None


def _attack(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    unit = state.units.get(decision.subject)
    if unit is None or order.kind not in ("attack", "throw", "frenzy"):
        return None
    name = str(order.args[0])
    targets = [*_listed(decision, "attack"), *_listed(decision, "throw"),
               *_listed(decision, "frenzy"), *(e.id for e in state.enemies(unit.side))]
    found = _find_unit(state, name, targets)
    if isinstance(found, Refusal):
        return found
    why = _attack_problem(state, unit, found, throw=order.kind == "throw")
    if why is None:
        return None
    other = "throw" if order.kind == "attack" else "attack"
    if order.kind != "frenzy" and name in _listed(decision, other):
        return Refusal(f"{why.reason}; `{other} {name}` is legal", why.rule)
    return why


def _attack_out_of_phase(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    """An attack given where no attack is asked: the side's latest unit turn says why."""
    latest = state.last_plan.get(decision.side)
    if latest is None:
        return None
    uid, plan = latest
    if plan == "double":
        return Refusal(f"{uid} Double-timed and so gave up its attack phase", "FB-MOVE-07")
    if plan == "hold":
        return Refusal(f"{uid} chose to do nothing in its turn", "FB-ROUND-09")
    unit = state.units.get(uid)
    target = state.units.get(str(order.args[0])) if order.args else None
    if unit is None or target is None or decision.subject == uid:
        return None  # still that unit's turn: its attack phase may yet come
    why = _attack_problem(state, unit, target, throw=order.kind == "throw")
    if why is None:
        return None
    return Refusal(f"{uid} could not attack {target.id} in its attack phase: {why.reason}",
                   why.rule)


# --------------------------------------------------------------------------- combat windows


def _fate(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind not in ("reroll-own", "reroll-foe"):
        return None
    dice = decision.info.get("own" if order.kind == "reroll-own" else "foe", [])
    whose = "its own" if order.kind == "reroll-own" else "the opponent's"
    index = int(order.args[0])
    if not dice:
        return Refusal(f"{whose} roll has no die to reroll", "FB-FATE-04")
    return Refusal(f"there is no die {index}: {whose} roll has {len(dice)} "
                   f"{'die' if len(dice) == 1 else 'dice'}, numbered from 0", "FB-FATE-04")


def _protect(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "protect":
        return None
    ally = state.units.get(decision.subject)
    name = str(order.args[0])
    found = _find_unit(state, name, _listed(decision, "protect"))
    if isinstance(found, Refusal) or ally is None:
        return found if isinstance(found, Refusal) else None
    if found.side != ally.side:
        return Refusal(f"{name} is not friendly to {ally.id}", "FB-FEAT-08")
    problem = _feat_problem(state, found, "protect", "FB-FEAT-08")
    if problem is not None:
        return problem
    if found.id == ally.id:
        return Refusal("a Champion cannot protect itself", "FB-AMB-40")
    if not state.adjacent(found, ally):
        return Refusal(f"{name} is not adjacent to {ally.id}", "FB-AMB-40")
    return None


def _dismount(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "place":
        return None
    sq = (int(order.args[0]), int(order.args[1]))
    where = _square_problem(state, sq)
    if where is not None:
        return Refusal(f"{where}: the dismounted unit cannot stand there", "FB-AMB-32")
    listed = ", ".join(sq_text((int(o.args[0]), int(o.args[1]))) for o in decision.options)
    return Refusal(f"{sq_text(sq)} is not one of the squares it may be set down on: {listed}",
                   "FB-CAV-06")


def _forced_space(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "place":
        return None
    sq = (int(order.args[0]), int(order.args[1]))
    listed = ", ".join(sq_text((int(o.args[0]), int(o.args[1]))) for o in decision.options)
    return Refusal(f"{sq_text(sq)} is not one of the nearest legal spaces at the foot of the "
                   f"slope: {listed}", "FB-AMB-47")


def _square_problem(state: FBState, sq: Square) -> str | None:
    """Why a 1-square unit cannot be set down on ``sq`` (off the map, terrain, a unit)."""
    grid = state.grid
    if not grid.contains(sq):
        return f"{sq_text(sq)} is off the {grid.width}x{grid.height} map"
    holder = state.occupied.get(sq)
    if holder is not None:
        return f"{sq_text(sq)} is held by {holder}"
    kind = state.terrain(sq)
    if kind.move_cost is None or not kind.can_end:
        return f"{sq_text(sq)} is {kind.name.replace('_', ' ')} terrain"
    return None


# --------------------------------------------------------------------------- setup, round end


def _deploy(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    unit = state.units.get(decision.subject)
    if order.kind != "deploy" or unit is None:
        return None
    anchor = (int(order.args[0]), int(order.args[1]))
    area = state.start_areas.get(unit.side, set())
    for sq in footprint(anchor, unit.size):
        if sq not in area:
            return Refusal(f"{sq_text(sq)} is outside {unit.side}'s start area",
                           "FB-SETUP-12")
    for sq in footprint(anchor, unit.size):
        where = _square_problem(state, sq)
        if where is not None:
            return Refusal(f"{where}: no unit may be deployed there", "FB-AMB-22")
    if unit.squad is not None:
        return Refusal(f"{unit.id} must be deployed next to a unit of its squad "
                       f"{unit.squad}", "FB-SETUP-13")
    return None


def _reinforce(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "reinforce":
        return None
    from warhost.rulesets.fantasy_battle.game import REINFORCE_LIMIT
    from warhost.rulesets.fantasy_battle.setup import legal_deploy_squares

    name = str(order.args[0])
    pool = [u.id for u in state.units.values() if u.status == IN_POOL]
    found = _find_unit(state, name, pool)
    if isinstance(found, Refusal):
        return found
    if found.side != decision.side:
        return Refusal(f"{name} belongs to {found.side}", "FB-REINF-03")
    if found.status != IN_POOL:
        return Refusal(f"{name} is not in the reinforcement pool", "FB-REINF-03")
    if found.unique:
        return Refusal(f"{name} is Unique: once defeated it never returns", "FB-REINF-05")
    if not legal_deploy_squares(state, found):
        return Refusal(f"there is no room for {name} in the start area", "FB-AMB-49")
    return Refusal(f"{decision.side} has brought back {REINFORCE_LIMIT[found.rank]} "
                   f"{found.rank} unit(s) this round, the most it may", "FB-REINF-04")


def _reform(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "reform":
        return None
    name = str(order.args[0])
    found = _find_unit(state, name, _listed(decision, "reform"))
    if isinstance(found, Refusal):
        return found
    if found.side != decision.side:
        return Refusal(f"{name} belongs to {found.side}", "FB-SQUAD-04")
    if found.squad is None:
        return Refusal(f"{name} is not a Standard unit: only Standard units change squads",
                       "FB-SQUAD-04")
    if not found.on_map:
        return Refusal(f"{name} is not on the battlefield", "FB-COMBAT-07")
    return Refusal(f"no other squad of {name}'s type has room for it, or it has changed squad "
                   "already this round", "FB-AMB-09")


def _reform_to(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.fantasy_battle.game import SQUAD_SIZE

    unit = state.units.get(decision.subject)
    if unit is None:
        return None
    if order.kind == "new-squad":
        return Refusal("reforming cannot create a new squad (the option "
                       "reform_allow_new_squads allows it)", "FB-AMB-09")
    if order.kind != "join":
        return None
    name = str(order.args[0])
    squad = state.squads.get(name)
    if squad is None:
        return Refusal(f"there is no squad {name!r}"
                       f"{_did_you_mean(name, _listed(decision, 'join') or state.squads)}")
    present = sum(1 for m in squad.members if state.units[m].on_map)
    if squad.side != unit.side:
        return Refusal(f"squad {name} belongs to {squad.side}", "FB-AMB-09")
    if squad.id == unit.squad:
        return Refusal(f"{unit.id} is in squad {name} already", "FB-AMB-09")
    if squad.type != unit.type:
        return Refusal(f"squad {name} is a {squad.type} squad and {unit.id} is {unit.type}",
                       "FB-AMB-09")
    if present == 0:
        return Refusal(f"squad {name} has no unit left on the battlefield", "FB-AMB-09")
    return Refusal(f"squad {name} is at full strength ({present} of {SQUAD_SIZE[squad.type]})",
                   "FB-AMB-09")


def _terrain(state: FBState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.fantasy_battle.construct import EDGE_GAP, PIECE_GAP, half_rows

    if order.kind != "place":
        return None
    index, ox, oy = (int(a) for a in order.args)
    pieces = decision.info.get("pieces", {})
    if index not in pieces:
        return Refusal(f"{decision.side} has no terrain piece {index} to place (pieces left: "
                       f"{', '.join(str(i) for i in sorted(pieces))})")
    grid = state.grid
    rows = half_rows(state.sides.index(decision.side), grid.height)
    placed = [sq for sq in grid.squares() if grid.terrain(sq) != "clear"]
    squares = [(ox + sx, oy + sy) for sx, sy in pieces[index]["squares"]]
    for x, y in squares:
        if not (EDGE_GAP <= x < grid.width - EDGE_GAP and EDGE_GAP <= y < grid.height - EDGE_GAP):
            return Refusal(f"{sq_text((x, y))} is nearer than {EDGE_GAP} squares to the edge "
                           "of the map", "FB-SETUP-09")
    for x, y in squares:
        if y not in rows:
            return Refusal(f"{sq_text((x, y))} is outside {decision.side}'s half of the "
                           "battlefield", "FB-SETUP-08")
    for x, y in squares:
        for px, py in placed:
            if max(abs(px - x), abs(py - y)) < PIECE_GAP:
                return Refusal(f"{sq_text((x, y))} is nearer than 2 squares to the terrain at "
                               f"{sq_text((px, py))}", "FB-SETUP-10")
    return None


_BY_DECISION = {
    "activate": _activate,
    "member": _member,
    "plan": _plan,
    "move": _move,
    "facing": _facing,
    "attack": _attack,
    "frenzy": _attack,
    "fate": _fate,
    "protect": _protect,
    "dismount": _dismount,
    "forced_space": _forced_space,
    "deploy": _deploy,
    "reinforce": _reinforce,
    "reform": _reform,
    "reform-to": _reform_to,
    "terrain": _terrain,
}
