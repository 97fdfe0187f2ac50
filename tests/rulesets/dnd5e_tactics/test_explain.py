"""Refusals that say why (explain.py, ``Dnd5eTactics.explain_refusal``): for each decision the
ruleset asks, an illegal order gets its reason and the catalog rule, through ``Battle.judge``.

Unit ``a`` (side A, Thugs under a Knight Captain) stands at (24, 10) facing north; ``b`` (side
B) touches it at (24, 11), or stands 5 in away at (24, 16) (``APART``).
"""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.commanders import Commander, FirstOptionCommander
from warhost.core.decisions import Decision, Refusal
from warhost.core.engine import Battle
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.core.scenario import load_scenario
from warhost.rulesets.dnd5e_tactics import rounds, turns
from warhost.rulesets.dnd5e_tactics.explain import explain_refusal

from .c_helpers import MAGE
from .helpers import THUG, unit, unit_spec
from .j_helpers import judging, reason
from .t_helpers import APART, FAR, melee_thug, pair, quiet_ctx

EXAMPLE = get_ruleset("dnd5e-tactics").examples()[0].parent / "open-field.yaml"


def turn(ctx: Any, body_id: str = "a") -> None:
    ctx.state.round = max(ctx.state.round, 1)
    turns.take_turn(ctx, ctx.state.bodies[body_id])


def judge(ctx: Any, decision: Decision, text: str) -> str:
    """``Battle.judge`` of a decision built here (for states the battle never asks in)."""
    return reason(ctx.battle.judge(decision, text))


def reasons(found: dict[str, Order | Refusal]) -> dict[str, str]:
    return {text: reason(verdict) for text, verdict in found.items()}


# --------------------------------------------------------------------------- rounds


@pytest.mark.rule("T5-ROUND-09", "T5-ROUND-04", "T5-ROUND-05", "T5-DEC-12", "T5-DEC-05")
def test_the_round_one_stance_decision_explains_orders_meant_for_other_decisions() -> None:
    ctx = quiet_ctx(pair(b_at=APART), round_=1)
    found = judging(ctx, "stance", ["switch vicious", "stance loose", "move 24,12 0",
                                    "advance 2"], subject="a")
    rounds.stance_step(ctx)
    assert reasons(found) == {
        "switch vicious": "a Tactics Track switch is chosen at step 3 of a round, which round 1 "
                          "skips (T5-ROUND-09)",
        "stance loose": "stance 'loose' is not one of: close, open; did you mean close? "
                        "(T5-ROUND-04)",
        "move 24,12 0": "movement is ordered at the start of a body's turn (T5-DEC-12)",
        "advance 2": "the Tactics Track advance is chosen at step 3 of a round, which round 1 "
                     "skips (T5-ROUND-09)",
    }


def test_a_word_no_decision_takes_gets_the_generic_reason() -> None:
    ctx = quiet_ctx(pair(b_at=APART), round_=1)
    found = judging(ctx, "stance", ["fly north"], subject="a")
    rounds.stance_step(ctx)
    assert reason(found["fly north"]) == \
        "a 'fly' order does not answer this decision, which takes 'stance'"


@pytest.mark.rule("T5-ROUND-03", "T5-AMB-09")
def test_a_stance_switch_that_cannot_happen_says_why() -> None:
    keep = Decision("A", "stance", (Order.of("stance", "close"),), subject="a")
    edge = quiet_ctx(pair(a_at=(3.0, 10.0), b_at=APART), round_=1)
    assert judge(edge, keep, "stance open") == \
        "re-formed in open stance, a would reach past the edge of the table (T5-AMB-09)"
    engaged = quiet_ctx(pair(), round_=1)
    assert judge(engaged, keep, "stance open") == \
        "a is engaged in melee and keeps its stance (T5-ROUND-03)"


@pytest.mark.rule("T5-ROUND-08", "T5-TACTICS-01", "T5-ROUND-05")
def test_the_tactics_decision_explains_bad_switches() -> None:
    ctx = quiet_ctx(pair(b_at=APART), round_=2)
    found = judging(ctx, "tactics", ["switch defensive", "switch viscous", "switch",
                                     "stance open"], subject="a")
    rounds.tactics_step(ctx)
    assert reasons(found) == {
        "switch defensive": "a is on the defensive track already; a switch picks another "
                            "(T5-ROUND-08)",
        "switch viscous": "track 'viscous' is not one of: defensive, aggressive, supporting, "
                          "vicious; did you mean vicious? (T5-TACTICS-01)",
        "switch": "switch needs a track: defensive, aggressive, supporting, vicious "
                  "(T5-ROUND-08)",
        "stance open": "a stance is kept or switched only at step 1 of a round (T5-ROUND-05)",
    }


