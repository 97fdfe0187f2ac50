"""Scenario validation of `fantasy-battle`: army building, battlefield data and deployment.

Each test names the catalog rule it checks. Scenarios are built as plain data (the same data a
YAML file gives) and go through :func:`warhost.core.scenario.scenario_from_data`, which runs the
schema and then :func:`warhost.rulesets.fantasy_battle.validate.check_scenario`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warhost.core.errors import ScenarioError
from warhost.core.scenario import Scenario, load_scenario, scenario_from_data
from warhost.rulesets.fantasy_battle.validate import check_scenario

rule = pytest.mark.rule

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle"


def member(uid: str, cls: str, at: list[int] | None, **extra: Any) -> dict[str, Any]:
    """One squad member."""
    out: dict[str, Any] = {"id": uid, "class": cls, **extra}
    if at is not None:
        out["at"] = at
    return out


def scenario_data(width: int = 12, height: int = 10, **options: Any) -> dict[str, Any]:
    """A small legal scenario on a ``width`` x ``height`` map.

    Good (rows 0-1): squad g-sq of 4 warriors at (1..4, 1), Elite archer g-elite at (6, 0),
    Champion warrior g-champ at (8, 1) with Frenzy.
    Evil (rows H-2..H-1): the mirror image, ids e-..., Champion e-champ with Throw.
    """
    top = height - 1
    return {
        "ruleset": "fantasy-battle",
        "name": "validation test",
        "victory_points": 6,
        "options": {"first_player": "A", **options},
        "battlefield": {"width": width, "height": height},
        "sides": [
            {
                "name": "Good",
                "faction": "Kingdom",
                "squads": [{"id": "g-sq", "type": "infantry", "members": [
                    member(f"g{i}", "warrior", [i, 1]) for i in range(1, 5)]}],
                "units": [
                    {"id": "g-elite", "rank": "elite", "type": "infantry", "class": "archer",
                     "at": [6, 0]},
                    {"id": "g-champ", "rank": "champion", "type": "infantry",
                     "class": "warrior", "at": [8, 1], "feats": ["frenzy"]},
                ],
            },
            {
                "name": "Evil",
                "faction": "Horde",
                "squads": [{"id": "e-sq", "type": "infantry", "members": [
                    member(f"e{i}", "warrior", [i, top - 1]) for i in range(1, 5)]}],
                "units": [
                    {"id": "e-elite", "rank": "elite", "type": "infantry", "class": "archer",
                     "at": [6, top]},
                    {"id": "e-champ", "rank": "champion", "type": "infantry",
                     "class": "warrior", "at": [8, top - 1], "feats": ["throw"]},
                ],
            },
        ],
    }


def load(data: dict[str, Any]) -> Scenario:
    """Validate scenario data; fails the test on any error."""
    return scenario_from_data(copy.deepcopy(data), "test.yaml")


def problem(data: dict[str, Any]) -> ScenarioError:
    """Validate scenario data that must be rejected; return the error."""
    with pytest.raises(ScenarioError) as info:
        scenario_from_data(copy.deepcopy(data), "test.yaml")
    return info.value


def edit(change: Callable[[dict[str, Any]], Any], **options: Any) -> dict[str, Any]:
    """The base scenario with ``change`` applied to it."""
    data = scenario_data(**options)
    change(data)
    return data


def good(data: dict[str, Any]) -> dict[str, Any]:
    side: dict[str, Any] = data["sides"][0]
    return side


def evil(data: dict[str, Any]) -> dict[str, Any]:
    side: dict[str, Any] = data["sides"][1]
    return side


def test_base_scenario_is_legal() -> None:
    scenario = load(scenario_data())
    check_scenario(scenario.model)  # idempotent, raises nothing


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_examples_load(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.ruleset.name == "fantasy-battle"


def test_expected_examples_exist() -> None:
    names = {p.name for p in EXAMPLES.glob("*.yaml")}
    assert {"skirmish.yaml", "combined-arms.yaml", "grand-battle.yaml",
            "constructed.yaml"} <= names


# --------------------------------------------------------------------------- game overview


@rule("FB-GEN-01")
@pytest.mark.parametrize("count", [1, 3])
def test_exactly_two_sides(count: int) -> None:
    data = scenario_data()
    data["sides"] = (data["sides"] * 2)[:count]
    err = problem(data)
    assert err.field == "sides"
    assert "at least 2" in err.message if count == 1 else "at most 2" in err.message


@rule("FB-GEN-01")
def test_side_names_must_differ() -> None:
    err = problem(edit(lambda d: evil(d).update(name="Good")))
    assert err.field == "sides[1].name"
    assert err.message == "both sides are named 'Good'; side names must differ"


@rule("FB-START-01")
def test_same_faction_on_both_sides_is_allowed() -> None:
    data = scenario_data()
    good(data)["faction"] = evil(data)["faction"] = "Good"
    scenario = load(data)
    assert [s.faction for s in scenario.model.sides] == ["Good", "Good"]


# --------------------------------------------------------------------------- winning


@rule("FB-WIN-01", "FB-AMB-45")
@pytest.mark.parametrize("value", [0, -3])
def test_victory_points_must_be_positive(value: int) -> None:
    data = scenario_data()
    data["victory_points"] = value
    err = problem(data)
    assert err.field == "victory_points"
    assert err.message == f"Input should be greater than or equal to 1 (got {value})"


@rule("FB-WIN-01", "FB-SETUP-01")
def test_victory_points_are_required_and_whole() -> None:
    data = scenario_data()
    del data["victory_points"]
    assert problem(data).message == "missing required field"
    data["victory_points"] = 2.5
    err = problem(data)
    assert err.field == "victory_points"
    assert "whole number" in err.message


# --------------------------------------------------------------------------- squads and ranks


@rule("FB-SQUAD-01", "FB-START-05")
def test_standard_units_only_in_squads() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["units"][0]["rank"] = "standard"

    err = problem(edit(change))
    assert err.field == "sides[0].units[0].rank"
    assert err.message.startswith("Input should be 'elite' or 'champion'")


@rule("FB-SQUAD-01", "FB-START-05")
def test_elite_and_champions_have_no_squad_field() -> None:
    err = problem(edit(lambda d: good(d)["units"][0].update(squad="g-sq")))
    assert err.field == "sides[0].units[0].squad"
    assert err.message.startswith("unknown field 'squad'")


@rule("FB-SQUAD-02", "FB-AMB-07")
@pytest.mark.parametrize("size", [3, 5])
def test_infantry_squad_has_exactly_four(size: int) -> None:
    def change(d: dict[str, Any]) -> None:
        members = [member(f"g{i}", "warrior", [i, 1]) for i in range(1, size + 1)]
        good(d)["squads"][0]["members"] = members
        good(d)["units"][0]["at"] = [10, 0]

    err = problem(edit(change, per_side_rank_counts=True))
    assert err.field == "sides[0].squads[0].members"
    assert err.message == (f"squad 'g-sq' has {size} members; an infantry squad has exactly 4 "
                           f"(FB-SQUAD-02)")


@rule("FB-SQUAD-02", "FB-AMB-07")
def test_cavalry_squad_has_exactly_two() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["squads"][0] = {"id": "g-sq", "type": "cavalry", "members": [
            member("g1", "knight", [0, 0]), member("g2", "lancer", [2, 0]),
            member("g3", "knight", [4, 0])]}
        good(d)["units"][0]["at"] = [6, 0]

    err = problem(edit(change, per_side_rank_counts=True))
    assert err.field == "sides[0].squads[0].members"
    assert err.message == ("squad 'g-sq' has 3 members; a cavalry squad has exactly 2 "
                           "(FB-SQUAD-02)")


@rule("FB-SQUAD-02", "FB-AMB-07")
def test_cavalry_squad_of_two_and_mixed_classes_are_legal() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["squads"][0]["members"][0]["class"] = "pike"
        good(d)["squads"][0]["members"][1]["class"] = "archer"
        good(d)["units"][0]["at"] = [5, 0]
        good(d)["units"][1]["at"] = [6, 1]
        evil(d)["units"][0]["at"] = [5, 9]
        evil(d)["units"][1]["at"] = [6, 8]
        good(d)["squads"].append({"id": "g-horse", "type": "cavalry", "members": [
            member("g5", "knight", [7, 0]), member("g6", "mounted_archer", [9, 0])]})
        evil(d)["squads"].append({"id": "e-horse", "type": "cavalry", "members": [
            member("e5", "lancer", [7, 8]), member("e6", "lancer", [10, 8])]})
        evil(d)["squads"][1]["members"][1]["at"] = [9, 8]

    load(edit(change))


@rule("FB-RANK-03")
@pytest.mark.parametrize(("utype", "cls", "ok"), [
    ("infantry", "warrior", True), ("infantry", "pike", True), ("infantry", "archer", True),
    ("cavalry", "knight", True), ("cavalry", "lancer", True), ("cavalry", "mounted_archer", True),
    ("infantry", "knight", False), ("infantry", "lancer", False),
    ("infantry", "mounted_archer", False), ("cavalry", "warrior", False),
    ("cavalry", "pike", False), ("cavalry", "archer", False),
])
def test_class_must_fit_type(utype: str, cls: str, ok: bool) -> None:
    def change(d: dict[str, Any]) -> None:
        unit = good(d)["units"][0]
        unit.update(type=utype, at=[10, 0])
        unit["class"] = cls

    data = edit(change)
    if ok:
        load(data)
        return
    err = problem(data)
    assert err.field == "sides[0].units[0].class"
    allowed = "warrior, pike, archer" if utype == "infantry" else "knight, lancer, mounted_archer"
    article = "an" if utype == "infantry" else "a"
    assert err.message == f"unit 'g-elite': class {cls!r} is not {article} {utype} class ({allowed})"


@rule("FB-RANK-03", "FB-AMB-07")
def test_squad_member_class_must_fit_squad_type() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][2].update({"class": "knight"})))
    assert err.field == "sides[0].squads[0].members[2].class"
    assert "class 'knight' is not an infantry class" in err.message


# --------------------------------------------------------------------------- ids


def test_ids_are_unique_across_the_scenario() -> None:
    err = problem(edit(lambda d: evil(d)["units"][1].update(id="g-champ")))
    assert err.field == "sides[1].units[1].id"
    assert err.message == "id 'g-champ' is used twice (unit and unit); ids must be unique"


def test_squad_ids_and_unit_ids_share_one_namespace() -> None:
    err = problem(edit(lambda d: good(d)["units"][0].update(id="g-sq")))
    assert err.field == "sides[0].units[0].id"
    assert "(squad and unit)" in err.message


def test_ids_are_single_words() -> None:
    err = problem(edit(lambda d: good(d)["units"][0].update(id="big boss")))
    assert err.field == "sides[0].units[0].id"
    assert err.message == "unit id 'big boss' must be one word without spaces (orders name it)"


# --------------------------------------------------------------------------- counts


@rule("FB-SETUP-02", "FB-AMB-12")
def test_unequal_activations_are_rejected_naming_both_counts() -> None:
    def change(d: dict[str, Any]) -> None:
        # Evil: two cavalry squads instead of one infantry squad -> same Standard count (4),
        # but 4 activations against 3.
        evil(d)["squads"] = [
            {"id": "e-h1", "type": "cavalry", "members": [
                member("e1", "knight", None), member("e2", "knight", None)]},
            {"id": "e-h2", "type": "cavalry", "members": [
                member("e3", "lancer", None), member("e4", "lancer", None)]},
        ]

    err = problem(edit(change))
    assert err.field == "sides[1]"
    assert err.message == (
        "unequal activations: 'Good' has 3 (1 squad + 2 Elite/Champion units) but 'Evil' has "
        "4 (2 squads + 2 Elite/Champion units); both sides need the same number (FB-SETUP-02) "
        "unless option allow_unequal_activations is set")
    load(edit(change, allow_unequal_activations=True))


@rule("FB-AMB-12", "FB-START-02", "FB-SETUP-01")
def test_unequal_rank_counts_are_rejected_unless_allowed() -> None:
    def change(d: dict[str, Any]) -> None:
        unit = evil(d)["units"][1]
        unit["rank"] = "elite"
        del unit["feats"]

    err = problem(edit(change))
    assert err.field == "sides[1]"
    assert err.message == (
        "unequal numbers of Elite units: 'Good' has 1, 'Evil' has 2; both sides field the same "
        "number of each rank (FB-AMB-12) unless option per_side_rank_counts is set")
    load(edit(change, per_side_rank_counts=True))


@rule("FB-SETUP-02")
def test_squads_count_one_activation_whatever_their_size() -> None:
    # Good: 1 infantry squad + 2 units = 3; Evil: 1 cavalry squad + 2 units = 3 (ranks differ).
    def change(d: dict[str, Any]) -> None:
        evil(d)["squads"] = [{"id": "e-h1", "type": "cavalry", "members": [
            member("e1", "knight", [0, 8]), member("e2", "knight", [2, 8])]}]

    load(edit(change, per_side_rank_counts=True))


# --------------------------------------------------------------------------- Unique and Fate


@rule("FB-AMB-04", "FB-FATE-01")
def test_unique_unit_needs_a_fate_point() -> None:
    err = problem(edit(lambda d: good(d)["units"][1].update(unique=True)))
    assert err.field == "sides[0].units[1].fate_points"
    assert err.message == "unit 'g-champ' is Unique and needs at least 1 Fate Point"


@rule("FB-AMB-04", "FB-FATE-01")
def test_non_unique_unit_has_no_fate_points() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][0].update(fate_points=2)))
    assert err.field == "sides[0].squads[0].members[0].fate_points"
    assert err.message == ("unit 'g1' has 2 Fate Point(s) but only Unique units have Fate "
                           "Points (set unique: true)")


@rule("FB-AMB-04")
def test_unique_allowed_at_any_rank() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["squads"][0]["members"][0].update(unique=True, fate_points=1)
        good(d)["units"][0].update(unique=True, fate_points=2)
        good(d)["units"][1].update(unique=True, fate_points=3)

    load(edit(change))


@rule("FB-AMB-04")
def test_no_two_copies_of_a_unique_unit_on_one_side() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["units"][0].update(unique=True, fate_points=1, name="Aldric")
        good(d)["units"][1].update(unique=True, fate_points=1, name="Aldric")

    err = problem(edit(change))
    assert err.field == "sides[0].units[1].name"
    assert err.message == ("Unique units 'g-elite' and 'g-champ' share the name 'Aldric'; a side "
                           "may field only one of each Unique unit")


@rule("FB-AMB-04")
def test_same_unique_name_on_both_sides_and_non_unique_namesakes_are_fine() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["units"][1].update(unique=True, fate_points=1, name="Aldric")
        evil(d)["units"][1].update(unique=True, fate_points=1, name="Aldric")
        for m in good(d)["squads"][0]["members"]:
            m["name"] = "Spearman"

    load(edit(change))


# --------------------------------------------------------------------------- Feats, abilities


@rule("FB-FEAT-01", "FB-AMB-36")
def test_feats_only_on_champions() -> None:
    err = problem(edit(lambda d: good(d)["units"][0].update(feats=["vault"])))
    assert err.field == "sides[0].units[0].feats"
    assert err.message == "unit 'g-elite': only Champions have Heroic Feats, not an Elite"


@rule("FB-FEAT-01", "FB-AMB-36")
def test_standard_units_cannot_list_feats() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][0].update(feats=["vault"])))
    assert err.field == "sides[0].squads[0].members[0].feats"


@rule("FB-FEAT-01", "FB-AMB-36")
def test_champion_needs_one_to_three_feats() -> None:
    err = problem(edit(lambda d: good(d)["units"][1].update(feats=[])))
    assert err.field == "sides[0].units[1].feats"
    assert err.message == ("Champion 'g-champ' needs 1 to 3 Heroic Feats (or option "
                           "feat_selection: roll_d6)")
    err = problem(edit(lambda d: good(d)["units"][1].update(
        feats=["frenzy", "throw", "vault", "protect"])))
    assert err.field == "sides[0].units[1].feats"
    assert "at most 3 items" in err.message


@rule("FB-FEAT-01", "FB-AMB-36")
def test_same_feat_may_appear_twice() -> None:
    load(edit(lambda d: good(d)["units"][1].update(feats=["frenzy", "frenzy", "mobility"])))


@rule("FB-FEAT-01", "FB-AMB-36")
def test_roll_d6_lets_champions_omit_feats() -> None:
    data = edit(lambda d: good(d)["units"][1].update(feats=[]), feat_selection="roll_d6")
    assert load(data).model.sides[0].units[1].feats == []


@rule("FB-FEAT-04")
def test_unknown_feat_rejected() -> None:
    err = problem(edit(lambda d: good(d)["units"][1].update(feats=["teleport"])))
    assert err.field == "sides[0].units[1].feats[0]"


@rule("FB-AMB-05", "FB-ABIL-01")
def test_abilities_optional_by_default_required_by_option() -> None:
    load(scenario_data())
    err = problem(scenario_data(require_special_abilities=True))
    assert err.field == "sides[0].units[0].abilities"
    assert err.message == ("Elite 'g-elite' needs at least one special ability (option "
                           "require_special_abilities)")

    def change(d: dict[str, Any]) -> None:
        for side in d["sides"]:
            for unit in side["units"]:
                unit["abilities"] = [{"name": "aura", "defense": 1, "affects": "allies",
                                      "range": 2, "types": ["infantry"], "ranks": ["standard"]}]

    load(edit(change, require_special_abilities=True))


@rule("FB-AMB-05")
def test_standard_units_have_no_abilities() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][0].update(
        abilities=[{"attack": 1}])))
    assert err.field == "sides[0].squads[0].members[0].abilities"
    assert err.message.startswith("unknown field 'abilities'")


# --------------------------------------------------------------------------- first player


@rule("FB-AMB-13", "FB-START-03")
@pytest.mark.parametrize("value", ["random", "A", "B", "Good", "Evil"])
def test_first_player_values(value: str) -> None:
    load(scenario_data(first_player=value))


@rule("FB-AMB-13")
def test_first_player_must_name_a_side() -> None:
    err = problem(scenario_data(first_player="Goblins"))
    assert err.field == "options.first_player"
    assert err.message == ("first_player 'Goblins' is not 'random', 'A', 'B' or a side name "
                           "('Good', 'Evil')")


# --------------------------------------------------------------------------- Pike facing


@rule("FB-SETUP-14", "FB-AMB-23", "FB-CAV-10")
def test_only_pikes_have_a_facing() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][0].update(facing="north")))
    assert err.field == "sides[0].squads[0].members[0].facing"
    assert err.message == "unit 'g1': only Pikes have a facing, not a warrior"


@rule("FB-SETUP-14", "FB-AMB-23")
def test_diagonal_facing_needs_eight_facings() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["squads"][0]["members"][0].update({"class": "pike", "facing": "northeast"})

    err = problem(edit(change))
    assert err.field == "sides[0].squads[0].members[0].facing"
    assert err.message == ("unit 'g1': diagonal facing 'northeast' needs option pike_facings: 8 "
                           "(default: north, south, east or west)")
    load(edit(change, pike_facings=8))


@rule("FB-SETUP-14", "FB-AMB-23")
@pytest.mark.parametrize("facing", ["north", "south", "east", "west"])
def test_orthogonal_facings_always_allowed(facing: str) -> None:
    load(edit(lambda d: good(d)["squads"][0]["members"][0].update(
        {"class": "pike", "facing": facing})))


@rule("FB-AMB-23")
def test_unknown_facing_rejected_by_schema() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][0].update(
        {"class": "pike", "facing": "up"})))
    assert err.field == "sides[0].squads[0].members[0].facing"


# --------------------------------------------------------------------------- deployment


@rule("FB-SETUP-12", "FB-AMB-22", "FB-SETUP-06", "FB-AMB-21")
def test_unit_outside_start_area() -> None:
    err = problem(edit(lambda d: good(d)["units"][0].update(at=[6, 2])))
    assert err.field == "sides[0].units[0].at"
    assert err.message == "unit 'g-elite' at (6, 2) is outside the start area of 'Good' (rows 0-1)"
    err = problem(edit(lambda d: evil(d)["units"][0].update(at=[6, 7])))
    assert err.field == "sides[1].units[0].at"
    assert err.message == "unit 'e-elite' at (6, 7) is outside the start area of 'Evil' (rows 8-9)"


@rule("FB-SETUP-06", "FB-AMB-21")
def test_back_two_rows_are_the_start_area() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["units"][0]["at"] = [0, 0]
        good(d)["units"][1]["at"] = [11, 1]
        evil(d)["units"][0]["at"] = [0, 9]
        evil(d)["units"][1]["at"] = [11, 8]

    load(edit(change))


@rule("FB-SETUP-12", "FB-AMB-22")
def test_custom_start_area() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["start_area"] = [[0, 0], [9, 3]]
        good(d)["units"][0]["at"] = [6, 3]

    load(edit(change))
    data = edit(change)
    good(data)["units"][1]["at"] = [10, 1]
    err = problem(data)
    assert err.field == "sides[0].units[1].at"
    assert err.message == ("unit 'g-champ' at (10, 1) is outside the start area of 'Good' "
                           "(x 0-9, y 0-3)")


def test_start_area_must_be_on_the_map_and_not_overlap() -> None:
    err = problem(edit(lambda d: good(d).update(start_area=[[0, 0], [12, 1]])))
    assert err.field == "sides[0].start_area"
    assert err.message == "start area corner (12, 1) is off the map (map is 12×10)"
    err = problem(edit(lambda d: evil(d).update(start_area=[[0, 1], [11, 9]])))
    assert err.field == "sides[1].start_area"
    assert err.message == "the two start areas overlap at (0, 1)"


@rule("FB-AMB-22", "FB-AMB-02", "FB-CAV-03")
def test_cavalry_base_needs_both_start_rows() -> None:
    def change(d: dict[str, Any]) -> None:
        unit = good(d)["units"][0]
        unit.update(type="cavalry", at=[6, 1])
        unit["class"] = "knight"

    err = problem(edit(change))
    assert err.field == "sides[0].units[0].at"
    assert err.message == ("unit 'g-elite' at (6, 1) is outside the start area of 'Good' "
                           "(rows 0-1) (its 2×2 base covers (6, 1), (6, 2), (7, 1), (7, 2))")
    load(edit(change, cavalry_footprint="1x1"))


@rule("FB-AMB-22", "FB-AMB-02")
def test_off_the_map() -> None:
    err = problem(edit(lambda d: good(d)["units"][0].update(at=[12, 0])))
    assert err.field == "sides[0].units[0].at"
    assert err.message == "unit 'g-elite' at (12, 0) is off the map (map is 12×10)"

    def change(d: dict[str, Any]) -> None:
        unit = evil(d)["units"][0]
        unit.update(type="cavalry", at=[11, 8])
        unit["class"] = "lancer"

    err = problem(edit(change))
    assert err.field == "sides[1].units[0].at"
    assert err.message == ("unit 'e-elite' at (11, 8) is off the map (map is 12×10) (its 2×2 "
                           "base covers (11, 8), (11, 9), (12, 8), (12, 9))")


@rule("FB-AMB-22", "FB-TERRAIN-02", "FB-TERRAIN-10", "FB-TERRAIN-14")
@pytest.mark.parametrize("terrain", ["blocking", "deep_water", "slope", "cliff"])
def test_no_deployment_on_illegal_terrain(terrain: str) -> None:
    def change(d: dict[str, Any]) -> None:
        d["battlefield"]["terrain"] = [{"type": terrain, "squares": [[6, 0]]}]

    err = problem(edit(change))
    assert err.field == "sides[0].units[0].at"
    assert err.message == (f"unit 'g-elite' at (6, 0) would stand on {terrain} terrain at "
                           f"(6, 0); no unit may be deployed on blocking, cliff, slope or deep "
                           f"water squares")


@rule("FB-AMB-22")
@pytest.mark.parametrize("terrain", ["hindering", "concealing", "shallow_water", "elevated"])
def test_deployment_on_other_terrain_is_fine(terrain: str) -> None:
    load(edit(lambda d: d["battlefield"].update(
        terrain=[{"type": terrain, "rects": [[[0, 0], [11, 1]]]}])))


@rule("FB-AMB-22", "FB-AMB-46")
def test_cavalry_base_on_a_hill_slope_is_rejected() -> None:
    def change(d: dict[str, Any]) -> None:
        d["battlefield"]["hills"] = [{"top": [[9, 0], [10, 0]]}]  # slope at x 8 and 11, row 1
        unit = good(d)["units"][1]
        unit.update(type="cavalry", at=[9, 0])
        unit["class"] = "knight"

    err = problem(edit(change))
    assert err.field == "sides[0].units[1].at"
    assert "would stand on slope terrain at (9, 1)" in err.message


@rule("FB-AMB-46", "FB-AMB-22")
def test_cavalry_base_may_not_straddle_levels() -> None:
    def change(d: dict[str, Any]) -> None:
        d["battlefield"]["terrain"] = [{"type": "elevated", "squares": [[6, 0], [6, 1]]}]
        unit = good(d)["units"][0]
        unit.update(type="cavalry", at=[6, 0])
        unit["class"] = "knight"
        good(d)["units"][1]["at"] = [9, 0]

    err = problem(edit(change))
    assert err.field == "sides[0].units[0].at"
    assert err.message == "unit 'g-elite' at (6, 0): its 2×2 base straddles two levels"


@rule("FB-AMB-22")
def test_two_units_in_one_square() -> None:
    err = problem(edit(lambda d: good(d)["units"][1].update(at=[6, 0])))
    assert err.field == "sides[0].units[1].at"
    assert err.message == "units 'g-elite' and 'g-champ' both occupy (6, 0)"


@rule("FB-AMB-22", "FB-AMB-03")
def test_cavalry_base_overlapping_another_unit() -> None:
    def change(d: dict[str, Any]) -> None:
        unit = good(d)["units"][1]
        unit.update(type="cavalry", at=[5, 0])
        unit["class"] = "knight"

    err = problem(edit(change))
    assert err.field == "sides[0].units[1].at"
    assert err.message == "units 'g-elite' and 'g-champ' both occupy (6, 0)"


@rule("FB-SETUP-13", "FB-AMB-08")
def test_squad_member_must_touch_a_squad_mate() -> None:
    err = problem(edit(lambda d: good(d)["squads"][0]["members"][3].update(at=[10, 1])))
    assert err.field == "sides[0].squads[0].members[3].at"
    assert err.message == ("squad 'g-sq': 'g4' at (10, 1) is not adjacent to another unit of its "
                           "squad (FB-SETUP-13)")


@rule("FB-SETUP-13", "FB-AMB-08", "FB-AMB-01")
def test_diagonal_neighbours_count_and_other_units_do_not() -> None:
    def diagonal(d: dict[str, Any]) -> None:
        members = good(d)["squads"][0]["members"]
        for m, at in zip(members, [[1, 0], [2, 1], [3, 0], [4, 1]]):
            m["at"] = at

    load(edit(diagonal))

    def beside_other_unit(d: dict[str, Any]) -> None:
        good(d)["squads"][0]["members"][3]["at"] = [7, 0]  # next to g-elite only

    err = problem(edit(beside_other_unit))
    assert err.field == "sides[0].squads[0].members[3].at"


@rule("FB-SETUP-13", "FB-AMB-08")
def test_two_separate_pairs_allowed_unless_connected_option() -> None:
    def pairs(d: dict[str, Any]) -> None:
        members = good(d)["squads"][0]["members"]
        for m, at in zip(members, [[0, 0], [1, 0], [4, 0], [4, 1]]):
            m["at"] = at

    load(edit(pairs))
    err = problem(edit(pairs, squad_deploy_connected=True))
    assert err.field == "sides[0].squads[0].members"
    assert err.message == ("squad 'g-sq' is deployed in separate groups; option "
                           "squad_deploy_connected asks for one connected group")


@rule("FB-SETUP-13", "FB-AMB-08", "FB-AMB-02")
def test_cavalry_squad_bases_must_touch() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["squads"].append({"id": "g-horse", "type": "cavalry", "members": [
            member("g5", "knight", [0, 0]), member("g6", "knight", [3, 0])]})
        evil(d)["squads"].append({"id": "e-horse", "type": "cavalry", "members": [
            member("e5", "knight", [0, 8]), member("e6", "knight", [10, 8])]})
        for m, x in zip(good(d)["squads"][0]["members"], [5, 6, 7, 8]):
            m["at"] = [x, 2 - 1]
        good(d)["units"][0]["at"] = [9, 0]
        good(d)["units"][1]["at"] = [10, 0]
        for m, x in zip(evil(d)["squads"][0]["members"], [2, 3, 4, 5]):
            m["at"] = [x, 9]

    err = problem(edit(change))
    assert err.field == "sides[0].squads[1].members[0].at"
    data = edit(change)
    good(data)["squads"][1]["members"][1]["at"] = [2, 0]  # bases touch along an edge
    err = problem(data)
    assert err.field == "sides[1].squads[1].members[0].at"


def test_units_without_position_are_left_to_setup() -> None:
    def change(d: dict[str, Any]) -> None:
        for side in d["sides"]:
            for squad in side["squads"]:
                for m in squad["members"]:
                    m.pop("at")
            side["units"][0].pop("at")

    load(edit(change))


# --------------------------------------------------------------------------- battlefield data


@rule("FB-AMB-20")
def test_terrain_squares_must_be_on_the_map() -> None:
    def change(d: dict[str, Any]) -> None:
        d["battlefield"]["terrain"] = [{"type": "blocking", "squares": [[5, 5], [5, 10]]}]

    err = problem(edit(change))
    assert err.field == "battlefield.terrain[0].squares[1]"
    assert err.message == "terrain square (5, 10) is off the map (map is 12×10)"
    err = problem(edit(lambda d: d["battlefield"].update(
        terrain=[{"type": "hindering", "rects": [[[3, 3], [12, 4]]]}])))
    assert err.field == "battlefield.terrain[0].rects[0]"
    assert err.message == "terrain rectangle corner (12, 4) is off the map (map is 12×10)"
    err = problem(edit(lambda d: d["battlefield"].update(hills=[{"top": [[3, 4], [4, 14]]}])))
    assert err.field == "battlefield.hills[0].top"


@rule("FB-WIN-07", "FB-AMB-44", "FB-AMB-20")
def test_victory_area_squares_must_be_on_the_map() -> None:
    err = problem(edit(lambda d: d["battlefield"].update(victory_areas=[
        {"name": "hill", "squares": [[5, 5], [40, 5]], "points": 2}])))
    assert err.field == "battlefield.victory_areas[0].squares[1]"
    assert err.message == "victory area square (40, 5) is off the map (map is 12×10)"
    err = problem(edit(lambda d: d["battlefield"].update(victory_areas=[
        {"name": "hill", "squares": [[5, 5]], "points": 0}])))
    assert err.field == "battlefield.victory_areas[0].points"


@rule("FB-AMB-20")
@pytest.mark.parametrize(("field", "value"), [("width", 3), ("height", 401)])
def test_map_size_limits(field: str, value: int) -> None:
    err = problem(edit(lambda d: d["battlefield"].update({field: value})))
    assert err.field == f"battlefield.{field}"


# --------------------------------------------------------------------------- constructed maps


def constructed(pieces: int = 3, **options: Any) -> dict[str, Any]:
    """The base scenario on a constructed 12x10 battlefield with ``pieces`` pieces a side."""
    data = scenario_data(**options)
    data["battlefield"]["kind"] = "constructed"
    for side in data["sides"]:
        side["terrain_pieces"] = [{"type": "blocking", "shape": [[0, 0]]}] * pieces
    return data


@rule("FB-SETUP-03", "FB-SETUP-04", "FB-AMB-19")
def test_constructed_needs_exactly_the_agreed_pieces() -> None:
    load(constructed())
    data = constructed()
    evil(data)["terrain_pieces"] = evil(data)["terrain_pieces"][:2]
    err = problem(data)
    assert err.field == "sides[1].terrain_pieces"
    assert err.message == ("side 'Evil' brings 2 terrain piece(s); each player brings exactly 3 "
                           "(option terrain_pieces_per_player)")
    load(constructed(2, terrain_pieces_per_player=2))


@rule("FB-SETUP-03")
def test_terrain_pieces_only_on_constructed_battlefields() -> None:
    data = constructed()
    data["battlefield"]["kind"] = "pregenerated"
    err = problem(data)
    assert err.field == "sides[0].terrain_pieces"


@rule("FB-SETUP-05")
def test_constructed_battlefield_starts_blank() -> None:
    data = constructed()
    data["battlefield"]["terrain"] = [{"type": "blocking", "squares": [[5, 5]]}]
    err = problem(data)
    assert err.field == "battlefield.terrain"
    data = constructed()
    data["battlefield"]["hills"] = [{"top": [[5, 5], [5, 5]]}]
    assert problem(data).field == "battlefield.hills"


@rule("FB-AMB-21")
def test_constructed_battlefield_uses_back_rows() -> None:
    data = constructed()
    good(data)["start_area"] = [[0, 0], [11, 1]]
    err = problem(data)
    assert err.field == "sides[0].start_area"


@rule("FB-AMB-19")
def test_max_terrain_piece_squares() -> None:
    data = constructed(max_terrain_piece_squares=4)
    good(data)["terrain_pieces"][1] = {"type": "hindering",
                                       "shape": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]}
    err = problem(data)
    assert err.field == "sides[0].terrain_pieces[1]"
    assert err.message == ("terrain piece has 5 squares; the most allowed is 4 (option "
                           "max_terrain_piece_squares)")
    data = constructed(max_terrain_piece_squares=15)
    evil(data)["terrain_pieces"][2] = {"type": "hill", "hill_size": [2, 2]}  # 4x4 = 16 squares
    err = problem(data)
    assert err.field == "sides[1].terrain_pieces[2]"
    assert "has 16 squares" in err.message


@rule("FB-AMB-19")
@pytest.mark.parametrize(("piece", "field", "text"), [
    ({"type": "hill"}, "hill_size", "a hill piece needs hill_size"),
    ({"type": "hill", "hill_size": [1, 1], "shape": [[0, 0]]}, "shape", "a hill piece takes"),
    ({"type": "blocking", "shape": [[0, 0]], "hill_size": [1, 1]}, "hill_size", "only a hill"),
    ({"type": "blocking"}, "shape", "a terrain piece needs a shape"),
    ({"type": "clear", "shape": [[0, 0]]}, "type", "cannot be clear"),
    ({"type": "blocking", "shape": [[0, 0], [0, 0]]}, "shape", "lists a square twice"),
    ({"type": "blocking", "shape": [[0, 0], [2, 0]]}, "shape", "one connected group"),
])
def test_bad_terrain_pieces(piece: dict[str, Any], field: str, text: str) -> None:
    data = constructed()
    good(data)["terrain_pieces"][0] = piece
    err = problem(data)
    assert err.field == f"sides[0].terrain_pieces[0].{field}"
    assert text in err.message


@rule("FB-AMB-19")
def test_diagonally_connected_piece_is_one_piece() -> None:
    data = constructed()
    good(data)["terrain_pieces"][0] = {"type": "hindering", "shape": [[0, 0], [1, 1], [2, 2]]}
    load(data)


@rule("FB-AMB-22")
def test_army_that_cannot_fit_its_start_area() -> None:
    def change(d: dict[str, Any]) -> None:
        good(d)["start_area"] = [[0, 0], [3, 1]]  # 8 squares
        for m, at in zip(good(d)["squads"][0]["members"], [[0, 0], [1, 0], [2, 0], [3, 0]]):
            m["at"] = at
        for unit in good(d)["units"]:
            unit.pop("at")
            unit.update(type="cavalry")
            unit["class"] = "knight"

    err = problem(edit(change, per_side_rank_counts=True))
    assert err.field == "sides[0]"
    assert err.message == ("the units of 'Good' without a position need 8 squares but only 4 "
                           "free squares are left in its start area")
