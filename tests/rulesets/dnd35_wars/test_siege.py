"""Siege weapons and siege weapon units of dnd35-wars (W35-SIEGE-01..17, W35-SWU-01..17,
W35-AMB-13/48..51/86/87): the table, set-up, loading and firing, what a siege unit may not do.
Dice are scripted and every outcome exact."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    creature,
    get,
    make_battle,
    make_state,
    scenario_data,
    seeded_battle,
    single,
    unit,
    who,
)
from warhost.core.decisions import Decision, Refusal
from warhost.core.errors import WarhostError
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd35_wars import (
    actions,
    combat,
    damage,
    game,
    machines,
    odds,
    siege,
    tables,
)
from warhost.rulesets.dnd35_wars.explain import explain_refusal
from warhost.rulesets.dnd35_wars.setup import new_state
from warhost.rulesets.dnd35_wars.state import WarState
from warhost.rulesets.dnd35_wars.validate import check_scenario
from warhost.rulesets.dnd35_wars.view import map_view


def _state(weapon: str = "light_catapult", *, target_at: tuple[int, int] = (5, 13),
           squares: tuple[tuple[int, int], ...] = ((5, 5),), count: int | None = None,
           options: dict[str, Any] | None = None, others: tuple[dict[str, Any], ...] = (),
           width: int = 40, height: int = 30, **fields: Any) -> WarState:
    """Siege unit ``g`` (side A) and enemy unit ``t`` (side B, one counter, AC 15)."""
    singles = fields.pop("singles", ())
    units = [unit("g", squares=squares, count=count, siege_weapon=weapon, **fields),
             unit("t", "B", squares=[target_at]), *others]
    return make_state(units, options=options, width=width, height=height, singles=singles)


def _refusal(result: object) -> Refusal:
    assert isinstance(result, Refusal), result
    return result


def _judge(state: WarState, uid: str, text: str) -> Order | Refusal | None:
    return actions.judge(state, get(state, uid))(Order.parse(text))


def _model(units: list[dict[str, Any]], **kwargs: Any) -> Any:
    data = scenario_data(units, **kwargs)
    return get_ruleset("dnd35-wars").scenario_model.model_validate(data)


# ----------------------------------------------------------------------- the table


@pytest.mark.rule("W35-SIEGE-16")
@pytest.mark.rule("W35-AMB-49")
@pytest.mark.rule("W35-AMB-50")
@pytest.mark.rule("W35-SIEGE-10")
def test_every_cell_of_the_siege_weapons_table() -> None:
    rows = {name: (w.damage, w.crit, w.range_increment, w.minimum_range, w.rate_of_fire, w.crew,
                   w.size, w.space, w.cost, w.max_increments)
            for name, w in tables.SIEGE_WEAPONS.items()}
    assert rows == {
        "ballista": ("3d8", (19, 2), 120, 0, 4, 3, "large", 5, 500, 10),
        "light_catapult": ("4d6", None, 150, 100, 3, 2, "large", 10, 550, 5),
        "heavy_catapult": ("6d6", None, 200, 100, 4, 4, "huge", 15, 800, 5),
        "trebuchet": ("8d6", None, 300, 150, 3, 4, "huge", 15, 1_200, 5),
    }
    assert [tables.siege_max_range(w) for w in tables.SIEGE_WEAPONS.values()] == [
        1200, 750, 1000, 1500]


@pytest.mark.rule("W35-AMB-87")
def test_creatures_needed_to_circle_each_weapon() -> None:
    assert [tables.circle_crew(w) for w in tables.SIEGE_WEAPONS.values()] == [8, 12, 16, 16]


@pytest.mark.rule("W35-SIEGE-14")
@pytest.mark.rule("W35-SIEGE-15")
def test_rate_of_fire_doubles_for_each_crew_member_lost_beyond_a_quarter() -> None:
    heavy = tables.siege_weapon("heavy_catapult")  # crew 4: one may be lost freely
    assert [tables.effective_rate_of_fire(heavy, lost) for lost in range(4)] == [4, 4, 8, 16]
    ballista = tables.siege_weapon("ballista")  # crew 3: floor(3/4) = 0
    assert [tables.effective_rate_of_fire(ballista, lost) for lost in range(3)] == [4, 8, 16]
    assert tables.crew_lost(heavy, 10) == 0 and tables.crew_lost(heavy, 1) == 3


# ----------------------------------------------------------------------- set-up


@pytest.mark.rule("W35-SIEGE-04")
@pytest.mark.rule("W35-SWU-01")
@pytest.mark.rule("W35-SWU-02")
def test_a_siege_unit_gets_its_weapon_with_ac_3_hardness_5_and_80_hp() -> None:
    state = _state("ballista", squares=((4, 5), (5, 5), (6, 5)))
    machine = state.machines["g"]
    g = get(state, "g")
    assert g.machine == "siege" and get(state, "t").machine is None
    assert (machine.kind, machine.name, machine.hp, machine.max_hp, machine.ac,
            machine.hardness) == ("siege", "ballista", 80, 80, 3, 5)
    assert machine.square == (5, 5)  # one counter carries the figure: the middle one
    custom = _state("ballista", machine_hp=120, machine_ac=6, machine_hardness=10)
    assert (custom.machines["g"].hp, custom.machines["g"].ac,
            custom.machines["g"].hardness) == (120, 6, 10)


@pytest.mark.rule("W35-SWU-07")
@pytest.mark.rule("W35-AMB-13")
def test_a_siege_unit_moves_15_ft_a_round_as_movement_points() -> None:
    assert get(_state(), "g").rate == 1
    at_25 = make_state([unit("g", count=25, siege_weapon="ballista"), unit("t", "B", [(5, 9)])],
                       scale=25)
    assert get(at_25, "g").rate == tables.siege_move_points(15, 25) == Fraction(3, 5)


@pytest.mark.rule("W35-SWU-07")
def test_a_siege_unit_at_the_15_ft_scale_moves_one_square_a_round() -> None:
    state = _state()
    battle = make_battle(state)
    assert _judge(state, "g", "move g 0,2") != Order.parse("move g 0,2")
    assert _judge(state, "g", "move g 0,-1") == Order.parse("move g 0,-1")
    actions.TAKERS["move"](state, battle, get(state, "g"), Order.parse("move g 0,-1"))
    assert get(state, "g").squares == {(5, 4)}
    machine = machines.machine_of(state, "g")
    assert machine is not None and machine.square == (5, 4)  # the figure moved with it


@pytest.mark.rule("W35-AMB-48")
def test_the_weapon_starts_loaded_unless_the_option_says_otherwise() -> None:
    assert _state().machines["g"].loaded
    assert not _state(options={"siege_start_loaded": False}).machines["g"].loaded


@pytest.mark.rule("W35-SWU-05")
def test_a_siege_unit_needs_at_least_the_weapons_crew() -> None:
    short = _model([unit("g", count=3, siege_weapon="heavy_catapult"), unit("t", "B", [(5, 20)])])
    with pytest.raises(WarhostError, match="siege weapon without crew"):
        check_scenario(short)
    check_scenario(_model([unit("g", count=4, siege_weapon="heavy_catapult"),
                           unit("t", "B", [(5, 20)])]))


@pytest.mark.rule("W35-SWU-02")
def test_a_unit_carries_one_machine_only() -> None:
    both = _model([unit("g", siege_weapon="ballista", ram=True), unit("t", "B", [(5, 20)])])
    with pytest.raises(WarhostError, match="one machine"):
        check_scenario(both)


@pytest.mark.rule("W35-SIEGE-01")
def test_a_siege_unit_in_front_of_its_army_draws_a_placement_warning() -> None:
    front = _state(others=(unit("foot", squares=[(5, 2)]),))
    assert len(siege.placement_warnings(front)) == 1
    assert "W35-SIEGE-01" in siege.placement_warnings(front)[0]
    behind = _state(others=(unit("foot", squares=[(5, 8)]),))
    assert siege.placement_warnings(behind) == []


@pytest.mark.rule("W35-SWU-03")
def test_a_creature_may_be_embedded_in_a_siege_unit() -> None:
    state = _state(singles=(single("cap", unit="g"),))
    assert get(state, "g").singles == ["cap"] and who(state, "cap").host == "g"
    assert get(state, "g").machine == "siege"


# ----------------------------------------------------------------------- firing


@pytest.mark.rule("W35-SIEGE-09")
@pytest.mark.rule("W35-SIEGE-06")
@pytest.mark.rule("W35-SIEGE-05")
def test_a_catapult_hits_a_unit_on_ac_10_and_its_damage_is_divided_by_the_counter() -> None:
    state = _state()  # t has AC 15; 8 squares = 120 ft: the first increment
    battle = make_battle(state, dice=[6, 5, 5, 5, 5])  # 6 + 4 = 10 hits; 4d6 = 20
    order = Order.parse("siege_fire g t")
    assert order in actions.legal_actions(state, get(state, "g"))
    actions.TAKERS[order.kind](state, battle, get(state, "g"), order)
    fired = events(battle, "siege_fire")[0]
    assert (fired["ac"], fired["total"], fired["hit"], fired["feet"]) == (10, 10, True, 120)
    assert get(state, "t").hp == 10 - 20 // 10  # W35-DMG-13: 20 over 10 creatures a counter
    assert "siege_or_area" in get(state, "t").pending  # a siege hit for morale
    assert not state.machines["g"].loaded


@pytest.mark.rule("W35-SIEGE-09")
def test_a_catapult_misses_below_10_whatever_the_targets_ac() -> None:
    state = _state(others=(unit("weak", "B", squares=[(9, 13)], creature=creature(ac=2)),))
    battle = make_battle(state, dice=[5])  # 5 + 4 = 9 < 10 even against AC 2
    siege.fire(state, battle, get(state, "g"), state.machines["g"], "weak")
    assert events(battle, "siege_fire")[0]["hit"] is False and get(state, "weak").hp == 10


@pytest.mark.rule("W35-SIEGE-08")
@pytest.mark.rule("W35-SWU-06")
@pytest.mark.rule("W35-SIEGE-11")
def test_the_attack_bonus_is_bab_plus_operator_size_less_untrained_and_range() -> None:
    gnome = creature("gnome", size="small")
    state = _state(creature=gnome, siege_bab=2, siege_trained=False, target_at=(5, 25))
    machine = state.machines["g"]
    assert siege.fire_bonus(machine) == 2 + 1 - 4
    # 20 squares = 300 ft: 2 increments of 150 ft, -2
    battle = make_battle(state, dice=[13, 1, 1, 1, 1])
    siege.fire(state, battle, get(state, "g"), machine, "t")
    fired = events(battle, "siege_fire")[0]
    assert (fired["feet"], fired["bonus"], fired["total"], fired["hit"]) == (300, -3, 10, True)


@pytest.mark.rule("W35-SIEGE-08")
def test_without_siege_bab_the_stat_block_bonus_is_used_once() -> None:
    state = _state(creature=creature("gnome", size="small",
                                     melee=[{"bonus": 3, "damage": "1d6"}]))
    assert siege.fire_bonus(state.machines["g"]) == 3  # (3 - 1) + 1


@pytest.mark.rule("W35-SIEGE-10")
def test_catapults_reach_five_increments_and_no_farther() -> None:
    state = _state(target_at=(5, 55), width=20, height=60)  # 50 squares = 750 ft
    assert _judge(state, "g", "siege_fire g t") == Order.parse("siege_fire g t")
    state = _state(target_at=(5, 56), width=20, height=60)  # 765 ft
    assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SIEGE-10"


@pytest.mark.rule("W35-SIEGE-10")
def test_a_ballista_reaches_ten_increments() -> None:
    state = _state("ballista", target_at=(5, 85), width=20, height=90,
                   singles=(single("ogre", "B", kind="monster", at=(6, 85)),))
    assert _judge(state, "g", "siege_fire g ogre") == Order.parse("siege_fire g ogre")  # 1200
    state = _state("ballista", target_at=(5, 86), width=20, height=90,
                   singles=(single("ogre", "B", kind="monster", at=(6, 86)),))
    assert _refusal(_judge(state, "g", "siege_fire g ogre")).rule == "W35-SIEGE-10"


@pytest.mark.rule("W35-SIEGE-12")
def test_no_shot_closer_than_the_minimum_range() -> None:
    state = _state(target_at=(5, 11))  # 6 squares = 90 ft < 100 ft
    assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SIEGE-12"
    assert not [o for o in actions.legal_actions(state, get(state, "g")) if o.kind == "siege_fire"]
    state = _state(target_at=(5, 12))  # 105 ft
    assert _judge(state, "g", "siege_fire g t") == Order.parse("siege_fire g t")


@pytest.mark.rule("W35-SIEGE-17")
@pytest.mark.rule("W35-AMB-51")
def test_a_ballista_targets_creatures_and_huge_machines_never_units() -> None:
    others = (unit("light", "B", squares=[(10, 14)], siege_weapon="light_catapult"),
              unit("heavy", "B", squares=[(12, 14)], count=10, siege_weapon="heavy_catapult"))
    state = _state("ballista", others=others,
                   singles=(single("ogre", "B", kind="monster", at=(2, 14)),))
    assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SIEGE-17"
    assert _refusal(_judge(state, "g", "siege_fire g machine:light")).rule == "W35-AMB-51"
    assert _judge(state, "g", "siege_fire g machine:heavy") == Order.parse(
        "siege_fire g machine:heavy")
    assert _judge(state, "g", "siege_fire g ogre") == Order.parse("siege_fire g ogre")
    fire = {str(o.args[1]) for o in actions.legal_actions(state, get(state, "g"))
            if o.kind == "siege_fire"}
    assert fire == {"ogre", "machine:heavy"}


@pytest.mark.rule("W35-AMB-49")
@pytest.mark.rule("W35-SIEGE-06")
def test_a_ballista_crits_on_19_20_for_double_damage_on_a_creature() -> None:
    state = _state("ballista", singles=(single("ogre", "B", kind="monster", at=(9, 14)),))
    # 135 ft: the second increment, bonus 4 - 2; 19+2 hits AC 18 and 16+2 confirms
    battle = make_battle(state, dice=[19, 16, 2, 3, 4])
    siege.fire(state, battle, get(state, "g"), state.machines["g"], "ogre")
    assert events(battle, "siege_fire")[0]["crit"] is True
    assert who(state, "ogre").hp == 40 - 2 * 9  # W35-DMG-15: full damage, x2


@pytest.mark.rule("W35-AMB-49")
def test_catapults_never_crit() -> None:
    state = _state("trebuchet", target_at=(5, 20))
    battle = make_battle(state, dice=[20] + [1] * 8)  # no confirmation die is rolled
    siege.fire(state, battle, get(state, "g"), state.machines["g"], "t")
    fired = events(battle, "siege_fire")[0]
    assert (fired["hit"], fired["crit"], fired["threat"]) == (True, False, False)
    assert battle.dice.unused == 0  # type: ignore[attr-defined]


@pytest.mark.rule("W35-SIEGE-07")
@pytest.mark.rule("W35-AMB-45")
def test_siege_damage_to_a_structure_is_full_less_hardness() -> None:
    wall = {"id": "wall", "type": "wooden", "rect": [[3, 14], [7, 14]], "hp": 100,
            "hardness": 8}
    state = make_state([unit("g", siege_weapon="light_catapult"), unit("t", "B", [(5, 20)])],
                       structures=[wall])
    battle = make_battle(state, dice=[10, 2, 3, 4, 5])  # 14 damage
    assert Order.parse("siege_fire g wall") in actions.legal_actions(state, get(state, "g"))
    siege.fire(state, battle, get(state, "g"), state.machines["g"], "wall")
    assert state.structure_hp["wall"] == 100 - (14 - 8)


@pytest.mark.rule("W35-SIEGE-07")
def test_siege_damage_to_another_machine_is_full_less_hardness() -> None:
    others = (unit("foe", "B", squares=[(9, 16)], siege_weapon="trebuchet", count=10),)
    state = _state("trebuchet", target_at=(20, 20), others=others)
    battle = make_battle(state, dice=[10] + [3] * 8)  # 24 damage
    siege.fire(state, battle, get(state, "g"), state.machines["g"], "machine:foe")
    assert state.machines["foe"].hp == 80 - (24 - 5)
    assert get(state, "foe").hp == get(state, "foe").start_hp  # the unit is untouched


@pytest.mark.rule("W35-SIEGE-13")
@pytest.mark.rule("W35-AMB-48")
def test_after_firing_the_weapon_needs_rate_minus_one_loading_rounds() -> None:
    state = _state()  # light catapult: rate 3
    g = get(state, "g")
    battle = make_battle(state, dice=[1])
    siege.take(state, battle, g, Order.parse("siege_fire g t"))
    for rnd, ready in ((2, False), (3, True)):
        state.round = rnd
        kinds = {o.kind for o in actions.legal_actions(state, g)}
        assert "load" in kinds and "siege_fire" not in kinds
        assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SIEGE-13"
        siege.take(state, battle, g, Order.parse("load g"))
        assert state.machines["g"].loaded is ready
    state.round = 4
    assert Order.parse("siege_fire g t") in actions.legal_actions(state, g)
    assert _refusal(_judge(state, "g", "load g")).rule == "W35-AMB-48"


@pytest.mark.rule("W35-AMB-48")
def test_an_unloaded_start_needs_the_same_loading_rounds() -> None:
    state = _state(options={"siege_start_loaded": False})
    battle = make_battle(state)
    g = get(state, "g")
    siege.take(state, battle, g, Order.parse("load g"))
    assert not state.machines["g"].loaded
    state.round = 2
    siege.take(state, battle, g, Order.parse("load g"))
    assert state.machines["g"].loaded


@pytest.mark.rule("W35-SIEGE-15")
@pytest.mark.rule("W35-AMB-48")
def test_crew_lost_with_unit_hp_slows_the_reloading() -> None:
    state = _state("ballista", options={"siege_start_loaded": False}, count=3,
                   creature=creature(hp=10))
    g = get(state, "g")
    assert (g.start_hp, siege.survivors(g), siege.rate_of_fire(g, state.machines["g"])) == (
        10, 3, 4)
    g.hp = 6  # ceil(3 x 6 / 10) = 2 survive: one crew lost, rate 4 x 2
    assert (siege.survivors(g), siege.rate_of_fire(g, state.machines["g"])) == (2, 8)
    battle = make_battle(state)
    siege.take(state, battle, g, Order.parse("load g"))
    assert events(battle, "siege_load")[0]["needed"] == 7


# ----------------------------------------------------------------------- what a siege unit may not do


@pytest.mark.rule("W35-SWU-14")
def test_a_siege_unit_cannot_charge() -> None:
    state = _state(target_at=(5, 8))
    g = get(state, "g")
    g.rate = Fraction(4)  # fast enough that only the rule stops a charge
    assert not [o for o in actions.legal_actions(state, g) if o.kind == "charge"]
    assert [o for o in combat.attack_options(state, g) if o.kind == "charge"]  # else it could
    charge = next(o for o in combat.attack_options(state, g) if o.kind == "charge")
    assert _refusal(actions.judge(state, g)(charge)).rule == "W35-SWU-14"


@pytest.mark.rule("W35-SWU-15")
def test_a_siege_unit_may_set_but_not_form_a_phalanx() -> None:
    pikes = creature(melee=[{"bonus": 4, "damage": "1d8", "reach": True}])
    state = _state(creature=pikes)
    kinds = {o.kind for o in actions.legal_actions(state, get(state, "g"))}
    assert "set" in kinds and "phalanx" not in kinds
    assert _refusal(_judge(state, "g", "phalanx g")).rule == "W35-SWU-15"


@pytest.mark.rule("W35-SWU-17")
def test_a_siege_unit_moves_through_allies_but_not_enemies() -> None:
    state = _state(target_at=(5, 7), others=(unit("ally", squares=[(5, 4)]),))
    g = get(state, "g")
    state.units["g"].rate = Fraction(3)
    assert _refusal(_judge(state, "g", "move g 0,3")).rule == "W35-PLACE-06"
    assert Order.parse("pass g 0,-2") in actions.legal_actions(state, g)


@pytest.mark.rule("W35-SWU-08")
def test_no_loading_or_firing_in_a_round_the_unit_moved() -> None:
    state = _state()
    actions.TAKERS["move"](state, make_battle(state), get(state, "g"), Order.parse("move g 0,-1"))
    assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SWU-08"
    assert not [o for o in actions.legal_actions(state, get(state, "g"))
                if o.kind == "siege_fire"]


@pytest.mark.rule("W35-SWU-11")
@pytest.mark.rule("W35-SWU-12")
@pytest.mark.rule("W35-SWU-08")
def test_a_round_of_firing_is_its_whole_action_and_a_melee_round_allows_no_firing() -> None:
    state = _state(target_at=(5, 13), others=(unit("near", "B", squares=[(6, 6)]),))
    g = get(state, "g")
    g.melee_round = state.round  # e.g. it repelled a charge this round
    assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SWU-11"
    g.melee_round = -1
    battle = make_battle(state, dice=[1])
    siege.take(state, battle, g, Order.parse("siege_fire g t"))
    assert _refusal(_judge(state, "g", "melee g near")).rule == "W35-SWU-11"
    assert _refusal(_judge(state, "g", "move g -1,0")).rule == "W35-SWU-08"
    state.machines["g"].loaded = True
    assert _refusal(_judge(state, "g", "siege_fire g t")).rule == "W35-SWU-12"


@pytest.mark.rule("W35-SWU-10")
@pytest.mark.rule("W35-SWU-01")
def test_the_crew_may_still_fight_with_personal_weapons() -> None:
    bows = creature(ranged=[{"bonus": 3, "damage": "1d6", "range_increment": 60}])
    state = _state(creature=bows, others=(unit("near", "B", squares=[(7, 8)]),))
    kinds = {(o.kind, str(o.args[1])) for o in actions.legal_actions(state, get(state, "g"))
             if len(o.args) > 1}
    assert ("shoot", "near") in kinds and ("siege_fire", "t") in kinds


@pytest.mark.rule("W35-SWU-13")
@pytest.mark.rule("W35-AMB-86")
def test_spare_counters_defend_for_plus_4_ac_to_the_unit_only() -> None:
    lone = _state("ballista", singles=(single("ogre", "B", kind="monster", at=(9, 14)),))
    assert not [o for o in actions.legal_actions(lone, get(lone, "g")) if "defend" in o.args]
    assert _refusal(_judge(lone, "g", "siege_fire g ogre defend")).rule == "W35-AMB-86"
    state = _state("ballista", squares=((4, 5), (5, 5), (6, 5)),
                   singles=(single("ogre", "B", kind="monster", at=(9, 14)),))
    g = get(state, "g")
    order = Order.parse("siege_fire g ogre defend")
    assert order in actions.legal_actions(state, g)
    battle = make_battle(state, dice=[1])
    siege.take(state, battle, g, order)
    assert combat.ac_against(state, g, None, "melee") == 15 + 4
    assert damage.ac_for_single(state, g) == 15 + 4
    assert state.machines["g"].ac == 3
    state.round = 2
    game.unit_turn(state, make_battle(state, orders={"A": ["load g"]}), g)
    assert combat.ac_against(state, g, None, "melee") == 15


@pytest.mark.rule("W35-SWU-16")
@pytest.mark.rule("W35-AMB-87")
def test_a_set_unit_keeps_loading_only_with_crew_and_a_circle() -> None:
    pikes = creature(melee=[{"bonus": 4, "damage": "1d8", "reach": True}])
    for count, stays_set in ((11, True), (10, False)):  # ballista: 3 crew + 8 circling
        state = _state("ballista", count=count, creature=pikes,
                       options={"siege_start_loaded": False})
        g = get(state, "g")
        g.set_vs_charge = True
        actions.unit_action(state, make_battle(state, orders={"A": ["load g"]}), g)
        assert state.machines["g"].loads_done == 1
        assert g.set_vs_charge is stays_set


# ----------------------------------------------------------------------- a played round


@pytest.mark.rule("W35-DEC-24")
@pytest.mark.rule("W35-SIEGE-05")
def test_a_siege_unit_fires_in_a_played_turn() -> None:
    state = _state()
    battle = make_battle(state, dice=[15, 6, 6, 6, 6], orders={"A": ["siege_fire g t"]})
    game.unit_turn(state, battle, get(state, "g"))
    assert events(battle, "siege_fire")[0]["hit"] and get(state, "t").hp == 10 - 2
    assert get(state, "g").exposed


def test_the_map_shows_the_machine_on_its_counter() -> None:
    state = _state("ballista", squares=((4, 5), (5, 5), (6, 5)))
    entry = next(u for u in map_view(state)["units"] if u["id"] == "g")
    assert entry["machine"] == {"kind": "siege", "name": "ballista", "x": 5, "y": 5, "hp": 80,
                                "max_hp": 80}


def test_the_ai_values_a_shot_by_its_expected_damage() -> None:
    state = _state()
    g = get(state, "g")
    # 4 + d20 >= 10 on 15 faces; mean 4d6 = 14 -> 14 // 10 = 1 HP a hit
    assert siege.ai_value(state, g, Order.parse("siege_fire g t")) == pytest.approx(0.75)
    state.machines["g"].loaded = False
    assert siege.ai_value(state, g, Order.parse("load g")) > 0


def test_no_machine_no_extra_options() -> None:
    state = make_state([unit("a"), unit("b", "B", squares=[(5, 9)])])
    assert state.machines == {} and siege.options(state, get(state, "a")) == []


# ----------------------------------------------------------------------- exact odds


def _brute_volley(weapon: str, bonus: int, ac: int, hardness: int,
                  hp: int) -> dict[int, Fraction]:
    """Every d20, confirmation d20 and damage die enumerated outright."""
    spec = tables.siege_weapon(weapon)
    count, sides = (int(p) for p in spec.damage.split("d"))
    ac = ac if spec.crit is not None else 10
    tally: dict[int, int] = {}
    confirms = range(1, 21) if spec.crit is not None else range(1, 2)
    total = 0
    for d20 in range(1, 21):
        hits = d20 == 20 or (d20 != 1 and d20 + bonus >= ac)
        for confirm in confirms:
            for faces in itertools.product(range(1, sides + 1), repeat=count):
                total += 1
                if not hits:
                    tally[0] = tally.get(0, 0) + 1
                    continue
                crit = spec.crit is not None and d20 >= spec.crit[0] and (
                    confirm == 20 or (confirm != 1 and confirm + bonus >= ac))
                rolled = sum(faces) * (2 if crit else 1)
                lost = min(hp, max(0, rolled - hardness))
                tally[lost] = tally.get(lost, 0) + 1
    return {k: Fraction(n, total) for k, n in sorted(tally.items()) if n}


@pytest.mark.rule("W35-SIEGE-07")
@pytest.mark.rule("W35-SIEGE-09")
@pytest.mark.rule("W35-AMB-49")
def test_volley_odds_match_brute_force() -> None:
    assert odds.siege_volley_odds("light_catapult", 4, 25, 8, 15) == _brute_volley(
        "light_catapult", 4, 25, 8, 15)  # AC 25 is ignored: a catapult rolls against 10
    assert odds.siege_volley_odds("ballista", 2, 5, 5, 30) == _brute_volley(
        "ballista", 2, 5, 5, 30)


@pytest.mark.rule("W35-SIEGE-07")
@pytest.mark.rule("W35-AMB-45")
def test_the_volley_situation_matches_a_seeded_run_of_the_real_fire_path() -> None:
    wall = {"id": "wall", "type": "wooden", "rect": [[3, 14], [7, 14]], "hp": 500,
            "hardness": 6}
    state = make_state([unit("g", siege_weapon="ballista"), unit("t", "B", [(5, 20)])],
                       structures=[wall])
    report = odds.siege_volley_on_state(state, get(state, "g"), "wall")
    assert (report.details["bonus"], report.details["ac"]) == (2, siege.STRUCTURE_AC)
    dist = {int(k): float(v["probability"]) for k, v in report.details["hp_lost"].items()}
    mu = sum(v * p for v, p in dist.items())
    sd = math.sqrt(sum((v - mu) ** 2 * p for v, p in dist.items()))
    battle = seeded_battle(state, 17)
    machine, g, total = state.machines["g"], get(state, "g"), 0
    trials = 2000
    for _ in range(trials):
        state.structure_hp["wall"], machine.loaded = 500, True
        total += siege.fire(state, battle, g, machine, "wall")
    assert abs(total / trials - mu) < 4 * sd / math.sqrt(trials)


@pytest.mark.rule("W35-SIEGE-07")
@pytest.mark.rule("W35-SIEGE-12")
def test_the_odds_hook_takes_the_siege_volley_situation() -> None:
    def report(y: int) -> Any:
        wall = {"id": "wall", "type": "wooden", "rect": [[3, y], [7, y]], "hp": 10,
                "hardness": 6}
        data = scenario_data([unit("g", siege_weapon="trebuchet"), unit("t", "B", [(5, 25)])],
                             structures=[wall])
        return odds.exact_odds(scenario_from_data(data), "g", "wall", {"kind": "siege_volley"})

    far = report(16)  # 165 ft: d20 + 4 against AC 10 hits on 6..20
    at_least_16 = sum(p for v, p in odds.dice_distribution("8d6").items() if v >= 16)
    assert far.outcomes["success"] == Fraction(3, 4)
    assert far.outcomes["breached"] == Fraction(3, 4) * at_least_16  # 8d6 - 6 >= 10 HP
    with pytest.raises(WarhostError, match="W35-SIEGE-12"):
        report(14)  # 135 ft: inside the minimum range


@pytest.mark.rule("W35-SIEGE-01")
def test_setup_reports_the_placement_warning_as_a_battle_event() -> None:
    model = _model([unit("g", siege_weapon="ballista"), unit("foot", squares=[(5, 2)]),
                    unit("t", "B", [(5, 20)])])
    battle = seeded_battle(None, 3)
    new_state(model, battle)
    warned = [e for e in events(battle, "warning") if e["rule"] == "W35-SIEGE-01"]
    assert len(warned) == 1 and "foot" in warned[0]["message"]


@pytest.mark.rule("W35-SIEGE-12")
def test_a_refused_siege_order_is_explained_with_its_rule() -> None:
    state = _state(target_at=(5, 11))  # 90 ft: inside the minimum range
    g = get(state, "g")
    decision = Decision("A", "unit_action", tuple(actions.legal_actions(state, g)), "?", "g",
                        accept=actions.judge(state, g))
    found = explain_refusal(state, decision, Order.parse("siege_fire g t"))
    assert isinstance(found, Refusal) and found.rule == "W35-SIEGE-12"
