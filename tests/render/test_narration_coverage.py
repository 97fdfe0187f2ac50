"""Narration without gaps: every event type a ruleset (or the core) emits gets a sentence.

The event types are found statically: every ``emit("type", ...)`` call in the ruleset's package
and in ``warhost.core``. Each type needs a hand-made sample below (so that its wording is
exercised even when no example battle happens to produce it), and every event of real battles
of every example, under several commander kinds and seeds, is worded too. A sentence must not
be empty nor show ``None``, ``True``/``False``, ``key=value`` dumps or braces.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from tests.rulesets.dnd4e_war.narration_samples import DND4E_WAR_SAMPLES
from tests.rulesets.dnd35_wars.narration_samples import DND35_WARS_SAMPLES
from tests.rulesets.warband.narration_samples import WARBAND_SAMPLES
from warhost.core.engine import run_battle
from warhost.core.registry import all_rulesets, get_ruleset
from warhost.core.ruleset import Ruleset
from warhost.core.scenario import load_scenario
from warhost.render.narrative import CORE_EVENTS, Narrator, generic_line

CORE = Path(__file__).resolve().parents[2] / "src" / "warhost" / "core"
BAD = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[{}]|\b\w+=\S")


def emitted_types(package: Path) -> set[str]:
    """The event types of every ``emit(...)`` call under ``package``.

    The first argument must be a string (or ``a if cond else b`` of strings); calls inside a
    function called ``emit`` only forward their argument and are skipped. Anything else fails,
    so that no event type can hide from this test.
    """
    found: set[str] = set()
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        forwarders = {id(node) for fn in ast.walk(tree)
                      if isinstance(fn, ast.FunctionDef) and fn.name == "emit"
                      for node in ast.walk(fn)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "emit" and node.args) or id(node) in forwarders:
                continue
            first = node.args[0]
            branches = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            for branch in branches:
                assert isinstance(branch, ast.Constant) and isinstance(branch.value, str), (
                    f"{path.name}:{node.lineno}: an event type that is not a plain string")
                found.add(branch.value)
    return found


def sentence(ruleset: Ruleset, event: dict[str, Any]) -> str:
    """The line for ``event``: the ruleset's own wording for its events (it must have one),
    the generic text for the core's."""
    text = ruleset.describe_event(dict(event))
    if text is None:
        assert event["type"] in CORE_EVENTS, f"{event['type']}: no sentence"
        text = generic_line(event)
    return text


def check(text: str, event: dict[str, Any]) -> None:
    assert text.strip(), f"empty sentence for {event}"
    assert not BAD.search(text), f"{text!r} (from {event})"


# --------------------------------------------------------------------------- samples

_CORE_SAMPLES: list[dict[str, Any]] = [
    {"type": "battle_start", "ruleset": "x@1", "scenario": "Test", "seed": 4,
     "sides": {"A": "ai", "B": "random"}},
    {"type": "battle_end", "winner": None, "scores": {"A": 3, "B": 3}, "rounds": 7,
     "reason": "round limit"},
    {"type": "decision", "side": "A", "kind": "move", "order": "move 3 4"},
    {"type": "roll", "expr": "2d6", "faces": [3, 4], "total": 7, "why": "test"},
]

