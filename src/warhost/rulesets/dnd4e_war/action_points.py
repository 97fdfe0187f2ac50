"""Action points (W4-AP section, W4-AMB-36 to 39): changing a die's face, acting first, and
the per-round caps.

Dice modification (W4-AP-01/03/04, W4-AMB-37, W4-DEC-29): after a batch of dice rolled on
behalf of a unit with a character in it (or a lone character) is seen, the side is asked
once, and only when a spend could change the batch's outcome, which die to change and by
how many points. The face stays within 1 and the die's maximum; a d20 set to 20 is a natural
20. These points are outside the per-round caps. Battles without characters never get here.

Act first (W4-AP-08/09, W4-AMB-39, W4-DEC-05): at the start of the Movement, Shooting and
Charge phases the side without the initiative may spend a point so that one character's unit
acts before anyone else; the initiative side may answer by spending one too, and then the two
roll off, each adding its spender's initiative; both points are lost.

Caps: one point a round per character for acting first or an extra action (W4-AP-10), and
three such uses a round per unit (W4-AP-11, W4-AMB-36: a fourth is refused).
"""

from __future__ import annotations

from collections.abc import Callable

from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import OPTIONS, count
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState

KEEP = Order("ap_keep")
DICE = "ap_dice"
ACT_FIRST = "ap_act_first"
PASS_FIRST = Order("ap_no_act_first")
UNIT_USES = 3
"""W4-AP-11, W4-AMB-36: uses of action points a unit may benefit from in a round."""
USES = "ap_unit_uses"
"""``state.extra`` key: this round's uses per unit (``{"turn": n, "units": {...}}``)."""


# --------------------------------------------------------------------------- who may spend

def unit_of(state: WarState, character: Character) -> Unit:
    """The unit a character acts with: the one he is in, else his own."""
    return state.units[character.host or character.id]


def spenders(state: WarState, unit: Unit) -> list[Character]:
    """Characters whose points may change a die rolled for ``unit``: the lone character
    himself, or those inside it (not one sent to the rear, W4-CHAL-07), with points left."""
    found = []
    if unit.character is not None:
        found.append(unit.character)
    found += [c for c in state.characters_in(unit) if not c.at_rear]
    return [c for c in found if c.action_points > 0 and not c.slain]


def set_face(face: int, delta: int, sides: int) -> int:
    """W4-AP-03: the face moved by ``delta``, kept within 1 and ``sides``."""
    return max(1, min(sides, face + delta))


# --------------------------------------------------------------------------- dice

Success = Callable[[int], bool]
"""Whether one face succeeds (an attack die hits, a test passes, a charge reaches)."""


def modify_dice(state: WarState, battle: Battle, unit: Unit | None, faces: tuple[int, ...],
                sides: int, succeeds: Success, why: str,
                roll: str = "attack") -> tuple[int, ...]:
    """W4-AP-01/03, W4-DEC-29: offer the spenders of ``unit`` to turn one failing die of
    this batch into a success (the cheapest raise for each distinct face), or to move any
    die any legal amount (judged by the decision); returns the faces as they stand. ``roll``
    names what the dice are for (``attack``, ``courage``, ``charge``)."""
    if unit is None or not state.characters or not faces:
        return faces
    people = spenders(state, unit)
    if not people:
        return faces
    options = _raises(people, faces, sides, succeeds)
    if not options:
        return faces
    count(OPTIONS, len(options) + 1)
    wanted = battle.ask(
        unit.side, DICE, (KEEP, *options),
        f"Dice for {unit.label()} ({why}): {', '.join(map(str, faces))}. Spend action "
        f"points to change one die? ('{DICE} CHARACTER DIE POINTS', negative to lower)",
        subject=unit.id, default=KEEP, info={"why": why, "roll": roll},
        accept=lambda o: judge_dice(people, faces, sides, o))
    if wanted.kind != DICE:
        return faces
    who = next(c for c in people if c.id == str(wanted.args[0]))
    index, delta = int(wanted.args[1]), int(wanted.args[2])
    new = set_face(faces[index], delta, sides)
    who.action_points -= abs(delta)  # W4-AP-04/12: spent for good, outside the caps
    battle.emit("action_point_dice", character=who.id, unit=unit.id, why=why, die=index,
                before=faces[index], after=new, spent=abs(delta), left=who.action_points)
    return (*faces[:index], new, *faces[index + 1:])


def _raises(people: list[Character], faces: tuple[int, ...], sides: int,
            succeeds: Success) -> tuple[Order, ...]:
    """For each failing face (first die of each value) and spender, the fewest points that
    make it succeed, if he has them."""
    seen: set[int] = set()
    options: list[Order] = []
    for index, face in enumerate(faces):
        if face in seen or succeeds(face):
            continue
        seen.add(face)
        need = next((d for d in range(1, sides - face + 1) if succeeds(face + d)), None)
        if need is None:
            continue
        options += [Order.of(DICE, c.id, index, need) for c in people
                    if c.action_points >= need]
    return tuple(options)


