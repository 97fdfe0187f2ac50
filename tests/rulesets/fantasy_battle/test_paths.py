"""Moves along a given path: ``move X Y via A B ...`` (catalog decisions 12 and 14)."""

from __future__ import annotations

import numpy as np
import pytest

from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.geometry.grid import DIRECTIONS8
from warhost.rulesets.fantasy_battle import movement, paths
from warhost.rulesets.fantasy_battle.state import FBState

from .helpers import events, make_state
from .probing import Probe, unit_turn

rule = pytest.mark.rule


def judged(state: FBState, uid: str, text: str, budget: int = 6, **how: bool) -> str:
    """The verdict on a given path, as text: ``cost N path [...]`` or the refusal."""
    found = paths.judge_path(state, state.units[uid], Order.parse(text), budget, **how)
    if isinstance(found, Refusal):
        return str(found)
    return f"cost {found.cost} path {list(found.path)}"


# --------------------------------------------------------------------------- followed


@rule("FB-MOVE-03")
@rule("FB-TERRAIN-04")
def test_a_given_path_is_followed_at_its_own_cost_and_the_event_says_so() -> None:
    """Through the hindering square the path costs 3; the engine's own path to (4,2) costs 2."""
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(9, 9))],
                       terrain={(3, 3): "hindering"})
    assert movement.destinations(state, state.units["a"], 6)[(4, 2)].cost == 2
    battle = unit_turn(state, "a", A=Probe(script={"move": ["move 4 2 via 3 3"]}))
    move = events(battle, "move")[0]
    assert (move["path"], move["cost"], move["given_path"]) == ([[3, 3], [4, 2]], 3, True)
    assert state.units["a"].anchor == (4, 2)
    decision = battle.decisions[-1]
    assert (decision["kind"], decision["order"]) == ("move", "move 4 2 via 3 3")


def test_a_plain_move_keeps_the_engines_cheapest_path() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(9, 9))],
                       terrain={(3, 3): "hindering"})
    battle = unit_turn(state, "a", A=Probe(script={"move": ["move 4 2"]}))
    move = events(battle, "move")[0]
    assert (move["cost"], "given_path" in move) == (2, False)


@rule("FB-AMB-39")
@rule("FB-FEAT-07")
def test_the_cost_of_a_given_path_is_what_mobility_has_spent() -> None:
    """Mobility: 6 in all; 3 spent on the given path leaves 3 after the attack (2 on the
    engine's path would leave 4)."""
    def left_after(order: str) -> int:
        state = make_state(
            units=[dict(id="c", rank="champion", feats=["mobility"], at=(2, 2)),
                   dict(id="e", side="B", at=(5, 2))],
            terrain={(3, 3): "hindering"})
        probe = Probe(script={"plan": ["mobility"], "move": [order], "attack": ["no-attack"]})
        unit_turn(state, "c", A=probe)
        moves = [d for d in probe.asked if d.kind == "move"]
        return int(moves[1].info["budget"])

    assert left_after("move 4 2 via 3 3") == 3
    assert left_after("move 4 2") == 4


@rule("FB-FEAT-10")
@rule("FB-AMB-41")
def test_a_given_path_may_vault_one_occupied_square_and_spends_the_feat() -> None:
    state = make_state(units=[dict(id="c", rank="champion", feats=["vault"], at=(2, 2)),
                              dict(id="f", at=(3, 2)), dict(id="e", side="B", at=(9, 9))])
    battle = unit_turn(state, "c", A=Probe(script={"move": ["move 4 2 via 3 2"]}))
    assert [(e["unit"], e["feat"]) for e in events(battle, "feat")] == [("c", "vault")]
    assert events(battle, "move")[0]["vaulted"] == [3, 2]


