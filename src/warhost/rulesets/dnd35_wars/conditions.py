"""Lasting spell effects on units (W35-SPELL-03, W35-SPELL-06..16, W35-AMB-56/57/73/94/96,
W35-DEC-21/22).

The magic code works out how many counters a spell affects and whether they saved; this module
keeps what the spell then leaves on the unit until it ends:

- numerical modifiers (buffs and penalties, :func:`add_modifier`, read by :func:`modifier`):
  the same source replaces its earlier modifier, different sources add up; morale modifiers
  go to the unit's morale effects, where the highest bonus counts and penalties add
  (W35-AMB-81);
- hindered counters (:func:`hinder`): held (speed 0) or slowed (half speed); the unit moves at
  their speed while they stay together, may split the free counters off (W35-DEC-21), and its
  free counters carry the hindered ones to the rear when it changes formation (W35-AMB-94);
- counters out of the fight (:func:`disable`): off the board, their HP lost as damage, back
  when the spell ends, rejoining the unit or forming a new one (W35-AMB-57, W35-DEC-22);
- fear (:func:`frighten`) and turning (:func:`turn_undead`), the latter a forced rout of ten
  rounds without rallying (W35-AMB-73).

:func:`tick` runs at the start of every round and ends what has run its course. A duration of
``n`` rounds given in round ``r`` ends at the start of round ``r + n``; 0 is the rest of the
battle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import (
    DIRECTIONS4,
    Square,
    chebyshev,
    formation_ok,
    projection,
    removal_order,
)
from warhost.rulesets.dnd35_wars import areas, damage, morale, movement
from warhost.rulesets.dnd35_wars.state import FIGHTING, ROUTED, Absent, Single, Unit, WarState

STATS: tuple[str, ...] = ("attack", "ac", "saves", "damage", "morale")
"""What a lasting modifier may change."""

SPEEDS: tuple[str, ...] = ("zero", "half")
"""A hindering spell's speed for the counters it affects (W35-SPELL-06)."""

TURNING_ROUNDS = 10
"""Turned undead flee for 10 rounds, standard 3.5 (W35-AMB-73)."""

FEAR_DC = 15
"""Ruling: a fear effect that does not cover the whole unit calls for a morale check at the
DC of an area attack (W35-MORALE-03)."""

HINDERED = "hindered"
"""Decision kind (W35-DEC-21): stay together with the hindered counters, or split off."""
RETURN_SQUARE = "return_square"
"""Decision kind (W35-DEC-22): where a returning counter goes when its square is taken."""
NEW_UNIT = "charmed_new_unit"
"""Decision kind (W35-DEC-22): whether returning counters left apart form a new unit."""


# ---------------------------------------------------------------------------------------------
# Modifiers (W35-SPELL-03/09, W35-AMB-56/96)
# ---------------------------------------------------------------------------------------------


def add_modifier(state: WarState, battle: Battle, unit: Unit, stat: str, amount: int,
                 rounds: int, source: str) -> None:
    """Give ``unit`` a modifier to ``stat`` for ``rounds`` rounds (0: the rest of the battle).
    A later modifier from the same source replaces the earlier; an amount of 0 (a penalty
    rounded to nothing, W35-AMB-56) only clears it."""
    if stat not in STATS:
        raise ValueError(f"unknown stat {stat!r}; use one of {', '.join(STATS)}")
    if rounds < 0:
        raise ValueError(f"a duration cannot be negative ({rounds})")
    key = (stat, source)
    if amount == 0:
        unit.modifiers.pop(key, None)
        if stat == "morale":
            morale.end_morale_effect(unit, source)
    else:
        unit.modifiers[key] = (amount, state.round + rounds if rounds else 0)
        if stat == "morale":
            morale.add_morale_effect(unit, source, amount)
    battle.emit("modifier", unit=unit.id, stat=stat, amount=amount, rounds=rounds,
                source=source)


