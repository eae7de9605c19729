"""``mushka play``: play in the terminal against bots (keyboard only).

The Textual application is imported only when the command runs, so the
other commands start without it.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Annotated

import typer

from mushka.cli.common import (
    LangOpt,
    OptionArgs,
    PlayersOpt,
    VariantOpt,
    build_rules,
    command,
    console,
    err_console,
    pick_lang,
    seed_option,
)
from mushka.i18n import tr


def default_save_path(variant: str, now: datetime.datetime | None = None) -> Path:
    """``mushka-classic-20240131-184502.json`` in the current directory."""
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return Path.cwd() / f"mushka-{variant}-{stamp}.json"


def register(app: typer.Typer) -> None:
    """Add ``play`` to the app."""

    @command(app)
    def play(
        variant: VariantOpt = "classic",
        players: PlayersOpt = None,
        bots: Annotated[str | None, typer.Option(
            "--bots", "-b",
            help="Opponents: a level for every other seat, or one per bot seat in seat order, comma "
                 "separated: beginner, casual, club, strong, expert (any bot spec works too: random, "
                 "search:iterations=200 …). Default: the strongest level, as in the browser.",
        )] = None,
        seat: Annotated[int, typer.Option("--seat", help="Your seat (0 = first).")] = 0,
        option: OptionArgs = None,
        seed: Annotated[int | None, seed_option("Seed of the cards and the bots.")] = None,
        delay: Annotated[float, typer.Option("--delay", help="Seconds each bot waits before its move.")] = 0.6,
        save: Annotated[Path | None, typer.Option(
            "--save", help="Where to write the game record (default: a timestamped file here).")] = None,
        name: Annotated[str | None, typer.Option(
            "--name", help="Your name in the log and the saved record (default: your seat's number).")] = None,
        lang: LangOpt = None,
    ) -> None:
        """Play against bots in the terminal; the game is saved as a record for `mushka replay`."""
        from mushka.tui import PlayApp, SetupError, TerminalTable, bots_for, split_bot_specs
        from mushka.tui.sheets import game_over_panel

        lang_ = pick_lang(lang)
        rules = build_rules(variant, players, option)
        try:
            if delay < 0:
                raise SetupError("tui.err_delay", delay=delay)
            seats = bots_for(split_bot_specs(bots or ""), rules.players, seat)
            # The table checks the name itself (player_name): checked once, refused here.
            table = TerminalTable(rules, seats, human=seat, seed=seed, player=name)
        except SetupError as exc:
            err_console.print(f"[bold red]{tr('tui.error', lang_)}[/] {exc.message(lang_)}")
            raise typer.Exit(2) from None
        path = save if save is not None else default_save_path(rules.variant)
        saved = PlayApp(table, lang=lang_, delay=delay, save_path=path).run()
        result = table.game.result
        if result is not None:
            console.print(game_over_panel(result, rules, table.names, seat, lang_, None))
        else:
            number = len(table.game.finished) + 1
            console.print(tr("tui.left_early", lang_, number=number))
        if saved is not None:
            console.print(tr("tui.saved", lang_, path=str(saved)))