SAMPLES: dict[str, list[dict[str, Any]]] = {
    "fantasy-battle": _CORE_SAMPLES + [
        {"type": "terrain_setup", "first": "Evil", "pieces": {"Good": 3, "Evil": 2}},
        {"type": "terrain_placed", "side": "Evil", "piece": 0, "terrain": "hill", "at": [8, 13],
         "squares": [[8, 13, "elevated"], [9, 13, "slope"]]},
        {"type": "terrain_discarded", "side": "Good", "piece": 2, "terrain": "deep_water",
         "reason": "fits nowhere"},
        {"type": "first_player", "side": "Good"},
        {"type": "deployed", "unit": "g1", "side": "Good", "at": [0, 0], "facing": None},
        {"type": "deployed", "unit": "g2", "side": "Good", "at": [1, 0], "facing": [0, 1]},
        {"type": "feats_rolled", "unit": "g-hero", "feats": ["burst_of_speed", "protect"]},
        {"type": "round_start", "round": 2, "turns": 7, "activations": {"Good": 7, "Evil": 5}},
        {"type": "round_end", "round": 2, "scores": {"Good": 2, "Evil": 5}},
        {"type": "activate", "side": "Good", "group": "g-spears", "round": 1},
        {"type": "pass", "side": "Evil", "round": 1},
        {"type": "plan", "unit": "g1", "plan": "move-attack"},
        {"type": "plan", "unit": "g1", "plan": "charge e1"},
        {"type": "plan", "unit": "g1", "plan": "charge-mobility e1"},
        {"type": "plan", "unit": "g1", "plan": "hold"},
        {"type": "move", "unit": "g1", "from": [14, 0], "to": [6, 5], "path": [[6, 5]],
         "cost": 8, "vaulted": None},
        {"type": "move", "unit": "g1", "from": [4, 0], "to": [4, 2], "path": [[4, 2]],
         "cost": 1, "vaulted": [4, 1]},
        {"type": "forced_move", "unit": "g1", "from": [16, 9], "to": [15, 10],
         "reason": "slope"},
        {"type": "charge", "unit": "e1", "target": "g1"},
        {"type": "facing", "unit": "g-pike", "facing": "northwest"},
        {"type": "feat", "unit": "g-hero", "feat": "burst_of_speed"},
        {"type": "ability_declined", "unit": "g1", "side": "Good", "roll": "defense",
         "abilities": ["skirmishers of g1"]},
        {"type": "attack", "attacker": "g1", "target": "e1", "kind": "ranged", "charging": False,
         "second": False, "attack_mod": -1, "defense_mod": 0,
         "modifiers": ["attack -1 range 9 [FB-ARCHER-06]"]},
        {"type": "attack", "attacker": "g1", "target": "e1", "kind": "melee", "charging": True,
         "second": True, "attack_mod": 0, "defense_mod": 0, "modifiers": []},
        {"type": "attack_result", "attacker": "g1", "target": "e1", "kind": "melee",
         "attack_dice": [5, 6], "defense_dice": [1, 2], "attack_total": 5,
         "defense_total": 2, "success": True},
        {"type": "attack_result", "attacker": "g1", "target": "e1", "kind": "melee",
         "attack_dice": [3], "defense_dice": [3], "attack_total": 3, "defense_total": 3,
         "success": False},
        {"type": "fate", "unit": "g1", "side": "Good", "die_of": "e1", "index": 0, "old": 6,
         "new": 5, "purpose": "attack", "fate_left": 1},
        {"type": "protected", "unit": "g1", "by": "g-hero"},
        {"type": "wounded", "unit": "g-hero", "side": "Good"},
        {"type": "dismount_roll", "unit": "g-knight", "face": 2, "result": "defeat"},
        {"type": "dismounted", "unit": "g-knight", "at": [6, 5], "cls": "warrior",
         "facing": None},
        {"type": "dismounted", "unit": "g-lancer", "at": [6, 5], "cls": "pike",
         "facing": "north"},
        {"type": "dismounted", "unit": "g-knight", "at": None, "cls": "warrior",
         "facing": None},
        {"type": "defeated", "unit": "e1", "side": "Evil", "points": 2, "by": "Good",
         "pooled": False},
        {"type": "defeated", "unit": "e2", "side": "Evil", "points": 1, "by": "Good",
         "pooled": True},
        {"type": "score", "side": "Good", "points": 2, "total": 2, "why": "defeated e1"},
        {"type": "victory", "winner": "Evil", "reason": "Evil reached 20 points"},
        {"type": "draw", "winner": None, "reason": "round limit 15 reached; scores level"},
        {"type": "reinforced", "unit": "u1", "side": "Undead", "at": [15, 29]},
        {"type": "reformed", "unit": "e-wolf-2", "from_squad": "e-wolves",
         "to_squad": "e-lancers"},
    ],
    "dnd5e-tactics": _CORE_SAMPLES + [
        {"type": "initiative", "order": [{"id": "a", "side": "A", "initiative": 4},
                                         {"id": "b", "side": "B", "initiative": -1}]},
        {"type": "deploy", "id": "a", "side": "A", "kind": "unit", "at": [5.0, 20.0],
         "facing": 90.0, "members": 20, "stance": "close", "track": "aggressive", "rank": 0},
        {"type": "deploy", "id": "hero", "side": "A", "kind": "single", "at": [5.5, 2.0],
         "facing": 0.0},
        {"type": "round_start", "round": 1},
        {"type": "round_end", "round": 1},
        {"type": "stance", "unit": "a", "before": "open", "after": "close"},
        {"type": "tactics", "unit": "a", "choice": "advance", "track": "vicious"},
        {"type": "tactics", "unit": "a", "choice": "switch", "track": "supporting",
         "before": "aggressive"},
        {"type": "rank", "unit": "a", "before": 0, "after": 1, "change": 1,
         "why": "encouraged"},
        {"type": "turn", "body": "a", "side": "A", "round": 1},
        {"type": "mount", "body": "a", "action": "dash"},
        {"type": "move", "body": "a", "kind": "dash", "cost": 10.086, "facing": 270.0,
         "from": [55.0, 20.0], "to": [47.6, 18.2]},
        {"type": "engage", "body": "a", "enemy": "b"},
        {"type": "cover", "body": "a", "by": "unit"},
        {"type": "cover", "body": "hero", "by": "hero"},
        {"type": "dodge", "body": "a"},
        {"type": "unit_attack", "attacker": "a", "target": "b", "attack": "Shortbow",
         "kind": "ranged", "why": "attack", "needed": 16, "row": 16, "d6": 6, "divisor": 2,
         "eligible": 30, "hits": 15, "per_hit": 12, "damage": 180, "cover": 2, "edge": -5},
        {"type": "commander_attack", "owner": "a", "character": "Sir A", "target": "b",
         "attack": "Lance", "roll": 20, "faces": [20, 3], "total": 26, "ac": 15, "hit": True,
         "critical": True, "damage": 19, "duel": True, "opportunity": False},
        {"type": "commander_attack", "owner": "a", "character": "Sir A", "target": "b",
         "attack": "Lance", "roll": 4, "faces": [4], "total": 9, "ac": 15, "hit": False,
         "critical": False, "damage": 0, "duel": False, "opportunity": True},
        {"type": "character_damage", "owner": "b", "character": "Boss", "amount": 10, "hp": 11,
         "duel": False},
        {"type": "character_damage", "owner": "b", "character": "Boss", "amount": 4, "hp": 0,
         "duel": True, "failures": 2},
        {"type": "commander_dying", "unit": "b", "character": "Boss"},
        {"type": "death_save", "unit": "b", "character": "Boss", "roll": 1,
         "result": "failure", "successes": 0, "failures": 2},
        {"type": "commander_slain", "unit": "b", "name": "Boss", "by": None, "duel": False},
        {"type": "commander_slain", "unit": "b", "name": "Boss", "by": "a", "duel": True},
        {"type": "single_slain", "single": "hero", "name": "Hero", "by": None, "duel": False},
        {"type": "single_slain", "single": "hero", "name": "Hero", "by": "b", "duel": True},
        {"type": "destroyed", "unit": "b"},
        {"type": "area", "user": "a", "by_commander": True, "area": "Fireball", "target": "b",
         "covered": 4, "needed": 11, "d6": 6, "divisor": 1, "successes": 4, "failures": 0,
         "damage": 56},
        {"type": "area", "user": "a", "by_commander": False, "area": "Breath", "target": "b",
         "covered": 12, "needed": 1, "d6": None, "divisor": 1, "successes": 12,
         "failures": 0, "damage": 36},
        {"type": "area", "user": "a", "by_commander": True, "area": "Fireball",
         "target": "hero", "covered": 1, "needed": 13, "d6": None, "roll": 9,
         "successes": 0, "failures": 1, "damage": 28, "duel": False},
        {"type": "area", "user": "a", "by_commander": True, "area": "Fireball",
         "target": "hero", "covered": 0, "needed": 13, "d6": None, "roll": None,
         "successes": 0, "failures": 0, "damage": 0, "duel": False},
        {"type": "heal", "healer": "a", "heal": "Cure Wounds", "target": "a", "rolled": 9,
         "amount": 9, "tdr": 3},
        {"type": "heal", "healer": "a", "heal": "Cure Wounds", "target": "a", "rolled": 9,
         "amount": 5, "hp": 30, "commander": True},
        {"type": "duel_called", "caller": "a", "target": "b", "challenger": "Sir A",
         "challenged": "Boss"},
        {"type": "duel_declined", "caller": "a", "target": "b"},
        {"type": "duel_start", "a": "a", "b": "b"},
        {"type": "duel_end", "body": "a", "opponent": "b", "why": "separated"},
        {"type": "duel_end", "body": "a", "opponent": None, "why": "rout"},
        {"type": "encourage", "unit": "a", "skill": "persuasion", "roll": 17, "modifier": 2,
         "total": 19, "dc": 15, "success": True, "action": "bonus"},
        {"type": "casualties", "unit": "b", "tdr": 260, "killed": 23, "remainder": 7,
         "members": 1, "why": "end_of_round"},
        {"type": "remainder", "unit": "b", "side": "A", "choice": "commander",
         "remainder": 4, "damage": 10},
        {"type": "remainder", "unit": "b", "side": "A", "choice": "casualty", "remainder": 7,
         "members": 0},
        {"type": "remainder", "unit": "b", "side": "A", "choice": "none", "remainder": 7},
        {"type": "morale", "unit": "b", "roll": None, "modifiers": {}, "total": None,
         "dc": None, "fails_by": None, "result": "rout", "commander_only": True},
        {"type": "morale", "unit": "b", "roll": 14, "modifiers": {"rank": 2, "stance": -2,
                                                                  "track": 0, "engaged": 0},
         "total": 14, "dc": 16, "fails_by": 2, "result": "rank"},
        {"type": "rally", "unit": "b", "attempted": True, "roll": 13, "bonus": 2, "total": 15,
         "dc": 12, "success": True, "outcome": "rank"},
        {"type": "rally", "unit": "b", "attempted": False, "success": False,
         "outcome": "rout"},
        {"type": "flee", "unit": "b", "from": [37.5, 11.5], "to": [34.8, 16.9], "cost": 6.0,
         "edge": None, "away_from": "a", "off_board": False},
        {"type": "flee", "unit": "b", "from": [37.5, 11.5], "to": [37.5, -0.5], "cost": 12.0,
         "edge": "south", "away_from": None, "off_board": True},
        {"type": "follow_through", "unit": "a", "moved": False},
        {"type": "follow_through", "unit": "a", "moved": True, "from": [3.0, 4.0],
         "to": [3.0, 6.5]},
        {"type": "rout", "unit": "b", "members": 0, "why": "commander only"},
        {"type": "score", "side": "A", "total": 24},
    ],
    "warband": _CORE_SAMPLES + WARBAND_SAMPLES,
    "dnd4e-war": _CORE_SAMPLES + DND4E_WAR_SAMPLES,
    "dnd35-wars": _CORE_SAMPLES + DND35_WARS_SAMPLES,
}


