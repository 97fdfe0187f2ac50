"""Singular creatures casting spells and what spells do (W35-MAGIC-01..10, W35-SPELL-01..04/17,
W35-AOE-04, W35-ABIL-06/07, W35-AMB-54/58/96, W35-SPELL-15)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    invariant_playouts,
    make_battle,
    make_state,
    single,
    unit,
    who,
)
from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.dice import SeededDice
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario
from warhost.rulesets.dnd35_wars import ai_singles, conditions, inunit, magic, singles
from warhost.rulesets.dnd35_wars.state import WarState

FIREBALL = {"name": "fireball", "level": 3, "effect": "damage", "range": "long",
            "area": {"shape": "circle", "feet": 20}, "save": "ref", "on_save": "half",
            "damage_per_level": "1d6", "level_cap": 10}
MISSILE = {"name": "magic_missile", "level": 1, "effect": "damage", "range": "medium",
           "damage": "1d4+1"}
HOLD = {"name": "hold_person", "level": 3, "effect": "hinder", "speed": "zero",
        "range": "medium", "save": "will", "duration_per_level": 1}
WEB = {"name": "web", "level": 2, "effect": "hinder", "speed": "zero", "range": "medium",
       "area": {"shape": "circle", "feet": 20}, "save": "ref", "duration_per_level": 10}
GRASP = {"name": "shocking_grasp", "level": 1, "effect": "damage", "range": "touch",
         "damage": "1d6"}
BOLT = {"name": "bolt", "level": 1, "effect": "damage", "range": 100, "damage": "1d6"}
SLOWFIRE = {"name": "slowfire", "level": 2, "effect": "damage", "range": "medium",
            "casting_rounds": 2, "damage": "2d6"}
CURE = {"name": "cure_light_wounds", "level": 1, "effect": "heal", "range": "touch",
        "heal": "1d8", "heal_per_level": 1, "level_cap": 5}
MASS_CURE = {"name": "mass_cure", "level": 2, "effect": "heal", "range": "close",
             "targets": 20, "heal": "1d8", "heal_per_level": 1}
BLESS = {"name": "bless", "level": 1, "effect": "buff", "stat": "attack", "amount": 1,
         "range": "close", "area": {"shape": "circle", "feet": 40}, "duration": 10}
MIGHT = {"name": "might", "level": 1, "effect": "buff", "stat": "damage", "amount": 2,
         "range": "touch", "duration": 10}
BIG = {"name": "big_spell", "level": 4, "effect": "damage", "range": "long", "damage": "4d6"}
BREATH = {"name": "breath", "level": 3, "effect": "damage", "range": 30,
          "area": {"shape": "cone", "feet": 30}, "save": "ref", "on_save": "half",
          "damage": "6d10"}
SLEEP = {"name": "sleep", "level": 1, "effect": "hd", "range": "medium",
         "area": {"shape": "circle", "feet": 10}, "save": "will", "hit_dice": "4d4",
         "max_hd": 4, "duration_per_level": 10}
TERROR = {"name": "terror", "level": 3, "effect": "fear", "range": 30,
          "area": {"shape": "cone", "feet": 30}, "save": "will", "duration_per_level": 1}
CURSE = {"name": "curse", "level": 1, "effect": "penalty", "stat": "attack", "amount": -2,
         "range": "medium", "area": {"shape": "circle", "feet": 20}, "save": "will",
         "duration": 10}
SPELLS = [FIREBALL, MISSILE, HOLD, WEB, GRASP, BOLT, SLOWFIRE, CURE, MASS_CURE, BLESS, MIGHT,
          BIG, BREATH, SLEEP, TERROR, CURSE]


def wizard(*known: dict[str, Any], caster_level: int = 5, **kw: Any) -> dict[str, Any]:
    """A wizard's stat block: caster level 5, +3 to save DCs (fireball DC 16)."""
    return creature("wizard", hp=20, ac=12, level=caster_level, caster_level=caster_level,
                    casting_modifier=3, spells=list(known), **kw)


