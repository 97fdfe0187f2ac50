"""Rulings checked after the whole ruleset was put together: facing after every move,
Ethereal targets of a Magic charge, edges the map marks, splitting attacks between targets,
and weapon names with spaces in orders (WB-AMB-05, 20, 26, 38)."""

from __future__ import annotations

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.core.orders import Order
from warhost.rulesets.warband import game, morale, movement
from warhost.rulesets.warband.injury import edge_drops, edge_test
from warhost.rulesets.warband.state import KNOCKED_DOWN, WarbandState

rule = pytest.mark.rule
MAGIC_SWORD = {"name": "rune blade", "kind": "melee", "magic": True}


@rule("WB-AMB-05")
def test_a_rout_move_ends_with_a_new_facing() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 8), "B", facing="S")])
    a = state.chars["a"]
    a.routing = True
    battle = make_battle(state, [], {"A": ["face S"]})
    morale.flee(state, battle, a, provoke=False)
    assert a.square is not None and a.square[1] < 5 and a.facing == "S"
    state.options = state.options.model_copy(update={"facing_change": "move_action_only"})
    battle = make_battle(state, [])
    morale.flee(state, battle, a, provoke=False)
    assert [k for _, k, _ in battle.decided if k == "facing"] == []


@rule("WB-AMB-38")
def test_only_a_magic_weapon_lets_a_character_charge_an_ethereal_enemy() -> None:
    ghost = char("g", (5, 8), "B", facing="S", traits=["ethereal"])
    plain = make_state([char("a", (5, 4), "A"), ghost])
    assert movement.charge_targets(plain, plain.chars["a"]) == []
    blessed = make_state([char("a", (5, 4), "A", weapons=[MAGIC_SWORD]), ghost])
    targets = movement.charge_targets(blessed, blessed.chars["a"])
    assert [t.id for t, _ in targets] == ["g"]


@rule("WB-AMB-20")
@rule("WB-INJURY-03")
def test_a_square_the_map_marks_as_an_edge_drops_to_any_lower_neighbour() -> None:
    ledge = [{"from": [4, 4], "to": [6, 6], "elevation": 1},
             {"from": [5, 5], "elevation": 2, "edge": True}]
    state = make_state([char("a", (5, 5), "A", agility=3), char("b", (9, 9), "B")],
                       features=ledge)
    assert edge_drops(state, (5, 5)) == [(4, 4), (4, 5), (4, 6), (5, 4), (5, 6), (6, 4),
                                         (6, 5), (6, 6)]
    unmarked = make_state([char("a", (5, 5), "A"), char("b", (9, 9), "B")],
                          features=ledge[:1] + [{"from": [5, 5], "elevation": 2}])
    assert edge_drops(unmarked, (5, 5)) == []  # a drop of 1 is no edge unless marked
    a = state.chars["a"]
    a.condition = KNOCKED_DOWN
    battle = make_battle(state, [9], {"A": ["fall 4 4"]})  # Agility 3 fails on a 9
    edge_test(state, battle, a)
    assert a.square == (4, 4)
    assert events(battle, "fall")[0]["height"] == 1  # a fall of 1 does no harm (WB-AMB-19)


def _split_state(split: bool) -> WarbandState:
    return make_state([char("a", (5, 5), "A", attacks=3, melee=9, strength=1),
                       char("b", (5, 6), "B", facing="S"), char("c", (6, 6), "B", facing="S")],
                      options={"split_attacks_between_targets": split})


@rule("WB-AMB-26")
def test_with_the_option_a_character_turns_its_attacks_left_on_another_target() -> None:
    state = _split_state(True)
    a = state.chars["a"]
    # 1 hits, then Strength 1 fails on a 10: no wound; same for the second target
    battle = make_battle(state, [1, 10, 1, 10, 1, 10],
                         {"A": ["attack b sword 1", "attack c sword 2"]})
    game.melee_phase(state, battle)
    assert [e["target"] for e in events(battle, "attack") if e["who"] == "a"] == ["b", "c", "c"]
    assert a.attacks_left == 0
    asked = [k for s, k, _ in battle.decided if s == "A"]
    assert asked == ["melee", "melee_more"]


@rule("WB-AMB-26")
def test_without_the_option_every_attack_of_an_action_has_one_target() -> None:
    state = _split_state(False)
    battle = make_battle(state, [1, 10], {"A": ["attack b sword 1"]})
    game.melee_phase(state, battle)
    assert [k for s, k, _ in battle.decided if s == "A"] == ["melee"]
    assert state.chars["a"].attacks_left == 2


def test_weapon_names_with_spaces_are_one_word_in_orders() -> None:
    state = make_state([char("a", (5, 5), "A", weapons=[MAGIC_SWORD]),
                        char("b", (5, 6), "B", facing="S")])
    from warhost.rulesets.warband import combat

    options = combat.melee_options(state, state.chars["a"])
    assert [str(o) for o in options] == ["attack b rune_blade 1"]
    assert Order.parse(str(options[0])) == options[0]
