"""Turns and phases of `warband` (WB-TURN-01, WB-AFTER, WB-AMB-49), and the outcome."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warhost.core.battle import Battle
from warhost.core.decisions import Acceptor
from warhost.core.orders import Order
from warhost.core.outcome import Outcome, UnitFate
from warhost.rulesets.warband import combat, incidents, magic, morale, movement, utility
from warhost.rulesets.warband.option_list import OrderList
from warhost.rulesets.warband.setup import roll_initiative
from warhost.rulesets.warband.state import (
    KNOCKED_DOWN,
    STUNNED,
    Character,
    WarbandState,
)

TURN_CAP = 100
"""Safety net when no ``turn_limit`` is set: the battle is then a draw on the count rule."""

NONE = Order("none")


def play(state: WarbandState, battle: Battle) -> None:
    """Turns until one warband (or none) is left, or the turn limit."""
    limit = state.options.turn_limit or TURN_CAP
    while not state.over:
        state.turn += 1
        start_turn(state, battle)
        state.phase = "utility"
        utility.utility_phase(state, battle)
        state.phase = "movement"
        movement_phase(state, battle)
        state.phase = "ranged"
        ranged_phase(state, battle)
        state.phase = "melee"
        melee_phase(state, battle)
        state.phase = "aftermath"
        aftermath(state, battle)
        for side in state.sides:
            battle.emit("score", side=side, total=score(state, side))
        check_end(state, battle, limit)
        battle.round_ended(state.turn)
    incidents.after_battle(state, battle)  # WB-INJURY-14: after the battle, not an Aftermath


def start_turn(state: WarbandState, battle: Battle) -> None:
    """Clear last turn's per-turn limits; a voluntary Prone ends (WB-MOVE-18, WB-AMB-23)."""
    battle.emit("round_start", round=state.turn)
    if state.turn > 1 and state.options.reroll_initiative_each_turn:
        roll_initiative(state, battle)
    for char in state.chars.values():
        char.reset_turn()
        if char.prone:
            char.prone = False
            battle.emit("prone_ends", who=char.id)


def acting(state: WarbandState) -> list[Character]:
    """Characters on the map in Initiative Order."""
    return [state.chars[cid] for cid in state.order if state.chars[cid].on_map]


def movement_phase(state: WarbandState, battle: Battle) -> None:
    """Each character in Initiative Order takes one Movement Phase action (WB-MOVE-01/02)."""
    for char in acting(state):
        if not char.on_map or char.moved or char.condition == STUNNED:
            continue  # WB-AMB-42: a Stunned character does nothing
        if char.routing and char.condition != KNOCKED_DOWN:
            char.moved = True
            morale.flee(state, battle, char)  # WB-MORALE-05
            continue  # a Knocked down Router may only get up (WB-AMB-41)
        options, paths = movement.movement_choices(state, char)
        options.extend(magic.spell_options(state, char, "movement"))
        order = ask_lazy(battle, char.side, "movement", options,
                         f"{char.label}: movement action?", char.id,
                         accept=movement.accept_movement(state, char, paths))
        if order.kind == "cast":
            char.moved = True
            magic.cast_order(state, battle, char, order)
        else:
            movement.take_movement(state, battle, char, order, paths)


def ask_lazy(battle: Battle, side: str, kind: str, options: Sequence[Order], prompt: str,
             subject: str, accept: Acceptor | None = None) -> Order:
    """Ask with options that are built (or, in an :class:`OrderList`, made when read); an
    order given as text is found through an index built the first time one is looked up."""
    index: dict[Order, int] = {}

    def locate(order: Order) -> int | None:
        if isinstance(options, OrderList):
            return options.locate(order)
        if not index:
            index.update((o, i) for i, o in reversed(list(enumerate(options))))
        return index.get(order)

    return battle.ask_lazy(side, kind, len(options), options.__getitem__, prompt, subject,
                           locate=locate, default_of=lambda: options[0], accept=accept)


def ranged_phase(state: WarbandState, battle: Battle) -> None:
    """Each character in Initiative Order may take one Ranged Phase action (WB-RANGED-01/02)."""
    attack_phase(state, battle, "ranged", acting(state))


def attack_phase(state: WarbandState, battle: Battle, phase: str,
                 chars: list[Character]) -> None:
    """The Ranged or Melee Phase: each of ``chars`` in turn may take one action of the phase,
    an attack or a spell action (WB-RANGED-02, WB-MELEE-04)."""
    options_of = combat.ranged_options if phase == "ranged" else combat.melee_options
    take = combat.take_ranged if phase == "ranged" else combat.take_melee
    for char in chars:
        if not combat.can_fight(char):
            continue
        options = options_of(state, char)
        options.extend(magic.spell_options(state, char, phase))
        if not options:
            continue
        options.insert(0, NONE)
        order = ask_lazy(battle, char.side, phase, options, f"{char.label}: {phase} action?",
                         char.id)
        if order.kind == "cast":
            magic.cast_order(state, battle, char, order)
        elif order != NONE:
            take(state, battle, char, order)
            if order.kind in ("shoot", "volley", "attack"):
                split_attacks(state, battle, char, phase, str(order.args[0]))


