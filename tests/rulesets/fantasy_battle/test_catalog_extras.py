"""Rules that sit between modules: blocking terrain and ranged attacks, and the seed's
non-rule text."""

from __future__ import annotations

import pytest

from warhost.rulesets.fantasy_battle import combat, movement
from warhost.rulesets.fantasy_battle.setup import FEAT_TABLE
from warhost.rulesets.fantasy_battle.terrain import TERRAIN

from .helpers import make_state

rule = pytest.mark.rule


@rule("FB-TERRAIN-03")
def test_no_ranged_attack_through_blocking_terrain() -> None:
    """A wall square on every candidate line removes the target; Deep water does not."""
    walls = {(4, 1): "blocking", (4, 2): "blocking", (4, 3): "blocking"}
    units = [dict(id="arch", side="A", cls="archer", at=(2, 2)),
             dict(id="foe", side="B", at=(7, 2))]
    walled = make_state(units=units, terrain=walls)
    assert combat.attack_options(walled, walled.units["arch"], allow_throw=False) == []
    water = make_state(units=units, terrain={sq: "deep_water" for sq in walls})
    assert [o.target for o in combat.attack_options(water, water.units["arch"],
                                                    allow_throw=False)] == ["foe"]


@rule("FB-AMB-53")
def test_blog_leftovers_add_no_rules_and_the_typo_reads_as_moves_into() -> None:
    """Only the seed's nine terrain types and six Feats exist, and "moves into to" a Pike's
    front arc is read as moving into it: the mover stops on the first arc square."""
    assert set(TERRAIN) == {"clear", "blocking", "hindering", "elevated", "slope", "cliff",
                            "concealing", "shallow_water", "deep_water"}
    assert FEAT_TABLE == ("burst_of_speed", "frenzy", "mobility", "protect", "throw", "vault")
    state = make_state(units=[dict(id="pike", side="B", cls="pike", facing="south", at=(5, 6)),
                              dict(id="w", side="A", at=(5, 1))])
    plans = movement.destinations(state, state.units["w"], 6)
    assert (5, 5) in plans and (5, 4) in plans
    assert not any(len(p.path) > 0 and p.path[-1] == (5, 5) and p.dest != (5, 5)
                   for p in plans.values())
    assert all((5, 5) not in p.path[:-1] for p in plans.values())
