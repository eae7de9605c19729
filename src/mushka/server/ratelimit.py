"""P6: token buckets for the connections and for table creation by address."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """Allows ``rate`` events a second on average and ``burst`` at once."""

    __slots__ = ("_clock", "_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        """A full bucket."""
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def allow(self) -> bool:
        """Take one token if there is one; ``False`` means the event is refused."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    @property
    def full(self) -> bool:
        """Whether the bucket has refilled completely (it can then be forgotten)."""
        return self._tokens + (self._clock() - self._last) * self.rate >= self.burst


class AddressLimiter:
    """One bucket per client address; full buckets are dropped now and then."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        """Limits of ``rate`` a second and ``burst`` at once for every address."""
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, address: str) -> bool:
        """Whether ``address`` may make one more call now."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._buckets = {a: b for a, b in self._buckets.items() if not b.full}
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._clock)
        return bucket.allow()
