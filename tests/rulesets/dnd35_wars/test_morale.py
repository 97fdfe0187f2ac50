"""Morale in dnd35-wars: triggers queued and rolled at step 1, the check and its modifiers,
rout, rally, scattering, PCs and morale, regeneration."""

from __future__ import annotations

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
from warhost.core.errors import IllegalOrderError
from warhost.rulesets.dnd35_wars import morale
from warhost.rulesets.dnd35_wars.game import check_end, play, unit_turn
from warhost.rulesets.dnd35_wars.state import Unit, WarState


def hurt(state: WarState, battle: Any, target: Unit, lost: int, kind: str = "melee",
         attacker: Any = None) -> None:
    """Take ``lost`` HP off ``target`` and tell morale, as the damage module does."""
    target.hp -= lost
    morale.note_damage(state, battle, target, lost, kind=kind, attacker=attacker)


def two_units(**kwargs: Any) -> WarState:
    return make_state([unit("a", squares=block(5, 5, 2, 2)), unit("b", "B", squares=[(5, 8)])],
                      **kwargs)


# --------------------------------------------------------------------------- queue and check


@pytest.mark.rule("W35-MORALE-01", "W35-AMB-16", "W35-AMB-17")
def test_triggers_wait_for_the_next_turn_and_one_check_meets_the_highest_dc() -> None:
    state = two_units()
    a, b = get(state, "a"), get(state, "b")
    battle = make_battle(state, dice=[15])
    hurt(state, battle, a, 20, "ranged", b)  # 40 -> 20 HP: first damage and half HP
    morale.note_flanked(state, a)
    assert events(battle, "morale_check") == []  # nothing rolled yet
    assert a.pending == {"first_damage", "half_hp", "flanked"}
    assert morale.morale_step(state, battle, a) is True
    [check] = events(battle, "morale_check")
    assert (check["dc"], check["why"], check["roll"], check["passed"]) == (15, "half_hp", 15, True)
    assert a.pending == set()
    assert {"first_damage", "half_hp", "flanked"} <= a.used_triggers
    hurt(state, battle, a, 1, "ranged", b)  # one-time triggers do not come back
    morale.note_flanked(state, a)
    assert a.pending == set()
    assert morale.morale_step(state, battle, a) is True
    assert len(events(battle, "morale_check")) == 1


@pytest.mark.rule("W35-MORALE-02", "W35-STAT-01", "W35-STAT-02", "W35-STAT-03", "W35-STAT-04")
def test_the_check_adds_the_morale_score_built_from_the_unit_factors() -> None:
    vet = creature("veteran", cha=12, alignment="lawful neutral", **{"class": "fighter"})
    state = make_state([unit("a", squares=[(5, 5)], creature=vet, training_months=8, battles=1),
                        unit("b", "B", squares=[(5, 8)])])
    a = get(state, "a")
    assert a.morale == 1 + 1 + 1 + 2 + 1  # Cha, fighters, lawful, 8 months, one battle
    battle = make_battle(state, dice=[9, 8])
    assert morale.check(state, battle, a, 15, "half_hp") is True
    assert morale.check(state, battle, a, 15, "half_hp") is False
    assert [(e["roll"], e["total"]) for e in events(battle, "morale_check")] == [(9, 15), (8, 14)]


@pytest.mark.rule("W35-AMB-15")
def test_natural_twenty_and_one_decide_the_check_unless_the_option_is_off() -> None:
    state = two_units()
    a = get(state, "a")
    a.morale = 10
    battle = make_battle(state, dice=[1, 20])
    assert morale.check(state, battle, a, 8, "first_damage") is False
    a.morale = -10
    assert morale.check(state, battle, a, 20, "rally", fleeing=True) is True
    off = two_units(options={"morale_natural_rolls": False})
    c = get(off, "a")
    c.morale = 10
    battle = make_battle(off, dice=[1, 20])
    assert morale.check(off, battle, c, 8, "first_damage") is True
    c.morale = -10
    assert morale.check(off, battle, c, 20, "rally") is False


def leader_state(**options: Any) -> WarState:
    return make_state([unit("a", squares=block(5, 5, 2, 2)), unit("b", "B", squares=[(5, 9)])],
                      singles=[single("hero", "A", "pc", unit="a", role="leader",
                                      leadership=True)],
                      options=options)


