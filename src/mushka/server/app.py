"""The ASGI application: the HTTP API, the table WebSockets and the static front end.

:func:`create_app` builds a Starlette app from a :class:`ServerConfig`.  At
startup it runs the database migrations (a fresh database is created the same
way), brings back every table that was waiting or playing and, unless told
not to, tunes the garbage collector (:func:`tune_gc`); at shutdown it stops
the tables' tasks and stores whatever is still queued.  See
``docs/protocol.md`` for every endpoint.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Literal, TypeVar
from urllib.parse import urlencode

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from mushka import __version__
from mushka.errors import MushkaError
from mushka.server import abuse, accountweb, friends, pagetexts, passkeys, profiles
from mushka.server.bodies import (
    CreateTable,
    ErrorBody,
    ErrorReply,
    Health,
    JoinTable,
    QuickMatchRequest,
    TableList,
)
from mushka.server.config import ServerConfig
from mushka.server.connection import Connection
from mushka.server.guards import HostCheck, SecurityHeaders, allowed_hosts, check_origin, client_address
from mushka.server.httpio import json_reply, page_origins, read_json, request_lang
from mushka.server.lobby import Lobby
from mushka.server.ratelimit import AddressLimiter
from mushka.server.ratings import VARIANTS
from mushka.server.reviews import Reviews, seat_param
from mushka.server.seating import OwnedElsewhere
from mushka.server.sqlstore import SqlStore
from mushka.server.store import NodeStore
from mushka.server.tasks import stop_task
from mushka.server.texts import HTTP_STATUS, Problem, ProtocolError
from mushka.server.tutorial import CreateTutorial, start_tutorial

log = logging.getLogger("mushka.server")

M = TypeVar("M", bound=BaseModel)
Seating = TypeVar("Seating", CreateTable, QuickMatchRequest, CreateTutorial)
Endpoint = Callable[[Request], Awaitable[Response]]


GC_THRESHOLDS = (700, 1_000_000, 1_000_000)
"""The youngest generation is collected as Python does it (every 700 net allocations);
the older two never by themselves: :func:`keep_gc` takes care of them."""


def tune_gc() -> None:
    """Keep the garbage collector's pauses short on a server holding many games.

    A full collection walks every object of the process, and a thousand games
    in memory make millions: with Python's own settings it stops the event
    loop for hundreds of milliseconds whenever enough new objects have
    survived, which is every few seconds under load.  So the older
    generations are not collected by themselves any more: what is alive after
    startup is frozen out of the collector's sight (:func:`gc.freeze`), and
    :func:`keep_gc` freezes whatever survived every little while and collects
    everything once in a long while.  Young collections go on as usual; each
    walks only what was made since the last one (about a millisecond).  The
    measured effect is in ``docs/server.md``.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def keep_gc(every: float, full_every: float) -> None:
    """Freeze what survived every ``every`` seconds; once every ``full_every`` seconds,
    thaw everything and collect it all (one longer pause, logged).

    Frozen objects are still freed by reference counting as usual; only garbage
    in reference cycles among them waits for the next full collection.  The
    server makes almost none (its games, tables and connections hold no
    cycles, and storage uses no ORM objects), so little waits.
    """
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(every)
        if time.monotonic() - last_full >= full_every:
            gc.unfreeze()
            began = time.perf_counter()
            found = gc.collect()
            log.info("full garbage collection: %d objects in reference cycles freed in %.0f ms",
                     found, (time.perf_counter() - began) * 1000)
            last_full = time.monotonic()
        gc.freeze()


def error_reply(error: MushkaError, lang: str) -> Response:
    """Any mushka error as an HTTP error with its code, rule and message."""
    status = HTTP_STATUS.get(error.code, 400) if isinstance(error, ProtocolError) else 400
    body = ErrorReply(error=ErrorBody(code=error.code, rule=error.rule, message=error.message(lang)))
    reply = json_reply(body, status)
    if status == 413:
        # The rest of the body is not read: the connection ends with this reply.
        reply.headers["connection"] = "close"
    return reply


