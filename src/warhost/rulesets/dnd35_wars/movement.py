"""Unit move actions (W35-UMOVE, W35-TERR, W35-AMB-12/37/43/44/61/62/65): Move, Disengage,
Regroup, Split Up and Pass Through, the terrain cost of a step, and a routed unit's flight.

A move shifts the whole formation one square at a time along the Bresenham line to its offset
(diagonal steps cost like orthogonal ones). Each move action gives the unit movement points
equal to its move rate, kept as exact fractions; a step is taken when the points reach its
cost, and points too few for the next step are banked toward that step, which a move continuing
the same way on the unit's next turn picks up (W35-AMB-12).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import GEOMETRY, OPTIONS, count
from warhost.core.orders import Order
from warhost.geometry.grid import (
    DIRECTIONS4,
    DIRECTIONS8,
    Square,
    bresenham,
    formation_ok,
    heading_of,
    holes,
    removal_order,
    share_side,
    translate,
)
from warhost.rulesets.dnd35_wars import combat, conditions, morale, tables
from warhost.rulesets.dnd35_wars.state import FLED, MERGED, Single, Unit, WarState

ORDER_KINDS: tuple[str, ...] = ("move", "disengage", "regroup", "split", "pass")
"""The order kinds this module offers and carries out."""

EDGE_STEP: dict[str, Square] = {"north": (0, 1), "east": (1, 0), "south": (0, -1),
                                "west": (-1, 0)}
"""The step toward each map edge (north is +y)."""

KNIGHT: tuple[Square, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1),
                              (-1, 2))
"""Offsets off the eight lines that moves also offer."""

Passable = Callable[[Square], bool]

NOTHING = Fraction(0)
"""No points (shared: Fractions are immutable)."""


# ---------------------------------------------------------------------------------------------
# Terrain costs (W35-TERR-03..16, W35-AMB-43/44)
# ---------------------------------------------------------------------------------------------

# Costs are kept in thirds of a point (the only fraction is the 2/3 downhill) so the hot
# paths compare integers; Fractions appear only where points are handed in or out.

OPEN3 = 3
"""A step onto open, level, dry ground: 1 point, in thirds."""

CounterCost = tuple[int, int, bool]


def _counter_cost3(state: WarState, fro: Square, to: Square, water_native: bool) -> CounterCost:
    """One counter's step from ``fro`` to ``to``, in thirds: its cost, its cost if the whole
    unit goes downhill, and whether this step is downhill."""
    base = tables.TERRAIN_COST[state.cost_of(to)] * 3
    if to in state.water and not water_native:
        base *= 2
    up, down = state.elevation.get(to, 0), state.elevation.get(fro, 0)
    if up > down:  # climbing: the scenario's grade for the square (W35-TERR-14)
        climb = max(base, state.slope_cost.get(to, tables.UP_SLOPE_COSTS[0]) * 3)
        return climb, climb, False
    if up < down:  # 2/3 only on otherwise open ground; harder terrain keeps its cost
        return base, int(tables.DOWNHILL_COST * 3) if base == OPEN3 else base, True
    return base, base, False


def step_table(state: WarState, water_native: bool, dx: int,
               dy: int) -> dict[Square, CounterCost]:
    """The counter step costs by ``(dx, dy)`` into every square where it is not the plain
    ``(3, 3, False)``; built once per state (the terrain never changes during a battle)."""
    key = (water_native, dx, dy)
    table = state.step_tables.get(key)
    if table is None:
        table = {}
        maybe = set(state.terrain) | state.water | set(state.elevation)
        maybe |= {(x + dx, y + dy) for x, y in state.elevation}
        for to in maybe:
            cost = _counter_cost3(state, (to[0] - dx, to[1] - dy), to, water_native)
            if cost != (OPEN3, OPEN3, False):
                table[to] = cost
        state.step_tables[key] = table
    return table


def single_table(state: WarState, water_native: bool, dx: int, dy: int) -> dict[Square, int]:
    """A lone creature's step costs by ``(dx, dy)`` in thirds, where they are not 3 (its own
    step is downhill exactly when the counter's is)."""
    key = (water_native, dx, dy)
    table = state.single_tables.get(key)
    if table is None:
        table = {}
        for sq, (cost, down_cost, down) in step_table(state, water_native, dx, dy).items():
            if (down_cost if down else cost) != OPEN3:
                table[sq] = down_cost if down else cost
        state.single_tables[key] = table
    return table


def unhindered(mover: Unit | Single) -> bool:
    """Flying and incorporeal movers pay 1 on every terrain (W35-TERR-06, W35-AMB-43)."""
    if isinstance(mover, Unit):
        return mover.flying or mover.creature.incorporeal
    return mover.creature.incorporeal or bool(mover.creature.fly_speed)


def _native(mover: Unit | Single) -> bool:
    return mover.water_native if isinstance(mover, Unit) else mover.creature.water_native


def _formation_cost(table: dict[Square, CounterCost], after: Iterable[Square]) -> int:
    """The step cost of the counters now on ``after``: the dearest, or the dearest downhill
    cost when every counter stepped downhill."""
    worst = worst_down = 0
    all_down = True
    for sq in after:
        cost, down_cost, down = table.get(sq, (OPEN3, OPEN3, False))
        worst = max(worst, cost)
        worst_down = max(worst_down, down_cost)
        all_down = all_down and down
    return worst_down if all_down else worst


def step3(state: WarState, mover: Unit | Single, after: Iterable[Square], dx: int,
          dy: int) -> int:
    """:func:`step_cost` in thirds, for the formation now on ``after`` having stepped by
    ``(dx, dy)``."""
    if unhindered(mover):
        return OPEN3
    table = step_table(state, _native(mover), dx, dy)
    if not table or table.keys().isdisjoint(after):
        return OPEN3
    return _formation_cost(table, after)


def _rows(squares: Iterable[Square]) -> dict[int, tuple[int, int]]:
    """The least and greatest x of ``squares`` in each row."""
    rows: dict[int, tuple[int, int]] = {}
    for x, y in squares:
        span = rows.get(y)
        rows[y] = (x, x) if span is None else (min(span[0], x), max(span[1], x))
    return rows


def _table_rows(state: WarState, water_native: bool, dx: int,
                dy: int) -> dict[int, tuple[int, int]]:
    key = (water_native, dx, dy)
    rows = state.step_rows.get(key)
    if rows is None:
        rows = state.step_rows[key] = _rows(step_table(state, water_native, dx, dy))
    return rows


