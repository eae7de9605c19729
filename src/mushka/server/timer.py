"""The turn timer (P15): a deadline per person's move, and a bot when it passes.

A table created with ``turn_seconds`` gives the person to act that many
seconds.  The deadline is the server's (the event loop's monotonic clock);
what clients get is the time *remaining* when the message left (``clock``),
so a page counts down from its own receipt of it and no two clocks are ever
compared.  When the time is up the table lets a bot (the server's default
opponent, the strongest fair level unless the host chose otherwise) play for
that seat, marks the seat ``substitute`` and ``timed_out`` for everybody to
see, and keeps playing for it until the player comes back: an ``act`` of
his, a ``back`` message, or a new connection of his seat takes it back.

A move is applied only under the table's lock and only if the table's
version is the one the timer was set at, so a player's move that arrives
with the deadline can never be doubled by the bot's (the same P9 check as
for people).  The setting is stored with the table, and so is the moment of its
last change: a table taken over by another process after its own died (or brought
back after a restart) gives the person to act what was left of his time then.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from mushka.server.protocol import TURN_SECONDS, Clock
from mushka.server.texts import ProtocolError

Expire = Callable[[int, int], Awaitable[None]]
"""What the table does when the time of ``(seat, version)`` is up."""

FRIENDS_DEFAULT = 60
"""Seconds per move when a table with other people does not say (practice tables: none)."""


def turn_seconds(given: int | None, *, friends: bool, allowed: tuple[int, ...] = TURN_SECONDS) -> int:
    """P15: the timer of a new table: ``given`` if ``allowed``, else the default for its kind."""
    if given is None:
        return FRIENDS_DEFAULT if friends and FRIENDS_DEFAULT in allowed else 0
    if given not in allowed:
        raise ProtocolError("bad_timer", rule="P15", seconds=given,
                            allowed=", ".join(str(s) for s in allowed))
    return given


class TurnTimer:
    """One table's deadline for the move of one seat (see the module docstring)."""

    def __init__(self, seconds: int, expire: Expire) -> None:
        """A timer giving ``seconds`` per move (0: none) that calls ``expire`` when time is up."""
        self.seconds = seconds
        self._expire = expire
        self.seat: int | None = None
        self.version = -1
        self._deadline: float | None = None
        self._wall: datetime | None = None
        self._task: asyncio.Task[None] | None = None

    def arm(self, seat: int | None, version: int, spent: float = 0.0) -> bool:
        """Time the move of ``seat`` at ``version`` (None: time nothing), of which ``spent``
        seconds are gone already; True if that changed anything.

        Asking again for the seat and version already timed keeps its deadline."""
        if not self.seconds:
            seat = None
        if seat == self.seat and (seat is None or version == self.version):
            return False
        self.stop()
        self.seat, self.version = seat, version
        if seat is None:
            return True
        loop = asyncio.get_running_loop()
        left = max(0.0, self.seconds - spent)
        self._deadline = loop.time() + left
        self._wall = datetime.now(UTC) + timedelta(seconds=left)
        self._task = loop.create_task(self._run(seat, version))
        return True

    def stop(self) -> None:
        """Time nothing any more."""
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None
        self.seat, self._deadline, self._wall = None, None, None

    async def close(self) -> None:
        """Stop, and wait until the task is gone (the table closes)."""
        task = self._task
        self.stop()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def remaining(self) -> float | None:
        """Seconds left for the move timed now (None: nothing is timed)."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - asyncio.get_running_loop().time())

    def clock(self, version: int) -> Clock:
        """The ``clock`` message of now."""
        left = self.remaining()
        return Clock(version=version, seat=self.seat if left is not None else None, seconds=self.seconds,
                     remaining=None if left is None else round(left, 2),
                     deadline=None if self._wall is None else self._wall.isoformat())

    async def _run(self, seat: int, version: int) -> None:
        deadline = self._deadline
        assert deadline is not None
        await asyncio.sleep(max(0.0, deadline - asyncio.get_running_loop().time()))
        self._task = None  # the table re-arms (or stops) the timer from inside expire
        await self._expire(seat, version)
