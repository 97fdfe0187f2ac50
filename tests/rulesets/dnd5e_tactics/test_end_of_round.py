"""End of Round: casualties, the remainder choice, commander loss, ordering and scores
(T5-CASUALTY-*, T5-DEC-17, T5-AMB-28, -35, -37, -38, -50)."""

from __future__ import annotations

import pytest

from warhost.rulesets.dnd5e_tactics.end_of_round import end_of_round, side_scores
from warhost.rulesets.dnd5e_tactics.state import DESTROYED, ROUTED, SLAIN

from .eor_helpers import (
    GUARD,
    KNIGHT,
    THUG,
    build,
    facing_pair,
    spy,
    unit,
    unit_spec,
    wound,
)
from .helpers import ARCHER, MAGE, events

APART = 5.0  # a gap between the two fronts that engages nobody


@pytest.mark.rule("T5-CASUALTY-01", "T5-AMB-35")
@pytest.mark.parametrize("mode", ["per_unit", "per_step"])
def test_units_are_handled_from_lowest_initiative(mode: str) -> None:
    units = {
        "A": [unit_spec("A1", (10, 5)),  # THUG + KNIGHT: initiative 0
              unit_spec("A2", (38, 5), member=ARCHER, commander=MAGE)],  # 2 + 2 = 4
        "B": [unit_spec("B1", (24, 30), member=GUARD)],  # 1 + 0 = 1
    }
    ctx = build(units, dice=[20, 20, 20], end_of_round_mode=mode)
    assert ctx.state.order == ["A2", "B1", "A1"]
    for uid in ("A1", "A2", "B1"):
        wound(unit(ctx, uid), 19)
    end_of_round(ctx)
    assert [e["unit"] for e in events(ctx, "casualties")] == ["A1", "B1", "A2"]
    assert [e["unit"] for e in events(ctx, "morale")] == ["A1", "B1", "A2"]


@pytest.mark.rule("T5-CASUALTY-02")
def test_undamaged_unit_works_out_nothing() -> None:
    ctx = build(facing_pair(gap=APART))  # no dice: any roll would fail the test
    end_of_round(ctx)
    assert events(ctx, "casualties") == [] and events(ctx, "morale") == []
    assert unit(ctx, "A1").members == 20


@pytest.mark.rule("T5-CASUALTY-03", "T5-CASUALTY-04", "T5-CASUALTY-07")
@pytest.mark.parametrize(
    ("member", "tdr", "killed", "remainder", "asked"),
    [
        (THUG, 60, 1, 28, True),  # the seed's example: 28 >= 16
        (THUG, 79, 2, 15, False),  # 15 < 16: ignored
        (THUG, 80, 2, 16, True),  # exactly half counts
        (GUARD, 100, 9, 1, False),
        (GUARD, 38, 3, 5, False),  # 2 x 5 < 11
        (GUARD, 39, 3, 6, True),  # 2 x 6 >= 11
    ],
)
def test_casualties_and_remainder(member: dict[str, object], tdr: int, killed: int,
                                  remainder: int, asked: bool) -> None:
    ctx = build(facing_pair(gap=APART, a_member=member), dice=[20],
                orders={"B": ["casualty"]})
    seen = spy(ctx)
    a1 = unit(ctx, "A1")
    a1.tdr = tdr
    end_of_round(ctx)
    event = events(ctx, "casualties")[0]
    assert (event["killed"], event["remainder"], event["tdr"]) == (killed, remainder, tdr)
    assert [d.kind for d in seen if d.kind == "remainder"] == (["remainder"] if asked else [])
    extra = 1 if asked else 0
    assert a1.members == 20 - killed - extra
    assert a1.casualties == killed + extra


@pytest.mark.rule("T5-CASUALTY-05", "T5-DEC-17", "T5-AMB-37")
def test_remainder_choice_goes_to_the_opposing_side() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20], orders={"B": ["casualty"]})
    seen = spy(ctx)
    unit(ctx, "A1").tdr = 60
    end_of_round(ctx)
    (decision,) = [d for d in seen if d.kind == "remainder"]
    assert decision.side == "B" and decision.subject == "A1"
    assert sorted(str(o) for o in decision.options) == ["casualty", "commander"]
    assert unit(ctx, "A1").members == 18
    assert unit(ctx, "A1").commander.hp == KNIGHT["hp"]
    assert events(ctx, "remainder")[0]["choice"] == "casualty"