def _may_touch(rows: dict[int, tuple[int, int]], tx: int, ty: int,
               table_rows: dict[int, tuple[int, int]]) -> bool:
    """Whether the formation with ``rows``, shifted by ``(tx, ty)``, may stand on a square of
    a table with ``table_rows`` (False: surely not)."""
    for y, (lo, hi) in rows.items():
        span = table_rows.get(y + ty)
        if span is not None and span[0] <= hi + tx and lo + tx <= span[1]:
            return True
    return False


def step_cost(state: WarState, mover: Unit | Single, squares_after: Iterable[Square],
              squares_before: Iterable[Square]) -> Fraction:
    """The cost of one step of a formation: ``squares_after`` is ``squares_before`` shifted by
    one square. The highest cost among the counters' new squares; 2/3 on open ground only when
    every counter steps downhill (W35-AMB-43/44, W35-TERR-14)."""
    after = tuple(squares_after)
    (ax, ay), (bx, by) = min(after), min(squares_before)
    return Fraction(step3(state, mover, after, ax - bx, ay - by), 3)


def single_step_cost(state: WarState, single: Single, sq_from: Square,
                     sq_to: Square) -> Fraction:
    """What a singular creature pays to step into ``sq_to`` (W35-TERR-16, W35-AMB-43)."""
    return Fraction(single_step3(state, single, sq_from, sq_to), 3)


def single_step3(state: WarState, single: Single, sq_from: Square, sq_to: Square) -> int:
    """:func:`single_step_cost` in thirds."""
    return step3(state, single, (sq_to,), sq_to[0] - sq_from[0], sq_to[1] - sq_from[1])


# ---------------------------------------------------------------------------------------------
# Points, banking and walking a path (W35-STAT-11/13, W35-TERR-15, W35-AMB-12)
# ---------------------------------------------------------------------------------------------

def move_points(unit: Unit, *, together: bool = True) -> Fraction:
    """Movement points of one move action: the move rate, halved in a phalanx
    (W35-DEFEND-10, W35-AMB-67); ``together``: as hindered counters allow (W35-SPELL-08)."""
    if unit.phalanx:
        full = tables.phalanx_rate(unit.rate)
    else:
        full = unit.rate if isinstance(unit.rate, Fraction) else Fraction(unit.rate)
    return conditions.points(unit, full) if together and unit.held else full


def banked(state: WarState, unit: Unit, first_step: Square) -> Fraction:
    """Points banked toward ``first_step``, kept only when made on the unit's previous turn."""
    if unit.bank_step == first_step and unit.bank_round == state.round - 1:
        return unit.bank
    return NOTHING


@functools.lru_cache(maxsize=64)
def _sum(steps: tuple[Square, ...]) -> Square:
    """Where ``steps`` lead from (0, 0)."""
    return sum(s[0] for s in steps), sum(s[1] for s in steps)


