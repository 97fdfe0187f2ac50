"""Round 5 of the speed work in the core: decisions kept as tuples, the random commander's
block refill, and ``records_fields`` worked out when the log is set (the inlined random draw is
tested with the other draws in ``test_lazy_decision.py``)."""

from __future__ import annotations

import numpy as np

from warhost.core.commanders import RandomCommander
from warhost.core.engine import Battle, build_commanders, decision_records, run_battle
from warhost.core.events import EventLog
from warhost.core.orders import Order
from warhost.core.scenario import load_scenario

SKIRMISH = "examples/fantasy-battle/skirmish.yaml"


def test_refill_hands_out_low_then_high_halves_of_each_raw_draw() -> None:
    commander = RandomCommander()
    commander.bind("A", np.random.Generator(np.random.PCG64(11)))
    halves: list[int] = []
    commander._refill(halves)
    raw = np.random.Generator(np.random.PCG64(11)).bit_generator.random_raw(
        RandomCommander._BLOCK).tolist()
    want = [half for r in raw for half in (r & 0xFFFFFFFF, r >> 32)]
    halves.reverse()  # handed out from the end
    assert halves == want


def test_decisions_are_kept_as_tuples_and_read_as_records() -> None:
    scenario = load_scenario(SKIRMISH)
    sides = scenario.ruleset.side_names(scenario.model)
    result = run_battle(scenario, 5, {s: "random" for s in sides})
    assert result.decided and all(isinstance(o, Order) for _, _, o in result.decided)
    records = result.decisions
    assert records == [{"side": s, "kind": k, "order": str(o)} for s, k, o in result.decided]
    # The same records are logged as decision events when the log records.
    logged = [{k: e[k] for k in ("side", "kind", "order")}
              for e in result.log.events if e["type"] == "decision"]
    assert logged == records
    # Without a log the same decisions are taken.
    quiet = run_battle(scenario, 5, {s: "random" for s in sides}, record=False)
    assert quiet.decisions == records


def test_decision_records_of_nothing() -> None:
    assert decision_records([]) == []


def test_records_fields_is_set_with_the_log() -> None:
    """``records_fields`` is worked out when a log is set, and emit follows it."""
    scenario = load_scenario(SKIRMISH)
    sides = scenario.ruleset.side_names(scenario.model)
    commanders = build_commanders(scenario, dict.fromkeys(sides, "random"))
    battle = Battle(scenario.ruleset, scenario, 1, commanders, record=False)
    assert not battle.records_fields
    battle.emit("move", unit="x")
    assert len(battle.log) == 1 and not battle.log.events
    battle.log = EventLog(record=True)
    assert battle.records_fields
    battle.emit("move", unit="x")
    assert battle.log.events[0]["unit"] == "x"

    class Narrating(EventLog):
        """A log subclass (the CLI narrates through one) always gets the fields."""

    battle.log = Narrating(record=False)
    assert battle.records_fields
