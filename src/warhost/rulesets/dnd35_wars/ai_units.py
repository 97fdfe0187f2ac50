"""The `dnd35-wars` AI's unit action: every offered order scored in expected hit points.

An order's worth = the HP it is expected to take from the enemy now, plus half what the
position it leaves the unit in lets it take next turn, less a share of what the enemy could
take from it there next turn (:data:`THREAT`; the worst threat in full, the rest in part),
less the squares still to close, less the morale it risks. So a charge that hits beats a
move that only gets closer; a shooter keeps out of contact at the range increment that pays
best; a reach unit sets when an enemy can charge it next round; a unit whose HP is near its
half/quarter morale thresholds and that is losing the exchange stops closing in, weighs every
threat in full and pulls back (disengaging when the free attacks cost less than the rout it
risks); a unit whose embedded creatures acted (and so would be left behind) does not move.
Units already fighting an ally are worth more as targets (flanking, W35-MULTI-03, is in the
attack bonus); lone creatures count for less than units while their side has units.

War machines: each plug-in module scores its own orders (``ai_value``: a siege shot, loading,
a ram strike, a slit volley, a unit's casting); a ram or tower unit scores its moves by the
squares left to its goal and the enemy shooters reaching it (:mod:`ai_siege`), and a siege
weapon with something to load or fire does not move.

Only enemies within :data:`ai_judge.NEAR` squares are looked at, and a position the unit is
only thinking of is measured by bounding boxes, so a decision costs a few steps per option
per nearby enemy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warhost.core.orders import Order
from warhost.geometry.grid import Square, side_contacts, square_of_text, translate
from warhost.rulesets.dnd35_wars import actions, ai_siege, combat, odds, reach, tables
from warhost.rulesets.dnd35_wars.ai_judge import (
    NEAR,
    Box,
    box,
    box_gap,
    can_set,
    contacts,
    lane_clear,
    likely_contacts,
    per_hit,
    roll_mean,
    shifted,
    single_on,
    threat_reach,
    unit_on_single,
    unit_on_unit,
)
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

FUTURE = 0.5
"""Weight of what a position lets the unit do next turn."""
THREAT = 0.25
"""Weight of what the enemy could do to the unit next turn."""
SHOOTER_THREAT = 0.5
"""Shooters weigh threats more (missiles included): melee is not their trade."""
APPROACH = 2.0
"""HP-equivalent worth of each square closer to the nearest enemy (none for a shooter
with a target in range)."""
SINGLE_WORTH = 0.3
"""HP taken from a lone creature count this much of a unit's."""
HARMLESS = 0.2
"""...and this much again when the creature's blows cannot take 1 HP from the unit."""
SMALL = 4
"""A unit of this many counters or fewer with a ranged attack fights from range: it would
not last in melee, and its fall shakes the friends nearby (W35-AMB-18)."""
SHAKE = 0.1
"""A small unit keeps out of the nearby squares of bigger friends: this share of their HP
counts against standing there."""
OTHER_THREATS = 0.3
"""Weight of every enemy threat but the worst."""
IDLE = -1e6
"""Orders the AI never wants (regroup, split, a move it cannot read) score below all else."""
LEFT_BEHIND = -1e3
"""Moving away from embedded creatures that acted this turn leaves them alone."""
FLANK_TARGET = 1.25
"""A target already fighting an ally is worth this much more (flanking, gang-ups)."""
SIEGE_WORK = ("load", "siege_fire")
"""The orders that keep a siege weapon busy where it stands."""


@dataclass
class View:
    """What the unit sees this decision: the nearby enemies and its own role."""

    unit: Unit
    foes: list[Unit]
    boxes: dict[str, Box]
    singles: list[Single]
    shooter: bool
    engaged: list[Unit]
    left_behind: bool
    friends: list[tuple[Box, int]]
    breaking: bool = False
    goals: set[Square] = field(default_factory=set)
    siege_work: bool = False
    cache: dict[tuple[str, str, str, int, int], float] = field(default_factory=dict)

    def hit(self, state: WarState, att: Unit, target: Unit, kind: str, mult: int,
            extra: int = 0) -> float:
        """:func:`unit_on_unit`, remembered for the decision."""
        key = (att.id, target.id, kind, mult, extra)
        if key not in self.cache:
            self.cache[key] = unit_on_unit(state, att, target, kind, mult, extra=extra)
        return self.cache[key]


