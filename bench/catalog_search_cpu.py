"""CPU per request of the catalog's hot routes, beside the bare aiohttp handler, in one server process.

    python bench/catalog_search_cpu.py --url URL --url-key KEYFILE [--seconds 4] [--profile 25]

A load test's throughput and p99 on a shared machine measure the share of the CPU the server got as
much as the server; the CPU each request costs it does not depend on that share. This serves the app
(as ``cardwise serve`` configures it, one process, the per-key rate limit on but set high) and a bare handler answering a
same-size page in this process, drives each with ``wrk`` (32 connections; cold runs: each catalog name or
autocomplete prefix asked once) and prints the process's CPU time per request (``time.process_time``,
user + system, the kernel's socket work included) and the ratio to the bare handler's. ``--profile N``
adds cProfile's top N functions by own time for each Cardwise run (cProfile's overhead inflates the
figures of that run; the CPU per request is measured in a run without it first).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import pstats
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.catalog_search_bench import Fresh, Wrk, _loadavg, catalog_terms, index_build  # noqa: E402


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _site(app, port: int):
    from aiohttp import web

    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


async def main_async(args) -> None:
    from aiohttp import web

    from api import logs
    from api.app import create_app
    from api.settings import load_settings

    url, key = args.url, Path(args.url_key).read_text().strip()
    search_dir = args.search_dir or tempfile.mkdtemp(prefix="cw-search-")
    folder = tempfile.mkdtemp(prefix="cw-cpu-")
    try:
        if not args.search_dir:
            print(f"index build {await index_build(url, search_dir):.1f} s")
        os.environ.update({"CARDWISE_DATABASE_URL": url, "CARDWISE_SEARCH_DIR": search_dir,
                           "CARDWISE_LOG_LEVEL": args.log_level,
                           # the per-key limit runs (its cost counts) but lets the one key's load through
                           "CARDWISE_RATE_LIMIT_PER_MIN": "100000000", "CARDWISE_RATE_LIMIT_BURST": "1000000"})
        settings = load_settings()
        logs.configure(settings.log_level, settings.log_format, stream=open(os.devnull, "w"))
        names, prefixes = await catalog_terms(url)
        app_port, bare_port = _port(), _port()
        runner = await _site(create_app(settings), app_port)
        gc.collect()  # as ``cardwise serve`` does: what lives as long as the process leaves the collector's view
        gc.freeze()
        headers = {"X-API-Key": key}
        import aiohttp

        async with aiohttp.ClientSession() as c:  # a full page for the bare body, and the index opened
            async with c.get(f"http://127.0.0.1:{app_port}/v1/catalog/cards", params={"name": "smith"},
                             headers=headers) as r:
                body = await r.read()
                assert r.status == 200, body[:300]
        bare = web.Application()

        async def h(request: web.Request) -> web.Response:
            return web.Response(body=body, content_type="application/json")

        bare.router.add_get("/v1/catalog/cards", h)
        bare_runner = await _site(bare, bare_port)
        wrk = Wrk(shutil.which("wrk") or "wrk", 1, folder)
        fresh_names, fresh_ac = Fresh(names), Fresh(prefixes)
        targets = {"bare": (bare_port, {}, ["x"], "/v1/catalog/cards", "name"),
                   "cold names": (app_port, headers, fresh_names, "/v1/catalog/cards", "name"),
                   "autocomplete": (app_port, headers, fresh_ac, "/v1/autocomplete/cards", "q"),
                   "cached": (app_port, headers, names[:300], "/v1/catalog/cards", "name")}
        if args.only:
            targets = {k: v for k, v in targets.items() if k in ("bare", args.only)}
        print(f"load average before: {_loadavg()}")
        out: dict[str, list[float]] = {k: [] for k in targets}
        collections: dict[str, float] = {}  # garbage collections a request, last run
        for _ in range(args.rounds):
            for label, (port, hd, terms, path, param) in targets.items():
                cpu0, gc0 = time.process_time(), sum(g["collections"] for g in gc.get_stats())
                r = await wrk.drive(f"http://127.0.0.1:{port}", hd, terms, args.seconds, 32, path, param)
                cpu = time.process_time() - cpu0
                collections[label] = (sum(g["collections"] for g in gc.get_stats()) - gc0) / max(r["n"], 1)
                if r["n"] and not r["errors"]:
                    out[label].append(cpu / r["n"] * 1e6)
                elif r["errors"]:
                    print(f"{label}: {r['errors']} errors")
        base = min(out["bare"])
        for label, us in out.items():
            if us:
                print(f"{label:14s} CPU/request {min(us):7.0f} us (runs {', '.join(f'{u:.0f}' for u in us)}); "
                      f"{min(us) / base:5.1f}x the bare handler's; {collections[label]:.2f} collections a request")
        print(f"load average after: {_loadavg()}")
        if args.profile:
            for label in [k for k in targets if k != "bare"]:
                port, hd, terms, path, param = targets[label]
                prof = cProfile.Profile(time.process_time)  # CPU, not the wall time a loaded machine adds
                prof.enable()
                r = await wrk.drive(f"http://127.0.0.1:{port}", hd, terms, args.seconds, 32, path, param)
                prof.disable()
                st = pstats.Stats(prof)
                calls = sum(v[1] for v in st.stats.values())  # type: ignore[attr-defined]
                print(f"\n== {label}: cProfile over {r['n']} requests, {calls / r['n']:.0f} calls a request "
                      "(own time per request, us, inflated by the profiler)")
                rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:args.profile]  # type: ignore[attr-defined]
                for (file, line, fn), (_, nc, tt, ct, _) in rows:
                    print(f"{tt / r['n'] * 1e6:8.1f} own {ct / r['n'] * 1e6:8.1f} cum  {nc / r['n']:6.1f}/req  "
                          f"{Path(file).name}:{line} {fn}")
                if args.dump:
                    st.dump_stats(f"{args.dump}-{label.replace(' ', '_')}.prof")
        await runner.cleanup()
        await bare_runner.cleanup()
    finally:
        if not args.search_dir:
            shutil.rmtree(search_dir, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", required=True, help="a database with the catalog (SQLAlchemy URL)")
    ap.add_argument("--url-key", required=True, help="a file holding an API key of that database")
    ap.add_argument("--search-dir", help="keep the search index here (built on first use, then reused: "
                                         "runs of the same catalog skip the build)")
    ap.add_argument("--seconds", type=float, default=4.0, help="seconds per run")
    ap.add_argument("--rounds", type=int, default=3, help="runs per target (the lowest CPU per request is shown)")
    ap.add_argument("--log-level", default="INFO", help="the server's log level (INFO: one access record per "
                                                         "request, as a default server writes)")
    ap.add_argument("--only", choices=["cold names", "autocomplete", "cached"], help="run only this target (and bare)")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's top N functions")
    ap.add_argument("--dump", help="write the profiles to DUMP-<run>.prof")
    args = ap.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
