"""Combat modifiers: the FB-COMBAT-08 table, Flanking geometry, special abilities and caps."""

from __future__ import annotations

import re
from typing import Any

import pytest

from warhost.rulesets.fantasy_battle.combat import abilities_affecting, flanking, modifiers
from warhost.rulesets.fantasy_battle.model import Ability
from warhost.rulesets.fantasy_battle.state import FBState

from .helpers import make_state


def u(uid: str, at: tuple[int, int] | None, side: str = "A", **kw: Any) -> dict[str, Any]:
    return {"id": uid, "at": at, "side": side, **kw}


def mods(state: FBState, a: str, t: str, kind: str = "melee", charging: bool = False,
         **kw: Any) -> tuple[int, int]:
    att, dfn, _ = modifiers(state, state.units[a], state.units[t], kind, charging, **kw)
    return att, dfn


# --------------------------------------------------------------------------- Cavalry


@pytest.mark.rule("FB-CAV-01", "FB-RANK-02")
def test_cavalry_plus_one_against_infantry_only() -> None:
    s = make_state(units=[u("k", (2, 2), cls="knight"), u("w", (4, 2), "B"),
                          u("k2", (2, 4), "B", cls="knight")])
    assert mods(s, "k", "w") == (1, 0)
    assert mods(s, "k", "k2") == (0, 0)
    assert mods(s, "w", "k") == (0, 0)


@pytest.mark.rule("FB-CAV-01", "FB-CAV-11", "FB-AMB-35")
def test_cavalry_bonus_applies_to_ranged_and_throw_too() -> None:
    s = make_state(units=[u("m", (0, 0), cls="mounted_archer"), u("w", (5, 0), "B"),
                          u("c", (0, 6), cls="knight", rank="champion"), u("w2", (4, 6), "B")])
    assert mods(s, "m", "w", "ranged") == (1, 0)
    assert mods(s, "c", "w2", "throw") == (1, 0)


# --------------------------------------------------------------------------- Flanking


@pytest.mark.rule("FB-WARRIOR-01", "FB-WARRIOR-02", "FB-WARRIOR-03", "FB-AMB-51")
@pytest.mark.parametrize("attacker,friend", [
    ((4, 5), (6, 5)), ((5, 4), (5, 6)), ((4, 4), (6, 6)), ((4, 6), (6, 4)),
])
def test_flanking_on_opposite_sides(attacker: tuple[int, int], friend: tuple[int, int]) -> None:
    s = make_state(units=[u("w", attacker), u("t", (5, 5), "B"), u("f", friend)])
    assert mods(s, "w", "t") == (1, 0)
    _, _, notes = modifiers(s, s.units["w"], s.units["t"], "melee", False)
    assert notes == ["attack +1 flanking with f [FB-WARRIOR-01]"]


@pytest.mark.rule("FB-WARRIOR-03", "FB-AMB-51")
@pytest.mark.parametrize("friend", [(6, 6), (6, 4), (5, 6), (4, 4)])
def test_no_flanking_when_not_opposite(friend: tuple[int, int]) -> None:
    s = make_state(units=[u("w", (4, 5)), u("t", (5, 5), "B"), u("f", friend)])
    assert mods(s, "w", "t") == (0, 0)


@pytest.mark.rule("FB-WARRIOR-02")
def test_flanking_friend_must_be_adjacent_to_the_target() -> None:
    s = make_state(units=[u("w", (4, 5)), u("t", (5, 5), "B"), u("f", (7, 5))])
    assert mods(s, "w", "t") == (0, 0)


@pytest.mark.rule("FB-WARRIOR-02", "FB-AMB-51", "FB-TERRAIN-07")
def test_flanking_friend_must_be_on_the_same_level() -> None:
    s = make_state(units=[u("w", (4, 5)), u("t", (5, 5), "B"), u("f", (6, 5))],
                   terrain={(6, 5): "elevated"})
    assert mods(s, "w", "t") == (0, 0)


@pytest.mark.rule("FB-WARRIOR-04", "FB-AMB-51")
@pytest.mark.parametrize("cls", ["archer", "pike", "warrior"])
def test_any_friendly_unit_provides_the_flank(cls: str) -> None:
    """Even an Archer, which could not attack the target itself; even another squad."""
    s = make_state(units=[u("w", (4, 5), squad="s1"), u("t", (5, 5), "B"),
                          u("f", (6, 5), cls=cls, squad="s2", facing="south")])
    assert mods(s, "w", "t") == (1, 0)


