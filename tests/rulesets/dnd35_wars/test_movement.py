"""Unit move actions of dnd35-wars: Move with banked points and terrain costs, Disengage,
Regroup, Split Up, Pass Through and a routed unit's flight."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.battle_watch import events, record
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    single,
    unit,
    who,
)
from warhost.core.battle import Battle
from warhost.core.decisions import Refusal
from warhost.core.metering import OPTIONS, metered
from warhost.core.orders import Order
from warhost.geometry.grid import formation_ok
from warhost.rulesets.dnd35_wars import actions, combat, morale, movement, tables
from warhost.rulesets.dnd35_wars.state import FLED, MERGED, ROUTED, Unit, WarState


def troop(uid: str, side: str = "A", squares: list[tuple[int, int]] | None = None,
          scale: int = 15, speed: int = 30, **fields: Any) -> dict[str, Any]:
    """A unit of Medium humans filling every listed square at ``scale``."""
    squares = squares or [(5, 5)]
    per = tables.capacity("medium", scale)
    return unit(uid, side, squares, count=per * len(squares),
                creature=fields.pop("creature", None) or creature(speed=speed), **fields)


def act(state: WarState, battle: Battle, uid: str) -> None:
    """The unit's unit action (step 4 of its turn)."""
    actions.unit_action(state, battle, get(state, uid))


def judge(state: WarState, uid: str, text: str) -> Order | Refusal:
    return movement.judge_move(state, get(state, uid), Order.parse(text))


def texts(orders: list[Order]) -> set[str]:
    return {str(o) for o in orders}


# ---------------------------------------------------------------------------- plain moves


@pytest.mark.rule("W35-UMOVE-02", "W35-UMOVE-03", "W35-STAT-11", "W35-STAT-12")
def test_the_whole_formation_shifts_and_a_diagonal_step_costs_like_a_straight_one() -> None:
    state = make_state([troop("a", squares=block(5, 5, 3, 2)),
                        troop("b", "B", squares=[(30, 25)])])
    a = get(state, "a")
    assert a.rate == 4  # speed 30 ft at 15 ft (W35-STAT-12)
    options = texts(movement.move_options(state, a))
    assert {"move a 4,4", "move a 0,4", "move a -4,-4", "move a 1,2"} <= options
    assert "move a 5,5" not in options and "move a 5,0" not in options
    battle = make_battle(state, orders={"A": ["move a 4,4"]})
    act(state, battle, "a")
    assert a.squares == set(block(9, 9, 3, 2))
    assert events(battle, "move")[0]["by"] == [4, 4]
    assert a.heading == (1, 1)


@pytest.mark.rule("W35-UMOVE-02", "W35-PLACE-06")
def test_moves_too_far_off_the_map_or_through_others_are_refused() -> None:
    state = make_state([troop("a", squares=[(1, 1)]), troop("b", "B", squares=[(1, 3)]),
                        troop("c", squares=[(20, 20)])])
    too_far = judge(state, "a", "move a 5,0")
    off_map = judge(state, "a", "move a -2,0")
    through = judge(state, "a", "move a 0,3")
    assert isinstance(too_far, Refusal) and too_far.rule == "W35-UMOVE-02"
    assert isinstance(off_map, Refusal) and off_map.rule == "W35-UMOVE-02"
    assert isinstance(through, Refusal) and through.rule == "W35-PLACE-06"
    assert judge(state, "a", "move a 3,1") == Order.parse("move a 3,1")


@pytest.mark.rule("W35-UMOVE-04", "W35-UMOVE-01")
def test_a_unit_may_stay_where_it_is() -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=[(20, 20)])])
    battle = make_battle(state, orders={"A": ["hold"]})
    act(state, battle, "a")
    assert get(state, "a").squares == {(5, 5)} and len(events(battle, "hold")) == 1
    refusal = judge(state, "a", "move a 0,0")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-UMOVE-04"