def judge_dice(people: list[Character], faces: tuple[int, ...], sides: int,
               wanted: Order) -> Order | Refusal:
    """Any change of one die, up or down, that the character can pay for and that leaves
    the face on the die (W4-AP-01/03, W4-AMB-37)."""
    if wanted.kind == KEEP.kind and not wanted.args:
        return KEEP
    if wanted.kind != DICE or len(wanted.args) != 3:
        return Refusal(f"answer '{KEEP.kind}' or '{DICE} CHARACTER DIE POINTS'", "W4-AP-01")
    who = next((c for c in people if c.id == str(wanted.args[0])), None)
    if who is None:
        return Refusal(f"{wanted.args[0]} cannot spend points on these dice: only "
                       f"{', '.join(c.id for c in people)}", "W4-AP-01")
    try:
        index, delta = int(str(wanted.args[1])), int(str(wanted.args[2]))
    except ValueError:
        return Refusal("the die and the points are whole numbers", "W4-AP-01")
    if not 0 <= index < len(faces):
        return Refusal(f"there are dice 0 to {len(faces) - 1}", "W4-AP-01")
    if delta == 0 or abs(delta) > who.action_points:
        return Refusal(f"{who.id} has {who.action_points} action points left", "W4-AP-12")
    if not 1 <= faces[index] + delta <= sides:
        return Refusal(f"a d{sides} cannot show {faces[index] + delta}", "W4-AP-03")
    return Order.of(DICE, who.id, index, delta)


def modify_die(state: WarState, battle: Battle, unit: Unit | None, face: int, sides: int,
               succeeds: Success, why: str, roll: str) -> int:
    """:func:`modify_dice` for a single die (a courage test, a charge roll)."""
    if unit is None or not state.characters:
        return face
    return modify_dice(state, battle, unit, (face,), sides, succeeds, why, roll)[0]


# --------------------------------------------------------------------------- caps

def unit_uses(state: WarState, unit_id: str) -> int:
    """W4-AP-11: uses of action points ``unit_id`` benefited from this round."""
    book = state.extra.get(USES)
    if not book or book.get("turn") != state.turn:
        return 0
    return int(book["units"].get(unit_id, 0))


def refusal_to_spend(state: WarState, character: Character) -> Refusal | None:
    """Why ``character`` may not spend a point on acting first or an extra action now, or
    None: no points (W4-AP-12), already one this round (W4-AP-10), or his unit has had its
    three uses (W4-AP-11, W4-AMB-36)."""
    if character.slain or character.action_points <= 0:
        return Refusal(f"{character.id} has no action points left", "W4-AP-12")
    if character.at_rear:
        return Refusal(f"{character.id} was sent to the rear and takes no actions this turn",
                       "W4-CHAL-07")
    if character.ap_round == state.turn:
        return Refusal(f"{character.id} already spent an action point this round",
                       "W4-AP-10")
    unit = unit_of(state, character)
    if unit_uses(state, unit.id) >= UNIT_USES:
        return Refusal(f"{unit.id} already benefited from {UNIT_USES} uses of action points "
                       "this round", "W4-AP-11")
    return None


def spend(state: WarState, battle: Battle, character: Character, purpose: str) -> None:
    """Spend one of ``character``'s points on ``purpose`` (caps already checked)."""
    character.action_points -= 1
    character.ap_round = state.turn
    unit = unit_of(state, character)
    book = state.extra.get(USES)
    if not book or book.get("turn") != state.turn:
        book = {"turn": state.turn, "units": {}}
        state.extra[USES] = book
    book["units"][unit.id] = book["units"].get(unit.id, 0) + 1
    battle.emit("action_point_spent", character=character.id, unit=unit.id,
                purpose=purpose, left=character.action_points)


# --------------------------------------------------------------------------- act first

Ready = Callable[[WarState, Unit], bool]
"""Whether a unit still has something to do in the phase."""


def _candidates(state: WarState, side: str, ready: Ready) -> list[Character]:
    return [c for c in state.characters.values()
            if c.side == side and refusal_to_spend(state, c) is None
            and ready(state, unit_of(state, c))]


def _ask_first(state: WarState, battle: Battle, side: str, phase: str,
               people: list[Character], contest: bool) -> Character | None:
    options = (PASS_FIRST, *(Order.of(ACT_FIRST, c.id) for c in people))
    count(OPTIONS, len(options))
    ids = {c.id: c for c in people}

    def judge(wanted: Order) -> Order | Refusal:
        if wanted == PASS_FIRST:
            return PASS_FIRST
        if wanted.kind != ACT_FIRST or len(wanted.args) != 1:
            return Refusal(f"answer '{PASS_FIRST.kind}' or '{ACT_FIRST} CHARACTER'",
                           "W4-AP-08")
        who = state.characters.get(str(wanted.args[0]))
        if who is None or who.side != side:
            return Refusal(f"{wanted.args[0]} is not a character of {side}", "W4-AP-08")
        why = refusal_to_spend(state, who)
        if why is not None:
            return why
        if who.id not in ids:
            return Refusal(f"{who.id}'s unit has nothing to do in the {phase} phase",
                           "W4-AP-08")
        return Order.of(ACT_FIRST, who.id)

    prompt = (f"The enemy spends an action point to act first in the {phase} phase: spend "
              "one too and roll off?" if contest else
              f"Spend an action point so that a character's unit acts first in the {phase} "
              "phase?")
    order = battle.ask(side, ACT_FIRST, options, prompt, default=PASS_FIRST, accept=judge,
                       info={"phase": phase, "contest": contest})
    return ids.get(str(order.args[0])) if order.kind == ACT_FIRST else None


