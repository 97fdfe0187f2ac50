"""Collateral damage to singular creatures embedded in a unit that another unit damages
(W35-COLL-01..06, W35-AMB-33, W35-DEC-31, W35-DEFEND-16)."""

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
from warhost.rulesets.dnd35_wars import damage
from warhost.rulesets.dnd35_wars.state import WarState


def _melee(front: bool) -> WarState:
    state = make_state([unit("a", squares=block(0, 2, 3, 1)),
                        unit("b", "B", squares=block(0, 0, 3, 2), count=60)],
                       singles=[single("cap", "B", unit="b")])
    who(state, "cap").front_line = front
    return state


@pytest.mark.rule("W35-COLL-01", "W35-COLL-03", "W35-DMG-09", "W35-DEC-31")
def test_a_front_line_creature_is_attacked_as_if_directly() -> None:
    state = _melee(front=True)
    battle = make_battle(state, dice=[15, 5])  # 15 + 4 = 19 vs AC 18; (5 + 2) x 3
    damage.melee_collateral(state, battle, get(state, "a"), get(state, "b"))
    attack = events(battle, "attack")[0]
    assert (attack["target"], attack["attackers"], attack["total"]) == ("cap", 3, 19)
    assert who(state, "cap").hp == 40 - 21
    assert events(battle, "collateral")[0]["kind"] == "melee"


@pytest.mark.rule("W35-COLL-02", "W35-DEC-31")
def test_a_creature_staying_back_takes_no_melee_collateral() -> None:
    state = _melee(front=False)
    battle = make_battle(state, dice=[15, 5])
    damage.melee_collateral(state, battle, get(state, "a"), get(state, "b"))
    assert who(state, "cap").hp == 40 and events(battle, "attack") == []


@pytest.mark.rule("W35-DEFEND-16", "W35-AMB-29")
def test_a_phalanx_shields_its_creatures_from_collateral() -> None:
    state = _melee(front=True)
    get(state, "b").phalanx = True
    battle = make_battle(state, dice=[15, 5, 3])
    damage.melee_collateral(state, battle, get(state, "a"), get(state, "b"))
    damage.ranged_collateral(state, battle, get(state, "a"), get(state, "b"), 9, 6)
    assert who(state, "cap").hp == 40 and events(battle, "collateral") == []


def _volley(total_defense: bool = False) -> WarState:
    archer = creature("archer", ranged=[{"bonus": 5, "damage": "1d8", "range_increment": 100}])
    npc = creature("captain", hp=30, ac=17, ref=1, dr=2)
    state = make_state([unit("a", squares=block(0, 8, 3, 1), creature=archer),
                        unit("b", "B", squares=block(0, 0, 2, 1), count=20)],
                       singles=[single("cap", "B", unit="b", creature=npc)])
    who(state, "cap").total_defense = total_defense
    return state


@pytest.mark.rule("W35-COLL-04", "W35-AMB-33")
def test_missiles_reach_embedded_creatures_only_when_every_counter_is_hit() -> None:
    state = _volley()
    battle = make_battle(state, dice=[5])
    damage.ranged_collateral(state, battle, get(state, "a"), get(state, "b"), 9, 1)
    assert who(state, "cap").hp == 30 and events(battle, "collateral") == []
    damage.ranged_collateral(state, battle, get(state, "a"), get(state, "b"), 9, 2,
                             counters=3)  # it had 3 counters when the volley struck
    assert who(state, "cap").hp == 30
    damage.ranged_collateral(state, battle, get(state, "a"), get(state, "b"), 9, 2)
    assert who(state, "cap").hp == 30 - (9 - 2)  # one roll, after DR, unmultiplied


@pytest.mark.rule("W35-COLL-05", "W35-AMB-33", "W35-GEN-01")
def test_a_reflex_save_halves_collateral_rounding_down() -> None:
    state = _volley()
    battle = make_battle(state, dice=[9])  # 9 + 1 = 10 vs DC 10
    damage.ranged_collateral(state, battle, get(state, "a"), get(state, "b"), 11, 2)
    assert who(state, "cap").hp == 30 - 4  # (11 - 2) / 2 rounded down
    assert events(battle, "collateral")[0]["save"] is True


@pytest.mark.rule("W35-COLL-06")
def test_after_total_defense_collateral_is_half_or_none() -> None:
    failed = _volley(total_defense=True)
    battle = make_battle(failed, dice=[1])
    damage.ranged_collateral(failed, battle, get(failed, "a"), get(failed, "b"), 11, 2)
    assert who(failed, "cap").hp == 30 - (11 - 2) // 2
    saved = _volley(total_defense=True)
    battle = make_battle(saved, dice=[15])
    damage.ranged_collateral(saved, battle, get(saved, "a"), get(saved, "b"), 11, 2)
    assert who(saved, "cap").hp == 30


@pytest.mark.rule("W35-COLL-04", "W35-AMB-33")
def test_the_counters_counted_are_those_standing_when_the_volley_struck() -> None:
    state = _volley()
    b = get(state, "b")
    b.hp = 11  # the volley's 9 x 1 takes it to one counter
    battle = make_battle(state, dice=[5])
    damage.hit_unit(state, battle, b, 9, 1, source="a", kind="ranged")
    assert b.counters == 1
    damage.ranged_collateral(state, battle, get(state, "a"), b, 9, 1)
    assert who(state, "cap").hp == 30 and events(battle, "collateral") == []
