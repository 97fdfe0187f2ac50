"""The attack side's fast paths: the compiled attack scan (``_scan_kernels``) gives exactly what
the pure-Python scan gives, on positions from real battles and on random maps, and its per-map
data never goes stale; the abilities that reach allies and the charge targets match their
definitions."""

from __future__ import annotations

import random
from collections.abc import Set as AbstractSet
from pathlib import Path

import pytest

from warhost.core.engine import run_battle
from warhost.core.scenario import load_scenario
from warhost.rulesets.fantasy_battle import _scan_kernels, combat, game, movement
from warhost.rulesets.fantasy_battle.model import Ability
from warhost.rulesets.fantasy_battle.state import FACINGS, FBState, Unit

from .helpers import add_unit, make_state
from .test_perf_combat import _random_state

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle"

needs_numba = pytest.mark.skipif(not _scan_kernels.AVAILABLE, reason="numba is not installed")


def _compiled(state: FBState, unit: Unit, allow_throw: bool, exclude: AbstractSet[str],
              first: bool) -> list[tuple[str, str]] | None:
    found = combat._compiled_scan(state, unit, allow_throw, exclude, first)
    if found < 0:
        return None
    kind = "ranged" if unit.is_archer else "melee"
    return [(kind, uid) for r, uid in enumerate(state.units) if found >> r & 1]


def _compare(state: FBState, rng: random.Random) -> int:
    """Compare both scans for every unit; return how many answers the compiled scan gave."""
    checked = 0
    ids = list(state.units)
    for unit in state.units.values():
        for allow_throw in (False, True):
            exclude = frozenset(rng.sample(ids, rng.randint(0, 3))) if rng.random() < 0.3 \
                else frozenset()
            want = [(o.kind, o.target)
                    for o in combat._attack_scan(state, unit, allow_throw, exclude, False)]
            got = _compiled(state, unit, allow_throw, exclude, False)
            if got is None:
                continue
            checked += 1
            assert got == want, (unit.id, allow_throw, exclude)
            some = _compiled(state, unit, allow_throw, exclude, True)
            assert some is not None and len(some) <= 1 and bool(some) == bool(want)
            assert set(some) <= set(want)
            assert combat.has_attack_option(state, unit, allow_throw=allow_throw) == bool(
                combat._attack_scan(state, unit, allow_throw, frozenset(), True))
    return checked


@needs_numba
@pytest.mark.parametrize("example", ["skirmish", "constructed", "combined-arms", "grand-battle"])
def test_compiled_scan_matches_python_in_battles(example: str) -> None:
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    sides = scenario.ruleset.side_names(scenario.model)
    rng = random.Random(example)
    checked = [0]
    rounds = {"grand-battle": 3}.get(example, 12)

    def observe(round_number: int, state: FBState) -> None:
        if round_number <= rounds:
            checked[0] += _compare(state, rng)

    for seed in range(3):
        run_battle(scenario, seed, {s: "random" for s in sides}, record=False,
                   observers=[observe])
    assert checked[0] > 100


@needs_numba
@pytest.mark.parametrize("seed", range(60))
def test_compiled_scan_matches_python_on_random_maps(seed: int) -> None:
    rng = random.Random(seed)
    state = _random_state(rng, elevation=seed % 2 == 1)
    state.options = state.options.model_copy(update={"max_range": rng.choice([2, 5, 36])})
    assert _compare(state, rng) > 0


def _crowd(seed: int, units: int) -> FBState:
    """A 30 x 30 map with ``units`` Archers, Warriors, Pikes (facing every way, or no way) and
    2 x 2 Knights of both sides, packed close."""
    rng = random.Random(seed)
    state = make_state(30, 30, archer_ally_adjacency="forbid")
    spots = [(x, y) for x in range(29) for y in range(29)]
    rng.shuffle(spots)
    added = 0
    for at in spots:
        if added == units:
            break
        cls = rng.choice(["archer", "warrior", "pike", "pike", "knight"])
        size = 2 if cls == "knight" else 1
        if any((at[0] + dx, at[1] + dy) in state.occupied
               for dx in range(size) for dy in range(size)):
            continue
        pike = add_unit(state, id=f"u{added}", side="AB"[rng.random() < 0.5], cls=cls, at=at,
                        facing=rng.choice(list(FACINGS)) if cls == "pike" else None)
        if cls == "pike" and rng.random() < 0.1:
            state.set_facing(pike, None)
        added += 1
    return state


@needs_numba
def test_compiled_scan_over_many_units() -> None:
    """More units than one result mask holds: the scan goes on window by window."""
    assert _compare(_crowd(5, 150), random.Random(5)) > 100
    assert _compare(_crowd(7, 300), random.Random(7)) > 100


@needs_numba
def test_scan_map_room_and_growth() -> None:
    """Layouts beyond the room start a new ``ctx``, more than it holds grow it; the answers
    stay right."""
    state = _crowd(6, 80)
    sm = combat._scan_map(state)
    room = sm.room
    sm.room = _scan_kernels.MASK_ROWS + 1
    try:
        assert _compare(state, random.Random(6)) > 0
        assert 0 < sm.count <= sm.room
    finally:
        sm.room = room
    state = _random_state(random.Random(12), elevation=False)
    sm = combat._scan_map(state)
    for dx in range(-4, 5):
        for dy in range(-4, 5):
            sm.add(dx, dy, 1, 1)
    assert sm.count >= 81 and sm.ctx[_scan_kernels.C_ROWS] >= sm.count
    assert _compare(state, random.Random(12)) > 0


