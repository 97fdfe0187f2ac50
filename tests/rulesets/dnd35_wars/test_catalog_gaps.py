"""Rules of part 1 that no area test named yet: general statements of the seed checked on the
engine's behaviour, and the commander decisions of the catalog's list (W35-DEC)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from tests.battle_watch import events, record
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    scenario_data,
    single,
    unit,
    who,
)
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd35_wars import actions, damage, derive, game, morale, reach, setup
from warhost.rulesets.dnd35_wars.model import Dnd35WarsScenario, Options
from warhost.rulesets.dnd35_wars.setup import roll_initiative

RULESET = get_ruleset("dnd35-wars")


def model_of(data: dict[str, object]) -> Dnd35WarsScenario:
    model = RULESET.scenario_model.model_validate(data)
    assert isinstance(model, Dnd35WarsScenario)
    return model


# ---- derived units


@pytest.mark.rule("W35-ABIL-01")
def test_a_feat_of_the_typical_creature_is_the_units_feat() -> None:
    state = make_state([unit("a", creature=creature(feats=["Far Shot", "Cleave"]))])
    assert {"far shot", "cleave"} <= get(state, "a").feats


@pytest.mark.rule("W35-ABIL-05", "W35-STAT-15")
def test_a_hydra_with_five_bites_makes_one_averaged_attack() -> None:
    bites = [{"name": "bite", "bonus": b, "damage": "1d10+3"} for b in (6, 6, 6, 6, 7)]
    state = make_state([unit("h", creature=creature("hydra", size="huge", melee=bites),
                             squares=[(5, 5)], count=1)])
    attack = get(state, "h").melee
    assert attack is not None and (attack.bonus, attack.damage) == (6, "1d10+3")


@pytest.mark.rule("W35-TYPE-02", "W35-TYPE-04", "W35-SIZE-03")
def test_a_mounted_counter_holds_rider_and_mount_and_moves_at_the_mounts_speed() -> None:
    rider = creature("lancer", speed=20)
    data = scenario_data([unit("c", squares=block(0, 0, 4, 2), count=200, creature=rider,
                               mount={"size": "large", "speed": 60})], scale=50)
    cav = derive.derive(model_of(data).sides[0].units[0], 50, Options())
    # 200 riders on Large mounts at 50 ft: 25 a counter (the Large row), 8 counters
    assert (cav.counters, cav.per_counter, cav.rate) == (8, Fraction(25), Fraction(3))


@pytest.mark.rule("W35-TYPE-09")
def test_flying_griffon_riders_are_built_like_any_mounted_unit() -> None:
    rider = creature("griffon rider", speed=20)
    spec = unit("g", squares=block(0, 0, 3, 2), count=12, creature=rider, flying=True,
                mount={"size": "large", "speed": 30, "fly_speed": 80, "attacks": ["2d4+4"]})
    state = make_state([spec])
    g = get(state, "g")
    assert g.flying and g.mounted and g.counters == 6  # Large row at 15 ft: 2 a counter
    assert g.melee is not None and g.melee.damage == "1d8+11"  # + the mount's 2d4+4 (9)
    assert g.rate == Fraction(10)  # the mount's fly speed: floor(2 x 80 / 15) (W35-AMB-11)


@pytest.mark.rule("W35-COMBAT-01")
def test_a_counter_has_one_creatures_hp_at_every_scale() -> None:
    spec = model_of(scenario_data([unit("a", squares=[(0, 0)], count=400)])).sides[0].units[0]
    blocks = {scale: derive.derive(spec, scale, Options()) for scale in (15, 25, 50, 100)}
    assert {b.counter_hp for b in blocks.values()} == {10}
    assert [b.counters for b in blocks.values()] == [40, 16, 4, 1]


# ---- monsters, NPCs


@pytest.mark.rule("W35-MON-02", "W35-MON-09")
def test_a_monster_moves_by_the_unit_move_rate_table() -> None:
    state = make_state([unit("a", squares=[(0, 0)])],
                       singles=[single("m", kind="monster", at=(10, 10),
                                       creature=creature("troll", speed=30))])
    from warhost.rulesets.dnd35_wars import singles as singles_module
    moves = [o for o in singles_module.move_options(state, who(state, "m")) if o.kind == "smove"]
    far = max(max(abs(int(v) - 10) for v in str(o.args[1]).split(",")) for o in moves)
    assert far == 4  # speed 30 ft at the 15-ft scale, as for a unit (W35-STAT-12)


@pytest.mark.rule("W35-MON-03", "W35-MORALE-13")
def test_a_monster_never_makes_a_morale_check() -> None:
    # a unit and a monster of side B both badly hurt: the unit rolls at its turn, the monster
    # (which takes its own turn) never does
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(20, 20)])],
                       singles=[single("m", side="B", kind="monster", at=(10, 10))],
                       options={"round_limit": 1})
    state.round = 0
    battle = make_battle(state, dice=[10] * 200)
    damage.apply_to_single(state, battle, who(state, "m"), 30, "a")
    damage.apply_to_unit(state, battle, get(state, "b"), 6, "a", kind="melee")
    game.play(state, battle)
    assert [e["unit"] for e in events(battle, "morale_check")] == ["b"]
    start = events(battle, "round_start")[0]["seq"]
    assert any(e.get("who") == "m" for e in battle.log if e["seq"] > start)  # it had its turn


@pytest.mark.rule("W35-NPC-04")
def test_a_leader_and_its_guards_are_each_a_separate_npc() -> None:
    guards = [single(f"cleric{i}", unit="skel", creature=creature("cleric", level=4, hp=25))
              for i in range(5)]
    vampire = single("vampire", unit="skel", role="leader",
                     creature=creature("vampire", level=8, hp=60))
    state = make_state([unit("skel", squares=block(0, 0, 4, 2))], singles=[vampire, *guards])
    skel = get(state, "skel")
    assert len(skel.singles) == 6 and skel.leader == "vampire"
    assert all(who(state, s).host == "skel" and who(state, s).kind == "npc" for s in skel.singles)
    assert skel.counters == 8 and skel.creatures == 80  # NPCs are not members


# ---- the map and the round


@pytest.mark.rule("W35-TERR-01", "W35-SCALE-02")
def test_the_map_is_drawn_in_squares_of_the_battle_scale() -> None:
    data = scenario_data([unit("a", squares=[(0, 0)])], scale=50)
    del data["scale"]
    with pytest.raises(ValidationError, match="scale"):  # no map without a scale
        model_of(data)
    data["scale"] = 50
    state = setup.initial_state(model_of(data))
    assert (state.scale, state.width, state.height) == (50, 40, 30)


@pytest.mark.rule("W35-TERR-02")
def test_terrain_keeps_its_standard_cost_where_the_additions_say_nothing() -> None:
    from warhost.rulesets.dnd35_wars import movement
    state = make_state([unit("a", squares=[(1, 1)])], terrain=[
        {"rect": [[2, 1], [2, 1]], "kind": "clear"}, {"rect": [[3, 1], [3, 1]], "kind": "swamp"}])
    a = get(state, "a")
    assert movement.step_cost(state, a, {(2, 1)}, {(1, 1)}) == 1
    assert movement.step_cost(state, a, {(3, 1)}, {(2, 1)}) == 4


@pytest.mark.rule("W35-ROUND-01", "W35-ROUND-02")
def test_every_actor_acts_once_a_round_and_a_round_is_six_seconds() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(30, 20)]),
                        unit("c", squares=[(5, 0)])], options={"round_limit": 3})
    state.round = 0
    battle = make_battle(state)
    game.play(state, battle)
    turns = events(battle, "turn")
    assert len(turns) == 9 and all(
        sum(1 for t in turns if t["round"] == r and t["unit"] == u) == 1
        for r in (1, 2, 3) for u in "abc")
    assert [e["seconds"] for e in events(battle, "round_start")] == [0, 6, 12]


@pytest.mark.rule("W35-ROUND-04")
def test_an_embedded_leader_adds_its_charisma_modifier_to_initiative() -> None:
    leader = single("chief", unit="a", role="leader", creature=creature("chief", cha=16))
    state = make_state([unit("a", squares=[(0, 0)], creature=creature(initiative=1)),
                        unit("b", "B", squares=[(9, 9)], creature=creature(initiative=1))],
                       singles=[leader])
    battle = make_battle(state, dice=[10, 10])
    roll_initiative(state, battle, ["a", "b"])
    assert state.initiative == {"a": 14, "b": 11}


# ---- combat


@pytest.mark.rule("W35-STAT-14")
def test_a_unit_attacks_once_a_round_even_with_several_attacks() -> None:
    two = creature(melee=[{"bonus": 4, "damage": "1d6"}, {"bonus": 4, "damage": "1d6"}])
    state = make_state([unit("a", squares=[(5, 5)], creature=two),
                        unit("b", "B", squares=[(5, 6)], creature=creature(hp=100))])
    battle = make_battle(state, dice=[15, 3] + [1] * 10, orders={"A": ["melee a b"]})
    game.unit_turn(state, battle, get(state, "a"))
    assert len(events(battle, "attack")) == 1


@pytest.mark.rule("W35-ABIL-12", "W35-COMBAT-08")
def test_a_morale_bonus_on_attacks_applies_to_the_unit_as_to_one_creature() -> None:
    from warhost.rulesets.dnd35_wars import combat
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])
    a, b = get(state, "a"), get(state, "b")
    plain = combat.attack_bonus(state, a, b, "melee").total
    assert combat.attack_bonus(state, a, b, "melee", extra=1).total == plain + 1  # bless +1


@pytest.mark.rule("W35-COMBAT-02")
def test_a_hero_barely_hurts_a_big_unit_while_the_unit_crushes_the_hero() -> None:
    hero = single("hero", side="B", kind="monster", at=(5, 5),
                  creature=creature("hero", hp=80, ac=10))
    state = make_state([unit("a", squares=block(4, 4, 3, 3), count=3600)], scale=100,
                       singles=[hero])
    battle = make_battle(state)
    a = get(state, "a")
    assert damage.hit_unit_by_single(state, battle, a, 30, source="hero",
                                     attacker=who(state, "hero")) == 0  # 400 a counter
    attackers, surrounded = reach.attackers_on_single(
        (5, 5), 1, 1, a.squares, a.derived_creatures)
    assert attackers == 8 and surrounded
    assert damage.hit_single(state, battle, who(state, "hero"), 6, source="a",
                             multiplier=attackers) == 48


@pytest.mark.rule("W35-COMBAT-10")
def test_no_grapple_trip_bull_rush_or_other_standard_manoeuvre_is_a_unit_action() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 6)])])
    kinds = {o.kind for o in actions.legal_actions(state, get(state, "a"))}
    assert kinds <= {"hold", "move", "disengage", "regroup", "split", "pass", "melee", "shoot",
                     "charge", "set", "phalanx"}
    assert not kinds & {"grapple", "trip", "bull_rush", "overrun", "disarm", "aid"}


@pytest.mark.rule("W35-DMG-06")
def test_a_volley_lands_on_the_target_squares_under_the_centred_firing_outline() -> None:
    firing = block(0, 0, 2, 1)  # two counters side by side
    target = block(10, 10, 4, 2)
    assert reach.squares_hit(firing, target) == ((11, 10), (12, 10))
    assert reach.squares_hit(block(0, 0, 6, 3), target) == tuple(
        sorted(target, key=lambda s: (s[1], s[0])))


# ---- decisions (W35-DEC)


@pytest.mark.rule("W35-DEC-01", "W35-DEC-02", "W35-DEC-11")
def test_the_scenario_sets_the_scale_the_units_and_every_option() -> None:
    data = scenario_data([unit("a", squares=[(0, 0)], mob=True, enslaved=True,
                               training_months=8, battles=2, morale_override=1,
                               move_rate_override=2)], scale=25,
                         options={"proportional_saves": True, "unit_crits": False})
    model = model_of(data)
    assert model.scale == 25 and model.options.unit_crits is False
    u = model.sides[0].units[0]
    assert (u.mob, u.enslaved, u.training_months, u.battles, u.morale_override,
            u.move_rate_override) == (True, True, 8, 2, 1, 2)
    catalog_options = {"size_table", "morale_natural_rolls", "nearby_squares",
                       "pc_action_morale_duration", "mob_morale_overrides_immunity",
                       "crossbow_cap_by_target", "flank_bonus_mutual",
                       "npc_counter_rule_in_play", "leadership_morale_cap", "mob_charge_scope",
                       "unit_crits", "recovery_healer_scope"}
    assert catalog_options <= set(Options.model_fields)


@pytest.mark.rule("W35-DEC-10")
def test_the_scenario_marks_water_elevation_sight_blocking_home_edges_and_late_units() -> None:
    data = scenario_data([unit("a", squares=[(0, 0)]),
                          unit("r", squares=[(4, 0)], enters_round=3, enters_edge="south")],
                         terrain=[{"rect": [[5, 5], [6, 5]], "water": True, "elevation": 2,
                                   "blocks_sight": True}])
    data["sides"][0]["home_edge"] = "west"  # type: ignore[index]
    state = setup.initial_state(model_of(data))
    assert (5, 5) in state.water and state.elevation[(6, 5)] == 2 and (6, 5) in state.blocks_sight
    assert state.home_edge["A"] == "west" and not get(state, "r").squares


@pytest.mark.rule("W35-DEC-12", "W35-DEC-17")
def test_the_unit_action_offers_moves_attacks_and_defences_including_a_plain_approach() -> None:
    pikes = creature(melee=[{"bonus": 3, "damage": "1d8", "reach": True}],
                     ranged=[{"bonus": 2, "damage": "1d6", "range_increment": 60}])
    state = make_state([unit("a", squares=block(5, 5, 2, 1), creature=pikes),
                        unit("b", "B", squares=block(5, 9, 2, 1))])
    battle = make_battle(state)
    seen = record(battle)
    actions.unit_action(state, battle, get(state, "a"))
    kinds = {o.kind for o in seen[0].options}
    assert seen[0].kind == "unit_action" and {"hold", "move", "charge", "shoot", "set",
                                                "phalanx"} <= kinds
    # a move that ends in side contact without charging is offered (W35-UATK-05)
    assert any(o.kind == "move" and str(o.args[1]) == "0,3" for o in seen[0].options)


@pytest.mark.rule("W35-DEC-13", "W35-AMB-12")
def test_a_move_order_names_the_offset_and_a_slow_unit_banks_toward_its_square() -> None:
    state = make_state([unit("a", squares=[(5, 5)], creature=creature(speed=20)),
                        unit("b", "B", squares=[(30, 25)])], scale=100)
    a = get(state, "a")
    assert a.rate == Fraction(1, 2)
    battle = make_battle(state, orders={"A": ["move a 0,1"]})
    actions.unit_action(state, battle, a)
    assert a.squares == {(5, 5)} and a.bank == Fraction(1, 2)


@pytest.mark.rule("W35-DEC-14")
def test_a_charge_order_names_its_target_and_straight_line_destination() -> None:
    state = make_state([unit("a", squares=[(5, 5)]), unit("b", "B", squares=[(5, 9)])])
    charges = [o for o in actions.legal_actions(state, get(state, "a")) if o.kind == "charge"]
    assert charges and all(str(o.args[1]) == "b" for o in charges)
    assert str(charges[0].args[2]) == "0,3"


@pytest.mark.rule("W35-DEC-20")
def test_regroup_and_split_orders_name_the_partner_or_the_counters_that_leave() -> None:
    state = make_state([unit("a", squares=block(5, 5, 3, 1)), unit("p", squares=[(5, 3)]),
                        unit("b", "B", squares=[(30, 25)])])
    get(state, "a").hp -= 5
    get(state, "p").hp -= 5
    kinds = {o.kind: o for o in actions.legal_actions(state, get(state, "a"))}
    assert "split" in kinds and "regroup" in kinds
    assert str(kinds["regroup"].args[1]) == "p"


@pytest.mark.rule("W35-DEC-23", "W35-DEFEND-07")
def test_a_set_unit_that_holds_stays_set() -> None:
    pikes = creature(melee=[{"bonus": 3, "damage": "1d8", "reach": True}])
    state = make_state([unit("a", squares=[(5, 5)], creature=pikes),
                        unit("b", "B", squares=[(5, 15)])])
    a = get(state, "a")
    battle = make_battle(state, orders={"A": ["set a", "hold"]})
    actions.unit_action(state, battle, a)
    assert a.set_vs_charge
    actions.unit_action(state, battle, a)
    assert a.set_vs_charge


@pytest.mark.rule("W35-DEC-32", "W35-DEC-35")
def test_an_embedded_creature_or_squad_that_acts_is_offered_to_leave_its_unit() -> None:
    from warhost.rulesets.dnd35_wars import inunit
    pcs = [single(p, kind="pc", unit="a", role="squad") for p in ("p1", "p2")]
    state = make_state([unit("a", squares=block(5, 5, 3, 2)), unit("b", "B", squares=[(30, 25)])],
                       singles=pcs)
    battle = make_battle(state, orders={"A": ["sact p1"]})
    seen = record(battle)
    inunit.in_unit_actions(state, battle, get(state, "a"))
    leaves = [o for d in seen for o in d.options if o.kind == "leave"]
    assert leaves and {str(o.args[0]) for o in leaves} == {"p1"}


@pytest.mark.rule("W35-DEC-36", "W35-AMB-63")
def test_under_eject_the_commander_picks_which_npcs_leave() -> None:
    npcs = [single(n, unit="a") for n in ("n1", "n2")]
    state = make_state([unit("a", squares=block(5, 5, 3, 1)), unit("b", "B", squares=[(30, 25)])],
                       singles=npcs, options={"npc_counter_rule_in_play": "eject"})
    a = get(state, "a")
    battle = make_battle(state)
    state.remove_counters(a, {(7, 5)})
    a.hp = 20
    seen = record(battle)
    from warhost.rulesets.dnd35_wars import inunit
    inunit.in_unit_actions(state, battle, a)
    assert any(d.kind == "npc_eject" for d in seen)
    assert sum(1 for n in ("n1", "n2") if who(state, n).host == "a") == 1


@pytest.mark.rule("W35-DEC-37", "W35-AMB-99")
def test_the_battle_ends_at_the_round_limit_with_the_larger_share_kept() -> None:
    state = make_state([unit("a", squares=[(0, 0)]), unit("b", "B", squares=[(30, 20)])],
                       options={"round_limit": 2})
    state.round = 0
    get(state, "b").hp = 4
    battle = make_battle(state)
    game.play(state, battle)
    assert state.over and state.round == 2 and state.winner == "A"
    assert events(battle, "battle_over")[0]["reason"] == "round limit 2"


@pytest.mark.rule("W35-AMB-10", "W35-UNIT-05")
def test_play_depends_on_counters_and_hp_never_on_the_creatures_one_by_one() -> None:
    import copy

    from warhost.core.engine import run_battle
    from warhost.core.scenario import scenario_from_data

    small = RULESET.army_scenario(4, 3)
    fewer = copy.deepcopy(small)
    for side in fewer["sides"]:
        for spec in side["units"]:
            # fewer creatures on as many counters: 150 foot -> 130 still fill 6 counters of 25
            # at 25 ft, and 42 riders -> 37 still 7 counters of 6
            spec["count"] -= 20 if spec["count"] > 50 else 5
    logs = []
    for data in (small, fewer):
        scenario = scenario_from_data(data)
        result = run_battle(scenario, 5, {"South": "random", "North": "random"})
        logs.append([e for e in result.log if e["type"] != "battle_start"])
    assert logs[0] == logs[1]


@pytest.mark.rule("W35-AMB-69", "W35-STRUCT-06")
def test_tables_printed_out_of_place_are_applied_by_their_own_rules() -> None:
    # the Structure DR table is printed inside "Place the Units": it gives structures their DR
    state = make_state([unit("a", squares=[(3, 3)], guarding_walls=True)],
                       structures=[{"id": "keep", "type": "keep", "rect": [[3, 3], [3, 3]],
                                    "hp": 100}])
    assert state.structures["keep"].dr == 3 and damage.unit_dr(state, get(state, "a")) >= 3
    # the PC morale table follows the experience paragraph: it feeds the morale rules
    pc = single("pc", kind="pc", unit="a")
    state = make_state([unit("a", squares=block(3, 3, 2, 1))], singles=[pc])
    morale.pc_action(state, make_battle(state), who(state, "pc"), "slew_leader")
    assert sum(get(state, "a").morale_mods) == 2
