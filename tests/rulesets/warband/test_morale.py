"""Morale in the Aftermath (WB-MORALE, WB-AMB-44 to 47, WB-AMB-55) with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state, record
from warhost.core.battle import Battle
from warhost.rulesets.warband import game, morale, movement
from warhost.rulesets.warband.injury import incapacitate
from warhost.rulesets.warband.state import FLED, KNOCKED_DOWN, WarbandState

rule = pytest.mark.rule


def kinds(battle: Battle, wanted: set[str]) -> list[str]:
    return [e["type"] for e in battle.log.events if e["type"] in wanted]


def morale_log(battle: Battle) -> list[tuple[str, list[str], bool]]:
    return [(e["who"], e["triggers"], e["passed"]) for e in events(battle, "morale")]


def company(*extra: dict[str, Any], **kwargs: Any) -> WarbandState:
    """Captain ``cap`` and Minion ``m`` of side A; enemy ``e`` of B far away."""
    return make_state([char("cap", (1, 1), kind="hero", captain=True), char("m", (5, 5)),
                       *extra, char("e", (11, 11), "B", kind="hero", captain=True)], **kwargs)


@rule("WB-MORALE-01", "WB-MORALE-12", "WB-AMB-44", "WB-AFTER-03")
def test_a_morale_test_is_a_resolve_test_made_in_the_aftermath() -> None:
    state = company()
    battle = make_battle(state, [6])
    incapacitate(state, battle, state.chars["cap"], "test")
    m = state.chars["m"]
    assert m.pending == {"captain", "hero:cap"}  # recorded when it happened ...
    assert events(battle, "morale") == []  # ... tested only in the Aftermath
    morale.morale_tests(state, battle)
    assert morale_log(battle) == [("m", ["captain", "hero:cap", "no_heroes"], True)]  # 6 vs Resolve 6
    assert not m.routing and m.exposed == {"captain", "hero:cap"}


@rule("WB-MORALE-01", "WB-MORALE-02")
def test_a_failed_morale_test_routs_at_once() -> None:
    state = company()
    battle = make_battle(state, [7])
    incapacitate(state, battle, state.chars["cap"], "test")
    morale.morale_tests(state, battle)
    m = state.chars["m"]
    assert morale_log(battle) == [("m", ["captain", "hero:cap", "no_heroes"], False)]
    assert m.routing and kinds(battle, {"morale", "rout", "move"}) == ["morale", "rout", "move"]
    assert events(battle, "move")[0]["how"] == "flee"


@rule("WB-MORALE-03", "WB-AMB-21", "WB-ASK-13")
def test_engaged_enemies_strike_before_the_router_flees() -> None:
    state = company(char("e2", (5, 6), "B", weapons=[{"name": "club", "kind": "melee"},
                                                     {"name": "axe", "kind": "melee"}]))
    battle = make_battle(state, [9, 10], orders={"B": ["opportunity m axe"]})
    asked = record(battle)
    incapacitate(state, battle, state.chars["cap"], "test")
    morale.morale_tests(state, battle)  # die 9 fails; the axe misses on a 10
    aoo = [d for d in asked if d.kind == "opportunity"]
    assert len(aoo) == 1 and aoo[0].side == "B" and aoo[0].subject == "e2"
    assert [str(o) for o in aoo[0].options] == ["opportunity m club", "opportunity m axe",
                                                "no-opportunity"]
    assert kinds(battle, {"morale", "rout", "opportunity", "attack", "move"}) == [
        "morale", "rout", "opportunity", "attack", "move"]
    assert events(battle, "opportunity")[0]["weapon"] == "axe"
    assert state.chars["m"].square != (5, 5)


@rule("WB-MORALE-04", "WB-AMB-47", "WB-ASK-14", "WB-ASK-20")
def test_flight_goes_twice_agility_to_the_farthest_squares_and_the_commander_picks() -> None:
    state = make_state([char("r", (5, 5), agility=2), char("e", (5, 3), "B")])
    battle = make_battle(state, [], orders={"A": ["flee 7 9"]})
    asked = record(battle)
    morale.flee(state, battle, state.chars["r"], provoke=False)
    flee = [d for d in asked if d.kind == "flee"]
    assert len(flee) == 1 and flee[0].side == "A" and flee[0].subject == "r"
    # 4 squares of flight; every square of row 9 in reach is 6 from the enemy, none farther
    assert [str(o) for o in flee[0].options] == [f"flee {x} 9" for x in range(1, 10)]
    assert state.chars["r"].square == (7, 9)
    assert events(battle, "move")[0]["squares"] == 4


@rule("WB-AMB-47")
def test_equally_near_enemies_both_count_as_the_threat() -> None:
    state = make_state([char("r", (5, 5), agility=1), char("e", (3, 5), "B"),
                        char("f", (7, 5), "B")])
    battle = make_battle(state, [])
    asked = record(battle)
    morale.flee(state, battle, state.chars["r"], provoke=False)
    # within 2 squares nothing is more than 2 from the closer of them: no flight at all
    assert asked == [] and events(battle, "move") == []
    state = make_state([char("r", (5, 5), agility=2), char("e", (3, 5), "B"),
                        char("f", (7, 5), "B")])
    battle = make_battle(state, [])
    asked = record(battle)
    morale.flee(state, battle, state.chars["r"], provoke=False)
    # the closer of the two counts for every square: rows 1 and 9 are 4 from both
    assert {str(o) for o in asked[0].options} == {f"flee {x} {y}" for x in range(1, 10)
                                                  for y in (1, 9)}


@rule("WB-AMB-47", "WB-AMB-04")
def test_no_visible_enemy_no_flight() -> None:
    wall = {"from": [3, 7], "to": [7, 7], "terrain": "blocking"}
    state = make_state([char("r", (5, 5)), char("e", (5, 8), "B")], features=[wall])
    battle = make_battle(state, [])
    morale.flee(state, battle, state.chars["r"], provoke=False)
    assert events(battle, "move") == [] and state.chars["r"].square == (5, 5)


@rule("WB-MORALE-05", "WB-AMB-47", "WB-AMB-21")
def test_later_flights_replace_the_movement_action_and_provoke() -> None:
    state = make_state([char("r", (5, 5)), char("e", (5, 6), "B")])
    state.chars["r"].routing = True
    state.order = ["r"]
    battle = make_battle(state, [10])  # the Attack of Opportunity misses
    asked = record(battle)
    game.movement_phase(state, battle)
    # no movement action; a new facing after the flight (WB-AMB-05)
    assert [d.kind for d in asked if d.side == "A"] == ["flee", "facing"]
    assert kinds(battle, {"opportunity", "attack", "move"}) == ["opportunity", "attack", "move"]
    assert state.chars["r"].moved and state.chars["r"].square != (5, 5)


@rule("WB-MORALE-05", "WB-AMB-41", "WB-ASK-12")
def test_a_knocked_down_router_gets_up_instead_of_fleeing() -> None:
    state = make_state([char("r", (5, 5)), char("e", (5, 8), "B")])
    r = state.chars["r"]
    r.routing, r.condition = True, KNOCKED_DOWN
    state.order = ["r"]
    battle = make_battle(state, [])
    asked = record(battle)
    game.movement_phase(state, battle)
    assert [(d.kind, [str(o) for o in d.options]) for d in asked] == [
        ("movement", ["stand", "stay-down"])]
    assert r.condition == "standing" and r.square == (5, 5)
    battle = make_battle(state, [])
    r.reset_turn()
    game.movement_phase(state, battle)  # next turn it flees
    assert events(battle, "move")[0]["how"] == "flee"


@rule("WB-AMB-47")
@pytest.mark.parametrize("leave", [False, True])
def test_routers_leave_the_battlefield_only_under_the_option(leave: bool) -> None:
    state = make_state([char("r", (5, 1), agility=1), char("e", (5, 3), "B")],
                       options={"routers_leave_battlefield": leave})
    battle = make_battle(state, [], orders={"A": ["flee 5 0"]})
    r = state.chars["r"]
    morale.flee(state, battle, r, provoke=False)
    if leave:
        assert r.condition == FLED and not r.on_map and (5, 0) not in state.at
        assert [e["who"] for e in events(battle, "fled")] == ["r"]
        assert state.standing_count("A") == 0
    else:
        assert r.on_map and r.square == (5, 0) and events(battle, "fled") == []


@rule("WB-MORALE-07", "WB-MORALE-13", "WB-MORALE-10", "WB-AMB-44", "WB-AMB-46")
def test_several_triggers_give_one_test_and_each_is_exposed_once() -> None:
    state = company(char("h2", (3, 3), kind="hero"), char("h3", (3, 9), kind="hero"))
    battle = make_battle(state, [3, 3])
    incapacitate(state, battle, state.chars["cap"], "test")
    incapacitate(state, battle, state.chars["h2"], "test")
    morale.morale_tests(state, battle)
    assert morale_log(battle) == [("m", ["captain", "hero:cap", "hero:h2"], True),
                                ("h3", ["captain", "last_hero"], True)]
    morale.morale_tests(state, battle)  # nothing new: no test (no die left to roll)
    assert len(events(battle, "morale")) == 2


@rule("WB-MORALE-07", "WB-AMB-44")
def test_a_routing_character_is_marked_exposed_without_a_test() -> None:
    state = company()
    m = state.chars["m"]
    m.routing = True
    battle = make_battle(state, [2])
    incapacitate(state, battle, state.chars["cap"], "test")
    assert m.pending == set() and m.exposed == {"captain", "hero:cap"}
    morale.morale_tests(state, battle)
    assert events(battle, "morale") == []
    m.routing = False  # rallied: the old triggers stay exposed; only the repeating one counts
    morale.morale_tests(state, battle)
    assert morale_log(battle) == [("m", ["no_heroes"], True)]


@rule("WB-MORALE-08", "WB-MORALE-12", "WB-AMB-45")
def test_the_captain_routing_tests_the_others_but_not_the_captain() -> None:
    state = company(char("h2", (9, 1), kind="hero"))
    state.order = ["cap", "h2", "m"]
    cap = state.chars["cap"]
    battle = make_battle(state, [9, 2, 2])
    cap.pending.add("terror")
    morale.morale_tests(state, battle)
    # the Captain fails and routs; h2 (the last Hero now) and m test in the same Aftermath
    assert morale_log(battle) == [("cap", ["terror"], False), ("h2", ["captain", "last_hero"], True),
                                ("m", ["captain"], True)]
    assert "captain" not in cap.exposed and cap.pending == set()


@rule("WB-MORALE-08", "WB-AMB-45")
def test_the_captains_fall_does_not_test_the_captain_itself() -> None:
    state = company(char("h2", (9, 1), kind="hero"))
    battle = make_battle(state, [])
    cap = state.chars["cap"]
    incapacitate(state, battle, state.chars["h2"], "test")
    assert cap.pending == set()  # another Hero's fall is no trigger for a Hero
    incapacitate(state, battle, cap, "test")
    assert "captain" not in cap.pending and "captain" in state.chars["m"].pending


@rule("WB-MORALE-09", "WB-AMB-45", "WB-AMB-35")
@pytest.mark.parametrize(("enemy_at", "wounds", "kind", "tests"), [
    ((5, 4), 0, "hero", True),  # rear arc (facing N = +y), on 0 Wounds
    ((4, 4), 0, "hero", True),  # rear diagonal
    ((4, 5), 0, "hero", False),  # side: not flanked
    ((5, 6), 0, "hero", False),  # front
    ((5, 4), 1, "hero", False),  # Wounds left
    ((5, 4), 0, "minion", False),  # only Heroes have this trigger
])
def test_a_hero_on_zero_wounds_tests_when_flanked(enemy_at: tuple[int, int], wounds: int,
                                                   kind: str, tests: bool) -> None:
    state = make_state([char("h", (5, 5), kind=kind, captain=kind == "hero", wounds=2),
                        char("x", (0, 11), kind="hero" if kind == "minion" else "minion",
                             captain=kind == "minion"),
                        char("e", enemy_at, "B", kind="hero", captain=True)])
    state.chars["h"].wounds = wounds
    battle = make_battle(state, [1])
    morale.morale_tests(state, battle)
    assert [t[0] for t in morale_log(battle)] == (["h"] if tests else [])
    if tests:
        assert morale_log(battle)[0][1] == ["flanked"]


@rule("WB-MORALE-10", "WB-AMB-45")
def test_last_hero_standing_needs_a_side_that_began_with_two_heroes() -> None:
    state = make_state([char("h1", (1, 1), kind="hero"), char("h2", (3, 3), kind="hero",
                                                            captain=True),
                        char("e", (11, 11), "B", kind="hero", captain=True)])
    battle = make_battle(state, [2])
    incapacitate(state, battle, state.chars["h1"], "test")
    morale.morale_tests(state, battle)
    assert morale_log(battle) == [("h2", ["last_hero"], True)]
    morale.morale_tests(state, battle)  # exposed: not again
    assert len(events(battle, "morale")) == 1
    alone = make_state([char("h", (1, 1), kind="hero", captain=True), char("m", (3, 3)),
                        char("e", (11, 11), "B", kind="hero", captain=True)])
    battle = make_battle(alone, [])
    morale.morale_tests(alone, battle)
    assert events(battle, "morale") == []


@rule("WB-MORALE-11", "WB-MORALE-15", "WB-AMB-45", "WB-AMB-54")
def test_a_terror_charge_triggers_heroes_and_minions_once() -> None:
    state = make_state([char("h", (5, 5), kind="hero", captain=True), char("m", (8, 5)),
                        char("t", (5, 1), "B", traits=["terror"]),
                        char("u", (8, 1), "B", traits=["terror"]),
                        char("v", (5, 9), "B", traits=["terror"]),
                        char("plain", (11, 11), "B", kind="hero", captain=True)])
    battle = make_battle(state, [])
    h, m = state.chars["h"], state.chars["m"]
    movement.charge(state, battle, state.chars["t"], h)
    movement.charge(state, battle, state.chars["u"], m)
    assert h.pending == {"terror"} and m.pending == {"terror"}
    battle = make_battle(state, [4, 4])
    morale.morale_tests(state, battle)
    assert morale_log(battle) == [("h", ["terror"], True), ("m", ["terror"], True)]
    # a later charge by another Terror enemy is the same trigger: exposed, no new test
    movement.charge(state, battle, state.chars["v"], h)
    assert h.pending == set() and "terror" in h.exposed


@rule("WB-MORALE-11")
def test_a_charge_without_terror_is_no_trigger() -> None:
    state = make_state([char("h", (5, 5), kind="hero", captain=True),
                        char("c", (5, 1), "B")])
    battle = make_battle(state, [])
    movement.charge(state, battle, state.chars["c"], state.chars["h"])
    assert state.chars["h"].pending == set()


@rule("WB-MORALE-13", "WB-AMB-46")
def test_each_hero_incapacitated_is_a_new_trigger_for_minions_of_its_side() -> None:
    state = company(char("h2", (3, 3), kind="hero"), char("h3", (3, 9), kind="hero"),
                    char("eh", (10, 11), "B", kind="hero"),
                    char("em", (9, 11), "B"))
    battle = make_battle(state, [1] * 5)
    incapacitate(state, battle, state.chars["h2"], "test")
    incapacitate(state, battle, state.chars["eh"], "test")
    morale.morale_tests(state, battle)
    assert ("m", ["hero:h2"], True) in morale_log(battle)
    assert ("em", ["hero:eh"], True) in morale_log(battle)
    before = len(events(battle, "morale"))
    incapacitate(state, battle, state.chars["h3"], "test")
    morale.morale_tests(state, battle)
    assert morale_log(battle)[before:] == [("cap", ["last_hero"], True),
                                           ("m", ["hero:h3"], True)]


@rule("WB-MORALE-14", "WB-AMB-46", "WB-MORALE-07")
def test_no_heroes_left_repeats_every_aftermath() -> None:
    state = company()
    battle = make_battle(state, [2, 2, 2])
    incapacitate(state, battle, state.chars["cap"], "test")
    for _ in range(3):
        morale.morale_tests(state, battle)
    assert morale_log(battle) == [("m", ["captain", "hero:cap", "no_heroes"], True),
                                ("m", ["no_heroes"], True), ("m", ["no_heroes"], True)]


@rule("WB-MORALE-14", "WB-AMB-46")
def test_a_routing_hero_is_no_hero_left() -> None:
    state = company()
    state.chars["cap"].routing = True
    battle = make_battle(state, [2])
    morale.morale_tests(state, battle)
    assert morale_log(battle) == [("m", ["no_heroes"], True)]


@rule("WB-AMB-55", "WB-MORALE-12")
def test_a_side_without_heroes_has_no_captain_trigger() -> None:
    state = make_state([char("m1", (1, 1)), char("m2", (3, 3)), char("e", (11, 11), "B", kind="hero", captain=True)])
    assert state.captain("A") is None
    battle = make_battle(state, [])
    incapacitate(state, battle, state.chars["m1"], "test")
    assert state.chars["m2"].pending == set()
