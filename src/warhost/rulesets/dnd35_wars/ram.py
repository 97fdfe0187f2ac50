"""Battering rams and the units that swing them (W35-RAM, W35-AMB-75, W35-DEC-26).

A ram unit holds exactly the creatures its ram needs (W35-RAM-02). It is usually defined in
the scenario; a side given rams (``SideSpec.rams``) may instead form one in play from its most
forward unit, as that unit's action. Each round a ram unit either moves at its standard rate or
strikes an adjacent structure section: no attack roll, 14 + the swingers' Strength modifiers,
less the section's hardness (W35-RAM-03/04/07, W35-AMB-45). It gets no Dexterity bonus to AC
(W35-RAM-08).

The length, cost and travelling at the back of the army (W35-RAM-01/05) are descriptive: the
numbers are in :mod:`tables` and a scenario puts its ram units where it likes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS4, Square, chebyshev, formation_ok, share_side
from warhost.rulesets.dnd35_wars import combat, damage, tables
from warhost.rulesets.dnd35_wars.derive import ability_modifier
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.state import Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("ram", "form_ram")
"""The unit-action order kinds this module carries out."""

RAM_MOVES = frozenset({"move", "disengage"})
"""The other modules' actions a ram unit keeps: moving at its standard rate (W35-RAM-07;
Disengage, a move at the same rate, so that an engaged ram can still get away)."""


def prepare(state: WarState, scenario: Dnd35WarsScenario) -> None:
    """Make the scenario's ram units ram units, and note the rams each side may form."""
    for side in scenario.sides:
        if side.rams:
            state.rams_left[side.name] = side.rams
        for spec in side.units:
            if spec.ram:
                make_ram(state.units[spec.id])


def make_ram(unit: Unit) -> None:
    """A ram unit: no Dexterity bonus to its AC or touch AC (W35-RAM-08; a Dexterity penalty
    stays)."""
    unit.machine = "ram"
    bonus = max(0, ability_modifier(unit.creature.dex_score))
    unit.ac -= bonus
    unit.touch_ac -= bonus


def swingers(unit: Unit) -> int:
    """The creatures swinging the ram: its crew, or fewer when fewer are left."""
    crew = tables.ram_crew(unit.size) or 0
    return min(crew, unit.derived_creatures)


def ram_damage(unit: Unit) -> int:
    """The ram's damage before hardness: 14 + each swinger's Strength modifier (W35-RAM-04)."""
    return tables.ram_damage(swingers(unit) * ability_modifier(unit.creature.str_score))


# ---------------------------------------------------------------------------------------------
# The unit action
# ---------------------------------------------------------------------------------------------


