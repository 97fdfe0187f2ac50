"""War machines as targets: their hit points, damage and destruction, and the attacks any
unit or singular creature may make on a siege weapon or a siege tower (W35-SIEGE-02/03/04,
W35-SWU-04/09, W35-TOWER-14, W35-AMB-88, W35-AMB-97, W35-DEC-24).

A machine is carried by a unit (``WarState.machines``, by unit id) and sits on one of its
counters (W35-SWU-02). Its HP are its own, apart from the unit's (W35-SWU-09). The module that
owns a machine type creates the record in its ``prepare`` (:func:`register`).
"""

from __future__ import annotations

from collections.abc import Callable

from warhost.core.battle import Battle
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS4, Square, unit_distance
from warhost.rulesets.dnd35_wars import combat, damage, defence, morale, reach, tables
from warhost.rulesets.dnd35_wars.state import Machine, Single, Unit, UnitAttack, WarState

__all__ = ["Machine", "hit_machine", "machine_of", "register"]

LOST_TRIGGER: dict[str, str] = {"siege": "siege_weapon_lost", "tower": "tower_lost"}
"""The morale trigger queued when a machine of each kind is destroyed (W35-SWU-04: DC 15,
W35-TOWER-14: DC 20; the DCs are in ``tables.MORALE_DC``)."""


def register(state: WarState, unit: Unit, machine: Machine) -> None:
    """Give ``unit`` its machine (called by the owning module's ``prepare``)."""
    if machine.anchor is None and unit.squares:
        machine.anchor = min(unit.squares)
    state.machines[unit.id] = machine


def _nearest(squares: set[Square], to: Square) -> Square:
    return min(squares, key=lambda sq: (max(abs(sq[0] - to[0]), abs(sq[1] - to[1])), sq))


def carrier(state: WarState, unit: Unit, machine: Machine) -> Square | None:
    """The counter the machine's figure stands on. It moves with the formation (shifted as
    the unit's lowest counter shifted); when that counter is gone, the figure goes to the
    counter nearest where it would be (engine ruling)."""
    if not unit.squares:
        return None
    anchor = min(unit.squares)
    if machine.anchor is not None and anchor != machine.anchor:
        moved = (machine.square[0] + anchor[0] - machine.anchor[0],
                 machine.square[1] + anchor[1] - machine.anchor[1])
        if moved in unit.squares or machine.square not in unit.squares:
            machine.square = moved
    if machine.square not in unit.squares:
        machine.square = _nearest(unit.squares, machine.square)
    machine.anchor = anchor
    return machine.square


def machine_of(state: WarState, unit_id: str) -> Machine | None:
    """The machine carried by unit ``unit_id`` (None: no machine, or destroyed), its figure's
    square brought up to date."""
    machine = state.machines.get(unit_id)
    if machine is None:
        return None
    unit = state.units.get(unit_id)
    if unit is not None:
        carrier(state, unit, machine)
    return machine


def hit_machine(state: WarState, battle: Battle, unit: Unit, per_hit: int, multiplier: int, *,
                source: str) -> int:
    """Damage to the machine of ``unit``: its hardness comes off the single roll, then times
    ``multiplier`` (W35-AMB-88); the HP lost. At 0 HP it is destroyed (:func:`destroy`)."""
    machine = machine_of(state, unit.id)
    if machine is None or per_hit <= 0 or multiplier <= 0:
        return 0
    per = max(0, per_hit - machine.hardness)
    lost = min(machine.hp, per * multiplier)
    if lost <= 0:
        battle.emit("machine_unharmed", unit=unit.id, machine=machine.name, source=source,
                    reason="hardness")
        return 0
    machine.hp -= lost
    battle.emit("machine_damage", unit=unit.id, machine=machine.name, source=source, hp=lost,
                left=machine.hp)
    if machine.hp == 0:
        destroy(state, battle, unit)
    return lost


def destroy(state: WarState, battle: Battle, unit: Unit) -> None:
    """The machine of ``unit`` is destroyed: the unit becomes a standard unit at once, and a
    morale check is queued for its next turn (DC 15 siege weapon, W35-SWU-04; DC 20 tower,
    W35-TOWER-14; rolled at step 1 of its turn as every trigger, W35-AMB-17)."""
    machine = state.machines.pop(unit.id, None)
    if machine is None:
        return
    unit.machine = None
    unit.siege_defense = False
    battle.emit("machine_destroyed", unit=unit.id, machine=machine.name, kind=machine.kind)
    trigger = LOST_TRIGGER.get(machine.kind)
    if trigger is not None:
        morale.queue(unit, trigger)


