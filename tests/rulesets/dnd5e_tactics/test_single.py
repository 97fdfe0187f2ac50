"""Single Characters: how units, commanders and other characters attack them, the damage
reduction, duels with commanders, and their own attacks on units (combat.py).

The Ogre used here: AC 11 (half is 5), Greatclub +6, 2d8+4. Its hit points are raised to 500
where a test needs it to survive.
"""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.dnd5e_tactics import combat
from warhost.rulesets.dnd5e_tactics.state import SLAIN

from .c_helpers import FAR, MAGE, OGRE, ctx_of, single, single_spec, stats
from .helpers import events, scenario, unit, unit_spec

TOUGH_OGRE = stats(OGRE, hp=500)
NEXT_TO_A = (24.0, 11.0)
"""A Single's square touching unit ``a`` at (24, 10): 2.5 ft gap, engaged."""


def with_single(at: tuple[float, float] = NEXT_TO_A, block: dict[str, Any] = TOUGH_OGRE,
                extra_a: list[dict[str, Any]] | None = None, **options: Any):  # type: ignore[no-untyped-def]
    units = {"A": [unit_spec("a", (24.0, 10.0))] + (extra_a or []),
             "B": [unit_spec("b", (4.0, 30.0))]}
    return scenario(units, singles={"B": [single_spec("s", at, block)]}, **options)


# --------------------------------------------------------------------------- units attacking


@pytest.mark.rule("T5-SINGLE-04", "T5-ATTACK-05")
def test_unit_melee_on_a_single_character_has_advantage() -> None:
    """AC 11, Mace +4 with Defensive -2, advantage +5: needed 11 - 2 - 5 = 4."""
    ctx = ctx_of(with_single())
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert combat.legal_targets(ctx, a, "melee") == [s]
    assert combat.needed_roll(ctx, a, a.member.attacks[0], s) == 4


@pytest.mark.rule("T5-SINGLE-02", "T5-SINGLE-03", "T5-ATTACK-05")
def test_unit_shots_at_a_single_character_have_disadvantage_and_half_cover() -> None:
    """AC 11 + 2 (half cover), crossbow +2 - 2, disadvantage -5: needed 18."""
    ctx = ctx_of(with_single(at=FAR))
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert s in combat.legal_targets(ctx, a, "ranged")
    terms = combat.unit_attack_terms(ctx.state, a, a.member.attacks[1], s)
    assert (terms.cover, terms.ac, terms.edge, terms.needed) == (combat.HALF, 13, -5, 18)


@pytest.mark.rule("T5-SINGLE-03", "T5-TERRAIN-10", "T5-TERRAIN-06")
def test_half_cover_of_a_single_character_does_not_stack_with_terrain() -> None:
    wood = {"kind": "forest", "rect": [20, 18, 8, 4]}
    ctx = ctx_of(scenario({"A": [unit_spec("a", (24.0, 10.0))], "B": [unit_spec("b", (4, 30))]},
                          singles={"B": [single_spec("s", FAR, TOUGH_OGRE)]}, terrain=[wood]))
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert combat.needed_roll(ctx, a, a.member.attacks[1], s) == 18


@pytest.mark.rule("T5-SINGLE-05", "T5-AMB-30", "T5-SINGLE-01")
@pytest.mark.parametrize(("mode", "damage"), [
    ("per_hit", 2 * 10 * (8 - 5)),        # each hit: 8 - 5
    ("per_attack", 2 * (10 * 8 - 5)),     # each resolution: 80 - 5
    ("per_turn", 2 * 10 * 8 - 5),         # the turn: 160 - 5
])
def test_damage_to_a_single_character_is_reduced_by_half_its_ac(mode: str,
                                                                 damage: int) -> None:
    """Two mace resolutions, d6 1 each (row 1-5: divisor 2, 10 hits of 8). The damage
    applies at once to the hit points."""
    ctx = ctx_of(with_single(single_character_reduction=mode), dice=[1, 1])
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert combat.unit_attack_action(ctx, a, s, "melee") == damage
    assert s.character.hp == 500 - damage
    assert sum(e["amount"] for e in events(ctx, "character_damage")) == damage


@pytest.mark.rule("T5-AMB-30")
def test_per_turn_reduction_is_shared_by_split_resolutions() -> None:
    ctx = ctx_of(with_single(single_character_reduction="per_turn"), dice=[1, 1])
    a, s = unit(ctx, "a"), single(ctx, "s")
    mace = a.member.attacks[0]
    assert combat.resolve_unit_attack(ctx, a, s, mace) == 80 - 5
    assert combat.resolve_unit_attack(ctx, a, s, mace) == 80
    ctx.state.round += 1  # a new round: a fresh reduction
    ctx.battle.dice.remaining.append(1)
    assert combat.resolve_unit_attack(ctx, a, s, mace) == 75


@pytest.mark.rule("T5-SINGLE-05")
def test_reduction_never_goes_below_zero() -> None:
    armoured = stats(TOUGH_OGRE, ac=30)
    ctx = ctx_of(with_single(block=armoured), dice=[6, 6])
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert combat.unit_attack_action(ctx, a, s, "melee") == 0
    assert s.character.hp == 500


@pytest.mark.rule("T5-SINGLE-01", "T5-AMB-31")
def test_a_single_character_at_zero_is_slain_at_once() -> None:
    """59 HP: the first resolution (10 hits of 3 = 30) leaves 29, the second kills it; no
    more resolutions are made against a slain character."""
    ctx = ctx_of(with_single(block=OGRE), dice=[1, 1])
    a, s = unit(ctx, "a"), single(ctx, "s")
    combat.unit_attack_action(ctx, a, s, "melee")
    assert s.status == SLAIN and not s.on_table and s.character.hp == 0
    (slain,) = events(ctx, "single_slain")
    assert slain["single"] == "s" and slain["by"] == "a"
    assert combat.legal_targets(ctx, a, "melee") == []


