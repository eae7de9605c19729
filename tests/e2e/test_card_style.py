"""The Russian-pattern card style of the settings, at 1280×900 and 390×844, in English and Russian.

Off by default; chosen in the table's settings, the faces are redrawn at once in the
Russian pattern (cardface_ru.js), with Russian indices (В, Д, К, Т) whatever the page's
language, and the choice is kept in this browser.
"""

from __future__ import annotations

from typing import Any

import pytest
from e2ekit import NO_SPECIAL_HANDS, wait_for_turn_or_end
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

INDICES = """async () => {
  const { cardElement } = await import('./js/cards.js');
  return ['JS', 'QH', 'KD', 'AC', 'TS'].map((code) => {
    const el = cardElement(code);
    document.body.append(el);
    const text = el.querySelector('.card-index text').textContent;
    const russian = el.querySelector('svg').classList.contains('russian');
    el.remove();
    return [text, russian];
  });
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_russian_pattern_is_a_choice_in_the_settings(open_page: Any, live_server: Any, page_errors: list[str],
                                                     lang: str, size: str) -> None:
    made = live_server.api("POST", "api/tables", {
        "variant": "classic", "players": 4, "name": "Anna", "seats": ["me"] + ["bot:random"] * 3,
        "start": True, "listed": False, "options": NO_SPECIAL_HANDS})
    url = live_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")
    page: Page = open_page(url, viewport=VIEWPORTS[size])
    wait_for_turn_or_end(page)
    # Off by default: the plain faces, the indices of the page's language.
    assert page.evaluate("() => document.documentElement.dataset.face") == "plain"
    plain = page.evaluate(INDICES)
    assert [t for t, _ in plain] == (["J", "Q", "K", "A", "10"] if lang == "en" else ["В", "Д", "К", "Т", "10"])
    assert not any(r for _, r in plain)
    page.locator("[data-key=prefs]").click()
    choice = page.locator("[data-key=pref-face]")
    expect(choice.locator("option[value=russian]")).to_have_text(
        "Russian pattern (В Д К Т)" if lang == "en" else "русский, атласный (В Д К Т)")
    choice.select_option("russian")
    # The hand is redrawn at once in the Russian pattern, with Russian indices in either language.
    expect(page.locator("[data-testid=hand] .card-face.russian").first).to_be_visible()
    assert page.locator("[data-testid=hand] .card-face:not(.russian)").count() == 0
    assert [t for t, _ in page.evaluate(INDICES)] == ["В", "Д", "К", "Т", "10"]
    # A court card is a figure in two halves; an ace is its suit in a wreath; the card stays within the screen.
    drawn = page.evaluate("""async () => {
      const { cardElement } = await import('./js/cards.js');
      const king = cardElement('KS'), ace = cardElement('AH');
      document.body.append(king, ace);
      const out = [king.querySelectorAll('svg > g').length, ace.querySelectorAll('ellipse').length];
      king.remove(); ace.remove();
      return out; }""")
    assert drawn[0] >= 4 and drawn[1] >= 12, drawn
    assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    # Kept in this browser.
    page.reload()
    wait_for_turn_or_end(page)
    assert page.evaluate("() => document.documentElement.dataset.face") == "russian"
    expect(page.locator("[data-testid=hand] .card-face.russian").first).to_be_visible()
    assert not page_errors
