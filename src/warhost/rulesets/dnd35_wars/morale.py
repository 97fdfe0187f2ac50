"""Morale (W35-MORALE, W35-MOB-07..11, W35-AMB-15..23/65/66/79..83/91/92) and regeneration
(W35-ABIL-09/10, W35-AMB-27).

Circumstances that call for a morale check are queued on the unit as they happen
(:func:`queue`, fed by the hooks :func:`note_damage`, :func:`note_attacked`,
:func:`note_flanked`, :func:`unit_gone`, :func:`leader_lost`) and rolled once, against the
highest DC pending, at step 1 of the unit's next turn (:func:`morale_step`). A failed check
routs the unit; a routed unit tries to rally at the start of each later turn and scatters
after two failures in a row. A mob checks before every charge (:func:`mob_charge_check`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import (
    DIRECTIONS4,
    DIRECTIONS8,
    Square,
    formation_ok,
    projection,
    square_of_text,
    unit_distance,
)
from warhost.rulesets.dnd35_wars import tables
from warhost.rulesets.dnd35_wars.derive import ability_modifier
from warhost.rulesets.dnd35_wars.reach import line_of_sight
from warhost.rulesets.dnd35_wars.state import FIGHTING, ROUTED, SCATTERED, Single, Unit, WarState

MELEE_KINDS = frozenset({"melee", "charge", "free", "set"})
"""Damage kinds that count as melee for W35-AMB-83."""

FLEEING_PENALTY = -4
"""W35-MORALE-04: a unit already fleeing (rally checks too, W35-AMB-66)."""
ENSLAVED_PENALTY = -4
"""W35-MORALE-04, W35-MORALE-06."""
PC_IN_UNIT_BONUS = 2
"""W35-MORALE-04: the unit contains a PC."""
RALLY_FAILURES_TO_SCATTER = 2
"""W35-MORALE-12: consecutive failed rally checks that scatter a routed unit."""

Attacker = Unit | Single | None


# ---------------------------------------------------------------------------------------------
# Triggers
# ---------------------------------------------------------------------------------------------


def checks_morale(unit: Unit) -> bool:
    """Whether the unit ever makes morale checks (W35-STAT-05, W35-MORALE-13, W35-AMB-23)."""
    return not unit.morale_immune


def queue(unit: Unit, trigger: str) -> None:
    """Queue a morale trigger for the unit's next morale step (W35-AMB-17).

    One-time triggers are used up the first time they arise (W35-AMB-16/91); a routed unit
    makes a rally check instead, so nothing is queued for it."""
    if trigger not in tables.MORALE_DC:
        raise ValueError(f"unknown morale trigger {trigger!r}")
    if not checks_morale(unit) or not unit.on_map:
        return
    if trigger in tables.ONE_TIME_TRIGGERS:
        if trigger in unit.used_triggers:
            return
        unit.used_triggers.add(trigger)
    if not unit.routed:
        unit.pending.add(trigger)


def note_damage(state: WarState, battle: Battle, unit: Unit, lost: int, *, kind: str,
                attacker: Attacker) -> None:
    """Queue the triggers of HP just lost by ``unit`` (called once ``lost`` has been taken off
    ``unit.hp``, before its counters go): first damage, siege or area damage, half and quarter
    HP (W35-AMB-91), a hit by an enemy of three times its HP (W35-AMB-20), a mob's damage
    check (W35-MOB-10); and keep the melee tallies of W35-AMB-83. Only HP really lost count
    (W35-AMB-92)."""
    if lost <= 0:
        return
    if unit.hp <= 0 and unit.squares:  # friends see it wiped out where it stood (W35-AMB-18)
        unit.last_squares = frozenset(unit.squares)
    enemy = attacker is not None and attacker.side != unit.side
    if kind in MELEE_KINDS and isinstance(attacker, Unit) and enemy:
        unit.melee_taken += lost
        attacker.melee_dealt += lost
    before = unit.hp + lost
    queue(unit, "first_damage")
    if kind in ("siege", "area"):
        queue(unit, "siege_or_area")
    for trigger in tables.hp_triggers(unit.start_hp, before, unit.hp):
        queue(unit, trigger)
    if enemy and attacker is not None and attacker.hp >= 3 * before:
        queue(unit, "three_times")
    if unit.mob:
        queue(unit, "mob_damage")


def is_ferocious(attacker: Unit | Single) -> bool:
    """A ferocious creature (W35-AMB-19): the scenario's flag, by default dragons only."""
    if isinstance(attacker, Unit):
        return attacker.ferocious
    flag = attacker.creature.ferocious
    return flag if flag is not None else attacker.creature.type.lower() == "dragon"


