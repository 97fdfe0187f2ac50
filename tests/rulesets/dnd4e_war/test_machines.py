"""War machines (W4-WM, W4-BOLT, W4-STONE, W4-AMB-59 to 66, W4-DEC-19)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    character,
    events,
    get,
    make_battle,
    make_state,
    profile,
    record,
    scenario_data,
    unit,
)
from warhost.core.errors import WarhostError
from warhost.core.orders import Order
from warhost.core.registry import get_ruleset
from warhost.geometry.table import distance, offset, point_word
from warhost.rulesets.dnd4e_war import charge, machines, movement, shooting
from warhost.rulesets.dnd4e_war.state import WarState

BOLT = {"kind": "bolt_thrower", "range": 36, "bonus": 10, "damage": "2d8+4"}
STONE = {"kind": "stone_thrower", "range": 48, "bonus": 8, "vs": "reflex",
         "damage": "2d6+4", "burst": 1}
GOBLIN_DEFENSES = {"ac": 16, "fortitude": 13, "reflex": 13, "will": 11}


def crew(machine: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """Elf crew (Speed 7, minions) working ``machine`` (a bolt thrower by default)."""
    entry: dict[str, Any] = {"race": "elf", "formation": "skirmish", "speed": 7,
                             "unit_size": [1, 5], "machine": dict(machine or BOLT)}
    entry.update(fields)
    return profile("Elf crew", **entry)


def engine(uid: str = "bolt", at: tuple[float, float] = (36.0, 4.0), models: int = 2,
           machine: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A crew of ``models`` facing north at ``at`` with its machine in front."""
    prof = fields.pop("profile", None) or crew(machine)
    return unit(uid, "A", at=at, facing=0, companies=models, profile=prof, **fields)


def goblins(at: tuple[float, float] = (36.0, 30.0), companies: int = 2,
            **fields: Any) -> dict[str, Any]:
    """Goblin warriors (Reflex 13), minions, companies of 4 x 2, facing south."""
    prof = profile("Goblin warriors", race="goblin", defenses=dict(GOBLIN_DEFENSES))
    return unit("gobs", "B", at=at, facing=180, companies=companies,
                profile=fields.pop("profile", prof), **fields)


# ----------------------------------------------------------------- the worked examples

@pytest.mark.rule("W4-BOLT-07")
@pytest.mark.rule("W4-BOLT-04")
@pytest.mark.rule("W4-BOLT-05")
@pytest.mark.rule("W4-BOLT-03")
@pytest.mark.rule("W4-BOLT-02")
def test_bolt_worked_example_against_goblins() -> None:
    """+10 vs Reflex 13 hits on 8+, then +8 needs 8 (the floor), +6 needs 8... each attack
    at a further -2 until a miss: 8, 9, 10, 12 hit, then 11 at +2 (needs 11) hits, then
    12 at +0 (needs 13) misses."""
    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[8, 9, 10, 12, 11, 12])
    bolt, gobs = get(state, "bolt"), get(state, "gobs")
    hits = machines.fire_bolt(state, battle, bolt, gobs)
    fire = events(battle, "machine_fire")[0]
    assert [r["bonus"] for r in fire["rolls"]] == [10, 8, 6, 4, 2, 0]
    assert [r["needed"] for r in fire["rolls"]] == [8, 8, 8, 9, 11, 13]
    assert hits == 5
    assert gobs.models == 32 - 5


@pytest.mark.rule("W4-BOLT-05")
@pytest.mark.rule("W4-AMB-62")
def test_bolt_stops_at_six_hits_in_total() -> None:
    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[20, 20, 20, 20, 20, 20, 20])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert hits == 6
    assert len(events(battle, "machine_fire")[0]["rolls"]) == 6


@pytest.mark.rule("W4-BOLT-05")
def test_bolt_sequence_ends_at_the_first_miss() -> None:
    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[15, 3])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert hits == 1
    assert [r["face"] for r in events(battle, "machine_fire")[0]["rolls"]] == [15, 3]


@pytest.mark.rule("W4-BOLT-06")
def test_no_secondary_attack_against_skirmishers() -> None:
    skirm = profile("Goblin skulks", race="goblin", formation="skirmish",
                    defenses=dict(GOBLIN_DEFENSES))
    state = make_state([engine(), goblins(companies=6, profile=skirm)])
    battle = make_battle(state, dice=[20, 20])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert hits == 1
    assert len(events(battle, "machine_fire")[0]["rolls"]) == 1


@pytest.mark.rule("W4-WM-06")
@pytest.mark.rule("W4-WM-05")
def test_speed_in_proportion_to_surviving_crew() -> None:
    """An elven bolt thrower with two crew (Speed 7) that loses one moves 3.5"."""
    state = make_state([engine(models=2), goblins()])
    bolt = get(state, "bolt")
    assert bolt.speed() == 7.0
    bolt.companies = [1]
    assert bolt.speed() == 3.5


# ----------------------------------------------------------------- machines and crews

