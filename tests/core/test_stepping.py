"""The step-by-step battle of the core (:mod:`warhost.core.stepping`): questions, orders
refused with their reason, real dice, frames, closing, and the same log as ``run_battle``.
(Every example of every ruleset is played step by step in the conformance suite.)"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from tests.cli.scenarios import write_tiny
from warhost.core.dice import ScriptedDice
from warhost.core.engine import run_battle
from warhost.core.errors import IllegalOrderError, WarhostError
from warhost.core.scenario import load_scenario
from warhost.core.stepping import SteppedBattle, parse_faces, play_through


@pytest.fixture
def tiny(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The tiny fantasy-battle scenario: A's a-sword at (3,1) and a-pike at (4,1), B's
    b-brute at (3,6) and b-bow at (4,6); A plays first."""
    return load_scenario(write_tiny(tmp_path))


def test_the_first_question_names_the_side_the_options_and_the_prompt(tiny) -> None:  # type: ignore[no-untyped-def]
    with SteppedBattle(tiny, 1, {"B": "random"}, stepped=["A"]) as battle:
        question = battle.question
        assert question is not None and question.number == 1
        assert question.what == "order" and question.side == "A"
        assert "activate a-sword" in question.options
        assert battle.decision is not None and battle.decision.kind == question.kind
        data = question.to_json()
        assert data["options"] == list(question.options) and data["side"] == "A"
        assert battle.events[0]["type"] == "battle_start"
        assert battle.events[0]["sides"] == {"A": "human", "B": "random"}


def test_an_order_by_index_is_the_listed_option(tiny) -> None:  # type: ignore[no-untyped-def]
    with SteppedBattle(tiny, 1, {"B": "random"}, stepped=["A"]) as by_index, \
            SteppedBattle(tiny, 1, {"B": "random"}, stepped=["A"]) as by_text:
        first = by_index.question
        assert first is not None
        chosen = first.options.index("activate a-sword")
        new = by_index.answer(chosen)
        assert new == by_text.answer("activate a-sword")
        assert new and new[0]["type"] == "decision" and new[0]["order"] == "activate a-sword"
        with pytest.raises(IllegalOrderError, match="no option 99"):
            by_index.answer(99)


@pytest.mark.rule("FB-MOVE-01")
def test_an_illegal_order_is_refused_at_once_with_its_rule_and_changes_nothing(tiny) -> None:  # type: ignore[no-untyped-def]
    with SteppedBattle(tiny, 1, {"B": "random"}, stepped=["A"]) as battle:
        battle.answer("activate a-sword")
        battle.answer("move-attack")
        question, count = battle.question, len(battle.events)
        with pytest.raises(IllegalOrderError) as refused:
            battle.answer("move 3 7")
        assert "an Infantry unit moves at most 6 (FB-MOVE-01)" in refused.value.message
        assert battle.question == question and len(battle.events) == count
        with pytest.raises(WarhostError, match="waits for an order"):
            battle.roll("3")
        battle.answer("move 3 4")  # still waiting, and a legal move is taken
        assert battle.question != question


def test_play_through_answers_every_question_and_keeps_the_result(tiny) -> None:  # type: ignore[no-untyped-def]
    """Every question is answered to the end and the result kept; that the log equals
    run_battle's with the same orders is checked for every example in the conformance suite."""
    pick = random.Random(2)
    with SteppedBattle(tiny, 4, {"B": "random"}, stepped=["A"], label="ai") as battle:
        result = play_through(battle, lambda q: pick.randrange(len(q.options)))
        assert battle.over and battle.question is None and result is battle.result
    assert result is not None
    replayed = [r["order"] for r in battle.decisions() if r["side"] == "A"]
    assert replayed, "side A took decisions"
    with pytest.raises(WarhostError, match="the battle is over"):
        battle.answer(0)
    assert battle.winner == result.winner
    assert battle.round == result.outcome.rounds