def note_attacked(state: WarState, unit: Unit, attacker: Attacker) -> None:
    """An attack (hit or miss) on ``unit``: a ferocious enemy triggers DC 15 (W35-AMB-19)."""
    if attacker is not None and attacker.side != unit.side and is_ferocious(attacker):
        queue(unit, "ferocious")


def note_flanked(state: WarState, unit: Unit) -> None:
    """An attack on ``unit`` got a flanking bonus: the first such round triggers DC 10
    (W35-AMB-39)."""
    queue(unit, "flanked")


def leader_lost(state: WarState, battle: Battle, unit: Unit) -> None:
    """The unit's leader left it, or fell or was incapacitated: DC 20."""
    queue(unit, "leader_lost")


def _blocks(state: WarState) -> Callable[[Square], bool]:
    """What blocks sight on the map (W35-AMB-35): any counter or figure, blocking terrain."""
    occupied = state.at
    terrain = state.blocks_sight
    return lambda sq: sq in occupied or sq in terrain


def sees_nearby(state: WarState, unit: Unit, target: Iterable[Square]) -> bool:
    """W35-AMB-18: the target squares lie within ``nearby_squares`` of the unit's nearest
    counter, and some counter of the unit has line of sight to one of them."""
    targets = frozenset(target)
    if not targets or not unit.squares:
        return False
    if unit_distance(unit.squares, targets) > state.options.nearby_squares:
        return False
    blocks = _blocks(state)

    def stops(sq: Square) -> bool:
        return sq not in targets and blocks(sq)

    own = unit.squares
    # A counter with its own unit all around it cannot see past its neighbours.
    lookouts = sorted(c for c in own if any((c[0] + dx, c[1] + dy) not in own
                                            for dx, dy in DIRECTIONS8))
    ordered = sorted(targets)
    return any(line_of_sight(counter, t, stops) for counter in lookouts for t in ordered)


def _friends_see(state: WarState, gone: Unit, trigger: str, squares: Iterable[Square]) -> None:
    seen = frozenset(squares)
    for friend in state.units.values():
        if (friend is not gone and friend.side == gone.side and friend.on_map
                and checks_morale(friend) and not friend.routed
                and sees_nearby(state, friend, seen)):
            queue(friend, trigger)


def unit_gone(state: WarState, battle: Battle, unit: Unit, how: str) -> None:
    """A unit left the map (``fled``, ``scattered``) or was wiped out (``wiped``): friendly
    units nearby that see it (W35-AMB-18) check at DC 15 (fleeing) or DC 20 (wiped out);
    a wiped-out unit is seen on the squares it last held."""
    if how not in ("fled", "wiped", "scattered"):
        raise ValueError(f"unknown way for a unit to go: {how!r}")
    squares = unit.squares or unit.last_squares
    trigger = "friend_wiped" if how == "wiped" else "friend_fleeing"
    _friends_see(state, unit, trigger, squares)


# ---------------------------------------------------------------------------------------------
# The check
# ---------------------------------------------------------------------------------------------


def _embedded(state: WarState, unit: Unit, sid: str | None) -> Single | None:
    if sid is None or sid not in unit.singles:
        return None
    single = state.singles.get(sid)
    return single if single is not None and single.alive and single.host == unit.id else None


