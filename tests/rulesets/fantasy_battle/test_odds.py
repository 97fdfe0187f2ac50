"""Exact odds of one attack (``odds``): hand-computed fractions, the ruleset hook, and a check
of the enumeration against the engine's own ``resolve_attack``."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from warhost.core.dice import SeededDice
from warhost.core.errors import WarhostError
from warhost.core.events import EventLog
from warhost.core.odds import IllegalAttackError, OddsReport
from warhost.core.registry import get_ruleset
from warhost.core.ruleset import Ruleset
from warhost.core.scenario import Scenario, load_scenario
from warhost.rulesets.fantasy_battle.combat import resolve_attack
from warhost.rulesets.fantasy_battle.odds import (
    attack_odds,
    fate_success,
    max_distribution,
    success_float,
    success_probability,
)
from warhost.rulesets.fantasy_battle.state import FBState

from .helpers import make_battle, make_state

F = Fraction


def u(uid: str, at: tuple[int, int], side: str = "A", **kw: Any) -> dict[str, Any]:
    return {"id": uid, "at": at, "side": side, **kw}


def st(*units: dict[str, Any], **kw: Any) -> FBState:
    return make_state(units=list(units), **kw)


def odds(state: FBState, a: str, t: str, kind: str = "melee", **kw: Any) -> OddsReport:
    return attack_odds(state, state.units[a], state.units[t], kind, **kw)


def assert_partition(report: OddsReport) -> None:
    """failure + defeat + wound + dismount = 1, and the results of a success sum to it."""
    out = report.outcomes
    assert out["success"] + out["failure"] == 1
    assert out["failure"] + out["defeat"] + out["wound"] + out["dismount"] == 1
    assert sum(report.partition().values()) == 1


# --------------------------------------------------------------------------- the dice


@pytest.mark.rule("FB-COMBAT-01")
def test_kept_die_distribution() -> None:
    """Keep the highest of n d6: P(kept = k) = (k^n - (k-1)^n) / 6^n."""
    assert max_distribution(1) == tuple(F(1, 6) for _ in range(6))
    assert max_distribution(2) == tuple(F(2 * k - 1, 36) for k in range(1, 7))
    assert max_distribution(3) == tuple(F(n, 216) for n in (1, 7, 19, 37, 61, 91))
    for dice in (1, 2, 3):
        assert sum(max_distribution(dice)) == 1


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-03", "FB-COMBAT-04", "FB-AMB-14")
def test_standard_against_standard_is_15_in_36() -> None:
    """1d6 against 1d6, ties fail: 15 of the 36 pairs have the attacker strictly higher."""
    report = odds(st(u("a", (4, 5)), u("t", (5, 5), "B")), "a", "t")
    assert report.outcomes["success"] == F(15, 36) == F(5, 12)
    assert report.outcomes["failure"] == F(7, 12)
    assert report.outcomes["defeat"] == F(5, 12)
    assert report.outcomes["wound"] == report.outcomes["dismount"] == 0
    assert report.modifiers == []
    assert report.dice == "a (Standard Warrior): 1d6 +0 vs t (Standard Warrior): 1d6 +0"
    assert_partition(report)


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-03")
def test_elite_against_standard_is_125_in_216() -> None:
    """P(max of 2d6 > d) summed over d: 1 - (1+4+9+16+25+36)/216 = 125/216."""
    report = odds(st(u("e", (4, 5), rank="elite"), u("t", (5, 5), "B")), "e", "t")
    assert report.outcomes["success"] == F(125, 216)
    assert report.outcomes["defeat"] == F(125, 216)
    assert report.dice.startswith("e (Elite Warrior): 2d6 keep highest +0 vs ")
    assert_partition(report)


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-03", "FB-COMBAT-05")
def test_champion_against_champion_wounds() -> None:
    """Equal rolls are symmetric: P(win) = (1 - P(tie)) / 2 with P(tie) = sum p_k^2 and
    p_k = (1, 7, 19, 37, 61, 91)/216, so (46656 - 13782) / 93312 = 5479/15552. An unwounded
    Champion Infantry is Wounded, not defeated."""
    tie = F(1 + 49 + 361 + 1369 + 3721 + 8281, 216**2)
    assert tie == F(13782, 46656)
    report = odds(st(u("c", (4, 5), rank="champion"), u("d", (5, 5), "B", rank="champion")),
                  "c", "d")
    assert report.outcomes["success"] == (1 - tie) / 2 == F(5479, 15552)
    assert report.outcomes["wound"] == F(5479, 15552)
    assert report.outcomes["defeat"] == 0
    assert_partition(report)


@pytest.mark.rule("FB-COMBAT-06")
def test_wounded_champion_is_defeated() -> None:
    s = st(u("c", (4, 5), rank="champion"), u("d", (5, 5), "B", rank="champion", wounded=True))
    report = odds(s, "c", "d")
    assert report.outcomes["defeat"] == F(5479, 15552)
    assert report.outcomes["wound"] == 0
    assert_partition(report)


@pytest.mark.rule("FB-CAV-01", "FB-COMBAT-02")
def test_cavalry_against_infantry_plus_one() -> None:
    """a + 1 > d  <=>  a >= d: the 21 pairs on or above the diagonal, 21/36 = 7/12."""
    report = odds(st(u("k", (4, 5), cls="knight"), u("t", (6, 5), "B")), "k", "t")
    assert report.details["attack_mod"] == 1
    assert any("FB-CAV-01" in line for line in report.modifiers)
    assert report.outcomes["success"] == F(21, 36) == F(7, 12)
    assert report.dice == "k (Standard Knight): 1d6 +1 vs t (Standard Warrior): 1d6 +0"


@pytest.mark.rule("FB-WARRIOR-01", "FB-WARRIOR-03")
def test_flanking_comes_out_of_the_position() -> None:
    """A friend on the far side of the target gives +1: 7/12; without it 5/12."""
    s = st(u("w", (4, 5)), u("f", (6, 5)), u("t", (5, 5), "B"))
    report = odds(s, "w", "t")
    assert report.outcomes["success"] == F(7, 12)
    assert any("flanking with f" in line for line in report.modifiers)
    s.place(s.units["f"], (5, 6))  # adjacent, but not opposite
    assert odds(s, "w", "t").outcomes["success"] == F(5, 12)


@pytest.mark.rule("FB-PIKE-03")
def test_pike_attacked_outside_its_front_arc() -> None:
    """A Pike facing north attacked from the south defends at -1: a > d - 1, 21/36."""
    s = st(u("w", (5, 4)), u("p", (5, 5), "B", cls="pike", facing="north"))
    report = odds(s, "w", "p")
    assert report.details["defense_mod"] == -1
    assert report.outcomes["success"] == F(7, 12)


@pytest.mark.rule("FB-ARCHER-06", "FB-AMB-31")
def test_standard_archer_at_range_31_to_36_never_hits() -> None:
    """-5: a kept 6 makes 1, which never beats the defender's worst, 1."""
    s = st(u("b", (0, 5), cls="archer"), u("t", (32, 5), "B"), width=40)
    report = odds(s, "b", "t", "ranged")
    assert report.details["distance"] == 32
    assert report.details["attack_mod"] == -5
    assert report.outcomes["success"] == 0
    assert report.outcomes["failure"] == 1
    s.place(s.units["t"], (30, 5))  # distance 30: -4, only 6 against 1
    assert odds(s, "b", "t", "ranged").outcomes["success"] == F(1, 36)


