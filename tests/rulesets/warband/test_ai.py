"""The `warband` AI commander: it answers only with offered orders, and it plays well —
focus fire, charges that strike first, flanks, high ground and cover, a careful Captain,
spells at Surge when the odds allow, dispels, and cheap decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, make_state
from warhost.core.decisions import Decision
from warhost.core.engine import run_battle
from warhost.core.metering import GEOMETRY, metered
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario
from warhost.rulesets.warband import combat, movement
from warhost.rulesets.warband.ai import WarbandAI, is_shooter
from warhost.rulesets.warband.ai_judge import EnemyField, expected_wounds, pass_chance
from warhost.rulesets.warband.attacks import AttackProfile, Circumstances
from warhost.rulesets.warband.state import Character, WarbandState

EXAMPLES = Path(__file__).parents[3] / "examples" / "warband"
BOW = {"name": "bow", "kind": "ranged", "strength": 4, "range": 12, "attack_limit": 2}
SWORD = {"name": "sword", "kind": "melee"}


def ask(ai: WarbandAI, state: WarbandState, kind: str, options: list[Order], who: str,
        default: Order | None = None) -> Order:
    """The AI's answer to a decision built from ``options``."""
    state.phase = kind if kind in ("movement", "ranged", "melee") else state.phase
    decision = Decision(state.chars[who].side, kind, tuple(options), subject=who,
                        default=default)
    order = ai.choose(decision, state)
    assert order in options or order == default
    return order


def movement_options(state: WarbandState, who: str) -> list[Order]:
    options, _ = movement.movement_choices(state, state.chars[who])
    return options


# ------------------------------------------------------------------------------- whole games


class Checking(WarbandAI):
    """The AI, checking every answer is one of the options offered (or the default)."""

    def choose(self, decision: Decision, state: Any) -> Order:
        order = super().choose(decision, state)
        assert decision.find(order) is not None or order == decision.default, (
            decision.kind, str(order))
        return order


@pytest.mark.parametrize("example", ["hero-skirmish", "hill-archers", "three-way"])
def test_ai_answers_only_with_offered_orders_in_whole_battles(
        example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from warhost.rulesets.warband import Warband

    monkeypatch.setattr(Warband, "make_ai", lambda self: Checking())
    scenario = load_scenario(EXAMPLES / f"{example}.yaml")
    sides = scenario.ruleset.side_names(scenario.model)
    result = run_battle(scenario, 5, {s: "ai" for s in sides}, record=False)
    assert result.rounds >= 1


def test_ai_beats_random_on_the_skirmish_example() -> None:
    """A small sample of the benchmark (benchmarks/ai_vs_random.py has the full figures)."""
    scenario = load_scenario(EXAMPLES / "hero-skirmish.yaml")
    wins = 0
    for seed in range(4):
        for ai_side, other in (("Company", "Raiders"), ("Raiders", "Company")):
            result = run_battle(scenario, seed, {ai_side: "ai", other: "random"}, record=False)
            wins += result.winner == ai_side
    assert wins >= 7


def test_unknown_decision_kind_takes_the_default_else_the_first_option() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (8, 8), "B")])
    ai = WarbandAI()
    options = [Order("roll"), Order("whatever")]
    assert ask(ai, state, "mystery", options, "a", default=options[1]) == options[1]
    assert ask(ai, state, "mystery", options, "a") == options[0]


# ---------------------------------------------------------------------------- odds sums


@pytest.mark.rule("WB-ATTACK-03")
@pytest.mark.rule("WB-ATTACK-05")
@pytest.mark.rule("WB-ATTACK-07")
@pytest.mark.rule("WB-ATTACK-10")
def test_expected_wounds_multiplies_hit_damage_and_failed_saves() -> None:
    state = make_state([char("a", (1, 1), "A", melee=6, strength=4),
                        char("b", (1, 2), "B", toughness=3, armour=1, ward=2,
                             armour_items=[{"name": "coat", "value": 1}])])
    a, b = state.chars["a"], state.chars["b"]
    profile = AttackProfile("sword", 4)
    # hit 6/10, wound 4/10, Defense 4 saves 4/10, Ward 2 saves 2/10
    value = expected_wounds(state, a, b, profile, Circumstances())
    assert value == pytest.approx(0.6 * 0.4 * 0.6 * 0.8)


