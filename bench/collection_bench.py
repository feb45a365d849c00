"""Collection analytics speed: a large collection spread over a catalog, on SQLite and PostgreSQL.

    .venv/bin/python bench/collection_bench.py                 # 10,000 entries, SQLite + PostgreSQL
    .venv/bin/python bench/collection_bench.py --db sqlite --entries 2000 --runs 3
    .venv/bin/python bench/collection_bench.py --url sqlite:///var/cardwise.sqlite3   # use a loaded catalog

Without ``--url`` a fresh database is migrated and a synthetic catalog is generated (``--cards``
cards over sets of 120, each set with 4 parallels, one partial; raw, graded and parallel prices
for most cards). With ``--url`` the cards already there are used when at least 1,000 exist
(the collection is created under a throw-away key and deleted afterwards).

The collection's entries are inserted as plain rows; the database's triggers (migrations
collection_0002/0003) give them their values and catalog facts, as for any other write. Each route
is called through its tool (input validation, SQL, output model) ``--runs`` times after one warm-up,
with the objects that live as long as the process frozen out of the garbage collector's view
(``gc.freeze()``, as ``cardwise serve`` does); the median and the worst wall-clock run are printed
in milliseconds, with the median CPU time spent on it (this process, including the SQLite thread,
plus the database's PostgreSQL backends read from /proc), which stays meaningful when other jobs
load the machine. Target: <= 100 ms each.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import delete, func, select, text  # noqa: E402

from config import Settings  # noqa: E402
from store import migrations  # noqa: E402
from store.db import create_engine, sessionmaker  # noqa: E402
from store.importers import grades as grades_importer  # noqa: E402
from store.models import (  # noqa: E402
    ApiKey,
    Card,
    CardPrice,
    CardSet,
    Collection,
    CollectionCard,
    Collector,
    Grade,
    Manufacturer,
    Parallel,
    ParallelCard,
    Release,
    Segment,
)
from store.queries import keys as key_queries  # noqa: E402
from tools._registry import get_tool, parse_input  # noqa: E402
from tools.context import Caller, ToolContext  # noqa: E402

PG_ADMIN = os.environ.get("CARDWISE_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
PLAYERS = [f"Player {i:03d}" for i in range(400)]


async def synthetic_catalog(sessions, n_cards: int, rng: random.Random) -> None:
    async with sessions() as s, s.begin():
        grade_ids = list((await s.scalars(select(Grade.id).limit(40))).all())
        seg = Segment(id=uuid.uuid4(), name="Bench Sports", shortname="BS")
        mans = [Manufacturer(id=uuid.uuid4(), name=f"Bench Maker {i}") for i in range(5)]
        s.add(seg)
        s.add_all(mans)
        await s.flush()
        per_set = 120
        n_sets = max(1, n_cards // per_set)
        cards, prices, pars, links = [], [], [], []
        for i in range(n_sets):
            rel = Release(id=uuid.uuid4(), segment_id=seg.id, manufacturer_id=mans[i % 5].id,
                          name=f"{1990 + i % 35} Bench Release {i}", year=str(1990 + i % 35))
            cset = CardSet(id=uuid.uuid4(), release_id=rel.id, name=f"Base {i}")
            s.add(rel)
            await s.flush()
            s.add(cset)
            await s.flush()
            set_pars = [Parallel(id=uuid.uuid4(), set_id=cset.id, name=f"Par {k}", numbered_to=[None, 99, 25, 5][k],
                                 is_partial=k == 3, sort_order=k) for k in range(4)]
            pars.extend(set_pars)
            for n in range(per_set):
                card = Card(id=uuid.uuid4(), set_id=cset.id, release_id=rel.id, name=rng.choice(PLAYERS),
                            number=str(n + 1), number_sort=n + 1, numbered_to=25 if n % 40 == 0 else None)
                cards.append(card)
                if rng.random() < 0.85:
                    prices.append(CardPrice(id=uuid.uuid4(), card_id=card.id, price_key="raw",
                                            value_cents=rng.randint(25, 50_000)))
                    for p in set_pars[:3]:
                        prices.append(CardPrice(id=uuid.uuid4(), card_id=card.id, parallel_id=p.id, price_key="raw",
                                                value_cents=rng.randint(100, 90_000)))
                    for g in rng.sample(grade_ids, 3):
                        prices.append(CardPrice(id=uuid.uuid4(), card_id=card.id, grade_id=g, price_key="graded",
                                                value_cents=rng.randint(500, 200_000)))
                if n % 10 == 0:
                    links.append(ParallelCard(parallel_id=set_pars[3].id, card_id=card.id))
        s.add_all(cards)
        await s.flush()
        s.add_all(pars)
        await s.flush()
        s.add_all(prices)
        s.add_all(links)


async def make_collection(sessions, n_entries: int, rng: random.Random) -> tuple[uuid.UUID, uuid.UUID]:
    async with sessions() as s, s.begin():
        key, _ = await key_queries.create(session=s, name="bench")
        collector = Collector(id=uuid.uuid4(), api_key_id=key.id, name="bench")
        s.add(collector)
        await s.flush()
        coll = Collection(id=uuid.uuid4(), api_key_id=key.id, collector_id=collector.id, name="bench")
        s.add(coll)
        await s.flush()
        cards = (await s.execute(select(Card.id, Card.set_id).order_by(func.random()).limit(max(n_entries // 2, 1)))).all()
        pars: dict[uuid.UUID, list[uuid.UUID]] = {}
        for pid, sid in (await s.execute(select(Parallel.id, Parallel.set_id).where(Parallel.is_partial.is_(False)))):
            pars.setdefault(sid, []).append(pid)
        grade_ids = list((await s.scalars(select(Grade.id).limit(40))).all())
        rows = []
        for i in range(n_entries):
            card_id, set_id = rng.choice(cards)
            sold = rng.random() < 0.1
            rows.append(CollectionCard(
                id=uuid.uuid4(), collection_id=coll.id, card_id=card_id,
                parallel_id=rng.choice(pars[set_id]) if set_id in pars and rng.random() < 0.25 else None,
                grade_id=rng.choice(grade_ids) if rng.random() < 0.2 else None, quantity=rng.randint(1, 3),
                buy_price_cents=rng.randint(50, 40_000) if rng.random() < 0.8 else None,
                buy_date=date(2020 + i % 5, 1 + i % 12, 1 + i % 28),
                sell_price_cents=rng.randint(100, 50_000) if rng.random() < 0.05 else None,
                sold_price_cents=rng.randint(100, 50_000) if sold else None, sold_date=date(2025, 1, 2) if sold else None,
            ))
            if len(rows) >= 2000:
                s.add_all(rows)
                await s.flush()
                rows = []
        s.add_all(rows)
    return key.id, coll.id


def _server_cpu_ns(dbname: str | None) -> int:
    """CPU time of this database's PostgreSQL backends on this host (``/proc/<pid>/schedstat``), else 0."""
    if not dbname:
        return 0
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/cmdline", "rb") as fh:
                cmd = fh.read()
            if not cmd.startswith(b"postgres: ") or f" {dbname} ".encode() not in cmd:
                continue
            with open(f"/proc/{entry.name}/schedstat") as fh:
                total += int(fh.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total


async def timed(ctx: ToolContext, name: str, args: dict, runs: int, dbname: str | None) -> tuple[float, float, float]:
    """(median wall ms, max wall ms, median CPU ms). CPU = this process (Python + the SQLite thread)
    plus the database's PostgreSQL backends: unlike wall time it does not grow when other jobs
    compete for the cores."""
    t = get_tool(name)
    q = parse_input(t, args)
    await t.fn(ctx, q)  # warm-up
    walls, cpus = [], []
    for _ in range(runs):
        c0, s0, start = time.process_time_ns(), _server_cpu_ns(dbname), time.perf_counter()
        await t.fn(ctx, parse_input(t, args))
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time_ns() - c0 + _server_cpu_ns(dbname) - s0) / 1e6)
    return statistics.median(walls), max(walls), statistics.median(cpus)