def _rounds_to_enter(state: WarState, order: str, rounds: int) -> list[bool]:
    """For each round, whether the unit ``a`` has left (5, 5) after its move action."""
    out = []
    for r in range(1, rounds + 1):
        state.round = r
        battle = make_battle(state, orders={"A": [order]})
        act(state, battle, "a")
        out.append(get(state, "a").squares != {(5, 5)})
        if out[-1]:
            break
    return out


@pytest.mark.rule("W35-STAT-13", "W35-AMB-12", "W35-TERR-15")
@pytest.mark.parametrize(("scale", "speed", "rounds"), [(100, 20, 2), (100, 15, 3), (200, 15, 4)])
def test_a_fractional_rate_enters_a_square_every_nth_consecutive_move_round(
        scale: int, speed: int, rounds: int) -> None:
    state = make_state([troop("a", squares=[(5, 5)], scale=scale, speed=speed),
                        troop("b", "B", squares=[(20, 20)], scale=scale)], scale=scale)
    assert get(state, "a").rate == Fraction(1, rounds)
    entered = _rounds_to_enter(state, "move a 0,1", rounds)
    assert entered == [False] * (rounds - 1) + [True]
    assert get(state, "a").squares == {(5, 6)} and get(state, "a").bank == 0


@pytest.mark.rule("W35-AMB-12")
def test_the_bank_is_lost_on_a_change_of_direction_or_another_action() -> None:
    state = make_state([troop("a", squares=[(5, 5)], scale=100, speed=20),
                        troop("b", "B", squares=[(20, 20)], scale=100)], scale=100)
    a = get(state, "a")
    assert _rounds_to_enter(state, "move a 0,1", 1) == [False]
    assert (a.bank, a.bank_step) == (Fraction(1, 2), (0, 1))
    state.round = 2
    act(state, make_battle(state, orders={"A": ["move a 1,0"]}), "a")  # new direction
    assert a.squares == {(5, 5)} and (a.bank, a.bank_step) == (Fraction(1, 2), (1, 0))
    state.round = 3
    act(state, make_battle(state, orders={"A": ["hold"]}), "a")
    state.round = 4  # the bank of round 2 does not reach past the hold of round 3
    act(state, make_battle(state, orders={"A": ["move a 1,0"]}), "a")
    assert a.squares == {(5, 5)} and a.bank == Fraction(1, 2)


@pytest.mark.rule("W35-AMB-12", "W35-TERR-15", "W35-TERR-14")
def test_rate_2_into_a_castle_enters_on_the_third_round_with_1_point_left() -> None:
    castle = [{"rect": [[5, 6], [5, 7]], "kind": "castle"}]
    state = make_state([troop("a", squares=[(5, 5)], scale=50),
                        troop("b", "B", squares=[(20, 20)], scale=50)], scale=50, terrain=castle)
    a = get(state, "a")
    assert a.rate == 2
    assert _rounds_to_enter(state, "move a 0,1", 3) == [False, False, True]
    assert a.squares == {(5, 6)}
    assert (a.bank, a.bank_step) == (Fraction(1), (0, 1))  # banked toward the next castle square


@pytest.mark.rule("W35-DEFEND-10", "W35-AMB-67")
def test_a_phalanx_halves_the_move_rate() -> None:
    state = make_state([troop("a", squares=block(5, 5, 3, 1)),
                        troop("b", "B", squares=[(30, 25)])])
    a = get(state, "a")
    a.phalanx = True
    assert movement.move_points(a) == 2
    options = texts(movement.move_options(state, a))
    assert "move a 0,2" in options and "move a 0,3" not in options


@pytest.mark.rule("W35-UMOVE-02")
def test_move_options_are_a_small_finite_set() -> None:
    state = make_state([troop("a", squares=block(5, 5, 4, 3), speed=40),
                        troop("b", "B", squares=[(30, 25)])])
    with metered() as meter:
        options = movement.move_options(state, get(state, "a"))
    moves = [o for o in options if o.kind == "move"]
    assert len(moves) == 8 * 5 + 8  # 8 lines of rate 5, and the knight offsets
    assert meter[OPTIONS] == len(options) < 100


# ---------------------------------------------------------------------------- terrain costs


