"""Several ``mushka serve`` processes on one store, HAProxy in front, and clients that play through it.

Everything listens on 127.0.0.1 only, on free ports:

- :class:`Node`: one ``mushka serve`` subprocess (``--node sN``), its output kept in a log
  file; it can be killed (SIGKILL), paused (SIGSTOP), continued (SIGCONT), stopped
  cleanly and started again on the same port under the same name;
- :class:`Proxy`: HAProxy in the foreground, its configuration made from the shipped
  ``deploy/haproxy.cfg`` with the free ports put in (so the tests run the shipped layout);
- :func:`rig`: N nodes (and the proxy) started together and torn down whatever happens;
  when the block fails, the tail of every log is printed (pytest shows it with the failure);
- :class:`SeatClient`: one seat's WebSocket, as a page would hold it: it plays its seat,
  follows ``moved`` (and 307s, over HTTP) with jittered backoff, says ``hello`` with the
  version it has (``since``), and records every version it saw; clients may connect from
  other loopback addresses (127.0.0.2, 127.0.0.3, …) to look like many players.

The store is read directly (:func:`stored_tables`, :func:`replays`) to check what the
processes say against what is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from pgkit import free_port

from mushka.server import PROTOCOL_VERSION
from mushka.server.seatviews import apply_changes

Msg = dict[str, Any]

REPO = Path(__file__).resolve().parents[2]
SHIPPED_HAPROXY = REPO / "deploy" / "haproxy.cfg"


def mushka_command() -> list[str]:
    """The ``mushka`` program of this interpreter's environment."""
    script = Path(sys.executable).with_name("mushka")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from mushka.cli.main import main; main()"]


def tail(path: Path, chars: int = 4000) -> str:
    """The end of a log file (for failure messages)."""
    with contextlib.suppress(OSError):
        return path.read_text(errors="replace")[-chars:]
    return ""


# --- the server processes ------------------------------------------------------------------------


class Node:
    """One ``mushka serve`` process, named ``name``, on a loopback port of its own."""

    def __init__(self, name: str, database_url: str, logs: Path, args: Sequence[str] = (),
                 port: int | None = None) -> None:
        """Not started yet (:meth:`start`); ``args`` are more ``mushka serve`` options."""
        self.name = name
        self.database_url = database_url
        self.port = port or free_port()
        self.args = list(args)
        self.log = logs / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        """The process's own address (not through the proxy)."""
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [*mushka_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                "--database-url", self.database_url, "--node", self.name, "--log-level", "warning", *self.args]

    def start(self, *extra: str) -> None:
        """Start the process (it is not ready yet: :meth:`wait_ready`)."""
        assert self.proc is None or self.proc.poll() is not None, f"{self.name} is running"
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"\n--- start {self.starts}: {' '.join(self.command() + list(extra))}\n".encode())
            out.flush()
            env = dict(os.environ, PYTHONUNBUFFERED="1", LC_ALL="C.UTF-8")
            self.proc = subprocess.Popen([*self.command(), *extra], stdout=out, stderr=subprocess.STDOUT, env=env,
                                         stdin=subprocess.DEVNULL)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until ``/api/health`` answers 200; fails with the log if the process ended or never did."""
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            if not self.running():
                raise AssertionError(f"{self.name} ended (exit {self.proc and self.proc.returncode}):\n"
                                     f"{tail(self.log)}")
            try:
                reply = httpx.get(f"{self.url}/api/health", timeout=5)
                if reply.status_code == 200:
                    return
                last = f"{reply.status_code} {reply.text[:300]}"
            except httpx.HTTPError as exc:
                last = repr(exc)
            time.sleep(0.1)
        raise AssertionError(f"{self.name} was not ready in {timeout:.0f} s ({last}):\n{tail(self.log)}")

    def health(self, timeout: float = 5.0) -> Msg:
        """``GET /api/health`` of this process (whatever its status code)."""
        reply = httpx.get(f"{self.url}/api/health", timeout=timeout)
        data: Msg = reply.json()
        return data

    def signal(self, sig: int) -> None:
        assert self.proc is not None and self.proc.poll() is None, f"{self.name} is not running"
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """``kill -9``: no chance to store anything or to release a lease."""
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(timeout=30)

    def pause(self) -> None:
        """SIGSTOP: the process stops where it is, its sockets open, its leases running out."""
        self.signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`."""
        self.signal(signal.SIGCONT)

    def stop(self, timeout: float = 30.0) -> int | None:
        """A clean stop (SIGTERM, as systemd does); SIGKILL if it does not end in time."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return None if proc is None else proc.returncode
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGCONT)  # a paused process cannot end
            proc.terminate()
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait(timeout=30)

    def restart(self) -> None:
        """Start again on the same port under the same name (after a kill or a stop)."""
        self.start()
        self.wait_ready()


# --- the proxy -----------------------------------------------------------------------------------


def haproxy_config(front: int, nodes: Sequence[Node], shipped: Path = SHIPPED_HAPROXY) -> str:
    """``deploy/haproxy.cfg`` with the frontend on 127.0.0.1:``front`` and one ``server`` (and
    ``use-server``) line per node in each backend, at the nodes' ports; everything else as shipped."""
    text = shipped.read_text()
    assert re.search(r"^\s*bind :8000\s*$", text, re.M), "deploy/haproxy.cfg binds :8000"
    text = re.sub(r"^(\s*)bind :8000\s*$", rf"\1bind 127.0.0.1:{front}", text, flags=re.M)
    out: list[str] = []
    for line in text.splitlines():
        server = re.match(r"^(\s*)server s\d+ \S+(.*)$", line)
        use = re.match(r"^(\s*)use-server s\d+ if .*$", line)
        if server and line.strip().startswith("server s1 "):
            indent, rest = server.groups()
            out += [f"{indent}server {n.name} 127.0.0.1:{n.port}{rest}" for n in nodes]
        elif use and line.strip().startswith("use-server s1 "):
            indent = use.group(1)
            out += [f"{indent}use-server {n.name} if {{ url_param(node) -m str {n.name} }}" for n in nodes]
        elif not (server or use):
            out.append(line)
    made = "\n".join(out) + "\n"
    assert all(f"server {n.name} 127.0.0.1:{n.port}" in made for n in nodes), made
    return made


