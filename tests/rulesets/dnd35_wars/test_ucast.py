"""Units casting spells, the optional rule (W35-UCAST-01..13, W35-SPELL-05, W35-AMB-59,
W35-DEC-27): who casts, what each casting counter may aim at, and what one casting does."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.battle_watch import events
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
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario
from warhost.rulesets.dnd35_wars import actions, ai_units, magic, ucast
from warhost.rulesets.dnd35_wars.state import WarState

CASTERS = Path(__file__).parent / "data" / "casters.yaml"

SPELLS: list[dict[str, Any]] = [
    {"name": "missile", "level": 1, "effect": "damage", "range": 60, "damage": "1d4+1"},
    {"name": "ray", "level": 2, "effect": "damage", "range": 60, "ranged_touch": True,
     "damage": "2d6"},
    {"name": "ball", "level": 2, "effect": "damage", "range": 120, "save": "ref",
     "on_save": "half", "damage": "3d6", "area": {"shape": "circle", "feet": 20}},
    {"name": "cone", "level": 1, "effect": "damage", "range": 45, "save": "ref",
     "on_save": "half", "damage": "2d4", "area": {"shape": "cone", "feet": 15}},
    {"name": "mend", "level": 1, "effect": "heal", "range": "touch", "heal": "1d8",
     "heal_per_level": 1, "level_cap": 5},
    {"name": "wish", "level": 9, "effect": "damage", "range": 60, "damage": "10d6"},
]
"""Spells with round numbers: 60 ft is 4 squares and 120 ft 8 squares at the 15-ft scale."""


def mage(*spells: str, uses: int | None = 2, **fields: Any) -> dict[str, Any]:
    """A 3rd-level caster (+3 casting modifier: DC 14 at 1st level) knowing ``spells``."""
    return creature("apprentice", caster_level=3, casting_modifier=3,
                    spells=[{"spell": s, "uses": uses} for s in spells],
                    ranged=[{"name": "dart", "bonus": 2, "damage": "1d4",
                             "range_increment": 20}], **fields)


def casting_state(caster_squares: list[tuple[int, int]], foe_squares: list[tuple[int, int]],
                  *spells: str, cast: bool = True, uses: int | None = 2,
                  singles: list[dict[str, Any]] | None = None) -> WarState:
    return make_state([unit("mages", squares=caster_squares, creature=mage(*spells, uses=uses)),
                       unit("orcs", "B", squares=foe_squares)],
                      options={"units_cast_spells": cast}, spells=SPELLS,
                      singles=singles or [])


def casts(state: WarState, uid: str = "mages") -> set[str]:
    return {str(o) for o in ucast.options(state, get(state, uid))}


def refused(state: WarState, text: str, uid: str = "mages") -> Refusal:
    verdict = ucast.judge(state, get(state, uid), Order.parse(text))
    assert isinstance(verdict, Refusal), verdict
    return verdict


class Calls:
    """Records what a casting hands to the magic module."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> int:
        self.calls.append({"args": args, **kwargs})
        return 0