def has_leadership(single: Single) -> bool:
    """The creature has the Leadership feat (scenario flag or feat list)."""
    return single.leadership or any(f.lower() == "leadership" for f in single.creature.feats)


def effect_modifiers(unit: Unit) -> tuple[int, int]:
    """Morale bonus and penalty of spells and effects (W35-MORALE-05, W35-AMB-81): the highest
    bonus (they do not stack), and the sum of every penalty."""
    values = unit.morale_effects.values()
    return max((v for v in values if v > 0), default=0), sum(v for v in values if v < 0)


def modifier_terms(state: WarState, unit: Unit, *, fleeing: bool = False) -> list[tuple[str, int]]:
    """Every term added to the d20 of the unit's morale check (W35-MORALE-02/04): its Morale
    score, then the source modifiers; for a mob each positive term counts 0 (W35-AMB-22)."""
    terms = [("morale", unit.morale)]
    if any(s.kind == "pc" for s in state.singles_in(unit) if s.host == unit.id):
        terms.append(("pc", PC_IN_UNIT_BONUS))
    leader = _embedded(state, unit, unit.leader)
    if leader is not None and leader.kind == "pc":
        terms.append(("pc_leader", ability_modifier(leader.creature.cha)))
    if leader is not None and has_leadership(leader):
        cap = state.options.leadership_morale_cap
        level = leader.creature.level
        terms.append(("leadership", level if cap is None else min(level, cap)))
    if unit.morale_effects:
        bonus, penalty = effect_modifiers(unit)
        terms += [("effect_bonus", bonus), ("effect_penalty", penalty)]
    if unit.morale_mods:
        mods = unit.morale_mods
        terms.append(("pc_actions", sum(min(v, 0) for v in mods) if unit.mob else sum(mods)))
    if fleeing:
        terms.append(("fleeing", FLEEING_PENALTY))
    if unit.enslaved:
        terms.append(("enslaved", ENSLAVED_PENALTY))
    if unit.mob:
        terms = [(name, min(value, 0)) for name, value in terms]
    return terms


def check(state: WarState, battle: Battle, unit: Unit, dc: int, why: str, *,
          fleeing: bool = False) -> bool:
    """Roll one morale check: d20 + the terms of :func:`modifier_terms` against ``dc``
    (W35-MORALE-02); a natural 20 passes and a natural 1 fails (W35-AMB-15, option
    ``morale_natural_rolls``). PC-action modifiers last for this one check (W35-AMB-21)."""
    bonus = sum(value for _, value in modifier_terms(state, unit, fleeing=fleeing))
    roll = battle.dice.draw(20, f"morale {unit.id} ({why})")
    total = roll + bonus
    passed = total >= dc
    if state.options.morale_natural_rolls and roll in (1, 20):
        passed = roll == 20
    if state.options.pc_action_morale_duration == "next_check":
        unit.morale_mods.clear()
    battle.emit("morale_check", unit=unit.id, dc=dc, roll=roll, bonus=bonus, total=total,
                passed=passed, why=why)
    return passed


def _one_sided_melee(unit: Unit) -> None:
    """W35-AMB-83 over the period since the unit's previous turn began; the tallies restart."""
    if unit.melee_taken > 0 and unit.melee_dealt == 0:
        queue(unit, "melee_one_sided")
    unit.melee_taken = unit.melee_dealt = 0


def morale_step(state: WarState, battle: Battle, unit: Unit) -> bool:
    """Step 1 of the unit's turn (W35-ROUND-12): regeneration in even rounds, then one check
    against the highest pending DC (W35-AMB-16/17), or the rally check of a routed unit.
    Returns False when the unit does not act normally this turn."""
    if not unit.on_map:
        return False
    for single in state.singles_in(unit):
        regenerate_single(state, battle, single)
    if unit.regenerates and state.round % 2 == 0:
        regenerate(state, battle, unit)
    _one_sided_melee(unit)
    if unit.routed:
        return rally_step(state, battle, unit)
    if not unit.pending:
        return True
    trigger = max(unit.pending, key=lambda t: (tables.MORALE_DC[t], t))
    unit.pending.clear()
    if check(state, battle, unit, tables.MORALE_DC[trigger], trigger):
        return True
    rout(state, battle, unit, trigger)
    unit.rout_fresh = False  # its unit action this very turn is the flight
    return False


