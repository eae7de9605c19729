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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
TIMEOUT_MS = 20_000
SPEED_SCRIPT = """try { const p = JSON.parse(localStorage.getItem("mushka.prefs") || "{}");
  if (!("speed" in p)) { p.speed = %s; localStorage.setItem("mushka.prefs", JSON.stringify(p)); } } catch (e) {}"""


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
