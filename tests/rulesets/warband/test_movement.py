"""The Movement Phase (WB-MOVE, WB-TURN-04, WB-INJURY-03 to 08, WB-CIRC-13/14, WB-ASK-11/12)
with scripted dice."""

from __future__ import annotations

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.core.orders import Order
from warhost.rulesets.warband import combat, game, magic, movement
from warhost.rulesets.warband.attacks import (
    AttackProfile,
    defense_mods,
    resolve_attack,
    superior_skill,
)
from warhost.rulesets.warband.injury import set_condition
from warhost.rulesets.warband.state import KNOCKED_DOWN, STANDING, STUNNED

rule = pytest.mark.rule
BOW = {"name": "bow", "kind": "ranged", "strength": 4, "range": 12}
SWORD = {"name": "sword", "kind": "melee"}


def texts(options: list[Order]) -> list[str]:
    return [str(o) for o in options]


def kinds(options: list[Order]) -> set[str]:
    return {o.kind for o in options}


# ------------------------------------------------------------------------ the phase itself


@rule("WB-MOVE-01")
def test_characters_move_in_initiative_order() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    state.order = ["b", "a"]
    battle = make_battle(state, [], {"A": ["move 1 4"], "B": ["move 9 6"]})
    game.movement_phase(state, battle)
    assert [e["who"] for e in events(battle, "move")] == ["b", "a"]
    assert state.chars["a"].square == (1, 4) and state.chars["b"].square == (9, 6)


@rule("WB-MOVE-02")
@rule("WB-ASK-11")
def test_one_movement_action_from_the_list() -> None:
    climb = [{"from": [2, 1], "elevation": 2, "climb": "none"}]
    state = make_state([char("a", (1, 1), "A", agility=4), char("b", (1, 5), "B")],
                       features=climb)
    a = state.chars["a"]
    options, _ = movement.movement_choices(state, a)
    assert texts(options)[:2] == ["stay", "prone"]
    assert kinds(options) == {"stay", "prone", "move", "sprint", "charge", "climb", "jump"}
    battle = make_battle(state, [], {"A": ["move 1 2", "move 1 3"]})
    game.movement_phase(state, battle)
    game.movement_phase(state, battle)  # it has had its action this turn
    assert a.square == (1, 2) and len(events(battle, "move")) == 1


@rule("WB-MOVE-03")
def test_ending_a_move_next_to_an_enemy_engages_both() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (5, 5), "B")])
    a, b = state.chars["a"], state.chars["b"]
    assert not state.engaged(a)
    movement.take_movement(state, make_battle(state), a, Order.of("move", 4, 4))
    assert state.engaged_enemies(a) == [b] and state.engaged_enemies(b) == [a]


@rule("WB-MOVE-05")
def test_a_movement_spell_is_a_movement_action(monkeypatch: pytest.MonkeyPatch) -> None:
    cast: list[str] = []
    monkeypatch.setattr(magic, "spell_options",
                        lambda state, c, phase: [Order.of("cast", "blink")]
                        if phase == "movement" else [])
    monkeypatch.setattr(magic, "cast_order",
                        lambda state, battle, c, order: cast.append(f"{c.id} {order}"))
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    battle = make_battle(state, [], {"A": ["cast blink"]})
    game.movement_phase(state, battle)
    assert cast == ["a cast blink"] and state.chars["a"].moved


# ----------------------------------------------------------------- Attacks of Opportunity


@rule("WB-MOVE-04")
@rule("WB-CIRC-13")
@rule("WB-CIRC-14")
def test_leaving_an_engaged_enemy_provokes_a_flanking_attack_that_can_stop_the_move() -> None:
    state = make_state([char("a", (5, 5), "A", toughness=3, armour=1, wounds=1),
                        char("b", (5, 6), "B", melee=5, strength=4)])
    a = state.chars["a"]
    # b: to hit die 3 (Melee 5), damage die 2 (Strength 4); a's Defense 3 + 1 - 1 (flanked):
    # die 4 fails; Injury roll 2: Knocked down, so the move is cancelled
    battle = make_battle(state, [3, 2, 4, 2])
    movement.take_movement(state, battle, a, Order.of("move", 5, 2))
    assert events(battle, "opportunity")[0]["who"] == "b"
    assert events(battle, "attack")[0]["confirmed"] == 1
    assert a.square == (5, 5) and a.condition == KNOCKED_DOWN and a.moved
    assert events(battle, "move_cancelled")[0]["who"] == "a"
    assert battle.dice.unused == 0


