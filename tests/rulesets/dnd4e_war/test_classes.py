"""The class war rules (W4-CLASS-01 to 24 but 13, W4-AMB-70/84/85/86, W4-DEC-32) and a
power's own effects and extra attacks in a multiattack (W4-MULTI-06/07)."""

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
    record,
    scenario_data,
    unit,
)
from warhost.core.decisions import Decision
from warhost.core.errors import SetupError
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd4e_war import classes, melee, psychology, shooting
from warhost.rulesets.dnd4e_war.ai import WarAI
from warhost.rulesets.dnd4e_war.characters import character_profile
from warhost.rulesets.dnd4e_war.model import CharacterClass, CharacterSpec, Power
from warhost.rulesets.dnd4e_war.state import WarState
from warhost.rulesets.dnd4e_war.validate import check_scenario

FAR = (66.0, 44.0)
"""Where a bystander of side B stands, out of everybody's way."""
BOW = {"name": "Longbow", "kind": "ranged", "bonus": 10, "range": 20, "damage": "1[W]+4",
       "weapon_dice": "1d10", "keywords": ["weapon"]}
BOLT = {"name": "Magic Missile", "kind": "ranged", "bonus": 6, "range": 20, "damage": "2d4",
        "keywords": ["arcane", "implement", "force"]}
MINIONS = {"defenses": {"ac": 18, "fortitude": 14, "reflex": 14, "will": 14}}


def cls(cid: str, name: str, side: str = "A", **fields: Any) -> dict[str, Any]:
    """A character entry of class ``name`` (the helper's 5th-level human otherwise)."""
    return character(cid, side, **{"class": name, **fields})


def _state(units: list[dict[str, Any]], people: list[dict[str, Any]],
           **kwargs: Any) -> WarState:
    if all(u["_side"] == "A" for u in units):
        units = [*units, unit("z", "B", at=FAR, facing=180)]
    if all(u["_side"] == "B" for u in units):
        units = [*units, unit("y", "A", at=(6.0, 40.0))]
    return make_state(units, characters=people, **kwargs)


def _lone_vs_minions(person: dict[str, Any], **target: Any) -> WarState:
    """The character alone (front at 20, 10) in base contact with minion unit b (front edge
    y=10, facing south), engaged."""
    state = _state([unit("b", "B", at=(20, 10), facing=180, **target)],
                   [{**person, "at": [20.0, 10.0]}])
    state.engage(person["id"], "b")
    return state


def _strikes(state: WarState, cid: str, dice: list[int],
             orders: list[str] | None = None) -> list[dict[str, Any]]:
    battle = make_battle(state, dice=dice, orders={"A": orders or []})
    melee.strike(state, battle, melee.plan_blows(state, battle, get(state, cid),
                                                 state.foes_of(cid)))
    return [dict(e) for e in battle.log.events]


def _shoot(state: WarState, shooter: str, target: str, dice: list[int],
           multiattack: str = "none") -> list[dict[str, Any]]:
    battle = make_battle(state, dice=dice)
    s = get(state, shooter)
    shooting.shoot(state, battle, s, get(state, target), s.powers("ranged")[0], multiattack)
    return [dict(e) for e in battle.log.events]


def _of(found: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in found if e["type"] == kind]


# ---------------------------------------------------------------------- profiles
@pytest.mark.rule("W4-CLASS-01")
@pytest.mark.rule("W4-CLASS-02")
@pytest.mark.rule("W4-CLASS-03")
@pytest.mark.rule("W4-AMB-70")
def test_a_class_character_is_an_individual_infantry_model_at_no_cost() -> None:
    spec = CharacterSpec.model_validate({**{k: v for k, v in cls("w", "wizard").items()
                                            if k != "_side"}, "level": 12})
    own = character_profile(spec)
    assert (own.unit_size, own.formation, own.cavalry, own.points) == ((1, 1), "skirmish",
                                                                       False, 0)
    assert (own.resilience, own.attacks) == (1, 4)  # paragon tier
    assert own.defenses.ac == 20  # the rest comes from his 4e sheet


