"""The dnd35-wars AI commander: the choices it makes in set-up situations (no timings)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_state,
    single,
    unit,
    who,
)
from warhost.core.decisions import Decision
from warhost.core.orders import Order
from warhost.geometry.grid import translate, unit_distance
from warhost.rulesets.dnd35_wars import ai_judge, combat, odds, singles
from warhost.rulesets.dnd35_wars.actions import legal_actions
from warhost.rulesets.dnd35_wars.ai import WarsAI
from warhost.rulesets.dnd35_wars.state import WarState

PIKE = {"name": "longspear", "bonus": 3, "damage": "1d8", "reach": True, "crit_multiplier": 3}
BOW = {"name": "longbow", "bonus": 3, "damage": "1d8", "crit_multiplier": 3,
       "range_increment": 100}
CLUB = {"name": "club", "bonus": 0, "damage": "1d4"}


def _act(state: WarState, uid: str) -> Order:
    """The AI's unit action for ``uid`` among its legal actions."""
    u = get(state, uid)
    options = tuple(legal_actions(state, u))
    decision = Decision(u.side, "unit_action", options, "?", uid, default=options[0])
    return WarsAI().choose(decision, state)


def _ask(state: WarState, kind: str, options: tuple[Order, ...], subject: str,
         side: str = "A") -> Order:
    return WarsAI().choose(Decision(side, kind, options, "?", subject, default=options[0]),
                           state)


def _after(state: WarState, uid: str, order: Order) -> frozenset[tuple[int, int]]:
    dx, dy = (int(v) for v in str(order.args[-1]).split(","))
    return translate(get(state, uid).squares, dx, dy)


# ---- expected damage


def test_expected_damage_is_hit_chance_times_the_mean_roll_and_crits_times_the_multiplier(
) -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 1)),
                        unit("b", "B", squares=block(0, 1, 2, 1))])
    a, b = get(state, "a"), get(state, "b")
    # +4 against AC 15: 10 faces of 20 hit, 2 of them threats confirmed half the time;
    # 1d8+2 averages 6.5 and a confirmed critical doubles it: 2 counters x 6.5 x (1/2 + 1/20).
    chances = odds.hit_chances(4, 15, crit_range=19)
    assert (chances.hit, chances.crit) == (Fraction(1, 2), Fraction(1, 20))
    assert ai_judge.unit_on_unit(state, a, b, "melee", 2) == pytest.approx(2 * 6.5 * 0.55)
    # a charge adds +2: 12 faces of 20 hit, threats confirmed 12 times in 20
    assert ai_judge.unit_on_unit(state, a, b, "charge", 2) == pytest.approx(2 * 6.5 * 0.66)
    # capped at the target's HP
    assert ai_judge.unit_on_unit(state, a, b, "melee", 20) == b.hp


# ---- unit actions


def test_an_engaged_unit_fights_on_rather_than_holding_or_leaving() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 1)),
                        unit("b", "B", squares=block(0, 1, 3, 1))])
    state.engage("a", "b")
    assert str(_act(state, "a")) == "melee a b"


def test_it_charges_an_enemy_in_reach_rather_than_walking_up() -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 1)),
                        unit("b", "B", squares=block(0, 4, 2, 1))])
    order = _act(state, "a")
    assert order.kind == "charge" and order.args[1] == "b"


def test_it_closes_on_an_enemy_out_of_reach() -> None:
    state = make_state([unit("a", squares=block(0, 0, 2, 1)),
                        unit("b", "B", squares=block(0, 20, 2, 1))])
    order = _act(state, "a")
    assert order.kind == "move"
    gap = unit_distance(get(state, "a").squares, get(state, "b").squares)
    assert unit_distance(_after(state, "a", order), get(state, "b").squares) < gap


def test_it_gangs_up_on_an_enemy_already_fighting_an_ally() -> None:
    # b and c stand equally far from a; b is already engaged with a's ally d, so a charge on
    # it gets +2 for flanking (W35-MULTI-03).
    state = make_state([unit("a", squares=block(5, 0, 2, 1)),
                        unit("b", "B", squares=block(2, 4, 2, 1)),
                        unit("c", "B", squares=block(8, 4, 2, 1)),
                        unit("d", squares=block(2, 5, 2, 1))])
    state.engage("b", "d")
    order = _act(state, "a")
    assert order.kind == "charge" and order.args[1] == "b"


