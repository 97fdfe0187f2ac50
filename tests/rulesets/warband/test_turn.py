"""The turn loop, the Aftermath and the end of the encounter (WB-TURN-01, WB-INIT-06,
WB-AFTER, WB-AMB-06/48/49/54/65, WB-MAGIC-03, WB-ASK-15/16) with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state, record
from warhost.rulesets.warband import combat, game, incidents, morale, utility
from warhost.rulesets.warband.attacks import hit_mods
from warhost.rulesets.warband.state import FLED, KNOCKED_DOWN, STUNNED, TempModifier

rule = pytest.mark.rule
BOW = {"name": "bow", "kind": "ranged", "strength": 3, "range": 12}


def leaders() -> list[dict[str, Any]]:
    """A Hero Captain for each of A and B, out of everyone's way."""
    return [char("ca", (0, 11), kind="hero", captain=True),
            char("cb", (11, 11), "B", kind="hero", captain=True)]


@rule("WB-TURN-01")
def test_each_turn_runs_the_five_phases_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    state = make_state([char("a", (1, 1)), char("b", (9, 9), "B")], options={"turn_limit": 2})
    state.turn = 0
    battle = make_battle(state)
    seen: list[tuple[int, str]] = []

    def phase(name: str) -> Any:
        return lambda s, b: seen.append((s.turn, name))

    monkeypatch.setattr(utility, "utility_phase", phase("utility"))
    for name in ("movement", "ranged", "melee"):
        monkeypatch.setattr(game, f"{name}_phase", phase(name))
    monkeypatch.setattr(game, "aftermath", phase("aftermath"))
    monkeypatch.setattr(incidents, "after_battle", lambda s, b: None)
    game.play(state, battle)
    names = ["utility", "movement", "ranged", "melee", "aftermath"]
    assert seen == [(t, n) for t in (1, 2) for n in names]
    assert [e["round"] for e in events(battle, "round_start")] == [1, 2]


@rule("WB-INIT-06", "WB-ASK-11", "WB-ASK-16")
def test_movement_and_melee_follow_the_initiative_order() -> None:
    state = make_state([char("p", (1, 1)), char("q", (1, 2), "B"), *leaders()])
    state.order = ["q", "cb", "p", "ca"]
    battle = make_battle(state)
    asked = record(battle)
    game.movement_phase(state, battle)
    assert [d.subject for d in asked if d.kind == "movement"] == ["q", "cb", "p", "ca"]
    asked.clear()
    game.melee_phase(state, battle)
    melee = [d for d in asked if d.kind == "melee"]
    assert [d.subject for d in melee] == ["q", "p"]  # the Captains are not in reach
    # WB-ASK-16: attack with the weapon at the enemy in reach, or nothing
    assert [str(o) for o in melee[0].options] == ["none", "attack p sword 1"]
    assert melee[0].side == "B"


@rule("WB-INIT-06", "WB-ASK-15")
def test_the_ranged_phase_follows_the_initiative_order() -> None:
    state = make_state([char("s1", (0, 0), weapons=[BOW]), char("s2", (6, 0), "B",
                                                               weapons=[BOW])])
    state.order = ["s2", "s1"]
    battle = make_battle(state)
    asked = record(battle)
    game.ranged_phase(state, battle)
    ranged = [d for d in asked if d.kind == "ranged"]
    assert [(d.side, d.subject) for d in ranged] == [("B", "s2"), ("A", "s1")]
    assert [str(o) for o in ranged[0].options] == ["none", "shoot s1 bow 1"]


@rule("WB-AFTER-01", "WB-AFTER-02")
def test_durations_lose_a_turn_each_aftermath_and_end_at_zero() -> None:
    state = make_state([char("a", (1, 1)), char("b", (9, 9), "B"), *leaders()])
    a = state.chars["a"]
    a.temp = [TempModifier("agility", 1, 2, "potion")]
    battle = make_battle(state)
    game.aftermath(state, battle)
    assert a.temp[0].turns == 1 and a.score("agility") == 6
    assert events(battle, "effect_ends") == []
    game.aftermath(state, battle)
    assert a.temp == [] and a.score("agility") == 5
    assert [e["effects"] for e in events(battle, "effect_ends")] == [["potion"]]


