"""Commander duels: the free call-out, accepting or declining, one duel at a time, who may
attack whom, the duel distance and the end of a duel (turns.py with combat.py; T5-DUEL-01..06,
T5-AMB-13, T5-AMB-14, T5-DEC-07..09, T5-SINGLE-07)."""

from __future__ import annotations

import pytest

from warhost.rulesets.dnd5e_tactics import combat, turns
from warhost.rulesets.dnd5e_tactics.context import Ctx

from .helpers import KNIGHT, events, unit, unit_spec
from .t_helpers import FAR, Recorder, asked, block, melee_thug, pair, quiet_ctx

OGRE = {"name": "Ogre", "ac": 11, "hp": 59, "speed": 40, "dex": -1,
        "attacks": [{"name": "Greatclub", "bonus": 6, "damage": "2d8+4"}]}


def callout_texts(ctx: Ctx, body_id: str) -> list[str]:
    return [t.id for t in turns.callout_targets(ctx, ctx.state.bodies[body_id])]


def duel_of(ctx: Ctx, body_id: str) -> str | None:
    return turns.character_of(ctx.state.bodies[body_id]).duel


# --------------------------------------------------------------------------- calling out


@pytest.mark.rule("T5-DUEL-01", "T5-DEC-07", "T5-AMB-13")
def test_a_commander_whose_unit_is_engaged_may_call_out_an_engaged_enemy_commander() -> None:
    c = unit_spec("c", (40.0, 30.0), member=melee_thug())
    ctx = quiet_ctx(pair(extra={"B": [c]}), orders={"A": ["callout b"]}, round_=1)
    record = Recorder(ctx)
    turns.callout_step(ctx, unit(ctx, "a"))
    assert record.options("callout") == [["none", "callout b"]]  # c is not engaged with a
    assert record.seen[1][:2] == ("B", "duel")  # the called-out side answers
    (called,) = events(ctx, "duel_called")
    assert (called["caller"], called["target"]) == ("a", "b")


@pytest.mark.rule("T5-DUEL-01", "T5-DEC-07")
def test_no_call_out_without_engagement() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), round_=1)
    record = Recorder(ctx)
    turns.callout_step(ctx, unit(ctx, "a"))
    assert callout_texts(ctx, "a") == [] and record.kinds() == []


@pytest.mark.rule("T5-AMB-13", "T5-DUEL-03")
def test_one_call_out_per_turn_and_the_same_commander_may_be_called_again_later() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["callout b", "callout b"],
                                    "B": ["decline", "decline"]}, round_=1)
    a = unit(ctx, "a")
    turns.callout_step(ctx, a)
    assert callout_texts(ctx, "a") == []  # used this turn
    turns.start_turn(ctx, a)
    assert callout_texts(ctx, "a") == ["b"]
    turns.callout_step(ctx, a)
    assert unit(ctx, "b").rank == -2  # each decline costs 1 rank


@pytest.mark.rule("T5-DUEL-03", "T5-DEC-08")
def test_declining_costs_the_called_out_unit_one_rank() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["callout b"], "B": ["decline"]}, round_=1)
    turns.callout_step(ctx, unit(ctx, "a"))
    assert unit(ctx, "b").rank == -1 and unit(ctx, "a").rank == 0
    assert duel_of(ctx, "a") is None and duel_of(ctx, "b") is None
    assert events(ctx, "duel_declined") and events(ctx, "rank")[0]["why"] == "declined a duel"


@pytest.mark.rule("T5-DUEL-02", "T5-DEC-08")
def test_an_accepted_call_out_starts_a_duel() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["callout b"], "B": ["accept"]}, round_=1)
    turns.callout_step(ctx, unit(ctx, "a"))
    assert (duel_of(ctx, "a"), duel_of(ctx, "b")) == ("b", "a")
    assert events(ctx, "duel_start")[0] == {**events(ctx, "duel_start")[0], "a": "a", "b": "b"}
    assert unit(ctx, "b").rank == 0