def modifier(unit: Unit, stat: str) -> int:
    """The unit's total lasting modifier to ``stat``: modifiers of different sources add up;
    for morale the highest bonus and every penalty (W35-AMB-81)."""
    if stat == "morale":
        bonus, penalty = morale.effect_modifiers(unit)
        return bonus + penalty
    if not unit.modifiers:
        return 0
    return sum(amount for (name, _), (amount, _) in unit.modifiers.items() if name == stat)


def save_modifier(unit: Unit) -> int:
    """The lasting modifier to every saving throw of ``unit``."""
    return modifier(unit, "saves")


def _expire_modifiers(state: WarState, battle: Battle, unit: Unit) -> None:
    for key, (_, ends) in sorted(unit.modifiers.items()):
        if ends and ends <= state.round:
            del unit.modifiers[key]
            if key[0] == "morale":
                morale.end_morale_effect(unit, key[1])
            battle.emit("modifier_ends", unit=unit.id, stat=key[0], source=key[1])


# ---------------------------------------------------------------------------------------------
# Hindered counters (W35-SPELL-06..08, W35-AMB-94, W35-DEC-21)
# ---------------------------------------------------------------------------------------------


def held_counters(unit: Unit) -> set[Square]:
    """The unit's counters still hindered (counters lost since no longer count)."""
    if not unit.held:
        return set()
    return unit.held & unit.squares


def held_still(unit: Unit) -> bool:
    """Some counter of the unit is held at speed 0 (W35-AMB-94)."""
    return unit.held_speed == "zero" and bool(held_counters(unit))


def points(unit: Unit, full: Fraction) -> Fraction:
    """Movement points ``full`` as the unit's hindered counters allow while it stays together:
    none while any is held, half while any is slowed (W35-SPELL-08)."""
    if not unit.held or not held_counters(unit):
        return full
    return Fraction(0) if unit.held_speed == "zero" else Fraction(full) / 2


def _enemy_squares(state: WarState, unit: Unit) -> list[Square]:
    """The squares of every enemy on the map: units and independent creatures."""
    out = [sq for foe in state.units_of(state.other(unit.side)) for sq in foe.squares]
    out += [s.square for s in state.singles.values()
            if s.side != unit.side and s.independent and s.square is not None]
    return out


def _front(state: WarState, unit: Unit, k: int) -> set[Square]:
    """Ruling: a spell hindering ``k`` counters of a unit takes those nearest the enemy (the
    caster is among them), leaving the rest a legal formation where one exists."""
    free = removal_order(unit.squares, _enemy_squares(state, unit), unit.counters - k)
    return unit.squares - set(free)


def hinder(state: WarState, battle: Battle, unit: Unit, counters: int, speed: str, rounds: int,
           source: str) -> None:
    """Hold (speed ``zero``) or slow (``half``) ``counters`` of the unit's front counters for
    ``rounds`` rounds (W35-SPELL-06); its commander then keeps them together or splits the free
    counters off (W35-SPELL-07, W35-DEC-21). A second hindrance adds its counters; the slower
    speed and the later end count."""
    if speed not in SPEEDS:
        raise ValueError(f"unknown speed {speed!r}; use zero or half")
    k = min(counters, unit.counters)
    if k <= 0 or not unit.on_map:
        return
    old = held_counters(unit)
    chosen = _front(state, unit, k)
    unit.held = old | chosen
    slowest = speed == "zero" or bool(old) and unit.held_speed == "zero"
    unit.held_speed = "zero" if slowest else "half"
    ends = state.round + rounds if rounds else 0
    if old and (not ends or not unit.held_ends):
        ends = 0
    elif old:
        ends = max(ends, unit.held_ends)
    unit.held_ends = ends
    battle.emit("hindered", unit=unit.id, counters=len(unit.held), speed=unit.held_speed,
                rounds=rounds, source=source)
    _stay_or_split(state, battle, unit)


def _free_group(state: WarState, unit: Unit) -> frozenset[Square] | None:
    """The unit's free counters, when they may split off now as a legal formation leaving
    a legal one (W35-AMB-62) and the unit is not engaged (W35-AMB-37)."""
    held = held_counters(unit)
    free = frozenset(unit.squares - held)
    if not free or not held or unit.split_round == state.round or state.foes_engaged(unit.id):
        return None
    if not formation_ok(free) or not formation_ok(held):
        return None
    return free