def _cost(state: WarState, uid: str, dx: int, dy: int) -> Fraction:
    u = get(state, uid)
    return movement.step_cost(state, u, {(x + dx, y + dy) for x, y in u.squares}, u.squares)


@pytest.mark.rule("W35-TERR-14", "W35-TERR-04", "W35-TERR-07")
@pytest.mark.parametrize(("kind", "cost"), [
    ("clear", 1), ("difficult", 2), ("light_forest", 2), ("heavy_forest", 3), ("jungle", 3),
    ("ruins", 3), ("rocky", 3), ("building", 4), ("castle", 5), ("swamp", 4), ("sand", 2),
    ("desert", 2)])
def test_each_terrain_costs_its_table_value(kind: str, cost: int) -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=[(20, 20)])],
                       terrain=[{"rect": [[5, 6], [5, 6]], "kind": kind}])
    assert _cost(state, "a", 0, 1) == cost


@pytest.mark.rule("W35-TERR-03", "W35-AMB-43")
def test_a_unit_pays_the_worst_square_its_counters_stand_on_after_the_step() -> None:
    state = make_state([troop("a", squares=block(5, 5, 3, 1)),
                        troop("b", "B", squares=[(20, 20)])],
                       terrain=[{"rect": [[7, 6], [7, 6]], "kind": "heavy_forest"},
                                {"rect": [[5, 6], [5, 6]], "kind": "light_forest"}])
    assert _cost(state, "a", 0, 1) == 3
    assert _cost(state, "a", 0, -1) == 1


@pytest.mark.rule("W35-TERR-06", "W35-AMB-43")
def test_flyers_and_incorporeal_units_pay_1_everywhere() -> None:
    swamp = [{"rect": [[0, 0], [39, 29]], "kind": "swamp", "water": True}]
    state = make_state([troop("a", squares=[(5, 5)], flying=True),
                        troop("g", squares=[(9, 5)],
                              creature=creature("ghost", incorporeal=True)),
                        troop("w", squares=[(12, 5)]),
                        troop("b", "B", squares=[(20, 20)])], terrain=swamp)
    assert _cost(state, "a", 0, 1) == _cost(state, "g", 0, 1) == 1
    assert _cost(state, "w", 0, 1) == 8  # swamp 4, doubled in water


@pytest.mark.rule("W35-TERR-12", "W35-AMB-44")
def test_water_doubles_the_cost_for_movers_not_native_to_it() -> None:
    river = [{"rect": [[5, 6], [12, 6]], "water": True}]
    state = make_state([troop("a", squares=[(5, 5)]),
                        troop("f", squares=[(9, 5)], creature=creature("merfolk",
                                                                        water_native=True)),
                        troop("b", "B", squares=[(20, 20)])], terrain=river)
    assert _cost(state, "a", 0, 1) == 2
    assert _cost(state, "f", 0, 1) == 1


@pytest.mark.rule("W35-TERR-14", "W35-AMB-43")
def test_downhill_costs_two_thirds_only_when_every_counter_steps_down() -> None:
    hill = [{"rect": [[5, 5], [9, 5]], "elevation": 2}, {"rect": [[5, 6], [9, 6]], "elevation": 1}]
    state = make_state([troop("a", squares=block(5, 5, 2, 1)),
                        troop("c", squares=block(9, 5, 2, 1)),
                        troop("b", "B", squares=[(20, 20)])], terrain=hill)
    assert _cost(state, "a", 0, 1) == Fraction(2, 3)
    assert _cost(state, "c", 0, 1) == 1  # (10, 5) is level ground: not every counter descends


@pytest.mark.rule("W35-TERR-14", "W35-AMB-43")
def test_climbing_costs_the_scenarios_grade_for_the_higher_square() -> None:
    slope = [{"rect": [[5, 6], [9, 6]], "elevation": 1, "slope_cost": 3}]
    state = make_state([troop("a", squares=block(5, 5, 2, 1)),
                        troop("b", "B", squares=[(20, 20)])], terrain=slope)
    assert _cost(state, "a", 0, 1) == 3
    assert _cost(state, "a", 0, -1) == 1


