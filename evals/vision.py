"""Evaluation of photo identification on generated phone-like photos with ground truth.

    python -m evals.vision [--photos 8] [--cards 120] [--levels easy,medium,hard] [--seed 1]
    python -m evals.vision --real ../shared/data --modes text   # the real catalogs instead

Builds a throw-away SQLite catalog (two segments, three releases, parallels Refractor / Gold /50 /
Red /5, one image variation), renders every card face, and generates photos of 1-4 objects
(about 15 % graded slabs, 25 % parallels with their serial) per difficulty. It runs the same code
as ``POST /v1/identify/card`` (``vision.pipeline.analyse`` + ``tools.identify.match_readings``) twice:
with reference images for every card ("refs") and from text alone ("text"). Printed per mode and
difficulty: detection recall / precision (IoU >= 0.5), exact card top-1 (card and parallel),
base card top-1 (parallel ignored), slab company / grade accuracy, precision of each confidence
tier, latency p50 / p95 per photo (1-card and 4-card photos separately), the peak RSS and the
machine's yardstick (``vision.ocr.yardstick_ms``: latencies from two machines compare through it). With
``--real DATA`` the catalog is the real one instead (``build_real_catalog``: every Pokemon card of
tcgdex and the 1989 baseball checklists, 26,131 cards, imported as ``cardwise import`` does) and
the photographed cards are drawn from it: namesakes as a real catalog has them (117 Pikachu, a
player in up to ten releases of a year). Run as a
program it restarts itself with the allocator tuned as ``cardwise serve`` is (``vision.memory``;
``CARDWISE_MALLOC_TUNE=0``: glibc as it comes), so its memory and latency are a server's.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import select

from config import Settings
from store import migrations
from store.db import create_engine, sessionmaker
from store.importers import grades as grades_importer
from store.importers import junkwax, tcgdex
from store.models import Card, CardImage, CardSet, Manufacturer, Parallel, Release, Segment
from store.queries import keys as key_queries
from store.reference import grades as grades_ref
from evals import vision_calibration as calibration
from evals import vision_uploads
from identification import thresholds as cuts_file
from tools import identify as ident
from tools.context import Caller, ToolContext
from vision import detect, memory, ocr, pipeline
from vision.features import card_features
from vision.photos import make_photo
from vision.render import CardSpec, render_card, render_slab

VERBOSE = False
MISSES = False
BUDGET = True  # the server's time budget per photo (``tools.identify.deadline``); --no-budget: none
_RNG = random.Random(0)


def _uid() -> uuid.UUID:
    """Deterministic ids (the rendered artwork is seeded by the card id, so runs repeat exactly)."""
    return uuid.UUID(int=_RNG.getrandbits(128), version=4)


SPECS: dict = {}
FIRST = ["Shohei", "Aaron", "Paul", "Mike", "Juan", "Bobby", "Gunnar", "Elly", "Corbin", "Julio", "Ronald", "Mookie",
         "Freddie", "Jackson", "Wyatt", "Adley", "Spencer", "Bryce", "Jose", "Rafael"]
LAST = ["Ohtani", "Judge", "Skenes", "Trout", "Soto", "Witt", "Henderson", "De La Cruz", "Carroll", "Rodriguez",
        "Acuna", "Betts", "Freeman", "Holliday", "Langford", "Rutschman", "Strider", "Harper", "Ramirez", "Devers"]
POKEMON = ["Charizard", "Pikachu", "Blastoise", "Venusaur", "Mewtwo", "Gengar", "Snorlax", "Dragonite", "Gyarados",
           "Alakazam", "Machamp", "Lapras", "Eevee", "Jigglypuff", "Zapdos", "Moltres", "Articuno", "Raichu"]
TEAMS = ["Los Angeles Dodgers", "New York Yankees", "Pittsburgh Pirates", "Kansas City Royals", "Atlanta Braves"]
SLABS = [("PSA", "10"), ("PSA", "9"), ("BGS", "9.5"), ("SGC", "10"), ("CGC", "9.5")]


async def build_catalog(sessions, n_cards: int, rng: random.Random):
    seg = {"bb": Segment(id=_uid(), name="Baseball", shortname="MLB"),
           "pk": Segment(id=_uid(), name="Pokemon", shortname="PKMN")}
    man = Manufacturer(id=_uid(), name="Topps")
    rels = [Release(id=_uid(), segment_id=seg["bb"].id, manufacturer_id=man.id, name="2024 Topps Chrome", year="2024"),
            Release(id=_uid(), segment_id=seg["bb"].id, manufacturer_id=man.id, name="2023 Bowman", year="2023"),
            Release(id=_uid(), segment_id=seg["pk"].id, manufacturer_id=None, name="Base Set", year="1999")]
    sets = [CardSet(id=_uid(), release_id=r.id, name="Base", is_identifiable=True) for r in rels]
    pars = {s.id: [Parallel(id=_uid(), set_id=s.id, name=n, numbered_to=k, sort_order=i)
                   for i, (n, k) in enumerate([("Refractor", None), ("Gold Refractor", 50), ("Red Lava", 5)])]
            for s in sets}
    cards, specs = [], {}
    names = [f"{f} {ln}" for f in FIRST for ln in LAST]
    rng.shuffle(names)
    for i in range(n_cards):
        k = i % 3
        r, s = rels[k], sets[k]
        name = POKEMON[i % len(POKEMON)] if k == 2 else names[i]
        number = str(i + 1)
        c = Card(id=_uid(), set_id=s.id, release_id=r.id, name=name, number=number, number_sort=i + 1,
                 description=None if k == 2 else rng.choice(TEAMS))
        cards.append(c)
        specs[c.id] = CardSpec(id=str(c.id), name=name, number=number, set_name="Base", release_name=r.name,
                               year=r.year, team=c.description, segment="Pokemon" if k == 2 else "Baseball")
    async with sessions() as ss, ss.begin():
        ss.add_all([*seg.values(), man])
        await ss.flush()
        ss.add_all(rels)
        await ss.flush()
        ss.add_all(sets)
        await ss.flush()
        ss.add_all(cards)
        ss.add_all([p for ps in pars.values() for p in ps])
    return cards, specs, pars


REAL_SOURCES = (("tcgdex", tcgdex), ("junkwax/categories/baseball/1989", junkwax))


async def build_real_catalog(sessions, data: Path, n_cards: int, rng: random.Random):
    """The real catalogs (``REAL_SOURCES`` under ``data``, i.e. ``shared/data``) imported by their
    importers (which make every set identifiable), and ``n_cards`` base cards drawn from them, as
    many from each segment, rendered from their catalog entries (release, set, year, number, team).
    No parallels (the real checklists' parallels have no colours to draw): exact and base top-1 are
    the same."""
    for folder, importer in REAL_SOURCES:
        await importer.run(sessions, str(data / folder))
    async with sessions() as s:
        rows = (await s.execute(
            select(Card, CardSet.name, Release.name, Release.year, Segment.name)
            .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
            .join(Segment, Segment.id == Release.segment_id).where(Card.variation_of.is_(None))
            .order_by(Card.id))).all()
    by_segment: dict[str, list] = {}
    for row in rows:
        by_segment.setdefault(row[4], []).append(row)
    cards, specs = [], {}
    for seg in sorted(by_segment):
        for card, set_name, rel_name, year, _ in rng.sample(by_segment[seg], n_cards // len(by_segment)):
            cards.append(card)
            specs[card.id] = CardSpec(id=str(card.id), name=card.name, number=card.number, set_name=set_name,
                                      release_name=rel_name, year=year, team=card.description, segment=seg)
    return cards, specs, {}


def load_scans(root: Path) -> list[dict]:
    """Real card scans with their identity from ``hockeycards/data/*.json`` (fronts that exist on disk)."""
    import json

    import numpy as np
    from PIL import Image

    out = []
    for f in sorted((root / "data").glob("*.json")):
        try:
            doc = json.loads(f.read_text())
        except ValueError:
            continue
        for st in (doc.values() if isinstance(doc, dict) else doc):
            if not isinstance(st, dict):
                continue
            for c in st.get("cards", []):
                img_path = root / (c.get("image_front") or "")
                if not c.get("image_front") or not img_path.is_file():
                    continue
                img = Image.open(img_path).convert("RGB")
                if img.width > img.height:
                    img = img.rotate(90, expand=True)
                img.thumbnail((700, 700))
                out.append({"name": c["name"], "number": str(c.get("base_number") or ""), "team": c.get("team"),
                            "set": st.get("set_display_name") or st.get("set_name") or "Scans",
                            "year": str(st.get("set_year_start") or ""), "image": np.asarray(img)})
    return out


async def add_scans(sessions, scans: list[dict], specs: dict, images: dict) -> list:
    seg = Segment(id=_uid(), name="Hockey", shortname="NHL")
    rels: dict = {}
    cards = []
    async with sessions() as s, s.begin():
        s.add(seg)
        await s.flush()
        for sc in scans:
            if sc["set"] not in rels:
                r = Release(id=_uid(), segment_id=seg.id, name=sc["set"], year=sc["year"] or None)
                cs = CardSet(id=_uid(), release_id=r.id, name="Base", is_identifiable=True)
                s.add(r)
                await s.flush()
                s.add(cs)
                await s.flush()
                rels[sc["set"]] = (r, cs)
            r, cs = rels[sc["set"]]
            c = Card(id=_uid(), set_id=cs.id, release_id=r.id, name=sc["name"], number=sc["number"] or None,
                     description=sc["team"])
            s.add(c)
            cards.append(c)
            specs[c.id] = CardSpec(id=str(c.id), name=sc["name"], number=sc["number"], release_name=r.name)
            images[c.id] = sc["image"]
    return cards


async def add_references(sessions, specs, images: dict) -> None:
    async with sessions() as s, s.begin():
        for cid, sp in specs.items():
            f = card_features(images[cid] if cid in images else render_card(sp))
            s.add(CardImage(card_id=cid, content_type="image/png", data=b"", phash=f["phash"], features=f,
                            source="eval-render"))


def make_photos(cards, specs, pars, level: str, n: int, rng: random.Random, images: dict | None = None,
                slab_share: float = 0.15):
    photos = []
    for i in range(n):
        k = [1, 1, 2, 3, 4][i % 5]
        objs, truth = [], []
        for c in rng.sample(cards, k):
            sp = specs[c.id]
            par = None
            if c.set_id in pars and rng.random() < 0.25:
                par = rng.choice(pars[c.set_id])
                sp = CardSpec(**{**sp.__dict__, "parallel": par.name, "numbered_to": par.numbered_to,
                                 "serial": rng.randint(1, par.numbered_to) if par.numbered_to else None})
            slab = rng.choice(SLABS) if rng.random() < slab_share else None
            img = images[c.id] if images and c.id in images else render_card(sp)
            objs.append(render_slab(sp, slab[0], slab[1], str(rng.randint(10_000_000, 99_999_999)), img) if slab else img)
            truth.append({"card": c.id, "parallel": par.id if par else None, "slab": slab})
        data, quads = make_photo(objs, level, seed=rng.randint(0, 10**9))
        photos.append((data, truth, [q.quad for q in quads]))
    return photos


async def evaluate(ctx: ToolContext, photos, scores: list | None = None) -> dict:
    """Figures for one set of photos; ``scores`` (if given) collects (confidence, right card) per detection."""
    st = {"objects": 0, "found": 0, "detections": 0, "true_det": 0, "exact": 0, "base": 0, "slabs": 0, "company": 0,
          "grade": 0, "offered": 0, "unidentified": 0, "false_slabs": 0, "tiers": {t: [0, 0] for t in ("High", "Medium", "Low")}, "lat1": [], "lat4": [], "latall": []}
    for data, truth, quads in photos:
        t0 = time.perf_counter()
        analysis = await ident.run_cpu(pipeline.analyse, data)
        until = ident.deadline(ctx.settings, t0, len(analysis.readings)) if BUDGET else None
        dets = list(zip(analysis.readings, await ident.match_readings(ctx, analysis.readings, None, until)))
        dt = time.perf_counter() - t0
        ident.release_memory()  # as the server does after each request
        st["latall"].append(dt)
        if len(truth) == 1:
            st["lat1"].append(dt)
        if len(truth) == 4:
            st["lat4"].append(dt)
        st["objects"] += len(truth)
        st["slabs"] += sum(1 for t in truth if t["slab"])
        used = set()
        for r, d in dets:
            if d is None:
                continue
            st["detections"] += 1
            ious = [detect._iou(q, r.quad)[0] for q in quads]
            j = max(range(len(quads)), key=lambda i: ious[i]) if quads else -1
            ok_card = False
            if j >= 0 and ious[j] >= 0.5 and j not in used:
                used.add(j)
                st["true_det"] += 1
                t = truth[j]
                ok_card = d.card.id == str(t["card"])
                st["offered"] += ok_card or any(c.id == str(t["card"]) for c in d.card.suggestions or [])
                sugg = d.card.parallel_suggestions
                ok_par = (sugg is None) if t["parallel"] is None else bool(sugg and sugg[0].id == str(t["parallel"]))
                st["base"] += ok_card
                st["exact"] += ok_card and ok_par
                st["false_slabs"] += bool(not t["slab"] and d.grading)  # a bare card reported graded
                if t["slab"] and d.grading:
                    st["company"] += d.grading.company.id == str(grades_ref.company_id(t["slab"][0]))
                    st["grade"] += bool(d.grading.grade and d.grading.grade.value == t["slab"][1])
            if d.card.id is None:
                st["unidentified"] += 1  # a slab whose card was not matched: grading only
                if MISSES and j >= 0:
                    print("  grading only:", SPECS[truth[j]["card"]].name, "| lines", r.lines[:10], file=sys.stderr)
                continue
            if scores is not None:
                scores.append((d._score, ok_card))
            if MISSES and not ok_card and j >= 0:
                want = truth[j]["card"]
                print(f"  miss ({d.confidence}):", d.card.name, d.card.number, "| truth", SPECS[want].name,
                      SPECS[want].number, "| lines", r.lines[:10], file=sys.stderr)
            if VERBOSE and not ok_card and d.confidence == "High":
                want = truth[j]["card"] if j >= 0 else None
                print("  wrong High:", d.card.name, d.card.number, "truth", SPECS[want].name if want in SPECS else want, SPECS[want].number if want in SPECS else "", "lines", r.lines[:6], file=sys.stderr)
            st["tiers"][d.confidence][0] += 1
            st["tiers"][d.confidence][1] += ok_card
        if MISSES:
            for j in set(range(len(quads))) - used:
                near = [r for r in analysis.readings if detect._iou(quads[j], r.quad)[0] >= 0.5]
                print("  dropped:", SPECS[truth[j]["card"]].name, "| slab" if truth[j]["slab"] else "",
                      "| lines", near[0].lines[:10] if near else "not located", file=sys.stderr)
        # detection recall counts located objects even when matching dropped them
        st["found"] += sum(1 for q in quads if any(detect._iou(q, r.quad)[0] >= 0.5 for r in analysis.readings))
    return st


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:5.1f}%" if b else "   n/a"


def _q(xs: list[float], p: float) -> str:
    if not xs:
        return "  n/a"
    xs = sorted(xs)
    return f"{xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]:.2f}s"


def _calibration_report(args, scores: list) -> None:
    cuts = calibration.choose(scores)
    if args.scores_out:
        Path(args.scores_out).write_text("\n".join(f"{c:.4f} {int(ok)}" for c, ok in sorted(scores)) + "\n")
    print(f"calibration on {len(scores)} detections (seed {args.seed}): thresholds {cuts}")
    for name, (n, right) in calibration.bands(scores, cuts).items():
        print(f"  {name:8} n={n:4}  right {_pct(right, n)}")
    if args.write:
        calibration.write(cuts_file.CALIBRATION, cuts, args.seed, args.photos, len(scores))
        print(f"written to {cuts_file.CALIBRATION}")


def report(mode: str, level: str, st: dict) -> None:
    tiers = "  ".join(f"{t} {_pct(v[1], v[0])} (n={v[0]})" for t, v in st["tiers"].items())
    print(f"{mode:4} {level:6} objects={st['objects']:3}  det recall {_pct(st['found'], st['objects'])}  "
          f"precision {_pct(st['true_det'], st['detections'])}  exact top-1 {_pct(st['exact'], st['objects'])}  "
          f"base top-1 {_pct(st['base'], st['objects'])} (or suggested {_pct(st['offered'], st['objects'])})  slab company {_pct(st['company'], st['slabs'])} "
          f"grade {_pct(st['grade'], st['slabs'])} (n={st['slabs']})")
    print(f"           tiers (share with the right card): {tiers}; slabs with grading only: {st['unidentified']}; "
          f"bare cards reported as slabs: {st['false_slabs']} of {st['objects'] - st['slabs']}")
    print(f"           latency p50 {_q(st['latall'], .5)} p95 {_q(st['latall'], .95)}; 1-card p50 {_q(st['lat1'], .5)}"
          f" p95 {_q(st['lat1'], .95)}; 4-card p50 {_q(st['lat4'], .5)} p95 {_q(st['lat4'], .95)}")


async def main_async(args, url: str) -> None:
    rng = random.Random(args.seed)
    if True:
        engine = create_engine(url)
        sessions = sessionmaker(engine)
        try:
            await grades_importer.run(sessions)
            async with sessions() as s, s.begin():
                key, _ = await key_queries.create(session=s, name="eval")
            if args.uploads:
                ctx = ToolContext(sessions, Settings(database_url=url), Caller(key.id))
                await vision_uploads.run(ctx, sessions, Path(args.uploads), args)
                return
            if args.real:
                cards, specs, pars = await build_real_catalog(sessions, Path(args.real), args.cards, rng)
            else:
                cards, specs, pars = await build_catalog(sessions, args.cards, rng)
            SPECS.update(specs)
            levels = args.levels.split(",")
            photo_sets = {lv: make_photos(cards, specs, pars, lv, args.photos, rng, slab_share=args.slab_share)
                          for lv in levels}
            images: dict = {}
            if args.scans:
                scan_cards = await add_scans(sessions, load_scans(Path(args.scans)), specs, images)
                SPECS.update(specs)
                if scan_cards:
                    levels = [*levels, "scans"]
                    photo_sets["scans"] = make_photos(scan_cards, specs, {}, "medium", args.photos, rng, images,
                                                      slab_share=args.slab_share)
            ctx = ToolContext(sessions, Settings(database_url=url), Caller(key.id))
            scores: list | None = [] if args.calibrate else None
            rows = args.rows.split(",") if args.rows else levels
            for mode in args.modes.split(","):
                if mode == "refs":
                    await add_references(sessions, specs, images)
                for lv in levels:
                    if lv in rows:
                        report(mode, lv, await evaluate(ctx, photo_sets[lv], scores))
            if scores is not None:
                _calibration_report(args, scores)
        finally:
            await engine.dispose()
            _footer()


def _footer() -> None:
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"{ocr.yardstick_line(ocr.yardstick_ms())}: latencies taken on another machine compare through it")


def main(argv: list[str] | None = None) -> None:
    if argv is None:  # run as the program: the allocator tuned as a server's is (``vision.memory``)
        memory.exec_tuned()
    p = argparse.ArgumentParser(prog="python -m evals.vision", description=__doc__.splitlines()[0])
    p.add_argument("--photos", type=int, default=10, help="photos per difficulty")
    p.add_argument("--cards", type=int, default=120, help="catalog size")
    p.add_argument("--levels", default="easy,medium,hard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--scans", help="also photograph real scans: path to shared/data/hockeycards ('scans' row, "
                                   "medium difficulty)")
    p.add_argument("--real", help="the real catalogs instead of the generated one: path to shared/data "
                                  "(tcgdex and junkwax imported, --cards of their cards photographed; text mode "
                                  "only: their cards have no reference images)")
    p.add_argument("--uploads", help="the real-upload row instead: path to shared/data (evals/vision_uploads.py: "
                                     "every hockeycards front scan as is and re-saved, against hockeycards, "
                                     "JunkWax and TCGdex)")
    p.add_argument("--catalog-cache", help="with --uploads: keep the imported catalog in this SQLite file and start "
                                           "from a copy of it when it exists (the import takes minutes)")
    p.add_argument("--resaves", type=int, default=2, help="with --uploads: re-saves of each scan")
    p.add_argument("--limit", type=int, default=0, help="with --uploads: a random sample of this many uploads")
    p.add_argument("--binders", type=int, default=4, help="with --uploads: binder-page photos composed from the "
                                                          "scans (9 sleeved cards each; 0: none)")
    p.add_argument("--rows", help="evaluate only these rows (e.g. 'scans,hard'); every row's photos are still "
                                  "generated, so a row's photos are the same as in a full run")
    p.add_argument("--modes", default="text,refs", help="'text', 'refs' or both")
    p.add_argument("--slab-share", type=float, default=0.15,
                   help="share of objects put in a graded slab (1.0: slabs only, for a larger slab sample)")
    p.add_argument("--no-budget", action="store_true", help="no time budget per photo (the server has one: "
                                                            "CARDWISE_IDENTIFY_BUDGET_S); every closer read runs")
    p.add_argument("--verbose", action="store_true", help="print wrong High-tier answers")
    p.add_argument("--misses", action="store_true", help="print every matched object whose card is wrong, with "
                                                         "the text read")
    p.add_argument("--calibrate", action="store_true",
                   help="choose the tier cuts on this (labelled) run instead of applying them; use a seed of its "
                        "own (the documented one is 1000) and see evals/vision_calibration.py")
    p.add_argument("--write", action="store_true", help="with --calibrate: store the cuts in "
                                                        "identification/calibration.json")
    p.add_argument("--scores-out", help="with --calibrate: also write the (confidence, right) pairs to this file")
    args = p.parse_args(argv)
    if args.real and "refs" in args.modes.split(","):
        p.error("--real evaluates text only (--modes text): the real catalogs' cards have no reference images")
    if args.calibrate:
        if args.seed == 1:
            p.error("--calibrate needs a seed other than the evaluation's (1), e.g. --seed 1000")
        cuts_file.override_tier_cuts({"high": 2.0, "medium": 2.0, "low": 0.0})  # every match comes back, as Low
    global VERBOSE, MISSES, BUDGET
    VERBOSE = args.verbose
    BUDGET = not args.no_budget
    MISSES = args.misses
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "eval.sqlite3"
        if args.uploads and args.catalog_cache and Path(args.catalog_cache).exists():
            shutil.copyfile(args.catalog_cache, db)
        url = f"sqlite+aiosqlite:///{db}"
        migrations.upgrade(url)
        asyncio.run(main_async(args, url))


if __name__ == "__main__":
    main()
