"""Bursts, blasts and lasting areas on the table (W4-AREA-01 to 07, W4-AMB-50/51)."""

from __future__ import annotations

import pytest
from shapely.geometry import Point as ShapelyPoint

from warhost.geometry.table import (
    Tray,
    area_burst,
    blast,
    cells_covered,
    close_burst,
    lasting_area,
    lasting_marker,
    model_cells,
    most_covered,
    offset,
    on_edge,
    sweep,
)


def inside(shape: object, point: tuple[float, float]) -> bool:
    return bool(shape.intersects(ShapelyPoint(point)))  # type: ignore[attr-defined]


@pytest.mark.rule("W4-AREA-01")
@pytest.mark.rule("W4-AREA-03")
def test_an_area_burst_reaches_its_size_beyond_a_one_inch_marker() -> None:
    shape = area_burst((10.0, 10.0), 2)
    assert inside(shape, (12.49, 10.0)) and not inside(shape, (12.52, 10.0))
    assert inside(shape, offset((10.0, 10.0), 37, 2.499))


@pytest.mark.rule("W4-AREA-02")
@pytest.mark.rule("W4-AMB-51")
def test_a_close_burst_reaches_its_size_from_the_users_base_edge() -> None:
    base = Tray((0.0, 0.0), 0.0, 2.0, 2.0)
    shape = close_burst(base, 3)
    assert inside(shape, (0.0, 3.99)) and not inside(shape, (0.0, 4.02))
    assert inside(shape, offset((1.0, 1.0), 45, 2.999))  # round about the corners
    assert not inside(shape, offset((1.0, 1.0), 45, 3.02))


@pytest.mark.rule("W4-AREA-05")
@pytest.mark.rule("W4-AMB-51")
def test_a_blast_is_a_quarter_circle_from_a_point_of_the_base_edge() -> None:
    base = Tray((0.0, 0.0), 0.0, 2.0, 2.0)
    apex = (0.5, 1.0)
    assert on_edge(base, apex) and not on_edge(base, (0.0, 0.0))
    shape = blast(apex, 0.0, 4)
    assert inside(shape, offset(apex, 44.0, 3.99)) and not inside(shape, offset(apex, 46.0, 1))
    assert inside(shape, offset(apex, 0.0, 3.99)) and not inside(shape, offset(apex, 0, 4.02))


@pytest.mark.rule("W4-AREA-06")
@pytest.mark.rule("W4-AMB-51")
def test_a_lasting_blast_is_marked_half_way_and_measured_half_its_size() -> None:
    apex = (0.0, 0.0)
    marker = lasting_marker(apex, 4, bearing_deg=90.0)
    assert marker == pytest.approx((2.0, 0.0))
    assert lasting_marker((3.0, 3.0), 4) == (3.0, 3.0)
    blast_area = lasting_area(marker, 4, is_blast=True)
    assert inside(blast_area, (4.49, 0.0)) and not inside(blast_area, (4.52, 0.0))
    burst_area = lasting_area(marker, 4)
    assert inside(burst_area, (6.49, 0.0))


@pytest.mark.rule("W4-AMB-50")
@pytest.mark.rule("W4-AMB-04")
@pytest.mark.rule("W4-AMB-05")
def test_models_covered_are_the_cells_of_the_layout_an_area_touches() -> None:
    tray = Tray((0.0, 0.0), 0.0, 4.0, 2.0)  # 4 x 2 models of 1 inch; front row at y 0..1
    assert len(model_cells(tray, 4, 2, 6)) == 6
    small = area_burst((-1.5, 1.2), 0.0)  # radius 0.5 around a point just ahead of a cell
    assert cells_covered(small, tray, 4, 2, 8) == 1
    wide = area_burst((0.0, 0.0), 1.0)  # radius 1.5 around the centre
    assert cells_covered(wide, tray, 4, 2, 8) == 8
    assert cells_covered(wide, tray, 4, 2, 5) == 5  # the back row's missing cells are empty
    rear = area_burst((-1.5, -1.3), 0.0)  # touches the rear-left cell only
    assert cells_covered(rear, tray, 4, 2, 8) == 1 and cells_covered(rear, tray, 4, 2, 4) == 0
    edge = Tray((0.0, 3.0), 0.0, 4.0, 2.0).polygon  # shares only the front edge
    assert cells_covered(edge, tray, 4, 2, 8) == 0


@pytest.mark.rule("W4-AREA-07")
def test_a_company_moving_through_a_lasting_area_counts_the_most_it_ever_covered() -> None:
    zone = area_burst((0.0, 10.0), 1.0)  # radius 1.5
    start = Tray((0.0, 0.0), 0.0, 4.0, 2.0)
    end = Tray((0.0, 20.0), 0.0, 4.0, 2.0)
    path = sweep(start, end)
    assert path[0] == start and path[-1] == end
    assert cells_covered(zone, end, 4, 2, 8) == 0
    assert most_covered(zone, path, 4, 2, 8) == 8
    assert most_covered(zone, [start, end], 4, 2, 8) == 0
