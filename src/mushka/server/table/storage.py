"""How a table stores itself: the saves it hands the writer, and P14's stall.

:class:`TableStorage` belongs to one :class:`~mushka.server.table.ServerTable` and
reads it through :class:`StorageHost`.  Every method runs under the table's lock.
A change is stored before it is sent (see :mod:`mushka.server.writer`); when
storage refuses it, the table stalls and keeps trying to store its whole game.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from mushka import __version__
from mushka.engine import Action, Deal
from mushka.i18n import tr
from mushka.records import DealRecord, record_of_game
from mushka.server.protocol import Error
from mushka.server.ratings import MIN_OWN_MOVES
from mushka.server.seating import LANGS
from mushka.server.store import GameRating, Move, Save
from mushka.server.table.host import TableBasics, TableProgress
from mushka.server.texts import ProtocolError
from mushka.server.writer import LeaseLost, WriteFailed, Writer

log = logging.getLogger("mushka.server")

STALL_RETRY = 0.5
"""Seconds before a stalled table first tries to store its game again (then twice as long each
time, up to :data:`STALL_RETRY_MAX`)."""
STALL_RETRY_MAX = 5.0


class HasWriter(Protocol):
    """What storing needs of the table's services."""

    @property
    def writer(self) -> Writer:
        """The writer that commits every table's saves."""
        ...

    @property
    def lease_lost(self) -> Callable[[str], None] | None:
        """Told of a table whose save was refused because another process took it over."""
        ...


def deal_json(deal: Deal) -> str:
    """A deal's record (dealer, stacked deck, picks, actions so far) as compact JSON text."""
    record = DealRecord(dealer=deal.dealer, deck=deal.deck, actions=deal.actions, picks=deal.picks)
    return json.dumps(record.to_json(), separators=(",", ":"))


class HasBanks(Protocol):
    """What storing needs of the table's social side: the time banks left (P15)."""

    def banks_text(self) -> str | None:
        """Every seat's time bank left now, as stored (None: the table has no bank)."""
        ...


class StorageHost(TableBasics, TableProgress, Protocol):
    """What storing needs of its table besides its basics and progress: the actions applied
    (``ply``), when it ended (``finished``), why its game is never rated (``unrated``), and
    ``closed``, which storing sets when another process took the table over."""

    ply: int
    finished: datetime | None
    unrated: str | None
    closed: bool

    @property
    def services(self) -> HasWriter:
        """The services every table shares."""
        ...

    @property
    def social(self) -> HasBanks:
        """The table's turn timer and chat."""
        ...


