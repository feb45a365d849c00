"""Agent benchmark: end-to-end latency of questions answered by the built-in model.

    python bench/agent_bench.py [--runs 200] [--db sqlite|URL]

Runs POST-free (calls ``run_query`` directly, the same path the route takes) on a fresh SQLite
database with the grades reference data, and prints p50/p95 per question. The issue's target: a
one-tool question answers in at most 50 ms p50.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.llm import make_llm  # noqa: E402
from agent.loop import run_query  # noqa: E402
from config import Settings  # noqa: E402
from store import migrations  # noqa: E402
from store.db import create_engine, sessionmaker  # noqa: E402
from store.importers import grades  # noqa: E402
from tools.context import Caller, ToolContext  # noqa: E402

QUESTIONS = {
    "one tool (grades_companies)": "What grading companies are there?",
    "one tool (catalog_statistics)": "How big is the catalog?",
    "three tools (grade scale)": "What grades does PSA use?",
    "no tool (unanswerable)": "What is the weather today?",
}


async def main(runs: int, url: str) -> None:
    engine = create_engine(url)
    sessions = sessionmaker(engine)
    await grades.run(sessions)
    settings = Settings(database_url=url)
    ctx = ToolContext(sessions=sessions, settings=settings, caller=Caller(key_id=uuid.uuid4()))
    llm = make_llm(settings)
    for label, q in QUESTIONS.items():
        for _ in range(5):  # warm-up
            await run_query(ctx, q, llm)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            r = await run_query(ctx, q, llm)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{label:32} tools={r.tools_used!s:58} p50 {statistics.median(times):6.2f} ms  p95 {p95:6.2f} ms  "
              f"(n={runs})")
    await llm.aclose()
    await http_bench(runs, url, sessions)
    await engine.dispose()


async def http_bench(runs: int, url: str, sessions) -> None:
    """The same one-tool question through POST /v1/ai/query on a real socket (auth, JSON, loop)."""
    import aiohttp
    from aiohttp import web

    from api.app import create_app
    from store.queries import keys

    async with sessions() as s, s.begin():
        _, plaintext = await keys.create(session=s, name="bench")
    runner = web.AppRunner(create_app(Settings(database_url=url, log_level="WARNING")), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    body = {"query": QUESTIONS["one tool (grades_companies)"]}
    async with aiohttp.ClientSession(headers={"X-API-Key": plaintext}) as http:
        times = []
        for i in range(runs + 5):
            t0 = time.perf_counter()
            async with http.post(f"http://127.0.0.1:{port}/v1/ai/query", json=body) as resp:
                data = await resp.json()
                assert resp.status == 200, data
            if i >= 5:
                times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    print(f"{'HTTP POST /v1/ai/query one tool':32} tools={data['toolsUsed']!s:58} p50 {statistics.median(times):6.2f} ms  "
          f"p95 {times[int(0.95 * len(times))]:6.2f} ms  (n={runs})")
    await runner.cleanup()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--db", default="sqlite")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        db_url = f"sqlite+aiosqlite:///{d}/bench.sqlite3" if a.db == "sqlite" else a.db
        migrations.upgrade(db_url)
        asyncio.run(main(a.runs, db_url))
