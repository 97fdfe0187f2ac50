"""Refusals that say why, with the rule ID (FantasyBattle.explain_refusal, explain.py).

Each test puts a small state through the real turn flow and judges orders on the live
decisions (``Battle.judge``, as a person or an orders file would give them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from warhost.core.decisions import Decision, Refusal
from warhost.core.engine import run_battle
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario
from warhost.rulesets.fantasy_battle import combat, game
from warhost.rulesets.fantasy_battle.explain import explain_refusal
from warhost.rulesets.fantasy_battle.state import IN_POOL, FBState, Squad

from .helpers import make_state
from .probing import Probe, Stop, probe_battle, unit_turn

rule = pytest.mark.rule
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle"


def tried(state: FBState, uid: str, kind: str, *texts: str, script: dict[str, list[str]]
          | None = None, dice: tuple[int, ...] = ()) -> dict[str, str]:
    """The verdicts on ``texts`` at ``uid``'s first decision of ``kind`` in its turn."""
    probe = Probe(script=script, tries={kind: list(texts)})
    unit_turn(state, uid, dice, **{state.units[uid].side: probe})
    assert set(probe.verdicts) == set(texts), f"no {kind} decision was asked"
    return {text: probe.said(text) for text in texts}


# --------------------------------------------------------------------------- movement


@rule("FB-MOVE-01")
@rule("FB-MOVE-04")
@rule("FB-MOVE-05")
@rule("FB-TERRAIN-10")
@rule("FB-AMB-20")
def test_a_move_to_a_square_it_cannot_reach_or_end_on_says_why() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(9, 9))],
                       terrain={(5, 5): "blocking", (7, 2): "slope"})
    said = tried(state, "a", "move", "move 9 2", "move 5 5", "move 9 9", "move 7 2", "move 12 2",
                 "move 4")
    assert said == {
        "move 9 2": "7 squares, an Infantry unit moves at most 6 (FB-MOVE-01)",
        "move 5 5": "(5,5) is blocking terrain (FB-MOVE-05)",
        "move 9 9": "(9,9) is held by b: no move may end there (FB-MOVE-04)",
        "move 7 2": "(7,2) is slope: no move may end on slope (FB-TERRAIN-10)",
        "move 12 2": "(12,2) is off the 12x12 map (FB-AMB-20)",
        "move 4": "move needs two numbers, x and y (move x y, or move x y via x1 y1 x2 y2 ... "
                  "to give the path)",
    }


@rule("FB-MOVE-06")
@rule("FB-MOVE-07")
@rule("FB-FEAT-05")
def test_a_too_long_move_names_the_allowance_that_caps_it() -> None:
    near = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(2, 3))])
    assert tried(near, "a", "move", "move 8 2")["move 8 2"] == (
        "6 squares costing 7 (leaving a square next to an enemy costs double, FB-MOVE-06), "
        "an Infantry unit moves at most 6 (FB-MOVE-01)")
    wide = make_state(16, 16, units=[dict(id="a", at=(1, 1)), dict(id="b", side="B", at=(14, 14))])
    assert tried(wide, "a", "move", "move 14 1", script={"plan": ["double"]})["move 14 1"] == (
        "13 squares, an Infantry unit moves at most 12 when Double-timing (FB-MOVE-07)")
    hero = make_state(units=[dict(id="c", rank="champion", feats=["burst_of_speed"], at=(2, 2)),
                             dict(id="b", side="B", at=(9, 9))])
    assert tried(hero, "c", "move", "move 11 2", script={"burst": ["burst"]})["move 11 2"] == (
        "9 squares, an Infantry unit moves at most 8 with Burst of Speed (FB-FEAT-05)")


