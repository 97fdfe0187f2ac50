"""Unit attacks of dnd35-wars: melee and its multiplier, several engaged units, flanking and
the other attack modifiers, ranged fire and volleys, Cleave, and the Disengage free attack."""

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
)
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import combat
from warhost.rulesets.dnd35_wars.actions import unit_action
from warhost.rulesets.dnd35_wars.state import Unit, WarState

BOW = {"name": "shortbow", "bonus": 3, "damage": "1d6", "crit_range": 20, "crit_multiplier": 3,
       "range_increment": 60}


def archer(**fields: Any) -> dict[str, Any]:
    """A human archer: +3 shortbow, 1d6, 60 ft increments, and the longsword."""
    return creature("archer", ranged=[dict(BOW, **fields)])


def act(state: WarState, battle: Any, uid: str) -> None:
    unit_action(state, battle, get(state, uid))


def texts(state: WarState, uid: str) -> set[str]:
    return {str(o) for o in combat.attack_options(state, get(state, uid))}


def refusal(state: WarState, uid: str, text: str) -> Refusal:
    verdict = combat.judge_attack(state, get(state, uid), Order.parse(text))
    assert isinstance(verdict, Refusal), verdict
    return verdict


# ---- melee --------------------------------------------------------------------------------


@pytest.mark.rule("W35-UATK-07", "W35-UATK-08", "W35-DMG-02", "W35-DMG-03", "W35-AMB-37")
def test_melee_is_one_roll_times_the_counters_sharing_a_side_with_the_target() -> None:
    # a: a row of three; only its two western counters touch b's bottom rank by a side.
    state = make_state([unit("a", squares=block(1, 0, 3, 1)),
                        unit("b", "B", squares=block(0, 1, 3, 2))])
    battle = make_battle(state, dice=[15, 4], orders={"A": ["melee a b"]})
    act(state, battle, "a")
    [attack] = events(battle, "attack")
    assert (attack["roll"], attack["total"], attack["hit"], attack["multiplier"]) == (15, 19,
                                                                                    True, 2)
    assert get(state, "b").hp == 60 - 6 * 2
    assert "b" in state.foes_engaged("a") and state.melee_happened


@pytest.mark.rule("W35-UATK-07")
def test_a_corner_is_not_contact_for_melee_between_units() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(1, 1)])])
    assert not any(t.startswith("melee") for t in texts(state, "a"))
    assert refusal(state, "a", "melee a b").rule == "W35-UATK-07"


@pytest.mark.rule("W35-COMBAT-03", "W35-COMBAT-04", "W35-COMBAT-06")
def test_the_roll_is_d20_plus_the_creature_bonus_and_a_miss_deals_nothing() -> None:
    # Large creatures in a big unit: the stat block's bonus (size modifier inside) is used as
    # it is, nothing derived from the unit's size; 10 + 4 = 14 misses AC 15.
    ogre = creature("ogre", size="large", hp=30, melee=[{"bonus": 4, "damage": "2d8"}])
    state = make_state([unit("a", squares=block(0, 0, 4, 3), count=48, creature=ogre),
                        unit("b", "B", squares=block(0, 3, 4, 1))])
    battle = make_battle(state, dice=[10], orders={"A": ["melee a b"]})
    act(state, battle, "a")
    [attack] = events(battle, "attack")
    assert (attack["total"], attack["ac"], attack["hit"]) == (14, 15, False)
    assert get(state, "b").hp == get(state, "b").start_hp


@pytest.mark.rule("W35-MULTI-01", "W35-AMB-38")
def test_a_unit_engaged_with_nobody_attacks_exactly_one_unit() -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 1)), unit("b", "B", squares=[(0, 1)]),
                        unit("c", "B", squares=[(1, 1)])])
    assert {"melee a b", "melee a c"} <= texts(state, "a")
    assert refusal(state, "a", "melee a b,c").rule == "W35-MULTI-01"


