"""Who can strike whom: attacker counts and damage multipliers from counter geometry.

Melee and ranged attacks of a unit on a singular creature (W35-DMG-09..12 with the rulings
W35-AMB-31/32), line of sight for counters (W35-AMB-35), and the multipliers of unit-on-unit
attacks (W35-DMG-02/05/07, W35-AMB-34). Everything here is pure geometry and counting; the
caller decides what blocks sight and which counters fire.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from warhost.geometry.grid import (
    DIRECTIONS8,
    Square,
    beyond_side,
    exposed_sides,
    has_line_of_sight,
    side_contacts,
)

if TYPE_CHECKING:
    from warhost.rulesets.dnd35_wars.state import WarState

Blocked: TypeAlias = Callable[[Square], bool] | Collection[Square]
"""What blocks sight: a test on a square, or the set of blocking squares."""

__all__ = [
    "Blocked",
    "attackers_on_single",
    "counters_with_sight",
    "creatures_per_side",
    "line_of_sight",
    "melee_multiplier",
    "ranged_attackers_on_single",
    "ranged_multiplier",
    "view_blocker",
]

# The four corners of a square: (diagonal step, the two side steps meeting there).
_CORNERS: tuple[tuple[Square, Square, Square], ...] = (
    ((1, 1), (0, 1), (1, 0)),
    ((1, -1), (1, 0), (0, -1)),
    ((-1, -1), (0, -1), (-1, 0)),
    ((-1, 1), (-1, 0), (0, 1)),
)
_SIDES: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


def attackers_on_single(
    target: Square,
    target_cells: int,
    attacker_cells: int,
    unit_squares: Collection[Square],
    derived_creatures: int,
) -> tuple[int, bool]:
    """How many of a unit's creatures can strike a singular creature in melee, and whether the
    unit surrounds it (W35-DMG-09/10, counted as W35-AMB-31).

    ``target_cells`` and ``attacker_cells`` are the side lengths in 5-ft cells of the target and
    of the unit's creatures (1 Medium or smaller, 2 Large, 3 Huge, 4 Gargantuan, 6 Colossal);
    ``target`` is the target's map square and ``unit_squares`` the unit's counters (best passed
    as a set). The count never exceeds ``derived_creatures``. Surrounded means +2 flanking.
    """
    if target_cells < 1 or attacker_cells < 1:
        raise ValueError(
            f"creature sizes must be at least one cell: {target_cells}, {attacker_cells}"
        )
    per_side = max(1, target_cells // attacker_cells)
    corners_count = attacker_cells <= target_cells
    x, y = target
    surrounded = target in unit_squares or all(
        (x + dx, y + dy) in unit_squares for dx, dy in DIRECTIONS8
    )
    if surrounded:
        attackers = 4 * per_side + (4 if corners_count else 0)
    else:
        sides = sum(1 for dx, dy in _SIDES if (x + dx, y + dy) in unit_squares)
        attackers = per_side * sides
        if corners_count:
            attackers += sum(
                1
                for corner in _CORNERS
                if any((x + dx, y + dy) in unit_squares for dx, dy in corner)
            )
    attackers = max(0, min(attackers, derived_creatures))
    return attackers, surrounded


def creatures_per_side(per_counter: Fraction) -> int:
    """Creatures along one side of a counter: the floor of the square root of the creatures per
    counter, at least 1 (W35-AMB-32). Exact for fractional counts."""
    if per_counter < 0:
        raise ValueError(f"creatures per counter must not be negative, not {per_counter}")
    # floor(sqrt(p/q)) == isqrt(floor(p/q)): n*n <= p/q exactly when n*n <= floor(p/q).
    return max(1, math.isqrt(per_counter.numerator // per_counter.denominator))


def ranged_attackers_on_single(
    unit_squares: Collection[Square],
    target: Square,
    per_counter: Fraction,
    sees: Callable[[Square, Square], bool],
) -> int:
    """Creatures of a unit able to shoot a singular creature on ``target`` (W35-DMG-12).

    Creatures per side times the counter sides that are exposed, have the target strictly
    beyond their line, and belong to a counter that ``sees(counter, target)`` (W35-AMB-32).
    """
    own = unit_squares if isinstance(unit_squares, (set, frozenset)) else frozenset(unit_squares)
    sides = 0
    for counter in sorted(own):
        facing = [d for d in exposed_sides(counter, own) if beyond_side(counter, d, target)]
        if facing and sees(counter, target):
            sides += len(facing)
    return sides * creatures_per_side(per_counter)


def _blocker(blocked: Blocked) -> Callable[[Square], bool]:
    if callable(blocked):
        return blocked
    return blocked.__contains__


def view_blocker(state: WarState, see_through: Collection[str | None] = (),
                 clear: Collection[Square] = ()) -> Callable[[Square], bool]:
    """The squares that stop a line of sight on the battle map (W35-AMB-35): sight-blocking
    terrain and every unit or figure but those in ``see_through``; the ``clear`` squares
    (the ones aimed at) never block."""
    at, terrain = state.at, state.blocks_sight

    def blocks(sq: Square) -> bool:
        if sq in clear:
            return False
        if sq in terrain:
            return True
        who = at.get(sq)
        return who is not None and who not in see_through

    return blocks


def line_of_sight(a: Square, b: Square, blocked: Blocked) -> bool:
    """True when the centre-to-centre line from ``a`` to ``b`` crosses the interior of no blocked
    square (W35-AMB-35); corners graze, and ``a`` and ``b`` themselves never block."""
    return has_line_of_sight(a, b, _blocker(blocked))


def counters_with_sight(
    squares: Iterable[Square], target_squares: Iterable[Square], blocked: Blocked
) -> tuple[Square, ...]:
    """The counters (sorted) that see at least one target square (W35-AMB-35).

    ``blocked`` marks squares holding other counters, figures or blocking terrain; the target's
    own squares never block a line to one of them.
    """
    targets = tuple(sorted(set(target_squares)))
    target_set = frozenset(targets)
    blocks = _blocker(blocked)

    def stops(sq: Square) -> bool:
        return sq not in target_set and blocks(sq)

    out = [
        counter
        for counter in sorted(set(squares))
        if any(has_line_of_sight(counter, t, stops) for t in targets)
    ]
    return tuple(out)


def melee_multiplier(attacker_squares: Iterable[Square], target_squares: Iterable[Square]) -> int:
    """Attacking counters sharing a side with a target counter (W35-DMG-02, W35-UATK-07)."""
    return len(side_contacts(attacker_squares, target_squares))


def ranged_multiplier(
    firing_counters: int,
    target_counters: int,
    crossbow: bool,
    crossbow_cap_by_target: bool = False,
) -> int:
    """Damage multiplier of a unit's ranged attack on a unit.

    Arcing fire takes the smaller of the firing and target counter counts (W35-DMG-05).
    Crossbows multiply by their firing counters (those with line of sight), uncapped unless the
    scenario option ``crossbow_cap_by_target`` is on (W35-DMG-07, W35-AMB-34).
    """
    if firing_counters < 0 or target_counters < 0:
        raise ValueError(
            f"counter counts must not be negative: {firing_counters}, {target_counters}"
        )
    if crossbow and not crossbow_cap_by_target:
        return firing_counters
    return min(firing_counters, target_counters)


def squares_hit(firing: Collection[Square], target: Collection[Square]) -> tuple[Square, ...]:
    """The target squares a volley lands on (W35-DMG-06): the outline of the firing counters,
    moved so that the centre of its bounding box sits on the centre of the target's (halves
    rounded down), and the target squares it then covers, in (y, x) order."""
    if not firing or not target:
        return ()
    fx = min(x for x, _ in firing) + max(x for x, _ in firing)
    fy = min(y for _, y in firing) + max(y for _, y in firing)
    tx = min(x for x, _ in target) + max(x for x, _ in target)
    ty = min(y for _, y in target) + max(y for _, y in target)
    dx, dy = (tx - fx) // 2, (ty - fy) // 2  # centres are doubled to stay whole
    wanted = set(target)
    return tuple(sorted(((x + dx, y + dy) for x, y in firing if (x + dx, y + dy) in wanted),
                        key=lambda s: (s[1], s[0])))
