"""Removing casualties (W4-CAS, W4-CMD-02/05/07/12, W4-TYPE-03, W4-AMB-29/30/53/54/55)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import events, get, make_battle, make_state, profile, unit
from warhost.rulesets.dnd4e_war import casualties
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.state import Unit, WarState

SPIDER = profile("Giant spider", size="large", monster=True, resilience=2,
                 company={"columns": 2, "rows": 1})


def one(entry: dict[str, Any]) -> tuple[WarState, Unit]:
    state = make_state([entry, unit("enemy", "B" if entry["_side"] == "A" else "A",
                                    at=(60, 40))])
    return state, get(state, entry["id"])


def hit(state: WarState, target: Unit, hits: int, dice: tuple[int, ...] = (),
        damage: str | None = None) -> casualties.Losses:
    battle = make_battle(state, dice=list(dice))
    return casualties.apply_hits(state, battle, target, hits, "enemy", "shooting",
                                 damage=damage)


@pytest.mark.rule("W4-CAS-02")
@pytest.mark.rule("W4-CAS-03")
@pytest.mark.rule("W4-CAS-04")
@pytest.mark.rule("W4-AMB-54")
def test_seven_hits_on_resilience_two_spiders_slay_three() -> None:
    state, spiders = one(unit("spiders", companies=4, files=2, profile=SPIDER))
    assert hit(state, spiders, 7) == casualties.Losses(3)
    assert spiders.models == 5
    assert hit(state, spiders, 1) == casualties.Losses(0)  # no carry-over between batches


@pytest.mark.rule("W4-CAS-01")
def test_each_hit_slays_a_resilience_one_minion() -> None:
    state, men = one(unit("men", companies=3, files=3))
    assert hit(state, men, 5).slain == 5 and men.models == 19


@pytest.mark.rule("W4-TYPE-03")
@pytest.mark.rule("W4-AMB-30")
def test_cavalry_models_take_two_hits_and_a_lone_rider_is_lost_to_hope() -> None:
    riders = profile("Rider", cavalry=True, resilience=2)
    state, cav = one(unit("cav", profile=riders))
    assert cav.companies == [2]
    losses = hit(state, cav, 3)
    assert losses == casualties.Losses(1, 1) and cav.destroyed


@pytest.mark.rule("W4-CAS-05")
@pytest.mark.rule("W4-CMD-02")
@pytest.mark.rule("W4-CAS-06")
def test_depleted_then_rearmost_command_company_last_then_hope_is_lost() -> None:
    state, men = one(unit("men", companies=3, files=3, models=21, command={"standard": True}))
    assert men.companies == [8, 8, 5] and men.command_slot == 1
    hit(state, men, 5)  # the depleted company goes first; the command company re-centres
    assert men.companies == [8, 8] and men.command_slot == 0
    hit(state, men, 3)
    assert men.companies == [8, 5]
    hit(state, men, 5)
    assert men.companies == [8] and men.command_slot == 0
    hit(state, men, 3)
    assert men.companies == [5] and not men.destroyed
    losses = hit(state, men, 1)
    assert losses == casualties.Losses(1, 4) and men.destroyed


@pytest.mark.rule("W4-CAS-06")
@pytest.mark.rule("W4-CAS-07")
@pytest.mark.rule("W4-AMB-29")
def test_hope_is_lost_removes_the_last_company_at_half_strength_and_says_how_many() -> None:
    state, men = one(unit("men", models=7))
    battle = make_battle(state)
    losses = casualties.apply_hits(state, battle, men, 3, "enemy", "close combat")
    assert (losses.slain, losses.hope_lost, losses.removed) == (3, 4, 7)
    assert [(e["unit"], e["removed"]) for e in events(battle, "hope_is_lost")] == [("men", 4)]
    assert [e["unit"] for e in events(battle, "destroyed")] == ["men"]


@pytest.mark.rule("W4-CAS-08")
@pytest.mark.rule("W4-MONSTER-03")
@pytest.mark.rule("W4-IMMUNE-02")
@pytest.mark.rule("W4-AMB-30")
def test_fearless_last_man_monsters_and_skirmishers_keep_their_hope() -> None:
    cases = {
        "fearless": profile("Fearless", rules=["fearless"]),
        "last": profile("Last", rules=["to_the_last_man"]),
        "monster": profile("Brute", monster=True),
        "skirm": profile("Skirm", formation="skirmish", unit_size=[1, 16]),
    }
    for uid, prof in cases.items():
        state, u = one(unit(uid, profile=prof, companies=8 if uid == "skirm" else 1))
        losses = hit(state, u, 6)
        assert losses == casualties.Losses(6) and u.models == 2 and u.alive, uid


@pytest.mark.rule("W4-CMD-07")
@pytest.mark.rule("W4-CMD-12")
@pytest.mark.rule("W4-CMD-05")
def test_standard_and_musician_stay_while_normal_models_remain() -> None:
    state, men = one(unit("men", profile=profile("Fearless", rules=["fearless"]),
                          command={"captain": {"attacks": 2}, "standard": True,
                                   "musician": True}))
    hit(state, men, 5)
    assert men.models == 3 and men.standard and men.musician and men.captain
    battle = make_battle(state)
    casualties.apply_hits(state, battle, men, 1, "enemy", "shooting")
    assert not men.musician and men.standard and men.captain
    assert events(battle, "command_lost")[0]["models"] == ["musician"]
    hit(state, men, 1)
    assert not men.standard and men.captain is not None
    hit(state, men, 1)
    assert men.captain is None and men.destroyed


@pytest.mark.rule("W4-AMB-53")
@pytest.mark.rule("W4-STAT-05")
def test_non_minions_take_rolled_damage_one_model_at_a_time_excess_lost() -> None:
    ogre = profile("Ogre", hp=20, company={"columns": 3, "rows": 1})
    state, ogres = one(unit("ogres", profile=ogre))
    losses = hit(state, ogres, 3, dice=(6, 6, 5, 4, 6, 6), damage="2d6")
    assert losses.slain == 1 and ogres.models == 2 and ogres.wounds == 12


def test_damage_expressions_turn_weapon_dice_into_dice() -> None:
    def power(damage: str, weapon: str | None) -> Power:
        return Power(name="p", kind="ranged", bonus=1, damage=damage, weapon_dice=weapon)

    assert casualties.damage_expression(power("1[W]+4", "1d10")) == "1d10+4"
    assert casualties.damage_expression(power("2[W]+3", "2d6")) == "4d6+3"
    assert casualties.damage_expression(power("2d6+4", None)) == "2d6+4"


@pytest.mark.rule("W4-CAS-09")
@pytest.mark.rule("W4-CAS-10")
@pytest.mark.rule("W4-AMB-56")
def test_a_condition_covers_the_unit_and_one_save_with_the_best_bonus_ends_it() -> None:
    state, men = one(unit("men", profile=profile("Men", saves=2)))
    battle = make_battle(state, dice=[7, 8])
    casualties.add_condition(battle, men, "slowed")
    assert men.conditions == {"slowed"}
    assert not casualties.saving_throw(battle, men, "slowed")  # 7 + 2 = 9
    assert casualties.saving_throw(battle, men, "slowed")  # 8 + 2 = 10
    assert men.conditions == set()


@pytest.mark.rule("W4-CAS-11")
@pytest.mark.rule("W4-CAS-12")
def test_ongoing_damage_is_one_hit_on_resilience_one_minions() -> None:
    state, men = one(unit("men", companies=2, files=2))
    battle = make_battle(state)
    assert casualties.ongoing_damage(state, battle, men, 5) == casualties.Losses(1)
    assert men.companies == [8, 7]


@pytest.mark.rule("W4-CAS-13")
@pytest.mark.rule("W4-AMB-55")
def test_ongoing_damage_weakens_a_tough_minion_which_takes_hits_first_this_turn() -> None:
    state, spiders = one(unit("spiders", companies=4, files=2, profile=SPIDER))
    battle = make_battle(state)
    assert casualties.ongoing_damage(state, battle, spiders, 5) == casualties.Losses(0)
    assert spiders.weakened == 1
    assert hit(state, spiders, 5).slain == 3  # 1 hit for the weakened one, 2 + 2
    assert spiders.weakened == 0
    casualties.ongoing_damage(state, battle, spiders, 5)
    spiders.new_turn()
    assert spiders.weakened == 0 and hit(state, spiders, 1).slain == 0


@pytest.mark.rule("W4-CAS-11")
def test_ongoing_damage_on_non_minions_costs_hit_points() -> None:
    state, ogres = one(unit("ogres", profile=profile("Ogre", hp=20), models=2))
    battle = make_battle(state)
    casualties.ongoing_damage(state, battle, ogres, 5)
    assert ogres.wounds == 5 and ogres.models == 2