@pytest.mark.rule("W35-MULTI-05", "W35-AMB-38", "W35-MULTI-02")
def test_an_engaged_unit_attacks_each_engaged_unit_and_may_not_start_on_a_new_one() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1)), unit("b", "B", squares=[(0, 1)]),
                        unit("c", "B", squares=[(2, 1)]), unit("d", "B", squares=[(3, 0)])])
    state.engage("a", "b")
    state.engage("a", "c")
    assert [t for t in texts(state, "a") if t.startswith("melee")] == ["melee a b,c"]
    assert refusal(state, "a", "melee a d").rule == "W35-AMB-38"
    battle = make_battle(state, dice=[15, 4, 15, 4], orders={"A": ["melee a b,c"]})
    act(state, battle, "a")
    assert [(e["target"], e["multiplier"]) for e in events(battle, "attack")] == [("b", 1),
                                                                                ("c", 1)]


@pytest.mark.rule("W35-MULTI-05", "W35-AMB-38", "W35-DEC-15")
def test_a_counter_touching_two_engaged_units_strikes_the_one_its_commander_picks() -> None:
    # a's counter (1,0) touches b at (1,1) and c at (2,0).
    state = make_state([unit("a", squares=block(0, 0, 2, 1)), unit("b", "B", squares=block(0, 1, 2, 1)),
                        unit("c", "B", squares=[(2, 0)])])
    state.engage("a", "b")
    state.engage("a", "c")
    battle = make_battle(state, dice=[15, 4, 15, 4],
                         orders={"A": ["melee a b,c", "strike a 1,0 c"]})
    act(state, battle, "a")
    assert [(e["target"], e["multiplier"]) for e in events(battle, "attack")] == [("b", 1),
                                                                                ("c", 1)]


# ---- flanking and other modifiers ----------------------------------------------------------


def _flank_state(**options: Any) -> WarState:
    # b is engaged with a (south) and c (north) attacks it too.
    return make_state([unit("a", squares=[(5, 4)]), unit("c", squares=[(5, 6)]),
                       unit("b", "B", squares=[(5, 5)], creature=creature(hp=100))],
                      options=options)


@pytest.mark.rule("W35-MULTI-03", "W35-AMB-39")
def test_attacks_on_a_unit_engaged_with_another_enemy_get_flanking_both_ways() -> None:
    state = _flank_state()
    state.engage("a", "b")
    battle = make_battle(state, dice=[10, 4, 10, 4], orders={"A": ["melee c b"]})
    act(state, battle, "c")
    assert events(battle, "attack")[0]["total"] == 10 + 4 + 2
    combat.strike(state, battle, get(state, "a"), get(state, "b"), "melee", 1)
    assert events(battle, "attack")[1]["total"] == 10 + 4 + 2  # mutual (the default)


@pytest.mark.rule("W35-MULTI-03", "W35-AMB-39")
def test_without_mutual_flanking_the_first_engaged_unit_gets_no_bonus() -> None:
    state = _flank_state(flank_bonus_mutual=False)
    battle = make_battle(state, dice=[10, 10, 4, 10])  # 14 misses, 16 hits, 14 misses
    combat.strike(state, battle, get(state, "a"), get(state, "b"), "melee", 1)
    combat.strike(state, battle, get(state, "c"), get(state, "b"), "melee", 1)
    combat.strike(state, battle, get(state, "a"), get(state, "b"), "melee", 1)
    assert [e["total"] for e in events(battle, "attack")] == [14, 16, 14]


@pytest.mark.rule("W35-MOB-02", "W35-MULTI-04")
@pytest.mark.parametrize("fields", [{"mob": True}, {"creature": creature(flank_immune=True)}])
def test_mobs_and_flank_immune_units_are_never_flanked(fields: dict[str, Any]) -> None:
    state = make_state([unit("a", squares=[(5, 4)]), unit("c", squares=[(5, 6)]),
                        unit("b", "B", squares=[(5, 5)], **fields)])
    state.engage("a", "b")
    battle = make_battle(state, dice=[10, 4])
    combat.strike(state, battle, get(state, "c"), get(state, "b"), "melee", 1)
    assert events(battle, "attack")[0]["total"] == 14


