"""Siege towers and the units inside them (W35-TOWER, W35-AMB-13/46/47/76/77), and the walls
and gates they are pushed against (W35-AMB-45).

A siege tower unit is 70 Medium or Small creatures in 7 counters of 10, stacked on the
tower's one square (``Unit.stack``). It moves 7.5 ft a round as banked points, never charges,
and while its drawbridge is up it has total cover: it can be targeted only after shooting
through the slits, and then only its shooting counters count. The counters above the bottom
one shoot at up to 4 targets, one per side of the tower, at -2, their damage cut to 3/4.
Next to an enemy wall and unopposed it lowers its drawbridge; from the next round one counter
a round crosses onto the wall, and other units next to the tower may climb through it at the
same rate. The tower itself is a war machine of the ``machines`` module (kind "tower"): its
own hit points apart from the unit's (W35-TOWER-16), attacked by units and creatures as any
machine (W35-SIEGE-02/03); when it is destroyed the unit checks morale at DC 20 and its stack
spreads at its next turn as a standard unit (W35-TOWER-14).
"""

from __future__ import annotations

import math
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.damage_dice import DamageDice
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS4, Square, chebyshev, formation_ok, share_side
from warhost.rulesets.dnd35_wars import combat, damage, machines, movement, reach, tables
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, UnitSpec
from warhost.rulesets.dnd35_wars.state import MERGED, Machine, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("slits", "lower_bridge", "cross", "climb")
"""The unit-action order kinds this module carries out."""

TOWER_FEET_PER_ROUND = Fraction(15, 2)
"""W35-TOWER-03/13: 15 ft every other round (points: tables.siege_move_points, AMB-13)."""
TOWER_HP = 100
"""W35-TOWER-05."""
TOWER_AC = 3
TOWER_HARDNESS = 5
"""W35-AMB-46: the siege-weapon values unless the scenario says otherwise."""
TOWER_INITIATIVE = -4
"""W35-TOWER-07."""
SLIT_PENALTY = -2
"""W35-TOWER-10: attacks through the arrow slits."""
SLIT_SIDES = 4
"""W35-TOWER-11: at most one target per side of the tower."""

SIDE_NAMES: dict[Square, str] = {(0, 1): "N", (1, 0): "E", (0, -1): "S", (-1, 0): "W"}
"""The four sides of the tower, by the step out of it."""

_MOVES = frozenset(movement.ORDER_KINDS)
_SHUT_WHILE_CLOSED = frozenset({"charge", "melee", "shoot", "split", "regroup"})
_SHUT_ONCE_DOWN = frozenset({"move", "disengage", "pass", "split", "regroup", "charge"})


# ---------------------------------------------------------------------------------------------
# Set-up: walls and gates, tower units (W35-AMB-45, W35-TOWER-05..09, W35-AMB-77)
# ---------------------------------------------------------------------------------------------


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """Mark the wall and gate squares, and make every siege tower unit a stack of 7 counters
    on its tower's square."""
    for spec in scenario.map.structures:
        if not spec.barrier:
            continue
        state.barrier_holder[spec.id] = spec.held_by
        if spec.gate:
            state.gates.add(spec.id)
        for sq in state.structures[spec.id].squares:
            state.barrier_at[sq] = spec.id
    for side in scenario.sides:
        for unit_spec in side.units:
            if unit_spec.siege_tower:
                make_tower(state, state.units[unit_spec.id], unit_spec)


