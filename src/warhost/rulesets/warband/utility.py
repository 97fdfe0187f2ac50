"""The Utility Phase (WB-UTIL): preparation actions, taken before anyone moves.

Characters come one at a time (option ``utility_order``, WB-AMB-09). Each is asked again and
again for its next Utility action until it answers ``done``; each action may be taken once a
turn (WB-UTIL-03/04), so the questions end. A Routing character may only Rally (WB-UTIL-23),
and a Stunned one is not asked at all (WB-AMB-42).

Orders: ``done``, ``brace``, ``disengage X Y``, ``encourage``, ``rally``, ``rotate FACING``,
``swap ARMOUR...``, ``use ITEM TARGET``, ``use-utility ITEM TARGET`` and the ``cast`` orders of
Utility Spells (from :mod:`magic`). Item and armour names appear with their spaces turned
into ``-`` (:func:`token`).
"""

from __future__ import annotations

from itertools import combinations

from warhost.core import metering
from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, OPTIONS
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8, Square, chebyshev, ring
from warhost.rulesets.warband import magic
from warhost.rulesets.warband.checks import take_test
from warhost.rulesets.warband.model import Item
from warhost.rulesets.warband.state import (
    FACING_ORDER,
    KNOCKED_DOWN,
    STUNNED,
    Character,
    TempModifier,
    WarbandState,
    order_word,
)

DONE = Order("done")
BRACE = Order("brace")
ENCOURAGE = Order("encourage")
RALLY = Order("rally")
SPELL = "spell"
"""The key in ``utility_done`` of the one Utility Spell a phase allows (WB-UTIL-22)."""


# ------------------------------------------------------------------------------- the phase


def utility_sequence(state: WarbandState) -> list[str]:
    """Who takes Utility actions, in order (WB-AMB-09).

    ``initiative``: the Initiative Order. ``side_alternating``: the sides take turns, one
    character at a time, each side's characters in Initiative Order; the side of the first
    character in Initiative Order starts and the others follow in the order their first
    characters appear there; a side with nobody left is passed over.
    """
    if state.options.utility_order == "initiative":
        return list(state.order)
    queues: dict[str, list[str]] = {}
    for cid in state.order:
        queues.setdefault(state.chars[cid].side, []).append(cid)
    out: list[str] = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                out.append(queue.pop(0))
    return out


def utility_phase(state: WarbandState, battle: Battle) -> None:
    """Every character's Utility actions (WB-UTIL-01 to 23, WB-ASK-03 to 10)."""
    for cid in utility_sequence(state):
        char = state.chars[cid]
        while char.on_map and char.condition != STUNNED:
            options = utility_options(state, char)
            if not options:
                break
            order = battle.ask(char.side, "utility", (DONE, *options),
                               f"{char.label}: next Utility action?", char.id, default=DONE)
            if order == DONE:
                break
            take_utility(state, battle, char, order)


def utility_options(state: WarbandState, char: Character) -> list[Order]:
    """The Utility actions ``char`` may still take this turn (``done`` not included)."""
    if not char.on_map or char.condition == STUNNED:
        return []  # WB-AMB-42
    done = char.utility_done
    if char.routing:  # WB-UTIL-23
        return [RALLY] if "rally" not in done and rally_allowed(state, char) else []
    options: list[Order] = []
    if "brace" not in done and "brace" in char.talents:  # WB-UTIL-06
        options.append(BRACE)
    if "disengage" not in done:
        options.extend(Order.of("disengage", x, y) for x, y in disengage_squares(state, char))
    if "encourage" not in done:
        options.append(ENCOURAGE)
    if "rotate" not in done:
        options.extend(Order.of("rotate", f) for f in FACING_ORDER if f != char.facing)
    if "swap" not in done:
        options.extend(swap_options(char))
    if "use" not in done:
        options.extend(item_options(state, char, "consumable", "use"))
    if "use-utility" not in done:
        options.extend(item_options(state, char, "utility", "use-utility"))
    if SPELL not in done:
        options.extend(magic.spell_options(state, char, "utility"))
    metering.count(OPTIONS, len(options))
    return options


