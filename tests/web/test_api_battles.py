"""Battles through the HTTP API: seats and their tokens, orders and their refusals (with the
rule ID), real dice, frames, the narrated log, replays, closing and idle sessions."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warhost.core.commanders import ScriptedCommander
from warhost.core.engine import run_battle
from warhost.core.replay import load_replay, rerun
from warhost.web.sessions import SessionStore
from warhost.web.uploads import parse_scenario


def start(client: TestClient, text: str, seed: int = 4, **body: Any) -> dict[str, Any]:
    response = client.post("/api/battles", json={"text": text, "seed": seed, **body})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def sessions_of(client: TestClient) -> SessionStore:
    """The battle sessions of the client's app."""
    store: SessionStore = client.app.state.sessions  # type: ignore[attr-defined]
    return store


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body["error"]) >= {"message", "line", "field"}, body
    return body["error"]  # type: ignore[no-any-return]


def play_out(client: TestClient, battle_id: str, seats: dict[str, str],
             pick: random.Random) -> list[tuple[str, str]]:
    """Answer every question (random options; faces for dice) until the battle ends; the
    (side, order text) given."""
    given: list[tuple[str, str]] = []
    while True:
        view = client.get(f"/api/battles/{battle_id}").json()
        question = view["question"]
        if view["over"]:
            return given
        if question["what"] == "dice":
            seat = next(iter(seats.values()))
            faces = " ".join(str(pick.randint(1, question["sides"]))
                             for _ in range(question["count"]))
            response = client.post(f"/api/battles/{battle_id}/dice",
                                   json={"seat": seat, "faces": faces})
        else:
            seat = seats[question["side"]]
            options = client.get(f"/api/battles/{battle_id}?seat={seat}").json()[
                "question"]["options"]
            index = pick.randrange(len(options))
            given.append((question["side"], options[index]))
            response = client.post(f"/api/battles/{battle_id}/orders",
                                   json={"seat": seat, "order": index})
        assert response.status_code == 200, response.text


# --------------------------------------------------------------------------- starting


def test_a_battle_gives_a_join_link_per_person_side_and_a_watch_link(client: TestClient,
                                                                     tiny: str) -> None:
    created = start(client, tiny, commanders={"A": "person", "B": "random"})
    battle_id = created["id"]
    assert list(created["seats"]) == ["A"] and len(created["seats"]["A"]) >= 20
    assert created["links"] == {"A": f"/battle/{battle_id}?seat={created['seats']['A']}"}
    assert created["watch"] == f"/battle/{battle_id}"
    view = created["battle"]
    assert view["id"] == battle_id and view["ruleset"] == "fantasy-battle"
    assert view["scenario"] == "Tiny" and view["seed"] == 4 and view["sides"] == ["A", "B"]
    assert view["persons"] == ["A"] and view["you"] is None and view["over"] is False
    assert view["commanders"] == {"A": "person", "B": "random"}
    assert view["events"] > 0 and view["frames"] >= 1 and view["error"] is None
    seated = client.get(f"/api/battles/{battle_id}?seat={created['seats']['A']}").json()
    assert seated["you"] == "A" and seated["yours"] is True
    question = seated["question"]
    assert question["what"] == "order" and question["side"] == "A"
    assert "activate a-sword" in question["options"] and question["default"] in question["options"]
    watched = client.get(f"/api/battles/{battle_id}").json()
    assert watched["yours"] is False and "options" not in watched["question"]
    assert watched["question"]["prompt"] == question["prompt"]


def test_sides_not_named_keep_the_scenarios_commander(client: TestClient, tiny: str) -> None:
    created = start(client, tiny, commanders={})
    assert created["seats"] == {} and created["battle"]["over"] is True
    assert created["battle"]["commanders"] == {"A": "ai", "B": "ai"}
    assert created["battle"]["winner"] in ("A", "B", None)


