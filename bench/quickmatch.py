"""Benchmark of the quick match: people arriving at random, seated together within seconds.

Starts ``mushka serve`` on a loopback port (a fresh SQLite file, or ``--database-url``) and
sends arrivals to ``POST /api/quickmatch`` as a Poisson process of ``--rate`` a minute,
spread over the kinds of table in ``--kinds``; each arrival asks about its ticket every
half second, as the page does, until it is seated.  Beside that load, ``--probes`` pairs of
people ask for a kind nobody else asks for, ``--gap`` seconds apart: the goal is that such
a pair sits at one table within five seconds of the first one's arrival.

Columns: arrivals, seated, the seconds from asking to being seated (p50, p95, max), the
share seated with at least one other person, the pairs seated together and their time
from the first one's arrival (p95, max), the machine's load average.

    python bench/quickmatch.py --rate 200 --seconds 60 --probes 20

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))  # the process rig of the server's tests

import httpx  # noqa: E402
from clusterkit import http_client, rig, serve_options, source_addresses  # noqa: E402


async def one(http: httpx.AsyncClient, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Ask, then ask about the ticket until seated: (seconds it took, the seat's answer)."""
    began = time.monotonic()
    reply = await http.post("/api/quickmatch", json=body)
    reply.raise_for_status()
    answer: dict[str, Any] = reply.json()
    while answer["status"] != "seated":
        await asyncio.sleep(0.5)
        got = await http.get(f"/api/quickmatch/{answer['ticket']}")
        got.raise_for_status()
        answer = got.json()
    return time.monotonic() - began, answer


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else 0.0


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    kinds = [(k.split(":")[0], int(k.split(":")[1])) for k in args.kinds.split(",")]
    # Kinds nobody else asks for, one per probe in turn: a probe pair meets nobody but itself.
    probe_kinds = [k for k in PROBE_KINDS if k not in kinds]
    rng = random.Random(args.seed)
    # Each person from an address of his own (of 50), as people are: the limits per address hold.
    clients = [http_client(base, source) for source in source_addresses(50)]
    try:
        return await _run(args, kinds, probe_kinds, rng, clients)
    finally:
        for c in clients:
            await c.aclose()


PROBE_KINDS: list[tuple[str, int]] = [("kopilka", 4), ("classic", 5), ("classic", 6), ("classic", 7),
                                      ("mistigri", 3), ("mistigri", 5), ("mistigri", 6), ("mistigri", 7)]


async def _run(args: argparse.Namespace, kinds: list[tuple[str, int]], probe_kinds: list[tuple[str, int]],
               rng: random.Random, clients: list[httpx.AsyncClient]) -> dict[str, Any]:
    tasks: list[asyncio.Task[tuple[float, dict[str, Any]]]] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + args.seconds
    # Evenly spread; a kind recurs only after every other kind had its turn.
    probe_at = [n * (args.seconds - args.gap - 6) / max(1, args.probes) for n in range(args.probes)]
    started = loop.time()

    async def pair(at: float, n: int) -> tuple[float, Any, Any]:
        await asyncio.sleep(max(0.0, started + at - loop.time()))
        variant, players = probe_kinds[n % len(probe_kinds)]
        body = {"variant": variant, "players": players, "level": "random", "name": f"probe{n}a"}
        first = asyncio.create_task(one(rng.choice(clients), body))
        await asyncio.sleep(args.gap)
        second = asyncio.create_task(one(rng.choice(clients), {**body, "name": f"probe{n}b"}))
        return at, await first, await second

    pairs = [asyncio.create_task(pair(at, n)) for n, at in enumerate(probe_at)]
    n = 0
    while loop.time() < end:
        await asyncio.sleep(rng.expovariate(args.rate / 60))
        variant, players = rng.choice(kinds)
        tasks.append(asyncio.create_task(one(rng.choice(clients), {
            "variant": variant, "players": players, "level": "random", "name": f"p{n}"})))
        n += 1
    done = await asyncio.gather(*tasks, return_exceptions=True)
    probes = await asyncio.gather(*pairs, return_exceptions=True)
    failures = sorted({f"{type(d).__name__}: {d}"[:120] for d in [*done, *probes] if isinstance(d, BaseException)})
    times = [d[0] for d in done if not isinstance(d, BaseException)]
    tables: dict[str, int] = {}
    for d in done:
        if not isinstance(d, BaseException):
            tables[d[1]["table"]] = tables.get(d[1]["table"], 0) + 1
    together = sum(1 for d in done if not isinstance(d, BaseException) and tables[d[1]["table"]] > 1)
    pair_times: list[float] = []
    apart = 0
    for p in probes:
        if isinstance(p, BaseException):
            apart += 1
            continue
        _, (t1, a1), (t2, a2) = p
        if a1["table"] == a2["table"]:
            pair_times.append(max(t1, args.gap + t2))
        else:
            apart += 1
    return {
        "arrivals": len(tasks), "seated": len(times), "errors": len(tasks) - len(times),
        "p50_s": round(pct(times, 50), 2), "p95_s": round(pct(times, 95), 2), "max_s": round(max(times, default=0), 2),
        "with_company": round(together / len(times), 3) if times else 0.0,
        "pairs": len(probes), "pairs_together": len(pair_times), "pairs_apart": apart,
        "pair_p95_s": round(pct(pair_times, 95), 2), "pair_max_s": round(max(pair_times, default=0), 2),
        "rate_per_min": args.rate, "load_avg_1m": round(os.getloadavg()[0], 2), "failures": failures[:5],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=200.0, help="arrivals a minute")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--kinds", default="classic:4,mistigri:4,classic:3", help="variant:players, comma separated")
    parser.add_argument("--probes", type=int, default=20, help="pairs of people who ask --gap seconds apart")
    parser.add_argument("--gap", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="mushka-quickmatch-bench-"))
    url = args.database_url or f"sqlite:///{logs / 'bench.db'}"
    options = serve_options(bot_delay=0.5, extra=["--max-tables", "5000"])
    with rig(logs, url, count=1, proxy=False, options=options) as made:
        result = asyncio.run(run(args, made.url))
    print(json.dumps(result))
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "result": result}))


if __name__ == "__main__":
    main()
