"""Siege weapons and the units that carry them (W35-SIEGE, W35-SWU).

Plugged into the set-up (``prepare``) and the unit action (:mod:`actions`) through four
functions: ``options`` (the extra
unit actions this module offers), ``judge`` (an order of its kinds not among the options),
``take`` (carry one out) and ``forbids`` (why another module's action is closed to the unit).

A siege unit's own actions are ``load UNIT`` and ``siege_fire UNIT TARGET`` (TARGET a unit, a
creature, a structure section or ``machine:UNIT``), each optionally followed by ``defend``:
the counters not working the weapon take total defense (W35-SWU-13, W35-AMB-86). Every unit,
siege unit or not, may also attack an enemy machine (:mod:`machines`, W35-DEC-24).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import Square, unit_distance
from warhost.rulesets.dnd35_wars import combat, damage, machines, reach, tables
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, UnitSpec
from warhost.rulesets.dnd35_wars.state import Machine, Single, Unit, UnitAttack, WarState

LOAD = "load"
FIRE = "siege_fire"
DEFEND = "defend"

ORDER_KINDS: tuple[str, ...] = (LOAD, FIRE, *machines.ORDER_KINDS)
"""The unit-action order kinds this module carries out."""

TOTAL_DEFENSE_AC = 4
"""W35-SWU-13, W35-AMB-86: the unit's AC bonus while its spare counters defend."""

STRUCTURE_AC = 5
"""Engine ruling: a structure section is an immobile object, AC 10 − 5 (Dex 0); the catalog
gives sections no size, so no size modifier. Only the ballista rolls against it (catapults
and trebuchets use AC 10, W35-SIEGE-09)."""

MOVES = ("move", "disengage", "regroup", "split", "pass")
PERSONAL = ("melee", "shoot")


# ---------------------------------------------------------------------------------------------
# Set-up (W35-SIEGE-01/04, W35-SWU-02/06/07, W35-AMB-13/48)
# ---------------------------------------------------------------------------------------------


def _centre_counter(squares: set[Square]) -> Square:
    """The counter nearest the middle of the formation (ties: the lowest square)."""
    if not squares:
        return (0, 0)
    cx = Fraction(sum(x for x, _ in squares), len(squares))
    cy = Fraction(sum(y for _, y in squares), len(squares))
    return min(squares, key=lambda sq: (abs(sq[0] - cx) + abs(sq[1] - cy), sq))


def operator_bab(spec: UnitSpec) -> int:
    """The operators' base attack bonus (W35-SIEGE-08): ``siege_bab`` when the scenario gives
    it; otherwise the creature's best ranged attack bonus (best melee bonus without one) less
    its size modifier, since a stat-block bonus already holds size (W35-AMB-04) and the size
    is added back by :func:`fire_bonus` (engine ruling)."""
    if spec.siege_bab is not None:
        return spec.siege_bab
    attacks = spec.creature.ranged or spec.creature.melee
    best = max((a.bonus for a in attacks), default=0)
    return best - tables.SIZE_MODIFIER[spec.creature.size]


def new_machine(state: WarState, unit: Unit, spec: UnitSpec) -> Machine:
    """The siege weapon of a unit: AC 3, hardness 5 and 80 HP unless the scenario says
    otherwise (W35-SIEGE-04), on the unit's middle counter (W35-SWU-02), loaded under option
    ``siege_start_loaded`` (W35-AMB-48)."""
    assert spec.siege_weapon is not None
    weapon = tables.siege_weapon(spec.siege_weapon)
    hp = spec.machine_hp if spec.machine_hp is not None else tables.SIEGE_HP
    return Machine(
        kind="siege", name=weapon.name, hp=hp, max_hp=hp,
        ac=spec.machine_ac if spec.machine_ac is not None else tables.SIEGE_AC,
        hardness=(spec.machine_hardness if spec.machine_hardness is not None
                  else tables.SIEGE_HARDNESS),
        square=_centre_counter(unit.squares), loaded=state.options.siege_start_loaded,
        trained=spec.siege_trained, bab=operator_bab(spec), operator_size=spec.creature.size)


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """Make every unit with a ``siege_weapon`` a siege weapon unit (W35-SWU-01): its machine
    record, and a move of 15 ft a round as movement points (W35-SWU-07, W35-AMB-13)."""
    for side in scenario.sides:
        for spec in side.units:
            if spec.siege_weapon is None:
                continue
            unit = state.units[spec.id]
            unit.machine = "siege"
            unit.rate = tables.siege_move_points(tables.SIEGE_FEET_PER_ROUND, state.scale)
            machines.register(state, unit, new_machine(state, unit, spec))


