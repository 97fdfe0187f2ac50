"""What people see of a `fantasy-battle` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.rulesets.fantasy_battle.state import (
    DEFEATED,
    FACING_NAMES,
    IN_POOL,
    RANK_DICE,
    FBState,
    Unit,
)

_SHORT = {"warrior": "W", "pike": "P", "archer": "A", "knight": "K", "lancer": "L",
          "mounted_archer": "MA"}
_RANK = {"standard": "", "elite": "*", "champion": "**"}
_CLASS = {"warrior": "Warrior", "pike": "Pike", "archer": "Archer", "knight": "Knight",
          "lancer": "Lancer", "mounted_archer": "Mounted Archer"}
_STATUS = {DEFEATED: "defeated", IN_POOL: "in the pool"}


def _marks(units: list[Unit]) -> list[list[str]]:
    """``[symbol, meaning]`` for each class letter and rank mark the units show, in a fixed
    order (the map legend explains them)."""
    classes = {u.cls for u in units}
    ranks = {u.rank for u in units}
    out = [[_SHORT[c], _CLASS[c]] for c in _SHORT if c in classes]
    out += [[_RANK[r], f"{r} ({RANK_DICE[r]} dice)"] for r in ("elite", "champion") if r in ranks]
    if "standard" in ranks:
        out.append(["", f"no star: standard ({RANK_DICE['standard']} die)"])
    return out


def map_view(state: FBState) -> dict[str, Any]:
    """Plain data for the map renderer (see warhost.render.maps).

    Every unit is listed, in the scenario's order, so that its short label on the map stays
    the same from round to round; a unit off the map (defeated, or in the reinforcement pool)
    has no position and is only listed in the key.
    """
    cells = [
        {"x": x, "y": y, "terrain": state.grid.terrain((x, y)), "level": state.grid.level((x, y))}
        for (x, y) in state.grid.squares()
        if state.grid.terrain((x, y)) != "clear"
    ]
    units = []
    for unit in state.units.values():
        here = unit.anchor if unit.on_map else None
        fate = f", {unit.fate_left} Fate" if unit.fate_left else ""
        units.append({
            "id": unit.id, "side": unit.side, "name": unit.name,
            "mark": _SHORT[unit.cls] + _RANK[unit.rank],
            "kind": f"{unit.rank} {_CLASS[unit.cls]} ({unit.type})"
                    + (", dismounted" if unit.dismounted else ""),
            "strength": f"{RANK_DICE[unit.rank]}d6{fate}",
            "x": here[0] if here else None, "y": here[1] if here else None,
            "w": unit.size, "h": unit.size,
            "facing": list(unit.facing) if unit.facing and here else None,
            "status": "active" if here else _STATUS.get(unit.status, "off the map"),
            "wounded": unit.wounded,
        })
    return {
        "width": state.grid.width, "height": state.grid.height, "cells": cells, "units": units,
        "sides": list(state.sides),
        "marks": _marks(list(state.units.values())),
        "victory_areas": [{"name": a["name"], "squares": [list(s) for s in a["squares"]]}
                          for a in state.victory_areas],
        "round": state.round, "scores": dict(state.scores),
    }


# --------------------------------------------------------------------------- narrative


NARRATION = Wordings()
"""One wording per event type this ruleset emits (``describe_event`` looks them up); the
narration tests check that every ``emit`` in the package has one."""


_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for the events this ruleset emits (None: use the generic text)."""
    return NARRATION.describe(event)


def _sq(square: Any) -> str:
    return f"({square[0]}, {square[1]})" if square else "off the map"


def _facing_name(facing: Any) -> str:
    """``north`` for ``[0, 1]`` (or a name already)."""
    if isinstance(facing, str):
        return facing
    return FACING_NAMES.get((int(facing[0]), int(facing[1])), _sq(facing))


def _title(name: str) -> str:
    """``Burst of Speed`` for ``burst_of_speed``."""
    return " ".join(w if w == "of" else w.capitalize() for w in name.split("_"))


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _dice(faces: list[int], total: int) -> str:
    """``4 1 3 (best 4) -1 = 3``: the dice, the highest kept, then the modifier."""
    best = max(faces)
    mod = total - best
    shown = " ".join(str(f) for f in faces) + (f" (best {best})" if len(faces) > 1 else "")
    return shown + (f" {mod:+d} = {total}" if mod else "")


@_words("terrain_setup")
def _terrain_setup(e: Event) -> str:
    pieces = ", ".join(f"{side} {n}" for side, n in e["pieces"].items())
    return f"Terrain: {e['first']} places the first piece (pieces: {pieces})"


@_words("terrain_placed")
def _terrain_placed(e: Event) -> str:
    n = len(e["squares"])
    return (f"{e['side']} places terrain piece {e['piece'] + 1} ({e['terrain'].replace('_', ' ')})"
            f" at {_sq(e['at'])}, {n} square{'s' if n != 1 else ''}")


@_words("terrain_discarded")
def _terrain_discarded(e: Event) -> str:
    return (f"{e['side']}'s terrain piece {e['piece'] + 1} ({e['terrain'].replace('_', ' ')}) "
            f"is left out: it {e['reason']}")


@_words("first_player")
def _first_player(e: Event) -> str:
    return f"{e['side']} is the first player"


@_words("deployed")
def _deployed(e: Event) -> str:
    facing = f", facing {_facing_name(e['facing'])}" if e.get("facing") else ""
    return f"{e['unit']} ({e['side']}) deploys at {_sq(e['at'])}{facing}"


@_words("feats_rolled")
def _feats_rolled(e: Event) -> str:
    return f"{e['unit']} rolls its Heroic Feats: {', '.join(_title(f) for f in e['feats'])}"


