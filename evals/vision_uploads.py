"""The real-upload row of the photo evaluation: every real front scan of ``hockeycards`` posted as is, and
re-saved as a phone or a scanner leaves it, against the whole real catalog.

    python -m evals.vision --uploads ../shared/data [--resaves 2] [--seed 1] [--modes text,refs]

The catalog holds the hockey cards (with their subsets), every JunkWax checklist and TCGdex, imported by
their importers (so the hockey players' other cards are there as namesakes). Each scan is posted as is
and ``--resaves`` times re-saved (``vision.photos.resave``: smaller, turned a little, recompressed, with a
thin border or cropped inside its edge), first from text alone, then with the scans as reference images
(``refs``). Printed per mode: top-1 (the detection with the right card; a scan answered with several
detections counts as wrong), the share of uploads answered with exactly one detection, each tier's
precision, and one-card latency p50 / p95 / max.

``--binders N`` adds the binder-page row: N phone photos of a 9-pocket page composed from the scans
(``vision.photos.binder_page``: sleeves, glare, the page turned), scored per card: found (a detection over
its pocket), named right, wrong High, and the page's latency.
"""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
from PIL import Image
from sqlalchemy import text

from evals.cache import keep_index, restore_index
from store.importers import hockeycards, junkwax, tcgdex
from store.importers._bulk import derive_id
from store.search import index_root
from tools import identify as ident
from tools._search import catalog_index
from tools._reference_images import index_images
from vision import pipeline
from vision.detect import _iou
from vision.photos import binder_page, resave


def scan_truths(root: Path) -> list[tuple[Path, str, str]]:
    """``(front scan, card id, "name number")`` of every card of the imported hockey sets with a front scan."""
    out = []
    for rel_path, key in hockeycards.SETS:
        doc = json.loads((root / rel_path).read_text(encoding="utf-8"))[key]
        for sub in [doc, *(x for x in doc.get("subsets") or [] if isinstance(x, dict))]:
            for c in sub.get("cards") or []:
                front = c.get("image_front")
                if front and (root / front).is_file():
                    number = str(c["base_number"])
                    out.append((root / front, str(derive_id("hockeycards", "card", sub["set_key"], number)),
                                f"{c['name']} {number}"))
    return out


def uploads(root: Path, resaves: int, rng: random.Random) -> list[tuple[str, bytes, str, str]]:
    """``(how, bytes, card id, label)``: each scan as is, then ``resaves`` re-saves of it."""
    out = []
    for path, cid, label in scan_truths(root):
        out.append(("as is", path.read_bytes(), cid, label))
        img = Image.open(path).convert("RGB")
        for _ in range(resaves):
            how, data = resave(img, rng)
            out.append((how, data, cid, label))
    return out


def binder_pages(root: Path, n: int, rng: random.Random) -> list[tuple[bytes, list[tuple[np.ndarray, str, str]]]]:
    """``n`` binder-page photos of nine different scans each: ``(jpeg, [(quad, card id, label)])``."""
    scans = scan_truths(root)
    out = []
    for _ in range(n):
        pick = rng.sample(scans, 9)
        data, truths = binder_page([np.asarray(Image.open(p).convert("RGB")) for p, _, _ in pick], rng)
        out.append((data, [(t.quad, pick[t.index][1], pick[t.index][2]) for t in truths]))
    return out


async def evaluate_binders(ctx, pages, misses: bool = False, budget: bool = True) -> dict:
    st: dict[str, Any] = {"pages": len(pages), "cards": 0, "found": 0, "right": 0, "wrong_high": [], "extra": 0, "lat": [],
          "found_per_page": []}
    for data, truths in pages:
        t0 = time.perf_counter()
        analysis = await ident.run_cpu(pipeline.analyse, data)
        until = ident.deadline(ctx.settings, t0, len(analysis.readings)) if budget else None
        dets = await ident.match_readings(ctx, analysis.readings, None, until)
        st["lat"].append(time.perf_counter() - t0)
        ident.release_memory()
        used: set[int] = set()
        found = 0
        k = analysis.width / Image.open(io.BytesIO(data)).width  # the photo as decoded (large ones shrink)
        for quad, cid, label in truths:
            quad = quad * k
            st["cards"] += 1
            j = max(range(len(analysis.readings)), key=lambda i: _iou(quad, analysis.readings[i].quad)[0], default=-1)
            if j < 0 or j in used or _iou(quad, analysis.readings[j].quad)[0] < 0.5:
                if misses:
                    print(f"  binder: not found {label}", flush=True)
                continue
            used.add(j)
            found += 1
            d = dets[j]
            ok = d is not None and d.card.id == cid
            st["right"] += ok
            if d is not None and d.confidence == "High" and not ok:
                st["wrong_high"].append((label, d.card.name, d.card.number))
            if misses and not ok:
                print(f"  binder miss {label}: " + (f"{d.card.name} {d.card.number} {d.card.set_name} ({d.confidence})"
                                                    if d else "nothing"), flush=True)
        st["found"] += found
        st["found_per_page"].append(found)
        st["extra"] += sum(1 for i, d in enumerate(dets) if i not in used and d is not None)
    return st


