"""``cardwise import prices-synthetic [N]``: SYNTHETIC sports-card price history for N cards (default 200).

No public sports-card price history exists. This seeded generator (seed 7) writes a year of
completed auction sales and fixed-price asks ending today for base cards outside Pokemon/TCG,
raw and graded (PSA 10/9/8, BGS 9.5, SGC 10), for the base card and its parallels (numbered
parallels priced higher). Every row has ``synthetic = True`` and source "eBay (synthetic)";
card prices are refreshed afterwards (and marked synthetic).
"""

from __future__ import annotations

import random
import uuid
from datetime import date, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._bulk import upsert
from store.importers._synthetic_market import CONDITIONS, base_value, grade_id, parallel_factor, sports_cards, title
from store.importers.grades import load as load_grades
from store.models import PriceRecord
from store.queries.pricing import refresh_prices

NAME = "prices-synthetic"
HELP = "SYNTHETIC sports-card price history (seeded, marked synthetic); SOURCE = number of cards, default 200"
NEEDS_SOURCE = False
SEED = 7
NS = uuid.uuid5(uuid.NAMESPACE_URL, "https://cardwise.invalid/synthetic-price")


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None,
              today: date | None = None) -> dict[str, int]:
    rng = random.Random(SEED)
    today = today or date.today()
    counts = {"cards": 0, "records": 0, "prices": 0, "synthetic": 1}
    async with sessions() as s, s.begin():
        await load_grades(s)
        cards = await sports_cards(s, int(source) if source else 200)
        rows: dict[uuid.UUID, dict[str, Any]] = {}  # id -> the record (one statement for all: a merge per row took seconds)
        for card, _cset, rel, pars in cards:
            value = base_value(rng)
            for p in pars[:4]:
                for company, grade, mult in CONDITIONS:
                    price = value * parallel_factor(p) * mult
                    n = rng.randint(2, 12)
                    for i in range(n):
                        day = today - timedelta(days=rng.randint(0, 364))
                        kind = "auction" if rng.random() < 0.65 else "fixed"
                        cents = int(price * rng.lognormvariate(0, 0.18) * (1.15 if kind == "fixed" else 1) * 100)
                        ext = f"synthetic:{card.id}:{p.id if p else 'base'}:{company}:{grade}:{i}"
                        rows[uuid.uuid5(NS, ext)] = dict(
                            card_id=card.id, parallel_id=p.id if p else None,
                            grade_id=grade_id(company, grade), title=title(card, rel, p, company, grade),
                            price_cents=max(cents, 25), date=day, listing_type=kind, source="eBay (synthetic)",
                            external_id=ext, synthetic=True)
                        counts["records"] += 1
            counts["cards"] += 1
        await upsert(s, PriceRecord, [{"id": i, **row} for i, row in rows.items()])
        counts["prices"] = await refresh_prices(session=s)
    return counts