def placement_warnings(state: WarState) -> list[str]:
    """W35-SIEGE-01, ruled simply (engine ruling): a siege unit should be an outlying unit,
    so it is warned about when another unit of its side that carries no machine stands
    farther from the nearest enemy unit than it does."""
    out = []
    for uid in sorted(state.machines):
        unit = state.units[uid]
        if unit.machine != "siege" or not unit.squares:
            continue
        foes = [u for u in state.units_of(state.other(unit.side)) if u.squares]
        if not foes:
            continue
        mine = _gap_to(unit, foes)
        farther = [u.id for u in state.units_of(unit.side)
                   if u.machine is None and u.squares and _gap_to(u, foes) > mine]
        if farther:
            out.append(f"siege weapon unit {unit.id} stands nearer the enemy than "
                       f"{', '.join(sorted(farther))}; siege weapons start in outlying units, "
                       f"as far as possible from their target (W35-SIEGE-01)")
    return out


def _gap_to(unit: Unit, foes: list[Unit]) -> int:
    return min(unit_distance(unit.squares, foe.squares) for foe in foes)


# ---------------------------------------------------------------------------------------------
# Crew, rate of fire and the firing roll (W35-SIEGE-08..15, W35-SWU-05/06/16, W35-AMB-48/87)
# ---------------------------------------------------------------------------------------------


def siege_machine(state: WarState, unit: Unit) -> Machine | None:
    """The siege weapon of ``unit`` (None for any other unit)."""
    machine = machines.machine_of(state, unit.id)
    return machine if machine is not None and machine.kind == "siege" else None


def survivors(unit: Unit) -> int:
    """Surviving creatures (W35-AMB-48): ceil(starting creatures × HP ÷ starting HP)."""
    if unit.start_hp <= 0:
        return 0
    return math.ceil(Fraction(unit.creatures * max(0, unit.hp), unit.start_hp))


def rate_of_fire(unit: Unit, machine: Machine) -> int:
    """The effective rate of fire now (W35-SIEGE-13..15, W35-AMB-48)."""
    weapon = tables.siege_weapon(machine.name)
    return tables.effective_rate_of_fire(weapon, tables.crew_lost(weapon, survivors(unit)))


def keeps_set(state: WarState, unit: Unit, order: Order) -> bool:
    """Whether a set siege unit stays set while loading or firing: only with crew plus the
    creatures circling the weapon left (W35-SWU-16, W35-AMB-87)."""
    machine = state.machines.get(unit.id) if state.machines else None
    if machine is None or machine.kind != "siege" or order.kind not in (LOAD, FIRE):
        return False
    weapon = tables.siege_weapon(machine.name)
    return survivors(unit) >= weapon.crew + tables.circle_crew(weapon)


def may_defend(unit: Unit, machine: Machine) -> bool:
    """Whether the counters not working the weapon may take total defense: only when the
    unit has more counters than ceil(crew ÷ creatures per counter) (W35-AMB-86)."""
    crew = tables.siege_weapon(machine.name).crew
    return unit.counters > math.ceil(Fraction(crew) / unit.per_counter)


def fire_bonus(machine: Machine) -> int:
    """The weapon's attack bonus before range: the operators' BAB and size modifier
    (W35-SIEGE-08), −4 for untrained operators (W35-SWU-06)."""
    bonus = machine.bab + tables.SIZE_MODIFIER[machine.operator_size]
    return bonus + (0 if machine.trained else tables.UNTRAINED_SIEGE)


@dataclass(frozen=True)
class Aim:
    """A siege weapon's target: what it is, its id, the squares it stands on, and the feet
    to it from the weapon."""

    kind: str  # "unit", "single", "structure" or "machine"
    id: str
    squares: frozenset[Square]
    feet: int


