"""PCs: full attacks, no move-and-attack but the charge, squads, morale deeds and kills
(W35-PC, W35-ROUND-09/11, W35-AMB-21/30/78)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    creature,
    get,
    make_battle,
    make_state,
    single,
    unit,
    who,
)
from tests.rulesets.dnd35_wars.singles_fakes import fake_damage
from warhost.geometry.grid import chebyshev
from warhost.rulesets.dnd35_wars import damage, inunit, singles, tables
from warhost.rulesets.dnd35_wars.state import WarState


def pc(sid: str, host: str, side: str = "A", init: int = 0, speed: int = 30,
       **kw: Any) -> dict[str, object]:
    """A PC entry: a fighter with two attacks (+9/+4)."""
    return single(sid, side, "pc", unit=host, creature=creature(
        sid, hp=40, ac=18, initiative=init, speed=speed,
        melee=[{"bonus": 9, "damage": "1d8+3"}, {"bonus": 4, "damage": "1d8+3"}]), **kw)


def alone(state: WarState, sid: str, to: tuple[int, int]) -> None:
    """Take ``sid`` out of its unit onto ``to``."""
    singles.seat(state, who(state, sid))
    singles.leave(state, make_battle(state, dice=[10, 11, 12, 13]), who(state, sid), to)


def kinds(state: WarState, sid: str) -> set[str]:
    return {o.kind for o in singles.turn_options(state, who(state, sid))}


@pytest.mark.rule("W35-PC-04", "W35-PC-05", "W35-PC-06", "W35-ROUND-11", "W35-AMB-78",
                  "W35-PC-02")
def test_a_pc_alone_full_attacks_or_moves_or_charges_but_never_moves_and_attacks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=1)
    state = make_state([unit("a", squares=[(2, 2)]), unit("b", "B", squares=[(10, 12)])],
                       singles=[pc("p", "a")])
    alone(state, "p", (10, 10))
    assert kinds(state, "p") == {"shold", "sdefend", "smove", "scharge"}  # 2 squares away
    alone_p = who(state, "p")
    singles.stand(state, alone_p, (10, 11))
    assert kinds(state, "p") >= {"sfull", "smove"} and "sattack" not in kinds(state, "p")
    assert "scharge" not in kinds(state, "p")
    battle = make_battle(state, orders={"A": ["sfull p b"]})
    singles.single_turn(state, battle, alone_p)
    assert calls.log == [("single_attacks_unit", "p", "b")] and not calls.kwargs[0]["charge"]
    assert alone_p.square == (10, 11)


@pytest.mark.rule("W35-PC-03", "W35-STAT-12")
def test_a_pc_double_moves_at_its_table_rate() -> None:
    state = make_state([unit("a", squares=[(2, 2)])], singles=[pc("p", "a", speed=20)])
    alone(state, "p", (10, 10))
    moves = [o for o in singles.move_options(state, who(state, "p")) if o.kind == "smove"]
    far = max(chebyshev((10, 10), singles.parse_square(str(o.args[1]))) for o in moves)
    assert far == tables.move_rate(20, 15) == 3


@pytest.mark.rule("W35-PC-01", "W35-PC-07", "W35-PC-08", "W35-ROUND-09", "W35-AMB-64")
def test_a_squad_leaves_as_one_counter_and_its_pcs_roll_initiative() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[pc("p1", "a", init=1, role="squad"),
                                pc("p2", "a", init=3, speed=20, role="squad")])
    state.initiative = {"a": 15, "b": 10}
    for sid in ("p1", "p2"):
        singles.seat(state, who(state, sid))
    battle = make_battle(state, dice=[12, 15])  # p1 13, p2 18
    singles.leave(state, battle, who(state, "p1"), (5, 8))
    assert who(state, "p1").square == who(state, "p2").square == (5, 8)
    assert state.order == ["a", "p2", "p1", "b"]
    assert state.initiative["p1"] == state.initiative["p2"] == 14
    assert singles.rate_of(state, who(state, "p1")) == tables.move_rate(20, 15)


@pytest.mark.rule("W35-PC-10", "W35-PC-08")
def test_a_squad_moves_as_one_counter_and_each_pc_then_acts_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=1)
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(9, 12)])],
                       singles=[pc("p1", "a", role="squad"), pc("p2", "a", role="squad")])
    state.initiative = {"a": 15, "b": 10}
    for sid in ("p1", "p2"):
        singles.seat(state, who(state, sid))
    singles.leave(state, make_battle(state, dice=[12, 5]), who(state, "p1"), (8, 8))
    battle = make_battle(state, orders={"A": ["smove p1 9,11"]})
    singles.single_turn(state, battle, who(state, "p1"))
    assert who(state, "p1").square == who(state, "p2").square == (9, 11)
    singles.single_turn(state, battle, who(state, "p2"))  # its round went on the move
    assert events(battle, "squad_follows") == [{"seq": events(battle, "squad_follows")[0]["seq"],
                                               "type": "squad_follows", "who": "p2"}]
    state.round += 1
    battle = make_battle(state, orders={"A": ["sfull p1 b", "sfull p2 b"]})
    singles.single_turn(state, battle, who(state, "p1"))
    singles.single_turn(state, battle, who(state, "p2"))
    assert [c[1] for c in calls.log] == ["p1", "p2"]


@pytest.mark.rule("W35-PC-11", "W35-AMB-21", "W35-PC-12")
@pytest.mark.parametrize(("loss", "deeds", "defeated"), [
    (20, [("p", "slew_tenth")], 0), (19, [], 0), (100, [("p", "slew_tenth")], 10)])
def test_a_pc_taking_a_tenth_of_a_unit_in_one_attack_lifts_morale(
        monkeypatch: pytest.MonkeyPatch, loss: int, deeds: list[tuple[str, str]],
        defeated: int) -> None:
    calls = fake_damage(monkeypatch, unit_loss=loss)
    ogre = creature("orc", hp=10, ac=13)
    state = make_state([unit("a", squares=[(2, 2)]),
                        unit("b", "B", squares=[(10, 11), (11, 11)], count=20, creature=ogre)],
                       singles=[pc("p", "a")])
    get(state, "b").hp = get(state, "b").start_hp = 200
    get(state, "b").counter_hp = 100
    alone(state, "p", (10, 10))
    battle = make_battle(state, orders={"A": ["sfull p b"]})
    singles.single_turn(state, battle, who(state, "p"))
    assert calls.deeds == deeds
    xp = events(battle, "pc_xp")
    assert [(e["count"], e["creature"]) for e in xp] == ([(defeated, "orc")] if defeated else [])


@pytest.mark.rule("W35-PC-11", "W35-AMB-21", "W35-PC-12")
@pytest.mark.parametrize(("fields", "deed"), [({"role": "leader"}, "slew_leader"),
                                              ({"officer": True}, "slew_officer"),
                                              ({}, None)])
def test_a_pc_slaying_an_enemy_leader_or_officer_lifts_morale(
        monkeypatch: pytest.MonkeyPatch, fields: dict[str, Any], deed: str | None) -> None:
    calls = fake_damage(monkeypatch, unit_loss=1, single_loss=40)
    state = make_state([unit("a", squares=[(2, 2)]), unit("b", "B", squares=[(10, 11)])],
                       singles=[pc("p", "a"), single("l", "B", "npc", unit="b", **fields)])
    alone(state, "p", (10, 10))
    singles.seat(state, who(state, "l"))
    singles.enter_enemy(state, who(state, "p"), get(state, "b"), (10, 11))
    battle = make_battle(state, orders={"A": ["sfull p l"]})
    singles.single_turn(state, battle, who(state, "p"))
    assert not who(state, "l").alive
    assert calls.deeds == ([("p", deed)] if deed else [])
    assert [(e["who"], e["count"], e["creature"]) for e in events(battle, "pc_xp")] == [
        ("p", 1, "hero")]


@pytest.mark.rule("W35-PC-11", "W35-AMB-21")
def test_a_pc_going_down_inside_an_enemy_unit_is_a_morale_blow(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, single_loss=40)
    state = make_state([unit("a", squares=[(2, 2)]), unit("b", "B", squares=[(10, 11)])],
                       singles=[pc("p", "a")])
    alone(state, "p", (10, 10))
    singles.enter_enemy(state, who(state, "p"), get(state, "b"), (10, 11))
    inunit.in_unit_actions(state, make_battle(state), get(state, "b"))
    assert calls.log == [("unit_attacks_single", "b", "p")]
    assert calls.deeds == [("p", "fled_or_down")]


@pytest.mark.rule("W35-PC-01", "W35-NPC-06")
def test_a_leader_leaving_its_unit_costs_the_unit_its_leader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch)
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[pc("p", "a", role="leader"), pc("q", "a")])
    state.initiative = {"a": 15, "b": 10}
    assert get(state, "a").leader == "p"
    alone(state, "q", (5, 8))
    assert calls.leaders_lost == []
    alone(state, "p", (5, 9))
    assert calls.leaders_lost == ["a"] and "p" not in get(state, "a").singles


@pytest.mark.rule("W35-PC-11", "W35-AMB-21")
def test_a_pc_felled_by_any_attack_is_reported_to_morale_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch)
    state = make_state([unit("a", squares=[(2, 2)]), unit("b", "B", squares=[(10, 11)])],
                       singles=[pc("p", "a"), pc("q", "a")])
    battle = make_battle(state)
    damage.apply_to_single(state, battle, who(state, "p"), 40, "b")
    damage.apply_to_single(state, battle, who(state, "q"), 39, "b")
    singles.tidy(state, battle)
    singles.tidy(state, battle)
    assert calls.deeds == [("p", "fled_or_down")]


@pytest.mark.rule("W35-PC-09", "W35-MON-07")
def test_a_squad_fights_its_way_into_an_enemy_unit_as_one_counter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=2)
    state = make_state([unit("a", squares=[(5, 5)]),
                        unit("b", "B", squares=[(9, 12), (9, 13)], count=20)],
                       singles=[pc("p1", "a", role="squad"), pc("p2", "a", role="squad")])
    state.initiative = {"a": 15, "b": 10}
    for sid in ("p1", "p2"):
        singles.seat(state, who(state, sid))
    singles.leave(state, make_battle(state, dice=[12, 5]), who(state, "p1"), (9, 11))
    battle = make_battle(state, orders={"A": ["smove p1 9,12"]})
    singles.single_turn(state, battle, who(state, "p1"))
    assert calls.log == [("single_attacks_unit", "p1", "b")]
    assert [(who(state, s).inside, who(state, s).square) for s in ("p1", "p2")] == [
        ("b", (9, 12)), ("b", (9, 12))]
    assert get(state, "b").intruders == ["p1", "p2"] and state.at[(9, 12)] == "b"
    assert "p1" not in state.order and "p2" not in state.order