def stone_engine(models: int = 3, **fields: Any) -> dict[str, Any]:
    return engine("rock", at=(36.0, 4.0), models=models, machine=STONE, **fields)


def lone_enemy(at: tuple[float, float], uid: str = "scout", **fields: Any) -> dict[str, Any]:
    """A single goblin skirmisher (a minion) at ``at``."""
    prof = profile("Goblin scout", race="goblin", formation="skirmish",
                   defenses=dict(GOBLIN_DEFENSES))
    return unit(uid, "B", at=at, facing=180, companies=1, profile=prof, **fields)


def load(data: dict[str, Any]) -> Any:
    """Validate scenario data as the loader does (schema, then the setup rules)."""
    from warhost.rulesets.dnd4e_war.validate import check_scenario

    model = get_ruleset("dnd4e-war").scenario_model.model_validate(data)
    check_scenario(model)
    return model


@pytest.mark.rule("W4-WM-01")
@pytest.mark.rule("W4-WM-02")
def test_a_crew_works_one_machine_of_either_kind() -> None:
    state = make_state([engine(models=3), stone_engine(models=4), goblins()])
    assert {m.id: m.kind for m in state.machines.values()} == {
        "bolt": "bolt_thrower", "rock": "stone_thrower"}
    bolt = get(state, "bolt")
    assert bolt.machine is state.machines["bolt"] and bolt.machine.crew == "bolt"
    assert bolt.machine.start_crew == 3 and bolt.skirmish


@pytest.mark.rule("W4-WM-01")
def test_only_bolt_and_stone_throwers_exist() -> None:
    data = scenario_data([engine(machine={**BOLT, "kind": "cannon"}), goblins()])
    with pytest.raises(Exception, match="kind"):
        load(data)


@pytest.mark.rule("W4-AMB-60")
@pytest.mark.parametrize(("machine", "field"), [
    ({"kind": "bolt_thrower", "bonus": 10, "damage": "2d8+4"}, "range"),
    ({"kind": "bolt_thrower", "range": 36, "damage": "2d8+4"}, "bonus"),
    ({"kind": "bolt_thrower", "range": 36, "bonus": 10}, "damage"),
    ({k: v for k, v in STONE.items() if k != "burst"}, "burst"),
    ({k: v for k, v in STONE.items() if k != "vs"}, "vs"),
])
def test_a_machine_without_its_numbers_is_refused_at_the_field(
        machine: dict[str, Any], field: str) -> None:
    data = scenario_data([engine(machine=machine), goblins()])
    with pytest.raises(WarhostError, match="W4-AMB-60") as caught:
        load(data)
    assert caught.value.path[-2:] == ("machine", field)


@pytest.mark.rule("W4-WM-03")
def test_crew_must_start_within_2_inches_of_the_machine() -> None:
    load(scenario_data([engine(), goblins()]))  # the default placement is fine
    far = scenario_data([engine(machine_at=[36.0, 9.0]), goblins()])
    with pytest.raises(WarhostError, match="W4-WM-03"):
        load(far)
    edge = scenario_data([engine(at=(36.0, 47.0)), goblins()])  # machine north of y 48
    with pytest.raises(WarhostError, match="fit on the table"):
        load(edge)
    crowd = scenario_data([engine(profile=crew(formation="companies")), goblins()])
    with pytest.raises(WarhostError, match="W4-WM-03"):
        load(crowd)


# ----------------------------------------------------------------- movement

@pytest.mark.rule("W4-WM-04")
@pytest.mark.rule("W4-AMB-59")
def test_hauling_moves_crew_and_machine_one_speed_for_both_actions() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    machine = bolt.machine
    assert machine is not None
    start_machine = machine.at
    centre = movement.anchor_of(bolt)
    too_far = point_word(offset(centre, 270.0, 7.5))
    problem = machines.judge_move(state, bolt, Order.of("haul", "bolt", too_far))
    assert not isinstance(problem, Order)
    battle = make_battle(state, orders={"A": [f"haul bolt {point_word(offset(centre, 270, 7))}"]})
    machines.crew_moves(state, battle, bolt)
    assert distance(machine.at, start_machine) == pytest.approx(7.0)
    assert bolt.move_used and bolt.standard_used
    assert machines.fire_refusal(state, bolt) is not None  # no standard action left
    assert machines.crew_gap(bolt, machine) <= 2.0


@pytest.mark.rule("W4-WM-04")
def test_no_haul_once_an_action_is_spent() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    bolt.standard_used = True
    assert machines.haul_refusal(state, bolt) is not None
    assert not [o for o in machines.move_options(state, bolt) if o.kind == "haul"]


@pytest.mark.rule("W4-WM-05")
def test_joined_characters_count_as_crew_for_speed() -> None:
    state = make_state([engine(models=2), goblins()],
                       characters=[character("hero", "A", joined="bolt", speed=7)])
    bolt = get(state, "bolt")
    assert bolt.speed() == 7.0  # 3 figures of 2 at the start: never above full Speed
    bolt.companies = [0, *bolt.companies[1:]]
    bolt.companies = [c for c in bolt.companies if c] or [0]
    assert bolt.models == 2 and bolt.speed() == 7.0  # the hero takes the slain man's place