@pytest.mark.rule("T5-CASUALTY-05", "T5-DEC-17", "T5-AMB-40")
def test_remainder_as_4d6_on_the_commander_is_no_casualty() -> None:
    # 16 damage on Thugs: nobody dies, the remainder (16) is exactly half.
    ctx = build(facing_pair(gap=APART), dice=[6, 5, 4, 3], orders={"B": ["commander"]})
    a1 = unit(ctx, "A1")
    a1.tdr = 16
    end_of_round(ctx)
    assert a1.commander.hp == KNIGHT["hp"] - 18
    assert a1.members == 20 and a1.casualties == 0
    assert events(ctx, "morale") == []  # 4d6 on the commander is not a casualty


@pytest.mark.rule("T5-CASUALTY-06", "T5-DEC-17")
@pytest.mark.parametrize("why", ["duel", "dead"])
def test_remainder_is_a_casualty_when_commander_dueling_or_dead(why: str) -> None:
    ctx = build(facing_pair(gap=APART), dice=[20])
    seen = spy(ctx)
    a1, b1 = unit(ctx, "A1"), unit(ctx, "B1")
    if why == "duel":
        a1.commander.duel, b1.commander.duel = "B1", "A1"
    else:
        a1.commander.alive = False
    a1.tdr = 60
    end_of_round(ctx)
    assert not [d for d in seen if d.kind == "remainder"]
    assert a1.members == 18 and a1.casualties == 2
    assert events(ctx, "remainder")[0]["choice"] == "casualty"


@pytest.mark.rule("T5-CASUALTY-08", "T5-AMB-37", "T5-AMB-50")
def test_casualties_stop_at_zero_and_a_leaderless_empty_unit_is_destroyed() -> None:
    ctx = build(facing_pair(gap=APART))  # no dice: no remainder roll, no morale roll
    seen = spy(ctx)
    a1 = unit(ctx, "A1")
    a1.commander.alive = False
    a1.tdr = 10_000  # 312 x 32 + 16: far more than 20 members
    end_of_round(ctx)
    assert a1.members == 0 and a1.status == DESTROYED
    assert events(ctx, "casualties")[0]["killed"] == 20
    assert events(ctx, "remainder")[0]["choice"] == "none"
    assert events(ctx, "destroyed") == [{"seq": events(ctx, "destroyed")[0]["seq"],
                                         "type": "destroyed", "unit": "A1"}]
    assert events(ctx, "morale") == [] and not seen
    assert a1 not in ctx.state.units()


@pytest.mark.rule("T5-AMB-37", "T5-AMB-50", "T5-MORALE-07")
def test_no_member_left_forces_the_4d6_then_routs() -> None:
    ctx = build(facing_pair(gap=APART), dice=[1, 1, 1, 1])
    seen = spy(ctx)
    a1 = unit(ctx, "A1")
    a1.tdr = 20 * 32 + 16
    end_of_round(ctx)
    assert not [d for d in seen if d.kind == "remainder"]
    assert a1.commander.hp == KNIGHT["hp"] - 4
    assert a1.members == 0 and a1.status == ROUTED


@pytest.mark.rule("T5-CASUALTY-09", "T5-ROUND-06")
def test_ignored_remainder_is_not_carried_into_the_next_round() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20, 20], orders={"B": ["casualty"]})
    seen = spy(ctx)
    a1 = unit(ctx, "A1")
    a1.tdr = 47  # 1 dies, 15 is ignored
    end_of_round(ctx)
    assert a1.members == 19
    a1.tdr = 0  # round step 2 (the round module)
    a1.tdr += 17  # next round: had the 15 been kept, 32 would kill one outright
    end_of_round(ctx)
    assert events(ctx, "casualties")[1]["killed"] == 0
    assert events(ctx, "casualties")[1]["remainder"] == 17
    assert len([d for d in seen if d.kind == "remainder"]) == 1
    assert a1.members == 18


