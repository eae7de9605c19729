"""Terminal play driven by keystrokes through Textual's Pilot.

Each test plays real deals with random bots at pace 0 and checks what the
screen shows against the engine (hand order, legal marks, score sheet) and
that the saved record replays to the same game.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from mushka.bots import RandomBot
from mushka.cards import Card
from mushka.engine import Action, Phase
from mushka.engine.refusal import refusal_words
from mushka.errors import IllegalActionError
from mushka.i18n import tr
from mushka.match import Game
from mushka.records import Record, replay
from mushka.rules import make_rules
from mushka.tui import PlayApp, TerminalTable, render, sheets
from mushka.tui.moves import hand_in_order
from mushka.tui.screens import ActionInputScreen, ConfirmScreen, TextScreen

SIZE = (80, 24)


def make_app(tmp_path: Path, variant: str = "classic", players: int | None = None, *, seed: int = 5,
             human: int = 0, lang: str = "en", options: dict[str, object] | None = None,
             **table_kw: object) -> PlayApp:
    rules = make_rules(variant, players, **(options or {}))
    bots = [None if s == human else RandomBot() for s in range(rules.players)]
    table = TerminalTable(rules, bots, human=human, seed=seed, **table_kw)  # type: ignore[arg-type]
    return PlayApp(table, lang=lang, delay=0, save_path=tmp_path / "game.json")


def run(app: PlayApp, scenario: Callable[[Pilot[object]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await scenario(pilot)

    asyncio.run(main())


async def settle(pilot: Pilot[object]) -> None:
    """Let the bots move until the game waits for a key."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    for _ in range(20_000):
        await pilot.pause()
        if app.idle:
            return
    raise AssertionError("the game never came to wait for the human")


def card_styles(text: Text, cards: list[Card], lang: str) -> dict[Card, list[str]]:
    """The style words of each card's label in a rendered hand."""
    out: dict[Card, list[str]] = {}
    for span in text.spans:
        label = text.plain[span.start:span.end]
        for card in cards:
            if label == card.display(lang):
                out[card] = str(span.style).split()
    return out


def check_hand_shown(app: PlayApp) -> None:
    """The hand is shown in suit and variant rank order, legal cards bright, the others dim."""
    deal = app.table.view().deal
    lang = app.lang
    hand = hand_in_order(deal)
    shown = app.shown("hand")
    tokens = shown.plain.split()
    assert all(c.display(lang) in tokens for c in hand), (tokens, hand, app.table.view().number)
    positions = [tokens.index(c.display(lang)) for c in hand]
    assert positions == sorted(positions)
    assert len(hand) == len(deal.hand)
    styles = card_styles(shown, hand, lang)
    assert set(styles) == set(hand)
    engine = app.table.game.deal
    for card in hand:
        if deal.phase is Phase.PLAY:
            legal = engine.is_legal(Action.play(card), app.table.human)
        elif deal.phase is Phase.DECLARE:
            legal = engine.is_legal(Action.stand(card), app.table.human)
        else:
            legal = engine.is_legal(Action.discard(card), app.table.human)
        word = render.ACTIVE_STYLE if legal else render.INACTIVE_STYLE
        assert word in styles[card], (card, styles[card], legal)


def check_score_shown(app: PlayApp) -> None:
    view = app.table.view()
    score = app.shown("score").plain.splitlines()
    names = app.table.names
    for seat in range(app.table.rules.players):
        name = render.seat_name(names, seat, app.table.human, app.lang)
        row = next(line for line in score if line.startswith(name))
        if app.table.rules.has_trumps and sheets.has_side_account(app.table.rules):
            # C16 and MI9/C22: the record, then the side account of flush payments.
            assert row.split()[-2:] == [str(view.records[seat]), f"{view.side[seat]:+d}"]
        elif app.table.rules.has_trumps:
            assert row.split()[-1] == str(view.records[seat])
        else:
            assert row.split()[-1] == f"{view.money[seat]:+d}"
    if not app.table.rules.has_trumps:
        assert str(view.pot) in score[0]


