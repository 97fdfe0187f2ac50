"""Where the part-2 pieces of dnd35-wars meet: spells aimed at war machines (W35-SIEGE-03,
W35-AMB-97), spell modifiers on a lone creature's AC and damage (W35-MAGIC-04), and walls
wherever a counter is put down (W35-AMB-45)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events
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
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import (
    conditions,
    damage,
    machines,
    magic,
    morale,
    movement,
    singles,
    ucast,
)
from warhost.rulesets.dnd35_wars.arrivals import reinforcements
from warhost.rulesets.dnd35_wars.state import WarState

BIG = {"name": "big_spell", "level": 4, "effect": "damage", "range": "long", "damage": "4d6"}
MISSILE = {"name": "magic_missile", "level": 1, "effect": "damage", "range": "medium",
           "damage": "1d4+1"}
FIREBALL = {"name": "fireball", "level": 3, "effect": "damage", "range": "long",
            "area": {"shape": "circle", "feet": 20}, "save": "ref", "on_save": "half",
            "damage_per_level": "1d6", "level_cap": 10}
HOLD = {"name": "hold_person", "level": 3, "effect": "hinder", "speed": "zero",
        "range": "medium", "save": "will", "duration_per_level": 1}
CLOSE = {"name": "shocking_touch", "level": 1, "effect": "damage", "range": "touch",
         "damage": "1d6"}
SPELLS = [BIG, MISSILE, FIREBALL, HOLD, CLOSE]


def wizard(*names: str, caster_level: int = 7) -> dict[str, Any]:
    return creature("wizard", hp=20, ac=12, level=caster_level, caster_level=caster_level,
                    casting_modifier=3, spells=[{"spell": n} for n in names])


def siege_field(*names: str, at: tuple[int, int] = (11, 10)) -> WarState:
    """Wizard ``w`` (side A) at ``at``; ballista unit ``g`` (side B), a 3x3 block on
    (10..12, 14..16) with its weapon on the middle counter (11, 15)."""
    return make_state([unit("g", "B", squares=block(10, 14, 3, 3), siege_weapon="ballista"),
                       unit("a", "A", squares=[(30, 5)])],
                      singles=[single("w", "A", "monster", at=at, creature=wizard(*names))],
                      spells=SPELLS)


def judged(state: WarState, text: str) -> Order | Refusal | None:
    order = Order.parse(text)
    return magic.judge_cast(state, who(state, str(order.args[0])), order)


def rule_of(result: object) -> str:
    assert isinstance(result, Refusal), result
    return str(result.rule)


# ---- spells at a war machine


@pytest.mark.rule("W35-SIEGE-03", "W35-AMB-97", "W35-AMB-88", "W35-SIEGE-04")
def test_a_targeted_damage_spell_strikes_the_weapon_inside_its_unit_less_hardness() -> None:
    state = siege_field("big_spell")
    w = who(state, "w")
    order = Order.parse("cast w big_spell machine:g")
    assert order in magic.cast_options(state, w)  # over the unit's own front counters
    battle = make_battle(state, dice=[6, 5, 4, 3])  # 4d6 = 18, less hardness 5
    magic.take_cast(state, battle, w, order)
    assert state.machines["g"].hp == 80 - 13
    assert get(state, "g").hp == get(state, "g").start_hp  # the unit is not touched
    assert events(battle, "spell_at_machine")[0]["per"] == 18
    assert not events(battle, "save")  # an object makes no save


@pytest.mark.rule("W35-AMB-88", "W35-SIEGE-03")
def test_a_spell_below_the_hardness_does_nothing_and_a_strong_one_destroys_it() -> None:
    state = siege_field("magic_missile", "big_spell")
    battle = make_battle(state, dice=[4, 6, 6, 6, 6])
    magic.take_cast(state, battle, who(state, "w"), Order.parse("cast w magic_missile machine:g"))
    assert state.machines["g"].hp == 80 and events(battle, "machine_unharmed")  # 5 - 5
    state.machines["g"].hp = 10
    who(state, "w").last_cast.clear()
    magic.take_cast(state, battle, who(state, "w"), Order.parse("cast w big_spell machine:g"))
    assert machines.machine_of(state, "g") is None and "siege_weapon_lost" in get(
        state, "g").pending


@pytest.mark.rule("W35-AMB-97", "W35-MAGIC-06", "W35-MAGIC-07", "W35-SIEGE-03")
def test_only_a_targeted_damage_spell_in_range_reaches_an_enemy_machine() -> None:
    state = siege_field("fireball", "hold_person", "shocking_touch", "big_spell")
    assert rule_of(judged(state, "cast w fireball machine:g")) == "W35-AMB-97"
    assert rule_of(judged(state, "cast w hold_person machine:g")) == "W35-AMB-97"
    assert rule_of(judged(state, "cast w shocking_touch machine:g")) == "W35-MAGIC-07"
    assert rule_of(judged(state, "cast w big_spell machine:a")) == "W35-SIEGE-03"
    listed = {str(o) for o in magic.cast_options(state, who(state, "w"))}
    assert "cast w big_spell machine:g" in listed
    assert not {t for t in listed if "machine:" in t and "big_spell" not in t}
    own = make_state([unit("g", "A", squares=block(10, 14, 3, 3), siege_weapon="ballista"),
                      unit("b", "B", squares=[(30, 5)])],
                     singles=[single("w", "A", "monster", at=(11, 10),
                                     creature=wizard("big_spell"))], spells=SPELLS)
    assert rule_of(judged(own, "cast w big_spell machine:g")) == "W35-SIEGE-03"


@pytest.mark.rule("W35-SIEGE-03", "W35-TOWER-16", "W35-AMB-46")
def test_a_spell_may_strike_a_siege_tower_whose_unit_has_total_cover() -> None:
    archers = creature("archer", hp=6, ac=12,
                       ranged=[{"bonus": 3, "damage": "1d6", "range_increment": 60}])
    state = make_state([unit("tw", "B", [(11, 15)], count=70, creature=archers,
                             siege_tower=True), unit("a", "A", squares=[(30, 5)])],
                       singles=[single("w", "A", "monster", at=(11, 10),
                                       creature=wizard("big_spell"))], spells=SPELLS)
    assert rule_of(judged(state, "cast w big_spell tw")) == "W35-AMB-46"  # the unit is hidden
    battle = make_battle(state, dice=[6, 6, 6, 6])
    magic.take_cast(state, battle, who(state, "w"), Order.parse("cast w big_spell machine:tw"))
    assert machines.machine_of(state, "tw").hp == 100 - 19  # type: ignore[union-attr]
    assert get(state, "tw").hp == 42


# ---- spell modifiers on a lone creature's AC and damage (W35-MAGIC-04)

BARKSKIN = {"name": "barkskin", "level": 2, "effect": "buff", "stat": "ac", "amount": 3,
            "range": "touch", "duration": 10}
MIGHT = {"name": "might", "level": 1, "effect": "buff", "stat": "damage", "amount": 2,
         "range": "touch", "duration": 10}
WEAKEN = {"name": "weaken", "level": 1, "effect": "penalty", "stat": "damage", "amount": -4,
          "range": "close", "save": "will", "duration": 10}


def duel() -> WarState:
    """Wizard ``w`` (side A, AC 12, a +2 dagger 1d4) beside ogre ``o`` (side B, AC 14, +8
    greatclub 2d8+7), unit ``b`` of side B to its west."""
    w = wizard("barkskin", "might", "weaken")
    w["melee"] = [{"name": "dagger", "bonus": 2, "damage": "1d4"}]
    ogre = creature("ogre", hp=30, ac=14, will=0, melee=[{"bonus": 8, "damage": "2d8+7"}])
    return make_state([unit("b", "B", squares=[(9, 10)]), unit("a", "A", squares=[(30, 5)])],
                      singles=[single("w", "A", "monster", at=(10, 10), creature=w),
                               single("o", "B", "monster", at=(10, 11), creature=ogre)],
                      spells=[BARKSKIN, MIGHT, WEAKEN])


def cast_now(state: WarState, text: str, dice: list[int]) -> None:
    order = Order.parse(text)
    caster = who(state, str(order.args[0]))
    assert magic.judge_cast(state, caster, order) == order
    magic.take_cast(state, make_battle(state, dice=dice), caster, order)
    caster.last_cast.clear()


@pytest.mark.rule("W35-MAGIC-04", "W35-SPELL-02")
def test_a_buff_to_a_creatures_ac_counts_against_creatures_and_units() -> None:
    state = duel()
    cast_now(state, "cast w barkskin w", [])
    battle = make_battle(state, dice=[6, 3, 3])  # 6 + 8 = 14: hits AC 12, misses 15
    singles.attack(state, battle, who(state, "o"), "w")
    hit = events(battle, "attack")[0]
    assert (hit["total"], hit["ac"], hit["hit"]) == (14, 15, False)
    assert who(state, "w").hp == 20
    battle = make_battle(state, dice=[10])
    damage.unit_attacks_single(state, battle, get(state, "b"), who(state, "w"), ranged=False)
    assert events(battle, "attack")[0]["ac"] == 15  # a unit's blows meet it too
    state.round = 12  # the buff is over
    assert damage.single_ac(who(state, "w"), state) == 12


@pytest.mark.rule("W35-MAGIC-04", "W35-SPELL-02")
def test_a_buff_or_penalty_to_a_creatures_damage_counts_on_its_blows() -> None:
    state = duel()
    cast_now(state, "cast w might w", [])
    battle = make_battle(state, dice=[15, 3])  # 15 + 2 hits AC 14; 1d4 = 3, +2
    singles.attack(state, battle, who(state, "w"), "o")
    assert who(state, "o").hp == 30 - 5
    cast_now(state, "cast w weaken o", [2])  # Will 0 + 2 fails DC 14
    battle = make_battle(state, dice=[15, 1, 1])  # 2d8+7 = 9, -4
    singles.attack(state, battle, who(state, "o"), "w")
    assert who(state, "w").hp == 20 - 5


# ---- walls wherever a counter is put down (W35-AMB-45)


def wall_at(y: int, held_by: str, x0: int = 0, x1: int = 19) -> dict[str, Any]:
    """An intact stone wall section along row ``y``."""
    return {"id": f"wall{y}", "rect": [[x0, y], [x1, y]], "type": "light_stone", "hp": 60,
            "hardness": 8, "barrier": True, "held_by": held_by}


def late_unit(**fields: Any) -> dict[str, Any]:
    entry = unit("late", "A", count=40, enters_round=2, enters_edge="south", columns=2,
                 **fields)
    del entry["counters"]
    return entry


@pytest.mark.rule("W35-AMB-45", "W35-AMB-95")
@pytest.mark.parametrize("holder, arrives", [("B", False), ("A", True)])
def test_a_reinforcement_never_enters_onto_the_enemys_wall(holder: str, arrives: bool) -> None:
    state = make_state([unit("a", squares=[(2, 5)]), unit("b", "B", squares=[(2, 25)]),
                        late_unit()], width=20, structures=[wall_at(0, holder)])
    state.order = ["a", "b"]
    state.initiative = {"a": 12, "b": 8}
    state.round = 2
    battle = make_battle(state, dice=[10])
    reinforcements(state, battle)  # every square of the south edge is wall
    late = get(state, "late")
    assert bool(late.squares) is arrives
    assert bool(events(battle, "reinforcement_delayed")) is not arrives


def merging(wall_holder: str) -> WarState:
    """Units ``a`` (5,9) and ``p`` (6,9) of side A, 1 counter each of 10 and 13 HP, both
    hurt; their merger needs 3 counters (23 HP at 11 a counter), one more square than they
    hold. A wall runs along y = 8."""
    state = make_state([unit("a", squares=[(5, 9)]), unit("p", squares=[(6, 9)]),
                        unit("b", "B", squares=[(15, 25)])],
                       width=20, structures=[wall_at(8, wall_holder)])
    a, p = get(state, "a"), get(state, "p")
    a.counter_hp, a.start_hp, a.hp = 10, 20, 10
    p.counter_hp, p.start_hp, p.hp = 13, 26, 13
    return state


@pytest.mark.rule("W35-AMB-45", "W35-UMOVE-10")
def test_a_regroup_grows_its_formation_off_the_enemys_wall() -> None:
    for holder, grown in (("B", (4, 9)), ("A", (5, 8))):
        state = merging(holder)
        order = Order.parse("regroup a p 0,0")
        battle = make_battle(state, orders={"A": [str(order)]})
        movement.take_regroup(state, battle, get(state, "a"), order)
        assert get(state, "a").squares == {(5, 9), (6, 9), grown}, holder


@pytest.mark.rule("W35-AMB-45", "W35-AMB-27", "W35-ABIL-09")
def test_a_restored_counter_is_never_put_on_the_enemys_wall() -> None:
    state = merging("B")
    a = get(state, "a")
    assert all(sq[1] != 8 for sq in morale.restore_squares(state, a))
    gain, placed = morale.restore_hp(state, make_battle(state), a, 10)
    assert gain == 10 and placed and placed[0][1] != 8
    own = merging("A")  # its own side's wall takes the counter, rearmost first
    assert morale.restore_squares(own, get(own, "a"))[0] == (5, 8)


@pytest.mark.rule("W35-AMB-45", "W35-SPELL-12", "W35-AMB-57")
def test_a_returning_counter_finds_a_square_off_the_enemys_wall() -> None:
    state = merging("B")
    a = get(state, "a")
    state.place(get(state, "p"), {(5, 10)})  # its old square taken; the nearest are walls too
    assert conditions._free(state, a, (5, 9), set(), walls=False) is False  # a stands there
    assert conditions._free(state, a, (4, 8), set()) is False
    assert conditions._free(state, a, (4, 9), set()) is True


# ---- a lone creature and a unit under cover (W35-AMB-45/46)


@pytest.mark.rule("W35-AMB-46", "W35-TOWER-16")
def test_a_creature_beside_a_closed_tower_strikes_the_tower_not_the_hidden_unit() -> None:
    archers = creature("archer", hp=6, ac=12,
                       ranged=[{"bonus": 3, "damage": "1d6", "range_increment": 60}])
    state = make_state([unit("tw", "B", [(5, 5)], count=70, creature=archers,
                             siege_tower=True), unit("a", "A", squares=[(30, 5)])],
                       singles=[single("ogre", "A", "monster", at=(6, 6)),
                                single("far", "A", "monster", at=(5, 9))])
    targets = {str(o) for o in singles.turn_options(state, who(state, "ogre"))}
    assert "sattack ogre machine:tw" in targets and "sattack ogre tw" not in targets
    charges = {str(o) for o in singles.turn_options(state, who(state, "far"))}
    assert not any(t.startswith("scharge far tw ") for t in charges)
    get(state, "tw").exposed = True  # it shot through its slits since its last turn
    assert "sattack ogre tw" in {str(o) for o in singles.turn_options(state, who(state, "ogre"))}


@pytest.mark.rule("W35-AMB-46", "W35-UCAST-04")
def test_a_casting_unit_cannot_aim_at_a_closed_tower_until_it_shoots() -> None:
    mages = creature("apprentice", caster_level=3, casting_modifier=3,
                     spells=[{"spell": "magic_missile", "uses": 2}])
    archers = creature("archer", hp=6, ac=12,
                       ranged=[{"bonus": 3, "damage": "1d6", "range_increment": 60}])
    state = make_state([unit("mages", squares=[(5, 5)], creature=mages),
                        unit("tw", "B", [(5, 9)], count=70, creature=archers,
                             siege_tower=True)],
                       options={"units_cast_spells": True}, spells=SPELLS)
    verdict = ucast.judge(state, get(state, "mages"), Order.parse("ucast mages magic_missile tw"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-AMB-46"
    assert not ucast.options(state, get(state, "mages"))
    get(state, "tw").exposed = True
    assert {str(o) for o in ucast.options(state, get(state, "mages"))} == {
        "ucast mages magic_missile tw"}


@pytest.mark.rule("W35-SIEGE-03", "W35-AMB-97", "W35-MAGIC-02")
def test_an_embedded_caster_aims_over_its_own_unit_and_a_long_cast_is_lost_with_the_machine(
        ) -> None:
    slow = {"name": "slow_bolt", "level": 2, "effect": "damage", "range": "long",
            "damage": "3d6", "casting_rounds": 2}
    state = make_state([unit("g", "B", squares=block(10, 14, 3, 3), siege_weapon="ballista"),
                        unit("own", "A", squares=block(9, 8, 5, 2))],
                       singles=[single("w", "A", "npc", unit="own",
                                       creature=wizard("big_spell", "slow_bolt"))],
                       spells=[*SPELLS, slow])
    w = who(state, "w")
    listed = {str(o) for o in magic.cast_options(state, w)}
    assert {"cast w big_spell machine:g", "cast w slow_bolt machine:g"} <= listed
    battle = make_battle(state)
    magic.take_cast(state, battle, w, Order.parse("cast w slow_bolt machine:g"))
    machines.destroy(state, battle, get(state, "g"))  # gone before the spell goes off
    state.round += 1
    assert magic.busy(state, battle, w)
    assert events(battle, "spell_lost") and not events(battle, "spell_at_machine")
