"""The `dnd4e-war` AI commander.

It plays the way a steady general would. It takes the initiative, always tries to rally a
fleeing unit and always re-rolls a failed test at the battle standard.

Movement: each offered move (and a pivot of its own that squares the unit up to the nearest
enemy block, checked by the decision's judge) is judged by where the unit's block would end.
A fighting unit wants an enemy in its front arc that its charge is likely to reach, weighted
by what that charge is worth, and otherwise closes on the enemy; a shooting unit wants an
enemy in range, in its arc of sight and not hidden behind another unit, counting two rows
from higher ground. Every unit counts the enemy charges that could reach it there: into a
flank or the rear they count double, and so it wheels or pivots to face a threat; in front,
only what the enemy gains by charging first counts; a charge that forces a fear test
also counts the unit's whole worth times the chance it fails; and each counts the less, the likelier
the unit is to charge that enemy first itself (with the initiative). Turning costs a little and reforming to other files much more, so
formations are kept. The fighting units of a side with war machines guard them: they do not
close on the enemy or charge a fresh enemy in front, and go out only against an enemy that
has lost half its models and is no more than half their own numbers, or in the last two
turns when their side is not ahead on points (a draw is no better than a loss).

A charge is worth the chance it wins the combat (the margin taken as normal around the
expected combat resolution of the charge round, then of one more round in initiative order)
times the chance the loser breaks times the loser's points, plus the models slain; less the
same for the charger. It is declared when it reaches at least half the time and that worth is
positive; fleeing enemies in reach are always charged (they are destroyed). Shots go where
they slay most (points counted; a panic test or a whole unit earned counts extra); a company
supports unless its own blows are worth more than the bonus; a pursuit is made when it likely
catches; the close combats most in the side's favour are fought first. Every other decision
takes its default (else its first option).

Cost: every judgement looks at the options offered and the enemy units, with a few arithmetic
steps each; nothing is searched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shapely.geometry import LineString

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import (
    Point,
    Tray,
    bearing,
    centre_pivot,
    offset,
    point_word,
    read_point,
    reform_frame,
    tray_gap,
    turn_between,
    wheel,
)
from warhost.rulesets.dnd4e_war import ai_chars, ai_classes, ai_command, ai_machines
from warhost.rulesets.dnd4e_war.ai_judge import (
    SUPPORT_BONUS,
    arc_struck,
    average_worth,
    charge_payoff,
    fight_edge,
    hit_chance,
    in_front,
    is_shooter,
    melee_power,
    per_model,
    ranged_power,
    reach_chance,
    sees_all_round,
    shot_kills,
    unit_worth,
    whole_worth,
)
from warhost.rulesets.dnd4e_war.game import unit_value
from warhost.rulesets.dnd4e_war.odds import charge_reach_chance, fall_back_distribution
from warhost.rulesets.dnd4e_war.state import Unit, WarState
from warhost.rulesets.dnd4e_war.tables import pivot_cost, points_per_hit

CHARGE_CHANCE = 0.5
"""A charge is declared when it reaches at least this often (and the fight is favourable)."""
CHARGE_MIN = 0.0
"""The payoff a charge must beat to be favourable."""
LATER_THREAT = 0.5
"""How much an enemy charge that could only come next turn counts (it may not win the
initiative, or may move away)."""
PURSUIT_CHANCE = 0.5
"""A pursuit is made when it catches at least this often."""
TURN_COST = 0.15
"""What a wheel or pivot costs in the AI's eyes (no pointless turning)."""
SQUARE_SLACK = 3.0
"""Degrees askew below which the AI does not bother to square up to an enemy block."""
REFORM_COST = 4.0
"""What a reform to other files costs in the AI's eyes (formations are kept)."""
APPROACH = 0.12
"""Value of each inch closer to the nearest enemy for a fighting unit."""
HIDDEN_SHARE = 0.3
"""What a shot is worth when the straight line to the target's middle is blocked (some
companies may still see it)."""
CAUTION = 1.0
"""How much the enemy charges a position invites count against it."""
PAYOFF_WEIGHT = 8.0
"""A charge's payoff (a share of an average unit's worth) against the other judgements."""
FLANK_FEAR = 2.0
"""How much worse an enemy charge into a flank or the rear is counted."""
NEAR = 16.0
"""Inches beyond a unit's own reach within which enemies are weighed (an enemy's charge
and a little more)."""
RUN_PENALTY = 5
"""W4-AMB-07/08: a unit that ran shoots at -5."""


