"""Player accounts: who a request or a WebSocket comes from, if anybody.

A person plays as a guest at once, under any free name, as always.  He may *claim* that
name, with a password or a passkey, which makes an account: from then on nobody else
plays under it (P18), he signs in under it on any device, and the seats he takes while
signed in are his account's.  An account holds nothing but the name and the
credentials: no e-mail, no real name.  See ``docs/accounts.md``.

Signing in makes a *session*: a random value in an ``HttpOnly; SameSite=Strict`` cookie
(``Secure`` over https), of which the store keeps only the hash, with the expiry and the
session's CSRF token.  Sessions are in the store that every process of the server shares
(:mod:`mushka.server.sqlaccounts`), so any process knows who a cookie belongs to, and a
session ended on one (signed out, account deleted) is ended on all at once.

:func:`current_account` is what the rest of the server asks.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from typing import TYPE_CHECKING, Final

from starlette.requests import HTTPConnection

from mushka.server.identity import Account
from mushka.server.sqlaccounts import AccountBook, SessionInfo

if TYPE_CHECKING:
    from mushka.server.lobby import Lobby

SESSION_COOKIE: Final = "mushka_session"
"""The name of the session cookie."""

SESSION_DAYS: Final = 30
"""A session unused this long ends (each use within it pushes the end back: sliding)."""

SESSION_MAX_DAYS: Final = 180
"""A session ends this long after its sign-in however much it is used (the cookie's Max-Age)."""

RENEW_AFTER_MS: Final = 3_600_000
"""A session's expiry is pushed back at most once an hour (a write per request would cost
every request a commit)."""

DAY_MS: Final = 86_400_000


def now_ms() -> int:
    """Milliseconds since 1970 (UTC), as the sessions' times are kept."""
    return int(time.time() * 1000)


def name_key(name: str) -> str:
    """The form of a name that decides whether two names are the same one: case-folded, with
    every run of whitespace made one space, trimmed (``Анна  Ли`` and ``анна ли`` are one)."""
    return " ".join(name.casefold().split())[:64]


def hash_session(value: str) -> str:
    """The stored form of a session cookie's value (the value itself is never stored)."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def new_secret() -> str:
    """A fresh random value for a session cookie or a CSRF token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def lobby_of_connection(conn: HTTPConnection) -> Lobby:
    """The lobby of the app serving ``conn`` (a request or a WebSocket)."""
    holder: dict[str, Lobby] = conn.app.state.holder
    return holder["lobby"]


def account_book(conn: HTTPConnection) -> AccountBook:
    """The accounts in the store of the app serving ``conn`` (the store every process shares).

    Reads are blocking calls: run them with :func:`asyncio.to_thread`; writes where the
    writer commits (``lobby_of_connection(conn).writer.run(...)``)."""
    return book_of(lobby_of_connection(conn))


def book_of(lobby: Lobby) -> AccountBook:
    """The accounts in ``lobby``'s store."""
    book = getattr(lobby.store, "accounts", None)
    if not isinstance(book, AccountBook):
        raise RuntimeError("this server's store keeps no accounts")
    return book


_SCOPE_KEY: Final = "mushka.session"
"""Where a connection's session, once looked up, is kept for the rest of its handling."""


async def current_session(conn: HTTPConnection) -> SessionInfo | None:
    """The live session of a request or WebSocket handshake (from its cookie), None without one.

    Looked up in the shared store (once per request); a session last renewed more than
    :data:`RENEW_AFTER_MS` ago gets its expiry pushed back :data:`SESSION_DAYS` again,
    never past :data:`SESSION_MAX_DAYS` after its sign-in."""
    if _SCOPE_KEY in conn.scope:
        found: SessionInfo | None = conn.scope[_SCOPE_KEY]
        return found
    value = conn.cookies.get(SESSION_COOKIE, "")
    session: SessionInfo | None = None
    if 20 <= len(value) <= 128:
        lobby = lobby_of_connection(conn)
        book = book_of(lobby)
        id_hash = hash_session(value)
        moment = now_ms()
        session = await asyncio.to_thread(book.session, id_hash, moment)
        if session is not None and moment - session.seen_ms >= RENEW_AFTER_MS:
            until = min(moment + SESSION_DAYS * DAY_MS, session.created_ms + SESSION_MAX_DAYS * DAY_MS)
            if until > session.expires_ms:
                await lobby.writer.run(lambda: book.renew_session(id_hash, moment, until))
    conn.scope[_SCOPE_KEY] = session
    return session


def forget_session(conn: HTTPConnection) -> None:
    """Drop what :func:`current_session` remembered for this request (it signed in or out)."""
    conn.scope.pop(_SCOPE_KEY, None)


async def current_account(conn: HTTPConnection) -> Account | None:
    """The signed-in account of a request or a WebSocket handshake (from its session cookie),
    None for a guest.  Every process of the server answers alike: sessions are in the store."""
    session = await current_session(conn)
    return None if session is None else session.account
