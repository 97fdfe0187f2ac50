"""Rounds, turns, phases, squads, reinforcements and victory (game loop of fantasy-battle)."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.commanders import Commander
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.rulesets.fantasy_battle import feats, game
from warhost.rulesets.fantasy_battle.state import DEFEATED, IN_POOL, ON_MAP

from .helpers import events, make_battle, make_state

rule = pytest.mark.rule


class Recorder(Commander):
    """Takes the default (or first) option and remembers every decision it was asked."""

    kind = "recorder"

    def __init__(self, script: dict[str, list[str]] | None = None) -> None:
        self.asked: list[Decision] = []
        self.script = {k: list(v) for k, v in (script or {}).items()}

    def choose(self, decision: Decision, state: Any) -> Order:
        self.asked.append(decision)
        queue = self.script.get(decision.kind)
        if queue:
            return Order.parse(queue.pop(0))
        return decision.default if decision.default is not None else decision.options[0]


def with_recorders(battle: Any, scripts: dict[str, dict[str, list[str]]] | None = None) -> dict[str, Recorder]:
    recorders = {side: Recorder((scripts or {}).get(side)) for side in battle.commanders}
    for side, rec in recorders.items():
        rec.bind(side, None)  # type: ignore[arg-type]
    battle.commanders = recorders
    return recorders


def activations(battle: Any) -> list[tuple[str, str]]:
    out = []
    for e in battle.log.events:
        if e["type"] == "activate":
            out.append((e["side"], e["group"]))
        elif e["type"] == "pass":
            out.append((e["side"], "pass"))
    return out


@rule("FB-ROUND-01")
@rule("FB-ROUND-05")
@rule("FB-AMB-10")
def test_turns_alternate_and_smaller_side_passes_to_make_up_the_difference() -> None:
    """Two activations against one: T = 2, turns A, B, A, B and B's last turn is a pass."""
    state = make_state(units=[
        dict(id="a1", side="A", rank="elite", at=(1, 1)),
        dict(id="a2", side="A", rank="elite", at=(3, 1)),
        dict(id="b1", side="B", rank="elite", at=(1, 10)),
    ])
    battle = make_battle(state)
    with_recorders(battle)
    game.play_round(state, battle)
    assert activations(battle) == [("A", "a1"), ("B", "b1"), ("A", "a2"), ("B", "pass")]
    assert events(battle, "round_start")[0]["turns"] == 2


@rule("FB-ROUND-06")
@rule("FB-AMB-10")
def test_pass_is_offered_only_while_turns_outnumber_units() -> None:
    state = make_state(units=[
        dict(id="a1", side="A", rank="elite", at=(1, 1)),
        dict(id="a2", side="A", rank="elite", at=(3, 1)),
        dict(id="b1", side="B", rank="elite", at=(1, 10)),
    ])
    battle = make_battle(state)
    rec = with_recorders(battle)
    game.play_round(state, battle)
    b_turns = [d for d in rec["B"].asked if d.kind == "activate"]
    # B's first turn: 2 turns left, 1 unit ready -> activate or pass (its second turn has only
    # the pass and is answered without asking).
    assert set(map(str, b_turns[0].options)) == {"activate b1", "pass"}
    a_turns = [d for d in rec["A"].asked if d.kind == "activate"]
    assert all(Order("pass") not in d.options for d in a_turns)


@rule("FB-ROUND-02")
@rule("FB-START-04")
@rule("FB-START-03")
def test_first_player_takes_the_first_turn_of_every_round() -> None:
    state = make_state(units=[
        dict(id="a1", side="A", rank="elite", at=(1, 1)),
        dict(id="b1", side="B", rank="elite", at=(1, 10)),
    ], max_rounds=3)
    state.first_player = "B"
    battle = make_battle(state)
    with_recorders(battle)
    game.play(state, battle)
    seq = [(e["type"], e.get("side")) for e in battle.log.events
           if e["type"] in ("round_start", "activate")]
    firsts = [seq[i + 1][1] for i, item in enumerate(seq) if item[0] == "round_start"]
    assert firsts == ["B", "B", "B"]