def take_utility(state: WarbandState, battle: Battle, char: Character, order: Order) -> None:
    """Carry out one Utility action."""
    kind = order.kind
    if kind == "cast":
        char.utility_done.add(SPELL)
        magic.cast_order(state, battle, char, order)
        return
    char.utility_done.add(kind)
    if kind == "brace":
        char.braced = True  # WB-UTIL-07/08: read by movement and by charges
        battle.emit("brace", who=char.id)
    elif kind == "disengage":
        disengage(state, battle, char, (int(order.args[0]), int(order.args[1])))
    elif kind == "encourage":
        encourage(state, battle, char)
    elif kind == "rally":
        rally(state, battle, char)
    elif kind == "rotate":
        char.facing = str(order.args[0])  # WB-UTIL-19
        battle.emit("rotate", who=char.id, facing=char.facing)
    elif kind == "swap":
        swap(battle, char, [str(a) for a in order.args])
    elif kind in ("use", "use-utility"):
        use_item(state, battle, char, str(order.args[0]), str(order.args[1]), kind)
    else:
        raise ValueError(f"not a Utility order: {order}")


# ---------------------------------------------------------------------------- Disengage


def disengage_squares(state: WarbandState, char: Character) -> list[Square]:
    """Where ``char`` may Disengage to (WB-UTIL-09/10, WB-AMB-11): a free, passable
    neighbouring square it can step to, 2 or more squares from every enemy now next to it.
    None if it is not Engaged, has Braced, or is Knocked down (it may not move)."""
    from warhost.rulesets.warband.movement import step_cost

    if char.square is None or char.braced or char.condition == KNOCKED_DOWN:
        return []
    if not state.engaged(char):
        return []
    near = [o.square for o in state.neighbours_of(char)
            if o.on_map and o.square is not None and state.hostile(char, o)]
    cost = step_cost(state, char)
    x, y = char.square
    out = []
    for dx, dy in DIRECTIONS8:
        to = (x + dx, y + dy)
        if to in state.at or cost(char.square, to) is None:
            continue
        if all(chebyshev(to, sq) >= 2 for sq in near):
            out.append(to)
    metering.count(GEOMETRY, len(DIRECTIONS8))
    return sorted(out)


def disengage(state: WarbandState, battle: Battle, char: Character, to: Square) -> None:
    """Step away without Attacks of Opportunity; 1 square less in the Movement Phase
    (WB-UTIL-10/11); a new facing after it (WB-TURN-04, WB-AMB-05)."""
    from warhost.rulesets.warband.movement import choose_facing

    assert char.square is not None
    start = char.square
    state.place(char, to)
    char.disengaged = True
    battle.emit("disengage", who=char.id, start=list(start), to=list(to))
    if state.options.facing_change == "after_any_move":
        choose_facing(state, battle, char)


# ---------------------------------------------------------------------- Encourage, Rally


def encourage(state: WarbandState, battle: Battle, char: Character) -> None:
    """A Resolve test; on a pass every other ally that sees the encourager or is within
    hearing range gets +1 + floor(DoS / 3) on its Morale tests this turn, keeping only the
    highest such bonus (WB-UTIL-12 to 14, WB-AMB-12). Who hears or sees is worked out when an
    ally makes a Morale test (:func:`encouragement`): a shout costs nothing until then."""
    result = take_test(state, battle, char, "resolve", "encourage")
    bonus = 1 + result.dos // 3 if result.passed else 0
    if result.passed and char.square is not None:
        key = (state.turn, char.side)
        for old in [k for k in state.encouragers if k[0] != state.turn]:
            del state.encouragers[old]
        state.encouragers.setdefault(key, []).append((bonus, char.id, char.square))
    battle.emit("encourage", who=char.id, passed=result.passed, bonus=bonus)


def encouragement(state: WarbandState, char: Character) -> int:
    """The Encourage bonus ``char`` has now: the highest among this turn's successful shouts
    of its allies that it sees or hears, and any bonus given to it directly."""
    best = char.encourage_bonus
    shouts = state.encouragers.get((state.turn, char.side), [])
    if not shouts or char.square is None or not char.on_map:
        return best
    from warhost.rulesets.warband.combat import can_see

    hearing = state.options.encourage_hearing_range
    for bonus, cid, square in sorted(shouts, key=lambda s: (-s[0], s[1])):
        if bonus <= best:
            break
        metering.count(GEOMETRY)
        if cid != char.id and (chebyshev(square, char.square) <= hearing
                               or can_see(state, char.square, square)):
            return bonus
    return best


