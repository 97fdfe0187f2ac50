"""Sample events of every type the `dnd35-wars` ruleset emits, one list per area: the
narration test (tests/render/test_narration_coverage.py) checks each has a clean sentence.
Add a sample to your area's list for every new event type."""

from __future__ import annotations

from typing import Any

TURN_EVENTS: list[dict[str, Any]] = [
    {"type": "round_start", "round": 2, "seconds": 6},
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
    # damage helper
    {"type": "attack", "unit": "fighters", "target": "raiders", "roll": 15, "total": 18,
     "ac": 13, "hit": True, "crit": False, "threat": False, "confirm": None},
    {"type": "attack", "unit": "orcs", "target": "hero", "roll": 19, "total": 24, "ac": 18,
     "hit": True, "crit": True, "threat": True, "confirm": 12, "attackers": 8,
     "flanking": True},
    {"type": "attack", "who": "hero", "target": "orcs", "roll": 20, "total": 29, "ac": 13,
     "hit": True, "crit": False, "threat": True, "confirm": 1},
    {"type": "attack", "unit": "archers", "target": "raiders", "kind": "ranged", "roll": 12,
     "total": 17, "ac": 13, "hit": True, "crit": False, "multiplier": 6},
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
    {"type": "structure_damage", "structure": "gate", "source": "ogre", "hp": 12,
     "left": 28},
    {"type": "breached", "structure": "gate"},
    # combat helper
    {"type": "attack", "unit": "pikes", "target": "raiders", "kind": "charge", "roll": 12,
     "total": 18, "ac": 15, "hit": True, "crit": False, "threat": False, "confirm": None,
     "multiplier": 3, "flanking": False},
    {"type": "charge", "unit": "knights", "target": "raiders", "dx": 0, "dy": 3,
     "uphill": False},
    {"type": "charge", "unit": "knights", "target": "archers", "dx": 2, "dy": 2,
     "uphill": True},
    {"type": "volley", "unit": "archers", "plan": "raiders:3,wolves:2"},
    {"type": "cleave", "unit": "berserkers", "target": "raiders", "count": 1},
    {"type": "set", "unit": "pikes"},
    {"type": "phalanx", "unit": "pikes"},
    {"type": "set_vs_charge", "unit": "pikes", "target": "knights", "roll": 14, "total": 17,
     "charger_roll": 9, "charger_total": 12, "repelled": True},
    {"type": "set_vs_charge", "unit": "pikes", "target": "knights", "roll": 3, "total": 6,
     "charger_roll": 9, "charger_total": 12, "repelled": False},
]

COMBAT_EVENTS.append({"type": "volley_lands", "unit": "archers", "target": "horde",
                      "squares": [[4, 9], [5, 9], [6, 9]]})

MORALE_EVENTS: list[dict[str, Any]] = [
    {"type": "morale_check", "unit": "fighters", "dc": 15, "roll": 9, "bonus": 2, "total": 11,
     "passed": False, "why": "half_hp"},
    {"type": "morale_check", "unit": "fighters", "dc": 20, "roll": 20, "bonus": -2,
     "total": 18, "passed": True, "why": "rally"},
    {"type": "morale_check", "unit": "villagers", "dc": 10, "roll": 12, "bonus": -2,
     "total": 10, "passed": True, "why": "mob_charge"},
    {"type": "rout", "unit": "fighters", "why": "half_hp"},
    {"type": "rally", "unit": "fighters"},
    {"type": "scatter", "unit": "fighters", "left": ["captain"]},
    {"type": "scatter", "unit": "goblins", "left": []},
    {"type": "regenerate", "unit": "trolls", "hp": 48, "left": 300, "counters": 5,
     "placed": [[3, 4]]},
    {"type": "regenerate", "who": "troll", "hp": 6, "left": 60},
    {"type": "mob_balks", "unit": "villagers"},
    {"type": "stays_behind", "who": "hero", "unit": "fighters", "at": [4, 7]},
    {"type": "pc_morale", "unit": "fighters", "who": "hero", "what": "slew_leader", "value": 2},
]

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

