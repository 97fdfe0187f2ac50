"""Who may attack whom: reach by class, Pike arcs, lines of fire, range and Throw."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.fantasy_battle.combat import (
    AttackOption,
    attack_options,
    line_of_fire,
    modifiers,
    range_modifier,
    throw_clear,
)
from warhost.rulesets.fantasy_battle.state import FBState, Unit

from .helpers import make_state


def u(uid: str, at: tuple[int, int], side: str = "A", **kw: Any) -> dict[str, Any]:
    return {"id": uid, "at": at, "side": side, **kw}


def targets(state: FBState, uid: str, allow_throw: bool = False) -> list[tuple[str, str]]:
    return [(o.kind, o.target)
            for o in attack_options(state, state.units[uid], allow_throw=allow_throw)]


def unit(state: FBState, uid: str) -> Unit:
    return state.units[uid]


# --------------------------------------------------------------------------- reach by class


@pytest.mark.rule("FB-INF-01", "FB-RANK-03", "FB-AMB-26")
@pytest.mark.parametrize("cls", ["warrior", "knight", "lancer"])
def test_melee_classes_attack_adjacent_enemies_only(cls: str) -> None:
    """Warriors, Knights and Lancers reach adjacent enemies (orthogonal or diagonal) only."""
    s = make_state(units=[
        u("me", (3, 3), cls=cls),
        u("n", (3, 5), "B"), u("d", (5, 5), "B"), u("far", (8, 3), "B"),
    ])
    # a 2x2 Knight/Lancer at (3,3) covers (3..4, 3..4): n at (3,5) and d at (5,5) touch it
    if cls == "warrior":
        s.place(unit(s, "n"), (3, 4))
        s.place(unit(s, "d"), (4, 4))
    assert targets(s, "me") == [("melee", "n"), ("melee", "d")]


@pytest.mark.rule("FB-INF-01", "FB-TERRAIN-07")
def test_no_melee_across_levels() -> None:
    """A Warrior beside an enemy standing on elevated terrain is not adjacent to it."""
    s = make_state(units=[u("w", (3, 3)), u("e", (4, 3), "B")],
                   terrain={(4, 3): "elevated"})
    assert targets(s, "w") == []


@pytest.mark.rule("FB-INF-02", "FB-RANK-03", "FB-CAV-11")
@pytest.mark.parametrize("cls", ["archer", "mounted_archer"])
def test_archers_attack_non_adjacent_enemies_only(cls: str) -> None:
    """Archers and Mounted Archers may not shoot adjacent enemies but may shoot distant ones."""
    s = make_state(units=[u("a", (3, 3), cls=cls), u("near", (5, 3), "B"),
                          u("far", (3, 9), "B")])
    if cls == "archer":
        s.place(unit(s, "near"), (4, 3))
    assert targets(s, "a") == [("ranged", "far")]


@pytest.mark.rule("FB-ARCHER-01", "FB-AMB-27")
def test_archer_may_shoot_while_an_enemy_is_adjacent_to_itself() -> None:
    s = make_state(units=[u("a", (3, 3), cls="archer"), u("adj", (4, 4), "B"),
                          u("far", (3, 9), "B")])
    assert targets(s, "a") == [("ranged", "far")]


@pytest.mark.rule("FB-ROUND-08")
def test_each_option_names_one_target_and_exclude_drops_targets() -> None:
    s = make_state(units=[u("w", (5, 5)), u("x", (6, 5), "B"), u("y", (4, 4), "B"),
                          u("f", (5, 6))])
    opts = attack_options(s, unit(s, "w"), allow_throw=False)
    assert opts == [AttackOption("melee", "x"), AttackOption("melee", "y")]
    assert attack_options(s, unit(s, "w"), allow_throw=False, exclude={"x"}) == [
        AttackOption("melee", "y")]


# --------------------------------------------------------------------------- Pikes


@pytest.mark.rule("FB-PIKE-01", "FB-PIKE-02", "FB-AMB-23")
def test_pike_attacks_only_into_its_front_arc() -> None:
    """A Pike at (5,5) facing north has the arc (4,6), (5,6), (6,6)."""
    s = make_state(units=[
        u("p", (5, 5), cls="pike", facing="north"),
        u("front_left", (4, 6), "B"), u("ahead", (5, 6), "B"), u("front_right", (6, 6), "B"),
        u("side", (4, 5), "B"), u("behind", (5, 4), "B"), u("rear_diag", (6, 4), "B"),
    ])
    assert targets(s, "p") == [("melee", "front_left"), ("melee", "ahead"),
                               ("melee", "front_right")]


@pytest.mark.rule("FB-PIKE-01", "FB-PIKE-02", "FB-AMB-23")
def test_pike_with_eight_facings_diagonal_arc() -> None:
    s = make_state(pike_facings=8, units=[
        u("p", (5, 5), cls="pike", facing="northeast"),
        u("e", (6, 5), "B"), u("ne", (6, 6), "B"), u("n", (5, 6), "B"), u("nw", (4, 6), "B"),
    ])
    assert targets(s, "p") == [("melee", "e"), ("melee", "ne"), ("melee", "n")]


@pytest.mark.rule("FB-PIKE-02", "FB-AMB-03")
def test_pike_may_attack_a_large_target_with_any_square_in_its_arc() -> None:
    s = make_state(units=[u("p", (5, 5), cls="pike", facing="north"),
                          u("k", (6, 6), "B", cls="knight")])
    assert targets(s, "p") == [("melee", "k")]
    s2 = make_state(units=[u("p", (5, 5), cls="pike", facing="north"),
                           u("k", (6, 4), "B", cls="knight")])  # beside it, not in the arc
    assert targets(s2, "p") == []


# --------------------------------------------------------------------------- lines of fire


@pytest.mark.rule("FB-ARCHER-02", "FB-ARCHER-03", "FB-AMB-28")
def test_worked_example_of_amb_28() -> None:
    """Archer (2,2), target (7,2): a wall at (4,3) blocks one candidate line only; walls at
    (4,3) and (5,1) block both."""
    one = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                     terrain={(4, 3): "blocking"})
    assert line_of_fire(one, unit(one, "a"), unit(one, "t")) == (True, False)
    assert targets(one, "a") == [("ranged", "t")]
    both = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                      terrain={(4, 3): "blocking", (5, 1): "blocking"})
    assert line_of_fire(both, unit(both, "a"), unit(both, "t")) == (False, False)
    assert targets(both, "a") == []


@pytest.mark.rule("FB-ARCHER-03", "FB-AMB-28")
def test_blocking_terrain_touched_at_a_single_point_blocks() -> None:
    """The line (1,1)-(3,3) from an Archer at (0,0) to a target at (3,3) grazes the corner of
    (2,1) at the point (2,2)."""
    s = make_state(units=[u("a", (0, 0), cls="archer"), u("t", (3, 3), "B")],
                   terrain={(2, 1): "blocking"})
    assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == (False, False)
    assert targets(s, "a") == []


@pytest.mark.rule("FB-ARCHER-04", "FB-AMB-29")
@pytest.mark.parametrize("terrain,hindered", [
    ("hindering", True), ("slope", True), ("concealing", True),
    ("shallow_water", False), ("deep_water", False), ("clear", False),
])
def test_terrain_that_hinders_line_of_fire(terrain: str, hindered: bool) -> None:
    """Archer (2,2) to target (7,2): both candidate lines touch row 2, so (5,2) is on both."""
    s = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                   terrain={(5, 2): terrain})
    assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == (True, hindered)


@pytest.mark.rule("FB-ARCHER-04", "FB-AMB-28", "FB-AMB-29")
def test_archer_uses_the_most_favourable_unblocked_line() -> None:
    """Hindering terrain on one line only: the clean line is used. A wall on the clean line
    leaves only the hindered one."""
    s = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                   terrain={(5, 3): "hindering"})
    assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == (True, False)
    s2 = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                    terrain={(5, 3): "hindering", (4, 1): "blocking"})
    assert line_of_fire(s2, unit(s2, "a"), unit(s2, "t")) == (True, True)


@pytest.mark.rule("FB-ARCHER-04", "FB-AMB-29")
@pytest.mark.parametrize("side", ["A", "B"])
def test_any_other_unit_on_the_line_hinders(side: str) -> None:
    s = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B"),
                          u("x", (5, 2), side)])
    assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == (True, True)


@pytest.mark.rule("FB-ARCHER-04", "FB-AMB-29")
def test_target_square_gives_no_cover_unless_option() -> None:
    s = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                   terrain={(7, 2): "concealing"})
    assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == (True, False)
    s2 = make_state(los_target_square_counts=True,
                    units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")],
                    terrain={(7, 2): "concealing"})
    assert line_of_fire(s2, unit(s2, "a"), unit(s2, "t")) == (True, True)


@pytest.mark.rule("FB-AMB-46", "FB-AMB-28")
def test_elevation_blocks_los_option() -> None:
    """A hilltop between two ground-level units blocks only under ``elevation_blocks_los``;
    a shooter on the hill itself is never blocked by it."""
    hill = {(x, y): "elevated" for x in (4, 5) for y in range(6)}
    for flag, expected in ((False, (True, False)), (True, (False, False))):
        s = make_state(elevation_blocks_los=flag, terrain=hill,
                       units=[u("a", (2, 2), cls="archer"), u("t", (7, 2), "B")])
        assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == expected
    s = make_state(elevation_blocks_los=True, terrain=hill,
                   units=[u("a", (4, 2), cls="archer"), u("t", (9, 2), "B")])
    assert line_of_fire(s, unit(s, "a"), unit(s, "t")) == (True, False)


# --------------------------------------------------------------------------- ally adjacency


@pytest.mark.rule("FB-ARCHER-01", "FB-AMB-27")
def test_no_shooting_at_a_target_next_to_a_friend() -> None:
    units = [u("a", (2, 2), cls="archer"), u("t", (7, 7), "B"), u("f", (8, 8))]
    assert targets(make_state(units=units), "a") == []
    assert targets(make_state(units=units, archer_ally_adjacency="ignore"), "a") == [
        ("ranged", "t")]


@pytest.mark.rule("FB-AMB-27", "FB-TERRAIN-07")
def test_friend_on_another_level_is_not_adjacent_to_the_target() -> None:
    s = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 7), "B"), u("f", (8, 8))],
                   terrain={(8, 8): "elevated"})
    assert targets(s, "a") == [("ranged", "t")]


@pytest.mark.rule("FB-AMB-27")
def test_enemy_next_to_the_target_does_not_forbid() -> None:
    s = make_state(units=[u("a", (2, 2), cls="archer"), u("t", (7, 7), "B"),
                          u("t2", (8, 8), "B")])
    assert targets(s, "a") == [("ranged", "t"), ("ranged", "t2")]


# --------------------------------------------------------------------------- range


@pytest.mark.rule("FB-ARCHER-06")
@pytest.mark.parametrize("distance,mod", [
    (2, 0), (6, 0), (7, -1), (12, -1), (13, -2), (18, -2), (19, -3), (24, -3),
    (25, -4), (30, -4), (31, -5), (36, -5),
])
def test_range_table(distance: int, mod: int) -> None:
    assert range_modifier(distance) == mod


@pytest.mark.rule("FB-ARCHER-06", "FB-AMB-30")
def test_range_limit_36_and_max_range_option() -> None:
    units = [u("a", (0, 0), cls="archer"), u("t36", (36, 0), "B"), u("t37", (37, 5), "B")]
    s = make_state(width=40, height=40, units=units)
    assert targets(s, "a") == [("ranged", "t36")]
    _, _, notes = modifiers(s, unit(s, "a"), unit(s, "t36"), "ranged", False)
    assert "attack -5 range 36 [FB-ARCHER-06]" in notes
    s2 = make_state(width=40, height=40, units=units, max_range=10)
    assert targets(s2, "a") == []


@pytest.mark.rule("FB-AMB-30", "FB-ARCHER-06")
def test_distance_one_across_levels_may_be_shot_at_with_no_range_modifier() -> None:
    s = make_state(units=[u("a", (5, 5), cls="archer"), u("t", (6, 5), "B")],
                   terrain={(5, 5): "elevated"})
    assert targets(s, "a") == [("ranged", "t")]
    assert modifiers(s, unit(s, "a"), unit(s, "t"), "ranged", False)[0] == 0
    assert range_modifier(1) == 0


# --------------------------------------------------------------------------- Throw


def throw_state(**kw: Any) -> FBState:
    units = kw.pop("units", None) or [
        u("c", (2, 2), rank="champion", feats=["throw"]), u("t", (5, 2), "B")]
    return make_state(units=units, **kw)


@pytest.mark.rule("FB-FEAT-09", "FB-AMB-35")
def test_throw_reaches_distance_two_to_four_only_when_allowed() -> None:
    s = make_state(units=[u("c", (2, 2), rank="champion", feats=["throw"]),
                          u("d2", (4, 4), "B"), u("d4", (6, 2), "B"), u("d5", (7, 7), "B"),
                          u("d1", (1, 1), "B")])
    assert targets(s, "c") == [("melee", "d1")]
    assert targets(s, "c", allow_throw=True) == [("melee", "d1"), ("throw", "d2"),
                                                 ("throw", "d4")]


@pytest.mark.rule("FB-FEAT-09", "FB-AMB-35")
@pytest.mark.parametrize("side", ["A", "B"])
def test_throw_blocked_by_any_unit_in_between(side: str) -> None:
    s = throw_state()
    assert targets(s, "c", allow_throw=True) == [("throw", "t")]
    s = throw_state(units=[u("c", (2, 2), rank="champion", feats=["throw"]),
                           u("t", (5, 2), "B"), u("x", (4, 2), side)])
    assert not throw_clear(s, unit(s, "c"), unit(s, "t"))
    assert ("throw", "t") not in targets(s, "c", allow_throw=True)


@pytest.mark.rule("FB-FEAT-09", "FB-AMB-35")
def test_throw_needs_only_one_clear_candidate_line_and_is_stopped_by_walls() -> None:
    # the candidate lines run along y=2 and y=3; a unit at (3,3) touches only the upper one
    s = throw_state(units=[u("c", (2, 2), rank="champion", feats=["throw"]),
                           u("t", (5, 2), "B"), u("x", (3, 3), "A")])
    assert targets(s, "c", allow_throw=True) == [("throw", "t")]
    s = throw_state(terrain={(4, 2): "blocking"})
    assert ("throw", "t") not in targets(s, "c", allow_throw=True)
    s = throw_state(terrain={(4, 2): "hindering"})  # no line-of-fire penalty or limit
    assert targets(s, "c", allow_throw=True) == [("throw", "t")]
    _, _, notes = modifiers(s, unit(s, "c"), unit(s, "t"), "throw", False)
    assert notes == []


@pytest.mark.rule("FB-AMB-35")
def test_throw_ignores_the_archer_ally_limit() -> None:
    s = throw_state(units=[u("c", (2, 2), rank="champion", feats=["throw"]),
                           u("t", (5, 2), "B"), u("f", (6, 3), "A")])
    assert targets(s, "c", allow_throw=True) == [("throw", "t")]


@pytest.mark.rule("FB-AMB-35", "FB-FEAT-09")
@pytest.mark.parametrize("rank,cls,ok", [
    ("champion", "warrior", True), ("champion", "knight", True), ("elite", "warrior", False),
    ("champion", "archer", False), ("champion", "mounted_archer", False),
])
def test_who_may_throw(rank: str, cls: str, ok: bool) -> None:
    s = make_state(units=[u("c", (2, 2), rank=rank, cls=cls), u("t", (2, 6), "B")])
    got = [k for k, _ in targets(s, "c", allow_throw=True) if k == "throw"]
    assert got == (["throw"] if ok else [])


@pytest.mark.rule("FB-AMB-35", "FB-PIKE-02")
def test_pike_throw_needs_the_option() -> None:
    units = [u("c", (2, 2), rank="champion", cls="pike", facing="east"), u("t", (5, 2), "B")]
    assert targets(make_state(units=units), "c", allow_throw=True) == []
    assert targets(make_state(units=units, pike_throw_ignores_facing=True), "c",
                   allow_throw=True) == [("throw", "t")]
