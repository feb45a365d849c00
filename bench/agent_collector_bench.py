"""Latency of collectors' questions on the real catalog, answered by the built-in model.

    python bench/agent_collector_bench.py [--suite evals/suites/collector-tuning.yaml] [--repeat 1]

Runs every question of the suite (with its conversation history) through ``run_query`` on a working
copy of the cached real-catalog fixture (``evals/realdata.py``), after one warm-up pass, and prints
p50/p95 per question overall and per family, with a reference measured in the same run: a question
that needs no catalog look-up ("What grading companies are there?"). Target (issue 25): p50 <= 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.llm import make_llm  # noqa: E402
from agent.loop import run_query  # noqa: E402
from api.settings import load_settings  # noqa: E402
from evals.collector import real_catalog  # noqa: E402
from evals.realdata import DEFAULT_DATA, ensure_real_catalog  # noqa: E402
from evals.suite import bind, load_suite  # noqa: E402

REFERENCE = "What grading companies are there?"


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


async def main(suite: Path, repeat: int) -> None:
    settings = load_settings()
    fixture = ensure_real_catalog(DEFAULT_DATA)
    cases = load_suite(suite)
    with tempfile.TemporaryDirectory(prefix="cardwise-bench-") as tmp:
        async with real_catalog(fixture, Path(tmp), settings) as (ctx, values, _judging):
            llm = make_llm(ctx.settings)
            from agent.builtin import classifier

            classifier.warm()

            async def ask(query: str, history: list[dict[str, str]], context: dict) -> float:
                t = time.perf_counter()
                await run_query(ctx, query, llm, history=history, context=context or None)
                return (time.perf_counter() - t) * 1000

            bound = [bind(c, values) for c in cases]
            for c in bound:  # warm-up: caches of the index, the classifier, SQLite pages
                await ask(c.query, c.history, c.context)
            times: list[float] = []
            per_family: dict[str, list[float]] = defaultdict(list)
            ref: list[float] = []
            for _ in range(repeat):
                for c in bound:
                    ms = await ask(c.query, c.history, c.context)
                    times.append(ms)
                    per_family[c.family or "-"].append(ms)
                    ref.append(await ask(REFERENCE, [], {}))
    p50, ref50 = statistics.median(times), statistics.median(ref)
    print(f"{len(times)} questions ({suite.name}), built-in model, real catalog")
    print(f"per question: p50 {p50:.1f} ms  p95 {pct(times, 0.95):.1f} ms  max {max(times):.1f} ms")
    print(f"reference (no catalog look-up, same run): p50 {ref50:.1f} ms; ratio {p50 / ref50:.2f}x")
    for fam, vals in sorted(per_family.items()):
        print(f"  {fam:16} n={len(vals):3}  p50 {statistics.median(vals):7.1f} ms  p95 {pct(vals, 0.95):7.1f} ms")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite", type=Path, default=Path(__file__).resolve().parents[1] / "evals" / "suites" /
                    "collector-tuning.yaml")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    asyncio.run(main(args.suite, args.repeat))
