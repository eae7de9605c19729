"""The table's social side in a real browser, at desktop and phone sizes: the turn timer
hands a seat to a bot and back (P15), the chat shows hostile text as text and keeps
spectators apart (P16), a move is suggested against bots only (P17), and the lobby's
leaderboard counts a finished game."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from e2ekit import NO_SPECIAL_HANDS, felt, wait_for_turn_or_end
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
# Long enough for a test's few moves, short enough that a game left to the bots ends soon.
CALM = {**NO_SPECIAL_HANDS, "initial_record": 40}


def table(live_server, seats: list[str], name: str = "Anna", **body: Any) -> dict:
    return live_server.api("POST", "api/tables", {
        "variant": "classic", "players": len(seats), "name": name, "seats": seats, "start": True,
        "listed": False, "options": CALM, **body})


def url_of(live_server, made: dict, seat: int = 0, lang: str = "en") -> str:
    return live_server.url + made["tokens"][seat]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")


def watch_url(live_server, made: dict, lang: str = "en") -> str:
    return f"{live_server.url}?lang={lang}&table={made['table']['id']}"


def picture(page, name: str) -> Path:
    """A picture for the docs (``MUSHKA_SHOTS=docs/img``), else a test artifact."""
    folder = Path(os.environ["MUSHKA_SHOTS"]) if os.environ.get("MUSHKA_SHOTS") else ROOT / "test-artifacts" / "e2e"
    folder = folder if folder.is_absolute() else ROOT / folder
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=False)
    assert path.stat().st_size > 10_000
    return path


# --- P15: the turn timer ---------------------------------------------------------------------


def wait_timed_turn_or_stand_in(page) -> str:
    """Wait until this player's move is timed ("mine") or a bot plays for him ("bot")."""
    page.wait_for_function("""() => !!document.querySelector('[data-testid=stand-in-0]')
        || (document.querySelector('[data-testid=turn-clock].mine:not([hidden])') !== null)""")
    return "bot" if page.locator("[data-testid=stand-in-0]").count() else "mine"


@pytest.mark.parametrize("viewport", SIZES)
def test_p15_the_countdown_runs_out_a_bot_plays_and_the_player_takes_the_seat_back(
        open_page, live_server, page_errors, viewport):
    made = table(live_server, ["me", "bot:random", "bot:random"], turn_seconds=3)
    page = open_page(url_of(live_server, made), viewport=viewport)
    watcher = open_page(watch_url(live_server, made, "ru"), viewport=viewport)
    clock = page.locator("[data-testid=turn-clock]")
    notice = page.locator("[data-testid=stand-in-0]")
    if wait_timed_turn_or_stand_in(page) == "bot":
        # The first move came before the page did: the seat is already the bot's.
        page.locator("[data-testid=take-back]").click()
        expect(notice).to_have_count(0)
        assert wait_timed_turn_or_stand_in(page) == "mine"
    expect(clock).to_contain_text("Your move")
    expect(page.locator("[data-testid=timer-setting]")).to_contain_text("3 s a move")
    # Spectators see the same countdown, in their language, naming the player.
    expect(watcher.locator("[data-testid=turn-clock]")).to_contain_text("Ходит Anna")
    ply = int(felt(page)["ply"])
    # Nobody clicks: the server's deadline passes and a bot plays for the seat.
    expect(notice).to_contain_text("time ran out", timeout=10_000)
    expect(watcher.locator("[data-testid=stand-in-0]")).to_contain_text("время хода вышло")
    expect(watcher.locator("[data-testid=take-back]")).to_have_count(0)
    page.wait_for_function("([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) > ply",
                           arg=[ply])
    page.locator("[data-testid=take-back]").click()
    expect(notice).to_have_count(0)
    expect(watcher.locator("[data-testid=stand-in-0]")).to_have_count(0)
    # The seat is the player's again: his next move is his to make, with the clock running.
    if felt(page)["over"] != "true":
        assert wait_timed_turn_or_stand_in(page) == "mine"
        expect(page.locator(".me.to-act")).to_be_visible()
    assert not page_errors


# --- P16: chat -------------------------------------------------------------------------------------

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> &amp; &lt;b&gt;'


