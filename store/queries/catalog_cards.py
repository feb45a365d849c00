"""Card queries: search, detail, random picks and the page enrichments (attributes, prices)."""

from __future__ import annotations

import random
import uuid
from collections import defaultdict
from typing import Any

from sqlalchemy import and_, func, literal, or_, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Attribute,
    Card,
    CardAttribute,
    CardPrice,
    CardSet,
    FieldValue,
    MetadataField,
    Parallel,
    ParallelCard,
    Release,
)
from store.queries import card_name_search
from store.queries._util import page
from store.queries.catalog_filters import CardFilter, card_conds, dialect_of

# plain columns (no ORM identity map): rows read as ``row.id``, ``row.name``, ``row.set_name``
# the order a card's parallels are shown in (detail and result pages alike)
PARALLEL_ORDER = (Parallel.sort_order, Parallel.name, Parallel.id)
CARD_COLS = (*Card.__table__.c, CardSet.name.label("set_name"), Release.name.label("release_name"),
             Release.year.label("release_year"))


def _raw_price():
    return (select(CardPrice.value_cents)
            .where(CardPrice.card_id == Card.id, CardPrice.parallel_id.is_(None), CardPrice.price_key == "raw")
            .limit(1).scalar_subquery())


def _card_order(sort: str | None, order: str) -> list[Any]:
    desc = order == "desc"
    if sort == "price-raw":
        col = _raw_price()
        return [col.desc().nulls_last() if desc else col.asc().nulls_last(), Card.id]
    col = {"name": func.lower(Card.name), "release": func.lower(Release.name), "set": func.lower(CardSet.name),
           "year": Release.year, "number": Card.number_sort}.get(sort or "name", Card.name)
    first = col.desc() if desc else col.asc()
    if sort == "number":
        first = first.nulls_last()
    tail = [Card.number_sort, Card.number, Card.id] if sort != "number" else [Card.number, Card.id]
    return [first, *tail]


def card_select():
    return select(*CARD_COLS).join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)


async def search_cards(*, session: AsyncSession, f: CardFilter, sort: str | None, order: str, skip: int,
                       take: int) -> tuple[list[Any], int]:
    """One page plus the number matching. With filters, the total comes from ``count(*) OVER ()`` in
    the same statement as the page (the matches are read once); without, from a plain count, and the
    name order walks the ``card.name`` index (binary collation) instead of sorting the table."""
    term = card_name_search.name_only_term(f, sort, order, dialect_of(session))
    if term is not None:  # SQLite's most common search: a name alone, in name order
        ids, total = await card_name_search.page_ids(session, term, skip, take)
        rows = list(await session.execute(card_select().where(Card.id.in_(ids)))) if ids else []
        pos = {cid: i for i, cid in enumerate(ids)}
        return sorted(rows, key=lambda r: pos[r.id]), total
    conds = card_conds(f, dialect_of(session))
    if not conds:
        total = int((await session.execute(select(func.count(Card.id)))).scalar_one())
        if sort in (None, "name"):  # walk the name index instead of sorting the whole table
            by = [Card.name.desc() if order == "desc" else Card.name.asc(), Card.id]
        else:
            by = _card_order(sort, order)
        stmt = card_select().order_by(*by).offset(skip).limit(take)
        return list((await session.execute(stmt)).all()), total
    # the matches are counted and sorted as narrow rows (card id + sort keys); only the page's
    # cards are then read in full: sorting 30k wide rows for a common substring cost 25-40% more
    by = _card_order(sort, order)
    hits = (select(Card.id.label("hit_id"), func.count().over().label("total_matches"))
            .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
            .where(*conds).order_by(*by).offset(skip).limit(take).subquery("hits"))
    stmt = card_select().add_columns(hits.c.total_matches).join(hits, hits.c.hit_id == Card.id).order_by(*by)
    rows = list((await session.execute(stmt)).all())
    if rows:
        return rows, int(rows[0].total_matches)
    if skip == 0:
        return rows, 0
    return await page(session, card_select().where(*conds), skip=skip, take=take)