@pytest.mark.rule("W4-WM-16")
@pytest.mark.rule("W4-WM-03")
def test_crew_that_move_away_abandon_the_machine() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    centre = movement.anchor_of(bolt)
    battle = make_battle(state, orders={"A": ["crew bolt",
                                              f"walk bolt {point_word(offset(centre, 270, 6))}"]})
    machines.crew_moves(state, battle, bolt)
    assert bolt.machine is None and state.machines["bolt"].crew is None
    assert events(battle, "machine_abandoned")[0]["why"] == "moved away"


@pytest.mark.rule("W4-WM-03")
def test_crew_may_move_about_within_2_inches_and_keep_it() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    centre = movement.anchor_of(bolt)
    battle = make_battle(state, orders={"A": ["crew bolt",
                                              f"walk bolt {point_word(offset(centre, 90, 1))}"]})
    machines.crew_moves(state, battle, bolt)
    assert bolt.machine is state.machines["bolt"]
    assert not events(battle, "machine_abandoned")


@pytest.mark.rule("W4-WM-16")
@pytest.mark.rule("W4-DEC-19")
def test_crew_may_abandon_the_machine_outright() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    battle = make_battle(state, orders={"A": ["abandon bolt"]})
    machines.crew_moves(state, battle, bolt)
    assert bolt.machine is None
    assert machines.abandoned(state, state.machines["bolt"])


@pytest.mark.rule("W4-WM-15")
@pytest.mark.rule("W4-DEC-19")
def test_allied_crew_take_over_an_abandoned_machine() -> None:
    state = make_state([engine(), engine("spare", at=(20.0, 4.0)), goblins()])
    bolt, spare = get(state, "bolt"), get(state, "spare")
    first = make_battle(state)
    machines.abandon(state, first, bolt, "abandoned")
    machines.abandon(state, first, spare, "abandoned")
    spare.points = [(p[0] + 16.0, p[1]) for p in spare.points]  # now beside the bolt thrower
    spare.front = (spare.front[0] + 16.0, spare.front[1])
    battle = make_battle(state, orders={"A": ["take spare bolt"]})
    seen = record(battle)
    machines.crew_moves(state, battle, spare)
    asked = next(d for d in seen if d.kind == "machine_take")
    assert {o.text for o in asked.options} == {"take spare bolt", "leave spare"}
    machine = state.machines["bolt"]
    assert spare.machine is machine and machine.crew == "spare"
    assert machine.start_crew == spare.models
    assert events(battle, "machine_taken")


@pytest.mark.rule("W4-WM-15")
def test_enemy_crew_cannot_take_a_machine() -> None:
    enemy = engine("foes", at=(36.0, 44.0))
    enemy["_side"] = "B"
    enemy["facing"] = 180
    state = make_state([engine(), enemy])
    foes = get(state, "foes")
    battle = make_battle(state)
    machines.abandon(state, battle, get(state, "bolt"), "abandoned")
    machines.abandon(state, battle, foes, "abandoned")
    foes.points = [(36.0, 2.0), (37.0, 2.0)]
    assert machines.takeable(state, foes) == []


@pytest.mark.rule("W4-WM-14")
def test_fleeing_crew_leave_the_machine_behind() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    machine = bolt.machine
    assert machine is not None
    where = machine.at
    battle = make_battle(state, dice=[6, 6])
    movement.fall_back(state, battle, bolt, 180.0, "panic")
    assert bolt.fleeing and bolt.machine is None and bolt.skirmish
    assert machine.at == where and machine.crew is None
    assert events(battle, "machine_abandoned")[0]["why"] == "fled"
    assert bolt.speed() == 7.0  # plain skirmishers now


# ----------------------------------------------------------------- reloading and firing

@pytest.mark.rule("W4-AMB-61")
@pytest.mark.rule("W4-WM-08")
@pytest.mark.rule("W4-WM-10")
def test_start_loaded_fire_unloads_reload_is_a_move_action() -> None:
    state = make_state([engine(), goblins(companies=4)])
    bolt = get(state, "bolt")
    machine = bolt.machine
    assert machine is not None and machine.loaded
    battle = make_battle(state, dice=[2], orders={"A": ["fire bolt gobs", "reload bolt"]})
    machines.machine_shoots(state, battle, bolt)
    assert bolt.standard_used and bolt.shot  # firing: the standard action
    assert machine.loaded and bolt.move_used  # reloaded in the same phase with the move
    assert events(battle, "machine_reload")[0]["action"] == "move"


@pytest.mark.rule("W4-AMB-61")
@pytest.mark.rule("W4-WM-08")
def test_a_crew_that_has_moved_cannot_reload() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    assert bolt.machine is not None
    bolt.machine.loaded = False
    bolt.move_used = True
    assert machines.reload_refusal(state, bolt) is not None
    bolt.move_used = False
    assert machines.reload_refusal(state, bolt) is None


