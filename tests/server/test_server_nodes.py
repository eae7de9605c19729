"""Several server processes on one database: a lease per table fences every commit, a table is
served by its owner only (the others send the client there), a dead owner's tables are taken
over from the journal, and what a client saw is never lost.  In one process here (two apps on
one SQLite file, as ``mushka serve --join`` runs them); the real processes behind HAProxy and
PostgreSQL are in test_server_cluster.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from serverkit import OPEN, PROTOCOL_VERSION, Player, config, create
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from storekit import snapshot

from mushka.records import Record, replay
from mushka.server import create_app
from mushka.server.sqlstore import SqlStore, StorageError
from mushka.server.store import Move, NodeInfo, Save, SeatSnapshot
from mushka.server.writer import LeaseLost, Writer

# Long parties with no special hand: a game goes on for as long as a test needs it.
CALM = {"initial_record": 300, "flush": "none", "privileged_four": "none"}


def node(name: str, pid: int | None = None) -> NodeInfo:
    return NodeInfo(instance=os.urandom(8).hex(), name=name, host=socket.gethostname(), pid=pid or os.getpid())


def two_stores(tmp_path: Path) -> tuple[SqlStore, SqlStore]:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    a, b = SqlStore(url), SqlStore(url)
    a.register(node("a"), ttl=5.0, join=True)
    b.register(node("b"), ttl=5.0, join=True)
    return a, b


def test_a_lease_taken_over_fences_the_old_owners_commits(tmp_path: Path) -> None:
    a, b = two_stores(tmp_path)
    try:
        a.commit([Save("t1", version=0, ply=0, status="playing", new=snapshot("t1", status="playing"))])
        assert a.owned == {"t1"}
        # Held and renewed: nobody else may take it, and it is shown as a's.
        assert not b.claim("t1", 5.0)
        place = b.placement("t1")
        assert place is not None and place.owner == "a" and not place.mine
        assert a.commit([Save("t1", version=1, ply=1, status="playing", moves=(Move(1, 1, "pass"),))]) == set()
        # a stops renewing (paused past its lease): the lease runs out, b takes the table.
        a.leases.ttl_ms = 1
        a.commit([Save("t1", version=2, ply=2, status="playing", moves=(Move(2, 1, "pass"),))])
        time.sleep(0.01)
        assert b.claim_expired(5.0, 10) == ["t1"]
        assert b.owned == {"t1"} and b.placement("t1").mine  # type: ignore[union-attr]
        # a, continued (its leases last as long as ever again), cannot store anything for t1 any
        # more: its save is left out, and it is told.
        a.leases.ttl_ms = 5000
        refused = a.commit([Save("t1", version=3, ply=3, status="playing", moves=(Move(3, 1, "stand"),)),
                            Save("t2", version=0, ply=0, status="waiting", new=snapshot("t2"))])
        assert refused == {"t1"} and a.owned == {"t2"}
        assert b.commit([Save("t1", version=3, ply=3, status="playing", moves=(Move(3, 1, "pass"),))]) == set()
        moves = sqlite3.connect(tmp_path / "shared.db").execute(
            "SELECT version, action FROM mushka_moves WHERE table_id = 't1' ORDER BY version").fetchall()
        assert moves == [(1, "pass"), (2, "pass"), (3, "pass")]  # a's third move never landed
        # And a's renewal says so too.
        assert a.renew(5.0) == set() and a.owned == {"t2"}
    finally:
        a.close()
        b.close()


def test_the_writer_tells_a_table_its_lease_is_lost(tmp_path: Path) -> None:
    a, b = two_stores(tmp_path)

    async def run() -> None:
        writer = Writer(a)
        writer.start()
        await writer.write(Save("t1", version=0, ply=0, status="playing", new=snapshot("t1", status="playing")))
        a.leases.ttl_ms = 1
        await writer.run(lambda: a.renew(0.001))
        await asyncio.sleep(0.01)
        assert await asyncio.to_thread(b.claim, "t1", 5.0)
        with pytest.raises(LeaseLost):
            await writer.write(Save("t1", version=1, ply=1, status="playing", moves=(Move(1, 1, "pass"),)))
        await writer.close()

    try:
        asyncio.run(run())
        moves = sqlite3.connect(tmp_path / "shared.db").execute("SELECT count(*) FROM mushka_moves").fetchone()
        assert moves == (0,)
    finally:
        a.close()
        b.close()


def test_a_second_server_on_a_sqlite_file_refuses_to_start_unless_it_joins(tmp_path: Path) -> None:
    a, b = two_stores(tmp_path)
    try:
        other = SqlStore(a.url)
        with pytest.raises(StorageError) as refused:
            other.check_node("c", ttl=5.0, join=False)
        said = refused.value.message("en")
        assert refused.value.code == "database_in_use" and "node a" in said and str(os.getpid()) in said
        assert "--join" in said and "--join" in refused.value.message("ru")
        other.check_node("c", ttl=5.0, join=True)
        with pytest.raises(StorageError) as taken:
            other.check_node("a", ttl=5.0, join=True)
        assert taken.value.code == "node_taken"
        other.close()
    finally:
        a.close()
        b.close()


def test_a_dead_process_of_this_machine_gives_its_tables_up_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    gone = os.fork()
    if gone == 0:
        os._exit(0)
    os.waitpid(gone, 0)
    old = SqlStore(url)
    old.register(node("old", pid=gone), ttl=60.0, join=True)  # a process that has ended since
    old.commit([Save("t1", version=0, ply=0, status="playing", new=snapshot("t1", status="playing"))])
    old.close()
    new = SqlStore(url)
    try:
        new.check_node("new", ttl=60.0, join=False)  # a dead process is not in the way
        new.register(node("new"), ttl=60.0, join=False)
        assert new.claim_expired(60.0, 10) == ["t1"]  # without waiting for the minute's lease
    finally:
        new.close()


def test_a_process_of_this_machine_that_dies_while_others_run_frees_its_tables_at_the_next_claim(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    survivor = SqlStore(url)
    survivor.register(node("survivor"), ttl=60.0, join=True)
    # The other node's process, alive while it registers and stores a table, then killed.
    child = os.fork()
    if child == 0:
        time.sleep(60)
        os._exit(0)
    doomed = SqlStore(url)
    try:
        doomed.register(node("doomed", pid=child), ttl=60.0, join=True)
        doomed.commit([Save("t1", version=0, ply=0, status="playing", new=snapshot("t1", status="playing"))])
        # Alive, with a minute of lease left: not the survivor's to take.
        assert survivor.claim_expired(60.0, 10) == []
        os.kill(child, 9)
        os.waitpid(child, 0)
        assert survivor.claim_expired(60.0, 10) == ["t1"]  # at once, not in a minute
        assert "doomed" not in {n.name for n in survivor.live_nodes(60.0)}
        # The dead node can store nothing for it any more.
        assert doomed.commit([Save("t1", version=1, ply=1, status="playing", moves=(Move(1, 1, "pass"),))]) == {"t1"}
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(child, 9)
            os.waitpid(child, 0)
        doomed.close()
        survivor.close()


def node_client(tmp_path: Path, name: str, **overrides: object) -> TestClient:
    """A client of node ``name`` on the shared SQLite file (not started)."""
    values = {"lease": 1.0, "join": True, "bot_delay": 0.05, **overrides}
    return TestClient(create_app(config(tmp_path, node=name, **values)))


@contextlib.contextmanager
def apps(tmp_path: Path, **overrides: object) -> Iterator[tuple[TestClient, TestClient]]:
    """Two running nodes, ``a`` and ``b``, on one SQLite file."""
    with node_client(tmp_path, "a", **overrides) as a, node_client(tmp_path, "b", **overrides) as b:
        try:
            yield a, b
        finally:
            # An open test WebSocket would keep an app from shutting down after a failure.
            for client in (a, b):
                for player in OPEN.pop(id(client), []):
                    player.close()


def test_a_table_is_served_by_its_owner_and_the_others_send_clients_there(tmp_path: Path) -> None:
    with apps(tmp_path) as (a, b):
        made = create(a, variant="classic", seats=["bot:random"] * 4, start=True, options=CALM)
        table_id = made["table"]["id"]
        assert made["node"] == "a" and made["ws"] == f"/ws/tables/{table_id}?node=a"
        moved = b.get(f"/api/tables/{table_id}?lang=ru", follow_redirects=False)
        assert moved.status_code == 307 and moved.json()["error"]["code"] == "moved"
        assert moved.headers["location"].endswith(f"/api/tables/{table_id}?lang=ru&node=a")
        assert a.get(f"/api/tables/{table_id}").status_code == 200
        joined = b.post(f"/api/tables/{table_id}/join", json={}, follow_redirects=False)
        assert joined.status_code == 307
        watcher = Player(b, table_id, hello=False)
        watcher.send({"type": "hello", "protocol": PROTOCOL_VERSION})
        told = watcher.recv()
        assert told == {"type": "moved", "table": table_id, "node": "a"}
        assert watcher.closed() == 4307
        watcher.close()
        # The lobby of either node lists the same tables, from the store.
        listed = [{t["id"] for t in c.get("/api/tables").json()["tables"]} for c in (a, b)]
        assert listed[0] == listed[1]
        owners = [c.get("/api/health").json() for c in (a, b)]
        assert owners[0]["owned_tables"] == [table_id] and owners[1]["owned"] == 0
        assert owners[0]["lease"]["current"] and sorted(owners[0]["nodes"]) == ["a", "b"]


def test_a_stopped_nodes_tables_go_on_at_another_from_where_they_were(tmp_path: Path) -> None:
    a, b = node_client(tmp_path, "a"), node_client(tmp_path, "b")
    with b:
        with a:
            made = create(a, variant="classic", seats=["me", "bot:random", "bot:random", "bot:random"],
                          start=True, options=CALM, turn_seconds=60)
            table_id, token = made["table"]["id"], made["tokens"][0]["token"]
            me = Player(a, table_id, token)
            view = me.wait_turn()
            me.send({"type": "chat", "phrase": "hello"})
            me.until(lambda m: m["type"] == "chat")
            seen = me.version
            me.close()
        # a stopped (its leases released): b takes the table over within a pass or two.
        deadline = time.monotonic() + 10
        while b.get("/api/health").json()["owned"] == 0:
            assert time.monotonic() < deadline, "nobody took the table over"
            time.sleep(0.1)
        back = Player(b, table_id, hello=False)
        back.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token, "since": seen})
        assert back.recv()["type"] == "welcome"
        assert back.recv() == {"type": "resumed", "version": seen}  # nothing to reload
        clock = back.until(lambda m: m["type"] == "clock")
        assert clock["seat"] == 0 and 0 < clock["remaining"] <= 60
        back.close()
        # A new connection gets the same view, and the chat said before.
        again = Player(b, table_id, token)
        assert again.version == seen and again.view == view
        said = again.until(lambda m: m["type"] == "chat")
        assert said["phrase"] == "hello" and said["past"] is True
        again.act(view["deal"]["legal"][0])
        assert again.until(lambda m: m["type"] == "update")["version"] == seen + 1
        again.close()


def test_a_table_taken_over_while_its_owner_was_paused_is_handed_over(tmp_path: Path) -> None:
    with apps(tmp_path, lease=30.0) as (a, b):
        made = create(a, variant="classic", seats=["me", "bot:random", "bot:random", "bot:random"],
                      start=True, options=CALM)
        table_id, token = made["table"]["id"], made["tokens"][0]["token"]
        me = Player(a, table_id, token)
        view = me.wait_turn()
        seen = me.version
        # As if a had been stopped past its lease: its lease runs out (and stays out: a renewal
        # of a's falling in this window is undone, as a stopped process renews nothing) and b
        # claims the table.
        db = sqlite3.connect(tmp_path / "mushka-test.db")
        (owner,) = db.execute("SELECT owner FROM mushka_leases WHERE table_id = ?", (table_id,)).fetchone()
        deadline = time.monotonic() + 10
        while b.get("/api/health").json()["owned"] == 0:
            assert time.monotonic() < deadline, "b did not claim the table"
            with db:
                db.execute("UPDATE mushka_leases SET expires_ms = 0 WHERE table_id = ? AND owner = ?",
                           (table_id, owner))
            time.sleep(0.1)
        db.close()
        # a, going on, finds its commit refused: the move is never sent, and the page is sent to b.
        me.act(view["deal"]["legal"][0])
        told = me.until(lambda m: m["type"] in ("moved", "update", "error") and m.get("code") != "taken_over")
        assert told["type"] == "moved" and told["node"] == "b"
        assert me.version == seen
        assert a.get("/api/health").json()["owned"] == 0
        # At b the table is where everybody last saw it.
        me.close()
        there = Player(b, table_id, token)
        assert there.version == seen and there.view == view
        there.close()
    stored = SqlStore(f"sqlite:///{tmp_path / 'mushka-test.db'}", migrate=False)
    try:
        snap = stored.load(table_id)
        assert snap is not None and snap.version == seen
        record = Record.from_json({"format": "mushka-record", "version": 1, "variant": "classic", "players": 4,
                                   "options": snap.options, "level": "game", "first_dealer": snap.first_dealer,
                                   "deals": [json.loads(d) for _, d in snap.deals]})
        assert replay(record) is not None
    finally:
        stored.close()


def test_p13_only_the_hosts_the_server_is_known_by_are_served(tmp_path: Path) -> None:
    app = create_app(config(tmp_path, allowed_hosts=("cards.example.org",),
                            public_url="https://mushka.example.net/"))
    with TestClient(app) as client:
        for good in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "192.168.1.20", "raspberrypi:8000",
                     "cards.example.org", "MUSHKA.example.net", "kitchen.local"):
            assert client.get("/api/meta", headers={"host": good}).status_code == 200, good
        refused = client.get("/api/meta", headers={"host": "rebind.attacker.example"})
        assert refused.status_code == 421 and "P13" in refused.text and "P13" in refused.text.split("/")[-1]
        posted = client.post("/api/tables", json={}, headers={"host": "rebind.attacker.example",
                                                              "origin": "http://rebind.attacker.example"})
        assert posted.status_code == 421
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                "/ws/tables/x", headers={"host": "rebind.attacker.example"}) as ws:
            ws.receive_text()
        assert closed.value.code == 4403  # refused before the handshake: the browser sees a 403


def test_p12_a_table_nobody_came_to_ends_after_the_grace_time(tmp_path: Path) -> None:
    # Bots that take their time: a bots-only table played at full speed can end before the quota
    # is asked about, and an ended table rightly counts for nothing.
    with TestClient(create_app(config(tmp_path, grace=0.5, bot_delay=0.2, bot_tables=3,
                                      bot_tables_per_address=2))) as client:
        ghosts = [create(client, variant="classic", seats=["me", "bot:random", "bot:random", "bot:random"],
                         start=True, options=CALM)["table"]["id"] for _ in range(2)]
        deadline = time.monotonic() + 5
        while any(client.get(f"/api/tables/{t}").json()["status"] != "over" for t in ghosts):
            assert time.monotonic() < deadline, "a table nobody came to went on"
            time.sleep(0.05)
        assert client.get(f"/api/records/{ghosts[0]}").json()["error"]["code"] == "no_record"
        assert ghosts[0] not in {r["id"] for r in client.get("/api/records").json()["records"]}
        # Over, they count for nothing: this address may make its two tables of bots only.
        for _ in range(2):
            assert client.post("/api/tables", json={"seats": ["bot:random"] * 4, "start": True}).status_code == 201
        assert client.post("/api/tables", json={"seats": ["bot:random"] * 4, "start": True}).status_code == 429
        # A table its person came to goes on past the grace time.
        made = create(client, variant="classic", seats=["me", "bot:random", "bot:random", "bot:random"],
                      start=True, options=CALM)
        me = Player(client, made["table"]["id"], made["tokens"][0]["token"])
        time.sleep(0.8)
        assert client.get(f"/api/tables/{made['table']['id']}").json()["status"] == "playing"
        me.close()


def test_p12_a_seat_nobody_claimed_within_the_grace_time_counts_as_a_bot_seat(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'quota.db'}")
    try:
        made = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        person = (SeatSnapshot(0, "human", "Анна", None, "h0"), SeatSnapshot(1, "bot", None, "random"),
                  SeatSnapshot(2, "bot", None, "random"))
        bots = tuple(SeatSnapshot(n, "bot", None, "random") for n in range(3))
        store.create(snapshot("ghost", status="playing", seats=person, created=made, address="192.0.2.1"))
        store.create(snapshot("came", status="playing", seats=person, created=made, address="192.0.2.1",
                              joined=made + timedelta(seconds=3)))
        store.create(snapshot("bots", status="playing", seats=bots, created=made, address="192.0.2.2"))
        store.create(snapshot("done", status="over", seats=bots, created=made, address="192.0.2.1"))
        # Within the grace time (it ends 10 s after the making) only the bots' own table counts.
        assert store.bot_tables("192.0.2.1", made - timedelta(seconds=1)) == (1, 0)
        # Past it, the table nobody came to counts as one of bots only, for its address too.
        assert store.bot_tables("192.0.2.1", made + timedelta(seconds=10)) == (2, 1)
        assert store.bot_tables("192.0.2.2", made + timedelta(seconds=10)) == (2, 1)
    finally:
        store.close()


def test_a_rematch_link_is_kept_in_storage(tmp_path: Path) -> None:
    with TestClient(create_app(config(tmp_path))) as client:
        made = create(client, variant="classic", players=3, seats=["me", "bot:random", "bot:random"], start=True,
                      options={"initial_record": 3, "flush": "none", "privileged_four": "none"})
        table_id = made["table"]["id"]
        me = Player(client, table_id, made["tokens"][0]["token"])
        while not me.over():
            view = me.wait_turn()
            if not me.over():
                ply = me.ply
                me.act(view["deal"]["legal"][0])
                me.until(lambda m, ply=ply: m["type"] == "update" and m["ply"] > ply)
        me.send({"type": "rematch"})
        nxt = me.until(lambda m: m["type"] == "table" and m["table"]["next"])["table"]["next"]
        me.close()
    stored = SqlStore(f"sqlite:///{tmp_path / 'mushka-test.db'}", migrate=False)
    try:
        snap = stored.load(table_id)
        assert snap is not None and snap.next_id == nxt
    finally:
        stored.close()


def test_a_damaged_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    store = SqlStore(f"sqlite:///{path}")
    store.create(snapshot("t1"))
    store.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 8192] = os.urandom(8192)[: len(data) - middle]
    path.write_bytes(bytes(data))
    with pytest.raises(StorageError) as refused:
        SqlStore(f"sqlite:///{path}")
    assert refused.value.code == "damaged" and "\n" not in refused.value.message("en")
    assert "резервной копии" in refused.value.message("ru")
    (tmp_path / "not-a.db").write_bytes(os.urandom(8192))
    with pytest.raises(StorageError) as garbage:
        SqlStore(f"sqlite:///{tmp_path / 'not-a.db'}")
    assert garbage.value.code == "damaged"


def test_a_claimed_table_asked_for_while_it_is_brought_back_is_brought_back_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A client may ask for a table in the moment after this process claimed it and before it
    # was brought back: both must end with the one copy (two would both play, and store the
    # same versions twice).
    from mushka.server.lobby import Lobby
    from mushka.server.table import ServerTable

    with node_client(tmp_path, "a") as a:
        made = create(a, variant="classic", seats=["me", "bot:random", "bot:random"], start=True, options=CALM)
    table_id = made["table"]["id"]
    built: list[ServerTable] = []
    original = ServerTable.restore.__func__  # type: ignore[attr-defined]

    def counted(cls: type[ServerTable], services: Any, snap: Any) -> ServerTable:
        table: ServerTable = original(cls, services, snap)
        built.append(table)
        return table

    async def scenario() -> None:
        store = SqlStore(f"sqlite:///{tmp_path / 'mushka-test.db'}")
        lobby = Lobby(config(tmp_path, node="b", join=True, lease=60.0), store)
        await lobby.open()  # alone on the database: it claims and brings back the table
        try:
            assert list(lobby.tables) == [table_id]
            first = lobby.tables.pop(table_id)
            await first.close()
            built.clear()
            monkeypatch.setattr(ServerTable, "restore", classmethod(counted))
            _, got = await asyncio.gather(lobby._adopt([table_id]), lobby.get(table_id))
            assert len(built) == 1
            assert lobby.tables[table_id] is got is built[0]
        finally:
            await lobby.close()
            store.close()

    asyncio.run(scenario())
