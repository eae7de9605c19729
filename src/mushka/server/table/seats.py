"""A table's seats while it waits: joining, bots on seats, leaving, the start and the rematch (P8).

A mixin of :class:`mushka.server.table.ServerTable`: every public method takes the
table's lock, and every change of the seats is stored before it is sent, as
any other change of the table (:mod:`mushka.server.table.storage`).  Dealing the
first deal is the table's own (``_start``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from mushka import __version__
from mushka.rules import Rules
from mushka.server.config import ServerConfig
from mushka.server.protocol import Lang, Moved, Welcome
from mushka.server.seating import Client, Seat, TableMoved, hash_token, new_token, now
from mushka.server.store import ABANDONED, GameRating
from mushka.server.table.storage import HasWriter, TableStorage
from mushka.server.texts import ProtocolError

log = logging.getLogger("mushka.server")

Build = Callable[[int | None, Lang], str | None]
"""Makes the message for one (seat, language); ``None``: nothing to send."""


class HasBots(HasWriter, Protocol):
    """What the seats need of the table's services: the writer and the bots a table may use."""

    @property
    def default_bot(self) -> str:
        """The bot an open seat gets when the game starts without a person there."""
        ...

    def check_bot(self, name: str) -> str:
        """``name`` if tables may use that bot; else a P10 error."""
        ...


