"""Reinforcements entering from their edge (W35-PLACE-08, W35-AMB-95) and the recovery of lost
unit HP after the battle (W35-RECOV-01..08, W35-AMB-60, W35-AMB-99)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

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
from warhost.core.engine import run_battle
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd35_wars.arrivals import after_battle, reinforcements
from warhost.rulesets.dnd35_wars.state import WarState

A = block(0, 0, 5, 2)
B = block(0, 20, 5, 2)


def late(uid: str = "late", side: str = "A", edge: str = "south", when: int = 2,
         **fields: Any) -> dict[str, Any]:
    """A reinforcement of 4 counters with no position of its own."""
    entry = unit(uid, side, count=40, enters_round=when, enters_edge=edge, **fields)
    del entry["counters"]
    return entry


# ---- reinforcements


def ready(state: WarState, **initiative: int) -> WarState:
    """The state as setup leaves it: only units on the map in the order, with their counts."""
    state.order = [aid for aid in state.order if aid not in state.arrivals]
    state.initiative = {aid: initiative.get(aid, 10 - k) for k, aid in enumerate(state.order)}
    return state


@pytest.mark.rule("W35-AMB-95", "W35-PLACE-08")
def test_a_reinforcement_waits_off_the_map_until_its_round() -> None:
    state = ready(make_state([unit("a", squares=A), unit("b", "B", squares=B),
                              late(columns=2)], width=20))
    battle = make_battle(state, dice=[18])
    assert get(state, "late").squares == set() and "late" not in state.order
    reinforcements(state, battle)  # round 1
    assert get(state, "late").squares == set() and events(battle, "reinforcement") == []
    state.round = 2
    reinforcements(state, battle)
    # a 2x2 block in the middle of the south edge, facing into the map
    assert get(state, "late").squares == {(10, 0), (11, 0), (10, 1), (11, 1)}
    assert get(state, "late").heading == (0, 1)
    assert all(state.at[sq] == "late" for sq in get(state, "late").squares)
    (arrived,) = events(battle, "reinforcement")
    assert (arrived["unit"], arrived["edge"], arrived["counters"]) == ("late", "south", 4)


@pytest.mark.rule("W35-AMB-95", "W35-ROUND-03")
def test_a_reinforcement_rolls_initiative_and_joins_the_order_this_round() -> None:
    state = ready(make_state([unit("a", squares=A), unit("b", "B", squares=B),
                              late(edge="north", side="B")], width=20), a=15, b=8)
    state.round = 2
    battle = make_battle(state, dice=[11])  # 11 + 0
    reinforcements(state, battle)
    assert state.order == ["a", "late", "b"] and state.initiative["late"] == 11
    assert max(y for _, y in get(state, "late").squares) == state.height - 1


@pytest.mark.rule("W35-AMB-95")
def test_a_placed_reinforcement_slides_along_its_edge_to_the_nearest_free_spot() -> None:
    wanted = unit("late", squares=[(3, 5), (3, 6)], count=20, enters_round=2,
                  enters_edge="west")
    blocker = unit("wall", squares=[(0, 5), (0, 6), (0, 7)], count=30)
    state = ready(make_state([unit("a", squares=block(10, 0, 2, 1)), blocker, wanted,
                              unit("b", "B", squares=B)], width=30, height=30))
    state.round = 3
    battle = make_battle(state, dice=[9])
    reinforcements(state, battle)
    # moved to x 0; rows 5-7 are held there, so two rows south is the smallest shift that fits
    assert get(state, "late").squares == {(0, 3), (0, 4)}


@pytest.mark.rule("W35-AMB-95")
def test_with_no_room_on_the_edge_a_reinforcement_waits_a_round() -> None:
    wall = unit("wall", squares=block(0, 0, 10, 1), count=100)
    state = ready(make_state([wall, unit("b", "B", squares=B), late(columns=4)], width=10))
    state.round = 2
    battle = make_battle(state, dice=[5])
    reinforcements(state, battle)
    assert events(battle, "reinforcement_delayed")[0]["unit"] == "late"
    assert get(state, "late").squares == set() and "late" in state.arrivals
    assert get(state, "late").enters_round == 3  # counted as still to come (game.able)
    state.lift(get(state, "wall"))
    state.round = 3
    reinforcements(state, battle)
    assert len(get(state, "late").squares) == 4 and "late" not in state.arrivals


@pytest.mark.rule("W35-AMB-95", "W35-PLACE-13")
def test_npcs_arrive_inside_their_reinforcement() -> None:
    state = ready(make_state([unit("a", squares=A), unit("b", "B", squares=B), late()],
                             singles=[single("cap", unit="late")], width=20))
    state.round = 2
    reinforcements(state, make_battle(state, dice=[7]))
    assert state.singles["cap"].host == "late" and get(state, "late").on_map


# ---- recovery


def battle_over(units: list[dict[str, Any]], *, winner: str | None, melee: bool,
                **kwargs: Any) -> WarState:
    state = make_state(units, **kwargs)
    state.over, state.winner, state.melee_happened = True, winner, melee
    return state


def recovered(state: WarState) -> dict[str, tuple[int, int, int, int]]:
    """unit -> (lost, percent, recovered, counters) from the recovery events."""
    battle = make_battle(state)
    after_battle(state, battle)
    return {e["unit"]: (e["lost"], e["percent"], e["recovered"], e["counters"])
            for e in events(battle, "recovery")}


@pytest.mark.rule("W35-RECOV-02", "W35-AMB-60", "W35-RECOV-01", "W35-UNIT-13")
def test_after_a_ranged_only_battle_every_unit_recovers_half() -> None:
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="A",
                        melee=False)
    get(state, "a").hp, get(state, "b").hp = 75, 21
    assert recovered(state) == {"a": (25, 50, 12, 9), "b": (79, 50, 39, 6)}
    assert state.recovered == {"a": 87, "b": 60}


@pytest.mark.rule("W35-RECOV-03", "W35-RECOV-04", "W35-RECOV-08")
def test_after_melee_winners_recover_half_and_losers_a_quarter() -> None:
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="B",
                        melee=True)
    get(state, "a").hp, get(state, "b").hp = 33, 90
    assert recovered(state) == {"a": (67, 25, 16, 5), "b": (10, 50, 5, 10)}


@pytest.mark.rule("W35-AMB-99", "W35-RECOV-04")
def test_a_drawn_battle_recovers_both_sides_as_losers() -> None:
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner=None,
                        melee=True)
    get(state, "a").hp, get(state, "b").hp = 60, 60
    assert {u: r[1] for u, r in recovered(state).items()} == {"a": 25, "b": 25}


@pytest.mark.rule("W35-RECOV-05", "W35-RECOV-06", "W35-AMB-60")
def test_clerics_and_healers_in_the_unit_add_to_its_recovery() -> None:
    cleric = single("priest", unit="a", creature=creature("priest", cleric_level=3))
    medic = single("medic", unit="a", creature=creature("medic", heal_ranks=4))
    novice = single("novice", unit="a", creature=creature("novice", heal_ranks=3))
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="A",
                        melee=True, singles=[cleric, medic, novice])
    get(state, "a").hp, get(state, "b").hp = 0 + 50, 50
    result = recovered(state)
    assert result["a"][1] == 50 + 6 + 1 and result["b"][1] == 25
    state.singles["priest"].hp = 0  # the dead heal nobody
    assert recovered(state)["a"][1] == 51


@pytest.mark.rule("W35-RECOV-05", "W35-RECOV-06")
def test_cleric_and_heal_bonuses_are_capped_at_ten_each() -> None:
    clerics = [single(f"c{k}", unit="a", creature=creature("cleric", cleric_level=4))
               for k in range(2)]  # 2 x 4 x 2% = 16%: capped at 10
    healers = [single(f"h{k}", kind="pc", unit="a", creature=creature("healer", heal_ranks=8))
               for k in range(12)]  # 12%: capped at 10
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="A",
                        melee=False, singles=[*clerics, *healers])
    get(state, "a").hp = 20
    assert recovered(state)["a"][1] == 50 + 10 + 10
    few = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="A",
                      melee=False, singles=[clerics[0], *healers[:3]])
    get(few, "a").hp = 20
    assert recovered(few)["a"][1] == 50 + 8 + 3


@pytest.mark.rule("W35-AMB-60")
def test_with_army_scope_healers_anywhere_on_the_side_count() -> None:
    cleric = single("priest", unit="a2", creature=creature("priest", cleric_level=2))
    units = [unit("a", squares=A), unit("a2", squares=block(6, 0, 2, 1)),
             unit("b", "B", squares=B)]
    unit_scope = battle_over(units, winner="A", melee=True, singles=[cleric])
    get(unit_scope, "a").hp = 50
    assert recovered(unit_scope)["a"][1] == 50
    army = battle_over(units, winner="A", melee=True, singles=[cleric],
                       options={"recovery_healer_scope": "army"})
    get(army, "a").hp = 50
    assert recovered(army)["a"][1] == 54


@pytest.mark.rule("W35-RECOV-07", "W35-AMB-60")
@pytest.mark.parametrize("status", ["routed", "fled", "scattered"])
def test_a_unit_that_withdrew_loses_20_percent(status: str) -> None:
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="B",
                        melee=True)
    get(state, "a").hp, get(state, "a").status = 60, status
    get(state, "b").hp = 90
    assert recovered(state)["a"][1:3] == (5, 2)
    get(state, "b").status = "routed"
    assert recovered(state)["b"][1] == 50 - 20  # victory does not undo a rout


@pytest.mark.rule("W35-AMB-60")
def test_recovery_never_goes_below_zero_and_vanquished_units_recover_too() -> None:
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B)], winner="B",
                        melee=True)
    a = get(state, "a")
    a.hp, a.status = 0, "vanquished"
    state.lift(a)
    a.squares = set()
    get(state, "b").status = "scattered"
    get(state, "b").hp = 90
    state.winner = None
    result = recovered(state)
    assert result["a"] == (100, 25, 25, 3)
    assert result["b"] == (10, 5, 0, 9)


@pytest.mark.rule("W35-AMB-60")
def test_units_that_lost_nothing_or_never_arrived_get_no_recovery_event() -> None:
    entry = unit("late", count=20, enters_round=5, enters_edge="west")
    del entry["counters"]
    state = battle_over([unit("a", squares=A), unit("b", "B", squares=B), entry],
                        winner="A", melee=True)
    get(state, "b").hp = 99
    assert set(recovered(state)) == {"b"}


# ---- a whole battle


EXAMPLE = Path(__file__).resolve().parent / "data" / "fighters-and-orcs.yaml"


@pytest.mark.rule("W35-AMB-95", "W35-PLACE-04", "W35-RECOV-08")
def test_a_battle_places_brings_in_reinforcements_and_ends_with_recovery() -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    wolves = {"id": "wolves", "count": 30, "enters_round": 2, "enters_edge": "north",
              "columns": 3, "creature": creature("wolf", speed=50, cha=6, int=2)}
    data["sides"][1]["units"].append(wolves)
    data["options"] = {"round_limit": 3}
    result = run_battle(scenario_from_data(data), seed=5)
    log = [dict(e) for e in result.log]
    kinds = [e["type"] for e in log]
    assert kinds.index("placement") < kinds.index("initiative")
    second = kinds.index("round_start", kinds.index("round_start") + 1)
    arrival = kinds.index("reinforcement")
    assert log[arrival] == {**log[arrival], "unit": "wolves", "edge": "north", "counters": 3}
    assert second < arrival < kinds.index("round_start", second + 1)
    assert any(e["type"] == "initiative" and e["who"] == "wolves" for e in log[arrival:])
    assert any(e["type"] == "turn" and e["unit"] == "wolves" and e["round"] == 2 for e in log)
    over = kinds.index("battle_over")
    recoveries = [e for e in log[over:] if e["type"] == "recovery"]
    assert recoveries and all(e["recovered"] == e["lost"] * e["percent"] // 100 for e in recoveries)
