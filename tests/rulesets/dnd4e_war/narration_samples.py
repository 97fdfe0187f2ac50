"""Sample events of every type the `dnd4e-war` ruleset emits, one list per area: the
narration test (tests/render/test_narration_coverage.py) checks each has a clean sentence.
Add a sample to your area's list for every new event type."""

from __future__ import annotations

from typing import Any

TURN_EVENTS: list[dict[str, Any]] = [
    {"type": "deploy", "unit": "archers", "side": "Elves", "name": "Archers", "models": 12,
     "companies": 2, "files": 2, "at": [36.0, 40.0], "facing": 180.0},
    {"type": "round_start", "round": 2},
    {"type": "roll_off", "why": "initiative", "totals": {"Elves": 12, "Drow": 7}},
    {"type": "initiative", "winner": "Elves", "side": "Elves"},
    {"type": "initiative", "winner": "Elves", "side": "Drow"},
    {"type": "score", "side": "Elves", "total": 40},
    {"type": "casualties", "unit": "drow", "hits": 9, "slain": 9, "source": "archers",
     "why": "shooting"},
    {"type": "destroyed", "unit": "drow", "why": "shooting"},
    {"type": "fall_back", "unit": "drow", "why": "panic"},
]

MOVEMENT_EVENTS: list[dict[str, Any]] = [
    {"type": "move", "unit": "spears", "kind": "walk", "from": [18.0, 40.0],
     "to": [18.0, 34.0], "facing": 180.0, "turned": 0.0, "files": 2, "cost": 6.0},
    {"type": "move", "unit": "spears", "kind": "wheel", "from": [18.0, 40.0],
     "to": [18.536, 38.0], "facing": 150.0, "turned": -30.0, "files": 2, "cost": 4.189},
    {"type": "move", "unit": "spears", "kind": "reform", "from": [18.0, 40.0],
     "to": [18.0, 38.0], "facing": 90.0, "turned": -90.0, "files": 1, "cost": 0.0},
    {"type": "rallied", "unit": "drow"},
    {"type": "stand_up", "unit": "spears", "action": "minor"},
    {"type": "fled_through", "unit": "drow", "target": "spiders"},
    {"type": "fall_back", "unit": "drow", "why": "fleeing", "roll": 7, "distance": 7.0,
     "moved": 7.0, "heading": 180.0, "from": [36.0, 10.0], "to": [36.0, 3.0],
     "facing": 180.0},
]
SHOOTING_EVENTS: list[dict[str, Any]] = []
COMBAT_EVENTS: list[dict[str, Any]] = []
PSYCHOLOGY_EVENTS: list[dict[str, Any]] = []

DND4E_WAR_SAMPLES: list[dict[str, Any]] = (TURN_EVENTS + MOVEMENT_EVENTS + SHOOTING_EVENTS
                                           + COMBAT_EVENTS + PSYCHOLOGY_EVENTS)
