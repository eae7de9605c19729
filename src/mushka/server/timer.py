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

A table may also give every seat a *bank* for the whole game, as a chess clock
does (``bank_seconds``: 15 s a move + 3 min): when the move's own time is up the
seat's bank runs, and only when the bank is empty too is the time up.  What a
move took from the bank is charged to the seat when the move ends (he moves,
or the bot takes over); the banks left go with the table's saves.

A move is applied only under the table's lock and only if the table's
version is the one the timer was set at, so a player's move that arrives
with the deadline can never be doubled by the bot's (the same P9 check as
for people).  The setting is stored with the table, and so is the moment of its
last change: a table taken over by another process after its own died (or brought
back after a restart) gives the person to act what was left of his move's own time
then, and every seat the bank it had left at the last stored change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta

from mushka.i18n import add_texts
from mushka.server.protocol import BANK_SECONDS, TURN_SECONDS, Clock
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


def bank_seconds(given: int | None, *, turn: int, allowed: tuple[int, ...] = BANK_SECONDS) -> int:
    """P15: the bank of every seat of a new table whose time per move is ``turn``: ``given`` if
    ``allowed`` (None: no bank).  A bank needs a time per move (it runs when that is up)."""
    if not given:
        return 0
    if given not in allowed:
        raise ProtocolError("bad_bank", rule="P15", seconds=given,
                            allowed=", ".join(str(s) for s in allowed))
    if not turn:
        raise ProtocolError("bank_without_timer", rule="P15", seconds=given)
    return given


def banks_text(banks: Sequence[float]) -> str:
    """The banks left as stored: a JSON list of whole milliseconds, one per seat."""
    return json.dumps([round(b * 1000) for b in banks], separators=(",", ":"))


def banks_of_text(text: str | None, seats: int, bank: int) -> list[float]:
    """The banks left stored as :func:`banks_text` (a full ``bank`` per seat when none is stored)."""
    stored = json.loads(text) if text else []
    if not isinstance(stored, list) or len(stored) != seats:
        return [float(bank)] * seats
    return [max(0.0, min(float(bank), float(ms) / 1000)) for ms in stored]


class TurnTimer:
    """One table's deadline for the move of one seat (see the module docstring)."""

    def __init__(self, seconds: int, expire: Expire, *, bank: int = 0, seats: int = 0) -> None:
        """A timer giving ``seconds`` per move (0: none) and ``bank`` seconds to each of ``seats``
        for the whole game (0: none), that calls ``expire`` when time is up."""
        self.seconds = seconds
        self.bank = bank if seconds else 0
        self.banks: list[float] = [float(self.bank)] * seats
        """Every seat's bank left, as charged when its last timed move ended."""
        self._expire = expire
        self.seat: int | None = None
        self.version = -1
        self._deadline: float | None = None
        self._move_end: float = 0.0
        """When the move's own time ends and the bank starts running (the loop's clock)."""
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
        # Taken over from storage: the move's own time counts the time since the last stored
        # change, but the bank does not (that time may be the servers' being away, not his).
        left = max(0.0, self.seconds - spent)
        self._move_end = loop.time() + left
        total = left + self.bank_of(seat)
        self._deadline = loop.time() + total
        self._wall = datetime.now(UTC) + timedelta(seconds=total)
        self._task = loop.create_task(self._run(seat, version))
        return True

    def bank_of(self, seat: int) -> float:
        """The bank of ``seat`` as charged so far (not counting a move being timed now)."""
        return self.banks[seat] if seat < len(self.banks) else 0.0

    def banks_now(self) -> list[float]:
        """Every seat's bank left this moment: the seat being timed has what his move took from
        it already taken off (what the saves store)."""
        banks = list(self.banks)
        if self.seat is not None and self._deadline is not None and self.seat < len(banks):
            used = asyncio.get_running_loop().time() - self._move_end
            if used > 0:
                banks[self.seat] = max(0.0, banks[self.seat] - used)
        return banks

    def stop(self) -> None:
        """Time nothing any more (charging the seat timed until now what it took from its bank)."""
        if self.bank and self.seat is not None and self._deadline is not None:
            self.banks = self.banks_now()
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
        """Seconds left for the move timed now, its bank included (None: nothing is timed)."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - asyncio.get_running_loop().time())

    def clock(self, version: int) -> Clock:
        """The ``clock`` message of now."""
        left = self.remaining()
        banks = [round(b, 2) for b in self.banks_now()] if self.bank else None
        return Clock(version=version, seat=self.seat if left is not None else None, seconds=self.seconds,
                     remaining=None if left is None else round(left, 2),
                     deadline=None if self._wall is None else self._wall.isoformat(),
                     bank=self.bank, banks=banks)

    async def _run(self, seat: int, version: int) -> None:
        deadline = self._deadline
        assert deadline is not None
        await asyncio.sleep(max(0.0, deadline - asyncio.get_running_loop().time()))
        self._task = None  # the table re-arms (or stops) the timer from inside expire
        await self._expire(seat, version)


add_texts({
    "server.error.bad_bank": ("a time bank of {seconds} s is not offered; choose one of {allowed} (0: none)",
                              "запаса времени в {seconds} с нет; выберите одно из {allowed} (0 — без запаса)"),
    "server.error.bank_without_timer": (
        "a time bank of {seconds} s runs only after the time per move: choose a time per move too",
        "запас времени в {seconds} с идёт только после времени на ход: выберите и время на ход"),
})