@pytest.mark.rule("W35-MORALE-04", "W35-AMB-79", "W35-AMB-80")
def test_a_pc_leader_with_leadership_adds_two_its_charisma_and_its_level() -> None:
    state = leader_state()
    a = get(state, "a")
    battle = make_battle(state, dice=[5, 5, 5])
    morale.check(state, battle, a, 10, "flanked")
    capped = leader_state(leadership_morale_cap=3)
    morale.check(capped, battle, get(capped, "a"), 10, "flanked")
    hero = who(state, "hero")  # the leader leaves the unit: no more bonus
    a.singles.remove("hero")
    hero.host = None
    morale.check(state, battle, a, 10, "flanked")
    totals = [e["total"] for e in events(battle, "morale_check")]
    assert totals == [5 + 2 + 2 + 5, 5 + 2 + 2 + 3, 5]


@pytest.mark.rule("W35-MORALE-04", "W35-AMB-80")
def test_an_npc_leader_gives_only_its_leadership_level() -> None:
    state = make_state([unit("a", squares=block(5, 5, 2, 2)), unit("b", "B", squares=[(5, 9)])],
                       singles=[single("sarge", "A", "npc", unit="a", role="leader",
                                       leadership=True)])
    battle = make_battle(state, dice=[4])
    morale.check(state, battle, get(state, "a"), 10, "flanked")
    assert events(battle, "morale_check")[0]["total"] == 4 + 5


@pytest.mark.rule("W35-MORALE-05", "W35-AMB-81")
def test_morale_effects_give_the_highest_bonus_and_every_penalty() -> None:
    state = two_units()
    a = get(state, "a")
    battle = make_battle(state, dice=[10, 10, 10])
    morale.add_morale_effect(a, "bless", 1)
    morale.add_morale_effect(a, "heroism", 2)
    morale.check(state, battle, a, 10, "flanked")
    morale.add_morale_effect(a, "doom", -2)
    morale.check(state, battle, a, 10, "flanked")
    morale.end_morale_effect(a, "heroism")
    morale.check(state, battle, a, 10, "flanked")
    assert [e["total"] for e in events(battle, "morale_check")] == [12, 10, 9]


@pytest.mark.rule("W35-MORALE-04", "W35-MORALE-06")
def test_an_enslaved_unit_checks_at_minus_four() -> None:
    state = make_state([unit("a", squares=[(5, 5)], enslaved=True),
                        unit("b", "B", squares=[(5, 8)])])
    battle = make_battle(state, dice=[12])
    assert morale.check(state, battle, get(state, "a"), 10, "flanked") is False
    assert events(battle, "morale_check")[0]["total"] == 8


@pytest.mark.rule("W35-PC-11", "W35-AMB-21")
def test_a_pc_deed_helps_its_own_unit_for_the_next_check_only() -> None:
    state = leader_state()
    a = get(state, "a")
    a.leader = None  # only "contains a PC" (+2) stays
    battle = make_battle(state, dice=[6, 6])
    morale.pc_action(state, battle, who(state, "hero"), "slew_leader")
    morale.pc_action(state, battle, who(state, "hero"), "slew_tenth")
    morale.check(state, battle, a, 10, "flanked")
    morale.check(state, battle, a, 10, "flanked")
    assert [e["total"] for e in events(battle, "morale_check")] == [6 + 2 + 2 + 1, 6 + 2]
    assert [e["value"] for e in events(battle, "pc_morale")] == [2, 1]


@pytest.mark.rule("W35-AMB-21")
def test_pc_deeds_can_last_the_whole_battle_by_option() -> None:
    state = leader_state(pc_action_morale_duration="rest_of_battle")
    a = get(state, "a")
    a.leader = None
    battle = make_battle(state, dice=[6, 6])
    morale.pc_action(state, battle, who(state, "hero"), "fled_or_down")
    morale.check(state, battle, a, 10, "flanked")
    morale.check(state, battle, a, 10, "flanked")
    assert [e["total"] for e in events(battle, "morale_check")] == [4, 4]


