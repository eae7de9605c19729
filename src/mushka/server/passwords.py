"""Passwords (argon2id) and the sign-in limits (P20).

The parameters were measured on the two-core machine the server is sized for
(``docs/accounts.md``, ``bench/signin.py``): 19 MiB of memory, two passes, one lane
(OWASP's first recommended setting for argon2id) take about 50 ms a verify there, so a
sign-in stays well inside its 300 ms of server time even with a few at once, and a
guess costs an attacker with the stored hash the same memory-hard work.  At most
:data:`HASHING_AT_ONCE` hashes run at a time (each holds its memory): a burst of
sign-ins waits its turn instead of taking every core from the games.

Hashes made with other parameters still verify (argon2's encoded form carries them) and
are made again with these at the next successful sign-in.
"""

from __future__ import annotations

import asyncio
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

TIME_COST: Final = 2
"""argon2id passes over the memory."""

MEMORY_KIB: Final = 19_456
"""argon2id memory, KiB (19 MiB)."""

PARALLELISM: Final = 1
"""argon2id lanes: one, so that a sign-in takes one core and the games keep the other."""

HASHER: Final = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=PARALLELISM)
"""The server's hasher (argon2id, 16-byte salt, 32-byte hash)."""

HASHING_AT_ONCE: Final = 2
"""Hashes computed at the same time by one process (the others wait)."""

MIN_PASSWORD: Final = 8
"""P18: the fewest characters of a password."""

MAX_PASSWORD: Final = 256
"""P18: the most characters of a password (a longer one is refused, not cut)."""

# P20: how many failed sign-ins are allowed, and for how long a name or an address is then
# refused.  A name's limit protects its account from guessing; an address's, every account
# from one address trying many names.
NAME_FAILURES: Final = 5
ADDRESS_FAILURES: Final = 20
WINDOW_MS: Final = 15 * 60_000
BLOCK_MS: Final = 15 * 60_000

_DUMMY: Final = HASHER.hash("a password nobody has: verified against when the name is unknown")
"""Verified against when nobody has the name, so that an unknown name takes as long to refuse
as a wrong password (the time does not tell which names have accounts)."""

_gate: asyncio.Semaphore | None = None
_gate_loop: asyncio.AbstractEventLoop | None = None


def _semaphore() -> asyncio.Semaphore:
    """The hashing gate of the running event loop (tests run several loops one after another)."""
    global _gate, _gate_loop
    loop = asyncio.get_running_loop()
    if _gate is None or _gate_loop is not loop:
        _gate, _gate_loop = asyncio.Semaphore(HASHING_AT_ONCE), loop
    return _gate


async def hash_password(password: str) -> str:
    """The stored form of a new password (argon2id, encoded with its parameters and salt)."""
    async with _semaphore():
        return await asyncio.to_thread(HASHER.hash, password)


async def verify_password(stored: str | None, password: str) -> tuple[bool, bool]:
    """Whether ``password`` matches ``stored`` (None: nobody has the name; the same work is
    done), and whether the hash should be made again with this server's parameters."""
    def check() -> tuple[bool, bool]:
        try:
            HASHER.verify(stored if stored is not None else _DUMMY, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False, False
        if stored is None:
            return False, False
        return True, HASHER.check_needs_rehash(stored)

    async with _semaphore():
        return await asyncio.to_thread(check)
