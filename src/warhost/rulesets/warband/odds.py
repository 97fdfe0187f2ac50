"""Exact odds of one `warband` attack (the ruleset's exact-odds hook).

Nothing here restates a rule. The odds come from running the play code itself,
:func:`~warhost.rulesets.warband.attacks.resolve_attack` for the attack and
:func:`~warhost.rulesets.warband.injury.apply_batch` for what its confirmed wounds do, with a
dice source that branches: every run replays a list of chosen dice, and the first roll past
the list names the faces that can come up there, each with its exact probability. A search
over those branches visits every way the dice can fall, and the probabilities of the leaves
are exact fractions.

Faces of a test (a d10 with a ``target``) are grouped into "passes with a 1", "passes" and
"fails", since the attack pipeline reads no more of a test than that (a 1 to hit is a
Critical Hit); table rolls (the Injury roll) branch on every face.

:attr:`OddsReport.outcomes`: ``success`` is a hit and ``failure`` a miss; the results of a hit
are ``no_damage`` (the Strength test failed), ``saved_defense`` (every wound cancelled by a
Defense save), ``saved_ward`` (cancelled, at least one by Ward), ``one_wound`` and
``two_wounds`` (confirmed). The details add the chance of a Critical Hit and what the attack
leaves of a target on its current Wounds (unhurt, wounded, knocked down, stunned,
incapacitated by an Injury roll or by Overkill).
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Any, cast

from warhost.core.battle import Battle
from warhost.core.checks import DIE, judge_face
from warhost.core.dice import DiceSource
from warhost.core.errors import WarhostError
from warhost.core.odds import (
    OddsReport,
    check_situation_keys,
    fraction_json,
    option_value,
    situation_flag,
    with_options,
)
from warhost.core.orders import Order
from warhost.core.scenario import Scenario
from warhost.geometry.grid import Square
from warhost.rulesets.warband import combat
from warhost.rulesets.warband.attacks import (
    AttackProfile,
    AttackResult,
    Circumstances,
    damage_mods,
    defense_mods,
    effective_armour,
    hit_mods,
    is_overkill,
    resolve_attack,
)
from warhost.rulesets.warband.checks import Mod, target_of
from warhost.rulesets.warband.injury import apply_batch
from warhost.rulesets.warband.model import WarbandScenario, Weapon
from warhost.rulesets.warband.state import (
    FACING_ORDER,
    INCAPACITATED,
    KNOCKED_DOWN,
    STANDING,
    STUNNED,
    Character,
    WarbandState,
)

__all__ = ["SITUATION_KEYS", "AttackOdds", "attack_odds", "build_state", "exact_odds"]

FLAGS = ("charging", "high_ground", "flanking", "opportunity", "cover", "into_melee", "volley",
         "stand_and_shoot", "outnumbered")
"""Situation keys that set one flag of :class:`Circumstances` each."""
MELEE_ONLY = ("charging", "flanking", "opportunity")
RANGED_ONLY = ("cover", "into_melee", "volley", "stand_and_shoot")
CONDITIONS = ("standing", "prone", KNOCKED_DOWN, STUNNED)

SITUATION_KEYS: dict[str, str] = {
    "mode": "melee or ranged (default: melee, or ranged with a ranged weapon)",
    "kind": "the same as mode (the command's --kind)",
    "weapon": "the attacker's weapon by name (default: its first of that mode)",
    "charging": "true: the attacker's Charge reached this turn, +1 hit/+1 damage (WB-CIRC-18)",
    "charge": "the same as charging (the command's --charge)",
    "high_ground": "true: the attacker stands higher, +1 to hit (WB-CIRC-01)",
    "flanking": "true: a melee attack from the rear arc (WB-CIRC-15/16/17)",
    "opportunity": "true: an Attack of Opportunity, which also flanks (WB-CIRC-13/14)",
    "cover": "true: the target is in cover, -1 to hit (WB-CIRC-21)",
    "into_melee": "true: the target is Engaged, -2 to hit (WB-CIRC-20)",
    "volley": "true: a Volley over obstacles, -2 to hit (WB-CIRC-19)",
    "stand_and_shoot": "true: Stand and Shoot, -1 to hit instead of -2 (WB-RANGED-08)",
    "outnumbered": "true: the target is Outnumbered, -1 Defense (WB-CIRC-04)",
    "attacker_prone": "true: the attacker lies Prone, -2 Melee to hit (WB-MOVE-21)",
    "target_condition": "standing, prone, knocked_down or stunned (WB-INJURY-06/10)",
    "target_wounds": "the target's current Wounds (default: its full Wounds)",
    "at_attacker": "square X,Y to put the attacker on (default: its scenario square)",
    "at_defender": "square X,Y to put the defender on",
    "facing_attacker": "facing of the attacker (N, NE, E, ...)",
    "facing_defender": "facing of the defender (N, NE, ...): sets the rear arc",
    "ignore_position": "true: take no modifier from where they stand, only the keys",
    "options": "scenario option overrides, name -> value",
}
"""The situation keys :func:`exact_odds` understands, with what each means."""

RESULT_KEYS = ("no_damage", "saved_defense", "saved_ward", "one_wound", "two_wounds")
AFTER_KEYS = ("unhurt", "wounded", "knocked_down", "stunned", "incapacitated", "overkill")


# --------------------------------------------------------------------------- branching dice


Choice = tuple[int, ...]


class _Fork(Exception):
    """A run reached a roll past its script: the faces that can come up there."""

    def __init__(self, choices: list[tuple[Choice, Fraction]]) -> None:
        super().__init__("fork")
        self.choices = choices


class BranchingDice(DiceSource):
    """Replays ``script`` (the faces of each roll in turn); the next roll raises
    :class:`_Fork` with every way it can come up."""

    def __init__(self, script: Sequence[Choice]) -> None:
        super().__init__()
        self.script = list(script)
        self.used = 0

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        raise NotImplementedError("BranchingDice only answers pool()")

    def pool(self, count: int, sides: int = 6, why: str = "", **fields: Any) -> list[int]:
        """The next scripted roll, or a fork over its possible faces."""
        if self.used < len(self.script):
            faces = self.script[self.used]
            self.used += 1
            return list(faces)
        raise _Fork(roll_choices(count, sides, fields.get("target")))


def roll_choices(count: int, sides: int, target: int | None) -> list[tuple[Choice, Fraction]]:
    """The ways ``count`` d``sides`` can fall, with their chances. For a test (a d10 with a
    ``target``) the rolls are grouped by what the kept (highest) face means: a 1, another
    pass, or a fail; one roll of each group stands for it."""
    weight = Fraction(1, sides**count)
    rolls = list(product(range(1, sides + 1), repeat=count))
    if target is None or sides != DIE:
        return [(roll, weight) for roll in rolls]
    groups: dict[tuple[bool, bool], tuple[Choice, Fraction]] = {}
    for roll in rolls:
        kept = max(roll)
        key = (judge_face(target, kept).passed, kept == 1)
        first, chance = groups.get(key, (roll, Fraction(0)))
        groups[key] = (first, chance + weight)
    return list(groups.values())


def enumerate_runs(run: Callable[[DiceSource], Any]) -> list[tuple[Any, Fraction]]:
    """Every result of ``run(dice)`` with its exact probability; ``run`` must do the same
    thing again when given the same faces (it is started afresh for each branch)."""
    out: list[tuple[Any, Fraction]] = []
    stack: list[tuple[list[Choice], Fraction]] = [([], Fraction(1))]
    while stack:
        script, chance = stack.pop()
        dice = BranchingDice(script)
        try:
            result = run(dice)
        except _Fork as fork:
            for roll, weight in fork.choices:
                stack.append(([*script, roll], chance * weight))
            continue
        out.append((result, chance))
    return out


class _QuietBattle:
    """Just enough of a battle for the rules to run off the record: the dice, events dropped,
    every decision answered with its first option."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.state: Any = None

    def emit(self, type_: str, **fields: Any) -> None:
        """Events are not kept."""

    def ask(self, side: str, kind: str, options: tuple[Order, ...], *args: Any,
            **kwargs: Any) -> Order:
        """The first option."""
        return options[0]