@pytest.mark.rule("T5-DUEL-02")
def test_dueling_commanders_attack_only_each_other() -> None:
    """c's unit is engaged with a too, but a's commander may swing only at b's, and c's
    commander cannot reach a's commander: its attacks go to the unit a."""
    c = unit_spec("c", (29.0, 11.0), member=melee_thug())
    ctx = quiet_ctx(pair(extra={"B": [c]}), dice=[15, 15], round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    options, default = turns.character_options(ctx, a, bonus=False)
    assert [str(o) for o in options if o.kind == "attack"] == ["attack Greatsword b"]
    assert str(default) == "attack Greatsword b"
    turns.character_step(ctx, unit(ctx, "c"), bonus=False)  # Passive: nothing
    options, _ = turns.character_options(ctx, unit(ctx, "c"), bonus=False)
    assert [str(o) for o in options if o.kind == "attack"] == ["attack Greatsword a"]
    turns.do_character_order(ctx, unit(ctx, "c"), options[-1], bonus=False)
    assert a.tdr == 30 and a.commander.hp == a.commander.stats.hp


@pytest.mark.rule("T5-DUEL-04", "T5-AMB-13")
def test_a_commander_duels_one_enemy_at_a_time() -> None:
    c = unit_spec("c", (29.0, 11.0), member=melee_thug())
    ctx = quiet_ctx(pair(extra={"B": [c]}), round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert callout_texts(ctx, "c") == ["a"] and callout_texts(ctx, "a") == ["b", "c"]
    combat.start_duel(ctx, a, b)
    assert callout_texts(ctx, "c") == []  # a's commander is taken
    assert callout_texts(ctx, "a") == []  # and cannot take on another


# --------------------------------------------------------------------------- the end of a duel


@pytest.mark.rule("T5-DUEL-05", "T5-AMB-14")
def test_a_duel_ends_when_the_units_separate_after_any_movement() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["disengage 24.0,7.0 0"]}, round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    turns.movement_step(ctx, a, turns.Plan())
    (end,) = events(ctx, "duel_end")
    assert end["why"] == "separated"
    assert duel_of(ctx, "a") is None and duel_of(ctx, "b") is None


@pytest.mark.rule("T5-DUEL-05", "T5-AMB-14", "T5-AMB-10")
def test_under_declared_engagement_a_duel_ends_once_the_pair_is_dropped() -> None:
    ctx = quiet_ctx(pair(engagement_model="declared"), orders={"A": ["disengage 24.0,7.0 0"]},
                    round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    ctx.state.declared.add(frozenset(("a", "b")))
    combat.start_duel(ctx, a, b)
    turns.movement_step(ctx, a, turns.Plan())
    assert not ctx.state.declared
    assert events(ctx, "duel_end")[0]["why"] == "separated"


@pytest.mark.rule("T5-DUEL-05", "T5-AMB-14")
def test_a_duel_survives_a_move_that_keeps_the_units_engaged() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["move 27.0,10.0 0"]}, round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    turns.movement_step(ctx, a, turns.Plan())
    assert not events(ctx, "duel_end") and duel_of(ctx, "a") == "b"


@pytest.mark.rule("T5-DUEL-05", "T5-AMB-14")
def test_a_duel_ends_when_a_commander_falls() -> None:
    """Greatsword x2 at the opposing commander's own AC 18: 18 and 18 hit for 15 each; a
    third blow is not needed: 52 hp - 30 = 22 left, so the duel goes on; a natural 20 on the
    next attack action ends it (27 + 15 > 22)."""
    ctx = quiet_ctx(pair(), dice=[18, 18, 20, 10], round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    combat.start_duel(ctx, a, b)
    turns.do_character_order(ctx, a, turns.Order.parse("attack Greatsword b"), bonus=False)
    assert b.commander.hp == 22 and duel_of(ctx, "a") == "b"
    turns.do_character_order(ctx, a, turns.Order.parse("attack Greatsword b"), bonus=False)
    assert not b.commander.alive
    assert duel_of(ctx, "a") is None and events(ctx, "duel_end")[0]["why"] == "slain"
    assert a.rank == 1 and b.rank == -1  # T5-SLAIN-01, T5-SLAIN-03


@pytest.mark.rule("T5-DUEL-06", "T5-AMB-14")
def test_dueling_commanders_stand_as_far_apart_as_their_units() -> None:
    """Lancers engage at 1 in (10 ft reach). a's commander, with a 5 ft Greatsword and a
    thrown Javelin, can only throw; b's commander reaches with its Lance."""
    lancer = melee_thug(attacks=[{"name": "Lance", "bonus": 5, "damage": "1d12+3",
                                  "reach": 10}], multiattack=[])
    javelin = block(KNIGHT, attacks=[
        {"name": "Greatsword", "bonus": 5, "damage": "2d6+3"},
        {"name": "Javelin", "kind": "ranged", "bonus": 5, "damage": "1d6+3", "range": 30,
         "long_range": 120}], multiattack=[])
    lance = block(KNIGHT, attacks=[{"name": "Lance", "bonus": 5, "damage": "1d12+3",
                                    "reach": 10}], multiattack=[])
    ctx = quiet_ctx(pair({"commander": javelin}, {"member": lancer, "commander": lance},
                         b_at=(24.0, 11.8)), round_=1)
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert ctx.state.engaged(a, b) and not ctx.state.adjacent(a, b)
    assert callout_texts(ctx, "a") == ["b"]
    combat.start_duel(ctx, a, b)
    mine, _ = turns.character_options(ctx, a, bonus=False)
    theirs, _ = turns.character_options(ctx, b, bonus=False)
    assert [str(o) for o in mine if o.kind == "attack"] == ["attack Javelin b"]
    assert [str(o) for o in theirs if o.kind == "attack"] == ["attack Lance a"]


# --------------------------------------------------------------------------- Single Characters


@pytest.mark.rule("T5-DEC-09", "T5-SINGLE-07")
def test_a_single_character_may_call_out_an_engaged_enemy_commander() -> None:
    ogre = {"id": "ogre", "stats": OGRE, "at": [24.0, 10.8]}
    ctx = quiet_ctx(pair(b_at=FAR, singles={"B": [ogre]}),
                    orders={"B": ["callout a"], "A": ["accept"]}, round_=1)
    turns.callout_step(ctx, ctx.state.bodies["ogre"])
    assert (duel_of(ctx, "ogre"), duel_of(ctx, "a")) == ("a", "ogre")
    options, _ = turns.character_options(ctx, ctx.state.bodies["ogre"], bonus=False)
    assert [str(o) for o in options if o.kind == "attack"] == ["attack Greatclub a"]


@pytest.mark.rule("T5-DEC-09", "T5-SINGLE-07")
def test_a_single_character_that_declines_loses_nothing() -> None:
    """Our ruling: a Single Character has no rank to lose."""
    ogre = {"id": "ogre", "stats": OGRE, "at": [24.0, 10.8]}
    ctx = quiet_ctx(pair(b_at=FAR, singles={"B": [ogre]}),
                    orders={"A": ["callout ogre"], "B": ["decline"]}, round_=1)
    record = Recorder(ctx)
    turns.callout_step(ctx, unit(ctx, "a"))
    assert record.options("callout") == [["none", "callout ogre"]]
    assert asked(ctx, "duel")[0]["order"] == "decline"
    assert events(ctx, "duel_declined") and not events(ctx, "rank")
    assert duel_of(ctx, "ogre") is None


@pytest.mark.rule("T5-SINGLE-07", "T5-DUEL-02", "T5-AMB-11")
def test_a_dueling_single_is_spared_attacks_of_opportunity_from_others() -> None:
    """The ogre duels c's commander; when it walks away from a and c, neither unit nor a's
    commander may strike it, and c's commander fights only in the duel."""
    ogre = {"id": "ogre", "stats": OGRE, "at": [27.0, 10.8]}
    c = unit_spec("c", (30.0, 10.0), member=melee_thug())
    ctx = quiet_ctx(pair(b_at=FAR, extra={"A": [c]}, singles={"B": [ogre]}),
                    orders={"A": ["opportunity", "opportunity"]}, round_=1)
    single, a, cu = ctx.state.bodies["ogre"], unit(ctx, "a"), unit(ctx, "c")
    assert ctx.state.engaged(single, a) and ctx.state.engaged(single, cu)
    combat.start_duel(ctx, single, cu)
    record = Recorder(ctx)
    turns.make_move(ctx, single, (27.0, 14.0), 0, 3.2, "move")
    assert "reaction" not in record.kinds() and not events(ctx, "unit_attack")
    assert events(ctx, "duel_end")[0]["why"] == "separated"


@pytest.mark.rule("T5-AMB-11", "T5-DEC-16")
def test_a_free_single_leaving_reach_draws_the_units_reaction() -> None:
    ogre = {"id": "ogre", "stats": OGRE, "at": [27.0, 10.8]}
    ctx = quiet_ctx(pair(b_at=FAR, singles={"B": [ogre]}),
                    orders={"A": ["opportunity", "none"]}, dice=[6], round_=1)
    single = ctx.state.bodies["ogre"]
    turns.make_move(ctx, single, (27.0, 14.0), 0, 3.2, "move")
    (attack,) = events(ctx, "unit_attack")
    assert (attack["attacker"], attack["target"], attack["why"]) == ("a", "ogre", "opportunity")
    assert single.character.hp < OGRE["hp"]
