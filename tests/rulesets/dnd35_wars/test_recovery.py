"""Casualty recovery at the end of a battle (W35-RECOV, W35-AMB-60)."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.dnd35_wars.recovery import recovered_hp, recovery_percent


def percent(*, ranged_only: bool = False, won: bool = False,
            cleric_levels: tuple[int, ...] = (), healers: int = 0,
            withdrew: bool = False) -> int:
    return recovery_percent(ranged_only=ranged_only, won=won, cleric_levels=cleric_levels,
                            healers=healers, withdrew=withdrew)


@pytest.mark.rule("W35-RECOV-08")
@pytest.mark.rule("W35-AMB-60")
@pytest.mark.parametrize(("situation", "expected"), [
    ({"ranged_only": True}, 50),
    ({"won": True}, 50),
    ({"won": False}, 25),
    ({"cleric_levels": (3,)}, 25 + 6),
    ({"cleric_levels": (3, 4)}, 25 + 10),
    ({"healers": 4}, 25 + 4),
    ({"healers": 14}, 25 + 10),
    ({"withdrew": True}, 5),
])
def test_recovery_table_rows(situation: dict[str, Any], expected: int) -> None:
    assert percent(**situation) == expected


@pytest.mark.rule("W35-RECOV-02")
def test_ranged_only_battle_gives_everyone_fifty() -> None:
    assert percent(ranged_only=True, won=False) == 50
    assert percent(ranged_only=True, won=True) == 50
    assert recovered_hp(120, percent(ranged_only=True)) == 60
    assert recovered_hp(35, percent(ranged_only=True)) == 17  # rounded down


@pytest.mark.rule("W35-RECOV-03")
@pytest.mark.rule("W35-RECOV-04")
def test_melee_winners_fifty_losers_twenty_five() -> None:
    assert recovered_hp(120, percent(won=True)) == 60
    assert recovered_hp(120, percent(won=False)) == 30
    assert recovered_hp(10, percent(won=False)) == 2  # 2.5 rounded down


@pytest.mark.rule("W35-RECOV-05")
@pytest.mark.rule("W35-AMB-60")
def test_clerics_add_two_per_level_at_most_ten() -> None:
    assert percent(won=True, cleric_levels=(1,)) == 52
    assert percent(won=True, cleric_levels=(2, 2)) == 58
    assert percent(won=True, cleric_levels=(5,)) == 60
    assert percent(won=True, cleric_levels=(9,)) == 60
    assert percent(won=True, cleric_levels=(1, 1, 1, 1, 1, 1)) == 60


@pytest.mark.rule("W35-RECOV-06")
@pytest.mark.rule("W35-AMB-60")
def test_healers_add_one_each_at_most_ten() -> None:
    assert percent(won=True, healers=1) == 51
    assert percent(won=True, healers=10) == 60
    assert percent(won=True, healers=11) == 60
    assert percent(won=True, cleric_levels=(5,), healers=10) == 70
    with pytest.raises(ValueError):
        percent(healers=-1)


@pytest.mark.rule("W35-RECOV-07")
@pytest.mark.rule("W35-AMB-60")
def test_withdrawing_costs_twenty_never_below_zero() -> None:
    assert percent(won=True, withdrew=True) == 30
    assert percent(ranged_only=True, withdrew=True) == 30
    assert percent(won=False, withdrew=True) == 5
    assert percent(won=False, withdrew=True, healers=3) == 8


@pytest.mark.rule("W35-RECOV-01")
@pytest.mark.rule("W35-RECOV-08")
def test_recovered_hp_is_lost_times_percent_rounded_down() -> None:
    assert recovered_hp(0, 50) == 0
    assert recovered_hp(99, 33) == 32  # 32.67
    assert recovered_hp(108, 25 + 6 - 20) == 11  # 11.88
    assert recovered_hp(108, 0) == 0
    with pytest.raises(ValueError):
        recovered_hp(-1, 50)
