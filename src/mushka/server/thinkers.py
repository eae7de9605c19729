"""The server's bounded pool of worker processes: bots think and replays are built there.

The event loop serves every player; a bot's search or a long replay is pure
Python work that, in a thread, would hold the interpreter's lock against it.
So that work runs in a few worker processes (``ServerConfig.bot_workers``,
at a lower scheduling priority, ``bot_nice``): however many tables bots
play at, they take at most that many cores, and never the loop's.

What goes to a worker is small and plain: the bot's spec, the seat's view
(what the bot may know, never the state) and a seed; what comes back is
the action.  A worker that dies (killed, out of memory) or a move that
takes longer than ``bot_timeout`` seconds never leaves a table stuck: the
pool is started afresh, the move is tried once more, and if that fails
too the seat plays the rules-of-thumb move computed here, with a line in
the log.

``kind="thread"`` keeps the older pool of threads (for measurements that
compare the two, and where processes cannot be started).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

from mushka.bots import make_bot
from mushka.engine import Action
from mushka.match import GameView
from mushka.server.bodies import BotPool

log = logging.getLogger("mushka.server")

T = TypeVar("T")

PoolKind = Literal["process", "thread"]

TRIES: Final = 2
"""Times a job is sent to the pool when a worker dies under it (then the seat falls back)."""

FALLBACK: Final = "heuristic"
"""The bot that plays a seat here, in the server's process, when the pool could not."""


WATCH_EVERY: Final = 1.0
"""Seconds between a worker's looks at whether the server that owns it still runs."""

START_TIMEOUT: Final = 120.0
"""Seconds the workers of a new pool may take to start (a machine very busy or short of memory)."""


class WorkerLost(RuntimeError):
    """The pool lost its worker (or the job ran past its time) on every try."""


@dataclass(frozen=True, slots=True)
class BotJob:
    """One move to think out: what is sent to a worker (small and picklable)."""

    spec: str
    """The bot, as ``make_bot`` reads it (``heuristic``, ``search:iterations=200`` …)."""
    view: GameView
    """The seat's view: all the bot may know."""
    seed: int
    """The seed of the bot's own random choices (drawn from the table's generator)."""


@dataclass(frozen=True, slots=True)
class Thought:
    """A worker's answer: the action and what it cost."""

    action: Action
    cpu: float
    """CPU seconds the worker spent on it."""
    pid: int


def think(job: BotJob) -> Thought:
    """Choose the move of ``job`` (in a worker): a fresh bot of the spec, the seat's view, the seed.

    The spec is read once per worker (:func:`~mushka.bots.base.parse_spec` keeps it); the bot is
    built afresh for every move, as it always was, so no move's state reaches another.
    """
    began = time.thread_time()
    action = make_bot(job.spec).choose(job.view, random.Random(job.seed))
    return Thought(action, time.thread_time() - began, os.getpid())


def _timed(fn: Callable[..., T], *args: Any) -> tuple[T, float, int]:
    """``fn(*args)``, the CPU seconds of the thread that ran it, and its process."""
    began = time.thread_time()
    out = fn(*args)
    return out, time.thread_time() - began, os.getpid()


def _nothing() -> None:
    """A job that only makes sure a worker is up."""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return state not in ("Z", "X")


def _watch(owner: int) -> None:
    """End this worker once the server that owns it is gone (killed, even with ``kill -9``)."""
    while True:
        time.sleep(WATCH_EVERY)
        if not _alive(owner):
            os._exit(0)


def _worker_start(nice: int, owner: int) -> None:
    """A worker's start: a lower priority than the server's, so that people's moves come first,
    and a watch on the server: a worker must not outlive it."""
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
    # The server's death closes nothing the worker waits on (its queue's pipe has writers in
    # every worker), so without this it would wait for work for ever.
    threading.Thread(target=_watch, args=(owner,), name="mushka-owner-watch", daemon=True).start()


def _stop(pool: Executor, *, wait: bool = False) -> None:
    """Shut ``pool`` down at once, its workers killed (a job that runs too long cannot be
    stopped alone); ``wait`` joins its threads and processes too."""
    if isinstance(pool, ProcessPoolExecutor):
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            with contextlib.suppress(Exception):
                process.kill()
    pool.shutdown(wait=wait, cancel_futures=True)