@pytest.mark.rule("W4-WM-09")
def test_a_lone_crewman_needs_a_double_move_for_a_stone_thrower_not_a_bolt() -> None:
    state = make_state([stone_engine(models=1), engine(models=1, at=(20.0, 4.0)), goblins()])
    rock, bolt = get(state, "rock"), get(state, "bolt")
    battle = make_battle(state)
    for crew_ in (rock, bolt):
        assert crew_.machine is not None
        crew_.machine.loaded = False
        machines.reload(state, battle, crew_)
    assert rock.move_used and rock.standard_used
    assert bolt.move_used and not bolt.standard_used
    assert [e["action"] for e in events(battle, "machine_reload")] == ["double move", "move"]
    rock.machine.loaded = False  # type: ignore[union-attr]
    rock.move_used, rock.standard_used = False, True
    assert machines.reload_refusal(state, rock) is not None


@pytest.mark.rule("W4-WM-07")
def test_joined_characters_cannot_fire_the_machine() -> None:
    state = make_state([engine(models=1), goblins()],
                       characters=[character("hero", "A", joined="bolt")])
    bolt = get(state, "bolt")
    assert machines.fire_refusal(state, bolt) is None
    bolt.companies = [0, 1]  # the crewman is slain; only the hero is left
    assert bolt.normal_models == 0
    problem = machines.fire_refusal(state, bolt)
    assert problem is not None and problem.rule == "W4-WM-07"


@pytest.mark.rule("W4-WM-11")
def test_a_war_machine_cannot_charge() -> None:
    state = make_state([engine(), goblins(at=(36.0, 12.0))])
    bolt = get(state, "bolt")
    assert not charge.can_charge(state, bolt)
    bolt.machine = None  # the same crew without their machine may
    assert charge.can_charge(state, bolt)


@pytest.mark.rule("W4-WM-12")
def test_charged_crew_line_up_between_machine_and_charger() -> None:
    state = make_state([engine(models=3), goblins(at=(36.0, 11.5), companies=1)])
    bolt, gobs = get(state, "bolt"), get(state, "gobs")
    machine = bolt.machine
    assert machine is not None
    assert all(p[1] < machine.at[1] for p in bolt.points)  # behind it to start with
    battle = make_battle(state)
    attempt = charge.Charge(gobs, bolt)
    attempt.reach = 9.0  # a charge roll of 6 at Speed 6
    charge.move(state, battle, attempt)
    assert not attempt.failed
    assert events(battle, "machine_line_up")
    lined = events(battle, "machine_line_up")[0]["points"]
    target = gobs.frame().centre
    for p in lined:
        assert p[1] > machine.at[1]
        assert distance(tuple(p), target) < distance(machine.at, target)
    assert state.is_engaged("bolt")
    assert not events(battle, "skirmish_contact") or all(
        e["unit"] != "bolt" for e in events(battle, "skirmish_contact"))
    assert [list(p) for p in [(round(x, 3), round(y, 3)) for x, y in bolt.points]] == lined
    assert machines.crew_gap(bolt, machine) <= 2.0  # still with their machine


@pytest.mark.rule("W4-WM-13")
def test_crew_fight_as_skirmishers() -> None:
    from warhost.rulesets.dnd4e_war import melee

    state = make_state([engine(models=3), goblins(at=(36.0, 11.5), companies=1)])
    bolt, gobs = get(state, "bolt"), get(state, "gobs")
    assert bolt.skirmish and not bolt.has_flanks  # no flank or rear to be caught in
    attempt = charge.Charge(gobs, bolt)
    attempt.reach = 9.0
    charge.move(state, make_battle(state), attempt)
    assert state.is_engaged("bolt")
    # W4-SKIRM-09/10: only crewmen in base contact strike, one each; no support against them
    blows = melee.fighters(state, bolt, [gobs], 1)
    assert blows and all(f.models == 1 for f in blows) and len(blows) <= bolt.models
    assert not melee.support_allowed(state, gobs)


# ----------------------------------------------------------------- bolt thrower details

@pytest.mark.rule("W4-BOLT-01")
@pytest.mark.rule("W4-AMB-62")
def test_the_bolt_is_a_ranged_attack_with_a_range() -> None:
    state = make_state([engine(), goblins(at=(36.0, 50.0))], height=72)
    bolt = get(state, "bolt")
    assert machines.bolt_power(bolt, bolt.machine).kind == "ranged"  # type: ignore[arg-type]
    assert machines.bolt_targets(state, bolt) == []  # 43.5" away, range 36
    state2 = make_state([engine(), goblins(at=(36.0, 40.0))], height=72)
    assert [u.id for u in machines.bolt_targets(state2, get(state2, "bolt"))] == ["gobs"]


@pytest.mark.rule("W4-BOLT-04")
def test_the_bolt_thrower_pivots_to_face_its_target() -> None:
    state = make_state([engine(), goblins(at=(60.0, 30.0))])
    bolt = get(state, "bolt")
    machine = bolt.machine
    assert machine is not None and machine.facing == 0.0
    battle = make_battle(state, dice=[1])
    machines.fire_bolt(state, battle, bolt, get(state, "gobs"))
    assert 40 < machine.facing < 50
    assert events(battle, "machine_fire")[0]["facing"] == round(machine.facing, 3)


