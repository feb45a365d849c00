"""``KeyCache``: accepted API keys remembered by hash for a short time, so a busy client costs no key lookup per
request (used by the auth middleware, ``api/middleware.py``, and the MCP command)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from tools.context import Caller

_AGAIN = object()  # a shared key lookup was cancelled: look it up again


class KeyCache:
    """Valid keys seen recently (by hash), so a busy client costs no key lookup per request.

    Only accepted keys are cached, for ``ttl`` seconds: a key revoked with ``cardwise keys
    revoke`` stops working within that time (``CARDWISE_AUTH_CACHE_S``; 0 disables the cache).
    Under load a key is looked up again once, in the background, in the last fifth of its time
    (``due``), and requests missing the same key share one lookup (``single``): an expiry used to
    send every request in flight to the database at once (hundreds of lookups a second at 32
    connections).
    """

    REFRESH_SHARE = 0.2  # the last part of an entry's time in which one request refreshes it in the background

    def __init__(self, ttl: float, max_entries: int = 10_000) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, Caller]] = {}
        self._pending: dict[str, asyncio.Future] = {}  # lookups in progress, by key hash
        self._refreshing: set[asyncio.Task] = set()

    def get(self, key_hash: str) -> Caller | None:
        hit = self._entries.get(key_hash)
        if hit is None:
            return None
        if hit[0] < time.monotonic():
            self._entries.pop(key_hash, None)
            return None
        return hit[1]

    def due(self, key_hash: str) -> bool:
        """Whether a cached key is in the last ``REFRESH_SHARE`` of its time and not being looked up yet."""
        hit = self._entries.get(key_hash)
        return (hit is not None and key_hash not in self._pending
                and hit[0] - time.monotonic() < self.ttl * self.REFRESH_SHARE)

    def put(self, key_hash: str, caller: Caller) -> None:
        if self.ttl <= 0:
            return
        if len(self._entries) >= self.max_entries:
            self._entries.clear()
        self._entries[key_hash] = (time.monotonic() + self.ttl, caller)

    async def single(self, key_hash: str, lookup: Callable[[], Awaitable[Caller | None]]) -> Caller | None:
        """``lookup()``'s answer, shared by the requests asking for the same key meanwhile; cached when valid."""
        while (pending := self._pending.get(key_hash)) is not None:
            got = await asyncio.shield(pending)
            if got is not _AGAIN:
                return got
        pending = asyncio.get_running_loop().create_future()
        self._pending[key_hash] = pending
        try:
            caller = await lookup()
        except Exception as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: the waiting requests raise it, or nobody does
            raise
        except BaseException:  # cancelled (the request's own timeout): the waiting requests look it up again
            pending.set_result(_AGAIN)
            raise
        finally:
            if self._pending.get(key_hash) is pending:
                del self._pending[key_hash]
        if caller is None:
            self._entries.pop(key_hash, None)
        else:
            self.put(key_hash, caller)
        pending.set_result(caller)
        return caller

    def refresh(self, key_hash: str, lookup: Callable[[], Awaitable[Caller | None]]) -> None:
        """Look a cached key up again in the background (a revoked one is dropped; a failure keeps the entry
        until it expires)."""
        async def run() -> None:
            try:
                await self.single(key_hash, lookup)
            except Exception:  # noqa: BLE001 - the database may be away: the entry expires as usual
                pass

        task = asyncio.ensure_future(run())
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)