@_words("round_start")
def _round_start(e: Event) -> str:
    each = ", ".join(f"{side} {n}" for side, n in (e.get("activations") or {}).items())
    return f"=== Round {e['round']}: {e['turns']} turns each" + (
        f" (activations: {each})" if each else "") + " ==="


@_words("round_end")
def _round_end(e: Event) -> str:
    scores = ", ".join(f"{side} {n}" for side, n in e["scores"].items())
    return f"--- end of round {e['round']}; scores: {scores}"


@_words("activate")
def _activate(e: Event) -> str:
    return f"{e['side']} activates {e['group']}"


@_words("pass")
def _pass(e: Event) -> str:
    return f"{e['side']} passes"


_PLANS = {
    "move-attack": "moves, then attacks",
    "attack-move": "attacks, then moves",
    "double": "double-times (moves twice as far, no attack)",
    "mobility": "uses Mobility: moves, attacks and moves on",
    "hold": "holds its ground",
}


@_words("plan")
def _plan(e: Event) -> str:
    kind, _, target = str(e["plan"]).partition(" ")
    if kind == "charge":
        what = f"charges {target}"
    elif kind == "charge-mobility":
        what = f"charges {target} using Mobility"
    else:
        what = _PLANS.get(kind, kind.replace("-", " "))
    return f"  {e['unit']} {what}"


@_words("move")
def _move(e: Event) -> str:
    vault = f", vaulting {_sq(e['vaulted'])}" if e.get("vaulted") else ""
    cost = e["cost"]
    return (f"  {e['unit']} moves {_sq(e['from'])} -> {_sq(e['to'])} "
            f"({cost} square{'s' if cost != 1 else ''} of movement{vault})")


@_words("forced_move")
def _forced_move(e: Event) -> str:
    why = "slides off the slope" if e.get("reason") == "slope" else f"is moved ({e['reason']})"
    return f"  {e['unit']} {why}: {_sq(e['from'])} -> {_sq(e['to'])}"


@_words("charge")
def _charge(e: Event) -> str:
    return f"  {e['unit']} charges {e['target']}"


@_words("facing")
def _facing(e: Event) -> str:
    return f"  {e['unit']} turns to face {_facing_name(e['facing'])}"


@_words("feat")
def _feat(e: Event) -> str:
    return f"  {e['unit']} uses the Heroic Feat {_title(e['feat'])}"


@_words("ability_declined")
def _ability_declined(e: Event) -> str:
    return (f"  {e['side']} declines {', '.join(e['abilities'])} on the {e['roll']} roll "
            f"for {e['unit']}")


_HOW = {"melee": "attacks", "ranged": "shoots at", "throw": "throws at"}


@_words("attack")
def _attack(e: Event) -> str:
    extra = " (charging)" if e.get("charging") else ""
    extra += " (Frenzy)" if e.get("second") else ""
    mods = "; ".join(e.get("modifiers") or []) or "no modifiers"
    return f"  {e['attacker']} {_HOW.get(e['kind'], 'attacks')} {e['target']}{extra}: {mods}"


@_words("attack_result")
def _attack_result(e: Event) -> str:
    a, d = e["attack_total"], e["defense_total"]
    if e["success"]:
        verdict = f"{e['attacker']} hits"
    else:
        verdict = f"{e['attacker']} fails" + (" (a tie fails)" if a == d else "")
    return (f"  attack roll {_dice(e['attack_dice'], a)} against defense roll "
            f"{_dice(e['defense_dice'], d)}: {verdict}")


@_words("fate")
def _fate(e: Event) -> str:
    return (f"  {e['unit']} spends a Fate Point to reroll {e['die_of']}'s die on the "
            f"{e['purpose']} roll: {e['old']} -> {e['new']} ({e['fate_left']} left)")


@_words("protected")
def _protected(e: Event) -> str:
    return f"  {e['by']} protects {e['unit']}: the attack fails"


@_words("wounded")
def _wounded(e: Event) -> str:
    return f"  {e['unit']} is wounded"


@_words("dismount_roll")
def _dismount_roll(e: Event) -> str:
    verdict = "it is dismounted" if e["result"] == "dismount" else "it is defeated"
    return f"  {e['unit']} rolls {e['face']} on its dismount roll (4+ to survive): {verdict}"


@_words("dismounted")
def _dismounted(e: Event) -> str:
    if not e.get("at"):
        return f"  {e['unit']} is dismounted, but there is no room for it on foot"
    facing = f", facing {_facing_name(e['facing'])}" if e.get("facing") else ""
    return (f"  {e['unit']} is dismounted and fights on foot as {_title(e['cls'])} at "
            f"{_sq(e['at'])}{facing}")


@_words("defeated")
def _defeated(e: Event) -> str:
    pool = "; it goes to the reinforcement pool" if e.get("pooled") else ""
    return f"  {e['unit']} is defeated: {_points(e['points'])} to {e['by']}{pool}"


@_words("score")
def _score(e: Event) -> str:
    why = f" ({e['why']})" if e.get("why") else ""
    return f"  {e['side']} scores {_points(e['points'])}{why}: {e['total']} in all"


@_words("victory", "draw")
def _end(e: Event) -> str:
    return f"*** {e['reason']} ***"


@_words("reinforced")
def _reinforced(e: Event) -> str:
    return f"  {e['unit']} returns to the battlefield at {_sq(e['at'])}"


@_words("reformed")
def _reformed(e: Event) -> str:
    return f"  {e['unit']} leaves squad {e['from_squad']} and joins squad {e['to_squad']}"
