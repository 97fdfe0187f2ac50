"""Monsters, NPCs and PCs (W35-TERM-07..10, W35-MON, W35-NPC, W35-PC, W35-ROUND-06..11).

A singular creature stands on exactly one square at every scale (W35-AMB-70). Standing alone
it takes one action on its own initiative (W35-ROUND-11, W35-AMB-78): a double move at its
W35-STAT-12 rate (through allies, into an allied unit, or fighting one square into an enemy
unit, W35-MON-05..07), one attack (a PC: a full attack, W35-PC-04), or a charge
(W35-AMB-30). Embedded in a unit it acts in that unit's in-unit step (:mod:`inunit`).
A creature that fought its way into an enemy unit keeps ``host`` None, stands on an enemy
counter square (``inside``) without owning it in ``state.at``, and acts in that unit's
in-unit step as an enemy creature inside (W35-INUNIT-06/07).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import pairwise
from typing import Any

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Square, bresenham, chebyshev, square_of_text
from warhost.rulesets.dnd35_wars import damage, machines, magic, morale, movement, tables
from warhost.rulesets.dnd35_wars.state import FIGHTING, ROUTED, Single, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("smove", "sattack", "sfull", "scharge", "leave", "enter",
                                "sdefend", "shold")
"""The order kinds of decision ``single_action``."""

RULE_OF: dict[str, str] = {
    "smove": "W35-MON-05", "sattack": "W35-MON-10", "sfull": "W35-PC-04",
    "scharge": "W35-AMB-30", "leave": "W35-NPC-06", "enter": "W35-AMB-63", "shold": "W35-AMB-78",
    "sdefend": "W35-DEC-33",
}
"""The rule a refused order of each kind breaks."""


def hook(module: object, name: str) -> Callable[..., Any] | None:
    """A cross-module function, or None while its module does not have it yet."""
    fn = getattr(module, name, None)
    return fn if callable(fn) else None


def square_text(sq: Square) -> str:
    """A square as an order argument."""
    return f"{sq[0]},{sq[1]}"


def parse_square(text: str) -> Square:
    """An order argument ``x,y`` as a square (a ValueError if it is not one)."""
    sq = square_of_text(text)
    if sq is None:
        raise ValueError(f"not a square: {text!r}")
    return sq


# ---- movement (W35-MON-05/09, W35-PC-03/08, W35-TERR-16)

def squad_mates(state: WarState, single: Single) -> list[Single]:
    """The living members of ``single``'s squad standing on its counter (itself included)."""
    if single.squad is None:
        return [single]
    return [s for s in state.singles.values() if s.squad == single.squad and s.alive
            and s.host == single.host and s.square == single.square and s.side == single.side]


def rate_of(state: WarState, single: Single) -> Fraction:
    """Squares a round: the W35-STAT-12 rate of its speed; a squad at its slowest member's
    (W35-PC-08)."""
    return min(tables.move_rate(s.creature.speed, state.scale) * magic.speed_factor(state, s)
               for s in squad_mates(state, single))


def step_cost(state: WarState, single: Single, frm: Square, to: Square) -> Fraction:
    """Movement points to enter ``to``: the movement rules' single-creature cost
    (W35-TERR-16)."""
    return movement.single_step_cost(state, single, frm, to)


def side_of(state: WarState, aid: str) -> str | None:
    """The side of a unit or a creature by id."""
    actor = state.units.get(aid) or state.singles.get(aid)
    return actor.side if actor is not None else None


def passable(state: WarState, single: Single, sq: Square) -> bool:
    """On the map and empty or held by allies, who make room (W35-MON-05)."""
    if not state.inside(sq) or sq in state.barrier_at and state.barred(single.side, sq):
        return False
    occupant = state.at.get(sq)
    return occupant is None or side_of(state, occupant) == single.side


def thirds(points: Fraction) -> int:
    """A budget of movement points in whole thirds (costs come in thirds: W35-TERR-14)."""
    return math.floor(points * 3)


def _steps3(state: WarState, single: Single) -> list[tuple[int, int, dict[Square, int]]]:
    """For each of the 8 steps: the squares whose cost to enter that way is not 1, in thirds
    (nothing for a flying or incorporeal creature)."""
    out: list[tuple[int, int, dict[Square, int]]] = []
    free = movement.unhindered(single)
    native = single.creature.water_native
    for dx, dy in DIRECTIONS8:
        table = {} if free else movement.single_table(state, native, dx, dy)
        out.append((dx, dy, table))
    return out


