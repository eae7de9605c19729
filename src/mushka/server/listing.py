"""The lobby's lists as every process of the server sees them: tables from the shared store.

A process holds in memory only the tables it owns; the lists of open tables and of
games being played are read from the store (every node's tables), shared by every
reader for :data:`FRESH` seconds, and told with the live details (who is connected,
spectators) where this process owns the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Final

from mushka.rules import Rules
from mushka.server.protocol import SeatInfo, TableInfo, TableStatus
from mushka.server.seating import seat_kind
from mushka.server.store import NodeStore, TableSnapshot

FRESH: Final = 0.5
"""Seconds a list read from the store is served as it was read."""


@lru_cache(maxsize=256)
def _rules_words(variant: str, players: int, options: tuple[tuple[str, str], ...]) -> tuple[Rules, dict[str, str]]:
    rules = Rules.make(variant, players, **dict(options))
    return rules, rules.options_text(changed_only=True)


def snapshot_info(snap: TableSnapshot, lang: str) -> TableInfo:
    """A stored table as the lobby shows it (no live details: nobody counted as connected)."""
    rules, changed = _rules_words(snap.variant, snap.players, tuple(sorted(snap.options.items())))
    status: TableStatus = "over" if snap.status == "over" else "playing" if snap.status == "playing" else "waiting"
    seats = [SeatInfo(seat=s.seat, kind=seat_kind(s.kind), name=s.name, bot=s.bot, connected=False)
             for s in snap.seats]
    return TableInfo(
        id=snap.id, title=snap.title, variant=snap.variant, variant_title=rules.info.title(lang),
        players=snap.players, options=changed, status=status, host=snap.host, seats=seats, spectators=0,
        listed=snap.listed, invite=f"/?table={snap.id}", version=snap.version, created=snap.created.isoformat(),
        result=None, next=snap.next_id, turn_seconds=snap.turn_seconds, bank_seconds=snap.bank_seconds,
    )


class Listings:
    """The listed tables of every node, read from the store at most every :data:`FRESH` seconds."""

    def __init__(self, store: NodeStore) -> None:
        """Lists over ``store``."""
        self.store = store
        self._read: dict[str | None, tuple[float, asyncio.Task[list[TableSnapshot]]]] = {}

    async def tables(self, status: str | None, lang: str,
                     live: Mapping[str, Callable[[str], TableInfo]]) -> list[TableInfo]:
        """Listed tables (of ``status``), newest first; ``live`` gives the info of the tables
        this process owns, by id."""
        loop = asyncio.get_running_loop()
        made = self._read.get(status)
        if made is None or (made[1].done() and loop.time() - made[0] > FRESH):
            made = (loop.time(), loop.create_task(asyncio.to_thread(self.store.listed, status)))
            self._read[status] = made
        try:
            snaps = await asyncio.shield(made[1])
        except Exception:
            self._read.pop(status, None)  # the next reader tries again
            raise
        out = []
        for snap in snaps:
            own = live.get(snap.id)
            out.append(own(lang) if own is not None else snapshot_info(snap, lang))
        return out