@pytest.mark.parametrize("viewport", SIZES)
def test_p16_chat_shows_markup_as_text_and_keeps_spectators_apart(open_page, live_server, page_errors, viewport):
    made = table(live_server, ["me", "bot:random", "bot:random"])
    page = open_page(url_of(live_server, made), viewport=viewport)
    fan = open_page(watch_url(live_server, made, "ru"), viewport=viewport)
    expect(page.locator("[data-testid=chat]")).to_be_visible()
    expect(fan.locator("[data-testid=chat]")).to_contain_text("Чат зрителей")
    page.fill("[data-testid=chat-input]", HOSTILE)
    page.locator("[data-testid=chat-send]").click()
    for p in (page, fan):
        line = p.locator("[data-testid=chat-line]").last
        expect(line.locator(".chat-text")).to_have_text(HOSTILE)
        assert p.locator("[data-testid=chat-lines] img, [data-testid=chat-lines] script, "
                         "[data-testid=chat-lines] b").count() == 0
        assert p.evaluate("window.__pwned") is None
    expect(page.locator("[data-testid=chat-input]")).to_have_value("")
    # A quick phrase reads in each receiver's language.
    page.locator("[data-testid=phrase-good_game]").click()
    expect(fan.locator("[data-testid=chat-line]").last).to_contain_text("Хорошая игра!")
    # The spectator's line reaches the spectators, not the player until he chooses to hear them.
    fan.fill("[data-testid=chat-input]", "болеем за Anna")
    fan.locator("[data-testid=chat-send]").click()
    expect(fan.locator("[data-testid=chat-line]").last).to_contain_text("болеем за Anna")
    page.wait_for_timeout(500)
    expect(page.locator("[data-testid=chat-lines]")).not_to_contain_text("болеем")
    page.locator("[data-testid=chat-listen]").check()
    fan.fill("[data-testid=chat-input]", "now you hear us")
    fan.locator("[data-testid=chat-send]").click()
    expect(page.locator("[data-testid=chat-lines]")).to_contain_text("now you hear us")
    # Muting the spectator hides his lines, and the browser remembers it across a reload.
    page.locator("[data-testid=chat-line][data-channel=spectators] [data-testid=mute]").first.click()
    expect(page.locator("[data-testid=chat-lines]")).not_to_contain_text("now you hear us")
    expect(page.locator("[data-testid=unmute]")).to_contain_text("spectator 1")
    page.reload()
    page.locator("[data-testid=chat-listen]").check()
    fan.fill("[data-testid=chat-input]", "still muted?")
    fan.locator("[data-testid=chat-send]").click()
    expect(fan.locator("[data-testid=chat-lines]")).to_contain_text("still muted?")
    page.wait_for_timeout(500)
    expect(page.locator("[data-testid=chat-lines]")).not_to_contain_text("still muted?")
    assert not page_errors


def test_p16_friends_chat_while_the_table_waits(open_page, live_server, page_errors):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "players": 3, "name": "Anna",
                                                  "seats": ["me", "open", "bot"], "listed": False})
    assert made["table"]["turn_seconds"] == 60, "a table for friends has a turn timer unless told otherwise"
    host = open_page(url_of(live_server, made))
    guest = open_page(watch_url(live_server, made, "ru"))
    host.locator("[data-testid=phrase-hello]").click()
    expect(guest.locator("[data-testid=chat-lines]")).to_contain_text("Привет!")
    assert not page_errors


def test_p16_a_too_long_or_too_fast_chat_is_refused_in_words(open_page, live_server, page_errors):
    made = table(live_server, ["me", "bot:random", "bot:random"])
    page = open_page(url_of(live_server, made, lang="ru"))
    for n in range(6):  # the connection's burst is 5
        page.locator("[data-testid=phrase-thanks]").click()
        if n < 5:
            expect(page.locator("[data-testid=chat-line]")).to_have_count(n + 1)
    # B10: words, not the rule's id; the id is one click away.
    error = page.locator("[data-testid=chat-error]")
    expect(error).to_contain_text("слишком много строк чата")
    assert "P16" not in error.inner_text()
    error.locator("[data-testid=rule-note] summary").click()
    expect(error.locator("[data-testid=rule-note]")).to_contain_text("правило сервера P16")
    assert not page_errors


# --- P17: suggest a move ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", SIZES)
def test_p17_a_move_is_suggested_against_bots_and_never_at_a_human_table(open_page, live_server, page_errors,
                                                                         viewport):
    made = table(live_server, ["me", "bot:random", "bot:random"])
    page = open_page(url_of(live_server, made, lang="ru"), viewport=viewport)
    wait_for_turn_or_end(page)
    page.locator("[data-testid=ask-hint]").click()
    hint = page.locator("[data-testid=hint]")
    expect(hint).to_contain_text("Совет:")
    assert page.locator("[data-testid=hint-reason]").inner_text().strip()
    ply = int(felt(page)["ply"])
    page.locator("[data-testid=play-hint]").click()
    page.wait_for_function("([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) > ply",
                           arg=[ply])
    # At a table with another person there is no hint at all.
    friends = table(live_server, ["me", "me", "bot:random"])
    for seat in (0, 1):
        other = open_page(url_of(live_server, friends, seat), viewport=viewport)
        expect(other.locator("[data-testid=felt]")).to_be_visible()
        other.wait_for_timeout(300)
        expect(other.locator("[data-testid=ask-hint]")).to_have_count(0)
    assert not page_errors


# --- the leaderboard -------------------------------------------------------------------------------------


