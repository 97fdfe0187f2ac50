"""The Shooting phase (W4-SHOOT, W4-MULTI, W4-AMB-45 to 52, W4-DEC-16/17)."""

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
from warhost.core.decisions import Refusal
from warhost.rulesets.dnd4e_war import casualties, psychology, shooting
from warhost.rulesets.dnd4e_war.state import WarState

LONGBOW = {"name": "Longbow", "kind": "ranged", "bonus": 16, "range": 20,
           "damage": "1[W]+4", "weapon_dice": "1d10"}
HILL = {"name": "Silverhill", "rect": [24, 30, 24, 12], "height": 1}
EXAMPLE_FACES = [3, 6, 8, 8, 9, 9, 9, 10, 11, 11, 13, 15, 19]


def elf(**fields: Any) -> dict[str, Any]:
    entry = {"race": "elf", "speed": 7, "powers": [LONGBOW],
             "defenses": {"ac": 19, "fortitude": 16, "reflex": 18, "will": 16}}
    entry.update(fields)
    return profile("Elf archer", **entry)


def drow(**fields: Any) -> dict[str, Any]:
    entry = {"race": "drow", "formation": "skirmish", "speed": 7, "unit_size": [1, 16],
             "defenses": {"ac": 25, "fortitude": 17, "reflex": 20, "will": 18},
             "powers": [{"name": "Rapier", "kind": "melee", "bonus": 13}]}
    entry.update(fields)
    return profile("Drow", **entry)


def archers(at: tuple[float, float] = (36, 40), **fields: Any) -> dict[str, Any]:
    """The example's elves: one full and one half company side by side, a 2-attack
    captain."""
    entry: dict[str, Any] = {"profile": elf(), "companies": 2, "models": 12, "files": 2,
                             "command": {"captain": {"name": "Faelar", "attacks": 2}}}
    entry.update(fields)
    return unit("archers", "A", at=at, facing=180, **entry)


def watch_panic(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, dict[str, int]]]]:
    """Record each call of psychology.after_shooting with the phase's losses so far."""
    calls: list[tuple[str, dict[str, dict[str, int]]]] = []

    def after(state: WarState, battle: object, side: str) -> None:
        calls.append((side, {k: dict(v) for k, v in state.shooting_losses.items()}))

    monkeypatch.setattr(psychology, "after_shooting", after)
    return calls


