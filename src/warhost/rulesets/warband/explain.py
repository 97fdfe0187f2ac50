"""Why an order is refused in `warband`, with the rule that forbids it (the ruleset's
explanation hook).

The engine calls :func:`explain_refusal` only for an order that is not a legal answer, so
nothing here is on the hot path. Reasons come from the functions that decide legality (the
movement search, :func:`movement.charge_path`, :func:`combat.in_reach`, :func:`combat.can_see`,
:func:`combat.weapon_limit`, :func:`utility.disengage_squares`, :func:`magic.targets_of`,
:func:`climbing.jump_path` ...), run again on what the order asks for, never from a second copy
of a rule. Where no rule can be named the answer is None and the engine's generic reason is
used.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from warhost.core.decisions import Decision, Refusal, did_you_mean
from warhost.core.orders import Order
from warhost.geometry.grid import Square, chebyshev, chebyshev3
from warhost.rulesets.warband import climbing, combat, magic, movement, utility
from warhost.rulesets.warband.model import Spell, Weapon
from warhost.rulesets.warband.state import (
    FACING_ORDER,
    KNOCKED_DOWN,
    STUNNED,
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
    out_of_step = _out_of_phase(decision, order)
    if out_of_step is not None:
        return out_of_step
    explain = _BY_KIND.get(decision.kind)
    return explain(state, decision, order) if explain is not None else None


PHASE_ORDERS = {
    "utility": ("brace", "disengage", "encourage", "rally", "rotate", "swap", "use",
                "use-utility"),
    "movement": ("move", "sprint", "charge", "climb", "jump", "prone", "stand", "stay",
                 "stay-down"),
    "ranged": ("shoot", "volley", "stand-shoot", "wave"),
    "melee": ("attack",),
}
"""The actions of each phase's decision (WB-UTIL-02, WB-MOVE-02, WB-RANGED-02, WB-MELEE-04)."""


def _out_of_phase(decision: Decision, order: Order) -> Refusal | None:
    """An action of another phase given to a phase's decision: name the phase it belongs to
    (WB-TURN-01: the phases come in a fixed order)."""
    if decision.kind not in PHASE_ORDERS or order.kind in PHASE_ORDERS[decision.kind]:
        return None
    for phase, kinds in PHASE_ORDERS.items():
        if order.kind in kinds:
            return Refusal(f"{order.kind} is a {phase.capitalize()} Phase action; this is the "
                           f"{decision.kind.capitalize()} Phase", "WB-TURN-01")
    return None


# --------------------------------------------------------------------------- small helpers


def _sq(sq: Square) -> str:
    return f"{sq[0]},{sq[1]}"


def _character(state: WarbandState, name: str) -> Character | Refusal:
    """The character called ``name``, or a refusal with the nearest id."""
    found = state.chars.get(name)
    if found is None:
        live = [c.id for c in state.chars.values() if c.on_map]
        return Refusal(f"there is no character {name!r}{did_you_mean(name, live)}")
    return found


def _square(order: Order) -> Square | Refusal:
    if len(order.args) != 2 or any(type(a) is not int for a in order.args):
        return Refusal(f"{order.kind} needs two numbers, x and y ({order.kind} X Y)")
    return (int(order.args[0]), int(order.args[1]))


def _map_square(state: WarbandState, order: Order) -> Square | Refusal:
    """The order's ``X Y`` square, refused if malformed or off the map."""
    sq = _square(order)
    if isinstance(sq, Refusal):
        return sq
    off = _on_map(state, sq)
    return sq if off is None else off


def _destination(state: WarbandState, char: Character, order: Order) -> Square | Refusal:
    """:func:`_map_square`, refused too when it is the square the character stands on."""
    sq = _map_square(state, order)
    if not isinstance(sq, Refusal) and sq == char.square:
        return Refusal(f"{char.label} already stands on {_sq(sq)}; use stay")
    return sq


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
    sq = _map_square(state, order)
    if isinstance(sq, Refusal):
        return sq
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
    if kind == "cast":
        return _cast(state, char, order, "movement")
    if char.condition == KNOCKED_DOWN and kind in ("move", "sprint", "charge", "prone",
                                                   "stay", "climb", "jump"):
        return Refusal(f"{char.label} is Knocked down: its Movement action can only stand it "
                       "up (stand) or be skipped (stay-down)", "WB-INJURY-04")
    if kind in ("stand", "stay-down") and char.condition != KNOCKED_DOWN:
        return Refusal(f"{char.label} is not Knocked down; use stay or prone instead")
    if kind in ("move", "sprint", "charge", "climb", "jump") and char.braced:
        return Refusal(f"{char.label} Braced this turn and cannot move", "WB-UTIL-07")
    if kind in ("move", "sprint"):
        return _move(state, char, order)
    if kind == "climb":
        return _climb(state, char, order)
    if kind == "jump":
        return _jump(state, char, order)
    if kind == "charge":
        return _charge(state, char, order)
    if kind in ("stay", "prone") and order.args:
        return Refusal(f"{kind} takes nothing after it")
    return None


