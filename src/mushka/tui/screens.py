"""The dialogs over the game screen: a scrolling text (rules, history, a deal's
summary, the end of the game), the question before quitting, and the line
for typing an action.  Each lists its keys on its last line."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from mushka.i18n import tr


def keys_line(pairs: list[tuple[str, str]], lang: str) -> Text:
    """A line of keys and what they do (catalogue keys) for a dialog."""
    out = Text()
    for i, (key, what) in enumerate(pairs):
        if i:
            out.append("  ")
        out.append(key, style="bold reverse")
        out.append(" " + tr(what, lang))
    return out


class TextScreen(ModalScreen[str]):
    """A text to read (scrolls with the arrows and PgUp/PgDn); dismissed with a key.

    The screen's result is the name of the key's choice: ``close``, or for
    the end of the game ``history`` when h is pressed.
    """

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical {
        width: 110; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    TextScreen VerticalScroll { height: auto; max-height: 19; }
    TextScreen .keys { height: 1; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("space", "close", show=False),
        Binding("q", "leave", show=False),
        Binding("question_mark", "close", show=False),
        Binding("h", "history", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
    ]

    def __init__(self, body: Text, lang: str, *, kind: str = "text",
                 keys: list[tuple[str, str]] | None = None) -> None:
        """``kind`` names the dialog (``rules``, ``history``, ``summary``, ``over``) for tests and CSS."""
        super().__init__(classes=kind)
        self.body = body
        self.kind = kind
        self.lang = lang
        self.keys = [*(keys if keys is not None else [("Esc", "tui.key_close")]), ("↑↓ PgUp/Dn", "tui.key_scroll")]

    def compose(self) -> ComposeResult:
        """The text and the line of keys."""
        with Vertical():
            with VerticalScroll():
                yield Static(self.body, id="body")
            yield Static(keys_line(self.keys, self.lang), classes="keys")

    def action_close(self) -> None:
        """Leave the dialog."""
        self.dismiss("close")

    def action_leave(self) -> None:
        """q: at the end of the game, leave the program; elsewhere close the dialog."""
        self.dismiss("quit" if self.kind == "over" else "close")

    def action_history(self) -> None:
        """From the end of the game: show the deals (other dialogs just close)."""
        self.dismiss("history" if self.kind == "over" else "close")

    def action_scroll(self, lines: int) -> None:
        """Scroll the text."""
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter says yes, n or Esc says no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 60; height: auto; border: thick $warning; background: $surface; padding: 0 1;
    }
    ConfirmScreen .keys { height: 1; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", show=False),
        Binding("д", "answer(True)", show=False),
        Binding("enter", "answer(True)", show=False),
        Binding("n", "answer(False)", show=False),
        Binding("н", "answer(False)", show=False),
        Binding("escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str, lang: str) -> None:
        """Ask ``question`` in ``lang``."""
        super().__init__()
        self.question = question
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The question and the keys."""
        with Vertical():
            yield Static(Text(self.question, style="bold"))
            yield Static(keys_line([("y/Enter", "tui.key_yes"), ("n/Esc", "tui.key_no")], self.lang),
                         classes="keys")

    def action_answer(self, yes: bool) -> None:
        """Answer and close."""
        self.dismiss(yes)


class ActionInputScreen(ModalScreen[str | None]):
    """A line to type an action in the engine's notation (``KC``, ``stand 7H 8D``, ``пас``)."""

    DEFAULT_CSS = """
    ActionInputScreen { align: center bottom; }
    ActionInputScreen > Vertical {
        width: 100%; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, lang: str) -> None:
        """A prompt in ``lang``."""
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The explanation and the input line."""
        with Vertical():
            yield Static(tr("tui.type_prompt", self.lang))
            yield Input(id="action")

    def on_mount(self) -> None:
        """Type at once."""
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: hand the text to the game screen."""
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Esc: nothing typed."""
        self.dismiss(None)