def reach3(state: WarState, single: Single, start: Square, budget: Fraction) -> dict[Square, int]:
    """:func:`reachable` with costs in thirds of a point."""
    limit = thirds(budget)
    best: dict[Square, int] = {start: 0}
    heap: list[tuple[int, Square]] = [(0, start)]
    at, units, singles_, side = state.at, state.units, state.singles, single.side
    width, height, walls = state.width, state.height, state.barrier_at
    steps = _steps3(state, single)
    ok: dict[Square, bool] = {}  # passable, found once per square
    while heap:
        cost, sq = heapq.heappop(heap)
        if cost > best[sq]:
            continue
        x, y = sq
        for dx, dy, table in steps:
            nxt = (x + dx, y + dy)
            total = cost + table.get(nxt, 3)
            if total > limit or total >= best.get(nxt, limit + 1):
                continue
            free = ok.get(nxt)
            if free is None:
                occupant = at.get(nxt)
                actor = None if occupant is None else units.get(occupant) or singles_.get(occupant)
                free = ok[nxt] = (0 <= nxt[0] < width and 0 <= nxt[1] < height and (
                    occupant is None or actor is not None and actor.side == side)
                    and not (nxt in walls and state.barred(side, nxt)))
            if free:
                best[nxt] = total
                heapq.heappush(heap, (total, nxt))
    count(GEOMETRY, len(ok))
    return best


def reachable(state: WarState, single: Single, start: Square, budget: Fraction) -> dict[Square, Fraction]:
    """Every square reachable from ``start`` for at most ``budget`` movement points, with its
    cheapest cost (through allies, around enemies)."""
    return {sq: Fraction(cost, 3) for sq, cost in reach3(state, single, start, budget).items()}


def stand(state: WarState, single: Single, sq: Square | None) -> None:
    """Put a creature standing on its own (or inside an enemy unit) on ``sq``."""
    state.put_single(single, None)
    if sq is None:
        return
    if single.inside is None and state.at.get(sq) is None:
        state.put_single(single, sq)
    else:
        single.square = sq  # inside an enemy unit: the counter keeps its square


def npcs_in(state: WarState, unit: Unit) -> int:
    """Living NPCs embedded in ``unit`` (W35-PLACE-14 counts NPCs only)."""
    return sum(1 for s in state.singles_in(unit) if s.kind == "npc")


def may_enter(state: WarState, single: Single, unit: Unit) -> bool:
    """An NPC may enter only if the unit keeps more counters than NPCs (W35-PLACE-14,
    W35-AMB-63); other creatures always may."""
    return single.kind != "npc" or unit.counters >= npcs_in(state, unit) + 2


# ---- targets (W35-AMB-98, W35-DMG-08)

def around(sq: Square) -> Iterable[Square]:
    """``sq`` and its eight neighbours."""
    yield sq
    for dx, dy in DIRECTIONS8:
        yield (sq[0] + dx, sq[1] + dy)


def foe_targets(state: WarState, single: Single) -> list[str]:
    """Enemy units and creatures ``single`` may melee now: those in its square or the eight
    around it, but not a unit under cover that has not shown itself (W35-AMB-45/46); inside
    an enemy unit, also the creatures embedded there. Creatures embedded among their own
    allies are reached only from inside their unit."""
    if single.square is None:
        return []
    found: list[str] = []
    for sq in around(single.square):
        occupant = state.at.get(sq)
        if occupant is not None and occupant not in found and side_of(state, occupant) not in (
                None, single.side) and not _covered(state, occupant):
            found.append(occupant)
    inside = single.inside or single.host
    if inside is not None and inside in state.units:
        unit = state.units[inside]
        if unit.side != single.side and unit.id not in found:
            found.append(unit.id)
        crowd = state.singles_in(unit) if unit.side != single.side else intruders(state, unit)
        found += [s.id for s in crowd if s.side != single.side and s.id not in found]
    return found


def _covered(state: WarState, oid: str) -> bool:
    """``oid`` is a unit that cannot be targeted now: in a fortification or a closed siege
    tower, neither guarding the walls nor having fired since its last turn (W35-AMB-45/46)."""
    unit = state.units.get(oid)
    return unit is not None and damage.sheltered(state, unit)