@pytest.mark.rule("T5-CASUALTY-10", "T5-AMB-18")
def test_dead_commander_costs_no_second_rank_at_end_of_round() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20])
    a1 = unit(ctx, "A1")
    a1.commander.alive = False  # died earlier in the round; its rank was paid then
    a1.rank = 1
    wound(a1, 19)
    end_of_round(ctx)
    assert a1.rank == 1 and events(ctx, "rank") == []
    assert a1.on_table


@pytest.mark.rule("T5-AMB-38")
def test_explicit_member_hp_is_the_divisor() -> None:
    ctx = build(facing_pair(gap=APART, a_extra={"member_hp": 20}), dice=[20])
    a1 = unit(ctx, "A1")
    a1.tdr = 60
    end_of_round(ctx)
    event = events(ctx, "casualties")[0]
    assert (event["killed"], event["remainder"]) == (3, 0)
    assert a1.members == 17


@pytest.mark.rule("T5-AMB-28", "T5-COMMANDER-03")
def test_pooled_damage_reaches_the_commander_only_through_the_remainder() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20], orders={"B": ["casualty"]})
    a1 = unit(ctx, "A1")
    a1.tdr = 3 * 32 + 20  # e.g. a Fireball's pooled damage: 3 die, 20 >= 16
    end_of_round(ctx)
    assert a1.commander.hp == KNIGHT["hp"]
    assert a1.members == 16


@pytest.mark.rule("T5-AMB-35", "T5-AMB-44")
@pytest.mark.parametrize(("mode", "b_engaged"), [("per_unit", 0), ("per_step", -3)])
def test_end_of_round_mode_decides_what_later_units_see(mode: str, b_engaged: int) -> None:
    # A1 (lower initiative: handled first) fails by 7 and flees out of contact; B1 then checks.
    ctx = build(facing_pair(), dice=[12, 20], orders={"A": ["decline"], "B": ["none"]},
                end_of_round_mode=mode)
    a1, b1 = unit(ctx, "A1"), unit(ctx, "B1")
    assert ctx.state.order == ["B1", "A1"]
    wound(a1, 5)  # DC 18; 12 + 2 (Close) - 3 (B1) = 11
    wound(b1, 19)
    end_of_round(ctx)
    morale = {e["unit"]: e for e in events(ctx, "morale")}
    assert morale["A1"]["modifiers"]["engaged"] == -3 and morale["A1"]["fails_by"] == 7
    assert morale["B1"]["modifiers"]["engaged"] == b_engaged
    assert a1.fled and a1.centre == (24.0, 14.5)


@pytest.mark.rule("T5-AMB-35")
def test_per_step_runs_every_casualty_step_before_any_morale() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20, 20], end_of_round_mode="per_step")
    wound(unit(ctx, "A1"), 19)
    wound(unit(ctx, "B1"), 19)
    end_of_round(ctx)
    kinds = [e["type"] for e in ctx.battle.log if e["type"] in ("casualties", "morale")]
    assert kinds == ["casualties", "casualties", "morale", "morale"]
    ctx = build(facing_pair(gap=APART), dice=[20, 20])
    wound(unit(ctx, "A1"), 19)
    wound(unit(ctx, "B1"), 19)
    end_of_round(ctx)
    kinds = [e["type"] for e in ctx.battle.log if e["type"] in ("casualties", "morale")]
    assert kinds == ["casualties", "morale", "casualties", "morale"]


def test_side_scores_count_kills_routs_and_slain_singles() -> None:
    units = facing_pair(gap=APART)
    singles = {"B": [{"id": "S1", "stats": KNIGHT, "at": [40, 30]}]}
    ctx = build(units, singles=singles)
    a1, b1 = unit(ctx, "A1"), unit(ctx, "B1")
    b1.members = 15
    a1.members, a1.status = 12, ROUTED
    ctx.state.bodies["S1"].status = SLAIN
    assert side_scores(ctx.state) == {"A": 5 + 1, "B": 8 + 12}


def test_score_events_when_a_side_score_grows() -> None:
    ctx = build(facing_pair(gap=APART), dice=[20])
    wound(unit(ctx, "A1"), 17)
    end_of_round(ctx)
    assert [(e["side"], e["total"]) for e in events(ctx, "score")] == [("B", 3)]