def make_tower(state: WarState, unit: Unit, spec: UnitSpec) -> None:
    """Turn a freshly derived unit, placed on its one square, into a siege tower unit: 7
    counters of 10 stacked there, counter HP = typical HP, initiative -4 and the tower's
    movement points (W35-TOWER-03/07/08/09/13, W35-AMB-13/77)."""
    unit.machine = "tower"
    unit.walk_rate = unit.rate
    unit.rate = tables.siege_move_points(TOWER_FEET_PER_ROUND, state.scale)
    unit.initiative_mod += TOWER_INITIATIVE
    unit.per_counter = Fraction(tables.TOWER_PER_COUNTER)
    unit.counter_hp = unit.creature.hp
    unit.start_hp = unit.hp = tables.TOWER_COUNTERS * unit.creature.hp
    unit.stack = tables.TOWER_COUNTERS
    hp = spec.machine_hp or TOWER_HP
    ac = TOWER_AC if spec.machine_ac is None else spec.machine_ac
    hardness = TOWER_HARDNESS if spec.machine_hardness is None else spec.machine_hardness
    square = min(unit.squares, default=(0, 0))  # a reinforcement's tower finds its square later
    machines.register(state, unit, Machine("tower", "tower", hp, hp, ac, hardness, square))


def _stand_down(state: WarState, unit: Unit) -> None:
    """The unit is a standard unit from now on (W35-TOWER-14): its own move rate and
    initiative modifier, no drawbridge. A stack whose tower is gone spreads onto free squares
    around it."""
    _as_standard(unit)
    unit.machine = None
    state.bridges.discard(unit.id)
    if unit.stack and unit.squares:
        _spread(state, unit)


def _as_standard(unit: Unit) -> None:
    """Give back the unit's own move rate and initiative modifier, once (W35-TOWER-14/22)."""
    if unit.walk_rate is not None:
        unit.rate, unit.walk_rate = unit.walk_rate, None
        unit.initiative_mod -= TOWER_INITIATIVE


def _spread(state: WarState, unit: Unit) -> None:
    """Put a stack's counters on its square and the nearest free squares (engine ruling:
    nearest by Chebyshev distance, then south-west first), keeping the formation joined."""
    (origin,) = tuple(unit.squares)
    want = unit.stack
    unit.stack = 0
    cells = {origin}
    for ring in range(1, 4):
        around = sorted(((origin[0] + dx, origin[1] + dy) for dx in range(-ring, ring + 1)
                         for dy in range(-ring, ring + 1)),
                        key=lambda s: (chebyshev(s, origin), s[1], s[0]))
        for sq in around:
            if len(cells) >= want:
                break
            if sq not in cells and state.inside(sq) and sq not in state.at and \
                    not state.barred(unit.side, sq) and formation_ok(cells | {sq}):
                cells.add(sq)
    if len(cells) < want:  # counters that find no free square nearby are lost (engine ruling)
        unit.hp = min(unit.hp, len(cells) * unit.counter_hp)
    state.place(unit, cells)


# ---------------------------------------------------------------------------------------------
# Cover and the counters that count (W35-TOWER-04/16, W35-AMB-46)
# ---------------------------------------------------------------------------------------------


def targetable_counters(state: WarState, unit: Unit) -> int:
    """The counters of ``unit`` an attack or an area may count (W35-DMG-05): inside a siege
    tower with the drawbridge up, only those that shot since its last turn (none: it cannot
    be targeted at all); any other unit, all its counters."""
    return unit.targetable


# ---------------------------------------------------------------------------------------------
# The turn: what is open and closed to a tower unit
# ---------------------------------------------------------------------------------------------


def turn_begins(state: WarState, unit: Unit) -> None:
    """Note at the start of a tower unit's turn whether an enemy stands on the wall next to
    it (W35-AMB-76); a stack whose tower is gone becomes a standard unit (W35-TOWER-14)."""
    if unit.machine == "tower":
        unit.opposed = any(_enemy_on(state, unit, sq) for sq in _walls_next_to(state, unit))
    elif unit.stack and unit.squares:  # its tower was destroyed elsewhere (machines module)
        _stand_down(state, unit)


