"""Tables with people: an invitation between two browsers, spectators, reconnection."""

from __future__ import annotations

import json
import random
import re
import threading

import pytest
from e2ekit import NO_SPECIAL_HANDS, act_once, felt, frames_cards, hand, record_frames, wait_for_turn_or_end
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]


def test_two_browsers_play_through_an_invitation(open_page, live_server, shot, page_errors):
    anna = open_page(live_server.url)
    anna.locator("[data-key=variant-classic]").check()
    anna.select_option("#players", "3")
    anna.fill("#player-name", "Anna")
    anna.locator("[data-key=options-summary]").click()
    anna.select_option("[data-option=flush]", "none")
    anna.select_option("[data-option=privileged_four]", "none")
    anna.locator("[data-key=create-table]").click()
    invite = anna.locator("[data-testid=invite-link]")
    expect(invite).to_have_value(re.compile(r"\?table="))
    link = invite.input_value()
    assert "token" not in link
    shot(anna, "host-waiting")

    boris = open_page(link)
    expect(boris.locator("[data-testid=who-am-i]")).to_contain_text("Spectator")
    boris.fill("input[autocomplete=nickname]", "Boris")
    boris.locator("[data-key=take-1]").click()
    expect(boris.locator("[data-testid=who-am-i]")).to_contain_text("Boris")
    expect(anna.locator("li[data-seat='1']")).to_contain_text("Boris")
    shot(boris, "guest-seated")

    anna.locator("[data-key=bot-2]").click()
    expect(anna.locator("li[data-seat='2']")).to_contain_text("plays at random")
    anna.locator("[data-key=start]").click()
    expect(anna.locator("[data-testid=felt]")).to_be_visible()
    expect(boris.locator("[data-testid=felt]")).to_be_visible()
    expect(anna.locator("[data-testid=seat-1]")).to_contain_text("Boris")
    expect(boris.locator("[data-testid=seat-0]")).to_contain_text("Anna")

    pages = {0: anna, 1: boris}
    rng = random.Random(5)
    deal = felt(anna)["deal"]
    acted = {0: 0, 1: 0}
    for _ in range(200):
        state = felt(anna)
        if state["deal"] != deal or state["over"] == "true":
            break
        seat = int(state["toAct"]) if state["toAct"] else None
        if seat in pages:
            page = pages[seat]
            mine = wait_for_turn_or_end(page, deal)
            if mine["deal"] != deal or mine["over"] == "true":
                break
            # Neither browser ever shows the other's hand.
            other = pages[1 - seat]
            assert not set(hand(page)) & set(other.eval_on_selector_all(
                "[data-testid=felt] [data-card]", "els => els.map(e => e.dataset.card)")) - {state.get("turnup")}
            act_once(page, rng)
            acted[seat] += 1
        else:
            anna.wait_for_function(
                "([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) > ply",
                arg=[int(state["ply"])])
    else:
        pytest.fail("the deal did not end")
    assert acted[0] and acted[1]
    shot(anna, "host-after-deal")
    shot(boris, "guest-after-deal")
    assert not page_errors


def test_spectator_sees_no_hidden_card(open_page, live_server, shot, page_errors):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "players": 4, "name": "Vera",
                                                   "seats": ["me", "bot:random", "bot:random", "bot:random"],
                                                   "start": True, "listed": True, "options": NO_SPECIAL_HANDS})
    table = made["table"]["id"]
    player = open_page(live_server.url + made["tokens"][0]["url"].lstrip("/"))
    holder: dict[str, list[str]] = {}
    spectator = open_page(f"{live_server.url}?table={table}",
                          before=lambda p: holder.setdefault("frames", record_frames(p)))
    frames = holder["frames"]
    expect(spectator.locator("[data-testid=who-am-i]")).to_contain_text("Spectator")
    expect(spectator.locator("[data-testid=hand]")).to_have_count(0)
    rng = random.Random(7)
    first_deal = None
    for step in range(8):
        state = wait_for_turn_or_end(player)
        first_deal = first_deal or state["deal"]
        # A new deal deals the same cards again: what was public before says nothing.
        if state["over"] == "true" or state["deal"] != first_deal:
            break
        mine = set(hand(player))
        turnup = player.locator("[data-testid=trump] .card").get_attribute("data-card")
        secret = mine - {turnup}
        spectator.wait_for_function(
            "([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) >= ply",
            arg=[int(state["ply"])])
        shown = set(spectator.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        assert not secret & shown, f"the spectator's page shows {secret & shown}"
        leaked = secret & frames_cards(frames)
        assert not leaked, f"the spectator received {leaked}"
        if step == 3:
            shot(spectator, "watching")
        act_once(player, rng)
    assert frames, "the spectator's socket was not observed"
    assert not page_errors


def test_reload_keeps_the_seat(open_page, live_server, shot, page_errors):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "name": "Gleb", "start": True,
                                                   "listed": False, "options": NO_SPECIAL_HANDS,
                                                   "seats": ["me", "bot:random", "bot:random", "bot:random"]})
    page = open_page(live_server.url + made["tokens"][0]["url"].lstrip("/"))
    state = wait_for_turn_or_end(page)
    before = hand(page)
    page.reload()
    expect(page.locator("[data-testid=who-am-i]")).to_contain_text("Gleb")
    again = wait_for_turn_or_end(page)
    assert again["ply"] == state["ply"] and hand(page) == before
    # Without the fragment the token comes from local storage.
    page.goto(f"{live_server.url}?table={made['table']['id']}")
    expect(page.locator("[data-testid=who-am-i]")).to_contain_text("Gleb")
    wait_for_turn_or_end(page)
    assert hand(page) == before
    act_once(page, random.Random(3))
    shot(page, "after-reload")
    assert not page_errors


