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
    who = e.get("unit") or e.get("who")
    result = "hits" if e["hit"] else "misses"
    if e.get("crit"):
        result = "scores a critical hit"
    elif e.get("threat"):
        result = "hits (critical not confirmed)"
    many = f" with {e['attackers']} attackers" if e.get("attackers") else ""
    flank = ", flanking" if e.get("flanking") else ""
    return (f"{who} attacks {e['target']}{many}{flank}: {e['roll']} -> {e['total']} "
            f"vs AC {e['ac']}, {result}")


@_words("unit_damage")
def _unit_damage(e: Event) -> str:
    return (f"{e['unit']} loses {e['hp']} HP to {e['source']} ({e['left']} left, "
            f"{e['counters']} counters)")


@_words("single_damage")
def _single_damage(e: Event) -> str:
    return f"{e['who']} takes {e['hp']} damage from {e['source']} ({e['left']} HP left)"


@_words("vanquished")
def _vanquished(e: Event) -> str:
    freed = e.get("freed") or []
    left = f"; {', '.join(freed)} now fight alone" if freed else ""
    return f"{e['unit']} is vanquished{left}"


@_words("slain")
def _slain(e: Event) -> str:
    return f"{e['who']} falls"


@_words("counters_removed")
def _counters_removed(e: Event) -> str:
    squares = ", ".join(f"{x},{y}" for x, y in e["squares"])
    return f"{e['unit']} loses the counters at {squares} ({e['left']} left)"


_UNHARMED = {"sheltered": "it shelters inside its fortification",
             "mundane": "mundane weapons cannot hurt it",
             "dr": "its damage reduction stops the blow",
             "spread": "the blow is spread too thin over a counter"}


@_words("unharmed")
def _unharmed(e: Event) -> str:
    who = e.get("unit") or e.get("who")
    why = _UNHARMED.get(e["reason"], e["reason"])
    return f"{who} takes no damage from {e['source']}: {why}"


@_words("collateral")
def _collateral(e: Event) -> str:
    if e["kind"] == "melee":
        return f"{e['who']} fights on the front line of {e['unit']} and is attacked by {e['source']}"
    save = "saves (Reflex)" if e["save"] else "fails its Reflex save"
    return f"stray missiles from {e['source']} fly at {e['who']} inside {e['unit']}: it {save}"


@_words("battle_over")
def _battle_over(e: Event) -> str:
    who = e["winner"] or "nobody"
    return f"The battle ends in round {e['round']}: {who} wins ({e['reason']})"


@_words("round_start")
def _round_start(e: Event) -> str:
    return f"Round {e['round']} begins"


@_words("score")
def _score(e: Event) -> str:
    return f"{e['side']} keeps {e['total']}% of its starting unit hit points"


# ---- singular creatures and in-unit actions (W35-MON, W35-NPC, W35-PC, W35-INUNIT)

def _square(sq: list[int]) -> str:
    return f"{sq[0]},{sq[1]}"


@_words("single_hold")
def _single_hold(e: Event) -> str:
    return f"{e['who']} waits"


@_words("single_move")
def _single_move(e: Event) -> str:
    return f"{e['who']} moves to {_square(e['to'])}"


@_words("fight_through")
def _fight_through(e: Event) -> str:
    if e["advanced"]:
        return f"{e['who']} hacks its way into {e['unit']} at {_square(e['to'])}"
    return f"{e['who']} fails to break into {e['unit']}"


@_words("single_enter")
def _single_enter(e: Event) -> str:
    return f"{e['who']} joins the ranks of {e['unit']}"


@_words("single_leave")
def _single_leave(e: Event) -> str:
    return f"{e['who']} leaves {e['unit']} for {_square(e['to'])}"


@_words("single_charge")
def _single_charge(e: Event) -> str:
    return f"{e['who']} charges {e['target']} from {_square(e['to'])}"


@_words("total_defense")
def _total_defense(e: Event) -> str:
    return f"{e['who']} fights wholly on the defensive"


@_words("squad_follows")
def _squad_follows(e: Event) -> str:
    return f"{e['who']} spent the round moving with the squad"


_DEEDS = {"slew_leader": "slays an enemy leader", "slew_officer": "slays an enemy officer",
          "destroyed_machine": "destroys an enemy war machine",
          "fled_or_down": "goes down", "slew_tenth": "cuts down a tenth of a unit at a stroke"}


@_words("pc_deed")
def _pc_deed(e: Event) -> str:
    return f"{e['who']} {_DEEDS.get(e['what'], e['what'])}, and the ranks take note"


@_words("pc_xp")
def _pc_xp(e: Event) -> str:
    return f"{e['who']} defeats {e['count']} x {e['creature']}"


@_words("in_unit_combat")
def _in_unit_combat(e: Event) -> str:
    return f"Fighting inside {e['unit']} against {', '.join(e['foes'])}"


@_words("in_unit_order")
def _in_unit_order(e: Event) -> str:
    return f"Inside {e['unit']} they act in this order: {', '.join(e['order'])}"


@_words("stays_with_unit")
def _stays_with_unit(e: Event) -> str:
    return f"{e['who']} keeps pace with {e['unit']}"


@_words("left_behind")
def _left_behind(e: Event) -> str:
    return f"{e['who']} is left behind as {e['unit']} moves on"


@_words("front_line")
def _front_line(e: Event) -> str:
    where = "to the front line" if e["front"] else "to the back"
    return f"{e['who']} moves {where} of {e['unit']}"