@rule("FB-MOVE-05")
@rule("FB-MOVE-04")
@rule("FB-PIKE-05")
def test_a_square_cut_off_by_walls_units_or_front_arcs_says_which() -> None:
    ring = [(x, y) for x in (4, 5, 6) for y in (4, 5, 6) if (x, y) != (5, 5)]
    walled = make_state(units=[dict(id="a", at=(2, 2))],
                        terrain={sq: "blocking" for sq in ring})
    assert tried(walled, "a", "move", "move 5 5")["move 5 5"] == (
        "no way leads to (5,5): blocking terrain, pits or cliffs cut it off (FB-MOVE-05)")
    crowd = make_state(units=[dict(id="a", at=(2, 2))] + [
        dict(id=f"f{n}", at=sq) for n, sq in enumerate(ring)])
    assert tried(crowd, "a", "move", "move 5 5")["move 5 5"] == (
        "units bar every way to (5,5); the cheapest: (4,4) is held by f0 (FB-MOVE-04)")
    wall = {(x, 4): "blocking" for x in range(12) if x != 5}
    pikes = make_state(units=[dict(id="a", at=(5, 2)),
                              dict(id="p", side="B", cls="pike", at=(5, 6), facing="south")],
                       terrain=wall)
    assert tried(pikes, "a", "move", "move 8 6")["move 8 6"] == (
        "front arcs bar every way to (8,6); the cheapest: the movement stopped at (6,5), in "
        "the front arc of p (FB-PIKE-05)")


@rule("FB-PIKE-08")
@rule("FB-PIKE-09")
@rule("FB-PIKE-10")
def test_a_charge_move_that_is_not_listed_says_which_charge_rule_it_breaks() -> None:
    state = make_state(units=[dict(id="p", cls="pike", at=(2, 2)),
                              dict(id="e", side="B", at=(4, 7))],
                       terrain={(2, 4): "hindering"})
    said = tried(state, "p", "move", "move 3 4", "move 3 3", "move 2 5",
                 script={"plan": ["charge e"]})
    assert said == {
        "move 3 4": "(3,4) is not on a straight line (orthogonal or diagonal) from (2,2): a "
                    "charge runs straight (FB-PIKE-09)",
        "move 3 3": "a charge covers at least 2 squares (FB-PIKE-08)",
        "move 2 5": "(2,4) is hindering terrain: a charge passes over clear terrain only "
                    "(FB-PIKE-10)",
    }


@rule("FB-AMB-23")
def test_a_pike_may_not_face_a_diagonal_by_default() -> None:
    state = make_state(units=[dict(id="p", cls="pike", at=(2, 2)),
                              dict(id="e", side="B", at=(9, 9))])
    said = tried(state, "p", "facing", "face northeast", "face up")
    assert said == {
        "face northeast": "a Pike faces one of the four orthogonal directions (north, east, "
                          "south, west); the option pike_facings: 8 allows diagonals (FB-AMB-23)",
        "face up": "'up' is not a facing: north, east, south, west (FB-AMB-23)",
    }


# --------------------------------------------------------------------------- attacks


@rule("FB-ARCHER-03")
@rule("FB-ARCHER-01")
@rule("FB-INF-02")
@rule("FB-AMB-30")
@rule("FB-ROUND-08")
@rule("FB-FEAT-09")
def test_an_archers_illegal_targets_say_why() -> None:
    """The walls are those of FB-AMB-28's worked example: both candidate lines are blocked."""
    state = make_state(
        units=[dict(id="bow", cls="archer", at=(2, 2)), dict(id="f", at=(2, 10)),
               dict(id="w", side="B", at=(7, 2)), dict(id="adj", side="B", at=(3, 3)),
               dict(id="far", side="B", at=(11, 11)), dict(id="m", side="B", at=(2, 9)),
               dict(id="ok", side="B", at=(0, 6))],
        terrain={(4, 3): "blocking", (5, 1): "blocking"}, max_range=8)
    said = tried(state, "bow", "attack", "attack w", "attack adj", "attack far", "attack m",
                 "attack f", "attack ww", "throw w", "attack")
    assert said == {
        "attack w": "no line of fire, blocking terrain at (5,1) and (4,3) (FB-ARCHER-03)",
        "attack adj": "adj is adjacent: an Archer attacks only enemies that are not adjacent "
                      "(FB-INF-02)",
        "attack far": "far is 9 squares away, beyond the longest range, 8 (FB-AMB-30)",
        "attack m": "m is next to f, a unit friendly to bow: no shooting into a melee "
                    "(FB-ARCHER-01)",
        "attack f": "f is not an enemy (FB-ROUND-08)",
        "attack ww": "there is no unit 'ww'; did you mean w?",
        "throw w": "bow has no Throw Feat (FB-FEAT-09)",
        "attack": "attack needs one name, the enemy unit (attack NAME)",
    }