def rally_step(state: WarState, battle: Battle, unit: Unit) -> bool:
    """A routed unit's step 1: the DC 20 rally check at −4 (W35-MORALE-08, W35-AMB-66), not
    on the turn right after it routed (W35-AMB-65); two failures in a row scatter it
    (W35-MORALE-12). A mob, or a unit that never checks morale, cannot rally (W35-MOB-11)."""
    unit.pending.clear()
    if unit.rout_fresh:
        unit.rout_fresh = False
        return False
    if unit.mob or not checks_morale(unit):
        return False
    if check(state, battle, unit, tables.MORALE_DC["rally"], "rally", fleeing=True):
        unit.status = FIGHTING
        unit.rally_failures = 0
        battle.emit("rally", unit=unit.id)
        return True
    unit.rally_failures += 1
    if unit.rally_failures >= RALLY_FAILURES_TO_SCATTER:
        scatter(state, battle, unit)
    return False


def mob_charge_check(state: WarState, battle: Battle, unit: Unit) -> bool:
    """A mob's DC 10 check when it declares a charge (W35-MOB-09, W35-AMB-16): on a failure it
    makes no attack this round but does not rout. Units that are not mobs, and mobs that
    never check morale (W35-AMB-23), always go ahead."""
    if not unit.mob or not checks_morale(unit):
        return True
    passed = check(state, battle, unit, tables.MORALE_DC["mob_charge"], "mob_charge")
    if not passed:
        battle.emit("mob_balks", unit=unit.id)
    return passed


# ---------------------------------------------------------------------------------------------
# Rout, scattering, PCs
# ---------------------------------------------------------------------------------------------


def rout(state: WarState, battle: Battle, unit: Unit, why: str) -> None:
    """The unit routs (W35-MORALE-07): it drops any phalanx or set, flees from its next unit
    action on, and friends nearby see it flee; each PC in it may stay behind (W35-MORALE-09)."""
    if not unit.on_map or unit.routed:
        return
    unit.status = ROUTED
    unit.phalanx = False
    unit.set_vs_charge = False
    unit.rally_failures = 0
    unit.rout_fresh = True
    unit.pending.clear()
    battle.emit("rout", unit=unit.id, why=why)
    for pc in [s for s in state.singles_in(unit) if s.kind == "pc" and s.host == unit.id]:
        _pc_stays(state, battle, unit, pc)
    _friends_see(state, unit, "friend_fleeing", unit.squares)


def _free(state: WarState, unit: Unit | None, sq: Square) -> bool:
    water_ok = unit is not None and unit.water_native
    return state.inside(sq) and sq not in state.at and (water_ok or sq not in state.water)


def _sections(state: WarState, squares: Iterable[Square]) -> frozenset[str]:
    """The wall and gate sections ``squares`` stand on (W35-AMB-45)."""
    if not state.barrier_at:
        return frozenset()
    return frozenset(sid for sq in squares if (sid := state.barrier_at.get(sq)) is not None)


def _around(squares: Iterable[Square]) -> list[Square]:
    """The squares sharing a side with ``squares`` but not among them, sorted."""
    own = frozenset(squares)
    out = {(x + dx, y + dy) for x, y in own for dx, dy in DIRECTIONS4} - own
    return sorted(out)


def _square_arg(sq: Square) -> str:
    return f"{sq[0]},{sq[1]}"



def _leave_unit(state: WarState, unit: Unit, single: Single, sq: Square) -> None:
    """``single`` leaves ``unit`` and stands alone on ``sq``, acting from the next round just
    after the unit (W35-AMB-64)."""
    if single.id in unit.singles:
        unit.singles.remove(single.id)
    single.host = None
    state.put_single(single, sq)
    if unit.id in state.initiative:
        state.act_after(unit.id, single.id)


