"""Courage tests and what makes units take them (W4-COUR, W4-PANIC, W4-FEAR, W4-IMMUNE,
W4-CMD-09/11), and the start and end of the turn: ongoing damage and saving throws
(W4-AMB-56, W4-CAS-10).

A unit's courage bonus is the best of its *candidate bases* (its own race and size; a
character's race, size and tier) plus the bonuses that always apply (musician, stalwart,
bard or songweaver). Part 2 adds joined characters as further candidates.

Several panic triggers in one phase (W4-AMB-21): the test is taken at the first trigger, and
later triggers in the same phase are ignored (see :func:`panic`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from warhost.core.battle import Battle
from warhost.core.metering import GEOMETRY, count
from warhost.core.orders import Order
from warhost.geometry.table import Tray, tray_gap
from warhost.rulesets.dnd4e_war import classes
from warhost.rulesets.dnd4e_war.army_setup import standard_bearer
from warhost.rulesets.dnd4e_war.state import Character, Unit, WarState
from warhost.rulesets.dnd4e_war.tables import (
    BARD_COURAGE,
    MUSICIAN_COURAGE,
    SIZE_COURAGE,
    SKIRMISH_COMPANY,
    STALWART_COURAGE,
    racial_courage,
    tier,
)

REROLL = Order("reroll")
ACCEPT = Order("accept")

PANIC_DC = 13
"""W4-PANIC-07: the base DC of a panic test."""
SHOOTING_PANIC_DC = 10
"""W4-PANIC-07: the base DC of a panic test for shooting casualties."""
STUBBORN_SHOOTING_DC = 12
"""W4-IMMUNE-05, W4-AMB-25."""
SHOOTING_PANIC = "W4-PANIC-02"
"""The rule a shooting panic test names; :func:`panic` knows the test by it."""
PANIC_MODIFIER = 2
"""W4-PANIC-07: each modifier of the table is worth 2."""
NEAR = 6.0
"""W4-PANIC-03/04/07, W4-FEAR-04: the 6-inch reach of panic and terror."""
BATTLE_STANDARD_RANGE = 12.0
"""W4-CMD-09."""
FEAR_DC = 13
TERROR_DC = 16
"""W4-FEAR-05."""
FEAR_BREAK = 2
TERROR_BREAK = 4
"""W4-FEAR-08: what a fear (terror) causing victor adds to a break test's DC."""
BREAK_BASE = 10
"""W4-BREAK-01: a break test's DC is 10 + the margin of defeat."""
FEAR_RANK = {"fear": 1, "terror": 2}
"""Terror covers fear (W4-AMB-43)."""
SAVE_ENDS = frozenset({"dazed", "stunned", "slowed", "immobilized", "weakened",
                       "blinded", "restrained", "dominated"})
"""Conditions a successful saving throw ends (W4-CAS-10); ongoing damage is
:attr:`Unit.ongoing`."""
PSYCHOLOGY = frozenset({"panic", "fear", "terror"})
"""W4-IMMUNE-03: the tests immune to psychology passes."""


# ---------------------------------------------------------------------- courage bonus
@dataclass(frozen=True)
class Candidate:
    """A model whose own courage bonus the unit may use (W4-COUR-02): its race, size and,
    for a character, its level (None: not a character, no tier bonus)."""

    race: str | None
    size: str
    level: int | None = None
    courage: int | None = None
    """An explicit racial bonus from the profile (W4-AMB-40)."""


def base_bonus(candidate: Candidate) -> int:
    """W4-AMB-40: racial + size, + tier for a character (W4-COUR-03/04/06/08)."""
    bonus = racial_courage(candidate.race, candidate.courage) + SIZE_COURAGE[candidate.size]
    if candidate.level is not None:
        bonus += tier(candidate.level)
    return bonus


def candidates(unit: Unit) -> list[Candidate]:
    """The unit's own members: its ordinary models and its captain, a character of the
    same profile (W4-CMD-06, W4-STAT-13) at his own level or the profile's."""
    p = unit.profile
    # a lone character has his tier bonus (W4-COUR-03/04)
    found = [Candidate(p.race, p.size, p.level if unit.character else None, p.courage)]
    if unit.captain is not None:
        level = unit.captain_level if unit.captain_level is not None else p.level
        found.append(Candidate(p.race, p.size, level, p.courage))
    # W4-CHAR-20: a joined character's own bonus (tier included) when it is better
    found += [Candidate(m.race, m.size, m.level, m.courage) for m in unit.members]
    return found


