"""Writing each key's request counts for ``GET /v1/subscription/`` (``tools/usage.py`` keeps them; the auth
middleware, ``api/middleware.py``, counts each request it lets through)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from api.keys import CONTEXT
from tools.usage import UsageCounter

log = logging.getLogger("cardwise.api")
FLUSH_EVERY_S = 5.0


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
