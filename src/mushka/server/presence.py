"""Who is online and where, in the shared store, and whose chat lines a connection hides.

An account is *online* while one of its pages is open on any process: a table's WebSocket
(written when it says hello, again with its pings every :data:`TOUCH_EVERY_MS`, the due
ones of a process together, and removed when it closes) or a page with no table, which
asks for its notices every few seconds (``GET /api/notices``, :meth:`Presence.page`).
The rows are one per account,
process and table (``mushka_presence``); an account seen in the last 30 seconds is online
(:data:`~mushka.server.socialdb.ONLINE_MS`), so a process that died takes its people
offline by itself.  Nothing is kept only in one process's memory.

The same refresh reads again whose lines the connection's account muted or blocked (so a
mute made through another process reaches this connection within :data:`TOUCH_EVERY_MS`
and a ping or two; one made through this process reaches it at once,
:func:`rehide`).  Presence never stops a game: a failed write is logged and tried again
at the next refresh.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from typing import Final, Protocol

from starlette.requests import HTTPConnection

from mushka.server.accounts import current_account
from mushka.server.identity import Account
from mushka.server.lobby import Lobby
from mushka.server.socialdb import SocialBook, now_ms

log = logging.getLogger("mushka.server")

TOUCH_EVERY_MS: Final = 10_000
"""How often one account's presence at one place is written again (at most)."""

FLUSH_EVERY_MS: Final = 2_000
"""How often a process writes the presence of its table connections that is due (at most)."""

PURGE_EVERY_MS: Final = 600_000
"""How often a process drops the notices and presence rows nobody will read again."""

KEEP_MS: Final = 86_400_000
"""Notices and presence rows older than this are dropped (a notice is shown for ten minutes)."""

TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table's id looks like (anything else a page says is no table)."""


class Present(Protocol):
    """What presence needs of a table connection."""

    table_id: str
    account: Account | None
    hidden: frozenset[str]
    """The accounts whose chat lines this connection does not receive."""
    touched_ms: int


def _book(lobby: Lobby) -> SocialBook | None:
    store = lobby.store
    book = getattr(store, "social", None)
    if isinstance(book, SocialBook):
        return book
    engine = getattr(store, "engine", None)
    if engine is None:
        return None
    made = SocialBook(engine)
    store.social = made  # type: ignore[attr-defined]
    return made


class Presence:
    """This process's writes of presence, throttled per account and place."""

    def __init__(self) -> None:
        """Nothing written yet."""
        self._pages: weakref.WeakKeyDictionary[Lobby, dict[tuple[str, str], int]] = weakref.WeakKeyDictionary()
        self._purged: weakref.WeakKeyDictionary[Lobby, int] = weakref.WeakKeyDictionary()

    async def page(self, conn: HTTPConnection, account: str, table_id: str) -> None:
        """A page of ``account`` (at ``table_id``, or ``''``) asked for its notices: mark it
        seen, at most every :data:`TOUCH_EVERY_MS` (the write runs where the writer commits)."""
        holder: dict[str, Lobby] = conn.app.state.holder
        lobby = holder["lobby"]
        book = _book(lobby)
        if book is None:
            return
        written = self._pages.setdefault(lobby, {})
        now = now_ms()
        table_id = table_id if TABLE_ID.fullmatch(table_id) else ""
        key = (account, table_id)
        if now - written.get(key, 0) < TOUCH_EVERY_MS:
            return
        written[key] = now
        if len(written) > 10_000:
            # Forget the places not written lately (a page closed long ago).
            for old in [k for k, at in written.items() if now - at > 60_000]:
                del written[old]
        node = lobby.node.name
        purge = now - self._purged.get(lobby, 0) >= PURGE_EVERY_MS
        if purge:
            self._purged[lobby] = now
        try:
            await lobby.writer.run(lambda: book.touch(node, [(account, table_id)]))
            if purge:
                await lobby.writer.run(lambda: book.purge(now - KEEP_MS))
        except Exception:
            log.warning("presence of a page not stored", exc_info=True)


PRESENCE: Final = Presence()
"""The process's presence writer for pages."""


