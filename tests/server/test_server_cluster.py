"""Real server processes on one store: PostgreSQL, three ``mushka serve`` nodes and HAProxy
(the shipped ``deploy/haproxy.cfg``) on loopback ports, and clients that play through the
proxy from several loopback addresses (:mod:`clusterkit`).

What is checked is what the service promises (docs/deploy.md): one owner per table at
every moment, a dead or paused process's tables resumed by the others from the journal
with no version anybody saw lost, every stored game replaying, and storage that neither
refuses a burst of new tables nor lets its write-ahead log grow without bound."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from clusterkit import (
    Rig,
    SeatClient,
    create_table,
    engine_of,
    http_client,
    owners,
    play,
    quarantined,
    replays,
    rig,
    serve_options,
    source_addresses,
    stored_tables,
    stored_versions,
    wait_for,
)
from pgkit import Cluster, throwaway

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster")]

# Long parties with no special hand: a game goes on for as long as a test needs it.
CALM = {"initial_record": 300, "flush": "none", "privileged_four": "none"}
SEATS = ["me", "bot:random", "bot:random"]


@pytest.fixture(scope="module")
def pg() -> Iterator[Cluster]:
    """A PostgreSQL server of this module's own (pgkit), torn down at the end."""
    with throwaway(max_connections=200) as made:
        yield made


async def make_tables(base: str, count: int, *, listed: bool = False, seats: Sequence[str] = SEATS,
                      start: bool = True, options: dict[str, object] | None = None,
                      sources: int = 6, at_once: int = 24) -> list[dict[str, object]]:
    """``count`` tables made through ``base`` from ``sources`` loopback addresses."""
    addresses = source_addresses(sources)
    clients = [http_client(base, source) for source in addresses]
    gate = asyncio.Semaphore(at_once)

    async def one(n: int) -> dict[str, object]:
        async with gate:
            return await create_table(clients[n % len(clients)], variant="classic", players=len(seats),
                                      seats=list(seats), start=start, listed=listed and n % 10 == 0,
                                      options=options if options is not None else CALM)

    try:
        return list(await asyncio.gather(*(one(n) for n in range(count))))
    finally:
        for c in clients:
            await c.aclose()


def seat_clients(base: str, made: Sequence[dict[str, object]], *, think: float, spectators: int = 0,
                 sources: int = 6) -> list[SeatClient]:
    """A playing client for each table's first seat (and ``spectators`` watching ones), each
    from one of ``sources`` loopback addresses."""
    addresses = source_addresses(sources)
    out: list[SeatClient] = []
    for n, m in enumerate(made):
        table = m["table"]
        tokens = m["tokens"]
        assert isinstance(table, dict) and isinstance(tokens, list)
        node = str(m["node"]) if m.get("node") else None
        out.append(SeatClient(base, table["id"], tokens[0]["token"], node=node, source=addresses[n % sources],
                              think=think, stall=4.0))
        out += [SeatClient(base, table["id"], None, play=False, source=addresses[(n + k + 1) % sources], stall=None)
                for k in range(spectators)]
    return out


def table_ids(made: Sequence[dict[str, object]]) -> list[str]:
    return [str(m["table"]["id"]) for m in made]  # type: ignore[index]


def assert_seen_versions_kept(clients: Sequence[SeatClient]) -> None:
    """No client ever saw a version go back; every reconnection got at least the version
    it had, and the next change after it was one higher."""
    for c in clients:
        assert c.backwards == [], (c.table_id, c.backwards)
        for r in c.reconnects:
            assert r.got >= r.had, (c.table_id, r)
            assert r.next is None or r.next == r.got + 1, (c.table_id, r)


def assert_all_replay(cluster_rig: Rig, ids: Sequence[str]) -> None:
    engine = engine_of(cluster_rig.database_url)
    try:
        assert quarantined(engine) == 0
    finally:
        engine.dispose()
    assert replays(cluster_rig.database_url, ids) == {}


def single_owners(cluster_rig: Rig, skip: Sequence[str] = ()) -> dict[str, list[str]]:
    """Who owns what, by the nodes' own word; fails if any table has two owners."""
    healths = {name: h for name, h in cluster_rig.healths().items() if name not in skip}
    seen = owners(healths)
    doubled = {t: names for t, names in seen.items() if len(names) > 1}
    assert doubled == {}, doubled
    return seen