class TableStorage:
    """The storing side of one table (see the module docstring)."""

    def __init__(self, table: StorageHost) -> None:
        """The storage of ``table``."""
        self.table = table
        self.stalled = False
        """P14: a change waits for storage; the table takes no other meanwhile."""
        self.unsaved = False
        """A write failed (or the table was stored by the first schema): the next save stores
        the whole game again."""
        self._banks_saved: str | None = None
        """P15: the time banks left as last handed to the writer (saves carry them only when changed)."""

    def _banks_due(self, *, always: bool = False) -> str | None:
        """P15: the banks left to store with a save: when they changed since the last (or
        ``always``, a full save); None when there is nothing to write."""
        text = self.table.social.banks_text()
        if text is None or (text == self._banks_saved and not always):
            return None
        self._banks_saved = text
        return text

    def record_text(self) -> str:
        """The whole game record as JSON text (with the result once the game is over)."""
        assert self.table.game is not None
        return record_of_game(self.table.game, seats=self.seat_names(),
                              meta={"table": self.table.id, "server": f"mushka {__version__}"}).dumps(indent=None)

    def seat_names(self) -> list[str]:
        """The seats' names for the game record."""
        names = []
        for s in self.table.seats:
            if s.kind == "bot":
                names.append(tr("server.bot_name", "en", bot=s.bot))
            else:
                names.append(s.name or tr("server.seat_name", "en", seat=s.index))
        return names

    def table_save(self, *, seats: bool = False) -> Save:
        """A save of the table's own fields (and its seats)."""
        game = self.table.game
        return self.with_end(Save(
            table_id=self.table.id, version=self.table.version, ply=self.table.ply, status=self.table.status,
            first_dealer=None if game is None else game.first_dealer,
            seats=tuple(s.snapshot() for s in self.table.seats) if seats else (), banks=self._banks_due()))

    def game_rating(self) -> GameRating:
        """How the game counts for the ratings, as things stand (see :mod:`mushka.server.ratings`)."""
        if self.table.unrated is not None:
            return GameRating(rated=False, why=self.table.unrated)
        people = [s for s in self.table.seats if s.kind == "human"]
        if not people:
            return GameRating(rated=False, why="bots_only")
        gone = [s for s in people if s.gone]
        if any(s.own_moves < MIN_OWN_MOVES for s in gone):
            return GameRating(rated=False, why="left_at_once")
        return GameRating(rated=True, forfeit=tuple(s.index for s in gone))

    def with_end(self, save: Save) -> Save:
        """``save`` with the game record, the winner and how it is rated, once the table is over."""
        game = self.table.game
        if self.table.unrated is not None:
            # A table never rated (a tutorial) says so in every save: every process knows.
            save = replace(save, rating=GameRating(rated=False, why=self.table.unrated).dumps())
        if game is None or game.result is None or self.table.status != "over":
            return save
        return replace(save, record=self.record_text(), winner=game.result.winner, finished=self.table.finished,
                       names=tuple(self.seat_names()), rating=self.game_rating().dumps())

    def full_save(self) -> Save:
        """Everything: every deal's row with all its actions so far; the journal starts afresh."""
        game = self.table.game
        deals = () if game is None else tuple((n, deal_json(d)) for n, d in enumerate(game.deals, 1))
        return self.with_end(Save(
            table_id=self.table.id, version=self.table.version, ply=self.table.ply, status=self.table.status,
            first_dealer=None if game is None else game.first_dealer,
            seats=tuple(s.snapshot() for s in self.table.seats), deals=deals, full=True,
            banks=self._banks_due(always=True)))

    def move_save(self, deal: Deal, picks: int, finished: int, action: Action) -> Save:
        """The save of one action applied in ``deal`` (deal number ``finished + 1``, which had
        ``picks`` chance picks before it): a journal row, or, when deals ended, their whole rows."""
        if self.unsaved:
            return self.full_save()
        game = self.table.game
        assert game is not None
        number = finished + 1
        deals = game.deals
        moves: tuple[Move, ...] = ()
        rows: tuple[tuple[int, str], ...] = ()
        settled: tuple[int, ...] = ()
        if len(game.finished) == finished:
            drawn = " ".join(c.code for c in deal.picks[picks:])
            moves = (Move(version=self.table.version, deal=number, action=str(action), picks=drawn),)
        else:
            # Deals ended: their rows now hold every action (the journal's rows of them go),
            # and the new deal's row holds its deck from the start.
            rows = tuple((n, deal_json(deals[n - 1])) for n in range(number, len(deals) + 1))
            settled = tuple(range(number, len(game.finished) + 1))
        return self.with_end(Save(
            table_id=self.table.id, version=self.table.version, ply=self.table.ply, status=self.table.status,
            first_dealer=game.first_dealer, deals=rows, moves=moves, settled=settled, banks=self._banks_due()))

    async def store(self, save: Save) -> None:
        """Hand ``save`` to the writer and wait until it is committed (the lock is held, so
        a table's saves are stored in order).  If storage refuses it, the table stalls
        (:meth:`_stall`) until its whole game is stored: nothing is sent before."""
        try:
            await self.table.services.writer.write(save)
        except WriteFailed:
            await self._stall()
            return
        except LeaseLost:
            # Another process took the table over (this one was paused past its lease): the
            # change stays unsent, and the table goes to its new owner.
            self._taken_over()
            # Not fatal: the hand-over that follows says where the table went, then closes.
            raise ProtocolError("taken_over") from None
        if save.full:
            self.unsaved = False

    def _taken_over(self) -> None:
        """Another process took the table over: it stops here, and whoever asked is told."""
        self.table.closed = True
        told = self.table.services.lease_lost
        if told is not None:
            told(self.table.id)

    async def _stall(self) -> None:
        """P14: storage failed; refuse every change (saying why) and keep trying to store the
        whole game, lock held, until it is stored.  Raises :class:`WriteFailed` if the table
        is closed first (the change was never sent, so nobody has seen it)."""
        self.stalled = True
        self.unsaved = True
        log.warning("table %s waits for storage", self.table.id)
        notice = {lang: Error(code="storage_down", rule="P14",
                              message=ProtocolError("storage_down", rule="P14").message(lang)).model_dump_json()
                  for lang in LANGS}
        for client in list(self.table.clients):
            client.send(notice[client.lang])
        delay = STALL_RETRY
        try:
            while True:
                if self.table.closed:
                    raise WriteFailed(f"table {self.table.id} closed before its change was stored")
                await asyncio.sleep(delay)
                try:
                    await self.table.services.writer.write(self.full_save())
                except WriteFailed:
                    delay = min(delay * 2, STALL_RETRY_MAX)
                    continue
                except LeaseLost:
                    self._taken_over()
                    raise WriteFailed(f"table {self.table.id} was taken over by another process") from None
                break
        finally:
            self.stalled = False
        self.unsaved = False
        log.info("table %s: storage is back, the game goes on", self.table.id)

    def check_storage(self, *, fatal: bool = False) -> None:
        """P14: refuse what would change or show the table while a change waits for storage."""
        if self.stalled:
            raise ProtocolError("storage_down", rule="P14", fatal=fatal, close_code=4503)