def _battle(dice: DiceSource) -> Battle:
    return cast(Battle, _QuietBattle(dice))


# --------------------------------------------------------------------------- the odds


@dataclass
class AttackOdds:
    """Exact odds of one attack: the partition of results, the Critical Hit chance, the
    confirmed wounds and what they leave of the target."""

    hit: Fraction
    results: dict[str, Fraction]
    critical: Fraction
    confirmed: dict[int, Fraction]
    after: dict[str, Fraction]


def _result_key(result: AttackResult) -> str:
    if result.wounds == 0:
        return "no_damage"
    if result.confirmed == 0:
        return "saved_ward" if result.saved_ward else "saved_defense"
    return "one_wound" if result.confirmed == 1 else "two_wounds"


def attack_odds(state: WarbandState, attacker: Character, target: Character,
                profile: AttackProfile, circ: Circumstances) -> AttackOdds:
    """The exact odds of ``resolve_attack(state, ..., attacker, target, profile, circ)`` and of
    applying its confirmed wounds as one batch (``state`` is not changed)."""

    def one_attack(dice: DiceSource) -> AttackResult:
        return resolve_attack(state, _battle(dice), attacker, target, profile, circ)

    results = {key: Fraction(0) for key in RESULT_KEYS}
    hit = critical = Fraction(0)
    confirmed: dict[int, Fraction] = {}
    batches: dict[tuple[int, bool, bool], Fraction] = {}
    for result, chance in enumerate_runs(one_attack):
        if result.critical:
            critical += chance
        if not result.hit:
            continue
        hit += chance
        results[_result_key(result)] += chance
        confirmed[result.confirmed] = confirmed.get(result.confirmed, Fraction(0)) + chance
        key = (result.confirmed, result.critical and result.confirmed > 0, result.overkill)
        batches[key] = batches.get(key, Fraction(0)) + chance
    confirmed[0] = confirmed.get(0, Fraction(0)) + (1 - hit)
    after = {key: Fraction(0) for key in AFTER_KEYS}
    after["unhurt"] = 1 - sum(batches.values(), Fraction(0))
    for (wounds, crit, overkill), chance in batches.items():
        if wounds == 0:
            after["unhurt"] += chance
            continue
        for outcome, sub in _after_batch(state, target, wounds, crit, overkill):
            after[outcome] += chance * sub
    return AttackOdds(hit, results, critical, dict(sorted(confirmed.items())), after)


