"""Stored tables read back into snapshots: :func:`read_tables`.

A table's row, its seats and, for a table to play on, its deals with the journal's moves
merged in (and its chat) become a :class:`~mushka.server.store.TableSnapshot`, read with
plain selects (ORM objects would leave reference cycles behind).  Rows that cannot be read
are named rather than raised, so that one damaged table never keeps the others from being
served (the store sets it aside).  Times come back in UTC whatever the database's session
says, and the lists of finished games sort their nulls last on every database.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.engine import Connection

from mushka.server.sqlschema import Base
from mushka.server.store import ABANDONED, SeatSnapshot, TableSnapshot

_TABLES = Base.metadata.tables["mushka_tables"]
_SEATS = Base.metadata.tables["mushka_seats"]
_DEALS = Base.metadata.tables["mushka_deals"]
_MOVES = Base.metadata.tables["mushka_moves"]
_CHAT = Base.metadata.tables["mushka_chat"]

ENDED = or_(and_(_TABLES.c.status == "over", _TABLES.c.record.is_not(None)),
            and_(_TABLES.c.status == ABANDONED, _TABLES.c.rating.is_not(None)))
"""The games the ratings read: finished with a record, or ended by a forfeit (no record)."""


def _utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes (every stored time is UTC); PostgreSQL hands back
    # aware ones in its session's time zone, which need not be UTC.
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def read_tables(conn: Connection, where: Any, *, with_deals: bool, newest: bool = False, limit: int | None = None,
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