@pytest.mark.rule("W4-BOLT-04")
def test_the_primary_attack_keeps_the_floor_of_8() -> None:
    weak = profile("Weak", race="goblin", defenses={**GOBLIN_DEFENSES, "reflex": 5})
    state = make_state([engine(), goblins(profile=weak)])
    battle = make_battle(state, dice=[7])
    assert machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs")) == 0
    assert events(battle, "machine_fire")[0]["rolls"][0]["needed"] == 8


@pytest.mark.rule("W4-BOLT-02")
@pytest.mark.rule("W4-BOLT-03")
def test_bolt_damage_primary_then_secondary_on_non_minions() -> None:
    ogre = profile("Ogres", race="ogre", hp=30, defenses={**GOBLIN_DEFENSES})
    state = make_state([engine(), goblins(profile=ogre)])
    # two hits (15, 15), a miss (2); 2d8+4 = 8+8+4 = 20 on the first ogre; 1d6+4 = 6+4 = 10
    battle = make_battle(state, dice=[15, 15, 2, 8, 8, 6])
    gobs = get(state, "gobs")
    machines.fire_bolt(state, battle, get(state, "bolt"), gobs)
    assert gobs.models == 16 - 1  # 20 + 10 = 30 hit points: one ogre slain
    assert battle.dice.unused == 0


@pytest.mark.rule("W4-BOLT-08")
def test_bolt_throwers_never_misfire() -> None:
    state = make_state([engine(), goblins()])
    battle = make_battle(state, dice=[1])
    machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert not events(battle, "machine_misfire")
    assert not get(state, "bolt").machine.disabled  # type: ignore[union-attr]


@pytest.mark.rule("W4-AMB-63")
def test_paragon_crew_add_10_and_hits_are_hits_on_the_unit() -> None:
    tough = profile("Goblin brutes", race="goblin", resilience=2,
                    defenses={**GOBLIN_DEFENSES, "reflex": 25})
    state = make_state([engine(profile=crew(level=11)), goblins(profile=tough)])
    battle = make_battle(state, dice=[8, 8, 9, 11, 12])
    gobs = get(state, "gobs")
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), gobs)
    rolls = events(battle, "machine_fire")[0]["rolls"]
    assert [r["bonus"] for r in rolls] == [20, 18, 16, 14, 12]
    assert [r["needed"] for r in rolls] == [8, 8, 9, 11, 13]
    assert hits == 4
    assert gobs.models == 16 - 2  # resilience 2: four hits slay two


# ----------------------------------------------------------------- stone thrower details

def _stone_state(*others: dict[str, Any], **kwargs: Any) -> WarState:
    return make_state([stone_engine(), *others], **kwargs)


@pytest.mark.rule("W4-STONE-03")
@pytest.mark.rule("W4-AMB-64")
@pytest.mark.rule("W4-STONE-02")
def test_the_aim_is_a_model_more_than_12_inches_away_within_range() -> None:
    state = _stone_state(lone_enemy((36.0, 18.5), "near"), lone_enemy((30.0, 19.0), "ok"),
                         lone_enemy((10.0, 70.0), "far"), height=96)
    rock = get(state, "rock")
    machine = rock.machine
    assert machine is not None
    near, ok, far = (get(state, u).points[0] for u in ("near", "ok", "far"))
    assert machines.model_gap(machine, near, 1.0) == pytest.approx(12.0)
    refusal = machines.judge_action(state, rock, Order.of("aim", "rock", point_word(near)))
    assert not isinstance(refusal, Order) and refusal.rule == "W4-STONE-03"
    assert isinstance(machines.judge_action(state, rock, Order.of("aim", "rock",
                                                                  point_word(ok))), Order)
    beyond = machines.judge_action(state, rock, Order.of("aim", "rock", point_word(far)))
    assert not isinstance(beyond, Order) and beyond.rule == "W4-AMB-64"
    empty = machines.judge_action(state, rock, Order.of("aim", "rock", "50.0,30.0"))
    assert not isinstance(empty, Order) and empty.rule == "W4-STONE-02"
    assert machines.stone_aims(state, rock) == [ok]


@pytest.mark.rule("W4-STONE-01")
@pytest.mark.rule("W4-STONE-04")
@pytest.mark.rule("W4-STONE-06")
@pytest.mark.rule("W4-AMB-64")
def test_a_hit_symbol_lands_on_the_target_whatever_way_it_faced() -> None:
    state = _stone_state(goblins(at=(10.0, 30.0)))
    rock = get(state, "rock")
    aim = machines.stone_aims(state, rock)[0]
    # d10 7, scatter 2 (a hit face); then the burst's dice on every covered model
    battle = make_battle(state, dice=[7, 2] + [20] * 20)
    landed = machines.fire_stone(state, battle, rock, aim)
    assert landed == aim
    assert rock.machine.facing > 180  # rotated to face the goblins (west of north)  # type: ignore[union-attr]
    assert events(battle, "machine_fire")[0]["scatter"] == "hit"
    assert events(battle, "area_burst")


