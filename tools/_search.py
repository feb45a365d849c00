"""The catalog search index as a tool service: opened (or built) once per process, swapped when the catalog changes."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from store.search import CatalogIndex, fingerprint, index_root, open_current
from store.search.location import row_counts
from tools.context import ToolContext


@dataclass
class _State:
    fp: str | None = None
    checked: float = 0.0
    counts: str | None = None  # the row counts last read, and when
    counted: float = 0.0
    root: Path | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


COUNT_EVERY_S = 30.0  # the row counts (a full count of four tables) are read at most this often


async def catalog_fingerprint(ctx: ToolContext) -> str:
    """What the catalog's index must be built from, as this process last read it: the catalog version
    (raised by every import) at most every ``catalog_version_check_s`` seconds (0 = every call), the row
    counts (rows written without it: hand edits) at most every ``COUNT_EVERY_S`` (every time when the check
    interval is 0). The response cache watches this same read, so a cached answer is never computed from
    an index older than the version the cache holds it under."""
    state: _State | None = ctx.services.get("catalog_index.state")
    if state is None:
        state = ctx.services["catalog_index.state"] = _State()
    now = time.monotonic()
    every = ctx.settings.catalog_version_check_s
    if state.fp is None or now - state.checked >= every:
        state.checked = now  # one request reads it; those arriving meanwhile use the index they have
        try:
            async with ctx.sessions() as s:
                if state.counts is None or every <= 0 or now - state.counted >= max(every, COUNT_EVERY_S):
                    state.counts, state.counted = await row_counts(s), now
                state.fp = await fingerprint(s, state.counts)
        except BaseException:
            state.checked = 0.0  # read again by the next request
            raise
    return state.fp


async def catalog_index(ctx: ToolContext) -> CatalogIndex:
    """The index of the catalog as it is now (``catalog_fingerprint``): a changed catalog opens or builds another."""
    fp = await catalog_fingerprint(ctx)
    cached = ctx.services.get("catalog_index")
    if cached is not None and cached[0] == fp:  # the common case: no lock, no path
        return cached[1]
    state: _State = ctx.services["catalog_index.state"]
    if state.root is None:
        state.root = index_root(ctx.settings.database_url, ctx.settings.search_dir or None)
    root = state.root
    async with state.lock:  # one build per process at a time; the others wait for it
        return await ctx.service("catalog_index", fp, lambda: open_current(ctx.sessions, root))
