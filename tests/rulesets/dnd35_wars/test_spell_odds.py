"""Exact odds of one spell on a unit (`warhost odds --set spell=NAME`): the counters removed,
with one unit save and with proportional saves, checked against a brute-force enumeration of
every die written here and against the real damage code run over seeded dice."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import run
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    make_state,
    restorer,
    seeded_battle,
    single,
    unit,
)
from warhost.core.engine import Battle
from warhost.core.errors import WarhostError
from warhost.rulesets.dnd35_wars import areas, damage, magic, spellbook
from warhost.rulesets.dnd35_wars.odds import odds_on_state
from warhost.rulesets.dnd35_wars.state import Unit, WarState

SPARKS = {"name": "sparks", "level": 1, "effect": "damage", "range": "long",
          "area": {"shape": "circle", "feet": 10}, "save": "ref", "on_save": "half",
          "damage": "2d4"}
"""A small area spell: 2d4, Reflex half, a 10-ft radius (2 counters at 15 ft)."""

BOLT = {"name": "bolt", "level": 1, "effect": "damage", "range": "long", "save": "fort",
        "on_save": "negates", "damage": "1d6+2"}
"""A single-target damage spell, Fortitude negates."""

DAZE = {"name": "daze_cloud", "level": 1, "effect": "disable", "range": "long",
        "area": {"shape": "circle", "feet": 15}, "save": "will", "on_save": "negates",
        "duration": 2}

NAP = {"name": "nap", "level": 1, "effect": "hd", "range": "long",
       "area": {"shape": "circle", "feet": 10}, "save": "will", "on_save": "negates",
       "hit_dice": "1d4+2", "max_hd": 4}


def scene(*, counters: int = 5, per: int = 1, hp: int = 4, dr: int = 0, options: Any = None,
          spells: tuple[dict[str, Any], ...] = (SPARKS, BOLT, DAZE, NAP)) -> WarState:
    """A mage (monster, side A, DC 12 for every spell) and unit ``b`` of ``counters``
    counters, ``per`` creatures a counter (1: Huge, 2: Large, 10: Medium at 15 ft) of ``hp``
    HP, Reflex +2, Fortitude +1, Will 0."""
    mage = single("mage", "A", kind="monster", at=(2, 2), creature=creature(
        "mage", caster_level=3, spells=[{"spell": s["name"], "dc": 12} for s in spells]))
    target = unit("b", "B", squares=block(10, 10, counters, 1), count=counters * per,
                  creature=creature("orc", hp=hp, dr=dr, ref=2, fort=1, will=0,
                                    size={1: "huge", 2: "large", 10: "medium"}[per]))
    return make_state([unit("a", squares=[(0, 0)]), target], singles=[mage],
                      spells=list(spells), options=options)


def report_of(state: WarState, **situation: Any) -> dict[int, Fraction]:
    """The distribution of counters removed the odds report gives."""
    report = odds_on_state(state, state.singles["mage"], state.units["b"], situation)
    dist = {0: report.outcomes["failure"]}
    dist.update({int(k.removeprefix("counters_")): p for k, p in report.results.items()})
    return {k: p for k, p in dist.items() if p}


# ------------------------------------------------------------------ independent enumeration


def brute(state: WarState, *, dice: list[int], flat: int, hit: Fraction, bonus: int,
          on_save: str = "half", proportional: bool = False, divide: bool = False,
          dc: int = 12) -> dict[int, Fraction]:
    """Every d20 face and every face of every damage die, with the rule as written:
    per creature = roll (halved down on a save for half, none on negates) − DR; the unit
    loses floor(per × counters hit), or failing × full + saving × half (proportional: the
    failing percentage (DC − bonus − 1) × 5 within 5..95, of the counters, half up); a
    single target divides per by the creatures in a counter."""
    b = state.units["b"]
    dr, counters, hp, chp = b.dr, b.counters, b.hp, b.counter_hp
    out: dict[int, Fraction] = {}
    cases = list(product(range(1, 21), *[range(1, s + 1) for s in dice]))
    for d20, *faces in cases:
        roll = sum(faces) + flat
        saved = d20 == 20 or (d20 != 1 and d20 + bonus >= dc)
        full = max(0, roll - dr)
        half = max(0, roll // 2 - dr) if on_save == "half" else 0
        if proportional:
            pct = min(95, max(5, (dc - bonus - 1) * 5))
            failing = math.floor(Fraction(pct * int(hit), 100) + Fraction(1, 2))
            lost = failing * full + (int(hit) - failing) * half
        elif divide:
            lost = math.floor(Fraction(half if saved else full) / b.per_counter)
        else:
            lost = math.floor((half if saved else full) * hit)
        left = -(-(hp - min(lost, hp)) // chp)
        removed = counters - left
        out[removed] = out.get(removed, Fraction(0)) + Fraction(1, len(cases))
    return {k: p for k, p in out.items() if p}


@pytest.mark.rule("W35-MAGIC-09", "W35-MAGIC-10", "W35-AOE-02", "W35-AMB-54")
def test_one_unit_save_matches_brute_force() -> None:
    state = scene(dr=1)
    # a 10-ft circle at 15 ft: 2 counters; all save or all fail together
    assert report_of(state, spell="sparks") == brute(state, dice=[4, 4], flat=0,
                                                      hit=Fraction(2), bonus=2)


@pytest.mark.rule("W35-PROP-01", "W35-PROP-02", "W35-PROP-03", "W35-AMB-55")
def test_proportional_saves_match_brute_force() -> None:
    state = scene(counters=7, hp=5)
    # 5 counters given: (12 - 2 - 1) x 5 = 45% -> 2.25 -> 2 fail, 3 save for half
    got = report_of(state, spell="sparks", counters_hit=5, proportional=True)
    assert got == brute(state, dice=[4, 4], flat=0, hit=Fraction(5), bonus=2,
                        proportional=True)
    # the option turns it on as well
    on = scene(counters=7, hp=5, options={"proportional_saves": True})
    assert report_of(on, spell="sparks", counters_hit=5) == got
    # and both modes are in the details either way
    report = odds_on_state(state, state.singles["mage"], state.units["b"],
                           {"spell": "sparks", "counters_hit": 5})
    assert set(report.details) >= {"counters_removed_single_save",
                                   "counters_removed_proportional"}


@pytest.mark.rule("W35-AMB-55")
def test_below_one_counter_proportional_saves_use_one_save() -> None:
    state = scene()
    got = report_of(state, spell="sparks", counters_hit="1/2", proportional=True)
    assert got == brute(state, dice=[4, 4], flat=0, hit=Fraction(1, 2), bonus=2)


@pytest.mark.rule("W35-AMB-53")
def test_a_share_of_a_counter_scales_the_damage_or_is_drawn() -> None:
    state = scene(hp=3)
    half = report_of(state, spell="sparks", counters_hit="1/2")
    assert half == brute(state, dice=[4, 4], flat=0, hit=Fraction(1, 2), bonus=2)
    drawn = scene(hp=3, options={"aoe_fraction_mode": "probabilistic"})
    mixed = report_of(drawn, spell="sparks", counters_hit="1/2")
    whole = brute(drawn, dice=[4, 4], flat=0, hit=Fraction(1), bonus=2)
    expected = {k: p / 2 for k, p in whole.items()}
    expected[0] = expected.get(0, Fraction(0)) + Fraction(1, 2)
    assert mixed == expected
    rounded = scene(hp=3, options={"aoe_fraction_mode": "round_up"})
    assert report_of(rounded, spell="sparks", counters_hit="1/2") == whole


@pytest.mark.rule("W35-AOE-05")
def test_the_counters_hit_are_capped_at_the_unit_s() -> None:
    state = scene(counters=2)
    assert report_of(state, spell="sparks", counters_hit=9) == brute(
        state, dice=[4, 4], flat=0, hit=Fraction(2), bonus=2)


@pytest.mark.rule("W35-AMB-54")
def test_a_single_target_spell_is_divided_like_an_attack() -> None:
    state = scene(per=2, hp=2)
    assert report_of(state, spell="bolt") == brute(state, dice=[6], flat=2, hit=Fraction(1),
                                                    bonus=1, on_save="negates", divide=True)


@pytest.mark.rule("W35-MAGIC-10")
def test_a_disabling_area_takes_out_the_counters_that_fail() -> None:
    state = scene()
    p_fail = Fraction(sum(1 for n in range(1, 21) if n == 1 or (n != 20 and n < 12)), 20)
    # a 15-ft circle at 15 ft: 3 counters, taken out together on a failed Will save
    assert report_of(state, spell="daze_cloud") == {3: p_fail, 0: 1 - p_fail}
    # proportional: (12 - 0 - 1) x 5 = 55% of 3 = 1.65 -> 2
    assert report_of(state, spell="daze_cloud", proportional=True) == {2: Fraction(1)}


@pytest.mark.rule("W35-SPELL-14")
def test_hit_dice_become_counters_within_the_area() -> None:
    # 1d4+2 HD on 1-HD creatures at 2 a counter: 3 HD -> 1, 4-6 HD -> 2 or 3, capped at the
    # 2 counters of a 10-ft circle at 15 ft
    state = scene(per=2)
    p_fail = Fraction(11, 20)  # Will 0 against DC 12: 2..11 and the natural 1 fail
    by_roll = [1, 2, 2, 3]  # the counters of 3, 4, 5 and 6 HD
    expected: dict[int, Fraction] = {}
    for counters in by_roll:
        affected = min(counters, 2)
        expected[affected] = expected.get(affected, Fraction(0)) + p_fail / 4
        expected[0] = expected.get(0, Fraction(0)) + (1 - p_fail) / 4
    assert report_of(state, spell="nap") == expected


@pytest.mark.rule("W35-UCAST-12", "W35-AMB-59", "W35-UCAST-13")
def test_a_unit_s_area_covers_its_five_foot_squares_with_a_dc_per_caster() -> None:
    casters = unit("a", squares=block(0, 0, 3, 1), count=3, creature=creature(
        "adepts", size="huge", caster_level=3, spells=[{"spell": "sparks", "dc": 12}]))
    state = make_state([casters, unit("b", "B", squares=block(10, 10, 20, 1), count=20,
                                      creature=creature("orc", hp=30, ref=2, size="huge"))],
                       spells=[SPARKS])
    a, b = state.units["a"], state.units["b"]
    # a 10-ft circle covers 12 five-foot squares: 12 of b's 20 counters; 3 casters: DC 14
    report = odds_on_state(state, a, b, {"spell": "sparks"})
    assert report.details["counters_hit"] == {"12": {"fraction": "1", "probability": 1.0}}
    assert report.details["dc"] == 14
    got = {0: report.outcomes["failure"]} | {
        int(k.removeprefix("counters_")): p for k, p in report.results.items()}
    assert {k: p for k, p in got.items() if p} == brute(
        state, dice=[4, 4], flat=0, hit=Fraction(12), bonus=2, dc=14)
    one = odds_on_state(state, a, b, {"spell": "sparks", "casters": 1})
    assert one.details["dc"] == 12


def test_bad_spell_situations_are_refused() -> None:
    state = scene()
    mage, b = state.singles["mage"], state.units["b"]
    with pytest.raises(WarhostError, match="did you mean sparks"):
        odds_on_state(state, mage, b, {"spell": "sparkz"})
    with pytest.raises(WarhostError, match="counters_hit"):
        odds_on_state(state, mage, b, {"spell": "sparks", "counters_hit": "lots"})


# ------------------------------------------------------------------ seeded engine runs




TRIALS = 2000


def _check(exact: dict[int, Fraction], seen: list[int]) -> None:
    mu = float(sum(k * p for k, p in exact.items()))
    sd = math.sqrt(float(sum((k - mu) ** 2 * p for k, p in exact.items())))
    assert abs(sum(seen) / len(seen) - mu) <= 4 * sd / math.sqrt(len(seen)) + 1e-9
    for k, p in exact.items():  # every outcome's frequency too
        freq = seen.count(k) / len(seen)
        assert abs(freq - float(p)) <= 4 * math.sqrt(float(p * (1 - p)) / len(seen)) + 1e-9


def _engine_cast(state: WarState, battle: Battle, target: Unit, proportional: bool) -> None:
    """One cast of sparks on the unit through the engine's own pieces: the area's counters,
    the unit's save, the damage roll and damage.hit_unit (DR, pooled HP, counters)."""
    spell = spellbook.spell_of(state, "sparks")
    assert spell.area is not None
    hit = areas.counters_hit(areas.area_counters(spell.area, state.scale, state.options),
                             target.counters, state.options, battle)
    bonus = spellbook.save_bonus(target, "ref")
    roll = battle.dice.roll(spellbook.damage_expr(spell, 3) or "0", "sparks")
    if proportional:
        failing = areas.failing_counters(12, bonus, int(hit))
        damage.hit_unit(state, battle, target, roll, failing, source="mage", kind="area",
                        magic=True)
        damage.hit_unit(state, battle, target, roll // 2, int(hit) - failing, source="mage",
                        kind="area", magic=True)
        return
    saved = spellbook.unit_saves(battle, bonus, 12, "sparks save")
    damage.hit_unit(state, battle, target, roll // 2 if saved else roll, int(hit),
                    source="mage", kind="area", magic=True)


