"""The social side in SQL: friendships, friend links, mutes and blocks, reported chat lines,
presence and notices (see ``docs/friends.md``).

Everything lives in the shared store, so that every process of a server tells the same:
a friend request made through one process is a notice the other person's page reads
through another, and who is online is what any process last wrote.  The methods are
synchronous (the server calls them from worker threads); each is one short transaction.
Account ids are the accounts' (:mod:`mushka.server.accounts`); names are looked up in
their table by the same key the accounts use (:func:`name_key`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from mushka.server.sqlschema import Base

ONLINE_MS: Final = 30_000
"""An account seen within this many milliseconds is online."""

NOTICE_MS: Final = 10 * 60_000
"""Notices older than this are not shown any more (an invitation to a table long gone)."""

HideKind = Literal["mute", "block"]

_ACCOUNTS = Base.metadata.tables["mushka_accounts"]
_FRIENDS = Base.metadata.tables["mushka_friends"]
_CODES = Base.metadata.tables["mushka_friend_codes"]
_HIDES = Base.metadata.tables["mushka_hides"]
_REPORTS = Base.metadata.tables["mushka_reports"]
_PRESENCE = Base.metadata.tables["mushka_presence"]
_NOTICES = Base.metadata.tables["mushka_notices"]


def now_ms() -> int:
    """Milliseconds since 1970, UTC."""
    return int(time.time() * 1000)


def name_key(name: str) -> str:
    """A name as the accounts compare names: case-folded, whitespace made single spaces."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True, slots=True)
class Person:
    """An account as others see it: its id and name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Friendship:
    """One friendship of an account, from its side."""

    other: Person
    status: Literal["accepted", "incoming", "outgoing"]
    """Accepted, asked of this account, or asked by it."""


@dataclass(frozen=True, slots=True)
class Seen:
    """Where an account was last seen, if lately: online, and at which table."""

    online: bool
    table_id: str | None


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice for an account (see :class:`~mushka.server.sqlschema.NoticeRow`)."""

    id: int
    kind: str
    sender: Person
    table_id: str | None
    created_ms: int


@dataclass(frozen=True, slots=True)
class Report:
    """A reported chat line, as the operator reads it."""

    id: int
    table_id: str
    line_at: str
    seat: int | None
    speaker: str
    speaker_id: str | None
    text: str
    reporter_id: str | None
    reporter_address: str
    created_ms: int


