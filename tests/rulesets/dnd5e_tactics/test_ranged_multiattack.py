"""A stat block's Multiattack may name ranged attacks (5e: "makes two longbow attacks").

The validator used to accept melee attacks only. Now it accepts any attacks of the stat block,
all melee or all ranged; in battle a commander or Single Character shoots its whole ranged
Multiattack (5e rules, T5-GEN-02), while a unit shooting still resolves one attack
(T5-RANGED-02, T5-AMB-33).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import run
from warhost.core.errors import SetupError
from warhost.rulesets.dnd5e_tactics import combat
from warhost.rulesets.dnd5e_tactics.validate import check_scenario

from .c_helpers import FAR, KNIGHT, ctx_of, duo, stats
from .helpers import ARCHER, events, unit

LONGBOW = {"name": "Longbow", "kind": "ranged", "bonus": 5, "damage": "1d8+3",
           "damage_type": "piercing", "range": 150, "long_range": 600}
SWORD = {"name": "Sword", "bonus": 5, "damage": "1d8+3", "damage_type": "slashing"}
RANGER: dict[str, Any] = stats(KNIGHT, name="Ranger Captain", attacks=[SWORD, LONGBOW],
                               multiattack=["Longbow", "Longbow"])
VOLLEY = stats(ARCHER, multiattack=["Longbow", "Longbow"])


@pytest.mark.rule("T5-GEN-02")
def test_a_ranged_multiattack_is_a_legal_stat_block() -> None:
    check_scenario(duo({"commander": RANGER, "member": VOLLEY}, b_at=FAR))


@pytest.mark.rule("T5-GEN-02", "T5-CMDATK-04")
def test_a_commander_shoots_its_whole_ranged_multiattack() -> None:
    """Two Longbow attacks, each a hit at maximum damage: 11 + 11."""
    model = duo({"commander": RANGER}, b_at=FAR)
    check_scenario(model)
    ctx = ctx_of(model, dice=[15, 15])
    assert combat.commander_attack_action(ctx, unit(ctx, "a"), unit(ctx, "b"), "Longbow") == 22
    shots = [e for e in events(ctx, "commander_attack") if e["owner"] == "a"]
    assert [(e["attack"], e["hit"], e["damage"]) for e in shots] == [("Longbow", True, 11)] * 2


@pytest.mark.rule("T5-RANGED-02", "T5-AMB-33")
def test_a_unit_with_a_ranged_multiattack_still_fires_once() -> None:
    model = duo({"member": VOLLEY}, b_at=FAR)
    check_scenario(model)
    ctx = ctx_of(model, dice=[6])
    a, b = unit(ctx, "a"), unit(ctx, "b")
    assert [x.name for x in combat.unit_routine(a, "ranged")] == ["Longbow"]
    combat.unit_attack_action(ctx, a, b, "ranged")
    assert len(events(ctx, "unit_attack")) == 1


def test_a_multiattack_mixing_melee_and_ranged_is_refused() -> None:
    mixed = stats(RANGER, multiattack=["Sword", "Longbow"])
    with pytest.raises(SetupError) as info:
        check_scenario(duo({"commander": mixed}, b_at=FAR))
    assert info.value.path == ("sides", 0, "units", 0, "commander", "multiattack", 1)
    assert "mixes melee and ranged attacks ('Sword' and 'Longbow')" in info.value.message


def test_a_multiattack_naming_no_attack_is_refused() -> None:
    with pytest.raises(SetupError) as info:
        check_scenario(duo({"commander": stats(RANGER, multiattack=["Bow"])}, b_at=FAR))
    assert "names 'Bow', which is not one of its attacks (Longbow, Sword)" in info.value.message


def test_a_ranged_multiattack_scenario_validates_and_plays(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[3] / "examples" / "dnd5e-tactics"
    text = (example / "open-field.yaml").read_text(encoding="utf-8")
    old = "          multiattack: [Greatsword, Greatsword]\n"
    assert old in text
    path = tmp_path / "volley.yaml"
    path.write_text(text.replace(old, "          multiattack: [Heavy-Crossbow, Heavy-Crossbow]\n",
                                 1), encoding="utf-8")
    assert run("validate", path).exit_code == 0
    result = run("battle", path, "--seed", "2", "--quiet")
    assert result.exit_code == 0, result.stderr