def intruders(state: WarState, unit: Unit) -> list[Single]:
    """The living enemy creatures inside ``unit`` (W35-INUNIT-06)."""
    return [state.singles[s] for s in unit.intruders
            if state.singles[s].alive and state.singles[s].inside == unit.id]


def attackable_by_unit(state: WarState, attacker: Unit, target: Single) -> bool:
    """A unit may attack a creature that is not embedded among its own allies (W35-DMG-08);
    one inside the attacker itself is fought only in its in-unit step (W35-INUNIT-07)."""
    if target.host is not None:
        host = state.units.get(target.host)
        return host is None or host.side == attacker.side
    return target.inside != attacker.id


# ---- the options of a turn

def attack_kind(single: Single) -> str:
    """A PC makes a full attack (W35-PC-04); a monster or NPC one averaged attack (W35-MON-10/11)."""
    return "sfull" if single.kind == "pc" else "sattack"


def attack_options(state: WarState, single: Single) -> list[Order]:
    """Attacks on each enemy in reach."""
    if not single.creature.melee:
        return []
    kind = attack_kind(single)
    targets = foe_targets(state, single) + machines.single_targets(state, single)
    return [Order.of(kind, single.id, target) for target in targets]


def move_options(state: WarState, single: Single,
                 reach: dict[Square, int] | None = None) -> list[Order]:
    """A double move (W35-MON-09): to a free square, into an allied unit, or, fighting one
    square a round, into an adjacent enemy counter (W35-MON-07). A creature inside an enemy
    unit only steps to an adjacent square. ``reach``: :func:`reach3` from its square at its
    rate, when already found."""
    if single.square is None:
        return []
    start = single.square
    if single.inside is not None:
        squares = {sq: 0 for sq in around(start) if sq != start and state.inside(sq)}
    else:
        squares = reach3(state, single, start, rate_of(state, single)) if reach is None else reach
    out: list[Order] = []
    entered: set[str] = set()
    for sq in sorted(squares, key=lambda s: (squares[s], s)):
        occupant = state.at.get(sq)
        if occupant is None:
            out.append(Order.of("smove", single.id, square_text(sq)))
        elif occupant in state.units and state.units[occupant].side == single.side:
            unit = state.units[occupant]
            if occupant not in entered and single.squad is None and may_enter(state, single, unit):
                entered.add(occupant)
                out.append(Order.of("enter", single.id, occupant))
    for sq in around(start):
        occupant = state.at.get(sq)
        if (sq != start and occupant in state.units and side_of(state, occupant) != single.side
                and single.creature.melee):
            out.append(Order.of("smove", single.id, square_text(sq)))
    return out


def charge_options(state: WarState, single: Single,
                   reach: dict[Square, int] | None = None) -> list[Order]:
    """Charges (W35-AMB-30): from at least 2 squares away, straight to a free square next to
    the target, within the move rate. ``reach`` as for :func:`move_options`."""
    if single.square is None or single.inside is not None or not single.creature.melee:
        return []
    start = single.square
    budget = rate_of(state, single)
    limit = thirds(budget)
    if reach is None:
        reach = reach3(state, single, start, budget)
    out: list[Order] = []
    for sq in sorted(reach):
        if state.at.get(sq) is not None or chebyshev(sq, start) < 2:
            continue
        for target in _adjacent_foes(state, single, sq):
            if _far_enough(state, target, start) and _line3(state, single, start, sq) <= limit:
                out.append(Order.of("scharge", single.id, target, square_text(sq)))
    return out


def _adjacent_foes(state: WarState, single: Single, sq: Square) -> list[str]:
    found: list[str] = []
    for dx, dy in DIRECTIONS8:
        occupant = state.at.get((sq[0] + dx, sq[1] + dy))
        if occupant is not None and occupant not in found and side_of(state, occupant) not in (
                None, single.side) and not _covered(state, occupant):
            found.append(occupant)
    return found


def _far_enough(state: WarState, target: str, start: Square) -> bool:
    squares = state.units[target].squares if target in state.units else {
        state.singles[target].square}
    return all(sq is not None and chebyshev(sq, start) >= 2 for sq in squares)


