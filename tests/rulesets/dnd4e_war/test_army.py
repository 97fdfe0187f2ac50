"""Army building (W4-ARMY, W4-ITEM, W4-AMB-67 to 73, W4-AMB-95, W4-DEC-01): the points
table and its misprints, formation and item limits, prices by tier, tiers in play, magic
items in play, and army lists fielded by a scenario."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tests.rulesets.dnd4e_war.helpers import (
    character,
    events,
    get,
    make_battle,
    make_state,
    profile,
    unit,
)
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd4e_war import army, shooting
from warhost.rulesets.dnd4e_war.army import (
    banner_cost,
    budget,
    check_army,
    compare_armies,
    formation_limits,
    in_tier,
    item_cost,
    item_level,
    item_limit,
    points_row,
    price,
)
from warhost.rulesets.dnd4e_war.attacks import roll_attacks
from warhost.rulesets.dnd4e_war.model import ArmySpec, BattleSpec, Options, Profile
from warhost.rulesets.dnd4e_war.setup import initial_state

XP = [100, 125, 150, 175, 200, 250, 300, 350, 400, 500, 600, 700, 800, 1000, 1200, 1400,
      1600, 2000, 2400, 2800, 3200, 4150, 5100, 6050, 7000, 9000, 11000, 13000, 15000, 19000]
"""The XP of a standard 4e monster of levels 1 to 30 (the item table's rows, W4-ITEM-05)."""


def soldier(category: str = "common", points: Any = "400/2400/14000", **fields: Any
            ) -> dict[str, Any]:
    """A priced profile of eight-model companies."""
    return profile("Soldier", category=category, points=points, **fields)


def army_data(units: list[dict[str, Any]] | None = None, **fields: Any) -> dict[str, Any]:
    """A level 5 small army: three common units of 4 companies (4800 points) unless told."""
    data: dict[str, Any] = {
        "name": "Test army", "level": 5, "size": "small",
        "profiles": {"Soldier": soldier(), "Elite": soldier("special"),
                     "Beast": soldier("rare")},
        "units": units if units is not None else [
            {"id": f"u{k}", "profile": "Soldier", "companies": 4} for k in range(3)],
        "characters": [character(f"c{k}", joined="u0") for k in range(3)],
    }
    for person in data["characters"]:
        person.pop("_side")
    data.update(fields)
    return data


def checked(data: dict[str, Any], battle: BattleSpec | None = None,
            options: Options | None = None) -> army.Report:
    return check_army(ArmySpec.model_validate(data), battle, options)


def rules(report: army.Report, errors: bool = True) -> list[str]:
    return [p.rule for p in (report.errors if errors else report.warnings)]


# ---------------------------------------------------------------- the points table

@pytest.mark.rule("W4-ARMY-06")
def test_the_budget_table_reads_by_level_and_size() -> None:
    assert budget(1, "small") == 3000 and budget(1, "medium") == 6000
    assert budget(1, "large") == 9000 and budget(1, "huge") == 12000
    assert budget(5, "medium") == 12000
    assert points_row(22, "literal") == (124500, 249000, 373500, 124500)
    assert points_row(13, "literal") == (24000, 48000, 72000, 24000)


@pytest.mark.rule("W4-AMB-67")
@pytest.mark.rule("W4-ARMY-06")
def test_the_misprinted_cells_are_corrected_by_default_and_kept_when_literal() -> None:
    assert budget(20, "small") == 84000
    assert budget(20, "small", table="literal") == 840000
    assert budget(20, "huge") == 252000 + 84000
    assert budget(20, "huge", table="literal") == 252000 + 840000
    assert budget(24, "large") == 544500
    assert budget(24, "large", table="literal") == 5445000
    assert points_row(30) == (570000, 1140000, 1710000, 570000)
    assert points_row(30, "literal") == (870000, 1740000, 2610000, 870000)
    assert points_row(19) == points_row(19, "literal") == (72000, 144000, 216000, 72000)


@pytest.mark.rule("W4-AMB-67")
def test_every_corrected_cell_is_30_60_90_times_the_xp_of_its_level() -> None:
    for level, xp in enumerate(XP, 1):
        assert points_row(level) == (30 * xp, 60 * xp, 90 * xp, 30 * xp), level


@pytest.mark.rule("W4-AMB-67")
def test_the_scenario_option_points_table_chooses_the_table() -> None:
    data = army_data(level=20)
    data["profiles"]["Soldier"]["points"] = 20000
    data["units"] = [{"id": f"u{k}", "profile": "Soldier", "companies": 4} for k in range(3)]
    report = checked(data)  # 240000 points
    assert report.budget == 84000 and "W4-AMB-69" in rules(report)
    literal = checked(data, options=Options(points_table="literal"))
    assert literal.budget == 840000 and "W4-AMB-69" not in rules(literal)


@pytest.mark.rule("W4-AMB-68")
def test_huge_is_large_plus_one_step_or_more_with_huge_steps() -> None:
    assert budget(5, "huge") == 18000 + 6000
    assert budget(5, "huge", huge_steps=3) == 18000 + 3 * 6000
    assert formation_limits("huge") == army.Limits(5, 6, 4)
    assert formation_limits("huge", 2) == army.Limits(6, 7, 5)
    assert item_limit("huge") == 5 and item_limit("huge", 2) == 6
    report = checked(army_data(size="huge"), options=Options(huge_steps=2))
    assert report.budget == 18000 + 2 * 6000
    assert any("at least 6" in p.message for p in report.errors)


@pytest.mark.rule("W4-AMB-69")
@pytest.mark.rule("W4-ARMY-07")
def test_points_over_the_budget_fail_unless_within_the_overage() -> None:
    data = army_data(units=[{"id": f"u{k}", "profile": "Soldier", "companies": 5}
                            for k in range(3)])  # 6000: exactly the budget
    assert checked(data).total == 6000 and not checked(data).errors
    data["units"][0]["companies"] = 6  # 6400
    report = checked(data)
    assert rules(report) == ["W4-AMB-69"]
    assert "6400 points is over the budget of 6000" in report.errors[0].message
    assert not checked(data, options=Options(points_overage=400)).errors
    assert rules(checked(data, options=Options(points_overage=399))) == ["W4-AMB-69"]
    data["points_overage"] = 400  # the army's own option wins
    assert not checked(data).errors


@pytest.mark.rule("W4-ARMY-07")
def test_an_army_well_under_its_budget_is_warned() -> None:
    report = checked(army_data())  # 4800 of 6000
    assert "W4-ARMY-07" in rules(report, errors=False) and not report.errors
    full = army_data(units=[{"id": f"u{k}", "profile": "Soldier", "companies": 5}
                            for k in range(3)])
    assert "W4-ARMY-07" not in rules(checked(full), errors=False)


# ---------------------------------------------------------------- prices and limits

@pytest.mark.rule("W4-ARMY-10")
@pytest.mark.rule("W4-AMB-72")
def test_a_unit_is_priced_per_company_at_the_battles_tier() -> None:
    p = Profile.model_validate(soldier())
    assert [price(p, level) for level in (1, 10, 11, 20, 21, 30)] == [
        400, 400, 2400, 2400, 14000, 14000]
    assert price(Profile.model_validate(soldier(points=300)), 25) == 300
    assert price(Profile.model_validate(profile()), 5) is None


@pytest.mark.rule("W4-AMB-95")
def test_units_are_bought_in_whole_companies_within_the_profile_unit_size() -> None:
    report = checked(army_data())
    assert [(u.companies, u.each, u.cost) for u in report.units] == [(4, 400, 1600)] * 3
    bad = army_data()
    bad["units"][1]["companies"] = 11  # Soldier: unit size 1 to 10
    report = checked(bad)
    assert "W4-AMB-95" in rules(report)
    assert report.errors[0].where == ("units", 1, "companies")
    with pytest.raises(ValidationError):
        ArmySpec.model_validate({**army_data(), "units": [
            {"id": "u", "profile": "Soldier", "companies": 2, "models": 9}]})


@pytest.mark.rule("W4-ARMY-08")
@pytest.mark.rule("W4-AMB-71")
def test_a_monster_manual_monster_costs_its_xp_and_is_rare() -> None:
    data = army_data()
    data["profiles"]["Troll"] = profile("Troll", size="large", monster=True,
                                        formation="skirmish", unit_size=[1, 1], hp=100)
    data["units"].append({"id": "troll", "profile": "Troll", "xp": 400})
    report = checked(data)
    assert report.units[-1] == army.Line("troll", "Troll", "rare", 1, 400, 400)
    assert report.total == 4800 + 400 and not report.errors
    data["units"].append({"id": "troll2", "profile": "Troll", "xp": 400})
    assert "W4-ARMY-09" in rules(checked(data))  # 2 rare in a small battle


@pytest.mark.rule("W4-AMB-71")
def test_a_unit_profile_must_state_its_category_and_points() -> None:
    data = army_data()
    data["profiles"]["Plain"] = profile("Plain", points=100)
    data["profiles"]["Free"] = profile("Free", category="common")
    data["units"] += [{"id": "p", "profile": "Plain"}, {"id": "f", "profile": "Free"}]
    report = checked(data)
    assert rules(report) == ["W4-AMB-71", "W4-ARMY-10"]
    data["units"].append({"id": "x", "profile": "Nobody"})
    assert "unknown profile 'Nobody'" in checked(data).errors[-1].message


@pytest.mark.rule("W4-ARMY-09")
@pytest.mark.parametrize(("size", "common", "special", "rare"), [
    ("small", 2, 3, 1), ("medium", 3, 4, 2), ("large", 4, 5, 3), ("huge", 5, 6, 4)])
def test_formation_limits_by_battle_size(size: str, common: int, special: int,
                                         rare: int) -> None:
    assert formation_limits(size) == army.Limits(common, special, rare)

    def units(c: int, s: int, r: int) -> list[dict[str, Any]]:
        kinds = ["Soldier"] * c + ["Elite"] * s + ["Beast"] * r
        return [{"id": f"u{k}", "profile": p, "companies": 1} for k, p in enumerate(kinds)]

    ok = checked(army_data(units=units(common, special, rare), size=size,
                           points_overage=10**6))
    assert "W4-ARMY-09" not in rules(ok)
    for counts in ((common - 1, 0, 0), (common, special + 1, 0), (common, 0, rare + 1)):
        report = checked(army_data(units=units(*counts), size=size, points_overage=10**6))
        assert rules(report) == ["W4-ARMY-09"], counts


# ---------------------------------------------------------------- magic items

@pytest.mark.rule("W4-ITEM-05")
@pytest.mark.rule("W4-AMB-73")
def test_item_costs_at_each_tier_follow_the_shifted_rows() -> None:
    assert [item_cost(level) for level in range(1, 31)] == XP
    assert [item_cost(level) for level in (1, 11, 21)] == [100, 600, 3200]
    assert [item_cost(level) for level in (10, 20, 30)] == [500, 2800, 19000]
    assert item_cost(15) == 1200 and item_cost(25) == 7000


@pytest.mark.rule("W4-ITEM-04")
@pytest.mark.rule("W4-AMB-73")
def test_army_items_are_of_the_battles_level() -> None:
    assert [item_level(level) for level in (1, 5, 20, 30)] == [1, 5, 20, 30]
    ok = army_data(items=[{"name": "Blade", "level": 5, "unit": "u0", "bonus": "attack"}])
    report = checked(ok)
    assert not report.errors and report.items == [("Blade", "u0", 200)]
    wrong = army_data(items=[{"name": "Blade", "level": 1, "unit": "u0"}])
    report = checked(wrong)
    assert rules(report) == ["W4-ITEM-04"]
    assert report.errors[0].where == ("items", 0, "level")
    assert "level 1; a level 5 battle takes items of level 5" in report.errors[0].message


@pytest.mark.rule("W4-ITEM-01")
@pytest.mark.parametrize(("size", "most"), [("small", 2), ("medium", 3), ("large", 4),
                                             ("huge", 5)])
def test_how_many_magic_items_an_army_may_take(size: str, most: int) -> None:
    assert item_limit(size) == most

    def items(n: int) -> list[dict[str, Any]]:
        return [{"name": f"i{k}", "level": 5, "unit": "u0"} for k in range(n)]

    units = [{"id": f"u{k}", "profile": "Soldier", "companies": 1} for k in range(5)]
    ok = checked(army_data(units=units, size=size, items=items(most), points_overage=10**6))
    assert "W4-ITEM-01" not in rules(ok)
    over = checked(army_data(units=units, size=size, items=items(most + 1),
                             points_overage=10**6))
    assert rules(over) == ["W4-ITEM-01"]


@pytest.mark.rule("W4-ITEM-02")
def test_army_items_are_carried_by_units_not_characters() -> None:
    report = checked(army_data(items=[{"name": "Blade", "level": 5, "unit": "c0"}]))
    assert rules(report) == ["W4-ITEM-02"]
    assert "not by the character c0" in report.errors[0].message
    report = checked(army_data(items=[{"name": "Blade", "level": 5, "unit": "nobody"}]))
    assert rules(report) == ["W4-ITEM-02"]


@pytest.mark.rule("W4-ITEM-06")
@pytest.mark.rule("W4-ITEM-02")
def test_a_battle_banner_costs_two_items_uses_no_slot_and_needs_a_character() -> None:
    assert banner_cost(5) == 400 and banner_cost(15) == 2400
    items = [{"name": f"i{k}", "level": 5, "unit": "u0"} for k in range(2)]
    report = checked(army_data(items=items, battle_banner={"level": 5, "bearer": "c1"}))
    assert not report.errors
    assert report.total == 4800 + 2 * 200 + 400
    report = checked(army_data(battle_banner={"level": 5, "bearer": "u0"}))
    assert rules(report) == ["W4-ITEM-06"]
    report = checked(army_data(battle_banner={"level": 4, "bearer": "c1"}))
    assert rules(report) == ["W4-ITEM-04"]


@pytest.mark.rule("W4-ITEM-09")
def test_a_characters_own_banner_serves_for_one_items_cost() -> None:
    assert banner_cost(5, owned=True) == 200
    report = checked(army_data(battle_banner={"level": 3, "bearer": "c1", "owned": True}))
    assert not report.errors and report.items == [("Battle banner", "c1", 150)]


@pytest.mark.rule("W4-ITEM-08")
def test_a_bought_battle_banner_is_not_kept_after_the_battle() -> None:
    report = checked(army_data(battle_banner={"name": "Iron Banner", "level": 5,
                                              "bearer": "c1"}))
    assert any("not kept after it (W4-ITEM-08)" in n for n in report.notes)
    owned = checked(army_data(battle_banner={"level": 5, "bearer": "c1", "owned": True}))
    assert not any("W4-ITEM-08" in n for n in owned.notes)


@pytest.mark.rule("W4-ITEM-10")
@pytest.mark.rule("W4-AMB-70")
def test_characters_and_their_own_items_cost_nothing_and_use_no_slot() -> None:
    data = army_data(items=[{"name": f"i{k}", "level": 5, "unit": "u0"} for k in range(2)])
    bare = checked(data).total
    data["characters"][0]["items"] = ["Sword +2", "Cloak +2", "Amulet +1"]
    report = checked(data)
    assert report.total == bare == 4800 + 400 and not report.errors
    assert any("W4-ITEM-10" in n for n in report.notes)
    data["characters"] = []
    assert checked(data).total == bare


# ---------------------------------------------------------------- characters

@pytest.mark.rule("W4-ARMY-01")
def test_both_armies_should_have_as_many_characters_at_the_same_levels() -> None:
    first = ArmySpec.model_validate(army_data())
    assert compare_armies(first, first) == []
    other = army_data()
    other["characters"][2]["level"] = 6
    found = compare_armies(first, ArmySpec.model_validate(other))
    assert [(p.rule, p.error) for p in found] == [("W4-ARMY-01", False)]
    fewer = army_data()
    fewer["characters"].pop()
    assert [p.rule for p in compare_armies(first, ArmySpec.model_validate(fewer))] == [
        "W4-ARMY-01"]


@pytest.mark.rule("W4-DEC-01")
def test_both_armies_are_built_for_the_agreed_battle() -> None:
    first = ArmySpec.model_validate(army_data())
    second = ArmySpec.model_validate(army_data(level=6))
    assert [(p.rule, p.error) for p in compare_armies(first, second)] == [("W4-DEC-01", True)]
    report = check_army(first, BattleSpec(level=6, size="small"))
    assert "W4-DEC-01" in rules(report)
    assert report.budget == 7500


@pytest.mark.rule("W4-ARMY-03")
def test_outside_a_campaign_three_to_five_characters_of_the_battles_level() -> None:
    assert "W4-ARMY-03" not in rules(checked(army_data()), errors=False)
    two = army_data()
    two["characters"].pop()
    assert "W4-ARMY-03" in rules(checked(two), errors=False)
    low = army_data()
    low["characters"][0]["level"] = 3
    report = checked(low)
    assert "W4-ARMY-03" in rules(report, errors=False) and "W4-ARMY-03" not in rules(report)


@pytest.mark.rule("W4-ARMY-02")
@pytest.mark.rule("W4-ARMY-04")
def test_a_campaign_battle_matches_the_party() -> None:
    party = army_data(campaign={"party_size": 3, "party_level": 5})
    assert rules(checked(party), errors=False) == ["W4-ARMY-07"]  # 4800 of 6000 only
    five = army_data(campaign={"party_size": 5, "party_level": 6}, level=11)
    report = checked(five, BattleSpec(level=11, size="small"))
    assert {"W4-ARMY-02", "W4-ARMY-04"} <= set(rules(report, errors=False))
    near = army_data(campaign={"party_size": 3, "party_level": 9}, level=5)
    assert "W4-ARMY-04" not in rules(checked(near), errors=False)


@pytest.mark.rule("W4-ARMY-05")
def test_the_battle_size_is_one_of_four() -> None:
    for size in ("small", "medium", "large", "huge"):
        assert BattleSpec(level=5, size=size).size == size  # type: ignore[arg-type]
    assert BattleSpec(level=5).size == "medium"
    with pytest.raises(ValidationError):
        BattleSpec.model_validate({"level": 5, "size": "gargantuan"})


# ---------------------------------------------------------------- tiers in play

LINE = {"initiative": 9, "defenses": {"ac": 30, "fortitude": 28, "reflex": 27, "will": 26},
        "powers": {"Spear": 20}}


@pytest.mark.rule("W4-ARMY-11")
@pytest.mark.rule("W4-ARMY-12")
def test_paragon_and_epic_units_add_10_or_20_and_pick_their_damage() -> None:
    p = Profile.model_validate(soldier(powers=[
        {"name": "Spear", "kind": "melee", "bonus": 8, "damage": "5/9/13"}]))
    heroic, paragon, epic = (in_tier(p, t) for t in (1, 2, 3))
    assert (heroic.initiative, heroic.defenses.ac, heroic.powers[0].bonus) == (3, 16, 8)
    assert (paragon.initiative, paragon.defenses.ac, paragon.defenses.will,
            paragon.powers[0].bonus) == (13, 26, 24, 18)
    assert (epic.initiative, epic.defenses.fortitude, epic.powers[0].bonus) == (23, 34, 28)
    assert [q.powers[0].damage for q in (heroic, paragon, epic)] == ["5", "9", "13"]
    assert [q.points for q in (heroic, paragon, epic)] == [400, 2400, 14000]


@pytest.mark.rule("W4-ARMY-11")
def test_a_profiles_own_stat_line_is_used_instead_of_the_bonus() -> None:
    p = Profile.model_validate(soldier(paragon=LINE))
    paragon = in_tier(p, 2)
    assert (paragon.initiative, paragon.defenses.ac, paragon.powers[0].bonus) == (9, 30, 20)
    epic = in_tier(p, 3)  # no epic line: +20
    assert (epic.initiative, epic.defenses.ac) == (23, 36)


def _duel(battle: dict[str, Any] | None) -> tuple[Any, Any]:
    """Archers (+6 bow) shooting at a unit whose paragon stat line keeps AC 24."""
    bow = {"name": "Bow", "kind": "ranged", "bonus": 6, "range": 20, "damage": "4"}
    shooters = unit("bows", "A", at=(20, 10), profile=profile("Bow", powers=[bow]))
    line = {**LINE, "defenses": {"ac": 24, "fortitude": 20, "reflex": 20, "will": 20}}
    target = unit("foe", "B", at=(20, 22), facing=180,
                  profile=profile("Foe", defenses={"ac": 24, "fortitude": 20, "reflex": 20,
                                                   "will": 20}, paragon=line))
    state = make_state([shooters, target], battle=battle)
    run = make_battle(state, dice=[9, 9, 9, 9])
    shooting.shoot(state, run, get(state, "bows"), get(state, "foe"),
                   get(state, "bows").profile.powers[0])
    return state, events(run, "shoot")[0]


@pytest.mark.rule("W4-ARMY-11")
def test_the_tier_bonus_is_added_to_the_attack_roll_in_play() -> None:
    _state, heroic = _duel(None)
    assert (heroic["needed"], heroic["hits"]) == (18, 0)  # AC 24 - 6
    state, paragon = _duel({"level": 15, "size": "small"})
    assert (paragon["needed"], paragon["hits"]) == (8, 4)  # AC 24 - 16, the floor of 8
    assert get(state, "bows").profile.initiative == 13


# ---------------------------------------------------------------- items in play

@pytest.mark.rule("W4-ITEM-03")
def test_an_item_adds_2_to_its_bearers_die_only() -> None:
    two = [unit("a"), unit("b", "B", at=(20, 30))]
    run = make_battle(make_state(two), dice=[10, 10, 10, 10])
    roll = roll_attacks(run, 4, 20, 8, "test", boosted=1, boost=2)
    assert (roll.needed, roll.hits) == (12, 1)  # the bearer's 10 + 2 hits, the others miss
    run = make_battle(make_state(two), dice=[10, 10, 10, 10])
    assert roll_attacks(run, 4, 20, 8, "test").hits == 0


def _army_scenario(items: list[dict[str, Any]], banner: dict[str, Any] | None = None
                   ) -> dict[str, Any]:
    data = army_data(items=items)
    if banner is not None:
        data["battle_banner"] = banner
    other = army_data()
    return {"ruleset": "dnd4e-war", "options": {"deployment_depth": 12},
            "sides": [{"name": "A", "army": data},
                      {"name": "B", "army": {**other, "units": [
                          {**u, "id": f"b{u['id']}"} for u in other["units"]],
                          "characters": [{**c, "id": f"b{c['id']}", "joined": "bu0"}
                                         for c in other["characters"]]}}]}


def _state_of(data: dict[str, Any]) -> Any:
    model = get_ruleset("dnd4e-war").scenario_model.model_validate(data)
    get_ruleset("dnd4e-war").check_scenario(model)
    return initial_state(model)


@pytest.mark.rule("W4-ITEM-03")
@pytest.mark.rule("W4-ITEM-07")
def test_items_and_the_battle_banner_go_to_their_bearers() -> None:
    state = _state_of(_army_scenario(
        [{"name": "Blade", "level": 5, "unit": "u0", "bonus": "attack"},
         {"name": "Shield", "level": 5, "unit": "u1", "bonus": "defenses"}],
        {"name": "Iron Banner", "level": 5, "bearer": "c1"}))
    u0, u1, u2 = (state.units[f"u{k}"] for k in range(3))
    assert (u0.items, u0.item_attack, u0.item_defense) == (["Blade"], 2, 0)
    assert (u1.items, u1.item_attack, u1.item_defense) == (["Shield"], 0, 2)
    assert (u2.items, u2.item_attack) == ([], 0)
    banner = state.units["c1"]
    assert banner.items == ["Iron Banner"] and banner.battle_standard and banner.standard


@pytest.mark.rule("W4-ITEM-03")
def test_a_defensive_item_protects_only_its_bearer() -> None:
    state = make_state([unit("a"), unit("b", "B", at=(20, 14), facing=180)])
    target = get(state, "b")
    target.item_defense = 2
    from warhost.rulesets.dnd4e_war.army_setup import item_defense

    assert item_defense(target) == 0  # eight models: the hits fall on the others
    target.companies = [1]
    assert item_defense(target) == 2


# ---------------------------------------------------------------- armies in a scenario

@pytest.mark.rule("W4-DEC-01")
def test_a_side_given_as_an_army_list_fields_its_units_in_a_line() -> None:
    state = _state_of(_army_scenario([]))
    a = [state.units[f"u{k}"] for k in range(3)]
    assert [u.side for u in a] == ["A"] * 3 and [u.facing for u in a] == [0.0] * 3
    assert all(u.front[1] == 12.0 for u in a)
    xs = [u.front[0] for u in a]
    assert xs == sorted(xs) and xs[1] == 36.0  # centred on the 72" table
    b = state.units["bu0"]
    assert (b.side, b.facing, b.front[1]) == ("B", 180.0, 36.0)
    assert state.units["c0"].inside == "u0"


@pytest.mark.rule("W4-DEC-01")
def test_deploy_places_a_unit_of_an_army() -> None:
    data = _army_scenario([])
    data["sides"][0]["deploy"] = {"u2": {"at": [60, 8], "facing": 10, "files": 2}}
    state = _state_of(data)
    u2 = state.units["u2"]
    assert (u2.front, u2.facing, u2.files) == ((60.0, 8.0), 10.0, 2)


@pytest.mark.rule("W4-DEC-01")
@pytest.mark.rule("W4-AMB-69")
def test_a_scenario_refuses_an_army_that_breaks_a_rule() -> None:
    from warhost.core.errors import SetupError

    data = _army_scenario([{"name": "Blade", "level": 3, "unit": "u0"}])
    with pytest.raises(SetupError) as caught:
        _state_of(data)
    assert caught.value.path == ("sides", 0, "army", "items", 0, "level")
    data = _army_scenario([])
    data["battle"] = {"level": 5, "size": "medium"}
    with pytest.raises(SetupError, match="W4-DEC-01"):
        _state_of(data)


@pytest.mark.rule("W4-ARMY-11")
@pytest.mark.rule("W4-ARMY-12")
def test_the_battle_level_sets_the_tier_of_every_unit() -> None:
    foe = unit("b", "B", at=(20, 30))
    axe = [{"name": "Axe", "kind": "melee", "bonus": 8, "damage": "1[W]+2/2[W]+4/3[W]+6",
            "weapon_dice": "1d8"}]
    mine = unit("a", profile=soldier(powers=axe))
    state = make_state([mine, foe], battle={"level": 21, "size": "small"})
    a = get(state, "a")
    assert (a.profile.initiative, a.profile.defenses.ac, a.profile.points) == (23, 36, 14000)
    assert (a.profile.powers[0].bonus, a.profile.powers[0].damage) == (28, "3[W]+6")
    heroic = make_state([mine, foe])
    assert get(heroic, "a").profile.points == 400
    assert get(heroic, "a").profile.powers[0].damage == "1[W]+2"


@pytest.mark.rule("W4-ARMY-12")
def test_three_damage_values_are_for_unit_powers_only() -> None:
    from warhost.core.errors import SetupError

    data = _army_scenario([])
    data["sides"][0]["army"]["characters"][0]["powers"][0]["damage"] = "1d8/2d8/3d8"
    with pytest.raises(SetupError, match="one damage value") as caught:
        _state_of(data)
    assert caught.value.path == ("sides", 0, "characters", 0, "powers", 0, "damage")


@pytest.mark.rule("W4-DEC-01")
def test_a_side_gives_units_or_an_army_not_both_nor_neither() -> None:
    data = _army_scenario([])
    data["sides"][0]["units"] = [{k: v for k, v in unit("x").items() if k != "_side"}]
    with pytest.raises(ValidationError, match="not both"):
        _state_of(data)
    data["sides"][0] = {"name": "A"}
    with pytest.raises(ValidationError, match="give units or an army"):
        _state_of(data)


@pytest.mark.rule("W4-ITEM-07")
@pytest.mark.rule("W4-CMD-10")
def test_a_battle_banner_borne_inside_a_unit_works_as_a_battle_standard() -> None:
    from warhost.rulesets.dnd4e_war import characters, melee, psychology

    state = _state_of(_army_scenario([], {"name": "Iron Banner", "level": 5, "bearer": "c1"}))
    u0, u1, bu0 = state.units["u0"], state.units["u1"], state.units["bu0"]
    assert state.units["c1"].inside == "u0"
    assert psychology.battle_standard_near(state, u1) is u0
    assert melee._side_bonuses(state, "A", [u0], [bu0], {})["standard"] == 4
    assert "standard" not in melee._side_bonuses(state, "A", [u1], [bu0], {})
    characters.remove(state, state.characters["c1"])  # the bearer is slain: it is lost
    assert psychology.battle_standard_near(state, u1) is None
    assert "standard" not in melee._side_bonuses(state, "A", [u0], [bu0], {})


@pytest.mark.rule("W4-DEC-01")
def test_deploy_names_only_units_and_lone_characters_of_the_army() -> None:
    from warhost.core.errors import SetupError

    data = _army_scenario([])
    data["sides"][0]["deploy"] = {"c0": {"at": [30, 4]}}  # c0 starts inside u0
    with pytest.raises(SetupError, match="deploy names 'c0'") as caught:
        _state_of(data)
    assert caught.value.path == ("sides", 0, "deploy", "c0")


@pytest.mark.rule("W4-ITEM-03")
def test_an_attack_item_gives_one_shooting_die_plus_2() -> None:
    bow = {"name": "Bow", "kind": "ranged", "bonus": 6, "range": 20, "damage": "4"}
    hits = []
    for bonus in (0, 2):
        state = make_state([unit("bows", "A", at=(20, 10), profile=profile("Bow", powers=[bow])),
                            unit("foe", "B", at=(20, 22), facing=180, profile=profile(
                                "Foe", defenses={"ac": 24, "fortitude": 20, "reflex": 20,
                                                 "will": 20}))])
        get(state, "bows").item_attack = bonus
        run = make_battle(state, dice=[16, 16, 16, 16])
        shooting.shoot(state, run, get(state, "bows"), get(state, "foe"), bow_of(state))
        shot = events(run, "shoot")[0]
        assert (shot["dice"], shot["needed"]) == (4, 18)
        hits.append(shot["hits"])
    assert hits == [0, 1]  # only the bearer's 16 (+2) reaches 18


def bow_of(state: Any) -> Any:
    return get(state, "bows").profile.powers[0]