@pytest.mark.rule("W4-STONE-07")
@pytest.mark.rule("W4-AMB-64")
def test_an_arrow_moves_the_stone_the_d10_in_the_d360_direction() -> None:
    state = _stone_state(goblins(at=(36.0, 30.0)))
    rock = get(state, "rock")
    aim = machines.stone_aims(state, rock)[0]
    battle = make_battle(state, dice=[6, 5, 90] + [20] * 20)
    landed = machines.fire_stone(state, battle, rock, aim)
    assert landed is not None
    assert landed[0] == pytest.approx(aim[0] + 6.0) and landed[1] == pytest.approx(aim[1])
    battle2 = make_battle(_stone_state(goblins(at=(36.0, 30.0))), dice=[3, 3, 360] + [1] * 20)
    state2 = battle2.state
    landed2 = machines.fire_stone(state2, battle2, get(state2, "rock"), aim)
    assert landed2 is not None and landed2[1] == pytest.approx(aim[1] + 3.0)  # 360 is north


@pytest.mark.rule("W4-STONE-05")
@pytest.mark.rule("W4-STONE-09")
@pytest.mark.rule("W4-AMB-65")
def test_a_d10_of_1_misfires_whatever_the_scatter_die_shows() -> None:
    state = _stone_state(goblins())
    rock = get(state, "rock")
    aim = machines.stone_aims(state, rock)[0]
    battle = make_battle(state, dice=[1, 1, 5])  # a hit symbol, but the d10 shows 1
    assert machines.fire_stone(state, battle, rock, aim) is None
    assert not events(battle, "area_burst")
    assert events(battle, "machine_misfire")[0]["result"] == "may not shoot"
    assert not rock.machine.loaded and not rock.machine.disabled  # type: ignore[union-attr]


@pytest.mark.rule("W4-STONE-09")
@pytest.mark.rule("W4-WM-07")
def test_misfire_1_destroys_the_machine_and_slays_the_crew_not_the_character() -> None:
    state = _stone_state(goblins(), characters=[character("hero", "A", joined="rock")])
    rock = get(state, "rock")
    machine = rock.machine
    assert machine is not None
    battle = make_battle(state, dice=[1, 4, 1] + [10] * 6)  # then panic tests nearby
    machines.fire_stone(state, battle, rock, machines.stone_aims(state, rock)[0])
    assert machine.destroyed and not rock.alive
    assert events(battle, "machine_misfire")[0]["result"] == "destroyed"
    hero = state.characters["hero"]
    assert not hero.slain and hero.host is None and get(state, "hero").alive


@pytest.mark.rule("W4-STONE-09")
@pytest.mark.rule("W4-AMB-66")
@pytest.mark.rule("W4-AMB-65")
def test_misfire_2_disables_and_one_minion_crewman_takes_a_hit() -> None:
    state = _stone_state(goblins())
    rock = get(state, "rock")
    battle = make_battle(state, dice=[1, 4, 3])
    machines.fire_stone(state, battle, rock, machines.stone_aims(state, rock)[0])
    machine = rock.machine
    assert machine is not None and machine.disabled and not machine.loaded
    assert rock.models == 2  # one hit on resilience-1 minions
    assert machines.fire_refusal(state, rock) is not None


@pytest.mark.rule("W4-AMB-66")
@pytest.mark.rule("W4-STONE-09")
def test_non_minion_crew_take_tier_d10_damage() -> None:
    tough = crew(STONE, hp=30, level=15)
    state = make_state([stone_engine(profile=tough), goblins()])
    rock = get(state, "rock")
    battle = make_battle(state, dice=[1, 4, 2, 10, 9])  # paragon: 2d10 = 19
    machines.fire_stone(state, battle, rock, machines.stone_aims(state, rock)[0])
    assert rock.models == 3 and rock.wounds == 19
    assert battle.dice.unused == 0


@pytest.mark.rule("W4-AMB-66")
@pytest.mark.rule("W4-DEC-19")
def test_repair_is_a_standard_action_in_a_later_shooting_phase() -> None:
    state = _stone_state(goblins())
    rock = get(state, "rock")
    machine = rock.machine
    assert machine is not None
    machine.disabled, machine.disabled_turn, machine.loaded = True, 1, False
    assert machines.repair_refusal(state, rock) is not None  # not this turn
    state.turn = 2
    rock.new_turn()
    battle = make_battle(state, orders={"A": ["repair rock", "reload rock"]})
    seen = record(battle)
    machines.machine_shoots(state, battle, rock)
    first = next(d for d in seen if d.kind == "machine_action")
    assert {o.kind for o in first.options} == {"reload", "repair", "done"}
    assert not machine.disabled and rock.standard_used
    assert machine.loaded and rock.move_used


