"""The felt in a real Chromium: motion and pace, the trick by seat, the tutorial, the layout.

The tutorial table (a stacked deck and scripted bots, server/tutorial.py) is
the same deal every time, so it also serves the tests of motion and of the
trick's layout.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from typing import Any

import pytest
from e2ekit import NO_SPECIAL_HANDS, act_once, felt, wait_for_turn_or_end
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
MOVES = ["stand 6C 7C", "KH", "TD", "QH", "AS", "AH"]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def tutorial_page(open_page: Any, live_server: Any, lang: str = "en", *, button: str = "#learn-btn",
                  **kwargs: Any) -> Page:
    """The lobby, then "Learn to play" (the top bar's, or ``button``): the tutorial table from the player's seat."""
    page: Page = open_page(f"{live_server.url}?lang={lang}", **kwargs)
    page.locator(button).click()
    page.wait_for_url(re.compile(r"tutorial=1"))
    expect(page.locator("[data-testid=lesson]")).to_be_visible()
    return page


def lesson_step(page: Page) -> int:
    return int(page.locator("[data-testid=lesson]").get_attribute("data-step") or -1)


def my_turn(page: Page) -> None:
    page.wait_for_selector(".me.to-act")


def do_move(page: Page, move: str) -> None:
    """The lesson's move: the exchange (two cards selected, then stand) or a card."""
    my_turn(page)
    words = move.split()
    ply = int(felt(page)["ply"])
    if words[0] == "stand":
        for card in words[1:]:
            page.locator(f"[data-testid=hand] button[data-card='{card}']").click()
        page.locator("[data-key=act-stand]").click()
    else:
        page.locator(f"[data-testid=hand] button[data-card='{words[0]}']").click()
    page.wait_for_function("p => Number(document.querySelector('[data-testid=felt]').dataset.ply) > p", arg=ply)


TRICK_CARDS = """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {seat: Number(e.dataset.seat), card: e.querySelector('.card').dataset.card,
                x: r.left + r.width / 2, y: r.top + r.height / 2,
                winner: e.classList.contains('winner'), leader: e.classList.contains('leader')}; })"""
"""Each trick card's seat, card, centre and marks, from the card elements given."""


def trick_cards(page: Page) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.eval_on_selector_all("[data-testid=trick-card]", TRICK_CARDS)
    return result


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_tutorial_deal_played_to_the_end(open_page, live_server, page_errors, lang):
    """The walkthrough from the lobby to the end of its deal, every step explained in the page's language."""
    # In Russian through the lobby's own invitation, in English through the top bar.
    button = "[data-key=learn-lobby]" if lang == "ru" else "#learn-btn"
    page = tutorial_page(open_page, live_server, lang, button=button)
    texts = []
    assert lesson_step(page) == 0
    texts.append(page.locator("[data-testid=lesson] p").inner_text())
    # Before "Next" nothing is sent; the lesson says why.
    my_turn(page)
    ply = felt(page)["ply"]
    page.locator("[data-testid=hand] button[data-card='7C']").click()
    page.locator("[data-key=act-stand]").click()
    expect(page.locator("#toast")).to_be_visible()
    assert felt(page)["ply"] == ply
    page.locator("[data-key=tut-next]").click()
    assert lesson_step(page) == 1
    # The lesson points at the cards to exchange; another move is refused with a reminder, not sent.
    pointed = page.eval_on_selector_all("button.card.pointed", "els => els.map(e => e.dataset.card)")
    assert sorted(pointed) == ["6C", "7C"]
    page.locator("[data-testid=hand] button[data-card='7C']").click()  # unselect the card clicked above
    page.locator("[data-key=act-stand]").click()
    expect(page.locator("#toast")).to_contain_text("6♣")
    assert felt(page)["ply"] == ply
    for step, move in enumerate(MOVES, start=1):
        my_turn(page)
        expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-step", str(step))
        texts.append(page.locator("[data-testid=lesson] p").inner_text())
        do_move(page, move)
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-step", "7", timeout=20_000)
    texts.append(page.locator("[data-testid=lesson] p").inner_text())
    assert len(set(texts)) == 8
    for text in texts:
        assert len(text) > 60
        assert bool(CYRILLIC.search(re.sub(r"[Мм]ушк\w*|ремиз", "", text))) == (lang == "ru"), text
    # The records the end of the lesson explains (C17, C18, C19).
    page.locator("[data-key=tab-score]").click()
    first = page.locator("[data-testid=score-sheet] tbody tr").first
    assert [c.strip() for c in first.locator("td").all_inner_texts()] == ["27", "30", "35", "28"]
    # A rule named by the lesson is one click away.
    page.locator("[data-key=tut-rule-C18]").click()
    expect(page.locator("#rule-C18")).to_be_visible()
    # The rules panel speaks plainly first (the exact text and its id follow); no notation or guarantees.
    plain = page.locator("[data-plain=C18]")
    expect(plain).to_contain_text("5")
    assert bool(CYRILLIC.search(re.sub(r"[Мм]ушк\w*|ремиз", "", plain.inner_text()))) == (lang == "ru")
    ids = page.eval_on_selector_all("[data-testid=rule-list] dt", "els => els.map(e => e.dataset.rule)")
    assert "C14" in ids and not [i for i in ids if re.match(r"^(N|G)\d+$", i)], ids
    # History scrolled to its newest event.
    page.locator("[data-key=tab-log]").click()
    at_end = page.eval_on_selector("[data-testid=panel-log]", "p => p.scrollTop + p.clientHeight >= p.scrollHeight - 2")
    assert at_end
    expect(page.locator("[data-key=tut-play]")).to_be_visible()
    assert not page_errors


def first_trick_played_slowly(open_page: Any, live_server: Any) -> Page:
    """The tutorial at the "slow" speed, the player's two moves of its first trick made."""
    # Slow: the pause is long enough to be seen on a busy machine too.
    page = tutorial_page(open_page, live_server, "en", speed="slow")
    page.locator("[data-key=tut-next]").click()
    do_move(page, MOVES[0])
    do_move(page, MOVES[1])
    return page


def test_trick_by_seat_and_its_pause(open_page, live_server, page_errors):
    """Each card in front of its seat, the leader and the winner marked; the full trick stays a moment."""
    page = first_trick_played_slowly(open_page, live_server)
    # The dealer (seat 3) trumps; the next lead comes 50 ms later, yet the whole trick stays in view.
    page.wait_for_function("() => document.querySelector('[data-testid=felt]').dataset.tricks === '1'",
                           polling="raf")
    seen = time.monotonic()
    # Where the cards lie, once they have landed: the dealer's card flies in from his seat at
    # the felt's right side, lower than the trick's top, and is measured where it comes to rest.
    page.wait_for_function("""() => [...document.querySelectorAll('[data-testid=trick-card]')]
        .every(e => e.getAnimations({subtree: true}).every(a => a.playState === 'finished'))""", polling="raf")
    # The trick and the seat boxes are measured in one frame: a state update between two
    # separate reads may re-render a seat box, which then has no box for that instant.
    cards, seat_x = page.evaluate(f"""() => [
        ({TRICK_CARDS})([...document.querySelectorAll('[data-testid=trick-card]')]),
        [2, 3].map(s => {{ const r = document.querySelector(`[data-testid=seat-${{s}}]`).getBoundingClientRect();
                          return r.left; }})]""")
    assert page.locator("[data-testid=trick]").get_attribute("data-held") == "true"
    by_seat = {c["seat"]: c for c in cards}
    assert {s: c["card"] for s, c in by_seat.items()} == {0: "KH", 2: "8H", 3: "9D"}
    assert by_seat[0]["leader"] and not by_seat[2]["leader"]
    assert by_seat[3]["winner"] and not by_seat[0]["winner"]
    # One's own card at the bottom; the others in the order of their seat boxes.
    assert by_seat[0]["y"] > by_seat[2]["y"] and by_seat[0]["y"] > by_seat[3]["y"]
    assert seat_x[0] < seat_x[1]
    assert by_seat[2]["x"] < by_seat[3]["x"]
    # The state is the newest one meanwhile (the dealer has led, the player is to act), but
    # his turn waits for the picture: he answers a lead only once he sees it.  Read in one
    # frame, while the trick is still held.
    page.wait_for_function("() => document.querySelector('[data-testid=felt]').dataset.toAct === '0'",
                           polling="raf")
    held, to_act, legal, status = page.evaluate("""() => [
        document.querySelector('[data-testid=trick]').dataset.held,
        !!document.querySelector('.me.to-act'),
        document.querySelectorAll('[data-testid=hand] button.card.legal').length,
        document.querySelector('[data-testid=status]').textContent]""")
    assert held == "true" and not to_act and legal == 0
    # The dealer (seat 3) took the trick and has led again.
    dealer = page.locator("[data-testid=seat-3] .seat-name").inner_text()
    assert status == f"{dealer} leads the next trick…", (status, dealer)
    # The pause ends by itself; the dealer's lead is on the table then, and the turn is the player's.
    page.wait_for_function("() => document.querySelector('[data-testid=trick]').dataset.held === 'false'")
    assert time.monotonic() - seen > 0.8
    expect(page.locator("[data-testid=trick-card]")).to_have_count(1)
    assert trick_cards(page)[0]["card"] == "KC" and trick_cards(page)[0]["leader"]
    page.wait_for_selector(".me.to-act")
    assert page.locator("[data-testid=hand] button.card.legal").count() >= 1
    expect(page.locator("[data-testid=status]")).to_contain_text("Your turn")
    assert not page_errors


def test_a_click_on_the_held_trick_shows_the_next_lead_at_once(open_page, live_server, page_errors):
    """The pause on a completed trick is for the eye only: a click on the trick ends it."""
    page = first_trick_played_slowly(open_page, live_server)
    page.wait_for_function("""() => document.querySelector('[data-testid=trick]').dataset.held === 'true'
        && document.querySelector('[data-testid=felt]').dataset.toAct === '0'""", polling="raf")
    clicked = time.monotonic()
    page.locator("[data-testid=trick]").click()
    page.wait_for_selector(".me.to-act")
    # "slow" holds the trick 2.7 s; the click ended it well before.
    assert time.monotonic() - clicked < 2.0
    assert page.locator("[data-testid=trick]").get_attribute("data-held") == "false"
    assert trick_cards(page)[0]["card"] == "KC"
    assert not page_errors


COUNT_MOVES = """() => { window.__moved = 0; const tick = () => {
    window.__moved = Math.max(window.__moved, document.getAnimations().filter(
      a => !(a instanceof CSSTransition)).length); requestAnimationFrame(tick); }; tick(); }"""
"""Count, from every frame on, the most movements (Web Animations, not CSS hover transitions) seen at once."""


def test_speed_setting_remembered_and_reduced_motion_honoured(open_page, live_server, page_errors):
    page = tutorial_page(open_page, live_server, "en", speed=None)
    assert page.evaluate("() => document.documentElement.dataset.motion") == "normal"
    page.locator("[data-key=prefs]").click()
    page.locator("[data-key=pref-speed]").select_option("slow")
    page.reload()
    expect(page.locator("[data-testid=lesson]")).to_be_visible()
    page.locator("[data-key=prefs]").click()
    expect(page.locator("[data-key=pref-speed]")).to_have_value("slow")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('mushka.prefs')).speed") == "slow"
    assert page.evaluate("() => document.documentElement.dataset.motion") == "slow"
    # The two cards drawn come from the talon, the card played flies in: they move.
    page.locator("[data-key=tut-next]").click()
    page.evaluate(COUNT_MOVES)
    do_move(page, MOVES[0])
    do_move(page, MOVES[1])
    page.wait_for_function("() => window.__moved > 0", timeout=10_000)
    # With reduced motion asked by the system, nothing moves (the same speed stored).
    reduced = tutorial_page(open_page, live_server, "en", speed="slow", reduced_motion="reduce")
    assert reduced.evaluate("() => document.documentElement.dataset.motion") == "reduced"
    reduced.locator("[data-key=prefs]").click()
    expect(reduced.locator("[data-testid=reduced-motion]")).to_be_visible()
    reduced.locator("[data-key=tut-next]").click()
    reduced.evaluate(COUNT_MOVES)
    do_move(reduced, MOVES[0])
    do_move(reduced, MOVES[1])
    reduced.wait_for_timeout(600)
    assert reduced.evaluate("() => window.__moved") == 0
    assert not page_errors


