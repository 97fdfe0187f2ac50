"""How the work of a dnd5e-tactics round grows with the army, counted, not timed
(:mod:`warhost.core.metering`): geometry queries and options built per round, at two army
sizes, with random and with AI commanders."""

from __future__ import annotations

import pytest

from tests.scaling import KINDS, growth_exponent, work_per_round

SIZES = (16, 64)
"""Units a side. The smallest army scenarios fit inside the few cells a search looks at, so
the comparison starts at 16 (at 8 the whole table is one neighbourhood)."""
ROUNDS = 4
"""Enough for the lines to meet (round 3), so engagement is counted too."""


@pytest.mark.parametrize("kind", ["random", "ai"])
def test_work_per_round_grows_at_most_linearly(kind: str) -> None:
    small, large = (work_per_round("dnd5e-tactics", n, ROUNDS, kind) for n in SIZES)
    for key in KINDS:
        assert small[key] > 0
        exponent = growth_exponent(small[key], large[key], SIZES)
        assert exponent <= 1.2, f"{key}: {small[key]:.0f} -> {large[key]:.0f} per round"
