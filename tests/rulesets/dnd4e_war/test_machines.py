"""War machines (W4-WM, W4-BOLT, W4-STONE, W4-AMB-59 to 66, W4-DEC-19)."""

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
from warhost.core.errors import WarhostError
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.geometry.table import distance, offset, point_word
from warhost.rulesets.dnd4e_war import charge, machines, movement, shooting
from warhost.rulesets.dnd4e_war.state import WarState

BOLT = {"kind": "bolt_thrower", "range": 36, "bonus": 10, "damage": "2d8+4"}
STONE = {"kind": "stone_thrower", "range": 48, "bonus": 8, "vs": "reflex",
         "damage": "2d6+4", "burst": 1}
GOBLIN_DEFENSES = {"ac": 16, "fortitude": 13, "reflex": 13, "will": 11}


def crew(machine: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """Elf crew (Speed 7, minions) working ``machine`` (a bolt thrower by default)."""
    entry: dict[str, Any] = {"race": "elf", "formation": "skirmish", "speed": 7,
                             "unit_size": [1, 5], "machine": dict(machine or BOLT)}
    entry.update(fields)
    return profile("Elf crew", **entry)


def engine(uid: str = "bolt", at: tuple[float, float] = (36.0, 4.0), models: int = 2,
           machine: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A crew of ``models`` facing north at ``at`` with its machine in front."""
    prof = fields.pop("profile", None) or crew(machine)
    return unit(uid, "A", at=at, facing=0, companies=models, profile=prof, **fields)


def goblins(at: tuple[float, float] = (36.0, 30.0), companies: int = 2,
            **fields: Any) -> dict[str, Any]:
    """Goblin warriors (Reflex 13), minions, companies of 4 x 2, facing south."""
    prof = profile("Goblin warriors", race="goblin", defenses=dict(GOBLIN_DEFENSES))
    return unit("gobs", "B", at=at, facing=180, companies=companies,
                profile=fields.pop("profile", prof), **fields)


# ----------------------------------------------------------------- the worked examples

@pytest.mark.rule("W4-BOLT-07")
@pytest.mark.rule("W4-BOLT-04")
@pytest.mark.rule("W4-BOLT-05")
@pytest.mark.rule("W4-BOLT-03")
@pytest.mark.rule("W4-BOLT-02")
def test_bolt_worked_example_against_goblins() -> None:
    """+10 vs Reflex 13 hits on 8+, then +8 needs 8 (the floor), +6 needs 8... each attack
    at a further -2 until a miss: 8, 9, 10, 12 hit, then 11 at +2 (needs 11) hits, then
    12 at +0 (needs 13) misses."""
    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[8, 9, 10, 12, 11, 12])
    bolt, gobs = get(state, "bolt"), get(state, "gobs")
    hits = machines.fire_bolt(state, battle, bolt, gobs)
    fire = events(battle, "machine_fire")[0]
    assert [r["bonus"] for r in fire["rolls"]] == [10, 8, 6, 4, 2, 0]
    assert [r["needed"] for r in fire["rolls"]] == [8, 8, 8, 9, 11, 13]
    assert hits == 5
    assert gobs.models == 32 - 5


@pytest.mark.rule("W4-BOLT-05")
@pytest.mark.rule("W4-AMB-62")
def test_bolt_stops_at_six_hits_in_total() -> None:
    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[20, 20, 20, 20, 20, 20, 20])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert hits == 6
    assert len(events(battle, "machine_fire")[0]["rolls"]) == 6


@pytest.mark.rule("W4-BOLT-05")
def test_bolt_sequence_ends_at_the_first_miss() -> None:
    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[15, 3])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert hits == 1
    assert [r["face"] for r in events(battle, "machine_fire")[0]["rolls"]] == [15, 3]


@pytest.mark.rule("W4-BOLT-06")
def test_no_secondary_attack_against_skirmishers() -> None:
    skirm = profile("Goblin skulks", race="goblin", formation="skirmish",
                    defenses=dict(GOBLIN_DEFENSES))
    state = make_state([engine(), goblins(companies=6, profile=skirm)])
    battle = make_battle(state, dice=[20, 20])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert hits == 1
    assert len(events(battle, "machine_fire")[0]["rolls"]) == 1


@pytest.mark.rule("W4-WM-06")
@pytest.mark.rule("W4-WM-05")
def test_speed_in_proportion_to_surviving_crew() -> None:
    """An elven bolt thrower with two crew (Speed 7) that loses one moves 3.5"."""
    state = make_state([engine(models=2), goblins()])
    bolt = get(state, "bolt")
    assert bolt.speed() == 7.0
    bolt.companies = [1]
    assert bolt.speed() == 3.5
