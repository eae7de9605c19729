"""The writer: one task that stores every table's changes, many in one transaction.

A table hands each stored change (a :class:`~mushka.server.store.Save`) to
:meth:`Writer.write` and waits for it before it tells anybody, so that what a
client has seen is never lost by a restart.  Waiting tables do not each pay
for a commit: while one transaction runs in the writer's thread, the saves of
every other table queue up, and the next transaction takes them all (group
commit).  A commit costs about the same for one save as for a hundred, so
throughput grows with the load instead of being capped by commits a second,
and no table waits for more than the commit in progress plus its own.

Where the commit runs depends on what it costs.  A store whose commits are
quick and local (``quick_commits``: SQLite in WAL mode without a disk flush
per commit, a fraction of a millisecond) is committed on the event loop
itself: handing each batch to a thread and back cost more time, in waits for
the interpreter's lock and for the loop's turn, than the commit did.  Its
checkpoints, which do flush to disk, run every second in the writer's
thread instead (``checkpoint``).  Other stores (PostgreSQL across the
network, SQLite with ``synchronous=FULL``) are committed in the writer's one
thread, so that the loop never waits for them.  Either way there is one
writer, so a table's saves stay in order.

A failed commit is tried again a few times; if storage stays down, each
waiting table is told (:class:`WriteFailed`): it then stops taking changes,
says so to its players (P14) and keeps trying to store its whole game, and
only once that is stored does it send the change and go on.  Nothing is ever
sent that storage does not hold.  :attr:`Writer.failing` tells ``/api/health``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Set
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mushka.i18n import add_texts
from mushka.server.store import Save, TableStore
from mushka.server.tasks import stop_task

log = logging.getLogger("mushka.server")

RETRY_DELAYS = (0.05, 0.25, 1.0)
"""Seconds between the tries of a failed commit."""

CHECKPOINT_EVERY = 1.0
"""Seconds between two checkpoints of a store that commits on the event loop."""


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Job(Generic[T]):
    """A piece of the store's own writing, run by the writer between two commits."""

    work: Callable[[], T]


class WriteFailed(Exception):
    """Storage refused a save even after retrying; the table's change is in memory only."""


class LeaseLost(Exception):
    """The save was refused: another process holds the table's lease now (it took the table
    over).  The change is in memory only, and must stay there: the table is dropped."""


@dataclass(slots=True)
class WriterStats:
    """What the writer has done so far (for ``/api/health`` and the benchmark)."""

    commits: int = 0
    saves: int = 0
    largest: int = 0
    """The most saves one transaction held."""
    failures: int = 0
    seconds: float = 0.0
    """Time spent committing (wall clock)."""
    cpu_seconds: float = 0.0
    """CPU time spent committing (of the thread that committed)."""


