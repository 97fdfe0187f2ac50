"""The ai commander with war machines (W4-DEC-19): fire is kept on the enemy unit it can
finish, and the units guarding the machines let a fresh enemy come on to them."""

from __future__ import annotations

from tests.rulesets.dnd4e_war.helpers import get, make_state, profile, unit
from tests.rulesets.dnd4e_war.test_machines import engine, goblins
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import ai_machines
from warhost.rulesets.dnd4e_war.ai import WarAI
from warhost.rulesets.dnd4e_war.state import WarState


def _bolt_against_two() -> WarState:
    """A bolt thrower facing two goblin units at the same range, ``gobs`` and ``rest``."""
    return make_state([engine(), goblins(at=(26.0, 30.0)),
                       unit("rest", "B", at=(46.0, 30.0), facing=180, companies=2,
                            profile=profile("Goblin warriors", race="goblin"))])


def _fire(state: WarState) -> Order:
    options = (Order.of("fire", "bolt", "gobs"), Order.of("fire", "bolt", "rest"),
               Order.of("done", "bolt"))
    decision = Decision("A", "machine_action", options, subject="bolt", default=options[-1])
    return WarAI().choose(decision, state)


def test_a_bolt_finishes_the_unit_that_has_few_models_left() -> None:
    state = _bolt_against_two()
    get(state, "gobs").companies = [2, 0]  # two goblins left of sixteen
    assert _fire(state) == Order.of("fire", "bolt", "gobs")
    state = _bolt_against_two()
    get(state, "rest").companies = [2, 0]
    assert _fire(state) == Order.of("fire", "bolt", "rest")


def test_wiping_a_unit_out_counts_its_whole_worth() -> None:
    state = _bolt_against_two()
    gobs = get(state, "gobs")
    gobs.companies = [2, 0]
    most = ai_machines.slain_value(state, gobs, 1.0)
    assert ai_machines.slain_value(state, gobs, 2.0) > 2 * most


def _guard_state(with_machine: bool, lost: int = 0) -> WarState:
    """Our strong block facing goblins 3" away; with or without a bolt thrower behind."""
    strong = profile("Knights", attacks=2, defenses={"ac": 24, "fortitude": 20,
                                                     "reflex": 18, "will": 18})
    units = [unit("knights", at=(36.0, 24.0), facing=0, companies=2, files=2, profile=strong),
             goblins(at=(36.0, 27.0))]
    if with_machine:
        units.append(engine(at=(10.0, 4.0)))
    state = make_state(units)
    if lost:
        gobs = get(state, "gobs")
        gobs.companies = [max(0, n - lost) for n in gobs.companies]
    return state


def _charge(state: WarState) -> Order:
    options = (Order.of("charge", "knights", "gobs"), Order.of("hold", "knights"))
    decision = Decision("A", "charge", options, subject="knights", default=options[-1])
    return WarAI().choose(decision, state)


def test_a_guard_of_the_machines_does_not_charge_a_fresh_enemy_in_front() -> None:
    assert _charge(_guard_state(False)) == Order.of("charge", "knights", "gobs")
    assert _charge(_guard_state(True)) == Order.of("hold", "knights")


def test_a_guard_goes_out_against_an_enemy_that_lost_half_its_models() -> None:
    assert _charge(_guard_state(True, lost=4)) == Order.of("charge", "knights", "gobs")


def test_a_guard_stays_when_the_worn_enemy_still_matches_half_its_numbers() -> None:
    state = _guard_state(True, lost=4)
    knights, gobs = get(state, "knights"), get(state, "gobs")
    knights.companies = [gobs.models, gobs.models]  # twice the goblins left, not more
    assert _charge(state) == Order.of("charge", "knights", "gobs")
    knights.companies = [gobs.models, gobs.models - 1]
    assert _charge(state) == Order.of("hold", "knights")


def test_in_the_last_two_turns_a_guard_not_ahead_on_points_goes_out() -> None:
    state = _guard_state(True)
    state.turn = state.options.turn_limit - 2
    assert _charge(state) == Order.of("hold", "knights")
    state.turn = state.options.turn_limit - 1  # a draw is no better than a loss
    assert _charge(state) == Order.of("charge", "knights", "gobs")
