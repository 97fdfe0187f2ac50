"""Characters in close combat (W4-CHAR-16 to 18, W4-AMB-99, W4-HIT-04)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    character,
    events,
    get,
    make_battle,
    make_state,
    unit,
)
from warhost.rulesets.dnd4e_war import char_melee, charge, melee
from warhost.rulesets.dnd4e_war.state import WarState


def _fight(**hero: Any) -> WarState:
    """Unit a with the hero (front edge y=10, facing north; the displaced model starts a
    second company, so a's companies stand at x 16-20 and 20-24, the hero's the first) in
    contact with unit b (x 18-22, facing south)."""
    state = make_state([unit("a"), unit("b", "B", at=(20, 10), facing=180)],
                       characters=[character("hero", joined="a", **hero)])
    state.engage("a", "b")
    return state


@pytest.mark.rule("W4-CHAR-16")
@pytest.mark.rule("W4-CHAR-17")
@pytest.mark.rule("W4-AMB-99")
def test_attacks_sent_at_a_joined_character_are_declared_then_rolled_apart() -> None:
    state = _fight()
    a, b = get(state, "a"), get(state, "b")
    blows = melee.plan_blows(state, make_battle(state), b, [a])
    assert [bl.dice for bl in blows] == [4]
    # 2 dice at the hero (AC 20, +8: 12 needed), 2 at the unit (AC 16 + 2 from the joined
    # fighter, W4-CLASS-11: 10 needed); then the spear's 1d8+2 for each hit on the hero
    battle = make_battle(state, dice=[12, 20, 10, 3, 5, 6],
                         orders={"B": ["strike_at b hero 2"]})
    melee.strike(state, battle, blows)
    hits = [(e.get("character"), e["dice"], e["needed"], e["hits"])
            for e in events(battle, "strike")]
    assert hits == [("hero", 2, 12, 2), (None, 2, 10, 1)]
    assert state.characters["hero"].hp_left == 40 - 7 - 8
    assert a.normal_models == 7 and a.joined == ["hero"]
    assert melee.points_scored(state, "b") == 3


@pytest.mark.rule("W4-CHAR-18")
@pytest.mark.rule("W4-AMB-27")
def test_hits_beyond_what_slays_a_character_are_wasted() -> None:
    state = _fight(hp=12)
    a, b = get(state, "a"), get(state, "b")
    blows = melee.plan_blows(state, make_battle(state), b, [a])
    battle = make_battle(state, dice=[12, 20, 15, 3, 5, 6],
                         orders={"B": ["strike_at b hero 3"]})
    melee.strike(state, battle, blows)
    wounded = events(battle, "character_wounded")[0]
    assert (wounded["hits"], wounded["used"], wounded["slain"]) == (3, 2, True)
    assert melee.points_scored(state, "b") == 2  # the third hit does not count
    assert a.joined == [] and a.models == 8  # his place is given back
    assert state.characters["hero"].slain


def test_a_character_out_of_reach_cannot_be_singled_out() -> None:
    state = make_state([unit("a", companies=2, files=2),
                        unit("b", "B", at=(26, 10), facing=180)],
                       characters=[character("hero", joined="a")])
    state.engage("a", "b")
    a, b = get(state, "a"), get(state, "b")
    # the hero stands at the front of company 0 (x 12-16 after the join); b touches x 24-28
    assert char_melee.characters_in_reach(state, b, a, 1) == []


@pytest.mark.rule("W4-CHAR-16")
@pytest.mark.rule("W4-HIT-04")
def test_a_joined_character_strikes_apart_with_his_own_attacks_as_a_character() -> None:
    state = _fight()
    a, b = get(state, "a"), get(state, "b")
    blows = char_melee.character_blows(state, make_battle(state), a, [b], 5)
    assert [(bl.who, bl.dice, bl.bonus, bl.character) for bl in blows] == [("hero", 3, 10, True)]
    battle = make_battle(state, dice=[6, 5, 1])
    melee.strike(state, battle, blows)
    strike = events(battle, "strike")[0]
    assert (strike["by"], strike["needed"], strike["hits"]) == ("hero", 6, 1)
    # not at the units' initiative 3
    assert char_melee.character_blows(state, make_battle(state), a, [b], 3) == []
    # and his place in the front row is not counted again among the ordinary fighters
    assert char_melee.in_front_fighters(a, 0, 4) == 3


@pytest.mark.rule("W4-CHAR-10")
@pytest.mark.rule("W4-HIT-04")
def test_a_lone_character_fights_as_a_character_and_takes_damage() -> None:
    state = make_state([unit("b", "B", at=(20, 10), facing=180), unit("a", at=(50, 10))],
                       characters=[character("hero", at=(20, 10))])
    state.engage("hero", "b")
    own, b = get(state, "hero"), get(state, "b")
    mine = melee.plan_blows(state, make_battle(state), own, [b])
    assert [(bl.dice, bl.character) for bl in mine] == [(3, True)]
    theirs = melee.plan_blows(state, make_battle(state), b, [own])
    assert [bl.dice for bl in theirs] == [4]
    battle = make_battle(state, dice=[19, 3, 3, 3, 3])
    melee.strike(state, battle, theirs)  # b's models near him, then the hit's 1d8+2
    assert state.characters["hero"].wounds == 5


@pytest.mark.rule("W4-CHAR-15")
@pytest.mark.rule("W4-DEC-15")
def test_a_character_charges_out_of_his_unit_from_where_he_stands() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 16), facing=180)],
                       characters=[character("hero", joined="a")])
    from warhost.rulesets.dnd4e_war.joining import place_in_host

    place = place_in_host(state, state.characters["hero"])
    battle = make_battle(state, orders={"A": ["charge_out hero", "hold a", "charge hero b"]})
    declared = charge.declare(state, battle, "A")
    assert [(c.unit.id, c.target.id) for c in declared] == [("hero", "b")]
    own = get(state, "hero")
    assert own.alive and get(state, "a").joined == []
    assert own.points[0][0] == pytest.approx(place[0])  # straight ahead of his place
    assert own.points[0][1] == pytest.approx(10.0 + 0.5 ** 0.5 + 0.05)  # clear to turn


@pytest.mark.rule("W4-CHAR-15")
def test_a_character_who_then_declares_no_charge_goes_back_in() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 16), facing=180)],
                       characters=[character("hero", joined="a")])
    companies = list(get(state, "a").companies)
    battle = make_battle(state, orders={"A": ["charge_out hero", "hold a", "hold hero"]})
    assert charge.declare(state, battle, "A") == []
    assert get(state, "a").joined == ["hero"] and get(state, "a").companies == companies
    assert not get(state, "hero").alive


@pytest.mark.rule("W4-CHAR-19")
@pytest.mark.rule("W4-DEC-15")
def test_a_character_out_of_reach_cannot_attack_then_moves_freely_to_fight() -> None:
    state = make_state([unit("a", companies=2, files=2),
                        unit("b", "B", at=(26, 10), facing=180)],
                       characters=[character("hero", joined="a")])
    state.engage("a", "b")
    a, b = get(state, "a"), get(state, "b")
    assert char_melee.fighting_slots(state, a) == [1]
    assert char_melee.character_blows(state, make_battle(state), a, [b], 5) == []
    battle = make_battle(state, orders={"A": ["reposition hero 1"]})
    char_melee.free_moves(state, battle, "A")
    assert a.char_slot == 1 and not a.move_used
    assert [bl.who for bl in char_melee.character_blows(state, battle, a, [b], 5)] == ["hero"]
    assert char_melee.characters_in_reach(state, b, a, 1) == [state.characters["hero"]]


@pytest.mark.rule("W4-CHAR-16")
def test_a_charging_unit_strikes_with_its_joined_character_too() -> None:
    state = _fight()
    a, b = get(state, "a"), get(state, "b")
    battle = make_battle(state, dice=[1] * 30)
    charge.charge_attacks(state, battle, a, b, False, frozenset())
    mine = [e for e in events(battle, "strike") if e.get("by") == "hero"]
    assert [(e["dice"], e["charge"]) for e in mine] == [(3, True)]