class Writer:
    """Group commit for every table of the server; see the module docstring."""

    def __init__(self, store: TableStore, *, max_batch: int = 1000) -> None:
        """A writer over ``store``; :meth:`start` it inside the event loop."""
        self.store = store
        self.max_batch = max_batch
        self.ended = 0
        """Saves of tables that are over, stored since the start (the list of finished games
        changes with them)."""
        self.inline = bool(getattr(store, "quick_commits", False))
        """Commit on the event loop (a quick, local store) rather than in the writer's thread."""
        self.stats = WriterStats()
        self._queue: asyncio.Queue[tuple[Save | Job[Any], asyncio.Future[Any]] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._checkpoints: asyncio.Task[None] | None = None
        self._thread: ThreadPoolExecutor | None = ThreadPoolExecutor(max_workers=1,
                                                                     thread_name_prefix="mushka-writer")
        self._closing = False
        self.failing = False
        """The last commit failed even after its retries (cleared by the next that works)."""
        self.last_error: str | None = None

    def start(self) -> None:
        """Start the writer's task (and the checkpoints of a store that commits on the loop)."""
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._run(), name="mushka-writer")
        # A store that leaves its checkpoints to the writer gets them whether it commits on the
        # loop or in the thread (else SQLite's WAL would grow without end).
        own = bool(getattr(self.store, "own_checkpoints", self.inline))
        if own and self._checkpoints is None and callable(getattr(self.store, "checkpoint", None)):
            self._checkpoints = loop.create_task(self._checkpoint_now_and_then(), name="mushka-checkpoints")

    async def _checkpoint_now_and_then(self) -> None:
        loop = asyncio.get_running_loop()
        checkpoint = self.store.checkpoint
        while self._thread is not None:
            await asyncio.sleep(CHECKPOINT_EVERY)
            try:
                await loop.run_in_executor(self._thread, checkpoint)
            except Exception:  # a failed checkpoint is done again next time; commits go on
                log.warning("checkpoint failed", exc_info=True)

    async def write(self, save: Save) -> None:
        """Store ``save``; returns once it is committed (raises :class:`WriteFailed` if it never is,
        :class:`LeaseLost` if the table's lease is another process's now)."""
        if self._closing or self._task is None:
            # Shutting down (or never started): store it directly, in order with the rest.
            if save.table_id in await self._commit_now([save]):
                raise LeaseLost(save.table_id)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((save, future))
        await future

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a write of the store's own: a lease renewed or claimed) where and when the
        commits run, between two of them, so that one process never competes with itself for
        the database's write lock; its result, or its exception."""
        if self._closing or self._task is None:
            return await self._off_loop(work)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((Job(work), future))
        return await future

    async def _off_loop(self, work: Callable[[], T]) -> T:
        if self.inline or self._thread is None:
            return work()
        return await asyncio.get_running_loop().run_in_executor(self._thread, work)

    @property
    def pending(self) -> int:
        """Saves waiting for the next transaction."""
        return self._queue.qsize()

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            if isinstance(item[0], Job):
                await self._run_job(item[0], item[1])
                continue
            batch: list[tuple[Save, asyncio.Future[Any]]] = [(item[0], item[1])]
            while len(batch) < self.max_batch and not self._queue.empty():
                more = self._queue.get_nowait()
                if more is None:
                    self._queue.put_nowait(None)  # finish this batch first, then stop
                    break
                if isinstance(more[0], Job):
                    await self._run_job(more[0], more[1])  # between two commits, as the rest
                    continue
                batch.append((more[0], more[1]))
            saves = [s for s, _ in batch]
            error: Exception | None = None
            refused: Set[str] = frozenset()
            try:
                refused = await self._commit_now(saves)
            except WriteFailed as exc:
                error = exc
            for save, future in batch:
                if not future.done():
                    if error is not None:
                        future.set_exception(error)
                    elif save.table_id in refused:
                        future.set_exception(LeaseLost(save.table_id))
                    else:
                        future.set_result(None)

    async def _run_job(self, job: Job[Any], future: asyncio.Future[Any]) -> None:
        try:
            result = await self._off_loop(job.work)
        except Exception as exc:  # handed to whoever asked for the work
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(result)

    async def _commit_now(self, saves: list[Save]) -> Set[str]:
        loop = asyncio.get_running_loop()
        for attempt in range(len(RETRY_DELAYS) + 1):
            began = time.perf_counter()
            try:
                if self.inline or self._thread is None:
                    cpu, refused = self._commit(saves)  # quick, or after close: stored right here
                else:
                    cpu, refused = await loop.run_in_executor(self._thread, self._commit, saves)
            except Exception as exc:  # any driver error: try again, then give up on this batch
                self.stats.failures += 1
                if attempt == len(RETRY_DELAYS):
                    log.exception("storing %d changes failed; their tables wait for storage", len(saves))
                    self.failing = True
                    self.last_error = f"{type(exc).__name__}: {exc}"[:300]
                    raise WriteFailed(str(exc)) from exc
                log.warning("storing %d changes failed (%s); trying again", len(saves), exc)
                await asyncio.sleep(RETRY_DELAYS[attempt])
                continue
            self.stats.seconds += time.perf_counter() - began
            self.stats.cpu_seconds += cpu
            self.stats.commits += 1
            self.stats.saves += len(saves)
            self.stats.largest = max(self.stats.largest, len(saves))
            self.ended += sum(1 for save in saves if save.status == "over" and save.table_id not in refused)
            self.failing = False
            return refused
        raise AssertionError("unreachable: the last try raises")

    def _commit(self, saves: list[Save]) -> tuple[float, Set[str]]:
        """Commit ``saves`` (in whichever thread calls this); the thread's CPU time it took, and
        the tables whose saves the store refused (their lease is another process's)."""
        began = time.thread_time()
        refused = self.store.commit(saves) or frozenset()
        return time.thread_time() - began, refused

    async def close(self) -> None:
        """Commit everything queued, then stop (a clean shutdown loses nothing)."""
        self._closing = True
        await stop_task(self._checkpoints)
        self._checkpoints = None
        if self._task is not None:
            self._queue.put_nowait(None)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None


add_texts({
    "server.error.storage_down": (
        "the server cannot store the game right now, so it takes no changes; the table goes on "
        "by itself as soon as storage is back",
        "сервер сейчас не может сохранить игру и поэтому не принимает ходов; стол продолжит "
        "сам, как только хранилище заработает",
    ),
})