@pytest.mark.rule("WB-INJURY-10")
def test_expected_wounds_of_a_blow_on_a_stunned_target_is_a_sure_hit_and_wound() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (1, 2), "B", toughness=3)])
    a, b = state.chars["a"], state.chars["b"]
    circ = Circumstances(target_condition="stunned")
    # no to-hit and no damage test; Defense 3 saves 3/10
    assert expected_wounds(state, a, b, AttackProfile("sword", 4), circ) == pytest.approx(0.7)


@pytest.mark.rule("WB-TEST-03")
def test_pass_chance_of_a_zero_score_is_nil() -> None:
    state = make_state([char("a", (1, 1), "A", ward=0), char("b", (8, 8), "B")])
    assert pass_chance(state, state.chars["a"], "ward", ward=True) == 0.0


# ---------------------------------------------------------------------------------- melee


@pytest.mark.rule("WB-MELEE-05")
def test_melee_uses_every_attack_on_the_hurt_enemy() -> None:
    state = make_state([
        char("a", (5, 5), "A", attacks=2),
        char("b", (4, 6), "B", wounds=2, facing="S"),
        char("c", (6, 6), "B", wounds=2, facing="S"),
    ])
    state.chars["c"].wounds = 1
    options = [Order("none"), *combat.melee_options(state, state.chars["a"])]
    assert str(ask(WarbandAI(), state, "melee", options, "a")) == "attack c sword 2"


@pytest.mark.rule("WB-INJURY-06")
def test_melee_goes_for_the_knocked_down_enemy() -> None:
    state = make_state([
        char("a", (5, 5), "A"),
        char("b", (4, 6), "B", facing="S"),
        char("c", (6, 6), "B", facing="S"),
    ])
    state.chars["b"].condition = "knocked_down"
    options = [Order("none"), *combat.melee_options(state, state.chars["a"])]
    assert str(ask(WarbandAI(), state, "melee", options, "a")) == "attack b sword 1"


@pytest.mark.rule("WB-CIRC-13")
def test_attack_of_opportunity_is_always_taken_with_the_best_weapon() -> None:
    state = make_state([
        char("a", (5, 5), "A", weapons=[{"name": "knife", "kind": "melee", "strength": 2},
                                        {"name": "axe", "kind": "melee", "strength": 6}]),
        char("b", (5, 6), "B"),
    ])
    options = [Order.of("opportunity", "b", "knife"), Order.of("opportunity", "b", "axe"),
               Order("no-opportunity")]
    assert ask(WarbandAI(), state, "opportunity", options, "a") == options[1]


# ------------------------------------------------------------------------------- movement


@pytest.mark.rule("WB-MOVE-06")
@pytest.mark.rule("WB-CIRC-18")
def test_a_fighter_charges_the_enemy_in_reach() -> None:
    state = make_state([char("a", (5, 2), "A", agility=5),
                        char("b", (5, 6), "B", facing="S")])
    order = ask(WarbandAI(), state, "movement", movement_options(state, "a"), "a")
    assert str(order) == "charge b"


@pytest.mark.rule("WB-CIRC-15")
@pytest.mark.rule("WB-CIRC-17")
def test_a_charge_prefers_the_enemy_whose_rear_it_reaches() -> None:
    # both are three squares away; c faces away from the charger, b faces it
    state = make_state([char("a", (5, 2), "A", agility=5),
                        char("b", (2, 5), "B", facing="SE"),
                        char("c", (8, 5), "B", facing="NE")])
    order = ask(WarbandAI(), state, "movement", movement_options(state, "a"), "a")
    assert str(order) == "charge c"