def _squares_text(squares: Iterable[Square]) -> str:
    return ";".join(f"{x},{y}" for x, y in sorted(squares))


def _stay_or_split(state: WarState, battle: Battle, unit: Unit) -> None:
    """W35-DEC-21: the free counters stay to protect the hindered ones (the default) or split
    off where they stand as a new unit acting at initiative − 1 (W35-SPELL-07)."""
    free = _free_group(state, unit)
    if free is None:
        return
    stay = Order.of("stay", unit.id)
    split = Order.of("split_off", unit.id)
    answer = battle.ask(unit.side, HINDERED, (stay, split),
                        f"{unit.label}: stay with the hindered counters or split off?", unit.id,
                        default=stay)
    if answer == split:
        split_free(state, battle, unit, free, (0, 0))


def split_free(state: WarState, battle: Battle, unit: Unit, free: frozenset[Square],
               offset: Square) -> Unit:
    """The free counters split off (by ``offset``) as a new, unhindered unit through the
    ordinary Split Up (W35-SPELL-07, W35-AMB-62); the new unit."""
    before = set(state.units)
    order = Order.of("split", unit.id, _squares_text(free), f"{offset[0]},{offset[1]}")
    movement.take_split(state, battle, unit, order)
    new = next(state.units[uid] for uid in state.units if uid not in before)
    new.held, new.held_speed, new.held_ends = set(), "", 0
    return new


def split_groups(unit: Unit, groups: list[frozenset[Square]]) -> list[frozenset[Square]]:
    """The groups that may split off a hindered unit: those leaving every hindered counter
    behind, and all its free counters (W35-SPELL-07, W35-AMB-94)."""
    held = held_counters(unit)
    if not held:
        return groups
    free = frozenset(unit.squares - held)
    out = [g for g in groups if not g & held]
    if free and free not in out and formation_ok(free) and formation_ok(held):
        out.append(free)
    return out


