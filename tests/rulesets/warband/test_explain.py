"""Refusals that explain (the `warband` explanation hook): each names its reason and rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, make_battle, make_state
from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.rulesets.warband import combat, magic, movement, utility
from warhost.rulesets.warband.explain import explain_refusal
from warhost.rulesets.warband.state import KNOCKED_DOWN, WarbandState

BOW = {"name": "bow", "kind": "ranged", "strength": 4, "range": 6, "attack_limit": 2}
SWORD = {"name": "sword", "kind": "melee"}


def judge(state: WarbandState, kind: str, subject: str, text: str,
          options: list[Order] | None = None, side: str = "A") -> Refusal:
    """The engine's verdict on ``text``; it must be a refusal."""
    char = state.chars.get(subject)
    if options is None and char is not None:
        if kind == "movement":
            options = list(movement.movement_choices(state, char)[0])
        elif kind == "ranged":
            options = [Order("none"), *combat.ranged_options(state, char)]
        elif kind == "melee":
            options = [Order("none"), *combat.melee_options(state, char)]
        elif kind == "utility":
            options = [Order("done"), *utility.utility_options(state, char)]
    decision = Decision(side, kind, tuple(options or ()), "?", subject)
    verdict = make_battle(state).judge(decision, text)
    assert isinstance(verdict, Refusal), verdict
    return verdict


@pytest.mark.rule("WB-MOVE-17")
def test_a_move_beyond_agility_gives_the_numbers() -> None:
    state = make_state([char("a", (1, 1), "A", agility=4), char("b", (11, 11), "B")])
    r = judge(state, "movement", "a", "move 1 7")
    assert r.rule == "WB-MOVE-17" and "6 squares away" in r.reason and "Agility 4" in r.reason
    state.chars["a"].disengaged = True
    r = judge(state, "movement", "a", "move 1 5")
    assert "may move 3" in r.reason and "WB-UTIL-11" in r.reason


@pytest.mark.rule("WB-MOVE-23")
def test_a_sprint_beyond_three_times_agility() -> None:
    state = make_state([char("a", (0, 0), "A", agility=3), char("b", (11, 11), "B")])
    r = judge(state, "movement", "a", "sprint 0 10")
    assert r.rule == "WB-MOVE-23" and "10 squares away" in r.reason and "may sprint 9" in r.reason


@pytest.mark.rule("WB-AMB-03", "WB-DEPLOY-01")
def test_moves_onto_occupied_or_blocked_squares_or_through_enemies() -> None:
    wall = [{"from": [0, 6], "to": [11, 6], "terrain": "impassable"}]
    state = make_state([char("a", (1, 1), "A"), char("c", (2, 1), "A"),
                        char("b", (5, 1), "B")], features=wall)
    r = judge(state, "movement", "a", "move 2 1")
    assert r.rule == "WB-AMB-03" and "taken by c" in r.reason
    r = judge(state, "movement", "a", "move 3 6")
    assert r.rule == "WB-AMB-03" and "impassable" in r.reason
    r = judge(state, "movement", "a", "sprint 3 8")
    assert r.rule == "WB-AMB-03" and "cuts 3,8 off" in r.reason
    r = judge(state, "movement", "a", "move 4 13")
    assert r.rule == "WB-TURN-02" and "off the 12x12 map" in r.reason
    # enemies all round a pocket
    ring = [char("a", (0, 0), "A")] + [char(f"e{i}", sq, "B") for i, sq in
                                       enumerate([(2, 0), (2, 1), (2, 2), (1, 2), (0, 2)])]
    r = judge(make_state(ring), "movement", "a", "move 3 0")
    assert r.rule == "WB-AMB-03" and "enemies bar every way" in r.reason


@pytest.mark.rule("WB-AMB-03")
def test_a_step_too_high() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (11, 11), "B")],
                       features=[{"from": [3, 0], "to": [3, 11], "elevation": 2}])
    r = judge(state, "movement", "a", "move 3 1")
    assert r.rule == "WB-AMB-03" and "a step of more than 1" in r.reason