def forbids(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """A ram unit only moves or rams (W35-RAM-07)."""
    if unit.machine != "ram" or order.kind in RAM_MOVES:
        return None
    return Refusal(f"{unit.label} only moves with its ram or strikes with it",
                   rule="W35-RAM-07")


def options(state: WarState, unit: Unit) -> list[Order]:
    """Ram strikes on each adjacent section for a ram unit; forming a ram for the side's most
    forward unit while the side has rams to form."""
    if unit.machine == "ram":
        return [Order.of("ram", unit.id, sid) for sid in sorted(_targets(state, unit.side))
                if ram_problem(state, unit, Order.of("ram", unit.id, sid)) is None]
    if not state.rams_left.get(unit.side) or unit.machine is not None or unit.stack:
        return []
    order = Order.of("form_ram", unit.id)
    return [order] if form_problem(state, unit, order) is None else []


def judge(state: WarState, unit: Unit, order: Order) -> Order | Refusal | None:
    """The order if it is a legal ram action for ``unit`` now, else why not."""
    check = ram_problem if order.kind == "ram" else form_problem
    return check(state, unit, order) or order


def take(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out a ram order."""
    if order.kind == "ram":
        strike(state, battle, unit, str(order.args[1]))
    elif order.kind == "form_ram":
        form(state, battle, unit)
    else:
        raise ValueError(f"no such action: {order}")


def _targets(state: WarState, side: str) -> list[str]:
    """Structure sections with hit points left that ``side`` does not hold."""
    return [sid for sid, hp in state.structure_hp.items()
            if hp > 0 and state.barrier_holder.get(sid) != side]


def ram_problem(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``unit`` cannot ram the section named: it must be a ram unit that can act, next to
    (sharing a side with) a section that has hit points left (W35-RAM-03/07, W35-AMB-45)."""
    if unit.machine != "ram" or not unit.can_fight:
        return Refusal(f"{unit.label} has no ram", rule="W35-RAM-07")
    sid = str(order.args[1]) if len(order.args) > 1 else ""
    section = state.structures.get(sid)
    if section is None or sid not in state.structure_hp:
        return Refusal(f"{sid or '?'} is not a structure section with hit points",
                       rule="W35-AMB-45")
    if state.structure_hp[sid] <= 0:
        return Refusal(f"{sid} is already breached", rule="W35-AMB-45")
    if not share_side(unit.squares, section.squares):
        return Refusal(f"{unit.label} is not next to {sid}", rule="W35-RAM-03")
    return None


def strike(state: WarState, battle: Battle, unit: Unit, sid: str) -> int:
    """The ram hits the section without an attack roll (W35-RAM-03) for :func:`ram_damage`,
    less the section's hardness (W35-RAM-04, W35-AMB-45); the HP it lost."""
    amount = ram_damage(unit)
    unit.exposed = True
    battle.emit("ram_strike", unit=unit.id, structure=sid, damage=amount,
                swingers=swingers(unit))
    return damage.hit_structure(state, battle, sid, amount, source=unit.id)


# ---------------------------------------------------------------------------------------------
# Forming a ram in play (W35-RAM-06, W35-AMB-75, W35-DEC-26)
# ---------------------------------------------------------------------------------------------


def _gap(squares: set[Square], targets: list[frozenset[Square]]) -> int:
    return min(chebyshev(a, b) for a in squares for t in targets for b in t)


def _target_squares(state: WarState, side: str) -> list[frozenset[Square]]:
    return [state.structures[sid].squares for sid in _targets(state, side)]


def most_forward(state: WarState, side: str) -> set[str]:
    """The side's fighting units nearest any structure section it may ram (ties: all)."""
    targets = _target_squares(state, side)
    if not targets:
        return set()
    gaps = {u.id: _gap(u.squares, targets) for u in state.units_of(side)
            if u.can_fight and u.machine is None and not u.stack}
    best = min(gaps.values(), default=None)
    return {uid for uid, gap in gaps.items() if gap == best}


def crew_loss(unit: Unit, crew: int) -> int:
    """HP the donor loses: ceil(crew / its creatures per counter x its counter HP)
    (W35-AMB-75)."""
    return math.ceil(Fraction(crew) / unit.per_counter * unit.counter_hp)


def ram_counters(crew: int, size: str, scale: int) -> int:
    """Counters of a ram unit: ceil(crew / creatures a square holds) (W35-AMB-75)."""
    return -(-crew // max(1, tables.capacity(size, scale)))


def _spots(state: WarState, donor: Unit, need: int) -> list[Square] | None:
    """Free squares beside the donor for the ram's counters, nearest the target first, joined
    edge to edge (None: no room)."""
    targets = _target_squares(state, donor.side)
    free = _free_for_ram(state, donor)
    cells: list[Square] = []
    while len(cells) < need:
        near = donor.squares | set(cells) if not cells else set(cells)
        ring = {(x + dx, y + dy) for x, y in near for dx, dy in DIRECTIONS4} - donor.squares
        pick = sorted((sq for sq in ring if sq not in cells and free(sq)
                       and formation_ok([*cells, sq])),
                      key=lambda sq: (_gap({sq}, targets), sq[1], sq[0]))
        if not pick:
            return None
        cells.append(pick[0])
    return cells


def _free_for_ram(state: WarState, unit: Unit) -> Callable[[Square], bool]:
    """Squares the ram's counters may stand on: on the map, empty, not barred by a wall."""
    def free(sq: Square) -> bool:
        return state.inside(sq) and sq not in state.at and not (
            sq in state.barrier_at and state.barred(unit.side, sq))
    return free


def form_problem(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why ``unit`` cannot give the crew of a ram now (W35-RAM-02/06, W35-AMB-75)."""
    if not state.rams_left.get(unit.side):
        return Refusal(f"side {unit.side} has no ram to bring forward", rule="W35-RAM-06")
    if not unit.can_fight or unit.machine is not None or unit.stack:
        return Refusal(f"{unit.label} cannot give a ram crew", rule="W35-RAM-06")
    if combat.engaged_units(state, unit):
        return Refusal("an engaged unit leaves only by Disengage", rule="W35-AMB-37")
    if unit.id not in most_forward(state, unit.side):
        return Refusal("the ram is formed from the unit nearest the target structure",
                       rule="W35-AMB-75")
    crew = tables.ram_crew(unit.size)
    if crew is None:
        return Refusal(f"{unit.size} creatures cannot swing a ram", rule="W35-RAM-02")
    if unit.creatures <= crew or unit.hp <= crew_loss(unit, crew):
        return Refusal(f"{unit.label} has too few creatures left for a crew of {crew}",
                       rule="W35-RAM-02")
    if _spots(state, unit, ram_counters(crew, unit.size, state.scale)) is None:
        return Refusal(f"no free square beside {unit.label} for the ram", rule="W35-PLACE-06")
    return None



def _shrink(state: WarState, donor: Unit) -> None:
    """Counters the donor's HP no longer fill go, those farthest from the target first."""
    targets = _target_squares(state, donor.side)
    while donor.counters > tables.counters_left(donor.hp, donor.counter_hp):
        order = sorted(donor.squares, key=lambda sq: (-_gap({sq}, targets), sq[1], sq[0]))
        gone = next((sq for sq in order if formation_ok(donor.squares - {sq})), order[0])
        state.remove_counters(donor, {gone})


def form(state: WarState, battle: Battle, donor: Unit) -> Unit:
    """The crew leaves the donor as a new ram unit beside it, nearest the target: the exact
    W35-RAM-02 crew, counters and HP as any unit, the donor losing the matching HP
    (W35-RAM-06, W35-AMB-75). It acts at the donor's initiative - 1."""
    crew = tables.ram_crew(donor.size)
    assert crew is not None
    counters = ram_counters(crew, donor.size, state.scale)
    spots = _spots(state, donor, counters)
    assert spots is not None
    loss = crew_loss(donor, crew)
    hp = tables.starting_unit_hp(donor.creature.hp, counters)
    n = 1
    while f"{donor.id}-ram{'' if n == 1 else n}" in state.units:
        n += 1
    new = donor.offshoot(id=f"{donor.id}-ram{'' if n == 1 else n}", squares=set(), singles=[],
                         leader=None, pending=set(), morale_mods=[], approached_by=set(),
                         stuck_in=None, passing=False, bank=Fraction(0), bank_step=None,
                         creatures=crew, per_counter=Fraction(crew, counters),
                         counter_hp=tables.starting_counter_hp(hp, counters), hp=hp, start_hp=hp,
                         split_round=state.round, exposed=False)
    make_ram(new)
    donor.hp -= loss
    donor.creatures -= crew
    _shrink(state, donor)
    donor.start_hp = max(donor.hp, donor.counters * donor.counter_hp)
    state.rams_left[donor.side] -= 1
    state.units[new.id] = new
    state.place(new, set(spots))
    if donor.id in state.initiative:
        state.act_after(donor.id, new.id)
    battle.emit("ram_formed", unit=new.id, donor=donor.id, creatures=crew, hp=hp,
                donor_hp=loss)
    return new


# ---------------------------------------------------------------------------------------------
# AI
# ---------------------------------------------------------------------------------------------


def ai_value(state: WarState, unit: Unit, order: Order) -> float:
    """Structure HP a strike takes (exact: no roll); forming a ram, one strike's worth."""
    if order.kind == "ram":
        sid = str(order.args[1])
        section = state.structures.get(sid)
        if section is None:
            return 0.0
        from warhost.rulesets.dnd35_wars import ai_siege

        taken = min(state.structure_hp.get(sid, 0), max(0, ram_damage(unit) - section.hardness))
        return float(taken) * ai_siege.breach_weight(state, unit.side, sid)
    if order.kind == "form_ram":
        crew = tables.ram_crew(unit.size) or 0
        return float(max(0, tables.ram_damage(crew * ability_modifier(
            unit.creature.str_score))) / 2)
    return 0.0
