"""Benchmark of several ``mushka serve`` processes behind HAProxy on one PostgreSQL database.

Everything runs on loopback and is started here, as the tests of several processes start
it (``tests/server/clusterkit.py`` and ``pgkit.py``, which this script reuses): a
throwaway PostgreSQL cluster, ``--nodes`` server processes and HAProxy with the shipped
``deploy/haproxy.cfg``.  Two measurements:

``load``
    The load of ``bench/load_server.py`` through the proxy: tables whose every seat a
    client holds, about ``--pace`` actions per second a table, the latency from an
    ``act`` to the ``update`` that reports it.  Steps of table counts as there; the
    clients connect from ``--sources`` loopback addresses (the servers believe the
    proxy's X-Forwarded-For, so their limits per address see several players).  Server
    CPU and memory are summed over the processes.

``failover``
    ``--tables`` tables, each with a person's seat played by a client through the proxy
    (and bots in the other seats), while every ``--every`` seconds the process that owns
    the most tables is killed (``kill -9``) and started again.  With ``--how stop`` it is
    stopped (SIGSTOP) instead, as a machine that went silent: only its leases' expiry
    tells the others, so this measures failover between machines.  For each table the killed
    process owned: the seconds from the kill to its next stored move.  Over the whole run:
    the versions any client saw go back or lost across a reconnection (must be 0), and
    whether every stored game replays.

    python bench/cluster_serve.py load --nodes 3 --steps 150,300,450,600 --duration 20
    python bench/cluster_serve.py failover --kills 20 --tables 90 --json failover.json
    python bench/cluster_serve.py failover --how stop --kills 20 --tables 90

Not part of the test suite; it prints a table (and ``--json`` writes one).  The machine's
load average is printed beside every figure: other work takes CPU from both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The process rig of the tests: one implementation of "start PostgreSQL, the nodes, HAProxy".
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from clusterkit import (  # noqa: E402
    Rig,
    SeatClient,
    create_table,
    engine_of,
    http_client,
    owners,
    quarantined,
    replays,
    rig,
    serve_options,
    source_addresses,
    stored_versions,
)
from pgkit import throwaway  # noqa: E402

import load_server  # noqa: E402


def proc_cpu(pid: int) -> float:
    """CPU seconds (user and system) of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss(pid: int) -> float:
    """Resident memory of ``pid`` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class ClusterServer:
    """The nodes behind the proxy, seen by ``load_server.Bench`` as one server: its URL is the
    proxy's, its CPU and memory the sum of the processes'."""

    def __init__(self, made: Rig) -> None:
        self.made = made
        self.url = made.url + "/"

    def cpu_seconds(self) -> float:
        return sum(proc_cpu(n.pid) for n in self.made.live())

    def rss_mib(self) -> float:
        return sum(proc_rss(n.pid) for n in self.made.live())


def node_options(args: argparse.Namespace, max_tables: int) -> list[str]:
    """``mushka serve`` options for the benchmark's nodes: limits raised for the load."""
    return serve_options(bot_delay=args.bot_delay, lease=args.lease, http_rate=5000.0,
                         extra=["--max-tables", str(max_tables), "--grace", "600", *args.node_args])


async def run_load(args: argparse.Namespace, made: Rig) -> list[dict[str, Any]]:
    server = ClusterServer(made)
    bench = load_server.Bench(args, server)  # type: ignore[arg-type]
    bench.sources = source_addresses(args.sources)
    rows: list[dict[str, Any]] = []
    print(f"{'nodes':>5} {'tables':>6} {'held':>5} {'act/s':>7} {'kept':>5} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'srv cpu':>7} {'ms/act':>7} {'rss MiB':>7} {'load':>5}  errors", flush=True)
    for count in [int(s) for s in args.steps.split(",") if s.strip()]:
        row = await bench.step(count)
        row["nodes"] = args.nodes
        rows.append(row)
        print(f"{args.nodes:>5} {row['tables']:>6} {row['held']:>5} {row['actions_per_s']:>7} {row['pace_kept']:>5} "
              f"{row['p50_ms']:>7} {row['p99_ms']:>7} {row['max_ms']:>7} {row['server_cpu']:>7} "
              f"{row['cpu_ms_per_action']:>7} {row['server_rss_mib']:>7} {row['load_avg_1m']:>5}  "
              f"{row['errors'] or ''}", flush=True)
        if row["p99_ms"] > args.knee_ms or row["pace_kept"] < 0.9:
            print(f"knee: at {count} tables (p99 {row['p99_ms']} ms, pace kept {row['pace_kept']})", flush=True)
            break
    await bench.close()
    return rows


def owners_now(made: Rig) -> dict[str, str]:
    """Table id -> the node that says it owns it (the first, if a test found two)."""
    return {t: names[0] for t, names in owners(made.healths()).items()}


def versions(made: Rig, ids: list[str]) -> dict[str, int]:
    return stored_versions(made.database_url, ids)