@rule("FB-ROUND-03")
@rule("FB-ROUND-04")
def test_each_unit_or_squad_activates_once_per_round_and_only_own_units_are_offered() -> None:
    state = make_state(units=[
        dict(id="a1", side="A", rank="elite", at=(1, 1)),
        dict(id="a2", side="A", rank="elite", at=(3, 1)),
        dict(id="b1", side="B", rank="elite", at=(1, 10)),
        dict(id="b2", side="B", rank="elite", at=(3, 10)),
    ])
    battle = make_battle(state)
    rec = with_recorders(battle)
    game.play_round(state, battle)
    acts = activations(battle)
    assert sorted(acts) == [("A", "a1"), ("A", "a2"), ("B", "b1"), ("B", "b2")]
    for side, r in rec.items():
        for d in r.asked:
            if d.kind == "activate":
                assert all(state.units[str(o.args[0])].side == side for o in d.options
                           if o.kind == "activate")
    # the second A turn offers only the unit not yet activated
    second = [d for d in rec["A"].asked if d.kind == "activate"]
    assert len(second) == 1  # the second turn had a single option and was not asked
    assert all(u.activated for u in state.units.values())


@rule("FB-ROUND-07")
@rule("FB-AMB-15")
def test_attack_phase_may_come_before_the_movement_phase() -> None:
    state = make_state(units=[
        dict(id="a1", side="A", rank="elite", at=(5, 5)),
        dict(id="b1", side="B", at=(5, 6)),
    ])
    battle = make_battle(state, dice=[6, 1, 1])
    with_recorders(battle, {"A": {"plan": ["attack-move"], "attack": ["attack b1"],
                                  "move": ["move 5 3"]}})
    game.unit_turn(state, battle, state.units["a1"])
    kinds = [e["type"] for e in battle.log.events if e["type"] in ("attack", "move")]
    assert kinds == ["attack", "move"]
    assert state.units["b1"].status == DEFEATED
    assert state.units["a1"].anchor == (5, 3)


@rule("FB-ROUND-09")
def test_a_unit_may_activate_and_do_nothing() -> None:
    state = make_state(units=[dict(id="a1", side="A", at=(5, 5)),
                              dict(id="b1", side="B", at=(5, 6))])
    battle = make_battle(state)
    rec = with_recorders(battle, {"A": {"plan": ["hold"]}})
    game.unit_turn(state, battle, state.units["a1"])
    assert state.units["a1"].activated
    assert state.units["a1"].anchor == (5, 5)
    assert not events(battle, "attack") and not events(battle, "move")
    assert [d.kind for d in rec["A"].asked] == ["plan"]


@rule("FB-MOVE-07")
@rule("FB-AMB-15")
@rule("FB-ROUND-08")
def test_double_time_gives_up_the_attack() -> None:
    state = make_state(width=20, height=20, units=[dict(id="a1", side="A", at=(0, 0)),
                                                   dict(id="b1", side="B", at=(12, 13))])
    battle = make_battle(state)
    rec = with_recorders(battle, {"A": {"plan": ["double"], "move": ["move 12 12"]}})
    game.unit_turn(state, battle, state.units["a1"])
    assert state.units["a1"].anchor == (12, 12)
    assert state.adjacent(state.units["a1"], state.units["b1"])
    assert "attack" not in [d.kind for d in rec["A"].asked]


@rule("FB-SQUAD-03")
@rule("FB-AMB-50")
def test_squad_members_act_in_one_turn_in_the_owners_order() -> None:
    state = make_state(units=[
        dict(id=f"s{i}", side="A", squad="red", at=(i, 1)) for i in range(4)
    ] + [dict(id="b1", side="B", rank="elite", at=(5, 10))])
    from warhost.rulesets.fantasy_battle.state import Squad

    state.squads["red"] = Squad("red", "A", "infantry", ["s0", "s1", "s2", "s3"])
    battle = make_battle(state)
    with_recorders(battle, {"A": {"member": ["member s2", "member s0", "member s3"]}})
    game.take_turn(state, battle, "A", turns_left=1)
    plans = [e["unit"] for e in events(battle, "plan")]
    assert plans == ["s2", "s0", "s3", "s1"]
    assert all(state.units[f"s{i}"].activated for i in range(4))
    assert state.squads["red"].activated


