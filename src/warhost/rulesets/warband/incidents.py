"""After the battle: Incapacitated Incidents, the Severe Incident table, Minion recovery and
Fate (WB-INJURY-14, WB-INCIDENT, WB-SEVERE, WB-ASK-19; rulings WB-AMB-49 to 53).

:func:`after_battle` runs once, when the battle is over. Every Incapacitated character may burn
a Fate Point (asked of its side, kind ``fate``), else rolls: a Minion for recovery, a Hero on
the Incident table (and perhaps the Severe one). Each result is one ``incident`` event whose
fields say everything a campaign record needs (:mod:`warhost.rulesets.warband.campaign` turns
them into lasting effects); outside a campaign the events are the whole report (WB-AMB-50).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warhost.core.battle import Battle
from warhost.core.orders import Order
from warhost.rulesets.warband.state import INCAPACITATED, Character, WarbandState

BURN = Order("burn-fate")
ROLL = Order("roll")

INCIDENTS: dict[int, str] = {
    1: "minor_injury", 2: "weakened", 3: "disorientated", 4: "hobbled", 5: "frightened",
    6: "fatigued", 7: "confused", 8: "humiliated", 9: "long_term", 10: "severe",
}
"""The Incident table (WB-INCIDENT-06)."""

SEVERE: dict[int, str] = {
    1: "from_the_fires", 2: "enmity", 3: "hardened", 4: "scarred", 5: "major_wound",
    6: "robbed", 7: "limb_injury", 8: "blinded", 9: "captured", 10: "dead",
}
"""The Severe Incident table (WB-SEVERE-01)."""

TITLES: dict[str, str] = {
    "minor_injury": "Minor Injury", "weakened": "Weakened", "disorientated": "Disorientated",
    "hobbled": "Hobbled", "frightened": "Frightened", "fatigued": "Fatigued",
    "confused": "Confused", "humiliated": "Humiliated", "from_the_fires": "From the Fires",
    "enmity": "Enmity", "hardened": "Hardened", "scarred": "Scarred",
    "major_wound": "Major Wound", "robbed": "Robbed", "limb_injury": "Limb Injury",
    "blinded": "Blinded", "captured": "Captured", "dead": "Dead", "recovers": "Recovers",
    "retired": "Never fights again", "fate_burned": "Fate Point burned",
}
"""How each result is named to people."""


def after_battle(state: WarbandState, battle: Battle) -> None:
    """Every Incapacitated character goes through the incident step (WB-INJURY-14,
    WB-INCIDENT-01), in scenario order; each result is kept in ``state.incidents``."""
    for char in state.chars.values():
        if char.condition != INCAPACITATED:
            continue
        result = incident(state, battle, char)
        result["campaign"] = state.options.campaign_mode  # off: reported only (WB-AMB-50)
        state.incidents.append(result)
        battle.emit("incident", **result)


def incident(state: WarbandState, battle: Battle, char: Character) -> dict[str, Any]:
    """One character's incident step: the Fate choice, then its roll(s) (WB-AMB-51)."""
    after = state.options.fate_burn_after_roll
    if char.fate > 0 and not after and _burns(battle, char, None):
        return _burned(char)
    result = minion_recovery(battle, char) if char.kind == "minion" else hero_incident(
        state, battle, char)
    if char.fate > 0 and after and _burns(battle, char, result):
        return _burned(char, discarded=result)
    if result["result"] == "from_the_fires":
        char.fate += 1  # WB-SEVERE-01 result 1
    return result


def _burns(battle: Battle, char: Character, seen: dict[str, Any] | None) -> bool:
    """Ask the character's side whether it burns a Fate Point (WB-ASK-19)."""
    shown = "" if seen is None else f" (rolled: {TITLES[seen['result']]})"
    order = battle.ask(char.side, "fate", (BURN, ROLL),
                       f"{char.label} is Incapacitated{shown}: burn a Fate Point "
                       f"({char.fate} left) or roll?", char.id, default=ROLL)
    return order == BURN


def _burned(char: Character, discarded: dict[str, Any] | None = None) -> dict[str, Any]:
    """Burn one Fate Point: no incident step and no lasting effect (WB-INCIDENT-05)."""
    char.fate -= 1
    out = _record(char, "fate", [], "fate_burned")
    out["fate_left"] = char.fate
    if discarded is not None:
        out["discarded"] = discarded["result"]
    return out


def _record(char: Character, table: str, rolls: list[int], result: str,
            cycles: int = 0, **details: Any) -> dict[str, Any]:
    return {"who": char.id, "side": char.side, "kind": char.kind, "table": table,
            "rolls": rolls, "result": result, "cycles": cycles, **details}


def _d10(battle: Battle, char: Character, why: str) -> int:
    return battle.dice.pool(1, 10, f"{why} ({char.id})", who=char.id)[0]


