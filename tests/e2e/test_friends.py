"""Friends in real browsers, two and three at once (docs/friends.md): two accounts become
friends through a friend link, one invites the other to his table with one click and the other
sees the notice and joins; a mute hides an account's lines at the table, and a reported line is
kept for the operator.  At desktop and phone sizes, in English and Russian."""

from __future__ import annotations

import json
import random
import re
import string
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from liveserver import LiveServer
from playwright.sync_api import expect

from mushka.server.socialdb import SocialBook

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of this module's own: its accounts, friends and stored games stay out of the
    lobby and the leaderboard the other browser tests look at."""
    server = LiveServer(tmp_path_factory.mktemp("friends") / "mushka-friends.db")
    server.start()
    yield server
    server.stop()

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def unique(name: str) -> str:
    """A name no other test of this server's session has claimed."""
    return name + "".join(random.choices(string.ascii_lowercase, k=5))


def signed_in(new_context, live_server, name: str, **kwargs: Any) -> Any:
    """A browser context whose player claimed ``name`` with a password (the accounts' API)."""
    context = new_context(**kwargs)
    reply = context.request.post(live_server.url + "api/account/claim",
                                 data={"name": name, "password": "correct horse battery 1"})
    assert reply.ok, reply.text()
    return context


def page_of(context, url: str, errors: list[str]) -> Any:
    page = context.pages[0] if context.pages else context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page


def table_of(context, live_server, seats: list[str]) -> dict[str, Any]:
    """A table made by ``context``'s player (his account holds seat 0)."""
    body = {"variant": "classic", "players": len(seats), "seats": seats, "listed": False}
    reply = context.request.post(live_server.url + "api/tables", data=body, headers=csrf(context, live_server))
    assert reply.ok, reply.text()
    made: dict[str, Any] = reply.json()
    return made


def csrf(context, live_server) -> dict[str, str]:
    token = context.request.get(live_server.url + "api/account").json()["csrf"]
    return {"x-csrf-token": token}


@pytest.mark.parametrize(("viewport", "lang"), [pytest.param(DESKTOP, "en", id="desktop-en"),
                                                pytest.param(PHONE, "ru", id="phone-ru")])
