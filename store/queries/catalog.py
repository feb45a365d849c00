"""Catalog queries (segments and catalog-wide statistics; the catalog issue extends this)."""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import and_, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardSet, Manufacturer, Parallel, Release, Segment
from store.queries._util import icontains, page


def segment_identifiable():
    return exists().where(
        and_(Release.segment_id == Segment.id, CardSet.release_id == Release.id, CardSet.is_identifiable.is_(True))
    )


async def search_segments(
    *, session: AsyncSession, name: str | None, identifiable: bool | None,
    order: Literal["asc", "desc"], skip: int, take: int,
) -> tuple[list[Any], int]:
    ident = segment_identifiable().label("is_identifiable")
    stmt = select(Segment, ident)
    if name:
        stmt = stmt.where(icontains(Segment.name, name))
    if identifiable is not None:
        stmt = stmt.where(segment_identifiable() if identifiable else ~segment_identifiable())
    col = func.lower(Segment.name)
    stmt = stmt.order_by(col.desc() if order == "desc" else col.asc(), Segment.id)
    return await page(session, stmt, skip=skip, take=take)


async def statistics(*, session: AsyncSession) -> dict[str, Any]:
    seg_rows = (await session.execute(
        select(Segment.id, Segment.name, func.count(Release.id))
        .outerjoin(Release, Release.segment_id == Segment.id).group_by(Segment.id, Segment.name).order_by(Segment.name)
    )).all()
    man_rows = (await session.execute(
        select(Manufacturer.id, Manufacturer.name, func.count(Release.id))
        .outerjoin(Release, Release.manufacturer_id == Manufacturer.id)
        .group_by(Manufacturer.id, Manufacturer.name).order_by(Manufacturer.name)
    )).all()
    by_year = (await session.execute(
        select(Segment.name, Release.year, func.count(Release.id))
        .join(Release, Release.segment_id == Segment.id).group_by(Segment.name, Release.year)
        .order_by(Segment.name, Release.year)
    )).all()
    sets_total, sets_ident = (await session.execute(
        select(func.count(CardSet.id), func.coalesce(func.sum(func.cast(CardSet.is_identifiable, _int())), 0))
    )).one()
    cards_total, variations = (await session.execute(
        select(func.count(Card.id), func.count(Card.variation_of))
    )).one()
    par_total, par_partial = (await session.execute(
        select(func.count(Parallel.id), func.coalesce(func.sum(func.cast(Parallel.is_partial, _int())), 0))
    )).one()
    return {
        "segments": seg_rows,
        "manufacturers": man_rows,
        "releases_by_year": by_year,
        "sets_total": int(sets_total),
        "sets_identifiable": int(sets_ident),
        "cards_total": int(cards_total),
        "cards_variations": int(variations),
        "parallels_total": int(par_total),
        "parallels_partial": int(par_partial),
    }


def _int():
    from sqlalchemy import Integer

    return Integer
