"""The fantasy-battle AI's remembered answers (:class:`Board`) always equal fresh ones.

A checking commander plays whole battles as the AI does and, after its decisions, compares
everything its board still holds (attacks, nearest enemies, urgencies, group scores) with the
answers worked out afresh on the same position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from warhost.core.decisions import Decision
from warhost.core.engine import run_battle
from warhost.core.orders import Order
from warhost.core.scenario import Scenario, load_scenario, scenario_from_data
from warhost.geometry.grid import footprint
from warhost.rulesets.fantasy_battle import FantasyBattle, ai_board
from warhost.rulesets.fantasy_battle.ai import FantasyBattleAI, attack_chance
from warhost.rulesets.fantasy_battle.ai_board import Board, sparse_pairwise_sum
from warhost.rulesets.fantasy_battle.state import FBState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle"


class CheckingAI(FantasyBattleAI):
    """The AI, checking its board against fresh answers every ``every`` decisions (attacks,
    odds, nearest enemies, urgencies and group scores)."""

    def __init__(self, every: int = 1) -> None:
        self.every = every
        self.seen = 0
        self.checked = 0

    def choose(self, decision: Decision, state: Any) -> Order:
        order = super().choose(decision, state)
        self.seen += 1
        if self.seen % self.every == 0:
            self.check(state)
        return order

    def check(self, state: FBState) -> None:
        board: Board | None = getattr(self, "_board", None)
        if board is None or not board.fresh(state):
            return
        board.update()
        fresh = FantasyBattleAI()
        fresh._board = Board(state)
        for uid, attacks in list(board.attacks.items()):
            unit = state.units[uid]
            if unit.on_map:
                assert attacks == fresh._attacks_now(state, unit), uid
                self.checked += 1
        for row, nearest in enumerate(board.nearest.tolist()):
            unit = board.units[row]
            if nearest >= 0 and unit.on_map:
                enemies = state.enemies(unit.side)
                assert nearest == min(state.distance(unit, e) for e in enemies), unit.id
                self.checked += 1
        for (aid, spot, tid, there, kind), (_, chance) in list(board.chances.items()):
            attacker, target = state.units[aid], state.units[tid]
            if not (attacker.on_map and target.on_map and target.anchor == there):
                continue
            home = attacker.anchor
            if spot != home:  # odds kept from a look elsewhere: look again from there
                squares = footprint(spot, attacker.size)
                assert all(state.occupied.get(sq) in (None, aid) for sq in squares), aid
                state.place(attacker, spot)
            try:
                assert chance == attack_chance(state, attacker, target, kind), (aid, tid)
            finally:
                state.place(attacker, home)
            self.checked += 1
        self.check_nearest_search(board)
        for side in range(len(state.sides)):
            assert np.array_equal(board.occupancy(side), fresh._board.occupancy(side))
        on_map = [state.units[uid] for uid in board.urgency if state.units[uid].on_map]
        expected = fresh._urgencies(state, fresh._board, on_map)
        for unit in on_map:
            assert board.urgency[unit.id] == expected[unit.id], unit.id
            self.checked += 1
        for gid, score in board.group_score.items():
            squad = state.squads.get(gid)
            members = [state.units[m] for m in squad.members] if squad else [state.units[gid]]
            members = [m for m in members if m.on_map]
            want = fresh._urgencies(state, fresh._board, members)
            assert score == max((want[m.id] for m in members), default=-1e9), gid


    def check_nearest_search(self, board: Board) -> None:
        """The compiled and the NumPy nearest searches agree (when numba is there)."""
        grid = board.state.grid
        rng = np.random.default_rng(self.seen)
        size = int(rng.integers(1, 3))
        anchors = rng.integers(0, [grid.width - size + 1, grid.height - size + 1], (40, 2))
        boxes = np.concatenate([anchors, anchors + size - 1], axis=1).astype(np.int64)
        top = max(grid.width, grid.height)
        for side in range(len(board.state.sides)):
            if not board.occupancy(side)[-1, -1]:
                continue
            without = tuple(int(v) for v in boxes[0])
            for skip in (None, without):
                answers = []
                for compiled in (True, False):
                    board.compiled = compiled
                    answers.append(board.nearest_gaps(boxes, side, 0, top, skip))  # type: ignore[arg-type]
                board.compiled = True
                assert np.array_equal(answers[0], answers[1])


def _play(scenario: Scenario, seed: int, every: int) -> int:
    sides = scenario.ruleset.side_names(scenario.model)
    commanders = {side: CheckingAI(every) for side in sides}
    run_battle(scenario, seed, dict(commanders), record=False)
    return sum(c.checked for c in commanders.values())


@pytest.mark.parametrize(("name", "seeds", "every"), [
    ("skirmish", (0, 1, 2), 1), ("constructed", (0, 1), 2), ("combined-arms", (0,), 7),
    ("grand-battle", (0,), 40),
])
def test_board_answers_equal_fresh_ones(name: str, seeds: tuple[int, ...], every: int,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # These battles are small: check the ways of large ones, which forget selectively.
    monkeypatch.setattr(ai_board, "SMALL", 0)
    scenario = load_scenario(EXAMPLES / f"{name}.yaml")
    assert sum(_play(scenario, seed, every) for seed in seeds) > 0


def test_small_battles_forget_everything_and_answer_the_same() -> None:
    scenario = load_scenario(EXAMPLES / "skirmish.yaml")
    assert _play(scenario, 5, 1) > 0


def test_board_answers_equal_fresh_ones_in_a_field_battle() -> None:
    ruleset = FantasyBattle()
    scenario = scenario_from_data(ruleset.army_scenario(48, 4), "<army-48>")
    assert _play(scenario, 3, 3) > 0


def test_sparse_pairwise_sum_is_numpys_sum() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        length = int(rng.integers(1, 700))
        rows = int(rng.integers(1, 6))
        weight = 0.15 * rng.integers(1, 4, size=length)
        full = (rng.random((rows, length)) < rng.random()) * weight[None, :]
        positions = np.flatnonzero(full.any(axis=0))
        got = sparse_pairwise_sum(full[:, positions], positions.tolist(), length)
        assert np.array_equal(got, full.sum(axis=1))


@pytest.mark.skipif(ai_board._ai_kernels.stale_rows is None, reason="numba is not installed")
def test_compiled_stale_marks_equal_numpy() -> None:
    """Board.update's compiled marking (stale_rows) marks what its NumPy version marks."""
    from warhost.rulesets.fantasy_battle import _kernels

    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 60))
        table = np.zeros((n, _kernels.UNIT_FIELDS), np.int64)
        table[:, _kernels.U_ACTIVE] = rng.integers(0, 2, n)
        table[:, _kernels.U_X] = rng.integers(0, 30, n)
        table[:, _kernels.U_Y] = rng.integers(0, 30, n)
        table[:, _kernels.U_SIZE] = rng.integers(1, 3, n)
        table[:, _kernels.U_SIDE] = rng.integers(0, 2, n)
        reach = rng.integers(1, 16, n)
        nearest = rng.integers(-1, 12, n)
        k = int(rng.integers(1, 5))
        corner = rng.integers(0, 30, (k, 2))
        size = rng.integers(1, 3, (k, 1))
        extra = np.where(rng.random(k) < 0.2, 1 << 40, rng.integers(0, 6, k))
        marks = np.concatenate([corner, corner + size - 1, rng.integers(0, 2, (k, 1)),
                                extra[:, None], rng.integers(0, 2, (k, 1))], axis=1)
        start = rng.random(n) < 0.1
        stale, near_stale = start.copy(), start.copy()
        ai_board._ai_kernels.stale_rows(table, reach, nearest, marks.astype(np.int64), stale,
                                        near_stale)
        want, want_near = start.copy(), start.copy()
        x0, y0 = table[:, _kernels.U_X], table[:, _kernels.U_Y]
        x1 = x0 + table[:, _kernels.U_SIZE] - 1
        y1 = y0 + table[:, _kernels.U_SIZE] - 1
        for bx0, by0, bx1, by1, side, more, was in marks.tolist():
            gaps = ai_board.box_gaps(x0, y0, x1, y1, (bx0, by0, bx1, by1))
            want |= gaps <= reach + more
            near = (nearest >= 0) & (table[:, _kernels.U_SIDE] != side)
            want_near |= near & ((gaps <= nearest) if was else (gaps < nearest))
        assert np.array_equal(stale, want)
        assert np.array_equal(near_stale, want_near)


@pytest.mark.skipif(ai_board._ai_kernels.forget_rows is None, reason="numba is not installed")
def test_compiled_board_update_plays_the_same_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large battle (100 units a side, the board forgetting selectively) is the same, event
    for event, whether Board.update marks and forgets compiled or in NumPy."""
    data = FantasyBattle().army_scenario(100, 2)
    scenario = scenario_from_data(data, "<army-100>")
    sides = scenario.ruleset.side_names(scenario.model)

    def digest() -> str:
        result = run_battle(scenario, 1, {s: "ai" for s in sides}, record=True)
        return result.log.digest()

    compiled = digest()
    for name in ("forget_rows", "changed_rows", "stale_rows"):
        monkeypatch.setattr(ai_board._ai_kernels, name, None)
    assert digest() == compiled
