"""The turn's order of phases and sides (W4-TURN-01 to 06), set-up from the scenario
(W4-SETUP-01, W4-DEC-03) and rules that span several phases: the action economy (W4-AMB-06),
fixed company trays and facing (W4-UNIT-02/03/13), measuring before charging
(W4-CHARGE-03/11) and close combat casualties (W4-MELEE-11)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    events,
    get,
    make_battle,
    make_state,
    profile,
    record,
    unit,
)
from tests.rulesets.dnd4e_war.test_shooting import archers, drow
from warhost.core.engine import run_battle
from warhost.core.registry import get_ruleset
from warhost.core.scenario import load_scenario
from warhost.rulesets.dnd4e_war import (
    casualties,
    charge,
    game,
    melee,
    movement,
    psychology,
    shooting,
)
from warhost.rulesets.dnd4e_war.state import WarState

BOW = {"name": "Bow", "kind": "ranged", "bonus": 8, "range": 24, "damage": "1d8"}


@pytest.mark.rule("W4-TURN-01")
@pytest.mark.rule("W4-TURN-02")
def test_each_turn_runs_the_six_phases_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, str]] = []

    def phase(name: str) -> Any:
        def run(state: WarState, battle: object) -> None:
            seen.append((state.turn, name))
        return run

    for module, attr, name in ((movement, "movement_phase", "movement"),
                               (shooting, "shooting_phase", "shooting"),
                               (charge, "charge_phase", "charge"),
                               (melee, "close_combat_phase", "close combat"),
                               (psychology, "end_of_turn", "end")):
        monkeypatch.setattr(module, attr, phase(name))
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)],
                       options={"turn_limit": 2})
    state.turn = 0
    battle = make_battle(state, dice=[10, 5, 3, 12])
    game.play(state, battle)
    order = ["movement", "shooting", "charge", "close combat", "end"]
    assert seen == [(1, n) for n in order] + [(2, n) for n in order]
    assert [e["side"] for e in events(battle, "initiative")] == ["A", "B"]  # a roll each turn



@pytest.mark.rule("W4-TURN-03")
@pytest.mark.rule("W4-TURN-04")
@pytest.mark.rule("W4-TURN-05")
@pytest.mark.rule("W4-TURN-06")
def test_the_side_with_the_initiative_acts_first_in_every_phase() -> None:
    shooter = profile(powers=[BOW, {"name": "Spear", "kind": "melee", "bonus": 8}])
    for first in ("A", "B"):
        state = make_state([unit("a", profile=shooter),
                            unit("b", "B", at=(20, 30), facing=180, profile=shooter)])
        state.initiative = first
        battle = make_battle(state, dice=[1] * 40)
        battle.seen = record(battle)  # type: ignore[attr-defined]
        movement.movement_phase(state, battle)
        assert battle.seen[0].side == first  # type: ignore[attr-defined]
        battle.seen.clear()  # type: ignore[attr-defined]
        shooting.shooting_phase(state, battle)
        assert battle.seen[0].side == first  # type: ignore[attr-defined]
    # charges: the first side declares and moves before the other is asked
    state = make_state([unit("a"), unit("b", "B", at=(20, 13), facing=180)])
    state.initiative = "B"
    battle = make_battle(state, dice=[6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 20, 20])
    seen = record(battle)
    charge.charge_phase(state, battle)
    assert seen and seen[0].side == "B" and seen[0].kind == "charge"
    # close combat: the side with the initiative picks the fight
    fights = make_state([unit("a"), unit("b", "B", at=(20, 10), facing=180),
                         unit("c", at=(40, 10)), unit("d", "B", at=(40, 10), facing=180)])
    fights.engage("a", "b")
    fights.engage("c", "d")
    fights.initiative = "B"
    battle = make_battle(fights, dice=[1] * 80)
    seen = record(battle)
    melee.close_combat_phase(fights, battle)
    picks = [d for d in seen if d.kind == "fight"]
    assert picks and all(d.side == "B" for d in picks)


@pytest.mark.rule("W4-INIT-05")
@pytest.mark.rule("W4-INIT-02")
def test_the_initiative_roll_has_no_modifiers_not_even_from_a_captains_action_points() -> None:
    state = make_state([unit("a", command={"captain": {"action_points": 3}}),
                        unit("b", "B", at=(20, 30), facing=180)])
    battle = make_battle(state, dice=[11, 11, 9, 8])
    asked = record(battle)
    game.initiative_phase(state, battle)
    assert [e["totals"] for e in events(battle, "roll_off")] == [
        {"A": 11, "B": 11}, {"A": 9, "B": 8}]
    assert not any(d.kind.startswith("action_point") for d in asked)


@pytest.mark.rule("W4-SETUP-01")
@pytest.mark.rule("W4-DEC-03")
def test_the_software_measures_and_deploys_from_the_scenario_file() -> None:
    path = "examples/dnd4e-war/hill-archers.yaml"
    scenario = load_scenario(path)
    model = scenario.model
    sides = get_ruleset("dnd4e-war").side_names(model)
    result = run_battle(scenario, 2, {s: "random" for s in sides})
    deploys = {e["unit"]: e for e in result.log.of_type("deploy")}
    for side in model.sides:
        for spec in side.units:
            placed = deploys[spec.id]
            assert placed["at"] == [float(spec.at[0]), float(spec.at[1])]
            assert placed["facing"] == float(spec.facing) % 360
            if spec.files is not None:
                assert placed["files"] == spec.files
    assert result.outcome.rounds >= 1


@pytest.mark.rule("W4-UNIT-02")
@pytest.mark.rule("W4-UNIT-03")
def test_a_company_keeps_its_tray_and_facing_whatever_its_losses() -> None:
    state = make_state([unit("a", companies=2, files=2, facing=90.0, at=(20, 20)),
                        unit("z", "B", at=(60, 40), facing=180)])
    a = get(state, "a")
    before = [(t.width, t.depth, t.facing) for t in a.trays()]
    battle = make_battle(state, dice=[])
    casualties.apply_hits(state, battle, a, 3, "test", "test")
    after = [(t.width, t.depth, t.facing) for t in a.trays()]
    assert a.companies == [8, 5] and after == before
    assert {t.facing for t in a.trays()} == {90.0}  # every company faces the unit's way


@pytest.mark.rule("W4-UNIT-13")
def test_engaged_units_touch_without_lining_up_corner_to_corner() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(22.5, 13), facing=180,
                                        profile=profile(defenses={"ac": 30, "fortitude": 14,
                                                                  "reflex": 14, "will": 14}))])
    battle = make_battle(state, dice=[6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                         orders={"A": ["charge a b"]})
    charge.side_charges(state, battle, "A")
    a, b = get(state, "a"), get(state, "b")
    assert state.is_engaged("a") and state.gap(a, b) < 1e-6
    corners_a = {tuple(round(c, 6) for c in p) for t in a.trays() for p in t.corners()}
    corners_b = {tuple(round(c, 6) for c in p) for t in b.trays() for p in t.corners()}
    assert not corners_a & corners_b  # in contact, but offset


@pytest.mark.rule("W4-AMB-06")
@pytest.mark.rule("W4-MULTI-02")
def test_one_standard_one_move_and_one_minor_action_a_turn() -> None:
    state = make_state([archers(at=(36, 30)),
                        unit("drow", "B", at=(36, 15), profile=drow(), companies=8)])
    elves = get(state, "archers")
    elves.double_moved = elves.standard_used = elves.move_used = True
    assert not shooting.can_shoot(state, elves)  # the double move took the standard action
    elves.new_turn()
    battle = make_battle(state, dice=[20] * 30, orders={"A": ["multiattack captain"]})
    shooting.side_shoots(state, battle, "A")
    assert elves.shot and elves.standard_used  # the multiattack was its standard action
    assert not charge.can_charge(state, elves)  # and no charge after shooting


@pytest.mark.rule("W4-CHARGE-03")
@pytest.mark.rule("W4-CHARGE-11")
def test_distances_are_measured_for_the_player_before_declaring_and_spearheading() -> None:
    state = make_state([unit("a", companies=2, files=2),
                        unit("b", "B", at=(24, 14.5), facing=180)])
    battle = make_battle(state, dice=[6] + [1] * 30, orders={"A": ["charge a b"]})
    seen = record(battle)
    charge.side_charges(state, battle, "A")
    declared = next(d for d in seen if d.kind == "charge")
    assert declared.info["distances"] == {"b": 4.5}
    assert "b 4.5\"" in declared.prompt
    head = next(d for d in seen if d.kind == "spearhead")
    assert head.info["distances"] == [4.92, 4.5]  # the left company is off to one side


@pytest.mark.rule("W4-MELEE-11")
def test_close_combat_casualties_leave_the_front_rank_full_while_rear_models_step_up() -> None:
    state = make_state([unit("a", companies=2, files=1),
                        unit("b", "B", at=(20, 10), facing=180)])
    state.engage("a", "b")
    a = get(state, "a")
    battle = make_battle(state, dice=[])
    casualties.apply_hits(state, battle, a, 3, "b", "close combat")
    assert a.companies == [8, 5]  # the front company is whole: the rear filled its gaps
    assert a.front_row(0) == 4



@pytest.mark.rule("W4-AREA-04")
def test_the_burst_marker_is_the_size_of_a_medium_base() -> None:
    from shapely.geometry import Point as ShapelyPoint

    from warhost.geometry.table import area_burst
    from warhost.rulesets.dnd4e_war.tables import SIZE_BASE

    marker = area_burst((10.0, 10.0), 0)
    medium = ShapelyPoint(10.0, 10.0).buffer(SIZE_BASE["medium"] / 2.0)
    assert marker.symmetric_difference(medium).area < 0.01
    assert area_burst((10.0, 10.0), 2).bounds == pytest.approx((7.5, 7.5, 12.5, 12.5),
                                                               abs=1e-3)


@pytest.mark.rule("W4-SHOOT-04")
def test_the_whole_unit_spends_its_action_even_when_only_part_can_shoot() -> None:
    wall = {"name": "Wall", "rect": [10, 10.5, 13, 1], "blocks_sight": True}
    state = make_state([unit("a", companies=2, files=2, at=(20, 10),
                             profile=profile(powers=[BOW])),
                        unit("b", "B", at=(28, 24), facing=180)], terrain=[wall])
    a = get(state, "a")
    battle = make_battle(state, dice=[20] * 20)
    shooting.side_shoots(state, battle, "A")
    shot = events(battle, "shoot")[0]
    assert shot["dice"] == 4  # only the right-hand company sees past the wall
    assert a.standard_used and a.shot


@pytest.mark.rule("W4-CAS-11")
@pytest.mark.rule("W4-DEC-34")
def test_ongoing_damage_strikes_a_single_model_without_asking() -> None:
    ogres = profile("Ogre", hp=30, size="large", formation="skirmish", unit_size=[1, 8])
    state = make_state([unit("o", profile=ogres, companies=3),
                        unit("z", "B", at=(60, 40), facing=180)])
    o = get(state, "o")
    battle = make_battle(state, dice=[])
    seen = record(battle)
    casualties.ongoing_damage(state, battle, o, 40)
    assert o.models == 2 and seen == []  # 40 damage, one ogre: the excess is lost
    minions = make_state([unit("m", profile=profile(resilience=2)),
                          unit("z", "B", at=(60, 40), facing=180)])
    m = get(minions, "m")
    casualties.ongoing_damage(minions, make_battle(minions), m, 5)
    assert (m.models, m.weakened) == (8, 1)


@pytest.mark.rule("W4-SKIRM-04")
@pytest.mark.rule("W4-SKIRM-05")
def test_skirmishers_of_one_unit_do_not_block_each_others_sight() -> None:
    column = drow(powers=[BOW])
    state = make_state([unit("d", profile=column, companies=2, at=(20, 10)),
                        unit("b", "B", at=(20, 30), facing=180)])
    d = get(state, "d")
    d.points = [(20.0, 10.0), (20.0, 7.0)]  # one behind the other, in line with the target
    target = get(state, "b")
    assert shooting.legal_targets(state, d, column_power(d)) == [target]
    assert shooting.sighted_slots(state, d, target) == [0, 1]


def column_power(unit_: Any) -> Any:
    return unit_.powers("ranged")[0]


@pytest.mark.rule("W4-AMB-98")
@pytest.mark.rule("W4-SKIRM-01")
def test_skirmishers_keep_a_chain_within_two_inches_as_they_move() -> None:
    from warhost.geometry.table import distance

    state = make_state([unit("s", profile=drow(), companies=6, at=(30, 10)),
                        unit("z", "B", at=(60, 44), facing=180)])
    s = get(state, "s")
    battle = make_battle(state, orders={"A": ["walk s 33,14"]})
    movement.move_unit(state, battle, s)
    assert events(battle, "move")
    for i, p in enumerate(s.points):
        others = [q for j, q in enumerate(s.points) if j != i]
        assert min(distance(p, q) for q in others) - s.base <= 2.0


@pytest.mark.rule("W4-UNIT-03")
@pytest.mark.rule("W4-MOVE-08")
def test_the_invariants_catch_a_unit_turned_by_no_rule() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 30), facing=180)])
    deployed = [{"type": "deploy", "unit": "a", "facing": 0.0},
                {"type": "deploy", "unit": "b", "facing": 180.0}]
    assert game.check_invariants(state, deployed) == []
    get(state, "a").facing = 90.0  # turned with no wheel, pivot, reform or flight
    assert game.check_invariants(state, deployed) == [
        "a faces 90 but the last move allowed to turn it left it facing 0"]
    wheeled = deployed + [{"type": "move", "unit": "a", "kind": "pivot", "facing": 90.0}]
    assert game.check_invariants(state, wheeled) == []
