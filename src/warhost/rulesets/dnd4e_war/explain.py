"""Why an order is refused in `dnd4e-war`, with the rule behind it (the ruleset's explanation
hook, W4-DEC decisions).

The engine asks only about orders that are not legal answers, so nothing here is on the hot
path. Open decisions (a move to any point, a burst centre) judge their own orders through
``decision.accept`` and their refusals are passed on. For the others the reason is found in
this order: an order of the wrong kind (named with the phase it belongs to), a unit or power
that does not exist or is not the one asked about, and then why that unit, target, company or
choice is not eligible, using the same tests the phases use to build their options.
"""

from __future__ import annotations

from collections.abc import Callable

from warhost.core.decisions import Decision, Refusal, did_you_mean, not_offered
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.state import Unit, WarState

Explainer = Callable[[WarState, Decision, Order], "Refusal | None"]

DECISION_RULES: dict[str, str] = {
    "initiative": "W4-INIT-04",
    "reroll": "W4-CMD-09",
    "rally": "W4-FLEE-10",
    "reform": "W4-FLEE-12",
    "compulsory_move": "W4-FLEE-17",
    "next_move": "W4-MOVE-02",
    "unit_move": "W4-DEC-09",
    "shooter": "W4-SHOOT-02",
    "shooting_power": "W4-SHOOT-03",
    "shooting_target": "W4-SHOOT-06",
    "multiattack": "W4-MULTI-05",
    "burst_centre": "W4-DEC-17",
    "charge": "W4-CHARGE-02",
    "next_charge": "W4-DEC-20",
    "spearhead": "W4-CHARGE-10",
    "power": "W4-DEC-26",
    "skirmish_place": "W4-DEC-22",
    "fight": "W4-MELEE-01",
    "support": "W4-RESOLVE-09",
    "pursue": "W4-BREAK-04",
    "general_nominate": "W4-GEN-01",
    "challenge_issue": "W4-CHAL-03",
    "challenge_answer": "W4-CHAL-04",
    "challenge_rear": "W4-CHAL-06",
    "challenge_power": "W4-DEC-33",
    "ap_dice": "W4-AP-01",
    "ap_act_first": "W4-AP-08",
    "ap_extra": "W4-AP-05",
    "recharge": "W4-RECH-01",
    "recharge_power": "W4-RECH-03",
    "char_join": "W4-CHAR-03",
    "char_leave": "W4-CHAR-07",
    "char_charge_out": "W4-CHAR-15",
    "char_attack": "W4-CHAR-16",
    "char_reposition": "W4-CHAR-19",
    "char_shoot": "W4-CHAR-13",
    "class_beast_form": "W4-CLASS-10",
    "class_rampage": "W4-CLASS-06",
    "machine_move": "W4-DEC-19",
    "machine_action": "W4-DEC-19",
    "machine_take": "W4-WM-15",
}
"""The rule that puts each decision to a commander."""

ORDER_PHASES: dict[str, str] = {
    "take": "Initiative", "give": "Initiative",
    "rally": "Movement", "keep_fleeing": "Movement", "walk": "Movement",
    "double": "Movement", "run": "Movement", "wheel": "Movement", "pivot": "Movement",
    "reform": "Movement", "stand": "Movement", "move": "Movement",
    "shoot": "Shooting", "use": "Shooting", "target": "Shooting", "multiattack": "Shooting",
    "burst": "Shooting",
    "charge": "Charge", "next_charge": "Charge", "spearhead": "Charge",
    "fight": "Close Combat", "support": "Close Combat", "pursue": "Close Combat",
}
"""The phase whose decisions take each kind of order (W4-TURN-02)."""

DECISION_PHASES: dict[str, str] = {
    "initiative": "Initiative", "rally": "Movement", "reform": "Movement",
    "compulsory_move": "Movement", "next_move": "Movement", "unit_move": "Movement",
    "shooter": "Shooting", "shooting_power": "Shooting", "shooting_target": "Shooting",
    "multiattack": "Shooting", "burst_centre": "Shooting", "charge": "Charge",
    "next_charge": "Charge", "spearhead": "Charge", "fight": "Close Combat",
    "support": "Close Combat", "pursue": "Close Combat",
}
"""The phase of each decision (``power``, the melee power, comes in the Charge and the Close
Combat phases: the state's phase says which)."""

