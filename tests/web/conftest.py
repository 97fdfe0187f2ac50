"""Fixtures of the web tests: the app in a test client, a real uvicorn server on a free port
(for tests that go through HTTP from many threads), and small scenario texts."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.cli.scenarios import tiny_text
from warhost.web.app import create_app


@pytest.fixture
def make_client() -> Iterator[Callable[..., TestClient]]:
    """``make_client(**create_app options)``: a test client of a fresh app (its lifespan
    runs: the reaper starts, and every battle is closed at the end)."""
    opened: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        client = TestClient(create_app(**options))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """A test client of an app with the default settings."""
    return make_client()


@pytest.fixture
def tiny() -> str:
    """The tiny fantasy-battle scenario (A's a-sword and a-pike, B's b-brute and b-bow; A
    plays first), as text."""
    return tiny_text()


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def live_server() -> Iterator[str]:
    """A real ``warhost serve`` app under uvicorn in a thread; yields its base URL."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