def act_first(state: WarState, battle: Battle, phase: str, ready: Ready) -> Unit | None:
    """W4-AP-08/09, W4-DEC-05: the unit that acts before everyone else this phase, or None.
    The side without the initiative may spend a point; the initiative side may then spend
    one as well, and the two roll off adding their spenders' initiative (W4-AMB-39)."""
    if not state.characters or state.initiative is None:
        return None
    challenger_side = state.other(state.initiative)
    people = _candidates(state, challenger_side, ready)
    if not people:
        return None
    first = _ask_first(state, battle, challenger_side, phase, people, contest=False)
    if first is None:
        return None
    spend(state, battle, first, f"act first ({phase})")
    rivals = _candidates(state, state.initiative, ready)
    rival = _ask_first(state, battle, state.initiative, phase, rivals, True) if rivals else None
    chosen = first
    if rival is not None:
        spend(state, battle, rival, f"act first ({phase})")
        from warhost.rulesets.dnd4e_war.game import roll_off

        bonus = {first.side: state.units[first.id].profile.initiative,
                 rival.side: state.units[rival.id].profile.initiative}
        winner = roll_off(battle, state.sides, f"act first ({phase})", bonus)
        chosen = first if winner == first.side else rival
    unit = unit_of(state, chosen)
    battle.emit("act_first", character=chosen.id, unit=unit.id, side=chosen.side, phase=phase)
    return unit


# --------------------------------------------------------------------------- extra action

EXTRA = "ap_extra"
NO_EXTRA = Order("ap_no_extra")


def extra_kinds(state: WarState, character: Character, phase: str) -> list[str]:
    """W4-AP-05 to 07, W4-AMB-38: the extra actions ``character`` may take now. In the
    Movement phase, another move once his unit's move is spent (the unit moves with him,
    W4-AP-06); in the Shooting phase, another shot, which a unit may take only if it has
    not shot this turn (W4-AP-07) and a lone character may take even after shooting
    (W4-AMB-38)."""
    from warhost.rulesets.dnd4e_war import shooting

    if refusal_to_spend(state, character) is not None:
        return []
    unit = unit_of(state, character)
    if not unit.alive or unit.fleeing or state.is_engaged(unit.id):
        return []
    if phase == "movement" and unit.move_used and not unit.double_moved:
        return ["move"]
    if phase == "shooting" and (unit.character is character or not unit.shot) \
            and not unit.reformed and not unit.double_moved \
            and shooting.usable_powers(state, unit):
        return ["shoot"]
    return []


def extra_actions(state: WarState, battle: Battle, phase: str) -> None:
    """W4-AP-05/06, W4-DEC-30: at the end of the Movement and Shooting phases each side,
    initiative first, may spend points on extra actions until it declines."""
    if not state.characters:
        return
    for side in state.order_of_sides():
        while True:
            offers = [(c, kind) for c in state.characters.values() if c.side == side
                      for kind in extra_kinds(state, c, phase)]
            if not offers:
                break
            options = (NO_EXTRA, *(Order.of(EXTRA, c.id, kind) for c, kind in offers))
            count(OPTIONS, len(options))
            order = battle.ask(side, EXTRA, options,
                               f"Spend an action point on an extra action ({phase} phase)?",
                               default=NO_EXTRA)
            if order == NO_EXTRA:
                break
            who = state.characters[str(order.args[0])]
            take_extra(state, battle, who, str(order.args[1]))


def take_extra(state: WarState, battle: Battle, character: Character, kind: str) -> None:
    """Spend the point and carry out the extra action with the character's unit."""
    from warhost.rulesets.dnd4e_war import movement, shooting

    spend(state, battle, character, f"extra {kind}")
    unit = unit_of(state, character)
    if kind == "move":
        unit.move_used = False
        movement.move_unit(state, battle, unit)
        unit.move_used = True
        return
    unit.standard_used = unit.shot = False
    state.extra[shooting.SIGHT] = shooting.sight_index(state)
    try:
        shooting.unit_shoots(state, battle, unit)
    finally:
        state.extra.pop(shooting.SIGHT, None)


def offer_extra_attack(state: WarState, battle: Battle, character: Character,
                       prompt: str) -> bool:
    """W4-AP-05, W4-AMB-38: ask whether ``character`` spends a point on a second attack
    (only a lone character or a challenger: a unit never fights twice, W4-AP-07); spends
    it and returns True if so."""
    if not state.characters or refusal_to_spend(state, character) is not None:
        return False
    attack = Order.of(EXTRA, character.id, "attack")
    order = battle.ask(character.side, EXTRA, (NO_EXTRA, attack), prompt,
                       subject=character.id, default=NO_EXTRA)
    if order != attack:
        return False
    spend(state, battle, character, "extra attack")
    return True
