"""What people see of a `warband` state and its events: map data and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.core.events import Event
from warhost.core.wordings import Wordings
from warhost.geometry.grid import FACINGS
from warhost.rulesets.warband.state import STANDING, Character, WarbandState


def _cell_terrain(state: WarbandState, sq: tuple[int, int]) -> str:
    terrain = state.grid.terrain(sq)
    if terrain != "clear":
        return terrain
    if sq in state.cover:
        return "cover"
    return "high_ground" if state.grid.level(sq) > 0 else "clear"


def _status(c: Character) -> str:
    if not c.on_map:
        return c.condition.replace("_", " ")
    if c.routing:
        return "routing"
    return "active" if c.condition == STANDING else c.condition.replace("_", " ")


def map_view(state: WarbandState) -> dict[str, Any]:
    """Plain data for the map renderer (see warhost.render.maps); elevation as ``level``."""
    cells = []
    for sq in state.grid.squares():
        terrain = _cell_terrain(state, sq)
        if terrain != "clear":
            cells.append({"x": sq[0], "y": sq[1], "terrain": terrain,
                          "level": state.grid.level(sq)})
    units = []
    for c in state.chars.values():
        here = c.square if c.on_map else None
        mark = ("C" if c.captain else "H" if c.kind == "hero" else "m") + (
            "*" if c.is_mage else "")
        units.append({
            "id": c.id, "side": c.side, "name": c.name, "mark": mark,
            "kind": ("Captain" if c.captain else c.kind.capitalize()),
            "strength": f"{c.wounds}/{c.max_wounds} Wounds",
            "x": here[0] if here else None, "y": here[1] if here else None, "w": 1, "h": 1,
            "facing": list(FACINGS[c.facing]) if here else None,
            "status": _status(c), "wounded": c.wounds < c.max_wounds,
        })
    marks = [["C", "Captain"], ["H", "Hero"], ["m", "Minion"]]
    if any(c.is_mage for c in state.chars.values()):
        marks.append(["*", "Mage"])
    return {
        "width": state.grid.width, "height": state.grid.height, "cells": cells,
        "units": units, "sides": list(state.sides), "marks": marks,
        "round": state.turn,
        "scores": {s: sum(1 for c in state.chars.values() if c.side != s and not c.on_map)
                   for s in state.sides},
    }


NARRATION = Wordings()
"""One wording per event type this ruleset emits."""

_words = NARRATION.of


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative for the events this ruleset emits (None: use the generic text)."""
    return NARRATION.describe(event)


def _sq(square: Any) -> str:
    return f"({square[0]}, {square[1]})" if square else "off the map"


@_words("deploy")
def _deploy(e: Event) -> str:
    return f"{e['who']} ({e['side']}) deploys at {_sq(e['at'])} facing {e['facing']}"


@_words("deploy_clash")
def _deploy_clash(e: Event) -> str:
    return (f"{e['who']} ({e['side']}) chose {_sq(e['at'])}, already taken by "
            f"{e['taken_by']}, and deploys elsewhere")


@_words("initiative")
def _initiative(e: Event) -> str:
    return "Initiative Order: " + ", ".join(f"{c} {e['scores'][c]}" for c in e["order"])


@_words("round_start")
def _round_start(e: Event) -> str:
    return f"-- Turn {e['round']} --"


@_words("score")
def _score(e: Event) -> str:
    return f"{e['side']} has taken {e['total']} enemies out of the fight"


@_words("move")
def _move(e: Event) -> str:
    verb = {"move": "moves", "sprint": "sprints", "charge": "charges", "flee": "flees"}.get(
        e["how"], e["how"])
    return f"{e['who']} {verb} from {_sq(e['start'])} to {_sq(e['to'])} ({e['squares']} squares)"


@_words("move_cancelled")
def _move_cancelled(e: Event) -> str:
    return f"{e['who']} is cut down before it can {e['how']}"


@_words("face")
def _face(e: Event) -> str:
    return f"{e['who']} turns to face {e['facing']}"


@_words("charge")
def _charge(e: Event) -> str:
    braced = " (braced: no charge bonus)" if e["braced"] else ""
    return f"{e['who']} charges into {e['target']}{braced}"


@_words("prone")
def _prone(e: Event) -> str:
    return f"{e['who']} drops prone"


@_words("prone_ends")
def _prone_ends(e: Event) -> str:
    return f"{e['who']} gets up from prone"


@_words("stand_up")
def _stand_up(e: Event) -> str:
    return f"{e['who']} stands up"


@_words("opportunity")
def _opportunity(e: Event) -> str:
    return f"{e['who']} strikes at {e['target']} as it leaves ({e['weapon']})"