def is_shooter(state: WarState, unit: Unit) -> bool:
    """The unit does better shooting than in melee, from more than a square or two away."""
    attack = unit.ranged
    increment = combat.range_increment(unit) if attack is not None else None
    if attack is None or increment is None:
        return False
    reach_sq = tables.max_increments(attack.thrown) * increment // max(1, state.scale)
    if reach_sq < 3:
        return False
    if unit.melee is None or unit.counters <= SMALL:
        return True
    shot = per_hit(attack, attack.bonus, 14, False, 0)
    blow = per_hit(unit.melee, unit.melee.bonus, 14, False, 0)
    return shot >= 0.8 * blow


def view_of(state: WarState, unit: Unit) -> View:
    """The nearby enemies of ``unit`` and how it fights."""
    mine = box(unit.squares)
    foes, boxes = [], {}
    for foe in state.units_of(state.other(unit.side)):
        b = box(foe.squares)
        if box_gap(mine, b) <= NEAR:
            foes.append(foe)
            boxes[foe.id] = b
    singles = [s for s in state.singles.values() if s.side != unit.side and s.independent
               and s.square is not None and box_gap(mine, (*s.square, *s.square)) <= NEAR]
    engaged = combat.engaged_units(state, unit)
    left = any(not s.stays for s in state.singles_in(unit) if s.host == unit.id)
    friends = []
    if unit.counters <= SMALL:
        for friend in state.units_of(unit.side):
            b = box(friend.squares)
            if friend is not unit and friend.counters > unit.counters and box_gap(mine, b) <= NEAR:
                friends.append((b, friend.hp))
    return View(unit, foes, boxes, singles, is_shooter(state, unit), engaged, left, friends)


def choose(state: WarState, uid: str, options: tuple[Order, ...]) -> Order | None:
    """The best-scored unit action of unit ``uid`` among ``options`` (None: no such unit)."""
    unit = state.units.get(uid)
    if unit is None or not options or not unit.squares:
        return None
    view = view_of(state, unit)
    here = box(unit.squares)
    risk = _morale_risk(state, view, here)
    if unit.machine in ("ram", "tower"):
        view.goals = ai_siege.goal_squares(state, unit)
    elif unit.machine == "siege":
        view.siege_work = any(o.kind in SIEGE_WORK for o in options)
    staying = _position(state, view, here, moved=False) - risk
    best, best_score = options[0], float("-inf")
    for order in options:
        score = _score(state, view, here, staying, order)
        if score > best_score:
            best, best_score = order, score
    return best


# ---- scoring one order

def _score(state: WarState, view: View, here: Box, staying: float, order: Order) -> float:
    kind = order.kind
    if kind in ("hold", "melee", "shoot", "set"):
        return _now_value(state, view, order) + staying
    if kind == "charge":
        return _charge_value(state, view, order)
    if kind in ("move", "pass", "disengage"):
        off = square_of_text(order.args[-1])
        if off is None:
            return IDLE
        value = _position(state, view, shifted(here, *off), moved=True)
        if kind == "disengage":
            value -= _free_attacks(state, view)
        if kind == "pass":
            value -= 1.0
        return value
    plugged = plugin_value(state, view.unit, order)
    return IDLE if plugged is None else plugged + staying


def plugin_value(state: WarState, unit: Unit, order: Order) -> float | None:
    """The value a plug-in module (siege, tower, ram, unit casting) gives its own order, in
    expected enemy HP taken; None when no module scores it."""
    for plugin in actions.PLUGINS:
        if order.kind in plugin.ORDER_KINDS:
            value = getattr(plugin, "ai_value", None)
            return None if value is None else float(value(state, unit, order))
    return None


def _now_value(state: WarState, view: View, order: Order) -> float:
    """What an order that leaves the unit where it stands takes now (a set unit that holds
    stays set, W35-DEFEND-07)."""
    kind = order.kind
    if kind == "melee":
        return _melee_value(state, view, str(order.args[1]))
    if kind == "shoot":
        return _shoot_value(state, view, str(order.args[1]))
    if kind == "set" or view.unit.set_vs_charge:
        return _set_value(state, view)
    return 0.0