def test_tab_title_says_your_turn_and_comes_back(open_page, live_server, page_errors):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "players": 3, "name": "Anna",
                                                   "seats": ["me", "me", "bot:random"], "start": True,
                                                   "listed": False, "options": NO_SPECIAL_HANDS})
    pages = [open_page(live_server.url + tok["url"].lstrip("/")) for tok in made["tokens"]]
    for page in pages:
        page.wait_for_selector("[data-testid=felt]")
    seen = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page = next((p for p in pages if p.locator(".me.to-act").count()), None)
        if page is None:
            time.sleep(0.1)
            continue
        other = pages[1 - pages.index(page)]
        expect(page).to_have_title(re.compile(r"^● Your turn"))
        expect(other).to_have_title("Mushka")
        act_once(page, random.Random(1), exchange=False)
        seen.add(pages.index(page))
        if felt(page)["toAct"] != str(pages.index(page)):
            expect(page).to_have_title("Mushka")
        if len(seen) == 2:
            break
    assert seen == {0, 1}
    assert not page_errors


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_russian_tabs_fit_on_one_line(open_page, live_server, page_errors, viewport):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "players": 4, "name": "Аня",
                                                   "seats": ["me", "bot:random", "bot:random", "bot:random"],
                                                   "start": True, "listed": False})
    page = open_page(live_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", "?lang=ru&table="),
                     viewport=viewport)
    expect(page.locator("[data-key=tab-last]")).to_have_text("Последняя взятка")
    boxes = page.eval_on_selector_all("[role=tab]", """els => els.map(e => {
        const r = e.getBoundingClientRect(); const lh = parseFloat(getComputedStyle(e).lineHeight) || 20;
        return {top: r.top, right: r.right, height: r.height, lines: (e.clientHeight - 12) / lh,
                clipped: e.scrollWidth > e.clientWidth}; })""")
    assert len(boxes) >= 4
    assert len({round(b["top"]) for b in boxes}) == 1, boxes  # one row
    assert all(b["lines"] < 1.6 and not b["clipped"] for b in boxes), boxes  # one line each, nothing cut
    width = page.eval_on_selector(".tabs", "t => t.getBoundingClientRect().right")
    assert max(b["right"] for b in boxes) <= width + 1
    assert not page_errors