@pytest.mark.rule("WB-INJURY-04")
def test_a_knocked_down_character_stands_up() -> None:
    state = make_state([char("a", (5, 2), "A"), char("b", (5, 9), "B")])
    state.chars["a"].condition = "knocked_down"
    order = ask(WarbandAI(), state, "movement", movement_options(state, "a"), "a")
    assert str(order) == "stand"


def test_an_engaged_fighter_stays_to_fight() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 6), "B", facing="S")])
    order = ask(WarbandAI(), state, "movement", movement_options(state, "a"), "a")
    assert str(order) == "stay"


@pytest.mark.rule("WB-CIRC-01")
def test_a_shooter_takes_the_high_ground_in_range_and_out_of_charge_reach() -> None:
    hill = [{"from": [0, 0], "to": [3, 3], "elevation": 1}]
    state = make_state([char("a", (5, 2), "A", agility=4, ranged=6, melee=3,
                             weapons=[SWORD, BOW]),
                        char("b", (5, 13), "B", facing="S")],
                       width=14, height=16, features=hill)
    a = state.chars["a"]
    assert is_shooter(a)
    order = ask(WarbandAI(), state, "movement", movement_options(state, "a"), "a")
    assert order.kind == "move"
    to = (int(order.args[0]), int(order.args[1]))
    assert state.level(to) == 1
    assert 6 <= max(abs(to[0] - 5), abs(to[1] - 13)) <= 12


@pytest.mark.rule("WB-CIRC-21")
def test_a_shooter_prefers_a_square_in_cover() -> None:
    bush = [{"from": [2, 2], "cover": True}]
    state = make_state([char("a", (3, 2), "A", agility=2, ranged=6, melee=3,
                             weapons=[SWORD, BOW]),
                        char("b", (3, 12), "B", facing="S")],
                       width=8, height=14, features=bush)
    order = ask(WarbandAI(), state, "movement", movement_options(state, "a"), "a")
    assert str(order) == "move 2 2"


def test_a_careful_captain_keeps_out_of_a_fight_it_need_not_take() -> None:
    state = make_state([
        char("cap", (5, 2), "A", kind="hero", captain=True, wounds=2),
        char("a2", (1, 1), "A"), char("a3", (9, 1), "A"),
        char("b", (5, 6), "B", facing="S", melee=8, strength=6, attacks=3),
    ])
    ai = WarbandAI()
    assert ai.careful(state, state.chars["cap"])
    order = ask(ai, state, "movement", movement_options(state, "cap"), "cap")
    assert order.kind != "charge"
    assert order.kind in ("stay", "move")
    if order.kind == "move":
        to = (int(order.args[0]), int(order.args[1]))
        assert max(abs(to[0] - 5), abs(to[1] - 6)) >= 4