@pytest.mark.rule("WB-MOVE-07", "WB-AMB-14")
def test_charges_too_short_too_long_or_blocked() -> None:
    state = make_state([char("a", (1, 1), "A", agility=4), char("b", (3, 3), "B"),
                        char("c", (9, 1), "B"), char("d", (1, 5), "B"), char("x", (1, 3), "A")])
    r = judge(state, "movement", "a", "charge b")
    assert r.rule == "WB-MOVE-07" and "2 squares away" in r.reason
    r = judge(state, "movement", "a", "charge c")
    assert r.rule == "WB-AMB-14" and "needs 7 squares" in r.reason and "at most 4" in r.reason
    r = judge(state, "movement", "a", "charge d")
    assert r.rule == "WB-AMB-14" and "blocked" in r.reason
    r = judge(state, "movement", "a", "charge x")
    assert r.rule is None and "own side" in r.reason


@pytest.mark.rule("WB-UTIL-07")
def test_a_braced_character_cannot_move() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (11, 11), "B")])
    state.chars["a"].braced = True
    r = judge(state, "movement", "a", "move 2 2")
    assert r.rule == "WB-UTIL-07"


@pytest.mark.rule("WB-INJURY-04", "WB-AMB-41")
def test_a_knocked_down_character_can_only_stand() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (11, 11), "B")])
    state.chars["a"].condition = KNOCKED_DOWN
    assert judge(state, "movement", "a", "move 2 2").rule == "WB-INJURY-04"


@pytest.mark.rule("WB-RANGED-03")
def test_shooting_while_engaged_without_a_melee_safe_weapon() -> None:
    state = make_state([char("a", (5, 5), "A", weapons=[BOW, SWORD]), char("b", (5, 6), "B"),
                        char("c", (5, 9), "B")])
    r = judge(state, "ranged", "a", "shoot c bow 1")
    assert r.rule == "WB-RANGED-03" and "not Melee-Safe" in r.reason


@pytest.mark.rule("WB-ATTACK-02", "WB-AMB-04")
def test_out_of_range_or_out_of_sight() -> None:
    state = make_state([char("a", (1, 1), "A", weapons=[BOW]), char("b", (1, 9), "B"),
                        char("c", (4, 1), "B")],
                       features=[{"from": [3, 0], "to": [3, 3], "terrain": "blocking"}])
    r = judge(state, "ranged", "a", "shoot b bow 1")
    assert r.rule == "WB-ATTACK-02" and "8 squares away" in r.reason and "reaches 6" in r.reason
    r = judge(state, "ranged", "a", "shoot c bow 1")
    assert r.rule == "WB-AMB-04" and "no line of sight" in r.reason
    r = judge(state, "ranged", "a", "volley c bow 1")
    assert r.rule == "WB-CIRC-19" and "cannot shoot a Volley" in r.reason


@pytest.mark.rule("WB-ATTACK-15", "WB-ATTACK-16")
def test_too_many_attacks() -> None:
    state = make_state([char("a", (1, 1), "A", attacks=3, weapons=[BOW, SWORD]),
                        char("b", (1, 4), "B")])
    r = judge(state, "ranged", "a", "shoot b bow 3")
    assert r.rule == "WB-ATTACK-15" and "at most 2" in r.reason
    state.chars["a"].attacks_used = 2
    r = judge(state, "ranged", "a", "shoot b bow 2")
    assert r.rule == "WB-ATTACK-15" and "1 Attacks left" in r.reason
    state = make_state([char("a", (1, 1), "A", attacks=2), char("b", (1, 2), "B")])
    r = judge(state, "melee", "a", "attack b sword 3")
    assert r.rule == "WB-ATTACK-16" and "2 Attacks left" in r.reason


