"""A skirmisher's square base turned the way it moves (found by battles with lone
characters, who are single skirmishers): it may not end reaching into another unit, and
shooting finds targets in range of its turned corners."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.dnd4e_war.helpers import get, make_state, profile, unit
from warhost.core.decisions import Refusal
from warhost.core.orders import Order
from warhost.rulesets.dnd4e_war import shooting
from warhost.rulesets.dnd4e_war.movement import Mover

SCOUT = profile("Scout", formation="skirmish", unit_size=[1, 12])
DART = {"name": "Dart", "kind": "ranged", "bonus": 8, "range": 10, "damage": "1d4"}


def _scout(at: tuple[float, float], facing: float = 0.0, **fields: Any) -> dict[str, Any]:
    return unit("s", at=at, facing=facing, profile=fields.pop("profile", SCOUT), **fields)


@pytest.mark.rule("W4-UNIT-12")
@pytest.mark.rule("W4-SKIRM-01")
def test_a_skirmisher_may_not_end_with_its_turned_base_inside_a_unit() -> None:
    # unit a's tray: x 18-22, y 8-10; the scout's base is centred at 24.6,7
    state = make_state([unit("a"), _scout((24.6, 7.5)),
                        unit("foe", "B", at=(60, 44), facing=180)])
    mover = Mover(state, get(state, "s"))
    # going north-west it ends turned 45 degrees: its corner would reach x 21.89
    assert isinstance(mover.judge(Order.parse("walk s 22.6,9")), Refusal)
    assert isinstance(mover.judge(Order.parse("walk s 22.8,9.2")), Order)


@pytest.mark.rule("W4-SHOOT-06")
def test_shooting_finds_a_target_in_range_of_a_turned_base_corner() -> None:
    archer = profile("Scout", formation="skirmish", unit_size=[1, 12], powers=[DART])
    # the scout's base centred at 20,10 turned 45 degrees reaches y 10.707; b's front edge
    # stands 9.95 beyond that corner, 10.16 beyond the upright base
    state = make_state([_scout((20, 10.5), 45.0, profile=archer),
                        unit("b", "B", at=(20, 20.657), facing=180)])
    scout = get(state, "s")
    assert shooting.in_range(state, scout, get(state, "b"), scout.powers()[0])
    state.extra[shooting.SIGHT] = shooting.sight_index(state)
    assert [t.id for t in shooting.legal_targets(state, scout, scout.powers()[0])] == ["b"]