@pytest.mark.rule("W35-TERR-16", "W35-AMB-43")
def test_a_singular_creature_pays_the_square_it_enters() -> None:
    state = make_state([troop("b", "B", squares=[(20, 20)])],
                       terrain=[{"rect": [[5, 6], [5, 6]], "kind": "building"}],
                       singles=[single("ogre", "A", "monster", at=(5, 5))])
    ogre = who(state, "ogre")
    assert movement.single_step_cost(state, ogre, (5, 5), (5, 6)) == 4
    assert movement.single_step_cost(state, ogre, (5, 5), (6, 5)) == 1


# ------------------------------------------------------------------- contact and disengaging


@pytest.mark.rule("W35-UATK-05", "W35-AMB-37")
def test_moving_next_to_an_enemy_is_a_plain_move_and_the_enemy_is_only_approached() -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=[(5, 8)])])
    battle = make_battle(state, orders={"A": ["move a 0,2"]})
    act(state, battle, "a")
    assert get(state, "a").squares == {(5, 7)}
    assert events(battle, "attack") == [] and state.foes_engaged("a") == set()
    assert get(state, "b").approached_by == {"a"}


@pytest.mark.rule("W35-UATK-06", "W35-AMB-37", "W35-UMOVE-07")
def test_an_approached_unit_moves_away_without_disengaging(
        monkeypatch: pytest.MonkeyPatch) -> None:
    struck: list[str] = []
    monkeypatch.setattr(combat, "free_attack",
                        lambda state, battle, attacker, leaver: struck.append(attacker.id),
                        raising=False)
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=[(5, 6)])])
    get(state, "a").approached_by.add("b")
    assert "move a 0,-2" in texts(movement.move_options(state, get(state, "a")))
    battle = make_battle(state, orders={"A": ["move a 0,-2"]})
    act(state, battle, "a")
    assert get(state, "a").squares == {(5, 3)} and events(battle, "disengage") == []
    assert struck == []  # leaving mere contact draws no attack of opportunity
    assert get(state, "a").approached_by == set()


@pytest.mark.rule("W35-AMB-37", "W35-UMOVE-05")
def test_an_engaged_unit_moves_away_only_by_disengaging() -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=[(5, 6)])])
    state.engage("a", "b")
    options = movement.move_options(state, get(state, "a"))
    assert options and {o.kind for o in options} == {"disengage"}
    refusal = judge(state, "a", "move a 0,-2")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-AMB-37"
    corner = judge(state, "a", "disengage a 1,0")  # (6, 5) only meets (5, 6) at a corner
    assert corner == Order.parse("disengage a 1,0")
    touching = judge(state, "a", "disengage a 0,0")
    assert isinstance(touching, Refusal)


@pytest.mark.rule("W35-UMOVE-05", "W35-UMOVE-06", "W35-AMB-82")
def test_disengaging_gives_each_engaged_fighting_foe_one_free_attack_before_moving(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=[(5, 6)]),
                        troop("c", "B", squares=[(6, 5)]), troop("d", "B", squares=[(4, 5)])])
    for foe in ("b", "c", "d"):
        state.engage("a", foe)
    get(state, "d").status = ROUTED  # a routed foe never strikes
    seen: list[tuple[str, str, set[tuple[int, int]]]] = []

    def free_attack(state: WarState, battle: Battle, attacker: Unit, leaver: Unit) -> None:
        seen.append((attacker.id, leaver.id, set(leaver.squares)))
    monkeypatch.setattr(combat, "free_attack", free_attack, raising=False)
    battle = make_battle(state, orders={"A": ["disengage a 0,-3"]})
    act(state, battle, "a")
    assert seen == [("b", "a", {(5, 5)}), ("c", "a", {(5, 5)})]
    assert get(state, "a").squares == {(5, 2)}
    assert state.foes_engaged("a") == set()
    refused = judge(state, "a", "disengage a 0,-1")
    assert isinstance(refused, Refusal) and refused.rule == "W35-UMOVE-05"  # not engaged now


