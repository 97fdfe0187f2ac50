"""The round and the end of the battle (rounds.py; T5-ROUND-01..11, T5-STANCE-03 wiring,
T5-AMB-05, T5-AMB-06, T5-AMB-51, T5-DEC-05, T5-DEC-06)."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.core.engine import run_battle
from warhost.core.scenario import load_scenario
from warhost.rulesets.dnd5e_tactics import combat, rounds
from warhost.rulesets.dnd5e_tactics.context import Ctx
from warhost.rulesets.dnd5e_tactics.state import ROUTED, SLAIN

from .helpers import ARCHER, GUARD, MAGE, events, scenario, unit, unit_spec
from .t_helpers import FAR, Recorder, asked, pair, quiet_ctx


def kinds(ctx: Ctx) -> list[str]:
    return [e["type"] for e in ctx.battle.log.events]


def first(ctx: Ctx, type_: str, **match: Any) -> int:
    """Index of the first event of ``type_`` whose fields match."""
    for i, e in enumerate(ctx.battle.log.events):
        if e["type"] == type_ and all(e.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {type_} {match}")


# --------------------------------------------------------------------------- the steps


@pytest.mark.rule("T5-ROUND-01", "T5-ROUND-09")
def test_a_round_runs_stance_reset_tactics_turns_then_the_end_of_round() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), orders={"A": ["stance open"]})
    rounds.play_round(ctx)
    assert first(ctx, "round_start", round=1) < first(ctx, "stance") < first(ctx, "turn") \
        < first(ctx, "round_end", round=1)
    assert not events(ctx, "tactics")  # no Tactics step in round 1
    rounds.play_round(ctx)
    start = first(ctx, "round_start", round=2)
    assert start < first(ctx, "tactics") < first(ctx, "rank", why="tactics advance") \
        < [i for i, e in enumerate(ctx.battle.log.events) if e["type"] == "turn"][2]
    assert kinds(ctx)[-1] == "round_end"


@pytest.mark.rule("T5-ROUND-01", "T5-STANCE-03")
def test_the_end_of_round_follows_the_turns_and_offers_the_follow_through(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Wiring only (the follow-through itself is end_of_round's): damage dealt in the turns is
    turned into casualties after them; the enemy engaged with a routed unit may follow
    through."""
    ctx = quiet_ctx(pair())

    def turns(c: Ctx) -> None:
        c.emit("turn", body="stub", side="B", round=c.state.round)
        unit(c, "b").tdr = 20 * 32  # every member of b falls; its commander alone routs

    monkeypatch.setattr(rounds, "turns_step", turns)
    rounds.play_round(ctx)
    assert first(ctx, "turn") < first(ctx, "casualties", unit="b") < first(ctx, "rout") \
        < first(ctx, "round_end")
    assert unit(ctx, "b").status == ROUTED
    assert asked(ctx, "follow_through") or events(ctx, "follow_through")


@pytest.mark.rule("T5-ROUND-02", "T5-DEC-05")
def test_a_unit_out_of_melee_keeps_or_switches_its_stance() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), orders={"A": ["stance open"]})
    record = Recorder(ctx)
    a = unit(ctx, "a")
    assert a.formation.width == 5.0
    rounds.stance_step(ctx)
    assert record.options("stance") == [["stance close", "stance open"]] * 2
    assert a.stance == "open" and a.formation.width == 9.5  # re-formed (T5-AMB-09)
    (event,) = events(ctx, "stance")
    assert (event["unit"], event["before"], event["after"]) == ("a", "close", "open")
    assert unit(ctx, "b").stance == "close"


@pytest.mark.rule("T5-ROUND-02")
def test_a_switch_that_does_not_fit_where_the_unit_stands_is_not_offered() -> None:
    """Our ruling: Open Stance would push a unit 0.5 in from the west edge off the board."""
    ctx = quiet_ctx(pair(a_at=(3.0, 10.0), b_at=FAR))
    record = Recorder(ctx)
    rounds.stance_step(ctx)
    assert record.options("stance", "a") == [["stance close"]]
    assert [d["kind"] for d in ctx.battle.decisions].count("stance") == 1  # only b is asked


@pytest.mark.rule("T5-ROUND-03")
def test_an_engaged_unit_keeps_its_stance() -> None:
    ctx = quiet_ctx(pair(), orders={"A": ["stance open"], "B": ["stance open"]})
    rounds.stance_step(ctx)
    assert not asked(ctx, "stance")
    assert unit(ctx, "a").stance == unit(ctx, "b").stance == "close"


@pytest.mark.rule("T5-ROUND-04", "T5-ROUND-05")
def test_stances_change_only_at_step_one_and_every_unit_always_has_one() -> None:
    model = load_scenario("examples/dnd5e-tactics/open-field.yaml")
    result = run_battle(model, 3, {s: "random" for s in ("Greyhaven Watch", "Red Hand")})
    turn_seen = False
    for event in result.log.events:
        if event["type"] == "round_start":
            turn_seen = False
        elif event["type"] == "turn":
            turn_seen = True
        elif event["type"] == "stance":
            assert not turn_seen, event
            assert event["after"] in ("close", "open")
    assert events_of(result, "stance")  # random commanders do switch now and then


