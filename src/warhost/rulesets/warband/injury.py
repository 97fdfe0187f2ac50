"""Wounds, Injury rolls and what follows (WB-ATTACK-12/13, WB-INJURY, WB-AMB-39/40)."""

from __future__ import annotations

from warhost.core.battle import Battle
from warhost.geometry.grid import DIRECTIONS8, Square
from warhost.geometry.grid import edge_drops as grid_edge_drops
from warhost.rulesets.warband.checks import take_test
from warhost.rulesets.warband.state import (
    INCAPACITATED,
    KNOCKED_DOWN,
    STANDING,
    STUNNED,
    Character,
    WarbandState,
)

INJURY_TABLE = ((4, KNOCKED_DOWN), (7, STUNNED))
"""Injury roll upper bounds: 1-4 Knocked down, 5-7 Stunned, 8 and above Incapacitated."""


def injury_result(roll: int) -> str:
    """The state an Injury roll gives (WB-INJURY-02; 11 and 12 Incapacitate, WB-AMB-40)."""
    for top, result in INJURY_TABLE:
        if roll <= top:
            return result
    return INCAPACITATED


def note_trigger(char: Character, key: str) -> None:
    """Record a Morale trigger for ``char`` (WB-AMB-44): pending unless already exposed; a
    Routing character is only marked exposed."""
    if not char.on_map or key in char.exposed:
        return
    if char.routing:
        char.exposed.add(key)
    else:
        char.pending.add(key)


def incapacitate(state: WarbandState, battle: Battle, char: Character, why: str) -> None:
    """Take ``char`` out of the battle (WB-INJURY-13, WB-AMB-43) and fire the triggers."""
    if char.condition == INCAPACITATED:
        return
    char.condition = INCAPACITATED
    char.prone = False
    state.remove(char)
    battle.emit("incapacitated", who=char.id, side=char.side, why=why,
                by=char.last_hurt_by)
    for other in state.side_chars(char.side):
        if other is char:
            continue
        if char.captain:
            note_trigger(other, "captain")  # WB-MORALE-08 / 12 (not the Captain itself)
        if char.kind == "hero" and other.kind == "minion":
            note_trigger(other, f"hero:{char.id}")  # WB-MORALE-13


def set_condition(state: WarbandState, battle: Battle, char: Character, new: str,
                  why: str) -> None:
    """Move ``char`` to a new injury state."""
    if new == INCAPACITATED:
        incapacitate(state, battle, char, why)
        return
    char.condition = new
    if new == STUNNED:
        char.stunned_in_turn = state.turn
    battle.emit("injury_state", who=char.id, state=new, why=why)
    if new in (KNOCKED_DOWN, STUNNED):
        edge_test(state, battle, char)


def injury_roll(state: WarbandState, battle: Battle, char: Character, critical: bool) -> None:
    """Roll 1d10 (+2 after a Critical Hit) and apply the result (WB-INJURY-01/02)."""
    face = battle.dice.pool(1, 10, f"injury ({char.id})", who=char.id)[0]
    roll = face + (2 if critical else 0)
    result = injury_result(roll)
    battle.emit("injury_roll", who=char.id, roll=roll, critical=critical, result=result)
    set_condition(state, battle, char, result, "injury roll")


def escalate(state: WarbandState, battle: Battle, char: Character) -> None:
    """One confirmed wound on a character already at 0 (WB-AMB-39 ii-iv)."""
    if char.condition == KNOCKED_DOWN:
        set_condition(state, battle, char, STUNNED, "wounded while knocked down")  # INJURY-07
    elif char.condition == STUNNED:
        set_condition(state, battle, char, INCAPACITATED, "wounded while stunned")  # -11
    elif char.condition == STANDING:
        injury_roll(state, battle, char, False)


def apply_batch(
    state: WarbandState,
    battle: Battle,
    target: Character,
    confirmed: int,
    *,
    critical: bool = False,
    overkill: bool = False,
    source: Character | None = None,
) -> None:
    """Subtract one action's confirmed wounds at once and change the injury state at most
    once (WB-AMB-39); ``critical``: a confirmed wound came from a Critical Hit."""
    if confirmed <= 0 or not target.on_map:
        return
    if source is not None:
        target.last_hurt_by = source.id
    before = target.wounds
    target.wounds = max(0, before - confirmed)  # WB-ATTACK-12
    battle.emit("wounded", who=target.id, wounds=confirmed, left=target.wounds,
                by=None if source is None else source.id)
    if overkill:
        incapacitate(state, battle, target, "overkill")  # WB-CIRC-02, no Injury roll
        return
    if before > 0 and target.wounds == 0:
        injury_roll(state, battle, target, critical)
        leftover = confirmed - before
    elif before > 0:
        return
    else:
        escalate(state, battle, target)
        leftover = confirmed - 1
    if state.options.excess_wounds_escalate:
        for _ in range(leftover):
            if not target.on_map:
                break
            escalate(state, battle, target)


# ------------------------------------------------------------------------------- falling


def falling_wounds(state: WarbandState, height: int) -> int:
    """Wounds of a fall of ``height`` squares (WB-AMB-19)."""
    table = state.options.falling_damage
    if isinstance(table, list):
        if not table:
            return 0
        return table[min(height, len(table) - 1)]
    return height // 2


def fall(state: WarbandState, battle: Battle, char: Character, to: Square, height: int) -> None:
    """``char`` falls ``height`` squares onto ``to``; each wound goes to the saves alone."""
    from warhost.rulesets.warband.attacks import ward_save

    state.place(char, to)
    wounds = falling_wounds(state, height)
    battle.emit("fall", who=char.id, to=list(to), height=height, wounds=wounds)
    confirmed = 0
    for _ in range(wounds):
        base = char.score("toughness") + char.score("armour")
        if take_test(state, battle, char, "toughness", "defense", [], base=base).passed:
            continue
        if ward_save(state, battle, char):
            continue
        confirmed += 1
    apply_batch(state, battle, char, confirmed)


def edge_drops(state: WarbandState, sq: Square) -> list[Square]:
    """Where a character on ``sq`` would fall: free passable neighbours 2 or more lower,
    lowest first (WB-AMB-20); on a square the map marks as an edge, any lower neighbour."""
    def free(n: Square) -> bool:
        return state.passable(n) and n not in state.at

    drops = grid_edge_drops(state.grid, sq, free)
    if drops or sq not in state.edges:
        return drops
    here = state.level(sq)
    x, y = sq
    lower = [n for n in ((x + dx, y + dy) for dx, dy in DIRECTIONS8)
             if free(n) and state.level(n) < here]
    return sorted(lower, key=lambda n: (state.level(n), n))


def edge_test(state: WarbandState, battle: Battle, char: Character) -> None:
    """Knocked down or Stunned on an edge: an Agility test or a fall (WB-INJURY-03)."""
    if char.square is None:
        return
    drops = edge_drops(state, char.square)
    if not drops:
        return
    if take_test(state, battle, char, "agility", "edge").passed:
        return
    lowest = state.level(drops[0])
    choices = tuple(d for d in drops if state.level(d) == lowest)
    to = choices[0]
    if len(choices) > 1:
        from warhost.core.orders import Order

        who = state.chars.get(char.last_hurt_by or "")
        side = who.side if who is not None else char.side
        order = battle.ask(side, "fall_square",
                           tuple(Order.of("fall", x, y) for x, y in choices),
                           f"{char.label} falls from the edge: which square?", char.id)
        to = (int(order.args[0]), int(order.args[1]))
    fall(state, battle, char, to, state.level(char.square) - state.level(to))
