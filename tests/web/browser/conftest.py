"""A real warhost server on a free port and Debian's chromium, for the browser tests.

The server runs uvicorn in a thread of the test process; the browser is Playwright's
chromium driver pointed at the system ``chromium`` (a browser download does not work here).
The tests are skipped, with the reason, when chromium or Playwright is missing (in CI,
which installs chromium, a missing chromium fails them).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any, Self

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class LiveServer:
    """uvicorn serving ``create_app()`` on 127.0.0.1 in a daemon thread."""

    def __init__(self, **app_options: Any) -> None:
        from warhost.web.app import create_app

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(**app_options), log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True, name="warhost-test-server")

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the warhost test server did not start")
            time.sleep(0.02)
        # warm up: the first listing of the examples loads every ruleset (seconds on a busy
        # machine), which a page's first few seconds should not wait for
        with urllib.request.urlopen(self.url + "/api/examples", timeout=60) as resp:
            resp.read()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="session")
def server() -> Iterator[LiveServer]:
    with LiveServer() as live:
        yield live


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        missing = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):  # .ci/run installs it: its absence there is a failure
            pytest.fail(missing)
        pytest.skip(missing)
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, server: LiveServer) -> Iterator[Any]:
    """A function making pages, each in its own browser context (its own person)."""
    contexts: list[Any] = []

    def make(path: str = "/") -> Any:
        context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 900})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.js_errors = errors  # type: ignore[attr-defined]
        page.goto(path)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Any) -> Any:
    return new_page("/")
