"""Lasting spell effects on units in dnd35-wars: modifiers in fought rounds, hindered counters
(stay, split, carry), counters taken out of the fight and their return, fear and turning."""

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
)
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import (
    areas,
    combat,
    conditions,
    damage,
    formation,
    game,
    morale,
    movement,
)
from warhost.rulesets.dnd35_wars.actions import unit_action
from warhost.rulesets.dnd35_wars.state import FIGHTING, ROUTED, VANQUISHED, WarState


def zombie(**fields: Any) -> dict[str, Any]:
    """A 2-HD undead: never checks morale."""
    return creature("zombie", undead=True, hd=2, **fields)


def facing(a_squares: list[tuple[int, int]], b_squares: list[tuple[int, int]]) -> WarState:
    return counted(make_state([unit("a", squares=a_squares),
                               unit("b", "B", squares=b_squares)]))


def counted(state: WarState) -> WarState:
    """Initiative counts 10 apart in the order of the entries."""
    state.initiative = {aid: 10 * (len(state.order) - i) for i, aid in enumerate(state.order)}
    return state


def kinds(state: WarState, uid: str) -> set[str]:
    return {o.kind for o in movement.move_options(state, get(state, uid))}


# ---- modifiers ----------------------------------------------------------------------------


@pytest.mark.rule("W35-SPELL-03", "W35-AMB-96")
def test_buffs_change_the_attack_roll_damage_and_ac_of_a_fought_round() -> None:
    # a (3 counters in a row) strikes b's bottom rank: multiplier 3. a has +1 attack and +1
    # damage; b has +2 AC on 3 of its 6 counters, which gives the unit +1 (W35-AMB-96).
    state = facing(block(0, 0, 3, 1), block(0, 1, 3, 2))
    battle = make_battle(state, dice=[12, 5], orders={"A": ["melee a b"]})
    a, b = get(state, "a"), get(state, "b")
    assert areas.proportional_modifier(2, 3, 6) == 1
    conditions.add_modifier(state, battle, a, "attack", 1, 3, "bless")
    conditions.add_modifier(state, battle, a, "damage", 1, 3, "divine favor")
    conditions.add_modifier(state, battle, b, "ac", areas.proportional_modifier(2, 3, 6), 3,
                            "shield of faith")
    unit_action(state, battle, a)
    [attack] = events(battle, "attack")
    assert (attack["total"], attack["ac"], attack["hit"]) == (12 + 4 + 1, 15 + 1, True)
    assert b.hp == 60 - (5 + 2 + 1) * 3


@pytest.mark.rule("W35-SPELL-03")
def test_an_ac_buff_turns_a_hit_into_a_miss() -> None:
    state = facing(block(0, 0, 3, 1), block(0, 1, 3, 2))
    battle = make_battle(state, dice=[12], orders={"A": ["melee a b"]})
    conditions.add_modifier(state, battle, get(state, "b"), "ac", 2, 0, "mage armor")
    unit_action(state, battle, get(state, "a"))
    [attack] = events(battle, "attack")
    assert (attack["total"], attack["ac"], attack["hit"]) == (16, 17, False)
    assert get(state, "b").hp == 60


@pytest.mark.rule("W35-SPELL-03")
def test_an_ac_buff_counts_against_a_singular_creature_too() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1))],
                       singles=[single("ogre", "B", kind="monster", at=(1, 1))])
    battle = make_battle(state, dice=[7])
    conditions.add_modifier(state, battle, get(state, "a"), "ac", 2, 0, "mage armor")
    damage.single_attacks_unit(state, battle, state.singles["ogre"], get(state, "a"))
    [attack] = events(battle, "attack")
    assert (attack["total"], attack["ac"], attack["hit"]) == (16, 17, False)


@pytest.mark.rule("W35-SPELL-09", "W35-AMB-56")
@pytest.mark.parametrize(("affected", "penalty", "hit"), [(6, -1, False), (3, 0, True)])
def test_a_penalty_on_part_of_a_unit_is_shared_and_rounded_toward_zero(
        affected: int, penalty: int, hit: bool) -> None:
    # -2 on 6 of 10 counters is -1.2 -> -1; on 3 of 10 it is -0.6 -> no penalty at all.
    state = facing(block(0, 0, 5, 1), block(0, 1, 5, 2))
    battle = make_battle(state, dice=[11, 1], orders={"B": ["melee b a"]})
    b = get(state, "b")
    amount = areas.proportional_modifier(-2, affected, b.counters)
    assert amount == penalty
    conditions.add_modifier(state, battle, b, "attack", amount, 5, "bane")
    assert conditions.modifier(b, "attack") == penalty
    unit_action(state, battle, b)
    [attack] = events(battle, "attack")
    assert (attack["total"], attack["hit"]) == (11 + 4 + penalty, hit)