# --- the tests -----------------------------------------------------------------------------------


def test_three_cold_starts_at_once_on_an_empty_database_all_come_up(pg: Cluster, tmp_path: Path) -> None:
    url = pg.new_database()
    with rig(tmp_path / "logs", url, count=3, proxy=False) as made:
        healths = made.healths()
        assert sorted(healths) == ["s1", "s2", "s3"]
        assert all(h["status"] == "ok" and h["lease"]["current"] for h in healths.values())
        # Each node reads the live nodes at most once a second: s1 sees the others soon after.
        assert asyncio.run(wait_for(lambda: sorted(made.node("s1").health()["nodes"]) == ["s1", "s2", "s3"], 5))
        engine = engine_of(url)
        try:
            with engine.connect() as conn:
                versions = conn.exec_driver_sql("SELECT version_num FROM alembic_version").fetchall()
        finally:
            engine.dispose()
        assert len(versions) == 1  # migrated once, by one of them


def test_hundreds_of_tables_have_one_owner_each_and_every_lobby_matches_the_store(
        pg: Cluster, tmp_path: Path) -> None:
    url = pg.new_database()
    with rig(tmp_path / "logs", url, options=serve_options(bot_delay=0.5)) as made:

        async def scenario() -> None:
            tables = await make_tables(made.url, 300, listed=True)
            ids = table_ids(tables)
            assert len(set(ids)) == 300
            # Each table lives where it was made, and says so.
            spread = {str(t["node"]) for t in tables}
            assert spread == {"s1", "s2", "s3"}, spread
            clients = seat_clients(made.url, tables, think=1.5)
            stop = asyncio.Event()
            playing = asyncio.create_task(play(clients, 60, stop=stop))
            try:
                held: set[str] = set()
                for _ in range(5):
                    await asyncio.sleep(2)
                    seen = await asyncio.to_thread(single_owners, made)
                    held |= set(seen)
                    await lobbies_match_the_store(made)
                assert held == set(ids)
            finally:
                stop.set()
                await playing
            assert sum(c.acted for c in clients) > 300
            assert_seen_versions_kept(clients)
            assert all(c.errors == [] for c in clients), [c.errors for c in clients if c.errors][:3]

        asyncio.run(scenario())


async def lobbies_match_the_store(made: Rig) -> None:
    """Every node's lobby lists the store's listed tables within a second."""
    engine = engine_of(made.database_url)
    try:
        stored = {t for t, row in stored_tables(engine).items()
                  if row["listed"] and row["status"] in ("waiting", "playing")}
    finally:
        engine.dispose()
    assert stored, "some tables are listed"

    async def agrees(node_url: str) -> bool:
        async with httpx.AsyncClient(base_url=node_url, timeout=10) as http:
            for _ in range(12):
                listed = {t["id"] for t in (await http.get("/api/tables")).json()["tables"]}
                if listed == stored:
                    return True
                await asyncio.sleep(0.1)
        return False

    found = await asyncio.gather(*(agrees(n.url) for n in made.live()))
    assert all(found), dict(zip([n.name for n in made.live()], found, strict=True))