@rule("FB-INF-01")
@rule("FB-AMB-26")
@rule("FB-PIKE-02")
@rule("FB-TERRAIN-07")
def test_melee_targets_must_be_adjacent_in_arc_and_on_the_same_level() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="e", side="B", at=(3, 3)),
                              dict(id="far", side="B", at=(6, 2)),
                              dict(id="up", side="B", at=(1, 1))],
                       terrain={(1, 1): "elevated"})
    assert tried(state, "a", "attack", "attack far", "attack up") == {
        "attack far": "far is 4 squares away: a Warrior attacks only adjacent enemies "
                      "(FB-INF-01)",
        "attack up": "up stands on another level, so it is not adjacent (FB-TERRAIN-07)",
    }
    horse = make_state(units=[dict(id="k", cls="knight", at=(2, 2)),
                              dict(id="e", side="B", at=(4, 4)),
                              dict(id="far", side="B", at=(8, 2))])
    assert tried(horse, "k", "attack", "attack far")["attack far"] == (
        "far is 5 squares away: a Knight attacks only adjacent enemies (FB-AMB-26)")
    pike = make_state(units=[dict(id="p", cls="pike", at=(2, 2), facing="north"),
                             dict(id="e", side="B", at=(2, 3)),
                             dict(id="side", side="B", at=(3, 1))])
    assert tried(pike, "p", "attack", "attack side")["attack side"] == (
        "side is outside p's front arc (facing north) (FB-PIKE-02)")


@rule("FB-FEAT-09")
@rule("FB-AMB-35")
def test_throw_needs_a_clear_way_and_a_range_of_2_to_4() -> None:
    state = make_state(units=[dict(id="c", rank="champion", feats=["throw"], at=(2, 2)),
                              dict(id="f", at=(2, 4)), dict(id="e", side="B", at=(2, 5)),
                              dict(id="e3", side="B", at=(5, 2)),
                              dict(id="far", side="B", at=(2, 9))])
    assert tried(state, "c", "attack", "throw e", "throw far", "attack e3") == {
        "throw e": "the way to e is not clear: f at (2,4) (FB-FEAT-09)",
        "throw far": "far is 7 squares away: a Throw reaches enemies 2 to 4 squares away "
                     "(FB-AMB-35)",
        "attack e3": "e3 is 3 squares away: a Warrior attacks only adjacent enemies; "
                     "`throw e3` is legal (FB-INF-01)",
    }


@rule("FB-MOVE-07")
@rule("FB-AMB-15")
def test_an_attack_after_double_time_names_the_unit_and_the_rule() -> None:
    """A squad member Double-times; an attack given at the next member's decision is refused
    as the attack the first member gave up."""
    state = make_state(units=[*(dict(id=f"s{n}", at=(n + 1, 2), squad="s") for n in (1, 2, 3)),
                              dict(id="e", side="B", at=(2, 9))])
    state.squads["s"] = Squad("s", "A", "infantry", ["s1", "s2", "s3"])
    probe = Probe(script={"member": ["member s1"], "plan": ["double"], "move": ["move 2 8"]},
                  tries={"member#2": ["attack e"]}, stop_after="member#2")
    with pytest.raises(Stop):
        game.take_turn(state, probe_battle(state, A=probe), "A", turns_left=1)
    assert probe.said("attack e") == "s1 Double-timed and so gave up its attack phase (FB-MOVE-07)"


# --------------------------------------------------------------------------- turns and plans


def _turn_state() -> FBState:
    state = make_state(units=[
        dict(id="a-captain", rank="elite", at=(1, 1)), dict(id="a2", rank="elite", at=(3, 1)),
        *(dict(id=f"s{n}", at=(n + 4, 1), squad="s") for n in (1, 2, 3)),
        dict(id="b1", side="B", rank="elite", at=(5, 10))])
    state.squads["s"] = Squad("s", "A", "infantry", ["s1", "s2", "s3"])
    state.units["a-captain"].activated = True
    return state


