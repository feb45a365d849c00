"""Graceful shutdown of ``cardwise serve`` on SIGTERM: the listener closes at once (new requests are
refused), the request in flight still finishes, then the database pool closes and the process exits 0."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import asyncpg
import pytest

from tests.hardening.pgcluster import free_port

ROOT = Path(__file__).resolve().parents[2]


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _wait_ready(base: str, proc: subprocess.Popen, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            assert proc.poll() is None, "the server exited while starting"
            try:
                async with http.get(f"{base}/health") as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.2)
    raise AssertionError("server did not start")


@pytest.mark.postgres
async def test_sigterm_finishes_in_flight_refuses_new_and_closes_the_pool(db_url, api_key, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "server.log"
    env = {**os.environ, "CARDWISE_DATABASE_URL": db_url, "CARDWISE_LOG_FORMAT": "json",
           "CARDWISE_LOG_LEVEL": "INFO", "CARDWISE_DB_POOL_SIZE": "2"}
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--no-migrate", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    locker = await asyncpg.connect(_plain(db_url), timeout=10)
    dbname = db_url.rsplit("/", 1)[1]
    pids_sql = "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()"
    before = {r["pid"] for r in await locker.fetch(pids_sql, dbname)}  # the fixtures' own connections
    try:
        await _wait_ready(base, proc)
        # hold a lock the key lookup needs, so a request is genuinely in flight (waiting on the database)
        await locker.execute("BEGIN; LOCK TABLE api_key IN ACCESS EXCLUSIVE MODE")
        async with aiohttp.ClientSession() as http:
            in_flight = asyncio.create_task(http.get(f"{base}/v1/grades/companies", headers={"X-API-Key": api_key[1]}))
            for _ in range(200):
                waiting = await locker.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'"
                    " AND backend_type = 'client backend'", dbname)  # not an autovacuum worker
                if waiting:
                    break
                await asyncio.sleep(0.05)
            assert waiting, "the request never reached the database"

            proc.send_signal(signal.SIGTERM)
            refused = False
            async with aiohttp.ClientSession() as fresh:  # a new connection, not the busy one
                for _ in range(100):
                    try:
                        async with fresh.get(f"{base}/health") as r:
                            await r.read()
                    except aiohttp.ClientConnectionError:
                        refused = True
                        break
                    await asyncio.sleep(0.05)
            assert refused, "new connections were still accepted after SIGTERM"
            assert proc.poll() is None, "the server quit before its in-flight request finished"

            await locker.execute("ROLLBACK")
            resp = await asyncio.wait_for(in_flight, 30)
            assert resp.status == 200
            assert isinstance(await resp.json(), (dict, list))
            resp.release()
        assert await asyncio.to_thread(proc.wait, 30) == 0
        for _ in range(100):  # a backend notices its client is gone a moment later
            left = {r["pid"] for r in await locker.fetch(pids_sql, dbname)} - before
            if not left:
                break
            await asyncio.sleep(0.05)
        assert not left, "the server left database connections open"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await locker.close()
    lines = [json.loads(ln) for ln in log_path.read_text().splitlines() if ln.startswith("{")]
    assert any(ln["msg"] == "database pool closed" for ln in lines), log_path.read_text()[-2000:]
    served = [ln for ln in lines if ln["msg"] == "request" and ln.get("route") == "/v1/grades/companies"]
    assert served and served[-1]["status"] == 200 and served[-1]["key_id"] == str(api_key[0])