def _line3(state: WarState, single: Single, start: Square, end: Square) -> int:
    """:func:`line_cost` in thirds."""
    total = 0
    for frm, to in pairwise(bresenham(start, end)):
        if not passable(state, single, to):
            return 3 * 10**6
        total += movement.single_step3(state, single, frm, to)
    return total


def line_cost(state: WarState, single: Single, start: Square, end: Square) -> Fraction:
    """Movement points along the straight line from ``start`` to ``end``; an enemy on the
    line makes it cost more than any move rate."""
    return Fraction(_line3(state, single, start, end), 3)


def turn_options(state: WarState, single: Single) -> list[Order]:
    """The actions of a creature standing alone (W35-ROUND-11, W35-AMB-78); hold first.
    A squad counter that already moved this round offers nothing but holding."""
    hold = Order.of("shold", single.id)
    options = [hold, Order.of("sdefend", single.id)] + attack_options(state, single)
    if not _squad_attacked(state, single):
        reach = None
        if single.square is not None and single.inside is None:
            reach = reach3(state, single, single.square, rate_of(state, single))
        options += move_options(state, single, reach) + charge_options(state, single, reach)
    options += magic.cast_options(state, single)
    count(OPTIONS, len(options))
    return options


def _squad_attacked(state: WarState, single: Single) -> bool:
    return single.squad is not None and any(
        s.attacked_round == state.round for s in squad_mates(state, single))


def refuse(state: WarState, single: Single) -> Callable[[Order], Order | Refusal]:
    """Every legal action is listed but casts (their areas may go anywhere, judged by
    :func:`magic.judge_cast`); anything else is refused with the rule of its kind."""
    def accept(order: Order) -> Order | Refusal:
        if order.kind in magic.CAST_KINDS and order.args and str(order.args[0]) == single.id:
            judged = magic.judge_cast(state, single, order)
            if judged is not None:
                return judged
        return Refusal(f"{order} is not a legal action for {single.label} now",
                       rule=RULE_OF.get(order.kind, "W35-AMB-78"))
    return accept


def default_of(options: list[Order]) -> Order:
    """Attack when an enemy is in reach, else charge one, else hold."""
    return next((o for o in options if o.kind in ("sattack", "sfull")),
                next((o for o in options if o.kind == "scharge"), options[0]))


# ---- the turn

def single_turn(state: WarState, battle: Battle, single: Single) -> None:
    """A creature's turn while it stands alone: one action (W35-ROUND-11, W35-AMB-78)."""
    new_turn(single)
    if magic.busy(state, battle, single):  # a long cast, or held by a spell
        return
    if single.squad is not None and single.moved_round == state.round:
        battle.emit("squad_follows", who=single.id)
        return
    options = turn_options(state, single)
    order = battle.ask(single.side, "single_action", tuple(options),
                       f"{single.label}: action?", single.id, default=default_of(options),
                       accept=refuse(state, single))
    take(state, battle, single, order)


def new_turn(single: Single) -> None:
    """The charge's −2 AC and total defense's +4 last until the creature's next turn."""
    single.charge_ac_penalty = False
    single.total_defense = False


def take(state: WarState, battle: Battle, single: Single, order: Order) -> None:
    """Carry out a ``single_action`` order."""
    kind = order.kind
    if kind == "shold":
        battle.emit("single_hold", who=single.id)
    elif kind == "sdefend":
        single.total_defense = True  # +4 AC; W35-COLL-06 counts it too
        battle.emit("total_defense", who=single.id)
    elif kind in ("sattack", "sfull"):
        attack(state, battle, single, str(order.args[1]))
    elif kind == "scharge":
        charge(state, battle, single, str(order.args[1]), parse_square(str(order.args[2])))
    elif kind == "smove":
        move(state, battle, single, parse_square(str(order.args[1])))
    elif kind == "enter":
        enter(state, battle, single, state.units[str(order.args[1])])
    elif kind == "leave":
        leave(state, battle, single, parse_square(str(order.args[1])))
    elif kind in magic.CAST_KINDS:
        magic.take_cast(state, battle, single, order)


def move(state: WarState, battle: Battle, single: Single, to: Square) -> None:
    """A double move to ``to``: onto a free square, or fighting into an enemy counter."""
    occupant = state.at.get(to)
    if occupant in state.units and state.units[occupant].side != single.side:
        fight_through(state, battle, single, state.units[occupant], to)
        return
    for mate in squad_mates(state, single):
        _step_out(state, mate)
        stand(state, mate, to)
        mate.moved_round = state.round
    battle.emit("single_move", who=single.id, to=list(to))