async def random_cards(*, session: AsyncSession, f: CardFilter, count: int, sort: str | None,
                       order: str) -> list[Any]:
    conds = card_conds(f, dialect_of(session))
    if conds:
        ids = select(Card.id).join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
        ids = ids.where(*conds).order_by(func.random()).limit(count)
        picked = [r[0] for r in (await session.execute(ids)).all()]
    else:
        picked = await _probe_ids(session, count)
    if not picked:
        return []
    stmt = card_select().where(Card.id.in_(picked))
    rows = list((await session.execute(stmt.order_by(*_card_order(sort, order)) if sort else stmt)).all())
    if not sort:
        pos = {cid: i for i, cid in enumerate(picked)}
        rows.sort(key=lambda r: pos[r.id])
    return rows


async def _probe_ids(session: AsyncSession, count: int) -> list[uuid.UUID]:
    """Random cards of the whole catalog without scanning it: card ids are random (uuid4 or uuid5
    hashes), so the ``count`` ids following a random UUID in primary-key order are a random
    sample (one index range read, wrapping around to the start when the end is reached)."""
    start = uuid.uuid4()
    picked = [r[0] for r in (await session.execute(
        select(Card.id).where(Card.id >= start).order_by(Card.id).limit(count))).all()]
    if len(picked) < count:
        picked += [r[0] for r in (await session.execute(
            select(Card.id).where(Card.id < start).order_by(Card.id).limit(count - len(picked)))).all()]
    random.shuffle(picked)
    return picked


async def card_row(*, session: AsyncSession, card_id: uuid.UUID) -> Any | None:
    return (await session.execute(card_select().where(Card.id == card_id))).first()