@pytest.mark.rule("FB-ARCHER-04", "FB-ARCHER-06", "FB-TERRAIN-01")
def test_hindered_line_of_fire_and_range_add_up() -> None:
    """Range 8 (-1) through hindering terrain (-1): a - 2 > d holds for (4,1), (5,1..2) and
    (6,1..3): 6/36."""
    s = st(u("b", (0, 5), cls="archer"), u("t", (8, 5), "B"), terrain={(4, 5): "hindering"},
           width=20)
    report = odds(s, "b", "t", "ranged")
    assert report.details["attack_mod"] == -2
    assert report.outcomes["success"] == F(6, 36)


@pytest.mark.rule("FB-CAV-05")
def test_elite_cavalry_target_dismount_equals_defeat() -> None:
    """1d6 against 2d6 keep highest: sum over a of (a-1)^2/216 = 55/216; the dismount die
    splits a success evenly: defeat = dismount = 55/432."""
    s = st(u("w", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="elite"))
    report = odds(s, "w", "k")
    assert report.outcomes["success"] == F(55, 216)
    assert report.outcomes["defeat"] == report.outcomes["dismount"] == F(55, 432)
    assert report.outcomes["wound"] == 0
    assert_partition(report)


@pytest.mark.rule("FB-CAV-04")
def test_standard_cavalry_target_is_defeated() -> None:
    s = st(u("w", (3, 5)), u("k", (4, 5), "B", cls="lancer"))
    report = odds(s, "w", "k")
    assert report.outcomes["defeat"] == F(5, 12)
    assert report.outcomes["dismount"] == 0


