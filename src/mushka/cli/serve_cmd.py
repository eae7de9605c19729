"""``mushka serve``: the web server for playing in the browser (against bots or with friends)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from mushka.cli.common import LangOpt, console, err_console, pick_lang, refuse
from mushka.i18n import add_text_file, tr


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the app."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0 for every interface).")]
        = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
        database_url: Annotated[str | None, typer.Option(
            "--database-url",
            help="SQLAlchemy URL of the database: sqlite:///FILE (made on first use) or "
                 "postgresql://USER:PASSWORD@HOST:PORT/DATABASE (an existing database; needs mushka[postgres]). "
                 "Default: mushka.db in the user's data directory.",
        )] = None,
        public_url: Annotated[str | None, typer.Option(
            "--public-url",
            help="The address friends reach this server at (e.g. http://192.168.1.20:8000/); "
                 "invitation links are built on it.",
        )] = None,
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
        bot_tables: Annotated[int, typer.Option(
            "--bot-tables", min=0,
            help="Tables of bots only (for watching) the server plays at once; 0 allows none.",
        )] = 12,
        bot_tables_per_address: Annotated[int, typer.Option(
            "--bot-tables-per-address", min=0,
            help="Tables of bots only one client address may have at once (P12; raise it for load "
                 "tests from one machine).",
        )] = 3,
        bot_workers: Annotated[int, typer.Option(
            "--bot-workers", min=1,
            help="Worker processes the bots of every table share for thinking (the cores they may take).",
        )] = 1,
        bot_pool: Annotated[str, typer.Option(
            "--bot-pool",
            help="process (the bots think in worker processes, off the server's loop) or thread "
                 "(in threads of the server, for comparison).",
        )] = "process",
        turn_timers: Annotated[str, typer.Option(
            "--turn-timers",
            help="The turn timers a new table may choose, seconds per move, comma separated (0: no "
                 "timer; P15). Tables with other people get 60 if it is among them, else none.",
        )] = "0,15,30,60,120",
        chat_rate: Annotated[float, typer.Option(
            "--chat-rate", min=0.01,
            help="Chat lines a connection may send per second on average (P16; 5 at once; twice as "
                 "many, 10 at once, from all connections of one address).",
        )] = 0.5,
        node: Annotated[str | None, typer.Option(
            "--node",
            help="This process's name among the processes on the database (default HOST-PORT); a proxy "
                 "in front routes ?node=NAME to it (docs/deploy.md).",
        )] = None,
        join: Annotated[bool, typer.Option(
            "--join",
            help="SQLite: run beside another live server on the same file, as another node (without it "
                 "a second server on the file refuses to start).",
        )] = False,
        lease: Annotated[float, typer.Option(
            "--lease", min=1.0, max=300.0,
            help="Seconds a table's lease lasts: how soon the other processes take over the tables of "
                 "one that died.",
        )] = 5.0,
        trusted_proxy: Annotated[list[str] | None, typer.Option(
            "--trusted-proxy",
            help="Address of a proxy in front whose X-Forwarded-For names the client (for the limits per "
                 "address); repeat for more.",
        )] = None,
        allowed_host: Annotated[list[str] | None, typer.Option(
            "--allowed-host",
            help="A host name this server is reached by (besides localhost, IP addresses and the hosts of "
                 "--public-url and --allow-origin); other names are refused. Repeat for more.",
        )] = None,
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
        from mushka.server.sqlstore import SqlStore, shown_url
        from mushka.server.store import SqliteSync
        from mushka.server.thinkers import PoolKind

        lang_ = pick_lang(lang)
        if database_url is None:
            database_url = default_database_url()
        if public_url is not None and not public_url.startswith(("http://", "https://")):
            raise typer.BadParameter(tr("serve.bad_public_url", lang_), param_hint="--public-url")
        level = log_level.lower()
        if level not in ("debug", "info", "warning", "error"):
            raise typer.BadParameter(tr("serve.bad_level", lang_), param_hint="--log-level")
        if sqlite_sync not in ("normal", "full"):
            raise typer.BadParameter(tr("serve.bad_sync", lang_), param_hint="--sqlite-sync")
        sync: SqliteSync = "full" if sqlite_sync == "full" else "normal"
        if bot_pool not in ("process", "thread"):
            raise typer.BadParameter(tr("serve.bad_pool", lang_), param_hint="--bot-pool")
        pool: PoolKind = "thread" if bot_pool == "thread" else "process"
        timers = parse_timers(turn_timers)
        if timers is None:
            raise typer.BadParameter(tr("serve.bad_timers", lang_, given=turn_timers), param_hint="--turn-timers")
        known = available_bots()
        if bot is not None and bot not in known:
            raise typer.BadParameter(tr("serve.bad_bot", lang_, name=bot, known=", ".join(known)),
                                     param_hint="--bot")
        # A taken port is said plainly, before anything is opened.
        taken = port_taken(host, port)
        if taken is not None:
            said = tr("serve.port_taken", lang_, host=host, port=port, next=port + 1, problem=taken)
            err_console.print(f"[bold red]{tr('cli.error', lang_)}[/] {said}")
            raise typer.Exit(2)
        logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        from mushka.server.nodes import default_node_name

        node_name = node or default_node_name(port)
        try:
            # Connecting and migrating before the server starts turns a bad URL, a damaged file or
            # a database another server uses into one clear line.
            store = SqlStore(database_url, sync=sync)
            store.check_node(node_name, ttl=lease, join=join)
        except Exception as exc:  # any driver or URL error
            problem: object = exc
            if isinstance(exc, MushkaError):
                problem = exc.message(lang_)
            elif isinstance(exc, DBAPIError) and exc.orig is not None:
                problem = exc.orig  # the database's own words, without SQLAlchemy's wrapping
            said = tr("serve.bad_database", lang_, url=shown_url(database_url), problem=problem)
            refuse(tr("cli.error", lang_), said)
        web_dir = web if web is not None else WEB_DIR
        config = ServerConfig(database_url=database_url, sqlite_sync=sync, grace=grace, bot_delay=bot_delay,
                              default_bot=bot, web_dir=web_dir, rate=rate, burst=max(20, int(rate * 4)),
                              http_rate=http_rate, http_burst=max(30, int(http_rate * 30)),
                              max_tables=max_tables, allowed_origins=tuple(allow_origin or ()),
                              public_url=public_url.rstrip("/") + "/" if public_url else None,
                              ws_per_address=per_address, bot_tables=bot_tables,
                              bot_tables_per_address=bot_tables_per_address, bot_workers=bot_workers,
                              bot_pool=pool, turn_choices=timers, node=node_name, port=port, lease=lease,
                              join=join, trusted_proxies=tuple(trusted_proxy or ()),
                              allowed_hosts=tuple(allowed_host or ()),
                              # P16: one address may chat twice as much as one connection.
                              chat_rate=chat_rate, chat_address_rate=2 * chat_rate)
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        url = f"http://{shown}:{port}/"
        console.print(tr("server.open", lang_, url=url, db=escape(shown_url(database_url))))
        if host in ("0.0.0.0", "::") and public_url is None:
            console.print(tr("serve.friends_hint", lang_, port=port))
        if not (web_dir / "index.html").is_file():
            console.print(tr("server.no_web", lang_, url=url))
        # The app closes the store at its shutdown (checkpointing SQLite's WAL).
        uvicorn.run(create_app(config, store=store, close_store=True), host=host, port=port, log_level=level,
                    **uvicorn_options(config, ws_deflate=ws_deflate))


def parse_timers(text: str) -> tuple[int, ...] | None:
    """``--turn-timers``: the distinct seconds per move given, in order; ``None`` if any is not a
    whole number from 0 to 3600 (P15), or none is given."""
    seconds: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part.isdigit() or int(part) > 3600:
            return None
        seconds.add(int(part))
    return tuple(sorted(seconds))


def default_database_url() -> str:
    """SQLite in the user's data directory (platformdirs), made on first use: a game is never
    stored in whatever directory the server happened to be started from."""
    from platformdirs import user_data_path

    folder = user_data_path("mushka", appauthor=False, ensure_exists=True)
    return f"sqlite:///{folder / 'mushka.db'}"


def port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (the port is taken, most likely), or ``None``."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # Like uvicorn: a port left in TIME_WAIT by a server just stopped is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


add_text_file("mushka.cli", "serve_cmd.toml")
