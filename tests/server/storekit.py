"""The contract of a table store, checked on any database: the same checks run on SQLite
(test_server_store.py) and on a live PostgreSQL server (test_server_postgres.py)."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from mushka.server.sqlstore import Base, SqlStore, upgrade
from mushka.server.store import Move, Save, SeatSnapshot, TableSnapshot


def snapshot(table_id: str = "t1", **changes: object) -> TableSnapshot:
    base = TableSnapshot(
        id=table_id, variant="classic", players=3, options={"remiz": "5"}, status="waiting", listed=True,
        host=0, autostart=False, version=0, ply=0,
        seats=(SeatSnapshot(0, "human", "Анна", None, "h0"), SeatSnapshot(1, "open"), SeatSnapshot(2, "bot", None,
                                                                                                 "random")),
        created=datetime(2025, 1, 31, 18, 4, 5, tzinfo=UTC),
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def moves_of(store: SqlStore, table_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM mushka_moves WHERE table_id = :t"),
                                {"t": table_id}).scalar_one())


def migrations_make_the_schema_of_the_models(store: SqlStore) -> None:
    upgrade(store.engine)  # running them again changes nothing
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        tables = set(inspect(conn).get_table_names())
    assert {"mushka_tables", "mushka_seats", "mushka_deals", "mushka_moves", "alembic_version"} <= tables


def saves_round_trip_through_the_journal(store: SqlStore) -> None:
    first = snapshot()
    store.create(first)
    assert store.load("t1") == first
    boris = (first.seats[0], SeatSnapshot(1, "human", "Boris", None, "h1"), first.seats[2])
    store.commit([Save("t1", version=1, ply=0, status="waiting", seats=boris)])
    assert store.load("t1") == dataclasses.replace(first, version=1, seats=boris)
    started = '{"dealer":2,"deck":"AS KS","actions":[]}'
    store.commit([Save("t1", version=3, ply=0, status="playing", first_dealer=2, deals=((1, started),))])
    # Several tables' saves in one transaction; a table's moves append to its current deal.
    store.create(snapshot("t2"))
    store.commit([
        Save("t1", version=4, ply=1, status="playing", moves=(Move(4, 1, "pass"),)),
        Save("t2", version=1, ply=0, status="waiting"),
        Save("t1", version=5, ply=2, status="playing", moves=(Move(5, 1, "discard 7H", picks="8H"),)),
        Save("t1", version=6, ply=3, status="playing", moves=(Move(6, 1, "KS", picks="9H TH"),)),
    ])
    loaded = store.load("t1")
    assert loaded is not None and (loaded.version, loaded.ply, loaded.first_dealer) == (6, 3, 2)
    assert [json.loads(d) for _, d in loaded.deals] == [
        {"dealer": 2, "deck": "AS KS", "actions": ["pass", "discard 7H", "KS"], "picks": "8H 9H TH"}]
    assert loaded.seats == boris and store.load("t2").version == 1  # type: ignore[union-attr]
    # A deal ends: its row holds every action, its moves go, and the next deal's row is written.
    ended = '{"dealer":2,"deck":"AS KS","actions":["pass","discard 7H","KS","AS"],"picks":"8H 9H TH"}'
    second = '{"dealer":0,"deck":"KS AS","actions":[]}'
    store.commit([Save("t1", version=7, ply=4, status="playing", deals=((1, ended), (2, second)), settled=(1,))])
    assert moves_of(store, "t1") == 0
    assert store.load("t1").deals == ((1, ended), (2, second))  # type: ignore[union-attr]
    store.commit([Save("t1", version=8, ply=5, status="playing", moves=(Move(8, 2, "pass"),))])
    assert moves_of(store, "t1") == 1
    # A full save (after a failed write) rewrites every deal and starts the journal afresh.
    again = '{"dealer":0,"deck":"KS AS","actions":["pass","stand"]}'
    store.commit([Save("t1", version=9, ply=6, status="playing", deals=((1, ended), (2, again)), full=True)])
    assert moves_of(store, "t1") == 0 and store.load("t1").deals == ((1, ended), (2, again))  # type: ignore[union-attr]
    done = datetime(2025, 2, 1, tzinfo=UTC)
    store.commit([Save("t1", version=11, ply=7, status="over", record='{"format": "mushka-record"}', winner=2,
                       finished=done)])
    over = store.load("t1")
    assert over is not None and (over.status, over.record, over.winner, over.finished) == (
        "over", '{"format": "mushka-record"}', 2, done)
    assert over.finished.tzinfo is UTC and over.created.tzinfo is UTC  # type: ignore[union-attr]
    assert [t.id for t in store.load_active()] == ["t2"] and [t.id for t in store.finished(5, 0)] == ["t1"]
    assert store.load("nope") is None


def a_failed_commit_changes_nothing(store: SqlStore) -> None:
    store.create(snapshot())
    store.commit([Save("t1", version=3, ply=0, status="playing", first_dealer=0,
                       deals=((1, '{"dealer":0,"deck":"AS","actions":[]}'),))])
    before = store.load("t1")
    # The second move repeats a version: the database refuses it, and the first is not kept either.
    with pytest.raises(IntegrityError):
        store.commit([Save("t1", version=4, ply=1, status="playing", moves=(Move(4, 1, "pass"),)),
                      Save("t1", version=4, ply=2, status="playing", moves=(Move(4, 1, "stand"),))])
    assert store.load("t1") == before and moves_of(store, "t1") == 0
    # The store gets over the refusal: the next commit goes through.
    store.commit([Save("t1", version=4, ply=1, status="playing", moves=(Move(4, 1, "pass"),))])
    assert store.load("t1").version == 4 and moves_of(store, "t1") == 1  # type: ignore[union-attr]


def active_and_finished_tables_are_found(store: SqlStore) -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    store.create(snapshot("wait"))
    store.create(snapshot("play", status="playing"))
    for n in range(3):
        store.create(snapshot(f"over{n}", status="over", winner=n, finished=start + timedelta(hours=n)))
    assert {t.id for t in store.load_active()} == {"wait", "play"}
    assert [t.id for t in store.finished(2, 0)] == ["over2", "over1"]
    assert [t.id for t in store.finished(2, 2)] == ["over0"]
    assert store.finished(5, 0)[0].finished == start + timedelta(hours=2)
    # A finished game without a time (none is stored so, but the column allows it) comes last everywhere.
    store.create(snapshot("undated", status="over", winner=0))
    assert [t.id for t in store.finished(5, 0)] == ["over2", "over1", "over0", "undated"]
    assert store.ping()


def the_longest_texts_allowed_are_kept(store: SqlStore) -> None:
    """Names, bots and actions at the lengths the protocol allows fit their columns (a database
    that enforces column lengths refuses anything longer)."""
    name = "Ё" * 32
    seats = (SeatSnapshot(0, "human", name, None, "f" * 64), SeatSnapshot(1, "bot", None, "b" * 32),
             SeatSnapshot(2, "open"))
    store.create(snapshot("long", title="Т" * 32, seats=seats))
    store.commit([Save("long", version=1, ply=0, status="playing", first_dealer=0,
                       deals=((1, '{"dealer":0,"deck":"AS","actions":[]}'),)),
                  Save("long", version=2, ply=1, status="playing", moves=(Move(2, 1, "a" * 64, picks="AS " * 40),))])
    loaded = store.load("long")
    assert loaded is not None and loaded.title == "Т" * 32 and loaded.seats == seats
    assert json.loads(loaded.deals[0][1])["actions"] == ["a" * 64]


def many_moves_go_in_one_commit(store: SqlStore) -> None:
    """More journal rows than one multi-row insert holds, of many tables, in one transaction."""
    ids = [f"m{n}" for n in range(4)]
    for table_id in ids:
        store.create(snapshot(table_id, status="playing", first_dealer=0,
                              deals=((1, '{"dealer":0,"deck":"AS","actions":[]}'),)))
    saves = [Save(table_id, version=v, ply=v, status="playing", moves=(Move(v, 1, f"x{v}"),))
             for v in range(1, 301) for table_id in ids]
    store.commit(saves)
    for table_id in ids:
        loaded = store.load(table_id)
        assert loaded is not None and (loaded.version, loaded.ply) == (300, 300)
        assert json.loads(loaded.deals[0][1])["actions"] == [f"x{v}" for v in range(1, 301)]
        assert moves_of(store, table_id) == 300


CONTRACT = (
    saves_round_trip_through_the_journal,
    a_failed_commit_changes_nothing,
    active_and_finished_tables_are_found,
    the_longest_texts_allowed_are_kept,
    many_moves_go_in_one_commit,
)
"""Every check of the contract that starts from an empty database."""
