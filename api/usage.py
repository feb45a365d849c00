"""Counting each key's requests for ``GET /v1/subscription/`` (``tools/usage.py`` keeps the counts)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from aiohttp import web
from aiohttp.typedefs import Handler

from api.keys import CALLER, CONTEXT
from tools.usage import UsageCounter

log = logging.getLogger("cardwise.api")
FLUSH_EVERY_S = 5.0


@web.middleware
async def count_usage(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Count a request made with a valid key (after auth and the rate limit let it through)."""
    caller = request.get(CALLER)
    if caller is not None:
        usage = request.app[CONTEXT].usage
        if usage is not None:
            usage.count(caller.key_id)
    return await handler(request)


async def flush_usage(app: web.Application) -> AsyncIterator[None]:
    """Write the counts every ``FLUSH_EVERY_S`` seconds and once more at shutdown."""
    ctx = app[CONTEXT]
    if ctx.usage is None:
        ctx.usage = UsageCounter()
    counter = ctx.usage

    async def loop() -> None:
        while True:
            await asyncio.sleep(FLUSH_EVERY_S)
            try:
                await counter.flush(ctx)
            except Exception as exc:  # the database may be down for a while: keep counting, retry later
                log.warning("usage counts not written", extra={"error": exc.__class__.__name__})

    task = asyncio.create_task(loop())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    try:
        await counter.flush(ctx)
    except Exception as exc:
        log.warning("usage counts lost at shutdown", extra={"error": exc.__class__.__name__})
