"""Storage: the migrations make the schema of the models, in SQLite and as PostgreSQL SQL;
snapshots round-trip; and the small pieces the server is built from."""

from __future__ import annotations

import dataclasses
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from mushka.cards import Card, Suit
from mushka.engine.events import TrickTaken
from mushka.server.ratelimit import AddressLimiter, TokenBucket
from mushka.server.store import Base, Move, Save, SeatSnapshot, SqlStore, TableSnapshot, alembic_config, upgrade
from mushka.server.table import hash_token, new_token
from mushka.server.wire import clean_name, event_out


def snapshot(table_id: str = "t1", **changes: object) -> TableSnapshot:
    base = TableSnapshot(
        id=table_id, variant="classic", players=3, options={"remiz": "5"}, status="waiting", listed=True,
        host=0, autostart=False, version=0, ply=0,
        seats=(SeatSnapshot(0, "human", "Анна", None, "h0"), SeatSnapshot(1, "open"), SeatSnapshot(2, "bot", None,
                                                                                                 "random")),
        created=datetime(2025, 1, 31, 18, 4, 5, tzinfo=UTC),
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_the_migrations_make_exactly_the_schema_of_the_models(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade(store.engine)  # running them again changes nothing
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        tables = set(inspect(conn).get_table_names())
    assert {"mushka_tables", "mushka_seats", "mushka_deals", "mushka_moves", "alembic_version"} <= tables
    store.close()


def test_the_migrations_render_as_postgresql() -> None:
    cfg = alembic_config(url="postgresql://user@localhost/mushka")
    buffer = io.StringIO()
    cfg.output_buffer = buffer
    command.upgrade(cfg, "head", sql=True)
    sql = buffer.getvalue()
    assert "CREATE TABLE mushka_tables" in sql and "TIMESTAMP WITH TIME ZONE" in sql
    assert "REFERENCES mushka_tables (id) ON DELETE CASCADE" in sql


def test_saves_round_trip_through_the_journal(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 's.db'}")
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
    assert [t.id for t in store.load_active()] == ["t2"] and [t.id for t in store.finished(5, 0)] == ["t1"]
    assert store.load("nope") is None
    store.close()


def moves_of(store: SqlStore, table_id: str) -> int:
    from sqlalchemy import text

    with store.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM mushka_moves WHERE table_id = :t"),
                                {"t": table_id}).scalar_one())


def test_a_failed_commit_changes_nothing(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'x.db'}")
    store.create(snapshot())
    store.commit([Save("t1", version=3, ply=0, status="playing", first_dealer=0,
                       deals=((1, '{"dealer":0,"deck":"AS","actions":[]}'),))])
    before = store.load("t1")
    # The second move repeats a version: the database refuses it, and the first is not kept either.
    with pytest.raises(IntegrityError):
        store.commit([Save("t1", version=4, ply=1, status="playing", moves=(Move(4, 1, "pass"),)),
                      Save("t1", version=4, ply=2, status="playing", moves=(Move(4, 1, "stand"),))])
    assert store.load("t1") == before and moves_of(store, "t1") == 0
    store.close()


def test_active_and_finished_tables_are_found(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'f.db'}")
    start = datetime(2025, 1, 1, tzinfo=UTC)
    store.create(snapshot("wait"))
    store.create(snapshot("play", status="playing"))
    for n in range(3):
        store.create(snapshot(f"over{n}", status="over", winner=n, finished=start + timedelta(hours=n)))
    assert {t.id for t in store.load_active()} == {"wait", "play"}
    assert [t.id for t in store.finished(2, 0)] == ["over2", "over1"]
    assert [t.id for t in store.finished(2, 2)] == ["over0"]
    assert store.finished(5, 0)[0].finished == start + timedelta(hours=2)
    assert store.ping()
    store.close()


def test_tokens_are_random_and_only_their_hash_is_kept() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200 and all(len(t) == 32 for t in tokens)
    token = next(iter(tokens))
    assert hash_token(token) != token and len(hash_token(token)) == 64
    assert hash_token(token) == hash_token(token)


def test_token_buckets_allow_bursts_then_the_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert [bucket.allow() for _ in range(2)] == [True, False]
    now[0] += 10
    assert bucket.full
    limiter = AddressLimiter(rate=1.0, burst=1, clock=lambda: now[0])
    assert limiter.allow("a") and not limiter.allow("a") and limiter.allow("b")


def test_events_go_on_the_wire_with_codes_and_letters() -> None:
    event = TrickTaken(seat=1, number=2, cards=((0, Card("KH")), (1, Card("AS"))), suit=Suit.HEARTS,
                       privileged=True)
    out = event_out(event, "ru")
    assert out.event == "TrickTaken"
    assert out.data == {"seat": 1, "number": 2, "cards": [[0, "KH"], [1, "AS"]], "suit": "H",
                        "privileged": True, "value": 0}
    assert "К♥" in out.text


def test_names_are_cleaned() -> None:
    assert clean_name("  Anna\n\t Petrovna\x00 ") == "Anna Petrovna"
    assert clean_name(" \n ") is None and clean_name(None) is None


def test_a_database_of_the_first_schema_is_upgraded_and_its_games_go_on(tmp_path: Path) -> None:
    import random

    from serverkit import Player, running
    from sqlalchemy import text

    from mushka.match import new_game
    from mushka.records import record_of_game
    from mushka.rules import make_rules
    from mushka.server.store import make_engine

    url = f"sqlite:///{tmp_path / 'mushka-test.db'}"
    engine = make_engine(url)
    command.upgrade(alembic_config(engine), "0001")
    # A game in progress as the first schema stored it: the whole record in mushka_tables.record.
    game = new_game(make_rules("classic", 3, flush="none", privileged_four="none"), rng=5, first_dealer=0)
    rng = random.Random(5)
    while game.to_act != 0 or len(game.deal.actions) < 2:
        game.apply(rng.choice(list(game.legal_actions())))
    token = new_token()
    now = datetime(2025, 1, 31, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO mushka_tables (id, title, variant, players, options, status, listed, host, autostart,"
            " version, ply, record, winner, created_at, updated_at, finished_at) VALUES (:id, NULL, 'classic', 3,"
            " :options, 'playing', 1, 0, 0, 7, :ply, :record, NULL, :now, :now, NULL)"),
            {"id": "old1", "options": '{"flush": "none", "privileged_four": "none"}',
             "ply": len(game.deal.actions), "record": record_of_game(game).dumps(), "now": now})
        for seat, kind, token_hash in ((0, "human", hash_token(token)), (1, "bot", None), (2, "bot", None)):
            conn.execute(text("INSERT INTO mushka_seats (table_id, seat, kind, name, bot, token_hash)"
                              " VALUES ('old1', :seat, :kind, NULL, :bot, :hash)"),
                         {"seat": seat, "kind": kind, "bot": "random" if kind == "bot" else None,
                          "hash": token_hash})
    engine.dispose()
    with running(tmp_path) as client:  # the server migrates to the newest schema at startup
        me = Player(client, "old1", token)
        assert me.state["version"] == 7
        assert me.view == game.view(0).to_json()
        me.act(me.view["deal"]["legal"][0])
        after = me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        me.close()
    with running(tmp_path) as client:  # and after that, from its deal rows
        again = Player(client, "old1", token)
        assert again.state["version"] >= after["version"] and again.state["ply"] >= after["ply"]
        again.close()
