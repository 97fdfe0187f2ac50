"""Strict orders files and moves to any point through the command line, with `dnd5e-tactics`:
an order written for another decision stops the battle at its line with the reason and the
rule; a move to a named point is carried out and replays the same."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_helpers import assert_user_error, run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dnd5e-tactics" / "open-field.yaml"


def scripted_watch(tmp_path: Path, orders: str) -> tuple[Path, Path]:
    """The open-field example with the Greyhaven Watch (south) reading ``orders``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    needle = "    edge: south\n"
    assert text.count(needle) == 1
    scenario = tmp_path / "open.yaml"
    scenario.write_text(text.replace(
        needle, needle + "    commander: scripted\n    orders: watch.orders\n"), encoding="utf-8")
    orders_file = tmp_path / "watch.orders"
    orders_file.write_text(orders, encoding="utf-8")
    return scenario, orders_file


def test_a_round_one_switch_stops_the_battle_at_its_line_with_the_reason(
        tmp_path: Path) -> None:
    """T5-ROUND-09: no Tactics Track step in round 1. The Watch's first decision is the stance
    of its archers, so the order written for round 1 is refused there, not carried out
    later."""
    scenario, orders = scripted_watch(tmp_path, "# the Watch, round 1\nswitch vicious\n")
    line = assert_user_error(run("battle", scenario, "--seed", "1"), f"{orders}:2: order: ")
    assert line.endswith(
        "'switch vicious' does not answer the stance of watch-archers (Greyhaven Watch) "
        "decision: a Tactics Track switch is chosen at step 3 of a round, which round 1 skips "
        "(T5-ROUND-09)")


def test_a_move_beyond_the_speed_stops_the_battle_with_the_numbers(tmp_path: Path) -> None:
    """T5-ROUND-12: the archers move 30 ft = 3 in."""
    scenario, orders = scripted_watch(tmp_path, "stance open\nstance close\n"
                                                "move 31.3,12.0 10\n")
    line = assert_user_error(run("battle", scenario, "--seed", "1"), f"{orders}:3: order: ")
    assert line.endswith("'move 31.3,12.0 10' does not answer the move of watch-archers "
                         "(Greyhaven Watch) decision: 31.3,12.0 is 8.03 in of movement away; "
                         "watch-archers moves at most 3 in (T5-ROUND-12)")


def test_a_move_to_a_named_point_is_carried_out_and_replays(tmp_path: Path) -> None:
    """T5-DEC-12, T5-AMB-09: any point and facing within the rules, not only a listed one."""
    scenario, _ = scripted_watch(tmp_path, "stance open\nstance close\nmove 31.3,6.8 10\n")
    replay = tmp_path / "battle.json"
    result = run("battle", scenario, "--seed", "1", "--quiet", "--replay", replay, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(replay.read_text(encoding="utf-8"))
    moves = [d for d in document["decisions"] if d["side"] == "Greyhaven Watch"
             and d["kind"] == "move"]
    assert moves[0]["order"] == "move 31.3,6.8 10"
    first = next(e for e in document["log"] if e["type"] == "move"
                 and e["body"] == "watch-archers")
    assert (first["from"], first["to"], first["facing"]) == ([32.0, 4.0], [31.3, 6.8], 10.0)
    replayed = run("replay", replay)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.startswith("matches")
