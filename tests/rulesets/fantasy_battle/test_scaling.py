"""How the work of a round grows with the army (issue 12), counted, never timed: the searches,
scans and options a round of random battle builds, at two army sizes; and the kept-up-to-date
structures behind them (rank sets, the groups still to activate, the reform choices, the
movement search limited to the mover's reach) checked against plain scans."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from warhost.core.commanders import RandomCommander
from warhost.core.decisions import Decision
from warhost.core.engine import run_battle
from warhost.core.metering import GEOMETRY, OPTIONS, metered
from warhost.core.orders import Order
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.fantasy_battle import FantasyBattle, _kernels, movement
from warhost.rulesets.fantasy_battle._ranks import RankSet, kth_of_union
from warhost.rulesets.fantasy_battle.game import SQUAD_SIZE
from warhost.rulesets.fantasy_battle.state import FBState

from .helpers import make_state

SIDES = ("West", "East")


def _work_per_round(units: int, rounds: int, seeds: int = 4, **options: Any) -> Counter[str]:
    """The work counted per round of ``seeds`` random battles of ``units`` a side (several: how
    long a side goes on reforming is random)."""
    data = FantasyBattle().army_scenario(units, rounds)
    data["options"].update(options)
    scenario = scenario_from_data(data, f"<army-{units}>")
    with metered() as meter:
        for seed in range(seeds):
            result = run_battle(scenario, seed, {s: "random" for s in SIDES}, record=False)
            assert result.rounds == rounds
    return Counter({k: v / (rounds * seeds) for k, v in meter.items()})


def test_work_per_round_grows_at_most_linearly_with_the_army() -> None:
    """Four times the units, at most five times the counted work a round (a fitted exponent of
    at most 1.16): no scan of the whole army per decision, no option list per turn."""
    small = _work_per_round(100, 4)
    large = _work_per_round(400, 4)
    for kind in (GEOMETRY, OPTIONS):
        assert small[kind] > 0
        ratio = large[kind] / small[kind]
        assert ratio <= 4 * 1.25, (kind, small[kind], large[kind])
        assert math.log(ratio) / math.log(4) <= 1.17


def test_reforming_work_grows_at_most_linearly_when_new_squads_are_allowed() -> None:
    small = _work_per_round(100, 3, 2, reform_allow_new_squads=True)
    large = _work_per_round(400, 3, 2, reform_allow_new_squads=True)
    assert large[OPTIONS] / small[OPTIONS] <= 4 * 1.25


# --- rank sets ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_rank_sets_answer_as_a_sorted_list(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(1, 70)
    members = set(rng.sample(range(size), rng.randint(0, size)))
    flags = RankSet(size, members)
    other = RankSet(size, [])
    for _ in range(200):
        i = rng.randrange(size)
        if rng.random() < 0.5:
            flags.add(i)
            members.add(i)
        else:
            flags.discard(i)
            members.discard(i)
        listed = sorted(members)
        assert len(flags) == len(listed) and (i in flags) == (i in members)
        assert flags.rank(i) == sum(1 for m in listed if m < i)
        if listed:
            k = rng.randrange(len(listed))
            assert flags.kth(k) == listed[k]
    rest = [i for i in range(size) if i not in members]
    for i in rest[::2]:
        other.add(i)
    union = sorted(members | set(rest[::2]))
    assert [kth_of_union([flags, other], k) for k in range(len(union))] == union
    with pytest.raises(IndexError):
        kth_of_union([flags, other], len(union))


# --- the options offered, against the scans they replace -------------------------------------
def _reform_reference(state: FBState, side: str, moved: set[str], allow_new: bool,
                      ) -> tuple[list[str], dict[str, list[str]]]:
    """The reform choices worked out from scratch: the units that may move, and per unit the
    orders naming where it may go."""
    present = {sq.id: sum(1 for m in sq.members if state.units[m].on_map)
               for sq in state.squads.values() if sq.side == side}
    open_squads = [sq for sq in state.squads.values()
                   if sq.id in present and 0 < present[sq.id] < SQUAD_SIZE[sq.type]]
    targets = {}
    for unit in state.units.values():
        out = [f"join {sq.id}" for sq in open_squads
               if sq.id != unit.squad and sq.type == unit.type]
        targets[unit.id] = out + ["new-squad"] if allow_new else out
    movers = [f"reform {u.id}" for u in state.units.values()
              if u.side == side and u.squad is not None and u.on_map and u.id not in moved
              and targets[u.id]]
    return movers, targets


class _Checker(RandomCommander):
    """A random commander that reads every decision whole (so the options are listed) and
    checks the turn and reform options against scans of the state; it picks as a random
    commander does, so the battle goes as one between random commanders."""

    chooses_by_count = False
    answers_with_options = True

    def __init__(self, allow_new: bool) -> None:
        self.allow_new = allow_new
        self.moved: set[str] = set()
        self.checked: Counter[str] = Counter()

    def choose(self, decision: Decision, state: Any) -> Order:
        options = [str(o) for o in decision.options]
        if decision.kind == "activate":
            ready = state.activation_groups(self.side, ready=True)
            assert [o for o in options if o != "pass"] == [f"activate {g}" for g in ready]
            self.moved.clear()
        elif decision.kind == "reform":
            movers, _ = _reform_reference(state, self.side, self.moved, self.allow_new)
            assert options == ["done", *movers]
        elif decision.kind == "reform-to":
            _, targets = _reform_reference(state, self.side, self.moved, self.allow_new)
            assert options == targets[decision.subject]
        self.checked[decision.kind] += 1
        pick = decision.option(self.choose_index(decision.option_count))
        if pick.kind == "reform":
            self.moved.add(str(pick.args[0]))
        return pick


@pytest.mark.parametrize(("allow_new", "reinforcements"), [(False, False), (True, True),
                                                           (False, True)])
def test_turn_and_reform_options_match_scans_of_the_state(allow_new: bool,
                                                          reinforcements: bool) -> None:
    data = FantasyBattle().army_scenario(40, 4)  # more units than game.TRACK_FROM
    data["options"].update(reform_allow_new_squads=allow_new, reinforcements=reinforcements)
    scenario = scenario_from_data(data, "<army-40>")
    for seed in range(3):
        checkers = {s: _Checker(allow_new) for s in SIDES}
        checked = run_battle(scenario, seed, dict(checkers), record=True)
        plain = run_battle(scenario, seed, {s: "random" for s in SIDES}, record=True)
        assert checked.log.digest() == plain.log.digest()
        seen = sum((c.checked for c in checkers.values()), Counter())
        assert seen["activate"] > 0 and seen["reform"] > 0


# --- the movement search within reach -------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_search_within_reach_matches_the_whole_map_search(seed: int) -> None:
    rng = random.Random(seed)
    squares = [(x, y) for x in range(16) for y in range(14)]
    picked = rng.sample(squares, 40)
    taken: set[tuple[int, int]] = set()
    units = []
    for i, sq in enumerate(picked):
        cls = rng.choice(["warrior", "pike", "archer", "knight"])
        big = [(sq[0] + dx, sq[1] + dy) for dx in (0, 1) for dy in (0, 1)]
        if cls == "knight" and (sq[0] >= 15 or sq[1] >= 13 or any(
                s in picked or s in taken for s in big[1:])):
            cls = "warrior"
        if cls == "knight":
            taken.update(big)
        units.append({"id": f"u{i}", "side": "AB"[i % 2], "at": sq, "cls": cls,
                      **({"facing": rng.choice(["north", "east", "south", "west"])}
                         if cls == "pike" else {})})
    terrain = {sq: rng.choice(["hindering", "blocking", "deep_water"])
               for sq in rng.sample(squares, 20) if sq not in picked}
    state = make_state(16, 14, units=units, terrain=terrain, cavalry_footprint="2x2")
    t = movement.map_tables(state.grid)
    checked = 0
    for unit in state.units.values():
        if not unit.on_map:
            continue
        maps, params = t.kernel_inputs(unit.size, True)
        table, me = state.unit_table_row(unit)
        for budget in (2, 6, 12):
            whole = np.full(t.rows_shape, -7, np.int64)
            near = np.full(t.rows_shape, -7, np.int64)
            want = _kernels.plain_search(maps, params, table, me, budget, whole)
            ends, reached, looked = _kernels.near_search(maps, params, table, state.unit_grid(),
                                                         me, budget, near)
            assert (ends, reached) == want
            assert looked <= (2 * budget + 3) ** 2
            for row in (_kernels.R_ORDER, _kernels.R_ENDS):
                size = reached if row == _kernels.R_ORDER else ends
                assert near[row, :size].tolist() == whole[row, :size].tolist()
            ax, ay = unit.anchor  # type: ignore[misc]
            for y in range(max(0, ay - budget), min(14, ay + budget + 1)):
                for x in range(max(0, ax - budget), min(16, ax + budget + 1)):
                    i = t.index((x, y))
                    for row in (_kernels.R_BEST, _kernels.R_PREV, _kernels.R_RANK):
                        assert near[row, i] == whole[row, i], (unit.id, budget, x, y, row)
            checked += 1
    assert checked >= 100


def test_the_unit_grid_follows_every_move() -> None:
    state = make_state(units=[{"id": "a", "at": (1, 1)},
                              {"id": "k", "side": "B", "cls": "knight", "at": (5, 5)}],
                       cavalry_footprint="2x2")
    pw = state.grid.width + 2

    def held() -> dict[tuple[int, int], int]:
        grid = state.unit_grid()
        return {(i % pw - 1, i // pw - 1): int(r) for i, r in enumerate(grid) if r >= 0}

    state.unit_table()
    rows = {uid: state.table_row(u) for uid, u in state.units.items()}
    assert held() == {(1, 1): rows["a"], (5, 5): rows["k"], (6, 5): rows["k"],
                      (5, 6): rows["k"], (6, 6): rows["k"]}
    state.place(state.units["a"], (2, 3))
    state.place(state.units["k"], (7, 7))
    assert held() == {(2, 3): rows["a"], (7, 7): rows["k"], (8, 7): rows["k"],
                      (7, 8): rows["k"], (8, 8): rows["k"]}
    state.remove(state.units["k"], "defeated")
    assert held() == {(2, 3): rows["a"]}


def test_the_unit_grid_is_built_when_first_asked_for() -> None:
    # Small battles never ask for it: it is built from the unit table when first asked for,
    # after any number of moves, and is then the same as one kept move by move.
    state = make_state(units=[{"id": "a", "at": (1, 1)},
                              {"id": "b", "at": (3, 1)},
                              {"id": "k", "side": "B", "cls": "knight", "at": (5, 5)}],
                       cavalry_footprint="2x2")
    pw = state.grid.width + 2
    state.unit_table()
    rows = {uid: state.table_row(u) for uid, u in state.units.items()}
    state.place(state.units["a"], (2, 3))
    state.place(state.units["k"], (7, 7))
    state.remove(state.units["b"], "defeated")
    grid = state.unit_grid()
    held = {(i % pw - 1, i // pw - 1): int(r) for i, r in enumerate(grid) if r >= 0}
    assert held == {(2, 3): rows["a"], (7, 7): rows["k"], (8, 7): rows["k"],
                    (7, 8): rows["k"], (8, 8): rows["k"]}


def test_small_and_big_battles_find_the_same_destinations(monkeypatch: Any) -> None:
    # A small battle searches the whole map from every unit, a big one around the mover
    # through the unit grid: the same ends, costs and paths.
    units: list[dict[str, Any]] = [
        {"id": "a", "at": (2, 2)},
        {"id": "p", "side": "B", "cls": "pike", "at": (4, 3), "facing": "west"},
        {"id": "k", "side": "B", "cls": "knight", "at": (1, 5)},
        {"id": "c", "cls": "knight", "at": (6, 6)}]
    state = make_state(units=units, cavalry_footprint="2x2")

    def tables() -> list[Any]:
        found = []
        for unit in state.units.values():
            for budget in (1, 3, 6):
                table = movement.destination_table(state, unit, budget)
                found.append([(table.square(k), table.plan(table.square(k)))
                              for k in range(len(table))])
        return found

    small = tables()
    monkeypatch.setattr(movement, "NEAR_FROM", 0)
    assert tables() == small
