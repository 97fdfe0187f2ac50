"""The Movement phase (W4-MOVE, W4-FLEE, W4-UNIT-06..13, W4-DEC-06..14): the order of the
phase, what each kind of move may do and costs, and fall back! moves."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rulesets.dnd4e_war.helpers import (
    events,
    get,
    make_battle,
    make_state,
    profile,
    record,
    unit,
)
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.table import distance, tray_gap
from warhost.rulesets.dnd4e_war import movement, psychology
from warhost.rulesets.dnd4e_war.movement import Mover, Plan
from warhost.rulesets.dnd4e_war.state import WarState

FAR_FOE = unit("foe", "B", at=(60.0, 44.0), facing=180)
SKIRMISHERS = profile("Scouts", formation="skirmish", unit_size=[1, 12])


def judge(state: WarState, uid: str, text: str) -> Order | Refusal | None:
    return Mover(state, get(state, uid)).judge(Order.parse(text))


def refused(state: WarState, uid: str, text: str) -> str | None:
    verdict = judge(state, uid, text)
    assert isinstance(verdict, Refusal), f"{text} was not refused"
    return verdict.rule


def courage(results: list[bool], seen: list[tuple[str, str, int]]) -> Any:
    """A stand-in courage test with scripted results (the psychology helper owns the
    real one)."""

    def test(state: WarState, battle: Any, u: Any, dc: int, why: str, rule: str,
             kind: str = "courage", natural_20_only: bool = False) -> bool:
        seen.append((u.id, kind, dc))
        return results.pop(0)

    return test


# --------------------------------------------------------------------------- the phase


@pytest.mark.rule("W4-MOVE-01")
@pytest.mark.rule("W4-FLEE-13")
@pytest.mark.rule("W4-FLEE-14")
@pytest.mark.rule("W4-FLEE-16")
@pytest.mark.rule("W4-DEC-06")
@pytest.mark.rule("W4-DEC-08")
def test_each_side_rallies_then_makes_compulsory_then_remaining_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("a", at=(20, 10)), unit("f", at=(50, 20)),
                        unit("b", "B", at=(20, 40), facing=180)])
    get(state, "f").fleeing = True
    seen: list[tuple[str, str, int]] = []
    monkeypatch.setattr(psychology, "courage_test", courage([False], seen))
    battle = make_battle(state, dice=[3, 4], orders={
        "A": ["move a", "walk a 20,15"], "B": ["move b", "walk b 20,36"]})
    movement.movement_phase(state, battle)
    assert seen == [("f", "rally", 13)]
    log = [(e["type"], e["unit"]) for e in battle.log.events
           if e["type"] in ("fall_back", "move")]
    assert log == [("fall_back", "f"), ("move", "a"), ("move", "b")]
    assert get(state, "a").front == (20.0, 15.0) and get(state, "b").front == (20.0, 36.0)
    fled = events(battle, "fall_back")[0]
    assert fled["distance"] == 7.0 and fled["heading"] == 180.0  # south (19") is nearest


@pytest.mark.rule("W4-FLEE-10")
@pytest.mark.rule("W4-FLEE-12")
@pytest.mark.rule("W4-AMB-91")
@pytest.mark.rule("W4-MOVE-17")
def test_a_rallied_unit_reforms_at_once_with_its_move_action(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("f", at=(30, 20), companies=4), FAR_FOE])
    f = get(state, "f")
    f.fleeing = True
    monkeypatch.setattr(psychology, "courage_test", courage([True], []))
    battle = make_battle(state, orders={"A": ["reform f 2 90"]})
    asked = record(battle)
    centre = f.frame().centre
    movement.movement_phase(state, battle)
    assert not f.fleeing and f.rallied and f.reformed and f.move_used
    assert (f.files, f.facing) == (2, 90.0)
    assert distance(f.frame().centre, centre) < 1e-9
    assert not any(d.kind == "unit_move" and d.side == "A" for d in asked)  # nothing more
    assert all(Order.of("move", "f") not in d.options for d in asked if d.kind == "next_move")


def test_a_unit_not_tried_for_rally_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("f", at=(30, 20)), FAR_FOE])
    get(state, "f").fleeing = True
    seen: list[tuple[str, str, int]] = []
    monkeypatch.setattr(psychology, "courage_test", courage([], seen))
    battle = make_battle(state, dice=[6, 6], orders={"A": ["keep_fleeing f"]})
    movement.movement_phase(state, battle)
    assert seen == [] and events(battle, "fall_back")[0]["unit"] == "f"


@pytest.mark.rule("W4-FLEE-17")
@pytest.mark.rule("W4-DEC-07")
def test_the_owner_orders_the_compulsory_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("f", at=(30, 20)), unit("g", at=(50, 20)), FAR_FOE])
    get(state, "f").fleeing = get(state, "g").fleeing = True
    monkeypatch.setattr(psychology, "courage_test", courage([False, False], []))
    battle = make_battle(state, dice=[3, 3, 3, 3], orders={"A": ["move g"]})
    movement.movement_phase(state, battle)
    assert [e["unit"] for e in events(battle, "fall_back")] == ["g", "f"]


@pytest.mark.rule("W4-MOVE-02")
@pytest.mark.rule("W4-AMB-81")
def test_engaged_units_are_not_offered_a_move_and_done_ends_the_step() -> None:
    state = make_state([unit("a", at=(20, 10)), unit("c", at=(40, 10)),
                        unit("b", "B", at=(20, 10.0 + 2.0 + 2.0), facing=180)])
    state.engage("a", "b")
    battle = make_battle(state, orders={"A": ["done"]})
    asked = record(battle)
    movement.remaining_step(state, battle, "A")
    first = asked[0]
    assert first.kind == "next_move"
    assert [o.text for o in first.options] == ["move c", "done"]
    assert not events(battle, "move")


# --------------------------------------------------------------------------- walking


@pytest.mark.rule("W4-MOVE-03")
@pytest.mark.rule("W4-MOVE-05")
@pytest.mark.rule("W4-MEAS-02")
def test_a_walk_goes_up_to_speed_and_no_further() -> None:
    state = make_state([unit("a", at=(20, 10)), FAR_FOE])
    assert isinstance(judge(state, "a", "walk a 20,16"), Order)
    assert isinstance(judge(state, "a", "walk a 20,12.5"), Order)
    assert refused(state, "a", "walk a 20,16.1") == "W4-MOVE-05"


@pytest.mark.rule("W4-MOVE-07")
@pytest.mark.rule("W4-DEC-09")
def test_companies_move_forward_or_up_to_45_degrees_off_keeping_their_facing() -> None:
    state = make_state([unit("a", at=(20, 10)), FAR_FOE])
    diagonal = 6 / math.sqrt(2)
    battle = make_battle(state, orders={"A": [f"walk a {20 + diagonal},{10 + diagonal}"]})
    movement.move_unit(state, battle, get(state, "a"))
    a = get(state, "a")
    assert a.facing == 0.0 and distance(a.front, (20 + diagonal, 10 + diagonal)) < 1e-9
    state = make_state([unit("a", at=(20, 10)), FAR_FOE])
    assert refused(state, "a", "walk a 24,13") == "W4-MOVE-07"  # 53 degrees off
    assert refused(state, "a", "walk a 20,7") == "W4-MOVE-07"  # backwards
    assert refused(state, "a", "walk a 23,10") == "W4-MOVE-07"  # sideways


@pytest.mark.rule("W4-MOVE-06")
@pytest.mark.rule("W4-UNIT-07")
@pytest.mark.rule("W4-UNIT-08")
@pytest.mark.rule("W4-UNIT-10")
@pytest.mark.rule("W4-MOVE-12")
def test_companies_stay_together_corner_to_corner_through_every_kind_of_move() -> None:
    for order in ("walk a 32,14", "wheel a left 30", "pivot a 90", "reform a 1 270"):
        state = make_state([unit("a", at=(30, 10), companies=3, files=2), FAR_FOE])
        battle = make_battle(state, orders={"A": [order]})
        movement.move_unit(state, battle, get(state, "a"))
        a = get(state, "a")
        trays = a.trays()
        assert all(t.facing == a.facing for t in trays)
        for i, t in enumerate(trays[1:], 1):
            assert min(tray_gap(t, o) for o in trays[:i]) < 1e-9  # touching the others
            assert all(not _overlap(t, o) for o in trays[:i])
        assert events(battle, "move")[0]["kind"] == order.split()[0]


def _overlap(a: Any, b: Any) -> bool:
    from warhost.geometry.table import trays_overlap

    return trays_overlap(a, b)


# --------------------------------------------------------------------------- turning


@pytest.mark.rule("W4-MOVE-09")
@pytest.mark.rule("W4-MOVE-11")
@pytest.mark.rule("W4-AMB-93")
@pytest.mark.rule("W4-DEC-10")
def test_a_wheel_pays_the_arc_of_its_outer_front_corner_or_the_farthest_corner() -> None:
    # two companies side by side: 8" wide, 2" deep
    state = make_state([unit("a", at=(30, 10), companies=2, files=2), FAR_FOE])
    battle = make_battle(state, orders={"A": ["wheel a right 30"]})
    pivot = get(state, "a").frame().corners()[1]
    movement.move_unit(state, battle, get(state, "a"))
    moved = events(battle, "move")[0]
    assert moved["cost"] == pytest.approx(8 * math.pi / 6, abs=1e-3)
    assert get(state, "a").facing == 30.0
    assert distance(get(state, "a").frame().corners()[1], pivot) < 1e-9
    far = make_state([unit("a", at=(30, 10), companies=2, files=2), FAR_FOE],
                     options={"wheel_distance": "farthest_corner"})
    verdict = Mover(far, get(far, "a")).plan(Order.parse("wheel a right 30"))
    assert isinstance(verdict, Plan)
    assert verdict.cost == pytest.approx(math.hypot(8, 2) * math.pi / 6)
    fresh = make_state([unit("a", at=(30, 10), companies=2, files=2), FAR_FOE])
    assert refused(fresh, "a", "wheel a right 45") == "W4-MOVE-11"  # 6.28 of Speed 6


@pytest.mark.rule("W4-MOVE-10")
def test_a_wheel_only_goes_forwards() -> None:
    state = make_state([unit("a", at=(30, 10)), FAR_FOE])
    assert refused(state, "a", "wheel a left -20") == "W4-MOVE-10"
    assert refused(state, "a", "wheel a up 20") == "W4-DEC-10"


@pytest.mark.rule("W4-AMB-92")
@pytest.mark.rule("W4-MOVE-08")
def test_a_wheel_and_a_forward_move_share_one_allowance() -> None:
    state = make_state([unit("a", at=(30, 10)), FAR_FOE])  # one company, 4" wide
    arc = 4 * math.pi / 2  # 6.28: too much for a 90 degree wheel with Speed 6
    assert arc > 6
    assert refused(state, "a", "wheel a right 90") == "W4-MOVE-11"
    # wheeled 45 right about (32, 10), the front centre stands at (30.586, 11.414)
    step = 1.5 / math.sqrt(2)
    then = f"{30 - math.sqrt(2) + 2 + step},{10 + math.sqrt(2) + step}"
    plan = Mover(state, get(state, "a")).plan(Order.parse(f"wheel a right 45 then {then}"))
    assert isinstance(plan, Plan) and plan.frame is not None
    assert plan.cost == pytest.approx(math.pi + 1.5) and plan.frame.facing == 45.0
    step = 3 / math.sqrt(2)  # pi + 3 > 6
    then = f"{30 - math.sqrt(2) + 2 + step},{10 + math.sqrt(2) + step}"
    assert refused(state, "a", f"wheel a right 45 then {then}") == "W4-MOVE-05"


@pytest.mark.rule("W4-MOVE-13")
@pytest.mark.rule("W4-MOVE-14")
@pytest.mark.rule("W4-AMB-89")
@pytest.mark.rule("W4-DEC-11")
def test_a_centre_pivot_costs_a_quarter_or_half_of_speed_rounded_up() -> None:
    state = make_state([unit("a", at=(30, 10), companies=2, files=2), FAR_FOE])
    centre = get(state, "a").frame().centre
    costs = []
    for deg in (90, -45, 180):
        plan = Mover(state, get(state, "a")).plan(Order.of("pivot", "a", deg))
        assert isinstance(plan, Plan) and plan.frame is not None
        assert distance(plan.frame.centre, centre) < 1e-9
        costs.append(plan.cost)
    assert costs == [2.0, 2.0, 3.0]
    assert refused(state, "a", "pivot a 200") == "W4-MOVE-14"
    get(state, "a").profile = get(state, "a").profile.model_copy(update={"speed": 7})
    plan = Mover(state, get(state, "a")).plan(Order.of("pivot", "a", 90))
    assert isinstance(plan, Plan) and plan.cost == 2.0  # ceil(7 / 4)


@pytest.mark.rule("W4-MOVE-15")
def test_no_centre_pivot_after_running_or_a_double_move() -> None:
    state = make_state([unit("a", at=(30, 10)), FAR_FOE])
    get(state, "a").ran = True
    assert refused(state, "a", "pivot a 90") == "W4-MOVE-15"


@pytest.mark.rule("W4-MOVE-16")
@pytest.mark.rule("W4-DEC-12")
@pytest.mark.rule("W4-UNIT-09")
def test_a_reform_rearranges_the_companies_about_the_centre_and_faces_anywhere() -> None:
    state = make_state([unit("a", at=(30, 10), companies=4, files=4), FAR_FOE])
    a = get(state, "a")
    centre = a.frame().centre
    battle = make_battle(state, orders={"A": ["reform a 2 135"]})
    movement.move_unit(state, battle, a)
    assert (a.files, a.ranks, a.facing) == (2, 2, 135.0)
    assert distance(a.frame().centre, centre) < 1e-9
    assert a.reformed and a.move_used
    fresh = make_state([unit("a", at=(30, 10), companies=4, files=4), FAR_FOE])
    assert refused(fresh, "a", "reform a 5 0") == "W4-UNIT-09"


# --------------------------------------------------------------------------- double, run


@pytest.mark.rule("W4-MOVE-19")
@pytest.mark.rule("W4-MOVE-20")
@pytest.mark.rule("W4-AMB-88")
@pytest.mark.rule("W4-MEAS-04")
def test_a_double_move_goes_twice_speed_unless_an_enemy_is_within_six_inches() -> None:
    state = make_state([unit("a", at=(20, 10)), FAR_FOE])
    battle = make_battle(state, orders={"A": ["double a 20,22"]})
    movement.move_unit(state, battle, get(state, "a"))
    a = get(state, "a")
    assert a.front == (20.0, 22.0) and a.double_moved and a.standard_used and a.move_used
    assert refused(make_state([unit("a", at=(20, 10)), FAR_FOE]), "a",
                   "double a 20,22.5") == "W4-MOVE-05"
    # an enemy 6" away (closest points), even a fleeing one, forbids it
    state6 = make_state([unit("a", at=(20, 10)), unit("e", "B", at=(30, 12), facing=0)])
    assert state6.gap(get(state6, "a"), get(state6, "e")) == pytest.approx(6.0)
    get(state6, "e").fleeing = True
    assert refused(state6, "a", "double a 20,20") == "W4-MOVE-20"
    state7 = make_state([unit("a", at=(20, 10)), unit("e", "B", at=(31, 12), facing=0)])
    assert isinstance(judge(state7, "a", "double a 20,20"), Order)


@pytest.mark.rule("W4-MOVE-21")
@pytest.mark.rule("W4-AMB-08")
@pytest.mark.rule("W4-SKIRM-01")
def test_only_skirmishers_lone_models_and_monsters_run_speed_plus_two() -> None:
    state = make_state([unit("a", at=(20, 10)), unit("s", at=(40, 10), companies=4,
                                                      profile=SKIRMISHERS), FAR_FOE])
    assert refused(state, "a", "run a 20,14") == "W4-MOVE-21"
    s = get(state, "s")
    centre = s.frame().centre
    spread = [c for p in s.points for c in (p[0] - centre[0], p[1] - centre[1])]
    assert isinstance(judge(state, "s", f"run s {centre[0] - 8},{centre[1]}"), Order)
    assert refused(state, "s", f"run s {centre[0] - 8.1},{centre[1]}") == "W4-MOVE-05"
    battle = make_battle(state, orders={"A": [f"run s {centre[0]},{centre[1] - 8}"]})
    movement.move_unit(state, battle, s)  # backwards is fine for skirmishers
    assert s.ran and s.facing == 180.0
    again = make_state([unit("s", at=(40, 10), companies=4, profile=SKIRMISHERS), FAR_FOE])
    s = get(again, "s")
    centre = s.frame().centre
    battle = make_battle(again, orders={"A": [f"walk s {centre[0] + 3},{centre[1]} 225"]})
    movement.move_unit(again, battle, s)  # and face any way they like
    assert s.facing == 225.0 and s.frame().centre == pytest.approx((centre[0] + 3, centre[1]))
    now = s.frame().centre
    assert [c for p in s.points for c in (p[0] - now[0], p[1] - now[1])] == pytest.approx(
        spread)


# --------------------------------------------------------------------------- prone


@pytest.mark.rule("W4-MOVE-22")
@pytest.mark.rule("W4-MOVE-23")
@pytest.mark.rule("W4-AMB-57")
@pytest.mark.rule("W4-DEC-14")
def test_a_prone_unit_crawls_at_half_speed_until_it_stands_as_a_minor_action() -> None:
    state = make_state([unit("a", at=(20, 10)), FAR_FOE])
    a = get(state, "a")
    a.prone = 2
    assert isinstance(judge(state, "a", "walk a 20,13"), Order)
    assert refused(state, "a", "walk a 20,13.5") == "W4-MOVE-05"
    battle = make_battle(state, orders={"A": ["stand a", "walk a 20,16"]})
    movement.move_unit(state, battle, a)
    assert a.prone == 0 and a.minor_used and a.front == (20.0, 16.0)
    assert events(battle, "stand_up")[0]["action"] == "minor"


@pytest.mark.rule("W4-AMB-57")
def test_an_engaged_prone_unit_stands_with_its_move_action() -> None:
    state = make_state([unit("a", at=(20, 10)), unit("b", "B", at=(20, 14), facing=180)])
    state.engage("a", "b")
    a = get(state, "a")
    a.prone = 1
    battle = make_battle(state, orders={"A": ["move a", "stand a"]})
    movement.remaining_step(state, battle, "A")
    assert a.prone == 0 and a.move_used and not a.minor_used
    assert a.front == (20.0, 10.0)


# --------------------------------------------------------------------------- terrain


@pytest.mark.rule("W4-MOVE-24")
@pytest.mark.rule("W4-MOVE-25")
@pytest.mark.rule("W4-AMB-58")
def test_speed_6_goes_3_inches_of_open_ground_then_1_and_a_half_into_difficult() -> None:
    bog = {"name": "Bog", "rect": [0, 13, 72, 20], "difficult": True}
    state = make_state([unit("a", at=(20, 10)), FAR_FOE], terrain=[bog])
    assert isinstance(judge(state, "a", "walk a 20,14.5"), Order)
    assert refused(state, "a", "walk a 20,14.6") == "W4-MOVE-24"
    offered = Mover(state, get(state, "a")).options()
    assert Order.of("walk", "a", "20.0,14.5") in offered
    inside = make_state([unit("a", at=(20, 20)), FAR_FOE], terrain=[bog])
    assert isinstance(judge(inside, "a", "walk a 20,23"), Order)
    assert refused(inside, "a", "walk a 20,23.1") == "W4-MOVE-24"


def test_a_move_may_not_cross_impassable_ground_or_leave_the_table() -> None:
    rock = {"name": "Rock", "rect": [21, 13, 3, 3], "impassable": True}
    state = make_state([unit("a", at=(20, 10)), FAR_FOE], terrain=[rock])
    assert isinstance(refused(state, "a", "walk a 20,15"), str)
    edge = make_state([unit("a", at=(3, 10)), FAR_FOE])
    assert refused(edge, "a", "walk a 0,13") == "W4-SETUP-02"


# --------------------------------------------------------------------------- other units


@pytest.mark.rule("W4-UNIT-11")
def test_a_move_may_not_touch_or_pass_through_another_unit() -> None:
    state = make_state([unit("a", at=(20, 10)), unit("c", at=(20, 14)), FAR_FOE])
    assert refused(state, "a", "walk a 20,12") == "W4-UNIT-11"  # touches c's rear edge
    assert isinstance(judge(state, "a", "walk a 20,11.5"), Order)
    between = make_state([unit("a", at=(20, 10)), unit("c", at=(20, 13)), FAR_FOE])
    # c stands on y 11..13; a would end on y 14..16, clear of it, but walk through it
    assert refused(between, "a", "walk a 20,16") == "W4-UNIT-11"


@pytest.mark.rule("W4-UNIT-12")
@pytest.mark.rule("W4-MEAS-04")
def test_no_move_ends_within_an_inch_of_an_enemy() -> None:
    state = make_state([unit("a", at=(20, 14)), unit("b", "B", at=(20, 20), facing=180)])
    assert refused(state, "a", "walk a 20,19") == "W4-UNIT-12"  # gap 1": within 1"
    assert isinstance(judge(state, "a", "walk a 20,18.9"), Order)
    towards = [o for o in Mover(state, get(state, "a")).options() if o.kind == "walk"]
    a = get(state, "a")
    for order in towards:
        plan = Mover(state, a).plan(order)
        assert isinstance(plan, Plan) and plan.frame is not None
        assert min(tray_gap(plan.frame, t) for t in get(state, "b").trays()) > 1.0


@pytest.mark.rule("W4-UNIT-11")
@pytest.mark.rule("W4-UNIT-12")
@pytest.mark.rule("W4-DEC-09")
def test_every_offered_move_is_legal_and_ends_clear_of_every_other_unit() -> None:
    units = [unit("a", at=(20, 10), companies=3, files=3),
             unit("c", at=(32, 13), companies=2, facing=270),
             unit("s", at=(8, 20), companies=5, profile=SKIRMISHERS),
             unit("b", "B", at=(24, 22), facing=200, companies=2),
             unit("d", "B", at=(40, 30), facing=180)]
    state = make_state(units, terrain=[{"name": "Wood", "rect": [10, 14, 6, 6],
                                        "difficult": True}])
    for uid in ("a", "c", "s"):
        mover = Mover(state, get(state, uid))
        options = mover.options()
        assert len(options) > 3
        for order in options:
            assert mover.judge(order) == order
            battle = make_battle(state)
            snapshot = (get(state, uid).front, get(state, uid).facing, get(state, uid).files,
                        list(get(state, uid).points))
            plan = mover.plan(order)
            assert isinstance(plan, Plan)
            movement.place(get(state, uid), plan)
            me = get(state, uid)
            for other in state.units.values():
                if other.id != uid:
                    gap = state.gap(me, other)
                    assert gap > (1.0 if other.side != me.side else 0.0), (order, other.id)
            me.front, me.facing, me.files, me.points = snapshot
            del battle


# --------------------------------------------------------------------------- fall back!


@pytest.mark.rule("W4-FLEE-01")
@pytest.mark.rule("W4-FLEE-02")
@pytest.mark.rule("W4-FLEE-04")
@pytest.mark.rule("W4-AMB-07")
def test_a_fall_back_covers_2d6_plus_twice_speed_minus_12_and_counts_as_running() -> None:
    state = make_state([unit("a", at=(36, 20), companies=2, files=2), FAR_FOE])
    a = get(state, "a")
    centre = a.frame().centre
    battle = make_battle(state, dice=[2, 5])
    movement.fall_back(state, battle, a, 180.0, "break")
    assert a.facing == 180.0 and a.fleeing and a.ran and a.fled_this_turn
    assert a.move_used and a.standard_used
    assert a.frame().centre == pytest.approx((centre[0], centre[1] - 7.0))
    e = events(battle, "fall_back")[0]
    assert (e["roll"], e["distance"], e["moved"]) == (7, 7.0, 7.0)


@pytest.mark.rule("W4-AMB-09")
def test_a_negative_fall_back_distance_is_zero() -> None:
    slow = profile("Dwarf", speed=3)
    state = make_state([unit("a", at=(36, 20), profile=slow), FAR_FOE])
    a = get(state, "a")
    centre = a.frame().centre
    battle = make_battle(state, dice=[1, 2])
    movement.fall_back(state, battle, a, 90.0, "panic")
    assert events(battle, "fall_back")[0]["distance"] == 0.0
    assert a.frame().centre == pytest.approx(centre) and a.facing == 90.0 and a.fleeing


@pytest.mark.rule("W4-FLEE-04")
@pytest.mark.rule("W4-FLEE-15")
def test_terrain_slows_a_fall_back() -> None:
    bog = {"name": "Bog", "rect": [0, 0, 72, 15], "difficult": True}
    state = make_state([unit("a", at=(36, 20), facing=180), FAR_FOE], terrain=[bog])
    a = get(state, "a")  # front edge on y = 20, rear on y = 22; heading south
    battle = make_battle(state, dice=[3, 4])  # 7"
    movement.fall_back(state, battle, a, 180.0, "break")
    # 5" of open ground to the bog, then 2" of movement buy 1"
    assert a.front == pytest.approx((36.0, 14.0))


@pytest.mark.rule("W4-FLEE-05")
@pytest.mark.rule("W4-AMB-90")
@pytest.mark.rule("W4-SETUP-02")
def test_a_compulsory_fall_back_heads_for_the_nearest_board_edge() -> None:
    state = make_state([unit("a", at=(10, 30), facing=90), FAR_FOE])
    a = get(state, "a")
    battle = make_battle(state, dice=[1, 1])
    movement.fall_back(state, battle, a, None, "fleeing")
    assert events(battle, "fall_back")[0]["heading"] == 270.0 and a.facing == 270.0


@pytest.mark.rule("W4-FLEE-06")
def test_a_unit_fleeing_over_the_board_edge_is_destroyed() -> None:
    state = make_state([unit("a", at=(5, 30), facing=90), FAR_FOE])
    battle = make_battle(state, dice=[4, 4])
    movement.fall_back(state, battle, get(state, "a"), None, "fleeing")
    assert get(state, "a").destroyed
    assert events(battle, "destroyed")[0]["why"] == "fled off the table"
    short = make_state([unit("a", at=(14, 30), facing=90), FAR_FOE])
    battle = make_battle(short, dice=[1, 1])  # 2": stays on the table
    movement.fall_back(short, battle, get(short, "a"), None, "fleeing")
    assert not get(short, "a").destroyed


@pytest.mark.rule("W4-FLEE-03")
@pytest.mark.rule("W4-FLEE-07")
def test_a_unit_fleeing_into_an_enemy_is_destroyed_but_may_flee_past_near_ones() -> None:
    state = make_state([unit("a", at=(30, 10)), unit("b", "B", at=(30, 20), facing=180),
                        unit("c", "B", at=(30, 4), facing=0)])
    state.engage("a", "c")
    battle = make_battle(state, dice=[6, 6])
    movement.fall_back(state, battle, get(state, "a"), 0.0, "break")
    assert get(state, "a").destroyed and not state.is_engaged("c")
    assert events(battle, "destroyed")[0]["why"] == "fled into the enemy"
    assert events(battle, "fall_back")[0]["moved"] == pytest.approx(10.0)  # 12" rolled
    near = make_state([unit("a", at=(30, 10)), unit("b", "B", at=(36, 7), facing=270)])
    battle = make_battle(near, dice=[2, 2])  # 4" north, an enemy 2" to the side
    movement.fall_back(near, battle, get(near, "a"), 0.0, "panic")
    assert not get(near, "a").destroyed and get(near, "a").front == (30.0, 14.0)


@pytest.mark.rule("W4-FLEE-08")
@pytest.mark.rule("W4-PANIC-05")
def test_allies_fled_through_test_or_fall_back_the_same_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("a", at=(30, 10)), unit("c", at=(30, 16)),
                        unit("d", at=(40, 16)), FAR_FOE])
    seen: list[tuple[str, str, int]] = []
    monkeypatch.setattr(psychology, "courage_test", courage([False], seen))
    battle = make_battle(state, dice=[6, 6, 1, 2])  # a: 12"; c: 3"
    movement.fall_back(state, battle, get(state, "a"), 0.0, "break")
    assert seen == [("c", "panic", 13)] and "c" in state.panic_tested
    assert get(state, "c").fleeing and get(state, "c").facing == 0.0
    assert [e["unit"] for e in events(battle, "fall_back")] == ["a", "c"]
    assert not get(state, "d").fleeing
    assert state.gap(get(state, "a"), get(state, "c")) > 0


@pytest.mark.rule("W4-FLEE-08")
@pytest.mark.rule("W4-UNIT-11")
def test_a_fleeing_unit_stops_an_inch_short_of_an_ally_it_would_end_on() -> None:
    state = make_state([unit("a", at=(30, 10)), unit("c", at=(30, 19)), FAR_FOE])
    battle = make_battle(state, dice=[3, 4])  # 7": would end on c, whose rear is at y = 17
    movement.fall_back(state, battle, get(state, "a"), 0.0, "break")
    assert get(state, "a").front == pytest.approx((30.0, 16.0))


@pytest.mark.rule("W4-AMB-10")
@pytest.mark.rule("W4-BREAK-03")
def test_away_from_several_causes_runs_from_the_centroid_of_their_closest_points() -> None:
    state = make_state([unit("a", at=(30, 20)), unit("b", "B", at=(26, 26), facing=180),
                        unit("c", "B", at=(36, 24), facing=270)])
    a = get(state, "a")  # block x 28..32, y 18..20, centre (30, 19)
    # b's closest point is its rear-left... computed: b spans x 24..28, y 26..28
    # c faces west: front edge x = 36, spans x 36..38, y 22..26
    heading = movement.away_from(state, a, [get(state, "b"), get(state, "c")])
    centroid = ((28 + 36) / 2, (26 + 22) / 2)
    from warhost.geometry.table import bearing
    assert heading == pytest.approx(bearing(centroid, (30.0, 19.0)))


@pytest.mark.rule("W4-MOVE-18")
@pytest.mark.rule("W4-DEC-13")
def test_a_unit_may_rearrange_its_files_while_moving_forward() -> None:
    state = make_state([unit("a", at=(30, 10), companies=4, files=4), FAR_FOE])
    battle = make_battle(state, orders={"A": ["walk a 30,14 2"]})
    movement.move_unit(state, battle, get(state, "a"))
    a = get(state, "a")
    assert (a.files, a.ranks, a.facing, a.front) == (2, 2, 0.0, (30.0, 14.0))
    assert events(battle, "move")[0]["cost"] == 4.0
    assert refused(make_state([unit("a", at=(30, 10), companies=4, files=4), FAR_FOE]),
                   "a", "walk a 30,14 5") == "W4-UNIT-09"


@pytest.mark.rule("W4-FLEE-06")
def test_a_fall_back_that_just_reaches_the_edge_stays_on_the_table() -> None:
    state = make_state([unit("a", at=(10, 12), facing=180), FAR_FOE])
    a = get(state, "a")  # front edge on y = 12, rear on y = 14: the south edge is 12" away
    battle = make_battle(state, dice=[6, 6])  # 12"
    movement.fall_back(state, battle, a, 180.0, "break")
    assert not a.destroyed and a.front == pytest.approx((10.0, 0.0))


@pytest.mark.rule("W4-SKIRM-01")
@pytest.mark.rule("W4-FLEE-04")
def test_skirmishers_fall_back_as_a_group() -> None:
    state = make_state([unit("s", at=(30, 20), companies=4, profile=SKIRMISHERS), FAR_FOE])
    s = get(state, "s")
    before = list(s.points)
    battle = make_battle(state, dice=[2, 3])  # 5"
    movement.fall_back(state, battle, s, 270.0, "panic")
    assert s.facing == 270.0
    assert s.points == [pytest.approx((x - 5.0, y)) for x, y in before]


@given(st.floats(12, 60), st.floats(8, 40), st.floats(0, 359), st.floats(12, 60),
       st.floats(8, 40), st.floats(0, 359))
@settings(max_examples=25, deadline=None)
@pytest.mark.rule("W4-UNIT-11")
@pytest.mark.rule("W4-UNIT-12")
def test_no_accepted_move_ends_on_or_near_the_units_it_was_checked_against(
        fx: float, fy: float, ff: float, ex: float, ey: float, ef: float) -> None:
    state = make_state([unit("a", at=(36, 20), companies=2, files=2),
                        unit("f", at=(fx, fy), facing=ff), unit("e", "B", at=(ex, ey),
                                                                 facing=ef)])
    a, f, e = get(state, "a"), get(state, "f"), get(state, "e")
    if state.gap(a, f) <= 0 or state.gap(a, e) <= 1 or state.gap(f, e) <= 0:
        return
    mover = Mover(state, a)
    for order in mover.options():
        plan = mover.plan(order)
        assert isinstance(plan, Plan)
        snapshot = (a.front, a.facing, a.files)
        movement.place(a, plan)
        assert state.gap(a, f) > 0 and state.gap(a, e) > 1.0, order.text
        a.front, a.facing, a.files = snapshot


@pytest.mark.rule("W4-FLEE-09")
@pytest.mark.rule("W4-FLEE-11")
def test_a_fled_unit_keeps_fleeing_next_turn_until_it_rallies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([unit("f", at=(36, 24)), FAR_FOE])
    f = get(state, "f")
    movement.fall_back(state, make_battle(state, dice=[1, 1]), f, 0.0, "break")
    f.new_turn()
    assert f.fleeing and not f.move_used
    seen: list[tuple[str, str, int]] = []
    monkeypatch.setattr(psychology, "courage_test", courage([False, True], seen))
    battle = make_battle(state, dice=[1, 1])
    movement.rally_step(state, battle, "A")
    assert f.fleeing and seen == [("f", "rally", 13)]
    f.new_turn()
    movement.rally_step(state, make_battle(state), "A")
    assert not f.fleeing and f.rallied


@pytest.mark.rule("W4-FLEE-08")
@pytest.mark.rule("W4-PANIC-06")
def test_allies_test_in_the_order_they_are_fled_through_once_a_phase(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fast = profile("Rider", speed=8)
    state = make_state([unit("far", at=(30, 17)), unit("a", at=(30, 10), profile=fast),
                        unit("near", at=(30, 13)), unit("done", at=(30, 21)), FAR_FOE])
    state.panic_tested.add("done")  # it already took its panic test this phase
    seen: list[tuple[str, str, int]] = []
    monkeypatch.setattr(psychology, "courage_test", courage([True, True], seen))
    battle = make_battle(state, dice=[6, 6])  # 12 + 16 - 12 = 16": ends on y 24..26
    movement.fall_back(state, battle, get(state, "a"), 0.0, "break")
    assert [e["target"] for e in events(battle, "fled_through")] == ["near", "far", "done"]
    assert seen == [("near", "panic", 13), ("far", "panic", 13)]


@pytest.mark.rule("W4-UNIT-12")
def test_a_unit_already_within_an_inch_of_an_enemy_may_move_but_not_closer() -> None:
    state = make_state([unit("a", at=(20, 10)), unit("e", "B", at=(24.5, 9))])
    assert state.gap(get(state, "a"), get(state, "e")) == pytest.approx(0.5)
    assert isinstance(judge(state, "a", "walk a 20,13"), Order)  # away
    assert isinstance(judge(state, "a", "walk a 20,10.2"), Order)  # alongside, no closer
    assert refused(state, "a", "walk a 20.4,10.4") == "W4-UNIT-12"  # closer


@pytest.mark.rule("W4-MOVE-19")
@pytest.mark.rule("W4-AMB-92")
def test_a_double_move_may_wheel_within_twice_speed() -> None:
    state = make_state([unit("a", at=(30, 10)), FAR_FOE])  # one company, 4" wide
    assert refused(state, "a", "wheel a right 90") == "W4-MOVE-11"  # 6.28 > 6
    battle = make_battle(state, orders={"A": ["wheel a right 90 then 37,12 double"]})
    movement.move_unit(state, battle, get(state, "a"))
    a = get(state, "a")
    assert a.facing == 90.0 and a.front == pytest.approx((37.0, 12.0))
    assert a.double_moved and a.standard_used
    assert events(battle, "move")[0]["cost"] == pytest.approx(2 * math.pi + 5, abs=1e-3)
    near = make_state([unit("a", at=(30, 10)), unit("e", "B", at=(30, 15), facing=180)])
    assert refused(near, "a", "wheel a right 30 double") == "W4-MOVE-20"
    assert refused(near, "a", "pivot a 90 double") == "W4-MOVE-15"