@needs_numba
def test_scan_follows_terrain_and_options_changes() -> None:
    """The last map kept by the scan is not used once the grid or the options change."""
    state = make_state(10, 3)
    add_unit(state, id="arch", cls="archer", at=(0, 1))
    add_unit(state, id="foe", side="B", at=(8, 1))
    add_unit(state, id="far", side="B", at=(4, 1))

    def targets() -> list[str]:
        return [o.target for o in combat.attack_options(state, state.units["arch"],
                                                        allow_throw=False)]

    assert targets() == ["foe", "far"]
    for y in range(3):
        state.grid.set_terrain((6, y), "blocking")
    assert targets() == ["far"]
    state.options = state.options.model_copy(update={"max_range": 3})
    assert targets() == []
    state.options = state.options.model_copy(update={"max_range": 36})
    add_unit(state, id="pal", cls="warrior", at=(5, 1))  # next to "far": FB-AMB-27
    assert targets() == []
    state.options = state.options.model_copy(update={"archer_ally_adjacency": "ignore"})
    assert targets() == ["far"]


@needs_numba
def test_scan_follows_the_units() -> None:
    """Moves, turns, removals and dismounts reach the scan through the unit table."""
    state = make_state(8, 8)
    pike = add_unit(state, id="pike", cls="pike", at=(3, 3), facing="north")
    foe = add_unit(state, id="foe", side="B", at=(3, 4))

    def targets() -> list[str]:
        return [o.target for o in combat.attack_options(state, pike, allow_throw=False)]

    assert targets() == ["foe"]
    state.set_facing(pike, (0, -1))
    assert targets() == []
    state.place(foe, (3, 2))
    assert targets() == ["foe"]
    state.remove(foe, "defeated")
    assert targets() == []


def _reference_abilities(state: FBState, unit: Unit) -> list[tuple[str, str]]:
    """abilities_affecting from FB-ABIL-03/FB-AMB-05 over every unit, as (owner, name)."""
    out = [(unit.id, a.name) for a in unit.abilities if a.affects != "allies"]
    for friend in state.units.values():
        if friend.side != unit.side or friend is unit or not friend.on_map:
            continue
        for a in friend.abilities:
            if a.affects == "self" or (a.types and unit.type not in a.types) or (
                    a.classes and unit.cls not in a.classes) or (
                    a.ranks and unit.rank not in a.ranks) or (
                    a.factions and unit.faction not in a.factions):
                continue
            if a.range is None or state.distance(friend, unit) <= a.range:
                out.append((friend.id, a.name))
    return out


def _ability_state(seed: int) -> FBState:
    rng = random.Random(seed)
    state = make_state(10, 10)
    spots = [(x, y) for x in range(10) for y in range(10)]
    rng.shuffle(spots)
    for i in range(8):
        abilities = [
            Ability(name=f"a{i}{k}", attack=rng.choice([-1, 1, 2]),
                    affects=rng.choice(["self", "allies", "self_and_allies"]),
                    range=rng.choice([None, 1, 3]),
                    classes=rng.choice([[], ["warrior"], ["archer"]]))
            for k in range(rng.randint(0, 2))]
        add_unit(state, id=f"u{i}", side="AB"[i % 2], at=spots[i],
                 cls=rng.choice(["warrior", "archer"]), abilities=abilities)
    return state


def _abilities(state: FBState, unit: Unit) -> list[tuple[str, str]]:
    return [(owner.id, a.name) for owner, a in combat.abilities_affecting(state, unit)]


def test_abilities_affecting_matches_the_definition_across_states() -> None:
    """The abilities that reach allies are kept per holders' list: answers stay right when
    states alternate, when a unit joins and when a unit leaves the map."""
    states = [_ability_state(seed) for seed in range(6)]
    for _ in range(2):
        for state in states:
            for unit in state.units.values():
                assert _abilities(state, unit) == _reference_abilities(state, unit)
    state = states[0]
    add_unit(state, id="horn", side="A", at=(9, 9), abilities=[
        Ability(name="horn", attack=1, affects="allies")])
    state.remove(state.units["u2"], "defeated")
    for unit in state.units.values():
        if unit.on_map:
            assert _abilities(state, unit) == _reference_abilities(state, unit)
    assert any(("horn", "horn") in _abilities(state, u) for u in state.units.values() if u.on_map)


def test_charge_orders_are_the_enemies_in_reach() -> None:
    """plan_options offers a charge at every enemy on the map within the allowance + 1, in unit
    order (when some charge run exists)."""
    scenario = load_scenario(EXAMPLES / "combined-arms.yaml")
    sides = scenario.ruleset.side_names(scenario.model)
    seen = [0]

    def observe(round_number: int, state: FBState) -> None:
        for unit in state.units.values():
            if not (unit.on_map and unit.has_charge):
                continue
            offered = [str(o.args[0]) for o in game.plan_options(state, unit)
                       if o.kind == "charge"]
            budget = movement.allowance(unit, False, False)
            reach = [e.id for e in state.enemies(unit.side)
                     if state.distance(unit, e) <= budget + 1]
            want = reach if reach and movement.has_charge_run(state, unit, budget) else []
            assert offered == want
            seen[0] += bool(want)

    for seed in range(3):
        run_battle(scenario, seed, {s: "random" for s in sides}, record=False,
                   observers=[observe])
    assert seen[0] > 0
