"""Resolving attacks: dice, Fate Points, Protect, results, dismounting, scoring and Frenzy."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from warhost.core.decisions import Decision
from warhost.core.dice import SeededDice
from warhost.core.engine import Battle
from warhost.core.events import EventLog
from warhost.core.orders import Order
from warhost.rulesets.fantasy_battle import feats
from warhost.rulesets.fantasy_battle.combat import resolve_attack
from warhost.rulesets.fantasy_battle.model import Ability
from warhost.rulesets.fantasy_battle.state import DEFEATED, ON_MAP, FBState

from .helpers import events, make_battle, make_state


def u(uid: str, at: tuple[int, int] | None, side: str = "A", **kw: Any) -> dict[str, Any]:
    return {"id": uid, "at": at, "side": side, **kw}


def ab(**fields: Any) -> Ability:
    return Ability.model_validate(fields)


def st(*units: dict[str, Any], **kw: Any) -> FBState:
    return make_state(units=list(units), **kw)


def spy(battle: Battle) -> list[Decision]:
    """Every decision put to a commander (including single-option ones) from now on."""
    seen: list[Decision] = []
    decide = battle.decide

    def wrapped(decision: Decision) -> Order:
        seen.append(decision)
        return decide(decision)

    battle.decide = wrapped  # type: ignore[method-assign]
    return seen


def attack(state: FBState, battle: Battle, a: str, t: str, kind: str = "melee",
           **kw: Any) -> str:
    return resolve_attack(state, battle, state.units[a], state.units[t], kind, **kw)


def result_event(battle: Battle, n: int = 0) -> dict[str, Any]:
    return events(battle, "attack_result")[n]


def kinds(seen: list[Decision]) -> list[tuple[str, str]]:
    return [(d.side, d.kind) for d in seen]


# --------------------------------------------------------------------------- dice and comparison


@pytest.mark.rule("FB-COMBAT-01", "FB-RANK-01", "FB-GEN-02")
@pytest.mark.parametrize("att,dfn,dice,totals,success", [
    ("standard", "standard", [3, 2], (3, 2), True),
    ("elite", "standard", [1, 5, 4], (5, 4), True),
    ("champion", "elite", [1, 6, 2, 5, 5], (6, 5), True),
    ("elite", "champion", [4, 1, 3, 4, 2], (4, 4), False),
    ("champion", "champion", [2, 2, 3, 1, 1, 6], (3, 6), False),
])
def test_each_rank_rolls_its_dice_and_keeps_the_highest(
    att: str, dfn: str, dice: list[int], totals: tuple[int, int], success: bool
) -> None:
    s = st(u("a", (4, 5), rank=att), u("t", (5, 5), "B", rank=dfn))
    b = make_battle(s, dice=dice)
    attack(s, b, "a", "t")
    rolls = events(b, "roll")
    n = {"standard": 1, "elite": 2, "champion": 3}
    assert [r["expr"] for r in rolls] == [f"{n[att]}d6", f"{n[dfn]}d6"]
    assert all(int(r["expr"].split("d")[0]) <= 3 and r["expr"].endswith("d6") for r in rolls)
    ev = result_event(b)
    assert (ev["attack_total"], ev["defense_total"], ev["success"]) == (*totals, success)
    assert b.dice.unused == 0  # type: ignore[attr-defined]


@pytest.mark.rule("FB-COMBAT-03", "FB-AMB-14")
@pytest.mark.parametrize("dice,result", [([5, 4], "defeat"), ([4, 4], "fail"), ([3, 4], "fail")])
def test_attacker_must_roll_strictly_higher(dice: list[int], result: str) -> None:
    s = st(u("a", (4, 5)), u("t", (5, 5), "B"))
    b = make_battle(s, dice=dice)
    assert attack(s, b, "a", "t") == result
    if result == "fail":
        assert s.units["t"].on_map and s.units["a"].on_map  # FB-AMB-31: no other effect


@pytest.mark.rule("FB-COMBAT-02", "FB-AMB-31", "FB-RANK-02")
def test_modifiers_change_the_results() -> None:
    s = st(u("k", (3, 5), cls="knight"), u("t", (5, 5), "B"),
           u("w", (4, 8)), u("ar", (5, 8), "B", cls="archer"))
    b = make_battle(s, dice=[3, 3, 3, 3])
    assert attack(s, b, "k", "t") == "defeat"  # 3+1 > 3 (Cavalry against Infantry)
    assert attack(s, b, "w", "ar") == "defeat"  # 3 > 3-1 (Archer defending)
    assert [(e["attack_total"], e["defense_total"]) for e in events(b, "attack_result")] == [
        (4, 3), (3, 2)]


@pytest.mark.rule("FB-AMB-31", "FB-ARCHER-06")
def test_results_are_not_clamped_long_range_archer_cannot_win() -> None:
    s = st(u("a", (0, 0), cls="archer"), u("t", (31, 0), "B"), width=40)
    b = make_battle(s, dice=[6, 1])
    assert attack(s, b, "a", "t", "ranged") == "fail"
    ev = result_event(b)
    assert (ev["attack_total"], ev["defense_total"]) == (1, 1)


@pytest.mark.rule("FB-ARCHER-01", "FB-ARCHER-04", "FB-ARCHER-06", "FB-INF-02")
@pytest.mark.parametrize("dice,result", [([4, 1], "defeat"), ([4, 2], "fail")])
def test_ranged_attack_with_range_and_line_penalties(dice: list[int], result: str) -> None:
    s = st(u("a", (0, 2), cls="archer"), u("t", (8, 2), "B"), terrain={(4, 2): "hindering"})
    b = make_battle(s, dice=dice)
    assert attack(s, b, "a", "t", "ranged") == result
    assert events(b, "attack")[0]["attack_mod"] == -2


@pytest.mark.rule("FB-PIKE-06", "FB-CAV-09")
@pytest.mark.parametrize("cls", ["pike", "lancer"])
def test_charging_bonus_in_resolution(cls: str) -> None:
    s = st(u("p", (3, 5), cls=cls, facing="east"), u("t", (5, 5), "B", cls="knight"))
    b = make_battle(s, dice=[3, 3, 3, 3])
    assert attack(s, b, "p", "t") == "fail"
    assert attack(s, b, "p", "t", charging=True) == "defeat"


# --------------------------------------------------------------------------- results


@pytest.mark.rule("FB-COMBAT-04", "FB-COMBAT-07", "FB-WIN-02", "FB-WIN-03")
@pytest.mark.parametrize("rank,points,dice", [("standard", 1, [6, 1]), ("elite", 2, [6, 1, 1])])
def test_infantry_standard_and_elite_are_defeated_and_removed(
    rank: str, points: int, dice: list[int]
) -> None:
    s = st(u("a", (4, 5)), u("t", (5, 5), "B", rank=rank))
    b = make_battle(s, dice=dice)
    assert attack(s, b, "a", "t") == "defeat"
    t = s.units["t"]
    assert t.status == DEFEATED and t.anchor is None and (5, 5) not in s.occupied
    assert s.scores == {"A": points, "B": 0}
    assert events(b, "defeated")[0]["points"] == points


@pytest.mark.rule("FB-COMBAT-05", "FB-COMBAT-06", "FB-WIN-03", "FB-WIN-06", "FB-AMB-31")
def test_champion_infantry_is_wounded_then_defeated() -> None:
    s = st(u("a", (4, 5)), u("t", (5, 5), "B", rank="champion"))
    b = make_battle(s, dice=[6, 1, 1, 1, 6, 2, 2, 2])
    assert attack(s, b, "a", "t") == "wound"
    assert s.units["t"].wounded and s.units["t"].on_map
    assert s.scores == {"A": 0, "B": 0}
    assert events(b, "wounded") == [{"seq": 4, "type": "wounded", "unit": "t", "side": "B"}]
    assert attack(s, b, "a", "t") == "defeat"
    assert events(b, "roll")[-1]["expr"] == "3d6"  # a wounded Champion still rolls 3 dice
    assert s.scores["A"] == 3


@pytest.mark.rule("FB-CAV-04", "FB-WIN-03")
def test_standard_cavalry_is_defeated() -> None:
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight"))
    b = make_battle(s, dice=[6, 1])
    assert attack(s, b, "a", "k") == "defeat"
    assert s.units["k"].status == DEFEATED
    assert s.scores["A"] == 1


@pytest.mark.rule("FB-CAV-05", "FB-WIN-06")
@pytest.mark.parametrize("face,result", [(1, "defeat"), (3, "defeat"), (4, "dismount"),
                                         (6, "dismount")])
def test_elite_cavalry_rolls_a_die(face: int, result: str) -> None:
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="elite"))
    b = make_battle(s, dice=[6, 1, 1, face])
    assert attack(s, b, "a", "k") == result
    assert events(b, "dismount_roll")[0]["face"] == face
    assert s.scores["A"] == (2 if result == "defeat" else 0)


@pytest.mark.rule("FB-CAV-07", "FB-WIN-06", "FB-AMB-33")
def test_champion_cavalry_is_dismounted_without_a_die() -> None:
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="champion"))
    b = make_battle(s, dice=[6, 1, 1, 1])
    assert attack(s, b, "a", "k") == "dismount"
    assert b.dice.unused == 0  # type: ignore[attr-defined]
    assert events(b, "dismount_roll") == []
    k = s.units["k"]
    assert k.dismounted and k.type == "infantry" and not k.wounded
    assert s.scores["A"] == 0


@pytest.mark.rule("FB-AMB-33", "FB-CAV-07", "FB-COMBAT-05", "FB-COMBAT-06")
@pytest.mark.parametrize("counts", [False, True])
def test_champion_cavalry_hits_needed(counts: bool) -> None:
    """Reading (a): three successful attacks in all; with the option, two."""
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="champion"),
           champion_dismount_counts_as_wound=counts)
    b = make_battle(s, dice=[6, 1, 1, 1] * 3)
    results = [attack(s, b, "a", "k")]
    assert s.units["k"].anchor == (4, 5)  # the owner's default square, still next to "a"
    while results[-1] != "defeat":
        results.append(attack(s, b, "a", "k"))
    assert results == (["dismount", "defeat"] if counts else ["dismount", "wound", "defeat"])


# --------------------------------------------------------------------------- dismounting


@pytest.mark.rule("FB-CAV-06", "FB-AMB-32", "FB-RANK-03")
def test_dismounted_knight_becomes_a_warrior_on_a_chosen_square() -> None:
    horn = ab(name="horn", attack=1)
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="elite", unique=True, fate=2,
                              abilities=[horn], feats=[]))
    b = make_battle(s, dice=[6, 1, 1, 5], orders={"B": ["fate-pass", "place 5 6"]})
    seen = spy(b)
    assert attack(s, b, "a", "k") == "dismount"
    k = s.units["k"]
    assert (k.type, k.cls, k.size, k.dismounted, k.rank, k.unique) == (
        "infantry", "warrior", 1, True, "elite", True)
    assert k.anchor == (5, 6) and s.occupied == {(3, 5): "a", (5, 6): "k"}
    assert k.fate - k.fate_spent == 2 and [a.name for a in k.abilities] == ["horn"]
    assert k.original_cls == "knight"
    place = next(d for d in seen if d.kind == "dismount")
    assert [str(o) for o in place.options] == ["place 4 5", "place 4 6", "place 5 5", "place 5 6"]
    assert events(b, "dismounted")[0]["at"] == [5, 6]


@pytest.mark.rule("FB-CAV-06", "FB-AMB-32", "FB-PIKE-01", "FB-AMB-23")
@pytest.mark.parametrize("facings,orders,facing", [
    (4, ["face north"], (0, 1)), (4, [], (-1, 0)), (8, ["face southwest"], (-1, -1)),
])
def test_dismounted_lancer_becomes_a_pike_and_chooses_its_facing(
    facings: int, orders: list[str], facing: tuple[int, int]
) -> None:
    s = st(u("a", (3, 5)), u("l", (4, 5), "B", cls="lancer", rank="champion"),
           pike_facings=facings)
    b = make_battle(s, dice=[6, 1, 1, 1], orders={"B": ["place 4 5", *orders]})
    seen = spy(b)
    assert attack(s, b, "a", "l") == "dismount"
    lancer = s.units["l"]
    assert (lancer.cls, lancer.facing, lancer.anchor) == ("pike", facing, (4, 5))
    face = next(d for d in seen if d.kind == "facing")
    assert len(face.options) == facings
    assert face.default == Order("face", ("west",))  # towards the attacker


@pytest.mark.rule("FB-CAV-06", "FB-AMB-32", "FB-CAV-11")
def test_dismounted_mounted_archer_becomes_an_archer() -> None:
    s = st(u("a", (3, 5)), u("m", (4, 5), "B", cls="mounted_archer", rank="champion"))
    b = make_battle(s, dice=[6, 1, 1, 1])
    assert attack(s, b, "a", "m") == "dismount"
    assert (s.units["m"].cls, s.units["m"].facing) == ("archer", None)


@pytest.mark.rule("FB-CAV-06", "FB-AMB-02")
def test_dismount_with_single_square_cavalry_stays_put() -> None:
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="champion"),
           cavalry_footprint="1x1")
    b = make_battle(s, dice=[6, 1, 1, 1])
    seen = spy(b)
    assert attack(s, b, "a", "k") == "dismount"
    assert s.units["k"].anchor == (4, 5)
    assert seen == []  # nothing to choose


@pytest.mark.rule("FB-CAV-06", "FB-AMB-32")
def test_dismount_only_onto_legal_squares() -> None:
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="champion"))
    for sq in ((4, 5), (4, 6), (5, 5)):
        s.grid.set_terrain(sq, "slope")
    b = make_battle(s, dice=[6, 1, 1, 1])
    assert attack(s, b, "a", "k") == "dismount"
    assert s.units["k"].anchor == (5, 6)


@pytest.mark.rule("FB-AMB-32", "FB-AMB-47")
def test_dismount_to_the_nearest_legal_space_when_none_of_the_four_is() -> None:
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="champion"))
    for sq in ((4, 5), (4, 6), (5, 5), (5, 6)):
        s.grid.set_terrain(sq, "slope")
    b = make_battle(s, dice=[6, 1, 1, 1])
    assert attack(s, b, "a", "k") == "dismount"
    k = s.units["k"]
    assert k.on_map and k.anchor is not None
    assert s.terrain(k.anchor).name == "clear" and s.occupied[k.anchor] == "k"
    assert max(abs(k.anchor[0] - 4.5), abs(k.anchor[1] - 5.5)) == 1.5  # next to the old space


# --------------------------------------------------------------------------- scoring


@pytest.mark.rule("FB-WIN-04", "FB-FATE-04")
def test_fate_points_spent_in_the_fatal_attack_add_to_the_value() -> None:
    s = st(u("a", (4, 5)), u("t", (5, 5), "B", rank="elite", unique=True, fate=1))
    b = make_battle(s, dice=[5, 6, 1, 1], orders={"B": ["reroll-own 0"]})
    assert attack(s, b, "a", "t") == "defeat"
    assert s.scores["A"] == 2 + 1


@pytest.mark.rule("FB-WIN-05", "FB-WIN-04")
def test_feats_used_add_to_a_champions_value() -> None:
    s = st(u("a", (4, 5)), u("c", (5, 5), "B", rank="champion", wounded=True, unique=True,
                              fate=3, feats=["protect", "frenzy"]))
    c = s.units["c"]
    feats.use_feat(s, make_battle(s), c, "protect")
    c.fate_spent = 1
    b = make_battle(s, dice=[6, 1, 1, 1])
    assert attack(s, b, "a", "c") == "defeat"
    assert s.scores["A"] == 3 + 1 + 1


@pytest.mark.rule("FB-AMB-45", "FB-WIN-02")
def test_victory_ends_the_attack_before_frenzy() -> None:
    s = st(u("c", (5, 5), rank="champion", feats=["frenzy"]), u("t", (6, 5), "B"),
           u("t2", (4, 5), "B"), victory_points=1)
    b = make_battle(s, dice=[6, 1, 1, 1])
    seen = spy(b)
    assert attack(s, b, "c", "t") == "defeat"
    assert s.over and s.winner == "A"
    assert seen == [] and events(b, "victory")


# --------------------------------------------------------------------------- Fate Points


@pytest.mark.rule("FB-FATE-01", "FB-AMB-04")
def test_units_without_fate_points_are_never_asked() -> None:
    s = st(u("a", (4, 5), rank="champion"), u("t", (5, 5), "B", rank="elite"))
    b = make_battle(s, dice=[1, 2, 3, 4, 5])
    seen = spy(b)
    attack(s, b, "a", "t")
    assert seen == []


@pytest.mark.rule("FB-FATE-01", "FB-FATE-04", "FB-AMB-43")
def test_reroll_own_die() -> None:
    s = st(u("a", (4, 5), unique=True, fate=1), u("t", (5, 5), "B"))
    b = make_battle(s, dice=[2, 4, 6], orders={"A": ["reroll-own 0"]})
    seen = spy(b)
    assert attack(s, b, "a", "t") == "defeat"
    assert kinds(seen) == [("A", "fate")]
    assert [str(o) for o in seen[0].options] == ["fate-pass", "reroll-own 0", "reroll-foe 0"]
    assert seen[0].default == Order("fate-pass")
    fate = events(b, "fate")
    assert [(e["unit"], e["die_of"], e["old"], e["new"]) for e in fate] == [("a", "a", 2, 6)]
    assert s.units["a"].fate_spent == 1


@pytest.mark.rule("FB-FATE-04")
def test_force_the_opponent_to_reroll() -> None:
    s = st(u("a", (4, 5), unique=True, fate=1), u("t", (5, 5), "B"))
    b = make_battle(s, dice=[3, 5, 1], orders={"A": ["reroll-foe 0"]})
    assert attack(s, b, "a", "t") == "defeat"
    assert result_event(b)["defense_dice"] == [1]


@pytest.mark.rule("FB-FATE-05")
def test_reroll_replaces_even_if_lower() -> None:
    s = st(u("a", (4, 5), rank="elite", unique=True, fate=1), u("t", (5, 5), "B"))
    b = make_battle(s, dice=[5, 3, 4, 1], orders={"A": ["reroll-own 0"]})
    assert attack(s, b, "a", "t") == "fail"
    assert result_event(b)["attack_dice"] == [1, 3]


@pytest.mark.rule("FB-FATE-06", "FB-FATE-02")
def test_several_points_in_one_attack_and_they_are_gone() -> None:
    s = st(u("a", (4, 5), unique=True, fate=2), u("t", (5, 5), "B"), u("t2", (4, 6), "B"))
    b = make_battle(s, dice=[1, 4, 2, 5, 1, 6],
                    orders={"A": ["reroll-own 0", "reroll-own 0"]})
    seen = spy(b)
    assert attack(s, b, "a", "t") == "defeat"
    assert s.units["a"].fate_spent == 2 and len(events(b, "fate")) == 2
    assert kinds(seen) == [("A", "fate")] * 2  # two spends, then none left to spend
    seen.clear()
    assert attack(s, b, "a", "t2") == "fail"
    assert seen == []  # no Fate Points left: not asked again


@pytest.mark.rule("FB-FATE-07", "FB-AMB-43")
def test_reroll_a_die_produced_by_the_opponents_fate_point() -> None:
    s = st(u("a", (4, 5), unique=True, fate=1), u("t", (5, 5), "B", unique=True, fate=1))
    b = make_battle(s, dice=[3, 2, 6, 1],
                    orders={"A": ["reroll-foe 0"], "B": ["reroll-own 0"]})
    seen = spy(b)
    assert attack(s, b, "a", "t") == "defeat"
    assert kinds(seen) == [("A", "fate"), ("B", "fate")]
    assert [(e["unit"], e["die_of"], e["old"], e["new"]) for e in events(b, "fate")] == [
        ("a", "t", 2, 6), ("t", "t", 6, 1)]


@pytest.mark.rule("FB-AMB-43", "FB-FATE-06")
def test_window_alternates_and_closes_after_two_passes_in_succession() -> None:
    s = st(u("a", (4, 5), unique=True, fate=1), u("t", (5, 5), "B", unique=True, fate=2))
    b = make_battle(s, dice=[4, 5, 2], orders={"A": ["fate-pass"], "B": ["reroll-own 0"]})
    seen = spy(b)
    assert attack(s, b, "a", "t") == "defeat"
    assert kinds(seen) == [("A", "fate"), ("B", "fate"), ("A", "fate"), ("B", "fate")]
    assert (s.units["a"].fate_spent, s.units["t"].fate_spent) == (0, 1)


@pytest.mark.rule("FB-FATE-03", "FB-AMB-43")
def test_only_the_two_units_in_the_fight_may_spend() -> None:
    s = st(u("a", (4, 5)), u("t", (5, 5), "B"), u("hero", (3, 5), unique=True, fate=3),
           u("foe", (6, 5), "B", unique=True, fate=3))
    b = make_battle(s, dice=[4, 3])
    seen = spy(b)
    attack(s, b, "a", "t")
    assert seen == []


@pytest.mark.rule("FB-AMB-32", "FB-CAV-05", "FB-FATE-04")
def test_fate_on_the_dismount_die() -> None:
    def run(option: bool, orders: dict[str, list[str]], dice: list[int],
            a_fate: int = 0) -> str:
        s = st(u("a", (3, 5), unique=a_fate > 0, fate=a_fate),
               u("k", (4, 5), "B", cls="knight", rank="elite", unique=True, fate=1),
               fate_on_dismount_roll=option)
        return attack(s, make_battle(s, dice=dice, orders=orders), "a", "k")

    # the owner rerolls a defeating die into a dismount
    assert run(True, {"B": ["fate-pass", "reroll-own 0"]}, [5, 2, 1, 2, 5]) == "dismount"
    # without the option there is no window on that die
    assert run(False, {"B": ["fate-pass", "reroll-own 0"]}, [5, 2, 1, 2]) == "defeat"
    # the attacker forces a reroll of a dismounting die
    assert run(True, {"A": ["fate-pass", "reroll-foe 0"]}, [5, 2, 1, 5, 1],
               a_fate=1) == "defeat"


# --------------------------------------------------------------------------- Protect


def protect_state(**kw: Any) -> FBState:
    champ = {"side": "B", "rank": "champion", "feats": ["protect"], **kw.pop("champ", {})}
    return st(u("a", (4, 5)), u("t", (5, 5), "B", **kw.pop("target", {})),
              u("c", kw.pop("c_at", (6, 6)), **champ), **kw)


@pytest.mark.rule("FB-FEAT-08", "FB-AMB-40")
def test_protect_makes_a_successful_attack_fail() -> None:
    s = protect_state()
    b = make_battle(s, dice=[5, 2], orders={"B": ["protect c"]})
    seen = spy(b)
    assert attack(s, b, "a", "t") == "protected"
    assert kinds(seen) == [("B", "protect")]
    assert [str(o) for o in seen[0].options] == ["no-protect", "protect c"]
    assert s.units["t"].on_map and s.scores == {"A": 0, "B": 0}
    c = s.units["c"]
    assert c.feats_used == [True] and c.feats_used_since_entry == 1 and "c" in s.turn_feats
    assert events(b, "protected") == [{"seq": 6, "type": "protected", "unit": "t", "by": "c"}]


@pytest.mark.rule("FB-FEAT-08")
def test_protect_is_optional() -> None:
    s = protect_state()
    b = make_battle(s, dice=[5, 2])
    assert attack(s, b, "a", "t") == "defeat"
    assert s.units["c"].feats_used == [False]


@pytest.mark.rule("FB-FEAT-08", "FB-AMB-40")
@pytest.mark.parametrize("kw", [
    {"c_at": (7, 7)},  # not adjacent
    {"terrain": {(6, 6): "elevated"}},  # not on the same level
    {"champ": {"feats": ["frenzy"]}},  # no Protect entry
    {"champ": {"side": "A"}},  # an enemy Champion
    {"champ": {"rank": "elite"}},  # not a Champion
])
def test_protect_not_offered(kw: dict[str, Any]) -> None:
    s = protect_state(**kw)
    b = make_battle(s, dice=[5, 2])
    seen = spy(b)
    assert attack(s, b, "a", "t") == "defeat"
    assert seen == []


@pytest.mark.rule("FB-AMB-40", "FB-FEAT-08")
def test_champion_cannot_protect_itself_nor_twice_a_turn_nor_a_failed_attack() -> None:
    s = st(u("a", (4, 5)), u("c", (5, 5), "B", rank="champion", feats=["protect"]))
    b = make_battle(s, dice=[6, 1, 1, 1])
    seen = spy(b)
    assert attack(s, b, "a", "c") == "wound" and seen == []
    s = protect_state()
    s.turn_feats.add("c")  # c already used a Feat this turn (FB-FEAT-03)
    b = make_battle(s, dice=[5, 2])
    seen = spy(b)
    assert attack(s, b, "a", "t") == "defeat" and seen == []
    s = protect_state()
    b = make_battle(s, dice=[2, 5])
    seen = spy(b)
    assert attack(s, b, "a", "t") == "fail" and seen == []


@pytest.mark.rule("FB-AMB-40", "FB-AMB-32", "FB-AMB-43")
def test_protect_comes_after_fate_and_before_the_dismount_die() -> None:
    s = protect_state(target={"cls": "knight", "rank": "elite", "unique": True, "fate": 1},
                      c_at=(7, 7))
    s.place(s.units["a"], (4, 4))
    b = make_battle(s, dice=[5, 6, 2, 1], orders={"B": ["reroll-own 0", "protect c"]})
    assert attack(s, b, "a", "t") == "protected"
    assert b.dice.unused == 0  # type: ignore[attr-defined]
    order = [e["type"] for e in b.log if e["type"] in ("fate", "attack_result", "protected")]
    assert order == ["fate", "attack_result", "protected"]
    assert events(b, "dismount_roll") == []


# --------------------------------------------------------------------------- Frenzy


def frenzy_state(**kw: Any) -> FBState:
    champ = {"rank": "champion", "feats": ["frenzy"], **kw.pop("champ", {})}
    return st(u("c", (5, 5), **champ),
              u("t1", (6, 5), "B"), u("t2", (6, 6), "B"), u("far", (9, 9), "B"), **kw)


@pytest.mark.rule("FB-FEAT-06", "FB-AMB-38", "FB-AMB-25")
def test_frenzy_second_attack_without_charge_bonus() -> None:
    s = frenzy_state(champ={"cls": "pike", "facing": "east"})
    b = make_battle(s, dice=[6, 1, 1, 2, 4, 1, 1, 4], orders={"A": ["frenzy t2"]})
    seen = spy(b)
    assert attack(s, b, "c", "t1", charging=True) == "defeat"
    frenzy = [d for d in seen if d.kind == "frenzy"]
    assert [str(o) for o in frenzy[0].options] == ["no-frenzy", "frenzy t2"]
    attacks = events(b, "attack")
    assert [(e["target"], e["charging"], e["second"], e["attack_mod"]) for e in attacks] == [
        ("t1", True, False, 1), ("t2", False, True, 0)]
    assert s.units["t2"].on_map  # 4 + 0 does not beat 4
    assert s.units["c"].feats_used == [True] and events(b, "feat")[0]["feat"] == "frenzy"


@pytest.mark.rule("FB-FEAT-06", "FB-AMB-38")
def test_frenzy_is_optional_and_no_third_attack() -> None:
    s = frenzy_state(champ={"feats": ["frenzy", "frenzy"]}, feat_limit_scope="turn")
    b = make_battle(s, dice=[6, 1, 1, 1])
    assert attack(s, b, "c", "t1") == "defeat"
    assert s.units["t2"].on_map and s.units["c"].feats_used == [False, False]
    s = frenzy_state(champ={"feats": ["frenzy", "frenzy"]})
    b = make_battle(s, dice=[6, 1, 1, 1])
    seen = spy(b)
    assert attack(s, b, "c", "t1", second=True) == "defeat"
    assert seen == []  # a second attack never triggers Frenzy


@pytest.mark.rule("FB-FEAT-06", "FB-AMB-38", "FB-AMB-40")
@pytest.mark.parametrize("case", ["wound", "protected", "no_target", "feat_used", "not_champion"])
def test_frenzy_only_after_a_defeat_with_a_legal_target(case: str) -> None:
    orders: dict[str, list[str]] = {}
    if case == "wound":
        s = frenzy_state()
        s.units["t1"].rank = "champion"
        dice = [6, 1, 1, 1, 1, 1]
    elif case == "protected":
        s = frenzy_state()
        s.units["t2"].rank = "champion"
        s.units["t2"].feats = ["protect"]
        s.units["t2"].feats_used = [False]
        orders = {"B": ["protect t2"]}
        dice = [6, 1, 1, 1]
    elif case == "no_target":
        s = frenzy_state()
        s.remove(s.units["t2"], DEFEATED)
        dice = [6, 1, 1, 1]
    elif case == "feat_used":
        s = frenzy_state()
        s.turn_feats.add("c")
        dice = [6, 1, 1, 1]
    else:
        s = frenzy_state(champ={"rank": "elite"})
        dice = [6, 1, 1]
    b = make_battle(s, dice=dice, orders=orders)
    seen = spy(b)
    attack(s, b, "c", "t1")
    assert "frenzy" not in [d.kind for d in seen]
    assert len(events(b, "attack")) == 1


# --------------------------------------------------------------------------- abilities


@pytest.mark.rule("FB-ABIL-02", "FB-AMB-48", "FB-ABIL-01")
@pytest.mark.parametrize("orders,mod,declined", [
    ([], 2, False), (["decline-abilities"], 0, True), (["use-abilities"], 2, False),
])
def test_owner_may_decline_abilities(orders: list[str], mod: int, declined: bool) -> None:
    s = st(u("e", (4, 5), rank="elite", abilities=[ab(name="rage", attack=2)]),
           u("t", (5, 5), "B"))
    b = make_battle(s, dice=[1, 1, 1], orders={"A": orders})
    seen = spy(b)
    attack(s, b, "e", "t")
    assert kinds(seen) == [("A", "ability")]
    assert seen[0].default == Order("use-abilities")
    assert events(b, "attack")[0]["attack_mod"] == mod
    assert bool(events(b, "ability_declined")) == declined


@pytest.mark.rule("FB-ABIL-02", "FB-AMB-48")
def test_asked_only_when_an_ability_would_change_the_roll() -> None:
    guard = ab(name="guard", defense=1)
    s = st(u("e", (4, 5), rank="elite", abilities=[guard]),
           u("t", (5, 5), "B", rank="elite", abilities=[guard]))
    b = make_battle(s, dice=[1, 1, 1, 1], orders={"B": ["decline-abilities"]})
    seen = spy(b)
    attack(s, b, "e", "t")
    assert kinds(seen) == [("B", "ability")]  # e's guard does nothing for its attack roll
    assert events(b, "attack")[0]["defense_mod"] == 0
    assert events(b, "ability_declined")[0]["unit"] == "t"


# --------------------------------------------------------------------------- order and targets


@pytest.mark.rule("FB-AMB-43")
def test_sequence_of_one_attack() -> None:
    s = st(u("a", (4, 5), rank="elite", unique=True, fate=1,
             abilities=[ab(name="rage", attack=1)]),
           u("k", (5, 5), "B", cls="knight", rank="elite"),
           u("c", (7, 5), "B", rank="champion", feats=["protect"]))
    b = make_battle(s, dice=[1, 2, 2, 1, 6, 4], orders={"A": ["reroll-own 0"]})
    assert attack(s, b, "a", "k") == "dismount"
    interesting = ("decision", "attack", "roll", "fate", "attack_result", "dismount_roll",
                   "dismounted", "feat", "protected")
    got = [(e["type"], e.get("kind", e.get("why", ""))) for e in b.log
           if e["type"] in interesting]
    assert got == [
        ("decision", "ability"), ("attack", "melee"), ("roll", "attack by a"),
        ("roll", "defense by k"), ("decision", "fate"), ("roll", "fate reroll by a"),
        ("fate", ""), ("attack_result", "melee"), ("decision", "protect"),
        ("roll", "dismount roll for k"), ("dismount_roll", ""), ("decision", "dismount"),
        ("dismounted", ""),
    ]


@pytest.mark.rule("FB-ROUND-08", "FB-FEAT-09", "FB-AMB-35")
def test_one_attack_hits_one_target_only_and_throw_resolves() -> None:
    s = st(u("c", (5, 5), rank="champion", feats=["throw"]), u("t", (6, 5), "B"),
           u("x", (6, 6), "B"), u("far", (8, 5), "B"))
    b = make_battle(s, dice=[6, 1, 1, 1, 6, 1, 1, 1])
    assert attack(s, b, "c", "t") == "defeat"
    assert s.units["x"].on_map and s.units["far"].on_map
    assert attack(s, b, "c", "far", "throw") == "defeat"
    assert s.units["x"].on_map and s.scores["A"] == 2


# --------------------------------------------------------------------------- distribution


@pytest.mark.rule("FB-COMBAT-01", "FB-COMBAT-03", "FB-GEN-02")
def test_elite_against_standard_success_rate_matches_exact_probability() -> None:
    """P(max of 2d6 > 1d6), by enumerating all 6^3 outcomes, equals 125/216; 20,000 seeded
    resolutions must land within 4 standard errors of it."""
    wins = sum(1 for a in range(1, 7) for b_ in range(1, 7) for d in range(1, 7)
               if max(a, b_) > d)
    exact = wins / 216
    assert wins == 125
    s = st(u("e", (4, 5), rank="elite"), u("t", (5, 5), "B"), victory_points=10**9)
    b = make_battle(s)
    b.log = EventLog(record=False)
    b.dice = SeededDice(20240601)
    target = s.units["t"]
    n = 20_000
    hits = 0
    for _ in range(n):
        if attack(s, b, "e", "t") == "defeat":
            hits += 1
            target.status = ON_MAP
            s.place(target, (5, 5))
    se = (exact * (1 - exact) / n) ** 0.5
    assert abs(hits / n - exact) < 4 * se
    assert s.scores["A"] == hits


@pytest.mark.rule("FB-AMB-32", "FB-AMB-47")
def test_dismount_fallback_search_without_the_movement_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no ``movement.nearest_legal_space`` the owner picks among the nearest legal ground
    squares around the old space."""
    monkeypatch.setitem(sys.modules, "warhost.rulesets.fantasy_battle.movement", None)
    s = st(u("a", (3, 5)), u("k", (4, 5), "B", cls="knight", rank="champion"))
    for sq in ((4, 5), (4, 6), (5, 5), (5, 6), (6, 4), (6, 5)):
        s.grid.set_terrain(sq, "slope")
    s.grid.set_terrain((6, 6), "elevated", 1)
    b = make_battle(s, dice=[6, 1, 1, 1], orders={"B": ["place 6 7"]})
    seen = spy(b)
    assert attack(s, b, "a", "k") == "dismount"
    assert s.units["k"].anchor == (6, 7)
    offered = {tuple(o.args) for o in seen[0].options}
    assert (3, 5) not in offered and (6, 5) not in offered and (6, 6) not in offered
    assert offered == {(3, 4), (4, 4), (5, 4), (3, 6), (3, 7), (4, 7), (5, 7), (6, 7)}
