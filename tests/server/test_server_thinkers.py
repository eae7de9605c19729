"""The bots' pool: every table's bots think in a bounded pool of worker processes, off the
server's event loop; a worker that dies or a move that runs too long never leaves a table
stuck (the move is tried again, else the seat plays the rules of thumb, with a log line)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serverkit import create, running

from mushka.match import new_game
from mushka.rules import make_rules
from mushka.server.app import lobby_of
from mushka.server.thinkers import TRIES, Thinkers, WorkerLost

# No special hand ends these parties at the deal (C22): the bots surely have moves to make.
BOTS = {"variant": "classic", "players": 3, "seats": ["bot:heuristic"] * 3, "start": True,
        "options": {"flush": "none", "privileged_four": "none"}}


def span(seconds: float) -> tuple[int, float, float]:
    """A job for the pool: sleep, and say where and when it ran."""
    began = time.monotonic()
    time.sleep(seconds)
    return os.getpid(), began, time.monotonic()


def a_view(players: int = 4):
    """A seat's view with more than one legal action (the first decision of a classic game)."""
    game = new_game(make_rules("classic", players), first_dealer=0, rng=3)
    view = game.view(game.to_act)
    assert len(view.deal.legal) > 1
    return view


def test_jobs_run_in_other_processes_never_more_at_once_than_the_cap() -> None:
    async def go() -> list[tuple[int, float, float]]:
        pool = Thinkers(1)
        try:
            return await asyncio.gather(*(pool.run(span, 0.05) for _ in range(6)))
        finally:
            assert pool.busy == 0 and pool.waiting == 0
            pool.shutdown()

    spans = asyncio.run(go())
    pids = {pid for pid, _, _ in spans}
    assert len(pids) == 1 and os.getpid() not in pids
    ordered = sorted(spans, key=lambda s: s[1])
    # One worker: each job began after the one before had ended.
    assert all(later[1] >= earlier[2] for earlier, later in itertools.pairwise(ordered))


def test_a_worker_that_dies_is_replaced_and_the_move_tried_again(caplog: pytest.LogCaptureFixture) -> None:
    view = a_view()

    async def go() -> tuple[object, Thinkers]:
        pool = Thinkers(1)
        first = await pool.run(span, 0)  # the worker is up: its pid is known
        move = asyncio.ensure_future(pool.bot_move("search:seconds=1.5,iterations=0", view, 7, where="t"))
        await asyncio.sleep(0.5)
        os.kill(first[0], signal.SIGKILL)
        action = await move
        pool.shutdown()
        return action, pool

    with caplog.at_level(logging.WARNING, logger="mushka.server"):
        action, pool = asyncio.run(go())
    assert action in view.deal.legal
    assert pool.restarts == 1 and pool.fallbacks == 0 and pool.moves == 1
    assert len(pool.pids) == 2
    assert "bot worker process died" in caplog.text


def test_a_job_whose_worker_dies_every_time_ends_in_a_clear_error_and_the_pool_goes_on() -> None:
    async def go() -> tuple[Thinkers, object]:
        pool = Thinkers(1)
        with pytest.raises(WorkerLost):
            await pool.run(os._exit, 3)
        after = await pool.run(span, 0)
        pool.shutdown()
        return pool, after

    pool, after = asyncio.run(go())
    assert pool.restarts == TRIES
    assert after[0] != os.getpid()


def test_a_move_past_its_time_stops_its_worker_and_the_seat_plays_the_rules_of_thumb(
        caplog: pytest.LogCaptureFixture) -> None:
    view = a_view()

    async def go() -> tuple[object, Thinkers, float]:
        pool = Thinkers(1)
        await pool.run(span, 0)  # started (this module imported there too): the limit counts the move only
        pool.timeout = 0.5
        began = time.monotonic()
        action = await pool.bot_move("search:seconds=30,iterations=0", view, 7, where="table x, seat 1")
        took = time.monotonic() - began
        pool.shutdown()
        return action, pool, took

    with caplog.at_level(logging.WARNING, logger="mushka.server"):
        action, pool, took = asyncio.run(go())
    assert action in view.deal.legal
    assert pool.fallbacks == 1 and pool.restarts == TRIES
    assert took < 10  # two tries of 0.5 s, and starting a worker for each
    assert "ran past" in caplog.text and "table x, seat 1" in caplog.text and "rules of thumb" in caplog.text