def _after_batch(state: WarbandState, target: Character, wounds: int, critical: bool,
                 overkill: bool) -> list[tuple[str, Fraction]]:
    """What ``apply_batch`` makes of ``wounds`` confirmed wounds on ``target``."""

    def apply(dice: DiceSource) -> str:
        world = copy.deepcopy(state)
        victim = world.chars[target.id]
        apply_batch(world, _battle(dice), victim, wounds, critical=critical, overkill=overkill)
        if victim.condition == INCAPACITATED:
            return "overkill" if overkill else "incapacitated"
        if victim.condition in (KNOCKED_DOWN, STUNNED) and victim.condition != target.condition:
            return victim.condition
        return "wounded"

    return enumerate_runs(apply)


# --------------------------------------------------------------------------- the hook


def build_state(scenario: Scenario, situation: Mapping[str, Any] | None = None
                ) -> WarbandState:
    """The characters of ``scenario`` on their scenario squares (those without one stay off
    the map), with the option overrides of ``situation`` (key ``options``); no dice."""
    from warhost.rulesets.warband.setup import initial_state
    from warhost.rulesets.warband.validate import check_scenario

    model: WarbandScenario = scenario.model
    model = with_options(model, dict((situation or {}).get("options") or {}), check_scenario)
    state = initial_state(model)
    for side in model.sides:
        for spec in side.characters:
            if spec.at is not None:
                state.place(state.chars[spec.id], (spec.at[0], spec.at[1]))
    state.order = list(state.chars)
    state.turn = 1
    return state


