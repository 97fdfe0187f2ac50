"""The work of building a unit's moves, counted: the bounding-box quick paths skip the shapely
sweeps where nothing is near, never change which moves are legal, and each unit's merged
shape is built again only when the unit has moved."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import character, get, make_state, profile, unit
from warhost.core.orders import Order
from warhost.geometry.table import offset
from warhost.rulesets.dnd4e_war import movement
from warhost.rulesets.dnd4e_war.movement import Mover, Plan, carry_out, shape_of
from warhost.rulesets.dnd4e_war.state import WarState

SKIRMISHERS = profile("Scouts", formation="skirmish", unit_size=[1, 12])
TERRAIN = [{"name": "Bog", "rect": [8, 4, 6, 6], "difficult": True},
           {"name": "Rock", "polygon": [[30, 14], [33, 13], [34, 17], [31, 18]],
            "impassable": True}]


def crowded() -> WarState:
    """Units close together by difficult and impassable ground, an enemy near."""
    return make_state([unit("a", at=(20, 10), companies=4, files=2),
                       unit("b", at=(29.5, 10), companies=2, files=2),
                       unit("s", at=(12, 14), companies=3, profile=SKIRMISHERS),
                       unit("e", "B", at=(21, 15.5), facing=180, companies=2, files=2)],
                      terrain=TERRAIN)


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the full (shapely) collision tests."""
    calls = [0]
    real = Mover.blocked

    def blocked(self: Mover, swept: Any, ends: Any) -> Any:
        calls[0] += 1
        return real(self, swept, ends)

    monkeypatch.setattr(Mover, "blocked", blocked)
    return calls


def test_moves_in_the_open_need_no_swept_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("a", at=(36, 12), companies=4, files=2),
                        unit("s", at=(12, 30), companies=3, profile=SKIRMISHERS),
                        unit("foe", "B", at=(60, 44), facing=180)])
    calls = counting(monkeypatch)
    for uid in ("a", "s"):
        options = Mover(state, get(state, uid)).options()
        assert len(options) > 10
    assert calls[0] == 0


@pytest.mark.parametrize("uid", ["a", "b", "s"])
def test_the_quick_paths_never_change_the_moves_offered(
        monkeypatch: pytest.MonkeyPatch, uid: str) -> None:
    state = crowded()
    quick = Mover(state, get(state, uid)).options()
    calls = counting(monkeypatch)
    for name in QUICK_PATHS:
        monkeypatch.setattr(Mover, name, lambda self, *args: False)
    slow = Mover(state, get(state, uid)).options()
    assert calls[0] > 0  # the slow way really tested the sweeps
    assert [o.text for o in quick] == [o.text for o in slow]


QUICK_PATHS = ("clear_within", "parts_clear", "steps_clear", "paths_clear", "surely_refused")


def among_friends() -> WarState:
    """A lone character and a lone ogre between units of their side, by the table edge."""
    ogre = profile("Ogre", formation="skirmish", size="large", monster=True, unit_size=[1, 1],
                   speed=8)
    return make_state([unit("a", at=(10, 6), companies=4, files=2),
                       unit("b", at=(16, 12), facing=90, companies=3, files=3),
                       unit("o", at=(4, 9), companies=1, profile=ogre),
                       unit("e", "B", at=(15, 20), facing=180, companies=2, files=2)],
                      characters=[character("hero", at=(12.5, 9.0))])


@pytest.mark.parametrize("uid", ["hero", "o", "a"])
def test_skipping_surely_refused_moves_never_changes_the_moves_offered(
        monkeypatch: pytest.MonkeyPatch, uid: str) -> None:
    state = among_friends()
    skipped = [0]
    real = Mover.surely_refused

    def surely_refused(self: Mover, point: Any) -> bool:
        found = real(self, point)
        skipped[0] += found
        return found

    monkeypatch.setattr(Mover, "surely_refused", surely_refused)
    quick = Mover(state, get(state, uid)).options()
    assert skipped[0] > 0  # some moves really were skipped
    for name in QUICK_PATHS:
        monkeypatch.setattr(Mover, name, lambda self, *args: False)
    slow = Mover(state, get(state, uid)).options()
    assert [o.text for o in quick] == [o.text for o in slow]


def test_a_surely_refused_move_is_refused() -> None:
    state = among_friends()
    for uid in ("hero", "o", "a"):
        mover = Mover(state, get(state, uid))
        anchor = mover.block.centre if mover.unit.skirmish else mover.block.front_centre
        found = 0
        for heading in range(0, 360, 15):
            for d in (1.0, 3.0, 5.0, 8.0, 12.0):
                point = offset(anchor, float(heading), d)
                if mover.surely_refused(point):
                    found += 1
                    assert not isinstance(mover.straight("double", point), Plan)
        assert found > 0, uid


def test_a_units_shape_is_kept_until_it_moves() -> None:
    state = crowded()
    a, b = get(state, "a"), get(state, "b")
    first = shape_of(state, a)
    Mover(state, b)  # looks at a's shape again
    assert shape_of(state, a) is first
    plan = Mover(state, a).plan(Order.parse("walk a 20,11"))
    assert isinstance(plan, Plan)
    carry_out(state, movement_battle(state), a, plan)
    moved = shape_of(state, a)
    assert moved is not first
    assert moved.equals(movement._shape(a.trays()))


def movement_battle(state: WarState) -> Any:
    from tests.rulesets.dnd4e_war.helpers import make_battle

    return make_battle(state)


def test_an_unchanged_unit_is_offered_its_moves_without_a_new_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = crowded()
    searches = [0]
    real = Mover.options

    def options(self: Mover) -> Any:
        searches[0] += 1
        return real(self)

    monkeypatch.setattr(Mover, "options", options)
    a, b = get(state, "a"), get(state, "b")
    first = movement.offer(state, a)[1]
    assert movement.offer(state, a)[1] == first and searches[0] == 1
    b.front = (b.front[0] + 1.0, b.front[1])  # a neighbour moved: search again
    again = movement.offer(state, a)[1]
    assert searches[0] == 2
    a.move_used = True  # and with fewer actions left
    movement.offer(state, a)
    assert searches[0] == 3
    a.move_used = False
    assert movement.offer(state, a)[1] == again and searches[0] == 3
