"""Price-record queries and the CardPrice refresh.

Refresh method (documented in README, "Prices"): for each (card, parallel or base, grade or raw)
with records, take the completed sales (``listing_type = auction``) dated within 365 days before
that variant's most recent sale, and store the median of the most recent 10 of them. Variants
with no completed sale fall back to the same rule over fixed-price records. Qualified grades
(PSA 9 OC...) are not the plain grade and are left out. ``price_key`` is ``raw`` or
``<company abbreviation lowercase>-<grade value>``.
"""

from __future__ import annotations

import statistics
import uuid
from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardPrice, CardSet, Grade, GradingCompany, GradingType, Parallel, PriceRecord, Release
from store.queries import textsearch

WINDOW_DAYS = 365
RECENT_SALES = 10


async def card_with_set(*, session: AsyncSession, card_id: uuid.UUID) -> tuple[Card, CardSet, Release] | None:
    stmt = (select(Card, CardSet, Release).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id).where(Card.id == card_id))
    row = (await session.execute(stmt)).first()
    return tuple(row) if row else None  # type: ignore[return-value]


async def cards_with_set(*, session: AsyncSession, card_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, tuple]:
    ids = list(set(card_ids))
    if not ids:
        return {}
    stmt = (select(Card, CardSet, Release).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id).where(Card.id.in_(ids)))
    return {r[0].id: tuple(r) for r in (await session.execute(stmt)).all()}


async def parallel(*, session: AsyncSession, parallel_id: uuid.UUID) -> Parallel | None:
    return await session.get(Parallel, parallel_id)


async def parallel_names(*, session: AsyncSession, ids: Iterable[uuid.UUID | None]) -> dict[uuid.UUID, str]:
    ids = [i for i in set(ids) if i is not None]
    if not ids:
        return {}
    return {r[0]: r[1] for r in (await session.execute(select(Parallel.id, Parallel.name).where(Parallel.id.in_(ids)))).all()}


async def grade_info(*, session: AsyncSession, ids: Iterable[uuid.UUID | None]) -> dict[uuid.UUID, tuple[Grade, GradingCompany]]:
    ids = [i for i in set(ids) if i is not None]
    if not ids:
        return {}
    stmt = (select(Grade, GradingCompany).join(GradingType, GradingType.id == Grade.type_id)
            .join(GradingCompany, GradingCompany.id == GradingType.company_id).where(Grade.id.in_(ids)))
    return {r[0].id: (r[0], r[1]) for r in (await session.execute(stmt)).all()}


def _filters(stmt: Any, model: Any, *, parallel: tuple[bool, uuid.UUID | None], grade: tuple[bool, uuid.UUID | None],
             listing_type: str) -> Any:
    if parallel[0]:
        stmt = stmt.where(model.parallel_id.is_(None) if parallel[1] is None else model.parallel_id == parallel[1])
    if grade[0]:
        stmt = stmt.where(model.grade_id.is_(None) if grade[1] is None else model.grade_id == grade[1])
    if listing_type != "both":
        stmt = stmt.where(model.listing_type == listing_type)
    return stmt


async def records(
    *, session: AsyncSession, card_id: uuid.UUID, parallel: tuple[bool, uuid.UUID | None],
    grade: tuple[bool, uuid.UUID | None], listing_type: str, start: date | None, end: date, limit: int,
) -> tuple[list[PriceRecord], int]:
    """The newest ``limit`` records of a card in [start, end], and how many matched in all."""
    stmt = _filters(select(PriceRecord).where(PriceRecord.card_id == card_id, PriceRecord.date <= end),
                    PriceRecord, parallel=parallel, grade=grade, listing_type=listing_type)
    if start is not None:
        stmt = stmt.where(PriceRecord.date >= start)
    rows = list((await session.scalars(stmt.order_by(PriceRecord.date.desc(), PriceRecord.id).limit(limit + 1))).all())
    return rows[:limit], len(rows)


