"""The AI's answers to the war machine decisions (W4-DEC-19): reload when unloaded, repair
when disabled, fire where the expected slain are worth most, counting the share of a unit's
models left that a shot takes, so that fire stays on a unit until it is gone, and enemy
shooters double (a stone never aimed where the burst would take friends), haul the machine
towards the enemy while none is in range, and take over an abandoned machine."""

from __future__ import annotations

from collections.abc import Callable

from warhost.core.decisions import Decision
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import area_burst, distance, read_point
from warhost.rulesets.dnd4e_war import machines
from warhost.rulesets.dnd4e_war.ai_judge import kill_rate, unit_worth
from warhost.rulesets.dnd4e_war.casualties import minion
from warhost.rulesets.dnd4e_war.game import unit_value
from warhost.rulesets.dnd4e_war.shooting import covered_models, defense
from warhost.rulesets.dnd4e_war.state import Unit, WarState
from warhost.rulesets.dnd4e_war.tables import chance_to_hit, needed_score

KEEP_IN_RANGE = 0.8
"""A hauled machine aims to stand this share of its range from the nearest enemy."""


def _unit(decision: Decision, state: WarState) -> Unit | None:
    unit = state.units.get(decision.subject)
    return unit if unit is not None and unit.machine is not None else None


def _of(decision: Decision, kind: str) -> list[Order]:
    return [o for o in decision.options if o.kind == kind]


def bolt_expected(state: WarState, unit: Unit, target: Unit) -> float:
    """Expected models slain by one bolt: the chance of each hit in the run, hit by hit."""
    machine = unit.machine
    assert machine is not None
    power = machines.bolt_power(unit, machine)
    ac = defense(target, power)
    bonus = machines.attack_bonus(unit, machine)
    reach = 1 if target.skirmish else machines.BOLT_MAX_HITS
    chance, total = 1.0, 0.0
    for k in range(reach):
        chance *= chance_to_hit(needed_score(ac, bonus - machines.BOLT_STEP * k))
        total += chance
    per = max(1, target.profile.resilience) if minion(target) else 2
    return min(total / per, float(target.models))


def stone_expected(state: WarState, unit: Unit, point: tuple[float, float]) -> float | None:
    """What the burst at ``point`` is worth (see :func:`slain_value`), from the enemy models
    it covers weighted by the chance to hit, or None when it would cover any friend (the AI
    never aims there)."""
    machine = unit.machine
    assert machine is not None
    power = machines.stone_power(unit, machine)
    covered = covered_models(state, area_burst(point, power.area))
    total = 0.0
    for uid, n in covered.items():
        other = state.units[uid]
        if other.side == unit.side:
            return None
        hits = n * chance_to_hit(needed_score(defense(other, power), power.bonus))
        total += slain_value(state, other, hits * kill_rate(power, other))
    return total


def slain_value(state: WarState, target: Unit, slain: float) -> float:
    """The worth of ``slain`` models of ``target``: their points, with a panic test earned
    counted as a company's worth more (W4-SHOOT-22), the share of the models left slain as
    that share of the unit's points (so fire stays on a unit until it is gone) and a unit
    wiped out as its whole points again (W4-AMB-74); a fleeing target counts less; an enemy shooter counts double,
    since it is what can reach a machine's crew."""
    slain = min(slain, float(target.models))
    value = slain * unit_worth(target)
    # the share of what is left: fire is kept on a unit until it is wiped out
    value += slain / max(1, target.models) * unit_value(state, target.id)
    already = sum(state.shooting_losses.get(target.id, {}).values())
    if not target.fleeing and slain + already >= target.full_company() > already:
        value += 0.5 * unit_worth(target) * target.full_company()
    if slain >= target.models - 0.5:
        value += unit_value(state, target.id)
    if target.powers("ranged", "area_burst"):
        value *= 2.0
    return 0.3 * value if target.fleeing else value


def machine_action(decision: Decision, state: WarState) -> Order | None:
    """Repair first; fire at the best target; reload once there is nothing to fire."""
    unit = _unit(decision, state)
    if unit is None:
        return None
    repairs = _of(decision, "repair")
    if repairs:
        return repairs[0]
    scored: list[tuple[float, int, Order]] = []
    for i, order in enumerate(decision.options):
        if order.kind == "fire":
            target = state.units[str(order.args[1])]
            slain = bolt_expected(state, unit, target)
            scored.append((slain_value(state, target, slain), -i, order))
        elif order.kind == "aim":
            point = read_point(order.args[1])
            value = stone_expected(state, unit, point) if point is not None else None
            if value is not None and value > 0:
                scored.append((value, -i, order))
    count(OPTIONS, len(scored))
    if scored:
        return max(scored, key=lambda s: (s[0], s[1]))[2]
    reloads = _of(decision, "reload")
    if reloads:
        return reloads[0]
    done = _of(decision, "done")
    return done[0] if done else None


def machine_move(decision: Decision, state: WarState) -> Order | None:
    """Reload if unloaded; else stay while it has something to shoot at, or haul the
    machine to stand about 80% of its range from the nearest enemy."""
    unit = _unit(decision, state)
    if unit is None:
        return None
    reloads = _of(decision, "reload")
    if reloads:
        return reloads[0]
    machine = unit.machine
    assert machine is not None and machine.spec.range is not None
    foes = [u for u in state.enemies_of(unit) if not u.fleeing]
    if not foes or has_target(state, unit):
        return Order("hold")
    hauls = _of(decision, "haul")
    if not hauls:
        return Order("hold")
    goal = KEEP_IN_RANGE * machine.spec.range
    centre = unit.frame().centre
    foe = min(foes, key=lambda u: distance(u.frame().centre, centre))

    def miss(order: Order) -> float:
        point = read_point(order.args[1])
        assert point is not None
        return abs(distance(point, foe.frame().centre) - goal)

    best = min(hauls, key=miss)
    return best if miss(best) < abs(distance(centre, foe.frame().centre) - goal) else \
        Order("hold")


def has_target(state: WarState, unit: Unit) -> bool:
    """Something the machine could shoot at from where it stands."""
    machine = unit.machine
    assert machine is not None
    if machine.kind == "bolt_thrower":
        return bool(machines.bolt_targets(state, unit))
    return bool(machines.stone_aims(state, unit))


def machine_take(decision: Decision, state: WarState) -> Order | None:
    """Crew always take over an abandoned machine of their side."""
    takes = _of(decision, "take")
    return takes[0] if takes else None


HANDLERS: dict[str, Callable[[Decision, WarState], Order | None]] = {
    "machine_action": machine_action,
    "machine_move": machine_move,
    "machine_take": machine_take,
}
