"""The table as a card room (issue 35): SVG card faces, the phone's first screen, the keyboard
starting in the hand, two taps to play, the four-colour deck, the themes, the sounds, and the
end-of-deal box that leaves the other seats in view (B5, B12, B13)."""

from __future__ import annotations

import json
import random
import re

import pytest
from e2ekit import NO_SPECIAL_HANDS, act_once, felt, wait_for_turn_or_end, wait_ply_after
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PREFS = """try {{ const p = JSON.parse(localStorage.getItem("mushka.prefs") || "{{}}");
  Object.assign(p, {prefs}); localStorage.setItem("mushka.prefs", JSON.stringify(p)); }} catch (e) {{}}"""


def bot_table(live_server, variant: str = "classic", players: int = 4, lang: str = "en") -> str:
    made = live_server.api("POST", "api/tables", {
        "variant": variant, "players": players, "name": "Anna", "seats": ["me"] + ["bot:random"] * (players - 1),
        "start": True, "listed": False, "options": NO_SPECIAL_HANDS if variant != "kopilka" else {}})
    return live_server.url + made["tokens"][0]["url"].lstrip("/").replace("?table=", f"?lang={lang}&table=")


def with_prefs(**prefs: object):
    """A `before` hook for open_page that saves the page's settings before it loads."""
    return lambda page: page.add_init_script(PREFS.format(prefs=json.dumps(prefs)))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("variant", ["classic", "kopilka"])
