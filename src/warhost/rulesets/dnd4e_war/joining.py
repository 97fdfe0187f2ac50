"""Characters joining and leaving units in the Movement phase (W4-CHAR-03 to 08,
W4-AMB-82, W4-DEC-15).

A lone character joins an allied unit by moving into base contact with it (the move costs
the closest distance between them); the unit then spends the same action and the group may
move on together by what both still have. A joined character leaves by stepping out at a
point next to the unit, at no cost to the unit, and may then move on alone.
"""

from __future__ import annotations

import math

import shapely
from shapely.ops import nearest_points

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.table import Point, Tray, distance, point_word, read_point, trays_overlap
from warhost.rulesets.dnd4e_war.char_shooting import home_slot
from warhost.rulesets.dnd4e_war.characters import join, leave
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState

JOIN = "char_join"
"""W4-DEC-15: decision kind, whether a lone character joins a unit and which."""
LEAVE = "char_leave"
"""W4-DEC-15: decision kind, where a joined character steps out of his unit."""
LIMITS = "_move_limits"
"""``state.extra`` key: units whose move this phase is capped (W4-AMB-82), id -> inches
(the same key as ``movement.MOVE_LIMITS``)."""
_EPS = 1e-6
HALF_DIAGONAL = math.sqrt(0.5)
STEP_OUT = 0.05
"""Inches between the unit's edge and the base of a character stepping out of it, beyond
half his base's diagonal (so that he may turn where he stands without touching it)."""


# ----------------------------------------------------------------------------- who may host

def is_war_machine(unit: Unit) -> bool:
    """Hook for the war machine rules: the unit is a war machine's crew (characters may
    join it but not work the machine, W4-WM-07)."""
    return getattr(unit.profile, "machine", None) is not None


def host_refusal(state: WarState, person: Character, host: Unit) -> Refusal | None:
    """Why ``person`` may not join ``host`` (None: he may), W4-CHAR-03."""
    if host.side != person.side:
        return Refusal(f"{host.id} is an enemy unit", "W4-CHAR-03")
    if host.character is not None or host.id == person.id:
        return Refusal(f"{host.id} is a character, not a unit he can join", "W4-CHAR-03")
    if not host.alive:
        return Refusal(f"{host.id} is not on the table", "W4-CHAR-03")
    if host.fleeing:
        return Refusal(f"{host.id} is fleeing", "W4-CHAR-03")
    return None


def join_cost(state: WarState, own: Unit, host: Unit) -> float:
    """Inches the character walks to reach base contact with ``host`` (closest distance)."""
    return state.gap(own, host)


def reachable_hosts(state: WarState, own: Unit) -> list[tuple[Unit, float]]:
    """Allied units the lone character ``own`` can reach and join this move, with the cost."""
    person = own.character
    if person is None or own.move_used or own.fleeing or state.is_engaged(own.id):
        return []
    speed = own.speed()
    found = []
    for other in state.units_near(own, speed):
        if other.side != own.side or host_refusal(state, person, other) is not None:
            continue
        cost = join_cost(state, own, other)
        count(GEOMETRY)
        if cost <= speed + _EPS:
            found.append((other, cost))
    return found


def judge_join(state: WarState, own: Unit, order: Order) -> Order | Refusal:
    """Any ``join`` or ``stay`` order for the character ``own``."""
    person = own.character
    assert person is not None
    if order.kind == "stay":
        return order if order.args == (own.id,) else Refusal("stay names the character")
    if order.kind != JOIN_WORD or len(order.args) != 2 or str(order.args[0]) != own.id:
        return Refusal(f"answer join {own.id} UNIT or stay {own.id}", rule="W4-CHAR-03")
    host = state.units.get(str(order.args[1]))
    if host is None:
        return Refusal(f"no unit {order.args[1]}")
    refusal = host_refusal(state, person, host)
    if refusal is not None:
        return refusal
    if join_cost(state, own, host) > own.speed() + _EPS:
        return Refusal(f"{host.id} is beyond {own.id}'s Speed", "W4-CHAR-03")
    return order


JOIN_WORD = "join"


def join_step(state: WarState, battle: Battle, own: Unit) -> bool:
    """W4-DEC-15: before his move, a lone character may join an allied unit he can reach.
    Returns True when he did (his move is then spent)."""
    hosts = reachable_hosts(state, own)
    if not hosts:
        return False
    stay = Order.of("stay", own.id)
    options = (*(Order.of(JOIN_WORD, own.id, h.id) for h, _ in hosts), stay)
    count(OPTIONS, len(options))
    order = battle.ask(own.side, JOIN, options, f"Does {own.label()} join a unit?",
                       subject=own.id, default=stay,
                       accept=lambda o: judge_join(state, own, o))
    if order.kind != JOIN_WORD:
        return False
    host = state.units[str(order.args[1])]
    join_unit(state, battle, own, host, join_cost(state, own, host))
    return True