CONDITION_EVENTS: list[dict[str, Any]] = [
    {"type": "modifier", "unit": "fighters", "stat": "ac", "amount": 1, "rounds": 10,
     "source": "mage armor"},
    {"type": "modifier", "unit": "orcs", "stat": "attack", "amount": -1, "rounds": 0,
     "source": "bane"},
    {"type": "modifier", "unit": "orcs", "stat": "attack", "amount": 0, "rounds": 10,
     "source": "bane"},
    {"type": "modifier_ends", "unit": "fighters", "stat": "ac", "source": "mage armor"},
    {"type": "hindered", "unit": "orcs", "counters": 2, "speed": "zero", "rounds": 5,
     "source": "hold person"},
    {"type": "hindered", "unit": "orcs", "counters": 3, "speed": "half", "rounds": 0,
     "source": "slow"},
    {"type": "hindered_ends", "unit": "orcs"},
    {"type": "carried", "unit": "orcs", "counters": 2},
    {"type": "disabled", "unit": "orcs", "counters": 2, "hp": 20, "left": 40, "rounds": 3,
     "source": "charm person"},
    {"type": "disabled_return", "unit": "orcs", "source": "charm person", "rejoined": 1,
     "new": "orcs-2", "counters": 2},
    {"type": "disabled_return", "unit": "orcs", "source": "charm person", "rejoined": 0,
     "new": None, "counters": 0},
    {"type": "frightened", "unit": "orcs", "whole": True, "source": "fear", "immune": False},
    {"type": "frightened", "unit": "skeletons", "whole": False, "source": "cause fear",
     "immune": True},
    {"type": "turned", "unit": "zombies", "who": "cleric", "hd": 12, "counters": 3,
     "whole": True},
    {"type": "turned", "unit": "zombies", "who": "cleric", "hd": 4, "counters": 1,
     "whole": False},
    {"type": "turned", "unit": "zombies", "who": "cleric", "hd": 1, "counters": 0,
     "whole": False},
    {"type": "rout_ends", "unit": "zombies"},
]

SIEGE_EVENTS: list[dict[str, Any]] = [
    {"type": "siege_load", "unit": "gunners", "weapon": "heavy_catapult", "done": 1,
     "needed": 3, "loaded": False},
    {"type": "siege_load", "unit": "gunners", "weapon": "ballista", "done": 3, "needed": 3,
     "loaded": True},
    {"type": "siege_fire", "unit": "gunners", "weapon": "trebuchet", "target": "gate",
     "kind": "structure", "feet": 450, "bonus": -2, "roll": 14, "total": 12, "ac": 10,
     "hit": True, "crit": False, "threat": False, "confirm": None},
    {"type": "siege_fire", "unit": "gunners", "weapon": "ballista", "target": "giant",
     "kind": "single", "feet": 150, "bonus": 3, "roll": 19, "total": 22, "ac": 17,
     "hit": True, "crit": True, "threat": True, "confirm": 15},
    {"type": "siege_defend", "unit": "gunners", "ac": 4},
    {"type": "machine_attack", "unit": "archers", "target": "gunners", "machine": "ballista",
     "kind": "ranged", "roll": 12, "total": 16, "ac": 3, "hit": True, "crit": False,
     "attackers": 6},
    {"type": "machine_attack", "who": "ogre", "target": "gunners", "machine": "tower",
     "kind": "melee", "roll": 2, "total": 10, "ac": 3, "hit": True, "crit": False,
     "attackers": 1},
    {"type": "machine_damage", "unit": "gunners", "machine": "light_catapult",
     "source": "archers", "hp": 12, "left": 68},
    {"type": "machine_unharmed", "unit": "gunners", "machine": "ballista", "source": "ogre",
     "reason": "hardness"},
    {"type": "machine_destroyed", "unit": "gunners", "machine": "trebuchet", "kind": "siege"},
]

