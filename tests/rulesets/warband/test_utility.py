"""The Utility Phase (WB-UTIL, WB-ASK-03 to 10, WB-AMB-09 to 13) with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.core.orders import Order
from warhost.rulesets.warband import magic, morale, movement, utility
from warhost.rulesets.warband.checks import take_test
from warhost.rulesets.warband.state import KNOCKED_DOWN, STUNNED, WarbandState

rule = pytest.mark.rule


def kinds(options: list[Order]) -> set[str]:
    return {o.kind for o in options}


def texts(options: list[Order]) -> list[str]:
    return [str(o) for o in options]


def run(state: WarbandState, dice: list[int] | None = None,
        orders: dict[str, list[str]] | None = None) -> Any:
    battle = make_battle(state, dice or [], orders)
    utility.utility_phase(state, battle)
    assert battle.dice.unused == 0
    return battle


# ------------------------------------------------------------------------------ the phase


@rule("WB-UTIL-01")
@rule("WB-ASK-03")
@rule("WB-AMB-09")
def test_characters_take_utility_actions_in_initiative_order() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (8, 8), "B"),
                        char("c", (1, 3), "A")])
    state.order = ["b", "c", "a"]
    battle = run(state, orders={"A": ["rotate E", "done", "rotate W", "done"],
                                "B": ["rotate S", "done"]})
    assert [(e["who"], e["facing"]) for e in events(battle, "rotate")] == [
        ("b", "S"), ("c", "E"), ("a", "W")]


@rule("WB-UTIL-01")
@rule("WB-AMB-09")
@rule("WB-INIT-06")
def test_side_alternating_order_takes_one_character_of_each_side_in_turn() -> None:
    state = make_state([char("a1", (1, 1), "A"), char("a2", (1, 3), "A"),
                        char("a3", (1, 5), "A"), char("b1", (8, 8), "B")],
                       options={"utility_order": "side_alternating"})
    state.order = ["a1", "a2", "b1", "a3"]
    assert utility.utility_sequence(state) == ["a1", "b1", "a2", "a3"]
    state.order = ["b1", "a1", "a2", "a3"]
    assert utility.utility_sequence(state) == ["b1", "a1", "a2", "a3"]


@rule("WB-UTIL-02")
def test_the_utility_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(magic, "spell_options",
                        lambda state, c, phase: [Order.of("cast", "bless")]
                        if phase == "utility" else [])
    items = [{"name": "potion", "heal": 1}, {"name": "charm", "kind": "utility",
                                             "score": "resolve", "by": 1}]
    state = make_state([char("a", (5, 5), "A", talents=["brace"], items=items, armour=1,
                             armour_items=[{"name": "helm", "value": 1}]),
                        char("b", (5, 6), "B")])
    options = utility.utility_options(state, state.chars["a"])
    assert kinds(options) == {"brace", "disengage", "encourage", "rotate", "swap", "use",
                              "use-utility", "cast"}
    state.chars["a"].routing = True
    assert kinds(utility.utility_options(state, state.chars["a"])) <= {"rally"}


@rule("WB-UTIL-03")
@rule("WB-UTIL-04")
def test_many_different_actions_but_each_once_per_turn() -> None:
    state = make_state([char("a", (1, 1), "A", resolve=6), char("b", (9, 9), "B")])
    a = state.chars["a"]
    # encourage: Resolve 6, die 3 passes; the second rotate is no longer offered
    battle = run(state, [3], {"A": ["rotate E", "encourage", "rotate W", "done"]})
    assert a.facing == "E"
    assert len(events(battle, "rotate")) == 1 and len(events(battle, "encourage")) == 1
    assert a.utility_done == {"rotate", "encourage"}
    assert "rotate" not in kinds(utility.utility_options(state, a))
    a.reset_turn()
    assert "rotate" in kinds(utility.utility_options(state, a))


@rule("WB-UTIL-05")
@rule("WB-AMB-10")
def test_utility_items_are_used_in_the_utility_phase_only_and_not_used_up() -> None:
    item = {"name": "war horn", "kind": "utility", "score": "resolve", "by": 2, "turns": 1}
    state = make_state([char("a", (1, 1), "A", items=[item], resolve=5),
                        char("b", (9, 9), "B")])
    a = state.chars["a"]
    assert "use-utility war_horn a" in texts(utility.utility_options(state, a))
    options, _ = movement.movement_choices(state, a)
    assert not {"use", "use-utility"} & kinds(options)
    run(state, orders={"A": ["use-utility war_horn a", "done"]})
    assert a.score("resolve") == 7
    assert "use-utility" not in kinds(utility.utility_options(state, a))  # once a turn
    a.reset_turn()
    assert "use-utility war_horn a" in texts(utility.utility_options(state, a))


# ---------------------------------------------------------------------------------- Brace


@rule("WB-UTIL-06")
@rule("WB-ASK-04")
def test_only_a_character_with_the_brace_talent_may_brace() -> None:
    state = make_state([char("a", (1, 1), "A", talents=["brace"]),
                        char("c", (1, 3), "A"), char("b", (9, 9), "B")])
    assert "brace" in kinds(utility.utility_options(state, state.chars["a"]))
    assert "brace" not in kinds(utility.utility_options(state, state.chars["c"]))
    battle = run(state, orders={"A": ["brace", "done"]})
    assert state.chars["a"].braced and not state.chars["c"].braced
    assert [e["who"] for e in events(battle, "brace")] == ["a"]


@rule("WB-UTIL-07")
def test_a_braced_character_cannot_move() -> None:
    state = make_state([char("a", (1, 1), "A", talents=["brace"]), char("b", (9, 9), "B")])
    a = state.chars["a"]
    run(state, orders={"A": ["brace", "done"]})
    options, _ = movement.movement_choices(state, a)
    assert texts(options) == ["stay", "prone"]


@rule("WB-UTIL-08")
def test_charging_a_braced_character_gives_no_charge_benefits() -> None:
    from warhost.rulesets.warband import combat, game
    from warhost.rulesets.warband.attacks import damage_mods, hit_mods

    state = make_state([char("a", (2, 2), "A"), char("b", (2, 6), "B", talents=["brace"]),
                        char("c", (9, 9), "A")])
    a, b = state.chars["a"], state.chars["b"]
    run(state, orders={"B": ["brace", "done"]})
    battle = make_battle(state)
    movement.take_movement(state, battle, a, Order.of("charge", "b"))
    assert a.square == (2, 5) and a.charged == "b" and a.charge_braced
    assert events(battle, "charge")[0]["braced"] is True
    circ = combat.melee_circumstances(state, a, b)
    assert not circ.charging
    assert "charging" not in {m.name for m in hit_mods(a, b, circ)} and not damage_mods(circ)
    state.order = ["c", "b", "a"]
    assert [c.id for c in game.melee_order(state)] == ["c", "b", "a"]


# ------------------------------------------------------------------------------ Disengage


@rule("WB-UTIL-09")
def test_disengage_needs_an_engaged_character() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 7), "B")])
    assert "disengage" not in kinds(utility.utility_options(state, state.chars["a"]))


@rule("WB-UTIL-10")
@rule("WB-ASK-05")
@rule("WB-AMB-11")
def test_disengage_steps_away_from_every_adjacent_enemy_without_opportunity() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 6), "B", facing="N"),
                        char("c", (6, 6), "B", facing="NW")])
    a = state.chars["a"]
    assert utility.disengage_squares(state, a) == [(4, 4), (5, 4), (6, 4)]
    battle = run(state, orders={"A": ["disengage 4 4", "face SE", "done"]})
    assert a.square == (4, 4) and a.disengaged and a.facing == "SE"
    assert events(battle, "opportunity") == [] and events(battle, "attack") == []
    assert events(battle, "disengage")[0]["to"] == [4, 4]


@rule("WB-UTIL-10")
@rule("WB-AMB-11")
def test_no_disengage_with_no_square_to_go_or_after_bracing() -> None:
    walls = [{"from": [4, 4], "to": [6, 4], "terrain": "blocking"}]
    state = make_state([char("a", (5, 5), "A", talents=["brace"]), char("b", (5, 6), "B")],
                       features=walls)
    assert utility.disengage_squares(state, state.chars["a"]) == []
    state = make_state([char("a", (5, 5), "A", talents=["brace"]), char("b", (5, 6), "B")])
    a = state.chars["a"]
    run(state, orders={"A": ["brace", "done"]})
    assert "disengage" not in kinds(utility.utility_options(state, a))
    a.braced = False
    a.condition = KNOCKED_DOWN
    assert utility.disengage_squares(state, a) == []


@rule("WB-UTIL-11")
@rule("WB-AMB-11")
def test_after_disengaging_every_movement_distance_is_one_square_shorter() -> None:
    state = make_state([char("a", (5, 5), "A", agility=3), char("b", (5, 6), "B")])
    a = state.chars["a"]
    run(state, orders={"A": ["disengage 5 4", "done"]})
    assert movement.move_budget(a) == 2 and movement.move_budget(a, 3) == 8
    options, _ = movement.movement_choices(state, a)
    moves = [o for o in options if o.kind == "move"]
    assert Order.of("move", 5, 2) in moves and Order.of("move", 5, 1) not in moves


# ------------------------------------------------------------------------------ Encourage


def encourage_state() -> WarbandState:
    walls = [{"from": [5, 5], "to": [6, 6], "terrain": "blocking"}]
    return make_state([char("e", (0, 0), "A", resolve=6), char("near", (3, 0), "A"),
                       char("seen", (11, 0), "A"), char("hidden", (11, 11), "A"),
                       char("foe", (0, 3), "B")], features=walls)


@rule("WB-UTIL-12")
@rule("WB-UTIL-13")
@rule("WB-ASK-06")
def test_encourage_gives_allies_in_sight_or_hearing_one_plus_a_third_of_the_dos() -> None:
    state = encourage_state()
    # Resolve 6, die 2: DoS 4, bonus 1 + 1 = 2
    battle = run(state, [2], {"A": ["encourage", "done"]})
    bonus = {c.id: utility.encouragement(state, c) for c in state.chars.values()}
    assert bonus == {"e": 0, "near": 2, "seen": 2, "hidden": 0, "foe": 0}
    assert events(battle, "encourage")[0]["bonus"] == 2
    # the bonus counts in Morale tests: Resolve 6 + 2, die 8 passes
    check = make_battle(state, [8, 8])
    assert morale.morale_test(state, check, state.chars["near"], "morale")
    assert not morale.morale_test(state, check, state.chars["hidden"], "morale")


@rule("WB-UTIL-12")
def test_a_failed_encourage_gives_nothing() -> None:
    state = encourage_state()
    battle = run(state, [7], {"A": ["encourage", "done"]})
    assert all(utility.encouragement(state, c) == 0 for c in state.chars.values())
    assert events(battle, "encourage")[0]["passed"] is False


@rule("WB-UTIL-14")
def test_only_the_highest_encourage_bonus_counts() -> None:
    state = make_state([char("big", (0, 0), "A", resolve=9), char("small", (0, 2), "A",
                                                                  resolve=6),
                        char("x", (1, 1), "A"), char("foe", (9, 9), "B")])
    state.order = ["big", "small", "x", "foe"]
    # big: Resolve 9, die 1, DoS 8 -> +3; small: Resolve 6, die 5, DoS 1 -> +1
    run(state, [1, 5], {"A": ["encourage", "done", "encourage", "done"]})
    assert utility.encouragement(state, state.chars["x"]) == 3
    assert utility.encouragement(state, state.chars["big"]) == 1  # small's bonus reaches big
    assert utility.encouragement(state, state.chars["small"]) == 3


# ---------------------------------------------------------------------------------- Rally


@rule("WB-UTIL-15")
@rule("WB-ASK-07")
def test_only_a_routing_character_may_rally() -> None:
    state = make_state([char("a", (1, 1), "A"), char("c", (1, 2), "A"), char("b", (9, 9), "B")])
    assert "rally" not in kinds(utility.utility_options(state, state.chars["a"]))
    state.chars["a"].routing = True
    assert texts(utility.utility_options(state, state.chars["a"])) == ["rally"]


@rule("WB-UTIL-16")
@rule("WB-AMB-13")
def test_no_rally_when_the_nearest_characters_are_all_enemies() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 7), "B"), char("c", (8, 8), "A")])
    a = state.chars["a"]
    a.routing = True
    assert utility.utility_options(state, a) == []
    battle = run(state, orders={"A": ["rally"]})
    assert events(battle, "rally") == [] and a.routing
    state.place(state.chars["c"], (3, 5))  # an ally as near as the enemy: allowed
    assert texts(utility.utility_options(state, a)) == ["rally"]


@rule("WB-UTIL-17")
@rule("WB-AMB-13")
def test_rally_is_a_morale_test_that_ends_the_rout() -> None:
    state = make_state([char("a", (1, 1), "A", resolve=6), char("c", (1, 2), "A"),
                        char("b", (9, 9), "B")])
    a = state.chars["a"]
    a.routing = True
    run(state, [7], {"A": ["rally"]})  # die 7 > 6: still Routing
    assert a.routing and not a.rallied
    a.reset_turn()
    a.encourage_bonus = 1  # the Encourage bonus counts (WB-AMB-12): 7 now passes
    battle = run(state, [7], {"A": ["rally"]})
    assert not a.routing and a.rallied
    assert events(battle, "rally")[0]["passed"] is True


@rule("WB-UTIL-18")
@rule("WB-AMB-13")
def test_a_rallied_character_takes_minus_one_on_every_test() -> None:
    state = make_state([char("a", (1, 1), "A", resolve=6, agility=5), char("c", (1, 2), "A"),
                        char("b", (9, 9), "B")])
    a = state.chars["a"]
    a.routing = True
    battle = run(state, [6], {"A": ["rally"]})
    assert a.rallied
    check = make_battle(state, [5])
    assert not take_test(state, check, a, "agility", "test").passed  # 5 vs 5 - 1
    assert battle is not None


# ------------------------------------------------------------------- Rotate, Swap, items


@rule("WB-UTIL-19")
@rule("WB-ASK-08")
def test_rotate_turns_to_any_other_facing() -> None:
    state = make_state([char("a", (1, 1), "A", facing="N"), char("b", (9, 9), "B")])
    a = state.chars["a"]
    rotations = [o for o in utility.utility_options(state, a) if o.kind == "rotate"]
    assert texts(rotations) == [f"rotate {f}" for f in ("NE", "E", "SE", "S", "SW", "W", "NW")]
    run(state, orders={"A": ["rotate SW", "done"]})
    assert a.facing == "SW"


@rule("WB-UTIL-20")
@rule("WB-ASK-09")
def test_swap_takes_armour_off_and_never_puts_it_on() -> None:
    pieces = [{"name": "helm", "value": 1}, {"name": "chain mail", "value": 2}]
    state = make_state([char("a", (1, 1), "A", armour=3, armour_items=pieces),
                        char("b", (9, 9), "B")])
    a = state.chars["a"]
    swaps = [o for o in utility.utility_options(state, a) if o.kind == "swap"]
    assert texts(swaps) == ["swap helm", "swap chain_mail", "swap helm chain_mail"]
    battle = run(state, orders={"A": ["swap chain_mail", "done"]})
    assert a.score("armour") == 1 and [p.name for p in a.armour] == ["helm"]
    assert events(battle, "swap")[0]["removed"] == ["chain mail"]
    a.reset_turn()
    swaps = [o for o in utility.utility_options(state, a) if o.kind == "swap"]
    assert texts(swaps) == ["swap helm"]


@rule("WB-UTIL-21")
@rule("WB-ASK-10")
def test_a_consumable_goes_on_oneself_or_an_adjacent_ally_and_is_used_up() -> None:
    potion = {"name": "potion", "heal": 2, "uses": 1}
    state = make_state([char("a", (5, 5), "A", items=[potion], wounds=3),
                        char("c", (5, 6), "A", wounds=3), char("far", (8, 8), "A"),
                        char("b", (4, 4), "B")])
    a, c = state.chars["a"], state.chars["c"]
    c.wounds = 2
    uses = [o for o in utility.utility_options(state, a) if o.kind == "use"]
    assert texts(uses) == ["use potion a", "use potion c"]
    battle = run(state, orders={"A": ["use potion c", "done"]})
    assert c.wounds == 3  # healed 2, but not above its Wounds
    assert events(battle, "use_item")[0]["healed"] == 1
    assert a.uses["potion"] == 0
    a.reset_turn()
    assert "use" not in kinds(utility.utility_options(state, a))


@rule("WB-UTIL-21")
def test_a_consumable_can_raise_a_score_for_some_turns() -> None:
    from warhost.rulesets.warband import game

    elixir = {"name": "elixir", "score": "strength", "by": 2, "turns": 1, "uses": 2}
    state = make_state([char("a", (5, 5), "A", kind="hero", items=[elixir], strength=4),
                        char("b", (9, 9), "B", kind="hero")])
    a = state.chars["a"]
    battle = run(state, orders={"A": ["use elixir a", "done"]})
    assert a.score("strength") == 6 and a.uses["elixir"] == 1
    game.aftermath(state, battle)  # the modifier runs out at the turn's end
    assert a.score("strength") == 4


@rule("WB-UTIL-22")
def test_one_utility_spell_per_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    cast: list[str] = []
    monkeypatch.setattr(magic, "spell_options",
                        lambda state, c, phase: [Order.of("cast", "bless"),
                                                 Order.of("cast", "ward")])
    monkeypatch.setattr(magic, "cast_order",
                        lambda state, battle, c, order: cast.append(str(order)))
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    a = state.chars["a"]
    run(state, orders={"A": ["cast bless", "cast ward", "done"]})
    assert cast == ["cast bless"]
    assert "cast" not in kinds(utility.utility_options(state, a))


@rule("WB-UTIL-23")
def test_a_routing_character_may_only_rally() -> None:
    state = make_state([char("a", (5, 5), "A", talents=["brace"],
                             items=[{"name": "potion", "heal": 1}]),
                        char("c", (5, 4), "A"), char("b", (5, 6), "B")])
    a = state.chars["a"]
    a.routing = True
    assert texts(utility.utility_options(state, a)) == ["rally"]
    a.utility_done.add("rally")
    assert utility.utility_options(state, a) == []


@rule("WB-INJURY-08")
def test_a_stunned_character_takes_no_utility_action() -> None:
    state = make_state([char("a", (1, 1), "A", talents=["brace"]), char("b", (9, 9), "B")])
    a = state.chars["a"]
    a.condition = STUNNED
    battle = make_battle(state, [], {"A": ["brace"]})
    utility.utility_phase(state, battle)
    assert not a.braced and events(battle, "brace") == []
    assert utility.utility_options(state, a) == []
    a.routing = True  # not even Rally (WB-AMB-42)
    assert utility.utility_options(state, a) == []