def test_a_charge_into_a_set_unit_is_worth_less_than_one_into_an_unset_one() -> None:
    state = make_state([unit("a", squares=block(5, 0, 2, 1)),
                        unit("b", "B", squares=block(2, 4, 2, 1), creature=creature(
                            melee=[PIKE])),
                        unit("c", "B", squares=block(8, 4, 2, 1), creature=creature(
                            melee=[PIKE]))])
    get(state, "b").set_vs_charge = True
    order = _act(state, "a")
    assert order.kind == "charge" and order.args[1] == "c"


def test_a_reach_unit_sets_when_an_enemy_can_charge_it_next_round() -> None:
    # b (AC 30) is barely worth charging; it stands where its own charge reaches a.
    tough = creature(ac=30, melee=[{"name": "axe", "bonus": 8, "damage": "2d6+4"}])
    state = make_state([unit("a", squares=block(0, 0, 2, 1), creature=creature(melee=[PIKE])),
                        unit("b", "B", squares=block(0, 4, 2, 1), creature=tough)])
    assert str(_act(state, "a")) == "set a"


def test_a_set_unit_holds_while_the_charge_threat_lasts() -> None:
    tough = creature(ac=30, melee=[{"name": "axe", "bonus": 8, "damage": "2d6+4"}])
    state = make_state([unit("a", squares=block(0, 0, 2, 1), creature=creature(melee=[PIKE])),
                        unit("b", "B", squares=block(0, 4, 2, 1), creature=tough)])
    get(state, "a").set_vs_charge = True
    assert str(_act(state, "a")) == "hold"


def test_a_shooter_fires_at_a_target_in_range() -> None:
    archers = creature("archer", melee=[CLUB], ranged=[BOW])
    state = make_state([unit("a", squares=block(0, 0, 2, 1), creature=archers),
                        unit("b", "B", squares=block(0, 8, 2, 1))])
    order = _act(state, "a")
    assert order.kind == "shoot" and order.args[1] == "b"


def test_a_shooter_in_contact_steps_back_rather_than_fighting_in_melee() -> None:
    archers = creature("archer", melee=[CLUB], ranged=[BOW])
    state = make_state([unit("a", squares=block(0, 0, 2, 1), creature=archers),
                        unit("b", "B", squares=block(0, 1, 2, 1))])
    order = _act(state, "a")
    assert order.kind == "move"
    assert unit_distance(_after(state, "a", order), get(state, "b").squares) >= 2


def test_a_unit_near_its_half_hp_threshold_and_losing_pulls_back() -> None:
    # a is at 22 of 40 HP; b could charge it for more than 2 HP and a can hardly hurt b:
    # the half-HP morale check (DC 15) looms, so a moves away instead of closing in.
    tough = creature(ac=30, melee=[{"name": "axe", "bonus": 10, "damage": "2d6+6"}])
    state = make_state([unit("a", squares=block(10, 10, 2, 2)),
                        unit("b", "B", squares=block(10, 15, 2, 1), creature=tough)])
    a = get(state, "a")
    a.hp = 22
    order = _act(state, "a")
    assert order.kind == "move"
    before = unit_distance(a.squares, get(state, "b").squares)
    assert unit_distance(_after(state, "a", order), get(state, "b").squares) > before
    even = make_state([unit("a", squares=block(10, 10, 2, 2)),
                       unit("b", "B", squares=block(10, 15, 2, 1))])
    get(even, "a").hp = 22  # not losing the exchange: it goes for b
    assert _act(even, "a").kind == "charge"


def test_it_never_splits_or_regroups() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 2)),
                        unit("b", "B", squares=block(0, 20, 2, 1))])
    assert _act(state, "a").kind not in ("split", "regroup")


# ---- formation, fire plans, melee splits


def test_engaged_and_winning_it_puts_more_counters_in_contact() -> None:
    strong = creature(melee=[{"name": "sword", "bonus": 10, "damage": "1d8+4"}])
    state = make_state([unit("a", squares=[(1, 0), (1, 1), (1, 2)], creature=strong),
                        unit("b", "B", squares=block(0, 3, 3, 1))])
    state.engage("a", "b")
    wide = Order.of("formation", "a", "0,2;1,2;2,2")
    keep = Order.of("formation", "a", "keep")
    assert _ask(state, "formation", (keep, wide), "a") == wide


