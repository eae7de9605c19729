"""Accounts in SQL: claimed names, password hashes, passkeys, sessions, passkey challenges and
the sign-in limits, in the store every process of a server shares.

Nothing here lives in one process's memory: a session made by one process is read by
every other, a passkey challenge handed out by one may be answered to another, and the
failed sign-ins of a name are counted alike wherever they were tried.  The rules about
them (what a name may be, when a session ends, how many tries are allowed) are in
:mod:`mushka.server.accounts`; this module only stores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from mushka.server.identity import Account
from mushka.server.sqlschema import Base

_ACCOUNTS = Base.metadata.tables["mushka_accounts"]
_PASSWORDS = Base.metadata.tables["mushka_passwords"]
_PASSKEYS = Base.metadata.tables["mushka_passkeys"]
_SESSIONS = Base.metadata.tables["mushka_sessions"]
_CHALLENGES = Base.metadata.tables["mushka_challenges"]
_LIMITS = Base.metadata.tables["mushka_signin_limits"]
_SEATS = Base.metadata.tables["mushka_seats"]
_TABLES = Base.metadata.tables["mushka_tables"]


class NameTaken(Exception):
    """Another account holds this name (its key) already."""


@dataclass(frozen=True, slots=True)
class Passkey:
    """A stored passkey: what verifying a sign-in with it needs."""

    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    transports: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A live session as stored: its account, CSRF token and times (milliseconds since 1970)."""

    account: Account
    csrf: str
    created_ms: int
    seen_ms: int
    expires_ms: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """A passkey challenge handed out (taken back once, when it is answered)."""

    id: str
    purpose: str
    account_id: str | None
    name: str | None
    user_handle: str | None
    expires_ms: int


def _passkey(r: Any) -> Passkey:
    return Passkey(credential_id=r["credential_id"], account_id=r["account_id"], public_key=r["public_key"],
                   sign_count=int(r["sign_count"]),
                   transports=tuple(t for t in (r["transports"] or "").split(",") if t))