# ---------------------------------------------------------------------------------------------
# Attacks on machines by units and singular creatures (W35-SIEGE-02/03, W35-SWU-09, AMB-97)
# ---------------------------------------------------------------------------------------------

ORDER_KINDS: tuple[str, ...] = ("shoot_machine", "melee_machine")
"""Unit actions against an enemy machine: ``shoot_machine UNIT MACHINE_UNIT`` and
``melee_machine UNIT MACHINE_UNIT`` (W35-DEC-24: the unit or its machine)."""

PREFIX = "machine:"
"""A machine named as a target: ``machine:UNIT`` (a siege weapon's shot, a creature's attack)."""

TOWER_SPACE = 15
"""W35-TOWER-05: a siege tower is 15 ft wide at the base."""

HUGE_OR_LARGER = ("huge", "gargantuan", "colossal")


def target_text(unit_id: str) -> str:
    """The target argument naming the machine of ``unit_id``."""
    return f"{PREFIX}{unit_id}"


def named(text: str) -> str | None:
    """The carrying unit of a ``machine:UNIT`` argument (None: not a machine argument)."""
    return text[len(PREFIX):] if text.startswith(PREFIX) else None


def space_of(machine: Machine) -> int:
    """The machine's space in feet (W35-SIEGE-16 Space; a tower 15 ft, W35-TOWER-05)."""
    if machine.kind == "siege":
        return tables.siege_weapon(machine.name).space
    return TOWER_SPACE


def size_of(machine: Machine) -> str:
    """The machine's size (W35-SIEGE-16 Size; a 78-ft tower counts as Colossal, engine
    ruling, so a ballista may target it: W35-AMB-51)."""
    if machine.kind == "siege":
        return tables.siege_weapon(machine.name).size
    return "colossal"


def enemy_machines(state: WarState, side: str) -> list[tuple[Unit, Machine]]:
    """The machines of ``side``'s enemies still on the map, with their carrying units."""
    out = []
    for uid in sorted(state.machines):
        owner = state.units.get(uid)
        if owner is None or owner.side == side or not owner.on_map:
            continue
        machine = machine_of(state, uid)
        if machine is not None:
            out.append((owner, machine))
    return out


def _owner(state: WarState, attacker: Unit, mid: str) -> tuple[Unit, Machine] | Refusal:
    owner = state.units.get(mid)
    machine = machine_of(state, mid)
    if owner is None or machine is None or not owner.on_map:
        return Refusal(f"{mid} carries no machine", rule="W35-SWU-09")
    if owner.side == attacker.side:
        return Refusal(f"the machine of {owner.label} is not an enemy's", rule="W35-SWU-09")
    return owner, machine


def _sight(state: WarState, attacker: Unit, owner: Unit
           ) -> Callable[[Square, Square], bool]:
    """Line of sight to the machine's counter: other units, figures and blocking terrain stop
    it; the carrying unit's own counters do not (W35-SIEGE-03)."""
    blocks = reach.view_blocker(state, (attacker.id, owner.id))
    return lambda counter, aim: reach.line_of_sight(counter, aim, blocks)


def _personal_problem(state: WarState, unit: Unit) -> Refusal | None:
    if not unit.can_fight:
        return Refusal(f"{unit.label} cannot fight now", rule="W35-AMB-65")
    machine = state.machines.get(unit.id)
    if machine is not None and machine.kind == "siege" and machine.worked_round == state.round:
        return Refusal("a siege unit that loaded or fired this round makes no other attack",
                       rule="W35-SWU-11")
    return None


