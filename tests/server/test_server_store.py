"""Storage: the migrations make the schema of the models, in SQLite and as PostgreSQL SQL;
the store keeps its contract (storekit) on SQLite; and the small pieces the server is built from."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
import storekit
from alembic import command

from mushka.cards import Card, Suit
from mushka.engine.events import TrickTaken
from mushka.server.ratelimit import AddressLimiter, TokenBucket
from mushka.server.seating import hash_token, new_token
from mushka.server.sqlstore import SqlStore, alembic_config
from mushka.server.wire import clean_name, event_out


def test_the_migrations_make_exactly_the_schema_of_the_models(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'm.db'}")
    storekit.migrations_make_the_schema_of_the_models(store)
    store.close()


def test_the_migrations_render_as_postgresql() -> None:
    cfg = alembic_config(url="postgresql://user@localhost/mushka")
    buffer = io.StringIO()
    cfg.output_buffer = buffer
    command.upgrade(cfg, "head", sql=True)
    sql = buffer.getvalue()
    assert "CREATE TABLE mushka_tables" in sql and "TIMESTAMP WITH TIME ZONE" in sql
    assert "REFERENCES mushka_tables (id) ON DELETE CASCADE" in sql


@pytest.mark.parametrize("check", storekit.CONTRACT, ids=[c.__name__ for c in storekit.CONTRACT])
def test_the_store_keeps_its_contract_on_sqlite(tmp_path: Path, check: Callable[[SqlStore], None]) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 's.db'}")
    try:
        check(store)
    finally:
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
    from mushka.server.sqlstore import make_engine

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
