"""Precision of the listing-title matcher on generated titles with known answers.

    .venv/bin/python bench/title_matcher.py [--players 60] [--titles 3000] [--seed 1]

Builds a throwaway SQLite catalog that is hard on purpose: the same players in five releases
over three years (different card numbers each year), parallels with overlapping names
(Refractor / Gold Refractor / Gold Refractor Wave, Prizm colours), an autograph set with the same
players; then writes seller-style titles (reordered words, lower case, missing '#', missing year,
extra words such as RC or 🔥, graders spelled several ways) plus distractors that have no answer
(players not in the catalog, lots). A match counts as correct only when card, parallel AND grade
are all right. Prints precision (correct / matched), coverage (correct / answerable) and speed, for the
matcher asking the catalog search index for candidates (what ``cardwise import listings`` uses) and for
the one holding every card in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
import uuid
from pathlib import Path

from store import migrations
from store.db import create_engine, sessionmaker
from store.importers import grades as grades_importer
from store.matching import TitleMatcher
from store.search import build as build_index
from store.models import Card, CardSet, Manufacturer, Parallel, Release, Segment
from store.reference import grades as ref

FIRST = ["Shohei", "Aaron", "Mike", "Juan", "Paul", "Elly", "Bobby", "Gunnar", "Julio", "Corbin", "Jackson", "Wyatt",
         "Ronald", "Fernando", "Mookie", "Freddie", "Bryce", "Vladimir", "Adley", "Yordan"]
LAST = ["Ohtani", "Judge", "Trout", "Soto", "Skenes", "De La Cruz", "Witt Jr.", "Henderson", "Rodriguez", "Carroll",
        "Holliday", "Langford", "Acuna Jr.", "Tatis Jr.", "Betts", "Freeman", "Harper", "Guerrero Jr.", "Rutschman",
        "Alvarez"]
RELEASES = {
    "Topps Chrome": [("Refractor", None), ("Gold Refractor", 50), ("Gold Refractor Wave", 50), ("Orange Refractor", 25),
                     ("Red Refractor", 5), ("Superfractor", 1)],
    "Bowman Chrome": [("Refractor", 499), ("Blue Refractor", 150), ("Gold Refractor", 50), ("Superfractor", 1)],
    "Panini Prizm": [("Silver Prizm", None), ("Red White Blue Prizm", None), ("Gold Prizm", 10), ("Black Prizm", 1)],
    "Topps Series 1": [("Gold", 2024), ("Rainbow Foil", None), ("Black", 73)],
    "Donruss Optic": [("Holo", None), ("Pink Velocity", None), ("Gold Vinyl", 1)],
}
GRADES = [(None, None), ("PSA", "10"), ("PSA", "9"), ("BGS", "9.5"), ("SGC", "10"), ("CGC", "9.5")]
GRADER_SPELLING = {"PSA": ["PSA", "psa", "PSA GEM MT"], "BGS": ["BGS", "Beckett", "bgs"], "SGC": ["SGC"], "CGC": ["CGC"]}
EXTRAS = ["", "", " RC", " Rookie", " 🔥🔥", " SSP", " Invest", " Case Hit", " MINT", " L@@K"]


async def build(url: str, players: int, rng: random.Random) -> list[dict]:
    await asyncio.to_thread(migrations.upgrade, url)
    engine = create_engine(url)
    sessions = sessionmaker(engine)
    await grades_importer.run(sessions)
    names = list(dict.fromkeys(f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(players * 4)))[:players]
    answers = []
    async with sessions() as s, s.begin():
        seg = Segment(id=uuid.uuid4(), name="Baseball")
        man = Manufacturer(id=uuid.uuid4(), name="Topps")
        s.add_all([seg, man])
        await s.flush()
        for year in ("2022", "2023", "2024"):
            for rname, pars in RELEASES.items():
                rel = Release(id=uuid.uuid4(), segment_id=seg.id, manufacturer_id=man.id, name=f"{year} {rname}", year=year)
                s.add(rel)
                await s.flush()
                base = CardSet(id=uuid.uuid4(), release_id=rel.id, name="Base")
                auto = CardSet(id=uuid.uuid4(), release_id=rel.id, name="Rookie Autographs")
                s.add_all([base, auto])
                await s.flush()
                par_rows = [Parallel(id=uuid.uuid4(), set_id=base.id, name=n, numbered_to=r, sort_order=i)
                            for i, (n, r) in enumerate(pars)]
                s.add_all(par_rows)
                numbers = rng.sample(range(1, 400), len(names))
                for name, num in zip(names, numbers):
                    c = Card(id=uuid.uuid4(), set_id=base.id, release_id=rel.id, name=name, number=str(num))
                    s.add(c)
                    answers.append({"card": c, "year": year, "release": rname, "pars": par_rows})
                for name in rng.sample(names, len(names) // 3):
                    initials = "".join(w[0] for w in name.split()[:2]).upper()
                    s.add(Card(id=uuid.uuid4(), set_id=auto.id, release_id=rel.id, name=name, number=f"RA-{initials}",
                               numbered_to=99))
                await s.flush()
    await engine.dispose()
    return answers


def make_title(rng: random.Random, a: dict) -> tuple[str, tuple]:
    card = a["card"]
    par = rng.choice([None, None, *a["pars"]])
    company, grade = rng.choice(GRADES)
    style = rng.random()
    bits_release = f"{a['year']} {a['release']}"
    parallel = ""
    if par is not None:
        parallel = par.name + (f" /{par.numbered_to}" if par.numbered_to and rng.random() < 0.7 else "")
    number = f"#{card.number}" if rng.random() < 0.85 else card.number
    grade_txt = f"{rng.choice(GRADER_SPELLING[company])} {grade}" if company else ""
    if style < 0.4:
        parts = [bits_release, card.name, number, parallel, grade_txt]
    elif style < 0.7:
        parts = [card.name, bits_release, parallel, number, grade_txt]
    elif style < 0.85:
        parts = [bits_release.lower(), card.name.lower(), parallel.lower(), grade_txt.lower()]  # no number
    else:
        parts = [a["release"], card.name, number, parallel, grade_txt]  # no year
    title = " ".join(p for p in parts if p) + rng.choice(EXTRAS)
    gid = ref.grade_id(company, "Card", grade) if company else None
    return title, (card.id, par.id if par else None, gid)


def distractor(rng: random.Random) -> str:
    return rng.choice([
        f"2024 Topps Chrome Nolan Smithfield #{rng.randint(1, 300)} Refractor",
        f"Lot of {rng.randint(5, 50)} baseball cards stars rookies",
        f"{rng.choice(['2021', '2019'])} Topps Chrome {rng.choice(FIRST)} {rng.choice(LAST)} #{rng.randint(1, 300)}",
        "Mystery pack PSA 10 guaranteed",
    ])


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--titles", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        answers = await build(url, args.players, rng)
        engine = create_engine(url)
        sessions = sessionmaker(engine)
        t0 = time.perf_counter()
        index = await build_index(sessions, Path(tmp) / "search")
        index_s = time.perf_counter() - t0
        matchers = {}
        for label, ix in (("search index", index), ("in memory", None)):
            async with sessions() as s:
                t0 = time.perf_counter()
                matchers[label] = (await TitleMatcher.load(s, ix), time.perf_counter() - t0)
        await engine.dispose()
        cases = [make_title(rng, rng.choice(answers)) for _ in range(args.titles)]
        cases += [(distractor(rng), None) for _ in range(args.titles // 10)]
        print(f"catalog: {len(answers)} base cards ({args.players} players x 5 releases x 3 years), "
              f"titles: {len(cases)}; search index built in {index_s:.1f} s")
        for label, (matcher, load_s) in matchers.items():
            report(label, matcher, load_s, cases)


def report(label: str, matcher: TitleMatcher, load_s: float, cases: list) -> None:
    t0 = time.perf_counter()
    results = [(matcher.match(t), truth, t) for t, truth in cases]
    match_s = time.perf_counter() - t0
    matched = [(m, truth, t) for m, truth, t in results if m is not None]
    correct = [1 for m, truth, _ in matched if truth and (m.card_id, m.parallel_id, m.grade_id) == truth]
    card_right = [1 for m, truth, _ in matched if truth and m.card_id == truth[0]]
    answerable = sum(1 for _, truth in cases if truth)
    wrong = [(t, m) for m, truth, t in matched if not truth or (m.card_id, m.parallel_id, m.grade_id) != truth]
    print(f"[{label}] {answerable} answerable, {len(cases) - answerable} distractors; matched: {len(matched)}  precision (card+parallel+grade): {len(correct) / max(1, len(matched)):.4f} ({len(correct)}/{len(matched)})  "
          f"card-only precision: {len(card_right) / max(1, len(matched)):.3f}  coverage: {len(correct) / answerable:.3f}")
    print(f"[{label}] matcher load: {load_s * 1000:.0f} ms; matching: {len(cases) / match_s:,.0f} titles/s")
    for t, _m in wrong[:5]:
        print("  wrong:", t)


if __name__ == "__main__":
    asyncio.run(main())