@pytest.mark.rule("WB-MOVE-20", "WB-MOVE-24")
def test_a_prone_or_sprinting_shooter() -> None:
    state = make_state([char("a", (1, 1), "A", weapons=[BOW]), char("b", (1, 4), "B")])
    state.chars["a"].prone = True
    assert judge(state, "ranged", "a", "shoot b bow 1").rule == "WB-MOVE-20"
    state.chars["a"].prone = False
    state.chars["a"].sprinted = True
    assert judge(state, "ranged", "a", "shoot b bow 1").rule == "WB-MOVE-24"


@pytest.mark.rule("WB-RANGED-07", "WB-RANGED-10")
def test_stand_and_shoot_refusals() -> None:
    state = make_state([char("a", (1, 1), "A", weapons=[BOW]), char("b", (1, 2), "B"),
                        char("c", (1, 5), "B")])
    assert judge(state, "ranged", "a", "stand-shoot b bow 1").rule == "WB-RANGED-07"
    a = state.chars["a"]
    a.stand_and_shoot_ok, a.chargers = True, ["b"]
    r = judge(state, "ranged", "a", "stand-shoot c bow 1")
    assert r.rule == "WB-RANGED-10"


@pytest.mark.rule("WB-ATTACK-01")
def test_melee_out_of_reach() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (1, 3), "B"), char("c", (2, 2), "B")],
                       features=[{"from": [2, 2], "elevation": 2}])
    r = judge(state, "melee", "a", "attack b sword 1")
    assert r.rule == "WB-ATTACK-01" and "2 squares away" in r.reason
    r = judge(state, "melee", "a", "attack c sword 1")
    assert r.rule == "WB-ATTACK-01" and "2 levels apart" in r.reason


def test_unknown_ids_get_a_did_you_mean() -> None:
    state = make_state([char("archer", (1, 1), "A", weapons=[BOW]), char("brute", (1, 4), "B")])
    r = judge(state, "ranged", "archer", "shoot brut bow 1")
    assert "no character 'brut'" in r.reason and "did you mean brute?" in r.reason
    r = judge(state, "ranged", "archer", "shoot brute bwo 1")
    assert "no ranged weapon 'bwo'" in r.reason and "did you mean bow?" in r.reason
    r = judge(state, "movement", "archer", "charge brutus")
    assert "did you mean brute?" in r.reason


@pytest.mark.rule("WB-DEPLOY-01", "WB-DEPLOY-06")
def test_deployment_refusals() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (5, 5), "B")])
    options = [Order.of("deploy", 0, 0)]
    r = judge(state, "deploy", "a", "deploy 5 5", options)
    assert r.rule == "WB-DEPLOY-01" and "taken by b" in r.reason
    r = judge(state, "deploy", "a", "deploy 9 9", options)
    assert r.rule == "WB-DEPLOY-06"
    r = judge(state, "deploy", "a", "deploy 9", options)
    assert "two numbers" in r.reason


def test_other_decisions() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (1, 2), "B")])
    faces = [Order.of("face", f) for f in ("N", "E")]
    assert judge(state, "facing", "a", "face up", faces).rule == "WB-TURN-03"
    falls = [Order.of("fall", 3, 3)]
    assert judge(state, "fall_square", "a", "fall 4 4", falls).rule == "WB-AMB-20"
    flees = [Order.of("flee", 3, 3)]
    assert judge(state, "flee", "a", "flee 0 0", flees).rule == "WB-AMB-47"
    aoo = [Order.of("opportunity", "b", "sword"), Order("no-opportunity")]
    r = judge(state, "opportunity", "a", "opportunity b axe", aoo)
    assert "no melee weapon 'axe'" in r.reason
    # a kind this module does not know: the engine's generic reason
    decision = Decision("A", "no_such_kind", (Order("done"),), "?", "a")
    assert explain_refusal(state, decision, Order.of("brace")) is None
    assert explain_refusal(object(), decision, Order.of("brace")) is None