STATE_PHASES = {"initiative": "Initiative", "movement": "Movement", "shooting": "Shooting",
                "charge": "Charge", "close_combat": "Close Combat"}


def explain_refusal(state: object, decision: Decision, order: Order) -> Refusal | None:
    """Why ``order`` does not answer ``decision``, with a rule ID where one applies (None:
    the engine's generic reason)."""
    if decision.accept is not None:
        verdict = decision.accept(order)
        if isinstance(verdict, Refusal):
            return verdict
    if not isinstance(state, WarState):
        return None
    wrong = _wrong_kind(state, decision, order)
    if wrong is not None:
        return wrong
    explain = _BY_KIND.get(decision.kind)
    found = explain(state, decision, order) if explain is not None else None
    if found is None and decision.kind in DECISION_RULES:
        return not_offered(decision, order, DECISION_RULES.get(decision.kind))
    return found


# --------------------------------------------------------------------------- shared checks


def _kinds(decision: Decision) -> list[str]:
    return sorted({o.kind for o in decision.options})


def _wrong_kind(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    """An order of a kind the decision never takes: say which kinds it takes and, when the
    order belongs to another phase, which (W4-TURN-02: the phases come in a fixed order)."""
    kinds = _kinds(decision)
    if order.kind in kinds or decision.accept is not None and order.kind in ORDER_PHASES \
            and ORDER_PHASES[order.kind] == DECISION_PHASES.get(decision.kind):
        return None
    wanted = " or ".join(kinds)
    here = DECISION_PHASES.get(decision.kind) or STATE_PHASES.get(state.phase)
    there = ORDER_PHASES.get(order.kind)
    if here and there and here != there:
        article = "an" if there[0] in "AEIOU" else "a"
        return Refusal(f"'{order.kind}' is {article} {there} phase order; this is the {here} "
                       f"phase, and the question ({decision.kind}) takes {wanted}", "W4-TURN-02")
    return Refusal(f"'{order.kind}' does not answer this question ({decision.kind}); it "
                   f"takes {wanted}", DECISION_RULES.get(decision.kind))


def _unit(state: WarState, order: Order, index: int = 0) -> Unit | Refusal:
    """The unit the order names at argument ``index``: it must exist and be on the table."""
    if len(order.args) <= index:
        return Refusal(f"{order.kind} needs a unit id")
    name = str(order.args[index])
    unit = state.units.get(name)
    if unit is None:
        return Refusal(f"there is no unit {name!r}{did_you_mean(name, state.units)}")
    if not unit.alive:
        return Refusal(f"{unit.id} has been destroyed", "W4-FLEE-06" if unit.fleeing else None)
    return unit


def _own_unit(state: WarState, decision: Decision, order: Order) -> Unit | Refusal:
    """The order's first unit, which must be one of the deciding side's."""
    unit = _unit(state, order)
    if isinstance(unit, Refusal):
        return unit
    if unit.side != decision.side:
        return Refusal(f"{unit.id} belongs to {unit.side}; {decision.side} commands only "
                       "its own units")
    return unit


def _subject(state: WarState, decision: Decision, order: Order) -> Unit | Refusal:
    """The order's first unit, which must be the unit the decision is about."""
    unit = _own_unit(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if decision.subject and unit.id != decision.subject:
        return Refusal(f"this question is about {decision.subject}, not {unit.id}; "
                       f"name {decision.subject} first", DECISION_RULES.get(decision.kind))
    return unit


def _enemy(state: WarState, unit: Unit, order: Order, index: int) -> Unit | Refusal:
    """The order's enemy unit at argument ``index``."""
    target = _unit(state, order, index)
    if isinstance(target, Refusal):
        return target
    if target.side == unit.side:
        return Refusal(f"{target.id} is on {unit.id}'s own side")
    return target


def _no_args(order: Order, decision: Decision) -> Refusal | None:
    if order.args:
        return Refusal(f"'{order.kind}' takes nothing after it",
                       DECISION_RULES.get(decision.kind))
    return None


def _idle(state: WarState, unit: Unit, engaged_rule: str = "W4-AMB-81") -> Refusal | None:
    """Why ``unit`` may not act this phase at all: fleeing or in close combat."""
    if unit.fleeing:
        return Refusal(f"{unit.id} is fleeing: it may only try to rally and fall back",
                       "W4-AMB-18")
    if state.is_engaged(unit.id):
        foes = ", ".join(sorted(state.engaged.get(unit.id, ())))
        return Refusal(f"{unit.id} is in close combat with {foes}", engaged_rule)
    return None


# --------------------------------------------------------------------------- initiative, re-rolls


def _initiative(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    return _no_args(order, decision)


def _reroll(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    return _no_args(order, decision)


# --------------------------------------------------------------------------- movement


def _rally(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if not unit.fleeing:
        return Refusal(f"{unit.id} is not fleeing; only fleeing units rally", "W4-FLEE-10")
    return None


def _compulsory(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _own_unit(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if not unit.fleeing:
        return Refusal(f"{unit.id} is not fleeing: only units that failed (or did not try) "
                       "to rally make compulsory fall back! moves", "W4-FLEE-13")
    return Refusal(f"{unit.id} has already made its fall back! move this phase",
                   "W4-FLEE-16")


def _next_move(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _own_unit(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if unit.fleeing:
        return Refusal(f"{unit.id} is fleeing: its only move is the compulsory fall back!",
                       "W4-FLEE-13")
    if state.is_engaged(unit.id) and not unit.prone:
        return Refusal(f"{unit.id} is in close combat and cannot move", "W4-AMB-81")
    if unit.reformed and unit.rallied:
        return Refusal(f"{unit.id} rallied and reformed: its move action is spent",
                       "W4-FLEE-12")
    return Refusal(f"{unit.id} has already moved this phase (one move action)", "W4-MOVE-02")


# --------------------------------------------------------------------------- shooting


def _shooting_blocker(state: WarState, unit: Unit) -> Refusal | None:
    """W4-AMB-18/80/91, W4-MOVE-17/19: why ``unit`` may not shoot this phase."""
    idle = _idle(state, unit, "W4-AMB-80")
    if idle is not None:
        return idle
    if unit.reformed:
        return Refusal(f"{unit.id} reformed this turn and cannot shoot", "W4-MOVE-17")
    if unit.shot:
        return Refusal(f"{unit.id} has already shot this phase (its standard action is "
                       "spent)", "W4-SHOOT-04")
    if unit.double_moved:
        return Refusal(f"{unit.id} made a double move: both its actions are spent",
                       "W4-MOVE-19")
    if unit.standard_used:
        return Refusal(f"{unit.id} has spent its standard action (ran or charged)",
                       "W4-SHOOT-04")
    return None


def _shooter(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.dnd4e_war import shooting

    unit = _own_unit(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    blocked = _shooting_blocker(state, unit)
    if blocked is not None:
        return blocked
    if not unit.powers(*shooting.SHOOTING_KINDS):
        return Refusal(f"{unit.id} has no ranged or area power", "W4-SHOOT-03")
    return Refusal(f"{unit.id} has no enemy it can shoot: none is in range, in its arc of "
                   "sight and visible", "W4-SHOOT-06")


def _power_named(unit: Unit, name: str, kinds: tuple[str, ...]) -> Power | Refusal:
    from warhost.rulesets.dnd4e_war import shooting

    for power in unit.powers():
        if shooting.slug(power.name) == name:
            return power
    names = [shooting.slug(p.name) for p in unit.powers(*kinds)]
    return Refusal(f"{unit.id} has no power {name!r}{did_you_mean(name, names)} "
                   f"(its shooting powers: {', '.join(names) or 'none'})", "W4-SHOOT-03")


def _shooting_power(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.dnd4e_war import shooting

    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if len(order.args) != 2:
        return Refusal(f"use needs the unit and a power, as in 'use {unit.id} POWER'",
                       "W4-SHOOT-03")
    power = _power_named(unit, str(order.args[1]), shooting.SHOOTING_KINDS)
    if isinstance(power, Refusal):
        return power
    if power.kind not in shooting.SHOOTING_KINDS:
        return Refusal(f"{power.name} is a {power.kind.replace('_', ' ')} power: close "
                       "attacks are made in close combat, not in the Shooting phase",
                       "W4-AMB-49")
    return Refusal(f"{power.name} has nothing to aim at: no enemy in range, in the arc of "
                   "sight and visible", "W4-SHOOT-06")


def _shooting_target(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.dnd4e_war import shooting

    unit = state.units.get(decision.subject)
    if unit is None:
        return None
    target = _enemy(state, unit, order, 0)
    if isinstance(target, Refusal):
        return target
    offered = {str(o.args[0]) for o in decision.options if o.args}
    powers = [p for p in unit.powers("ranged")
              if {t.id for t in shooting.legal_targets(state, unit, p)} == offered]
    power = powers[0] if powers else max(unit.powers("ranged"), key=lambda p: p.range,
                                         default=None)
    if state.is_engaged(target.id) and not state.options.shoot_into_combat:
        return Refusal(f"{target.id} is in close combat; nobody shoots into a melee "
                       "(option shoot_into_combat)", "W4-AMB-80")
    if power is not None and not shooting.in_range(state, unit, target, power):
        return Refusal(f"{target.id} is {state.gap(unit, target):.2f}\" away; {power.name} "
                       f"reaches {power.range:g}\"", "W4-SHOOT-06")
    if not shooting.in_arc(unit, target):
        return Refusal(f"{target.id} is not in the arc of sight of any company of {unit.id}",
                       "W4-SHOOT-08")
    return Refusal(f"no company of {unit.id} has a clear line of sight to {target.id}",
                   "W4-SHOOT-09")


def _multiattack(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.dnd4e_war import shooting

    unit = state.units.get(decision.subject)
    choice = str(order.args[0]) if len(order.args) == 1 else ""
    if choice not in shooting.MULTIATTACK_CHOICES:
        return Refusal(f"multiattack takes one of {', '.join(shooting.MULTIATTACK_CHOICES)}",
                       "W4-DEC-16")
    if unit is None:
        return None
    if choice in ("all", "captain") and (unit.captain is None or unit.captain_attacks <= 1):
        return Refusal(f"{unit.id} has no captain with more than 1 attack", "W4-STAT-09")
    return Refusal(f"the models of {unit.id} have 1 attack: they cannot multiattack",
                   "W4-STAT-09")


# --------------------------------------------------------------------------- charges


def _charge(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    return charge_refusal(state, unit, order)


def charge_refusal(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``order`` is not a legal charge declaration of ``unit`` (None: it is one)."""
    from warhost.rulesets.dnd4e_war import charge

    if order.kind == "hold":
        return Refusal(f"hold takes only the unit, as in 'hold {unit.id}'", "W4-DEC-20")
    if len(order.args) != 2:
        return Refusal(f"charge needs the unit and its target, as in 'charge {unit.id} "
                       "TARGET'", "W4-CHARGE-02")
    target = _enemy(state, unit, order, 1)
    if isinstance(target, Refusal):
        return target
    if target not in charge.visible_targets(state, unit):
        where = "" if unit.skirmish else " in its front arc"
        return Refusal(f"{unit.id} cannot see {target.id}{where}; a unit charges only an "
                       "enemy it can see", "W4-CHARGE-04")
    return None


def _next_charge(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _own_unit(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if unit.charged:
        return Refusal(f"the charge of {unit.id} has already moved", "W4-DEC-20")
    return Refusal(f"{unit.id} has no charge waiting to move: it declared none, or its "
                   "charge already failed", "W4-CHARGE-02")


def _spearhead(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    slot = order.args[1] if len(order.args) == 2 else None
    if not isinstance(slot, int):
        return Refusal(f"spearhead needs the unit and a company number, as in 'spearhead "
                       f"{unit.id} 0'", "W4-CHARGE-10")
    front = len(unit.companies) if unit.skirmish else min(unit.files, len(unit.companies))
    what = "model" if unit.skirmish else "front-rank company"
    if 0 <= slot < len(unit.companies):
        return Refusal(f"company {slot} is not in the front rank: the spearhead is a "
                       f"{what}, numbered 0 to {front - 1}", "W4-CHARGE-10")
    return Refusal(f"{unit.id} has no {what} {slot} (0 to {front - 1})", "W4-CHARGE-10")


# --------------------------------------------------------------------------- close combat


def _fight(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _unit(state, order)
    if isinstance(unit, Refusal):
        return unit
    if not state.is_engaged(unit.id):
        return Refusal(f"{unit.id} is not in close combat", "W4-MELEE-03")
    group = next((g for g in state.fights() if unit.id in g), [unit.id])
    offered = {str(o.args[0]) for o in decision.options if o.args}
    if offered.intersection(group):
        name = offered.intersection(group).pop()
        return Refusal(f"{unit.id} fights in the combat named by its first unit: "
                       f"'fight {name}'", "W4-MELEE-01")
    return Refusal(f"the combat of {unit.id} has already been fought this phase",
                   "W4-MELEE-01")


def _support(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    slot = order.args[1] if len(order.args) == 2 else None
    if not isinstance(slot, int):
        return Refusal(f"{order.kind} needs the unit and a company number, as in "
                       f"'{order.kind} {unit.id} 1'", "W4-DEC-25")
    if not 0 <= slot < len(unit.companies):
        return Refusal(f"{unit.id} has no company {slot}", "W4-DEC-25")
    if unit.is_monster:
        return Refusal(f"{unit.id} is made of monsters: no supporting companies",
                       "W4-MONSTER-09")
    if unit.skirmish:
        return Refusal(f"{unit.id} are skirmishers: no supporting companies", "W4-SKIRM-10")
    if 2 * unit.companies[slot] < unit.company_size:
        return Refusal(f"company {slot} of {unit.id} has lost more than half its models",
                       "W4-RESOLVE-09")
    if 2 * _engaged_front(state, unit, slot) >= unit.front_row(slot):
        return Refusal(f"company {slot} of {unit.id} has half or more of its front row "
                       "engaged: it must fight", "W4-RESOLVE-09")
    return Refusal(f"this question is about another company of {unit.id}, not {slot}",
                   "W4-DEC-25")


def _engaged_front(state: WarState, unit: Unit, slot: int) -> int:
    """Front-row models of company ``slot`` fighting an enemy, as the support rule counts
    them."""
    from warhost.rulesets.dnd4e_war import melee

    power = melee.melee_power(unit)
    reach = power.reach if power else 1
    groups = melee.fighters(state, unit, state.foes_of(unit.id), reach)
    return sum(g.front for g in groups if g.slot == slot)


def _pursue(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if order.kind == "hold":
        return Refusal(f"hold takes only the unit, as in 'hold {unit.id}'", "W4-DEC-27")
    if len(order.args) != 2:
        return Refusal(f"pursue needs the unit and the fled enemy, as in 'pursue {unit.id} "
                       "ENEMY'", "W4-BREAK-04")
    quarry = _enemy(state, unit, order, 1)
    if isinstance(quarry, Refusal):
        return quarry
    return Refusal(f"{quarry.id} did not flee from this combat; a winner pursues only a unit "
                   "that fled from its own fight", "W4-BREAK-04")


def _melee_power(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    from warhost.rulesets.dnd4e_war import melee

    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    powers = melee.usable_powers(unit)
    listed = ", ".join(f"{i}: {p.name}" for i, p in enumerate(powers))
    return Refusal(f"power needs the unit and the number of one of its melee powers ({listed}), "
                   f"as in 'power {unit.id} 0'", "W4-DEC-26")


_BY_KIND: dict[str, Explainer] = {
    "initiative": _initiative,
    "reroll": _reroll,
    "rally": _rally,
    "compulsory_move": _compulsory,
    "next_move": _next_move,
    "shooter": _shooter,
    "shooting_power": _shooting_power,
    "shooting_target": _shooting_target,
    "multiattack": _multiattack,
    "charge": _charge,
    "next_charge": _next_charge,
    "spearhead": _spearhead,
    "power": _melee_power,
    "fight": _fight,
    "support": _support,
    "pursue": _pursue,
}
