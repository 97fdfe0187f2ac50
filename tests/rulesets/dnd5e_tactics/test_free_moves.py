"""Moves to any point: the open ``move`` and ``follow_through`` decisions (turns.MoveJudge,
end_of_round.judge_follow_through; T5-DEC-12, T5-DEC-20, T5-AMB-09, T5-ROUND-12, T5-TERRAIN-01,
T5-TERRAIN-09, T5-MOVE-02, T5-MOVE-03, T5-GEN-02, T5-FLEE-02, T5-AMB-29, T5-STANCE-03).

Unit ``a`` (20 Thugs in Close Stance, 5 in wide and 1 in deep, speed 30 ft = 3 in) stands at
(24, 10) facing north. A listed destination and a named point are carried out the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.decisions import Refusal
from warhost.core.errors import IllegalOrderError
from warhost.core.orders import Order
from warhost.geometry.table import distance
from warhost.rulesets.dnd5e_tactics import turns
from warhost.rulesets.dnd5e_tactics.end_of_round import end_of_round

from .c_helpers import OGRE, single_spec
from .eor_helpers import build, facing_pair, wound
from .helpers import events, unit, unit_spec
from .j_helpers import judging, reason
from .t_helpers import APART, FAR, Recorder, block, melee_thug, pair, quiet_ctx


def turn(ctx: Any, body_id: str = "a") -> None:
    ctx.state.round = max(ctx.state.round, 1)
    turns.take_turn(ctx, ctx.state.bodies[body_id])


def verdicts(model: Any, *texts: str, orders: list[str] | None = None,
             body_id: str = "a") -> dict[str, Order | Refusal]:
    """What the battle says of each text at ``body_id``'s move decision."""
    ctx = quiet_ctx(model, orders={"A": orders or []})
    found = judging(ctx, "move", texts, subject=body_id)
    turn(ctx, body_id)
    return found


# --------------------------------------------------------------------------- legal moves


@pytest.mark.rule("T5-DEC-12", "T5-AMB-09")
def test_a_move_to_a_named_point_ends_exactly_there_facing_the_named_way() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), orders={"A": ["move 23.3,11.7 30"]})
    record = Recorder(ctx)
    turn(ctx)
    assert "move 23.3,11.7 30" not in record.options("move")[0]  # not a listed destination
    a = unit(ctx, "a")
    assert a.centre == (23.3, 11.7) and a.facing == 30.0
    (move,) = events(ctx, "move")
    assert move["kind"] == "move" and move["to"] == [23.3, 11.7]
    assert move["cost"] == round(distance((24.0, 10.0), (23.3, 11.7)), 3)
    assert ctx.battle.decisions[0] == {"side": "A", "kind": "move", "order": "move 23.3,11.7 30"}


@pytest.mark.rule("T5-DEC-12", "T5-AMB-09")
def test_a_named_point_is_written_back_exactly_and_the_facing_folded() -> None:
    found = verdicts(pair(b_at=FAR), "move 24,12 -90", "move 24.25,11 0", "move 24,10 90")
    assert found["move 24,12 -90"] == Order.of("move", "24.0,12.0", 270)
    assert found["move 24.25,11 0"] == Order.of("move", "24.25,11.0", 0)
    assert found["move 24,10 90"] == Order.of("move", "24.0,10.0", 90)  # a turn where it stands


@pytest.mark.rule("T5-DEC-13", "T5-ROUND-12")
def test_a_dash_to_a_named_point_spends_the_action() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), orders={"A": ["dash 24,15.2 0"]})
    record = Recorder(ctx)
    turn(ctx)
    assert unit(ctx, "a").centre == (24.0, 15.2)
    assert events(ctx, "move")[0]["kind"] == "dash"
    assert "unit_action" not in record.kinds()


@pytest.mark.rule("T5-MOVE-02", "T5-AMB-11")
def test_a_disengage_to_a_named_point_provokes_nothing() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["disengage 24,8.6 0"]})
    record = Recorder(ctx)
    turn(ctx)
    a = unit(ctx, "a")
    assert a.centre == (24.0, 8.6) and a.disengaged
    assert "reaction" not in record.kinds()


@pytest.mark.rule("T5-MOVE-02", "T5-AMB-11")
def test_leaving_reach_without_disengage_is_legal_and_provokes() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["move 24,8.6 0"]})
    record = Recorder(ctx)
    turn(ctx)
    assert unit(ctx, "a").centre == (24.0, 8.6)
    # b's unit, then its commander, may strike as a leaves (T5-DEC-16)
    assert [s for s, k, _, _ in record.seen if k == "reaction"] == ["B", "B"]


