"""Spells, Surge, attack Spell types, Vortex, Stress and Dispel with scripted dice
(WB-MAGIC, WB-SPELL, WB-ATKSPELL, WB-DISPEL, WB-AMB-24/56-64)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from tests.rulesets.warband.narration_samples import MAGIC_EVENTS
from warhost.core.battle import Battle
from warhost.core.dice import ScriptedDice
from warhost.core.orders import Order
from warhost.rulesets.warband import combat, game, magic
from warhost.rulesets.warband.state import STUNNED, WarbandState

SPELLS: list[dict[str, Any]] = [
    {"name": "bolt", "phase": "ranged", "range": 8,
     "attack": {"type": "ranged", "strength": 4}, "surge": {"strength": 2}},
    {"name": "fire bolt", "phase": "ranged", "range": 8, "tiring": True,
     "attack": {"type": "ranged", "strength": 3}},
    {"name": "eye", "phase": "ranged", "range": 8, "attack": {"type": "direct", "strength": 4}},
    {"name": "spark", "phase": "ranged", "range": 3, "melee_safe": True,
     "attack": {"type": "direct", "strength": 3}},
    {"name": "grasp", "phase": "melee", "range": 1, "attack": {"type": "melee", "strength": 4}},
    {"name": "gale", "phase": "ranged", "range": 8,
     "attack": {"type": "wind", "strength": 4, "distance": 4}},
    {"name": "rain", "phase": "ranged", "range": 8,
     "attack": {"type": "bombardment", "strength": 4, "penetration": 1}},
    {"name": "maelstrom", "phase": "ranged", "range": 8,
     "attack": {"type": "vortex", "strength": 4, "move": "2", "duration": 2}},
    {"name": "mend", "phase": "utility", "range": 3, "targets": "ally", "count": 2,
     "effect": {"heal": 1}, "surge": {"heal": 1}},
    {"name": "curse", "phase": "melee", "range": 4, "targets": "enemy", "modifier": 2,
     "effect": {"score": "melee", "by": -2, "turns": 2}},
    {"name": "stride", "phase": "movement", "targets": "self", "effect": {"teleport": 2}},
    {"name": "lore", "phase": "non_combat", "targets": "self", "effect": {"heal": 1}},
]


def mage(cid: str, at: tuple[int, int], side: str = "A", spells: list[str] | None = None,
         **stats: Any) -> dict[str, Any]:
    return char(cid, at, side, kind="hero", magic=stats.pop("magic", 5),
                spells=spells if spells is not None else ["bolt"], **stats)


def world(chars: list[dict[str, Any]], **kwargs: Any) -> WarbandState:
    return make_state(chars, spells=SPELLS, **kwargs)


def cast(state: WarbandState, battle: Battle, who: str, text: str) -> None:
    c = state.chars[who]
    order = Order.parse(text)
    spell = magic._spell(c, str(order.args[0]))
    assert order in magic.spell_options(state, c, spell.phase), text
    magic.cast_order(state, battle, c, order)


def texts(orders: list[Order]) -> list[str]:
    return [str(o) for o in orders]


def kinds(battle: Battle, kind: str) -> list[str]:
    return [str(o) for _, k, o in battle.decided if k == kind]


# ------------------------------------------------------------------------ who casts what


@pytest.mark.rule("WB-MAGIC-04")
@pytest.mark.rule("WB-MAGIC-01")
@pytest.mark.rule("WB-AMB-62")
def test_only_a_mage_with_magic_and_a_spell_casts() -> None:
    state = world([mage("m", (5, 5)), mage("z", (3, 5), magic=0),
                   mage("n", (7, 5), spells=[]), char("b", (5, 9), "B")])
    assert texts(magic.spell_options(state, state.chars["m"], "ranged")) == [
        "cast bolt b base", "cast bolt b surge", "cast bolt b surge-plain"]
    assert magic.spell_options(state, state.chars["z"], "ranged") == []
    assert magic.spell_options(state, state.chars["n"], "ranged") == []
    assert not state.chars["n"].is_mage and not state.chars["z"].is_mage


@pytest.mark.rule("WB-MAGIC-05")
@pytest.mark.rule("WB-SPELL-02")
@pytest.mark.rule("WB-SPELL-03")
def test_a_spell_is_offered_only_in_its_phase_and_non_combat_never() -> None:
    state = world([mage("m", (5, 5), spells=["bolt", "grasp", "stride", "mend", "lore"]),
                   char("b", (5, 6), "B", wounds=2)])
    m = state.chars["m"]
    phases = {p: {o.args[0] for o in magic.spell_options(state, m, p)} for p in magic.PHASES}
    assert phases == {"utility": {"mend"}, "movement": {"stride"}, "ranged": set(),
                      "melee": {"grasp"}}  # bolt: Engaged and not Melee-Safe
    assert magic.spell_options(state, m, "non_combat") == []


@pytest.mark.rule("WB-SPELL-05")
@pytest.mark.rule("WB-SPELL-01")
def test_range_limits_the_targets() -> None:
    state = world([mage("m", (0, 0)), char("near", (8, 3), "B"), char("far", (9, 0), "B")])
    targets = {o.args[1] for o in magic.spell_options(state, state.chars["m"], "ranged")}
    assert targets == {"near"}


@pytest.mark.rule("WB-MORALE-06")
@pytest.mark.rule("WB-AMB-42")
def test_routing_or_stunned_mages_cast_nothing() -> None:
    state = world([mage("m", (0, 0)), mage("s", (2, 0)), char("b", (4, 4), "B")])
    state.chars["m"].routing = True
    state.chars["s"].condition = STUNNED
    assert magic.spell_options(state, state.chars["m"], "ranged") == []
    assert magic.spell_options(state, state.chars["s"], "ranged") == []


@pytest.mark.rule("WB-RANGED-03")
def test_engaged_caster_may_use_only_melee_safe_spells_in_the_ranged_phase() -> None:
    state = world([mage("m", (5, 5), spells=["bolt", "spark"]),
                   char("b", (5, 6), "B", wounds=2)])
    assert {o.args[0] for o in magic.spell_options(state, state.chars["m"], "ranged")} == {
        "spark"}


# ------------------------------------------------------------------------ the Magic test


@pytest.mark.rule("WB-MAGIC-06")
@pytest.mark.rule("WB-MAGIC-07")
@pytest.mark.rule("WB-MAGIC-09")
@pytest.mark.rule("WB-ATKSPELL-01")
@pytest.mark.rule("WB-ATKSPELL-03")
@pytest.mark.rule("WB-ATKSPELL-04")
@pytest.mark.rule("WB-ATKSPELL-05")
@pytest.mark.rule("WB-MAGIC-02")
def test_a_passed_test_is_the_hit_then_strength_defense_and_ward() -> None:
    state = world([mage("m", (5, 2)), char("b", (5, 8), "B", wounds=2, armour=1, ward=5)])
    # Magic 3 vs 5 passes (no to-hit die); damage 4 vs Strength 4 wounds; Defense 5 vs 3+1
    # fails; Ward 5 vs 5 saves.
    battle = make_battle(state, [3, 4, 5, 5])
    cast(state, battle, "m", "cast bolt b base")
    assert isinstance(battle.dice, ScriptedDice) and battle.dice.unused == 0
    attack = events(battle, "attack")[0]
    assert (attack["hit"], attack["critical"], attack["wounds"], attack["warded"],
            attack["confirmed"]) == (True, False, 1, 1, 0)
    whys = [e["why"] for e in events(battle, "roll")]
    assert whys == ["cast bolt (m)", "damage (m)", "defense (b)", "ward (b)"]
    assert state.chars["m"].attacks_used == 1


@pytest.mark.rule("WB-AMB-57")
@pytest.mark.rule("WB-ATKSPELL-03")
def test_a_magic_die_of_one_is_no_critical_hit() -> None:
    state = world([mage("m", (5, 2)), char("b", (5, 8), "B", wounds=3)])
    battle = make_battle(state, [1, 4, 9])  # test 1; damage 4 wounds; Defense 9 fails
    cast(state, battle, "m", "cast bolt b base")
    attack = events(battle, "attack")[0]
    assert (attack["critical"], attack["confirmed"]) == (False, 1)
    assert state.chars["b"].wounds == 2  # one wound only, no Critical extra


@pytest.mark.rule("WB-MAGIC-07")
@pytest.mark.rule("WB-AMB-63")
def test_a_failed_test_does_nothing_but_costs_the_attack_and_counts_as_tried() -> None:
    state = world([mage("m", (5, 2)), mage("e", (5, 9), "B"), char("b", (5, 8), "B")])
    battle = make_battle(state, [6])  # 6 vs Magic 5 fails
    cast(state, battle, "m", "cast bolt b base")
    m = state.chars["m"]
    assert events(battle, "attack") == [] and not events(battle, "spell_test")[0]["passed"]
    assert (m.attacks_used, m.spells_tried) == (1, 1)
    assert kinds(battle, "dispel") == []  # WB-DISPEL-02: no window after a failure


@pytest.mark.rule("WB-SPELL-04")
def test_the_spell_modifier_is_added_to_the_magic_test() -> None:
    state = world([mage("m", (5, 5), spells=["curse"]), char("b", (5, 8), "B")])
    battle = make_battle(state, [7])  # 7 vs 5 + 2 passes
    cast(state, battle, "m", "cast curse b base")
    assert events(battle, "spell_test")[0]["target"] == 7
    assert state.chars["b"].score("melee") == 3


# --------------------------------------------------------------------------------- Surge


@pytest.mark.rule("WB-MAGIC-08")
@pytest.mark.rule("WB-MAGIC-10")
@pytest.mark.rule("WB-AMB-60")
@pytest.mark.rule("WB-ASK-17")
def test_surge_is_offered_only_before_any_other_spell_this_turn() -> None:
    state = world([mage("m", (5, 2), spells=["bolt", "eye"], attacks=2),
                   char("b", (5, 8), "B", wounds=5)])
    m = state.chars["m"]
    assert {o.args[2] for o in magic.spell_options(state, m, "ranged")} == {
        "base", "surge", "surge-plain"}
    battle = make_battle(state, [9])  # the first cast fails: it still counts as tried
    magic.cast_one(state, battle, m, magic._spell(m, "bolt"), "b", "base")
    assert {o.args[2] for o in magic.spell_options(state, m, "ranged")} == {"base"}


@pytest.mark.rule("WB-MAGIC-11")
@pytest.mark.rule("WB-MAGIC-12")
def test_surge_costs_one_on_the_test_and_its_effect_is_optional() -> None:
    # Magic 5, Surge: target 4. Die 4 passes. Surge Effect +2 Strength: damage 6 vs 6 wounds.
    state = world([mage("m", (5, 2)), char("b", (5, 8), "B", wounds=2)])
    battle = make_battle(state, [4, 6, 9])
    cast(state, battle, "m", "cast bolt b surge")
    assert events(battle, "spell_test")[0]["target"] == 4
    assert events(battle, "attack")[0]["confirmed"] == 1
    # surge-plain: the same Surge penalty, but Strength stays 4: damage 6 fails
    state = world([mage("m", (5, 2)), char("b", (5, 8), "B", wounds=2)])
    battle = make_battle(state, [4, 6])
    cast(state, battle, "m", "cast bolt b surge-plain")
    assert events(battle, "spell_test")[0]["target"] == 4
    assert events(battle, "attack")[0]["wounds"] == 0


@pytest.mark.rule("WB-MAGIC-12")
def test_surge_penalty_can_fail_a_test_base_would_pass() -> None:
    state = world([mage("m", (5, 2)), char("b", (5, 8), "B", wounds=2)])
    battle = make_battle(state, [5])
    cast(state, battle, "m", "cast bolt b surge")
    assert not events(battle, "spell_test")[0]["passed"]


@pytest.mark.rule("WB-MAGIC-13")
@pytest.mark.rule("WB-AMB-60")
def test_surge_locks_casting_until_the_same_phase_next_turn_even_after_a_failure() -> None:
    state = world([mage("m", (5, 2), spells=["spark", "grasp", "mend", "stride"], attacks=3),
                   char("c", (4, 1), "B", wounds=5)])
    m = state.chars["m"]
    battle = make_battle(state, [10])  # fails
    cast(state, battle, "m", "cast spark c surge-plain")
    assert m.surge_lock == (2, "ranged")
    assert magic.spell_options(state, m, "melee") == []
    state.turn = 2
    m.reset_turn()
    for phase in ("utility", "movement"):
        assert magic.spell_options(state, m, phase) == []
    assert magic.spell_options(state, m, "ranged") != []
    assert magic.spell_options(state, m, "melee") != []


@pytest.mark.rule("WB-MAGIC-14")
@pytest.mark.rule("WB-MAGIC-15")
@pytest.mark.rule("WB-AMB-61")
def test_tiring_spells_give_stress_one_more_at_surge_passed_or_not() -> None:
    state = world([mage("m", (5, 2), spells=["fire bolt"]), char("b", (5, 8), "B")])
    battle = make_battle(state, [10])
    cast(state, battle, "m", "cast fire_bolt b base")
    assert state.chars["m"].stress == 1
    state = world([mage("m", (5, 2), spells=["fire bolt"]), char("b", (5, 8), "B")])
    battle = make_battle(state, [10])
    cast(state, battle, "m", "cast fire_bolt b surge-plain")
    assert state.chars["m"].stress == 2
    state = world([mage("m", (5, 2), spells=["bolt"]), char("b", (5, 8), "B")])
    battle = make_battle(state, [10])
    cast(state, battle, "m", "cast bolt b surge")
    assert state.chars["m"].stress == 0  # not Tiring


# ---------------------------------------------------------------- several spells an action


@pytest.mark.rule("WB-AMB-24")
@pytest.mark.rule("WB-RANGED-05")
def test_several_ranged_spells_in_one_action_each_costing_an_attack() -> None:
    state = world([mage("m", (5, 2), spells=["bolt", "eye"], attacks=2),
                   char("b", (5, 8), "B", wounds=5)])
    # bolt fails (9); more: eye passes (2), damage 9 fails
    battle = make_battle(state, [9, 2, 9], orders={"A": ["cast eye b base"]})
    cast(state, battle, "m", "cast bolt b base")
    m = state.chars["m"]
    assert m.attacks_used == 2 and m.ranged_done
    assert [e["spell"] for e in events(battle, "cast")] == ["bolt", "eye"]
    more = [o for s, k, o in battle.decided if k == "cast_more"]
    assert str(more[0]) == "cast eye b base"


@pytest.mark.rule("WB-AMB-24")
@pytest.mark.rule("WB-MELEE-06")
def test_one_spell_per_action_option_and_attack_limit() -> None:
    state = world([mage("m", (5, 5), spells=["grasp"], attacks=2),
                   char("b", (5, 6), "B", wounds=5)], options={"one_spell_per_action": True})
    battle = make_battle(state, [9])
    cast(state, battle, "m", "cast grasp b base")
    assert kinds(battle, "cast_more") == []
    state = world([mage("m", (5, 5), spells=["grasp"], attacks=1),
                   char("b", (5, 6), "B", wounds=5)])
    battle = make_battle(state, [9])
    cast(state, battle, "m", "cast grasp b base")
    assert kinds(battle, "cast_more") == []  # no Attack left
    assert magic.spell_options(state, state.chars["m"], "melee") == []


def test_the_ranged_phase_loop_casts_and_cannot_mix_with_shooting() -> None:
    state = world([mage("m", (5, 2), spells=["bolt"], attacks=2,
                        weapons=[{"name": "sling", "kind": "ranged", "strength": 3,
                                  "range": 8}]),
                   char("b", (5, 8), "B", wounds=5)])
    battle = make_battle(state, [9, 9], orders={"A": ["cast bolt b base", "done"]})
    game.ranged_phase(state, battle)
    assert kinds(battle, "cast_more") == ["done"]
    assert all(str(o).startswith("cast") or o.kind == "done"
               for _, k, o in battle.decided if k == "cast_more")
    assert events(battle, "attack") == []


# ---------------------------------------------------------------------- attack Spell types


@pytest.mark.rule("WB-ATKSPELL-02")
@pytest.mark.rule("WB-AMB-56")
def test_all_six_attack_types_are_accepted() -> None:
    state = world([mage("m", (0, 0)), char("b", (4, 4), "B")])
    types = {s.attack.type for s in state.spells.values() if s.attack is not None}
    assert types == {"melee", "ranged", "direct", "bombardment", "wind", "vortex"}


@pytest.mark.rule("WB-ATKSPELL-06")
@pytest.mark.rule("WB-ATKSPELL-07")
@pytest.mark.rule("WB-AMB-57")
def test_melee_spell_takes_the_charge_bonus_on_test_and_strength() -> None:
    state = world([mage("m", (5, 5), spells=["grasp"]), char("b", (5, 6), "B", wounds=2),
                   char("far", (5, 8), "B")])
    m = state.chars["m"]
    assert {o.args[1] for o in magic.spell_options(state, m, "melee")} == {"b"}
    m.charged = "b"
    # test 6 vs 5 + 1 passes; damage 5 vs 4 + 1 wounds; Defense 9 fails
    battle = make_battle(state, [6, 5, 9])
    cast(state, battle, "m", "cast grasp b base")
    assert events(battle, "spell_test")[0]["target"] == 6
    assert state.chars["b"].wounds == 1


@pytest.mark.rule("WB-ATKSPELL-07")
def test_melee_spell_takes_parry_and_prone_penalties() -> None:
    state = world([mage("m", (5, 5), spells=["grasp"], melee=4),
                   char("b", (5, 6), "B", wounds=2, melee=6, talents=["parry"], facing="S")])
    state.chars["m"].prone = True
    battle = make_battle(state, [2, 9])
    magic.cast_one(state, battle, state.chars["m"], magic._spell(state.chars["m"], "grasp"),
                   "b", "base")
    assert events(battle, "spell_test")[0]["target"] == 5 - 2 - 1


@pytest.mark.rule("WB-ATKSPELL-08")
def test_ranged_spell_needs_sight_and_takes_cover_and_into_melee() -> None:
    state = world([mage("m", (5, 0)), char("b", (5, 6), "B", wounds=2),
                   char("c", (5, 7), "A"), char("hid", (0, 6), "B")],
                  features=[{"from": [5, 5], "cover": True},
                            {"from": [1, 3], "to": [1, 5], "terrain": "blocking"}])
    m = state.chars["m"]
    assert {o.args[1] for o in magic.spell_options(state, m, "ranged")} == {"b"}
    battle = make_battle(state, [2, 9])
    cast(state, battle, "m", "cast bolt b base")
    assert events(battle, "spell_test")[0]["target"] == 5 - 1 - 2
    # a Prone caster makes no ranged attacks (WB-MOVE-20)
    state = world([mage("m", (5, 0)), char("b", (5, 6), "B")])
    state.chars["m"].prone = True
    assert magic.spell_options(state, state.chars["m"], "ranged") == []


@pytest.mark.rule("WB-ATKSPELL-09")
def test_direct_spell_ignores_cover_and_into_melee_but_needs_sight() -> None:
    state = world([mage("m", (5, 0), spells=["eye"]), char("b", (5, 6), "B", wounds=2),
                   char("c", (5, 7), "A"), char("hid", (0, 6), "B")],
                  features=[{"from": [5, 5], "cover": True},
                            {"from": [1, 3], "to": [1, 5], "terrain": "blocking"}])
    m = state.chars["m"]
    assert {o.args[1] for o in magic.spell_options(state, m, "ranged")} == {"b"}
    battle = make_battle(state, [5, 9])
    cast(state, battle, "m", "cast eye b base")
    assert events(battle, "spell_test")[0]["target"] == 5


@pytest.mark.rule("WB-ATKSPELL-10")
@pytest.mark.rule("WB-AMB-58")
def test_wind_hits_everyone_on_its_path_but_the_caster_and_stops_at_blocking() -> None:
    state = world([mage("m", (2, 2), spells=["gale"]), char("friend", (3, 2), "A"),
                   char("b", (4, 2), "B"), char("beyond", (6, 2), "B"),
                   char("side", (4, 3), "B")],
                  features=[{"from": [5, 2], "terrain": "blocking"}])
    m = state.chars["m"]
    aims = {o.args[1] for o in magic.spell_options(state, m, "ranged")}
    assert aims == {"4,2", "6,2", "4,3"}
    # test 2; friend: damage 9 fails; b: damage 9 fails
    battle = make_battle(state, [2, 9, 9])
    cast(state, battle, "m", "cast gale 6,2 base")
    assert [e["target"] for e in events(battle, "attack")] == ["friend", "b"]
    assert magic.wind_path(state, (2, 2), (6, 2), 4) == [(3, 2), (4, 2)]


@pytest.mark.rule("WB-ATKSPELL-11")
@pytest.mark.rule("WB-AMB-56")
def test_bombardment_needs_no_sight_and_hits_everyone_within_radius() -> None:
    state = world([mage("m", (0, 0), spells=["rain"]), char("b", (5, 5), "B", armour=1),
                   char("c", (6, 6), "A"), char("d", (7, 7), "B")],
                  features=[{"from": [2, 0], "to": [2, 9], "terrain": "blocking"}])
    m = state.chars["m"]
    assert "5,5" in {o.args[1] for o in magic.spell_options(state, m, "ranged")}
    # test 2; b: damage 4 wounds, Defense 4 vs 3 + 1 - 1 (Penetration) fails, Injury 1;
    # c: damage 9 fails
    battle = make_battle(state, [2, 4, 4, 1, 9])
    cast(state, battle, "m", "cast rain 5,5 base")
    assert [e["target"] for e in events(battle, "attack")] == ["b", "c"]
    assert events(battle, "attack")[0]["confirmed"] == 1


@pytest.mark.rule("WB-ATKSPELL-11")
@pytest.mark.rule("WB-ATKSPELL-12")
@pytest.mark.rule("WB-AMB-59")
def test_vortex_stays_moves_in_the_aftermath_and_leaves_when_its_time_ends() -> None:
    state = world([mage("m", (0, 0), spells=["maelstrom"]), char("b", (5, 5), "B", wounds=3),
                   char("c", (8, 5), "B", wounds=3)], width=12)
    # test 2; b hit: damage 9 fails
    battle = make_battle(state, [2, 9])
    cast(state, battle, "m", "cast maelstrom 5,5 base")
    assert [e["target"] for e in events(battle, "attack")] == ["b"]
    assert len(state.vortices) == 1
    # Aftermath: direction 3 (E), move 2 fixed: (7,5) reaches c (radius 1); b is within
    # radius 1 of (6,5) too: each hit once. b: damage 9; c: damage 9.
    battle = make_battle(state, [3, 9, 9])
    magic.aftermath_vortices(state, battle)
    assert state.vortices[0]["square"] == [7, 5]
    assert [e["target"] for e in events(battle, "attack")] == ["b", "c"]
    assert events(battle, "vortex_moves")[0]["direction"] == "E"
    # duration 2: it leaves after its second move. Direction 7 (W) to (5,5): b is hit, c
    # (two squares from (6,5)) is not
    battle = make_battle(state, [7, 9])
    magic.aftermath_vortices(state, battle)
    assert state.vortices == []
    assert [e["target"] for e in events(battle, "attack")] == ["b"]
    assert events(battle, "vortex_leaves")[0]["why"] == "its time is over"


@pytest.mark.rule("WB-AMB-59")
def test_vortex_leaves_play_off_the_map_after_hitting_on_the_way() -> None:
    state = world([mage("m", (0, 0), spells=["maelstrom"]), char("b", (10, 9), "B")],
                  width=12)
    state.vortices.append({"id": "v", "spell": "maelstrom", "caster": "m",
                           "square": [10, 8], "radius": 0, "strength": 4, "penetration": 0,
                           "hits": 1, "move": "1d6", "turns": None})
    battle = make_battle(state, [1, 6, 9])  # N, 6 squares: (10,9) hits b, then off the map
    magic.aftermath_vortices(state, battle)
    assert state.vortices == []
    assert [e["target"] for e in events(battle, "attack")] == ["b"]
    assert events(battle, "vortex_leaves")[0]["why"] == "it leaves the map"


@pytest.mark.rule("WB-AMB-59")
def test_vortex_defaults_come_from_the_options_and_the_turn_loop_moves_it() -> None:
    spells = [{"name": "swirl", "phase": "ranged", "range": 8,
               "attack": {"type": "vortex", "strength": 4}}]
    state = make_state([mage("m", (0, 0), spells=["swirl"]), char("b", (4, 4), "B"),
                        char("c", (7, 4), "B", kind="hero", wounds=3)], spells=spells,
                       options={"vortex_default_radius": 0, "vortex_default_move": "3"})
    battle = make_battle(state, [2, 9])  # test 2; b (radius 0: only b) damage 9
    cast(state, battle, "m", "cast swirl 4,4 base")
    assert [e["target"] for e in events(battle, "attack")] == ["b"]
    assert state.vortices[0]["radius"] == 0 and state.vortices[0]["turns"] is None
    # In the Aftermath: direction 3 (E), 3 squares to (7,4): c hit, damage 9. Then the
    # Morale step: no triggers (B keeps a Hero), no dice.
    battle = make_battle(state, [3, 9])
    game.aftermath(state, battle)
    assert state.vortices[0]["square"] == [7, 4]
    assert [e["target"] for e in events(battle, "attack")] == ["c"]


@pytest.mark.rule("WB-SPECIAL-05")
@pytest.mark.rule("WB-AMB-38")
@pytest.mark.rule("WB-ATKSPELL-05")
def test_spells_strike_ethereal_enemies_swords_do_not() -> None:
    state = world([mage("m", (5, 5), spells=["grasp"]),
                   char("g", (5, 6), "B", wounds=2, traits=["ethereal"])])
    m, g = state.chars["m"], state.chars["g"]
    assert not combat.in_reach(state, m, g, m.weapons[0])
    battle = make_battle(state, [2, 4, 9])
    cast(state, battle, "m", "cast grasp g base")
    assert g.wounds == 1


# ------------------------------------------------------------------------ other effects


@pytest.mark.rule("WB-MAGIC-09")
@pytest.mark.rule("WB-MAGIC-11")
@pytest.mark.rule("WB-ASK-17")
def test_heal_on_two_allies_with_the_surge_effect() -> None:
    state = world([mage("m", (5, 5), spells=["mend"]), char("x", (6, 5), "A", wounds=3),
                   char("y", (5, 7), "A", wounds=3), char("b", (0, 11), "B")])
    state.chars["x"].wounds = 1
    state.chars["y"].wounds = 2
    battle = make_battle(state, [4], orders={"A": ["target y"]})
    cast(state, battle, "m", "cast mend x surge")
    assert (state.chars["x"].wounds, state.chars["y"].wounds) == (3, 3)
    assert kinds(battle, "spell_target") == ["target y"]


@pytest.mark.rule("WB-MOVE-05")
@pytest.mark.rule("WB-AMB-21")
def test_teleport_moves_the_caster_after_attacks_of_opportunity() -> None:
    state = world([mage("m", (5, 5), spells=["stride"], wounds=2),
                   char("b", (5, 6), "B", facing="S")])
    # test 3; b's opportunity: to hit 9 misses
    battle = make_battle(state, [3, 9], orders={"A": ["teleport 7 3", "face E"]})
    cast(state, battle, "m", "cast stride self base")
    m = state.chars["m"]
    assert (m.square, m.facing) == ((7, 3), "E")
    assert len(events(battle, "opportunity")) == 1


def test_the_movement_loop_takes_a_movement_spell() -> None:
    state = world([mage("m", (5, 5), spells=["stride"]), char("b", (0, 11), "B")])
    battle = make_battle(state, [3], orders={"A": ["cast stride self base", "teleport 3 3"]})
    game.movement_phase(state, battle)
    assert state.chars["m"].square == (3, 3) and state.chars["m"].moved


# ----------------------------------------------------------------------------------- Dispel


def duel(**options: Any) -> WarbandState:
    return world([mage("m", (5, 2), spells=["bolt", "fire bolt", "eye"], magic=6, attacks=2),
                  mage("e", (5, 9), "B", magic=7), mage("f", (6, 9), "B", magic=4),
                  char("b", (5, 8), "B", wounds=5), mage("ally", (4, 2), "A")],
                 options=options)


@pytest.mark.rule("WB-DISPEL-01")
@pytest.mark.rule("WB-DISPEL-02")
@pytest.mark.rule("WB-DISPEL-04")
@pytest.mark.rule("WB-DISPEL-05")
@pytest.mark.rule("WB-DISPEL-06")
@pytest.mark.rule("WB-ASK-18")
def test_a_dispel_tests_magic_less_the_activation_dos_and_stops_the_spell() -> None:
    state = duel()
    # activation 3 vs 6: DoS 3; e dispels: Magic 7 - 3 = 4, die 4 passes
    battle = make_battle(state, [3, 4], orders={"B": ["dispel e"]})
    cast(state, battle, "m", "cast bolt b base")
    assert [(s, str(o)) for s, k, o in battle.decided if k == "dispel"] == [("B", "dispel e")]
    rolls = events(battle, "roll")
    assert rolls[1]["target"] == 4
    assert events(battle, "dispel")[0]["passed"]
    assert events(battle, "attack") == []
    assert state.chars["m"].attacks_used == 1


@pytest.mark.rule("WB-DISPEL-06")
@pytest.mark.rule("WB-DISPEL-03")
def test_a_failed_dispel_lets_the_spell_through_and_there_is_no_second_try() -> None:
    state = duel()
    # activation 3: DoS 3; e: 5 vs 4 fails; only one attempt; damage 9 fails
    battle = make_battle(state, [3, 5, 9], orders={"B": ["dispel e", "dispel f"]})
    cast(state, battle, "m", "cast bolt b base")
    assert kinds(battle, "dispel") == ["dispel e"]
    assert len(events(battle, "attack")) == 1


@pytest.mark.rule("WB-DISPEL-07")
@pytest.mark.rule("WB-AMB-61")
def test_dispelling_a_tiring_spell_costs_the_dispeller_stress() -> None:
    state = duel()
    battle = make_battle(state, [3, 9, 9], orders={"B": ["dispel f"]})
    cast(state, battle, "m", "cast fire_bolt b base")
    assert (state.chars["f"].stress, state.chars["m"].stress) == (1, 1)


@pytest.mark.rule("WB-DISPEL-08")
def test_an_activation_die_of_one_cannot_be_dispelled() -> None:
    state = duel()
    battle = make_battle(state, [1, 9], orders={"B": ["dispel e"]})
    cast(state, battle, "m", "cast bolt b base")
    assert kinds(battle, "dispel") == []
    assert len(events(battle, "attack")) == 1


@pytest.mark.rule("WB-DISPEL-09")
def test_a_surge_spell_gives_one_more_penalty_to_the_dispel() -> None:
    state = duel()
    # Surge: target 5; die 3: DoS 2; e: 7 - 2 - 1 = 4
    battle = make_battle(state, [3, 4], orders={"B": ["dispel e"]})
    cast(state, battle, "m", "cast bolt b surge-plain")
    assert events(battle, "roll")[1]["target"] == 4
    assert events(battle, "dispel")[0]["passed"]


@pytest.mark.rule("WB-DISPEL-10")
@pytest.mark.rule("WB-AMB-64")
def test_one_dispel_per_mage_per_turn_and_a_surge_lock_does_not_stop_it() -> None:
    state = duel()
    state.chars["e"].surge_lock = (3, "melee")
    battle = make_battle(state, [3, 9, 9, 3, 9],
                         orders={"A": ["cast eye b base"], "B": ["dispel e"]})
    cast(state, battle, "m", "cast bolt b base")
    offered = [d for d in battle.decided if d[1] == "dispel"]
    assert len(offered) == 2  # f alone is offered the second time and declines
    assert state.chars["e"].dispelled_turn == 1
    assert magic.dispellers(state, state.chars["m"], "B") == [state.chars["f"]]
    state.turn = 2
    assert [c.id for c in magic.dispellers(state, state.chars["m"], "B")] == ["e", "f"]


@pytest.mark.rule("WB-AMB-64")
def test_who_may_dispel() -> None:
    state = duel()
    m = state.chars["m"]
    state.chars["f"].condition = STUNNED
    assert [c.id for c in magic.dispellers(state, m, "B")] == ["e"]
    state.chars["e"].routing = True
    assert magic.dispellers(state, m, "B") == []
    # allies never dispel: side A is never asked
    state = duel()
    battle = make_battle(state, [3, 9])
    cast(state, battle, "m", "cast bolt b base")
    assert [s for s, k, _ in battle.decided if k == "dispel"] == ["B"]
    # the sight option
    state = duel(dispel_requires_los=True)
    state.grid.set_terrain((5, 5), "blocking")
    state.grid.set_terrain((6, 5), "blocking")
    assert magic.dispellers(state, state.chars["m"], "B") == []




@pytest.mark.parametrize("event", MAGIC_EVENTS, ids=lambda e: str(e["type"]))
def test_every_magic_event_has_a_clean_wording(event: dict[str, Any]) -> None:
    from warhost.rulesets.warband.view import describe_event

    text = describe_event(dict(event))
    assert text and not re.search(r"\bNone\b|\bTrue\b|\bFalse\b|[{}]|\b\w+=\S", text), text


@pytest.mark.rule("WB-ASK-18")
@pytest.mark.rule("WB-AMB-64")
def test_the_dispel_decision_lists_each_eligible_mage_and_no_dispel() -> None:
    state = duel()
    battle = make_battle(state, [3, 9])
    asked: list[tuple[str, str, tuple[str, ...], str | None]] = []
    real_ask = battle.ask

    def spy(side: str, kind: str, options: tuple[Order, ...], *args: Any,
            **kwargs: Any) -> Order:
        asked.append((side, kind, tuple(map(str, options)), str(kwargs.get("default"))))
        return real_ask(side, kind, options, *args, **kwargs)

    battle.ask = spy  # type: ignore[method-assign]
    cast(state, battle, "m", "cast bolt b base")
    assert [a for a in asked if a[1] == "dispel"] == [
        ("B", "dispel", ("no-dispel", "dispel e", "dispel f"), "no-dispel")]
    assert events(battle, "dispel") == [] and len(events(battle, "attack")) == 1
