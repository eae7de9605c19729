"""Persistence: tables and their games, behind a small repository interface.

The game never saves itself (STYLE 13): the table hands a frozen
:class:`TableSnapshot` to a :class:`TableStore` after every stored change.
The snapshot holds what rebuilds the table exactly: its rules (every option,
as text), seats, the first dealer and, one row per deal, each deal's stacked
deck, chance picks and actions: the game record, which
:func:`mushka.records.replay` turns back into the same game.  A save writes
only the deals that changed (the current one, and any that ended since the
last save), so a long partie costs no more per action than a short one; the
whole record is written once more, with the result, when the game ends.

:class:`SqlStore` keeps them with SQLAlchemy in SQLite (default) or
PostgreSQL.  The schema is made by the Alembic migrations in
``mushka/server/migrations``, run by :func:`upgrade` at startup, so a fresh
database is created and an old one brought up to date the same way.  The
SQL is portable: plain types, JSON kept as text.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, selectinload, sessionmaker
from sqlalchemy.pool import StaticPool

log = logging.getLogger("mushka.server")

MIGRATIONS: Final = Path(__file__).resolve().parent / "migrations"


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
    """Everything stored about one table."""

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
    """(number from 1, the deal's record as JSON text): every deal when loaded; the
    changed ones when saved."""


class TableStore(Protocol):
    """What the server needs of a storage: the repository interface."""

    def create(self, table: TableSnapshot) -> None:
        """Store a new table."""
        ...

    def save(self, table: TableSnapshot, *, seats: bool = True) -> None:
        """Store a table's new state (its seats too unless ``seats`` is false)."""
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

    def ping(self) -> bool:
        """Whether the storage answers."""
        ...

    def close(self) -> None:
        """Release the connections."""
        ...


# --- the SQL schema (mirrored by the migrations) ------------------------------------------


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class TableRow(Base):
    """A table: rules, status, version and the game record so far."""

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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="SeatRow.seat", lazy="select",
    )
    deals: Mapped[list[DealRow]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="DealRow.number", lazy="select",
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
    """One deal of a table's game: its record (dealer, stacked deck, picks, actions) as JSON."""

    __tablename__ = "mushka_deals"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("mushka_tables.id", ondelete="CASCADE"), primary_key=True,
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    table: Mapped[TableRow] = relationship(back_populates="deals")


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


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets a busy timeout and WAL so that readers never block."""
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30},
            poolclass=StaticPool if memory else None,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class SqlStore:
    """A :class:`TableStore` on SQLAlchemy; methods are synchronous (the server
    calls them from a worker thread)."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        """Connect to ``url`` and, unless ``migrate`` is false, run the migrations."""
        self.url = url
        self.engine = make_engine(url)
        if migrate:
            upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def create(self, table: TableSnapshot) -> None:
        """Store a new table."""
        with self._sessions.begin() as session:
            session.add(_row(table, TableRow(id=table.id)))

    def save(self, table: TableSnapshot, *, seats: bool = True) -> None:
        """Store a table's new state."""
        with self._sessions.begin() as session:
            row = session.get(TableRow, table.id)
            if row is None:
                session.add(_row(table, TableRow(id=table.id)))
                return
            _fill(table, row)
            if seats:
                _update_seats(table, row)
            if table.deals:
                numbers = [n for n, _ in table.deals]
                stored = {d.number: d for d in session.scalars(
                    select(DealRow).where(DealRow.table_id == table.id, DealRow.number.in_(numbers)))}
                for number, data in table.deals:
                    found = stored.get(number)
                    if found is None:
                        session.add(DealRow(table_id=table.id, number=number, data=data))
                    else:
                        found.data = data

    def load(self, table_id: str) -> TableSnapshot | None:
        """One table, or ``None``."""
        with self._sessions() as session:
            row = session.get(TableRow, table_id,
                              options=[selectinload(TableRow.seats), selectinload(TableRow.deals)])
            return None if row is None else _snapshot(row, with_deals=True)

    def load_active(self) -> list[TableSnapshot]:
        """Every table that waits or plays."""
        with self._sessions() as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.status.in_(("waiting", "playing")))
                .order_by(TableRow.created_at)
                .options(selectinload(TableRow.seats), selectinload(TableRow.deals))
            ).all()
            return [_snapshot(r, with_deals=True) for r in rows]

    def finished(self, limit: int, offset: int) -> list[TableSnapshot]:
        """Finished games, newest first."""
        with self._sessions() as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.status == "over")
                .order_by(TableRow.finished_at.desc(), TableRow.id).limit(limit).offset(offset)
                .options(selectinload(TableRow.seats))
            ).all()
            return [_snapshot(r) for r in rows]

    def ping(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception:  # any driver error means "not answering"
            log.exception("database ping failed")
            return False
        return True

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()


def _row(table: TableSnapshot, row: TableRow) -> TableRow:
    _fill(table, row)
    row.seats = _seat_rows(table)
    row.deals = [DealRow(table_id=table.id, number=n, data=d) for n, d in table.deals]
    return row


def _fill(table: TableSnapshot, row: TableRow) -> None:
    row.title = table.title
    row.variant = table.variant
    row.players = table.players
    row.options = json.dumps(table.options, sort_keys=True)
    row.status = table.status
    row.listed = table.listed
    row.host = table.host
    row.autostart = table.autostart
    row.version = table.version
    row.ply = table.ply
    row.record = table.record
    row.winner = table.winner
    row.created_at = table.created
    row.updated_at = datetime.now(UTC)
    row.finished_at = table.finished
    row.first_dealer = table.first_dealer


def _seat_rows(table: TableSnapshot) -> list[SeatRow]:
    return [SeatRow(table_id=table.id, seat=s.seat, kind=s.kind, name=s.name, bot=s.bot,
                    token_hash=s.token_hash) for s in table.seats]


def _update_seats(table: TableSnapshot, row: TableRow) -> None:
    # Updating the rows in place keeps this free of dialect-specific upserts.
    stored = {r.seat: r for r in row.seats}
    for s in table.seats:
        r = stored.pop(s.seat, None)
        if r is None:
            row.seats.append(SeatRow(table_id=table.id, seat=s.seat, kind=s.kind, name=s.name,
                                     bot=s.bot, token_hash=s.token_hash))
        else:
            r.kind, r.name, r.bot, r.token_hash = s.kind, s.name, s.bot, s.token_hash
    for r in stored.values():
        row.seats.remove(r)


def _utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; every stored time is UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _snapshot(row: TableRow, *, with_deals: bool = False) -> TableSnapshot:
    options = json.loads(row.options)
    created = _utc(row.created_at)
    assert created is not None
    seats: Sequence[SeatRow] = row.seats
    return TableSnapshot(
        id=row.id, title=row.title, variant=row.variant, players=row.players,
        options={str(k): str(v) for k, v in options.items()}, status=row.status, listed=row.listed,
        host=row.host, autostart=row.autostart, version=row.version, ply=row.ply,
        seats=tuple(SeatSnapshot(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in seats),
        created=created, record=row.record, winner=row.winner, finished=_utc(row.finished_at),
        first_dealer=row.first_dealer,
        deals=tuple((d.number, d.data) for d in row.deals) if with_deals else (),
    )