@pytest.mark.rule("T5-ROUND-08", "T5-ROUND-10", "T5-AMB-06", "T5-DEC-06")
def test_a_switch_below_rank_zero_or_without_a_commander_is_refused() -> None:
    advance = Decision("A", "tactics", (Order("advance"),), subject="a")
    ctx = quiet_ctx(pair(b_at=APART), round_=2)
    a = unit(ctx, "a")
    a.rank_at_round_start = -1
    assert judge(ctx, advance, "switch vicious") == \
        "a began the round at rank -1; only a unit at rank 0 or higher may switch tracks " \
        "(T5-ROUND-08)"
    a.commander.alive = False
    assert judge(ctx, advance, "switch vicious") == \
        "a has lost its commander and can never switch tracks (T5-ROUND-10)"
    later = quiet_ctx(pair(b_at=APART), round_=3)
    stance = Decision("A", "stance", (Order.of("stance", "close"),), subject="a")
    assert judge(later, stance, "switch vicious") == \
        "a Tactics Track switch is chosen at step 3 of a round (T5-DEC-06)"


# --------------------------------------------------------------------------- unit actions


@pytest.mark.rule("T5-AMB-10", "T5-DEC-13", "T5-ENCOURAGE-01")
def test_the_unit_action_explains_targets_and_words() -> None:
    ctx = quiet_ctx(pair(b_at=APART))
    texts = ["attack melee b", "attack melee bb", "attack Mace b", "attack ranged b",
             "attack melee a", "dash 24,12 0", "dodge now", "encourage persuasion"]
    found = judging(ctx, "unit_action", texts)
    turn(ctx)
    assert reasons(found) == {
        "attack melee b": "a is not engaged with b (T5-AMB-10)",
        "attack melee bb": "there is no unit or Single Character 'bb'; did you mean b? "
                           "(T5-DEC-13)",
        "attack Mace b": "a unit attacks with its whole melee or ranged routine: 'attack melee "
                         "TARGET' or 'attack ranged TARGET'; Mace is one of its attacks, made "
                         "as part of the routine (T5-DEC-13)",
        "attack ranged b": "a has no ranged attack (T5-DEC-13)",
        "attack melee a": "a is on the same side (T5-DEC-13)",
        "dash 24,12 0": "a Dash is ordered with the move, at the start of the turn: dash X,Y "
                        "FACING (T5-DEC-13)",
        "dodge now": "dodge takes no arguments here (T5-DEC-13)",
        "encourage persuasion": "encouragement is the action or bonus action of a unit's "
                                "commander (T5-ENCOURAGE-01)",
    }


@pytest.mark.rule("T5-RANGED-01", "T5-AMB-32", "T5-GEN-02")
def test_a_shot_at_an_engaged_or_distant_enemy_is_refused() -> None:
    """b is engaged with a2 (which touches its far side); c stands 45 in away, beyond the
    crossbow's 400 ft (40 in)."""
    model = pair({"member": THUG}, b_at=APART, board=(48, 60),
                 extra={"A": [unit_spec("a2", (24.0, 17.0), member=melee_thug())],
                        "B": [unit_spec("c", (24.0, 56.0), member=melee_thug())]})
    ctx = quiet_ctx(model)
    found = judging(ctx, "unit_action", ["attack ranged b", "attack ranged c"])
    turn(ctx)
    assert reasons(found) == {
        "attack ranged b": "b is engaged in melee (T5-RANGED-01)",
        "attack ranged c": "c is 450 ft away, beyond Heavy Crossbow's 400 ft (T5-GEN-02)",
    }


# --------------------------------------------------------------------------- commanders


@pytest.mark.rule("T5-GEN-02", "T5-COMMANDER-01", "T5-TERRAIN-04", "T5-ENCOURAGE-01",
                  "T5-DEC-11")
def test_the_commanders_action_explains_attacks_and_words() -> None:
    ctx = quiet_ctx(pair(b_at=APART))
    texts = ["attack Greatsword b", "attack Longsword b", "attack Greatsword", "dodge",
             "cover", "encourage charm", "area Fireball b", "heal Cure_Wounds a"]
    found = judging(ctx, "commander_action", texts)
    turn(ctx)
    assert reasons(found) == {
        "attack Greatsword b": "b is 50 ft away, beyond Greatsword's reach (T5-GEN-02)",
        "attack Longsword b": "attack 'Longsword' is not one of: Greatsword (T5-DEC-11)",
        "attack Greatsword": "attack needs an attack and a target, as in 'attack Greatsword "
                             "b-orcs' (T5-DEC-11)",
        "dodge": "a unit's commander takes no Dodge: it never moves or stands on its own "
                 "(T5-COMMANDER-01)",
        "cover": "the Ruins three-quarters cover takes a bonus action (T5-TERRAIN-04)",
        "encourage charm": "skill 'charm' is not one of: persuasion, insight, history "
                           "(T5-ENCOURAGE-01)",
        "area Fireball b": "there is no area effect 'Fireball' to use (T5-DEC-11)",
        "heal Cure_Wounds a": "there is no heal 'Cure_Wounds' to use (T5-DEC-11)",
    }


