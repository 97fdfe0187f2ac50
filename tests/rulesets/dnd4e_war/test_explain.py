"""Refusals that explain themselves (the `dnd4e-war` explanation hook): every decision kind
names its reason and the rule behind it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import get, make_battle, make_state, profile, unit
from warhost.core.commanders import RandomCommander
from warhost.core.decisions import Decision, Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import charge, movement, shooting
from warhost.rulesets.dnd4e_war.explain import DECISION_RULES, explain_refusal
from warhost.rulesets.dnd4e_war.state import WarState

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "dnd4e-war" / "hill-archers.yaml"

BOW = {"name": "Longbow", "kind": "ranged", "bonus": 8, "range": 20, "damage": "1[W]+2",
       "weapon_dice": "1d10"}
SPEAR = {"name": "Spear", "kind": "melee", "bonus": 8, "damage": "1[W]+2", "weapon_dice": "1d8"}
ARCHER = profile("Archer", powers=[BOW, SPEAR])


def judge(state: WarState, kind: str, options: Sequence[Order | str], text: str,
          subject: str = "", side: str = "A", accept: Any = None) -> Refusal:
    """The engine's verdict on ``text``; it must be a refusal."""
    opts = tuple(o if isinstance(o, Order) else Order.parse(o) for o in options)
    decision = Decision(side, kind, opts, "?", subject, accept=accept)
    verdict = make_battle(state).judge(decision, text)
    assert isinstance(verdict, Refusal), verdict
    return verdict


def _pair() -> WarState:
    return make_state([unit("a", at=(20, 10)), unit("a2", at=(40, 10)),
                       unit("b", "B", at=(20, 30), facing=180)])


@pytest.mark.rule("W4-TURN-02")
@pytest.mark.rule("W4-INIT-04")
def test_the_initiative_takes_take_or_give_and_nothing_else() -> None:
    state = _pair()
    r = judge(state, "initiative", ["take", "give"], "walk a 20,14")
    assert r.rule == "W4-TURN-02" and "Movement phase order" in r.reason
    assert "Initiative phase" in r.reason
    r = judge(state, "initiative", ["take", "give"], "take now")
    assert r.rule == "W4-INIT-04" and "takes nothing after it" in r.reason
    r = judge(state, "initiative", ["take", "give"], "grab")
    assert r.rule == "W4-INIT-04" and "give or take" in r.reason


@pytest.mark.rule("W4-CMD-09")
def test_a_battle_standard_re_roll_takes_no_arguments() -> None:
    r = judge(_pair(), "reroll", ["reroll", "accept"], "reroll twice", subject="a")
    assert r.rule == "W4-CMD-09"


@pytest.mark.rule("W4-FLEE-10")
def test_a_rally_names_the_fleeing_unit_asked_about() -> None:
    state = _pair()
    get(state, "a").fleeing = True
    options = ["rally a", "keep_fleeing a"]
    r = judge(state, "rally", options, "rally a2", subject="a")
    assert r.rule == "W4-FLEE-10" and "about a, not a2" in r.reason
    r = judge(state, "rally", options, "rally aa", subject="a")
    assert "there is no unit 'aa'" in r.reason and "did you mean a" in r.reason
    r = judge(state, "rally", options, "rally b", subject="a")
    assert "b belongs to B" in r.reason


@pytest.mark.rule("W4-FLEE-13")
@pytest.mark.rule("W4-AMB-81")
@pytest.mark.rule("W4-MOVE-02")
def test_units_that_may_not_make_their_remaining_move_say_why() -> None:
    state = make_state([unit("a", at=(10, 10)), unit("c", at=(30, 10)), unit("d", at=(50, 10)),
                        unit("f", at=(60, 30)), unit("b", "B", at=(30, 13.5), facing=180)])
    get(state, "f").fleeing = True
    state.engage("c", "b")
    get(state, "d").move_used = True
    ready = [u.id for u in state.units_of("A") if movement.may_act(state, u)]
    assert ready == ["a"]
    options = ["move a", "done"]
    r = judge(state, "next_move", options, "move f")
    assert r.rule == "W4-FLEE-13" and "fleeing" in r.reason
    r = judge(state, "next_move", options, "move c")
    assert r.rule == "W4-AMB-81" and "close combat" in r.reason
    r = judge(state, "next_move", options, "move d")
    assert r.rule == "W4-MOVE-02" and "already moved" in r.reason
    r = judge(state, "next_move", options, "move b")
    assert "b belongs to B" in r.reason
    r = judge(state, "compulsory_move", ["move f"], "move a")
    assert r.rule == "W4-FLEE-13" and "a is not fleeing" in r.reason


