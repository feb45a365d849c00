"""Shared pieces of the SYNTHETIC population, sports price and listing generators (seeded, marked synthetic).

Which cards get synthetic data: ``pick_cards`` takes the first N base cards in id order (ids are
uuid5 of natural keys, so a stable spread across the catalog that the eval facts rely on) from the
real catalog, or from the demo when the catalog holds no real card of that kind, never a mix (the
demo's synthetic data stays on the demo and goes with ``cardwise demo remove``).
"""

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


GAMES = ["Pokemon", "Pokémon", "Magic: The Gathering"]


async def pick_cards(s: AsyncSession, n: int, *, sports_only: bool) -> list[Any]:
    """Ids of the first ``n`` base cards (sports only, or any) in id order: real cards when the catalog has
    any of that kind, otherwise the demo's."""
    stmt = select(Card.id).where(Card.variation_of.is_(None))
    if sports_only:
        stmt = (stmt.join(Release, Release.id == Card.release_id).join(Segment, Segment.id == Release.segment_id)
                .where(Segment.name.notin_(GAMES)))
    for demo in (False, True):
        ids = list((await s.scalars(stmt.where(Card.demo.is_(demo)).order_by(Card.id).limit(n))).all())
        if ids:
            return ids
    return []


async def sports_cards(s: AsyncSession, n: int) -> list[tuple[Card, CardSet, Release, list[Parallel | None]]]:
    """``n`` base cards outside the Pokemon/TCG segments (``pick_cards``), each with its applicable parallels."""
    ids = await pick_cards(s, n, sports_only=True)
    stmt = (select(Card, CardSet, Release).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id).where(Card.id.in_(ids)).order_by(Card.id))
    rows = (await s.execute(stmt)).all() if ids else []
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