def test_a_killed_process_s_tables_resume_on_the_others_and_a_reconnection_storm_gets_through(
        pg: Cluster, tmp_path: Path) -> None:
    url = pg.new_database()
    with rig(tmp_path / "logs", url, options=serve_options(bot_delay=0.3, lease=3.0)) as made:

        async def scenario() -> None:
            tables = await make_tables(made.url, 100)
            ids = table_ids(tables)
            # Three sockets a table: its player and two spectators, from six addresses.
            clients = seat_clients(made.url, tables, think=0.5, spectators=2)
            assert len(clients) == 300
            stop = asyncio.Event()
            playing = asyncio.create_task(play(clients, 90, stop=stop))
            try:
                await wait_for(lambda: all(c.connected for c in clients), 20)
                await asyncio.sleep(3)
                seen = await asyncio.to_thread(single_owners, made)
                victim = max(("s1", "s2", "s3"), key=lambda n: sum(1 for o in seen.values() if o == [n]))
                its = sorted(t for t, o in seen.items() if o == [victim])
                assert its, seen
                before = await asyncio.to_thread(stored_versions, made.database_url, its)
                killed = time.monotonic()
                await asyncio.to_thread(made.node(victim).kill)

                def taken_over() -> bool:
                    now = single_owners(made)
                    return all(t in now for t in its)

                assert await wait_for(taken_over, 20, step=0.5), "the others did not take every table over"
                took = time.monotonic() - killed
                assert took <= 15, took
                mine = [c for c in clients if c.table_id in set(its)]

                def all_back() -> bool:
                    return all(c.connected and c.reconnects for c in mine)

                assert await wait_for(all_back, 30), [
                    (c.table_id, c.connected, c.closes) for c in mine if not (c.connected and c.reconnects)][:5]

                def moved_on() -> bool:
                    now = stored_versions(made.database_url, its)
                    return all(now[t] > before[t] for t in its)

                assert await wait_for(lambda: moved_on(), 30, step=0.5), "a taken-over table did not go on"
                # The killed process comes back: it takes new work, never its old tables twice.
                await asyncio.to_thread(made.node(victim).restart)
                for _ in range(3):
                    await asyncio.sleep(1)
                    await asyncio.to_thread(single_owners, made)
            finally:
                stop.set()
                await playing
            assert_seen_versions_kept(clients)
            limits = ("rate_limited", "too_many_connections")
            refused = [e for c in clients for e in c.errors if e.get("code") in limits]
            assert refused == []
            assert_all_replay(made, ids)

        asyncio.run(scenario())


def test_a_process_stopped_past_its_lease_loses_its_tables_and_stores_nothing_for_them(
        pg: Cluster, tmp_path: Path) -> None:
    url = pg.new_database()
    with rig(tmp_path / "logs", url, options=serve_options(bot_delay=0.2, lease=2.0)) as made:

        async def scenario() -> None:
            tables = await make_tables(made.url, 45)
            ids = table_ids(tables)
            clients = seat_clients(made.url, tables, think=0.3)
            stop = asyncio.Event()
            playing = asyncio.create_task(play(clients, 90, stop=stop))
            try:
                await wait_for(lambda: all(c.connected for c in clients), 20)
                await asyncio.sleep(2)
                seen = await asyncio.to_thread(single_owners, made)
                its = sorted(t for t, o in seen.items() if o == ["s2"])
                assert its, seen
                paused = made.node("s2")
                paused.pause()
                try:
                    def taken_over() -> bool:
                        now = single_owners(made, skip=("s2",))
                        return all(t in now for t in its)

                    assert await wait_for(taken_over, 20, step=0.5)
                    await asyncio.sleep(2)  # the others play on meanwhile
                finally:
                    paused.resume()
                # Continued, it finds the leases gone: it drops the tables, stores nothing for them.
                def dropped() -> bool:
                    return not set(paused.health()["owned_tables"]) & set(its)

                assert await wait_for(dropped, 10, step=0.3)
                for _ in range(3):
                    await asyncio.sleep(1)
                    await asyncio.to_thread(single_owners, made)
                mine = [c for c in clients if c.table_id in set(its)]
                assert await wait_for(lambda: all(c.connected for c in mine), 30)
            finally:
                stop.set()
                await playing
            assert "lost the lease" in paused.log.read_text(errors="replace")
            assert_seen_versions_kept(clients)
            assert_all_replay(made, ids)

        asyncio.run(scenario())


def test_postgresql_restarted_under_load_stalls_the_tables_then_they_resume(pg: Cluster, tmp_path: Path) -> None:
    url = pg.new_database()
    with rig(tmp_path / "logs", url, options=serve_options(bot_delay=0.2, lease=5.0)) as made:

        async def scenario() -> None:
            tables = await make_tables(made.url, 45)
            ids = table_ids(tables)
            clients = seat_clients(made.url, tables, think=0.3)
            stop = asyncio.Event()
            playing = asyncio.create_task(play(clients, 120, stop=stop))
            try:
                await wait_for(lambda: all(c.connected for c in clients), 20)
                await asyncio.sleep(2)
                await asyncio.to_thread(pg.restart)
                after = await asyncio.to_thread(stored_versions, made.database_url, ids)

                def resumed() -> bool:
                    now = stored_versions(made.database_url, ids)
                    return all(now[t] > after[t] for t in ids)

                assert await wait_for(resumed, 40, step=0.5), "a table did not resume after the restart"
                healths = await asyncio.to_thread(made.healths)
                assert sorted(healths) == ["s1", "s2", "s3"]
                await asyncio.to_thread(single_owners, made)
            finally:
                stop.set()
                await playing
            assert_seen_versions_kept(clients)
            assert_all_replay(made, ids)

        asyncio.run(scenario())