def minion_recovery(battle: Battle, char: Character) -> dict[str, Any]:
    """1d10: 1-8 ready at the next Cycle, 9-10 never fights again and its equipment is lost
    (WB-INCIDENT-02/03)."""
    roll = _d10(battle, char, "minion recovery")
    if roll <= 8:
        return _record(char, "minion", [roll], "recovers")
    return _record(char, "minion", [roll], "retired", lost=equipment(char))


def hero_incident(state: WarbandState, battle: Battle, char: Character) -> dict[str, Any]:
    """The Incident table, with Long Term rerolls (WB-INCIDENT-04/06/09/10, WB-AMB-52): a 9
    rerolls and whatever 1-8 follows lasts 2 Cycles; further 9s reroll again without
    extending; a 10 at any point goes to the Severe table."""
    rolls = [_d10(battle, char, "incident")]
    cycles = 1
    while rolls[-1] == 9:
        cycles = 2
        rolls.append(_d10(battle, char, "long term reroll"))
    last = rolls[-1]
    if last == 10:
        return severe_incident(state, battle, char, rolls)
    return _record(char, "incident", rolls, INCIDENTS[last], cycles,
                   long_term=cycles == 2)


def severe_incident(state: WarbandState, battle: Battle, char: Character,
                    rolls: list[int]) -> dict[str, Any]:
    """1d10 on the Severe Incident table and its own sub-rolls (WB-SEVERE-01 to 08)."""
    roll = _d10(battle, char, "severe incident")
    rolls = [*rolls, roll]
    name = SEVERE[roll]
    details: dict[str, Any] = {}
    if name == "enmity":  # WB-SEVERE-03, WB-AMB-53: who dealt the last confirmed wound
        foe = state.chars.get(char.last_hurt_by or "")
        details = {"target": None if foe is None else foe.id,
                   "warband": None if foe is None else foe.side}
    elif name == "major_wound":  # WB-SEVERE-04
        details = {"major_cycles": battle.dice.pool(1, 3, f"major wound ({char.id})",
                                                    who=char.id)[0]}
    elif name == "robbed":  # WB-SEVERE-05
        details = robbed(battle, char)
    elif name == "limb_injury":
        sub = _d10(battle, char, "limb injury")
        rolls.append(sub)
        details = {"limb": "leg" if sub <= 5 else "arm" if sub <= 9 else "amputation"}
    elif name in ("captured", "dead"):  # WB-SEVERE-07/08, WB-AMB-49
        details = equipment_fate(state, char, name)
    return _record(char, "severe", rolls, name, **details)


def equipment(char: Character) -> list[dict[str, str]]:
    """Every piece of equipment a character carries, weapons, armour and items."""
    return ([{"type": "weapon", "name": w.name} for w in char.weapons]
            + [{"type": "armour", "name": a.name} for a in char.armour]
            + [{"type": "item", "name": i.name} for i in char.items])


def robbed(battle: Battle, char: Character) -> dict[str, Any]:
    """Roll 1d6 and lose that many random non-Construct pieces, all of them if it has fewer
    (WB-SEVERE-05, WB-AMB-53); each pick is one die over the pieces left."""
    count = battle.dice.pool(1, 6, f"robbed ({char.id})", who=char.id)[0]
    pieces = [p for p in equipment(char)
              if not (p["type"] == "item" and _item_kind(char, p["name"]) == "construct")]
    if count >= len(pieces):
        return {"count": count, "lost": pieces}
    lost = []
    for _ in range(count):
        pick = battle.dice.pool(1, len(pieces), f"robbed item ({char.id})", who=char.id)[0]
        lost.append(pieces.pop(pick - 1))
    return {"count": count, "lost": lost}


def _item_kind(char: Character, name: str) -> str:
    return next((i.kind for i in char.items if i.name == name), "")


def equipment_fate(state: WarbandState, char: Character, name: str) -> dict[str, Any]:
    """Who keeps a Captured or Dead Hero's equipment (WB-SEVERE-07/08, WB-AMB-49): its own
    warband if that warband won, otherwise the winner (nobody's, in a draw)."""
    won = state.winner == char.side
    if won:
        return {"won": True, "equipment": "kept" if name == "captured" else "salvaged",
                "taken_by": None}
    return {"won": False, "equipment": "taken", "taken_by": state.winner,
            "lost": equipment(char)}


def severe_chance() -> Fraction:
    """P(a Hero's incident ends on the Severe table), from the table itself (WB-AMB-52): a
    first 10, or a first 9 followed by rerolls whose first non-9 face is 10."""
    face = Fraction(1, 10)
    nines = face * sum(1 for r in INCIDENTS if INCIDENTS[r] == "long_term")
    tens = face * sum(1 for r in INCIDENTS if INCIDENTS[r] == "severe")
    return tens + nines * tens / (1 - nines)
