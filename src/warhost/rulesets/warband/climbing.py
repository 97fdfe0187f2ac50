"""Climb and Jump, the two Movement Phase actions that change height (WB-MOVE-10 to 16,
WB-AMB-17/18/19), and the falls they can end in.

A climb goes from the character's square to a neighbouring square at another elevation, over
a surface the map marks climbable (``state.climbs``); the surface belongs to the higher of the
two squares. A jump goes to any free square within its reach along the grid line, measured by
3-D Chebyshev distance. Both leave the square, so an Engaged character suffers Attacks of
Opportunity first (WB-AMB-21).
"""

from __future__ import annotations

from collections.abc import Container

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Square, bresenham, chebyshev3
from warhost.rulesets.warband.checks import Mod, take_test
from warhost.rulesets.warband.injury import fall
from warhost.rulesets.warband.state import Character, WarbandState

CLIMB_SCORES = ("strength", "agility")
"""The scores a climbing test may use; ``either`` surfaces let the climber pick (WB-AMB-17)."""


def climb_limit(char: Character) -> int:
    """Squares of height a Climb may cover: floor(Agility / 2), less 1 after Disengage
    (WB-MOVE-10, WB-AMB-17, WB-AMB-11)."""
    return max(0, char.score("agility") // 2 - (1 if char.disengaged else 0))


def jump_limit(char: Character) -> int:
    """Squares a Jump may cover: Agility, less 1 after Disengage (WB-MOVE-14, WB-AMB-11)."""
    return max(0, char.score("agility") - (1 if char.disengaged else 0))


def landable(state: WarbandState, sq: Square) -> bool:
    """A free square a character may stand on."""
    return state.passable(sq) and sq not in state.at


def climb_surface(state: WarbandState, a: Square, b: Square) -> tuple[str, int] | None:
    """The test and modifier of the surface between two squares at different heights: the
    ``climbs`` entry of the higher one (None: no climbable surface there)."""
    la, lb = state.level(a), state.level(b)
    if la == lb:
        return None
    return state.climbs.get(a if la > lb else b)


def climb_options(state: WarbandState, char: Character) -> list[Order]:
    """``climb X Y`` orders open to ``char``; on an ``either`` surface one order per score,
    ``climb X Y strength`` and ``climb X Y agility`` (WB-MOVE-10/11, WB-ASK-11)."""
    if char.square is None or not state.climbs:
        return []
    limit = climb_limit(char)
    if limit <= 0:
        return []
    x, y = char.square
    here = state.level(char.square)
    options: list[Order] = []
    for dx, dy in sorted(DIRECTIONS8):
        to = (x + dx, y + dy)
        if not landable(state, to):
            continue
        height = abs(state.level(to) - here)
        if not 1 <= height <= limit:
            continue
        surface = climb_surface(state, char.square, to)
        if surface is None:
            continue
        if surface[0] == "either":
            options.extend(Order.of("climb", to[0], to[1], s) for s in CLIMB_SCORES)
        else:
            options.append(Order.of("climb", to[0], to[1]))
    metering.count(GEOMETRY, len(DIRECTIONS8))
    metering.count(OPTIONS, len(options))
    return options


def jump_path(state: WarbandState, char: Character, to: Square) -> list[Square] | None:
    """The squares a Jump by ``char`` to ``to`` passes, landing square last; None if the way
    is shut: a blocking square, one rising above both ends, or an enemy (WB-AMB-18). Allies
    and impassable ground (a chasm, water) may be jumped over."""
    assert char.square is not None
    path = bresenham(char.square, to)[1:]
    top = max(state.level(char.square), state.level(to))
    for sq in path[:-1]:
        if not state.grid.contains(sq) or state.blocks_sight(sq) or state.level(sq) > top:
            return None
        other = state.at.get(sq)
        if other is not None and state.chars[other].side != char.side:
            return None
    return path


def jump_options(state: WarbandState, char: Character, skip: Container[Square] = (),
                 only: Square | None = None) -> list[Order]:
    """``jump X Y`` orders: every free square within Jump reach by 3-D Chebyshev distance
    whose grid line is open (WB-MOVE-14, WB-AMB-18), leaving out the squares in ``skip``
    (or only ``only``, to judge one order)."""
    if char.square is None:
        return []
    limit = jump_limit(char)
    if limit <= 0:
        return []
    sx, sy = char.square
    grid = state.grid
    options: list[Order] = []
    looked = 0
    for ty in range(sy - limit, sy + limit + 1):
        for tx in range(sx - limit, sx + limit + 1):
            to = (tx, ty)
            if to in skip or (only is not None and to != only):
                continue
            if to == char.square or not landable(state, to):
                continue
            looked += 1
            if chebyshev3(char.square, to, grid) > limit:
                continue
            if jump_path(state, char, to) is not None:
                options.append(Order.of("jump", tx, ty))
    metering.count(GEOMETRY, looked * (limit + 1))
    metering.count(OPTIONS, len(options))
    return options


def climb(state: WarbandState, battle: Battle, char: Character, order: Order) -> bool:
    """Carry out ``climb X Y [score]``; returns whether the character moved.

    No test on a ``none`` surface; otherwise a Strength or Agility test with the surface's
    modifier. A failure leaves the character where it is; 3 or more DoF make it fall from the
    height it started at, i.e. the drop below its starting square when climbing down and no
    drop when climbing up (WB-MOVE-11 to 13, WB-AMB-17, WB-AMB-19)."""
    from warhost.rulesets.warband.movement import leave

    assert char.square is not None
    to = (int(order.args[0]), int(order.args[1]))
    surface = climb_surface(state, char.square, to)
    assert surface is not None
    kind, modifier = surface
    if not leave(state, battle, char, "climb"):
        return False
    start = char.square
    height = state.level(to) - state.level(start)
    passed, dof, score = True, 0, "none"
    if kind != "none":
        score = str(order.args[2]) if kind == "either" else kind
        mods = [Mod("surface", modifier, "WB-MOVE-11")] if modifier else []
        result = take_test(state, battle, char, score, "climb", mods)
        passed, dof = result.passed, result.dof
    fell = not passed and dof >= 3
    battle.emit("climb", who=char.id, start=list(start), to=list(to), height=height,
                test=score, passed=passed, dof=dof, fell=fell)
    if passed:
        state.place(char, to)
        return True
    if fell and height < 0:
        fall(state, battle, char, to, -height)
        return True
    return False


def jump_landing(state: WarbandState, start: Square, path: list[Square], covered: int
                 ) -> Square:
    """Where a jump that covers ``covered`` squares comes down: the last square of ``path``
    it reaches, a square needing a rise above the take-off height counting that rise too;
    if that square is taken or closed, the last free one before it (or ``start``)."""
    base = state.level(start)
    land = start
    for i, sq in enumerate(path, start=1):
        if max(i, state.level(sq) - base) > covered:
            break
        if landable(state, sq):
            land = sq
    return land


def jump(state: WarbandState, battle: Battle, char: Character, order: Order) -> bool:
    """Carry out ``jump X Y``; returns whether the character moved.

    Always an Agility test; a failure shortens the jump by floor(DoF / 2) squares. A shortened
    jump that comes down lower than it took off falls the difference (WB-MOVE-14 to 16,
    WB-AMB-18/19)."""
    from warhost.rulesets.warband.movement import leave

    assert char.square is not None
    to = (int(order.args[0]), int(order.args[1]))
    path = jump_path(state, char, to)
    assert path is not None
    if not leave(state, battle, char, "jump"):
        return False
    start = char.square
    distance = chebyshev3(start, to, state.grid)
    result = take_test(state, battle, char, "agility", "jump")
    short = 0 if result.passed else result.dof // 2
    land = to if short == 0 else jump_landing(state, start, path, distance - short)
    battle.emit("jump", who=char.id, start=list(start), aim=list(to), to=list(land),
                distance=distance, covered=max(0, distance - short), passed=result.passed,
                dof=result.dof)
    if land == start:
        return False
    drop = state.level(start) - state.level(land)
    if short and drop > 0:
        fall(state, battle, char, land, drop)
    else:
        state.place(char, land)
    return True
