"""Benchmark of signing in: the server's own time for a sign-in with a password (argon2id
verify, the session written) and with a passkey (options, then the signature verified).

Runs the app in this process on a fresh SQLite file (or ``--database-url``) and times each
call inside the server, from the request reaching the app to the last byte of its reply
(an ASGI wrapper), so that no client or network time is counted.  The goal is a sign-in in
at most 300 ms of server time on the two-core machine the server is sized for; the argon2
parameters are in ``mushka/server/passwords.py`` and ``docs/accounts.md``.

Columns: what, calls, p50, p95, max (ms), and the machine's load average as ``uptime``
gives it (the machine is shared: the load says how much else ran).

    python bench/signin.py --rounds 40

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))  # the software passkey of the server's tests

from softkey import SoftKey  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from mushka.server import ServerConfig, create_app  # noqa: E402
from mushka.server.passwords import MEMORY_KIB, PARALLELISM, TIME_COST  # noqa: E402

Scope = dict[str, Any]
App = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


class Timed:
    """ASGI wrapper: the server time of every HTTP call, by path."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.times: dict[str, list[float]] = {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.times.setdefault(scope["path"], []).append((time.perf_counter() - began) * 1000)


def row(what: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{what:<34} {len(values):>5} {statistics.median(values):>8.1f} {p95:>8.1f} {max(values):>8.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="sign-ins of each kind")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'signin.db'}"
        config = ServerConfig(database_url=url, web_dir=None, tune_gc=False, http_rate=1e6, http_burst=10**6)
        timed = Timed(create_app(config))
        with TestClient(timed) as client:  # type: ignore[arg-type]
            password = "correct horse battery staple"
            reply = client.post("/api/account/claim", json={"name": "Bench Player", "password": password})
            reply.raise_for_status()
            key = SoftKey()
            csrf = reply.json()["csrf"]
            asked = client.post("/api/account/passkey/register/options", json={},
                                headers={"x-csrf-token": csrf}).json()
            client.post("/api/account/passkey/register", headers={"x-csrf-token": csrf},
                        json={"challenge": asked["challenge"], "credential": key.register(asked["options"])}
                        ).raise_for_status()
            timed.times.clear()
            for _ in range(args.rounds):
                client.cookies.clear()
                client.post("/api/account/signin", json={"name": "bench player", "password": password}
                            ).raise_for_status()
                client.cookies.clear()
                challenge = client.post("/api/account/passkey/signin/options", json={}).json()
                client.post("/api/account/passkey/signin", json={
                    "challenge": challenge["challenge"], "credential": key.sign_in(challenge["options"])}
                            ).raise_for_status()
                client.get("/api/account").raise_for_status()
    load = os.getloadavg()
    print(f"argon2id: time cost {TIME_COST}, memory {MEMORY_KIB} KiB, parallelism {PARALLELISM}; "
          f"{os.cpu_count()} cores; database {'SQLite' if url.startswith('sqlite') else url.split(':')[0]}")
    print(f"{'server time of':<34} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    t = timed.times
    print(row("sign-in, password", t["/api/account/signin"]))
    print(row("sign-in, passkey options", t["/api/account/passkey/signin/options"]))
    print(row("sign-in, passkey verify", t["/api/account/passkey/signin"]))
    both = [a + b for a, b in zip(t["/api/account/passkey/signin/options"], t["/api/account/passkey/signin"],
                                  strict=True)]
    print(row("sign-in, passkey (both calls)", both))
    print(row("who am I (a session read)", t["/api/account"]))
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