def _step_out(state: WarState, single: Single) -> None:
    """Leave the enemy unit it was inside; it acts again from the next round at that unit's
    initiative − 1 (W35-ROUND-07)."""
    if single.inside is None:
        return
    unit = state.units.get(single.inside)
    single.inside = None
    if unit is not None:
        if single.id in unit.intruders:
            unit.intruders.remove(single.id)
        if unit.id in state.initiative:
            state.act_after(unit.id, single.id)


def fight_through(state: WarState, battle: Battle, single: Single, unit: Unit, sq: Square) -> None:
    """W35-MON-07: a normal melee attack on the counter; at least 1 HP lost and it (a squad:
    its whole counter, W35-PC-09) moves into that counter's square, inside the enemy unit;
    otherwise it stays put."""
    mates = squad_mates(state, single)
    lost = hit_unit(state, battle, single, unit)
    advanced = lost >= 1 and single.alive
    battle.emit("fight_through", who=single.id, unit=unit.id, to=list(sq), advanced=advanced)
    if not advanced:
        return
    for mate in (m for m in mates if m.alive):
        mate.moved_round = state.round
        if state.at.get(sq) == unit.id:
            if mate.inside != unit.id:
                _step_out(state, mate)
            enter_enemy(state, mate, unit, sq)
        else:  # the counter fell: the square is open
            _step_out(state, mate)
            stand(state, mate, sq)


def enter_enemy(state: WarState, single: Single, unit: Unit, sq: Square) -> None:
    """Stand inside an enemy unit: it now acts in that unit's in-unit step (W35-ROUND-08/10)."""
    state.put_single(single, None)
    single.inside = unit.id
    single.square = sq
    if single.id not in unit.intruders:
        unit.intruders.append(single.id)
    if single.id in state.order:
        state.order.remove(single.id)


def enter(state: WarState, battle: Battle, single: Single, unit: Unit) -> None:
    """End the move inside an allied unit (W35-MON-06): it is embedded and takes the unit's
    initiative (W35-ROUND-08)."""
    _step_out(state, single)
    budget = rate_of(state, single)
    squares = reach3(state, single, single.square, budget) if single.square else {}
    spot = min((sq for sq in unit.squares if sq in squares), key=lambda s: (squares[s], s),
               default=min(unit.squares))
    state.put_single(single, None)
    single.host = unit.id
    single.square = spot
    if single.id not in unit.singles:
        unit.singles.append(single.id)
    if single.id in state.order:
        state.order.remove(single.id)
    state.initiative.pop(single.id, None)
    battle.emit("single_enter", who=single.id, unit=unit.id)


def leave_options(state: WarState, single: Single) -> list[Order]:
    """Where an embedded creature may go on leaving its unit: the free squares of a double
    move through allies (W35-NPC-06)."""
    if single.square is None:
        return []
    squares = reach3(state, single, single.square, rate_of(state, single))
    return [Order.of("leave", single.id, square_text(sq))
            for sq in sorted(squares, key=lambda s: (squares[s], s)) if state.at.get(sq) is None]


def leave(state: WarState, battle: Battle, single: Single, to: Square) -> None:
    """Leave the unit for a free square; a lone creature acts from the next round at the
    unit's initiative − 1 (W35-ROUND-07), a squad's members by their new rolls
    (W35-ROUND-09, W35-AMB-64). A leader leaving costs the unit its leader."""
    host = state.units[single.host] if single.host is not None else None
    mates = squad_mates(state, single)
    for mate in mates:
        mate.host = None
        if host is not None and mate.id in host.singles:
            host.singles.remove(mate.id)
        mate.front_line = False
        stand(state, mate, to)
        battle.emit("single_leave", who=mate.id, unit=host.id if host else None, to=list(to))
    if host is None:
        return
    if host.id in state.initiative:
        for mate in squad_order(state, battle, mates) if len(mates) > 1 else mates:
            state.act_after(host.id, mate.id)
    if host.leader is not None and any(m.id == host.leader for m in mates):
        lost = hook(morale, "leader_lost")
        if lost is not None:
            lost(state, battle, host)


