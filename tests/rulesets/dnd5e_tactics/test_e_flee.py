"""Flight, rout, flee attacks of opportunity and follow-through (T5-FLEE-*, T5-STANCE-03,
T5-DEC-19, T5-DEC-20, T5-AMB-36, -40, -45, -46, -47, -50)."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.geometry.table import path_cost
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.end_of_round import (
    end_of_round,
    follow_through_options,
    shape_at,
)
from warhost.rulesets.dnd5e_tactics.setup import parse_point
from warhost.rulesets.dnd5e_tactics.state import ROUTED, feet

from .eor_helpers import (
    GUARD,
    KNIGHT,
    build,
    facing_pair,
    spy,
    unit,
    unit_spec,
    wound,
)
from .helpers import events


def lone(at: tuple[float, float], side: str = "A", **kw: Any) -> dict[str, list[dict[str, Any]]]:
    """One unit of ``side`` at ``at`` and an enemy far away in a corner."""
    mine = unit_spec(f"{side}1", at, facing=0 if side == "A" else 180)
    other_side = "B" if side == "A" else "A"
    far = (40.0, 30.0) if at[1] < 25 else (8.0, 5.0)
    other = unit_spec(f"{other_side}1", far, facing=180 if side == "A" else 0)
    return {side: [mine], other_side: [other]}


def flee_unengaged(units: dict[str, Any], uid: str = "A1", **kw: Any) -> Any:
    """Make ``uid`` (Close, unengaged) fail morale by 8 and decline the save: it flees."""
    ctx = build(units, dice=[8], orders={uid[0]: ["decline"]}, **kw)
    wound(unit(ctx, uid), 5)  # DC 18; 8 + 2 = 10
    end_of_round(ctx)
    assert events(ctx, "morale")[0]["fails_by"] == 8
    return ctx


# ---------------------------------------------------------------- not engaged: nearest edge


@pytest.mark.rule("T5-FLEE-01", "T5-AMB-45", "T5-MORALE-10")
@pytest.mark.parametrize(
    ("side", "at", "edge", "end"),
    [
        ("A", (8.0, 18.0), "west", (5.0, 18.0)),
        ("A", (24.0, 18.0), "south", (24.0, 15.0)),  # north and south tie: own edge
        ("B", (24.0, 18.0), "north", (24.0, 21.0)),
        ("A", (36.0, 24.0), "north", (36.0, 27.0)),  # north and east tie: north first
    ],
)
def test_flee_toward_nearest_edge(side: str, at: tuple[float, float], edge: str,
                                  end: tuple[float, float]) -> None:
    uid = f"{side}1"
    ctx = flee_unengaged(lone(at, side), uid)
    fled = unit(ctx, uid)
    (event,) = events(ctx, "flee")
    assert event["edge"] == edge and fled.centre == pytest.approx(end)
    assert fled.fled and fled.on_table and fled.rank == -2


@pytest.mark.rule("T5-FLEE-01", "T5-AMB-45", "T5-TERRAIN-09")
@pytest.mark.parametrize(
    ("terrain", "end"),
    [
        ({"kind": "forest", "rect": [0, 0, 6, 36]}, (5.5, 18.0)),  # 2 in clear, 1 in woods
        ({"kind": "impassable", "rect": [0, 0, 6.5, 36]}, (6.5, 18.0)),  # stops at the edge
    ],
)
def test_flee_is_slowed_by_difficult_and_stopped_by_impassable(
        terrain: dict[str, Any], end: tuple[float, float]) -> None:
    ctx = flee_unengaged(lone((8.0, 18.0)), terrain=[terrain])
    assert unit(ctx, "A1").centre == pytest.approx(end)


@pytest.mark.rule("T5-FLEE-02", "T5-FLEE-07", "T5-AMB-45")
@pytest.mark.parametrize(("x", "routed"), [(4.2, True), (4.3, False), (3.0, True)])
def test_flee_past_the_edge_routs(x: float, routed: bool) -> None:
    # The 5 members left stand in one rank 2.5 in wide: 1.25 in each side of the centre.
    ctx = flee_unengaged(lone((x, 18.0)))
    a1 = unit(ctx, "A1")
    (event,) = events(ctx, "flee")
    assert event["off_board"] is routed
    assert event["to"] == pytest.approx([x - 3.0, 18.0])  # the full-speed point decides
    if routed:
        assert a1.status == ROUTED and a1 not in ctx.state.active()
        assert [e["unit"] for e in events(ctx, "rout")] == ["A1"]
    else:
        assert a1.on_table and a1.centre == pytest.approx((x - 3.0, 18.0))


# ---------------------------------------------------------------- engaged: away from the largest


APART_DECLARED = 2.0  # out of reach: only the declaration engages them


def three_way(b1_members: int, b2_members: int, b2_member: dict[str, Any] | None = None
              ) -> dict[str, list[dict[str, Any]]]:
    """A1 (x 21.5-26.5, y 17-18) with B1 on its west flank and B2 on its front."""
    b1_x = 21.0 if b1_members > 10 else 21.25
    b1_x -= 0.25 if b1_members <= 10 else 0.0
    b2_y = 18.5 if b2_members > 10 else 18.25
    extra = {"member": b2_member} if b2_member else {}
    return {
        "A": [unit_spec("A1", (24.0, 17.5), facing=0)],
        "B": [unit_spec("B1", (b1_x, 17.5), b1_members, facing=90),
              unit_spec("B2", (24.0, b2_y), b2_members, facing=180, **extra)],
    }


@pytest.mark.rule("T5-FLEE-03", "T5-AMB-46")
@pytest.mark.parametrize(
    ("b1", "b2", "b2_member", "away_from", "end"),
    [
        (10, 20, None, "B2", (24.0, 14.5)),  # most members
        (20, 10, None, "B1", (27.0, 17.5)),
        (20, 20, None, "B1", (27.0, 17.5)),  # tie: B1 is earlier in the turn order
        (20, 20, GUARD, "B2", (24.0, 14.5)),  # tie: B2's Guards give it initiative 1
    ],
)
def test_engaged_unit_flees_from_the_largest(b1: int, b2: int, b2_member: dict[str, Any] | None,
                                             away_from: str, end: tuple[float, float]) -> None:
    ctx = build(three_way(b1, b2, b2_member), dice=[11],
                orders={"A": ["decline"], "B": ["none", "none"]})
    a1 = unit(ctx, "A1")
    wound(a1, 10)  # still 10 files wide, so both stay in contact; DC 14
    end_of_round(ctx)
    assert events(ctx, "morale")[0]["modifiers"]["engaged"] == -6
    assert events(ctx, "morale")[0]["fails_by"] == 7  # 11 + 2 - 6 = 7
    (event,) = events(ctx, "flee")
    assert event["away_from"] == away_from
    assert a1.centre == pytest.approx(end)
    assert a1.fled and a1.on_table


@pytest.mark.rule("T5-FLEE-03", "T5-AMB-46", "T5-FLEE-02")
def test_engaged_flee_off_the_board_routs() -> None:
    units = {"A": [unit_spec("A1", (24.0, 2.5), facing=0)],
             "B": [unit_spec("B1", (24.0, 3.5), facing=180)]}
    ctx = build(units, dice=[12], orders={"A": ["decline"]})
    seen = spy(ctx)
    a1 = unit(ctx, "A1")
    wound(a1, 5)
    end_of_round(ctx)
    assert events(ctx, "flee")[0]["off_board"] is True
    assert a1.status == ROUTED
    assert not [d for d in seen if d.kind == "flee_attack"]  # nothing left to attack


@pytest.mark.rule("T5-FLEE-03", "T5-AMB-10")
def test_declared_engagement_ends_when_the_unit_flees() -> None:
    ctx = build(facing_pair(gap=APART_DECLARED), dice=[12],
                orders={"A": ["decline"], "B": ["none"]}, engagement_model="declared")
    a1, b1 = unit(ctx, "A1"), unit(ctx, "B1")
    ctx.state.declared = {frozenset(("A1", "B1"))}
    wound(a1, 5)  # 12 + 2 - 3 = 11: fails by 7
    end_of_round(ctx)
    assert events(ctx, "flee")[0]["away_from"] == "B1"
    assert ctx.state.declared == set() and not ctx.state.engaged(a1, b1)


# ---------------------------------------------------------------- flee attacks of opportunity


def engaged_flee(b_stance: str = "close", b_orders: tuple[str, ...] = ("none",),
                 dice: tuple[int, ...] = (12,)) -> Any:
    """A1 engaged with B1 fails by 7 and flees south, out of contact."""
    ctx = build(facing_pair(b_extra={"stance": b_stance}), dice=list(dice),
                orders={"A": ["decline"], "B": list(b_orders)})
    wound(unit(ctx, "A1"), 5)  # DC 18; 12 + 2 - 3 = 11
    return ctx


@pytest.mark.rule("T5-FLEE-04", "T5-DEC-19")
def test_close_stance_enemy_is_offered_an_attack() -> None:
    ctx = engaged_flee()
    seen = spy(ctx)
    end_of_round(ctx)
    (decision,) = [d for d in seen if d.kind == "flee_attack"]
    assert decision.side == "B" and decision.subject == "B1"
    assert [str(o) for o in decision.options] == ["attack", "none"]
    assert str(decision.default) == "attack"
    assert events(ctx, "unit_attack") == [] and unit(ctx, "A1").members == 5


@pytest.mark.rule("T5-FLEE-05")
def test_open_stance_enemy_gets_no_attack() -> None:
    ctx = engaged_flee(b_stance="open")
    seen = spy(ctx)
    end_of_round(ctx)
    assert unit(ctx, "A1").fled
    assert not [d for d in seen if d.kind == "flee_attack"]
    assert events(ctx, "unit_attack") == [] and events(ctx, "commander_attack") == []


@pytest.mark.rule("T5-FLEE-04", "T5-FLEE-06", "T5-DEC-19", "T5-AMB-47", "T5-AMB-40",
                  "T5-CASUALTY-05")
def test_flee_attacks_become_casualties_at_once() -> None:
    # B1's 20 Thugs: one Mace resolution; d6 1. Its Knight: Greatsword, d20 2 (a miss).
    ctx = engaged_flee(b_orders=("attack", "attack Greatsword", "casualty"), dice=(12, 1, 2))
    seen = spy(ctx)
    a1, b1 = unit(ctx, "A1"), unit(ctx, "B1")
    end_of_round(ctx)
    asked = [d for d in seen if d.kind == "flee_attack"]
    assert [str(o) for o in asked[1].options] == ["attack Greatsword", "none"]
    (unit_attack,) = events(ctx, "unit_attack")
    (cmd_attack,) = events(ctx, "commander_attack")
    assert unit_attack["attacker"] == "B1" and unit_attack["target"] == "A1"
    assert unit_attack["eligible"] == 20 and unit_attack["d6"] == 1
    assert cmd_attack["target"] == "A1"  # the unit, never its commander
    damage = unit_attack["damage"] + cmd_attack["damage"]
    flee_cas = [e for e in events(ctx, "casualties") if e["why"] == "flee_attack"]
    assert len(flee_cas) == 1 and flee_cas[0]["tdr"] == damage
    killed = damage // 32 + (1 if 2 * (damage % 32) >= 32 else 0)
    assert a1.members == max(0, 5 - killed)
    assert a1.commander.hp == KNIGHT["hp"]
    assert len(events(ctx, "morale")) == 1  # no second check
    assert not b1.reaction_used and not b1.commander.reaction_used  # no reaction spent


@pytest.mark.rule("T5-AMB-47", "T5-AMB-50")
def test_unit_emptied_by_flee_attacks_routs() -> None:
    # d6 6 on a needed 12: divisor 1, all 20 Thugs hit for 8: 160 kills the last 5.
    ctx = engaged_flee(b_orders=("attack", "none"), dice=(12, 6))
    a1 = unit(ctx, "A1")
    end_of_round(ctx)
    assert events(ctx, "unit_attack")[0]["damage"] >= 5 * 32
    assert a1.members == 0 and a1.status == ROUTED
    assert events(ctx, "rout")[0]["unit"] == "A1"


@pytest.mark.rule("T5-FLEE-08", "T5-DUEL-05")
@pytest.mark.parametrize("roll", [12, 9])  # fails by 7 (flee) and by 10 (rout)
def test_fleeing_or_routing_ends_the_duel(roll: int) -> None:
    ctx = build(facing_pair(), dice=[roll], orders={"A": ["decline"], "B": ["none"]})
    a1, b1 = unit(ctx, "A1"), unit(ctx, "B1")
    a1.commander.duel, b1.commander.duel = "B1", "A1"
    wound(a1, 5)
    end_of_round(ctx)
    assert a1.commander.duel is None and b1.commander.duel is None
    assert len(events(ctx, "duel_end")) == 1


# ---------------------------------------------------------------- follow-through


@pytest.mark.rule("T5-STANCE-03", "T5-AMB-36", "T5-DEC-20")
def test_follow_through_after_the_enemy_flees() -> None:
    ctx = engaged_flee(b_orders=("none", "move 24.0,20.0"), dice=(12, 20))
    seen = spy(ctx)
    b1 = unit(ctx, "B1")
    wound(b1, 19)
    end_of_round(ctx)
    (decision,) = [d for d in seen if d.kind == "follow_through"]
    assert decision.side == "B" and decision.subject == "B1"
    assert str(decision.options[0]) == "stay" and str(decision.default) == "stay"
    assert b1.centre == (24.0, 20.0)
    (event,) = events(ctx, "follow_through")
    assert event["moved"] is True and event["from"] == [24.0, 18.5]
    assert event["seq"] > max(e["seq"] for e in events(ctx, "morale"))


@pytest.mark.rule("T5-STANCE-03", "T5-AMB-36")
def test_follow_through_after_the_enemy_routs() -> None:
    ctx = engaged_flee(dice=(9,))  # 9 + 2 - 3 = 8: fails by 10
    seen = spy(ctx)
    end_of_round(ctx)
    assert unit(ctx, "A1").status == ROUTED
    assert [d.subject for d in seen if d.kind == "follow_through"] == ["B1"]
    assert events(ctx, "follow_through")[0]["moved"] is False  # default: stay


@pytest.mark.rule("T5-STANCE-03", "T5-AMB-36")
def test_no_follow_through_in_open_stance() -> None:
    ctx = engaged_flee(b_stance="open")
    seen = spy(ctx)
    end_of_round(ctx)
    assert unit(ctx, "A1").fled
    assert not [d for d in seen if d.kind == "follow_through"]


@pytest.mark.rule("T5-AMB-36")
def test_no_follow_through_without_engagement_at_the_start() -> None:
    ctx = build(facing_pair(gap=1.0), dice=[9], orders={"A": ["decline"]})
    seen = spy(ctx)
    wound(unit(ctx, "A1"), 5)  # 9 + 2 = 11: fails by 7, flees south
    end_of_round(ctx)
    assert unit(ctx, "A1").fled
    assert not [d for d in seen if d.kind == "follow_through"]


def _flees_with_b1_still_held(ctx: Ctx) -> None:
    """A1 breaks and flees while another A body stays engaged with B1: B1 gets no
    follow-through."""
    seen = spy(ctx)
    assert len(ctx.state.engaged_with(unit(ctx, "B1"))) == 2
    wound(unit(ctx, "A1"), 5)
    end_of_round(ctx)
    assert unit(ctx, "A1").fled
    assert not [d for d in seen if d.kind == "follow_through"]


@pytest.mark.rule("T5-AMB-36")
def test_no_follow_through_while_another_engaged_enemy_stays() -> None:
    units = facing_pair()
    units["A"].append(unit_spec("A2", (26.75, 18.5), 10, facing=270))  # on B1's east flank
    ctx = build(units, dice=[12], orders={"A": ["decline"], "B": ["none"]})
    _flees_with_b1_still_held(ctx)


@pytest.mark.rule("T5-AMB-36")
def test_no_follow_through_while_an_engaged_single_stays() -> None:
    singles = {"A": [{"id": "S1", "stats": KNIGHT, "at": [24.0, 19.25]}]}  # behind B1
    ctx = build(facing_pair(), singles=singles, dice=[12],
                orders={"A": ["decline"], "B": ["none"]})
    _flees_with_b1_still_held(ctx)


@pytest.mark.rule("T5-AMB-36")
def test_a_unit_that_fled_itself_gets_no_follow_through() -> None:
    # A1 flees south; then B1, no longer engaged, fails by 7 too and flees north.
    ctx = build(facing_pair(), dice=[12, 8],
                orders={"A": ["decline"], "B": ["none", "decline"]})
    seen = spy(ctx)
    wound(unit(ctx, "A1"), 5)
    wound(unit(ctx, "B1"), 5)
    end_of_round(ctx)
    assert unit(ctx, "A1").fled and unit(ctx, "B1").fled
    assert unit(ctx, "B1").centre == (24.0, 21.5)
    assert not [d for d in seen if d.kind == "follow_through"]


@pytest.mark.rule("T5-AMB-36")
def test_follow_through_moves_in_ascending_initiative() -> None:
    units = {
        "A": [unit_spec("A1", (12.0, 17.5), facing=0), unit_spec("A2", (36.0, 17.5), facing=0)],
        "B": [unit_spec("B1", (12.0, 18.5), facing=180),
              unit_spec("B2", (36.0, 18.5), facing=180, member=GUARD)],
    }
    ctx = build(units, dice=[12, 12], orders={"A": ["decline", "decline"],
                                              "B": ["none", "none"]})
    assert ctx.state.order == ["B2", "B1", "A1", "A2"]
    wound(unit(ctx, "A1"), 5)
    wound(unit(ctx, "A2"), 5)
    end_of_round(ctx)
    assert [e["unit"] for e in events(ctx, "follow_through")] == ["B1", "B2"]


@pytest.mark.rule("T5-DEC-20", "T5-STANCE-03")
def test_follow_through_offers_legal_half_speed_moves_only() -> None:
    # A1: 10 members in one rank, x 21.5-26.5, y 34.25-34.75, 1.25 in from the north edge;
    # A2 just south of it (y 32.75-33.25); impassable ground west of it (x 17-20.5).
    units = {"A": [unit_spec("A1", (24.0, 34.5), 10, facing=0),
                   unit_spec("A2", (24.0, 33.0), 10, facing=0)],
             "B": [unit_spec("B1", (8.0, 5.0), facing=180)]}
    ctx = build(units, terrain=[{"kind": "impassable", "rect": [17.0, 30.0, 3.5, 6.0]}])
    a1 = unit(ctx, "A1")
    points = follow_through_options(ctx, a1)
    limit = feet(a1.speed) / 2
    texts = {f"{x:.1f},{y:.1f}" for x, y in points}
    assert not texts & {"24.0,36.0", "24.0,33.0", "22.5,34.5"}  # off board, on A2, in rock
    assert {"24.0,35.2", "24.0,33.8", "23.2,34.5"} <= texts  # the quarter moves fit
    for point in points:
        shape = shape_at(a1, point)
        assert ctx.state.board.contains(shape)
        assert path_cost([a1.centre, point], ctx.state.regions) <= limit + 1e-9
        assert all(r.polygon.intersection(shape).area <= 1e-9 for r in ctx.state.regions)
        assert shape.intersection(unit(ctx, "A2").footprint).area <= 1e-9
    ctx = build({"A": [unit_spec("A1", (24.0, 18.0), 10, facing=0)],
                 "B": [unit_spec("B1", (8.0, 5.0), facing=180)]})
    open_ground = follow_through_options(ctx, unit(ctx, "A1"))
    assert len(open_ground) == 16  # 8 bearings x (half, quarter)
    assert parse_point("24.0,19.5") in open_ground and parse_point("24.0,18.8") in open_ground
