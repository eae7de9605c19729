"""What the social endpoints share: the lobby and the social book of a request, the signed-in
account, a strict JSON body, the language, the per-address budget, and errors as replies.

The endpoints themselves are in :mod:`mushka.server.friends`, :mod:`mushka.server.abuse`
and :mod:`mushka.server.profiles`; ``app.py`` only routes to them.  Reads run in a worker
thread; writes where the writer commits (:meth:`~mushka.server.writer.Writer.run`), so that
a process never competes with itself for the database's write lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from pydantic import BaseModel
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from mushka.errors import MushkaError
from mushka.server import httpio
from mushka.server.accounts import current_account, lobby_of_connection
from mushka.server.bodies import ErrorBody, ErrorReply
from mushka.server.guards import check_origin, client_address
from mushka.server.httpio import page_origins, read_json, request_lang
from mushka.server.identity import Account
from mushka.server.lobby import Lobby
from mushka.server.ratelimit import AddressLimiter
from mushka.server.socialbodies import HideBody, InviteBody, NameBody
from mushka.server.socialdb import Person, SocialBook
from mushka.server.texts import HTTP_STATUS, ProtocolError

M = TypeVar("M", bound=BaseModel)
Named = TypeVar("Named", NameBody, InviteBody, HideBody)
"""A body that names another player."""
T = TypeVar("T")
Endpoint = Callable[[Request], Awaitable[Response]]

SOCIAL_STATUS: Final[dict[str, int]] = {
    "sign_in_needed": 401, "no_player": 404, "no_friend_link": 404, "not_friends": 403,
    "blocked": 403, "yourself": 400, "no_notice": 404, "no_line": 404, "no_profile": 404,
}
"""HTTP status of the social endpoints' own error codes (400 for the rest)."""

MAX_SOCIAL_BODY: Final = 2048
"""Bytes a social request's body may have (a name, a code, a chat line)."""


def lobby_of(conn: HTTPConnection) -> Lobby:
    """The lobby of the app serving ``conn``."""
    return lobby_of_connection(conn)


def book_of(conn: HTTPConnection) -> SocialBook:
    """The social tables of the app's store (made once per store)."""
    store = lobby_of(conn).store
    book = getattr(store, "social", None)
    if isinstance(book, SocialBook):
        return book
    engine = getattr(store, "engine", None)
    if engine is None:
        raise ProtocolError("storage_down", rule="P14")
    made = SocialBook(engine)
    # Kept on the store: one book per database, whichever endpoint asks first.
    store.social = made  # type: ignore[attr-defined]
    return made


lang_of = request_lang
"""The language of a reply (the body's ``lang``, ``?lang=``, then ``Accept-Language``)."""


async def signed_in(conn: HTTPConnection) -> Account:
    """The signed-in account of ``conn``, or the error that says one is needed (F1)."""
    account = await current_account(conn)
    if account is None:
        raise ProtocolError("sign_in_needed", rule="F1")
    return account


async def read(conn: HTTPConnection, work: Callable[[], T]) -> T:
    """Run a blocking read in a worker thread."""
    return await asyncio.to_thread(work)


async def write(conn: HTTPConnection, work: Callable[[], T]) -> T:
    """Run a blocking write where the writer commits."""
    return await lobby_of(conn).writer.run(work)


def _limiter(request: Request, name: str, rate: float, burst: int) -> AddressLimiter:
    state = request.app.state
    limiter = getattr(state, name, None)
    if not isinstance(limiter, AddressLimiter):
        limiter = AddressLimiter(rate, burst)
        setattr(state, name, limiter)
    return limiter


def limit(request: Request) -> None:
    """P6: the social writes of one address share a budget (the server's HTTP rate)."""
    cfg = lobby_of(request).config
    if not _limiter(request, "social_limiter", cfg.http_rate, cfg.http_burst).allow(client_address(request.scope)):
        raise ProtocolError("rate_limited", rule="P6", rate=cfg.http_rate)


def limit_reads(request: Request) -> None:
    """P6: the dearer public reads (profiles) of one address share a budget (the server's read rate)."""
    cfg = lobby_of(request).config
    if not _limiter(request, "social_readers", cfg.read_rate, cfg.read_burst).allow(client_address(request.scope)):
        raise ProtocolError("rate_limited", rule="P6", rate=cfg.read_rate)


def same_site(request: Request) -> None:
    """P13: a change asked from a page of this server (or by a program, which sends no origin)."""
    check_origin(request.scope, page_origins(lobby_of(request).config))


async def body(request: Request, model: type[M]) -> M:
    """P1, P2, P13: the request's JSON body as ``model``, from a page of this server."""
    return await read_json(request, model, origins=page_origins(lobby_of(request).config), limit=MAX_SOCIAL_BODY)


def json_reply(model: BaseModel, status: int = 200) -> Response:
    """A pydantic model as a JSON response (never cached: it is one person's)."""
    return httpio.json_reply(model, status, private=True)


def endpoint(handler: Endpoint) -> Endpoint:
    """``handler`` with every mushka error turned into its HTTP reply, in the caller's language."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except MushkaError as exc:
            status = 400
            if isinstance(exc, ProtocolError):
                status = SOCIAL_STATUS.get(exc.code, HTTP_STATUS.get(exc.code, 400))
            lang = lang_of(request)
            return json_reply(ErrorReply(error=ErrorBody(code=exc.code, rule=exc.rule, message=exc.message(lang))),
                              status)

    run.__name__ = run.__qualname__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


async def other_person(request: Request, book: SocialBook, name: str, me: str, rule: str = "F2") -> Person:
    """The account called ``name``, not ``me``; else the error of ``rule`` (F2 for friends, F4 for
    mutes and blocks)."""
    other = await read(request, lambda: book.person(name))
    if other is None:
        raise ProtocolError("no_player", rule=rule, name=name)
    if other.id == me:
        raise ProtocolError("yourself", rule=rule)
    return other


async def me_and_other(request: Request, model: type[Named],
                       rule: str = "F2") -> tuple[Account, Named, SocialBook, Person]:
    """The signed-in caller (F1), the request's body naming another account, the book, and that
    account (:func:`other_person`): the start of every call about one other player."""
    limit(request)
    me = await signed_in(request)
    wanted = await body(request, model)
    book = book_of(request)
    return me, wanted, book, await other_person(request, book, wanted.name, me.id, rule)
