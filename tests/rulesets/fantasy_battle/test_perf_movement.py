"""The movement phase's fast paths give what the plain ones give: the kept charge search is
redone whenever anything it reads changes, the lazy tables answer like the dicts they stand
for, and an unrecorded move event is still counted once."""

from __future__ import annotations

import numpy as np
import pytest

from warhost.core.events import EventLog
from warhost.core.orders import Order
from warhost.rulesets.fantasy_battle import _kernels, movement
from warhost.rulesets.fantasy_battle.movement import MovePlan
from warhost.rulesets.fantasy_battle.state import FBState

from .helpers import add_unit, make_battle, make_state


def _charges(state: FBState, uid: str, budget: int) -> dict[tuple[int, int], MovePlan]:
    return movement.charge_destinations(state, state.units[uid], budget)


def _reference(state: FBState, uid: str, budget: int) -> dict[tuple[int, int], MovePlan]:
    return movement._charge_destinations_py(state, state.units[uid], budget)


def test_kept_charge_search_follows_every_change() -> None:
    """has_charge_run then charge_destinations share one search, but a unit moved, a Pike
    turned, another budget or another corner rule each give a fresh one."""
    state = make_state(9, 9, units=[{"id": "p", "cls": "pike", "at": (4, 4)},
                                    {"id": "e", "side": "B", "cls": "pike", "at": (7, 7),
                                     "facing": "north"}])
    pike = state.units["p"]
    assert movement.has_charge_run(state, pike, 6)
    assert _charges(state, "p", 6) == _reference(state, "p", 6)
    state.place(state.units["e"], (6, 7))  # its front arc now covers (5..7, 8)
    state.set_facing(state.units["e"], (0, -1))  # turned without moving: arc on (5..7, 6)
    assert _charges(state, "p", 6) == _reference(state, "p", 6)
    assert (6, 6) in _charges(state, "p", 6) and (7, 7) not in _charges(state, "p", 6)
    assert _charges(state, "p", 3) == _reference(state, "p", 3)
    add_unit(state, id="f", at=(4, 6))
    assert (4, 6) not in _charges(state, "p", 6)
    assert _charges(state, "p", 6) == _reference(state, "p", 6)
    walls = make_state(5, 5, units=[{"id": "p", "cls": "pike", "at": (0, 0)}],
                       terrain={(1, 0): "blocking", (0, 1): "blocking"},
                       corner_cutting="always")
    assert (2, 2) in _charges(walls, "p", 6)
    blocked = make_state(5, 5, units=[{"id": "p", "cls": "pike", "at": (0, 0)}],
                         terrain={(1, 0): "blocking", (0, 1): "blocking"},
                         corner_cutting="blocked_by_terrain")
    assert _charges(blocked, "p", 6) == {}
    assert not movement.has_charge_run(blocked, blocked.units["p"], 6)


def test_charge_table_answers_like_the_dict() -> None:
    state = make_state(9, 9, units=[{"id": "p", "cls": "pike", "at": (4, 4)},
                                    {"id": "e", "side": "B", "at": (4, 7)}])
    pike = state.units["p"]
    plans = movement.charge_destinations(state, pike, 6)
    table = movement.charge_table(state, pike, 6)
    assert table.squares() == sorted(plans, key=lambda sq: (sq[1], sq[0]))
    assert table.as_dict() == plans and list(table.as_dict()) == list(plans)
    for k, sq in enumerate(table.squares()):
        assert table.position(sq) == k
        assert table.plan(sq) == plans[sq]
    assert table.position((4, 4)) is None and table.position((-1, 3)) is None
    assert table.anchor_array().tolist() == [list(sq) for sq in table.squares()]


@pytest.mark.parametrize("vault", [False, True])
def test_move_orders_and_locate(vault: bool) -> None:
    state = make_state(6, 6, units=[{"id": "u", "at": (2, 2), "rank": "champion",
                                     "feats": ["vault"]}])
    table = movement.destination_table(state, state.units["u"], 3, vault=vault)
    assert table.anchor_array().tolist() == [list(sq) for sq in table.squares()]
    for k, sq in enumerate(table.squares()):
        order = table.move_order(k)
        assert order == Order("move", sq)
        assert table.locate(Order.parse(str(order))) == k
    assert table.locate(Order("move", (9, 9))) is None
    assert table.locate(Order("move", ("a", "b"))) is None
    assert table.locate(Order("hold")) is None


