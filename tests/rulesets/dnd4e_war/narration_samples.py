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
    {"type": "character_joins", "character": "aldric", "unit": "archers", "side": "Elves",
     "name": "Aldric"},
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
SHOOTING_EVENTS: list[dict[str, Any]] = [
    {"type": "shoot", "unit": "archers", "target": "drow", "power": "Longbow", "dice": 13,
     "needed": 9, "cover": 0, "faces": [3, 6, 8, 8, 9, 9, 9, 10, 11, 11, 13, 15, 19],
     "hits": 9, "multiattack": "captain"},
    {"type": "shoot", "unit": "archers", "target": "spears", "power": "Longbow", "dice": 4,
     "needed": 10, "cover": 2, "faces": [3, 12, 15, 9], "hits": 2, "multiattack": "none"},
    {"type": "area_burst", "unit": "mage", "power": "Fireball", "centre": [30.0, 12.5],
     "size": 2, "covered": {"drow": 5, "spiders": 1}},
    {"type": "hope_is_lost", "unit": "spears", "removed": 3},
    {"type": "command_lost", "unit": "spears", "models": ["musician", "standard"]},
    {"type": "condition", "unit": "spiders", "condition": "slowed", "on": True},
    {"type": "condition", "unit": "spiders", "condition": "slowed", "on": False},
    {"type": "saving_throw", "unit": "spiders", "effect": "ongoing", "roll": 12, "bonus": 0,
     "saved": True},
    {"type": "weakened", "unit": "spiders", "models": 1},
]
PSYCHOLOGY_EVENTS: list[dict[str, Any]] = [
    {"type": "courage_test", "unit": "drow", "kind": "panic", "dc": 14, "die": 7, "bonus": 6,
     "total": 13, "passed": False, "rule": "W4-PANIC-02", "natural_20_only": False},
    {"type": "courage_test", "unit": "drow", "kind": "break", "dc": 16, "die": 20, "bonus": 6,
     "total": 26, "passed": True, "rule": "W4-FEAR-09", "natural_20_only": True},
    {"type": "courage_reroll", "unit": "drow", "kind": "panic", "dc": 14, "die": 12,
     "bonus": 6, "total": 18, "passed": True, "rule": "W4-CMD-09", "natural_20_only": False},
    {"type": "courage_immune", "unit": "golems", "kind": "terror", "dc": 16,
     "reason": "immune_to_psychology", "rule": "W4-FEAR-04"},
]
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
    {"type": "pursuit", "unit": "knights", "target": "drow", "roll": 7, "distance": 9.0,
     "facing": 90.0},
    {"type": "caught", "unit": "knights", "target": "drow"},
    {"type": "pursuit_blocked", "unit": "knights", "target": "drow"},
    {"type": "re_engage", "unit": "knights", "target": "drow", "distance": 1.0},
]

CHARACTER_EVENTS: list[dict[str, Any]] = [
    {"type": "character_joined", "character": "aldric", "unit": "archers", "cost": 4.0},
    {"type": "character_left", "character": "aldric", "unit": "archers", "at": [30.0, 12.0],
     "cost": 1.5, "facing": 180.0},
    {"type": "character_wounded", "unit": "aldric", "character": "aldric", "hits": 3,
     "used": 3, "hp_left": 12, "slain": False, "source": "drow", "why": "shooting"},
    {"type": "character_wounded", "unit": "aldric", "character": "aldric", "hits": 5,
     "used": 2, "hp_left": 0, "slain": True, "source": "drow", "why": "close combat"},
    {"type": "character_stranded", "character": "aldric", "unit": "archers",
     "at": [30.0, 12.0], "facing": 180.0},
    {"type": "character_shoots", "character": "aldric", "unit": "archers", "target": "drow",
     "power": "Longbow", "dice": 3, "needed": 6, "cover": 0, "faces": [4, 9, 17], "hits": 2},
    {"type": "strike", "unit": "drow", "target": "archers", "dice": 3, "extra": 0,
     "needed": 9, "hits": 2, "points": 2, "charge": False, "captain": False,
     "character": "aldric"},
    {"type": "strike", "unit": "archers", "target": "drow", "dice": 3, "extra": 0,
     "needed": 4, "hits": 2, "points": 2, "charge": False, "captain": False, "by": "aldric"},
    {"type": "character_repositioned", "character": "aldric", "unit": "archers",
     "company": 1},
    {"type": "character_lost", "character": "aldric", "unit": "archers",
     "why": "fled off the table"},
    {"type": "hits_discarded", "unit": "archers", "target": "drow", "hits": 2},
    {"type": "rider_split", "unit": "archers", "target": "vex", "mount": 3, "rider": 1,
     "mount_hits": 2, "rider_hits": 0},
    {"type": "mount_wounded", "unit": "vex", "character": "vex", "hits": 2, "used": 2,
     "hp_left": 31, "slain": False, "source": "archers"},
    {"type": "mount_wounded", "unit": "vex", "character": "vex", "hits": 3, "used": 1,
     "hp_left": 0, "slain": True, "source": "archers"},
]

