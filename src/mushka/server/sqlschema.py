"""The SQL schema of the server's store, how a database URL becomes an engine, and the migrations.

The tables are declared here once (:class:`Base`); the Alembic migrations in
``mushka/server/migrations`` make the same schema, and :func:`upgrade` runs them,
once, under a lock (several processes starting at once on an empty database
must not race in them: PostgreSQL takes an advisory lock, SQLite a lock on a
file beside the database).  :class:`~mushka.server.sqlstore.SqlStore` is the
repository on top of it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text, create_engine, event, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.orm import DeclarativeBase, Mapped, MappedColumn, mapped_column, relationship
from sqlalchemy.pool import StaticPool

from mushka.server.store import SqliteSync
from mushka.server.texts import StorageError

log = logging.getLogger("mushka.server")

MIGRATIONS: Final = Path(__file__).resolve().parent / "migrations"
"""The Alembic migrations of the schema."""


# --- the SQL schema (mirrored by the migrations) ------------------------------------------


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


def _table_ref(**column: Any) -> MappedColumn[Any]:
    """A column holding a table's id; its rows go with the table (``ON DELETE CASCADE``)."""
    return mapped_column(String(32), ForeignKey("mushka_tables.id", ondelete="CASCADE"), **column)


def _account_ref(**column: Any) -> MappedColumn[Any]:
    """A column holding an account's id; its rows go with the account (``ON DELETE CASCADE``)."""
    return mapped_column(String(32), ForeignKey("mushka_accounts.id", ondelete="CASCADE"), **column)


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
    bank_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """P15: the time bank of every seat for the whole game, in seconds (null or 0: none)."""
    banks: Mapped[str | None] = mapped_column(Text, nullable=True)
    """P15: every seat's bank left at the last stored change (JSON list of milliseconds; null:
    every bank whole)."""
    takeback: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    """P21: the players may take back their last card although other people play (null: no)."""
    next_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The rematch's table, once made (every process then points its players there)."""
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The client address that made the table (P12: the quotas of bots-only tables per address)."""
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When a person first came to the table (null: nobody yet; after the grace time such a table
    counts as one of bots only, and ends)."""
    rating: Mapped[str | None] = mapped_column(Text, nullable=True)
    """How the ended game counts for the ratings (JSON: rated, why not, forfeits; null: stored
    before tables decided it)."""
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

    table_id: Mapped[str] = _table_ref(primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The account that took this seat while signed in (null: a guest's, or a bot's); only
    that account may play it (see :mod:`mushka.server.accounts`)."""
    table: Mapped[TableRow] = relationship(back_populates="seats")


class DealRow(Base):
    """One deal of a table's game: its record (dealer, stacked deck, picks, actions) as JSON.

    Written when the deal starts and again, with every action, when it ends;
    in between, its actions are in :class:`MoveRow`.
    """

    __tablename__ = "mushka_deals"

    table_id: Mapped[str] = _table_ref(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    table: Mapped[TableRow] = relationship(back_populates="deals")


class MoveRow(Base):
    """The journal: one row per action of a deal still being played."""

    __tablename__ = "mushka_moves"

    table_id: Mapped[str] = _table_ref(primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    picks: Mapped[str | None] = mapped_column(Text, nullable=True)
    at_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """When the action was stored (milliseconds since 1970, UTC): a turn timer resumed elsewhere
    counts from it."""
    table: Mapped[TableRow] = relationship(back_populates="moves")


class LeaseRow(Base):
    """Who owns a table now: one process (a *node* instance) at a time, for a limited time.

    Every commit of a table's changes is fenced by its row (owner and epoch must still be
    the committer's), and renews it; a process that took over a table raised the epoch, so
    the one it took it from can no longer write (see :mod:`mushka.server.sqlstore`)."""

    __tablename__ = "mushka_leases"

    table_id: Mapped[str] = _table_ref(primary_key=True)
    owner: Mapped[str] = mapped_column(String(32), index=True)
    """The instance id of the owning process ('' when released)."""
    epoch: Mapped[int] = mapped_column(Integer)
    """Raised by one at every change of owner."""
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    """Until when the owner holds it unless renewed (milliseconds since 1970, UTC)."""


class NodeRow(Base):
    """One running server process on this database (a row per start, removed at a clean stop)."""

    __tablename__ = "mushka_nodes"

    instance: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Random, new at every start: a restarted process never mistakes its old leases for its own."""
    name: Mapped[str] = mapped_column(String(64), index=True)
    """The node's name (``--node``): the proxy routes ``?node=NAME`` to it."""
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    port: Mapped[int | None] = mapped_column(Integer, nullable=True)
    started_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    """The last renewal of its leases: a node not seen for a lease time is taken for dead."""


class ChatRow(Base):
    """P16: the recent chat of a table, so that a table taken over elsewhere keeps it."""

    __tablename__ = "mushka_chat"

    table_id: Mapped[str] = _table_ref(primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    """The line as JSON (channel, seat, names, phrase or text, time)."""


class QueueRow(Base):
    """A person waiting for a quick match (issue of the lobby's *Quick match*), or just seated.

    Kept in the store, so that people who asked different processes are seated together;
    a row is removed once its person has been told where to sit (or soon after)."""

    __tablename__ = "mushka_queue"

    ticket: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Random: only the person who asked knows it (it leads to his seat's token)."""
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(32))
    """The bots' level this person chose for the seats no person takes."""
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lang: Mapped[str] = mapped_column(String(8))
    address: Mapped[str] = mapped_column(String(64))
    created_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    group_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """Set when a process took this person into a table being made."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    url: Mapped[str | None] = mapped_column(String(160), nullable=True)
    """The seat's address with its token, until the person picks it up (then the row goes)."""
    node: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The process that owns the table made for him."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The account he asked as, signed in (his seat is then the account's, P18)."""


class AccountRow(Base):
    """A player's account: the name he claimed (see :mod:`mushka.server.accounts`).

    No e-mail, no real name: the name shown at tables is all it holds of the person."""

    __tablename__ = "mushka_accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Random, never shown in place of the name; other tables refer to the account by it."""
    name: Mapped[str] = mapped_column(String(64))
    """The name as the player wrote it (cleaned), as tables show it."""
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The name case-folded with its whitespace made single spaces: two names that differ
    only so are the same name (one account each)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PasswordRow(Base):
    """The argon2id hash of an account's password (at most one; none for a passkey-only one)."""

    __tablename__ = "mushka_passwords"

    account_id: Mapped[str] = _account_ref(primary_key=True)
    hash: Mapped[str] = mapped_column(String(255))
    """argon2's own encoded form: the parameters it was made with travel with it."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its public key, never a secret."""

    __tablename__ = "mushka_passkeys"

    credential_id: Mapped[str] = mapped_column(String(255), primary_key=True)
    """The credential's id, base64url."""
    account_id: Mapped[str] = _account_ref(index=True)
    public_key: Mapped[str] = mapped_column(Text)
    """The COSE public key, base64url."""
    sign_count: Mapped[int] = mapped_column(BigInteger)
    """The authenticator's counter at the last sign-in (a clone shows an older one)."""
    transports: Mapped[str | None] = mapped_column(String(128), nullable=True)
    """How the browser may reach the authenticator (comma-separated), to ask for it again."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A signed-in browser: the session cookie's hash (the cookie itself is never stored)."""

    __tablename__ = "mushka_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the cookie's random value."""
    account_id: Mapped[str] = _account_ref(index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    """The token every state-changing request of this session must carry (``X-CSRF-Token``)."""
    created_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    """When its expiry was last pushed back (sliding renewal, at most once a while)."""
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class ChallengeRow(Base):
    """A WebAuthn challenge handed out and not yet answered (one use, short-lived): kept in the
    store so that the answer may reach any process."""

    __tablename__ = "mushka_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The challenge itself, base64url (random; the answer names it)."""
    purpose: Mapped[str] = mapped_column(String(16))
    """``register`` (a passkey for an account, new or signed in) or ``signin``."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The account a passkey is added to (registration while signed in)."""
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The name a new account claims with a passkey."""
    user_handle: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The WebAuthn user id the passkey is being made for (the account id to be)."""
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class SignInLimitRow(Base):
    """Failed sign-ins counted per account name and per address, shared by every process."""

    __tablename__ = "mushka_signin_limits"

    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    """``name:NAME_KEY`` or ``addr:ADDRESS``."""
    failures: Mapped[int] = mapped_column(Integer)
    window_ms: Mapped[int] = mapped_column(BigInteger)
    """When the current counting window began."""
    blocked_until_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class FriendRow(Base):
    """A friendship between two accounts, asked for by one (see :mod:`mushka.server.friends`).

    One row per pair, in the direction it was asked: ``pending`` until the other accepts
    (then ``accepted``); a declined or removed friendship is deleted."""

    __tablename__ = "mushka_friends"

    from_id: Mapped[str] = _account_ref(primary_key=True)
    to_id: Mapped[str] = _account_ref(primary_key=True, index=True)
    status: Mapped[str] = mapped_column(String(16))
    """``pending`` or ``accepted``."""
    created_ms: Mapped[int] = mapped_column(BigInteger)


class FriendCodeRow(Base):
    """The code of an account's friend link (``/?friend=CODE``): whoever opens it, signed in,
    becomes its owner's friend.  A new code replaces the old one (the old link stops working)."""

    __tablename__ = "mushka_friend_codes"

    account_id: Mapped[str] = _account_ref(primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class HideRow(Base):
    """One account mutes or blocks another (see :mod:`mushka.server.abuse`): a muted player's
    chat lines are not sent to the owner at any table; a blocked one's neither, and he can
    no longer ask the owner to be friends or invite him."""

    __tablename__ = "mushka_hides"

    owner_id: Mapped[str] = _account_ref(primary_key=True)
    target_id: Mapped[str] = _account_ref(primary_key=True, index=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``mute`` or ``block``."""
    created_ms: Mapped[int] = mapped_column(BigInteger)


class ReportRow(Base):
    """A chat line somebody reported, kept for the operator (``mushka reports``)."""

    __tablename__ = "mushka_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    """Not a foreign key: a report outlives the table's rows."""
    line_at: Mapped[str] = mapped_column(String(40))
    """When the line was said (ISO 8601, as the chat sent it)."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    speaker: Mapped[str] = mapped_column(String(64))
    """The name the line was said under."""
    speaker_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The speaker's account, if he was signed in."""
    text: Mapped[str] = mapped_column(Text)
    reporter_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reporter_address: Mapped[str] = mapped_column(String(64))
    created_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class PresenceRow(Base):
    """An account seen by one process: at a table (``table_id``), or on a page with no table
    (``''``); refreshed while its connection or its page is open.  Online: seen lately."""

    __tablename__ = "mushka_presence"

    account_id: Mapped[str] = _account_ref(primary_key=True)
    node: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class NoticeRow(Base):
    """Something to tell an account the next time its page asks: an invitation to a table, a
    friend request, an accepted one."""

    __tablename__ = "mushka_notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    to_id: Mapped[str] = _account_ref(index=True)
    from_id: Mapped[str] = _account_ref()
    kind: Mapped[str] = mapped_column(String(16))
    """``invite``, ``friend_request`` or ``friend_accepted``."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    seen: Mapped[bool] = mapped_column(Boolean)


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


MIGRATION_LOCK: Final = 0x6D75_7368_6B61
"""The PostgreSQL advisory lock the migrations run under (``mushka`` in ASCII)."""


def upgrade(engine: Engine) -> None:
    """Bring the database's schema up to the newest migration (creating it if empty), under a
    lock: when several processes start at once, one migrates and the others find it done."""
    with _migration_lock(engine):
        command.upgrade(alembic_config(engine), "head")


@contextlib.contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    try:
        import fcntl
    except ImportError:  # not a POSIX system: SQLite's own locking must do
        yield
        return
    with open(f"{database}.migrate-lock", "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


# --- the SQL repository ------------------------------------------------------------------------


WAL_LIMIT: Final = 16 * 1024 * 1024
"""Bytes the SQLite write-ahead log is cut back to after a checkpoint (``journal_size_limit``);
past twice as much, :meth:`~mushka.server.sqlstore.SqlStore.checkpoint` truncates it."""

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
                cursor.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
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
        # A session left idle inside a transaction (its process stopped, say) is ended by the
        # database, so that its row locks never hold a failover up for long.
        connect: dict[str, Any] = {}
        if parsed.get_backend_name() == "postgresql":
            connect["options"] = "-c idle_in_transaction_session_timeout=10000 -c lock_timeout=10000"
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect)
    except NoSuchModuleError:
        raise StorageError("unknown_database", scheme=parsed.drivername) from None
    except ImportError as exc:
        module = exc.name or parsed.get_driver_name()
        if parsed.get_backend_name() == "postgresql" and module == POSTGRES_DRIVER:
            raise StorageError("no_postgres_driver") from None
        raise StorageError("no_driver", module=module, scheme=parsed.drivername) from None