@pytest.mark.rule("FB-CAV-07", "FB-AMB-33")
def test_champion_cavalry_target_is_dismounted_never_defeated() -> None:
    """Standard Knight (+0 against cavalry) against 3d6: sum (a-1)^3 / 1296 = 225/1296."""
    s = st(u("k", (1, 5), cls="knight"), u("c", (3, 5), "B", cls="knight", rank="champion"))
    report = odds(s, "k", "c")
    assert report.outcomes["success"] == F(0 + 1 + 8 + 27 + 64 + 125, 1296) == F(25, 144)
    assert report.outcomes["dismount"] == F(25, 144)
    assert report.outcomes["defeat"] == report.outcomes["wound"] == 0
    assert not any("champion_dismount_counts_as_wound" in n for n in report.notes)
    s.options = s.options.model_copy(update={"champion_dismount_counts_as_wound": True})
    report = odds(s, "k", "c")
    assert report.outcomes["dismount"] == F(25, 144)
    assert any("champion_dismount_counts_as_wound" in n for n in report.notes)


@pytest.mark.rule("FB-PIKE-06", "FB-CAV-09")
def test_charging_lancer() -> None:
    """A charging Standard Lancer against Infantry: +1 cavalry, +1 charge: a + 2 > d, 26/36."""
    s = st(u("l", (3, 5), cls="lancer"), u("t", (5, 5), "B"))
    assert odds(s, "l", "t").outcomes["success"] == F(21, 36)
    report = odds(s, "l", "t", charging=True)
    assert report.details["attack_mod"] == 2
    assert report.outcomes["success"] == F(26, 36)


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-03")
@pytest.mark.parametrize("att", [1, 2, 3])
@pytest.mark.parametrize("dfn", [1, 2, 3])
@pytest.mark.parametrize("mod", [-6, -3, -1, 0, 1, 2, 5, 6])
def test_enumeration_matches_brute_force(att: int, dfn: int, mod: int) -> None:
    """Every ordered roll of the dice, counted one by one."""
    from itertools import product

    wins = sum(1 for a in product(range(1, 7), repeat=att)
               for d in product(range(1, 7), repeat=dfn) if max(a) + mod > max(d))
    exact = F(wins, 6 ** (att + dfn))
    assert success_probability(att, dfn, mod, 0) == exact
    assert success_probability(att, dfn, 0, -mod) == exact
    assert success_float(att, dfn, mod, 0) == pytest.approx(float(exact))


# --------------------------------------------------------------------------- Fate Points


