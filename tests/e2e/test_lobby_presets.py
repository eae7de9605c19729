"""The lobby's game lengths: the full game or a shorter one, each with its expected minutes
(server/durations.py, measured by bench/lobby_durations.py), at 1280×900 and 390×844, in
English and Russian."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
MINUTES = {"en": re.compile(r"≈ (\d+) min"), "ru": re.compile(r"≈ (\d+) мин")}


def lengths(page: Page) -> dict[str, str]:
    """The length choices as the player reads them, by preset id."""
    pairs: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=length] option", "els => els.map(e => [e.value, e.textContent])")
    return dict((v, text) for v, text in pairs)


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_short_games_with_their_minutes(open_page: Any, live_server: Any, page_errors: list[str], shot: Any,
                                        lang: str, size: str) -> None:
    page: Page = open_page(f"{live_server.url}?lang={lang}", viewport=VIEWPORTS[size])
    page.locator("[data-key=variant-classic]").check()
    page.select_option("#players", "4")
    page.select_option("#bot", "club")
    shown = lengths(page)
    assert list(shown) == ["full", "record20", "record15", "record10"], shown
    minutes = {k: int(MINUTES[lang].search(v).group(1)) for k, v in shown.items()}  # type: ignore[union-attr]
    assert minutes["record10"] < minutes["record20"] < minutes["full"], minutes
    assert page.locator("[data-testid=length]").input_value() == "full"
    # Another table size or level gives its own estimate.
    page.select_option("#players", "6")
    six = {k: int(MINUTES[lang].search(v).group(1)) for k, v in lengths(page).items()}  # type: ignore[union-attr]
    assert six != minutes or lengths(page) != shown
    page.select_option("#players", "4")
    # A short game is just the record it starts from (C16), as the house rules show.
    page.select_option("[data-testid=length]", "record10")
    expect(page.locator("[data-key=options-summary]")).to_contain_text("1")
    assert page.locator("[data-option=initial_record]").input_value() == "10"
    # Changed by hand among the house rules, the length reads "house rules".
    page.fill("[data-option=initial_record]", "12")
    page.locator("[data-option=initial_record]").dispatch_event("change")
    assert page.locator("[data-testid=length]").input_value() == ""
    page.select_option("[data-testid=length]", "record15")
    assert page.locator("[data-option=initial_record]").input_value() == "15"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    page.fill("#player-name", "Anna" if lang == "en" else "Аня")
    page.locator("[data-key=play-now]").click()
    page.wait_for_url(re.compile(r"table="))
    table_id = re.search(r"table=([^&]+)", page.url).group(1)  # type: ignore[union-attr]
    info = live_server.api("GET", f"api/tables/{table_id}")
    assert str(info["options"].get("initial_record")) == "15", info["options"]
    # Kopilka: its session as it is, with its own estimate.
    lobby: Page = open_page(f"{live_server.url}?lang={lang}", viewport=VIEWPORTS[size])
    lobby.locator("[data-key=variant-kopilka]").check()
    lobby.select_option("#bot", "expert")
    session = lengths(lobby)
    assert list(session) == ["full", "session2"]
    assert MINUTES[lang].search(session["full"]), session
    assert ("4" in session["full"]) and (("games" in session["full"]) == (lang == "en"))
    # The short session of two games (option session_games, K4/K23), with its own minutes.
    assert "2" in session["session2"] and (("games" in session["session2"]) == (lang == "en"))
    full_minutes = int(MINUTES[lang].search(session["full"]).group(1))  # type: ignore[union-attr]
    short_minutes = int(MINUTES[lang].search(session["session2"]).group(1))  # type: ignore[union-attr]
    assert 0 < short_minutes < full_minutes, session
    # A bot nobody measured (the random one) gets no estimate rather than a guess.
    lobby.select_option("#bot", "random")
    assert not MINUTES[lang].search(lengths(lobby)["full"])
    assert not MINUTES[lang].search(lengths(lobby)["session2"])
    lobby.select_option("#bot", "club")
    lobby.select_option("[data-testid=length]", "session2")
    assert lobby.locator("[data-option=session_games]").input_value() == "2"
    assert lobby.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    shot(lobby, "kopilka-session2")
    # The house rules' own choice of the session back to 4 games is the full session again.
    lobby.select_option("[data-option=session_games]", "4")
    assert lobby.locator("[data-testid=length]").input_value() == "full"
    lobby.select_option("[data-testid=length]", "session2")
    lobby.fill("#player-name", "Anna" if lang == "en" else "Аня")
    lobby.locator("[data-key=play-now]").click()
    lobby.wait_for_url(re.compile(r"table="))
    table_id = re.search(r"table=([^&]+)", lobby.url).group(1)  # type: ignore[union-attr]
    info = live_server.api("GET", f"api/tables/{table_id}")
    assert str(info["options"].get("session_games")) == "2", info["options"]
    # The table's header counts the games of this session: game 1 of 2.
    expect(lobby.locator("[data-testid=deal-number]")).to_have_text(
        "game 1 of 2" if lang == "en" else "игра 1 из 2")
    shot(lobby, "kopilka-session2-table")
    assert not page_errors