async def human_turn(pilot: Pilot[object], app: PlayApp) -> None:
    """Play the human's turn with keys: exchange the first card, follow with the last legal card,
    draw or pass when nothing can be played, discard the first card after a K7 take."""
    deal = app.table.view().deal
    hand = hand_in_order(deal)
    engine = app.table.game.deal
    seat = app.table.human
    if deal.phase is Phase.DECLARE:
        exchangeable = [c for c in hand if engine.is_legal(Action.stand(c), seat)]
        if exchangeable:
            await pilot.press(*card_keys(hand.index(exchangeable[0])), "space")
        await pilot.press("s")
    elif deal.phase is Phase.REDISTRIBUTE:
        await pilot.press("1", "enter")
    else:
        legal = [c for c in hand if engine.is_legal(Action.play(c), seat)]
        if legal:
            await pilot.press(*card_keys(hand.index(legal[-1])), "enter")
        elif engine.is_legal(Action.draw(), seat):
            await pilot.press("d")
        else:
            await pilot.press("p")
    await settle(pilot)


def replayed_game(path: Path) -> Game:
    game = replay(Record.loads(path.read_text(encoding="utf-8")))
    assert isinstance(game, Game)
    return game


def card_keys(index: int) -> list[str]:
    """The keys that put the cursor on the card at ``index`` (from 0): 1-9, 0 for the tenth, then arrows."""
    if index < 9:
        return [str(index + 1)]
    return ["0", *["right"] * (index - 9)]


# --- whole deals and games --------------------------------------------------------------


def test_c7_c14_c17_whole_classic_deal_by_keys_then_quit_saves_a_record_that_replays(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, seed=11)
    seen: dict[str, object] = {"turns": 0}

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        while table.finished_deals == 0:
            assert table.human_to_act
            check_hand_shown(app)
            check_score_shown(app)
            seen["turns"] = int(seen["turns"]) + 1  # type: ignore[call-overload]
            await human_turn(pilot, app)
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "summary"
        summary = app.screen.query_one("#body", Static).content
        assert isinstance(summary, Text)
        records = table.game.records  # type: ignore[attr-defined]
        for seat in range(4):
            name = render.seat_name(table.names, seat, 0, "en")
            row = next(line for line in summary.plain.splitlines() if line.startswith(name))
            # Seat, tricks, change, then the record (the why follows it).
            assert row[render.NAME_WIDTH + 1:].split()[2] == str(records[seat]), row
        await pilot.press("enter")
        await settle(pilot)
        check_score_shown(app)
        # The log holds the first deal as the human saw it, then the second deal's start.
        log = " ".join(app.shown("log").plain.split())
        result = table.game.finished[0].result
        said = render.log_names(table.names, table.human, "en")
        assert result is not None and " ".join(result.summary("en", said).split()) in log
        assert "Deal 2:" in log
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")

    run(app, scenario)
    assert seen["turns"] >= 1
    path = tmp_path / "game.json"
    assert app.return_value == path
    game = replayed_game(path)
    assert len(game.finished) == 1
    assert game.finished[0].result == app.table.game.finished[0].result
    assert [d.actions for d in game.deals] == [d.actions for d in app.table.game.deals]
    assert Record.loads(path.read_text(encoding="utf-8")).seats == ("human", "random", "random", "random")


@pytest.mark.slow
def test_k4_k23_whole_kopilka_session_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, "kopilka", seed=3, human=2)
    summaries: list[str] = []

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        for _ in range(2000):
            screen = app.screen
            if isinstance(screen, TextScreen) and screen.kind == "over":
                break
            if isinstance(screen, TextScreen) and screen.kind == "summary":
                body = screen.query_one("#body", Static).content
                assert isinstance(body, Text)
                summaries.append(body.plain)
                await pilot.press("enter")
                await settle(pilot)
                continue
            assert table.human_to_act
            check_hand_shown(app)
            check_score_shown(app)
            await human_turn(pilot, app)
        else:
            raise AssertionError("the session did not end")
        over = app.screen.query_one("#body", Static).content
        assert isinstance(over, Text)
        result = table.game.result
        assert result is not None
        lines = over.plain.splitlines()
        money_rows = lines[next(i for i, line in enumerate(lines) if "Money" in line) + 1:]
        for seat in range(4):
            name = render.seat_name(table.names, seat, 2, "en")
            row = next(line for line in money_rows if line.startswith(name))
            assert row.split()[-1] == f"{result.money[seat]:+d}"
        assert str(tmp_path / "game.json") in over.plain
        await pilot.press("q")

    run(app, scenario)
    assert len(summaries) == 4
    result = app.table.game.result
    assert result is not None and sum(result.money) == 0
    game = replayed_game(tmp_path / "game.json")
    assert game.result == result
    assert app.return_value == tmp_path / "game.json"


