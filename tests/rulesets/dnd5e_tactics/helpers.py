"""Builders for dnd5e-tactics unit tests: stat blocks, a state from compact specs, and a
battle runtime with scripted dice and scripted orders."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tests.orders_by_kind import OrdersByKind
from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.model import Dnd5eTacticsScenario
from warhost.rulesets.dnd5e_tactics.setup import new_state
from warhost.rulesets.dnd5e_tactics.state import T5State, Unit

SIDES = ("A", "B")

THUG: dict[str, Any] = {
    "name": "Thug", "ac": 11, "hp": 32, "speed": 30, "dex": 0,
    "saves": {"str": 2, "dex": 0, "con": 2, "wis": 0},
    "attacks": [
        {"name": "Mace", "kind": "melee", "bonus": 4, "damage": "1d6+2"},
        {"name": "Heavy Crossbow", "kind": "ranged", "bonus": 2, "damage": "1d10",
         "damage_type": "piercing", "range": 100, "long_range": 400},
    ],
    "multiattack": ["Mace", "Mace"],
}
GUARD: dict[str, Any] = {
    "name": "Guard", "ac": 16, "hp": 11, "speed": 30, "dex": 1,
    "attacks": [{"name": "Spear", "bonus": 3, "damage": "1d6+1", "damage_type": "piercing"}],
}
ARCHER: dict[str, Any] = {
    "name": "Archer", "ac": 12, "hp": 16, "speed": 30, "dex": 2,
    "saves": {"dex": 2},
    "attacks": [
        {"name": "Longbow", "kind": "ranged", "bonus": 4, "damage": "1d8+2",
         "damage_type": "piercing", "range": 150, "long_range": 600},
        {"name": "Shortsword", "bonus": 4, "damage": "1d6+2", "damage_type": "piercing"},
    ],
}
KNIGHT: dict[str, Any] = {
    "name": "Knight Captain", "ac": 18, "hp": 52, "speed": 30, "dex": 0,
    "saves": {"con": 4, "wis": 2, "cha": 4},
    "skills": {"persuasion": 4, "insight": 2, "history": 1},
    "attacks": [{"name": "Greatsword", "bonus": 5, "damage": "2d6+3", "damage_type": "slashing"}],
    "multiattack": ["Greatsword", "Greatsword"],
}
MAGE: dict[str, Any] = {
    "name": "Battle Mage", "ac": 12, "hp": 40, "speed": 30, "dex": 2,
    "saves": {"int": 6, "wis": 4, "cha": 1},
    "skills": {"persuasion": 1, "insight": 4, "history": 6},
    "attacks": [{"name": "Dagger", "bonus": 5, "damage": "1d4+2", "damage_type": "piercing"}],
    "areas": [{"name": "Fireball", "shape": "sphere", "size": 20, "range": 150, "save": "dex",
               "dc": 15, "damage": "8d6", "damage_type": "fire", "uses": 2}],
}


def unit_spec(id_: str, at: tuple[float, float], members: int = 20, member: Mapping[str, Any]
              = THUG, commander: Mapping[str, Any] = KNIGHT, **extra: Any) -> dict[str, Any]:
    """One unit entry of a scenario (stance close, track defensive unless given)."""
    spec: dict[str, Any] = {
        "id": id_, "members": members, "member": copy.deepcopy(dict(member)),
        "commander": copy.deepcopy(dict(commander)), "at": list(at),
        "stance": "close", "track": "defensive",
    }
    spec.update(extra)
    return spec


def scenario(
    units: Mapping[str, Sequence[Mapping[str, Any]]],
    singles: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    terrain: Sequence[Mapping[str, Any]] = (),
    board: tuple[float, float] = (48, 36),
    defender: str = "B",
    **options: Any,
) -> Dnd5eTacticsScenario:
    """A validated scenario model: side A deploys on the south edge, side B on the north."""
    sides = []
    for name, edge in zip(SIDES, ("south", "north")):
        sides.append({
            "name": name, "edge": edge, "units": list(units.get(name, [])),
            "singles": list((singles or {}).get(name, [])), "deployment_depth": board[1] / 2,
        })
    data = {
        "ruleset": "dnd5e-tactics", "defender": defender,
        "board": {"width": board[0], "height": board[1]}, "options": options,
        "terrain": list(terrain), "sides": sides,
    }
    return Dnd5eTacticsScenario.model_validate(data)


def make_battle(
    dice: Sequence[int] = (), orders: Mapping[str, Sequence[str]] | None = None
) -> Battle:
    """A battle runtime with scripted dice faces and scripted orders per side; decisions the
    orders do not address take the default (or first) option."""
    commanders = {
        side: OrdersByKind((orders or {}).get(side, []),
                                FirstOptionCommander())
        for side in SIDES
    }
    return Battle(get_ruleset("dnd5e-tactics"), None, 0, commanders,  # type: ignore[arg-type]
                  dice=ScriptedDice(dice))


def make_ctx(
    model: Dnd5eTacticsScenario,
    dice: Sequence[int] = (),
    orders: Mapping[str, Sequence[str]] | None = None,
) -> Ctx:
    """The state of ``model`` after setup, wrapped in a context with scripted dice/orders."""
    battle = make_battle(dice, orders)
    state: T5State = new_state(model, battle)
    return Ctx(state, battle)


def unit(ctx: Ctx, id_: str) -> Unit:
    """A unit of the state by id."""
    body = ctx.state.bodies[id_]
    assert isinstance(body, Unit)
    return body


def events(ctx: Ctx, type_: str) -> list[dict[str, Any]]:
    """The logged events of one type."""
    return ctx.battle.log.of_type(type_)
