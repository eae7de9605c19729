"""``mushka serve``: the web server for playing in the browser (against bots or with friends)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from mushka.cli.common import LangOpt, console, err_console, pick_lang
from mushka.i18n import add_texts, tr


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the app."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0 for every interface).")]
        = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
        database_url: Annotated[str, typer.Option(
            "--database-url",
            help="SQLAlchemy URL of the database: sqlite:///FILE (made on first use) or "
                 "postgresql://USER:PASSWORD@HOST:PORT/DATABASE (an existing database; needs mushka[postgres]).",
        )] = "sqlite:///mushka.db",
        grace: Annotated[float, typer.Option(
            "--grace", min=0, help="Seconds an absent player keeps his seat before a bot plays for him.",
        )] = 30.0,
        bot_delay: Annotated[float, typer.Option(
            "--bot-delay", min=0, help="Seconds a bot waits before it acts, so that people can follow.",
        )] = 0.7,
        bot: Annotated[str | None, typer.Option(
            "--bot", help="The default bot (default: heuristic if installed, else random).",
        )] = None,
        web: Annotated[Path | None, typer.Option(
            "--web", help="Directory of the browser front end (default: the one installed with mushka).",
        )] = None,
        rate: Annotated[float, typer.Option(
            "--rate", min=0.1, help="Messages one connection may send per second (bursts of four times as many).",
        )] = 5.0,
        http_rate: Annotated[float, typer.Option(
            "--http-rate", min=0.001,
            help="Tables one address may create or join per second (raise it for load tests).",
        )] = 1.0,
        max_tables: Annotated[int, typer.Option("--max-tables", min=1, help="Tables held in memory at most.")]
        = 2000,
        sqlite_sync: Annotated[str, typer.Option(
            "--sqlite-sync",
            help="SQLite: normal (a stored action survives a crash of the server) or full (also of the machine).",
        )] = "normal",
        ws_deflate: Annotated[bool, typer.Option(
            "--ws-deflate/--no-ws-deflate",
            help="Compress WebSocket messages (costs CPU on every message; they are small anyway).",
        )] = False,
        allow_origin: Annotated[list[str] | None, typer.Option(
            "--allow-origin",
            help="Another origin whose pages may use this server (e.g. https://cards.example.org behind "
                 "a reverse proxy); repeat for more. The server's own address is always allowed.",
        )] = None,
        per_address: Annotated[int, typer.Option(
            "--per-address", min=0,
            help="WebSocket connections one client address may hold at once (0: no limit; raise it "
                 "for load tests from one machine).",
        )] = 64,
        log_level: Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")] = "info",
        lang: LangOpt = None,
    ) -> None:
        """Serve the game in the browser: tables against bots or with friends, spectators, replays."""
        import uvicorn
        from rich.markup import escape
        from sqlalchemy.exc import DBAPIError

        from mushka.errors import MushkaError
        from mushka.server import ServerConfig, create_app
        from mushka.server.config import WEB_DIR
        from mushka.server.lobby import available_bots
        from mushka.server.serving import uvicorn_options
        from mushka.server.store import SqliteSync, SqlStore, shown_url

        lang_ = pick_lang(lang)
        level = log_level.lower()
        if level not in ("debug", "info", "warning", "error"):
            raise typer.BadParameter(tr("serve.bad_level", lang_), param_hint="--log-level")
        if sqlite_sync not in ("normal", "full"):
            raise typer.BadParameter(tr("serve.bad_sync", lang_), param_hint="--sqlite-sync")
        sync: SqliteSync = "full" if sqlite_sync == "full" else "normal"
        known = available_bots()
        if bot is not None and bot not in known:
            raise typer.BadParameter(tr("serve.bad_bot", lang_, name=bot, known=", ".join(known)),
                                     param_hint="--bot")
        logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        try:
            # Connecting and migrating before the server starts turns a bad URL into one clear line.
            store = SqlStore(database_url, sync=sync)
        except Exception as exc:  # any driver or URL error
            problem: object = exc
            if isinstance(exc, MushkaError):
                problem = exc.message(lang_)
            elif isinstance(exc, DBAPIError) and exc.orig is not None:
                problem = exc.orig  # the database's own words, without SQLAlchemy's wrapping
            said = tr("serve.bad_database", lang_, url=shown_url(database_url), problem=problem)
            err_console.print(f"[bold red]{escape(tr('cli.error', lang_))}[/] {escape(said)}")
            raise typer.Exit(2) from None
        web_dir = web if web is not None else WEB_DIR
        config = ServerConfig(database_url=database_url, sqlite_sync=sync, grace=grace, bot_delay=bot_delay,
                              default_bot=bot, web_dir=web_dir, rate=rate, burst=max(20, int(rate * 4)),
                              http_rate=http_rate, http_burst=max(30, int(http_rate * 30)),
                              max_tables=max_tables, allowed_origins=tuple(allow_origin or ()),
                              ws_per_address=per_address)
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        url = f"http://{shown}:{port}/"
        console.print(tr("server.open", lang_, url=url, db=escape(shown_url(database_url))))
        if not (web_dir / "index.html").is_file():
            console.print(tr("server.no_web", lang_, url=url))
        try:
            uvicorn.run(create_app(config, store=store), host=host, port=port, log_level=level,
                        **uvicorn_options(config, ws_deflate=ws_deflate))
        finally:
            store.close()


add_texts({
    "serve.bad_level": ("use debug, info, warning or error", "пишите debug, info, warning или error"),
    "serve.bad_sync": ("use normal or full", "пишите normal или full"),
    "serve.bad_bot": ("unknown bot {name!r}; known: {known}", "неизвестный бот {name!r}; известны: {known}"),
    "serve.bad_database": ("the database {url} cannot be used: {problem}",
                           "базу данных {url} нельзя использовать: {problem}"),
})