@pytest.mark.rule("W4-CLASS-04")
def test_every_class_with_a_war_rule_may_be_named() -> None:
    names = set(CharacterClass.__args__)  # type: ignore[attr-defined]
    assert names == {"avenger", "barbarian", "bard", "cleric", "druid", "fighter", "invoker",
                     "paladin", "ranger", "rogue", "shaman", "sorcerer", "swordmage",
                     "warden", "warlock", "wizard"}
    with pytest.raises(ValueError):
        CharacterSpec.model_validate({**{k: v for k, v in character("x").items()
                                         if k != "_side"}, "class": "warlord"})


# ---------------------------------------------------------------------- courage
@pytest.mark.rule("W4-CLASS-07")
@pytest.mark.rule("W4-AMB-41")
def test_a_bard_gives_his_unit_and_himself_two_to_courage_once() -> None:
    state = _state([unit("a"), unit("s", at=(40, 10), profile=profile(rules=["songweaver"])),
                    unit("p", at=(50, 10))],
                   [cls("bard1", "bard", joined="a"), cls("bard2", "bard", joined="s"),
                    cls("bard3", "bard", at=(60, 10))])
    plain = psychology.courage_bonus(state, get(state, "p"))
    # the unit also takes the bard's own bonus, his tier included (W4-CHAR-20)
    assert psychology.courage_bonus(state, get(state, "a")) == plain + 1 + 2
    assert classes.courage_bonus_from(state, get(state, "s")) == 0  # already has the +2
    assert classes.courage_bonus_from(state, get(state, "bard3")) == 2
    assert classes.courage_bonus_from(state, get(state, "p")) == 0


@pytest.mark.rule("W4-CLASS-08")
@pytest.mark.rule("W4-IMMUNE-05")
def test_allies_within_six_inches_of_a_bard_are_stubborn() -> None:
    state = _state([unit("near", at=(20, 10)), unit("far", at=(40, 10)),
                    unit("foe", "B", at=(20, 20), facing=180)],
                   [cls("bard", "bard", at=(27.0, 9.0))])
    # the bard's base reaches x 27.5; near's tray ends at x 22: 5 inches off
    assert classes.stubborn_from_bard(state, get(state, "near"))
    assert classes.stubborn_from_bard(state, get(state, "bard"))
    assert not classes.stubborn_from_bard(state, get(state, "foe"))  # allies only
    assert psychology.panic_dc(state, get(state, "near"), 14, shooting=True) == 12
    state.units["far"].front = (40.0, 10.0)
    assert not classes.stubborn_from_bard(state, get(state, "far"))  # x 38 is 10.5 away


@pytest.mark.rule("W4-CLASS-08")
@pytest.mark.rule("W4-IMMUNE-04")
def test_a_unit_a_bard_has_joined_ignores_panic_modifiers() -> None:
    state = _state([unit("a"), unit("big", "B", at=(20, 14), facing=180, companies=3,
                                    files=3)], [cls("bard", "bard", joined="a")])
    assert psychology.panic_dc(state, get(state, "a"), 13) == 13
    plain = _state([unit("a"), unit("big", "B", at=(20, 14), facing=180, companies=3,
                                    files=3)], [])
    assert psychology.panic_dc(plain, get(plain, "a"), 13) == 15  # stronger enemy near


@pytest.mark.rule("W4-CLASS-09")
@pytest.mark.parametrize(("faces", "passed"), [([2, 15], True), ([2, 3], False)])
def test_a_cleric_rerolls_a_failed_check_once_and_keeps_the_reroll(
        faces: list[int], passed: bool) -> None:
    state = _state([unit("a", command={"battle_standard": True})],
                   [cls("c", "cleric", joined="a")])
    battle = make_battle(state, dice=faces)
    bonus = psychology.courage_bonus(state, get(state, "a"))
    dc = 4 + bonus  # the first die fails, 15 passes, 3 fails
    assert psychology.courage_test(state, battle, get(state, "a"), dc, "panic", "W4-PANIC-03",
                                   "panic") is passed
    reroll = events(battle, "class_reroll")
    assert [(e["die"], e["passed"], e["rule"]) for e in reroll] == [(faces[1], passed,
                                                                     "W4-CLASS-09")]
    assert events(battle, "courage_reroll") == []  # no second re-roll by the standard