def _move(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    assert char.square is not None
    sq = _destination(state, char, order)
    if isinstance(sq, Refusal):
        return sq
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
    loose._owners = None  # rebuilt from the allies alone
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
    return Refusal(f"{char.label} has no {what} weapon {name!r}{did_you_mean(name, names)} "
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
    if order.kind == "cast":
        return _cast(state, char, order, "ranged")
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
    if order.kind == "cast":
        return _cast(state, char, order, "melee")
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


# --------------------------------------------------------------------------- climb, jump


def _climb(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    assert char.square is not None
    if len(order.args) not in (2, 3) or any(type(a) is not int for a in order.args[:2]):
        return Refusal("climb needs the square, and on a surface that lets the climber choose "
                       "the score (climb X Y [strength|agility])")
    sq = (int(order.args[0]), int(order.args[1]))
    off = _on_map(state, sq)
    if off is not None:
        return off
    if chebyshev(char.square, sq) != 1:
        return Refusal(f"{_sq(sq)} is not next to {char.label}: a Climb goes to a "
                       "neighbouring square", "WB-AMB-17")
    if not climbing.landable(state, sq):
        other = state.occupant(sq)
        what = f"taken by {other.id}" if other is not None else (
            f"{state.grid.terrain(sq)} terrain")
        return Refusal(f"{_sq(sq)} is {what}", "WB-AMB-03")
    surface = climbing.climb_surface(state, char.square, sq)
    if surface is None:
        return Refusal(f"there is no climbable surface between {_sq(char.square)} and "
                       f"{_sq(sq)}", "WB-AMB-17")
    height = abs(state.level(sq) - state.level(char.square))
    limit = climbing.climb_limit(char)
    if height > limit:
        less = ", less 1 after Disengage" if char.disengaged else ""
        return Refusal(f"{_sq(sq)} is {height} squares up or down; {char.label} climbs at "
                       f"most {limit} (half its Agility {char.score('agility')}, rounded "
                       f"down{less})", "WB-MOVE-10")
    scores = climbing.CLIMB_SCORES
    if surface[0] == "either" and (len(order.args) != 3 or order.args[2] not in scores):
        return Refusal(f"this surface takes a Strength or an Agility test: climb {sq[0]} "
                       f"{sq[1]} strength, or climb {sq[0]} {sq[1]} agility", "WB-AMB-17")
    if surface[0] != "either" and len(order.args) == 3:
        return Refusal(f"the surface sets the test; write climb {sq[0]} {sq[1]}",
                       "WB-AMB-17")
    return None


def _jump(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    assert char.square is not None
    sq = _destination(state, char, order)
    if isinstance(sq, Refusal):
        return sq
    if not climbing.landable(state, sq):
        other = state.occupant(sq)
        what = f"taken by {other.id}" if other is not None else (
            f"{state.grid.terrain(sq)} terrain")
        return Refusal(f"{_sq(sq)} is {what}: a Jump must land on a free square",
                       "WB-AMB-03")
    distance = chebyshev3(char.square, sq, state.grid)
    limit = climbing.jump_limit(char)
    if distance > limit:
        less = ", less 1 after Disengage" if char.disengaged else ""
        return Refusal(f"{_sq(sq)} is {distance} squares away counting height; "
                       f"{char.label} jumps at most {limit} (Agility "
                       f"{char.score('agility')}{less})", "WB-MOVE-14")
    if climbing.jump_path(state, char, sq) is None:
        return Refusal(f"the way to {_sq(sq)} is shut: a blocking square, ground higher than "
                       "both ends, or an enemy lies on the line", "WB-AMB-18")
    return None


# --------------------------------------------------------------------------- Utility


def _utility(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    char = _subject(state, decision)
    if char is None or char.square is None:
        return None
    kind = order.kind
    if kind == "done":
        return Refusal("done takes nothing after it") if order.args else None
    if char.routing and kind != "rally":
        return Refusal(f"{char.label} is Routing: its only Utility action is rally",
                       "WB-UTIL-23")
    if kind == "cast":
        if utility.SPELL in char.utility_done:
            return Refusal(f"{char.label} has already cast a Utility Spell this phase",
                           "WB-UTIL-22")
        return _cast(state, char, order, "utility")
    explain = _UTILITY.get(kind)
    if explain is None:
        return None
    if kind in char.utility_done:
        return Refusal(f"{char.label} has already taken {kind} this turn", "WB-UTIL-04")
    return explain(state, char, order)


def _no_args(kind: str, order: Order) -> Refusal | None:
    return Refusal(f"{kind} takes nothing after it") if order.args else None


def _brace(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    if "brace" not in char.talents:
        return Refusal(f"{char.label} has no talent that allows Bracing", "WB-UTIL-06")
    return _no_args("brace", order)


def _disengage(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    sq = _square(order)
    if isinstance(sq, Refusal):
        return sq
    if char.braced:
        return Refusal(f"{char.label} Braced this turn and cannot move", "WB-UTIL-07")
    if char.condition == KNOCKED_DOWN:
        return Refusal(f"{char.label} is Knocked down and cannot move", "WB-INJURY-04")
    if not state.engaged(char):
        return Refusal(f"{char.label} is not Engaged in Melee", "WB-UTIL-09")
    if sq in utility.disengage_squares(state, char):
        return None
    assert char.square is not None
    off = _on_map(state, sq)
    if off is not None:
        return off
    other = state.occupant(sq)
    if chebyshev(char.square, sq) != 1:
        why = "is not next to " + char.label
    elif other is not None:
        why = f"is taken by {other.id}"
    else:
        close = [o.id for o in state.neighbours_of(char)
                 if o.on_map and o.square is not None and state.hostile(char, o)
                 and chebyshev(o.square, sq) < 2]
        why = (f"is next to {', '.join(sorted(close))}" if close
               else "cannot be stepped to (impassable ground or a step too high)")
    shown = " ".join(_sq(s) for s in utility.disengage_squares(state, char)) or "none"
    return Refusal(f"{_sq(sq)} {why}: a Disengage ends on a free neighbouring square 2 or "
                   f"more squares from every adjacent enemy (open: {shown})", "WB-AMB-11")


def _rally(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    if not char.routing:
        return Refusal(f"{char.label} is not Routing", "WB-UTIL-15")
    if not utility.rally_allowed(state, char):
        return Refusal(f"the nearest other character to {char.label} is an enemy (ruling "
                       "WB-AMB-13)", "WB-UTIL-16")
    return _no_args("rally", order)


def _rotate(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    wanted = str(order.args[0]) if order.args else ""
    if len(order.args) != 1 or wanted not in FACING_ORDER:
        hint = f"; write it in capitals: rotate {wanted.upper()}" if (
            len(order.args) == 1 and wanted.upper() in FACING_ORDER) else ""
        return Refusal(f"rotate needs one of the eight facings: {' '.join(FACING_ORDER)}"
                       f"{hint}", "WB-TURN-03")
    if wanted == char.facing:
        return Refusal(f"{char.label} already faces {wanted}")
    return None


def _swap(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    names = [order_word(a.name) for a in char.armour]
    if not order.args:
        shown = ", ".join(names) or "none"
        return Refusal(f"swap needs the armour pieces to take off (swap PIECE ...; worn: "
                       f"{shown})")
    asked = [str(a) for a in order.args]
    for name in asked:
        if name not in names:
            return Refusal(f"{char.label} wears no armour {name!r}"
                           f"{did_you_mean(name, names)}; armour is never put on",
                           "WB-UTIL-20")
    if len(set(asked)) != len(asked):
        return Refusal("name each piece of armour once")
    return None


def _use(state: WarbandState, char: Character, order: Order) -> Refusal | None:
    kind, verb = ("consumable", "use") if order.kind == "use" else ("utility", "use-utility")
    if len(order.args) != 2:
        return Refusal(f"{verb} needs an item and who it is for ({verb} ITEM NAME)")
    name, who = str(order.args[0]), str(order.args[1])
    owned = [i for i in char.items if i.kind == kind]
    names = [order_word(i.name) for i in owned]
    if name not in names:
        other = [order_word(i.name) for i in char.items if i.kind != kind]
        if name in other:
            right = "use-utility" if verb == "use" else "use"
            return Refusal(f"{name} is not a {kind} item; write {right} {name} {who}",
                           "WB-AMB-10")
        return Refusal(f"{char.label} has no {kind} item {name!r}"
                       f"{did_you_mean(name, names)} ({kind} items: "
                       f"{', '.join(names) or 'none'})")
    if name not in [order_word(i.name) for i in utility.usable_items(char, kind)]:
        return Refusal(f"{char.label} has no uses of {name} left", "WB-UTIL-21")
    target = _character(state, who)
    if isinstance(target, Refusal):
        return target
    allowed = [t.id for t in utility.item_targets(state, char)]
    if target.id not in allowed:
        return Refusal(f"{target.id} is neither {char.label} nor an ally next to it (may "
                       f"take it: {', '.join(allowed)})", "WB-UTIL-21")
    return None


UtilityExplainer = Callable[[WarbandState, Character, Order], "Refusal | None"]

_UTILITY: dict[str, UtilityExplainer] = {
    "brace": _brace,
    "disengage": _disengage,
    "encourage": lambda state, char, order: _no_args("encourage", order),
    "rally": _rally,
    "rotate": _rotate,
    "swap": _swap,
    "use": _use,
    "use-utility": _use,
}


# --------------------------------------------------------------------------- spells


def _known_spell(state: WarbandState, char: Character, key: str) -> Spell | Refusal:
    """The spell ``key`` names, if it exists in the scenario; unknown: a did-you-mean."""
    mine = {magic.spell_key(s): s for s in char.spells}
    if key in mine:
        return mine[key]
    every = {magic.spell_key(s): s for s in state.spells.values()}
    if key in every:
        return Refusal(f"{char.label} does not know {every[key].name}", "WB-MAGIC-04")
    return Refusal(f"there is no spell {key!r}{did_you_mean(key, [*mine, *every])}")


def _cast(state: WarbandState, char: Character, order: Order, phase: str) -> Refusal | None:
    """Why ``cast SPELL TARGET LEVEL`` is refused in ``phase``, from the checks of
    :func:`magic.spell_options` and :func:`magic.targets_of`."""
    if len(order.args) != 3:
        return Refusal("cast needs a spell, a target and a level "
                       "(cast SPELL NAME|X,Y|self base|surge|surge-plain)")
    spell = _known_spell(state, char, str(order.args[0]))
    if isinstance(spell, Refusal):
        return spell
    if not char.is_mage:
        return Refusal(f"{char.label} has Magic {char.score('magic')}: not a Mage",
                       "WB-MAGIC-04")
    if char.routing:
        return Refusal(f"{char.label} is Routing and casts no spells", "WB-AMB-47")
    if char.condition == STUNNED:
        return Refusal(f"{char.label} is Stunned and can do nothing", "WB-AMB-42")
    if spell.phase == "non_combat":
        return Refusal(f"{spell.name} is a Non-Combat Spell", "WB-SPELL-03")
    if spell.phase != phase:
        return Refusal(f"{spell.name} is a {spell.phase.title()} Phase spell, not "
                       f"{phase.title()}", "WB-MAGIC-05")
    if magic.surge_locked(state, char, phase):
        return Refusal(f"{char.label} Surged and casts nothing until the "
                       f"{char.surge_lock[1] if char.surge_lock else phase} Phase of turn "
                       f"{char.surge_lock[0] if char.surge_lock else state.turn}",
                       "WB-MAGIC-13")
    if phase in ("ranged", "melee") and char.sprinted:
        return Refusal(f"{char.label} Sprinted this turn and may make no attacks",
                       "WB-MOVE-24")
    if phase in ("ranged", "melee") and char.attacks_left <= 0:
        return Refusal(f"{char.label} has no Attacks left this turn, and each "
                       f"{phase.title()} Spell uses one",
                       "WB-RANGED-05" if phase == "ranged" else "WB-MELEE-06")
    level = str(order.args[2])
    if level not in magic.LEVELS:
        return Refusal(f"the level is one of {', '.join(magic.LEVELS)}, not {level!r}")
    if level != "base" and char.spells_tried > 0:
        return Refusal(f"{char.label} has already cast a spell this turn: Surge is only for "
                       "the first (ruling WB-AMB-60)", "WB-MAGIC-10")
    if level == "surge" and spell.surge is None:
        return Refusal(f"{spell.name} has no Surge Effect; cast it surge-plain",
                       "WB-MAGIC-11")
    if phase == "ranged" and state.engaged(char) and not spell.melee_safe:
        return Refusal(f"{char.label} is Engaged in Melee and {spell.name} is not "
                       "Melee-Safe", "WB-RANGED-03")
    if spell.effect.teleport and phase == "movement":
        if char.condition == KNOCKED_DOWN:
            return Refusal(f"{char.label} is Knocked down and cannot move", "WB-INJURY-04")
        if char.braced:
            return Refusal(f"{char.label} Braced this turn and cannot move", "WB-UTIL-07")
    return _spell_target(state, char, spell, str(order.args[1]))


def _spell_target(state: WarbandState, char: Character, spell: Spell, text: str
                  ) -> Refusal | None:
    assert char.square is not None
    legal = magic.targets_of(state, char, spell)
    if text in legal:
        return None
    shown = ", ".join(legal[:8]) or "none"
    attack = spell.attack
    if attack is not None and attack.type == "ranged" and char.lying:
        return Refusal(f"{char.label} is Prone and makes no Ranged attacks", "WB-MOVE-20")
    if legal == ["self"]:
        return Refusal(f"{spell.name} is cast on self (cast {magic.spell_key(spell)} self "
                       "LEVEL)")
    reach = magic.spell_reach(spell)
    if "," in text and text not in state.chars:
        try:
            sq = magic.parse_square(text)
        except ValueError:
            return Refusal(f"{text!r} is not a square; write X,Y")
        distance = chebyshev(char.square, sq)
        if distance > reach:
            return Refusal(f"{_sq(sq)} is {distance} squares away; {spell.name} reaches "
                           f"{reach}", "WB-SPELL-05")
        return Refusal(f"{spell.name} is aimed at an enemy's square within its range "
                       f"(open: {shown})")
    if attack is not None and attack.type not in magic.CHARACTER_TYPES:
        return Refusal(f"{spell.name} is aimed at a square: cast {magic.spell_key(spell)} X,Y "
                       f"LEVEL (open: {shown})", "WB-ASK-17")
    target = _character(state, text)
    if isinstance(target, Refusal):
        return target
    if target.square is None or not target.on_map:
        return Refusal(f"{target.id} is no longer on the map", "WB-AMB-43")
    wants_ally = attack is None and spell.targets == "ally"
    if wants_ally and target.side != char.side:
        return Refusal(f"{spell.name} is cast on allies, and {target.id} is an enemy")
    if not wants_ally and not state.hostile(char, target):
        return Refusal(f"{spell.name} is cast at enemies, and {target.id} is on "
                       f"{char.label}'s side")
    distance = chebyshev(char.square, target.square)
    if distance > reach:
        return Refusal(f"{target.id} is {distance} squares away; {spell.name} reaches "
                       f"{reach}", "WB-SPELL-05")
    if not combat.can_see(state, char.square, target.square):
        return Refusal(f"{char.label} has no line of sight to {target.id}", "WB-AMB-04")
    return Refusal(f"{target.id} cannot be targeted by {spell.name} (open: {shown})")


def _cast_more(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    char = _subject(state, decision)
    if char is None or char.square is None or order.kind != "cast":
        return None
    keys = {magic.spell_key(s): s.phase for s in char.spells}
    phases = [keys[str(o.args[0])] for o in decision.options
              if o.kind == "cast" and str(o.args[0]) in keys]
    phase = phases[0] if phases else ("melee" if char.melee_done else "ranged")
    return _cast(state, char, order, phase)


def _spell_target_more(state: WarbandState, decision: Decision, order: Order
                       ) -> Refusal | None:
    if order.kind != "target":
        return None
    if len(order.args) != 1:
        return Refusal("target needs one name (target NAME), or done")
    name = str(order.args[0])
    target = _character(state, name)
    if isinstance(target, Refusal):
        return target
    char = _subject(state, decision)
    open_ = {str(o.args[0]) for o in decision.options if o.kind == "target"}
    if char is None or char.square is None:
        return None
    for spell in char.spells:
        if spell.count > 1 and open_ <= set(magic.targets_of(state, char, spell)):
            if target.id in magic.targets_of(state, char, spell):
                return Refusal(f"{target.id} is already a target of {spell.name}",
                               "WB-ASK-17")
            return _spell_target(state, char, spell, target.id)
    return None


def _dispel(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "dispel":
        return None
    if len(order.args) != 1:
        return Refusal("dispel needs the Mage who tries (dispel NAME), or no-dispel")
    mage = _character(state, str(order.args[0]))
    if isinstance(mage, Refusal):
        return mage
    if mage.side != decision.side:
        return Refusal(f"{mage.id} is not on {decision.side}'s side", "WB-AMB-64")
    if not mage.is_mage:
        return Refusal(f"{mage.id} is not a Mage", "WB-AMB-64")
    if not mage.active or mage.condition == STUNNED:
        return Refusal(f"{mage.id} is Incapacitated, Stunned, Routing or gone", "WB-AMB-64")
    if mage.dispelled_turn == state.turn:
        return Refusal(f"{mage.id} has already tried a Dispel this turn", "WB-DISPEL-10")
    caster = _subject(state, decision)
    if caster is not None and mage not in magic.dispellers(state, caster, decision.side):
        return Refusal(f"{mage.id} cannot see {caster.id} (option dispel_requires_los)",
                       "WB-AMB-64")
    return None


def _teleport(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    if order.kind != "teleport":
        return None
    char = _subject(state, decision)
    if char is None or char.square is None:
        parsed = _square(order)
        return parsed if isinstance(parsed, Refusal) else None
    sq = _map_square(state, order)
    if isinstance(sq, Refusal):
        return sq
    if not climbing.landable(state, sq):
        other = state.occupant(sq)
        what = f"taken by {other.id}" if other is not None else (
            f"{state.grid.terrain(sq)} terrain")
        return Refusal(f"{_sq(sq)} is {what}: a teleport ends on a free square", "WB-AMB-03")
    reach = max((chebyshev(char.square, (int(o.args[0]), int(o.args[1])))
                 for o in decision.options if o.kind == "teleport"), default=0)
    return Refusal(f"{_sq(sq)} is {chebyshev(char.square, sq)} squares away; the spell "
                   f"takes {char.label} at most {reach}", "WB-SPELL-05")


def _fate(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
    char = _subject(state, decision)
    if order.kind != "burn-fate" or char is None:
        return None
    if char.fate <= 0:
        return Refusal(f"{char.label} has no Fate Points left", "WB-INCIDENT-05")
    return Refusal("burn-fate takes nothing after it") if order.args else None


def _split(phase: str) -> Explainer:
    """``ranged_more`` / ``melee_more``: another target for the Attacks left (WB-AMB-26)."""

    def explain(state: WarbandState, decision: Decision, order: Order) -> Refusal | None:
        char = _subject(state, decision)
        if char is None or char.square is None or not order.args:
            return _ranged(state, decision, order) if phase == "ranged" else (
                _melee(state, decision, order))
        name = str(order.args[0])
        offered = {str(o.args[0]) for o in decision.options if o.args}
        if phase == "melee":
            legal = combat.melee_options(state, char)
        else:
            legal = [o for o in combat.ranged_options(state, char)
                     if o.kind in ("shoot", "volley")]
        if name not in offered and any(str(o.args[0]) == name for o in legal):
            return Refusal(f"{name} has already been struck in this action: the Attacks "
                           "left go at other targets", "WB-AMB-26")
        if order.kind in ("stand-shoot", "wave") and phase == "ranged":
            return Refusal(f"only shoot or volley carries on at another target, not "
                           f"{order.kind}", "WB-AMB-26")
        return _ranged(state, decision, order) if phase == "ranged" else (
            _melee(state, decision, order))

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
    "utility": _utility,
    "cast_more": _cast_more,
    "spell_target": _spell_target_more,
    "dispel": _dispel,
    "teleport": _teleport,
    "fate": _fate,
    "ranged_more": _split("ranged"),
    "melee_more": _split("melee"),
}
