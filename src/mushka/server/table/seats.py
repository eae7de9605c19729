"""A table's seats while it waits: joining, bots on seats, leaving, the start and the rematch (P8).

:class:`TableSeats` belongs to one :class:`~mushka.server.table.ServerTable` and
works on it through :class:`SeatsHost`.  Every public method takes the table's
lock, and every change of the seats is stored before it is sent, as any other
change of the table (:mod:`mushka.server.table.storage`).  Dealing the first
deal is the table's own (``start_game``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from mushka import __version__
from mushka.server.protocol import Lang, Moved, Welcome
from mushka.server.seating import Client, Seat, TableMoved, hash_token, new_token, now
from mushka.server.store import ABANDONED, GameRating
from mushka.server.table.host import TableBasics, TableProgress, TableRunning
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


class SeatsHost(TableBasics, TableProgress, TableRunning, Protocol):
    """What the seats need of their table besides its basics, progress and running: its
    ``storage``, when it was made (``created``) and first joined (``joined``), when it ended
    (``finished``), whether it starts by itself (``autostart``), its ``host``'s seat, whether
    it left this process (``evicted``), the rematch's table (``next``), and the messages it makes."""

    storage: TableStorage
    created: datetime
    joined: datetime | None
    finished: datetime | None
    autostart: bool
    host: int | None
    evicted: bool
    next: str | None

    @property
    def services(self) -> HasBots:
        """The services every table shares."""
        ...

    def broadcast(self, build: Build) -> None:
        """Send every connection its own message."""
        ...

    def table_message(self) -> Build:
        """The ``table`` message of the table's version now."""
        ...

    def presence(self) -> None:
        """Tell everybody who sits where."""
        ...

    def forget_names(self) -> None:
        """The seats' names changed: the table makes them again when next asked."""
        ...

    def game_over(self) -> None:
        """Tell whoever counts finished games that this one ended."""
        ...

    async def start_game(self, fill: str | None) -> None:
        """Deal the first deal (the lock is held); open seats get the bot ``fill``."""
        ...

    async def close(self) -> None:
        """Stop the table's tasks."""
        ...