@rule("FB-ROUND-03")
@rule("FB-ROUND-04")
@rule("FB-ROUND-06")
@rule("FB-SQUAD-03")
def test_activations_that_are_not_allowed_say_why() -> None:
    state = _turn_state()
    probe = Probe(tries={"activate": ["activate a-captain", "activate b1", "activate s1",
                                      "pass", "activate a-captian", "activate"]},
                  stop_after="activate")
    with pytest.raises(Stop):
        game.take_turn(state, probe_battle(state, A=probe), "A", turns_left=2)
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "activate a-captain": "a-captain has already activated this round (FB-ROUND-04)",
        "activate b1": "b1 belongs to B: a player activates his own units (FB-ROUND-03)",
        "activate s1": "s1 is a Standard unit and acts with its squad: activate s (FB-SQUAD-03)",
        "pass": "A may pass only while its turns left outnumber its units and squads yet to "
                "activate, and 2 still wait (FB-ROUND-06)",
        "activate a-captian": "there is no unit 'a-captian'; did you mean a-captain?",
        "activate": "activate needs one name, the unit or squad (activate NAME)",
    }


@rule("FB-AMB-50")
@rule("FB-SQUAD-03")
def test_a_squad_member_that_has_acted_is_not_asked_again() -> None:
    state = _turn_state()
    probe = Probe(script={"activate": ["activate s"], "member": ["member s1"]},
                  tries={"member#2": ["member s1", "member a2"]}, stop_after="member#2")
    with pytest.raises(Stop):
        game.take_turn(state, probe_battle(state, A=probe), "A", turns_left=2)
    assert probe.said("member s1") == (
        "s1 has already taken its turn in this activation (FB-AMB-50)")
    assert probe.said("member a2") == "a2 is not a member of squad s (FB-SQUAD-03)"


@rule("FB-PIKE-06")
@rule("FB-FEAT-07")
@rule("FB-FEAT-03")
@rule("FB-AMB-36")
@rule("FB-ROUND-08")
def test_turn_plans_that_are_not_open_say_why() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2)), dict(id="b", side="B", at=(4, 2))])
    assert tried(state, "a", "plan", "charge b", "mobility", "attack-move") == {
        "charge b": "only Pikes and Lancers charge, and a is a Warrior (FB-PIKE-06)",
        "mobility": "a has no Mobility Feat (FB-FEAT-07)",
        "attack-move": "a has no enemy it may attack from where it stands (nearest, b is 2 "
                       "squares away: a Warrior attacks only adjacent enemies) (FB-INF-01)",
    }
    pike = make_state(units=[dict(id="p", cls="pike", at=(2, 2)),
                             dict(id="near", side="B", at=(2, 7)),
                             dict(id="far", side="B", at=(2, 11))])
    assert tried(pike, "p", "plan", "charge far")["charge far"] == (
        "far is 9 squares away: a charge of at most 6 squares cannot reach it (FB-MOVE-01)")
    hero = make_state(units=[dict(id="c", rank="champion", feats=["mobility", "throw"],
                                  at=(2, 2)), dict(id="b", side="B", at=(9, 9))])
    hero.units["c"].feats_used[0] = True
    assert tried(hero, "c", "plan", "mobility")["mobility"] == (
        "c has used its Mobility Feat (FB-AMB-36)")
    hero.units["c"].feats_used[0] = False
    hero.turn_feats.add("c")
    assert tried(hero, "c", "plan", "mobility")["mobility"] == (
        "a Feat has already been used this turn (Mobility would be a second) (FB-FEAT-03)")


# --------------------------------------------------------------------------- combat windows


@rule("FB-FATE-04")
def test_a_fate_reroll_names_a_die_that_exists() -> None:
    state = make_state(units=[dict(id="a", rank="elite", unique=True, fate=1, at=(2, 2)),
                              dict(id="b", side="B", at=(3, 2))])
    probe = Probe(tries={"fate": ["reroll-own 5", "reroll-foe 1", "reroll-own x"]})
    battle = probe_battle(state, dice=[3, 4, 5], A=probe)
    combat.resolve_attack(state, battle, state.units["a"], state.units["b"], "melee")
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "reroll-own 5": "there is no die 5: its own roll has 2 dice, numbered from 0 (FB-FATE-04)",
        "reroll-foe 1": "there is no die 1: the opponent's roll has 1 die, numbered from 0 "
                        "(FB-FATE-04)",
        "reroll-own x": "reroll-own needs one number, the die (0 for the first)",
    }


