"""Small builders for fantasy-battle unit tests: a state from a compact description, and a
battle runtime with scripted dice and scripted decisions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tests.orders_by_kind import OrdersByKind
from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.geometry.grid import Grid, Square
from warhost.rulesets.fantasy_battle import movement
from warhost.rulesets.fantasy_battle.model import Options
from warhost.rulesets.fantasy_battle.setup import make_abilities
from warhost.rulesets.fantasy_battle.state import FACINGS, FBState, Unit

SIDES = ["A", "B"]


def make_state(
    width: int = 12,
    height: int = 12,
    units: Sequence[Mapping[str, Any]] = (),
    terrain: Mapping[Square, str] | None = None,
    levels: Mapping[Square, int] | None = None,
    victory_points: int = 20,
    **options: Any,
) -> FBState:
    """A state with the given units placed. Each unit is a dict with at least ``id``, ``side``
    and ``at``; defaults: Standard Infantry Warrior. ``facing`` may be a name ("north") or a
    vector. ``cls`` sets the class; the type follows from the class."""
    grid = Grid(width, height)
    for sq, name in (terrain or {}).items():
        grid.set_terrain(sq, name, (levels or {}).get(sq, 1 if name == "elevated" else 0))
    for sq, level in (levels or {}).items():
        if not terrain or sq not in terrain:
            grid.set_terrain(sq, grid.terrain(sq), level)
    state = FBState(grid, Options(**options), list(SIDES), victory_points)
    state.start_areas = {"A": {(x, y) for x in range(width) for y in (0, 1)},
                         "B": {(x, y) for x in range(width) for y in (height - 2, height - 1)}}
    for spec in units:
        add_unit(state, **spec)
    return state


def add_unit(state: FBState, **spec: Any) -> Unit:
    """Add one unit to a state (see :func:`make_state` for the fields)."""
    cls = spec.get("cls", "warrior")
    utype = spec.get("type", "cavalry" if cls in ("knight", "lancer", "mounted_archer")
                     else "infantry")
    size = spec.get("size", 2 if utype == "cavalry" and
                    state.options.cavalry_footprint == "2x2" else 1)
    facing = spec.get("facing")
    if isinstance(facing, str):
        facing = FACINGS[facing]
    if cls == "pike" and facing is None:
        facing = (0, 1)
    feats = list(spec.get("feats", []))
    unit = Unit(
        id=spec["id"], side=spec.get("side", "A"), name=spec.get("name", spec["id"]),
        rank=spec.get("rank", "standard"), type=utype, cls=cls, anchor=None, size=size,
        facing=facing, squad=spec.get("squad"), unique=spec.get("unique", False),
        fate=spec.get("fate", 0), abilities=make_abilities(spec.get("abilities", [])),
        feats=feats, feats_used=[False] * len(feats), wounded=spec.get("wounded", False),
        original_cls=cls, original_type=utype, faction=spec.get("faction", ""),
    )
    state.units[unit.id] = unit
    state.start_strength[unit.id] = 1
    state.place(unit, tuple(spec["at"]) if spec.get("at") is not None else None)
    return unit


def make_battle(
    state: FBState,
    dice: Sequence[int] = (),
    orders: Mapping[str, Sequence[str]] | None = None,
) -> Battle:
    """A battle runtime over ``state`` with scripted dice faces and scripted orders per side.

    Decisions not addressed by a side's orders take the default (or first) option.
    """
    from warhost.core.registry import get_ruleset

    commanders = {
        side: OrdersByKind((orders or {}).get(side, []),
                                FirstOptionCommander())
        for side in state.sides
    }
    battle = Battle(get_ruleset("fantasy-battle"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=ScriptedDice(dice))
    battle.state = state
    return battle


def events(battle: Battle, type_: str) -> list[dict[str, Any]]:
    """The logged events of one type."""
    return battle.log.of_type(type_)


def assert_searches_match_python(state: FBState, uid: str, budget: int = 6) -> None:
    """The compiled (or table) movement and charge searches give the pure-Python searches' ends,
    costs and paths, in the same order, for unit ``uid``."""
    unit = state.units[uid]
    want = movement.destinations(state, unit, budget)
    assert list(movement.destination_table(state, unit, budget).as_dict().items()) == list(
        want.items())
    runs = movement._charge_destinations_py(state, unit, budget)
    assert list(movement.charge_destinations(state, unit, budget).items()) == list(runs.items())
    assert movement.has_charge_run(state, unit, budget) == bool(runs)