class WarAI(Commander):
    """Weighs every option with cheap expectations (see the module docstring)."""

    kind = "ai"

    def __init__(self) -> None:
        self._handlers: dict[str, Callable[[Decision, WarState], Order | None]] = {
            "initiative": self._initiative,
            "reroll": self._reroll,
            "rally": self._rally,
            "reform": self._reform,
            "next_move": self._next_move,
            "unit_move": self._unit_move,
            "shooter": self._shooter,
            "shooting_power": self._shooting_power,
            "shooting_target": self._shooting_target,
            "burst_centre": self._burst_centre,
            "charge": self._charge,
            "support": self._support,
            "fight": self._fight,
            "pursue": self._pursue,
        }
        self._handlers.update(ai_command.HANDLERS)
        self._handlers.update(ai_classes.HANDLERS)
        self._handlers.update(ai_machines.HANDLERS)
        self._handlers.update(ai_chars.HANDLERS)
        self._scale: tuple[tuple[int, int], float] = ((0, -1), 1.0)
        self._screens: list[tuple[str, Any]] = []
        self._guard_key: tuple[int, int] = (0, -1)
        self._guard_sides: set[str] = set()

    def choose(self, decision: Decision, state: Any) -> Order:
        """The best option by the AI's judgement; the default (else the first) when it has
        no view on the decision."""
        handler = self._handlers.get(decision.kind)
        order = None
        if handler is not None and isinstance(state, WarState) and decision.options:
            order = handler(decision, state)
        if order is not None:
            return order
        return decision.default if decision.default is not None else decision.option(0)

    # ------------------------------------------------------------------ simple choices

    def _initiative(self, decision: Decision, state: WarState) -> Order | None:
        return _first(decision, "take")

    def _reroll(self, decision: Decision, state: WarState) -> Order | None:
        return _first(decision, "reroll")

    def _rally(self, decision: Decision, state: WarState) -> Order | None:
        return _first(decision, "rally")

    def _reform(self, decision: Decision, state: WarState) -> Order | None:
        """After a rally: as many files as before, facing the enemy (the offered facing)."""
        unit = state.units.get(decision.subject)
        if unit is None:
            return None
        reforms = [o for o in decision.options if o.kind == "reform" and len(o.args) == 3]
        if not reforms:
            return None
        return min(reforms, key=lambda o: abs(_int(o.args[1]) - unit.files))

    def _next_move(self, decision: Decision, state: WarState) -> Order | None:
        """Every unit gets its turn to move (its own decision may hold), in the order
        offered, rather than saying it is done."""
        return _first(decision, "move")

    def _shooter(self, decision: Decision, state: WarState) -> Order | None:
        shots = [o for o in decision.options if o.kind == "shoot"]
        return shots[0] if shots else None

    # ------------------------------------------------------------------ movement

    def _unit_move(self, decision: Decision, state: WarState) -> Order | None:
        unit = state.units.get(decision.subject)
        if unit is None or not unit.alive:
            return None
        stand = _first(decision, "stand")
        if stand is not None:
            return stand
        foes = near_foes(state, unit)
        if not foes:
            return None
        shooter = is_shooter(unit)
        start = unit.frame()
        if shooter:
            self._screens = screens(state, unit, start)
        orders = list(decision.options) + squaring_moves(decision, unit, foes, start)
        best: tuple[float, int] | None = None
        for i, order in enumerate(orders):
            frame = end_frame(unit, order, start)
            if frame is None:
                continue
            count(GEOMETRY, len(foes))
            value = self._place_value(state, unit, order, frame, foes, shooter)
            if best is None or value > best[0] + 1e-9:
                best = (value, i)
        return orders[best[1]] if best is not None else None

    def _place_value(self, state: WarState, unit: Unit, order: Order, frame: Tray,
                     foes: list[Unit], shooter: bool) -> float:
        """How good it is for ``unit`` to end its move as ``frame``."""
        kind = order.kind
        value = 0.0
        if kind in ("wheel", "pivot"):
            value -= TURN_COST
        elif kind == "reform":
            same = len(order.args) == 3 and _int(order.args[1]) == unit.files
            value -= TURN_COST if same else REFORM_COST
        can_charge = kind not in ("double",) and not unit.standard_used
        standing = [e for e in foes if not e.fleeing]
        nearest = min((tray_gap(frame, e.frame()) for e in standing), default=0.0)
        first: dict[str, float] = {}
        if shooter:
            value += self._shooting_spot(state, unit, frame, foes, kind)
        else:
            value += self._charge_spot(state, unit, frame, foes, can_charge, first)
        if state.initiative != unit.side:
            first = {}  # the enemy charges first this turn
        value -= CAUTION * self._danger(state, unit, frame, standing, shooter, first)
        if not shooter:
            if self._guards(state, unit):  # it goes out only against a worn enemy
                nearest = min((tray_gap(frame, e.frame()) for e in standing
                               if _worn(state, unit, e)), default=0.0)
            value -= APPROACH * nearest
        return value

    def _guards(self, state: WarState, unit: Unit) -> bool:
        """True when ``unit`` stays by its side's war machines rather than closing on the
        enemy: the machines shoot the enemy down as it comes (worked out once a turn)."""
        key = (id(state), state.turn)
        if self._guard_key != key:
            self._guard_key = key
            self._guard_sides = {u.side for u in state.units.values()
                                 if u.machine is not None and u.alive}
        return unit.side in self._guard_sides

    def _danger(self, state: WarState, unit: Unit, frame: Tray, foes: list[Unit],
                shooter: bool, first: dict[str, float]) -> float:
        """What the enemy charges that could reach ``frame`` are likely to cost (less the
        chance ``first`` that this unit charges that enemy before it can)."""
        total = 0.0
        for foe in foes:
            if state.is_engaged(foe.id) or melee_power(foe) is None:
                continue
            there = foe.frame()
            gap = tray_gap(frame, there)
            if not sees_all_round(foe) and not in_front(there, frame):
                continue
            chance = reach_chance(foe, gap) * (1.0 - first.get(foe.id, 0.0))
            if chance <= 0.0:
                continue
            total += chance * self._fear_loss(state, unit, foe)
            arc = arc_struck(frame, there, unit)
            theirs = self.payoff(state, foe, there, unit, frame, arc)
            if arc != "front":
                loss = max(0.0, theirs) * FLANK_FEAR + 1.0
            elif shooter:
                loss = max(0.0, theirs) + 1.0
            else:  # a fight in front comes anyway: what counts is who charges
                ours = self.payoff(state, unit, frame, foe, there, arc_struck(there, frame, foe))
                loss = max(0.0, theirs - max(0.0, ours))
            total += chance * loss
        return total

    def _fear_loss(self, state: WarState, unit: Unit, foe: Unit) -> float:
        """What a charge of a fear-causing ``foe`` costs besides the fight: a failed
        test makes ``unit`` fall back (W4-FEAR-02), likely lost to the enemy's score."""
        fails = 1.0 - _fear_pass(state, unit, foe)
        if fails <= 0.0:
            return 0.0
        return fails * PAYOFF_WEIGHT * whole_worth(state, unit) / self.scale(state)

    def scale(self, state: WarState) -> float:
        """An average unit's worth, worked out once a turn."""
        key = (id(state), state.turn)
        if self._scale[0] != key:
            self._scale = (key, average_worth(state))
        return self._scale[1]

    def payoff(self, state: WarState, attacker: Unit, at: Tray, target: Unit,
               target_at: Tray, arc: str) -> float:
        """What a charge of ``attacker`` from ``at`` on ``target`` is worth to the charger
        (see :func:`charge_payoff`), on the scale of the AI's other judgements."""
        return PAYOFF_WEIGHT * charge_payoff(state, attacker, at, target, target_at, arc,
                                             self.scale(state))

    def _charge_spot(self, state: WarState, unit: Unit, frame: Tray, foes: list[Unit],
                     can_charge: bool, first: dict[str, float]) -> float:
        """The best charge ``frame`` opens for the Charge phase this turn; ``first`` gets
        the chance of each favourable charge."""
        if not can_charge or melee_power(unit) is None:
            return 0.0
        best = 0.0
        guard = self._guards(state, unit)
        for foe in foes:
            there = foe.frame()
            if not sees_all_round(unit) and not in_front(frame, there):
                continue
            chance = reach_chance(unit, tray_gap(frame, there))
            if chance <= 0.0:
                continue
            if foe.fleeing:  # caught and destroyed (W4-AMB-17/18)
                worth = PAYOFF_WEIGHT * whole_worth(state, foe) / self.scale(state)
            elif guard and not _worn(state, unit, foe) and arc_struck(there, frame, foe) == "front":
                continue  # a guard waits for a frontal attack behind its line
            else:
                worth = self.payoff(state, unit, frame, foe, there,
                                    arc_struck(there, frame, foe))
            if worth > 0.0 and chance >= CHARGE_CHANCE:
                first[foe.id] = chance
            best = max(best, chance * worth)
        return best

    def _shooting_spot(self, state: WarState, unit: Unit, frame: Tray, foes: list[Unit],
                       kind: str) -> float:
        """A shooter wants a target in range and in its arc; it holds its high ground."""
        power = ranged_power(unit)
        if power is None:
            return 0.0
        if kind in ("double", "reform"):
            return -1.0  # no shooting this turn (W4-MOVE-17/19)
        penalty = RUN_PENALTY if kind == "run" else 0  # W4-AMB-07/08
        best = 0.0
        closest = 1e9
        height = frame_height(state, frame)
        for foe in foes:
            if foe.fleeing:
                continue
            there = foe.frame()
            gap = tray_gap(frame, there)
            closest = min(closest, gap)
            if gap > power.range:
                continue
            if not sees_all_round(unit) and not in_front(frame, there):
                continue
            dice = _shooting_dice(unit, 2 if height > state.elevation(foe) else 1)
            aim = power.model_copy(update={"bonus": power.bonus - penalty}) if penalty else power
            value = 1.0 + shot_kills(state, unit, aim, foe, dice)
            if _line_blocked(frame.centre, there.centre, self._screens, foe.id):
                value *= HIDDEN_SHARE
            best = max(best, value)
        if best == 0.0 and closest < 1e9:
            best = -0.1 * (closest - power.range)
        return best

    # ------------------------------------------------------------------ shooting

    def _shooting_power(self, decision: Decision, state: WarState) -> Order | None:
        unit = state.units.get(decision.subject)
        if unit is None:
            return None
        from warhost.rulesets.dnd4e_war.shooting import slug

        best: tuple[float, int] | None = None
        for i, order in enumerate(decision.options):
            power = next((p for p in unit.powers("ranged", "area_burst")
                          if slug(p.name) == str(order.args[-1])), None)
            if power is None:
                continue
            value = max((shot_kills(state, unit, power, e, _shooting_dice(unit))
                         for e in state.enemies_of(unit)), default=0.0)
            if power.kind == "area_burst":
                value *= 0.5  # a burst can strike friends too
            if best is None or value > best[0]:
                best = (value, i)
        return decision.options[best[1]] if best is not None else None

    def _shooting_target(self, decision: Decision, state: WarState) -> Order | None:
        unit = state.units.get(decision.subject)
        if unit is None:
            return None
        best: tuple[float, int] | None = None
        for i, order in enumerate(decision.options):
            target = state.units.get(str(order.args[0])) if order.args else None
            if target is None:
                continue
            value = self.shot_value(state, unit, target)
            if best is None or value > best[0]:
                best = (value, i)
        return decision.options[best[1]] if best is not None else None

    def shot_value(self, state: WarState, unit: Unit, target: Unit) -> float:
        """The worth of the models a shot at ``target`` slays: a panic test earned (a full
        company's worth) or a unit wiped out counts extra (W4-SHOOT-22)."""
        from warhost.rulesets.dnd4e_war import shooting

        gap = state.gap(unit, target)
        power = next((p for p in sorted(unit.powers("ranged"), key=lambda p: -p.bonus)
                      if p.range >= gap - 1e-9), None)
        if power is None:
            return 0.0
        slots = shooting._shooting_slots(state, unit, target, power)
        choice = "all" if shooting.multiattack_allowed(state, power, target) else "none"
        dice = shooting.count_dice(state, unit, target, slots, choice)
        cover = shooting.cover_bonus(state, unit, target, slots)
        slain = shot_kills(state, unit, power, target, dice.ranks, dice.captain, cover)
        value = slain * unit_worth(target)
        already = sum(state.shooting_losses.get(target.id, {}).values())
        if not target.fleeing and slain + already >= target.full_company() > already:
            value += 0.5 * unit_worth(target) * target.full_company()
        if slain >= target.models - 0.5:
            value += unit_value(state, target.id)  # the whole unit's points (W4-AMB-74)
        return 0.3 * value if target.fleeing else value

    def _burst_centre(self, decision: Decision, state: WarState) -> Order | None:
        unit = state.units.get(decision.subject)
        bursts = unit.powers("area_burst") if unit is not None else []
        if unit is None or not bursts:
            return None
        from warhost.geometry.table import area_burst
        from warhost.rulesets.dnd4e_war.shooting import covered_models

        best: tuple[float, int] | None = None
        for i, order in enumerate(decision.options):
            point = read_point(order.args[0]) if order.args else None
            if point is None:
                continue
            value = 0.0
            for uid, n in covered_models(state, area_burst(point, bursts[0].area)).items():
                value += n if state.units[uid].side != unit.side else -2.0 * n
            if best is None or value > best[0]:
                best = (value, i)
        return decision.options[best[1]] if best is not None and best[0] > 0 else None

    # ------------------------------------------------------------------ charges and fights

    def _charge(self, decision: Decision, state: WarState) -> Order | None:
        unit = state.units.get(decision.subject)
        hold = _first(decision, "hold")
        if unit is None:
            return None
        best: tuple[float, Order] | None = None
        for order in decision.options:
            if order.kind != "charge":
                continue
            target = state.units.get(str(order.args[-1]))
            if target is None:
                continue
            value = self.charge_value(state, unit, target)
            if value is not None and (best is None or value > best[0]):
                best = (value, order)
        if best is None:
            return hold
        return best[1]

    def charge_value(self, state: WarState, unit: Unit, target: Unit) -> float | None:
        """The worth of charging ``target``: None when the charge is unlikely to reach or
        the fight it starts is not favourable."""
        trays = unit.trays()
        fronts = trays if unit.skirmish else trays[:min(unit.files, len(trays))]
        goal = target.frame()
        gap = min(tray_gap(t, goal) for t in fronts)
        chance = float(charge_reach_chance(unit.speed(), gap))
        chance *= _fear_pass(state, unit, target)
        if chance < CHARGE_CHANCE:
            return None
        if target.fleeing:
            return 100.0 * chance
        frame = unit.frame()
        arc = arc_struck(goal, frame, target)
        if arc == "front" and self._guards(state, unit) and not _worn(state, unit, target):
            return None  # it holds its line by the machines and lets the enemy come on
        worth = self.payoff(state, unit, frame, target, goal, arc)
        worth += self._forestalled(state, unit, frame, target, goal)
        if worth <= CHARGE_MIN:
            return None
        return chance * worth

    def _forestalled(self, state: WarState, unit: Unit, frame: Tray, target: Unit,
                     goal: Tray) -> float:
        """What holding would likely cost: ``target`` charging ``unit`` instead (this turn
        when it charges after us, else perhaps next turn). A charge that lands spares it."""
        if state.is_engaged(target.id) or target.fleeing or melee_power(target) is None:
            return 0.0
        if not sees_all_round(target) and not in_front(goal, frame):
            return 0.0
        chance = reach_chance(target, tray_gap(frame, goal))
        if chance <= 0.0:
            return 0.0
        theirs = self.payoff(state, target, goal, unit, frame, arc_struck(frame, goal, unit))
        later = 1.0 if state.initiative == unit.side else LATER_THREAT
        return chance * later * max(0.0, theirs)

    def _support(self, decision: Decision, state: WarState) -> Order | None:
        """A company supports unless the blows of its models in contact are worth more
        than the support bonus (W4-RESOLVE-09/10)."""
        unit = state.units.get(decision.subject)
        support, fight = _first(decision, "support"), _first(decision, "fight")
        if unit is None or support is None or fight is None or len(support.args) < 2:
            return support
        from warhost.rulesets.dnd4e_war import melee

        power = melee_power(unit)
        slot = _int(support.args[1])
        groups = melee.fighters(state, unit, state.foes_of(unit.id),
                                power.reach if power else 1)
        group = next((g for g in groups if g.slot == slot), None)
        if power is None or group is None:
            return support
        per = per_model(state, unit.profile.attacks, power, group.target)
        defense = getattr(group.target.profile.defenses, power.vs)
        blows = group.models * per * hit_chance(defense, power.bonus) * points_per_hit(
            power.damage)
        return fight if blows > SUPPORT_BONUS else support

    def _fight(self, decision: Decision, state: WarState) -> Order | None:
        """The close combat with the best margin for this side first."""
        groups = {g[0]: g for g in state.fights()}
        best: tuple[float, int] | None = None
        for i, order in enumerate(decision.options):
            group = groups.get(str(order.args[0])) if order.args else None
            if group is None:
                continue
            units = [state.units[u] for u in group]
            value = fight_edge(state, decision.side, units)
            if best is None or value > best[0]:
                best = (value, i)
        return decision.options[best[1]] if best is not None else None

    def _pursue(self, decision: Decision, state: WarState) -> Order | None:
        unit = state.units.get(decision.subject)
        hold = _first(decision, "hold")
        if unit is None:
            return None
        best: tuple[float, Order] | None = None
        dist = fall_back_distribution(unit.speed())
        for order in decision.options:
            if order.kind != "pursue":
                continue
            quarry = state.units.get(str(order.args[-1]))
            if quarry is None or not quarry.alive:
                continue
            gap = state.gap(unit, quarry)
            chance = float(sum(p for d, p in dist.items() if d > 0 and d >= gap - 1e-9))
            if chance >= PURSUIT_CHANCE and (best is None or chance > best[0]):
                best = (chance, order)
        return best[1] if best is not None else hold


