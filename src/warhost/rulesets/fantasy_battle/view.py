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
    if t == "plan":
        return ""  # the decision line already says it
    if t == "attack":
        how = {"melee": "attacks", "ranged": "shoots at", "throw": "throws at"}[event["kind"]]
        extra = " (charging)" if event.get("charging") else ""
        extra += " (Frenzy)" if event.get("second") else ""
        mods = "; ".join(event.get("modifiers") or []) or "no modifiers"
        return f"  {event['attacker']} {how} {event['target']}{extra}: {mods}"
    if t == "attack_result":
        verdict = "hits" if event["success"] else "fails"
        return (f"  {event['attack_total']} against {event['defense_total']}: "
                f"{event['attacker']} {verdict}")
    if t == "fate":
        return (f"  {event['unit']} spends a Fate Point: {event['die_of']}'s die "
                f"{event['old']} -> {event['new']} ({event['fate_left']} left)")
    if t == "protected":
        return f"  {event['by']} protects {event['unit']}: the attack fails"
    if t == "wounded":
        return f"  {event['unit']} is wounded"
    if t == "dismount_roll":
        return f"  {event['unit']} rolls {event['face']} to stay in the saddle: {event['result']}"
    if t == "dismounted":
        at = tuple(event["at"]) if event.get("at") else "nowhere"
        return f"  {event['unit']} is dismounted and fights on foot as {event['cls']} at {at}"
    if t == "forced_move":
        return f"  {event['unit']} slides off the slope to {tuple(event['to'])}"
    if t == "ability_declined":
        return f"  {event['unit']} declines {', '.join(event['abilities'])}"
    return None
