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

import json
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Literal, Protocol

BROKEN: Final = "broken"
"""The status of a quarantined table: its rows could not be read back
(see :meth:`~mushka.server.sqlstore.SqlStore.quarantine`)."""

ABANDONED: Final = "abandoned"
"""The stored status of a table that ended because no person came to it (P12): over, with
no game to record, never listed among the finished games."""

SqliteSync = Literal["normal", "full"]
"""SQLite's ``synchronous`` setting: ``normal`` survives a crash of the server
process; ``full`` also survives a crash of the machine, at a cost per commit."""


RATING_WHY: Final = ("bots_only", "tutorial", "left_at_once")
"""Why a game is not rated (:class:`GameRating`)."""


@dataclass(frozen=True, slots=True)
class GameRating:
    """Whether an ended game counts for the ratings, decided by its table (stored with it).

    Not rated: a table of bots only, a tutorial, a table a person left at once.  Rated, with
    ``forfeit`` naming the seats whose person left and did not come back within the grace
    time: they lose by forfeit (see :mod:`mushka.server.ratings`)."""

    rated: bool
    why: str | None = None
    """One of :data:`RATING_WHY` when not rated."""
    forfeit: tuple[int, ...] = ()

    def dumps(self) -> str:
        """As stored: compact JSON."""
        return json.dumps({"rated": self.rated, "why": self.why, "forfeit": list(self.forfeit)},
                          separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> GameRating:
        """Back from :meth:`dumps` (raises ``ValueError`` on anything else)."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("rated"), bool):
            raise ValueError(f"not a game's rating: {text[:80]!r}")
        why = data.get("why")
        forfeit = data.get("forfeit") or []
        if why is not None and why not in RATING_WHY:
            raise ValueError(f"unknown reason a game is not rated: {why!r}")
        if not isinstance(forfeit, list) or not all(isinstance(s, int) and 0 <= s < 16 for s in forfeit):
            raise ValueError(f"bad forfeits: {forfeit!r}")
        return cls(rated=data["rated"], why=why, forfeit=tuple(forfeit))


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One seat as stored: its kind, name, bot and the hash of its token."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    account_id: str | None = None
    """The account that took the seat while signed in (only it may play the seat, P18)."""


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
    bank_seconds: int = 0
    """P15: the time bank of every seat for the whole game, in seconds (0: none)."""
    banks: str | None = None
    """P15: every seat's bank left when the table's last change was stored (JSON list of
    milliseconds; None: every bank is whole)."""
    next_id: str | None = None
    """The rematch's table, once made."""
    address: str | None = None
    """The client address that made the table."""
    joined: datetime | None = None
    """When a person first came to the table (None: nobody yet)."""
    chat: tuple[tuple[int, str], ...] = ()
    """P16: the recent chat lines (number, the line as JSON text), oldest first."""
    rating: str | None = None
    """How the ended game counts for the ratings (:meth:`GameRating.dumps`; None: stored before
    tables decided it)."""
    takeback: bool = False
    """P21: the players may take back their last card although other people play."""
    changed_ms: int = field(default=0, compare=False)
    """When the table's last change was stored (ms since 1970, UTC): a turn timer resumed
    after a failover counts the time since then."""


@dataclass(frozen=True, slots=True)
class QueueTicket:
    """A person in the quick match's queue (see :mod:`mushka.server.quickmatch`)."""

    ticket: str
    variant: str
    players: int
    level: str
    name: str | None
    lang: str
    address: str
    created_ms: int
    group_id: str | None = None
    table_id: str | None = None
    seat: int | None = None
    url: str | None = None
    """The seat's address with its token (once seated)."""
    node: str | None = None
    account_id: str | None = None
    """The account the person asked as, signed in (P18: the seat is then the account's)."""


@dataclass(frozen=True, slots=True)
class NodeInfo:
    """One server process on the database."""

    instance: str
    """Random, new at every start."""
    name: str
    """The node's name, which the proxy routes ``?node=NAME`` to."""
    host: str
    pid: int
    port: int | None = None
    started_ms: int = 0
    seen_ms: int = 0
    """When it last renewed its leases."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a table is: its status and, if another live process owns it, that node's name."""

    table_id: str
    status: str
    owner: str | None
    """The owning node's name while its lease holds; None when nobody holds it (or it is ours)."""
    mine: bool = False
    """This process holds the lease."""


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
    at_ms: int | None = None
    """When it was made (ms since 1970, UTC)."""


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
    new: TableSnapshot | None = None
    """A new table to insert (its lease taken by the committing process); the rest is unused."""
    chat: tuple[tuple[int, str], ...] = ()
    """P16: chat lines to keep (number, JSON text); the table's own row is left alone for them."""
    next_id: str | None = None
    """Written when not ``None``: the rematch's table."""
    joined: datetime | None = None
    """Written when not ``None``: when a person first came to the table."""
    rating: str | None = None
    """Written when not ``None``: how the ended game counts for the ratings (:class:`GameRating`)."""
    banks: str | None = None
    """Written when not ``None``: P15's time banks left, every seat's (JSON list of milliseconds)."""

    @property
    def moves_only(self) -> bool:
        """Whether this save only appends to the journal (or the chat): the table's row stays."""
        return bool(self.moves or self.chat) and not (
            self.deals or self.seats or self.settled or self.full or self.record is not None
            or self.new is not None or self.next_id is not None or self.joined is not None
            or self.rating is not None or self.banks is not None)


class TableStore(Protocol):
    """What the server needs of a storage: the repository interface."""

    def create(self, table: TableSnapshot) -> None:
        """Store a new table (outside the writer: tools and tests; the server hands the writer a
        :class:`Save` with ``new``)."""
        ...

    def commit(self, saves: Sequence[Save]) -> Set[str] | None:
        """Store these changes, of any tables, all or none (one transaction), in order; returns
        the ids of the tables whose saves were refused and left out, because this process no
        longer holds their lease (None or empty: none)."""
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
        """Ended games with their records (and those a forfeit ended, with their rating), oldest
        first: the ratings are rebuilt from them."""
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


class QueueStore(Protocol):
    """The quick match's queue, shared by every process (see :mod:`mushka.server.sqlqueue`).

    Every method but :meth:`get` and :meth:`waiting` writes, and runs where the writer commits."""

    def add(self, ticket: QueueTicket) -> None:
        """A person joins the queue."""
        ...

    def get(self, ticket: str) -> QueueTicket | None:
        """One person's place in the queue, or where he was seated."""
        ...

    def waiting(self, variant: str, players: int) -> list[QueueTicket]:
        """The people waiting for a table of that kind, first come first."""
        ...

    def cancel(self, ticket: str) -> bool:
        """Leave the queue; False if already taken into a table."""
        ...

    def claim(self, now_ms: int, window_ms: int) -> list[list[QueueTicket]]:
        """Take the groups that are ready into tables this process makes."""
        ...

    def seat(self, seated: Sequence[tuple[str, str, int, str, str | None]]) -> None:
        """Where each person of a group sits: (ticket, table, seat, the seat's address, node)."""
        ...

    def unclaim(self, tickets: Sequence[str]) -> None:
        """Put a group back in the queue."""
        ...

    def picked(self, ticket: str) -> None:
        """The person was told where he sits: his row goes."""
        ...

    def purge(self, before_ms: int) -> int:
        """Forget people who asked before ``before_ms``."""
        ...


class NodeStore(TableStore, Protocol):
    """A store that several processes share: nodes, leases and what every process sees alike.

    Every method but :meth:`placement`, :meth:`listed`, :meth:`live_nodes`, :meth:`bot_tables`
    and :meth:`finished_since` writes, and runs where the writer commits (one at a time)."""

    def register(self, node: NodeInfo, *, ttl: float, join: bool) -> None:
        """Enter this process as a node; refuses (:class:`~mushka.server.texts.StorageError`) a
        second live node of the same name, and on SQLite any other live node unless ``join``."""
        ...

    def unregister(self) -> None:
        """Leave: every lease of this process released, its node row removed."""
        ...

    def renew(self, ttl: float) -> Set[str]:
        """Renew every lease of this process for ``ttl`` seconds; the ids of the tables whose
        lease it lost meanwhile (they are no longer its own)."""
        ...

    def claim(self, table_id: str, ttl: float) -> bool:
        """Take the lease of one table that nobody holds; whether it is ours now."""
        ...

    def claim_expired(self, ttl: float, limit: int, *, waiting: bool = False) -> list[str]:
        """Take up to ``limit`` playing tables (and waiting ones, if ``waiting``) whose owner's
        lease ran out (a process died) or that nobody holds; their ids."""
        ...

    def release(self, table_ids: Iterable[str]) -> None:
        """Give these tables' leases up (anybody may claim them at once)."""
        ...

    @property
    def owned(self) -> Set[str]:
        """The tables whose lease this process holds."""
        ...

    def placement(self, table_id: str) -> Placement | None:
        """Where a table is (None: no such table)."""
        ...

    def live_nodes(self, ttl: float) -> list[NodeInfo]:
        """The nodes seen within ``ttl`` seconds."""
        ...

    @property
    def queue(self) -> QueueStore:
        """The quick match's queue."""
        ...

    def listed(self, status: str | None) -> list[TableSnapshot]:
        """Listed tables that wait or play (or of ``status``), newest first, without their deals."""
        ...

    def bot_tables(self, address: str, unjoined_before: datetime) -> tuple[int, int]:
        """P12: tables of bots only being played, on every node and of ``address``: those of
        bots only, and those no person came to since before ``unjoined_before``."""
        ...

    def finished_since(self, moment: datetime, limit: int) -> list[TableSnapshot]:
        """Games ended at ``moment`` or later, as :meth:`finished_records` gives them."""
        ...
