"""The narrative lines of `dnd5e-tactics` events: dice, modifiers and DCs shown in words."""

from __future__ import annotations

from typing import Any

import pytest

from warhost.rulesets.dnd5e_tactics.view import describe_event

rule = pytest.mark.rule


def line(**event: Any) -> str | None:
    return describe_event(event)


@rule("T5-MORALE-07")
def test_a_commander_alone_routs_without_a_check() -> None:
    """Was ``morale: None vs DC None -> rout``."""
    assert line(type="morale", unit="crossbows", roll=None, modifiers={}, total=None, dc=None,
                fails_by=None, result="rout", commander_only=True) == \
        "  crossbows has only its commander left: no morale check, it routs"


@rule("T5-MORALE-04", "T5-MORALE-09")
def test_morale_shows_the_die_and_each_modifier() -> None:
    assert line(type="morale", unit="goblins", roll=9, total=14, dc=18, fails_by=4,
                modifiers={"rank": 1, "stance": 2, "track": 2, "engaged": 0},
                result="rank") == \
        "  goblins morale: d20 9 +1 rank +2 stance +2 track = 14 vs DC 18: wavers (-1 rank)"


@rule("T5-ATTACK-06")
def test_unit_attack_shows_the_divisor_die() -> None:
    assert line(type="unit_attack", attacker="wolfriders", target="crossbows",
                attack="Shortbow", kind="ranged", why="attack", needed=16, row=16, d6=4,
                divisor=4, eligible=30, hits=8, per_hit=12, damage=96, cover=2, edge=-5) == \
        ("  wolfriders attacks crossbows with Shortbow: each needs 16 on the d20, "
         "disadvantage, target in cover; d6 4 -> 30 attackers / 4 = 8 hits x 12 = 96 damage")


def test_commander_attack_shows_both_d20s_with_an_edge() -> None:
    assert line(type="commander_attack", owner="crossbows", character="Sergeant Maud",
                target="goblins", attack="Heavy-Crossbow", roll=4, faces=[17, 4], total=8,
                ac=13, hit=False, critical=False, damage=0, duel=False,
                opportunity=False) == \
        ("  Sergeant Maud (crossbows) attacks goblins with Heavy-Crossbow: d20 17 and 4, "
         "keeps 4 +4 = 8 vs AC 13, misses")


def test_duels_in_words() -> None:
    """Were ``duel called: caller=lancers, target=goblins, ...`` dumps."""
    assert line(type="duel_called", caller="lancers", target="goblins",
                challenger="Sir Aldric", challenged="Boss Snik") == \
        "  Sir Aldric (lancers) calls out Boss Snik (goblins) to a duel"
    assert line(type="duel_declined", caller="lancers", target="goblins") == \
        "  goblins declines the duel with lancers"
    assert line(type="duel_end", body="a", opponent=None, why="rout") == \
        "  The duel of a ends: a unit routs"


@rule("T5-CASUALTY-04", "T5-CASUALTY-05")
def test_remainders_in_words() -> None:
    """Were ``remainder: unit=..., choice=...`` dumps."""
    assert line(type="remainder", unit="orcs", side="Rangers", choice="commander",
                remainder=10, damage=12) == \
        "  orcs' remainder of 10 damage: Rangers chooses 4d6 on its commander, 12 damage"
    assert line(type="remainder", unit="orcs", side="Rangers", choice="casualty",
                remainder=9, members=24) == \
        "  orcs' remainder of 9 damage: Rangers chooses one more casualty (24 left)"


def test_rolls_say_who_rolls_and_why() -> None:
    assert line(type="roll", expr="1d6", faces=[2], why="divisor", attacker="cutthroats",
                target="watch-archers", attack="Light-Crossbow") == \
        "cutthroats rolls 1d6 for the divisor of Light-Crossbow: 2"
    assert line(type="roll", expr="4d6", faces=[4, 2, 2, 6], total=14, why="remainder",
                unit="orcs") == "orcs rolls 4d6 for remainder damage to its commander: " \
                                "4 2 2 6 = 14"


def test_the_end_of_the_battle_is_the_generic_line() -> None:
    """The generic text names the winner; the ruleset leaves it alone."""
    assert line(type="battle_end", winner="A", scores={}, rounds=3, reason="x") is None
