"""Start, watch and stop ``cardwise serve`` processes and a throwaway PostgreSQL database for benches."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN = os.environ.get("CARDWISE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def create_database() -> tuple[str, str]:
    """A fresh database on the shared server: (asyncpg URL for the app, name)."""
    name = f"cw_bench_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(PG_ADMIN, timeout=10)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    return f"{base}/{name}", name


async def drop_database(name: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN, timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


SEEDED: dict[str, list[str]] = {}  # entity -> ids of the seeded catalog (cards, sets, releases)


async def prepare(url: str, keys: int) -> list[str]:
    """Migrate, load grades and the small test catalog, and create ``keys`` API keys."""
    from store import migrations
    from store.db import create_engine, sessionmaker
    from store.importers import grades
    from store.queries import keys as key_queries
    from tests.factories import seed_catalog

    await asyncio.to_thread(migrations.upgrade, url)
    engine = create_engine(url)
    try:
        sessions = sessionmaker(engine)
        await grades.run(sessions)
        cat = await seed_catalog(sessions)
        for entity, rows in (("card", cat.cards), ("set", cat.sets), ("release", cat.releases)):
            SEEDED[entity] = [str(r.id) for r in rows.values()]
        out = []
        async with sessions() as s, s.begin():
            for i in range(keys):
                _, plaintext = await key_queries.create(session=s, name=f"bench-{i}")
                out.append(plaintext)
        return out
    finally:
        await engine.dispose()


class Servers:
    """N ``cardwise serve`` processes on their own ports (the API is stateless)."""

    def __init__(self, url: str, n: int, env: dict[str, str] | None = None, module: str = "api") -> None:
        self.ports = [free_port() for _ in range(n)]
        self.logs = []
        self.procs = []
        base_env = {**os.environ, "CARDWISE_DATABASE_URL": url, "CARDWISE_LOG_LEVEL": "WARNING",
                    "CARDWISE_DB_POOL_SIZE": "10", **(env or {})}
        for port in self.ports:
            log = open(os.devnull, "w")  # noqa: SIM115 - closed in stop()
            self.logs.append(log)
            cmd = [sys.executable, "-m", module, "serve", "--no-migrate", "--port", str(port)]
            if module != "api":
                cmd = [sys.executable, "-m", module, "--port", str(port)]
            self.procs.append(subprocess.Popen(cmd, cwd=ROOT, env=base_env, stdout=log, stderr=subprocess.STDOUT))

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    async def wait_ready(self, limit: float = 60) -> None:
        import aiohttp

        deadline = time.monotonic() + limit
        async with aiohttp.ClientSession() as http:
            for url, proc in zip(self.urls, self.procs):
                while True:
                    if proc.poll() is not None:
                        raise RuntimeError(f"server on {url} exited with {proc.returncode}")
                    try:
                        async with http.get(f"{url}/health") as r:
                            if r.status == 200:
                                break
                    except aiohttp.ClientError:
                        pass
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"server on {url} did not start")
                    await asyncio.sleep(0.2)

    def rss_mb(self) -> list[float]:
        return [rss_kb(p.pid) / 1024 for p in self.procs]

    def peak_mb(self) -> list[float]:
        return [rss_kb(p.pid, "VmHWM") / 1024 for p in self.procs]

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        for log in self.logs:
            log.close()