@pytest.mark.rule("W4-STONE-08")
def test_the_burst_attacks_friend_and_foe() -> None:
    friends = unit("guards", "A", at=(41.5, 29.5), facing=0, companies=1)
    state = _stone_state(goblins(at=(38.0, 30.0), companies=1), friends)
    rock = get(state, "rock")
    aim = (39.5, 30.5)  # the goblins' front right-hand model, 1" from the guards
    assert machines.aim_refusal(state, rock, aim) is None
    battle = make_battle(state, dice=[5, 1] + [20] * 30)  # a hit symbol
    machines.fire_stone(state, battle, rock, aim)
    covered = events(battle, "area_burst")[0]["covered"]
    assert "guards" in covered and "gobs" in covered
    shots = {e["target"]: e["needed"] for e in events(battle, "shoot")}
    # +8 against Reflex 13 (goblins) and Reflex 14 (the guards): needs 8 (the floor) both
    assert shots == {"gobs": 8, "guards": 8}


# ----------------------------------------------------------------- decisions and the AI

@pytest.mark.rule("W4-DEC-19")
def test_movement_decision_offers_reload_haul_crew_and_abandon() -> None:
    state = make_state([engine(), goblins()])
    bolt = get(state, "bolt")
    assert bolt.machine is not None
    bolt.machine.loaded = False
    kinds = [o.kind for o in machines.move_options(state, bolt)]
    assert kinds[0] == "hold" and {"reload", "haul", "crew", "abandon"} <= set(kinds)
    bolt.machine.loaded = True
    assert "reload" not in [o.kind for o in machines.move_options(state, bolt)]


def _decision(state: WarState, kind: str, subject: str, options: Any) -> Any:
    from warhost.core.decisions import Decision

    return Decision("A", kind, tuple(options), subject=subject)


def test_ai_reloads_repairs_and_picks_the_best_bolt_target() -> None:
    from warhost.rulesets.dnd4e_war import ai_machines

    skulks = lone_enemy((20.0, 30.0), "skulk")
    state = make_state([engine(), goblins(companies=2), skulks])
    bolt = get(state, "bolt")
    options = machines.fire_options(state, bolt) + [Order.of("done", "bolt")]
    assert {o.text for o in options} >= {"fire bolt gobs", "fire bolt skulk"}
    pick = ai_machines.machine_action(_decision(state, "machine_action", "bolt", options),
                                      state)
    assert pick == Order.of("fire", "bolt", "gobs")  # secondary hits only through companies
    repair = [Order.of("repair", "bolt"), Order.of("done", "bolt")]
    assert ai_machines.machine_action(_decision(state, "machine_action", "bolt", repair),
                                      state) == repair[0]
    assert bolt.machine is not None
    bolt.machine.loaded = False
    moves = machines.move_options(state, bolt)
    assert ai_machines.machine_move(_decision(state, "machine_move", "bolt", moves),
                                    state) == Order.of("reload", "bolt")


def test_ai_never_aims_a_stone_where_friends_are_in_the_burst() -> None:
    from warhost.rulesets.dnd4e_war import ai_machines

    friends = unit("guards", "A", at=(38.0, 33.5), facing=180, companies=1)
    big = stone_engine(profile=crew({**STONE, "burst": 3}))
    state = make_state([big, goblins(at=(38.0, 30.0), companies=1),
                        goblins(at=(10.0, 30.0), companies=1) | {"id": "gobs2"}, friends])
    rock = get(state, "rock")
    options = machines.fire_options(state, rock) + [Order.of("done", "rock")]
    pick = ai_machines.machine_action(_decision(state, "machine_action", "rock", options),
                                      state)
    assert pick is not None and pick.kind == "aim"
    point = tuple(float(v) for v in str(pick.args[1]).split(","))
    assert machines.model_at(state, point).id == "gobs2"  # type: ignore[arg-type, union-attr]


def test_ai_hauls_towards_the_enemy_when_none_is_in_range() -> None:
    from warhost.rulesets.dnd4e_war import ai_machines

    state = make_state([engine(), goblins(at=(36.0, 60.0))], height=72)
    bolt = get(state, "bolt")
    moves = machines.move_options(state, bolt)
    pick = ai_machines.machine_move(_decision(state, "machine_move", "bolt", moves), state)
    assert pick is not None and pick.kind == "haul"
    point = tuple(float(v) for v in str(pick.args[1]).split(","))
    assert point[1] > movement.anchor_of(bolt)[1] + 5.0


def test_machines_in_a_shooting_phase_and_on_the_map() -> None:
    from warhost.rulesets.dnd4e_war.view import map_view

    state = make_state([engine(), goblins(companies=4)])
    battle = make_battle(state, dice=[2, 2, 2, 2], orders={"A": ["fire bolt gobs"]})
    shooting.shooting_phase(state, battle)
    assert events(battle, "machine_fire")
    view = map_view(state)
    marker = view["markers"][0]
    assert marker["id"] == "bolt" and marker["kind"] == "bolt_thrower"
    assert len(marker["polygon"]) == 4 and marker["status"] in ("loaded", "unloaded")
    plain = make_state([unit("guards", "A"), goblins()])
    assert "markers" not in map_view(plain)


