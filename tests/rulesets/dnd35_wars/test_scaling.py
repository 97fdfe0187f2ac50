"""How the work of a dnd35-wars round grows with the army, counted, not timed
(:mod:`warhost.core.metering`): geometry queries and options built per round, at two army
sizes, with random and with AI commanders."""

from __future__ import annotations

import pytest

from tests.scaling import KINDS, growth_exponent, work_per_round
from warhost.core.battle import Battle
from warhost.core.engine import build_commanders
from warhost.core.registry import get_ruleset
from warhost.core.scenario import scenario_from_data
from warhost.rulesets.dnd35_wars.armies import army_scenario

SIZES = (10, 40)
"""Units a side, in one line a side on a map that grows in width."""
ROUNDS = 4
"""Enough for the lines (10 squares apart, 3 to 6 squares a round) to meet, so charges, melee
and morale are counted too."""


def test_the_army_scenario_is_a_valid_field_battle_of_mixed_units() -> None:
    data = army_scenario(12, 3)
    scenario = scenario_from_data(data, "<army-12>")
    assert data["options"]["round_limit"] == 3
    ruleset = get_ruleset("dnd35-wars")
    battle = Battle(ruleset, scenario, 1, build_commanders(scenario, None), None)
    state = ruleset.new_state(scenario, battle)
    for side in state.sides:
        units = state.units_of(side)
        assert len(units) == 12
        assert all(4 <= u.counters <= 9 for u in units)
        assert any(u.mounted for u in units) and any(u.ranged is not None for u in units)
    gap = min(abs(a[1] - b[1]) for a in state.units["afoot0"].squares
              for b in state.units["bfoot0"].squares)
    assert gap >= 6  # W35-PLACE-07's separation


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_work_per_round_grows_at_most_linearly(kind: str) -> None:
    small, large = (work_per_round("dnd35-wars", n, ROUNDS, kind) for n in SIZES)
    for key in KINDS:
        assert small[key] > 0, f"no {key} work counted"
        exponent = growth_exponent(small[key], large[key], SIZES)
        assert exponent <= 1.2, f"{key}: {small[key]:.0f} -> {large[key]:.0f} per round"
