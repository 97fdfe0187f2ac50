"""Attack rolls, criticals, saves, stacking and the four damage pathways of dnd35-wars
(W35-COMBAT, W35-GEN, W35-DMG, W35-UNIT-11..13, W35-STRUCT, W35-ABIL-08)."""

from __future__ import annotations

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
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import damage, morale
from warhost.rulesets.dnd35_wars.state import Single, UnitAttack, WarState


def _alone(state: WarState, sid: str, sq: tuple[int, int]) -> Single:
    """Take an embedded PC out of its unit and stand it on ``sq``."""
    pc = who(state, sid)
    get(state, str(pc.host)).singles.remove(sid)
    pc.host = None
    state.put_single(pc, sq)
    return pc


def _duel() -> WarState:
    return make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])


# ----------------------------------------------------------------------- attack rolls


@pytest.mark.rule("W35-COMBAT-03")
def test_an_attack_hits_when_the_total_reaches_the_ac() -> None:
    battle = make_battle(_duel(), dice=[11, 10])
    assert damage.roll_attack(battle, 4, 15).hit
    missed = damage.roll_attack(battle, 4, 15)
    assert (missed.roll, missed.total, missed.hit) == (10, 14, False)


@pytest.mark.rule("W35-GEN-02")
def test_a_natural_20_always_hits_and_a_natural_1_always_misses() -> None:
    battle = make_battle(_duel(), dice=[20, 1])
    assert damage.roll_attack(battle, 0, 40, crit_ok=False).hit
    assert not damage.roll_attack(battle, 30, 5).hit


@pytest.mark.rule("W35-GEN-03")
def test_a_threat_needs_a_confirmation_roll_against_the_same_ac() -> None:
    battle = make_battle(_duel(), dice=[19, 11, 19, 10])
    confirmed = damage.roll_attack(battle, 4, 15, crit_range=19)
    assert (confirmed.threat, confirmed.crit, confirmed.confirm) == (True, True, 11)
    failed = damage.roll_attack(battle, 4, 15, crit_range=19)
    assert (failed.hit, failed.threat, failed.crit, failed.confirm) == (True, True, False, 10)


@pytest.mark.rule("W35-GEN-03")
def test_a_miss_in_the_threat_range_is_no_threat() -> None:
    battle = make_battle(_duel(), dice=[19, 20])
    roll = damage.roll_attack(battle, -10, 15, crit_range=19)
    assert (roll.hit, roll.threat, roll.crit) == (False, False, False)
    assert battle.dice.draw(20) == 20  # no confirmation die was taken


@pytest.mark.rule("W35-AMB-89")
def test_crits_follow_option_unit_crits_and_spare_crit_immune_targets() -> None:
    state = make_state([unit("a", squares=[(5, 5)]),
                        unit("b", "B", squares=[(5, 6)], creature=creature(crit_immune=True)),
                        unit("c", "B", squares=[(6, 5)])])
    assert damage.crits_allowed(state, get(state, "a"), get(state, "c"))
    assert not damage.crits_allowed(state, get(state, "a"), get(state, "b"))
    off = make_state([unit("a", squares=[(5, 5)]), unit("c", "B", squares=[(6, 5)])],
                     options={"unit_crits": False})
    assert not damage.crits_allowed(off, get(off, "a"), get(off, "c"))
    battle = make_battle(off, dice=[20, 20])
    roll = damage.roll_attack(battle, 0, 10, crit_ok=False)
    assert (roll.hit, roll.threat, roll.crit) == (True, False, False)


@pytest.mark.rule("W35-GEN-03", "W35-AMB-89", "W35-DMG-02")
def test_a_unit_critical_multiplies_one_counters_roll_before_the_counter_multiplier() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1)),
                        unit("b", "B", squares=block(0, 1, 10, 1), count=100)])
    battle = make_battle(state, dice=[19, 12, 5])
    attack = get(state, "a").melee
    assert attack is not None and attack.crit_multiplier == 2
    roll = damage.roll_attack(battle, attack.bonus, get(state, "b").ac, crit_range=attack.crit_range)
    per = damage.roll_damage(battle, attack, roll.crit)
    assert (roll.crit, per) == (True, (5 + 2) * 2)
    lost = damage.hit_unit(state, battle, get(state, "b"), per, 3, source="a", kind="melee")
    assert lost == 14 * 3 and get(state, "b").hp == 100 - 42