class AccountBook:
    """The accounts on ``engine``'s database.  Every method is synchronous and short: the
    server calls the reads from a worker thread and the writes where its writer commits."""

    def __init__(self, engine: Engine) -> None:
        """The accounts of the database behind ``engine``."""
        self.engine = engine

    # --- accounts ------------------------------------------------------------------------------

    def create(self, account: Account, name_key: str, created: datetime, *, password_hash: str | None = None,
               passkey: Passkey | None = None) -> None:
        """A new account with its first credential; :class:`NameTaken` if the name is held."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(_ACCOUNTS).values(id=account.id, name=account.name, name_key=name_key,
                                                      created_at=created))
                if password_hash is not None:
                    conn.execute(insert(_PASSWORDS).values(account_id=account.id, hash=password_hash,
                                                           updated_at=created))
                if passkey is not None:
                    _insert_passkey(conn, passkey, created)
        except IntegrityError:
            raise NameTaken(name_key) from None

    def by_key(self, name_key: str) -> tuple[Account, str | None] | None:
        """The account holding a name (by its key) and its password hash, if it has one."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_ACCOUNTS.c.id, _ACCOUNTS.c.name, _PASSWORDS.c.hash)
                .select_from(_ACCOUNTS.outerjoin(_PASSWORDS, _PASSWORDS.c.account_id == _ACCOUNTS.c.id))
                .where(_ACCOUNTS.c.name_key == name_key)).first()
        if row is None:
            return None
        return Account(id=row.id, name=row.name), row.hash

    def get(self, account_id: str) -> Account | None:
        """An account by its id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_ACCOUNTS.c.id, _ACCOUNTS.c.name).where(_ACCOUNTS.c.id == account_id)).first()
        return None if row is None else Account(id=row.id, name=row.name)

    def credentials(self, account_id: str) -> tuple[bool, int]:
        """Whether the account has a password, and how many passkeys."""
        with self.engine.connect() as conn:
            password = conn.execute(select(func.count()).select_from(_PASSWORDS)
                                    .where(_PASSWORDS.c.account_id == account_id)).scalar_one()
            keys = conn.execute(select(func.count()).select_from(_PASSKEYS)
                                .where(_PASSKEYS.c.account_id == account_id)).scalar_one()
        return bool(password), int(keys)

    def set_password(self, account_id: str, password_hash: str, at: datetime) -> None:
        """Give the account a password, or a new hash of it (argon2's parameters changed)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(_PASSWORDS).where(_PASSWORDS.c.account_id == account_id)
                                .values(hash=password_hash, updated_at=at))
            if not done.rowcount:
                conn.execute(insert(_PASSWORDS).values(account_id=account_id, hash=password_hash, updated_at=at))

    def delete(self, account_id: str, replacement: str) -> int:
        """Remove an account and everything personal of it: its credentials, sessions and name.
        The seats it took are released from it; in the games it played its name becomes
        ``replacement`` (seats, listings and records); the number of games so renamed."""
        with self.engine.begin() as conn:
            seats = conn.execute(select(_SEATS.c.table_id, _SEATS.c.seat)
                                 .where(_SEATS.c.account_id == account_id)).all()
            by_table: dict[str, list[int]] = {}
            for table_id, seat in seats:
                by_table.setdefault(table_id, []).append(int(seat))
            for table_id, numbers in by_table.items():
                row = conn.execute(select(_TABLES.c.names, _TABLES.c.record)
                                   .where(_TABLES.c.id == table_id)).first()
                if row is not None:
                    conn.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(
                        names=_renamed_list(row.names, numbers, replacement),
                        record=_renamed_record(row.record, numbers, replacement)))
            conn.execute(update(_SEATS).where(_SEATS.c.account_id == account_id)
                         .values(name=replacement, account_id=None))
            conn.execute(delete(_CHALLENGES).where(_CHALLENGES.c.account_id == account_id))
            conn.execute(delete(_SESSIONS).where(_SESSIONS.c.account_id == account_id))
            conn.execute(delete(_PASSKEYS).where(_PASSKEYS.c.account_id == account_id))
            conn.execute(delete(_PASSWORDS).where(_PASSWORDS.c.account_id == account_id))
            conn.execute(delete(_ACCOUNTS).where(_ACCOUNTS.c.id == account_id))
        return len(by_table)

    # --- passkeys ------------------------------------------------------------------------------

    def add_passkey(self, passkey: Passkey, at: datetime) -> None:
        """Store one more passkey of an account."""
        with self.engine.begin() as conn:
            _insert_passkey(conn, passkey, at)

    def passkey(self, credential_id: str) -> Passkey | None:
        """A passkey by its credential id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_PASSKEYS).where(_PASSKEYS.c.credential_id == credential_id)).mappings().first()
        return None if row is None else _passkey(row)

    def passkeys(self, account_id: str) -> list[Passkey]:
        """An account's passkeys."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_PASSKEYS).where(_PASSKEYS.c.account_id == account_id)).mappings().all()
        return [_passkey(r) for r in rows]

    def passkey_used(self, credential_id: str, sign_count: int, at: datetime) -> None:
        """A sign-in with this passkey succeeded: remember its counter."""
        with self.engine.begin() as conn:
            conn.execute(update(_PASSKEYS).where(_PASSKEYS.c.credential_id == credential_id)
                         .values(sign_count=sign_count, used_at=at))

    # --- sessions ------------------------------------------------------------------------------

    def open_session(self, id_hash: str, account_id: str, csrf: str, now_ms: int, expires_ms: int) -> None:
        """Store a new session (the cookie's hash)."""
        with self.engine.begin() as conn:
            conn.execute(insert(_SESSIONS).values(id_hash=id_hash, account_id=account_id, csrf=csrf,
                                                  created_ms=now_ms, seen_ms=now_ms, expires_ms=expires_ms))

    def session(self, id_hash: str, now_ms: int) -> SessionInfo | None:
        """The live session of a cookie's hash, with its account (None: unknown or expired)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_SESSIONS.c.csrf, _SESSIONS.c.created_ms, _SESSIONS.c.seen_ms, _SESSIONS.c.expires_ms,
                       _ACCOUNTS.c.id, _ACCOUNTS.c.name)
                .select_from(_SESSIONS.join(_ACCOUNTS, _ACCOUNTS.c.id == _SESSIONS.c.account_id))
                .where(and_(_SESSIONS.c.id_hash == id_hash, _SESSIONS.c.expires_ms > now_ms))).first()
        if row is None:
            return None
        return SessionInfo(account=Account(id=row.id, name=row.name), csrf=row.csrf, created_ms=int(row.created_ms),
                           seen_ms=int(row.seen_ms), expires_ms=int(row.expires_ms))

    def renew_session(self, id_hash: str, now_ms: int, expires_ms: int) -> None:
        """Push a live session's expiry back (sliding renewal)."""
        with self.engine.begin() as conn:
            conn.execute(update(_SESSIONS).where(and_(_SESSIONS.c.id_hash == id_hash,
                                                      _SESSIONS.c.expires_ms > now_ms))
                         .values(seen_ms=now_ms, expires_ms=expires_ms))

    def close_session(self, id_hash: str) -> bool:
        """Sign out: the session's row goes; whether there was one."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(_SESSIONS).where(_SESSIONS.c.id_hash == id_hash))
        return bool(done.rowcount)

    def close_sessions(self, account_id: str) -> int:
        """Sign an account out everywhere; how many sessions ended."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(_SESSIONS).where(_SESSIONS.c.account_id == account_id))
        return int(done.rowcount or 0)

    def close_other_sessions(self, account_id: str, keep_hash: str) -> int:
        """End every session of an account but one (its password changed on that one)."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(_SESSIONS).where(and_(_SESSIONS.c.account_id == account_id,
                                                             _SESSIONS.c.id_hash != keep_hash)))
        return int(done.rowcount or 0)

    # --- passkey challenges --------------------------------------------------------------------

    def put_challenge(self, challenge: Challenge) -> None:
        """Remember a challenge handed out."""
        with self.engine.begin() as conn:
            conn.execute(insert(_CHALLENGES).values(
                id=challenge.id, purpose=challenge.purpose, account_id=challenge.account_id, name=challenge.name,
                user_handle=challenge.user_handle, expires_ms=challenge.expires_ms))

    def take_challenge(self, challenge_id: str, purpose: str, now_ms: int) -> Challenge | None:
        """Take a challenge back, once (it is removed): None if unknown, used, of another
        purpose or expired."""
        with self.engine.begin() as conn:
            row = conn.execute(select(_CHALLENGES).where(_CHALLENGES.c.id == challenge_id)).mappings().first()
            if row is None:
                return None
            done = conn.execute(delete(_CHALLENGES).where(_CHALLENGES.c.id == challenge_id))
        if not done.rowcount or row["purpose"] != purpose or int(row["expires_ms"]) <= now_ms:
            return None  # another process took it first, or it is not this one's
        return Challenge(id=row["id"], purpose=row["purpose"], account_id=row["account_id"], name=row["name"],
                         user_handle=row["user_handle"], expires_ms=int(row["expires_ms"]))

    # --- sign-in limits ------------------------------------------------------------------------

    def blocked_until(self, keys: Sequence[str], now_ms: int) -> int:
        """The latest moment (ms) until which any of ``keys`` is blocked (0: none is)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(func.max(_LIMITS.c.blocked_until_ms))
                                 .where(and_(_LIMITS.c.key.in_(list(keys)),
                                             _LIMITS.c.blocked_until_ms > now_ms))).scalar_one()
        return int(found or 0)

    def failed(self, keys: Sequence[str], now_ms: int, window_ms: int, allowed: int, block_ms: int) -> int:
        """Count one failed sign-in against each key: more than ``allowed`` failures within
        ``window_ms`` block the key for ``block_ms``; the latest block now in force (0: none)."""
        latest = 0
        with self.engine.begin() as conn:
            for key in keys:
                row = conn.execute(select(_LIMITS).where(_LIMITS.c.key == key)).mappings().first()
                if row is None:
                    failures, window = 1, now_ms
                    blocked = now_ms + block_ms if allowed < 1 else 0
                    conn.execute(insert(_LIMITS).values(key=key, failures=failures, window_ms=window,
                                                        blocked_until_ms=blocked))
                else:
                    fresh = now_ms - int(row["window_ms"]) >= window_ms
                    failures = 1 if fresh else int(row["failures"]) + 1
                    window = now_ms if fresh else int(row["window_ms"])
                    blocked = int(row["blocked_until_ms"])
                    if failures > allowed:
                        blocked = max(blocked, now_ms + block_ms)
                    conn.execute(update(_LIMITS).where(_LIMITS.c.key == key).values(
                        failures=failures, window_ms=window, blocked_until_ms=blocked))
                if blocked > now_ms:
                    latest = max(latest, blocked)
        return latest

    def succeeded(self, key: str) -> None:
        """A sign-in of this key succeeded: its failures are forgotten."""
        with self.engine.begin() as conn:
            conn.execute(delete(_LIMITS).where(_LIMITS.c.key == key))

    # --- housekeeping --------------------------------------------------------------------------

    def purge(self, now_ms: int, limits_before_ms: int) -> int:
        """Forget expired sessions and challenges, and limits idle since ``limits_before_ms``."""
        with self.engine.begin() as conn:
            n = conn.execute(delete(_SESSIONS).where(_SESSIONS.c.expires_ms <= now_ms)).rowcount or 0
            n += conn.execute(delete(_CHALLENGES).where(_CHALLENGES.c.expires_ms <= now_ms)).rowcount or 0
            n += conn.execute(delete(_LIMITS).where(and_(_LIMITS.c.window_ms < limits_before_ms,
                                                         _LIMITS.c.blocked_until_ms <= now_ms))).rowcount or 0
        return int(n)

    # --- seats ---------------------------------------------------------------------------------

    def seats(self, account_id: str) -> list[tuple[str, int]]:
        """The seats an account holds at tables that wait or play: (table id, seat)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_SEATS.c.table_id, _SEATS.c.seat)
                .select_from(_SEATS.join(_TABLES, _TABLES.c.id == _SEATS.c.table_id))
                .where(and_(_SEATS.c.account_id == account_id, _TABLES.c.status.in_(("waiting", "playing"))))
                .order_by(_TABLES.c.updated_at.desc())).all()
        return [(str(t), int(s)) for t, s in rows]


def _insert_passkey(conn: Connection, passkey: Passkey, at: datetime) -> None:
    conn.execute(insert(_PASSKEYS).values(
        credential_id=passkey.credential_id, account_id=passkey.account_id, public_key=passkey.public_key,
        sign_count=passkey.sign_count, transports=",".join(passkey.transports)[:128] or None, created_at=at))


def _json_of(text: str | None) -> Any:
    """``text`` read as JSON; None when there is none or it is not JSON (then it is left as it is)."""
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _renamed_list(text: str | None, seats: Sequence[int], replacement: str) -> str | None:
    """The listing's JSON list of names with ``seats`` renamed."""
    names = _json_of(text)
    if not isinstance(names, list):
        return text
    for seat in seats:
        if 0 <= seat < len(names) and names[seat] is not None:
            names[seat] = replacement
    return json.dumps(names, ensure_ascii=False)


def _renamed_record(text: str | None, seats: Sequence[int], replacement: str) -> str | None:
    """A game record's JSON with the names of ``seats`` renamed (its ``seats`` list)."""
    record = _json_of(text)
    if not isinstance(record, dict) or not isinstance(record.get("seats"), list):
        return text
    names: list[Any] = record["seats"]
    for seat in seats:
        if 0 <= seat < len(names):
            names[seat] = replacement
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