# --- declarations: exchange, take, refusals ----------------------------------------------


STACK_DEALER_0 = (
    # N4: dealt one at a time from the eldest (seat 1): seats 1, 2, 3, 0, 1, 2 …
    "7H 8H 9H AS 7D 8D 9D KC JC TC QC QH 7S 8S 9S KD JH TH TS JD "
    "6H "  # the turned-up card: hearts are trump
    "6D 6C 6S JS QS KS AH AD AC KH QD TD 7C 8C 9C"
)


def test_c6_dealer_takes_the_turned_card_then_must_play(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=0, first_dealer=0, decks=[STACK_DEALER_0],
                   options={"all_pass": "redeal"})

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        # The bots before the dealer declare; the dealer (the human) is last.
        assert table.human_to_act
        deal = table.view().deal
        assert deal.seat == deal.dealer == 0
        assert "6♥" in app.shown("table").plain
        hand = hand_in_order(deal)
        await pilot.press("t")
        assert "C6" in app.shown("prompt").plain
        check_hand_shown_take(app)
        target = hand[-1]
        await pilot.press(str(len(hand)), "enter")
        await settle(pilot)
        deal = table.view().deal
        assert deal.turnup_taken
        assert Card("6H") in deal.hand and target not in deal.hand
        assert tr("tui.turnup_taken", "en") in app.shown("table").plain
        # C6: having taken, the dealer may not pass; the refusal changes nothing.
        before = len(table.log)
        await pilot.press("p")
        assert app.shown("message").plain.startswith("C6:")
        assert len(table.log) == before and table.human_to_act
        await pilot.press("s")
        await settle(pilot)
        assert table.game.deals[0].view(0).declarations[0] == "stand"

    run(app, scenario)


def check_hand_shown_take(app: PlayApp) -> None:
    deal = app.table.view().deal
    hand = hand_in_order(deal)
    styles = card_styles(app.shown("hand"), hand, "en")
    engine = app.table.game.deal
    for card in hand:
        legal = engine.is_legal(Action.take(card), 0)
        assert (render.INACTIVE_STYLE in styles[card]) == (not legal)


def test_mi5_mi8_kc_cannot_be_discarded_nor_passed(tmp_path: Path) -> None:
    # The human (seat 0, the dealer) gets AS KC QH KD JD.
    app = make_app(tmp_path, "mistigri", 4, human=0, first_dealer=0, decks=[STACK_DEALER_0])

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        deal = table.view().deal
        assert table.human_to_act and Card("KC") in deal.hand
        hand = hand_in_order(deal)
        styles = card_styles(app.shown("hand"), hand, "en")
        assert render.INACTIVE_STYLE in styles[Card("KC")]
        before = len(table.log)
        await pilot.press("p")
        assert app.shown("message").plain.startswith("MI8:")
        # MI5: the mark itself is refused (before, only the confirmed exchange was).
        await pilot.press(str(hand.index(Card("KC")) + 1), "space")
        assert app.shown("message").plain.startswith("MI5:")
        assert len(table.log) == before and table.view().deal.hand == deal.hand
        await pilot.press("escape", "s")
        await settle(pilot)
        assert table.game.deals[0].view(0).declarations[0] == "stand"

    run(app, scenario)


def test_c7_exchange_marks_are_shown_and_applied(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=1, first_dealer=0, decks=[STACK_DEALER_0])

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        hand = hand_in_order(table.view().deal)
        await pilot.press("t")  # only the dealer may take the turned-up card
        assert app.shown("message").plain.startswith("C6:")
        await pilot.press("1", "space", "3", "space")
        shown = app.shown("hand").plain
        assert shown.count(render.EXCHANGE_MARK) == 2
        assert "marked 2" in app.shown("prompt").plain
        await pilot.press("3", "space")  # unmark
        assert app.shown("hand").plain.count(render.EXCHANGE_MARK) == 1
        await pilot.press("enter")
        await settle(pilot)
        mine = next(e for e in table.game.deals[0].events(1) if e.name == "Declared" and e.seat == 1)
        assert mine.discards == (hand[0],) and mine.count == 1  # type: ignore[attr-defined]
        log = " ".join(app.shown("log").plain.split())
        # The human's own seat reads as the seat; the count in words (one card, not "card(s)").
        assert f"Seat 1 stands and exchanges 1 card: {hand[0].display('en')}" in log

    run(app, scenario)