def join_unit(state: WarState, battle: Battle, own: Unit, host: Unit, cost: float) -> None:
    """W4-CHAR-04 to 06, W4-AMB-82: ``own``'s character walks ``cost`` inches into ``host``
    and joins it; the host spends its move action, and if it still had it the group moves
    on by min(his Speed left, the unit's Speed left)."""
    from warhost.rulesets.dnd4e_war import movement

    person = own.character
    assert person is not None
    left = own.speed() - cost
    own.move_used = True
    own.moved = cost
    step_to(state, own, host)
    join(state, person, host)
    battle.emit("character_joined", character=person.id, unit=host.id, cost=round(cost, 3))
    if host.move_used or state.is_engaged(host.id):
        return
    limit = max(0.0, min(left, host.speed() - host.moved))
    state.extra.setdefault(LIMITS, {})[host.id] = limit
    try:
        movement.move_unit(state, battle, host)
    finally:
        state.extra[LIMITS].pop(host.id, None)
    host.move_used = True


def step_to(state: WarState, own: Unit, host: Unit) -> None:
    """Put the lone character's base against ``host`` by the shortest way (so that in a
    skirmishing unit his place is where he reached it)."""
    mine = shapely.union_all([t.polygon for t in own.trays()])
    theirs = shapely.union_all([t.polygon for t in host.trays()])
    a, b = nearest_points(mine, theirs)
    dx, dy = float(b.x - a.x), float(b.y - a.y)
    own.points = [(x + dx, y + dy) for x, y in own.points]
    own.front = (own.front[0] + dx, own.front[1] + dy)


def move_limit(state: WarState, unit: Unit) -> float | None:
    """W4-AMB-82: the cap on ``unit``'s move this phase, if it has one."""
    limits: dict[str, float] | None = state.extra.get(LIMITS)
    return None if not limits else limits.get(unit.id)


# ----------------------------------------------------------------------------- leaving

def place_in_host(state: WarState, person: Character) -> Point:
    """Where ``person`` stands inside his unit: at the front of its command company
    (W4-CHAR-04) or of the company he moved to (W4-CHAR-19); in a skirmishing unit, his own
    place."""
    assert person.host is not None
    host = state.units[person.host]
    if host.skirmish:
        return host.points[-1] if host.points else host.front
    tray = host.trays()[home_slot(host)]
    return tray.to_world(0.0, tray.depth / 2.0 - host.base / 2.0)


def leavers(state: WarState, side: str, done: set[str]) -> list[Character]:
    """Characters of ``side`` inside a unit who may still step out this phase."""
    out = []
    for person in state.characters.values():
        if person.side != side or person.host is None or person.slain or person.id in done:
            continue
        host = state.units[person.host]
        if host.alive and not host.fleeing and any(
                leave_refusal(state, person, p) is None for p in _leave_spots(state, person)):
            out.append(person)
    return out


def leave_points(state: WarState, person: Character) -> list[Point]:
    """W4-CHAR-07: the offered places to step out: just beyond the middle of the unit's
    front, each flank and its rear, where they are legal."""
    spots = _leave_spots(state, person)
    count(GEOMETRY, len(spots))
    return [p for p in spots if leave_refusal(state, person, p) is None]


def _leave_spots(state: WarState, person: Character) -> list[Point]:
    """Just beyond the middle of the front, each flank and the rear of his unit."""
    assert person.host is not None
    host = state.units[person.host]
    frame = host.frame()
    base = state.units[person.id].base
    gap = base * HALF_DIAGONAL + STEP_OUT
    return [frame.to_world(0.0, frame.depth / 2.0 + gap),
            frame.to_world(-frame.width / 2.0 - gap, 0.0),
            frame.to_world(frame.width / 2.0 + gap, 0.0),
            frame.to_world(0.0, -frame.depth / 2.0 - gap)]


def leave_refusal(state: WarState, person: Character, point: Point) -> Refusal | None:
    """Why ``person`` may not step out of his unit to ``point`` (W4-CHAR-07)."""
    own = state.units[person.id]
    start = place_in_host(state, person)
    if distance(start, point) > own.speed() + _EPS:
        return Refusal(f"{point_word(point)} is beyond {person.id}'s Speed", "W4-CHAR-07")
    facing = state.units[person.host].facing if person.host is not None else own.facing
    tray = Tray(point, facing, own.base, own.base)  # he steps out facing as his unit
    if not _on_board(state, tray):
        return Refusal(f"{point_word(point)} is off the table", "W4-MOVE-01")
    if any(g.region.impassable and g.region.polygon.intersects(tray.polygon)
           for g in state.ground):
        return Refusal(f"{point_word(point)} is impassable ground", "W4-MOVE-24")
    for other in _near_point(state, point, own):
        if any(trays_overlap(tray, t) for t in other.trays()):
            return Refusal(f"{point_word(point)} is inside {other.id}", "W4-CHAR-07")
    return None


def _on_board(state: WarState, tray: Tray) -> bool:
    return all(0.0 <= x <= state.board.width and 0.0 <= y <= state.board.height
               for x, y in tray.corners())