@pytest.mark.rule("W4-MOVE-07")
@pytest.mark.rule("W4-MOVE-21")
def test_an_open_move_decision_passes_on_its_own_refusals() -> None:
    state = _pair()
    mover = movement.Mover(state, get(state, "a"))
    r = judge(state, "unit_move", mover.options(), "walk a 20,5", subject="a",
              accept=mover.judge)
    assert r.rule == "W4-MOVE-07"
    r = judge(state, "unit_move", mover.options(), "run a 20,14", subject="a",
              accept=mover.judge)
    assert r.rule == "W4-MOVE-21"
    r = judge(state, "unit_move", mover.options(), "charge a b", subject="a",
              accept=mover.judge)
    assert r.rule == "W4-TURN-02" and "Charge phase order" in r.reason


def _shooters() -> WarState:
    return make_state([
        unit("a", at=(20, 10), profile=ARCHER), unit("r", at=(30, 10), profile=ARCHER),
        unit("s", at=(40, 10), profile=ARCHER), unit("e", at=(50, 10), profile=ARCHER),
        unit("m", at=(60, 10)), unit("f", at=(10, 10), profile=ARCHER),
        unit("far", at=(60, 36), profile=ARCHER),
        unit("b", "B", at=(20, 25), facing=180), unit("x", "B", at=(50, 13.5), facing=180),
        unit("behind", "B", at=(20, 3), facing=0)])


@pytest.mark.rule("W4-MOVE-17")
@pytest.mark.rule("W4-SHOOT-04")
@pytest.mark.rule("W4-AMB-80")
@pytest.mark.rule("W4-AMB-18")
@pytest.mark.rule("W4-SHOOT-03")
def test_units_that_may_not_shoot_say_why() -> None:
    state = _shooters()
    get(state, "r").reformed = True
    get(state, "s").shot = get(state, "s").standard_used = True
    state.engage("e", "x")
    get(state, "f").fleeing = True
    options = [Order.of("shoot", u.id) for u in state.units_of("A")
               if shooting.can_shoot(state, u) and shooting.usable_powers(state, u)]
    options.append(Order.of("done"))
    assert [str(o) for o in options] == ["shoot a", "done"]
    expected = {"r": "W4-MOVE-17", "s": "W4-SHOOT-04", "e": "W4-AMB-80", "f": "W4-AMB-18",
                "m": "W4-SHOOT-03", "far": "W4-SHOOT-06"}
    for uid, rule in expected.items():
        r = judge(state, "shooter", options, f"shoot {uid}")
        assert r.rule == rule, (uid, r)
    assert "no ranged or area power" in judge(state, "shooter", options, "shoot m").reason