@pytest.mark.rule("W35-AMB-21", "W35-AMB-18")
def test_a_lone_pc_deed_reaches_allied_units_nearby_that_see_it() -> None:
    state = make_state(
        [unit("near", squares=[(5, 5)]), unit("far", squares=[(5, 17)]),
         unit("hidden", squares=[(14, 10)]), unit("foe", "B", squares=[(30, 20)])],
        terrain=[{"rect": [[12, 9], [12, 11]], "kind": "clear", "blocks_sight": True}],
        singles=[single("hero", "A", "pc", unit="near")])
    hero = who(state, "hero")
    get(state, "near").singles.remove("hero")
    hero.host = None
    state.put_single(hero, (10, 10))  # near: 5 squares; far: 7; hidden: behind the wall
    battle = make_battle(state)
    morale.pc_action(state, battle, hero, "slew_officer")
    assert [e["unit"] for e in events(battle, "pc_morale")] == ["near"]
    assert get(state, "near").morale_mods == [1] and get(state, "hidden").morale_mods == []


# --------------------------------------------------------------------------- the triggers


@pytest.mark.rule("W35-MORALE-03", "W35-AMB-92")
def test_first_damage_needs_a_real_loss_of_hit_points() -> None:
    state = two_units()
    a = get(state, "a")
    battle = make_battle(state)
    hurt(state, battle, a, 0, attacker=get(state, "b"))
    assert a.pending == set() and a.used_triggers == set()
    hurt(state, battle, a, 1, kind="ranged", attacker=get(state, "b"))
    assert a.pending == {"first_damage"}


@pytest.mark.rule("W35-MORALE-03")
def test_siege_or_area_damage_and_a_leader_lost_call_for_checks() -> None:
    state = two_units()
    a = get(state, "a")
    battle = make_battle(state, dice=[14])
    a.used_triggers.add("first_damage")
    hurt(state, battle, a, 2, kind="area")
    assert a.pending == {"siege_or_area"}
    morale.leader_lost(state, battle, a)
    morale.morale_step(state, battle, a)
    assert events(battle, "morale_check")[0]["dc"] == 20
    assert get(state, "a").routed


@pytest.mark.rule("W35-AMB-91", "W35-AMB-16")
def test_half_and_quarter_hp_fire_once_each_and_together_give_one_dc_20_check() -> None:
    state = two_units()
    a = get(state, "a")  # 40 HP
    battle = make_battle(state, dice=[20])
    hurt(state, battle, a, 19)  # 21 HP: not yet half
    assert "half_hp" not in a.pending
    hurt(state, battle, a, 11)  # 10 HP: half and quarter at once (equality counts)
    assert {"half_hp", "quarter_hp"} <= a.pending
    morale.morale_step(state, battle, a)
    assert [e["dc"] for e in events(battle, "morale_check")] == [20]
    hurt(state, battle, a, 5)
    assert a.pending == set()


@pytest.mark.rule("W35-AMB-83")
def test_a_one_sided_melee_round_is_judged_since_the_previous_turn_began() -> None:
    state = two_units()
    a, b = get(state, "a"), get(state, "b")
    a.used_triggers.add("first_damage")
    b.used_triggers.add("first_damage")
    battle = make_battle(state, dice=[10])
    morale.morale_step(state, battle, a)  # a's turn begins
    hurt(state, battle, b, 3, attacker=a)  # a strikes in its own turn
    hurt(state, battle, a, 4, attacker=b)  # b strikes back in its turn
    morale.morale_step(state, battle, a)
    assert events(battle, "morale_check") == []  # both sides lost HP in a's period
    hurt(state, battle, a, 4, kind="charge", attacker=b)  # now only a loses HP
    morale.morale_step(state, battle, a)
    [check] = events(battle, "morale_check")
    assert (check["dc"], check["why"]) == (10, "melee_one_sided")


@pytest.mark.rule("W35-AMB-83")
def test_ranged_losses_are_not_a_one_sided_melee() -> None:
    state = two_units()
    a, b = get(state, "a"), get(state, "b")
    a.used_triggers.add("first_damage")
    battle = make_battle(state)
    hurt(state, battle, a, 4, kind="ranged", attacker=b)
    assert morale.morale_step(state, battle, a) is True
    assert events(battle, "morale_check") == []


@pytest.mark.rule("W35-AMB-20")
def test_a_hit_by_an_enemy_of_three_times_the_hp_before_the_damage() -> None:
    giant = creature("giant", hp=120)
    state = make_state([unit("a", squares=block(5, 5, 2, 2)), unit("b", "B", squares=[(5, 9)])],
                       singles=[single("g", "B", "monster", at=(7, 7), creature=giant)])
    a = get(state, "a")
    battle = make_battle(state)
    hurt(state, battle, a, 5, attacker=who(state, "g"))  # 120 >= 3 x 40
    assert "three_times" in a.pending
    a.pending.clear()
    who(state, "g").hp = 104
    hurt(state, battle, a, 1, attacker=who(state, "g"))  # 104 < 3 x 35
    assert "three_times" not in a.pending


