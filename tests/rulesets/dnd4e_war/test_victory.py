"""How a battle ends (W4-SETUP-03, W4-AMB-74): the victory options and the turn limit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import get, make_battle, make_state, profile, unit
from warhost.rulesets.dnd4e_war import game
from warhost.rulesets.dnd4e_war.state import WarState


def _armies(victory: dict[str, Any] | None = None) -> WarState:
    worth = profile(points=100)
    options: dict[str, Any] = {"turn_limit": 3}
    if victory:
        options["victory"] = victory
    return make_state([unit("a1", profile=worth), unit("a2", at=(40, 10), profile=worth),
                       unit("b1", "B", at=(20, 30), facing=180, profile=worth),
                       unit("b2", "B", at=(40, 30), facing=180, profile=worth)],
                      options=options)


@pytest.mark.rule("W4-AMB-74")
@pytest.mark.rule("W4-SETUP-03")
def test_by_default_the_points_of_enemies_destroyed_or_fleeing_decide_at_the_limit() -> None:
    state = _armies()
    get(state, "b1").destroyed = True
    get(state, "a2").fleeing = True
    battle = make_battle(state)
    assert not game.check_end(state, battle, 3, final=False)
    assert game.score(state, "A") == 100 and game.score(state, "B") == 0  # fleeing: at the end
    assert game.check_end(state, battle, 3, final=True)
    assert game.score(state, "B") == 100 and state.winner is None  # 100 each: a draw
    state = _armies()
    get(state, "b1").destroyed = True
    get(state, "b2").fleeing = True
    game.check_end(state, make_battle(state), 3, final=False)
    assert state.over and state.winner == "A"  # every enemy gone or fleeing: a rout


@pytest.mark.rule("W4-AMB-74")
def test_a_difference_under_the_draw_margin_is_a_draw() -> None:
    state = _armies({"kind": "points", "draw_margin": 0.6})
    get(state, "b1").destroyed = True
    game.check_end(state, make_battle(state), 3, final=True)
    assert state.winner is None and "too close" in state.end_reason
    state = _armies({"kind": "points", "draw_margin": 0.4})
    get(state, "b1").destroyed = True
    game.check_end(state, make_battle(state), 3, final=True)
    assert state.winner == "A"


@pytest.mark.rule("W4-AMB-74")
def test_destroy_ends_only_when_a_side_has_nothing_left_on_the_table() -> None:
    state = _armies({"kind": "destroy"})
    get(state, "b1").destroyed = True
    get(state, "b2").fleeing = True
    assert not game.check_end(state, make_battle(state), 3, final=False)
    get(state, "b2").destroyed = True
    assert game.check_end(state, make_battle(state), 3, final=False)
    assert state.winner == "A"


@pytest.mark.rule("W4-AMB-74")
def test_hold_ground_goes_to_the_strongest_side_near_the_objective() -> None:
    state = _armies({"kind": "hold_ground", "objective": [20, 20], "radius": 12})
    battle = make_battle(state)
    game.check_end(state, battle, 3, final=True)
    assert state.winner is None  # a1 and b1 both within 12": 8 unit strength each
    state = _armies({"kind": "hold_ground", "objective": [20, 20], "radius": 12})
    get(state, "b1").fleeing = True  # a fleeing unit holds nothing
    game.check_end(state, make_battle(state), 3, final=True)
    assert state.winner == "A" and "objective" in state.end_reason