def test_not_engaged_it_keeps_its_formation() -> None:
    state = make_state([unit("a", squares=[(1, 0), (1, 1), (1, 2)]),
                        unit("b", "B", squares=block(0, 10, 3, 1))])
    wide = Order.of("formation", "a", "0,2;1,2;2,2")
    keep = Order.of("formation", "a", "keep")
    assert _ask(state, "formation", (keep, wide), "a") == keep


def test_the_fire_plan_puts_the_volley_where_it_takes_most() -> None:
    archers = creature("archer", melee=[CLUB], ranged=[BOW])
    state = make_state([unit("a", squares=block(0, 0, 4, 1), creature=archers),
                        unit("b", "B", squares=block(0, 8, 1, 1)),
                        unit("c", "B", squares=block(6, 8, 4, 1))])
    # arcing fire is capped by the target's counters (W35-DMG-05): one counter each on b
    # wastes less than an even split would.
    plans = [Order.of("fire", "a", "b:2,c:2"), Order.of("fire", "a", "b:1,c:3"),
             Order.of("fire", "a", "b:3,c:1")]
    assert _ask(state, "fire_plan", tuple(plans), "a") == plans[1]


def test_a_counter_touching_two_enemies_strikes_the_one_it_hurts_more() -> None:
    state = make_state([unit("a", squares=[(1, 0)]),
                        unit("b", "B", squares=[(0, 0)], creature=creature(ac=25)),
                        unit("c", "B", squares=[(2, 0)])])
    options = (Order.of("strike", "a", "1,0", "b"), Order.of("strike", "a", "1,0", "c"))
    assert _ask(state, "melee_split", options, "a") == options[1]


# ---- singular creatures


def _party(**fields: Any) -> WarState:
    return make_state([unit("a", squares=block(0, 0, 3, 2)),
                       unit("b", "B", squares=block(0, 2, 3, 1))],
                      singles=[single("pc", kind="pc", unit="a", **fields)])


def test_an_embedded_pc_stays_back_from_the_front_line_facing_a_dangerous_unit() -> None:
    state = _party(creature=creature("hero", hp=20, ac=14, level=5,
                                     melee=[{"bonus": 6, "damage": "1d8+2"}]))
    back, front = Order.of("sback", "pc"), Order.of("sfront", "pc")
    assert _ask(state, "front_line", (back, front), "pc") == back


def test_an_embedded_creature_no_blow_can_hurt_stands_in_the_front_line() -> None:
    state = _party(creature=creature("golem", hp=200, ac=40, level=10, dr=20,
                                     melee=[{"bonus": 12, "damage": "2d10+8"}]))
    back, front = Order.of("sback", "pc"), Order.of("sfront", "pc")
    assert _ask(state, "front_line", (back, front), "pc") == front


def test_an_embedded_pc_keeps_up_with_a_unit_that_is_not_fighting() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 2)),
                        unit("b", "B", squares=block(0, 10, 3, 1))],
                       singles=[single("pc", kind="pc", unit="a")])
    stay, act = Order.of("sstay", "pc"), Order.of("sact", "pc")
    assert _ask(state, "stay_with_unit", (stay, act), "pc") == stay


def test_a_unit_whose_embedded_creature_acted_does_not_march_off_without_it() -> None:
    state = make_state([unit("a", squares=block(0, 0, 3, 2)),
                        unit("b", "B", squares=block(0, 20, 3, 1))],
                       singles=[single("pc", kind="pc", unit="a")])
    who(state, "pc").stays = False
    assert _act(state, "a").kind not in ("move", "charge", "pass")
    who(state, "pc").stays = True
    assert _act(state, "a").kind == "move"


def test_a_monster_whose_blows_cannot_hurt_a_unit_keeps_away_from_it() -> None:
    # at the 50-ft scale a unit counter holds 100 creatures: a 2d8+10 club does nothing
    # (W35-DMG-13/14), while the unit's many attackers would strike the giant hard.
    giant = creature("giant", size="large", hp=100, ac=18, level=12,
                     melee=[{"bonus": 16, "damage": "2d8+10"}])
    state = make_state([unit("a", "B", squares=block(10, 10, 2, 1), count=200)],
                       singles=[single("g", "A", "monster", at=(10, 13), creature=giant)],
                       scale=50)
    g = who(state, "g")
    assert g.square is not None
    order = _ask(state, "single_action", tuple(singles.turn_options(state, g)), "g")
    assert order.kind == "smove"
    x, y = (int(v) for v in str(order.args[1]).split(","))
    assert unit_distance([(x, y)], get(state, "a").squares) > unit_distance(
        [g.square], get(state, "a").squares)