@pytest.mark.rule("FB-WARRIOR-01")
def test_enemy_on_the_far_side_does_not_flank_and_only_warrior_knight_flank() -> None:
    s = make_state(units=[u("w", (4, 5)), u("t", (5, 5), "B"), u("e", (6, 5), "B")])
    assert mods(s, "w", "t") == (0, 0)
    s = make_state(units=[u("p", (4, 5), cls="pike", facing="east"), u("t", (5, 5), "B"),
                          u("f", (6, 5))])
    assert mods(s, "p", "t") == (0, 0)


@pytest.mark.rule("FB-WARRIOR-01", "FB-COMBAT-08")
def test_flanking_is_melee_only() -> None:
    s = make_state(units=[u("c", (4, 5), rank="champion"), u("t", (6, 5), "B"),
                          u("f", (7, 5))])
    assert mods(s, "c", "t", "throw") == (0, 0)


@pytest.mark.rule("FB-CAV-08", "FB-WARRIOR-03", "FB-AMB-03", "FB-AMB-51")
def test_knight_flanks_using_centres_of_large_spaces() -> None:
    """Knight (4..5, 6..7), centre (5,7); target (5,5), centre (5.5,5.5); friendly Knight
    (5..6, 3..4), centre (6,4): the three centres lie on one line."""
    s = make_state(units=[u("k", (4, 6), cls="knight"), u("t", (5, 5), "B"),
                          u("f", (5, 3), cls="knight")])
    assert flanking(s, s.units["k"], s.units["t"]) is s.units["f"]
    assert mods(s, "k", "t") == (2, 0)  # +1 cavalry against infantry, +1 flanking


# --------------------------------------------------------------------------- Charging


@pytest.mark.rule("FB-PIKE-06", "FB-CAV-09")
def test_charging_bonus() -> None:
    s = make_state(units=[u("p", (4, 5), cls="pike", facing="east"), u("t", (5, 5), "B"),
                          u("l", (1, 1), cls="lancer"), u("w", (3, 1), "B"),
                          u("kk", (1, 7), "B", cls="knight"), u("l2", (3, 7), cls="lancer"),
                          u("w2", (7, 7))])
    assert mods(s, "p", "t", charging=True) == (1, 0)
    assert mods(s, "p", "t") == (0, 0)
    assert mods(s, "l", "w", charging=True) == (2, 0)  # +1 cavalry, +1 charging
    assert mods(s, "l2", "kk", charging=True) == (1, 0)


@pytest.mark.rule("FB-PIKE-06", "FB-COMBAT-08")
def test_charging_bonus_only_for_pikes_and_lancers() -> None:
    s = make_state(units=[u("w", (4, 5)), u("t", (5, 5), "B")])
    assert mods(s, "w", "t", charging=True) == (0, 0)


# --------------------------------------------------------------------------- defense penalties


@pytest.mark.rule("FB-PIKE-03")
@pytest.mark.parametrize("at,penalty", [
    ((4, 6), 0), ((5, 6), 0), ((6, 6), 0), ((4, 5), -1), ((6, 5), -1), ((4, 4), -1),
    ((5, 4), -1), ((6, 4), -1),
])
def test_pike_defends_at_minus_one_outside_its_front_arc(at: tuple[int, int],
                                                         penalty: int) -> None:
    s = make_state(units=[u("p", (5, 5), "B", cls="pike", facing="north"), u("w", at)])
    assert mods(s, "w", "p") == (0, penalty)


@pytest.mark.rule("FB-PIKE-03", "FB-AMB-03")
def test_pike_against_large_attacker_penalty_only_if_no_square_in_arc() -> None:
    s = make_state(units=[u("p", (5, 5), "B", cls="pike", facing="north"),
                          u("k", (6, 6), cls="knight")])
    assert mods(s, "k", "p") == (1, 0)
    s = make_state(units=[u("p", (5, 5), "B", cls="pike", facing="north"),
                          u("k", (6, 4), cls="knight")])
    assert mods(s, "k", "p") == (1, -1)


@pytest.mark.rule("FB-PIKE-03", "FB-AMB-23")
def test_pike_penalty_never_for_ranged_or_throw() -> None:
    s = make_state(units=[u("p", (5, 5), "B", cls="pike", facing="north"),
                          u("a", (5, 1), cls="archer"), u("c", (2, 5), rank="champion")])
    assert mods(s, "a", "p", "ranged") == (0, 0)
    assert mods(s, "c", "p", "throw") == (0, 0)


