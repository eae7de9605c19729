"""Terminal play (``mushka play``): one person against bots, keyboard only.

:class:`~mushka.tui.table.TerminalTable` runs the game and keeps the human's log;
:mod:`mushka.tui.render` turns the human's view into text, and
:mod:`mushka.tui.sheets` the score sheet of his game (a partie's or a session's);
:class:`~mushka.tui.app.PlayApp` is the Textual application around them.
"""

from mushka.tui.app import PlayApp
from mushka.tui.table import SetupError, TerminalTable, bots_for, default_bot, player_name, split_bot_specs

__all__ = ["PlayApp", "SetupError", "TerminalTable", "bots_for", "default_bot", "player_name", "split_bot_specs"]