def _weight(state: WarState, unit: Unit, target: Unit) -> float:
    """How much HP taken from ``target`` is worth: more when an ally already fights it."""
    allies = [u for u in state.foes_engaged(target.id) if u != unit.id]
    return FLANK_TARGET if allies else 1.0


def _on_single(state: WarState, unit: Unit, single: Single, *, ranged: bool,
                extra: int = 0) -> float:
    """What an attack on a lone creature is worth. While its side still has units, its HP
    count for less than a unit's (the units' HP decide a battle at the round limit,
    W35-AMB-99), and less again when its blows cannot take 1 HP from a unit and it is not
    ferocious (W35-AMB-19); felling it counts extra. With no units left it is the enemy."""
    dealt = unit_on_single(state, unit, single, ranged=ranged, extra=extra)
    if not state.units_of(single.side):
        return dealt * (2.0 if dealt >= single.hp else 1.0)
    worth = SINGLE_WORTH * dealt
    if dealt >= single.hp:
        worth += SINGLE_WORTH * single.hp
    if not single.creature.ferocious and single_on(state, single, unit) < 1:
        worth *= HARMLESS
    return worth


def _melee_value(state: WarState, view: View, arg: str) -> float:
    unit = view.unit
    total = 0.0
    for tid in arg.split(","):
        if tid in state.singles:
            total += _on_single(state, unit, state.singles[tid], ranged=False)
            continue
        target = state.units.get(tid)
        if target is None or not target.on_map:
            continue
        mult = contacts(unit.squares, target)
        kind = "charge" if combat.mob_charge_due(state, unit, target) else "melee"
        total += view.hit(state, unit, target, kind, mult) * _weight(state, unit, target)
    return total


def _charge_value(state: WarState, view: View, order: Order) -> float:
    unit = view.unit
    tid = str(order.args[1])
    off = square_of_text(order.args[2]) if len(order.args) > 2 else None
    if off is None:
        return IDLE
    if view.left_behind:
        return LEFT_BEHIND
    dest = translate(unit.squares, *off)
    if tid in state.singles:
        return _on_single(state, unit, state.singles[tid], ranged=False, extra=2)
    target = state.units.get(tid)
    if target is None:
        return IDLE
    mult = max(1, contacts(dest, target))
    dealt = view.hit(state, unit, target, "charge", mult) * _weight(state, unit, target)
    back = 0.0
    if target.can_fight and target.melee is not None:
        back = view.hit(state, target, unit, "melee", mult) * 1.1  # at its -2 AC
    if target.set_vs_charge and target.can_fight and target.melee is not None:
        repel = min(0.9, max(0.1, 0.5 + 0.05 * (target.ref - unit.ref)))
        set_blow = float(roll_mean(target.melee.damage)) * len(side_contacts(target.squares, dest))
        dealt = dealt * (1 - repel) - repel * set_blow
    shooter_penalty = back if view.shooter else 0.0
    return dealt + FUTURE * dealt - THREAT * back - shooter_penalty


def _shoot_value(state: WarState, view: View, arg: str) -> float:
    unit = view.unit
    ids = arg.split(",")
    if len(ids) == 1:
        return _volley(state, view, {ids[0]: unit.counters})
    plans = combat.even_plans(state, unit, ids)
    return max((_volley(state, view, p) for p in plans), default=0.0)


def _volley(state: WarState, view: View, plan: dict[str, int]) -> float:
    unit = view.unit
    assert unit.ranged is not None
    total = 0.0
    for tid, count in plan.items():
        if tid in state.singles:
            single = state.singles[tid]
            if single.square is None:
                continue
            near = combat.range_modifier(state, unit, {single.square}) or 0
            total += _on_single(state, unit, single, ranged=True, extra=near)
            continue
        target = state.units.get(tid)
        if target is None or not target.on_map:
            continue
        extra = combat.range_modifier(state, unit, target.squares)
        if extra is None:
            continue
        mult = reach.ranged_multiplier(count, target.counters, unit.ranged.crossbow,
                                       state.options.crossbow_cap_by_target)
        kind = "crossbow" if unit.ranged.crossbow else "ranged"
        total += view.hit(state, unit, target, kind, mult, extra) * _weight(state, unit, target)
    return total


