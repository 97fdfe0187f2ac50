"""Sample events of every type the `dnd35-wars` ruleset emits, one list per area: the
narration test (tests/render/test_narration_coverage.py) checks each has a clean sentence.
Add a sample to your area's list for every new event type."""

from __future__ import annotations

from typing import Any

TURN_EVENTS: list[dict[str, Any]] = [
    {"type": "round_start", "round": 2},
    {"type": "initiative", "who": "fighters", "total": 17},
    {"type": "turn", "unit": "fighters", "round": 2},
    {"type": "hold", "unit": "fighters"},
    {"type": "stuck", "unit": "archers", "inside": "fighters"},
    {"type": "score", "side": "Humans", "total": 71},
    {"type": "battle_over", "winner": "Humans", "reason": "round limit 60", "round": 60},
]

MOVE_EVENTS: list[dict[str, Any]] = [
    {"type": "move", "unit": "fighters", "by": [0, 3]},
    {"type": "fled", "unit": "raiders"},
]

COMBAT_EVENTS: list[dict[str, Any]] = [
    {"type": "attack", "unit": "fighters", "target": "raiders", "roll": 15, "total": 18,
     "ac": 13, "hit": True},
    {"type": "unit_damage", "unit": "raiders", "source": "fighters", "hp": 24, "left": 16,
     "counters": 4},
    {"type": "single_damage", "who": "chief", "source": "fighters", "hp": 9, "left": 21},
    {"type": "vanquished", "unit": "raiders"},
    {"type": "slain", "who": "chief"},
]

MORALE_EVENTS: list[dict[str, Any]] = []

SINGLES_EVENTS: list[dict[str, Any]] = []

SETUP_EVENTS: list[dict[str, Any]] = [
    {"type": "warning", "rule": "W35-ARMY-02",
     "message": "Orcs fields 12 units; an army should have at most 10"},
    {"type": "placement", "first": "Orcs", "winner": "Humans",
     "rolls": {"Humans": 17, "Orcs": 9}},
    {"type": "placement", "first": "Orcs", "aggressor": "Humans"},
    {"type": "monster_placed", "who": "troll", "army": "Orcs", "at": [14, 12], "moved": True},
    {"type": "reinforcement", "unit": "riders", "edge": "west", "counters": 4},
    {"type": "reinforcement_delayed", "unit": "riders", "edge": "west"},
    {"type": "recovery", "unit": "fighters", "lost": 77, "percent": 50, "recovered": 38,
     "hp": 81, "counters": 7},
]

DND35_WARS_SAMPLES: list[dict[str, Any]] = (
    TURN_EVENTS + MOVE_EVENTS + COMBAT_EVENTS + MORALE_EVENTS + SINGLES_EVENTS + SETUP_EVENTS
)
