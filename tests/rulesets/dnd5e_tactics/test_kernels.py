"""The compiled rectangle kernels of dnd5e-tactics give the numbers the plain code gives.

Battles must not change when a kernel replaces NumPy or shapely: the gap kernels match the NumPy
reference bit for bit, the approach kernel lays out the same samples and corners as
``np.linspace`` and ``rect_coords``, the overlap classes never contradict shapely, and the
batched approach search finds the points a plain scan of shapely distances finds.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
import shapely

from warhost.rulesets.dnd5e_tactics import _kernels, spatial
from warhost.rulesets.dnd5e_tactics.turns import (
    EPS,
    _heading,
    approach_facing,
    approach_point,
    dims,
    rect_coords,
)

from .t_helpers import ctx_for, pair

Rings = npt.NDArray[np.float64]


def _random_rings(rng: np.random.Generator, count: int, spread: float = 12.0) -> Rings:
    """``count`` rectangles of one size at random places, square or skewed facings."""
    facings = [float(f) for f in rng.choice([0, 90, 180, 270, 45, 13, 301], count)]
    return rect_coords(rng.uniform(0, spread, (count, 2)), facings, float(rng.uniform(0.5, 4)),
                       float(rng.uniform(0.5, 3)))


def test_gap_kernels_match_the_numpy_reference_and_shapely() -> None:
    rng = np.random.default_rng(1)
    for _ in range(60):
        p = _random_rings(rng, int(rng.integers(1, 20)))
        q = _random_rings(rng, int(rng.integers(1, 20)))
        table = np.empty((len(p), len(q)))
        _kernels.rect_gap_table(p, q, table)
        assert np.array_equal(table, spatial._numpy_gaps(p, q))
        exact = shapely.distance(shapely.polygons(p)[:, None], shapely.polygons(q)[None, :])
        assert np.abs(table - exact).max() <= spatial.TOLERANCE
        pairs = np.empty(len(p))
        firsts = np.ascontiguousarray(np.broadcast_to(q[:1], p.shape))
        _kernels.pair_gap_table(p, firsts, pairs)
        assert np.array_equal(pairs, table[:, 0])


def test_approach_kernel_lays_out_linspace_samples_and_rect_coords_corners() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        sx, sy = (float(v) for v in rng.uniform(0, 100, 2))
        width, depth = float(rng.uniform(0.5, 8)), float(rng.uniform(0.5, 4))
        lines, theirs, samples_ts, samples_rings, owner = [], [], [], [], []
        for j in range(int(rng.integers(1, 5))):
            tx, ty = (float(v) for v in rng.uniform(0, 100, 2))
            length = math.hypot(tx - sx, ty - sy)
            ux, uy = (tx - sx) / length, (ty - sy) / length
            samples = max(16, min(96, int(length * 4)))
            facing = int(rng.integers(0, 360))
            fx, fy = _heading(facing)
            lines.append((ux, uy, length, float(samples), fx, fy))
            ts = np.linspace(0.0, length, samples)
            samples_ts.append(ts)
            centres = np.stack([sx + ux * ts, sy + uy * ts], axis=1)
            samples_rings.append(rect_coords(centres, [facing] * samples, width, depth))
            theirs.append(rect_coords(np.array([[tx, ty]]), [float(rng.integers(0, 360))],
                                      3.0, 1.0)[0])
            owner += [j] * samples
        total = len(owner)
        ts_out, rings_out, gaps_out = np.empty(total), np.empty((total, 4, 2)), np.empty(total)
        targets = np.array(theirs)
        _kernels.approach_table(sx, sy, np.array(lines), targets, width / 2.0, depth / 2.0,
                                ts_out, rings_out, gaps_out)
        rings = np.concatenate(samples_rings)
        assert np.array_equal(ts_out, np.concatenate(samples_ts))
        assert np.array_equal(rings_out, rings)
        assert np.array_equal(gaps_out, spatial.pair_gaps(rings, targets[owner]))


def test_overlap_classes_never_contradict_shapely() -> None:
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(80):
        p = _random_rings(rng, int(rng.integers(1, 20)))
        q = _random_rings(rng, int(rng.integers(1, 20)))
        # Exact copies and copies shifted by their own width touch along an edge.
        shift = p[:3] + (p[:3, 1:2] - p[:3, 0:1])
        q = np.concatenate([q, p[:3], shift])
        table = np.empty((len(p), len(q)), dtype=np.int8)
        _kernels.overlap_table(p, q, spatial.TOLERANCE, table)
        meet = shapely.relate_pattern(shapely.polygons(p)[:, None],
                                      shapely.polygons(q)[None, :], "T********")
        assert not np.any((table == 1) & ~meet)
        assert not np.any((table == 0) & meet)
        seen |= set(np.unique(table).tolist())
    assert seen == {0, 1, 2}


def _scanned_approach(body: object, target: object, facing: int, want: float
                      ) -> tuple[float, float] | None:
    """The approach point by a plain scan of shapely distances over every sample (what the
    search of ``approach_point`` stands for)."""
    start, aim = body.centre, target.centre  # type: ignore[attr-defined]
    length = math.hypot(aim[0] - start[0], aim[1] - start[1])
    ux, uy = (aim[0] - start[0]) / length, (aim[1] - start[1]) / length
    samples = max(16, min(96, int(length * 4)))
    ts = np.linspace(0.0, length, samples)
    centres = np.stack([start[0] + ux * ts, start[1] + uy * ts], axis=1)
    width, depth = dims(body)  # type: ignore[arg-type]
    shapes = shapely.polygons(rect_coords(centres, [facing] * samples, width, depth))
    gaps = [float(g) for g in shapely.distance(shapes, target.footprint)]  # type: ignore[attr-defined]
    if gaps[0] <= want + EPS:
        return None
    best = next((i - 1 for i in range(1, samples) if gaps[i] < want), samples - 1)
    t = float(ts[best])
    if best + 1 < samples and gaps[best] > gaps[best + 1]:
        g0, g1 = gaps[best], gaps[best + 1]
        t += (ts[best + 1] - ts[best]) * min(1.0, (g0 - want) / (g0 - g1)) * 0.98
    return start[0] + ux * t, start[1] + uy * t


@pytest.mark.parametrize("seed", range(4))
def test_approach_points_match_a_plain_scan(seed: int) -> None:
    rng = np.random.default_rng(seed)
    ctx = ctx_for(pair())
    a, b = ctx.state.bodies["a"], ctx.state.bodies["b"]
    for _ in range(25):
        a.centre = (float(rng.uniform(5, 43)), float(rng.uniform(3, 15)))
        a.facing = float(rng.choice([0, 30, 90, 200]))
        b.centre = (float(rng.uniform(5, 43)), float(rng.uniform(18, 33)))
        b.facing = float(rng.choice([180, 150, 270]))
        facing = approach_facing(a, b)
        for want in (0.1, 0.9, 4.0):
            assert approach_point(ctx.state, a, b, facing, want) == \
                _scanned_approach(a, b, facing, want)


def test_numpy_versions_give_what_the_kernels_give() -> None:
    """Without numba (``WARHOST_NO_NUMBA=1``) the NumPy versions stand in: same numbers."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        p = _random_rings(rng, int(rng.integers(1, 15)))
        q = _random_rings(rng, int(rng.integers(1, 15)))
        q = np.concatenate([q, p[:2]])
        for kernel, reference in ((_kernels.rect_gap_table, _kernels._np_rect_gap_table),
                                  (_kernels.overlap_table, _kernels._np_overlap_table)):
            dtype = np.int8 if kernel is _kernels.overlap_table else np.float64
            args = (p, q, spatial.TOLERANCE) if dtype is np.int8 else (p, q)
            one, two = np.empty((len(p), len(q)), dtype=dtype), np.empty((len(p), len(q)),
                                                                          dtype=dtype)
            kernel(*args, one)
            reference(*args, two)
            assert np.array_equal(one, two)
        sx, sy = (float(v) for v in rng.uniform(0, 50, 2))
        lines = np.array([(0.6, 0.8, 20.0, 80.0, *_heading(30)), (-1.0, 0.0, 3.0, 16.0,
                                                                 *_heading(90))])
        theirs = _random_rings(rng, 2)
        results = []
        for approach in (_kernels.approach_table, _kernels._np_approach_table):
            out = np.empty(96), np.empty((96, 4, 2)), np.empty(96)
            approach(sx, sy, lines, theirs, 1.25, 0.5, *out)
            results.append(out)
        for one_out, two_out in zip(*results):
            assert np.array_equal(one_out, two_out)