class Thinkers:
    """The bounded pool every table's bots (and the replays) share.

    At most ``workers`` jobs run at once; the others wait here, on the loop,
    so that a job's time limit counts its own work only.
    """

    def __init__(self, workers: int = 1, *, kind: PoolKind = "process", nice: int = 5,
                 timeout: float = 60.0) -> None:
        """``workers`` processes (or threads) at most, started when first needed."""
        self.workers = max(1, workers)
        self.kind: PoolKind = kind
        self.nice = nice
        self.timeout = timeout
        self.busy = 0
        """Jobs being worked on now."""
        self.waiting = 0
        """Jobs waiting for a free worker."""
        self.moves = 0
        """Bot moves made in the pool."""
        self.cpu = 0.0
        """CPU seconds the workers spent on bot moves."""
        self.restarts = 0
        """Times the pool was started afresh after a worker died or a job ran too long."""
        self.fallbacks = 0
        """Bot moves made here, with the rules of thumb, because the pool could not make them."""
        self.pids: set[int] = set()
        """Processes that answered (so a test can tell where the work ran)."""
        self._slots: asyncio.Semaphore | None = None
        self._pool: Executor | None = None
        self._starting: asyncio.Lock | None = None
        self._closed = False

    # --- the pool ------------------------------------------------------------------------

    async def _executor(self) -> Executor:
        """The pool, its workers started (so that a job's time limit never counts a start)."""
        if self._pool is not None:
            return self._pool
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._pool is None:
                # Starting processes blocks (the first start waits for the fork server to have
                # imported mushka): in a thread, never on the loop.
                pool, started = await asyncio.to_thread(self._new_pool)
                try:
                    await asyncio.wait_for(asyncio.gather(*(asyncio.wrap_future(f) for f in started)),
                                           START_TIMEOUT)
                except BaseException:
                    _stop(pool)
                    raise
                self._pool = pool
            return self._pool

    def _new_pool(self) -> tuple[Executor, list[Future[None]]]:
        """A new pool, and as many no-ops sent to it as it has workers: each starts one."""
        if self._closed:
            raise RuntimeError("the pool of bots is shut down")
        pool: Executor
        if self.kind == "thread":
            pool = ThreadPoolExecutor(self.workers, thread_name_prefix="mushka-bots")
        else:
            # forkserver: a worker starts from a clean process that has imported the bots,
            # never as a fork of the server with its threads and sockets.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["mushka.server.thinkers"])
            pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                       initializer=_worker_start, initargs=(self.nice, os.getpid()))
        try:
            return pool, [pool.submit(_nothing) for _ in range(self.workers)]
        except BaseException:
            _stop(pool)
            raise

    def _renew(self, pool: Executor, *, kill: bool) -> None:
        """Start afresh on the next job (once per broken pool, however many jobs saw it break)."""
        if self._pool is not pool:
            return
        self._pool = None
        self.restarts += 1
        if kill:
            _stop(pool)
        else:
            pool.shutdown(wait=False, cancel_futures=True)

    def _slot(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        return self._slots

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (``fn`` and its arguments picklable); :class:`WorkerLost`
        when the worker died (or the job took longer than ``timeout``) on each of :data:`TRIES`."""
        slots = self._slot()
        self.waiting += 1
        try:
            await slots.acquire()
        finally:
            self.waiting -= 1
        self.busy += 1
        try:
            for attempt in range(1, TRIES + 1):
                try:
                    pool = await self._executor()
                except (BrokenProcessPool, TimeoutError, OSError) as exc:
                    log.warning("the bot workers did not start (%s; try %d of %d)",
                                type(exc).__name__, attempt, TRIES)
                    continue
                try:
                    future = pool.submit(_timed, fn, *args)
                    out, cpu, pid = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
                except BrokenProcessPool:
                    log.warning("a bot worker process died (try %d of %d); starting the pool afresh",
                                attempt, TRIES)
                    self._renew(pool, kill=False)
                    continue
                except TimeoutError:
                    log.warning("a job of the bot pool ran past %g s (try %d of %d); stopping its worker",
                                self.timeout, attempt, TRIES)
                    self._renew(pool, kill=True)
                    continue
                self.pids.add(pid)
                if isinstance(out, Thought):
                    self.moves += 1
                    self.cpu += out.cpu
                else:
                    self.cpu += cpu
                return out
            raise WorkerLost(f"no worker finished the job in {TRIES} tries")
        finally:
            self.busy -= 1
            slots.release()

    async def bot_move(self, spec: str, view: GameView, seed: int, *, where: str = "") -> Action:
        """The move the bot ``spec`` makes from ``view``; never raises for a failing worker or bot:
        the seat then plays the rules-of-thumb move (else a random legal one), with a log line."""
        try:
            thought = await self.run(think, BotJob(spec, view, seed))
        except WorkerLost as exc:
            log.error("%s: bot %s got no move from the pool (%s); playing by the rules of thumb",
                      where, spec, exc)
        except Exception:  # a broken bot must not stop its table
            log.exception("%s: bot %s failed; playing by the rules of thumb", where, spec)
        else:
            return thought.action
        self.fallbacks += 1
        rng = random.Random(seed)
        try:
            return make_bot(FALLBACK).choose(view, rng)
        except Exception:
            log.exception("%s: the rules of thumb failed too; playing at random", where)
            return rng.choice(view.deal.legal)

    def report(self) -> BotPool:
        """What ``/api/health`` says of the pool."""
        return BotPool(kind=self.kind, workers=self.workers, nice=self.nice if self.kind == "process" else 0,
                       busy=self.busy,
                       waiting=self.waiting, moves=self.moves, cpu_seconds=round(self.cpu, 3),
                       restarts=self.restarts, fallbacks=self.fallbacks)

    def shutdown(self) -> None:
        """Stop the workers (a job in progress is dropped) and free the pool's queues.

        The workers are killed, then joined: the tables are closed by then, and a search
        running out its time budget must not hold the server's exit.  Joining and dropping
        the pool lets multiprocessing remove its queues' named semaphores now; the process
        may end by a re-raised SIGTERM (uvicorn does so), which runs no exit handlers, and
        the semaphores would be left for the resource tracker to report as leaked.
        """
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool, wait=True)
            del pool
            gc.collect()


__all__ = ["FALLBACK", "TRIES", "BotJob", "PoolKind", "Thinkers", "Thought", "WorkerLost", "think"]
