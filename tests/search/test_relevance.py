"""Relevance on the real catalog (JunkWax + TCGdex): at least 95% of the queries in
``relevance_cases`` find their entry in the top 3. Imported and indexed once (SQLite; kept in the eval
cache, ``evals/cache.py``); skips without ../shared/data. ``python -m tests.search.test_relevance DB_URL`` prints the failures."""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select

from store.db import create_engine, sessionmaker
from store.importers import junkwax, tcgdex
from store.models import Card, Release
from store.search import CatalogIndex, index_root, open_current
from store.search.fold import fold
from tests.conftest import shared_data
from tests.search.relevance_cases import Case, all_cases

TARGET = 0.95


async def _evaluate(index: CatalogIndex, sessions) -> tuple[list[tuple[Case, list[str]]], int]:
    """(failures with what came instead, cases run)."""
    failures = []
    cases = all_cases()
    for case in cases:
        if case.kind == "card":
            hits, _ = index.cards(case.query, limit=3, prefix=case.prefix)
            async with sessions() as s:
                rows = (await s.execute(select(Card.id, Card.name, Release.name).join(Release, Release.id == Card.release_id)
                                        .where(Card.id.in_([uuid.UUID(h.id) for h in hits])))).all()
            got = [f"{name} | {rel}" for _, name, rel in rows]
            ok = any(fold(name) == fold(case.expect) and rel == case.release for _, name, rel in rows)
        else:
            hits = index.names(case.query, kinds=[case.kind], limit=3, prefix=case.prefix)
            got = [h.name for h in hits]
            ok = any(fold(h.name) == fold(case.expect) for h in hits)
        if not ok:
            failures.append((case, got))
    return failures, len(cases)


@pytest.fixture(scope="session")
def real_catalog(sqlite_template, tmp_path_factory) -> tuple[str, Path, dict[str, float]]:
    """The real catalog in a SQLite file and its index: (url, index path, seconds). Imported and indexed
    once, then kept in the eval cache (keyed on the data, importers, migrations, index code and this file)."""
    from evals.cache import cached_database, import_key, keep_index, restore_index

    junk, tcg = shared_data("junkwax"), shared_data("tcgdex")
    took: dict[str, float] = {"import_s": 0.0, "index_s": 0.0}

    def imported(dest: Path) -> None:
        shutil.copyfile(sqlite_template, dest)

        async def fill() -> None:
            engine = create_engine(f"sqlite+aiosqlite:///{dest}")
            try:
                sessions = sessionmaker(engine)
                await junkwax.run(sessions, str(junk))
                await tcgdex.run(sessions, str(tcg))
            finally:
                await engine.dispose()

        t0 = time.perf_counter()
        asyncio.run(fill())
        took["import_s"] = time.perf_counter() - t0

    cached = cached_database("relevance", import_key(junk.parent, ("junkwax", "tcgdex"), Path(__file__)), imported)
    path = tmp_path_factory.mktemp("real") / "real.sqlite3"
    shutil.copyfile(cached, path)
    url = f"sqlite+aiosqlite:///{path}"
    root = index_root(url, str(path.parent / "search"))

    async def index() -> Path:
        engine = create_engine(url)
        try:
            return (await open_current(sessionmaker(engine), root)).path
        finally:
            await engine.dispose()

    restore_index(cached, root)
    t1 = time.perf_counter()
    index_path = asyncio.run(index())
    took["index_s"] = time.perf_counter() - t1
    keep_index(cached, root)
    print(f"\nreal catalog imported in {took['import_s']:.1f} s, indexed in {took['index_s']:.1f} s (0: cached)")
    return url, index_path, took


async def test_top3_relevance_on_the_real_catalog(real_catalog):
    url, index_path, _ = real_catalog
    engine = create_engine(url)
    try:
        failures, n = await _evaluate(CatalogIndex(index_path), sessionmaker(engine))
    finally:
        await engine.dispose()
    accuracy = 1 - len(failures) / n
    print(f"\ntop-3 relevance: {n - len(failures)}/{n} = {accuracy:.1%}")
    for case, got in failures:
        print(f"  MISS {case.query!r} ({case.why or case.kind}) wants {case.expect!r}: {got}")
    assert n >= 200 and accuracy >= TARGET


if __name__ == "__main__":  # a quick look at an existing database and its current index
    async def main(url: str) -> None:
        engine = create_engine(url)
        sessions = sessionmaker(engine)
        index = await open_current(sessions, index_root(url))
        failures, n = await _evaluate(index, sessions)
        await engine.dispose()
        print(f"top-3: {n - len(failures)}/{n} = {1 - len(failures) / n:.1%}")
        for case, got in failures:
            print(f"  MISS {case.query!r} ({case.why or case.kind}) wants {case.expect!r}: {got}")

    asyncio.run(main(sys.argv[1]))
