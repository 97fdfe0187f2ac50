"""The fast paths of combat (per-map line-of-fire layouts, the target scans) against plain
definitions on random maps: blocking, hindering and elevated terrain, both unit sizes, both
``elevation_blocks_los`` settings, units on the lines."""

from __future__ import annotations

import random

import pytest

from warhost.geometry.grid import Square, fire_lines, squares_touched
from warhost.rulesets.fantasy_battle import combat
from warhost.rulesets.fantasy_battle.state import FBState, Unit

from .helpers import add_unit, make_state

_TERRAINS = ["clear"] * 12 + ["blocking", "hindering", "concealing", "slope", "elevated"]


def _reference_lines(state: FBState, shooter: Unit, target: Unit) -> list[tuple[bool, bool, bool]]:
    """(blocked, hindered by terrain, touches another unit) per FB-AMB-28 candidate line, from
    the definitions (FB-ARCHER-02..04, FB-AMB-46 ``elevation_blocks_los``)."""
    s_space = state.squares_of(shooter)
    t_space = state.squares_of(target)
    ignore = set(s_space) | set(t_space)
    limit = max(state.square_level(s_space[0]), state.square_level(t_space[0]))
    out = []
    for p, q in fire_lines(s_space, t_space):
        blocked = hindered = unit = False
        for sq in squares_touched(p, q):
            if sq in ignore or not state.grid.contains(sq):
                continue
            kind = state.terrain(sq)
            if kind.blocks_fire or (state.options.elevation_blocks_los
                                    and state.square_level(sq) > limit):
                blocked = True
            hindered = hindered or kind.hinders_fire
            unit = unit or sq in state.occupied
        out.append((blocked, hindered, unit))
    return out


def _reference_line_of_fire(state: FBState, shooter: Unit, target: Unit) -> tuple[bool, bool]:
    lines = [line for line in _reference_lines(state, shooter, target) if not line[0]]
    if not lines:
        return False, False
    hindered = all(h or u for _, h, u in lines)
    if not hindered and state.options.los_target_square_counts:
        hindered = any(state.terrain(sq).hinders_fire for sq in state.squares_of(target))
    return True, hindered


def _random_state(rng: random.Random, elevation: bool) -> FBState:
    width, height = rng.randint(6, 14), rng.randint(6, 12)
    terrain: dict[Square, str] = {}
    levels: dict[Square, int] = {}
    for x in range(width):
        for y in range(height):
            name = rng.choice(_TERRAINS)
            if name != "clear":
                terrain[(x, y)] = name
                if name == "elevated":
                    levels[(x, y)] = rng.randint(1, 2)
    state = make_state(width, height, terrain=terrain, levels=levels,
                       elevation_blocks_los=elevation,
                       los_target_square_counts=rng.random() < 0.5,
                       archer_ally_adjacency=rng.choice(["forbid", "ignore"]))
    free = [(x, y) for x in range(width - 1) for y in range(height - 1)]
    rng.shuffle(free)
    specs = [("archer", "standard"), ("mounted_archer", "standard"), ("warrior", "champion"),
             ("knight", "elite"), ("pike", "standard"), ("warrior", "standard")]
    for i in range(rng.randint(4, 9)):
        cls, rank = rng.choice(specs)
        size = 2 if cls in ("knight", "mounted_archer") else 1
        for at in free:
            space = [(at[0] + dx, at[1] + dy) for dx in range(size) for dy in range(size)]
            if not any(sq in state.occupied for sq in space):
                add_unit(state, id=f"u{i}", side="AB"[i % 2], cls=cls, rank=rank, at=at,
                         feats=["throw"] if rank == "champion" else [],
                         facing=rng.choice(["north", "east", "southwest"]) if cls == "pike"
                         else None)
                break
    return state


@pytest.mark.parametrize("seed", range(40))
def test_lines_of_fire_match_the_definitions(seed: int) -> None:
    rng = random.Random(seed)
    state = _random_state(rng, elevation=seed % 2 == 0)
    units = [u for u in state.units.values() if u.on_map]
    for a in units:
        for b in units:
            if a is b:
                continue
            assert combat.line_of_fire(state, a, b) == _reference_line_of_fire(state, a, b)
            clear = any(not (bl or un) for bl, _, un in _reference_lines(state, a, b))
            assert combat.throw_clear(state, a, b) == clear


def _reference_targets(state: FBState, unit: Unit, allow_throw: bool) -> list[tuple[str, str]]:
    """attack_options from the catalog rules over every unit, in unit order, throws last."""
    normal: list[tuple[str, str]] = []
    throws: list[tuple[str, str]] = []
    opts = state.options
    for enemy in state.units.values():
        if enemy.side == unit.side or not enemy.on_map:
            continue
        dist = state.distance(unit, enemy)
        adjacent = state.adjacent(unit, enemy)
        theirs = state.squares_of(enemy)
        if unit.is_archer:
            allies_next = any(state.adjacent(f, enemy) for f in state.friends(unit.side))
            if (not adjacent and dist <= opts.max_range
                    and not (opts.archer_ally_adjacency == "forbid" and allies_next)
                    and _reference_line_of_fire(state, unit, enemy)[0]):
                normal.append(("ranged", enemy.id))
            continue
        if (unit.cls in combat.MELEE_CLASSES and adjacent
                and (not unit.has_facing or state.in_front_arc(unit, theirs))):
            normal.append(("melee", enemy.id))
        if (allow_throw and unit.rank == "champion" and 2 <= dist <= 4
                and (not unit.has_facing or opts.pike_throw_ignores_facing
                     or state.in_front_arc(unit, theirs))
                and any(not (bl or un) for bl, _, un in _reference_lines(state, unit, enemy))):
            throws.append(("throw", enemy.id))
    return normal + throws


@pytest.mark.parametrize("seed", range(40))
def test_attack_options_match_the_definitions(seed: int) -> None:
    rng = random.Random(1000 + seed)
    state = _random_state(rng, elevation=seed % 2 == 1)
    for unit in state.units.values():
        for allow_throw in (False, True):
            got = [(o.kind, o.target)
                   for o in combat.attack_options(state, unit, allow_throw=allow_throw)]
            assert got == _reference_targets(state, unit, allow_throw)
            assert combat.has_attack_option(state, unit, allow_throw=allow_throw) == bool(got)


def test_layouts_stay_within_their_room() -> None:
    """A map's layouts are dropped when the room for them is full, and answers stay right."""
    from warhost.rulesets.fantasy_battle import movement

    rng = random.Random(7)
    state = _random_state(rng, elevation=True)
    t = movement.map_tables(state.grid)
    combat._layout(t, True, 1, 1, 1, 1)  # builds the map's masks
    masks = t.memo["fire-masks"]
    room = masks.room
    masks.room = 3
    try:
        units = [u for u in state.units.values() if u.on_map]
        for a in units:
            for b in units:
                if a is not b:
                    assert combat.line_of_fire(state, a, b) == _reference_line_of_fire(state, a, b)
                    assert len(combat._layouts(t, True)) <= 3
    finally:
        masks.room = room
