"""How the work of a warband turn grows with the army, counted, not timed
(:mod:`warhost.core.metering`): squares searched, lines of sight and options built per turn,
at two army sizes, with random and with AI commanders."""

from __future__ import annotations

import pytest

from tests.scaling import KINDS, growth_exponent, work_per_round

SIZES = (50, 200)
"""Characters a side, in two rows a side on a field that grows in width."""
TURNS = 4
"""Enough for the lines to meet, so melee, morale and routs are counted too."""


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_work_per_turn_grows_at_most_linearly(kind: str) -> None:
    small, large = (work_per_round("warband", n, TURNS, kind) for n in SIZES)
    for key in KINDS:
        assert small[key] > 0
        exponent = growth_exponent(small[key], large[key], SIZES)
        assert exponent <= 1.2, f"{key}: {small[key]:.0f} -> {large[key]:.0f} per turn"
