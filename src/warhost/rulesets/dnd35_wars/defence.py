"""Unit defence actions (W35-DEFEND, W35-AMB-67/68): set against a charge, and the phalanx.

A set unit meets a charge with opposed Reflex saves and, if it wins, strikes the charger with
its reach weapons before the charger can attack (:func:`repel_charge`). A phalanx is formed
once and kept; its effects on attacks and AC are read from ``unit.phalanx`` by :mod:`combat`
(AC, attack limits), by the movement rules (halved rate) and by the in-unit actions (embedded
creatures may not attack).
"""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import side_contacts
from warhost.rulesets.dnd35_wars import damage, morale
from warhost.rulesets.dnd35_wars.state import Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("set", "phalanx")
"""The order kinds this module offers and carries out."""

SET_MELEE_AC = 2
"""W35-DEFEND-06: a set unit's AC bonus against ordinary melee attacks."""
PHALANX_RANGED_AC = 8
"""W35-DEFEND-11: a phalanx's AC bonus against ranged weapons other than crossbows."""
PHALANX_OTHER_AC = 4
"""W35-DEFEND-11: a phalanx's AC bonus against every other weapon, crossbows included."""
PHALANX_ATTACK = -2
"""W35-DEFEND-14: a phalanx attacks with reach weapons only, at -2."""


def has_reach(unit: Unit) -> bool:
    """Whether the unit is armed with reach weapons (W35-DEFEND-01)."""
    return unit.reach or (unit.melee is not None and unit.melee.reach)


def set_problem(unit: Unit) -> Refusal | None:
    """Why ``unit`` may not set against a charge now (None: it may)."""
    if not unit.can_fight:
        return Refusal(f"{unit.label} is routed", rule="W35-AMB-65")
    if unit.mob:
        return Refusal("a mob cannot set against a charge", rule="W35-MOB-05")
    if not has_reach(unit) or unit.melee is None:
        return Refusal(f"{unit.label} has no reach weapons to set", rule="W35-DEFEND-01")
    return None


def phalanx_problem(unit: Unit) -> Refusal | None:
    """Why ``unit`` may not form a phalanx now (None: it may)."""
    if not unit.can_fight:
        return Refusal(f"{unit.label} is routed", rule="W35-AMB-65")
    if unit.mob:
        return Refusal("a mob cannot form a phalanx", rule="W35-MOB-04")
    if unit.phalanx:
        return Refusal(f"{unit.label} is already in phalanx", rule="W35-DEFEND-09")
    return None


def defence_options(state: WarState, unit: Unit) -> list[Order]:
    """The defence actions ``unit`` may take: set (if not already set) and phalanx."""
    out = []
    if not unit.set_vs_charge and set_problem(unit) is None:
        out.append(Order.of("set", unit.id))
    if phalanx_problem(unit) is None:
        out.append(Order.of("phalanx", unit.id))
    return out


def judge_defence(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """The order if it is a legal defence action for ``unit``, else why not."""
    if order.kind == "set":
        problem = set_problem(unit)
    elif order.kind == "phalanx":
        problem = phalanx_problem(unit)
    else:
        return Refusal(f"{order} is not a defence action", rule="W35-UMOVE-01")
    return problem or order


def take_defence(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Set against a charge (kept until the unit moves or attacks, W35-DEFEND-07) or form a
    phalanx (kept, W35-DEFEND-09)."""
    if order.kind == "set":
        unit.set_vs_charge = True
        battle.emit("set", unit=unit.id)
    elif order.kind == "phalanx":
        unit.phalanx = True
        battle.emit("phalanx", unit=unit.id)


def engage(state: WarState, a: Unit, b: Unit) -> None:
    """Engage two units by a melee attack between them (W35-AMB-37), remembering when the
    engagement began (for the first-engaged unit under option ``flank_bonus_mutual``)."""
    if b.id not in state.foes_engaged(a.id):
        key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        state.engage_seq[key] = len(state.engage_seq) + 1
    state.engage(a.id, b.id)
    state.melee_happened = True


def _opposed_reflex(battle: Battle, charger: Unit, target: Unit) -> tuple[bool, list[int]]:
    """W35-AMB-68: d20 + Reflex each; higher wins, a tie goes to the higher Reflex modifier,
    an exact tie is rerolled. True when the set unit wins; also the last two dice."""
    while True:
        c = battle.dice.draw(20, f"{charger.id} Reflex against the set {target.id}")
        s = battle.dice.draw(20, f"{target.id} Reflex against the charge of {charger.id}")
        ct, st = c + charger.ref, s + target.ref
        if ct != st:
            return st > ct, [c, ct, s, st]
        if charger.ref != target.ref:
            return target.ref > charger.ref, [c, ct, s, st]


def repel_charge(state: WarState, battle: Battle, charger: Unit, target: Unit) -> bool:
    """A charge meets a set unit (W35-DEFEND-03..05, W35-AMB-68): True when the charger is
    repelled, after the set unit's damage roll times its counters in side contact with it,
    with no attack roll. The charger keeps its -2 AC and stays where it is."""
    engage(state, charger, target)
    set_wins, (c, ct, s, st) = _opposed_reflex(battle, charger, target)
    battle.emit("set_vs_charge", unit=target.id, target=charger.id, roll=s, total=st,
                charger_roll=c, charger_total=ct, repelled=set_wins)
    if not set_wins or target.melee is None:
        return False
    attack = target.melee
    multiplier = len(side_contacts(target.squares, charger.squares))
    hook = getattr(morale, "note_attacked", None)
    if hook is not None:
        hook(state, charger, target)
    per = damage.roll_damage(battle, attack, False, f"{target.id} set against {charger.id}")
    target.melee_round = state.round
    damage.hit_unit(state, battle, charger, per, multiplier, source=target.id, kind="set",
                    attacker=target, magic=attack.magic)
    if charger.on_map:
        damage.melee_collateral(state, battle, target, charger)
    return True