def test_an_example_battle_runs_to_its_end(client: TestClient) -> None:
    created = client.post("/api/battles", json={"example": "dnd5e-tactics/forest-ambush",
                                                "seed": 1}).json()
    view = created["battle"]
    assert view["over"] is True and view["question"] is None and view["winner"]
    events = client.get(f"/api/battles/{created['id']}/events").json()
    assert events["total"] == view["events"] == len(events["events"])
    assert events["lines"][0]["text"].startswith("Battle ")


def test_unknown_sides_and_commander_kinds_are_refused(client: TestClient, tiny: str) -> None:
    for commanders, needle in (({"C": "ai"}, "unknown side 'C'"),
                               ({"A": "scripted"}, "unknown commander kind 'scripted'")):
        response = client.post("/api/battles", json={"text": tiny, "commanders": commanders})
        assert response.status_code == 422
        assert needle in error_of(response)["message"]
        assert error_of(response)["field"] == "commanders"


def test_a_full_server_refuses_another_battle_with_503(make_client: Callable[..., TestClient],
                                                       tiny: str) -> None:
    client = make_client(max_battles=2)
    for _ in range(2):
        start(client, tiny, commanders={"A": "person"})
    response = client.post("/api/battles", json={"text": tiny})
    assert response.status_code == 503 and "2 battles" in error_of(response)["message"]


def test_a_full_server_makes_room_by_closing_the_battle_that_ended_longest_ago(
        make_client: Callable[..., TestClient], tiny: str) -> None:
    client = make_client(max_battles=3)
    playing = start(client, tiny, commanders={"A": "person"})
    ended = [start(client, tiny, seed=n)["id"] for n in range(2)]
    client.get(f"/api/battles/{ended[0]}")  # used last: kept
    newest = start(client, tiny, seed=5)["id"]
    assert client.get(f"/api/battles/{ended[1]}").status_code == 404
    for kept in (playing["id"], ended[0], newest):
        assert client.get(f"/api/battles/{kept}").status_code == 200


# --------------------------------------------------------------------------- orders


@pytest.mark.rule("FB-MOVE-01")
def test_an_illegal_order_is_a_422_with_the_reason_and_the_rule_id(client: TestClient,
                                                                   tiny: str) -> None:
    created = start(client, tiny, seed=1, commanders={"A": "person", "B": "random"})
    url, seat = f"/api/battles/{created['id']}/orders", created["seats"]["A"]
    assert client.post(url, json={"seat": seat, "order": "activate a-sword"}).status_code == 200
    step = client.post(url, json={"seat": seat, "order": "move-attack"})
    assert step.status_code == 200
    body = step.json()
    assert body["events"] and body["battle"]["you"] == "A"
    assert [line["seq"] for line in body["lines"]] == sorted(line["seq"] for line in body["lines"])
    before = client.get(f"/api/battles/{created['id']}").json()
    refused = client.post(url, json={"seat": seat, "order": "move 3 7"})
    assert refused.status_code == 422
    error = error_of(refused)
    assert "an Infantry unit moves at most 6 (FB-MOVE-01)" in error["message"]
    assert error["rule"] == "FB-MOVE-01" and error["field"] == "order"
    assert client.get(f"/api/battles/{created['id']}").json() == before  # nothing changed
    bad_index = client.post(url, json={"seat": seat, "order": 99})
    assert bad_index.status_code == 422 and "no option 99" in error_of(bad_index)["message"]
    assert client.post(url, json={"seat": seat, "order": True}).status_code == 400
    assert client.post(url, json={"seat": seat, "order": "move 3 4"}).status_code == 200