@rule("FB-TERRAIN-05")
def test_a_large_unit_follows_its_anchor_and_pays_2_when_any_square_is_hindering() -> None:
    state = make_state(units=[dict(id="k", cls="knight", at=(2, 2)),
                              dict(id="e", side="B", at=(9, 9))],
                       terrain={(5, 3): "hindering"})
    assert judged(state, "k", "move 4 2 via 3 2", 8) == "cost 3 path [(3, 2), (4, 2)]"


def test_the_end_may_be_repeated_after_via() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))])
    assert judged(state, "a", "move 4 2 via 3 3 4 2") == judged(state, "a", "move 4 2 via 3 3")


# --------------------------------------------------------------------------- refused


@rule("FB-MOVE-03")
def test_each_listed_square_is_one_step_from_the_last() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))])
    assert judged(state, "a", "move 5 5 via 3 3 5 4") == (
        "step 2 to (5,4): (5,4) is not next to (3,3): a move goes one square at a time "
        "(FB-MOVE-03)")


@rule("FB-MOVE-04")
def test_a_path_through_another_unit_is_refused() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(3, 2))])
    assert judged(state, "a", "move 4 2 via 3 2") == (
        "step 1 to (3,2): (3,2) is held by b (FB-MOVE-04)")


@rule("FB-MOVE-05")
@rule("FB-TERRAIN-14")
def test_a_path_through_blocking_terrain_or_deep_water_is_refused() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))],
                       terrain={(3, 3): "blocking", (3, 2): "deep_water"})
    assert judged(state, "a", "move 4 4 via 3 3") == (
        "step 1 to (3,3): (3,3) is blocking terrain (FB-MOVE-05)")
    assert judged(state, "a", "move 4 2 via 3 2") == (
        "step 1 to (3,2): (3,2) is deep water or a pit (FB-MOVE-05)")


@rule("FB-AMB-20")
def test_a_path_off_the_map_is_refused() -> None:
    state = make_state(units=[dict(id="a", at=(0, 0))])
    assert judged(state, "a", "move 0 1 via -1 0") == (
        "step 1 to (-1,0): (-1,0) is off the 12x12 map (FB-AMB-20)")


@rule("FB-AMB-17")
def test_a_diagonal_step_between_two_walls_is_refused() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))],
                       terrain={(3, 2): "blocking", (2, 3): "blocking"})
    assert judged(state, "a", "move 4 4 via 3 3") == (
        "step 1 to (3,3): the diagonal step squeezes between (3,2) and (2,3), both impassable "
        "(FB-AMB-17)")


@rule("FB-AMB-46")
def test_a_path_over_a_cliff_edge_is_refused() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))], levels={(3, 2): 1},
                       terrain={(3, 2): "elevated"})
    assert judged(state, "a", "move 4 2 via 3 2") == (
        "step 1 to (3,2): the step from (2,2) crosses a cliff edge between ground and elevated "
        "terrain (FB-AMB-46)")


@rule("FB-PIKE-05")
@rule("FB-AMB-24")
def test_a_path_that_goes_on_after_entering_a_front_arc_is_refused() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)),
                              dict(id="p", side="B", cls="pike", at=(5, 5), facing="south")])
    assert judged(state, "a", "move 5 3 via 3 3 4 4") == (
        "step 3 to (5,3): the movement stopped at (4,4), in the front arc of p (FB-PIKE-05)")
    assert judged(state, "a", "move 4 4 via 3 3") == "cost 2 path [(3, 3), (4, 4)]"


@rule("FB-MOVE-01")
def test_a_path_longer_than_the_allowance_is_refused_at_the_step_that_overspends() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))])
    assert judged(state, "a", "move 9 2 via 3 2 4 2 5 2 6 2 7 2 8 2") == (
        "step 7 to (9,2): 7 squares, an Infantry unit moves at most 6 (FB-MOVE-01)")


