"""Load benchmark of ``mushka serve``: many tables played by bot clients over WebSockets.

On loopback only.  The script starts the server in a child process (a fresh
SQLite database in a temporary directory), creates tables whose every seat it
holds (protocol: ``"seats": ["me", …]``), and drives each seat over its own
WebSocket like a person would: about ``--pace`` actions per second per table,
each a random legal action.  It measures the latency from sending an ``act``
to receiving the ``update`` that reports it, on the acting seat's connection.

The table count steps up (``--steps 100,250,500,1000``); at each step the
script tops the tables up, lets them settle for ``--warmup`` seconds and
measures for ``--duration`` seconds.  It stops at the knee: when p99 passes
``--knee-ms`` or the tables cannot keep the pace (fewer than 90 % of the
actions asked for).  Everything is bounded: ``--max-seconds`` ends the run.

Columns: tables held by all their seats, actions per second, the share of
the asked pace kept, latency percentiles, the server's CPU (cores, all its
threads, from /proc), its CPU time per action (``ms/act``), the clients' CPU,
the server's memory and the machine's load average (other work on the machine
takes CPU from both sides: compare runs made at similar loads).  At exit the
server reports its garbage collections (wall and CPU time of each) and how
its writer grouped the saves into commits.

    python bench/load_server.py --steps 50,100,250,500,750,1000 --duration 20
    python bench/load_server.py --steps 1000 --profile server.prof   # where the server spends its time
    python bench/load_server.py --steps 1000 --server-gc untuned      # Python's own collector settings
    python bench/load_server.py --steps 250 --store memory            # the database's share of the cost
    python bench/load_server.py --steps 250 --bot-tables 6            # beside bots that think all along
    python bench/load_server.py --steps 250 --bot-tables 6 --bot-pool thread   # bots in threads, as before

With ``--bot-tables N`` each step is measured twice in the same run: first the
baseline, then with N tables of bots only (``--bot-spec``, ``search`` by
default) playing as fast as their bots think; an honest monitor asks
``/api/health`` every 50 ms during each measurement (``hp50``, ``hp99``: its
latency, ms).

Not part of the test suite; it prints a table (and ``--json`` writes one).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROTOCOL = 2


def changed(view: dict[str, Any] | None, changes: dict[str, Any]) -> dict[str, Any]:
    """A view with an update's changes applied (protocol 2; the history is not needed here)."""
    if view is None:
        return changes
    out = dict(view)
    for key, value in changes.items():
        if key == "deal":
            out["deal"] = {**view["deal"], **value}
        elif key != "history":
            out[key] = value
    return out


# --- the server, in a child process ------------------------------------------------------------


class MemoryStore:
    """A store that keeps tables in a dict: a diagnostic to tell the database's share
    of the latency from the rest (``--store memory``); nothing survives a restart."""

    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}

    def create(self, table: Any) -> None:
        self.tables[table.id] = table

    def commit(self, saves: Any) -> None:
        pass

    def load(self, table_id: str) -> Any:
        return self.tables.get(table_id)

    def load_active(self) -> list[Any]:
        return []

    def finished(self, limit: int, offset: int) -> list[Any]:
        return []

    def ping(self) -> bool:
        return True

    def close(self) -> None:
        self.tables.clear()