@pytest.mark.rule("W35-AMB-19")
def test_a_ferocious_attacker_triggers_dc_15_hit_or_miss() -> None:
    dragon = creature("dragon", type="dragon", hp=200)
    tame = creature("tame dragon", type="dragon", hp=200, ferocious=False)
    wolf = creature("dire wolf", type="animal", hp=45, ferocious=True)
    state = make_state([unit("a", squares=[(5, 5)]), unit("c", squares=[(9, 5)]),
                        unit("d", squares=[(13, 5)]), unit("b", "B", squares=[(5, 9)])],
                       singles=[single("red", "B", "monster", at=(5, 7), creature=dragon),
                                single("pet", "B", "monster", at=(9, 7), creature=tame),
                                single("wolf", "B", "monster", at=(13, 7), creature=wolf)])
    morale.note_attacked(state, get(state, "a"), who(state, "red"))
    morale.note_attacked(state, get(state, "c"), who(state, "pet"))
    morale.note_attacked(state, get(state, "d"), who(state, "wolf"))
    assert get(state, "a").pending == {"ferocious"} == get(state, "d").pending
    assert get(state, "c").pending == set()


@pytest.mark.rule("W35-AMB-39")
def test_flanked_triggers_dc_10_only_the_first_time() -> None:
    state = two_units()
    a = get(state, "a")
    battle = make_battle(state, dice=[12])
    morale.note_flanked(state, a)
    morale.morale_step(state, battle, a)
    morale.note_flanked(state, a)
    morale.morale_step(state, battle, a)
    assert [e["dc"] for e in events(battle, "morale_check")] == [10]


def friends_state(gap: int, wall: bool = False) -> WarState:
    terrain = [{"rect": [[8, 4], [8, 7]], "kind": "clear", "blocks_sight": True}] if wall else []
    return make_state([unit("a", squares=block(5, 5, 2, 2)),
                       unit("f", squares=block(7 + gap - 1, 5, 2, 2)),
                       unit("b", "B", squares=[(20, 20)])], terrain=terrain)


@pytest.mark.rule("W35-AMB-18", "W35-MORALE-03")
@pytest.mark.parametrize(("gap", "wall", "seen"), [(6, False, True), (7, False, False),
                                                   (3, True, False)])
def test_a_friend_fleeing_nearby_is_seen_within_six_squares_in_line_of_sight(
        gap: int, wall: bool, seen: bool) -> None:
    state = friends_state(gap, wall)
    battle = make_battle(state)
    morale.unit_gone(state, battle, get(state, "f"), "fled")
    assert (get(state, "a").pending == {"friend_fleeing"}) is seen


@pytest.mark.rule("W35-AMB-18", "W35-MORALE-03")
def test_a_friend_wiped_out_is_seen_on_the_squares_it_last_held() -> None:
    state = friends_state(4)
    f = get(state, "f")
    battle = make_battle(state)
    hurt(state, battle, f, f.hp, attacker=get(state, "b"))  # told before the counters go
    state.remove_counters(f, set(f.squares))
    morale.unit_gone(state, battle, f, "wiped")
    assert get(state, "a").pending == {"friend_wiped"}


@pytest.mark.rule("W35-AMB-18")
def test_friends_see_a_unit_rout_nearby() -> None:
    state = friends_state(2)
    battle = make_battle(state)
    morale.rout(state, battle, get(state, "f"), "leader_lost")
    assert get(state, "a").pending == {"friend_fleeing"}


@pytest.mark.rule("W35-MORALE-13", "W35-STAT-05")
@pytest.mark.parametrize("fields", [{"undead": True}, {"int": 3}, {"int": None},
                                    {"mind_controlled": True}])
def test_immune_units_never_check_morale(fields: dict[str, Any]) -> None:
    state = make_state([unit("a", squares=block(5, 5, 2, 2), creature=creature(**fields)),
                        unit("b", "B", squares=[(5, 8)])])
    a = get(state, "a")
    battle = make_battle(state)  # no dice: any roll would fail the test
    hurt(state, battle, a, 30, attacker=get(state, "b"))
    morale.leader_lost(state, battle, a)
    assert a.pending == set()
    assert morale.morale_step(state, battle, a) is True


