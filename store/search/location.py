"""Where a database's index lives, whether it is current, and building a new one aside then swapping it in.

An index folder is named by the catalog's fingerprint (schema, catalog version, row counts), so every
process looking at the same database agrees on the one it needs; a build writes into a private folder
and renames it into place (atomic), and a process that loses the race opens the winner's.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import shutil
import time
import uuid
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.models import Card, CardSet, CatalogVersion, Parallel, Release
from store.search.build import read_catalog, write_index
from store.search.index import CatalogIndex
from store.search.schema import SCHEMA_VERSION

log = logging.getLogger("cardwise.search")
KEEP_OLD_S = 300  # superseded folders are removed this long after they were built (other processes may hold them)


def index_root(database_url: str, search_dir: str | None = None) -> Path:
    """The folder holding this database's index: beside a SQLite file (``<file>.search``), else under
    ``search_dir`` (default ``var/search``) in a folder named after the database."""
    url = make_url(database_url)
    db = url.database or ""
    if not search_dir and url.get_backend_name() == "sqlite" and db and db != ":memory:":
        return Path(db).with_name(Path(db).name + ".search")
    safe = url.set(password=None).render_as_string(hide_password=True)
    tag = "".join(c if c.isalnum() else "_" for c in Path(db).name)[:40] or "db"
    return Path(search_dir or Path("var") / "search") / f"{tag}-{hashlib.sha1(safe.encode()).hexdigest()[:10]}"


async def fingerprint(session: AsyncSession, counts: str | None = None) -> str:
    """What the index must have been built from: any import raises the version; the counts catch rows
    written without it (tests, hand edits). ``counts``: ``row_counts`` read earlier, to read the version alone."""
    version = (await session.execute(select(CatalogVersion.version).where(CatalogVersion.id == 1))).scalar()
    return f"s{SCHEMA_VERSION}-v{version or 0}-" + (counts if counts is not None else await row_counts(session))


async def row_counts(session: AsyncSession) -> str:
    """The catalog's cards, sets, releases and parallels, counted ("172359-2394-416-9169"): a full count
    of each table, the costly part of ``fingerprint`` on a large catalog."""
    def count(model):
        return select(func.count()).select_from(model).scalar_subquery()

    row = (await session.execute(select(count(Card), count(CardSet), count(Release), count(Parallel)))).one()
    return "-".join(str(int(n)) for n in row)


async def build(sessions: async_sessionmaker[AsyncSession], root: Path, *, fp: str | None = None) -> CatalogIndex:
    """Build the index of the catalog as it is now into ``root/<fingerprint>`` and open it."""
    async with sessions() as s:
        fp = fp or await fingerprint(s)
        rows = await read_catalog(s)
    root.mkdir(parents=True, exist_ok=True)
    final = root / fp
    if final.is_dir():  # another process built it meanwhile
        return await opened(final, fp)
    tmp = root / f".build-{uuid.uuid4().hex}"
    tmp.mkdir()
    started = time.perf_counter()
    try:
        docs = await asyncio.to_thread(write_index, rows, tmp)
        try:
            tmp.rename(final)
        except OSError:
            if not final.is_dir():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    log.info("search index built", extra={"path": str(final), "documents": docs, "cards": len(rows.cards),
                                           "seconds": round(time.perf_counter() - started, 2)})
    _prune(root, keep=final.name)
    return await opened(final, fp)


async def open_current(sessions: async_sessionmaker[AsyncSession], root: Path) -> CatalogIndex:
    """The index matching the catalog now: opened when built already, else built (missing or stale)."""
    async with sessions() as s:
        fp = await fingerprint(s)
    final = root / fp
    if final.is_dir():
        try:
            return await opened(final, fp)
        except (OSError, ValueError):  # damaged: build it again beside it
            shutil.rmtree(final, ignore_errors=True)
    return await build(sessions, root, fp=fp)


async def opened(path: Path, fp: str) -> CatalogIndex:
    """The index at ``path``, opened and warmed in a thread: at 1M cards that is 1-2 s a server's event loop
    would otherwise be held, every request of the process waiting."""
    def open_warm() -> CatalogIndex:
        index = CatalogIndex(path, version=fp)
        index.warm()
        return index

    return await asyncio.to_thread(open_warm)


def _prune(root: Path, keep: str) -> None:
    now = time.time()
    for p in root.iterdir():
        if p.name == keep or not p.is_dir():
            continue
        try:
            age = now - p.stat().st_mtime
        except OSError:
            continue
        # unfinished builds of crashed processes go after an hour, superseded indexes after KEEP_OLD_S
        if age > (3600 if p.name.startswith(".build-") else KEEP_OLD_S):
            shutil.rmtree(p, ignore_errors=True)
