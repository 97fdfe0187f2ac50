"""How the work of a dnd4e-war turn grows with the army, counted, not timed
(:mod:`warhost.core.metering`): distances, sight lines and options built per turn, at two
army sizes, with random and with AI commanders."""

from __future__ import annotations

import pytest

from tests.scaling import KINDS, growth_exponent, work_per_round

SIZES = (10, 40)
"""Units a side, in one line a side on a table that grows in width."""
TURNS = 4
"""Enough for the lines to meet, so charges, close combat and flight are counted too."""


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_work_per_turn_grows_at_most_linearly(kind: str) -> None:
    small, large = (work_per_round("dnd4e-war", n, TURNS, kind) for n in SIZES)
    for key in KINDS:
        assert small[key] > 0
        exponent = growth_exponent(small[key], large[key], SIZES)
        assert exponent <= 1.2, f"{key}: {small[key]:.0f} -> {large[key]:.0f} per turn"