def test_two_servers_on_one_sqlite_file_never_play_the_same_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with rig(tmp_path / "logs", url, count=2, options=serve_options(bot_delay=0.2, extra=["--join"])) as made:

        async def scenario() -> None:
            tables = await make_tables(made.url, 30)
            ids = table_ids(tables)
            assert {str(t["node"]) for t in tables} == {"s1", "s2"}
            clients = seat_clients(made.url, tables, think=0.2)
            stop = asyncio.Event()
            playing = asyncio.create_task(play(clients, 60, stop=stop))
            try:
                for _ in range(6):
                    await asyncio.sleep(1.5)
                    await asyncio.to_thread(single_owners, made)
            finally:
                stop.set()
                await playing
            assert sum(c.acted for c in clients) > 60
            assert_seen_versions_kept(clients)
            assert_all_replay(made, ids)

        asyncio.run(scenario())


def test_a_thousand_tables_made_at_once_while_five_hundred_play_are_all_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'burst.db'}"
    options = serve_options(bot_delay=1.0, bot_tables=2000, extra=["--max-tables", "2000"])
    with rig(tmp_path / "logs", url, count=1, proxy=False, options=options) as made:

        async def scenario() -> None:
            bots = ["bot:random"] * 3
            playing = await make_tables(made.url, 500, seats=bots)
            # All at once: 1,000 requests in flight from eight addresses.
            burst = await make_tables(made.url, 1000, seats=["me", "bot:random", "bot:random"], start=False,
                                      sources=8, at_once=1000)
            ids = table_ids(playing) + table_ids(burst)
            engine = engine_of(url)
            try:
                stored = stored_tables(engine)
            finally:
                engine.dispose()
            assert set(ids) <= set(stored)
            assert sum(1 for t in table_ids(playing) if stored[t]["status"] == "playing") == 500

        asyncio.run(scenario())
        assert "Traceback" not in made.nodes[0].log.read_text(errors="replace")


def test_the_write_ahead_log_stays_bounded_over_a_long_bots_only_run(tmp_path: Path) -> None:
    database = tmp_path / "wal.db"
    wal = Path(f"{database}-wal")
    options = serve_options(bot_delay=0.0, bot_tables=100, extra=["--bot-workers", "1"])
    with rig(tmp_path / "logs", f"sqlite:///{database}", count=1, proxy=False, options=options) as made:

        async def scenario() -> tuple[int, int]:
            short = {"initial_record": 5}
            await make_tables(made.url, 24, seats=["bot:random"] * 4, options=short)
            largest, games = 0, 0
            loop = asyncio.get_running_loop()
            end = loop.time() + 45
            async with httpx.AsyncClient(base_url=made.url, timeout=10) as http:
                while loop.time() < end:
                    await asyncio.sleep(0.2)
                    largest = max(largest, wal.stat().st_size if wal.exists() else 0)
                    over = (await http.get("/api/records?limit=100")).json()["records"]
                    if len(over) > games:
                        games = len(over)
                    live = (await http.get("/api/health")).json()["playing"]
                    if live < 24:  # finished games make room for new ones: the load goes on
                        await make_tables(made.url, 24 - live, seats=["bot:random"] * 4, options=short)
            return largest, games

        largest, games = asyncio.run(scenario())
        assert games > 10, games
        assert largest < 64 * 1024 * 1024, largest
        # uvicorn shuts down cleanly, then ends the process with the signal that stopped it (as
        # systemd expects of a service); what shows that the stop was clean is the empty WAL below.
        assert made.nodes[0].stop() in (0, -signal.SIGTERM)
    # A clean stop leaves the whole database in its file.
    assert not wal.exists() or wal.stat().st_size == 0
    assert os.path.getsize(database) > 0
