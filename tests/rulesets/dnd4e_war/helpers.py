"""Small builders for dnd4e-war tests: a profile, a unit entry, a state with every unit
where its entry puts it, and a battle runtime with scripted dice and orders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tests.battle_watch import events, record  # noqa: F401 - the tests import them from here
from tests.orders_by_kind import OrdersByKind
from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd4e_war.setup import initial_state
from warhost.rulesets.dnd4e_war.state import Unit, WarState

DEFENSES = {"ac": 16, "fortitude": 14, "reflex": 14, "will": 14}


def profile(name: str = "Warrior", **fields: Any) -> dict[str, Any]:
    """A profile entry: a human minion with Speed 6, AC 16 and a +8 spear unless
    ``fields`` say otherwise."""
    entry: dict[str, Any] = {
        "name": name, "race": "human", "speed": 6, "initiative": 3,
        "defenses": dict(DEFENSES), "unit_size": [1, 10],
        "powers": [{"name": "Spear", "kind": "melee", "bonus": 8, "damage": "1[W]+2",
                    "weapon_dice": "1d8"}],
    }
    entry.update(fields)
    return entry


def unit(uid: str, side: str = "A", at: tuple[float, float] = (20.0, 10.0),
         facing: float = 0.0, companies: int = 1, **fields: Any) -> dict[str, Any]:
    """A unit entry for side ``side`` (``A`` or ``B``; stripped when the scenario is built).
    ``profile`` may be a dict (see :func:`profile`) or a name in the scenario's profiles."""
    entry: dict[str, Any] = {"id": uid, "profile": fields.pop("profile", None) or profile(),
                             "companies": companies, "at": list(at), "facing": facing,
                             "_side": side}
    entry.update(fields)
    return entry


def character(cid: str, side: str = "A", joined: str | None = None,
              at: tuple[float, float] | None = None, **fields: Any) -> dict[str, Any]:
    """A character entry for side ``side``: a 5th-level human fighter with 40 hit points,
    Speed 6 and a +10 longsword, inside unit ``joined`` or alone at ``at``."""
    entry: dict[str, Any] = {
        "id": cid, "class": "fighter", "level": 5, "race": "human", "speed": 6,
        "initiative": 5, "hp": 40, "defenses": {"ac": 20, "fortitude": 18, "reflex": 16,
                                                "will": 15},
        "powers": [{"name": "Longsword", "kind": "melee", "bonus": 10, "damage": "1[W]+4",
                    "weapon_dice": "1d8"}], "_side": side,
    }
    if joined is not None:
        entry["joined"] = joined
    else:
        entry["at"] = list(at or (40.0, 10.0))
    entry.update(fields)
    return entry


def scenario_data(units: Sequence[Mapping[str, Any]], *, width: float = 72,
                  height: float = 48, terrain: Sequence[Mapping[str, Any]] = (),
                  options: Mapping[str, Any] | None = None,
                  profiles: Mapping[str, Any] | None = None,
                  characters: Sequence[Mapping[str, Any]] = (),
                  battle: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Plain scenario data with the units and characters grouped by their ``_side`` (sides
    A and B)."""
    sides = []
    for name in ("A", "B"):
        members = [{k: v for k, v in u.items() if k != "_side"} for u in units
                   if u["_side"] == name]
        people = [{k: v for k, v in c.items() if k != "_side"} for c in characters
                  if c["_side"] == name]
        sides.append({"name": name, "units": members, "characters": people})
    data = {"ruleset": "dnd4e-war", "table": {"width": width, "height": height},
            "options": {"deployment_depth": 0, **(options or {})},
            "terrain": list(terrain), "profiles": dict(profiles or {}), "sides": sides}
    if battle is not None:
        data["battle"] = dict(battle)
    return data


def make_state(units: Sequence[Mapping[str, Any]], **kwargs: Any) -> WarState:
    """A state with every unit placed (no validation of placement: tests may put units
    in contact), turn 1, side A holding the initiative."""
    data = scenario_data(units, **kwargs)
    model = get_ruleset("dnd4e-war").scenario_model.model_validate(data)
    state = initial_state(model)
    state.turn = 1
    state.initiative = "A"
    return state


def make_battle(state: WarState, dice: Sequence[int] = (),
                orders: Mapping[str, Sequence[str]] | None = None) -> Battle:
    """A battle runtime over ``state`` with scripted dice faces and scripted orders per side
    (decisions the orders do not address take the default, else the first option)."""
    commanders = {side: OrdersByKind((orders or {}).get(side, []), FirstOptionCommander())
                  for side in state.sides}
    battle = Battle(get_ruleset("dnd4e-war"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=ScriptedDice(dice))
    battle.state = state
    return battle


def get(state: WarState, uid: str) -> Unit:
    """The unit ``uid``."""
    return state.units[uid]