@pytest.mark.rule("W35-COMBAT-07")
def test_a_damage_roll_is_at_least_1() -> None:
    battle = make_battle(_duel(), dice=[1])
    assert damage.roll_damage(battle, UnitAttack(0, "1d4-3"), False) == 1


@pytest.mark.rule("W35-GEN-04")
def test_a_natural_20_always_saves_and_a_natural_1_always_fails() -> None:
    battle = make_battle(_duel(), dice=[20, 1, 9, 10])
    assert damage.roll_save(battle, 0, 40)
    assert not damage.roll_save(battle, 30, 10)
    assert not damage.roll_save(battle, 0, 10)
    assert damage.roll_save(battle, 0, 10)


@pytest.mark.rule("W35-GEN-05")
def test_bonuses_of_one_type_do_not_stack_except_dodge_and_circumstance() -> None:
    assert damage.stack([("morale", 2), ("morale", 1)]) == 2
    assert damage.stack([("morale", 2), ("enhancement", 1)]) == 3
    assert damage.stack([("dodge", 1), ("dodge", 1)]) == 2
    assert damage.stack([("circumstance:flank", 2), ("circumstance:hill", 1)]) == 3
    assert damage.stack([("circumstance:flank", 2), ("circumstance:flank", 2)]) == 2
    assert damage.stack([("morale", -2), ("morale", -2), ("morale", 1)]) == -3
    assert damage.stack([("", 1), ("untyped", 1)]) == 2


# -------------------------------------------------------------- unit against unit, pooled


@pytest.mark.rule("W35-DMG-03", "W35-UNIT-11", "W35-UNIT-12", "W35-UNIT-13", "W35-DMG-17")
def test_pooled_damage_removes_a_counter_each_time_a_counters_hp_is_paid() -> None:
    state = make_state([unit("a", squares=[(0, 0)]),
                        unit("b", "B", squares=block(0, 1, 10, 1), count=100)])
    battle = make_battle(state)
    b = get(state, "b")
    assert damage.hit_unit(state, battle, b, 9, 4, source="a", kind="melee") == 36
    assert (b.hp, b.counters) == (64, 7)  # ceil(64 / 10)
    damage.apply_to_unit(state, battle, b, 3, "a")
    assert (b.hp, b.counters) == (61, 7)  # 3 carried over
    damage.apply_to_unit(state, battle, b, 1, "a")
    assert (b.hp, b.counters) == (60, 6)
    removed = events(battle, "counters_removed")
    assert [len(e["squares"]) for e in removed] == [3, 1]


@pytest.mark.rule("W35-DMG-18", "W35-AMB-90", "W35-DEC-19")
def test_by_default_the_counters_farthest_from_the_enemy_go() -> None:
    state = make_state([unit("a", squares=block(0, 3, 3, 1)),
                        unit("b", "B", squares=block(0, 0, 3, 3), count=90)])
    battle = make_battle(state)
    damage.apply_to_unit(state, battle, get(state, "b"), 30, "a", attacker=get(state, "a"))
    assert get(state, "b").squares == set(block(0, 1, 3, 2))  # the rear rank y=0 went


@pytest.mark.rule("W35-DMG-18", "W35-DEC-19")
def test_the_defender_may_pick_another_legal_set_of_counters() -> None:
    state = make_state([unit("a", squares=block(0, 3, 3, 1)),
                        unit("b", "B", squares=block(0, 0, 3, 3), count=90)])
    battle = make_battle(state, orders={"B": ["remove b 2,0 2,1 2,2"]})
    damage.apply_to_unit(state, battle, get(state, "b"), 30, "a", attacker=get(state, "a"))
    assert get(state, "b").squares == set(block(0, 0, 2, 3))


