"""Round 5 of the speed work in the game loop and the state: enemies within reach, activation
groups read from status and anchor, reforming that stops when no other squad exists, and a
Pike's turn seen in the unit table."""

from __future__ import annotations

import random

import pytest

from warhost.rulesets.fantasy_battle import _kernels, game
from warhost.rulesets.fantasy_battle.state import DEFEATED, FACINGS, IN_POOL, FBState, Squad

from .helpers import make_battle, make_state
from .test_game import with_recorders

rule = pytest.mark.rule


@pytest.mark.parametrize("seed", range(6))
def test_enemies_within_is_enemies_filtered_by_distance(seed: int) -> None:
    rng = random.Random(seed)
    squares = rng.sample([(x, y) for x in range(0, 12, 2) for y in range(0, 12, 2)], 12)
    units = [{"id": f"u{i}", "side": "AB"[i % 2], "at": sq,
                  "cls": rng.choice(["warrior", "knight", "pike", "archer"])}
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
    units = [{"id": f"s{i}", "side": "A", "at": (i, 0)} for i in range(4)]
    units += [{"id": "e", "side": "A", "rank": "elite", "at": (6, 0)},
              {"id": "c", "side": "A", "rank": "champion", "at": (8, 0)},
              {"id": "b", "side": "B", "rank": "elite", "at": (5, 10)}]
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
    units = [{"id": f"r{i}", "side": "A", "squad": "red", "at": (i, 0)} for i in range(4)]
    units += [{"id": "b1", "side": "B", "rank": "elite", "at": (5, 10)}]
    state = make_state(units=units, reform_allow_new_squads=allow_new)
    state.squads["red"] = Squad("red", "A", "infantry", [f"r{i}" for i in range(4)])
    state.remove(state.units["r3"], DEFEATED)  # red is under strength: open to joiners
    battle = make_battle(state)
    rec = with_recorders(battle, {"A": {"reform": ["done"]}})
    game.reform(state, battle, "A")
    # Without new squads a unit could only join another squad of its side, and there is none.
    assert [d.kind for d in rec["A"].asked] == (["reform"] if allow_new else [])


def _same_as_rebuilt(state: FBState) -> bool:
    """Whether the unit table says what a rebuild from the units says (rows of units off the map
    only by their flag: the searches read nothing else in them)."""
    kept = state.unit_table().copy()
    state._table = None
    fresh = state.unit_table()
    active = fresh[:, _kernels.U_ACTIVE] == 1
    return bool((kept[:, _kernels.U_ACTIVE] == fresh[:, _kernels.U_ACTIVE]).all()
                and (kept[active] == fresh[active]).all())


@rule("FB-PIKE-04")
def test_turning_writes_the_facing_into_the_unit_table() -> None:
    state = make_state(units=[{"id": "p", "side": "A", "cls": "pike", "at": (3, 3), "facing": "north"},
                              {"id": "w", "side": "B", "at": (3, 8)}])
    table = state.unit_table()
    row = state.table_row(state.units["p"])
    version = state.table_version
    state.set_facing(state.units["p"], FACINGS["west"])
    assert state.table_version != version
    assert tuple(table[row, [_kernels.U_FDX, _kernels.U_FDY]]) == FACINGS["west"]
    assert _same_as_rebuilt(state)
    # A unit without a front arc, or off the map, keeps (0, 0) whatever it is told.
    state.set_facing(state.units["w"], FACINGS["south"])
    state.remove(state.units["p"], DEFEATED)
    state.set_facing(state.units["p"], FACINGS["east"])
    assert _same_as_rebuilt(state)
    w_row = state.unit_table()[state.table_row(state.units["w"])]
    assert tuple(w_row[[_kernels.U_FDX, _kernels.U_FDY]]) == (0, 0)