@pytest.mark.rule("W35-TYPE-10", "W35-AMB-39")
def test_a_flyer_attacking_a_grounded_unit_gets_flanking_and_higher_ground() -> None:
    state = make_state([unit("f", squares=[(5, 4)], flying=True),
                        unit("b", "B", squares=[(5, 5)]),
                        unit("m", "B", squares=[(4, 4)], mob=True)])
    battle = make_battle(state, dice=[10, 4, 10, 4])
    combat.strike(state, battle, get(state, "f"), get(state, "b"), "melee", 1)
    combat.strike(state, battle, get(state, "f"), get(state, "m"), "melee", 1)
    assert [e["total"] for e in events(battle, "attack")] == [10 + 4 + 3, 10 + 4 + 1]


def _rider(**fields: Any) -> dict[str, Any]:
    return unit("k", squares=[(5, 4)], mount={"size": "large"}, **fields)


@pytest.mark.rule("W35-TYPE-03", "W35-AMB-24", "W35-TYPE-08", "W35-AMB-26")
def test_riders_on_large_mounts_get_plus_2_against_foot_without_reach_and_plus_1_higher() -> None:
    pikes = creature("pikeman", melee=[{"bonus": 4, "damage": "1d8", "reach": True}])
    for target, bonus in ((unit("b", "B", squares=[(5, 5)]), 3),
                          (unit("b", "B", squares=[(5, 5)], creature=pikes), 1),
                          (unit("b", "B", squares=[(5, 5)], mount={"size": "large"}), 0)):
        state = make_state([_rider(), target])
        battle = make_battle(state, dice=[10, 4])
        combat.strike(state, battle, get(state, "k"), get(state, "b"), "melee", 1)
        assert events(battle, "attack")[0]["total"] == 10 + 4 + bonus, target


@pytest.mark.rule("W35-TERR-11", "W35-AMB-26", "W35-GEN-05")
def test_higher_ground_gives_plus_1_once_whatever_its_sources() -> None:
    hill = {"rect": [[5, 4], [5, 4]], "elevation": 2}
    state = make_state([_rider(), unit("b", "B", squares=[(5, 5)]),
                        unit("a", squares=[(6, 5)])], terrain=[hill])
    battle = make_battle(state, dice=[10, 1, 10, 1])
    # the rider: +2 mounted, and +1 for the hill and the mount together (not +2)
    combat.strike(state, battle, get(state, "k"), get(state, "b"), "melee", 1)
    # a foot unit on low ground next to b: nothing for height; flanking +2 now (b engaged)
    combat.strike(state, battle, get(state, "a"), get(state, "b"), "melee", 1)
    assert [e["total"] for e in events(battle, "attack")] == [10 + 4 + 2 + 1, 10 + 4 + 2]
    state2 = make_state([unit("h", squares=[(5, 4)]), unit("b", "B", squares=[(5, 5)])],
                        terrain=[hill])
    battle2 = make_battle(state2, dice=[10, 4])
    combat.strike(state2, battle2, get(state2, "h"), get(state2, "b"), "melee", 1)
    assert events(battle2, "attack")[0]["total"] == 10 + 4 + 1


@pytest.mark.rule("W35-TYPE-07")
def test_a_chariot_unit_attacks_at_plus_2_through_its_derived_bonus() -> None:
    state = make_state([unit("c", squares=[(5, 4)], chariot=True, mount={"size": "large"}),
                        unit("b", "B", squares=[(5, 5)], mount={"size": "large"})])
    melee = get(state, "c").melee
    assert melee is not None and melee.bonus == 4 + 2
    battle = make_battle(state, dice=[10, 4])
    combat.strike(state, battle, get(state, "c"), get(state, "b"), "melee", 1)
    assert events(battle, "attack")[0]["total"] == 10 + 6