@pytest.mark.rule("W35-AMB-90", "W35-DMG-18")
def test_a_removal_that_splits_or_holes_the_formation_is_refused() -> None:
    state = make_state([unit("b", "B", squares=block(0, 0, 3, 3), count=90)])
    b = get(state, "b")
    assert isinstance(damage.judge_removal(b, 1, True, Order.parse("remove b 1,1")), Refusal)
    assert isinstance(damage.judge_removal(b, 3, True, Order.parse("remove b 1,0 1,1 1,2")),
                      Refusal)
    assert isinstance(damage.judge_removal(b, 2, True, Order.parse("remove b 0,0")), Refusal)
    assert isinstance(damage.judge_removal(b, 1, True, Order.parse("remove b 9,9")), Refusal)
    ok = damage.judge_removal(b, 1, True, Order.parse("remove b 2,2"))
    assert ok == Order.of("remove", "b", "2,2")
    assert not isinstance(damage.judge_removal(b, 1, False, Order.parse("remove b 1,1")),
                          Refusal)
    choices = damage.removal_choices(state, b, 3)
    assert len(choices) > 1 and all(len(c) == 3 for c in choices)


@pytest.mark.rule("W35-DMG-17")
def test_a_unit_with_no_counters_is_vanquished_and_its_creatures_stay_behind() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=block(5, 6, 2, 1),
                                                          count=20)],
                       singles=[single("cap", "B", unit="b")])
    state.engage("a", "b")
    battle = make_battle(state)
    damage.apply_to_unit(state, battle, get(state, "b"), 50, "a", attacker=get(state, "a"))
    b, cap = get(state, "b"), who(state, "cap")
    assert (b.status, b.hp, b.counters) == ("vanquished", 0, 0)
    assert state.foes_engaged("a") == set()
    assert cap.host is None and cap.independent and cap.square in {(5, 6), (6, 6)}
    assert state.occupant(cap.square) == "cap" and "cap" in state.order
    assert events(battle, "vanquished")[0]["freed"] == ["cap"]


# ---------------------------------------------------------------- DR and structures


@pytest.mark.rule("W35-STAT-09", "W35-STRUCT-05", "W35-AMB-88")
def test_creature_dr_comes_off_the_single_roll_before_the_multiplier() -> None:
    state = make_state([unit("a", squares=[(0, 0)]),
                        unit("b", "B", squares=block(0, 1, 10, 1), count=100,
                             creature=creature(dr=5))])
    battle = make_battle(state)
    assert damage.hit_unit(state, battle, get(state, "b"), 8, 4, source="a", kind="melee") == 12
    assert damage.hit_unit(state, battle, get(state, "b"), 5, 4, source="a", kind="melee") == 0


def _fort(guarding: bool = False, hp: int = 50) -> WarState:
    return make_state([unit("a", squares=[(0, 0)]),
                       unit("b", "B", squares=block(0, 1, 4, 1), count=40,
                            guarding_walls=guarding)],
                      structures=[{"id": "wall", "type": "wooden", "rect": [[0, 1], [5, 1]],
                                   "hp": hp, "hardness": 5}])


@pytest.mark.rule("W35-STRUCT-01", "W35-STRUCT-02", "W35-STRUCT-05", "W35-AMB-88")
def test_structure_dr_protects_a_unit_guarding_the_walls_or_firing() -> None:
    state = _fort(guarding=True)
    battle = make_battle(state)
    assert damage.hit_unit(state, battle, get(state, "b"), 8, 2, source="a", kind="ranged") == 12
    fired = _fort()
    get(fired, "b").exposed = True
    assert damage.hit_unit(fired, make_battle(fired), get(fired, "b"), 8, 2, source="a",
                           kind="ranged") == 12


@pytest.mark.rule("W35-STRUCT-03", "W35-AMB-45")
def test_a_unit_in_a_fortification_neither_exposed_nor_attacking_takes_no_damage() -> None:
    state = _fort()
    battle = make_battle(state)
    b = get(state, "b")
    assert damage.sheltered(state, b)
    assert damage.hit_unit(state, battle, b, 30, 4, source="a", kind="ranged") == 0
    assert b.hp == 40 and events(battle, "unharmed")[0]["reason"] == "sheltered"


@pytest.mark.rule("W35-AMB-45")
def test_a_breached_section_gives_neither_dr_nor_shelter() -> None:
    state = _fort()
    state.structure_hp["wall"] = 0
    battle = make_battle(state)
    assert damage.hit_unit(state, battle, get(state, "b"), 8, 2, source="a", kind="ranged") == 16