def _character(state: WarbandState, cid: str, role: str, scenario: Scenario) -> Character:
    char = state.chars.get(cid)
    if char is not None:
        return char
    ids = list(state.chars)
    close = difflib.get_close_matches(cid, ids, n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else f" (characters: {', '.join(ids)})"
    raise WarhostError(f"no character {cid!r} in scenario {scenario.name!r}{hint}", field=role)


def _square(value: Any, key: str) -> Square | None:
    if value is None:
        return None
    parts: Sequence[Any]
    if isinstance(value, str):
        parts = value.replace("(", "").replace(")", "").split(",")
    else:
        parts = list(value)
    try:
        x, y = (int(str(p).strip()) for p in parts)
    except ValueError:
        raise WarhostError(f"expected a square X,Y (two whole numbers), got {value!r}",
                           field=key) from None
    return (x, y)


def _place(state: WarbandState, situation: Mapping[str, Any], att: Character,
           dfn: Character) -> None:
    moves = [(c, _square(situation.get(key), key), key)
             for c, key in ((att, "at_attacker"), (dfn, "at_defender"))]
    for c, at, _ in moves:
        if at is not None:
            state.remove(c)
            c.square = None
    for c, at, key in moves:
        if at is None:
            continue
        if not state.passable(at):
            raise WarhostError(f"{c.id} cannot stand on {at[0]},{at[1]}: off the map or not "
                               "clear ground (WB-AMB-03)", field=key)
        other = state.occupant(at)
        if other is not None:
            raise WarhostError(f"square {at[0]},{at[1]} is taken by {other.id} "
                               "(WB-DEPLOY-01)", field=key)
        state.place(c, at)
    for c, key in ((att, "facing_attacker"), (dfn, "facing_defender")):
        value = situation.get(key)
        if value is None:
            continue
        facing = str(value).strip().upper()
        if facing not in FACING_ORDER:
            raise WarhostError(f"unknown facing {value!r} (use {', '.join(FACING_ORDER)})",
                               field=key)
        c.facing = facing


def _mode_and_weapon(state: WarbandState, att: Character, situation: Mapping[str, Any]
                     ) -> tuple[str, Weapon]:
    mode_key = "mode" if "mode" in situation else "kind"
    mode = situation.get(mode_key)
    if mode is not None and mode not in ("melee", "ranged"):
        raise WarhostError(f"unknown mode {mode!r} (use melee or ranged)", field=mode_key)
    melee = att.melee_weapons(state.options.unarmed_attacks)
    ranged = [w for w in att.ranged_weapons() if w.range]
    name = situation.get("weapon")
    if name is not None:
        known = {w.name: w for w in [*melee, *ranged]}
        weapon = known.get(str(name))
        if weapon is None:
            close = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.5)
            hint = (f"; did you mean {close[0]!r}?" if close
                    else f" ({att.id} has: {', '.join(known) or 'none'})")
            raise WarhostError(f"{att.id} has no weapon {name!r}{hint}", field="weapon")
        if mode is not None and mode != weapon.kind:
            raise WarhostError(f"{weapon.name} is a {weapon.kind} weapon, not {mode}",
                               field="weapon")
        return weapon.kind, weapon
    if mode is None:
        mode = "melee" if melee or not ranged else "ranged"
    pool = melee if mode == "melee" else ranged
    if not pool:
        raise WarhostError(f"{att.id} has no {mode} weapon (WB-AMB-27)", field=mode_key)
    return str(mode), pool[0]


def _set_target(state: WarbandState, dfn: Character, situation: Mapping[str, Any]) -> None:
    condition = situation.get("target_condition")
    if condition is not None:
        text = str(condition).strip().lower().replace(" ", "_").replace("-", "_")
        if text not in CONDITIONS:
            raise WarhostError(f"unknown target_condition {condition!r} (use "
                               f"{', '.join(CONDITIONS)})", field="target_condition")
        dfn.prone = text == "prone"
        dfn.condition = STANDING if text == "prone" else text
    wounds = situation.get("target_wounds")
    if wounds is not None:
        value = option_value(wounds)
        if type(value) is not int or not 0 <= value <= dfn.max_wounds:
            raise WarhostError(f"target_wounds must be a whole number from 0 to "
                               f"{dfn.max_wounds}, got {wounds!r}", field="target_wounds")
        dfn.wounds = value


