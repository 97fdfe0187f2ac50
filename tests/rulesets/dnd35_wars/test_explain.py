"""Refusals that explain themselves (the `dnd35-wars` explanation hook): an order of the wrong
kind, a unit that is unknown, the enemy's or not the one asked about, and for the unit action
why that attack is closed to it now, each with the rule behind it."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    single,
    unit,
)
from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import actions
from warhost.rulesets.dnd35_wars.explain import DECISION_RULES, explain_refusal
from warhost.rulesets.dnd35_wars.state import WarState

BOW = {"name": "shortbow", "bonus": 2, "damage": "1d6", "crit_multiplier": 3,
       "range_increment": 60}
JAVELIN = {"name": "javelin", "bonus": 1, "damage": "1d6+3", "range_increment": 10,
           "thrown": True}


def archer(**fields: Any) -> dict[str, Any]:
    return creature("archer", ranged=[fields.pop("ranged", BOW)], **fields)


def refusal(state: WarState, text: str, subject: str = "a", kind: str = "unit_action",
            options: Sequence[str] | None = None, side: str = "A", accept: Any = None) -> Refusal:
    """The hook's reason for ``text`` (the unit's real legal actions unless ``options``)."""
    if options is None:
        opts = tuple(actions.legal_actions(state, state.units[subject]))
    else:
        opts = tuple(Order.parse(o) for o in options)
    decision = Decision(side, kind, opts, "?", subject, accept=accept)
    order = Order.parse(text)
    assert order not in opts
    found = explain_refusal(state, decision, order)
    assert isinstance(found, Refusal), found
    return found


def _line() -> WarState:
    """a and its neighbour a2 facing b (in contact with a) and far-off c."""
    return make_state([unit("a", squares=block(5, 5, 3, 2)), unit("a2", squares=block(9, 5, 2, 2)),
                       unit("b", "B", squares=block(5, 7, 3, 1)),
                       unit("c", "B", squares=block(20, 20, 2, 2))], width=60, height=60)


def test_the_decision_rules_are_the_catalog_decisions() -> None:
    assert DECISION_RULES == {
        "unit_action": "W35-DEC-12", "formation": "W35-DEC-18", "remove_counters": "W35-DEC-19",
        "melee_split": "W35-DEC-15", "fire_plan": "W35-DEC-16", "cleave": "W35-DEC-28",
        "single_action": "W35-DEC-33", "in_unit_order": "W35-DEC-29",
        "stay_with_unit": "W35-DEC-30", "front_line": "W35-DEC-31", "pc_stays": "W35-DEC-34",
        "squad_leave": "W35-DEC-35", "place_counter": "W35-DEC-18", "hindered": "W35-DEC-21",
        "return_square": "W35-DEC-22", "charmed_new_unit": "W35-DEC-22"}


@pytest.mark.rule("W35-DEC-12", "W35-UMOVE-01")
def test_a_unit_action_takes_only_unit_action_orders() -> None:
    r = refusal(_line(), "rally a")
    assert r.rule == "W35-DEC-12"
    assert "does not answer this question (unit_action)" in r.reason
    for kind in ("hold", "melee", "move", "shoot", "charge"):
        assert kind in r.reason


@pytest.mark.rule("W35-DEC-12")
def test_the_order_names_the_deciding_unit_first() -> None:
    state = _line()
    r = refusal(state, "melee aa b")
    assert "there is no unit 'aa'" in r.reason and "did you mean a" in r.reason
    r = refusal(state, "melee b a")
    assert "b belongs to B; A commands only its own units" in r.reason
    r = refusal(state, "hold a2")
    assert r.rule == "W35-DEC-12" and "about a, not a2" in r.reason
    r = refusal(state, "hold a now")
    assert r.rule == "W35-UMOVE-04" and "hold takes only the unit" in r.reason


@pytest.mark.rule("W35-UATK-07")
def test_melee_needs_a_counter_sharing_a_side_with_the_target() -> None:
    state = _line()
    assert Order.parse("melee a b") in actions.legal_actions(state, get(state, "a"))
    r = refusal(state, "melee a c")
    assert r.rule == "W35-UATK-07" and "no counter of a shares a side with c" in r.reason
    r = refusal(state, "melee a a2")
    assert r.rule is None and "a2 is on a's own side" in r.reason
    r = refusal(state, "melee a zz")
    assert "nothing called 'zz'" in r.reason
    # touching only at a corner is no contact
    corner = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(6, 6)])])
    r = refusal(corner, "melee a b")
    assert r.rule == "W35-UATK-07"


@pytest.mark.rule("W35-AMB-38")
def test_an_engaged_unit_may_not_start_a_melee_with_a_new_foe() -> None:
    state = make_state([unit("a", squares=block(5, 5, 2, 1)),
                        unit("b", "B", squares=[(5, 6)]), unit("d", "B", squares=[(7, 5)])])
    state.engage("a", "b")
    r = refusal(state, "melee a d", options=["hold", "melee a b"])
    assert r.rule == "W35-AMB-38" and "engaged with b" in r.reason
    r = refusal(state, "melee a b,d", options=["hold", "melee a b"])  # every target is judged
    assert r.rule == "W35-AMB-38" and "with d" in r.reason


@pytest.mark.rule("W35-UATK-09", "W35-UATK-10", "W35-UATK-13", "W35-UATK-14")
def test_ranged_fire_needs_a_weapon_an_open_square_and_the_range() -> None:
    # 60-ft increments at 15 ft a square: 10 increments reach 600 ft, 40 squares
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("s", squares=[(0, 10)]),
                        unit("n", "B", squares=[(1, 1)]),
                        unit("m", "B", squares=[(40, 5)]),
                        unit("f", "B", squares=[(41, 5)])], width=60, height=60)
    r = refusal(state, "shoot a f")
    assert r.rule == "W35-UATK-13"
    assert "f is 615 ft away; a's 60-ft range increment reaches 600 ft" in r.reason
    r = refusal(state, "shoot a m", options=["hold"])  # 600 ft: in range
    assert r.rule != "W35-UATK-13"
    r = refusal(state, "shoot a n")
    assert r.rule == "W35-UATK-10" and "empty square" in r.reason
    r = refusal(state, "shoot a m:1,f:1")  # counters declared per target: each is judged
    assert r.rule == "W35-UATK-13" and "f is 615 ft away" in r.reason
    r = refusal(state, "shoot s m", subject="s")
    assert r.rule == "W35-UATK-09" and "s has no ranged weapons" in r.reason


@pytest.mark.rule("W35-AMB-36")
def test_thrown_weapons_reach_five_increments() -> None:
    # 10-ft javelins: 50 ft, so 3 squares (45 ft) are in range and 4 (60 ft) are not
    thrower = archer(ranged=JAVELIN)
    state = make_state([unit("a", squares=[(0, 0)], creature=thrower),
                        unit("near", "B", squares=[(3, 0)]), unit("far", "B", squares=[(4, 0)])])
    r = refusal(state, "shoot a far")
    assert r.rule == "W35-AMB-36" and "60 ft away" in r.reason and "reaches 50 ft" in r.reason
    r = refusal(state, "shoot a near", options=["hold"])
    assert r.rule == "W35-DEC-12"  # nothing against it but that it is not offered


@pytest.mark.rule("W35-MULTI-06", "W35-DEFEND-13")
def test_engaged_units_and_phalanxes_do_not_shoot() -> None:
    state = make_state([unit("a", squares=[(0, 0)], creature=archer()),
                        unit("b", "B", squares=[(0, 1)]), unit("c", "B", squares=[(10, 10)])])
    state.engage("a", "b")
    r = refusal(state, "shoot a c")
    assert r.rule == "W35-MULTI-06" and "engaged in melee with b" in r.reason
    state.disengage("a")
    get(state, "a").phalanx = True
    r = refusal(state, "shoot a c")
    assert r.rule == "W35-DEFEND-13"


@pytest.mark.rule("W35-UATK-02", "W35-AMB-40", "W35-TERR-13", "W35-DEFEND-12", "W35-AMB-37")
def test_who_may_charge() -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 1)),
                        unit("b", "B", squares=[(0, 2)]), unit("c", "B", squares=[(1, 1)]),
                        unit("d", "B", squares=[(8, 8)])])
    r = refusal(state, "charge a c")
    assert r.rule == "W35-UATK-02" and "c is 1 square away" in r.reason
    state.water.add((0, 0))
    r = refusal(state, "charge a d")
    assert r.rule == "W35-TERR-13" and "in the water" in r.reason
    state.water.clear()
    get(state, "a").phalanx = True
    r = refusal(state, "charge a d")
    assert r.rule == "W35-DEFEND-12"
    get(state, "a").phalanx = False
    state.engage("a", "c")
    r = refusal(state, "charge a d")
    assert r.rule == "W35-AMB-37" and "engaged with c" in r.reason
    state.disengage("a")
    get(state, "a").rate = Fraction(1, 2)
    r = refusal(state, "charge a b")  # 2 squares away, but it cannot move a whole square
    assert r.rule == "W35-AMB-40"


@pytest.mark.rule("W35-AMB-31")
def test_a_monster_alone_is_reached_from_a_corner_too() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(20, 20)])],
                       singles=[single("ogre", "B", "monster", at=(6, 6)),
                                single("troll", "B", "monster", at=(7, 7))])
    r = refusal(state, "melee a troll")
    assert r.rule == "W35-AMB-31" and "troll is not next to" in r.reason
    r = refusal(state, "melee a ogre", options=["hold"])
    assert r.rule == "W35-DEC-12"  # a corner is close enough: only not offered


@pytest.mark.rule("W35-DMG-08")
def test_a_creature_among_its_allies_is_no_target_of_its_own() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(0, 1)])],
                       singles=[single("chief", "B", "npc", unit="b"),
                                single("troll", "B", "monster", at=(5, 5))])
    r = refusal(state, "melee a chief")
    assert r.rule == "W35-DMG-08" and "embedded among its allies in b" in r.reason
    state.singles["troll"].host = "a"  # fighting its way through a: it may be attacked there
    r = refusal(state, "melee a troll", options=["hold"])
    assert r.rule == "W35-DEC-12"
    state.singles["troll"].host, state.singles["troll"].status = None, "slain"
    r = refusal(state, "melee a troll")
    assert "troll is out of the battle (slain)" in r.reason


@pytest.mark.rule("W35-MORALE-07")
def test_a_routed_unit_chooses_no_action() -> None:
    state = _line()
    get(state, "a").status = "routed"
    r = refusal(state, "melee a b", options=["hold"])
    assert r.rule == "W35-MORALE-07"


@pytest.mark.rule("W35-DEC-12")
def test_an_open_move_decision_passes_on_its_own_refusal() -> None:
    state = _line()
    judge = actions.judge(state, get(state, "a"))
    r = refusal(state, "move a 30,30", accept=judge)
    verdict = judge(Order.parse("move a 30,30"))
    assert isinstance(verdict, Refusal) and r == verdict
    battle = make_battle(state)
    decision = Decision("A", "unit_action", tuple(actions.legal_actions(state, get(state, "a"))),
                        "?", "a", accept=judge)
    assert battle.judge(decision, "move a 30,30") == verdict


@pytest.mark.rule("W35-DEC-19", "W35-DEC-33")
def test_other_decisions_name_their_subject_and_rule() -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 2)), unit("b", "B", squares=[(5, 5)])],
                       singles=[single("ogre", "A", "monster", at=(9, 9)),
                                single("troll", "B", "monster", at=(12, 12))])
    options = ["remove a 0,0", "remove a 1,1"]
    r = refusal(state, "remove a 0,1", kind="remove_counters", options=options)
    assert r.rule == "W35-DEC-19" and "not one of the legal remove orders" in r.reason
    r = refusal(state, "remove b 5,5", kind="remove_counters", options=options)
    assert "b belongs to B" in r.reason
    r = refusal(state, "keep a", kind="remove_counters", options=options)
    assert r.rule == "W35-DEC-19" and "it takes remove" in r.reason
    acts = ["attack ogre b", "hold ogre"]
    r = refusal(state, "attack troll b", subject="ogre", kind="single_action", options=acts)
    assert "troll belongs to B" in r.reason
    r = refusal(state, "attack ogr b", subject="ogre", kind="single_action", options=acts)
    assert "no creature 'ogr'" in r.reason and "did you mean ogre" in r.reason
    r = refusal(state, "attack ogre a", subject="ogre", kind="single_action", options=acts)
    assert r.rule == "W35-DEC-33"
