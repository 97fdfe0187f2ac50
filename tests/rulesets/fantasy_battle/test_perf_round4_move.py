"""Round 4 of the movement fast paths: the per-map ``params`` of the compiled searches (kept per
base size and corner rule), the mover read from its own unit row (doubling flag included), the
results written into a rows array of each table's own, the kept charge search told apart by the
mover's row, and the move decision's default (staying put) worked out only when read."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision, LazyDecision
from warhost.core.orders import Order
from warhost.rulesets.fantasy_battle import _kernels, game, movement

from .helpers import assert_searches_match_python, make_battle, make_state

needs_numba = pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")


@needs_numba
def test_params_are_kept_per_base_size_and_corner_rule() -> None:
    """Two states on one map (one set of tables) with each corner rule, and 1x1 and 2x2 bases:
    every search reads the params of its own rule and base."""
    terrain = {(2, 1): "blocking", (1, 2): "blocking", (5, 5): "elevated", (5, 6): "elevated"}
    units: list[dict[str, Any]] = [{"id": "p", "cls": "pike", "at": (1, 1)},
                                   {"id": "k", "cls": "lancer", "at": (6, 1)}]
    always = make_state(9, 9, units=units, terrain=terrain, corner_cutting="always",
                        cavalry_footprint="2x2")
    blocked = make_state(9, 9, units=units, terrain=terrain,
                         corner_cutting="blocked_by_terrain", cavalry_footprint="2x2")
    blocked.grid = always.grid
    t = movement.map_tables(always.grid)
    for state in (always, blocked, always, blocked):
        for uid in ("p", "k"):
            assert_searches_match_python(state, uid)
    assert (2, 2) in movement.destination_table(always, always.units["p"], 2).squares()
    assert (2, 2) not in movement.destination_table(blocked, blocked.units["p"], 2).squares()
    maps, params = t.kernel_inputs(2, False)
    assert maps[:_kernels.MAP_STEPS].tolist() == t.arrays(True).tolist()
    assert params[_kernels.P_MAP].tolist() == [t.pw, 9, 9]
    assert params[_kernels.P_BASE].tolist() == [2, 1, 0]
    assert params[_kernels.P_DIRS:_kernels.P_DIRS + 8].tolist() == [
        list(d) for d in movement._directions(t.pw, 2, False)]
    assert t.kernel_inputs(1, True)[1].tolist() != t.kernel_inputs(1, False)[1].tolist()
    assert t.kernel_inputs(2, True) is t.kernel_inputs(2, True)


@needs_numba
def test_doubling_follows_the_movers_type() -> None:
    """A step from next to an enemy costs double for Infantry, not for Cavalry; a dismounted
    Knight (now Infantry) pays it again."""
    state = make_state(12, 12, units=[{"id": "k", "cls": "knight", "at": (5, 5)},
                                      {"id": "w", "at": (3, 5)},
                                      {"id": "e", "side": "B", "at": (5, 7)}])
    knight = state.units["k"]
    assert knight.size == 2
    assert movement.destination_table(state, knight, 2).plan((5, 3)).cost == 2
    assert_searches_match_python(state, "k", 4)
    assert_searches_match_python(state, "w", 4)
    state.place(knight, None)
    knight.type, knight.cls, knight.size = "infantry", "warrior", 1
    state.sync(knight)
    state.place(knight, (5, 6))
    assert (5, 4) not in movement.destination_table(state, knight, 2).squares()
    assert movement.destination_table(state, knight, 3).plan((5, 4)).cost == 3
    assert_searches_match_python(state, "k", 4)


@needs_numba
def test_a_table_keeps_its_rows_after_later_searches() -> None:
    state = make_state(10, 10, units=[{"id": "u", "at": (1, 1)}, {"id": "v", "at": (8, 8)},
                                      {"id": "e", "side": "B", "cls": "pike", "at": (4, 4)}])
    first = movement.destination_table(state, state.units["u"], 6)
    want = movement.destinations(state, state.units["u"], 6)
    for uid, budget in (("v", 6), ("u", 3), ("e", 8)):
        movement.destination_table(state, state.units[uid], budget)
        movement.has_charge_run(state, state.units[uid], budget)
    assert list(first.as_dict().items()) == list(want.items())
    copy = state.copy()
    movement.destination_table(copy, copy.units["u"], 2)
    assert list(first.as_dict().items()) == list(want.items())


@needs_numba
def test_kept_charge_search_is_the_movers_own() -> None:
    """Two Pikes asked in turn with one budget and no change between: each gets its own runs."""
    state = make_state(9, 9, units=[{"id": "p", "cls": "pike", "at": (1, 1)},
                                    {"id": "q", "cls": "pike", "at": (7, 7)}])
    for uid in ("p", "q", "p"):
        assert movement.has_charge_run(state, state.units[uid], 6)
        assert_searches_match_python(state, uid)


def test_lazy_default_is_worked_out_once_when_read() -> None:
    calls: list[int] = []
    stay = Order.of("move", 1, 1)

    def default_of() -> Order:
        calls.append(1)
        return stay

    decision = LazyDecision("A", "move", 2, lambda i: Order.of("move", i, i),
                            default_of=default_of)
    assert decision.option(1) == stay and not calls
    assert decision.default is stay and decision.default is stay and calls == [1]
    plain = LazyDecision("A", "move", 2, lambda i: Order.of("move", i, i), default=stay)
    assert plain.default is stay
    assert plain == decision and hash(plain) == hash(decision)
    assert LazyDecision("A", "move", 1, lambda i: stay, default_of=lambda: None).default is None


@pytest.mark.parametrize("vault", [False, True])
def test_stay_order_is_the_start_when_it_is_an_end(vault: bool) -> None:
    state = make_state(7, 7, units=[{"id": "u", "at": (3, 3), "rank": "champion",
                                     "feats": ["vault"]},
                                    {"id": "p", "cls": "pike", "at": (0, 0)}],
                       terrain={(5, 3): "slope"})
    unit = state.units["u"]
    table = movement.destination_table(state, unit, 3, vault=vault)
    k = table.position((3, 3))
    assert k is not None and table.stay_order() == table.move_order(k) == Order("move", (3, 3))
    assert movement.charge_table(state, state.units["p"], 6).stay_order() is None
    assert movement.DestinationTable().stay_order() is None


class _Watcher(Commander):
    """Stays put when the default is read, else takes the last option; notes the defaults."""

    def __init__(self, read_default: bool) -> None:
        self.read_default = read_default
        self.defaults: list[Order | None] = []

    def choose(self, decision: Decision, state: Any) -> Order:
        if self.read_default and decision.kind == "move":
            self.defaults.append(decision.default)
            default = decision.default
            assert default is not None
            return default
        return decision.option(decision.option_count - 1)


@pytest.mark.parametrize("read_default", [True, False])
def test_movement_phase_default_stays_put(
    monkeypatch: pytest.MonkeyPatch, read_default: bool
) -> None:
    """The move decision's default is staying put, worked out only if the commander reads it."""
    state = make_state(8, 8, units=[{"id": "u", "at": (2, 2)}])
    battle = make_battle(state)
    watcher = _Watcher(read_default)
    battle.commanders["A"] = watcher
    asked: list[str] = []
    for cls in (movement.DestinationTable, movement._IndexedTable):  # the search tables inherit
        own = cls.__dict__["stay_order"]

        def counted(self: Any, own: Any = own) -> Order | None:
            asked.append(type(self).__name__)
            found: Order | None = own(self)
            return found

        monkeypatch.setattr(cls, "stay_order", counted)
    game.movement_phase(state, battle, state.units["u"], double=False)
    if read_default:
        assert watcher.defaults == [Order("move", (2, 2))] and len(asked) == 1
        assert state.units["u"].anchor == (2, 2)
    else:
        assert asked == [] and state.units["u"].anchor != (2, 2)
