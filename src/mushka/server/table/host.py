"""What the parts of a table see of it: the pieces their host protocols are made of.

Each part of a :class:`~mushka.server.table.ServerTable` (its storage, seats,
connections, social side, take-backs and bots) declares in its own module the
protocol of the few things of the table it needs; those protocols are built
from the pieces here, which many of them share: the table's identity and
people (:class:`TableBasics`), the game and its version (:class:`TableProgress`)
and what runs it (:class:`TableRunning`).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from mushka.match import Game
from mushka.server.config import ServerConfig
from mushka.server.protocol import TableStatus
from mushka.server.seating import Client, Seat


class TableBasics(Protocol):
    """A table's ``id``, its ``lock`` (every change of the table is made under it), its
    ``seats`` and its connections (``clients``)."""

    id: str
    lock: asyncio.Lock
    seats: list[Seat]
    clients: set[Client]


class TableProgress(Protocol):
    """A table's ``game`` (once started), its ``status`` (waiting, playing or over), its
    ``version`` (every stored change raises it by one) and the version of the last change
    sent to the connections (``announced``)."""

    game: Game | None
    status: TableStatus
    version: int
    announced: int


class TableRunning(Protocol):
    """What runs a table: the server's settings (``config``), the event that wakes its bots
    (``wake``: a bot may be to act) and whether its tasks were stopped (``closed``)."""

    config: ServerConfig
    wake: asyncio.Event
    closed: bool