@rule("FB-SQUAD-04")
@rule("FB-AMB-09")
def test_reforming_only_into_under_strength_squads_of_the_same_type() -> None:
    from warhost.rulesets.fantasy_battle.state import Squad

    units = [dict(id=f"r{i}", side="A", squad="red", at=(i, 0)) for i in range(4)]
    units += [dict(id=f"g{i}", side="A", squad="green", at=(i, 2)) for i in range(4)]
    units += [dict(id="b1", side="B", rank="elite", at=(5, 10))]
    state = make_state(units=units)
    state.squads["red"] = Squad("red", "A", "infantry", [f"r{i}" for i in range(4)])
    state.squads["green"] = Squad("green", "A", "infantry", [f"g{i}" for i in range(4)])
    battle = make_battle(state)
    rec = with_recorders(battle, {"A": {"reform": ["reform r0", "done"]}})
    # both squads full: nothing to offer, no question asked
    game.reform(state, battle, "A")
    assert not rec["A"].asked
    state.remove(state.units["g3"], DEFEATED)
    game.reform(state, battle, "A")
    offered = {str(o) for o in rec["A"].asked[0].options}
    assert "reform r0" in offered and "reform g0" not in offered  # green is the open squad
    # r0's only destination is green, so the second question answers itself
    assert [d.kind for d in rec["A"].asked] == ["reform", "reform"]
    assert not any("new-squad" in str(o) for d in rec["A"].asked for o in d.options)
    assert state.units["r0"].squad == "green"
    assert "r0" in state.squads["green"].members and "r0" not in state.squads["red"].members


@rule("FB-REINF-01")
def test_without_reinforcements_defeated_units_are_gone() -> None:
    from warhost.rulesets.fantasy_battle import scoring

    state = make_state(units=[dict(id="a1", side="A", at=(1, 1)),
                              dict(id="b1", side="B", at=(1, 10))])
    battle = make_battle(state)
    scoring.defeat(state, battle, state.units["a1"], "B")
    assert state.units["a1"].status == DEFEATED
    game.end_of_round(state, battle)
    assert state.units["a1"].status == DEFEATED


@rule("FB-REINF-02")
@rule("FB-REINF-03")
@rule("FB-REINF-04")
@rule("FB-REINF-05")
@rule("FB-AMB-49")
def test_reinforcements_return_within_limits_to_the_start_area() -> None:
    from warhost.rulesets.fantasy_battle import scoring

    units = [dict(id=f"s{i}", side="A", at=(i, 5)) for i in range(6)]
    units += [dict(id="e1", side="A", rank="elite", at=(8, 5)),
              dict(id="e2", side="A", rank="elite", at=(9, 5)),
              dict(id="u1", side="A", rank="elite", unique=True, fate=1, at=(10, 5)),
              dict(id="b1", side="B", rank="elite", at=(1, 10))]
    state = make_state(units=units, reinforcements=True)
    battle = make_battle(state)
    for uid in ["s0", "s1", "s2", "s3", "s4", "s5", "e1", "e2", "u1"]:
        scoring.defeat(state, battle, state.units[uid], "B")
    assert state.units["s0"].status == IN_POOL
    assert state.units["u1"].status == DEFEATED  # Unique: never pooled
    game.reinforce(state, battle, "A")
    back = [u for u in state.units.values() if u.side == "A" and u.status == ON_MAP]
    assert sum(u.rank == "standard" for u in back) == 4
    assert sum(u.rank == "elite" for u in back) == 1
    assert all(u.anchor in state.start_areas["A"] for u in back)


@rule("FB-AMB-49")
def test_returning_unit_comes_back_in_its_original_form() -> None:
    from warhost.rulesets.fantasy_battle import scoring

    state = make_state(units=[dict(id="k", side="A", rank="elite", cls="knight", at=(4, 5)),
                              dict(id="b1", side="B", rank="elite", at=(1, 10))],
                       reinforcements=True)
    battle = make_battle(state)
    knight = state.units["k"]
    state.place(knight, None)
    knight.type, knight.cls, knight.size, knight.dismounted = "infantry", "warrior", 1, True
    state.place(knight, (4, 5))
    scoring.defeat(state, battle, knight, "B")
    game.reinforce(state, battle, "A")
    assert knight.status == ON_MAP
    assert (knight.type, knight.cls, knight.size, knight.dismounted) == ("cavalry", "knight", 2,
                                                                         False)


