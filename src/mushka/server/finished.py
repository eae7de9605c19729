"""The finished games the lobby serves: a game's record, its replay, and the list of them.

A finished game's record (P11) comes from the table in memory if this process holds it,
else from storage, where a record that is not JSON is set aside rather than served.  Its
replay (every position, computed from the record in the bots' worker pool, never on the
event loop) is kept ready for a while: a finished game never changes.  A page of the list
of finished games, newest first, is made once and shared by every reader until a game is
stored as over or a record set aside (and for :data:`RECORDS_FRESH` at most).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Final, Protocol

from mushka.server.bodies import RecordList, RecordSummary
from mushka.server.protocol import Lang
from mushka.server.replays import replay_json
from mushka.server.store import ABANDONED, NodeStore
from mushka.server.table import ServerTable
from mushka.server.texts import ProtocolError
from mushka.server.thinkers import Thinkers
from mushka.server.writer import Writer

RECORDS_FRESH: Final = 1.0
"""Seconds a page of the list of finished games is served as made (readers share it)."""

LISTS_KEPT: Final = 16
"""Pages of the list of finished games kept (by limit and offset)."""

REPLAYS_KEPT: Final = 32
"""Replays kept ready in memory (a finished game never changes, so they stay right)."""


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


class FinishedHost(Protocol):
    """What the finished games need of their lobby: the shared ``store``, the ``writer`` (whose
    count of games stored as over renews the list's pages), the worker pool (``thinkers``) that
    checks records and makes replays, and the tables it holds in memory (:meth:`held`)."""

    store: NodeStore
    writer: Writer
    thinkers: Thinkers

    def held(self, table_id: str) -> ServerTable | None:
        """The table ``table_id`` if it is in this process's memory (live or finished), else None."""
        ...


class FinishedGames:
    """The records, replays and list pages of the finished games (see the module docstring)."""

    def __init__(self, host: FinishedHost) -> None:
        """The finished games of ``host``'s store, with nothing made yet."""
        self.host = host
        self._replays: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lists: OrderedDict[tuple[int, int], tuple[float, asyncio.Task[str], tuple[int, int]]] = OrderedDict()

    async def record(self, table_id: str) -> str:
        """P11: the record of a finished game (JSON text)."""
        table = self.host.held(table_id)
        if table is not None:
            if table.status != "over" or table.game is None:
                raise ProtocolError("not_over", rule="P11", id=table_id)
            if table.game.result is None:  # ended with nobody there: no game to record
                raise ProtocolError("no_record", rule="P12", id=table_id)
            return table.storage.record_text()
        else:
            snap = await asyncio.to_thread(self.host.store.load, table_id[:32])
            if snap is None:
                raise ProtocolError("no_record", rule="P12", id=table_id[:32])
            if snap.status not in ("over", ABANDONED):
                raise ProtocolError("not_over", rule="P11", id=table_id)
        if snap.record is None:
            raise ProtocolError("no_record", rule="P12", id=table_id)
        if not await self.host.thinkers.run(_is_json, snap.record):
            # Damaged in storage: set aside rather than served (the row stays for inspection).
            await asyncio.to_thread(self.host.store.quarantine, snap.id, "the stored record is not JSON")
            raise ProtocolError("no_record", rule="P12", id=table_id[:32])
        return snap.record

    async def replay(self, table_id: str, lang: Lang) -> str:
        """P11: every position of a finished game, computed from its record (kept for a while),
        as the JSON of a :class:`~mushka.server.bodies.Replay`."""
        key = (table_id, lang)
        ready = self._replays.get(key)
        if ready is not None:
            self._replays.move_to_end(key)
            return ready
        text = await self.record(table_id)
        # Reading the record, replaying it and writing the result is work for the pool, never the
        # loop's: the worker sends back the reply's text, which the loop only passes on.
        made = await self.host.thinkers.run(replay_json, text, table_id, lang)
        self._replays[key] = made
        while len(self._replays) > REPLAYS_KEPT:
            self._replays.popitem(last=False)
        return made

    async def records_json(self, limit: int, offset: int) -> str:
        """The JSON of a :class:`~mushka.server.protocol.RecordList` page, shared by every reader
        until a game is stored as over or a record set aside (and for :data:`RECORDS_FRESH` at
        most, for any change made otherwise)."""
        loop = asyncio.get_running_loop()
        key = (limit, offset)
        # A game stored as over, or a record set aside, makes a new page at once.
        changes = (self.host.writer.ended, len(getattr(self.host.store, "quarantined", ())))
        made = self._lists.get(key)
        if made is None or made[2] != changes or (made[1].done() and loop.time() - made[0] > RECORDS_FRESH):
            async def page() -> str:
                return RecordList(records=await self.records(limit, offset)).model_dump_json()

            made = (loop.time(), loop.create_task(page()), changes)
            self._lists[key] = made
            self._lists.move_to_end(key)
            while len(self._lists) > LISTS_KEPT:
                self._lists.popitem(last=False)
        try:
            return await asyncio.shield(made[1])
        except Exception:
            self._lists.pop(key, None)  # not kept: the next reader tries again
            raise

    async def records(self, limit: int, offset: int) -> list[RecordSummary]:
        """Finished games, newest first."""
        snaps = await asyncio.to_thread(self.host.store.finished, limit, offset)
        out = []
        for snap in snaps:
            finished = snap.finished or snap.created
            out.append(RecordSummary(id=snap.id, variant=snap.variant, players=snap.players, seats=list(snap.names),
                                     finished=finished.isoformat(), winner=snap.winner,
                                     record=f"/api/records/{snap.id}"))
        return out
