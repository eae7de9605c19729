"""A table's connections: seating a connection by its token, its leaving, the grace time.

:class:`TableConnections` belongs to one :class:`~mushka.server.table.ServerTable` and
works on it through :class:`ConnectionsHost` (P4, P15): a connection shows a seat's
token or watches; a person whose last connection leaves keeps the seat for the grace
time, after which a bot plays for him until he comes back (or acts himself).  Tokens
are compared in constant time, so that timing tells nothing about them.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from datetime import datetime
from typing import Protocol

from mushka import __version__
from mushka.server.protocol import RequestId, Resumed, State, Welcome
from mushka.server.seating import ACCOUNT_SEAT, Client, Seat, TableMoved, hash_token, now
from mushka.server.seatviews import ViewTracker
from mushka.server.table.host import TableBasics, TableProgress, TableRunning
from mushka.server.table.seats import TableSeats
from mushka.server.table.social import TableSocial
from mushka.server.table.storage import TableStorage
from mushka.server.texts import ProtocolError

log = logging.getLogger("mushka.server")


class ConnectionsHost(TableBasics, TableProgress, TableRunning, Protocol):
    """What the connections need of their table besides its basics, progress and running:
    when a connection last left (``last_seen``), whether the table left this process
    (``evicted``), its ``host``'s seat, when a person first came (``joined``), its
    ``storage``, ``seating``, ``social`` side and ``views``, and the messages it makes."""

    last_seen: datetime
    evicted: bool
    host: int | None
    joined: datetime | None
    storage: TableStorage
    seating: TableSeats
    social: TableSocial
    views: ViewTracker

    def state(self, client: Client, request: RequestId | None = None) -> State:
        """The full state for ``client``."""
        ...

    def presence(self) -> None:
        """Tell everybody who sits where."""
        ...


class TableConnections:
    """The connections of one table (see the module docstring)."""

    def __init__(self, table: ConnectionsHost) -> None:
        """The connections of ``table``."""
        self.table = table

    async def attach(self, client: Client, token: str | None, request: RequestId | None,
                     since: int | None = None) -> None:
        """P4: seat a connection by its token (or as a spectator) and send it welcome and state;
        a client that has the table's version already (``since``: it reconnects, perhaps to the
        process that took the table over) gets ``resumed`` instead of the whole state."""
        self.table.storage.check_storage(fatal=True)
        async with self.table.lock:
            if self.table.evicted:
                raise TableMoved
            if len(self.table.clients) >= self.table.config.max_connections:
                raise ProtocolError("full", rule="P12", fatal=True, close_code=4503, what="connections")
            seat: Seat | None = None
            if token is not None:
                seat = self._seat_of(token, getattr(client, "account_id", None))
                if seat is None:
                    raise ProtocolError("bad_token", rule="P4", fatal=True, close_code=4401)
                if seat.account is not None and getattr(client, "account_id", None) != seat.account:
                    # P18: a seat taken while signed in is played only by its account (a copied
                    # token alone does not do).
                    raise ProtocolError("seat_account", rule="P18", fatal=True, close_code=4401)
            client.seat = None if seat is None else seat.index
            if not self.table.clients:
                self.table.views.reset()  # updates were not worked out while nobody listened
            self.table.clients.add(client)
            if seat is not None:
                seat.connections += 1
                self._returned(seat)
            client.send(Welcome(server=__version__, table=self.table.id, seat=client.seat,
                                host=client.seat is not None and client.seat == self.table.host,
                                lang=client.lang, id=request).model_dump_json())
            if since is not None and since == self.table.version and self.table.game is not None:
                client.send(Resumed(version=self.table.version).model_dump_json())
                if self.table.social.timer.seconds:
                    client.send(self.table.social.timer.clock(self.table.announced).model_dump_json())
            else:
                client.send(self.table.state(client, request).model_dump_json())
                self.table.social.chat.replay_to(client)
            self.table.presence()
            if seat is not None and self.table.joined is None:
                await self.table.seating.mark_joined()

    async def detach(self, client: Client) -> None:
        """A connection ended; an absent player's grace time starts."""
        async with self.table.lock:
            if client not in self.table.clients:
                return
            self.table.clients.discard(client)
            self.table.last_seen = now()
            if client.seat is not None:
                seat = self.table.seats[client.seat]
                seat.connections = max(0, seat.connections - 1)
                self.maybe_away(seat)
            if not any(c.seat == client.seat for c in self.table.clients):
                self.table.views.forget(client.seat)
            self.table.presence()

    def _seat_of(self, token: str, account: str | None = None) -> Seat | None:
        if token.startswith(ACCOUNT_SEAT) and account is not None:
            # P18: a signed-in player names a seat of his account (his session stands for its
            # token; the page of another device has no token).
            number = token.removeprefix(ACCOUNT_SEAT)
            return next((s for s in self.table.seats if number.isdigit() and s.index == int(number)
                         and s.account == account), None)
        digest = hash_token(token)
        found = None
        for s in self.table.seats:
            # Compare every seat in constant time so that timing tells nothing about tokens.
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s
        return found

    def _returned(self, seat: Seat) -> None:
        """A person is back: stop his grace timer and take his seat back from the bot."""
        if seat.away is not None:
            seat.away.cancel()
            seat.away = None
        if self.table.social.taken_back(seat):
            self.table.wake.set()
            self.table.social.retime()

    def maybe_away(self, seat: Seat) -> None:
        """A person with no connection left at a playing table: his grace time starts."""
        if self.table.status != "playing" or seat.kind != "human" or seat.connections > 0 or seat.substitute:
            return
        if seat.away is None or seat.away.done():
            seat.away = asyncio.get_running_loop().create_task(self._grace(seat))

    async def _grace(self, seat: Seat) -> None:
        await asyncio.sleep(self.table.config.grace)
        async with self.table.lock:
            seat.away = None
            if self.table.status == "playing" and seat.kind == "human" and seat.connections == 0:
                seat.substitute, seat.timed_out = True, False
                if not any(s.kind == "human" and not s.gone for s in self.table.seats):
                    # Nobody is left to play for: the table ends rather than bots playing a
                    # game out for nobody; a person who had played loses it by forfeit.
                    log.info("table %s: its only person left; it ends", self.table.id)
                    await self.table.seating.end_unplayed(self.table.storage.game_rating())
                    return
                log.info("table %s: a bot plays for absent seat %d", self.table.id, seat.index)
                self.table.presence()
                self.table.wake.set()
                self.table.social.retime()