def fire_plan_value(state: WarState, unit: Unit, plan: dict[str, int]) -> float:
    """The expected HP a declared volley takes (decision ``fire_plan``)."""
    return _volley(state, view_of(state, unit), plan)


# ---- positions

def _position(state: WarState, view: View, where: Box, *, moved: bool) -> float:
    """What standing on ``where`` is worth: the best attack it opens next turn (or the
    squares still to close), less what nearby enemies could do to the unit there. A ram or
    tower measures by its goal instead (:mod:`ai_siege`); a siege weapon with work where it
    stands does not move."""
    unit = view.unit
    if moved and view.left_behind:
        return LEFT_BEHIND
    if view.goals:
        return ai_siege.machine_position(state, unit, view.goals, view.foes, view.boxes, where)
    if moved and view.siege_work:
        return ai_siege.SIEGE_MOVE + _open_position(state, view, where)
    return _open_position(state, view, where)


def _open_position(state: WarState, view: View, where: Box) -> float:
    unit = view.unit
    best = 0.0
    nearest = NEAR + 1
    threats = []
    for foe in view.foes:
        gap = max(1, box_gap(where, view.boxes[foe.id]))  # boxes of odd shapes overlap
        nearest = min(nearest, gap)
        best = max(best, _opening(state, view, foe, gap, where))
        threats.append(_threat(state, view, foe, gap, where))
    # the worst threat in full, the others in part: they may as well strike someone else
    threat = max(threats, default=0.0) + OTHER_THREATS * (sum(threats) - max(threats, default=0.0))
    for single in view.singles:
        assert single.square is not None
        gap = box_gap(where, (*single.square, *single.square))
        if 2 <= gap <= threat_reach(unit) or gap == 1:
            best = max(best, _on_single(state, unit, single, ranged=False))
    if nearest > NEAR:
        nearest = _far_gap(state, unit, where)
    approach = 0.0 if view.breaking or view.shooter and best > 0.0 else -APPROACH * nearest
    weight = 1.0 if view.breaking else SHOOTER_THREAT if view.shooter else THREAT
    nearby = state.options.nearby_squares
    shake = sum(SHAKE * hp for b, hp in view.friends if box_gap(where, b) <= nearby)
    return FUTURE * best + approach - weight * threat - shake


def _far_gap(state: WarState, unit: Unit, where: Box) -> int:
    """Distance to the nearest enemy unit when none is near (rare: the start of a battle)."""
    gaps = [box_gap(where, box(f.squares)) for f in state.units_of(state.other(unit.side))]
    gaps += [box_gap(where, (*s.square, *s.square)) for s in state.singles.values()
             if s.side != unit.side and s.independent and s.square is not None]
    return min(gaps, default=0)


def _opening(state: WarState, view: View, foe: Unit, gap: int, where: Box) -> float:
    """What the unit could take from ``foe`` next turn from ``gap`` squares away."""
    unit = view.unit
    weight = _weight(state, unit, foe)
    if view.shooter and unit.ranged is not None:
        if gap < 2:
            return 0.0
        increment = combat.range_increment(unit)
        assert increment is not None
        feet = tables.distance_feet(gap, state.scale)
        if not tables.in_range(feet, increment, unit.ranged.thrown):
            return 0.0
        extra = tables.range_penalty(tables.range_increments(feet, increment))
        mult = reach.ranged_multiplier(unit.counters, foe.counters, unit.ranged.crossbow,
                                       state.options.crossbow_cap_by_target)
        kind = "crossbow" if unit.ranged.crossbow else "ranged"
        return view.hit(state, unit, foe, kind, mult, extra) * weight
    if unit.melee is None:
        return 0.0
    mult = likely_contacts(unit, foe)
    if gap == 1:
        return view.hit(state, unit, foe, "melee", mult) * weight
    if gap <= threat_reach(unit) and not unit.phalanx and lane_clear(
            state, unit, where, view.boxes[foe.id]):
        return view.hit(state, unit, foe, "charge", mult) * weight
    return 0.0


