"""The SQL repository of the server: :class:`SqlStore`, its schema and its migrations.

It implements :class:`~mushka.server.store.TableStore` (what is stored, and
why, is described there) with SQLAlchemy in SQLite (default, in WAL mode) or
PostgreSQL (through psycopg 3, the ``postgres`` extra; see
:func:`engine_url`).  The schema is made by the Alembic migrations in
``mushka/server/migrations``, run by :func:`upgrade` at startup, so a fresh
database is created and an old one brought up to date the same way.  The
SQL is portable: plain types, JSON kept as text, no dialect-specific upserts.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.pool import StaticPool

from mushka.server.store import BROKEN, Save, SeatSnapshot, SqliteSync, TableSnapshot
from mushka.server.texts import StorageError

log = logging.getLogger("mushka.server")

MIGRATIONS: Final = Path(__file__).resolve().parent / "migrations"
"""The Alembic migrations of the schema."""


# --- the SQL schema (mirrored by the migrations) ------------------------------------------


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class TableRow(Base):
    """A table: rules, status, version and the game record once over."""

    __tablename__ = "mushka_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str | None] = mapped_column(String(64), nullable=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    listed: Mapped[bool] = mapped_column(Boolean)
    host: Mapped[int | None] = mapped_column(Integer, nullable=True)
    autostart: Mapped[bool] = mapped_column(Boolean)
    version: Mapped[int] = mapped_column(Integer)
    ply: Mapped[int] = mapped_column(Integer)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    names: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The seats' names of a finished game (JSON list), for listings that must not read the record."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """P15: seconds per move (null or 0: no turn timer)."""
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="SeatRow.seat", lazy="select",
    )
    deals: Mapped[list[DealRow]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="DealRow.number", lazy="select",
    )
    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="MoveRow.version", lazy="select",
    )


class SeatRow(Base):
    """A seat of a table."""

    __tablename__ = "mushka_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("mushka_tables.id", ondelete="CASCADE"), primary_key=True,
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    table: Mapped[TableRow] = relationship(back_populates="seats")


class DealRow(Base):
    """One deal of a table's game: its record (dealer, stacked deck, picks, actions) as JSON.

    Written when the deal starts and again, with every action, when it ends;
    in between, its actions are in :class:`MoveRow`.
    """

    __tablename__ = "mushka_deals"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("mushka_tables.id", ondelete="CASCADE"), primary_key=True,
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    table: Mapped[TableRow] = relationship(back_populates="deals")


class MoveRow(Base):
    """The journal: one row per action of a deal still being played."""

    __tablename__ = "mushka_moves"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("mushka_tables.id", ondelete="CASCADE"), primary_key=True,
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    picks: Mapped[str | None] = mapped_column(Text, nullable=True)
    table: Mapped[TableRow] = relationship(back_populates="moves")


# --- database URLs --------------------------------------------------------------------------


POSTGRES_DRIVER: Final = "psycopg"
"""The PostgreSQL driver the server is tested with (psycopg 3, the ``postgres`` extra)."""


def engine_url(url: str) -> URL:
    """``url`` parsed, with a PostgreSQL URL that names no driver bound to psycopg 3.

    ``postgresql://`` (and ``postgres://``, as many hosting services write it)
    become ``postgresql+psycopg://``: which driver a bare ``postgresql://``
    means is SQLAlchemy's choice and has changed between its versions, so the
    server names the one it is tested with.  A URL that names its driver
    (``postgresql+psycopg2://``) is left as it is.
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StorageError("bad_url", url=url) from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername=f"postgresql+{POSTGRES_DRIVER}")
    return parsed