def _pc_stays(state: WarState, battle: Battle, unit: Unit, pc: Single) -> None:
    """W35-MORALE-09: the PC flees with its routing unit (default) or stays, stepping out to
    a free square in side contact with the unit."""
    spots = [sq for sq in _around(unit.squares) if _free(state, None, sq)]
    flee = Order.of("pc_flee", pc.id)
    options = (flee, *(Order.of("pc_stay", pc.id, _square_arg(sq)) for sq in spots))

    def accept(order: Order) -> Order | Refusal | None:
        if order.kind != "pc_stay":
            return None
        return Refusal(f"{pc.label} can only stay on a free square beside {unit.label}",
                       rule="W35-MORALE-09")

    order = battle.ask(pc.side, "pc_stays", options, f"{pc.label}: flee with {unit.label}?",
                       pc.id, default=flee, accept=accept)
    if order.kind != "pc_stay":
        return
    sq = square_of_text(order.args[1])
    assert sq is not None
    _leave_unit(state, unit, pc, sq)
    battle.emit("stays_behind", who=pc.id, unit=unit.id, at=list(sq))


def _drop_singles(state: WarState, unit: Unit, last: frozenset[Square]) -> list[str]:
    """Embedded creatures of a unit gone from the map stay, alone, on its last squares (their
    own square when they had one, then free squares next to the last squares)."""
    left = []
    spots = [sq for sq in sorted(last) if _free(state, None, sq)]
    spots += [sq for sq in _around(last) if _free(state, None, sq)]
    for single in state.singles_in(unit):
        if single.host != unit.id:
            continue
        own = [single.square] if single.square in last else []
        spot = next((sq for sq in own + spots if sq is not None and sq not in state.at), None)
        if spot is None:
            break
        _leave_unit(state, unit, single, spot)
        left.append(single.id)
    return left


def scatter(state: WarState, battle: Battle, unit: Unit) -> None:
    """The unit scatters (W35-MORALE-12, W35-AMB-65): off the map for good; its embedded
    creatures stay behind, alone, on its last squares."""
    last = frozenset(unit.squares)
    state.lift(unit)
    state.disengage(unit.id)
    unit.status = SCATTERED
    unit.last_squares = last
    unit.squares = set()
    left = _drop_singles(state, unit, last)
    battle.emit("scatter", unit=unit.id, left=left)
    unit_gone(state, battle, unit, "scattered")


def pc_action(state: WarState, battle: Battle, pc: Single, what: str) -> None:
    """A PC's deed changes morale (W35-PC-11, W35-AMB-21): the modifier goes to the PC's own
    unit, or, for a PC standing alone, to every allied unit nearby that sees it; it lasts for
    the next check (or the battle, option ``pc_action_morale_duration``)."""
    if what not in tables.PC_ACTION_MORALE:
        raise ValueError(f"unknown PC action {what!r}; use one of "
                         f"{', '.join(sorted(tables.PC_ACTION_MORALE))}")
    value = tables.PC_ACTION_MORALE[what]
    host = state.units.get(pc.host) if pc.host is not None else None
    spot = pc.square or pc.last_square  # a PC that went down is seen where it fell
    if host is not None:
        targets = [host] if host.on_map else []
    elif spot is not None:
        targets = [u for u in state.units.values()
                   if u.side == pc.side and u.on_map and sees_nearby(state, u, [spot])]
    else:
        targets = []
    for unit in targets:
        unit.morale_mods.append(value)
        battle.emit("pc_morale", unit=unit.id, who=pc.id, what=what, value=value)


def add_morale_effect(unit: Unit, source: str, value: int) -> None:
    """A spell or effect gives the unit a morale bonus or penalty (W35-MORALE-05); a second
    effect from the same source replaces the first."""
    unit.morale_effects[source] = value


def end_morale_effect(unit: Unit, source: str) -> None:
    """The effect from ``source`` ends."""
    unit.morale_effects.pop(source, None)