# ------------------------------------------------------------------- Utility actions

SPELLS: list[dict[str, Any]] = [
    {"name": "bolt", "phase": "ranged", "range": 8,
     "attack": {"type": "ranged", "strength": 4}, "surge": {"strength": 2}},
    {"name": "spark", "phase": "ranged", "range": 3, "melee_safe": True,
     "attack": {"type": "direct", "strength": 3}},
    {"name": "grasp", "phase": "melee", "range": 1, "attack": {"type": "melee", "strength": 4}},
    {"name": "mend", "phase": "utility", "range": 3, "targets": "ally", "count": 2,
     "effect": {"heal": 1}},
    {"name": "stride", "phase": "movement", "targets": "self", "effect": {"teleport": 2}},
    {"name": "lore", "phase": "non_combat", "targets": "self", "effect": {"heal": 1}},
    {"name": "gaze", "phase": "ranged", "range": 8, "attack": {"type": "direct", "strength": 4}},
    {"name": "rain", "phase": "ranged", "range": 8,
     "attack": {"type": "bombardment", "strength": 4}},
]


def mage(cid: str, at: tuple[int, int], side: str = "A", spells: list[str] | None = None,
         **stats: Any) -> dict[str, Any]:
    return char(cid, at, side, kind="hero", magic=stats.pop("magic", 5),
                spells=spells if spells is not None else ["bolt", "grasp", "mend", "stride",
                                                          "lore", "spark"], **stats)


def world(chars: list[dict[str, Any]], **kwargs: Any) -> WarbandState:
    return make_state(chars, spells=SPELLS, **kwargs)


@pytest.mark.rule("WB-UTIL-06", "WB-UTIL-04", "WB-UTIL-23")
def test_brace_without_the_talent_a_repeated_action_and_a_routing_character() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    r = judge(state, "utility", "a", "brace")
    assert str(r) == "a has no talent that allows Bracing (WB-UTIL-06)"
    state.chars["a"].utility_done.add("encourage")
    r = judge(state, "utility", "a", "encourage")
    assert str(r) == "a has already taken encourage this turn (WB-UTIL-04)"
    state.chars["a"].routing = True
    r = judge(state, "utility", "a", "rotate E")
    assert str(r) == "a is Routing: its only Utility action is rally (WB-UTIL-23)"


@pytest.mark.rule("WB-UTIL-09", "WB-AMB-11")
def test_disengage_when_free_or_to_a_square_that_does_not_qualify() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (9, 9), "B")])
    r = judge(state, "utility", "a", "disengage 4 4")
    assert str(r) == "a is not Engaged in Melee (WB-UTIL-09)"
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 6), "B"),
                        char("c", (4, 4), "A")])
    r = judge(state, "utility", "a", "disengage 6 5")
    assert str(r) == ("6,5 is next to b: a Disengage ends on a free neighbouring square 2 or "
                      "more squares from every adjacent enemy (open: 5,4 6,4) (WB-AMB-11)")
    r = judge(state, "utility", "a", "disengage 4 4")
    assert "4,4 is taken by c" in r.reason and r.rule == "WB-AMB-11"
    r = judge(state, "utility", "a", "disengage 5 3")
    assert "5,3 is not next to a" in r.reason
    r = judge(state, "utility", "a", "disengage 5")
    assert str(r) == "disengage needs two numbers, x and y (disengage X Y)"


@pytest.mark.rule("WB-UTIL-15", "WB-UTIL-16", "WB-AMB-13")
def test_rally_when_not_routing_or_next_to_an_enemy() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 7), "B"),
                        char("c", (9, 9), "A")])
    r = judge(state, "utility", "a", "rally")
    assert str(r) == "a is not Routing (WB-UTIL-15)"
    state.chars["a"].routing = True
    r = judge(state, "utility", "a", "rally")
    assert str(r) == ("the nearest other character to a is an enemy (ruling WB-AMB-13) "
                      "(WB-UTIL-16)")