RULESETS = sorted(all_rulesets())


@pytest.mark.parametrize("name", RULESETS)
def test_every_emitted_event_type_has_a_sample(name: str) -> None:
    """A new event type fails here until it gets a sample (and so a checked sentence)."""
    ruleset = get_ruleset(name)
    assert ruleset.package_dir is not None
    types = emitted_types(ruleset.package_dir) | emitted_types(CORE)
    assert types <= {e["type"] for e in SAMPLES.get(name, [])}, "events without a sample"


@pytest.mark.parametrize("name", RULESETS)
def test_every_sample_has_a_clean_sentence(name: str) -> None:
    ruleset = get_ruleset(name)
    for seq, event in enumerate(SAMPLES.get(name, [])):
        event = {"seq": seq, **event}
        check(sentence(ruleset, event), event)


def test_the_static_scan_finds_every_kind_of_emit() -> None:
    """The scan reads conditional types and would refuse a computed one (it does not miss
    events by skipping what it cannot read)."""
    fb = emitted_types(get_ruleset("fantasy-battle").package_dir or Path())
    assert {"victory", "draw", "attack_result", "terrain_placed"} <= fb
    assert {"roll", "decision", "battle_start", "battle_end"} <= emitted_types(CORE)


def test_the_check_catches_dumps() -> None:
    for bad in ("morale: None vs DC None", "move: unit=g1", "{'a': 1}", "hit True"):
        with pytest.raises(AssertionError):
            check(bad, {})
    check("rolls 2d6: 3 4 = 7", {})


