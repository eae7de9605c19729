"""A player sees words, not rule codes (issue B10), at 1280×900 and 390×844, in English and Russian.

The server puts the id of the rule it enforces in front of every refusal ("P16: too many
chat lines", docs/protocol.md).  The page shows the words alone and keeps the id behind a
"which rule?" that opens in place.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
WORDS = {"en": ("too many chat lines", "rule P16 of the table server", "which rule?"),
         "ru": ("слишком много строк чата", "правило сервера P16", "какое правило?")}
RULE_ID = re.compile(r"\b[PCK]\d+\s*:")


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_refusals_read_as_words_with_the_rule_one_click_away(open_page: Any, live_server: Any, page_errors: list[str],
                                                              lang: str, size: str) -> None:
    made = live_server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "bot:random", "bot:random"],
        "start": True, "listed": False})
    url = live_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")
    page: Page = open_page(url, viewport=VIEWPORTS[size])
    words, note, which = WORDS[lang]
    # The chat: six lines at once, one past the connection's burst (P16).
    for n in range(6):
        page.locator("[data-testid=phrase-thanks]").click()
        if n < 5:
            expect(page.locator("[data-testid=chat-line]")).to_have_count(n + 1)
    error = page.locator("[data-testid=chat-error]")
    expect(error).to_contain_text(words)
    assert not RULE_ID.search(error.inner_text()), error.inner_text()
    expect(error.locator("[data-testid=rule-note] summary")).to_have_text(which)
    error.locator("[data-testid=rule-note] summary").click()
    expect(error.locator("[data-testid=rule-note]")).to_contain_text(note)
    # The lobby: a bot's name refused (P10), said in words with the rule behind a click.
    lobby: Page = open_page(f"{live_server.url}?lang={lang}", viewport=VIEWPORTS[size])
    lobby.fill("#player-name", "Mitya" if lang == "en" else "Митя")
    lobby.locator("[data-key=play-now]").click()
    refusal = lobby.locator("[data-testid=form-error]")
    expect(refusal).not_to_be_empty()
    assert not RULE_ID.search(refusal.inner_text()), refusal.inner_text()
    assert bool(re.search(r"[А-Яа-яЁё]", refusal.inner_text())) == (lang == "ru")
    refusal.locator("[data-testid=rule-note] summary").click()
    expect(refusal.locator("[data-testid=rule-note]")).to_contain_text("P10")
    # Nothing is wider than the screen.
    for p in (page, lobby):
        assert p.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    assert not page_errors
