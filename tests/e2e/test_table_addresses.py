"""B14: a server announced under one address (--public-url) keeps every page on it, so that a seat
remembered by the browser is found whichever of the server's addresses a link used.  At 1280×900
and 390×844, in English and Russian."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from e2ekit import NO_SPECIAL_HANDS
from liveserver import LiveServer
from playwright.sync_api import expect

from mushka.server.app import lobby_of

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
YOU = {"en": "You: Anna", "ru": "Вы: Anna"}


@pytest.fixture(scope="module")
def announced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server on 127.0.0.1 announced as http://localhost:PORT/ (the same server by another name)."""
    server = LiveServer(tmp_path_factory.mktemp("addresses") / "mushka-e2e.db")
    server.start()
    lobby = lobby_of(server.app)
    lobby.config = replace(lobby.config, public_url=f"http://localhost:{server.port}/")
    yield server
    server.stop()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_b14_the_seat_follows_the_player_to_the_servers_one_address(open_page, announced, page_errors,
                                                                    lang: str, size: str) -> None:
    made = announced.api("POST", "api/tables", {
        "variant": "classic", "players": 3, "name": "Anna", "seats": ["me", "bot:random", "bot:random"],
        "start": True, "listed": False, "options": NO_SPECIAL_HANDS})
    table_id = made["table"]["id"]
    public = f"http://localhost:{announced.port}/"
    # The seat's link opened by the server's other address: the page moves to the announced one,
    # the seat with it.
    page = open_page(f"{announced.url}?lang={lang}&table={table_id}#token={made['tokens'][0]['token']}",
                     viewport=SIZES[size])
    page.wait_for_url(f"{public}**")
    me = page.locator("[data-testid=who-am-i]")
    expect(me).to_contain_text(YOU[lang])
    assert "token" not in page.url and f"lang={lang}" in page.url
    # Later, the table's plain link by the other address again: still the seat, not a spectator.
    page.goto(f"{announced.url}?lang={lang}&table={table_id}")
    page.wait_for_url(f"{public}**")
    expect(me).to_contain_text(YOU[lang])
    assert not page_errors
