"""``cardwise import listings-synthetic [N]``: SYNTHETIC active marketplace listings for N sports cards (default 200).

No public feed of active listings is available offline. This seeded generator (seed 11) writes
auctions (with bid counts and end dates in the next 10 days) and fixed-price listings for base
cards outside Pokemon/TCG and their parallels, raw and graded, with seller-style titles. The
titles go through the real title matcher to link card, parallel and grade (the generator's own
answer is not used), and every row has ``synthetic = True`` and a source ending "(synthetic)".
"""

from __future__ import annotations

import random
import zlib
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._synthetic_market import CONDITIONS, base_value, parallel_factor, sports_cards, title
from store.importers.grades import load as load_grades
from store.importers.listings import store_listings
from store.matching import TitleMatcher
from store.search import open_current

NAME = "listings-synthetic"
HELP = "SYNTHETIC active marketplace listings (seeded, marked synthetic); SOURCE = number of cards, default 200"
NEEDS_SOURCE = False
SEED = 11
EXTRAS = ["", " RC", " 🔥", " Rookie", " HOT", " Invest", " Mint", " Sharp"]


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None,
              search_root: Path | None = None) -> dict[str, int]:
    """``search_root``: the catalog search index's folder: the title matcher asks it for candidates."""
    rng = random.Random(SEED)
    index = await open_current(sessions, search_root) if search_root is not None else None
    now = datetime.now(timezone.utc)
    rows = []
    async with sessions() as s, s.begin():
        await load_grades(s)
        for card, _cset, rel, pars in await sports_cards(s, int(source) if source else 200):
            value = base_value(rng)
            for p in pars[:3]:
                for company, grade, mult in rng.sample(CONDITIONS, 3):
                    kind = "auction" if rng.random() < 0.5 else "fixed"
                    ext = f"synthetic-listing:{card.id}:{p.id if p else 'base'}:{company}:{grade}"
                    rows.append({
                        "title": title(card, rel, p, company, grade) + rng.choice(EXTRAS),
                        "source": rng.choice(["eBay (synthetic)", "COMC (synthetic)", "MySlabs (synthetic)"]),
                        "price": round(value * parallel_factor(p) * mult * rng.lognormvariate(0, 0.2), 2),
                        "listing_type": kind, "url": f"https://example.invalid/listing/{zlib.crc32(ext.encode())}",
                        "condition": "Graded" if company else rng.choice(["Near Mint or better", "Excellent", "Ungraded"]),
                        "end_date": (now + timedelta(hours=rng.randint(2, 240))).isoformat() if kind == "auction" else None,
                        "bid_count": rng.randint(0, 30) if kind == "auction" else None, "external_id": ext})
        counts = await store_listings(s, rows, synthetic=True, matcher=await TitleMatcher.load(s, index))
    counts["synthetic"] = 1
    return counts
