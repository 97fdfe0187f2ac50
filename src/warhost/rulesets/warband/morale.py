"""Morale (WB-MORALE, WB-AMB-44 to 47): triggers, the Aftermath tests and Rout moves."""

from __future__ import annotations

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY
from warhost.core.orders import Order
from warhost.geometry.grid import Square, chebyshev, ring
from warhost.rulesets.warband.checks import Mod, take_test
from warhost.rulesets.warband.combat import can_see, in_rear
from warhost.rulesets.warband.injury import note_trigger
from warhost.rulesets.warband.movement import choose_facing, destinations, opportunity
from warhost.rulesets.warband.state import FLED, STUNNED, Character, WarbandState


def state_triggers(state: WarbandState, char: Character, heroes: list[Character]) -> None:
    """Record the triggers ``char`` reads from the state when its turn to test comes in the
    Aftermath (WB-AMB-44 to 46); ``heroes`` are its side's Heroes neither Incapacitated nor
    Routing."""
    if not char.active:
        return
    if char.kind == "hero":
        if char.wounds == 0 and any(in_rear(state, e, char)
                                    for e in state.engaged_enemies(char)):
            note_trigger(char, "flanked")  # WB-MORALE-09, WB-AMB-35
        if state.heroes_at_start.get(char.side, 0) >= 2 and heroes == [char]:
            note_trigger(char, "last_hero")  # WB-MORALE-10, WB-AMB-45
    elif not heroes:
        char.pending.add("no_heroes")  # WB-MORALE-14: repeats every turn (WB-AMB-46)


def morale_tests(state: WarbandState, battle: Battle) -> None:
    """One Morale test for every character with an active trigger, in Initiative Order
    (WB-AFTER-04 step 3); each failure routs at once (WB-MORALE-02). State triggers are read
    for each character just before its turn, so a Rout earlier in the same Aftermath counts."""
    heroes = {side: [c for c in state.side_chars(side) if c.kind == "hero" and c.active]
              for side in state.sides}
    metering.count(GEOMETRY, len(state.chars))
    for cid in state.order:
        char = state.chars[cid]
        state_triggers(state, char, heroes[char.side])
        if not char.pending:
            continue
        triggers = sorted(char.pending)
        char.exposed.update(t for t in triggers if t != "no_heroes")
        char.pending.clear()
        if not char.on_map or char.routing:
            continue
        result = morale_test(state, battle, char, "morale")
        battle.emit("morale", who=cid, triggers=triggers, passed=result)
        if not result:
            rout(state, battle, char)
            heroes[char.side] = [c for c in heroes[char.side] if c.active]


def morale_test(state: WarbandState, battle: Battle, char: Character, why: str) -> bool:
    """A Resolve test with the Encourage bonus (WB-MORALE-01, WB-UTIL-13)."""
    from warhost.rulesets.warband.utility import encouragement

    bonus = encouragement(state, char)
    mods = [Mod("encouraged", bonus, "WB-UTIL-13")] if bonus else []
    return take_test(state, battle, char, "resolve", why, mods).passed


def rout(state: WarbandState, battle: Battle, char: Character) -> None:
    """``char`` starts Routing: Engaged enemies may strike first, then it flees
    (WB-MORALE-02 to 04)."""
    char.routing = True
    battle.emit("rout", who=char.id)
    if char.captain:
        for other in state.side_chars(char.side):
            if other is not char:
                note_trigger(other, "captain")
    if state.engaged(char):
        opportunity(state, battle, char)  # WB-MORALE-03
    if char.on_map and char.condition != STUNNED:
        flee(state, battle, char, provoke=False)


def nearest_visible_enemies(state: WarbandState, char: Character) -> list[Character]:
    """The enemies ``char`` can see at the least distance (several when equally near)."""
    assert char.square is not None
    at = state.at
    for r in range(1, max(state.grid.width, state.grid.height)):
        squares = ring(char.square, r)
        metering.count(GEOMETRY, len(squares))
        found = [state.chars[at[sq]] for sq in squares if sq in at]
        found = [o for o in found if o.side != char.side and o.on_map
                 and can_see(state, char.square, sq_of(o))]
        if found:
            return sorted(found, key=lambda o: o.id)
    return []


def sq_of(char: Character) -> Square:
    """The square of a character on the map."""
    assert char.square is not None
    return char.square


def flee(state: WarbandState, battle: Battle, char: Character, provoke: bool = True) -> None:
    """The flight move: up to twice Agility to the reachable squares farthest from the
    nearest visible enemy; the commander picks among equals (WB-MORALE-04, WB-AMB-47).
    Enemies equally near all count as the threat: a square's distance is to the closest of
    them (docs/rulings/warband.md, T11)."""
    if not char.on_map or char.square is None or char.condition != "standing":
        return
    threats = [t.square for t in nearest_visible_enemies(state, char) if t.square is not None]
    if not threats:
        return

    def away(sq: Square) -> int:
        return min(chebyshev(sq, t) for t in threats)

    paths = destinations(state, char, 2 * char.score("agility"))
    metering.count(GEOMETRY, len(paths) * len(threats))
    here = away(char.square)
    best = here
    choices: list[Square] = []
    for sq in sorted(paths):
        d = away(sq)
        if d > best:
            best, choices = d, [sq]
        elif d == best and d > here:
            choices.append(sq)
    if not choices:
        return
    to = choices[0]
    if len(choices) > 1:
        order = battle.ask(char.side, "flee", tuple(Order.of("flee", x, y) for x, y in choices),
                           f"{char.label} flees: where to?", char.id)
        to = (int(order.args[0]), int(order.args[1]))
    if provoke and state.engaged(char) and not opportunity(state, battle, char):
        return
    start = char.square
    state.place(char, to)
    battle.emit("move", who=char.id, how="flee", start=list(start), to=list(to),
                squares=len(paths[to][1]))
    if state.options.routers_leave_battlefield and _on_edge(state, to):
        char.condition = FLED
        state.remove(char)
        battle.emit("fled", who=char.id)
    elif state.options.facing_change == "after_any_move":
        choose_facing(state, battle, char)  # WB-AMB-05: a Rout move is a move too


def _on_edge(state: WarbandState, sq: Square) -> bool:
    x, y = sq
    return x in (0, state.grid.width - 1) or y in (0, state.grid.height - 1)