def rally_allowed(state: WarbandState, char: Character) -> bool:
    """Rally is barred only when every nearest other character on the map is an enemy
    (WB-UTIL-16, WB-AMB-13). Searched ring by ring outward from the character."""
    assert char.square is not None
    x, y = char.square
    at = state.at
    for r in range(1, max(state.grid.width, state.grid.height)):
        squares = ring((x, y), r)
        metering.count(GEOMETRY, len(squares))
        near = [state.chars[at[sq]] for sq in squares if sq in at]
        if near:
            return any(o.side == char.side for o in near)
    return True


def rally(state: WarbandState, battle: Battle, char: Character) -> None:
    """A Morale test, Encourage bonus included; a pass ends the Rout and gives -1 on every
    later test this turn (WB-UTIL-15 to 18, WB-AMB-13)."""
    from warhost.rulesets.warband.morale import morale_test

    passed = morale_test(state, battle, char, "rally")
    if passed:
        char.routing = False
        char.rallied = True
    battle.emit("rally", who=char.id, passed=passed)


# ------------------------------------------------------------------ Swap Equipment, items


def swap_options(char: Character) -> list[Order]:
    """``swap`` orders: every set of worn armour pieces to take off, smallest sets first
    (WB-UTIL-20, WB-ASK-09). Armour is never put on."""
    names = [order_word(a.name) for a in char.armour]
    options: list[Order] = []
    for size in range(1, len(names) + 1):
        options.extend(Order.of("swap", *combo) for combo in combinations(names, size))
    return options


def swap(battle: Battle, char: Character, pieces: list[str]) -> None:
    """Take the named armour pieces off: Armour drops by their values for the rest of the
    battle (a change to the base score, since nothing puts armour back on)."""
    removed = []
    for name in pieces:
        piece = next(a for a in char.armour if order_word(a.name) == name)
        char.armour.remove(piece)
        char.base["armour"] = max(0, char.base["armour"] - piece.value)
        removed.append(piece.name)
    battle.emit("swap", who=char.id, removed=removed, armour=char.score("armour"))


def item_targets(state: WarbandState, char: Character) -> list[Character]:
    """Who an item may go on: the character itself, then adjacent allies by id
    (WB-UTIL-21, WB-AMB-10)."""
    return [char, *sorted(state.adjacent_allies(char), key=lambda o: o.id)]


def usable_items(char: Character, kind: str) -> list[Item]:
    """Items of ``kind`` it can use now: Consumables with uses left; Utility items are not
    used up (WB-AMB-10)."""
    return [i for i in char.items if i.kind == kind
            and (kind != "consumable" or char.uses.get(i.name, 0) > 0)]


def item_options(state: WarbandState, char: Character, kind: str, verb: str) -> list[Order]:
    """``use ITEM TARGET`` or ``use-utility ITEM TARGET`` orders (WB-ASK-10)."""
    items = usable_items(char, kind)
    if not items:
        return []
    targets = item_targets(state, char)
    seen: set[str] = set()
    options: list[Order] = []
    for item in items:
        name = order_word(item.name)
        if name in seen:
            continue
        seen.add(name)
        options.extend(Order.of(verb, name, t.id) for t in targets)
    return options


def use_item(state: WarbandState, battle: Battle, char: Character, name: str, target_id: str,
             verb: str) -> None:
    """Use an item on ``target_id``: heal Wounds up to the maximum, and/or a timed score
    change; a Consumable loses one use (WB-UTIL-05, WB-UTIL-21, WB-AMB-10)."""
    kind = "consumable" if verb == "use" else "utility"
    item = next(i for i in usable_items(char, kind) if order_word(i.name) == name)
    target = state.chars[target_id]
    if kind == "consumable":
        char.uses[item.name] -= 1
    healed = 0
    if item.heal:
        healed = min(item.heal, target.max_wounds - target.wounds)
        target.wounds += healed
    if item.score is not None and item.by:
        target.temp.append(TempModifier(item.score, item.by, item.turns, item.name))
    battle.emit("use_item", who=char.id, item=item.name, target=target.id, healed=healed,
                score=item.score, by=item.by, turns=item.turns,
                left=char.uses.get(item.name) if kind == "consumable" else None)
