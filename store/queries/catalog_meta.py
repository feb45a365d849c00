"""Manufacturer, parallel, attribute and metadata-field queries; autocomplete; release calendar; images."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Attribute, Card, CardAttribute, CardImage, CardSet, FieldValue, Manufacturer, MetadataField, Parallel,
    ParallelCard, Release, Segment,
)
from store.queries._util import icontains, page
from store.queries.catalog_filters import dialect_of, manufacturer_cond, name_match, segment_cond, year_conds


def _dir(col: Any, order: str) -> Any:
    return col.desc() if order == "desc" else col.asc()


async def search_manufacturers(*, session: AsyncSession, name: str | None, order: str, skip: int,
                               take: int) -> tuple[list[Any], int]:
    stmt = select(Manufacturer)
    if name:
        stmt = stmt.where(icontains(Manufacturer.name, name))
    return await page(session, stmt.order_by(_dir(func.lower(Manufacturer.name), order), Manufacturer.id),
                      skip=skip, take=take)


def parallel_card_count():
    linked = select(func.count()).where(ParallelCard.parallel_id == Parallel.id).correlate(Parallel).scalar_subquery()
    whole = (select(func.count(Card.id)).where(Card.set_id == Parallel.set_id, Card.variation_of.is_(None))
             .correlate(Parallel).scalar_subquery())
    return case((Parallel.is_partial.is_(True), linked), else_=whole)


PAR_COLS = (Parallel, CardSet.name.label("set_name"), Release.id.label("release_id"),
            Release.name.label("release_name"), Release.year.label("release_year"))


def _par_select(with_count: bool = True):
    cols = PAR_COLS + ((parallel_card_count().label("card_count"),) if with_count else ())
    return select(*cols).join(CardSet, CardSet.id == Parallel.set_id).join(Release, Release.id == CardSet.release_id)


async def search_parallels(*, session: AsyncSession, name: str | None, release_id: str | None,
                           release_name: str | None, year: str | None, min_year: str | None, max_year: str | None,
                           sort: str | None, order: str, skip: int, take: int) -> tuple[list[Any], int]:
    d = dialect_of(session)
    conds = year_conds(year, min_year, max_year)
    if name:
        conds.append(name_match(Parallel.name, name, d))
    if release_id:
        conds.append(Release.id == uuid.UUID(release_id))
    if release_name:
        conds.append(name_match(Release.name, release_name, d))
    col = {"name": func.lower(Parallel.name), "release": func.lower(Release.name), "set": func.lower(CardSet.name),
           "year": Release.year}[sort or "name"]
    stmt = _par_select().where(*conds).order_by(_dir(col, order), Parallel.sort_order, Parallel.id)
    return await page(session, stmt, skip=skip, take=take)


async def parallel_row(*, session: AsyncSession, parallel_id: uuid.UUID) -> tuple[Any, list[uuid.UUID]] | None:
    row = (await session.execute(_par_select().where(Parallel.id == parallel_id))).first()
    if row is None:
        return None
    cards = []
    if row[0].is_partial:
        cards = [c for (c,) in (await session.execute(
            select(ParallelCard.card_id).where(ParallelCard.parallel_id == parallel_id))).all()]
    return row, sorted(cards, key=str)


def _attr_count():
    return (select(func.count()).where(CardAttribute.attribute_id == Attribute.id).correlate(Attribute)
            .scalar_subquery())


async def search_attributes(*, session: AsyncSession, name: str | None, short_name: str | None, sort: str | None,
                            order: str, skip: int, take: int) -> tuple[list[Any], int]:
    stmt = select(Attribute, _attr_count().label("card_count"))
    if name:
        stmt = stmt.where(icontains(Attribute.name, name))
    if short_name:
        stmt = stmt.where(icontains(Attribute.short_name, short_name))
    col = {"name": func.lower(Attribute.name), "shortName": Attribute.short_name,
           "cardCount": _attr_count()}[sort or "name"]
    return await page(session, stmt.order_by(_dir(col, order), Attribute.id), skip=skip, take=take)


async def attribute_row(*, session: AsyncSession, attribute_id: uuid.UUID) -> Any | None:
    return (await session.execute(select(Attribute, _attr_count().label("card_count"))
                                  .where(Attribute.id == attribute_id))).first()


def _usage():
    return select(func.count(FieldValue.id)).where(FieldValue.field_id == MetadataField.id).correlate(
        MetadataField).scalar_subquery()


async def search_fields(*, session: AsyncSession, name: str | None, key: str | None, sort: str | None, order: str,
                        skip: int, take: int) -> tuple[list[Any], int]:
    stmt = select(MetadataField, _usage().label("usage"))
    if name:
        stmt = stmt.where(icontains(MetadataField.name, name))
    if key:
        stmt = stmt.where(icontains(MetadataField.key, key))
    col = {"name": func.lower(MetadataField.name), "key": MetadataField.key, "usageCount": _usage()}[sort or "name"]
    return await page(session, stmt.order_by(_dir(col, order), MetadataField.id), skip=skip, take=take)


async def field_row(*, session: AsyncSession, field_id: uuid.UUID) -> Any | None:
    return (await session.execute(select(MetadataField, _usage().label("usage"))
                                  .where(MetadataField.id == field_id))).first()


# --------------------------------------------------------------------------- autocomplete
async def autocomplete(*, session: AsyncSession, kind: str, q: str, set_id: str | None = None,
                       release_id: str | None = None, segment_id: str | None = None,
                       manufacturer_id: str | None = None, year: str | None = None, limit: int = 10) -> list[str]:
    d = dialect_of(session)
    if kind == "segments":
        stmt = select(Segment.name).distinct().where(icontains(Segment.name, q)).order_by(Segment.name)
    elif kind == "manufacturers":
        stmt = select(Manufacturer.name).distinct().where(icontains(Manufacturer.name, q))
        if segment_id:
            stmt = stmt.where(Manufacturer.id.in_(select(Release.manufacturer_id).where(
                Release.segment_id == uuid.UUID(segment_id))))
        stmt = stmt.order_by(Manufacturer.name)
    else:
        col = {"cards": Card.name, "sets": CardSet.name, "releases": Release.name, "years": Release.year}[kind]
        stmt = select(col).distinct()
        if kind == "cards":
            stmt = stmt.join(Release, Release.id == Card.release_id)
        elif kind == "sets":
            stmt = stmt.join(Release, Release.id == CardSet.release_id)
        stmt = stmt.where(name_match(col, q, d) if kind != "years" else Release.year.contains(q, autoescape=True))
        if set_id and kind == "cards":
            stmt = stmt.where(Card.set_id == uuid.UUID(set_id))
        if release_id and kind in ("cards", "sets"):
            stmt = stmt.where(Release.id == uuid.UUID(release_id))
        if segment_id:
            stmt = stmt.where(Release.segment_id == uuid.UUID(segment_id))
        if manufacturer_id:
            stmt = stmt.where(Release.manufacturer_id == uuid.UUID(manufacturer_id))
        if year and kind != "years":
            stmt = stmt.where(Release.year == year)
        stmt = stmt.order_by(col)
    return [r[0] for r in (await session.execute(stmt.limit(limit))).all() if r[0] is not None]


# --------------------------------------------------------------------------- calendar, images
async def release_calendar(*, session: AsyncSession, segment: str | None, manufacturer: str | None,
                           year: str | None, skip: int, take: int) -> tuple[list[Any], int]:
    stmt = select(Release)
    if segment:
        stmt = stmt.where(segment_cond(segment))
    if manufacturer:
        stmt = stmt.where(manufacturer_cond(manufacturer))
    if year:
        stmt = stmt.where(Release.year == year)
    stmt = stmt.order_by(Release.release_date.desc().nulls_last(), Release.year.desc().nulls_last(), Release.name,
                         Release.id)
    return await page(session, stmt, skip=skip, take=take)


async def card_image(*, session: AsyncSession, card_id: uuid.UUID) -> CardImage | None:
    stmt = (select(CardImage).where(CardImage.card_id == card_id)
            .order_by(case((CardImage.side == "front", 0), else_=1), CardImage.id).limit(1))
    return (await session.execute(stmt)).scalars().first()


async def card_exists(*, session: AsyncSession, card_id: uuid.UUID) -> bool:
    return (await session.execute(select(Card.id).where(Card.id == card_id))).first() is not None