@pytest.mark.rule("FB-CAV-10")
@pytest.mark.parametrize("at", [(3, 3), (5, 3), (3, 5), (6, 6), (6, 3)])
def test_lancer_has_no_facing(at: tuple[int, int]) -> None:
    """A Lancer attacks every adjacent enemy and takes no penalty for the direction."""
    from warhost.rulesets.fantasy_battle.combat import attack_options

    s = make_state(units=[u("l", (4, 4), "B", cls="lancer"), u("w", at)])
    assert s.units["l"].facing is None
    assert mods(s, "w", "l") == (0, 0)
    assert [o.target for o in attack_options(s, s.units["l"], allow_throw=False)] == ["w"]


@pytest.mark.rule("FB-ARCHER-05", "FB-AMB-26", "FB-CAV-11")
def test_archers_defend_at_minus_one() -> None:
    units = [u("w", (4, 5)), u("a", (5, 5), "B", cls="archer"),
             u("m", (6, 6), "B", cls="mounted_archer")]
    s = make_state(units=units)
    assert mods(s, "w", "a") == (0, -1)
    assert mods(s, "w", "m") == (0, -1)
    s = make_state(units=units, mounted_archer_defense_penalty=False)
    assert mods(s, "w", "m") == (0, 0)
    assert mods(s, "w", "a") == (0, -1)


# --------------------------------------------------------------------------- ranged


@pytest.mark.rule("FB-ARCHER-04", "FB-ARCHER-06", "FB-AMB-29")
def test_ranged_penalties_add_and_line_penalty_counts_once() -> None:
    s = make_state(width=20, units=[u("a", (0, 2), cls="archer"), u("t", (9, 2), "B")],
                   terrain={(3, 2): "hindering", (5, 2): "concealing", (7, 2): "slope"})
    att, dfn, notes = modifiers(s, s.units["a"], s.units["t"], "ranged", False)
    assert (att, dfn) == (-2, 0)
    assert notes == ["attack -1 line of fire hindered [FB-ARCHER-04]",
                     "attack -1 range 9 [FB-ARCHER-06]"]


# --------------------------------------------------------------------------- abilities


def ab(name: str = "ab", attack: int = 0, defense: int = 0, affects: str = "self",
       **kw: Any) -> Ability:
    return Ability.model_validate(
        {"name": name, "attack": attack, "defense": defense, "affects": affects, **kw})


@pytest.mark.rule("FB-ABIL-01", "FB-AMB-05")
def test_own_ability_bonuses() -> None:
    s = make_state(units=[u("e", (4, 5), rank="elite", abilities=[ab(attack=2, defense=1)]),
                          u("t", (5, 5), "B")])
    assert mods(s, "e", "t") == (2, 0)
    assert mods(s, "t", "e") == (0, 1)


@pytest.mark.rule("FB-ABIL-04", "FB-AMB-06")
def test_only_the_largest_ability_bonus_counts_and_penalties_add() -> None:
    s = make_state(units=[
        u("e", (4, 5), rank="elite",
          abilities=[ab("a1", attack=1, defense=2), ab("a2", attack=2, defense=1),
                     ab("curse", attack=-1, defense=-1)]),
        u("c", (0, 0), rank="champion",  # the banner has no range limit
          abilities=[ab("banner", attack=3, defense=3, affects="allies")]),
        u("t", (5, 5), "B")])
    att, dfn, notes = modifiers(s, s.units["e"], s.units["t"], "melee", False)
    assert (att, dfn) == (3 - 1, 0)
    assert notes == ["attack +3 banner of c [FB-ABIL-04]", "attack -1 curse of e [FB-AMB-06]"]
    assert mods(s, "t", "e") == (0, 3 - 1)


@pytest.mark.rule("FB-ABIL-03", "FB-AMB-05")
def test_ally_abilities_use_range_and_keyword_filters() -> None:
    leader = u("c", (0, 0), rank="champion", abilities=[
        ab("horns", attack=1, affects="allies", range=3),
        ab("arrows", attack=2, affects="allies", classes=["archer"]),
        ab("steeds", defense=1, affects="self_and_allies", types=["cavalry"]),
        ab("elites", defense=2, affects="allies", ranks=["elite"]),
    ])
    s = make_state(units=[leader, u("w3", (3, 3)), u("w4", (4, 0)),
                          u("a", (9, 9), cls="archer"), u("k", (6, 6), cls="knight"),
                          u("e", (0, 9), rank="elite"), u("foe", (10, 0), "B")])
    names = {uid: sorted(a.name for _, a in abilities_affecting(s, s.units[uid]))
             for uid in ("c", "w3", "w4", "a", "k", "e", "foe")}
    assert names == {
        "c": ["steeds"],  # own self_and_allies ability; filters restrict allies only
        "w3": ["horns"],  # distance 3
        "w4": [],  # distance 4: out of range
        "a": ["arrows"],
        "k": ["steeds"],
        "e": ["elites"],
        "foe": [],  # abilities never help the enemy
    }