def test_manual_dice_refuse_bad_faces_and_give_the_log_of_the_same_faces(tiny) -> None:  # type: ignore[no-untyped-def]
    faces = random.Random(8)
    with SteppedBattle(tiny, 6, {"A": "random", "B": "random"}, manual_dice=True) as battle:
        question = battle.question
        assert question is not None and question.what == "dice" and question.side is None
        count, sides = question.dice
        assert question.to_json()["sides"] == sides and question.prompt.startswith("Roll ")
        with pytest.raises(WarhostError, match=f"is not a face of a d{sides}"):
            battle.roll(" ".join([str(sides + 1)] * count))
        with pytest.raises(WarhostError, match=f"this roll is {count}d{sides}"):
            battle.roll(" ".join(["1"] * (count + 1)))
        with pytest.raises(WarhostError, match="whole number"):
            battle.roll("six")
        with pytest.raises(WarhostError, match="waits for the faces of real dice"):
            battle.answer(0)
        assert battle.question == question and battle.faces == []
        while not battle.over:
            q = battle.question
            assert q is not None and q.what == "dice"
            battle.roll([faces.randint(1, q.dice[1]) for _ in range(q.dice[0])])
    typed = run_battle(tiny, 6, {"A": "random", "B": "random"}, dice=ScriptedDice(battle.faces))
    assert battle.result is not None
    assert battle.result.log.to_jsonl() == typed.log.to_jsonl()


def test_parse_faces_reads_spaces_and_commas() -> None:
    assert parse_faces("3, 5 6", 3, 6) == [3, 5, 6]
    with pytest.raises(WarhostError, match="0 is not a face of a d6"):
        parse_faces([0], 1, 6)


def test_frames_keep_the_map_at_the_start_each_round_end_and_each_question(tiny) -> None:  # type: ignore[no-untyped-def]
    battle = SteppedBattle(tiny, 2, {"A": "random", "B": "random"})
    assert battle.over and battle.result is not None
    frames = battle.frames
    assert frames[0].round == 0 and frames[0].events >= 1  # deployed, before the first round
    rounds = [f.round for f in frames[1:]]
    assert rounds == list(range(1, battle.result.outcome.rounds + 1))
    assert all(f.map is not None and f.map["units"] for f in frames)
    assert [f.events for f in frames] == sorted(f.events for f in frames)
    assert frames[-1].to_json()["round"] == rounds[-1]
    with SteppedBattle(tiny, 2, {"B": "random"}, stepped=["A"]) as asked:
        assert asked.frames[-1].map is not None  # the map as the first question is asked


def test_closing_an_unfinished_battle_frees_its_thread(tiny) -> None:  # type: ignore[no-untyped-def]
    before = threading.active_count()
    battles = [SteppedBattle(tiny, seed, {"B": "ai"}, stepped=["A"]) for seed in range(5)]
    assert threading.active_count() == before + 5
    for battle in battles:
        battle.answer(0)
        battle.close()
        assert battle.over and battle.question is None and battle.result is None
        with pytest.raises(WarhostError, match="closed"):
            battle.answer(0)
    assert threading.active_count() == before


def test_a_failing_commander_stops_the_battle_with_its_error(tiny, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from warhost.core.commanders import RandomCommander, ScriptedCommander

    script = ScriptedCommander([("charge the moon", 1)], RandomCommander(), "b.orders")
    with SteppedBattle(tiny, 1, {"B": script}, stepped=["A"]) as battle:
        with pytest.raises(IllegalOrderError, match="b.orders:1: order: 'charge the moon'"):
            while not battle.over:
                battle.answer(0)
        assert battle.over and isinstance(battle.error, IllegalOrderError)
        with pytest.raises(WarhostError, match="the battle stopped"):
            battle.answer(0)


def test_an_unknown_stepped_side_is_refused(tiny) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(WarhostError, match="unknown side 'C'"):
        SteppedBattle(tiny, 1, stepped=["C"])