@pytest.mark.rule("FB-FATE-04", "FB-FATE-05")
def test_one_fate_point_by_hand() -> None:
    """Standard against Standard. Attacker, on a failure (a <= d), rerolls its own die (6 - d
    faces win) or the defender's (a - 1 win), whichever is more: summed over the 21 failing
    pairs that is 5 + 8 + 9 + 9 + 11 + 15 = 57 sixths, so (15*6 + 57)/216 = 147/216 = 49/72.
    Defender, on a success (a > d), picks the smaller of a - 1 and 6 - d: 15 + 13 + 9 + 4 + 1
    = 42 sixths, so 42/216 = 7/36."""
    assert fate_success(1, 1, 0, 0, "attacker") == F(147, 216) == F(49, 72)
    assert fate_success(1, 1, 0, 0, "defender") == F(42, 216) == F(7, 36)


@pytest.mark.rule("FB-FATE-04", "FB-FATE-05")
@pytest.mark.parametrize(("att", "dfn", "mod"), [(1, 1, 0), (2, 1, -1), (3, 2, 0), (2, 3, 2),
                                                  (1, 3, -2)])
def test_one_fate_point_brute_force(att: int, dfn: int, mod: int) -> None:
    """Every roll, every die the spender may reroll, every new face."""
    from itertools import product

    def wins(a: tuple[int, ...], d: tuple[int, ...]) -> bool:
        return max(a) + mod > max(d)

    best = {"attacker": 0, "defender": 0}
    for a in product(range(1, 7), repeat=att):
        for d in product(range(1, 7), repeat=dfn):
            counts = []
            for i in range(att):
                counts.append(sum(wins(a[:i] + (f,) + a[i + 1:], d) for f in range(1, 7)))
            for i in range(dfn):
                counts.append(sum(wins(a, d[:i] + (f,) + d[i + 1:]) for f in range(1, 7)))
            best["attacker"] += 6 if wins(a, d) else max(counts)
            best["defender"] += min(counts) if wins(a, d) else 0
    total = 6 ** (att + dfn + 1)
    assert fate_success(att, dfn, mod, 0, "attacker") == F(best["attacker"], total)
    assert fate_success(att, dfn, mod, 0, "defender") == F(best["defender"], total)
    plain = success_probability(att, dfn, mod, 0)
    assert fate_success(att, dfn, mod, 0, "defender") <= plain
    assert plain <= fate_success(att, dfn, mod, 0, "attacker")


@pytest.mark.rule("FB-FATE-01", "FB-FATE-03")
def test_fate_points_are_reported_as_alternatives() -> None:
    s = st(u("a", (4, 5), unique=True, fate=1), u("t", (5, 5), "B", unique=True, fate=2))
    report = odds(s, "a", "t")
    assert report.outcomes["success"] == F(5, 12)  # the outcomes never assume a spend
    assert report.alternatives == {"success if a spends 1 Fate Point": F(49, 72),
                                   "success if t spends 1 Fate Point": F(7, 36)}
    assert any("not enumerated" in n for n in report.notes)
    s.units["a"].fate_spent = 1
    assert list(odds(s, "a", "t").alternatives) == ["success if t spends 1 Fate Point"]


@pytest.mark.rule("FB-FEAT-08")
def test_protect_is_noted_not_counted() -> None:
    s = st(u("a", (4, 5)), u("t", (5, 5), "B"),
           u("c", (6, 5), "B", rank="champion", feats=["protect"]))
    report = odds(s, "a", "t")
    assert report.outcomes["success"] == F(5, 12)
    assert any(n.startswith("Protect: c") for n in report.notes)


# --------------------------------------------------------------------------- the engine


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-02", "FB-COMBAT-03", "FB-COMBAT-05",
                  "FB-CAV-01", "FB-PIKE-03")