def _circumstances(state: WarbandState, att: Character, dfn: Character, mode: str,
                   weapon: Weapon, situation: Mapping[str, Any]) -> tuple[Circumstances,
                                                                         str | None]:
    """The flags from where they stand (if the attack can be made there), then the keys.
    Returns them with the reason the position was not used (None: it was)."""
    flags = {key: situation_flag(situation, key) for key in FLAGS if key in situation}
    if "charge" in situation and "charging" not in flags:
        flags["charging"] = situation_flag(situation, "charge")
    wrong = MELEE_ONLY if mode == "ranged" else RANGED_ONLY
    for key in wrong:
        if flags.get(key):
            rule = "WB-AMB-35" if key == "flanking" else "WB-CIRC"
            raise WarhostError(f"{key} applies only to {'melee' if mode == 'ranged' else 'ranged'}"
                               f" attacks ({rule})", field=key)
    problem: str | None = None
    base = Circumstances(mode=mode)
    if situation_flag(situation, "ignore_position"):
        problem = "ignore_position is set"
    elif att.square is None or dfn.square is None:
        problem = "not both are on the map"
    elif mode == "melee":
        if combat.in_reach(state, att, dfn, weapon):
            base = combat.melee_circumstances(state, att, dfn,
                                              opportunity=flags.get("opportunity", False))
        else:
            problem = f"{dfn.id} is not within reach of {weapon.name}"
    else:
        volley = flags.get("volley", False)
        if combat.can_shoot_at(state, att, dfn, weapon, volley):
            base = combat.ranged_circumstances(
                state, att, dfn, volley=volley,
                stand_and_shoot=flags.get("stand_and_shoot", False))
        else:
            problem = (f"{dfn.id} is out of range or sight of {weapon.name}"
                       if not volley else f"{weapon.name} cannot volley at {dfn.id} from here")
    circ = replace(base, **cast(dict[str, Any], flags))
    if circ.opportunity and mode == "melee":
        circ = replace(circ, flanking=True)  # WB-CIRC-14
    circ = replace(circ, attacker_lying=att.lying, target_lying=dfn.lying,
                   target_condition=dfn.condition)
    return circ, problem


def _lines(mods: list[Mod], what: str) -> list[str]:
    return [f"{what} {m.value:+d} {m.name} [{m.rule}]" for m in mods]


def exact_odds(scenario: Scenario, attacker: str, defender: str,
               situation: Mapping[str, Any]) -> OddsReport:
    """The `warband` implementation of :meth:`Ruleset.exact_odds`: one attack of
    ``attacker`` on ``defender``; ``situation`` keys: see :data:`SITUATION_KEYS`.

    Where the two stand gives the modifiers when the attack can be made there; otherwise, or
    with ``ignore_position``, only the situation keys do (the notes say which).
    """
    check_situation_keys(situation, list(SITUATION_KEYS), " for warband")
    state = build_state(scenario, situation)
    att = _character(state, attacker, "attacker", scenario)
    dfn = _character(state, defender, "defender", scenario)
    if att.id == dfn.id:
        raise WarhostError(f"{att.id} cannot attack itself", field="defender")
    if att.side == dfn.side:
        raise WarhostError(f"{att.id} and {dfn.id} are both of {att.side}", field="defender")
    _place(state, situation, att, dfn)
    mode, weapon = _mode_and_weapon(state, att, situation)
    if situation_flag(situation, "attacker_prone"):
        if mode == "ranged":
            raise WarhostError("a Prone character cannot make Ranged attacks (WB-MOVE-20)",
                               field="attacker_prone")
        att.prone = True
    _set_target(state, dfn, situation)
    if "ethereal" in dfn.traits and not weapon.magic:
        raise WarhostError(f"{dfn.id} is Ethereal and {weapon.name} is not Magic "
                           "(WB-SPECIAL-05, WB-AMB-38)", field="weapon")
    profile = (combat.melee_profile(att, weapon) if mode == "melee"
               else combat.ranged_profile(weapon))
    circ, problem = _circumstances(state, att, dfn, mode, weapon, situation)
    odds = attack_odds(state, att, dfn, profile, circ)
    report = _report(state, att, dfn, profile, circ, odds, problem)
    if (problem is None and mode == "ranged" and not circ.stand_and_shoot
            and not weapon.melee_safe and state.engaged(att)):
        report.details["legal"] = False
        report.notes.insert(0, f"{att.id} is Engaged in Melee and {weapon.name} is not "
                               "Melee-Safe: only Stand and Shoot may use it (WB-RANGED-03).")
    return report


