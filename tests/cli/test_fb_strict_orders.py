"""fantasy-battle orders files through the command line: an illegal line stops the battle at
that line with the reason and the rule ID; a move may give its path (``via``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.scenarios import write_tiny
from tests.cli_helpers import assert_user_error, run

rule = pytest.mark.rule


def scripted(tmp_path: Path, *lines: str) -> tuple[Path, Path]:
    """The tiny scenario (a-sword at (3,1), a-pike at (4,1); B's b-brute at (3,6), b-bow at
    (4,6); A plays first) with side A reading ``lines``."""
    orders = tmp_path / "a.orders"
    orders.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return write_tiny(tmp_path, a_commander="scripted", orders="a.orders"), orders


@rule("FB-MOVE-07")
def test_an_attack_after_double_time_stops_the_battle_at_its_line(tmp_path: Path) -> None:
    """The old scripted commander kept this line and gave it to the next unit; now the
    battle stops there, naming the file, line, order, decision and rule."""
    path, orders = scripted(tmp_path, "activate a-sword", "double", "move 3 4", "attack b-brute")
    line = assert_user_error(run("battle", path, "--seed", "1"), f"{orders}:4: order: ")
    assert line == (
        f"error: {orders}:4: order: 'attack b-brute' does not answer the plan of a-pike (A) "
        "decision: a-sword Double-timed and so gave up its attack phase (FB-MOVE-07)")


@rule("FB-MOVE-01")
@rule("FB-MOVE-06")
def test_a_too_long_move_in_an_orders_file_says_by_how_much(tmp_path: Path) -> None:
    path, orders = scripted(tmp_path, "activate a-sword", "move-attack", "move 3 7")
    assert_user_error(
        run("battle", path, "--seed", "1"), f"{orders}:3: order: 'move 3 7' does not answer "
        "the move of a-sword (A) decision: 6 squares costing 7 (leaving a square next to an "
        "enemy costs double, FB-MOVE-06), an Infantry unit moves at most 6 (FB-MOVE-01)")


@rule("FB-MOVE-04")
def test_a_given_path_through_a_unit_is_refused_at_its_step(tmp_path: Path) -> None:
    path, orders = scripted(tmp_path, "activate a-sword", "move-attack", "move 5 2 via 4 1")
    assert_user_error(run("battle", path, "--seed", "1"), f"{orders}:3: order: ",
                      "step 1 to (4,1): (4,1) is held by a-pike (FB-MOVE-04)")


@rule("FB-MOVE-03")
def test_a_move_along_a_given_path_is_played_recorded_and_replayed(tmp_path: Path) -> None:
    path, _ = scripted(tmp_path, "activate a-sword", "move-attack",
                       "move 2 5 via 2 2 1 3 1 4")
    replay = tmp_path / "r.json"
    result = run("battle", path, "--seed", "1", "--quiet", "--replay", replay)
    assert result.exit_code == 0, result.output
    data = json.loads(replay.read_text(encoding="utf-8"))
    assert {"side": "A", "kind": "move", "order": "move 2 5 via 2 2 1 3 1 4"} in data["decisions"]
    move = next(e for e in data["log"] if e["type"] == "move")
    assert (move["path"], move["cost"], move["given_path"]) == (
        [[2, 2], [1, 3], [1, 4], [2, 5]], 4, True)
    again = run("replay", replay)
    assert again.exit_code == 0, again.output
    assert "matches" in again.stdout