@pytest.mark.rule("WB-TURN-03", "WB-UTIL-21", "WB-UTIL-20")
def test_rotate_swap_and_use_refusals() -> None:
    items = [{"name": "healing draught", "heal": 1}]
    state = make_state([char("a", (5, 5), "A", items=items,
                             armour_items=[{"name": "helm", "value": 1}]),
                        char("c", (8, 8), "A"), char("b", (1, 1), "B")])
    r = judge(state, "utility", "a", "rotate up")
    assert str(r) == "rotate needs one of the eight facings: N NE E SE S SW W NW (WB-TURN-03)"
    r = judge(state, "utility", "a", "rotate ne")
    assert r.rule == "WB-TURN-03" and r.reason.endswith("write it in capitals: rotate NE")
    r = judge(state, "utility", "a", "use healing_draugt a")
    assert str(r) == ("a has no consumable item 'healing_draugt'; did you mean "
                      "healing_draught? (consumable items: healing_draught)")
    r = judge(state, "utility", "a", "use healing_draught c")
    assert str(r) == ("c is neither a nor an ally next to it (may take it: a) (WB-UTIL-21)")
    r = judge(state, "utility", "a", "use healing_draught")
    assert str(r) == "use needs an item and who it is for (use ITEM NAME)"
    r = judge(state, "utility", "a", "swap hlem")
    assert str(r) == ("a wears no armour 'hlem'; did you mean helm?; armour is never put on "
                      "(WB-UTIL-20)")


@pytest.mark.rule("WB-UTIL-22")
def test_a_second_utility_spell() -> None:
    state = world([mage("m", (5, 5)), char("c", (5, 7), "A"), char("b", (11, 11), "B")])
    state.chars["m"].utility_done.add(utility.SPELL)
    r = judge(state, "utility", "m", "cast mend c base")
    assert str(r) == "m has already cast a Utility Spell this phase (WB-UTIL-22)"


# ------------------------------------------------------------------- casting


def ranged_options(state: WarbandState, cid: str) -> list[Order]:
    c = state.chars[cid]
    return [Order("none"), *combat.ranged_options(state, c),
            *magic.spell_options(state, c, "ranged")]


@pytest.mark.rule("WB-MAGIC-04", "WB-MAGIC-05", "WB-SPELL-03", "WB-SPELL-05")
def test_unknown_unlearnt_wrong_phase_and_out_of_range_spells() -> None:
    state = world([mage("m", (5, 1)), char("b", (5, 10), "B"), char("e", (5, 4), "B")])
    opts = ranged_options(state, "m")
    r = judge(state, "ranged", "m", "cast blot e base", opts)
    assert str(r) == "there is no spell 'blot'; did you mean bolt?"
    r = judge(state, "ranged", "m", "cast gaze e base", opts)
    assert str(r) == "m does not know gaze (WB-MAGIC-04)"
    r = judge(state, "ranged", "m", "cast grasp e base", opts)
    assert str(r) == "grasp is a Melee Phase spell, not Ranged (WB-MAGIC-05)"
    r = judge(state, "ranged", "m", "cast lore self base", opts)
    assert str(r) == "lore is a Non-Combat Spell (WB-SPELL-03)"
    r = judge(state, "ranged", "m", "cast bolt b base", opts)
    assert str(r) == "b is 9 squares away; bolt reaches 8 (WB-SPELL-05)"
    r = judge(state, "ranged", "m", "cast bolt e")
    assert r.reason.startswith("cast needs a spell, a target and a level")
    state.chars["m"].spells.append(state.spells["rain"])
    r = judge(state, "ranged", "m", "cast rain e base", ranged_options(state, "m"))
    assert str(r) == "rain is aimed at a square: cast rain X,Y LEVEL (open: 5,4) (WB-ASK-17)"
    r = judge(state, "ranged", "m", "cast rain 5,10 base", ranged_options(state, "m"))
    assert str(r) == "5,10 is 9 squares away; rain reaches 8 (WB-SPELL-05)"
    state.chars["m"].base["magic"] = 0
    r = judge(state, "ranged", "m", "cast bolt e base", [Order("none")])
    assert str(r) == "m has Magic 0: not a Mage (WB-MAGIC-04)"