@pytest.fixture
def on_unit(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Stand in for magic.resolve_on_unit to see the counters and DC a casting passes on."""
    calls = Calls()
    monkeypatch.setattr(magic, "resolve_on_unit", calls, raising=False)
    return calls


def cast(state: WarState, text: str, dice: list[int] | None = None,
         uid: str = "mages") -> Any:
    battle = make_battle(state, dice=dice or [], orders={"A": [text]})
    actions.unit_action(state, battle, get(state, uid))
    return battle


# ---- who casts (W35-UCAST-01) --------------------------------------------------------------


@pytest.mark.rule("W35-UCAST-01")
def test_only_with_the_option_on_do_units_of_casters_cast() -> None:
    on = casting_state([(5, 5)], [(5, 8)], "missile", "wish")
    assert get(on, "mages").casts and not get(on, "orcs").casts
    # wish is beyond a 3rd-level caster (2nd-level spells at most): never castable
    assert get(on, "mages").spell_uses == {"missile": 2}
    assert casts(on) == {"ucast mages missile orcs"}
    off = casting_state([(5, 5)], [(5, 8)], "missile", cast=False)
    assert not get(off, "mages").casts
    assert casts(off) == set()
    assert refused(off, "ucast mages missile orcs").rule == "W35-UCAST-01"
    assert not any(o.kind == "ucast" for o in actions.legal_actions(off, get(off, "mages")))


@pytest.mark.rule("W35-UCAST-01")
def test_a_spell_the_creature_does_not_cast_is_refused() -> None:
    state = casting_state([(5, 5)], [(5, 8)], "missile", "wish")
    assert refused(state, "ucast mages wish orcs").rule == "W35-MAGIC-01"
    assert refused(state, "ucast mages ball orcs").rule == "W35-MAGIC-01"


@pytest.mark.rule("W35-ABIL-06", "W35-ABIL-07", "W35-UCAST-01")
def test_a_unit_of_monsters_breathes_its_special_ability_as_an_area_spell(
        on_unit: Calls) -> None:
    breath = {"name": "breath", "level": 3, "effect": "damage", "range": 30, "save": "ref",
              "on_save": "half", "damage_per_level": "1d6",
              "area": {"shape": "cone", "feet": 15}}
    hounds = creature("hell hound", hd=4, caster_level=0,
                      spells=[{"spell": "breath", "special": True, "recharge": 2, "dc": 13}])
    state = make_state([unit("hounds", squares=block(4, 5, 2, 1), creature=hounds),
                        unit("orcs", "B", squares=block(4, 7, 3, 1))],
                       options={"units_cast_spells": True}, spells=[breath])
    assert get(state, "hounds").casts  # no caster level, but a special ability
    battle = cast(state, "ucast hounds breath orcs", dice=[1, 2, 3, 4], uid="hounds")
    [area] = events(battle, "ucast_area")
    assert (area["counters"], area["dc"]) == (3, 14)  # cone 15 ft: 6, capped at 3; DC 13 + 1
    assert on_unit.calls[0]["caster_level"] == 4  # its Hit Dice: 4d6 rolled
    assert on_unit.calls[0]["rolled"] == 10
    state.round = 3  # two rounds between uses: back in round 4
    assert casts(state, "hounds") == set()
    assert refused(state, "ucast hounds breath orcs", "hounds").rule == "W35-ABIL-06"
    state.round = 4
    assert casts(state, "hounds") == {"ucast hounds breath orcs"}


# ---- the slot and the idle counters (W35-UCAST-05, W35-UCAST-02, W35-MAGIC-03) -------------


@pytest.mark.rule("W35-UCAST-05", "W35-UCAST-06")
def test_one_cast_spends_a_use_for_the_whole_unit_even_when_counters_cannot_cast(
        on_unit: Calls) -> None:
    # A column facing the orcs: the rear counter's view is blocked by the front one.
    state = casting_state([(5, 5), (5, 4)], [(5, 8), (6, 8)], "missile")
    battle = cast(state, "ucast mages missile orcs")
    [event] = events(battle, "ucast")
    assert (event["counters"], event["idle"]) == (1, 1)
    assert get(state, "mages").spell_uses["missile"] == 1
    state.round = 2
    cast(state, "ucast mages missile orcs")
    assert get(state, "mages").spell_uses["missile"] == 0
    assert casts(state) == set()
    assert refused(state, "ucast mages missile orcs").rule == "W35-UCAST-05"


@pytest.mark.rule("W35-UCAST-02", "W35-MAGIC-03")
def test_casting_is_the_units_one_action_among_its_others(on_unit: Calls) -> None:
    state = casting_state([(5, 5)], [(5, 8)], "missile")
    offered = {str(o) for o in actions.legal_actions(state, get(state, "mages"))}
    assert "ucast mages missile orcs" in offered and "hold" in offered
    battle = cast(state, "ucast mages missile orcs")
    # the cast was the unit action: no dart volley, no move, one casting resolved
    assert events(battle, "volley") == [] and events(battle, "move") == []
    assert len(on_unit.calls) == 1


@pytest.mark.rule("W35-MAGIC-02", "W35-UCAST-02")
def test_a_cast_of_several_rounds_takes_the_units_action_until_it_takes_effect(
        on_unit: Calls) -> None:
    rite = {"name": "rite", "level": 1, "effect": "damage", "range": 60, "damage": "1d6",
            "casting_rounds": 3}
    state = make_state([unit("mages", squares=[(5, 5)], creature=mage("rite")),
                        unit("orcs", "B", squares=[(5, 8)])],
                       options={"units_cast_spells": True}, spells=[rite])
    mages = get(state, "mages")
    battle = cast(state, "ucast mages rite orcs")
    assert events(battle, "ucast_begins")[0]["round"] == 3
    assert mages.spell_uses["rite"] == 1 and on_unit.calls == []
    state.round = 2
    offered = {str(o) for o in actions.legal_actions(state, mages)}
    assert offered == {"hold", "ucast mages rite orcs"}  # no moving or fighting meanwhile
    assert ucast.forbids(state, mages, Order.parse("move mages 0 1")) is not None
    cast(state, "ucast mages rite orcs")
    assert on_unit.calls == []
    state.round = 3
    battle = cast(state, "ucast mages rite orcs")
    assert len(on_unit.calls) == 1 and events(battle, "ucast")[0]["counters"] == 1
    state.round = 4
    assert ucast.forbids(state, mages, Order.parse("move mages 0 1")) is None
    assert mages.spell_uses["rite"] == 1


@pytest.mark.rule("W35-MAGIC-02")
def test_a_cast_of_several_rounds_is_lost_when_its_target_is_gone(on_unit: Calls) -> None:
    rite = {"name": "rite", "level": 1, "effect": "damage", "range": 60, "damage": "1d6",
            "casting_rounds": 2}
    state = make_state([unit("mages", squares=[(5, 5)], creature=mage("rite")),
                        unit("orcs", "B", squares=[(5, 8)])],
                       options={"units_cast_spells": True}, spells=[rite])
    cast(state, "ucast mages rite orcs")
    state.lift(get(state, "orcs"))
    get(state, "orcs").squares = set()
    state.round = 2
    battle = cast(state, "ucast mages rite orcs")
    assert events(battle, "ucast_lost")[0]["spell"] == "rite" and on_unit.calls == []


# ---- sight and range (W35-UCAST-06, W35-UCAST-09, W35-AMB-35) -----------------------------


@pytest.mark.rule("W35-UCAST-06", "W35-UCAST-09", "W35-AMB-35")
def test_front_counters_block_the_sight_of_the_counters_behind_them() -> None:
    state = casting_state([(5, 5), (5, 4)], [(5, 8), (6, 8)], "missile")
    plan = ucast.read_plan(state, get(state, "mages"), Order.parse("ucast mages missile orcs"))
    assert isinstance(plan, ucast.Plan)
    assert [a.counter for a in plan.aims] == [(5, 5)]
    refusal = refused(state, "ucast mages missile 5,4@6,8")
    assert refusal.rule == "W35-UCAST-09" and "line of sight" in refusal.reason
    # beside the front counter instead of behind it, the second counter sees
    side = casting_state([(5, 5), (4, 5)], [(5, 8), (6, 8)], "missile")
    assert ucast.judge(side, get(side, "mages"),
                       Order.parse("ucast mages missile 4,5@5,8+5,5@6,8")) is not None
    assert not isinstance(ucast.judge(side, get(side, "mages"),
                                      Order.parse("ucast mages missile 4,5@5,8+5,5@6,8")),
                          Refusal)


@pytest.mark.rule("W35-UCAST-09")
def test_a_casting_counter_must_be_within_range_of_its_target_square() -> None:
    # 60 ft is 4 squares at 15 ft: 5 squares away is out of range, 4 is in.
    state = casting_state([(5, 5)], [(5, 10), (6, 10)], "missile")
    assert casts(state) == set()
    refusal = refused(state, "ucast mages missile 5,5@5,10")
    assert refusal.rule == "W35-UCAST-09" and "out of range" in refusal.reason
    near = casting_state([(5, 5)], [(5, 9), (6, 9)], "missile")
    assert casts(near) == {"ucast mages missile orcs"}


@pytest.mark.rule("W35-UCAST-09", "W35-MAGIC-07")
def test_a_touch_spell_is_cast_only_by_counters_in_contact_with_their_target(
        on_unit: Calls) -> None:
    shock = {"name": "shock", "level": 1, "effect": "damage", "range": "touch",
             "damage": "1d6"}
    state = make_state([unit("mages", squares=block(4, 5, 3, 1), creature=mage("shock")),
                        unit("orcs", "B", squares=[(3, 6), (4, 6)])],
                       options={"units_cast_spells": True}, spells=[shock])
    # (4,5) touches both orc counters, (5,5) only (4,6) by a corner, (6,5) neither
    assert refused(state, "ucast mages shock 6,5@4,6").rule == "W35-UCAST-09"
    battle = cast(state, "ucast mages shock orcs")
    [event] = events(battle, "ucast")
    assert (event["counters"], event["idle"]) == (2, 1)
    assert on_unit.calls[0]["args"][4] == Fraction(2)


# ---- targets (W35-UCAST-04, W35-UCAST-07, W35-UCAST-10) -----------------------------------


@pytest.mark.rule("W35-UCAST-04")
def test_each_casting_counter_aims_at_one_enemy_counter_or_creature_square() -> None:
    state = casting_state([(4, 5), (5, 5)], [(5, 8), (6, 8)], "missile")
    assert refused(state, "ucast mages missile 4,5@5,8+4,5@6,8").rule == "W35-UCAST-04"
    assert refused(state, "ucast mages missile 4,5@4,8").rule == "W35-UCAST-04"  # empty
    assert refused(state, "ucast mages missile 3,5@5,8").rule == "W35-UCAST-04"  # not its own
    assert refused(state, "ucast mages missile 4,5@5,5").rule == "W35-UCAST-04"  # itself


@pytest.mark.rule("W35-UCAST-10")
def test_against_a_unit_each_casting_counter_takes_a_different_enemy_counter(
        on_unit: Calls) -> None:
    state = casting_state(block(4, 5, 3, 1), [(5, 8), (6, 8)], "missile")
    refusal = refused(state, "ucast mages missile 4,5@5,8+5,5@5,8")
    assert refusal.rule == "W35-UCAST-10"
    battle = cast(state, "ucast mages missile orcs")
    [event] = events(battle, "ucast")
    assert (event["counters"], event["idle"]) == (2, 1)  # two enemy counters: two casters
    [call] = on_unit.calls
    assert call["args"][3] is get(state, "orcs") and call["args"][4] == Fraction(2)
    assert call["args"][5] == 14  # no DC bonus for a single-target spell


@pytest.mark.rule("W35-UCAST-07", "W35-MAGIC-05")
def test_a_single_target_spell_at_a_lone_creature_multiplies_its_damage_by_the_casters() -> None:
    hero = single("hero", "B", kind="monster", at=(5, 9),
                  creature=creature("hero", hp=90, ac=18, touch_ac=12))
    state = casting_state([(4, 5), (5, 5)], [(12, 12)], "missile", singles=[hero])
    assert "ucast mages missile hero" in casts(state)
    # 1d4+1 rolls 4: each of the 2 counters' 10 casters deals it (W35-DMG-09): 80 HP
    battle = cast(state, "ucast mages missile hero", dice=[3])
    assert who(state, "hero").hp == 10
    assert events(battle, "single_damage")[0]["hp"] == 80
    inside = single("captain", "B", kind="npc", unit="orcs")
    embedded = casting_state([(5, 5)], [(5, 8)], "missile", singles=[inside])
    assert refused(embedded, "ucast mages missile captain").rule == "W35-MAGIC-05"


@pytest.mark.rule("W35-UCAST-07")
def test_a_unit_casts_at_another_unit_or_a_lone_creature_but_not_at_friends() -> None:
    friend = single("ally", "A", kind="monster", at=(5, 8))
    state = casting_state([(5, 5)], [(6, 8)], "missile", singles=[friend])
    assert casts(state) == {"ucast mages missile orcs"}
    assert refused(state, "ucast mages missile ally").rule == "W35-UCAST-07"


# ---- ranged touch (W35-UCAST-08) -----------------------------------------------------------


@pytest.mark.rule("W35-UCAST-08")
def test_each_casting_counter_rolls_its_ranged_touch_attack(on_unit: Calls) -> None:
    state = casting_state(block(4, 5, 3, 1), block(4, 8, 3, 1), "ray")
    # +2 (the dart's bonus) against touch AC 11: 15 hits, 2 misses, 9 hits
    battle = cast(state, "ucast mages ray orcs", dice=[15, 2, 9])
    rolls = [(a["roll"], a["total"], a["ac"], a["hit"]) for a in events(battle, "attack")]
    assert rolls == [(15, 17, 11, True), (2, 4, 11, False), (9, 11, 11, True)]
    [lands] = events(battle, "ucast_lands")
    assert (lands["counters"], lands["aimed"]) == (2, 3)
    [call] = on_unit.calls
    assert call["args"][4] == Fraction(2)


@pytest.mark.rule("W35-UCAST-08")
def test_when_every_touch_attack_misses_the_spell_does_nothing(on_unit: Calls) -> None:
    state = casting_state([(5, 5)], [(5, 8)], "ray")
    battle = cast(state, "ucast mages ray orcs", dice=[1])
    assert on_unit.calls == [] and events(battle, "ucast_lands")[0]["counters"] == 0
    assert get(state, "mages").spell_uses["ray"] == 1  # the use is spent all the same


# ---- area spells (W35-UCAST-11..13, W35-AMB-59) -------------------------------------------


@pytest.mark.rule("W35-UCAST-11")
def test_an_area_spell_comes_only_from_counters_with_sight_and_range(on_unit: Calls) -> None:
    state = casting_state([(5, 5), (5, 4)], block(4, 8, 4, 1), "ball")
    assert refused(state, "ucast mages ball 5,4@5,8").rule == "W35-UCAST-11"
    battle = cast(state, "ucast mages ball orcs", dice=[1, 1, 1])
    [event] = events(battle, "ucast")
    assert (event["counters"], event["idle"]) == (1, 1)
    [area] = events(battle, "ucast_area")
    assert area["dc"] == 15  # 10 + 2nd level + 3, one casting counter: no bonus


@pytest.mark.rule("W35-UCAST-12", "W35-AMB-59")
def test_an_area_spell_covers_the_five_foot_column_capped_by_the_target(on_unit: Calls) -> None:
    # a 15-ft cone covers 6 five-foot squares: 6 of 10 counters; a 20-ft radius circle 44,
    # capped at the 4 counters of the target.
    state = make_state([unit("mages", squares=block(4, 5, 3, 1), creature=mage("cone", "ball")),
                        unit("orcs", "B", squares=block(2, 7, 5, 2)),
                        unit("wolves", "B", squares=block(12, 7, 4, 1))],
                       options={"units_cast_spells": True}, spells=SPELLS)
    cast(state, "ucast mages cone orcs", dice=[1, 1])
    assert on_unit.calls[-1]["args"][4] == Fraction(6)
    state.round = 2
    cast(state, "ucast mages ball wolves", dice=[1, 1, 1])
    assert on_unit.calls[-1]["args"][4] == Fraction(4)
    assert on_unit.calls[-1]["args"][3] is get(state, "wolves")


@pytest.mark.rule("W35-UCAST-12")
def test_a_units_area_spell_is_placed_on_one_target() -> None:
    state = make_state([unit("mages", squares=block(4, 5, 2, 1), creature=mage("ball")),
                        unit("orcs", "B", squares=[(4, 8)]),
                        unit("wolves", "B", squares=[(5, 8)])],
                       options={"units_cast_spells": True}, spells=SPELLS)
    assert refused(state, "ucast mages ball 4,5@4,8+5,5@5,8").rule == "W35-UCAST-12"


@pytest.mark.rule("W35-UCAST-13")
def test_an_area_spell_gets_one_dc_for_every_casting_counter_after_the_first(
        on_unit: Calls) -> None:
    state = casting_state(block(4, 5, 3, 1), block(4, 8, 4, 1), "ball")
    battle = cast(state, "ucast mages ball orcs", dice=[1, 1, 1])
    [area] = events(battle, "ucast_area")
    assert (area["counters"], area["dc"]) == (4, 17)  # 15 + 2 more casting counters
    assert on_unit.calls[0]["args"][5] == 17
    two = casting_state(block(4, 5, 3, 1), block(4, 8, 4, 1), "ball")
    cast(two, "ucast mages ball 4,5@4,8+5,5@4,8", dice=[1, 1, 1])
    assert on_unit.calls[-1]["args"][5] == 16
    assert ucast.area_dc(15, 1) == 15 and ucast.area_dc(15, 7) == 21


def tough_orcs(squares: list[tuple[int, int]]) -> dict[str, Any]:
    """Orcs of 30 HP, Reflex +1, no DR: 30 HP a counter."""
    return unit("orcs", "B", squares=squares, creature=creature("orc", hp=30, ref=1))


@pytest.mark.rule("W35-UCAST-12", "W35-UCAST-13", "W35-AMB-59")
def test_a_units_fire_ball_burns_every_covered_counter_once_at_the_raised_dc() -> None:
    state = make_state([unit("mages", squares=block(4, 5, 3, 1), creature=mage("ball")),
                        tough_orcs(block(4, 8, 4, 1))],
                       options={"units_cast_spells": True}, spells=SPELLS)
    # 3d6 = 12; Reflex 5 + 1 = 6 fails DC 17: 12 on each of the 4 counters, 48 of 120 HP
    battle = cast(state, "ucast mages ball orcs", dice=[3, 4, 5, 5])
    [save] = events(battle, "save")
    assert (save["dc"], save["saved"]) == (17, False)
    assert get(state, "orcs").hp == 72
    again = make_state([unit("mages", squares=block(4, 5, 3, 1), creature=mage("ball")),
                        tough_orcs(block(4, 8, 4, 1))],
                       options={"units_cast_spells": True}, spells=SPELLS)
    # a natural 18 saves: half of 12 on each counter, 24
    cast(again, "ucast mages ball orcs", dice=[3, 4, 5, 18])
    assert get(again, "orcs").hp == 96


@pytest.mark.rule("W35-AOE-04", "W35-UCAST-02")
def test_a_units_area_spell_over_a_whole_unit_reaches_the_creatures_inside() -> None:
    captain = single("captain", "B", kind="npc", unit="orcs",
                     creature=creature("captain", hp=40, ref=2))
    state = make_state([unit("mages", squares=block(4, 5, 3, 1), creature=mage("cone")),
                        tough_orcs(block(4, 7, 4, 1))],
                       options={"units_cast_spells": True}, spells=SPELLS, singles=[captain])
    # the 15-ft cone covers 6 squares: all 4 counters. One roll, 2d4 = 5, for everything it
    # catches: the unit fails (2 + 1 < 16) and loses 5 a counter; the captain saves (17 + 2)
    # and takes half, 2.
    cast(state, "ucast mages cone orcs", dice=[2, 3, 2, 17])
    assert get(state, "orcs").hp == 120 - 20
    assert who(state, "captain").hp == 38


# ---- heals on itself (W35-SPELL-05, W35-UCAST-03) -----------------------------------------


@pytest.mark.rule("W35-SPELL-05", "W35-UCAST-03")
def test_a_units_heal_adds_average_healing_times_its_casting_counters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = Calls()
    monkeypatch.setattr(magic, "heal_unit", calls, raising=False)
    state = casting_state(block(4, 4, 2, 2), [(12, 12)], "mend")
    mages = get(state, "mages")
    assert casts(state) == set()  # unhurt: nothing to heal
    state.remove_counters(mages, {(5, 5)})
    mages.hp = 25
    assert casts(state) == {"ucast mages mend mages"}
    battle = cast(state, "ucast mages mend mages")
    # 1d8+3 averages 7 (7.5 rounded down); every one of the 3 counters casts it: 21
    [event] = events(battle, "ucast_healing")
    assert (event["average"], event["counters"], event["hp"]) == (7, 3, 21)
    assert calls.calls[0]["args"][2:4] == (mages, 21)


@pytest.mark.rule("W35-SPELL-05", "W35-AMB-27")
def test_a_units_heal_never_lifts_it_above_its_starting_hp() -> None:
    state = casting_state(block(4, 4, 2, 2), [(12, 12)], "mend")
    mages = get(state, "mages")
    mages.hp = 35
    battle = cast(state, "ucast mages mend mages")
    assert events(battle, "ucast_healing")[0]["hp"] == 28  # 7 x 4 counters
    assert mages.hp == 40 and events(battle, "healed")[0]["hp"] == 5


@pytest.mark.rule("W35-SPELL-04", "W35-UCAST-02")
def test_a_unit_heals_only_itself() -> None:
    state = casting_state([(5, 5)], [(5, 8)], "mend")
    get(state, "mages").hp = 5
    assert refused(state, "ucast mages mend orcs").rule == "W35-SPELL-04"


# ---- the plan decision and its default (W35-DEC-27) ---------------------------------------


@pytest.mark.rule("W35-DEC-27")
def test_the_offered_plans_name_spell_and_target_and_explicit_aims_are_judged() -> None:
    hero = single("hero", "B", kind="monster", at=(10, 8))
    state = make_state([unit("mages", squares=block(4, 5, 3, 1), creature=mage("missile",
                                                                               "cone")),
                        unit("orcs", "B", squares=block(4, 8, 2, 1))],
                       options={"units_cast_spells": True}, spells=SPELLS, singles=[hero])
    assert casts(state) == {"ucast mages missile orcs", "ucast mages missile hero",
                            "ucast mages cone orcs"}
    plan = ucast.read_plan(state, get(state, "mages"), Order.parse("ucast mages missile orcs"))
    assert isinstance(plan, ucast.Plan)
    assert ucast.plan_text(plan) == "4,5@4,8+5,5@5,8"  # nearest enemy counter each
    explicit = Order.parse("ucast mages missile 4,5@5,8+6,5@10,8")
    assert ucast.judge(state, get(state, "mages"), explicit) == explicit


@pytest.mark.rule("W35-DEC-27")
def test_the_ai_values_a_cast_by_the_hp_it_expects_to_take() -> None:
    state = casting_state(block(4, 5, 3, 1), block(4, 8, 3, 1), "missile", "ray")
    mages = get(state, "mages")
    # missile: 1d4+1 averages 3 (3.5 down) on each of 3 counters, no save, no roll
    assert ucast.ai_value(state, mages, Order.parse("ucast mages missile orcs")) == 9.0
    # ray: 2d6 averages 7, +2 against touch AC 11 hits on 9+: 60% of 3 counters
    assert ucast.ai_value(state, mages, Order.parse("ucast mages ray orcs")) == pytest.approx(
        7 * 3 * 0.6)
    options = tuple(actions.legal_actions(state, mages))
    choice = ai_units.choose(state, "mages", options)
    assert choice is not None and choice.kind == "ucast"


# ---- whole battles -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_battles_with_units_of_casters_keep_the_invariants(kind: str) -> None:
    problems, results = invariant_playouts(load_scenario(CASTERS), kind)
    cast_events = sum(len(result.log.of_type("ucast")) for result in results)
    assert problems == []
    assert cast_events > 0
