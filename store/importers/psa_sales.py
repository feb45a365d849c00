"""``cardwise import psa-sales DIR|URL``: real sales of PSA-graded cards (the psa-prizes CSV files).

One CSV per card; the file name names the card (``1999-pokemon-game-charizard-holo.csv``,
``pokemon-game-charizard-holo-1st-edition.csv``, ``2002-pokemon-neo-destiny-shining-celebi.csv``).
Each file is mapped to a catalog card of the TCGdex import by card name + set name (release or
set, e.g. "Base Set", "Neo Destiny"; the number breaks ties) and to the parallel named in the
file (1st Edition, Shadowless; unlimited = the base card). Rows: grade (+ qualifier such as OC)
-> PSA "Card" grade; ``sale_type`` Auction -> ``auction`` (a completed sale), Best Offer / Buy
It Now -> ``fixed``; source = auction house; external_id = PSA lot id (idempotent re-import).
Files whose card is not in the catalog (demo cards never count) are skipped, and so are rows
without a grade, price or date: the summary lists each (file, row, reason). CardPrice rows are
refreshed.

Each row's ``lot_url`` names the PSA auction-prices page it was scraped from
(``tcg-cards/1999-pokemon-game/charizard-holo/...``); when present it decides the card and
parallel, and the file name is the fallback. This matters: ``pokemon-game-charizard-holo-1st-
edition.csv`` holds only rows of the unlimited ``charizard-holo`` page (554 of its 562 rows are
byte-identical to the unlimited file's), so they are unlimited sales, not 1st Edition ones. A
lot already imported (same lot id) is counted once.
"""

from __future__ import annotations

import csv
import logging
import re
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._bulk import upsert
from store.importers._fetch import fetched
from store.importers._skips import Skips
from store.importers.grades import load as load_grades
from store.models import Card, CardSet, Parallel, PriceRecord, Release
from store.queries.pricing import refresh_prices
from store.reference import grades as ref

NAME = "psa-sales"
HELP = ("real PSA-graded sales (psa-prizes CSV folder, one CSV, or an https URL of either or of an archive) as price "
        "records of TCGdex catalog cards")
NEEDS_SOURCE = True

log = logging.getLogger("cardwise.market")
NS = uuid.uuid5(uuid.NAMESPACE_URL, "https://cardwise.invalid/price-record")

# file-name product -> (set names to match, card numbers known for the well-known cards)
PRODUCTS = {"pokemon-game": ("Base Set",), "pokemon-neo-destiny": ("Neo Destiny",),
            "magic-gathering-unlimited": ("Unlimited Edition", "Unlimited")}
KNOWN_NUMBERS = {("Base Set", "charizard"): "4", ("Neo Destiny", "shining charizard"): "107"}
PARALLEL_WORDS = {"1st-edition": ("1st edition", "first edition"), "shadowless": ("shadowless",)}


def parse_name(stem: str) -> dict[str, Any] | None:
    """``1999-pokemon-game-charizard-holo-1st-edition`` -> product, set names, card name, parallel, year."""
    m = re.match(r"^(?:(\d{4})-)?(.*)$", stem)
    year, rest = m.group(1), m.group(2)
    parallel = None
    for key in PARALLEL_WORDS:
        if rest.endswith("-" + key):
            parallel, rest = key, rest[: -len(key) - 1]
    for product, set_names in PRODUCTS.items():
        if rest.startswith(product + "-"):
            words = rest[len(product) + 1:].split("-")
            if words and words[-1] == "holo":
                words = words[:-1]
            return {"year": year, "sets": set_names, "name": " ".join(words), "parallel": parallel,
                    "title": " ".join(w.capitalize() if not w[0].isdigit() else w for w in stem.split("-"))}
    return None


async def find_card(s: AsyncSession, info: dict[str, Any]) -> Card | None:
    names = [n.lower() for n in info["sets"]]
    stmt = (select(Card).join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
            .where(func.lower(Card.name) == info["name"], Card.variation_of.is_(None), Card.demo.is_(False),
                   or_(func.lower(CardSet.name).in_(names), func.lower(Release.name).in_(names))))
    cards = list((await s.scalars(stmt)).all())
    number = next((KNOWN_NUMBERS[(n, info["name"])] for n in info["sets"] if (n, info["name"]) in KNOWN_NUMBERS), None)
    if number and len(cards) > 1:
        cards = [c for c in cards if c.number == number] or cards
    return cards[0] if len(cards) == 1 else None


async def find_parallel(s: AsyncSession, card: Card, key: str | None) -> tuple[bool, uuid.UUID | None]:
    if key is None:
        return True, None
    pars = (await s.scalars(select(Parallel).where(Parallel.set_id == card.set_id))).all()
    words = PARALLEL_WORDS[key]
    hits = sorted((p for p in pars if any(w in p.name.lower() for w in words)), key=lambda p: len(p.name))
    return (True, hits[0].id) if hits else (False, None)


