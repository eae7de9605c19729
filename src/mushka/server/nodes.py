"""This process as one node of several on a shared database: its leases kept, dead nodes' tables taken.

Every server process is a *node* (:class:`NodeSettings`: its name, which the proxy
routes ``?node=NAME`` to, and the lease time).  :class:`Membership` enters it into the
store at the start and keeps it there:

- every third of the lease time it renews every lease it holds; a table whose lease
  it finds lost (another process took it over: this one was paused past its lease,
  say) is handed over at once: its connections are told where it went and closed;
- about every second it claims playing tables whose owner's lease ran out (their
  process died) and brings them back from the journal, exactly where they stopped,
  so that a dead process's tables go on elsewhere within a few seconds;
- at a clean stop it releases its leases, so that the others take its tables at once.

Both run where the writer commits (:meth:`mushka.server.writer.Writer.run`), between
two commits, so that one process never competes with itself for a write lock.  What
makes two owners impossible is in the store (:mod:`mushka.server.sqlnodes`): this
module only decides *when* to ask.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Final

from mushka.server.bodies import LeaseHealth
from mushka.server.store import NodeInfo, NodeStore
from mushka.server.tasks import stop_task
from mushka.server.writer import Writer

log = logging.getLogger("mushka.server")

CLAIMS_PER_PASS: Final = 50
"""Expired tables one pass claims at most: the surviving nodes, each claiming a random
part every second, share a dead node's tables out between them."""

STARTUP_CLAIMS: Final = 500
"""Tables claimed per pass at the start of the only process on the database."""

CLAIM_EVERY: Final = (0.5, 1.0)
"""Seconds between two passes (drawn at random in this range, so that nodes do not claim
in step)."""


def default_node_name(port: int | None) -> str:
    """``HOSTNAME-PORT``: unique among the processes of a machine, readable in logs."""
    host = socket.gethostname().split(".", maxsplit=1)[0] or "node"
    return f"{host}-{port}" if port else host


@dataclass(frozen=True, slots=True)
class NodeSettings:
    """How this process takes part: its name, its port, the lease time, joining a SQLite file."""

    name: str
    port: int | None = None
    lease: float = 5.0
    """Seconds a lease lasts unless renewed; renewed every third of it."""
    join: bool = False
    """SQLite: run beside another live server on the same file (else refuse to start)."""


class Membership:
    """This process's node: registered, its leases renewed, dead nodes' tables claimed."""

    def __init__(self, store: NodeStore, writer: Writer, settings: NodeSettings, *,
                 adopt: Callable[[list[str]], Awaitable[None]],
                 lost: Callable[[Collection[str]], Awaitable[None]]) -> None:
        """A node over ``store``; ``adopt`` brings claimed tables back, ``lost`` hands over the
        tables whose lease went to another process."""
        self.store = store
        self.writer = writer
        self.settings = settings
        self.info = NodeInfo(instance=secrets.token_hex(8), name=settings.name, host=socket.gethostname(),
                             pid=os.getpid(), port=settings.port)
        self._adopt = adopt
        self._lost = lost
        self._task: asyncio.Task[None] | None = None
        self.renewed: float | None = None
        """``time.monotonic()`` of the last renewal that was stored."""
        self.claimed = 0
        """Tables taken over from dead nodes since the start."""

    @property
    def name(self) -> str:
        """The node's name."""
        return self.settings.name

    async def open(self) -> None:
        """Enter the store (raises :class:`~mushka.server.texts.StorageError` if this node may not
        start), claim what waits for an owner, then keep the leases."""
        ttl = self.settings.lease
        await self.writer.run(lambda: self.store.register(self.info, ttl=ttl, join=self.settings.join))
        self.renewed = time.monotonic()
        alone = len(await asyncio.to_thread(self.store.live_nodes, 2 * ttl)) <= 1
        if alone:
            # The only process (a restart): every table that waits for an owner is ours, as a
            # single server always brought back every waiting and playing table at its start.
            while len(await self._claim(STARTUP_CLAIMS, waiting=True)) == STARTUP_CLAIMS:
                pass
        else:
            await self._claim()
        self._task = asyncio.get_running_loop().create_task(self._keep(), name="mushka-leases")

    async def close(self) -> None:
        """Stop keeping the leases and release them (the others take the tables at once)."""
        await stop_task(self._task)
        self._task = None
        try:
            await self.writer.run(self.store.unregister)
        except Exception:  # storage down at the stop: the leases run out by themselves
            log.warning("could not release this node's leases; they expire in %.0f s", self.settings.lease,
                        exc_info=True)

    async def _keep(self) -> None:
        ttl = self.settings.lease
        next_renewal = time.monotonic() + ttl / 3
        # Short leases (tests) get passes often enough to renew in time.
        pace = min(1.0, ttl / 6)
        while True:
            await asyncio.sleep(random.uniform(*CLAIM_EVERY) * pace)
            try:
                if time.monotonic() >= next_renewal:
                    lost = await self.writer.run(lambda: self.store.renew(ttl))
                    self.renewed = time.monotonic()
                    next_renewal = self.renewed + ttl / 3
                    if lost:
                        log.warning("lost the lease of %d tables to other nodes: handing them over", len(lost))
                        await self._lost(lost)
                await self._claim()
            except asyncio.CancelledError:
                raise
            except Exception:  # storage down: try again; the tables stall meanwhile (P14)
                log.warning("keeping the leases failed; trying again", exc_info=True)

    async def _claim(self, limit: int = CLAIMS_PER_PASS, *, waiting: bool = False) -> list[str]:
        ttl = self.settings.lease
        taken = await self.writer.run(lambda: self.store.claim_expired(ttl, limit, waiting=waiting))
        if taken:
            self.claimed += len(taken)
            log.info("took over %d tables that waited for an owner", len(taken))
            await self._adopt(taken)
        return taken

    def health(self) -> LeaseHealth:
        """Whether the renewals are current (a node whose last renewal is older than two thirds
        of the lease may lose its tables any moment)."""
        ttl = self.settings.lease
        ago = None if self.renewed is None else time.monotonic() - self.renewed
        return LeaseHealth(ttl=ttl, renewed_ago=None if ago is None else round(ago, 3),
                           current=ago is not None and ago < ttl * 2 / 3)