@pytest.mark.rule("W35-TYPE-11")
def test_a_mounted_unit_checks_with_its_riders_morale() -> None:
    rider = creature("knight", cha=14, alignment="lawful good", **{"class": "fighter"})
    state = make_state([unit("k", squares=[(5, 5)], count=2, creature=rider,
                             mount={"size": "large", "speed": 50}),
                        unit("f", squares=[(9, 5)], creature=rider),
                        unit("b", "B", squares=[(5, 9)])])
    k = get(state, "k")
    assert k.mounted and not k.morale_immune
    assert k.morale == get(state, "f").morale == 2 + 1 + 1


# --------------------------------------------------------------------------- rout and rally


@pytest.mark.rule("W35-MORALE-07", "W35-AMB-17")
def test_a_failed_check_routs_at_once_dropping_phalanx_and_set() -> None:
    state = two_units()
    a = get(state, "a")
    a.phalanx = a.set_vs_charge = True
    a.pending.add("leader_lost")
    battle = make_battle(state, dice=[10])
    assert morale.morale_step(state, battle, a) is False
    assert a.routed and not a.phalanx and not a.set_vs_charge
    assert events(battle, "rout")[0]["why"] == "leader_lost"


@pytest.mark.rule("W35-MORALE-07", "W35-MORALE-11")
def test_a_routed_unit_flees_instead_of_attacking() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])
    a = get(state, "a")
    a.pending.add("leader_lost")
    battle = make_battle(state, dice=[3], orders={"A": ["melee a b"]})
    unit_turn(state, battle, a)
    assert events(battle, "rout") and events(battle, "attack") == []
    assert a.status in ("routed", "fled")


@pytest.mark.rule("W35-MORALE-08", "W35-AMB-65", "W35-AMB-66")
def test_a_routed_unit_rallies_at_dc_20_less_four_from_its_next_turn() -> None:
    state = two_units()
    a = get(state, "a")
    a.morale = 5
    a.pending.add("friend_wiped")
    battle = make_battle(state, dice=[2, 18, 19])
    assert morale.morale_step(state, battle, a) is False  # routs: this turn it flees
    assert morale.morale_step(state, battle, a) is False  # 18 + 5 - 4 = 19: still routed
    assert morale.morale_step(state, battle, a) is True  # 19 + 5 - 4 = 20: rallied
    checks = events(battle, "morale_check")
    assert [(e["dc"], e["total"], e["passed"]) for e in checks] == [
        (20, 7, False), (20, 19, False), (20, 20, True)]
    assert a.status == "fighting" and a.rally_failures == 0 and events(battle, "rally")


@pytest.mark.rule("W35-MORALE-07", "W35-AMB-65")
def test_a_unit_routed_between_its_turns_first_flees_then_tries_to_rally() -> None:
    state = two_units()
    a = get(state, "a")
    battle = make_battle(state, dice=[20])
    morale.rout(state, battle, a, "fear")
    assert morale.morale_step(state, battle, a) is False
    assert events(battle, "morale_check") == []
    assert morale.morale_step(state, battle, a) is True
    assert events(battle, "morale_check")[0]["why"] == "rally"


@pytest.mark.rule("W35-MORALE-12", "W35-AMB-65")
def test_two_failed_rallies_in_a_row_scatter_the_unit_leaving_its_npcs_behind() -> None:
    state = make_state([unit("a", squares=block(5, 5, 2, 1)), unit("f", squares=[(5, 8)]),
                        unit("b", "B", squares=[(20, 20)])],
                       singles=[single("sarge", "A", "npc", unit="a")])
    state.initiative = {"a": 15, "f": 12, "b": 10}
    a = get(state, "a")
    battle = make_battle(state, dice=[5, 5])
    morale.rout(state, battle, a, "fear")
    get(state, "f").pending.clear()
    morale.morale_step(state, battle, a)  # flight, no rally yet
    morale.morale_step(state, battle, a)  # first failure
    assert a.routed and a.rally_failures == 1
    morale.morale_step(state, battle, a)  # second failure: scattered
    assert a.status == "scattered" and not a.on_map
    assert all(state.at.get(sq) != "a" for sq in block(5, 5, 2, 1))
    sarge = who(state, "sarge")
    assert sarge.independent and sarge.square == (5, 5) and state.at[(5, 5)] == "sarge"
    assert state.order.index("sarge") == state.order.index("a") + 1
    assert events(battle, "scatter")[0]["left"] == ["sarge"]
    assert get(state, "f").pending == {"friend_fleeing"}


