"""Shared pieces of the SYNTHETIC sports price and listing generators (seeded, marked synthetic)."""

from __future__ import annotations

import math
import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardSet, Parallel, ParallelCard, Release, Segment
from store.reference import grades as ref

# (company, grade value, price multiplier over raw); None = raw
CONDITIONS: list[tuple[str | None, str | None, float]] = [
    (None, None, 1.0), ("PSA", "10", 4.0), ("PSA", "9", 1.8), ("PSA", "8", 1.2), ("BGS", "9.5", 2.5), ("SGC", "10", 2.8)]


async def sports_cards(s: AsyncSession, n: int) -> list[tuple[Card, CardSet, Release, list[Parallel | None]]]:
    """Up to ``n`` base cards outside the Pokemon/TCG segments, each with its applicable parallels."""
    stmt = (select(Card, CardSet, Release).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id).join(Segment, Segment.id == Release.segment_id)
            .where(Card.variation_of.is_(None), Segment.name.notin_(["Pokemon", "Pokémon", "Magic: The Gathering"]))
            .order_by(Card.id).limit(n))
    rows = (await s.execute(stmt)).all()
    set_ids = {r[1].id for r in rows}
    pars: dict[Any, list[Parallel]] = {}
    if set_ids:
        for p in (await s.scalars(select(Parallel).where(Parallel.set_id.in_(set_ids)))).all():
            pars.setdefault(p.set_id, []).append(p)
    partial = {(a, b) for a, b in (await s.execute(select(ParallelCard.parallel_id, ParallelCard.card_id))).all()}
    out = []
    for card, cset, rel in rows:
        applicable = [p for p in pars.get(cset.id, []) if not p.is_partial or (p.id, card.id) in partial]
        out.append((card, cset, rel, [None, *applicable]))
    return out


def base_value(rng: random.Random) -> float:
    return max(0.5, math.exp(rng.gauss(math.log(8), 1.1)))


def parallel_factor(p: Parallel | None) -> float:
    if p is None:
        return 1.0
    if p.numbered_to:
        return max(2.0, 60 / math.sqrt(p.numbered_to))
    return 1.6


def title(card: Card, rel: Release, p: Parallel | None, company: str | None, grade: str | None) -> str:
    parts = [rel.name if (rel.year and rel.name.startswith(rel.year)) else f"{rel.year or ''} {rel.name}".strip(),
             card.name]
    if card.number:
        parts.append(f"#{card.number}")
    if p is not None:
        parts.append(p.name + (f" /{p.numbered_to}" if p.numbered_to else ""))
    if company:
        parts.append(f"{company} {grade}")
    return " ".join(parts)


def grade_id(company: str | None, grade: str | None) -> Any:
    return None if company is None else ref.grade_id(company, "Card", grade or "")
