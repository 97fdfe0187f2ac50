"""The play file of ``warhost play`` (:mod:`warhost.core.journal`) and unfinished replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.scenarios import write_tiny
from warhost.core.decisions import Decision
from warhost.core.dice import ScriptedDice
from warhost.core.errors import ReplayError
from warhost.core.events import EventLog
from warhost.core.journal import PlaybackDice, PlayJournal, fresh_play_path
from warhost.core.orders import Order
from warhost.core.replay import (
    dumps_replay,
    load_replay,
    unfinished_replay_data,
    write_text_atomically,
)
from warhost.core.scenario import load_scenario


def test_playback_dice_hand_out_the_record_then_ask() -> None:
    faces = [4, 2]
    asked: list[str] = []
    typed: list[int] = []
    dice = PlaybackDice(faces, ScriptedDice([6, 5, 1]), before_asking=lambda: asked.append("?"),
                        typed=lambda: typed.append(len(faces)))
    assert dice.replaying
    assert dice.pool(2, 6, "first") == [4, 2]
    assert not dice.replaying and asked == [] and typed == []
    assert dice.pool(1, 6, "second") == [6]
    assert dice.pool(2, 6, "third") == [5, 1]
    assert faces == [4, 2, 6, 5, 1]  # every face of the battle, in order
    assert asked == ["?", "?"] and typed == [3, 5]


def test_playback_dice_refuse_a_record_that_does_not_fit() -> None:
    with pytest.raises(ReplayError, match="end in the middle of a roll of 2d6"):
        PlaybackDice([3], ScriptedDice([1])).pool(2, 6, "attack")
    with pytest.raises(ReplayError, match="recorded face 7 is not on a d6"):
        PlaybackDice([7], ScriptedDice([1])).pool(1, 6, "attack")


def test_fresh_play_path_never_names_an_existing_file(tmp_path: Path) -> None:
    scenario = tmp_path / "ford.yaml"
    assert fresh_play_path(scenario) == tmp_path / "ford.play.json"
    (tmp_path / "ford.play.json").write_text("x")
    (tmp_path / "ford.play-2.json").write_text("x")
    assert fresh_play_path(scenario) == tmp_path / "ford.play-3.json"


def _unfinished(tmp_path: Path, commanders: dict[str, str] | None = None,
                dice: list[int] | None = None) -> Path:
    scenario = load_scenario(write_tiny(tmp_path))
    decisions = [{"side": "A", "kind": "activate", "order": "activate a-pike"},
                 {"side": "B", "kind": "activate", "order": "activate b-bow"},
                 {"side": "A", "kind": "plan", "order": "hold"}]
    data = unfinished_replay_data(scenario, 4, commanders or {"A": "human", "B": "ai"},
                                  decisions, dice=dice)
    path = tmp_path / "game.json"
    write_text_atomically(path, dumps_replay(data))
    return path


def test_an_unfinished_replay_loads_only_when_asked_for(tmp_path: Path) -> None:
    path = _unfinished(tmp_path, dice=[3, 4])
    data = json.loads(path.read_text())
    assert data["finished"] is False and "log_sha256" not in data and "events" not in data
    with pytest.raises(ReplayError, match="unfinished: continue it with warhost play --resume"):
        load_replay(path)
    loaded = load_replay(path, unfinished=True)
    assert not loaded.finished and loaded.dice == [3, 4] and len(loaded.decisions) == 3


def test_finished_must_be_true_or_false(tmp_path: Path) -> None:
    path = _unfinished(tmp_path)
    path.write_text(path.read_text().replace('"finished": false', '"finished": "no"'))
    with pytest.raises(ReplayError) as caught:
        load_replay(path, unfinished=True)
    assert caught.value.field == "finished" and caught.value.message == "must be true or false"


def test_resume_reads_the_person_side_orders_and_dice(tmp_path: Path) -> None:
    journal = PlayJournal.resume(_unfinished(tmp_path, dice=[3, 4]))
    assert journal.side == "A" and journal.seed == 4 and journal.manual
    assert journal.orders == ["activate a-pike", "hold"]
    assert journal.faces == [3, 4]
    assert journal.others == {"B": "ai"}


def test_resume_needs_exactly_one_person(tmp_path: Path) -> None:
    path = _unfinished(tmp_path, commanders={"A": "ai", "B": "ai"})
    with pytest.raises(ReplayError, match="names no side .or several. played by a person"):
        PlayJournal.resume(path)


def test_undo_takes_back_the_last_decision_and_the_dice_after_it(tmp_path: Path) -> None:
    scenario = load_scenario(write_tiny(tmp_path))
    journal = PlayJournal(tmp_path / "p.json", scenario, 4, "A", manual=True)
    dice = PlaybackDice(journal.faces, ScriptedDice([1, 2, 3, 4, 5]))
    dice.log = log = EventLog()
    journal.start_run(dice, {"A": "human", "B": "ai"})
    assert journal.live  # nothing recorded: live at once, and the file is written
    assert load_replay(journal.path, unfinished=True).decisions == []
    question = Decision("A", "plan", (Order.of("hold"), Order.of("double")))

    def answer(order: Order) -> None:  # as the battle does: the commander answers, it records
        journal.answered(question, order)
        # written at once, before the battle records it
        written = load_replay(journal.path, unfinished=True).decisions
        assert written[-1] == {"side": "A", "kind": "plan", "order": str(order)}
        log.emit("decision", side="A", kind="plan", order=str(order))

    dice.pool(1, 6, "before")
    answer(Order.of("hold"))
    dice.pool(2, 6, "between")
    answer(Order.of("double"))
    dice.pool(2, 6, "after")
    assert journal.orders == ["hold", "double"] and journal.marks == [1, 3]
    assert journal.undo() == "double"
    assert journal.orders == ["hold"] and journal.faces == [1, 2, 3]
    # the next run re-plays "hold" and the 3 faces: until it reaches the person the file is
    # left alone (it still holds more than the run has reached)
    journal.start_run(PlaybackDice(journal.faces, ScriptedDice([])), {"A": "human", "B": "ai"})
    assert not journal.live
    journal.save()
    assert len(load_replay(journal.path, unfinished=True).decisions) == 2


def test_dice_that_run_out_before_the_recorded_decisions_are_an_error(tmp_path: Path) -> None:
    journal = PlayJournal.resume(_unfinished(tmp_path, dice=[]))
    journal.start_run(PlaybackDice(journal.faces, ScriptedDice([])), {"A": "human", "B": "ai"})
    assert not journal.live  # two recorded decisions to re-play
    with pytest.raises(ReplayError, match="dice ran out with 2 recorded decision.s. still"):
        journal.go_live()