@pytest.mark.rule("W35-TERR-08", "W35-TERR-09")
def test_forest_gives_plus_2_ac_against_missiles_and_flyers_and_minus_2_to_shoot_out() -> None:
    wood = {"rect": [[0, 10], [3, 10]], "kind": "light_forest"}
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("f", squares=[(3, 9)], flying=True),
                        unit("g", squares=[(1, 9)]),
                        unit("b", "B", squares=block(0, 10, 2, 1)),
                        unit("w", "B", squares=[(3, 10)], creature=archer())], terrain=[wood])
    b = get(state, "b")
    assert combat.ac_against(state, b, get(state, "a"), "ranged") == 17
    assert combat.ac_against(state, b, get(state, "f"), "melee") == 17
    assert combat.ac_against(state, b, get(state, "g"), "melee") == 15
    battle = make_battle(state, dice=[10])
    combat.strike(state, battle, get(state, "w"), get(state, "a"), "ranged", 1, extra=0)
    assert events(battle, "attack")[0]["total"] == 10 + 3 - 2


# ---- ranged fire ---------------------------------------------------------------------------


@pytest.mark.rule("W35-UATK-12", "W35-UATK-14", "W35-AMB-36", "W35-DMG-05", "W35-COMBAT-05")
def test_fire_takes_minus_2_per_increment_beyond_the_first_and_the_smaller_counter_count() -> None:
    # 5 squares at 15 ft = 75 ft: two 60-ft increments, -2; 4 archers on 2 counters: x2.
    state = make_state([unit("a", squares=block(0, 0, 4, 1), creature=archer()),
                        unit("b", "B", squares=block(0, 5, 2, 1))])
    battle = make_battle(state, dice=[15, 3], orders={"A": ["shoot a b"]})
    act(state, battle, "a")
    [attack] = events(battle, "attack")
    assert (attack["total"], attack["multiplier"], attack["kind"]) == (15 + 3 - 2, 2, "ranged")
    assert get(state, "b").hp == 20 - 3 * 2


@pytest.mark.rule("W35-UATK-13", "W35-UATK-09", "W35-AMB-36")
def test_maximum_range_is_10_increments_and_5_when_thrown() -> None:
    # 40 squares x 15 ft = 600 ft = 10 x 60; 41 squares is out of range.
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("b", "B", squares=[(0, 40)]), unit("c", "B", squares=[(1, 41)])],
                       height=50)
    assert "shoot a b" in texts(state, "a") and "shoot a c" not in texts(state, "a")
    assert refusal(state, "a", "shoot a c").rule == "W35-UATK-13"
    javelins = make_state([unit("a", squares=[(0, 0)], creature=archer(thrown=True,
                                                                      range_increment=30)),
                           unit("b", "B", squares=[(0, 10)]), unit("c", "B", squares=[(1, 11)])])
    assert combat.target_problem(javelins, get(javelins, "a"), "b") is None
    assert combat.target_problem(javelins, get(javelins, "a"), "c") is not None


@pytest.mark.rule("W35-UATK-10", "W35-AMB-36")
def test_firing_needs_an_open_square_between_the_counters_and_the_target() -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 1), creature=archer()),
                        unit("b", "B", squares=[(2, 1)]), unit("c", "B", squares=[(4, 0)])])
    assert refusal(state, "a", "shoot a b").rule == "W35-UATK-10"
    assert "shoot a c" in texts(state, "a")


@pytest.mark.rule("W35-UATK-09")
def test_a_unit_without_a_ranged_attack_cannot_fire() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 5)])])
    assert not any(t.startswith("shoot") for t in texts(state, "a"))
    assert refusal(state, "a", "shoot a b").rule == "W35-UATK-09"


@pytest.mark.rule("W35-UATK-11")
def test_a_unit_that_made_a_melee_attack_this_round_may_not_fire() -> None:
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("b", "B", squares=[(0, 1)]), unit("c", "B", squares=[(0, 6)])])
    battle = make_battle(state, dice=[2])
    combat.free_attack(state, battle, get(state, "a"), get(state, "b"))
    state.disengage("a", "b")
    assert refusal(state, "a", "shoot a c").rule == "W35-UATK-11"


