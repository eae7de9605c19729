"""The terminal table as a card player expects it (issue 10): the right key after the
last deal, rules cited for the variant at hand, marks refused at once, keys of the
variant only, and kopilka's money explained down to the pot taken at the end."""

from __future__ import annotations

import random
import re
from pathlib import Path

from rich.text import Text
from test_tui_app import FLUSH_STACK, STACK_DEALER_0, make_app, run, settle
from textual.pilot import Pilot

from mushka.cards import Card
from mushka.match import new_game
from mushka.rules import make_rules
from mushka.tui import render, sheets
from mushka.tui.moves import Selection, hand_in_order
from mushka.tui.screens import TextScreen

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def test_c22_summary_of_the_last_deal_leads_to_the_result(tmp_path: Path) -> None:
    """A мушка at the deal ends the partie: the summary cites C22 (not MI13), shows nobody
    as "pass" who never declared, reads in English only, and Enter leads to the result."""
    app = make_app(tmp_path, "classic", 4, human=0, first_dealer=0, decks=[FLUSH_STACK])

    async def scenario(pilot: Pilot[object]) -> None:
        screen = app.screen
        assert isinstance(screen, TextScreen) and screen.kind == "summary"
        body = screen.body.plain
        assert "(C22)" in body and "MI13" not in body
        assert "pass" not in body, body
        assert not CYRILLIC.search(body), body
        keys = " ".join(str(w.content) for w in screen.query("Static"))
        assert "the result" in keys and "next deal" not in keys
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "over"
        assert not CYRILLIC.search(app.screen.body.plain)
        await pilot.press("enter", "q")

    run(app, scenario)


def test_mi5_space_refuses_to_mark_the_king_of_clubs_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path, "mistigri", 4, human=0, first_dealer=0, decks=[STACK_DEALER_0])

    async def scenario(pilot: Pilot[object]) -> None:
        hand = hand_in_order(app.table.view().deal)
        await pilot.press(str(hand.index(Card("KC")) + 1), "space")
        assert app.shown("message").plain.startswith("MI5:")
        assert Card("KC") not in app.selection.marked
        assert render.EXCHANGE_MARK not in app.shown("hand").plain
        await pilot.press("q")

    run(app, scenario)


def test_key_bar_offers_only_the_keys_of_the_variant() -> None:
    for variant, absent, present in (("kopilka", ("stand", "take", "mark"), ("draw",)),
                                     ("classic", ("draw",), ("stand", "take", "mark"))):
        game = new_game(make_rules(variant, 4), rng=1, first_dealer=0)
        bar = render.key_bar(game.view(0), Selection(), "en").plain  # the dealer's: he may take (C6)
        for word in absent:
            assert f" {word}" not in bar, (variant, bar)
        for word in present:
            assert f" {word}" in bar, (variant, bar)


def test_k3_k22_k23_kopilka_money_adds_up_to_the_pot_taken_at_the_end() -> None:
    rules = make_rules("kopilka", 4)
    for seed in range(3):
        game = new_game(rules, rng=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        result = game.result
        assert result is not None
        history = game.view(0).history
        names = ["heuristic"] * 4
        panel = sheets.game_over_panel(result, rules, names, 0, "en", None, history)
        lines = panel.plain.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("How the money was made"))
        rows = [line for line in lines[start + 2:start + 6]]
        for seat, row in enumerate(rows):
            ante, games, pot, money = (int(x) for x in row.split()[-4:])
            assert ante == -rules.ante and pot == result.settlement[seat]
            assert ante + games + pot == money == result.money[seat], row
        assert any(x != 0 for x in result.settlement), "K23: somebody takes the pot (or it is shared)"
        assert isinstance(panel, Text)
