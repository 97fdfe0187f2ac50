"""Round 5 of the fast paths, a second pass on the Python side: the map masks of the lines of fire
moved by each offset kept per map, the lines' map-free geometry kept across maps, and the Feat
check turning away units without the entry first."""

from __future__ import annotations

import pytest

from warhost.geometry.grid import fire_lines, footprint, line_squares
from warhost.rulesets.fantasy_battle import combat, feats, movement

from .helpers import make_state


def test_shifted_masks_match_the_shift_and_are_kept() -> None:
    state = make_state(10, 10, terrain={(4, 4): "blocking", (5, 6): "hindering"})
    t = movement.map_tables(state.grid)
    masks = combat._MapMasks(t)
    for offset in (-23, -1, 0, 1, 13, 40):
        moved = masks.shifted(offset)
        assert moved == (combat._shift(masks.block, offset), combat._shift(masks.hinder, offset))
        assert masks.shifted(offset) is moved


def test_layouts_follow_a_terrain_change() -> None:
    """The kept masks belong to one map's tables: blocking terrain put between two units later
    is seen by the next line of fire."""
    state = make_state(12, 12, units=[{"id": "a", "cls": "archer", "at": (1, 5)},
                                      {"id": "b", "side": "B", "at": (8, 5)}])
    a, b = state.units["a"], state.units["b"]
    assert combat.line_of_fire(state, a, b) == (True, False)
    state.grid.set_terrain((4, 5), "hindering", 0)
    assert combat.line_of_fire(state, a, b) == (True, True)
    state.grid.set_terrain((4, 5), "blocking", 0)
    assert combat.line_of_fire(state, a, b) == (False, False)
    assert combat.attack_options(state, a, allow_throw=False) == []


def test_can_use_feat_turns_away_missing_and_used_entries() -> None:
    state = make_state(units=[
        {"id": "c", "rank": "champion", "feats": ["throw", "protect"], "at": (1, 1)},
        {"id": "e", "rank": "elite", "feats": ["throw"], "at": (3, 3)},
    ])
    c, e = state.units["c"], state.units["e"]
    assert feats.can_use_feat(state, c, "throw")
    assert not feats.can_use_feat(state, c, "vault")
    assert not feats.can_use_feat(state, e, "throw")
    c.feats_used[0] = True
    assert not feats.can_use_feat(state, c, "throw")
    assert feats.can_use_feat(state, c, "protect")


@pytest.mark.parametrize(("dx", "dy", "s_size", "t_size"),
                         [(3, 0, 1, 1), (-4, 2, 1, 2), (5, -5, 2, 1), (0, 6, 2, 2), (1, 1, 1, 1)])
def test_line_geometry_is_the_lines_touched_squares_kept_across_maps(
    dx: int, dy: int, s_size: int, t_size: int
) -> None:
    """The map-free part of the lines of fire: per candidate line the squares a unit could stand
    on to touch it (the spaces' own squares left out), as offsets and as padded indices."""
    pw = 17
    shooter = footprint((0, 0), s_size)
    target = footprint((dx, dy), t_size)
    got = combat._line_geometry(dx, dy, s_size, t_size, pw)
    lines = fire_lines(shooter, target)
    assert len(got) == len(lines)
    for (offsets, moves), (p, q) in zip(got, lines):
        assert list(offsets) == line_squares(p, q, set(shooter) | set(target))
        assert moves == tuple(y * pw + x for x, y in offsets)
    assert combat._line_geometry(dx, dy, s_size, t_size, pw) is got


def test_layouts_built_again_from_the_kept_geometry_are_the_same() -> None:
    """A layout built again (as on a constructed battlefield, a new map every battle) from the
    kept line geometry equals the first one, and answers lines of fire the same."""
    units = [{"id": "a", "cls": "archer", "at": (1, 2)}, {"id": "b", "side": "B", "at": (9, 7)}]
    terrain = {(4, 4): "blocking", (6, 5): "hindering", (3, 3): "hindering"}
    state = make_state(12, 12, units=units, terrain=terrain)
    a, b = state.units["a"], state.units["b"]
    t = movement.map_tables(state.grid)
    first = combat._layout(t, False, 8, 5, 1, 1)
    answer = combat.line_of_fire(state, a, b)
    t.memo.clear()  # the map's layouts and masks gone; the line geometry is kept
    again = combat._layout(t, False, 8, 5, 1, 1)
    assert again is not first
    assert (again.gap, again.clear, again.lines) == (first.gap, first.clear, first.lines)
    assert combat.line_of_fire(state, a, b) == answer