def test_one_source_replaces_itself_and_different_sources_add_up() -> None:
    state = facing([(0, 0)], [(0, 5)])
    battle = make_battle(state)
    a = get(state, "a")
    conditions.add_modifier(state, battle, a, "ac", 2, 5, "mage armor")
    conditions.add_modifier(state, battle, a, "ac", 3, 5, "mage armor")
    conditions.add_modifier(state, battle, a, "ac", -1, 5, "curse")
    conditions.add_modifier(state, battle, a, "saves", 1, 5, "resistance")
    conditions.add_modifier(state, battle, a, "saves", -3, 5, "curse")
    assert conditions.modifier(a, "ac") == 3 - 1
    assert conditions.save_modifier(a) == -2
    with pytest.raises(ValueError, match="unknown stat"):
        conditions.add_modifier(state, battle, a, "speed", 1, 5, "haste")


def test_a_modifier_ends_at_the_start_of_the_round_its_duration_reaches() -> None:
    state = facing([(0, 0)], [(0, 5)])
    battle = make_battle(state)
    a = get(state, "a")
    conditions.add_modifier(state, battle, a, "attack", 1, 2, "bless")  # round 1, 2 rounds
    conditions.add_modifier(state, battle, a, "ac", 1, 0, "barkskin")  # the whole battle
    state.round = 2
    conditions.tick(state, battle)
    assert conditions.modifier(a, "attack") == 1
    state.round = 3
    conditions.tick(state, battle)
    assert conditions.modifier(a, "attack") == 0
    assert conditions.modifier(a, "ac") == 1
    assert [(e["stat"], e["source"]) for e in events(battle, "modifier_ends")] == [
        ("attack", "bless")]


@pytest.mark.rule("W35-AMB-81")
def test_morale_modifiers_reach_the_check_best_bonus_and_every_penalty() -> None:
    state = facing([(0, 0)], [(0, 5)])
    battle = make_battle(state, dice=[10, 10])
    a = get(state, "a")
    morale.check(state, battle, a, 15, "half_hp")
    conditions.add_modifier(state, battle, a, "morale", 1, 5, "bless")
    conditions.add_modifier(state, battle, a, "morale", 2, 5, "heroism")
    conditions.add_modifier(state, battle, a, "morale", -3, 5, "bane")
    morale.check(state, battle, a, 15, "half_hp")
    before, after = events(battle, "morale_check")
    assert after["bonus"] == before["bonus"] + 2 - 3
    assert conditions.modifier(a, "morale") == -1
    state.round = 6
    conditions.tick(state, battle)
    assert conditions.modifier(a, "morale") == 0 and not a.morale_effects


def test_game_play_ends_modifiers_at_the_round_start() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 20)])],
                       options={"round_limit": 1})
    battle = make_battle(state, dice=[10] * 20)
    state.round = 0
    conditions.add_modifier(state, battle, get(state, "a"), "ac", 1, 1, "shield")
    game.play(state, battle)
    types = [e["type"] for e in battle.log]
    assert types.index("modifier_ends") == types.index("round_start") + 1
    assert conditions.modifier(get(state, "a"), "ac") == 0


# ---- hindered counters --------------------------------------------------------------------


@pytest.mark.rule("W35-SPELL-06", "W35-AMB-94", "W35-DEC-21")
def test_held_counters_are_the_front_ones_and_the_unit_cannot_move() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 5, 3, 1))
    battle = make_battle(state)
    seen = record(battle)
    a = get(state, "a")
    assert any(o.kind == "charge" for o in combat.attack_options(state, a))
    conditions.hinder(state, battle, a, 3, "zero", 2, "hold person")
    assert conditions.held_counters(a) == {(0, 1), (1, 1), (2, 1)}
    [asked] = [d for d in seen if d.kind == "hindered"]
    assert asked.default == Order.of("stay", "a")
    assert "move" not in kinds(state, "a")
    assert movement.move_points(a) == 0
    verdict = movement.judge_move(state, a, Order.parse("move a 1,0"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-AMB-94"
    assert not any(o.kind == "charge" for o in combat.attack_options(state, a))


@pytest.mark.rule("W35-SPELL-07", "W35-DEC-21")
def test_the_free_counters_may_split_off_acting_at_initiative_minus_one() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 5, 3, 1))
    battle = make_battle(state, orders={"A": ["split_off a"]})
    a = get(state, "a")
    conditions.hinder(state, battle, a, 3, "zero", 2, "hold person")
    new = get(state, "a-2")
    assert new.squares == {(0, 0), (1, 0), (2, 0)} and not conditions.held_counters(new)
    assert (a.hp, new.hp) == (30, 30)
    assert state.initiative["a-2"] == state.initiative["a"] - 1
    assert state.order.index("a-2") == state.order.index("a") + 1
    assert conditions.held_counters(a) == a.squares
    assert movement.move_points(new) == new.rate
    assert "move" not in kinds(state, "a")