@pytest.mark.rule("W35-ABIL-08", "W35-AMB-74")
def test_mundane_weapons_do_nothing_to_immune_creatures_but_magic_ones_do() -> None:
    wraith = creature("wraith", mundane_immune=True, hp=20)
    state = make_state([unit("a", squares=[(0, 0)]),
                        unit("b", "B", squares=block(0, 1, 2, 1), count=20, creature=wraith)],
                       singles=[single("w", "B", "monster", at=(9, 9), creature=wraith)])
    battle = make_battle(state)
    b = get(state, "b")
    assert damage.hit_unit(state, battle, b, 9, 2, source="a", kind="melee") == 0
    assert damage.hit_unit(state, battle, b, 9, 2, source="a", kind="melee", magic=True) == 18
    assert damage.hit_single(state, battle, who(state, "w"), 9, source="a") == 0
    assert damage.hit_single(state, battle, who(state, "w"), 9, source="a", magic=True) == 9


# ------------------------------------------------------- singular creature against a unit


@pytest.mark.rule("W35-DMG-13", "W35-DMG-14", "W35-GEN-01")
def test_a_singles_hit_on_a_unit_is_divided_by_the_creatures_in_a_counter() -> None:
    state = make_state([unit("b", "B", squares=block(0, 1, 10, 1), count=100)])
    battle = make_battle(state)
    b = get(state, "b")
    assert damage.hit_unit_by_single(state, battle, b, 29, source="x", attacker=None) == 2
    assert damage.hit_unit_by_single(state, battle, b, 9, source="x", attacker=None) == 0
    assert b.hp == 98 and events(battle, "unharmed")[0]["reason"] == "spread"


@pytest.mark.rule("W35-AMB-09", "W35-DMG-13", "W35-STRUCT-05")
def test_fractional_creatures_per_counter_divide_exactly_after_dr() -> None:
    elves = creature("elf", hp=6, dr=1)
    state = make_state([unit("e", "B", squares=block(0, 0, 6, 1), count=51, creature=elves)])
    battle = make_battle(state)
    e = get(state, "e")
    assert str(e.per_counter) == "17/2"
    assert damage.hit_unit_by_single(state, battle, e, 18, source="x", attacker=None) == 2
    assert damage.hit_unit_by_single(state, battle, e, 17, source="x", attacker=None) == 1


@pytest.mark.rule("W35-MON-10", "W35-MON-11", "W35-DMG-13")
def test_a_monster_makes_one_averaged_attack_on_a_unit() -> None:
    ogre = creature("ogre", hp=30, ac=16, melee=[{"bonus": 8, "damage": "2d8+7"},
                                                  {"bonus": 3, "damage": "2d8+7"}])
    state = make_state([unit("b", "B", squares=block(0, 1, 3, 1), count=30)],
                       singles=[single("ogre", "A", "monster", at=(0, 2), creature=ogre)])
    battle = make_battle(state, dice=[10, 6, 6])  # 10 + 5 = 15 vs AC 15: 6 + 6 + 7 = 19
    lost = damage.single_attacks_unit(state, battle, who(state, "ogre"), get(state, "b"))
    assert lost == 1 and len(events(battle, "attack")) == 1
    assert events(battle, "attack")[0]["total"] == 15


@pytest.mark.rule("W35-PC-04")
def test_a_pc_makes_a_full_attack_on_a_unit() -> None:
    pc = creature("hero", hp=40, ac=18, melee=[{"bonus": 12, "damage": "1d8+3"},
                                               {"bonus": 7, "damage": "1d8+3"}])
    state = make_state([unit("home", squares=[(20, 20)]),
                        unit("b", "B", squares=[(0, 1)], count=3)],
                       singles=[single("hero", "A", "pc", unit="home", creature=pc)])
    hero = _alone(state, "hero", (0, 2))
    battle = make_battle(state, dice=[5, 8, 10, 8])  # 17 hits: 11; 17 hits: 11
    lost = damage.single_attacks_unit(state, battle, hero, get(state, "b"))
    assert [e["total"] for e in events(battle, "attack")] == [17, 17]
    assert lost == 11 // 3 * 2  # three creatures a counter