@rule("FB-FEAT-08")
@rule("FB-AMB-40")
def test_protect_needs_a_champion_with_the_feat_next_to_the_ally() -> None:
    state = make_state(units=[
        dict(id="e", side="A", at=(2, 2)),
        dict(id="t", side="B", at=(3, 2)), dict(id="c", side="B", rank="champion",
                                                feats=["protect"], at=(4, 2)),
        dict(id="c2", side="B", rank="champion", feats=["protect"], at=(9, 9)),
        dict(id="plain", side="B", rank="champion", at=(4, 3))])
    probe = Probe(tries={"protect": ["protect c2", "protect plain", "protect t", "protect e"]})
    battle = probe_battle(state, dice=[6, 1], B=probe)
    combat.resolve_attack(state, battle, state.units["e"], state.units["t"], "melee")
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "protect c2": "c2 is not adjacent to t (FB-AMB-40)",
        "protect plain": "plain has no Protect Feat (FB-FEAT-08)",
        "protect t": "t has no Protect Feat (FB-FEAT-08)",
        "protect e": "e is not friendly to t (FB-FEAT-08)",
    }


# --------------------------------------------------------------------------- round end, setup


@rule("FB-REINF-03")
@rule("FB-REINF-05")
def test_reinforcements_that_cannot_return_say_why() -> None:
    state = make_state(units=[dict(id="hero", rank="champion", unique=True, fate=1),
                              dict(id="grunt", at=None), dict(id="here", at=(5, 5)),
                              dict(id="b", side="B", at=(9, 9))], reinforcements=True)
    for uid in ("hero", "grunt"):
        state.units[uid].status = IN_POOL
    probe = Probe(tries={"reinforce": ["reinforce hero", "reinforce here", "reinforce b"]},
                  stop_after="reinforce")
    with pytest.raises(Stop):
        game.reinforce(state, probe_battle(state, A=probe), "A")
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "reinforce hero": "hero is Unique: once defeated it never returns (FB-REINF-05)",
        "reinforce here": "here is not in the reinforcement pool (FB-REINF-03)",
        "reinforce b": "b belongs to B (FB-REINF-03)",
    }


@rule("FB-AMB-09")
@rule("FB-SQUAD-04")
def test_reforming_into_a_full_or_own_squad_is_refused() -> None:
    state = make_state(units=[
        dict(id="x1", at=(0, 0), squad="sx"), dict(id="w1", at=(1, 0), squad="sw"),
        dict(id="capt", rank="elite", at=(0, 1)),
        *(dict(id=f"y{n}", at=(n + 2, 0), squad="sy") for n in range(4)),
        *(dict(id=f"z{n}", at=(n + 2, 1), squad="sz") for n in range(4))])
    state.squads["sx"] = Squad("sx", "A", "infantry", ["x1"])
    state.squads["sw"] = Squad("sw", "A", "infantry", ["w1"])
    state.squads["sy"] = Squad("sy", "A", "infantry", [f"y{n}" for n in range(4)])
    state.squads["sz"] = Squad("sz", "A", "infantry", [f"z{n}" for n in range(4)])
    probe = Probe(script={"reform": ["reform y0"]},
                  tries={"reform": ["reform capt"],
                         "reform-to": ["join sz", "join sy", "new-squad", "join sxx"]},
                  stop_after="reform-to")
    with pytest.raises(Stop):
        game.reform(state, probe_battle(state, A=probe), "A")
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "reform capt": "capt is not a Standard unit: only Standard units change squads "
                       "(FB-SQUAD-04)",
        "join sz": "squad sz is at full strength (4 of 4) (FB-AMB-09)",
        "join sy": "y0 is in squad sy already (FB-AMB-09)",
        "new-squad": "reforming cannot create a new squad (the option reform_allow_new_squads "
                     "allows it) (FB-AMB-09)",
        "join sxx": "there is no squad 'sxx'; did you mean sx?",
    }


def _scenario(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@rule("FB-SETUP-12")
@rule("FB-AMB-22")
def test_a_deployment_outside_the_start_area_or_on_a_unit_is_refused(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "skirmish.yaml", ("first_player: random", "first_player: A"),
                     ("{id: g-spear-1, class: warrior, at: [5, 1]}",
                      "{id: g-spear-1, class: warrior}"))
    probe = Probe(tries={"deploy": ["deploy 5 5", "deploy 6 1", "deploy 5"]},
                  stop_after="deploy")
    with pytest.raises(Stop):
        run_battle(load_scenario(path), 1, {"Good": probe})
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "deploy 5 5": "(5,5) is outside Good's start area (FB-SETUP-12)",
        "deploy 6 1": "(6,1) is held by g-spear-2: no unit may be deployed there (FB-AMB-22)",
        "deploy 5": "deploy needs two numbers, x and y",
    }