def test_unknown_decisions_take_their_default() -> None:
    state = _party()
    options = (Order.of("remove", "a", "0,0"), Order.of("remove", "a", "2,0"))
    decision = Decision("A", "remove_counters", options, "?", "a", default=options[1])
    assert WarsAI().choose(decision, state) == options[1]
    assert combat.ORDER_KINDS  # the unit-action kinds the AI scores come from combat


def test_a_unit_goes_for_enemy_units_before_a_lone_creature_that_cannot_hurt_it() -> None:
    # the imp's 1d4 bite, divided over 10 creatures a counter, takes nothing from a unit
    # (W35-DMG-13/14), and lone creatures' HP do not decide the battle (W35-AMB-99).
    imp = creature("imp", hp=30, ac=12, melee=[{"bonus": 2, "damage": "1d4"}])
    state = make_state([unit("a", squares=block(5, 0, 2, 1)),
                        unit("b", "B", squares=block(2, 4, 2, 1))],
                       singles=[single("imp", "B", "monster", at=(9, 4), creature=imp)])
    assert {o.args[1] for o in legal_actions(state, get(state, "a")) if o.kind == "charge"} \
        == {"b", "imp"}
    order = _act(state, "a")
    assert order.kind == "charge" and order.args[1] == "b"
    # with no enemy unit left, the creature is the enemy
    state.lift(get(state, "b"))
    get(state, "b").squares = set()
    order = _act(state, "a")
    assert order.kind == "charge" and order.args[1] == "imp"


# ---- magic and siege


SECTIONS = [
    {"id": "strong", "rect": [[0, 14], [9, 14]], "type": "heavy_stone", "hp": 180,
     "hardness": 8, "barrier": True, "held_by": "B"},
    {"id": "weak", "rect": [[10, 14], [19, 14]], "type": "heavy_stone", "hp": 40,
     "hardness": 8, "barrier": True, "held_by": "B"},
]


def test_a_siege_weapon_aims_at_the_weakest_wall_section() -> None:
    state = make_state([unit("g", squares=[(8, 5)], siege_weapon="light_catapult"),
                        unit("t", "B", squares=[(5, 16)])], structures=SECTIONS)
    state.machines["g"].loaded = True
    fires = {str(o.args[1]) for o in legal_actions(state, get(state, "g"))
             if o.kind == "siege_fire"}
    assert {"strong", "weak"} <= fires
    assert _act(state, "g") == Order.parse("siege_fire g weak")
    # with its first section worn down to less than the other's, it turns to that one
    state.structure_hp["strong"] = 30
    assert _act(state, "g") == Order.parse("siege_fire g strong")


def test_an_unloaded_siege_weapon_loads_rather_than_walks() -> None:
    state = make_state([unit("g", squares=[(8, 5)], siege_weapon="light_catapult"),
                        unit("t", "B", squares=[(5, 16)])], structures=SECTIONS)
    state.machines["g"].loaded = False
    assert _act(state, "g").kind == "load"


def _tower_field() -> WarState:
    """A siege tower of A at (5, 5) under B's wall along y = 14, an enemy unit off east."""
    archer = creature("archer", hp=6, ac=12, ranged=[BOW])
    return make_state([unit("tw", squares=[(5, 5)], count=70, creature=archer,
                            siege_tower=True),
                       unit("far", "B", squares=[(30, 3)])],
                      structures=SECTIONS[:1], width=40, height=30)


def test_a_siege_tower_moves_toward_the_wall_its_enemy_holds() -> None:
    state = _tower_field()
    order = _act(state, "tw")
    assert order.kind == "move"
    dx, dy = (int(v) for v in str(order.args[-1]).split(","))
    assert dy > 0 and dx == 0  # straight for the wall, not toward the enemy unit
    # beside the wall it lowers its bridge
    tw = get(state, "tw")
    state.place(tw, {(5, 13)})
    assert _act(state, "tw") == Order.parse("lower_bridge tw")


