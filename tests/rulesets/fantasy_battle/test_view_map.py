"""The map view of a `fantasy-battle` state: every unit listed, with what the key needs."""

from __future__ import annotations

from tests.rulesets.fantasy_battle.helpers import make_state
from warhost.rulesets.fantasy_battle.state import DEFEATED, IN_POOL, FBState
from warhost.rulesets.fantasy_battle.view import map_view


def _state() -> FBState:
    state = make_state(units=[
        {"id": "a-pike", "side": "A", "at": (1, 0), "cls": "pike", "facing": "north"},
        {"id": "a-hero", "side": "A", "at": (3, 0), "rank": "champion", "name": "Ser Corvin",
         "wounded": True, "fate": 2, "unique": True},
        {"id": "b-knight", "side": "B", "at": (4, 10), "cls": "knight", "rank": "elite"},
        {"id": "b-gone", "side": "B", "at": (6, 11), "cls": "archer"},
        {"id": "b-pooled", "side": "B", "at": (7, 11)},
    ])
    state.remove(state.units["b-gone"], DEFEATED)
    state.remove(state.units["b-pooled"], IN_POOL)
    return state


def test_every_unit_is_listed_in_the_scenario_order() -> None:
    """Units off the map stay in the list (without a place), so labels never shift."""
    units = map_view(_state())["units"]
    assert [u["id"] for u in units] == ["a-pike", "a-hero", "b-knight", "b-gone", "b-pooled"]
    gone, pooled = units[3], units[4]
    assert (gone["x"], gone["y"], gone["status"]) == (None, None, "defeated")
    assert (pooled["x"], pooled["status"]) == (None, "in the pool")


def test_units_carry_mark_kind_and_strength() -> None:
    pike, hero, knight = map_view(_state())["units"][:3]
    assert (pike["mark"], pike["kind"], pike["strength"]) == ("P", "standard Pike (infantry)",
                                                              "1d6")
    assert pike["facing"] == [0, 1] and pike["status"] == "active"
    assert (hero["mark"], hero["name"], hero["strength"]) == ("W**", "Ser Corvin", "3d6, 2 Fate")
    assert hero["wounded"] is True
    assert (knight["mark"], knight["kind"], knight["w"]) == ("K*", "elite Knight (cavalry)", 2)


def test_marks_explain_every_class_letter_and_rank_mark_used() -> None:
    assert map_view(_state())["marks"] == [
        ["W", "Warrior"], ["P", "Pike"], ["A", "Archer"], ["K", "Knight"],
        ["*", "elite (2 dice)"], ["**", "champion (3 dice)"],
        ["", "no star: standard (1 die)"],
    ]