def test_c14_illegal_card_is_refused_with_the_rule_and_changes_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, seed=11)

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        for _ in range(200):
            deal = table.view().deal
            engine = table.game.deal
            if table.human_to_act and deal.phase is Phase.PLAY and deal.trick:
                hand = hand_in_order(deal)
                illegal = [c for c in hand if not engine.is_legal(Action.play(c), 0)]
                if illegal:
                    break
            if isinstance(app.screen, TextScreen):
                await pilot.press("enter")
            elif table.human_to_act:
                await human_turn(pilot, app)
            await settle(pilot)
        else:
            raise AssertionError("no position with an illegal card came up")
        before_log, before_hand = len(table.log), deal.hand
        card = illegal[0]
        await pilot.press(str(hand.index(card) + 1), "enter")
        message = app.shown("message").plain
        with pytest.raises(IllegalActionError) as caught:
            engine.check(Action.play(card), 0)
        error = caught.value
        # The player reads the refusal in words after its rule id: his card as it is printed,
        # never its code or his seat number (the browser table words it the same way).
        assert message == f"{error.rule}: " + refusal_words(error, "en")
        assert message.startswith(("C14:", "MI4:"))
        assert card.display("en") in message and not re.search(rf"\b{card}\b", message), message
        assert "seat" not in message and message.count("may not play") == 1, message
        assert len(table.log) == before_log and table.view().deal.hand == before_hand
        assert table.human_to_act
        # Keys of other phases are refused by the engine as well.
        await pilot.press("d")
        assert app.shown("message").plain.startswith("C13:")
        await pilot.press("space")
        assert app.shown("message").plain == tr("tui.mark_only_declare", "en")
        assert len(table.log) == before_log

    run(app, scenario)


def test_typed_action_is_parsed_and_a_bad_one_named(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=1, first_dealer=0, decks=[STACK_DEALER_0])

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        await pilot.press("colon")
        assert isinstance(app.screen, ActionInputScreen)
        await pilot.press(*"stand zz", "enter")
        await pilot.pause()
        assert "'stand zz'" in app.shown("message").plain
        assert table.human_to_act
        await pilot.press("colon")
        await pilot.press(*"пас", "enter")
        await settle(pilot)
        assert table.game.deals[0].view(1).declarations[1] == "pass"

    run(app, scenario)


def test_out_of_turn_key_is_refused(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=1, first_dealer=0, decks=[STACK_DEALER_0])
    app.delay = 600  # the next bot waits: its turn lasts as long as the test needs

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        await pilot.press("s")
        await pilot.pause()
        assert table.to_act == 2 and not app.idle
        before = len(table.log)
        await pilot.press("p")
        message = app.shown("message").plain
        with pytest.raises(IllegalActionError) as caught:
            table.game.check(Action.pass_(), 1)
        error = caught.value
        # Whose turn it is, by the name the table shows (the browser table says the same).
        assert message == f"{error.rule}: " + refusal_words(error, "en", render.log_names(table.names, 1, "en"))
        assert message == "C7: it is not your turn: Mitya is to act"
        assert len(table.log) == before and table.to_act == 2
        await pilot.press("q", "y")

    run(app, scenario)
    game = replayed_game(tmp_path / "game.json")
    assert game.deal.actions == (Action.stand(),)


# --- dialogs ------------------------------------------------------------------------------


def test_rules_history_and_quit_dialogs(tmp_path: Path) -> None:
    app = make_app(tmp_path, "mistigri", 5, seed=2, options={"remiz": 7})

    async def scenario(pilot: Pilot[object]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "rules"
        body = app.screen.body.plain
        assert "remiz = 7 (changed)" in body
        assert "privileged_must_play = true" in body
        assert "ремиз" in body and "MI8" in body
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)
        await pilot.press("h")
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "history"
        assert tr("tui.none_yet", "en") in app.screen.body.plain
        await pilot.press("escape")
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen) and not app.table.is_over
        await pilot.press("q", "y")

    run(app, scenario)
    game = replayed_game(tmp_path / "game.json")
    assert [d.actions for d in game.deals] == [d.actions for d in app.table.game.deals]