def _screened(archers: dict[str, Any], **fields: Any) -> WarState:
    # An allied screen at y=2 hides the target from every archer but the one at (3,0).
    return make_state([unit("a", squares=block(0, 0, 4, 1), creature=archers, **fields),
                       unit("s", squares=block(0, 2, 3, 1)),
                       unit("b", "B", squares=block(0, 6, 4, 2))])


@pytest.mark.rule("W35-DMG-04", "W35-DMG-05", "W35-AMB-35")
def test_arcing_fire_uses_every_counter_if_one_of_them_sees_the_target() -> None:
    state = _screened(archer())
    assert combat.sighted(state, get(state, "a"), get(state, "b").squares) == ((3, 0),)
    battle = make_battle(state, dice=[15, 3], orders={"A": ["shoot a b"]})
    act(state, battle, "a")
    assert events(battle, "attack")[0]["multiplier"] == 4


@pytest.mark.rule("W35-DMG-07", "W35-AMB-34")
def test_crossbows_fire_with_the_counters_that_see_the_target() -> None:
    state = _screened(archer(crossbow=True))
    battle = make_battle(state, dice=[15, 3], orders={"A": ["shoot a b"]})
    act(state, battle, "a")
    assert events(battle, "attack")[0]["multiplier"] == 1
    assert get(state, "b").hp == 80 - 3


@pytest.mark.rule("W35-MOB-06", "W35-AMB-34")
def test_a_mob_fires_only_with_its_counters_that_see_the_target() -> None:
    state = _screened(archer(), mob=True)
    battle = make_battle(state, dice=[15, 3], orders={"A": ["shoot a b"]})
    act(state, battle, "a")
    assert events(battle, "attack")[0]["multiplier"] == 1


@pytest.mark.rule("W35-DMG-07", "W35-AMB-34")
@pytest.mark.parametrize(("cap", "multiplier"), [(False, 4), (True, 2)])
def test_crossbow_damage_is_not_capped_by_the_target_unless_the_option_says(
        cap: bool, multiplier: int) -> None:
    state = make_state([unit("a", squares=block(0, 0, 4, 1), creature=archer(crossbow=True)),
                        unit("b", "B", squares=block(1, 4, 2, 1))],
                       options={"crossbow_cap_by_target": cap})
    battle = make_battle(state, dice=[15, 3], orders={"A": ["shoot a b"]})
    act(state, battle, "a")
    assert events(battle, "attack")[0]["multiplier"] == multiplier


@pytest.mark.rule("W35-MULTI-06", "W35-MULTI-07", "W35-MULTI-08", "W35-DEC-16")
def test_a_volley_declares_counters_per_target_and_rolls_once_per_target() -> None:
    state = make_state([unit("a", squares=block(0, 0, 4, 1), creature=archer()),
                        unit("b", "B", squares=block(0, 5, 2, 1)),
                        unit("c", "B", squares=block(3, 5, 3, 1))])
    assert refusal(state, "a", "shoot a b:3,c:2").rule == "W35-MULTI-07"
    battle = make_battle(state, dice=[15, 3, 15, 2], orders={"A": ["shoot a b:3,c:1"]})
    act(state, battle, "a")
    assert [(e["target"], e["multiplier"]) for e in events(battle, "attack")] == [("b", 2),
                                                                                ("c", 1)]
    assert (get(state, "b").hp, get(state, "c").hp) == (20 - 6, 30 - 2)


@pytest.mark.rule("W35-MULTI-07", "W35-DEC-16")
def test_firing_at_several_targets_asks_for_a_fire_plan_judged_before_any_roll() -> None:
    state = make_state([unit("a", squares=block(0, 0, 4, 1), creature=archer()),
                        unit("b", "B", squares=block(0, 5, 2, 1)),
                        unit("c", "B", squares=block(3, 5, 3, 1))])
    assert "shoot a b,c" in texts(state, "a")
    battle = make_battle(state, dice=[15, 3, 15, 2],
                         orders={"A": ["shoot a b,c", "fire a b:1,c:3"]})
    act(state, battle, "a")
    assert [(e["target"], e["multiplier"]) for e in events(battle, "attack")] == [("b", 1),
                                                                                ("c", 3)]
    assert events(battle, "volley")[0]["plan"] == "b:1,c:3"