# --------------------------------------------------------------------------- helpers


def _worn(state: WarState, guard: Unit, foe: Unit) -> bool:
    """True when ``guard`` may go out against ``foe`` in front: the enemy has lost half its
    models and has no more than half as many as the guard; or it is one of the last two
    turns and the guard's side is not ahead on points (a draw is no better than a loss)."""
    if 2 * foe.models <= min(foe.start_models, guard.models):
        return True
    if state.turn < state.options.turn_limit - 1:
        return False
    from warhost.rulesets.dnd4e_war.game import score

    return score(state, guard.side) <= score(state, foe.side)


def _first(decision: Decision, kind: str) -> Order | None:
    """The first option of ``kind``."""
    return next((o for o in decision.options if o.kind == kind), None)


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def end_frame(unit: Unit, order: Order, start: Tray | None = None) -> Tray | None:
    """Where ``unit``'s block stands after the move ``order`` (None: not a move the AI
    reads)."""
    frame = start or unit.frame()
    kind, args = order.kind, order.args
    if kind in ("hold", "stand"):
        return frame
    if kind in ("walk", "double", "run") and len(args) == 2:
        point = read_point(args[1])
        if point is None:
            return None
        if unit.skirmish:
            return Tray(point, bearing(frame.centre, point), frame.width, frame.depth)
        here = frame.front_centre
        return frame.moved(point[0] - here[0], point[1] - here[1])
    if kind == "wheel" and len(args) >= 3:
        degrees = _float(args[2])
        if degrees is None or str(args[1]) not in ("left", "right"):
            return None
        return wheel(frame, str(args[1]), degrees)
    if kind == "pivot" and len(args) >= 2:
        degrees = _float(args[1])
        if degrees is None:
            return None
        turned = centre_pivot(frame, degrees)
        if len(args) == 4 and str(args[2]) == "then":
            point = read_point(args[3])
            if point is None:
                return None
            here = turned.front_centre
            return turned.moved(point[0] - here[0], point[1] - here[1])
        return turned
    if kind == "reform" and len(args) == 3 and not unit.skirmish:
        files = max(1, _int(args[1]))
        facing = _float(args[2])
        if facing is None:
            return None
        ranks = -(-len(unit.companies) // files)
        return reform_frame(frame.centre, facing, files, ranks, unit.tray_width,
                            unit.tray_depth)
    return None


def squaring_moves(decision: Decision, unit: Unit, foes: list[Unit], start: Tray
                   ) -> list[Order]:
    """Pivots (and pivots then an advance) that square ``unit`` up to the nearest enemy
    block, so that a charge meets it edge to edge rather than at a corner (W4-CHARGE-14);
    only those the decision's judge accepts."""
    if decision.accept is None or unit.skirmish or unit.ran or unit.double_moved:
        return []
    standing = [e for e in foes if not e.fleeing and e.has_flanks]
    if not standing:
        return []
    foe = min(standing, key=lambda e: tray_gap(start, e.frame()))
    there = foe.frame()
    towards = bearing(start.centre, there.centre)
    square = min((foe.facing + k) % 360.0 for k in (0.0, 90.0, 180.0, 270.0)
                 if abs(turn_between((foe.facing + k) % 360.0, towards)) <= 45.0)
    turn = round(turn_between(start.facing, square), 3)
    if abs(turn) < SQUARE_SLACK:
        return []
    left = unit.speed() - pivot_cost(unit.speed(), turn)
    turned = centre_pivot(start, turn)
    angle = f"{turn:g}"
    tries = [Order.of("pivot", unit.id, angle)]
    for share in (1.0, 0.5):
        if left * share > 0.5:
            point = offset(turned.front_centre, turned.facing, left * share)
            tries.append(Order.of("pivot", unit.id, angle, "then", point_word(
                (round(point[0], 3), round(point[1], 3)))))
    out = []
    for order in tries:
        count(OPTIONS)
        judged = decision.accept(order)
        if isinstance(judged, Order):
            out.append(judged)
    return out


def screens(state: WarState, unit: Unit, start: Tray) -> list[tuple[str, Any]]:
    """What may block ``unit``'s sight from around ``start`` (W4-AMB-45): terrain that
    blocks sight and the blocks of the other units within reach of its shots, each with the
    id of its unit ("" for terrain)."""
    power = ranged_power(unit)
    reach = (power.range if power is not None else 0.0) + 2 * unit.speed() + 2.0
    found: list[tuple[str, Any]] = [("", g.region.polygon) for g in state.ground
                                    if g.blocks_sight]
    for other in state.units_near(unit, reach):
        frame = other.frame()
        if tray_gap(start, frame) <= reach:
            found.append((other.id, frame.polygon))
    return found


def near_foes(state: WarState, unit: Unit) -> list[Unit]:
    """The enemy units a move of ``unit`` this turn can matter to: those its double move, a
    charge or its shots could reach, or that could charge it (all of them when none is that
    close, so that it still knows where the enemy is)."""
    power = ranged_power(unit)
    reach = 2.0 * unit.speed() + NEAR + (power.range if power is not None else 0.0)
    foes = [u for u in state.units_near(unit, reach) if u.side != unit.side]
    return foes or list(state.enemies_of(unit))


def _line_blocked(a: Point, b: Point, shapes: list[tuple[str, Any]], target: str) -> bool:
    """True when the segment from ``a`` to ``b`` crosses one of ``shapes`` other than the
    target's own."""
    line = LineString([a, b])
    return any(uid != target and shape.intersects(line) for uid, shape in shapes)


def _shooting_dice(unit: Unit, rows: int = 1) -> float:
    """Dice a shot of ``unit`` rolls, roughly: the front row of each company, two rows from
    higher ground (W4-SHOOT-11/12); skirmishers: every model."""
    if unit.skirmish:
        return float(unit.models)
    return float(sum(unit.row_models(s, r) for s in range(len(unit.companies))
                     for r in range(rows)))


def frame_height(state: WarState, frame: Tray) -> int:
    """The height of the ground under most of ``frame`` (W4-AMB-32)."""
    best = 0
    area = frame.width * frame.depth or 1.0
    for ground in state.ground:
        if ground.height > best and ground.region.polygon.intersection(
                frame.polygon).area > area / 2.0:
            best = ground.height
    return best


def _fear_pass(state: WarState, unit: Unit, target: Unit) -> float:
    """The chance ``unit`` dares charge ``target`` (W4-FEAR-03/05): 1 unless it feels the
    target's fear or terror."""
    from warhost.rulesets.dnd4e_war import psychology
    from warhost.rulesets.dnd4e_war.odds import courage_pass_chance, has_reroll

    kind = psychology.felt_fear(state, target, unit)
    if kind is None or psychology.immune(state, unit, kind) is not None:
        return 1.0
    return float(courage_pass_chance(psychology.courage_bonus(state, unit),
                                     psychology.fear_dc(target, state),
                                     reroll=has_reroll(state, unit)))