async def parallel_counts(
    *, session: AsyncSession, card_id: uuid.UUID, grade: tuple[bool, uuid.UUID | None], listing_type: str,
    start: date | None, end: date,
) -> list[tuple[str, int]]:
    """(parallel name, records) of a card's parallels in [start, end]: what a base-card answer leaves out."""
    stmt = _filters(select(Parallel.name, func.count(PriceRecord.id)).join(Parallel, Parallel.id == PriceRecord.parallel_id)
                    .where(PriceRecord.card_id == card_id, PriceRecord.date <= end),
                    PriceRecord, parallel=(False, None), grade=grade, listing_type=listing_type)
    if start is not None:
        stmt = stmt.where(PriceRecord.date >= start)
    rows = (await session.execute(stmt.group_by(Parallel.name).order_by(Parallel.name))).all()
    return [(name, int(n)) for name, n in rows]


async def search(*, session: AsyncSession, q: str, listing_type: str, start: date | None, end: date,
                 limit: int) -> list[PriceRecord]:
    sub = textsearch.ranked(session, PriceRecord, q)
    if sub is None:
        return []
    stmt = select(PriceRecord).join(sub, textsearch.join_on(PriceRecord, sub, session)).where(PriceRecord.date <= end)
    if start is not None:
        stmt = stmt.where(PriceRecord.date >= start)
    if listing_type != "both":
        stmt = stmt.where(PriceRecord.listing_type == listing_type)
    stmt = stmt.order_by(sub.c.score.desc(), PriceRecord.date.desc(), PriceRecord.id).limit(limit)
    return list((await session.scalars(stmt)).all())


def price_key(grade: Grade | None, company: GradingCompany | None) -> str:
    if grade is None or company is None:
        return "raw"
    return f"{company.abbreviation.lower()}-{grade.value.lower().replace(' ', '-')}"


def estimate(rows: list[tuple[date, int, str, bool]]) -> tuple[int, int, date, bool] | None:
    """(value_cents, samples, as_of, synthetic) by the documented method, from (date, cents, type, synthetic)."""
    for kind in ("auction", "fixed"):
        sales = sorted((r for r in rows if r[2] == kind), key=lambda r: r[0], reverse=True)
        if not sales:
            continue
        newest = sales[0][0]
        recent = [r for r in sales if r[0] > newest - timedelta(days=WINDOW_DAYS)][:RECENT_SALES]
        value = int(round(statistics.median(r[1] for r in recent)))
        return value, len(recent), newest, any(r[3] for r in recent)
    return None


async def refresh_prices(*, session: AsyncSession, card_ids: Iterable[uuid.UUID] | None = None) -> int:
    """Recompute ``card_price`` rows (all cards with records, or only ``card_ids``) from ``price_record``."""
    ids = None if card_ids is None else list(set(card_ids))
    stmt = select(PriceRecord.card_id, PriceRecord.parallel_id, PriceRecord.grade_id, PriceRecord.date,
                  PriceRecord.price_cents, PriceRecord.listing_type, PriceRecord.synthetic).where(
        PriceRecord.qualifier.is_(None))
    # only cards that have records are recomputed: prices seeded directly (the demo catalog) stay
    wipe = delete(CardPrice).where(CardPrice.card_id.in_(select(PriceRecord.card_id).distinct()))
    if ids is not None:
        stmt = stmt.where(PriceRecord.card_id.in_(ids))
        wipe = wipe.where(CardPrice.card_id.in_(ids))
    groups: dict[tuple, list] = defaultdict(list)
    for card_id, par, grade, d, cents, kind, synth in (await session.execute(stmt)).all():
        groups[(card_id, par, grade)].append((d, cents, kind, bool(synth)))
    info = await grade_info(session=session, ids={k[2] for k in groups})
    await session.execute(wipe)
    n = 0
    for (card_id, par, grade_id), rows in groups.items():
        est = estimate(rows)
        if est is None:
            continue
        g, c = info.get(grade_id, (None, None)) if grade_id else (None, None)
        if grade_id is not None and g is None:
            continue
        session.add(CardPrice(id=uuid.uuid4(), card_id=card_id, parallel_id=par, grade_id=grade_id,
                              price_key=price_key(g, c), value_cents=est[0], sample_count=est[1], as_of=est[2],
                              synthetic=est[3]))
        n += 1
    await session.flush()
    return n