@pytest.mark.rule("W4-CLASS-12")
def test_an_invoker_lets_his_own_unit_reroll_and_a_unit_without_him_does_not() -> None:
    state = _state([unit("a"), unit("o", at=(40, 10))], [cls("inv", "invoker", at=(30, 10))])
    battle = make_battle(state, dice=[1, 20, 1])
    assert psychology.courage_test(state, battle, get(state, "inv"), 15, "fear", "W4-FEAR-02")
    assert not psychology.courage_test(state, battle, get(state, "o"), 15, "fear",
                                       "W4-FEAR-02")
    assert [e["rule"] for e in events(battle, "class_reroll")] == ["W4-CLASS-12"]


# ---------------------------------------------------------------------- fear
@pytest.mark.rule("W4-CLASS-10")
@pytest.mark.rule("W4-CHAR-22")
@pytest.mark.rule("W4-AMB-86")
def test_a_druid_in_beast_form_makes_his_unit_cause_fear() -> None:
    state = _state([unit("a"), unit("b", "B", at=(20, 14), facing=180)],
                   [cls("oak", "druid", joined="a", beast_form=True)])
    a, b = get(state, "a"), get(state, "b")
    assert psychology.causes(a, state) == "fear" and psychology.fear_dc(a, state) == 13
    battle = make_battle(state, dice=[20])
    assert psychology.fear_test(state, battle, b, a, "charged", "W4-FEAR-02")
    assert [e["dc"] for e in events(battle, "courage_test")] == [13]
    state.characters["oak"].options["beast_form"] = False
    assert psychology.causes(a, state) is None


@pytest.mark.rule("W4-DEC-32")
@pytest.mark.rule("W4-CLASS-10")
def test_the_druid_takes_or_leaves_beast_form_at_the_start_of_the_turn() -> None:
    state = _state([unit("a")], [cls("oak", "druid", at=(30, 10))])
    assert "beast_form" not in state.characters["oak"].options
    battle = make_battle(state, orders={"A": ["beast_form oak on"]})
    asked = record(battle)
    psychology.start_of_turn(state, battle)
    assert state.characters["oak"].options["beast_form"] is True
    assert [(e["character"], e["on"]) for e in events(battle, "class_beast_form")] == [
        ("oak", True)]
    assert [str(o) for o in asked[0].options] == ["beast_form oak on", "beast_form oak off"]
    assert psychology.causes(get(state, "oak"), state) == "fear"


# ---------------------------------------------------------------------- armour class
def _hit_at(state: WarState, target: str) -> int:
    """The score b's +8 spear needs against ``target`` (AC 16 models)."""
    found = _strikes(state, "b", [10] * 8)
    return int(_of(found, "strike")[0]["needed"]) if target else 0


def _fought(people: list[dict[str, Any]]) -> WarState:
    state = _state([unit("a"), unit("b", "B", at=(20, 10), facing=180)], people)
    state.engage("a", "b")
    return state


@pytest.mark.rule("W4-CLASS-11")
def test_a_fighter_gives_the_unit_he_joins_two_ac() -> None:
    assert _hit_at(_fought([]), "a") == 8
    assert _hit_at(_fought([cls("f", "fighter", joined="a")]), "a") == 10
    lone = _fought([cls("f", "fighter", at=(40, 10))])
    assert classes.ac_bonus(lone, get(lone, "f")) == 0  # his sheet's AC is his own


@pytest.mark.rule("W4-CLASS-21")
def test_a_warden_gives_two_ac_and_defenders_do_not_stack() -> None:
    assert _hit_at(_fought([cls("w", "warden", joined="a")]), "a") == 10
    both = _fought([cls("w", "warden", joined="a"), cls("f", "fighter", joined="a")])
    assert _hit_at(both, "a") == 10
    assert classes.ac_bonus(both, get(both, "a"), exclude=both.characters["w"]) == 2