@pytest.mark.rule("W35-UMOVE-05")
def test_a_disengage_may_not_end_in_side_contact_with_the_foe() -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("b", "B", squares=block(4, 6, 3, 1))])
    state.engage("a", "b")
    refusal = judge(state, "a", "disengage a 1,0")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-UMOVE-05"
    options = texts(movement.move_options(state, get(state, "a")))
    assert "disengage a 1,0" not in options and "disengage a 0,-1" in options


@pytest.mark.rule("W35-AMB-37")
def test_engagements_end_when_no_counter_shares_a_side_any_more() -> None:
    state = make_state([troop("a", squares=block(5, 5, 2, 1)),
                        troop("b", "B", squares=[(6, 6)])])
    state.engage("a", "b")
    state.place(get(state, "b"), {(7, 7)})
    movement.update_contacts(state, get(state, "b"))
    assert state.foes_engaged("a") == set()


# ------------------------------------------------------------------------------- regrouping


def _depleted_pair(**extra: Any) -> WarState:
    state = make_state([troop("a", squares=block(5, 5, 3, 1)),
                        troop("p", squares=block(5, 8, 2, 1), **extra),
                        troop("b", "B", squares=[(30, 25)])],
                       singles=[single("sarge", "A", "npc", unit="p")])
    a, p = get(state, "a"), get(state, "p")
    a.hp = 25  # 3 counters of 10
    p.counter_hp, p.start_hp, p.hp = 13, 26, 20  # 2 counters of 13
    p.per_counter = Fraction(8)
    return state


@pytest.mark.rule("W35-UMOVE-08", "W35-UMOVE-09", "W35-UMOVE-10", "W35-UMOVE-11",
                  "W35-UMOVE-12", "W35-AMB-61")
def test_regroup_pools_hp_and_averages_counter_hp_into_the_movers_slot() -> None:
    state = _depleted_pair()
    state.order = ["a", "b", "p"]
    assert "regroup a p 0,2" in texts(movement.move_options(state, get(state, "a")))
    battle = make_battle(state, orders={"A": ["regroup a p 0,2"]})
    act(state, battle, "a")
    a, p = get(state, "a"), get(state, "p")
    assert (a.hp, a.counter_hp, a.counters) == (45, 11, 5)  # (3x10 + 2x13) // 5 = 11
    assert a.start_hp == 55 and p.status == MERGED and not p.on_map
    assert a.per_counter == 10  # the unit with more counters sets creatures per counter
    assert formation_ok(a.squares) and all(state.at[sq] == "a" for sq in a.squares)
    assert state.order == ["a", "b"]  # the partner's slot is gone
    assert "sarge" in a.singles and who(state, "sarge").host == "a"
    assert a.squares >= set(block(5, 7, 3, 1)) | set(block(5, 8, 2, 1))
    assert events(battle, "regroup")[0]["counters"] == 5


@pytest.mark.rule("W35-AMB-61", "W35-UMOVE-08")
def test_regroup_needs_the_same_creature_type_size_and_speed_and_depleted_units() -> None:
    state = _depleted_pair(speed=20)
    refusal = judge(state, "a", "regroup a p 0,2")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-AMB-61"
    state = _depleted_pair()
    get(state, "p").hp = 26
    refusal = judge(state, "a", "regroup a p 0,2")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-UMOVE-08"
    state = _depleted_pair()
    refusal = judge(state, "a", "regroup a p 0,1")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-AMB-61"  # not in side contact


# ------------------------------------------------------------------------------- splitting


