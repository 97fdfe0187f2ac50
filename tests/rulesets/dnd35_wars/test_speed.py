"""The fast paths of dnd35-wars movement and fire give the same answers as the plain rules,
and their work stays local: it does not grow with units far away (counted, never timed)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import block, creature, get, make_state, single, unit, who
from warhost.core.metering import GEOMETRY, OPTIONS, metered
from warhost.geometry.grid import DIRECTIONS8, translate
from warhost.rulesets.dnd35_wars import combat, movement, singles, tables
from warhost.rulesets.dnd35_wars.state import WarState


def troop(uid: str, side: str, squares: list[tuple[int, int]], **fields: Any) -> dict[str, Any]:
    """A unit of Medium humans (speed 30: rate 2 at the 15-ft scale) on ``squares``."""
    per = tables.capacity("medium", 15)
    return unit(uid, side, squares, count=per * len(squares), creature=creature(), **fields)


def _step_by_step(state: WarState, uid: str, dx: int, dy: int, points: Fraction) -> tuple[
        int, Fraction]:
    """The plain rule: steps along a line while the points pay each step's cost."""
    u = get(state, uid)
    cur = frozenset(u.squares)
    taken = 0
    while True:
        nxt = translate(cur, dx, dy)
        if not all(state.inside(sq) and state.at.get(sq) in (None, u.id) for sq in nxt):
            return taken, points
        cost = movement.step_cost(state, u, nxt, cur)
        if points < cost:
            return taken, points
        points -= cost
        cur, taken = nxt, taken + 1


@pytest.mark.rule("W35-TERR-14", "W35-AMB-43", "W35-AMB-12")
def test_three_downhill_squares_cost_two_points_exactly() -> None:
    hill = [{"rect": [[0, 9], [39, 9]], "elevation": 3}, {"rect": [[0, 8], [39, 8]], "elevation": 2},
            {"rect": [[0, 7], [39, 7]], "elevation": 1}]
    state = make_state([troop("a", "A", block(5, 9, 3, 1)), troop("b", "B", [(30, 25)])],
                       terrain=hill)
    a = get(state, "a")
    passable = movement.free_for(state, a)
    result = movement.walk(state, a, a.squares, [(0, -1)] * 3, Fraction(2), passable)
    assert (result.taken, result.left) == (3, Fraction(0))  # 2/3 + 2/3 + 2/3
    short = movement.walk(state, a, a.squares, [(0, -1)] * 3, Fraction(5, 3), passable)
    assert (short.taken, short.left, short.short_of) == (2, Fraction(1, 3), (0, -1))


@pytest.mark.rule("W35-TERR-14", "W35-TERR-12", "W35-AMB-43", "W35-AMB-44")
@pytest.mark.parametrize("points", [Fraction(2), Fraction(7, 2), Fraction(5, 3), Fraction(9)])
def test_a_walk_matches_paying_each_step_in_fractions(points: Fraction) -> None:
    terrain = [{"rect": [[8, 0], [9, 29]], "kind": "light_forest"},
               {"rect": [[0, 12], [39, 12]], "water": True},
               {"rect": [[14, 3], [18, 8]], "elevation": 1, "slope_cost": 3},
               {"rect": [[3, 14], [6, 16]], "kind": "heavy_forest", "elevation": 2}]
    state = make_state([troop("a", "A", block(10, 9, 3, 2)), troop("c", "A", block(3, 3, 2, 2)),
                        troop("b", "B", [(30, 25)])], terrain=terrain)
    for uid in ("a", "c"):
        u = get(state, uid)
        passable = movement.free_for(state, u)
        for dx, dy in DIRECTIONS8:
            result = movement.walk(state, u, u.squares, [(dx, dy)] * 12, points, passable)
            assert (result.taken, result.left) == _step_by_step(state, uid, dx, dy, points)


def _move_work(extra_units: int) -> tuple[int, int]:
    """Options and geometry counted for one unit's move options, with ``extra_units`` enemy
    units far away."""
    far = [troop(f"f{i}", "B", block(2 + 4 * (i % 8), 24 + i // 8 * 2, 2, 1))
           for i in range(extra_units)]
    state = make_state([troop("a", "A", block(5, 5, 3, 2)), troop("b", "B", [(38, 0)]), *far],
                       terrain=[{"rect": [[0, 10], [39, 11]], "kind": "rocky"}])
    with metered() as meter:
        movement.move_options(state, get(state, "a"))
    return meter[OPTIONS], meter[GEOMETRY]


def test_move_options_do_no_more_work_when_far_units_are_added() -> None:
    assert _move_work(0) == _move_work(1) == _move_work(16)


@pytest.mark.rule("W35-MON-05", "W35-MON-09", "W35-TERR-16")
def test_a_lone_creature_reaches_each_square_at_its_cheapest_cost() -> None:
    state = make_state([troop("b", "B", [(20, 20)]), troop("w", "A", [(6, 5)])],
                       terrain=[{"rect": [[4, 6], [8, 6]], "kind": "light_forest"},
                                {"rect": [[4, 4], [8, 4]], "elevation": 1}],
                       singles=[single("ogre", "A", "monster", at=(5, 5))])
    ogre = who(state, "ogre")
    costs = singles.reachable(state, ogre, (5, 5), Fraction(2))
    assert costs[(5, 5)] == 0
    assert costs[(6, 5)] == 1  # through the allied unit's square, which makes room
    assert costs[(5, 6)] == 2  # light forest
    assert costs[(5, 4)] == 2  # climbing costs 2 by default
    assert (5, 3) not in costs  # then down again: 2 + 2/3
    assert costs[(7, 5)] == 2
    assert (5, 7) not in costs  # forest then one more: 3 points
    assert all(cost <= 2 for cost in costs.values())


@pytest.mark.rule("W35-AMB-35", "W35-DMG-04")
def test_fire_sees_a_target_exactly_when_some_counter_has_a_line_to_it() -> None:
    state = make_state([troop("a", "A", block(5, 5, 3, 3)), troop("w", "A", block(4, 9, 5, 1)),
                        troop("b", "B", block(5, 15, 3, 1)), troop("c", "B", block(12, 6, 1, 1)),
                        troop("d", "B", block(5, 1, 2, 1))],
                       terrain=[{"rect": [[9, 5], [10, 7]], "blocks_sight": True}])
    a = get(state, "a")
    for tid in ("b", "c", "d"):
        squares = get(state, tid).squares
        assert combat.sees_any(state, a, squares) == bool(combat.sighted(state, a, squares))
    assert not combat.sees_any(state, a, get(state, "b").squares)  # the wall of allies
    assert not combat.sees_any(state, a, get(state, "c").squares)  # the blocking terrain
    assert combat.sees_any(state, a, get(state, "d").squares)
