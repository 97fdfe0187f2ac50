"""The command line with `dnd4e-war`: battle --json, replay, map, simulate, sweep, scripted
orders and `warhost play` on examples/dnd4e-war/hill-archers.yaml; illegal orders are refused
at once with the rule they break."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.cli_helpers import run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dnd4e-war" / "hill-archers.yaml"


def scripted(tmp_path: Path, orders: Sequence[str]) -> Path:
    """A copy of the example whose Elves read ``orders`` from a file."""
    (tmp_path / "orders.txt").write_text("\n".join(orders) + "\n", encoding="utf-8")
    text = EXAMPLE.read_text(encoding="utf-8")
    elves = "  - name: Elves\n    edge: north\n    commander: ai\n"
    assert elves in text
    path = tmp_path / "scripted.yaml"
    path.write_text(text.replace(elves, elves.replace("ai", "scripted\n    orders: orders.txt")),
                    encoding="utf-8")
    return path


def test_battle_json_accounts_for_every_model() -> None:
    result = run("battle", EXAMPLE, "--seed", "3", "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["ruleset"] == "dnd4e-war"
    assert {u["unit"] if "unit" in u else u["id"] for u in summary["units"]} >= {
        "archers", "spears", "drow", "spiders"}
    for unit in summary["units"]:
        assert unit["survivors"] + unit["losses"] == unit["start"]


def test_battle_replays_to_the_same_log_and_a_changed_order_is_caught(tmp_path: Path) -> None:
    out = tmp_path / "hill.replay.json"
    result = run("battle", EXAMPLE, "--seed", "5", "--quiet", "--replay", out,
                 "--commander", "Elves=random", "--commander", "Drow=random")
    assert result.exit_code == 0, result.stderr
    assert run("replay", out).exit_code == 0
    png = tmp_path / "end.png"
    drawn = run("map", out, "--out", png)  # the map after the battle, from its replay
    assert drawn.exit_code == 0, drawn.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    document = json.loads(out.read_text(encoding="utf-8"))
    first = document["decisions"][0]
    assert first["kind"] == "initiative"
    first["order"] = "give" if first["order"] == "take" else "take"
    out.write_text(json.dumps(document), encoding="utf-8")
    assert run("replay", out).exit_code != 0


def test_the_map_command_draws_trays_after_deployment(tmp_path: Path) -> None:
    svg = tmp_path / "hill.svg"
    result = run("map", EXAMPLE, "--out", svg, "--round", "0", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    text = svg.read_text(encoding="utf-8")
    for words in ("Silverhill", "height 1", "front arc", "company trays", "archers"):
        assert words in text, words


def test_simulate_and_sweep_run_the_example(tmp_path: Path) -> None:
    result = run("simulate", EXAMPLE, "-n", "2", "--seed", "1", "--workers", "1", "--json",
                 "--out", tmp_path / "sim.duckdb")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["battles"] == 2
    swept = run("sweep", EXAMPLE, "--vary", "options.turn_limit=1:2", "-n", "1",
                "--seed", "1", "--workers", "1", "--out", tmp_path / "sweep.duckdb")
    assert swept.exit_code == 0, swept.output
    assert "turn_limit" in swept.stdout


@pytest.mark.rule("W4-INIT-04")
@pytest.mark.rule("W4-TURN-02")
def test_a_scripted_order_from_another_phase_is_refused_with_its_rule(tmp_path: Path) -> None:
    path = scripted(tmp_path, ["shoot archers"])
    result = run("battle", path, "--seed", "3", "--commander", "Drow=first")
    assert result.exit_code == 2, result.output
    # the first question to the Elves is who takes the initiative, or where to move
    assert "W4-TURN-02" in result.stderr and "Shooting phase order" in result.stderr


class Person:
    """Stands in for ``Console.input``: answers order questions from ``answers`` (then the
    first option), dice with 3s."""

    def __init__(self, answers: Sequence[str] = ()) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: Any = "", **_: Any) -> str:
        text = str(prompt)
        self.prompts.append(text)
        sys.stdout.write(f"» {text}\n")
        dice = re.match(r"(?:Roll|Please type) (\d+)", text)
        if dice:
            return " ".join(["3"] * int(dice.group(1)))
        return self.answers.pop(0) if self.answers else "1"


def test_play_commands_a_side_and_its_file_replays(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Console, "input", Person())
    out = tmp_path / "played.json"
    result = run("play", EXAMPLE, "--side", "Elves", "--seed", "4", "--replay", out)
    assert result.exit_code == 0, result.output
    assert "You command Elves" in result.stdout and "Scores:" in result.stdout
    # the text map before the questions: terrain by what it does, each unit's trays
    assert "^ height 1" in result.stdout and "% difficult, concealment" in result.stdout
    assert "E1 archers 12/12 models [8 4]" in result.stdout
    assert run("replay", out).exit_code == 0


@pytest.mark.rule("W4-TURN-02")
@pytest.mark.rule("W4-MOVE-21")
def test_play_explains_a_refused_order_and_asks_again(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    person = Person(["charge archers drow", "move drow", "move archers", "run archers 36,36"])
    monkeypatch.setattr(Console, "input", person)
    result = run("play", EXAMPLE, "--side", "Elves", "--seed", "4", "--replay",
                 tmp_path / "p.json")
    assert result.exit_code == 0, result.output
    assert "Charge phase order" in result.stdout and "(W4-TURN-02)" in result.stdout
    assert "move drow: drow belongs to Drow" in result.stdout
    assert "run archers 36,36: units of companies can never run (W4-MOVE-21)" in result.stdout
