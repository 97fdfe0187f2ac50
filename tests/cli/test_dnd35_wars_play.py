"""The command line with `dnd35-wars`: `warhost play` commanding a side, refused orders
explained with their rule, scripted orders files checked where they stand, replay and sweep."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.cli_helpers import run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dnd35-wars" / "regiment-and-horde.yaml"


class Person:
    """Stands in for ``Console.input``: answers from ``answers``, then the first option."""

    def __init__(self, answers: Sequence[str] = ()) -> None:
        self.answers = list(answers)

    def __call__(self, prompt: Any = "", **_: Any) -> str:
        text = str(prompt)
        sys.stdout.write(f"» {text}\n")
        if re.match(r"(?:Roll|Please type) (\d+)", text):
            return "3"
        return self.answers.pop(0) if self.answers else "1"


def scripted(tmp_path: Path, orders: Sequence[str]) -> Path:
    """A copy of the example whose Humans read ``orders`` from a file."""
    (tmp_path / "orders.txt").write_text("\n".join(orders) + "\n", encoding="utf-8")
    text = EXAMPLE.read_text(encoding="utf-8")
    humans = "  - name: Humans\n"
    assert humans in text
    path = tmp_path / "scripted.yaml"
    path.write_text(text.replace(humans, humans + "    commander: scripted\n"
                                 "    orders: orders.txt\n"), encoding="utf-8")
    return path


def test_play_commands_a_side_and_its_file_replays(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Console, "input", Person())
    out = tmp_path / "played.json"
    result = run("play", EXAMPLE, "--side", "Humans", "--seed", "4", "--replay", out)
    assert result.exit_code == 0, result.output
    assert "You command Humans" in result.stdout and "Scores:" in result.stdout
    assert run("replay", out).exit_code == 0


@pytest.mark.rule("W35-UATK-07")
def test_play_explains_a_refused_order_and_asks_again(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # keep the formation, then a melee with a unit far away, then an enemy unit's order
    person = Person(["1", "melee fighters horde", "melee horde fighters"])
    monkeypatch.setattr(Console, "input", person)
    result = run("play", EXAMPLE, "--side", "Humans", "--seed", "4", "--replay",
                 tmp_path / "p.json")
    assert result.exit_code == 0, result.output
    assert "(W35-UATK-07)" in result.stdout
    assert "horde" in result.stdout.split("(W35-UATK-07)")[0].splitlines()[-1]


def test_a_scripted_order_that_does_not_fit_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = scripted(tmp_path, ["formation fighters keep", "melee fighters horde"])
    result = run("battle", path, "--seed", "4")
    assert result.exit_code == 2
    assert "orders.txt:2" in result.stderr and "W35-UATK-07" in result.stderr


def test_sweep_varies_the_round_limit() -> None:
    result = run("sweep", EXAMPLE, "--vary", "options.round_limit=2:4:2", "-n", "3")
    assert result.exit_code == 0, result.stderr
    assert "round_limit" in result.stdout