def events_of(result: Any, type_: str) -> list[dict[str, Any]]:
    return [e for e in result.log.events if e["type"] == type_]


@pytest.mark.rule("T5-ROUND-06")
def test_damage_received_resets_before_the_turns() -> None:
    ctx = quiet_ctx(pair(b_at=FAR))
    unit(ctx, "a").tdr = 40  # left over: would kill a Thug if it were kept
    rounds.play_round(ctx)
    assert unit(ctx, "a").members == 20 and not events(ctx, "casualties")


@pytest.mark.rule("T5-ROUND-07", "T5-DEC-06")
def test_from_round_two_a_unit_with_a_living_commander_gains_a_rank() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), round_=2)
    rounds.tactics_step(ctx)
    assert unit(ctx, "a").rank == unit(ctx, "b").rank == 1
    assert {e["why"] for e in events(ctx, "rank")} == {"tactics advance"}


@pytest.mark.rule("T5-ROUND-08", "T5-DEC-06")
def test_a_unit_at_rank_zero_or_more_may_switch_to_rank_zero_of_another_track() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), orders={"A": ["switch vicious"]}, round_=2)
    a = unit(ctx, "a")
    a.rank = a.rank_at_round_start = 2
    record = Recorder(ctx)
    rounds.tactics_step(ctx)
    assert record.options("tactics", "a") == [[
        "advance", "switch aggressive", "switch supporting", "switch vicious"]]  # not its own
    assert (a.track, a.rank) == ("vicious", 0)
    assert unit(ctx, "b").rank == 1


@pytest.mark.rule("T5-ROUND-08", "T5-AMB-06")
@pytest.mark.parametrize(("at_start", "now", "switch"), [(-1, 0, False), (0, -1, True),
                                                          (-2, -2, False), (0, 0, True)])
def test_the_switch_depends_on_the_rank_when_the_round_began(
        at_start: int, now: int, switch: bool) -> None:
    ctx = quiet_ctx(pair(b_at=FAR), round_=2)
    a = unit(ctx, "a")
    a.rank_at_round_start, a.rank = at_start, now
    record = Recorder(ctx)
    rounds.tactics_step(ctx)
    assert ("switch vicious" in record.options("tactics", "a")[0]) is switch


@pytest.mark.rule("T5-AMB-06")
def test_the_round_records_each_rank_as_it_begins() -> None:
    ctx = quiet_ctx(pair(b_at=FAR))
    unit(ctx, "a").rank = -2
    rounds.begin_round(ctx)
    assert unit(ctx, "a").rank_at_round_start == -2


@pytest.mark.rule("T5-ROUND-09")
def test_no_tactics_step_in_the_first_round() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), round_=1)
    rounds.tactics_step(ctx)
    assert unit(ctx, "a").rank == 0 and not events(ctx, "rank") and not asked(ctx, "tactics")


@pytest.mark.rule("T5-ROUND-10")
def test_a_unit_whose_commander_is_dead_neither_gains_nor_switches() -> None:
    ctx = quiet_ctx(pair(b_at=FAR), orders={"A": ["switch vicious"]}, round_=2)
    a = unit(ctx, "a")
    combat.kill_commander(ctx, a, duel_winner=None)
    a.rank_at_round_start = a.rank = 0
    rounds.tactics_step(ctx)
    assert (a.track, a.rank) == ("defensive", 0)
    assert not [d for d in asked(ctx, "tactics") if d["side"] == "A"]


@pytest.mark.rule("T5-AMB-05")
@pytest.mark.parametrize(("clamp", "after"), [(True, 3), (False, 4)])
def test_a_gain_past_plus_three_is_lost_unless_rank_clamp_is_off(clamp: bool, after: int) -> None:
    ctx = quiet_ctx(pair(b_at=FAR, rank_clamp=clamp), round_=2)
    a = unit(ctx, "a")
    a.rank = a.rank_at_round_start = 3
    rounds.tactics_step(ctx)
    assert a.rank == after


@pytest.mark.rule("T5-ROUND-11", "T5-INIT-02")
def test_bodies_take_their_turns_from_highest_initiative_to_lowest() -> None:
    model = scenario({"A": [unit_spec("slow", (10, 5)),
                            unit_spec("quick", (30, 5), member=ARCHER, commander=MAGE)],
                      "B": [unit_spec("mid", (20, 30), member=GUARD)]})
    ctx = quiet_ctx(model)
    rounds.play_round(ctx)
    assert [e["body"] for e in events(ctx, "turn")] == ["quick", "mid", "slow"]