@rule("WB-AFTER-04", "WB-AMB-48", "WB-AFTER-03", "WB-INJURY-12", "WB-AMB-42")
def test_the_aftermath_steps_run_in_order() -> None:
    state = make_state([char("s", (1, 1)), char("t", (3, 1)), char("b", (9, 9), "B"),
                        *leaders()])
    state.turn = 2
    s, t = state.chars["s"], state.chars["t"]
    s.condition, s.stunned_in_turn = STUNNED, 1  # Stunned last turn: its time is over
    t.condition, t.stunned_in_turn = STUNNED, 2  # Stunned this turn: stays Stunned
    s.temp = [TempModifier("melee", 1, 1, "blessing")]
    s.pending.add("terror")
    s.encourage_bonus = 2  # Resolve 6 + 2 - 1 (Rally): the die of 7 passes only with both
    s.sprinted, s.braced, s.rallied, s.charged = True, True, True, "b"
    battle = make_battle(state, [7])
    game.aftermath(state, battle)
    order = [e["type"] for e in battle.log.events
             if e["type"] in ("effect_ends", "injury_state", "morale")]
    assert order == ["effect_ends", "injury_state", "morale"]
    assert events(battle, "morale")[0]["passed"]  # the bonus still held at step 3
    assert s.condition == KNOCKED_DOWN and t.condition == STUNNED
    # step 4: the "this turn" effects are over
    assert (s.encourage_bonus, s.sprinted, s.braced, s.rallied, s.charged) == (
        0, False, False, False, None)


@rule("WB-AFTER-04", "WB-AMB-48", "WB-AMB-44")
def test_each_morale_test_is_followed_by_its_rout_move() -> None:
    state = make_state([char("x", (5, 5)), char("y", (6, 5)), char("b", (5, 8), "B"),
                        *leaders()])
    state.order = ["x", "y", "b", "ca", "cb"]
    state.chars["x"].pending.add("terror")
    state.chars["y"].pending.add("terror")
    battle = make_battle(state, [9, 2])
    game.aftermath(state, battle)
    seq = [(e["type"], e.get("who")) for e in battle.log.events
           if e["type"] in ("morale", "rout", "move")]
    assert seq == [("morale", "x"), ("rout", "x"), ("move", "x"), ("morale", "y")]


# -- the end of the encounter ---------------------------------------------------------------

def ended(state: Any, limit: int = 100) -> tuple[bool, str | None]:
    game.check_end(state, make_battle(state), limit)
    return state.over, state.winner


@rule("WB-AMB-49")
@pytest.mark.parametrize("how", ["incapacitated", "routing", "fled"])
def test_a_side_with_nobody_left_loses(how: str) -> None:
    state = make_state([char("a", (1, 1)), char("b", (5, 5), "B")])
    b = state.chars["b"]
    assert ended(state) == (False, None)
    if how == "routing":
        b.routing = True
    else:
        b.condition = "incapacitated" if how == "incapacitated" else FLED
        state.remove(b)
    assert ended(state) == (True, "A")
    assert game.outcome(state).winner == "A"


@rule("WB-AMB-49")
def test_both_sides_out_at_once_is_a_draw() -> None:
    state = make_state([char("a", (1, 1)), char("b", (5, 5), "B")])
    state.chars["a"].routing = state.chars["b"].routing = True
    assert ended(state) == (True, None)


@rule("WB-AMB-49")
def test_with_three_sides_the_last_one_left_wins() -> None:
    state = make_state([char("a", (1, 1)), char("b", (5, 5), "B"), char("c", (9, 9), "C")])
    state.chars["c"].routing = True
    assert ended(state) == (False, None)
    state.chars["b"].routing = True
    assert ended(state) == (True, "A")


@rule("WB-AMB-49")
def test_at_the_turn_limit_more_characters_left_wins_equal_is_a_draw() -> None:
    chars = [char("a", (1, 1)), char("a2", (2, 1)), char("a3", (3, 1)), char("b", (5, 5), "B"),
             char("b2", (6, 5), "B")]
    state = make_state(chars, options={"turn_limit": 3})
    state.turn = 2
    assert ended(state, 3) == (False, None)
    state.turn = 3
    assert ended(state, 3) == (True, "A")
    assert state.reason == "turn limit 3"
    state = make_state(chars, options={"turn_limit": 3})
    state.turn = 3
    state.chars["a3"].routing = True  # a Router does not count
    assert ended(state, 3) == (True, None)


# -- engagement, floors, tags ---------------------------------------------------------------

