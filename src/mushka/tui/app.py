"""The terminal application (Textual): one human against bots, keyboard only.

:class:`PlayApp` shows the game screen (:class:`GameScreen`) and drives the
bots.  The human's keys become actions that go to the engine's checked path
through :class:`~mushka.tui.table.TerminalTable`; a refusal is shown with the
engine's own message (rule id first) and nothing changes.  Bots move one at
a time, after a short delay so that a person can follow, each choosing in a
worker thread from its own seat's view.  When a deal ends its summary is
shown; when the game ends the record is saved and the result shown.  The
record is also saved after every deal and when the player leaves early.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import RichLog, Static

from mushka.cards import Card
from mushka.engine import Action, Kind, Phase
from mushka.engine.refusal import refusal_words
from mushka.errors import MushkaError
from mushka.i18n import tr
from mushka.tui import dealend, render, sheets
from mushka.tui.moves import Mode, Selection, active_cards, confirm_action, first_active, hand_in_order, has_kind
from mushka.tui.rulesinfo import rules_summary
from mushka.tui.screens import ActionInputScreen, ConfirmScreen, TextScreen
from mushka.tui.table import TerminalTable

# Keys typed with a Russian keyboard layout reach the same actions.
_RU_LAYOUT = {"p": "з", "s": "ы", "t": "е", "d": "в", "f": "а", "h": "р", "q": "й"}


def _bindings() -> list[BindingType]:
    out: list[BindingType] = [
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space", "mark", show=False),
        Binding("enter", "confirm", show=False),
        Binding("escape", "cancel", show=False),
        Binding("colon", "type_action", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("pageup", "log(-1)", show=False),
        Binding("pagedown", "log(1)", show=False),
        Binding("ctrl+q", "quit", show=False, priority=True),
    ]
    for digit in range(10):
        out.append(Binding(str(digit), f"pick({digit or 10})", show=False))
    actions = {"p": "pass", "s": "stand", "t": "take", "d": "draw", "f": "hurry", "h": "history", "q": "quit"}
    for key, action in actions.items():
        out.append(Binding(key, action, show=False))
        out.append(Binding(_RU_LAYOUT[key], action, show=False))
    return out


class GameScreen(Screen[None]):
    """The table, the score sheet, the hand, what to do, the log and every key."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #title { height: 1; background: $panel; padding: 0 1; }
    #top, #middle { height: auto; }
    #table, #hand { width: 1fr; padding: 0 1; }
    #score, #last { width: 30; padding: 0 1; border-left: vkey $panel-lighten-2; }
    #prompt { height: auto; padding: 0 1; }
    #message { height: auto; min-height: 1; max-height: 2; padding: 0 1; }
    #log { height: 1fr; min-height: 3; border-top: hkey $panel-lighten-2; padding: 0 1; }
    #keys { height: auto; padding: 0 1; background: $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = _bindings()

    def compose(self) -> ComposeResult:
        """The widgets; :meth:`PlayApp.refresh_view` fills them."""
        yield Static(id="title")
        with Horizontal(id="top"):
            yield Static(id="table")
            yield Static(id="score")
        with Horizontal(id="middle"):
            yield Static(id="hand")
            yield Static(id="last")
        yield Static(id="prompt")
        yield Static(id="message")
        log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        log.can_focus = False
        yield log
        yield Static(id="keys")

    @property
    def play(self) -> PlayApp:
        """The application (typed)."""
        app = self.app
        assert isinstance(app, PlayApp)
        return app

    def on_mount(self) -> None:
        """Show the game."""
        self.play.advance()

    # Each key is an action of the application, which owns the game.
    def action_cursor(self, step: int) -> None:
        """Move the cursor along the hand."""
        self.play.move_cursor(step)

    def action_pick(self, number: int) -> None:
        """Put the cursor on card ``number`` (from 1)."""
        self.play.pick(number)

    def action_mark(self) -> None:
        """Mark or unmark the card under the cursor for an exchange (C7)."""
        self.play.toggle_mark()

    def action_confirm(self) -> None:
        """Play, stand, take or discard, as the phase and the mode say."""
        self.play.confirm()

    def action_cancel(self) -> None:
        """Clear the marks and leave the take mode."""
        self.play.cancel()

    def action_pass(self) -> None:
        """Pass (C7, K11)."""
        self.play.human_act(Action.pass_())

    def action_stand(self) -> None:
        """Stand, exchanging the marked cards (C7)."""
        self.play.stand()

    def action_take(self) -> None:
        """Take the turned-up card (C6): then choose the discard."""
        self.play.start_take()

    def action_draw(self) -> None:
        """Draw from the talon (K11)."""
        self.play.human_act(Action.draw())

    def action_hurry(self) -> None:
        """Let the bots move without the delay until the human's next turn or the deal's end."""
        self.play.hurry()

    def action_type_action(self) -> None:
        """Type an action in the engine's notation."""
        self.play.type_action()

    def action_rules(self) -> None:
        """Show the rules summary."""
        self.play.show_rules()

    def action_history(self) -> None:
        """Show the finished deals."""
        self.play.show_history()

    def action_log(self, pages: int) -> None:
        """Scroll the log."""
        log = self.query_one("#log", RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_quit(self) -> None:
        """Leave (asks first while the game runs)."""
        self.play.ask_quit()


class PlayApp(App[Path | None]):
    """``mushka play``: the game screen over a :class:`TerminalTable`; returns the record's path."""

    TITLE = "mushka"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, table: TerminalTable, *, lang: str = "en", delay: float = 0.6,
                 save_path: Path | None = None, trick_pause: float | None = None) -> None:
        """Play ``table`` in ``lang``; bots wait ``delay`` seconds before each move, and
        ``trick_pause`` more (twice ``delay`` unless given) before leading after a trick
        was taken, so that the completed trick stays in view; the record goes to
        ``save_path`` (none: the record is not written)."""
        super().__init__()
        self.table = table
        self.lang = lang
        self.delay = delay
        self.trick_pause = 2 * delay if trick_pause is None else trick_pause
        self.save_path = save_path
        self.saved: Path | None = None
        self.save_error: str | None = None
        self.selection = Selection()
        self.message: Text = Text()
        self._cursor_card: Card | None = None
        self._summarised = 0
        self._over_shown = False
        self._bot_running = False
        self._pending: tuple[int, Action | None, str | None] | None = None
        self._log_shown = 0
        self._snapped = -1
        self._leaving = False
        self._hurry = False
        self._wake = asyncio.Event()

    # --- life cycle ---------------------------------------------------------------------

    def on_mount(self) -> None:
        """Open the game screen."""
        self.push_screen(GameScreen())

    @property
    def game_screen(self) -> GameScreen | None:
        """The game screen when it is in front (no dialog over it)."""
        screen = self.screen
        return screen if isinstance(screen, GameScreen) else None

    @property
    def idle(self) -> bool:
        """Whether nothing moves until the human presses a key: a dialog is open (a bot's
        move waits for it to close), or it is the human's turn, or the game is over."""
        if self._bot_running:
            return False
        if self.game_screen is None:
            return True
        return self._pending is None and (self.table.is_over or self.table.human_to_act)

    def advance(self) -> None:
        """Show the state and move the game on: apply a bot's move, show a deal's
        summary or the end, or let the next bot think."""
        while not self._leaving:
            # The cursor jumps to a usable card only when the game has moved on.
            moved = len(self.table.log) != self._snapped
            self._snapped = len(self.table.log)
            self.refresh_view(snap=moved)
            if self.game_screen is None:
                return  # a dialog is open; its closing calls advance again
            if self._pending is not None:
                self._apply_bot_move()
                continue
            if self.table.finished_deals > self._summarised:
                self._hurry = False
                self.message = Text()  # a refusal from the last deal no longer applies
                self._summarised += 1
                self._autosave()
                view = self.table.view()
                body = dealend.deal_summary(view, self._summarised, self.table.names, self.table.human, self.lang)
                # After the last deal, Enter leads to the game's result, not to a next deal
                # (in kopilka, a next game: the header counts games, K4).
                next_key = "tui.key_next" if view.deal.rules.has_trumps else "tui.key_next_game"
                key = "tui.key_result" if self.table.is_over else next_key
                self._open(TextScreen(body, self.lang, kind="summary", keys=[("Enter", key)]))
                return
            if self.table.is_over:
                if not self._over_shown:
                    self._over_shown = True
                    self._save()
                    self._show_over()
                return
            seat = self.table.bot_to_act
            if seat is None:
                self._hurry = False  # the human's turn: back to the normal pace
            elif not self._bot_running:
                self._bot_running = True
                self.run_worker(self._bot_move(seat), group="bots", exclusive=True)
            return

    def _open(self, screen: TextScreen | ConfirmScreen | ActionInputScreen,
              after: object = None) -> None:
        """Open a dialog; the game moves on once it is closed."""

        def closed(result: object) -> None:
            if callable(after):
                after(result)
            self.advance()

        self.push_screen(screen, closed)

    async def _bot_move(self, seat: int) -> None:
        """Wait, then let the bot of ``seat`` choose in a thread (a search may take a while)."""
        try:
            wait = self.delay
            deal = self.table.view().deal
            if not deal.trick and deal.tricks and deal.phase is Phase.PLAY:
                wait += self.trick_pause  # the trick just taken stays a moment before the next lead
            if wait > 0 and not self._hurry:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
            try:
                action: Action | None = await asyncio.to_thread(self.table.choose, seat)
                problem = None
            except Exception as exc:  # a broken bot must not end the player's game
                action, problem = None, f"{type(exc).__name__}: {exc}"
            self._pending = (seat, action, problem)
        finally:
            self._bot_running = False
        self.advance()

    def _apply_bot_move(self) -> None:
        assert self._pending is not None
        seat, action, problem = self._pending
        self._pending = None
        if seat != self.table.bot_to_act:
            return
        if action is not None:
            try:
                self.table.act(action, seat)
                return
            except MushkaError as exc:
                problem = exc.message(self.lang)
        name = render.seat_name(self.table.names, seat, self.table.human, self.lang)
        self._say(tr("tui.bot_failed", self.lang, name=name, problem=problem), error=True)
        self.table.act(self.table.random_legal(seat), seat)

    # --- showing ----------------------------------------------------------------------------

    def refresh_view(self, *, snap: bool = False) -> None:
        """Fill the game screen's widgets from the human's view; ``snap`` (after a
        move) puts the cursor on a card that can be used."""
        screen = self._find_game_screen()
        if screen is None or not screen.query("#keys"):
            return  # not composed yet; its on_mount calls advance
        view = self.table.view()
        self._fix_cursor(snap)
        names, human, lang = self.table.names, self.table.human, self.lang
        screen.query_one("#title", Static).update(render.title_line(view, lang, names, human))
        screen.query_one("#table", Static).update(render.table_panel(view, names, human, lang))
        screen.query_one("#score", Static).update(sheets.score_panel(view, names, human, lang))
        screen.query_one("#hand", Static).update(render.hand_panel(view, self.selection, lang))
        screen.query_one("#last", Static).update(render.last_trick_panel(view, names, human, lang))
        screen.query_one("#prompt", Static).update(render.prompt_line(view, self.selection, names, human, lang))
        screen.query_one("#message", Static).update(self.message)
        screen.query_one("#keys", Static).update(render.key_bar(view, self.selection, lang))
        log = screen.query_one("#log", RichLog)
        said = render.log_names(names, human, lang)
        for entry in self.table.log[self._log_shown:]:
            log.write(render.log_line(entry.event, lang, said))
        self._log_shown = len(self.table.log)

    def shown(self, part: str) -> Text:
        """What a part of the game screen shows now: ``title``, ``table``, ``score``,
        ``hand``, ``last``, ``prompt``, ``message``, ``keys`` or ``log`` (all its lines)."""
        screen = self._find_game_screen()
        if screen is None:
            return Text()
        if part == "log":
            lines = screen.query_one("#log", RichLog).lines
            return Text("\n".join(line.text for line in lines))
        content = screen.query_one(f"#{part}", Static).content
        return content if isinstance(content, Text) else Text(str(content))

    def _find_game_screen(self) -> GameScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        return None

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = Text(text, style=render.ERROR_STYLE if error else "italic")

    def _fix_cursor(self, snap: bool) -> None:
        """Keep the cursor on the same card; with ``snap``, on the human's turn, move
        it off a card that cannot be used; drop marks of cards that left the hand."""
        deal = self.table.view().deal
        hand = hand_in_order(deal)
        self.selection.marked &= set(hand)
        if self._cursor_card in hand:
            self.selection.cursor = hand.index(self._cursor_card)
        if hand:
            self.selection.cursor = max(0, min(self.selection.cursor, len(hand) - 1))
            if snap and deal.is_my_turn:
                active = active_cards(deal, self.selection.mode)
                if hand[self.selection.cursor] not in active:
                    found = first_active(hand, active)
                    if found is not None:
                        self.selection.cursor = found
            self._cursor_card = hand[self.selection.cursor]
        else:
            self.selection.cursor = 0
            self._cursor_card = None

    def _cursor_on(self) -> Card | None:
        hand = hand_in_order(self.table.view().deal)
        return hand[self.selection.cursor] if hand else None

    # --- the human's keys -----------------------------------------------------------------

    def move_cursor(self, step: int) -> None:
        """Move the cursor ``step`` cards (wrapping round the hand)."""
        hand = hand_in_order(self.table.view().deal)
        if hand:
            self.selection.cursor = (self.selection.cursor + step) % len(hand)
            self._cursor_card = hand[self.selection.cursor]
        self.refresh_view()

    def pick(self, number: int) -> None:
        """Put the cursor on card ``number`` (from 1; past the end: the last card)."""
        hand = hand_in_order(self.table.view().deal)
        if hand:
            self.selection.cursor = min(number, len(hand)) - 1
            self._cursor_card = hand[self.selection.cursor]
        self.refresh_view()

    def toggle_mark(self) -> None:
        """C7: mark the card under the cursor for the exchange, or unmark it."""
        deal = self.table.view().deal
        card = self._cursor_on()
        if not (deal.is_my_turn and deal.rules.has_trumps and deal.phase is Phase.DECLARE):
            self._say(tr("tui.mark_only_declare", self.lang), error=True)
        elif card is None:
            self._say(tr("tui.no_card", self.lang), error=True)
        elif card not in self.selection.marked and card not in active_cards(deal, Mode.NORMAL):
            # MI5: the privileged card may not be discarded; say so now, not on confirm.
            rule = "MI5" if card == deal.rules.privileged else "C7"
            self._say(tr("tui.cannot_mark", self.lang, rule=rule, card=card.display(self.lang)), error=True)
        else:
            self.selection.marked ^= {card}
            self.message = Text()
        self.refresh_view()

    def cancel(self) -> None:
        """Esc: clear the marks and leave the take mode."""
        self.selection.reset()
        self.message = Text()
        self.refresh_view()

    def confirm(self) -> None:
        """Enter: the action the phase and the mode give to the card under the cursor."""
        view = self.table.view()
        action = confirm_action(view.deal, self.selection, self._cursor_on())
        if action is None:
            self._say(tr("tui.no_card", self.lang), error=True)
            self.refresh_view()
            return
        self.human_act(action)

    def stand(self) -> None:
        """s: stand, exchanging the marked cards (C7); the engine says if that is not possible now."""
        self.human_act(Action.stand(*sorted(self.selection.marked)))

    def start_take(self) -> None:
        """t: choose the discard for the turned-up card (C6), if taking is possible now."""
        deal = self.table.view().deal
        if has_kind(deal, Kind.TAKE):
            self.selection.mode = Mode.TAKE
            self.selection.marked.clear()
            self.message = Text()
            self.refresh_view()
            return
        # Not possible: let the engine say why, with the rule (C6, or not the turn).
        card = self._cursor_on()
        if card is None:
            self._say(tr("tui.no_card", self.lang), error=True)
            self.refresh_view()
            return
        self.human_act(Action.take(card))

    def human_act(self, action: Action) -> None:
        """Apply the human's action through the checked path; a refusal is shown in
        words, after its rule id (``?`` opens the rules), and changes nothing."""
        try:
            self.table.act(action)
        except MushkaError as exc:
            said = refusal_words(exc, self.lang, render.log_names(self.table.names, self.table.human, self.lang))
            self._say(f"{exc.rule}: {said}" if exc.rule else said, error=True)
            self.refresh_view()
            return
        self.selection.reset()
        self.message = Text()
        self.advance()

    def hurry(self) -> None:
        """f: the bots play on without the delay until the human's turn or the deal's end."""
        self._hurry = True
        self._wake.set()  # a bot pausing now moves at once

    def type_action(self) -> None:
        """: — type an action in the engine's notation."""

        def typed(text: object) -> None:
            if not isinstance(text, str) or not text.strip():
                return
            try:
                action = Action.parse(text)
            except MushkaError as exc:
                self._say(exc.message(self.lang), error=True)
                return
            self.human_act(action)

        self._open(ActionInputScreen(self.lang), typed)

    def show_rules(self) -> None:
        """?: the rules summary of this table."""
        self._open(TextScreen(rules_summary(self.table.rules, self.lang), self.lang, kind="rules"))

    def show_history(self) -> None:
        """h: the finished deals."""
        body = sheets.history_panel(self.table.view(), self.table.names, self.table.human, self.lang)
        self._open(TextScreen(body, self.lang, kind="history"))

    def ask_quit(self) -> None:
        """q: leave; while the game runs, ask first and save what was played."""
        if self.table.is_over:
            self._leave()
            return

        def answered(yes: object) -> None:
            if yes is True:
                self._save()
                self._leave()

        self._open(ConfirmScreen(tr("tui.quit_ask", self.lang), self.lang), answered)

    def _leave(self) -> None:
        self._leaving = True  # no bot starts thinking any more
        self.exit(self.saved)

    async def action_quit(self) -> None:
        """Ctrl+Q (Textual's own quit) asks like q."""
        self.ask_quit()

    # --- the end and the record -------------------------------------------------------------

    def _show_over(self) -> None:
        result = self.table.game.result
        assert result is not None
        body = sheets.game_over_panel(result, self.table.rules, self.table.names, self.table.human,
                                      self.lang, str(self.saved) if self.saved else self.save_error,
                                      self.table.view().history)

        def chosen(choice: object) -> None:
            if choice == "history":
                self.show_history()
            elif choice == "quit":
                self._leave()

        self._open(TextScreen(body, self.lang, kind="over",
                              keys=[("Enter", "tui.key_close"), ("h", "tui.key_history"), ("q", "tui.key_quit")]),
                   chosen)

    def _autosave(self) -> None:
        # After every deal, so that a crash or a closed terminal loses at most one deal.
        self._save()

    def _save(self) -> None:
        if self.save_path is None:
            return
        try:
            self.saved = self.table.save(self.save_path)
            self.save_error = None
        except OSError as exc:
            self.save_error = tr("tui.save_failed", self.lang, path=str(self.save_path), problem=exc.strerror or exc)
            self._say(self.save_error, error=True)

