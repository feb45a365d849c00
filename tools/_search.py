"""The catalog search index as a tool service: opened (or built) once per process, swapped when the catalog changes."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from store.search import CatalogIndex, fingerprint, index_root, open_current
from tools.context import ToolContext


@dataclass
class _State:
    fp: str | None = None
    checked: float = 0.0
    root: Path | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


async def catalog_index(ctx: ToolContext) -> CatalogIndex:
    """The index of the catalog as it is now; its fingerprint is read at most every
    ``catalog_version_check_s`` seconds (0 = every call), and a changed catalog opens or builds another."""
    state: _State = ctx.services.setdefault("catalog_index.state", _State())
    now = time.monotonic()
    if state.fp is None or now - state.checked >= ctx.settings.catalog_version_check_s:
        state.checked = now  # one request reads it; those arriving meanwhile use the index they have
        try:
            async with ctx.sessions() as s:
                state.fp = await fingerprint(s)
        except BaseException:
            state.checked = 0.0  # read again by the next request
            raise
    cached = ctx.services.get("catalog_index")
    if cached is not None and cached[0] == state.fp:  # the common case: no lock, no path
        return cached[1]
    if state.root is None:
        state.root = index_root(ctx.settings.database_url, ctx.settings.search_dir or None)
    root = state.root
    async with state.lock:  # one build per process at a time; the others wait for it
        return await ctx.service("catalog_index", state.fp, lambda: open_current(ctx.sessions, root))