async def bench(url: str, args: argparse.Namespace, fresh: bool) -> list[tuple[str, float, float, float]]:
    engine = create_engine(url)
    dbname = engine.url.database if engine.dialect.name == "postgresql" else None
    sessions = sessionmaker(engine)
    rng = random.Random(7)
    try:
        if fresh:
            await grades_importer.run(sessions)
        async with sessions() as s:
            n_cards = await s.scalar(select(func.count(Card.id)))
        if n_cards < 1000:
            t0 = time.perf_counter()
            await synthetic_catalog(sessions, args.cards, rng)
            print(f"  synthetic catalog of {args.cards} cards in {time.perf_counter() - t0:.1f}s")
        t0 = time.perf_counter()
        key_id, coll_id = await make_collection(sessions, args.entries, rng)
        print(f"  collection of {args.entries} entries in {time.perf_counter() - t0:.1f}s")
        if engine.dialect.name == "postgresql":  # planner statistics, as autovacuum keeps them in service
            async with engine.connect() as conn:
                await conn.execute(text("ANALYZE"))
                await conn.commit()
        ctx = ToolContext(sessions=sessions, settings=Settings(database_url=url), caller=Caller(key_id=key_id))
        gc.collect()
        gc.freeze()  # as `cardwise serve` does once started: full collections skip the long-lived objects
        cid = str(coll_id)
        results = [("analytics", *await timed(ctx, "collection_analytics", {"collectionId": cid}, args.runs, dbname))]
        for group_by in ("release", "year", "grade", "player", "manufacturer"):
            results.append((f"breakdown groupBy={group_by}", *await timed(
                ctx, "collection_breakdown", {"collectionId": cid, "groupBy": group_by}, args.runs, dbname)))
        results.append(("set-progress", *await timed(ctx, "collection_set_progress", {"collectionId": cid}, args.runs, dbname)))
        async with sessions() as s:
            in_coll = (select(Card.set_id).join(CollectionCard, CollectionCard.card_id == Card.id)
                       .where(CollectionCard.collection_id == coll_id))
            # a set with parallels when there is one, so that the per-parallel route is timed too
            set_id = (await s.scalar(in_coll.join(Parallel, Parallel.set_id == Card.set_id).limit(1))
                      or await s.scalar(in_coll.limit(1)))
            par_id = await s.scalar(select(Parallel.id).where(Parallel.set_id == set_id).limit(1))
        results.append(("set-progress/{setId}", *await timed(
            ctx, "collection_set_progress_set", {"collectionId": cid, "setId": str(set_id)}, args.runs, dbname)))
        if par_id is not None:
            results.append(("set-progress/{setId}/{parallelId}", *await timed(
                ctx, "collection_set_progress_parallel",
                {"collectionId": cid, "setId": str(set_id), "parallelId": str(par_id)}, args.runs, dbname)))
        if not fresh:
            async with sessions() as s, s.begin():
                await s.execute(delete(ApiKey).where(ApiKey.id == key_id))
        return results
    finally:
        await engine.dispose()


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def run_backend(backend: str, args: argparse.Namespace) -> list[tuple[str, float, float, float]] | None:
    if args.url:
        return asyncio.run(bench(args.url, args, fresh=False))
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
            migrations.upgrade(url)
            return asyncio.run(bench(url, args, fresh=True))
    name = f"cw_bench_{uuid.uuid4().hex[:8]}"
    try:
        asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001
        print(f"  PostgreSQL unreachable at {PG_ADMIN}: {exc!r}; skipped")
        return None
    base, _, _ = PG_ADMIN.rpartition("/")
    url = f"{base}/{name}".replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        migrations.upgrade(url)
        return asyncio.run(bench(url, args, fresh=True))
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", choices=["sqlite", "postgres", "all"], default="all")
    ap.add_argument("--entries", type=int, default=10_000, help="collection entries (default 10,000)")
    ap.add_argument("--cards", type=int, default=6_000, help="synthetic catalog size (default 6,000)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--url", help="an existing database (its catalog is used when it has >= 1,000 cards)")
    ap.add_argument("--target-ms", type=float, default=100.0)
    args = ap.parse_args()
    backends = ["url"] if args.url else (["sqlite", "postgres"] if args.db == "all" else [args.db])
    worst = 0.0
    for backend in backends:
        print(f"{backend}: {args.entries} entries, {args.runs} runs (load average {os.getloadavg()[0]:.1f})")
        print(f"  {'route':<36} {'median':>8}    {'max':>8}    {'CPU':>8}")
        results = run_backend(backend, args)
        for label, med, mx, cpu in results or []:
            flag = "" if med <= args.target_ms else "  <-- wall over target"
            print(f"  {label:<36} {med:8.1f} ms {mx:8.1f} ms {cpu:8.1f} ms{flag}")
            worst = max(worst, med)
    print(f"worst median: {worst:.1f} ms (target {args.target_ms:.0f} ms); CPU = client process + PostgreSQL backends")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