@pytest.mark.rule("W35-AMB-30", "W35-PC-04")
def test_a_pcs_charge_is_one_attack_at_plus_2_with_minus_2_ac() -> None:
    pc = creature("hero", hp=40, ac=18, melee=[{"bonus": 12, "damage": "1d8+3"},
                                               {"bonus": 7, "damage": "1d8+3"}])
    state = make_state([unit("home", squares=[(20, 20)]),
                        unit("b", "B", squares=block(0, 1, 3, 1), count=3)],
                       singles=[single("hero", "A", "pc", unit="home", creature=pc)])
    hero = _alone(state, "hero", (0, 2))
    battle = make_battle(state, dice=[1])
    damage.single_attacks_unit(state, battle, hero, get(state, "b"), charge=True)
    assert [e["total"] for e in events(battle, "attack")] == [15]
    assert hero.charge_ac_penalty and damage.single_ac(hero) == 16


@pytest.mark.rule("W35-AMB-85", "W35-COMBAT-09")
def test_a_units_ac_against_a_single_is_never_flat_footed_and_drops_after_its_charge() -> None:
    state = _duel()
    a = get(state, "a")
    assert damage.ac_for_single(state, a) == 15
    a.charge_ac_penalty = True
    assert damage.ac_for_single(state, a) == 13


# ----------------------------------------------------------- singular against singular


@pytest.mark.rule("W35-DMG-15")
def test_one_single_hitting_another_deals_full_damage_less_dr() -> None:
    brute = creature("brute", hp=50, ac=12, dr=3,
                     melee=[{"bonus": 5, "damage": "1d10+4", "crit_multiplier": 3}])
    state = make_state([], singles=[single("x", "A", "monster", at=(3, 3)),
                                    single("y", "B", "monster", at=(3, 4), creature=brute)])
    battle = make_battle(state, dice=[8, 7])  # 17 vs 12 hits; 7 + 3 = 10, DR 3
    assert damage.single_attacks_single(state, battle, who(state, "x"), who(state, "y")) == 7
    assert who(state, "y").hp == 43


# ------------------------------------------------------- unit against a singular creature


def _orcs_around_pc() -> WarState:
    orc = creature("orc", hp=6, ac=13, melee=[{"bonus": 4, "damage": "1d12+3",
                                               "crit_multiplier": 3}])
    pc = creature("hero", hp=200, ac=18, melee=[{"bonus": 9, "damage": "1d8+3"}])
    state = make_state([unit("home", squares=[(20, 20)]),
                        unit("orcs", "B", squares=block(0, 0, 3, 3), count=90, creature=orc)],
                       singles=[single("hero", "A", "pc", unit="home", creature=pc)])
    _alone(state, "hero", (1, 1))  # fought its way inside (W35-MON-07)
    return state


@pytest.mark.rule("W35-DMG-09", "W35-DMG-10", "W35-DMG-11", "W35-AMB-31")
def test_the_seed_pc_among_orcs_is_flanked_and_takes_the_damage_times_8() -> None:
    state = _orcs_around_pc()
    battle = make_battle(state, dice=[12, 7])  # 12 + 4 + 2 = 18 vs AC 18
    lost = damage.unit_attacks_single(state, battle, get(state, "orcs"), who(state, "hero"),
                                      ranged=False)
    attack = events(battle, "attack")[0]
    assert (attack["total"], attack["attackers"], attack["flanking"]) == (18, 8, True)
    assert lost == (7 + 3) * 8 and who(state, "hero").hp == 200 - 80


@pytest.mark.rule("W35-DMG-09", "W35-AMB-31")
def test_a_straight_front_brings_three_attackers_without_flanking() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1))],
                       singles=[single("ogre", "B", "monster", at=(1, 1))])
    battle = make_battle(state, dice=[15, 5])
    lost = damage.unit_attacks_single(state, battle, get(state, "a"), who(state, "ogre"),
                                      ranged=False)
    attack = events(battle, "attack")[0]
    assert (attack["attackers"], attack["flanking"], attack["total"]) == (3, False, 19)
    assert lost == (5 + 2) * 3


