"""Why an order is refused in `warband`, with the rule that forbids it (the ruleset's
explanation hook).

The engine calls :func:`explain_refusal` only for an order that is not a legal answer, so
nothing here is on the hot path. Reasons come from the functions that decide legality (the
movement search, :func:`movement.charge_path`, :func:`combat.in_reach`, :func:`combat.can_see`,
:func:`combat.weapon_limit` ...), run again on what the order asks for, never from a second
copy of a rule. Decision kinds this module does not know (Utility actions, spells, Dispels)
get None: the engine's generic reason is used.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Iterable

from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import Square, chebyshev
from warhost.rulesets.warband import combat, movement
from warhost.rulesets.warband.model import Weapon
from warhost.rulesets.warband.state import (
    FACING_ORDER,
    KNOCKED_DOWN,
    Character,
    WarbandState,
    order_word,
)

Explainer = Callable[[WarbandState, Decision, Order], "Refusal | None"]

SHOTS = ("shoot", "volley", "stand-shoot")


def explain_refusal(state: object, decision: Decision, order: Order) -> Refusal | None:
    """Why ``order`` does not answer ``decision`` (None: no rule to name; the engine's generic
    reason applies)."""
    if not isinstance(state, WarbandState):
        return None
    explain = _BY_KIND.get(decision.kind)
    return explain(state, decision, order) if explain is not None else None


# --------------------------------------------------------------------------- small helpers


def _sq(sq: Square) -> str:
    return f"{sq[0]},{sq[1]}"


def _did_you_mean(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.5)
    return f"; did you mean {close[0]}?" if close else ""


def _character(state: WarbandState, name: str) -> Character | Refusal:
    """The character called ``name``, or a refusal with the nearest id."""
    found = state.chars.get(name)
    if found is None:
        live = [c.id for c in state.chars.values() if c.on_map]
        return Refusal(f"there is no character {name!r}{_did_you_mean(name, live)}")
    return found


def _square(order: Order) -> Square | Refusal:
    if len(order.args) != 2 or any(type(a) is not int for a in order.args):
        return Refusal(f"{order.kind} needs two numbers, x and y ({order.kind} X Y)")
    return (int(order.args[0]), int(order.args[1]))


def _subject(state: WarbandState, decision: Decision) -> Character | None:
    return state.chars.get(decision.subject)


def _on_map(state: WarbandState, sq: Square) -> Refusal | None:
    grid = state.grid
    if not grid.contains(sq):
        return Refusal(f"{_sq(sq)} is off the {grid.width}x{grid.height} map", "WB-TURN-02")
    return None


def _enemy_target(state: WarbandState, char: Character, name: str) -> Character | Refusal:
    target = _character(state, name)
    if isinstance(target, Refusal):
        return target
    if target.side == char.side:
        return Refusal(f"{target.id} is on {char.label}'s own side; attacks go at enemies")
    if not target.on_map:
        return Refusal(f"{target.id} is no longer on the map", "WB-AMB-43")
    return target


# --------------------------------------------------------------------------- deployment


def _deploy(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "deploy":
        return None
    sq = _square(order)
    if isinstance(sq, Refusal):
        return sq
    off = _on_map(state, sq)
    if off is not None:
        return off
    other = state.occupant(sq)
    if other is not None:
        return Refusal(f"{_sq(sq)} is taken by {other.id}: one character per square",
                       "WB-DEPLOY-01")
    if not state.passable(sq):
        return Refusal(f"{_sq(sq)} is {state.grid.terrain(sq)} terrain, where no one may "
                       "stand", "WB-AMB-03")
    if decision.side == state.advantage:
        return Refusal(f"{_sq(sq)} is not within {state.options.advantage_deploy_distance} "
                       "squares of the other side's zone, or it touches an enemy",
                       "WB-DEPLOY-05")
    return Refusal(f"{_sq(sq)} is outside {decision.side}'s deployment zone", "WB-DEPLOY-06")


def _facing(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "face":
        return None
    wanted = str(order.args[0]) if order.args else ""
    if len(order.args) != 1 or wanted.upper() not in FACING_ORDER:
        return Refusal(f"face needs one of the eight facings: {' '.join(FACING_ORDER)}",
                       "WB-TURN-03")
    return Refusal(f"write the facing in capitals: face {wanted.upper()}")


# --------------------------------------------------------------------------- movement


def _movement(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    char = _subject(state, decision)
    if char is None or char.square is None:
        return None
    kind = order.kind
    if char.condition == KNOCKED_DOWN and kind in ("move", "sprint", "charge", "prone",
                                                   "stay"):
        return Refusal(f"{char.label} is Knocked down: its Movement action can only stand it "
                       "up (stand) or be skipped (stay-down)", "WB-INJURY-04")
    if kind in ("stand", "stay-down") and char.condition != KNOCKED_DOWN:
        return Refusal(f"{char.label} is not Knocked down; use stay or prone instead")
    if kind in ("move", "sprint", "charge") and char.braced:
        return Refusal(f"{char.label} Braced this turn and cannot move", "WB-UTIL-07")
    if kind in ("move", "sprint"):
        return _move(state, char, order)
    if kind == "charge":
        return _charge(state, char, order)
    if kind in ("stay", "prone") and order.args:
        return Refusal(f"{kind} takes nothing after it")
    return None


def _move(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    assert char.square is not None
    sq = _square(order)
    if isinstance(sq, Refusal):
        return sq
    off = _on_map(state, sq)
    if off is not None:
        return off
    if sq == char.square:
        return Refusal(f"{char.label} already stands on {_sq(sq)}; use stay")
    other = state.occupant(sq)
    if other is not None:
        return Refusal(f"{_sq(sq)} is taken by {other.id}: a move may not end on an occupied "
                       "square", "WB-AMB-03")
    if not state.passable(sq):
        return Refusal(f"{_sq(sq)} is {state.grid.terrain(sq)} terrain", "WB-AMB-03")
    times, rule = (1, "WB-MOVE-17") if order.kind == "move" else (3, "WB-MOVE-23")
    budget = movement.move_budget(char, times)
    far = state.grid.width + state.grid.height
    cost = _cost_to(state, char, sq, far)
    if cost is not None:
        how = "Agility" if times == 1 else "3 x Agility"
        less = ", less 1 after Disengage (WB-UTIL-11)" if char.disengaged else ""
        return Refusal(f"{_sq(sq)} is {cost} squares away; {char.label} may {order.kind} "
                       f"{budget} ({how} {char.score('agility')}{less})", rule)
    loose = copy.copy(state)
    loose.at = {s: cid for s, cid in state.at.items() if state.chars[cid].side == char.side}
    loose._owners = []  # rebuilt from the allies alone
    if _cost_to(loose, char, sq, far) is not None:
        return Refusal(f"enemies bar every way to {_sq(sq)}: no one moves through an enemy",
                       "WB-AMB-03")
    loose.options = state.options.model_copy(update={"max_step_height": 1000})
    if _cost_to(loose, char, sq, far) is not None:
        return Refusal(f"every way to {_sq(sq)} has a step of more than "
                       f"{state.options.max_step_height} up or down; climb or jump instead",
                       "WB-AMB-03")
    return Refusal(f"blocked or impassable terrain cuts {_sq(sq)} off", "WB-AMB-03")


def _cost_to(state: WarbandState, char: Character, sq: Square, budget: int) -> int | None:
    found = movement.destinations(state, char, budget)
    return found[sq][0] if sq in found else None


def _charge(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    assert char.square is not None
    if len(order.args) != 1:
        return Refusal("charge needs one name, the enemy charged (charge NAME)")
    target = _enemy_target(state, char, str(order.args[0]))
    if isinstance(target, Refusal):
        return target
    assert target.square is not None
    if "ethereal" in target.traits:
        return Refusal(f"{target.id} is Ethereal: a Charge ends in melee attacks that cannot "
                       "strike it", "WB-SPECIAL-05")
    distance = chebyshev(char.square, target.square)
    if distance <= 2:
        return Refusal(f"{target.id} is {distance} square{'s' if distance > 1 else ''} away: "
                       "a Charge must move at least 2 squares", "WB-MOVE-07")
    fast = copy.copy(char)
    fast.base = {**char.base, "agility": distance + 1}
    fast.disengaged = False
    path = movement.charge_path(state, fast, target)
    budget = movement.move_budget(char)
    if path is not None and len(path) > budget:
        return Refusal(f"the charge line to {target.id} needs {len(path)} squares and "
                       f"{char.label} charges at most {budget} (Agility)", "WB-AMB-14")
    return Refusal(f"the straight line to {target.id} is blocked (an occupied square, "
                   "impassable ground or a step too high), or it would not end Engaged",
                   "WB-AMB-14")


# --------------------------------------------------------------------------- attacks


def _cannot_attack(char: Character) -> Refusal | None:
    if char.sprinted:
        return Refusal(f"{char.label} Sprinted this turn and may make no attacks",
                       "WB-MOVE-24")
    if char.routing:
        return Refusal(f"{char.label} is Routing and cannot attack", "WB-MORALE-06")
    return None


def _weapon(char: Character, name: str, pool: list[Weapon], what: str) -> Weapon | Refusal:
    for w in pool:
        if order_word(w.name) == name:
            return w
    names = [order_word(w.name) for w in pool]
    shown = ", ".join(names) or "none"
    return Refusal(f"{char.label} has no {what} weapon {name!r}{_did_you_mean(name, names)} "
                   f"({what} weapons: {shown})")


def _count(text: object) -> int | Refusal:
    if type(text) is not int or text < 1:
        return Refusal(f"the number of attacks must be a whole number of at least 1, "
                       f"not {text!r}")
    return text


def _ranged(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    char = _subject(state, decision)
    if char is None or char.square is None:
        return None
    if order.kind == "attack":
        return Refusal("attack is a Melee Phase order; in the Ranged Phase shoot",
                       "WB-MELEE-04")
    if order.kind not in (*SHOTS, "wave"):
        return None
    stop = _cannot_attack(char)
    if stop is not None:
        return stop
    if char.lying:
        return Refusal(f"{char.label} is Prone and cannot make Ranged attacks", "WB-MOVE-20")
    if order.kind == "wave":
        return _wave(state, char, order)
    if len(order.args) < 3 or len(order.args) % 2 == 0:
        return Refusal(f"{order.kind} needs a target, then weapon and number pairs "
                       f"({order.kind} NAME WEAPON N ...)")
    target = _enemy_target(state, char, str(order.args[0]))
    if isinstance(target, Refusal):
        return target
    assert target.square is not None
    if order.kind == "stand-shoot":
        if not char.stand_and_shoot_ok:
            return Refusal(f"{char.label} was not charged before its own movement this turn",
                           "WB-RANGED-07")
        if target.id not in char.chargers:
            return Refusal(f"{target.id} did not charge {char.label} this turn",
                           "WB-RANGED-10")
    volley = order.kind == "volley"
    total = 0
    engaged = state.engaged(char)
    for name, n in zip(order.args[1::2], order.args[2::2]):
        weapon = _weapon(char, str(name), char.ranged_weapons(), "ranged")
        if isinstance(weapon, Refusal):
            return weapon
        count = _count(n)
        if isinstance(count, Refusal):
            return count
        total += count
        problem = _shot_problem(state, char, target, weapon, volley,
                                engaged and order.kind != "stand-shoot")
        if problem is not None:
            return problem
        limit = combat.weapon_limit(char, weapon)
        if count > limit:
            return Refusal(f"{count} shots with {weapon.name}: at most {limit}, the lower of "
                           f"its Attack Limit {weapon.attack_limit or 1} and the "
                           f"{char.attacks_left} Attacks left", "WB-ATTACK-15")
    if total > char.attacks_left:
        return Refusal(f"{total} attacks, but {char.label} has {char.attacks_left} Attacks "
                       "left this turn", "WB-ATTACK-16")
    return None


def _shot_problem(state: WarbandState, char: Character, target: Character, weapon: Weapon,
                  volley: bool, engaged: bool) -> Refusal | None:
    assert char.square is not None and target.square is not None
    if engaged and not weapon.melee_safe:
        return Refusal(f"{char.label} is Engaged in Melee and {weapon.name} is not "
                       "Melee-Safe", "WB-RANGED-03")
    if "ethereal" in target.traits and not weapon.magic:
        return Refusal(f"{target.id} is Ethereal and {weapon.name} is not Magic",
                       "WB-SPECIAL-05")
    distance = chebyshev(char.square, target.square)
    reach = weapon.range or 0
    if distance > reach:
        return Refusal(f"{target.id} is {distance} squares away; {weapon.name} reaches "
                       f"{reach}", "WB-ATTACK-02")
    sees = combat.can_see(state, char.square, target.square)
    if volley and not weapon.volley:
        return Refusal(f"{weapon.name} cannot shoot a Volley", "WB-CIRC-19")
    if volley and sees:
        return Refusal(f"{char.label} can see {target.id}: a Volley is for shooting over "
                       "obstacles; shoot instead", "WB-CIRC-19")
    if not volley and not sees:
        return Refusal(f"{char.label} has no line of sight to {target.id}", "WB-AMB-04")
    return None


def _wave(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    if len(order.args) != 3:
        return Refusal("wave needs the aim square and the weapon (wave X Y WEAPON)")
    weapon = _weapon(char, str(order.args[2]), [w for w in char.ranged_weapons() if w.wave],
                     "Wave")
    if isinstance(weapon, Refusal):
        return weapon
    if state.engaged(char) and not weapon.melee_safe:
        return Refusal(f"{char.label} is Engaged in Melee and {weapon.name} is not "
                       "Melee-Safe", "WB-RANGED-03")
    return Refusal("aim a Wave at an enemy within its range", "WB-SPECIAL-02")


def _melee(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    char = _subject(state, decision)
    if char is None or char.square is None:
        return None
    if order.kind in (*SHOTS, "wave"):
        return Refusal(f"{order.kind} is a Ranged Phase order; in the Melee Phase attack",
                       "WB-RANGED-02")
    if order.kind != "attack":
        return None
    stop = _cannot_attack(char)
    if stop is not None:
        return stop
    if len(order.args) != 3:
        return Refusal("attack needs a target, a weapon and a number (attack NAME WEAPON N)")
    target = _enemy_target(state, char, str(order.args[0]))
    if isinstance(target, Refusal):
        return target
    weapon = _weapon(char, str(order.args[1]),
                     char.melee_weapons(state.options.unarmed_attacks), "melee")
    if isinstance(weapon, Refusal):
        return weapon
    count = _count(order.args[2])
    if isinstance(count, Refusal):
        return count
    if "ethereal" in target.traits and not weapon.magic:
        return Refusal(f"{target.id} is Ethereal and {weapon.name} is not Magic",
                       "WB-SPECIAL-05")
    if not combat.in_reach(state, char, target, weapon):
        assert char.square is not None and target.square is not None
        distance = chebyshev(char.square, target.square)
        rise = abs(state.level(char.square) - state.level(target.square))
        why = (f"{rise} levels apart (at most 1)" if distance <= weapon.reach else
               f"{distance} squares away and {weapon.name} reaches {weapon.reach}")
        return Refusal(f"{target.id} is not within reach: {why}", "WB-ATTACK-01")
    if count > char.attacks_left:
        return Refusal(f"{count} attacks, but {char.label} has {char.attacks_left} Attacks "
                       "left this turn", "WB-ATTACK-16")
    limit = combat.weapon_limit(char, weapon)
    if count > limit:
        return Refusal(f"{count} attacks with {weapon.name}: its Attack Limit is "
                       f"{weapon.attack_limit}", "WB-ATTACK-15")
    return None


def _opportunity(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "opportunity":
        return None
    char = _subject(state, decision)
    if char is None:
        return None
    if len(order.args) != 2:
        return Refusal("opportunity needs the mover and a weapon (opportunity NAME WEAPON), "
                       "or no-opportunity")
    mover = [str(o.args[0]) for o in decision.options if o.kind == "opportunity"]
    if mover and str(order.args[0]) != mover[0]:
        return Refusal(f"the Attack of Opportunity is against {mover[0]}, the character "
                       "leaving", "WB-CIRC-13")
    weapon = _weapon(char, str(order.args[1]),
                     char.melee_weapons(state.options.unarmed_attacks), "melee")
    return weapon if isinstance(weapon, Refusal) else None


def _listed_square(kind: str, rule: str, why: str) -> Explainer:
    def explain(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
        if order.kind != kind:
            return None
        sq = _square(order)
        if isinstance(sq, Refusal):
            return sq
        shown = " ".join(_sq((int(o.args[0]), int(o.args[1]))) for o in decision.options)
        return Refusal(f"{_sq(sq)} is not {why} (choose one of {shown})", rule)

    return explain


_BY_KIND: dict[str, Explainer] = {
    "deploy": _deploy,
    "facing": _facing,
    "movement": _movement,
    "opportunity": _opportunity,
    "ranged": _ranged,
    "melee": _melee,
    "fall_square": _listed_square("fall", "WB-AMB-20",
                                  "one of the lowest free squares below the edge"),
    "flee": _listed_square("flee", "WB-AMB-47",
                           "one of the reachable squares farthest from the nearest visible "
                           "enemy"),
}
