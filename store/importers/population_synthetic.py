"""``cardwise import population-synthetic [N]``: SYNTHETIC graded populations for N cards (default 500).

The N cards are the first N real base cards by id (the demo's only when nothing real is loaded:
``_synthetic_market.pick_cards``).

No public population data exists. This seeded generator (seed 5) writes plausible counts and
marks every row ``synthetic = True`` (and the companies' sync rows), so nobody mistakes them for
real reports:

- a card's total graded population is log-normal (median ~60); numbered parallels get at most
  their print run and unlimited parallels a fraction of the base (rarer = smaller);
- the grade distribution is bell-shaped around 8-9 with a thin gem-mint tail: there are more
  low grades (1-7) than 10s; about 3% of PSA copies carry a qualifier;
- companies: PSA (all cards), BGS (~60%), SGC (~40%); each touched set gets a confirmed link.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._synthetic_market import pick_cards
from store.importers.grades import load as load_grades
from store.importers._bulk import upsert
from store.importers.population import count_id, mark_synced, upsert_link
from store.models import Card, CardSet, Parallel, ParallelCard, PopulationCount
from store.reference import grades as ref

NAME = "population-synthetic"
HELP = "SYNTHETIC graded population counts (seeded, marked synthetic); SOURCE = number of cards, default 500"
NEEDS_SOURCE = False
SEED = 5

# grade value -> relative weight (PSA card scale); gem mint is a thin tail
WEIGHTS = {"10": 4, "9": 22, "8.5": 3, "8": 20, "7.5": 2, "7": 14, "6.5": 1, "6": 10, "5.5": 1, "5": 7,
           "4.5": 0.5, "4": 5, "3.5": 0.5, "3": 3, "2.5": 0.3, "2": 2, "1.5": 0.5, "1": 2}
BGS_WEIGHTS = {"10": 1, "9.5": 12, "9": 25, "8.5": 18, "8": 14, "7.5": 8, "7": 7, "6": 5, "5": 4, "4": 3,
               "3": 2, "2": 1, "1": 1}
COMPANIES = (("PSA", 1.0, 1.0, WEIGHTS), ("BGS", 0.6, 0.35, BGS_WEIGHTS), ("SGC", 0.4, 0.2, WEIGHTS))


def split(rng: random.Random, total: int, weights: dict[str, float]) -> dict[str, int]:
    keys = list(weights)
    draws = rng.choices(keys, weights=[weights[k] for k in keys], k=total)
    out: dict[str, int] = {}
    for k in draws:
        out[k] = out.get(k, 0) + 1
    return out


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None) -> dict[str, int]:
    n = int(source) if source else 500
    rng = random.Random(SEED)
    counts = {"cards": 0, "counts": 0, "links": 0}
    async with sessions() as s, s.begin():
        await load_grades(s)
        ids = await pick_cards(s, n, sports_only=False)
        cards = list((await s.scalars(select(Card).where(Card.id.in_(ids)).order_by(Card.id))).all()) if ids else []
        set_ids = {c.set_id for c in cards}
        pars: dict[Any, list[Parallel]] = {}
        for p in (await s.scalars(select(Parallel).where(Parallel.set_id.in_(set_ids)))).all() if set_ids else []:
            pars.setdefault(p.set_id, []).append(p)
        partial = {(r[0], r[1]) for r in (await s.execute(select(ParallelCard.parallel_id, ParallelCard.card_id))).all()}
        bar = progress("population-synthetic", len(cards)) if progress else None
        touched: set[tuple[str, Any]] = set()
        rows: dict[Any, dict[str, Any]] = {}  # id -> the count row (one statement for all: a merge per row took seconds)
        for card in cards:
            base_total = max(1, int(math.exp(rng.gauss(math.log(60), 1.0))))
            variants: list[tuple[Any, int]] = [(None, base_total)]
            for rank, p in enumerate(sorted(pars.get(card.set_id, []), key=lambda p: -(p.numbered_to or 10**6))):
                if p.is_partial and (p.id, card.id) not in partial:
                    continue
                cap = p.numbered_to or base_total
                pop = int(min(cap * rng.uniform(0.2, 0.6), base_total / (2 + rank)))
                if pop > 0:
                    variants.append((p.id, pop))
            for abbr, share, size, weights in COMPANIES:
                if rng.random() > share:
                    continue
                for par_id, total in variants:
                    graded = max(0, int(total * size))
                    for value, pop in split(rng, graded, weights).items():
                        qual = sum(1 for _ in range(pop) if rng.random() < 0.03) if abbr == "PSA" and value != "10" else 0
                        grade = ref.grade_id(abbr, "Card", value)
                        rows[count_id(card.id, par_id, grade)] = {
                            "card_id": card.id, "parallel_id": par_id, "grade_id": grade, "population": pop - qual,
                            "qualified_population": qual, "synthetic": True}
                        counts["counts"] += 1
                touched.add((abbr, card.set_id))
            counts["cards"] += 1
            if bar:
                bar.advance()
        await upsert(s, PopulationCount, [{"id": i, **row} for i, row in rows.items()])
        names = {cs.id: cs.name for cs in (await s.scalars(select(CardSet).where(CardSet.id.in_(set_ids)))).all()} if set_ids else {}
        for abbr, set_id in touched:
            await upsert_link(s, ref.company_id(abbr), set_id, f"{names.get(set_id, '')} (synthetic)", True)
            counts["links"] += 1
        for abbr in {a for a, _ in touched}:
            await mark_synced(s, ref.company_id(abbr), datetime.now(timezone.utc), synthetic=True)
        if bar:
            bar.close()
    counts["synthetic"] = 1
    return counts