def report_binders(mode: str, st: dict) -> None:
    def pct(a, b):
        return f"{100 * a / b:5.1f}%" if b else "   n/a"

    lat = sorted(st["lat"])
    print(f"{mode:4} binder pages n={st['pages']}  cards {st['cards']}  found {pct(st['found'], st['cards'])} "
          f"(per page {st['found_per_page']})  named right {pct(st['right'], st['cards'])}  "
          f"wrong High: {st['wrong_high'] or 'none'}  other detections {st['extra']}")
    print(f"           page latency p50 {lat[len(lat) // 2]:.2f}s max {lat[-1]:.2f}s" if lat else "")


async def build(sessions, data: Path) -> None:
    """The whole real catalog: hockeycards, TCGdex, every JunkWax checklist."""
    await hockeycards.run(sessions, str(data / "hockeycards"))
    await tcgdex.run(sessions, str(data / "tcgdex"))
    await junkwax.run(sessions, str(data / "junkwax"))


class Scores(TypedDict):
    """One mode's figures: uploads, right top-1, single answers, [answered, right] per tier, latencies,
    and the wrong High answers as (scan, how, name, number)."""

    n: int
    right: int
    single: int
    tiers: dict[str, list[int]]
    lat: list[float]
    wrong_high: list[tuple[str, str, str | None, str | None]]


async def evaluate(ctx, items, misses: bool = False, budget: bool = True) -> Scores:
    st: Scores = {"n": len(items), "right": 0, "single": 0, "tiers": {t: [0, 0] for t in ("High", "Medium", "Low")},
                  "lat": [], "wrong_high": []}
    for how, data, cid, label in items:
        t0 = time.perf_counter()
        analysis = await ident.run_cpu(pipeline.analyse, data)
        until = ident.deadline(ctx.settings, t0, len(analysis.readings)) if budget else None
        dets = [d for d in await ident.match_readings(ctx, analysis.readings, None, until) if d is not None]
        st["lat"].append(time.perf_counter() - t0)
        ident.release_memory()
        st["single"] += len(dets) == 1
        ok = len(dets) == 1 and dets[0].card.id == cid
        st["right"] += ok
        for d in dets:
            right = d.card.id == cid
            st["tiers"][d.confidence][0] += 1
            st["tiers"][d.confidence][1] += right
            if d.confidence == "High" and not right:
                st["wrong_high"].append((label, how, d.card.name, d.card.number))
        if misses and not ok:
            print(f"  miss [{how}] {label}: " + "; ".join(f"{d.card.name} {d.card.number} {d.card.set_name} "
                                                        f"({d.confidence})" for d in dets), flush=True)
    return st


def report(mode: str, st: Scores) -> None:
    def pct(a, b):
        return f"{100 * a / b:5.1f}%" if b else "   n/a"

    lat = sorted(st["lat"])

    def q(p):
        return f"{lat[min(len(lat) - 1, int(round(p * (len(lat) - 1))))]:.2f}s" if lat else "n/a"

    tiers = "  ".join(f"{t} {pct(v[1], v[0])} (n={v[0]})" for t, v in st["tiers"].items())
    print(f"{mode:4} uploads n={st['n']:3}  top-1 {pct(st['right'], st['n'])}  one detection "
          f"{pct(st['single'], st['n'])}  tiers: {tiers}")
    print(f"           one-card latency p50 {q(0.5)} p95 {q(0.95)} max {lat[-1] if lat else 0:.2f}s; "
          f"wrong High: {st['wrong_high'] or 'none'}")


async def search_index(ctx, cache: Path | None) -> None:
    """The catalog search index built (or, with a catalog cache, copied from beside it), as ``cardwise
    import`` leaves it in a deployment: no request of the run waits for it."""
    root = index_root(ctx.settings.database_url, ctx.settings.search_dir or None)
    if cache is not None:
        restore_index(cache, root)
    t = time.perf_counter()
    index = await catalog_index(ctx)
    print(f"search index ready in {time.perf_counter() - t:.1f} s ({index.num_docs} documents)", flush=True)
    if cache is not None:
        keep_index(cache, root)


async def run(ctx, sessions, data: Path, args) -> None:
    t = time.perf_counter()
    cache = Path(args.catalog_cache) if args.catalog_cache else None
    if cache is None or not cache.exists():
        await build(sessions, data)
        print(f"catalog imported in {time.perf_counter() - t:.0f} s", flush=True)
        if cache is not None:  # the catalog as imported, before any reference image is indexed
            async with sessions() as s:
                await s.execute(text("VACUUM INTO :path"), {"path": str(cache)})
    await search_index(ctx, cache)
    items = uploads(data / "hockeycards", args.resaves, random.Random(args.seed))
    if args.limit:
        items = random.Random(args.seed).sample(items, min(args.limit, len(items)))
    for mode in args.modes.split(","):
        if mode == "refs":
            await index_images(sessions)
        await ident.warm_up(ctx)  # as ``cardwise serve`` does at start: no upload waits for the models to load
        report(mode, await evaluate(ctx, items, args.misses, not args.no_budget))
        if args.binders:
            pages = binder_pages(data / "hockeycards", args.binders, random.Random(args.seed))
            report_binders(mode, await evaluate_binders(ctx, pages, args.misses, not args.no_budget))