@pytest.mark.rule("W4-SHOOT-14")
@pytest.mark.rule("W4-SHOOT-21")
@pytest.mark.rule("W4-SHOOT-11")
@pytest.mark.rule("W4-SHOOT-12")
@pytest.mark.rule("W4-SHOOT-13")
@pytest.mark.rule("W4-SHOOT-17")
@pytest.mark.rule("W4-SHOOT-20")
@pytest.mark.rule("W4-AMB-01")
@pytest.mark.rule("W4-AMB-04")
@pytest.mark.rule("W4-AMB-05")
@pytest.mark.rule("W4-AMB-32")
@pytest.mark.rule("W4-CMD-03")
def test_the_elves_on_the_hill_roll_13_dice_and_slay_9_drow(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = watch_panic(monkeypatch)
    state = make_state([archers(), unit("drow", "B", at=(36, 25), profile=drow(),
                                        companies=12)], terrain=[HILL])
    battle = make_battle(state, dice=EXAMPLE_FACES)
    shooting.shooting_phase(state, battle)
    shot = events(battle, "shoot")[0]
    assert (shot["dice"], shot["needed"], shot["hits"], shot["multiattack"]) == (
        13, 9, 9, "captain")
    assert shot["faces"] == EXAMPLE_FACES
    assert get(state, "drow").models == 3
    assert calls == [("A", {"drow": {"archers": 9}}), ("B", {})]


@pytest.mark.rule("W4-SHOOT-11")
@pytest.mark.rule("W4-SHOOT-12")
@pytest.mark.rule("W4-MULTI-01")
def test_on_level_ground_only_the_front_rows_shoot_and_the_captain_may_shoot_once() -> None:
    state = make_state([archers(), unit("drow", "B", at=(36, 25), profile=drow(),
                                        companies=12)])
    battle = make_battle(state, dice=[20] * 11, orders={"A": ["multiattack none"]})
    shooting.shooting_phase(state, battle)
    assert events(battle, "shoot")[0]["dice"] == 8  # 7 elves and the captain


@pytest.mark.rule("W4-SHOOT-02")
@pytest.mark.rule("W4-SHOOT-04")
@pytest.mark.rule("W4-DEC-16")
def test_the_side_picks_which_unit_shoots_and_may_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = watch_panic(monkeypatch)
    state = make_state([archers(), unit("second", "A", at=(20, 40), facing=180,
                                        profile=elf()),
                        unit("drow", "B", at=(30, 25), profile=drow(), companies=12)])
    battle = make_battle(state, dice=[1] * 20, orders={"A": ["shoot second", "done"]})
    seen = record(battle)
    shooting.shooting_phase(state, battle)
    first = next(d for d in seen if d.kind == "shooter")
    assert [str(o) for o in first.options] == ["shoot archers", "shoot second", "done"]
    assert [e["unit"] for e in events(battle, "shoot")] == ["second"]
    assert get(state, "second").standard_used and get(state, "second").shot
    assert not get(state, "archers").shot
    assert [side for side, _ in calls] == ["A", "B"]


@pytest.mark.rule("W4-SHOOT-03")
@pytest.mark.rule("W4-SHOOT-07")
@pytest.mark.rule("W4-AMB-49")
@pytest.mark.rule("W4-SHOOT-01")
def test_one_power_and_one_target_for_the_whole_unit_close_powers_wait() -> None:
    blast = {"name": "Breath", "kind": "close_blast", "bonus": 10, "area": 3}
    bows = elf(powers=[LONGBOW, {"name": "Short bow", "kind": "ranged", "bonus": 12,
                                 "range": 15}, blast])
    state = make_state([unit("a", "A", at=(30, 40), facing=180, profile=bows),
                        unit("d1", "B", at=(26, 30), profile=drow(), companies=4),
                        unit("d2", "B", at=(34, 30), profile=drow(), companies=4)])
    battle = make_battle(state, dice=[20] * 7, orders={"A": ["use a short-bow", "target d2"]})
    seen = record(battle)
    shooting.shooting_phase(state, battle)
    power = next(d for d in seen if d.kind == "shooting_power")
    assert [str(o) for o in power.options] == ["use a longbow", "use a short-bow"]
    target = next(d for d in seen if d.kind == "shooting_target")
    assert [str(o) for o in target.options] == ["target d1", "target d2"]
    shot = events(battle, "shoot")
    assert [(e["target"], e["power"], e["dice"]) for e in shot] == [("d2", "Short bow", 4)]


@pytest.mark.rule("W4-SHOOT-06")
@pytest.mark.rule("W4-SHOOT-08")
@pytest.mark.rule("W4-UNIT-05")
@pytest.mark.rule("W4-SKIRM-02")
def test_the_target_must_be_partly_in_the_arc_of_one_company_then_all_companies_shoot() -> None:
    state = make_state([unit("a", "A", at=(20, 10), companies=2, files=2, profile=elf()),
                        unit("d", "B", at=(27, 13.5), profile=drow(), companies=1),
                        unit("behind", "B", at=(20, 4), profile=drow(), companies=1),
                        unit("sk", "A", at=(50, 10), profile=drow(powers=[LONGBOW]),
                             companies=1),
                        unit("south", "B", at=(50, 4), profile=drow(), companies=1)])
    a, power = get(state, "a"), get(state, "a").powers("ranged")[0]
    assert [t.id for t in shooting.legal_targets(state, a, power)] == ["d"]
    battle = make_battle(state, dice=[1] * 8)
    shooting.shoot(state, battle, a, get(state, "d"), power)
    assert events(battle, "shoot")[0]["dice"] == 8  # only the right company sees it
    skirmisher = get(state, "sk")
    assert "south" in [t.id for t in shooting.legal_targets(state, skirmisher, power)]


@pytest.mark.rule("W4-SHOOT-06")
@pytest.mark.rule("W4-AMB-48")
@pytest.mark.rule("W4-MEAS-03")
def test_range_is_unit_to_unit_unless_each_company_must_reach() -> None:
    def setup(per_company: bool) -> tuple[WarState, int]:
        state = make_state([unit("a", "A", at=(20, 10), companies=2, files=2, profile=elf()),
                            unit("d", "B", at=(34, 26), profile=drow(), companies=1)],
                           options={"per_company_range": per_company})
        a = get(state, "a")
        power = a.powers("ranged")[0]
        assert shooting.legal_targets(state, a, power)
        battle = make_battle(state, dice=[1] * 8)
        shooting.shoot(state, battle, a, get(state, "d"), power)
        return state, events(battle, "shoot")[0]["dice"]

    assert setup(False)[1] == 8
    assert setup(True)[1] == 4


@pytest.mark.rule("W4-SHOOT-09")
@pytest.mark.rule("W4-SHOOT-10")
@pytest.mark.rule("W4-SKIRM-05")
@pytest.mark.rule("W4-AMB-45")
def test_a_model_or_company_without_a_clear_line_adds_no_dice() -> None:
    wall = {"name": "Crag", "rect": [5, 12, 10, 1], "blocks_sight": True}
    state = make_state([unit("sk", "A", at=(20, 10), profile=drow(powers=[LONGBOW]),
                             companies=2),
                        unit("d", "B", at=(10, 30), profile=drow(), companies=1)],
                       terrain=[wall])
    sk = get(state, "sk")
    sk.points = [(10.0, 10.0), (30.0, 10.0)]
    assert shooting.sighted_slots(state, sk, get(state, "d")) == [1]
    battle = make_battle(state, dice=[20])
    assert shooting.shoot(state, battle, sk, get(state, "d"), sk.powers("ranged")[0]) == 1
    assert events(battle, "shoot")[0]["dice"] == 1


@pytest.mark.rule("W4-AMB-45")
def test_other_units_block_sight_but_the_shooters_own_companies_do_not() -> None:
    state = make_state([unit("a", "A", at=(20, 10), companies=4, files=2, profile=elf()),
                        unit("screen", "A", at=(20, 16), companies=4, files=4),
                        unit("d", "B", at=(20, 24), profile=drow(), companies=1)])
    a, power = get(state, "a"), get(state, "a").powers("ranged")[0]
    assert shooting.legal_targets(state, a, power) == []
    get(state, "screen").destroyed = True
    assert [t.id for t in shooting.legal_targets(state, a, power)] == ["d"]
    assert shooting.sighted_slots(state, a, get(state, "d")) == [0, 1, 2, 3]


@pytest.mark.rule("W4-AMB-80")
@pytest.mark.rule("W4-AMB-18")
@pytest.mark.rule("W4-MOVE-17")
def test_engaged_fleeing_and_reformed_units_do_not_shoot_and_combat_is_not_shot_into() -> None:
    def fresh(**options: Any) -> WarState:
        return make_state([unit("a", "A", at=(20, 10), profile=elf()),
                           unit("d", "B", at=(20, 20), profile=drow(), companies=2),
                           unit("x", "A", at=(40, 30), facing=180)], options=options)

    state = fresh()
    a, power = get(state, "a"), get(state, "a").powers("ranged")[0]
    assert shooting.can_shoot(state, a)
    state.engage("d", "x")
    assert shooting.legal_targets(state, a, power) == []
    assert not shooting.can_shoot(state, get(state, "x"))
    into = fresh(shoot_into_combat=True)
    into.engage("d", "x")
    assert [t.id for t in shooting.legal_targets(into, get(into, "a"), power)] == ["d"]
    for flag in ("fleeing", "reformed", "standard_used", "double_moved"):
        other = fresh()
        setattr(get(other, "a"), flag, True)
        assert not shooting.can_shoot(other, get(other, "a")), flag


@pytest.mark.rule("W4-SHOOT-15")
@pytest.mark.rule("W4-SHOOT-16")
@pytest.mark.rule("W4-AMB-46")
def test_cover_from_a_majority_of_lines_and_only_the_highest_bonus() -> None:
    hedge = {"name": "Hedge", "rect": [10, 18, 20, 1], "cover": "cover"}
    wood = {"name": "Wood", "rect": [10, 18, 20, 1], "concealment": "total_concealment"}
    for terrain, bonus in (([], 0), ([hedge], 2), ([hedge, wood], 5)):
        state = make_state([unit("a", "A", at=(20, 10), profile=elf()),
                            unit("d", "B", at=(20, 24), profile=drow(), companies=1)],
                           terrain=terrain)
        battle = make_battle(state, dice=[1] * 4)
        shooting.shoot(state, battle, get(state, "a"), get(state, "d"),
                       get(state, "a").powers("ranged")[0])
        shot = events(battle, "shoot")[0]
        assert (shot["cover"], shot["needed"]) == (bonus, 9 + bonus)


@pytest.mark.rule("W4-AMB-07")
@pytest.mark.rule("W4-AMB-08")
def test_a_unit_that_ran_shoots_at_minus_five() -> None:
    state = make_state([unit("a", "A", at=(20, 10), profile=elf()),
                        unit("d", "B", at=(20, 24), profile=drow(), companies=1)])
    get(state, "a").ran = True
    battle = make_battle(state, dice=[1] * 4)
    shooting.shoot(state, battle, get(state, "a"), get(state, "d"),
                   get(state, "a").powers("ranged")[0])
    assert events(battle, "shoot")[0]["needed"] == 14


@pytest.mark.rule("W4-SHOOT-13")
@pytest.mark.rule("W4-MULTI-05")
@pytest.mark.rule("W4-STAT-08")
@pytest.mark.rule("W4-STAT-09")
@pytest.mark.rule("W4-DEC-16")
def test_rank_and_file_with_several_attacks_may_multiattack() -> None:
    state = make_state([unit("a", "A", at=(20, 10), profile=elf(attacks=3),
                             command={"captain": {"attacks": 2}}),
                        unit("d", "B", at=(20, 24), profile=drow(), companies=12)])
    a = get(state, "a")
    assert shooting.multiattack_options(a) == ["all", "captain", "ranks", "none"]
    battle = make_battle(state, dice=[1] * 20, orders={"A": ["multiattack ranks"]})
    shooting.shooting_phase(state, battle)
    assert events(battle, "shoot")[0]["dice"] == 3 * 3 + 1
    single = make_state([unit("a", "A", at=(20, 10), profile=elf()),
                         unit("d", "B", at=(20, 24), profile=drow(), companies=4)])
    assert shooting.multiattack_options(get(single, "a")) == ["none"]


@pytest.mark.rule("W4-MULTI-03")
@pytest.mark.rule("W4-MULTI-04")
@pytest.mark.rule("W4-AMB-52")
def test_multiattack_needs_an_at_will_power_without_area_and_minion_targets() -> None:
    state = make_state([unit("a", "A", at=(20, 10), profile=elf(attacks=2)),
                        unit("d", "B", at=(20, 24), profile=drow(), companies=4),
                        unit("ogre", "B", at=(40, 24), profile=drow(hp=40), companies=1)])
    power = get(state, "a").powers("ranged")[0]
    assert shooting.multiattack_allowed(state, power, get(state, "d"))
    assert not shooting.multiattack_allowed(state, power, get(state, "ogre"))
    daily = power.model_copy(update={"usage": "daily"})
    assert not shooting.multiattack_allowed(state, daily, get(state, "d"))
    area = power.model_copy(update={"kind": "area_burst", "area": 1})
    assert not shooting.multiattack_allowed(state, area, get(state, "d"))
    state.options = state.options.model_copy(update={"multiattack_vs_nonminions": True})
    assert shooting.multiattack_allowed(state, power, get(state, "ogre"))


@pytest.mark.rule("W4-SHOOT-22")
@pytest.mark.rule("W4-PANIC-08")
@pytest.mark.rule("W4-AMB-20")
def test_a_company_worth_of_casualties_triggers_the_panic_test() -> None:
    state = make_state([unit("a", "A", companies=3),
                        unit("d", "B", at=(20, 30), profile=drow(), companies=12)])
    a, d = get(state, "a"), get(state, "d")
    assert [shooting.company_worths(a, n) for n in (7, 8, 16, 23)] == [0, 1, 2, 2]
    assert [shooting.panic_due(a, n) for n in (7, 8)] == [False, True]
    assert [shooting.company_worths(d, n) for n in (3, 4, 9)] == [0, 1, 2]


MAGE = {"name": "Fire burst", "kind": "area_burst", "bonus": 10, "vs": "reflex",
        "range": 20, "area": 2, "damage": "1d6"}


def burst_state() -> WarState:
    state = make_state([
        unit("mage", "A", at=(30, 6), profile=drow(powers=[MAGE], race="human"), companies=1),
        unit("friends", "A", at=(22, 20), profile=drow(), companies=1),
        unit("d", "B", at=(26, 20), profile=drow(), companies=5),
        unit("far", "B", at=(40, 20), profile=drow(), companies=1)])
    return state


@pytest.mark.rule("W4-AMB-50")
@pytest.mark.rule("W4-AREA-03")
@pytest.mark.rule("W4-AREA-01")
@pytest.mark.rule("W4-DEC-17")
def test_an_area_burst_attacks_every_covered_model_friend_or_foe() -> None:
    state = burst_state()
    # drow bases at x 22, 24, 26, 28, 30 (y 19.5); the friend at x 22 y 19.5 as well
    get(state, "friends").points = [(21.0, 19.5)]
    battle = make_battle(state, dice=[20, 20, 1, 20], orders={"A": ["centre 22.5,19.5"]})
    shooting.shooting_phase(state, battle)
    burst = events(battle, "area_burst")[0]
    assert burst["covered"] == {"friends": 1, "d": 2}
    shots = events(battle, "shoot")
    assert [(e["target"], e["dice"], e["hits"]) for e in shots] == [("friends", 1, 1),
                                                                    ("d", 2, 1)]
    assert shots[0]["needed"] == 20 - 10  # the drow's reflex 20 against +10


@pytest.mark.rule("W4-DEC-17")
@pytest.mark.rule("W4-SHOOT-06")
def test_burst_centres_offered_and_any_point_in_range_accepted() -> None:
    state = burst_state()
    mage = get(state, "mage")
    power = mage.powers("area_burst")[0]
    assert shooting.burst_centres(state, mage, power) == [get(state, "d").frame().centre,
                                                          get(state, "far").frame().centre]
    assert shooting.burst_reach(state, mage, power, (30.0, 20.0)) is None
    far = shooting.burst_reach(state, mage, power, (30.0, 40.0))
    assert isinstance(far, Refusal) and far.rule == "W4-SHOOT-06"
    off = shooting.burst_reach(state, mage, power, (-3.0, 10.0))
    assert isinstance(off, Refusal)
    battle = make_battle(state, dice=[1] * 10, orders={"A": ["centre 30,40"]})
    with pytest.raises(Exception, match="beyond the range"):
        shooting.shooting_phase(state, battle)


@pytest.mark.rule("W4-DEC-16")
def test_a_unit_whose_only_target_was_shot_away_is_no_longer_offered() -> None:
    state = make_state([unit("a1", "A", at=(20, 10), profile=elf()),
                        unit("a2", "A", at=(30, 10), profile=elf()),
                        unit("d", "B", at=(25, 20), profile=drow(), companies=2),
                        unit("far", "B", at=(60, 40), profile=drow(), companies=2)])
    battle = make_battle(state, dice=[20, 20, 20, 20])
    seen = record(battle)
    shooting.side_shoots(state, battle, "A")
    asked = [[str(o) for o in d.options] for d in seen if d.kind == "shooter"]
    assert asked == [["shoot a1", "shoot a2", "done"]]
    assert get(state, "d").destroyed and not get(state, "a2").shot


@pytest.mark.rule("W4-CMD-01")
@pytest.mark.rule("W4-SHOOT-13")
def test_a_skirmishing_captain_multiattacks_and_is_the_last_model_lost() -> None:
    state = make_state([unit("sk", "A", at=(20, 10), profile=drow(powers=[LONGBOW]),
                             companies=4, command={"captain": {"attacks": 3}}),
                        unit("d", "B", at=(20, 24), profile=drow(), companies=8)])
    sk, d = get(state, "sk"), get(state, "d")
    assert shooting.multiattack_options(sk) == ["captain", "none"]
    slots = shooting.sighted_slots(state, sk, d)
    assert shooting.count_dice(state, sk, d, slots, "captain") == shooting.Dice(3, 3)
    first = sk.points[0]
    battle = make_battle(state)
    casualties.apply_hits(state, battle, sk, 3, "d", "shooting")
    assert sk.points == [first] and sk.captain is not None


@pytest.mark.rule("W4-AMB-80")
@pytest.mark.rule("W4-DEC-17")
def test_no_burst_centre_is_offered_on_a_unit_in_close_combat() -> None:
    state = burst_state()
    state.engage("d", "friends")
    mage = get(state, "mage")
    power = mage.powers("area_burst")[0]
    assert shooting.burst_centres(state, mage, power) == [get(state, "far").frame().centre]