class SocialBook:
    """The social tables of the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        """The book of ``engine``'s database."""
        self.engine = engine

    # --- accounts --------------------------------------------------------------------------

    def person(self, name: str) -> Person | None:
        """The account called ``name`` (compared as the accounts compare names), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_ACCOUNTS.c.id, _ACCOUNTS.c.name)
                               .where(_ACCOUNTS.c.name_key == name_key(name)[:64])).first()
        return None if row is None else Person(row[0], row[1])

    def people(self, ids: Iterable[str]) -> dict[str, Person]:
        """The accounts of ``ids`` that exist, by id."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(_ACCOUNTS.c.id, _ACCOUNTS.c.name).where(_ACCOUNTS.c.id.in_(wanted)))
            return {r[0]: Person(r[0], r[1]) for r in rows}

    # --- friends ---------------------------------------------------------------------------

    def friendships(self, me: str) -> list[Friendship]:
        """Every friendship of ``me``, accepted or asked either way (requests from accounts
        ``me`` blocked are left out), by the other's name."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_FRIENDS.c.from_id, _FRIENDS.c.to_id, _FRIENDS.c.status)
                                .where(or_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == me))).all()
            blocked = _hidden_ids(conn, me, only_blocks=True)
        found: list[tuple[str, Literal["accepted", "incoming", "outgoing"]]] = []
        for from_id, to_id, status in rows:
            other = to_id if from_id == me else from_id
            if status == "accepted":
                found.append((other, "accepted"))
            elif other not in blocked:
                found.append((other, "outgoing" if from_id == me else "incoming"))
        people = self.people(o for o, _ in found)
        out = [Friendship(people[o], s) for o, s in found if o in people]
        return sorted(out, key=lambda f: (f.status != "accepted", f.other.name.casefold()))

    def friend_ids(self, me: str) -> set[str]:
        """The accounts ``me`` is friends with (accepted)."""
        with self.engine.connect() as conn:
            return _friend_ids(conn, me)

    def ask(self, me: str, other: str) -> Literal["asked", "accepted", "friends"]:
        """``me`` asks ``other`` to be friends: asked (and ``other`` told, unless he blocked
        ``me``), accepted (``other`` had asked ``me``: both are friends now, and he is told),
        or friends already."""
        now = now_ms()
        with self.engine.begin() as conn:
            there = conn.execute(select(_FRIENDS.c.from_id, _FRIENDS.c.status).where(or_(
                and_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == other),
                and_(_FRIENDS.c.from_id == other, _FRIENDS.c.to_id == me)))).all()
            if any(status == "accepted" for _, status in there):
                return "friends"
            if any(from_id == other for from_id, _ in there):
                conn.execute(update(_FRIENDS).where(and_(_FRIENDS.c.from_id == other, _FRIENDS.c.to_id == me))
                             .values(status="accepted"))
                conn.execute(delete(_FRIENDS).where(and_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == other)))
                _answered(conn, me, other)
                _notify(conn, other, me, "friend_accepted", None, now)
                return "accepted"
            if not there:
                conn.execute(insert(_FRIENDS).values(from_id=me, to_id=other, status="pending", created_ms=now))
                if me not in _hidden_ids(conn, other, only_blocks=True):
                    _notify(conn, other, me, "friend_request", None, now)
            return "asked"

    def befriend(self, me: str, other: str) -> None:
        """``me`` and ``other`` are friends at once (``me`` opened ``other``'s friend link)."""
        with self.engine.begin() as conn:
            conn.execute(delete(_FRIENDS).where(or_(
                and_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == other),
                and_(_FRIENDS.c.from_id == other, _FRIENDS.c.to_id == me))))
            conn.execute(insert(_FRIENDS).values(from_id=other, to_id=me, status="accepted", created_ms=now_ms()))
            _answered(conn, me, other)
            _answered(conn, other, me)
            _notify(conn, other, me, "friend_accepted", None, now_ms())

    def decline(self, me: str, other: str) -> bool:
        """``me`` declines ``other``'s request, withdraws his own, or ends the friendship;
        False if there was none."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(_FRIENDS).where(or_(
                and_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == other),
                and_(_FRIENDS.c.from_id == other, _FRIENDS.c.to_id == me))))
            _answered(conn, me, other)
        return bool(done.rowcount)

    def code(self, me: str, *, new: bool = False) -> str:
        """The code of ``me``'s friend link (made on first use; ``new`` replaces it)."""
        with self.engine.begin() as conn:
            row = conn.execute(select(_CODES.c.code).where(_CODES.c.account_id == me)).first()
            if row is not None and not new:
                return str(row[0])
            code = secrets.token_urlsafe(12)
            if row is None:
                conn.execute(insert(_CODES).values(account_id=me, code=code, created_ms=now_ms()))
            else:
                conn.execute(update(_CODES).where(_CODES.c.account_id == me).values(code=code, created_ms=now_ms()))
            return code

    def owner_of(self, code: str) -> Person | None:
        """The account whose friend link has ``code``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_ACCOUNTS.c.id, _ACCOUNTS.c.name).join(
                _CODES, _CODES.c.account_id == _ACCOUNTS.c.id).where(_CODES.c.code == code[:32])).first()
        return None if row is None else Person(row[0], row[1])

    # --- mutes and blocks ------------------------------------------------------------------

    def hide(self, me: str, other: str, kind: HideKind | None) -> None:
        """``me`` mutes or blocks ``other`` (None: neither any more).  A block ends their
        friendship and every request and notice between them."""
        with self.engine.begin() as conn:
            conn.execute(delete(_HIDES).where(and_(_HIDES.c.owner_id == me, _HIDES.c.target_id == other)))
            if kind is None:
                return
            conn.execute(insert(_HIDES).values(owner_id=me, target_id=other, kind=kind, created_ms=now_ms()))
            if kind == "block":
                conn.execute(delete(_FRIENDS).where(or_(
                    and_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == other),
                    and_(_FRIENDS.c.from_id == other, _FRIENDS.c.to_id == me))))
                conn.execute(delete(_NOTICES).where(or_(
                    and_(_NOTICES.c.to_id == me, _NOTICES.c.from_id == other),
                    and_(_NOTICES.c.to_id == other, _NOTICES.c.from_id == me))))

    def hides(self, me: str) -> list[tuple[Person, HideKind]]:
        """Whom ``me`` muted or blocked, by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_HIDES.c.target_id, _HIDES.c.kind).where(_HIDES.c.owner_id == me)).all()
        people = self.people(r[0] for r in rows)
        out: list[tuple[Person, HideKind]] = [
            (people[t], "block" if k == "block" else "mute") for t, k in rows if t in people]
        return sorted(out, key=lambda p: p[0].name.casefold())

    def hidden(self, accounts: Iterable[str]) -> dict[str, frozenset[str]]:
        """For each of ``accounts``: whose chat lines it does not want (muted or blocked)."""
        wanted = sorted(set(accounts))
        found: dict[str, set[str]] = {a: set() for a in wanted}
        if wanted:
            with self.engine.connect() as conn:
                for owner, target in conn.execute(select(_HIDES.c.owner_id, _HIDES.c.target_id)
                                                  .where(_HIDES.c.owner_id.in_(wanted))):
                    found[owner].add(target)
        return {a: frozenset(s) for a, s in found.items()}

    def blocks(self, owner: str, other: str) -> bool:
        """Whether ``owner`` blocked ``other``."""
        with self.engine.connect() as conn:
            return other in _hidden_ids(conn, owner, only_blocks=True)

    # --- invitations and notices -----------------------------------------------------------

    def invite(self, me: str, friend: str, table_id: str) -> bool:
        """``me`` invites ``friend`` to ``table_id``; False (and nothing stored) when the same
        invitation is still unseen."""
        with self.engine.begin() as conn:
            same = conn.execute(select(_NOTICES.c.id).where(and_(
                _NOTICES.c.to_id == friend, _NOTICES.c.from_id == me, _NOTICES.c.kind == "invite",
                _NOTICES.c.table_id == table_id, _NOTICES.c.seen.is_(False),
                _NOTICES.c.created_ms > now_ms() - NOTICE_MS))).first()
            if same is not None:
                return False
            _notify(conn, friend, me, "invite", table_id, now_ms())
            return True

    def notices(self, me: str, after: int = 0) -> list[Notice]:
        """``me``'s unseen notices of the last :data:`NOTICE_MS`, oldest first, past id ``after``."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_NOTICES.c.id, _NOTICES.c.kind, _NOTICES.c.from_id, _ACCOUNTS.c.name,
                                       _NOTICES.c.table_id, _NOTICES.c.created_ms)
                                .join(_ACCOUNTS, _ACCOUNTS.c.id == _NOTICES.c.from_id)
                                .where(and_(_NOTICES.c.to_id == me, _NOTICES.c.seen.is_(False), _NOTICES.c.id > after,
                                            _NOTICES.c.created_ms > now_ms() - NOTICE_MS))
                                .order_by(_NOTICES.c.id)).all()
        return [Notice(r[0], r[1], Person(r[2], r[3]), r[4], r[5]) for r in rows]

    def seen(self, me: str, notice_id: int) -> bool:
        """``me`` has seen (answered or dismissed) one of his notices; False if it is not his."""
        with self.engine.begin() as conn:
            done = conn.execute(update(_NOTICES).where(and_(_NOTICES.c.id == notice_id, _NOTICES.c.to_id == me))
                                .values(seen=True))
        return bool(done.rowcount)

    def purge(self, before_ms: int) -> None:
        """Drop notices and presence older than ``before_ms`` (old rows nobody will read)."""
        with self.engine.begin() as conn:
            conn.execute(delete(_NOTICES).where(_NOTICES.c.created_ms < before_ms))
            conn.execute(delete(_PRESENCE).where(_PRESENCE.c.seen_ms < before_ms))

    # --- presence ----------------------------------------------------------------------------

    def touch(self, node: str, places: Sequence[tuple[str, str]]) -> None:
        """``node`` sees each account of ``places`` at its table (``''``: a page with no table)."""
        if not places:
            return
        now = now_ms()
        with self.engine.begin() as conn:
            for account, table_id in places:
                done = conn.execute(update(_PRESENCE).where(and_(
                    _PRESENCE.c.account_id == account, _PRESENCE.c.node == node, _PRESENCE.c.table_id == table_id))
                    .values(seen_ms=now))
                if not done.rowcount:
                    try:
                        with conn.begin_nested():
                            conn.execute(insert(_PRESENCE).values(account_id=account, node=node, table_id=table_id,
                                                                  seen_ms=now))
                    except IntegrityError:
                        pass  # written meanwhile by another request of the same account: seen either way

    def gone(self, node: str, account: str, table_id: str) -> None:
        """``account`` left ``table_id`` on ``node``."""
        with self.engine.begin() as conn:
            conn.execute(delete(_PRESENCE).where(and_(
                _PRESENCE.c.account_id == account, _PRESENCE.c.node == node, _PRESENCE.c.table_id == table_id)))

    def where(self, accounts: Iterable[str]) -> dict[str, Seen]:
        """Whether each of ``accounts`` is online, and at which table (the one seen last)."""
        wanted = sorted(set(accounts))
        out = {a: Seen(False, None) for a in wanted}
        if not wanted:
            return out
        with self.engine.connect() as conn:
            rows = conn.execute(select(_PRESENCE.c.account_id, _PRESENCE.c.table_id, _PRESENCE.c.seen_ms)
                                .where(and_(_PRESENCE.c.account_id.in_(wanted),
                                            _PRESENCE.c.seen_ms > now_ms() - ONLINE_MS))
                                .order_by(_PRESENCE.c.seen_ms)).all()
        for account, table_id, _ in rows:
            before = out[account].table_id
            out[account] = Seen(True, table_id or before)
        return out

    # --- reports -------------------------------------------------------------------------------

    def report(self, report: Report) -> bool:
        """Keep a reported line; False if the same reporter reported it already."""
        with self.engine.begin() as conn:
            who = (_REPORTS.c.reporter_id == report.reporter_id if report.reporter_id is not None
                   else and_(_REPORTS.c.reporter_id.is_(None), _REPORTS.c.reporter_address == report.reporter_address))
            there = conn.execute(select(_REPORTS.c.id).where(and_(
                _REPORTS.c.table_id == report.table_id, _REPORTS.c.line_at == report.line_at,
                _REPORTS.c.speaker == report.speaker, who))).first()
            if there is not None:
                return False
            conn.execute(insert(_REPORTS).values(
                table_id=report.table_id, line_at=report.line_at, seat=report.seat, speaker=report.speaker,
                speaker_id=report.speaker_id, text=report.text, reporter_id=report.reporter_id,
                reporter_address=report.reporter_address, created_ms=report.created_ms))
            return True

    def reports(self, limit: int = 100, since_ms: int = 0) -> list[Report]:
        """The latest reports, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(_REPORTS).where(_REPORTS.c.created_ms >= since_ms)
                                .order_by(_REPORTS.c.created_ms.desc(), _REPORTS.c.id.desc()).limit(limit)).all()
        return [Report(**dict(r._mapping)) for r in rows]

    def report_count(self, speaker_id: str) -> int:
        """How many reports name ``speaker_id`` (for the operator's listing)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(_REPORTS)
                                    .where(_REPORTS.c.speaker_id == speaker_id)).scalar_one())


def _friend_ids(conn: Connection, me: str) -> set[str]:
    rows = conn.execute(select(_FRIENDS.c.from_id, _FRIENDS.c.to_id).where(and_(
        _FRIENDS.c.status == "accepted", or_(_FRIENDS.c.from_id == me, _FRIENDS.c.to_id == me))))
    return {b if a == me else a for a, b in rows}


def _hidden_ids(conn: Connection, owner: str, *, only_blocks: bool = False) -> set[str]:
    where = _HIDES.c.owner_id == owner
    if only_blocks:
        where = and_(where, _HIDES.c.kind == "block")
    return {r[0] for r in conn.execute(select(_HIDES.c.target_id).where(where))}


def _answered(conn: Connection, me: str, other: str) -> None:
    """``other``'s friend request to ``me`` was answered: its notice is not shown again."""
    conn.execute(update(_NOTICES).where(and_(_NOTICES.c.to_id == me, _NOTICES.c.from_id == other,
                                             _NOTICES.c.kind == "friend_request")).values(seen=True))


def _notify(conn: Connection, to: str, sender: str, kind: str, table_id: str | None, at: int) -> None:
    conn.execute(insert(_NOTICES).values(to_id=to, from_id=sender, kind=kind, table_id=table_id, created_ms=at,
                                         seen=False))
