"""Release and set queries: search, detail, random, with their card and parallel counts."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardSet, Parallel, ParallelCard, Release
from store.queries._util import page
from store.queries.catalog_filters import dialect_of, manufacturer_cond, name_match, segment_cond, year_conds


def release_identifiable():
    return exists().where(CardSet.release_id == Release.id, CardSet.is_identifiable.is_(True))


def set_card_count():
    return (select(func.count(Card.id)).where(Card.set_id == CardSet.id, Card.variation_of.is_(None))
            .correlate(CardSet).scalar_subquery())


def set_parallel_count():
    return select(func.count(Parallel.id)).where(Parallel.set_id == CardSet.id).correlate(CardSet).scalar_subquery()


def _release_conds(session, *, name=None, year=None, min_year=None, max_year=None, manufacturer=None,
                   segment=None, identifiable=None) -> list[Any]:
    conds = year_conds(year, min_year, max_year)
    if name:
        conds.append(name_match(Release.name, name, dialect_of(session)))
    if manufacturer:
        conds.append(manufacturer_cond(manufacturer))
    if segment:
        conds.append(segment_cond(segment))
    if identifiable is not None:
        conds.append(release_identifiable() if identifiable else ~release_identifiable())
    return conds


def _order(sort: str | None, order: str, cols: dict[str, Any], default: str) -> list[Any]:
    col = cols[sort or default]
    return [col.desc() if order == "desc" else col.asc()]


async def search_releases(*, session: AsyncSession, skip: int, take: int, sort: str | None, order: str,
                          **filters: Any) -> tuple[list[Any], int]:
    stmt = select(Release, release_identifiable().label("ident")).where(*_release_conds(session, **filters))
    stmt = stmt.order_by(*_order(sort, order, {"year": Release.year, "name": func.lower(Release.name)}, "name"),
                         Release.id)
    return await page(session, stmt, skip=skip, take=take)


async def random_releases(*, session: AsyncSession, count: int, sort: str | None, order: str,
                          **filters: Any) -> list[Any]:
    inner = select(Release.id).where(*_release_conds(session, **filters)).order_by(func.random()).limit(count)
    stmt = select(Release, release_identifiable().label("ident")).where(Release.id.in_(inner))
    if sort:
        stmt = stmt.order_by(*_order(sort, order, {"year": Release.year, "name": func.lower(Release.name)}, "name"))
    return list((await session.execute(stmt)).all())


async def release_detail(*, session: AsyncSession, release_id: uuid.UUID) -> tuple[Any, list[Any]] | None:
    row = (await session.execute(select(Release, release_identifiable().label("ident"))
                                 .where(Release.id == release_id))).first()
    if row is None:
        return None
    sets = (await session.execute(
        select(CardSet, set_card_count().label("card_count"), set_parallel_count().label("parallel_count"))
        .where(CardSet.release_id == release_id).order_by(func.lower(CardSet.name), CardSet.id))).all()
    return row, list(sets)


SET_COLS = (CardSet, set_card_count().label("card_count"), set_parallel_count().label("parallel_count"),
            Release.name.label("release_name"), Release.year.label("release_year"))


def _set_conds(session, *, release_id=None, name=None, year=None, min_year=None, max_year=None,
               manufacturer=None, identifiable=None) -> list[Any]:
    conds = year_conds(year, min_year, max_year)
    if release_id:
        conds.append(CardSet.release_id == uuid.UUID(release_id))
    if name:
        conds.append(name_match(CardSet.name, name, dialect_of(session)))
    if manufacturer:
        conds.append(manufacturer_cond(manufacturer))
    if identifiable is not None:
        conds.append(CardSet.is_identifiable.is_(identifiable))
    return conds


_SET_SORT = {"name": func.lower(CardSet.name), "year": Release.year}


async def search_sets(*, session: AsyncSession, skip: int, take: int, sort: str | None, order: str,
                      **filters: Any) -> tuple[list[Any], int]:
    stmt = select(*SET_COLS).join(Release, Release.id == CardSet.release_id).where(*_set_conds(session, **filters))
    stmt = stmt.order_by(*_order(sort, order, _SET_SORT, "name"), CardSet.id)
    return await page(session, stmt, skip=skip, take=take)


async def random_sets(*, session: AsyncSession, count: int, sort: str | None, order: str,
                      **filters: Any) -> list[Any]:
    inner = (select(CardSet.id).join(Release, Release.id == CardSet.release_id)
             .where(*_set_conds(session, **filters)).order_by(func.random()).limit(count))
    stmt = select(*SET_COLS).join(Release, Release.id == CardSet.release_id).where(CardSet.id.in_(inner))
    if sort:
        stmt = stmt.order_by(*_order(sort, order, _SET_SORT, "name"))
    return list((await session.execute(stmt)).all())


async def set_row(*, session: AsyncSession, set_id: uuid.UUID) -> Any | None:
    return (await session.execute(select(*SET_COLS).join(Release, Release.id == CardSet.release_id)
                                  .where(CardSet.id == set_id))).first()


async def set_parallels(*, session: AsyncSession, set_id: uuid.UUID) -> list[tuple[Parallel, list[uuid.UUID]]]:
    pars = list((await session.execute(select(Parallel).where(Parallel.set_id == set_id)
                                       .order_by(Parallel.sort_order, Parallel.name, Parallel.id))).scalars())
    links: dict[uuid.UUID, list[uuid.UUID]] = {p.id: [] for p in pars}
    partial = [p.id for p in pars if p.is_partial]
    if partial:
        for pid, cid in (await session.execute(select(ParallelCard.parallel_id, ParallelCard.card_id)
                                               .where(ParallelCard.parallel_id.in_(partial)))).all():
            links[pid].append(cid)
    return [(p, sorted(links[p.id], key=str)) for p in pars]