def test_enumeration_matches_resolve_attack() -> None:
    """An Elite Knight (+1 against Infantry) against a Champion Pike attacked from outside its
    front arc (-1): 20,000 seeded attacks through the engine land within 4 standard errors."""
    s = st(u("k", (4, 2), cls="knight", rank="elite"),
           u("p", (5, 4), "B", cls="pike", rank="champion", facing="north"),
           victory_points=10**9)
    attacker, target = s.units["k"], s.units["p"]
    report = odds(s, "k", "p")
    assert (report.details["attack_mod"], report.details["defense_mod"]) == (1, -1)
    exact = report.outcomes["wound"]
    assert exact == report.outcomes["success"] == success_probability(2, 3, 1, -1)
    battle = make_battle(s)
    battle.log = EventLog(record=False)
    battle.dice = SeededDice(20240602)
    n = 20_000
    hits = 0
    for _ in range(n):
        result = resolve_attack(s, battle, attacker, target, "melee")
        if result == "wound":
            hits += 1
            target.wounded = False
        else:
            assert result == "fail"
    se = (float(exact) * (1 - float(exact)) / n) ** 0.5
    assert abs(hits / n - float(exact)) < 4 * se


@pytest.mark.rule("FB-CAV-05", "FB-CAV-06", "FB-COMBAT-04")
def test_elite_cavalry_outcomes_match_resolve_attack() -> None:
    """Elite Warrior against an Elite Knight: defeat, dismount and failure frequencies of
    12,000 seeded attacks match the exact fractions within 4 standard errors each."""
    def fresh() -> FBState:
        return st(u("w", (3, 5), rank="elite"), u("k", (4, 5), "B", cls="knight", rank="elite"),
                  victory_points=10**9)

    report = odds(fresh(), "w", "k")
    assert report.outcomes["success"] == F(505, 1296)
    dice = SeededDice(7)
    seen: Counter[str] = Counter()
    n = 12_000
    for _ in range(n):
        s = fresh()
        battle = make_battle(s)
        battle.log = EventLog(record=False)
        battle.dice = dice
        seen[resolve_attack(s, battle, s.units["w"], s.units["k"], "melee")] += 1
    for name, engine in (("defeat", "defeat"), ("dismount", "dismount"), ("failure", "fail")):
        p = float(report.outcomes[name])
        se = (p * (1 - p) / n) ** 0.5
        assert abs(seen[engine] / n - p) < 4 * se, (name, seen)


# --------------------------------------------------------------------------- the hook


SCENARIO = """\
ruleset: fantasy-battle
name: Odds
victory_points: 10
options:
  first_player: A
  allow_unequal_activations: true
  per_side_rank_counts: true
battlefield:
  width: 40
  height: 12
  terrain:
    - type: hindering
      squares: [[3, 8]]
sides:
  - name: A
    start_area: [[0, 0], [39, 5]]
    units:
      - {id: a-hero, rank: champion, type: infantry, class: warrior, at: [5, 5], unique: true,
         fate_points: 2, feats: [throw]}
      - {id: a-knight, rank: elite, type: cavalry, class: knight, at: [10, 4]}
      - {id: a-bow, rank: elite, type: infantry, class: archer, at: [1, 1]}
      - {id: a-lancer, rank: elite, type: cavalry, class: lancer}
  - name: B
    start_area: [[0, 6], [39, 11]]
    units:
      - {id: b-champ, rank: champion, type: infantry, class: warrior, at: [6, 6],
         feats: [protect]}
      - {id: b-rider, rank: elite, type: cavalry, class: knight, at: [20, 6]}
      - {id: b-lord, rank: champion, type: cavalry, class: lancer, at: [30, 6], unique: true,
         fate_points: 1, feats: [frenzy]}
      - {id: b-pike, rank: elite, type: infantry, class: pike, at: [2, 10], facing: north}
"""


@pytest.fixture
def scenario(tmp_path: Path) -> Scenario:
    path = tmp_path / "odds.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return load_scenario(path)


def hook(scenario: Scenario, a: str, d: str, **situation: Any) -> OddsReport:
    return scenario.ruleset.exact_odds(scenario, a, d, situation)


def test_the_base_ruleset_has_no_exact_odds(scenario: Scenario) -> None:
    with pytest.raises(WarhostError, match="fantasy-battle has no exact odds"):
        Ruleset.exact_odds(get_ruleset("fantasy-battle"), scenario, "a-hero", "b-champ", {})