@rule("WB-CIRC-13")
@rule("WB-MOVE-04")
def test_every_engaged_enemy_gets_one_attack_of_opportunity_and_may_decline() -> None:
    state = make_state([char("a", (5, 5), "A", wounds=3), char("b", (5, 6), "B"),
                        char("c", (6, 6), "B"), char("d", (4, 6), "B")])
    a = state.chars["a"]
    battle = make_battle(state, [10, 10], {"B": ["opportunity a sword", "no-opportunity",
                                                 "opportunity a sword"]})
    movement.take_movement(state, battle, a, Order.of("move", 5, 2))
    assert [e["who"] for e in events(battle, "opportunity")] == ["b", "d"]
    assert a.square == (5, 2) and battle.dice.unused == 0
    assert state.chars["b"].attacks_used == 0  # no Attack used up (WB-AMB-21)


# --------------------------------------------------------------------------------- Charge


@rule("WB-MOVE-06")
@rule("WB-MOVE-07")
def test_charge_goes_straight_at_the_enemy_at_least_two_and_at_most_agility_squares() -> None:
    state = make_state([char("a", (2, 2), "A", agility=5), char("b", (2, 6), "B"),
                        char("c", (4, 2), "B"), char("d", (9, 9), "B")])
    a = state.chars["a"]
    targets = {t.id: path for t, path in movement.charge_targets(state, a)}
    assert targets == {"b": [(2, 3), (2, 4), (2, 5)]}  # c is too near, d too far
    battle = make_battle(state)
    movement.take_movement(state, battle, a, Order.of("charge", "b"))
    assert a.square == (2, 5) and a.charged == "b"
    state.place(a, (2, 2))
    state.place(state.chars["b"], (2, 8))  # a path of 5 squares: allowed
    assert movement.charge_path(state, a, state.chars["b"]) == [(2, 3), (2, 4), (2, 5),
                                                                 (2, 6), (2, 7)]
    state.place(state.chars["b"], (2, 9))  # 6 squares: beyond Agility
    assert movement.charge_path(state, a, state.chars["b"]) is None


@rule("WB-MOVE-08")
@rule("WB-AMB-15")
def test_after_a_charge_neither_charger_nor_target_moves() -> None:
    state = make_state([char("a", (2, 2), "A"), char("b", (2, 6), "B")])
    a, b = state.chars["a"], state.chars["b"]
    battle = make_battle(state, [], {"A": ["charge b"], "B": ["move 9 9"]})
    game.movement_phase(state, battle)
    assert a.square == (2, 5) and b.square == (2, 6)
    assert b.moved and b.stand_and_shoot_ok and state.engaged_enemies(b) == [a]
    assert [e["who"] for e in events(battle, "move")] == ["a"]


@rule("WB-MOVE-09")
def test_a_charger_gets_plus_one_to_hit_and_to_damage() -> None:
    state = make_state([char("a", (2, 2), "A", melee=5, strength=4),
                        char("b", (2, 6), "B", facing="S", toughness=3, wounds=2)])
    a, b = state.chars["a"], state.chars["b"]
    battle = make_battle(state, [6, 5, 9])  # hit 6 <= 5+1, damage 5 <= 4+1, Defense fails
    movement.take_movement(state, battle, a, Order.of("charge", "b"))
    combat.take_melee(state, battle, a, Order.of("attack", "b", "sword", 1))
    attack = events(battle, "attack")[0]
    assert (attack["hit"], attack["confirmed"]) == (True, 1) and b.wounds == 1


# -------------------------------------------------------------------- Move, Sprint, Prone


@rule("WB-MOVE-17")
@rule("WB-MOVE-23")
def test_move_covers_agility_and_sprint_three_times_agility() -> None:
    state = make_state([char("a", (0, 0), "A", agility=3), char("b", (11, 11), "B")])
    options, _ = movement.movement_choices(state, state.chars["a"])
    assert Order.of("move", 3, 0) in options and Order.of("move", 4, 0) not in options
    assert Order.of("sprint", 9, 0) in options and Order.of("sprint", 10, 0) not in options
    assert Order.of("sprint", 4, 0) in options