def move_refusal(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    """Why a hindered unit may not take the move ``order``: with a counter held at speed 0 only
    a Split Up leaving the hindered counters behind (W35-AMB-94); a split of a hindered unit
    always leaves them behind (W35-SPELL-07)."""
    held = held_counters(unit)
    if not held:
        return None
    if order.kind == "split":
        group = movement.parse_squares(str(order.args[1])) if len(order.args) > 1 else None
        if group is not None and group & held:
            return Refusal("hindered counters cannot leave: only the free ones split off",
                           rule="W35-SPELL-07")
        return None
    if unit.held_speed == "zero":
        return Refusal(f"{unit.label} has counters held in place: it cannot move unless it "
                       "splits them off", rule="W35-AMB-94")
    return None


def allowed_moves(state: WarState, unit: Unit, options: list[Order]) -> list[Order]:
    """``options`` without the moves a hindered unit may not take."""
    if not unit.held:
        return options
    return [o for o in options if move_refusal(state, unit, o) is None]


def shifted(unit: Unit, offset: Square) -> None:
    """The whole formation moved by ``offset``: its hindered counters go with it."""
    if unit.held:
        dx, dy = offset
        unit.held = {(x + dx, y + dy) for x, y in held_counters(unit)}


def formation_locked(unit: Unit) -> bool:
    """Every counter is held at speed 0: no free counter can carry them (W35-AMB-94)."""
    return held_still(unit) and not unit.squares - unit.held


def carried(state: WarState, battle: Battle, unit: Unit, new: set[Square],
            pinned: Iterable[Square] = ()) -> None:
    """Ruling for W35-SPELL-08/AMB-94: in a change of formation the free counters carry the
    hindered ones behind the line: hindered counters in contact with an enemy (``pinned``)
    stay where they are, the others become the rearmost counters of the new formation."""
    held = held_counters(unit)
    if not held:
        return
    stay = held & set(pinned) & new
    rest = sorted(new - stay, key=lambda sq: (projection(sq, unit.heading), sq))
    unit.held = stay | set(rest[:len(held) - len(stay)])
    battle.emit("carried", unit=unit.id, counters=len(unit.held))


def _end_hindrance(battle: Battle, unit: Unit) -> None:
    unit.held, unit.held_speed, unit.held_ends = set(), "", 0
    battle.emit("hindered_ends", unit=unit.id)


# ---------------------------------------------------------------------------------------------
# Counters out of the fight (W35-SPELL-10..12, W35-AMB-57, W35-DEC-22)
# ---------------------------------------------------------------------------------------------


def disable(state: WarState, battle: Battle, unit: Unit, counters: int, rounds: int,
            source: str) -> None:
    """Take ``counters`` of the unit (a rolled number, W35-SPELL-11, comes already rolled)
    off the board for ``rounds`` rounds, chosen by its commander as for damage (W35-SPELL-10,
    W35-DEC-19); the unit loses counter HP for each, as damage for morale (W35-AMB-57)."""
    k = min(counters, unit.counters)
    if k <= 0 or not unit.on_map:
        return
    last = set(unit.squares)
    chosen = last if k >= unit.counters else damage.choose_removal(state, battle, unit, k)
    lost = min(unit.hp, k * unit.counter_hp)
    unit.hp -= lost
    morale.note_damage(state, battle, unit, lost, kind="spell", attacker=None)
    state.remove_counters(unit, chosen)
    ends = state.round + rounds if rounds else 0
    state.absent.append(Absent(unit.id, tuple(sorted(chosen)), ends, source, lost))
    battle.emit("disabled", unit=unit.id, counters=k, hp=lost, left=unit.hp, rounds=rounds,
                source=source)
    if not unit.squares:
        damage.vanquish(state, battle, unit, last)


def _free(state: WarState, unit: Unit, sq: Square, taken: set[Square], *,
          walls: bool = True) -> bool:
    """``sq`` may take a returning counter: on the map, empty, not water (unless native), and
    (``walls``) not on an intact wall or gate the other side holds, but within a section the
    unit stands on (W35-AMB-45)."""
    if not (state.inside(sq) and sq not in state.at and sq not in taken
            and (unit.water_native or sq not in state.water)):
        return False
    return not (walls and sq in state.barrier_at and state.barred(
        unit.side, sq, within=movement.sections_under(state, unit.squares)))


def _nearest_free(state: WarState, unit: Unit, sq: Square,
                  taken: set[Square]) -> list[Square]:
    """The free squares nearest ``sq`` (Chebyshev), sorted."""
    limit = max(state.width, state.height)
    x, y = sq
    for r in range(1, limit + 1):
        ring = [(x + dx, y + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
                if max(abs(dx), abs(dy)) == r]
        spots = sorted(s for s in ring if _free(state, unit, s, taken))
        if spots:
            return spots
    return []


def _return_square(state: WarState, battle: Battle, unit: Unit, sq: Square,
                   taken: set[Square]) -> Square | None:
    """Its old square if free (it stood there before, wall or not), else one of the nearest
    free squares, chosen by the commander (W35-DEC-22)."""
    if _free(state, unit, sq, taken, walls=False):
        return sq
    spots = _nearest_free(state, unit, sq, taken)
    if not spots:
        return None
    options = tuple(Order.of("return_to", unit.id, f"{s[0]},{s[1]}") for s in spots)
    answer = battle.ask(unit.side, RETURN_SQUARE, options,
                        f"{unit.label}: {sq[0]},{sq[1]} is taken; where does the counter "
                        "return?", unit.id, default=options[0])
    spot = movement.parse_offset(str(answer.args[1]))
    assert spot is not None
    return spot


def _touching(squares: Iterable[Square], others: set[Square]) -> bool:
    return any((x + dx, y + dy) in others for x, y in squares for dx, dy in DIRECTIONS4)


def _rejoining(unit: Unit, placed: list[Square]) -> set[Square]:
    """The returned counters sharing a side with the unit, directly or through other returned
    counters that do; none when the result would enclose a hole."""
    if not unit.on_map:
        return set()
    joined: set[Square] = set()
    grown = True
    while grown:
        grown = False
        for sq in placed:
            if sq not in joined and _touching([sq], unit.squares | joined):
                joined.add(sq)
                grown = True
    return joined if formation_ok(unit.squares | joined) else set()


def _gathered(state: WarState, unit: Unit, rest: list[Square],
              taken: set[Square]) -> set[Square]:
    """Ruling: the counters forming a new unit must be one legal formation: the largest
    side-connected group stays (the lowest square breaks ties) and each other counter moves
    to the nearest free square beside it that keeps it legal (none: it is lost)."""
    groups: list[set[Square]] = []
    for sq in sorted(rest):
        touching = [g for g in groups if _touching([sq], g)]
        merged = {sq}.union(*touching)
        groups = [g for g in groups if g not in touching] + [merged]
    groups.sort(key=lambda g: (-len(g), min(g)))
    core = groups[0]
    for stray in sorted(sq for g in groups[1:] for sq in g):
        taken.discard(stray)
        spots = [(x + dx, y + dy) for x, y in core for dx, dy in DIRECTIONS4]
        legal = [s for s in set(spots) if s not in core and _free(state, unit, s, taken)
                 and formation_ok(core | {s})]
        if legal:
            pick = min(legal, key=lambda s: (chebyshev(s, stray), s))
            core.add(pick)
            taken.add(pick)
    return core if formation_ok(core) else {min(core)}


def _new_id(state: WarState, unit: Unit) -> str:
    n = 2
    while f"{unit.id}-{n}" in state.units:
        n += 1
    return f"{unit.id}-{n}"


def _new_unit(state: WarState, battle: Battle, parent: Unit, squares: set[Square]) -> Unit:
    """Returned counters as one new unit with HP = counters x counter HP, acting at the
    parent's initiative − 1 (W35-SPELL-12, W35-AMB-57)."""
    fresh: dict[str, Any] = {f.name: type(v)() for f in dataclasses.fields(parent)
                             if isinstance(v := getattr(parent, f.name), (set, list, dict))}
    hp = len(squares) * parent.counter_hp
    creatures = max(1, min(parent.creatures, int(len(squares) * parent.per_counter)))
    parent.creatures = max(parent.counters, parent.creatures - creatures, 1)
    new = dataclasses.replace(
        parent, **fresh, id=_new_id(state, parent), hp=hp, start_hp=hp, creatures=creatures,
        status=FIGHTING, leader=None, stuck_in=None, passing=False, bank=Fraction(0),
        bank_step=None, rally_failures=0, rout_fresh=False, set_vs_charge=False, phalanx=False,
        charge_ac_penalty=False, held_speed="", held_ends=0, forced_ends=0,
        split_round=state.round, split_this_round=True)
    state.units[new.id] = new
    state.place(new, squares)
    if parent.id in state.initiative:
        state.act_after(parent.id, new.id)
    else:
        state.order.append(new.id)
    return new


def _return(state: WarState, battle: Battle, absent: Absent) -> None:
    """The spell ends: the counters come back (W35-AMB-57, W35-DEC-22)."""
    unit = state.units[absent.unit]
    taken: set[Square] = set()
    placed: list[Square] = []
    for sq in absent.squares:
        spot = _return_square(state, battle, unit, sq, taken)
        if spot is not None:
            taken.add(spot)
            placed.append(spot)
    joined = _rejoining(unit, placed)
    if joined:
        # Ruling: after a split in the meantime the unit's starting HP (W35-AMB-62) may be
        # too small for the rejoining counters: it grows to hold them.
        unit.hp += len(joined) * unit.counter_hp
        unit.start_hp = max(unit.start_hp, unit.hp)
        state.place(unit, unit.squares | joined)
    rest = [sq for sq in placed if sq not in joined]
    new_id = None
    if rest:
        form = Order.of("form_unit", unit.id)
        leave = Order.of("leave_battle", unit.id)
        answer = battle.ask(unit.side, NEW_UNIT, (form, leave),
                            f"{unit.label}: do the {len(rest)} returning counters form a new "
                            "unit?", unit.id, default=form)
        if answer == form:
            new_id = _new_unit(state, battle, unit, _gathered(state, unit, rest, taken)).id
    battle.emit("disabled_return", unit=unit.id, source=absent.source, rejoined=len(joined),
                new=new_id, counters=len(placed))


# ---------------------------------------------------------------------------------------------
# Fear and turning (W35-SPELL-13..16, W35-AMB-73)
# ---------------------------------------------------------------------------------------------


def frighten(state: WarState, battle: Battle, unit: Unit, whole: bool, source: str) -> None:
    """A fear effect on a unit that failed its save: covering the whole unit it routs outright
    (W35-SPELL-13); covering part of it, a DC 15 morale check (ruling). Units that never check
    morale (mindless, undead) are immune to fear, standard 3.5 (ruling)."""
    if not unit.on_map:
        return
    if not morale.checks_morale(unit):
        battle.emit("frightened", unit=unit.id, whole=whole, source=source, immune=True)
        return
    battle.emit("frightened", unit=unit.id, whole=whole, source=source, immune=False)
    if whole or not morale.check(state, battle, unit, FEAR_DC, "fear"):
        morale.rout(state, battle, unit, "fear")


def turn_undead(state: WarState, battle: Battle, cleric: Single, unit: Unit,
                hd_affected: int) -> None:
    """A turning attempt affecting ``hd_affected`` Hit Dice (W35-SPELL-15): enough for every
    counter, the unit routs without a check, immune or not, for 10 rounds without rallying
    (W35-SPELL-16, W35-AMB-73); fewer, those counters flee: ruled as taken out of the fight
    for the 10 rounds (as W35-AMB-57)."""
    if not unit.on_map:
        return
    counters = areas.counters_from_hd(hd_affected, morale.hit_dice(unit), unit.per_counter)
    whole = counters >= unit.counters
    battle.emit("turned", unit=unit.id, who=cleric.id, hd=hd_affected, counters=counters,
                whole=whole)
    if whole:
        force_rout(state, battle, unit, TURNING_ROUNDS, "turning")
    elif counters > 0:
        disable(state, battle, unit, counters, TURNING_ROUNDS, f"turning by {cleric.id}")


def force_rout(state: WarState, battle: Battle, unit: Unit, rounds: int, why: str) -> None:
    """The unit routs for ``rounds`` rounds whatever its morale, and cannot rally meanwhile
    (W35-AMB-73)."""
    morale.rout(state, battle, unit, why)
    unit.forced_ends = state.round + rounds


def _forced_rout(state: WarState, battle: Battle, unit: Unit) -> None:
    """A forced rout runs on (the rally step is skipped) or ends, the unit back to normal."""
    if state.round < unit.forced_ends:
        unit.rout_fresh = True  # no rally check this turn (morale.rally_step)
        return
    unit.forced_ends = 0
    if unit.status == ROUTED and unit.on_map:
        unit.status = FIGHTING
        unit.rally_failures = 0
        battle.emit("rout_ends", unit=unit.id)


# ---------------------------------------------------------------------------------------------
# The round start
# ---------------------------------------------------------------------------------------------


def tick(state: WarState, battle: Battle) -> None:
    """At the start of a round: modifiers, hindrances and forced routs that have run their
    course end, and counters taken out of the fight come back."""
    for unit in list(state.units.values()):
        if unit.modifiers:
            _expire_modifiers(state, battle, unit)
        if unit.held_speed and unit.held_ends and unit.held_ends <= state.round:
            _end_hindrance(battle, unit)
        if unit.forced_ends:
            _forced_rout(state, battle, unit)
    if state.absent:
        due = [a for a in state.absent if a.ends and a.ends <= state.round]
        state.absent = [a for a in state.absent if a not in due]
        for absent in due:
            _return(state, battle, absent)
