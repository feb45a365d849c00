"""Rate limits: token buckets per API key (429 ``RATE_LIMITED``) and per failed key, kept in this
process or, with ``CARDWISE_REDIS_URL`` set, in Redis so every process and node shares them.

Each key may send ``rate_limit_burst`` requests at once and then ``rate_limit_per_min`` a minute
(tokens refill continuously). Over the limit the answer is 429 with ``Retry-After`` (whole seconds
until a token is back), so one client cannot starve the others. Requests without a key (public
routes) are not limited here; unknown keys are, per client address and key prefix, in
``api/middleware.py`` (``CARDWISE_AUTH_FAIL_PER_MIN``); 0 turns a limit off. Without Redis each
process keeps its own buckets (N workers allow N times the limit); with Redis one bucket is updated
atomically by a Lua script on the server's clock. If Redis cannot be reached a request is counted
in the process's own buckets instead (logged), so an outage of Redis never fails a request.
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections.abc import Callable
from typing import Any


import metrics
from tools.errors import ServiceError

log = logging.getLogger("cardwise.api")
_PRUNE_EVERY = 4096
BucketKey = uuid.UUID | str


class TokenBuckets:
    def __init__(self, per_min: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_min / 60.0  # tokens a second
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: dict[BucketKey, tuple[float, float]] = {}  # key id/address -> (tokens, at)
        self._calls = 0

    def take(self, key: BucketKey) -> float:
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

    def wait(self, key: BucketKey) -> float:
        """Seconds until ``key`` has a token (0.0 when it has one now); takes nothing."""
        tokens = self._level(key, self.clock())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def _level(self, key: BucketKey, now: float) -> float:
        """The tokens ``key`` holds at ``now`` (a bucket never seen is full)."""
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - at) * self.rate)

    def _prune(self, now: float) -> None:
        """Forget keys whose bucket has refilled (they would start full anyway)."""
        full_after = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full_after}


# KEYS[1] the bucket; ARGV rate (tokens/s), burst, take (1 = take a token, 0 = only look).
# Returns the seconds to wait as a string (Lua numbers become integers in replies).
_BUCKET_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst, take = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens >= 1 then
  if take == 1 then tokens = tokens - 1 end
else
  wait = (1 - tokens) / rate
end
if take == 1 then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
end
return tostring(wait)
"""


class Limiter:
    """Token buckets behind one async interface: in this process, or in Redis when ``redis`` is given
    (a ``redis.asyncio`` client, owned by the app; ``name`` keeps the limits apart there)."""

    def __init__(self, per_min: float, burst: int, *, redis: Any = None, name: str = "rate",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.local = TokenBuckets(per_min, burst, clock)
        self.redis = redis
        self.prefix = f"cardwise:{name}:"
        self._script = redis.register_script(_BUCKET_LUA) if redis is not None else None
        self._warned_at = -math.inf

    @property
    def shared(self) -> bool:
        return self.redis is not None

    async def take(self, key: BucketKey) -> float:
        """Take one token for ``key``: 0.0 when allowed, else the seconds until one is available."""
        return await self._call(key, take=True)

    async def wait(self, key: BucketKey) -> float:
        """Seconds until ``key`` has a token; takes nothing."""
        return await self._call(key, take=False)

    async def _call(self, key: BucketKey, *, take: bool) -> float:
        if self._script is not None:
            try:
                reply = await self._script(keys=[self.prefix + str(key)],
                                           args=[self.local.rate, self.local.burst, 1 if take else 0])
                return float(reply)
            except Exception as exc:  # noqa: BLE001 - any Redis failure: count in this process instead
                if time.monotonic() - self._warned_at > 60:
                    self._warned_at = time.monotonic()
                    log.warning("redis unavailable for rate limits; counting per process",
                                extra={"error": repr(exc)})
        return self.local.take(key) if take else self.local.wait(key)


def redis_client(url: str) -> Any:
    """A ``redis.asyncio`` client for ``url`` (short timeouts: a limit check must never hang a request)."""
    import redis.asyncio as aioredis

    return aioredis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5, health_check_interval=30)


def rate_limited(reason: str, wait: float) -> ServiceError:
    """The 429 ``RATE_LIMITED`` error (counted) for a client that must wait ``wait`` seconds."""
    metrics.RATE_LIMITED.inc()
    return ServiceError("RATE_LIMITED", f"{reason}; retry in {math.ceil(wait)} s",
                        retry_after=max(1.0, float(math.ceil(wait))))
