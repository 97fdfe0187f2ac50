"""End of Round morale checks and the commander's Charisma save (T5-MORALE-*, T5-RALLY-*,
T5-STANCE-02/05, T5-REF-02, T5-DEC-18, T5-AMB-27, -40..-44, -48, -49)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from warhost.core.dice import SeededDice
from warhost.rulesets.dnd5e_tactics.end_of_round import end_of_round
from warhost.rulesets.dnd5e_tactics.state import ROUTED
from warhost.rulesets.dnd5e_tactics.tables import STANCE_MORALE, track_cell

from .eor_helpers import (
    KNIGHT,
    THUG,
    build,
    facing_pair,
    spy,
    unit,
    unit_spec,
    wound,
)
from .helpers import MAGE, events

APART = 5.0


def morale(ctx: Any, uid: str = "A1") -> dict[str, Any]:
    (event,) = [e for e in events(ctx, "morale") if e["unit"] == uid]
    return event


@pytest.mark.rule("T5-MORALE-03", "T5-AMB-41", "T5-AMB-42", "T5-REF-02")
@pytest.mark.parametrize(
    ("start", "left", "dc"),
    [
        (20, 19, 6), (20, 16, 6), (20, 15, 10), (20, 11, 10), (20, 10, 14), (20, 6, 14),
        (20, 5, 18), (20, 1, 18),
        (200, 151, 6),  # 75.5%: in no band of the text; 4r > 3s settles it
        (200, 150, 10), (200, 101, 10), (200, 100, 14), (200, 51, 14), (200, 50, 18),
    ],
)
def test_dc_bands(start: int, left: int, dc: int) -> None:
    ctx = build(facing_pair(start, gap=APART), dice=[20])
    wound(unit(ctx, "A1"), left)
    end_of_round(ctx)
    assert morale(ctx)["dc"] == dc


@pytest.mark.rule("T5-MORALE-01", "T5-AMB-40")
def test_only_members_killed_in_the_casualty_step_call_for_a_check() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20])
    unit(ctx, "A1").tdr = 31  # no whole member, but 31 >= 16: B's default is one casualty
    end_of_round(ctx)
    assert unit(ctx, "A1").casualties == 1 and len(events(ctx, "morale")) == 1
    ctx = build(facing_pair(gap=APART))
    unit(ctx, "A1").tdr = 15  # nobody dies, remainder ignored: no check, no dice
    end_of_round(ctx)
    assert events(ctx, "morale") == []


@pytest.mark.rule("T5-MORALE-02", "T5-MORALE-08", "T5-MORALE-09")
@pytest.mark.parametrize(("roll", "fails_by", "rank"), [(4, 0, 0), (20, -16, 0), (3, 1, -1)])
def test_check_meets_dc_or_fails_by_the_difference(roll: int, fails_by: int, rank: int) -> None:
    ctx = build(facing_pair(gap=APART), dice=[roll])
    seen = spy(ctx)
    wound(unit(ctx, "A1"), 19)  # DC 6; total = roll + 2 (Close)
    end_of_round(ctx)
    event = morale(ctx)
    assert (event["total"], event["dc"], event["fails_by"]) == (roll + 2, 6, fails_by)
    assert event["result"] == ("pass" if fails_by <= 0 else "rank")
    assert unit(ctx, "A1").rank == rank
    assert not [d for d in seen if d.kind == "rally"]
    assert events(ctx, "flee") == [] and unit(ctx, "A1").on_table


@pytest.mark.rule("T5-MORALE-04", "T5-AMB-43")
@pytest.mark.parametrize("rank", [-3, -1, 0, 2, 3])
def test_rank_is_added(rank: int) -> None:
    ctx = build(facing_pair(gap=APART), dice=[20])
    a1 = unit(ctx, "A1")
    a1.rank = rank
    wound(a1, 19)
    end_of_round(ctx)
    event = morale(ctx)
    assert event["modifiers"]["rank"] == rank
    assert event["total"] == 20 + rank + 2 + track_cell("defensive", rank).morale


@pytest.mark.rule("T5-MORALE-05", "T5-STANCE-02", "T5-STANCE-05", "T5-TACTICS-11")
@pytest.mark.parametrize(
    ("stance", "track", "rank", "stance_mod", "track_mod"),
    [
        ("close", "defensive", 0, 2, 0),
        ("open", "defensive", 0, -2, 0),
        ("close", "supporting", 0, 2, 2),
        ("close", "supporting", 2, 2, 4),
        ("open", "aggressive", -3, -2, -2),
        ("close", "vicious", -2, 2, -1),
        ("open", "vicious", -1, -2, 0),
    ],
)
def test_stance_and_track_modifiers(stance: str, track: str, rank: int, stance_mod: int,
                                    track_mod: int) -> None:
    ctx = build(facing_pair(gap=APART, a_extra={"stance": stance, "track": track}), dice=[10])
    a1 = unit(ctx, "A1")
    a1.rank = rank
    wound(a1, 19)
    end_of_round(ctx)
    event = morale(ctx)
    assert event["modifiers"]["stance"] == stance_mod
    assert event["modifiers"]["track"] == track_mod
    assert event["total"] == 10 + rank + stance_mod + track_mod


@pytest.mark.rule("T5-MORALE-06", "T5-AMB-44")
def test_minus_3_per_engaged_enemy_unit_and_single() -> None:
    units = facing_pair()  # A1: x 21.5-26.5, y 17-18; B1 touching its front
    units["B"].append(unit_spec("B2", (27.0, 17.5), 10, facing=270))  # 0.25 in east of A1
    singles = {"B": [{"id": "S1", "stats": KNIGHT, "at": [24.0, 16.5]}]}  # behind A1
    ctx = build(units, singles=singles, dice=[20])
    a1 = unit(ctx, "A1")
    assert len(ctx.state.engaged_with(a1)) == 3
    wound(a1, 19)
    end_of_round(ctx)
    assert morale(ctx)["modifiers"]["engaged"] == -9


@pytest.mark.rule("T5-MORALE-06", "T5-AMB-44")
def test_enemy_out_of_reach_is_not_counted() -> None:
    ctx = build(facing_pair(gap=0.6), dice=[20])  # just past 5 ft
    wound(unit(ctx, "A1"), 19)
    end_of_round(ctx)
    assert morale(ctx)["modifiers"]["engaged"] == 0


@pytest.mark.rule("T5-AMB-27")
@pytest.mark.parametrize(
    ("scope", "when", "penalty"),
    [("all_d20", 2, -5), ("all_d20", 1, None), ("attacks_and_saves", 2, None),
     ("attacks_only", 2, None)],
)
def test_lingering_disadvantage_reaches_morale_only_with_all_d20(
        scope: str, when: int, penalty: int | None) -> None:
    ctx = build(facing_pair(gap=APART), dice=[10], lingering_disadvantage_scope=scope)
    ctx.state.round = 2
    a1 = unit(ctx, "A1")
    a1.disadvantage_round = when
    wound(a1, 19)
    end_of_round(ctx)
    event = morale(ctx)
    assert event["modifiers"].get("disadvantage") == penalty
    assert event["total"] == 10 + 2 + (penalty or 0)


@pytest.mark.rule("T5-AMB-43")
def test_natural_20_can_fail_and_natural_1_can_pass() -> None:
    ctx = build(facing_pair(gap=APART, a_extra={"stance": "open", "track": "aggressive"}),
                dice=[20], orders={"A": ["decline"]})
    a1 = unit(ctx, "A1")
    a1.rank = -3
    wound(a1, 5)  # DC 18; 20 - 3 - 2 - 2 = 13
    end_of_round(ctx)
    assert morale(ctx)["fails_by"] == 5 and morale(ctx)["result"] == "flee"
    ctx = build(facing_pair(gap=APART, a_extra={"track": "supporting"}), dice=[1])
    a1 = unit(ctx, "A1")
    a1.rank = 3
    wound(a1, 19)  # DC 6; 1 + 3 + 2 + 4 = 10
    end_of_round(ctx)
    assert morale(ctx)["result"] == "pass" and a1.rank == 3


@pytest.mark.rule("T5-AMB-43", "T5-SLAIN-01")
def test_rank_at_the_moment_of_the_check_includes_earlier_losses() -> None:
    weak = dict(KNIGHT, hp=4)
    ctx = build(facing_pair(gap=APART, a_extra={"commander": weak}), dice=[1, 1, 1, 1, 20],
                orders={"B": ["commander"]})
    a1 = unit(ctx, "A1")
    a1.tdr = 32 + 20  # one dies; remainder 20: B sends 4 damage at the 4 hp commander
    end_of_round(ctx)
    assert not a1.commander.alive
    assert morale(ctx)["modifiers"]["rank"] == -1


@pytest.mark.rule("T5-MORALE-07", "T5-AMB-48", "T5-AMB-50", "T5-FLEE-07")
def test_commander_alone_routs_without_roll_or_save() -> None:
    ctx = build(facing_pair(gap=APART))  # no dice at all
    seen = spy(ctx)
    a1 = unit(ctx, "A1")
    a1.tdr = 20 * 32
    end_of_round(ctx)
    event = morale(ctx)
    assert event["result"] == "rout" and event["roll"] is None
    assert not [d for d in seen if d.kind == "rally"]
    assert a1.status == ROUTED and a1.commander.alive
    assert a1 not in ctx.state.active()


@pytest.mark.rule("T5-MORALE-10", "T5-FLEE-01")
def test_fail_by_5_to_9_costs_two_ranks_and_flees() -> None:
    ctx = build(facing_pair(gap=APART), dice=[7], orders={"A": ["decline"]})
    a1 = unit(ctx, "A1")
    wound(a1, 5)  # DC 18; 7 + 2 = 9: fails by 9
    end_of_round(ctx)
    assert morale(ctx)["fails_by"] == 9
    assert a1.rank == -2 and [e["why"] for e in events(ctx, "rank")] == ["morale", "flee"]
    assert a1.fled and a1.on_table and len(events(ctx, "flee")) == 1


@pytest.mark.rule("T5-MORALE-11", "T5-FLEE-07")
def test_fail_by_10_routs() -> None:
    ctx = build(facing_pair(gap=APART), dice=[6], orders={"A": ["decline"]})
    a1 = unit(ctx, "A1")
    wound(a1, 5)  # 6 + 2 = 8: fails by 10
    end_of_round(ctx)
    assert morale(ctx)["fails_by"] == 10 and morale(ctx)["result"] == "rout"
    assert a1.status == ROUTED and events(ctx, "flee") == []
    assert [e["unit"] for e in events(ctx, "rout")] == ["A1"]


# ---------------------------------------------------------------- Charisma save


def rally_case(roll: int, save: int | None, order: str = "attempt",
               commander: dict[str, Any] = KNIGHT) -> Any:
    dice = [roll] + ([save] if save is not None else [])
    ctx = build(facing_pair(gap=APART, a_extra={"commander": commander}), dice=dice,
                orders={"A": [order]})
    wound(unit(ctx, "A1"), 5)  # DC 18, total = roll + 2
    return ctx


@pytest.mark.rule("T5-RALLY-01", "T5-DEC-18", "T5-AMB-49")
def test_save_is_offered_after_a_failure_by_5_or_more() -> None:
    ctx = rally_case(11, None, order="decline")  # fails by 5
    seen = spy(ctx)
    end_of_round(ctx)
    (decision,) = [d for d in seen if d.kind == "rally"]
    assert decision.side == "A" and decision.subject == "A1"
    assert [str(o) for o in decision.options] == ["attempt", "decline"]
    assert str(decision.default) == "attempt"
    assert events(ctx, "rally")[0]["attempted"] is False


@pytest.mark.rule("T5-RALLY-01", "T5-DEC-18")
def test_no_save_without_a_commander() -> None:
    ctx = rally_case(11, None)
    unit(ctx, "A1").commander.alive = False
    seen = spy(ctx)
    end_of_round(ctx)
    assert not [d for d in seen if d.kind == "rally"] and events(ctx, "rally") == []
    assert unit(ctx, "A1").fled


@pytest.mark.rule("T5-DEC-18", "T5-AMB-49")
def test_save_is_attempted_by_default() -> None:
    ctx = rally_case(11, 8, order="none")  # the script says nothing about rallying
    end_of_round(ctx)
    assert events(ctx, "rally")[0]["attempted"] is True


@pytest.mark.rule("T5-RALLY-02")
def test_failed_save_changes_nothing() -> None:
    ctx = rally_case(8, 7)  # fails by 8; 7 + 4 = 11 < 12
    end_of_round(ctx)
    a1 = unit(ctx, "A1")
    assert events(ctx, "rally")[0]["success"] is False
    assert a1.rank == -2 and a1.fled


@pytest.mark.rule("T5-RALLY-03", "T5-AMB-49")
@pytest.mark.parametrize("roll", [11, 7])  # fails by 5 and by 9
def test_save_turns_5_to_9_into_a_failure_by_1(roll: int) -> None:
    ctx = rally_case(roll, 8)  # 8 + 4 = 12
    end_of_round(ctx)
    a1 = unit(ctx, "A1")
    assert events(ctx, "rally")[0]["success"] is True
    assert a1.rank == -1 and not a1.fled and events(ctx, "flee") == []
    assert len(events(ctx, "rank")) == 1  # applied once
    rally_seq = events(ctx, "rally")[0]["seq"]
    assert all(e["seq"] > rally_seq for e in events(ctx, "rank"))


@pytest.mark.rule("T5-RALLY-04", "T5-AMB-49")
@pytest.mark.parametrize("roll", [6, 1])  # fails by 10 and by 15
def test_save_turns_10_or_more_into_a_flight(roll: int) -> None:
    ctx = rally_case(roll, 8)
    end_of_round(ctx)
    a1 = unit(ctx, "A1")
    assert a1.on_table and a1.fled and a1.rank == -2
    assert events(ctx, "rout") == []


@pytest.mark.rule("T5-RALLY-05", "T5-EXEMPT-01", "T5-EXEMPT-02")
@pytest.mark.parametrize(
    ("commander", "save", "success"),
    [(KNIGHT, 8, True), (KNIGHT, 7, False), (MAGE, 11, True), (MAGE, 10, False),
     (THUG, 12, True), (THUG, 11, False)],  # CHA save +4, +1, none listed (+0)
)
def test_save_uses_only_the_commander_cha_bonus(commander: dict[str, Any], save: int,
                                                 success: bool) -> None:
    ctx = build(facing_pair(gap=APART, a_extra={"commander": commander, "track": "supporting"}),
                dice=[1, save])
    a1 = unit(ctx, "A1")
    a1.rank = 3  # +3 rank and +4 track on morale: neither touches the save
    wound(a1, 1)  # DC 18; 1 + 3 + 2 + 4 = 10: fails by 8
    end_of_round(ctx)
    event = events(ctx, "rally")[0]
    bonus = commander.get("saves", {}).get("cha", 0)
    assert event["bonus"] == bonus and event["total"] == save + bonus
    assert event["success"] is success


@pytest.mark.rule("T5-REF-02", "T5-MORALE-04", "T5-MORALE-05", "T5-MORALE-06")
def test_total_matches_the_reference_summary() -> None:
    rng = random.Random(7)
    for _ in range(25):
        stance = rng.choice(["close", "open"])
        track = rng.choice(["defensive", "aggressive", "supporting", "vicious"])
        rank = rng.randint(-3, 3)
        gap = rng.choice([0.0, APART])
        roll = rng.randint(1, 20)
        ctx = build(facing_pair(gap=gap, a_extra={"stance": stance, "track": track}),
                    dice=[roll, 20], orders={"A": ["decline"], "B": ["none"]})
        a1 = unit(ctx, "A1")
        a1.rank = rank
        wound(a1, 19)
        end_of_round(ctx)
        engaged = 1 if gap == 0.0 else 0
        expected = (roll + rank + track_cell(track, rank).morale + STANCE_MORALE[stance]
                    - 3 * engaged)
        assert morale(ctx)["total"] == expected


@pytest.mark.rule("T5-RALLY-01", "T5-DEC-18")
def test_dying_commander_cannot_rally() -> None:
    ctx = build(facing_pair(gap=APART), dice=[8], commander_death_saves=True)
    a1 = unit(ctx, "A1")
    a1.commander.hp, a1.commander.dying = 0, True
    seen = spy(ctx)
    wound(a1, 5)
    end_of_round(ctx)
    assert not [d for d in seen if d.kind == "rally"] and a1.fled


@pytest.mark.rule("T5-MORALE-08", "T5-MORALE-09", "T5-MORALE-10", "T5-MORALE-11",
                  "T5-RALLY-03", "T5-RALLY-04")
def test_outcome_frequencies_match_the_exact_odds() -> None:
    # DC 18, total d20 + 2: pass on 16+ (5/20), fail by 1-4 on 12-15 (4/20), by 5-9 on 7-11
    # (5/20), by 10+ on 1-6 (6/20). The Knight's save (+4) succeeds on 8+ (13/20).
    exact = {"pass": 100 / 400, "rank": (80 + 5 * 13) / 400,
             "flee": (5 * 7 + 6 * 13) / 400, "rout": 6 * 7 / 400}
    dice = SeededDice(20260101)
    trials = 2000
    seen = {key: 0 for key in exact}
    for _ in range(trials):
        ctx = build(facing_pair(gap=APART))
        ctx.battle.dice = dice
        a1 = unit(ctx, "A1")
        wound(a1, 5)
        end_of_round(ctx)
        key = ("rout" if a1.status == ROUTED else "flee" if a1.fled
               else "rank" if a1.rank == -1 else "pass")
        seen[key] += 1
    for key, p in exact.items():
        assert seen[key] / trials == pytest.approx(p, abs=0.035), key
