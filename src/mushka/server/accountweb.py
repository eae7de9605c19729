"""The HTTP side of accounts: ``/api/account…`` (claim a name with a password, sign in and
out, who am I, delete the account), the session cookie, and the CSRF guard.

The passkey calls are in :mod:`mushka.server.passkeys`; what an account is, and how a
request's account is found, in :mod:`mushka.server.accounts`.

Rules (``docs/protocol.md``):

- P18: a name claimed by an account is played under by that account only; names are
  refused if a bot plays under them or if they are a deleted player's; a password has
  :data:`~mushka.server.passwords.MIN_PASSWORD` to
  :data:`~mushka.server.passwords.MAX_PASSWORD` characters.
- P19: a signed-in browser's every state-changing request carries its session's CSRF
  token in ``X-CSRF-Token`` (:class:`CsrfGuard`); each sign-in makes a new session (a
  cookie value that existed before it is never made a session: fixation).
- P20: failed sign-ins are limited per name and per address, in the shared store.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
from collections.abc import Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from mushka.server.accounts import (
    DAY_MS,
    SESSION_COOKIE,
    SESSION_DAYS,
    SESSION_MAX_DAYS,
    account_book,
    current_session,
    forget_session,
    hash_session,
    lobby_of_connection,
    name_key,
    new_secret,
    now_ms,
)
from mushka.server.guards import client_address
from mushka.server.httpio import page_origins, read_json
from mushka.server.identity import Account
from mushka.server.passwords import (
    ADDRESS_FAILURES,
    BLOCK_MS,
    MAX_PASSWORD,
    MIN_PASSWORD,
    NAME_FAILURES,
    WINDOW_MS,
    hash_password,
    verify_password,
)
from mushka.server.protocol import MAX_NAME, Lang, Message
from mushka.server.ratelimit import AddressLimiter
from mushka.server.ratings import Ratings
from mushka.server.seating import ACCOUNT_SEAT, person_name
from mushka.server.sqlaccounts import NameTaken
from mushka.server.texts import ProtocolError

log = logging.getLogger("mushka.server")

M = TypeVar("M", bound=BaseModel)

CSRF_HEADER: Final = "x-csrf-token"
"""The header carrying a signed-in session's CSRF token (P19)."""

DELETED_NAME: Final = "deleted player"
"""What a deleted account's name becomes in the games it played, with a random suffix
(``deleted player 3fa2c1``) so that the ratings of two deleted players do not merge."""

RESERVED_PREFIXES: Final = ("deleted player", "удалённый игрок", "удаленный игрок")
"""P18: names nobody may take (they would pass for a deleted player)."""



# --- bodies --------------------------------------------------------------------------------------


class ClaimName(Message):
    """``POST /api/account/claim``: make an account of a name, with a password."""

    name: str = Field(max_length=MAX_NAME)
    password: str = Field(max_length=MAX_PASSWORD)
    lang: Lang | None = None


class SignIn(Message):
    """``POST /api/account/signin``: sign in with a name and a password."""

    name: str = Field(max_length=MAX_NAME)
    password: str = Field(max_length=MAX_PASSWORD)
    lang: Lang | None = None


class SetPassword(Message):
    """``POST /api/account/password``: a new password for the signed-in account (``current``:
    the one it has, if it has one)."""

    password: str = Field(max_length=MAX_PASSWORD)
    current: str | None = Field(default=None, max_length=MAX_PASSWORD)
    lang: Lang | None = None


class DeleteAccount(Message):
    """``DELETE /api/account``: the account's name typed again, as a confirmation."""

    name: str = Field(max_length=MAX_NAME)
    lang: Lang | None = None


class AccountSeat(Message):
    """A seat of the signed-in account at a table that waits or plays."""

    table: str
    seat: int
    url: str
    """The table page, greeting the seat as the account's (``#token=seat:N``, P18)."""


class AccountSeats(Message):
    """``GET /api/account/seats``: where the signed-in account is seated, newest first."""

    seats: list[AccountSeat]


class Empty(Message):
    """A body with nothing needed in it (``lang`` at most)."""

    lang: Lang | None = None


class AccountInfo(Message):
    """An account as its owner sees it."""

    id: str
    name: str
    password: bool
    passkeys: int


class AccountReply(Message):
    """``GET /api/account`` and every sign-in: who is signed in (null: a guest) and the CSRF
    token the page sends with every state-changing request (P19)."""

    account: AccountInfo | None
    csrf: str | None


# --- reading requests ----------------------------------------------------------------------------


async def read_body(request: Request, model: type[M]) -> M:
    """A request's JSON body as ``model`` (P1, P2, P13, as every other call of the API)."""
    cfg = lobby_of_connection(request).config
    return await read_json(request, model, origins=page_origins(cfg), limit=cfg.max_body_bytes)