def moved_url(request: Request, node: str) -> str:
    """The URL of ``request`` with ``node=NODE`` in its query (the proxy routes it to that node)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "node"]
    return str(request.url.replace(query=urlencode([*query, ("node", node)])))


def create_app(config: ServerConfig | None = None, *, store: NodeStore | None = None,
               close_store: bool = False) -> Starlette:
    """The server as an ASGI app (``store`` replaces the SQL storage, e.g. in tests; with
    ``close_store`` the app closes it at its shutdown, as it does its own)."""
    cfg = config or ServerConfig()
    limiter = AddressLimiter(cfg.http_rate, cfg.http_burst)
    readers = AddressLimiter(cfg.read_rate, cfg.read_burst)
    # The address the server is announced under (--public-url) is its own, as friends see it.
    origins = page_origins(cfg)
    holder: dict[str, Lobby] = {}
    reviews: dict[str, Reviews] = {}

    def lobby() -> Lobby:
        return holder["lobby"]

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        used: NodeStore = store if store is not None else await asyncio.to_thread(
            lambda: SqlStore(cfg.database_url, sync=cfg.sqlite_sync))
        holder["lobby"] = lob = Lobby(cfg, used)
        reviews["made"] = Reviews(lob.finished_games.record, kind=cfg.bot_pool, nice=cfg.bot_nice)
        await lob.open()
        keeper: asyncio.Task[None] | None = None
        if cfg.tune_gc:
            tune_gc()
            keeper = asyncio.get_running_loop().create_task(keep_gc(cfg.gc_freeze_every, cfg.gc_full_every))
        log.info("mushka %s serving; %d tables in memory", __version__, len(lob.tables))
        try:
            yield
        finally:
            await stop_task(keeper)
            reviews["made"].shutdown()
            await lob.close()
            if store is None or close_store:
                # Here, not after the server returns: uvicorn ends the process with the signal
                # that stopped it, so nothing after its run is sure to happen.
                used.close()

    def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Endpoint:
        """Turn every mushka error into its HTTP reply."""

        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except MushkaError as exc:
                return error_reply(exc, request_lang(request))
            except OwnedElsewhere as moved:
                return moved_reply(request, moved)

        return endpoint

    async def read_body(request: Request, model: type[M]) -> M:
        return await read_json(request, model, origins=origins, limit=cfg.max_body_bytes)

    def moved_reply(request: Request, moved: OwnedElsewhere) -> Response:
        """Another node owns the table: 307 to the same URL with ``?node=`` (method and body kept),
        or, while it waits for a new owner, 503 with a short Retry-After."""
        lang = request_lang(request)
        if moved.node is None:
            reply = error_reply(ProtocolError("moving", rule="P14", id=moved.table_id), lang)
            reply.headers["retry-after"] = "1"
            return reply
        body = ErrorReply(error=ErrorBody(code="moved", rule=None, message=ProtocolError(
            "moved", node=moved.node).message(lang)))
        reply = json_reply(body, 307)
        reply.headers["location"] = moved_url(request, moved.node)
        return reply

    def limit(request: Request) -> None:
        address = client_address(request.scope)
        if not limiter.allow(address):
            raise ProtocolError("rate_limited", rule="P6", rate=cfg.http_rate)

    def limit_reads(request: Request) -> None:
        # Records and replays are the dear reads (storage, parsing, replaying): a budget per address.
        if not readers.allow(client_address(request.scope)):
            raise ProtocolError("rate_limited", rule="P6", rate=cfg.read_rate)

    def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
        text = request.query_params.get(name)
        if text is None:
            return default
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise ProtocolError("bad_query", rule="P2", name=name,
                                problem=Problem("server.problem.number", low=low, high=high))
        return value

    async def health(request: Request) -> Response:
        lob = lobby()
        answers = await lob.database_answers()
        failing = lob.writer.failing
        storage: Literal["ok", "failing", "unreachable"] = (
            "unreachable" if not answers else "failing" if failing else "ok")
        owned = lob.store.owned
        lease = lob.membership.health()
        report = Health(
            status="ok" if storage == "ok" and lease.current else "degraded",
            server=__version__, tables=len(lob.tables),
            playing=sum(1 for t in lob.tables.values() if t.status == "playing"),
            connections=lob.connections, database=storage == "ok", storage=storage,
            waiting_for_storage=sum(1 for t in lob.tables.values() if t.stalled),
            pending_saves=lob.writer.pending,
            quarantined=len(getattr(lob.store, "quarantined", ())),
            bots=lob.thinkers.report(),
            node=lob.node.name, owned=len(owned), owned_tables=sorted(owned), lease=lease,
            nodes=await lob.node_names(),
        )
        return json_reply(report, 200 if storage == "ok" and lease.current else 503)

    async def meta(request: Request) -> Response:
        return json_reply(lobby().meta())

    async def list_tables(request: Request) -> Response:
        status = request.query_params.get("status")
        if status not in (None, "waiting", "playing", "over"):
            raise ProtocolError("bad_query", rule="P2", name="status", problem=Problem("server.problem.status"))
        return json_reply(TableList(tables=await lobby().listed(status, request_lang(request))))

    async def seat_sender(request: Request, model: type[Seating],
                          seat: Callable[[Seating, str, str, str | None], Awaitable[BaseModel]]) -> Response:
        """A request that seats its sender (a new table, the quick match, a tutorial): its body, then
        the name and account it sits under (P18), then ``seat(body, lang, address, account)``: 201."""
        limit(request)
        body = await read_body(request, model)
        lang = request_lang(request, body.lang)
        try:
            body, account = await accountweb.seat_identity(request, body)
            reply = await seat(body, lang, client_address(request.scope), account)
        except MushkaError as exc:
            return error_reply(exc, lang)
        return json_reply(reply, 201)

    async def create_table(request: Request) -> Response:
        return await seat_sender(request, CreateTable, lambda body, lang, address, account: lobby().create(
            body, lang, address=address, account=account))

    async def quick_match(request: Request) -> Response:
        return await seat_sender(request, QuickMatchRequest, lobby().quick.join)

    async def quick_match_ticket(request: Request) -> Response:
        limit_reads(request)
        return json_reply(await lobby().quick.status(request.path_params["ticket"][:64]))

    async def quick_match_cancel(request: Request) -> Response:
        if not await lobby().quick.cancel(request.path_params["ticket"][:64]):
            raise ProtocolError("no_ticket", rule="P10")
        return Response(status_code=204)

    async def create_tutorial(request: Request) -> Response:
        return await seat_sender(request, CreateTutorial, lambda body, lang, address, _account: start_tutorial(
            lobby(), body, lang, address=address))

    async def get_table(request: Request) -> Response:
        table = await lobby().get(request.path_params["table_id"])
        return json_reply(table.info(request_lang(request)))

    async def join_table(request: Request) -> Response:
        limit(request)
        body = await read_body(request, JoinTable)
        lang = request_lang(request, body.lang)
        try:
            body, account = await accountweb.seat_identity(request, body)
            reply = await lobby().join(request.path_params["table_id"], body.name, body.seat, lang, account)
        except MushkaError as exc:
            return error_reply(exc, lang)
        return json_reply(reply)

    async def get_record(request: Request) -> Response:
        limit_reads(request)
        text = await lobby().finished_games.record(request.path_params["table_id"])
        return Response(text, media_type="application/json")

    async def get_replay(request: Request) -> Response:
        limit_reads(request)
        made = await lobby().finished_games.replay(request.path_params["table_id"], request_lang(request))
        return Response(made, media_type="application/json")

    async def get_review(request: Request) -> Response:
        # Made in the reviews' own worker process and kept; a game being played is refused (P11).
        limit_reads(request)
        seat = seat_param(request.query_params.get("seat"))
        reply = await reviews["made"].reply(request.path_params["table_id"][:32], seat, request_lang(request))
        return json_reply(reply)

    async def get_rules(request: Request) -> Response:
        return json_reply(await lobby().rules(request.path_params["table_id"], request_lang(request)))

    async def list_records(request: Request) -> Response:
        limit_reads(request)
        count = int_param(request, "limit", 50, 1, 500)
        offset = int_param(request, "offset", 0, 0, 10**9)
        return Response(await lobby().finished_games.records_json(count, offset), media_type="application/json")

    async def ratings(request: Request) -> Response:
        # The board lives in memory (rebuilt from the stored games at the start): a cheap read.
        count = int_param(request, "limit", 20, 1, 200)
        name = (request.query_params.get("name") or "")[:64] or None
        variant = request.query_params.get("variant") or "classic"
        if variant not in VARIANTS:
            raise ProtocolError("bad_query", rule="P2", name="variant", problem=Problem("server.problem.variant"))
        return json_reply(lobby().board(name, count, variant))

    async def table_socket(websocket: WebSocket) -> None:
        try:
            check_origin(websocket.scope, origins)
        except ProtocolError as exc:
            log.warning("WebSocket refused: %s", exc.message("en"))
            await websocket.close(4403)  # before the handshake: the browser sees a 403
            return
        await Connection(websocket, lobby(), websocket.path_params["table_id"]).run()

    routes: list[BaseRoute] = [
        Route("/api/health", guarded(health), methods=["GET"]),
        Route("/api/meta", guarded(meta), methods=["GET"]),
        Route("/api/tables", guarded(list_tables), methods=["GET"]),
        Route("/api/tables", guarded(create_table), methods=["POST"]),
        Route("/api/quickmatch", guarded(quick_match), methods=["POST"]),
        Route("/api/quickmatch/{ticket}", guarded(quick_match_ticket), methods=["GET"]),
        Route("/api/quickmatch/{ticket}", guarded(quick_match_cancel), methods=["DELETE"]),
        Route("/api/tutorial", guarded(create_tutorial), methods=["POST"]),
        Route("/api/tables/{table_id}", guarded(get_table), methods=["GET"]),
        Route("/api/tables/{table_id}/join", guarded(join_table), methods=["POST"]),
        Route("/api/tables/{table_id}/record", guarded(get_record), methods=["GET"]),
        Route("/api/tables/{table_id}/rules", guarded(get_rules), methods=["GET"]),
        Route("/api/records", guarded(list_records), methods=["GET"]),
        Route("/api/ratings", guarded(ratings), methods=["GET"]),
        Route("/api/records/{table_id}", guarded(get_record), methods=["GET"]),
        Route("/api/records/{table_id}/replay", guarded(get_replay), methods=["GET"]),
        Route("/api/records/{table_id}/review", guarded(get_review), methods=["GET"]),
        Route("/api/account", guarded(accountweb.whoami), methods=["GET"]),
        Route("/api/account", guarded(accountweb.delete_account), methods=["DELETE"]),
        Route("/api/account/claim", guarded(accountweb.claim), methods=["POST"]),
        Route("/api/account/signin", guarded(accountweb.signin), methods=["POST"]),
        Route("/api/account/signout", guarded(accountweb.signout), methods=["POST"]),
        Route("/api/account/password", guarded(accountweb.set_password), methods=["POST"]),
        Route("/api/account/seats", guarded(accountweb.my_seats), methods=["GET"]),
        Route("/api/account/passkey/register/options", guarded(passkeys.register_options), methods=["POST"]),
        Route("/api/account/passkey/register", guarded(passkeys.register), methods=["POST"]),
        Route("/api/account/passkey/signin/options", guarded(passkeys.signin_options), methods=["POST"]),
        Route("/api/account/passkey/signin", guarded(passkeys.signin), methods=["POST"]),
        Route("/api/profiles/{name}", profiles.profile, methods=["GET"]),
        Route("/api/friends", friends.list_friends, methods=["GET"]),
        Route("/api/friends", friends.ask_friend, methods=["POST"]),
        Route("/api/friends/remove", friends.remove_friend, methods=["POST"]),
        Route("/api/friends/link", friends.my_link, methods=["GET"]),
        Route("/api/friends/link", friends.use_link, methods=["POST"]),
        Route("/api/invitations", friends.invite, methods=["POST"]),
        Route("/api/notices", friends.notices, methods=["GET"]),
        Route("/api/notices/{notice_id}/seen", friends.notice_seen, methods=["POST"]),
        Route("/api/hides", abuse.list_hides, methods=["GET"]),
        Route("/api/hides", abuse.set_hide, methods=["POST"]),
        Route("/api/reports", abuse.report_line, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
    ]
    if cfg.web_dir is not None and (cfg.web_dir / "index.html").is_file():
        # The page's texts come from the server's catalogue, not from a file of the page.
        routes.append(Route(pagetexts.PATH, pagetexts.serve, methods=["GET"]))
        routes.append(Mount("/", app=StaticFiles(directory=cfg.web_dir, html=True), name="web"))
    else:
        async def no_front_end(request: Request) -> Response:
            return JSONResponse({"server": f"mushka {__version__}", "api": "/api/meta",
                                 "protocol": "docs/protocol.md"})

        routes.append(Route("/", no_front_end, methods=["GET"]))
    hosts = allowed_hosts(cfg)
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(SecurityHeaders), Middleware(HostCheck, allowed=hosts),
                                Middleware(accountweb.CsrfGuard)])
    app.state.holder = holder
    return app


def lobby_of(app: Starlette) -> Lobby:
    """The lobby of a running app (for tests and tools)."""
    holder: dict[str, Lobby] = app.state.holder
    return holder["lobby"]