def test_b5_phone_first_screen_holds_the_seats_the_trick_the_hand_and_the_actions(
        open_page, live_server, page_errors, shot, lang, variant):
    page = open_page(bot_table(live_server, variant, lang=lang), viewport=PHONE)
    wait_for_turn_or_end(page)
    expect(page.locator(".me.to-act")).to_be_visible()
    shot(page, "first-screen")
    # The actions of the moment (none when a card is all there is to choose, as in kopilka's sharing out).
    boxes = page.evaluate("""() => Object.fromEntries(['.opponents', '.trick-box', '[data-testid=hand]', '.me .actions']
        .filter(sel => document.querySelector(sel))
        .map(sel => { const r = document.querySelector(sel).getBoundingClientRect();
                      return [sel, {top: r.top, bottom: r.bottom}]; }))""")
    assert {".opponents", ".trick-box", "[data-testid=hand]"} <= set(boxes)
    assert page.evaluate("() => window.scrollY") == 0
    for sel, box in boxes.items():
        assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], (sel, box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page_errors


def test_cards_are_drawn_in_svg_with_legible_indices(open_page, live_server, page_errors):
    page = open_page(bot_table(live_server), viewport=PHONE)
    wait_for_turn_or_end(page)
    faces = page.eval_on_selector_all("[data-testid=hand] button.card", """els => els.map(e => {
        const svg = e.querySelector('svg.card-face'); const idx = svg && svg.querySelector('.card-index text');
        const r = idx && idx.getBoundingClientRect();
        return {svg: !!svg, rank: idx && idx.textContent, height: r ? r.height : 0,
                label: e.getAttribute('aria-label')}; })""")
    assert len(faces) == 5
    for face in faces:
        assert face["svg"] and face["rank"] and face["label"]
        assert face["height"] >= 10, face  # the index of a phone's hand is at least 10 px tall
    assert not page_errors


def test_b12_the_keyboard_starts_in_the_hand(open_page, live_server, page_errors):
    page = open_page(bot_table(live_server), viewport=DESKTOP)
    wait_for_turn_or_end(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('[data-testid=hand]')")
    focused = page.evaluate("() => document.activeElement.dataset.card")
    assert focused in page.eval_on_selector_all("[data-testid=hand] button.card", "els => els.map(e => e.dataset.card)")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => !!document.activeElement.closest('[data-testid=hand]')")
    assert not page_errors


def test_confirm_each_card_plays_on_the_second_click(open_page, live_server, page_errors):
    page = open_page(bot_table(live_server), viewport=DESKTOP, before=with_prefs(confirmCard=True))
    rng = random.Random(3)
    for _ in range(20):
        state = wait_for_turn_or_end(page)
        if state["phase"] == "play" and page.locator("[data-testid=hand] button.card.legal").count():
            break
        if state["over"] == "true":
            pytest.fail("the game ended before a trick")
        act_once(page, rng, exchange=False)
    else:
        pytest.fail("no trick to play")
    ply = int(felt(page)["ply"])
    card = page.locator("[data-testid=hand] button.card.legal").first
    code = card.get_attribute("data-card")
    card.click()
    armed = page.locator(f"[data-testid=hand] button.card[data-card='{code}']")
    expect(armed).to_have_class(re.compile(r"\barmed\b"))
    expect(page.locator("[data-testid=hand-hint]")).to_contain_text("again")
    assert int(felt(page)["ply"]) == ply  # nothing was sent
    armed.click()
    wait_ply_after(page, ply)
    expect(page.locator(f"[data-testid=hand] button.card[data-card='{code}']")).to_have_count(0)
    assert not page_errors


def test_a_finger_selects_a_card_with_one_tap_and_plays_it_with_the_next(open_page, live_server, page_errors):
    page = open_page(bot_table(live_server), viewport=PHONE, has_touch=True)
    rng = random.Random(4)
    for _ in range(20):
        state = wait_for_turn_or_end(page)
        assert state["over"] == "false"
        if state["phase"] == "play" and page.locator("[data-testid=hand] button.card.legal").count() >= 1:
            break
        act_once(page, rng, exchange=False)
    else:
        pytest.fail("no trick to play")
    ply = int(felt(page)["ply"])
    code = page.locator("[data-testid=hand] button.card.legal").first.get_attribute("data-card")
    card = page.locator(f"[data-testid=hand] button.card[data-card='{code}']")
    card.tap()
    expect(card).to_have_class(re.compile(r"\barmed\b"))
    expect(page.locator("[data-testid=hand-hint]")).to_contain_text("Tap")
    assert int(felt(page)["ply"]) == ply  # one tap sends nothing
    card.tap()
    wait_ply_after(page, ply)
    expect(card).to_have_count(0)
    assert not page_errors


def test_settings_four_colours_dark_theme_and_sounds(open_page, live_server, page_errors):
    page = open_page(bot_table(live_server, lang="ru"), viewport=DESKTOP)
    wait_for_turn_or_end(page)
    page.locator("[data-key=prefs]").click()
    page.select_option("[data-key=pref-deck]", "four")
    assert page.evaluate("() => document.documentElement.dataset.deck") == "four"
    colours = page.evaluate("""() => { const el = document.createElement('span');
        el.className = 'card suit-D'; document.querySelector('.felt').append(el);
        const d = getComputedStyle(el).color; el.className = 'card suit-C'; const c = getComputedStyle(el).color;
        el.className = 'card suit-H red'; const hh = getComputedStyle(el).color; el.remove(); return [d, c, hh]; }""")
    assert len(set(colours)) == 3, colours  # diamonds, clubs and hearts each their own colour
    page.select_option("[data-key=pref-theme]", "dark")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == "rgb(27, 28, 30)"
    page.select_option("[data-key=pref-theme]", "light")
    assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") == "rgb(244, 241, 234)"
    effects = page.locator("[data-key=pref-effects]")
    expect(effects).not_to_be_checked()
    effects.check()
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('mushka.prefs'))")
    assert saved["effects"] is True and saved["deck"] == "four" and saved["theme"] == "light"
    page.reload()
    wait_for_turn_or_end(page)
    assert page.evaluate("() => document.documentElement.dataset.deck") == "four"  # kept
    assert not page_errors


THEME_COLOURS = """() => { const el = document.createElement('span'); el.className = 'card';
    document.querySelector('.felt').append(el); const card = getComputedStyle(el).backgroundColor; el.remove();
    const root = getComputedStyle(document.documentElement);
    return [root.backgroundColor, root.color, card]; }"""


def test_the_systems_dark_theme_is_the_settings_dark_theme(open_page, live_server, page_errors):
    # One palette: dark by the system's choice and dark by the settings give the same colours,
    # the cards' included; the settings win over the system.
    page = open_page(bot_table(live_server, lang="en"), viewport=DESKTOP)
    wait_for_turn_or_end(page)
    page.emulate_media(color_scheme="light")
    light = page.evaluate(THEME_COLOURS)
    page.emulate_media(color_scheme="dark")
    by_system = page.evaluate(THEME_COLOURS)
    assert by_system[0] == "rgb(27, 28, 30)" and by_system != light, (by_system, light)
    page.emulate_media(color_scheme="light")
    page.locator("[data-key=prefs]").click()
    page.select_option("[data-key=pref-theme]", "dark")
    assert page.evaluate(THEME_COLOURS) == by_system
    page.emulate_media(color_scheme="dark")
    page.select_option("[data-key=pref-theme]", "light")
    assert page.evaluate(THEME_COLOURS) == light
    assert not page_errors


SOUNDS = """async () => {
  const { soundFor } = await import('./js/sound.js');
  const deal = (trick, tricks) => ({ trick, tricks });
  const v = (number, history, d) => ({ number, history, deal: d });
  const one = [[0, 'KC']];
  const done = [{ winner: 0, cards: [[0, 'KC'], [1, 'AC']] }];
  return [
    soundFor(v(1, [], deal([], [])), v(1, [], deal(one, []))),
    soundFor(v(1, [], deal(one, [])), v(1, [], deal([], done))),
    soundFor(v(1, [], deal([], done)), v(2, [{}], deal([], []))),
    soundFor(v(1, [], deal(one, [])), v(1, [], deal(one, []))),
    soundFor(null, v(1, [], deal(one, []))),
  ];
}"""


def test_the_sounds_follow_the_difference_of_two_views(open_page, live_server, page_errors):
    page = open_page(live_server.url)
    page.wait_for_selector("#view-lobby:not([hidden])")
    assert page.evaluate(SOUNDS) == ["card", "trick", "deal", None, None]
    assert not page_errors


def test_b13_the_deal_end_box_leaves_the_other_seats_in_view(open_page, live_server, page_errors, shot):
    page = open_page(bot_table(live_server, players=3), viewport=DESKTOP)
    rng = random.Random(5)
    first = wait_for_turn_or_end(page)["deal"]
    for _ in range(60):
        state = wait_for_turn_or_end(page, first)
        if state["deal"] != first or state["over"] == "true":
            break
        act_once(page, rng, exchange=False)
    assert state["over"] == "false", "the partie ended in its first deal"
    notice = page.locator("[data-testid=deal-notice]")
    expect(notice).to_be_visible()
    shot(page, "notice")
    box, felt_box, seats = page.evaluate("""() => {
        const rect = (el) => { const r = el.getBoundingClientRect();
                               return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
        return [rect(document.querySelector('[data-testid=deal-notice]')),
                rect(document.querySelector('[data-testid=felt]')),
                [...document.querySelectorAll('[data-testid=felt] .seat')].map(rect)]; }""")
    assert len(seats) == 2
    for seat in seats:  # no seat lies under the box: each is above it, or beside it
        apart = (seat["bottom"] <= box["top"] or seat["top"] >= box["bottom"]
                 or seat["right"] <= box["left"] or seat["left"] >= box["right"])
        assert apart, (seat, box)
    assert box["bottom"] <= felt_box["bottom"] + 1  # and the box stays on the felt
    assert not page_errors


@pytest.mark.parametrize("variant", ["classic", "kopilka"])
def test_b9_a_russian_rules_panel_has_words_not_codes(open_page, live_server, page_errors, variant):
    page = open_page(bot_table(live_server, variant, lang="ru"), viewport=DESKTOP)
    wait_for_turn_or_end(page)
    page.locator("[data-key=tab-rules]").click()
    expect(page.locator("[data-testid=rule-list] dt").first).to_be_visible()
    heads = " ".join(page.locator("[data-testid=rule-list] dt").all_inner_texts())
    for tag in ("SEED", "DEC", "XC"):
        assert tag not in heads, tag
    assert "наш выбор" in heads and "из старинного описания" in heads
    values = dict(zip(page.eval_on_selector_all("[data-option]", "els => els.map(e => e.dataset.option)"),
                      page.eval_on_selector_all("[data-option] .option-value", "els => els.map(e => e.textContent)"),
                      strict=True))
    raw = {"auto", "deck_by_players", "ace_high", "mistigri", "redeal", "same_dealer", "as_flush", "remiz",
           "side_payment", "wins_mushka", "penalty", "modern", "ante"}
    for name, value in values.items():
        assert value not in raw and not re.fullmatch(r"[A-Z0-9:,]{5,}", value), (name, value)
    if variant == "classic":
        assert values["deck_by_players"].startswith("3 игрока: 32 карты")
        assert values["rank_order"].startswith("туз старший")
    else:
        assert values["suit_values"].startswith("♥ 4 · ♣ 3")
    assert not page_errors


def test_the_others_sit_round_the_felt_and_the_last_trick_stays_in_sight(open_page, live_server, page_errors, shot):
    page = open_page(bot_table(live_server, players=4), viewport=DESKTOP)
    rng = random.Random(7)
    for _ in range(40):
        state = wait_for_turn_or_end(page)
        assert state["over"] == "false"
        # A trick under way (not the last one still shown), after the first.
        if (state["phase"] == "play" and int(state["tricks"]) >= 1
                and page.locator(".trick.ring:not(.done) [data-testid=trick-card]").count()):
            break
        act_once(page, rng, exchange=False)
    else:
        pytest.fail("no second trick begun")
    shot(page, "round")
    places = page.evaluate("""() => {
        const centre = (el) => { const r = el.getBoundingClientRect();
                                 return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
        const ring = centre(document.querySelector('.trick.ring'));
        const seats = Object.fromEntries([...document.querySelectorAll('[data-testid=felt] .seat')]
            .map(e => [e.dataset.seat, {box: centre(e), side: e.parentElement.dataset.side}]));
        const cards = Object.fromEntries([...document.querySelectorAll('[data-testid=trick-card]')]
            .map(e => [e.dataset.seat, centre(e)]));
        return {ring, seats, cards}; }""")
    ring, seats, cards = places["ring"], places["seats"], places["cards"]
    me = int(page.evaluate("() => document.querySelector('[data-testid=me]').dataset.anim.split('-')[1]"))
    assert {s["side"] for s in seats.values()} == {"left", "top", "right"}
    assert seats[str((me + 1) % 4)]["side"] == "left" and seats[str((me + 3) % 4)]["side"] == "right"
    for seat, where in seats.items():
        x, y = where["box"]
        if where["side"] == "left":
            assert x < ring[0]
        elif where["side"] == "right":
            assert x > ring[0]
        else:
            assert y < ring[1]
        if seat in cards:  # its card lies on its side of the trick
            cx, cy = cards[seat]
            if where["side"] == "left":
                assert cx < ring[0]
            elif where["side"] == "right":
                assert cx > ring[0]
            else:
                assert cy < ring[1]
    strip = page.locator("[data-testid=last-strip]")
    expect(strip).to_be_visible()
    assert 2 <= strip.locator(".card").count() <= 4  # the seats that played the trick (C7: not who passed)
    assert strip.locator(".card.winner").count() == 1
    strip.click()
    expect(page.locator("[data-key=tab-last]")).to_have_attribute("aria-selected", "true")
    assert not page_errors