@pytest.mark.rule("W35-MAGIC-10", "W35-PROP-01", "W35-AOE-02")
@pytest.mark.parametrize("proportional", [False, True])
def test_seeded_casts_match_the_exact_distribution(proportional: bool) -> None:
    state = scene(counters=4, hp=3, dr=1)
    target = state.units["b"]
    exact = report_of(state, spell="sparks", proportional=proportional)
    battle, restore, seen = seeded_battle(state, 17), restorer(state, target.id), []
    for _ in range(TRIALS):
        restore()
        before = target.counters
        _engine_cast(state, battle, target, proportional)
        seen.append(before - target.counters)
    _check(exact, seen)


@pytest.mark.rule("W35-MAGIC-10", "W35-AMB-54")
def test_seeded_resolve_on_unit_matches_the_exact_distribution() -> None:
    resolve = getattr(magic, "resolve_on_unit", None)
    if resolve is None:
        pytest.skip("magic.resolve_on_unit is not merged yet")
    state = scene(counters=4, hp=3, dr=1)
    target, mage = state.units["b"], state.singles["mage"]
    spell = spellbook.spell_of(state, "sparks")
    exact = report_of(state, spell="sparks")
    battle, restore, seen = seeded_battle(state, 23), restorer(state, target.id), []
    for _ in range(TRIALS):
        restore()
        before = target.counters
        resolve(state, battle, spell, target, Fraction(2), 12, caster=mage, caster_level=3,
                source="mage")
        seen.append(before - target.counters)
    _check(exact, seen)


