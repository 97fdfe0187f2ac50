"""Characters in play (W4-CHAR section): unit strength with a character, moving together,
joining and leaving in the Movement phase, hit points, casualties that stop at the normal
models, and the courage and rules a character gives his unit."""

from __future__ import annotations

import pytest

from tests.rulesets.dnd4e_war.helpers import (
    character,
    events,
    get,
    make_battle,
    make_state,
    profile,
    scenario_data,
    unit,
)
from warhost.core.decisions import Refusal
from warhost.core.errors import IllegalOrderError, ScenarioError
from warhost.core.orders import Order
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd4e_war import casualties, joining, movement, psychology
from warhost.rulesets.dnd4e_war.characters import join
from warhost.rulesets.dnd4e_war.movement import Mover

FOE = unit("foe", "B", at=(60.0, 44.0), facing=180)
KNIGHTS = profile("Spider knights", race="drow", size="medium", cavalry=True,
                  mount_size="large", unit_size=[1, 10])


def spider_rider(**fields: object) -> dict[str, object]:
    return character("rider", race="drow", mount_size="large", mount_monster=True,
                     **fields)


# --------------------------------------------------------------------------- unit strength

@pytest.mark.rule("W4-STR-07")
def test_a_lone_spider_rider_has_unit_strength_4() -> None:
    state = make_state([unit("k", profile=KNIGHTS, companies=5), FOE],
                       characters=[spider_rider(at=(40, 10))])
    assert get(state, "rider").strength() == 4


@pytest.mark.rule("W4-STR-08")
def test_the_spider_rider_joining_ten_spider_knights_makes_24() -> None:
    state = make_state([unit("k", profile=KNIGHTS, companies=5), FOE],
                       characters=[spider_rider(joined="k")])
    knights = get(state, "k")
    assert knights.normal_models == 10
    assert knights.strength() == 2 * 10 + 4


# --------------------------------------------------------------------------- moving together

@pytest.mark.rule("W4-MOVE-04")
@pytest.mark.rule("W4-CHAR-05")
def test_a_unit_moves_at_its_slowest_members_speed() -> None:
    state = make_state([unit("a"), FOE], characters=[character("slow", joined="a", speed=4)])
    assert get(state, "a").speed() == 4
    refusal = Mover(state, get(state, "a")).judge(Order.parse("walk a 20,15"))
    assert isinstance(refusal, Refusal)
    assert isinstance(Mover(state, get(state, "a")).judge(Order.parse("walk a 20,14")), Order)


@pytest.mark.rule("W4-CHAR-03")
@pytest.mark.rule("W4-CHAR-05")
@pytest.mark.rule("W4-CHAR-06")
@pytest.mark.rule("W4-AMB-82")
@pytest.mark.rule("W4-DEC-15")
def test_a_character_who_walked_4_to_join_lets_the_unit_move_only_2_more() -> None:
    # the unit's front edge is at y=10 and it is 2" deep: its rear edge at y=8; the hero's
    # base (1", front edge at y=4) is 4" behind it
    state = make_state([unit("a"), FOE], characters=[character("hero", at=(20, 4))])
    battle = make_battle(state, orders={"A": ["move hero", "join hero a", "walk a 20,13"]})
    with pytest.raises(IllegalOrderError, match="only 2.00"):
        movement.remaining_step(state, battle, "A")
    state = make_state([unit("a"), FOE], characters=[character("hero", at=(20, 4))])
    battle = make_battle(state, orders={"A": ["move hero", "join hero a", "walk a 20,12"]})
    movement.remaining_step(state, battle, "A")
    host = get(state, "a")
    assert host.joined == ["hero"] and host.front == pytest.approx((20.0, 12.0))
    assert host.move_used and get(state, "hero").move_used
    assert [e["cost"] for e in events(battle, "character_joined")] == [pytest.approx(4.0)]


@pytest.mark.rule("W4-CHAR-03")
def test_joining_an_enemy_or_a_fleeing_unit_is_refused() -> None:
    state = make_state([unit("a"), unit("f", at=(30, 10)), unit("e", "B", at=(40, 20))],
                       characters=[character("hero", at=(25, 5))])
    get(state, "f").fleeing = True
    own, person = get(state, "hero"), state.characters["hero"]
    for host in ("f", "e"):
        refusal = joining.judge_join(state, own, Order.of("join", "hero", host))
        assert isinstance(refusal, Refusal) and refusal.rule == "W4-CHAR-03"
    assert joining.host_refusal(state, person, get(state, "a")) is None


