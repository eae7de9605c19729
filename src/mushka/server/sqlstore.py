"""The SQL repository of the server: :class:`SqlStore`.

It implements :class:`~mushka.server.store.NodeStore` (what is stored, and why, is
described in :mod:`mushka.server.store`) with SQLAlchemy in SQLite (default, in WAL
mode) or PostgreSQL (through psycopg 3, the ``postgres`` extra).  The schema, the
URLs and the migrations are in :mod:`mushka.server.sqlschema`; the nodes and leases,
which fence every commit, in :mod:`mushka.server.sqlnodes`; what a commit writes in
:mod:`mushka.server.sqlwrite` and how the tables are read back in
:mod:`mushka.server.sqlread`.  This module holds the connections and the store's
interface: the commit's transaction, the reads and their snapshots' isolation, the
tables set aside, and the upkeep (checkpoints, the health check, a clean close).  The
SQL is portable: plain types, JSON kept as text, no dialect-specific upserts.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence, Set
from datetime import datetime

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DatabaseError

from mushka.server.sqlaccounts import AccountBook
from mushka.server.sqlnodes import LeaseBook
from mushka.server.sqlqueue import QueueBook
from mushka.server.sqlread import ENDED, read_tables
from mushka.server.sqlschema import (
    BUSY_TIMEOUT,
    MIGRATIONS,
    POSTGRES_DRIVER,
    WAL_LIMIT,
    Base,
    alembic_config,
    engine_url,
    make_engine,
    shown_url,
    upgrade,
)
from mushka.server.sqlwrite import write_saves
from mushka.server.store import BROKEN, NodeInfo, Placement, Save, SqliteSync, TableSnapshot
from mushka.server.texts import StorageError

__all__ = [
    "BUSY_TIMEOUT", "MIGRATIONS", "POSTGRES_DRIVER", "Base", "SqlStore", "StorageError", "alembic_config",
    "engine_url", "make_engine", "shown_url", "upgrade",
]

log = logging.getLogger("mushka.server")

_TABLES = Base.metadata.tables["mushka_tables"]
_SEATS = Base.metadata.tables["mushka_seats"]


class SqlStore:
    """A :class:`~mushka.server.store.NodeStore` on SQLAlchemy; methods are synchronous (the
    server calls them from worker threads, and those that write where its one writer commits)."""

    def __init__(self, url: str, *, migrate: bool = True, sync: SqliteSync = "normal",
                 busy_timeout: float = BUSY_TIMEOUT, inline: bool = False) -> None:
        """Connect to ``url`` and, unless ``migrate`` is false, run the migrations.

        ``inline`` lets the writer commit on the event loop when commits are quick (SQLite,
        ``synchronous=NORMAL``); by default every commit runs in the writer's thread, so that
        a lock, a slow disk or a full one never stops the loop.  A SQLite file that is not a
        database, or a damaged one, is refused with a :class:`StorageError` naming it."""
        self.url = url
        self._sqlite = url.startswith("sqlite")
        self._quick = self._sqlite and sync == "normal"
        self._inline = inline
        self.quarantined: list[tuple[str, str]] = []
        """(table id, what was wrong) of every row set aside since this store was opened."""
        # The checkpoints, which flush to disk, are the writer's (in its thread).
        self.engine = make_engine(url, sync, own_checkpoints=self._quick, busy_timeout=busy_timeout)
        try:
            if self._sqlite:
                self._check_file()
            if migrate:
                upgrade(self.engine)
        except DatabaseError as exc:
            self.engine.dispose()
            raise StorageError("damaged", url=shown_url(url), problem=_first_line(exc)) from None
        self._writing: Connection | None = None
        """The connection :meth:`commit` keeps (one writer: no pool round trip per commit)."""
        self._write_lock = threading.Lock()
        # Commits come from the writer's thread, but a tool or a test may store a table from
        # another one meanwhile: one transaction at a time on the kept connection.
        self.leases = LeaseBook(self.engine)
        self._queue = QueueBook(self.engine)
        self._accounts = AccountBook(self.engine)
        """This process's node and leases (:mod:`mushka.server.sqlnodes`)."""

    def _check_file(self) -> None:
        """SQLite: a quick check of the whole file, so that damage is found at the start, said in
        one line, rather than in the middle of serving."""
        with self.engine.connect() as conn:
            found = [str(r[0]) for r in conn.exec_driver_sql("PRAGMA quick_check(3)")]
        if found != ["ok"]:
            # One line: SQLite's findings may span several (a page per line).
            words = "; ".join(" ".join(f.split()) for f in found)
            raise StorageError("damaged", url=shown_url(self.url), problem=words[:300])

    @property
    def quick_commits(self) -> bool:
        """SQLite in WAL mode with ``synchronous=NORMAL``: a commit writes to the OS, no flush,
        a fraction of a millisecond; every other database is across a network or flushes."""
        return self._quick and self._inline

    @property
    def own_checkpoints(self) -> bool:
        """Whether this store's WAL is checkpointed only by :meth:`checkpoint` (the writer's)."""
        return self._quick

    def create(self, table: TableSnapshot) -> None:
        """Store a new table (with plain inserts: ORM objects would leave reference cycles behind,
        which only a full garbage collection frees)."""
        self.commit([Save(table_id=table.id, version=table.version, ply=table.ply, status=table.status,
                          new=table)])

    def commit(self, saves: Sequence[Save]) -> Set[str]:
        """Store many tables' changes in one transaction (see :class:`Save`), fenced by this
        process's leases; the ids of the tables whose saves were refused (lease lost)."""
        if not saves:
            return frozenset()
        with self._write_lock:
            return self._commit_locked(saves)

    def _commit_locked(self, saves: Sequence[Save]) -> Set[str]:
        conn = self._writing
        if conn is None or conn.closed:
            conn = self._writing = self.engine.connect()
        leases = self.leases
        try:
            with conn.begin():
                # First, while taking the write lock: renew the leases, and see which still hold.
                touched = {s.table_id for s in saves if s.new is None}
                kept = leases.fence(conn, touched)
                lost = touched - kept
                if lost:
                    saves = [s for s in saves if s.table_id not in lost]
                write_saves(conn, saves)
                granted = leases.grant(conn, [s.table_id for s in saves if s.new is not None])
        except Exception:
            # The connection may be broken (a database restart): the next try opens a new one.
            self._writing = None
            with contextlib.suppress(Exception):
                conn.close()
            raise
        leases.committed(granted, lost)
        if lost:
            log.warning("%d tables' changes refused: another process holds their lease now", len(lost))
        return lost

    # --- nodes and leases (mushka.server.sqlnodes) ---------------------------------------------

    def check_node(self, name: str, *, ttl: float, join: bool) -> None:
        """Whether a node ``name`` may start here (raises :class:`StorageError` if not)."""
        self.leases.check(name, ttl=ttl, join=join)

    def register(self, node: NodeInfo, *, ttl: float, join: bool) -> None:
        """Enter this process as a node (see :meth:`~mushka.server.store.NodeStore.register`)."""
        self.leases.register(node, ttl=ttl, join=join)

    def unregister(self) -> None:
        """Leave: every lease released, the node's row removed."""
        self.leases.unregister()

    def renew(self, ttl: float) -> Set[str]:
        """Renew this process's leases; the ids of those it lost."""
        self.leases.ttl_ms = int(ttl * 1000)
        return self.leases.renew()

    def claim(self, table_id: str, ttl: float) -> bool:
        """Take the lease of a table nobody holds."""
        return self.leases.claim(table_id)

    def claim_expired(self, ttl: float, limit: int, *, waiting: bool = False) -> list[str]:
        """Take up to ``limit`` playing (and, if ``waiting``, waiting) tables whose lease ran out."""
        return self.leases.claim_expired(limit, waiting=waiting)

    def release(self, table_ids: Iterable[str]) -> None:
        """Give these tables' leases up."""
        self.leases.release(table_ids)

    @property
    def owned(self) -> Set[str]:
        """The tables whose lease this process holds."""
        return frozenset(self.leases.held)

    def placement(self, table_id: str) -> Placement | None:
        """Where a table is (None: no such table)."""
        return self.leases.placement(table_id)

    def live_nodes(self, ttl: float) -> list[NodeInfo]:
        """The nodes seen within ``ttl`` seconds."""
        return self.leases.live_nodes(ttl)

    @property
    def queue(self) -> QueueBook:
        """The quick match's queue (:mod:`mushka.server.sqlqueue`)."""
        return self._queue

    @property
    def accounts(self) -> AccountBook:
        """Player accounts, their credentials and sessions (:mod:`mushka.server.sqlaccounts`)."""
        return self._accounts

    # --- reading ----------------------------------------------------------------------------

    def load(self, table_id: str) -> TableSnapshot | None:
        """One table, or ``None`` (also when its rows are damaged: it is then quarantined)."""
        # One snapshot for the row, the deals and the journal: under PostgreSQL's default each
        # statement sees the latest commit, and a deal settled between two of them would give a
        # row and a journal that do not match.  (A SQLite read is one snapshot anyway.)
        options = {} if self._sqlite else {"isolation_level": "REPEATABLE READ"}
        with self.engine.connect().execution_options(**options) as conn:
            found, broken = read_tables(conn, _TABLES.c.id == table_id, with_deals=True)
        self._set_aside(broken)
        return found[0] if found else None

    def load_active(self) -> list[TableSnapshot]:
        """Every table that waits or plays (those whose rows are damaged are quarantined)."""
        with self.engine.connect() as conn:
            found, broken = read_tables(conn, _TABLES.c.status.in_(("waiting", "playing")), with_deals=True)
        self._set_aside(broken)
        return found

    def listed(self, status: str | None) -> list[TableSnapshot]:
        """Listed tables that wait or play (or of ``status``), newest first, without deals."""
        wanted = ("waiting", "playing") if status is None else (status,)
        with self.engine.connect() as conn:
            found, _ = read_tables(conn, and_(_TABLES.c.listed.is_(True), _TABLES.c.status.in_(wanted)),
                                   with_deals=False, summary=True, newest_made=True, limit=200)
        return found

    def bot_tables(self, address: str, unjoined_before: datetime) -> tuple[int, int]:
        """P12: bots-only tables being played, on every node and of ``address`` (a table that no
        person came to since before ``unjoined_before`` counts as one)."""
        people = (select(_SEATS.c.table_id).where(_SEATS.c.kind != "bot")).scalar_subquery()
        bots_only = or_(_TABLES.c.id.not_in(people),
                        and_(_TABLES.c.joined_at.is_(None), _TABLES.c.created_at < unjoined_before))
        where = and_(_TABLES.c.status.in_(("waiting", "playing")), bots_only)
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(_TABLES).where(where)).scalar_one()
            mine = conn.execute(select(func.count()).select_from(_TABLES)
                                .where(and_(where, _TABLES.c.address == address))).scalar_one()
        return int(total), int(mine)

    def quarantine(self, table_id: str, problem: str) -> None:
        """Set a table aside: its status becomes ``broken``, so that it is never loaded, listed or
        served again, while its rows stay as they are for whoever looks into it."""
        log.error("table %s is damaged and set aside (status 'broken'): %s", table_id, problem)
        self.quarantined.append((table_id, problem))
        try:
            with self.engine.begin() as conn:
                conn.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(status=BROKEN))
        except Exception:  # storage failing too: it is set aside in memory, and again next time
            log.warning("table %s could not be marked broken", table_id, exc_info=True)

    def _set_aside(self, broken: list[tuple[str, str]]) -> None:
        for table_id, problem in broken:
            self.quarantine(table_id, problem)

    def finished(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games, newest first, without their records (``names`` holds the seats); a
        table that ended without a game played out (nobody came: status ``abandoned``) is not
        among them."""
        with self.engine.connect() as conn:
            found, broken = read_tables(conn, _TABLES.c.status == "over",
                                        with_deals=False, newest=True, limit=limit, offset=offset, summary=True)
        self._set_aside(broken)
        return found

    def finished_records(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games with their records, oldest first (the ratings are rebuilt from them)."""
        with self.engine.connect() as conn:
            found, broken = read_tables(conn, ENDED, with_deals=False, oldest=True, limit=limit, offset=offset)
        self._set_aside(broken)
        return found

    def finished_since(self, moment: datetime, limit: int) -> list[TableSnapshot]:
        """Games finished at ``moment`` or later, with their records, oldest first."""
        with self.engine.connect() as conn:
            found, broken = read_tables(conn, and_(ENDED, _TABLES.c.finished_at >= moment),
                                        with_deals=False, oldest=True, limit=limit)
        self._set_aside(broken)
        return found

    # --- upkeep --------------------------------------------------------------------------------

    def checkpoint(self) -> None:
        """SQLite: copy what the WAL holds into the database file, without waiting for anybody
        (the writer calls this every second, away from the event loop); once the WAL has grown
        past twice :data:`WAL_LIMIT` (readers kept a checkpoint from reaching its end), wait for
        them and cut it back.  Elsewhere nothing."""
        if not self._quick:
            return
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            if self._wal_bytes() > 2 * WAL_LIMIT:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def _wal_bytes(self) -> int:
        database = self.engine.url.database
        if not database or database == ":memory:":
            return 0
        try:
            return os.stat(f"{database}-wal").st_size
        except OSError:
            return 0

    def ping(self) -> bool:
        """Whether the database answers a read of the server's tables."""
        try:
            with self.engine.connect() as conn:
                conn.execute(select(_TABLES.c.id).limit(1)).all()
        except Exception:  # any driver error means "not answering"
            log.exception("database ping failed")
            return False
        return True

    def close(self) -> None:
        """Release the connections (SQLite: the WAL is checkpointed and emptied first, so that a
        clean stop leaves the whole database in its file)."""
        with self._write_lock:
            if self._writing is not None:
                with contextlib.suppress(Exception):
                    self._writing.close()
                self._writing = None
        self.engine.dispose()
        database = self.engine.url.database
        if self._sqlite and database and database != ":memory:" and os.path.exists(database):
            # Every pooled connection is closed now: one last connection checkpoints the whole
            # log and empties it (a reader kept open in the pool would stop it half way).
            try:
                last = sqlite3.connect(database, timeout=2)
                try:
                    last.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    last.close()
            except sqlite3.Error as exc:  # another process on the file holds it: it checkpoints
                log.info("the last checkpoint of %s was left to the other servers on it: %s", database, exc)


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