@rule("FB-SETUP-08")
@rule("FB-SETUP-09")
def test_terrain_placed_too_near_the_edge_or_in_the_other_half_is_refused(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "constructed.yaml", ("first_player: random", "first_player: A"))
    probe = Probe(tries={"terrain": ["place 0 0 5", "place 0 5 14", "place 9 5 5"]},
                  stop_after="terrain")
    with pytest.raises(Stop):
        run_battle(load_scenario(path), 1, {"Good": probe})
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "place 0 0 5": "(0,5) is nearer than 2 squares to the edge of the map (FB-SETUP-09)",
        "place 0 5 14": "(5,14) is outside Good's half of the battlefield (FB-SETUP-08)",
        "place 9 5 5": "Good has no terrain piece 9 to place (pieces left: 0, 1, 2)",
    }


# --------------------------------------------------------------------------- the hook itself


@rule("FB-MOVE-01")
def test_judge_on_a_live_battle_gives_the_allowance_for_a_too_long_move(tmp_path: Path) -> None:
    """g-spear-1 stands at (5,1); (5,8) is 7 squares north with nothing in the way."""
    path = _scenario(tmp_path, "skirmish.yaml", ("first_player: random", "first_player: A"))
    probe = Probe(script={"activate": ["activate g-spears"], "member": ["member g-spear-1"]},
                  tries={"move": ["move 5 8", "move 5 7"]}, stop_after="move")
    with pytest.raises(Stop):
        run_battle(load_scenario(path), 3, {"Good": probe})
    assert probe.said("move 5 8") == "7 squares, an Infantry unit moves at most 6 (FB-MOVE-01)"
    assert probe.said("move 5 7") == "move 5 7"


def test_orders_of_another_kind_get_the_engines_generic_reason() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))])
    decision = Decision("A", "burst", (Order("no-burst"), Order("burst")), subject="a")
    assert explain_refusal(state, decision, Order("move", (3, 3))) is None
    assert explain_refusal(None, decision, Order("burst")) is None


@rule("FB-CAV-06")
@rule("FB-AMB-32")
def test_a_dismounted_unit_is_set_down_on_one_of_its_own_free_squares() -> None:
    state = make_state(units=[dict(id="a", at=(4, 2)),
                              dict(id="k", side="B", rank="elite", cls="knight", at=(2, 2))])
    probe = Probe(tries={"dismount": ["place 5 5", "place 4 2"]})
    battle = probe_battle(state, dice=[6, 1, 1, 5], B=probe)
    combat.resolve_attack(state, battle, state.units["a"], state.units["k"], "melee")
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "place 5 5": "(5,5) is not one of the squares it may be set down on: (2,2), (2,3), "
                     "(3,2), (3,3) (FB-CAV-06)",
        "place 4 2": "(4,2) is held by a: the dismounted unit cannot stand there (FB-AMB-32)",
    }


@rule("FB-FEAT-06")
@rule("FB-AMB-38")
def test_frenzy_targets_follow_the_attack_rules() -> None:
    state = make_state(units=[dict(id="c", rank="champion", feats=["frenzy"], at=(2, 2)),
                              dict(id="dead", side="B", at=(3, 2)),
                              dict(id="next", side="B", at=(2, 3)),
                              dict(id="far", side="B", at=(6, 6))])
    probe = Probe(tries={"frenzy": ["frenzy dead", "frenzy far"]})
    battle = probe_battle(state, dice=[6, 6, 6, 1], A=probe)
    combat.resolve_attack(state, battle, state.units["c"], state.units["dead"], "melee")
    assert {t: probe.said(t) for t in probe.verdicts} == {
        "frenzy dead": "dead is not on the battlefield (FB-COMBAT-07)",
        "frenzy far": "far is 4 squares away: a Warrior attacks only adjacent enemies "
                      "(FB-INF-01)",
    }