@rule("WB-MOVE-24")
@rule("WB-AMB-22")
def test_after_a_sprint_no_attacks_at_all() -> None:
    state = make_state([char("a", (5, 5), "A", weapons=[SWORD, BOW]),
                        char("b", (5, 9), "B", weapons=[SWORD])])
    a, b = state.chars["a"], state.chars["b"]
    battle = make_battle(state)
    movement.take_movement(state, battle, a, Order.of("sprint", 5, 8))
    assert a.sprinted and state.engaged(a)
    assert combat.melee_options(state, a) == [] and combat.ranged_options(state, a) == []
    # it makes no Attack of Opportunity either: b leaves without a die rolled
    movement.take_movement(state, battle, b, Order.of("move", 5, 11))
    assert events(battle, "opportunity") == [] and b.square == (5, 11)


@rule("WB-MOVE-18")
@rule("WB-AMB-23")
def test_prone_lasts_until_the_next_turn() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    a = state.chars["a"]
    battle = make_battle(state)
    movement.take_movement(state, battle, a, Order("prone"))
    assert a.prone and a.lying and a.square == (1, 1)
    game.start_turn(state, battle)
    assert not a.prone and events(battle, "prone_ends")[0]["who"] == "a"


@rule("WB-MOVE-19")
def test_prone_gives_plus_one_defense_against_ranged_attacks() -> None:
    state = make_state([char("a", (1, 1), "A", toughness=3, wounds=2),
                        char("c", (1, 6), "B", ranged=5, weapons=[BOW])])
    a, c = state.chars["a"], state.chars["c"]
    a.prone = True
    circ = combat.ranged_circumstances(state, c, a)
    battle = make_battle(state, [3, 2, 4])  # hit, wound, Defense 4 <= 3 + 1: saved
    result = resolve_attack(state, battle, c, a, AttackProfile("bow", 4, skill="ranged"), circ)
    assert result.saved_defense == 1 and result.confirmed == 0
    assert [m.value for m in defense_mods(combat.melee_circumstances(state, c, a))] == []


@rule("WB-MOVE-20")
def test_a_prone_character_cannot_shoot() -> None:
    state = make_state([char("a", (1, 1), "A", weapons=[BOW]), char("b", (1, 6), "B")])
    a = state.chars["a"]
    assert combat.ranged_options(state, a) != []
    a.prone = True
    assert combat.ranged_options(state, a) == []


@rule("WB-MOVE-21")
def test_a_prone_character_has_minus_two_to_hit_in_melee() -> None:
    state = make_state([char("a", (1, 1), "A", melee=5), char("b", (1, 2), "B")])
    a, b = state.chars["a"], state.chars["b"]
    a.prone = True
    battle = make_battle(state, [4])  # 4 > 5 - 2: miss
    result = resolve_attack(state, battle, a, b, AttackProfile("sword", 4),
                            combat.melee_circumstances(state, a, b))
    assert not result.hit


@rule("WB-MOVE-22")
def test_attacks_against_a_prone_character_take_no_superior_skill_penalty() -> None:
    state = make_state([char("a", (1, 1), "A", melee=4),
                        char("b", (1, 2), "B", facing="S", melee=6, agility=6,
                             talents=["parry", "dodge"])])
    a, b = state.chars["a"], state.chars["b"]
    assert len(superior_skill(a, b, combat.melee_circumstances(state, a, b), None)) == 2
    b.prone = True
    assert superior_skill(a, b, combat.melee_circumstances(state, a, b), None) == []
    battle = make_battle(state, [4, 9])  # hits on Melee 4 with no penalty; damage fails
    result = resolve_attack(state, battle, a, b, AttackProfile("sword", 4),
                            combat.melee_circumstances(state, a, b))
    assert result.hit and result.wounds == 0


# ------------------------------------------------------------------------------- facing


@rule("WB-TURN-04")
@rule("WB-AMB-05")
def test_a_new_facing_after_any_move_or_only_after_move_by_option() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    a = state.chars["a"]
    battle = make_battle(state, [], {"A": ["face E"]})
    movement.take_movement(state, battle, a, Order.of("sprint", 1, 8))
    assert a.facing == "E"
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")],
                       options={"facing_change": "move_action_only"})
    a = state.chars["a"]
    battle = make_battle(state, [], {"A": ["face E", "face W"]})
    movement.take_movement(state, battle, a, Order.of("sprint", 1, 8))
    assert a.facing == "N"
    a.moved = False
    movement.take_movement(state, battle, a, Order.of("move", 1, 6))
    assert a.facing == "E"


# ---------------------------------------------------------------- Knocked down, Stunned


