"""In-unit actions and in-unit combat (W35-INUNIT, W35-DEFEND-16, W35-COLL-02/03 choice,
W35-ROUND-06/10)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events, record
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    single,
    unit,
    who,
)
from tests.rulesets.dnd35_wars.singles_fakes import fake_damage
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import game, inunit, singles


def npc(sid: str, host: str, side: str = "A", init: int = 0, **kw: Any) -> dict[str, object]:
    """An NPC entry with the given initiative modifier."""
    return single(sid, side, "npc", unit=host, creature=creature(
        sid, hp=30, ac=16, initiative=init, melee=[{"bonus": 6, "damage": "1d8+2"}]), **kw)


@pytest.mark.rule("W35-INUNIT-06", "W35-INUNIT-07", "W35-INUNIT-08", "W35-INUNIT-04")
def test_the_sorcerer_inside_an_enemy_unit_is_attacked_then_the_enemies_act_then_he_acts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=2, single_loss=5)
    sorcerer = creature("sorcerer", hp=30, ac=14, melee=[{"bonus": 2, "damage": "1d6"}])
    state = make_state([unit("own", squares=[(2, 2)]),
                        unit("e", "B", squares=block(10, 10, 3, 3), count=90)],
                       singles=[single("s", "A", "pc", unit="own", creature=sorcerer),
                                npc("g", "e", "B")])
    singles.seat(state, who(state, "s"))
    singles.enter_enemy(state, who(state, "s"), get(state, "e"), (11, 11))  # teleported in
    battle = make_battle(state, orders={"B": ["sact g", "sattack g s"], "A": ["sfull s e"]})
    game.unit_turn(state, battle, get(state, "e"))
    assert calls.log == [("unit_attacks_single", "e", "s"),   # (1) the unit's free attack
                         ("single_attacks_single", "g", "s"),  # (2) the unit's own creatures
                         ("single_attacks_unit", "s", "e")]    # (3) then the sorcerer
    assert calls.kwargs[0] == {"ranged": False}
    kinds = [e["type"] for e in battle.log]
    assert kinds.index("in_unit_combat") < kinds.index("hold")  # the unit action comes last
    assert who(state, "s").hp == 30 - 5 - 5


@pytest.mark.rule("W35-INUNIT-02", "W35-DEC-29", "W35-AMB-64", "W35-INUNIT-01")
def test_creatures_inside_act_in_the_agreed_order_default_by_initiative_modifier(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=1)
    entries = [npc("n1", "a", init=1), npc("n2", "a", init=4), npc("n3", "a", init=2)]
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])],
                       singles=entries)
    battle = make_battle(state)
    seen = record(battle)
    inunit.in_unit_actions(state, battle, get(state, "a"))
    asked = next(d for d in seen if d.kind == "in_unit_order")
    assert str(asked.default) == "sorder a n2,n3,n1"
    assert [c[1] for c in calls.log] == ["n2", "n3", "n1"]
    assert isinstance(inunit.judge_order(["n1", "n2", "n3"])(Order.parse("sorder a n1,n2")),
                      Refusal)
    calls.log.clear()
    battle = make_battle(state, orders={"A": ["sorder a n1,n3,n2"]})
    inunit.in_unit_actions(state, battle, get(state, "a"))
    assert [c[1] for c in calls.log] == ["n1", "n3", "n2"]


@pytest.mark.rule("W35-INUNIT-05", "W35-DEC-30")
def test_a_creature_that_keeps_up_rides_with_its_moving_unit() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[npc("n", "a")])
    state.initiative = {"a": 15, "b": 10}
    battle = make_battle(state, orders={"A": ["sstay n"]})
    a = get(state, "a")
    inunit.in_unit_actions(state, battle, a)
    assert events(battle, "stays_with_unit")
    before = frozenset(a.squares)
    state.place(a, {(5, 7)})
    inunit.after_unit_action(state, battle, a, before)
    assert (who(state, "n").host, who(state, "n").square) == ("a", (5, 7))


@pytest.mark.rule("W35-INUNIT-05", "W35-DEC-30", "W35-ROUND-07")
def test_a_creature_that_acts_is_left_behind_when_its_unit_moves() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[npc("n", "a")])
    state.initiative = {"a": 15, "b": 10}
    battle = make_battle(state, orders={"A": ["sact n", "shold n"]})
    a = get(state, "a")
    inunit.in_unit_actions(state, battle, a)
    before = frozenset(a.squares)
    state.place(a, {(5, 7)})
    inunit.after_unit_action(state, battle, a, before)
    n = who(state, "n")
    assert (n.host, n.square, state.at[(5, 5)]) == (None, (5, 5), "n")
    assert state.order == ["a", "n", "b"] and events(battle, "left_behind")


@pytest.mark.rule("W35-INUNIT-05")
def test_a_creature_that_acts_stays_inside_when_its_unit_does_not_move() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[npc("n", "a")])
    battle = make_battle(state, orders={"A": ["sact n", "shold n"]})
    a = get(state, "a")
    inunit.in_unit_actions(state, battle, a)
    inunit.after_unit_action(state, battle, a, frozenset(a.squares))
    assert who(state, "n").host == "a"


@pytest.mark.rule("W35-DEFEND-16", "W35-AMB-29")
def test_creatures_inside_a_phalanx_may_not_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_damage(monkeypatch, unit_loss=1)
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])],
                       singles=[npc("n", "a")])
    for phalanx, attacks in ((False, 1), (True, 0)):
        get(state, "a").phalanx = phalanx
        battle = make_battle(state, orders={"A": ["sact n"]})
        seen = record(battle)
        inunit.in_unit_actions(state, battle, get(state, "a"))
        asked = next(d for d in seen if d.kind == "single_action")
        assert sum(o.kind == "sattack" for o in asked.options) == attacks


@pytest.mark.rule("W35-INUNIT-03")
def test_a_creature_inside_may_attack_an_enemy_unit_next_to_its_counter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=1)
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(6, 6)])],
                       singles=[npc("n", "a")])
    battle = make_battle(state)  # defaults: act, and attack the enemy in reach
    inunit.in_unit_actions(state, battle, get(state, "a"))
    assert calls.log == [("single_attacks_unit", "n", "b")]


@pytest.mark.rule("W35-DEC-31")
def test_each_embedded_creature_chooses_the_front_line_or_the_back() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[npc("n", "a"), npc("k", "a")])
    battle = make_battle(state, orders={"A": ["sorder a n,k", "sstay n", "sstay k",
                                              "sfront n"]})
    inunit.in_unit_actions(state, battle, get(state, "a"))
    assert (who(state, "n").front_line, who(state, "k").front_line) == (True, False)
    assert [(e["who"], e["front"]) for e in events(battle, "front_line")] == [("n", True)]


@pytest.mark.rule("W35-ROUND-10", "W35-ROUND-06")
def test_creatures_inside_a_unit_act_only_in_its_in_unit_step() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[npc("n", "a")])
    state.options.round_limit = 1
    battle = make_battle(state, dice=[], orders={"A": ["sstay n"]})
    game.play(state, battle)
    asked = [e for e in battle.log if e["type"] in ("stays_with_unit", "turn")]
    assert [e["type"] for e in asked] == ["turn", "stays_with_unit", "turn"]
    assert asked[0]["unit"] == "a" and "n" not in state.order


@pytest.mark.rule("W35-NPC-01", "W35-NPC-06")
def test_creatures_of_a_unit_still_to_arrive_wait_with_it_and_of_a_fled_unit_stand_alone() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("r", squares=[(9, 9)]),
                        unit("b", "B", squares=[(30, 20)])],
                       singles=[npc("n", "a"), npc("w", "r")])
    state.initiative = {"a": 15, "r": 12, "b": 10}
    battle = make_battle(state)
    singles.tidy(state, battle)
    state.lift(get(state, "r"))
    get(state, "r").squares = set()  # a reinforcement waiting off the map
    get(state, "a").status = "fled"
    state.lift(get(state, "a"))
    singles.tidy(state, battle)
    assert (who(state, "w").host, who(state, "n").host, who(state, "n").square) == (
        "r", None, (5, 5))
    assert state.order == ["a", "n", "r", "b"]
