"""What people see of a `dnd35-wars` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.geometry.grid import Square
from warhost.rulesets.dnd35_wars.state import FIGHTING, Single, Unit, WarState

_STATUS = {FIGHTING: "active"}
"""The renderer's word for a status (others keep their own: routed, fled, scattered ...)."""


def map_view(state: WarState) -> dict[str, Any]:
    """Plain data for the map renderer (see :mod:`warhost.render.maps`): each unit as the
    shape of its counters (one square each) with its embedded singular creatures named in the
    key, each independent monster, NPC or PC as a figure on its square, the terrain kinds,
    water, elevation and structures, and the scale."""
    units = [_unit_entry(state, u) for u in state.units.values()]
    units += [_single_entry(s) for s in state.singles.values() if s.host is None]
    return {"width": state.width, "height": state.height, "cells": _cells(state),
            "units": units, "sides": list(state.sides), "round": state.round,
            "scale": f"1 square = {state.scale} ft"}


def _cells(state: WarState) -> list[dict[str, Any]]:
    """Every square that is not plain level dry clear ground."""
    squares = (set(state.terrain) | state.water | set(state.elevation)
               | set(state.structure_at))
    return [_cell(state, sq) for sq in sorted(squares)]


def _cell(state: WarState, sq: Square) -> dict[str, Any]:
    """One square: a structure's type wins over the ground's kind; clear ground under water
    is ``water``, raised clear ground ``high_ground``; other water is flagged."""
    kind = state.terrain.get(sq, "clear")
    level = state.elevation.get(sq, 0)
    wet = sq in state.water
    if sq in state.structure_at:
        name = f"{state.structures[state.structure_at[sq]].type}_structure"
    elif kind == "clear" and wet:
        name, wet = "water", False
    elif kind == "clear" and level:
        name = "high_ground"
    else:
        name = kind
    cell: dict[str, Any] = {"x": sq[0], "y": sq[1], "terrain": name, "level": level}
    if wet:
        cell["water"] = True
    return cell


def _label_square(squares: set[Square]) -> Square:
    """The counter nearest the middle of the shape (ties: the lowest, then westmost)."""
    n = len(squares)
    sx, sy = sum(x for x, _ in squares), sum(y for _, y in squares)
    return min(squares, key=lambda s: ((n * s[0] - sx) ** 2 + (n * s[1] - sy) ** 2,
                                       s[1], s[0]))


def _unit_entry(state: WarState, u: Unit) -> dict[str, Any]:
    """A unit: its counters' squares, its strength and state; embedded creatures by name."""
    status = _STATUS.get(u.status, u.status)
    if u.status == FIGHTING and not u.squares and u.enters_round is not None:
        status = f"arrives in round {u.enters_round}"
    entry: dict[str, Any] = {
        "id": u.id, "side": u.side, "name": _with_singles(state, u), "kind": _unit_kind(u),
        "strength": f"{u.hp}/{u.start_hp} HP, {u.counters} counters" if u.on_map
        else f"0/{u.start_hp} HP",
        "x": None, "y": None, "w": 1, "h": 1, "status": status, "facing": None,
    }
    if u.on_map:
        x, y = _label_square(u.squares)
        entry.update(x=x, y=y, squares=[list(sq) for sq in sorted(u.squares)])
        if u.status == FIGHTING:
            entry["facing"] = list(u.heading)
    return entry


def _unit_kind(u: Unit) -> str:
    """``unit of 100 human fighter, 10 a counter`` with its mount, mob or flying flags."""
    per = u.per_counter
    each = str(per.numerator) if per.denominator == 1 else f"{float(per):.3g}"
    flags = [w for w, on in (("mob", u.mob), ("mounted", u.mounted), ("chariots", u.chariot),
                             ("flying", u.flying)) if on]
    extra = f" ({', '.join(flags)})" if flags else ""
    return f"unit of {u.creatures} {u.creature.name}{extra}, {each} a counter"


def _with_singles(state: WarState, u: Unit) -> str:
    """The unit's name, then the singular creatures embedded in it."""
    inside = []
    for sid in u.singles:
        s = state.singles[sid]
        if s.host == u.id and s.alive:
            role = " leader" if sid == u.leader else ""
            inside.append(f"{s.id} ({s.kind.upper()}{role}, {s.hp} HP)")
    return f"{u.name} with {', '.join(inside)}" if inside else u.name


def _single_entry(s: Single) -> dict[str, Any]:
    """A monster, NPC or PC standing alone: a figure on its square (in the key only once it
    has fallen or left)."""
    kind = "monster" if s.kind == "monster" else s.kind.upper()
    placed = s.alive and s.square is not None
    return {"id": s.id, "side": s.side, "name": s.creature.name, "kind": kind,
            "strength": f"{max(0, s.hp)}/{s.creature.hp} HP",
            "x": s.square[0] if placed and s.square else None,
            "y": s.square[1] if placed and s.square else None, "w": 1, "h": 1,
            "figure": True, "status": _STATUS.get(s.status, s.status)}


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
    return f"{e['side']} keeps {e['total']}% of its starting unit hit points"