@pytest.mark.rule("WB-RANGED-05", "WB-MELEE-06", "WB-RANGED-03", "WB-AMB-47")
def test_no_attacks_left_engaged_or_routing_casters() -> None:
    state = world([mage("m", (5, 5), attacks=1), char("b", (5, 6), "B"),
                   char("e", (5, 8), "B")])
    r = judge(state, "ranged", "m", "cast bolt e base", ranged_options(state, "m"))
    assert str(r) == "m is Engaged in Melee and bolt is not Melee-Safe (WB-RANGED-03)"
    state.chars["m"].attacks_used = 1
    r = judge(state, "ranged", "m", "cast spark e base", ranged_options(state, "m"))
    assert str(r) == ("m has no Attacks left this turn, and each Ranged Spell uses one "
                      "(WB-RANGED-05)")
    r = judge(state, "melee", "m", "cast grasp b base")
    assert str(r) == ("m has no Attacks left this turn, and each Melee Spell uses one "
                      "(WB-MELEE-06)")
    state.chars["m"].routing = True
    r = judge(state, "melee", "m", "cast grasp b base")
    assert str(r) == "m is Routing and casts no spells (WB-AMB-47)"


@pytest.mark.rule("WB-MAGIC-10", "WB-MAGIC-13", "WB-AMB-60")
def test_surge_after_another_spell_and_under_the_surge_lock() -> None:
    state = world([mage("m", (5, 1), attacks=3), char("e", (5, 4), "B")])
    state.chars["m"].spells_tried = 1
    opts = ranged_options(state, "m")
    r = judge(state, "ranged", "m", "cast bolt e surge", opts)
    assert str(r) == ("m has already cast a spell this turn: Surge is only for the first "
                      "(ruling WB-AMB-60) (WB-MAGIC-10)")
    r = judge(state, "cast_more", "m", "cast bolt e surge-plain",
              [o for o in opts if o.kind == "cast"] + [Order("done")])
    assert r.rule == "WB-MAGIC-10"
    state.chars["m"].surge_lock = (2, "ranged")
    r = judge(state, "ranged", "m", "cast bolt e base", [Order("none")])
    assert str(r) == "m Surged and casts nothing until the ranged Phase of turn 2 (WB-MAGIC-13)"


@pytest.mark.rule("WB-SPELL-05", "WB-ASK-17")
def test_another_spell_target() -> None:
    state = world([mage("m", (5, 5)), char("c", (5, 7), "A"), char("d", (5, 11), "A"),
                   char("f", (6, 6), "A"), char("b", (0, 11), "B")])
    options = [Order.of("target", "f"), Order("done")]
    r = judge(state, "spell_target", "m", "target c", options)
    assert str(r) == "c is already a target of mend (WB-ASK-17)"
    r = judge(state, "spell_target", "m", "target d", options)
    assert str(r) == "d is 6 squares away; mend reaches 3 (WB-SPELL-05)"
    r = judge(state, "spell_target", "m", "target q", options)
    assert str(r) == "there is no character 'q'"


@pytest.mark.rule("WB-AMB-64", "WB-DISPEL-10")
def test_dispel_refusals() -> None:
    state = world([mage("m", (5, 1)), mage("n", (5, 9), "B"), char("k", (6, 9), "B")])
    options = [Order("no-dispel"), Order.of("dispel", "n")]
    r = judge(state, "dispel", "m", "dispel k", options, side="B")
    assert str(r) == "k is not a Mage (WB-AMB-64)"
    r = judge(state, "dispel", "m", "dispel m", options, side="B")
    assert str(r) == "m is not on B's side (WB-AMB-64)"
    state.chars["n"].dispelled_turn = state.turn
    r = judge(state, "dispel", "m", "dispel n", [Order("no-dispel")], side="B")
    assert str(r) == "n has already tried a Dispel this turn (WB-DISPEL-10)"


