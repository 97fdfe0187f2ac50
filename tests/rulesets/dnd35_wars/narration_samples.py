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
    # damage helper
    {"type": "attack", "unit": "fighters", "target": "raiders", "roll": 15, "total": 18,
     "ac": 13, "hit": True, "crit": False, "threat": False, "confirm": None},
    {"type": "attack", "unit": "orcs", "target": "hero", "roll": 19, "total": 24, "ac": 18,
     "hit": True, "crit": True, "threat": True, "confirm": 12, "attackers": 8,
     "flanking": True},
    {"type": "attack", "who": "hero", "target": "orcs", "roll": 20, "total": 29, "ac": 13,
     "hit": True, "crit": False, "threat": True, "confirm": 1},
    {"type": "attack", "who": "ogre", "target": "hero", "roll": 3, "total": 11, "ac": 18,
     "hit": False, "crit": False, "threat": False, "confirm": None},
    {"type": "unit_damage", "unit": "raiders", "source": "fighters", "hp": 24, "left": 16,
     "counters": 4},
    {"type": "counters_removed", "unit": "raiders", "squares": [[3, 4], [4, 4]], "left": 4},
    {"type": "single_damage", "who": "chief", "source": "fighters", "hp": 9, "left": 21},
    {"type": "vanquished", "unit": "raiders", "freed": []},
    {"type": "vanquished", "unit": "guards", "freed": ["captain", "mage"]},
    {"type": "slain", "who": "chief", "source": "fighters"},
    {"type": "unharmed", "unit": "archers", "source": "orcs", "reason": "sheltered"},
    {"type": "unharmed", "who": "wraith", "source": "fighters", "reason": "mundane"},
    {"type": "unharmed", "unit": "orcs", "source": "hero", "reason": "spread"},
    {"type": "collateral", "who": "captain", "unit": "guards", "source": "orcs",
     "kind": "melee", "save": None},
    {"type": "collateral", "who": "mage", "unit": "guards", "source": "archers",
     "kind": "ranged", "save": True},
    # combat helper
]

MORALE_EVENTS: list[dict[str, Any]] = []

SINGLES_EVENTS: list[dict[str, Any]] = [
    {"type": "single_hold", "who": "ogre"},
    {"type": "single_move", "who": "ogre", "to": [4, 7]},
    {"type": "fight_through", "who": "ogre", "unit": "raiders", "to": [5, 7], "advanced": True},
    {"type": "fight_through", "who": "ogre", "unit": "raiders", "to": [5, 7], "advanced": False},
    {"type": "single_enter", "who": "ogre", "unit": "fighters"},
    {"type": "single_leave", "who": "chief", "unit": "fighters", "to": [3, 9]},
    {"type": "single_charge", "who": "ogre", "target": "raiders", "to": [5, 6]},
    {"type": "squad_follows", "who": "mialee"},
    {"type": "total_defense", "who": "chief"},
    {"type": "pc_deed", "who": "tordek", "what": "slew_leader"},
    {"type": "pc_xp", "who": "tordek", "count": 3, "creature": "orc"},
    {"type": "in_unit_combat", "unit": "raiders", "foes": ["mialee"]},
    {"type": "in_unit_order", "unit": "fighters", "order": ["chief", "tordek"]},
    {"type": "stays_with_unit", "who": "chief", "unit": "fighters"},
    {"type": "left_behind", "who": "chief", "unit": "fighters"},
    {"type": "front_line", "who": "chief", "unit": "fighters", "front": True},
]

SETUP_EVENTS: list[dict[str, Any]] = []

DND35_WARS_SAMPLES: list[dict[str, Any]] = (
    TURN_EVENTS + MOVE_EVENTS + COMBAT_EVENTS + MORALE_EVENTS + SINGLES_EVENTS + SETUP_EVENTS
)
