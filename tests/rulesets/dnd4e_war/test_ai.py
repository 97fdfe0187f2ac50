"""The `dnd4e-war` AI commander: its choices on small states, and a seeded sample of the
AI-against-random benchmark (benchmarks/ai_vs_random.py has the full figures)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulesets.dnd4e_war.helpers import get, make_state, profile, unit
from warhost.core.decisions import Decision
from warhost.core.engine import run_battle
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario
from warhost.geometry.table import tray_gap
from warhost.rulesets.dnd4e_war.ai import WarAI, end_frame, squaring_moves
from warhost.rulesets.dnd4e_war.ai_judge import (
    average_worth,
    charge_edge,
    charge_payoff,
    contact_share,
    mean_damage,
)
from warhost.rulesets.dnd4e_war.model import Power
from warhost.rulesets.dnd4e_war.movement import Mover
from warhost.rulesets.dnd4e_war.state import Unit, WarState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "dnd4e-war"

BOW = {"name": "Bow", "kind": "ranged", "bonus": 8, "range": 24, "damage": "5"}
KNIFE = {"name": "Knife", "kind": "melee", "bonus": 4, "damage": "3"}


def ask(state: WarState, kind: str, options: list[Order], subject: str = "",
        side: str = "A", default: Order | None = None) -> Order:
    """What a fresh AI answers to one decision."""
    return WarAI().choose(Decision(side, kind, tuple(options), "", subject, default), state)


def archers(at: tuple[float, float] = (36, 10), **fields: object) -> dict[str, object]:
    return unit("bows", at=at, companies=1,
                profile=profile("Archer", powers=[BOW, KNIFE]), **fields)


# ---------------------------------------------------------------------------- shooting


def test_shoots_the_target_its_dice_hit_most_often() -> None:
    plated = profile("Plated", defenses={"ac": 24, "fortitude": 14, "reflex": 14, "will": 14})
    state = make_state([archers(),
                        unit("plated", "B", at=(30, 24), facing=180, profile=plated),
                        unit("plain", "B", at=(42, 24), facing=180)])
    options = [Order.of("target", "plated"), Order.of("target", "plain")]
    assert ask(state, "shooting_target", options, "bows") == Order.of("target", "plain")


def test_shoots_the_target_whose_hits_slay_most_models() -> None:
    tough = profile("Tough", resilience=3)
    state = make_state([archers(),
                        unit("tough", "B", at=(30, 24), facing=180, profile=tough),
                        unit("soft", "B", at=(42, 24), facing=180)])
    options = [Order.of("target", "tough"), Order.of("target", "soft")]
    assert ask(state, "shooting_target", options, "bows") == Order.of("target", "soft")
    # the same choice whichever option comes first
    assert ask(state, "shooting_target", options[::-1], "bows") == Order.of("target", "soft")


def test_shoots_a_unit_it_can_wipe_out_over_a_bigger_one() -> None:
    state = make_state([archers(),
                        unit("big", "B", at=(30, 24), facing=180, companies=2),
                        unit("last", "B", at=(44, 24), facing=180)])
    get(state, "last").companies = [1]  # nine of its ten have fallen
    ai = WarAI()
    bows = get(state, "bows")
    assert ai.shot_value(state, bows, get(state, "last")) > ai.shot_value(
        state, bows, get(state, "big"))


# ---------------------------------------------------------------------------- charges


def test_charges_a_target_in_likely_reach_and_not_one_out_of_reach() -> None:
    # Speed 6 charges 1d6 + 3: a gap of 5" is reached on 2 to 6 (5/6), one over 9" never
    state = make_state([unit("a", at=(36, 10), companies=2, files=2),
                        unit("near", "B", at=(30, 15), facing=180, models=4),
                        unit("far", "B", at=(50, 21), facing=180, models=4)])
    a = get(state, "a")
    assert tray_gap(a.frame(), get(state, "near").frame()) <= 5.0
    assert tray_gap(a.frame(), get(state, "far").frame()) > 9.0
    hold, near, far = (Order.of("hold", "a"), Order.of("charge", "a", "near"),
                       Order.of("charge", "a", "far"))
    assert ask(state, "charge", [hold, near, far], "a", default=hold) == near
    assert ask(state, "charge", [hold, far], "a", default=hold) == hold


@pytest.mark.parametrize("gap, charges", [(3.0, True), (7.0, True), (7.5, False)])
def test_charges_when_the_roll_reaches_half_the_time(gap: float, charges: bool) -> None:
    # Speed 6 charges 1d6 + 3 and a 1 fails: 3" is reached 5 times in 6, 7" on a 4 to 6
    # (one in two), 7.5" only on a 5 or 6 (one in three)
    state = make_state([unit("a", at=(36, 10)),
                        unit("b", "B", at=(36, 10 + gap), facing=180, models=4)])
    assert tray_gap(get(state, "a").frame(), get(state, "b").frame()) == pytest.approx(gap)
    hold, go = Order.of("hold", "a"), Order.of("charge", "a", "b")
    assert (ask(state, "charge", [hold, go], "a", default=hold) == go) is charges


def test_does_not_charge_into_a_fight_it_would_lose() -> None:
    giant = profile("Giant", powers=[{"name": "Club", "kind": "melee", "bonus": 20,
                                      "damage": "1[W]", "weapon_dice": "2d10"}],
                    defenses={"ac": 30, "fortitude": 24, "reflex": 20, "will": 20})
    state = make_state([unit("a", at=(36, 10), models=3),
                        unit("giants", "B", at=(36, 14), facing=180, companies=3, files=3,
                             profile=giant)])
    hold, go = Order.of("hold", "a"), Order.of("charge", "a", "giants")
    a, giants = get(state, "a"), get(state, "giants")
    assert charge_edge(state, a, a.frame(), giants, giants.frame(), "front") < 0
    assert ask(state, "charge", [hold, go], "a", default=hold) == hold


def test_a_charge_into_the_flank_is_worth_more_than_one_into_the_front() -> None:
    state = make_state([unit("a", at=(36, 10)), unit("b", "B", at=(36, 15), facing=180)])
    a, b = get(state, "a"), get(state, "b")
    front = charge_edge(state, a, a.frame(), b, b.frame(), "front")
    flank = charge_edge(state, a, a.frame(), b, b.frame(), "left")
    rear = charge_edge(state, a, a.frame(), b, b.frame(), "rear")
    assert flank > front + 1 and rear > front + 4 - 1e-9


def test_a_charge_is_worth_more_into_the_rear_and_less_into_a_stronger_unit() -> None:
    state = make_state([unit("a", at=(36, 10), companies=2, files=2),
                        unit("b", "B", at=(36, 15), facing=180, companies=2, files=2),
                        unit("big", "B", at=(10, 15), facing=180, companies=6, files=2)])
    a, b, big = get(state, "a"), get(state, "b"), get(state, "big")
    scale = average_worth(state)

    def worth(target: Unit, arc: str) -> float:
        return charge_payoff(state, a, a.frame(), target, target.frame(), arc, scale)

    assert worth(b, "rear") > worth(b, "left") > worth(b, "front")
    assert worth(big, "front") < worth(b, "front")


# ---------------------------------------------------------------------------- support, rally


def test_chooses_support_for_an_eligible_company() -> None:
    state = make_state([unit("a", companies=2, files=1), unit("b", "B", at=(20, 11),
                                                              facing=180)])
    options = [Order.of("fight", "a", 1), Order.of("support", "a", 1)]
    assert ask(state, "support", options, "a", default=options[0]) == options[1]


def test_always_tries_to_rally_rerolls_and_takes_the_initiative() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)])
    keep, rally = Order.of("keep_fleeing", "a"), Order.of("rally", "a")
    assert ask(state, "rally", [keep, rally], "a", default=keep) == rally
    assert ask(state, "reroll", [Order("accept"), Order("reroll")], "a") == Order("reroll")
    assert ask(state, "initiative", [Order("give"), Order("take")]) == Order("take")


def test_an_unknown_decision_takes_the_default_else_the_first_option() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)])
    options = [Order("one"), Order("two")]
    assert ask(state, "mystery", options, default=options[1]) == options[1]
    assert ask(state, "mystery", options) == options[0]


# ---------------------------------------------------------------------------- movement


def move_decision(state: WarState, uid: str) -> tuple[Decision, Mover]:
    mover = Mover(state, get(state, uid))
    return Decision("A", "unit_move", mover.options(), "", uid, Order("hold"),
                    accept=mover.judge), mover


def test_turns_to_face_an_enemy_threatening_its_flank() -> None:
    # a faces north; b stands 4" off its east flank, facing it, well within charge reach
    state = make_state([unit("a", at=(36, 10), companies=2, files=2),
                        unit("b", "B", at=(44, 9), facing=270, companies=2, files=2)])
    state.initiative = "B"  # b charges first this turn
    a, b = get(state, "a"), get(state, "b")
    assert a.frame().arc_of(b.frame().centre) == "right"
    decision, mover = move_decision(state, "a")
    order = WarAI().choose(decision, state)
    assert decision.find(order) is not None or mover.judge(order) == order
    frame = end_frame(a, order)
    assert frame is not None and frame.arc_of(b.frame().centre) == "front"


def test_keeps_its_formation_when_nothing_calls_for_a_reform() -> None:
    state = make_state([unit("a", at=(36, 6), companies=4, files=2),
                        unit("b", "B", at=(36, 42), facing=180, companies=2, files=2)])
    decision, _ = move_decision(state, "a")
    assert any(o.kind == "reform" for o in decision.options)
    order = WarAI().choose(decision, state)
    assert order.kind not in ("reform", "wheel", "pivot")
    frame = end_frame(get(state, "a"), order)
    assert frame is not None and frame.centre[1] > get(state, "a").frame().centre[1]


def test_a_fighting_unit_closes_on_the_enemy_when_it_has_no_shooting_advantage() -> None:
    state = make_state([unit("a", at=(20, 10), companies=2, files=2),
                        unit("b", "B", at=(28, 27), facing=180, companies=2, files=2)])
    decision, _ = move_decision(state, "a")
    order = WarAI().choose(decision, state)
    frame = end_frame(get(state, "a"), order)
    b = get(state, "b").frame()
    assert frame is not None and tray_gap(frame, b) < tray_gap(get(state, "a").frame(), b)


def test_a_shooter_moves_into_range_but_out_of_charge_reach() -> None:
    state = make_state([archers(at=(36, 4)),
                        unit("b", "B", at=(36, 30), facing=180, companies=2, files=2)])
    decision, _ = move_decision(state, "bows")
    order = WarAI().choose(decision, state)
    frame = end_frame(get(state, "bows"), order)
    b = get(state, "b")
    assert frame is not None and b.speed() + 3 < tray_gap(frame, b.frame()) <= 24.0


def test_the_end_frame_of_each_offered_move_is_where_the_rules_put_the_unit() -> None:
    state = make_state([unit("a", at=(36, 10), companies=4, files=2),
                        unit("b", "B", at=(36, 40), facing=180)])
    a = get(state, "a")
    decision, mover = move_decision(state, "a")
    for order in decision.options:
        plan = mover.plan(order)
        frame = end_frame(a, order)
        if order.kind == "hold":
            continue
        assert frame is not None and plan is not None and not isinstance(plan, str)
        got = getattr(plan, "frame", None)
        assert got is not None
        assert frame.centre == pytest.approx(got.centre, abs=1e-6)
        assert frame.facing == pytest.approx(got.facing, abs=1e-6)


# ---------------------------------------------------------------------------- close combat


def test_pursues_a_fleeing_unit_it_likely_catches_and_not_one_far_off() -> None:
    # Speed 6 pursues 2d6 inches: 3" is covered 33 times in 36, 12" once
    state = make_state([unit("a", at=(36, 10)),
                        unit("close", "B", at=(36, 16.0), facing=0),
                        unit("gone", "B", at=(20, 26.0), facing=0)])
    hold = Order.of("hold", "a")
    close, gone = Order.of("pursue", "a", "close"), Order.of("pursue", "a", "gone")
    assert ask(state, "pursue", [hold, gone, close], "a", default=hold) == close
    assert ask(state, "pursue", [hold, gone], "a", default=hold) == hold


def test_fights_its_most_favourable_combat_first() -> None:
    state = make_state([unit("a", at=(20, 10), companies=3, files=3),
                        unit("weak", "B", at=(20, 11), facing=180, models=2),
                        unit("c", at=(50, 10), models=2),
                        unit("strong", "B", at=(50, 11), facing=180, companies=3, files=3)])
    state.engage("a", "weak")
    state.engage("c", "strong")
    options = [Order.of("fight", "c"), Order.of("fight", "a")]
    assert ask(state, "fight", options) == Order.of("fight", "a")


def test_mean_damage_reads_weapon_dice_dice_and_flat_numbers() -> None:
    def power(damage: str, weapon: str | None = None) -> Power:
        return Power(name="p", kind="melee", bonus=1, damage=damage, weapon_dice=weapon)

    assert mean_damage(power("2d6+6")) == 13.0
    assert mean_damage(power("1[W]+4", "1d10")) == 9.5
    assert mean_damage(power("7")) == 7.0


# ---------------------------------------------------------------------------- against random


@pytest.mark.slow
@pytest.mark.parametrize("example, sides", [("hill-archers", ("Elves", "Drow"))])
def test_the_ai_beats_the_random_commander_in_a_seeded_sample(
        example: str, sides: tuple[str, str]) -> None:
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    wins = 0
    for seed in range(10):
        for ai_side, other in (sides, sides[::-1]):
            result = run_battle(scenario, seed, {ai_side: "ai", other: "random"},
                                record=False)
            wins += result.winner == ai_side
    assert wins >= 16


def test_offers_itself_legal_pivots_that_square_up_to_an_askew_enemy_block() -> None:
    # a stands 20 degrees askew to b: a charge keeping that facing would meet b at a corner
    state = make_state([unit("a", at=(36, 10), facing=20, companies=2, files=2),
                        unit("b", "B", at=(38, 18), facing=180, companies=2, files=2)])
    decision, mover = move_decision(state, "a")
    a = get(state, "a")
    moves = squaring_moves(decision, a, [get(state, "b")], a.frame())
    assert [m.text for m in moves][:1] == ["pivot a -20"]
    assert len(moves) == 3 and all(mover.judge(m) == m for m in moves)
    for move in moves:
        frame = end_frame(a, move)
        assert frame is not None and frame.facing == pytest.approx(0.0, abs=1e-6)
    assert contact_share(a, a.frame(), get(state, "b").frame()) == 0.5
    ends = [end_frame(a, m) for m in moves]
    assert all(e is not None and contact_share(a, e, get(state, "b").frame()) == 1.0
               for e in ends)


def test_an_enemy_charge_that_forces_a_fear_test_counts_the_unit_it_may_cost() -> None:
    # the same enemy 4" in front, once causing fear: a failed test makes a fall back
    def danger(rules: list[str]) -> float:
        fearful = profile("Ogre", rules=rules)
        state = make_state([unit("a", at=(36, 10), companies=2, files=2),
                            unit("b", "B", at=(36, 16), facing=180, companies=2, files=2,
                                 profile=fearful)])
        state.initiative = "B"
        a, b = get(state, "a"), get(state, "b")
        return WarAI()._danger(state, a, a.frame(), [b], False, {})

    assert danger(["fear"]) > danger([]) + 1.0