def melee_order(state: WarbandState) -> list[Character]:
    """Chargers that reached an unbraced target first, then the rest, each group in
    Initiative Order (WB-MELEE-02/03)."""
    chars = acting(state)
    first = [c for c in chars if c.charged is not None and not c.charge_braced]
    return first + [c for c in chars if c not in first]


def melee_phase(state: WarbandState, battle: Battle) -> None:
    """Each character may take one Melee Phase action (WB-MELEE-01 to 06)."""
    attack_phase(state, battle, "melee", melee_order(state))


def split_attacks(state: WarbandState, battle: Battle, char: Character, phase: str,
                  first: str) -> None:
    """With ``split_attacks_between_targets`` (WB-AMB-26), a character with Attacks left
    after its Shoot or Melee Attack may turn them on other targets, one more target at a
    time (decision ``ranged_more`` / ``melee_more``)."""
    if not state.options.split_attacks_between_targets:
        return
    struck = {first}
    while char.attacks_left > 0 and combat.can_fight(char):
        if phase == "melee":
            found = combat.melee_options(state, char)
        else:
            found = [o for o in combat.ranged_options(state, char)
                     if o.kind in ("shoot", "volley")]
        options = [o for o in found if str(o.args[0]) not in struck]
        if not options:
            return
        order = ask_lazy(battle, char.side, f"{phase}_more", [NONE, *options],
                         f"{char.label}: {char.attacks_left} Attacks left; another target?",
                         char.id)
        if order == NONE:
            return
        struck.add(str(order.args[0]))
        if phase == "melee":
            combat.take_melee(state, battle, char, order)
        else:
            combat.take_ranged(state, battle, char, order)


def aftermath(state: WarbandState, battle: Battle) -> None:
    """WB-AFTER-04: durations tick, Stunned characters recover to Knocked down, Morale tests
    with Rout moves, then the "this turn" effects end."""
    magic.aftermath_vortices(state, battle)
    for char in state.chars.values():
        if char.temp:
            for mod in char.temp:
                mod.turns -= 1  # WB-AFTER-01
            ended = [m for m in char.temp if m.turns <= 0]
            if ended:
                char.temp = [m for m in char.temp if m.turns > 0]
                battle.emit("effect_ends", who=char.id, effects=[m.source for m in ended])
    for char in state.chars.values():
        if char.condition == STUNNED and char.on_map and char.stunned_in_turn < state.turn:
            char.condition = KNOCKED_DOWN  # WB-INJURY-12, no edge test
            battle.emit("injury_state", who=char.id, state=KNOCKED_DOWN, why="stun wears off")
    morale.morale_tests(state, battle)
    for char in state.chars.values():
        char.reset_turn()  # step 4: charge, Brace, Sprint, Encourage and Rally end


def score(state: WarbandState, side: str) -> int:
    """Enemy characters Incapacitated or fled: what a side has achieved so far."""
    return sum(1 for c in state.chars.values() if c.side != side and not c.on_map)


def check_end(state: WarbandState, battle: Battle, limit: int) -> None:
    """WB-AMB-49: a side with nobody left neither Incapacitated, Routing nor gone is out; the
    last side left wins; if the last sides go together it is a draw. At the turn limit the
    side with most characters left wins (equal: draw)."""
    left = [s for s in state.sides if state.standing_count(s) > 0]
    if len(left) <= 1:
        state.over = True
        state.winner = left[0] if left else None
        state.reason = "the other warbands are gone" if left else "no warband is left"
    elif state.turn >= limit:
        counts = {s: state.standing_count(s) for s in state.sides}
        best = max(counts.values())
        leaders = [s for s in state.sides if counts[s] == best]
        state.over = True
        state.winner = leaders[0] if len(leaders) == 1 else None
        state.reason = f"turn limit {limit}"


def outcome(state: WarbandState) -> Outcome:
    """Who won, characters taken out per side, turns played and each character's fate."""
    units = []
    for c in state.chars.values():
        fate = c.condition if not c.routing or not c.on_map else "routing"
        units.append(UnitFate(c.id, c.side, c.name, c.max_wounds,
                              min(c.wounds, c.max_wounds), fate))
    return Outcome(state.winner, {s: score(state, s) for s in state.sides}, state.turn, units,
                   state.reason)


def check_invariants(state: WarbandState, events: list[dict[str, Any]]) -> list[str]:
    """Warband invariants: one character per square, Wounds within bounds, Routers and
    Incapacitated characters never act."""
    problems = []
    seen: dict[tuple[int, int], str] = {}
    for c in state.chars.values():
        if not 0 <= c.wounds <= c.max_wounds:
            problems.append(f"{c.id} has {c.wounds} of {c.max_wounds} Wounds")
        if c.on_map and c.square is not None:
            if c.square in seen:
                problems.append(f"{c.id} and {seen[c.square]} share {c.square}")
            seen[c.square] = c.id
            if state.at.get(c.square) != c.id:
                problems.append(f"occupancy of {c.square} does not name {c.id}")
    if len(seen) != len(state.at):
        problems.append("occupancy holds characters not on the map")
    return problems
