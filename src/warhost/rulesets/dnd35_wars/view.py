"""What people see of a `dnd35-wars` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.rulesets.dnd35_wars.state import WarState


def map_view(state: WarState) -> dict[str, Any]:
    """Plain data for the map renderer: one square per counter, one per independent figure."""
    cells = [{"x": x, "y": y, "terrain": t} for (x, y), t in sorted(state.terrain.items())]
    units: list[dict[str, Any]] = []
    for u in state.units.values():
        for x, y in sorted(u.squares):
            units.append({"id": u.id, "side": u.side, "name": u.name, "mark": "u",
                          "kind": "Unit", "strength": f"{u.hp}/{u.start_hp} HP",
                          "x": x, "y": y, "w": 1, "h": 1, "status": u.status})
    for s in state.singles.values():
        if s.independent and s.square is not None:
            units.append({"id": s.id, "side": s.side, "name": s.creature.name, "mark": "S",
                          "kind": s.kind.upper(), "strength": f"{s.hp} HP",
                          "x": s.square[0], "y": s.square[1], "w": 1, "h": 1,
                          "status": s.status})
    return {"width": state.width, "height": state.height, "cells": cells, "units": units,
            "sides": list(state.sides), "marks": [["u", "Unit counter"], ["S", "Singular"]],
            "round": state.round}


NARRATION = Wordings()
"""One wording per event type this ruleset emits."""

_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for the events this ruleset emits (None: the generic text)."""
    return NARRATION.describe(event)


@_words("initiative")
def _initiative(e: Event) -> str:
    return f"{e['who']} rolls {e['total']} for initiative"


@_words("turn")
def _turn(e: Event) -> str:
    return f"{e['unit']} takes its turn"


@_words("hold")
def _hold(e: Event) -> str:
    return f"{e['unit']} holds its ground"


@_words("stuck")
def _stuck(e: Event) -> str:
    return f"{e['unit']} is still stuck inside {e['inside']}"


@_words("move")
def _move(e: Event) -> str:
    dx, dy = e["by"]
    return f"{e['unit']} moves {dx:+d},{dy:+d}"


@_words("fled")
def _fled(e: Event) -> str:
    return f"{e['unit']} flees the battlefield"


@_words("attack")
def _attack(e: Event) -> str:
    result = "hits" if e["hit"] else "misses"
    return f"{e['unit']} attacks {e['target']}: {e['roll']} -> {e['total']} vs AC {e['ac']}, {result}"


@_words("unit_damage")
def _unit_damage(e: Event) -> str:
    return (f"{e['unit']} loses {e['hp']} HP to {e['source']} ({e['left']} left, "
            f"{e['counters']} counters)")


@_words("single_damage")
def _single_damage(e: Event) -> str:
    return f"{e['who']} takes {e['hp']} damage from {e['source']} ({e['left']} HP left)"


@_words("vanquished")
def _vanquished(e: Event) -> str:
    return f"{e['unit']} is vanquished"


@_words("slain")
def _slain(e: Event) -> str:
    return f"{e['who']} falls"


@_words("battle_over")
def _battle_over(e: Event) -> str:
    who = e["winner"] or "nobody"
    return f"The battle ends in round {e['round']}: {who} wins ({e['reason']})"


@_words("round_start")
def _round_start(e: Event) -> str:
    return f"Round {e['round']} begins"


@_words("score")
def _score(e: Event) -> str:
    return f"{e['side']} has beaten {e['total']}% of the enemy's starting unit hit points"


# ---- movement and formation (movement.py, formation.py)


@_words("move_banked")
def _move_banked(e: Event) -> str:
    dx, dy = e["toward"]
    return f"{e['unit']} banks {e['points']} movement points toward the square at {dx:+d},{dy:+d}"


@_words("disengage")
def _disengage(e: Event) -> str:
    return f"{e['unit']} disengages from {', '.join(e['foes'])}"


@_words("regroup")
def _regroup(e: Event) -> str:
    return (f"{e['unit']} regroups with {e['partner']}: {e['hp']} HP in {e['counters']} "
            f"counters")


@_words("split")
def _split(e: Event) -> str:
    return f"{e['unit']} splits up: {e['counters']} counters leave as {e['new']}"


@_words("joins")
def _joins(e: Event) -> str:
    return f"{e['who']} goes with {e['unit']}"


@_words("pass_stuck")
def _pass_stuck(e: Event) -> str:
    return f"{e['unit']} is caught inside {e['inside']} and must pass on out"


@_words("formation")
def _formation(e: Event) -> str:
    return f"{e['unit']} rearranges its {e['counters']} counters"


@_words("phalanx_dropped")
def _phalanx_dropped(e: Event) -> str:
    return f"{e['unit']} breaks its phalanx"
