"""The catalog search index as a tool service: opened (or built) once per process, swapped when the catalog changes."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
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
    building: str | None = None  # the catalog whose index is being built behind the one open
    task: asyncio.Task | None = None


COUNT_EVERY_S = 30.0  # the row counts (a full count of four tables) are read at most this often
# from this many cards a changed catalog's index is built in the background while the open one answers (a build
# takes seconds from here, minutes at 1M); below it the request waits for the build and sees the change at once
BUILD_BEHIND_FROM = 50_000
log = logging.getLogger("cardwise.search")


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


def _fingerprint_now(ctx: ToolContext) -> str | None:
    """``catalog_fingerprint`` when it is not due for a read (None: await it)."""
    state: _State | None = ctx.services.get("catalog_index.state")
    if state is None or state.fp is None or time.monotonic() - state.checked >= ctx.settings.catalog_version_check_s:
        return None
    return state.fp


def current_index(ctx: ToolContext) -> CatalogIndex | None:
    """``catalog_index`` when it is open and no read of the catalog version is due: most requests, which then
    await nothing for it (None: await ``catalog_index``)."""
    fp = _fingerprint_now(ctx)
    cached = ctx.services.get("catalog_index")
    return cached[1] if fp is not None and cached is not None and cached[0] == fp else None


async def catalog_index(ctx: ToolContext) -> CatalogIndex:
    """The index of the catalog as it is now (``catalog_fingerprint``): a changed catalog opens or builds another
    (a large one is built behind the index open, which answers meanwhile: ``_meanwhile``)."""
    fp = await catalog_fingerprint(ctx)
    cached = ctx.services.get("catalog_index")
    if cached is not None and cached[0] == fp:  # the common case: no lock, no path
        return cached[1]
    meanwhile = _meanwhile(ctx, fp)
    if meanwhile is not None:
        return meanwhile[1]
    state: _State = ctx.services["catalog_index.state"]
    async with state.lock:  # one build per process at a time; the others wait for it
        return await ctx.service("catalog_index", fp, lambda: open_current(ctx.sessions, _root(ctx, state)))


async def served_fingerprint(ctx: ToolContext) -> str:
    """The catalog answers are computed from: ``catalog_fingerprint``, or while a changed catalog's index is built
    behind the open one, that one's (so a cached answer is never held under a catalog it was not computed from)."""
    fp = await catalog_fingerprint(ctx)
    meanwhile = _meanwhile(ctx, fp)
    return fp if meanwhile is None else meanwhile[0]


def served_now(ctx: ToolContext) -> str | None:
    """``served_fingerprint`` when it needs no read of the catalog version now (None: await it)."""
    fp = _fingerprint_now(ctx)
    if fp is None:
        return None
    meanwhile = _meanwhile(ctx, fp)
    return fp if meanwhile is None else meanwhile[0]


def _root(ctx: ToolContext, state: _State) -> Path:
    if state.root is None:
        state.root = index_root(ctx.settings.database_url, ctx.settings.search_dir or None)
    return state.root


def _meanwhile(ctx: ToolContext, fp: str) -> tuple[str, CatalogIndex] | None:
    """(version, index) to answer from while a large catalog's changed index is built in the background (the
    build started here, once); None when the request is to open or build it now (small catalog, none open yet,
    or its index is built already: an import builds it before it raises the version)."""
    cached = ctx.services.get("catalog_index")
    state: _State = ctx.services["catalog_index.state"]
    if cached is None or cached[0] == fp or _cards(fp) < BUILD_BEHIND_FROM:
        return None
    if state.building != fp:
        root = _root(ctx, state)
        if (root / fp).is_dir():
            return None
        state.building = fp
        state.task = asyncio.get_running_loop().create_task(_build_behind(ctx, state, root, fp))
    return cached


async def _build_behind(ctx: ToolContext, state: _State, root: Path, fp: str) -> None:
    try:
        async with state.lock:
            await _build_apart(ctx.settings.database_url, root)
            # opened (in a thread); built here only if the child failed
            await ctx.service("catalog_index", fp, lambda: open_current(ctx.sessions, root))
    except Exception:  # the open index keeps answering; the next request starts another build
        log.warning("search index build failed", exc_info=True)
    finally:
        state.building = None


async def _build_apart(url: str, root: Path) -> None:
    """The catalog's index built by a child process (``python -m store.search``): reading a large catalog's
    rows and making its documents in this one would hold the event loop for seconds at a time."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "store.search", str(root),
                                                env={**os.environ, "CARDWISE_BUILD_DATABASE_URL": url},
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    if proc.returncode != 0:
        log.warning("search index build in a child process failed", extra={"rc": proc.returncode,
                                                                          "stderr": err.decode(errors="replace")[-2000:]})


def _cards(fp: str) -> int:
    """The card count in a fingerprint (``s<schema>-v<version>-<cards>-...``)."""
    parts = fp.split("-")
    return int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
