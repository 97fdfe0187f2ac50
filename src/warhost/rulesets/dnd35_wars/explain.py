"""Why an order is refused in `dnd35-wars`, with the rule behind it (the ruleset's explanation
hook; the decisions are the catalog's W35-DEC items).

The engine asks only about orders that are not legal answers, so nothing here is on a hot
path. The reason is looked for in this order: an order of a kind the question never takes; a
unit that does not exist, belongs to the other side or is not the one asked about; then, for
the unit action, why that action or target is not open to the unit now (no ranged weapon, a
target that is a friend, not in side contact, too close to charge or to shoot, out of range).
Orders the checks above find nothing wrong with go to the decision's own judge
(``decision.accept``: a move to a square no option lists, say), and failing that the order is
said not to be one of the legal ones, with the decision's rule.
"""

from __future__ import annotations

from collections.abc import Callable

from warhost.core.decisions import Decision, Refusal, did_you_mean, not_offered
from warhost.core.orders import Order
from warhost.geometry.grid import Square, share_side, unit_distance
from warhost.rulesets.dnd35_wars import tables
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

Explainer = Callable[[WarState, Decision, Order], "Refusal | None"]

DECISION_RULES: dict[str, str] = {
    "unit_action": "W35-DEC-12",
    "formation": "W35-DEC-18",
    "place_counter": "W35-DEC-18",
    "remove_counters": "W35-DEC-19",
    "melee_split": "W35-DEC-15",
    "fire_plan": "W35-DEC-16",
    "cleave": "W35-DEC-28",
    "in_unit_order": "W35-DEC-29",
    "stay_with_unit": "W35-DEC-30",
    "front_line": "W35-DEC-31",
    "single_action": "W35-DEC-33",
    "pc_stays": "W35-DEC-34",
    "squad_leave": "W35-DEC-35",
    "hindered": "W35-DEC-21",
    "return_square": "W35-DEC-22",
    "charmed_new_unit": "W35-DEC-22",
}
"""The catalog decision behind each decision kind put to a commander."""

ATTACK_KINDS = ("melee", "charge", "shoot")
"""Unit attack orders naming a target after the unit (W35-UATK)."""


def explain_refusal(state: object, decision: Decision, order: Order) -> Refusal | None:
    """Why ``order`` does not answer ``decision``, with a rule ID where one applies (None:
    the engine's generic reason)."""
    if not isinstance(state, WarState):
        return _judged(decision, order)
    wrong = _wrong_kind(decision, order)
    if wrong is not None:
        return wrong
    explain = _BY_KIND.get(decision.kind)
    found = explain(state, decision, order) if explain is not None else None
    if found is None:
        found = _judged(decision, order)
    if found is None and decision.kind in DECISION_RULES:
        return not_offered(decision, order, DECISION_RULES.get(decision.kind))
    return found


# --------------------------------------------------------------------------- shared checks


def unit_action_kinds() -> tuple[str, ...]:
    """Every order kind a unit action may take (W35-UMOVE-01): hold, the move, attack and
    defence actions, and the plug-in modules' own (siege weapons, towers, rams, casting)."""
    from warhost.rulesets.dnd35_wars import actions, combat, defence, movement

    plugged = tuple(kind for plugin in actions.PLUGINS for kind in plugin.ORDER_KINDS)
    return ("hold", *movement.ORDER_KINDS, *combat.ORDER_KINDS, *defence.ORDER_KINDS, *plugged)


def _kinds(decision: Decision) -> list[str]:
    kinds = {o.kind for o in decision.options}
    if decision.kind == "unit_action":
        kinds.update(unit_action_kinds())
    return sorted(kinds)


def _wrong_kind(decision: Decision, order: Order) -> Refusal | None:
    """An order of a kind the question never takes: say which kinds it takes."""
    kinds = _kinds(decision)
    if order.kind in kinds or not kinds:
        return None
    return Refusal(f"'{order.kind}' does not answer this question ({decision.kind}); it "
                   f"takes {' or '.join(kinds)}", DECISION_RULES.get(decision.kind))


def _judged(decision: Decision, order: Order) -> Refusal | None:
    """The decision's own refusal of ``order``, if it is open and refuses it."""
    if decision.accept is None:
        return None
    verdict = decision.accept(order)
    return verdict if isinstance(verdict, Refusal) else None


def _unit(state: WarState, order: Order, index: int = 0) -> Unit | Refusal:
    """The unit the order names at argument ``index``: it must exist and be on the map."""
    if len(order.args) <= index:
        return Refusal(f"{order.kind} needs a unit id")
    name = str(order.args[index])
    unit = state.units.get(name)
    if unit is None:
        return Refusal(f"there is no unit {name!r}{did_you_mean(name, state.units)}")
    if not unit.on_map:
        return Refusal(f"{unit.id} is no longer on the battlefield ({unit.status})")
    return unit