def test_facing_turns_toward_the_nearest_enemy() -> None:
    state = make_state([char("a", (5, 5), "A", facing="N"), char("b", (9, 5), "B")])
    options = [Order.of("face", f) for f in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")]
    assert str(ask(WarbandAI(), state, "facing", options, "a")) == "face E"


# ---------------------------------------------------------------------------------- ranged


@pytest.mark.rule("WB-CIRC-21")
@pytest.mark.rule("WB-ATTACK-15")
def test_shooting_takes_every_shot_at_the_target_out_of_cover() -> None:
    bush = [{"from": [3, 8], "cover": True}]
    state = make_state([char("a", (5, 2), "A", ranged=6, attacks=2, weapons=[SWORD, BOW]),
                        char("b", (3, 8), "B"), char("c", (7, 8), "B")],
                       width=10, height=12, features=bush)
    options = [Order("none"), *combat.ranged_options(state, state.chars["a"])]
    assert str(ask(WarbandAI(), state, "ranged", options, "a")) == "shoot c bow 2"


@pytest.mark.rule("WB-CIRC-20")
def test_shooting_prefers_a_target_not_in_melee() -> None:
    state = make_state([char("a", (5, 2), "A", ranged=6, weapons=[SWORD, BOW]),
                        char("b", (3, 8), "B"), char("ally", (3, 9), "A"),
                        char("c", (7, 8), "B")], width=10, height=12)
    options = [Order("none"), *combat.ranged_options(state, state.chars["a"])]
    order = ask(WarbandAI(), state, "ranged", options, "a")
    assert order.kind == "shoot" and order.args[0] == "c"


# ------------------------------------------------------------------------ magic and the rest


BOLT = {"name": "bolt", "phase": "ranged", "targets": "enemy", "range": 10,
        "attack": {"type": "ranged", "strength": 4, "hits": 1},
        "surge": {"hits": 1}}


@pytest.mark.rule("WB-MAGIC-08")
@pytest.mark.rule("WB-MAGIC-12")
def test_a_strong_mage_casts_at_surge_a_weak_one_at_base() -> None:
    cast = ["base", "surge", "surge-plain"]
    for magic, wanted in ((9, "surge"), (2, "base")):
        state = make_state([char("m", (5, 2), "A", magic=magic, spells=["bolt"]),
                            char("b", (5, 8), "B")], spells=[BOLT])
        options = [Order("none"), *(Order.of("cast", "bolt", "b", level) for level in cast)]
        order = ask(WarbandAI(), state, "ranged", options, "m")
        assert str(order) == f"cast bolt b {wanted}", magic


@pytest.mark.rule("WB-DISPEL-02")
def test_dispel_with_the_strongest_mage() -> None:
    state = make_state([char("m1", (1, 1), "A", magic=4), char("m2", (2, 1), "A", magic=7),
                        char("e", (8, 8), "B")])
    options = [Order.of("dispel", "m1"), Order.of("dispel", "m2"), Order("no-dispel")]
    assert str(ask(WarbandAI(), state, "dispel", options, "m1")) == "dispel m2"


def test_fate_is_burnt_and_utility_ends_with_done_unless_an_item_heals() -> None:
    state = make_state([char("a", (1, 1), "A", kind="hero", wounds=3,
                             items=[{"name": "salve", "heal": 2}]),
                        char("e", (8, 8), "B")])
    ai = WarbandAI()
    fate = [Order("roll"), Order("burn-fate")]
    assert ask(ai, state, "fate", fate, "a") == fate[1]
    utility = [Order("done"), Order("brace"), Order.of("use", "salve", "a")]
    assert ask(ai, state, "utility", utility, "a") == utility[0]
    state.chars["a"].wounds = 1
    assert ask(ai, state, "utility", utility, "a") == utility[2]


# ------------------------------------------------------------------------------------ cost


def _row_state(n: int) -> WarbandState:
    """Two facing rows of ``n`` a side on a map that grows with ``n``."""
    chars = [char(f"a{i}", (2 * i, 1), "A", ranged=6, melee=4, weapons=[SWORD, BOW])
             for i in range(n)]
    chars += [char(f"b{i}", (2 * i, 12), "B", facing="S") for i in range(n)]
    return make_state(chars, width=2 * n, height=14)


def _decision_cost(n: int) -> int:
    state = _row_state(n)
    ai = WarbandAI()
    ask(ai, state, "movement", movement_options(state, "a0"), "a0")  # builds the field
    c: Character = state.chars["a1"]
    options = movement_options(state, c.id)
    with metered() as meter:
        ask(ai, state, "movement", options, c.id)
    return meter[GEOMETRY]


def test_a_movement_decision_costs_the_same_in_a_bigger_army() -> None:
    small, big = _decision_cost(12), _decision_cost(48)
    assert small > 0  # the shooter's sight checks are counted
    assert small == big


def test_the_enemy_field_is_built_once_per_phase() -> None:
    state = _row_state(6)
    ai = WarbandAI()
    with metered() as meter:
        ask(ai, state, "movement", movement_options(state, "a0"), "a0")
    built = meter[GEOMETRY]
    assert built >= 2 * state.grid.width * state.grid.height
    field = ai.field(state, "A")
    assert isinstance(field, EnemyField)
    assert field.distance((0, 1)) == 11 and field.nearest((0, 1)) == (0, 12)
    state.phase = "ranged"
    ai.choose(Decision("A", "ranged", (Order("none"),), subject="a0"), state)
    assert ai.field(state, "A") is not field
