"""The plain-arithmetic segment tests behind the quick paths of moves agree with shapely."""

from __future__ import annotations

import itertools

import pytest
import shapely

from warhost.geometry.table import Tray, segment_misses_box, segment_tray_gap

TRAYS = [Tray((0.0, 0.0), 0.0, 4.0, 2.0), Tray((1.0, -2.0), 30.0, 1.0, 1.0),
         Tray((-3.0, 5.0), 135.0, 3.0, 0.5)]
ENDS = [(-6.0, -6.0), (-6.0, 1.0), (5.0, 0.5), (0.3, 0.2), (2.0, 7.0), (-1.5, 4.6), (6.0, -4.0)]


@pytest.mark.parametrize("tray", TRAYS)
def test_segment_tray_gap_is_shapelys_distance(tray: Tray) -> None:
    for a, b in itertools.combinations(ENDS, 2):
        line = shapely.LineString([a, b])
        assert segment_tray_gap(a, b, tray) == pytest.approx(line.distance(tray.polygon),
                                                             abs=1e-9)
    assert segment_tray_gap((0.5, 0.5), (0.5, 0.5), TRAYS[0]) == 0.0  # a point inside


def test_segment_misses_box_only_when_farther_than_the_margin() -> None:
    box = (0.0, 0.0, 2.0, 1.0)
    shape = shapely.box(*box)
    for a, b in itertools.combinations(ENDS, 2):
        gap = shapely.LineString([a, b]).distance(shape)
        for margin in (0.0, 0.5, 1.0, 3.0):
            if segment_misses_box(a, b, box, margin):
                assert gap > margin
    assert segment_misses_box((-3.0, 3.0), (5.0, 3.0), box, 1.5)
    assert not segment_misses_box((-3.0, 3.0), (5.0, 3.0), box, 2.5)