# ---------------------------------------------------------------------------------------------
# Regeneration (W35-ABIL-09/10, W35-AMB-27)
# ---------------------------------------------------------------------------------------------


def hit_dice(single_or_unit: Unit | Single) -> int:
    """The creature's Hit Dice (its level when no Hit Dice are given)."""
    creature = single_or_unit.creature
    return creature.hd if creature.hd is not None else creature.level


def restore_squares(state: WarState, unit: Unit) -> list[Square]:
    """Free squares where a restored counter may go (W35-AMB-27): in side contact with the
    unit and keeping it side-connected and hole-free, never on a wall or gate the other side
    holds (W35-AMB-45, but within a section the unit stands on), rearmost first (then by
    square)."""
    own = unit.squares
    within = _sections(state, own)
    legal = [sq for sq in _around(own) if _free(state, unit, sq) and formation_ok(own | {sq})
             and not (sq in state.barrier_at and state.barred(unit.side, sq, within=within))]
    heading = unit.heading
    legal.sort(key=lambda sq: (projection(sq, heading), sq))
    return legal


def _place_counter(state: WarState, battle: Battle, unit: Unit) -> Square | None:
    """Ask where one restored counter goes (decision ``place_counter``, W35-DEC-18)."""
    legal = restore_squares(state, unit)
    if not legal:
        return None
    options = tuple(Order.of("place_counter", unit.id, _square_arg(sq)) for sq in legal)

    def accept(order: Order) -> Order | Refusal | None:
        if order.kind != "place_counter":
            return None
        return Refusal(f"a restored counter of {unit.label} must go on a free square in side "
                       "contact with it, leaving no hole", rule="W35-AMB-27")

    order = battle.ask(unit.side, "place_counter", options,
                       f"{unit.label}: where does the restored counter go?", unit.id,
                       default=options[0], accept=accept)
    sq = square_of_text(order.args[1])
    assert sq is not None
    unit.squares.add(sq)
    state.at[sq] = unit.id
    return sq


def regenerate(state: WarState, battle: Battle, unit: Unit) -> int:
    """A regenerating unit regains Hit Dice x creatures per counter HP (W35-ABIL-09), never
    above its starting HP, and gets back the counters its HP fill again, placed by its
    commander (W35-AMB-27). Returns the HP regained."""
    if not unit.on_map:
        return 0
    gain = min(tables.regeneration(hit_dice(unit), unit.per_counter), unit.start_hp - unit.hp)
    if gain <= 0:
        return 0
    gain, placed = restore_hp(state, battle, unit, gain)
    battle.emit("regenerate", unit=unit.id, hp=gain, left=unit.hp, counters=unit.counters,
                placed=placed)
    return gain


def restore_hp(state: WarState, battle: Battle, unit: Unit,
               gain: int) -> tuple[int, list[list[int]]]:
    """Add ``gain`` HP (already capped at the starting HP) and place the counters they fill
    again (W35-AMB-27): the HP regained and the squares of the counters placed."""
    unit.hp += gain
    placed: list[list[int]] = []
    for _ in range(tables.counters_left(unit.hp, unit.counter_hp) - unit.counters):
        sq = _place_counter(state, battle, unit)
        if sq is None:
            break
        placed.append(list(sq))
    room = unit.counters * unit.counter_hp
    if unit.hp > room:  # no free square for a counter: the HP it would hold are not regained
        gain -= unit.hp - room
        unit.hp = room
    return gain, placed


def regenerate_single(state: WarState, battle: Battle, single: Single) -> int:
    """A regenerating singular creature regains its Hit Dice in HP at the start of each of its
    turns, never above its full HP (W35-ABIL-10, ruling). Returns the HP regained."""
    creature = single.creature
    if not creature.regeneration or not single.alive:
        return 0
    gain = min(hit_dice(single), creature.hp - single.hp)
    if gain <= 0:
        return 0
    single.hp += gain
    battle.emit("regenerate", who=single.id, hp=gain, left=single.hp)
    return gain