def test_phone_deal_end_box_does_not_move_the_hand(open_page, live_server, page_errors, shot):
    page = tutorial_page(open_page, live_server, "ru", viewport=PHONE)
    page.locator("[data-key=tut-next]").click()
    for move in MOVES:
        do_move(page, move)
    notice = page.locator("[data-testid=deal-notice]")
    expect(notice).to_be_visible(timeout=20_000)
    # The next deal is dealt meanwhile (the box stays until dismissed).
    page.wait_for_function("() => document.querySelector('[data-testid=felt]').dataset.deal === '2'"
                           " && document.querySelectorAll('[data-testid=hand] button.card').length === 5")
    # Measured when the table waits for the player: the bots' moves of the new deal change
    # the seat boxes meanwhile, and only the box itself is to be compared.
    my_turn(page)
    shot(page, "notice")
    hand_top = "() => document.querySelector('[data-testid=me]').getBoundingClientRect().top + window.scrollY"
    # One frame for all three: a re-render between separate reads leaves an element without a box.
    with_notice, felt_box, box = page.evaluate(f"""() => [({hand_top})(),
        ...['felt', 'deal-notice'].map(id => {{
            const r = document.querySelector(`[data-testid=${{id}}]`).getBoundingClientRect();
            return {{y: r.top, height: r.height}}; }})]""")
    # The box lies over the felt, inside it, and is not under the hand.
    assert box["y"] >= felt_box["y"] - 1 and box["y"] + box["height"] <= felt_box["y"] + felt_box["height"] + 1
    page.locator("[data-key=dismiss-notice]").click()
    expect(notice).to_have_count(0)
    shot(page, "dismissed")
    assert felt(page)["toAct"] == "0"  # still the same moment of the deal
    without = page.evaluate(hand_top)
    assert abs(without - with_notice) < 2, (with_notice, without)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert not page_errors


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_table_size_fits_desktop_and_phone(open_page, live_server, page_errors, shot, players):
    made = live_server.api("POST", "api/tables", {"variant": "classic", "players": players, "name": "Anna",
                                                   "seats": ["me"] + ["bot:random"] * (players - 1),
                                                   "start": True, "listed": False})
    url = live_server.url + made["tokens"][0]["url"].lstrip("/")
    for name, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", PHONE)):
        page = open_page(url, viewport=viewport)
        wait_for_turn_or_end(page)
        shot(page, name)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        ring = page.locator(".trick.ring").bounding_box()
        felt_box = page.locator("[data-testid=felt]").bounding_box()
        assert ring and felt_box
        assert ring["x"] >= felt_box["x"] and ring["x"] + ring["width"] <= felt_box["x"] + felt_box["width"] + 1
        seats = page.eval_on_selector_all(".opponents .seat", """els => els.map(e => {
            const r = e.getBoundingClientRect(); return [r.left, r.right]; })""")
        assert len(seats) == players - 1
        right_edge = felt_box["x"] + felt_box["width"] + 1
        assert all(left >= felt_box["x"] - 1 and right <= right_edge for left, right in seats)
    assert not page_errors