@pytest.mark.rule("W35-MULTI-06")
def test_an_engaged_unit_does_not_fire() -> None:
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("b", "B", squares=[(0, 1)]), unit("c", "B", squares=[(0, 6)])])
    state.engage("a", "b")
    assert refusal(state, "a", "shoot a c").rule == "W35-MULTI-06"


@pytest.mark.rule("W35-DMG-08")
def test_a_singular_creature_inside_an_enemy_unit_is_no_target_for_a_unit() -> None:
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("b", "B", squares=block(0, 5, 2, 1))],
                       singles=[single("hero", "B", unit="b")])
    assert refusal(state, "a", "shoot a hero").rule == "W35-DMG-08"
    assert "shoot a hero" not in texts(state, "a")


# ---- Cleave --------------------------------------------------------------------------------


def _column(feats: list[str]) -> WarState:
    # a above a column of 12 counters; one counter of contact; 1d8+2 with an 8 kills a counter.
    return make_state([unit("a", squares=[(0, 13)], creature=creature(feats=feats)),
                       unit("b", "B", squares=[(0, y) for y in range(1, 13)])])


@pytest.mark.rule("W35-ABIL-03", "W35-AMB-28", "W35-DEC-28")
def test_cleave_gives_one_extra_attack_a_round_after_removing_a_counter() -> None:
    state = _column(["Cleave"])
    battle = make_battle(state, dice=[15, 8, 15, 8, 15, 8], orders={"A": ["melee a b"]})
    act(state, battle, "a")
    assert [e["target"] for e in events(battle, "attack")] == ["b", "b"]
    assert get(state, "b").counters == 10
    battle2 = make_battle(state, dice=[15, 8], orders={"A": ["melee a b", "no_cleave a"]})
    state.round += 1
    act(state, battle2, "a")
    assert len(events(battle2, "attack")) == 1


@pytest.mark.rule("W35-ABIL-04", "W35-AMB-28")
def test_great_cleave_stops_after_8_extra_attacks_a_round() -> None:
    state = _column(["Great Cleave"])
    battle = make_battle(state, dice=[15, 8] * 10, orders={"A": ["melee a b"]})
    act(state, battle, "a")
    assert len(events(battle, "attack")) == 9
    assert get(state, "b").counters == 3


@pytest.mark.rule("W35-AMB-28")
def test_no_cleave_after_an_attack_that_removes_no_counter() -> None:
    state = _column(["Great Cleave"])
    battle = make_battle(state, dice=[15, 1, 15, 8], orders={"A": ["melee a b"]})
    act(state, battle, "a")
    assert len(events(battle, "attack")) == 1


# ---- the Disengage free attack -------------------------------------------------------------


@pytest.mark.rule("W35-UMOVE-06", "W35-AMB-82", "W35-AMB-37")
def test_the_free_attack_is_at_plus_2_times_the_counters_touching_the_leaver() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1)),
                        unit("b", "B", squares=block(0, 1, 2, 2))])
    battle = make_battle(state, dice=[9, 4])
    combat.free_attack(state, battle, get(state, "a"), get(state, "b"))
    [attack] = events(battle, "attack")
    assert (attack["kind"], attack["total"], attack["multiplier"]) == ("free", 9 + 4 + 2, 2)
    assert get(state, "b").hp == 40 - 12


@pytest.mark.rule("W35-AMB-82", "W35-MORALE-11")
def test_a_routed_unit_makes_no_free_attack() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 1)])])
    a: Unit = get(state, "a")
    a.status = "routed"
    battle = make_battle(state, dice=[20, 8])
    combat.free_attack(state, battle, a, get(state, "b"))
    assert events(battle, "attack") == []
    assert combat.attack_options(state, a) == []