class TableSeats(TableStorage):
    """The seating half of a table (see the module docstring); :class:`~mushka.server.table.ServerTable`
    sets every attribute declared here and makes the messages."""

    rules: Rules
    host: int | None
    autostart: bool
    next: str | None
    announced: int
    lock: asyncio.Lock
    evicted: bool
    services: HasBots
    _names: dict[str, list[str | None]] | None

    # Made by the ServerTable itself (they need its views); declared here so that the type checker
    # knows them.  They are never called on a bare TableSeats.
    def _broadcast(self, build: Build) -> None:
        raise NotImplementedError

    def _table_message(self) -> Build:
        raise NotImplementedError

    def _presence(self) -> None:
        raise NotImplementedError

    def _game_over(self) -> None:
        raise NotImplementedError

    async def _start(self, fill: str | None) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the table's tasks (made by the table)."""
        raise NotImplementedError

    config: ServerConfig
    created: datetime
    joined: datetime | None
    _wake: asyncio.Event
    _unjoined: asyncio.Task[None] | None

    # --- a table nobody came to (P12) -----------------------------------------------------

    async def mark_joined(self) -> None:
        """A person came to the table for the first time (the lock is held): stored, so that
        every process counts the table as one that people play at."""
        if self.joined is not None:
            return
        self.joined = now()
        await self._store(replace(self._table_save(), joined=self.joined))

    def watch_unjoined(self) -> None:
        """A playing table with a person's seat that nobody came to: it ends once the grace
        time since its making has passed without anybody.  Past that time, until it is stored
        as ended (its process was busy, or died and the table waits to be taken over), every
        process counts it as a table of bots only for the quotas (P12)."""
        if self.status != "playing" or self.joined is not None or self._closed:
            return
        if self._unjoined is None or self._unjoined.done():
            self._unjoined = asyncio.get_running_loop().create_task(self._end_unjoined())

    async def _end_unjoined(self) -> None:
        left = self.config.grace - (now() - self.created).total_seconds()
        await asyncio.sleep(max(0.0, left))
        async with self.lock:
            if self.status != "playing" or self.joined is not None or self._closed:
                return
            log.info("table %s: nobody came within %.0f s; it ends", self.id, self.config.grace)
            await self.end_unplayed(None)

    async def end_unplayed(self, rating: GameRating | None) -> None:
        """End the table before its game ended (the lock is held): nobody came, or the only
        person left.  Stored as abandoned (no record, not among the finished games) with how
        the ratings count it (a forfeit), if at all."""
        self.status = "over"
        self.finished = now()
        self.version += 1
        for seat in self.seats:
            if seat.away is not None and seat.away is not asyncio.current_task():
                seat.away.cancel()
            seat.away = None
        save = replace(self._table_save(), status=ABANDONED, finished=self.finished,
                       rating=None if rating is None else rating.dumps())
        await self._store(save)
        self._broadcast(self._table_message())
        self.announced = self.version
        self._wake.set()
        if rating is not None and rating.rated:
            self._game_over()

    async def hand_over(self, node: str | None) -> None:
        """Another process owns the table now: stop, and send every connection there (``moved``,
        then close 4307; the page reconnects through the proxy to ``node``)."""
        self.evicted = True
        await self.close()
        text = Moved(table=self.id, node=node).model_dump_json()
        for client in list(self.clients):
            client.send(text)
            client.close(4307)

    async def join(self, name: str | None, index: int | None, account: str | None = None) -> tuple[int, str]:
        """P8: take an open seat through the invitation; returns the seat and its new token.
        A signed-in person's seat is his ``account``'s (P18)."""
        self._check_storage()
        async with self.lock:
            if self.evicted:
                raise TableMoved
            if self.status != "waiting":
                raise ProtocolError("not_waiting", rule="P8")
            if index is None:
                seat = next((s for s in self.seats if s.kind == "open"), None)
                if seat is None:
                    raise ProtocolError("no_open_seat", rule="P8")
            else:
                seat = self._seat_at(index)
                if seat.kind != "open":
                    raise ProtocolError("seat_taken", rule="P8", seat=index)
            token = new_token()
            seat.kind, seat.name, seat.bot, seat.token_hash = "human", name, None, hash_token(token)
            seat.account = account
            await self._changed(autostart=True)
            return seat.index, token

    async def set_seat(self, client: Client, index: int, bot: str | None) -> None:
        """P8: the host puts a bot on an open seat, or opens a bot seat again."""
        self._check_storage()
        async with self.lock:
            self._check_host(client)
            seat = self._seat_at(index)
            if seat.kind == "human":
                raise ProtocolError("seat_taken", rule="P8", seat=index)
            if bot is None:
                seat.kind, seat.bot = "open", None
            else:
                seat.kind, seat.bot = "bot", self.services.check_bot(bot)
            await self._changed(autostart=False)

    async def start(self, client: Client, fill: str | None) -> None:
        """P8: the host starts the game; open seats get the bot ``fill``."""
        self._check_storage()
        async with self.lock:
            self._check_host(client)
            if fill is not None:
                self.services.check_bot(fill)
            await self._start(fill)

    async def leave(self, client: Client) -> None:
        """P8: a player gives up his seat while the table waits and watches from then on."""
        self._check_storage()
        async with self.lock:
            if client.seat is None:
                raise ProtocolError("spectator", rule="P5")
            if self.status != "waiting":
                raise ProtocolError("not_waiting", rule="P8")
            if client.seat == self.host:
                raise ProtocolError("host_leaves", rule="P8")
            seat = self.seats[client.seat]
            seat.kind, seat.name, seat.token_hash, seat.connections = "open", None, None, 0
            seat.account = None
            # Every connection of that seat becomes a spectator (the token is dead).
            for other in list(self.clients):
                if other.seat == seat.index:
                    other.seat = None
                    other.send(Welcome(server=__version__, table=self.id, seat=None,
                                       lang=other.lang).model_dump_json())
            await self._changed(autostart=False)

    def _check_host(self, client: Client) -> None:
        if self.host is None or client.seat != self.host:
            raise ProtocolError("not_host", rule="P8", host="—" if self.host is None else self.host)
        if self.status != "waiting":
            raise ProtocolError("not_waiting", rule="P8")

    def _seat_at(self, index: int) -> Seat:
        if not 0 <= index < len(self.seats):
            raise ProtocolError("bad_seat", rule="P8", seat=index, players=len(self.seats))
        return self.seats[index]

    async def _changed(self, *, autostart: bool) -> None:
        """The seats changed (the lock is held): store, tell everybody, maybe start."""
        self._names = None
        if autostart and self.autostart and all(s.kind != "open" for s in self.seats):
            await self._start(None)
            return
        self.version += 1
        await self._store(self._table_save(seats=True))
        self._broadcast(self._table_message())
        self.announced = self.version
        self._presence()

    def rematch_seats(self, client: Client) -> list[Seat]:
        """The seats of a rematch asked for by ``client``: the same people (same tokens) and bots."""
        if client.seat is None:
            raise ProtocolError("spectator", rule="P5")
        if self.status != "over":
            raise ProtocolError("not_over_yet", rule="P8")
        return [Seat(s.index, s.kind, name=s.name, bot=s.bot, token_hash=s.token_hash, account=s.account)
                for s in self.seats]

    async def announce_next(self, table_id: str) -> None:
        """Tell everybody at this table where the rematch is."""
        async with self.lock:
            if self.next is not None:
                return
            self.next = table_id
            self.version += 1
            await self._store(replace(self._table_save(seats=False), next_id=table_id))
            self._broadcast(self._table_message())
            self.announced = self.version

    async def start_now(self) -> None:
        """Start at once, open seats getting the default bot (a table created with ``start``)."""
        async with self.lock:
            if self.status == "waiting":
                await self._start(None)
