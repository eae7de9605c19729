"""What one group commit writes in SQL: :func:`write_saves`.

The server's writer hands :meth:`~mushka.server.sqlstore.SqlStore.commit` the saves of
many tables (:class:`~mushka.server.store.Save`); inside the commit's transaction, once the
leases are fenced, this module turns them into statements, each run once with many
parameter sets: a new table's rows, the changed columns of a table and its seats, the
journal's new moves (appended with multi-row inserts), the deals rewritten as they end and
their moves dropped, the game's record and result, and the chat lines kept.  Plain inserts
and updates throughout: ORM objects would leave reference cycles behind, which only a full
garbage collection frees.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import DateTime, Integer, and_, bindparam, delete, func, insert, update
from sqlalchemy.engine import Connection

from mushka.server.sqlschema import Base
from mushka.server.store import ABANDONED, Save, SeatSnapshot, TableSnapshot

CHAT_KEPT: Final = 50
"""P16: chat lines kept per table (the older ones are dropped as new ones come)."""

_TABLES = Base.metadata.tables["mushka_tables"]
_SEATS = Base.metadata.tables["mushka_seats"]
_DEALS = Base.metadata.tables["mushka_deals"]
_MOVES = Base.metadata.tables["mushka_moves"]
_CHAT = Base.metadata.tables["mushka_chat"]

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
_DROP_OLD_CHAT = delete(_CHAT).where(and_(_CHAT.c.table_id == bindparam("t_id"),
                                          _CHAT.c.number <= bindparam("c_below", type_=Integer)))
_SET_NEXT = update(_TABLES).where(_TABLES.c.id == bindparam("t_id")).values(next_id=bindparam("t_next"))
_SET_BANKS = update(_TABLES).where(_TABLES.c.id == bindparam("t_id")).values(banks=bindparam("t_banks"))
_SET_RATING = (
    update(_TABLES).where(_TABLES.c.id == bindparam("t_id"))
    .values(rating=bindparam("t_rating"),
            # A game a forfeit ended has no record: it ends here (the ratings read by this time).
            finished_at=func.coalesce(_TABLES.c.finished_at, bindparam("t_ended", type_=DateTime(timezone=True))))
)
_SET_JOINED = (update(_TABLES).where(and_(_TABLES.c.id == bindparam("t_id"), _TABLES.c.joined_at.is_(None)))
               .values(joined_at=bindparam("t_joined", type_=DateTime(timezone=True))))


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


def write_saves(conn: Connection, saves: Sequence[Save]) -> None:
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


def _names_text(names: Sequence[str]) -> str:
    return json.dumps(list(names), ensure_ascii=False)