@pytest.mark.rule("FB-AMB-05")
def test_allies_abilities_do_not_work_from_off_the_map() -> None:
    s = make_state(units=[u("c", None, rank="champion",
                            abilities=[ab(attack=2, affects="allies")]),
                          u("w", (4, 5)), u("t", (5, 5), "B")])
    assert mods(s, "w", "t") == (0, 0)


@pytest.mark.rule("FB-AMB-06", "FB-ABIL-04", "FB-CAV-01", "FB-CAV-08")
def test_amb_06_worked_example_knight_flanking_infantry_with_plus_two() -> None:
    """+1 (Cavalry) + max(+1 flanking, +2 ability) = +3; with the option off, +4."""
    units = [u("k", (4, 6), cls="knight", rank="elite", abilities=[ab(attack=2)]),
             u("t", (5, 5), "B"), u("f", (5, 3), cls="knight")]
    s = make_state(units=units)
    assert flanking(s, s.units["k"], s.units["t"]) is not None
    att, _, notes = modifiers(s, s.units["k"], s.units["t"], "melee", False)
    assert att == 3
    assert notes[1] == "attack +2 ab of k (beats flanking with f [FB-WARRIOR-01] +1) [FB-ABIL-04]"
    s = make_state(units=units, class_bonus_is_special_ability=False)
    assert mods(s, "k", "t") == (4, 0)


@pytest.mark.rule("FB-AMB-06", "FB-PIKE-06")
def test_charge_capped_with_abilities() -> None:
    units = [u("p", (4, 5), cls="pike", facing="east", rank="elite", abilities=[ab(attack=1)]),
             u("t", (5, 5), "B")]
    assert mods(make_state(units=units), "p", "t", charging=True) == (1, 0)
    assert mods(make_state(units=units, class_bonus_is_special_ability=False), "p", "t",
                charging=True) == (2, 0)


@pytest.mark.rule("FB-ABIL-02", "FB-AMB-48")
def test_declined_sides_get_no_ability() -> None:
    s = make_state(units=[u("e", (4, 5), rank="elite", abilities=[ab(attack=2, defense=2)]),
                          u("f", (6, 5), rank="elite", side="B",
                            abilities=[ab(attack=2, defense=2, affects="allies")]),
                          u("t", (5, 5), "B")])
    assert mods(s, "e", "t") == (2, 2)
    assert mods(s, "e", "t", declined={"A"}) == (0, 2)
    assert mods(s, "e", "t", declined={"B"}) == (2, 0)


# --------------------------------------------------------------------------- the table


TABLE_TAGS = {"[FB-CAV-01]", "[FB-WARRIOR-01]", "[FB-PIKE-06]", "[FB-ARCHER-04]",
              "[FB-ARCHER-06]", "[FB-PIKE-03]", "[FB-ARCHER-05]", "[FB-ABIL-04]", "[FB-AMB-06]"}


@pytest.mark.rule("FB-COMBAT-08", "FB-COMBAT-02")
def test_every_modifier_comes_from_the_table() -> None:
    """A pile-up of modifiers: each breakdown line names one row of the FB-COMBAT-08 table, and
    the totals are the sums of the lines."""
    s = make_state(width=30, units=[
        u("m", (0, 2), cls="mounted_archer", rank="elite", abilities=[ab(attack=1)]),
        u("a", (15, 2), "B", cls="archer", rank="elite", abilities=[ab(defense=2)]),
        u("x", (8, 2), "B"),
        u("l", (20, 8), cls="lancer"),
        u("p", (22, 8), "B", cls="pike", facing="south"),
    ])
    for attacker, target, kind, charging in (("m", "a", "ranged", False),
                                             ("l", "p", "melee", True)):
        att, dfn, notes = modifiers(s, s.units[attacker], s.units[target], kind, charging)
        total = {"attack": 0, "defense": 0}
        for note in notes:
            tags = set(re.findall(r"\[FB-[A-Z]+-\d+\]", note))
            assert tags and tags <= TABLE_TAGS, note
            roll, value = note.split()[:2]
            total[roll] += int(value)
        assert (att, dfn) == (total["attack"], total["defense"])
    assert mods(s, "m", "a", "ranged") == (1 + 1 - 1 - 2, -1 + 2)
    assert mods(s, "l", "p", "melee", True) == (2, -1)


