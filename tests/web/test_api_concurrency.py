"""Twenty battles at once on one real server, each driven through HTTP from its own thread
(and watched from another), without an error and each isolated from the others."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx

from tests.cli.scenarios import tiny_text

BATTLES = 20


EXAMPLES = {4: ("dnd5e-tactics/forest-ambush", "Rangers of the March"),
            14: ("dnd4e-war/flank-charge", "Humans")}
"""Battles of shipped examples among the tiny ones: by number, the example and its person side."""


def drive(base: str, number: int, text: str, results: dict[int, Any]) -> None:
    """Start a battle (one side a person; every third tiny battle with real dice), play it to
    its end through the API with random legal orders, and note what came of it."""
    pick = random.Random(number)
    example, side = EXAMPLES.get(number, (None, "A"))
    manual = number % 3 == 0 and example is None
    source = {"example": example} if example else {"text": text}
    others = {} if example else {"B": "random" if number % 2 else "ai"}
    with httpx.Client(base_url=base, timeout=120) as http:
        created = http.post("/api/battles", json={
            **source, "seed": number, "manual_dice": manual,
            "commanders": {side: "person", **others}})
        assert created.status_code == 201, created.text
        battle_id, seat = created.json()["id"], created.json()["seats"][side]
        steps = 0
        while True:
            view = http.get(f"/api/battles/{battle_id}", params={"seat": seat}).json()
            if view["over"]:
                break
            question = view["question"]
            if question["what"] == "dice":
                faces = " ".join(str(pick.randint(1, question["sides"]))
                                 for _ in range(question["count"]))
                step = http.post(f"/api/battles/{battle_id}/dice",
                                 json={"seat": seat, "faces": faces})
            elif question["options"]:
                step = http.post(f"/api/battles/{battle_id}/orders",
                                 json={"seat": seat,
                                       "order": pick.randrange(len(question["options"]))})
            else:  # an open question with no listed option: its default, else pass
                step = http.post(f"/api/battles/{battle_id}/orders",
                                 json={"seat": seat, "order": question["default"] or "pass"})
            assert step.status_code == 200, step.text
            steps += 1
        events = http.get(f"/api/battles/{battle_id}/events").json()
        frame = http.get(f"/api/battles/{battle_id}/frames/-1")
        assert frame.status_code == 200
        results[number] = {"id": battle_id, "steps": steps, "events": events["total"],
                           "seed": events["events"][0]["seed"], "error": view["error"],
                           "winner": view["winner"]}


def watch(base: str, ids: list[str], stop: threading.Event, seen: list[Any]) -> None:
    """Poll every battle as a watcher until told to stop; note each answer's status."""
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            for battle_id in list(ids):
                response = http.get(f"/api/battles/{battle_id}")
                seen.append(response.status_code)
            time.sleep(0.05)


def test_twenty_battles_at_once_through_http(live_server: str) -> None:
    text = tiny_text()
    results: dict[int, Any] = {}
    failures: list[BaseException] = []

    def run(number: int) -> None:
        try:
            drive(live_server, number, text, results)
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            failures.append(exc)

    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(n,)) for n in range(BATTLES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    seconds = time.monotonic() - started
    assert not failures, failures[0]
    assert sorted(results) == list(range(BATTLES))
    assert len({r["id"] for r in results.values()}) == BATTLES
    for number, result in results.items():
        assert result["error"] is None and result["steps"] > 0
        assert result["seed"] == number  # each battle kept its own seed and log
    print(f"\n{BATTLES} concurrent battles through HTTP: {seconds:.1f} s, "
          f"{sum(r['steps'] for r in results.values())} orders and dice")


def test_battles_are_watched_while_they_are_played(live_server: str) -> None:
    text = tiny_text()
    with httpx.Client(base_url=live_server, timeout=60) as http:
        ids = [http.post("/api/battles", json={"text": text, "seed": n,
                                               "commanders": {"A": "person"}}).json()["id"]
               for n in range(3)]
    stop, seen = threading.Event(), list[Any]()
    watcher = threading.Thread(target=watch, args=(live_server, ids, stop, seen))
    watcher.start()
    results: dict[int, Any] = {}
    try:
        drive(live_server, 100, text, results)
    finally:
        stop.set()
        watcher.join(timeout=30)
    assert seen and set(seen) == {200} and results[100]["error"] is None