@pytest.mark.rule("FB-COMBAT-05")
def test_hook_uses_scenario_positions(scenario: Scenario) -> None:
    report = hook(scenario, "a-hero", "b-champ")
    assert report.kind == "melee"
    assert report.outcomes["wound"] == F(5479, 15552)
    assert report.details["legal"] is True
    assert report.details["attacker_at"] == [5, 5]
    assert report.to_json()["outcomes"]["wound"]["fraction"] == "5479/15552"
    assert "success if a-hero spends 1 Fate Point" in report.alternatives


@pytest.mark.rule("FB-COMBAT-06")
def test_hook_wounded_champion(scenario: Scenario) -> None:
    report = hook(scenario, "a-hero", "b-champ", wounded=True)
    assert report.outcomes["defeat"] == F(5479, 15552)
    assert report.outcomes["wound"] == 0
    with pytest.raises(WarhostError) as caught:
        hook(scenario, "b-champ", "a-knight", wounded=True, ignore_position=True)
    assert caught.value.field == "wounded"


@pytest.mark.rule("FB-CAV-05", "FB-CAV-01")
def test_hook_places_units(scenario: Scenario) -> None:
    """The Elite Knight moved next to the Elite Knight of B: 2d6 against 2d6, split in two."""
    report = hook(scenario, "a-knight", "b-rider", at_attacker="18,6")
    assert report.details["attacker_at"] == [18, 6]
    assert report.outcomes["success"] == F(505, 1296)
    assert report.outcomes["defeat"] == report.outcomes["dismount"] == F(505, 2592)


@pytest.mark.rule("FB-INF-01", "FB-AMB-26")
def test_hook_illegal_position_names_the_reason(scenario: Scenario) -> None:
    with pytest.raises(IllegalAttackError) as caught:
        hook(scenario, "a-knight", "b-rider")
    assert caught.value.field == "attacker"
    assert "not adjacent (distance 9)" in caught.value.reason
    report = hook(scenario, "a-knight", "b-rider", ignore_position=True)
    assert report.details["legal"] is False
    assert report.notes[0].startswith("Not a legal attack where they stand")
    assert report.outcomes["success"] == F(505, 1296)
    with pytest.raises(IllegalAttackError, match="only Archers and Mounted Archers"):
        hook(scenario, "a-hero", "b-champ", kind="ranged")


@pytest.mark.rule("FB-ARCHER-01", "FB-AMB-27")
def test_hook_archer_into_melee_is_illegal(scenario: Scenario) -> None:
    with pytest.raises(IllegalAttackError, match="adjacent to a-hero"):
        hook(scenario, "a-bow", "b-champ")


@pytest.mark.rule("FB-ARCHER-06", "FB-CAV-07")
def test_hook_defaults_to_ranged_for_archers(scenario: Scenario) -> None:
    """Range 29 (-4): an Elite Archer needs a kept 6 against a Champion's kept 1:
    11/36 * 1/216 = 11/7776; the Champion Lancer is dismounted."""
    report = hook(scenario, "a-bow", "b-lord")
    assert report.kind == "ranged"
    assert report.details["distance"] == 29
    assert report.outcomes["success"] == F(11, 36) * F(1, 216) == F(11, 7776)
    assert report.outcomes["dismount"] == F(11, 7776)
    with pytest.raises(IllegalAttackError, match="has only a ranged attack"):
        hook(scenario, "a-bow", "b-lord", kind="melee")


@pytest.mark.rule("FB-FEAT-09", "FB-AMB-35")
def test_hook_throw(scenario: Scenario) -> None:
    """The Champion with Throw, 3 squares from the Pike: its legal attack is a Throw."""
    report = hook(scenario, "a-hero", "b-pike", at_attacker="2,7")
    assert report.kind == "throw"
    assert report.modifiers == []  # no Pike arc penalty for a Throw (FB-AMB-23)
    with pytest.raises(IllegalAttackError, match="Throw reaches 2-4"):
        hook(scenario, "a-hero", "b-pike", kind="throw")