@rule("WB-INJURY-03")
def test_knocked_down_on_an_edge_fails_agility_and_falls() -> None:
    plateau = [{"from": [5, 5], "elevation": 2}]
    state = make_state([char("a", (5, 5), "A", agility=5, toughness=3, wounds=2),
                        char("b", (9, 9), "B")], features=plateau)
    a = state.chars["a"]
    # Agility die 9 fails; 2 squares: 1 wound, Defense die 9 fails, Ward 0 cannot save
    battle = make_battle(state, [9, 9], {"A": ["fall 4 4"]})
    set_condition(state, battle, a, KNOCKED_DOWN, "test")
    assert a.square == (4, 4) and a.wounds == 1 and a.condition == KNOCKED_DOWN
    assert events(battle, "fall")[0]["height"] == 2
    state.place(a, (5, 5))
    a.condition = STANDING
    battle = make_battle(state, [5])  # passes: stays on the edge
    set_condition(state, battle, a, KNOCKED_DOWN, "test")
    assert a.square == (5, 5) and events(battle, "fall") == []


@rule("WB-INJURY-04")
@rule("WB-ASK-12")
def test_a_knocked_down_character_may_only_stand_up_or_stay_down() -> None:
    state = make_state([char("a", (1, 1), "A"), char("b", (9, 9), "B")])
    a = state.chars["a"]
    a.condition = KNOCKED_DOWN
    options, paths = movement.movement_choices(state, a)
    assert texts(options) == ["stand", "stay-down"] and paths is None
    battle = make_battle(state, [], {"A": ["stand"]})
    game.movement_phase(state, battle)
    assert a.condition == STANDING and a.square == (1, 1) and a.moved
    assert events(battle, "stand_up")[0]["who"] == "a"


@rule("WB-INJURY-05")
@rule("WB-AMB-23")
def test_a_character_that_stays_down_counts_as_prone() -> None:
    state = make_state([char("a", (1, 1), "A", weapons=[BOW]), char("c", (1, 6), "B",
                                                                    weapons=[BOW])])
    a, c = state.chars["a"], state.chars["c"]
    a.condition = KNOCKED_DOWN
    battle = make_battle(state, [], {"A": ["stay-down"]})
    game.movement_phase(state, battle)
    assert a.condition == KNOCKED_DOWN and a.lying
    assert combat.ranged_options(state, a) == []
    assert [m.value for m in defense_mods(combat.ranged_circumstances(state, c, a))] == [1]


@rule("WB-INJURY-08")
def test_a_stunned_character_does_nothing() -> None:
    state = make_state([char("a", (5, 5), "A"), char("b", (5, 6), "B")])
    a, b = state.chars["a"], state.chars["b"]
    b.condition = STUNNED
    battle = make_battle(state, [], {"B": ["stand", "move 9 9"]})
    state.order = ["b", "a"]
    game.movement_phase(state, battle)
    assert b.square == (5, 6) and events(battle, "stand_up") == []
    assert combat.melee_options(state, b) == []
    # nor an Attack of Opportunity when a leaves
    movement.take_movement(state, battle, a, Order.of("move", 5, 2))
    assert events(battle, "opportunity") == [] and a.square == (5, 2)


@rule("WB-INJURY-04")
def test_knocked_down_before_its_own_move_it_may_only_get_up_this_turn() -> None:
    state = make_state([char("b", (5, 6), "B", melee=5, strength=4),
                        char("a", (5, 5), "A", toughness=3, wounds=1)])
    a = state.chars["a"]
    state.order = ["a", "b"]
    # b wounds a before a has moved (hit 3, damage 2, Defense 9 fails, Injury roll 1)
    battle = make_battle(state, [3, 2, 9, 1], {"A": ["stand"]})
    combat.take_melee(state, battle, state.chars["b"], Order.of("attack", "a", "sword", 1))
    assert a.condition == KNOCKED_DOWN and not a.moved
    game.movement_phase(state, battle)  # WB-AMB-41: its next Movement action gets it up
    assert a.condition == STANDING and a.square == (5, 5)


@rule("WB-CIRC-13")
def test_no_attack_of_opportunity_on_an_ethereal_mover_without_a_magic_weapon() -> None:
    blade = {"name": "blade", "kind": "melee", "magic": True}
    state = make_state([char("a", (5, 5), "A", traits=["ethereal"], wounds=3),
                        char("b", (5, 6), "B"), char("c", (4, 6), "B", weapons=[blade])])
    battle = make_battle(state, [10])  # c's magic blade strikes (and misses); b cannot
    movement.take_movement(state, battle, state.chars["a"], Order.of("move", 5, 2))
    assert [e["who"] for e in events(battle, "opportunity")] == ["c"]
    assert state.chars["a"].square == (5, 2)
