"""The change-formation step of dnd35-wars (W35-FORM, W35-AMB-42, W35-AMB-67)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import block, get, make_battle, make_state, unit
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import formation, movement
from warhost.rulesets.dnd35_wars.state import WarState


def troop(uid: str, side: str, squares: list[tuple[int, int]], **fields: Any) -> dict[str, Any]:
    return unit(uid, side, squares, count=10 * len(squares), **fields)


def judged(state: WarState, uid: str, squares: list[tuple[int, int]]) -> Refusal | None:
    return formation.judge_formation(state, get(state, uid), set(squares))


def text(squares: list[tuple[int, int]]) -> str:
    return ";".join(f"{x},{y}" for x, y in sorted(squares))


@pytest.mark.rule("W35-FORM-01", "W35-DEC-18")
def test_the_step_offers_keep_and_blocks_on_the_front_and_applies_the_choice() -> None:
    state = make_state([troop("a", "A", block(5, 5, 6, 1)), troop("b", "B", [(30, 25)])])
    a = get(state, "a")
    options = formation.formation_options(state, a)
    assert options[0] == Order.of("formation", "a", "keep")
    two_deep = text(block(6, 4, 3, 2))  # 3 wide, 2 deep, centred, front on row 5
    assert Order.of("formation", "a", two_deep) in options
    for order in options[1:]:
        assert judged(state, "a", sorted(movement.parse_squares(str(order.args[1])) or ())) is None
    battle = make_battle(state, orders={"A": [f"formation a {two_deep}"]})
    formation.formation_step(state, battle, a)
    assert a.squares == set(block(6, 4, 3, 2)) and events(battle, "formation")
    assert all(state.at[sq] == "a" for sq in a.squares) and state.at.get((10, 5)) is None


@pytest.mark.rule("W35-FORM-01")
def test_keeping_the_formation_is_the_default() -> None:
    state = make_state([troop("a", "A", block(5, 5, 3, 2)), troop("b", "B", [(30, 25)])])
    battle = make_battle(state)
    formation.formation_step(state, battle, get(state, "a"))
    assert get(state, "a").squares == set(block(5, 5, 3, 2)) and not events(battle, "formation")


@pytest.mark.rule("W35-FORM-02", "W35-AMB-42")
def test_no_counter_may_end_further_forward_along_the_heading() -> None:
    state = make_state([troop("a", "A", block(5, 5, 3, 2)), troop("b", "B", [(30, 25)])])
    a = get(state, "a")
    assert a.heading == (0, 1)  # the facing declared at placement (N)
    refusal = judged(state, "a", block(5, 5, 2, 2) + [(5, 7), (6, 7)])
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-FORM-02"
    assert judged(state, "a", block(4, 5, 6, 1)) is None
    a.heading = (1, 0)  # after a move east, the east side is the front
    refusal = judged(state, "a", block(4, 5, 6, 1))
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-FORM-02"


@pytest.mark.rule("W35-AMB-42")
def test_the_heading_is_the_sign_vector_of_the_last_move() -> None:
    state = make_state([troop("a", "A", block(5, 5, 2, 1)), troop("b", "B", [(30, 25)])])
    battle = make_battle(state, orders={"A": ["move a 3,-2"]})
    movement.take_move(state, battle, get(state, "a"), Order.parse("move a 3,-2"))
    assert get(state, "a").heading == (1, -1)


@pytest.mark.rule("W35-FORM-03")
def test_every_counter_must_share_a_side_with_another() -> None:
    state = make_state([troop("a", "A", block(5, 5, 2, 2)), troop("b", "B", [(30, 25)])])
    refusal = judged(state, "a", [(5, 5), (6, 5), (5, 4), (6, 3)])  # (6, 3) touches a corner
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-FORM-03"


@pytest.mark.rule("W35-FORM-04", "W35-AMB-42")
def test_the_new_formation_may_not_have_a_hole() -> None:
    state = make_state([troop("a", "A", block(5, 5, 8, 1)), troop("b", "B", [(30, 25)])])
    ring = [sq for sq in block(5, 3, 3, 3) if sq != (6, 4)]
    refusal = judged(state, "a", ring)
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-FORM-04"


@pytest.mark.rule("W35-FORM-05")
def test_counters_touching_an_enemy_stay_put() -> None:
    state = make_state([troop("a", "A", block(5, 5, 4, 1)), troop("b", "B", [(5, 6)])])
    refusal = judged(state, "a", block(6, 5, 3, 1) + [(7, 4)])  # (5, 5) would move
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-FORM-05"
    assert judged(state, "a", block(5, 5, 2, 1) + block(5, 4, 2, 1)) is None
    for order in formation.formation_options(state, get(state, "a"))[1:]:
        assert (5, 5) in (movement.parse_squares(str(order.args[1])) or set())


@pytest.mark.rule("W35-FORM-01", "W35-PLACE-06")
def test_a_rearrangement_keeps_the_counter_count_and_free_squares() -> None:
    state = make_state([troop("a", "A", block(5, 5, 3, 1)), troop("c", "A", [(4, 4)]),
                        troop("b", "B", [(30, 25)])])
    short = judged(state, "a", block(5, 5, 2, 1))
    taken = judged(state, "a", [(4, 4), (5, 4), (6, 4)])
    assert isinstance(short, Refusal) and short.rule == "W35-FORM-01"
    assert isinstance(taken, Refusal) and taken.rule == "W35-PLACE-06"


@pytest.mark.rule("W35-AMB-67", "W35-DEC-18")
def test_a_phalanx_may_be_dropped_for_free_in_the_step() -> None:
    state = make_state([troop("a", "A", block(5, 5, 3, 2)), troop("b", "B", [(30, 25)])])
    a = get(state, "a")
    a.phalanx = True
    assert Order.of("drop_phalanx", "a") in formation.formation_options(state, a)
    battle = make_battle(state, orders={"A": ["drop_phalanx a"]})
    formation.formation_step(state, battle, a)
    assert not a.phalanx and events(battle, "phalanx_dropped")
    assert Order.of("drop_phalanx", "a") not in formation.formation_options(state, a)
