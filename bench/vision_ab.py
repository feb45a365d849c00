"""Two checkouts of the identification code timed on the same photos, interleaved photo by photo.

    python bench/vision_ab.py --a /tmp/old-checkout --b . [--photos 40] [--rows scans,hard,medium]
                              [--scans ../shared/data/hockeycards] [--modes text] [--rounds 1]
    python bench/vision_ab.py --a /tmp/old-checkout --b . --real ../shared/data --rows hard

Each checkout runs in a worker process of its own (its own imports, its own OCR engine and
SQLite catalog, built like ``python -m evals.vision`` with the same seed, so both see the same
photos; ``--real``: the real catalogs, as ``evals.vision --real`` builds them, text mode only).
The driver hands every photo to both workers one after the other, alternating which goes first
(A B, B A, ...), so a shared machine's changing load falls on both alike. Printed per row
and for all rows: latency p50 / p95 for 1-card and 4-card photos (what ``evals.vision`` times:
analysis plus catalog matching), the accuracy counts of both (they should be equal), the load
average before and after, and each worker's peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys


def _worker(args) -> None:
    """Build the eval's catalog and photos in this checkout (the cwd), then time photos on request."""
    import asyncio
    import random
    import resource
    import tempfile
    import time
    from pathlib import Path

    sys.path.insert(0, os.getcwd())
    out = sys.stdout
    sys.stdout = sys.stderr  # only the protocol on the real stdout
    from config import Settings
    from evals import vision as ev
    from store import migrations
    from store.db import create_engine, sessionmaker
    from store.importers import grades as grades_importer
    from store.queries import keys as key_queries
    from tools.context import Caller, ToolContext

    async def run(url: str) -> None:
        rng = random.Random(args.seed)
        engine = create_engine(url)
        sessions = sessionmaker(engine)
        await grades_importer.run(sessions)
        async with sessions() as s, s.begin():
            key, _ = await key_queries.create(session=s, name="bench")
        if args.real:
            cards, specs, pars = await ev.build_real_catalog(sessions, Path(args.real), args.cards, rng)
        else:
            cards, specs, pars = await ev.build_catalog(sessions, args.cards, rng)
        ev.SPECS.update(specs)
        levels = ["easy", "medium", "hard"]
        photo_sets = {lv: ev.make_photos(cards, specs, pars, lv, args.photos, rng) for lv in levels}
        images: dict = {}
        if not args.real:
            scan_cards = await ev.add_scans(sessions, ev.load_scans(Path(args.scans)), specs, images)
            ev.SPECS.update(specs)
            photo_sets["scans"] = ev.make_photos(scan_cards, specs, {}, "medium", args.photos, rng, images)
        ctx = ToolContext(sessions, Settings(database_url=url), Caller(key.id))
        mode = None
        print(json.dumps({"ready": True}), file=out, flush=True)
        for line in sys.stdin:
            req = json.loads(line)
            if req.get("quit"):
                break
            if req["mode"] != mode:
                if req["mode"] == "refs":
                    await ev.add_references(sessions, specs, images)
                mode = req["mode"]
                await ev.evaluate(ctx, photo_sets[req["row"]][:1])  # warm the reference index
            photo = photo_sets[req["row"]][req["i"]]
            t = time.perf_counter()
            st = await ev.evaluate(ctx, [photo])
            dt = time.perf_counter() - t
            counts = {k: v for k, v in st.items() if isinstance(v, int)}
            counts["tiers"] = st["tiers"]
            print(json.dumps({"t": dt, "n": len(photo[1]), "counts": counts}), file=out, flush=True)
        print(json.dumps({"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), file=out,
              flush=True)
        await engine.dispose()

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        migrations.upgrade(url)
        asyncio.run(run(url))


def _q(xs: list[float], p: float) -> str:
    if not xs:
        return "  n/a"
    xs = sorted(xs)
    return f"{xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]:.2f}s"


def _add(total: dict, counts: dict) -> None:
    for k, v in counts.items():
        if k == "tiers":
            t = total.setdefault("tiers", {x: [0, 0] for x in v})
            for x, (n, right) in v.items():
                t[x][0] += n
                t[x][1] += right
        else:
            total[k] = total.get(k, 0) + v


def main() -> None:
    p = argparse.ArgumentParser(prog="python bench/vision_ab.py", description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="checkout A (e.g. the base branch, extracted to /tmp)")
    p.add_argument("--b", required=True, help="checkout B")
    p.add_argument("--photos", type=int, default=40)
    p.add_argument("--cards", type=int, default=120)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rows", default="scans,hard,medium")
    p.add_argument("--modes", default="text")
    p.add_argument("--rounds", type=int, default=1, help="times each photo is timed per checkout")
    p.add_argument("--scans", default=os.path.join("..", "shared", "data", "hockeycards"))
    p.add_argument("--real", help="the real catalogs instead of the generated one: path to shared/data (as "
                                  "evals.vision --real; rows easy, medium, hard; text mode)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.real and not args.worker and (args.modes != "text" or "scans" in args.rows.split(",")):
        p.error("--real times text mode only, on rows easy, medium and hard")
    if args.worker:
        _worker(args)
        return
    scans = os.path.abspath(args.scans)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--a", "-", "--b", "-", "--photos",
           str(args.photos), "--cards", str(args.cards), "--seed", str(args.seed), "--scans", scans,
           *(["--real", os.path.abspath(args.real)] if args.real else [])]
    workers = {}
    for name, root in (("A", args.a), ("B", args.b)):
        env = {**os.environ, "PYTHONPATH": os.path.abspath(root)}
        workers[name] = subprocess.Popen(cmd, cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True)
    for w in workers.values():
        assert json.loads(w.stdout.readline()).get("ready")

    def ask(name: str, req: dict) -> dict:
        w = workers[name]
        w.stdin.write(json.dumps(req) + "\n")
        w.stdin.flush()
        return json.loads(w.stdout.readline())

    print(f"A = {args.a}\nB = {args.b}\nload before: {os.getloadavg()}")
    flip = False
    every = {name: {1: [], 4: []} for name in workers}
    for mode in args.modes.split(","):
        for row in args.rows.split(","):
            lat = {name: {1: [], 4: []} for name in workers}
            acc: dict = {name: {} for name in workers}
            for i in range(args.photos):
                for r in range(args.rounds):
                    for name in (("B", "A") if flip else ("A", "B")):
                        res = ask(name, {"mode": mode, "row": row, "i": i})
                        if res["n"] in (1, 4):
                            lat[name][res["n"]].append(res["t"])
                            every[name][res["n"]].append(res["t"])
                        if r == 0:
                            _add(acc[name], res["counts"])
                    flip = not flip
            for name in workers:
                a = acc[name]
                print(f"{mode} {row:6} {name}: 1-card p50 {_q(lat[name][1], .5)} p95 {_q(lat[name][1], .95)}  "
                      f"4-card p50 {_q(lat[name][4], .5)} p95 {_q(lat[name][4], .95)}  | found {a['found']}/"
                      f"{a['objects']} exact {a['exact']} base {a['base']} company {a['company']}/{a['slabs']} "
                      f"grade {a['grade']} tiers {a['tiers']}", flush=True)
    for name in workers:
        print(f"all rows {name}: 1-card p50 {_q(every[name][1], .5)} p95 {_q(every[name][1], .95)} "
              f"(n={len(every[name][1])})  4-card p50 {_q(every[name][4], .5)} p95 {_q(every[name][4], .95)} "
              f"(n={len(every[name][4])})")
    for name, w in workers.items():
        w.stdin.write(json.dumps({"quit": True}) + "\n")
        w.stdin.flush()
        print(f"{name} peak RSS {json.loads(w.stdout.readline())['rss_mb']:.0f} MB")
        w.wait()
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
