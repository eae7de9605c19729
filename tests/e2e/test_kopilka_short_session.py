"""Kopilka's short session (option session_games=2, K4/K23) as the page shows it: the header
counts the games out of two, and at the session's end the score sheet adds the ante, the two
games and the pot taken after game 2 up to the final money; at 1280×900 and 390×844, in
English and Russian."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
WORDS = {"en": ("game 2 of 2", "ante", "game ", "pot taken at the end", "money"),
         "ru": ("игра 2 из 2", "взнос", "игра ", "касса в конце", "деньги")}


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("ru", "phone"), ("ru", "desktop"), ("en", "phone")])
def test_a_short_session_ends_after_game_2_and_its_money_adds_up(open_page: Any, live_server: Any, shot: Any,
                                                                  page_errors: list[str], lang: str, size: str) -> None:
    made = live_server.api("POST", "api/tables", {"variant": "kopilka", "seats": ["bot:random"] * 4, "start": True,
                                                   "listed": False, "options": {"session_games": "2"}})
    page: Page = open_page(f"{live_server.url}?lang={lang}&table={made['table']['id']}", viewport=VIEWPORTS[size])
    expect(page.locator("[data-testid=game-result]")).to_be_visible(timeout=60_000)
    header, ante, game, pot, money = WORDS[lang]
    expect(page.locator("[data-testid=deal-number]")).to_have_text(header)
    sheet = page.locator("[data-testid=score-sheet]")
    rows = sheet.evaluate("""t => [...t.tBodies[0].rows].map(r => [r.cells[0].textContent,
        ...[...r.cells].slice(1).map(c => Number(c.textContent.replace('−', '-').replace(/[^0-9+-]/g, '')))])""")
    by_label = {r[0]: r[1:] for r in rows}
    games = [k for k in by_label if k.startswith(game)]
    assert len(games) == 2, by_label  # two games, not four
    parts = [by_label[ante], *(by_label[k] for k in games), by_label[pot]]
    total = [sum(col) for col in zip(*parts, strict=True)]
    assert total == by_label[money], by_label
    assert sum(total) == 0  # K24: the pot is empty at the end of the session
    final = page.locator("[data-testid=final-money] td").all_inner_texts()
    assert [int(x.replace("−", "-")) for x in final] == total
    assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    shot(page, "end")
    assert not page_errors