def shoot_problem(state: WarState, unit: Unit, mid: str) -> Refusal | None:
    """Why ``unit`` may not shoot at the machine of ``mid`` (None: it may). The ranged rules
    hold (range, an empty square between, sight, not engaged); the machine may sit inside
    another unit (W35-SIEGE-03, W35-AMB-97)."""
    found = _owner(state, unit, mid)
    if isinstance(found, Refusal):
        return found
    owner, machine = found
    problem = _personal_problem(state, unit) or combat.shooter_problem(state, unit)
    if problem is not None:
        return problem
    sq = machine.square
    gap = unit_distance(unit.squares, (sq,))
    if gap < 2:
        return Refusal("firing needs an empty square between every counter and the target",
                       rule="W35-UATK-10")
    if combat.range_modifier(state, unit, {sq}, gap) is None:
        return Refusal(f"the machine of {owner.label} is beyond maximum range",
                       rule="W35-UATK-13")
    sees = _sight(state, unit, owner)
    if not any(sees(counter, sq) for counter in sorted(unit.squares)):
        return Refusal(f"no counter of {unit.label} sees the machine", rule="W35-DMG-04")
    return None


def melee_problem(state: WarState, unit: Unit, mid: str) -> Refusal | None:
    """Why ``unit`` may not melee the machine of ``mid``: it needs a counter sharing a side
    with the counter carrying it (W35-AMB-97)."""
    found = _owner(state, unit, mid)
    if isinstance(found, Refusal):
        return found
    _owner_unit, machine = found
    problem = _personal_problem(state, unit)
    if problem is not None:
        return problem
    if unit.melee is None:
        return Refusal(f"{unit.label} has no melee attack", rule="W35-UATK-01")
    x, y = machine.square
    if not any((x + dx, y + dy) in unit.squares for dx, dy in DIRECTIONS4):
        return Refusal(f"no counter of {unit.label} shares a side with the machine's counter",
                       rule="W35-AMB-97")
    return None


def options(state: WarState, unit: Unit) -> list[Order]:
    """The attacks ``unit`` may make on enemy machines now (any unit, W35-SWU-09)."""
    if not state.machines or not unit.can_fight:
        return []
    out = []
    for owner, _machine in enemy_machines(state, unit.side):
        if unit.ranged is not None and shoot_problem(state, unit, owner.id) is None:
            out.append(Order.of("shoot_machine", unit.id, owner.id))
        if unit.melee is not None and melee_problem(state, unit, owner.id) is None:
            out.append(Order.of("melee_machine", unit.id, owner.id))
    return out