@rule("FB-MOVE-06")
@rule("FB-MOVE-01")
def test_the_refusal_names_the_doubled_cost_of_leaving_an_enemy() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(2, 3))])
    assert judged(state, "a", "move 7 2 via 3 2 4 2 5 2 6 2") == (
        "step 5 to (7,2): 5 squares costing 7 (leaving a square next to an enemy costs "
        "double, FB-MOVE-06), an Infantry unit moves at most 6 (FB-MOVE-01)")


@rule("FB-MOVE-07")
@rule("FB-TERRAIN-04")
def test_double_time_and_hindering_terrain_in_the_refusal() -> None:
    state = make_state(units=[dict(id="a", at=(0, 2))],
                       terrain={(x, 2): "hindering" for x in range(1, 8)})
    text = "move 7 2 via " + " ".join(f"{x} 2" for x in range(1, 7))
    assert judged(state, "a", text, 12, double=True) == (
        "step 7 to (7,2): 7 squares costing 14 (hindering terrain costs 2 a square, "
        "FB-TERRAIN-04), an Infantry unit moves at most 12 when Double-timing (FB-MOVE-07)")


@rule("FB-TERRAIN-10")
def test_a_path_may_not_end_on_slope() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))], terrain={(3, 2): "slope"})
    assert judged(state, "a", "move 3 2 via 3 2") == (
        "step 1 to (3,2): (3,2) is slope: no move may end on slope (FB-TERRAIN-10)")


def test_a_path_back_to_its_start_is_refused() -> None:
    """Ruling: staying put is the move to the unit's own square, not a round trip."""
    state = make_state(units=[dict(id="a", at=(2, 2))])
    assert judged(state, "a", "move 2 2 via 3 2") == (
        "step 2 to (2,2): the path ends where it started (to stay put, move to the unit's own "
        "square)")


@rule("FB-AMB-41")
def test_vault_crosses_one_square_and_may_not_end_on_it() -> None:
    state = make_state(units=[dict(id="c", rank="champion", feats=["vault"], at=(2, 2)),
                              dict(id="f", at=(3, 2)), dict(id="g", at=(4, 2))])
    assert judged(state, "c", "move 5 2 via 3 2 4 2", vault=True) == (
        "step 2 to (4,2): c has already vaulted (3,2): Vault crosses one square only "
        "(FB-AMB-41)")
    assert judged(state, "c", "move 3 2 via 3 2", vault=True) == (
        "step 1 to (3,2): a move may not end on the square it vaults, (3,2) (FB-AMB-41)")
    assert judged(state, "c", "move 4 3 via 3 2", vault=False) == (
        "step 1 to (3,2): (3,2) is held by f (FB-MOVE-04)")


@rule("FB-PIKE-08")
@rule("FB-PIKE-09")
@rule("FB-PIKE-10")
def test_a_given_charge_path_must_be_straight_long_enough_and_over_clear_terrain() -> None:
    state = make_state(units=[dict(id="p", cls="pike", at=(2, 2))],
                       terrain={(2, 4): "hindering"})
    assert judged(state, "p", "move 5 4 via 3 3 4 4", charge=True) == (
        "step 3 to (5,4): the charge turns at (4,4): a charge runs in one straight line "
        "(FB-PIKE-09)")
    assert judged(state, "p", "move 2 5 via 2 3 2 4", charge=True) == (
        "step 2 to (2,4): (2,4) is hindering terrain: a charge passes over clear terrain only "
        "(FB-PIKE-10)")
    assert judged(state, "p", "move 3 3 via 3 3", charge=True) == (
        "step 1 to (3,3): a charge covers at least 2 squares (FB-PIKE-08)")
    assert judged(state, "p", "move 4 4 via 3 3", charge=True) == "cost 2 path [(3, 3), (4, 4)]"


def test_malformed_paths_say_how_to_write_one() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))])
    form = "(move x y, or move x y via x1 y1 x2 y2 ... to give the path)"
    assert judged(state, "a", "move 4 2 via 3") == (
        f"`via` needs the squares of the path as pairs of numbers {form}")
    assert judged(state, "a", "move 4 2 by 3 3") == (
        f"after x and y a move takes only `via` and the squares of its path {form}")
    assert judged(state, "a", "move four 2 via 3 3") == f"move needs two numbers, x and y {form}"