@pytest.mark.rule("WB-SPELL-05", "WB-AMB-03")
def test_teleport_too_far_or_onto_someone() -> None:
    state = world([mage("m", (5, 5)), char("c", (6, 6), "A"), char("b", (0, 11), "B")])
    options = [Order.of("teleport", x, y) for x in range(3, 8) for y in range(3, 8)
               if (x, y) not in ((5, 5), (6, 6))]
    r = judge(state, "teleport", "m", "teleport 6 6", options)
    assert str(r) == "6,6 is taken by c: a teleport ends on a free square (WB-AMB-03)"
    r = judge(state, "teleport", "m", "teleport 9 5", options)
    assert str(r) == "9,5 is 4 squares away; the spell takes m at most 2 (WB-SPELL-05)"


@pytest.mark.rule("WB-INCIDENT-05")
def test_burning_a_fate_point_without_one() -> None:
    state = make_state([char("a", (1, 1), "A", kind="hero"), char("b", (9, 9), "B")])
    r = judge(state, "fate", "a", "burn-fate", [Order("roll")])
    assert str(r) == "a has no Fate Points left (WB-INCIDENT-05)"


@pytest.mark.rule("WB-AMB-26")
def test_a_target_already_struck_in_a_split_action() -> None:
    state = make_state([char("a", (5, 5), "A", attacks=3), char("b", (5, 6), "B"),
                        char("c", (6, 6), "B")],
                       options={"split_attacks_between_targets": True})
    options = [Order("none"), *[o for o in combat.melee_options(state, state.chars["a"])
                                if o.args[0] != "b"]]
    r = judge(state, "melee_more", "a", "attack b sword 1", options)
    assert str(r) == ("b has already been struck in this action: the Attacks left go at "
                      "other targets (WB-AMB-26)")
    r = judge(state, "melee_more", "a", "attack c sword 4", options)
    assert r.rule == "WB-ATTACK-16"
    state = make_state([char("a", (1, 1), "A", attacks=3, weapons=[BOW]),
                        char("b", (1, 4), "B"), char("c", (2, 4), "B")],
                       options={"split_attacks_between_targets": True})
    options = [Order("none"), *[o for o in combat.ranged_options(state, state.chars["a"])
                                if o.args[0] == "c"]]
    r = judge(state, "ranged_more", "a", "shoot b bow 1", options)
    assert r.rule == "WB-AMB-26"


# ------------------------------------------------------------------- climb and jump


def block_state(**stats: Any) -> WarbandState:
    block = [{"from": [6, 4], "to": [8, 8], "elevation": 3, "climb": "agility"},
             {"from": [0, 0], "to": [1, 1], "elevation": 3}]
    return make_state([char("a", (5, 6), "A", **{"agility": 6, **stats}),
                       char("b", (0, 11), "B")], features=block)


@pytest.mark.rule("WB-MOVE-10", "WB-AMB-17")
def test_climb_without_a_surface_or_too_high() -> None:
    state = block_state(agility=5)
    r = judge(state, "movement", "a", "climb 6 6")
    assert str(r) == ("6,6 is 3 squares up or down; a climbs at most 2 (half its Agility 5, "
                      "rounded down) (WB-MOVE-10)")
    state = block_state()
    state.place(state.chars["a"], (2, 1))
    r = judge(state, "movement", "a", "climb 1 1")
    assert str(r) == "there is no climbable surface between 2,1 and 1,1 (WB-AMB-17)"
    r = judge(state, "movement", "a", "climb 4 1")
    assert r.rule == "WB-AMB-17" and "not next to a" in r.reason
    r = judge(state, "movement", "a", "climb 1")
    assert r.reason.startswith("climb needs the square")


