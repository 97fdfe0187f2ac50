"""Second round of fast paths: the compiled search's table answers like the plain dict (ends,
positions, plans with and without paths), the one-pass query gives the plain search's ends
with units far away, and the occupancy-map check for allies next to an Archer's target agrees
with a check over every friendly unit."""

from __future__ import annotations

import random

import pytest

from warhost.geometry.grid import space_distance
from warhost.rulesets.fantasy_battle import _kernels, combat, movement
from warhost.rulesets.fantasy_battle.state import FBState

from .helpers import add_unit, make_state

needs_numba = pytest.mark.skipif(not _kernels.AVAILABLE, reason="numba not available")


def _mixed_state(seed: int) -> FBState:
    """A 14 x 12 map with some terrain and ten units of both sides, some Pikes and Cavalry."""
    rng = random.Random(seed)
    terrain = {}
    for _ in range(12):
        terrain[(rng.randrange(14), rng.randrange(12))] = rng.choice(
            ["blocking", "hindering", "deep_water", "slope"])
    state = make_state(14, 12, terrain=terrain)
    free = [(x, y) for y in range(11) for x in range(13) if (x, y) not in terrain
            and (x + 1, y) not in terrain and (x, y + 1) not in terrain
            and (x + 1, y + 1) not in terrain]
    rng.shuffle(free)
    for k in range(10):
        cls = rng.choice(["warrior", "pike", "archer", "knight"])
        at = free[k * 3]
        if any(sq in state.occupied for sq in ((at[0] + dx, at[1] + dy)
                                                for dx in (0, 1) for dy in (0, 1))):
            continue
        add_unit(state, id=f"u{k}", side="AB"[k % 2], cls=cls, at=at,
                 facing=rng.choice(["north", "south", "east", "west"]))
    return state


@needs_numba
@pytest.mark.parametrize("seed", range(8))
def test_search_table_answers_like_the_dict(seed: int) -> None:
    state = _mixed_state(seed)
    for unit in state.units.values():
        plans = movement.destinations(state, unit, 6)
        table = movement.destination_table(state, unit, 6)
        assert table.as_dict() == plans
        ends = sorted(plans, key=lambda sq: (sq[1], sq[0]))
        assert table.squares() == ends and len(table) == len(ends)
        for k, sq in enumerate(ends):
            assert table.position(sq) == k
            assert table.square(k) == sq == table.square(k - len(ends))
            assert table.plan(sq) == plans[sq]
            short = table.plan(sq, with_path=False)
            assert (short.dest, short.cost, short.vaulted) == (sq, plans[sq].cost, None)
        for y in range(-1, 13):
            for x in range(-1, 15):
                if (x, y) not in plans:
                    assert table.position((x, y)) is None
        with pytest.raises(IndexError):
            table.square(len(ends))


@needs_numba
def test_far_units_leave_the_search_unchanged() -> None:
    """Units out of reach are in the query (every unit's row is) but change nothing: the ends
    stay those of the plain search."""
    units = [{"id": "m", "at": (1, 1)}]
    units += [{"id": f"b{k}", "side": "B", "cls": "pike", "at": (20 + k, 20), "facing": "south"}
              for k in range(5)]
    units += [{"id": f"a{k}", "at": (2 + 3 * k, 24)} for k in range(6)]
    state = make_state(30, 30, units=units)
    mover = state.units["m"]
    assert movement.destination_table(state, mover, 6).as_dict() == movement.destinations(
        state, mover, 6)
    units, _ = state.unit_table_row(mover)
    assert units.shape == (len(state.units), _kernels.UNIT_FIELDS)


@pytest.mark.parametrize("seed", range(6))
def test_friend_next_to_target_agrees_with_every_friend(seed: int) -> None:
    state = _mixed_state(seed)
    for side in ("A", "B"):
        friends = [u for u in state.units.values() if u.side == side and u.on_map]
        for target in state.units.values():
            if target.side == side or not target.on_map:
                continue
            assert target.anchor is not None
            expected = any(
                space_distance(state.squares_of(f), state.squares_of(target)) == 1
                and state.level_of(f) == state.level_of(target) for f in friends)
            assert combat._friend_adjacent(state, side, target.anchor, target.size) == expected