@pytest.mark.rule("W4-CLASS-20")
@pytest.mark.rule("W4-AMB-86")
def test_a_swordmage_shares_his_warding_with_the_unit() -> None:
    state = _fought([cls("s", "swordmage", joined="a", warding_ac=3)])
    assert _hit_at(state, "a") == 11
    shots = _state([unit("a"), unit("x", "B", at=(20, 24), facing=180,
                                    profile=profile(powers=[BOW]))],
                   [cls("s", "swordmage", joined="a", warding_ac=3)])
    found = _shoot(shots, "x", "a", [1] * 4)
    assert _of(found, "shoot")[0]["needed"] == 16 + 3 - 10


# ---------------------------------------------------------------------- attack rolls
@pytest.mark.rule("W4-CLASS-19")
@pytest.mark.rule("W4-AMB-85")
def test_magic_disruption_takes_two_from_arcane_powers_near_the_sorcerer() -> None:
    mages = profile(powers=[BOLT])
    units = [unit("m", at=(20, 10), profile=mages), unit("n", at=(50, 10), profile=mages),
             unit("t", "B", at=(20, 26), facing=180), unit("u", "B", at=(50, 26), facing=180)]
    state = _state(units, [cls("sorc", "sorcerer", at=(26, 9),
                               powers=[{**BOLT, "keywords": []}])])
    assert _of(_shoot(state, "m", "t", [1] * 4), "shoot")[0]["needed"] == 16 - 6 + 2
    assert _of(_shoot(state, "n", "u", [1] * 4), "shoot")[0]["needed"] == 16 - 6  # far off
    own = _of(_shoot(state, "sorc", "t", [1]), "shoot")[0]
    assert own["needed"] == 16 - 6  # his own power, arcane by his class
    assert classes.disruption(state, get(state, "m"), Power.model_validate(BOW)) == 0
    enemy = _state(units, [cls("sorc", "sorcerer", "B", at=(26, 9))])
    assert _of(_shoot(enemy, "m", "t", [1] * 4), "shoot")[0]["needed"] == 16 - 6 + 2


@pytest.mark.rule("W4-CLASS-17")
@pytest.mark.rule("W4-AMB-86")
def test_first_strike_is_combat_advantage_on_foes_that_have_not_acted() -> None:
    tough = profile(defenses={"ac": 22, "fortitude": 14, "reflex": 14, "will": 14})
    quick = _lone_vs_minions(cls("r", "rogue", initiative=9), profile=tough)
    battle = make_battle(quick, dice=[10] * 12)
    melee.resolve_fight(quick, battle, ["b", "r"])
    first = [(s["unit"], s["needed"]) for s in events(battle, "strike")]
    assert first[0] == ("r", 22 - 10 - 2)  # b has not struck yet: +2
    slow = _lone_vs_minions(cls("r", "rogue", initiative=1), profile=tough)
    battle = make_battle(slow, dice=[1] * 12)
    melee.resolve_fight(slow, battle, ["b", "r"])
    assert [(s["unit"], s["needed"]) for s in events(battle, "strike")][-1] == ("r", 22 - 10)


# ---------------------------------------------------------------------- extra attacks
@pytest.mark.rule("W4-CLASS-14")
@pytest.mark.rule("W4-AMB-84")
def test_an_archer_ranger_shoots_once_more() -> None:
    units = [unit("t", "B", at=(20, 26), facing=180)]
    state = _state(units, [cls("fen", "ranger", at=(20, 10), powers=[BOW],
                               fighting_style="archer")])
    found = _shoot(state, "fen", "t", [1, 1])
    assert _of(found, "shoot")[0]["dice"] == 2
    assert [e["feature"] for e in _of(found, "class_extra_attack")] == ["Rapid Shot"]
    blades = _state(units, [cls("fen", "ranger", at=(20, 10), powers=[BOW],
                                fighting_style="two_blade")])
    assert _of(_shoot(blades, "fen", "t", [1]), "shoot")[0]["dice"] == 1