async def run_failover(args: argparse.Namespace, made: Rig) -> dict[str, Any]:
    sources = source_addresses(args.sources)
    clients_http = [http_client(made.url, s) for s in sources]
    calm = {"initial_record": 1000, "flush": "none", "privileged_four": "none"}
    try:
        tables = await asyncio.gather(*(
            create_table(clients_http[n % len(sources)], variant="classic", players=3,
                         seats=["me", "bot:random", "bot:random"], start=True, options=calm)
            for n in range(args.tables)))
    finally:
        for c in clients_http:
            await c.aclose()
    seat_clients = [SeatClient(made.url, t["table"]["id"], t["tokens"][0]["token"], node=t.get("node"),
                               source=sources[n % len(sources)], think=args.think, stall=4.0,
                               rng=random.Random(n))
                    for n, t in enumerate(tables)]
    ids = [c.table_id for c in seat_clients]
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.kills * (args.every + 30) + 120
    playing = [asyncio.create_task(c.run(stop, deadline)) for c in seat_clients]
    delays: list[float] = []
    unresumed = 0
    kills: list[dict[str, Any]] = []
    try:
        await asyncio.sleep(args.every)
        for k in range(args.kills):
            owned = await asyncio.to_thread(owners_now, made)
            counts: dict[str, int] = {}
            for name in owned.values():
                counts[name] = counts.get(name, 0) + 1
            victim = max(counts, key=lambda n: counts[n])
            its = [t for t, n in owned.items() if n == victim]
            before = await asyncio.to_thread(versions, made, its)
            killed = time.monotonic()
            if args.how == "kill":
                await asyncio.to_thread(made.node(victim).kill)
            else:
                # A machine gone silent: the process keeps its id and its sockets, so only the
                # expiry of its leases tells the others (as for a process on another machine).
                await asyncio.to_thread(made.node(victim).pause)
            waiting = dict(before)
            took: dict[str, float] = {}
            while waiting and time.monotonic() - killed < 60:
                await asyncio.sleep(0.2)
                now = await asyncio.to_thread(versions, made, list(waiting))
                moment = time.monotonic() - killed
                for t, v in list(waiting.items()):
                    if now.get(t, v) > v:
                        took[t] = moment
                        del waiting[t]
            unresumed += len(waiting)
            delays += list(took.values())
            at = time.strftime("%H:%M:%S", time.gmtime(time.time() - (time.monotonic() - killed)))
            row = {"kill": k + 1, "at": at,
                   "node": victim, "tables": len(its), "resumed": len(took),
                   "p50_s": round(statistics.median(took.values()), 2) if took else None,
                   "max_s": round(max(took.values()), 2) if took else None,
                   "load_avg_1m": round(os.getloadavg()[0], 2)}
            kills.append(row)
            print(json.dumps(row), flush=True)
            if args.how == "stop":
                await asyncio.to_thread(made.node(victim).kill)
            await asyncio.to_thread(made.node(victim).restart)
            await asyncio.sleep(args.every)
    finally:
        stop.set()
        await asyncio.gather(*playing, return_exceptions=True)
    backwards = sum(len(c.backwards) for c in seat_clients)
    lost = sum(1 for c in seat_clients for r in c.reconnects
               if r.got < r.had or (r.next is not None and r.next != r.got + 1))
    engine = engine_of(made.database_url)
    try:
        broken = quarantined(engine)
    finally:
        engine.dispose()
    problems = await asyncio.to_thread(replays, made.database_url, ids)
    ordered = sorted(delays)
    away = sorted(a for c in seat_clients for a in c.away)
    summary = {
        "kills": len(kills), "tables_moved": len(delays), "not_resumed_in_60s": unresumed,
        "p50_s": round(ordered[len(ordered) // 2], 2) if ordered else None,
        "p95_s": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2) if ordered else None,
        "max_s": round(ordered[-1], 2) if ordered else None,
        "versions_gone_back": backwards, "versions_lost_on_reconnect": lost,
        "reconnections": sum(len(c.reconnects) for c in seat_clients),
        # From a client's lost connection to its being at the table again (through the proxy).
        "away_p50_s": round(statistics.median(away), 2) if away else None,
        "away_p95_s": round(sorted(away)[int(0.95 * (len(away) - 1))], 2) if away else None,
        "quarantined": broken, "games_not_replaying": len(problems),
        "actions": sum(c.acted for c in seat_clients), "lease_s": args.lease, "how": args.how,
    }
    print(json.dumps(summary), flush=True)
    return {"kills": kills, "summary": summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("load", "failover"))
    parser.add_argument("--nodes", type=int, default=3, help="server processes")
    parser.add_argument("--sources", type=int, default=8, help="loopback addresses the clients connect from")
    parser.add_argument("--lease", type=float, default=5.0, help="the nodes' --lease (seconds)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="the nodes' --bot-delay")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--node-arg", dest="node_args", action="append", default=[],
                        help="one more `mushka serve` argument for every node (repeat; e.g. --node-arg=--log-level "
                             "--node-arg=info)")
    # load
    parser.add_argument("--steps", default="150,300,450,600", help="table counts, comma separated")
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--knee-ms", type=float, default=150.0)
    parser.add_argument("--no-deflate", action="store_true")
    # failover
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--how", choices=("kill", "stop"), default="kill",
                        help="kill: kill -9 (this machine's nodes see its process id gone); stop: SIGSTOP, "
                             "then kill -9 once its tables moved (only the leases' expiry tells, as for a "
                             "machine that went down)")
    parser.add_argument("--every", type=float, default=8.0, help="seconds of play between two kills")
    parser.add_argument("--tables", type=int, default=90)
    parser.add_argument("--think", type=float, default=0.5, help="seconds the person's client takes a move")
    args = parser.parse_args()
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    steps = [int(s) for s in args.steps.split(",") if s.strip()]
    max_tables = max(2000, 2 * max(steps)) if args.mode == "load" else 2000
    logs = Path(tempfile.mkdtemp(prefix="mushka-cluster-bench-"))
    began = time.time()
    with throwaway(max_connections=300) as pg, \
            rig(logs, pg.new_database(), count=args.nodes, options=node_options(args, max_tables)) as made:
        result: Any = asyncio.run(run_load(args, made) if args.mode == "load" else run_failover(args, made))
    print(f"{args.mode}: {time.time() - began:.0f} s; logs in {logs}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "results": result},
                                        indent=1))


if __name__ == "__main__":
    main()
