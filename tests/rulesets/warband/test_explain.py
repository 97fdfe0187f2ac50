"""Refusals that explain (the `warband` explanation hook): each names its reason and rule."""

from __future__ import annotations

import pytest

from tests.rulesets.warband.helpers import char, make_battle, make_state
from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.rulesets.warband import combat, movement
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
            options = movement.movement_choices(state, char)[0]
        elif kind == "ranged":
            options = [Order("none"), *combat.ranged_options(state, char)]
        elif kind == "melee":
            options = [Order("none"), *combat.melee_options(state, char)]
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
    decision = Decision("A", "utility", (Order("done"),), "?", "a")
    assert explain_refusal(state, decision, Order.of("brace")) is None
    assert explain_refusal(object(), decision, Order.of("brace")) is None