def _threat(state: WarState, view: View, foe: Unit, gap: int, where: Box) -> float:
    """What ``foe`` could take from the unit next turn if it stood ``gap`` squares away
    (its missiles count only for a shooter: a melee unit cannot keep out of them and fight)."""
    unit = view.unit
    if not foe.can_fight:
        return 0.0
    busy = bool(state.foes_engaged(foe.id)) and unit.id not in state.foes_engaged(foe.id)
    if foe.melee is not None and not busy:
        mult = likely_contacts(foe, unit)
        if gap == 1:
            return view.hit(state, foe, unit, "melee", mult)
        if gap <= threat_reach(foe) and not foe.phalanx and lane_clear(
                state, foe, view.boxes[foe.id], where):
            blow = view.hit(state, foe, unit, "charge", mult)
            return blow * (0.5 if can_set(unit) else 1.0)
    if view.shooter and foe.ranged is not None and gap >= 2 and not foe.phalanx:
        increment = combat.range_increment(foe)
        if increment is not None:
            feet = tables.distance_feet(gap, state.scale)
            if tables.in_range(feet, increment, foe.ranged.thrown):
                extra = tables.range_penalty(tables.range_increments(feet, increment))
                mult = reach.ranged_multiplier(foe.counters, unit.counters, foe.ranged.crossbow,
                                               state.options.crossbow_cap_by_target)
                kind = "crossbow" if foe.ranged.crossbow else "ranged"
                return 0.5 * view.hit(state, foe, unit, kind, mult, extra)
    return 0.0


# ---- staying put: what the engaged enemies take next, and the morale it risks

def _morale_risk(state: WarState, view: View, here: Box) -> float:
    """The rout a unit risks by staying where it stands: the HP it would run with, times the
    chance it fails the morale check of a half or quarter HP threshold that next round's
    expected loss (its engaged foes' blows, else the worst threat) crosses, while it is losing
    the exchange. A unit at risk stops closing in and weighs every threat in full."""
    unit = view.unit
    if unit.morale_immune:
        return 0.0
    taken = dealt = 0.0
    for foe in view.engaged:
        if foe.can_fight and foe.melee is not None:
            taken += view.hit(state, foe, unit, "melee", contacts(foe.squares, unit))
        if unit.melee is not None:
            dealt += view.hit(state, unit, foe, "melee", contacts(unit.squares, foe))
    if not view.engaged:
        for foe in view.foes:
            gap = max(1, box_gap(here, view.boxes[foe.id]))
            taken = max(taken, _threat(state, view, foe, gap, here))
            dealt = max(dealt, _opening(state, view, foe, gap, here))
    if taken <= 1.5 * dealt:
        return 0.0
    cost = 0.0
    after = max(0, unit.hp - round(taken))
    for trigger in tables.hp_triggers(unit.start_hp, unit.hp, after):
        if trigger in unit.used_triggers:
            continue
        passes = odds.morale_pass_chance(unit.morale, tables.MORALE_DC[trigger],
                                         natural_rolls=state.options.morale_natural_rolls)
        cost += float(1 - passes) * unit.hp * 0.5
    view.breaking = cost > 0
    return cost


def _free_attacks(state: WarState, view: View) -> float:
    """The Disengage free attacks the engaged enemies make (W35-AMB-82)."""
    unit = view.unit
    return sum(view.hit(state, foe, unit, "free", contacts(foe.squares, unit))
               for foe in view.engaged if foe.can_fight and foe.melee is not None)


def _set_value(state: WarState, view: View) -> float:
    """What setting against a charge is worth: an enemy able to charge next round is met
    with a fair chance of repelling it and striking first (W35-DEFEND-03..06)."""
    unit = view.unit
    if not can_set(unit) or view.engaged:
        return 0.0
    here = box(unit.squares)
    best = 0.0
    for foe in view.foes:
        if not foe.can_fight or foe.melee is None or foe.phalanx:
            continue
        if state.foes_engaged(foe.id):
            continue
        gap = box_gap(here, view.boxes[foe.id])
        if 2 <= gap <= threat_reach(foe) and lane_clear(state, foe, view.boxes[foe.id], here):
            mult = likely_contacts(foe, unit)
            blow = view.hit(state, foe, unit, "charge", mult)
            assert unit.melee is not None
            mine = float(roll_mean(unit.melee.damage)) * likely_contacts(unit, foe)
            best = max(best, 0.5 * blow + 0.5 * mine)
    return best