def _target(state: WarState, unit: Unit, weapon: tables.SiegeWeapon, tid: str
            ) -> tuple[str, str, frozenset[Square]] | Refusal:
    """What ``tid`` names and where it stands, or why it is no target for this weapon."""
    ballista = weapon.crit is not None
    mid = machines.named(tid)
    if mid is not None:
        owner = state.units.get(mid)
        machine = machines.machine_of(state, mid)
        if owner is None or machine is None or not owner.on_map or owner.side == unit.side:
            return Refusal(f"{mid} carries no enemy machine", rule="W35-SWU-09")
        if ballista and machines.size_of(machine) not in machines.HUGE_OR_LARGER:
            return Refusal("a ballista may target only Huge or larger machines",
                           rule="W35-AMB-51")
        return "machine", mid, frozenset({machine.square})
    if tid in state.units:
        target = state.units[tid]
        if target.side == unit.side or not target.on_map:
            return Refusal(f"{tid} is not an enemy unit on the map", rule="W35-UATK-09")
        if ballista:
            return Refusal("a ballista cannot target units", rule="W35-SIEGE-17")
        if damage.sheltered(state, target):
            return Refusal(f"{tid} is sheltered in its fortification", rule="W35-AMB-45")
        return "unit", tid, frozenset(target.squares)
    if tid in state.singles:
        single = state.singles[tid]
        if single.side == unit.side or not single.independent or single.square is None:
            return Refusal(f"{single.label} is not an enemy standing on its own",
                           rule="W35-DMG-08")
        return "single", tid, frozenset({single.square})
    if tid in state.structures:
        if state.structure_hp.get(tid, 0) <= 0:
            return Refusal(f"structure {tid} has no hit points left to lose", rule="W35-AMB-45")
        return "structure", tid, state.structures[tid].squares
    return Refusal(f"{tid} is no unit, creature, structure or machine", rule="W35-SIEGE-05")


def _sees(state: WarState, unit: Unit, kind: str, tid: str, squares: frozenset[Square],
          origin: Square) -> bool:
    """Whether the weapon's counter sees a target square (W35-AMB-35): its own unit and the
    target never block."""
    owner = tid if kind in ("unit", "machine") else None
    blocks = reach.view_blocker(state, (unit.id, owner), squares)
    return any(reach.line_of_sight(origin, t, blocks) for t in sorted(squares))


def aim(state: WarState, unit: Unit, machine: Machine, tid: str) -> Aim | Refusal:
    """The target ``tid`` of the siege weapon, or why it may not be fired at: legal target
    (W35-SIEGE-17, W35-AMB-51), an empty square between (W35-UATK-10), range (W35-SIEGE-10)
    and minimum range (W35-SIEGE-12) measured from the weapon's counter, sight."""
    weapon = tables.siege_weapon(machine.name)
    found = _target(state, unit, weapon, tid)
    if isinstance(found, Refusal):
        return found
    kind, target_id, squares = found
    gap = unit_distance((machine.square,), squares)
    feet = tables.distance_feet(gap, state.scale)
    if gap < 2:
        return Refusal("firing needs an empty square between the weapon and the target",
                       rule="W35-UATK-10")
    if feet > tables.siege_max_range(weapon):
        return Refusal(f"{tid} is {feet} ft away, beyond the {weapon.name}'s "
                       f"{tables.siege_max_range(weapon)} ft", rule="W35-SIEGE-10")
    if feet < weapon.minimum_range:
        return Refusal(f"{tid} is {feet} ft away, inside the {weapon.name}'s minimum range "
                       f"of {weapon.minimum_range} ft", rule="W35-SIEGE-12")
    if not _sees(state, unit, kind, target_id, squares, machine.square):
        return Refusal(f"the {weapon.name} does not see {tid}", rule="W35-DMG-04")
    return Aim(kind, target_id, squares, feet)


def target_ac(state: WarState, unit: Unit, machine: Machine, target: Aim) -> int:
    """The AC the shot must reach: 10 for catapults and trebuchets whatever the target
    (W35-SIEGE-09); for a ballista the creature's AC, the machine's, or a structure's."""
    weapon = tables.siege_weapon(machine.name)
    if weapon.crit is None:
        return tables.CATAPULT_AC
    if target.kind == "single":
        return damage.single_ac(state.singles[target.id], state)
    if target.kind == "machine":
        return state.machines[target.id].ac
    if target.kind == "unit":  # never for a ballista (W35-SIEGE-17); kept for completeness
        return combat.ac_against(state, state.units[target.id], unit, "siege")
    return STRUCTURE_AC


