"""Round 5 of the speed work in the game loop and the state: enemies within reach, activation
groups read from status and anchor, and reforming that stops when no other squad exists."""

from __future__ import annotations

import random

import pytest

from warhost.rulesets.fantasy_battle import game
from warhost.rulesets.fantasy_battle.state import DEFEATED, IN_POOL, Squad

from .helpers import make_battle, make_state
from .test_game import with_recorders

rule = pytest.mark.rule


@pytest.mark.parametrize("seed", range(6))
def test_enemies_within_is_enemies_filtered_by_distance(seed: int) -> None:
    rng = random.Random(seed)
    squares = rng.sample([(x, y) for x in range(0, 12, 2) for y in range(0, 12, 2)], 12)
    units = [dict(id=f"u{i}", side="AB"[i % 2], at=sq,
                  cls=rng.choice(["warrior", "knight", "pike", "archer"]))
             for i, sq in enumerate(squares)]
    state = make_state(units=units, cavalry_footprint="2x2")
    state.remove(state.units["u3"], DEFEATED)  # off the map: never within reach
    for unit in state.units.values():
        if not unit.on_map:
            continue
        for reach in (0, 1, 3, 7, 20):
            want = [e for e in state.enemies(unit.side) if state.distance(unit, e) <= reach]
            assert state.enemies_within(unit, reach) == want


@rule("FB-AMB-10")
def test_activation_groups_skip_units_off_the_map_and_activated_ones() -> None:
    units = [dict(id=f"s{i}", side="A", at=(i, 0)) for i in range(4)]
    units += [dict(id="e", side="A", rank="elite", at=(6, 0)),
              dict(id="c", side="A", rank="champion", at=(8, 0)),
              dict(id="b", side="B", rank="elite", at=(5, 10))]
    state = make_state(units=units)
    state.squads["red"] = Squad("red", "A", "infantry", [f"s{i}" for i in range(4)])
    for i in range(4):
        state.units[f"s{i}"].squad = "red"
    assert state.activation_groups("A") == ["red", "e", "c"]
    state.units["e"].activated = True
    assert state.activation_groups("A", ready=True) == ["red", "c"]
    for i in range(3):
        state.remove(state.units[f"s{i}"], DEFEATED)
    assert state.activation_groups("A") == ["red", "e", "c"]  # one member is still on the map
    state.remove(state.units["s3"], IN_POOL)
    state.remove(state.units["c"], DEFEATED)
    assert state.activation_groups("A") == ["e"]
    assert state.activation_groups("B") == ["b"]


@rule("FB-SQUAD-04")
@pytest.mark.parametrize("allow_new", [False, True])
def test_reform_with_a_single_squad_asks_only_when_new_squads_are_allowed(allow_new: bool) -> None:
    units = [dict(id=f"r{i}", side="A", squad="red", at=(i, 0)) for i in range(4)]
    units += [dict(id="b1", side="B", rank="elite", at=(5, 10))]
    state = make_state(units=units, reform_allow_new_squads=allow_new)
    state.squads["red"] = Squad("red", "A", "infantry", [f"r{i}" for i in range(4)])
    state.remove(state.units["r3"], DEFEATED)  # red is under strength: open to joiners
    battle = make_battle(state)
    rec = with_recorders(battle, {"A": {"reform": ["done"]}})
    game.reform(state, battle, "A")
    # Without new squads a unit could only join another squad of its side, and there is none.
    assert [d.kind for d in rec["A"].asked] == (["reform"] if allow_new else [])