def test_a_broken_bot_makes_its_seat_play_the_rules_of_thumb(caplog: pytest.LogCaptureFixture) -> None:
    view = a_view()

    async def go() -> tuple[object, Thinkers]:
        pool = Thinkers(1)
        action = await pool.bot_move("no-such-bot", view, 1, where="table y, seat 0")
        pool.shutdown()
        return action, pool

    with caplog.at_level(logging.ERROR, logger="mushka.server"):
        action, pool = asyncio.run(go())
    assert action in view.deal.legal and pool.fallbacks == 1
    assert "table y, seat 0" in caplog.text


def test_the_bots_of_every_table_think_in_the_bounded_pool_and_health_shows_its_cap(tmp_path: Path) -> None:
    with running(tmp_path, bot_workers=1, bot_delay=0.0) as client:
        tables = [create(client, **BOTS)["table"]["id"] for _ in range(3)]
        deadline = time.monotonic() + 60
        health = client.get("/api/health").json()
        while health["bots"]["moves"] < 30 and time.monotonic() < deadline:
            time.sleep(0.1)
            health = client.get("/api/health").json()
        pool = health["bots"]
        assert pool["moves"] >= 30, pool
        assert pool["kind"] == "process" and pool["workers"] == 1 and pool["busy"] <= 1
        assert pool["cpu_seconds"] > 0 and pool["fallbacks"] == 0
        assert client.get("/api/meta").json()["limits"]["bot_workers"] == 1
        thinkers = lobby_of(client.app).thinkers  # type: ignore[arg-type]
        assert len(thinkers.pids) == 1 and os.getpid() not in thinkers.pids
        assert len(tables) == 3


def test_a_table_of_bots_plays_on_when_its_workers_are_killed(tmp_path: Path) -> None:
    with running(tmp_path, bot_workers=1, bot_delay=0.05) as client:
        table = create(client, **BOTS)["table"]["id"]
        thinkers = lobby_of(client.app).thinkers  # type: ignore[arg-type]
        deadline = time.monotonic() + 90

        def version() -> int:
            return int(client.get(f"/api/tables/{table}").json()["version"])

        killed: set[int] = set()
        for _ in range(2):
            while not thinkers.pids - killed and time.monotonic() < deadline:
                time.sleep(0.05)
            for pid in thinkers.pids - killed:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            before = version()
            # The table plays on in a new worker (or is over: then no move is due).
            while version() < before + 2 and client.get(f"/api/tables/{table}").json()["status"] == "playing" \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
            assert version() >= before + 2 or client.get(f"/api/tables/{table}").json()["status"] == "over"
        assert thinkers.restarts >= 1 and len(killed) == 2, thinkers.report()
        assert thinkers.fallbacks == 0 or thinkers.restarts >= 1


OWNER = """
import asyncio, os, sys, time
from mushka.server.thinkers import Thinkers

async def main():
    pool = Thinkers(1)
    print(await pool.run(os.getpid), flush=True)
    time.sleep(600)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_worker_does_not_outlive_its_server_killed_with_sigkill(tmp_path: Path) -> None:
    script = tmp_path / "owner.py"
    script.write_text(OWNER, encoding="utf-8")
    owner = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert owner.stdout is not None
        worker = int(owner.stdout.readline())
        assert worker != owner.pid
        os.kill(worker, 0)  # it runs
        owner.kill()
        owner.wait(30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _runs(worker):
            time.sleep(0.1)
        assert not _runs(worker), "the worker outlived its server"
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        if worker and _runs(worker):  # after a failure: leave nothing running
            os.kill(worker, signal.SIGKILL)


def _runs(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


TERMINATED = """
import asyncio, os, signal
from mushka.server.thinkers import Thinkers

async def main():
    pool = Thinkers(1)
    await pool.run(os.getpid)
    pool.shutdown()

if __name__ == "__main__":
    asyncio.run(main())
    # As uvicorn ends on SIGTERM: the default handler again, the signal raised, no exit handlers run.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.raise_signal(signal.SIGTERM)
"""


def test_a_server_ended_by_sigterm_leaves_no_semaphore_of_its_pool_behind(tmp_path: Path) -> None:
    script = tmp_path / "terminated.py"
    script.write_text(TERMINATED, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == -signal.SIGTERM
    # The resource tracker (a process of its own) reports on exit what was never unlinked.
    assert "leaked semaphore" not in done.stderr, done.stderr