@pytest.mark.rule("W35-STRUCT-03", "W35-AMB-45", "W35-STRUCT-04")
def test_a_unit_under_cover_in_a_fortification_is_no_target_until_it_is_exposed() -> None:
    keep = {"id": "keep", "type": "keep", "rect": [[0, 6], [1, 6]], "hp": 200}
    state = make_state([unit("a", squares=block(0, 0, 2, 1), creature=archer()),
                        unit("b", "B", squares=block(0, 6, 2, 1), creature=archer())],
                       structures=[keep])
    assert refusal(state, "a", "shoot a b").rule == "W35-AMB-45"
    assert "shoot a b" not in texts(state, "a")
    get(state, "b").guarding_walls = True  # on the walls: a target, and +1 to fire down
    assert "shoot a b" in texts(state, "a")
    battle = make_battle(state, dice=[10])
    combat.strike(state, battle, get(state, "b"), get(state, "a"), "ranged", 2)
    assert events(battle, "attack")[0]["total"] == 10 + 3 + 1


@pytest.mark.rule("W35-ABIL-02")
def test_far_shot_stretches_the_units_range_increment_by_half() -> None:
    # 45 squares x 15 ft = 675 ft: beyond 10 x 60 ft, within 10 x 90 ft; 5 squares (75 ft)
    # is then inside the first increment.
    plain = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("b", "B", squares=[(0, 45)]), unit("c", "B", squares=[(3, 5)])],
                       height=50)
    far = make_state([unit("a", squares=[(0, 0)], creature=creature(
                          "archer", ranged=[BOW], feats=["Far Shot"])),
                      unit("b", "B", squares=[(0, 45)]), unit("c", "B", squares=[(3, 5)])],
                     height=50)
    assert combat.target_problem(plain, get(plain, "a"), "b") is not None
    assert combat.target_problem(far, get(far, "a"), "b") is None
    assert combat.range_modifier(plain, get(plain, "a"), get(plain, "c").squares) == -2
    assert combat.range_modifier(far, get(far, "a"), get(far, "c").squares) == 0


@pytest.mark.rule("W35-DMG-09", "W35-AMB-31", "W35-AMB-98")
def test_a_unit_melees_an_independent_creature_touching_it_at_a_corner() -> None:
    state = make_state([unit("a", squares=[(0, 0)])],
                       singles=[single("ogre", "B", "monster", at=(1, 1),
                                       creature=creature("ogre", hp=60, ac=12))])
    assert "melee a ogre" in texts(state, "a")
    battle = make_battle(state, dice=[10, 4], orders={"A": ["melee a ogre"]})
    act(state, battle, "a")
    assert events(battle, "attack")[0]["target"] == "ogre"
    assert state.singles["ogre"].hp < 60 and state.melee_happened


@pytest.mark.rule("W35-ABIL-11", "W35-COMBAT-08")
def test_a_units_sneak_attack_adds_to_the_single_roll_when_it_flanks() -> None:
    rogues = creature("rogue", feats=["Sneak Attack 1"])
    state = make_state([unit("a", squares=[(5, 4)]),
                        unit("r", squares=block(4, 6, 3, 1), creature=rogues),
                        unit("b", "B", squares=[(5, 5)], creature=creature(hp=100))])
    state.engage("a", "b")
    battle = make_battle(state, dice=[10, 4, 3])
    combat.strike(state, battle, get(state, "r"), get(state, "b"), "melee", 1)
    assert get(state, "b").hp == 100 - (4 + 2 + 3)


@pytest.mark.rule("W35-DMG-07", "W35-MULTI-07")
def test_a_crossbow_volley_may_declare_only_counters_that_see_their_target() -> None:
    state = _screened(archer(crossbow=True))
    assert refusal(state, "a", "shoot a b:2").rule == "W35-DMG-07"
    assert combat.judge_attack(state, get(state, "a"), Order.parse("shoot a b:1")) == \
        Order.parse("shoot a b:1")
