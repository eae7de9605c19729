"""The page for people: Russian, a phone-sized screen, the keyboard, the help."""

from __future__ import annotations

import random
import re

import pytest
from e2ekit import act_once, check_rule_button, felt, hand, wait_for_turn_or_end, wait_ply_after
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

RU_CARD = re.compile(r"^(двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка|девятка|десятка"
                     r"|валет|дама|король|туз) (пик|треф|бубён|червей)")


def test_russian_interface(open_page, live_server, shot, page_errors):
    page = open_page(live_server.url)
    expect(page.locator("#new-game-title")).to_have_text("New game")
    page.locator(".lang-btn[data-lang=ru]").click()
    expect(page.locator("#new-game-title")).to_have_text("Новая игра")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.reload()  # the choice is remembered
    expect(page.locator("#new-game-title")).to_have_text("Новая игра")
    expect(page.locator(".variant-choice")).to_contain_text("Мушка-копилка")
    page.locator("[data-key=options-summary]").click()
    expect(page.locator(".option-list")).to_contain_text("ремиз")  # option help from the server, in Russian
    page.fill("[data-option=remiz]", "много")
    page.locator("[data-option=remiz]").dispatch_event("change")
    page.locator("[data-key=play-now]").click()
    error = page.locator("[data-testid=form-error]")
    expect(error).to_contain_text("remiz")
    expect(error).to_contain_text("настройка")  # the server's refusal, in Russian
    shot(page, "lobby-ru-error")
    page.fill("[data-option=remiz]", "")
    page.locator("[data-option=remiz]").dispatch_event("change")
    page.select_option("#bot", "random")
    page.fill("#player-name", "Маша")
    page.locator("[data-key=options-summary]").click()
    # No special hand may end the partie at the first deal (C22), before the player's turn.
    page.select_option("[data-option=flush]", "none")
    page.select_option("[data-option=privileged_four]", "none")
    page.locator("[data-key=play-now]").click()
    expect(page.locator("[data-testid=who-am-i]")).to_contain_text("Маша")
    wait_for_turn_or_end(page)
    expect(page.locator("[data-testid=status]")).to_contain_text("Ваш ход")
    label = page.locator("[data-testid=hand] button.card").first.get_attribute("aria-label")
    assert RU_CARD.match(label), label
    page.locator("[data-key=tab-log]").click()
    expect(page.locator("[data-testid=log]")).to_contain_text("Сдача 1")  # the server's events in Russian
    rng = random.Random(8)
    for _ in range(30):
        state = wait_for_turn_or_end(page)
        illegal = page.locator("[data-testid=hand] button.card.illegal")
        if state["phase"] == "play" and illegal.count():
            illegal.first.click(force=True)
            expect(page.locator("[data-testid=refusal]")).to_contain_text("Нельзя")
            expect(page.locator("[data-testid=refusal]")).to_contain_text("сейчас нельзя сыграть")
            shot(page, "table-ru-refusal")
            check_rule_button(page, live_server, "ru")
            page.locator("[data-key=tab-log]").click()
            break
        act_once(page, rng)
    # Back to English: the server resends its texts in English.
    page.locator(".lang-btn[data-lang=en]").click()
    expect(page.locator("[data-testid=log]")).to_contain_text(re.compile(r"Deal \d"))
    assert not page_errors


def test_phone_screen_and_keyboard(open_page, live_server, shot, page_errors):
    page = open_page(live_server.url, viewport={"width": 360, "height": 640})
    expect(page.locator("#new-game-title")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "lobby-phone")
    page.fill("#player-name", "Petya")
    page.select_option("#bot", "random")
    page.locator("[data-key=options-summary]").click()
    page.select_option("[data-option=flush]", "none")
    page.select_option("[data-option=privileged_four]", "none")
    page.locator("[data-key=play-now]").click()
    state = wait_for_turn_or_end(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "the table scrolls sideways"
    for box in page.locator("[data-testid=hand] button.card").all():
        b = box.bounding_box()
        assert b and b["x"] >= 0 and b["x"] + b["width"] <= 360
    shot(page, "table-phone")

    # The help lists the shortcuts.
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    expect(page.locator("#help-list")).to_contain_text("pass")
    page.keyboard.press("Escape")
    expect(page.locator("#help-dialog")).to_be_hidden()

    rng = random.Random(9)
    deal = state["deal"]
    while state["phase"] != "declare":
        act_once(page, rng)
        state = wait_for_turn_or_end(page)
    # Arrow keys move along the hand; "1" selects the first card, Escape clears, "s" stands.
    page.locator("[data-testid=hand] button.card").first.focus()
    page.keyboard.press("ArrowRight")
    second = hand(page)[1]
    assert page.evaluate("document.activeElement.dataset.card") == second
    page.keyboard.press("1")
    expect(page.locator("[data-testid=hand] button.card").first).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-key=act-stand]")).to_contain_text("1")
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=hand] button.card").first).to_have_attribute("aria-pressed", "false")
    ply = int(felt(page)["ply"])
    page.keyboard.press("s")
    wait_ply_after(page, ply)
    # In trick play a digit plays that card; Enter plays the focused one.
    for _ in range(12):
        state = wait_for_turn_or_end(page, deal)
        if state["deal"] != deal or state["over"] == "true" or state["phase"] != "play":
            break
        cards = hand(page)
        legal = page.eval_on_selector_all("[data-testid=hand] button.card.legal", "els => els.map(e => e.dataset.card)")
        ply = int(state["ply"])
        index = cards.index(legal[0])
        if index % 2:
            page.keyboard.press(str(index + 1))
        else:
            page.locator(f"[data-testid=hand] button.card[data-card='{legal[0]}']").focus()
            page.keyboard.press("Enter")
        wait_ply_after(page, ply)
        if felt(page)["deal"] == deal:
            assert legal[0] not in hand(page)
        else:
            # That card ended the deal: the next deal's hand may hold it again, and the
            # finished deal's last trick, shown until dismissed, holds it.
            notice = page.locator("[data-testid=deal-notice]")
            expect(notice.locator(f"[data-card='{legal[0]}']")).to_have_count(1)
    shot(page, "table-phone-after")
    assert not page_errors
