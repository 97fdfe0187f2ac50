"""The attack pipeline with scripted dice (WB-ATTACK, WB-CIRC, WB-TEST)."""

from __future__ import annotations

import pytest

from tests.rulesets.warband.helpers import char, events, make_battle, make_state
from warhost.rulesets.warband import combat


@pytest.mark.rule("WB-ATTACK-03")
@pytest.mark.rule("WB-ATTACK-04")
@pytest.mark.rule("WB-ATTACK-05")
@pytest.mark.rule("WB-ATTACK-07")
@pytest.mark.rule("WB-ATTACK-12")
def test_melee_attack_runs_hit_damage_defense_and_confirms_a_wound() -> None:
    state = make_state([char("a", (5, 5), "A", melee=6, strength=4),
                        char("b", (5, 6), "B", facing="S", toughness=3, armour=1,
                             wounds=2)])
    a, b = state.chars["a"], state.chars["b"]
    # to hit 6 vs Melee 6: hit; damage 4 vs Strength 4: wound; Defense 5 vs 3+1: fails
    battle = make_battle(state, [6, 4, 5])
    combat.take_melee(state, battle, a, combat.melee_options(state, a)[0])
    assert b.wounds == 1
    attack = events(battle, "attack")[0]
    assert (attack["hit"], attack["wounds"], attack["saved"], attack["confirmed"]) == (
        True, 1, 0, 1)