# --------------------------------------------------------------------------- characters attacking


@pytest.mark.rule("T5-SINGLE-06", "T5-CMDATK-04")
def test_commanders_attack_single_characters_normally_at_maximum_damage() -> None:
    """No advantage, no cover, no reduction: AC 11 needs a 6 with +5; 15 damage."""
    ctx = ctx_of(with_single(), dice=[6])
    a, s = unit(ctx, "a"), single(ctx, "s")
    sword = a.commander.stats.attacks[0]
    assert combat.commander_attack(ctx, a, s, sword) == 15
    assert events(ctx, "commander_attack")[0]["ac"] == 11
    assert s.character.hp == 500 - 15


@pytest.mark.rule("T5-SINGLE-06")
def test_a_commanders_shot_at_a_single_has_no_unit_penalties() -> None:
    archer = stats(MAGE, attacks=[{"name": "Bow", "kind": "ranged", "bonus": 5,
                                   "damage": "1d8", "range": 150}])
    ctx = ctx_of(scenario({"A": [unit_spec("a", (24.0, 10.0), commander=archer)],
                           "B": [unit_spec("b", (4, 30))]},
                          singles={"B": [single_spec("s", FAR, TOUGH_OGRE)]}))
    a, s = unit(ctx, "a"), single(ctx, "s")
    terms = combat.character_attack_terms(ctx.state, a, a.commander.stats.attacks[0], s)
    assert (terms.ac, terms.edge, terms.cover) == (11, 0, combat.NO_COVER)


@pytest.mark.rule("T5-AMB-31")
@pytest.mark.parametrize(("dice", "damage"), [([10, 3, 5], 12), ([20, 1, 2, 3, 4], 14)])
def test_a_single_characters_attack_on_a_unit_is_pooled_with_rolled_damage(
        dice: list[int], damage: int) -> None:
    """Greatclub +6 against AC 14 (Close, Defensive): 2d8+4 rolled; a critical 4d8+4."""
    model = scenario({"A": [unit_spec("a", (24.0, 10.0))], "B": []},
                     singles={"B": [single_spec("s", NEXT_TO_A)]})
    ctx = ctx_of(model, dice=dice)
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert combat.legal_targets(ctx, s, "melee") == [a]
    assert combat.commander_attack(ctx, s, a, s.stats.attacks[0]) == damage
    assert a.tdr == damage and a.members == 20


@pytest.mark.rule("T5-SINGLE-07", "T5-DUEL-02", "T5-DUEL-07")
def test_a_single_in_a_duel_fights_only_that_commander() -> None:
    model = with_single(extra_a=[unit_spec("c", (24.0, 12.0), facing=180)])
    ctx = ctx_of(model, dice=[12, 3, 5])
    a, c, s = unit(ctx, "a"), unit(ctx, "c"), single(ctx, "s")
    assert {u.id for u in combat.legal_targets(ctx, s, "melee")} == {"a", "c"}
    combat.start_duel(ctx, a, s)
    assert combat.legal_targets(ctx, c, "melee") == []
    assert "duel" in str(combat.why_not_unit(ctx.state, c, s, "melee") or "")
    assert combat.legal_targets(ctx, s, "melee") == [a]
    club = s.stats.attacks[0]
    with pytest.raises(ValueError):
        combat.commander_attack(ctx, s, c, club)
    assert combat.commander_attack(ctx, s, a, club) == 12  # AC 18: 12 + 6 hits
    assert a.commander.hp == 52 - 12 and a.tdr == 0


@pytest.mark.rule("T5-SINGLE-07", "T5-AMB-18")
def test_killing_a_single_in_a_duel_ends_the_duel_without_a_rank() -> None:
    """Our ruling: the +1 rank of T5-SLAIN-03 is for defeating a commander only."""
    ctx = ctx_of(with_single(block=stats(OGRE, hp=10)), dice=[15])
    a, s = unit(ctx, "a"), single(ctx, "s")
    combat.start_duel(ctx, a, s)
    combat.commander_attack(ctx, a, s, a.commander.stats.attacks[0])
    assert s.status == SLAIN and a.commander.duel is None and a.rank == 0


@pytest.mark.rule("T5-AMB-31", "T5-SINGLE-05")
def test_a_units_area_on_a_single_character() -> None:
    """Covered once; the Ogre's DEX save (-1) with a 5 fails DC 15 - 2 (Defensive): the
    average 28 less half its AC, 5."""
    model = scenario({"A": [unit_spec("a", (24.0, 10.0), member=MAGE, members=4)],
                      "B": [unit_spec("b", (4, 30))]},
                     singles={"B": [single_spec("s", FAR, TOUGH_OGRE)]})
    ctx = ctx_of(model, dice=[5])
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert s in combat.area_targets(ctx, a, "Fireball", by_commander=False)
    assert combat.area_effect(ctx, a, "Fireball", s, by_commander=False) == 23
    assert s.character.hp == 500 - 23


@pytest.mark.rule("T5-SINGLE-04", "T5-AMB-11")
def test_opportunity_attack_on_a_single_character_mover() -> None:
    ctx = ctx_of(with_single(), dice=[1])
    a, s = unit(ctx, "a"), single(ctx, "s")
    assert combat.opportunity_attack(ctx, a, s, commander_too=False) == 10 * 3
    assert events(ctx, "unit_attack")[0]["needed"] == 4
