"""B6: a seat a bot plays for after its time ran out is not told "your turn"; B7: ticking "hear the
spectators" shows what they said before, under the names they gave.  At 1280×900 and 390×844, in
English and Russian."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2ekit import NO_SPECIAL_HANDS
from liveserver import LiveServer
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
BOT_MOVES = {"en": "A bot is making your move", "ru": "Ваш ход делает бот"}
NAMED = {"en": "Boris (spectator)", "ru": "Boris (зритель)"}


@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Bots that wait two seconds before each move: the page is seen while a bot is about to move."""
    server = LiveServer(tmp_path_factory.mktemp("slowbots") / "mushka-e2e.db", bot_delay=2.0)
    server.start()
    yield server
    server.stop()


def table(server: LiveServer, **body: object) -> dict:
    return server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "bot:random", "bot:random"],
        "start": True, "listed": False, "options": NO_SPECIAL_HANDS, **body})


def url_of(server: LiveServer, made: dict, lang: str) -> str:
    return server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_b6_a_timed_out_seat_is_told_a_bot_makes_its_move(open_page, slow_bots, page_errors, shot, lang: str,
                                                          size: str) -> None:
    made = table(slow_bots, turn_seconds=3)
    page = open_page(url_of(slow_bots, made, lang), viewport=SIZES[size])
    notice = page.locator("[data-testid=stand-in-0]")
    status = page.locator("[data-testid=status]")
    # The seat's first turn (after the bots' declarations, two seconds each) runs out unanswered.
    expect(notice).to_be_visible(timeout=30_000)
    # While the bot is about to move for the seat, the page does not ask the player to play.
    page.wait_for_function("() => document.querySelector('[data-testid=felt]').dataset.toAct === '0'")
    expect(status).to_contain_text(BOT_MOVES[lang])
    expect(page.locator(".me.to-act")).to_have_count(0)
    expect(page.locator("[data-testid=hand] button.card.legal")).to_have_count(0)
    shot(page, f"b6-{size}-{lang}")
    # Taking the seat back gives the move back.
    page.locator("[data-testid=take-back]").click()
    expect(notice).to_have_count(0)
    page.wait_for_function("""() => document.querySelector('[data-testid=felt]').dataset.over === 'true'
        || !!document.querySelector('.me.to-act')""", timeout=30_000)
    assert BOT_MOVES[lang] not in status.inner_text()
    assert not page_errors


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_b7_hearing_the_spectators_shows_what_they_said_before_by_name(open_page, live_server, page_errors, shot,
                                                                       lang: str, size: str) -> None:
    made = table(live_server)
    page = open_page(url_of(live_server, made, lang), viewport=SIZES[size])
    # A spectator who gave his name in the lobby before (the page remembers it).
    fan = open_page(f"{live_server.url}?lang={lang}&table={made['table']['id']}", viewport=SIZES[size],
                    before=lambda p: p.add_init_script("localStorage.setItem('mushka.name', 'Boris')"))
    fan.fill("[data-testid=chat-input]", "go Anna")
    fan.locator("[data-testid=chat-send]").click()
    expect(fan.locator("[data-testid=chat-line]").last).to_contain_text(NAMED[lang])
    page.locator("[data-testid=phrase-thanks]").click()
    expect(page.locator("[data-testid=chat-lines]")).not_to_contain_text("go Anna")
    page.locator("[data-testid=chat-listen]").check()
    lines = page.locator("[data-testid=chat-line]")
    # The spectator's earlier line is there, under his name, before the player's later one.
    expect(lines.first).to_contain_text("go Anna")
    expect(lines.first).to_contain_text(NAMED[lang])
    expect(lines).to_have_count(2)
    shot(page, f"b7-{size}-{lang}")
    assert not page_errors
