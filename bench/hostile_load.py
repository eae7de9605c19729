"""Hostile load on ``mushka serve``: the attacks of issue 11 against a live server, each
beside a quiet baseline, in one run.  On loopback only, every phase bounded in time.

The script fills a fresh SQLite database with finished games, starts ``mushka serve`` in
a child process (its own settings, as a user runs it) and keeps two honest clients busy
all along, from addresses of their own (127.0.0.2 and 127.0.0.3): one asks ``/api/health``
every 50 ms, the other plays a table (three seats over three WebSockets, an action every
quarter second) and times each ``act`` until its ``update``.  Then, phase by phase, an
attacker (127.0.0.1, or several addresses 127.0.0.10+ where the attack is meant to come
from many) does one thing:

- ``chunked``: four 64 MiB bodies without a length to ``POST /api/tables``;
- ``slowloris``: 300 sockets that send half a request and a byte now and then;
- ``reads``: eight clients asking for ``/api/records?limit=500`` and uncached replays;
- ``bot tables``: 29 seven-seat ``bot:search`` tables, from one address, then from ten;
- ``finished``: GETs of 60 finished games, then a new table (``--max-tables`` is small);
- ``resyncs``: 60 connections resyncing as fast as each one may;
- ``protocol``: deep JSON, loose types, a foreign Origin, ``text/plain`` bodies;
- ``lock``: another program holds an exclusive lock on the database for six seconds.

For each phase it prints the health latency (p50, p99, max), the player's act→update
latency and what the attack got; the machine's load average is printed before and after
(other work on the machine shows in every figure).

    python bench/hostile_load.py              # about two minutes per pool of bots
    python bench/hostile_load.py --phase 8    # shorter phases
    python bench/hostile_load.py --pools process --only "reads,bot tables"

By default the whole run is made twice, against a server whose bots think in worker
processes (``--bot-pool process``, the default) and then in threads (``--bot-pool
thread``, as before), each from the same stored games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

# The script's own folder is on the path when it runs: the view-patching helper is load_server's.
from load_server import changed

PROTOCOL = 2
PLAYER_ADDRESS = "127.0.0.2"
HEALTH_ADDRESS = "127.0.0.3"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def loadavg() -> str:
    return Path("/proc/loadavg").read_text(encoding="ascii").split(" ")[:3].__str__()


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- the database, filled before the server starts ------------------------------------------------


def fill(url: str, games: int) -> list[str]:
    """``games`` finished games of classic for three, played at random, stored as the server does."""
    from mushka.match import new_game
    from mushka.records import record_of_game
    from mushka.rules import Rules
    from mushka.server.sqlstore import SqlStore
    from mushka.server.store import SeatSnapshot, TableSnapshot

    rules = Rules.make("classic", 3)
    store = SqlStore(url)
    rng = random.Random(11)
    ids = []
    now = datetime.now(UTC)
    for n in range(games):
        game = new_game(rules, rng=random.Random(n))
        for _ in range(20_000):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        names = ["bot random"] * 3
        record = record_of_game(game, seats=names, meta={"table": f"old{n:05d}"}).dumps(indent=None)
        ply = sum(len(d.actions) for d in game.deals)
        ids.append(f"old{n:05d}")
        store.create(TableSnapshot(
            id=ids[-1], variant="classic", players=3, options=rules.options_text(), status="over", listed=True,
            host=None, autostart=True, version=ply + 2, ply=ply,
            seats=tuple(SeatSnapshot(i, "bot", None, "random") for i in range(3)), created=now,
            record=record, winner=None if game.result is None else game.result.winner, finished=now,
            first_dealer=game.first_dealer, names=tuple(names)))
    store.close()
    return ids


# --- the honest clients -----------------------------------------------------------------------------


@dataclass
class Samples:
    health: list[float] = field(default_factory=list)
    health_failed: int = 0
    storage: list[str] = field(default_factory=list)
    acts: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)

    def reset(self) -> None:
        self.health.clear()
        self.storage.clear()
        self.acts.clear()
        self.refused.clear()
        self.health_failed = 0


async def health_sampler(base: str, samples: Samples, stop: asyncio.Event) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=HEALTH_ADDRESS)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10.0) as client:
        while not stop.is_set():
            began = time.perf_counter()
            try:
                reply = await client.get("/api/health")
                samples.health.append((time.perf_counter() - began) * 1000)
                samples.storage.append(reply.json().get("storage", "?"))
            except (httpx.HTTPError, ValueError):
                samples.health_failed += 1
            await asyncio.sleep(0.05)


async def player(base: str, ws_base: str, samples: Samples, stop: asyncio.Event) -> None:
    """Three seats of one table, over three sockets; a new table when a game ends."""
    transport = httpx.AsyncHTTPTransport(local_address=PLAYER_ADDRESS)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10.0) as http:
        while not stop.is_set():
            made = (await http.post("/api/tables", json={
                "variant": "classic", "players": 3, "seats": ["me"] * 3, "start": True, "listed": False,
                "options": {"initial_record": 5}})).json()
            await play_table(ws_base, made, samples, stop)


async def play_table(ws_base: str, made: dict[str, Any], samples: Samples, stop: asyncio.Event) -> None:
    table_id = made["table"]["id"]
    sockets: list[ClientConnection] = []
    views: list[dict[str, Any] | None] = [None] * 3
    versions = [0, 0, 0]
    sent: dict[int, float] = {}
    over = asyncio.Event()
    try:
        for t in made["tokens"]:
            ws = await connect(f"{ws_base}/ws/tables/{table_id}", local_addr=(PLAYER_ADDRESS, 0), max_size=2**22)
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": t["token"]}))
            sockets.append(ws)

        async def listen(seat: int) -> None:
            async for text in sockets[seat]:
                m = json.loads(text)
                if m["type"] == "state":
                    views[seat], versions[seat] = m["view"], m["version"]
                elif m["type"] == "update":
                    views[seat], versions[seat] = changed(views[seat], m["view"]), m["version"]
                    if m["seat"] == seat and seat in sent:
                        samples.acts.append((time.perf_counter() - sent.pop(seat)) * 1000)
                elif m["type"] == "table":
                    versions[seat] = m["version"]
                    if m["table"]["status"] == "over":
                        over.set()
                elif m["type"] == "error":
                    samples.refused[m["code"]] = samples.refused.get(m["code"], 0) + 1
                    sent.pop(seat, None)
                    if m["code"] in ("stale", "storage_down"):
                        await asyncio.sleep(0.5)
                        with contextlib.suppress(Exception):
                            await sockets[seat].send(json.dumps({"type": "resync"}))

        listeners = [asyncio.create_task(listen(s)) for s in range(3)]
        try:
            while not stop.is_set() and not over.is_set():
                await asyncio.sleep(0.25)
                view = views[0]
                if view is None or view.get("result") is not None:
                    continue
                seat = view["deal"]["to_act"]
                mine = views[seat]
                if seat in sent or mine is None or not mine["deal"].get("legal"):
                    continue
                sent[seat] = time.perf_counter()
                await sockets[seat].send(json.dumps({"type": "act", "action": random.choice(mine["deal"]["legal"]),
                                                     "version": versions[seat]}))
        finally:
            for task in listeners:
                task.cancel()
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()


# --- the attacks --------------------------------------------------------------------------------------


async def chunked(port: int, pid: int, seconds: float) -> str:
    before = rss_mib(pid)
    answers = []

    async def one() -> str:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                     b"transfer-encoding: chunked\r\n\r\n")
        piece = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
        answer = asyncio.create_task(reader.read(200))  # the answer may come long before the end
        sent = 0
        try:
            for _ in range(1024):  # 64 MiB
                if answer.done():
                    break
                writer.write(piece)
                await writer.drain()
                sent += len(piece)
        except (ConnectionError, OSError):
            pass
        head = b""
        with contextlib.suppress(Exception):
            head = await asyncio.wait_for(answer, 5)
        writer.close()
        status = head.split(b"\r\n")[0].decode("ascii", "replace") or "no answer"
        return f"{status} after {sent / 2**20:.1f} MiB"

    began = time.monotonic()
    answers = await asyncio.gather(*(one() for _ in range(4)))
    await asyncio.sleep(max(0.0, seconds - (time.monotonic() - began)))
    return f"answers {sorted(set(answers))}; server memory {before:.0f} -> {rss_mib(pid):.0f} MiB"


async def slowloris(port: int, seconds: float) -> str:
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    for n in range(300):
        address = f"127.0.0.{10 + n % 10}"  # ten addresses, thirty sockets each
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            refused += 1
            continue
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append((reader, writer))
    one_address = []
    for _ in range(40):  # and from one address alone
        with contextlib.suppress(OSError):
            one_address.append(await asyncio.open_connection("127.0.0.1", port))
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        for _, writer in held:
            with contextlib.suppress(Exception):
                writer.write(b"X")  # a byte now and then
        await asyncio.sleep(1.0)
    still = sum(1 for r, _ in held if not r.at_eof() and not r.exception())
    for r, _ in held:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(r.read(), 0.01)
    still = sum(1 for r, _ in held if not r.at_eof())
    capped = 0
    for r, _ in one_address:
        with contextlib.suppress(Exception):
            if (await asyncio.wait_for(r.read(40), 0.5)).startswith(b"HTTP/1.1 429"):
                capped += 1
    for _, w in held + one_address:
        w.close()
    return (f"{len(held)} half-sent requests from 10 addresses: {still} still open after {seconds:.0f} s; "
            f"{capped} of 40 more from one address refused at once (429)")


async def reads(base: str, ids: list[str], seconds: float) -> str:
    counts: dict[int, int] = {}
    stop = time.monotonic() + seconds

    async def reader(n: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{20 + n}")
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30.0) as c:
            k = n
            while time.monotonic() < stop:
                path = "/api/records?limit=500" if k % 2 else f"/api/records/{ids[k % len(ids)]}/replay"
                k += 8
                with contextlib.suppress(httpx.HTTPError):
                    status = (await c.get(path)).status_code
                    counts[status] = counts.get(status, 0) + 1

    await asyncio.gather(*(reader(n) for n in range(8)))
    return f"8 readers from 8 addresses: answers {dict(sorted(counts.items()))}"


async def bot_tables(base: str, seconds: float) -> str:
    body = {"variant": "classic", "players": 7, "seats": ["bot:search"] * 7, "start": True, "listed": False}
    got: dict[int, int] = {}
    made = []
    async with httpx.AsyncClient(base_url=base, timeout=10.0) as c:
        for _ in range(29):
            reply = await c.post("/api/tables", json=body)
            got[reply.status_code] = got.get(reply.status_code, 0) + 1
    many: dict[int, int] = {}
    for n in range(10):
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{40 + n}")
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10.0) as c:
            for _ in range(3):
                reply = await c.post("/api/tables", json=body)
                many[reply.status_code] = many.get(reply.status_code, 0) + 1
                if reply.status_code == 201:
                    made.append(reply.json()["table"]["id"])
    await asyncio.sleep(seconds)
    return f"29 from one address: {got}; 30 more from 10 addresses: {many}"


async def finished(base: str, ids: list[str], seconds: float) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=10.0) as c:
        seen = 0
        for table_id in ids[:60]:
            if (await c.get(f"/api/tables/{table_id}")).status_code == 200:
                seen += 1
        tables = (await c.get("/api/health")).json()["tables"]
        reply = await c.post("/api/tables", json={"seats": ["me", "open", "open"], "players": 3, "listed": False})
    await asyncio.sleep(seconds)
    return f"{seen} finished games looked at; live tables in memory {tables}; a new table then: {reply.status_code}"


async def resyncs(base: str, ws_base: str, seconds: float) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=10.0) as c:
        made = (await c.post("/api/tables", json={"variant": "classic", "players": 7, "seats": ["me"] + ["open"] * 6,
                                                  "listed": False})).json()
    table_id = made["table"]["id"]
    received = [0]
    states = [0]
    stop = time.monotonic() + seconds

    async def one() -> None:
        async with connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))

            async def drain() -> None:
                async for text in ws:
                    received[0] += len(text)
                    if '"type":"state"' in text:
                        states[0] += 1

            task = asyncio.create_task(drain())
            while time.monotonic() < stop:
                with contextlib.suppress(Exception):
                    await ws.send(json.dumps({"type": "resync"}))
                await asyncio.sleep(0.2)  # five a second: what one connection may send
            task.cancel()

    await asyncio.gather(*(one() for _ in range(60)), return_exceptions=True)
    return f"60 connections resyncing 5/s for {seconds:.0f} s: {states[0]} states, {received[0] / 1e6:.2f} MB sent"


async def protocol(base: str, ws_base: str, seconds: float) -> str:
    out: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=base, timeout=10.0) as c:
        deep = '{"options": ' + "[" * 5000 + "]" * 5000 + "}"
        out["deep body"] = (await c.post("/api/tables", content=deep,
                                         headers={"content-type": "application/json"})).json()["error"]["code"]
        out["text/plain"] = (await c.post("/api/tables", content="{}",
                                          headers={"content-type": "text/plain"})).status_code
        out["foreign origin"] = (await c.post("/api/tables", json={},
                                              headers={"origin": "https://evil.example"})).status_code
        made = (await c.post("/api/tables", json={"seats": ["me", "open", "open"], "players": 3,
                                                  "listed": False})).json()
    async with connect(f"{ws_base}/ws/tables/{made['table']['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))
        codes = []
        for text in ("[" * 2000 + "]" * 2000, '{"type":"ping","id":1.0}', '{"type":"ping","id":1,"id":2}',
                     '{"type":"act","action":"pass","version":"1"}'):
            await ws.send(text)
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "error":
                    codes.append(f"{m['code']}/{m['rule']}")
                    break
        out["websocket"] = codes
    try:
        async with connect(f"{ws_base}/ws/tables/{made['table']['id']}", origin="https://evil.example") as ws:  # type: ignore[arg-type]
            await ws.recv()
            out["foreign websocket"] = "opened"
    except Exception as exc:  # refused before it opens
        out["foreign websocket"] = type(exc).__name__
    await asyncio.sleep(seconds)
    return json.dumps(out)


async def lock(db: Path, seconds: float) -> str:
    holder = sqlite3.connect(db, timeout=1.0, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    await asyncio.sleep(seconds)
    holder.rollback()
    holder.close()
    await asyncio.sleep(3.0)  # the tables go on
    return f"an exclusive lock held for {seconds:.0f} s, then 3 s to recover"


# --- the run ----------------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, s: Samples, note: str) -> str:
    h, a = s.health, s.acts
    storage = ",".join(sorted(set(s.storage))) or "-"
    refused = ",".join(f"{k}:{v}" for k, v in sorted(s.refused.items())) or "-"
    return (f"| {name} | {pct(h, .5):.1f} | {pct(h, .99):.1f} | {max(h, default=float('nan')):.1f} | "
            f"{s.health_failed} | {storage} | {pct(a, .5):.1f} | {pct(a, .99):.1f} | {len(a)} | {refused} | {note} |")


async def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="mushka-hostile-"))
    filled = tmp / "filled.db"
    began = time.perf_counter()
    ids = fill(f"sqlite:///{filled}", args.records)
    print(f"# {args.records} finished games stored in {time.perf_counter() - began:.1f} s; load average {loadavg()}")
    for pool in args.pools.split(","):
        # Each server starts from the same stored games.
        db = tmp / f"hostile-{pool}.db"
        shutil.copyfile(filled, db)
        await run_one(args, pool, db, ids, tmp)


async def run_one(args: argparse.Namespace, pool: str, db: Path, ids: list[str], tmp: Path) -> None:
    url = f"sqlite:///{db}"
    kinds = {"process": "worker processes", "thread": "threads of the server"}
    print(f"\n## bots in {args.bot_workers} {kinds.get(pool, pool)}: load average before {loadavg()}\n")
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    log = tmp / f"server-{pool}.log"
    server = subprocess.Popen(
        [sys.executable, "-c", "from mushka.cli.main import main; main()", "serve", "--port", str(port),
         "--database-url", url, "--max-tables", "30", "--log-level", "warning", "--bot-delay", "0.3",
         "--bot-pool", pool, "--bot-workers", str(args.bot_workers)],
        stdout=subprocess.DEVNULL, stderr=open(log, "w", encoding="utf-8"))  # noqa: SIM115
    try:
        async with httpx.AsyncClient(base_url=base) as c:
            for _ in range(200):
                with contextlib.suppress(httpx.HTTPError):
                    if (await c.get("/api/health")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
        samples = Samples()
        stop = asyncio.Event()
        honest = [asyncio.create_task(health_sampler(base, samples, stop)),
                  asyncio.create_task(player(base, ws_base, samples, stop))]
        await asyncio.sleep(2.0)
        print("| phase | health p50 ms | p99 | max | failed | storage | act→update p50 ms | p99 | acts | "
              "player refused | what the attack got |")
        print("|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|")
        phases = [
            ("baseline", lambda: asyncio.sleep(args.phase, result="quiet")),
            ("chunked", lambda: chunked(port, server.pid, args.phase)),
            ("slowloris", lambda: slowloris(port, max(args.phase, 12.0))),
            ("reads", lambda: reads(base, ids, args.phase)),
            ("bot tables", lambda: bot_tables(base, args.phase)),
            ("finished", lambda: finished(base, ids, args.phase)),
            ("resyncs", lambda: resyncs(base, ws_base, args.phase)),
            ("protocol", lambda: protocol(base, ws_base, 2.0)),
            ("lock", lambda: lock(db, 6.0)),
            ("baseline again", lambda: asyncio.sleep(args.phase, result="quiet")),
        ]
        only = {n.strip() for n in args.only.split(",")} if args.only else None
        for name, attack in phases:
            if only is not None and name not in only and not name.startswith("baseline"):
                continue
            samples.reset()
            note = await attack()
            print(line(name, samples, note), flush=True)
        async with httpx.AsyncClient(base_url=base, timeout=10.0) as c:
            bots = (await c.get("/api/health")).json().get("bots")
        print(f"\n# the bots' pool at the end: {bots}")
        stop.set()
        for task in honest:
            task.cancel()
        await asyncio.gather(*honest, return_exceptions=True)
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        if server.poll() is None:
            server.kill()
    print(f"# load average after: {loadavg()}; server log in {log}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phase", type=float, default=8.0, help="seconds of each phase")
    parser.add_argument("--records", type=int, default=200, help="finished games stored before the start")
    parser.add_argument("--pools", default="process,thread",
                        help="the bots' pools to run the phases against, one server each, in turn "
                             "(process: worker processes, the default of mushka serve; thread: threads)")
    parser.add_argument("--bot-workers", type=int, default=1, help="the servers' --bot-workers")
    parser.add_argument("--only", default="", help="run only these phases (comma-separated; the baselines always)")
    args = parser.parse_args()
    if os.environ.get("MUSHKA_BENCH_SEED"):
        random.seed(int(os.environ["MUSHKA_BENCH_SEED"]))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
