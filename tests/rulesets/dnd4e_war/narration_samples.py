"""Sample events of every type the `dnd4e-war` ruleset emits, one list per area: the
narration test (tests/render/test_narration_coverage.py) checks each has a clean sentence.
Add a sample to your area's list for every new event type."""

from __future__ import annotations

from typing import Any

TURN_EVENTS: list[dict[str, Any]] = [
    {"type": "deploy", "unit": "archers", "side": "Elves", "name": "Archers", "models": 12,
     "companies": 2, "files": 2, "at": [36.0, 40.0], "facing": 180.0,
     "formation": "companies"},
    {"type": "deploy", "unit": "drow", "side": "Drow", "name": "Drow raiders", "models": 12,
     "companies": 12, "files": 1, "at": [36.0, 10.0], "facing": 0.0,
     "formation": "skirmish"},
    {"type": "round_start", "round": 2},
    {"type": "roll_off", "why": "initiative", "totals": {"Elves": 12, "Drow": 7}},
    {"type": "initiative", "winner": "Elves", "side": "Elves"},
    {"type": "initiative", "winner": "Elves", "side": "Drow"},
    {"type": "score", "side": "Elves", "total": 40},
    {"type": "casualties", "unit": "drow", "hits": 9, "slain": 9, "source": "archers",
     "why": "shooting"},
    {"type": "casualties", "unit": "spiders", "hits": 1, "slain": 0, "source": "archers",
     "why": "shooting"},
    {"type": "destroyed", "unit": "drow", "why": "shooting"},
    {"type": "fall_back", "unit": "drow", "why": "panic"},
]

MOVEMENT_EVENTS: list[dict[str, Any]] = []
SHOOTING_EVENTS: list[dict[str, Any]] = []
COMBAT_EVENTS: list[dict[str, Any]] = []
PSYCHOLOGY_EVENTS: list[dict[str, Any]] = [
    {"type": "courage_test", "unit": "drow", "kind": "panic", "dc": 14, "die": 7, "bonus": 6,
     "total": 13, "passed": False, "rule": "W4-PANIC-02", "natural_20_only": False},
    {"type": "courage_test", "unit": "drow", "kind": "break", "dc": 16, "die": 20, "bonus": 6,
     "total": 26, "passed": True, "rule": "W4-FEAR-09", "natural_20_only": True},
    {"type": "courage_reroll", "unit": "drow", "kind": "panic", "dc": 14, "die": 12,
     "bonus": 6, "total": 18, "passed": True, "rule": "W4-CMD-09", "natural_20_only": False},
    {"type": "courage_immune", "unit": "golems", "kind": "terror", "dc": 16,
     "reason": "immune_to_psychology", "rule": "W4-FEAR-04"},
    {"type": "saving_throw", "unit": "drow", "die": 11, "bonus": 2, "total": 13,
     "passed": True, "conditions": ["ongoing", "slowed"]},
]

DND4E_WAR_SAMPLES: list[dict[str, Any]] = (TURN_EVENTS + MOVEMENT_EVENTS + SHOOTING_EVENTS
                                           + COMBAT_EVENTS + PSYCHOLOGY_EVENTS)
