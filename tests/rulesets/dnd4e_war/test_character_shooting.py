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


def rider_state(mount_hp: int = 40) -> Any:
    vex = character("vex", "B", at=(20, 30), race="drow", mount_size="large",
                    mount_monster=True, mount_hp=mount_hp,
                    mount_defenses={"ac": 18, "fortitude": 20, "reflex": 17, "will": 15},
                    defenses={"ac": 27, "fortitude": 24, "reflex": 26, "will": 23})
    return make_state([unit("a", profile=ARCHER),
                       unit("mage", at=(40, 10), profile=profile("Mage", powers=[BURST])),
                       unit("far", "B", at=(60, 44), facing=180)], characters=[vex])


@pytest.mark.rule("W4-MONSTER-07")
def test_each_ranged_attack_at_a_rider_strikes_the_mount_on_1_to_4() -> None:
    state = rider_state()
    a, vex = get(state, "a"), get(state, "vex")
    # d6 per die: 1, 4 at the mount (AC 18, +10: 8 needed), 5, 6 at the rider (AC 27: 17)
    battle = make_battle(state, dice=[1, 4, 5, 6, 20, 8, 17, 3, 5, 6, 3])
    hits = shooting.shoot(state, battle, a, vex, a.powers("ranged")[0])
    split = events(battle, "rider_split")[0]
    assert (split["mount"], split["rider"], split["mount_hits"], split["rider_hits"]) == (
        2, 2, 2, 1)
    assert hits == 3
    person = state.characters["vex"]
    assert person.mount_wounds == (5 + 4) + (6 + 4) and person.wounds == 3 + 4


@pytest.mark.rule("W4-MONSTER-08")
def test_an_area_attacks_both_the_mount_and_the_rider_once() -> None:
    state = rider_state()
    mage, vex = get(state, "mage"), get(state, "vex")
    battle = make_battle(state, dice=[20, 1, 4])
    shooting.burst(state, battle, mage, mage.powers()[0], vex.points[0])
    split = events(battle, "rider_split")[0]
    assert (split["mount"], split["rider"], split["mount_hits"], split["rider_hits"]) == (
        1, 1, 1, 0)
    assert state.characters["vex"].mount_wounds == 4


def test_a_rider_whose_mount_falls_goes_on_foot() -> None:
    state = rider_state(mount_hp=5)
    mage, vex = get(state, "mage"), get(state, "vex")
    assert vex.strength() == 4 and vex.is_monster
    battle = make_battle(state, dice=[20, 1, 6])
    shooting.burst(state, battle, mage, mage.powers()[0], vex.points[0])
    assert not state.characters["vex"].mounted and events(battle, "mount_wounded")[0]["slain"]
    assert vex.strength() == 1 and not vex.is_monster


@pytest.mark.rule("W4-SHOOT-19")
@pytest.mark.rule("W4-AMB-47")
@pytest.mark.rule("W4-CHAR-11")
def test_characters_outnumbering_their_unit_set_the_defense_shot_at() -> None:
    tough = {"ac": 20, "fortitude": 18, "reflex": 16, "will": 15}
    weak = {"ac": 14, "fortitude": 12, "reflex": 12, "will": 12}
    for defenses, needed, slain in ((tough, 10, 1), (weak, 8, 0)):
        state = make_state([unit("a", profile=ARCHER), unit("foe", "B", at=(20, 25),
                                                             facing=180, models=1)],
                           characters=[character(h, "B", joined="foe", defenses=defenses,
                                                 **{"class": None})  # no class AC bonus
                                       for h in ("h1", "h2")])
        foe = get(state, "foe")
        # one warrior (AC 16) and two heroes: the heroes' AC is the majority
        battle = make_battle(state, dice=[20] * 8)  # 4 shots, then the panic tests
        shooting.shoot(state, battle, get(state, "a"), foe, get(state, "a").powers()[0])
        assert events(battle, "shoot")[0]["needed"] == needed
        # against AC 14 the warrior (AC 16) cannot be hit: every hit is discarded
        assert foe.normal_models == 1 - slain
        assert len(events(battle, "hits_discarded")) == 1 - slain
        assert state.characters["h1"].wounds == 0


@pytest.mark.rule("W4-WM-07")
def test_a_character_with_a_war_machine_crew_may_shoot_at_another_target(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from warhost.rulesets.dnd4e_war import joining

    state = archers_facing_foe()
    host, person = get(state, "a"), state.characters["hero"]
    state.extra[char_shooting.TARGETS] = {"a": "foe"}  # the crew shot at foe
    assert [t.id for t in char_shooting.targets(state, person, hero_bow(state))] == ["foe"]
    monkeypatch.setattr(joining, "is_war_machine", lambda unit: unit is host)
    assert joining.host_refusal(state, person, host) is None  # crews take characters
    found = {t.id for t in char_shooting.targets(state, person, hero_bow(state))}
    assert found == {"foe", "other"}
