"""Round 5 of the fast paths, the Python side: the map's tables followed through changes of
the grid, the Fate Point options built once per dice count, a search table's move orders and
plans, attack options read from the scan's set bits, and attack events built with their fields
only when the log keeps them."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.commanders import RandomCommander
from warhost.core.engine import Battle
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.rulesets.fantasy_battle import _kernels, combat, movement

from .helpers import events, make_battle, make_state

needs_numba = pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")


def test_last_tables_follow_the_grid_and_its_changes() -> None:
    """The kept tables answer for the same unchanged grid only: a terrain change or another
    grid gets tables of its own, and asking for the first grid again still gives the right
    ones."""
    first = make_state(8, 8, units=[{"id": "a", "at": (1, 1)}])
    other = make_state(8, 8, terrain={(4, 4): "blocking"}, units=[{"id": "a", "at": (1, 1)}])
    t1 = movement.map_tables(first.grid)
    assert movement.map_tables(first.grid) is t1
    t2 = movement.map_tables(other.grid)
    assert t2.cost[t2.index((4, 4))] == 0
    assert movement.map_tables(first.grid) is t1
    assert t1.cost[t1.index((4, 4))] == 1
    first.grid.set_terrain((4, 4), "hindering", 0)
    t3 = movement.map_tables(first.grid)
    assert t3.cost[t3.index((4, 4))] == 2
    # The search sees the change at once: (4, 4) now costs 2 to enter.
    assert movement.destination_table(first, first.units["a"], 6).plan((4, 4)).cost == 4


def test_fate_options_are_built_once_per_dice_count() -> None:
    assert combat._fate_options(2, 1) is combat._fate_options(2, 1)
    assert [str(o) for o in combat._fate_options(2, 1)] == [
        "fate-pass", "reroll-own 0", "reroll-own 1", "reroll-foe 0"]
    assert [str(o) for o in combat._fate_options(0, 3)] == [
        "fate-pass", "reroll-foe 0", "reroll-foe 1", "reroll-foe 2"]


def test_fate_window_offers_the_kept_options() -> None:
    """A Fate Point decision offers pass and one reroll per die, and a reroll by a scripted
    order lands on the die it names."""
    state = make_state(units=[{"id": "a", "rank": "elite", "fate": 1, "at": (1, 1)},
                              {"id": "b", "side": "B", "at": (2, 1)}])
    battle = make_battle(state, dice=[6], orders={"A": ["reroll-foe 0"]})
    att, dfn = [1, 2], [5]
    combat._fate_window(battle, state.units["a"], state.units["b"], att, dfn, "attack", {})
    assert dfn == [6]
    assert state.units["a"].fate_left == 0
    assert events(battle, "fate")[0]["die_of"] == "b"


@needs_numba
def test_search_table_orders_and_plans_read_directly() -> None:
    """Move orders by index (negative ones too) and plans with or without their path agree
    with the table's own squares and with the full plans."""
    state = make_state(9, 9, terrain={(3, 3): "hindering"},
                       units=[{"id": "a", "at": (2, 2)}, {"id": "e", "side": "B", "at": (6, 6)}])
    table = movement.destination_table(state, state.units["a"], 4)
    count = len(table)
    assert count > 2
    for k in (0, count // 2, count - 1, -1, -count):
        order = table.move_order(k)
        assert order == Order("move", table.square(k))
        assert order is table.move_order(k)  # built once per square
        full = table.plan(table.square(k))
        short = table.plan(table.square(k), with_path=False)
        assert (short.dest, short.cost, short.path, short.vaulted) == (
            full.dest, full.cost, (), None)
    for k in (count, -count - 1):
        with pytest.raises(IndexError):
            table.move_order(k)


def test_attack_options_with_several_targets_come_in_army_order() -> None:
    """Options read from the scan's set bits follow the army order, skip the excluded unit, and
    equal the pure-Python scan's."""
    state = make_state(units=[
        {"id": "e3", "side": "B", "at": (6, 5)},
        {"id": "w", "at": (5, 5)},
        {"id": "e1", "side": "B", "at": (4, 5)},
        {"id": "f", "at": (4, 4)},
        {"id": "e2", "side": "B", "at": (5, 6)},
    ])
    unit = state.units["w"]
    want = combat._attack_scan(state, unit, False, frozenset(), False)
    got = combat.attack_options(state, unit, allow_throw=False)
    assert got == want
    assert [o.target for o in got] == ["e3", "e1", "e2"]
    assert [o.target for o in combat.attack_options(state, unit, allow_throw=False,
                                                    exclude={"e1"})] == ["e3", "e2"]


def _attack_battle(record: bool) -> tuple[Battle, Any]:
    state = make_state(units=[{"id": "a", "rank": "elite", "at": (1, 1)},
                              {"id": "b", "side": "B", "cls": "archer", "at": (2, 1)}])
    commanders = {side: RandomCommander() for side in state.sides}
    battle = Battle(get_ruleset("fantasy-battle"), None, 7, commanders,  # type: ignore[arg-type]
                    record=record)
    battle.state = state
    return battle, state


def test_attack_events_keep_their_fields_when_recorded() -> None:
    """With a recording log the attack events carry every field; without one they are still
    counted, and the dice and the result are the same."""
    loud, state = _attack_battle(True)
    result = combat.resolve_attack(state, loud, state.units["a"], state.units["b"], "melee")
    attack = events(loud, "attack")[0]
    assert attack["attack_mod"] == 0 and attack["defense_mod"] == -1
    assert attack["modifiers"] == ["defense -1 archer defending [FB-ARCHER-05]"]
    rolled = events(loud, "attack_result")[0]
    assert set(rolled) >= {"attack_dice", "defense_dice", "attack_total", "defense_total"}
    quiet, state2 = _attack_battle(False)
    again = combat.resolve_attack(state2, quiet, state2.units["a"], state2.units["b"], "melee")
    assert again == result
    # A quiet log counts every event but the decisions and rolls, which it leaves out.
    assert len(quiet.log) == len([e for e in loud.log if e["type"] not in ("decision", "roll")])
