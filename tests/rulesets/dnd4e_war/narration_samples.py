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

MOVEMENT_EVENTS: list[dict[str, Any]] = []
SHOOTING_EVENTS: list[dict[str, Any]] = []
COMBAT_EVENTS: list[dict[str, Any]] = [
    {"type": "charge_declared", "unit": "knights", "target": "drow"},
    {"type": "charge_roll", "unit": "knights", "target": "drow", "roll": 4, "distance": 7.0},
    {"type": "charge_failed", "unit": "knights", "target": "drow", "reason": "rolled a 1"},
    {"type": "charge_move", "unit": "knights", "target": "drow", "spearhead": 0,
     "arc": "left", "distance": 5.5},
    {"type": "skirmish_contact", "unit": "scouts", "target": "drow", "models": 3},
    {"type": "strike", "unit": "knights", "target": "drow", "dice": 10, "extra": 2,
     "needed": 9, "hits": 6, "points": 6, "charge": True, "captain": False},
    {"type": "strike", "unit": "knights", "target": "drow", "dice": 2, "extra": 0,
     "needed": 4, "hits": 1, "points": 1, "charge": False, "captain": True},
    {"type": "support", "unit": "drow", "companies": [2, 3]},
    {"type": "combat_result", "fight": ["drow", "knights"], "totals": {"A": 9, "B": 4},
     "bonuses": {"A": {"flank": 2}, "B": {}}, "winner": "A", "margin": 5},
    {"type": "combat_result", "fight": ["drow", "knights"], "totals": {"A": 4, "B": 4},
     "bonuses": {"A": {}, "B": {}}, "winner": None, "margin": 0},
    {"type": "combat_result", "fight": ["drow", "knights"], "totals": {}, "bonuses": {},
     "winner": "A", "margin": 0},
    {"type": "pursuit", "unit": "knights", "target": "drow", "roll": 7, "distance": 9.0},
    {"type": "caught", "unit": "knights", "target": "drow"},
    {"type": "pursuit_blocked", "unit": "knights", "target": "drow"},
    {"type": "re_engage", "unit": "knights", "target": "drow", "distance": 1.0},
]
PSYCHOLOGY_EVENTS: list[dict[str, Any]] = []

DND4E_WAR_SAMPLES: list[dict[str, Any]] = (TURN_EVENTS + MOVEMENT_EVENTS + SHOOTING_EVENTS
                                           + COMBAT_EVENTS + PSYCHOLOGY_EVENTS)
