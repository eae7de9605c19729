"""The quick match's queue in SQL: who waits for which table, and who was seated where.

Every process of a server reads and writes the same queue, so people who asked different
processes are seated together.  Taking people from the queue into a table is one
transaction of conditional updates (a row is taken only if nobody took it meanwhile), so
two processes never seat the same person twice; a group that loses one of its people to
another process is left whole for the next pass.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Engine

from mushka.server.sqlschema import Base
from mushka.server.store import QueueTicket

_QUEUE = Base.metadata.tables["mushka_queue"]


class _Taken(Exception):
    """Another process took one of a group's people first: the transaction is undone."""


def _ticket(row: Any) -> QueueTicket:
    r = row._mapping
    return QueueTicket(ticket=r["ticket"], variant=r["variant"], players=r["players"], level=r["level"],
                       name=r["name"], lang=r["lang"], address=r["address"], created_ms=r["created_ms"],
                       group_id=r["group_id"], table_id=r["table_id"], seat=r["seat"], url=r["url"],
                       node=r["node"], account_id=r["account_id"])


class QueueBook:
    """The queue on ``engine``'s database (every method that writes runs where the writer commits)."""

    def __init__(self, engine: Engine) -> None:
        """The queue of the database behind ``engine``."""
        self.engine = engine

    def add(self, ticket: QueueTicket) -> None:
        """A person joins the queue."""
        with self.engine.begin() as conn:
            conn.execute(insert(_QUEUE).values(
                ticket=ticket.ticket, variant=ticket.variant, players=ticket.players, level=ticket.level,
                name=ticket.name, lang=ticket.lang, address=ticket.address, created_ms=ticket.created_ms,
                account_id=ticket.account_id))

    def get(self, ticket: str) -> QueueTicket | None:
        """One person's place in the queue, or where he was seated (None: unknown or gone)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_QUEUE).where(_QUEUE.c.ticket == ticket)).first()
        return None if row is None else _ticket(row)

    def waiting(self, variant: str, players: int) -> list[QueueTicket]:
        """The people waiting for a table of ``variant`` and ``players``, first come first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_QUEUE).where(and_(
                _QUEUE.c.variant == variant, _QUEUE.c.players == players, _QUEUE.c.group_id.is_(None)))
                .order_by(_QUEUE.c.created_ms, _QUEUE.c.ticket))
            return [_ticket(r) for r in rows]

    def cancel(self, ticket: str) -> bool:
        """Leave the queue; False if the person was already taken into a table (or unknown)."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(_QUEUE).where(and_(_QUEUE.c.ticket == ticket, _QUEUE.c.group_id.is_(None))))
        return bool(done.rowcount)

    def claim(self, now_ms: int, window_ms: int) -> list[list[QueueTicket]]:
        """Take into groups, for this process to seat, the people who are ready: as many as a
        table holds, or those whose first one has waited ``window_ms``; first come first."""
        with self.engine.connect() as conn:
            rows = [_ticket(r) for r in conn.execute(
                select(_QUEUE).where(_QUEUE.c.group_id.is_(None)).order_by(_QUEUE.c.created_ms, _QUEUE.c.ticket))]
        by_kind: dict[tuple[str, int], list[QueueTicket]] = {}
        for t in rows:
            by_kind.setdefault((t.variant, t.players), []).append(t)
        ready: list[list[QueueTicket]] = []
        for (_, players), queue in by_kind.items():
            for start in range(0, len(queue), players):
                chunk = queue[start:start + players]
                if len(chunk) == players or now_ms - chunk[0].created_ms >= window_ms:
                    ready.append(chunk)
        taken: list[list[QueueTicket]] = []
        for chunk in ready:
            group = secrets.token_hex(8)
            try:
                with self.engine.begin() as conn:
                    for t in chunk:
                        done = conn.execute(update(_QUEUE).where(and_(_QUEUE.c.ticket == t.ticket,
                                                                      _QUEUE.c.group_id.is_(None)))
                                            .values(group_id=group))
                        if done.rowcount != 1:
                            raise _Taken
            except _Taken:
                continue
            taken.append(chunk)
        return taken

    def seat(self, seated: Sequence[tuple[str, str, int, str, str | None]]) -> None:
        """Where each person of a group sits: (ticket, table, seat, the seat's address, node)."""
        with self.engine.begin() as conn:
            for ticket, table_id, seat, url, node in seated:
                conn.execute(update(_QUEUE).where(_QUEUE.c.ticket == ticket)
                             .values(table_id=table_id, seat=seat, url=url, node=node))

    def unclaim(self, tickets: Sequence[str]) -> None:
        """Put a group back in the queue (its table could not be made)."""
        with self.engine.begin() as conn:
            conn.execute(update(_QUEUE).where(_QUEUE.c.ticket.in_(list(tickets))).values(group_id=None))

    def picked(self, ticket: str) -> None:
        """The person was told where he sits: his row, and the token in it, go."""
        with self.engine.begin() as conn:
            conn.execute(delete(_QUEUE).where(and_(_QUEUE.c.ticket == ticket, _QUEUE.c.table_id.is_not(None))))

    def purge(self, before_ms: int) -> int:
        """Forget people who asked before ``before_ms`` and never came back for their answer."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(_QUEUE).where(_QUEUE.c.created_ms < before_ms))
        return int(done.rowcount or 0)
