"""Per-key rate limiting: an in-process token bucket per API key id (429 ``RATE_LIMITED``).

Each key may send ``rate_limit_burst`` requests at once and then ``rate_limit_per_min`` a minute
(tokens refill continuously). Over the limit the answer is 429 with ``Retry-After`` (whole seconds
until a token is back), so one client cannot starve the others. Requests without a key (public
routes) are not limited here; unknown keys are, per client address, in ``api/middleware.py``
(``CARDWISE_AUTH_FAIL_PER_MIN``); 0 turns the limit off. With several worker processes each process
keeps its own buckets, so the effective limit is per process.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable

from aiohttp import web

from api.keys import CALLER
from tools import metrics
from tools.errors import ServiceError

_PRUNE_EVERY = 4096


class TokenBuckets:
    def __init__(self, per_min: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_min / 60.0  # tokens a second
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: dict[uuid.UUID | str, tuple[float, float]] = {}  # key id/address -> (tokens, at)
        self._calls = 0

    def take(self, key: uuid.UUID | str) -> float:
        """Take one token for ``key``: 0.0 when allowed, else the seconds until one is available."""
        now = self.clock()
        tokens = self._level(key, now)
        self._calls += 1
        if self._calls % _PRUNE_EVERY == 0:
            self._prune(now)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def wait(self, key: uuid.UUID | str) -> float:
        """Seconds until ``key`` has a token (0.0 when it has one now); takes nothing."""
        tokens = self._level(key, self.clock())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def _level(self, key: uuid.UUID | str, now: float) -> float:
        """The tokens ``key`` holds at ``now`` (a bucket never seen is full)."""
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - at) * self.rate)

    def _prune(self, now: float) -> None:
        """Forget keys whose bucket has refilled (they would start full anyway)."""
        full_after = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full_after}


def rate_limited(reason: str, wait: float) -> ServiceError:
    """The 429 ``RATE_LIMITED`` error (counted) for a client that must wait ``wait`` seconds."""
    metrics.RATE_LIMITED.inc()
    return ServiceError("RATE_LIMITED", f"{reason}; retry in {math.ceil(wait)} s",
                        retry_after=max(1.0, float(math.ceil(wait))))


def rate_limit_middleware(per_min: int, burst: int, clock: Callable[[], float] = time.monotonic):
    buckets = TokenBuckets(per_min, burst, clock)

    @web.middleware
    async def rate_limit(request: web.Request, handler):
        caller = request.get(CALLER)
        if caller is not None:
            wait = buckets.take(caller.key_id)
            if wait > 0:
                raise rate_limited("Too many requests for this API key", wait)
        return await handler(request)

    rate_limit.buckets = buckets  # type: ignore[attr-defined]
    return rate_limit