def forbids(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``order`` of another module is closed to a tower unit: no charge (W35-TOWER-17);
    while the drawbridge is up, no melee, no ordinary volley (the slits: W35-TOWER-10), no
    split or regroup (W35-TOWER-09); once it is down the tower stays put and its counters leave
    only across the bridge (W35-TOWER-22, engine ruling); no attack in a round it moved
    (W35-TOWER-15)."""
    if unit.machine != "tower":
        return None
    if order.kind == "charge":
        return Refusal("a siege tower unit cannot charge", rule="W35-TOWER-17")
    if unit.closed_tower and order.kind in _SHUT_WHILE_CLOSED:
        return Refusal(f"{unit.label} is inside its siege tower: it shoots only through the "
                       "slits", rule="W35-TOWER-10")
    if not unit.closed_tower and order.kind in _SHUT_ONCE_DOWN:
        return Refusal(f"{unit.label}'s drawbridge is down: its counters leave by `cross`",
                       rule="W35-TOWER-22")
    if order.kind in ("melee", "shoot") and unit.moved_round == state.round:
        return Refusal(f"{unit.label} moved this round", rule="W35-TOWER-15")
    return None


def options(state: WarState, unit: Unit) -> list[Order]:
    """The slit volleys, lowering the drawbridge and crossing for a tower unit; climbing
    through a tower for a unit next to one whose bridge is down."""
    if unit.machine == "tower":
        out = slit_options(state, unit) + bridge_options(state, unit)
    elif state.bridges and unit.machine is None:
        out = climb_options(state, unit)
    else:
        return []
    return [o for o in out if judge(state, unit, o) == o]


def judge(state: WarState, unit: Unit, order: Order) -> Order | Refusal | None:
    """The order if it is a legal tower action for ``unit`` now, else why not."""
    problem = {"slits": slit_problem, "lower_bridge": bridge_problem, "cross": cross_problem,
               "climb": climb_problem}[order.kind](state, unit, order)
    return problem or order


def take(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out a tower order."""
    if order.kind == "slits":
        shoot_slits(state, battle, unit, _plan(order) or {})
    elif order.kind == "lower_bridge":
        lower_bridge(state, battle, unit)
    elif order.kind == "cross":
        sq = movement.parse_offset(str(order.args[1]))
        assert sq is not None
        cross(state, battle, unit, unit, sq)
    elif order.kind == "climb":
        sq = movement.parse_offset(str(order.args[2]))
        assert sq is not None
        cross(state, battle, unit, state.units[str(order.args[1])], sq)
    else:
        raise ValueError(f"no such action: {order}")


# ---------------------------------------------------------------------------------------------
# Shooting through the slits (W35-TOWER-10..12, W35-AMB-47, W35-DEC-25)
# ---------------------------------------------------------------------------------------------


def archers(unit: Unit) -> int:
    """The counters that may shoot: all but the bottom one, which pushes (W35-TOWER-10)."""
    return max(0, unit.counters - 1)


def side_of_tower(tower: Square, target: set[Square]) -> str:
    """The side of the tower facing ``target``: that of its nearest square, by the larger
    offset; an exact diagonal counts as north or south (engine ruling)."""
    near = min(target, key=lambda sq: (chebyshev(sq, tower), sq))
    dx, dy = near[0] - tower[0], near[1] - tower[1]
    if abs(dy) >= abs(dx):
        return "N" if dy > 0 else "S"
    return "E" if dx > 0 else "W"


def _plan(order: Order) -> dict[str, int] | None:
    if len(order.args) < 2:
        return None
    plan = combat.parse_plan(str(order.args[1]))
    if any(n is None for n in plan.values()):
        return None
    return {t: n or 0 for t, n in plan.items()}


def slit_problem(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why a slit volley is not legal: it needs a closed tower that has not moved this round
    (W35-TOWER-15), not engaged, with archers; targets are enemy units it may fire at, at
    most 4 on different sides, each with at least one counter (W35-TOWER-10/11)."""
    plan = _plan(order)
    if plan is None or not plan:
        return Refusal("give each target its counters: slits UNIT t1:n,t2:m", rule="W35-DEC-25")
    if not unit.closed_tower or not unit.can_fight or unit.ranged is None:
        return Refusal(f"{unit.label} has no archers behind slits", rule="W35-TOWER-10")
    if unit.moved_round == state.round:
        return Refusal(f"{unit.label} moved this round", rule="W35-TOWER-15")
    if combat.engaged_units(state, unit):
        return Refusal("a unit engaged in melee cannot fire", rule="W35-MULTI-06")
    if sum(plan.values()) > archers(unit) or min(plan.values()) < 1:
        return Refusal(f"{unit.label} has {archers(unit)} counters above the bottom one to "
                       "shoot, each target at least one", rule="W35-TOWER-10")
    (tower,) = tuple(unit.squares)
    sides: set[str] = set()
    for tid in plan:
        target = state.units.get(tid)
        if target is None:
            return Refusal(f"{tid} is not an enemy unit", rule="W35-TOWER-11")
        problem = combat.target_problem(state, unit, tid)
        if problem is not None:
            return problem
        sides.add(side_of_tower(tower, target.squares))
    if len(plan) > SLIT_SIDES or len(sides) < len(plan):
        return Refusal("the tower's archers engage at most 4 targets, each on its own side",
                       rule="W35-TOWER-11")
    return None


def slit_options(state: WarState, unit: Unit) -> list[Order]:
    """All archers at each target in reach, and, with targets on several sides, the nearest
    target on each side with the archers shared evenly."""
    if not unit.closed_tower or archers(unit) < 1 or unit.ranged is None:
        return []
    (tower,) = tuple(unit.squares)
    by_side: dict[str, str] = {}
    out = []
    shooters = archers(unit)
    for foe in sorted(state.units_of(state.other(unit.side)),
                      key=lambda u: (min(chebyshev(tower, sq) for sq in u.squares), u.id)):
        if combat.target_problem(state, unit, foe.id) is None:
            out.append(Order.of("slits", unit.id, f"{foe.id}:{shooters}"))
            by_side.setdefault(side_of_tower(tower, foe.squares), foe.id)
    if len(by_side) > 1:
        tids = list(by_side.values())[:min(SLIT_SIDES, shooters)]
        shares = [shooters // len(tids) + (1 if i < shooters % len(tids) else 0)
                  for i in range(len(tids))]
        out.append(Order.of("slits", unit.id, ",".join(f"{t}:{n}" for t, n in zip(tids, shares))))
    return out


def shoot_slits(state: WarState, battle: Battle, unit: Unit, plan: dict[str, int]) -> None:
    """One attack roll per target at -2 plus range, multiplied by the counters shooting at it
    (capped as any volley, W35-DMG-05), the total cut by the tower damage factor, rounded down
    (W35-TOWER-10..12, W35-AMB-47). The shooters become targetable (W35-AMB-46)."""
    attack = unit.ranged
    assert attack is not None
    unit.exposed = True
    unit.slit_counters = sum(plan.values())
    battle.emit("slit_volley", unit=unit.id, plan=",".join(f"{t}:{n}" for t, n in plan.items()))
    for tid, count in plan.items():
        target = state.units[tid]
        penalty = combat.range_modifier(state, unit, target.squares)
        if not target.on_map or penalty is None:
            continue
        multiplier = reach.ranged_multiplier(count, target.targetable, attack.crossbow,
                                             state.options.crossbow_cap_by_target)
        bonus = combat.attack_bonus(state, unit, target, "ranged", extra=SLIT_PENALTY + penalty)
        ac = combat.ac_against(state, target, unit, "ranged")
        roll = damage.roll_attack(battle, bonus.total, ac, crit_range=attack.crit_range,
                                  crit_ok=damage.crits_allowed(state, unit, target),
                                  why=f"{unit.id} slit attack on {target.id}")
        damage.emit_attack(battle, unit, target, roll, ac, kind="ranged", multiplier=multiplier,
                           flanking=False)
        if not roll.hit or multiplier < 1:
            continue
        per = damage.roll_damage(battle, attack, roll.crit, f"{unit.id} damage on {target.id}")
        _slit_damage(state, battle, unit, target, per, multiplier)


def tower_damage(per_hit_after_dr: int, multiplier: int, factor: float) -> int:
    """The slit archers' damage: the multiplied total times the tower damage factor, rounded
    down (W35-TOWER-12, W35-AMB-47); the factor is read as an exact decimal."""
    exact = Fraction(str(factor))
    return math.floor(per_hit_after_dr * multiplier * exact)


def _slit_damage(state: WarState, battle: Battle, unit: Unit, target: Unit, per_hit: int,
                 multiplier: int) -> int:
    """:func:`damage.hit_unit` with the total cut to the tower damage factor."""
    attack = unit.ranged
    assert attack is not None
    reason = None
    if damage.sheltered(state, target):
        reason = "sheltered"
    elif target.creature.mundane_immune and not attack.magic:
        reason = "mundane"
    per = max(0, per_hit - damage.unit_dr(state, target))
    total = tower_damage(per, multiplier, state.options.tower_damage_factor)
    if reason is None and total <= 0:
        reason = "dr"
    if reason is not None:
        battle.emit("unharmed", unit=target.id, source=unit.id, reason=reason)
        return 0
    target.hit_counters = target.counters
    return damage.apply_to_unit(state, battle, target, total, unit.id, kind="ranged",
                                attacker=unit)


# ---------------------------------------------------------------------------------------------
# The drawbridge (W35-TOWER-19..22, W35-AMB-76)
# ---------------------------------------------------------------------------------------------


def _around(sq: Square) -> list[Square]:
    return [(sq[0] + dx, sq[1] + dy) for dx, dy in DIRECTIONS4]


def _walls_next_to(state: WarState, unit: Unit) -> list[Square]:
    """The intact wall squares, not held by the tower's side, sharing a side with the tower."""
    if not unit.squares or not state.barrier_at:
        return []
    (tower,) = tuple(unit.squares)
    return [sq for sq in _around(tower) if sq in state.barrier_at
            and state.structure_hp.get(state.barrier_at[sq], 1) > 0
            and state.barrier_holder.get(state.barrier_at[sq]) != unit.side]


def _enemy_on(state: WarState, unit: Unit, sq: Square) -> bool:
    """An enemy unit counter or enemy singular creature stands on ``sq``."""
    oid = state.at.get(sq)
    actor = None if oid is None else state.units.get(oid) or state.singles.get(oid)
    return actor is not None and actor.side != unit.side


def bridge_problem(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why the drawbridge cannot come down now: it must be a tower with the bridge up, next
    to an enemy wall, unopposed at the start of its turn (W35-TOWER-19, W35-AMB-76)."""
    if not unit.closed_tower or not unit.can_fight:
        return Refusal(f"{unit.label} has no drawbridge to lower", rule="W35-TOWER-19")
    if not _walls_next_to(state, unit):
        return Refusal(f"{unit.label} is not next to a fortified wall", rule="W35-TOWER-19")
    if unit.opposed:
        return Refusal("enemies stood on the wall next to the tower when its turn began",
                       rule="W35-AMB-76")
    return None


def bridge_options(state: WarState, unit: Unit) -> list[Order]:
    """Lowering the drawbridge, or sending the top counter across it onto each free wall
    square it may reach."""
    if unit.closed_tower:
        return [Order.of("lower_bridge", unit.id)]
    return [Order.of("cross", unit.id, f"{x},{y}") for x, y in landing_squares(state, unit)]


def lower_bridge(state: WarState, battle: Battle, unit: Unit) -> None:
    """The drawbridge comes down: the unit is a standard unit from now on, staying in the
    tower (W35-TOWER-19/22)."""
    unit.bridge_round = state.round
    state.bridges.add(unit.id)
    _as_standard(unit)
    battle.emit("bridge_lowered", unit=unit.id)


def _bridge_of(state: WarState, tower_id: str) -> Unit | None:
    tower = state.units.get(tower_id)
    if tower is None or tower.id not in state.bridges or not tower.squares:
        return None
    return tower


def landing_squares(state: WarState, mover: Unit, tower: Unit | None = None) -> list[Square]:
    """Free wall squares a counter crossing from ``tower`` (default: the mover's own) may
    land on: next to the tower, or next to the unit the mover already formed on the wall."""
    tower = tower or mover
    if not tower.squares:
        return []
    (at,) = tuple(tower.squares)
    near = set(_around(at))
    joined = state.units.get(mover.wall_unit or "")
    if joined is not None and joined.on_map:
        near |= {sq for own in joined.squares for sq in _around(own)}
    return sorted(sq for sq in near if sq in state.barrier_at and sq not in state.at
                  and (joined is None or not joined.on_map or sq in _joinable(joined, sq)))


def _joinable(joined: Unit, sq: Square) -> set[Square]:
    """``{sq}`` when adding ``sq`` keeps the wall unit one legal formation."""
    return {sq} if formation_ok(joined.squares | {sq}) else set()


def _crossing_problem(state: WarState, mover: Unit, tower: Unit, text: str) -> Refusal | None:
    if tower.bridge_round < 0 or tower.bridge_round >= state.round:
        return Refusal("counters cross from the round after the drawbridge came down",
                       rule="W35-TOWER-19")
    if mover.crossed_round == state.round:
        return Refusal("one counter a round crosses", rule="W35-TOWER-20")
    if not mover.can_fight:
        return Refusal(f"{mover.label} cannot act", rule="W35-TOWER-20")
    sq = movement.parse_offset(text)
    if sq is None or sq not in landing_squares(state, mover, tower):
        return Refusal(f"{text} is not a free wall square next to the tower or to the unit "
                       "already on the wall", rule="W35-TOWER-20")
    return None


def cross_problem(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why the tower's top counter cannot cross onto the wall square given (W35-TOWER-19/20)."""
    if unit.machine != "tower" or len(order.args) < 2:
        return Refusal("only a tower unit crosses its own drawbridge: cross UNIT x,y",
                       rule="W35-TOWER-20")
    return _crossing_problem(state, unit, unit, str(order.args[1]))


def _leaving_counter(state: WarState, unit: Unit, tower: Unit) -> Square | None:
    """The climbing unit's counter that goes up: one sharing a side with the tower whose
    going leaves a legal formation (the first, south-west first)."""
    for sq in sorted(unit.squares, key=lambda s: (s[1], s[0])):
        if share_side({sq}, tower.squares) and (unit.counters == 1 or formation_ok(
                unit.squares - {sq})):
            return sq
    return None


def climb_problem(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``unit`` cannot send a counter up through the tower named (W35-TOWER-21)."""
    tower = _bridge_of(state, str(order.args[1])) if len(order.args) > 2 else None
    if tower is None or tower.side != unit.side or tower.id == unit.id:
        return Refusal("climb UNIT TOWER x,y names an allied tower whose drawbridge is down",
                       rule="W35-TOWER-21")
    if unit.machine is not None or unit.stack:
        return Refusal(f"{unit.label} cannot climb", rule="W35-TOWER-21")
    if combat.engaged_units(state, unit):
        return Refusal("an engaged unit leaves only by Disengage", rule="W35-AMB-37")
    if unit.crossed_round == state.round:
        return Refusal("one counter a round climbs", rule="W35-TOWER-20")
    if _leaving_counter(state, unit, tower) is None:
        return Refusal(f"no counter of {unit.label} can leave from beside the tower",
                       rule="W35-TOWER-21")
    return _crossing_problem(state, unit, tower, str(order.args[2]))


def climb_options(state: WarState, unit: Unit) -> list[Order]:
    """Climbing through each allied tower with its bridge down that the unit touches."""
    out = []
    for tid in sorted(state.bridges):
        tower = _bridge_of(state, tid)
        if tower is not None and tower.side == unit.side and share_side(unit.squares,
                                                                        tower.squares):
            out += [Order.of("climb", unit.id, tid, f"{x},{y}")
                    for x, y in landing_squares(state, unit, tower)]
    return out



def _wall_unit(state: WarState, source: Unit, sq: Square, hp: int, creatures: int) -> Unit:
    """A new standard unmounted unit of one counter on the wall (W35-TOWER-20/22), acting at
    the source's initiative - 1 (as a split-off unit, W35-AMB-62)."""
    n = 2
    while f"{source.id}-wall{'' if n == 2 else n}" in state.units:
        n += 1
    new = source.offshoot(id=f"{source.id}-wall{'' if n == 2 else n}", squares=set(), singles=[],
                          leader=None, pending=set(), morale_mods=[], approached_by=set(),
                          stuck_in=None, passing=False, bank=Fraction(0), bank_step=None, hp=hp,
                          start_hp=source.counter_hp, creatures=creatures, machine=None, stack=0,
                          bridge_round=-1, wall_unit=None, exposed=False, slit_counters=0,
                          walk_rate=None,
                          initiative_mod=source.initiative_mod, split_round=state.round,
                          split_this_round=True)
    state.units[new.id] = new
    state.place(new, {sq})
    state.act_after(source.id, new.id)
    return new


def cross(state: WarState, battle: Battle, mover: Unit, tower: Unit, sq: Square) -> None:
    """One counter of ``mover`` (the top of the tower's stack, or a climbing unit's counter
    beside the tower) goes onto wall square ``sq``: it forms a new unit there or joins the one
    the mover formed before (W35-TOWER-20/21, W35-AMB-77)."""
    moved_hp = min(mover.counter_hp, mover.hp)
    creatures = min(mover.creatures, max(1, int(mover.per_counter)))
    if mover.stack:
        mover.stack -= 1
        left = set() if not mover.stack else set(mover.squares)
    else:
        leaving = _leaving_counter(state, mover, tower)
        assert leaving is not None
        left = mover.squares - {leaving}
    mover.hp -= moved_hp
    mover.creatures -= creatures
    mover.crossed_round = state.round
    joined = state.units.get(mover.wall_unit or "")
    if joined is not None and joined.on_map:
        joined.hp += moved_hp
        joined.start_hp += mover.counter_hp
        joined.creatures += creatures
        state.place(joined, joined.squares | {sq})
    else:
        joined = _wall_unit(state, mover, sq, moved_hp, creatures)
        mover.wall_unit = joined.id
    if left:
        if not mover.stack:
            state.place(mover, left)
        mover.start_hp = max(mover.hp, mover.counters * mover.counter_hp)
    else:
        _emptied(state, mover)
    movement.update_contacts(state, joined)
    battle.emit("crossed", unit=mover.id, tower=tower.id, onto=joined.id, at=list(sq),
                left=mover.counters)


def _emptied(state: WarState, unit: Unit) -> None:
    """Every counter of ``unit`` has gone onto the wall: it is merged into its wall unit."""
    state.disengage(unit.id)
    state.lift(unit)
    unit.squares = set()
    unit.stack = 0
    unit.status = MERGED
    state.bridges.discard(unit.id)
    if unit.id in state.order:
        state.order.remove(unit.id)


# ---------------------------------------------------------------------------------------------
# AI
# ---------------------------------------------------------------------------------------------


def _hit_chance(bonus: int, ac: int) -> Fraction:
    return Fraction(min(19, max(1, 21 - (ac - bonus))), 20)


def ai_value(state: WarState, unit: Unit, order: Order) -> float:
    """Expected enemy HP taken by a slit volley; for crossing or climbing, the HP put on the
    wall; for lowering the bridge, half the HP it can send across."""
    if order.kind == "slits":
        plan = _plan(order) or {}
        attack = unit.ranged
        if attack is None:
            return 0.0
        value = Fraction(0)
        for tid, count in plan.items():
            target = state.units.get(tid)
            if target is None:
                continue
            per = max(0, DamageDice.parse(attack.damage).average - damage.unit_dr(state, target))
            mult = reach.ranged_multiplier(count, target.targetable, attack.crossbow,
                                           state.options.crossbow_cap_by_target)
            value += _hit_chance(attack.bonus + SLIT_PENALTY, target.ac) * tower_damage(
                per, mult, state.options.tower_damage_factor)
        return float(value)
    if order.kind in ("cross", "climb"):
        return float(min(unit.counter_hp, unit.hp))
    if order.kind == "lower_bridge":
        return float(unit.hp) / 2
    return 0.0
