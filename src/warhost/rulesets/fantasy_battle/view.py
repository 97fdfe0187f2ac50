"""What people see of a `fantasy-battle` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.rulesets.fantasy_battle.state import FBState

_SHORT = {"warrior": "W", "pike": "P", "archer": "A", "knight": "K", "lancer": "L",
          "mounted_archer": "MA"}
_RANK = {"standard": "", "elite": "*", "champion": "**"}


def map_view(state: FBState) -> dict[str, Any]:
    """Plain data for the map renderer (see warhost.render.maps)."""
    cells = [
        {"x": x, "y": y, "terrain": state.grid.terrain((x, y)), "level": state.grid.level((x, y))}
        for (x, y) in state.grid.squares()
        if state.grid.terrain((x, y)) != "clear"
    ]
    units = []
    for unit in state.units.values():
        if not unit.on_map or unit.anchor is None:
            continue
        units.append({
            "id": unit.id, "side": unit.side,
            "label": _SHORT[unit.cls] + _RANK[unit.rank],
            "x": unit.anchor[0], "y": unit.anchor[1], "w": unit.size, "h": unit.size,
            "facing": list(unit.facing) if unit.facing else None,
            "status": unit.status, "wounded": unit.wounded,
        })
    return {
        "width": state.grid.width, "height": state.grid.height, "cells": cells, "units": units,
        "sides": list(state.sides),
        "victory_areas": [{"name": a["name"], "squares": [list(s) for s in a["squares"]]}
                          for a in state.victory_areas],
        "round": state.round, "scores": dict(state.scores),
    }


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for the events this ruleset emits (None: use the generic text)."""
    t = event["type"]
    if t == "round_start":
        return f"=== Round {event['round']} ({event['turns']} turns each) ==="
    if t == "activate":
        return f"{event['side']} activates {event['group']}"
    if t == "pass":
        return f"{event['side']} passes"
    if t == "move":
        cost = event.get("cost")
        vault = " vaulting" if event.get("vaulted") else ""
        return f"  {event['unit']} moves {tuple(event['from'])} -> {tuple(event['to'])}" \
               f" (cost {cost}{vault})"
    if t == "charge":
        return f"  {event['unit']} charges {event['target']}"
    if t == "facing":
        return f"  {event['unit']} turns to face {event['facing']}"
    if t == "feat":
        return f"  {event['unit']} uses the Feat {event['feat'].replace('_', ' ')}"
    if t == "defeated":
        return f"  {event['unit']} is defeated ({event['points']} pt to {event['by']})"
    if t == "score":
        return f"  {event['side']} scores {event['points']} -> {event['total']}"
    if t in ("victory", "draw"):
        return f"*** {event['reason']} ***"
    if t == "reinforced":
        return f"  {event['unit']} returns to the field at {tuple(event['at'])}"
    if t == "reformed":
        return f"  {event['unit']} joins squad {event['to_squad']}"
    if t == "first_player":
        return f"{event['side']} is the first player"
    if t == "deployed":
        return None
    return None
