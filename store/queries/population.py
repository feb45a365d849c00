"""Population report queries: counts per card (or parallel) x grade, company structure, set links."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Card,
    CardSet,
    Grade,
    GradingCompany,
    GradingType,
    Parallel,
    PopulationCount,
    PopulationSetLink,
    PopulationSync,
    Release,
)


async def card(*, session: AsyncSession, card_id: uuid.UUID) -> Card | None:
    return await session.get(Card, card_id)


async def card_set(*, session: AsyncSession, set_id: uuid.UUID) -> CardSet | None:
    return await session.get(CardSet, set_id)


async def release(*, session: AsyncSession, release_id: uuid.UUID) -> Release | None:
    return await session.get(Release, release_id)


async def counts(
    *, session: AsyncSession, card_ids: Iterable[uuid.UUID] | None = None, set_ids: Iterable[uuid.UUID] | None = None,
    company_id: uuid.UUID | None = None,
) -> list[tuple[Any, ...]]:
    """Summed counts as rows ``(set_id, parallel_id, company_id, grade_id, population, qualified)``.

    Filtered to ``card_ids`` or to the cards of ``set_ids``; base counts have ``parallel_id`` None.
    """
    stmt = (
        select(Card.set_id, PopulationCount.parallel_id, GradingType.company_id, PopulationCount.grade_id,
               func.sum(PopulationCount.population), func.sum(PopulationCount.qualified_population))
        .join(Card, Card.id == PopulationCount.card_id)
        .join(Grade, Grade.id == PopulationCount.grade_id)
        .join(GradingType, GradingType.id == Grade.type_id)
        .group_by(Card.set_id, PopulationCount.parallel_id, GradingType.company_id, PopulationCount.grade_id)
    )
    if card_ids is not None:
        stmt = stmt.where(PopulationCount.card_id.in_(list(card_ids)))
    if set_ids is not None:
        stmt = stmt.where(Card.set_id.in_(list(set_ids)))
    if company_id is not None:
        stmt = stmt.where(GradingType.company_id == company_id)
    return [tuple(r) for r in (await session.execute(stmt)).all()]


async def company_structure(
    *, session: AsyncSession, company_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, tuple[GradingCompany, list[tuple[GradingType, list[Grade]]]]]:
    """Each company with its grading types and every grade of each type, in reference order."""
    ids = list(set(company_ids))
    if not ids:
        return {}
    companies = (await session.scalars(select(GradingCompany).where(GradingCompany.id.in_(ids)))).all()
    types = (await session.scalars(select(GradingType).where(GradingType.company_id.in_(ids))
                                   .order_by(GradingType.sort_order, GradingType.name))).all()
    grades = (await session.scalars(select(Grade).where(Grade.type_id.in_([t.id for t in types]))
                                    .order_by(Grade.sort_order))).all() if types else []
    by_type: dict[uuid.UUID, list[Grade]] = {}
    for g in grades:
        by_type.setdefault(g.type_id, []).append(g)
    out: dict[uuid.UUID, tuple[GradingCompany, list[tuple[GradingType, list[Grade]]]]] = {
        c.id: (c, []) for c in companies
    }
    for t in types:
        out[t.company_id][1].append((t, by_type.get(t.id, [])))
    return out


async def sync_times(*, session: AsyncSession) -> dict[uuid.UUID, tuple[datetime, bool]]:
    """company id -> (last_synced_at, synthetic)."""
    stmt = select(PopulationSync.company_id, PopulationSync.last_synced_at, PopulationSync.synthetic)
    return {r[0]: (r[1], bool(r[2])) for r in (await session.execute(stmt)).all()}


async def confirmed_links(
    *, session: AsyncSession, set_ids: Iterable[uuid.UUID], company_id: uuid.UUID | None = None
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """``(set_id, company_id)`` pairs with a confirmed link."""
    stmt = select(PopulationSetLink.set_id, PopulationSetLink.company_id).where(
        and_(PopulationSetLink.set_id.in_(list(set_ids)), PopulationSetLink.confirmed.is_(True)))
    if company_id is not None:
        stmt = stmt.where(PopulationSetLink.company_id == company_id)
    return [(r[0], r[1]) for r in (await session.execute(stmt)).all()]


async def parallels(*, session: AsyncSession, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Parallel]:
    ids = [i for i in ids if i is not None]
    if not ids:
        return {}
    rows = (await session.scalars(select(Parallel).where(Parallel.id.in_(ids)))).all()
    return {p.id: p for p in rows}


async def sets_of_release(*, session: AsyncSession, release_id: uuid.UUID) -> list[CardSet]:
    stmt = select(CardSet).where(CardSet.release_id == release_id).order_by(CardSet.name)
    return list((await session.scalars(stmt)).all())