@pytest.mark.rule("W35-DEC-21", "W35-AMB-37")
def test_an_engaged_unit_is_not_offered_the_split() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 2, 3, 1))
    state.engage("a", "b")
    battle = make_battle(state)
    seen = record(battle)
    a = get(state, "a")
    conditions.hinder(state, battle, a, 3, "zero", 2, "hold person")
    assert conditions.held_counters(a) == {(0, 1), (1, 1), (2, 1)}
    assert not [d for d in seen if d.kind == "hindered"] and "a-2" not in state.units


@pytest.mark.rule("W35-AMB-94", "W35-SPELL-07")
def test_a_held_unit_may_later_split_up_leaving_only_its_held_counters() -> None:
    state = facing(block(0, 2, 3, 2), block(0, 7, 3, 1))
    battle = make_battle(state, orders={"A": ["split a 0,2;1,2;2,2 0,-2"]})
    a = get(state, "a")
    conditions.hinder(state, battle, a, 3, "zero", 2, "hold person")
    options = movement.move_options(state, a)
    assert options and {o.kind for o in options} == {"split"}
    assert all(not (movement.parse_squares(str(o.args[1])) or set()) & a.held for o in options)
    bad = movement.judge_move(state, a, Order.parse("split a 0,3;1,3;2,3 0,1"))
    assert isinstance(bad, Refusal) and bad.rule == "W35-SPELL-07"
    unit_action(state, battle, a)
    assert get(state, "a-2").squares == {(0, 0), (1, 0), (2, 0)}
    assert a.squares == {(0, 3), (1, 3), (2, 3)}


@pytest.mark.rule("W35-SPELL-08")
def test_slowed_counters_halve_the_unit_and_move_with_it() -> None:
    state = facing(block(0, 4, 3, 2), block(0, 10, 3, 1))
    battle = make_battle(state, orders={"A": ["move a 1,0"]})
    a = get(state, "a")
    conditions.hinder(state, battle, a, 3, "half", 0, "slow")
    assert movement.move_points(a) == a.rate / 2 == 2
    unit_action(state, battle, a)
    assert a.squares == set(block(1, 4, 3, 2))
    assert conditions.held_counters(a) == {(1, 5), (2, 5), (3, 5)}
    verdict = movement.judge_move(state, a, Order.parse("move a 3,0"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-UMOVE-02"


@pytest.mark.rule("W35-SPELL-08", "W35-AMB-94", "W35-DEC-21")
def test_free_counters_carry_the_held_ones_behind_the_line() -> None:
    state = facing(block(0, 2, 3, 2), block(0, 7, 3, 1))
    battle = make_battle(state, orders={"A": ["formation a 0,1;1,1;2,1;0,2;1,2;2,2"]})
    a = get(state, "a")
    conditions.hinder(state, battle, a, 3, "zero", 2, "hold person")
    assert conditions.held_counters(a) == {(0, 3), (1, 3), (2, 3)}
    formation.formation_step(state, battle, a)
    assert a.squares == set(block(0, 1, 3, 2))
    assert conditions.held_counters(a) == {(0, 1), (1, 1), (2, 1)}
    assert events(battle, "carried")[0]["counters"] == 3


@pytest.mark.rule("W35-AMB-94")
def test_a_unit_held_whole_cannot_change_formation() -> None:
    state = facing(block(0, 2, 3, 2), block(0, 7, 3, 1))
    battle = make_battle(state)
    seen = record(battle)
    a = get(state, "a")
    conditions.hinder(state, battle, a, 9, "zero", 2, "hold monster")
    assert conditions.held_counters(a) == a.squares
    assert formation.formation_options(state, a) == [Order.of("formation", "a", "keep")]
    assert not [d for d in seen if d.kind == "hindered"]


def test_the_hindrance_ends_when_its_rounds_are_over() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 5, 3, 1))
    battle = make_battle(state)
    a = get(state, "a")
    conditions.hinder(state, battle, a, 3, "zero", 2, "hold person")
    state.round = 2
    conditions.tick(state, battle)
    assert conditions.held_still(a)
    state.round = 3
    conditions.tick(state, battle)
    assert not conditions.held_still(a) and "move" in kinds(state, "a")
    assert len(events(battle, "hindered_ends")) == 1


