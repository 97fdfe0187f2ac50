"""Characters shooting and shot at (W4-CHAR-10 to 14, W4-SHOOT-05/18/19, W4-AMB-47,
W4-DEC-18)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    character,
    events,
    get,
    make_battle,
    make_state,
    profile,
    unit,
)
from warhost.rulesets.dnd4e_war import char_shooting, shooting

BOW = {"name": "Longbow", "kind": "ranged", "bonus": 10, "range": 20, "damage": "1[W]+4",
       "weapon_dice": "1d10"}
HERO_BOW = {**BOW, "bonus": 14}
ARCHER = profile("Archer", powers=[BOW])
TARGET_AC = 16


def archers_facing_foe(**hero: Any) -> Any:
    return make_state([unit("a", profile=ARCHER), unit("foe", "B", at=(20, 25), facing=180),
                       unit("other", "B", at=(30, 25), facing=180)],
                      characters=[character("hero", joined="a", powers=[HERO_BOW], **hero)])


@pytest.mark.rule("W4-CHAR-11")
def test_a_joined_character_cannot_be_targeted() -> None:
    state = archers_facing_foe()
    foe_bow = profile("Enemy archer", powers=[BOW])
    get(state, "foe").profile = get(state, "foe").profile.model_validate(foe_bow)
    targets = shooting.legal_targets(state, get(state, "foe"), get(state, "foe").powers()[0])
    assert [t.id for t in targets] == ["a"]  # never the hero himself


@pytest.mark.rule("W4-CHAR-14")
@pytest.mark.rule("W4-SHOOT-05")
@pytest.mark.rule("W4-SHOOT-18")
@pytest.mark.rule("W4-DEC-18")
def test_the_character_rolls_apart_at_his_bonus_and_at_the_units_target() -> None:
    state = archers_facing_foe()
    # the unit: 4 front-row dice (the hero's place aside) need 16 - 10 = 6, floored to 8;
    # the hero, a character, needs 16 - 14 = 2 and multiattacks the minions with 3 attacks
    battle = make_battle(state, dice=[8, 7, 7, 7, 2, 1, 1], orders={"A": [
        "shoot a", "use a longbow", "target foe", "shoot hero longbow foe", "done"]})
    shooting.side_shoots(state, battle, "A")
    shot = events(battle, "shoot")[0]
    assert (shot["dice"], shot["needed"], shot["hits"]) == (4, 8, 1)
    mine = events(battle, "character_shoots")[0]
    assert (mine["dice"], mine["needed"], mine["hits"], mine["target"]) == (3, 2, 1, "foe")
    assert get(state, "foe").models == 6


@pytest.mark.rule("W4-CHAR-14")
@pytest.mark.rule("W4-SHOOT-05")
@pytest.mark.rule("W4-DEC-18")
def test_a_character_shooting_first_spends_no_unit_action_but_fixes_its_target() -> None:
    state = archers_facing_foe()
    battle = make_battle(state, dice=[2, 1, 1], orders={"A": ["shoot hero",
                                                              "shoot hero longbow other",
                                                        "done"]})
    shooting.side_shoots(state, battle, "A")
    host = get(state, "a")
    assert not host.shot and not host.standard_used
    targets = shooting.legal_targets(state, host, host.powers("ranged")[0])
    assert [t.id for t in targets] == ["other"]


@pytest.mark.rule("W4-CHAR-13")
def test_a_character_outside_the_front_rank_cannot_shoot() -> None:
    state = archers_facing_foe()
    host = get(state, "a")
    assert char_shooting.can_shoot(state, state.characters["hero"])
    host.command_slot = 1
    host.companies = [8, 8]
    host.files = 1
    assert not char_shooting.can_shoot(state, state.characters["hero"])


@pytest.mark.rule("W4-CHAR-13")
def test_a_character_shoots_only_into_his_units_arc() -> None:
    state = make_state([unit("a", profile=ARCHER), unit("behind", "B", at=(20, 0))],
                       characters=[character("hero", joined="a", powers=[HERO_BOW])])
    assert char_shooting.targets(state, state.characters["hero"], hero_bow(state)) == []


def hero_bow(state: Any) -> Any:
    return state.units["hero"].powers("ranged")[0]


@pytest.mark.rule("W4-CHAR-10")
@pytest.mark.rule("W4-HIT-04")
def test_a_lone_character_shoots_as_one_skirmisher_without_the_floor() -> None:
    state = make_state([unit("foe", "B", at=(40, 25), facing=180), unit("a")],
                       characters=[character("hero", at=(40, 10), powers=[HERO_BOW])])
    battle = make_battle(state, dice=[2])
    shooting.shoot(state, battle, get(state, "hero"), get(state, "foe"), hero_bow(state))
    shot = events(battle, "shoot")[0]
    assert (shot["dice"], shot["needed"], shot["hits"]) == (1, 2, 1)


@pytest.mark.rule("W4-SHOOT-19")
@pytest.mark.rule("W4-AMB-47")
@pytest.mark.parametrize(("acs", "majority", "hittable"), [
    ([16, 16, 16, 20], 16, 3),
    ([16, 16, 20, 20], 20, 4),
    ([22, 18, 18], 18, 2),
])
def test_mixed_acs_use_the_majority_and_only_models_at_or_below_it(
        acs: list[int], majority: int, hittable: int) -> None:
    assert char_shooting.majority_ac(acs) == majority
    assert char_shooting.hittable(acs) == hittable


BURST = {"name": "Fire burst", "kind": "area_burst", "bonus": 10, "vs": "reflex",
         "range": 20, "area": 1, "damage": "1d6"}


@pytest.mark.rule("W4-CHAR-12")
def test_an_area_covering_a_joined_character_attacks_a_normal_model_instead() -> None:
    state = make_state([unit("mage", profile=profile("Mage", powers=[BURST])),
                        unit("foe", "B", at=(20, 25), facing=180)],
                       characters=[character("hero", "B", joined="foe")])
    from warhost.rulesets.dnd4e_war.joining import place_in_host

    person = state.characters["hero"]
    centre = place_in_host(state, person)
    covered = shooting.covered_models(state, shooting.area_burst(centre, 1))
    dice = covered["foe"]
    foe = get(state, "foe")
    before = foe.normal_models
    assert dice == 8  # the hero's place is among the covered ones
    battle = make_battle(state, dice=[20, 20, 20] + [1] * (dice - 3))
    shooting.burst(state, battle, get(state, "mage"), get(state, "mage").powers()[0], centre)
    assert person.wounds == 0 and foe.joined == ["hero"]
    assert foe.normal_models == before - 3
