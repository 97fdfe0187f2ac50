"""The compiled movement searches give exactly what the pure-Python searches give: the same
ends, costs and paths (tie-breaking included), in the same order; charges too."""

from __future__ import annotations

from pathlib import Path

import pytest

from warhost.core.engine import run_battle
from warhost.core.scenario import load_scenario
from warhost.rulesets.fantasy_battle import _kernels, movement
from warhost.rulesets.fantasy_battle.state import FBState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle"


def _compare(state: FBState) -> int:
    checked = 0
    for unit in list(state.units.values()):
        if not unit.on_map:
            continue
        for budget in (0, 1, 3, 6, 8, 12):
            want = movement.destinations(state, unit, budget)
            table = movement.destination_table(state, unit, budget)
            got = table.as_dict()
            assert list(got.items()) == list(want.items()), (unit.id, budget)
            assert table.squares() == sorted(want, key=lambda sq: (sq[1], sq[0]))
            for k, sq in enumerate(table.squares()):
                assert table.position(sq) == k
                assert table.plan(sq) == want[sq]
            assert table.position((-1, 0)) is None
            runs = movement._charge_destinations_py(state, unit, budget)
            assert list(movement.charge_destinations(state, unit, budget).items()) == list(
                runs.items())
            assert movement.has_charge_run(state, unit, budget) == bool(runs)
            checked += 1
    return checked


@pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")
@pytest.mark.parametrize("example", ["skirmish", "constructed", "combined-arms", "grand-battle"])
def test_compiled_search_matches_python(example: str) -> None:
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    sides = scenario.ruleset.side_names(scenario.model)
    checked = [0]
    rounds = {"grand-battle": 3}.get(example, 6)

    def observe(round_number: int, state: FBState) -> None:
        if round_number <= rounds:
            checked[0] += _compare(state)

    for seed in range(2):
        run_battle(scenario, seed, {s: "random" for s in sides}, record=False,
                   observers=[observe])
    assert checked[0] > 0


@pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")
def test_compiled_search_matches_python_on_random_maps() -> None:
    """Random small maps with every terrain, levels, cliffs, Pikes' arcs and 2x2 bases."""
    from hypothesis import HealthCheck, given, settings

    from tests.rulesets.fantasy_battle.test_movement import scenarios

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(scenarios())
    def check(scenario: tuple[FBState, str, int, bool]) -> None:
        state, uid, budget, _ = scenario
        unit = state.units[uid]
        want = movement.destinations(state, unit, budget)
        table = movement.destination_table(state, unit, budget)
        assert list(table.as_dict().items()) == list(want.items())
        assert table.squares() == sorted(want, key=lambda sq: (sq[1], sq[0]))
        runs = movement._charge_destinations_py(state, unit, budget)
        assert list(movement.charge_destinations(state, unit, budget).items()) == list(
            runs.items())
        assert movement.has_charge_run(state, unit, budget) == bool(runs)

    check()


def _compare_vault(state: FBState, uid: str, budget: int) -> None:
    unit = state.units[uid]
    ctx = movement._Ctx(state, unit, budget)
    want = movement._vault_search_py(ctx, budget)
    got = movement._compiled_vault_search(ctx, budget)
    assert list(got.as_dict().items()) == list(want.as_dict().items()), (uid, budget)
    assert got.squares() == want.squares()
    for sq in got.squares():
        assert got.plan(sq) == want.plan(sq)


@pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")
@pytest.mark.parametrize("example", ["constructed", "grand-battle"])
def test_compiled_vault_search_matches_python(example: str) -> None:
    """Vault (FB-FEAT-10): the compiled search finds the same ends, costs, paths and vaulted
    squares, in the same order, for every unit of the example's first rounds."""
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    sides = scenario.ruleset.side_names(scenario.model)
    checked = [0]

    def observe(round_number: int, state: FBState) -> None:
        if round_number <= 3:
            for unit in list(state.units.values()):
                if unit.on_map:
                    for budget in (0, 2, 6, 12):
                        _compare_vault(state, unit.id, budget)
                        checked[0] += 1

    run_battle(scenario, 0, {s: "random" for s in sides}, record=False, observers=[observe])
    assert checked[0] > 0


@pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba is not installed")
def test_compiled_vault_search_matches_python_on_random_maps() -> None:
    """Random small maps with deep water, pits, other units, levels, cliffs, Pikes' arcs and
    2x2 bases: the compiled Vault search gives what the pure-Python one gives."""
    from hypothesis import HealthCheck, given, settings

    from tests.rulesets.fantasy_battle.test_movement import scenarios

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(scenarios())
    def check(scenario: tuple[FBState, str, int, bool]) -> None:
        state, uid, budget, _ = scenario
        _compare_vault(state, uid, budget)

    check()
