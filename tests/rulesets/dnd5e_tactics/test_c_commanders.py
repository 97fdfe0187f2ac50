"""Commander attacks, duels' damage, slain commanders, death saves, exemptions from stance and
track modifiers, attacks of opportunity and healing (combat.py)."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.dnd5e_tactics import combat
from warhost.rulesets.dnd5e_tactics.state import DESTROYED

from .c_helpers import KNIGHT, ctx_of, duo, stats
from .helpers import events, scenario, unit, unit_spec

PRIEST: dict[str, Any] = stats(KNIGHT, name="War Priest", heals=[
    {"name": "Cure Wounds", "amount": "1d8+3", "range": 5},
    {"name": "Prayer", "amount": "2d8", "uses": 1}])


def greatsword(ctx):  # type: ignore[no-untyped-def]
    return unit(ctx, "a").commander.stats.attacks[0]


# --------------------------------------------------------------------------- attacks on units


@pytest.mark.rule("T5-CMDATK-02", "T5-AMB-08", "T5-CMDATK-03")
@pytest.mark.parametrize(("roll", "hit"), [(9, True), (8, False)])
def test_commander_attacks_a_unit_as_one_member_with_its_full_ac(roll: int, hit: bool) -> None:
    """The target member's AC counts Close Stance and Defensive: 11 + 1 + 2 = 14; the
    Greatsword's +5 needs a 9. Damage goes into the TDR, no member dies yet."""
    ctx = ctx_of(duo(), dice=[roll])
    b = unit(ctx, "b")
    damage = combat.commander_attack(ctx, unit(ctx, "a"), b, greatsword(ctx))
    (event,) = events(ctx, "commander_attack")
    assert (event["ac"], event["total"], event["hit"]) == (14, roll + 5, hit)
    assert damage == b.tdr == (15 if hit else 0)
    assert b.members == 20 and b.commander.hp == 52


@pytest.mark.rule("T5-CMDATK-04", "T5-GEN-01")
def test_commander_hits_deal_maximum_damage_without_rolling() -> None:
    """2d6+3 at maximum is 15; no damage dice are drawn (the script holds only the d20)."""
    ctx = ctx_of(duo(), dice=[15])
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"), greatsword(ctx)) == 15
    assert ctx.battle.dice.unused == 0


@pytest.mark.rule("T5-CMDATK-05", "T5-AMB-16", "T5-GEN-02")
def test_a_critical_doubles_the_dice_all_at_maximum() -> None:
    """Natural 20: 4d6+3 at maximum = 27."""
    ctx = ctx_of(duo(), dice=[20])
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"), greatsword(ctx)) == 27
    assert events(ctx, "commander_attack")[0]["critical"] is True


@pytest.mark.rule("T5-AMB-16")
@pytest.mark.parametrize(("dice", "damage"), [([10, 2, 3], 2 + 3 + 3), ([20, 1, 2, 3, 4], 13)])
def test_commander_damage_rolled_option(dice: list[int], damage: int) -> None:
    """``commander_damage: rolled``: the dice are rolled; a critical rolls twice as many."""
    ctx = ctx_of(duo(commander_damage="rolled"), dice=dice)
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"),
                                   greatsword(ctx)) == damage


@pytest.mark.rule("T5-GEN-02")
def test_natural_one_misses_and_natural_twenty_hits() -> None:
    sure = stats(KNIGHT, attacks=[{"name": "Lance", "bonus": 30, "damage": "1d12"}])
    ctx = ctx_of(duo({"commander": sure}), dice=[1])
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"),
                                   unit(ctx, "a").commander.stats.attacks[0]) == 0
    hopeless = stats(KNIGHT, attacks=[{"name": "Stick", "bonus": -30, "damage": "1d4"}])
    ctx = ctx_of(duo({"commander": hopeless}), dice=[20])
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"),
                                   unit(ctx, "a").commander.stats.attacks[0]) == 8


@pytest.mark.rule("T5-GEN-02", "T5-AMB-21")
def test_commander_disadvantage_rolls_two_d20_keeping_the_lower() -> None:
    ctx = ctx_of(duo(), dice=[18, 4])
    b = unit(ctx, "b")
    b.dodging = True
    assert combat.commander_attack(ctx, unit(ctx, "a"), b, greatsword(ctx)) == 0
    event = events(ctx, "commander_attack")[0]
    assert (event["faces"], event["roll"]) == ([18, 4], 4)