def test_history_lists_finished_deals(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 3, seed=8)

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        for _ in range(100):
            if table.finished_deals >= 2:
                break
            if isinstance(app.screen, TextScreen):
                await pilot.press("enter")
                await settle(pilot)
            else:
                await human_turn(pilot, app)
        assert table.finished_deals >= 2 and not table.is_over
        if isinstance(app.screen, TextScreen):
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("h")
        assert isinstance(app.screen, TextScreen)
        rows = [line for line in app.screen.body.plain.splitlines() if line[:1] in "12"]
        history = table.view().history
        records = sheets.records_after(table.rules, history)
        for k in range(2):
            cells = rows[k].split()
            assert cells[0] == str(k + 1) and cells[1] == str(history[k].dealer)
            assert [c.split("/")[1] for c in cells[2:5]] == [str(r) for r in records[k]]

    run(app, scenario)


# --- language and layout -----------------------------------------------------------------------


def test_russian_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=0, first_dealer=0, decks=[STACK_DEALER_0], lang="ru")

    async def scenario(pilot: Pilot[object]) -> None:
        assert app.shown("title").plain.startswith("Обычная мушка")
        hand = app.shown("hand").plain
        assert "Т♠" in hand and "К♣" in hand  # the human holds AS and KC
        assert "Ваши карты" in hand
        assert "Пробел" in app.shown("keys").plain
        assert "Ваше объявление" in app.shown("prompt").plain
        await pilot.press("d")
        message = app.shown("message").plain
        assert message.startswith("C7: сейчас нельзя прикупать:"), message
        await pilot.press("з")  # p on a Russian keyboard layout: pass
        await settle(pilot)
        assert app.table.game.deals[0].view(0).declarations[0] == "pass"

    run(app, scenario)


@pytest.mark.parametrize(("variant", "players"), [("classic", 7), ("kopilka", 4), ("mistigri", 7), ("mistigri", 3)])
def test_everything_fits_in_80x24(tmp_path: Path, variant: str, players: int) -> None:
    app = make_app(tmp_path, variant, players, seed=4, lang="ru")

    async def scenario(pilot: Pilot[object]) -> None:
        screen = app.screen
        for part in ("title", "table", "score", "hand", "last", "prompt", "keys", "log"):
            region = screen.query_one(f"#{part}").region
            assert region.height >= 1, part
            assert region.right <= SIZE[0] and region.bottom <= SIZE[1], (part, region)
        for part in ("table", "score", "hand"):
            width = screen.query_one(f"#{part}").content_region.width
            for line in app.shown(part).plain.splitlines():
                assert cell_len(line) <= width, (part, line, width)
        table_region = screen.query_one("#table").region
        assert table_region.height >= players + 2  # header, one line per seat, the info line
        assert screen.query_one("#log").region.height >= 3

    run(app, scenario)


# --- the variants' particulars --------------------------------------------------------------

MISTIGRI_STACK = (
    # Dealer 0; seat 1 (eldest) gets AH TH JC 7S JH.
    "AH 8H 9H AS TH 8D 9D KC JC TC QC QH 7S 8S 9S KD JH 7D TS JD "
    "6H "
    "6D 6C 6S JS QS KS 7H AD AC KH QD TD 7C 8C 9C"
)


def test_mi2_hand_is_sorted_by_suit_and_the_mistigri_rank_order(tmp_path: Path) -> None:
    app = make_app(tmp_path, "mistigri", 4, human=1, first_dealer=0, decks=[MISTIGRI_STACK])

    async def scenario(pilot: Pilot[object]) -> None:
        tokens = app.shown("hand").plain.split()
        cards = [t for t in tokens if t[-1] in "♠♣♦♥"]
        # Hearts, then clubs, then spades; in hearts K Q J A 10 (MI2): the jack above the ace.
        assert cards == ["J♥", "A♥", "10♥", "J♣", "7♠"]
        check_hand_shown(app)

    run(app, scenario)


KOPILKA_STACK = (
    # Dealer 0; seat 1 (eldest) is dealt three hearts and must lay them out (K6-K7).
    "7H 7D 9D JD 8H 8D TD QD 9H 7C 9C JC 7S 8C TC QC 8S 9S TS JS "
    "TH JH QH KH AH KD AD KC AC QS KS AS"
)