@pytest.mark.rule("W4-CLASS-15")
def test_a_two_blade_ranger_strikes_once_more() -> None:
    state = _lone_vs_minions(cls("fen", "ranger", fighting_style="two_blade"))
    found = _strikes(state, "fen", [1] * 4)
    assert _of(found, "strike")[0]["dice"] == 3 + 1  # his multiattack and one more
    assert _of(found, "class_extra_attack")[0]["rule"] == "W4-CLASS-15"
    archer = _lone_vs_minions(cls("fen", "ranger", fighting_style="archer"))
    assert _of(_strikes(archer, "fen", [1] * 3), "strike")[0]["dice"] == 3


@pytest.mark.rule("W4-CLASS-24")
def test_quickspell_adds_an_attack_to_a_ranged_arcane_multiattack() -> None:
    units = [unit("t", "B", at=(20, 26), facing=180)]
    state = _state(units, [cls("wiz", "wizard", at=(20, 10), powers=[BOLT])])
    found = _shoot(state, "wiz", "t", [1] * 4, multiattack="ranks")
    assert _of(found, "shoot")[0]["dice"] == 3 + 1
    assert _of(found, "class_extra_attack")[0]["feature"] == "Quickspell"
    assert _of(_shoot(state, "wiz", "t", [1]), "shoot")[0]["dice"] == 1  # no multiattack


@pytest.mark.rule("W4-CLASS-22")
@pytest.mark.rule("W4-CLASS-23")
def test_a_warlock_multiattacking_his_cursed_unit_attacks_once_more() -> None:
    units = [unit("t", "B", at=(20, 26), facing=180), unit("u", "B", at=(40, 26),
                                                            facing=180)]
    state = _state(units, [cls("lock", "warlock", at=(30, 10), powers=[BOLT],
                               cursed_unit="t")])
    assert _of(_shoot(state, "lock", "t", [1] * 4, "ranks"), "shoot")[0]["dice"] == 4
    assert _of(_shoot(state, "lock", "u", [1] * 3, "ranks"), "shoot")[0]["dice"] == 3
    assert _of(_shoot(state, "lock", "t", [1]), "shoot")[0]["dice"] == 1


@pytest.mark.rule("W4-CLASS-22")
@pytest.mark.rule("W4-DEC-32")
def test_the_curse_needs_an_enemy_unit_of_two_models_and_options_their_class() -> None:
    def check(person: dict[str, Any], target: dict[str, Any]) -> None:
        data = scenario_data([unit("a"), target], characters=[person])
        check_scenario(get_ruleset("dnd4e-war").scenario_model.model_validate(data))

    lone = unit("t", "B", at=(20, 30), models=1, facing=180)
    check(cls("lock", "warlock", cursed_unit="t"), unit("t", "B", at=(20, 30), facing=180))
    with pytest.raises(SetupError, match="W4-CLASS-22"):
        check(cls("lock", "warlock", cursed_unit="t"), lone)
    with pytest.raises(SetupError, match="W4-CLASS-22"):
        check(cls("lock", "warlock", cursed_unit="a"), lone)  # his own side's unit
    with pytest.raises(SetupError, match="W4-DEC-32"):
        check(cls("f", "fighter", cursed_unit="t"), lone)
    with pytest.raises(SetupError, match="W4-CLASS-18"):
        check(cls("sha", "shaman", spirit_power="Longsword"), lone)


SPIRIT = {"name": "Spirit Fangs", "kind": "melee", "bonus": 12, "damage": "1d10",
          "keywords": ["spirit", "primal"]}