def judge(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """The order if ``unit`` may make this attack on a machine, else why not."""
    if len(order.args) != 2:
        return Refusal(f"write {order.kind} UNIT MACHINE_UNIT", rule="W35-DEC-24")
    mid = str(order.args[1])
    check = shoot_problem if order.kind == "shoot_machine" else melee_problem
    return check(state, unit, mid) or order


def take(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out an attack on a machine."""
    owner = state.units[str(order.args[1])]
    if order.kind == "shoot_machine":
        shoot(state, battle, unit, owner)
    else:
        melee(state, battle, unit, owner)


def _strike(state: WarState, battle: Battle, attacker: Unit, owner: Unit, attack: UnitAttack,
            bonus: int, count: int, kind: str) -> int:
    """One unit attack roll on the machine; on a hit, (damage − hardness) × ``count``
    (W35-DMG-09/12 as W35-SIEGE-02 says, W35-AMB-88)."""
    machine = state.machines[owner.id]
    roll = damage.roll_attack(battle, bonus, machine.ac, crit_range=attack.crit_range,
                              crit_ok=state.options.unit_crits,
                              why=f"{attacker.id} attacks the machine of {owner.id}")
    battle.emit("machine_attack", unit=attacker.id, target=owner.id, machine=machine.name,
                kind=kind, roll=roll.roll, total=roll.total, ac=machine.ac, hit=roll.hit,
                crit=roll.crit, attackers=count)
    if not roll.hit:
        return 0
    per = damage.roll_damage(battle, attack, roll.crit, f"{attacker.id} damage")
    return hit_machine(state, battle, owner, per, count, source=attacker.id)


def shoot(state: WarState, battle: Battle, attacker: Unit, owner: Unit) -> int:
    """A unit's volley at a machine: the creatures with a clear shot (W35-DMG-12,
    W35-AMB-32) times the damage less hardness; the range penalty applies."""
    machine = machine_of(state, owner.id)
    attack = attacker.ranged
    if machine is None or attack is None:
        return 0
    sq = machine.square
    count = min(reach.ranged_attackers_on_single(attacker.squares, sq, attacker.per_counter,
                                                 _sight(state, attacker, owner)),
                attacker.derived_creatures)
    attacker.exposed = True
    penalty = combat.range_modifier(state, attacker, {sq}) or 0
    if count <= 0:
        return 0
    return _strike(state, battle, attacker, owner, attack, attack.bonus + penalty, count,
                   "ranged")


def melee(state: WarState, battle: Battle, attacker: Unit, owner: Unit) -> int:
    """A unit's melee on a machine: the creatures that reach it on a 5-ft grid, the machine's
    space as the target size (W35-AMB-31, W35-AMB-97); the units become engaged."""
    machine = machine_of(state, owner.id)
    attack = attacker.melee
    if machine is None or attack is None:
        return 0
    count, _ = reach.attackers_on_single(machine.square, max(1, space_of(machine) // 5),
                                         tables.SIZE_CELLS[attacker.size], attacker.squares,
                                         attacker.derived_creatures)
    attacker.melee_round = state.round
    attacker.exposed = True
    defence.engage(state, attacker, owner)
    if count <= 0:
        return 0
    return _strike(state, battle, attacker, owner, attack, attack.bonus, count, "melee")


# ---- singular creatures (W35-SIEGE-02, W35-DMG-15, W35-AMB-98)


def single_targets(state: WarState, single: Single) -> list[str]:
    """The enemy machines a singular creature may melee: those whose counter is its own square
    or one of the eight around it (W35-AMB-98), or whose unit it is inside (W35-AMB-97)."""
    if not state.machines or single.square is None or not single.creature.melee:
        return []
    out = []
    x, y = single.square
    inside = single.inside or single.host
    for owner, machine in enemy_machines(state, single.side):
        mx, my = machine.square
        if max(abs(mx - x), abs(my - y)) <= 1 or inside == owner.id:
            out.append(target_text(owner.id))
    return out


def single_attacks_machine(state: WarState, battle: Battle, single: Single, mid: str) -> int:
    """A singular creature's attack action on a machine: each attack against its AC, the full
    damage less hardness (W35-SIEGE-02, W35-DMG-15, W35-AMB-88); the HP it lost."""
    owner = state.units.get(mid)
    lost = 0
    spelled = damage.spell_modifier(state, single, "attack")  # its standard effect
    for attack in damage.single_attacks(single):
        machine = machine_of(state, mid)
        if owner is None or machine is None:
            break
        roll = damage.roll_attack(battle, attack.bonus + spelled, machine.ac,
                                  crit_range=attack.crit_range,
                                  why=f"{single.id} attacks the machine of {mid}")
        battle.emit("machine_attack", who=single.id, target=mid, machine=machine.name,
                    kind="melee", roll=roll.roll, total=roll.total, ac=machine.ac,
                    hit=roll.hit, crit=roll.crit, attackers=1)
        if roll.hit:
            per = damage.roll_damage(battle, attack, roll.crit, f"{single.id} damage")
            per = max(1, per + damage.spell_modifier(state, single, "damage"))
            lost += hit_machine(state, battle, owner, per, 1, source=single.id)
    return lost


def ai_value(state: WarState, unit: Unit, order: Order) -> float:
    """Expected machine HP an attack on a machine takes (hit chance × (mean damage −
    hardness) × attackers); 0 when it is not possible."""
    if len(order.args) != 2 or judge(state, unit, order) != order:
        return 0.0
    owner = state.units[str(order.args[1])]
    machine = state.machines[owner.id]
    ranged = order.kind == "shoot_machine"
    attack = unit.ranged if ranged else unit.melee
    if attack is None:
        return 0.0
    sq = machine.square
    if ranged:
        count = min(reach.ranged_attackers_on_single(unit.squares, sq, unit.per_counter,
                                                     _sight(state, unit, owner)),
                    unit.derived_creatures)
        bonus = attack.bonus + (combat.range_modifier(state, unit, {sq}) or 0)
    else:
        count, _ = reach.attackers_on_single(sq, max(1, space_of(machine) // 5),
                                             tables.SIZE_CELLS[unit.size], unit.squares,
                                             unit.derived_creatures)
        bonus = attack.bonus
    hits = sum(1 for n in range(1, 21)
               if n == 20 or (n != 1 and n + bonus >= machine.ac)) / 20
    mean = float(DamageDice.parse(attack.damage).average)
    return min(float(machine.hp), hits * max(0.0, mean - machine.hardness) * count)
