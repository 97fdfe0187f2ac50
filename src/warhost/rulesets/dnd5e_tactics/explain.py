"""Why an order is refused in `dnd5e-tactics`: the reason in a few words and the catalog rule
it breaks (:meth:`warhost.core.ruleset.Ruleset.explain_refusal`).

Only called for an order that is not a legal answer, so it may take its time. Every reason is
worked out by the function that decides the matter for the listed options (the move and
follow-through judges, :func:`combat.why_not_unit`, :func:`turns.why_not_callout`, ...), never
by a second copy of a rule. An order that answers another decision says which one and when
it comes (a Tactics Track ``switch`` written for the stance step of round 1, T5-ROUND-09).

Example (a ``switch`` given where the round-1 stance is asked):
    >>> from warhost.core.decisions import Decision
    >>> from warhost.core.orders import Order
    >>> stance = Decision("A", "stance", (Order.of("stance", "close"),), subject="a")
    >>> print(elsewhere(1, stance, Order.of("switch", "vicious")))
    a Tactics Track switch is chosen at step 3 of a round, which round 1 skips (T5-ROUND-09)
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import Any

from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.geometry.table import read_point
from warhost.rulesets.dnd5e_tactics import combat, turns
from warhost.rulesets.dnd5e_tactics.rounds import stance_problem
from warhost.rulesets.dnd5e_tactics.state import (
    Body,
    Single,
    T5State,
    Unit,
    feet,
    no_such_body,
)
from warhost.rulesets.dnd5e_tactics.tables import TRACKS

Explainer = Callable[[T5State, Decision, "Body | None", Order], "Refusal | None"]

DECISION_RULES = {
    "track": "T5-DEC-02", "stance": "T5-DEC-05", "deploy": "T5-DEC-01",
    "tie_order": "T5-DEC-04", "tactics": "T5-DEC-06", "mount": "T5-DEC-15",
    "move": "T5-DEC-12", "engage": "T5-AMB-10", "reaction": "T5-DEC-16",
    "callout": "T5-DEC-07", "duel": "T5-DEC-08", "commander_bonus": "T5-DEC-10",
    "commander_action": "T5-DEC-11", "unit_bonus": "T5-DEC-14", "unit_action": "T5-DEC-13",
    "aoe_count": "T5-AMB-24", "remainder": "T5-DEC-17", "rally": "T5-DEC-18",
    "flee_attack": "T5-DEC-19", "follow_through": "T5-DEC-20",
}
"""The rule that defines each decision this ruleset asks."""

HOMES: dict[str, tuple[str, str]] = {
    "track": ("the starting Tactics Track is chosen before the battle", "T5-SETUP-03"),
    "stance": ("a stance is kept or switched only at step 1 of a round", "T5-ROUND-05"),
    "deploy": ("deployment comes before the first round", "T5-DEC-01"),
    "next": ("the order of tied units is settled before the first round", "T5-DEC-04"),
    "advance": ("the Tactics Track advance is chosen at step 3 of a round", "T5-DEC-06"),
    "switch": ("a Tactics Track switch is chosen at step 3 of a round", "T5-DEC-06"),
    "hold": ("movement is ordered at the start of a body's turn", "T5-DEC-12"),
    "move": ("movement is ordered at the start of a body's turn", "T5-DEC-12"),
    "dash": ("a Dash is ordered with the move, at the start of the turn: dash X,Y FACING",
             "T5-DEC-13"),
    "disengage": ("a Disengage is ordered with the move, at the start of the turn: "
                  "disengage X,Y FACING", "T5-DEC-13"),
    "charge": ("a Charge is ordered with the move, at the start of the turn", "T5-DEC-13"),
    "engage": ("engagements are declared right after a move (engagement_model: declared)",
               "T5-AMB-10"),
    "opportunity": ("an attack of opportunity is a reaction, asked when an enemy leaves "
                    "reach", "T5-DEC-16"),
    "callout": ("a call-out is the commander's free action, asked before its bonus action",
                "T5-DEC-07"),
    "accept": ("accept answers a call-out", "T5-DEC-08"),
    "decline": ("decline answers a call-out or the Charisma save", "T5-DEC-08"),
    "encourage": ("encouragement is the action or bonus action of a unit's commander",
                  "T5-ENCOURAGE-01"),
    "attack": ("an attack takes the action of a commander or a unit, after the move",
               "T5-ROUND-11"),
    "area": ("an area effect takes the action or bonus action its stat block names",
             "T5-DEC-11"),
    "heal": ("a heal takes the action or bonus action its stat block names", "T5-DEC-11"),
    "cover": ("the Ruins three-quarters cover takes a bonus action", "T5-TERRAIN-04"),
    "dodge": ("Dodge takes an action", "T5-DEC-13"),
    "count": ("a count answers how many members an area covers (aoe_targets: declared)",
              "T5-AMB-24"),
    "commander": ("commander or casualty answers the End of Round remainder", "T5-DEC-17"),
    "casualty": ("commander or casualty answers the End of Round remainder", "T5-DEC-17"),
    "attempt": ("attempt answers the commander's Charisma save", "T5-DEC-18"),
    "stay": ("stay answers the follow-through", "T5-DEC-20"),
}
"""Where each order word belongs: what says when it is asked, and the rule."""


def explain_refusal(state: Any, decision: Decision, order: Order) -> Refusal | None:
    """Why ``order`` does not answer ``decision`` in ``state``, with the rule it breaks; None
    when no rule of this ruleset says more than the generic reason."""
    if not isinstance(state, T5State):
        return None
    if decision.accept is not None:  # an open decision judges its own orders
        verdict = decision.accept(order)
        if verdict is not None:
            return verdict if isinstance(verdict, Refusal) else None
    words = TAKES.get(decision.kind)
    if words is None:
        return None
    if order.kind not in words:
        return elsewhere(state.round, decision, order)
    body = state.bodies.get(decision.subject)
    explain = words[order.kind]
    refusal = explain(state, decision, body, order) if explain is not None else \
        _no_arguments(decision, order)
    if refusal is not None and refusal.rule is None:
        return Refusal(refusal.reason, DECISION_RULES.get(decision.kind))
    return refusal


def elsewhere(round_number: int, decision: Decision, order: Order) -> Refusal | None:
    """An order that answers another decision than ``decision``: which one, and when it is
    asked; None for a word no decision of this ruleset takes."""
    home = HOMES.get(order.kind)
    if home is None:
        return None
    reason, rule = home
    if order.kind in ("advance", "switch") and round_number <= 1:
        return Refusal(f"{reason}, which round 1 skips", "T5-ROUND-09")
    return Refusal(reason, rule)


# --------------------------------------------------------------------------- helpers


def _open(state: T5State, decision: Decision, body: Body | None, order: Order) -> None:
    """Orders of an open decision are judged by its ``accept`` (see :func:`explain_refusal`)."""
    return None


def _no_arguments(decision: Decision, order: Order) -> Refusal | None:
    if order.args:
        return Refusal(f"{order.kind} takes no arguments here",
                       DECISION_RULES.get(decision.kind))
    return None


def _unknown(what: str, name: str, choices: Sequence[str], rule: str | None) -> Refusal:
    """``name`` is none of ``choices``: the list, and the nearest one if it is close."""
    if not choices:
        return Refusal(f"there is no {what} {name!r} to use", rule)
    close = difflib.get_close_matches(name, list(choices), n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    return Refusal(f"{what} {name!r} is not one of: {', '.join(choices)}{hint}", rule)


def _form(order: Order, count: int, usage: str, rule: str) -> Refusal | None:
    if len(order.args) != count:
        return Refusal(f"{order.kind} needs {usage}", rule)
    return None


def _target(state: T5State, name: object, rule: str) -> Body | Refusal:
    body = state.bodies.get(str(name))
    if body is None or not body.on_table:
        return no_such_body(state, str(name), rule)
    return body


def _words(items: Sequence[Any]) -> dict[str, Any]:
    """Stat-block entries (attacks, areas, heals) by their order word."""
    return {turns.word(item.name): item for item in items}


# --------------------------------------------------------------------------- setup and rounds


def _track(state: T5State, decision: Decision, body: Body | None, order: Order) -> Refusal | None:
    bad = _form(order, 1, "a track: " + ", ".join(TRACKS), "T5-TACTICS-01")
    if bad is not None:
        return bad
    if str(order.args[0]) not in TRACKS:
        return _unknown("track", str(order.args[0]), TRACKS, "T5-TACTICS-01")
    return None


def _stance(state: T5State, decision: Decision, body: Body | None, order: Order
            ) -> Refusal | None:
    bad = _form(order, 1, "close or open", "T5-ROUND-04")
    if bad is not None:
        return bad
    stance = str(order.args[0])
    if stance not in ("close", "open"):
        return _unknown("stance", stance, ("close", "open"), "T5-ROUND-04")
    if not isinstance(body, Unit) or state.round < 1 or stance == body.stance:
        return None
    if state.in_melee(body):
        return Refusal(f"{body.id} is engaged in melee and keeps its stance", "T5-ROUND-03")
    return stance_problem(state, body, stance)


def _deploy(state: T5State, decision: Decision, body: Body | None, order: Order
            ) -> Refusal | None:
    if len(order.args) != 1 or read_point(order.args[0]) is None:
        return Refusal("deploy needs x,y, as in 'deploy 12.0,4.5'", "T5-DEC-01")
    return None


def _next(state: T5State, decision: Decision, body: Body | None, order: Order
          ) -> Refusal | None:
    bad = _form(order, 1, "the id of one of your tied units", "T5-AMB-03")
    if bad is not None:
        return bad
    found = _target(state, order.args[0], "T5-AMB-03")
    if isinstance(found, Refusal):
        return found
    tied = [str(o.args[0]) for o in decision.options]
    return Refusal(f"{found.id} is not one of the tied units still to be ordered "
                   f"({', '.join(tied)})", "T5-AMB-03")


def _switch(state: T5State, decision: Decision, body: Body | None, order: Order
            ) -> Refusal | None:
    bad = _form(order, 1, "a track: " + ", ".join(TRACKS), "T5-ROUND-08")
    if bad is not None:
        return bad
    track = str(order.args[0])
    if track not in TRACKS:
        return _unknown("track", track, TRACKS, "T5-TACTICS-01")
    if not isinstance(body, Unit):
        return None
    if not body.commander.alive:
        return Refusal(f"{body.id} has lost its commander and can never switch tracks",
                       "T5-ROUND-10")
    if body.rank_at_round_start < 0:
        return Refusal(f"{body.id} began the round at rank {body.rank_at_round_start}; only a "
                       "unit at rank 0 or higher may switch tracks", "T5-ROUND-08")
    if track == body.track:
        return Refusal(f"{body.id} is on the {track} track already; a switch picks another",
                       "T5-ROUND-08")
    return None


# --------------------------------------------------------------------------- turns


def _mount_action(state: T5State, decision: Decision, body: Body | None, order: Order
                  ) -> Refusal | None:
    if order.args:
        return Refusal(f"the mounts' {order.kind} takes no destination: answer dash, "
                       "disengage, dodge or none; the move is asked next", "T5-DEC-15")
    return None


def _engage(state: T5State, decision: Decision, body: Body | None, order: Order
            ) -> Refusal | None:
    enemy = str(decision.info.get("enemy", ""))
    bad = _form(order, 1, f"the enemy's id: engage {enemy}", "T5-AMB-10")
    if bad is not None:
        return bad
    found = _target(state, order.args[0], "T5-AMB-10")
    if isinstance(found, Refusal):
        return found
    return Refusal(f"this decision is whether to engage {enemy}: answer 'engage {enemy}' or "
                   "none", "T5-AMB-10")


def _opportunity(state: T5State, decision: Decision, body: Body | None, order: Order
                 ) -> Refusal | None:
    if body is None:
        return None
    mover = state.bodies.get(str(decision.info.get("mover", "")))
    if not decision.info.get("commander"):
        if isinstance(body, Unit) and body.reaction_used:
            return Refusal(f"{body.id} has used its reaction this round", "T5-AMB-11")
        if order.args:
            return Refusal("a unit's attack of opportunity is one melee resolution of its "
                           "first melee attack: answer opportunity or none", "T5-AMB-11")
        return None
    character = turns.character_of(body)
    if character.reaction_used:
        return Refusal(f"{character.name} has used its reaction this round", "T5-AMB-11")
    melee = _words(turns.melee_attacks(character.stats))
    bad = _form(order, 1, "the commander's melee attack: " + ", ".join(melee), "T5-DEC-16")
    if bad is not None:
        return bad
    attack = melee.get(str(order.args[0]))
    if attack is None:
        return _unknown("melee attack", str(order.args[0]), list(melee), "T5-DEC-16")
    if mover is not None:
        spread = state.gap(body, mover)
        if feet(attack.reach) + turns.EPS < spread:
            return Refusal(f"{mover.id} is {spread * 10:.0f} ft away, beyond {attack.name}'s "
                           f"{attack.reach} ft reach", "T5-AMB-11")
    return None


def _callout(state: T5State, decision: Decision, body: Body | None, order: Order
             ) -> Refusal | None:
    bad = _form(order, 1, "the id of the engaged enemy whose commander is called out",
                "T5-DEC-07")
    if bad is not None or body is None:
        return bad
    found = _target(state, order.args[0], "T5-DUEL-01")
    if isinstance(found, Refusal):
        return found
    return turns.why_not_callout(state, body, found)


def _slot(decision: Decision) -> str:
    return "bonus" if decision.kind.endswith("_bonus") else "action"


def _slot_words(slot: str) -> str:
    return "a bonus action" if slot == "bonus" else "an action"


def _encourage(state: T5State, decision: Decision, body: Body | None, order: Order
               ) -> Refusal | None:
    if isinstance(body, Single):
        return Refusal("a Single Character has no unit to encourage", "T5-ENCOURAGE-01")
    bad = _form(order, 1, "a skill: " + ", ".join(turns.SKILLS), "T5-ENCOURAGE-01")
    if bad is not None:
        return bad
    if str(order.args[0]) not in turns.SKILLS:
        return _unknown("skill", str(order.args[0]), turns.SKILLS, "T5-ENCOURAGE-01")
    return None


def _cover(state: T5State, decision: Decision, body: Body | None, order: Order
           ) -> Refusal | None:
    if _slot(decision) == "action":
        return Refusal("the Ruins three-quarters cover takes a bonus action", "T5-TERRAIN-04")
    if body is None:
        return _no_arguments(decision, order)
    if not turns.inside_ruins(state, body):
        return Refusal(f"{body.id} is not inside Ruins", "T5-TERRAIN-04")
    if body.three_quarter_cover:
        return Refusal(f"{body.id} has three-quarters cover already, until its next turn",
                       "T5-AMB-02")
    return _no_arguments(decision, order)


def _dodge(state: T5State, decision: Decision, body: Body | None, order: Order
           ) -> Refusal | None:
    if decision.kind == "commander_action" and isinstance(body, Unit):
        return Refusal("a unit's commander takes no Dodge: it never moves or stands on its own",
                       "T5-COMMANDER-01")
    return _no_arguments(decision, order)


def _commander_attack(state: T5State, decision: Decision, body: Body | None, order: Order
                      ) -> Refusal | None:
    if decision.kind == "commander_bonus":
        return Refusal("an attack takes the action, not the bonus action", "T5-DEC-11")
    if body is None:
        return None
    stats = turns.character_of(body).stats
    attacks = _words(stats.attacks)
    bad = _form(order, 2, "an attack and a target, as in 'attack "
                f"{next(iter(attacks), 'Greatsword')} b-orcs'", "T5-DEC-11")
    if bad is not None:
        return bad
    attack = attacks.get(str(order.args[0]))
    if attack is None:
        return _unknown("attack", str(order.args[0]), list(attacks), "T5-DEC-11")
    found = _target(state, order.args[1], "T5-DEC-11")
    if isinstance(found, Refusal):
        return found
    return combat.why_not_character(state, body, attack, found)


def _unit_attack(state: T5State, decision: Decision, body: Body | None, order: Order
                 ) -> Refusal | None:
    if not isinstance(body, Unit):
        return None
    bad = _form(order, 2, "melee or ranged and a target, as in 'attack melee b-orcs'",
                "T5-DEC-13")
    if bad is not None:
        return bad
    kind = str(order.args[0])
    if kind not in ("melee", "ranged"):
        hint = f"; {kind} is one of its attacks, made as part of the routine" \
            if kind in _words(body.member.attacks) else ""
        return Refusal(f"a unit attacks with its whole melee or ranged routine: 'attack "
                       f"melee TARGET' or 'attack ranged TARGET'{hint}", "T5-DEC-13")
    found = _target(state, order.args[1], "T5-DEC-13")
    if isinstance(found, Refusal):
        return found
    return combat.why_not_unit(state, body, found, kind)


def _area(state: T5State, decision: Decision, body: Body | None, order: Order
          ) -> Refusal | None:
    if body is None:
        return None
    by_commander = decision.kind.startswith("commander")
    stats = turns.character_of(body).stats if by_commander or isinstance(body, Single) \
        else body.member
    areas = _words(stats.areas)
    rule = DECISION_RULES[decision.kind]
    bad = _form(order, 2, "an area effect and a target, as in 'area "
                f"{next(iter(areas), 'Fireball')} b-orcs'", rule)
    if bad is not None:
        return bad
    spec = areas.get(str(order.args[0]))
    if spec is None:
        return _unknown("area effect", str(order.args[0]), list(areas), rule)
    if spec.action != _slot(decision):
        return Refusal(f"{spec.name} takes {_slot_words(spec.action)}", rule)
    if combat.area_uses_left(body, spec.name, by_commander) == 0:
        return Refusal(f"{spec.name} has no uses left", rule)
    found = _target(state, order.args[1], rule)
    if isinstance(found, Refusal):
        return found
    return combat.why_not_area(state, body, spec, found, by_commander=by_commander)


def _heal(state: T5State, decision: Decision, body: Body | None, order: Order
          ) -> Refusal | None:
    if body is None:
        return None
    character = turns.character_of(body)
    heals = _words(character.stats.heals)
    rule = DECISION_RULES[decision.kind]
    bad = _form(order, 2, "a heal and a friendly target, as in 'heal "
                f"{next(iter(heals), 'Cure_Wounds')} a-spears'", rule)
    if bad is not None:
        return bad
    heal = heals.get(str(order.args[0]))
    if heal is None:
        return _unknown("heal", str(order.args[0]), list(heals), rule)
    if heal.action != _slot(decision):
        return Refusal(f"{heal.name} takes {_slot_words(heal.action)}", rule)
    if not turns.heals_left(character, heal):
        return Refusal(f"{heal.name} has no uses left", rule)
    found = _target(state, order.args[1], rule)
    if isinstance(found, Refusal):
        return found
    return turns.why_not_heal(state, body, heal, found)


# --------------------------------------------------------------------------- End of Round


def _count(state: T5State, decision: Decision, body: Body | None, order: Order
           ) -> Refusal | None:
    members = body.members if isinstance(body, Unit) else 0
    if len(order.args) != 1 or not isinstance(order.args[0], int):
        return Refusal(f"count needs a whole number from 0 to {members}", "T5-AMB-24")
    if not 0 <= order.args[0] <= members:
        return Refusal(f"{decision.subject} has {members} members: the count is 0 to "
                       f"{members}", "T5-AMB-24")
    return None


def _flee_attack(state: T5State, decision: Decision, body: Body | None, order: Order
                 ) -> Refusal | None:
    if not decision.info.get("commander") or body is None:
        return _no_arguments(decision, order)
    melee = _words(turns.melee_attacks(turns.character_of(body).stats))
    bad = _form(order, 1, "the commander's melee attack: " + ", ".join(melee), "T5-FLEE-06")
    if bad is not None:
        return bad
    if str(order.args[0]) not in melee:
        return _unknown("melee attack", str(order.args[0]), list(melee), "T5-FLEE-06")
    return None


TAKES: dict[str, dict[str, Explainer | None]] = {
    "track": {"track": _track},
    "stance": {"stance": _stance},
    "deploy": {"deploy": _deploy},
    "tie_order": {"next": _next},
    "tactics": {"advance": None, "switch": _switch},
    "mount": {"none": None, "dash": _mount_action, "disengage": _mount_action,
              "dodge": None},
    "move": {"hold": _open, "move": _open, "dash": _open, "disengage": _open, "charge": _open},
    "engage": {"engage": _engage, "none": None},
    "reaction": {"opportunity": _opportunity, "none": None},
    "callout": {"callout": _callout, "none": None},
    "duel": {"accept": None, "decline": None},
    "commander_bonus": {"none": None, "encourage": _encourage, "cover": _cover,
                        "attack": _commander_attack, "area": _area, "heal": _heal},
    "commander_action": {"none": None, "encourage": _encourage, "cover": _cover,
                         "attack": _commander_attack, "area": _area, "heal": _heal,
                         "dodge": _dodge},
    "unit_bonus": {"none": None, "cover": _cover},
    "unit_action": {"none": None, "dodge": None, "attack": _unit_attack, "area": _area},
    "aoe_count": {"count": _count},
    "remainder": {"commander": None, "casualty": None},
    "rally": {"attempt": None, "decline": None},
    "flee_attack": {"attack": _flee_attack, "none": None},
    "follow_through": {"stay": _open, "move": _open},
}
"""For each decision, the order words it takes and who explains a refusal of each (None:
only stray arguments can be wrong)."""