# ---- counters out of the fight ------------------------------------------------------------


@pytest.mark.rule("W35-SPELL-10", "W35-AMB-57")
def test_charmed_counters_leave_like_damage_and_rejoin_when_the_spell_ends() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 5, 3, 1))
    battle = make_battle(state)
    seen = record(battle)
    a = get(state, "a")
    conditions.disable(state, battle, a, 2, 2, "charm person")
    assert [d.kind for d in seen] == ["remove_counters"]
    assert a.squares == {(2, 0), (0, 1), (1, 1), (2, 1)} and a.hp == 40
    assert "first_damage" in a.pending  # damage for morale
    state.round = 3
    conditions.tick(state, battle)
    assert a.squares == set(block(0, 0, 3, 2)) and a.hp == 60
    [back] = events(battle, "disabled_return")
    assert (back["rejoined"], back["new"], back["counters"]) == (2, None, 2)


@pytest.mark.rule("W35-AMB-57", "W35-AMB-62")
def test_counters_rejoining_a_unit_that_split_meanwhile_bring_their_hp_back() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 9, 3, 1))
    battle = make_battle(state)
    a = get(state, "a")
    conditions.disable(state, battle, a, 1, 2, "charm person")
    assert a.squares == {(1, 0), (2, 0), (0, 1), (1, 1), (2, 1)} and a.hp == 50
    movement.take_split(state, battle, a, Order.parse("split a 2,0;2,1 2,0"))
    assert (a.hp, a.start_hp) == (30, 30)
    state.round = 3
    conditions.tick(state, battle)
    assert a.squares == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert (a.hp, a.start_hp) == (40, 40)


@pytest.mark.rule("W35-SPELL-12", "W35-DEC-22", "W35-AMB-57")
def test_counters_coming_back_apart_form_a_new_unit_at_initiative_minus_one() -> None:
    state = counted(make_state([unit("a", squares=block(0, 0, 3, 2)),
                                unit("c", squares=[(5, 5)]),
                                unit("b", "B", squares=block(0, 9, 3, 1))]))
    battle = make_battle(state, orders={"A": ["return_to a 1,1"]})
    seen = record(battle)
    a = get(state, "a")
    conditions.disable(state, battle, a, 2, 2, "charm person")
    state.place(a, set(block(10, 5, 2, 2)))  # it moved away meanwhile
    state.place(get(state, "c"), {(0, 0)})  # and an ally stands on a counter's old square
    state.round = 3
    conditions.tick(state, battle)
    [asked] = [d for d in seen if d.kind == "return_square"]
    assert asked.default == Order.of("return_to", "a", "0,1")
    new = get(state, "a-2")
    assert new.squares == {(1, 1), (1, 0)} and (new.hp, new.start_hp) == (20, 20)
    assert new.status == FIGHTING and a.hp == 40
    assert state.initiative["a-2"] == state.initiative["a"] - 1


@pytest.mark.rule("W35-DEC-22")
def test_the_commander_may_let_the_left_behind_counters_go() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 9, 3, 1))
    battle = make_battle(state, orders={"A": ["leave_battle a"]})
    a = get(state, "a")
    conditions.disable(state, battle, a, 2, 2, "charm person")
    state.place(a, set(block(10, 5, 2, 2)))
    state.round = 3
    conditions.tick(state, battle)
    assert "a-2" not in state.units and a.hp == 40 and not state.absent


@pytest.mark.rule("W35-AMB-57")
def test_a_unit_charmed_whole_is_vanquished_and_comes_back_as_a_new_unit() -> None:
    state = facing(block(0, 0, 2, 1), block(0, 9, 3, 1))
    battle = make_battle(state)
    a = get(state, "a")
    conditions.disable(state, battle, a, 5, 3, "mass charm")
    assert a.status == VANQUISHED and a.hp == 0
    state.round = 4
    conditions.tick(state, battle)
    new = get(state, "a-2")
    assert new.squares == {(0, 0), (1, 0)} and new.hp == 20


