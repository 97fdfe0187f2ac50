"""Walls and gates of dnd35-wars (W35-AMB-45, scenario `barrier`): nobody but their holders
enters an intact section; a breached section opens the way."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import creature, get, make_battle, make_state, single, unit
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import actions, combat, damage, movement, singles, tables

WALL_Y = 10


def wall(sid: str = "wall", x0: int = 0, x1: int = 19, *, gate: bool = False,
         held_by: str | None = "A", hp: int = 30, hardness: int = 5) -> dict[str, Any]:
    """A stone wall section along y = 10 from x0 to x1."""
    return {"id": sid, "rect": [[x0, WALL_Y], [x1, WALL_Y]], "type": "light_stone", "hp": hp,
            "hardness": hardness, "barrier": True, "gate": gate, "held_by": held_by}


def troop(uid: str, side: str, sq: tuple[int, int]) -> dict[str, Any]:
    return unit(uid, side, [sq], count=tables.capacity("medium", 15))


def judge(state: Any, uid: str, text: str) -> Order | Refusal:
    return movement.judge_move(state, get(state, uid), Order.parse(text))


@pytest.mark.rule("W35-AMB-45")
def test_an_intact_wall_bars_the_enemy_and_a_breach_lets_it_walk_through() -> None:
    state = make_state([troop("att", "B", (5, 8)), troop("def", "A", (15, 14))],
                       width=20, height=20, structures=[wall()])
    att = get(state, "att")
    assert att.rate == 4
    blocked = judge(state, "att", "move att 0,4")
    assert isinstance(blocked, Refusal) and blocked.rule == "W35-PLACE-06"
    options = {str(o) for o in movement.move_options(state, att)}
    assert "move att 0,1" in options and "move att 0,2" not in options
    battle = make_battle(state, orders={"B": ["move att 0,4"]})
    lost = damage.hit_structure(state, battle, "wall", 40, source="ram")
    assert lost == 30 and state.structure_hp["wall"] == 0  # 40 - 5 hardness, capped at 30
    assert judge(state, "att", "move att 0,4") == Order.parse("move att 0,4")
    actions.unit_action(state, battle, att)
    assert att.squares == {(5, 12)}  # through the breach, past the wall line


@pytest.mark.rule("W35-AMB-45")
def test_the_holders_stand_on_their_wall_and_move_along_it_but_cannot_charge_onto_it() -> None:
    foe = troop("foe", "B", (8, 14))
    state = make_state([troop("def", "A", (5, 8)), foe], width=20, height=20,
                       structures=[wall()])
    assert judge(state, "def", "move def 0,2") == Order.parse("move def 0,2")
    battle = make_battle(state, orders={"A": ["move def 0,2"]})
    actions.unit_action(state, battle, get(state, "def"))
    assert get(state, "def").squares == {(5, 10)}
    assert judge(state, "def", "move def 3,0") == Order.parse("move def 3,0")  # along it
    state2 = make_state([troop("def", "A", (5, 7)), troop("foe", "B", (5, 12))], width=20,
                        height=20, structures=[wall()])
    refusal = combat.charge_problem(state2, get(state2, "def"), get(state2, "foe"), 0, 4)
    assert isinstance(refusal, Refusal) and refusal.rule == "W35-AMB-45"


@pytest.mark.rule("W35-AMB-45")
def test_a_gate_lets_its_holders_charge_through_but_never_the_enemy() -> None:
    structures = [wall("west", 0, 4), wall("gate", 5, 5, gate=True), wall("east", 6, 19)]
    state = make_state([troop("def", "A", (5, 7)), troop("foe", "B", (5, 12))], width=20,
                       height=20, structures=structures)
    assert combat.charge_problem(state, get(state, "def"), get(state, "foe"), 0, 4) is None
    back = combat.charge_problem(state, get(state, "foe"), get(state, "def"), 0, -4)
    assert isinstance(back, Refusal) and back.rule == "W35-AMB-45"
    assert isinstance(judge(state, "foe", "move foe 0,-3"), Refusal)


@pytest.mark.rule("W35-AMB-45")
def test_an_enemy_creature_cannot_step_onto_the_wall_until_it_is_breached() -> None:
    state = make_state([troop("def", "A", (15, 15)), troop("att", "B", (2, 2))], width=20,
                       height=20, structures=[wall()],
                       singles=[single("ogre", "B", "monster", at=(5, 9),
                                       creature=creature("ogre", hp=30, speed=30))])
    ogre = state.singles["ogre"]
    assert not singles.passable(state, ogre, (5, 10))
    assert (5, 11) not in singles.reachable(state, ogre, (5, 9), Fraction(4))
    battle = make_battle(state)
    damage.hit_structure(state, battle, "wall", 100, source="test")
    assert [e["structure"] for e in events(battle, "breached")] == ["wall"]
    assert singles.passable(state, ogre, (5, 10))
    assert (5, 11) in singles.reachable(state, ogre, (5, 9), Fraction(4))
