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
    {"type": "move_banked", "unit": "fighters", "toward": [0, 1], "points": "1/2"},
    {"type": "disengage", "unit": "fighters", "foes": ["raiders", "wolves"]},
    {"type": "regroup", "unit": "fighters", "partner": "guards", "hp": 84, "counters": 7},
    {"type": "split", "unit": "fighters", "new": "fighters-2", "counters": 3},
    {"type": "joins", "who": "captain", "unit": "fighters-2"},
    {"type": "pass_stuck", "unit": "archers", "inside": "fighters"},
    {"type": "formation", "unit": "fighters", "counters": 10},
    {"type": "phalanx_dropped", "unit": "pikes"},
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

SETUP_EVENTS: list[dict[str, Any]] = []

DND35_WARS_SAMPLES: list[dict[str, Any]] = (
    TURN_EVENTS + MOVE_EVENTS + COMBAT_EVENTS + MORALE_EVENTS + SINGLES_EVENTS + SETUP_EVENTS
)
