"""The ai commander's answers to the character decisions (W4-DEC-15/18)."""

from __future__ import annotations

from tests.rulesets.dnd4e_war.helpers import character, make_state, profile, unit
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import ai_chars
from warhost.rulesets.dnd4e_war.ai import WarAI


def test_mean_damage_reads_dice_and_modifiers() -> None:
    assert ai_chars.mean_damage("1d8+2") == 6.5
    assert ai_chars.mean_damage("2d6") == 7.0
    assert ai_chars.mean_damage("7") == 7.0


def test_the_ai_joins_the_unit_whose_courage_he_raises() -> None:
    timid = profile("Timid", courage=-3)
    brave = profile("Brave", courage=5)
    state = make_state([unit("t", profile=timid), unit("b", at=(30, 10), profile=brave),
                        unit("foe", "B", at=(60, 44), facing=180)],
                       characters=[character("hero", at=(25, 4))])
    options = (Order.of("join", "hero", "b"), Order.of("join", "hero", "t"),
               Order.of("stay", "hero"))
    decision = Decision("A", "char_join", options, subject="hero", default=options[-1])
    assert WarAI().choose(decision, state) == Order.of("join", "hero", "t")


def test_the_ai_sends_enough_attacks_to_slay_a_weak_character_and_none_otherwise() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 10), facing=180)],
                       characters=[character("hero", joined="a", hp=6)])
    options = tuple(Order.of("strike_at", "b", "hero", n) for n in (0, 1, 4, 8))
    decision = Decision("B", "char_attack", options, subject="b", default=options[0])
    # +8 against AC 20 needs 12 (45%); 6 hp is one 1d8+2 hit on average: 3 dice expected
    assert WarAI().choose(decision, state) == Order.of("strike_at", "b", "hero", 4)
    state.characters["hero"].wounds = -200  # far too tough now: all at the unit
    assert WarAI().choose(decision, state) == Order.of("strike_at", "b", "hero", 0)