def shot_bonus(state: WarState, machine: Machine, target: Aim) -> int:
    """The whole attack bonus of a shot: :func:`fire_bonus` and −2 per range increment beyond
    the first (W35-SIEGE-11)."""
    weapon = tables.siege_weapon(machine.name)
    increments = tables.range_increments(target.feet, weapon.range_increment)
    return fire_bonus(machine) + tables.range_penalty(increments)


def weapon_attack(weapon: tables.SiegeWeapon) -> UnitAttack:
    """The weapon's damage and critical as an attack (W35-SIEGE-16, W35-AMB-49)."""
    if weapon.crit is None:
        return UnitAttack(0, weapon.damage)
    return UnitAttack(0, weapon.damage, weapon.crit[0], weapon.crit[1])


# ---------------------------------------------------------------------------------------------
# The unit action (W35-SWU-08..16, W35-DEC-24)
# ---------------------------------------------------------------------------------------------


def work_problem(state: WarState, unit: Unit) -> Refusal | None:
    """Why ``unit`` may not load or fire its siege weapon this round (None: it may)."""
    machine = siege_machine(state, unit)
    if machine is None:
        return Refusal(f"{unit.label} carries no siege weapon", rule="W35-SWU-01")
    if not unit.can_fight:
        return Refusal(f"{unit.label} cannot fight now", rule="W35-AMB-65")
    if unit.moved_round == state.round:
        return Refusal(f"{unit.label} moved this round", rule="W35-SWU-08")
    if unit.melee_round == state.round:
        return Refusal(f"{unit.label} attacked with personal weapons this round",
                       rule="W35-SWU-11")
    if machine.worked_round == state.round:
        return Refusal(f"{unit.label} already loaded or fired this round", rule="W35-SWU-12")
    return None


def _fire_problem(state: WarState, unit: Unit, machine: Machine) -> Refusal | None:
    if not machine.loaded:
        return Refusal(f"the {machine.name} is not loaded", rule="W35-SIEGE-13")
    if combat.engaged_units(state, unit):
        return Refusal("a unit engaged in melee cannot fire", rule="W35-MULTI-06")
    return None


def _candidates(state: WarState, unit: Unit) -> list[str]:
    """Every enemy a siege weapon might fire at: units, lone creatures, structure sections
    with HP left, machines."""
    foe = state.other(unit.side)
    out = [u.id for u in state.units_of(foe)]
    out += [s.id for s in state.singles.values() if s.side == foe and s.independent]
    out += [sid for sid, hp in sorted(state.structure_hp.items()) if hp > 0]
    out += [machines.target_text(owner.id)
            for owner, _ in machines.enemy_machines(state, unit.side)]
    return out


def _with_defend(unit: Unit, machine: Machine, order: Order) -> list[Order]:
    if may_defend(unit, machine):
        return [order, Order.of(order.kind, *order.args, DEFEND)]
    return [order]


def siege_options(state: WarState, unit: Unit) -> list[Order]:
    """Load or fire (and each with total defense where allowed), for a siege unit."""
    machine = siege_machine(state, unit)
    if machine is None or work_problem(state, unit) is not None:
        return []
    if not machine.loaded:
        return _with_defend(unit, machine, Order.of(LOAD, unit.id))
    if _fire_problem(state, unit, machine) is not None:
        return []
    out: list[Order] = []
    for tid in _candidates(state, unit):
        if not isinstance(aim(state, unit, machine, tid), Refusal):
            out += _with_defend(unit, machine, Order.of(FIRE, unit.id, tid))
    return out


def options(state: WarState, unit: Unit) -> list[Order]:
    """The extra unit actions open to ``unit`` now: a siege unit's load and fire, and any
    unit's attacks on enemy machines ([] at once when no machine is on the map)."""
    if not state.machines:
        return []
    out = siege_options(state, unit) if unit.machine == "siege" else []
    return out + machines.options(state, unit)


def _defend_arg(order: Order, at: int) -> Refusal | bool:
    extra = [str(a) for a in order.args[at:]]
    if not extra:
        return False
    if extra == [DEFEND]:
        return True
    return Refusal(f"after {order.kind} only '{DEFEND}' may follow", rule="W35-DEC-24")


