"""How long the web page waits for the review of a game of 15 deals (the goal: at most 10 seconds).

The same seeded game as ``bench/review_speed.py`` is put in a server's storage as a finished game;
the server (in process, its SQLite store in a temporary directory, its reviews in their worker
process as when it serves) is asked ``GET /api/records/{id}/review?seat=N`` twice: the first
answer is made (the worker's start included), the second comes from memory.

    python bench/review_web.py              # seat 0
    python bench/review_web.py --seat 2 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

with warnings.catch_warnings():
    # Starlette's test client announces a move from httpx to httpx2; nothing to act on here.
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from mushka import _build
from mushka.server import ServerConfig, create_app
from mushka.server.app import lobby_of
from mushka.server.store import SeatSnapshot, TableSnapshot
from review_speed import GOAL_SECONDS, game_record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--deals", type=int, default=15)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args()
    record = game_record(args.seed, args.deals, "classic")
    with tempfile.TemporaryDirectory() as folder:
        config = ServerConfig(database_url=f"sqlite:///{Path(folder) / 'bench.db'}", web_dir=None, tune_gc=False)
        with TestClient(create_app(config)) as client:
            now = datetime.now(UTC)
            lobby_of(client.app).store.create(TableSnapshot(  # type: ignore[arg-type]
                id="bench-review", variant=record.variant, players=record.players, options=dict(record.options),
                status="over", listed=False, host=None, autostart=False, version=1,
                ply=sum(len(d.actions) for d in record.deals),
                seats=tuple(SeatSnapshot(s, "bot", None, "club") for s in range(record.players)),
                created=now, record=record.dumps(indent=None), winner=None, finished=now))
            began = time.perf_counter()
            reply = client.get(f"/api/records/bench-review/review?seat={args.seat}")
            first = time.perf_counter() - began
            began = time.perf_counter()
            again = client.get(f"/api/records/bench-review/review?seat={args.seat}&lang=ru")
            kept = time.perf_counter() - began
    if reply.status_code != 200 or again.status_code != 200:
        raise SystemExit(f"the review was refused: {reply.text[:300]}")
    body = reply.json()
    out = {"deals": len(record.deals), "seat": args.seat, "decisions": len(body["decisions"]),
           "differ": body["differ"], "seconds": round(first, 2), "kept_seconds": round(kept, 3),
           "goal_seconds": GOAL_SECONDS, "build": _build.BUILD}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['deals']} deals, seat {args.seat}: {out['decisions']} decisions, {out['differ']} not the "
              f"expert's; first answer {out['seconds']} s (goal {GOAL_SECONDS} s), kept {out['kept_seconds']} s")


if __name__ == "__main__":
    main()