def serve(port: int, database_url: str, max_tables: int, profile: str | None) -> None:
    """Run the server (the child process); with ``profile``, under cProfile until SIGINT."""
    import uvicorn

    from mushka.server import ServerConfig, create_app
    from mushka.server.protocol import MAX_MESSAGE_BYTES

    server_gc = os.environ.get("MUSHKA_BENCH_SERVER_GC", "default")
    extra: dict[str, Any] = {}
    if "tune_gc" in ServerConfig.__dataclass_fields__:
        extra["tune_gc"] = server_gc == "default"  # as `mushka serve` runs
    config = ServerConfig(
        database_url=database_url, web_dir=None, bot_delay=0.0, grace=3600.0,
        http_rate=1e6, http_burst=1_000_000, rate=1000.0, burst=1000, strikes=1000,
        max_tables=max_tables, keep_finished=5.0, **extra,
    )
    bot_tables = int(os.environ.get("MUSHKA_BENCH_BOT_TABLES", "0"))
    if "bot_pool" in ServerConfig.__dataclass_fields__:
        extra_bots: dict[str, Any] = {"bot_pool": os.environ.get("MUSHKA_BENCH_BOT_POOL", "process")}
    else:
        extra_bots = {}
    config = dataclasses.replace(config, bot_tables=max(bot_tables, 1), bot_tables_per_address=max(bot_tables, 1),
                                 **extra_bots)
    # Every client is on this machine: the budgets per address (where the server has them) are lifted.
    lifted = {"address_rate": 1e6, "address_burst": 10**6, "state_rate": 1e6, "state_burst": 10**6,
              "ws_per_address": 0, "http_per_address": 0, "read_rate": 1e6, "read_burst": 10**6}
    config = dataclasses.replace(config, **{k: v for k, v in lifted.items()
                                            if k in ServerConfig.__dataclass_fields__})
    store = MemoryStore() if database_url == "memory" else None
    pauses = gc_pauses()
    if server_gc == "tuned":
        # Diagnostic: what the latency would be with far fewer full collections.
        import gc

        gc.freeze()
        gc.set_threshold(100_000, 50, 1000)
    deflate = os.environ.get("MUSHKA_BENCH_DEFLATE") == "1"
    app = create_app(config, store=store)
    server = uvicorn.Server(uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE_BYTES * 16, ws_ping_interval=None, lifespan="on", backlog=4096,
        ws_per_message_deflate=deflate, loop=os.environ.get("MUSHKA_BENCH_LOOP", "auto"),
    ))
    if profile is None:
        with contextlib.suppress(KeyboardInterrupt):  # SIGINT is how the benchmark stops it
            server.run()
        report_gc("server", pauses)
        report_writer(app)
        return
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
    finally:
        profiler.disable()
        profiler.dump_stats(profile)


def gc_pauses() -> dict[int, list[tuple[float, float]]]:
    """Record how long each garbage collection takes, by generation: (wall, CPU) seconds.

    The CPU time is the collection's own cost; the wall time also counts the
    moments the machine's other work held the CPU.
    """
    import gc

    pauses: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
    began = [0.0, 0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0], began[1] = time.perf_counter(), time.thread_time()
        else:
            pauses[info["generation"]].append((time.perf_counter() - began[0], time.thread_time() - began[1]))

    gc.callbacks.append(callback)
    return pauses


def report_gc(who: str, pauses: dict[int, list[tuple[float, float]]]) -> None:
    for gen, times in pauses.items():
        if times:
            wall = [w for w, _ in times]
            cpu = [c for _, c in times]
            print(f"{who} gc generation {gen}: {len(times)} collections, total {sum(wall) * 1000:.0f} ms "
                  f"(CPU {sum(cpu) * 1000:.0f} ms), longest {max(wall) * 1000:.1f} ms (CPU {max(cpu) * 1000:.1f} ms)",
                  file=sys.stderr, flush=True)