def play_out_over_socket(live_server, made: dict) -> dict:
    """Play seat 0 of ``made`` to the end over a WebSocket (first legal move each time)."""
    from websockets.sync.client import connect

    from mushka.server import PROTOCOL_VERSION
    from mushka.server.seatviews import apply_changes

    ws_url = live_server.url.replace("http", "ws") + made["ws"].lstrip("/")
    view: dict | None = None
    with connect(ws_url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": made["tokens"][0]["token"]}))
        version = -1
        for _ in range(20_000):
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "state":
                view, version = msg["view"], msg["version"]
            elif msg["type"] == "update":
                view, version = apply_changes(view, msg["view"]), msg["version"]
            elif msg["type"] == "table":
                version = msg["version"]
            else:
                continue
            assert view is not None
            if view.get("result"):
                return view["result"]
            deal = view["deal"]
            if deal["to_act"] == 0 and deal["legal"]:
                ws.send(json.dumps({"type": "act", "action": deal["legal"][0], "version": version}))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("viewport", SIZES)
def test_the_lobby_leaderboard_counts_a_finished_game(open_page, live_server, page_errors, viewport):
    name = f"Vera{viewport['width']}"
    made = live_server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": name, "seats": ["me", "bot:random", "bot:random"],
        "start": True, "listed": False, "options": {**NO_SPECIAL_HANDS, "initial_record": 8}})
    result = play_out_over_socket(live_server, made)

    def named(page) -> None:
        page.add_init_script(f"localStorage.setItem('mushka.name', {json.dumps(name)})")

    page = open_page(f"{live_server.url}?lang=en", viewport=viewport, before=named)
    board = page.locator("[data-testid=leaderboard]")
    expect(board).to_be_visible()
    you = page.locator("[data-testid=board-you]")
    expect(you).to_contain_text(f"You ({name})")
    expect(you).to_contain_text("games 1")
    mine = page.locator("[data-testid=board-players] tr.you")
    expect(mine).to_contain_text(name)
    expect(mine).to_contain_text(str(result["records"][0]))
    expect(page.locator("[data-testid=board-bots]")).to_contain_text("Plays at random")
    # On the familiar scale, marked provisional after one game; no μ or σ in sight.
    expect(you).to_contain_text("provisional")
    rating = mine.locator("td").nth(2).inner_text()
    assert re.fullmatch(r"\d{3,4}\?", rating), rating
    assert "μ" not in board.inner_text() and "σ" not in board.inner_text()
    # One rating per variant: the kopilka board does not list a game of classic.
    page.locator("[data-key=board-kopilka]").click()
    expect(page.locator("[data-key=board-kopilka]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-testid=board-players] tr.you")).to_have_count(0)
    expect(page.locator("[data-testid=leaderboard]")).to_contain_text(f"{name} has no rated game of this variant yet")
    page.locator("[data-key=board-classic]").click()
    expect(page.locator("[data-testid=board-players] tr.you")).to_contain_text(name)
    page.locator(".lang-btn[data-lang=ru]").click()
    expect(page.locator("[data-testid=board-you]")).to_contain_text(f"Вы ({name})")
    expect(page.locator("[data-key=board-kopilka]")).to_have_text("Копилка")
    assert not page_errors


# --- the pictures of docs/play.md ---------------------------------------------------------------------------


def test_pictures_of_the_chat_and_timer_table_and_of_the_leaderboard(open_page, live_server, page_errors):
    made = table(live_server, ["me", "bot:club", "bot:club"], turn_seconds=60)
    page = open_page(url_of(live_server, made), viewport={"width": 1280, "height": 1000})
    watcher = open_page(watch_url(live_server, made))
    wait_for_turn_or_end(page)
    page.locator("[data-testid=phrase-hello]").click()
    page.locator("[data-testid=chat-listen]").check()
    page.wait_for_timeout(200)
    watcher.fill("[data-testid=chat-input]", "Good luck, Anna!")
    watcher.locator("[data-testid=chat-send]").click()
    expect(page.locator("[data-testid=chat-lines]")).to_contain_text("Good luck, Anna!")
    page.fill("[data-testid=chat-input]", "Thanks <3 — let's see that trump")
    page.locator("[data-testid=chat-send]").click()
    page.locator("[data-testid=ask-hint]").click()
    expect(page.locator("[data-testid=hint]")).to_be_visible()
    expect(page.locator("[data-testid=turn-clock]")).to_contain_text("Your move")
    picture(page, "table-chat-timer")
    finished = live_server.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "bot:club", "bot:expert"],
        "start": True, "listed": False, "options": {**NO_SPECIAL_HANDS, "initial_record": 8}})
    play_out_over_socket(live_server, finished)
    lobby = open_page(f"{live_server.url}?lang=en", viewport={"width": 1280, "height": 1300},
                      before=lambda p: p.add_init_script("localStorage.setItem('mushka.name', 'Anna')"))
    board = lobby.locator("[data-testid=leaderboard]")
    expect(lobby.locator("[data-testid=board-you]")).to_be_visible()
    board.scroll_into_view_if_needed()
    lobby.wait_for_timeout(300)
    path = picture(lobby, "lobby-leaderboard")
    board.screenshot(path=str(path))
    assert not page_errors