@pytest.mark.rule("T5-DEC-11", "T5-TERRAIN-04", "T5-DEC-10")
def test_the_commanders_bonus_action_explains_what_takes_an_action() -> None:
    ctx = quiet_ctx(pair(b_at=APART))
    found = judging(ctx, "commander_bonus", ["attack Greatsword b", "cover", "dodge"])
    turn(ctx)
    assert reasons(found) == {
        "attack Greatsword b": "an attack takes the action, not the bonus action (T5-DEC-11)",
        "cover": "a is not inside Ruins (T5-TERRAIN-04)",
        "dodge": "Dodge takes an action (T5-DEC-13)",
    }


@pytest.mark.rule("T5-AREA-01", "T5-DEC-10", "T5-DEC-11")
def test_an_area_effect_out_of_reach_out_of_uses_or_in_the_wrong_slot_is_refused() -> None:
    ctx = quiet_ctx(pair({"commander": MAGE}, b_at=FAR))
    bonus = judging(ctx, "commander_bonus", ["area Fireball b"])
    turn(ctx)
    assert reasons(bonus) == {"area Fireball b": "Fireball takes an action (T5-DEC-10)"}
    ctx = quiet_ctx(pair({"commander": MAGE}, b_at=FAR))
    action = judging(ctx, "commander_action", ["area Fireball b", "area Fireball a"])
    turn(ctx)
    assert reasons(action) == {
        "area Fireball b": "no placement of Fireball from where a stands covers b (T5-AREA-01)",
        "area Fireball a": "a is not an enemy on the table (T5-DEC-11)",
    }
    spent = quiet_ctx(pair({"commander": MAGE}, b_at=APART))
    unit(spent, "a").commander.uses["Fireball"] = 0
    used_up = judging(spent, "commander_action", ["area Fireball b"])
    turn(spent)
    assert reasons(used_up) == {"area Fireball b": "Fireball has no uses left (T5-DEC-11)"}


@pytest.mark.rule("T5-DUEL-01", "T5-AMB-13", "T5-DEC-07")
def test_a_call_out_names_why_the_target_cannot_be_called() -> None:
    model = pair(extra={"B": [unit_spec("c", (40.0, 30.0), member=melee_thug())]})
    ctx = quiet_ctx(model)
    found = judging(ctx, "callout", ["callout c", "callout a", "callout zz", "callout"])
    turn(ctx)
    assert reasons(found) == {
        "callout c": "a is not engaged with c (T5-DUEL-01)",
        "callout a": "a is not an enemy on the table (T5-DUEL-01)",
        "callout zz": "there is no unit or Single Character 'zz' (T5-DUEL-01)",
        "callout": "callout needs the id of the engaged enemy whose commander is called out "
                   "(T5-DEC-07)",
    }
    called = Decision("A", "callout", (Order("none"),), subject="a")
    unit(ctx, "a").commander.called_out_this_turn = True
    assert judge(ctx, called, "callout b") == \
        "Knight Captain has already called out an enemy this turn (T5-AMB-13)"


@pytest.mark.rule("T5-AMB-11", "T5-DEC-16")
def test_reactions_explain_the_form_and_a_used_reaction() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["move 24,8.6 0"]})
    by_unit = judging(ctx, "reaction", ["opportunity Mace"], subject="b")
    turn(ctx)
    assert reasons(by_unit) == {
        "opportunity Mace": "a unit's attack of opportunity is one melee resolution of its "
                            "first melee attack: answer opportunity or none (T5-AMB-11)"}
    ctx = quiet_ctx(pair(), orders={"A": ["move 24,8.6 0"]})
    by_commander = judging(ctx, "reaction", ["opportunity Axe", "opportunity"], subject="b",
                           where=lambda d: bool(d.info.get("commander")))
    turn(ctx)
    assert reasons(by_commander) == {
        "opportunity Axe": "melee attack 'Axe' is not one of: Greatsword (T5-DEC-16)",
        "opportunity": "opportunity needs the commander's melee attack: Greatsword "
                       "(T5-DEC-16)",
    }
    unit(ctx, "b").reaction_used = True
    again = Decision("B", "reaction", (Order("opportunity"), Order("none")), subject="b",
                     info={"mover": "a"})
    assert judge(ctx, again, "opportunity Mace") == \
        "b has used its reaction this round (T5-AMB-11)"


