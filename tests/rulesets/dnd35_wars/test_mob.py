"""Mobs and morale in dnd35-wars (W35-MOB-01, W35-MOB-07..11, W35-AMB-22/23)."""

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
from warhost.rulesets.dnd35_wars import morale
from warhost.rulesets.dnd35_wars.game import unit_turn
from warhost.rulesets.dnd35_wars.state import WarState

VILLAGER = creature("villager", cha=14, alignment="lawful good", **{"class": "fighter"})
HYENA = creature("hyena", type="animal", int=2, cha=6)


def mob_state(member: dict[str, Any] = VILLAGER, **kwargs: Any) -> WarState:
    return make_state([unit("m", squares=block(5, 5, 3, 2), creature=member, mob=True,
                            **kwargs.pop("spec", {})),
                       unit("b", "B", squares=[(5, 10)])], **kwargs)


def hurt(state: WarState, battle: Any, lost: int, kind: str = "ranged") -> None:
    m = get(state, "m")
    m.hp -= lost
    morale.note_damage(state, battle, m, lost, kind=kind, attacker=get(state, "b"))


@pytest.mark.rule("W35-MOB-01")
def test_a_mob_is_one_unit_that_moves_as_one() -> None:
    state = mob_state()
    m = get(state, "m")
    assert m.mob and m.counters == 6
    battle = make_battle(state, orders={"A": ["move m 0,1"]})
    unit_turn(state, battle, m)
    assert m.squares == {(x, y + 1) for x, y in block(5, 5, 3, 2)}


@pytest.mark.rule("W35-MOB-07", "W35-MORALE-14")
def test_a_mob_checks_morale_like_any_unit() -> None:
    state = mob_state()
    m = get(state, "m")
    battle = make_battle(state, dice=[4])
    hurt(state, battle, 31)  # 60 -> 29 HP: below half
    assert {"first_damage", "half_hp", "mob_damage"} <= m.pending
    assert morale.morale_step(state, battle, m) is False
    assert events(battle, "morale_check")[0]["dc"] == 15 and m.routed


@pytest.mark.rule("W35-MOB-08", "W35-AMB-22")
def test_a_mob_gets_no_bonus_but_keeps_every_penalty() -> None:
    state = mob_state(spec={"enslaved": True, "training_months": 12, "battles": 3},
                      singles=[single("hero", "A", "pc", unit="m", role="leader",
                                      leadership=True)])
    m = get(state, "m")
    assert m.morale == 0  # Cha +2, fighters, lawful, training and battles all count 0
    battle = make_battle(state, dice=[10, 10])
    morale.add_morale_effect(m, "bless", 1)
    morale.pc_action(state, battle, state.singles["hero"], "slew_leader")
    morale.check(state, battle, m, 10, "mob_damage")
    morale.add_morale_effect(m, "doom", -2)
    morale.pc_action(state, battle, state.singles["hero"], "fled_or_down")
    morale.check(state, battle, m, 10, "mob_damage")
    assert [e["total"] for e in events(battle, "morale_check")] == [10 - 4, 10 - 4 - 2 - 4]


@pytest.mark.rule("W35-AMB-22")
def test_a_mob_with_a_morale_override_still_gets_no_bonus() -> None:
    state = mob_state(spec={"morale_override": 3})
    battle = make_battle(state, dice=[9])
    assert morale.check(state, battle, get(state, "m"), 10, "mob_damage") is False


@pytest.mark.rule("W35-MOB-09", "W35-AMB-16")
def test_a_mob_that_fails_its_charge_check_balks_without_routing() -> None:
    state = mob_state()
    m = get(state, "m")
    battle = make_battle(state, dice=[9, 10])
    assert morale.mob_charge_check(state, battle, m) is False
    assert m.status == "fighting" and [e["unit"] for e in events(battle, "mob_balks")] == ["m"]
    assert morale.mob_charge_check(state, battle, m) is True
    assert [(e["dc"], e["why"]) for e in events(battle, "morale_check")] == [
        (10, "mob_charge"), (10, "mob_charge")]


@pytest.mark.rule("W35-MOB-09")
def test_units_that_are_not_mobs_never_roll_before_a_charge() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 9)])])
    assert morale.mob_charge_check(state, make_battle(state), get(state, "a")) is True


@pytest.mark.rule("W35-MOB-10", "W35-AMB-92")
def test_a_mob_checks_at_dc_10_in_every_round_it_takes_damage() -> None:
    state = mob_state()
    m = get(state, "m")
    m.used_triggers.add("first_damage")
    battle = make_battle(state, dice=[10, 9])
    hurt(state, battle, 0)  # nothing lost: no check
    assert m.pending == set()
    hurt(state, battle, 2)
    hurt(state, battle, 3)
    assert morale.morale_step(state, battle, m) is True
    hurt(state, battle, 2)
    assert morale.morale_step(state, battle, m) is False
    assert [(e["dc"], e["why"]) for e in events(battle, "morale_check")] == [
        (10, "mob_damage"), (10, "mob_damage")]


@pytest.mark.rule("W35-MOB-11")
def test_a_routed_mob_never_rallies_nor_scatters() -> None:
    state = mob_state()
    m = get(state, "m")
    battle = make_battle(state)  # no dice: a rally roll would fail the test
    morale.rout(state, battle, m, "mob_damage")
    for _ in range(4):
        assert morale.morale_step(state, battle, m) is False
    assert m.routed and events(battle, "morale_check") == []


@pytest.mark.rule("W35-AMB-23", "W35-STAT-05")
def test_a_mob_of_animals_never_checks_nor_refuses_a_charge() -> None:
    state = mob_state(HYENA)
    m = get(state, "m")
    battle = make_battle(state)
    hurt(state, battle, 40)
    assert m.pending == set()
    assert morale.mob_charge_check(state, battle, m) is True
    assert morale.morale_step(state, battle, m) is True


@pytest.mark.rule("W35-AMB-23")
def test_by_option_a_mob_of_animals_checks_after_all() -> None:
    state = mob_state(HYENA, options={"mob_morale_overrides_immunity": True})
    m = get(state, "m")
    battle = make_battle(state, dice=[12, 3])
    assert morale.mob_charge_check(state, battle, m) is True  # 12 - 2 for Cha 6
    assert morale.mob_charge_check(state, battle, m) is False
