"""One WebSocket connection to a table: validation, dispatch and sending.

Every incoming message goes through the same checks, in order, and the first
that fails answers with an ``error`` naming its rule and changes nothing:
rate (P6), size (P1), JSON (P1), type (P2), schema (P2), hello first (P3),
then the table's own checks: token (P4), seat and turn (P5), version (P9)
and the game's legality (the engine names the rule).  Messages are
dispatched through :data:`HANDLERS`, one function per message type.

Outgoing messages wait in a bounded queue drained by a writer task, so a
table never waits for a slow client; a client that falls too far behind is
disconnected and can come back with a resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from mushka.errors import MushkaError
from mushka.server import presence
from mushka.server.chat import spectator_chat_name
from mushka.server.guards import client_address
from mushka.server.hint import send_hint
from mushka.server.identity import Account
from mushka.server.lobby import Lobby
from mushka.server.protocol import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    PROTOCOL_VERSION,
    Act,
    AskHint,
    Back,
    Chat,
    ClientMessage,
    Error,
    Hello,
    Lang,
    Leave,
    Listen,
    Moved,
    Ping,
    Pong,
    Rematch,
    RequestId,
    Resync,
    SetLang,
    SetSeat,
    Start,
    TakeBack,
)
from mushka.server.ratelimit import TokenBucket
from mushka.server.seating import OwnedElsewhere, TableMoved
from mushka.server.table import ServerTable
from mushka.server.texts import ProtocolError, ValidationProblem, refused_json
from mushka.server.wire import JsonRefused, strict_loads

log = logging.getLogger("mushka.server")

Handler = Callable[["Connection", Any], Awaitable[None]]


class Connection:
    """A client of one table over one WebSocket."""

    def __init__(self, websocket: WebSocket, lobby: Lobby, table_id: str) -> None:
        """A connection not yet greeted; :meth:`run` serves it to the end."""
        self.websocket = websocket
        self.lobby = lobby
        self.config = lobby.config
        self.table_id = table_id
        self.table: ServerTable | None = None
        self.seat: int | None = None
        self.account_id: str | None = None
        """The id of the signed-in account the hello came with (P18: a seat taken while signed in
        is played only by its account), None for a guest."""
        # The page's language from ?lang= until its hello says it: errors sent
        # before the hello (an unknown table) are then in the page's language too.
        self.lang: Lang = "ru" if websocket.query_params.get("lang") == "ru" else "en"
        self.greeted = False
        self.strikes = 0
        self.bucket = TokenBucket(self.config.rate, self.config.burst)
        self.chat_bucket = TokenBucket(self.config.chat_rate, self.config.chat_burst)
        """P16: this connection's budget of chat lines (besides its address's)."""
        self.address = client_address(websocket.scope)
        self.account: Account | None = None
        """The signed-in account of the connection (known from its hello on), None for a guest."""
        self.hidden: frozenset[str] = frozenset()
        """The accounts whose chat lines this connection is not sent (muted or blocked)."""
        self.chat_name: str | None = None
        """P16: the name a spectator gave for the chat (his hello's ``name``; B7)."""
        self.touched_ms = 0
        """When the account's presence at this table was last written."""
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(self.config.queue_size)
        self._close_code: int | None = None

    # --- sending --------------------------------------------------------------------------

    def send(self, text: str) -> None:
        """Queue one message; a client too far behind is dropped (it can resync)."""
        if self._close_code is not None:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("table %s: dropping a slow connection", self.table_id)
            self.close(4408)

    def fail(self, error: MushkaError, request: RequestId | None = None) -> None:
        """Send ``error`` in this connection's language; a fatal one ends the connection."""
        fatal = isinstance(error, ProtocolError) and error.fatal
        self.send(Error(code=error.code, rule=error.rule, message=error.message(self.lang), id=request,
                        fatal=fatal).model_dump_json())
        if fatal and isinstance(error, ProtocolError):
            self.close(error.close_code)

    def close(self, code: int) -> None:
        """Close after the queued messages have gone out."""
        if self._close_code is not None:
            return
        self._close_code = code
        if self._queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self._queue.get_nowait()
        self._queue.put_nowait(None)

    def moved(self, node: str | None) -> None:
        """Another node serves the table: say which, and close (4307); the client reconnects
        with ``?node=`` after a short random wait."""
        self.send(Moved(table=self.table_id, node=node).model_dump_json())
        self.close(4307)

    async def _writer(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
            await self.websocket.close(self._close_code or 1000)
        except Exception:  # the client is gone; the reader sees the disconnect
            self._close_code = self._close_code or 1001

    # --- receiving ------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until either side closes it."""
        await self.websocket.accept()
        writer = asyncio.get_running_loop().create_task(self._writer())
        if not self.lobby.sockets.take(self.address):
            # P12: one address cannot hold every socket of the server.
            self.fail(ProtocolError("too_many_connections", rule="P12", fatal=True, close_code=4429,
                                    limit=self.config.ws_per_address))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=5)
            return
        try:
            try:
                self.table = await self.lobby.get(self.table_id)
            except ProtocolError as exc:
                exc.fatal, exc.close_code = True, 4404
                self.fail(exc)
                return
            except OwnedElsewhere as moved:
                self.moved(moved.node)
                return
            await self._receive_all()
        finally:
            self.lobby.sockets.give_back(self.address)
            if self.table is not None:
                # Shielded, and whether or not the hello was through: a connection whose task is
                # cancelled (the server stopping, a client gone in the middle of its hello) must
                # still be counted as gone, or its seat never goes away (no grace time, no bot, a
                # table that waits for ever).  A connection the table never seated changes nothing.
                await asyncio.shield(self._detach(self.table))
            self.close(1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=5)
            if not writer.done():
                writer.cancel()

    async def _detach(self, table: ServerTable) -> None:
        """Leave the table; a signed-in account with no other connection there is no longer at it."""
        await table.connections.detach(self)
        if self.account is not None:
            others = sum(1 for c in table.clients if getattr(c, "account", None) == self.account)
            await presence.left(self.lobby, self, others)

    async def _receive_all(self) -> None:
        while self._close_code is None:
            try:
                if self.greeted:
                    message = await self.websocket.receive()
                else:
                    message = await asyncio.wait_for(self.websocket.receive(), self.config.hello_timeout)
            except TimeoutError:
                self.fail(ProtocolError("hello_timeout", rule="P3", fatal=True, close_code=4400,
                                        seconds=self.config.hello_timeout))
                return
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if self.websocket.client_state != WebSocketState.CONNECTED:
                return
            await self.handle(message.get("text"), message.get("bytes"))

    async def handle(self, text: str | None, data: bytes | None) -> None:
        """Check one incoming frame and dispatch it; errors go back to the client."""
        request: RequestId | None = None
        try:
            # The connection's own budget, then its address's, shared by all its connections.
            mine = self.bucket.allow()
            if not mine or not self.lobby.messages.allow(self.address):
                self.strikes += 1
                fatal = self.strikes >= self.config.strikes
                rate = self.config.rate if not mine else self.config.address_rate
                raise ProtocolError("rate_limited", rule="P6", fatal=fatal, close_code=4429, rate=rate)
            message = self.parse(text, data)
            request = message.id
            await HANDLERS[message.type](self, message)
        except MushkaError as exc:
            self.fail(exc, request)
        except Exception:  # a bug answers this message only; the table and the connection go on
            log.exception("table %s: a message failed", self.table_id)
            self.fail(ProtocolError("internal"), request)

    def parse(self, text: str | None, data: bytes | None) -> ClientMessage:
        """P1, P2: one frame as a typed client message, or a :class:`ProtocolError`."""
        if text is None:
            size = len(data or b"")
            if size > self.config.max_message_bytes:
                raise ProtocolError("too_large", rule="P1", size=size, limit=self.config.max_message_bytes)
            raise ProtocolError("not_json", rule="P1")
        size = len(text.encode("utf-8"))
        if size > self.config.max_message_bytes:
            raise ProtocolError("too_large", rule="P1", size=size, limit=self.config.max_message_bytes)
        try:
            raw = strict_loads(text)
        except JsonRefused as exc:
            raise refused_json(exc) from None
        if not isinstance(raw, dict):
            raise ProtocolError("not_object", rule="P1")
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in HANDLERS:
            raise ProtocolError("unknown_type", rule="P2", kind=str(kind)[:32], known=", ".join(CLIENT_TYPES))
        try:
            # Strict: no "1" or true for a number, no 1.0 for a whole number (P2).
            message: ClientMessage = CLIENT_MESSAGE.validate_python(raw, strict=True)
        except ValidationError as exc:
            raise ProtocolError("bad_message", rule="P2", kind=kind, problem=ValidationProblem(exc)) from None
        if not self.greeted and kind != "hello":
            raise ProtocolError("hello_first", rule="P3")
        return message

    def _state_budget(self) -> None:
        """P6: a full state is the dearest thing to send; every address has a budget of them."""
        if not self.lobby.states.allow(self.address):
            raise ProtocolError("rate_limited", rule="P6", rate=self.config.state_rate)

    def _table(self) -> ServerTable:
        assert self.table is not None
        return self.table

    # --- handlers ----------------------------------------------------------------------------------

    async def on_hello(self, message: Hello) -> None:
        """P3, P4: greet, check the protocol version and the token, and send the state."""
        if self.greeted:
            raise ProtocolError("hello_again", rule="P3")
        self._state_budget()
        self.lang = message.lang
        if message.protocol != PROTOCOL_VERSION:
            raise ProtocolError("protocol", rule="P3", fatal=True, close_code=4400,
                                server=PROTOCOL_VERSION, client=message.protocol)
        self.chat_name = spectator_chat_name(message.name) if message.token is None else None
        # Whose lines this connection hides is known before the table sends it the recent chat;
        # the same lookup says whose account a seat's token is presented by (P18).
        await presence.arrived(self.lobby, self, self.websocket)
        if message.token is not None and self.account is not None:
            self.account_id = self.account.id
        for _ in range(3):
            try:
                await self._table().connections.attach(self, message.token, message.id, message.since)
                break
            except TableMoved:
                # The idle table left memory (or went to another node) while this connection
                # waited for its hello.
                try:
                    self.table = await self.lobby.get(self.table_id)
                except OwnedElsewhere as moved:
                    self.moved(moved.node)
                    return
        else:
            raise ProtocolError("no_table", rule="P12", fatal=True, close_code=4404, id=self.table_id)
        self.greeted = True

    async def on_act(self, message: Act) -> None:
        """P5, P9: an action for this connection's seat."""
        await self._table().act(self, message.action, message.version)

    async def on_resync(self, message: Resync) -> None:
        """P7: the full state again."""
        self._state_budget()
        await self._table().resync(self, message.id)

    async def on_set_seat(self, message: SetSeat) -> None:
        """P8: the host sets a seat."""
        await self._table().seating.set_seat(self, message.seat, message.bot)

    async def on_start(self, message: Start) -> None:
        """P8: the host starts the game."""
        await self._table().seating.start(self, message.fill)

    async def on_rematch(self, message: Rematch) -> None:
        """The same table again once its game is over (the lobby makes it)."""
        await self.lobby.rematch(self._table(), self)

    async def on_leave(self, message: Leave) -> None:
        """P8: give the seat up before the start."""
        await self._table().seating.leave(self)

    async def on_lang(self, message: SetLang) -> None:
        """Switch language; the state follows in it."""
        self._state_budget()
        self.lang = message.lang
        await self._table().resync(self, message.id)

    async def on_back(self, message: Back) -> None:
        """P15: take the seat back from the bot that plays for it."""
        await self._table().social.back(self)

    async def on_take_back(self, message: TakeBack) -> None:
        """P21: take back the card just played, while nobody has acted after it."""
        await self._table().take_backs.take_back(self, message.id)

    async def on_chat(self, message: Chat) -> None:
        """P16: one line of table chat, within this connection's and this address's budgets."""
        mine = self.chat_bucket.allow()
        if not mine or not self.lobby.chats.allow(self.address):
            rate, burst = ((self.config.chat_rate, self.config.chat_burst) if not mine else
                           (self.config.chat_address_rate, self.config.chat_address_burst))
            raise ProtocolError("chat_rate", rule="P16", count=burst, seconds=round(burst / rate))
        self._table().social.say(self, text=message.text, phrase=message.phrase)

    async def on_listen(self, message: Listen) -> None:
        """P16: hear the spectators' chat, or not."""
        self._table().social.chat.listen(self, message.spectators)

    async def on_hint(self, message: AskHint) -> None:
        """P17: suggest a move (practice tables only)."""
        await send_hint(self._table(), self, message.id)

    async def on_ping(self, message: Ping) -> None:
        """Keep-alive; the table's version tells the client whether it missed something (P7)."""
        # The version last sent, not the one being stored: a change on its way is not a gap.
        version = self.table.announced if self.table is not None else None
        self.send(Pong(version=version, id=message.id).model_dump_json())
        await presence.still_here(self.lobby, self)


HANDLERS: Final[dict[str, Handler]] = {
    "hello": Connection.on_hello,
    "act": Connection.on_act,
    "resync": Connection.on_resync,
    "set_seat": Connection.on_set_seat,
    "start": Connection.on_start,
    "leave": Connection.on_leave,
    "rematch": Connection.on_rematch,
    "lang": Connection.on_lang,
    "back": Connection.on_back,
    "chat": Connection.on_chat,
    "listen": Connection.on_listen,
    "hint": Connection.on_hint,
    "ping": Connection.on_ping,
    "take_back": Connection.on_take_back,
}
"""The dispatch table: one handler per client message type (P2)."""

assert set(HANDLERS) == set(CLIENT_TYPES)
