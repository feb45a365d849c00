"""A real Cardwise server on a free port, running in a background thread with its own event loop,
for clients that are synchronous (schemathesis uses ``requests``). Seeded with the test catalog."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from config import Settings
from store import migrations
from store.db import create_engine, sessionmaker
from store.importers import grades as grades_importer
from store.queries import keys as key_queries
from tests.factories import seed_catalog
from tests.hardening.pgcluster import free_port


@dataclass
class LiveServer:
    base_url: str
    key: str
    settings: Settings
    loop: asyncio.AbstractEventLoop
    runner: web.AppRunner
    thread: threading.Thread

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()


async def prepare_database(url: str) -> str:
    """Load grades and the test catalog into a migrated database; returns a fresh key's plaintext."""
    engine = create_engine(url)
    try:
        sessions = sessionmaker(engine)
        await grades_importer.run(sessions)
        await seed_catalog(sessions)
        async with sessions() as s, s.begin():
            _, plaintext = await key_queries.create(session=s, name="fuzz")
        return plaintext
    finally:
        await engine.dispose()


def sqlite_url(directory: Path) -> str:
    return f"sqlite+aiosqlite:///{directory / 'live.sqlite3'}"


def start(url: str, **settings_changes) -> LiveServer:
    from api.app import create_app

    migrations.upgrade(url)
    key = asyncio.run(prepare_database(url))
    settings = Settings(database_url=url, log_format="text", db_pool_size=5, rate_limit_per_min=0,
                        **settings_changes)
    port = free_port()
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(create_app(settings), access_log=None)

    async def boot() -> None:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()

    loop.run_until_complete(boot())
    thread = threading.Thread(target=loop.run_forever, name="cardwise-live", daemon=True)
    thread.start()
    return LiveServer(f"http://127.0.0.1:{port}", key, settings, loop, runner, thread)