@_words("attack")
def _attack(e: Event) -> str:
    if not e["hit"]:
        return f"{e['who']} attacks {e['target']} with {e['weapon']}: miss"
    crit = " (critical)" if e["critical"] else ""
    parts = [f"{e['wounds']} wound{'s' if e['wounds'] != 1 else ''}"]
    if e["saved"]:
        parts.append(f"{e['saved']} saved by Defense")
    if e["warded"]:
        parts.append(f"{e['warded']} by Ward")
    parts.append(f"{e['confirmed']} confirmed")
    return f"{e['who']} hits {e['target']} with {e['weapon']}{crit}: " + ", ".join(parts)


@_words("wave")
def _wave(e: Event) -> str:
    return f"{e['who']} looses a wave from {e['weapon']} toward {_sq(e['aim'])}"


@_words("wounded")
def _wounded(e: Event) -> str:
    return f"{e['who']} takes {e['wounds']} wound(s), {e['left']} left"


@_words("injury_roll")
def _injury_roll(e: Event) -> str:
    bonus = " (+2 critical)" if e["critical"] else ""
    return f"{e['who']} makes an Injury roll: {e['roll']}{bonus}, {e['result'].replace('_', ' ')}"


@_words("injury_state")
def _injury_state(e: Event) -> str:
    return f"{e['who']} is now {e['state'].replace('_', ' ')} ({e['why']})"


@_words("incapacitated")
def _incapacitated(e: Event) -> str:
    return f"{e['who']} ({e['side']}) is Incapacitated ({e['why']})"


@_words("fall")
def _fall(e: Event) -> str:
    return f"{e['who']} falls {e['height']} squares to {_sq(e['to'])}: {e['wounds']} wound(s)"


@_words("effect_ends")
def _effect_ends(e: Event) -> str:
    return f"Effects on {e['who']} end: {', '.join(e['effects'])}"


@_words("morale")
def _morale(e: Event) -> str:
    result = "holds" if e["passed"] else "fails"
    return f"{e['who']} tests Morale ({', '.join(e['triggers'])}) and {result}"


@_words("rout")
def _rout(e: Event) -> str:
    return f"{e['who']} routs"


@_words("fled")
def _fled(e: Event) -> str:
    return f"{e['who']} flees the battlefield"


# -- magic (WB-MAGIC, WB-ATKSPELL, WB-DISPEL) ---------------------------------------------

_LEVEL_WORDS = {"base": "", "surge": " at Surge level",
                "surge-plain": " at Surge level (Surge Effect unused)"}


def _target_words(target: str) -> str:
    if target == "self":
        return "itself"
    if "," in target:
        return "(" + target.replace(",", ", ") + ")"
    return target


@_words("cast")
def _cast(e: Event) -> str:
    level = _LEVEL_WORDS.get(e["level"], f" ({e['level']})")
    return f"{e['who']} casts {e['spell']} at {_target_words(str(e['target']))}{level}"


@_words("spell_test")
def _spell_test(e: Event) -> str:
    if e["passed"]:
        return (f"{e['who']}'s {e['spell']} takes shape (Magic test {e['die']} against "
                f"{e['target']}, {e['dos']} degrees of success)")
    return f"{e['who']}'s {e['spell']} fizzles (Magic test {e['die']} against {e['target']})"


@_words("stress")
def _stress(e: Event) -> str:
    return f"{e['who']} gains {e['gained']} Stress from {e['why']} ({e['stress']} in all)"


@_words("dispel")
def _dispel(e: Event) -> str:
    if e["passed"]:
        return f"{e['who']} dispels {e['caster']}'s {e['spell']}"
    return f"{e['who']} fails to dispel {e['caster']}'s {e['spell']}"


@_words("spell_area")
def _spell_area(e: Event) -> str:
    if e["kind"] == "wind":
        squares = f"{e['radius']} square{'s' if e['radius'] != 1 else ''}"
        return f"{e['who']}'s {e['spell']} blows toward {_sq(e['at'])} across {squares}"
    what = "a vortex" if e["kind"] == "vortex" else "a bombardment"
    return (f"{e['who']}'s {e['spell']} strikes as {what} at {_sq(e['at'])} "
            f"(radius {e['radius']})")


@_words("spell_heal")
def _spell_heal(e: Event) -> str:
    return f"{e['spell']} heals {e['who']} of {e['healed']} wound(s), {e['left']} now"


@_words("spell_effect")
def _spell_effect(e: Event) -> str:
    turns = f"{e['turns']} turn{'s' if e['turns'] != 1 else ''}"
    return f"{e['spell']} changes {e['who']}'s {e['score']} by {e['by']:+d} for {turns}"


