"""Small builders for warband tests: a scenario from compact character descriptions, a state
with every character placed, and a battle runtime with scripted dice and orders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tests.battle_watch import events, record  # noqa: F401 - the tests import them from here
from tests.orders_by_kind import OrdersByKind
from warhost.core.commanders import FirstOptionCommander
from warhost.core.dice import ScriptedDice
from warhost.core.engine import Battle
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.warband.setup import initial_state
from warhost.rulesets.warband.state import WarbandState

STATS = {"agility": 5, "melee": 5, "ranged": 5, "strength": 4, "toughness": 3, "armour": 0,
         "ward": 0, "resolve": 6, "magic": 0, "wounds": 1, "attacks": 1}


def char(cid: str, at: tuple[int, int], side: str = "A", *, kind: str = "minion",
         captain: bool = False, facing: str = "N", weapons: Sequence[Mapping[str, Any]] = (),
         **stats: Any) -> dict[str, Any]:
    """A character entry; ``side`` says which side it joins (stripped when the scenario is
    built). Stats default to :data:`STATS`; extra keys of the entry (``talents``, ``traits``,
    ``spells``, ``items``, ``name``; ``armour_items`` for the armour list) may be passed in
    ``stats`` too (``armour`` is the Armour score)."""
    extra = {k: stats.pop(k) for k in ("talents", "traits", "spells", "items", "name")
             if k in stats}
    if "armour_items" in stats:
        extra["armour"] = stats.pop("armour_items")
    entry: dict[str, Any] = {
        "id": cid, "kind": kind, "captain": captain, "at": list(at), "facing": facing,
        "stats": {**STATS, **stats}, "weapons": list(weapons) or [{"name": "sword",
                                                                    "kind": "melee"}],
        "_side": side, **extra,
    }
    return entry


def scenario_data(chars: Sequence[Mapping[str, Any]], *, width: int = 12, height: int = 12,
                  features: Sequence[Mapping[str, Any]] = (), options: Mapping[str, Any] |
                  None = None, spells: Sequence[Mapping[str, Any]] = (),
                  sides: Sequence[str] | None = None, advantage: str | None = None,
                  zones: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Plain scenario data with the characters grouped by their ``_side``."""
    names = list(sides) if sides else sorted({str(c["_side"]) for c in chars} | {"A", "B"})
    side_list = []
    for name in names:
        members = [{k: v for k, v in c.items() if k != "_side"} for c in chars
                   if c["_side"] == name]
        entry: dict[str, Any] = {"name": name, "characters": members}
        if zones and name in zones:
            entry["zone"] = zones[name]
        side_list.append(entry)
    data: dict[str, Any] = {"ruleset": "warband", "map": {"width": width, "height": height,
                                                            "features": list(features)},
                            "options": dict(options or {}), "spells": list(spells),
                            "sides": side_list}
    if advantage:
        data["advantage"] = advantage
    return data


def make_state(chars: Sequence[Mapping[str, Any]], **kwargs: Any) -> WarbandState:
    """A state with every character placed at its ``at`` (no deployment decisions, no
    initiative rolls: the Initiative Order is the characters' order)."""
    data = scenario_data(chars, **kwargs)
    model = get_ruleset("warband").scenario_model.model_validate(data)
    state = initial_state(model)
    for side in model.sides:
        for spec in side.characters:
            if spec.at is not None:
                state.place(state.chars[spec.id], (spec.at[0], spec.at[1]))
    state.order = list(state.chars)
    state.turn = 1
    return state


def make_battle(state: WarbandState, dice: Sequence[int] = (),
                orders: Mapping[str, Sequence[str]] | None = None) -> Battle:
    """A battle runtime over ``state`` with scripted dice faces and scripted orders per side
    (decisions the orders do not address take the default, else the first option)."""
    commanders = {side: OrdersByKind((orders or {}).get(side, []), FirstOptionCommander())
                  for side in state.sides}
    battle = Battle(get_ruleset("warband"), None, 0, commanders,  # type: ignore[arg-type]
                    dice=ScriptedDice(dice))
    battle.state = state
    return battle


def load(data: Mapping[str, Any]) -> Any:
    """A validated scenario from plain data."""
    return scenario_from_data(dict(data), "<test>")