@rule("FB-WIN-01")
@rule("FB-AMB-45")
def test_reaching_the_total_ends_the_battle_at_once() -> None:
    state = make_state(victory_points=1, units=[
        dict(id="a1", side="A", rank="elite", at=(5, 5)),
        dict(id="a2", side="A", rank="elite", at=(1, 1)),
        dict(id="b1", side="B", at=(5, 6)),
        dict(id="b2", side="B", rank="elite", at=(9, 10)),
    ])
    battle = make_battle(state, dice=[6, 1, 1])
    with_recorders(battle, {"A": {"activate": ["activate a1"], "plan": ["attack-move"],
                                  "attack": ["attack b1"]}})
    game.play(state, battle)
    assert state.over and state.winner == "A"
    assert state.scores == {"A": 1, "B": 0}
    assert activations(battle) == [("A", "a1")]  # nobody acts after the winning blow


@rule("FB-WIN-07")
@rule("FB-AMB-44")
def test_victory_area_scores_for_the_side_that_alone_holds_it() -> None:
    state = make_state(units=[dict(id="a1", side="A", at=(5, 5)),
                              dict(id="b1", side="B", at=(9, 9))])
    state.victory_areas = [{"name": "hill", "squares": [(5, 5), (5, 6)], "points": 2}]
    battle = make_battle(state)
    game.score_victory_areas(state, battle)
    assert state.scores == {"A": 2, "B": 0}
    state.place(state.units["b1"], (5, 6))
    game.score_victory_areas(state, battle)
    assert state.scores == {"A": 2, "B": 0}  # contested: nobody scores


@rule("FB-AMB-44")
def test_round_limit_gives_the_higher_score_the_win_and_equal_scores_draw() -> None:
    state = make_state(max_rounds=2, units=[dict(id="a1", side="A", at=(1, 1)),
                                            dict(id="b1", side="B", at=(9, 10))])
    battle = make_battle(state)
    with_recorders(battle)
    game.play(state, battle)
    assert state.round == 2 and state.over and state.winner is None
    state2 = make_state(max_rounds=1, units=[dict(id="a1", side="A", at=(1, 1)),
                                             dict(id="b1", side="B", at=(9, 10))])
    state2.scores["B"] = 1
    battle2 = make_battle(state2)
    with_recorders(battle2)
    game.play(state2, battle2)
    assert state2.winner == "B"


@rule("FB-AMB-44")
def test_a_side_with_nothing_left_loses_at_the_start_of_a_round() -> None:
    state = make_state(units=[dict(id="a1", side="A", at=(1, 1)),
                              dict(id="b1", side="B", at=(9, 10))])
    state.remove(state.units["b1"], DEFEATED)
    battle = make_battle(state)
    game.play(state, battle)
    assert state.winner == "A" and state.round == 0


@rule("FB-AMB-11")
def test_opening_activation_need_not_leave_the_start_area() -> None:
    state = make_state(units=[dict(id="a1", side="A", rank="elite", at=(1, 1)),
                              dict(id="b1", side="B", rank="elite", at=(1, 10))])
    battle = make_battle(state)
    with_recorders(battle, {"A": {"plan": ["hold"]}})
    game.take_turn(state, battle, "A", turns_left=1)
    assert state.units["a1"].anchor == (1, 1) and state.units["a1"].activated


@rule("FB-FEAT-02")
@rule("FB-FEAT-03")
@rule("FB-FEAT-04")
@rule("FB-AMB-37")
def test_one_feat_per_turn_per_champion_by_default_and_by_side_as_an_option() -> None:
    champ = dict(id="c1", side="A", rank="champion", feats=["burst_of_speed", "vault"], at=(1, 1))
    other = dict(id="c2", side="A", rank="champion", feats=["throw"], at=(3, 1))
    state = make_state(units=[champ, other, dict(id="b1", side="B", at=(9, 10))])
    battle = make_battle(state)
    c1, c2 = state.units["c1"], state.units["c2"]
    assert feats.can_use_feat(state, c1, "vault")
    feats.use_feat(state, battle, c1, "burst_of_speed")
    assert not feats.can_use_feat(state, c1, "vault")  # one Feat this turn
    assert feats.can_use_feat(state, c2, "throw")  # another champion may
    assert not feats.can_use_feat(state, c1, "frenzy")  # never had it
    feats.new_turn(state)
    assert feats.can_use_feat(state, c1, "vault")
    assert not feats.can_use_feat(state, c1, "burst_of_speed")  # entry used for good
    side_state = make_state(units=[champ, other, dict(id="b1", side="B", at=(9, 10))],
                            feat_limit_scope="side")
    sb = make_battle(side_state)
    feats.use_feat(side_state, sb, side_state.units["c1"], "burst_of_speed")
    assert not feats.can_use_feat(side_state, side_state.units["c2"], "throw")