@pytest.mark.rule("W35-UMOVE-13", "W35-UMOVE-14", "W35-UMOVE-15", "W35-UMOVE-16", "W35-AMB-62")
def test_split_up_makes_a_new_unit_acting_at_initiative_minus_1() -> None:
    state = make_state([troop("a", squares=block(5, 5, 3, 2)),
                        troop("b", "B", squares=[(30, 25)])],
                       singles=[single("cap", "A", "pc", unit="a"),
                                single("sgt", "A", "npc", unit="a")])
    state.initiative = {"a": 15, "b": 14}
    a = get(state, "a")
    a.hp = 55
    a.used_triggers.add("first_damage")
    battle = make_battle(state, orders={"A": ["split a 5,5;6,5;7,5 0,-2", "join sgt a",
                                             "join cap a-2"]})
    act(state, battle, "a")
    new = get(state, "a-2")
    assert new.squares == set(block(5, 3, 3, 1)) and a.squares == set(block(5, 6, 3, 1))
    assert (new.hp, new.start_hp) == (30, 30)
    assert (a.hp, a.start_hp) == (25, 30)  # keeps the partial damage
    assert state.order == ["a", "b", "a-2"] and state.initiative["a-2"] == 14
    assert new.singles == ["cap"] and a.singles == ["sgt"] and who(state, "cap").host == "a-2"
    assert new.used_triggers == {"first_damage"} and new.used_triggers is not a.used_triggers


@pytest.mark.rule("W35-UMOVE-16", "W35-PLACE-14", "W35-AMB-63")
def test_an_npc_may_join_the_new_unit_only_if_it_keeps_more_counters_than_npcs() -> None:
    state = make_state([troop("a", squares=block(5, 5, 3, 1)),
                        troop("b", "B", squares=[(30, 25)])],
                       singles=[single("sgt", "A", "npc", unit="a"),
                                single("cap", "A", "pc", unit="a")])
    state.initiative = {"a": 15, "b": 14}
    battle = make_battle(state, orders={"A": ["split a 5,5 0,-1", "join cap a-2"]})
    seen = record(battle)
    act(state, battle, "a")
    offered = {d.subject: {str(o) for o in d.options} for d in seen if d.kind == "split_join"}
    assert offered == {"cap": {"join cap a", "join cap a-2"}}  # the NPC had no choice to make
    assert get(state, "a-2").singles == ["cap"] and get(state, "a").singles == ["sgt"]


@pytest.mark.rule("W35-UMOVE-17")
def test_a_unit_splits_at_most_once_a_round() -> None:
    state = make_state([troop("a", squares=block(5, 5, 4, 1)),
                        troop("b", "B", squares=[(30, 25)])])
    state.initiative = {"a": 15, "b": 14}
    act(state, make_battle(state, orders={"A": ["split a 5,5 0,-1"]}), "a")
    refusal = judge(state, "a", "split a 6,5 0,-1")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-UMOVE-17"
    assert not [o for o in movement.move_options(state, get(state, "a")) if o.kind == "split"]
    state.round = 2
    assert judge(state, "a", "split a 6,5 0,-1") == Order.parse("split a 6,5 0,-1")


@pytest.mark.rule("W35-AMB-62")
def test_both_groups_of_a_split_must_stay_connected() -> None:
    state = make_state([troop("a", squares=block(5, 5, 3, 1)),
                        troop("b", "B", squares=[(30, 25)])])
    refusal = judge(state, "a", "split a 6,5 0,-1")
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-AMB-62"


# ---------------------------------------------------------------------------- passing through


@pytest.mark.rule("W35-UMOVE-18")
def test_a_unit_passes_through_an_ally_to_free_squares() -> None:
    state = make_state([troop("a", squares=[(5, 5)]), troop("c", squares=block(4, 6, 3, 2)),
                        troop("b", "B", squares=[(30, 25)])])
    options = texts(movement.move_options(state, get(state, "a")))
    assert "pass a 0,3" in options and "move a 0,3" not in options
    battle = make_battle(state, orders={"A": ["pass a 0,3"]})
    act(state, battle, "a")
    assert get(state, "a").squares == {(5, 8)} and state.at[(5, 6)] == "c"


