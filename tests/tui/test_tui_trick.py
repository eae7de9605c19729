"""The terminal's trick: each card on its seat's line, the leader and the winner marked; the trick
just taken stays in view, and the bots wait a moment longer before the next lead (issue 10)."""

from __future__ import annotations

from pathlib import Path

from test_tui_app import run
from textual.pilot import Pilot

from mushka.server.tutorial import BOT_SCRIPTS, DEALER, ScriptBot, tutorial_deck, tutorial_rules
from mushka.tui import render
from mushka.tui.app import PlayApp
from mushka.tui.moves import hand_in_order
from mushka.tui.table import TerminalTable


def tutorial_table() -> TerminalTable:
    """The tutorial's stacked deal (server/tutorial.py): the dealer, seat 3, trumps the first trick."""
    rules = tutorial_rules()
    bots = [None] + [ScriptBot(BOT_SCRIPTS[s]) for s in (1, 2, 3)]
    return TerminalTable(rules, bots, human=0, seed=1, first_dealer=DEALER, decks=[tutorial_deck(rules)])


def drive_bots(table: TerminalTable, *, until_tricks: int | None = None) -> None:
    while not table.human_to_act and not table.is_over:
        if until_tricks is not None and len(table.view().deal.tricks) >= until_tricks:
            return
        seat = table.bot_to_act
        assert seat is not None
        table.act(table.choose(seat), seat)


def after_first_trick() -> TerminalTable:
    """The tutorial table once its first trick is taken (the dealer trumps the player's K♥)."""
    table = tutorial_table()
    table.act(table.game.deal.read_action("stand 6C 7C"), 0)
    drive_bots(table)
    table.act(table.game.deal.read_action("KH"), 0)
    drive_bots(table, until_tricks=1)
    return table


def line_of(panel: str, name: str) -> str:
    return next(line for line in panel.splitlines() if name in line)


def test_c15_the_trick_just_taken_stays_on_the_seats_lines_with_its_winner() -> None:
    table = after_first_trick()
    view = table.view()
    assert not view.deal.trick and len(view.deal.tricks) == 1
    names = [render.seat_name(table.names, s, 0, "en") for s in range(4)]
    panel = render.table_panel(view, table.names, 0, "en").plain
    assert "K♥" in line_of(panel, names[0]) and "led" in line_of(panel, names[0])
    assert "8♥" in line_of(panel, names[2])
    dealer = line_of(panel, names[3])
    assert "9♦" in dealer and render.TAKES_MARK in dealer and "takes the trick" in dealer
    assert render.TAKES_MARK not in line_of(panel, names[0])
    ru = render.table_panel(view, table.names, 0, "ru").plain
    assert "берёт взятку" in ru


def test_bots_pause_before_leading_after_a_trick(tmp_path: Path) -> None:
    table = tutorial_table()
    app = PlayApp(table, lang="en", delay=0, trick_pause=600, save_path=tmp_path / "game.json")

    async def scenario(pilot: Pilot[object]) -> None:
        await pilot.press("s")  # stand, no exchange: the script's bots do not care
        for _ in range(200):
            await pilot.pause()
            if table.human_to_act:
                break
        assert table.human_to_act
        hand = [c.code for c in hand_in_order(table.view().deal)]
        await pilot.press(str(hand.index("KH") + 1), "enter")
        for _ in range(400):
            await pilot.pause()
            if len(table.view().deal.tricks) == 1:
                break
        for _ in range(50):
            await pilot.pause()
        # The dealer took the trick and would lead; he waits (600 s here) with the trick in view.
        deal = table.view().deal
        assert len(deal.tricks) == 1 and not deal.trick and not app.idle
        assert render.TAKES_MARK in app.shown("table").plain
        await pilot.press("q", "y")

    run(app, scenario)


def test_last_trick_panel_names_the_players_not_their_numbers() -> None:
    """The narrow panel reads "2 Mitya 8♥", its winner marked, in both languages (issue 10)."""
    table = after_first_trick()
    view = table.view()
    trick = view.deal.tricks[-1]
    for lang in ("en", "ru"):
        panel = render.last_trick_panel(view, table.names, 0, lang).plain
        body = panel.splitlines()[1:-1]
        assert len(body) == (len(trick.cards) + 1) // 2
        assert all(len(line) <= 27 for line in body), body
        for seat, card in trick.cards:
            name = render.seat_name(table.names, seat, 0, lang)[:render.LAST_NAME].rstrip()
            line = line_of(panel, name)
            assert card.display(lang) in line
            assert (render.TAKES_MARK in line.split(card.display(lang))[1][:1]) == (seat == trick.winner)
        assert not [w for w in panel.split() if ":" in w], panel