@pytest.mark.rule("FB-ABIL-03", "FB-AMB-05")
def test_faction_keyword_filter_picks_allies_of_that_faction() -> None:
    """A banner that inspires only Dwarves helps the dwarf, not the allied elf beside it."""
    leader = u("c", (0, 0), rank="champion", faction="Dwarves", abilities=[
        ab("banner", attack=1, affects="allies", factions=["Dwarves"])])
    s = make_state(units=[leader, u("dwarf", (1, 1), faction="Dwarves"),
                          u("elf", (1, 0), faction="Elves"), u("foe", (9, 9), "B")])
    assert [a.name for _, a in abilities_affecting(s, s.units["dwarf"])] == ["banner"]
    assert abilities_affecting(s, s.units["elf"]) == []


@pytest.mark.rule("FB-ABIL-03", "FB-AMB-05")
def test_kept_abilities_follow_the_holder_and_the_unit() -> None:
    """abilities_affecting keeps its answers (FBState.ability_memos) only while they hold: the
    holder moving out of range or off the map, the unit moving, each changes the answer."""
    leader = u("c", (0, 0), rank="champion",
               abilities=[ab("horns", attack=1, affects="allies", range=3)])
    s = make_state(units=[leader, u("w", (3, 3)), u("foe", (10, 0), "B")])
    c, w = s.units["c"], s.units["w"]

    def names() -> list[str]:
        return [a.name for _, a in abilities_affecting(s, w)]

    assert names() == ["horns"]
    assert names() == ["horns"]  # kept
    s.place(c, (0, 8))  # the holder moves out of range
    assert names() == []
    s.place(w, (1, 7))  # the unit moves into range
    assert names() == ["horns"]
    s.remove(c, "defeated")  # the holder leaves the map
    assert names() == []


@pytest.mark.parametrize("example", ["skirmish", "constructed", "combined-arms", "grand-battle"])
def test_modifier_values_match_modifiers(example: str) -> None:
    """modifier_values (kept per pair of units) equals modifiers()[:2] for every pair of
    units, every kind and both charging values, round after round of a battle, asked twice
    (the second time from the memo)."""
    from pathlib import Path

    from warhost.core.engine import run_battle
    from warhost.core.scenario import load_scenario
    from warhost.rulesets.fantasy_battle.combat import modifier_values

    path = Path(__file__).resolve().parents[3] / "examples" / "fantasy-battle" / f"{example}.yaml"
    scenario = load_scenario(path)
    sides = scenario.ruleset.side_names(scenario.model)
    checked = [0]

    def observe(round_number: int, state: FBState) -> None:
        if round_number > 4:
            return
        units = [x for x in state.units.values() if x.on_map]
        for a in units:
            for t in units:
                if a.side == t.side:
                    continue
                for kind in ("melee", "ranged", "throw"):
                    for charging in (False, True):
                        want = modifiers(state, a, t, kind, charging)[:2]
                        assert modifier_values(state, a, t, kind, charging) == want
                        assert modifier_values(state, a, t, kind, charging) == want
                        checked[0] += 1

    for kind in ("random", "ai"):
        run_battle(scenario, 3, {s: kind for s in sides}, record=False, observers=[observe])
    assert checked[0] > 0


@pytest.mark.rule("FB-ARCHER-04")
def test_modifier_values_follow_a_change_of_terrain() -> None:
    """The lines of fire modifier_values keeps belong to the terrain: new terrain, new lines."""
    from warhost.rulesets.fantasy_battle.combat import modifier_values

    s = make_state(width=20, units=[u("a", (0, 2), cls="archer"), u("t", (6, 2), "B")])
    a, t = s.units["a"], s.units["t"]
    assert modifier_values(s, a, t, "ranged", False) == mods(s, "a", "t", "ranged")
    s.grid.set_terrain((3, 2), "hindering")
    assert modifier_values(s, a, t, "ranged", False) == mods(s, "a", "t", "ranged")
    assert mods(s, "a", "t", "ranged")[0] == modifier_values(s, a, t, "ranged", False)[0]