def squad_order(state: WarState, battle: Battle, mates: list[Single]) -> list[Single]:
    """Each PC of a squad leaving its unit rolls initiative; highest first, ties to the
    higher modifier, then a roll-off (W35-ROUND-09, W35-AMB-64)."""
    keys: dict[str, tuple[int, int, int]] = {}
    for pc in mates:
        total = battle.dice.draw(20, f"initiative {pc.id}") + pc.creature.initiative
        keys[pc.id] = (total, pc.creature.initiative, 0)
        battle.emit("initiative", who=pc.id, total=total)
    groups: dict[tuple[int, int], list[str]] = {}
    for sid, (total, mod, _) in keys.items():
        groups.setdefault((total, mod), []).append(sid)
    for tied in groups.values():
        while len(tied) > 1:
            rolls = {sid: battle.dice.draw(20, f"initiative tie {sid}") for sid in tied}
            if len(set(rolls.values())) == len(rolls):
                for sid, roll in rolls.items():
                    keys[sid] = (keys[sid][0], keys[sid][1], roll)
                break
    return sorted(mates, key=lambda pc: keys[pc.id], reverse=True)


# ---- attacks

def attack(state: WarState, battle: Battle, single: Single, target: str, *,
           charge: bool = False) -> int:
    """Attack a unit or a creature; returns the HP it lost."""
    single.attacked_round = state.round
    mid = machines.named(target)
    if mid is not None:  # a war machine it stands next to (W35-SIEGE-02)
        return machines.single_attacks_machine(state, battle, single, mid)
    if target in state.units:
        return hit_unit(state, battle, single, state.units[target], charge=charge)
    return hit_single(state, battle, single, state.singles[target], charge=charge)


def charge(state: WarState, battle: Battle, single: Single, target: str, to: Square) -> None:
    """Move straight to ``to`` and make one attack with the charge bonus; −2 AC until its
    next turn (W35-AMB-30)."""
    stand(state, single, to)
    single.charge_ac_penalty = True
    battle.emit("single_charge", who=single.id, target=target, to=list(to))
    attack(state, battle, single, target, charge=True)


def hit_unit(state: WarState, battle: Battle, single: Single, unit: Unit, *,
             charge: bool = False) -> int:
    """The creature's attack on a unit (W35-DMG-13/14), with a PC's morale deeds and kills."""
    before_hp, before_count = unit.hp, unit.derived_creatures if unit.on_map else 0
    lost = damage.single_attacks_unit(state, battle, single, unit, charge=charge,
                                      extra_bonus=magic.single_modifier(state, single, "attack"))
    if single.kind == "pc" and lost:
        if 10 * (before_hp - unit.hp) >= unit.start_hp:
            pc_deed(state, battle, single, "slew_tenth")
        defeated = before_count - (unit.derived_creatures if unit.on_map else 0)
        if defeated > 0:
            battle.emit("pc_xp", who=single.id, count=defeated, creature=unit.creature.name)
    return lost


def hit_single(state: WarState, battle: Battle, single: Single, target: Single, *,
               charge: bool = False) -> int:
    """One creature against another on the standard rules (W35-DMG-15/16)."""
    was_alive = target.alive
    lost = damage.single_attacks_single(state, battle, single, target, charge=charge,
                                        extra_bonus=magic.single_modifier(state, single, "attack"))
    fallen(state, battle, target, was_alive, by=single)
    return lost


def fallen(state: WarState, battle: Battle, target: Single, was_alive: bool,
           by: Single | None = None) -> None:
    """After an attack on ``target``: a PC going down (W35-PC-11), and the slayer PC's deeds
    and kills (W35-PC-11/12). The damage rules tell morale of a fallen leader."""
    if not was_alive or target.hp > 0:
        return
    note_down(state, battle, target)
    host = state.units.get(target.host) if target.host is not None else None
    led = host is not None and host.leader == target.id
    if by is not None and by.kind == "pc" and by.side != target.side:
        if led or target.role == "leader":
            pc_deed(state, battle, by, "slew_leader")
        elif target.officer:
            pc_deed(state, battle, by, "slew_officer")
        battle.emit("pc_xp", who=by.id, count=1, creature=target.creature.name)


