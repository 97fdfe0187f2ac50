"""Defence actions in dnd35-wars: set against a charge (opposed Reflex, repelling the charger)
and the phalanx (AC, attack limits)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.battle_watch import events
from tests.rulesets.dnd35_wars.helpers import (
    block,
    creature,
    get,
    make_battle,
    make_state,
    unit,
)
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd35_wars import combat, defence
from warhost.rulesets.dnd35_wars.actions import unit_action
from warhost.rulesets.dnd35_wars.state import WarState

PIKE = {"name": "longspear", "bonus": 3, "damage": "1d8", "reach": True, "crit_multiplier": 3}
BOW = {"name": "shortbow", "bonus": 3, "damage": "1d6", "range_increment": 60}


def pikes(**fields: Any) -> dict[str, Any]:
    """Pikemen: a reach weapon, Reflex +1."""
    return creature("pikeman", melee=[PIKE], **fields)


def _options(state: WarState, uid: str) -> set[str]:
    return {str(o) for o in defence.defence_options(state, get(state, uid))}


def _charge_state(charger_ref: int = 1, **pike_fields: Any) -> WarState:
    # knights charge 0,3 onto the set pikes' two front counters.
    return make_state([unit("k", squares=block(0, 0, 2, 1), creature=creature(ref=charger_ref)),
                       unit("p", "B", squares=block(0, 4, 2, 2), creature=pikes(**pike_fields))])


@pytest.mark.rule("W35-DEFEND-01", "W35-MOB-05")
def test_only_units_with_reach_weapons_and_no_mobs_may_set() -> None:
    state = make_state([unit("p", squares=[(0, 0)], creature=pikes()),
                        unit("s", squares=[(3, 0)]),
                        unit("m", squares=[(6, 0)], creature=pikes(), mob=True)])
    assert "set p" in _options(state, "p")
    assert "set s" not in _options(state, "s") and "set m" not in _options(state, "m")
    verdict = combat.judge_attack(state, get(state, "m"), Order.parse("set m"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-MOB-05"
    battle = make_battle(state, orders={"A": ["set p"]})
    unit_action(state, battle, get(state, "p"))
    assert get(state, "p").set_vs_charge
    assert [e["unit"] for e in events(battle, "set")] == ["p"]


@pytest.mark.rule("W35-DEFEND-03", "W35-DEFEND-05", "W35-AMB-68", "W35-AMB-37")
def test_a_set_unit_that_wins_the_reflex_contest_repels_the_charge() -> None:
    state = _charge_state()
    get(state, "p").set_vs_charge = True
    # Reflex: knights 5 + 1 = 6, pikes 12 + 1 = 13; pike damage 1d8 = 5, two counters touch.
    battle = make_battle(state, dice=[5, 12, 5], orders={"B": [], "A": ["charge k p 0,3"]})
    unit_action(state, battle, get(state, "k"))
    [contest] = events(battle, "set_vs_charge")
    assert (contest["total"], contest["charger_total"], contest["repelled"]) == (13, 6, True)
    assert events(battle, "attack") == []
    k = get(state, "k")
    assert k.hp == 20 - 5 * 2 and k.squares <= {(0, 3), (1, 3)}  # it stays where it came
    assert k.charge_ac_penalty and get(state, "p").set_vs_charge
    assert "p" in state.foes_engaged("k")


@pytest.mark.rule("W35-DEFEND-04", "W35-AMB-68")
def test_a_charger_that_wins_the_reflex_contest_attacks_normally() -> None:
    state = _charge_state()
    get(state, "p").set_vs_charge = True
    battle = make_battle(state, dice=[14, 3, 11, 4], orders={"A": ["charge k p 0,3"]})
    unit_action(state, battle, get(state, "k"))
    assert events(battle, "set_vs_charge")[0]["repelled"] is False
    [attack] = events(battle, "attack")
    assert (attack["kind"], attack["total"]) == ("charge", 11 + 4 + 2)
    assert get(state, "k").hp == 20


@pytest.mark.rule("W35-AMB-68", "W35-DEFEND-03")
def test_a_reflex_tie_goes_to_the_higher_modifier_and_an_exact_tie_is_rerolled() -> None:
    state = _charge_state(charger_ref=3)
    get(state, "p").set_vs_charge = True
    # knights 8 + 3 = 11, pikes 10 + 1 = 11: the knights' higher Reflex wins.
    battle = make_battle(state, dice=[8, 10, 11, 4], orders={"A": ["charge k p 0,3"]})
    unit_action(state, battle, get(state, "k"))
    assert events(battle, "set_vs_charge")[0]["repelled"] is False
    state = _charge_state()
    get(state, "p").set_vs_charge = True
    # 9 + 1 against 9 + 1, equal modifiers: reroll, then 2 + 1 against 15 + 1.
    battle = make_battle(state, dice=[9, 9, 2, 15, 3], orders={"A": ["charge k p 0,3"]})
    unit_action(state, battle, get(state, "k"))
    [contest] = events(battle, "set_vs_charge")
    assert (contest["charger_total"], contest["total"], contest["repelled"]) == (3, 16, True)


@pytest.mark.rule("W35-DEFEND-02")
def test_a_set_unit_is_protected_against_a_charge_from_any_side() -> None:
    # knights charge from the east onto the pikes' flank.
    state = make_state([unit("k", squares=[(6, 4), (6, 5)]),
                        unit("p", "B", squares=block(0, 4, 2, 2), creature=pikes())])
    get(state, "p").set_vs_charge = True
    battle = make_battle(state, dice=[2, 12, 5], orders={"A": ["charge k p -4,0"]})
    unit_action(state, battle, get(state, "k"))
    assert events(battle, "set_vs_charge")[0]["repelled"] is True
    assert get(state, "k").hp == 20 - 5 * 2


@pytest.mark.rule("W35-DEFEND-06")
def test_a_set_unit_has_plus_2_ac_against_ordinary_melee_not_against_a_charge() -> None:
    state = _charge_state()
    p, k = get(state, "p"), get(state, "k")
    p.set_vs_charge = True
    assert combat.ac_against(state, p, k, "melee") == 17
    assert combat.ac_against(state, p, k, "charge") == 15
    assert combat.ac_against(state, p, k, "ranged") == 15


@pytest.mark.rule("W35-DEFEND-07")
def test_a_set_unit_stays_set_when_it_holds_and_drops_it_when_it_attacks() -> None:
    state = make_state([unit("p", squares=[(0, 0)], creature=pikes()),
                        unit("b", "B", squares=[(0, 1)])])
    p = get(state, "p")
    p.set_vs_charge = True
    unit_action(state, make_battle(state, orders={"A": ["hold"]}), p)
    assert p.set_vs_charge
    unit_action(state, make_battle(state, dice=[2], orders={"A": ["melee p b"]}), p)
    assert not p.set_vs_charge


@pytest.mark.rule("W35-DEFEND-08", "W35-DEFEND-09", "W35-MOB-04")
def test_forming_a_phalanx_is_the_unit_action_and_it_is_kept_mobs_cannot() -> None:
    state = make_state([unit("p", squares=block(0, 0, 3, 2), creature=pikes()),
                        unit("m", squares=[(9, 0)], mob=True)])
    assert "phalanx m" not in _options(state, "m")
    verdict = defence.judge_defence(state, get(state, "m"), Order.parse("phalanx m"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-MOB-04"
    battle = make_battle(state, orders={"A": ["phalanx p"]})
    unit_action(state, battle, get(state, "p"))
    assert get(state, "p").phalanx and events(battle, "phalanx")
    unit_action(state, make_battle(state, orders={"A": ["hold"]}), get(state, "p"))
    assert get(state, "p").phalanx and "phalanx p" not in _options(state, "p")


@pytest.mark.rule("W35-DEFEND-11", "W35-AMB-67")
def test_a_phalanx_has_plus_8_ac_against_missiles_and_plus_4_against_crossbows_and_melee() -> None:
    state = _charge_state()
    p, k = get(state, "p"), get(state, "k")
    p.phalanx = True
    assert [combat.ac_against(state, p, k, kind) for kind in
            ("ranged", "crossbow", "melee", "charge", "area")] == [23, 19, 19, 19, 15]


@pytest.mark.rule("W35-DEFEND-13", "W35-DEFEND-14")
def test_a_phalanx_fires_no_missiles_and_strikes_only_with_reach_weapons_at_minus_2() -> None:
    archers = creature("archer", ranged=[BOW])
    state = make_state([unit("p", squares=[(0, 0)], creature=pikes(ranged=[BOW])),
                        unit("s", squares=[(2, 0)], creature=archers),
                        unit("b", "B", squares=block(0, 1, 3, 1)),
                        unit("c", "B", squares=[(0, 6)])])
    for uid in ("p", "s"):
        get(state, uid).phalanx = True
    verdict = combat.judge_attack(state, get(state, "p"), Order.parse("shoot p c"))
    assert isinstance(verdict, Refusal) and verdict.rule == "W35-DEFEND-13"
    assert [str(o) for o in combat.attack_options(state, get(state, "s"))] == []
    battle = make_battle(state, dice=[10], orders={"A": ["melee p b"]})
    unit_action(state, battle, get(state, "p"))
    assert events(battle, "attack")[0]["total"] == 10 + 3 - 2


@pytest.mark.rule("W35-DEFEND-15")
def test_a_phalanx_may_set_against_a_charge_in_a_later_round() -> None:
    state = make_state([unit("p", squares=block(0, 0, 3, 2), creature=pikes())])
    get(state, "p").phalanx = True
    assert "set p" in _options(state, "p")


@pytest.mark.rule("W35-AMB-65", "W35-MORALE-11")
def test_a_routed_unit_neither_sets_nor_repels() -> None:
    state = _charge_state()
    p = get(state, "p")
    p.set_vs_charge = True
    p.status = "routed"
    assert _options(state, "p") == set()
    battle = make_battle(state, dice=[9, 4], orders={"A": ["charge k p 0,3"]})
    unit_action(state, battle, get(state, "k"))
    assert events(battle, "set_vs_charge") == []
    assert events(battle, "attack")[0]["total"] == 9 + 4 + 2 + 2


@pytest.mark.rule("W35-DEFEND-14", "W35-AMB-82")
def test_a_phalanx_without_reach_weapons_makes_no_free_attack() -> None:
    state = make_state([unit("s", squares=[(0, 0)]), unit("p", squares=[(2, 0)], creature=pikes()),
                        unit("b", "B", squares=block(0, 1, 3, 1))])
    for uid in ("s", "p"):
        get(state, uid).phalanx = True
    battle = make_battle(state, dice=[10, 4])
    combat.free_attack(state, battle, get(state, "s"), get(state, "b"))
    combat.free_attack(state, battle, get(state, "p"), get(state, "b"))
    assert [(e["unit"], e["total"]) for e in events(battle, "attack")] == [("p", 10 + 3 + 2 - 2)]