@pytest.mark.rule("W4-CHAR-07")
@pytest.mark.rule("W4-CHAR-08")
@pytest.mark.rule("W4-DEC-15")
def test_a_character_steps_out_at_no_cost_to_the_unit_and_moves_on() -> None:
    state = make_state([unit("a"), FOE], characters=[character("hero", joined="a")])
    battle = make_battle(state, orders={"A": ["leave hero", "leave hero 22.55,9",
                                              "walk hero 24.55,9", "done"]})
    movement.remaining_step(state, battle, "A")
    host, own = get(state, "a"), get(state, "hero")
    assert host.joined == [] and not host.move_used and host.companies == [8]
    assert own.alive and own.points == [pytest.approx((24.55, 9.0))]
    assert [e["unit"] for e in events(battle, "character_left")] == ["a"]


@pytest.mark.rule("W4-CHAR-07")
def test_stepping_out_inside_another_unit_or_beyond_speed_is_refused() -> None:
    state = make_state([unit("a"), unit("b", at=(30, 10)), FOE],
                       characters=[character("hero", joined="a")])
    person = state.characters["hero"]
    inside = joining.judge_leave(state, person, Order.parse("leave hero 30,9"))
    far = joining.judge_leave(state, person, Order.parse("leave hero 20,30"))
    assert isinstance(inside, Refusal) and inside.rule == "W4-CHAR-07"
    assert isinstance(far, Refusal) and far.rule == "W4-CHAR-07"
    assert len(joining.leave_points(state, person)) == 4


# --------------------------------------------------------------------------- casualties

@pytest.mark.rule("W4-CHAR-10")
@pytest.mark.rule("W4-CHAR-18")
def test_hits_on_a_lone_character_take_hit_points_and_excess_is_wasted() -> None:
    state = make_state([unit("a"), FOE], characters=[character("hero", at=(40, 10))])
    own = get(state, "hero")
    battle = make_battle(state, dice=[20, 15, 3])
    losses = casualties.apply_hits(state, battle, own, 3, "foe", "shooting", damage="1d20")
    person = state.characters["hero"]
    assert person.wounds == 38 and person.hp_left == 2 and losses.slain == 0
    battle = make_battle(state, dice=[5])
    losses = casualties.apply_hits(state, battle, own, 4, "foe", "shooting", damage="1d20")
    assert person.slain and losses.slain == 1 and not own.alive
    assert events(battle, "character_wounded")[0]["used"] == 1


@pytest.mark.rule("W4-CHAR-11")
def test_hits_on_a_unit_never_take_its_joined_character() -> None:
    state = make_state([unit("a"), FOE], characters=[character("hero", joined="a")])
    host = get(state, "a")
    battle = make_battle(state, dice=[20])  # the stranded hero's panic test
    casualties.apply_hits(state, battle, host, 20, "foe", "shooting")
    assert host.destroyed
    own = get(state, "hero")
    assert own.alive and not state.characters["hero"].slain
    assert events(battle, "character_stranded")[0]["character"] == "hero"


@pytest.mark.rule("W4-CHAR-09")
@pytest.mark.rule("W4-CAS-08")
def test_a_unit_with_a_character_is_immune_to_hope_is_lost() -> None:
    state = make_state([unit("a"), unit("b", at=(30, 10)), FOE],
                       characters=[character("hero", joined="a")])
    battle = make_battle(state, dice=[20])  # a's panic test when b is gone
    casualties.apply_hits(state, battle, get(state, "a"), 5, "foe", "shooting")
    casualties.apply_hits(state, battle, get(state, "b"), 5, "foe", "shooting")
    assert get(state, "a").normal_models == 3 and get(state, "b").models == 0
    assert not events(battle, "hope_is_lost")[1:] and events(battle, "hope_is_lost")[0][
        "unit"] == "b"


# --------------------------------------------------------------------------- psychology

@pytest.mark.rule("W4-CHAR-20")
def test_the_unit_uses_a_joined_characters_better_courage() -> None:
    alone = make_state([unit("a"), FOE])
    state = make_state([unit("a"), FOE], characters=[character("hero", joined="a")])
    before = psychology.courage_bonus(alone, get(alone, "a"))
    # a 5th-level human: the same racial bonus plus his tier
    assert psychology.courage_bonus(state, get(state, "a")) == before + 1


@pytest.mark.rule("W4-CHAR-21")
@pytest.mark.rule("W4-CHAR-22")
@pytest.mark.rule("W4-AMB-83")
@pytest.mark.parametrize("rule", ["fearless", "immune_to_psychology", "stubborn", "fear",
                                  "terror"])
def test_the_unit_gains_the_rules_of_its_character(rule: str) -> None:
    state = make_state([unit("a"), FOE],
                       characters=[character("hero", joined="a", rules=[rule])])
    host = get(state, "a")
    assert host.rule(rule)
    joining.leave(state, state.characters["hero"], (30.0, 5.0), 0.0)
    assert not host.rule(rule)


