"""Battering ram units of dnd35-wars (W35-RAM, W35-AMB-75, W35-DEC-26): the crew, the strike
without an attack roll, moving or ramming only, no Dexterity bonus, and forming a ram in
play from the most forward unit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    creature,
    get,
    make_battle,
    make_state,
    scenario_data,
    unit,
)
from warhost.core.decisions import Refusal
from warhost.core.errors import ScenarioError
from warhost.core.orders import Order
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd35_wars import actions, game, ram, tables, view
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario
from warhost.rulesets.dnd35_wars.setup import initial_state
from warhost.rulesets.dnd35_wars.state import WarState

WALL = {"id": "wall", "rect": [[0, 10], [19, 10]], "type": "light_stone", "hp": 60,
        "hardness": 8, "barrier": True, "held_by": "A"}


def brute(**fields: Any) -> dict[str, Any]:
    """A Medium soldier with Str 16 (+3) and Dex 14 (+2), AC 15."""
    stats: dict[str, Any] = {"str": 16, "dex": 14}
    stats.update(fields)
    return creature("soldier", **stats)


def ram_unit(uid: str = "r", at: tuple[int, int] = (5, 9), count: int = 8,
             **fields: Any) -> dict[str, Any]:
    return unit(uid, "B", [at], count=count, creature=fields.pop("creature", None) or brute(),
                ram=True, **fields)


def defender() -> dict[str, Any]:
    return unit("d", "A", [(15, 14)], count=9)


def state_with(units: list[dict[str, Any]], rams: int = 0) -> WarState:
    data = scenario_data(units, width=20, height=20, structures=[WALL])
    data["sides"][1]["rams"] = rams
    state = initial_state(Dnd35WarsScenario.model_validate(data))
    state.round = 1
    state.order = [u["id"] for u in units]
    state.initiative = {u["id"]: 20 - i for i, u in enumerate(units)}
    return state


def judge(state: WarState, uid: str, text: str) -> Order | Refusal | None:
    return actions.judge(state, get(state, uid))(Order.parse(text))


@pytest.mark.rule("W35-RAM-02")
@pytest.mark.parametrize("size, crew", [("small", 16), ("medium", 8), ("large", 4),
                                        ("huge", 2), ("colossal", 2)])
def test_a_ram_unit_has_exactly_the_crew_its_size_needs(size: str, crew: int) -> None:
    assert tables.ram_crew(size) == crew

    def build(count: int) -> dict[str, Any]:
        scale = 200 if size in ("huge", "colossal") else 15
        squares = [(5 + i, 9) for i in range(ram.ram_counters(count, size, scale))]
        return scenario_data([unit("r", "B", squares, count=count, creature=brute(size=size),
                                   ram=True), defender()], scale=scale)

    assert scenario_from_data(build(crew)).model.sides[1].units[0].ram
    with pytest.raises(ScenarioError, match=f"exactly the {crew} its ram needs"):
        scenario_from_data(build(crew + 1))


@pytest.mark.rule("W35-RAM-02")
def test_tiny_creatures_cannot_swing_a_ram() -> None:
    data = scenario_data([ram_unit(count=16, creature=brute(size="tiny")), defender()])
    with pytest.raises(ScenarioError, match="cannot swing a battering ram"):
        scenario_from_data(data)


@pytest.mark.rule("W35-RAM-03", "W35-RAM-04", "W35-AMB-45")
def test_the_ram_needs_no_roll_and_deals_14_plus_the_strength_modifiers_less_hardness() -> None:
    state = make_state([ram_unit(), defender()], width=20, height=20, structures=[WALL])
    r = get(state, "r")
    assert ram.ram_damage(r) == 14 + 8 * 3
    battle = make_battle(state, dice=[], orders={"B": ["ram r wall", "ram r wall"]})
    actions.unit_action(state, battle, r)  # no dice scripted: none may be rolled
    assert events(battle, "ram_strike")[0]["damage"] == 38
    assert state.structure_hp["wall"] == 60 - (38 - 8)
    state.round = 2
    actions.unit_action(state, battle, r)
    assert state.structure_hp["wall"] == 0 and events(battle, "breached")


@pytest.mark.rule("W35-RAM-04")
def test_weak_swingers_take_their_strength_penalties_off_the_14() -> None:
    state = make_state([ram_unit(creature=brute(str=8)), defender()], width=20, height=20,
                       structures=[WALL])
    assert ram.ram_damage(get(state, "r")) == 14 - 8


@pytest.mark.rule("W35-RAM-07", "W35-RAM-03")
def test_a_ram_unit_only_moves_or_rams_an_adjacent_section() -> None:
    state = make_state([ram_unit(creature=brute(ranged=[{"bonus": 2, "damage": "1d6",
                                                          "range_increment": 30}])),
                        unit("d", "A", [(5, 13)], count=9)],
                       width=20, height=20, structures=[WALL])
    r = get(state, "r")
    assert {o.kind for o in actions.legal_actions(state, r)} == {"hold", "move", "ram"}
    shot = judge(state, "r", "shoot r d")
    assert isinstance(shot, Refusal) and shot.rule == "W35-RAM-07"
    state.place(r, {(5, 7)})
    far = judge(state, "r", "ram r wall")
    assert isinstance(far, Refusal) and far.rule == "W35-RAM-03"
    assert "ram" not in {o.kind for o in actions.legal_actions(state, r)}


@pytest.mark.rule("W35-RAM-08")
def test_a_ram_unit_loses_its_dexterity_bonus_to_ac_but_keeps_a_penalty() -> None:
    state = make_state([ram_unit(), ram_unit("slow", at=(8, 9), creature=brute(dex=8)),
                        unit("plain", "B", [(12, 5)], count=9, creature=brute()), defender()],
                       width=20, height=20, structures=[WALL])
    assert get(state, "r").ac == get(state, "plain").ac - 2
    assert get(state, "r").touch_ac == get(state, "plain").touch_ac - 2
    assert get(state, "slow").ac == get(state, "plain").ac


@pytest.mark.rule("W35-RAM-01", "W35-RAM-05")
def test_the_ram_table_values_and_a_ram_unit_starts_where_the_scenario_puts_it() -> None:
    assert (tables.RAM_LENGTH_FT, tables.RAM_COST_GP) == (20, 1_000)
    state = make_state([ram_unit(at=(5, 1)), defender()], width=20, height=20,
                       structures=[WALL])
    assert get(state, "r").squares == {(5, 1)} and get(state, "r").machine == "ram"


@pytest.mark.rule("W35-RAM-06", "W35-AMB-75", "W35-DEC-26")
def test_a_ram_is_formed_from_the_unit_nearest_the_wall_as_its_action() -> None:
    state = state_with([unit("near", "B", [(5, 7), (6, 7)], count=18, creature=brute()),
                        unit("far", "B", [(5, 2)], count=9, creature=brute()), defender()],
                       rams=1)
    near = get(state, "near")
    assert near.counters == 2 and near.hp == 20 and near.counter_hp == 10
    assert "form_ram" not in {o.kind for o in actions.legal_actions(state, get(state, "far"))}
    refused = judge(state, "far", "form_ram far")
    assert isinstance(refused, Refusal) and refused.rule == "W35-AMB-75"
    battle = make_battle(state, orders={"B": ["form_ram near"]})
    actions.unit_action(state, battle, near)
    r = get(state, "near-ram")
    # 8 Medium creatures: 1 counter at 15 ft, HP = typical HP x counters
    assert r.creatures == 8 and r.counters == 1 and r.hp == r.start_hp == 10
    assert r.machine == "ram" and r.squares == {(5, 8)}
    # the donor loses ceil(8 / 9 x 10) = 9 HP and 8 creatures
    assert near.hp == 11 and near.creatures == 10 and near.counters == 2
    assert state.rams_left["B"] == 0 and state.initiative["near-ram"] == 19
    assert state.order == ["near", "far", "near-ram", "d"]  # after all at 19 (W35-AMB-64)
    assert "form_ram" not in {o.kind for o in actions.legal_actions(state, near)}
    assert events(battle, "ram_formed")[0]["donor_hp"] == 9
    assert game.check_invariants(state, []) == []


@pytest.mark.rule("W35-AMB-75", "W35-RAM-02")
def test_a_donor_too_small_for_a_crew_cannot_form_a_ram() -> None:
    state = state_with([unit("near", "B", [(5, 7)], count=8, creature=brute()), defender()],
                       rams=1)
    refused = judge(state, "near", "form_ram near")
    assert isinstance(refused, Refusal) and refused.rule == "W35-RAM-02"


@pytest.mark.rule("W35-DEC-26")
def test_the_ai_values_a_strike_by_the_structure_hp_it_takes() -> None:
    state = make_state([ram_unit(), defender()], width=20, height=20, structures=[WALL])
    assert ram.ai_value(state, get(state, "r"), Order.parse("ram r wall")) == 30.0


def test_the_map_key_names_a_ram_unit() -> None:
    state = make_state([ram_unit(), defender()], width=20, height=20, structures=[WALL])
    entry = next(e for e in view.map_view(state)["units"] if e["id"] == "r")
    assert "battering ram" in entry["kind"]
