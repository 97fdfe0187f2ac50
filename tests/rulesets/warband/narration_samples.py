"""Sample events of every type the `warband` ruleset emits, one list per area: the narration
test (tests/render/test_narration_coverage.py) checks each has a clean sentence. Add a sample
here for every new event type."""

from __future__ import annotations

from typing import Any

CORE_EVENTS: list[dict[str, Any]] = [
    {"type": "round_start", "round": 2},
    {"type": "deploy", "who": "mara", "side": "Company", "at": [6, 1], "facing": "N"},
    {"type": "deploy_clash", "who": "r1", "side": "Raiders", "at": [6, 1], "taken_by": "mara"},
    {"type": "initiative", "order": ["mara", "r1"], "scores": {"mara": 12, "r1": 7}},
    {"type": "score", "side": "Company", "total": 2},
    {"type": "move", "who": "mara", "how": "sprint", "start": [6, 1], "to": [6, 9],
     "squares": 8},
    {"type": "move_cancelled", "who": "mara", "how": "move"},
    {"type": "face", "who": "mara", "facing": "NE"},
    {"type": "charge", "who": "mara", "target": "r1", "braced": True},
    {"type": "prone", "who": "r1"},
    {"type": "prone_ends", "who": "r1"},
    {"type": "stand_up", "who": "r1"},
    {"type": "opportunity", "who": "r1", "target": "mara", "weapon": "club"},
    {"type": "attack", "who": "mara", "target": "r1", "weapon": "sword", "mode": "melee",
     "hit": True, "critical": True, "wounds": 2, "saved": 1, "warded": 0, "confirmed": 1},
    {"type": "attack", "who": "mara", "target": "r1", "weapon": "sword", "mode": "melee",
     "hit": False, "critical": False, "wounds": 0, "saved": 0, "warded": 0,
     "confirmed": 0},
    {"type": "wave", "who": "mara", "aim": [4, 4], "weapon": "flamer"},
    {"type": "wounded", "who": "r1", "wounds": 1, "left": 0, "by": "mara"},
    {"type": "injury_roll", "who": "r1", "roll": 11, "critical": True,
     "result": "incapacitated"},
    {"type": "injury_state", "who": "r1", "state": "knocked_down", "why": "injury roll"},
    {"type": "incapacitated", "who": "r1", "side": "Raiders", "why": "overkill",
     "by": "mara"},
    {"type": "fall", "who": "r1", "to": [3, 3], "height": 4, "wounds": 2},
    {"type": "effect_ends", "who": "r1", "effects": ["bless"]},
    {"type": "morale", "who": "r1", "triggers": ["captain"], "passed": False},
    {"type": "rout", "who": "r1"},
    {"type": "fled", "who": "r1"},
]

CAMPAIGN_EVENTS: list[dict[str, Any]] = [
    {"type": "incident", "who": "h", "side": "A", "kind": "hero", "table": "severe",
     "rolls": [10, 7, 3], "result": "limb_injury", "cycles": 0, "limb": "leg",
     "campaign": False},
]


MAGIC_EVENTS: list[dict[str, Any]] = [
    {"type": "cast", "who": "m", "spell": "bolt", "target": "b", "level": "base"},
    {"type": "cast", "who": "m", "spell": "gale", "target": "3,4", "level": "surge-plain"},
    {"type": "cast", "who": "m", "spell": "stride", "target": "self", "level": "surge"},
    {"type": "spell_test", "who": "m", "spell": "bolt", "passed": True, "die": 3, "target": 5,
     "dos": 2},
    {"type": "spell_test", "who": "m", "spell": "bolt", "passed": False, "die": 8,
     "target": 5, "dos": 0},
    {"type": "stress", "who": "m", "gained": 2, "stress": 3, "why": "casting bolt"},
    {"type": "dispel", "who": "e", "caster": "m", "spell": "bolt", "passed": True},
    {"type": "dispel", "who": "e", "caster": "m", "spell": "bolt", "passed": False},
    {"type": "spell_area", "who": "m", "spell": "gale", "kind": "wind", "at": [3, 4],
     "radius": 1},
    {"type": "spell_area", "who": "m", "spell": "rain", "kind": "bombardment", "at": [3, 4],
     "radius": 1},
    {"type": "spell_heal", "who": "x", "spell": "mend", "healed": 1, "left": 2},
    {"type": "spell_effect", "who": "b", "spell": "curse", "score": "melee", "by": -2,
     "turns": 1},
    {"type": "teleport", "who": "m", "spell": "stride", "start": [1, 1], "to": [2, 3]},
    {"type": "vortex_moves", "spell": "maelstrom", "start": [1, 1], "to": None,
     "direction": "N", "squares": 1},
    {"type": "vortex_moves", "spell": "maelstrom", "start": [1, 1], "to": [1, 3],
     "direction": "N", "squares": 2},
    {"type": "vortex_leaves", "spell": "maelstrom", "at": [1, 3], "why": "it leaves the map"},
]


UTILITY_EVENTS: list[dict[str, Any]] = [
    {"type": "brace", "who": "a"},
    {"type": "disengage", "who": "a", "start": [5, 5], "to": [4, 4]},
    {"type": "encourage", "who": "a", "passed": True, "bonus": 2},
    {"type": "encourage", "who": "a", "passed": False, "bonus": 0},
    {"type": "rally", "who": "a", "passed": True},
    {"type": "rally", "who": "a", "passed": False},
    {"type": "rotate", "who": "a", "facing": "SW"},
    {"type": "swap", "who": "a", "removed": ["helm"], "armour": 1},
    {"type": "use_item", "who": "a", "item": "potion", "target": "a", "healed": 2,
     "score": None, "by": 0, "turns": 1, "left": 0},
    {"type": "use_item", "who": "a", "item": "horn", "target": "b", "healed": 0,
     "score": "resolve", "by": 2, "turns": 1, "left": None},
    {"type": "climb", "who": "a", "start": [5, 6], "to": [6, 6], "height": 3,
     "test": "agility", "passed": True, "dof": 0, "fell": False},
    {"type": "climb", "who": "a", "start": [6, 6], "to": [5, 6], "height": -3,
     "test": "none", "passed": False, "dof": 4, "fell": True},
    {"type": "jump", "who": "a", "start": [1, 5], "aim": [7, 5], "to": [7, 5],
     "distance": 6, "covered": 6, "passed": True, "dof": 0},
    {"type": "jump", "who": "a", "start": [1, 5], "aim": [7, 5], "to": [6, 5],
     "distance": 6, "covered": 5, "passed": False, "dof": 2},
]

WARBAND_SAMPLES: list[dict[str, Any]] = CORE_EVENTS + MAGIC_EVENTS + CAMPAIGN_EVENTS + UTILITY_EVENTS
