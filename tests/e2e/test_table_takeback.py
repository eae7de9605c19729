"""P21 in the page: a card just played is taken back with one click, until the next player acts;
at 1280×900 and 390×844, in English and Russian."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from e2ekit import NO_SPECIAL_HANDS, act_once, felt, hand, legal_cards, wait_for_turn_or_end, wait_ply_after
from liveserver import LiveServer
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
WORDS = {"en": ("Take back the", "Anna took back the card"), "ru": ("Забрать назад:", "Anna забирает назад карту")}


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose bots wait 30 s after a card that may be taken back (P21's window)."""
    server = LiveServer(tmp_path_factory.mktemp("takeback") / "mushka-e2e.db", takeback_seconds=30.0)
    server.start()
    yield server
    server.stop()


def to_my_card(page: Page, rng: random.Random) -> None:
    """Play on (standing when the page allows) until this seat is to play a card that is not its last."""
    while True:
        state = wait_for_turn_or_end(page)
        assert state["over"] != "true", "the game ended before a card of this seat"
        if state["phase"] == "play" and len(hand(page)) > 1 and legal_cards(page):
            return
        act_once(page, rng, exchange=False)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_p21_a_card_is_taken_back_at_a_bot_table(open_page, patient_server, page_errors, shot, lang: str,
                                                 size: str) -> None:
    made = patient_server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "bot:random", "bot:random"],
        "start": True, "listed": False, "options": NO_SPECIAL_HANDS})
    url = patient_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")
    page = open_page(url, viewport=SIZES[size])
    rng = random.Random(7)
    to_my_card(page, rng)
    undo = page.locator("[data-testid=undo-card]")
    expect(undo).to_have_count(0)  # nothing played yet
    ply = int(felt(page)["ply"])
    card = legal_cards(page)[-1]
    page.locator(f"[data-testid=hand] button.card[data-card='{card}']").click()
    wait_ply_after(page, ply)
    assert card not in hand(page)
    button, told = WORDS[lang]
    expect(undo).to_be_visible()
    expect(undo).to_contain_text(button)
    shot(page, f"takeback-{size}-{lang}-offered")
    undo.click()
    expect(page.locator("#toast")).to_contain_text(told)
    page.wait_for_function("([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) === ply",
                           arg=[ply])
    assert card in hand(page) and card in legal_cards(page)
    expect(undo).to_have_count(0)
    shot(page, f"takeback-{size}-{lang}-taken")
    # The game goes on from the same position: the card can be played again.
    page.locator(f"[data-testid=hand] button.card[data-card='{card}']").click()
    wait_ply_after(page, ply)
    assert card not in hand(page)
    assert not page_errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_p21_the_table_for_friends_shows_whether_cards_may_be_taken_back(open_page, live_server, page_errors,
                                                                         lang: str) -> None:
    page = open_page(live_server.url + f"?lang={lang}", viewport=SIZES["phone"])
    page.locator("[data-key=allow-takeback]").check()
    page.locator("[data-key=create-table]").click()
    badge = page.locator("[data-testid=takeback-setting]")
    expect(page.locator("[data-testid=invite-link]")).to_be_visible()
    expected = "Take-backs allowed" if lang == "en" else "Можно забирать карту"
    expect(badge).to_have_text(expected)
    table_id = page.url.split("table=")[1].split("&")[0].split("#")[0]
    assert live_server.api("GET", f"api/tables/{table_id}")["takeback"] is True
    # Whoever opens the invitation sees it too.
    friend = open_page(page.locator("[data-testid=invite-link]").input_value(), viewport=SIZES["wide"])
    expect(friend.locator("[data-testid=takeback-setting]")).to_be_visible()
    # Not ticked, nothing is said (a card once played stays played).
    page.goto(live_server.url + f"?lang={lang}")
    page.locator("[data-key=create-table]").click()
    expect(page.locator("[data-testid=invite-link]")).to_be_visible()
    expect(page.locator("[data-testid=takeback-setting]")).to_have_count(0)
    assert not page_errors