@_words("teleport")
def _teleport(e: Event) -> str:
    return f"{e['who']} vanishes from {_sq(e['start'])} and appears at {_sq(e['to'])}"


@_words("vortex_moves")
def _vortex_moves(e: Event) -> str:
    where = _sq(e["to"]) if e["to"] else "the edge of the map"
    squares = f"{e['squares']} square{'s' if e['squares'] != 1 else ''}"
    return (f"The vortex of {e['spell']} drifts {e['direction']} {squares} "
            f"from {_sq(e['start'])} to {where}")


@_words("vortex_leaves")
def _vortex_leaves(e: Event) -> str:
    return f"The vortex of {e['spell']} at {_sq(e['at'])} is gone ({e['why']})"


def _incident_detail(e: Event) -> str:
    result = e["result"]
    if result == "enmity":
        return f": Hatred of {e['target']} and {e['warband']}" if e.get("target") else \
            ": Hatred (no known foe)"
    if result == "major_wound":
        return f": starts encounters on 0 Wounds for {e['major_cycles']} Cycle(s)"
    if result == "robbed":
        lost = ", ".join(p["name"] for p in e["lost"]) or "nothing to lose"
        return f" (rolled {e['count']}): loses {lost}"
    if result == "limb_injury":
        return f": {e['limb']}"
    if result in ("captured", "dead"):
        if e["won"]:
            return f"; its warband keeps its equipment ({e['equipment']})"
        taker = e["taken_by"] or "nobody (a draw)"
        return f"; its equipment is taken (winner: {taker})"
    if result == "retired":
        return "; its equipment is lost"
    if e.get("long_term"):
        return " (Long Term: two Cycles)"
    return ""


@_words("incident")
def _incident(e: Event) -> str:
    from warhost.rulesets.warband.incidents import TITLES

    if e["result"] == "fate_burned":
        seen = f" instead of keeping {TITLES[e['discarded']]}" if e.get("discarded") else ""
        return f"{e['who']} burns a Fate Point{seen}: no lasting effect ({e['fate_left']} left)"
    rolls = ", ".join(str(r) for r in e["rolls"])
    table = {"minion": "recovery", "incident": "Incident table",
             "severe": "Severe Incident table"}[e["table"]]
    return (f"{e['who']} after the battle, {table} (rolled {rolls}): "
            f"{TITLES[e['result']]}{_incident_detail(e)}")


# ------------------------------------------------ Utility Phase, Climb and Jump (wbutil)


@_words("brace")
def _brace(e: Event) -> str:
    return f"{e['who']} braces against a charge"


@_words("disengage")
def _disengage(e: Event) -> str:
    return f"{e['who']} disengages from {_sq(e['start'])} to {_sq(e['to'])}"


@_words("encourage")
def _encourage(e: Event) -> str:
    if not e["passed"]:
        return f"{e['who']} tries to encourage its allies, to no effect"
    return (f"{e['who']} encourages its allies: +{e['bonus']} to the Morale tests this turn "
            "of every ally that sees or hears it")


@_words("rally")
def _rally(e: Event) -> str:
    return f"{e['who']} rallies" if e["passed"] else f"{e['who']} fails to rally"


@_words("rotate")
def _rotate(e: Event) -> str:
    return f"{e['who']} turns to face {e['facing']}"


@_words("swap")
def _swap(e: Event) -> str:
    return f"{e['who']} takes off {', '.join(e['removed'])} (Armour now {e['armour']})"


@_words("use_item")
def _use_item(e: Event) -> str:
    on = "itself" if e["target"] == e["who"] else e["target"]
    parts = []
    if e["healed"]:
        parts.append(f"heals {e['healed']} wound(s)")
    if e["score"] and e["by"]:
        parts.append(f"{e['score']} {e['by']:+d} for {e['turns']} turn(s)")
    effect = ": " + ", ".join(parts) if parts else ""
    return f"{e['who']} uses {e['item']} on {on}{effect}"


@_words("climb")
def _climb(e: Event) -> str:
    way = "up" if e["height"] > 0 else "down"
    if e["passed"]:
        return f"{e['who']} climbs {way} {abs(e['height'])} squares to {_sq(e['to'])}"
    fell = " and falls" if e["fell"] else ""
    return f"{e['who']} fails to climb {way} to {_sq(e['to'])} ({e['dof']} DoF){fell}"


@_words("jump")
def _jump(e: Event) -> str:
    if e["to"] == e["aim"]:
        return f"{e['who']} jumps {e['distance']} squares to {_sq(e['to'])}"
    return (f"{e['who']} jumps for {_sq(e['aim'])} but covers only {e['covered']} of "
            f"{e['distance']} squares, landing at {_sq(e['to'])}")