def _real_events() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for name in RULESETS:
        ruleset = get_ruleset(name)
        for example in ruleset.examples():
            scenario = load_scenario(example)
            sides = ruleset.side_names(scenario.model)
            for kind, seed in (("ai", 1), ("random", 1), ("first", 2)):
                result = run_battle(scenario, seed, dict.fromkeys(sides, kind))
                out += [(name, e) for e in result.log.events]
    return out


@pytest.fixture(scope="module")
def real_events() -> list[tuple[str, dict[str, Any]]]:
    return _real_events()


def test_real_battles_are_narrated_without_gaps(
        real_events: list[tuple[str, dict[str, Any]]]) -> None:
    seen: set[tuple[str, str]] = set()
    for name, event in real_events:
        ruleset = get_ruleset(name)
        check(sentence(ruleset, event), event)
        seen.add((name, event["type"]))
    # the battles do reach deep into both rulesets
    assert {("fantasy-battle", "attack_result"), ("fantasy-battle", "fate"),
            ("dnd5e-tactics", "morale"), ("dnd5e-tactics", "unit_attack")} <= seen


def test_narrator_uses_the_rulesets_words(real_events: list[tuple[str, dict[str, Any]]]) -> None:
    """Through the Narrator (as ``warhost battle`` prints), no event falls back to the fields
    of the generic text."""
    narrators = {name: Narrator(get_ruleset(name)) for name in RULESETS}
    for name, event in real_events[:3000]:
        check(narrators[name].line(event), event)
