"""Where command figures stand in the command company (W4-CMD-03, W4-CMD-04)."""

from __future__ import annotations

import pytest

from tests.rulesets.dnd4e_war.helpers import get, make_state, profile, unit
from warhost.rulesets.dnd4e_war import casualties

RIDERS = profile(cavalry=True, mount_size="large", unit_size=[1, 10])
FULL_COMMAND = {"captain": {"name": "Sir Hal"}, "standard": True, "musician": True}


@pytest.mark.rule("W4-CMD-03")
def test_command_models_that_do_not_fit_stand_in_the_next_front_company() -> None:
    state = make_state([unit("c", companies=3, files=3, profile=RIDERS, command=FULL_COMMAND),
                        unit("b", "B", at=(20, 40), facing=180)])
    c = get(state, "c")  # cavalry companies are 2 x 1: the front row holds two figures
    assert c.command_slot == 1
    places = c.command_places()
    assert places["captain"] == (1, 0) and places["standard"] == (1, 0)
    assert places["musician"][1] == 0 and places["musician"][0] in (0, 2)


@pytest.mark.rule("W4-CMD-04")
def test_once_the_command_company_is_alone_the_overflow_joins_its_back_rows() -> None:
    state = make_state([unit("c", companies=2, files=2, command=FULL_COMMAND,
                             profile=profile(company={"columns": 2, "rows": 2})),
                        unit("b", "B", at=(20, 40), facing=180)])
    c = get(state, "c")
    assert c.command_places()["musician"] == (1 - c.command_slot, 0)  # beside, in front
    casualties.remove_models(c, 4)  # the other company is gone
    assert len(c.companies) == 1
    assert c.command_places() == {"captain": (0, 0), "standard": (0, 0), "musician": (0, 1)}
