"""The unit table the state keeps for the compiled movement searches (``FBState.unit_table``):
always what the units say, its version changing with every change, and searches over it giving
the plain searches' results after every kind of change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from warhost.core.engine import run_battle
from warhost.core.scenario import load_scenario
from warhost.rulesets.fantasy_battle import _kernels, movement
from warhost.rulesets.fantasy_battle.state import DEFEATED, ON_MAP, FBState, Unit

from .helpers import assert_searches_match_python, make_state

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle"
needs_numba = pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")


def _expected_rows(state: FBState) -> list[tuple[int, ...]]:
    """Each unit's row as the units say now (units off the map: only the flag counts)."""
    rows: list[tuple[int, ...]] = []
    for unit in state.units.values():
        if unit.anchor is None or unit.status != ON_MAP:
            rows.append((0,))
            continue
        fx, fy = unit.facing if unit.facing is not None and unit.cls == "pike" else (0, 0)
        rows.append((1, unit.anchor[0], unit.anchor[1], unit.size,
                     state.sides.index(unit.side), fx, fy, 0 if unit.is_cavalry else 1))
    return rows


def _table_rows(state: FBState) -> list[tuple[int, ...]]:
    table = state.unit_table()
    assert table.shape == (len(state.units), _kernels.UNIT_FIELDS)
    out: list[tuple[int, ...]] = []
    for r in range(len(state.units)):
        row = tuple(int(v) for v in table[r])
        out.append(row if row[0] else (0,))
    return out


@pytest.mark.parametrize("kind", ["random", "ai"])
@pytest.mark.parametrize("example", ["skirmish", "constructed", "combined-arms"])
def test_table_follows_every_change_in_battles(
    monkeypatch: pytest.MonkeyPatch, example: str, kind: str
) -> None:
    """At every search of whole battles the table holds what the units say, and a version seen
    before always comes with the same rows (so a kept charge search is never stale)."""
    real = FBState.unit_table_row
    seen: dict[int, bytes] = {}
    calls = [0]

    def checked(state: FBState, unit: Unit) -> Any:
        assert _table_rows(state) == _expected_rows(state)
        rows = state.unit_table().tobytes()
        assert seen.setdefault(state.table_version, rows) == rows
        calls[0] += 1
        return real(state, unit)

    monkeypatch.setattr(FBState, "unit_table_row", checked)
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    sides = scenario.ruleset.side_names(scenario.model)
    for seed in range(3):
        run_battle(scenario, seed, {s: kind for s in sides}, record=False)
    if _kernels.AVAILABLE:
        assert calls[0] > 0


@needs_numba
def test_searches_follow_status_facing_and_size_changes() -> None:
    state = make_state(10, 10, units=[
        {"id": "p", "cls": "pike", "at": (2, 2)},
        {"id": "e", "side": "B", "cls": "pike", "at": (5, 5), "facing": "south"},
        {"id": "k", "side": "B", "cls": "knight", "type": "cavalry", "at": (2, 6)},
    ])
    assert_searches_match_python(state, "p")
    version = state.table_version
    state.set_facing(state.units["e"], (-1, 0))
    assert state.table_version != version
    assert_searches_match_python(state, "p")
    state.remove(state.units["e"], DEFEATED)
    assert_searches_match_python(state, "p")
    knight = state.units["k"]
    state.place(knight, None)
    knight.type, knight.cls, knight.size = "infantry", "warrior", 1
    state.sync(knight)
    state.place(knight, (3, 5))
    assert _table_rows(state) == _expected_rows(state)
    assert_searches_match_python(state, "p")
    state.set_status(state.units["e"], ON_MAP)
    state.place(state.units["e"], (4, 3))
    assert_searches_match_python(state, "p")
    assert _table_rows(state) == _expected_rows(state)


@needs_numba
def test_kept_charge_search_is_not_shared_between_states() -> None:
    """Two states on one map (one kept search per map) with different units get their own."""
    units: list[dict[str, Any]] = [{"id": "p", "cls": "pike", "at": (1, 1)}]
    a = make_state(9, 9, units=units)
    b = make_state(9, 9, units=[*units, {"id": "f", "at": (1, 4)}])
    b.grid = a.grid
    for state in (a, b, a.copy(), b):
        runs = movement._charge_destinations_py(state, state.units["p"], 6)
        assert list(movement.charge_destinations(state, state.units["p"], 6).items()) == list(
            runs.items())
    assert np.array_equal(a.unit_table(), a.copy().unit_table())
