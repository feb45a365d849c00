"""Import JunkWax + TCGdex into a fresh database and print cards per second.

    python bench/import_bench.py [--db sqlite|postgres|all] [--data ../shared/data]

SQLite uses a temporary file; PostgreSQL creates and drops a scratch database on
CARDWISE_BENCH_PG (default postgresql://postgres@127.0.0.1:5432/postgres). Target: <= 60 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from store import migrations  # noqa: E402
from store.db import create_engine, sessionmaker  # noqa: E402
from store.importers import junkwax, tcgdex  # noqa: E402

PG = os.environ.get("CARDWISE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def bench(url: str, data: Path) -> None:
    engine = create_engine(url)
    sessions = sessionmaker(engine)
    total_cards, start = 0, time.perf_counter()
    for name, mod, src in (("junkwax", junkwax, data / "junkwax"), ("tcgdex", tcgdex, data / "tcgdex")):
        t = time.perf_counter()
        counts = await mod.run(sessions, str(src))
        dt = time.perf_counter() - t
        cards = counts["cards"] + counts.get("variations", 0)
        total_cards += cards
        print(f"  {name:8s} {cards:>8,} cards in {dt:6.1f} s = {cards / dt:8,.0f} cards/s  {counts}")
    t = time.perf_counter()
    again = await junkwax.run(sessions, str(data / "junkwax" / "categories" / "baseball" / "2024"))
    print(f"  re-import 2024 junkwax (no changes): {time.perf_counter() - t:.1f} s {again['cards']} cards")
    dt = time.perf_counter() - start
    print(f"  TOTAL    {total_cards:>8,} cards in {dt:6.1f} s = {total_cards / dt:8,.0f} cards/s")
    await engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default="all", choices=["sqlite", "postgres", "all"])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    args = ap.parse_args()
    data = Path(args.data)
    if args.db in ("sqlite", "all"):
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
            migrations.upgrade(url)
            print("SQLite")
            asyncio.run(bench(url, data))
    if args.db in ("postgres", "all"):
        name = f"cw_bench_{uuid.uuid4().hex[:8]}"
        asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
        try:
            url = PG.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{name}"
            migrations.upgrade(url)
            print("PostgreSQL")
            asyncio.run(bench(url, data))
        finally:
            asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