def test_seat_tokens_are_enforced(client: TestClient, tiny: str) -> None:
    created = start(client, tiny, seed=1, commanders={"A": "person", "B": "person"})
    battle_id, seats = created["id"], created["seats"]
    assert seats["A"] != seats["B"]
    url = f"/api/battles/{battle_id}/orders"
    assert created["battle"]["question"]["side"] == "A"
    other = client.post(url, json={"seat": seats["B"], "order": 0})
    assert other.status_code == 403 and "waits for A's order" in error_of(other)["message"]
    forged = client.post(url, json={"seat": seats["A"][:-1] + "x", "order": 0})
    assert forged.status_code == 403
    watcher = client.post(url, json={"order": 0})
    assert watcher.status_code == 403 and "watchers" in error_of(watcher)["message"]
    assert client.get(f"/api/battles/{battle_id}?seat=nope").status_code == 403
    assert client.get(f"/api/battles/{battle_id}?seat={seats['B']}").json()["yours"] is False
    assert client.post(url, json={"seat": seats["A"], "order": 0}).status_code == 200
    given = play_out(client, battle_id, seats, random.Random(2))  # hot-seat, to the end
    assert {side for side, _order in given} == {"A", "B"}
    assert client.get(f"/api/battles/{battle_id}").json()["over"] is True


def test_unknown_battles_are_404(client: TestClient) -> None:
    for response in (client.get("/api/battles/nope"), client.get("/api/battles/nope/events"),
                     client.get("/api/battles/nope/frames"),
                     client.get("/api/battles/nope/frames/0"),
                     client.get("/api/battles/nope/replay"),
                     client.post("/api/battles/nope/orders", json={"seat": "x", "order": 0}),
                     client.post("/api/battles/nope/dice", json={"seat": "x", "faces": "1"}),
                     client.delete("/api/battles/nope")):
        assert response.status_code == 404
        assert "no such battle" in error_of(response)["message"]


def test_a_battle_played_through_the_api_gives_the_log_of_run_battle(client: TestClient,
                                                                     tiny: str) -> None:
    created = start(client, tiny, seed=6, commanders={"A": "person", "B": "random"})
    given = play_out(client, created["id"], created["seats"], random.Random(3))
    assert given
    view = client.get(f"/api/battles/{created['id']}").json()
    assert view["over"] and view["question"] is None
    ended = client.post(f"/api/battles/{created['id']}/orders",
                        json={"seat": created["seats"]["A"], "order": 0})
    assert ended.status_code == 409 and "over" in error_of(ended)["message"]
    served = client.get(f"/api/battles/{created['id']}/events?since=0").json()
    scenario = parse_scenario(tiny)
    script = ScriptedCommander([(order, i + 1) for i, (_s, order) in enumerate(given)],
                               fallback=scenario.ruleset.make_ai())
    script.kind = "human"
    result = run_battle(scenario, 6, {"A": script, "B": "random"})
    assert served["events"] == result.log.events
    assert served["total"] == len(result.log.events)
    later = client.get(f"/api/battles/{created['id']}/events?since=10").json()
    assert later["events"] == result.log.events[10:]
    assert all(line["seq"] >= 10 for line in later["lines"])
    assert view["winner"] == result.winner and view["round"] == result.outcome.rounds


def test_frames_give_the_map_at_the_start_each_round_and_each_question(client: TestClient,
                                                                       tiny: str) -> None:
    created = client.post("/api/battles", json={"text": tiny, "seed": 2}).json()
    frames = client.get(f"/api/battles/{created['id']}/frames").json()
    assert frames[0]["index"] == 0 and len(frames) == created["battle"]["frames"]
    assert [f["events"] for f in frames] == sorted(f["events"] for f in frames)
    rounds = [f["round"] for f in frames]
    assert rounds == sorted(rounds) and rounds[-1] >= 1
    last = client.get(f"/api/battles/{created['id']}/frames/-1").json()
    assert last["index"] == len(frames) - 1
    assert {"width", "height", "cells", "units"} <= set(last["map"])
    assert all({"x", "y", "side"} <= set(u) for u in last["map"]["units"])
    first = client.get(f"/api/battles/{created['id']}/frames/0").json()
    assert first["map"]["units"] and first["events"] == frames[0]["events"]
    missing = client.get(f"/api/battles/{created['id']}/frames/{len(frames)}")
    assert missing.status_code == 404 and "no frame" in error_of(missing)["message"]


