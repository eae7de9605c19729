"""Quick match: strangers who ask for the same kind of table within a few seconds sit together.

A person asks for a variant and a table size (and the bots' level for the seats no person
takes): he gets a *ticket* and a place in the queue, which lives in the shared store, so
that people who asked different processes of one server meet.  About twice a second every
process takes the groups that are ready out of the queue: as many people as a table
holds, or those whose first one has waited :data:`WINDOW` seconds.  It makes their table
(listed, so that others may watch it; a turn timer where several people play) with bots of
the first one's level on the other seats, and writes each person's seat into his ticket;
his page, asking about the ticket, gets the seat's address and goes there.  The queue's
rows go once their person has been told, and anything left is forgotten after
:data:`FORGET_AFTER` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Final, Protocol

from mushka.errors import OptionsError
from mushka.rules import Rules
from mushka.server.bodies import CreateTable, CreateTableReply, QuickMatchRequest, QuickMatchTicket
from mushka.server.config import ServerConfig
from mushka.server.seating import person_name
from mushka.server.store import NodeStore, QueueTicket
from mushka.server.table import Services
from mushka.server.tasks import stop_task
from mushka.server.texts import ProtocolError, options_error
from mushka.server.writer import Writer

log = logging.getLogger("mushka.server")

WINDOW: Final = 4.0
"""Seconds the first person of a table waits for company before bots fill the other seats."""

EVERY: Final = 0.5
"""Seconds between two passes over the queue, on each process."""

FORGET_AFTER: Final = 120.0
"""Seconds after which a ticket nobody asked about again is forgotten."""

TIMER_WITH_PEOPLE: Final = 60
"""P15: seconds per move at a table where several people play (if the server offers it)."""


def now_ms() -> int:
    """Milliseconds since 1970 (UTC), as the queue's times are kept."""
    return int(time.time() * 1000)


class QuickMatchHost(Protocol):
    """What the quick match needs of its lobby: the server's settings (``config``), the shared
    store with its queue (``store``) and the ``writer`` that commits to it, the bots a table
    may seat (``services``), and the making of a table (:meth:`create`)."""

    config: ServerConfig
    store: NodeStore
    writer: Writer
    services: Services

    async def create(self, request: CreateTable, lang: str, address: str = "?",
                     names: Sequence[str | None] | None = None, account: str | None = None,
                     accounts: Sequence[str | None] | None = None) -> CreateTableReply:
        """A new table as ``request`` asks, its ``me`` seats named by ``names`` and given to
        ``accounts`` one by one."""
        ...


class QuickMatch:
    """The lobby's quick match (see the module docstring)."""

    def __init__(self, lobby: QuickMatchHost) -> None:
        """The quick match of ``lobby``'s server (its store, writer and tables)."""
        self.lobby = lobby
        self._task: asyncio.Task[None] | None = None
        self._seating = asyncio.Lock()

    def start(self) -> None:
        """Begin passing over the queue now and then."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._keep(), name="mushka-quickmatch")

    async def close(self) -> None:
        """Stop passing over the queue."""
        await stop_task(self._task)
        self._task = None

    async def _keep(self) -> None:
        passes = 0
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.seat_ready()
                passes += 1
                if passes % 60 == 0:
                    before = now_ms() - int(FORGET_AFTER * 1000)
                    await self.lobby.writer.run(functools.partial(self.lobby.store.queue.purge, before))
            except asyncio.CancelledError:
                raise
            except Exception:  # storage down: the next pass tries again
                log.warning("the quick match's pass failed; trying again", exc_info=True)

    async def join(self, request: QuickMatchRequest, lang: str, address: str,
                   account: str | None = None) -> QuickMatchTicket:
        """Put a person in the queue (P10: the variant, size and level must be a table's); the seat
        of a signed-in person will be his ``account``'s (P18)."""
        try:
            rules = Rules.make(request.variant, request.players)
        except OptionsError as exc:
            raise options_error(exc) from None
        level = self.lobby.services.check_bot(request.level or self.lobby.services.default_bot)
        ticket = QueueTicket(ticket=secrets.token_urlsafe(18), variant=rules.variant, players=rules.players,
                             level=level, name=person_name(request.name), lang=lang, address=address[:64],
                             created_ms=now_ms(), account_id=account)
        try:
            await self.lobby.writer.run(lambda: self.lobby.store.queue.add(ticket))
        except Exception:  # any driver error: nothing was queued
            raise ProtocolError("storage_down", rule="P14") from None
        log.info("quick match: %s %dp asked for", rules.variant, rules.players)
        await self.seat_ready()
        return await self.status(ticket.ticket)

    async def status(self, ticket: str) -> QuickMatchTicket:
        """Where a ticket stands: waiting (and for how long, as things stand), or its seat; once
        told its seat, the ticket is gone (P10 ``no_ticket`` afterwards)."""
        queue = self.lobby.store.queue
        found = await asyncio.to_thread(queue.get, ticket)
        if found is None:
            raise ProtocolError("no_ticket", rule="P10")
        if found.table_id is not None and found.url is not None:
            await self.lobby.writer.run(lambda: queue.picked(ticket))
            return QuickMatchTicket(ticket=ticket, status="seated", wait=0.0, table=found.table_id,
                                    url=found.url, node=found.node)
        if found.group_id is not None:
            return QuickMatchTicket(ticket=ticket, status="waiting", wait=0.0)  # its table is being made
        others = await asyncio.to_thread(queue.waiting, found.variant, found.players)
        place = next((n for n, t in enumerate(others) if t.ticket == ticket), 0)
        start = place - place % found.players
        group = others[start:start + found.players]
        waited = (now_ms() - group[0].created_ms) / 1000 if group else 0.0
        return QuickMatchTicket(ticket=ticket, status="waiting", wait=round(max(0.0, WINDOW - waited), 1),
                                waiting=max(1, len(group)))

    async def cancel(self, ticket: str) -> bool:
        """Leave the queue; False if the ticket was already taken into a table (or unknown)."""
        return await self.lobby.writer.run(lambda: self.lobby.store.queue.cancel(ticket))

    async def seat_ready(self) -> None:
        """Take the groups that are ready out of the queue and make their tables."""
        async with self._seating:
            window = int(WINDOW * 1000)
            groups = await self.lobby.writer.run(lambda: self.lobby.store.queue.claim(now_ms(), window))
            for group in groups:
                try:
                    await self._make(group)
                except Exception:  # the table could not be made: the group waits for the next pass
                    log.warning("quick match: a table for %d people could not be made", len(group), exc_info=True)
                    tickets = [t.ticket for t in group]
                    with contextlib.suppress(Exception):
                        await self.lobby.writer.run(functools.partial(self.lobby.store.queue.unclaim, tickets))

    async def _make(self, group: list[QueueTicket]) -> None:
        first = group[0]
        people = len(group)
        choices = self.lobby.config.turn_choices
        timer = TIMER_WITH_PEOPLE if people > 1 and TIMER_WITH_PEOPLE in choices else None
        request = CreateTable(variant=first.variant, players=first.players,
                              seats=["me"] * people + [f"bot:{first.level}"] * (first.players - people),
                              start=True, listed=True, turn_seconds=timer)
        reply = await self.lobby.create(request, first.lang, first.address, names=[t.name for t in group],
                                        accounts=[t.account_id for t in group])
        seated = [(t.ticket, reply.table.id, token.seat, token.url, reply.node)
                  for t, token in zip(group, reply.tokens, strict=True)]
        await self.lobby.writer.run(lambda: self.lobby.store.queue.seat(seated))
        log.info("quick match: table %s for %d people", reply.table.id, people)