def _near_point(state: WarState, point: Point, own: Unit) -> list[Unit]:
    """Living units whose trays may touch a base at ``point``."""
    saved = (own.front, own.points, own.inside)
    own.front, own.points, own.inside = point, [point], None
    try:
        return [u for u in state.units_near(own, 0.5) if u.id != own.id]
    finally:
        own.front, own.points, own.inside = saved


def judge_leave(state: WarState, person: Character, order: Order) -> Order | Refusal:
    """Any ``leave`` order for ``person``."""
    if order.kind != "leave" or len(order.args) != 2 or str(order.args[0]) != person.id:
        return Refusal(f"answer leave {person.id} X,Y", rule="W4-CHAR-07")
    point = read_point(order.args[1])
    if point is None:
        return Refusal(f"{order.args[1]} is not a point x,y")
    refusal = leave_refusal(state, person, point)
    return refusal if refusal is not None else order


def leave_step(state: WarState, battle: Battle, person: Character) -> None:
    """W4-CHAR-07/08, W4-DEC-15: ``person`` steps out where his commander says (no action
    of the unit's) and may move on alone with what is left of his Speed."""
    from warhost.rulesets.dnd4e_war import movement

    points = leave_points(state, person)
    options = tuple(Order.of("leave", person.id, point_word(p)) for p in points)
    count(OPTIONS, len(options))
    order = battle.ask(person.side, LEAVE, options,
                       f"Where does {person.name} step out of his unit?", subject=person.id,
                       default=options[0], accept=lambda o: judge_leave(state, person, o))
    point = read_point(order.args[1])
    assert point is not None
    host = state.units[str(person.host)]
    cost = distance(place_in_host(state, person), point)
    own = leave(state, person, point, host.facing)
    battle.emit("character_left", character=person.id, unit=host.id,
                at=[round(point[0], 3), round(point[1], 3)], cost=round(cost, 3),
                facing=round(own.facing, 3))
    own.moved = cost
    state.extra.setdefault(LIMITS, {})[own.id] = max(0.0, own.speed() - cost)
    try:
        movement.move_unit(state, battle, own)
    finally:
        state.extra[LIMITS].pop(own.id, None)
    own.move_used = True


# ----------------------------------------------------------------------------- charging out

CHARGE_OUT = "char_charge_out"
"""W4-DEC-15/CHAR-15: decision kind, whether a joined character charges out of his unit."""


def charge_out_spot(state: WarState, person: Character) -> Point | None:
    """W4-CHAR-15: where a character charging out stands to start: straight ahead of his
    place in the unit, just clear of its front (None: he has no room there)."""
    assert person.host is not None
    host = state.units[person.host]
    place = place_in_host(state, person)
    own = state.units[person.id]
    if host.skirmish:
        return None
    frame = host.frame()
    local = frame.to_local(place)
    spot = frame.to_world(local[0], frame.depth / 2.0 + own.base * HALF_DIAGONAL + STEP_OUT)
    return spot if leave_refusal(state, person, spot) is None else None


def charge_out_step(state: WarState, battle: Battle, side: str) -> dict[str, str]:
    """W4-CHAR-15: before ``side`` declares charges, each joined character in the front
    rank of a unit free to act may step out to charge on his own. Returns who stepped out,
    character id -> the unit he left (he goes back in if he then declares no charge)."""
    from warhost.rulesets.dnd4e_war.char_shooting import in_front_rank
    from warhost.rulesets.dnd4e_war.charge import can_charge, max_reach, visible_targets

    out: dict[str, str] = {}
    for person in [c for c in state.characters.values() if c.side == side]:
        if person.host is None or person.slain:
            continue
        host = state.units[person.host]
        own = state.units[person.id]
        if host.fleeing or state.is_engaged(host.id) or not in_front_rank(host) \
                or own.standard_used or own.shot:
            continue
        spot = charge_out_spot(state, person)
        if spot is None:
            continue
        stay = Order.of("stay", person.id)
        go = Order.of("charge_out", person.id)
        # only worth asking when he would see an enemy a charge could reach
        probe = leave(state, person, spot, host.facing)
        sees = can_charge(state, probe) and bool(visible_targets(state, probe,
                                                                 max_reach(probe)))
        join(state, person, host)
        if not sees:
            continue
        order = battle.ask(side, CHARGE_OUT, (stay, go),
                           f"Does {person.name} charge out of {host.label()}?",
                           subject=person.id, default=stay)
        if order.kind == "charge_out":
            own = leave(state, person, spot, host.facing)
            battle.emit("character_left", character=person.id, unit=host.id,
                        at=[round(spot[0], 3), round(spot[1], 3)], cost=0.0,
                        facing=round(own.facing, 3))
            out[person.id] = host.id
    return out


def back_in(state: WarState, battle: Battle, stepped: dict[str, str],
            charging: set[str]) -> None:
    """Characters who stepped out to charge but declared none go back into their unit."""
    for cid, hid in stepped.items():
        if cid in charging:
            continue
        person, host = state.characters[cid], state.units[hid]
        if host.alive and not person.slain:
            join(state, person, host)
            battle.emit("character_joined", character=cid, unit=hid, cost=0.0)