class Proxy:
    """HAProxy in the foreground (``haproxy -f CFG -db``) on a free loopback port."""

    def __init__(self, nodes: Sequence[Node], logs: Path) -> None:
        self.port = free_port()
        self.config = logs / "haproxy.cfg"
        self.config.write_text(haproxy_config(self.port, nodes))
        self.log = logs / "haproxy.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        haproxy = "haproxy" if subprocess.run(["which", "haproxy"], capture_output=True).returncode == 0 \
            else "/usr/sbin/haproxy"
        check = subprocess.run([haproxy, "-c", "-f", str(self.config)], capture_output=True, text=True)
        assert check.returncode == 0, f"haproxy refused the configuration:\n{check.stdout}{check.stderr}"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([haproxy, "-f", str(self.config), "-db"], stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"haproxy ended:\n{tail(self.log)}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=5).status_code == 200:
                    return
            time.sleep(0.1)
        raise AssertionError(f"haproxy did not answer:\n{tail(self.log)}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@dataclass
class Rig:
    """The nodes on one store (and the proxy in front, if any)."""

    nodes: list[Node]
    proxy: Proxy | None
    logs: Path
    database_url: str

    @property
    def url(self) -> str:
        """Where clients go: the proxy (or the first node when there is none)."""
        return self.proxy.url if self.proxy is not None else self.nodes[0].url

    def node(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)

    def live(self) -> list[Node]:
        return [n for n in self.nodes if n.running()]

    def report(self) -> str:
        """The tail of every log: what a failure message needs."""
        parts = [f"--- {n.name} (port {n.port}, {'running' if n.running() else 'ended'}):\n{tail(n.log)}"
                 for n in self.nodes]
        if self.proxy is not None:
            parts.append(f"--- haproxy (port {self.proxy.port}):\n{tail(self.proxy.log, 2000)}")
        return "\n".join(parts)

    def healths(self) -> dict[str, Msg]:
        """``/api/health`` of every running node, by name (those that do not answer are left out)."""
        out: dict[str, Msg] = {}
        for n in self.live():
            with contextlib.suppress(httpx.HTTPError, ValueError):
                out[n.name] = n.health()
        return out


def serve_options(*, grace: float = 60.0, bot_delay: float = 0.05, lease: float = 3.0, http_rate: float = 1000.0,
                  per_address: int = 0, bot_tables: int = 1000, extra: Sequence[str] = ()) -> list[str]:
    """``mushka serve`` options for a test: short lease, bots at once, the proxy trusted, limits raised."""
    return ["--grace", str(grace), "--bot-delay", str(bot_delay), "--lease", str(lease), "--http-rate", str(http_rate),
            "--per-address", str(per_address), "--bot-tables", str(bot_tables),
            "--bot-tables-per-address", str(bot_tables), "--trusted-proxy", "127.0.0.1",
            *extra]


@contextlib.contextmanager
def rig(logs: Path, database_url: str, count: int = 3, *, proxy: bool = True,
        options: Sequence[str] | None = None) -> Iterator[Rig]:
    """``count`` nodes ``s1``… started at once on ``database_url`` (and HAProxy in front), torn
    down at the end whatever happened; a failure inside prints every log's tail."""
    logs.mkdir(parents=True, exist_ok=True)
    args = list(options if options is not None else serve_options())
    nodes = [Node(f"s{i}", database_url, logs, args) for i in range(1, count + 1)]
    made = Rig(nodes, None, logs, database_url)
    try:
        for n in nodes:
            n.start()
        for n in nodes:
            n.wait_ready()
        if proxy:
            made.proxy = Proxy(nodes, logs)
            made.proxy.start()
        yield made
    except BaseException:
        print(made.report())
        raise
    finally:
        if made.proxy is not None:
            made.proxy.stop()
        for n in nodes:
            n.stop(timeout=20)


# --- clients ---------------------------------------------------------------------------------------


def source_addresses(count: int) -> list[str]:
    """``count`` loopback addresses to connect from: 127.0.0.2, 127.0.0.3, …"""
    return [f"127.0.0.{i}" for i in range(2, 2 + count)]


def http_client(base: str, source: str | None = None, timeout: float = 30.0) -> httpx.AsyncClient:
    """An HTTP client of ``base`` that follows 307s (to a table's owner), from ``source``."""
    # The limits go to the transport: a client given a transport of its own ignores its own
    # ``limits``, and would open up to 100 connections from one address (the server takes 32).
    limits = httpx.Limits(max_connections=16)
    transport = httpx.AsyncHTTPTransport(local_address=source, retries=2, limits=limits) if source else None
    return httpx.AsyncClient(base_url=base, timeout=timeout, follow_redirects=True, transport=transport,
                             limits=limits)


async def create_table(http: httpx.AsyncClient, **body: Any) -> Msg:
    """``POST /api/tables``; raises with the reply unless the table was made."""
    reply = await http.post("/api/tables", json=body)
    if reply.status_code != 201:
        raise AssertionError(f"POST /api/tables: {reply.status_code} {reply.text[:500]}")
    data: Msg = reply.json()
    return data


@dataclass
class Reconnect:
    """One reconnection of a seat: the version it had, and the first it got back."""

    had: int
    got: int
    kind: str
    """``resumed`` or ``state``."""
    next: int | None = None
    """The first version after it (``got + 1`` if nothing was lost)."""


@dataclass
class SeatClient:
    """One seat of one table, held over a WebSocket through ``base`` as a page would.

    It plays a random legal action when its seat is to act (after ``think`` seconds), or
    only watches (``play=False``).  A ``moved`` message sends it to the owner it names, a
    dropped connection back through the proxy, both after a jittered wait; it says
    ``hello`` with the version it has, and checks that what comes back is never older."""

    base: str
    table_id: str
    token: str | None
    node: str | None = None
    source: str | None = None
    play: bool = True
    think: float = 0.0
    stall: float | None = None
    """Seconds without any message while its action waits for an answer after which the
    connection is given up (its process may be paused) and made again."""
    rng: random.Random = field(default_factory=random.Random)
    seat: int | None = None
    version: int = -1
    view: Msg | None = None
    seen: list[int] = field(default_factory=list)
    """Every version received, in order (states, updates, table changes, resumptions)."""
    errors: list[Msg] = field(default_factory=list)
    closes: list[int | None] = field(default_factory=list)
    moved: list[str | None] = field(default_factory=list)
    reconnects: list[Reconnect] = field(default_factory=list)
    backwards: list[tuple[int, int]] = field(default_factory=list)
    """(had, got) for every version older than one already seen: must stay empty."""
    connects: int = 0
    failed_connects: int = 0
    acted: int = 0
    finished: bool = False
    connected: bool = False
    lost_at: float | None = None
    """When (loop time) its last connection ended, until it is at the table again."""
    away: list[float] = field(default_factory=list)
    """Seconds from each lost connection to being at the table again (a state or resumed)."""

    def ws_url(self) -> str:
        url = self.base.replace("http://", "ws://") + f"/ws/tables/{self.table_id}"
        return url + (f"?node={self.node}" if self.node else "")

    def my_turn(self) -> bool:
        view = self.view
        return bool(view is not None and view.get("result") is None and view["deal"]["to_act"] == self.seat
                    and view["deal"]["legal"])

    def _saw(self, version: int) -> None:
        if self.seen and version < self.seen[-1]:
            self.backwards.append((self.seen[-1], version))
        self.seen.append(version)
        last = self.reconnects[-1] if self.reconnects else None
        if last is not None and last.next is None and version > last.got:
            last.next = version
        self.version = max(self.version, version)

    async def run(self, stop: asyncio.Event, deadline: float) -> None:
        """Hold the seat until ``stop`` is set, the game ends or ``deadline`` (loop time) passes."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

        loop = asyncio.get_running_loop()
        attempt = 0
        while not stop.is_set() and not self.finished and loop.time() < deadline:
            if attempt:
                # Jittered exponential backoff, as the page does: a storm spreads itself out.
                await asyncio.sleep(self.rng.uniform(0.5, 1.0) * min(2.0, 0.1 * 2 ** min(attempt, 5)))
            attempt += 1
            # Pings, as the page's heartbeat: a process that went silent (paused) is given up
            # within seconds rather than held on to for ever.
            kwargs: dict[str, Any] = {"open_timeout": 10, "ping_interval": 2.0, "ping_timeout": 4.0,
                                      "max_size": 2 ** 22, "compression": None}
            if self.source:
                kwargs["local_addr"] = (self.source, 0)
            try:
                ws = await connect(self.ws_url(), **kwargs)
            except (OSError, InvalidStatus, InvalidHandshake, TimeoutError):
                self.failed_connects += 1
                self.node = None  # its owner may be gone: the proxy finds one
                continue
            self.connects += 1
            try:
                async with ws:
                    hello: Msg = {"type": "hello", "protocol": PROTOCOL_VERSION, "token": self.token}
                    if self.version >= 0:
                        hello["since"] = self.version
                    had = self.version
                    await ws.send(json.dumps(hello))
                    if await self._session(ws, stop, deadline, had):
                        attempt = 0
            except ConnectionClosed as exc:
                self.closes.append(exc.rcvd.code if exc.rcvd else None)
                if not (exc.rcvd and exc.rcvd.code == 4307):
                    self.node = None
            except (OSError, TimeoutError):
                self.closes.append(None)
                self.node = None
            finally:
                self.connected = False
                if self.lost_at is None and self.seen:
                    self.lost_at = loop.time()

    async def _session(self, ws: Any, stop: asyncio.Event, deadline: float, had: int) -> bool:
        """One connection's messages; whether it got as far as the table's state."""
        loop = asyncio.get_running_loop()
        waiting_since: float | None = None
        greeted = False
        while not stop.is_set() and loop.time() < deadline:
            timeout = min(0.5, max(0.01, deadline - loop.time()))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                if (self.stall is not None and waiting_since is not None
                        and loop.time() - waiting_since > self.stall):
                    self.closes.append(-1)  # given up: no answer
                    self.node = None
                    return greeted
                continue
            message: Msg = json.loads(raw)
            kind = message["type"]
            if kind in ("state", "resumed") and self.lost_at is not None:
                self.away.append(loop.time() - self.lost_at)
                self.lost_at = None
            if kind == "welcome":
                self.seat = message["seat"]
            elif kind == "state":
                if had >= 0:
                    self.reconnects.append(Reconnect(had, message["version"], "state"))
                self.view = message["view"]
                self._saw(message["version"])
                greeted, self.connected = True, True
            elif kind == "resumed":
                if had >= 0:
                    self.reconnects.append(Reconnect(had, message["version"], "resumed"))
                self._saw(message["version"])
                greeted, self.connected = True, True
            elif kind == "update":
                self.view = apply_changes(self.view, message["view"])
                self._saw(message["version"])
                waiting_since = None
            elif kind == "table":
                self._saw(message["version"])
                if message["table"]["status"] == "over":
                    self.finished = True
            elif kind == "moved":
                self.moved.append(message.get("node"))
                self.node = message.get("node")
                continue
            elif kind == "error":
                self.errors.append(message)
                waiting_since = None
                if message.get("fatal"):
                    continue  # the close follows
                if message.get("code") in ("stale", "out_of_turn", "illegal", "deal_over"):
                    await ws.send(json.dumps({"type": "resync"}))
                continue
            if self.view is not None and self.view.get("result") is not None:
                self.finished = True
                return greeted
            if self.play and greeted and waiting_since is None and self.my_turn():
                if self.think:
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                assert self.view is not None
                action = self.rng.choice(self.view["deal"]["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "version": self.version}))
                self.acted += 1
                waiting_since = loop.time()
        return greeted


async def play(clients: Sequence[SeatClient], seconds: float, until: Callable[[], bool] | None = None,
               stop: asyncio.Event | None = None) -> None:
    """Run ``clients`` for at most ``seconds`` (or until ``until()`` holds, or ``stop`` is set)."""
    loop = asyncio.get_running_loop()
    stop = stop or asyncio.Event()
    deadline = loop.time() + seconds
    tasks = [asyncio.create_task(c.run(stop, deadline)) for c in clients]

    async def watch() -> None:
        while not stop.is_set() and loop.time() < deadline:
            if until is not None and until():
                stop.set()
                return
            await asyncio.sleep(0.1)

    watcher = asyncio.create_task(watch())
    try:
        await asyncio.gather(*tasks)
    finally:
        stop.set()
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


async def wait_for(predicate: Callable[[], bool], seconds: float, step: float = 0.1) -> bool:
    """Whether ``predicate()`` held within ``seconds``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if predicate():
            return True
        await asyncio.sleep(step)
    return predicate()


# --- the store, read directly ------------------------------------------------------------------------


def engine_of(database_url: str) -> Any:
    """An SQLAlchemy engine on the rig's database (for reading what the processes stored)."""
    from sqlalchemy import create_engine

    from mushka.server.sqlstore import engine_url

    return create_engine(engine_url(database_url), pool_pre_ping=True)


def stored_tables(engine: Any, where: str = "1=1") -> dict[str, Msg]:
    """The tables as stored (id -> status, version, ply, listed): the version is the newest of
    the table's row and its journal (a move in the middle of a deal is only a journal row)."""
    from sqlalchemy import text

    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT t.id, t.status, t.version, t.ply, t.listed, m.newest FROM mushka_tables t "
            "LEFT JOIN (SELECT table_id, MAX(version) AS newest FROM mushka_moves GROUP BY table_id) m "
            f"ON m.table_id = t.id WHERE {where}"))
        return {r.id: {"status": r.status, "version": max(r.version, r.newest or 0), "ply": r.ply,
                       "listed": bool(r.listed)} for r in rows}


