"""The engine's connection pool: a SQLite file keeps its connections instead of opening one per overflow."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event, text

from store.db import create_engine, sessionmaker


async def _busy(url: str, pool_size: int, concurrency: int, rounds: int) -> tuple[int, list[int]]:
    engine = create_engine(url, pool_size=pool_size)
    opened = [0]
    event.listen(engine.sync_engine, "connect", lambda *_: opened.__setitem__(0, opened[0] + 1))
    sessions = sessionmaker(engine)

    async def one(i: int) -> int:
        async with sessions() as s:
            return int((await s.execute(text("SELECT :i + 1"), {"i": i})).scalar_one())

    try:
        answers: list[int] = []
        for _ in range(rounds):
            answers += await asyncio.gather(*(one(i) for i in range(concurrency)))
        return opened[0], answers
    finally:
        await engine.dispose()


async def test_a_sqlite_file_opens_no_connection_per_request_past_its_pool(tmp_path):
    opened, answers = await _busy(f"sqlite+aiosqlite:///{tmp_path}/pool.sqlite3", pool_size=3, concurrency=20,
                                  rounds=5)
    assert answers == [i + 1 for i in range(20)] * 5  # every request answered, those past the pool after waiting
    assert opened <= 6  # twice the pool size, opened once (the default pool reopened its overflow every time)


@pytest.mark.parametrize("url", ["sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:"])
async def test_an_in_memory_sqlite_database_still_opens(url):
    _, answers = await _busy(url, pool_size=3, concurrency=1, rounds=2)  # one shared connection (StaticPool)
    assert answers == [1, 1]