def caster(sid: str = "w", side: str = "A", at: tuple[int, int] = (10, 10),
           *known: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A lone spellcaster standing on ``at`` (a monster entry: it fights on its own)."""
    return single(sid, side, "monster", at=at, creature=wizard(*known, **kw))


def foes(squares: list[tuple[int, int]], per_counter: int = 10, **kw: Any) -> dict[str, Any]:
    """Enemy unit ``b`` of 10 HP creatures, ``per_counter`` a counter (the size table's number
    at the battle's scale: 10 at 15 ft, 100 at 50 ft): 10 HP a counter."""
    return unit("b", "B", squares=squares, count=per_counter * len(squares), **kw)


def spread(state: WarState, uid: str, per_counter: int) -> None:
    """Make unit ``uid`` stand for ``per_counter`` creatures a counter (W35-AMB-09)."""
    get(state, uid).per_counter = Fraction(per_counter)


def state_with(units: list[dict[str, Any]], casters: list[dict[str, Any]], **kw: Any) -> WarState:
    return make_state(units, singles=casters, spells=SPELLS, **kw)


def events(battle: Battle) -> list[dict[str, Any]]:
    """Every event logged, without its sequence number."""
    return [{k: v for k, v in e.items() if k != "seq"} for e in battle.log
            if e["type"] != "decision"]


def first(seen: list[dict[str, Any]], type_: str) -> dict[str, Any]:
    """The first event of a type."""
    return next(e for e in seen if e["type"] == type_)


def cast(state: WarState, dice: list[int], text: str, **kw: Any) -> list[dict[str, Any]]:
    """Carry out the cast ``text`` (judged first) with scripted dice; the events."""
    battle = make_battle(state, dice=dice, **kw)
    order = Order.parse(text)
    caster_ = who(state, str(order.args[0]))
    assert magic.judge_cast(state, caster_, order) == order
    magic.take_cast(state, battle, caster_, order)
    return events(battle)


def refusal(state: WarState, text: str) -> Refusal:
    order = Order.parse(text)
    verdict = magic.judge_cast(state, who(state, str(order.args[0])), order)
    assert isinstance(verdict, Refusal), verdict
    return verdict


def listed(state: WarState, sid: str) -> list[str]:
    return [str(o) for o in magic.cast_options(state, who(state, sid))]


# ---- which spells, and using them up (W35-MAGIC-01)


@pytest.mark.rule("W35-MAGIC-01")
def test_a_caster_offers_the_spells_it_can_cast_and_spends_its_uses() -> None:
    state = state_with([foes(block(10, 14, 5, 2))],
                       [caster("w", "A", (10, 10), {"spell": "fireball", "uses": 1},
                               {"spell": "big_spell"})])
    assert listed(state, "w") == ["cast w fireball b"]
    assert refusal(state, "cast w big_spell b").rule == "W35-MAGIC-01"  # level 4 at CL 5
    assert refusal(state, "cast w lightning b").rule == "W35-MAGIC-01"
    cast(state, [3, 3, 3, 3, 3, 5], "cast w fireball b")
    assert who(state, "w").casts_made == {"fireball": 1}
    assert listed(state, "w") == []
    assert "no uses" in refusal(state, "cast w fireball b").reason


@pytest.mark.rule("W35-MAGIC-02", "W35-MAGIC-03")
def test_a_cast_is_the_whole_round_and_a_long_one_takes_effect_in_its_last_round() -> None:
    state = state_with([foes(block(10, 13, 2, 1))],
                       [caster("w", "A", (10, 10), {"spell": "slowfire"})])
    spread(state, "b", 1)
    battle = make_battle(state, dice=[4, 5], orders={"A": ["cast w slowfire b", "smove w 3,3"]})
    singles.single_turn(state, battle, who(state, "w"))
    kinds = [e["type"] for e in events(battle)]
    assert kinds == ["cast"] and get(state, "b").hp == 20  # nothing else, nothing yet
    state.round = 2
    singles.single_turn(state, battle, who(state, "w"))
    hurt = [e for e in events(battle) if e["type"] == "spell_damage"]
    assert hurt and hurt[0]["total"] == 9  # 2d6 = 4 + 5, one creature a counter
    assert get(state, "b").hp == 11
    assert who(state, "w").square == (10, 10) and who(state, "w").casting is None


@pytest.mark.rule("W35-MAGIC-02")
def test_a_long_cast_goes_on_while_its_rounds_run() -> None:
    slow3 = dict(SLOWFIRE, name="slow3", casting_rounds=3)
    state = make_state([foes(block(10, 13, 2, 1))], spells=[*SPELLS, slow3],
                       singles=[caster("w", "A", (10, 10), {"spell": "slow3"})])
    battle = make_battle(state, dice=[1, 1])
    magic.take_cast(state, battle, who(state, "w"), Order.parse("cast w slow3 b"))
    state.round = 2
    assert magic.busy(state, battle, who(state, "w"))
    assert events(battle)[-1] == {"type": "casting", "who": "w", "spell": "slow3", "left": 1}
    assert get(state, "b").hp == 20


# ---- targets (W35-MAGIC-04..08, W35-SPELL-17, W35-AMB-58)


@pytest.mark.rule("W35-MAGIC-04", "W35-SPELL-02", "W35-SPELL-17")
def test_a_hold_on_a_lone_creature_has_its_standard_effect() -> None:
    ogre = single("o", "B", "monster", at=(10, 13), creature=creature("ogre", hp=30, will=1))
    state = state_with([foes([(30, 20)])], [caster("w", "A", (10, 10), {"spell": "hold_person"}),
                                           ogre])
    assert [o.kind for o in singles.turn_options(state, who(state, "o"))].count("smove") > 0
    seen = cast(state, [3], "cast w hold_person o")  # Will 3 + 1 < DC 16
    assert seen[-1] == {"type": "spell_on", "who": "o", "spell": "hold_person",
                        "effect": "hinder", "until": 6}  # 5 rounds at caster level 5
    state.round = 6
    assert magic.speed_factor(state, who(state, "o")) == 0
    assert "smove" not in [o.kind for o in singles.turn_options(state, who(state, "o"))]
    state.round = 7
    assert magic.speed_factor(state, who(state, "o")) == 1


@pytest.mark.rule("W35-MAGIC-04", "W35-SPELL-02")
def test_a_penalty_on_a_lone_creature_lowers_its_attack_rolls_and_saves() -> None:
    hex_ = dict(CURSE, name="hex", area=None, stat="attack")
    doom = dict(CURSE, name="doom", area=None, stat="saves")
    ogre = single("o", "B", "monster", at=(10, 11), creature=creature(
        "ogre", hp=30, will=0, melee=[{"bonus": 8, "damage": "2d8+7"}]))
    state = make_state([foes([(30, 20)])], spells=[*SPELLS, hex_, doom], singles=[
        caster("w", "A", (10, 10), {"spell": "hex"}, {"spell": "doom"}), ogre])
    cast(state, [2], "cast w hex o")
    cast(state, [2], "cast w doom o")
    battle = make_battle(state, dice=[2, 15])
    singles.attack(state, battle, who(state, "o"), "w")
    assert first(events(battle), "attack")["total"] == 2 + 8 - 2
    fireball = state.spells["fireball"]
    assert not magic.single_save(state, battle, fireball, who(state, "o"), 15)  # 15 + 1 - 2
    state.round = 12  # both ended after round 11
    assert magic.single_modifier(state, who(state, "o"), "attack") == 0


@pytest.mark.rule("W35-SPELL-17", "W35-MAGIC-04")
def test_a_damaging_spell_on_a_lone_creature_deals_its_full_roll() -> None:
    ogre = single("o", "B", "monster", at=(10, 13),
                  creature=creature("ogre", hp=30, dr=5, ref=0))
    state = state_with([foes([(30, 20)])], [caster("w", "A", (10, 10), {"spell": "magic_missile"}),
                                           ogre])
    cast(state, [3], "cast w magic_missile o")
    assert who(state, "o").hp == 30 - 4  # 1d4+1, no DR against a spell


@pytest.mark.rule("W35-MAGIC-05")
def test_a_creature_inside_a_unit_cannot_be_targeted() -> None:
    chief = single("c", "B", "npc", unit="b")
    state = state_with([foes(block(10, 14, 2, 2))],
                       [caster("w", "A", (10, 10), {"spell": "magic_missile"}), chief])
    assert refusal(state, "cast w magic_missile c").rule == "W35-MAGIC-05"
    assert "cast w magic_missile c" not in listed(state, "w")


@pytest.mark.rule("W35-MAGIC-06", "W35-SPELL-17", "W35-AMB-58")
def test_a_unit_may_be_aimed_at_only_with_damage_or_an_area() -> None:
    state = state_with([foes(block(10, 14, 3, 2))],
                       [caster("w", "A", (10, 10), {"spell": "hold_person"},
                               {"spell": "magic_missile"}, {"spell": "web"})])
    assert refusal(state, "cast w hold_person b").rule == "W35-AMB-58"
    assert listed(state, "w") == ["cast w magic_missile b", "cast w web b"]
    assert magic.judge_cast(state, who(state, "w"), Order.parse("cast w web 11,15")) \
        == Order.parse("cast w web 11,15")


@pytest.mark.rule("W35-MAGIC-07")
def test_a_touch_spell_needs_contact() -> None:
    near = single("n", "B", "monster", at=(11, 11), creature=creature("orc", hp=30))
    far = single("f", "B", "monster", at=(12, 10), creature=creature("orc", hp=30))
    state = state_with([foes([(30, 20)])],
                       [caster("w", "A", (10, 10), {"spell": "shocking_grasp"}), near, far])
    assert refusal(state, "cast w shocking_grasp f").rule == "W35-MAGIC-07"
    assert listed(state, "w") == ["cast w shocking_grasp n"]  # a corner is contact


@pytest.mark.rule("W35-MAGIC-08")
def test_other_ranges_are_feet_between_squares() -> None:
    state = state_with([unit("b", "B", squares=[(10, 14)]), unit("c", "B", squares=[(14, 10)]),
                        unit("d", "B", squares=[(10, 15)])],
                       [caster("w", "A", (10, 10), {"spell": "bolt"})], scale=25)
    assert listed(state, "w") == ["cast w bolt b", "cast w bolt c"]  # 4 squares: 100 ft
    verdict = refusal(state, "cast w bolt d")  # 5 squares: 125 ft
    assert verdict.rule == "W35-MAGIC-08" and "125 ft" in verdict.reason


@pytest.mark.rule("W35-MAGIC-08")
def test_a_spell_needs_line_of_sight() -> None:
    wall = [{"rect": [[9, 12], [11, 12]], "blocks_sight": True}]
    state = state_with([foes([(10, 14)])], [caster("w", "A", (10, 10), {"spell": "bolt"})],
                       terrain=wall)
    assert refusal(state, "cast w bolt b").rule == "W35-AMB-35"


# ---- saves and damage on units (W35-MAGIC-09/10, W35-SPELL-01, W35-AMB-54)


def fireball_state(**kw: Any) -> WarState:
    return state_with([foes(block(10, 14, 5, 2), **kw)],
                      [caster("w", "A", (10, 10), {"spell": "fireball"})])


@pytest.mark.rule("W35-SPELL-01", "W35-AMB-54", "W35-MAGIC-09", "W35-MAGIC-10")
def test_a_fireball_burns_each_counter_it_covers_once_per_creature() -> None:
    state = fireball_state()
    seen = cast(state, [3, 3, 3, 3, 3, 5], "cast w fireball b")  # Reflex 5 + 1 < DC 16
    assert first(seen, "area")["counters"] == "4"
    assert get(state, "b").hp == 100 - 15 * 4
    assert "siege_or_area" in get(state, "b").pending  # an area attack: a DC 15 check


@pytest.mark.rule("W35-AMB-54", "W35-MAGIC-10")
def test_a_unit_that_saves_takes_half_on_every_counter() -> None:
    state = fireball_state()
    cast(state, [3, 3, 3, 3, 3, 15], "cast w fireball b")  # 15 + 1 = DC 16
    assert get(state, "b").hp == 100 - 7 * 4


@pytest.mark.rule("W35-AMB-54", "W35-SPELL-01")
def test_damage_reduction_comes_off_each_creature_after_the_save_halves() -> None:
    failed, saved = fireball_state(), fireball_state()
    for state in (failed, saved):
        get(state, "b").dr = 5
    cast(failed, [3, 3, 3, 3, 3, 5], "cast w fireball b")
    cast(saved, [3, 3, 3, 3, 3, 15], "cast w fireball b")
    assert get(failed, "b").hp == 100 - 10 * 4 and get(saved, "b").hp == 100 - 2 * 4


@pytest.mark.rule("W35-AMB-54", "W35-MAGIC-10")
def test_under_proportional_saves_failing_and_saving_counters_are_counted_apart() -> None:
    state = state_with([foes(block(10, 14, 5, 2))],
                       [caster("w", "A", (10, 10), {"spell": "fireball"})],
                       options={"proportional_saves": True})
    seen = cast(state, [3, 3, 3, 3, 3], "cast w fireball b")  # no save rolled
    assert first(seen, "save")["failing"] == 3  # 70% of 4, half up
    assert get(state, "b").hp == 100 - (15 * 3 + 7 * 1)


@pytest.mark.rule("W35-AMB-54", "W35-SPELL-01")
def test_an_area_below_one_counter_scales_the_damage() -> None:
    state = state_with([foes(block(10, 14, 5, 2), per_counter=100)],
                       [caster("w", "A", (10, 10), {"spell": "fireball"})], scale=50)
    cast(state, [3, 3, 3, 3, 3, 5], "cast w fireball b")  # 20-ft radius at 50 ft: 1/2
    assert get(state, "b").hp == 100 - 7


@pytest.mark.rule("W35-SPELL-01", "W35-SPELL-17", "W35-AMB-54")
def test_a_single_target_damage_spell_on_a_unit_is_divided_like_a_blow() -> None:
    state = state_with([foes(block(10, 14, 2, 1))],
                       [caster("w", "A", (10, 10), {"spell": "magic_missile"})])
    spread(state, "b", 2)
    cast(state, [3], "cast w magic_missile b")  # 4 damage over 2 creatures a counter
    assert get(state, "b").hp == 20 - 2


# ---- area spells catch creatures inside (W35-AOE-04)


@pytest.mark.rule("W35-AOE-04", "W35-MAGIC-05")
def test_an_area_covering_the_whole_unit_catches_the_creatures_inside() -> None:
    chief = single("c", "B", "npc", unit="b", creature=creature("chief", hp=40, ref=1))
    state = state_with([foes(block(10, 14, 2, 2))],
                       [caster("w", "A", (10, 10), {"spell": "fireball"}), chief])
    seen = cast(state, [2, 2, 2, 2, 2, 15, 2], "cast w fireball b")  # one roll: 10
    assert get(state, "b").hp == 40 - 5 * 4  # the unit saves: half on its 4 counters
    assert who(state, "c").hp == 40 - 10  # the chief fails its own save
    assert {"type": "save", "who": "c", "spell": "fireball", "save": "ref", "dc": 16,
            "saved": False} in seen


@pytest.mark.rule("W35-AOE-04")
def test_an_area_covering_part_of_the_unit_spares_the_creatures_inside() -> None:
    chief = single("c", "B", "npc", unit="b", creature=creature("chief", hp=40))
    state = state_with([foes(block(10, 14, 3, 2))],
                       [caster("w", "A", (10, 10), {"spell": "fireball"}), chief])
    cast(state, [1, 1, 1, 1, 1, 5], "cast w fireball b")
    assert who(state, "c").hp == 40 and get(state, "b").hp == 60 - 5 * 4


# ---- effects that are not damage on units (W35-SPELL-02..04, W35-AMB-96)


@pytest.mark.rule("W35-SPELL-02")
def test_a_hindering_area_holds_the_counters_it_covers() -> None:
    state = state_with([foes(block(10, 14, 3, 2))],
                       [caster("w", "A", (10, 10), {"spell": "web"})])
    cast(state, [2], "cast w web b")
    assert len(conditions.held_counters(get(state, "b"))) == 4


@pytest.mark.rule("W35-SPELL-02")
def test_a_sleep_spell_takes_out_the_counters_its_hit_dice_reach() -> None:
    state = state_with([foes(block(10, 14, 3, 2))],
                       [caster("w", "A", (10, 10), {"spell": "sleep"})])
    seen = cast(state, [4, 4, 4, 4, 5], "cast w sleep b")  # 16 HD: 1 counter of 10; Will fails
    assert first(seen, "hit_dice")["counters"] == 1
    assert first(seen, "disabled")["counters"] == 1 and get(state, "b").counters == 5


@pytest.mark.rule("W35-SPELL-02")
def test_a_fear_spell_covering_the_whole_unit_routs_it_when_it_fails() -> None:
    state = state_with([foes(block(10, 12, 3, 1))],
                       [caster("w", "A", (10, 10), {"spell": "terror"})])
    cast(state, [2], "cast w terror b")  # a 30-ft cone covers 3 counters
    assert get(state, "b").routed


@pytest.mark.rule("W35-SPELL-02")
def test_a_penalty_on_a_unit_is_shared_by_the_counters_that_failed() -> None:
    state = state_with([foes(block(10, 14, 4, 2))],
                       [caster("w", "A", (10, 10), {"spell": "curse"})])
    cast(state, [2], "cast w curse b")  # 4 of 8 counters: -2 x 4/8 = -1
    assert conditions.modifier(get(state, "b"), "attack") == -1


def clerics_unit(spell: dict[str, Any], per_counter: int = 2, counters: int = 4,
                 **kw: Any) -> WarState:
    """Unit ``a`` (10 HP creatures, ``per_counter`` a counter) with cleric ``c`` (caster
    level 3) inside, friendly unit ``f`` and enemy ``b``."""
    cleric = single("c", "A", "npc", unit="a",
                    creature=wizard({"spell": spell["name"]}, caster_level=3, **kw))
    units = [unit("a", "A", squares=block(10, 10, counters, 1), count=10 * counters),
             unit("f", "A", squares=[(10, 12)]), foes([(10, 20)])]
    state = state_with(units, [cleric])
    spread(state, "a", per_counter)
    return state


@pytest.mark.rule("W35-SPELL-04", "W35-AMB-96")
def test_a_single_target_heal_on_its_own_unit_is_divided_by_the_creatures_a_counter() -> None:
    state = clerics_unit(CURE)
    get(state, "a").hp = 20
    assert listed(state, "c") == ["cast c cure_light_wounds a", "cast c cure_light_wounds c"]
    assert refusal(state, "cast c cure_light_wounds f").rule == "W35-SPELL-04"
    cast(state, [8], "cast c cure_light_wounds a")  # 1d8 + 3 = 11 over 2 creatures
    assert get(state, "a").hp == 25


@pytest.mark.rule("W35-SPELL-04", "W35-AMB-96")
def test_a_heal_on_many_creatures_heals_each_affected_counter_and_brings_counters_back() -> None:
    state = clerics_unit(MASS_CURE, per_counter=10)  # 20 creatures: 2 counters
    unit_a = get(state, "a")
    state.remove_counters(unit_a, {(12, 10), (13, 10)})
    unit_a.hp = 15
    cast(state, [4], "cast c mass_cure a")  # (4 + 3) x 2 = 14
    assert unit_a.hp == 29 and unit_a.counters == 3
    cast(state, [8], "cast c mass_cure a")  # 22 more, capped at the start (W35-AMB-27)
    assert unit_a.hp == 40 and unit_a.counters == 4


@pytest.mark.rule("W35-MAGIC-01", "W35-MAGIC-03", "W35-SPELL-04")
def test_a_creature_inside_a_unit_casts_as_its_in_unit_action() -> None:
    state = clerics_unit(CURE)
    get(state, "a").hp = 20
    battle = make_battle(state, dice=[8], orders={"A": ["sact c", "cast c cure_light_wounds a"]})
    inunit.in_unit_actions(state, battle, get(state, "a"))
    assert get(state, "a").hp == 25 and who(state, "c").casts_made == {"cure_light_wounds": 1}


@pytest.mark.rule("W35-PC-11")
def test_a_pc_spell_that_takes_a_tenth_of_a_unit_is_a_deed() -> None:
    pc = single("p", "A", "pc", unit="a", creature=wizard({"spell": "fireball"}))
    state = state_with([unit("a", "A", squares=block(10, 9, 2, 1), count=20),
                        foes(block(10, 14, 5, 2))], [pc])
    seen = cast(state, [1, 1, 1, 1, 1, 5], "cast p fireball b")  # 20 of 100 HP
    assert first(seen, "pc_deed") == {"type": "pc_deed", "who": "p", "what": "slew_tenth"}


@pytest.mark.rule("W35-SPELL-03", "W35-AMB-96")
def test_a_buff_goes_to_the_casters_own_unit_in_proportion() -> None:
    state = clerics_unit(BLESS)
    assert refusal(state, "cast c bless f").rule == "W35-SPELL-03"
    cast(state, [], "cast c bless a")  # the area covers all 4 counters
    assert conditions.modifier(get(state, "a"), "attack") == 1


@pytest.mark.rule("W35-SPELL-03", "W35-AMB-96")
def test_a_single_target_buff_reaches_no_whole_counter() -> None:
    state = clerics_unit(MIGHT, per_counter=2)
    seen = cast(state, [], "cast c might a")
    assert conditions.modifier(get(state, "a"), "damage") == 0
    assert seen[-1]["type"] == "no_effect"


# ---- special attacks and breath weapons (W35-ABIL-06/07)


@pytest.mark.rule("W35-ABIL-06", "W35-ABIL-07")
def test_a_monsters_breath_is_an_area_spell_with_a_recharge() -> None:
    dragon = single("d", "A", "monster", at=(10, 11), creature=creature(
        "dragon", hp=80, type="dragon", level=6, caster_level=0, spells=[
            {"spell": "breath", "special": True, "recharge": 2, "dc": 15},
            {"spell": "magic_missile"}]))
    state = state_with([foes(block(10, 13, 5, 2))], [dragon])
    assert listed(state, "d") == ["cast d breath b"]  # no caster level: no true spell
    cast(state, [5] * 6 + [3], "cast d breath b")  # cone 30 ft at 15 ft: 3 counters
    assert get(state, "b").hp == 100 - 30 * 3
    for round_, offered in ((1, False), (2, False), (3, False), (4, True)):
        state.round = round_
        assert bool(listed(state, "d")) is offered


# ---- turning undead (W35-SPELL-15)


@pytest.mark.rule("W35-SPELL-15")
def test_the_turning_check_sets_the_most_hit_dice_turned() -> None:
    assert [magic.turning_max_hd(5, c) for c in (0, 1, 6, 10, 12, 13, 21, 22, 30)] == \
        [1, 2, 3, 5, 5, 6, 8, 9, 9]


@pytest.mark.rule("W35-SPELL-15")
def test_turning_converts_the_hit_dice_rolled_to_counters() -> None:
    bones = creature("skeleton", hp=6, level=1, undead=True, int=None)
    cleric = single("c", "A", "monster", at=(10, 10), creature=creature(
        "cleric", hp=30, cha=14, level=5, turning_level=5, turning_uses=1))
    state = state_with([unit("s", "B", squares=block(10, 13, 4, 1), count=40, creature=bones)],
                       [cleric])
    assert listed(state, "c") == ["turn c s"]
    seen = cast(state, [10, 6, 6], "turn c s")  # 10 + 2: up to 5 HD; 2d6 + 5 + 2 = 19 HD
    assert first(seen, "turning") == {"type": "turning", "who": "c", "target": "s",
                                      "check": 12, "max_hd": 5, "hd": 19}
    turned = first(seen, "turned")
    assert turned["counters"] == 1 and get(state, "s").counters == 3
    assert listed(state, "c") == []


@pytest.mark.rule("W35-SPELL-15")
def test_a_turned_undead_creature_flees_for_ten_rounds() -> None:
    wight = single("u", "B", "monster", at=(10, 12), creature=creature(
        "wight", hp=26, level=4, undead=True))
    cleric = single("c", "A", "monster", at=(10, 10), creature=creature(
        "cleric", hp=30, cha=10, level=5, turning_level=5, turning_uses=2))
    state = state_with([foes([(30, 20)])], [cleric, wight])
    seen = cast(state, [7, 1, 1], "turn c u")  # check 7: up to 4 HD; 2d6 + 5 = 7 HD
    assert first(seen, "spell_on") == {"type": "spell_on", "who": "u", "spell": "turning",
                                       "effect": "fear", "until": 11}
    battle = make_battle(state)
    state.round = 11
    singles.single_turn(state, battle, who(state, "u"))
    assert events(battle) == [{"type": "spell_bound", "who": "u", "why": "turned"}]
    weak = make_state([foes([(30, 20)])], spells=SPELLS, singles=[cleric, wight])
    assert first(cast(weak, [6, 1, 1], "turn c u"), "no_effect")["reason"] == "too strong"


@pytest.mark.rule("W35-MAGIC-02")
def test_a_long_cast_is_lost_when_its_target_is_gone() -> None:
    ogre = single("o", "B", "monster", at=(10, 13), creature=creature("ogre", hp=30))
    state = state_with([foes([(30, 20)])], [caster("w", "A", (10, 10), {"spell": "slowfire"}),
                                           ogre])
    battle = make_battle(state)
    magic.take_cast(state, battle, who(state, "w"), Order.parse("cast w slowfire o"))
    state.put_single(who(state, "o"), (10, 29))  # it ran off out of range
    state.round = 2
    assert magic.busy(state, battle, who(state, "w"))
    assert events(battle)[-1]["type"] == "spell_lost" and who(state, "o").hp == 30


@pytest.mark.rule("W35-SPELL-15")
def test_undead_beyond_60_feet_cannot_be_turned() -> None:
    bones = creature("skeleton", hp=6, level=1, undead=True)
    cleric = single("c", "A", "monster", at=(10, 10), creature=creature(
        "cleric", hp=30, turning_level=5, turning_uses=1))
    state = state_with([unit("s", "B", squares=[(10, 15)], creature=bones)], [cleric])
    assert refusal(state, "turn c s").rule == "W35-SPELL-15"  # 75 ft


# ---- one save, by the odds (W35-MAGIC-09)


@pytest.mark.rule("W35-MAGIC-09", "W35-MAGIC-10")
def test_a_unit_saves_as_often_as_the_d20_allows() -> None:
    state = fireball_state()
    battle = make_battle(state)
    battle.dice = SeededDice(7)
    spell, target = state.spells["fireball"], get(state, "b")
    trials = 4000
    saves = sum(1 for _ in range(trials)
                if magic.unit_save(state, battle, spell, target, Fraction(4), 16).saved)
    expected = 6 / 20  # Reflex +1 against DC 16: a natural 15 or more
    assert abs(saves / trials - expected) < 4 * (expected * (1 - expected) / trials) ** 0.5


# ---- the AI's worth of a cast


def test_the_worth_of_turning_is_the_hp_of_the_counters_it_drives_off() -> None:
    bones = creature("skeleton", hp=6, level=1, undead=True)
    cleric = single("c", "A", "monster", at=(10, 10), creature=creature(
        "cleric", hp=30, cha=14, level=5, turning_level=5, turning_uses=1))
    state = state_with([unit("s", "B", squares=block(10, 13, 4, 1), count=40, creature=bones)],
                       [cleric])
    # 2d6 + 5 + 2 averages 14 HD: 1 counter of 6 HP, and every check turns 1 HD
    assert magic.ai_value(state, who(state, "c"), Order.parse("turn c s")) == 6


def test_the_worth_of_a_fireball_is_the_hp_it_is_expected_to_take() -> None:
    state = fireball_state()
    order = Order.parse("cast w fireball b")
    # 5d6 averages 17 (8 on a save); a save on 15+ (6 in 20); 4 counters
    assert magic.ai_value(state, who(state, "w"), order) == pytest.approx(
        4 * (0.7 * 17 + 0.3 * 8))


# ---- whole battles with casters


SPELLCASTERS = Path(__file__).parent / "data" / "spellcasters.yaml"


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_battles_with_spellcasters_keep_the_invariants(kind: str) -> None:
    problems, results = invariant_playouts(load_scenario(SPELLCASTERS), kind)
    casts: list[str] = []
    for result in results:
        casts += [e["spell"] for e in result.log.of_type("cast")]
        casts += ["turning" for _ in result.log.of_type("turning")]
    assert problems == []
    if kind == "ai":
        assert {"fireball", "red_dragon_breath_young"} <= set(casts)


def test_the_ai_stops_to_cast_a_spell_worth_casting_and_casts_the_best() -> None:
    mage = single("m", "A", "npc", unit="a", creature=wizard({"spell": "fireball", "uses": 1},
                                                             {"spell": "magic_missile"}))
    state = state_with([unit("a", "A", squares=block(10, 9, 2, 1), count=20),
                        foes(block(10, 14, 5, 2))], [mage])
    stay, act = Order.parse("sstay m"), Order.parse("sact m")
    assert ai_singles.stay_with_unit(state, who(state, "m"), (stay, act)) == act
    options = tuple(magic.cast_options(state, who(state, "m")))
    assert str(ai_singles.action(state, who(state, "m"), options)) == "cast m fireball b"
    who(state, "m").casts_made["fireball"] = 1  # spent: 1d4+1 over 10 a counter is worth 0
    assert ai_singles.stay_with_unit(state, who(state, "m"), (stay, act)) == stay
