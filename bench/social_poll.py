"""Benchmark of the social side's reads: what every signed-in page asks every few seconds.

A page asks for its notices every 4 seconds (``GET /api/notices``, which also writes its
presence at most every 10 s) and, while its Friends panel is open, for its friends
(``GET /api/friends``: friendships, then the friends' presence).  This fills a fresh
database (SQLite by default, or ``--database-url``) with ``--accounts`` accounts, each with
``--friends`` friends, a few notices each, and everybody online, then times those two calls
for random accounts through the server's own app in this process (no network; the first call of
each account also writes its presence, as a page newly opened does).

Columns: accounts, friends each, notices, the milliseconds per call (p50, p95, max) of each
endpoint, the machine's load average.  The goal: both under 10 ms at p50 with 2000 accounts on
SQLite, so that a thousand pages polling every 4 s cost a process a few percent of its time.

    python bench/social_poll.py --accounts 2000 --friends 20 --calls 500

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from mushka.server import ServerConfig, create_app
from mushka.server.accounts import SESSION_COOKIE, hash_session, name_key, new_secret
from mushka.server.app import lobby_of
from mushka.server.sqlschema import Base
from mushka.server.sqlstore import SqlStore


def fill(store: SqlStore, accounts: int, friends: int) -> list[str]:
    """Accounts, friendships, notices and presence in bulk; the session cookies."""
    now = int(time.time() * 1000)
    ids = [secrets.token_hex(8) for _ in range(accounts)]
    cookies = [new_secret() for _ in ids]
    t = Base.metadata.tables
    rng = random.Random(7)
    with store.engine.begin() as conn:
        conn.execute(insert(t["mushka_accounts"]), [
            {"id": a, "name": f"Player {n}", "name_key": name_key(f"Player {n}"), "created_at": datetime.now(UTC)}
            for n, a in enumerate(ids)])
        conn.execute(insert(t["mushka_sessions"]), [
            {"id_hash": hash_session(c), "account_id": a, "csrf": "x", "created_ms": now, "seen_ms": now,
             "expires_ms": now + 86_400_000} for a, c in zip(ids, cookies, strict=True)])
        pairs = set()
        for n in range(accounts):
            for other in rng.sample(range(accounts), friends):
                if other != n and (other, n) not in pairs:
                    pairs.add((n, other))
        conn.execute(insert(t["mushka_friends"]), [
            {"from_id": ids[a], "to_id": ids[b], "status": "accepted", "created_ms": now} for a, b in pairs])
        conn.execute(insert(t["mushka_notices"]), [
            {"to_id": ids[rng.randrange(accounts)], "from_id": ids[rng.randrange(accounts)], "kind": "invite",
             "table_id": "t" + str(n), "created_ms": now, "seen": False} for n in range(accounts * 3)])
        conn.execute(insert(t["mushka_presence"]), [
            {"account_id": a, "node": "bench", "table_id": "", "seen_ms": now} for a in ids])
    return cookies


def timed(client: TestClient, path: str, cookies: list[str], calls: int) -> list[float]:
    out = []
    for _ in range(calls):
        cookie = random.choice(cookies)
        began = time.perf_counter()
        reply = client.get(path, headers={"cookie": f"{SESSION_COOKIE}={cookie}"})
        out.append((time.perf_counter() - began) * 1000)
        assert reply.status_code == 200, reply.text
    return out


def summary(values: list[float]) -> dict[str, float]:
    q = statistics.quantiles(values, n=100)
    return {"p50": round(q[49], 2), "p95": round(q[94], 2), "max": round(max(values), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=2000)
    parser.add_argument("--friends", type=int, default=20)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mushka-social-"))
    url = args.database_url or f"sqlite:///{folder / 'social.db'}"
    config = ServerConfig(database_url=url, web_dir=None, tune_gc=False, http_rate=1e6, http_burst=10**6,
                          read_rate=1e6, read_burst=10**6)
    with TestClient(create_app(config)) as client:
        store = lobby_of(client.app).store
        assert isinstance(store, SqlStore)
        cookies = fill(store, args.accounts, args.friends)
        timed(client, "/api/notices", cookies, 20)  # warm up
        notices = timed(client, "/api/notices", cookies, args.calls)
        friends = timed(client, "/api/friends", cookies, args.calls)
    row = {"bench": "social_poll", "database": url.split(":")[0], "accounts": args.accounts,
           "friends": args.friends, "notices": args.accounts * 3, "calls": args.calls,
           "notices_ms": summary(notices), "friends_ms": summary(friends),
           "load": [round(x, 2) for x in os.getloadavg()]}
    json.dump(row, sys.stdout)
    print()


if __name__ == "__main__":
    main()
