"""Playing against bots by clicking: a whole classic deal, a kopilka game, refusals."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from e2ekit import (
    NO_SPECIAL_HANDS,
    act_once,
    check_rule_button,
    felt,
    hand,
    legal_cards,
    parse_frames,
    record_frames,
    wait_for_turn_or_end,
)
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

RANKS = "AKQJT98765432"


def start_from_lobby(open_page, live_server, variant: str, name: str, options: dict[str, str] | None = None,
                     before=None):
    page = open_page(live_server.url, before=before)
    page.locator(f"[data-key=variant-{variant}]").check()
    page.fill("#player-name", name)
    page.select_option("#bot", "random")
    if options:
        page.locator("[data-key=options-summary]").click()
        for option, value in options.items():
            field = page.locator(f"[data-option={option}]")
            if field.evaluate("el => el.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
                field.dispatch_event("change")
        expect(page.locator("[data-key=options-summary]")).to_contain_text(str(len(options)))
    page.locator("[data-key=play-now]").click()
    expect(page.locator("[data-testid=who-am-i]")).to_contain_text(name)
    return page


def test_classic_deal_played_by_clicking(open_page, live_server, shot, page_errors):
    # flush=none keeps a lucky five of a suit (C22) from stopping the deal early.
    page = start_from_lobby(open_page, live_server, "classic", "Anna", NO_SPECIAL_HANDS)
    rng = random.Random(1)
    shot(page, "declare")
    played_whole_deal = False
    refused = False
    for _ in range(6):  # a deal in which somebody alone stands (C10) has no play: take another
        state = wait_for_turn_or_end(page)
        assert state["over"] == "false"
        deal = state["deal"]
        plays = 0
        while True:
            state = wait_for_turn_or_end(page, deal)
            if state["deal"] != deal or state["over"] == "true":
                break
            if state["phase"] == "play":
                cards = hand(page)
                # The hand is sorted: by suit, and within a suit by rank (C3).
                for a, b in itertools.pairwise(cards):
                    if a[1] == b[1]:
                        assert RANKS.index(a[0]) < RANKS.index(b[0]), cards
                illegal = page.locator("[data-testid=hand] button.card.illegal")
                if not refused and illegal.count():
                    # An illegal card is refused by the server with the rule it breaks; nothing changes.
                    before = hand(page)
                    illegal.first.click(force=True)
                    refusal = page.locator("[data-testid=refusal]")
                    expect(refusal).to_contain_text(re.compile(r"C1[24]"))
                    # Cards in display form, no seat numbers (issue 10, bug 2).
                    said = refusal.inner_text()
                    assert not re.search(r"(?<![\w♠♣♦♥])[2-9TJQKA][SCDH]\b|by seat|seat \d", said), said
                    assert re.search(r"[♠♣♦♥]", said), said
                    assert hand(page) == before
                    assert felt(page)["ply"] == state["ply"]
                    shot(page, "refused")
                    check_rule_button(page, live_server, "en")
                    refused = True
                assert legal_cards(page), "a player to act always has a legal card (RULES §4)"
                if plays == 2:
                    shot(page, "trick-play")
            done = act_once(page, rng)
            plays += done.startswith("play")
        if plays == 5:
            played_whole_deal = True
            break
    assert played_whole_deal, "no deal in six was played out by the player"
    notice = page.locator("[data-testid=deal-notice]")
    if felt(page)["over"] == "false":
        expect(notice).to_be_visible()
    # The score sheet shows the finished deal.
    page.locator("[data-key=tab-score]").click()
    expect(page.locator("[data-testid=score-sheet]")).to_contain_text(re.compile(r"deal \d"))
    page.locator("[data-key=tab-last]").click()
    expect(page.locator("[data-testid=panel-last]")).to_contain_text(re.compile(r"trick 5"))
    page.locator("[data-key=tab-log]").click()
    expect(page.locator("[data-testid=log]")).to_contain_text("Deal over")
    shot(page, "deal-over")
    assert not page_errors


def pot_from_events(frames: list[str], ply: int) -> tuple[int, int]:
    """(the antes, the pot) by what the page received up to action ``ply``: the pot of the
    last state's view, and every payment into the pot (or out of it) since (K3, K12, K22)."""
    antes = pot = 0
    for msg in parse_frames(frames):
        if msg.get("type") == "state" and msg["view"] is not None:
            pot = msg["view"]["pot"]
            paid = [e["data"] for e in msg["log"] if e["event"] == "Paid"]
            if any(p["reason"] == "ante" for p in paid):
                # The first deal's log holds the whole session: its payments make the pot.
                assert sum(p["amount"] for p in paid) == pot
                antes = sum(p["amount"] for p in paid if p["reason"] == "ante")
        elif msg.get("type") == "update" and msg["ply"] <= ply:
            for e in msg["events"]:
                if e["event"] == "Paid":
                    pot += e["data"]["amount"]
    return antes, pot