def test_move_orders_are_built_once_per_map_square() -> None:
    state = make_state(6, 6, units=[{"id": "u", "at": (2, 2)}])
    if not _kernels.AVAILABLE:
        pytest.skip("only the compiled search's tables keep orders")
    first = movement.destination_table(state, state.units["u"], 3)
    again = movement.destination_table(state, state.units["u"], 2)
    k = first.position((3, 3))
    j = again.position((3, 3))
    assert k is not None and j is not None
    assert first.move_order(k) is again.move_order(j)


@pytest.mark.parametrize("record", [True, False])
def test_move_events_are_counted_the_same_unrecorded(record: bool) -> None:
    """A halt on slope gives a move and a forced move, logged or only counted. (The map of
    test_movement's hill_state: an enemy Pike's front arc lies on the slope.)"""
    terrain = {(x, 2): "slope" for x in range(7)}
    terrain.update({(x, y): "elevated" for x in range(7) for y in (3, 4)})
    state = make_state(7, 5, units=[{"id": "e", "side": "B", "cls": "pike", "at": (3, 1),
                                     "facing": "north"},
                                    {"id": "u", "at": (2, 4)}], terrain=terrain)
    battle = make_battle(state, orders={"A": ["place 2 1"]})
    battle.log = EventLog(record=record)
    unit = state.units["u"]
    plan = movement.destinations(state, unit, 6)[(2, 2)]
    movement.apply_move(state, battle, unit, plan)
    assert unit.anchor == (2, 1)
    # The engine logs the forced_space decision only when recording.
    assert len(battle.log) == (3 if record else 2)
    if record:
        assert [e["type"] for e in battle.log] == ["move", "decision", "forced_move"]
        assert battle.log.events[0]["path"] == [list(sq) for sq in plan.path]


def test_place_keeps_the_occupied_squares() -> None:
    state = make_state(6, 6, units=[{"id": "u", "at": (1, 1)},
                                    {"id": "k", "cls": "knight", "at": (3, 3)}])
    u, k = state.units["u"], state.units["k"]
    state.place(u, (0, 0))
    state.place(k, (2, 3))
    assert state.occupied == {(0, 0): "u", (2, 3): "k", (3, 3): "k", (2, 4): "k", (3, 4): "k"}
    state.remove(u, "defeated")
    state.place(k, None)
    assert state.occupied == {} and u.anchor is None and k.anchor is None


@pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")
def test_kernels_run_the_same_as_plain_python() -> None:
    """The kernels' Python source (what runs without numba) gives what the compiled code
    gives."""
    state = make_state(8, 7, units=[{"id": "u", "at": (1, 1)},
                                    {"id": "e", "side": "B", "cls": "pike", "at": (4, 4),
                                     "facing": "west"}],
                       terrain={(3, 2): "hindering", (5, 1): "blocking", (2, 4): "elevated"})
    unit = state.units["u"]
    t = movement.map_tables(state.grid)
    units, me = state.unit_table_row(unit)
    maps, params = t.kernel_inputs(1, True)
    rows = np.full(t.rows_shape, -7, np.int64)
    py_rows = np.full(t.rows_shape, -7, np.int64)
    ends, reached = _kernels.plain_search(maps, params, units, me, 8, rows)
    assert (ends, reached) == _kernels._plain_search(maps, params, units, me, 8, py_rows)
    for r in (_kernels.R_BEST, _kernels.R_PREV, _kernels.R_RANK):
        assert rows[r].tolist() == py_rows[r].tolist()
    assert rows[_kernels.R_ORDER, :reached].tolist() == py_rows[_kernels.R_ORDER, :reached].tolist()
    assert rows[_kernels.R_ENDS, :ends].tolist() == py_rows[_kernels.R_ENDS, :ends].tolist()
    charge = _kernels.charge_search(maps, params, units, me, 8)
    assert charge.tolist() == _kernels._charge_search(maps, params, units, me, 8).tolist()