def report_writer(app: Any) -> None:
    """How the writer grouped the saves into commits (servers that have one)."""
    with contextlib.suppress(Exception):
        stats = app.state.holder["lobby"].writer.stats
        print(f"server writer: {stats.saves} saves in {stats.commits} commits (largest {stats.largest}), "
              f"{stats.seconds:.1f} s committing ({stats.cpu_seconds:.1f} s CPU), {stats.failures} failures",
              file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """The server as a child process, with its CPU time read from /proc."""

    def __init__(self, max_tables: int, profile: str | None, store: str, server_gc: str, deflate: bool,
                 loop: str, bot_tables: int = 0, bot_pool: str = "process") -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="mushka-load-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        db = "memory" if store == "memory" else f"sqlite:///{Path(self.tmp.name) / 'load.db'}"
        args = [sys.executable, str(Path(__file__).resolve()), "--serve", str(self.port), db, str(max_tables)]
        if profile:
            args += ["--profile", profile]
        env = dict(os.environ, MUSHKA_BENCH_SERVER_GC=server_gc, MUSHKA_BENCH_DEFLATE="1" if deflate else "0",
                   MUSHKA_BENCH_LOOP=loop, MUSHKA_BENCH_BOT_TABLES=str(bot_tables),
                   MUSHKA_BENCH_BOT_POOL=bot_pool)
        self.proc = subprocess.Popen(args, env=env)

    async def wait_ready(self, timeout: float = 30.0) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient() as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise SystemExit("the server did not start")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(self.url + "api/health")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit("the server did not answer in time")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.tmp.cleanup()


# --- the bot clients ---------------------------------------------------------------------------------


@dataclass
class Stats:
    """What the clients saw during one measuring window."""

    latencies: list[float] = field(default_factory=list)
    health: list[float] = field(default_factory=list)
    """Seconds each ``/api/health`` took (asked every 50 ms)."""
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Table:
    """One table whose every seat a client holds; one action per 1/pace seconds."""

    def __init__(self, bench: Bench, table_id: str, ws_url: str, tokens: list[str]) -> None:
        self.bench = bench
        self.id = table_id
        self.ws_url = ws_url
        self.tokens = tokens
        self.next_at = 0.0
        self.connected = 0
        self.over = False
        self.tasks: list[asyncio.Task[None]] = []
        self.sent_at: dict[int, float] = {}
        self.source: str | None = None
        """The loopback address its seats connect from (None: the system's choice)."""

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        # Stagger the tables over one interval so that they do not act in step.
        self.next_at = loop.time() + random.random() * self.bench.interval
        self.tasks = [asyncio.create_task(self.seat(s, tok)) for s, tok in enumerate(self.tokens)]

    async def seat(self, seat: int, token: str) -> None:
        from websockets.asyncio.client import connect

        bench = self.bench
        loop = asyncio.get_running_loop()
        view: dict[str, Any] | None = None
        try:
            async with bench.connecting:
                ws = await connect(self.ws_url, compression=bench.compression, open_timeout=60,
                                   ping_interval=None, max_size=2**22,
                                   **({"local_addr": (self.source, 0)} if self.source else {}))
            async with ws:
                await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
                self.connected += 1
                async for raw in ws:
                    msg = json.loads(raw)
                    kind = msg["type"]
                    if kind == "update" and msg["seat"] == seat and seat in self.sent_at:
                        sent = self.sent_at.pop(seat)
                        if bench.stats.measuring:
                            bench.stats.latencies.append(loop.time() - sent)
                            bench.stats.actions += 1
                    elif kind == "error":
                        self.sent_at.pop(seat, None)
                        bench.stats.error(msg.get("code", "?"))
                        if msg.get("fatal"):
                            return
                        await ws.send('{"type": "resync"}')
                        continue
                    if kind == "state":
                        view = msg["view"]
                    elif kind == "update":
                        view = changed(view, msg["view"])
                    else:
                        continue
                    if view is None:
                        continue
                    if view.get("result") is not None:
                        self.over = True
                        return
                    deal = view["deal"]
                    if deal["to_act"] == seat and deal["legal"] and seat not in self.sent_at:
                        await self.act(ws, seat, random.choice(deal["legal"]))
        except Exception as exc:  # a refused or closed socket, in any of its forms, ends this seat only
            bench.stats.error(type(exc).__name__)
        finally:
            self.connected = max(0, self.connected - 1)

    async def act(self, ws: Any, seat: int, action: str) -> None:
        loop = asyncio.get_running_loop()
        wait = self.next_at - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self.next_at = max(loop.time(), self.next_at) + self.bench.interval
        self.sent_at[seat] = loop.time()
        await ws.send(json.dumps({"type": "act", "action": action}))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class Bench:
    """Creates tables, keeps them playing, and measures."""

    def __init__(self, args: argparse.Namespace, server: ServerProcess) -> None:
        self.args = args
        self.server = server
        self.interval = 1.0 / args.pace
        self.compression = None if args.no_deflate else "deflate"
        self.connecting = asyncio.Semaphore(64)
        self.stats = Stats()
        self.tables: list[Table] = []
        self.bot_tables = 0
        self.made = 0
        self.sources: list[str] = []
        """Loopback addresses the tables' seats connect from, in turn (empty: the system's choice)."""

    async def create(self, client: Any) -> Table:
        body = {"variant": self.args.variant, "players": self.args.players,
                "seats": ["me"] * self.args.players, "start": True, "listed": False}
        reply = await client.post(self.server.url + "api/tables", json=body)
        reply.raise_for_status()
        data = reply.json()
        ws_url = self.server.url.replace("http://", "ws://") + data["ws"].lstrip("/")
        table = Table(self, data["table"]["id"], ws_url, [t["token"] for t in data["tokens"]])
        if self.sources:
            table.source = self.sources[self.made % len(self.sources)]
        self.made += 1
        table.start()
        return table

    async def top_up(self, count: int) -> None:
        import httpx

        self.tables = [t for t in self.tables if not t.over]
        missing = count - len(self.tables)
        if missing <= 0:
            return
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=16)) as client:
            sem = asyncio.Semaphore(16)

            async def one() -> Table:
                async with sem:
                    return await self.create(client)

            self.tables += await asyncio.gather(*(one() for _ in range(missing)))

    async def step(self, count: int) -> dict[str, Any]:
        import gc

        # The clients collect garbage only between measurements, so that
        # their own pauses do not show up as the server's latency.
        gc.collect()
        started = time.monotonic()
        await self.top_up(count)
        ramp = time.monotonic() - started
        await asyncio.sleep(self.args.warmup)
        await self.top_up(count)  # tables whose game ended are replaced
        self.stats = Stats(measuring=True)
        moves0 = (await self.bot_pool()).get("moves", 0)
        cpu0, t0 = self.server.cpu_seconds(), time.monotonic()
        client0 = time.process_time()
        await self.sample_health(self.args.duration)
        self.stats.measuring = False
        wall = time.monotonic() - t0
        server_cpu = (self.server.cpu_seconds() - cpu0) / wall
        client_cpu = (time.process_time() - client0) / wall
        lat = sorted(self.stats.latencies)
        health = sorted(self.stats.health)
        pool = await self.bot_pool()
        held = sum(1 for t in self.tables if not t.over and t.connected == self.args.players)
        asked = count * self.args.pace * wall
        return {
            "tables": count, "held": held, "ramp_s": round(ramp, 1),
            "actions": len(lat), "actions_per_s": round(len(lat) / wall, 1),
            "pace_kept": round(len(lat) / asked, 3) if asked else 0.0,
            "p50_ms": round(pct(lat, 50) * 1000, 1), "p90_ms": round(pct(lat, 90) * 1000, 1),
            "p99_ms": round(pct(lat, 99) * 1000, 1), "max_ms": round((lat[-1] if lat else 0) * 1000, 1),
            "health_p50_ms": round(pct(health, 50) * 1000, 1), "health_p99_ms": round(pct(health, 99) * 1000, 1),
            "bot_tables": self.bot_tables, "bot_moves": pool.get("moves", 0) - moves0,
            "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else 0.0,
            "server_cpu": round(server_cpu, 2), "client_cpu": round(client_cpu, 2),
            "cpu_ms_per_action": round(server_cpu / (len(lat) / wall) * 1000, 3) if lat else 0.0,
            "server_rss_mib": round(self.server.rss_mib()), "errors": dict(self.stats.errors),
            # Other work on the machine takes CPU from the server: say how much there was.
            "load_avg_1m": round(os.getloadavg()[0], 2),
        }

    async def sample_health(self, seconds: float) -> None:
        """Ask ``/api/health`` every 50 ms for ``seconds``, as a monitor would, timing each answer."""
        import httpx

        end = time.monotonic() + seconds
        async with httpx.AsyncClient(timeout=30) as client:
            while time.monotonic() < end:
                began = time.monotonic()
                with contextlib.suppress(httpx.HTTPError):
                    await client.get(self.server.url + "api/health")
                    self.stats.health.append(time.monotonic() - began)
                await asyncio.sleep(max(0.0, 0.05 - (time.monotonic() - began)))

    async def bot_pool(self) -> dict[str, Any]:
        import httpx

        async with httpx.AsyncClient(timeout=30) as client:
            pool: dict[str, Any] = (await client.get(self.server.url + "api/health")).json().get("bots") or {}
            return pool

    async def start_bot_tables(self, count: int) -> None:
        """Tables of bots only (``--bot-spec`` on every seat), played as fast as their bots think."""
        import httpx

        body = {"variant": self.args.variant, "players": self.args.players,
                "seats": [f"bot:{self.args.bot_spec}"] * self.args.players, "start": True, "listed": False}
        async with httpx.AsyncClient(timeout=60) as client:
            for _ in range(count):
                (await client.post(self.server.url + "api/tables", json=body)).raise_for_status()
        self.bot_tables += count

    async def close(self) -> None:
        await asyncio.gather(*(t.close() for t in self.tables), return_exceptions=True)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    index = min(len(values) - 1, max(0, round(q / 100 * len(values)) - 1))
    return values[index]


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    steps = [int(s) for s in args.steps.split(",") if s.strip()]
    server = ServerProcess(max(2000, 2 * max(steps)), args.profile, args.store, args.server_gc, args.deflate, args.loop,
                           args.bot_tables, args.bot_pool)
    results: list[dict[str, Any]] = []
    began = time.monotonic()
    try:
        await server.wait_ready()
        bench = Bench(args, server)
        print(f"{'tables':>6} {'bots':>4} {'held':>5} {'act/s':>7} {'kept':>5} {'p50 ms':>7} {'p90 ms':>7} "
              f"{'p99 ms':>7} {'max ms':>7} {'hp50':>6} {'hp99':>6} {'srv cpu':>7} {'ms/act':>7} {'cli cpu':>7} "
              f"{'rss MiB':>7} {'load':>5}  errors", flush=True)
        # With --bot-tables, each step is measured twice: without them (the baseline), then with them.
        plan = [(count, phase) for count in steps for phase in ((0, args.bot_tables) if args.bot_tables else (0,))]
        for count, wanted in plan:
            if wanted > bench.bot_tables:
                await bench.start_bot_tables(wanted - bench.bot_tables)
            elif args.bot_tables and wanted == 0 and bench.bot_tables:
                continue  # bot tables cannot be taken back: later baselines are left out
            if time.monotonic() - began > args.max_seconds:
                print("stopped: --max-seconds reached", flush=True)
                break
            row = await bench.step(count)
            results.append(row)
            print(f"{row['tables']:>6} {row['bot_tables']:>4} {row['held']:>5} {row['actions_per_s']:>7} "
                  f"{row['pace_kept']:>5} {row['p50_ms']:>7} {row['p90_ms']:>7} {row['p99_ms']:>7} {row['max_ms']:>7} "
                  f"{row['health_p50_ms']:>6} {row['health_p99_ms']:>6} "
                  f"{row['server_cpu']:>7} {row['cpu_ms_per_action']:>7} {row['client_cpu']:>7} "
                  f"{row['server_rss_mib']:>7} {row['load_avg_1m']:>5}  "
                  f"{row['errors'] or ''}",
                  flush=True)
            if (row["p99_ms"] > args.knee_ms or row["pace_kept"] < 0.9) and not args.bot_tables:
                print(f"knee: at {count} tables (p99 {row['p99_ms']} ms, pace kept {row['pace_kept']})", flush=True)
                break
        await bench.close()
    finally:
        server.stop()
    return results


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        profile = sys.argv[sys.argv.index("--profile") + 1] if "--profile" in sys.argv else None
        serve(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), profile)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="50,100,250,500,750,1000",
                        help="table counts to step through, comma separated")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured at each step")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before each measurement")
    parser.add_argument("--pace", type=float, default=1.0, help="actions per second per table")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--knee-ms", type=float, default=100.0, help="p99 above this ends the run")
    parser.add_argument("--max-seconds", type=float, default=900.0, help="no new step starts after this")
    parser.add_argument("--no-deflate", action="store_true", help="clients do not offer permessage-deflate")
    parser.add_argument("--deflate", action="store_true",
                        help="the server accepts permessage-deflate (`mushka serve --ws-deflate`; off by default)")
    parser.add_argument("--profile", help="profile the server with cProfile into this file")
    parser.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto",
                        help="the server's event loop (auto: uvloop when installed, as `mushka serve`)")
    parser.add_argument("--server-gc", choices=("default", "untuned", "tuned"), default="default",
                        help="default: as `mushka serve` runs (app.tune_gc); untuned: Python's own settings; "
                             "tuned: full collections almost never (diagnostic)")
    parser.add_argument("--store", choices=("sqlite", "memory"), default="sqlite",
                        help="the server's storage: a SQLite file (as served), or memory (diagnostic)")
    parser.add_argument("--bot-tables", type=int, default=0,
                        help="tables of bots only, playing all along (CPU-heavy): each step is measured "
                             "without them first (the baseline), then with them")
    parser.add_argument("--bot-spec", default="search", help="the bot on every seat of those tables")
    parser.add_argument("--bot-pool", choices=("process", "thread"), default="process",
                        help="where the server's bots think (mushka serve --bot-pool)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < 4 * 3 * 1000:
        print(f"note: only {hard} open files allowed; large steps may fail to connect", flush=True)
    import gc

    pauses = gc_pauses()
    gc.disable()
    results = asyncio.run(run(args))
    report_gc("client", pauses)
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, "results": results}, indent=1))
    if args.profile:
        import pstats

        print(f"\nserver profile ({args.profile}), by own time:")
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