def _flood_check(request: Request) -> None:
    """P6: sign-in and claim calls per address, as for creating tables (``http_rate`` a second,
    ``http_burst`` at once), in this process: a flood costs no password hashing.  The guessing
    limits (P20) are the store's, shared by every process."""
    cfg = lobby_of_connection(request).config
    state = request.app.state
    limiter = getattr(state, "signin_limiter", None)
    if not isinstance(limiter, AddressLimiter):
        limiter = state.signin_limiter = AddressLimiter(cfg.http_rate, cfg.http_burst)
    if not limiter.allow(client_address(request.scope)):
        raise ProtocolError("rate_limited", rule="P6", rate=cfg.http_rate)


# --- names ---------------------------------------------------------------------------------------


def claimable_name(name: str | None) -> str:
    """P10, P18: a name a new account may claim, cleaned; refused if empty, a bot's, or a
    deleted player's."""
    cleaned = person_name(name)
    if cleaned is None:
        raise ProtocolError("name_missing", rule="P18")
    if name_key(cleaned).startswith(RESERVED_PREFIXES):
        raise ProtocolError("name_deleted", rule="P18")
    return cleaned


async def check_seat_name(conn: HTTPConnection, name: str | None) -> str | None:
    """P18: the name a request may sit under.  Signed in, it is the account's own name
    (whatever was asked); a guest may take any free name, but not one an account has
    claimed, a bot's (P10) or a deleted player's."""
    session = await current_session(conn)
    if session is not None:
        return session.account.name
    cleaned = person_name(name)
    if cleaned is None:
        return None
    key = name_key(cleaned)
    if key.startswith(RESERVED_PREFIXES):
        raise ProtocolError("name_deleted", rule="P18")
    held = await asyncio.to_thread(account_book(conn).by_key, key)
    if held is not None:
        raise ProtocolError("name_claimed", rule="P18", name=cleaned)
    return cleaned


N = TypeVar("N", bound=Message)


async def seat_identity(request: Request, body: N) -> tuple[N, str | None]:
    """P18: a request that seats its caller (``body.name``), with the name it may sit under
    (:func:`check_seat_name`), and the account his seats belong to (None: a guest)."""
    name = await check_seat_name(request, getattr(body, "name", None))
    session = await current_session(request)
    return body.model_copy(update={"name": name}), None if session is None else session.account.id


def check_password(password: str, name: str) -> None:
    """P18: a password long enough, not too long, and not the name itself."""
    if len(password) < MIN_PASSWORD:
        raise ProtocolError("weak_password", rule="P18", least=MIN_PASSWORD)
    if name_key(password) == name_key(name):
        raise ProtocolError("password_is_name", rule="P18")


# --- sessions ------------------------------------------------------------------------------------


def is_https(conn: HTTPConnection) -> bool:
    """Whether the browser reached the server over https (directly, or through a proxy that
    says so in ``X-Forwarded-Proto``): then the session cookie is ``Secure``.  A client that
    claims https over plain http only gets a cookie its browser will not send back."""
    if conn.scope.get("scheme") in ("https", "wss"):
        return True
    return conn.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower() == "https"


async def open_session(request: Request, account: Account, reply: Response) -> str:
    """Sign ``account`` in: a new session (new random cookie; the request's old session, if
    any, ends), its cookie set on ``reply``; the new session's CSRF token."""
    lobby = lobby_of_connection(request)
    book = account_book(request)
    old = request.cookies.get(SESSION_COOKIE)
    value, csrf = new_secret(), new_secret()
    moment = now_ms()
    until = moment + SESSION_DAYS * DAY_MS

    def write() -> None:
        if old:
            book.close_session(hash_session(old))
        book.open_session(hash_session(value), account.id, csrf, moment, until)
        book.purge(moment, moment - WINDOW_MS)

    await lobby.writer.run(write)
    forget_session(request)
    reply.set_cookie(SESSION_COOKIE, value, max_age=SESSION_MAX_DAYS * 86_400, path="/",
                     secure=is_https(request), httponly=True, samesite="strict")
    return csrf


def clear_cookie(request: Request, reply: Response) -> None:
    """Tell the browser to forget the session cookie."""
    reply.delete_cookie(SESSION_COOKIE, path="/", secure=is_https(request), httponly=True, samesite="strict")