@pytest.mark.rule("W35-DMG-12", "W35-AMB-32")
def test_ranged_attackers_are_creatures_per_side_times_sides_with_sight() -> None:
    archer = creature("archer", ranged=[{"bonus": 5, "damage": "1d8", "range_increment": 100}])
    state = make_state([unit("a", squares=block(0, 0, 2, 1), count=20, creature=archer)],
                       singles=[single("ogre", "B", "monster", at=(1, 8))])
    battle = make_battle(state, dice=[15, 4])
    lost = damage.unit_attacks_single(state, battle, get(state, "a"), who(state, "ogre"),
                                      ranged=True)
    assert events(battle, "attack")[0]["attackers"] == 2 * 3  # 2 north sides x 3 per side
    assert lost == 4 * 6


@pytest.mark.rule("W35-DMG-12", "W35-AMB-32")
def test_ranged_attackers_are_capped_at_the_units_creatures() -> None:
    archer = creature("archer", ranged=[{"bonus": 5, "damage": "1d8", "range_increment": 100}])
    state = make_state([unit("a", squares=[(0, 0)], count=1, creature=archer)],
                       singles=[single("ogre", "B", "monster", at=(6, 6))])
    battle = make_battle(state, dice=[15, 4])
    damage.unit_attacks_single(state, battle, get(state, "a"), who(state, "ogre"), ranged=True)
    assert events(battle, "attack")[0]["attackers"] == 1  # two sides see it, one archer


@pytest.mark.rule("W35-DMG-08")
def test_a_unit_cannot_attack_a_creature_embedded_among_its_allies() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 1)])],
                       singles=[single("cap", "B", unit="b")])
    battle = make_battle(state, dice=[20, 8])
    assert not damage.single_target_ok(state, get(state, "a"), who(state, "cap"))
    assert damage.unit_attacks_single(state, battle, get(state, "a"), who(state, "cap"),
                                      ranged=False) == 0
    assert events(battle, "attack") == []


@pytest.mark.rule("W35-STAT-07")
def test_a_unit_of_rogues_adds_sneak_attack_against_a_flanked_creature() -> None:
    rogue = creature("rogue", feats=["sneak attack 1"])
    state = make_state([unit("r", squares=block(0, 0, 3, 3), count=90, creature=rogue)],
                       singles=[single("hero", "B", "monster", at=(1, 1))])
    hero = who(state, "hero")
    battle = make_battle(state, dice=[14, 3, 4])
    lost = damage.unit_attacks_single(state, battle, get(state, "r"), hero, ranged=False)
    assert lost == (3 + 2 + 4) * 8
    assert damage.sneak_dice(["Sneak Attack 3"]) == 3 and damage.sneak_dice(["cleave"]) == 0


@pytest.mark.rule("W35-DMG-15")
def test_a_single_at_0_hp_or_below_falls() -> None:
    state = make_state([], singles=[single("x", "A", "monster", at=(3, 3))])
    battle = make_battle(state)
    x = who(state, "x")
    damage.apply_to_single(state, battle, x, 45, "y")
    assert (x.hp, x.status, x.square) == (-5, "slain", None)
    assert state.occupant((3, 3)) is None and events(battle, "slain")


@pytest.mark.rule("W35-COMBAT-04", "W35-COMBAT-05", "W35-AMB-04", "W35-COMBAT-08")
def test_attack_totals_are_d20_plus_the_listed_bonus_plus_the_callers_bonuses() -> None:
    archer = creature("archer", melee=[{"bonus": 3, "damage": "1d6"}],
                      ranged=[{"bonus": 6, "damage": "1d8", "range_increment": 100}])
    state = make_state([unit("a", squares=block(0, 0, 3, 1), creature=archer)],
                       singles=[single("ogre", "B", "monster", at=(1, 1)),
                                single("troll", "B", "monster", at=(1, 6))])
    battle = make_battle(state, dice=[10, 10, 10])  # all miss AC 18
    a = get(state, "a")
    damage.unit_attacks_single(state, battle, a, who(state, "ogre"), ranged=False)
    damage.unit_attacks_single(state, battle, a, who(state, "troll"), ranged=True)
    damage.unit_attacks_single(state, battle, a, who(state, "troll"), ranged=True,
                               extra_bonus=-2 + 1)
    assert [e["total"] for e in events(battle, "attack")] == [13, 16, 15]


