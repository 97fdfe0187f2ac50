"""The work counters that the scaling tests read instead of a clock."""

from __future__ import annotations

from warhost.core.metering import GEOMETRY, OPTIONS, count, metered, metering


def test_counts_only_inside_a_meter() -> None:
    count(GEOMETRY, 5)  # no meter: nothing to count into, and no error
    assert not metering()
    with metered() as meter:
        assert metering()
        count(GEOMETRY)
        count(GEOMETRY, 2)
        count(OPTIONS, 4)
    assert meter == {GEOMETRY: 3, OPTIONS: 4}
    assert not metering()


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
        with metered():
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert not metering()