def _subject(state: WarState, decision: Decision, order: Order) -> Unit | Refusal:
    """The order's first unit: one of the deciding side's, and the one asked about."""
    unit = _unit(state, order)
    if isinstance(unit, Refusal):
        return unit
    if unit.side != decision.side:
        return Refusal(f"{unit.id} belongs to {unit.side}; {decision.side} commands only "
                       "its own units")
    if decision.subject and unit.id != decision.subject:
        return Refusal(f"this question is about {decision.subject}, not {unit.id}; "
                       f"name {decision.subject} first", DECISION_RULES.get(decision.kind))
    return unit


def _target(state: WarState, unit: Unit, name: str) -> tuple[str, frozenset[Square]] | Refusal:
    """The enemy ``name`` that an attack order of ``unit`` names: its id and squares."""
    other: Unit | Single | None = state.units.get(name) or state.singles.get(name)
    if other is None:
        return Refusal(f"there is nothing called {name!r} on the battlefield"
                       f"{did_you_mean(name, [*state.units, *state.singles])}")
    if other.side == unit.side:
        return Refusal(f"{other.id} is on {unit.id}'s own side; attack only enemies")
    if isinstance(other, Unit):
        if not other.on_map:
            return Refusal(f"{other.id} is no longer on the battlefield ({other.status})")
        return other.id, frozenset(other.squares)
    if other.alive and other.host == unit.id:  # an enemy inside the unit itself
        return other.id, frozenset(unit.squares)
    if other.alive and other.host is not None:
        return Refusal(f"{other.id} is embedded among its allies in {other.host}; a unit "
                       "attacks a singular creature only outside a unit hostile to it",
                       "W35-DMG-08")
    if not other.independent or other.square is None:
        return Refusal(f"{other.id} is out of the battle ({other.status})")
    return other.id, frozenset({other.square})


# --------------------------------------------------------------------------- the unit action


