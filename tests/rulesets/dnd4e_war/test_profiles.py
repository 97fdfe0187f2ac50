"""Profiles: each characteristic is read and used (W4-STAT), unit types (W4-TYPE,
W4-MONSTER-01 to 03) and undefined special rules (W4-AMB-76)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tests.rulesets.dnd4e_war import helpers
from tests.rulesets.dnd4e_war.helpers import get, profile, scenario_data, unit
from warhost.core.errors import SetupError
from warhost.core.registry import get_ruleset
from warhost.rulesets.dnd4e_war import profiles
from warhost.rulesets.dnd4e_war.model import Dnd4eWarScenario
from warhost.rulesets.dnd4e_war.state import Unit
from warhost.rulesets.dnd4e_war.validate import check_scenario

FOE = unit("z", "B", at=(60.0, 44.0), facing=180)


def _model(**fields: Any) -> Dnd4eWarScenario:
    companies = fields.pop("companies", 1)
    command = fields.pop("command", None)
    extra = {"command": command} if command else {}
    data = scenario_data([unit("a", companies=companies, profile=profile(**fields), **extra),
                          FOE])
    model = get_ruleset("dnd4e-war").scenario_model.model_validate(data)
    assert isinstance(model, Dnd4eWarScenario)
    return model


def _unit(companies: int = 1, command: dict[str, Any] | None = None, **fields: Any) -> Unit:
    extra = {"command": command} if command else {}
    state = helpers.make_state([unit("a", companies=companies, profile=profile(**fields),
                                     **extra), FOE])
    return get(state, "a")


def _refused(match: str, **fields: Any) -> None:
    with pytest.raises((SetupError, ValidationError), match=match):
        check_scenario(_model(**fields))


@pytest.mark.rule("W4-STAT-01")
def test_size_sets_the_base_and_the_tray() -> None:
    medium, large = _unit(), _unit(size="large")
    assert (medium.base, medium.tray_width, medium.tray_depth) == (1.0, 4.0, 2.0)
    assert (large.base, large.tray_width, large.tray_depth) == (2.0, 8.0, 4.0)
    assert _unit(size="huge", formation="skirmish").base == 3.0


@pytest.mark.rule("W4-STAT-02")
def test_skills_and_other_stat_block_entries_are_not_part_of_a_profile() -> None:
    with pytest.raises(ValidationError, match="skills"):
        _model(skills={"athletics": 5})


@pytest.mark.rule("W4-STAT-03")
def test_speed_is_the_inches_of_one_move() -> None:
    assert _unit(speed=5).speed() == 5.0
    assert _unit(speed=8).speed() == 8.0


@pytest.mark.rule("W4-STAT-04")
def test_initiative_is_read_from_the_profile() -> None:
    assert _unit(initiative=7).profile.initiative == 7
    assert _unit().profile.initiative == 3


@pytest.mark.rule("W4-STAT-05")
def test_one_dash_hit_points_mark_a_minion() -> None:
    assert profiles.is_minion(_unit().profile)
    assert profiles.is_minion(_unit(hp="minion").profile)
    assert not profiles.is_minion(_unit(hp=32).profile)


@pytest.mark.rule("W4-STAT-06")
@pytest.mark.rule("W4-AMB-54")
def test_resilience_is_the_hits_a_minion_takes_before_it_falls() -> None:
    from warhost.rulesets.dnd4e_war import casualties

    state = helpers.make_state([unit("a", profile=profile(resilience=2, cavalry=True),
                                     companies=3), FOE])
    a = get(state, "a")
    losses = casualties.apply_hits(state, helpers.make_battle(state), a, 5, "x", "test")
    assert losses.slain == 2 and a.models == 4


@pytest.mark.rule("W4-STAT-07")
def test_a_model_with_hit_points_never_has_resilience_above_one() -> None:
    _refused("W4-STAT-07", hp=40, resilience=2)
    check_scenario(_model(hp="1/-", resilience=2))
    check_scenario(_model(hp=40, resilience=1))


@pytest.mark.rule("W4-STAT-08")
@pytest.mark.rule("W4-STAT-09")
def test_attacks_is_the_multiattack_count_and_one_forbids_it() -> None:
    assert profiles.multiattacks(_unit(attacks=3).profile.attacks) == 3
    assert not profiles.can_multiattack(_unit().profile.attacks)
    assert profiles.multiattacks(1) == 0
    assert _unit(command={"captain": {"attacks": 4}}).captain_attacks == 4


@pytest.mark.rule("W4-STAT-10")
def test_unit_size_bounds_the_companies() -> None:
    _refused("W4-STAT-10", unit_size=[2, 4], companies=1)
    _refused("W4-STAT-10", unit_size=[1, 2], companies=3)
    check_scenario(_model(unit_size=[2, 4], companies=2))


@pytest.mark.rule("W4-STAT-11")
def test_the_four_defenses_are_read_and_all_required() -> None:
    d = _unit(defenses={"ac": 18, "fortitude": 15, "reflex": 13, "will": 12}).profile.defenses
    assert (d.ac, d.fortitude, d.reflex, d.will) == (18, 15, 13, 12)
    with pytest.raises(ValidationError, match="will"):
        _model(defenses={"ac": 18, "fortitude": 15, "reflex": 13})


@pytest.mark.rule("W4-STAT-12")
@pytest.mark.rule("W4-STAT-13")
def test_action_points_make_a_character_even_a_minion() -> None:
    captained = _unit(command={"captain": {"action_points": 2}})
    assert captained.action_points == 2 and profiles.is_character(captained.action_points)
    assert profiles.is_minion(captained.profile) and profiles.captain_is_character(captained)
    assert not profiles.is_character(0) and not profiles.captain_is_character(_unit())


@pytest.mark.rule("W4-STAT-14")
def test_command_rules_and_powers_are_read() -> None:
    bow = {"name": "Bow", "kind": "ranged", "bonus": 6, "range": 20, "damage": "1d10"}
    spear = profile()["powers"][0]
    u = _unit(rules=["stubborn"], powers=[spear, bow],
              command={"musician": True, "standard": True})
    assert [p.name for p in u.powers("ranged")] == ["Bow"]
    assert u.rule("stubborn") and not u.rule("fear")
    assert u.musician and u.standard and not u.battle_standard


@pytest.mark.rule("W4-TYPE-01")
def test_infantry_is_the_default_in_companies_of_eight() -> None:
    u = _unit()
    assert not u.profile.cavalry and not u.is_monster and not u.skirmish
    assert u.company_size == 8 and u.has_flanks


@pytest.mark.rule("W4-TYPE-02")
@pytest.mark.rule("W4-TYPE-03")
def test_cavalry_comes_in_companies_of_two_single_models_with_resilience() -> None:
    u = _unit(2, cavalry=True, mount_size="large", resilience=2)
    assert u.company_size == 2 and u.models == 4 and u.profile.resilience == 2


@pytest.mark.rule("W4-MONSTER-01")
def test_monsters_in_companies_are_infantry_and_loose_ones_skirmishers() -> None:
    company = _unit(monster=True, size="large")
    assert company.is_monster and not company.skirmish and company.has_flanks
    loose = _unit(2, monster=True, size="huge", formation="skirmish")
    assert loose.is_monster and loose.skirmish and not loose.has_flanks


@pytest.mark.rule("W4-MONSTER-03")
@pytest.mark.rule("W4-IMMUNE-02")
def test_monsters_fearless_and_last_man_units_are_immune_to_hope_is_lost() -> None:
    assert profiles.immune_to_hope_is_lost(_unit(monster=True))
    assert profiles.immune_to_hope_is_lost(_unit(rules=["fearless"]))
    assert profiles.immune_to_hope_is_lost(_unit(rules=["to_the_last_man"]))
    assert not profiles.immune_to_hope_is_lost(_unit(command={"captain": {}}))


@pytest.mark.rule("W4-AMB-76")
def test_frenzy_has_no_effect_defined_and_is_refused() -> None:
    with pytest.raises(ValidationError, match="rules"):
        _model(rules=["frenzy"])