def shown_url(url: str) -> str:
    """``url`` as it may be printed and logged: its password, if any, is masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


# --- migrations -----------------------------------------------------------------------------


def alembic_config(engine: Engine | None = None, url: str | None = None) -> Config:
    """An Alembic configuration pointing at the package's migrations."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the database's schema up to the newest migration (creating it if empty)."""
    command.upgrade(alembic_config(engine), "head")


# --- the SQL repository ------------------------------------------------------------------------


BUSY_TIMEOUT: Final = 0.5
"""Seconds a SQLite statement waits for a lock held by somebody else before it fails (the
writer then tries again, and a table whose change cannot be stored waits, saying so):
short, so that a lock held for long stops nothing but the tables that must write."""


def make_engine(url: str, sync: SqliteSync = "normal", *, own_checkpoints: bool = False,
                busy_timeout: float = BUSY_TIMEOUT) -> Engine:
    """An engine for ``url``; SQLite gets a busy timeout and WAL so that readers never block
    the writer, with ``synchronous`` as ``sync`` says.  With ``own_checkpoints`` no commit
    checkpoints the WAL by itself: :meth:`SqlStore.checkpoint` does, when called.

    Raises :class:`StorageError` when ``url`` cannot be used at all (see :func:`engine_url`)."""
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": busy_timeout},
            poolclass=StaticPool if memory else None,
        )
        level = "FULL" if sync == "full" else "NORMAL"

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                if own_checkpoints:
                    cursor.execute("PRAGMA wal_autocheckpoint=0")
            # In WAL mode NORMAL syncs at checkpoints only: a commit survives a crash of
            # this process (the WAL is in the OS's hands), not necessarily of the machine.
            cursor.execute(f"PRAGMA synchronous={level}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    parsed = engine_url(url)
    try:
        # The pool checks a connection before handing it out: the database may have
        # restarted, or closed an idle connection, since it was last used.
        return create_engine(parsed, pool_pre_ping=True)
    except NoSuchModuleError:
        raise StorageError("unknown_database", scheme=parsed.drivername) from None
    except ImportError as exc:
        module = exc.name or parsed.get_driver_name()
        if parsed.get_backend_name() == "postgresql" and module == POSTGRES_DRIVER:
            raise StorageError("no_postgres_driver") from None
        raise StorageError("no_driver", module=module, scheme=parsed.drivername) from None


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
            token_hash=bindparam("s_hash"))
)
_DROP_DEAL = delete(_DEALS).where(and_(_DEALS.c.table_id == bindparam("t_id"),
                                       _DEALS.c.number == bindparam("d_number")))
_DROP_DEAL_MOVES = delete(_MOVES).where(and_(_MOVES.c.table_id == bindparam("t_id"),
                                             _MOVES.c.deal == bindparam("d_number")))
_DROP_ALL_MOVES = delete(_MOVES).where(_MOVES.c.table_id == bindparam("t_id"))


class SqlStore:
    """A :class:`TableStore` on SQLAlchemy; methods are synchronous (the server
    calls them from worker threads, and :meth:`commit` from its one writer thread)."""

    def __init__(self, url: str, *, migrate: bool = True, sync: SqliteSync = "normal",
                 busy_timeout: float = BUSY_TIMEOUT, inline: bool = False) -> None:
        """Connect to ``url`` and, unless ``migrate`` is false, run the migrations.

        ``inline`` lets the writer commit on the event loop when commits are quick (SQLite,
        ``synchronous=NORMAL``); by default every commit runs in the writer's thread, so that
        a lock, a slow disk or a full one never stops the loop."""
        self.url = url
        self._sqlite = url.startswith("sqlite")
        self._quick = self._sqlite and sync == "normal"
        self._inline = inline
        self.quarantined: list[tuple[str, str]] = []
        """(table id, what was wrong) of every row set aside since this store was opened."""
        # The checkpoints, which flush to disk, are the writer's (in its thread).
        self.engine = make_engine(url, sync, own_checkpoints=self._quick, busy_timeout=busy_timeout)
        if migrate:
            upgrade(self.engine)
        self._writing: Connection | None = None
        """The connection :meth:`commit` keeps (one writer: no pool round trip per commit)."""

    @property
    def quick_commits(self) -> bool:
        """SQLite in WAL mode with ``synchronous=NORMAL``: a commit writes to the OS, no flush,
        a fraction of a millisecond; every other database is across a network or flushes."""
        return self._quick and self._inline

    def create(self, table: TableSnapshot) -> None:
        """Store a new table (with plain inserts: ORM objects would leave reference cycles behind,
        which only a full garbage collection frees)."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(insert(_TABLES).values(
                id=table.id, title=table.title, variant=table.variant, players=table.players,
                options=json.dumps(table.options, sort_keys=True), status=table.status, listed=table.listed,
                host=table.host, autostart=table.autostart, version=table.version, ply=table.ply,
                record=table.record, winner=table.winner, names=_names_text(table.names) if table.record else None,
                created_at=table.created, updated_at=now,
                finished_at=table.finished, first_dealer=table.first_dealer, turn_seconds=table.turn_seconds))
            conn.execute(insert(_SEATS), [
                {"table_id": table.id, "seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
                 "token_hash": s.token_hash} for s in table.seats])
            if table.deals:
                conn.execute(insert(_DEALS), [{"table_id": table.id, "number": n, "data": d}
                                              for n, d in table.deals])

    def commit(self, saves: Sequence[Save]) -> None:
        """Store many tables' changes in one transaction (see :class:`Save`)."""
        if not saves:
            return
        conn = self._writing
        if conn is None or conn.closed:
            conn = self._writing = self.engine.connect()
        try:
            with conn.begin():
                _commit(conn, saves)
        except Exception:
            # The connection may be broken (a database restart): the next try opens a new one.
            self._writing = None
            with contextlib.suppress(Exception):
                conn.close()
            raise

    def load(self, table_id: str) -> TableSnapshot | None:
        """One table, or ``None`` (also when its rows are damaged: it is then quarantined)."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, _TABLES.c.id == table_id, with_deals=True)
        self._set_aside(broken)
        return found[0] if found else None

    def load_active(self) -> list[TableSnapshot]:
        """Every table that waits or plays (those whose rows are damaged are quarantined)."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, _TABLES.c.status.in_(("waiting", "playing")), with_deals=True)
        self._set_aside(broken)
        return found

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
        """Finished games, newest first, without their records (``names`` holds the seats)."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, _TABLES.c.status == "over", with_deals=False, newest=True, limit=limit,
                                  offset=offset, summary=True)
        self._set_aside(broken)
        return found

    def finished_records(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games with their records, oldest first (the ratings are rebuilt from them)."""
        with self.engine.connect() as conn:
            found, broken = _load(conn, _TABLES.c.status == "over", with_deals=False, oldest=True, limit=limit,
                                  offset=offset)
        self._set_aside(broken)
        return found

    def checkpoint(self) -> None:
        """SQLite: copy what the WAL holds into the database file, without waiting for anybody
        (the writer calls this now and then, away from the event loop); elsewhere nothing."""
        if self._quick:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

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
        """Release the connections."""
        if self._writing is not None:
            with contextlib.suppress(Exception):
                self._writing.close()
            self._writing = None
        self.engine.dispose()


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
    for save in saves:
        tid = save.table_id
        if not save.moves_only:
            latest[tid] = save  # versions only grow: the last such save holds the newest fields
        for s in save.seats:
            seats[tid, s.seat] = s
        if save.full:
            # Every deal is rewritten below, so every journal row so far is dropped first.
            moves = [m for m in moves if m["table_id"] != tid]
            cleared.append({"t_id": tid})
        moves.extend({"table_id": tid, "version": m.version, "deal": m.deal, "action": m.action,
                      "picks": m.picks or None} for m in save.moves)
        for number, data in save.deals:
            deals[tid, number] = data
        settled.extend({"t_id": tid, "d_number": n} for n in save.settled)
        if save.record is not None:
            finished.append({"t_id": tid, "t_record": save.record, "t_winner": save.winner,
                             "t_names": _names_text(save.names),
                             "t_finished": save.finished})
    if latest:
        conn.execute(_UPDATE_TABLE, [
            {"t_id": s.table_id, "t_status": s.status, "t_version": s.version, "t_ply": s.ply,
             "t_first_dealer": s.first_dealer, "t_updated": now} for s in latest.values()])
    if finished:
        conn.execute(_FINISH_TABLE, finished)
    if seats:
        conn.execute(_UPDATE_SEAT, [
            {"t_id": tid, "s_seat": s.seat, "s_kind": s.kind, "s_name": s.name, "s_bot": s.bot,
             "s_hash": s.token_hash} for (tid, _), s in seats.items()])
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