@pytest.mark.rule("W35-DMG-17")
def test_losses_and_the_end_of_a_unit_reach_the_morale_hooks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, object, object]] = []
    monkeypatch.setattr(morale, "note_damage",
                        lambda state, battle, u, lost, *, kind, attacker:
                        calls.append(("damage", lost, kind)), raising=False)
    monkeypatch.setattr(morale, "unit_gone",
                        lambda state, battle, u, how: calls.append(("gone", u.id, how)),
                        raising=False)
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])
    battle = make_battle(state)
    damage.hit_unit(state, battle, get(state, "b"), 4, 1, source="a", kind="charge")
    damage.hit_unit(state, battle, get(state, "b"), 9, 1, source="a", kind="melee")
    assert calls == [("damage", 4, "charge"), ("damage", 6, "melee"), ("gone", "b", "wiped")]


@pytest.mark.rule("W35-STAT-09")
def test_damage_reduction_that_swallows_the_roll_is_reported() -> None:
    state = make_state([unit("b", "B", squares=[(5, 6)], creature=creature(dr=10))])
    battle = make_battle(state)
    assert damage.hit_unit(state, battle, get(state, "b"), 10, 3, source="a", kind="melee") == 0
    assert events(battle, "unharmed")[0]["reason"] == "dr" and get(state, "b").hp == 10


@pytest.mark.rule("W35-AMB-45", "W35-AMB-88")
def test_hardness_comes_off_each_roll_on_a_structure_until_it_is_breached() -> None:
    state = _fort(guarding=True, hp=20)
    battle = make_battle(state)
    assert damage.hit_structure(state, battle, "wall", 9, 2, source="ram") == 8
    assert damage.hit_structure(state, battle, "wall", 5, 3, source="ram") == 0
    assert damage.hit_structure(state, battle, "wall", 20, 1, source="ram") == 12
    assert state.structure_hp["wall"] == 0 and events(battle, "breached")
    assert damage.unit_dr(state, get(state, "b")) == 0
    nohp = make_state([], structures=[{"id": "rock", "type": "ruins", "rect": [[0, 0], [1, 1]]}])
    with pytest.raises(ValueError, match="no hit points"):
        damage.hit_structure(nohp, make_battle(nohp), "rock", 9, source="ram")


@pytest.mark.rule("W35-DMG-01", "W35-DMG-15")
def test_one_roll_of_12_lands_differently_on_each_pathway() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1)),
                        unit("b", "B", squares=block(0, 5, 10, 1), count=100)],
                       singles=[single("x", "B", "monster", at=(9, 9)),
                                single("y", "A", "monster", at=(19, 9))])
    battle = make_battle(state)
    b, x, y = get(state, "b"), who(state, "x"), who(state, "y")
    assert damage.hit_unit(state, battle, b, 12, 3, source="a", kind="melee") == 36
    assert damage.hit_unit_by_single(state, battle, b, 12, source="y", attacker=y) == 1
    assert damage.hit_single(state, battle, x, 12, source="a", attacker=get(state, "a"),
                             multiplier=2) == 24
    assert damage.hit_single(state, battle, y, 12, source="x", attacker=x) == 12


@pytest.mark.rule("W35-AMB-45", "W35-STRUCT-02")
def test_a_unit_attacking_from_a_fortification_is_exposed_and_gets_only_the_dr() -> None:
    state = make_state([unit("b", "B", squares=block(0, 1, 4, 1), count=40)],
                       structures=[{"id": "wall", "type": "keep", "rect": [[0, 1], [5, 1]],
                                    "hp": 50}],
                       singles=[single("ogre", "A", "monster", at=(1, 2))])
    b = get(state, "b")
    assert damage.sheltered(state, b)
    battle = make_battle(state, dice=[1])
    damage.unit_attacks_single(state, battle, b, who(state, "ogre"), ranged=False)
    assert b.exposed and not damage.sheltered(state, b) and damage.unit_dr(state, b) == 3
