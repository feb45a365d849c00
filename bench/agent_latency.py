"""Agent latency on the real catalog: every question of the collector suites, end to end.

    python bench/agent_latency.py [--rounds 2] [--data ../shared/data] [SUITE.yaml ...]

Opens a working copy of the cached real-catalog fixture (evals/realdata.py: JunkWax + TCGdex +
the real PSA sales + synthetic population / prices / listings, a collection and a want list; built
on first use), then asks each question of the suites (default: both collector parts) through
``run_query`` with the built-in model, ``--rounds`` times after one warm-up pass, and prints
p50 / p95 / max per question overall, per part and per family. The reference, measured in the same
run: one ``catalog_cards`` tool call by name (the floor of any answer that looks a card up); the
ratio p50 / reference says how many such calls a question costs. Target (issue 25): p50 <= 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.llm import make_llm
from agent.loop import run_query
from config import Settings
from evals.collector import real_catalog
from evals.realdata import DEFAULT_DATA, ensure_real_catalog
from evals.suite import bind, load_suite
from tools._registry import invoke

SUITES = Path(__file__).resolve().parents[1] / "evals" / "suites"
DEFAULT_SUITES = [SUITES / "collector-tuning.yaml", SUITES / "collector-heldout.yaml"]


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def _row(label: str, xs: list[float]) -> str:
    return (f"{label:<28} n={len(xs):<4} p50 {_q(xs, 0.5):7.1f} ms  p95 {_q(xs, 0.95):7.1f} ms  "
            f"max {max(xs):7.1f} ms")


async def main(paths: list[Path], rounds: int, fixture) -> None:
    cases = [c for p in paths for c in load_suite(p)]
    with tempfile.TemporaryDirectory(prefix="cardwise-bench-") as tmp:
        async with real_catalog(fixture, Path(tmp), Settings(), echo=print) as (ctx, values, _judging):
            llm = make_llm(ctx.settings)
            bound = [bind(c, values) for c in cases]
            times: dict[str, list[float]] = {c.key: [] for c in bound}
            ref: list[float] = []
            for r in range(rounds + 1):  # round 0 warms caches and is not counted
                for c in bound:
                    t = time.perf_counter()
                    await run_query(ctx, c.query, llm, history=c.history, context=c.context or None)
                    if r:
                        times[c.key].append((time.perf_counter() - t) * 1000)
                    t = time.perf_counter()
                    await invoke("catalog_cards", {"name": "Ken Griffey Jr.", "take": 5}, ctx)
                    if r:
                        ref.append((time.perf_counter() - t) * 1000)
    per_q = {k: statistics.median(v) for k, v in times.items()}
    by = {c.key: c for c in bound}
    print(f"{len(cases)} questions x {rounds} rounds (median per question)")
    print(_row("all questions", list(per_q.values())))
    for label, key in (("part", lambda c: c.part or c.suite), ("family", lambda c: c.family or "-")):
        for name in sorted({key(c) for c in bound}):
            print(_row(f"  {label} {name}", [v for k, v in per_q.items() if key(by[k]) == name]))
    slow = sorted(per_q.items(), key=lambda kv: -kv[1])[:5]
    print("slowest: " + "; ".join(f"{by[k].query!r} {v:.0f} ms" for k, v in slow))
    p50 = _q(list(per_q.values()), 0.5)
    print(_row("reference catalog_cards", ref))
    print(f"p50 per question {p50:.1f} ms = {p50 / statistics.median(ref):.1f} x one catalog_cards call; "
          f"target p50 <= 100 ms: {'met' if p50 <= 100 else 'NOT met'}")


def cli(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="*", type=Path, default=DEFAULT_SUITES)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = ap.parse_args(argv)
    fixture = ensure_real_catalog(args.data)
    asyncio.run(main(args.suites, args.rounds, fixture))


if __name__ == "__main__":
    cli()
