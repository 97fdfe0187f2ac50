"""After the battle: Fate, Minion recovery, the Incident and Severe Incident tables, and the
lasting effects a campaign keeps (WB-INJURY-14, WB-INCIDENT, WB-SEVERE, WB-AMB-49 to 53)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.rulesets.warband.helpers import char, events, load, make_battle, make_state
from warhost.core.errors import DiceExhaustedError
from warhost.rulesets.warband import incidents
from warhost.rulesets.warband.campaign import (
    Member,
    Record,
    apply_incidents,
    current_flags,
    current_stats,
    current_traits,
    lasting_effect,
)
from warhost.rulesets.warband.setup import make_character
from warhost.rulesets.warband.state import INCAPACITATED, WarbandState

GEAR = {"weapons": [{"name": "sword", "kind": "melee"}],
        "armour_items": [{"name": "mail", "value": 2}],
        "items": [{"name": "rope", "kind": "gear"}, {"name": "golem", "kind": "construct"},
                  {"name": "salve", "kind": "consumable"}]}


def fallen(kind: str = "hero", fate: int = 0, options: dict[str, Any] | None = None,
           **extra: Any) -> WarbandState:
    """Hero (or minion) ``h`` of side A Incapacitated by ``foe`` of side B."""
    state = make_state([char("h", (2, 2), "A", kind=kind, fate=fate, armour=2, **extra),
                        char("foe", (6, 6), "B")], options=options)
    h = state.chars["h"]
    h.condition = INCAPACITATED
    h.last_hurt_by = "foe"
    state.remove(h)
    state.over = True
    return state


def run(state: WarbandState, dice: list[int], orders: list[str] | None = None
        ) -> dict[str, Any]:
    battle = make_battle(state, dice, {"A": orders or []})
    incidents.after_battle(state, battle)
    assert battle.dice.unused == 0  # type: ignore[attr-defined]
    found = events(battle, "incident")
    assert len(found) == 1
    return found[0]


INCIDENT_ROWS = [(1, "minor_injury"), (2, "weakened"), (3, "disorientated"), (4, "hobbled"),
                 (5, "frightened"), (6, "fatigued"), (7, "confused"), (8, "humiliated")]


@pytest.mark.rule("WB-INJURY-14")
@pytest.mark.rule("WB-INCIDENT-01")
@pytest.mark.rule("WB-INCIDENT-04")
@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-INCIDENT-07")
@pytest.mark.parametrize(("face", "name"), INCIDENT_ROWS)
def test_every_incident_row_lasts_one_cycle(face: int, name: str) -> None:
    e = run(fallen(), [face])
    assert (e["table"], e["rolls"], e["result"], e["cycles"]) == ("incident", [face], name, 1)


@pytest.mark.rule("WB-INCIDENT-09")
@pytest.mark.rule("WB-AMB-52")
@pytest.mark.parametrize(("face", "name"), INCIDENT_ROWS)
def test_long_term_reroll_lasts_two_cycles(face: int, name: str) -> None:
    e = run(fallen(), [9, face])
    assert (e["rolls"], e["result"], e["cycles"], e["long_term"]) == ([9, face], name, 2, True)


@pytest.mark.rule("WB-INCIDENT-09")
@pytest.mark.rule("WB-AMB-52")
def test_long_term_nine_on_the_reroll_rolls_again_without_extending() -> None:
    e = run(fallen(), [9, 9, 9, 2])
    assert (e["rolls"], e["result"], e["cycles"]) == ([9, 9, 9, 2], "weakened", 2)


@pytest.mark.rule("WB-INCIDENT-10")
@pytest.mark.rule("WB-AMB-52")
def test_long_term_ten_on_the_reroll_goes_to_the_severe_table() -> None:
    e = run(fallen(), [9, 10, 3])
    assert (e["table"], e["rolls"], e["result"]) == ("severe", [9, 10, 3], "hardened")


@pytest.mark.rule("WB-SEVERE-01")
@pytest.mark.rule("WB-SEVERE-02")
@pytest.mark.rule("WB-INCIDENT-10")
@pytest.mark.rule("WB-TEST-08")
@pytest.mark.parametrize(("face", "name", "extra"), [
    (1, "from_the_fires", []), (2, "enmity", []), (3, "hardened", []), (4, "scarred", []),
    (5, "major_wound", [2]), (6, "robbed", [1, 1]), (7, "limb_injury", [3]),
    (8, "blinded", []), (9, "captured", []), (10, "dead", []),
])
def test_every_severe_row(face: int, name: str, extra: list[int]) -> None:
    e = run(fallen(**GEAR), [10, face, *extra])
    assert (e["table"], e["result"], e["cycles"]) == ("severe", name, 0)


@pytest.mark.rule("WB-SEVERE-01")
def test_from_the_fires_gains_a_fate_point() -> None:
    state = fallen()
    e = run(state, [10, 1])
    assert e["result"] == "from_the_fires" and state.chars["h"].fate == 1


@pytest.mark.rule("WB-SEVERE-01")
@pytest.mark.rule("WB-SEVERE-03")
@pytest.mark.rule("WB-AMB-53")
def test_enmity_targets_the_last_wounder_and_its_warband() -> None:
    e = run(fallen(), [10, 2])
    assert (e["target"], e["warband"]) == ("foe", "B")
    effect = lasting_effect(e, 3)
    assert effect is not None
    assert effect["traits"] == ["hatred"] and effect["hatred_of"] == ["foe", "B"]
    assert effect["until"] is None


@pytest.mark.rule("WB-SEVERE-04")
@pytest.mark.rule("WB-AMB-50")
def test_major_wound_lasts_one_d3_following_cycles_on_zero_wounds() -> None:
    e = run(fallen(), [10, 5, 3])
    assert e["major_cycles"] == 3
    effect = lasting_effect(e, 2)
    assert effect is not None and (effect["from"], effect["until"]) == (3, 5)
    assert effect["flags"] == {"start_wounds_zero": True}


@pytest.mark.rule("WB-SEVERE-05")
@pytest.mark.rule("WB-AMB-53")
def test_robbed_picks_random_non_construct_pieces() -> None:
    # 4 pieces that are not Constructs: sword, mail, rope, salve; roll 2, pick 3rd then 1st
    e = run(fallen(**GEAR), [10, 6, 2, 3, 1])
    assert e["count"] == 2
    assert [p["name"] for p in e["lost"]] == ["rope", "sword"]


@pytest.mark.rule("WB-SEVERE-05")
@pytest.mark.rule("WB-AMB-53")
def test_robbed_of_more_than_it_has_loses_all_but_constructs() -> None:
    e = run(fallen(**GEAR), [10, 6, 5])
    assert [p["name"] for p in e["lost"]] == ["sword", "mail", "rope", "salve"]


@pytest.mark.rule("WB-SEVERE-01")
@pytest.mark.parametrize(("face", "limb", "score"), [
    (1, "leg", "agility"), (5, "leg", "agility"), (6, "arm", "melee"), (9, "arm", "melee"),
    (10, "amputation", "melee"),
])
def test_limb_injury_sub_roll(face: int, limb: str, score: str) -> None:
    e = run(fallen(), [10, 7, face])
    assert e["limb"] == limb and e["rolls"] == [10, 7, face]
    effect = lasting_effect(e, 1)
    assert effect is not None and effect["scores"] == {score: -1}
    assert effect["flags"] == ({"one_hand": True} if limb == "amputation" else {})


@pytest.mark.rule("WB-SEVERE-07")
@pytest.mark.rule("WB-SEVERE-08")
@pytest.mark.rule("WB-AMB-49")
@pytest.mark.parametrize(("face", "winner", "equipment"), [
    (9, "A", "kept"), (9, "B", "taken"), (9, None, "taken"),
    (10, "A", "salvaged"), (10, "B", "taken"), (10, None, "taken"),
])
def test_captured_and_dead_equipment_depends_on_who_won(face: int, winner: str | None,
                                                        equipment: str) -> None:
    state = fallen(**GEAR)
    state.winner = winner
    e = run(state, [10, face])
    assert (e["won"], e["equipment"], e["taken_by"]) == (
        winner == "A", equipment, None if winner == "A" else winner)


@pytest.mark.rule("WB-INCIDENT-02")
@pytest.mark.rule("WB-INCIDENT-03")
@pytest.mark.rule("WB-TEST-08")
@pytest.mark.parametrize("face", range(1, 11))
def test_minion_recovery(face: int) -> None:
    e = run(fallen("minion", **GEAR), [face])
    assert e["table"] == "minion" and e["rolls"] == [face]
    if face <= 8:
        assert e["result"] == "recovers" and "lost" not in e
    else:
        assert e["result"] == "retired"
        assert [p["name"] for p in e["lost"]] == ["sword", "mail", "rope", "golem", "salve"]


@pytest.mark.rule("WB-INCIDENT-05")
@pytest.mark.rule("WB-ASK-19")
@pytest.mark.rule("WB-AMB-51")
def test_fate_burn_is_asked_before_the_roll_and_skips_it() -> None:
    state = fallen(fate=2)
    battle = make_battle(state, [], {"A": ["burn-fate"]})
    incidents.after_battle(state, battle)
    asked = [e for e in events(battle, "decision") if e["kind"] == "fate"]
    assert [a["order"] for a in asked] == ["burn-fate"]
    (e,) = events(battle, "incident")
    assert (e["result"], e["rolls"], e["fate_left"]) == ("fate_burned", [], 1)
    assert state.chars["h"].fate == 1 and events(battle, "roll") == []
    assert lasting_effect(e, 1) is None


@pytest.mark.rule("WB-INCIDENT-05")
@pytest.mark.rule("WB-ASK-19")
def test_choosing_to_roll_keeps_the_fate_point() -> None:
    state = fallen(fate=1)
    e = run(state, [2], ["roll"])
    assert e["result"] == "weakened" and state.chars["h"].fate == 1


@pytest.mark.rule("WB-INCIDENT-05")
@pytest.mark.rule("WB-AMB-51")
def test_no_fate_no_question() -> None:
    state = fallen(fate=0)
    battle = make_battle(state, [1])
    incidents.after_battle(state, battle)
    assert [e for e in events(battle, "decision") if e["kind"] == "fate"] == []


@pytest.mark.rule("WB-AMB-51")
def test_option_fate_burn_after_roll_discards_the_rolled_result() -> None:
    state = fallen(kind="minion", fate=1, options={"fate_burn_after_roll": True})
    e = run(state, [10], ["burn-fate"])
    assert (e["result"], e["discarded"], e["fate_left"]) == ("fate_burned", "retired", 0)


@pytest.mark.rule("WB-AMB-52")
@pytest.mark.rule("WB-INCIDENT-10")
def test_severe_chance_is_one_ninth_by_enumeration() -> None:
    def severe(faces: list[int]) -> bool:
        state = fallen()
        battle = make_battle(state, [*faces, 1, 1, 1])  # spare faces for sub-rolls
        incidents.after_battle(state, battle)
        return bool(events(battle, "incident")[0]["table"] == "severe")

    tenth = Fraction(1, 10)
    # after a 9 the reroll is the same step again: [9, 9, b] ends like [9, b]
    for b in range(1, 11):
        if b != 9:
            assert severe([9, 9, b]) == severe([9, b])
    reroll = sum((tenth for b in range(1, 11) if b != 9 and severe([9, b])), Fraction(0))
    reroll_p = reroll / (1 - tenth)  # geometric: the 9s before the first other face
    first = sum((tenth for a in range(1, 11) if a != 9 and severe([a])), Fraction(0))
    total = first + tenth * reroll_p
    assert total == Fraction(1, 9) == incidents.severe_chance()


@pytest.mark.rule("WB-INJURY-14")
@pytest.mark.rule("WB-AMB-50")
def test_a_whole_battle_sends_each_incapacitated_character_through_the_step() -> None:
    from warhost.core.engine import run_battle

    data = {"ruleset": "warband", "map": {"width": 6, "height": 6},
            "options": {"turn_limit": 30},
            "sides": [{"name": "A", "characters": [
                {"id": "a", "kind": "hero", "captain": True, "at": [2, 2], "facing": "S",
                 "stats": {"agility": 5, "melee": 9, "ranged": 0, "strength": 9,
                           "toughness": 9, "resolve": 9, "wounds": 5, "attacks": 3},
                 "weapons": [{"name": "sword", "kind": "melee"}]}]},
                {"name": "B", "characters": [
                    {"id": "b", "kind": "minion", "at": [2, 3], "facing": "N",
                     "stats": {"agility": 1, "melee": 1, "ranged": 0, "strength": 1,
                               "toughness": 1, "resolve": 1, "wounds": 1},
                     "weapons": [{"name": "stick", "kind": "melee"}]}]}]}
    result = run_battle(load(data), 5, {"A": "first", "B": "first"})
    out = result.log.of_type("incident")
    down = [u.id for u in result.outcome.units if u.fate == "incapacitated"]
    assert out and [e["who"] for e in out] == down
    assert all(e["table"] == "minion" and e["campaign"] is False for e in out)
    last_turn = max(e["seq"] for e in result.log.of_type("score"))
    assert all(e["seq"] > last_turn for e in out)  # after the last turn's Aftermath


# ------------------------------------------------------------------ lasting effects (record)


def member(**stats: int) -> Member:
    base = {"agility": 5, "melee": 5, "ranged": 5, "strength": 4, "toughness": 3,
            "resolve": 6, "wounds": 2, "insight": 3, **stats}
    return Member("h", "A", {"id": "h", "kind": "hero", "stats": base,
                             "weapons": [{"name": "sword", "kind": "melee"}],
                             "armour": [{"name": "mail", "value": 2}], "items": []}, 1)


def result_of(name: str, table: str = "incident", cycles: int = 1,
              **details: Any) -> dict[str, Any]:
    return {"who": "h", "side": "A", "kind": "hero", "table": table, "rolls": [],
            "result": name, "cycles": cycles, **details}


@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-INCIDENT-07")
@pytest.mark.rule("WB-AMB-50")
@pytest.mark.parametrize(("name", "changed"), [
    ("weakened", {"strength": 3}), ("disorientated", {"melee": 4, "ranged": 4}),
    ("hobbled", {"agility": 4}), ("fatigued", {"toughness": 2, "wounds": 1}),
    ("confused", {"insight": 2}), ("humiliated", {"resolve": 5}),
    ("frightened", {}), ("minor_injury", {}),
])
def test_incident_score_changes_expire_after_the_next_cycle(name: str,
                                                             changed: dict[str, int]) -> None:
    m = member()
    before = current_stats(m, 4)
    apply_incidents(Record("x", warbands={"A": []}, members={"h": m}), [result_of(name)], 4,
                    "B")
    for cycle in (4, 5):
        now = current_stats(m, cycle)
        assert {k: v for k, v in now.items() if before[k] != v} == changed
    assert current_stats(m, 6) == before
    assert m.out_until == 4  # ready for duty at the next Cycle


@pytest.mark.rule("WB-INCIDENT-09")
@pytest.mark.rule("WB-AMB-50")
def test_long_term_results_expire_after_c_plus_2() -> None:
    effect = lasting_effect(result_of("weakened", cycles=2), 4)
    assert effect is not None and (effect["from"], effect["until"]) == (4, 6)


@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-AMB-65")
def test_fatigued_never_takes_a_score_below_one() -> None:
    m = member(toughness=1, wounds=1)
    m.effects.append(lasting_effect(result_of("fatigued"), 1))  # type: ignore[arg-type]
    assert (current_stats(m, 1)["toughness"], current_stats(m, 1)["wounds"]) == (1, 1)


@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-INCIDENT-08")
@pytest.mark.rule("WB-AMB-53")
def test_frightened_humiliated_and_confused_flags_and_traits() -> None:
    m = member()
    for name in ("frightened", "humiliated", "confused"):
        m.effects.append(lasting_effect(result_of(name), 1))  # type: ignore[arg-type]
    assert current_flags(m, 2) == {"worse_resolve": True, "resolve_dos_cut": 2}
    assert current_traits(m, 2) == ["stupidity"]
    assert current_flags(m, 3) == {} and current_traits(m, 3) == []


@pytest.mark.rule("WB-SEVERE-06")
@pytest.mark.rule("WB-AMB-53")
def test_blinded_twice_makes_totally_blind_and_a_third_adds_nothing() -> None:
    m = member()
    for _ in range(3):
        m.effects.append(lasting_effect(result_of("blinded", "severe", 0), 1,
                                        m.effects))  # type: ignore[arg-type]
    assert [e["name"] for e in m.effects] == ["blinded", "totally_blind", "blinded"]
    stats = current_stats(m, 9)
    assert (stats["ranged"], stats["melee"]) == (0, 4)
    assert current_flags(m, 9) == {"worse_agility": True}
    m.effects = m.effects[:1]
    assert current_stats(m, 9)["ranged"] == 4 and current_flags(m, 9) == {}


@pytest.mark.rule("WB-SEVERE-03")
@pytest.mark.rule("WB-SEVERE-01")
def test_hardened_and_scarred_traits_are_permanent() -> None:
    m = member()
    m.effects.append(lasting_effect(result_of("hardened", "severe", 0), 1))  # type: ignore[arg-type]
    m.effects.append(lasting_effect(result_of("scarred", "severe", 0), 1))  # type: ignore[arg-type]
    assert current_traits(m, 50) == ["fearless", "fear"]
    assert current_flags(m, 50) == {"scarred": True}


@pytest.mark.rule("WB-SEVERE-05")
@pytest.mark.rule("WB-SEVERE-07")
@pytest.mark.rule("WB-SEVERE-08")
@pytest.mark.rule("WB-INCIDENT-03")
def test_record_loses_equipment_and_sets_statuses() -> None:
    rec = Record("x", warbands={"A": []}, members={"h": member()})
    m = rec.members["h"]
    apply_incidents(rec, [result_of("robbed", "severe", 0,
                                    lost=[{"type": "armour", "name": "mail"}])], 1, "B")
    assert m.spec["armour"] == [] and m.spec["stats"]["armour"] == 0
    apply_incidents(rec, [result_of("dead", "severe", 0, won=True)], 2, "A")
    assert m.status == "dead" and rec.warbands["A"] == [
        {"type": "weapon", "name": "sword", "from": "h"}]
    rec.members["h"] = m2 = member()
    apply_incidents(rec, [result_of("captured", "severe", 0, won=False)], 3, "B")
    assert m2.status == "captured" and m2.lost[-1]["to"] == "B" and m2.spec["weapons"] == []


@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-INCIDENT-08")
@pytest.mark.rule("WB-SEVERE-04")
@pytest.mark.rule("WB-SEVERE-06")
def test_the_engine_reads_the_lasting_block() -> None:
    from warhost.rulesets.warband.model import CharacterSpec

    spec = CharacterSpec.model_validate({
        "id": "h", "kind": "hero", "stats": {"agility": 5, "melee": 5, "ranged": 5,
                                             "strength": 4, "toughness": 3, "resolve": 6,
                                             "wounds": 2},
        "lasting": {"worse_resolve": True, "resolve_dos_cut": 2, "worse_agility": True,
                    "start_wounds_zero": True}})
    c = make_character(spec, "A", {})
    assert (c.worse_resolve, c.resolve_dos_cut, c.worse_agility, c.wounds) == (
        True, 2, True, 0)


def test_scripted_dice_are_all_needed() -> None:
    with pytest.raises(DiceExhaustedError):
        run(fallen(), [9])


def _fielded_character(*names: str, **stats: int) -> Any:
    from warhost.rulesets.warband.campaign import fielded
    from warhost.rulesets.warband.model import CharacterSpec

    m = member(**stats)
    for name in names:
        table = "incident" if name in ("humiliated", "frightened") else "severe"
        m.effects.append(lasting_effect(result_of(name, table), 1, m.effects))  # type: ignore[arg-type]
    entry = fielded(m, 1, {"at": [1, 1], "facing": "N"})
    return make_character(CharacterSpec.model_validate(entry), "A", {})


@pytest.mark.rule("WB-INCIDENT-06")
@pytest.mark.rule("WB-INCIDENT-08")
@pytest.mark.rule("WB-TEST-05")
def test_a_fielded_frightened_humiliated_hero_tests_resolve_worse() -> None:
    from warhost.rulesets.warband.checks import take_test

    c = _fielded_character("humiliated", "frightened")
    state = make_state([char("x", (5, 5)), char("y", (7, 7), "B")])
    battle = make_battle(state, [2, 1])
    r = take_test(state, battle, c, "resolve", "morale")
    # Resolve 6 - 1 = 5; faces 2 and 1, the worse (2) counts; DoS 3 cut by 2
    assert (r.target, r.die, r.passed, r.dos) == (5, 2, True, 1)
    battle = make_battle(state, [5])
    r = take_test(state, battle, c, "agility", "edge")  # Agility untouched: one die
    assert (r.die, r.passed) == (5, True)


@pytest.mark.rule("WB-SEVERE-06")
@pytest.mark.rule("WB-TEST-05")
def test_a_fielded_totally_blind_hero() -> None:
    from warhost.rulesets.warband.checks import take_test

    c = _fielded_character("blinded", "blinded")
    assert (c.score("ranged"), c.score("melee"), c.worse_agility) == (0, 4, True)
    state = make_state([char("x", (5, 5)), char("y", (7, 7), "B")])
    battle = make_battle(state, [3, 7])
    r = take_test(state, battle, c, "agility", "edge")
    assert (r.die, r.passed) == (7, False)  # Agility 5, the worse of 3 and 7