def test_friends_by_link_then_an_invitation_in_one_click_and_the_friend_joins(
        new_context, live_server, shot, viewport, lang):
    errors: list[str] = []
    anna_name, boris_name = unique("Anna"), unique("Boris")
    anna_ctx = signed_in(new_context, live_server, anna_name, viewport=viewport)
    boris_ctx = signed_in(new_context, live_server, boris_name, viewport=viewport)
    anna = page_of(anna_ctx, f"{live_server.url}?lang={lang}", errors)
    anna.get_by_test_id("friends-button").click()
    panel = anna.get_by_test_id("friends-panel")
    expect(panel).to_be_visible()
    panel.get_by_test_id("friend-link").click()
    link = panel.get_by_test_id("friend-link-url").input_value()
    assert "?friend=" in link
    shot(anna, "friends-panel")
    # Boris opens the link, signed in: friends at once, said in a notice on both sides.
    boris = page_of(boris_ctx, link.replace("/?", f"/?lang={lang}&"), errors)
    expect(boris.locator("#toast")).to_contain_text(anna_name)
    assert "friend=" not in boris.url
    expect(anna.get_by_test_id("notice")).to_contain_text(boris_name)
    boris.get_by_test_id("friends-button").click()
    friend = boris.get_by_test_id("friend").filter(has_text=anna_name)
    expect(friend).to_have_attribute("data-status", "accepted")
    expect(friend).to_have_attribute("data-online", "yes")
    # Anna sits at her table and invites Boris with one click.
    made = table_of(anna_ctx, live_server, ["me", "open", "bot"])
    anna.goto(live_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table="))
    anna.get_by_test_id("friends-button").click()
    row = anna.get_by_test_id("friend").filter(has_text=boris_name)
    expect(row).to_have_attribute("data-online", "yes")
    row.get_by_test_id("friend-invite").click()
    expect(anna.locator("#toast")).to_contain_text(boris_name)
    # Boris's page shows the invitation with a Join button; he joins and takes the open seat.
    notice = boris.locator("[data-testid=notice][data-kind=invite]")
    expect(notice).to_contain_text(anna_name)
    shot(boris, "invitation")
    notice.get_by_test_id("notice-join").click()
    boris.wait_for_url(f"**table={made['table']['id']}**")
    boris.locator("[data-key=take-1]").click()
    expect(anna.locator("li[data-seat='1']")).to_contain_text(boris_name)
    expect(boris.locator("li[data-seat='1']")).to_contain_text(boris_name)
    # Boris is now seen at that table by Anna's friends panel.
    anna.get_by_test_id("friends-button").click()
    anna.get_by_test_id("friends-button").click()
    expect(anna.get_by_test_id("friend").filter(has_text=boris_name).get_by_test_id("friend-invite")).to_have_count(0)
    # His profile, opened from the panel, lists Anna among his friends.
    boris.get_by_test_id("friends-button").click()
    boris.get_by_test_id("my-profile").click()
    expect(boris.get_by_test_id("profile")).to_contain_text(boris_name)
    expect(boris.get_by_test_id("profile-versus")).to_contain_text(anna_name)
    shot(boris, "profile")
    # A guest who opens the link is asked to sign in; once he has, the friendship is made.
    vera_name = unique("Vera")
    vera_ctx = new_context(viewport=viewport)
    vera = page_of(vera_ctx, link.replace("/?", f"/?lang={lang}&"), errors)
    expect(vera.locator("#toast")).to_contain_text("Войдите" if lang == "ru" else "Sign in")
    expect(vera.get_by_test_id("friends-button")).to_be_hidden()
    assert vera_ctx.request.post(live_server.url + "api/account/claim",
                                 data={"name": vera_name, "password": "correct horse battery 1"}).ok
    vera.reload()
    expect(vera.locator("#toast")).to_contain_text(anna_name)
    vera.get_by_test_id("friends-button").click()
    expect(vera.get_by_test_id("friend").filter(has_text=anna_name)).to_have_attribute("data-status", "accepted")
    assert errors == []


def test_a_mute_hides_an_accounts_lines_and_a_report_is_kept(new_context, live_server, shot):
    errors: list[str] = []
    anna_name, boris_name = unique("Anna"), unique("Boris")
    anna_ctx = signed_in(new_context, live_server, anna_name)
    boris_ctx = signed_in(new_context, live_server, boris_name)
    made = table_of(anna_ctx, live_server, ["me", "open", "open"])
    table_id = made["table"]["id"]
    anna = page_of(anna_ctx, live_server.url + made["tokens"][0]["url"].lstrip("/"), errors)
    # Boris and a guest watch (a player's lines go to the spectators too).
    boris = page_of(boris_ctx, f"{live_server.url}?table={table_id}", errors)
    guest = page_of(new_context(), f"{live_server.url}?table={table_id}", errors)
    anna.get_by_test_id("chat-input").fill("first words")
    anna.get_by_test_id("chat-send").click()
    for page in (boris, guest):
        expect(page.get_by_test_id("chat-line").filter(has_text="first words")).to_have_count(1)
    # Boris mutes Anna: her lines are neither shown nor sent to him any more; the guest still reads them.
    boris.get_by_test_id("chat-line").filter(has_text="first words").get_by_test_id("mute").click()
    expect(boris.get_by_test_id("chat-line").filter(has_text="first words")).to_have_count(0)
    anna.get_by_test_id("chat-input").fill("second words")
    anna.get_by_test_id("chat-send").click()
    expect(guest.get_by_test_id("chat-line").filter(has_text="second words")).to_have_count(1)
    boris.reload()
    expect(boris.get_by_test_id("chat")).to_be_visible()
    boris.evaluate("() => localStorage.removeItem('mushka.muted')")  # not the browser's list: the server's
    boris.reload()
    expect(boris.get_by_test_id("chat")).to_be_visible()
    expect(boris.get_by_test_id("chat-line").filter(has_text="words")).to_have_count(0)
    # The guest reports her line: kept for the operator, with who said it.
    guest.get_by_test_id("chat-line").filter(has_text="second words").get_by_test_id("report").click()
    expect(guest.locator("#toast")).to_contain_text("Reported")
    expect(guest.get_by_test_id("chat-line").filter(has_text="second words").get_by_test_id("report")).to_be_disabled()
    shot(guest, "reported")
    reports = SocialBook(live_server.store().engine).reports(limit=50)
    kept = [r for r in reports if r.table_id == table_id]
    assert [(r.text, r.speaker, r.reporter_id) for r in kept] == [("second words", anna_name, None)]
    assert errors == []


def finished_games(live_server, people: list[tuple[str, str | None]], moneys: list[list[int]]) -> list[str]:
    """Rated finished games of classic between ``people`` (name, account id), stored as a table
    stores them; the server's ratings count them within seconds (as games other processes finish)."""
    from mushka.server.store import GameRating, SeatSnapshot, TableSnapshot

    store = live_server.store()
    ids = []
    for n, money in enumerate(moneys):
        table_id = unique("game")
        winner = max(range(len(money)), key=lambda i: money[i])
        record = {"seats": [name for name, _ in people],
                  "result": {"game": {"winner": winner, "money": money, "records": [0] * len(money)}}}
        at = datetime.now(UTC) + timedelta(seconds=n)
        store.create(TableSnapshot(
            id=table_id, variant="classic", players=len(people), options={}, status="over", listed=False, host=0,
            autostart=False, version=1, ply=1, created=at, finished=at, winner=winner, record=json.dumps(record),
            names=tuple(name for name, _ in people), rating=GameRating(rated=True).dumps(),
            seats=tuple(SeatSnapshot(i, "human", name, None, f"h{i}", account)
                        for i, (name, account) in enumerate(people))))
        ids.append(table_id)
    return ids


@pytest.mark.parametrize(("viewport", "lang"), [pytest.param(DESKTOP, "en", id="desktop-en"),
                                                pytest.param(PHONE, "ru", id="phone-ru")])
def test_a_profile_plots_the_rating_after_each_game_and_lists_the_games(new_context, live_server, shot, viewport,
                                                                          lang):
    errors: list[str] = []
    anna_name, boris_name = unique("Anna"), unique("Boris")
    anna_ctx = signed_in(new_context, live_server, anna_name, viewport=viewport)
    boris_ctx = signed_in(new_context, live_server, boris_name, viewport=viewport)
    code = anna_ctx.request.get(live_server.url + "api/friends/link").json()["code"]
    assert boris_ctx.request.post(live_server.url + "api/friends/link", data={"code": code},
                                  headers=csrf(boris_ctx, live_server)).ok
    anna_id = anna_ctx.request.get(live_server.url + "api/account").json()["account"]["id"]
    boris_id = boris_ctx.request.get(live_server.url + "api/account").json()["account"]["id"]
    games = finished_games(live_server, [(anna_name, anna_id), (boris_name, boris_id), (unique("Vera"), None)],
                           [[30, 10, 5], [5, 30, 10], [40, 0, 1], [20, 25, 0]])
    # The ratings follow the stored games within seconds (as games other processes finished).
    for _ in range(100):
        if boris_ctx.request.get(f"{live_server.url}api/profiles/{anna_name}").json()["games"] == len(games):
            break
        time.sleep(0.2)
    page = page_of(boris_ctx, f"{live_server.url}?lang={lang}&profile={anna_name}", errors)
    profile = page.get_by_test_id("profile")
    plot = profile.get_by_test_id("rating-plot")
    expect(plot).to_have_count(1)
    assert plot.locator("polyline").get_attribute("points").count(",") == 4  # a point after each game
    expect(profile.get_by_test_id("profile-games").locator("li")).to_have_count(4)
    expect(profile.get_by_test_id("profile-replay").first).to_have_attribute("href", re.compile(games[-1]))
    expect(profile.get_by_test_id("profile-versus")).to_contain_text(boris_name)
    expect(profile.get_by_test_id("profile-remove")).to_be_visible()  # Boris reads his friend's profile
    expect(profile).to_contain_text("Против друзей" if lang == "ru" else "Against friends")
    shot(page, "profile")
    profile.get_by_test_id("profile-mute").click()
    expect(profile.get_by_test_id("profile-unhide")).to_be_visible()
    assert errors == []


FAKE_NOTIFICATIONS = """(() => {
  window.__asked = 0; window.__shown = [];
  class FakeNotification {
    constructor(title, options) { window.__shown.push([title, options && options.body]); }
    static requestPermission() {
      window.__asked += 1; FakeNotification.permission = "granted"; return Promise.resolve("granted");
    }
  }
  FakeNotification.permission = "default";
  window.Notification = FakeNotification;
  document.hasFocus = () => false;  // the page is behind another window
})();"""


def test_a_browser_notification_only_after_the_switch_asked_for_it(new_context, live_server):
    errors: list[str] = []
    anna_name, boris_name = unique("Anna"), unique("Boris")
    anna_ctx = signed_in(new_context, live_server, anna_name)
    boris_ctx = signed_in(new_context, live_server, boris_name)
    boris_ctx.add_init_script(FAKE_NOTIFICATIONS)
    code = anna_ctx.request.get(live_server.url + "api/friends/link").json()["code"]
    assert boris_ctx.request.post(live_server.url + "api/friends/link", data={"code": code},
                                  headers=csrf(boris_ctx, live_server)).ok
    boris = page_of(boris_ctx, live_server.url, errors)
    boris.get_by_test_id("friends-button").click()
    expect(boris.get_by_test_id("friend").filter(has_text=anna_name)).to_be_visible()
    assert boris.evaluate("() => window.__asked") == 0  # never asked on load
    made = table_of(anna_ctx, live_server, ["me", "open", "bot"])
    invite = {"name": boris_name, "table": made["table"]["id"]}
    assert anna_ctx.request.post(live_server.url + "api/invitations", data=invite,
                                 headers=csrf(anna_ctx, live_server)).ok
    expect(boris.locator("[data-testid=notice][data-kind=invite]")).to_be_visible()
    assert boris.evaluate("() => window.__shown") == []  # the switch is off: the page's notice only
    boris.get_by_test_id("notify-switch").check()
    boris.wait_for_function("() => window.__asked === 1")
    second = table_of(anna_ctx, live_server, ["me", "open", "bot"])
    assert anna_ctx.request.post(live_server.url + "api/invitations", data={**invite, "table": second["table"]["id"]},
                                 headers=csrf(anna_ctx, live_server)).ok
    boris.wait_for_function("() => window.__shown.length === 1")
    assert boris.evaluate("() => window.__shown") == [["Mushka", f"{anna_name} invites you to a table"]]
    expect(boris.get_by_test_id("notify-switch")).to_be_checked()
    assert errors == []