# ------------------------------------------------------------------ the command


def test_warhost_odds_prints_the_spell_s_counters(tmp_path: Path) -> None:
    from tests.rulesets.dnd35_wars.helpers import scenario_data

    wizard = creature("wizard", level=7, caster_level=7, casting_modifier=3,
                      spells=[{"spell": "fireball"}])
    data = scenario_data([unit("a", squares=block(0, 0, 5, 2)),
                          unit("b", "B", squares=block(0, 20, 5, 2),
                               creature=creature("orc", hp=6, ref=0))],
                         singles=[single("mage", unit="a", creature=wizard)])
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(data | {"spell_library": ["core"]}), encoding="utf-8")
    result = run("odds", path, "--attacker", "mage", "--defender", "b",
                 "--set", "spell=fireball")
    assert result.exit_code == 0, result.output
    assert "spell fireball" in result.output and "7d6; save DC 16" in result.output
    assert "Counters removed proportional" in result.output
    assert "Counters removed single save" in result.output
    result = run("odds", path, "--attacker", "mage", "--defender", "b", "--set",
                 "spell=fireball", "--set", "proportional=true", "--json")
    report = json.loads(result.stdout)
    assert report["details"]["mode"] == "proportional"
    assert report["details"]["counters_hit"] == {"4": {"fraction": "1", "probability": 1.0}}
    bad = run("odds", path, "--attacker", "mage", "--defender", "b", "--set", "spell=fireblal")
    assert bad.exit_code == 2 and "did you mean fireball" in bad.output