@pytest.mark.rule("W4-WM-04")
def test_a_machine_is_never_hauled_off_the_table() -> None:
    state = make_state([engine(at=(36.0, 4.0)), goblins(at=(36.0, 46.0))])
    bolt = get(state, "bolt")
    machine = bolt.machine
    assert machine is not None
    machine.at = (36.0, 1.5)  # its footprint reaches y = 0.5
    south = point_word(offset(movement.anchor_of(bolt), 180.0, 1.5))
    refusal = machines.judge_move(state, bolt, Order.of("haul", "bolt", south))
    assert not isinstance(refusal, Order) and refusal.rule == "W4-SETUP-02"
    hauls = [o for o in machines.move_options(state, bolt) if o.kind == "haul"]
    assert hauls and all(machines.judge_move(state, bolt, o) == o for o in hauls)


@pytest.mark.rule("W4-AMB-80")
def test_a_stone_is_not_aimed_at_a_unit_in_close_combat() -> None:
    state = _stone_state(lone_enemy((30.0, 19.0), "ok"), unit("guards", "A", at=(30.0, 22.0)))
    rock = get(state, "rock")
    aim = get(state, "ok").points[0]
    state.engage("ok", "guards")
    refusal = machines.judge_action(state, rock, Order.of("aim", "rock", point_word(aim)))
    assert not isinstance(refusal, Order) and refusal.rule == "W4-AMB-80"
    assert machines.stone_aims(state, rock) == []


@pytest.mark.rule("W4-DEC-19")
def test_the_crew_may_shoot_their_own_weapons_instead() -> None:
    sling = {"name": "Sling", "kind": "ranged", "bonus": 6, "range": 30, "damage": "4"}
    state = make_state([engine(profile=crew(powers=[sling])), goblins(companies=4)])
    bolt = get(state, "bolt")
    battle = make_battle(state, dice=[20, 20], orders={"A": ["use bolt sling"]})
    seen = record(battle)
    machines.machine_shoots(state, battle, bolt)
    first = next(d for d in seen if d.kind == "machine_action")
    assert {o.text for o in first.options} >= {"fire bolt gobs", "use bolt sling"}
    assert events(battle, "shoot")[0]["power"] == "Sling"
    assert bolt.machine is not None and bolt.machine.loaded  # the machine did not fire
    assert machines.fire_refusal(state, bolt) is not None  # the standard action is spent


@pytest.mark.rule("W4-WM-04")
@pytest.mark.rule("W4-MOVE-20")
def test_no_haul_with_an_enemy_within_6_inches() -> None:
    state = make_state([engine(), goblins(at=(36.0, 9.5))])  # 5.5" from the crew
    bolt = get(state, "bolt")
    refusal = machines.haul_refusal(state, bolt)
    assert refusal is not None and refusal.rule == "W4-MOVE-20"
    far = make_state([engine(), goblins(at=(36.0, 16.0))])
    assert machines.haul_refusal(far, get(far, "bolt")) is None


@pytest.mark.rule("W4-BOLT-03")
def test_secondary_attacks_are_against_reflex() -> None:
    """A bolt thrower whose primary attack is against AC (16) still makes its secondary
    attacks against Reflex (13): +10 needs 8 (the floor) both times, then +8 vs Reflex 13
    needs 8 where AC would need 8 too, then +6 vs Reflex needs 8, against AC it would be
    10: a 9 hits."""
    state = make_state([engine(machine={**BOLT, "vs": "ac"}), goblins()])
    battle = make_battle(state, dice=[15, 12, 9, 1])
    hits = machines.fire_bolt(state, battle, get(state, "bolt"), get(state, "gobs"))
    assert [r["needed"] for r in events(battle, "machine_fire")[0]["rolls"]] == [8, 8, 8, 9]
    assert hits == 3


@pytest.mark.rule("W4-WM-07")
@pytest.mark.rule("W4-STONE-09")
def test_a_disabling_misfire_hurts_a_crewman_not_a_joined_character() -> None:
    state = _stone_state(goblins(), characters=[character("hero", "A", joined="rock")])
    rock = get(state, "rock")
    assert rock.models == 4 and rock.joined == ["hero"]
    hero_place = rock.points[-1]
    battle = make_battle(state, dice=[1, 4, 2])
    machines.fire_stone(state, battle, rock, machines.stone_aims(state, rock)[0])
    assert rock.models == 3 and rock.normal_models == 2
    assert rock.points[-1] == hero_place and not state.characters["hero"].slain


@pytest.mark.rule("W4-WM-12")
def test_crew_do_not_line_up_off_the_table() -> None:
    state = make_state([engine(models=3, at=(36.0, 44.5)), goblins(at=(36.0, 52.0))],
                       height=48)
    bolt, gobs = get(state, "bolt"), get(state, "gobs")
    before = list(bolt.points)
    machines.line_up(state, make_battle(state), bolt, gobs)  # the line would be off the edge
    assert bolt.points == before