@pytest.mark.parametrize("example", ["dnd4e-war/flank-charge", "warband/mage-duel",
                                     "dnd35-wars/regiment-and-horde", "dnd5e-tactics/open-field"])
def test_every_map_view_is_served(client: TestClient, example: str) -> None:
    created = client.post("/api/battles", json={"example": example, "seed": 1}).json()
    frame = client.get(f"/api/battles/{created['id']}/frames/-1").json()
    assert frame["map"] and frame["map"].get("units")


# --------------------------------------------------------------------------- real dice


def test_manual_dice_refuse_bad_faces_and_take_good_ones(client: TestClient, tiny: str) -> None:
    created = start(client, tiny, seed=5, commanders={"A": "person", "B": "random"},
                    manual_dice=True)
    battle_id, seat = created["id"], created["seats"]["A"]
    question = created["battle"]["question"]
    while question["what"] != "dice":  # orders until the first roll
        step = client.post(f"/api/battles/{battle_id}/orders", json={"seat": seat, "order": 0})
        question = step.json()["battle"]["question"]
    assert question["side"] is None and question["prompt"].startswith("Roll ")
    view = client.get(f"/api/battles/{battle_id}").json()
    count, sides = question["count"], question["sides"]
    seated = client.get(f"/api/battles/{battle_id}?seat={seat}").json()
    assert seated["yours"] is True and view["yours"] is False
    url = f"/api/battles/{battle_id}/dice"
    for faces, needle in ((" ".join([str(sides + 1)] * count), f"not a face of a d{sides}"),
                          ("1 " * (count + 1), f"this roll is {count}d{sides}"),
                          ("six", "whole number"), ("0", "")):
        refused = client.post(url, json={"seat": seat, "faces": faces})
        assert refused.status_code == 422, faces
        assert needle in error_of(refused)["message"] and error_of(refused)["field"] == "dice"
    watcher = client.post(url, json={"faces": "1"})
    assert watcher.status_code == 403
    order = client.post(f"/api/battles/{battle_id}/orders", json={"seat": seat, "order": 0})
    assert order.status_code == 409 and "real dice" in error_of(order)["message"]
    took = client.post(url, json={"seat": seat, "faces": " ".join(["1"] * count)})
    assert took.status_code == 200
    rolled = [e for e in took.json()["events"] if e.get("faces")]
    assert rolled and rolled[0]["faces"] == [1] * count
    play_out(client, battle_id, created["seats"], random.Random(1))
    replay = client.get(f"/api/battles/{battle_id}/replay").json()
    assert replay["dice"] and replay["dice"][:count] == [1] * count
    assert "finished" not in replay and replay["log_sha256"]
    assert client.post(url, json={"seat": seat, "faces": "1"}).status_code == 409


# --------------------------------------------------------------------------- replays


def test_a_replay_is_saved_loaded_and_reproduces(client: TestClient, tiny: str,
                                                 tmp_path: Path) -> None:
    created = start(client, tiny, seed=7, commanders={"A": "person", "B": "random"},
                    manual_dice=True)
    play_out(client, created["id"], created["seats"], random.Random(5))
    response = client.get(f"/api/battles/{created['id']}/replay")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment; filename=")
    assert response.json()["format"] == "warhost-replay"
    assert response.json()["commanders"] == {"A": "human", "B": "random"}
    path = tmp_path / "battle.json"
    path.write_text(response.text, encoding="utf-8")
    assert rerun(load_replay(path))[1] is True  # warhost replay accepts it
    loaded = client.post("/api/replays", json={"text": response.text})
    assert loaded.status_code == 201, loaded.text
    body = loaded.json()
    assert body["reproduced"] is True and body["watch"] == f"/battle/{body['id']}"
    assert body["battle"]["over"] is True and body["battle"]["replayed"] is True
    original = client.get(f"/api/battles/{created['id']}/events").json()["events"]
    assert client.get(f"/api/battles/{body['id']}/events").json()["events"] == original