@pytest.mark.rule("T5-MOVE-03", "T5-MOVE-04")
def test_a_charge_may_name_an_enemy_unit_beyond_the_nearest_four() -> None:
    """b5 straight ahead is the fifth nearest enemy (gap 4.75 in; the others 4.19 in), so no
    Charge at it is listed, but a straight Dash brings ``a`` into contact."""
    small = {"members": 10, "member": melee_thug()}
    others = [unit_spec(f"b{i}", at, **small) for i, at in
              enumerate([(15.0, 12.0), (33.0, 12.0), (15.0, 8.0), (33.0, 8.0)], start=1)]
    model = pair(b={**small}, b_at=(24.0, 15.5), extra={"B": others})
    ctx = quiet_ctx(model, dice=[3, 3], orders={"A": ["charge b"]})
    record = Recorder(ctx)
    turn(ctx)
    assert "charge b" not in record.options("move")[0]
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert events(ctx, "move")[0]["kind"] == "charge" and ctx.state.adjacent(a, b)
    assert {e["target"] for e in events(ctx, "unit_attack")} == {"b"}


@pytest.mark.rule("T5-DEC-20", "T5-STANCE-03")
def test_a_follow_through_may_end_at_a_named_point() -> None:
    ctx = build(facing_pair(), dice=[12, 20], orders={"A": ["decline"],
                                                     "B": ["none", "move 23.5,19.8"]})
    wound(unit(ctx, "A1"), 5)  # fails by 7 and flees south; B1 may follow through
    end_of_round(ctx)
    assert unit(ctx, "B1").centre == (23.5, 19.8)  # 1.39 in from (24, 18.5), within 1.5 in
    assert events(ctx, "follow_through")[0]["to"] == [23.5, 19.8]


@pytest.mark.rule("T5-STANCE-03", "T5-DEC-20")
def test_a_follow_through_beyond_half_the_speed_is_refused() -> None:
    ctx = build(facing_pair(), dice=[12, 20], orders={"A": ["decline"],
                                                     "B": ["none", "move 24,23"]})
    wound(unit(ctx, "A1"), 5)
    with pytest.raises(IllegalOrderError) as error:
        end_of_round(ctx)
    assert "24.0,23.0 is 4.5 in of movement away; a follow-through moves at most half the " \
        "speed, 1.5 in (T5-STANCE-03)" in str(error.value)


# --------------------------------------------------------------------------- refused moves

THICKET = {"name": "Thicket", "kind": "forest", "rect": [20, 11, 8, 2]}
CHASM = {"name": "Chasm", "kind": "impassable", "rect": [20, 11, 8, 1]}
PIT = {"name": "Pit", "kind": "impassable", "rect": [20, 12, 8, 1]}
FRIEND = {"A": [unit_spec("a2", (30.0, 10.0), member=melee_thug())]}
FORM = "needs x,y and a facing in whole degrees, as in '{0} 7.0,8.0 90' (T5-DEC-12)"


@pytest.mark.rule("T5-ROUND-12", "T5-TERRAIN-09", "T5-TERRAIN-01", "T5-GEN-02", "T5-FLEE-02",
                  "T5-MOVE-02", "T5-DEC-12")