async def arrived(lobby: Lobby, conn: Present, websocket: HTTPConnection) -> None:
    """A table connection said hello: whose account is it (if signed in), what it hides, and
    the account is at this table now."""
    try:
        conn.account = await current_account(websocket)
    except Exception:  # a store without accounts (a test's), or storage failing: a guest then
        log.debug("no account for a connection to %s", conn.table_id, exc_info=True)
        conn.account = None
    if conn.account is not None:
        await _refresh(lobby, conn)


_DUE: weakref.WeakKeyDictionary[Lobby, dict[int, Present]] = weakref.WeakKeyDictionary()
"""Per lobby: the connections whose presence is due, written together at the next flush."""

_FLUSHED: weakref.WeakKeyDictionary[Lobby, int] = weakref.WeakKeyDictionary()
"""Per lobby: when its due presence was last written."""


async def still_here(lobby: Lobby, conn: Present) -> None:
    """A ping of a signed-in connection: its presence is due again every :data:`TOUCH_EVERY_MS`.

    The due connections of the process are written together, in one transaction, at most every
    :data:`FLUSH_EVERY_MS` (by whichever ping comes then), and their mutes read in one query:
    a thousand signed-in connections cost a write every few seconds, not a hundred a second."""
    now = now_ms()
    if conn.account is not None and now - conn.touched_ms >= TOUCH_EVERY_MS:
        conn.touched_ms = now
        _DUE.setdefault(lobby, {})[id(conn)] = conn
    due = _DUE.get(lobby)
    if due and now - _FLUSHED.get(lobby, 0) >= FLUSH_EVERY_MS:
        _FLUSHED[lobby] = now
        await _flush(lobby, list(due.values()))
        for done in list(due):
            due.pop(done, None)


async def _flush(lobby: Lobby, conns: list[Present]) -> None:
    book = _book(lobby)
    if book is None:
        return
    node = lobby.node.name
    places = sorted({(c.account.id, c.table_id) for c in conns if c.account is not None})
    try:
        await lobby.writer.run(lambda: book.touch(node, places))
        hidden = await asyncio.to_thread(book.hidden, [a for a, _ in places])
    except Exception:
        log.warning("presence of %d connections not stored", len(places), exc_info=True)
        return
    for c in conns:
        if c.account is not None:
            c.hidden = hidden.get(c.account.id, frozenset())


async def _refresh(lobby: Lobby, conn: Present) -> None:
    book = _book(lobby)
    account = conn.account
    if book is None or account is None:
        return
    conn.touched_ms = now_ms()
    node, table = lobby.node.name, conn.table_id
    try:
        await lobby.writer.run(lambda: book.touch(node, [(account.id, table)]))
        hidden = await _read_hidden(book, account.id)
    except Exception:
        log.warning("presence of a connection to %s not stored", table, exc_info=True)
        return
    conn.hidden = hidden


async def _read_hidden(book: SocialBook, account: str) -> frozenset[str]:
    found = await asyncio.to_thread(book.hidden, [account])
    return found.get(account, frozenset())


async def left(lobby: Lobby, conn: Present, others: int) -> None:
    """A signed-in connection closed; with no other (``others``) of its account at the table on
    this process, the account is no longer there."""
    due = _DUE.get(lobby)
    if due is not None:
        due.pop(id(conn), None)  # gone: not to be written again
    book = _book(lobby)
    account = conn.account
    if book is None or account is None or others:
        return
    node, table = lobby.node.name, conn.table_id
    try:
        await lobby.writer.run(lambda: book.gone(node, account.id, table))
    except Exception:
        log.warning("presence of a connection to %s not removed (it runs out by itself)", table, exc_info=True)


def rehide(lobby: Lobby, account: str, hidden: frozenset[str]) -> None:
    """``account`` changed whom it hides: its connections on this process know at once."""
    for table in list(lobby.tables.values()):
        for client in list(table.clients):
            mine = getattr(client, "account", None)
            if isinstance(mine, Account) and mine.id == account:
                client.hidden = hidden  # type: ignore[attr-defined]