@pytest.mark.rule("W4-SHOOT-06")
@pytest.mark.rule("W4-SHOOT-08")
@pytest.mark.rule("W4-SHOOT-09")
@pytest.mark.rule("W4-AMB-80")
def test_targets_that_may_not_be_shot_say_why() -> None:
    state = make_state(
        [unit("a", at=(20, 10), profile=ARCHER), unit("a2", at=(50, 10)),
         unit("near", "B", at=(20, 25), facing=180), unit("far", "B", at=(20, 40), facing=180),
         unit("behind", "B", at=(20, 3), facing=0), unit("hidden", "B", at=(34, 25),
                                                        facing=180),
         unit("busy", "B", at=(50, 13.5), facing=180)],
        terrain=[{"name": "Tower", "rect": [20, 14, 20, 2], "blocks_sight": True}])
    state.engage("a2", "busy")
    archer = get(state, "a")
    power = archer.powers("ranged")[0]
    legal = [t.id for t in shooting.legal_targets(state, archer, power)]
    assert legal == ["near"]
    options = [Order.of("target", uid) for uid in legal]
    r = judge(state, "shooting_target", options, "target far", subject="a")
    assert r.rule == "W4-SHOOT-06" and "reaches 20" in r.reason
    r = judge(state, "shooting_target", options, "target behind", subject="a")
    assert r.rule == "W4-SHOOT-08" and "arc of sight" in r.reason
    r = judge(state, "shooting_target", options, "target hidden", subject="a")
    assert r.rule == "W4-SHOOT-09" and "line of sight" in r.reason
    r = judge(state, "shooting_target", options, "target busy", subject="a")
    assert r.rule == "W4-AMB-80"
    r = judge(state, "shooting_target", options, "target a2", subject="a")
    assert "own side" in r.reason


@pytest.mark.rule("W4-AMB-49")
@pytest.mark.rule("W4-STAT-09")
def test_powers_and_multiattacks_that_do_not_exist_or_do_not_shoot() -> None:
    state = _shooters()
    options = ["use a longbow"]
    r = judge(state, "shooting_power", options, "use a spear", subject="a")
    assert r.rule == "W4-AMB-49" and "close combat" in r.reason
    r = judge(state, "shooting_power", options, "use a longbo", subject="a")
    assert r.rule == "W4-SHOOT-03" and "did you mean longbow" in r.reason
    r = judge(state, "multiattack", ["multiattack ranks", "multiattack none"],
              "multiattack captain", subject="a")
    assert r.rule == "W4-STAT-09" and "no captain" in r.reason
    r = judge(state, "multiattack", ["multiattack none"], "multiattack twice", subject="a")
    assert r.rule == "W4-DEC-16"


@pytest.mark.rule("W4-CHARGE-04")
@pytest.mark.rule("W4-CHARGE-10")
def test_charges_and_spearheads_that_are_not_allowed_say_why() -> None:
    state = make_state([unit("a", at=(20, 10), companies=4, files=2), unit("a2", at=(50, 10)),
                        unit("b", "B", at=(20, 20), facing=180),
                        unit("behind", "B", at=(20, 1), facing=0)])
    charger = get(state, "a")
    seen = [t.id for t in charge.visible_targets(state, charger)]
    assert seen == ["b"]
    options = ["hold a", "charge a b"]
    r = judge(state, "charge", options, "charge a behind", subject="a")
    assert r.rule == "W4-CHARGE-04" and "cannot see behind in its front arc" in r.reason
    r = judge(state, "charge", options, "charge a a2", subject="a")
    assert "own side" in r.reason
    r = judge(state, "charge", options, "charge a2 b", subject="a")
    assert "about a, not a2" in r.reason
    spear = ["spearhead a 0", "spearhead a 1"]
    r = judge(state, "spearhead", spear, "spearhead a 3", subject="a")
    assert r.rule == "W4-CHARGE-10" and "not in the front rank" in r.reason
    r = judge(state, "spearhead", spear, "spearhead a 7", subject="a")
    assert r.rule == "W4-CHARGE-10" and "no front-rank company 7" in r.reason
    r = judge(state, "next_charge", ["next_charge a"], "next_charge a2")
    assert r.rule == "W4-CHARGE-02" and "no charge waiting" in r.reason
    get(state, "a2").charged = True
    assert judge(state, "next_charge", ["next_charge a"], "next_charge a2").rule == "W4-DEC-20"


@pytest.mark.rule("W4-DEC-26")
def test_a_melee_power_is_named_by_its_number() -> None:
    state = make_state([unit("a", at=(20, 10), profile=ARCHER),
                        unit("b", "B", at=(20, 30), facing=180)])
    state.phase = "charge"
    r = judge(state, "power", ["power a 0"], "power a 5", subject="a")
    assert r.rule == "W4-DEC-26" and "0: Spear" in r.reason
    r = judge(state, "power", ["power a 0"], "shoot a", subject="a")
    assert r.rule == "W4-TURN-02" and "this is the Charge phase" in r.reason