_MOVE_COLUMNS: Final = ("table_id", "version", "deal", "action", "picks")
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
          offset: int = 0, summary: bool = False,
          oldest: bool = False) -> tuple[list[TableSnapshot], list[tuple[str, str]]]:
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
    else:
        query = query.order_by(_TABLES.c.created_at)
    rows = conn.execute(query).mappings().all()
    if not rows:
        return [], []
    ids = [r["id"] for r in rows]
    seats: dict[str, list[SeatSnapshot]] = {i: [] for i in ids}
    for s in conn.execute(select(_SEATS).where(_SEATS.c.table_id.in_(ids)).order_by(_SEATS.c.seat)).mappings():
        seats[s["table_id"]].append(SeatSnapshot(s["seat"], s["kind"], s["name"], s["bot"], s["token_hash"]))
    deals: dict[str, list[tuple[int, str]]] = {i: [] for i in ids}
    moves: dict[str, list[Any]] = {i: [] for i in ids}
    if with_deals:
        for d in conn.execute(select(_DEALS).where(_DEALS.c.table_id.in_(ids)).order_by(_DEALS.c.number)).mappings():
            deals[d["table_id"]].append((d["number"], d["data"]))
        for m in conn.execute(select(_MOVES).where(_MOVES.c.table_id.in_(ids)).order_by(_MOVES.c.version)).mappings():
            moves[m["table_id"]].append(m)
    found: list[TableSnapshot] = []
    broken: list[tuple[str, str]] = []
    for r in rows:
        try:
            found.append(_snapshot(r, seats[r["id"]], deals[r["id"]], moves[r["id"]]))
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


def _snapshot(row: Any, seats: list[SeatSnapshot], deals: list[tuple[int, str]], moves: list[Any]) -> TableSnapshot:
    options = json.loads(row["options"])
    created = _utc(row["created_at"])
    assert created is not None
    version, ply = row["version"], row["ply"]
    # Moves newer than the row (saves that only appended to the journal) carry it on.
    newer = [m["version"] for m in moves if m["version"] > version]
    if newer:
        version, ply = max(newer), ply + len(newer)
    return TableSnapshot(
        id=row["id"], title=row["title"], variant=row["variant"], players=row["players"],
        options={str(k): str(v) for k, v in options.items()}, status=row["status"], listed=bool(row["listed"]),
        host=row["host"], autostart=bool(row["autostart"]), version=version, ply=ply,
        seats=tuple(seats), created=created, record=row.get("record"), winner=row["winner"],
        names=_names(row.get("names")),
        finished=_utc(row["finished_at"]), first_dealer=row["first_dealer"],
        deals=_merged_deals(row["id"], deals, moves), turn_seconds=row.get("turn_seconds") or 0,
    )
