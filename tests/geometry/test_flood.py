"""The compiled movement flood gives exactly what the Python flood gives: the same costs, the
same parents and the same order of first reaching (so the same paths and the same lists)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warhost.geometry import _flood_kernel
from warhost.geometry.grid import _flood_levels_py, flood_levels, path_back


@settings(max_examples=150)
@given(
    width=st.integers(3, 14),
    height=st.integers(3, 14),
    data=st.data(),
    budget=st.integers(0, 9),
    max_step=st.integers(0, 2),
    diagonal=st.integers(1, 2),
)
def test_compiled_flood_matches_the_python_flood(width: int, height: int, data: st.DataObject,
                                                 budget: int, max_step: int,
                                                 diagonal: int) -> None:
    area = width * height
    levels = data.draw(st.lists(st.integers(-1, 3), min_size=area, max_size=area))
    owners = data.draw(st.lists(st.integers(-1, 2), min_size=area, max_size=area))
    start = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    levels[start[1] * width + start[0]] = max(0, levels[start[1] * width + start[0]])
    want = _flood_levels_py(levels, width, start, budget, max_step, diagonal, owners, 1)
    got = flood_levels(np.array(levels, np.int64), width, start, budget, max_step, diagonal,
                       np.array(owners, np.int64), 1)
    assert list(got[0].items()) == list(want[0].items())
    assert got[1] == want[1]
    for end in want[0]:
        assert path_back(got[1], start, end) == path_back(want[1], start, end)


def test_lists_take_the_python_flood_and_arrays_the_compiled_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    compiled = _flood_kernel.flood

    def counted(*args: Any) -> Any:
        calls.append(1)
        return compiled(*args)

    monkeypatch.setattr(_flood_kernel, "flood", counted)
    by_list = flood_levels([0] * 25, 5, (2, 2), 2, 1, 1)
    assert calls == []
    by_array = flood_levels(np.zeros(25, np.int64), 5, (2, 2), 2, 1, 1)
    assert calls == ([1] if _flood_kernel.AVAILABLE else [])
    assert by_list == by_array and len(by_list[0]) == 25
