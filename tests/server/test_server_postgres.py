"""PostgreSQL: how a URL finds its driver, the clear error when the driver is missing, and, on a
live throwaway PostgreSQL server, the store's contract and a server that comes back after a restart.

The live tests start their own cluster (:mod:`pgkit`: ``initdb`` and ``pg_ctl`` in a temporary
directory, listening on a free loopback port only, removed afterwards whatever happened).  The
test setup installs PostgreSQL, so without those programs the tests fail, saying how to install
them.  PostgreSQL refuses to run as root: a test run by root starts the cluster as the
``postgres`` user, or ``nobody``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import Callable, Iterator
from datetime import UTC
from pathlib import Path

import pytest
import storekit
from pgkit import TIME_ZONE, Cluster, throwaway
from serverkit import Player, create, running
from typer.testing import CliRunner

from mushka.cli.main import app
from mushka.match import Game
from mushka.records import Record, replay
from mushka.server.sqlstore import SqlStore, StorageError, engine_url, shown_url
from mushka.server.store import Move, Save
from mushka.server.writer import Writer

# One worker runs them all (with --dist loadgroup), so that one cluster serves the whole module.
pytestmark = pytest.mark.xdist_group("postgres")


# --- the URL and the driver (no server needed) ---------------------------------------------------


def test_a_postgresql_url_without_a_driver_means_psycopg_3() -> None:
    assert engine_url("postgresql://u:pw@db:5433/games").drivername == "postgresql+psycopg"
    assert engine_url("postgres://u@db/games").render_as_string(hide_password=False) == (
        "postgresql+psycopg://u@db/games")
    assert engine_url("postgresql+psycopg2://u@db/games").drivername == "postgresql+psycopg2"
    assert engine_url("sqlite:///x.db").drivername == "sqlite"
    with pytest.raises(StorageError) as caught:
        engine_url("no url at all")
    assert caught.value.code == "bad_url"
    assert "sqlite:///ФАЙЛ" in caught.value.message("ru") and "sqlite:///FILE" in caught.value.message("en")


def test_a_password_is_never_shown() -> None:
    assert shown_url("postgresql://mushka:s3cret@db/games") == "postgresql://mushka:***@db/games"
    assert shown_url("sqlite:///games.db") == "sqlite:///games.db"


@pytest.mark.parametrize(("lang", "words"), [("en", "PostgreSQL driver (psycopg) is not installed"),
                                              ("ru", "драйвер PostgreSQL (psycopg) не установлен")])
def test_a_missing_driver_is_one_clear_line_in_both_languages(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                              words: str) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra were not installed
    result = CliRunner().invoke(app, ["serve", "--database-url", "postgresql://mushka:s3cret@127.0.0.1:9/games",
                                      "--lang", lang])
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert words in said and "pip install 'mushka[postgres]'" in said
    assert "s3cret" not in said and "Traceback" not in said


def test_an_unknown_kind_of_database_and_a_missing_module_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(StorageError) as unknown:
        SqlStore("postgress://mushka@127.0.0.1:9/games")
    assert unknown.value.code == "unknown_database" and "'postgress'" in unknown.value.message("ru")
    monkeypatch.setitem(sys.modules, "psycopg2", None)  # a driver named in the URL, not installed
    with pytest.raises(StorageError) as missing:
        SqlStore("postgresql+psycopg2://mushka@127.0.0.1:9/games")
    assert missing.value.code == "no_driver"
    assert "'psycopg2'" in missing.value.message("en") and "модуль Python 'psycopg2'" in missing.value.message("ru")


# --- a throwaway cluster (tests/server/pgkit.py) --------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of its own for this module, torn down at the end even after a failure."""
    with throwaway() as made:
        yield made


@pytest.fixture
def pg_url(cluster: Cluster) -> str:
    """The URL of a fresh database on the throwaway server."""
    return cluster.new_database()


# --- the store on PostgreSQL ------------------------------------------------------------------


CHECKS: list[Callable[[SqlStore], None]] = [storekit.migrations_make_the_schema_of_the_models, *storekit.CONTRACT]


@pytest.mark.slow
@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
def test_the_store_keeps_its_contract_on_postgresql(pg_url: str, check: Callable[[SqlStore], None]) -> None:
    store = SqlStore(pg_url)
    try:
        assert store.engine.dialect.name == "postgresql" and store.engine.dialect.driver == "psycopg"
        check(store)
    finally:
        store.close()


@pytest.mark.slow
def test_times_come_back_in_utc_whatever_the_server_s_time_zone(pg_url: str) -> None:
    store = SqlStore(pg_url)
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW timezone").scalar_one() == TIME_ZONE
        made = storekit.snapshot("tz", status="over", winner=0, finished=storekit.snapshot().created)
        store.create(made)
        loaded = store.load("tz")
        assert loaded is not None and loaded == made
        assert loaded.created.tzinfo is UTC and loaded.finished is not None and loaded.finished.tzinfo is UTC
    finally:
        store.close()


