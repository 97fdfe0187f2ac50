"""The narrative lines of `fantasy-battle` events: the dice and the reasons shown in words."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.fantasy_battle.view import NARRATION, describe_event

rule = pytest.mark.rule


def line(**event: Any) -> str | None:
    return describe_event(event)


@rule("FB-COMBAT-01", "FB-COMBAT-02")
def test_attack_result_shows_every_die_the_best_and_the_modifier() -> None:
    assert line(type="attack_result", attacker="g1", target="e1", kind="melee",
                attack_dice=[4, 1, 3], defense_dice=[2], attack_total=3, defense_total=2,
                success=True) == \
        "  attack roll 4 1 3 (best 4) -1 = 3 against defense roll 2: g1 hits"


@rule("FB-COMBAT-03")
def test_a_tie_is_said_to_fail() -> None:
    assert line(type="attack_result", attacker="g1", target="e1", kind="ranged",
                attack_dice=[5], defense_dice=[6, 2], attack_total=4, defense_total=4,
                success=False) == \
        "  attack roll 5 -1 = 4 against defense roll 6 2 (best 6) -2 = 4: g1 fails (a tie fails)"


def test_setup_and_terrain_events() -> None:
    assert line(type="terrain_setup", first="Evil", pieces={"Good": 3, "Evil": 2}) == \
        "Terrain: Evil places the first piece (pieces: Good 3, Evil 2)"
    assert line(type="terrain_discarded", side="Good", piece=1, terrain="deep_water",
                reason="fits nowhere") == \
        "Good's terrain piece 2 (deep water) is left out: it fits nowhere"
    assert line(type="deployed", unit="g-pike", side="Good", at=[7, 1], facing=[0, 1]) == \
        "g-pike (Good) deploys at (7, 1), facing north"
    assert line(type="feats_rolled", unit="g-hero", feats=["burst_of_speed", "vault"]) == \
        "g-hero rolls its Heroic Feats: Burst of Speed, Vault"


def test_rounds_and_plans() -> None:
    assert line(type="round_start", round=2, turns=7, activations={"Good": 7, "Evil": 5}) == \
        "=== Round 2: 7 turns each (activations: Good 7, Evil 5) ==="
    assert line(type="round_end", round=2, scores={"Good": 2, "Evil": 5}) == \
        "--- end of round 2; scores: Good 2, Evil 5"
    assert line(type="plan", unit="g1", plan="attack-move") == "  g1 attacks, then moves"
    assert line(type="plan", unit="g1", plan="charge e2") == "  g1 charges e2"


def test_moves_defeats_and_scores() -> None:
    assert line(type="move", unit="g1", **{"from": [4, 0]}, to=[4, 2], path=[[4, 2]], cost=1,
                vaulted=[4, 1]) == "  g1 moves (4, 0) -> (4, 2) (1 square of movement, " \
                                   "vaulting (4, 1))"
    assert line(type="defeated", unit="e2", side="Evil", points=1, by="Good",
                pooled=True) == "  e2 is defeated: 1 point to Good; it goes to the " \
                                "reinforcement pool"
    assert line(type="score", side="Good", points=2, total=5, why="defeated e1") == \
        "  Good scores 2 points (defeated e1): 5 in all"


@rule("FB-CAV-05", "FB-CAV-06")
def test_dismounting() -> None:
    assert line(type="dismount_roll", unit="g-knight", face=4, result="dismount") == \
        "  g-knight rolls 4 on its dismount roll (4+ to survive): it is dismounted"
    assert line(type="dismounted", unit="g-knight", at=None, cls="warrior", facing=None) == \
        "  g-knight is dismounted, but there is no room for it on foot"


def test_every_type_is_registered_once() -> None:
    assert {"attack", "attack_result", "victory", "draw", "plan"} <= set(NARRATION)
    assert describe_event({"type": "roll"}) is None  # the core words dice rolls