UCAST_EVENTS: list[dict[str, Any]] = [
    {"type": "ucast", "unit": "mages", "spell": "magic_missile", "counters": 3, "idle": 1,
     "targets": ["orcs"]},
    {"type": "ucast_healing", "unit": "acolytes", "spell": "cure_light_wounds", "average": 5,
     "counters": 4, "hp": 20},
    {"type": "ucast_area", "unit": "mages", "spell": "fireball", "target": "orcs",
     "counters": 6, "dc": 17},
    {"type": "ucast_lands", "unit": "mages", "spell": "scorching_ray", "target": "orcs",
     "counters": 2, "aimed": 3},
    {"type": "ucast_begins", "unit": "druids", "spell": "call_storm", "round": 4},
    {"type": "ucast_continues", "unit": "druids", "spell": "call_storm", "round": 4},
    {"type": "ucast_lost", "unit": "druids", "spell": "call_storm",
     "reason": "orcs is not an enemy unit on the map"},
]

TOWER_EVENTS: list[dict[str, Any]] = [
    {"type": "slit_volley", "unit": "tower", "plan": "spears:4,bows:2"},
    {"type": "machine_damage", "unit": "tower", "machine": "tower", "source": "catapult",
     "hp": 23, "left": 77},
    {"type": "machine_destroyed", "unit": "tower", "machine": "tower", "kind": "tower"},
    {"type": "bridge_lowered", "unit": "tower"},
    {"type": "crossed", "unit": "tower", "tower": "tower", "onto": "tower-wall", "at": [5, 10],
     "left": 6},
    {"type": "crossed", "unit": "pikes", "tower": "tower", "onto": "pikes-wall", "at": [4, 10],
     "left": 3},
    {"type": "ram_strike", "unit": "rammers", "structure": "gate", "damage": 38,
     "swingers": 8},
    {"type": "ram_formed", "unit": "pikes-ram", "donor": "pikes", "creatures": 8, "hp": 10,
     "donor_hp": 9},
]

DND35_WARS_SAMPLES: list[dict[str, Any]] = (
    TURN_EVENTS + MOVE_EVENTS + COMBAT_EVENTS + MORALE_EVENTS + SINGLES_EVENTS + SETUP_EVENTS
    + CONDITION_EVENTS + SIEGE_EVENTS + UCAST_EVENTS + TOWER_EVENTS
)

SPELL_EVENTS: list[dict[str, Any]] = [
    {"type": "cast", "who": "mialee", "spell": "fireball", "target": "orcs", "rounds": 1},
    {"type": "cast", "who": "mialee", "spell": "summon", "target": "4,5", "rounds": 3},
    {"type": "casting", "who": "mialee", "spell": "summon", "left": 1},
    {"type": "spell_lost", "who": "mialee", "spell": "summon", "reason": "no target"},
    {"type": "area", "who": "mialee", "spell": "fireball", "unit": "orcs", "counters": "4",
     "whole": False},
    {"type": "save", "unit": "orcs", "spell": "fireball", "save": "ref", "dc": 16,
     "saved": False},
    {"type": "save", "who": "chief", "spell": "fireball", "save": "ref", "dc": 16,
     "saved": True},
    {"type": "save", "unit": "orcs", "spell": "fireball", "save": "ref", "dc": 16,
     "failing": 3, "counters": 4},
    {"type": "spell_damage", "unit": "orcs", "spell": "fireball", "per": 15, "counters": "4",
     "total": 60},
    {"type": "spell_damage", "who": "chief", "spell": "fireball", "per": 15, "total": 7},
    {"type": "healed", "unit": "fighters", "source": "cure_light_wounds", "hp": 5, "left": 80,
     "counters": 8, "placed": []},
    {"type": "healed", "who": "tordek", "source": "cure_light_wounds", "hp": 9, "left": 31},
    {"type": "no_effect", "unit": "orcs", "spell": "bless", "reason": "too few counters"},
    {"type": "hit_dice", "unit": "orcs", "spell": "sleep", "hd": 10, "counters": 1},
    {"type": "spell_on", "who": "ogre", "spell": "hold_person", "effect": "hinder", "until": 6},
    {"type": "spell_bound", "who": "ogre", "why": "disable"},
    {"type": "turning", "who": "jozan", "target": "skeletons", "check": 12, "max_hd": 5,
     "hd": 14},
]

DND35_WARS_SAMPLES += SPELL_EVENTS

INTEGRATE_EVENTS: list[dict[str, Any]] = [
    {"type": "spell_at_machine", "who": "mialee", "spell": "magic_missile", "unit": "gunners",
     "per": 9},
]

DND35_WARS_SAMPLES += INTEGRATE_EVENTS
