"""The review of a finished game in the replay page: the decisions against the expert's, the
three costliest first, one click to the position; at 1280×900 and 390×844, in English and Russian."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.sync_api import expect
from test_replay import store_finished

from mushka.bots.base import RandomBot, play_game
from mushka.match import new_game
from mushka.records.format import record_of_game
from mushka.rules import make_rules

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SUMMARY = {"en": "decisions", "ru": "решений"}
HERE = {"en": "the expert would play", "ru": "эксперт сыграл бы"}
TABLE_ID = f"review-{random.getrandbits(30)}"


@pytest.fixture(scope="module")
def finished(live_server) -> str:
    """A finished partie of random players (their moves are often not the expert's), stored once."""
    rng = random.Random(11)
    game = new_game(make_rules("classic", 3, initial_record=5, flush="none", privileged_four="none"),
                    rng=rng.getrandbits(32))
    play_game(game, [RandomBot()] * 3, rng)
    store_finished(live_server, record_of_game(game, seats=["Anna", "Boris", "Vera"]), TABLE_ID)
    return TABLE_ID


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_the_review_lists_the_decisions_and_shows_the_costliest_positions(open_page, live_server, finished,
                                                                          page_errors, shot, lang: str,
                                                                          size: str) -> None:
    # Made once per game and seat (the first time takes the server a few seconds), then kept.
    expected = httpx.get(f"{live_server.url}api/records/{finished}/review?seat=0&lang={lang}", timeout=120).json()
    assert len(expected["costliest"]) == 3, "random play makes at least three costly decisions"
    page = open_page(live_server.url + f"?lang={lang}&replay={finished}&review=0", viewport=SIZES[size])
    summary = page.locator("[data-testid=review-summary]")
    expect(summary).to_contain_text(SUMMARY[lang], timeout=60_000)
    expect(summary).to_contain_text(str(len(expected["decisions"])))
    costliest = page.locator("[data-testid=review-costliest] [data-testid=review-item]")
    expect(costliest).to_have_count(3)
    got = [[int(costliest.nth(i).get_attribute("data-deal")), int(costliest.nth(i).get_attribute("data-index"))]
           for i in range(3)]
    assert got == expected["costliest"]
    # Every decision is listed, in order, behind its summary line.
    page.locator(".review-all summary").click()
    expect(page.locator("[data-testid=review-all] [data-testid=review-item]")).to_have_count(len(expected["decisions"]))
    # One click on the costliest shows the position it was made in: that deal, the step before the action.
    deal, index = expected["costliest"][0]
    costliest.first.click()
    expect(page.locator("[data-testid=replay-step]")).to_contain_text(str(index - 1))
    assert page.locator("[data-key=replay-deal]").input_value() == str(deal - 1)
    here = page.locator("[data-testid=review-here]")
    expect(here).to_contain_text(HERE[lang])
    top = next(d for d in expected["decisions"] if [d["deal"], d["index"]] == expected["costliest"][0])
    expect(here).to_contain_text(top["best_words"])
    expect(here).to_contain_text(f"{top['loss']:.2f}")
    expect(costliest.first.locator("xpath=..")).to_have_class("review-item costly here")
    shot(page, f"review-{size}-{lang}")
    assert not page_errors


def test_a_review_asked_for_another_seat_and_refused_for_a_game_being_played(open_page, live_server, finished,
                                                                             page_errors) -> None:
    page = open_page(live_server.url + f"?lang=ru&replay={finished}", viewport=SIZES["phone"])
    expect(page.locator("[data-testid=review]")).to_be_visible(timeout=60_000)  # the first replay starts the pool
    expect(page.locator("[data-testid=review-summary]")).to_have_count(0)  # nothing asked yet
    page.select_option("[data-key=review-seat]", "2")
    page.locator("[data-key=review-start]").click()
    expect(page.locator("[data-testid=review-summary]")).to_contain_text("Vera", timeout=60_000)
    # A game still being played has no review (its record would show hidden cards).
    made = live_server.api("POST", "api/tables", {"variant": "classic", "players": 3, "seats": ["me", "bot", "bot"],
                                                  "start": True, "listed": False})
    playing = open_page(live_server.url + f"?lang=en&replay={made['table']['id']}&review=0")
    expect(playing.locator("main [role=alert]")).to_contain_text("not over")
    expect(playing.locator("[data-testid=review-summary]")).to_have_count(0)
    assert not [e for e in page_errors if "409" not in e]