@functools.lru_cache(maxsize=4096)
def _steps(dx: int, dy: int) -> tuple[Square, ...]:
    """The unit steps of a straight move by ``(dx, dy)``."""
    line = bresenham((0, 0), (dx, dy))
    return tuple((b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(line))


def parse_offset(text: str) -> tuple[int, int] | None:
    """``"dx,dy"`` as numbers, or None."""
    try:
        dx, dy = (int(v) for v in text.split(","))
    except ValueError:
        return None
    return dx, dy


def parse_squares(text: str) -> set[Square] | None:
    """``"x,y;x,y"`` as squares, or None."""
    out: set[Square] = set()
    for part in text.split(";"):
        sq = parse_offset(part)
        if sq is None:
            return None
        out.add(sq)
    return out


class Walk:
    """Where a walk along steps ended: the formation, steps taken, points left, and the step
    the walk stopped short of (banked toward, or blocked). Made with ``offset``, ``squares``
    is the start formation and the end one is shifted by it only when asked for; made with
    ``per`` (and ``left`` None), the points left are ``left_units / per``, made a Fraction
    only when asked for."""

    __slots__ = ("_left", "_offset", "_per", "_squares", "_start", "_units", "blocked",
                 "short_of", "taken")

    def __init__(self, squares: frozenset[Square], taken: int, left: Fraction | None,
                 short_of: Square | None = None, blocked: bool = False, *,
                 offset: Square = (0, 0), units: int = 0, per: int = 1) -> None:
        self._start, self._offset = squares, offset
        self._squares: frozenset[Square] | None = squares if offset == (0, 0) else None
        self._left, self._units, self._per = left, units, per
        self.taken, self.short_of, self.blocked = taken, short_of, blocked

    @property
    def squares(self) -> frozenset[Square]:
        """The formation where the walk ended."""
        if self._squares is None:
            self._squares = translate(self._start, *self._offset)
        return self._squares

    @property
    def left(self) -> Fraction:
        """Movement points left."""
        if self._left is None:
            self._left = Fraction(self._units, self._per)
        return self._left


class Footing:
    """A start formation with what every walk from it reuses: its rows, and the squares a
    step each way enters."""

    __slots__ = ("leads", "passes", "rows", "squares")

    def __init__(self, squares: Iterable[Square]) -> None:
        self.squares = frozenset(squares)
        self.rows: dict[int, tuple[int, int]] | None = None
        self.leads: dict[Square, tuple[Square, ...]] = {}
        self.passes: list[tuple[Passable, bool]] = []

    def all_pass(self, passable: Passable) -> bool:
        """Whether every square of the formation passes ``passable`` (then a first step need
        only check the squares it enters)."""
        for known, answer in self.passes:
            if known is passable:
                return answer
        answer = all(map(passable, self.squares))
        self.passes.append((passable, answer))
        return answer

    def lead(self, step: Square) -> tuple[Square, ...]:
        """The squares a step by ``step`` enters that the formation did not hold."""
        lead = self.leads.get(step)
        if lead is None:
            lead = self.leads[step] = tuple(translate(self.squares, *step) - self.squares)
        return lead

    def row_spans(self) -> dict[int, tuple[int, int]]:
        """:func:`_rows` of the formation."""
        if self.rows is None:
            self.rows = _rows(self.squares)
        return self.rows


def walk(state: WarState, unit: Unit, start: Iterable[Square] | Footing,
         steps: Sequence[Square], points: Fraction, passable: Passable) -> Walk:
    """Take ``steps`` in turn while the points pay for them and every new square passes."""
    foot = start if isinstance(start, Footing) else Footing(start)
    points = points if isinstance(points, Fraction) else Fraction(points)
    return _walk(state, foot, steps, points.numerator, points.denominator,
                 None if unhindered(unit) else _native(unit), passable)


def _walk(state: WarState, foot: Footing, steps: Sequence[Square], num: int, den: int,
          native: bool | None, passable: Passable) -> Walk:
    """:func:`walk` with ``num / den`` points; ``native`` None for a mover terrain never
    hinders."""
    base = foot.squares
    left = num * 3  # in 1/(3 den) of a point: step costs in thirds times den
    open_cost = den * OPEN3
    tx = ty = 0  # the offset walked so far
    last: Square | None = None
    lead: tuple[Square, ...] = ()
    table: dict[Square, CounterCost] = {}
    table_rows: dict[int, tuple[int, int]] = {}
    rows: dict[int, tuple[int, int]] | None = None
    for i, step in enumerate(steps):
        if step != last:
            last = step
            lead = foot.leads.get(step) or foot.lead(step)
            if native is not None:
                table = step_table(state, native, *step)
                table_rows = _table_rows(state, native, *step)
        # squares the formation already stood on passed when it entered them
        ok = True
        if i == 0 and not foot.all_pass(passable):
            ok = all(map(passable, translate(base, *step)))
        else:
            for x, y in lead:
                if not passable((x + tx, y + ty)):
                    ok = False
                    break
        if not ok:
            count(GEOMETRY, i + 1)
            return Walk(base, i, None, step, blocked=True, offset=(tx, ty), units=left,
                        per=3 * den)
        nx, ny = tx + step[0], ty + step[1]
        cost = open_cost
        if table:
            if rows is None:
                rows = foot.row_spans()
            if _may_touch(rows, nx, ny, table_rows):
                cost = den * _formation_cost(table, translate(base, nx, ny))
        if left < cost:
            count(GEOMETRY, i + 1)
            return Walk(base, i, None, step, offset=(tx, ty), units=left, per=3 * den)
        left -= cost
        tx, ty = nx, ny
    count(GEOMETRY, len(steps))
    return Walk(base, len(steps), None, offset=(tx, ty), units=left, per=3 * den)


def free_for(state: WarState, unit: Unit, *, allies: bool = False) -> Passable:
    """Squares ``unit`` may step into: on the map and empty or its own, or (``allies``) held
    by an allied unit."""
    at, width, height, uid = state.at, state.width, state.height, unit.id
    walls, within = state.barrier_at, sections_under(state, unit.squares)

    def passable(sq: Square) -> bool:
        if not (0 <= sq[0] < width and 0 <= sq[1] < height):
            return False
        if sq in walls and state.barred(unit.side, sq, within=within):
            return False
        other = at.get(sq)
        return other is None or other == uid or allies and _ally(state, unit, other)
    return passable


def sections_under(state: WarState, squares: Iterable[Square]) -> frozenset[str]:
    """The wall and gate sections (W35-AMB-45) that ``squares`` stand on."""
    if not state.barrier_at:
        return frozenset()
    return frozenset(sid for sq in squares if (sid := state.barrier_at.get(sq)) is not None)


def _ally(state: WarState, unit: Unit, oid: str) -> bool:
    """``oid`` names an allied unit of ``unit``."""
    other = state.units.get(oid)
    return other is not None and other.side == unit.side and other.id != unit.id


def _allies_on(state: WarState, unit: Unit, squares: Iterable[Square]) -> set[str]:
    """The allied units holding any of ``squares``."""
    out: set[str] = set()
    for sq in squares:
        oid = state.at.get(sq)
        if oid is not None and _ally(state, unit, oid):
            out.add(oid)
    return out


# ---------------------------------------------------------------------------------------------
# Contacts (W35-UATK-05/06, W35-AMB-37)
# ---------------------------------------------------------------------------------------------

def update_contacts(state: WarState, unit: Unit) -> None:
    """After ``unit`` moved: end its engagements, and approaches, with units it no longer
    shares a side with (W35-AMB-37)."""
    for fid in list(state.foes_engaged(unit.id)):
        foe = state.units.get(fid)
        if foe is None or not foe.on_map or not share_side(unit.squares, foe.squares):
            state.disengage(unit.id, fid)
    for aid in list(unit.approached_by):
        other = state.units.get(aid)
        if other is None or not other.on_map or not share_side(unit.squares, other.squares):
            unit.approached_by.discard(aid)


def _after_move(state: WarState, unit: Unit, before: set[str]) -> None:
    """Contacts after a move: engagements end, left units forget the approach, and enemy units
    newly in side contact are approached without a fight (W35-UATK-05/06)."""
    update_contacts(state, unit)
    now = state.neighbours_of(unit.squares)
    for oid in before - now:
        other = state.units.get(oid)
        if other is not None:
            other.approached_by.discard(unit.id)
    for oid in now:
        other = state.units.get(oid)
        if other is not None and other.side != unit.side and oid not in state.foes_engaged(unit.id):
            other.approached_by.add(unit.id)


def _shift(state: WarState, battle: Battle, unit: Unit, squares: frozenset[Square],
           moved: Square) -> None:
    """Put the formation on ``squares`` after a move by ``moved``; heading and contacts."""
    before = state.neighbours_of(unit.squares)
    conditions.shifted(unit, moved)
    state.place(unit, set(squares))
    if moved != (0, 0):
        unit.heading = heading_of(*moved)
    _after_move(state, unit, before)
    battle.emit("move", unit=unit.id, by=[moved[0], moved[1]])


def _keep_bank(state: WarState, unit: Unit, result: Walk, last: Square | None,
               passable: Passable) -> None:
    """Bank what is left toward the step the walk stopped short of, or, after a completed
    move, toward the next step the same way when the points fall short of it (W35-AMB-12)."""
    unit.bank, unit.bank_step, unit.bank_round = Fraction(0), None, state.round
    step = result.short_of if result.short_of is not None and not result.blocked else None
    if step is None and result.short_of is None and last is not None and result.left > 0:
        ahead = translate(result.squares, *last)
        if all(passable(sq) for sq in ahead) and result.left < step_cost(
                state, unit, ahead, result.squares):
            step = last
    if step is not None and result.left > 0:
        unit.bank, unit.bank_step = result.left, step


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------

def _order_offset(order: Order, at: int) -> tuple[int, int] | None:
    return parse_offset(str(order.args[at])) if len(order.args) > at else None


Line = tuple[tuple[Square, ...], bool, Walk]
"""A line's steps, whether only its whole length counts (a knight offset), and the walk."""


def _line_steps(points: Fraction) -> tuple[tuple[tuple[Square, ...], bool], ...]:
    """The 8 lines as far as ``points`` could go (no step costs less than 2/3), then the
    knight offsets."""
    return _lines_of(math.ceil(points * 3 / 2) + 2)


@functools.lru_cache(maxsize=64)
def _lines_of(limit: int) -> tuple[tuple[tuple[Square, ...], bool], ...]:
    return tuple([((d,) * limit, False) for d in DIRECTIONS8] + [(_steps(*k), True)
                                                                  for k in KNIGHT])


def plain_walks(state: WarState, unit: Unit, passable: Passable) -> list[Line]:
    """The walks along every line with this action's points only (none without points); the
    move, disengage, regroup and pass options all start from them."""
    base = move_points(unit)
    if base <= 0:
        return []
    foot = Footing(unit.squares)
    num, den = base.numerator, base.denominator
    native = None if unhindered(unit) else _native(unit)
    out: list[Line] = []
    stuck: dict[Square, Walk] = {}  # straight lines that could not take their first step
    for steps, whole in _line_steps(base):
        result = stuck.get(steps[0]) if whole else None
        if result is None:  # (a knight offset whose first step fails ends just the same)
            result = _walk(state, foot, steps, num, den, native, passable)
            if not whole and result.taken == 0:
                stuck[steps[0]] = result
        out.append((steps, whole, result))
    return out


def _line_moves(state: WarState, unit: Unit, passable: Passable, *, bank: bool,
                plain: list[Line] | None = None) -> list[tuple[Square, Walk]]:
    """Moves along the 8 lines as far as the points go (the last one may only bank), plus the
    knight offsets the points pay for in full. ``plain``: :func:`plain_walks` already made
    with the same ``passable``."""
    out: list[tuple[Square, Walk]] = []
    base = move_points(unit)
    if base <= 0:
        return out
    toward = unit.bank_step if bank and banked(state, unit, unit.bank_step or (0, 0)) else None
    for steps, whole, result in plain_walks(state, unit, passable) if plain is None else plain:
        if toward is not None and steps[0] == toward:  # only that way has banked points
            result = walk(state, unit, unit.squares, steps, base + unit.bank, passable)
        if whole:
            if result.taken == len(steps):
                out.append((_sum(steps), result))
            continue
        dx, dy = steps[0]
        for n in range(1, result.taken + 1):
            out.append(((dx * n, dy * n), result))
        if bank and result.short_of is not None and not result.blocked and result.left > 0:
            n = result.taken + 1
            out.append(((dx * n, dy * n), result))
    return out


def move_options(state: WarState, unit: Unit) -> list[Order]:
    """The move actions open to ``unit``: moves (none while engaged: W35-AMB-37), disengages,
    regroups, split-ups and passes through allies."""
    fix_home_edges(state)
    if unit.stuck_in is not None:
        out = pass_options(state, unit)
    elif state.foes_engaged(unit.id):
        out = disengage_options(state, unit)
    else:
        passable = free_for(state, unit)
        plain = plain_walks(state, unit, passable)
        out = [Order.of("move", unit.id, f"{dx},{dy}")
               for (dx, dy), _ in _line_moves(state, unit, passable, bank=True, plain=plain)]
        out += regroup_options(state, unit, plain) + split_options(state, unit)
        out += pass_options(state, unit, plain)
    out = conditions.allowed_moves(state, unit, out)
    count(OPTIONS, len(out))
    return out


def disengage_options(state: WarState, unit: Unit) -> list[Order]:
    """Moves away from every engaged foe at the normal rate, never with banked points, ending
    out of side contact with all of them (W35-UMOVE-05, W35-AMB-12)."""
    foes = [state.units[f] for f in sorted(state.foes_engaged(unit.id)) if f in state.units]
    out = []
    for (dx, dy), result in _line_moves(state, unit, free_for(state, unit), bank=False):
        dest = translate(unit.squares, dx, dy)
        if not any(share_side(dest, foe.squares) for foe in foes):
            out.append(Order.of("disengage", unit.id, f"{dx},{dy}"))
    return out


def _can_regroup(unit: Unit, partner: Unit) -> Refusal | None:
    """Why ``partner`` cannot merge with ``unit`` (W35-UMOVE-08, W35-AMB-61), or None."""
    if partner.side != unit.side or partner.id == unit.id or not partner.can_fight:
        return Refusal(f"{partner.label} is not a fighting allied unit", rule="W35-UMOVE-08")
    same = (partner.creature.type == unit.creature.type and partner.size == unit.size
            and partner.creature.speed == unit.creature.speed)
    if not same:
        return Refusal(f"{partner.label} is not of {unit.label}'s creature type, size and speed",
                       rule="W35-AMB-61")
    if unit.hp >= unit.start_hp or partner.hp >= partner.start_hp:
        return Refusal("only partly depleted units regroup", rule="W35-UMOVE-08")
    return None


def regroup_options(state: WarState, unit: Unit,
                    plain: list[Line] | None = None) -> list[Order]:
    """Moves (or none) that end in side contact with a compatible, partly depleted ally."""
    if unit.hp >= unit.start_hp:
        return []
    passable = free_for(state, unit)
    dests = [((0, 0), frozenset(unit.squares))]
    dests += [(off, translate(unit.squares, *off))
              for off, result in _line_moves(state, unit, passable, bank=False, plain=plain)]
    out = []
    for (dx, dy), squares in dests:
        for pid in sorted(state.neighbours_of(set(squares))):
            partner = state.units.get(pid)
            if partner is not None and _can_regroup(unit, partner) is None:
                out.append(Order.of("regroup", unit.id, pid, f"{dx},{dy}"))
    return out


def _split_groups(unit: Unit) -> list[frozenset[Square]]:
    """Counters that could leave: the rear rank, and either half across the heading."""
    n = unit.counters
    if n < 2:
        return []
    hx, hy = unit.heading
    ranked = sorted(unit.squares, key=lambda s: (s[0] * hx + s[1] * hy, s))
    back = ranked[0][0] * hx + ranked[0][1] * hy
    groups = [frozenset(s for s in ranked if s[0] * hx + s[1] * hy == back)]
    across = sorted(unit.squares, key=lambda s: (s[0] * -hy + s[1] * hx, s))
    groups += [frozenset(across[: n // 2]), frozenset(across[n // 2:])]
    out: list[frozenset[Square]] = []
    for g in groups:
        if g and len(g) < n and g not in out and formation_ok(g) and formation_ok(
                unit.squares - g):
            out.append(g)
    return out


def _split_passable(state: WarState, unit: Unit, group: frozenset[Square]) -> Passable:
    """Squares the leaving group may enter: its own old squares are free, the rest of the unit
    is not."""
    stay = unit.squares - group
    at, width, height, uid = state.at, state.width, state.height, unit.id
    walls, within = state.barrier_at, sections_under(state, group)

    def passable(sq: Square) -> bool:
        return (0 <= sq[0] < width and 0 <= sq[1] < height and sq not in stay
                and at.get(sq, uid) == uid
                and not (sq in walls and state.barred(unit.side, sq, within=within)))
    return passable


def _split_walk(state: WarState, unit: Unit, group: frozenset[Square], dx: int,
                dy: int) -> Walk:
    """The leaving group's move: its own old squares are free, the rest of the unit is not."""
    return walk(state, unit, group, _steps(dx, dy), move_points(unit, together=False),
                _split_passable(state, unit, group))


def split_options(state: WarState, unit: Unit) -> list[Order]:
    """Split-ups: a few groups, each moved one square or as far as it can along 8 lines."""
    points = move_points(unit, together=False)  # the leaving counters are free (W35-SPELL-07)
    if unit.split_round == state.round or points < 1:
        return []
    out = []
    far = math.floor(points)
    for group in conditions.split_groups(unit, _split_groups(unit)):
        text = ";".join(f"{x},{y}" for x, y in sorted(group))
        foot = Footing(group)
        passable = _split_passable(state, unit, group)
        for dx, dy in DIRECTIONS8:
            # the one-square move is the first step of the longest one
            result = walk(state, unit, foot, _steps(dx * far, dy * far), points, passable)
            for n in sorted({1, far}):
                if result.taken >= n:
                    out.append(Order.of("split", unit.id, text, f"{dx * n},{dy * n}"))
    return out


def pass_options(state: WarState, unit: Unit, plain: list[Line] | None = None) -> list[Order]:
    """Moves through allied units ending on free squares (W35-UMOVE-18), tried only along the
    lines an ally blocks; for a unit already stuck inside an ally (W35-UMOVE-19), any progress
    onward. A new pass ending inside an ally is taken only when ordered (judge_move).
    ``plain``: :func:`plain_walks` with :func:`free_for` already made."""
    points = move_points(unit)
    if points <= 0:
        return []
    through = free_for(state, unit, allies=True)
    if unit.stuck_in is not None:
        lines = [(steps, whole, 0) for steps, whole in _line_steps(points)]
    else:
        if plain is None:
            plain = plain_walks(state, unit, free_for(state, unit))
        lines = []
        for steps, whole, first in plain:
            if first.blocked and _allies_on(state, unit, translate(
                    first.squares, *(first.short_of or (0, 0)))):
                lines.append((steps, whole, first.taken + 1))  # earlier steps are plain moves
    out = []
    foot = Footing(unit.squares)
    tower = unit.machine == "tower"
    for steps, whole_only, first_pass in lines:
        result = walk(state, unit, foot, steps,
                      pass_points(state, unit, steps[0]) if tower else points, through)
        last = result.taken
        if tower and not whole_only and result.short_of is not None and not result.blocked:
            last += 1  # a tower may pass banking toward its next step (W35-TOWER-18)
        for n in range(max(first_pass, 1), last + 1):
            if whole_only and n < len(steps):
                continue
            dx, dy = sum(s[0] for s in steps[:n]), sum(s[1] for s in steps[:n])
            inside = _allies_on(state, unit, translate(unit.squares, dx, dy))
            if not inside or (unit.stuck_in is not None or tower) and len(inside) == 1:
                out.append(Order.of("pass", unit.id, f"{dx},{dy}"))
    return out


# ---------------------------------------------------------------------------------------------
# Judging any move order
# ---------------------------------------------------------------------------------------------

def judge_move(state: WarState, unit: Unit, order: Order) -> Order | Refusal:
    """Judge a move-action order not among the options: the order itself if legal, otherwise a
    refusal naming the rule broken."""
    if not order.args or str(order.args[0]) != unit.id:
        return Refusal(f"{order} does not name {unit.label}", rule="W35-UMOVE-01")
    if unit.stuck_in is not None and order.kind != "pass":
        return Refusal(f"{unit.label} must first pass on out of {unit.stuck_in}",
                       rule="W35-UMOVE-19")
    held = conditions.move_refusal(state, unit, order)
    if held is not None:
        return held
    judges: dict[str, Callable[[WarState, Unit, Order], Refusal | None]] = {
        "move": _judge_plain, "disengage": _judge_disengage, "regroup": _judge_regroup,
        "split": _judge_split, "pass": _judge_pass,
    }
    refusal = judges[order.kind](state, unit, order)
    return order if refusal is None else refusal


def _judge_path(state: WarState, unit: Unit, dx: int, dy: int, passable: Passable,
                points: Fraction, may_bank: bool) -> Refusal | None:
    """A straight move of the formation: on the map, not through others, affordable (the last
    step may be banked toward when ``may_bank``)."""
    if (dx, dy) == (0, 0):
        return Refusal("a move must go somewhere", rule="W35-UMOVE-04")
    result = walk(state, unit, unit.squares, _steps(dx, dy), points, passable)
    if result.blocked:
        nxt = translate(result.squares, *(result.short_of or (0, 0)))
        if not all(state.inside(sq) for sq in nxt):
            return Refusal("the move would leave the map", rule="W35-UMOVE-02")
        return Refusal("the way is blocked by another unit or figure", rule="W35-PLACE-06")
    steps = len(_steps(dx, dy))
    if result.taken == steps or (may_bank and result.taken == steps - 1 and result.left > 0):
        return None
    return Refusal(f"{dx},{dy} is too far for {move_points(unit)} movement points",
                   rule="W35-UMOVE-02")


def _judge_plain(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    off = _order_offset(order, 1)
    if off is None:
        return Refusal("give the offset as dx,dy", rule="W35-UMOVE-02")
    if state.foes_engaged(unit.id):
        return Refusal(f"{unit.label} is engaged: only Disengage moves it away",
                       rule="W35-AMB-37")
    if unit.stuck_in is not None:
        return Refusal(f"{unit.label} must first pass out of {unit.stuck_in}", rule="W35-UMOVE-19")
    first = _steps(*off)[:1]
    points = move_points(unit) + (banked(state, unit, first[0]) if first else 0)
    return _judge_path(state, unit, *off, free_for(state, unit), points, may_bank=True)


def _judge_disengage(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    off = _order_offset(order, 1)
    if off is None:
        return Refusal("give the offset as dx,dy", rule="W35-UMOVE-05")
    foes = [state.units[f] for f in state.foes_engaged(unit.id) if f in state.units]
    if not foes:
        return Refusal(f"{unit.label} is not engaged in melee", rule="W35-UMOVE-05")
    bad = _judge_path(state, unit, *off, free_for(state, unit), move_points(unit),
                      may_bank=False)
    if bad is not None:
        return bad
    dest = translate(unit.squares, *off)
    if any(share_side(dest, foe.squares) for foe in foes):
        return Refusal("a disengaging unit must end out of contact with its foes",
                       rule="W35-UMOVE-05")
    return None


def _judge_regroup(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    off = _order_offset(order, 2)
    partner = state.units.get(str(order.args[1])) if len(order.args) > 1 else None
    if off is None or partner is None:
        return Refusal("regroup needs a partner unit and dx,dy", rule="W35-UMOVE-08")
    bad = _can_regroup(unit, partner)
    if bad is not None:
        return bad
    if state.foes_engaged(unit.id):
        return Refusal(f"{unit.label} is engaged: only Disengage moves it away",
                       rule="W35-AMB-37")
    if off != (0, 0):
        bad = _judge_path(state, unit, *off, free_for(state, unit), move_points(unit),
                          may_bank=False)
        if bad is not None:
            return bad
    if not share_side(translate(unit.squares, *off), partner.squares):
        return Refusal(f"the move must end in side contact with {partner.label}",
                       rule="W35-AMB-61")
    if _merged_squares(state, unit, partner, translate(unit.squares, *off)) is None:
        return Refusal("the merged unit would have no legal formation", rule="W35-FORM-04")
    return None


def _judge_split(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    group = parse_squares(str(order.args[1])) if len(order.args) > 2 else None
    off = _order_offset(order, 2)
    if group is None or off is None:
        return Refusal("split needs the leaving counters x,y;x,y and dx,dy", rule="W35-UMOVE-13")
    if unit.split_round == state.round:
        return Refusal(f"{unit.label} already split this round", rule="W35-UMOVE-17")
    if state.foes_engaged(unit.id):
        return Refusal(f"{unit.label} is engaged: only Disengage moves it away",
                       rule="W35-AMB-37")
    if not group <= unit.squares or not 0 < len(group) < unit.counters:
        return Refusal("the leaving counters must be some, not all, of the unit's",
                       rule="W35-UMOVE-13")
    if not formation_ok(group) or not formation_ok(unit.squares - group):
        return Refusal("both groups must be connected without holes", rule="W35-AMB-62")
    result = _split_walk(state, unit, frozenset(group), *off)
    if result.taken != len(_steps(*off)):
        why = "blocked" if result.blocked else "too far"
        return Refusal(f"the leaving counters' move is {why}",
                       rule="W35-PLACE-06" if result.blocked else "W35-AMB-62")
    return None


def _judge_pass(state: WarState, unit: Unit, order: Order) -> Refusal | None:
    off = _order_offset(order, 1)
    if off is None:
        return Refusal("give the offset as dx,dy", rule="W35-UMOVE-18")
    if state.foes_engaged(unit.id):
        return Refusal(f"{unit.label} is engaged: only Disengage moves it away",
                       rule="W35-AMB-37")
    bad = _judge_path(state, unit, *off, free_for(state, unit, allies=True),
                      pass_points(state, unit, _steps(*off)[0]) if off != (0, 0)
                      else move_points(unit), may_bank=unit.machine == "tower")
    if bad is not None:
        return bad
    if len(_allies_on(state, unit, translate(unit.squares, *off))) > 1:
        return Refusal("a passing unit may end inside at most one ally", rule="W35-UMOVE-19")
    return None


# ---------------------------------------------------------------------------------------------
# Carrying out a move action
# ---------------------------------------------------------------------------------------------

def take_move(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Carry out a move-action order of any of this module's kinds."""
    unit.moved_round = state.round  # a tower may not attack this round (W35-TOWER-15)
    takers: dict[str, Callable[[WarState, Battle, Unit, Order], None]] = {
        "move": _take_plain, "disengage": _take_disengage, "regroup": take_regroup,
        "split": take_split, "pass": _take_pass,
    }
    takers[order.kind](state, battle, unit, order)


def _take_plain(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    off = _order_offset(order, 1)
    assert off is not None
    steps = _steps(*off)
    passable = free_for(state, unit)
    points = move_points(unit) + banked(state, unit, steps[0])
    result = walk(state, unit, unit.squares, steps, points, passable)
    start = min(unit.squares)
    if result.taken:
        end = min(result.squares)
        _shift(state, battle, unit, result.squares, (end[0] - start[0], end[1] - start[1]))
    else:
        unit.heading = heading_of(*off)
    _keep_bank(state, unit, result, steps[-1], passable)
    if unit.bank:
        battle.emit("move_banked", unit=unit.id, toward=list(unit.bank_step or (0, 0)),
                    points=str(unit.bank))


def _free_attacks(state: WarState, battle: Battle, unit: Unit) -> None:
    """Each engaged foe that is not routed strikes once as the unit leaves (W35-UMOVE-06,
    W35-AMB-82)."""
    for fid in sorted(state.foes_engaged(unit.id)):
        foe = state.units.get(fid)
        if foe is not None and foe.can_fight and unit.on_map:
            combat.free_attack(state, battle, foe, unit)


def _take_disengage(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    off = _order_offset(order, 1)
    assert off is not None
    battle.emit("disengage", unit=unit.id, foes=sorted(state.foes_engaged(unit.id)))
    _free_attacks(state, battle, unit)
    if unit.on_map:
        _move_now(state, battle, unit, off)


def _move_now(state: WarState, battle: Battle, unit: Unit, off: Square) -> None:
    """A straight move paid with this action's points only, no bank (W35-AMB-12)."""
    result = walk(state, unit, unit.squares, _steps(*off), move_points(unit),
                  free_for(state, unit))
    unit.bank, unit.bank_step = Fraction(0), None
    if result.taken:
        start, end = min(unit.squares), min(result.squares)
        _shift(state, battle, unit, result.squares, (end[0] - start[0], end[1] - start[1]))


def _take_pass(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    off = _order_offset(order, 1)
    assert off is not None
    old = state.units.get(unit.stuck_in) if unit.stuck_in else None
    steps = _steps(*off)
    through = free_for(state, unit, allies=True)
    result = walk(state, unit, unit.squares, steps, pass_points(state, unit, steps[0]),
                  through)
    allies = _allies_on(state, unit, result.squares)
    unit.bank, unit.bank_step = Fraction(0), None
    if unit.machine == "tower":  # a tower banks toward its pass too (W35-TOWER-18, AMB-13)
        _keep_bank(state, unit, result, steps[-1], through)
        if not result.taken:
            return
    start, end = min(unit.squares), min(result.squares)
    _shift(state, battle, unit, result.squares, (end[0] - start[0], end[1] - start[1]))
    inside = [state.units[a] for a in sorted(allies) if state.units[a].squares & unit.squares]
    for ally in inside:
        for sq in ally.squares & unit.squares:
            state.at[sq] = ally.id  # both stand there; the ally keeps the occupancy
    if old is not None and old not in inside:
        _unstick(state, unit, old)
    if inside:
        unit.stuck_in, unit.passing = inside[0].id, True
        inside[0].stuck_in = unit.id
        battle.emit("pass_stuck", unit=unit.id, inside=inside[0].id)


def pass_points(state: WarState, unit: Unit, first_step: Square) -> Fraction:
    """Points for a pass through allies: the action's own, plus, for a siege tower (which
    moves through allies at 7.5 ft a round, W35-TOWER-18, W35-AMB-13), its bank."""
    if unit.machine == "tower":
        return move_points(unit) + banked(state, unit, first_step)
    return move_points(unit)


def _unstick(state: WarState, unit: Unit, host: Unit) -> None:
    """The passer is out (or the host gone): it holds all its squares again."""
    unit.stuck_in, unit.passing = None, False
    if host.stuck_in == unit.id:
        host.stuck_in = None
    if unit.on_map:
        for sq in unit.squares:
            state.at.setdefault(sq, unit.id)


def still_stuck(state: WarState, unit: Unit) -> bool:
    """True while ``unit`` is the ally a passing unit is stuck inside: it takes no action
    (W35-UMOVE-19). The passer itself may only pass on out (see :func:`move_options`)."""
    other = state.units.get(unit.stuck_in or "")
    if other is None:
        unit.stuck_in, unit.passing = None, False
        return False
    passer, host = (unit, other) if unit.passing else (other, unit)
    if passer.on_map and host.on_map and passer.squares & host.squares:
        return unit is host
    _unstick(state, passer, host)
    if unit.stuck_in is not None and unit is host:
        unit.stuck_in = None
    return False


# ---------------------------------------------------------------------------------------------
# Regroup (W35-UMOVE-08..12, W35-AMB-61)
# ---------------------------------------------------------------------------------------------

def _merged_numbers(unit: Unit, partner: Unit) -> tuple[int, int, int]:
    """HP, counter HP (counter-weighted average, rounded down) and counters of the merger."""
    hp = unit.hp + partner.hp
    total = unit.counters + partner.counters
    counter_hp = (unit.counters * unit.counter_hp + partner.counters * partner.counter_hp) // total
    return hp, counter_hp, -(-hp // counter_hp)


def _merged_squares(state: WarState, unit: Unit, partner: Unit,
                    dest: frozenset[Square]) -> frozenset[Square] | None:
    """The merged formation: both units' squares with enclosed free squares filled, then
    trimmed (farthest from the enemy first) or grown to the merged counters."""
    need = _merged_numbers(unit, partner)[2]
    cells = set(dest) | partner.squares
    mine = {unit.id, partner.id}
    within = sections_under(state, cells)

    def open_to(sq: Square) -> bool:  # no new counter on the other side's wall (W35-AMB-45)
        return state.at.get(sq) in (None, *mine) and not (
            sq in state.barrier_at and state.barred(unit.side, sq, within=within))

    for sq in holes(cells):
        if open_to(sq):
            cells.add(sq)
    if len(cells) > need:
        foes = [sq for u in state.units_of(state.other(unit.side)) for sq in u.squares]
        cells -= set(removal_order(cells, foes, len(cells) - need))
    while len(cells) < need:
        grow = sorted({(x + dx, y + dy) for x, y in cells for dx, dy in DIRECTIONS4}
                      - cells, key=lambda s: (s[1], s[0]))
        pick = next((sq for sq in grow if state.inside(sq) and open_to(sq)
                     and formation_ok(cells | {sq})), None)
        if pick is None:
            return None
        cells.add(pick)
    return frozenset(cells) if formation_ok(cells) else None


def take_regroup(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Move to the partner and merge with it: pooled HP, averaged counter HP, the mover's
    initiative slot; the partner's slot goes (W35-UMOVE-08..12, W35-AMB-61)."""
    partner = state.units[str(order.args[1])]
    off = _order_offset(order, 2)
    assert off is not None
    if off != (0, 0):
        _move_now(state, battle, unit, off)
    squares = _merged_squares(state, unit, partner, frozenset(unit.squares))
    assert squares is not None
    hp, counter_hp, _ = _merged_numbers(unit, partner)
    bigger = unit if unit.counters >= partner.counters else partner
    unit.per_counter = bigger.per_counter
    unit.creatures += partner.creatures
    unit.hp, unit.counter_hp = hp, counter_hp
    unit.start_hp = len(squares) * counter_hp
    for sid in partner.singles:
        unit.singles.append(sid)
        state.singles[sid].host = unit.id
    partner.singles = []
    if unit.leader is None:
        unit.leader = partner.leader
    for fid in list(state.foes_engaged(partner.id)):
        state.engage(unit.id, fid)
    state.disengage(partner.id)
    state.lift(partner)
    partner.squares = set()
    partner.status = MERGED
    if partner.id in state.order:
        state.order.remove(partner.id)
    state.place(unit, set(squares))
    update_contacts(state, unit)
    battle.emit("regroup", unit=unit.id, partner=partner.id, hp=hp, counters=len(squares))


# ---------------------------------------------------------------------------------------------
# Split Up (W35-UMOVE-13..17, W35-AMB-62)
# ---------------------------------------------------------------------------------------------

def _new_id(state: WarState, unit: Unit) -> str:
    n = 2
    while f"{unit.id}-{n}" in state.units:
        n += 1
    return f"{unit.id}-{n}"



def take_split(state: WarState, battle: Battle, unit: Unit, order: Order) -> None:
    """Some counters leave as a new unit with HP = counters x counter HP, acting at the
    original's initiative - 1; each embedded creature chooses its unit (W35-AMB-62)."""
    group = parse_squares(str(order.args[1]))
    off = _order_offset(order, 2)
    assert group is not None and off is not None
    result = _split_walk(state, unit, frozenset(group), *off)
    new = unit.offshoot(id=_new_id(state, unit), squares=set(), singles=[], leader=None,
                        pending=set(), morale_mods=[], approached_by=set(), stuck_in=None,
                        passing=False, bank=Fraction(0),
                        bank_step=None, hp=len(group) * unit.counter_hp,
                        creatures=min(unit.creatures - 1, max(1, int(len(group) * unit.per_counter))))
    unit.creatures -= new.creatures
    state.remove_counters(unit, group)
    unit.hp -= new.hp
    unit.start_hp, new.start_hp = unit.counters * unit.counter_hp, new.hp
    unit.split_round = new.split_round = state.round
    unit.split_this_round = new.split_this_round = True
    unit.bank, unit.bank_step = Fraction(0), None
    state.units[new.id] = new
    state.place(new, set(result.squares))
    if off != (0, 0):
        new.heading = heading_of(*off)
    state.act_after(unit.id, new.id)
    battle.emit("split", unit=unit.id, new=new.id, counters=new.counters)
    _choose_units(state, battle, unit, new)
    update_contacts(state, unit)
    _after_move(state, new, set())


def _choose_units(state: WarState, battle: Battle, unit: Unit, new: Unit) -> None:
    """Each embedded creature stays or goes with the new unit (W35-UMOVE-16); an NPC may join
    only while the new unit keeps more counters than NPCs (W35-PLACE-14, W35-AMB-63)."""
    for single in state.singles_in(unit):
        npcs = sum(1 for s in state.singles_in(new) if s.kind == "npc")
        stay = Order.of("join", single.id, unit.id)
        options = [stay]
        if single.kind != "npc" or new.counters >= npcs + 2:
            options.append(Order.of("join", single.id, new.id))
        choice = battle.ask(single.side, "split_join", tuple(options),
                            f"{single.label}: stay with {unit.label} or go with {new.label}?",
                            single.id, default=stay)
        if str(choice.args[1]) == new.id:
            unit.singles.remove(single.id)
            new.singles.append(single.id)
            single.host = new.id
            if unit.leader == single.id:
                unit.leader, new.leader = None, single.id
                morale.leader_lost(state, battle, unit)
            battle.emit("joins", who=single.id, unit=new.id)


# ---------------------------------------------------------------------------------------------
# Routed flight (W35-MORALE-07, W35-AMB-65)
# ---------------------------------------------------------------------------------------------

def _nearest_edge(state: WarState, squares: list[Square]) -> str:
    """The map edge nearest the centroid of ``squares`` (ties: north, east, south, west)."""
    cx = Fraction(sum(x for x, _ in squares), len(squares))
    cy = Fraction(sum(y for _, y in squares), len(squares))
    gaps = {"north": state.height - 1 - cy, "east": state.width - 1 - cx, "south": cy,
            "west": cx}
    return min(gaps, key=lambda e: gaps[e])


def fix_home_edges(state: WarState) -> None:
    """Once, before anyone moves: each side without a scenario home edge gets the edge
    nearest the centroid of its deployed units (W35-AMB-65)."""
    if state.home_edges_fixed:
        return
    state.home_edges_fixed = True
    for side in state.sides:
        if side not in state.home_edge:
            squares = [sq for u in state.units_of(side) for sq in u.squares]
            if squares:
                state.home_edge[side] = _nearest_edge(state, squares)


def flee(state: WarState, battle: Battle, unit: Unit) -> None:
    """A routed unit's action: Disengage if engaged (the foes strike first), otherwise a full-
    rate move toward its home edge; a counter crossing the edge means it has fled."""
    fix_home_edges(state)
    edge = state.home_edge.get(unit.side) or _nearest_edge(state, sorted(unit.squares))
    ex, ey = EDGE_STEP[edge]
    if state.foes_engaged(unit.id):
        options = disengage_options(state, unit)
        battle.emit("disengage", unit=unit.id, foes=sorted(state.foes_engaged(unit.id)))
        _free_attacks(state, battle, unit)
        if unit.on_map and options:
            best = max(options, key=lambda o: _flight_score(o, ex, ey))
            off = _order_offset(best, 1)
            assert off is not None
            _move_now(state, battle, unit, off)
        return
    _run(state, battle, unit, (ex, ey))


def _flight_score(order: Order, ex: int, ey: int) -> tuple[int, int]:
    off = _order_offset(order, 1) or (0, 0)
    return off[0] * ex + off[1] * ey, -abs(off[0] * ey - off[1] * ex)  # straightest first


def _run(state: WarState, battle: Battle, unit: Unit, edge: Square) -> None:
    """Step toward the edge (straight, else a diagonal toward it) while the points last."""
    ex, ey = edge
    tries = [edge, (ex or 1, ey or 1), (ex or -1, ey or -1)]
    passable = free_for(state, unit)
    points = move_points(unit) + banked(state, unit, edge)
    start = frozenset(unit.squares)
    cur, short = start, None
    while short is None:
        step = None
        for sx, sy in tries:
            nxt = translate(cur, sx, sy)
            if not all(state.inside(sq) for sq in nxt):
                _gone(state, battle, unit)
                return
            if all(passable(sq) for sq in nxt):
                step = (sx, sy)
                break
        if step is None:
            break
        nxt = translate(cur, *step)
        cost = step_cost(state, unit, nxt, cur)
        if points < cost:
            short = step
        else:
            points -= cost
            cur = nxt
    if cur != start:
        a, b = min(start), min(cur)
        _shift(state, battle, unit, cur, (b[0] - a[0], b[1] - a[1]))
    _keep_bank(state, unit, Walk(cur, 0, points, short, blocked=short is None), None,
               passable)


def _gone(state: WarState, battle: Battle, unit: Unit) -> None:
    """The routed unit leaves the battlefield (fled)."""
    state.lift(unit)
    state.disengage(unit.id)
    unit.status = FLED
    battle.emit("fled", unit=unit.id)
    morale.unit_gone(state, battle, unit, "fled")