@pytest.mark.rule("T5-AMB-17", "T5-DAMAGE-06")
def test_commander_damage_goes_to_the_unit_it_attacked() -> None:
    """Same target as its unit: added to that TDR; another unit: that unit's TDR."""
    model = scenario({"A": [unit_spec("a", (24.0, 10.0))],
                      "B": [unit_spec("b", (24.0, 11.0)), unit_spec("c", (29.5, 10.0))]})
    ctx = ctx_of(model, dice=[6, 6, 15, 15])
    a, b, c = unit(ctx, "a"), unit(ctx, "b"), unit(ctx, "c")
    combat.unit_attack_action(ctx, a, b, "melee")
    combat.commander_attack(ctx, a, b, greatsword(ctx))
    assert b.tdr == 2 * 160 + 15
    combat.commander_attack(ctx, a, c, greatsword(ctx))
    assert c.tdr == 15


@pytest.mark.rule("T5-CMDATK-02", "T5-CMDATK-04")
def test_commander_attack_action_makes_its_multiattack() -> None:
    ctx = ctx_of(duo(), dice=[15, 15])
    assert [a.name for a in combat.character_routine(knight_block(), "Greatsword")] == \
        ["Greatsword", "Greatsword"]
    assert combat.commander_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"),
                                          "Greatsword") == 30


def knight_block():  # type: ignore[no-untyped-def]
    from warhost.rulesets.dnd5e_tactics.model import StatBlock

    return StatBlock.model_validate(KNIGHT)


# --------------------------------------------------------------------------- exemptions


@pytest.mark.rule("T5-EXEMPT-02", "T5-AMB-07")
def test_track_modifiers_never_touch_the_commanders_attack() -> None:
    """Aggressive would add +2 Atk and Vicious +2 Dmg to the unit, never to its commander."""
    ctx = ctx_of(duo({"track": "aggressive"}), dice=[8])
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"), greatsword(ctx)) == 0
    assert events(ctx, "commander_attack")[0]["total"] == 13
    ctx = ctx_of(duo({"track": "vicious"}), dice=[15])
    assert combat.commander_attack(ctx, unit(ctx, "a"), unit(ctx, "b"), greatsword(ctx)) == 15


@pytest.mark.rule("T5-EXEMPT-01", "T5-EXEMPT-02", "T5-DUEL-07", "T5-CMDATK-01")
@pytest.mark.parametrize(("roll", "hp"), [(13, 52 - 15), (12, 52)])
def test_duel_attacks_use_the_opponents_own_ac_and_hit_points(roll: int, hp: int) -> None:
    """The opposing commander's AC is its card's 18: no Shield Wall, no Defensive +2. The
    damage applies to its hit points at once and never to the TDR."""
    ctx = ctx_of(duo(), dice=[roll])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    combat.commander_attack(ctx, a, b, greatsword(ctx))
    assert events(ctx, "commander_attack")[0]["ac"] == 18
    assert b.commander.hp == hp and b.tdr == 0
    if hp < 52:
        assert events(ctx, "character_damage")[0]["duel"] is True


@pytest.mark.rule("T5-EXEMPT-01")
def test_the_attacker_cap_is_for_members_only() -> None:
    """A commander attacks on its own: the cap of 20 does not limit it and it never counts."""
    ctx = ctx_of(duo({"members": 30}), dice=[6, 6, 15])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.unit_attack_action(ctx, a, b, "melee")
    assert {e["eligible"] for e in events(ctx, "unit_attack")} == {20}
    assert combat.commander_attack(ctx, a, b, greatsword(ctx)) == 15


# --------------------------------------------------------------------------- duels


def three_units(**options: Any):  # type: ignore[no-untyped-def]
    model = scenario({"A": [unit_spec("a", (24.0, 10.0))],
                      "B": [unit_spec("b", (24.0, 11.0)), unit_spec("c", (29.5, 10.0))]},
                     **options)
    return model


@pytest.mark.rule("T5-DUEL-02", "T5-CMDATK-01")
def test_a_dueling_commander_may_attack_only_its_opponent() -> None:
    ctx = ctx_of(three_units(), dice=[6])
    a, b, c = unit(ctx, "a"), unit(ctx, "b"), unit(ctx, "c")
    sword = greatsword(ctx)
    assert combat.commander_targets(ctx, a, sword) == [b, c]
    combat.start_duel(ctx, a, b)
    assert combat.commander_targets(ctx, a, sword) == [b]
    with pytest.raises(ValueError):
        combat.commander_attack(ctx, a, c, sword)
    # a dueling commander adds no opportunity attack to its unit's
    assert combat.opportunity_attack(ctx, a, c, commander_too=True) == 160
    assert events(ctx, "commander_attack") == []