def route_table_socket(page, on_server_message=None, on_page_message=None):
    """Put every table socket of ``page`` through a relay that tests can steer."""
    relay = {"routes": [], "resyncs": 0, "hellos": 0}
    lock = threading.Lock()

    def handler(ws):
        server = ws.connect_to_server()
        with lock:
            relay["routes"].append((ws, server))

        def from_page(message):
            data = json.loads(message)
            if data.get("type") == "resync":
                relay["resyncs"] += 1
            if data.get("type") == "hello":
                relay["hellos"] += 1
            if on_page_message is None or on_page_message(data) is not False:
                server.send(message)

        def from_server(message):
            if on_server_message is None or on_server_message(json.loads(message)) is not False:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/tables/"), handler)
    return relay


def test_a_gap_in_versions_is_resynced(open_page, live_server, page_errors):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "name": "Ira", "start": True,
                                                   "listed": False, "options": NO_SPECIAL_HANDS,
                                                   "seats": ["me", "bot:random", "bot:random", "bot:random"]})
    dropped: list[int] = []

    def drop_one_update(msg):
        # Drop the update of the player's own action when others act after it,
        # so that the next update arrives with a version one too far (P7).
        if (not dropped and msg.get("type") == "update" and msg.get("seat") == 0
                and msg["view"].get("deal", {}).get("to_act") not in (0, None) and not msg["view"].get("result")):
            dropped.append(msg["version"])
            return False
        return True

    holder = {}
    page = open_page(live_server.url + made["tokens"][0]["url"].lstrip("/"),
                     before=lambda p: holder.setdefault("relay", route_table_socket(p, drop_one_update)))
    relay = holder["relay"]
    rng = random.Random(11)
    for _ in range(30):
        state = wait_for_turn_or_end(page)
        if dropped or state["over"] == "true":
            break
        ply = int(state["ply"])
        # The click is applied by the server; its update never reaches the page.
        act_once_without_wait(page, rng)
        page.wait_for_function("([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) > ply",
                               arg=[ply])
    assert dropped, "no update could be dropped"
    assert relay["resyncs"] >= 1, "the page did not ask for a resync after the gap"
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "open")
    wait_for_turn_or_end(page)
    act_once(page, rng)
    assert not page_errors


def act_once_without_wait(page, rng):
    state = felt(page)
    if state["phase"] == "declare":
        page.locator("[data-key=act-stand]").click()
    else:
        page.locator("[data-testid=hand] button.card.legal").first.click()


def test_lost_connection_reconnects(open_page, live_server, page_errors):
    made = live_server.api("POST", "api/tables", {"variant": "kopilka", "name": "Lev", "start": True,
                                                   "listed": False,
                                                   "seats": ["me", "bot:random", "bot:random", "bot:random"]})
    holder = {}
    page = open_page(live_server.url + made["tokens"][0]["url"].lstrip("/"),
                     before=lambda p: holder.setdefault("relay", route_table_socket(p)))
    relay = holder["relay"]
    state = wait_for_turn_or_end(page)
    before = hand(page)
    ws, server = relay["routes"][-1]
    # The network drops: both ends of the relay close without a word.
    server.close(code=1011)
    ws.close(code=1001, reason="network lost")
    expect(page.locator("#conn-status")).to_have_attribute("data-status", re.compile("reconnecting|connecting"))
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "open", timeout=15_000)
    assert relay["hellos"] >= 2 and len(relay["routes"]) >= 2
    again = wait_for_turn_or_end(page)
    assert again["ply"] == state["ply"] and hand(page) == before
    act_once(page, random.Random(4))
    assert not page_errors