@pytest.mark.parametrize(
    ("model", "text", "expected"),
    [
        (pair(b_at=FAR), "move 24,14 0",
         "24.0,14.0 is 4 in of movement away; a moves at most 3 in (T5-ROUND-12)"),
        (pair(b_at=FAR), "dash 24,17 0",
         "24.0,17.0 is 7 in of movement away; a moves at most 6 in with a Dash (T5-ROUND-12)"),
        (pair(b_at=FAR, terrain=[THICKET]), "move 24,12.5 0",
         "24.0,12.5 is 4 in of movement away (difficult terrain counts double); a moves at "
         "most 3 in (T5-ROUND-12)"),
        (pair(b_at=FAR, terrain=[CHASM]), "move 24,12.6 0",
         "the straight way from 24.0,10.0 to 24.0,12.6 enters impassable Chasm at 24.0,11.0 "
         "(T5-TERRAIN-01)"),
        (pair(b_at=FAR, terrain=[PIT]), "move 24,12 0",
         "at 24.0,12.0 a would stand on impassable Pit (T5-TERRAIN-01)"),
        (pair(b_at=FAR, extra=FRIEND), "move 26.5,10 0",
         "at 26.5,10.0 facing 0 a would overlap a2; bodies may pass friends but not end in "
         "another's space (T5-GEN-02)"),
        (pair(b_at=(24.0, 12.5)), "dash 24,14.5 0",
         "the way to 24.0,14.5 passes through the enemy b (T5-GEN-02)"),
        (pair(a_at=(24.0, 1.0), b_at=FAR), "move 24,0.4 0",
         "at 24.0,0.4 facing 0 a would reach past the south edge of the table; only a flight "
         "leaves the table (T5-FLEE-02)"),
        (pair(b_at=FAR), "disengage 24,11 0",
         "a is engaged with no enemy: there is nothing to disengage from (T5-MOVE-02)"),
        (pair(), "disengage 25,10 0",
         "at 25.0,10.0 a is still within reach of b; Disengage is for a move that leaves an "
         "engaged enemy's reach (T5-MOVE-02)"),
        (pair(b_at=FAR), "move 7 8 90", "move " + FORM.format("move")),
        (pair(b_at=FAR), "move 7.0,8.0", "move " + FORM.format("move")),
        (pair(b_at=FAR), "dash 7.0,8.0 90.5", "dash " + FORM.format("dash")),
        (pair(b_at=FAR), "move 7.0;8.0 90", "move " + FORM.format("move")),
        (pair(b_at=FAR), "hold 3", "hold takes no arguments (T5-DEC-12)"),
    ],
    ids=["speed", "dash", "difficult", "impassable-way", "impassable-end", "friend",
         "through-enemy", "off-table", "nothing-to-disengage", "disengage-in-reach",
         "two-numbers", "no-facing", "facing-not-whole", "semicolon", "hold-args"],
)
def test_a_move_that_breaks_a_rule_is_refused_with_the_rule_and_the_numbers(
    model: Any, text: str, expected: str
) -> None:
    assert reason(verdicts(model, text)[text]) == expected


@pytest.mark.rule("T5-MOVE-03")
@pytest.mark.parametrize(
    ("model", "text", "expected"),
    [
        (pair(), "charge b", "a is already adjacent to b: a Charge is a Dash that ends "
         "adjacent, so attack it with the action instead (T5-MOVE-03)"),
        (pair(b_at=APART), "charge bb",
         "there is no unit or Single Character 'bb'; did you mean b? (T5-MOVE-03)"),
        (pair(b_at=APART, extra=FRIEND), "charge a2", "a2 is not an enemy (T5-MOVE-03)"),
        (pair(b_at=FAR, singles={"B": [single_spec("s", APART, OGRE)]}), "charge s",
         "s is a Single Character; a Charge ends adjacent to an enemy unit (T5-MOVE-03)"),
        (pair(b_at=APART), "charge", "charge needs the id of the enemy unit, as in "
         "'charge b-orcs' (T5-MOVE-03)"),
    ],
    ids=["adjacent", "unknown", "friend", "single", "no-target"],
)
def test_a_charge_that_breaks_a_rule_is_refused(model: Any, text: str, expected: str) -> None:
    assert reason(verdicts(model, text)[text]) == expected


@pytest.mark.rule("T5-MOVE-03", "T5-ROUND-12")
def test_a_charge_out_of_a_dash_is_refused_with_the_distance() -> None:
    refusal = verdicts(pair(b_at=FAR), "charge b")["charge b"]
    assert isinstance(refusal, Refusal) and refusal.rule == "T5-ROUND-12"
    assert refusal.reason.endswith("in of movement away; a moves at most 6 in with a Dash")


HORSE = {"name": "Riding Horse", "speed": 60, "control": "controlled"}


@pytest.mark.rule("T5-AMB-29", "T5-MOUNT-01", "T5-ROUND-12")
def test_after_the_mounts_dash_the_riders_dash_is_refused_and_moves_go_twice_as_far() -> None:
    """Riders and commander on horses: 60 ft = 6 in, doubled by the mounts' Dash to 12 in."""
    riders = {"member": melee_thug(mount=dict(HORSE)),
              "commander": block(unit_spec("x", (0, 0))["commander"], mount=dict(HORSE))}
    found = verdicts(pair(riders, b_at=FAR), "dash 24,20 0", "move 24,21 0", "move 24,23 0",
                     orders=["dash"])
    assert reason(found["dash 24,20 0"]) == (
        "its mounts' Dash already doubles the move and the riders' Dash does not add to it: "
        "order move (T5-AMB-29)")
    assert found["move 24,21 0"] == Order.of("move", "24.0,21.0", 0)
    assert reason(found["move 24,23 0"]) == (
        "24.0,23.0 is 13 in of movement away; a moves at most 12 in (its mounts' Dash doubles "
        "it) (T5-ROUND-12)")