class TableSeats:
    """The seats of one table while it waits (see the module docstring)."""

    def __init__(self, table: SeatsHost) -> None:
        """The seats of ``table``."""
        self.table = table
        self.unjoined: asyncio.Task[None] | None = None
        """The task that ends a playing table nobody came to (see :meth:`watch_unjoined`)."""

    # --- a table nobody came to (P12) -----------------------------------------------------

    async def mark_joined(self) -> None:
        """A person came to the table for the first time (the lock is held): stored, so that
        every process counts the table as one that people play at."""
        if self.table.joined is not None:
            return
        self.table.joined = now()
        await self.table.storage.store(replace(self.table.storage.table_save(), joined=self.table.joined))

    def watch_unjoined(self) -> None:
        """A playing table with a person's seat that nobody came to: it ends once the grace
        time since its making has passed without anybody.  Past that time, until it is stored
        as ended (its process was busy, or died and the table waits to be taken over), every
        process counts it as a table of bots only for the quotas (P12)."""
        if self.table.status != "playing" or self.table.joined is not None or self.table.closed:
            return
        if self.unjoined is None or self.unjoined.done():
            self.unjoined = asyncio.get_running_loop().create_task(self._end_unjoined())

    async def _end_unjoined(self) -> None:
        left = self.table.config.grace - (now() - self.table.created).total_seconds()
        await asyncio.sleep(max(0.0, left))
        async with self.table.lock:
            if self.table.status != "playing" or self.table.joined is not None or self.table.closed:
                return
            log.info("table %s: nobody came within %.0f s; it ends", self.table.id, self.table.config.grace)
            await self.end_unplayed(None)

    async def end_unplayed(self, rating: GameRating | None) -> None:
        """End the table before its game ended (the lock is held): nobody came, or the only
        person left.  Stored as abandoned (no record, not among the finished games) with how
        the ratings count it (a forfeit), if at all."""
        self.table.status = "over"
        self.table.finished = now()
        self.table.version += 1
        for seat in self.table.seats:
            if seat.away is not None and seat.away is not asyncio.current_task():
                seat.away.cancel()
            seat.away = None
        save = replace(self.table.storage.table_save(), status=ABANDONED, finished=self.table.finished,
                       rating=None if rating is None else rating.dumps())
        await self.table.storage.store(save)
        self.table.broadcast(self.table.table_message())
        self.table.announced = self.table.version
        self.table.wake.set()
        if rating is not None and rating.rated:
            self.table.game_over()

    async def hand_over(self, node: str | None) -> None:
        """Another process owns the table now: stop, and send every connection there (``moved``,
        then close 4307; the page reconnects through the proxy to ``node``)."""
        self.table.evicted = True
        await self.table.close()
        text = Moved(table=self.table.id, node=node).model_dump_json()
        for client in list(self.table.clients):
            client.send(text)
            client.close(4307)

    async def join(self, name: str | None, index: int | None, account: str | None = None) -> tuple[int, str]:
        """P8: take an open seat through the invitation; returns the seat and its new token.
        A signed-in person's seat is his ``account``'s (P18)."""
        self.table.storage.check_storage()
        async with self.table.lock:
            if self.table.evicted:
                raise TableMoved
            if self.table.status != "waiting":
                raise ProtocolError("not_waiting", rule="P8")
            if index is None:
                seat = next((s for s in self.table.seats if s.kind == "open"), None)
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
        self.table.storage.check_storage()
        async with self.table.lock:
            self._check_host(client)
            seat = self._seat_at(index)
            if seat.kind == "human":
                raise ProtocolError("seat_taken", rule="P8", seat=index)
            if bot is None:
                seat.kind, seat.bot = "open", None
            else:
                seat.kind, seat.bot = "bot", self.table.services.check_bot(bot)
            await self._changed(autostart=False)

    async def start(self, client: Client, fill: str | None) -> None:
        """P8: the host starts the game; open seats get the bot ``fill``."""
        self.table.storage.check_storage()
        async with self.table.lock:
            self._check_host(client)
            if fill is not None:
                self.table.services.check_bot(fill)
            await self.table.start_game(fill)

    async def leave(self, client: Client) -> None:
        """P8: a player gives up his seat while the table waits and watches from then on."""
        self.table.storage.check_storage()
        async with self.table.lock:
            if client.seat is None:
                raise ProtocolError("spectator", rule="P5")
            if self.table.status != "waiting":
                raise ProtocolError("not_waiting", rule="P8")
            if client.seat == self.table.host:
                raise ProtocolError("host_leaves", rule="P8")
            seat = self.table.seats[client.seat]
            seat.kind, seat.name, seat.token_hash, seat.connections = "open", None, None, 0
            seat.account = None
            # Every connection of that seat becomes a spectator (the token is dead).
            for other in list(self.table.clients):
                if other.seat == seat.index:
                    other.seat = None
                    other.send(Welcome(server=__version__, table=self.table.id, seat=None,
                                       lang=other.lang).model_dump_json())
            await self._changed(autostart=False)

    def _check_host(self, client: Client) -> None:
        if self.table.host is None or client.seat != self.table.host:
            raise ProtocolError("not_host", rule="P8", host="—" if self.table.host is None else self.table.host)
        if self.table.status != "waiting":
            raise ProtocolError("not_waiting", rule="P8")

    def _seat_at(self, index: int) -> Seat:
        if not 0 <= index < len(self.table.seats):
            raise ProtocolError("bad_seat", rule="P8", seat=index, players=len(self.table.seats))
        return self.table.seats[index]

    async def _changed(self, *, autostart: bool) -> None:
        """The seats changed (the lock is held): store, tell everybody, maybe start."""
        self.table.forget_names()
        if autostart and self.table.autostart and all(s.kind != "open" for s in self.table.seats):
            await self.table.start_game(None)
            return
        self.table.version += 1
        await self.table.storage.store(self.table.storage.table_save(seats=True))
        self.table.broadcast(self.table.table_message())
        self.table.announced = self.table.version
        self.table.presence()

    def rematch_seats(self, client: Client) -> list[Seat]:
        """The seats of a rematch asked for by ``client``: the same people (same tokens) and bots."""
        if client.seat is None:
            raise ProtocolError("spectator", rule="P5")
        if self.table.status != "over":
            raise ProtocolError("not_over_yet", rule="P8")
        return [Seat(s.index, s.kind, name=s.name, bot=s.bot, token_hash=s.token_hash, account=s.account)
                for s in self.table.seats]

    async def announce_next(self, table_id: str) -> None:
        """Tell everybody at this table where the rematch is."""
        async with self.table.lock:
            if self.table.next is not None:
                return
            self.table.next = table_id
            self.table.version += 1
            await self.table.storage.store(replace(self.table.storage.table_save(seats=False), next_id=table_id))
            self.table.broadcast(self.table.table_message())
            self.table.announced = self.table.version

    async def start_now(self) -> None:
        """Start at once, open seats getting the default bot (a table created with ``start``)."""
        async with self.table.lock:
            if self.table.status == "waiting":
                await self.table.start_game(None)
