"""The `ai` commander of `dnd35-wars`.

Every decision the ruleset asks is answered from the legal options it offers:

* ``unit_action``: each order scored in expected hit points (:mod:`ai_units`): attacks by
  what they take now, moves by what the position opens next turn less what the enemy could do
  there, set against charge when an enemy can charge, shooters kept out of contact at the
  increment that pays, a losing unit near its half/quarter HP threshold pulled back, units
  fighting an ally ganged up on; it never splits, regroups or forms a phalanx (a phalanx
  halves its move and bars its charges for the rest of the battle); war machines by
  :mod:`ai_siege` (rams and towers head for their walls, siege weapons batter the gate or the
  weakest section) and each plug-in's ``ai_value``;
* ``formation``: engaged and winning the exchange, the arrangement with the most counters in
  side contact with its foes; otherwise the formation is kept (a phalanx is dropped once no
  enemy is near);
* ``melee_split``: each counter strikes where one counter takes most; ``fire_plan``: the
  volley that takes most; ``cleave``: always;
* ``single_action``, ``stay_with_unit``, ``front_line``: :mod:`ai_singles`;
* everything else (``remove_counters``, ``split_join``, ``in_unit_order``, ``npc_eject``,
  ``pc_stays``, ``place_counter``): the decision's default.

Cost: each judgement looks at the offered options and the enemies near the decider.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.geometry.grid import side_contacts
from warhost.rulesets.dnd35_wars import ai_singles, ai_units, combat, movement
from warhost.rulesets.dnd35_wars.ai_judge import NEAR, box, box_gap, contacts, unit_on_unit
from warhost.rulesets.dnd35_wars.state import Unit, WarState

Chooser = Callable[[Decision, WarState], Order | None]


class WarsAI(Commander):
    """Scores the offered orders by expected hit points taken and risked."""

    kind = "ai"

    def choose(self, decision: Decision, state: Any) -> Order:
        chooser = CHOOSERS.get(decision.kind)
        if chooser is not None and isinstance(state, WarState) and decision.options:
            order = chooser(decision, state)
            if order is not None:
                return order
        return decision.default if decision.default is not None else decision.options[0]


def _unit_action(decision: Decision, state: WarState) -> Order | None:
    return ai_units.choose(state, str(decision.subject), decision.options)


def _subject_unit(decision: Decision, state: WarState) -> Unit | None:
    return state.units.get(str(decision.subject)) if decision.subject else None


def _melee_split(decision: Decision, state: WarState) -> Order | None:
    unit = _subject_unit(decision, state)
    if unit is None:
        return None

    def worth(order: Order) -> float:
        target = state.units.get(str(order.args[2]))
        if target is None:
            return 0.0
        finish = 2.0 if 2 * target.hp <= target.start_hp else 1.0
        return unit_on_unit(state, unit, target, "melee", 1) * finish

    return max(decision.options, key=worth)


def _fire_plan(decision: Decision, state: WarState) -> Order | None:
    unit = _subject_unit(decision, state)
    if unit is None:
        return None

    def worth(order: Order) -> float:
        plan = combat.parse_plan(str(order.args[1]))
        return ai_units.fire_plan_value(state, unit, {t: n or 0 for t, n in plan.items()})

    return max(decision.options, key=worth)


def _formation(decision: Decision, state: WarState) -> Order | None:
    unit = _subject_unit(decision, state)
    if unit is None:
        return None
    keep = decision.options[0]
    drop = next((o for o in decision.options if o.kind == "drop_phalanx"), None)
    engaged = combat.engaged_units(state, unit)
    if drop is not None and not engaged and not _enemy_near(state, unit, 4):
        return drop
    if not engaged or unit.melee is None:
        return keep
    mine = sum(unit_on_unit(state, unit, f, "melee", 1) for f in engaged)
    theirs = sum(unit_on_unit(state, f, unit, "melee", 1) for f in engaged
                 if f.melee is not None and f.can_fight)
    if mine <= theirs:
        return keep
    best, most = keep, sum(contacts(unit.squares, f) for f in engaged)
    for order in decision.options:
        if order.kind != "formation" or str(order.args[1]) == "keep":
            continue
        squares = movement.parse_squares(str(order.args[1]))
        if squares is None:
            continue
        count = sum(len(side_contacts(squares, f.squares)) for f in engaged)
        if count > most:
            best, most = order, count
    return best


def _enemy_near(state: WarState, unit: Unit, gap: int) -> bool:
    here = box(unit.squares)
    return any(box_gap(here, box(f.squares)) <= gap
               for f in state.units_of(state.other(unit.side)))


def _single_action(decision: Decision, state: WarState) -> Order | None:
    single = state.singles.get(str(decision.subject))
    return ai_singles.action(state, single, decision.options) if single is not None else None


def _stay_with_unit(decision: Decision, state: WarState) -> Order | None:
    single = state.singles.get(str(decision.subject))
    return ai_singles.stay_with_unit(state, single, decision.options) if single else None


def _front_line(decision: Decision, state: WarState) -> Order | None:
    single = state.singles.get(str(decision.subject))
    return ai_singles.front_line(state, single, decision.options) if single else None


def _cleave(decision: Decision, state: WarState) -> Order | None:
    return next((o for o in decision.options if o.kind == "cleave"), None)


CHOOSERS: dict[str, Chooser] = {
    "unit_action": _unit_action,
    "formation": _formation,
    "melee_split": _melee_split,
    "fire_plan": _fire_plan,
    "cleave": _cleave,
    "single_action": _single_action,
    "stay_with_unit": _stay_with_unit,
    "front_line": _front_line,
}
"""The decisions the AI judges itself; any other takes its default."""

__all__ = ["NEAR", "WarsAI"]