COMMAND_EVENTS: list[dict[str, Any]] = [
    {"type": "challenge_issued", "character": "aldric", "side": "Elves"},
    {"type": "challenge_accepted", "character": "vex", "challenger": "aldric"},
    {"type": "challenge_declined", "character": "aldric", "sent": "vex", "unit": "drow"},
    {"type": "challenge_strike", "character": "aldric", "target": "vex",
     "power": "Longsword", "dice": 1, "needed": 10, "faces": [14], "hits": 1},
    {"type": "challenge_damage", "character": "vex", "by": "aldric", "hits": 1, "excess": 0,
     "hp_left": 30},
    {"type": "challenge_damage", "character": "vex", "by": "aldric", "hits": 1, "excess": 2,
     "hp_left": 0},
    {"type": "challenge_slain", "character": "vex", "unit": "drow"},
    {"type": "overkill", "bonus": {"Elves": 2}},
    {"type": "action_point_dice", "character": "aldric", "unit": "archers",
     "why": "close combat archers", "die": 0, "before": 9, "after": 10, "spent": 1,
     "left": 1},
    {"type": "action_point_spent", "character": "aldric", "unit": "archers",
     "purpose": "act first (charge)", "left": 1},
    {"type": "act_first", "character": "aldric", "unit": "archers", "side": "Elves",
     "phase": "charge"},
    {"type": "general_nominated", "character": "aldric", "side": "Elves",
     "action_points": 3},
    {"type": "power_used", "character": "aldric", "power": "Brute Strike",
     "usage": "daily"},
    {"type": "recharge", "character": "aldric", "roll": 5, "power": "Steel Serpent"},
    {"type": "recharge", "character": "aldric", "roll": 2, "power": None},
]

CLASS_EVENTS: list[dict[str, Any]] = [
    {"type": "class_reroll", "unit": "spears", "character": "mira", "kind": "panic", "dc": 13,
     "die": 14, "bonus": 4, "total": 18, "passed": True, "rule": "W4-CLASS-09"},
    {"type": "class_beast_form", "character": "oak", "on": True, "rule": "W4-CLASS-10"},
    {"type": "class_beast_form", "character": "oak", "on": False, "rule": "W4-CLASS-10"},
    {"type": "class_extra_attack", "character": "fen", "unit": "fen", "target": "drow",
     "feature": "Rapid Shot", "attacks": 1, "rule": "W4-CLASS-14"},
    {"type": "class_spirit_strike", "character": "ula", "unit": "ula", "target": "drow",
     "power": "Spirit Fangs", "needed": 9, "faces": [12], "hits": 1, "rule": "W4-CLASS-18"},
    {"type": "class_rampage", "character": "grom", "unit": "grom", "target": "drow",
     "devastating": True, "dice": 3, "needed": 8, "faces": [3, 12, 19], "hits": 2,
     "rule": "W4-CLASS-06"},
]


MACHINE_EVENTS: list[dict[str, Any]] = [
    {"type": "move", "unit": "bolt", "kind": "haul", "from": [36.0, 4.0], "to": [36.0, 7.5],
     "facing": 0.0, "turned": 0.0, "files": 1, "cost": 3.5},
    {"type": "machine_reload", "unit": "bolt", "machine": "bolt", "action": "move"},
    {"type": "machine_moved", "unit": "bolt", "machine": "bolt", "to": [36.0, 9.0]},
    {"type": "machine_fire", "unit": "bolt", "machine": "bolt", "kind": "bolt_thrower",
     "target": "gobs", "facing": 0.0, "cover": 0, "hits": 2,
     "rolls": [{"bonus": 10, "needed": 8, "face": 12}, {"bonus": 8, "needed": 8, "face": 9},
               {"bonus": 6, "needed": 8, "face": 2}]},
    {"type": "machine_fire", "unit": "rock", "machine": "rock", "kind": "stone_thrower",
     "aim": [30.0, 30.0], "d10": 4, "scatter": "hit", "landed": [30.0, 30.0], "facing": 0.0},
    {"type": "machine_fire", "unit": "rock", "machine": "rock", "kind": "stone_thrower",
     "aim": [30.0, 30.0], "d10": 4, "scatter": "90", "landed": [34.0, 30.0], "facing": 0.0},
    {"type": "machine_fire", "unit": "rock", "machine": "rock", "kind": "stone_thrower",
     "aim": [30.0, 30.0], "d10": 1, "scatter": "misfire", "landed": None, "facing": 0.0},
    {"type": "machine_misfire", "unit": "rock", "machine": "rock", "roll": 2,
     "result": "disabled"},
    {"type": "machine_misfire", "unit": "rock", "machine": "rock", "roll": 1,
     "result": "destroyed", "slain": 3},
    {"type": "machine_repair", "unit": "rock", "machine": "rock"},
    {"type": "machine_abandoned", "unit": "rock", "machine": "rock", "why": "fled",
     "at": [30.0, 4.0]},
    {"type": "machine_taken", "unit": "crew2", "machine": "rock"},
    {"type": "machine_line_up", "unit": "bolt", "machine": "bolt", "charger": "gobs",
     "points": [[35.5, 6.0], [36.6, 6.0]]},
]




ARMY_EVENTS: list[dict[str, Any]] = [
    {"type": "magic_item", "unit": "spears", "side": "Legion", "item": "Flaming spear",
     "bonus": "attack"},
    {"type": "magic_item", "unit": "wolves", "side": "Horde", "item": "Howling horn",
     "bonus": "none"},
    {"type": "battle_banner", "character": "marshal", "side": "Legion",
     "name": "The Iron Banner", "kept": False},
    {"type": "battle_banner", "character": "warchief", "side": "Horde",
     "name": "Banner of the Red Tusk", "kept": True},
]


DND4E_WAR_SAMPLES: list[dict[str, Any]] = (TURN_EVENTS + MOVEMENT_EVENTS + SHOOTING_EVENTS
                                           + COMBAT_EVENTS + PSYCHOLOGY_EVENTS
                                           + COMMAND_EVENTS + CLASS_EVENTS + MACHINE_EVENTS
                                           + CHARACTER_EVENTS + ARMY_EVENTS)