def judge(state: WarState, unit: Unit, order: Order) -> Order | Refusal | None:
    """Judge an order of this module's kinds that is not among the options."""
    if order.kind in machines.ORDER_KINDS:
        return machines.judge(state, unit, order)
    problem = work_problem(state, unit)
    if problem is not None:
        return problem
    machine = siege_machine(state, unit)
    assert machine is not None
    defend = _defend_arg(order, 1 if order.kind == LOAD else 2)
    if isinstance(defend, Refusal):
        return defend
    if defend and not may_defend(unit, machine):
        return Refusal("no counters spare from the crew to take total defense",
                       rule="W35-AMB-86")
    if order.kind == LOAD:
        if machine.loaded:
            return Refusal(f"the {machine.name} is already loaded", rule="W35-AMB-48")
        return order
    if len(order.args) < 2:
        return Refusal(f"write {FIRE} UNIT TARGET", rule="W35-DEC-24")
    found = _fire_problem(state, unit, machine) or aim(state, unit, machine, str(order.args[1]))
    return found if isinstance(found, Refusal) else order


def take(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out an order of this module's kinds."""
    if order.kind in machines.ORDER_KINDS:
        machines.take(state, battle, unit, order)
        return
    machine = siege_machine(state, unit)
    if machine is None or order.kind not in (LOAD, FIRE):
        raise ValueError(f"no such action: {order}")
    machine.worked_round = state.round
    if order.args[-1] == DEFEND:
        unit.siege_defense = True
        battle.emit("siege_defend", unit=unit.id, ac=TOTAL_DEFENSE_AC)
    if order.kind == LOAD:
        load(state, battle, unit, machine)
    else:
        fire(state, battle, unit, machine, str(order.args[1]))


def load(state: WarState, battle: Battle, unit: Unit, machine: Machine) -> None:
    """One loading round (W35-AMB-48): the weapon is ready once (effective rate of fire − 1)
    loading rounds are done since it last fired."""
    machine.loads_done += 1
    needed = rate_of_fire(unit, machine) - 1
    machine.loaded = machine.loads_done >= needed
    battle.emit("siege_load", unit=unit.id, weapon=machine.name, done=machine.loads_done,
                needed=needed, loaded=machine.loaded)


def fire(state: WarState, battle: Battle, unit: Unit, machine: Machine, tid: str) -> int:
    """Fire the loaded weapon at ``tid`` (W35-SIEGE-05..12): d20 + bonus against the AC, then
    the damage by the target's pathway (:func:`strike`). The weapon is empty afterwards. The
    HP the target lost."""
    target = aim(state, unit, machine, tid)
    if isinstance(target, Refusal):
        raise ValueError(f"{unit.id} cannot fire at {tid}: {target.reason}")  # noqa: TRY004
    weapon = tables.siege_weapon(machine.name)
    machine.loaded = rate_of_fire(unit, machine) <= 1
    machine.loads_done = 0
    unit.exposed = True  # it fired since its last turn (W35-AMB-45)
    bonus = shot_bonus(state, machine, target)
    ac = target_ac(state, unit, machine, target)
    crit_ok = weapon.crit is not None and (
        target.kind != "single" or not state.singles[target.id].creature.crit_immune)
    attack = weapon_attack(weapon)
    roll = damage.roll_attack(battle, bonus, ac, crit_range=attack.crit_range, crit_ok=crit_ok,
                              why=f"{unit.id} fires its {weapon.name} at {tid}")
    battle.emit("siege_fire", unit=unit.id, weapon=weapon.name, target=tid, kind=target.kind,
                feet=target.feet, bonus=bonus, roll=roll.roll, total=roll.total, ac=ac,
                hit=roll.hit, crit=roll.crit, threat=roll.threat, confirm=roll.confirm)
    if not roll.hit:
        return 0
    per = damage.roll_damage(battle, attack, roll.crit, f"{unit.id} {weapon.name} damage")
    return strike(state, battle, unit, target, per)


def strike(state: WarState, battle: Battle, unit: Unit, target: Aim, per: int) -> int:
    """A hit's damage: to a unit as a singular creature's hit, divided by the creatures per
    counter (W35-SIEGE-06, W35-DMG-13, a siege morale trigger); to a creature in full
    (W35-DMG-15); to a structure or a machine in full less hardness (W35-SIEGE-07,
    W35-AMB-45)."""
    if target.kind == "unit":
        return damage.hit_unit_by_single(state, battle, state.units[target.id], per,
                                         source=unit.id, attacker=None, kind="siege")
    if target.kind == "single":
        single: Single = state.singles[target.id]
        return damage.hit_single(state, battle, single, per, source=unit.id, attacker=unit)
    if target.kind == "machine":
        return machines.hit_machine(state, battle, state.units[target.id], per, 1,
                                    source=unit.id)
    return damage.hit_structure(state, battle, target.id, per, 1, source=unit.id)


def forbids(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``order`` (of another module) is closed to a siege unit, or None: no charge
    (W35-SWU-14), no phalanx (W35-SWU-15), no split or regroup (engine ruling: the weapon
    stays with one unit, W35-SWU-02), no move or personal attack in a round it loaded or
    fired (W35-SWU-08/11/12)."""
    machine = state.machines.get(unit.id) if unit.machine == "siege" else None
    if machine is None:
        return None
    kind = order.kind
    if kind == "charge":
        return Refusal("a siege weapon unit cannot charge", rule="W35-SWU-14")
    if kind == "phalanx":
        return Refusal("a siege weapon unit cannot form a phalanx", rule="W35-SWU-15")
    if kind in ("split", "regroup"):
        return Refusal("a siege weapon unit stays one unit with its weapon", rule="W35-SWU-02")
    if machine.worked_round == state.round and kind in MOVES:
        return Refusal(f"{unit.label} loaded or fired this round", rule="W35-SWU-08")
    if machine.worked_round == state.round and kind in PERSONAL:
        return Refusal(f"{unit.label} loaded or fired this round", rule="W35-SWU-11")
    return None


# ---------------------------------------------------------------------------------------------
# The AI's worth of an order (expected enemy HP taken)
# ---------------------------------------------------------------------------------------------


def ai_value(state: WarState, unit: Unit, order: Order) -> float:
    """Expected HP an order of this module takes from the enemy (a machine's HP count as much
    as a unit's; a wall's toward a breach, :func:`ai_siege.breach_weight`); loading is worth
    the next shot spread over the rounds of loading."""
    machine = siege_machine(state, unit)
    if order.kind in machines.ORDER_KINDS:
        return machines.ai_value(state, unit, order)
    if machine is None:
        return 0.0
    if order.kind == LOAD:
        rounds = max(1, rate_of_fire(unit, machine))
        return max(_AI_LOAD_FLOOR, _best_shot(state, unit, machine)) / rounds
    if order.kind == FIRE and len(order.args) >= 2:
        target = aim(state, unit, machine, str(order.args[1]))
        return 0.0 if isinstance(target, Refusal) else _shot_worth(state, unit, machine, target)
    return 0.0


_AI_LOAD_FLOOR = 1.0
"""Loading is worth something even with nothing in range yet: the weapon will have a target."""


def _shot_worth(state: WarState, unit: Unit, machine: Machine, target: Aim) -> float:
    from warhost.rulesets.dnd35_wars import ai_siege

    shot = expected_shot(state, unit, machine, target)
    if target.kind == "structure":
        return shot * ai_siege.breach_weight(state, unit.side, target.id)
    return shot


def _best_shot(state: WarState, unit: Unit, machine: Machine) -> float:
    best = 0.0
    for tid in _candidates(state, unit):
        target = aim(state, unit, machine, tid)
        if not isinstance(target, Refusal):
            best = max(best, _shot_worth(state, unit, machine, target))
    return best


def expected_shot(state: WarState, unit: Unit, machine: Machine, target: Aim) -> float:
    """The mean HP one shot takes from ``target`` (hit chance × the mean damage on a hit
    after hardness, DR or the division by creatures per counter)."""
    weapon = tables.siege_weapon(machine.name)
    bonus = shot_bonus(state, machine, target)
    ac = target_ac(state, unit, machine, target)
    hits = sum(1 for n in range(1, 21) if n == 20 or (n != 1 and n + bonus >= ac)) / 20
    mean = float(_mean_roll(weapon.damage))
    if target.kind == "unit":
        foe = state.units[target.id]
        per = max(0.0, mean - damage.unit_dr(state, foe))
        return hits * float(int(Fraction(per) / foe.per_counter)) if per else 0.0
    if target.kind == "single":
        return hits * max(0.0, mean - state.singles[target.id].creature.dr)
    hardness = (state.machines[target.id].hardness if target.kind == "machine"
                else state.structures[target.id].hardness)
    return hits * max(0.0, mean - hardness)


def _mean_roll(expr: str) -> Fraction:
    parsed = DamageDice.parse(expr)
    total = Fraction(parsed.flat)
    for count, sides, sign in parsed.dice:
        total += sign * count * Fraction(sides + 1, 2)
    return total