@pytest.mark.rule("W35-UMOVE-19")
def test_a_pass_ending_inside_the_ally_leaves_both_stuck_until_it_is_out() -> None:
    state = make_state([troop("a", squares=[(5, 5)], scale=50, speed=20),  # rate 1
                        troop("c", squares=block(4, 6, 3, 2), scale=50),
                        troop("b", "B", squares=[(30, 25)], scale=50)], scale=50)
    a, c = get(state, "a"), get(state, "c")
    assert "pass a 0,1" not in texts(movement.move_options(state, a))  # only when ordered
    order = movement.judge_move(state, a, Order.parse("pass a 0,1"))
    assert isinstance(order, Order)
    battle = make_battle(state)
    movement.take_move(state, battle, a, order)
    assert a.squares == {(5, 6)} and a.stuck_in == "c"
    assert movement.still_stuck(state, c) and not movement.still_stuck(state, a)
    battle = make_battle(state)
    act(state, battle, "c")
    assert events(battle, "stuck") and c.squares == set(block(4, 6, 3, 2))
    state.round = 2
    assert {o.kind for o in actions.legal_actions(state, a)} == {"hold", "pass"}
    act(state, make_battle(state, orders={"A": ["pass a 0,1"]}), "a")
    assert a.squares == {(5, 7)} and movement.still_stuck(state, c)
    state.round = 3
    act(state, make_battle(state, orders={"A": ["pass a 0,1"]}), "a")
    assert a.squares == {(5, 8)}
    assert not movement.still_stuck(state, c) and c.stuck_in is None and a.stuck_in is None


# ------------------------------------------------------------------------------------ flight


@pytest.mark.rule("W35-MORALE-07", "W35-AMB-65")
def test_a_routed_unit_runs_at_full_rate_for_its_home_edge_and_flees_over_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gone: list[tuple[str, str]] = []
    monkeypatch.setattr(morale, "unit_gone",
                        lambda state, battle, unit, how: gone.append((unit.id, how)),
                        raising=False)
    state = make_state([troop("a", squares=block(10, 6, 2, 1)),
                        troop("b", "B", squares=[(10, 25)])])
    a = get(state, "a")
    a.status = ROUTED
    battle = make_battle(state)
    act(state, battle, "a")
    assert state.home_edge["A"] == "south"  # nearest its deployment
    assert a.squares == set(block(10, 2, 2, 1))
    act(state, battle, "a")
    assert a.status == FLED and not a.on_map and state.at.get((10, 0)) is None
    assert [e["unit"] for e in events(battle, "fled")] == ["a"]
    assert gone == [("a", "fled")]


@pytest.mark.rule("W35-MORALE-07", "W35-AMB-65", "W35-AMB-82")
def test_an_engaged_routed_unit_disengages_first(monkeypatch: pytest.MonkeyPatch) -> None:
    hits: list[str] = []
    monkeypatch.setattr(combat, "free_attack",
                        lambda state, battle, attacker, leaver: hits.append(attacker.id),
                        raising=False)
    state = make_state([troop("a", squares=[(10, 10)]), troop("b", "B", squares=[(10, 11)])])
    state.home_edge["A"] = "south"
    state.engage("a", "b")
    a = get(state, "a")
    a.status = ROUTED
    battle = make_battle(state)
    act(state, battle, "a")
    assert hits == ["b"] and a.squares == {(10, 6)} and state.foes_engaged("a") == set()


@pytest.mark.rule("W35-UMOVE-06", "W35-AMB-82")
def test_the_free_attack_strikes_at_plus_2_before_the_unit_leaves() -> None:
    state = make_state([troop("a", squares=block(5, 5, 2, 1)),
                        troop("b", "B", squares=block(5, 6, 2, 1))])
    state.engage("a", "b")
    battle = make_battle(state, dice=[9, 4], orders={"A": ["disengage a 0,-3"]})
    act(state, battle, "a")
    attack = events(battle, "attack")[0]
    assert (attack["unit"], attack["target"], attack["total"]) == ("b", "a", 9 + 4 + 2)
    assert get(state, "a").hp == 20 - 6 * 2  # 1d8+2 = 6, times 2 counters in contact
    assert len(get(state, "a").squares) == 1  # 8 HP fill one counter; it still gets away
    assert get(state, "a").squares < set(block(5, 2, 2, 1)) and state.foes_engaged("a") == set()