@pytest.mark.rule("WB-MOVE-14", "WB-AMB-18")
def test_jump_too_far_or_blocked() -> None:
    state = make_state([char("a", (1, 1), "A", agility=3), char("b", (9, 9), "B")],
                       features=[{"from": [2, 0], "to": [2, 3], "terrain": "blocking"},
                                 {"from": [1, 6], "elevation": 3}])
    r = judge(state, "movement", "a", "jump 1 6")
    assert str(r) == ("1,6 is 5 squares away counting height; a jumps at most 3 (Agility 3) "
                      "(WB-MOVE-14)")
    r = judge(state, "movement", "a", "jump 3 1")
    assert str(r) == ("the way to 3,1 is shut: a blocking square, ground higher than both "
                      "ends, or an enemy lies on the line (WB-AMB-18)")


# ------------------------------------------------------------------- a live battle


@pytest.mark.rule("WB-MAGIC-04", "WB-MAGIC-05")
def test_a_bad_cast_in_a_live_mage_duel() -> None:
    from warhost.core.commanders import FirstOptionCommander
    from warhost.core.engine import run_battle
    from warhost.core.scenario import load_scenario

    seen: list[Refusal | Order] = []

    class Probe(FirstOptionCommander):
        def choose(self, decision: Decision, state: Any) -> Order:
            if decision.kind == "utility" and decision.subject == "ilsa" and not seen:
                assert self.referee is not None
                seen.append(self.referee.judge(decision, "cast searing_gaze vask base"))
                seen.append(self.referee.judge(decision, "cast blink self base"))
                seen.append(self.referee.judge(decision, "cast arcane_blot vask base"))
            return super().choose(decision, state)

    example = Path(__file__).parents[3] / "examples" / "warband" / "mage-duel.yaml"
    run_battle(load_scenario(example), 1, {"Circle": Probe(), "Coven": "first"}, record=False)
    assert [str(r) for r in seen] == [
        "Ilsa the Grey (ilsa) does not know searing gaze (WB-MAGIC-04)",
        "blink is a Movement Phase spell, not Utility (WB-MAGIC-05)",
        "there is no spell 'arcane_blot'; did you mean arcane_bolt?",
    ]
    assert all(isinstance(r, Refusal) for r in seen)


@pytest.mark.rule("WB-UTIL-07", "WB-MOVE-24")
def test_a_braced_caster_cannot_teleport_and_a_sprinter_cannot_cast() -> None:
    state = world([mage("m", (5, 5)), char("e", (5, 8), "B")])
    state.chars["m"].braced = True
    r = judge(state, "movement", "m", "cast stride self base")
    assert str(r) == "m Braced this turn and cannot move (WB-UTIL-07)"
    state.chars["m"].sprinted = True
    r = judge(state, "ranged", "m", "cast bolt e base", [Order("none")])
    assert str(r) == "m Sprinted this turn and may make no attacks (WB-MOVE-24)"


@pytest.mark.rule("WB-TURN-01")
def test_an_action_of_another_phase_names_the_phase_it_belongs_to() -> None:
    from warhost.core.decisions import Decision
    from warhost.rulesets.warband.explain import explain_refusal

    state = make_state([char("a", (5, 5), "A"), char("b", (5, 9), "B", facing="S")])
    utility = Decision("A", "utility", (Order("done"),), subject="a")
    said = explain_refusal(state, utility, Order.parse("move 5 6"))
    assert str(said) == "move is a Movement Phase action; this is the Utility Phase (WB-TURN-01)"
    melee = Decision("A", "melee", (Order("none"),), subject="a")
    said = explain_refusal(state, melee, Order.parse("shoot b bow 1"))
    assert str(said) == "shoot is a Ranged Phase action; this is the Melee Phase (WB-TURN-01)"
    assert explain_refusal(state, utility, Order.parse("dance")) is None