async def attributes_for(*, session: AsyncSession, card_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    out: dict[uuid.UUID, list[str]] = defaultdict(list)
    if card_ids:
        rows = await session.execute(
            select(CardAttribute.card_id, Attribute.short_name).join(Attribute, Attribute.id == CardAttribute.attribute_id)
            .where(CardAttribute.card_id.in_(card_ids)).order_by(Attribute.short_name))
        for cid, short in rows.all():
            out[cid].append(short)
    return out


def shown_price(key: str) -> bool:
    """The price keys a card page shows: raw, and grades 9 and 10."""
    return key == "raw" or key.endswith("-10") or key.endswith("-9")


async def prices_for(*, session: AsyncSession, card_ids: list[uuid.UUID],
                     parallel: bool = False) -> dict[tuple[uuid.UUID, uuid.UUID | None], dict[str, int]]:
    """``{(card_id, parallel_id or None): {price_key: cents}}`` from ``card_price``."""
    out: dict[tuple[uuid.UUID, uuid.UUID | None], dict[str, int]] = defaultdict(dict)
    if not card_ids:
        return out
    stmt = select(CardPrice.card_id, CardPrice.parallel_id, CardPrice.price_key, CardPrice.value_cents).where(
        CardPrice.card_id.in_(card_ids))
    if not parallel:
        stmt = stmt.where(CardPrice.parallel_id.is_(None))
    for cid, pid, key, cents in (await session.execute(stmt)).all():
        if shown_price(key):
            out[(cid, pid)][key] = cents
    return out


async def card_parallels(*, session: AsyncSession, card: Any) -> list[Parallel]:
    """Full-set parallels of the card's set plus the partial parallels that list this card."""
    linked = select(ParallelCard.parallel_id).where(ParallelCard.card_id == card.id)
    stmt = select(Parallel).where(Parallel.set_id == card.set_id,
                                  or_(Parallel.is_partial.is_(False), Parallel.id.in_(linked)))
    return list((await session.execute(stmt.order_by(*PARALLEL_ORDER))).scalars())


async def parallels_of_cards(*, session: AsyncSession, cards: list[Any]) -> dict[uuid.UUID, list[Parallel]]:
    """``card_parallels`` for many cards in two queries (random pulls)."""
    out: dict[uuid.UUID, list[Parallel]] = defaultdict(list)
    if not cards:
        return out
    set_ids = {c.set_id for c in cards}
    pars = list((await session.execute(select(Parallel).where(Parallel.set_id.in_(set_ids))
                                       .order_by(*PARALLEL_ORDER))).scalars())
    by_set: dict[Any, list[Parallel]] = defaultdict(list)
    for p in pars:
        by_set[p.set_id].append(p)
    links = defaultdict(set)
    for pid, cid in (await session.execute(select(ParallelCard.parallel_id, ParallelCard.card_id).where(
            ParallelCard.card_id.in_([c.id for c in cards])))).all():
        links[cid].add(pid)
    for c in cards:
        out[c.id] = [p for p in by_set[c.set_id] if not p.is_partial or p.id in links[c.id]]
    return out


async def enrich(*, session: AsyncSession, card_ids: list[uuid.UUID]
                 ) -> tuple[dict[uuid.UUID, list[str]], dict[tuple[uuid.UUID, uuid.UUID | None], dict[str, int]]]:
    """Attribute codes and base-card prices of a page of cards in one round trip (UNION ALL)."""
    attrs: dict[uuid.UUID, list[str]] = defaultdict(list)
    prices: dict[tuple[uuid.UUID, uuid.UUID | None], dict[str, int]] = defaultdict(dict)
    if not card_ids:
        return attrs, prices
    a = (select(CardAttribute.card_id.label("card_id"), literal("a").label("kind"), Attribute.short_name.label("k"),
                literal(0).label("v"))
         .join(Attribute, Attribute.id == CardAttribute.attribute_id).where(CardAttribute.card_id.in_(card_ids)))
    p = (select(CardPrice.card_id, literal("p"), CardPrice.price_key, CardPrice.value_cents)
         .where(CardPrice.card_id.in_(card_ids), CardPrice.parallel_id.is_(None)))
    for cid, kind, key, value in (await session.execute(union_all(a, p))).all():
        if kind == "a":
            attrs[cid].append(key)
        elif shown_price(key):
            prices[(cid, None)][key] = value
    for codes in attrs.values():
        codes.sort()
    return attrs, prices


async def fields_for(*, session: AsyncSession, entity_type: str, entity_id: uuid.UUID) -> list[tuple[str, str]]:
    rows = await session.execute(
        select(MetadataField.key, FieldValue.value).join(MetadataField, MetadataField.id == FieldValue.field_id)
        .where(and_(FieldValue.entity_type == entity_type, FieldValue.entity_id == entity_id))
        .order_by(MetadataField.key))
    return [(k, v) for k, v in rows.all()]


async def fields_of_cards(*, session: AsyncSession, card_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[tuple[str, str]]]:
    """``fields_for`` of many cards in one query, each card's pairs ordered by key."""
    out: dict[uuid.UUID, list[tuple[str, str]]] = defaultdict(list)
    if not card_ids:
        return out
    rows = await session.execute(
        select(FieldValue.entity_id, MetadataField.key, FieldValue.value)
        .join(MetadataField, MetadataField.id == FieldValue.field_id)
        .where(FieldValue.entity_type == "card", FieldValue.entity_id.in_(card_ids))
        .order_by(FieldValue.entity_id, MetadataField.key, FieldValue.value))
    for entity_id, key, value in rows.all():
        out[entity_id].append((key, value))
    return out


async def inherited_fields(*, session: AsyncSession, levels: list[tuple[str, uuid.UUID | None]]
                           ) -> list[tuple[str, str]]:
    """The metadata of several levels (segment, release, set), in that order; duplicate keys are kept."""
    out: list[tuple[str, str]] = []
    for entity_type, entity_id in levels:
        if entity_id is not None:
            out += await fields_for(session=session, entity_type=entity_type, entity_id=entity_id)
    return out