def note_down(state: WarState, battle: Battle, single: Single) -> None:
    """A PC that went down or fled gives the −4 of W35-PC-11, once."""
    if single.kind == "pc" and not single.alive and not single.down_noted:
        single.down_noted = True
        pc_deed(state, battle, single, "fled_or_down")


def pc_deed(state: WarState, battle: Battle, pc: Single, what: str) -> None:
    """Hand a PC's morale-affecting action to the morale rules (W35-PC-11, W35-AMB-21)."""
    battle.emit("pc_deed", who=pc.id, what=what)
    fn = hook(morale, "pc_action")
    if fn is not None:
        fn(state, battle, pc, what)


# ---- bookkeeping after every turn

def seat(state: WarState, single: Single) -> None:
    """An embedded creature's figure stands on one of its unit's counters: where it was,
    else the counter nearest the unit's middle (W35-NPC-02)."""
    unit = state.units.get(single.host) if single.host is not None else None
    if unit is None or not unit.squares or single.square in unit.squares:
        return
    mx = Fraction(sum(x for x, _ in unit.squares), len(unit.squares))
    my = Fraction(sum(y for _, y in unit.squares), len(unit.squares))
    single.square = min(unit.squares, key=lambda s: (max(abs(s[0] - mx), abs(s[1] - my)), s))


def tidy(state: WarState, battle: Battle) -> None:
    """Keep the creatures consistent with the units around them: a PC down or fled is told to
    morale (W35-PC-11) whoever felled it; embedded figures on their counters; creatures of a unit that left the map, or left inside a unit that moved off
    them, stand alone and join the order at that unit's initiative − 1."""
    for single in state.singles.values():
        if not single.alive:
            note_down(state, battle, single)
            continue
        if single.host is not None:
            unit = state.units.get(single.host)
            if unit is not None and unit.on_map:
                seat(state, single)
            elif unit is None or unit.status not in (FIGHTING, ROUTED):  # not one still to come
                release(state, single, single.host)
        elif single.inside is not None:
            unit = state.units.get(single.inside)
            if unit is None or not unit.on_map or single.square not in unit.squares:
                released = single.inside
                single.inside = None
                if unit is not None and single.id in unit.intruders:
                    unit.intruders.remove(single.id)
                release(state, single, released)
        elif single.square is not None and state.at.get(single.square) is None:
            state.at[single.square] = single.id  # a squad counter whose holder fell


def release(state: WarState, single: Single, unit_id: str) -> None:
    """``single`` stands alone near its square and acts from the next round at ``unit_id``'s
    initiative − 1."""
    unit = state.units.get(unit_id)
    if unit is not None and single.id in unit.singles:
        unit.singles.remove(single.id)
    single.host = None
    single.front_line = False
    stand(state, single, free_near(state, single.square))
    if unit_id in state.initiative and single.id not in state.order:
        state.act_after(unit_id, single.id)


def free_near(state: WarState, sq: Square | None) -> Square | None:
    """``sq`` if free, else the nearest free square on the map (rings outward)."""
    if sq is None:
        return None
    for radius in range(max(state.width, state.height)):
        ring = sorted((sq[0] + dx, sq[1] + dy) for dx in range(-radius, radius + 1)
                      for dy in range(-radius, radius + 1) if max(abs(dx), abs(dy)) == radius)
        for cand in ring:
            if state.inside(cand) and state.at.get(cand) is None:
                return cand
    return None


def invariants(state: WarState) -> list[str]:
    """Where the living creatures stand agrees with the units: an embedded figure on one of its
    unit's counters, one inside an enemy unit on a counter of that unit, any other on a square
    of the map that ``state.at`` gives to it or to a squad mate."""
    problems: list[str] = []
    for s in state.singles.values():
        if not s.alive:
            continue
        if s.host is not None:
            unit = state.units.get(s.host)
            if unit is not None and unit.on_map and s.square is not None and (
                    s.square not in unit.squares):
                problems.append(f"{s.id} is not on a counter of {s.host}")
        elif s.inside is not None:
            if s.square is None or state.at.get(s.square) != s.inside:
                problems.append(f"{s.id} is not on a counter of {s.inside}")
        elif s.square is not None:
            holder = state.singles.get(state.at.get(s.square, ""))
            if holder is None or holder.square != s.square or holder.side != s.side:
                problems.append(f"{s.id} stands on {s.square} that is not its own")
    return problems