@pytest.mark.rule("W35-MORALE-12")
def test_a_rally_between_failures_restarts_the_count() -> None:
    state = two_units()
    a = get(state, "a")
    a.morale = 4
    battle = make_battle(state, dice=[5, 20, 1, 5])
    morale.rout(state, battle, a, "fear")
    morale.morale_step(state, battle, a)
    morale.morale_step(state, battle, a)  # fails
    morale.morale_step(state, battle, a)  # natural 20: rallies
    a.pending.add("leader_lost")
    morale.morale_step(state, battle, a)  # natural 1: routs again
    morale.morale_step(state, battle, a)  # 5 + 4 - 4: fails once
    assert a.routed and a.rally_failures == 1


@pytest.mark.rule("W35-MORALE-09", "W35-DEC-34")
def test_a_pc_may_stay_behind_when_its_unit_routs() -> None:
    state = make_state([unit("a", squares=block(5, 5, 2, 1)), unit("b", "B", squares=[(5, 9)])],
                       singles=[single("hero", "A", "pc", unit="a"),
                                single("sarge", "A", "npc", unit="a")])
    state.initiative = {"a": 15, "b": 10}
    battle = make_battle(state, orders={"A": ["pc_stay hero 6,6"]})
    morale.rout(state, battle, get(state, "a"), "fear")
    hero = who(state, "hero")
    assert hero.independent and hero.square == (6, 6) and state.at[(6, 6)] == "hero"
    assert get(state, "a").singles == ["sarge"]  # the NPC is never asked
    assert events(battle, "stays_behind")[0]["at"] == [6, 6]


@pytest.mark.rule("W35-MORALE-09")
def test_by_default_a_pc_flees_with_its_unit_and_cannot_stay_on_a_taken_square() -> None:
    state = make_state([unit("a", squares=block(5, 5, 2, 1)), unit("b", "B", squares=[(5, 6)])],
                       singles=[single("hero", "A", "pc", unit="a")])
    battle = make_battle(state)
    morale.rout(state, battle, get(state, "a"), "fear")
    assert who(state, "hero").host == "a"
    other = make_state([unit("a", squares=block(5, 5, 2, 1)), unit("b", "B", squares=[(5, 6)])],
                       singles=[single("hero", "A", "pc", unit="a")])
    with pytest.raises(IllegalOrderError):
        morale.rout(other, make_battle(other, orders={"A": ["pc_stay hero 5,6"]}),
                    get(other, "a"), "fear")


# --------------------------------------------------------------------------- regeneration