def test_replay_autoplay_pauses_on_the_completed_trick(open_page, live_server, page_errors):
    """Autoplay stays longer on the position where a trick was taken (its cards and winner in view)."""
    from test_replay import store_finished

    from mushka.bots.base import RandomBot, play_game
    from mushka.match import new_game
    from mushka.records.format import record_of_game
    from mushka.rules import make_rules

    rng = random.Random(11)
    game = new_game(make_rules("classic", 3, initial_record=3), rng=rng.getrandbits(32))
    play_game(game, [RandomBot()] * 3, rng)
    table_id = f"rppause-{rng.getrandbits(30)}"
    store_finished(live_server, record_of_game(game, seats=["Anna", "Boris", "Vera"]), table_id)
    page = open_page(f"{live_server.url}?replay={table_id}", speed="normal")
    expect(page.locator("[data-testid=replay-caption]")).to_be_visible()
    # Note when each position came into view, and whether it completes a trick.
    page.evaluate("""() => { window.__seen = []; const note = () => {
        const step = document.querySelector('[data-testid=replay-step]');
        const trick = document.querySelector('[data-testid=replay-trick]');
        const key = step ? step.textContent : '';
        const last = window.__seen[window.__seen.length - 1];
        if (!last || last[0] !== key) window.__seen.push([key, performance.now(), trick ? trick.dataset.complete : '']);
        requestAnimationFrame(note); }; note(); }""")
    page.locator("[data-key=replay-play]").click()
    page.wait_for_function("() => window.__seen.filter(s => s[2] === 'true').length >= 2"
                           " && window.__seen[window.__seen.length - 1][2] !== 'true'", timeout=60_000)
    page.locator("[data-key=replay-play]").click()
    seen = page.evaluate("() => window.__seen")
    stays = [(b[1] - a[1], a[2]) for a, b in itertools.pairwise(seen[1:])]
    taken = [ms for ms, complete in stays if complete == "true"]
    plain = [ms for ms, complete in stays if complete != "true"]
    assert taken and plain
    assert min(taken) > max(plain) + 800, stays
    assert not page_errors