@pytest.mark.rule("W35-SPELL-11")
def test_a_random_number_of_creatures_takes_out_the_rolled_counters() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 9, 3, 1))
    battle = make_battle(state, dice=[3])
    a = get(state, "a")
    rolled = battle.dice.roll("1d4", "confusion: counters")
    conditions.disable(state, battle, a, rolled, 1, "confusion")
    assert (a.counters, a.hp) == (3, 30)
    assert events(battle, "disabled")[0]["counters"] == 3


# ---- fear and turning ---------------------------------------------------------------------


@pytest.mark.rule("W35-SPELL-13", "W35-AMB-73")
def test_fear_covering_the_whole_unit_routs_it_without_a_check() -> None:
    state = facing(block(0, 0, 3, 2), block(0, 9, 3, 1))
    battle = make_battle(state)
    a = get(state, "a")
    conditions.frighten(state, battle, a, True, "fear")
    assert a.status == ROUTED and not events(battle, "morale_check")


@pytest.mark.rule("W35-SPELL-13")
@pytest.mark.parametrize(("roll", "status"), [(14, ROUTED), (15, FIGHTING)])
def test_fear_on_part_of_a_unit_calls_for_a_dc_15_check(roll: int, status: str) -> None:
    state = facing(block(0, 0, 3, 2), block(0, 9, 3, 1))
    battle = make_battle(state, dice=[roll])
    a = get(state, "a")
    a.morale = 0
    conditions.frighten(state, battle, a, False, "cause fear")
    [check] = events(battle, "morale_check")
    assert (check["dc"], check["why"]) == (15, "fear") and a.status == status


def test_units_that_never_check_morale_ignore_fear() -> None:
    state = make_state([unit("z", squares=block(0, 0, 3, 1), count=30, creature=zombie()),
                        unit("b", "B", squares=block(0, 9, 3, 1))])
    battle = make_battle(state)
    z = get(state, "z")
    conditions.frighten(state, battle, z, True, "fear")
    assert z.status == FIGHTING and events(battle, "frightened")[0]["immune"]


@pytest.mark.rule("W35-SPELL-14", "W35-SPELL-15", "W35-SPELL-16", "W35-AMB-73")
def test_turning_the_whole_unit_routs_it_for_ten_rounds_even_when_immune() -> None:
    # 3 counters of 10 zombies of 2 HD: 60 HD turn 60 / 2 / 10 = 3 counters, the whole unit.
    state = make_state([unit("z", "B", squares=block(0, 9, 3, 1), count=30, creature=zombie())],
                       singles=[single("cleric", at=(0, 0), kind="monster")])
    battle = make_battle(state)
    z = get(state, "z")
    conditions.turn_undead(state, battle, state.singles["cleric"], z, 60)
    [turned] = events(battle, "turned")
    assert (turned["counters"], turned["whole"]) == (3, True)
    assert z.status == ROUTED and not events(battle, "morale_check")
    for rnd in range(2, 11):
        state.round = rnd
        conditions.tick(state, battle)
        assert z.status == ROUTED
    state.round = 11
    conditions.tick(state, battle)
    assert z.status == FIGHTING and len(events(battle, "rout_ends")) == 1


@pytest.mark.rule("W35-AMB-73")
def test_a_turned_unit_makes_no_rally_check_until_the_turning_ends() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1)),
                        unit("b", "B", squares=block(0, 9, 3, 1))],
                       singles=[single("cleric", "B", at=(10, 10), kind="monster")])
    battle = make_battle(state, dice=[20] * 5)
    a = get(state, "a")
    conditions.turn_undead(state, battle, state.singles["cleric"], a, 30)
    for rnd in (2, 3):
        state.round = rnd
        conditions.tick(state, battle)
        assert not morale.morale_step(state, battle, a)
    assert a.status == ROUTED and not events(battle, "morale_check")


@pytest.mark.rule("W35-SPELL-14", "W35-SPELL-15")
def test_turning_fewer_counters_sends_those_away_for_ten_rounds() -> None:
    # 59 HD: floor(59 / 2 / 10) = 2 counters of the 3 flee (ruled as taken out of the fight).
    state = make_state([unit("z", "B", squares=block(0, 9, 3, 1), count=30, creature=zombie())],
                       singles=[single("cleric", at=(0, 0), kind="monster")])
    battle = make_battle(state)
    z = get(state, "z")
    conditions.turn_undead(state, battle, state.singles["cleric"], z, 59)
    assert (z.counters, z.status) == (1, FIGHTING)
    [gone] = state.absent
    assert gone.ends == 11
