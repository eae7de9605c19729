"""The pictures of the README, taken from real games (docs/img/).

Run with ``MUSHKA_SHOTS=docs/img pytest -m e2e tests/e2e/test_screenshots.py`` to
refresh the committed pictures; otherwise they go to test-artifacts/e2e/.  Each
picture is taken only once the page shows what it is meant to show.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from e2ekit import NO_SPECIAL_HANDS, act_once, felt, wait_for_turn_or_end
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def target(name: str) -> Path:
    folder = Path(os.environ["MUSHKA_SHOTS"]) if os.environ.get("MUSHKA_SHOTS") else ROOT / "test-artifacts" / "e2e"
    folder = folder if folder.is_absolute() else ROOT / folder
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def picture(page, name: str, *, full: bool = False) -> None:
    page.wait_for_timeout(400)  # let the last motion settle
    page.screenshot(path=str(target(name)), full_page=full)
    assert target(name).stat().st_size > 10_000


def player_page(open_page, live_server, variant, seats, options=None, players=None, lang="en", viewport=None,
                name="Anna"):
    made = live_server.api("POST", "api/tables", {
        "variant": variant, "players": players or len(seats), "name": name, "seats": seats,
        "start": True, "listed": False, "options": options or {}})
    url = live_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")
    return open_page(url, viewport=viewport or DESKTOP)


@pytest.fixture(scope="module")
def shipped_server(tmp_path_factory):
    """A live server that proposes the level the server proposes as shipped (the tests' one proposes
    the random bot, which the lobby's note would then call the strongest)."""
    from liveserver import LiveServer

    from mushka.server import ServerConfig

    server = LiveServer(tmp_path_factory.mktemp("shots") / "shots.db", default_bot=ServerConfig().default_bot)
    server.start()
    yield server
    server.stop()


def test_lobby_pictures(open_page, shipped_server, page_errors):
    for lang in ("en", "ru"):
        page = open_page(f"{shipped_server.url}?lang={lang}", viewport=DESKTOP)
        expect(page.locator("#new-game-title")).to_be_visible()
        page.fill("#player-name", "Anna" if lang == "en" else "Аня")
        page.select_option("#bot", "strong")
        page.locator("#players").focus()
        picture(page, f"lobby-{lang}")
    assert not page_errors


def test_classic_table_mid_trick(open_page, live_server, page_errors):
    for lang in ("en", "ru"):
        page = player_page(open_page, live_server, "classic", ["me", "bot:club", "bot:club", "bot:club"],
                           NO_SPECIAL_HANDS, lang=lang, name="Anna" if lang == "en" else "Аня")
        rng = random.Random(3)
        for _ in range(80):
            state = wait_for_turn_or_end(page)
            assert state["over"] == "false"
            trick = page.locator("[data-testid=trick] .trick:not(.done) .card")
            if state["phase"] == "play" and trick.count() >= 2:
                picture(page, f"table-classic-{lang}")
                break
            act_once(page, rng, exchange=False)
        else:
            pytest.fail("no trick with two cards came while it was the player's turn")
    assert not page_errors


def test_mistigri_deal_end(open_page, live_server, page_errors):
    for lang in ("en", "ru"):
        page = player_page(open_page, live_server, "mistigri", ["me", "bot:club", "bot:club", "bot:club"],
                           lang=lang, name="Anna" if lang == "en" else "Аня")
        rng = random.Random(5)
        first = wait_for_turn_or_end(page)["deal"]
        for _ in range(80):
            state = wait_for_turn_or_end(page, first)
            if state["deal"] != first or state["over"] == "true":
                break
            act_once(page, rng, exchange=False)
        notice = page.locator("[data-testid=deal-notice]")
        if felt(page)["over"] == "false" and wait_for_turn_or_end(page)["over"] == "false":
            expect(notice).to_be_visible()
        picture(page, f"deal-end-mistigri-{lang}", full=True)
    assert not page_errors


def test_kopilka_game_end(open_page, live_server, page_errors):
    for lang in ("en", "ru"):
        page = player_page(open_page, live_server, "kopilka", ["me", "bot:club", "bot:club", "bot:club"],
                           lang=lang, name="Anna" if lang == "en" else "Аня")
        rng = random.Random(7)
        for _ in range(400):
            state = wait_for_turn_or_end(page)
            if state["over"] == "true":
                break
            act_once(page, rng)
        expect(page.locator("[data-testid=game-result]")).to_be_visible()
        page.locator("[data-key=tab-score]").click()
        picture(page, f"game-end-kopilka-{lang}", full=True)
    assert not page_errors


def test_phone_table(open_page, live_server, page_errors):
    for lang in ("en", "ru"):
        page = player_page(open_page, live_server, "classic", ["me", "bot:club", "bot:club", "bot:club"],
                           NO_SPECIAL_HANDS, lang=lang, viewport=PHONE, name="Anna" if lang == "en" else "Аня")
        rng = random.Random(2)
        for _ in range(80):
            state = wait_for_turn_or_end(page)
            assert state["over"] == "false"
            if state["phase"] == "play":
                picture(page, f"phone-table-{lang}", full=True)
                break
            act_once(page, rng, exchange=False)
        # Nothing is wider than the phone's screen.
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    assert not page_errors


def test_tutorial_pictures(open_page, live_server, page_errors):
    """The walkthrough at its third step: the dealer trumped, the player must trump a club lead."""
    for lang in ("en", "ru"):
        page = open_page(f"{live_server.url}?lang={lang}", viewport=DESKTOP)
        page.locator("#learn-btn").click()
        page.locator("[data-key=tut-next]").click()
        for move in (["7C", "6C", "stand"], ["KH"]):
            page.wait_for_selector(".me.to-act")
            ply = int(felt(page)["ply"])
            for word in move:
                target_el = page.locator("[data-key=act-stand]") if word == "stand" else page.locator(
                    f"[data-testid=hand] button[data-card='{word}']")
                target_el.click()
            page.wait_for_function("p => Number(document.querySelector('[data-testid=felt]').dataset.ply) > p", arg=ply)
        page.wait_for_selector(".me.to-act")
        expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-step", "3")
        expect(page.locator("[data-testid=trick-card]")).to_have_count(1)
        picture(page, f"tutorial-{lang}", full=True)
    assert not page_errors


def test_russian_pattern_pictures(open_page, live_server, page_errors):
    """The Russian-pattern card style of the settings, at a table in the middle of a deal."""
    shots = (("ru", DESKTOP, "table-russian-pattern-ru"), ("en", PHONE, "phone-russian-pattern-en"))
    for lang, viewport, name in shots:
        page = player_page(open_page, live_server, "classic", ["me", "bot:club", "bot:club", "bot:club"],
                           NO_SPECIAL_HANDS, lang=lang, viewport=viewport, name="Аня" if lang == "ru" else "Anna")
        page.locator("[data-key=prefs]").click()
        page.select_option("[data-key=pref-face]", "russian")
        page.locator("[data-key=prefs]").click()
        rng = random.Random(4)
        for _ in range(80):
            state = wait_for_turn_or_end(page)
            assert state["over"] == "false"
            if state["phase"] == "play" and page.locator("[data-testid=trick] .card").count() >= 1:
                expect(page.locator("[data-testid=hand] .card-face.russian").first).to_be_visible()
                picture(page, name, full=viewport is PHONE)
                break
            act_once(page, rng, exchange=False)
        else:
            pytest.fail("no trick came while it was the player's turn")
    assert not page_errors
