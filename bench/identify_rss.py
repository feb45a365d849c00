"""Resident memory of one ``cardwise serve`` process under photo-identification traffic (issue target:
under 500 MB per process), with every read in play (small print, name spotting, batched recognition).

    .venv/bin/python bench/identify_rss.py [--requests 40] [--hockeycards ../shared/data/hockeycards]
                                           [--real ../shared/data]

Builds a throw-away SQLite catalog as ``./scripts/run`` does (grades, the demo catalog, rendered
reference faces) plus the hockeycards import (real scans), then generates photos the way
``evals.vision`` does: rendered faces of the catalog's cards (demo cards, hockey cards without a
scan) at 'hard' (1-4 per photo, some parallels and slabs) and, every fourth request, the real scans
at 'medium'. Sends them one at a time to ``POST /v1/identify/card`` and samples the server's
VmRSS / VmHWM from /proc after each request. Prints a line per request, then the statuses, RSS
after the first request, final RSS, peak VmHWM, p50/p95 request time and the detections returned
(and how many named a card that is in the photo). Exits 1 unless all answered 200 under 500 MB.
``--real DATA`` also imports the real catalogs after the faces are rendered (tcgdex and the 1989
baseball checklists, as ``evals.vision --real``: 26,131 more cards, identifiable, without images),
so the photos are mostly of their cards, matched by text against the whole catalog.
The server tunes its allocator at start (``vision.memory``); ``CARDWISE_MALLOC_TUNE=0`` in this
command's environment measures it without.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._server import ROOT, Servers, rss_kb  # noqa: E402


def cli(url: str, *args: str) -> str:
    env = {**os.environ, "CARDWISE_DATABASE_URL": url, "CARDWISE_LOG_LEVEL": "WARNING"}
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


async def catalog(url: str):
    """Cards of identifiable sets split into rendered / scanned, their render specs, whole-set parallels, the scans."""
    import numpy as np
    from PIL import Image
    from sqlalchemy import select

    from store.db import create_engine, sessionmaker
    from store.models import Card, CardImage, CardSet, Parallel, Release, Segment
    from vision.render import CardSpec

    engine = create_engine(url)
    try:
        async with sessionmaker(engine)() as s:
            rows = (await s.execute(
                select(Card, CardSet.name, Release.name, Release.year, Segment.name)
                .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
                .join(Segment, Segment.id == Release.segment_id).where(CardSet.is_identifiable)
                .order_by(Card.id))).all()
            pars: dict = {}
            for p in (await s.scalars(select(Parallel).where(~Parallel.is_partial).order_by(Parallel.id))).all():
                pars.setdefault(p.set_id, []).append(p)
            scans = (await s.execute(select(CardImage.card_id, CardImage.data).where(
                CardImage.side == "front", CardImage.source.like("img/%")).order_by(CardImage.card_id))).all()
    finally:
        await engine.dispose()
    specs = {c.id: CardSpec(id=str(c.id), name=c.name, number=c.number, set_name=sn, release_name=rn, year=y,
                            team=c.description, segment=seg) for c, sn, rn, y, seg in rows}
    images = {}
    for cid, data in scans:  # as evals.vision.load_scans: portrait, at most 700 px
        img = Image.open(io.BytesIO(data)).convert("RGB")
        if img.width > img.height:
            img = img.rotate(90, expand=True)
        img.thumbnail((700, 700))
        images[cid] = np.asarray(img)
    cards = [SimpleNamespace(id=c.id, set_id=c.set_id) for c, *_ in rows]
    return [c for c in cards if c.id not in images], [c for c in cards if c.id in images], specs, pars, images


def photos(n: int, rendered, scans, specs, pars, images, seed: int) -> list[tuple[str, bytes, set]]:
    """Every fourth photo of the scans at 'medium', the others of rendered cards at 'hard' (1, 1, 2, 3, 4 cards)."""
    from evals.vision import make_photos

    rng = random.Random(seed)
    n_scans = n // 4 if scans else 0
    hard = iter(make_photos(rendered, specs, pars, "hard", n - n_scans, rng, images))
    medium = iter(make_photos(scans, specs, {}, "medium", n_scans, rng, images))
    picks = [("scans", next(medium)) if n_scans and i % 4 == 3 else ("hard", next(hard)) for i in range(n)]
    return [(kind, data, {t["card"] for t in truth}) for kind, (data, truth, _) in picks]


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--hockeycards", default=str(ROOT.parent / "shared/data/hockeycards"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--real", help="also import the real catalogs (path to shared/data)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cw_rss_") as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/cardwise.sqlite3"
        t0 = time.perf_counter()
        steps = [["import", "grades"], ["import", "demo"], ["import", "hockeycards", args.hockeycards],
                 ["vision", "render"]]
        if args.real:
            from evals.vision import REAL_SOURCES

            steps += [["import", importer.NAME, str(Path(args.real) / folder)] for folder, importer in REAL_SOURCES]
        for step in steps:
            print(f"{' '.join(step[:2])}: {cli(url, *step, '--quiet') if step[0] == 'import' else cli(url, *step)}")
        key = cli(url, "keys", "create", "--name", "bench-rss", "--quiet")
        rendered, scans, specs, pars, images = await catalog(url)
        shots = photos(args.requests, rendered, scans, specs, pars, images, args.seed)
        print(f"catalog: {len(rendered)} rendered + {len(scans)} scanned cards; {len(shots)} photos "
              f"({Counter(k for k, _, _ in shots)}) in {time.perf_counter() - t0:.0f} s")
        servers = Servers(url, 1)
        try:
            await servers.wait_ready()
            pid, base = servers.procs[0].pid, servers.urls[0]
            tuned = b"GLIBC_TUNABLES=" in Path(f"/proc/{pid}/environ").read_bytes()
            allocator = ("tuned (vision.memory)" if tuned
                         else "as glibc comes (CARDWISE_MALLOC_TUNE=0 or not applicable)")
            print(f"server pid {pid}: RSS at rest {rss_kb(pid) / 1024:.0f} MB; allocator {allocator}")
            statuses, times, rss, dets, ids, right = Counter(), [], [], 0, 0, 0
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as http:
                for i, (kind, data, truth) in enumerate(shots, 1):
                    form = aiohttp.FormData()
                    form.add_field("image", data, filename="photo.jpg", content_type="image/jpeg")
                    t = time.perf_counter()
                    async with http.post(f"{base}/v1/identify/card", data=form, headers={"X-API-Key": key}) as r:
                        body = await r.json() if r.content_type == "application/json" else {}
                        status = r.status
                    times.append(time.perf_counter() - t)
                    statuses[status] += 1
                    found = [d["card"].get("id") for d in body.get("detections", [])]
                    dets, ids = dets + len(found), ids + sum(1 for f in found if f)
                    right += sum(1 for f in found if f and f in {str(c) for c in truth})
                    rss.append(rss_kb(pid) / 1024)
                    print(f"{i:4d} {kind:5} cards {len(truth)} -> {status} det {len(found)} {times[-1]:5.2f}s "
                          f"RSS {rss[-1]:5.0f} MB  HWM {rss_kb(pid, 'VmHWM') / 1024:5.0f} MB", flush=True)
            hwm = rss_kb(pid, "VmHWM") / 1024
        finally:
            servers.stop()
    q = statistics.quantiles(times, n=20, method="inclusive") if len(times) > 1 else times * 19
    print(f"\nrequests sent: {len(times)}  statuses: {dict(statuses)}")
    print(f"RSS after first request: {rss[0]:.0f} MB  final RSS: {rss[-1]:.0f} MB  peak VmHWM: {hwm:.0f} MB "
          f"(target < 500 MB)")
    half = len(rss) // 2
    print(f"RSS max over first half {max(rss[:half] or rss):.0f} MB, second half {max(rss[half:]):.0f} MB")
    print(f"request time p50 {statistics.median(times):.2f} s  p95 {q[18]:.2f} s")
    print(f"detections returned: {dets} ({ids} with a card, {right} naming a card in the photo; "
          f"{sum(len(t) for _, _, t in shots)} cards photographed)")
    return 0 if statuses.get(200) == len(times) and hwm < 500 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