@pytest.mark.rule("T5-DUEL-04", "T5-AMB-13")
def test_one_duel_at_a_time() -> None:
    ctx = ctx_of(three_units())
    a, b, c = unit(ctx, "a"), unit(ctx, "b"), unit(ctx, "c")
    combat.start_duel(ctx, a, b)
    assert not combat.can_duel(a.commander) and combat.can_duel(c.commander)
    with pytest.raises(ValueError):
        combat.start_duel(ctx, c, a)
    combat.end_duel(ctx, b, "disengaged")
    assert a.commander.duel is None and b.commander.duel is None
    assert events(ctx, "duel_end")[0]["why"] == "disengaged"
    combat.start_duel(ctx, c, a)
    assert a.commander.duel == "c"


@pytest.mark.rule("T5-DUEL-07", "T5-AMB-14")
def test_duel_melee_needs_reach_over_the_gap_between_the_units() -> None:
    ctx = ctx_of(duo(b_at=(24.0, 12.5)))
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    assert combat.commander_targets(ctx, a, greatsword(ctx)) == []
    assert "reach" in str(combat.why_not_character(ctx.state, a, greatsword(ctx), b) or "")


# --------------------------------------------------------------------------- slain commanders


@pytest.mark.rule("T5-SLAIN-01", "T5-SLAIN-02", "T5-SLAIN-03", "T5-DUEL-05")
def test_killed_in_a_duel_costs_a_rank_and_gives_the_winner_one() -> None:
    ctx = ctx_of(duo(), dice=[15])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    b.commander.hp = 15
    combat.start_duel(ctx, a, b)
    combat.commander_attack(ctx, a, b, greatsword(ctx))
    assert not b.commander.alive and b.commander.hp == 0
    assert (b.rank, a.rank) == (-1, 1)
    assert a.commander.duel is None and b.commander.duel is None
    (slain,) = events(ctx, "commander_slain")
    assert (slain["unit"], slain["by"], slain["duel"]) == ("b", "a", True)
    assert events(ctx, "duel_end")[0]["why"] == "slain"


@pytest.mark.rule("T5-SLAIN-01", "T5-SLAIN-02", "T5-AMB-18")
def test_a_commander_dies_once_and_outside_a_duel_nobody_gains() -> None:
    """The remainder 4d6 is not a duel: -1 rank to its unit only, and only once."""
    ctx = ctx_of(duo())
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.damage_character(ctx, b, 60, by=a, duel=False)
    combat.damage_character(ctx, b, 60, by=a, duel=False)
    combat.kill_commander(ctx, b, duel_winner=None)
    assert (b.rank, a.rank) == (-1, 0)
    assert len(events(ctx, "commander_slain")) == 1
    assert [e["why"] for e in events(ctx, "rank")] == ["commander slain"]


@pytest.mark.rule("T5-AMB-50", "T5-SLAIN-02")
def test_no_members_and_no_commander_is_destroyed_at_once() -> None:
    ctx = ctx_of(duo())
    b = unit(ctx, "b")
    b.members = 0
    combat.kill_commander(ctx, b, duel_winner=None)
    assert b.status == DESTROYED and not b.on_table
    assert events(ctx, "destroyed")[0]["unit"] == "b"


# --------------------------------------------------------------------------- death saves


@pytest.mark.rule("T5-AMB-18")
def test_with_death_saves_a_commander_at_zero_is_dying_not_dead() -> None:
    ctx = ctx_of(duo(commander_death_saves=True), dice=[9, 10, 1])
    b = unit(ctx, "b")
    b.commander.hp = 10
    combat.damage_character(ctx, b, 12, by=None, duel=False)
    assert b.commander.alive and b.commander.dying and b.rank == 0
    assert not combat.character_can_act(b.commander)
    assert combat.death_save(ctx, b) == "failure"
    assert combat.death_save(ctx, b) == "success"
    assert combat.death_save(ctx, b) == "dead"  # a natural 1 is two failures: 3 in all
    assert not b.commander.alive and b.rank == -1


@pytest.mark.rule("T5-AMB-18")
def test_three_successes_stabilise_and_a_natural_twenty_revives() -> None:
    ctx = ctx_of(duo(commander_death_saves=True), dice=[10, 15, 12, 20])
    b = unit(ctx, "b")
    b.commander.hp = 1
    combat.damage_character(ctx, b, 5, by=None, duel=False)
    assert [combat.death_save(ctx, b) for _ in range(3)] == ["success", "success", "stable"]
    assert b.commander.alive and not b.commander.dying and b.commander.hp == 0
    assert combat.death_save(ctx, b) is None  # stable: no more saves
    combat.damage_character(ctx, b, 1, by=None, duel=False)  # damage at 0: dying again
    assert b.commander.dying and b.commander.death_failures == 1
    assert combat.death_save(ctx, b) == "revived" and b.commander.hp == 1