@pytest.mark.rule("T5-AMB-10")
def test_a_declared_engagement_must_name_the_enemy_asked_about() -> None:
    ctx = quiet_ctx(pair(b_at=(24.0, 11.6), engagement_model="declared"),
                    orders={"A": ["move 24,10.2 0"]})
    found = judging(ctx, "engage", ["engage a", "engage bx"])
    turn(ctx)
    assert reasons(found) == {
        "engage a": "this decision is whether to engage b: answer 'engage b' or none "
                    "(T5-AMB-10)",
        "engage bx": "there is no unit or Single Character 'bx'; did you mean b? (T5-AMB-10)",
    }


# --------------------------------------------------------------------------- End of Round


@pytest.mark.rule("T5-AMB-24", "T5-DEC-17", "T5-DEC-15")
def test_counts_and_words_without_arguments() -> None:
    ctx = quiet_ctx(pair(b_at=APART))
    count = Decision("A", "aoe_count", tuple(Order.of("count", n) for n in range(21)),
                     subject="b")
    assert judge(ctx, count, "count 25") == "b has 20 members: the count is 0 to 20 (T5-AMB-24)"
    assert judge(ctx, count, "count many") == \
        "count needs a whole number from 0 to 20 (T5-AMB-24)"
    remainder = Decision("B", "remainder", (Order("commander"), Order("casualty")),
                         subject="a")
    assert judge(ctx, remainder, "casualty 2") == "casualty takes no arguments here (T5-DEC-17)"
    mount = Decision("A", "mount", (Order("none"), Order("dash"), Order("disengage"),
                                    Order("dodge")), subject="a")
    assert judge(ctx, mount, "dash 24,12 0") == \
        "the mounts' dash takes no destination: answer dash, disengage, dodge or none; the " \
        "move is asked next (T5-DEC-15)"


# --------------------------------------------------------------------------- the hook


def test_explain_refusal_is_the_rulesets_hook_and_gives_none_without_a_state() -> None:
    decision = Decision("A", "stance", (Order.of("stance", "close"),), subject="a")
    assert explain_refusal(None, decision, Order.of("switch", "vicious")) is None
    ruleset = get_ruleset("dnd5e-tactics")
    ctx = quiet_ctx(pair(b_at=APART), round_=1)
    refusal = ruleset.explain_refusal(ctx.state, decision, Order.of("switch", "vicious"))
    assert refusal == Refusal("a Tactics Track switch is chosen at step 3 of a round, which "
                              "round 1 skips", "T5-ROUND-09")


class JudgesFirstMove(Commander):
    """Plays as ``inner``, but at its side's first move decision asks the battle to judge a
    few orders first."""

    kind = "judge"

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.inner = FirstOptionCommander()
        self.verdicts: dict[str, Order | Refusal] = {}

    def choose(self, decision: Decision, state: Any) -> Order:
        if decision.kind == "move" and not self.verdicts:
            self.verdicts = {t: self.judge(decision, t) for t in self.texts}
        return self.inner.choose(decision, state)


@pytest.mark.rule("T5-ROUND-12", "T5-FLEE-02", "T5-DEC-13")
def test_battle_judge_on_a_live_battle_gives_refusals_with_rule_ids() -> None:
    scenario = load_scenario(EXAMPLE)
    ruleset = scenario.ruleset
    watch = JudgesFirstMove(["move 31.3,20.0 0", "move -1.0,4.0 0", "attack melee bruisers",
                             "move 31.3,6.8 10"])
    battle = Battle(ruleset, scenario, 1, {"Greyhaven Watch": watch,
                                           "Red Hand": FirstOptionCommander()})
    state = ruleset.new_state(scenario, battle)
    ruleset.play(state, battle)
    found = watch.verdicts
    assert reason(found["move 31.3,20.0 0"]) == \
        "31.3,20.0 is 16.02 in of movement away; watch-archers moves at most 3 in (T5-ROUND-12)"
    assert reason(found["move -1.0,4.0 0"]).endswith("(T5-FLEE-02)")
    assert reason(found["attack melee bruisers"]) == \
        "an attack takes the action of a commander or a unit, after the move (T5-ROUND-11)"
    assert found["move 31.3,6.8 10"] == Order.of("move", "31.3,6.8", 10)