@pytest.mark.rule("W4-CLASS-18")
def test_spirit_strike_adds_one_spirit_attack_to_a_multiattack() -> None:
    shaman = cls("ula", "shaman", spirit_power="Spirit Fangs",
                 powers=[character("x")["powers"][0], SPIRIT])
    state = _lone_vs_minions(shaman)
    found = _strikes(state, "ula", [1, 1, 1, 20], orders=["power ula 0"])
    strikes = _of(found, "strike")
    # a lone character's attacks have no floor of 8 (W4-HIT-04): +10 against AC 16 needs 6
    assert [(s["dice"], s["needed"], s["hits"]) for s in strikes] == [(3, 6, 0), (1, 4, 1)]
    assert get(state, "b").models == 7
    assert _of(found, "class_extra_attack")[0]["feature"] == "Spirit Strike"
    brute = _lone_vs_minions(shaman, profile=profile(hp=30, **MINIONS))
    assert len(_of(_strikes(brute, "ula", [1], orders=["power ula 0"]), "strike")) == 1
    fangs = state.units["ula"].profile.powers[1]
    assert classes.spirit_strike(state, state.characters["ula"], get(state, "ula"), fangs,
                                 True, "melee") is None  # a spirit power multiattack


@pytest.mark.rule("W4-CLASS-06")
@pytest.mark.rule("W4-CLASS-04")
def test_rampage_after_a_natural_20_and_devastating_rampage_once_a_battle() -> None:
    state = _lone_vs_minions(cls("grom", "barbarian"), companies=2, files=2,
                             profile=profile(**MINIONS))
    # +10 against AC 18 needs 8: the 20 earns a rampage of three basic attacks
    found = _strikes(state, "grom", [20, 1, 1, 9, 9, 1],
                     orders=["rampage grom multiattack"])
    rampage = _of(found, "class_rampage")[0]
    assert (rampage["devastating"], rampage["dice"], rampage["hits"]) == (True, 3, 2)
    assert get(state, "b").models == 16 - 3
    state.turn += 1  # next round: a plain rampage, Devastating Rampage is spent
    found = _strikes(state, "grom", [20, 20, 1, 12])
    rampages = _of(found, "class_rampage")
    assert [(r["devastating"], r["dice"], r["hits"]) for r in rampages] == [(False, 1, 1)]
    assert not [d for d in found if d["type"] == "class_rampage" and d["devastating"]]


@pytest.mark.rule("W4-CLASS-04")
def test_no_rampage_without_a_natural_20_or_twice_in_a_round() -> None:
    state = _lone_vs_minions(cls("grom", "barbarian"), profile=profile(**MINIONS))
    assert _of(_strikes(state, "grom", [19, 19, 19]), "class_rampage") == []
    _strikes(state, "grom", [20, 1, 1, 1], orders=["rampage grom basic"])
    assert _of(_strikes(state, "grom", [20, 1, 1]), "class_rampage") == []


# ---------------------------------------------------------------------- reach
@pytest.mark.rule("W4-CLASS-05")
@pytest.mark.rule("W4-CLASS-16")
def test_avenger_and_rogue_reach_characters_inside_a_unit_they_touch() -> None:
    people = [cls("av", "avenger", at=(20.0, 10.0), oath_target="foe"),
              cls("ro", "rogue", at=(21.0, 10.0)), cls("wi", "wizard", at=(19.0, 10.0)),
              cls("far", "rogue", at=(40.0, 10.0)),
              cls("foe", "fighter", "B", joined="b"), cls("pal", "paladin", "B", joined="b")]
    state = _state([unit("b", "B", at=(20, 10), facing=180)], people)
    c = state.characters
    assert classes.reach_ignored(state, c["av"], c["foe"])
    assert not classes.reach_ignored(state, c["av"], c["pal"])  # not his oath's target
    assert classes.reach_ignored(state, c["ro"], c["pal"])
    assert not classes.reach_ignored(state, c["wi"], c["foe"])
    assert not classes.reach_ignored(state, c["far"], c["foe"])  # not in contact


# ---------------------------------------------------------------------- power effects
TWIN = {"name": "Twin Strike", "kind": "melee", "bonus": 8, "damage": "1[W]",
        "weapon_dice": "1d8", "extra_attacks": 1}