def stored_versions(database_url: str, table_ids: Sequence[str]) -> dict[str, int]:
    """The stored version of each table of ``table_ids`` (see :func:`stored_tables`)."""
    engine = engine_of(database_url)
    try:
        rows = stored_tables(engine)
    finally:
        engine.dispose()
    return {t: int(rows[t]["version"]) for t in table_ids if t in rows}


def quarantined(engine: Any) -> int:
    """Tables set aside as damaged (by any process)."""
    from sqlalchemy import text

    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM mushka_tables WHERE status = 'broken'")).scalar_one())


def replays(database_url: str, table_ids: Sequence[str]) -> dict[str, str]:
    """Every table of ``table_ids`` rebuilt from its stored rows, as a restarted server would:
    the problem of each one that does not replay (empty: all replay), and a check that the
    replayed game has as many actions as the stored ply."""
    from mushka.records import FORMAT, Record, replay
    from mushka.records import VERSION as RECORD_VERSION
    from mushka.server.sqlstore import SqlStore

    problems: dict[str, str] = {}
    store = SqlStore(database_url)
    try:
        for table_id in table_ids:
            snap = store.load(table_id)
            if snap is None:
                problems[table_id] = "not stored (or damaged)"
                continue
            try:
                if snap.deals:
                    record = Record.from_json({
                        "format": FORMAT, "version": RECORD_VERSION, "variant": snap.variant,
                        "players": snap.players, "options": snap.options, "level": "game",
                        "first_dealer": snap.first_dealer or 0,
                        "deals": [json.loads(data) for _, data in sorted(snap.deals)],
                    })
                elif snap.record is not None:
                    record = Record.loads(snap.record)
                else:
                    if snap.status == "playing":
                        problems[table_id] = "playing, but no deal is stored"
                    continue
                game = replay(record)
                actions = sum(len(d.actions) for d in record.deals)
                if snap.status == "playing" and actions != snap.ply:
                    problems[table_id] = f"{actions} actions stored for ply {snap.ply}"
                del game
            except Exception as exc:  # any way a stored game fails to replay
                problems[table_id] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        store.close()
    return problems


def owners(healths: dict[str, Msg]) -> dict[str, list[str]]:
    """Table id -> the nodes that say they own it (from their ``/api/health``)."""
    out: dict[str, list[str]] = {}
    for name, health in healths.items():
        for table_id in health.get("owned_tables", ()):
            out.setdefault(table_id, []).append(name)
    return out
