"""Monsters and NPCs on their own (W35-TERM-07..10, W35-MON, W35-NPC, W35-ROUND-06..11,
W35-TERR-16, W35-DMG-08/16)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.battle_watch import events
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
from warhost.geometry.grid import chebyshev
from warhost.rulesets.dnd35_wars import inunit, singles, tables
from warhost.rulesets.dnd35_wars.state import WarState


def monster(sid: str = "m", side: str = "A", at: tuple[int, int] = (10, 10), **kw: Any) -> dict[str, object]:
    """A monster entry (an ogre-ish brute, speed 30 ft)."""
    return single(sid, side, "monster", at=at, creature=kw.pop("creature", None) or creature(
        "ogre", hp=30, ac=16, speed=30, melee=[{"bonus": 8, "damage": "2d8+7"}]), **kw)


def options_of(state: WarState, sid: str) -> list[str]:
    return [str(o) for o in singles.turn_options(state, who(state, sid))]


def farthest_move(state: WarState, sid: str) -> int:
    start = who(state, sid).square
    assert start is not None
    moves = [o for o in singles.move_options(state, who(state, sid)) if o.kind == "smove"]
    return max(chebyshev(start, singles.parse_square(str(o.args[1]))) for o in moves)


@pytest.mark.rule("W35-MON-04", "W35-AMB-70", "W35-TERM-07", "W35-MON-01")
def test_a_colossal_monster_fills_one_square_and_belongs_to_no_unit() -> None:
    big = creature("great wyrm", size="colossal", hp=400, speed=40)
    state = make_state([unit("a", squares=[(5, 5)])], singles=[monster(creature=big)])
    battle = make_battle(state, orders={"A": ["smove m 12,10"]})
    singles.single_turn(state, battle, who(state, "m"))
    assert [sq for sq, w in state.at.items() if w == "m"] == [(12, 10)]
    assert who(state, "m").host is None and "m" not in get(state, "a").singles


@pytest.mark.rule("W35-MON-09", "W35-STAT-12", "W35-TERM-08")
def test_a_monster_double_moves_at_its_table_rate() -> None:
    state = make_state([unit("a", squares=[(0, 0)])], singles=[monster()])
    assert farthest_move(state, "m") == tables.move_rate(30, 15) == 4


@pytest.mark.rule("W35-TERR-16")
def test_a_monster_pays_the_terrain_cost_of_each_square_it_enters() -> None:
    forest = [{"rect": [[0, 0], [39, 29]], "kind": "light_forest"}]
    state = make_state([unit("a", squares=[(0, 0)])], singles=[monster()], terrain=forest)
    assert farthest_move(state, "m") == 2  # 4 points, 2 a square


@pytest.mark.rule("W35-MON-05")
def test_a_monster_walks_through_allies_but_not_through_enemies() -> None:
    wall = [(11, y) for y in range(4, 17)]
    friends = make_state([unit("a", squares=wall, count=130)], singles=[monster()])
    foes = make_state([unit("a", "B", squares=wall, count=130)], singles=[monster()])
    assert "smove m 12,10" in options_of(friends, "m")
    assert "smove m 12,10" not in options_of(foes, "m")


@pytest.mark.rule("W35-MON-06", "W35-ROUND-08", "W35-ROUND-10", "W35-NPC-02")
def test_a_monster_ending_inside_an_allied_unit_is_embedded_and_takes_its_initiative() -> None:
    state = make_state([unit("a", squares=block(12, 10, 2, 2), count=40),
                        unit("b", "B", squares=[(30, 20)])], singles=[monster()])
    state.initiative = {"a": 12, "b": 8, "m": 15}
    battle = make_battle(state, orders={"A": ["enter m a"]})
    singles.single_turn(state, battle, who(state, "m"))
    m = who(state, "m")
    assert m.host == "a" and "m" in get(state, "a").singles and m.square in get(state, "a").squares
    assert get(state, "a").squares == set(block(12, 10, 2, 2))  # the footprint is unchanged
    assert "m" not in state.order and "m" not in state.at.values()


@pytest.mark.rule("W35-MON-07", "W35-AMB-70")
def test_a_monster_that_hurts_a_counter_fights_its_way_into_its_square(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake_damage(monkeypatch, unit_loss=3)
    state = make_state([unit("b", "B", squares=[(11, 10), (12, 10)], count=20)],
                       singles=[monster()])
    assert "smove m 12,10" not in options_of(state, "m")  # one square a round
    battle = make_battle(state, orders={"A": ["smove m 11,10"]})
    singles.single_turn(state, battle, who(state, "m"))
    m = who(state, "m")
    assert (m.inside, m.square, m.host) == ("b", (11, 10), None)
    assert state.at[(11, 10)] == "b" and "m" in get(state, "b").intruders
    assert "m" not in state.order and events(battle, "fight_through")[0]["advanced"]
    # inside, it fights on to the next counter, one square a round
    assert "smove m 12,10" in options_of(state, "m")


@pytest.mark.rule("W35-MON-07")
def test_a_monster_that_does_no_damage_stays_where_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=0)
    state = make_state([unit("b", "B", squares=[(11, 10)])], singles=[monster()])
    battle = make_battle(state, orders={"A": ["smove m 11,10"]})
    singles.single_turn(state, battle, who(state, "m"))
    assert who(state, "m").square == (10, 10) and who(state, "m").inside is None
    assert calls.log == [("single_attacks_unit", "m", "b")]


@pytest.mark.rule("W35-MON-10", "W35-MON-11", "W35-ROUND-11", "W35-AMB-78", "W35-NPC-05")
def test_a_monster_alone_takes_one_action_with_one_averaged_attack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=2)
    state = make_state([unit("b", "B", squares=[(11, 10)]), unit("c", "B", squares=[(9, 10)])],
                       singles=[monster()])
    kinds = {o.split()[0] for o in options_of(state, "m")}
    assert kinds <= {"shold", "sdefend", "sattack", "smove", "scharge", "enter"} and "sfull" not in kinds
    assert sorted(o for o in options_of(state, "m") if o.startswith("sattack")) == [
        "sattack m b", "sattack m c"]
    battle = make_battle(state)  # the default: attack the first enemy in reach
    singles.single_turn(state, battle, who(state, "m"))
    assert len(calls.log) == 1 and calls.log[0][:2] == ("single_attacks_unit", "m")
    assert who(state, "m").square == (10, 10)


@pytest.mark.rule("W35-AMB-30", "W35-PC-05")
def test_a_charge_runs_straight_in_and_makes_one_attack_at_the_charge_bonus(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=2)
    state = make_state([unit("b", "B", squares=[(10, 14)])], singles=[monster()])
    assert "scharge m b 10,13" in options_of(state, "m")
    battle = make_battle(state, orders={"A": ["scharge m b 10,13"]})
    singles.single_turn(state, battle, who(state, "m"))
    m = who(state, "m")
    assert m.square == (10, 13) and m.charge_ac_penalty
    assert calls.log == [("single_attacks_unit", "m", "b")] and calls.kwargs[0]["charge"]
    singles.single_turn(state, make_battle(state), m)  # the -2 AC ends at its next turn
    assert not m.charge_ac_penalty


@pytest.mark.rule("W35-AMB-30")
def test_no_charge_from_next_to_the_target() -> None:
    state = make_state([unit("b", "B", squares=[(10, 11)])], singles=[monster()])
    assert not [o for o in options_of(state, "m") if o.startswith("scharge m b")]


@pytest.mark.rule("W35-DMG-16", "W35-MON-08")
def test_two_singular_creatures_fight_on_the_standard_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, single_loss=7)
    state = make_state([unit("a", squares=[(0, 0)])],
                       singles=[monster(), monster("n", "B", at=(11, 11))])
    battle = make_battle(state, orders={"A": ["sattack m n"]})
    singles.single_turn(state, battle, who(state, "m"))
    assert calls.log == [("single_attacks_single", "m", "n")] and who(state, "n").hp == 23


@pytest.mark.rule("W35-DMG-08", "W35-INUNIT-07")
def test_a_unit_may_not_attack_a_creature_embedded_among_its_allies() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6), (6, 6)],
                                                           count=20)],
                       singles=[single("n", "B", unit="b"), monster("m", at=(20, 20)),
                                monster("k", at=(1, 1))])
    a, b = get(state, "a"), get(state, "b")
    assert not singles.attackable_by_unit(state, a, who(state, "n"))
    assert singles.attackable_by_unit(state, b, who(state, "m"))
    singles.enter_enemy(state, who(state, "k"), b, (6, 6))
    assert not singles.attackable_by_unit(state, b, who(state, "k"))  # in-unit combat only


@pytest.mark.rule("W35-NPC-01", "W35-NPC-06", "W35-ROUND-06", "W35-ROUND-07", "W35-TERM-09")
def test_an_npc_starts_in_its_unit_and_leaving_acts_at_the_unit_initiative_minus_one() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(30, 20)])],
                       singles=[single("n", unit="a")])
    state.initiative = {"a": 15, "b": 10}
    assert "n" not in state.order and who(state, "n").host == "a"
    battle = make_battle(state, orders={"A": ["sact n", "leave n 5,9"]})
    inunit.in_unit_actions(state, battle, get(state, "a"))
    n = who(state, "n")
    assert (n.host, n.square, state.at[(5, 9)]) == (None, (5, 9), "n")
    assert state.order == ["a", "n", "b"] and state.initiative["n"] == 14


@pytest.mark.rule("W35-PLACE-14", "W35-AMB-63")
def test_an_npc_may_enter_only_a_unit_with_more_counters_than_npcs_after_it() -> None:
    state = make_state([unit("a", squares=[(5, 5), (6, 5)], count=20),
                        unit("c", squares=block(5, 7, 3, 1), count=30),
                        unit("b", "B", squares=[(30, 20)])],
                       singles=[single("n1", unit="a"), single("n2", unit="b", side="B"),
                                single("n3", unit="c"), single("p", kind="pc", unit="c")])
    state.initiative = {"a": 15, "c": 12, "b": 10}
    battle = make_battle(state)
    for sid in ("n3", "p"):
        singles.seat(state, who(state, sid))
    singles.leave(state, battle, who(state, "n3"), (5, 3))
    singles.leave(state, battle, who(state, "p"), (6, 3))
    assert "enter n3 a" not in options_of(state, "n3")  # 2 counters, already 1 NPC
    assert "enter p a" in options_of(state, "p")  # PCs are not counted
    assert "enter n3 c" in options_of(state, "n3")  # 3 counters, no NPC now


@pytest.mark.rule("W35-AMB-63")
@pytest.mark.parametrize(("rule", "left"), [("eject", 1), ("entry_only", 0)])
def test_with_eject_the_npcs_beyond_the_counter_rule_leave(rule: str, left: int) -> None:
    state = make_state([unit("a", squares=[(5, 5), (6, 5), (7, 5)], count=30),
                        unit("b", "B", squares=[(30, 20)])],
                       singles=[single("n1", unit="a"), single("n2", unit="a")],
                       options={"npc_counter_rule_in_play": rule})
    state.initiative = {"a": 15, "b": 10}
    state.remove_counters(get(state, "a"), {(7, 5)})  # 2 counters for 2 NPCs
    inunit.eject(state, make_battle(state), get(state, "a"))
    assert sum(who(state, s).host is None for s in ("n1", "n2")) == left


@pytest.mark.rule("W35-TERM-10", "W35-NPC-03")
def test_creatures_inside_a_unit_never_count_as_its_members() -> None:
    state = make_state([unit("a", squares=[(5, 5)], count=10)],
                       singles=[single("n", unit="a"), single("p", kind="pc", unit="a")])
    bare = get(make_state([unit("a", squares=[(5, 5)], count=10)]), "a")
    a = get(state, "a")
    assert set(a.singles) == {"n", "p"}
    assert (a.derived_creatures, a.start_hp, a.per_counter) == (
        bare.derived_creatures, bare.start_hp, bare.per_counter) == (10, 10, Fraction(10))


@pytest.mark.rule("W35-NPC-07", "W35-MON-05", "W35-MON-07")
def test_an_npc_alone_moves_through_allies_and_fights_into_enemies_as_a_monster(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake_damage(monkeypatch, unit_loss=1)
    wall = [(11, y) for y in range(4, 17)]
    state = make_state([unit("a", squares=[(2, 2)]), unit("w", squares=wall, count=130),
                        unit("b", "B", squares=[(9, 11)])], singles=[single("n", unit="a")])
    state.initiative = {"a": 15, "w": 12, "b": 10}
    singles.seat(state, who(state, "n"))
    singles.leave(state, make_battle(state), who(state, "n"), (10, 10))
    assert "smove n 12,10" in options_of(state, "n")  # through the allied wall
    battle = make_battle(state, orders={"A": ["smove n 9,11"]})
    singles.single_turn(state, battle, who(state, "n"))
    assert (who(state, "n").inside, who(state, "n").square) == ("b", (9, 11))


@pytest.mark.rule("W35-AMB-78", "W35-DEC-33")
def test_total_defense_lasts_until_the_creature_acts_again() -> None:
    state = make_state([unit("b", "B", squares=[(30, 20)])], singles=[monster()])
    m = who(state, "m")
    singles.single_turn(state, make_battle(state, orders={"A": ["sdefend m"]}), m)
    assert m.total_defense and m.square == (10, 10)
    singles.single_turn(state, make_battle(state, orders={"A": ["shold m"]}), m)
    assert not m.total_defense


@pytest.mark.rule("W35-AMB-30")
def test_with_nothing_in_reach_a_creature_charges_by_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_damage(monkeypatch, unit_loss=1)
    state = make_state([unit("b", "B", squares=[(10, 13)])], singles=[monster()])
    singles.single_turn(state, make_battle(state), who(state, "m"))
    assert calls.log == [("single_attacks_unit", "m", "b")] and calls.kwargs[0]["charge"]