async def account_reply(request: Request, account: Account | None, csrf: str | None,
                        reply: Response | None = None, status: int = 200) -> Response:
    """The account as its owner sees it, as JSON (on ``reply`` if given)."""
    info = None
    if account is not None:
        password, keys = await asyncio.to_thread(account_book(request).credentials, account.id)
        info = AccountInfo(id=account.id, name=account.name, password=password, passkeys=keys)
    out = reply or Response(media_type="application/json")
    out.body = AccountReply(account=info, csrf=csrf).model_dump_json().encode("utf-8")
    out.headers["content-length"] = str(len(out.body))
    out.headers["cache-control"] = "no-store"
    out.status_code = status
    return out


# --- the guard -----------------------------------------------------------------------------------

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})

Scope = MutableMapping[str, Any]


class CsrfGuard:
    """ASGI middleware (P19): a state-changing request (not GET, HEAD or OPTIONS) that carries
    a live session's cookie must carry that session's CSRF token in ``X-CSRF-Token``, or it
    is refused (403 ``csrf``) before anything happens.  Guests' requests pass: there is no
    session to abuse (the Origin check, P13, still applies to them)."""

    def __init__(self, app: Any) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Pass the call on, or refuse it."""
        if (scope["type"] != "http" or scope.get("method", "GET") in SAFE_METHODS
                or not str(scope.get("path", "")).startswith("/api/")):
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        if SESSION_COOKIE in conn.cookies:
            session = await current_session(conn)
            given = conn.headers.get(CSRF_HEADER, "")
            if session is not None and not hmac.compare_digest(given.encode(), session.csrf.encode()):
                lang = "ru" if conn.headers.get("accept-language", "").lower().startswith("ru") else "en"
                error = ProtocolError("csrf", rule="P19")
                body = json.dumps({"error": {"code": "csrf", "rule": "P19", "message": error.message(lang)}},
                                  ensure_ascii=False).encode("utf-8")
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode("ascii"))]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


# --- the calls -----------------------------------------------------------------------------------


async def whoami(request: Request) -> Response:
    """``GET /api/account``: the signed-in account and its CSRF token, or nulls for a guest."""
    session = await current_session(request)
    if session is None:
        reply = await account_reply(request, None, None)
        if SESSION_COOKIE in request.cookies:
            clear_cookie(request, reply)  # a dead session's cookie: the browser may forget it
        return reply
    return await account_reply(request, session.account, session.csrf)


async def claim(request: Request) -> Response:
    """``POST /api/account/claim``: make an account of a name with a password, and sign in."""
    _flood_check(request)
    body = await read_body(request, ClaimName)
    session = await current_session(request)
    if session is not None:
        raise ProtocolError("signed_in", rule="P18", name=session.account.name)
    name = claimable_name(body.name)
    check_password(body.password, name)
    stored = await hash_password(body.password)
    account = Account(id=secrets.token_hex(16), name=name)
    book = account_book(request)
    return await claimed(request, account,
                         lambda: book.create(account, name_key(name), datetime.now(UTC), password_hash=stored))


async def claimed(request: Request, account: Account, create: Callable[[], None], how: str = "") -> Response:
    """Store the new ``account`` (``create`` writes it, where the writer runs its work) and sign
    in as it: the reply to a name claimed (201), or P18's refusal if the name was claimed first;
    ``how`` ends the line of the log (`` with a passkey``)."""
    try:
        await lobby_of_connection(request).writer.run(create)
    except NameTaken:
        raise ProtocolError("name_claimed", rule="P18", name=account.name) from None
    log.info("account %s claimed a name%s", account.id, how)
    reply = Response(media_type="application/json")
    csrf = await open_session(request, account, reply)
    return await account_reply(request, account, csrf, reply, 201)


async def signin_keys(request: Request, key: str) -> list[str]:
    """P20: the limit keys of a sign-in: the name's and the address's."""
    return [f"name:{key}"[:128], f"addr:{client_address(request.scope)}"[:128]]


async def check_not_blocked(request: Request, keys: list[str]) -> None:
    """P20: refuse at once (429) while a name or the address is blocked."""
    until = await asyncio.to_thread(account_book(request).blocked_until, keys, now_ms())
    if until:
        raise ProtocolError("signin_limited", rule="P20", minutes=max(1, -(-(until - now_ms()) // 60_000)))


async def signin_failed(request: Request, keys: list[str]) -> ProtocolError:
    """P20: count a failed sign-in; the error to answer with (429 once a limit is reached)."""
    book = account_book(request)
    moment = now_ms()

    names = [k for k in keys if k.startswith("name:")]
    addresses = [k for k in keys if k.startswith("addr:")]

    def count() -> int:
        name_until = book.failed(names, moment, WINDOW_MS, NAME_FAILURES, BLOCK_MS) if names else 0
        address_until = book.failed(addresses, moment, WINDOW_MS, ADDRESS_FAILURES, BLOCK_MS)
        return max(name_until, address_until)

    until = await lobby_of_connection(request).writer.run(count)
    if until:
        return ProtocolError("signin_limited", rule="P20", minutes=max(1, -(-(until - moment) // 60_000)))
    return ProtocolError("signin_failed", rule="P20")


async def signin(request: Request) -> Response:
    """``POST /api/account/signin``: sign in with a name and a password."""
    _flood_check(request)
    body = await read_body(request, SignIn)
    key = name_key(body.name)
    keys = await signin_keys(request, key)
    await check_not_blocked(request, keys)
    book = account_book(request)
    found = await asyncio.to_thread(book.by_key, key) if key else None
    ok, rehash = await verify_password(found[1] if found else None, body.password)
    if not ok or found is None:
        raise await signin_failed(request, keys)
    account = found[0]
    lobby = lobby_of_connection(request)
    await lobby.writer.run(lambda: book.succeeded(keys[0]))
    if rehash:
        fresh = await hash_password(body.password)
        await lobby.writer.run(lambda: book.set_password(account.id, fresh, datetime.now(UTC)))
    reply = Response(media_type="application/json")
    csrf = await open_session(request, account, reply)
    return await account_reply(request, account, csrf, reply)


async def signout(request: Request) -> Response:
    """``POST /api/account/signout``: end this session (its row is deleted) and drop the cookie."""
    await read_body(request, Empty)
    value = request.cookies.get(SESSION_COOKIE)
    if value:
        book = account_book(request)
        await lobby_of_connection(request).writer.run(lambda: book.close_session(hash_session(value)))
    forget_session(request)
    reply = Response(status_code=204)
    clear_cookie(request, reply)
    return reply


async def delete_account(request: Request) -> Response:
    """``DELETE /api/account``: remove the signed-in account and its personal data (P18)."""
    body = await read_body(request, DeleteAccount)
    session = await current_session(request)
    if session is None:
        raise ProtocolError("not_signed_in", rule="P19")
    account = session.account
    if name_key(body.name) != name_key(account.name):
        raise ProtocolError("confirm_name", rule="P18", name=account.name)
    lobby = lobby_of_connection(request)
    book = account_book(request)
    # A table still being played would store the old name again when it ends: the player
    # finishes or leaves his games first (their seats are his account's, P18).
    seated = await asyncio.to_thread(book.seats, account.id)
    if seated:
        raise ProtocolError("account_playing", rule="P18", count=len(seated))
    replacement = f"{DELETED_NAME} {secrets.token_hex(3)}"
    games = await lobby.writer.run(lambda: book.delete(account.id, replacement))
    if games:
        # The ratings are a view of the stored games: rebuilt, they show the new name.
        lobby.ratings = await asyncio.to_thread(Ratings.rebuild, lobby.store)
    log.info("account %s deleted (%d games renamed)", account.id, games)
    forget_session(request)
    reply = Response(status_code=204)
    clear_cookie(request, reply)
    return reply


async def my_seats(request: Request) -> Response:
    """``GET /api/account/seats``: the seats of the signed-in account at tables that wait or
    play, each with the page that takes it back on this device (P18)."""
    session = await current_session(request)
    if session is None:
        raise ProtocolError("not_signed_in", rule="P19")
    found = await asyncio.to_thread(account_book(request).seats, session.account.id)
    seats = [AccountSeat(table=t, seat=n, url=f"/?table={t}#token={ACCOUNT_SEAT}{n}") for t, n in found]
    reply = Response(AccountSeats(seats=seats).model_dump_json(), media_type="application/json")
    reply.headers["cache-control"] = "no-store"
    return reply


async def set_password(request: Request) -> Response:
    """``POST /api/account/password``: give the signed-in account a password, or change it (the
    current one is asked for, and limited as a sign-in is, P20).  The account's other
    sessions end: a changed password signs out every other device."""
    _flood_check(request)
    body = await read_body(request, SetPassword)
    session = await current_session(request)
    if session is None:
        raise ProtocolError("not_signed_in", rule="P19")
    account = session.account
    book = account_book(request)
    found = await asyncio.to_thread(book.by_key, name_key(account.name))
    stored = found[1] if found is not None else None
    if stored is not None:
        keys = await signin_keys(request, name_key(account.name))
        await check_not_blocked(request, keys)
        ok, _ = await verify_password(stored, body.current or "")
        if not ok:
            raise await signin_failed(request, keys)
    check_password(body.password, account.name)
    fresh = await hash_password(body.password)
    keep = hash_session(request.cookies.get(SESSION_COOKIE, ""))

    def write() -> None:
        book.set_password(account.id, fresh, datetime.now(UTC))
        book.close_other_sessions(account.id, keep)

    await lobby_of_connection(request).writer.run(write)
    log.info("account %s set its password", account.id)
    return await account_reply(request, account, session.csrf)
