"""``warhost play`` you cannot lose: the play file written as it goes, ``--resume``, ``undo``,
the map before each decision and grouped option lists."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from tests.cli.scenarios import write_tiny
from warhost.cli import app

runner = CliRunner()

PROMPT = "» "
"""Marks each question in the output (a terminal shows the prompt there too)."""


def faces_for(prompt: str) -> str:
    """Dice faces that depend only on the question (``Roll 2d6 for attack by b-bow: ``), so a
    question asked again after an undo gets the same answer."""
    match = re.match(r"(?:Roll|Please type) (\d+)(?:d(\d+)| number\(s\) from 1 to (\d+))", prompt)
    assert match, prompt
    count, sides = int(match.group(1)), int(match.group(2) or match.group(3))
    seed = sum(map(ord, prompt))
    return " ".join(str((seed + 5 * i) % sides + 1) for i in range(count))


class Person:
    """Stands in for ``Console.input``: answers the order questions from ``answers`` (then
    ``"1"``), dice by :func:`faces_for`; after ``stop_after`` order answers it raises ``stop``
    (EOF by default), or with ``hang_up`` closes the terminal (SIGHUP). ``on_ask(prompt)`` runs
    before each order question."""

    def __init__(
        self,
        answers: Sequence[str] = (),
        stop_after: int | None = None,
        stop: type[BaseException] = EOFError,
        on_ask: Callable[[str], None] | None = None,
        hang_up: bool = False,
    ) -> None:
        self.answers = list(answers)
        self.stop_after = stop_after
        self.stop = stop
        self.on_ask = on_ask
        self.hang_up = hang_up
        self.given = 0
        self.prompts: list[str] = []

    def __call__(self, prompt: Any = "", **_: Any) -> str:
        text = str(prompt)
        self.prompts.append(text)
        sys.stdout.write(f"{PROMPT}{text}\n")
        if text.startswith(("Roll ", "Please type ")):
            return faces_for(text)
        if self.stop_after is not None and self.given >= self.stop_after:
            if self.hang_up:
                handler = signal.getsignal(signal.SIGHUP)
                if not callable(handler):  # never kill the test run itself
                    raise AssertionError(f"play set no SIGHUP handler ({handler})")
                os.kill(os.getpid(), signal.SIGHUP)  # the handler raises here
            raise self.stop()
        if self.on_ask is not None:
            self.on_ask(text)
        answer = self.answers[self.given] if self.given < len(self.answers) else "1"
        self.given += 1
        return answer

    @property
    def order_prompts(self) -> list[str]:
        return [p for p in self.prompts if p.startswith("[")]

    @property
    def dice_prompts(self) -> list[str]:
        return [p for p in self.prompts if p.startswith(("Roll ", "Please type "))]


@pytest.fixture
def person_factory(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Person]:
    def make(*args: Any, **kwargs: Any) -> Person:
        who = Person(*args, **kwargs)
        monkeypatch.setattr(Console, "input", who)
        return who
    return make


def play(*args: str | Path) -> Result:
    return runner.invoke(app, ["play", *map(str, args)])


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def human_orders(data: dict[str, Any], side: str = "A") -> list[str]:
    return [d["order"] for d in data["decisions"] if d["side"] == side]


# Side A's answers in the tiny scenario, seed 4: activate a-pike, charge b-brute, move 4 3 ...
ANSWERS = ["2", "3", "4", "1", "1", "2", "1", "1", "1", "1"]


def full_game(tmp_path: Path, person_factory: Callable[..., Person], answers: Sequence[str],
              *extra: str, name: str = "full.json") -> dict[str, Any]:
    """An uninterrupted battle; returns its replay (checked by ``warhost replay``)."""
    tiny = write_tiny(tmp_path)
    out = tmp_path / name
    person_factory(answers)
    result = play(tiny, "--side", "A", "--seed", "4", "--replay", out, *extra)
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["replay", str(out)]).exit_code == 0
    return load(out)


# --------------------------------------------------------------------------- written as it goes


def test_play_file_is_written_after_each_decision(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    path = tmp_path / "tiny.play.json"
    seen: list[list[str]] = []
    person_factory(ANSWERS, stop_after=4, on_ask=lambda _: seen.append(human_orders(load(path))))
    result = play(tiny, "--side", "A", "--seed", "4")
    # the default name sits beside the scenario and is printed at the start
    assert f"The battle is saved in {path} as it goes" in result.stdout.splitlines()[1]
    # before each question the file already held every earlier answer
    assert [len(orders) for orders in seen] == [0, 1, 2, 3]
    assert seen[3] == ["activate a-pike", "charge b-brute", "move 4 3"]
    # input ended: exit 2, one line saying how to resume, the file unfinished and loadable
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: input ended before the battle did; the battle so far is saved in {path}: "
        f"continue it with warhost play --resume {path}"]
    data = load(path)
    assert data["finished"] is False
    assert "log_sha256" not in data and "log" not in data
    assert len(human_orders(data)) == 4
    assert data["commanders"] == {"A": "human", "B": "ai"}


def test_play_never_overwrites_a_file(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    taken = tmp_path / "tiny.play.json"
    taken.write_text("precious", encoding="utf-8")
    person_factory(stop_after=0)
    first = play(tiny, "--side", "A", "--seed", "4")
    assert taken.read_text(encoding="utf-8") == "precious"
    fresh = tmp_path / "tiny.play-2.json"
    assert f"saved in {fresh} as it goes" in first.stdout
    assert load(fresh)["finished"] is False
    # --replay naming an existing file is refused before anything is played
    refused = play(tiny, "--side", "A", "--seed", "4", "--replay", taken)
    assert refused.exit_code == 2
    assert refused.stderr.startswith(f"error: {taken}: replay: already exists")
    assert taken.read_text(encoding="utf-8") == "precious"


def test_interrupt_leaves_the_file_and_says_how_to_resume(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "mine.json"
    person_factory(ANSWERS, stop_after=2, stop=KeyboardInterrupt)
    result = play(tiny, "--side", "A", "--seed", "4", "--replay", out)
    assert result.exit_code == 130
    assert result.stderr.splitlines() == [
        f"error: interrupted; the battle so far is saved in {out}: continue it with "
        f"warhost play --resume {out}"]
    assert human_orders(load(out)) == ["activate a-pike", "charge b-brute"]


def test_closed_terminal_leaves_the_file(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "mine.json"
    person_factory(ANSWERS, stop_after=3, stop=AssertionError, hang_up=True)
    before = signal.getsignal(signal.SIGHUP)
    result = play(tiny, "--side", "A", "--seed", "4", "--replay", out)
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    assert result.stderr.startswith("error: interrupted; the battle so far is saved in")
    assert len(human_orders(load(out))) == 3
    assert signal.getsignal(signal.SIGHUP) == before  # the handler is put back


def test_replay_refuses_an_unfinished_file(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "mine.json"
    person_factory(stop_after=1)
    play(tiny, "--side", "A", "--seed", "4", "--replay", out)
    result = runner.invoke(app, ["replay", str(out)])
    assert result.exit_code == 2
    assert "finished: the battle in this file is unfinished: continue it with warhost play " \
           f"--resume {out}" in result.stderr


# --------------------------------------------------------------------------- --resume


def test_resume_continues_to_the_same_log_as_an_unbroken_battle(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    unbroken = full_game(tmp_path, person_factory, ANSWERS)
    out = tmp_path / "broken.json"
    tiny = tmp_path / "tiny.yaml"
    person_factory(ANSWERS, stop_after=3)
    assert play(tiny, "--side", "A", "--seed", "4", "--replay", out).exit_code == 2
    person = person_factory(ANSWERS[3:])
    result = play("--resume", out)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Resuming {out}: you command A, seed 4."
    assert "Resumed at round 1." in lines
    # the re-run part is not narrated again: the deployment is not told twice
    assert not any("deploys at" in line for line in lines)
    # the person is asked only the decisions not yet taken
    assert len(person.order_prompts) == len(human_orders(unbroken)) - 3
    finished = load(out)
    assert "finished" not in finished
    assert finished["log_sha256"] == unbroken["log_sha256"]
    assert finished["decisions"] == unbroken["decisions"]
    assert runner.invoke(app, ["replay", str(out)]).exit_code == 0


def test_resume_shows_the_map_and_the_next_question(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "broken.json"
    person_factory(ANSWERS, stop_after=3)
    play(tiny, "--side", "A", "--seed", "4", "--replay", out)
    person_factory(ANSWERS[3:], stop_after=0)
    result = play("--resume", out)
    after = result.stdout.split("Resumed at round 1.\n", 1)[1]
    assert after.startswith("Tiny — round 1")  # the map, then the question
    assert after.index("  1 ") < after.index(PROMPT)
    assert result.exit_code == 2  # input ended again; the file is still there to resume
    assert len(human_orders(load(out))) == 3


def test_resume_of_a_finished_battle_says_so(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    full_game(tmp_path, person_factory, ANSWERS)
    result = play("--resume", tmp_path / "full.json")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {tmp_path / 'full.json'}: finished: this battle is finished: there is nothing "
        f"to resume (watch it again with warhost replay {tmp_path / 'full.json'})"]


def test_resume_takes_everything_from_the_file(tmp_path: Path) -> None:
    result = play("--resume", tmp_path / "x.json", "--side", "A")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: resume: --resume takes the scenario, side, seed "
                                     "and dice from the file; leave out --side")
    missing = play("--side", "A")
    assert missing.exit_code == 2
    assert "give a SCENARIO file (or --resume FILE)" in missing.stderr


def test_manual_dice_are_recorded_and_not_asked_again_on_resume(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    unbroken = full_game(tmp_path, person_factory, ANSWERS, "--manual-dice")
    tiny = tmp_path / "tiny.yaml"
    out = tmp_path / "broken.json"
    first = person_factory(ANSWERS, stop_after=5)
    play(tiny, "--side", "A", "--seed", "4", "--manual-dice", "--replay", out)
    typed = load(out)["dice"]
    assert first.dice_prompts and len(typed) == sum(
        len(faces_for(p).split()) for p in first.dice_prompts)
    assert typed == unbroken["dice"][:len(typed)]
    second = person_factory(ANSWERS[5:])
    result = play("--resume", out)
    assert result.exit_code == 0, result.output
    # only the dice not yet typed are asked for
    assert len(first.dice_prompts) + len(second.dice_prompts) == len(
        [e for e in unbroken["log"] if e["type"] == "roll"])
    finished = load(out)
    assert finished["dice"] == unbroken["dice"]
    assert finished["log_sha256"] == unbroken["log_sha256"]


# --------------------------------------------------------------------------- undo


def test_undo_equals_never_having_made_the_decision(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    straight = full_game(tmp_path, person_factory, ANSWERS, name="straight.json")
    # a wrong facing (4th answer "2": east), taken back, then the right one
    wavering = ANSWERS[:3] + ["2", "undo"] + ANSWERS[3:]
    tiny = tmp_path / "tiny.yaml"
    out = tmp_path / "wavering.json"
    person = person_factory(wavering)
    result = play(tiny, "--side", "A", "--seed", "4", "--replay", out)
    assert result.exit_code == 0, result.output
    assert "Took back 'face east': back at round 1." in result.stdout
    assert person.order_prompts[3] == person.order_prompts[5]  # asked again
    played = load(out)
    assert played["log_sha256"] == straight["log_sha256"]
    assert played["decisions"] == straight["decisions"]


def test_repeated_undo_goes_further_back_and_stops_at_the_start(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    straight = full_game(tmp_path, person_factory, ANSWERS, name="straight.json")
    out = tmp_path / "back.json"
    answers = ["1", "1", "undo", "undo", "undo"] + ANSWERS
    snapshots: list[list[str]] = []
    person_factory(answers, on_ask=lambda _: snapshots.append(human_orders(load(out))))
    result = play(tmp_path / "tiny.yaml", "--side", "A", "--seed", "4", "--replay", out)
    assert result.exit_code == 0, result.output
    assert "undo: nothing to take back yet; this is your first decision" in result.stdout
    # the file follows: 2 decisions, then 1 after the first undo, then none
    assert [len(s) for s in snapshots[:5]] == [0, 1, 2, 1, 0]
    assert load(out)["log_sha256"] == straight["log_sha256"]


def test_undo_drops_the_dice_typed_after_the_decision(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    straight = full_game(tmp_path, person_factory, ANSWERS, "--manual-dice",
                         name="straight.json")
    rolls = len([e for e in straight["log"] if e["type"] == "roll"])
    out = tmp_path / "undone.json"
    # undo at the 5th question takes back the 4th decision (a-pike's facing), after which
    # b-bow shot at a-pike: those dice are typed again
    answers = ANSWERS[:4] + ["undo"] + ANSWERS[3:]
    snapshots: list[int] = []
    person = person_factory(answers, on_ask=lambda _: snapshots.append(
        len(load(out).get("dice", []))))
    result = play(tmp_path / "tiny.yaml", "--side", "A", "--seed", "4", "--manual-dice",
                  "--replay", out)
    assert result.exit_code == 0, result.output
    # faces were typed between the 4th and 5th questions, and were dropped by the undo
    assert snapshots[3] == 0 and snapshots[4] == 4 and snapshots[5] == 0
    assert len(person.dice_prompts) > rolls
    finished = load(out)
    assert finished["dice"] == straight["dice"]
    assert finished["log_sha256"] == straight["log_sha256"]


def test_undo_at_a_dice_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "dice.json"
    answers: Iterator[str] = iter(["undo"])

    class DiceUndo(Person):
        def __call__(self, prompt: Any = "", **_: Any) -> str:
            text = str(prompt)
            if text.startswith("Roll "):
                self.prompts.append(text)
                return next(answers, faces_for(text))
            return super().__call__(prompt)

    who = DiceUndo(ANSWERS)
    monkeypatch.setattr(Console, "input", who)
    result = play(tiny, "--side", "A", "--seed", "4", "--manual-dice", "--replay", out)
    assert result.exit_code == 0, result.output
    assert re.search(r"Took back '[^']+': back at round \d\.", result.stdout)
    assert runner.invoke(app, ["replay", str(out)]).exit_code == 0


# --------------------------------------------------------------------------- map and lists


def _questions(stdout: str) -> list[str]:
    """The output before each order question (since the previous question)."""
    chunks = stdout.split(PROMPT)
    # each chunk after the first starts with the line of the question answered last
    texts = [chunks[0]] + [chunk.split("\n", 1)[-1] for chunk in chunks[1:]]
    return [text for text, nxt in zip(texts, chunks[1:]) if nxt.startswith("[A]")]


def test_map_before_every_decision(tmp_path: Path, person_factory: Callable[..., Person]) -> None:
    tiny = write_tiny(tmp_path)
    person = person_factory(ANSWERS[:3] + ["map"] + ANSWERS[3:])
    result = play(tiny, "--side", "A", "--seed", "4", "--replay", tmp_path / "m.json")
    assert result.exit_code == 0, result.output
    before = _questions(result.stdout)
    assert len(before) == len(person.order_prompts)
    maps = 0
    for text in before:
        drawn = "Tiny — round" in text
        maps += drawn
        # every question either has the map just above it or says how to draw it again
        assert drawn or "[map as above; map draws it again]" in text, text
    assert maps >= 3
    # after a move (the 3rd answer) the map is drawn again, showing a-pike at (4, 3)
    assert "Tiny — round" in before[3] and "  3 .  .  .  .  A" in before[3]
    # "map" at the prompt draws it again at once
    assert before[4].startswith("Tiny — round 1")


def test_help_lists_what_can_be_typed(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    person_factory(["help"], stop_after=1)
    result = play(write_tiny(tmp_path), "--side", "A", "--seed", "4")
    for needle in ("NUMBER", "ORDER", "Enter", "? KIND", "map ", "undo ", "help "):
        assert needle in result.stdout


def test_long_option_lists_are_grouped_and_filtered(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    # activate a-sword, move-attack: 56 places to move to
    person_factory(["1", "1", "? move", "? hold", "move 9 9", "move 3 3"], stop_after=6)
    result = play(write_tiny(tmp_path), "--side", "A", "--seed", "4")
    move = result.stdout.split("where does a-sword move? (a-sword)", 1)[1]
    grouped, listed, no_kind, refused = move.split(PROMPT)[:4]
    assert "56 orders for a-sword, by kind" in grouped
    assert 'move (56): x 0-7, y 0-7; type "move X Y"' in grouped
    assert "\n  1 oooo.ooo\n" in grouped  # a-pike stands on (4, 1)
    assert len(grouped.strip().splitlines()) < 15
    assert "56. move 2 7" in listed and "move (56):" in listed
    assert "? hold: no order here is of that kind or names it (kinds: move)" in no_kind
    # a refused order is explained and the question asked again
    assert "move 9 9: (9,9) is off the 8x8 map (FB-AMB-20)" in refused
    assert "A decides move: move 3 3" in result.stdout


def test_resume_of_a_file_that_no_longer_fits_the_battle(
    tmp_path: Path, person_factory: Callable[..., Person]
) -> None:
    tiny = write_tiny(tmp_path)
    out = tmp_path / "broken.json"
    person_factory(ANSWERS, stop_after=5)
    assert play(tiny, "--side", "A", "--seed", "4", "--replay", out).exit_code == 2
    text = out.read_text(encoding="utf-8")
    # another side's recorded decision that the battle no longer makes
    b_move = next(d["order"] for d in load(out)["decisions"] if d["side"] == "B"
                  and d["kind"] == "move")
    other = tmp_path / "other.json"
    edited = text.replace(f'"order": "{b_move}"', '"order": "move 0 0"')
    other.write_text(edited, encoding="utf-8")
    person_factory(stop_after=0)
    result = play("--resume", other)
    assert result.exit_code == 2
    assert re.fullmatch(rf"error: {re.escape(str(other))}: decisions: decision \d+ differs on "
                        r"re-running: the file has B move 'move 0 0', the battle now gives B "
                        rf"move '{b_move}'\n", result.stderr)
    assert other.read_text(encoding="utf-8") == edited  # left as it was, not rewritten
    # the person's own recorded decision that is not legal
    mine = tmp_path / "mine.json"
    mine.write_text(text.replace('"order": "move 4 3"', '"order": "move 9 9"'), encoding="utf-8")
    result = play("--resume", mine)
    assert result.exit_code == 2
    assert "recorded decision 3 of A, 'move 9 9', does not answer the move of a-pike (A) " \
           "decision" in result.stderr