def trolls(count: int = 10, **kwargs: Any) -> WarState:
    troll = creature("troll", size="large", hp=63, hd=6, regeneration=True)
    return make_state([unit("t", squares=[(5, 5), (6, 5), (7, 5), (8, 5), (9, 5)][: -(-count // 2)],
                            count=count, creature=troll),
                       unit("b", "B", squares=[(5, 12)])], **kwargs)


@pytest.mark.rule("W35-ABIL-09", "W35-AMB-27")
def test_trolls_regenerate_hd_times_creatures_per_counter_in_even_rounds_before_the_check() -> None:
    state = trolls()
    t = get(state, "t")
    assert t.per_counter == 2 and t.start_hp == 315
    battle = make_battle(state, dice=[15])
    t.hp = 250
    state.round = 3
    morale.morale_step(state, battle, t)
    assert t.hp == 250 and events(battle, "regenerate") == []
    state.round = 4
    t.pending.add("half_hp")
    morale.morale_step(state, battle, t)
    assert t.hp == 262
    kinds = [e["type"] for e in battle.log.events if e["type"] in ("regenerate", "morale_check")]
    assert kinds == ["regenerate", "morale_check"]
    t.hp = 310
    morale.regenerate(state, battle, t)
    assert t.hp == 315  # never above the starting HP


@pytest.mark.rule("W35-ABIL-09", "W35-AMB-09")
def test_regeneration_uses_the_exact_creatures_per_counter_rounded_down_once() -> None:
    state = trolls(count=5)  # 5 Large trolls in 3 counters: 5/3 a counter
    t = get(state, "t")
    t.hp = 100
    assert morale.regenerate(state, make_battle(state), t) == 10  # floor(6 x 5/3)


@pytest.mark.rule("W35-AMB-27")
def test_a_restored_counter_goes_by_default_to_the_rear() -> None:
    state = trolls()
    t = get(state, "t")
    state.remove_counters(t, {(8, 5), (9, 5)})
    t.hp = 189  # 3 counters
    battle = make_battle(state)
    assert morale.regenerate(state, battle, t) == 12
    assert t.counters == 4 and (5, 4) in t.squares and state.at[(5, 4)] == "t"
    assert events(battle, "regenerate")[0]["placed"] == [[5, 4]]


@pytest.mark.rule("W35-AMB-27", "W35-DEC-18")
def test_the_commander_places_the_restored_counter_on_a_legal_square_only() -> None:
    state = trolls()
    t = get(state, "t")
    state.remove_counters(t, {(8, 5), (9, 5)})
    t.hp = 189
    morale.regenerate(state, make_battle(state, orders={"A": ["place_counter t 8,5"]}), t)
    assert (8, 5) in t.squares
    t.hp = 189 + 63
    state.remove_counters(t, {(8, 5)})
    with pytest.raises(IllegalOrderError):
        morale.regenerate(state, make_battle(state, orders={"A": ["place_counter t 9,5"]}), t)


@pytest.mark.rule("W35-AMB-27")
def test_without_room_for_a_counter_its_hp_are_not_regained() -> None:
    state = make_state([unit("t", squares=[(0, 0)], count=2,
                             creature=creature("troll", size="large", hp=63, hd=6,
                                               regeneration=True)),
                        unit("b", "B", squares=[(1, 0), (0, 1)])])
    t = get(state, "t")
    t.start_hp = 126
    t.hp = 60
    assert morale.regenerate(state, make_battle(state), t) == 3
    assert t.hp == 63 and t.counters == 1


@pytest.mark.rule("W35-ABIL-10")
def test_a_regenerating_singular_creature_regains_its_hit_dice_each_turn() -> None:
    troll = creature("troll", size="large", hp=63, hd=6, regeneration=True)
    state = make_state([unit("a", squares=block(5, 5, 2, 2)), unit("b", "B", squares=[(5, 9)])],
                       singles=[single("grol", "A", "npc", unit="a", creature=troll)])
    grol = who(state, "grol")
    grol.hp = 40
    battle = make_battle(state)
    morale.morale_step(state, battle, get(state, "a"))  # an odd round: the unit's turn
    assert grol.hp == 46
    grol.hp = 60
    assert morale.regenerate_single(state, battle, grol) == 3 and grol.hp == 63


@pytest.mark.rule("W35-PC-11", "W35-AMB-21")
def test_a_lone_pc_going_down_is_seen_where_it_fell() -> None:
    state = make_state([unit("near", squares=[(5, 5)]), unit("foe", "B", squares=[(30, 20)])],
                       singles=[single("hero", "A", "pc", unit="near")])
    hero = who(state, "hero")
    get(state, "near").singles.remove("hero")
    hero.host = None
    state.put_single(hero, (8, 8))
    hero.hp, hero.status = 0, "slain"
    state.put_single(hero, None)  # the damage rules take the fallen figure off the map
    battle = make_battle(state)
    morale.pc_action(state, battle, hero, "fled_or_down")
    assert get(state, "near").morale_mods == [-4]


@pytest.mark.rule("W35-AMB-99", "W35-MORALE-08")
def test_a_side_whose_last_unit_routed_is_still_in_the_battle_until_it_is_gone() -> None:
    state = two_units()
    b = get(state, "b")
    battle = make_battle(state)
    morale.rout(state, battle, b, "fear")
    check_end(state, battle, 10, final=False)
    assert not state.over
    morale.scatter(state, battle, b)
    check_end(state, battle, 10, final=False)
    assert (state.over, state.winner) == (True, "A")


@pytest.mark.rule("W35-ABIL-10")
def test_a_lone_regenerating_monster_heals_at_the_start_of_its_turn_in_play() -> None:
    troll = creature("troll", size="large", hp=63, hd=6, regeneration=True)
    state = make_state([unit("a", squares=[(2, 2)]), unit("b", "B", squares=[(20, 20)])],
                       singles=[single("grol", "B", "monster", at=(10, 10), creature=troll)],
                       options={"round_limit": 1})
    state.round = 0
    who(state, "grol").hp = 50
    battle = make_battle(state)
    play(state, battle)
    assert who(state, "grol").hp == 56
    assert [e.get("who") for e in events(battle, "regenerate")] == ["grol"]
