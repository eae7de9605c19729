"""Driving the table page like a player: read where the game stands, act, wait.

Every wait is for a state of the page (an attribute, an element), never for
a fixed time.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from playwright.sync_api import Page, expect

from mushka.rules import Rules
from mushka.rules.texts import render_rules

FELT = "[data-testid=felt]"
MY_TURN = ".me.to-act"
NO_SPECIAL_HANDS = {"flush": "none", "privileged_four": "none"}
"""Options under which no special hand ends a partie at once (C22): the game reaches the player's turn."""


def felt(page: Page) -> dict[str, str]:
    """The game's position as the page shows it: phase, seat to act, deal, ply, over."""
    page.wait_for_selector(FELT)
    values: dict[str, str] = page.eval_on_selector(FELT, "el => ({...el.dataset})")
    return values


def hand(page: Page) -> list[str]:
    """The codes of the cards in the player's hand, left to right."""
    return page.eval_on_selector_all("[data-testid=hand] button.card", "els => els.map(e => e.dataset.card)")


def legal_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=hand] button.card.legal", "els => els.map(e => e.dataset.card)")


def wait_for_turn_or_end(page: Page, deal: str | None = None, timeout: float = 20_000) -> dict[str, str]:
    """Wait until it is this player's turn, the game is over, or (if given) the deal moved on."""
    page.wait_for_function(
        """([deal]) => {
            const f = document.querySelector('[data-testid=felt]');
            if (!f) return false;
            if (f.dataset.over === 'true') return true;
            if (deal !== null && f.dataset.deal !== deal) return true;
            return !!document.querySelector('.me.to-act');
        }""",
        arg=[deal], timeout=timeout,
    )
    return felt(page)


def wait_ply_after(page: Page, ply: int, timeout: float = 20_000) -> None:
    """Wait until the table has applied an action after ``ply``."""
    page.wait_for_function(
        "([ply]) => { const f = document.querySelector('[data-testid=felt]');"
        " return f && Number(f.dataset.ply) > ply; }", arg=[ply], timeout=timeout)


def act_once(page: Page, rng: random.Random, *, exchange: bool = True) -> str:
    """Make one sensible move by clicking, and wait until the server applied it.

    Returns what was done (``stand``, ``pass``, ``play KC`` …).
    """
    state = felt(page)
    ply = int(state["ply"])
    phase = state["phase"]
    if phase == "declare":
        stand = page.locator("[data-key=act-stand]")
        if exchange and rng.random() < 0.5:
            first = page.locator("[data-testid=hand] button.card.legal").first
            first.click()
            expect(first).to_have_attribute("aria-pressed", "true")
            expect(stand).to_contain_text("1")
            if stand.get_attribute("aria-disabled") == "true":
                first.click()
        if stand.get_attribute("aria-disabled") == "true":
            page.locator("[data-key=act-pass]").click()
            done = "pass"
        else:
            stand.click()
            done = "stand"
    elif phase == "redistribute":
        page.locator("[data-testid=hand] button.card.legal").first.click()
        done = "discard"
    else:
        legal = page.locator("[data-testid=hand] button.card.legal")
        if legal.count():
            card = legal.first.get_attribute("data-card")
            legal.first.click()
            done = f"play {card}"
        elif page.locator("[data-key=act-draw]:not([aria-disabled=true])").count():
            page.locator("[data-key=act-draw]").click()
            done = "draw"
        else:
            page.locator("[data-key=act-pass]").click()
            # K12: a pass that costs a remiz asks once more (the page's misclick guard).
            page.wait_for_function(
                """([ply]) => Number(document.querySelector('[data-testid=felt]').dataset.ply) > ply
                    || !!document.querySelector('[data-key=act-pass].armed')""", arg=[ply])
            if page.locator("[data-key=act-pass].armed").count():
                page.locator("[data-key=act-pass].armed").click()
            done = "pass"
    wait_ply_after(page, ply)
    return done


def record_frames(page: Page) -> list[str]:
    """Keep every WebSocket frame the page receives from now on (JSON text)."""
    frames: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else ""))

    page.on("websocket", on_socket)
    return frames


def parse_frames(frames: list[str]) -> list[dict[str, Any]]:
    out = []
    for text in frames:
        try:
            out.append(json.loads(text))
        except ValueError:
            continue
    return out


def card_strings(value: Any) -> set[str]:
    """Every JSON string that is a card code (``KC``) or names cards (``stand 7C QC``)."""
    out: set[str] = set()
    code = re.compile(r"^(?:stand|take|discard)?\s*((?:[2-9TJQKA][SCDH]\s*)+)$")
    if isinstance(value, str):
        match = code.match(value.strip())
        if match:
            out.update(match.group(1).split())
    elif isinstance(value, dict):
        for key, item in value.items():
            # The variant's privileged card (A♠, K♣) is a rule, not a card anybody holds.
            if key != "privileged":
                out |= card_strings(item)
    elif isinstance(value, list):
        for item in value:
            out |= card_strings(item)
    return out


def frames_cards(frames: list[str]) -> set[str]:
    """The card codes in a list of received WebSocket frames (JSON text)."""
    out: set[str] = set()
    for text in frames:
        try:
            out |= card_strings(json.loads(text))
        except ValueError:
            continue
    return out


def check_rule_button(page: Page, live_server: Any, lang: str) -> None:
    """The refusal's rule button opens that rule, worded as the engine words it for this table."""
    rule = page.locator("[data-testid=refusal] [data-key=see-rule]")
    found = re.search(r"(C|MI|K)\d+", rule.inner_text())
    assert found is not None
    rule_id = found.group(0)
    rule.click()
    table = live_server.api("GET", f"api/tables/{page_table(page)}")
    rules = Rules.make(table["variant"], table["players"], **table["options"])
    text = next(r.text for r in render_rules(rules, lang) if r.id == rule_id)
    shown = page.locator(f"[data-testid=rule-list] dd[data-rule={rule_id}]")
    expect(shown).to_have_text(text)
    expect(shown).to_have_class(re.compile("highlight"))


def page_table(page: Page) -> str:
    found = re.search(r"table=([^&#]+)", page.url)
    assert found is not None
    return found.group(1)