@pytest.mark.rule("T5-AMB-18")
def test_damage_while_dying_is_a_failure_and_a_critical_two() -> None:
    ctx = ctx_of(duo(commander_death_saves=True))
    b = unit(ctx, "b")
    b.commander.hp = 1
    combat.damage_character(ctx, b, 3, by=None, duel=False)
    combat.damage_character(ctx, b, 3, by=None, duel=False)
    assert b.commander.death_failures == 1 and b.commander.alive
    combat.damage_character(ctx, b, 3, by=None, duel=False, critical=True)
    assert not b.commander.alive and b.rank == -1


@pytest.mark.rule("T5-AMB-18")
def test_massive_damage_kills_outright_even_with_death_saves() -> None:
    ctx = ctx_of(duo(commander_death_saves=True))
    b = unit(ctx, "b")
    b.commander.hp = 10
    combat.damage_character(ctx, b, 62, by=None, duel=False)
    assert not b.commander.alive


@pytest.mark.rule("T5-AMB-18", "T5-SLAIN-03")
def test_dying_in_a_duel_then_failing_the_saves_counts_as_killed_in_the_duel() -> None:
    ctx = ctx_of(duo(commander_death_saves=True), dice=[15, 1, 2])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    b.commander.hp = 15
    combat.start_duel(ctx, a, b)
    combat.commander_attack(ctx, a, b, greatsword(ctx))
    assert b.commander.dying and b.commander.duel == "a"
    combat.death_save(ctx, b)
    assert combat.death_save(ctx, b) == "dead"
    assert (b.rank, a.rank) == (-1, 1)


@pytest.mark.rule("T5-AMB-18")
def test_without_the_option_zero_hit_points_is_death() -> None:
    ctx = ctx_of(duo())
    b = unit(ctx, "b")
    b.commander.hp = 10
    combat.damage_character(ctx, b, 11, by=None, duel=False)
    assert not b.commander.alive and not b.commander.dying
    assert combat.death_save(ctx, b) is None


# --------------------------------------------------------------------------- opportunity attacks


@pytest.mark.rule("T5-AMB-11")
def test_opportunity_attack_is_one_resolution_plus_a_commander_attack() -> None:
    """No Multiattack: one d6 (6: 20 hits of 8), and the commander's maximum 15."""
    ctx = ctx_of(duo(), dice=[6, 15])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert combat.opportunity_attack(ctx, a, b, commander_too=True) == 175
    assert b.tdr == 175
    assert a.reaction_used and a.commander.reaction_used
    assert combat.opportunity_attack(ctx, a, b, commander_too=True) == 0  # reactions spent


@pytest.mark.rule("T5-AMB-47", "T5-FLEE-04", "T5-FLEE-06")
def test_flee_attacks_need_no_reaction() -> None:
    ctx = ctx_of(duo(), dice=[6, 15])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    a.reaction_used = a.commander.reaction_used = True
    assert combat.opportunity_attack(ctx, a, b, commander_too=True, why="flee") == 175
    assert [e["why"] for e in events(ctx, "unit_attack")] == ["flee"]


# --------------------------------------------------------------------------- healing


@pytest.mark.rule("T5-AMB-39")
@pytest.mark.parametrize(("tdr", "applied"), [(20, 8), (5, 5), (0, 0)])
def test_healing_a_unit_lowers_its_tdr_not_below_zero(tdr: int, applied: int) -> None:
    ctx = ctx_of(duo({"commander": PRIEST}), dice=[5])
    a = unit(ctx, "a")
    a.tdr = tdr
    assert combat.heal(ctx, a, "Cure Wounds", a) == applied
    assert a.tdr == tdr - applied
    assert events(ctx, "heal")[0]["rolled"] == 8


@pytest.mark.rule("T5-AMB-39")
def test_unit_healing_disabled_does_nothing_to_units_but_heals_characters() -> None:
    ctx = ctx_of(duo({"commander": PRIEST}, unit_healing="disabled"), dice=[5, 5])
    a = unit(ctx, "a")
    a.tdr = 20
    assert combat.heal(ctx, a, "Cure Wounds", a) == 0 and a.tdr == 20
    a.commander.hp = 50
    assert combat.heal(ctx, a, "Cure Wounds", a, to_commander=True) == 2  # up to its maximum
    assert a.commander.hp == 52


@pytest.mark.rule("T5-AMB-39")
def test_limited_heals_run_out() -> None:
    ctx = ctx_of(duo({"commander": PRIEST}), dice=[1, 1])
    a = unit(ctx, "a")
    combat.heal(ctx, a, "Prayer", a)
    assert a.commander.uses["Prayer"] == 0
    with pytest.raises(ValueError):
        combat.heal(ctx, a, "Prayer", a)