@rule("FB-MOVE-04")
def test_a_refused_path_stops_a_scripted_side_and_changes_nothing() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(3, 2))])
    probe = Probe(tries={"move": ["move 4 2 via 3 2"]})
    unit_turn(state, "a", A=probe)
    assert probe.said("move 4 2 via 3 2") == "step 1 to (3,2): (3,2) is held by b (FB-MOVE-04)"
    assert state.units["a"].anchor == (2, 2)  # the probe then stayed put (the default)


# --------------------------------------------------------------------------- agreement


def _random_state(rng: np.random.Generator) -> FBState:
    terrain = {}
    levels = {}
    for _ in range(int(rng.integers(4, 14))):
        sq = (int(rng.integers(0, 10)), int(rng.integers(0, 10)))
        kind = str(rng.choice(["blocking", "hindering", "deep_water", "slope", "elevated",
                               "shallow_water", "concealing", "cliff"]))
        terrain[sq] = kind
        if kind == "elevated":
            levels[sq] = 1
    mover = str(rng.choice(["warrior", "pike", "knight", "lancer", "warrior"]))
    units = [dict(id="m", cls=mover, rank="champion", feats=["vault"], at=(4, 4))]
    for n in range(int(rng.integers(1, 5))):
        cls = str(rng.choice(["warrior", "pike", "archer"]))
        facing = str(rng.choice(["north", "south", "east", "west"]))
        units.append(dict(id=f"u{n}", side=str(rng.choice(["A", "B"])), cls=cls,
                          facing=facing, at=(int(rng.integers(0, 10)), int(rng.integers(0, 10)))))
    for sq in [(4, 4), (5, 4), (4, 5), (5, 5)]:
        terrain.pop(sq, None)
    state = make_state(10, 10, terrain=terrain, levels=levels)
    from .helpers import add_unit

    for spec in units:
        taken = any(sq in state.occupied for sq in [spec["at"], (spec["at"][0] + 1, spec["at"][1]),
                                                     (spec["at"][0], spec["at"][1] + 1),
                                                     (spec["at"][0] + 1, spec["at"][1] + 1)])
        if not taken:
            add_unit(state, **spec)
    return state


@pytest.mark.parametrize("seed", range(40))
def test_walking_a_searched_path_gives_its_cost_and_a_legal_walk_ends_where_the_search_does(
    seed: int,
) -> None:
    """The path walker and the movement searches apply the same rules: every cheapest path
    (plain, Vault and charge) walks at its own cost, and every random walk the walker takes
    ends on an end the search lists, at no less than the search's cost."""
    rng = np.random.default_rng(seed)
    state = _random_state(rng)
    unit = state.units["m"]
    for vault in (False, True):
        ends = movement.destinations(state, unit, 8, vault=vault)
        for dest, plan in ends.items():
            if plan.path:
                walk = paths.walk_path(state, unit, plan.path, 8, vault=vault)
                assert walk.plan == plan, (dest, walk)
        for _ in range(60):
            here = unit.anchor
            assert here is not None
            path = []
            for _ in range(int(rng.integers(1, 7))):
                dx, dy = DIRECTIONS8[int(rng.integers(8))]
                here = (here[0] + dx, here[1] + dy)
                path.append(here)
            walk = paths.walk_path(state, unit, path, 8, vault=vault)
            if walk.plan is not None:
                assert walk.plan.dest in ends, path
                assert walk.plan.cost >= ends[walk.plan.dest].cost
    if unit.has_charge:
        for dest, plan in movement.charge_destinations(state, unit, 8).items():
            walk = paths.walk_path(state, unit, plan.path, 8, charge=True)
            assert walk.plan == plan, (dest, walk)
