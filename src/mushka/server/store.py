"""Persistence: tables and their games, behind a small repository interface.

The game never saves itself (STYLE 13): the table hands a frozen
:class:`TableSnapshot` to :meth:`TableStore.create` when it is made, and a
:class:`Save` for every later stored change, which the writer
(:mod:`mushka.server.writer`) commits together with other tables' saves in
one transaction (group commit).

What is stored rebuilds the table exactly: its rules (every option, as
text), seats, the first dealer and the game record: one row per deal (its
dealer, stacked deck and chance picks, written when the deal starts) and one
*move* row per applied action, appended to a journal.  When a deal ends its
row is rewritten with every action and pick, and its move rows are dropped
in the same transaction, so the journal stays short and a long partie costs
no more per action than a short one.  :func:`mushka.records.replay` turns
the rows back into the same game; the whole record is written once more,
with the result, when the game ends.

:class:`~mushka.server.sqlstore.SqlStore` keeps them with SQLAlchemy in SQLite (default, in WAL
mode) or PostgreSQL (through psycopg 3, the ``postgres`` extra; see
:func:`~mushka.server.sqlstore.engine_url`).  The schema is made by the Alembic migrations in
``mushka/server/migrations``, run by :func:`~mushka.server.sqlstore.upgrade` at startup, so a fresh
database is created and an old one brought up to date the same way.  The
SQL is portable: plain types, JSON kept as text, no dialect-specific upserts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal, Protocol

BROKEN: Final = "broken"
"""The status of a quarantined table: its rows could not be read back
(see :meth:`~mushka.server.sqlstore.SqlStore.quarantine`)."""

SqliteSync = Literal["normal", "full"]
"""SQLite's ``synchronous`` setting: ``normal`` survives a crash of the server
process; ``full`` also survives a crash of the machine, at a cost per commit."""


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One seat as stored: its kind, name, bot and the hash of its token."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """Everything stored about one table (a new table, or one loaded back)."""

    id: str
    variant: str
    players: int
    options: dict[str, str]
    """Every option of the variant as text (not only the changed ones)."""
    status: str
    listed: bool
    host: int | None
    autostart: bool
    version: int
    ply: int
    seats: tuple[SeatSnapshot, ...]
    created: datetime
    title: str | None = None
    record: str | None = None
    """The whole game record (JSON text), written when the game is over."""
    winner: int | None = None
    finished: datetime | None = None
    first_dealer: int | None = None
    """C4: the first dealer of the game, once it has started."""
    deals: tuple[tuple[int, str], ...] = ()
    """(number from 1, the deal's record as JSON text), every deal of the game
    so far, its move rows merged in."""
    names: tuple[str, ...] = ()
    """The seats' names as the record has them (a finished game)."""
    turn_seconds: int = 0
    """P15: the table's turn timer, seconds per move (0: none)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One applied action in the journal of moves."""

    version: int
    """The table's version after this action (unique per table)."""
    deal: int
    """The number of the deal it was applied in, from 1."""
    action: str
    """The action in the engine's text notation."""
    picks: str = ""
    """K7/K8: the chance picks this action led to (card codes, space-separated)."""


@dataclass(frozen=True, slots=True)
class Save:
    """One stored change of a table, committed by the writer with others.

    A save that only appends moves (the common case: an action in the middle
    of a deal) costs one small insert: the table's own row is left alone, and
    loading takes the version from the journal when it is newer.  Any other
    save writes ``version``, ``ply`` and ``status`` too, and the other parts
    given.
    """

    table_id: str
    version: int
    ply: int
    status: str
    first_dealer: int | None = None
    """Written when not ``None`` (the game has started)."""
    seats: tuple[SeatSnapshot, ...] = ()
    """Every seat, when the seats changed; empty otherwise."""
    deals: tuple[tuple[int, str], ...] = ()
    """Whole deal rows to write: (number, the deal's record as JSON text)."""
    moves: tuple[Move, ...] = ()
    """Actions to append to the journal."""
    settled: tuple[int, ...] = ()
    """Deals whose row (in ``deals``) now holds every action: their moves are dropped."""
    full: bool = False
    """``deals`` holds every deal of the game: every move row of the table is dropped
    (after a failed write, so that storage catches up at once)."""
    record: str | None = None
    """The whole game record, once the game is over."""
    winner: int | None = None
    finished: datetime | None = None
    names: tuple[str, ...] = ()
    """With ``record``: the seats' names as the record has them."""

    @property
    def moves_only(self) -> bool:
        """Whether this save only appends to the journal."""
        return bool(self.moves) and not (self.deals or self.seats or self.settled or self.full
                                         or self.record is not None)


class TableStore(Protocol):
    """What the server needs of a storage: the repository interface."""

    def create(self, table: TableSnapshot) -> None:
        """Store a new table."""
        ...

    def commit(self, saves: Sequence[Save]) -> None:
        """Store these changes, of any tables, all or none (one transaction), in order."""
        ...

    @property
    def quick_commits(self) -> bool:
        """Whether a commit is quick and local (no network round trip, no disk flush), so that
        the writer may run it on the event loop (see :mod:`mushka.server.writer`)."""
        ...

    def checkpoint(self) -> None:
        """Do the slow part of storing that quick commits leave for later (SQLite's WAL
        checkpoint); called now and then, away from the event loop."""
        ...

    def load(self, table_id: str) -> TableSnapshot | None:
        """One table, or ``None``."""
        ...

    def load_active(self) -> list[TableSnapshot]:
        """Every table that waits or plays (to bring back after a restart)."""
        ...

    def finished(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games, newest first."""
        ...

    def finished_records(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games with their records, oldest first (the ratings are rebuilt from them)."""
        ...

    def ping(self) -> bool:
        """Whether the storage answers."""
        ...

    def quarantine(self, table_id: str, problem: str) -> None:
        """Set aside a table whose stored rows cannot be used (never loaded or listed again)."""
        ...

    def close(self) -> None:
        """Release the connections."""
        ...
