"""A table's connections: seating a connection by its token, its leaving, the grace time.

A mixin of :class:`mushka.server.table.ServerTable` (P4, P15): a connection shows a seat's
token or watches; a person whose last connection leaves keeps the seat for the grace
time, after which a bot plays for him until he comes back (or acts himself).  Tokens
are compared in constant time, so that timing tells nothing about them.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from datetime import datetime

from mushka import __version__
from mushka.server.config import ServerConfig
from mushka.server.protocol import RequestId, Resumed, State, Welcome
from mushka.server.seating import ACCOUNT_SEAT, Client, Seat, TableMoved, hash_token, now
from mushka.server.seatviews import ViewTracker
from mushka.server.table.seats import TableSeats
from mushka.server.table.social import TableSocial
from mushka.server.texts import ProtocolError

log = logging.getLogger("mushka.server")


class TableConnections(TableSeats):
    """The connections of a table (see the module docstring); :class:`~mushka.server.table.ServerTable`
    sets every attribute declared here and makes the messages."""

    config: ServerConfig
    last_seen: datetime
    social: TableSocial
    _wake: asyncio.Event
    _views: ViewTracker

    # Made by the ServerTable itself (they need its views); declared here so that the type checker
    # knows it.  It is never called on a bare TableConnections.
    def state(self, client: Client, request: RequestId | None = None) -> State:
        """The full state for ``client`` (made by the table)."""
        raise NotImplementedError

    async def attach(self, client: Client, token: str | None, request: RequestId | None,
                     since: int | None = None) -> None:
        """P4: seat a connection by its token (or as a spectator) and send it welcome and state;
        a client that has the table's version already (``since``: it reconnects, perhaps to the
        process that took the table over) gets ``resumed`` instead of the whole state."""
        self._check_storage(fatal=True)
        async with self.lock:
            if self.evicted:
                raise TableMoved
            if len(self.clients) >= self.config.max_connections:
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
            if not self.clients:
                self._views.reset()  # updates were not worked out while nobody listened
            self.clients.add(client)
            if seat is not None:
                seat.connections += 1
                self._returned(seat)
            client.send(Welcome(server=__version__, table=self.id, seat=client.seat,
                                host=client.seat is not None and client.seat == self.host,
                                lang=client.lang, id=request).model_dump_json())
            if since is not None and since == self.version and self.game is not None:
                client.send(Resumed(version=self.version).model_dump_json())
                if self.social.timer.seconds:
                    client.send(self.social.timer.clock(self.announced).model_dump_json())
            else:
                client.send(self.state(client, request).model_dump_json())
                self.social.chat.replay_to(client)
            self._presence()
            if seat is not None and self.joined is None:
                await self.mark_joined()

    async def detach(self, client: Client) -> None:
        """A connection ended; an absent player's grace time starts."""
        async with self.lock:
            if client not in self.clients:
                return
            self.clients.discard(client)
            self.last_seen = now()
            if client.seat is not None:
                seat = self.seats[client.seat]
                seat.connections = max(0, seat.connections - 1)
                self._maybe_away(seat)
            if not any(c.seat == client.seat for c in self.clients):
                self._views.forget(client.seat)
            self._presence()

    def _seat_of(self, token: str, account: str | None = None) -> Seat | None:
        if token.startswith(ACCOUNT_SEAT) and account is not None:
            # P18: a signed-in player names a seat of his account (his session stands for its
            # token; the page of another device has no token).
            number = token.removeprefix(ACCOUNT_SEAT)
            return next((s for s in self.seats if number.isdigit() and s.index == int(number)
                         and s.account == account), None)
        digest = hash_token(token)
        found = None
        for s in self.seats:
            # Compare every seat in constant time so that timing tells nothing about tokens.
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s
        return found

    def _returned(self, seat: Seat) -> None:
        """A person is back: stop his grace timer and take his seat back from the bot."""
        if seat.away is not None:
            seat.away.cancel()
            seat.away = None
        if self.social.taken_back(seat):
            self._wake.set()
            self.social.retime()

    def _maybe_away(self, seat: Seat) -> None:
        if self.status != "playing" or seat.kind != "human" or seat.connections > 0 or seat.substitute:
            return
        if seat.away is None or seat.away.done():
            seat.away = asyncio.get_running_loop().create_task(self._grace(seat))

    async def _grace(self, seat: Seat) -> None:
        await asyncio.sleep(self.config.grace)
        async with self.lock:
            seat.away = None
            if self.status == "playing" and seat.kind == "human" and seat.connections == 0:
                seat.substitute, seat.timed_out = True, False
                if not any(s.kind == "human" and not s.gone for s in self.seats):
                    # Nobody is left to play for: the table ends rather than bots playing a
                    # game out for nobody; a person who had played loses it by forfeit.
                    log.info("table %s: its only person left; it ends", self.id)
                    await self.end_unplayed(self.game_rating())
                    return
                log.info("table %s: a bot plays for absent seat %d", self.id, seat.index)
                self._presence()
                self._wake.set()
                self.social.retime()