@pytest.mark.rule("W4-MELEE-01")
@pytest.mark.rule("W4-MELEE-03")
@pytest.mark.rule("W4-RESOLVE-09")
@pytest.mark.rule("W4-MONSTER-09")
@pytest.mark.rule("W4-BREAK-04")
def test_close_combat_choices_that_are_not_allowed_say_why() -> None:
    beast = profile("Beast", monster=True, size="large", unit_size=[1, 3],
                    company={"columns": 2, "rows": 1})
    state = make_state([unit("a", at=(20, 10), companies=3, files=1),
                        unit("idle", at=(50, 10)), unit("m", at=(60, 30), companies=2, files=2, profile=beast),
                        unit("b", "B", at=(20, 10), facing=180),
                        unit("c", "B", at=(40, 40), facing=180)])
    state.engage("a", "b")
    r = judge(state, "fight", ["fight a"], "fight idle")
    assert r.rule == "W4-MELEE-03" and "not in close combat" in r.reason
    r = judge(state, "fight", ["fight a"], "fight b")
    assert r.rule == "W4-MELEE-01" and "'fight a'" in r.reason
    r = judge(state, "fight", ["fight a"], "walk a 20,14")
    assert r.rule == "W4-TURN-02"
    get(state, "a").companies[2] = 3  # more than half of 8 slain
    support = ["support a 1", "fight a 1"]
    r = judge(state, "support", support, "support a 2", subject="a")
    assert r.rule == "W4-RESOLVE-09" and "more than half" in r.reason
    r = judge(state, "support", support, "support a 0", subject="a")
    assert r.rule == "W4-RESOLVE-09" and "must fight" in r.reason
    r = judge(state, "support", ["support m 0", "fight m 0"], "support m 1", subject="m")
    assert r.rule == "W4-MONSTER-09"
    r = judge(state, "pursue", ["hold a", "pursue a b"], "pursue a c", subject="a")
    assert r.rule == "W4-BREAK-04" and "did not flee from this combat" in r.reason


class Prober(RandomCommander):
    """A random commander that first tries two illegal orders on every decision and keeps
    what the ruleset says about them."""

    chooses_by_count = False  # so that every decision reaches :meth:`choose`

    def __init__(self, seen: dict[str, list[Refusal]]) -> None:
        super().__init__()
        self.seen = seen

    def choose(self, decision: Decision, state: Any) -> Order:
        for text in ("frobnicate x", f"{decision.options[0].kind} nobody-here 1"):
            verdict = explain_refusal(state, decision, Order.parse(text))
            assert isinstance(verdict, Refusal), (decision.kind, text)
            self.seen.setdefault(decision.kind, []).append(verdict)
        return super().choose(decision, state)


@pytest.mark.rule("W4-TURN-02")
@pytest.mark.parametrize(("example", "sides", "met"), [
    ("hill-archers", ("Elves", "Drow"), {"initiative", "next_move", "unit_move", "charge"}),
    ("generals-duel", ("Humans", "Hobgoblins"), {"ap_act_first", "char_leave"}),
    ("siege-line", ("Dwarves", "Orcs"), {"machine_action", "machine_move"}),
])
def test_every_decision_met_in_battles_refuses_with_a_reason(
        example: str, sides: tuple[str, str], met: set[str]) -> None:
    from warhost.core.engine import run_battle
    from warhost.core.scenario import load_scenario

    scenario = load_scenario(EXAMPLE.parent / f"{example}.yaml")
    seen: dict[str, list[Refusal]] = {}
    for seed in (2, 12):
        run_battle(scenario, seed, {side: Prober(seen) for side in sides})
    assert met <= set(seen)
    for kind, verdicts in seen.items():
        assert kind in DECISION_RULES, kind
        wrong = verdicts[0::2]  # the frobnicate orders: wrong kind, with the decision's rule
        assert all(v.rule == DECISION_RULES[kind] for v in wrong), (kind, wrong[0])
        assert all(v.reason for v in verdicts[1::2]), kind