def test_a_ram_heads_for_the_gate_and_strikes_beside_it() -> None:
    gate = {"id": "gate", "rect": [[20, 14], [21, 14]], "type": "wooden", "hp": 60,
            "hardness": 5, "barrier": True, "gate": True, "held_by": "B"}
    brute = creature("brute", hp=8, ac=13, str=15)
    state = make_state([unit("r", squares=[(20, 6)], count=8, creature=brute, ram=True),
                        unit("t", "B", squares=[(5, 20)])],
                       structures=[*SECTIONS, gate], width=40, height=30)
    order = _act(state, "r")
    assert order.kind == "move"
    assert ai_judge.box_gap(ai_judge.box(set(_after(state, "r", order))),
                            (20, 13, 21, 13)) < 7
    state.place(get(state, "r"), {(20, 13)})
    assert _act(state, "r") == Order.parse("ram r gate")


def _mage_field(*known: dict[str, Any], host: bool = False) -> WarState:
    from tests.rulesets.dnd35_wars.test_magic import SPELLS, caster

    return make_state([unit("small", "B", squares=block(4, 14, 2, 1)),
                       unit("big", "B", squares=block(12, 14, 5, 2))],
                      singles=[caster("w", "A", (10, 6), *known)], spells=SPELLS)


def test_a_caster_puts_its_fireball_where_it_covers_most_counters() -> None:
    state = _mage_field({"spell": "fireball"})
    w = state.singles["w"]
    options = tuple(singles.turn_options(state, w))
    assert {str(o.args[-1]) for o in options if o.kind == "cast"} >= {"small", "big"}
    choice = _ask(state, "single_action", options, "w")
    assert choice == Order.parse("cast w fireball big")


def _blessing(gap: int) -> tuple[WarState, float]:
    from tests.rulesets.dnd35_wars.test_magic import SPELLS, wizard

    priest = single("p", "A", "npc", unit="a", creature=wizard({"spell": "bless"}))
    state = make_state([unit("a", squares=block(5, 5, 4, 2)),
                        unit("b", "B", squares=block(5, 7 + gap, 4, 2))],
                       singles=[priest], spells=SPELLS)
    order = Order.parse("cast p bless a")
    from warhost.rulesets.dnd35_wars import magic

    return state, magic.ai_value(state, state.singles["p"], order)


def test_a_buff_is_worth_casting_once_an_enemy_can_reach_the_unit_next_round() -> None:
    _, far = _blessing(12)
    state, near = _blessing(3)  # a 30-ft unit charges 4 squares at the 15-ft scale
    assert near > 5 * far > 0
    p = state.singles["p"]
    options = tuple(o for o in singles.turn_options(state, p))
    assert Order.parse("cast p bless a") in options
    assert _ask(state, "single_action", options, "p") == Order.parse("cast p bless a")


def test_of_two_equal_squares_a_ram_takes_the_one_out_of_enemy_missile_reach() -> None:
    from warhost.rulesets.dnd35_wars import ai_siege

    shooter = creature("archer", hp=6, ac=12, ranged=[BOW])  # 100-ft increment: 1000 ft
    short = creature("slinger", hp=6, ac=12,
                     ranged=[{"name": "sling", "bonus": 1, "damage": "1d4",
                              "range_increment": 10, "thrown": True}])
    state = make_state([unit("r", squares=[(20, 6)], count=8, ram=True),
                        unit("s", "B", squares=[(12, 12)], creature=short),
                        unit("a", "B", squares=[(35, 25)], creature=shooter)],
                       structures=SECTIONS, width=40, height=30)
    r = get(state, "r")
    foes = [get(state, "s"), get(state, "a")]
    boxes = {f.id: ai_judge.box(f.squares) for f in foes}  # the slinger: 50 ft
    goals = {(14, 13), (26, 13)}  # two goal squares as near as each other
    west, east = (14, 12, 14, 12), (26, 12, 26, 12)
    assert ai_siege.goal_gap(west, goals) == ai_siege.goal_gap(east, goals) == 1
    assert ai_siege.shooters_reaching(state, foes, boxes, west) == 2  # the slinger is near
    assert ai_siege.shooters_reaching(state, foes, boxes, east) == 1
    assert (ai_siege.machine_position(state, r, goals, foes, boxes, east)
            > ai_siege.machine_position(state, r, goals, foes, boxes, west))
