"""Storage faults: a lock held for long, commits that fail, damaged rows.  Nothing is sent
that storage does not hold (P14), the event loop never waits for the database, health
tells the truth, and one damaged row never takes the rest down."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from serverkit import Player, config, create, running
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from mushka.server import create_app
from mushka.server.sqlstore import SqlStore
from mushka.server.store import Save

# Short parties; no special hand ends one at the deal (C22), so a table left waiting for its
# person is surely still playing.
CALM = {"initial_record": 3, "remiz": 0, "flush": "none", "privileged_four": "none"}


class FlakyStore(SqlStore):
    """A SQL store that refuses every commit while ``failing`` is set (a full disk)."""

    failing = False

    def commit(self, saves: Sequence[Save]) -> None:
        if self.failing:
            raise OperationalError("COMMIT", {}, Exception("database or disk is full"))
        super().commit(saves)


def act_once(players: list[Player], rng: random.Random) -> Player:
    view = players[0].view
    assert view is not None and view["result"] is None
    actor = players[view["deal"]["to_act"]]
    actor.act(rng.choice(actor.view["deal"]["legal"]))  # type: ignore[index]
    return actor


def test_p14_a_change_is_sent_only_once_stored_and_the_table_waits_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mushka.server.writer.RETRY_DELAYS", (0.0, 0.0, 0.0))
    monkeypatch.setattr("mushka.server.table.storage.STALL_RETRY", 0.05)
    monkeypatch.setattr("mushka.server.table.storage.STALL_RETRY_MAX", 0.1)
    cfg = config(tmp_path)
    store = FlakyStore(cfg.database_url)
    with TestClient(create_app(cfg, store=store)) as client:
        made = create(client, variant="kopilka", seats=["me"] * 4, start=True)
        table_id = made["table"]["id"]
        players = [Player(client, table_id, t["token"]) for t in made["tokens"]]
        rng = random.Random(8)
        act_once(players, rng)
        for p in players:
            p.until(lambda m: m["type"] == "update")
        stored = store.load(table_id)
        assert stored is not None and stored.version == players[0].version
        assert client.get("/api/health").json()["storage"] == "ok"

        store.failing = True
        actor = act_once(players, rng)
        # Everybody is told that the table waits for storage; nobody gets the unstored update.
        for p in players:
            notice = p.until(lambda m: m["type"] in ("error", "update"))
            assert (notice["type"], notice["code"], notice["rule"]) == ("error", "storage_down", "P14"), notice
        health = client.get("/api/health")
        assert health.status_code == 503
        assert health.json()["status"] == "degraded" and health.json()["database"] is False
        assert health.json()["storage"] == "failing" and health.json()["waiting_for_storage"] == 1
        # Any other change is refused, saying why, and changes nothing.
        other = next(p for p in players if p is not actor)
        other.send({"type": "resync", "id": 7})
        refused = other.until(lambda m: m["type"] in ("error", "state", "update"))
        assert refused["type"] == "error" and refused["code"] == "storage_down" and refused["id"] == 7
        assert client.post(f"/api/tables/{table_id}/join", json={}).status_code in (409, 503)
        assert store.load(table_id).version == stored.version  # type: ignore[union-attr]
        assert all(p.version == stored.version for p in players)

        store.failing = False
        # Storage is back: the waiting change is stored, then sent, and the game goes on.
        updates = [p.until(lambda m: m["type"] == "update") for p in players]
        again = store.load(table_id)
        assert again is not None and again.version == updates[0]["version"] == stored.version + 1
        assert client.get("/api/health").json()["storage"] == "ok"
        act_once(players, rng)
        for p in players:
            p.until(lambda m: m["type"] == "update")
        version, view = players[1].version, players[1].view
        for p in players:
            p.close()
    store.close()
    # What every client saw is what a restart brings back.
    with running(tmp_path) as client:
        back = Player(client, table_id, made["tokens"][1]["token"])
        assert back.state["version"] == version and back.state["view"] == view
        back.close()


def test_a_long_lock_on_the_database_does_not_stop_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mushka.server.writer.RETRY_DELAYS", (0.05, 0.05, 0.05))
    monkeypatch.setattr("mushka.server.table.storage.STALL_RETRY", 0.1)
    with running(tmp_path) as client:
        made = create(client, variant="classic", players=3, seats=["me"] * 3, start=True, options=CALM)
        table_id = made["table"]["id"]
        players = [Player(client, table_id, t["token"]) for t in made["tokens"]]
        rng = random.Random(3)
        path = tmp_path / "mushka-test.db"
        holder = sqlite3.connect(path, timeout=0.1, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")
        released = threading.Event()

        def release() -> None:
            holder.rollback()
            holder.close()
            released.set()

        timer = threading.Timer(6.0, release)
        timer.start()
        try:
            act_once(players, rng)
            slowest = 0.0
            states = []
            deadline = time.monotonic() + 4.0
            while time.monotonic() < deadline:
                began = time.monotonic()
                reply = client.get("/api/health")
                slowest = max(slowest, time.monotonic() - began)
                states.append(reply.json()["storage"])
                time.sleep(0.1)
            # The loop answered all along, and health said that storage was failing.
            assert slowest < 1.5, slowest
            assert states[-1] == "failing", states
            assert not released.is_set()
        finally:
            timer.join(10)
        for p in players:
            p.until(lambda m: m["type"] == "update", limit=50)
        assert client.get("/api/health").json()["storage"] == "ok"
        for p in players:
            p.close()


def finish_a_game(client: TestClient) -> str:
    made = create(client, variant="classic", players=3, seats=["bot:random"] * 3, start=True, options=CALM)
    table_id: str = made["table"]["id"]
    watcher = Player(client, table_id)
    if watcher.state["table"]["status"] != "over":
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
    watcher.close()
    return table_id


def test_a_damaged_row_is_quarantined_and_the_rest_is_served(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        finished = [finish_a_game(client) for _ in range(2)]
        playing = [create(client, variant="classic", players=3, seats=["me", "bot", "bot"], start=True,
                          options=CALM) for _ in range(2)]
        Player(client, playing[0]["table"]["id"], playing[0]["tokens"][0]["token"]).close()
    bad_play, good_play = (p["table"]["id"] for p in playing)
    bad_done, good_done = finished
    db = sqlite3.connect(tmp_path / "mushka-test.db")
    with db:
        db.execute("UPDATE mushka_deals SET data = '{\"dealer\": ' WHERE table_id = ?", (bad_play,))
        db.execute("UPDATE mushka_tables SET record = '{\"format\": [[[' WHERE id = ?", (bad_done,))
        db.execute("UPDATE mushka_tables SET options = 'null' WHERE id = ?", (bad_done,))
    db.close()
    with running(tmp_path) as client:  # starts although a deal row is damaged
        health = client.get("/api/health").json()
        assert health["status"] == "ok" and health["quarantined"] >= 1
        assert client.get(f"/api/tables/{bad_play}").status_code == 404
        assert client.get(f"/api/tables/{good_play}").status_code == 200
        listed = client.get("/api/records")
        assert listed.status_code == 200
        assert [r["id"] for r in listed.json()["records"]] == [good_done]
        assert client.get(f"/api/records/{bad_done}").status_code == 404
        assert client.get(f"/api/records/{good_done}").status_code == 200
    db = sqlite3.connect(tmp_path / "mushka-test.db")
    statuses = dict(db.execute("SELECT id, status FROM mushka_tables").fetchall())
    db.close()
    assert statuses[bad_play] == statuses[bad_done] == "broken"
    assert statuses[good_play] == "playing" and statuses[good_done] == "over"


def test_creating_a_table_while_storage_fails_is_a_clear_error(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mushka.server.writer.RETRY_DELAYS", (0.0, 0.0, 0.0))
    cfg = config(tmp_path)
    store = FlakyStore(cfg.database_url)
    with TestClient(create_app(cfg, store=store)) as client:
        # New tables are stored by the writer, with everything else: a full disk refuses them.
        store.failing = True
        reply = client.post("/api/tables", json={"start": True})
        assert reply.status_code == 503
        assert reply.json()["error"]["code"] == "storage_down" and reply.json()["error"]["rule"] == "P14"
        # Nothing was made: no table in memory that its client never heard of.
        assert client.get("/api/health").json()["tables"] == 0
        store.failing = False
        assert client.post("/api/tables", json={"start": True}).status_code == 201
    store.close()


def test_p12_looking_at_finished_games_takes_no_live_slot(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        done = [finish_a_game(client) for _ in range(3)]
    with running(tmp_path, max_tables=1) as client:
        for _ in range(5):
            for table_id in done:
                assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
                assert client.get(f"/api/tables/{table_id}/rules").status_code == 200
        watcher = Player(client, done[0])
        assert watcher.state["table"]["status"] == "over"
        watcher.close()
        # Every live slot is still free for a new table, and then it is full.
        assert client.post("/api/tables", json={"seats": ["me", "open", "open"], "players": 3}).status_code == 201
        full = client.post("/api/tables", json={"seats": ["me", "open", "open"], "players": 3})
        assert full.status_code == 503 and full.json()["error"]["code"] == "full"


def test_the_list_of_finished_games_reads_no_record(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        done = [finish_a_game(client) for _ in range(2)]
        before = client.get("/api/records").json()["records"]
    db = sqlite3.connect(tmp_path / "mushka-test.db")
    with db:
        db.execute("UPDATE mushka_tables SET record = '{' WHERE id = ?", (done[0],))
    db.close()
    with running(tmp_path) as client:
        listed = client.get("/api/records")
        assert listed.status_code == 200
        assert listed.json()["records"] == before  # the seats' names come from their own column
        assert all(r["seats"] == ["bot random"] * 3 for r in before)
        assert client.get(f"/api/records/{done[0]}").status_code == 404  # then set aside
        assert [r["id"] for r in client.get("/api/records").json()["records"]] == [done[1]]


def test_readers_of_the_list_of_finished_games_share_one_page_and_a_game_that_ends_shows_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mushka.server.app import lobby_of

    monkeypatch.setattr("mushka.server.finished.RECORDS_FRESH", 600.0)  # only a change makes a new page
    with running(tmp_path) as client:
        first = finish_a_game(client)
        store = lobby_of(client.app).store  # type: ignore[arg-type]
        reads: list[tuple[int, int]] = []
        real = store.finished

        def counted(limit: int, offset: int) -> Any:
            reads.append((limit, offset))
            return real(limit, offset)

        monkeypatch.setattr(store, "finished", counted)
        pages = [client.get("/api/records").json() for _ in range(5)]
        assert reads == [(50, 0)] and all(p == pages[0] for p in pages)
        assert [r["id"] for r in pages[0]["records"]] == [first]
        second = finish_a_game(client)  # told to its watcher only once stored
        assert [r["id"] for r in client.get("/api/records").json()["records"]] == [second, first]
        assert len(reads) == 2


def test_migration_0004_fills_the_names_of_games_already_over(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import create_engine

    from mushka.server.sqlstore import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with running(tmp_path, database_url=url) as client:
        table_id = finish_a_game(client)
    engine = create_engine(url)
    command.downgrade(alembic_config(engine), "0003")
    engine.dispose()
    store = SqlStore(url)  # upgrades again
    [summary] = store.finished(5, 0)
    assert summary.id == table_id and summary.names == ("bot random",) * 3 and summary.record is None
    store.close()
