"""The lesson never runs ahead of the cards (issue B3), at 1280×900 and 390×844, in English and Russian.

Every state the page draws during the walkthrough is recorded in the browser (a
MutationObserver on the lesson's box), with what the felt shows at that moment.  A
step's text tells what the others have just played, so it may only be shown when it
is the player's turn; while the others play the box says whose turn it is, as the
status line does.  A reminder of the lesson's move goes as soon as the move is made.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

MOVES = ["stand 6C 7C", "KH", "TD", "QH", "AS", "AH"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

RECORDER = """() => {
  window.lessonStates = [];
  const note = () => {
    const box = document.querySelector('[data-testid=lesson]');
    const felt = document.querySelector('[data-testid=felt]');
    if (!box || !felt) return;
    const me = document.querySelector('[data-testid=me]');
    window.lessonStates.push({
      step: Number(box.dataset.step), watching: box.dataset.watching === 'true',
      text: box.querySelector('p').textContent, myTurn: !!(me && me.classList.contains('to-act')),
      toAct: felt.dataset.toAct, status: (document.querySelector('[data-testid=status]') || {}).textContent || '',
      toast: !document.getElementById('toast').hidden });
  };
  new MutationObserver(note).observe(document.getElementById('app') || document.body, {childList: true, subtree: true});
  note();
}"""


def play(page: Page, move: str) -> None:
    page.wait_for_selector(".me.to-act")
    ply = int(page.locator("[data-testid=felt]").get_attribute("data-ply") or 0)
    words = move.split()
    if words[0] == "stand":
        for card in words[1:]:
            page.locator(f"[data-testid=hand] button[data-card='{card}']").click()
        page.locator("[data-key=act-stand]").click()
    else:
        page.locator(f"[data-testid=hand] button[data-card='{words[0]}']").click()
    page.wait_for_function("p => Number(document.querySelector('[data-testid=felt]').dataset.ply) > p", arg=ply)


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_lesson_waits_for_the_cards(open_page: Any, live_server: Any, page_errors: list[str],
                                        lang: str, size: str) -> None:
    page: Page = open_page(f"{live_server.url}?lang={lang}", viewport=VIEWPORTS[size])
    page.locator("[data-key=learn-lobby]").click()
    page.wait_for_url(re.compile(r"tutorial=1"))
    expect(page.locator("[data-testid=lesson]")).to_be_visible()
    page.locator("[data-key=tut-next]").click()
    page.evaluate(RECORDER)
    for number, move in enumerate(MOVES):
        if number == 1:
            # A wrong card first: the reminder shows, and goes once the right card is played.
            page.wait_for_selector(".me.to-act")
            page.locator("[data-testid=hand] button[data-card='QH']").click()
            expect(page.locator("#toast")).to_be_visible()
            expect(page.locator("#toast")).to_contain_text(re.compile("[KК]♥"))
            play(page, move)
            expect(page.locator("#toast")).to_be_hidden(timeout=1_000)
        else:
            play(page, move)
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-step", "7", timeout=20_000)
    states: list[dict[str, Any]] = page.evaluate("() => window.lessonStates")
    names = {seat: page.locator(f"[data-testid=seat-{seat}] .seat-name").first.inner_text().split(" · ")[0]
             for seat in (1, 2, 3)}
    ahead = [s for s in states if 1 <= s["step"] <= 6 and not s["watching"] and not s["myTurn"]]
    assert not ahead, f"a step's text while the others play: {ahead[:3]}"
    watching = [s for s in states if s["watching"]]
    assert watching, "the others' turns were never shown as such"
    steps_seen = [s["step"] for s in states if not s["watching"] and 1 <= s["step"] <= 6]
    assert sorted(set(steps_seen)) == [1, 2, 3, 4, 5, 6]
    for s in watching:
        assert s["step"] >= 1 and not s["myTurn"], s
        if s["toAct"] not in ("", "0"):
            who = names[int(s["toAct"])]
            assert who in s["text"] and who in s["status"], s
        # The box speaks the page's language.
        assert bool(re.search(r"[А-Яа-яЁё]", s["text"])) == (lang == "ru"), s
    # A step's text is shown only once its move is the player's (the status line says "your turn").
    for s in states:
        if not s["watching"] and 1 <= s["step"] <= 6:
            assert s["toAct"] == "0", s
    assert not page_errors
