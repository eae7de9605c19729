"""``mushka reports``: the chat lines players reported, for the operator (docs/friends.md).

One report a line, newest first, as JSON (what was said, by whom, at which table and when,
and who reported it), so that it reads in a terminal and pipes into ``jq`` alike.
"""

from __future__ import annotations

import time
from typing import Annotated

import typer

from mushka.cli.common import LangOpt, console, err_console, pick_lang
from mushka.i18n import add_texts, tr


def register(app: typer.Typer) -> None:
    """Add ``reports`` to the app."""

    @app.command()
    def reports(
        database_url: Annotated[str | None, typer.Option(
            "--database-url", help="The server's database (default: mushka.db in the user's data directory).")] = None,
        limit: Annotated[int, typer.Option("--limit", min=1, max=10_000, help="At most this many reports.")] = 100,
        days: Annotated[float, typer.Option("--days", min=0.0, help="Only the last DAYS days (0: all).")] = 0.0,
        lang: LangOpt = None,
    ) -> None:
        """List the reported chat lines, newest first (one JSON object a line)."""
        from rich.markup import escape

        from mushka.cli.serve_cmd import default_database_url
        from mushka.errors import MushkaError
        from mushka.server.abuse import format_reports
        from mushka.server.socialdb import SocialBook
        from mushka.server.sqlstore import SqlStore

        lang_ = pick_lang(lang)
        try:
            store = SqlStore(database_url or default_database_url())
        except MushkaError as exc:
            err_console.print(f"[bold red]{escape(tr('cli.error', lang_))}[/] {escape(exc.message(lang_))}")
            raise typer.Exit(2) from None
        try:
            book = SocialBook(store.engine)
            since = int((time.time() - days * 86_400) * 1000) if days else 0
            found = book.reports(limit, since)
            ids = {i for r in found for i in (r.speaker_id, r.reporter_id) if i}
            names = {i: p.name for i, p in book.people(ids).items()}
        finally:
            store.close()
        if not found:
            err_console.print(tr("cli.reports.none", lang_))
            return
        console.print(format_reports(found, names), markup=False, highlight=False, soft_wrap=True)


add_texts({
    "cli.reports.none": ("No reported chat lines.", "Жалоб на строки чата нет."),
})
