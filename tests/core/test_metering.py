"""The work counters that the scaling tests read instead of a clock."""

from __future__ import annotations

from warhost.core.metering import GEOMETRY, OPTIONS, count, metered


def test_counts_only_inside_a_meter() -> None:
    count(GEOMETRY, 5)  # no meter: nothing to count into, and no error
    with metered() as meter:
        count(GEOMETRY)
        count(GEOMETRY, 2)
        count(OPTIONS, 4)
    count(GEOMETRY, 7)  # after the block: the meter is no longer counting
    assert meter == {GEOMETRY: 3, OPTIONS: 4}


def test_an_inner_meter_counts_apart_and_the_outer_resumes() -> None:
    with metered() as outer:
        count(OPTIONS)
        with metered() as inner:
            count(OPTIONS, 10)
        count(OPTIONS)
    assert inner[OPTIONS] == 10
    assert outer[OPTIONS] == 2


def test_a_failure_inside_leaves_no_meter_behind() -> None:
    try:
        with metered() as meter:
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    count(OPTIONS)
    assert meter == {}
