"""Unit strength (W4-STR, W4-MONSTER-02, W4-TYPE-03) and its worked examples."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war import helpers
from tests.rulesets.dnd4e_war.helpers import get, profile, unit
from warhost.rulesets.dnd4e_war.profiles import character_strength, strength_with
from warhost.rulesets.dnd4e_war.state import Unit


def _unit(companies: int = 1, **fields: Any) -> Unit:
    state = helpers.make_state([unit("a", companies=companies, profile=profile(**fields)),
                                unit("z", "B", at=(60.0, 44.0), facing=180)])
    return get(state, "a")


SPIDER_KNIGHT = {"race": "drow", "cavalry": True, "mount_size": "large", "resilience": 2,
                 "unit_size": [1, 10]}


@pytest.mark.rule("W4-STR-06")
@pytest.mark.rule("W4-STR-01")
def test_sixteen_elves_have_unit_strength_sixteen() -> None:
    elves = _unit(2, race="elf")
    assert elves.models == 16 and elves.strength() == 16
    elves.companies[-1] -= 3
    assert elves.strength() == 13


@pytest.mark.rule("W4-STR-02")
@pytest.mark.rule("W4-MONSTER-02")
def test_strength_by_size_and_plus_one_per_monster_model() -> None:
    assert _unit(size="small").model_strength() == 1
    assert _unit(size="medium").model_strength() == 1
    assert _unit(size="large").model_strength() == 2
    assert _unit(size="huge", formation="skirmish").model_strength() == 4
    assert _unit(size="gargantuan", formation="skirmish").model_strength() == 8
    ogres = _unit(size="large", monster=True, company={"columns": 2, "rows": 1})
    assert ogres.model_strength() == 3 and ogres.strength() == 6  # per model, not per unit


@pytest.mark.rule("W4-STR-03")
@pytest.mark.rule("W4-TYPE-03")
def test_a_cavalry_model_counts_only_its_mount() -> None:
    knights = _unit(3, **SPIDER_KNIGHT)
    assert knights.models == 6 and knights.model_strength() == 2 and knights.strength() == 12
    riders = _unit(1, size="small", cavalry=True, mount_size="medium")
    assert riders.model_strength() == 1
    assert character_strength("medium", "large") == 2


@pytest.mark.rule("W4-STR-07")
@pytest.mark.rule("W4-STR-04")
def test_a_spider_rider_has_unit_strength_four() -> None:
    assert character_strength("medium", "large", mount_monster=True) == 4
    assert character_strength("medium", "large", mount_monster=True, lone=True) == 4


@pytest.mark.rule("W4-STR-08")
def test_the_spider_rider_with_ten_spider_knights_makes_twenty_four() -> None:
    knights = _unit(5, **SPIDER_KNIGHT)
    assert knights.models == 10 and knights.strength() == 20
    rider = character_strength("medium", "large", mount_monster=True)
    assert strength_with(knights, rider) == 24


@pytest.mark.rule("W4-STR-05")
def test_a_lone_character_of_strength_two_or_more_counts_as_a_monster() -> None:
    assert character_strength("large", lone=True) == 3
    assert character_strength("large") == 2
    assert character_strength("medium", lone=True) == 1
    assert character_strength("medium", "large", lone=True) == 3