@rule("WB-AMB-06")
@pytest.mark.parametrize(("at", "level", "engaged"), [
    ((5, 6), 0, True), ((6, 6), 1, True), ((5, 6), 2, False), ((5, 7), 0, False)])
def test_adjacent_enemies_within_one_level_are_engaged(at: tuple[int, int], level: int,
                                                       engaged: bool) -> None:
    feature = {"from": list(at), "terrain": "clear", "elevation": level}
    state = make_state([char("a", (5, 5)), char("b", at, "B")], features=[feature])
    a, b = state.chars["a"], state.chars["b"]
    assert state.engaged(a) is engaged and state.engaged(b) is engaged
    state.place(b, (9, 9))
    assert not state.engaged(a)


@rule("WB-AMB-65")
def test_no_score_below_zero_and_wounds_at_least_one() -> None:
    state = make_state([char("a", (1, 1), wounds=1), char("b", (5, 5), "B")])
    a = state.chars["a"]
    a.temp = [TempModifier("agility", -9, 2, "curse"), TempModifier("wounds", -3, 2, "curse")]
    assert a.score("agility") == 0 and a.max_wounds == 1
    assert game.check_invariants(state, []) == []
    a.wounds = 2
    assert game.check_invariants(state, []) == ["a has 2 of 1 Wounds"]


@rule("WB-AMB-54")
def test_traits_are_tags_with_no_effect_beyond_the_catalog() -> None:
    tags = ["fear", "fearless", "hatred", "stupidity"]
    lead = {"kind": "hero", "captain": True}
    plain = make_state([char("a", (5, 5), **lead), char("b", (5, 6), "B", **lead)])
    tagged = make_state([char("a", (5, 5), traits=tags, **lead),
                         char("b", (5, 6), "B", traits=tags, **lead)])
    assert tagged.chars["a"].traits == frozenset(tags)
    def mods(state: Any) -> list[tuple[str, int]]:
        a, b = state.chars["a"], state.chars["b"]
        return [(m.name, m.value) for m in hit_mods(a, b, combat.melee_circumstances(
            state, a, b))]

    assert mods(tagged) == mods(plain)
    # a Fearless character still tests Morale; standing next to a Fear enemy adds no trigger
    tagged.chars["a"].pending.add("terror")
    battle = make_battle(tagged, [2])
    morale.morale_tests(tagged, battle)
    assert [(e["who"], e["triggers"]) for e in events(battle, "morale")] == [("a", ["terror"])]


@rule("WB-INIT-06", "WB-ASK-18")
@pytest.mark.parametrize("order", [["m", "ally", "e", "f", "b"], ["f", "b", "e", "m", "ally"]])
def test_a_dispel_does_not_wait_for_the_initiative_order(order: list[str]) -> None:
    from tests.rulesets.warband.test_magic import cast, duel

    state = duel()
    state.order = order
    battle = make_battle(state, [3, 9])
    asked = record(battle)
    cast(state, battle, "m", "cast bolt b base")
    dispel = [d for d in asked if d.kind == "dispel"]
    # asked at once, of the enemy side, listing every eligible Mage whatever the order
    assert [(d.side, [str(o) for o in d.options]) for d in dispel] == [
        ("B", ["no-dispel", "dispel e", "dispel f"])]


@rule("WB-MAGIC-03", "WB-AMB-62")
def test_a_circuit_changes_the_profile_with_no_action_and_no_test() -> None:
    entry = char("m", (5, 5), kind="hero", captain=True, magic=3)
    entry["circuits"] = [{"name": "iron skin", "scores": {"toughness": 1, "agility": -9}}]
    state = make_state([entry, char("b", (9, 9), "B", kind="hero", captain=True)])
    m = state.chars["m"]
    assert m.circuits == ("iron skin",)  # carried as a tag
    assert m.score("toughness") == 4 and m.score("agility") == 0  # on all the time, floor 0
    assert not m.is_mage  # a Circuit is no Spell (WB-AMB-62)
    from warhost.rulesets.warband import magic

    assert all(magic.spell_options(state, m, p) == [] for p in ("movement", "ranged", "melee"))
    battle = make_battle(state, [])  # no die may be rolled
    asked = record(battle)
    utility.utility_phase(state, battle)
    game.movement_phase(state, battle)
    assert not any("iron" in str(o) for d in asked for o in d.options)
