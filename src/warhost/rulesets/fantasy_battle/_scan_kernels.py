"""Compiled attack scan of `fantasy-battle` (numba, when it is installed).

:func:`attack_scan` finds the enemies a unit may attack now, as
:func:`warhost.rulesets.fantasy_battle.combat.attack_options` does in pure Python (which stays
the reference, and the code used without numba or with ``WARHOST_NO_NUMBA=1``): Melee against
adjacent enemies on the same level (a Pike only those with a square in its front arc), or, for
an Archer, ranged attacks within range, with some line of fire clear of blocking terrain, at
enemies that are not adjacent on the same level and, with ``forbid_allies``, have no unit of the
Archer's side adjacent to them. Throws are left to the Python scan.
``tests/rulesets/fantasy_battle/test_perf_round4_combat.py`` compares the two on many positions
from real battles.

Calling a compiled function costs time per argument, so it takes two arrays and three numbers:

* ``query``: the state's unit table (:meth:`FBState.unit_table`, layout in :mod:`._kernels`);
* ``ctx`` (int64), built per map by the combat module: the header :data:`C_PW` ..
  :data:`C_ROWS`, then the level of each padded square index (slope 0, as for adjacency), then
  ``index``: per relative layout (the target's anchor offset and the two sizes, see
  :func:`layout_slot`) the row of ``clear`` holding it, or -1 when not added yet; then the rows
  of ``clear``: :data:`C_WORDS` words of 32 bits per layout, bit ``i`` set when a shooter
  anchored at padded index ``i`` has some candidate line of fire that no terrain blocks (the
  ``clear`` mask of ``combat._Layout``);
* ``me``: the attacker's row; ``flags``: the mode (:data:`MELEE`, :data:`PIKE` or
  :data:`RANGED`), :data:`F_FIRST`, :data:`F_FORBID` and the maximum range times
  :data:`F_RANGE`; ``start``: the first row looked at, and ``skip``: a mask of rows left out
  (bit ``r - start`` for row ``r``).

The result is a bit mask of the legal targets among rows ``start .. start + 62`` (bit
``r - start`` for row ``r``); with :data:`F_FIRST` it stops at the first one. A negative result
``-(r + 1)`` asks for the layout towards the unit in row ``r`` to be added before calling again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warhost.rulesets.fantasy_battle._kernels import (
    AVAILABLE,
    U_ACTIVE,
    U_FDX,
    U_FDY,
    U_SIDE,
    U_SIZE,
    U_X,
    U_Y,
    arc_square,
)

__all__ = [
    "AVAILABLE",
    "C_CLEAR",
    "C_HEADER",
    "C_HEIGHT",
    "C_INDEX",
    "C_PW",
    "C_ROWS",
    "C_WIDTH",
    "C_WORDS",
    "F_FIRST",
    "F_FORBID",
    "F_RANGE",
    "MASK_ROWS",
    "MELEE",
    "PIKE",
    "RANGED",
    "attack_scan",
    "layout_slot",
]

# Header of ``ctx``.
C_PW = 0  # width of the padded grid
C_WIDTH = 1
C_HEIGHT = 2
C_WORDS = 3  # words of 32 bits per row of ``clear``
C_INDEX = 4  # where ``index`` starts
C_CLEAR = 5  # where the rows of ``clear`` start
C_ROWS = 6  # how many rows of ``clear`` there is room for
C_HEADER = 7  # the levels start here

# ``flags``.
MELEE = 0
PIKE = 1  # melee, front arc only
RANGED = 2
F_FIRST = 4  # stop at the first legal target
F_FORBID = 8  # no ranged attack at an enemy adjacent to the Archer's side (FB-AMB-27)
F_RANGE = 16  # the maximum range, times this

MASK_ROWS = 63  # unit rows covered by one result


def layout_slot(width: int, height: int, dx: int, dy: int, s_size: int, t_size: int) -> int:
    """The position in ``index`` of the layout of a ``t_size`` target anchored ``(dx, dy)`` from
    a ``s_size`` shooter on a ``width`` x ``height`` map (sizes 1 or 2)."""
    return (((dx + width - 1) * (2 * height - 1) + dy + height - 1) * 2 + s_size - 1) * 2 \
        + t_size - 1


def _gap(ax: int, ay: int, a_size: int, bx: int, by: int, b_size: int) -> int:
    """Distance between two square spaces given by their low corners (``state._box_gap``)."""
    gx = bx - ax - a_size + 1
    other = ax - bx - b_size + 1
    gx = max(gx, other)
    gy = by - ay - a_size + 1
    other = ay - by - b_size + 1
    gy = max(gy, other)
    d = max(gy, gx)
    return max(0, d)


def _in_arc(ax: int, ay: int, fdx: int, fdy: int, tx: int, ty: int, t_size: int) -> bool:
    """Whether a square of the ``t_size`` space at ``(tx, ty)`` is in the front arc of a unit at
    ``(ax, ay)`` facing ``(fdx, fdy)`` (``grid.facing_arc``)."""
    for k in range(3):
        qx, qy = arc_square(ax, ay, fdx, fdy, k)
        if tx <= qx < tx + t_size and ty <= qy < ty + t_size:
            return True
    return False


def _attack_scan(query: np.ndarray, ctx: np.ndarray, me: int, flags: int, skip: int,
                 start: int) -> int:
    pw = ctx[C_PW]
    width = ctx[C_WIDTH]
    height = ctx[C_HEIGHT]
    mode = flags & 3
    first = flags & F_FIRST != 0
    forbid = flags & F_FORBID != 0
    max_range = flags // F_RANGE
    ax = query[me, U_X]
    ay = query[me, U_Y]
    size = query[me, U_SIZE]
    side = query[me, U_SIDE]
    fdx = query[me, U_FDX]
    fdy = query[me, U_FDY]
    bit = (ay + 1) * pw + ax + 1
    level = ctx[C_HEADER + bit]
    units = query.shape[0]
    stop = min(units, start + MASK_ROWS)
    mask = 0
    for r in range(start, stop):
        if query[r, U_ACTIVE] == 0 or query[r, U_SIDE] == side or skip >> (r - start) & 1:
            continue
        tx = query[r, U_X]
        ty = query[r, U_Y]
        t_size = query[r, U_SIZE]
        gap = _gap(ax, ay, size, tx, ty, t_size)
        t_level = ctx[C_HEADER + (ty + 1) * pw + tx + 1]
        if mode != RANGED:
            if gap != 1 or t_level != level:
                continue
            if mode == PIKE and (
                (fdx == 0 and fdy == 0) or not _in_arc(ax, ay, fdx, fdy, tx, ty, t_size)
            ):
                continue
        else:
            if gap > max_range or (gap == 1 and t_level == level):
                continue
            slot = ctx[ctx[C_INDEX] + _slot(width, height, tx - ax, ty - ay, size, t_size)]
            if slot < 0:
                return -(r + 1)
            word = ctx[ctx[C_CLEAR] + slot * ctx[C_WORDS] + (bit >> 5)]
            if not word >> (bit & 31) & 1:
                continue
            if forbid:
                crowded = False
                for f in range(units):
                    if query[f, U_ACTIVE] == 0 or query[f, U_SIDE] != side:
                        continue
                    fx = query[f, U_X]
                    fy = query[f, U_Y]
                    if (_gap(tx, ty, t_size, fx, fy, query[f, U_SIZE]) == 1
                            and ctx[C_HEADER + (fy + 1) * pw + fx + 1] == t_level):
                        crowded = True
                        break
                if crowded:
                    continue
        mask |= 1 << (r - start)
        if first:
            return mask
    return mask


if AVAILABLE:  # pragma: no cover - depends on the environment
    import numba

    _gap = numba.njit(cache=True, inline="always")(_gap)
    _in_arc = numba.njit(cache=True, inline="always")(_in_arc)
    _slot: Any = numba.njit(cache=True, inline="always")(layout_slot)
    attack_scan: Any = numba.njit(cache=True)(_attack_scan)
else:
    _slot = layout_slot
    attack_scan = _attack_scan