@rule("FB-REINF-04")
def test_a_second_elite_in_one_round_is_refused() -> None:
    state = make_state(units=[dict(id="e1", rank="elite"), dict(id="e2", rank="elite"),
                              dict(id="s1"), dict(id="b", side="B", at=(9, 9))],
                       reinforcements=True)
    for uid in ("e1", "e2", "s1"):
        state.units[uid].status = IN_POOL
    probe = Probe(script={"reinforce": ["reinforce e1"]},
                  tries={"reinforce#2": ["reinforce e2"]}, stop_after="reinforce#2")
    with pytest.raises(Stop):
        game.reinforce(state, probe_battle(state, A=probe), "A")
    assert probe.said("reinforce e2") == (
        "A has brought back 1 elite unit(s) this round, the most it may (FB-REINF-04)")


@rule("FB-SETUP-13")
def test_a_squad_member_is_deployed_next_to_a_squad_mate(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "skirmish.yaml", ("first_player: random", "first_player: A"),
                     ("{id: g-spear-1, class: warrior, at: [5, 1]}",
                      "{id: g-spear-1, class: warrior}"))
    probe = Probe(tries={"deploy": ["deploy 0 0"]}, stop_after="deploy")
    with pytest.raises(Stop):
        run_battle(load_scenario(path), 1, {"Good": probe})
    assert probe.said("deploy 0 0") == (
        "g-spear-1 must be deployed next to a unit of its squad g-spears (FB-SETUP-13)")


@rule("FB-SETUP-10")
def test_terrain_placed_too_near_another_piece_is_refused(tmp_path: Path) -> None:
    """Good's L-shaped wall goes at (2,2)-(4,2) and (2,3); its thorns may not touch it."""
    path = _scenario(tmp_path, "constructed.yaml", ("first_player: random", "first_player: A"))
    probe = Probe(script={"terrain": ["place 0 2 2"]}, tries={"terrain#2": ["place 1 2 5"]},
                  stop_after="terrain#2")
    with pytest.raises(Stop):
        run_battle(load_scenario(path), 1, {"Good": probe})
    assert probe.said("place 1 2 5") == (
        "(2,5) is nearer than 2 squares to the terrain at (2,3) (FB-SETUP-10)")


@rule("FB-AMB-47")
def test_a_square_that_is_not_among_the_nearest_at_the_foot_of_the_slope() -> None:
    state = make_state(units=[dict(id="a", at=(2, 2))])
    decision = Decision("A", "forced_space", (Order("place", (1, 1)), Order("place", (3, 1))),
                        subject="a")
    assert str(explain_refusal(state, decision, Order("place", (5, 5)))) == (
        "(5,5) is not one of the nearest legal spaces at the foot of the slope: (1,1), (3,1) "
        "(FB-AMB-47)")


class _Garbage(Probe):
    """Judges odd orders at every decision (each must be answered, never raise), then
    answers with an option drawn by its generator."""

    TEXTS = ("move -5 99", "move 3 3 via 3 3", "move 1 1 via 1", "attack nobody", "attack 12",
             "activate 12", "face 3", "reroll-own -1", "reroll-foe 9", "place 1", "place 1 2 3",
             "deploy 0 0", "join 3", "protect 5", "frenzy", "charge 7", "member x", "throw 4",
             "pass", "hold 1", "new-squad", "reinforce 2", "reform 1")

    def choose(self, decision: Decision, state: object) -> Order:
        texts = list(self.TEXTS)
        for option in decision.options[:3]:
            texts += [f"{option} x", *(f"{option.kind} {uid}" for uid in list(
                getattr(state, "units", {}))[:4])]
            if len(option.args) == 2:
                x, y = option.args
                texts += [f"move {x} {y + 1} via {x + 1} {y}", f"{option.kind} {x + 9} {y}"]
        for text in texts:
            verdict = self.judge(decision, text)
            assert isinstance(verdict, (Order, Refusal)), (decision.kind, text)
        return decision.options[int(self.rng.integers(decision.option_count))]


def test_odd_orders_at_every_decision_of_a_battle_are_answered() -> None:
    scenario = load_scenario(EXAMPLES / "skirmish.yaml")
    run_battle(scenario, 0, {side: _Garbage() for side in ("Good", "Evil")})