def always_on(unit: Unit) -> int:
    """W4-COUR-05/07, W4-CMD-11, W4-AMB-41: musician +1, stalwart +2, and a single +2 for a
    bard or songweaver."""
    bonus = MUSICIAN_COURAGE if unit.musician else 0
    if unit.rule("stalwart"):
        bonus += STALWART_COURAGE
    if unit.rule("bard") or unit.rule("songweaver"):
        bonus += BARD_COURAGE
    return bonus


def unit_courage(unit: Unit, joined: Sequence[Candidate] = ()) -> int:
    """W4-COUR-02: the highest base among the unit's candidates and ``joined`` (characters
    with the unit), plus the always-on bonuses."""
    return max(base_bonus(c) for c in [*candidates(unit), *joined]) + always_on(unit)


def courage_bonus(state: WarState, unit: Unit) -> int:
    """W4-COUR-02 to 08: the best bonus available to the unit, always-on bonuses added
    (a bard's +2, W4-CLASS-07); a general within 12" lends his own (W4-GEN-03/04)."""
    if not state.characters:
        return unit_courage(unit)
    from warhost.rulesets.dnd4e_war.general import lent_courage

    return unit_courage(unit, lent_courage(state, unit)) + classes.courage_bonus_from(state, unit)


# ---------------------------------------------------------------------- the test
def immune(state: WarState, unit: Unit, kind: str) -> str | None:
    """Why ``unit`` passes a ``kind`` test without rolling, or None: fearless passes all
    (W4-IMMUNE-01); immune to psychology passes panic, fear and terror (W4-IMMUNE-03); with
    the option ``fear_causers_immune`` a fear causer ignores fear and a terror causer both
    (W4-AMB-43)."""
    if unit.rule("fearless"):
        return "fearless"
    if kind in PSYCHOLOGY and unit.rule("immune_to_psychology"):
        return "immune_to_psychology"
    own = causes(unit, state)
    if state.options.fear_causers_immune and (own == "terror" and kind in ("fear", "terror")
                                              or own == "fear" and kind == "fear"):
        return f"causes {own}"
    return None


def passes(die: int, bonus: int, dc: int, natural_20_only: bool = False) -> bool:
    """W4-AMB-42: d20 + bonus >= DC; W4-FEAR-09: only a natural 20 when so bound."""
    if natural_20_only:
        return die == 20
    return die + bonus >= dc


def courage_test(state: WarState, battle: Battle, unit: Unit, dc: int, why: str, rule: str,
                 kind: str = "courage", natural_20_only: bool = False) -> bool:
    """W4-COUR-01: d20 + bonus >= DC passes (W4-AMB-42). ``kind`` is one of ``rally``,
    ``panic``, ``fear``, ``terror``, ``break``, ``courage``; fearless and immune units pass
    the tests their rule covers (W4-IMMUNE). A failure within 12" of the army's battle
    standard may be re-rolled once, at the owner's choice (W4-CMD-09, W4-DEC-28); with a
    cleric or invoker in the unit it is re-rolled at once instead (W4-CLASS-09/12). Emits
    ``courage_test`` (and ``courage_reroll`` or ``class_reroll``), or ``courage_immune``."""
    reason = immune(state, unit, kind)
    if reason is not None:
        battle.emit("courage_immune", unit=unit.id, kind=kind, dc=dc, reason=reason,
                    rule=rule)
        return True
    bonus = courage_bonus(state, unit)
    die = battle.dice.draw(20, why)
    if state.characters:  # W4-AP-01: a character with the unit may change the die
        die = _spend_on(state, battle, unit, die, bonus, dc, natural_20_only, why)
    passed = passes(die, bonus, dc, natural_20_only)
    _emit_test(False, battle, unit, kind, dc, die, bonus, passed, rule, natural_20_only)
    if passed:
        return True
    priest = classes.courage_reroll(state, unit)
    if priest is not None:
        return _class_reroll(battle, unit, kind, dc, bonus, why, natural_20_only, *priest)
    bearer = battle_standard_near(state, unit)
    if bearer is None or not _wants_reroll(battle, unit, kind, dc, die + bonus, bearer):
        return False
    die = battle.dice.draw(20, why + " (battle standard re-roll)")
    if state.characters:
        die = _spend_on(state, battle, unit, die, bonus, dc, natural_20_only, why)
    passed = passes(die, bonus, dc, natural_20_only)
    _emit_test(True, battle, unit, kind, dc, die, bonus, passed, "W4-CMD-09",
               natural_20_only)
    return passed


