"""Browser tests: a live server on a free loopback port and Debian's Chromium.

The server runs in a background thread (uvicorn, a temporary SQLite file,
bots that act after a short delay); every test gets browser contexts of its
own, each with a fresh user-data directory.  Chromium is the system package
(``scripts/ensure-chromium.sh`` installs it); no browser is ever downloaded.
Screenshots go to ``test-artifacts/e2e/``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
BOT_DELAY = 0.05
TIMEOUT_MS = 20_000
SPEED_SCRIPT = """try { const p = JSON.parse(localStorage.getItem("mushka.prefs") || "{}");
  if (!("speed" in p)) { p.speed = %s; localStorage.setItem("mushka.prefs", JSON.stringify(p)); } } catch (e) {}"""

class LiveServer:
    """``mushka serve`` in a thread of the test process."""

    def __init__(self, db_path: Path, **overrides: Any) -> None:
        import uvicorn

        from mushka.server import ServerConfig, create_app
        from mushka.server.protocol import MAX_MESSAGE_BYTES

        settings: dict[str, Any] = {
            "database_url": f"sqlite:///{db_path}", "bot_delay": BOT_DELAY, "grace": 60.0,
            "default_bot": "random", "http_rate": 100.0, "http_burst": 500, "rate": 200.0, "burst": 500,
            "tune_gc": False,  # the server shares the test process; its collector is left alone
            "turn_choices": (0, 3, 15, 30, 60, 120),  # 3 s: a turn timer a test can see run out
            "takeback_seconds": 0.0,  # P21's wait for a take-back only where a test asks for it
        }
        config = ServerConfig(**{**settings, **overrides})
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.app = create_app(config)
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, log_level="warning", ws="websockets-sansio",
            ws_max_size=MAX_MESSAGE_BYTES * 16, lifespan="on", ws_per_message_deflate=False,
        ))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()

    def store(self) -> Any:
        """The running server's storage (for putting finished games in place)."""
        from mushka.server.app import lobby_of

        return lobby_of(self.app).store

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One JSON call to the server's HTTP API."""
        import httpx

        reply = httpx.request(method, self.url + path.lstrip("/"), json=body, timeout=10)
        assert reply.status_code < 300, reply.text
        return reply.json()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("server") / "mushka-e2e.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh (make test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def new_context(playwright_driver: Any, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Make browser contexts, each a Chromium with a fresh user-data directory."""
    made: list[Any] = []

    def make(*, viewport: dict[str, int] | None = None, locale: str = "en-GB", speed: str | None = "off",
             reduced_motion: str = "no-preference", has_touch: bool = False) -> Any:
        profile = tmp_path / f"profile-{len(made)}"
        context = playwright_driver.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport=viewport or {"width": 1280, "height": 900}, locale=locale, reduced_motion=reduced_motion,
            has_touch=has_touch,  # a phone's touch screen: taps are touch pointers
        )
        context.set_default_timeout(TIMEOUT_MS)
        if speed is not None:
            # The tests play fast: no motion and no pause on a finished trick, unless a test
            # asks for a speed (or the page's own setting was changed in that browser).
            context.add_init_script(SPEED_SCRIPT % json.dumps(speed))
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page_errors() -> list[str]:
    """Script errors of every page a test opens with :func:`open_page` (must stay empty)."""
    return []


@pytest.fixture
def open_page(new_context: Callable[..., Any], page_errors: list[str]) -> Callable[..., Any]:
    """A new page in a new context, with its script errors collected."""

    def make(url: str, *, before: Callable[[Any], None] | None = None, **kwargs: Any) -> Any:
        context = new_context(**kwargs)
        page = context.pages[0] if context.pages else context.new_page()
        page.on("pageerror", lambda exc: page_errors.append(str(exc)))
        # Refused HTTP calls (a test may provoke them) are logged by Chromium
        # as errors too; only script errors count here.
        page.on("console", lambda msg: page_errors.append(msg.text)
                if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
        if before is not None:
            before(page)
        page.goto(url)
        return page

    return make


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """Save a screenshot under test-artifacts/e2e/<test>-<name>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    prefix = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def take(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{prefix}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