@pytest.mark.rule("FB-PIKE-06")
def test_hook_charge(scenario: Scenario) -> None:
    with pytest.raises(WarhostError) as caught:
        hook(scenario, "a-hero", "b-champ", charge=True)
    assert caught.value.field == "charge"
    report = hook(scenario, "a-lancer", "b-pike", at_attacker="2,8", charge=True)
    assert report.details["attack_mod"] == 2  # +1 cavalry, +1 charge
    assert any("charging" in line for line in report.modifiers)


def test_hook_facing(scenario: Scenario) -> None:
    """Turning the Pike to face its attacker removes FB-PIKE-03's -1."""
    behind = hook(scenario, "a-hero", "b-pike", at_attacker="2,9", kind="melee")
    assert behind.details["defense_mod"] == -1
    front = hook(scenario, "a-hero", "b-pike", at_attacker="2,9", facing_defender="south")
    assert front.details["defense_mod"] == 0
    with pytest.raises(WarhostError) as caught:
        hook(scenario, "a-hero", "b-pike", facing_attacker="south")
    assert caught.value.field == "facing_attacker"


def test_hook_option_overrides(scenario: Scenario) -> None:
    """``max_range`` 20 puts b-lord out of reach; a misspelt option gets a suggestion."""
    with pytest.raises(IllegalAttackError, match="beyond max_range 20"):
        hook(scenario, "a-bow", "b-lord", options={"max_range": "20"})
    with pytest.raises(WarhostError, match="did you mean 'max_range'"):
        hook(scenario, "a-bow", "b-lord", options={"max_rang": "20"})
    with pytest.raises(WarhostError) as caught:
        hook(scenario, "a-bow", "b-lord", options={"max_range": "far"})
    assert caught.value.field == "options"


def test_hook_bad_input(scenario: Scenario) -> None:
    with pytest.raises(WarhostError, match="did you mean 'a-hero'") as caught:
        hook(scenario, "a-heor", "b-champ")
    assert caught.value.field == "attacker"
    with pytest.raises(WarhostError, match="both on side A") as caught:
        hook(scenario, "a-hero", "a-bow")
    assert caught.value.field == "defender"
    with pytest.raises(WarhostError, match="taken by b-champ") as caught:
        hook(scenario, "a-hero", "b-pike", at_attacker=(6, 6))
    assert caught.value.field == "at_attacker"
    with pytest.raises(WarhostError, match="off the 40x12 map"):
        hook(scenario, "a-knight", "b-rider", at_attacker="39,5")
    with pytest.raises(WarhostError, match="deployed during play") as caught:
        hook(scenario, "a-lancer", "b-pike")
    assert caught.value.field == "at_attacker"
    with pytest.raises(WarhostError, match="did you mean 'kind'"):
        hook(scenario, "a-hero", "b-champ", knd="melee")
    with pytest.raises(WarhostError) as caught:
        hook(scenario, "a-hero", "b-champ", kind="magic")
    assert caught.value.field == "kind"


def test_report_checks_its_own_numbers() -> None:
    with pytest.raises(ValueError, match="do not sum"):
        OddsReport("a", "b", "melee", [], {"success": F(1, 2), "failure": F(1, 3)}, [])
    with pytest.raises(ValueError, match="results of a success"):
        OddsReport("a", "b", "melee", [],
                   {"success": F(1, 2), "failure": F(1, 2), "defeat": F(1, 3)}, [])
    report = OddsReport("a", "b", "melee", [], {"success": F(5, 12), "failure": F(7, 12),
                                                 "defeat": F(5, 12)}, [])
    data = report.to_json()
    assert data["outcomes"]["success"] == {"fraction": "5/12", "probability": 5 / 12}
    assert data["outcomes"]["defeat"]["fraction"] == "5/12"