def _spend_on(state: WarState, battle: Battle, unit: Unit, die: int, bonus: int, dc: int,
              natural_20_only: bool, why: str) -> int:
    from warhost.rulesets.dnd4e_war.action_points import modify_die

    return modify_die(state, battle, unit, die, 20,
                      lambda face: passes(face, bonus, dc, natural_20_only), why, "courage")


def _emit_test(reroll: bool, battle: Battle, unit: Unit, kind: str, dc: int, die: int,
               bonus: int, passed: bool, rule: str, natural_20_only: bool) -> None:
    battle.emit("courage_reroll" if reroll else "courage_test", unit=unit.id, kind=kind, dc=dc, die=die, bonus=bonus,
                total=die + bonus, passed=passed, rule=rule,
                natural_20_only=natural_20_only)


def _class_reroll(battle: Battle, unit: Unit, kind: str, dc: int, bonus: int, why: str,
                  natural_20_only: bool, priest: Character, rule: str) -> bool:
    """W4-CLASS-09/12: the cleric's or invoker's re-roll of a failed check, taken at once (it
    cannot make things worse) and kept whatever it shows; it is the test's one re-roll."""
    die = battle.dice.draw(20, why + " (re-roll)")
    passed = passes(die, bonus, dc, natural_20_only)
    battle.emit("class_reroll", unit=unit.id, character=priest.id, kind=kind, dc=dc, die=die,
                bonus=bonus, total=die + bonus, passed=passed, rule=rule)
    return passed


def _wants_reroll(battle: Battle, unit: Unit, kind: str, dc: int, total: int,
                  bearer: Unit) -> bool:
    """W4-DEC-28: the owner re-rolls the failed test or accepts it."""
    order = battle.ask(unit.side, "reroll", (REROLL, ACCEPT),
                       f"{unit.label()} failed a {kind} test ({total} against DC {dc}); the "
                       f"battle standard of {bearer.label()} is near: re-roll or accept?",
                       subject=unit.id, default=REROLL)
    return order == REROLL


def battle_standard_near(state: WarState, unit: Unit) -> Unit | None:
    """W4-CMD-09/10: an allied unit whose battle standard (still carried) is within 12"
    of ``unit``, measured from the bearer's company (skirmishers: any model)."""
    for flag in _battle_standards(state):
        bearer = standard_bearer(state, flag) if flag.battle_standard else None
        if bearer is None or bearer.side != unit.side:
            continue
        trays = bearer.trays()
        if bearer.command_slot is not None and bearer.command_slot < len(trays):
            trays = [trays[bearer.command_slot]]
        if _gap(trays, _shapes(unit)) <= BATTLE_STANDARD_RANGE + 1e-9:
            return bearer
    return None


def _battle_standards(state: WarState) -> list[Unit]:
    """The units that started with a battle standard, found once per battle."""
    found = state.extra.get("battle_standards")
    if not isinstance(found, list):
        found = [u.id for u in state.units.values() if u.battle_standard]
        state.extra["battle_standards"] = found
    return [state.units[uid] for uid in found]


# ---------------------------------------------------------------------- distances
def _shapes(unit: Unit) -> list[Tray]:
    """The unit's trays, or its frame once its last models are gone (W4-AMB-22 measures a
    destroyed unit where it stood)."""
    return unit.trays() or [unit.frame()]


def _gap(a: Sequence[Tray], b: Sequence[Tray]) -> float:
    count(GEOMETRY, len(a) * len(b))
    return min(tray_gap(s, t) for s in a for t in b)


