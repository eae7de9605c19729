"""The SQL repository of the server: :class:`SqlStore`.

It implements :class:`~mushka.server.store.NodeStore` (what is stored, and why, is
described in :mod:`mushka.server.store`) with SQLAlchemy in SQLite (default, in WAL
mode) or PostgreSQL (through psycopg 3, the ``postgres`` extra).  The schema, the
URLs and the migrations are in :mod:`mushka.server.sqlschema`; the nodes and leases,
which fence every commit, in :mod:`mushka.server.sqlnodes`.  The SQL is portable:
plain types, JSON kept as text, no dialect-specific upserts.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence, Set
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    DateTime,
    Integer,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DatabaseError

from mushka.server.sqlaccounts import AccountBook
from mushka.server.sqlnodes import LeaseBook
from mushka.server.sqlqueue import QueueBook
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
from mushka.server.store import ABANDONED, BROKEN, NodeInfo, Placement, Save, SeatSnapshot, SqliteSync, TableSnapshot
from mushka.server.texts import StorageError

__all__ = [
    "BUSY_TIMEOUT", "MIGRATIONS", "POSTGRES_DRIVER", "Base", "SqlStore", "StorageError", "alembic_config",
    "engine_url", "make_engine", "shown_url", "upgrade",
]

log = logging.getLogger("mushka.server")

CHAT_KEPT: Final = 50
"""P16: chat lines kept per table (the older ones are dropped as new ones come)."""


_TABLES = Base.metadata.tables["mushka_tables"]
_SEATS = Base.metadata.tables["mushka_seats"]
_DEALS = Base.metadata.tables["mushka_deals"]
_MOVES = Base.metadata.tables["mushka_moves"]

# Statements of a commit, made once; executed with many parameter sets each.
_UPDATE_TABLE = (
    update(_TABLES).where(_TABLES.c.id == bindparam("t_id"))
    .values(status=bindparam("t_status"), version=bindparam("t_version"), ply=bindparam("t_ply"),
            first_dealer=func.coalesce(bindparam("t_first_dealer", type_=Integer), _TABLES.c.first_dealer),
            updated_at=bindparam("t_updated", type_=DateTime(timezone=True)))
)
_FINISH_TABLE = (
    update(_TABLES).where(_TABLES.c.id == bindparam("t_id"))
    .values(record=bindparam("t_record"), winner=bindparam("t_winner"), names=bindparam("t_names"),
            finished_at=bindparam("t_finished", type_=DateTime(timezone=True)))
)
_UPDATE_SEAT = (
    update(_SEATS).where(and_(_SEATS.c.table_id == bindparam("t_id"), _SEATS.c.seat == bindparam("s_seat")))
    .values(kind=bindparam("s_kind"), name=bindparam("s_name"), bot=bindparam("s_bot"),
            token_hash=bindparam("s_hash"), account_id=bindparam("s_account"))
)
_DROP_DEAL = delete(_DEALS).where(and_(_DEALS.c.table_id == bindparam("t_id"),
                                       _DEALS.c.number == bindparam("d_number")))
_DROP_DEAL_MOVES = delete(_MOVES).where(and_(_MOVES.c.table_id == bindparam("t_id"),
                                             _MOVES.c.deal == bindparam("d_number")))
_DROP_ALL_MOVES = delete(_MOVES).where(_MOVES.c.table_id == bindparam("t_id"))
_CHAT = Base.metadata.tables["mushka_chat"]
_DROP_OLD_CHAT = delete(_CHAT).where(and_(_CHAT.c.table_id == bindparam("t_id"),
                                          _CHAT.c.number <= bindparam("c_below", type_=Integer)))
_SET_NEXT = update(_TABLES).where(_TABLES.c.id == bindparam("t_id")).values(next_id=bindparam("t_next"))
_SET_BANKS = update(_TABLES).where(_TABLES.c.id == bindparam("t_id")).values(banks=bindparam("t_banks"))
# The games the ratings read: finished with a record, or ended by a forfeit (no record).
_ENDED = or_(and_(_TABLES.c.status == "over", _TABLES.c.record.is_not(None)),
             and_(_TABLES.c.status == ABANDONED, _TABLES.c.rating.is_not(None)))
_SET_RATING = (
    update(_TABLES).where(_TABLES.c.id == bindparam("t_id"))
    .values(rating=bindparam("t_rating"),
            # A game a forfeit ended has no record: it ends here (the ratings read by this time).
            finished_at=func.coalesce(_TABLES.c.finished_at, bindparam("t_ended", type_=DateTime(timezone=True))))
)
_SET_JOINED = (update(_TABLES).where(and_(_TABLES.c.id == bindparam("t_id"), _TABLES.c.joined_at.is_(None)))
               .values(joined_at=bindparam("t_joined", type_=DateTime(timezone=True))))


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
                _commit(conn, saves)
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
            found, broken = _load(conn, _TABLES.c.id == table_id, with_deals=True)
        self._set_aside(broken)
        return found[0] if found else None

    def load_active(self) -> list[TableSnapshot]:
        """Every table that waits or plays (those whose rows are damaged are quarantined)."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, _TABLES.c.status.in_(("waiting", "playing")), with_deals=True)
        self._set_aside(broken)
        return found

    def listed(self, status: str | None) -> list[TableSnapshot]:
        """Listed tables that wait or play (or of ``status``), newest first, without deals."""
        wanted = ("waiting", "playing") if status is None else (status,)
        with self.engine.connect() as conn:
            found, _ = _load(conn, and_(_TABLES.c.listed.is_(True), _TABLES.c.status.in_(wanted)),
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
            found, broken = _load(conn, _TABLES.c.status == "over",
                                  with_deals=False, newest=True, limit=limit, offset=offset, summary=True)
        self._set_aside(broken)
        return found

    def finished_records(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games with their records, oldest first (the ratings are rebuilt from them)."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, _ENDED, with_deals=False, oldest=True, limit=limit, offset=offset)
        self._set_aside(broken)
        return found

    def finished_since(self, moment: datetime, limit: int) -> list[TableSnapshot]:
        """Games finished at ``moment`` or later, with their records, oldest first."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, and_(_ENDED, _TABLES.c.finished_at >= moment),
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


def _insert_table(conn: Connection, table: TableSnapshot, now: datetime) -> None:
    """The rows of a new table (with plain inserts: ORM objects would leave reference cycles
    behind, which only a full garbage collection frees)."""
    conn.execute(insert(_TABLES).values(
        id=table.id, title=table.title, variant=table.variant, players=table.players,
        options=json.dumps(table.options, sort_keys=True), status=table.status, listed=table.listed,
        host=table.host, autostart=table.autostart, version=table.version, ply=table.ply,
        record=table.record, winner=table.winner, names=_names_text(table.names) if table.record else None,
        created_at=table.created, updated_at=now, finished_at=table.finished, first_dealer=table.first_dealer,
        turn_seconds=table.turn_seconds, bank_seconds=table.bank_seconds or None, banks=table.banks,
        next_id=table.next_id, address=table.address, joined_at=table.joined,
        takeback=table.takeback))
    conn.execute(insert(_SEATS), [
        {"table_id": table.id, "seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
         "token_hash": s.token_hash, "account_id": s.account_id} for s in table.seats])
    if table.deals:
        conn.execute(insert(_DEALS), [{"table_id": table.id, "number": n, "data": d} for n, d in table.deals])


def _commit(conn: Connection, saves: Sequence[Save]) -> None:
    """The statements of one group commit, each run once with many parameter sets."""
    now = datetime.now(UTC)
    latest: dict[str, Save] = {}
    deals: dict[tuple[str, int], str] = {}
    moves: list[dict[str, object]] = []
    seats: dict[tuple[str, int], SeatSnapshot] = {}
    finished: list[dict[str, object]] = []
    settled: list[dict[str, object]] = []
    cleared: list[dict[str, object]] = []
    chat: list[dict[str, object]] = []
    chat_tail: dict[str, int] = {}
    nexts: list[dict[str, object]] = []
    banks: dict[str, str] = {}
    joined: list[dict[str, object]] = []
    rated: list[dict[str, object]] = []
    for save in saves:
        tid = save.table_id
        if save.new is not None:
            _insert_table(conn, save.new, now)
            continue
        if not save.moves_only:
            latest[tid] = save  # versions only grow: the last such save holds the newest fields
        for s in save.seats:
            seats[tid, s.seat] = s
        if save.full:
            # Every deal is rewritten below, so every journal row so far is dropped first.
            moves = [m for m in moves if m["table_id"] != tid]
            cleared.append({"t_id": tid})
        moves.extend({"table_id": tid, "version": m.version, "deal": m.deal, "action": m.action,
                      "picks": m.picks or None, "at_ms": m.at_ms} for m in save.moves)
        for number, data in save.deals:
            deals[tid, number] = data
        settled.extend({"t_id": tid, "d_number": n} for n in save.settled)
        if save.record is not None:
            finished.append({"t_id": tid, "t_record": save.record, "t_winner": save.winner,
                             "t_names": _names_text(save.names),
                             "t_finished": save.finished})
        for number, data in save.chat:
            chat.append({"table_id": tid, "number": number, "data": data})
            chat_tail[tid] = max(chat_tail.get(tid, 0), number)
        if save.next_id is not None:
            nexts.append({"t_id": tid, "t_next": save.next_id})
        if save.banks is not None:
            banks[tid] = save.banks  # the newest save's banks
        if save.joined is not None:
            joined.append({"t_id": tid, "t_joined": save.joined})
        if save.rating is not None:
            ended = save.finished or (now if save.status in ("over", ABANDONED) else None)
            rated.append({"t_id": tid, "t_rating": save.rating, "t_ended": ended})
    if latest:
        conn.execute(_UPDATE_TABLE, [
            {"t_id": s.table_id, "t_status": s.status, "t_version": s.version, "t_ply": s.ply,
             "t_first_dealer": s.first_dealer, "t_updated": now} for s in latest.values()])
    if finished:
        conn.execute(_FINISH_TABLE, finished)
    if nexts:
        conn.execute(_SET_NEXT, nexts)
    if banks:
        conn.execute(_SET_BANKS, [{"t_id": tid, "t_banks": text} for tid, text in banks.items()])
    if joined:
        conn.execute(_SET_JOINED, joined)
    if rated:
        conn.execute(_SET_RATING, rated)
    if seats:
        conn.execute(_UPDATE_SEAT, [
            {"t_id": tid, "s_seat": s.seat, "s_kind": s.kind, "s_name": s.name, "s_bot": s.bot,
             "s_hash": s.token_hash, "s_account": s.account_id} for (tid, _), s in seats.items()])
    if cleared:
        conn.execute(_DROP_ALL_MOVES, cleared)
    if moves:
        _append_moves(conn, moves)
    if deals:
        keys = [{"t_id": tid, "d_number": n} for tid, n in deals]
        conn.execute(_DROP_DEAL, keys)
        conn.execute(insert(_DEALS), [{"table_id": tid, "number": n, "data": data}
                                      for (tid, n), data in deals.items()])
    if settled:
        conn.execute(_DROP_DEAL_MOVES, settled)
    if chat:
        conn.execute(insert(_CHAT), chat)
        conn.execute(_DROP_OLD_CHAT, [{"t_id": tid, "c_below": top - CHAT_KEPT} for tid, top in chat_tail.items()])


_MOVE_COLUMNS: Final = ("table_id", "version", "deal", "action", "picks", "at_ms")
_MOVES_PER_INSERT: Final = 500


def _append_moves(conn: Connection, moves: list[dict[str, object]]) -> None:
    """Insert journal rows with one multi-row statement per few hundred rows.

    ``executemany`` would run one statement per row, and the database driver
    lets go of the interpreter's lock around each: with the event loop busy
    in the other thread, every row would then wait its turn to get it back.
    """
    style = conn.dialect.paramstyle
    if style not in ("qmark", "format", "pyformat"):
        conn.execute(insert(_MOVES), moves)  # a driver with another parameter style: the plain way
        return
    mark = "?" if style == "qmark" else "%s"
    one = "(" + ",".join([mark] * len(_MOVE_COLUMNS)) + ")"
    for start in range(0, len(moves), _MOVES_PER_INSERT):
        chunk = moves[start:start + _MOVES_PER_INSERT]
        sql = f"INSERT INTO {_MOVES.name} ({', '.join(_MOVE_COLUMNS)}) VALUES " + ",".join([one] * len(chunk))
        conn.exec_driver_sql(sql, tuple(m[c] for m in chunk for c in _MOVE_COLUMNS))


def _utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes (every stored time is UTC); PostgreSQL hands back
    # aware ones in its session's time zone, which need not be UTC.
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _load(conn: Connection, where: Any, *, with_deals: bool, newest: bool = False, limit: int | None = None,
          offset: int = 0, summary: bool = False, oldest: bool = False,
          newest_made: bool = False) -> tuple[list[TableSnapshot], list[tuple[str, str]]]:
    """Tables matching ``where`` with their seats (and deals, the journal merged in), read
    with plain selects (ORM objects would leave reference cycles behind); and the (id,
    problem) of those whose rows cannot be read, left out."""
    # A summary leaves the record out: a listing must not read (or parse) every game.
    query = (select(*[c for c in _TABLES.c if c.name != "record"]) if summary else select(_TABLES)).where(where)
    if newest:
        # NULLS LAST spelled out: PostgreSQL sorts nulls first in a descending order, SQLite last.
        query = (query.order_by(_TABLES.c.finished_at.desc().nulls_last(), _TABLES.c.id)
                 .limit(limit).offset(offset))
    elif oldest:
        query = (query.order_by(_TABLES.c.finished_at.asc().nulls_last(), _TABLES.c.id)
                 .limit(limit).offset(offset))
    elif newest_made:
        query = query.order_by(_TABLES.c.created_at.desc(), _TABLES.c.id).limit(limit)
    else:
        query = query.order_by(_TABLES.c.created_at)
    rows = conn.execute(query).mappings().all()
    if not rows:
        return [], []
    ids = [r["id"] for r in rows]
    seats: dict[str, list[SeatSnapshot]] = {i: [] for i in ids}
    for s in conn.execute(select(_SEATS).where(_SEATS.c.table_id.in_(ids)).order_by(_SEATS.c.seat)).mappings():
        seats[s["table_id"]].append(SeatSnapshot(s["seat"], s["kind"], s["name"], s["bot"], s["token_hash"],
                                                    s["account_id"]))
    deals: dict[str, list[tuple[int, str]]] = {i: [] for i in ids}
    moves: dict[str, list[Any]] = {i: [] for i in ids}
    chat: dict[str, list[tuple[int, str]]] = {i: [] for i in ids}
    if with_deals:
        for c in conn.execute(select(_CHAT).where(_CHAT.c.table_id.in_(ids)).order_by(_CHAT.c.number)).mappings():
            chat[c["table_id"]].append((c["number"], c["data"]))
        for d in conn.execute(select(_DEALS).where(_DEALS.c.table_id.in_(ids)).order_by(_DEALS.c.number)).mappings():
            deals[d["table_id"]].append((d["number"], d["data"]))
        for m in conn.execute(select(_MOVES).where(_MOVES.c.table_id.in_(ids)).order_by(_MOVES.c.version)).mappings():
            moves[m["table_id"]].append(m)
    found: list[TableSnapshot] = []
    broken: list[tuple[str, str]] = []
    for r in rows:
        try:
            found.append(_snapshot(r, seats[r["id"]], deals[r["id"]], moves[r["id"]], chat[r["id"]]))
        except (ValueError, TypeError, KeyError, AttributeError, AssertionError, RecursionError) as exc:
            # One damaged row must not take the server down: it is left out (and quarantined).
            broken.append((r["id"], f"{type(exc).__name__}: {exc}"[:300]))
    return found, broken


def _merged_deals(table_id: str, deals: list[tuple[int, str]], moves: list[Any]) -> tuple[tuple[int, str], ...]:
    """Each deal's record with the journal's moves of that deal appended, in order."""
    if not moves:
        return tuple(deals)
    records: dict[int, dict[str, Any]] = {n: json.loads(data) for n, data in deals}
    for move in moves:
        deal = records.get(move["deal"])
        if deal is None:
            raise ValueError(f"table {table_id}: a move of deal {move['deal']}, which is not stored")
        deal.setdefault("actions", []).append(move["action"])
        if move["picks"]:
            deal["picks"] = f"{deal.get('picks', '')} {move['picks']}".strip()
    return tuple((n, json.dumps(records[n], separators=(",", ":"))) for n in sorted(records))


def _names_text(names: Sequence[str]) -> str:
    return json.dumps(list(names), ensure_ascii=False)


def _names(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    names = json.loads(text)
    if not isinstance(names, list):
        raise TypeError("the seats' names are not a list")
    return tuple(str(n) for n in names)


def _snapshot(row: Any, seats: list[SeatSnapshot], deals: list[tuple[int, str]], moves: list[Any],
              chat: list[tuple[int, str]]) -> TableSnapshot:
    options = json.loads(row["options"])
    created = _utc(row["created_at"])
    assert created is not None
    version, ply = row["version"], row["ply"]
    # Moves newer than the row (saves that only appended to the journal) carry it on.
    newer = [m["version"] for m in moves if m["version"] > version]
    if newer:
        version, ply = max(newer), ply + len(newer)
    updated = _utc(row["updated_at"])
    changed = max([int(updated.timestamp() * 1000) if updated else 0,
                   *(m["at_ms"] for m in moves if m["at_ms"] is not None)])
    return TableSnapshot(
        id=row["id"], title=row["title"], variant=row["variant"], players=row["players"],
        options={str(k): str(v) for k, v in options.items()}, status=row["status"], listed=bool(row["listed"]),
        host=row["host"], autostart=bool(row["autostart"]), version=version, ply=ply,
        seats=tuple(seats), created=created, record=row.get("record"), winner=row["winner"],
        names=_names(row.get("names")),
        finished=_utc(row["finished_at"]), first_dealer=row["first_dealer"],
        deals=_merged_deals(row["id"], deals, moves), turn_seconds=row.get("turn_seconds") or 0,
        bank_seconds=row.get("bank_seconds") or 0, banks=row.get("banks"),
        next_id=row.get("next_id"), address=row.get("address"), joined=_utc(row.get("joined_at")),
        chat=tuple(chat), rating=row.get("rating"), changed_ms=changed, takeback=bool(row.get("takeback")),
    )