@pytest.mark.slow
def test_the_writer_commits_in_its_thread_and_survives_a_database_restart(cluster: Cluster, pg_url: str) -> None:
    store = SqlStore(pg_url)
    store.create(storekit.snapshot(status="playing", first_dealer=0,
                                   deals=((1, '{"dealer":0,"deck":"AS","actions":[]}'),)))

    async def run() -> Writer:
        writer = Writer(store)
        assert not writer.inline  # a database across a connection is never committed on the event loop
        writer.start()
        await writer.write(Save("t1", version=1, ply=1, status="playing", moves=(Move(1, 1, "pass"),)))
        # The writer's kept connection dies with the database; its retries reach the new one.
        await asyncio.to_thread(cluster.restart)
        await writer.write(Save("t1", version=2, ply=2, status="playing", moves=(Move(2, 1, "stand"),)))
        await writer.close()
        return writer

    try:
        writer = asyncio.run(run())
        # The first try after the restart failed on the dead connection; the retry went through.
        assert writer.stats.saves == 2 and writer.stats.failures == 1
        loaded = store.load("t1")
        assert loaded is not None and loaded.version == 2
        assert json.loads(loaded.deals[0][1])["actions"] == ["pass", "stand"]
        assert store.ping()
    finally:
        store.close()


# --- the server on PostgreSQL -------------------------------------------------------------------


@pytest.mark.slow
def test_a_restart_loses_no_game_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    with running(tmp_path, database_url=pg_url) as client:  # the schema is made at startup
        made = create(client, variant="kopilka", seats=["me", "bot:random", "bot:random", "bot:random"], start=True)
        table_id, token = made["table"]["id"], made["tokens"][0]["token"]
        waiting = create(client, variant="kopilka", seats=["me", "open", "bot", "bot"])["table"]["id"]
        me = Player(client, table_id, token)
        rng = random.Random(11)
        first_deal = me.view["number"]  # type: ignore[index]
        # Play on into the next deal, so that a whole deal's row and the journal of the next are stored.
        in_next_deal = 0
        for _ in range(100):
            view = me.wait_turn()
            assert view["result"] is None
            if view["number"] > first_deal:
                in_next_deal += 1
                if in_next_deal > 2:
                    break
            me.act(rng.choice(view["deal"]["legal"]))
            me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        assert view["number"] > first_deal, "the game never reached its next deal"
        version, ply = me.version, me.ply
        me.close()
    with running(tmp_path, database_url=pg_url) as client:
        health = client.get("/api/health").json()
        assert health["database"] is True and health["tables"] == 2 and health["playing"] == 1
        again = Player(client, table_id, token)
        assert (again.state["version"], again.state["ply"]) == (version, ply)
        assert again.state["view"] == view
        again.act(view["deal"]["legal"][0])
        update = again.until(lambda m: m["type"] == "update")
        assert (update["version"], update["ply"]) == (version + 1, ply + 1)
        joined = client.post(f"/api/tables/{waiting}/join", json={"name": "Поздний"})
        assert joined.status_code == 200 and joined.json()["token"]["seat"] == 1
        view = again.wait_turn()  # the bots have played up to this seat's turn
        version, ply = again.version, again.ply
        again.close()
    with running(tmp_path, database_url=pg_url) as client:  # and what was played after the restart is kept too
        last = Player(client, table_id, token)
        assert (last.state["version"], last.state["ply"]) == (version, ply) and last.state["view"] == view
        last.close()


@pytest.mark.slow
def test_games_played_to_the_end_are_served_after_a_restart(tmp_path: Path, pg_url: str) -> None:
    ids = []
    with running(tmp_path, database_url=pg_url) as client:
        # Bots only, several tables at once, so that the writer's transactions hold many tables' saves.
        for _ in range(3):
            made = create(client, variant="classic", players=3, seats=["bot:random"] * 3, start=True,
                          options={"initial_record": 3, "remiz": 0})
            ids.append(made["table"]["id"])
        for table_id in ids:
            watcher = Player(client, table_id)
            if watcher.state["table"]["status"] != "over":
                watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
            watcher.close()
        served = {i: client.get(f"/api/records/{i}").text for i in ids}
    with running(tmp_path, database_url=pg_url) as client:
        listed = client.get("/api/records").json()["records"]
        assert sorted(r["id"] for r in listed) == sorted(ids)
        assert all(r["finished"].endswith("+00:00") for r in listed)
        for table_id in ids:
            reply = client.get(f"/api/records/{table_id}")
            assert reply.status_code == 200 and reply.text == served[table_id]
            game = replay(Record.loads(reply.text))
            assert isinstance(game, Game) and game.is_over
