"""A per-process cache of the JSON bodies of catalog reads.

The catalog (cards, sets, releases, parallels, grades ...) is the same for every API key and changes
only when an importer runs, so a page already answered can be answered again from memory: a hit
costs the middlewares plus a dictionary lookup, where a miss costs the database query, building the
models and encoding the JSON. Only tools declared ``cache=True`` (deterministic reads of shared
data; never random pulls, never per-key data) are cached, keyed by the tool and its query and path
parameters exactly as sent. Only successful answers are stored; errors are recomputed every time.

Freshness: ``cardwise import ...`` and ``cardwise vision ...`` raise the catalog version
(``store/queries/catalog_version.py``) when they end; each process reads it at most every
``CARDWISE_CATALOG_VERSION_CHECK_S`` (1) seconds, before answering from the cache, and drops every
entry when it moved. So an import by another process shows within about a second. The app watches the
search index's own read (``tools._search.served_fingerprint``: the version and the row counts, or the open
index's while a large catalog's new index is built behind it), so the cache and the index never disagree on
the catalog a cached answer was computed from.

Bounds: ``CARDWISE_CATALOG_CACHE_S`` (60) seconds per entry, which is also the longest a change made
outside those commands (by hand in SQL) takes to show (each entry lives 60-100 % of it, at random: entries
made together, after a start or a catalog change, would otherwise expire together and every client would
wait on a burst of recomputations at that moment), and ``CARDWISE_CATALOG_CACHE_ENTRIES``
(4096) entries and ``CARDWISE_CATALOG_CACHE_MB`` (64) megabytes of bodies. Out first: the least recently
used of the entries never asked again, then of those asked again (a segmented LRU: up to 80 % of the room
is kept for answers asked at least twice, so a stream of one-off searches, a keystroke each, cannot flush
the popular ones). ``0`` for any of them turns the cache off. Responses carry
``X-Cache: HIT`` or ``MISS``; ``cardwise_response_cache_total{result}`` counts hits, misses and joins.

Identical misses are computed once (single flight): while one request computes an entry, the same
request arriving from other clients waits for that answer instead of running the query again
(``X-Cache: HIT``, counted as ``joined``). Without it, a popular search that expires under load is
recomputed by every client asking at that moment, each query slowing the others. A failed
computation stores nothing, and each waiting request then computes its own answer.

Refresh ahead: in the last ``REFRESH_SHARE`` (half) of an entry's life the first request asking for it starts
one recomputation in the background (``refresh``; counted as ``refresh``) and is answered the held
answer, as is everyone until the new one replaces it (past its expiry too, while that recomputation
runs, by at most another ``STALE_SHARE`` of the TTL: then they wait for it). The window is wide so an answer asked
only now and then is still refreshed before it expires, and the spread keeps the entries made together after a
start or a catalog change from all coming due at once; a refresh's time limit counts from its start, not from
when it was queued behind the others. So an answer asked again and again
never expires under its clients: none waits on it. An answer computed before the catalog version moved
is never stored nor handed to a request that came after.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

import metrics

CACHE_HEADER = "X-Cache"


EXPIRY_SPREAD = 0.4  # the share of the TTL by which an entry may expire early (spreads recomputations)
PROTECTED_SHARE = 0.8  # of the entries and bytes, at most this much for answers asked again
REFRESH_SHARE = 0.5  # the last part of an entry's life in which asking for it recomputes it in the background
STALE_SHARE = 0.25  # of the TTL: how long past its expiry an answer stands while its refresh runs
REFRESHES = 2  # background recomputations at once (the others wait their turn; their held answers stand)
Entry = tuple[float, float, int, bytes]  # refresh from, expires, status, body
Compute = Callable[[], Awaitable[tuple[int, bytes]]]


def _count(result: str) -> None:
    metrics.series_of(metrics.RESPONSE_CACHE, ("result",), (result,)).inc()


_HITS = metrics.series_of(metrics.RESPONSE_CACHE, ("result",), ("hit",))
_MISSES = metrics.series_of(metrics.RESPONSE_CACHE, ("result",), ("miss",))


class ResponseCache:
    def __init__(self, ttl_s: float, max_entries: int, max_bytes: int = 64 << 20, clock=time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.size = 0  # bytes of bodies held
        self._clock = clock
        # new entries (probation) and those asked again since (protected), least recently used first
        self._entries: OrderedDict[Hashable, Entry] = OrderedDict()
        self._protected: OrderedDict[Hashable, Entry] = OrderedDict()
        self._protected_size = 0
        # answers being computed: their future and the catalog generation they were started in
        self._computing: dict[Hashable, tuple[asyncio.Future, int]] = {}
        self._generation = 0  # raised by clear(): what was computed before is not stored
        self._refreshing: set[asyncio.Task] = set()
        self._slots = asyncio.Semaphore(REFRESHES)
        self._read_version: Callable[[], Awaitable[object]] | None = None
        self._peek_version: Callable[[], object | None] | None = None
        self._check_every_s = 1.0
        self._next_check = float("-inf")
        self._version: object = None

    @property
    def enabled(self) -> bool:
        return self.ttl_s > 0 and self.max_entries > 0 and self.max_bytes > 0

    def __len__(self) -> int:
        return len(self._entries) + len(self._protected)

    def get(self, key: Hashable) -> tuple[int, bytes] | None:
        found = self.lookup(key)
        return None if found is None else (found[0], found[1])

    def lookup(self, key: Hashable) -> tuple[int, bytes, bool] | None:
        """The answer held for ``key`` and whether it is due for a refresh (in the last ``REFRESH_SHARE`` of
        its life, none running), or None. An expired answer stands while its refresh runs, for at most
        another ``STALE_SHARE`` of the TTL (then requests wait for that refresh)."""
        protected = True
        entry = self._protected.get(key)
        if entry is None:
            protected, entry = False, self._entries.get(key)
        if entry is not None:
            refresh_from, expires, status, body = entry
            now = self._clock()
            running = key in self._computing
            if expires > now or (running and now < expires + self.ttl_s * STALE_SHARE):
                if protected:
                    self._protected.move_to_end(key)
                else:
                    self._promote(key, entry)
                _HITS.inc()
                return status, body, now >= refresh_from and not running
            self._drop(key)
        _MISSES.inc()
        return None

    def watch(self, read_version: Callable[[], Awaitable[object]], every_s: float,
              peek_version: Callable[[], object | None] | None = None) -> None:
        """Drop every entry whenever ``read_version()`` (read at most every ``every_s``) changes; ``peek_version()``
        is that version when it can be had without awaiting (else None)."""
        self._read_version, self._check_every_s, self._peek_version = read_version, every_s, peek_version

    def synced(self) -> bool:
        """``sync()`` done without awaiting, where it is not due or the version can be peeked; False: await ``sync()``
        (most requests skip its coroutine)."""
        if self._read_version is None or self._clock() < self._next_check:
            return True
        version = self._peek_version() if self._peek_version is not None else None
        if version is None:
            return False
        self._next_check = self._clock() + self._check_every_s
        self._seen(version)
        return True

    async def sync(self) -> None:
        """Read the catalog version when it is due; clear the cache if it moved since the last read."""
        if self._read_version is None or self._clock() < self._next_check:
            return
        self._next_check = self._clock() + self._check_every_s
        try:
            version = await self._read_version()
        except Exception:  # database unreachable: answers stand (the TTL bounds them); tried again next interval
            return
        self._seen(version)

    def _seen(self, version: object) -> None:
        if self._version is not None and version != self._version:
            self.clear()
        self._version = version

    def is_computing(self, key: Hashable) -> bool:
        """Whether a request is computing ``key`` now (``join`` would wait for it)."""
        return key in self._computing

    async def join(self, key: Hashable) -> tuple[int, bytes] | None:
        """The answer another request is computing for ``key`` (awaited), or None when none is (or it was
        started before the catalog last changed)."""
        running = self._computing.get(key)
        if running is None or running[1] != self._generation:
            return None
        answer = await asyncio.shield(running[0])
        if answer is not None:
            _count("joined")
        return answer

    def computing(self, key: Hashable) -> _Computing:
        """Mark ``key`` as being computed by this request (``with``); yields ``store(status, body)``, which hands
        the answer to the requests ``join`` holds and keeps it (unless the catalog changed meanwhile)."""
        return _Computing(self, key)

    def refresh(self, key: Hashable, compute: Compute, timeout_s: float | None = None) -> None:
        """Recompute ``key`` in the background with ``compute()`` (status, body), unless that is running;
        at most ``REFRESHES`` at once. A failure (or ``timeout_s``) keeps the held answer until it expires."""
        if key in self._computing:
            return
        pending, generation = self._begin(key)

        async def run() -> None:
            try:
                async with self._slots, asyncio.timeout(timeout_s):
                    status, body = await compute()
                self._store(key, pending, generation, status, body)
            except Exception:  # noqa: BLE001 - the database may be away: the held answer expires as usual
                pass
            finally:
                self._end(key, pending)

        _count("refresh")
        task = asyncio.ensure_future(run())
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def close(self) -> None:
        """Cancel the background refreshes (at shutdown)."""
        for task in list(self._refreshing):
            task.cancel()
        await asyncio.gather(*self._refreshing, return_exceptions=True)

    def _begin(self, key: Hashable) -> tuple[asyncio.Future, int]:
        pending = asyncio.get_running_loop().create_future()
        self._computing[key] = (pending, self._generation)
        return pending, self._generation

    def _end(self, key: Hashable, pending: asyncio.Future) -> None:
        running = self._computing.get(key)
        if running is not None and running[0] is pending:
            del self._computing[key]
        if not pending.done():  # failed or cancelled: the waiting requests compute their own
            pending.set_result(None)

    def _store(self, key: Hashable, pending: asyncio.Future, generation: int, status: int, body: bytes) -> None:
        if not pending.done():
            pending.set_result((status, body))
        if generation == self._generation:  # computed before the catalog changed: handed out, not kept
            self.put(key, status, body)

    def put(self, key: Hashable, status: int, body: bytes) -> None:
        """Keep an answer: a new one on probation; a refreshed one where its key was (a protected answer,
        recomputed, stays protected: one-off searches would otherwise flush it from probation)."""
        if len(body) > self.max_bytes:
            return
        protected = key in self._protected
        self._drop(key)
        now, life = self._clock(), self.ttl_s * (1.0 - EXPIRY_SPREAD * random.random())
        entry = (now + life * (1.0 - REFRESH_SHARE), now + life, status, body)
        self.size += len(body)
        if protected:
            self._protect(key, entry)
        else:
            self._entries[key] = entry
        while len(self) > self.max_entries or self.size > self.max_bytes:
            self._drop(next(iter(self._entries or self._protected)))

    def _promote(self, key: Hashable, entry: Entry) -> None:
        """A new entry asked again: protected."""
        del self._entries[key]
        self._protect(key, entry)

    def _protect(self, key: Hashable, entry: Entry) -> None:
        """Hold ``entry`` as the most recent protected one; the least recently used protected ones beyond
        their share go back to probation (as its most recent)."""
        self._protected[key] = entry
        self._protected_size += len(entry[3])
        while (len(self._protected) > self.max_entries * PROTECTED_SHARE
               or self._protected_size > self.max_bytes * PROTECTED_SHARE):
            old, demoted = self._protected.popitem(last=False)
            self._protected_size -= len(demoted[3])
            self._entries[old] = demoted

    def _drop(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is None:
            entry = self._protected.pop(key, None)
            if entry is not None:
                self._protected_size -= len(entry[3])
        if entry is not None:
            self.size -= len(entry[3])

    def clear(self) -> None:
        self._generation += 1
        self._entries.clear()
        self._protected.clear()
        self.size = self._protected_size = 0


class _Computing:
    """``ResponseCache.computing``'s context (a class: ``contextlib.contextmanager`` cost every miss a generator)."""

    __slots__ = ("cache", "key", "pending", "generation")

    def __init__(self, cache: ResponseCache, key: Hashable) -> None:
        self.cache, self.key = cache, key

    def __enter__(self) -> Callable[[int, bytes], None]:
        self.pending, self.generation = self.cache._begin(self.key)
        return self.store

    def store(self, status: int, body: bytes) -> None:
        self.cache._store(self.key, self.pending, self.generation, status, body)

    def __exit__(self, *exc: object) -> None:
        self.cache._end(self.key, self.pending)


def cache_key(tool_name: str, data: dict) -> Hashable:
    """The tool and its inputs as received (query values in order, list values as tuples)."""
    return tool_name, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in data.items()))