@rule("FB-FEAT-07")
@rule("FB-AMB-39")
def test_mobility_moves_attacks_then_moves_on_within_one_allowance() -> None:
    state = make_state(width=20, height=20, units=[
        dict(id="c", side="A", rank="champion", feats=["mobility"], at=(2, 2)),
        dict(id="b1", side="B", at=(2, 6)),
        dict(id="b2", side="B", rank="elite", at=(15, 15)),
    ])
    battle = make_battle(state, dice=[6, 6, 6, 1])
    with_recorders(battle, {"A": {"plan": ["mobility"], "move": ["move 2 5", "move 4 7"],
                                  "attack": ["attack b1"]}})
    game.unit_turn(state, battle, state.units["c"])
    moves = events(battle, "move")
    assert [tuple(m["to"]) for m in moves] == [(2, 5), (4, 7)]
    assert sum(m["cost"] for m in moves) <= 6
    assert state.units["b1"].status == DEFEATED
    assert [e["feat"] for e in events(battle, "feat")] == ["mobility"]


@rule("FB-AMB-52")
def test_every_roll_is_logged_with_its_purpose() -> None:
    state = make_state(units=[dict(id="a1", side="A", rank="elite", at=(5, 5)),
                              dict(id="b1", side="B", at=(5, 6))])
    battle = make_battle(state, dice=[2, 5, 3])
    with_recorders(battle, {"A": {"plan": ["attack-move"], "attack": ["attack b1"]}})
    game.unit_turn(state, battle, state.units["a1"])
    rolls = events(battle, "roll")
    assert [r["faces"] for r in rolls] == [[2, 5], [3]]
    assert all(r["why"] for r in rolls)


@rule("FB-AMB-25")
@rule("FB-AMB-39")
@rule("FB-FEAT-07")
def test_a_charge_may_open_a_mobility_turn_and_the_move_after_need_not_be_straight() -> None:
    state = make_state(width=20, height=20, units=[
        dict(id="c", side="A", rank="champion", cls="pike", facing="north",
             feats=["mobility"], at=(2, 2)),
        dict(id="b1", side="B", at=(2, 6)),
        dict(id="b2", side="B", rank="elite", at=(15, 15)),
    ])
    battle = make_battle(state, dice=[3, 1, 1, 3])
    rec = with_recorders(battle, {"A": {"plan": ["charge-mobility b1"],
                                        "move": ["move 2 5", "move 4 6"],
                                        "attack": ["attack b1"]}})
    game.unit_turn(state, battle, state.units["c"])
    plan = next(d for d in rec["A"].asked if d.kind == "plan")
    assert Order.of("charge-mobility", "b1") in plan.options
    attack = events(battle, "attack")[0]
    assert attack["charging"] is True  # 3 + 1 beats 3: only the charge bonus wins it
    assert state.units["b1"].status == DEFEATED
    assert [tuple(m["to"]) for m in events(battle, "move")] == [(2, 5), (4, 6)]


@rule("FB-AMB-09")
def test_a_squad_with_no_unit_left_on_the_field_cannot_be_joined() -> None:
    from warhost.rulesets.fantasy_battle.state import Squad

    units = [dict(id=f"r{i}", side="A", squad="red", at=(i, 0)) for i in range(4)]
    units += [dict(id=f"g{i}", side="A", squad="green", at=(i, 2)) for i in range(4)]
    units += [dict(id="b1", side="B", rank="elite", at=(5, 10))]
    state = make_state(units=units)
    state.squads["red"] = Squad("red", "A", "infantry", [f"r{i}" for i in range(4)])
    state.squads["green"] = Squad("green", "A", "infantry", [f"g{i}" for i in range(4)])
    for i in range(4):
        state.remove(state.units[f"g{i}"], DEFEATED)
    battle = make_battle(state)
    rec = with_recorders(battle)
    game.reform(state, battle, "A")
    assert not rec["A"].asked  # green is gone and red is full: nothing to offer