def test_an_unfinished_battle_saves_an_unfinished_replay(client: TestClient, tiny: str) -> None:
    created = start(client, tiny, commanders={"A": "person"})
    replay = client.get(f"/api/battles/{created['id']}/replay").json()
    assert replay["finished"] is False and replay["decisions"] == []


def test_a_broken_replay_is_a_422_with_a_clear_message(client: TestClient, tiny: str) -> None:
    created = client.post("/api/battles", json={"text": tiny, "seed": 1}).json()
    good = client.get(f"/api/battles/{created['id']}/replay").text
    cases = [
        ("{not json", "malformed JSON"),
        (tiny, "this is a scenario file, not a replay"),
        ('{"format": "other"}', "not a warhost replay"),
        (good.replace('"seed": 1', '"seed": "one"'), "wrong type"),
        (good.replace('"ruleset": "fantasy-battle@1"', '"ruleset": "fantasy-battle@9"'),
         "made with ruleset fantasy-battle@9"),
    ]
    for text, needle in cases:
        response = client.post("/api/replays", json={"text": text})
        assert response.status_code == 422, text[:40]
        error = error_of(response)
        assert needle in error["message"], error
        assert error["file"] == "replay.json"
        assert "/tmp" not in error["message"]


def test_a_replay_whose_scenario_names_a_file_is_refused(client: TestClient) -> None:
    created = client.post("/api/battles", json={"example": "dnd4e-war/flank-charge",
                                                "seed": 1}).json()
    good = client.get(f"/api/battles/{created['id']}/replay").json()
    good["scenario"]["sides"][0] = {"name": good["scenario"]["sides"][0]["name"],
                                    "army": "/etc/passwd"}
    import json

    response = client.post("/api/replays", json={"text": json.dumps(good)})
    assert response.status_code == 422
    assert "cannot read files of the server" in error_of(response)["message"]


# --------------------------------------------------------------------------- closing


def test_deleting_a_battle_frees_its_thread(client: TestClient, tiny: str) -> None:
    created = start(client, tiny, commanders={"A": "person"})
    session = sessions_of(client).get(created["id"])
    worker = session.battle._worker
    assert worker.is_alive()
    watcher = client.delete(f"/api/battles/{created['id']}")
    assert watcher.status_code == 403
    closed = client.delete(f"/api/battles/{created['id']}?seat={created['seats']['A']}")
    assert closed.status_code == 200 and closed.json()["closed"] is True
    assert not worker.is_alive()
    assert client.get(f"/api/battles/{created['id']}").status_code == 404


def test_idle_sessions_are_closed_and_their_threads_end(make_client: Callable[..., TestClient],
                                                        tiny: str) -> None:
    client = make_client(idle_seconds=0.5)
    created = [start(client, tiny, commanders={"A": "person"}) for _ in range(3)]
    store = sessions_of(client)
    workers = [store.get(c["id"]).battle._worker for c in created]
    assert all(w.is_alive() for w in workers)
    kept = created[0]
    deadline = time.monotonic() + 15
    while any(w.is_alive() for w in workers[1:]) and time.monotonic() < deadline:
        client.get(f"/api/battles/{kept['id']}")  # a battle in use is kept
        time.sleep(0.1)
    assert not any(w.is_alive() for w in workers[1:])
    for gone in created[1:]:
        assert client.get(f"/api/battles/{gone['id']}").status_code == 404
    assert client.get(f"/api/battles/{kept['id']}").status_code == 200
    assert workers[0].is_alive() and store.ids() == [kept["id"]]


def test_stopping_the_server_closes_every_battle(make_client: Callable[..., TestClient],
                                                 tiny: str) -> None:
    client = make_client()
    created = start(client, tiny, commanders={"A": "person"})
    worker = sessions_of(client).get(created["id"]).battle._worker
    client.__exit__(None, None, None)
    assert not worker.is_alive()
