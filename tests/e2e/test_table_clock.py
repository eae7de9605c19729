"""P15's chess clock in a real browser, at desktop and phone sizes, in English and Russian: the
new-game form offers a time bank ("15 s + 3 min"), every seat shows its bank left, and the clock
of the seat to act counts down the move's own time, then, drawn differently, its bank."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from e2ekit import NO_SPECIAL_HANDS, act_once
from liveserver import LiveServer
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
CASES = [pytest.param(DESKTOP, "en", id="desktop-en"), pytest.param(DESKTOP, "ru", id="desktop-ru"),
         pytest.param(PHONE, "en", id="phone-en"), pytest.param(PHONE, "ru", id="phone-ru")]
CALM = {**NO_SPECIAL_HANDS, "initial_record": 40}
WORDS = {
    "en": {"bank_option": "+ 3 min for the game", "setting": "15 s + 3 min", "bank_label": "Time bank",
           "running": "Your move: time bank", "move": "Your move"},
    "ru": {"bank_option": "+ 3 мин на партию", "setting": "15 с + 3 мин", "bank_label": "Запас времени",
           "running": "Ваш ход: идёт запас", "move": "Ваш ход"},
}


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that also offers a bank of 3 s (one a test can see run out)."""
    server = LiveServer(tmp_path_factory.mktemp("clock") / "mushka-clock.db",
                        bank_choices=(0, 3, 60, 180, 300))
    server.start()
    yield server
    server.stop()


@pytest.mark.parametrize(("viewport", "lang"), CASES)
def test_p15_the_form_offers_a_bank_and_every_seat_shows_its_bank(open_page, clock_server, page_errors, shot,
                                                                  viewport, lang) -> None:
    words = WORDS[lang]
    page = open_page(f"{clock_server.url}?lang={lang}", viewport=viewport)
    bank = page.locator("#bank-seconds")
    expect(bank).to_be_visible()
    expect(page.locator("label.field", has=bank)).to_contain_text(words["bank_label"])
    expect(bank.locator("option[value='180']")).to_have_text(words["bank_option"])
    page.locator("#turn-seconds").select_option("15")
    bank.select_option("180")
    shot(page, "form")
    page.locator("[data-key=play-now]").click()
    page.wait_for_url(re.compile(r"table="))
    # Everybody sees the table's time control, and every seat its whole bank.
    expect(page.locator("[data-testid=timer-setting]")).to_have_text(words["setting"])
    for seat in range(3):
        chip = page.locator(f"[data-testid=bank-{seat}]")
        expect(chip).to_be_visible()
        if page.locator("[data-testid=turn-clock][data-phase=bank]").count() == 0:
            expect(chip).to_contain_text(re.compile(r"[23]:\d\d"))
    table_id = re.search(r"table=([\w-]+)", page.url)
    assert table_id is not None
    info = clock_server.api("GET", f"api/tables/{table_id.group(1)}")
    assert info["turn_seconds"] == 15 and info["bank_seconds"] == 180
    path = shot(page, "banks")
    assert path.stat().st_size > 10_000
    # A table for friends shows its time control in the waiting room already.
    made = clock_server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "open", "bot"], "listed": False,
        "turn_seconds": 15, "bank_seconds": 180})
    url = clock_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")
    page.goto(url)
    expect(page.locator("[data-testid=timer-setting]")).to_have_text(words["setting"])
    assert not page_errors


@pytest.mark.parametrize(("viewport", "lang"), CASES)
def test_p15_the_clock_turns_to_the_bank_when_the_move_time_is_up(open_page, clock_server, page_errors, shot,
                                                                 viewport, lang) -> None:
    words = WORDS[lang]
    made = clock_server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "bot:random", "bot:random"],
        "start": True, "listed": False, "options": CALM, "turn_seconds": 3, "bank_seconds": 60})
    url = clock_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")
    page = open_page(url, viewport=viewport)
    clock = page.locator("[data-testid=turn-clock]")
    mine = page.locator("[data-testid=bank-0]")
    # My move is timed: first its own three seconds, my bank standing still beside my name.
    page.wait_for_function("() => !!document.querySelector('[data-testid=turn-clock].mine[data-phase=move]')"
                           " || !!document.querySelector('[data-testid=stand-in-0]')")
    if page.locator("[data-testid=stand-in-0]").count():
        page.locator("[data-testid=take-back]").click()
        page.wait_for_selector("[data-testid=turn-clock].mine[data-phase=move]")
    expect(clock).to_contain_text(words["move"])
    expect(mine).not_to_have_class(re.compile(r"\brunning\b"))
    # Then the bank runs: the clock says so and looks different; my seat's bank counts down.
    expect(clock).to_have_attribute("data-phase", "bank", timeout=6_000)
    expect(clock).to_contain_text(words["running"])
    expect(clock).to_have_class(re.compile(r"\bbank\b"))
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    expect(mine).to_have_attribute("data-left", re.compile(r"^5\d$"))  # a minute, counting down
    expect(mine).to_contain_text(re.compile(r"0:5\d"))
    path = shot(page, "bank-running")
    assert path.stat().st_size > 10_000
    # He plays: what the move took from the bank stays taken, and the bank stands still again.
    act_once(page, random.Random(7))
    expect(mine).not_to_have_class(re.compile(r"\brunning\b"))
    after = int(mine.get_attribute("data-left") or "-1")
    assert 0 < after < 60
    assert not page_errors
