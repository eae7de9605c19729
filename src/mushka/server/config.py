"""The server's settings, with the defaults of ``mushka serve``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mushka.server.protocol import BANK_SECONDS, MAX_MESSAGE_BYTES, TURN_SECONDS
from mushka.server.store import SqliteSync
from mushka.server.thinkers import PoolKind

WEB_DIR: Final = Path(__file__).resolve().parent.parent / "web"
"""Where the browser front end lives in the package (served at ``/`` if present)."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything ``create_app`` needs; every field has a sensible default."""

    database_url: str = "sqlite:///mushka.db"
    """SQLAlchemy URL; a SQLite file by default, or ``postgresql://…`` (psycopg 3, the ``postgres`` extra)."""
    sqlite_sync: SqliteSync = "normal"
    """SQLite: ``normal`` survives a crash of the server; ``full`` also a crash of the machine."""
    grace: float = 30.0
    """Seconds an absent player keeps his seat before a bot plays for him."""
    bot_delay: float = 0.7
    """Seconds a bot waits before acting, so that people can follow the game."""
    takeback_seconds: float = 2.0
    """P21: after a card its player may take back, the next bot waits at least this long
    (counted from the card), so that a misplayed card can be taken back before it is answered."""
    default_bot: str | None = None
    """The bot for ``"bot"`` seats and absent players (None: heuristic if present, else random)."""
    bots: tuple[str, ...] | None = None
    """The bots tables may use (None: every registered bot but the all-seeing oracle)."""
    web_dir: Path | None = WEB_DIR
    """Static files to serve at ``/`` (ignored when the directory does not exist)."""
    max_message_bytes: int = MAX_MESSAGE_BYTES
    rate: float = 5.0
    """P6: messages per second a connection may send on average."""
    burst: int = 20
    """P6: messages a connection may send at once."""
    strikes: int = 20
    """P6: refused messages after which a connection is closed."""
    http_rate: float = 1.0
    """P6: tables created or joined per second per address, on average."""
    http_burst: int = 30
    max_body_bytes: int = 16384
    """P1: the largest HTTP request body read (a longer one is cut off as it arrives: 413)."""
    allowed_origins: tuple[str, ...] = ()
    """P13: pages of other origins that may call the API and open WebSockets (``https://host``),
    besides the server's own address (e.g. its public name behind a reverse proxy)."""
    max_tables: int = 2000
    """Tables held in memory at once (waiting, playing, or recently over)."""
    public_url: str | None = None
    """The address friends reach this server at (``http://192.168.1.20:8000/``): invitation
    links are built on it; without it, on the address the page was opened at."""
    max_connections: int = 64
    """Connections to one table (players and spectators)."""
    hello_timeout: float = 15.0
    request_timeout: float = 10.0
    """Seconds an HTTP request may take to arrive whole, headers and body (slow senders are cut off)."""
    keep_alive: float = 5.0
    """Seconds an HTTP connection may stay idle between two requests."""
    bot_workers: int = 1
    """Worker processes the bots of every table share for thinking (and replays for being built):
    the cores the bots may take from the people playing, however many bot tables there are."""
    bot_pool: PoolKind = "process"
    """``process``: the bots think in worker processes, off the event loop's interpreter lock;
    ``thread``: in threads of the server's process (they then compete with the loop)."""
    bot_nice: int = 5
    """How much lower the bot workers' scheduling priority is than the server's (0: the same)."""
    bot_timeout: float = 60.0
    """Seconds a bot's move may take in its worker before the worker is stopped and the seat
    plays the rules-of-thumb move."""
    bot_tables: int = 12
    """Tables of bots only (nobody plays, people may watch) held at once; 0: none allowed."""
    bot_tables_per_address: int = 3
    """Tables of bots only one client address may have at once."""
    read_rate: float = 10.0
    """P6: records, replays and lists of records one address may ask for per second, on average."""
    read_burst: int = 40
    address_rate: float = 50.0
    """P6: WebSocket messages per second all connections of one address may send together."""
    address_burst: int = 200
    state_rate: float = 5.0
    """P6: full states (hello, resync, lang) per second all connections of one address may ask for."""
    state_burst: int = 30
    http_per_address: int = 32
    """HTTP connections one client address may hold at once (0: no limit)."""
    ws_per_address: int = 64
    """WebSocket connections one client address may hold at once, over every table (0: no limit)."""
    turn_choices: tuple[int, ...] = TURN_SECONDS
    """P15: the turn timers a new table may ask for, in seconds per move (0: none)."""
    bank_choices: tuple[int, ...] = BANK_SECONDS
    """P15: the time banks a new table may ask for, in seconds per seat for the game (0: none)."""
    chat_rate: float = 0.5
    """P16: chat lines per second a connection may send on average."""
    chat_burst: int = 5
    """P16: chat lines a connection may send at once."""
    chat_address_rate: float = 1.0
    """P16: chat lines per second all connections of one address may send together."""
    chat_address_burst: int = 10
    queue_size: int = 512
    """Messages waiting for a slow connection before it is dropped (it can resync)."""
    keep_finished: float = 900.0
    """Seconds a finished table stays in memory after its last connection left."""
    sweep_every: float = 60.0
    tune_gc: bool = True
    """Keep the garbage collector's pauses short (see ``app.tune_gc``)."""
    gc_freeze_every: float = 30.0
    """Seconds between two freezes of the objects that survived (``app.keep_gc``)."""
    gc_full_every: float = 3600.0
    """Seconds between two full collections of everything (``app.keep_gc``)."""
    node: str | None = None
    """This process's node name among the processes on the database (None: ``HOST-PORT``); a
    proxy in front routes ``?node=NAME`` to it."""
    port: int | None = None
    """The port this process listens on (shown to the other nodes and in the default name)."""
    lease: float = 5.0
    """Seconds a table's lease lasts unless renewed: how soon the other processes take over the
    tables of one that died."""
    join: bool = False
    """SQLite: run beside another live server on the same file, as another node (without it a
    second server on the file refuses to start)."""
    trusted_proxies: tuple[str, ...] = ()
    """Peers (a proxy in front) whose ``X-Forwarded-For`` names the client, for the limits per
    address; nobody else's is believed."""
    allowed_hosts: tuple[str, ...] = ()
    """``Host`` names accepted besides ``localhost``, IP addresses and the hosts of
    ``public_url`` and ``allowed_origins`` (a page under any other name is refused: DNS rebinding)."""