def shown_pot(page, frames: list[str]) -> tuple[int, int]:
    """(the ply, the pot) the page shows, read at one moment, once the test has seen its frames."""
    ply, pot = page.evaluate("""() => [Number(document.querySelector('[data-testid=felt]').dataset.ply),
        Number(document.querySelector('[data-testid=pot] strong').textContent)]""")
    for _ in range(1000):
        # Frames reach the test a little after the page: each call to the browser brings the rest.
        if any(m.get("ply", -1) >= ply for m in parse_frames(frames) if m.get("type") in ("state", "update")):
            break
        page.evaluate("() => 0")
    return ply, pot


def test_kopilka_game_played_by_clicking(open_page, live_server, shot, page_errors):
    holder: dict[str, list[str]] = {}
    page = start_from_lobby(open_page, live_server, "kopilka", "Kolya",
                            before=lambda p: holder.setdefault("frames", record_frames(p)))
    frames = holder["frames"]
    expect(page.locator("[data-testid=pot]")).to_be_visible()
    # K3: every player paid the ante of 10; penalties the bots paid since (K12) are in the pot too.
    ply, pot = shown_pot(page, frames)
    assert pot_from_events(frames, ply) == (40, pot)
    rng = random.Random(2)
    state = wait_for_turn_or_end(page)
    game = state["deal"]
    assert game == "1"
    seen = set()
    actions = 0
    while True:
        state = wait_for_turn_or_end(page, game)
        if state["deal"] != game or state["over"] == "true":
            break
        seen.add(state["phase"])
        if state["phase"] == "play" and "play" not in {s.split()[0] for s in seen if " " in s}:
            shot(page, "play")
        done = act_once(page, rng)
        seen.add(done)
        actions += 1
        assert actions < 80
    assert actions > 0
    assert any(s.startswith("play") for s in seen)
    # K22: after the game the pot is what was paid in (remizes, game payments) less the tricks paid out.
    page.wait_for_function("() => document.querySelector('[data-testid=felt]').dataset.deal !== '1'"
                           " || document.querySelector('[data-testid=felt]').dataset.over === 'true'")
    if page.locator("[data-testid=pot]").count():
        ply, pot = shown_pot(page, frames)
        assert pot_from_events(frames, ply) == (40, pot)
    shot(page, "game-over")
    page.locator("[data-key=tab-score]").click()
    sheet = page.locator("[data-testid=score-sheet]")
    expect(sheet).to_contain_text("game 1")
    expect(page.locator("[data-testid=panel-score]")).to_contain_text("Pot")
    assert not page_errors


def test_dealer_takes_turned_card_needs_a_discard(open_page, live_server, page_errors):
    """C6 in the page: Take without a selected discard is explained, not sent."""
    page = start_from_lobby(open_page, live_server, "classic", "Dora", NO_SPECIAL_HANDS)
    rng = random.Random(3)
    for _ in range(120):  # the dealer moves round the table (C4): the player deals within a few deals
        state = wait_for_turn_or_end(page)
        if state["over"] == "true":
            break
        take = page.locator("[data-key=act-take]")
        if state["phase"] == "declare" and take.count():
            ply = state["ply"]
            take.click(force=True)
            expect(page.locator("[data-testid=refusal]")).to_contain_text("C6")
            assert felt(page)["ply"] == ply
            page.locator("[data-testid=hand] button.card").first.click()
            expect(take).not_to_have_attribute("aria-disabled", "true")
            turnup = page.locator("[data-testid=trump] .card").get_attribute("data-card")
            take.click()
            page.wait_for_function("([c]) => [...document.querySelectorAll('[data-testid=hand] button.card')]"
                                   ".some(e => e.dataset.card === c)", arg=[turnup])
            return
        act_once(page, rng)
    pytest.skip("the player was never the dealer in these deals")