def _unit_action(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    """W35-DEC-12: the unit, then whatever keeps this action or target from it now."""
    unit = _subject(state, decision, order)
    if isinstance(unit, Refusal):
        return unit
    if unit.routed:
        return Refusal(f"{unit.id} is routed: it disengages and flees, and chooses no action",
                       "W35-MORALE-07")
    if order.kind == "hold":
        return Refusal(f"hold takes only the unit, as in 'hold {unit.id}'", "W35-UMOVE-04") \
            if len(order.args) > 1 else None
    if order.kind not in ATTACK_KINDS:
        return None  # moves and defence actions: the decision's own judge says why
    if len(order.args) < 2:
        return Refusal(f"{order.kind} needs the unit and its target, as in "
                       f"'{order.kind} {unit.id} TARGET'", "W35-DEC-12")
    for name in target_names(order):
        target = _target(state, unit, name)
        if isinstance(target, Refusal):
            return target
        found = _ATTACKS[order.kind](state, unit, *target)
        if found is not None:
            return found
    return None


def target_names(order: Order) -> list[str]:
    """The targets an attack order names after the unit: ``b``, ``b,c`` (melee on every
    engaged unit) or ``b:3,c:2`` (counters firing at each, W35-MULTI-07)."""
    return [part.partition(":")[0] for part in str(order.args[1]).split(",") if part]


def _melee(state: WarState, unit: Unit, target: str, squares: frozenset[Square]) -> Refusal | None:
    """W35-UATK-07, W35-AMB-38: side contact, and no new foe while engaged."""
    if unit.melee is None:
        return Refusal(f"{unit.id} has no melee attack")
    if target in state.singles:  # a creature alone is reached from a corner too
        if unit_distance(unit.squares, squares) > 1:
            return Refusal(f"{target} is not next to any counter of {unit.id}", "W35-AMB-31")
        return None
    if not share_side(unit.squares, squares):
        return Refusal(f"no counter of {unit.id} shares a side with {target}; a melee attack "
                       "needs side contact", "W35-UATK-07")
    engaged = state.foes_engaged(unit.id)
    if engaged and target not in engaged:
        foes = ", ".join(sorted(engaged))
        return Refusal(f"{unit.id} is engaged with {foes} and cannot start a melee with "
                       f"{target}", "W35-AMB-38")
    return None


def _charge(state: WarState, unit: Unit, target: str, squares: frozenset[Square]) -> Refusal | None:
    """W35-UATK-02, W35-AMB-40, W35-DEFEND-12, W35-TERR-13: who may charge whom."""
    if unit.melee is None:
        return Refusal(f"{unit.id} has no melee attack to charge with")
    if state.foes_engaged(unit.id):
        foes = ", ".join(sorted(state.foes_engaged(unit.id)))
        return Refusal(f"{unit.id} is engaged with {foes}; an engaged unit moves only by "
                       "Disengage", "W35-AMB-37")
    if unit.phalanx:
        return Refusal(f"{unit.id} is in phalanx and cannot charge", "W35-DEFEND-12")
    if any(sq in state.water for sq in unit.squares):
        return Refusal(f"{unit.id} has counters in the water and cannot charge", "W35-TERR-13")
    gap = unit_distance(unit.squares, squares)
    if gap < 2:
        return Refusal(f"{target} is {gap} square away; a charge starts at least 2 squares "
                       "from its target", "W35-UATK-02")
    if unit.rate < 1 and not unit.mob:
        return Refusal(f"{unit.id} moves less than 1 square a round and cannot charge",
                       "W35-AMB-40")
    return None


def _shoot(state: WarState, unit: Unit, target: str, squares: frozenset[Square]) -> Refusal | None:
    """W35-UATK-09/10/11/13, W35-MULTI-06, W35-DEFEND-13: who may shoot at whom."""
    if unit.ranged is None or unit.ranged.range_increment is None:
        return Refusal(f"{unit.id} has no ranged weapons", "W35-UATK-09")
    if unit.phalanx:
        return Refusal(f"{unit.id} is in phalanx and cannot make ranged attacks",
                       "W35-DEFEND-13")
    if state.foes_engaged(unit.id):
        foes = ", ".join(sorted(state.foes_engaged(unit.id)))
        return Refusal(f"{unit.id} is engaged in melee with {foes}; only a unit not engaged "
                       "may shoot", "W35-MULTI-06")
    gap = unit_distance(unit.squares, squares)
    if gap < 2:
        return Refusal(f"{target} is next to {unit.id}; ranged attacks need an empty square "
                       "between the firing counters and the target", "W35-UATK-10")
    feet = tables.distance_feet(gap, state.scale)
    increment = _increment(unit)
    if not tables.in_range(feet, increment, unit.ranged.thrown):
        most = tables.max_increments(unit.ranged.thrown)
        rule = "W35-AMB-36" if unit.ranged.thrown else "W35-UATK-13"
        return Refusal(f"{target} is {feet} ft away; {unit.id}'s {increment}-ft range "
                       f"increment reaches {most * increment} ft ({most} increments)", rule)
    return None


def _increment(unit: Unit) -> int:
    """The unit's range increment in feet, as the combat rules reckon it (Far Shot ...)."""
    from warhost.rulesets.dnd35_wars import combat

    assert unit.ranged is not None and unit.ranged.range_increment is not None
    reckon = getattr(combat, "range_increment", None)  # the combat module's, once it has one
    found = reckon(unit) if reckon is not None else None
    return int(found) if found is not None else unit.ranged.range_increment


_ATTACKS: dict[str, Callable[[WarState, Unit, str, frozenset[Square]], Refusal | None]] = {
    "melee": _melee,
    "charge": _charge,
    "shoot": _shoot,
}


# --------------------------------------------------------------------------- other decisions


def _about_subject(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    """Decisions about one unit whose orders name it first: the unit must be that one."""
    if not order.args or str(order.args[0]) not in state.units:
        return None
    unit = _subject(state, decision, order)
    return unit if isinstance(unit, Refusal) else None


def _about_single(state: WarState, decision: Decision, order: Order) -> Refusal | None:
    """Decisions about one singular creature whose orders name it first."""
    if not order.args:
        return None
    name = str(order.args[0])
    single = state.singles.get(name)
    if single is None:
        if name in state.units:
            return None
        return Refusal(f"there is no creature {name!r}{did_you_mean(name, state.singles)}")
    if single.side != decision.side:
        return Refusal(f"{single.id} belongs to {single.side}; {decision.side} commands only "
                       "its own creatures")
    if decision.subject and name != decision.subject:
        return Refusal(f"this question is about {decision.subject}, not {name}",
                       DECISION_RULES.get(decision.kind))
    if not single.alive:
        return Refusal(f"{single.id} is out of the battle ({single.status})")
    return None


_BY_KIND: dict[str, Explainer] = {
    "unit_action": _unit_action,
    "formation": _about_subject,
    "place_counter": _about_subject,
    "remove_counters": _about_subject,
    "melee_split": _about_subject,
    "fire_plan": _about_subject,
    "cleave": _about_subject,
    "in_unit_order": _about_single,
    "stay_with_unit": _about_single,
    "front_line": _about_single,
    "single_action": _about_single,
    "pc_stays": _about_single,
    "squad_leave": _about_single,
}