def _report(state: WarbandState, att: Character, dfn: Character, profile: AttackProfile,
            circ: Circumstances, odds: AttackOdds, problem: str | None) -> OddsReport:
    cap = state.options.superior_skill_max_penalty
    auto = profile.auto_hit or (circ.mode == "melee" and circ.target_condition in (
        KNOCKED_DOWN, STUNNED))
    hmods = [] if auto else hit_mods(att, dfn, circ, cap)
    dmods = damage_mods(circ)
    fmods = defense_mods(circ)
    overkill = is_overkill(profile.strength, dfn)
    armour = effective_armour(dfn, profile.penetration)
    defense_base = dfn.score("toughness") + armour
    targets = {
        "to_hit": None if auto else target_of(att, profile.skill, hmods),
        "damage": None if circ.target_condition == STUNNED and circ.mode == "melee"
        else target_of(att, "strength", dmods, profile.strength),
        "defense": None if overkill else target_of(dfn, "toughness", fmods, defense_base),
        "ward": target_of(dfn, "ward", [], ward=True) if dfn.score("ward") > 0 else None,
    }
    skill = "Melee" if profile.skill == "melee" else "Ranged"
    hit_text = "automatic" if auto else f"d10 <= {targets['to_hit']} ({skill})"
    parts = [f"to hit {hit_text}",
             ("damage automatic (Stunned target)" if targets["damage"] is None else
              f"damage d10 <= {targets['damage']} (Strength {profile.strength})"),
             ("Defense none (Overkill)" if targets["defense"] is None else
              f"Defense d10 <= {targets['defense']} (Toughness {dfn.score('toughness')} + "
              f"Armour {armour})"),
             "Ward none" if targets["ward"] is None else f"Ward d10 <= {targets['ward']}"]
    notes: list[str] = []
    if problem is not None:
        notes.append(f"Position not used ({problem}): the modifiers come from the situation "
                     "keys alone.")
    if overkill:
        notes.append(f"Strength {profile.strength} is more than twice {dfn.id}'s Toughness "
                     f"{dfn.score('toughness')}: Overkill, no Defense save (WB-CIRC-02/03).")
    notes.append(f"{dfn.id} on {dfn.wounds} of {dfn.max_wounds} Wounds; the injury outcomes "
                 "treat this attack as one batch (WB-AMB-39). A fall from an edge lands on the "
                 "first square offered.")
    outcomes = {"success": odds.hit, "failure": 1 - odds.hit, **odds.results}
    details: dict[str, Any] = {
        "weapon": profile.name,
        "strength": profile.strength,
        "penetration": profile.penetration,
        "targets": targets,
        "circumstances": {k: getattr(circ, k) for k in (
            "mode", *FLAGS, "attacker_lying", "target_lying", "target_condition")},
        "legal": problem is None,
        "problem": problem,
        "target_wounds": dfn.wounds,
        "critical": fraction_json(odds.critical),
        "confirmed_wounds": {str(k): fraction_json(v) for k, v in odds.confirmed.items()},
        "target_after": {k: fraction_json(v) for k, v in odds.after.items()},
    }
    return OddsReport(
        attacker=att.id, defender=dfn.id, kind=f"{circ.mode}, {profile.name}",
        modifiers=[*_lines(hmods, "to hit"), *_lines(dmods, "damage"),
                   *_lines(fmods, "defense")],
        outcomes=outcomes, notes=notes, dice="; ".join(parts), details=details)
