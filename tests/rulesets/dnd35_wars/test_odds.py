"""Exact odds of `dnd35-wars` (the exact-odds hook): every number is checked against an
independent brute-force enumeration of the dice written here, or against the real damage code
run over seeded dice."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_state,
    restorer,
    seeded_battle,
    single,
    unit,
    who,
)
from warhost.core.errors import WarhostError
from warhost.core.odds import OddsReport
from warhost.rulesets.dnd35_wars import damage
from warhost.rulesets.dnd35_wars.odds import (
    counters_removed,
    damage_roll_distribution,
    dice_distribution,
    hit_chances,
    morale_pass_chance,
    odds_on_state,
)
from warhost.rulesets.dnd35_wars.state import Single, Unit, WarState

# ------------------------------------------------------------------ independent enumeration

FIGHTER = creature("human fighter", hp=12, ac=18, touch_ac=11,
                   melee=[{"name": "longsword", "bonus": 3, "damage": "1d8", "crit_range": 19}],
                   ranged=[{"name": "shortbow", "bonus": 2, "damage": "1d6+2",
                            "crit_multiplier": 3, "range_increment": 60}])
ORC = creature("orc warrior", hp=5, ac=13, touch_ac=10,
               melee=[{"name": "falchion", "bonus": 4, "damage": "2d4+4", "crit_range": 18}])


def faces(expr_dice: list[int]) -> Any:
    """Every face combination of the listed dice (sides)."""
    return itertools.product(*(range(1, s + 1) for s in expr_dice))


def brute(bonus: int, ac: int, dice: list[int], flat: int, *, crit_range: int = 20,
          crit_mult: int = 2, crits: bool = True) -> dict[tuple[bool, int], Fraction]:
    """(hit, damage of the roll) over every attack die, confirmation die and damage face;
    a miss is (False, 0)."""
    out: dict[tuple[bool, int], Fraction] = {}
    combos = list(faces(dice))
    weight = Fraction(1, 400 * len(combos))
    for d20, confirm in itertools.product(range(1, 21), range(1, 21)):
        hit = d20 == 20 or (d20 != 1 and d20 + bonus >= ac)
        if not hit:
            out[(False, 0)] = out.get((False, 0), Fraction(0)) + weight * len(combos)
            continue
        crit = crits and d20 >= crit_range and (
            confirm == 20 or (confirm != 1 and confirm + bonus >= ac))
        for combo in combos:
            rolled = max(1, sum(combo) + flat) * (crit_mult if crit else 1)
            out[(True, rolled)] = out.get((True, rolled), Fraction(0)) + weight
    return out


def outcomes_from(table: dict[tuple[bool, int], Fraction], key: Callable[[int], str]
                  ) -> dict[str, Fraction]:
    """success/failure and the result of each hit by ``key`` of its damage roll."""
    out: dict[str, Fraction] = {"success": Fraction(0), "failure": Fraction(0)}
    for (hit, rolled), p in table.items():
        if not hit:
            out["failure"] += p
            continue
        out["success"] += p
        name = key(rolled)
        out[name] = out.get(name, Fraction(0)) + p
    return out


def check_report(report: OddsReport, expected: dict[str, Fraction]) -> None:
    got = {k: v for k, v in report.outcomes.items() if v}
    assert got == {k: v for k, v in expected.items() if v}
    assert sum(report.partition().values()) == 1


def _lines(state: WarState, a: str = "fighters", b: str = "orcs") -> tuple[Any, Any]:
    return get(state, a), get(state, b)


def fighters_and_orcs(options: dict[str, Any] | None = None, **orc_fields: Any) -> WarState:
    """The seed's fighter unit (W35-UNIT-10: 100 fighters, 10 counters) in a 5 x 2 block, its
    front touching a line of 8 orc counters along 5 squares (5 in contact)."""
    return make_state([unit("fighters", squares=block(0, 0, 5, 2), count=100, creature=FIGHTER),
                       unit("orcs", "B", squares=block(0, 2, 5, 1) + block(0, 3, 3, 1),
                            count=80, creature=orc_fields.pop("creature", ORC), **orc_fields)],
                      options=options)


# ------------------------------------------------------------------ the attack roll


@pytest.mark.rule("W35-COMBAT-03", "W35-GEN-02", "W35-GEN-03", "W35-AMB-89")
def test_hit_and_critical_chances_of_plus_3_against_ac_18() -> None:
    plain = hit_chances(3, 18)
    assert plain.hit == Fraction(6, 20)  # naturals 15..20
    assert plain.crit == Fraction(1, 20) * Fraction(6, 20)
    keen = hit_chances(3, 18, crit_range=19)
    assert keen.crit == Fraction(2, 20) * Fraction(6, 20) == Fraction(3, 100)
    assert hit_chances(3, 18, crit_range=19, crit_ok=False).crit == 0
    for bonus, ac in itertools.product(range(-5, 25), range(5, 30)):
        hits = [n for n in range(1, 21) if n == 20 or (n != 1 and n + bonus >= ac)]
        assert hit_chances(bonus, ac).hit == Fraction(len(hits), 20)


@pytest.mark.rule("W35-GEN-02")
def test_a_natural_20_always_hits_and_a_natural_1_always_misses() -> None:
    assert hit_chances(0, 40).hit == Fraction(1, 20)
    assert hit_chances(50, 5).hit == Fraction(19, 20)


@pytest.mark.rule("W35-GEN-03", "W35-AMB-89")
def test_a_threat_outside_the_hit_range_is_no_critical() -> None:
    # +0 against AC 25 hits only on a natural 20, and the confirmation hits on 20 too
    assert hit_chances(0, 25, crit_range=19).crit == Fraction(1, 20) * Fraction(1, 20)


def test_damage_dice_are_enumerated_exactly() -> None:
    dist = dice_distribution("2d4+4")
    expected: dict[int, Fraction] = {}
    for a, b in faces([4, 4]):
        expected[a + b + 4] = expected.get(a + b + 4, Fraction(0)) + Fraction(1, 16)
    assert dist == expected
    assert dice_distribution("7") == {7: Fraction(1)}
    assert dice_distribution("1d6-1d4") == {
        v: Fraction(sum(1 for a, b in faces([6, 4]) if a - b == v), 24) for v in range(-3, 6)}
    # a roll is never below 1 (standard 3.5, as the damage code rolls it)
    assert damage_roll_distribution("1d4-2") == {1: Fraction(3, 4), 2: Fraction(1, 4)}
    assert damage_roll_distribution("1d4", 3) == {3 * k: Fraction(1, 4) for k in range(1, 5)}


# ------------------------------------------------------------------ unit against unit


@pytest.mark.rule("W35-UNIT-10", "W35-DMG-02", "W35-UNIT-12", "W35-UNIT-13", "W35-AMB-89")
def test_the_seed_fighters_attack_orcs_in_melee() -> None:
    state = fighters_and_orcs()
    fighters, orcs = _lines(state)
    assert (fighters.start_hp, fighters.counter_hp) == (120, 12)  # W35-UNIT-10 / W35-AMB-01
    report = odds_on_state(state, fighters, orcs, {"kind": "melee"})
    assert report.details["bonus"] == 3 and report.details["ac"] == 13
    table = brute(3, 13, [8], 0, crit_range=19)
    # 5 counters share a side with the orcs; the orcs have 40 HP in counters of 5
    check_report(report, outcomes_from(
        table, lambda r: f"counters_{8 - math.ceil(max(0, 40 - 5 * r) / 5)}"))
    assert report.outcomes["success"] == Fraction(11, 20)
    assert Fraction(report.details["critical"]["fraction"]) == Fraction(2, 20) * Fraction(11, 20)


@pytest.mark.rule("W35-UNIT-12", "W35-UNIT-13")
def test_counters_removed_count_from_the_current_hit_points() -> None:
    assert counters_removed(8, 40, 5, 4) == 0
    assert counters_removed(8, 37, 5, 3) == 1  # 34 HP left: ceil(34 / 5) = 7
    assert counters_removed(8, 37, 5, 1) == 0  # 36: the 1 HP is carried over, still 8
    assert counters_removed(8, 37, 5, 2) == 1  # 35: exactly 7 counters
    assert counters_removed(3, 12, 5, 99) == 3
    state = fighters_and_orcs()
    fighters, orcs = _lines(state)
    orcs.hp = 36  # 4 HP already carried over, 8 counters still on the map
    report = odds_on_state(state, fighters, orcs, {"multiplier": 1})
    check_report(report, outcomes_from(
        brute(3, 13, [8], 0, crit_range=19),
        lambda r: f"counters_{8 - math.ceil(max(0, 36 - r) / 5)}"))


@pytest.mark.rule("W35-UATK-04", "W35-AMB-82", "W35-MULTI-03")
def test_charge_free_attack_and_flanking_add_2() -> None:
    state = fighters_and_orcs()
    fighters, orcs = _lines(state)
    for situation in ({"kind": "charge"}, {"kind": "free"}, {"flanked": True}):
        assert odds_on_state(state, fighters, orcs, situation).details["bonus"] == 5
    both = odds_on_state(state, fighters, orcs, {"kind": "charge", "flanked": "yes"})
    assert both.outcomes["success"] == Fraction(15, 20)  # +7 against AC 13


@pytest.mark.rule("W35-MULTI-04")
def test_flank_immune_units_get_no_flanking_penalty() -> None:
    state = fighters_and_orcs(creature=dict(ORC, flank_immune=True))
    fighters, orcs = _lines(state)
    assert odds_on_state(state, fighters, orcs, {"flanked": True}).details["bonus"] == 3


@pytest.mark.rule("W35-MOB-02")
def test_a_mob_cannot_be_flanked() -> None:
    state = fighters_and_orcs(mob=True)
    fighters, orcs = _lines(state)
    assert odds_on_state(state, fighters, orcs, {"flanked": True}).details["bonus"] == 3


@pytest.mark.rule("W35-STAT-07")
def test_sneak_attack_dice_join_a_flanking_roll_unmultiplied_by_the_critical() -> None:
    rogues = dict(FIGHTER, feats=["sneak attack 2"])
    state = make_state([unit("fighters", squares=block(0, 0, 5, 2), count=100, creature=rogues),
                        unit("orcs", "B", squares=block(0, 2, 5, 1) + block(0, 3, 3, 1),
                             count=80, creature=dict(ORC, hp=50))])
    fighters, orcs = _lines(state)
    report = odds_on_state(state, fighters, orcs, {"flanked": True, "multiplier": 1})
    table = brute(5, 13, [8], 0, crit_range=19)
    expected: dict[int, Fraction] = {}
    for (hit, rolled), p in table.items():
        if not hit:
            expected[0] = expected.get(0, Fraction(0)) + p
            continue
        for a, b in faces([6, 6]):
            expected[rolled + a + b] = expected.get(rolled + a + b, Fraction(0)) + p / 36
    got = {int(k): Fraction(v["fraction"]) for k, v in report.details["hp_lost"].items()}
    assert got == expected
    plain = odds_on_state(state, fighters, orcs, {"multiplier": 1})
    assert max(int(k) for k in plain.details["hp_lost"]) == 16


@pytest.mark.rule("W35-ABIL-08")
def test_mundane_weapons_cannot_hurt_immune_units() -> None:
    state = fighters_and_orcs(creature=dict(ORC, mundane_immune=True))
    report = odds_on_state(state, *_lines(state), {})
    assert report.outcomes["counters_0"] == report.outcomes["success"] > 0
    assert any("W35-ABIL-08" in n for n in report.notes)


@pytest.mark.rule("W35-AMB-88")
def test_dr_comes_off_each_roll_before_the_multiplier() -> None:
    state = fighters_and_orcs(creature=dict(ORC, dr=3))
    fighters, orcs = _lines(state)
    report = odds_on_state(state, fighters, orcs, {"multiplier": 5})
    check_report(report, outcomes_from(
        brute(3, 13, [8], 0, crit_range=19),
        lambda r: f"counters_{8 - math.ceil(max(0, 40 - 5 * max(0, r - 3)) / 5)}"))


@pytest.mark.rule("W35-AMB-89")
def test_no_criticals_against_crit_immune_units_or_without_unit_crits() -> None:
    immune = fighters_and_orcs(creature=dict(ORC, crit_immune=True))
    off = fighters_and_orcs(options={"unit_crits": False})
    expected = outcomes_from(brute(3, 13, [8], 0, crits=False),
                             lambda r: f"counters_{8 - math.ceil(max(0, 40 - 5 * r) / 5)}")
    for state in (immune, off):
        report = odds_on_state(state, *_lines(state), {})
        assert report.details["critical"]["fraction"] == "0"
        check_report(report, expected)


@pytest.mark.rule("W35-DMG-05", "W35-UATK-12")
def test_arcing_fire_is_capped_by_the_smaller_unit() -> None:
    state = make_state([unit("fighters", squares=block(0, 0, 5, 2), count=100, creature=FIGHTER),
                        unit("orcs", "B", squares=block(0, 6, 4, 1), count=40, creature=ORC)])
    fighters, orcs = _lines(state)
    report = odds_on_state(state, fighters, orcs, {"kind": "ranged", "range_feet": 130})
    # 130 ft with a 60-ft increment: 3 increments, −4; x min(10, 4)
    assert report.details["bonus"] == 2 - 4
    check_report(report, outcomes_from(
        brute(-2, 13, [6], 2, crit_mult=3),
        lambda r: f"counters_{4 - math.ceil(max(0, 20 - 4 * r) / 5)}"))
    limited = odds_on_state(state, fighters, orcs, {"kind": "ranged", "multiplier": 2})
    assert limited.details["hp_lost"]["6"]["fraction"] != "0"  # roll 3 x 2 counters


@pytest.mark.rule("W35-DMG-07", "W35-AMB-34")
def test_crossbows_multiply_by_their_shooting_counters_uncapped() -> None:
    xbow = dict(FIGHTER, ranged=[{"name": "crossbow", "bonus": 2, "damage": "1d8",
                                  "range_increment": 80, "crossbow": True}])
    highest = []
    for cap in (False, True):
        state = make_state([unit("fighters", squares=block(0, 0, 5, 2), count=100,
                                 creature=xbow),
                            unit("orcs", "B", squares=block(0, 6, 4, 1), count=40,
                                 creature=dict(ORC, hp=30))],
                           options={"crossbow_cap_by_target": cap})
        report = odds_on_state(state, *_lines(state), {"kind": "crossbow", "multiplier": 6,
                                                       "range_feet": 60})
        highest.append(max(int(k) for k in report.details["hp_lost"]))
    # a critical 16 on each of 6 shooting counters, or capped at the target's 4 counters
    assert highest == [6 * 16, 4 * 16]


# ------------------------------------------------------------------ the other pathways


def _pc_among_orcs() -> WarState:
    around = [(x, y) for x in range(4, 7) for y in range(4, 7) if (x, y) != (5, 5)]
    return make_state([unit("orcs", "B", squares=around, count=80, creature=ORC)],
                      singles=[single("hero", "A", "monster", at=(5, 5))])


@pytest.mark.rule("W35-DMG-09", "W35-DMG-10", "W35-DMG-11", "W35-AMB-31")
def test_a_unit_surrounding_a_creature_strikes_with_eight_at_plus_2() -> None:
    state = _pc_among_orcs()
    report = odds_on_state(state, get(state, "orcs"), who(state, "hero"), {})
    assert report.details["bonus"] == 4 + 2
    # the hero has 40 HP and AC 18: a roll of r deals 8r
    check_report(report, outcomes_from(brute(6, 18, [4, 4], 4, crit_range=18),
                                       lambda r: "falls" if 8 * r >= 40 else "stands"))
    fewer = odds_on_state(state, get(state, "orcs"), who(state, "hero"),
                          {"attackers": 3, "flanked": False})
    check_report(fewer, outcomes_from(brute(4, 18, [4, 4], 4, crit_range=18),
                                      lambda r: "falls" if 3 * r >= 40 else "stands"))


@pytest.mark.rule("W35-DMG-12", "W35-AMB-32")
def test_a_unit_shoots_a_creature_with_the_creatures_of_its_facing_sides() -> None:
    state = make_state([unit("fighters", squares=block(0, 0, 5, 2), count=100,
                             creature=FIGHTER)],
                       singles=[single("hero", "B", "monster", at=(2, 5))])
    fighters, hero = get(state, "fighters"), who(state, "hero")
    report = odds_on_state(state, fighters, hero, {"ranged": True})
    # 5 front counters each show the hero one exposed side: 5 x 3 creatures (sqrt 10)
    assert report.details["attackers"] == 15 and report.details["flanked"] is False
    # 4 squares = 60 ft: the first increment, no penalty
    assert report.details["bonus"] == 2
    check_report(report, outcomes_from(brute(2, 18, [6], 2, crit_mult=3),
                                       lambda r: "falls" if 15 * r >= 40 else "stands"))


@pytest.mark.rule("W35-DMG-13", "W35-DMG-14", "W35-AMB-09")
def test_a_creature_hitting_a_unit_divides_by_the_creatures_per_counter() -> None:
    # 51 creatures in 6 counters: 8.5 a counter
    state = make_state([unit("elves", "B", squares=block(0, 0, 3, 2), count=51,
                             creature=creature("elf", hp=6, ac=15))],
                       singles=[single("ogre", "A", "monster", at=(0, 4), creature=creature(
                           "ogre", hp=29, ac=16,
                           melee=[{"name": "club", "bonus": 8, "damage": "2d8+7"}]))])
    elves = get(state, "elves")
    report = odds_on_state(state, who(state, "ogre"), elves, {})
    check_report(report, outcomes_from(
        brute(8, 15, [8, 8], 7),
        lambda r: f"counters_{6 - math.ceil((36 - int(Fraction(r) / Fraction(17, 2))) / 6)}"))
    assert elves.hp == 36 and max(int(k) for k in report.details["hp_lost"]) == 46 * 2 // 17


@pytest.mark.rule("W35-DMG-13", "W35-DMG-14", "W35-AMB-30")
def test_a_counter_of_more_creatures_than_the_damage_takes_nothing() -> None:
    state = _pc_among_orcs()
    orcs, hero = get(state, "orcs"), who(state, "hero")
    report = odds_on_state(state, hero, orcs, {})
    # +9 against AC 13, 1d8+3 (crit 19-20) over 10 orcs a counter: 4..11 -> 0 or 1
    check_report(report, outcomes_from(
        brute(9, 13, [8], 3, crit_range=19),
        lambda r: f"counters_{8 - math.ceil((40 - r // 10) / 5)}"))
    table = brute(9, 13, [8], 3, crit_range=19)
    nothing = sum((p for (hit, r), p in table.items() if hit and r < 10), Fraction(0))
    unharmed = Fraction(report.details["hp_lost"]["0"]["fraction"])
    assert unharmed - report.outcomes["failure"] == nothing > Fraction(1, 2)
    assert odds_on_state(state, hero, orcs, {"kind": "charge"}).details["bonus"] == 11
    assert odds_on_state(state, hero, orcs, {"charge": True}).details["bonus"] == 11


@pytest.mark.rule("W35-DMG-15", "W35-AMB-14")
def test_a_creature_against_a_creature_takes_full_damage_and_averages_are_constant() -> None:
    brute_beast = creature("beast", hp=30, ac=14, melee=[
        {"name": "bite", "bonus": 7, "damage": "1d8+4"},
        {"name": "claw", "bonus": 4, "damage": "1d4+2"}])
    state = make_state([], singles=[single("beast", "A", "monster", at=(0, 0),
                                           creature=brute_beast),
                                    single("hero", "B", "monster", at=(0, 1))])
    report = odds_on_state(state, who(state, "beast"), who(state, "hero"), {})
    # averaged: bonus floor((7 + 4) / 2) = 5; damage floor((8.5 + 4.5) / 2) = 6, not rolled
    assert report.details["bonus"] == 5 and report.details["damage_roll"] == {
        "6": {"fraction": "1", "probability": 1.0}}
    table = brute(5, 18, [], 6)
    check_report(report, outcomes_from(table, lambda r: "falls" if r >= 40 else "stands"))
    assert report.outcomes["falls"] == 0
    weak = copy.deepcopy(state)
    who(weak, "hero").hp = 12
    hurt = odds_on_state(weak, who(weak, "beast"), who(weak, "hero"), {})
    assert hurt.outcomes["falls"] == table[(True, 12)]  # only a confirmed critical (6 x 2)


# ------------------------------------------------------------------ morale


@pytest.mark.rule("W35-MORALE-02", "W35-AMB-15")
def test_morale_pass_chance_with_and_without_natural_rolls() -> None:
    for modifier, dc in itertools.product(range(-25, 25), range(1, 30)):
        totals = [n for n in range(1, 21) if n + modifier >= dc]
        natural = [n for n in range(1, 21) if n == 20 or (n != 1 and n + modifier >= dc)]
        assert morale_pass_chance(modifier, dc, natural_rolls=False) == Fraction(len(totals), 20)
        assert morale_pass_chance(modifier, dc) == Fraction(len(natural), 20)
    assert morale_pass_chance(-4, 20) == Fraction(1, 20)  # rallying stays possible


@pytest.mark.rule("W35-MORALE-02", "W35-MORALE-03", "W35-AMB-15")
def test_the_morale_report_uses_the_trigger_dc_and_the_option() -> None:
    state = fighters_and_orcs()
    fighters, orcs = _lines(state)
    m = orcs.morale
    report = odds_on_state(state, fighters, orcs, {"kind": "morale", "trigger": "half_hp"})
    assert report.details["dc"] == 15
    assert report.outcomes["success"] == morale_pass_chance(m, 15)
    given = odds_on_state(state, fighters, orcs, {"kind": "morale", "dc": 30, "modifier": 2})
    assert given.outcomes["success"] == Fraction(1, 20)
    plain = fighters_and_orcs(options={"morale_natural_rolls": False})
    none = odds_on_state(plain, *_lines(plain), {"kind": "morale", "dc": 30, "modifier": 2})
    assert none.outcomes["success"] == 0


@pytest.mark.rule("W35-MORALE-04", "W35-MORALE-08")
def test_a_rally_check_is_dc_20_and_fleeing() -> None:
    state = fighters_and_orcs()
    fighters, orcs = _lines(state)
    rally = odds_on_state(state, fighters, orcs, {"kind": "morale", "trigger": "rally"})
    assert rally.details["dc"] == 20 and rally.details["modifier"] == orcs.morale - 4
    assert rally.outcomes["success"] == morale_pass_chance(orcs.morale - 4, 20)


@pytest.mark.rule("W35-DMG-08")
def test_a_creature_inside_its_own_sides_unit_is_no_target() -> None:
    state = make_state([unit("fighters", squares=block(0, 0, 5, 2), count=100,
                             creature=FIGHTER),
                        unit("orcs", "B", squares=block(0, 2, 5, 1), count=50, creature=ORC)],
                       singles=[single("chief", "B", "npc", unit="orcs")])
    with pytest.raises(WarhostError, match="W35-DMG-08") as err:
        odds_on_state(state, get(state, "fighters"), who(state, "chief"), {})
    assert err.value.field == "defender"


def test_bad_situations_are_refused_by_name() -> None:
    state = fighters_and_orcs()
    fighters, orcs = _lines(state)
    for situation, field in (({"kind": "melle"}, "kind"), ({"multiplier": 11}, "multiplier"),
                             ({"kind": "morale", "trigger": "sad"}, "trigger"),
                             ({"bonus": "x"}, "bonus"), ({"kind": "single_vs_unit"}, "kind"),
                             ({"kind": "ranged", "charge": True}, "charge")):
        with pytest.raises(WarhostError) as err:
            odds_on_state(state, fighters, orcs, situation)
        assert err.value.field == field


# ------------------------------------------------------------------ against the real damage code



def _mean_and_sd(report: OddsReport) -> tuple[float, float]:
    dist = {int(k): float(v["probability"]) for k, v in report.details["hp_lost"].items()}
    mu = sum(v * p for v, p in dist.items())
    return mu, math.sqrt(sum((v - mu) ** 2 * p for v, p in dist.items()))


TRIALS = 2000



@pytest.mark.rule("W35-DMG-02", "W35-AMB-89", "W35-AMB-88")
def test_seeded_unit_attacks_match_the_exact_mean() -> None:
    state = fighters_and_orcs(creature=dict(ORC, dr=1))
    fighters, orcs = _lines(state)
    report = odds_on_state(state, fighters, orcs, {})
    mu, sd = _mean_and_sd(report)
    battle, restore, total = seeded_battle(state, 16), restorer(state, "orcs"), 0
    attack = fighters.melee
    assert attack is not None
    for _ in range(TRIALS):
        restore()
        roll = damage.roll_attack(battle, attack.bonus, orcs.ac, crit_range=attack.crit_range,
                                  crit_ok=damage.crits_allowed(state, fighters, orcs))
        if roll.hit:
            per = damage.roll_damage(battle, attack, roll.crit)
            total += damage.hit_unit(state, battle, orcs, per, 5, source="fighters",
                                     kind="melee", attacker=fighters)
    assert abs(total / TRIALS - mu) < 4 * sd / math.sqrt(TRIALS)


@pytest.mark.rule("W35-DMG-09", "W35-DMG-13")
def test_seeded_creature_pathways_match_the_exact_mean() -> None:
    state = _pc_among_orcs()
    orcs, hero = get(state, "orcs"), who(state, "hero")
    battle, restore = seeded_battle(state, 35), restorer(state, "orcs", "hero")
    def unit_strikes() -> int:
        return damage.unit_attacks_single(state, battle, orcs, hero, ranged=False)

    def hero_strikes() -> int:
        return damage.single_attacks_unit(state, battle, hero, orcs)

    cases: list[tuple[Unit | Single, Unit | Single, Callable[[], int]]] = [
        (orcs, hero, unit_strikes), (hero, orcs, hero_strikes)]
    for att, dfn, strike in cases:
        mu, sd = _mean_and_sd(odds_on_state(state, att, dfn, {}))
        total = 0
        for _ in range(TRIALS):
            restore()
            total += strike()
        assert abs(total / TRIALS - mu) < 4 * sd / math.sqrt(TRIALS)