@pytest.mark.rule("W4-MULTI-07")
def test_a_powers_own_extra_attacks_come_once_per_model() -> None:
    state = make_state([unit("a", profile=profile(powers=[TWIN], attacks=3)),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("a", "b")
    battle = make_battle(state, dice=[1] * 20)
    blows = melee.plan_blows(state, battle, get(state, "a"), [get(state, "b")])
    assert blows[0].dice == 4 * (3 + 1)  # a multiattack of 3 and Twin Strike's second blow
    single = make_state([unit("a", profile=profile(powers=[TWIN])),
                         unit("b", "B", at=(20, 10), facing=180)])
    single.engage("a", "b")
    blows = melee.plan_blows(single, battle, get(single, "a"), [get(single, "b")])
    assert blows[0].dice == 4 * 2
    bows = make_state([unit("a", profile=profile(powers=[{**BOW, "extra_attacks": 1}],
                                                 attacks=2)),
                       unit("t", "B", at=(20, 26), facing=180)])
    found = _shoot(bows, "a", "t", [1] * 12, "ranks")
    assert _of(found, "shoot")[0]["dice"] == 4 * (2 + 1)


@pytest.mark.rule("W4-MULTI-06")
def test_a_powers_effect_comes_only_from_the_first_attack_of_a_multiattack() -> None:
    dazing = {"name": "Dazing Strike", "kind": "melee", "bonus": 8, "damage": "1[W]",
              "weapon_dice": "1d8", "effect": "dazed"}

    def fight(faces: list[int]) -> set[str]:
        state = make_state([unit("a", profile=profile(powers=[dazing], attacks=2)),
                            unit("b", "B", at=(20, 10), facing=180, companies=2, files=2)])
        state.engage("a", "b")
        _strikes(state, "a", faces)
        return get(state, "b").conditions

    # four fighters, two attacks each: only the second attacks hit
    assert fight([1, 9, 1, 9, 1, 9, 1, 9]) == set()
    assert fight([9, 1, 1, 1, 1, 1, 1, 1]) == {"dazed"}


@pytest.mark.rule("W4-MULTI-06")
def test_a_shot_carries_its_effect_only_from_each_models_first_shot() -> None:
    slowing = {**BOW, "effect": "slowed"}

    def volley(faces: list[int]) -> set[str]:
        state = make_state([unit("a", profile=profile(powers=[slowing], attacks=2)),
                            unit("t", "B", at=(20, 26), facing=180, companies=2, files=2)])
        _shoot(state, "a", "t", faces, "ranks")
        return get(state, "t").conditions

    assert volley([1, 20] * 4) == set()  # four archers, only their second shots hit
    assert volley([1, 1, 1, 1, 20, 1, 1, 1]) == {"slowed"}


@pytest.mark.rule("W4-DEC-32")
def test_the_ai_keeps_beast_form_and_spends_devastating_rampage() -> None:
    state = _state([unit("a")], [cls("oak", "druid", at=(30, 10))])
    form = (Order.of("beast_form", "oak", "off"), Order.of("beast_form", "oak", "on"))
    assert WarAI().choose(Decision("A", "class_beast_form", form, "", "oak", form[0]),
                          state) == form[1]
    rage = (Order.of("rampage", "grom", "basic"), Order.of("rampage", "grom", "multiattack"))
    assert WarAI().choose(Decision("A", "class_rampage", rage, "", "grom", rage[0]),
                          state) == rage[1]


@pytest.mark.rule("W4-CLASS-18")
def test_a_shooting_shaman_adds_a_ranged_spirit_power_in_its_range() -> None:
    arrow = {"name": "Spirit Arrow", "kind": "ranged", "bonus": 12, "range": 10,
             "damage": "1d8", "keywords": ["spirit"]}
    shaman = cls("ula", "shaman", at=(20, 10), spirit_power="Spirit Arrow",
                 powers=[BOLT, arrow])
    near = _state([unit("t", "B", at=(20, 16), facing=180)], [shaman])
    found = _shoot(near, "ula", "t", [1, 1, 1, 20], "ranks")
    spirit = _of(found, "class_spirit_strike")
    assert [(e["power"], e["needed"], e["hits"]) for e in spirit] == [("Spirit Arrow", 4, 1)]
    assert get(near, "t").models == 7
    far = _state([unit("t", "B", at=(20, 26), facing=180)], [shaman])
    assert _of(_shoot(far, "ula", "t", [1, 1, 1], "ranks"), "class_spirit_strike") == []