def test_a_character_does_not_pass_on_other_rules() -> None:
    state = make_state([unit("a"), FOE],
                       characters=[character("hero", joined="a", rules=["stalwart"])])
    assert not get(state, "a").rule("stalwart")


@pytest.mark.rule("W4-CHAR-04")
def test_joining_during_play_adds_strength_and_leaving_removes_it() -> None:
    state = make_state([unit("a"), FOE], characters=[character("hero", at=(30, 5))])
    host, person = get(state, "a"), state.characters["hero"]
    before = host.strength()
    join(state, person, host)
    assert host.companies == [8, 1] and host.normal_models == 8
    assert host.strength() == before + 1
    joining.leave(state, person, (30.0, 5.0), 0.0)
    assert host.strength() == before and host.members == []


# --------------------------------------------------------------------------- the scenario

@pytest.mark.rule("W4-CHAR-03")
def test_a_scenario_character_joining_an_enemy_unit_is_refused_at_the_field() -> None:
    data = scenario_data([unit("a"), FOE], characters=[character("hero", joined="foe")])
    with pytest.raises(ScenarioError) as caught:
        scenario_from_data(data)
    assert "joined" in str(caught.value) and "W4-CHAR-03" in str(caught.value)


# --------------------------------------------------------------------------- the map

def test_the_map_shows_lone_characters_and_lists_joined_ones_on_their_unit() -> None:
    from warhost.rulesets.dnd4e_war.view import map_view

    state = make_state([unit("a"), FOE], characters=[character("hero", joined="a"),
                                                     character("solo", at=(40, 10))])
    shown = {u["id"]: u for u in map_view(state)["units"]}
    assert "hero" not in shown and "with hero" in shown["a"]["strength"]
    assert shown["solo"]["status"] == "active" and shown["solo"]["strength"] == "40/40 hp"
    assert shown["solo"]["kind"].startswith("character, fighter 5")


def test_characters_inside_a_unit_destroyed_whole_share_its_fate() -> None:
    state = make_state([unit("a"), FOE], characters=[character("hero", joined="a")])
    battle = make_battle(state)
    casualties.destroy(state, battle, get(state, "a"), "fled off the table")
    assert state.characters["hero"].slain and not get(state, "hero").alive
    assert events(battle, "character_lost")[0]["character"] == "hero"


@pytest.mark.rule("W4-COUR-06")
def test_a_lone_character_tests_courage_with_his_tier_bonus() -> None:
    state = make_state([unit("a"), FOE], characters=[character("solo", at=(40, 10))])
    # the same human race and size as the warriors of a, plus his tier (level 5: +1)
    assert psychology.courage_bonus(state, get(state, "solo")) == \
        psychology.courage_bonus(state, get(state, "a")) + 1


@pytest.mark.rule("W4-COUR-08")
@pytest.mark.rule("W4-CHAR-20")
def test_a_unit_with_the_better_bonus_keeps_its_own_without_his_tier() -> None:
    brave = profile("Brave", courage=5)
    alone = make_state([unit("a", profile=brave), FOE])
    state = make_state([unit("a", profile=brave), FOE],
                       characters=[character("hero", joined="a")])
    assert psychology.courage_bonus(state, get(state, "a")) == \
        psychology.courage_bonus(alone, get(alone, "a"))


@pytest.mark.rule("W4-CHAR-01")
@pytest.mark.rule("W4-CMD-06")
def test_a_captain_is_no_character_who_may_leave_or_who_stops_hope_is_lost() -> None:
    led = unit("a", command={"captain": {"name": "Sergeant", "attacks": 2}})
    state = make_state([led, unit("b", at=(30, 10)), FOE])
    assert joining.leavers(state, "A", set()) == []
    battle = make_battle(state, dice=[20])  # b's panic test when a is gone
    casualties.apply_hits(state, battle, get(state, "a"), 5, "foe", "shooting")
    assert events(battle, "hope_is_lost")[0]["unit"] == "a"


@pytest.mark.rule("W4-CHAR-03")
def test_joining_skirmishers_puts_his_model_where_he_reached_them() -> None:
    scouts = profile("Scouts", formation="skirmish", unit_size=[1, 12])
    state = make_state([unit("s", profile=scouts, companies=3), FOE],
                       characters=[character("hero", at=(20, 4))])
    battle = make_battle(state, orders={"A": ["move hero", "join hero s", "hold", "done"]})
    movement.remaining_step(state, battle, "A")
    host = get(state, "s")
    assert host.joined == ["hero"] and len(host.points) == 4
    from warhost.geometry.table import Tray, tray_gap

    mine = Tray(host.points[-1], 0.0, 1.0, 1.0)
    others = [Tray(p, 0.0, 1.0, 1.0) for p in host.points[:-1]]
    assert min(tray_gap(mine, t) for t in others) == pytest.approx(0.0, abs=1e-6)
