"""Deployment and initiative (WB-DEPLOY, WB-INIT, WB-AMB-07/08, WB-ASK-01/02) with scripted
dice and orders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.warband.helpers import (
    char,
    events,
    load,
    make_battle,
    make_state,
    scenario_data,
)
from warhost.core.battle import Battle
from warhost.core.decisions import Decision
from warhost.core.errors import ScenarioError
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario
from warhost.rulesets.warband import game
from warhost.rulesets.warband.setup import deploy, initial_state, roll_initiative
from warhost.rulesets.warband.state import WarbandState

rule = pytest.mark.rule


def unplaced(cid: str, side: str, **kw: Any) -> dict[str, Any]:
    """A character entry with no square and no facing: its side must choose both."""
    entry = char(cid, (0, 0), side, **kw)
    del entry["at"], entry["facing"]
    return entry


def setup(chars: list[dict[str, Any]], orders: dict[str, list[str]] | None = None,
          **kw: Any) -> tuple[WarbandState, Battle, list[tuple[Decision, dict[Any, str], int]]]:
    """A state before deployment and a battle recording each decision with the occupancy
    and the number of ``deploy`` events at the time it was asked."""
    model = load(scenario_data(chars, **kw)).model
    state = initial_state(model)
    battle = make_battle(state, orders=orders)
    seen: list[tuple[Decision, dict[Any, str], int]] = []
    real = battle.decide

    def decide(decision: Decision) -> Order:
        seen.append((decision, dict(state.at), len(events(battle, "deploy"))))
        return real(decision)

    battle.decide = decide  # type: ignore[method-assign]
    return state, battle, seen


def offered(seen: list[tuple[Decision, dict[Any, str], int]], subject: str) -> list[str]:
    return next([str(o) for o in d.options] for d, _, _ in seen
                if d.kind == "deploy" and d.subject == subject)


@rule("WB-DEPLOY-02", "WB-DEPLOY-03", "WB-AMB-07", "WB-ASK-02")
def test_simultaneous_deployment_is_blind() -> None:
    chars = [unplaced("a", "A"), unplaced("b", "B")]
    offers = []
    for a_square in ("1 1", "3 2"):
        state, battle, seen = setup(chars, {"A": [f"deploy {a_square}", "face E"],
                                            "B": ["deploy 3 2", "face W"]}, width=4, height=4)
        deploy(state, battle)
        b_asked = next((at, shown) for d, at, shown in seen if d.subject == "b"
                       and d.kind == "deploy")
        assert b_asked == ({}, 0)  # nothing placed and nothing announced yet
        offers.append(offered(seen, "b"))
        assert [d.kind for d, _, _ in seen if d.subject == "a"] == ["deploy", "facing"]
        assert [str(o) for d, _, _ in seen if d.kind == "facing" for o in d.options][:8] == [
            "face N", "face NE", "face E", "face SE", "face S", "face SW", "face W", "face NW"]
        assert state.chars["a"].facing == "E" and state.chars["b"].facing == "W"
    # where A went made no difference to what B was offered: the whole map each time
    assert offers[0] == offers[1] == [f"deploy {x} {y}" for y in range(4) for x in range(4)]


@rule("WB-DEPLOY-01", "WB-DEPLOY-02", "WB-AMB-07")
def test_a_square_chosen_by_two_sides_goes_to_the_first_and_the_other_chooses_again() -> None:
    chars = [unplaced("a", "A"), unplaced("b", "B")]
    state, battle, seen = setup(chars, {"A": ["deploy 3 2"], "B": ["deploy 3 2", "deploy 0 1"]},
                                width=4, height=4)
    deploy(state, battle)
    assert state.chars["a"].square == (3, 2) and state.chars["b"].square == (0, 1)
    assert [(e["who"], e["taken_by"]) for e in events(battle, "deploy_clash")] == [("b", "a")]
    again = [d for d, at, _ in seen if d.subject == "b" and d.kind == "deploy"][1]
    assert "deploy 3 2" not in [str(o) for o in again.options]
    assert [e["who"] for e in events(battle, "deploy")] == ["a", "b"]


@rule("WB-DEPLOY-06", "WB-AMB-07", "WB-ASK-01")
def test_without_advantage_each_side_sets_up_in_its_own_zone() -> None:
    chars = [unplaced("a", "A"), unplaced("a2", "A"), unplaced("b", "B")]
    zones = {"A": {"from": [0, 0], "to": [1, 1]}, "B": {"from": [8, 0], "to": [9, 1]}}
    state, battle, seen = setup(chars, {"A": ["deploy 1 0"]}, width=10, height=4, zones=zones)
    deploy(state, battle)
    assert offered(seen, "a") == ["deploy 0 0", "deploy 1 0", "deploy 0 1", "deploy 1 1"]
    assert offered(seen, "a2") == ["deploy 0 0", "deploy 0 1", "deploy 1 1"]  # own choice
    assert offered(seen, "b") == ["deploy 8 0", "deploy 9 0", "deploy 8 1", "deploy 9 1"]


@rule("WB-DEPLOY-04", "WB-DEPLOY-05", "WB-AMB-07", "WB-ASK-02")
def test_under_advantage_the_others_deploy_first_and_are_revealed() -> None:
    chars = [unplaced("a", "A"), unplaced("b", "B"), unplaced("b2", "B")]
    zones = {"B": {"from": [0, 0], "to": [1, 2]}}
    state, battle, seen = setup(chars, {"B": ["deploy 1 1", "deploy 0 0"]}, width=14,
                                height=4, zones=zones, advantage="A")
    deploy(state, battle)
    order = [d.subject for d, _, _ in seen if d.kind == "deploy"]
    assert order == ["b", "b2", "a"]
    _, at_a, shown = next(s for s in seen if s[0].subject == "a" and s[0].kind == "deploy")
    assert at_a == {(1, 1): "b", (0, 0): "b2"} and shown == 2  # revealed before A chooses
    squares = {tuple(int(v) for v in o.split()[1:]) for o in offered(seen, "a")}
    # within 10 of the zone (x <= 11), the zone included, never next to b or b2
    expected = {(x, y) for x in range(12) for y in range(4)
                if max(abs(x - 1), abs(y - 1)) > 1 and max(abs(x), abs(y)) > 1}
    assert squares == expected
    assert (11, 0) in squares and (12, 0) not in squares


@rule("WB-DEPLOY-05", "WB-AMB-07")
def test_the_advantage_distance_is_an_option() -> None:
    chars = [unplaced("a", "A"), unplaced("b", "B")]
    zones = {"B": {"from": [0, 0], "to": [0, 2]}}
    state, battle, seen = setup(chars, {"B": ["deploy 0 0"]}, width=14, height=4, zones=zones,
                                advantage="A", options={"advantage_deploy_distance": 3})
    deploy(state, battle)
    xs = {int(o.split()[1]) for o in offered(seen, "a")}
    assert xs == {0, 1, 2, 3}


@rule("WB-AMB-55", "WB-ASK-01")
def test_the_captain_must_be_a_hero_and_the_error_names_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "ruleset: warband\nmap: {width: 8, height: 8}\nsides:\n"
        "  - name: A\n    characters:\n"
        "      - id: a\n        kind: minion\n        captain: true\n        at: [1, 1]\n"
        "        stats: {agility: 5, melee: 5, ranged: 5, strength: 4, toughness: 3,"
        " resolve: 6, wounds: 1, attacks: 1}\n"
        "  - name: B\n    characters:\n"
        "      - id: b\n        kind: minion\n        at: [5, 5]\n"
        "        stats: {agility: 5, melee: 5, ranged: 5, strength: 4, toughness: 3,"
        " resolve: 6, wounds: 1, attacks: 1}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    text = str(info.value)
    assert "bad.yaml:8:" in text and "sides[0].characters[0].captain" in text
    assert "Captain must be a Hero" in text


@rule("WB-AMB-55", "WB-ASK-01")
def test_one_captain_per_side_with_heroes_none_without() -> None:
    two = scenario_data([char("h1", (1, 1), kind="hero", captain=True),
                         char("h2", (2, 2), kind="hero", captain=True), char("b", (5, 5), "B")])
    with pytest.raises(ScenarioError, match="exactly one"):
        load(two)
    none = scenario_data([char("h1", (1, 1), kind="hero"), char("b", (5, 5), "B")])
    with pytest.raises(ScenarioError, match="no Captain"):
        load(none)
    minions = load(scenario_data([char("m", (1, 1)), char("b", (5, 5), "B")])).model
    assert all(not c.captain for s in minions.sides for c in s.characters)


# -- initiative -----------------------------------------------------------------------------

def three(**kw: Any) -> WarbandState:
    return make_state([char("a", (1, 1), agility=5), char("b", (3, 3), "B", agility=3),
                       char("c", (5, 5), agility=7)], **kw)


@rule("WB-INIT-01", "WB-INIT-02")
def test_initiative_is_d10_plus_agility_highest_first() -> None:
    state = three()
    battle = make_battle(state, [4, 1, 9])  # a 9, c 8, b 12 (sides in turn)
    roll_initiative(state, battle)
    assert state.order == ["b", "a", "c"]
    assert events(battle, "initiative")[0]["scores"] == {"b": 12, "a": 9, "c": 8}


@rule("WB-INIT-03", "WB-AMB-08")
def test_the_advantaged_side_keeps_the_higher_of_two_dice() -> None:
    state = three(advantage="A")
    battle = make_battle(state, [2, 8, 1, 6, 9])  # a best of 2, 8; c of 1, 6; b one die
    roll_initiative(state, battle)
    assert {c: state.chars[c].initiative for c in "abc"} == {"a": 13, "b": 12, "c": 13}
    # a and c tie on 13: Agility 7 beats 5
    assert state.order == ["c", "a", "b"]


@rule("WB-INIT-05", "WB-AMB-08")
def test_ties_go_by_agility_then_repeated_roll_offs() -> None:
    state = make_state([char("a", (1, 1), agility=5), char("b", (3, 3), "B", agility=6),
                        char("c", (5, 5), agility=5)])
    battle = make_battle(state, [5, 5, 4, 3, 3, 2, 7])  # all 10; a/c roll off 3-3 then 2-7
    roll_initiative(state, battle)
    assert state.order == ["b", "c", "a"]


@rule("WB-INIT-04", "WB-AMB-08")
@pytest.mark.parametrize("reroll", [False, True])
def test_initiative_is_rolled_once_unless_the_option_says_each_turn(reroll: bool) -> None:
    state = three(options={"reroll_initiative_each_turn": reroll})
    battle = make_battle(state, [4, 1, 9] + ([9, 1, 1] if reroll else []))
    roll_initiative(state, battle)
    state.turn = 2
    game.start_turn(state, battle)
    assert state.order == (["a", "c", "b"] if reroll else ["b", "a", "c"])
    assert len(events(battle, "initiative")) == (2 if reroll else 1)