def test_k7_taker_discards_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, "kopilka", human=2, first_dealer=0, decks=[KOPILKA_STACK])

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        deal = table.view().deal
        assert table.human_to_act and deal.phase is Phase.REDISTRIBUTE
        assert "K7" in app.shown("prompt").plain
        assert len(deal.hand) == 6
        check_hand_shown(app)
        log = " ".join(app.shown("log").plain.split())
        who = render.log_names(table.names, table.human, "en")
        assert who[2] is None and who[1] and who[3]  # the bots by their persons' names
        assert f"{who[1]} declares 3 cards of one suit" in log
        taken = next(e for e in deal.events if e.name == "CardTaken" and e.taker == 2)  # type: ignore[attr-defined]
        assert f"Seat 2 takes a card ({taken.card.display('en')})" in log  # type: ignore[attr-defined]
        assert f"{who[3]} takes a card from {who[1]}'s group" in log
        hand = hand_in_order(deal)
        await pilot.press("1", "enter")
        await settle(pilot)
        after = table.game.deals[0].view(2)
        assert hand[0] in after.own_discards and hand[0] not in after.hand
        assert f"Seat 2 discards a card ({hand[0].display('en')})" in " ".join(app.shown("log").plain.split())

    run(app, scenario)


FLUSH_STACK = (
    # Dealer 0; seat 1 (eldest) is dealt four hearts and the A♠: C22, the мушка is won at once.
    "AS 8S 9S 6H 7H 8D 9D KC 8H TC QC QD 9H 7S 6S KD TH 6D TS JD "
    "JH "
    "7D 6C JS QS KS QH AH AD AC KH JC TD 7C 8C 9C"
)


def test_c22_four_of_a_suit_and_the_ace_of_spades_at_the_deal_end_the_partie_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=0, first_dealer=0, decks=[FLUSH_STACK])

    async def scenario(pilot: Pilot[object]) -> None:
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "summary"
        assert "1 Glasha wins the mushka (C22)" in app.screen.body.plain
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TextScreen) and app.screen.kind == "over"
        assert "1 Glasha wins." in app.screen.body.plain
        log = " ".join(app.shown("log").plain.split())
        who = render.log_names(app.table.names, app.table.human, "en")
        assert f"{who[1]} shows four of a suit and the privileged card" in log and "wins the mushka" in log
        assert "мушк" not in log  # an English log has no Russian words
        await pilot.press("enter")
        assert tr("tui.prompt_over", "en") == app.shown("prompt").plain
        await pilot.press("q")

    run(app, scenario)
    result = app.table.game.result
    assert result is not None and result.ended_by_mushka and result.winner == 1
    assert replayed_game(tmp_path / "game.json").result == result


def test_f_lets_the_bots_move_without_the_delay(tmp_path: Path) -> None:
    app = make_app(tmp_path, "classic", 4, human=1, first_dealer=0, decks=[STACK_DEALER_0])
    app.delay = 600  # without f the next bot would wait ten minutes

    async def scenario(pilot: Pilot[object]) -> None:
        table = app.table
        await pilot.press("s")
        await pilot.pause()
        assert table.to_act == 2 and not app.idle
        await pilot.press("f")
        await settle(pilot)
        assert table.human_to_act or isinstance(app.screen, TextScreen)
        assert len(table.game.deals[0].actions) >= 4  # seats 2, 3 and 0 have declared
        await pilot.press("q", "y")

    run(app, scenario)


class BrokenBot(RandomBot):
    """Raises on its first choice, then plays an illegal action."""

    name = "broken"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view, rng):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("out of ideas")
        return Action.draw()  # never legal in classic


def test_a_failing_bot_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    rules = make_rules("classic", 3)
    broken = BrokenBot()
    table = TerminalTable(rules, [None, broken, RandomBot()], human=0, seed=1, first_dealer=2)
    app = PlayApp(table, lang="en", delay=0, save_path=tmp_path / "game.json")

    async def scenario(pilot: Pilot[object]) -> None:
        # Seat 0 is the eldest and declares first; then the broken bot's turn.
        await pilot.press("s")
        await settle(pilot)
        declared = table.game.deals[0].view(0).declarations
        assert declared[1] is not None and broken.calls >= 1
        message = app.shown("message").plain
        assert "1 broken failed (RuntimeError: out of ideas)" in message
        while broken.calls < 2 and not table.is_over:
            if isinstance(app.screen, TextScreen):
                await pilot.press("enter")
                await settle(pilot)
            else:
                await human_turn(pilot, app)
        assert "C7:" in app.shown("message").plain or "C13:" in app.shown("message").plain
        await pilot.press("q", "y")

    run(app, scenario)
    game = replayed_game(tmp_path / "game.json")
    assert [d.actions for d in game.deals] == [d.actions for d in table.game.deals]