def grade_of(value: str) -> str | None:
    value = value.strip()
    if not value:
        return None
    if value.lower().startswith("auth"):
        return "Authentic"
    try:
        f = float(value)
    except ValueError:
        return None
    return str(int(f)) if f == int(f) else str(f)


def _missing(info: dict[str, Any] | None) -> str:
    if info is None:
        return "the file name names no product this importer knows (" + ", ".join(PRODUCTS) + ")"
    what = f"no catalog card {info['name']!r} in {' / '.join(info['sets'])}"
    return what + (f" with a {info['parallel']} parallel" if info["parallel"] else "")


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None, *, progress: Any = None) -> dict[str, Any]:
    async with fetched(str(source), holds=lambda p: any(p.glob("*.csv"))) as root:
        return await _run(sessions, root, progress)


async def _run(sessions: async_sessionmaker[AsyncSession], root: Path, progress: Any) -> dict[str, Any]:
    files = [root] if root.is_file() else sorted(root.glob("*.csv"))
    counts: dict[str, Any] = {"files": len(files), "matched_files": 0, "records": 0, "skipped_rows": 0,
                              "unmatched_files": 0, "unmatched_rows": 0, "prices": 0, "duplicate_rows": 0}
    skips = Skips(log, NAME)
    bar = progress("psa-sales", len(files)) if progress else None
    touched: set[uuid.UUID] = set()
    resolved: dict[str, tuple[Any, Any, Any]] = {}
    seen: dict[str, str] = {}  # external id -> the file it was first read from (ids are unique per run)
    records: list[dict[str, Any]] = []

    async def resolve(stem: str) -> tuple[Any, Any, Any]:
        if stem not in resolved:
            info = parse_name(stem)
            card = await find_card(s, info) if info else None
            ok, parallel_id = await find_parallel(s, card, info["parallel"]) if card else (False, None)
            resolved[stem] = (info, card if ok else None, parallel_id)
        return resolved[stem]

    async with sessions() as s, s.begin():
        await load_grades(s)
        for path in files:
            file_info, file_card, _ = await resolve(path.stem)
            if bar:
                bar.advance()
            if file_card is None:
                with path.open(newline="") as fh:
                    rows = sum(1 for _ in csv.DictReader(fh))
                skips.add(path, None, f"{_missing(file_info)}: its {rows} sales are left out")
                counts["unmatched_files"] += 1
                counts["unmatched_rows"] += rows
                continue
            counts["matched_files"] += 1
            repeats: dict[str, int] = {}
            with path.open(newline="") as fh:
                for i, row in enumerate(csv.DictReader(fh), start=2):
                    page = re.search(r"tcg-cards/([^/]+)/([^/]+)/auction/", row.get("lot_url") or "")
                    info, card, parallel_id = await resolve(f"{page.group(1)}-{page.group(2)}") if page else \
                        await resolve(path.stem)
                    if card is None:
                        info, card, parallel_id = await resolve(path.stem)
                    try:
                        grade = grade_of(row.get("grade") or "")
                        if grade is None:
                            raise ValueError(f"no PSA grade ({row.get('grade')!r})")
                        qualifier = (row.get("qualifier") or "").strip(" ()").upper() or None
                        cents = int(round(float(row["prize"]) * 100))
                        day = datetime.strptime(row["date"].strip(), "%m/%d/%Y").date()
                    except (KeyError, ValueError) as exc:
                        skips.add(path, i, str(exc))
                        counts["skipped_rows"] += 1
                        continue
                    lot = (row.get("lot_url") or "").rstrip("/").rsplit("/", 1)[-1]
                    ext = f"psa:{lot}" if lot.isdigit() else f"psa:{row.get('psa_certification')}:{day}:{cents}"
                    if ext in seen:
                        counts["duplicate_rows"] += 1
                        repeats[seen[ext]] = repeats.get(seen[ext], 0) + 1
                        continue
                    seen[ext] = path.name
                    touched.add(card.id)
                    title = f"{info['title']} PSA {grade}" + (f" {qualifier}" if qualifier else "")
                    records.append(dict(
                        id=uuid.uuid5(NS, ext), card_id=card.id, parallel_id=parallel_id,
                        grade_id=ref.grade_id("PSA", "Card", grade), qualifier=qualifier, title=title,
                        price_cents=cents, date=day,
                        listing_type="auction" if (row.get("sale_type") or "").lower() == "auction" else "fixed",
                        source=(row.get("auction_house") or "unknown").strip(), url=row.get("lot_url") or None,
                        image_url=row.get("img_url") or None, external_id=ext, synthetic=False))
                    counts["records"] += 1
            for other, n in repeats.items():
                skips.add(path, None, f"{n} rows repeat lots already read from {other} (each lot counted once)")
        await upsert(s, PriceRecord, records)  # one statement (a merge per row took most of the import)
        counts["prices"] = await refresh_prices(session=s, card_ids=touched)
    if bar:
        bar.close()
    return {**counts, **skips.summary()}