# --------------------------------------------------------------------------- the end


def _play(ctx: Ctx) -> None:
    rounds.play(ctx.state, ctx.battle)


@pytest.mark.rule("T5-AMB-51")
def test_a_side_with_nothing_left_on_the_table_loses() -> None:
    ctx = quiet_ctx(pair(b_at=FAR))

    def rout_b(round_number: int, state: Any) -> None:
        state.bodies["b"].status = ROUTED

    ctx.battle.round_observers.append(rout_b)
    _play(ctx)
    result = rounds.outcome(ctx.state)
    assert (result.winner, result.rounds) == ("A", 1)
    assert result.reason == "B has nothing left on the table"


@pytest.mark.rule("T5-AMB-51")
def test_both_sides_gone_at_once_is_a_draw() -> None:
    ctx = quiet_ctx(pair(b_at=FAR))

    def rout_both(round_number: int, state: Any) -> None:
        for body in state.bodies.values():
            body.status = ROUTED

    ctx.battle.round_observers.append(rout_both)
    _play(ctx)
    result = rounds.outcome(ctx.state)
    assert result.winner is None and result.rounds == 1


@pytest.mark.rule("T5-AMB-51")
@pytest.mark.parametrize(("b_left", "winner"), [(15, "A"), (20, None)])
def test_at_max_rounds_the_higher_score_wins_and_level_scores_draw(
        b_left: int, winner: str | None) -> None:
    """Our ruling. A has killed 20 - ``b_left`` members of b; B has killed none."""
    ctx = quiet_ctx(pair(b_at=FAR, max_rounds=2))
    unit(ctx, "b").members = b_left
    _play(ctx)
    result = rounds.outcome(ctx.state)
    assert (result.winner, result.rounds) == (winner, 2)
    assert result.scores == {"A": 20 - b_left, "B": 0}
    assert "round limit 2" in result.reason


@pytest.mark.rule("T5-AMB-51")
def test_without_max_rounds_the_round_cap_ends_in_a_draw(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(rounds, "ROUND_CAP", 3)
    ctx = quiet_ctx(pair(b_at=FAR))
    unit(ctx, "b").members = 10  # A leads, yet the safety net is a draw
    _play(ctx)
    result = rounds.outcome(ctx.state)
    assert (result.winner, result.rounds) == (None, 3)
    assert "round cap" in result.reason


def test_the_ruleset_round_cap_is_one_hundred() -> None:
    from warhost.rulesets.dnd5e_tactics import ROUND_CAP

    assert rounds.ROUND_CAP == ROUND_CAP == 100


@pytest.mark.rule("T5-AMB-51")
def test_outcome_gives_one_fate_per_unit_and_single_character() -> None:
    single = {"id": "hero", "stats": {"name": "Hero", "ac": 15, "hp": 30,
                                       "attacks": [{"name": "Sword", "bonus": 5,
                                                    "damage": "1d8+3"}]}, "at": [40, 30]}
    ctx = quiet_ctx(pair(b_at=FAR, singles={"B": [single]}))
    b = unit(ctx, "b")
    b.members, b.status = 7, ROUTED
    hero = ctx.state.bodies["hero"]
    hero.status = SLAIN
    hero.character.alive = False
    unit(ctx, "a").members = 18
    fates = {f.id: (f.start, f.survivors, f.losses, f.fate) for f in
             rounds.outcome(ctx.state).units}
    assert fates == {"a": (20, 18, 2, "active"), "b": (20, 7, 13, "routed"),
                     "hero": (1, 0, 1, "slain")}
    assert rounds.outcome(ctx.state).scores == {"A": 13 + 7 + 1, "B": 2}


# --------------------------------------------------------------------------- invariants


def test_a_random_battle_keeps_every_invariant() -> None:
    model = load_scenario("examples/dnd5e-tactics/open-field.yaml")
    kept: dict[str, Any] = {}
    result = run_battle(model, 5, {s: "random" for s in ("Greyhaven Watch", "Red Hand")},
                        observers=[lambda n, s: kept.update(state=s)])
    assert rounds.check_invariants(kept["state"], result.log.events) == []
    assert result.rounds <= 15


def test_check_invariants_finds_broken_states() -> None:
    ctx = quiet_ctx(pair(b_at=FAR))
    a, b = unit(ctx, "a"), unit(ctx, "b")
    a.members = -1
    b.rank = 5
    log = [{"type": "round_start", "round": 1}, {"type": "turn", "body": "a"},
           {"type": "turn", "body": "a"}, {"type": "rout", "unit": "b"},
           {"type": "round_start", "round": 2}, {"type": "turn", "body": "b"}]
    problems = rounds.check_invariants(ctx.state, log)
    assert any("-1 members" in p for p in problems)
    assert any("rank 5" in p for p in problems)
    assert any("two turns" in p for p in problems)
    assert any("after leaving" in p for p in problems)
