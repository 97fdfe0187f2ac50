"""Round 5 of the fast paths, a second pass on the Python side: the map masks of the lines of fire
moved by each offset kept per map, and the Feat check turning away units without the entry first."""

from __future__ import annotations

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
