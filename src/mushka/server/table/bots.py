"""A table's bots: the one task that plays for every seat a bot must play for.

:class:`TableBots` belongs to one :class:`~mushka.server.table.ServerTable` and
works on it through :class:`BotsHost`.  Whenever a bot is to act (a bot's seat,
or a person's while a bot plays for him, P15), the task waits ``bot_delay``
(and, after a card that may still be taken back, the rest of that window, P21),
has the move chosen from that seat's view only, in the server's shared pool of
worker processes, and applies it under the table's lock unless the table
changed meanwhile.  The table's own generator seeds every move, so a bot never
shares a generator with another table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import Protocol

from mushka.engine import Action
from mushka.errors import MushkaError
from mushka.server.seating import Scripted
from mushka.server.table.host import TableBasics, TableProgress, TableRunning
from mushka.server.table.takeback import TableTakeBack, wait_left
from mushka.server.thinkers import Thinkers

log = logging.getLogger("mushka.server")


class HasThinkers(Protocol):
    """What the bots need of the table's services: the pool they think in and the default bot."""

    @property
    def thinkers(self) -> Thinkers:
        """The bounded pool every table's bots think in."""
        ...

    @property
    def default_bot(self) -> str:
        """The bot that plays for a person."""
        ...


class BotsHost(TableBasics, TableProgress, TableRunning, Protocol):
    """What the bots need of their table besides its basics, progress and running: the
    seats whose moves are fixed (``scripted``, the tutorial's bots), its take-backs
    (``take_backs``: the card that may still be taken back), and applying an action."""

    scripted: dict[int, Scripted]
    take_backs: TableTakeBack

    @property
    def services(self) -> HasThinkers:
        """The services every table shares."""
        ...

    async def apply(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action (the lock is held); raises, changing nothing, if it is illegal."""
        ...


class TableBots:
    """The bot task of one table (see the module docstring)."""

    def __init__(self, table: BotsHost) -> None:
        """The bots of ``table``."""
        self.table = table
        self.rng = random.Random(secrets.randbits(64))
        """The table's generator: the seed of every bot move, and the move of a scripted seat."""
        self.driver: asyncio.Task[None] | None = None
        """The bot task, while the table is played."""

    def run(self) -> None:
        """Start the bot task unless it runs already."""
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    def turn(self) -> int | None:
        """The seat a bot must act for now, if any."""
        table = self.table
        game = table.game
        if table.status != "playing" or game is None or game.is_over:
            return None
        seat = table.seats[game.to_act]
        if seat.kind == "bot" or (seat.kind == "human" and seat.substitute):
            return seat.index
        return None

    def spec(self, index: int) -> str:
        """The bot that plays seat ``index`` when a bot must: its own, or the default for a person."""
        seat = self.table.seats[index]
        return seat.bot if seat.kind == "bot" and seat.bot else self.table.services.default_bot

    async def move(self, index: int, bot: str | None = None) -> Action:
        """The move a bot makes now for seat ``index`` (``bot``, else :meth:`spec`), from that
        seat's view only: thought out in the server's shared pool of worker processes, never on
        the event loop.  It is only chosen, not applied (the caller applies it under the lock if
        the table has not changed meanwhile).  It always gives a legal action: a worker that dies
        or a bot that fails makes the seat play the rules-of-thumb move, with a line in the log."""
        table = self.table
        game = table.game
        if game is None or game.is_over or game.to_act != index:
            raise ValueError(f"table {table.id}: seat {index} is not to act")
        view = game.view(index)
        scripted = table.scripted.get(index)
        if scripted is not None and bot is None:
            return scripted.choose(view, self.rng)
        seed = self.rng.getrandbits(64)
        return await table.services.thinkers.bot_move(bot or self.spec(index), view, seed,
                                                      where=f"table {table.id}, seat {index}")

    async def _drive(self) -> None:
        """The table's bot task: whenever a bot is to act, let it choose from its view."""
        table = self.table
        while table.status == "playing" and not table.closed:
            seat = self.turn()
            if seat is None:
                table.wake.clear()
                if self.turn() is None:
                    await table.wake.wait()
                continue
            version = table.version
            if table.config.bot_delay > 0:
                await asyncio.sleep(table.config.bot_delay)
            # P21: a card that may be taken back is not answered before its window is over.
            left = wait_left(table.take_backs.undoable, version, table.config.takeback_seconds)
            if left > 0:
                await asyncio.sleep(left)
            if table.version != version or self.turn() != seat:
                continue
            # In the shared, bounded pool: however many tables bots play at, they
            # take at most that many cores, and none from the event loop.
            action = await self.move(seat)
            async with table.lock:
                if table.version != version or self.turn() != seat:
                    continue
                try:
                    await table.apply(seat, action)
                except MushkaError as exc:
                    log.error("table %s: bot of seat %d chose %s: %s", table.id, seat, action, exc)
                    game = table.game
                    assert game is not None
                    await table.apply(seat, self.rng.choice(game.view(seat).deal.legal))
                except Exception:  # a bug must not take the server down; retry calmly
                    log.exception("table %s: applying %s for seat %d failed", table.id, action, seat)
                    await asyncio.sleep(1.0)