def within(unit: Unit, other: Unit, reach: float) -> bool:
    """True when the closest points of the two units are ``reach`` inches apart or less
    (W4-MEAS-03); the frames rule most pairs out cheaply."""
    count(GEOMETRY)
    if tray_gap(unit.frame(), other.frame()) > reach + 1e-9:
        return False
    return _gap(_shapes(unit), _shapes(other)) <= reach + 1e-9


def near(state: WarState, unit: Unit, units: Iterable[Unit],
         reach: float = NEAR) -> list[Unit]:
    """Those of ``units`` (living, not ``unit``) within ``reach`` of ``unit``."""
    return [u for u in units if u.id != unit.id and u.alive and within(unit, u, reach)]


def allies_of(state: WarState, unit: Unit, reach: float = NEAR) -> list[Unit]:
    """Living units of the unit's side, itself excluded, that may stand within ``reach``
    (a superset, from the state's index of where units stand)."""
    return [u for u in state.units_near(unit, reach) if u.side == unit.side]


# ---------------------------------------------------------------------- panic
def fleeing_companies(unit: Unit) -> int:
    """W4-AMB-24: a fleeing unit's companies (skirmishers: every 4 models, rounded up)."""
    if unit.skirmish:
        return -(-unit.models // SKIRMISH_COMPANY)
    return len(unit.companies)


def panic_modifiers(state: WarState, unit: Unit) -> int:
    """W4-PANIC-07, W4-AMB-24: +2 per fleeing allied company within 6" beyond the first;
    +2 when an enemy unit of higher unit strength is within 6"."""
    fleeing = sum(fleeing_companies(u) for u in near(
        state, unit, (a for a in allies_of(state, unit) if a.fleeing)))
    modifier = PANIC_MODIFIER * max(0, fleeing - 1)
    strength = unit.strength()
    if any(e.side != unit.side and e.strength() > strength and within(unit, e, NEAR)
           for e in state.units_near(unit, NEAR)):
        modifier += PANIC_MODIFIER
    return modifier


def panic_dc(state: WarState, unit: Unit, dc: int, shooting: bool = False) -> int:
    """The DC of a panic test whose trigger sets ``dc`` (13; shooting 10 + 2 per company
    worth): the situational modifiers added (W4-PANIC-07); a stubborn unit ignores every
    modifier, 13 or 12 for shooting (W4-IMMUNE-04/05, W4-AMB-25)."""
    if unit.rule("stubborn") or classes.stubborn_from_bard(state, unit):
        return STUBBORN_SHOOTING_DC if shooting else PANIC_DC
    return dc + panic_modifiers(state, unit)


def shooting_dc(unit: Unit, casualties: int) -> int:
    """W4-PANIC-07/08: 10 + 2 per full company worth of casualties (rounded down)."""
    return SHOOTING_PANIC_DC + PANIC_MODIFIER * (casualties // unit.full_company())


def panic(state: WarState, battle: Battle, unit: Unit, dc: int, causes: list[Unit], why: str,
          rule: str) -> bool:
    """A panic test (at most one a phase, W4-PANIC-06); on a failure the unit falls back
    away from ``causes`` (W4-PANIC-09). ``dc`` is the trigger's DC before the situational
    modifiers, which are added here (see :func:`panic_dc`; a shooting test names
    ``W4-PANIC-02``). Fleeing units do not test. Returns True when the unit stands (False
    for a unit already fleeing)."""
    from warhost.rulesets.dnd4e_war import movement

    return _panic(state, battle, unit, dc, why, rule,
                  lambda: movement.away_from(state, unit, causes))


def flee_through(state: WarState, battle: Battle, unit: Unit, heading: float) -> bool:
    """W4-FLEE-08, W4-PANIC-05, W4-AMB-90: an ally fled through ``unit``, which takes a
    DC 13 panic test and on a failure falls back along the ally's ``heading``."""
    return _panic(state, battle, unit, PANIC_DC, "panic: an ally flees through",
                  "W4-PANIC-05", lambda: heading)


def _panic(state: WarState, battle: Battle, unit: Unit, dc: int, why: str, rule: str,
           heading: Callable[[], float]) -> bool:
    from warhost.rulesets.dnd4e_war import movement

    if not unit.alive or unit.fleeing:
        return not unit.fleeing
    if unit.id in state.panic_tested:
        return True  # W4-AMB-21: the first trigger of the phase is the one tested
    state.panic_tested.add(unit.id)
    final = panic_dc(state, unit, dc, shooting=rule == SHOOTING_PANIC)
    if courage_test(state, battle, unit, final, why, rule, "panic"):
        return True
    movement.fall_back(state, battle, unit, heading(), "panic")
    return False


def shooting_cause(losses: dict[str, int]) -> str:
    """W4-AMB-10: the shooter that slew most; ties go to the one that fired last (the
    losses are kept in the order the shooters fired)."""
    best = max(losses.values())
    return [s for s, n in losses.items() if n == best][-1]


def after_shooting(state: WarState, battle: Battle, shooters: str) -> None:
    """Step 6 of W4-SHOOT-02: panic tests for the other side's units that lost a company's
    worth of models to ``shooters`` this phase (W4-SHOOT-22, W4-PANIC-02/07/08,
    W4-AMB-20)."""
    for target_id, by in list(state.shooting_losses.items()):
        target = state.units.get(target_id)
        if target is None or target.side == shooters:
            continue
        losses = {s: n for s, n in by.items() if n > 0 and state.units[s].side == shooters}
        total = sum(losses.values())
        if not losses or total < target.full_company():
            continue
        cause = state.units[shooting_cause(losses)]
        panic(state, battle, target, shooting_dc(target, total), [cause],
              f"panic: {total} casualties from shooting", SHOOTING_PANIC)


def unit_destroyed(state: WarState, battle: Battle, unit: Unit) -> None:
    """W4-PANIC-03, W4-AMB-22: allies within 6" of ``unit`` (just destroyed, measured where
    it stood) test at DC 13, fleeing away from it."""
    for ally in near(state, unit, allies_of(state, unit)):
        panic(state, battle, ally, PANIC_DC, [unit], f"panic: {unit.label()} destroyed",
              "W4-PANIC-03")


def fled_from_combat(state: WarState, battle: Battle, unit: Unit, fight: list[str]) -> None:
    """W4-PANIC-04, W4-AMB-23: allies within 6" of ``unit``, not in ``fight``, test at
    DC 13, fleeing away from it."""
    others = (a for a in allies_of(state, unit) if a.id not in fight)
    for ally in near(state, unit, others):
        panic(state, battle, ally, PANIC_DC, [unit],
              f"panic: {unit.label()} flees from combat", "W4-PANIC-04")


# ---------------------------------------------------------------------- fear and terror
def causes(unit: Unit, state: WarState | None = None) -> str | None:
    """W4-FEAR-01: ``terror``, ``fear`` or None (given the ``state``, a druid in beast form
    makes his unit cause fear, W4-CLASS-10)."""
    if unit.rule("terror"):
        return "terror"
    if unit.rule("fear") or (state is not None and classes.causes_fear(state, unit)):
        return "fear"
    return None


def fear_dc(causer: Unit, state: WarState | None = None) -> int:
    """W4-FEAR-05: 13 against fear, 16 against terror (0 when ``causer`` causes neither)."""
    kind = causes(causer, state)
    return TERROR_DC if kind == "terror" else FEAR_DC if kind == "fear" else 0


def fear_test(state: WarState, battle: Battle, unit: Unit, causer: Unit, why: str, rule: str,
              flee: bool = True) -> bool:
    """A fear or terror test against ``causer`` (W4-FEAR-02/03/05); a failure falls back
    directly away from it when ``flee`` (W4-FEAR-06; a would-be charger does not flee,
    W4-FEAR-07). True when passed, or when ``unit`` feels neither (:func:`felt_fear`)."""
    from warhost.rulesets.dnd4e_war import movement

    kind = felt_fear(state, causer, unit)
    if kind is None:
        return True
    if courage_test(state, battle, unit, fear_dc(causer, state), why, rule, kind):
        return True
    if flee:
        movement.fall_back(state, battle, unit, movement.away_from(state, unit, [causer]),
                           kind)
    return False


def felt_fear(state: WarState, causer: Unit, unit: Unit) -> str | None:
    """What ``causer`` makes ``unit`` feel: its fear or terror, or nothing when the option
    ``fear_causers_immune`` covers ``unit`` (W4-AMB-43)."""
    kind = causes(causer, state)
    own = causes(unit, state)
    if kind is None or (state.options.fear_causers_immune and own is not None
                        and FEAR_RANK[own] >= FEAR_RANK[kind]):
        return None
    return kind


def break_causer(state: WarState, winners: Iterable[Unit], loser: Unit) -> Unit | None:
    """W4-FEAR-08/09: the victor whose fear weighs on ``loser``'s break test: terror before
    fear, then the strongest (None when none is felt)."""
    felt = [(FEAR_RANK[kind], w.strength(), w) for w in winners
            if (kind := felt_fear(state, w, loser)) is not None]
    return max(felt, key=lambda t: (t[0], t[1]))[2] if felt else None


def break_dc(margin: int, causer: Unit | None, loser_strength: int,
             state: WarState | None = None) -> tuple[int, bool]:
    """W4-BREAK-01, W4-FEAR-08/09: a break test's DC (10 + margin, +2 against a fear-causing
    victor, +4 against terror) and whether only a natural 20 passes (the fear or terror
    causer's unit strength is higher than the loser's)."""
    dc = BREAK_BASE + margin
    kind = causes(causer, state) if causer is not None else None
    if causer is None or kind is None:
        return dc, False
    dc += TERROR_BREAK if kind == "terror" else FEAR_BREAK
    return dc, causer.strength() > loser_strength


def terror_tests(state: WarState, battle: Battle) -> None:
    """W4-FEAR-04/05/06, W4-AMB-44: each unit with a terror-causing enemy within 6" tests at
    DC 16, the side with the initiative first; a failure falls back away from the terror
    causers at once. Fleeing units do not test."""
    from warhost.rulesets.dnd4e_war import movement

    terrors = [u for u in state.units.values() if u.alive and u.rule("terror")]
    if not terrors:
        return
    for side in state.order_of_sides():
        for unit in list(state.units_of(side)):
            if unit.fleeing or not unit.alive:
                continue
            near_terror = near(state, unit, (t for t in terrors if t.side != side))
            if not near_terror:
                continue
            if courage_test(state, battle, unit, TERROR_DC, "terror at the start of the turn",
                            "W4-FEAR-04", "terror"):
                continue
            movement.fall_back(state, battle, unit,
                               movement.away_from(state, unit, near_terror), "terror")


# ---------------------------------------------------------------------- turn hooks
def start_of_turn(state: WarState, battle: Battle) -> None:
    """Right after the Initiative phase: druids take or leave beast form (W4-CLASS-10),
    ongoing damage (W4-AMB-56) and terror tests for units with a terror-causing enemy within
    6" (W4-FEAR-04, W4-AMB-44)."""
    state.panic_tested.clear()
    classes.start_of_turn(state, battle)
    ongoing_damage(state, battle)
    terror_tests(state, battle)


def ongoing_damage(state: WarState, battle: Battle) -> None:
    """W4-AMB-56: each unit suffering ongoing damage takes it now, initiative side first
    (W4-CAS-11 to 13 in :func:`casualties.ongoing_damage`)."""
    from warhost.rulesets.dnd4e_war import casualties

    for side in state.order_of_sides():
        for unit in list(state.units_of(side)):
            if unit.ongoing > 0:
                casualties.ongoing_damage(state, battle, unit, unit.ongoing)


def end_of_turn(state: WarState, battle: Battle) -> None:
    """The End of Turn phase: one saving throw per lasting effect for each unit, ongoing
    damage first (W4-CAS-10, W4-AMB-56)."""
    from warhost.rulesets.dnd4e_war import casualties

    for side in state.order_of_sides():
        for unit in list(state.units_of(side)):
            effects = (["ongoing"] if unit.ongoing else []) + sorted(unit.conditions & SAVE_ENDS)
            for effect in effects:
                casualties.saving_throw(battle, unit, effect)
