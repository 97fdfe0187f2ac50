"""The attack pipeline with scripted dice (WB-ATTACK, WB-CIRC, WB-SPECIAL, WB-RANGED, WB-MELEE).

Dice of one attack, in order: to hit, damage (Strength), then for each wound a Defense save
and a Ward save (no die for Ward 0).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.core.dice import ScriptedDice
from warhost.core.orders import Order
from warhost.rulesets.warband import combat, game
from warhost.rulesets.warband.attacks import (
    AttackProfile,
    Circumstances,
    effective_armour,
    hit_mods,
    resolve_attack,
)
from warhost.rulesets.warband.checks import total
from warhost.rulesets.warband.state import INCAPACITATED, KNOCKED_DOWN, STUNNED, WarbandState

BOW = {"name": "bow", "kind": "ranged", "strength": 4, "range": 12, "attack_limit": 2,
       "volley": True}
SWORD = {"name": "sword", "kind": "melee"}


def targets(battle: Any, why: str) -> list[int]:
    """The targets of the logged tests whose reason starts with ``why``."""
    return [e["target"] for e in events(battle, "roll") if e["why"].startswith(why)]


def duel(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None, *,
         b_at: tuple[int, int] = (5, 6), b_facing: str = "S", others: tuple[Any, ...] = (),
         **kwargs: Any) -> WarbandState:
    """``a`` (side A) on 5,5 and ``b`` (side B) on ``b_at``; ``b`` faces ``a`` by default."""
    return make_state([char("a", (5, 5), "A", **(a or {})),
                       char("b", b_at, "B", facing=b_facing, **{"wounds": 3, **(b or {})}),
                       *others], **kwargs)


def melee(state: WarbandState, dice: list[int], count: int = 1, weapon: str = "sword") -> Any:
    battle = make_battle(state, dice)
    combat.take_melee(state, battle, state.chars["a"], Order.of("attack", "b", weapon, count))
    assert isinstance(battle.dice, ScriptedDice) and battle.dice.unused == 0
    return battle


def last_attack(battle: Any) -> tuple[bool, bool, int, int, int, int]:
    e = events(battle, "attack")[-1]
    return e["hit"], e["critical"], e["wounds"], e["saved"], e["warded"], e["confirmed"]


# --------------------------------------------------------------------------- the pipeline


@pytest.mark.rule("WB-ATTACK-03", "WB-ATTACK-04", "WB-ATTACK-05", "WB-ATTACK-07",
                  "WB-ATTACK-12")
def test_melee_attack_runs_hit_damage_defense_and_confirms_a_wound() -> None:
    state = duel({"melee": 6, "strength": 4}, {"toughness": 3, "armour": 1, "wounds": 2})
    # to hit 6 vs Melee 6: hit; damage 4 vs Strength 4: wound; Defense 5 vs 3+1: fails
    battle = melee(state, [6, 4, 5])
    assert state.chars["b"].wounds == 1
    assert last_attack(battle) == (True, False, 1, 0, 0, 1)
    assert targets(battle, "to hit") == [6]
    assert targets(battle, "damage") == [4]
    assert targets(battle, "defense") == [4]


@pytest.mark.rule("WB-ATTACK-04")
def test_a_failed_melee_test_misses_and_rolls_nothing_more() -> None:
    state = duel({"melee": 6})
    battle = melee(state, [7])
    assert last_attack(battle) == (False, False, 0, 0, 0, 0)


@pytest.mark.rule("WB-ATTACK-05")
def test_a_failed_strength_test_is_a_hit_without_a_wound() -> None:
    state = duel({"strength": 4})
    battle = melee(state, [2, 5])
    assert last_attack(battle) == (True, False, 0, 0, 0, 0)
    assert state.chars["b"].wounds == 3


@pytest.mark.rule("WB-ATTACK-07")
def test_a_passed_defense_test_cancels_the_wound() -> None:
    state = duel(b={"toughness": 3, "armour": 2})
    battle = melee(state, [2, 2, 5])
    assert last_attack(battle) == (True, False, 1, 1, 0, 0)
    assert state.chars["b"].wounds == 3


@pytest.mark.rule("WB-ATTACK-10", "WB-ATTACK-03")
def test_a_ward_save_cancels_a_wound_past_the_defense_save() -> None:
    state = duel(b={"toughness": 3, "ward": 4})
    battle = melee(state, [2, 2, 9, 4])
    assert last_attack(battle) == (True, False, 1, 0, 1, 0)
    assert targets(battle, "ward") == [4]


@pytest.mark.rule("WB-ATTACK-10", "WB-TEST-03")
@pytest.mark.rule("WB-AMB-29")
def test_ward_zero_makes_no_ward_save_and_rolls_no_die() -> None:
    state = duel(b={"ward": 0})
    battle = melee(state, [2, 2, 9])  # no fourth die
    assert last_attack(battle)[-1] == 1
    assert targets(battle, "ward") == []


@pytest.mark.rule("WB-ATTACK-11")
@pytest.mark.rule("WB-AMB-29")
def test_defense_modifiers_do_not_touch_the_ward_save() -> None:
    # b alone against a and c: Outnumbered (-1 Defense); attacked from its rear: Flanked (-1)
    state = duel(b={"toughness": 3, "armour": 2, "ward": 3}, b_facing="N",
                 others=(char("c", (4, 6), "A"),))
    battle = melee(state, [2, 2, 9, 3])
    assert targets(battle, "defense") == [3]  # 5 - 1 - 1
    assert targets(battle, "ward") == [3]
    assert last_attack(battle)[4] == 1


@pytest.mark.rule("WB-ATTACK-06", "WB-ATTACK-02", "WB-RANGED-06")
def test_ranged_damage_uses_the_weapons_strength() -> None:
    state = duel({"strength": 9, "ranged": 6, "weapons": [BOW]}, b_at=(5, 10))
    battle = make_battle(state, [3, 4, 9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "to hit") == [6]
    assert targets(battle, "damage") == [4]
    assert last_attack(battle)[-1] == 1


@pytest.mark.rule("WB-ATTACK-08", "WB-ATTACK-09")
@pytest.mark.rule("WB-AMB-28")
def test_penetration_lowers_armour_never_toughness() -> None:
    axe = {"name": "axe", "kind": "melee", "penetration": 1}
    state = duel({"weapons": [axe]}, {"toughness": 3, "armour": 3})
    b = state.chars["b"]
    assert effective_armour(b, 1) == 2  # the catalog's example
    assert effective_armour(b, 5) == 0
    battle = melee(state, [2, 2, 6], weapon="axe")
    assert targets(battle, "defense") == [5]  # 3 + (3 - 1)
    state = duel({"weapons": [{**axe, "penetration": 6}]}, {"toughness": 3, "armour": 3})
    battle = melee(state, [2, 2, 3], weapon="axe")
    assert targets(battle, "defense") == [3]  # Toughness untouched
    assert last_attack(battle)[3] == 1


@pytest.mark.rule("WB-ATTACK-12", "WB-ATTACK-13")
def test_confirmed_wounds_stop_at_zero_and_bring_an_injury_roll() -> None:
    state = duel({"attacks": 3}, {"wounds": 1, "toughness": 2})
    # three hits, three wounds, three failed saves; Injury roll 2: Knocked down
    battle = melee(state, [2, 2, 9, 2, 2, 9, 2, 2, 9, 2], count=3)
    b = state.chars["b"]
    assert b.wounds == 0
    assert events(battle, "wounded")[0]["wounds"] == 3
    assert [e["roll"] for e in events(battle, "injury_roll")] == [2]
    assert b.condition == KNOCKED_DOWN


@pytest.mark.rule("WB-ATTACK-01", "WB-MELEE-01")
def test_melee_attacks_need_an_enemy_within_reach() -> None:
    state = duel(b_at=(5, 7))
    assert combat.melee_options(state, state.chars["a"]) == []
    spear = {"name": "long spear", "kind": "melee", "reach": 2}
    state = duel({"weapons": [spear]}, b_at=(5, 7))
    assert [str(o) for o in combat.melee_options(state, state.chars["a"])] == [
        "attack b long_spear 1"]
    # an elevation difference of 2 puts an adjacent enemy out of reach (WB-AMB-27)
    state = duel(features=[{"from": [5, 6], "elevation": 2}])
    assert combat.melee_options(state, state.chars["a"]) == []


@pytest.mark.rule("WB-ATTACK-02")
def test_ranged_attacks_need_the_target_within_range() -> None:
    state = duel({"weapons": [{**BOW, "range": 4}]}, b_at=(5, 9))
    assert [str(o) for o in combat.ranged_options(state, state.chars["a"])] == [
        "shoot b bow 1"]
    state = duel({"weapons": [{**BOW, "range": 4}]}, b_at=(5, 10))
    assert combat.ranged_options(state, state.chars["a"]) == []


@pytest.mark.rule("WB-ATTACK-14", "WB-ATTACK-15")
def test_attack_limit_2_with_attacks_3_gives_2_shots_and_with_attacks_1_gives_1() -> None:
    state = duel({"attacks": 3, "weapons": [BOW]}, b_at=(5, 10))
    shots = [str(o) for o in combat.ranged_options(state, state.chars["a"])
             if o.kind == "shoot"]
    assert shots == ["shoot b bow 1", "shoot b bow 2"]
    state = duel({"attacks": 1, "weapons": [BOW]}, b_at=(5, 10))
    shots = [str(o) for o in combat.ranged_options(state, state.chars["a"])
             if o.kind == "shoot"]
    assert shots == ["shoot b bow 1"]


@pytest.mark.rule("WB-ATTACK-15")
def test_a_melee_weapon_with_an_attack_limit_keeps_to_it() -> None:
    flail = {"name": "flail", "kind": "melee", "attack_limit": 1}
    state = duel({"attacks": 3, "weapons": [flail, SWORD]})
    assert [str(o) for o in combat.melee_options(state, state.chars["a"])] == [
        "attack b flail 1", "attack b sword 1", "attack b sword 2", "attack b sword 3"]


@pytest.mark.rule("WB-ATTACK-16", "WB-RANGED-04", "WB-RANGED-06")
@pytest.mark.rule("WB-AMB-26")
def test_shots_and_melee_attacks_share_one_pool_per_turn() -> None:
    sling = {"name": "sling", "kind": "ranged", "strength": 3, "range": 10, "attack_limit": 2}
    state = duel({"attacks": 3, "weapons": [BOW, sling, SWORD]}, b_at=(5, 10))
    a = state.chars["a"]
    shots = [str(o) for o in combat.ranged_options(state, a) if o.kind == "shoot"]
    assert "shoot b bow 2 sling 1" in shots and "shoot b bow 2 sling 2" not in shots
    battle = make_battle(state, [10, 10])
    combat.take_ranged(state, battle, a, Order.of("shoot", "b", "bow", 1, "sling", 1))
    assert a.attacks_left == 1
    state.place(state.chars["b"], (5, 6))  # the unused Attack stays for the Melee Phase
    assert [str(o) for o in combat.melee_options(state, a)] == ["attack b sword 1"]


# --------------------------------------------------------------------------- criticals


@pytest.mark.rule("WB-CIRC-06", "WB-CIRC-07")
def test_a_critical_hit_always_hits_and_its_wound_is_doubled_and_saved_separately() -> None:
    state = duel({"melee": 1}, {"wounds": 3, "toughness": 2, "armour": 1})
    state.chars["a"].prone = True  # -2 to hit: target -1, only a 1 hits
    battle = melee(state, [1, 3, 2, 9])
    assert last_attack(battle) == (True, True, 2, 1, 0, 1)
    assert targets(battle, "to hit") == [-1]
    assert targets(battle, "defense") == [3, 3]


@pytest.mark.rule("WB-CIRC-07")
@pytest.mark.rule("WB-AMB-30")
def test_a_critical_hit_that_fails_to_wound_does_nothing() -> None:
    state = duel({"strength": 4})
    battle = melee(state, [1, 7])
    assert last_attack(battle) == (True, True, 0, 0, 0, 0)


@pytest.mark.rule("WB-CIRC-07")
@pytest.mark.rule("WB-AMB-30")
def test_option_always_gives_the_extra_wound_even_when_the_strength_test_fails() -> None:
    state = duel({"strength": 4}, {"wounds": 3}, options={"critical_extra_wound": "always"})
    battle = melee(state, [1, 7, 9])
    assert last_attack(battle) == (True, True, 1, 0, 0, 1)


@pytest.mark.rule("WB-CIRC-08", "WB-INJURY-01")
@pytest.mark.rule("WB-AMB-39")
def test_a_critical_hit_that_brings_the_target_to_zero_adds_2_to_the_injury_roll() -> None:
    state = duel(b={"wounds": 2, "toughness": 2})
    battle = melee(state, [1, 2, 9, 9, 6])  # injury face 6 + 2 = 8: Incapacitated
    assert [(e["roll"], e["critical"]) for e in events(battle, "injury_roll")] == [(8, True)]
    assert state.chars["b"].condition == INCAPACITATED


@pytest.mark.rule("WB-CIRC-08")
def test_the_injury_bonus_needs_a_confirmed_critical_wound() -> None:
    # attack 1: a critical hit whose wounds are both saved; attack 2: a normal wound to 0
    state = duel({"attacks": 2}, {"wounds": 1, "toughness": 5})
    battle = melee(state, [1, 2, 3, 3, 2, 2, 9, 6], count=2)
    assert [(e["roll"], e["critical"]) for e in events(battle, "injury_roll")] == [(6, False)]
    assert state.chars["b"].condition == STUNNED


# --------------------------------------------------------------------------- circumstances


@pytest.mark.rule("WB-CIRC-01")
def test_high_ground_gives_plus_1_to_hit_melee_and_ranged() -> None:
    state = duel({"melee": 5}, features=[{"from": [5, 5], "elevation": 1}])
    assert targets(melee(state, [9]), "to hit") == [6]
    state = duel({"ranged": 5, "weapons": [BOW]}, b_at=(5, 10),
                 features=[{"from": [5, 5], "elevation": 3}])
    battle = make_battle(state, [9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "to hit") == [6]


@pytest.mark.rule("WB-CIRC-02", "WB-CIRC-03")
@pytest.mark.rule("WB-AMB-31")
def test_overkill_allows_no_defense_save_and_incapacitates_without_an_injury_roll() -> None:
    maul = {"name": "maul", "kind": "melee", "strength": 7}
    state = duel({"weapons": [maul], "strength": 3}, {"toughness": 3, "armour": 5, "wounds": 3})
    battle = melee(state, [2, 2], weapon="maul")  # no Defense die, no Injury die
    assert last_attack(battle) == (True, False, 1, 0, 0, 1)
    assert state.chars["b"].condition == INCAPACITATED
    assert events(battle, "injury_roll") == []
    assert events(battle, "incapacitated")[0]["why"] == "overkill"


@pytest.mark.rule("WB-CIRC-02")
def test_strength_exactly_twice_toughness_is_not_overkill() -> None:
    maul = {"name": "maul", "kind": "melee", "strength": 6}
    state = duel({"weapons": [maul]}, {"toughness": 3, "wounds": 3})
    battle = melee(state, [2, 2, 9], weapon="maul")
    assert state.chars["b"].wounds == 2 and targets(battle, "defense") == [3]


@pytest.mark.rule("WB-CIRC-03")
def test_a_ward_save_stops_an_overkill_wound() -> None:
    maul = {"name": "maul", "kind": "melee", "strength": 9}
    state = duel({"weapons": [maul]}, {"toughness": 3, "ward": 5, "wounds": 3})
    battle = melee(state, [2, 2, 5], weapon="maul")
    assert last_attack(battle) == (True, False, 1, 0, 1, 0)
    assert state.chars["b"].condition != INCAPACITATED


@pytest.mark.rule("WB-CIRC-04", "WB-CIRC-05")
@pytest.mark.rule("WB-AMB-32")
def test_outnumbered_alone_against_two_but_not_with_an_adjacent_ally() -> None:
    alone = duel(others=(char("c", (4, 6), "A"),))
    assert combat.outnumbered(alone, alone.chars["b"]) is True
    battle = melee(alone, [2, 2, 9])
    assert targets(battle, "defense") == [2]  # 3 + 0 - 1
    helped = duel(others=(char("c", (4, 6), "A"), char("d", (6, 7), "B")))
    assert combat.outnumbered(helped, helped.chars["b"]) is False
    assert targets(melee(helped, [2, 2, 9]), "defense") == [3]


@pytest.mark.rule("WB-CIRC-04")
@pytest.mark.rule("WB-AMB-32")
def test_outnumbered_also_counts_against_ranged_attacks() -> None:
    state = make_state([char("s", (5, 1), "A", weapons=[BOW]), char("a", (4, 8), "A"),
                        char("c", (6, 8), "A"), char("b", (5, 8), "B", wounds=3)])
    battle = make_battle(state, [2, 2, 9])
    combat.take_ranged(state, battle, state.chars["s"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "defense") == [2]


@pytest.mark.rule("WB-CIRC-09", "WB-CIRC-10")
def test_parry_penalises_a_melee_attacker_with_lower_melee() -> None:
    state = duel({"melee": 5}, {"melee": 6, "talents": ["parry"]})
    assert targets(melee(state, [9]), "to hit") == [4]
    state = duel({"melee": 6}, {"melee": 6, "talents": ["parry"]})
    assert targets(melee(state, [9]), "to hit") == [6]


@pytest.mark.rule("WB-CIRC-10")
def test_parry_does_not_touch_ranged_attacks() -> None:
    state = duel({"ranged": 3, "weapons": [BOW]}, {"melee": 9, "talents": ["parry"]},
                 b_at=(5, 10))
    battle = make_battle(state, [9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "to hit") == [3]


@pytest.mark.rule("WB-CIRC-11", "WB-TEST-07")
@pytest.mark.rule("WB-AMB-33", "WB-AMB-02")
def test_dodge_compares_agility_with_melee_or_ranged_and_stacks_with_parry() -> None:
    state = duel({"melee": 5}, {"melee": 6, "agility": 6, "talents": ["parry", "dodge"]})
    assert targets(melee(state, [9]), "to hit") == [3]
    state = duel({"ranged": 5, "weapons": [BOW]}, {"agility": 6, "talents": ["dodge"]},
                 b_at=(5, 10))
    battle = make_battle(state, [9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "to hit") == [4]


@pytest.mark.rule("WB-CIRC-09")
@pytest.mark.rule("WB-AMB-02")
def test_the_superior_skill_cap_option_limits_the_combined_penalty() -> None:
    state = duel({"melee": 5}, {"melee": 6, "agility": 6, "talents": ["parry", "dodge"]},
                 options={"superior_skill_max_penalty": 1})
    assert targets(melee(state, [9]), "to hit") == [4]


@pytest.mark.rule("WB-CIRC-12", "WB-INJURY-09", "WB-MOVE-22")
@pytest.mark.rule("WB-AMB-33", "WB-AMB-34")
def test_prone_and_stunned_targets_give_no_superior_skill_penalty() -> None:
    a = char("a", (5, 5), "A", melee=3)
    b = char("b", (5, 6), "B", facing="S", melee=9, agility=9, talents=["parry", "dodge"])
    state = make_state([a, b])
    target = state.chars["b"]
    target.prone = True
    circ = combat.melee_circumstances(state, state.chars["a"], target)
    assert hit_mods(state.chars["a"], target, circ) == []
    target.prone = False
    target.condition = STUNNED
    circ = combat.melee_circumstances(state, state.chars["a"], target)
    assert hit_mods(state.chars["a"], target, circ) == []
    target.condition = "standing"
    circ = combat.melee_circumstances(state, state.chars["a"], target)
    assert total(hit_mods(state.chars["a"], target, circ)) == -2


@pytest.mark.rule("WB-CIRC-15", "WB-CIRC-16", "WB-CIRC-17")
@pytest.mark.rule("WB-AMB-35")
def test_an_attack_from_the_rear_arc_flanks() -> None:
    b_stats = {"melee": 9, "talents": ["parry"], "toughness": 3}
    for facing, flanked in (("N", True), ("NE", True), ("NW", True), ("E", False),
                            ("S", False)):
        state = duel({"melee": 5}, b_stats, b_facing=facing)
        battle = melee(state, [2, 2, 9])
        assert targets(battle, "to hit") == ([5] if flanked else [4]), facing
        assert targets(battle, "defense") == ([2] if flanked else [3]), facing


@pytest.mark.rule("WB-CIRC-13", "WB-CIRC-14")
@pytest.mark.rule("WB-AMB-35", "WB-AMB-21")
def test_an_attack_of_opportunity_counts_as_flanking() -> None:
    state = duel({"melee": 5}, {"melee": 9, "talents": ["parry"]})
    a, b = state.chars["a"], state.chars["b"]
    circ = combat.melee_circumstances(state, a, b, opportunity=True)
    assert circ.flanking and hit_mods(a, b, circ) == []
    battle = make_battle(state, [2, 2, 9])
    combat.melee_batch(state, battle, a, b, a.weapons[0], 1, opportunity=True)
    assert targets(battle, "defense") == [2]
    assert a.attacks_used == 0  # WB-AMB-21: no Attack used


@pytest.mark.rule("WB-CIRC-18", "WB-MOVE-09")
@pytest.mark.rule("WB-AMB-31", "WB-AMB-16")
def test_a_charger_gets_plus_1_to_hit_and_damage_not_to_strength() -> None:
    maul = {"name": "maul", "kind": "melee", "strength": 6}
    state = duel({"melee": 5, "weapons": [maul]}, {"toughness": 3, "wounds": 2})
    state.chars["a"].charged = "b"
    battle = melee(state, [2, 2, 9], weapon="maul")
    assert targets(battle, "to hit") == [6]
    assert targets(battle, "damage") == [7]
    assert targets(battle, "defense") == [3]  # 6 is not above 2 x 3: no Overkill
    assert state.chars["b"].condition != INCAPACITATED


@pytest.mark.rule("WB-CIRC-18", "WB-UTIL-08")
def test_charging_a_braced_target_gives_no_bonus() -> None:
    state = duel({"melee": 5})
    state.chars["a"].charged = "b"
    state.chars["a"].charge_braced = True
    assert targets(melee(state, [9]), "to hit") == [5]


@pytest.mark.rule("WB-CIRC-19")
def test_a_volley_shoots_over_a_wall_at_minus_2() -> None:
    wall = [{"from": [4, 7], "to": [6, 7], "terrain": "blocking"}]
    state = duel({"ranged": 6, "weapons": [BOW]}, b_at=(5, 10), features=wall)
    a = state.chars["a"]
    assert [str(o) for o in combat.ranged_options(state, a)] == [
        "volley b bow 1"]
    battle = make_battle(state, [9])
    combat.take_ranged(state, battle, a, Order.of("volley", "b", "bow", 1))
    assert targets(battle, "to hit") == [4]
    no_volley = duel({"weapons": [{**BOW, "volley": False}]}, b_at=(5, 10), features=wall)
    assert combat.ranged_options(no_volley, no_volley.chars["a"]) == []


@pytest.mark.rule("WB-CIRC-20")
def test_shooting_into_melee_is_minus_2() -> None:
    state = make_state([char("a", (5, 1), "A", ranged=6, weapons=[BOW]),
                        char("b", (5, 8), "B"), char("c", (5, 9), "A")])
    battle = make_battle(state, [9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "to hit") == [4]


@pytest.mark.rule("WB-CIRC-21")
def test_cover_on_the_line_or_on_the_target_is_minus_1() -> None:
    for cover in ([5, 4], [5, 8]):
        state = make_state([char("a", (5, 1), "A", ranged=6, weapons=[BOW]),
                            char("b", (5, 8), "B")],
                           features=[{"from": cover, "cover": True}])
        battle = make_battle(state, [9])
        combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
        assert targets(battle, "to hit") == [5], cover


@pytest.mark.rule("WB-CIRC-18", "WB-TEST-07")
def test_melee_modifiers_add_up() -> None:
    state = duel({"melee": 5}, {"melee": 9, "talents": ["parry"]},
                 features=[{"from": [5, 5], "elevation": 1}])
    a = state.chars["a"]
    a.charged = "b"
    a.prone = True
    # +1 high ground, +1 charging, -2 prone, -1 parry
    assert targets(melee(state, [9]), "to hit") == [4]


# --------------------------------------------------------------------------- special rules


@pytest.mark.rule("WB-SPECIAL-01", "WB-SPECIAL-02", "WB-SPECIAL-03")
@pytest.mark.rule("WB-AMB-36", "WB-AMB-26")
def test_a_wave_strikes_everything_in_its_arc_without_a_to_hit_roll() -> None:
    breath = {"name": "breath", "kind": "ranged", "strength": 5, "range": 4, "wave": True,
              "attack_limit": 1}
    state = make_state([char("a", (5, 5), "A", weapons=[breath]),
                        char("b", (5, 8), "B"), char("c", (5, 7), "A"),
                        char("d", (8, 5), "B")])
    a = state.chars["a"]
    assert "wave 5 8 breath" in [str(o) for o in combat.ranged_options(state, a)]
    # c (ally, nearer) then b are struck: damage and Defense only; d (east) is outside
    battle = make_battle(state, [2, 9, 2, 9])
    combat.take_ranged(state, battle, a, Order.of("wave", 5, 8, "breath"))
    struck = [(e["target"], e["hit"], e["critical"]) for e in events(battle, "attack")]
    assert sorted(struck) == [("b", True, False), ("c", True, False)]
    assert targets(battle, "to hit") == []
    assert a.attacks_used == 1


@pytest.mark.rule("WB-SPECIAL-04")
@pytest.mark.rule("WB-AMB-37")
def test_each_blast_hit_also_hits_everyone_within_its_radius() -> None:
    bomb = {"name": "bomb", "kind": "ranged", "strength": 4, "range": 10, "blast": 1,
            "attack_limit": 2}
    state = make_state([char("a", (5, 1), "A", attacks=2, weapons=[bomb]),
                        char("b", (5, 8), "B", wounds=3), char("c", (6, 9), "B", wounds=3),
                        char("d", (5, 10), "B")])
    # shot 1 hits b (damage 9 fails), shot 2 is a Critical Hit (damage 9 fails); then c, within
    # 1 square of b, takes the 2 blast hits as one batch: no to-hit die, no Critical Hit, two
    # damage dice (9 and 8 fail); d, 2 squares away, is not touched
    battle = make_battle(state, [2, 9, 1, 9, 9, 8])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bomb", 2))
    assert isinstance(battle.dice, ScriptedDice) and battle.dice.unused == 0
    blast = [e for e in events(battle, "attack") if e["target"] == "c"]
    assert [(e["hit"], e["critical"]) for e in blast] == [(True, False), (True, False)]
    assert all(e["target"] != "d" for e in events(battle, "attack"))


@pytest.mark.rule("WB-SPECIAL-04")
@pytest.mark.rule("WB-AMB-37")
def test_a_missed_blast_shot_makes_no_blast() -> None:
    bomb = {"name": "bomb", "kind": "ranged", "strength": 4, "range": 10, "blast": 1,
            "attack_limit": 1}
    state = make_state([char("a", (5, 1), "A", weapons=[bomb]), char("b", (5, 8), "B"),
                        char("c", (6, 8), "B")])
    battle = make_battle(state, [10])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bomb", 1))
    assert [e["target"] for e in events(battle, "attack")] == ["b"]


@pytest.mark.rule("WB-SPECIAL-06")
@pytest.mark.rule("WB-AMB-30")
def test_a_poisoned_critical_hit_wounds_twice_without_a_strength_test() -> None:
    knife = {"name": "knife", "kind": "melee", "poisoned": True}
    state = duel({"weapons": [knife], "strength": 1}, {"wounds": 3})
    battle = melee(state, [1, 9, 9], weapon="knife")  # no damage die
    assert last_attack(battle) == (True, True, 2, 0, 0, 2)
    assert targets(battle, "damage") == []


@pytest.mark.rule("WB-SPECIAL-06")
def test_a_poisoned_normal_hit_still_tests_strength() -> None:
    knife = {"name": "knife", "kind": "melee", "poisoned": True}
    state = duel({"weapons": [knife], "strength": 1}, {"wounds": 3})
    battle = melee(state, [2, 5], weapon="knife")
    assert last_attack(battle) == (True, False, 0, 0, 0, 0)


@pytest.mark.rule("WB-SPECIAL-05")
@pytest.mark.rule("WB-AMB-38")
def test_only_magic_attacks_can_strike_ethereal_enemies() -> None:
    state = duel(b={"traits": ["ethereal"]})
    assert combat.melee_options(state, state.chars["a"]) == []
    state = duel({"weapons": [{"name": "rune blade", "kind": "melee", "magic": True}]},
                 {"traits": ["ethereal"]})
    assert [str(o) for o in combat.melee_options(state, state.chars["a"])] == [
        "attack b rune_blade 1"]


# --------------------------------------------------------------------------- Ranged Phase


def ranged_phase(state: WarbandState, dice: list[int], orders: dict[str, list[str]]) -> Any:
    battle = make_battle(state, dice, orders)
    game.ranged_phase(state, battle)
    return battle


@pytest.mark.rule("WB-RANGED-01", "WB-RANGED-02")
def test_the_ranged_phase_goes_in_initiative_order_one_action_each() -> None:
    state = make_state([char("a", (5, 1), "A", weapons=[BOW], attacks=2),
                        char("b", (5, 10), "B", weapons=[BOW], attacks=2, wounds=3)])
    state.order = ["b", "a"]
    battle = ranged_phase(state, [10, 10], {"A": ["shoot b bow 1"], "B": ["shoot a bow 1"]})
    assert [e["who"] for e in events(battle, "attack")] == ["b", "a"]
    assert state.chars["a"].ranged_done and state.chars["b"].ranged_done


@pytest.mark.rule("WB-RANGED-03")
def test_an_engaged_character_shoots_only_with_a_melee_safe_weapon() -> None:
    pistol = {"name": "pistol", "kind": "ranged", "strength": 4, "range": 6,
              "attack_limit": 1, "melee_safe": True}
    state = make_state([char("a", (5, 5), "A", weapons=[BOW, pistol, SWORD]),
                        char("b", (5, 6), "B"), char("c", (5, 9), "B")])
    shots = [str(o) for o in combat.ranged_options(state, state.chars["a"])]
    assert shots == ["shoot b pistol 1", "shoot c pistol 1"]


@pytest.mark.rule("WB-RANGED-05")
def test_attack_spells_share_the_attacks_pool() -> None:
    state = duel({"attacks": 1, "weapons": [BOW]}, b_at=(5, 10))
    a = state.chars["a"]
    a.attacks_used = 1  # a Ranged Spell took the only Attack
    assert combat.ranged_options(state, a) == []


@pytest.mark.rule("WB-RANGED-07", "WB-RANGED-08", "WB-RANGED-09", "WB-RANGED-10")
@pytest.mark.rule("WB-AMB-25")
def test_stand_and_shoot_at_the_charger_at_minus_1_with_any_weapon() -> None:
    state = make_state([char("a", (5, 5), "A", ranged=6, weapons=[BOW]),
                        char("b", (5, 6), "B", wounds=2), char("c", (5, 9), "B")])
    a = state.chars["a"]
    a.chargers = ["b"]
    a.stand_and_shoot_ok = True
    options = [str(o) for o in combat.ranged_options(state, a)]
    # the charger only, with the bow that is not Melee-Safe; no Shoot while Engaged
    assert options == ["stand-shoot b bow 1"]
    battle = make_battle(state, [9])
    combat.take_ranged(state, battle, a, Order.of("stand-shoot", "b", "bow", 1))
    assert targets(battle, "to hit") == [5]  # -1 replaces the -2 into melee (WB-AMB-25)
    assert a.attacks_left == 0


@pytest.mark.rule("WB-RANGED-07")
def test_only_a_character_charged_before_moving_may_stand_and_shoot() -> None:
    from warhost.rulesets.warband import movement

    state = make_state([char("a", (5, 1), "A", weapons=[BOW]),
                        char("b", (5, 6), "B", agility=5)])
    a, b = state.chars["a"], state.chars["b"]
    a.moved = True
    movement.charge(state, make_battle(state), b, a)
    assert b.charged == "a" and not a.stand_and_shoot_ok
    state = make_state([char("a", (5, 1), "A", weapons=[BOW]),
                        char("b", (5, 6), "B", agility=5)])
    a, b = state.chars["a"], state.chars["b"]
    movement.charge(state, make_battle(state), b, a)
    assert a.stand_and_shoot_ok and a.moved
    assert [str(o) for o in combat.ranged_options(state, a)] == ["stand-shoot b bow 1"]


@pytest.mark.rule("WB-RANGED-02", "WB-MOVE-20")
def test_a_prone_or_sprinting_character_cannot_shoot() -> None:
    state = duel({"weapons": [BOW]}, b_at=(5, 10))
    a = state.chars["a"]
    a.prone = True
    assert combat.ranged_options(state, a) == []
    a.prone = False
    a.sprinted = True
    assert combat.ranged_options(state, a) == []


# --------------------------------------------------------------------------- Melee Phase


@pytest.mark.rule("WB-MELEE-02", "WB-MELEE-03")
def test_chargers_strike_first_unless_their_target_braced() -> None:
    state = make_state([char("x", (1, 1), "A"), char("y", (5, 5), "A"),
                        char("z", (8, 8), "B")])
    state.order = ["x", "y", "z"]
    state.chars["z"].charged = "y"
    state.chars["y"].charged = "z"
    assert [c.id for c in game.melee_order(state)] == ["y", "z", "x"]
    state.chars["y"].charge_braced = True
    assert [c.id for c in game.melee_order(state)] == ["z", "x", "y"]


@pytest.mark.rule("WB-MELEE-04", "WB-MELEE-05")
@pytest.mark.rule("WB-AMB-26")
def test_one_melee_action_with_up_to_the_attacks_left_at_one_target() -> None:
    state = make_state([char("a", (5, 5), "A", attacks=2),
                        char("b", (5, 6), "B", wounds=3), char("c", (6, 6), "B")])
    a = state.chars["a"]
    options = [str(o) for o in combat.melee_options(state, a)]
    assert options == ["attack b sword 1", "attack b sword 2", "attack c sword 1",
                       "attack c sword 2"]
    battle = make_battle(state, [10, 10], {"A": ["attack b sword 2"]})
    game.melee_phase(state, battle)
    assert [e["target"] for e in events(battle, "attack")] == ["b", "b"]
    assert a.attacks_left == 0 and a.melee_done


@pytest.mark.rule("WB-MELEE-06")
def test_no_melee_action_without_attacks_left() -> None:
    state = duel({"attacks": 1})
    state.chars["a"].attacks_used = 1
    assert combat.melee_options(state, state.chars["a"]) == []


@pytest.mark.rule("WB-MELEE-01", "WB-AMB-27")
def test_a_character_without_a_melee_weapon_fights_unarmed_with_its_strength() -> None:
    state = duel({"weapons": [BOW], "strength": 3})
    assert [str(o) for o in combat.melee_options(state, state.chars["a"])] == [
        "attack b unarmed 1"]
    battle = melee(state, [2, 4], weapon="unarmed")
    assert targets(battle, "damage") == [3]
    state = duel({"weapons": [BOW]}, options={"unarmed_attacks": False})
    assert combat.melee_options(state, state.chars["a"]) == []


@pytest.mark.rule("WB-ATTACK-05")
@pytest.mark.rule("WB-AMB-31")
def test_a_profile_strength_above_the_wielders_is_used_in_melee() -> None:
    maul = {"name": "maul", "kind": "melee", "strength": 6}
    state = duel({"weapons": [maul], "strength": 4}, {"toughness": 4})
    assert targets(melee(state, [2, 9], weapon="maul"), "damage") == [6]
    dagger = {"name": "dagger", "kind": "melee", "strength": 2}
    state = duel({"weapons": [dagger], "strength": 4})
    assert targets(melee(state, [2, 9], weapon="dagger"), "damage") == [4]


@pytest.mark.rule("WB-MOVE-21")
def test_a_prone_attacker_takes_minus_2_in_melee() -> None:
    state = duel({"melee": 6})
    state.chars["a"].prone = True
    assert targets(melee(state, [9]), "to hit") == [4]


@pytest.mark.rule("WB-MOVE-19")
def test_a_prone_target_gets_plus_1_defense_against_ranged_only() -> None:
    state = duel({"weapons": [BOW, SWORD]}, {"toughness": 3}, b_at=(5, 10))
    state.chars["b"].prone = True
    battle = make_battle(state, [2, 2, 9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bow", 1))
    assert targets(battle, "defense") == [4]
    state = duel(b={"toughness": 3})
    state.chars["b"].prone = True
    assert targets(melee(state, [2, 2, 9]), "defense") == [3]


def test_the_pipeline_on_its_own_forced_hit() -> None:
    state = duel()
    battle = make_battle(state, [2, 9])
    result = resolve_attack(state, battle, state.chars["a"], state.chars["b"],
                            AttackProfile("x", 4), Circumstances(), forced_hit=True)
    assert result.hit and not result.critical and result.confirmed == 1


@pytest.mark.rule("WB-AMB-37", "WB-SPECIAL-04")
def test_a_blast_can_strike_the_shooter_and_skips_ethereal_characters() -> None:
    bomb = {"name": "bomb", "kind": "ranged", "strength": 4, "range": 10, "blast": 2,
            "attack_limit": 1}
    state = make_state([char("a", (5, 5), "A", weapons=[bomb], wounds=3),
                        char("b", (5, 7), "B", wounds=3),
                        char("g", (6, 7), "B", traits=["ethereal"])])
    # the hit on b (damage 9 fails), then the blast on a: damage 9 fails
    battle = make_battle(state, [2, 9, 9])
    combat.take_ranged(state, battle, state.chars["a"], Order.of("shoot", "b", "bomb", 1))
    assert [(e["who"], e["target"]) for e in events(battle, "attack")] == [
        ("a", "b"), ("a", "a")]
