"""In-unit actions (W35-INUNIT, W35-ROUND-06/10): what the singular creatures inside a unit do
in step 2 of its turn, before the unit action (W35-INUNIT-04).

With enemy creatures inside, one round of in-unit combat comes first (W35-INUNIT-06/07):
the unit's free attack on each of them, then the allied creatures act, then the enemies
inside act. Allied creatures act in the order they choose (W35-INUNIT-02, W35-DEC-29;
default: descending initiative modifier, W35-AMB-64). Each first chooses whether to spend
its round keeping up with the unit in case it moves or charges (W35-INUNIT-05, W35-DEC-30);
one that acts instead is left behind if the unit then moves (:func:`after_unit_action`).
Inside a phalanx they may not attack (W35-DEFEND-16, W35-AMB-29). At the end each chooses
the front line or the back (W35-COLL-02/03, W35-DEC-31).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import Square, translate
from warhost.rulesets.dnd35_wars import damage, magic, singles
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("sorder", "sstay", "sact", "sfront", "sback")
"""Order kinds of the decisions ``in_unit_order``, ``stay_with_unit`` and ``front_line``."""

MAX_LISTED_ORDERS = 4
"""Up to this many creatures every order of acting is listed; beyond, the default and its
reverse (any other order is judged by ``accept``)."""


def in_unit_actions(state: WarState, battle: Battle, unit: Unit) -> None:
    """Step 2 of the unit's turn: in-unit combat and the embedded creatures' actions."""
    for single in state.singles_in(unit):  # enemies inside renew on their own turn, step (3)
        single.stays = False
        singles.new_turn(single)
        singles.seat(state, single)
    eject(state, battle, unit)
    foes = singles.intruders(state, unit)
    if foes:
        battle.emit("in_unit_combat", unit=unit.id, foes=[f.id for f in foes])
    for foe in foes:
        free_attack(state, battle, unit, foe)
    for single in acting_order(state, battle, unit):
        if single.alive and single.host == unit.id and not magic.busy(state, battle, single) \
                and not stays(state, battle, unit, single):
            embedded_action(state, battle, unit, single)
    for foe in singles.intruders(state, unit):
        singles.single_turn(state, battle, foe)
    for single in state.singles_in(unit):
        front_line(battle, unit, single)


def free_attack(state: WarState, battle: Battle, unit: Unit, foe: Single) -> None:
    """(1) of W35-INUNIT-07: the unit attacks an enemy inside it, surrounded (W35-DMG-09/10)."""
    if unit.melee is None or not foe.alive:
        return
    damage.unit_attacks_single(state, battle, unit, foe, ranged=False)
    singles.fallen(state, battle, foe, True)


# ---- the order of acting (W35-INUNIT-02, W35-DEC-29, W35-AMB-64)

def default_order(state: WarState, unit: Unit) -> list[Single]:
    """Descending initiative modifier, ties in the order they joined the unit."""
    allies = state.singles_in(unit)
    return sorted(allies, key=lambda s: (-s.creature.initiative, allies.index(s)))


def acting_order(state: WarState, battle: Battle, unit: Unit) -> list[Single]:
    """The allied creatures inside in the order they act (decision ``in_unit_order``)."""
    default = default_order(state, unit)
    if len(default) < 2:
        return default
    ids = [s.id for s in default]
    orders = ([list(p) for p in permutations(ids)] if len(ids) <= MAX_LISTED_ORDERS
              else [ids, ids[::-1]])
    options = tuple(Order.of("sorder", unit.id, ",".join(o)) for o in orders)
    chosen = battle.ask(unit.side, "in_unit_order", options,
                        f"{unit.label}: order of in-unit actions?", unit.id,
                        default=options[0], accept=judge_order(ids))
    battle.emit("in_unit_order", unit=unit.id, order=str(chosen.args[1]).split(","))
    return [state.singles[s] for s in str(chosen.args[1]).split(",")]


def judge_order(ids: list[str]) -> Callable[[Order], Order | Refusal]:
    """Any order naming each creature inside exactly once."""
    def accept(order: Order) -> Order | Refusal:
        named = str(order.args[1]).split(",") if len(order.args) > 1 else []
        if order.kind == "sorder" and sorted(named) == sorted(ids):
            return order
        return Refusal(f"{order} must name each of {', '.join(ids)} once", rule="W35-INUNIT-02")
    return accept


# ---- staying with the unit (W35-INUNIT-05, W35-DEC-30)

def stays(state: WarState, battle: Battle, unit: Unit, single: Single) -> bool:
    """Whether ``single`` spends its round on the double move that keeps it with the unit
    (decision ``stay_with_unit``; default: stay unless an enemy is in its reach)."""
    stay, act = Order.of("sstay", single.id), Order.of("sact", single.id)
    busy = bool(singles.foe_targets(state, single)) and not unit.phalanx
    order = battle.ask(single.side, "stay_with_unit", (stay, act),
                       f"{single.label}: keep up with {unit.label} or act?", single.id,
                       default=act if busy else stay)
    single.stays = order.kind == "sstay"
    if single.stays:
        battle.emit("stays_with_unit", who=single.id, unit=unit.id)
    return single.stays


def embedded_action(state: WarState, battle: Battle, unit: Unit, single: Single) -> None:
    """A full round of an embedded creature (W35-INUNIT-03): an attack on an enemy in its
    reach (none inside a phalanx, W35-DEFEND-16), total defense, or leaving the unit
    (W35-NPC-06)."""
    options = [Order.of("shold", single.id), Order.of("sdefend", single.id)]
    if not unit.phalanx:
        options += singles.attack_options(state, single)
    options += singles.leave_options(state, single)
    options += magic.cast_options(state, single)
    order = battle.ask(single.side, "single_action", tuple(options),
                       f"{single.label} inside {unit.label}: action?", single.id,
                       default=singles.default_of(options),
                       accept=singles.refuse(state, single))
    singles.take(state, battle, single, order)


def front_line(battle: Battle, unit: Unit, single: Single) -> None:
    """The front line or the back (decision ``front_line``, default back)."""
    front, back = Order.of("sfront", single.id), Order.of("sback", single.id)
    order = battle.ask(single.side, "front_line", (back, front),
                       f"{single.label}: front line or back of {unit.label}?", single.id,
                       default=back)
    if (order.kind == "sfront") != single.front_line:
        single.front_line = order.kind == "sfront"
        battle.emit("front_line", who=single.id, unit=unit.id, front=single.front_line)


# ---- W35-AMB-63 eject

def eject(state: WarState, battle: Battle, unit: Unit) -> None:
    """Under option ``eject``, NPCs beyond the counter rule leave now (W35-AMB-63, DEC-36:
    the commander picks which and where; decision ``npc_eject``)."""
    if state.options.npc_counter_rule_in_play != "eject":
        return
    for single in state.singles_in(unit):
        singles.seat(state, single)
    while unit.counters < singles.npcs_in(state, unit) + 1:
        options = [o for s in state.singles_in(unit) if s.kind == "npc"
                   for o in singles.leave_options(state, s)]
        if not options:
            return
        order = battle.ask(unit.side, "npc_eject", tuple(options),
                           f"{unit.label}: which NPC leaves, and where?", unit.id,
                           default=options[0])
        singles.take(state, battle, state.singles[str(order.args[0])], order)


# ---- after the unit action

def after_unit_action(state: WarState, battle: Battle, unit: Unit, before: frozenset[Square]) -> None:
    """When the unit moved, those that kept up ride along; the others are left behind on their
    squares and act alone from the next round (W35-INUNIT-05, W35-ROUND-07)."""
    moved = unit.on_map and not unit.squares <= before
    carried = _offset(before, frozenset(unit.squares)) if moved else None
    for single in state.singles_in(unit):
        if moved and not single.stays:
            battle.emit("left_behind", who=single.id, unit=unit.id)
            singles.release(state, single, unit.id)
        elif moved and single.square is not None:
            if carried is not None:
                single.square = (single.square[0] + carried[0], single.square[1] + carried[1])
            singles.seat(state, single)
        single.stays = False
    if moved:
        singles.tidy(state, battle)


def _offset(before: frozenset[Square], after: frozenset[Square]) -> Square | None:
    """The shift that carries ``before`` onto ``after``, if the unit moved as one block."""
    if not before or len(before) != len(after):
        return None
    dx, dy = min(after)[0] - min(before)[0], min(after)[1] - min(before)[1]
    return (dx, dy) if translate(before, dx, dy) == after else None
